"""Cubins placed in GPU memory, and their kernels as callables.

``Program(device, cubin)`` reads the cubin, lays its code (128-byte aligned), globals and constant
banks out in one VRAM buffer, applies the relocations against the buffer's address, copies it in,
and exposes each kernel:

    secs = prg["saxpy"](2.0, x, y, n, grid=(gx, 1, 1), block=(256, 1, 1), wait=True)

Arguments are packed by the cubin's parameter table (EIATTR_KPARAM_INFO: offset and size of each):
a Buffer (or Pointer) for an 8-byte pointer, a Python int for an integer of the parameter's size, a
Python float for an f32 (4 bytes), f64 (8) or f16 (2), a numpy scalar or bytes of exactly the size.
A wrong count or a value that does not fit is a KernargError naming the parameter.
"""
import struct
import sys

import numpy as np

from drivers.errors import GPUError, KernargError
from drivers.nv.compute import qmd_template
from drivers.nv.cubin import R_CUDA_32, R_CUDA_64, R_CUDA_ABS32_HI_32, R_CUDA_ABS32_LO_32, read_cubin
from drivers.nv.memory import PAGE, round_up


class Pointer:
    """A raw GPU virtual address passed where the kernel expects a pointer."""
    __slots__ = ("va",)

    def __init__(self, va):
        self.va = int(va)

    def __repr__(self):
        return f"Pointer(0x{self.va:x})"


def compatible(cubin_sm, device_sm):
    """A cubin runs on its own SM and on later minors of the same major (8.6 code on 8.9), never
    across majors; sm_90 code only on sm_90."""
    return cubin_sm == device_sm or (cubin_sm // 10 == device_sm // 10 and cubin_sm % 10 <= device_sm % 10
                                     and device_sm != 90)


class Kernel:
    def __init__(self, program, info, const_banks):
        self.program, self.info, self.name = program, info, info.name
        self.code_va = program.section_va[program.section_of[info.section]] + info.offset
        if self.code_va % 128:
            raise GPUError(f"kernel {self.name}: entry 0x{self.code_va:x} is not 128-byte aligned")
        self.code_size, self.registers, self.barriers = info.code_size, info.registers, info.barriers
        self.shared_bytes, self.local_bytes = info.shared_bytes, info.local_bytes
        self.param_base, self.param_size, self.params = info.param_base, info.param_size, info.params
        self.max_threads = info.max_threads
        self.const_banks = const_banks
        self.qmd = qmd_template(program.device, self)

    def pack(self, args):
        if len(args) != len(self.params):
            raise KernargError(f"kernel {self.name} takes {len(self.params)} arguments, got {len(args)}")
        out = bytearray(self.param_size)
        for i, (p, a) in enumerate(zip(self.params, args)):
            out[p.offset:p.offset + p.size] = self._convert(i, p, a)
        return bytes(out)

    def _convert(self, i, p, a):
        what = f"kernel {self.name} argument {i} ({p.size}-byte parameter at +{p.offset})"
        if hasattr(a, "va"):
            if p.size != 8:
                raise KernargError(f"{what}: a pointer where the kernel expects {p.size} bytes")
            if getattr(a, "freed", False):
                raise KernargError(f"{what}: buffer at 0x{a.va:x} was freed")
            return struct.pack("<Q", a.va)
        if isinstance(a, (bytes, bytearray)):
            if len(a) != p.size:
                raise KernargError(f"{what}: {len(a)} bytes")
            return bytes(a)
        if isinstance(a, np.generic):
            raw = a.tobytes()
            if len(raw) != p.size:
                raise KernargError(f"{what}: a {a.dtype} ({len(raw)} bytes)")
            return raw
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            raise KernargError(f"{what}: cannot pass a {type(a).__name__}")
        if isinstance(a, float):
            fmt = {2: "<e", 4: "<f", 8: "<d"}.get(p.size)
            if fmt is None:
                raise KernargError(f"{what}: a float for a {p.size}-byte parameter")
            return struct.pack(fmt, a)
        if p.size not in (1, 2, 4, 8) or not -(1 << (8 * p.size - 1)) <= a < 1 << (8 * p.size):
            raise KernargError(f"{what}: {a} does not fit {p.size} bytes")
        return (a & ((1 << 8 * p.size) - 1)).to_bytes(p.size, "little")

    def __call__(self, *args, grid=(1, 1, 1), block=(1, 1, 1), wait=False, timeout=None, shared=0):
        """Launch; with ``wait=True`` block until done and return the GPU execution time (s)."""
        if self.program.buffer.freed:
            raise GPUError(f"kernel {self.name}: its program was freed (code at 0x{self.code_va:x} is gone)")
        return self.program.device.launch(self, args, grid, block, wait=wait, timeout=timeout, shared=shared)

    def __repr__(self):
        return f"Kernel({self.name!r} at 0x{self.code_va:x})"


class Program:
    def __init__(self, device, data, source="<cubin>"):
        self.device = device
        self.cubin = cubin = read_cubin(data, source)
        dev_sm = (device.sm_version >> 8) * 10 + (device.sm_version & 0xF)
        if not compatible(cubin.sm, dev_sm):
            raise GPUError(f"{source} is sm_{cubin.sm} code; {device.target} ({device.arch}) does not run it")
        offset, self.section_va, self.section_of, place = 0, {}, {}, {}
        code_first = sorted(cubin.sections.items(), key=lambda kv: not kv[1].name.startswith(".text"))
        for index, s in code_first:
            align = 128 if s.name.startswith(".text") else max(256, s.align)
            offset = round_up(offset, align)
            place[index] = offset
            self.section_of[s.name] = index
            offset += max(len(s.data), 1)
        self.image_size = round_up(max(offset, 1), PAGE)
        self.buffer = device.alloc(self.image_size)
        try:
            base = self.buffer.va
            self.section_va = {i: base + off for i, off in place.items()}
            image = bytearray(self.image_size)
            for index, s in cubin.sections.items():
                image[place[index]:place[index] + len(s.data)] = s.data
            self._relocate(image, place, source)
            device.copyin_raw(self.buffer, image)
            self.kernels = {name: Kernel(self, info, self._banks(name)) for name, info in cubin.kernels.items()}
        except BaseException:
            self.buffer.free()
            raise
        if device.debug >= 3:
            for name in self.kernels:
                print(disassembly(device, cubin, name), file=sys.stderr)

    def _relocate(self, image, place, source):
        for r in self.cubin.relocations:
            value = self.section_va[r.symbol_section] + r.symbol_value + r.addend
            at = place[r.section] + r.offset
            if r.kind == R_CUDA_64:
                image[at:at + 8] = struct.pack("<Q", value)
            elif r.kind == R_CUDA_32:
                image[at:at + 4] = struct.pack("<I", value & 0xFFFFFFFF)
            elif r.kind in (R_CUDA_ABS32_LO_32, R_CUDA_ABS32_HI_32):
                part = value & 0xFFFFFFFF if r.kind == R_CUDA_ABS32_LO_32 else value >> 32
                image[at + 4:at + 8] = struct.pack("<I", part)

    def _banks(self, kernel):
        """Constant banks N > 0 a kernel sees: its own .nv.constantN.<kernel> and the shared .nv.constantN."""
        banks = {}
        for index, bank in self.cubin.const_banks.items():
            name = self.cubin.sections[index].name
            suffix = name[len(f".nv.constant{bank}"):]
            if suffix in ("", f".{kernel}"):
                banks[bank] = (self.section_va[index], len(self.cubin.sections[index].data))
        return banks

    def __getitem__(self, name):
        try:
            return self.kernels[name]
        except KeyError:
            raise KeyError(f"no kernel {name!r} in this program (has: {', '.join(self.kernels)})") from None

    def __contains__(self, name):
        return name in self.kernels

    def free(self):
        self.device.synchronize()
        self.buffer.free()


def disassembly(device, cubin, name):
    """The kernel's instructions as text (DEBUG=3), from the in-tree SASS decoder when there is one."""
    k = cubin.kernels[name]
    head = f"kernel {name}: {k.code_size} bytes of sm_{cubin.sm} code, {k.registers} registers"
    try:
        from drivers.emu.nv.sass.decode import disassemble
    except ImportError:
        return head + " (no SASS disassembler in this tree)"
    text = cubin.text(name).data[k.offset:k.offset + k.code_size]
    return "\n".join([head] + [f"  {line}" for line in disassemble(text, cubin.sm)])
