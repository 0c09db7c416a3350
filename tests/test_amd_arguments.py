"""Bad arguments at every door of the AMD runtime are named errors, on the virtual gfx1100:
kernarg metadata checked when a code object is loaded, argument values at launch, buffers that
belong to another device, sizes and offsets, and the emulated amdkfd's system-memory limits."""
import numpy as np
import pytest

from assembler.amdgpu.elf_writer import KernelSpec, write_code_object
from assembler.amdgpu.kernel_descriptor import KernelDescriptor
from assembler.amdgpu.metadata import metadata_document, synthesize_kernel_map
from drivers.amd.device import AMDDevice
from drivers.amd.kernargs import KernargError, Pointer
from drivers.amd.memory import OutOfMemory
from drivers.emu import make_kernel
from drivers.errors import GPUError, InvalidArgument, MalformedInput
from tests.asm_kernel import code_object

GiB = 1 << 30


def with_args(args, kernarg_size=64):
    """A code object whose one kernel ``k`` (s_endpgm) declares ``args`` in its metadata."""
    kd = KernelDescriptor(kernarg_size=kernarg_size)
    kd.set("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 1)
    kd.set("ENABLE_WAVEFRONT_SIZE32", 1)
    kd.set("USER_SGPR_COUNT", 2)
    kmap = synthesize_kernel_map("k", kernarg_size=kernarg_size, group_segment_fixed_size=0,
                                 private_segment_fixed_size=0, wavefront_size=32, sgpr_count=3, vgpr_count=1,
                                 args=args)
    return write_code_object((0xBFB00000).to_bytes(4, "little"), [KernelSpec("k", 0, kd, sgpr_count=3, vgpr_count=1)],
                             "gfx1100", metadata=metadata_document("amdgcn-amd-amdhsa--gfx1100", [kmap]))


def arg(offset, size, kind, **extra):
    return {".offset": offset, ".size": size, ".value_kind": kind, **extra}


@pytest.fixture(scope="module")
def machine():
    kernel = make_kernel("gfx1100")
    dev = AMDDevice(kernel=kernel)
    yield kernel, dev
    dev.close()
    assert kernel.live() == {"processes": 0, "bos": 0, "queues": 0, "events": 0, "mappings": 0}


@pytest.mark.parametrize("args, message", [
    ([arg(0, 8, "global_buffer", **{".name": "out", ".address_space": "global"}), arg(-8, 8, "by_value")],
     r"kernel k argument 1: .offset -8 is not a byte offset >= 0"),
    ([arg(0, 3, "hidden_block_count_x")], r"argument 0 \(hidden_block_count_x\): .size 3 does not fit "
                                          r"hidden_block_count_x \(4 bytes\)"),
    ([arg(0, 2, "global_buffer", **{".name": "p", ".address_space": "global"})],
     r"argument 0 \(p\) \(global_buffer\): .size 2 does not fit a global pointer \(8 bytes\)"),
    ([arg(0, 1, "dynamic_shared_pointer", **{".address_space": "local"})],
     r".size 1 does not fit a dynamic LDS offset \(4 bytes\)"),
    ([arg(0, -1, "by_value")], r"kernel k argument 0: .size -1 is not a byte size >= 1"),
    ([arg(0, 8, "by_value"), arg(4, 4, "by_value")], r"argument 1 \(.offset 4\) overlaps argument 0"),
    ([arg(0, 4, "dynamic_shared_pointer", **{".pointee_align": 3})], r".pointee_align 3 is not a power of two"),
])
def test_malformed_kernarg_metadata_is_refused_at_load(machine, args, message):
    kernel, dev = machine
    with pytest.raises(MalformedInput, match=message) as e:
        dev.load(with_args(args), source="k.hsaco")
    assert str(e.value).startswith("k.hsaco") and "kernel k" in str(e.value)


def test_launch_values_that_cannot_be_packed_are_named(machine):
    kernel, dev = machine
    prg = dev.load(with_args([arg(0, 4, "by_value", **{".name": "x", ".type_name": "float"}),
                              arg(4, 2, "by_value", **{".name": "h", ".type_name": "half"}),
                              arg(8, 8, "global_buffer", **{".name": "p", ".address_space": "global"})]))
    buf = dev.alloc(64)
    k = prg["k"]
    with pytest.raises(KernargError, match=r"argument 0 \(x: float\) = 1e\+300 is out of the range of a 32-bit float"):
        k(1e300, 1.0, buf, grid=1, block=32)
    with pytest.raises(KernargError, match=r"argument 1 \(h: half\) = 100000.0 is out of the range of a 16-bit float"):
        k(1.0, 1e5, buf, grid=1, block=32)
    with pytest.raises(KernargError, match=r"argument 0 \(x: float\) = .* is out of the range"):
        k(10 ** 400, 1.0, buf, grid=1, block=32)
    k(float("inf"), float("nan"), buf, grid=1, block=32, wait=True)      # IEEE specials are values
    with pytest.raises(KernargError, match=r"argument 2 \(p\) must be a buffer"):
        k(1.0, 1.0, 5, grid=1, block=32)
    dev.synchronize(timeout=5)


@pytest.mark.parametrize("va", [-1, 1 << 64, "0x10", 1.5, None])
def test_pointer_values_are_64_bit_addresses(va):
    with pytest.raises(KernargError, match="a GPU virtual address is an int in 0 .. 2\\*\\*64-1"):
        Pointer(va)


def test_sizes_and_offsets_are_checked(machine):
    kernel, dev = machine
    with pytest.raises(OutOfMemory, match="larger than the GPU's 128 TiB virtual address space"):
        dev.alloc(2 ** 64)
    for bad in (-1, 0, 1.5, "4096", True, None):
        with pytest.raises(InvalidArgument, match="buffer size must be a positive number of bytes"):
            dev.alloc(bad)
    buf = dev.alloc(4096)
    data = np.arange(16, dtype=np.uint8)
    for bad in (1.5, "0", None, True):
        with pytest.raises(InvalidArgument, match="offset must be an int number of bytes"):
            buf.copyin(data, bad)
    with pytest.raises(InvalidArgument, match="16 bytes at offset 4090 do not fit the 4096-byte buffer"):
        buf.copyin(data, 4090)
    with pytest.raises(InvalidArgument, match="must be a numpy array or bytes, got list"):
        buf.copyin([1, 2, 3])
    with pytest.raises(InvalidArgument, match="holds Python objects"):
        buf.copyin(np.array([object()]))
    with pytest.raises(InvalidArgument, match="copy source: expected a Buffer, got ndarray"):
        dev.copy(buf, np.zeros(16, np.uint8))
    with pytest.raises(InvalidArgument, match="copy destination: expected a Buffer, got ndarray"):
        dev.copy(np.zeros(16, np.uint8), buf)
    for bad in (None, 12, object()):
        with pytest.raises(InvalidArgument, match="AMDDevice.load takes a code object"):
            dev.load(bad)
    with pytest.raises(InvalidArgument, match="cannot read code object /nonexistent.hsaco"):
        dev.load("/nonexistent.hsaco")
    for bad in ((0, 1, 1), (1.5,), "abc", (1, 1, 1, 1), float("inf"), -3):
        with pytest.raises(InvalidArgument, match="grid must be up to three positive integers"):
            dev.load(code_object("s_endpgm"))["k"](grid=bad, block=32)
    k = dev.load(code_object("s_endpgm"))["k"]
    k(grid=(1, 1, 1), block=(32, 1, 1))            # a shape checked once is not checked again...
    with pytest.raises(InvalidArgument, match="grid must be up to three positive integers"):
        k(grid=(True, 1, 1), block=(32, 1, 1))     # ...but one equal to it is, as any other
    buf.free()
    with pytest.raises(GPUError, match="was already freed"):
        buf.copyin(data)


def test_buffers_of_another_device_are_refused_where_they_enter(machine):
    kernel, dev = machine
    other_kernel = make_kernel("gfx1100")
    with AMDDevice(kernel=other_kernel) as other:
        foreign = other.alloc(4096, cpu_access=True)
        mine = dev.alloc(4096)
        data = np.full(64, 7, np.uint8)
        with pytest.raises(InvalidArgument, match="belongs to AMDDevice.*not to AMDDevice"):
            dev.copyin(foreign, data)
        with pytest.raises(InvalidArgument, match="belongs to AMDDevice"):
            dev.copyout(np.zeros(64, np.uint8), foreign)
        other.synchronize()
        assert not foreign.view()[:64].any()          # nothing was written through the wrong device
        with pytest.raises(InvalidArgument, match="another KFD process"):
            dev.copy(mine, foreign, 64)
        prg = dev.load(with_args([arg(0, 8, "global_buffer", **{".name": "out", ".address_space": "global"})]))
        with pytest.raises(KernargError, match=r"argument 0 \(out\) is a buffer of AMDDevice.*cannot reach"):
            prg["k"](foreign, grid=1, block=32)
        cb = dev.command_buffer()
        with pytest.raises(KernargError, match="cannot reach"):
            cb.add(prg["k"], foreign, grid=1, block=32)
        prg["k"](mine, grid=1, block=32, wait=True)   # nothing was left half-submitted
        mine.free()


def test_gtt_and_userptr_count_against_kfd_limits():
    kernel = make_kernel("gfx1100")             # the virtual host has 64 GiB of RAM
    limits = kernel.kfd.limits
    assert (limits.max_system, limits.max_ttm) == (60 * GiB, 24 * GiB)
    with AMDDevice(kernel=kernel) as dev:
        base = limits.ttm_used
        with pytest.raises(OutOfMemory, match="gtt .*cannot allocate 16.0 TiB"):
            dev.alloc(16 << 40, uncached=True)
        with pytest.raises(OutOfMemory, match="AMDKFD_IOC_ALLOC_MEMORY_OF_GPU: ENOMEM"):
            dev.alloc(24 * GiB, uncached=True)
        assert limits.ttm_used == base
        big = dev.alloc(GiB, uncached=True)
        assert limits.ttm_used == base + GiB and limits.system_used >= GiB
        big.free()
        assert limits.ttm_used == base
    assert (limits.ttm_used, limits.system_used) == (0, 0)
