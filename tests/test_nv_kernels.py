"""The CUDA test kernels (hw_tests/kernels/nv, ptxas's cubins) on the virtual sm_86, sm_89 and sm_90
through NVDevice, against numpy; the same code disassembled and assembled again by assembler.sass
runs identically; a kernel reading unmapped memory is GPUFault with the VA, and one whose control
bits miss a scoreboard wait is a hazard naming the PC.

The simulator runs a kernel only when assembler.sass decodes every instruction of it as nvdisasm's
frozen listing does (hw_tests/kernels/nv/sass); otherwise the case is skipped naming the first
instruction the decoder gets wrong or refuses.
"""
import functools

import numpy as np
import pytest

from drivers.errors import GPUFault
from drivers.nv import NVDevice
from drivers.nv.faults import ShaderError
from drivers.nv.program import Pointer
from hw_tests.nv_kernels import CASES, TARGETS, cubin_path, decoder_disagrees

BAD_VA = 0xBAD0_0000_0000
WAIT_SHIFT, WAIT_MASK = 116, 0x3F


@functools.lru_cache(maxsize=None)
def _gate(name, target):
    return decoder_disagrees(name, target)


def require_decoder(name, target):
    reason = _gate(name, target)
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="module", params=TARGETS)
def dev(request):
    d = NVDevice(emulate=request.param)
    yield d
    d.close()
    assert set(d.kernel.live().values()) == {0}, d.kernel.live()


def cubin(name, target):
    with open(cubin_path(name, target), "rb") as f:
        return f.read()


def with_code(data, kernel, code):
    """The cubin `data` with kernel's code replaced by `code` (same size)."""
    from assembler.cubin.elf import read
    text = read(data).section(f".text.{kernel}")
    assert len(code) == len(text.data)
    return data[:text.offset] + code + data[text.offset + len(code):]


def kernel_code(data, kernel):
    from assembler.cubin.elf import read
    return read(data).section(f".text.{kernel}").data


@pytest.mark.parametrize("cls", CASES, ids=[c.name for c in CASES])
def test_kernel_matches_numpy(dev, cls):
    require_decoder(cls.name, dev.target)
    case = cls()
    out = case.run(dev, dev.load(cubin(cls.name, dev.target), cls.name))
    case.check(out)


@pytest.mark.parametrize("cls", CASES, ids=[c.name for c in CASES])
def test_reassembled_disassembly_is_the_same_code_and_runs_identically(dev, cls):
    require_decoder(cls.name, dev.target)
    from assembler.sass import assemble, decode
    data = cubin(cls.name, dev.target)
    code = kernel_code(data, cls.kernel)
    lines = []
    for off in range(0, len(code), 16):
        ins = decode(code, dev.target, off)
        lines.append(f"{ins.text}  // {ins.control.text()}")
    again = assemble("\n".join(lines), dev.target)
    assert again == code, next(f"+0x{i:x}: {lines[i // 16]}" for i in range(0, len(code), 16)
                               if again[i:i + 16] != code[i:i + 16])
    first, second = cls(), cls()
    want = first.run(dev, dev.load(data, cls.name))
    got = second.run(dev, dev.load(with_code(data, cls.kernel, again), f"{cls.name} reassembled"))
    for key in want:
        assert np.array_equal(want[key].view(np.uint8), got[key].view(np.uint8)), key


def test_a_kernel_reading_unmapped_memory_is_gpu_fault_with_the_va(dev):
    require_decoder("saxpy", dev.target)
    prg = dev.load(cubin("saxpy", dev.target))
    out = dev.alloc(256)
    with pytest.raises(GPUFault) as e:
        prg["saxpy"](np.float32(1), Pointer(BAD_VA), out, 64, grid=(1,), block=(64,), wait=True)
    assert e.value.va == BAD_VA and f"0x{BAD_VA:x}" in str(e.value)
    assert "compute channel was running: launch of saxpy grid (1, 1, 1) block (64, 1, 1)" in str(e.value)
    x = np.arange(64, dtype=np.float32)
    dev.copyin(out, x)
    prg["saxpy"](np.float32(2), out, out, 64, grid=(1,), block=(64,), wait=True)     # the device recovered
    back = np.empty_like(x)
    dev.copyout(back, out)
    assert np.array_equal(back, 3 * x)
    out.free()


def test_a_missing_scoreboard_wait_is_a_hazard_naming_the_pc(dev):
    """saxpy with the wait on its first load's scoreboard cleared: the FFMA reads the register before
    the load has written it, which a real SM would compute with a stale value."""
    require_decoder("saxpy", dev.target)
    from assembler.sass import decode
    data = cubin("saxpy", dev.target)
    code = bytearray(kernel_code(data, "saxpy"))
    loads = [off for off in range(0, len(code), 16) if decode(code, dev.target, off).opcode == "LDG"]
    sb = decode(code, dev.target, loads[0]).control.wbar
    waiter = next(off for off in range(loads[0] + 16, len(code), 16)
                  if decode(code, dev.target, off).control.wait >> sb & 1)
    word = int.from_bytes(code[waiter:waiter + 16], "little") & ~(1 << (WAIT_SHIFT + sb))
    code[waiter:waiter + 16] = word.to_bytes(16, "little")
    prg = dev.load(with_code(data, "saxpy", bytes(code)), "saxpy without a wait")
    x = dev.alloc(256)
    with pytest.raises(ShaderError) as e:
        prg["saxpy"](np.float32(1), x, x, 64, grid=(1,), block=(64,), wait=True)
    assert e.value.esr == 0x3F and "scoreboard" in str(e.value)
    assert e.value.pc == waiter and f"at PC 0x{waiter:x}" in str(e.value)      # from the kernel's entry
    assert "is read before SB" in str(e.value) and "was waited for" in str(e.value)
    x.free()


def test_bench_emu_reports_the_sass_rate_next_to_the_rdna3_one(capsys):
    import importlib.util
    import os
    require_decoder("saxpy", "sm_86")
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "bench_emu.py")
    spec = importlib.util.spec_from_file_location("bench_emu_sass", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    ours, skipped = bench.measure_sass(["saxpy"], 1)
    warps, count, secs = ours["saxpy.sm_86"]
    assert warps == 32 and count > warps and secs > 0            # 1000 elements in blocks of 128 threads
    bench.report_sass(ours, skipped, {"vadd": [4, 1000, 0.001]})
    out = capsys.readouterr().out
    assert "saxpy.sm_86" in out and "M warp-instr/s" in out and "RDNA3 simulator 1.00 M wave-instr/s" in out


def test_a_kernel_on_one_gpu_reads_and_writes_the_others_vram():
    require_decoder("saxpy", "sm_86")
    from drivers.emu import make_kernel
    kernel = make_kernel("sm_86x2")
    a, b = NVDevice(0, kernel=kernel), NVDevice(1, kernel=kernel)
    x = np.arange(256, dtype=np.float32)
    xa, ya = a.alloc(x.nbytes), a.alloc(x.nbytes)
    xa.copyin(x)
    ya.copyin(np.ones_like(x))
    prg = b.load(cubin("saxpy", "sm_86"))
    prg["saxpy"](np.float32(3), xa, ya, 256, grid=(2,), block=(128,), wait=True)      # b's SMs, a's memory
    out = np.empty_like(x)
    ya.copyout(out)
    assert np.array_equal(out, 3 * x + 1)
    xa.free(), ya.free()
    b.close(), a.close()
    assert set(kernel.live().values()) == {0}, kernel.live()
