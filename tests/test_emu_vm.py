"""The GPU VM the queue processors and the shader simulator share: mappings, permissions, faults."""
import numpy as np
import pytest

from drivers.emu.amd.dispatch import Dispatch
from drivers.emu.faults import IllegalInstruction, MemoryFault, ShaderHang
from drivers.emu.vm import GpuVM
from drivers.errors import GPUError, GPUFault

PAGE = 4096


def mem(pages, fill=0):
    return np.full(pages * PAGE, fill, np.uint8)


@pytest.fixture
def vm():
    v = GpuVM()
    v.map(0x10000, mem(2, 1), writable=True, executable=True)
    v.map(0x12000, mem(1, 2), writable=False)          # adjacent, read-only
    v.map(0x20000, mem(1, 3), writable=True)
    return v


def test_translate_returns_a_view_of_the_backing(vm):
    view = vm.translate(0x10010, 16, write=True)
    view[:] = 9
    assert vm.lookup(0x10000).mem[0x10:0x20].tolist() == [9] * 16
    assert vm.u32(0x10010) == 0x09090909
    vm.write_u64(0x10018, 0x1122334455667788)
    assert vm.u64(0x10018) == 0x1122334455667788 and vm.i64(0x10018) == 0x1122334455667788


def test_faults_name_the_first_unmapped_byte(vm):
    with pytest.raises(MemoryFault) as e:
        vm.translate(0x13000 - 8, 16)                   # last 8 bytes of the RO page, then a hole
    assert e.value.va == 0x13000 and e.value.reason == "NotPresent" and not e.value.write
    assert isinstance(e.value, GPUFault) and "0x13000" in str(e.value)
    with pytest.raises(MemoryFault) as e:
        vm.write(0x20000 - 4, b"12345678")
    assert e.value.va == 0x20000 - 4 and e.value.write


def test_permissions(vm):
    with pytest.raises(MemoryFault) as e:
        vm.write_u32(0x12004, 1)
    assert e.value.reason == "ReadOnly" and e.value.va == 0x12004 and e.value.write
    with pytest.raises(MemoryFault) as e:
        vm.translate(0x20000, 4, execute=True)
    assert e.value.reason == "NoExecute"
    assert vm.translate(0x10000, 4, execute=True).tolist() == [1, 1, 1, 1]


def test_accesses_across_adjacent_buffers(vm):
    assert vm.read(0x12000 - 2, 4) == bytes([1, 1, 2, 2])
    with pytest.raises(MemoryFault) as e:                # the RO half refuses: nothing is written
        vm.write(0x11FFE, b"abcd")
    assert e.value.va == 0x12000 and vm.read(0x11FFE, 2) == bytes([1, 1])
    vm.map(0x21000, mem(1, 4))
    with pytest.raises(ValueError, match="spans 2 buffers"):
        vm.translate(0x20FFE, 4, write=True)
    vm.write(0x20FFE, b"wxyz")
    assert vm.read(0x20FFC, 8) == bytes([3, 3]) + b"wxyz" + bytes([4, 4])


def test_map_rules(vm):
    with pytest.raises(ValueError, match="overlaps"):
        vm.map(0x11000, mem(1))
    with pytest.raises(ValueError, match="page-granular"):
        vm.map(0x30010, mem(1))
    with pytest.raises(ValueError, match="no GPU VM mapping starts"):
        vm.unmap(0x11000)
    vm.unmap(0x12000)
    with pytest.raises(MemoryFault):
        vm.u32(0x12000)
    assert len(vm) == 2 and [r.start for r in vm.ranges()] == [0x10000, 0x20000]


def test_typed_access_must_be_aligned(vm):
    with pytest.raises(ValueError, match="not 8-byte aligned"):
        vm.u64(0x10004)


def test_bulk_access_is_fast(vm):
    """The simulator translates on every memory instruction: the cached path is a few hundred ns."""
    import time
    n, t0 = 20000, time.perf_counter()
    for i in range(n):
        vm.translate(0x10000 + (i & 0x7FF) * 4, 4)
    per_call = (time.perf_counter() - t0) / n
    assert per_call < 20e-6, f"{per_call * 1e6:.1f} us per translate"


def test_fault_classes_for_the_simulator():
    e = IllegalInstruction(0x1000, "s_bogus")
    h = ShaderHang(0x1040, 1234)
    assert isinstance(e, GPUError) and (e.pc, e.text) == (0x1000, "s_bogus") and "0x1000" in str(e)
    assert (h.pc, h.executed) == (0x1040, 1234) and "1234 instructions" in str(h)


def test_dispatch_derived_fields():
    d = Dispatch(source="pm4", code_va=0x1000, rsrc1=0, rsrc2=4 << 1 | 1 << 7 | 1 << 9 | 2 << 11, rsrc3=0,
                 user_sgprs=(1, 2, 3, 4), grid_workgroups=(2, 3, 4), workgroup_size=(8, 1, 1),
                 grid_size=(16, 3, 4), lds_bytes=0, wave32=False, vm=None)
    assert d.user_sgpr_count == 4 and d.tgid_enabled == (True, False, True)
    assert d.workitem_id_dims == 2 and d.wavefront_size == 64 and d.workgroup_count == 24


def test_fill_checks_every_page_first_and_keeps_the_pattern_across_buffers(vm):
    with pytest.raises(MemoryFault) as e:
        vm.fill(0x20000, b"\xAA", 1 << 40)              # huge: refused at the first hole, nothing built
    assert e.value.va == 0x21000 and vm.read(0x20000, 1) == b"\x03"
    vm.map(0x21000, mem(1))
    vm.fill(0x20FFD, b"abcd", 7)
    assert vm.read(0x20FFD, 7) == b"abcdabc"
