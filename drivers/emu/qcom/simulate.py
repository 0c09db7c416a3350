"""Run one ir3 program on the simulator directly, without KGSL or a command processor.

    out = np.zeros(64, np.float32)
    simulate(program, grid=(1, 1, 1), buffers=[a, b, out], wave=64)     # numpy arrays, read back in place

``program`` is an assembler.ir3.Program (its @buf, @const, @invocationid, @wgid, @numwg,
@localmem, @pvtmem headers describe the dispatch, as for mesa's computerator): buffer i is
IBO i (32-bit elements) and, when its @buf names a const, its 64-bit address is written there;
numpy arrays given as ``buffers`` are copied in and, afterwards, back out. Errors of the
program (a fault, a hazard, an illegal instruction) raise as they would inside the GPU.
"""
import numpy as np

from drivers.emu.memory import HostMemory
from drivers.emu.vm import PAGE_SIZE, GpuVM
from drivers.errors import GPUError

from .shader import Dispatch, Ibo, run_to_end

BASE_VA = 0x1_0000_0000
FIBER_SLOTS = 2048 * 2           # fibers_per_sp * num_sp_cores of the Adreno 630


def _dims(value, what):
    if isinstance(value, int):
        value = (value,)
    dims = tuple(int(v) for v in value)
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise ValueError(f"{what} must be up to three positive integers, got {value!r}")
    return dims + (1,) * (3 - len(dims))


def simulate(program, grid=(1, 1, 1), buffers=(), wave=64, consts=None, budget=None):
    """Run ``program`` over ``grid`` workgroups; returns the number of wave-instructions executed.

    ``consts``: {cN.c regid: 32-bit word} on top of the program's @const values."""
    grid = _dims(grid, "grid")
    if len(buffers) != len(program.bufs):
        raise ValueError(f"the program declares {len(program.bufs)} @buf, {len(buffers)} arrays given")
    vm = GpuVM()
    mems, va = [], BASE_VA
    full, half, constlen = program.footprint()
    words = np.zeros(max(constlen, 1) * 4, np.uint32)
    for reg, w in program.const_image().items():
        words[reg] = w
    ibos = {}
    for i, (buf, arr) in enumerate(zip(program.bufs, buffers)):
        data = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
        size = max(buf.size * 4, data.size)
        mem = HostMemory(-(-size // PAGE_SIZE) * PAGE_SIZE, f"buffer {i}")
        mem.array[:data.size] = data
        if buf.init:
            mem.array[:4 * len(buf.init)] = np.array(buf.init, np.uint32).view(np.uint8)
        vm.map(va, mem.array)
        mems.append((mem, data, arr))
        ibos[i] = Ibo(i, va, size // 4, 4, "FMT6_32_UINT")
        if buf.addr_const is not None:
            words[buf.addr_const] = va & 0xFFFFFFFF
            words[buf.addr_const + 1] = va >> 32
        va += mem.size + PAGE_SIZE
    if program.numwg is not None:
        words[program.numwg:program.numwg + 3] = grid
    for reg, w in (consts or {}).items():
        if reg >= words.size:
            raise ValueError(f"const c{reg >> 2}.{'xyzw'[reg & 3]} is beyond the program's const length")
        words[reg] = w & 0xFFFFFFFF
    private = (0, 0, 0)
    if program.pvtmem:
        size = program.pvtmem * FIBER_SLOTS
        mem = HostMemory(-(-size // PAGE_SIZE) * PAGE_SIZE, "private memory")
        vm.map(va, mem.array)
        mems.append((mem, None, None))
        private = (va, program.pvtmem, FIBER_SLOTS)
    d = Dispatch(vm, program.code, words, max(full, half + 1 >> 1, 1), program.localsize, grid, wave=wave,
                 half_regs=half, localid_regid=_reg(program.invocationid), wgid_regid=_reg(program.wgid),
                 local_bytes=program.localmem, ibos=ibos, private=private, budget=budget)
    try:
        return run_to_end(d)
    finally:
        for mem, data, arr in mems:
            if arr is not None:
                if not isinstance(arr, np.ndarray) or not arr.flags.writeable:
                    continue
                out = arr.reshape(-1).view(np.uint8)
                out[:] = mem.array[:out.size]


def _reg(regid):
    return 0xFC if regid is None else regid


__all__ = ["simulate", "GPUError"]
