"""The virtual KGSL's GPU memory, command submission and timestamps, and its A6XX command
processor, driven with raw ioctls and hand-built command streams: refused as msm-4.9 refuses,
faults named with the IB address and dword."""
import errno

import numpy as np
import pytest

import kgsl_ioctl as K
from drivers.emu import make_kernel
from drivers.errors import IoctlError
from drivers.kernel import MAP_SHARED, PROT_READ, PROT_WRITE
from drivers.qcom import kgsl, pm4
from drivers.qcom.kgsl import COMPUTE_CONTEXT_FLAGS, create_context, open_device

NOTHING_LIVE = {"files": 0, "contexts": 0, "objects": 0, "mappings": 0, "pending": 0}
SVM = K.memflags(K.KGSL_MEMFLAGS_USE_CPU_MAP, align=12)


class Kgsl:
    """A raw session: the device file, one compute context, and helpers around the ioctls."""

    def __init__(self, flags=COMPUTE_CONTEXT_FLAGS | K.KGSL_CONTEXT_FAULT_INFO):
        self.kernel = make_kernel("a630")
        self.fd = open_device(self.kernel)
        self.ctx, _ = create_context(self.kernel, self.fd, flags)
        self.gpu = self.kernel.kgsl.gpu

    def alloc(self, size=4096, flags=SVM):
        obj = kgsl.gpuobj_alloc(self.kernel, self.fd, size, flags)
        m = self.kernel.mmap(self.fd, obj.mmapsize, K.mmap_offset(obj.id), PROT_READ | PROT_WRITE, MAP_SHARED)
        return obj, m

    def ib(self, words):
        obj, m = self.alloc(max(4096, 4 * len(words)))
        m.view(np.uint32, 0, len(words))[:] = words
        return m.address, 4 * len(words)

    def submit(self, words, ctx=None):
        va, size = self.ib(words)
        return kgsl.gpu_command(self.kernel, self.fd, ctx or self.ctx, [(va, size)])

    def wait(self, ts, timeout_ms=2000, ctx=None):
        kgsl.wait_timestamp(self.kernel, self.fd, ctx or self.ctx, ts, timeout_ms)

    def command(self, **fields):
        args = K.new("kgsl_gpu_command", context_id=self.ctx, **fields)
        self.kernel.ioctl(self.fd, K.IOCTL_KGSL_GPU_COMMAND, args, "IOCTL_KGSL_GPU_COMMAND")
        return args.timestamp


@pytest.fixture
def s():
    return Kgsl()


def refused(err, match):
    return pytest.raises(IoctlError, match=f"{errno.errorcode[err]}.*{match}")


def mmap_refused(err, match):
    """mmap fails as mmap(2) does: an OSError with the errno (the message names the rule)."""
    return pytest.raises(OSError, match=match)


# -- GPU objects ---------------------------------------------------------------------------------------
def test_gpuobj_alloc_keeps_known_flags_and_maps_at_id_times_4096(s):
    flags = SVM | K.memflags(cachemode=K.KGSL_CACHEMODE_WRITETHROUGH) | (1 << 40)      # bit 40: nothing
    obj = kgsl.gpuobj_alloc(s.kernel, s.fd, 100, flags)
    assert obj.id == 1 and obj.size == 4096 and obj.mmapsize == 4096
    assert obj.flags == SVM | K.memflags(cachemode=K.KGSL_CACHEMODE_WRITEBACK)       # arm64: no write-through
    info = kgsl.gpuobj_info(s.kernel, s.fd, obj.id)
    assert info.gpuaddr == 0 and info.va_len == 4096          # SVM: no GPU address until mapped
    with mmap_refused(errno.ERANGE, "length 8192, the object's footprint is 4096") as err:
        s.kernel.mmap(s.fd, 8192, K.mmap_offset(obj.id))
    assert err.value.errno == errno.ERANGE
    m = s.kernel.mmap(s.fd, 4096, K.mmap_offset(obj.id))
    assert kgsl.gpuobj_info(s.kernel, s.fd, obj.id).gpuaddr == m.address
    with mmap_refused(errno.EBUSY, "already mapped"):
        s.kernel.mmap(s.fd, 4096, K.mmap_offset(obj.id))
    with mmap_refused(errno.EINVAL, "no GPU object has id 9"):
        s.kernel.mmap(s.fd, 4096, K.mmap_offset(9))


@pytest.mark.parametrize("size, flags, err, match", [
    (0, SVM, errno.EINVAL, "size 0"),
    (1 << 32, SVM, errno.EINVAL, "objects are 1 byte to 4 GiB"),
    (4096, SVM | K.KGSL_MEMFLAGS_SECURE, errno.EOPNOTSUPP, "secure memory"),
])
def test_gpuobj_alloc_refusals(s, size, flags, err, match):
    with refused(err, match):
        kgsl.gpuobj_alloc(s.kernel, s.fd, size, flags)


def test_free_and_info_of_unknown_ids_and_free_on_timestamp(s):
    with refused(errno.EINVAL, "no GPU object has id 0"):
        kgsl.gpuobj_info(s.kernel, s.fd, 0)
    with refused(errno.EINVAL, "no GPU object has id 77"):
        kgsl.gpuobj_free(s.kernel, s.fd, 77)
    obj = kgsl.gpuobj_alloc(s.kernel, s.fd, 4096, SVM)
    ts = s.submit(pm4.pkt7(pm4.CP_NOP))
    event = K.new("kgsl_gpu_event_timestamp", context_id=s.ctx, timestamp=ts)
    args = K.new("kgsl_gpuobj_free", id=obj.id, flags=K.KGSL_GPUOBJ_FREE_ON_EVENT, type=K.KGSL_GPU_EVENT_TIMESTAMP,
                 priv=K.address_of(event), len=K.ffi.sizeof(event[0]))
    objects = s.kernel.live()["objects"]
    s.kernel.ioctl(s.fd, K.IOCTL_KGSL_GPUOBJ_FREE, args, "IOCTL_KGSL_GPUOBJ_FREE")
    with refused(errno.EINVAL, f"no GPU object has id {obj.id}"):      # the id is gone at once...
        kgsl.gpuobj_info(s.kernel, s.fd, obj.id)
    assert s.kernel.live()["objects"] == objects                       # ...the memory when ts retires
    s.wait(ts)
    assert s.kernel.live()["objects"] == objects - 1


def test_freed_object_lives_until_munmap_and_close_records_leaks(s):
    obj, m = s.alloc()
    kgsl.gpuobj_free(s.kernel, s.fd, obj.id)
    assert s.kernel.live()["objects"] >= 1
    s.kernel.munmap(m)
    kgsl.destroy_context(s.kernel, s.fd, s.ctx)
    other, m2 = s.alloc()
    s.kernel.munmap(m2)
    s.kernel.close(s.fd)
    assert s.kernel.live() == NOTHING_LIVE
    assert s.kernel.kgsl.leaked == [f"GPU object {other.id} (4096 bytes)"]


def test_memstore_is_read_only_and_holds_the_retired_timestamp(s):
    addr, size = kgsl.shadow(s.kernel, s.fd)
    with mmap_refused(errno.EPERM, "read-only") as err:
        s.kernel.mmap(s.fd, size, addr, PROT_READ | PROT_WRITE)
    assert err.value.errno == errno.EPERM
    m = s.kernel.mmap(s.fd, size, addr, PROT_READ)
    ts = s.submit(pm4.pkt7(pm4.CP_NOP))
    s.wait(ts)
    assert m.view(np.uint32)[K.KGSL_MEMSTORE_OFFSET(s.ctx, "eoptimestamp") // 4] == ts == 1
    s.kernel.munmap(m)


# -- GPU_COMMAND and timestamps ------------------------------------------------------------------------
def test_gpu_command_refusals(s):
    va, size = s.ib(pm4.pkt7(pm4.CP_NOP))
    objs = K.ffi.new("struct kgsl_command_object[1]")
    objs[0].gpuaddr, objs[0].size = va, size
    cmd = dict(cmdlist=K.address_of(objs), cmdsize=K.ffi.sizeof(objs[0]), numcmds=1)
    with refused(errno.EINVAL, "command object flags 0x0 are neither KGSL_CMDLIST_IB nor a preamble"):
        s.command(**cmd)
    objs[0].flags = K.KGSL_CMDLIST_IB
    with refused(errno.EINVAL, "command list has count 1, pointer .*, element size 0"):
        s.command(**{**cmd, "cmdsize": 0})
    with refused(errno.EINVAL, "at most 100000"):
        s.command(**{**cmd, "numcmds": 100001})
    objs[0].size = 6
    with refused(errno.EINVAL, "of 6 bytes"):
        s.command(**cmd)
    objs[0].size = size
    with refused(errno.EINVAL, "context 99 does not exist"):
        s.kernel.ioctl(s.fd, K.IOCTL_KGSL_GPU_COMMAND, K.new("kgsl_gpu_command", context_id=99, **cmd))
    assert s.command(**cmd) == 1 and s.command() == 2               # no IBs: a marker


def test_sync_points_order_contexts(s):
    other, _ = create_context(s.kernel, s.fd, COMPUTE_CONTEXT_FLAGS)
    flag, fm = s.alloc()
    fm.view(np.uint32)[:] = 0
    blocker = s.submit(pm4.wait_reg_mem_ge(fm.address, 1))
    sync = K.new("kgsl_cmd_syncpoint_timestamp", context_id=s.ctx, timestamp=blocker)
    sp = K.new("kgsl_command_syncpoint", priv=K.address_of(sync), size=8, type=K.KGSL_CMD_SYNCPOINT_TYPE_TIMESTAMP)
    args = K.new("kgsl_gpu_command", context_id=other, synclist=K.address_of(sp),
                 syncsize=K.ffi.sizeof(sp[0]), numsyncs=1)
    s.kernel.ioctl(s.fd, K.IOCTL_KGSL_GPU_COMMAND, args, "IOCTL_KGSL_GPU_COMMAND")
    with refused(errno.ETIMEDOUT, "not retired after 50 ms"):
        s.wait(args.timestamp, 50, ctx=other)                       # waits on the blocked context
    fm.view(np.uint32)[0] = 1
    s.wait(args.timestamp, 2000, ctx=other)
    assert kgsl.read_timestamp(s.kernel, s.fd, s.ctx) == blocker
    sync.timestamp = 99
    sp.size = 8
    args.context_id = s.ctx
    with refused(errno.EINVAL, "sync point on timestamp 99 of its own context, which has queued only 1"):
        s.kernel.ioctl(s.fd, K.IOCTL_KGSL_GPU_COMMAND, args, "IOCTL_KGSL_GPU_COMMAND")
    sp.size = 4
    with refused(errno.EINVAL, "payload of 4 bytes, 8 expected"):
        s.kernel.ioctl(s.fd, K.IOCTL_KGSL_GPU_COMMAND, args, "IOCTL_KGSL_GPU_COMMAND")


def test_wait_on_a_timestamp_not_queued_is_einval(s):
    with refused(errno.EINVAL, "timestamp 5 of context 1 is not queued"):
        s.wait(5)
    with refused(errno.EINVAL, "type 9 is not CONSUMED"):
        kgsl.read_timestamp(s.kernel, s.fd, s.ctx, 9)


# -- the command processor -----------------------------------------------------------------------------
def fault_of(s, words):
    """Submit ``words``; the wait must be EDEADLK, and return KGSL's message."""
    ts = s.submit(words)
    with pytest.raises(IoctlError) as err:
        s.wait(ts)
    assert err.value.errno_value == errno.EDEADLK
    assert kgsl.reset_status(s.kernel, s.fd, s.ctx) == K.KGSL_CTX_STAT_GUILTY_CONTEXT_RESET_EXT
    return str(err.value)


def test_bad_header_parity_names_the_ib_and_dword(s):
    words = pm4.pkt7(pm4.CP_NOP) + [pm4.pkt7(pm4.CP_WAIT_FOR_IDLE)[0] ^ (1 << 15)]
    msg = fault_of(s, words)
    assert "CP: IB1 at 0x" in msg and "dword 1 (header 0x70260000): type-7 header parity is wrong" in msg


def test_type4_parity_protected_registers_and_unknown_opcodes():
    for words, match in ((pm4.pkt4(pm4.SP_CS_CONFIG, 0)[:1] + [0], None),
                         (pm4.pkt4(0x0980, 1), "CP_ALWAYS_ON_COUNTER is protected (CP_PROTECT)"),
                         (pm4.pkt7(0x7F), "opcode 0x7f is not a packet the virtual CP executes"),
                         ([0x00000000], "type-0 packet: the a6xx CP takes type-4 and type-7 packets only"),
                         (pm4.pkt7(pm4.CP_NOP, 1, 2)[:2], "run past the end of the 2-dword IB")):
        s = Kgsl()
        if match is None:
            words[0] ^= 1 << 27
            match = "type-4 header parity is wrong"
        assert match in fault_of(s, words)


def test_ib2_runs_and_ib3_is_refused(s):
    target, tm = s.alloc()
    inner = pm4.pkt7(pm4.CP_MEM_WRITE, *pm4.lo_hi(tm.address), 0xABCD)
    ib2, size2 = s.ib(inner)
    ts = s.submit(pm4.indirect_buffer(ib2, size2 // 4))
    s.wait(ts)
    assert tm.view(np.uint32)[0] == 0xABCD
    ib3, size3 = s.ib(pm4.indirect_buffer(ib2, size2 // 4))
    assert "inside an IB2: the a6xx CP has two IB levels" in fault_of(s, pm4.indirect_buffer(ib3, size3 // 4))


def test_ib_in_unmapped_memory_is_a_page_fault_the_fault_report_names():
    s = Kgsl()
    ts = kgsl.gpu_command(s.kernel, s.fd, s.ctx, [(0xBAD000, 16)])
    with refused(errno.EDEADLK, "CP fetching IB1 at 0xbad000"):
        s.wait(ts)
    assert kgsl.page_faults(s.kernel, s.fd, s.ctx) == [
        (0xBAD000, K.KGSL_PAGEFAULT_TYPE_READ | K.KGSL_PAGEFAULT_TYPE_TRANSLATION)]
    with refused(errno.EDEADLK, "was invalidated by a page fault"):
        s.submit(pm4.pkt7(pm4.CP_NOP))


def test_fault_report_needs_an_invalid_fault_info_context(s):
    with refused(errno.EINVAL, "is valid and has KGSL_CONTEXT_FAULT_INFO"):
        kgsl.page_faults(s.kernel, s.fd, s.ctx)


def test_reg_to_mem_reads_the_19_2_mhz_always_on_counter(s):
    out, om = s.alloc()
    words = pm4.reg_to_mem64(pm4.CP_ALWAYS_ON_COUNTER, om.address)
    words += pm4.pkt7(pm4.CP_WAIT_MEM_WRITES) + pm4.reg_to_mem64(pm4.CP_ALWAYS_ON_COUNTER, om.address + 8)
    ts = s.submit(words)
    s.wait(ts)
    first, second = om.view(np.uint64, 0, 2)
    assert 0 < first <= second


def test_dispatch_needs_its_state():
    for words, match in ((pm4.pkt7(pm4.CP_EXEC_CS, 0, 1, 1, 1), "SP_CS_CONFIG.ENABLED is not set"),
                         (pm4.pkt4(pm4.SP_CS_CONFIG, 1 << 8) + pm4.pkt4(pm4.HLSQ_CS_CNTL, 1 << 8)
                          + pm4.pkt7(pm4.CP_EXEC_CS, 0, 1, 1, 1), "no shader (SP_CS_OBJ_START 0x0")):
        assert match in fault_of(Kgsl(), words)


def test_cache_maintenance_moves_data_between_views(s):
    obj, m = s.alloc(flags=SVM | K.memflags(cachemode=K.KGSL_CACHEMODE_WRITEBACK))
    m.view(np.uint32)[0] = 5                                         # in the CPU's cache only
    gpu_view = s.gpu.vm.view(m.address, np.uint32)
    assert gpu_view[0] == 0
    kgsl.gpuobj_sync(s.kernel, s.fd, obj.id, K.KGSL_GPUMEM_CACHE_TO_GPU)
    assert gpu_view[0] == 5
    gpu_view[0] = 9                                                  # the GPU writes
    assert m.view(np.uint32)[0] == 5
    kgsl.gpuobj_sync(s.kernel, s.fd, obj.id, K.KGSL_GPUMEM_CACHE_FROM_GPU)
    assert m.view(np.uint32)[0] == 9
    with refused(errno.EINVAL, "neither a clean nor an invalidate"):
        kgsl.gpuobj_sync(s.kernel, s.fd, obj.id, 0)


def test_load_state_of_texture_and_sampler_state(s):
    tex = [0x1234] + [0] * 15
    ts = s.submit(pm4.load_state6(pm4.ST6_CONSTANTS, 1, pm4.SS6_DIRECT, data=tex, block=5)
                  + pm4.load_state6(pm4.ST6_SHADER, 1, pm4.SS6_DIRECT, data=[7, 0, 0, 0], dst_off=2, block=5))
    s.wait(ts)
    cp = s.gpu.cp
    assert cp.textures[0][0] == 0x1234 and cp.samplers[2][0] == 7
    assert "2 texture descriptors need 32 dwords, the packet has 16" in fault_of(
        s, pm4.load_state6(pm4.ST6_CONSTANTS, 2, pm4.SS6_DIRECT, data=tex, block=5))
