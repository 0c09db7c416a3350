"""The virtual amdkfd, driven through the kernel seam like a driver: every rule has its errno."""
import errno
import time

import numpy as np
import pytest

import kfd_ioctl as K
from drivers.emu import make_kernel
from drivers.emu.amd.kfd_client import GTT, VRAM, KfdClient
from drivers.errors import IoctlError
from drivers.kernel import MAP_PRIVATE

COMPUTE, AQL, SDMA = K.KFD_IOC_QUEUE_TYPE_COMPUTE, K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, K.KFD_IOC_QUEUE_TYPE_SDMA


@pytest.fixture
def kernel():
    k = make_kernel("gfx1100")
    yield k
    assert k.gpu.live() == {"processes": 0, "bos": 0, "queues": 0, "events": 0, "mappings": 0}


@pytest.fixture
def c(kernel):
    client = KfdClient(kernel)
    yield client
    client.close()


def refused(c, name, err, match=None, **fields):
    with pytest.raises(IoctlError) as e:
        c.ioctl(name, **fields)
    assert e.value.errno_value == err, str(e.value)
    assert e.value.name == f"AMDKFD_IOC_{name}"
    if match:
        assert match in str(e.value), str(e.value)
    return e.value


def ptr(cdata):
    return int(K.ffi.cast("uintptr_t", cdata))


# -- dispatch of commands -----------------------------------------------------------------------
def test_get_version_reports_an_abi_with_runtime_enable(kernel):
    fd = kernel.open("/dev/kfd")
    args = K.new("kfd_ioctl_get_version_args")
    kernel.ioctl(fd, K.AMDKFD_IOC_GET_VERSION, args)
    assert (args.major_version, args.minor_version) == (1, 18)
    kernel.close(fd)


def test_unknown_and_removed_commands(kernel):
    fd = kernel.open("/dev/kfd")
    for nr in (0x00, 0x27, 0x7F):
        with pytest.raises(IoctlError) as e:
            kernel.ioctl(fd, K._IOWR("K", nr, 8), bytearray(8))
        assert e.value.errno_name == "ENOTTY" and "no amdkfd command" in str(e.value)
    with pytest.raises(IoctlError) as e:
        kernel.ioctl(fd, K.AMDKFD_IOC_DBG_REGISTER_DEPRECATED, bytearray(8))
    assert e.value.errno_name == "EPERM"
    with pytest.raises(IoctlError) as e:
        kernel.ioctl(fd, K.AMDKFD_IOC_GET_TILE_CONFIG, K.new("kfd_ioctl_get_tile_config_args"))
    assert e.value.errno_name == "EINVAL" and "not emulated" in str(e.value)
    kernel.close(fd)


def test_argument_size_follows_the_caller_like_kfd_ioctl(kernel):
    fd = kernel.open("/dev/kfd")
    with pytest.raises(IoctlError) as e:                 # _IOC_SIZE larger than the buffer: copy fails
        kernel.ioctl(fd, K._IOR("K", 1, 16), bytearray(8))
    assert e.value.errno_name == "EFAULT"
    buf = bytearray(b"\xAA" * 8)                         # a 4-byte GET_VERSION copies 4 bytes back
    kernel.ioctl(fd, K._IOR("K", 1, 4), buf)
    assert buf == (1).to_bytes(4, "little") + b"\xAA" * 4
    kernel.close(fd)


def test_kfd_mmap_offsets_are_checked(c):
    q = c.create_queue(SDMA)
    base = (3 << 62) | (c.gpu_id & 0xFFFF) << 46
    for size, offset, err in ((4096, base, errno.EINVAL), (8192, (3 << 62) | (0x1234 << 46), errno.ENODEV),
                              (4096, 1 << 62, errno.EFAULT), (8192, 2 << 62, errno.EINVAL)):
        with pytest.raises(OSError) as e:
            c.k.mmap(c.kfd, size, offset)
        assert e.value.errno == err
    assert q.doorbell_offset % 8 == 0


# -- VM, runtime, apertures, clocks -------------------------------------------------------------
def test_acquire_vm_rules(kernel):
    kfd = kernel.open("/dev/kfd")
    drm = kernel.open("/dev/dri/renderD128")
    other = kernel.open("/dev/dri/renderD128")
    gpu_id = kernel.gpu.gpu_id

    def acquire(fd, gid=gpu_id):
        kernel.ioctl(kfd, K.AMDKFD_IOC_ACQUIRE_VM, K.new("kfd_ioctl_acquire_vm_args", drm_fd=fd, gpu_id=gid))

    alloc = K.new("kfd_ioctl_alloc_memory_of_gpu_args", va_addr=1 << 32, size=4096, gpu_id=gpu_id, flags=GTT)
    with pytest.raises(IoctlError) as e:                 # no VM yet: kfd_bind_process_to_device
        kernel.ioctl(kfd, K.AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, alloc)
    assert e.value.errno_name == "ENODEV" and "ACQUIRE_VM" in str(e.value)
    for fd, gid in ((9999, gpu_id), (kfd, gpu_id), (drm, 0x1234)):
        with pytest.raises(IoctlError) as e:
            acquire(fd, gid)
        assert e.value.errno_name == "EINVAL"
    acquire(drm)
    acquire(drm)                                         # the same file again is fine
    with pytest.raises(IoctlError) as e:
        acquire(other)
    assert e.value.errno_name == "EBUSY"
    for fd in (other, drm, kfd):
        kernel.close(fd)


def test_runtime_enable_twice_is_busy(c):
    refused(c, "RUNTIME_ENABLE", errno.EBUSY, mode_mask=1)
    c.ioctl("RUNTIME_ENABLE", mode_mask=0)
    c.ioctl("RUNTIME_ENABLE", mode_mask=1)
    c.ioctl("RUNTIME_ENABLE", mode_mask=0)
    c.create_queue(SDMA)
    refused(c, "RUNTIME_ENABLE", errno.EEXIST, "queues", mode_mask=1)


def test_process_apertures(c):
    assert c.ioctl("GET_PROCESS_APERTURES_NEW", num_of_nodes=0).num_of_nodes == 1
    ap = K.ffi.new("struct kfd_process_device_apertures[1]")
    a = c.ioctl("GET_PROCESS_APERTURES_NEW", num_of_nodes=1, kfd_process_device_apertures_ptr=ptr(ap))
    assert a.num_of_nodes == 1 and ap[0].gpu_id == c.gpu_id and ap[0].gpuvm_limit == (1 << 47) - 1
    refused(c, "GET_PROCESS_APERTURES_NEW", errno.EFAULT, num_of_nodes=1, kfd_process_device_apertures_ptr=0x1000)
    assert c.ioctl("GET_PROCESS_APERTURES").process_apertures[0].gpu_id == c.gpu_id


def test_gpu_clock_is_monotonic_at_100mhz(c):
    a = c.ioctl("GET_CLOCK_COUNTERS", gpu_id=c.gpu_id)
    time.sleep(0.02)
    b = c.ioctl("GET_CLOCK_COUNTERS", gpu_id=c.gpu_id)
    ticks, ns = b.gpu_clock_counter - a.gpu_clock_counter, b.cpu_clock_counter - a.cpu_clock_counter
    assert ticks > 0 and abs(ticks / (ns * 1e-9) - 100e6) < 5e6
    assert b.system_clock_freq == 1_000_000_000


def test_xnack_and_scratch(c):
    assert c.ioctl("SET_XNACK_MODE", xnack_enabled=-1).xnack_enabled == 0
    refused(c, "SET_XNACK_MODE", errno.EPERM, "XNACK", xnack_enabled=1)
    c.ioctl("SET_XNACK_MODE", xnack_enabled=0)
    c.create_queue(SDMA)
    refused(c, "SET_XNACK_MODE", errno.EBUSY, xnack_enabled=0)
    refused(c, "SET_SCRATCH_BACKING_VA", errno.EINVAL, va_addr=1 << 40, gpu_id=7)
    c.ioctl("SET_SCRATCH_BACKING_VA", va_addr=1 << 40, gpu_id=c.gpu_id)
    refused(c, "SET_MEMORY_POLICY", errno.EINVAL, gpu_id=c.gpu_id, default_policy=2)


# -- memory -------------------------------------------------------------------------------------
def test_alloc_rules(c):
    va = 0x7E00_0000_0000
    alloc = lambda **f: c.ioctl("ALLOC_MEMORY_OF_GPU", **{"va_addr": va, "size": 8192, "gpu_id": c.gpu_id,  # noqa: E731
                                                          "flags": GTT, **f})
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "size is 0", va_addr=va, size=0, gpu_id=c.gpu_id, flags=GTT)
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "gpu_id", va_addr=va, size=4096, gpu_id=5, flags=GTT)
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "aligned", va_addr=va + 0x800, size=4096, gpu_id=c.gpu_id, flags=GTT)
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "memory type", va_addr=va, size=4096, gpu_id=c.gpu_id,
            flags=K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE)
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "DOORBELL", va_addr=va, size=4096, gpu_id=c.gpu_id,
            flags=K.KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL)
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "MMIO_REMAP", va_addr=va, size=8192, gpu_id=c.gpu_id,
            flags=K.KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "USERPTR", va_addr=va, size=4096, gpu_id=c.gpu_id,
            flags=K.KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, mmap_offset=0x1234)
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EFAULT, "not mapped", va_addr=va, size=4096, gpu_id=c.gpu_id,
            flags=K.KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, mmap_offset=0x1000)
    first = alloc()
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, "overlaps", va_addr=va + 4096, size=8192, gpu_id=c.gpu_id, flags=GTT)
    mmio = c.ioctl("ALLOC_MEMORY_OF_GPU", va_addr=va + 0x10000, size=4096, gpu_id=c.gpu_id,
                   flags=K.KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE)
    assert mmio.mmap_offset >> 62 == 0 and (mmio.mmap_offset >> 46) & 0xFFFF == c.gpu_id & 0xFFFF
    page = c.k.mmap(c.kfd, 4096, mmio.mmap_offset)
    page.view(np.uint32)[0] = 1                          # an HDP flush write
    c.k.munmap(page)
    for h in (first.handle, mmio.handle):
        c.ioctl("FREE_MEMORY_OF_GPU", handle=h)


def test_vram_budget_is_enforced_without_touching_host_memory(c):
    avail = c.ioctl("AVAILABLE_MEMORY", gpu_id=c.gpu_id).available
    assert avail == 24560 << 20
    big = c.alloc(20 << 30, VRAM, cpu=False, map_gpu=False)
    assert c.ioctl("AVAILABLE_MEMORY", gpu_id=c.gpu_id).available == avail - (20 << 30)
    with pytest.raises(IoctlError) as e:
        c.alloc(8 << 30, VRAM, cpu=False, map_gpu=False)
    assert e.value.errno_name == "ENOMEM" and "VRAM" in str(e.value)
    c.free(big)
    assert c.ioctl("AVAILABLE_MEMORY", gpu_id=c.gpu_id).available == avail
    refused(c, "AVAILABLE_MEMORY", errno.EINVAL, gpu_id=1)


def test_cpu_and_gpu_see_the_same_bytes_at_the_same_va(c):
    buf = c.alloc(3 * 4096, VRAM)
    vm = c.k.gpu.processes[0].vm
    buf.view(np.uint32)[:3] = [1, 2, 3]
    assert buf.mapping.address == buf.va and vm.read(buf.va, 12) == np.array([1, 2, 3], np.uint32).tobytes()
    vm.write(buf.va + 8192, b"gpu!")
    assert buf.mapping.read(8192, 4) == b"gpu!"


def test_userptr_wraps_host_memory(c):
    host = c.k.mmap(None, 8192)
    host.view(np.uint8)[:5] = list(b"hello")
    a = c.ioctl("ALLOC_MEMORY_OF_GPU", va_addr=host.address, size=8192, gpu_id=c.gpu_id,
                flags=K.KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, mmap_offset=host.address)
    ids = K.ffi.new("uint32_t[1]", [c.gpu_id])
    c.ioctl("MAP_MEMORY_TO_GPU", handle=a.handle, n_devices=1, device_ids_array_ptr=ptr(ids))
    vm = c.k.gpu.processes[0].vm
    assert vm.read(host.address, 5) == b"hello"
    vm.write(host.address + 4096, b"back")
    assert host.read(4096, 4) == b"back"
    with pytest.raises(OSError) as e:
        c.k.mmap(c.drm, 8192, a.mmap_offset)
    assert e.value.errno == errno.EPERM
    c.ioctl("UNMAP_MEMORY_FROM_GPU", handle=a.handle, n_devices=1, device_ids_array_ptr=ptr(ids))
    c.ioctl("FREE_MEMORY_OF_GPU", handle=a.handle)
    c.k.munmap(host)


def test_render_node_mmap_rules(c, kernel):
    buf = c.alloc(8192, cpu=False)
    bos = kernel.gpu.processes[0].bos
    mmap_offset = next(b.mmap_offset for b in bos.values() if b.handle == buf.handle)
    other = kernel.open("/dev/dri/renderD128")
    with pytest.raises(OSError) as e:
        kernel.mmap(other, 8192, mmap_offset)
    assert e.value.errno == errno.EACCES
    kernel.close(other)
    for length, off in ((4096, 0x1234), (16384, mmap_offset)):
        with pytest.raises(OSError) as e:
            kernel.mmap(c.drm, length, off)
        assert e.value.errno == errno.EINVAL
    with pytest.raises(OSError) as e:
        kernel.mmap(c.drm, 4096, mmap_offset, flags=MAP_PRIVATE)
    assert e.value.errno == errno.EINVAL and "copy-on-write" in str(e.value)
    m = kernel.mmap(c.drm, 4096, mmap_offset + 4096)     # a window of the BO
    m.view(np.uint32)[0] = 0xCAFE
    assert kernel.gpu.processes[0].vm.u32(buf.va + 4096) == 0xCAFE
    kernel.munmap(m)


def test_free_rules(c):
    buf = c.alloc(4096)
    refused(c, "FREE_MEMORY_OF_GPU", errno.EBUSY, "still mapped", handle=buf.handle)
    refused(c, "FREE_MEMORY_OF_GPU", errno.EINVAL, handle=c.gpu_id << 32 | 999)
    refused(c, "FREE_MEMORY_OF_GPU", errno.EINVAL, "gpu_id", handle=0x1234 << 32 | (buf.handle & 0xFFFFFFFF))
    ev = c.create_event()
    refused(c, "FREE_MEMORY_OF_GPU", errno.EPERM, "event page", handle=c.event_page.handle)
    assert ev.event_id == 0


def test_map_and_unmap_rules(c):
    buf = c.alloc(4096, map_gpu=False)
    ids = K.ffi.new("uint32_t[2]", [c.gpu_id, 0x4321])
    base = dict(handle=buf.handle, device_ids_array_ptr=ptr(ids))
    refused(c, "MAP_MEMORY_TO_GPU", errno.EINVAL, "n_devices is 0", n_devices=0, **base)
    refused(c, "MAP_MEMORY_TO_GPU", errno.EINVAL, "n_success", n_devices=1, n_success=2, **base)
    refused(c, "MAP_MEMORY_TO_GPU", errno.EFAULT, n_devices=1, handle=buf.handle, device_ids_array_ptr=0x10)
    refused(c, "MAP_MEMORY_TO_GPU", errno.ENOMEM, n_devices=1, handle=c.gpu_id << 32 | 77, device_ids_array_ptr=ptr(ids))
    refused(c, "UNMAP_MEMORY_FROM_GPU", errno.EINVAL, "not mapped", n_devices=1, **base)
    e = refused(c, "MAP_MEMORY_TO_GPU", errno.EINVAL, "device_ids_array[1]", n_devices=2, **base)
    assert "0x4321" in str(e)
    a = c.ioctl("MAP_MEMORY_TO_GPU", n_devices=1, **base)
    assert a.n_success == 1
    assert c.ioctl("MAP_MEMORY_TO_GPU", n_devices=1, **base).n_success == 1    # mapping twice is a no-op
    buf.mapped = True
    q = c.create_queue(SDMA)
    ring_ids = K.ffi.new("uint32_t[1]", [c.gpu_id])
    refused(c, "UNMAP_MEMORY_FROM_GPU", errno.EBUSY, "queue", handle=q.ring.handle, n_devices=1,
            device_ids_array_ptr=ptr(ring_ids))


# -- events -------------------------------------------------------------------------------------
def test_event_page_rules(c):
    refused(c, "CREATE_EVENT", errno.EINVAL, "event page", event_type=K.KFD_IOC_EVENT_SIGNAL)
    small = c.alloc(16384)
    refused(c, "CREATE_EVENT", errno.EINVAL, "smaller", event_type=0, event_page_offset=small.handle)
    vram = c.alloc(32768, VRAM)
    refused(c, "CREATE_EVENT", errno.EINVAL, "GTT", event_type=0, event_page_offset=vram.handle)
    ev = c.create_event()
    assert ev.event_page_offset == 2 << 62 and ev.event_trigger_data == ev.event_id == ev.event_slot_index
    refused(c, "CREATE_EVENT", errno.EINVAL, "already set", event_type=0, event_page_offset=small.handle)
    slots = c.event_page.view(np.uint64)
    assert slots[0] == 2**64 - 1 and slots[K.KFD_SIGNAL_EVENT_LIMIT - 1] == 2**64 - 1
    page = c.k.mmap(c.kfd, K.KFD_SIGNAL_EVENT_LIMIT * 8, ev.event_page_offset)
    assert page.view(np.uint64)[0] == 2**64 - 1
    c.k.munmap(page)


def test_signal_events_set_reset_wait(c):
    auto = c.create_event(auto_reset=True)
    manual = c.create_event(auto_reset=False)
    assert c.wait([auto.event_id], timeout_ms=0)[0] == K.KFD_IOC_WAIT_RESULT_TIMEOUT
    c.ioctl("SET_EVENT", event_id=auto.event_id)
    assert c.wait([auto.event_id], timeout_ms=0)[0] == K.KFD_IOC_WAIT_RESULT_COMPLETE
    assert c.wait([auto.event_id], timeout_ms=0)[0] == K.KFD_IOC_WAIT_RESULT_TIMEOUT   # consumed
    c.ioctl("SET_EVENT", event_id=manual.event_id)
    for _ in range(2):
        assert c.wait([manual.event_id], timeout_ms=0)[0] == K.KFD_IOC_WAIT_RESULT_COMPLETE
    assert c.wait([auto.event_id, manual.event_id], timeout_ms=0, wait_for_all=True)[0] == K.KFD_IOC_WAIT_RESULT_TIMEOUT
    assert c.wait([auto.event_id, manual.event_id], timeout_ms=0)[0] == K.KFD_IOC_WAIT_RESULT_COMPLETE
    c.ioctl("RESET_EVENT", event_id=manual.event_id)
    t0 = time.monotonic()
    assert c.wait([manual.event_id], timeout_ms=30)[0] == K.KFD_IOC_WAIT_RESULT_TIMEOUT
    assert time.monotonic() - t0 >= 0.03


def test_event_age_reports_a_signal_missed_between_waits(c):
    ev = c.create_event(auto_reset=True)
    data = K.ffi.new("struct kfd_event_data[1]")
    data[0].event_id, data[0].signal_event_data.last_event_age = ev.event_id, 1
    c.ioctl("SET_EVENT", event_id=ev.event_id)
    c.ioctl("WAIT_EVENTS", events_ptr=ptr(data), num_events=1, timeout=0)
    assert data[0].signal_event_data.last_event_age == 2


def test_event_errors(c):
    mem = c.create_event(K.KFD_IOC_EVENT_MEMORY)
    assert mem.event_id == 0x40000000            # non-signal ids start above the slot ids
    refused(c, "SET_EVENT", errno.EINVAL, "cannot be signaled", event_id=mem.event_id)
    refused(c, "RESET_EVENT", errno.EINVAL, event_id=mem.event_id)
    refused(c, "DESTROY_EVENT", errno.EINVAL, "does not exist", event_id=4000)
    data = K.ffi.new("struct kfd_event_data[1]")
    data[0].event_id = 4000
    refused(c, "WAIT_EVENTS", errno.EINVAL, events_ptr=ptr(data), num_events=1, timeout=0)
    refused(c, "WAIT_EVENTS", errno.EFAULT, events_ptr=0x20, num_events=1, timeout=0)


# -- queues -------------------------------------------------------------------------------------
def queue_args(c, **over):
    sizes = c.k.gpu.sizes
    if not hasattr(c, "_qbufs"):
        c._qbufs = dict(ring=c.alloc(4096), ptrs=c.alloc(4096), eop=c.alloc(4096),
                        cwsr=c.alloc(sizes["cwsr_size"] + sizes["debug_memory_size"], cpu=False))
    b = c._qbufs
    args = dict(ring_base_address=b["ring"].va, ring_size=4096, gpu_id=c.gpu_id, queue_type=COMPUTE,
                queue_percentage=100, queue_priority=7, read_pointer_address=b["ptrs"].va,
                write_pointer_address=b["ptrs"].va + 8, eop_buffer_address=b["eop"].va, eop_buffer_size=4096,
                ctx_save_restore_address=b["cwsr"].va, ctx_save_restore_size=sizes["cwsr_size"],
                ctl_stack_size=sizes["ctl_stack_size"])
    args.update(over)
    return args


@pytest.mark.parametrize("over,err,match", [
    ({"queue_percentage": 101}, errno.EINVAL, "queue_percentage"),
    ({"queue_priority": 16}, errno.EINVAL, "queue_priority"),
    ({"ring_size": 3000}, errno.EINVAL, "power of two"),
    ({"queue_type": 9}, 524, "queue_type"),
    ({"queue_type": K.KFD_IOC_QUEUE_TYPE_SDMA_XGMI}, errno.ENOMEM, "XGMI"),
    ({"gpu_id": 3}, errno.EINVAL, "gpu_id"),
    ({"ring_base_address": 0x10000}, errno.EINVAL, "not in a GPU-mapped buffer"),
    ({"ring_base_address": 0x10080}, errno.EINVAL, "not 256-byte aligned"),
    ({"ring_size": 2048 * 4}, errno.EINVAL, "exactly 0x2000"),
    ({"read_pointer_address": 0x20}, errno.EINVAL, "read_pointer_address"),
    ({"write_pointer_address": 12}, errno.EINVAL, "8-byte aligned"),
    ({"eop_buffer_size": 8192}, errno.EINVAL, "eop_buffer_size"),
    ({"ctl_stack_size": 4096}, errno.EINVAL, "ctl_stack_size"),
    ({"ctx_save_restore_size": 4096}, errno.EINVAL, "CWSR size"),
    ({"ctx_save_restore_address": 0}, errno.EINVAL, "ctx_save_restore_address"),
    ({"queue_type": K.KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID, "sdma_engine_id": 2}, errno.EINVAL, "sdma_engine_id"),
])
def test_create_queue_rules(c, over, err, match):
    refused(c, "CREATE_QUEUE", err, match, **queue_args(c, **over))


def test_cwsr_may_be_larger_but_its_bo_must_match(c):
    sizes = c.k.gpu.sizes
    big = c.alloc(sizes["cwsr_size"] + sizes["debug_memory_size"] + 8192, cpu=False)
    refused(c, "CREATE_QUEUE", errno.EINVAL, "ctx_save_restore_address", **queue_args(c, ctx_save_restore_address=big.va))
    a = c.ioctl("CREATE_QUEUE", **queue_args(c, ctx_save_restore_address=big.va,
                                             ctx_save_restore_size=sizes["cwsr_size"] + 8192))
    c.ioctl("DESTROY_QUEUE", queue_id=a.queue_id)


def test_queue_ids_doorbells_and_legacy_struct(c):
    a = c.create_queue(COMPUTE)
    b = c.create_queue(AQL, legacy=True)
    s = c.create_queue(SDMA)
    assert [a.queue_id, b.queue_id, s.queue_id] == [0, 1, 2]
    assert len({a.doorbell_offset, b.doorbell_offset, s.doorbell_offset}) == 3
    refused(c, "DESTROY_QUEUE", errno.EINVAL, "queue_id", queue_id=17)
    refused(c, "UPDATE_QUEUE", errno.EFAULT, queue_id=17, ring_size=4096, queue_percentage=100)
    refused(c, "UPDATE_QUEUE", errno.EINVAL, "queue_percentage", queue_id=0, queue_percentage=150)
    refused(c, "UPDATE_QUEUE", errno.EINVAL, "power of two", queue_id=0, ring_size=1000)


def test_small_rings_are_clamped_to_the_minimum(c):
    a = c.ioctl("CREATE_QUEUE", **queue_args(c, ring_size=256))
    assert a.ring_size == K.KFD_MIN_QUEUE_RING_SIZE and c.k.gpu.processes[0].queues[a.queue_id].ring_size == 1024
    c.ioctl("DESTROY_QUEUE", queue_id=a.queue_id)


def test_sdma_queue_limit(c):
    for _ in range(12):                  # 2 engines x 6 queues on SDMA v6
        c.create_queue(SDMA, ring_size=1024)
    with pytest.raises(IoctlError) as e:
        c.create_queue(SDMA, ring_size=1024)
    assert e.value.errno_name == "ENOMEM" and "SDMA" in str(e.value)


def test_closing_kfd_releases_everything_the_process_held(kernel):
    c = KfdClient(kernel)
    c.create_queue(AQL)
    c.create_event()
    c.create_event(K.KFD_IOC_EVENT_MEMORY)
    c.alloc(1 << 20, VRAM)
    assert kernel.gpu.live()["queues"] == 1 and kernel.gpu.live()["bos"] > 5
    kernel.close(c.drm)
    kernel.close(c.kfd)                  # no DESTROY_QUEUE/FREE: process teardown does it
    assert kernel.open_files == {}


def test_debug_2_logs_the_rule(c, capsys, monkeypatch):
    monkeypatch.setenv("DEBUG", "2")
    refused(c, "ALLOC_MEMORY_OF_GPU", errno.EINVAL, va_addr=0, size=0, gpu_id=c.gpu_id, flags=GTT)
    assert "ALLOC_MEMORY_OF_GPU: size is 0 -> EINVAL" in capsys.readouterr().err


def test_two_opens_of_dev_kfd_share_one_process(kernel):
    c = KfdClient(kernel)
    second = kernel.open("/dev/kfd")
    buf = c.alloc(4096, map_gpu=False)
    args = K.new("kfd_ioctl_free_memory_of_gpu_args", handle=buf.handle)
    kernel.ioctl(second, K.AMDKFD_IOC_FREE_MEMORY_OF_GPU, args)       # the other fd sees the same handles
    c.buffers.remove(buf)
    kernel.munmap(buf.mapping)
    kernel.close(second)
    assert kernel.gpu.live()["processes"] == 1
    c.close()


# Run in a fresh interpreter: the test process holds whatever earlier tests left behind, and a
# file one of them never closed (caught in a reference cycle) is closed by whichever garbage
# collection comes next, which the allocations below set off at one moment or another depending on
# what ran before and on the threads of the virtual GPUs: counted there, the descriptors dropped by
# one now and then.  Alone, after a collection and with the collector off, every change is the
# allocations'.
_BUFFERS_ALONE = """
import gc, json, os
import numpy as np
from drivers.emu import make_kernel
from drivers.emu.amd.kfd_client import VRAM, KfdClient

def descriptors():
    out = {}
    for n in os.listdir("/proc/self/fd"):
        try:
            out[n] = os.readlink("/proc/self/fd/" + n)
        except FileNotFoundError:          # the listing's own descriptor, closed since
            pass
    return out

def resident():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) * 1024

c = KfdClient(make_kernel("gfx1100"))
gc.collect()
gc.disable()
fds, rss = descriptors(), resident()
bufs = [c.alloc(4096) for _ in range(64)]
big = c.alloc(16 << 30, VRAM)                      # mapped on CPU and GPU, backed lazily
big.view(np.uint8, (16 << 30) - 4096, 1)[0] = 7
seen = c.k.gpu.processes[0].vm.read(big.va + (16 << 30) - 4096, 1)
grown, after = resident() - rss, descriptors()
for b in bufs + [big]:
    c.free(b)
c.close()
print(json.dumps({"seen": seen.hex(), "grown": grown,
                  "opened": sorted(v for k, v in after.items() if fds.get(k) != v),
                  "closed": sorted(v for k, v in fds.items() if after.get(k) != v)}))
"""


def test_buffers_cost_no_descriptors_and_big_ones_no_memory():
    import json
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    res = subprocess.run([sys.executable, "-c", _BUFFERS_ALONE], cwd=root, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert got["seen"] == "07"
    assert got["opened"] == [] and got["closed"] == [], got       # no descriptor per buffer
    assert got["grown"] < 64 << 20, f"16 GiB of VRAM made {got['grown'] >> 20} MiB resident"


def test_set_cu_mask(c):
    q = c.create_queue(AQL)
    mask = K.ffi.new("uint32_t[3]", [0xFFFF, 0, 0x1])
    c.ioctl("SET_CU_MASK", queue_id=q.queue_id, num_cu_mask=96, cu_mask_ptr=ptr(mask))
    assert c.k.gpu.processes[0].queues[q.queue_id].cu_mask == K.ffi.buffer(mask)[:]
    refused(c, "SET_CU_MASK", errno.EINVAL, "multiple of 32", queue_id=q.queue_id, num_cu_mask=40, cu_mask_ptr=ptr(mask))
    refused(c, "SET_CU_MASK", errno.EINVAL, "is 0", queue_id=q.queue_id, num_cu_mask=0, cu_mask_ptr=ptr(mask))
    refused(c, "SET_CU_MASK", errno.EFAULT, queue_id=q.queue_id, num_cu_mask=32, cu_mask_ptr=0x40)
    refused(c, "SET_CU_MASK", errno.EFAULT, "no queue 9", queue_id=9, num_cu_mask=32, cu_mask_ptr=ptr(mask))
