"""ir3 programs placed in GPU memory, and their kernel as a callable.

``Program(device, ir3_program)`` uploads the code (an assembler.ir3.Program: code plus the
headers that describe the dispatch) and exposes one kernel, named after the source file (or
``name=``):

    prg = dev.load("vadd.asm")
    secs = prg["vadd"](a, b, c, grid=(n // 64,), wait=True)

Arguments follow the program's parameters in header order: a Buffer for each ``@buf`` (its
64-bit address goes to the const the header names, and it is IBO slot i), a number for each
``@arg`` (u32, s32, f32 or u64, written to its const). ``block`` defaults to ``@localsize``;
the waves are ``@threadsize`` (64, or 128) unless ``load(..., threadsize=)`` says otherwise.
A wrong count or kind of argument is a KernargError naming it.
"""
import os
import struct
import sys

import numpy as np

from drivers.errors import GPUError, KernargError

A630_MAX_LOCAL = 1024
A630_SHARED_MEMORY = 32 * 1024
MAX_FOOTPRINT = 63                     # FULLREGFOOTPRINT / HALFREGFOOTPRINT are 6-bit
PVT_UNIT = 512                         # SP_CS_PVT_MEM_PARAM.MEMSIZEPERITEM counts 512 bytes


class Kernel:
    def __init__(self, program, name):
        self.program, self.name = program, name
        ir3 = program.ir3
        self.params = list(ir3.params)
        self.full_regs, self.half_regs, self.constlen = ir3.footprint()
        self.full_regs = max(self.full_regs, (self.half_regs + 1) // 2, 1)   # merged: halves live in full regs
        self.constlen = -(-max(self.constlen, 1) // 4) * 4                   # HLSQ_CS_CNTL counts 4 vec4
        self.localsize = tuple(ir3.localsize)
        self.threadsize = program.threadsize
        self.local_bytes = ir3.localmem
        self.private_bytes = -(-ir3.pvtmem // PVT_UNIT) * PVT_UNIT
        self.branchstack = ir3.branchstack
        base = np.zeros(self.constlen * 4, np.uint32)
        for reg, word in ir3.const_image().items():
            base[reg] = word
        self.const_base = base
        self.bufs, self.args = ir3.bufs, ir3.args
        self.code_va = program.buffer.va
        self.instrlen = ir3.instrlen
        self.state_cache = None              # the launch-independent command words (compute.py)
        if self.full_regs > MAX_FOOTPRINT or self.half_regs > MAX_FOOTPRINT:
            raise GPUError(f"kernel {name}: register footprint {self.full_regs} full / {self.half_regs} half vec4 "
                           f"does not fit SP_CS_CTRL_REG0 (at most {MAX_FOOTPRINT})")
        if self.constlen > 512:
            raise GPUError(f"kernel {name}: reads c{self.constlen - 1}; the const file ends at c511")
        if self.local_bytes > A630_SHARED_MEMORY:
            raise GPUError(f"kernel {name}: @localmem {self.local_bytes} bytes; the Adreno 630 has "
                           f"{A630_SHARED_MEMORY} per workgroup")

    def describe_param(self, k):
        kind, i = self.params[k]
        if kind == "buf":
            b = self.bufs[i]
            where = f" at c{b.addr_const >> 2}.{'xyzw'[b.addr_const & 3]}" if b.addr_const is not None else ""
            return f"argument {k} (@buf {i}{where})"
        a = self.args[i]
        return f"argument {k} (@arg {a.type}{' ' + a.name if a.name else ''})"

    def pack(self, args, grid):
        """(const words, [buffers in IBO order]) for one launch; KernargError for bad arguments."""
        if len(args) != len(self.params):
            raise KernargError(f"kernel {self.name} takes {len(self.params)} arguments "
                               f"({', '.join(self.describe_param(k) for k in range(len(self.params)))}), "
                               f"got {len(args)}")
        words = self.const_base.copy()
        buffers = []
        for k, ((kind, i), value) in enumerate(zip(self.params, args)):
            if kind == "buf":
                buf = self._buffer(k, value, i)
                buffers.append(buf)
                reg = self.bufs[i].addr_const
                if reg is not None:
                    words[reg], words[reg + 1] = buf.va & 0xFFFFFFFF, buf.va >> 32
            else:
                self._scalar(k, value, self.args[i], words)
        numwg = self.program.ir3.numwg
        if numwg is not None:
            words[numwg:numwg + 3] = grid
        return words, buffers

    def _buffer(self, k, value, i):
        if not hasattr(value, "va") or not hasattr(value, "size"):
            raise KernargError(f"kernel {self.name}: {self.describe_param(k)} must be a Buffer, got "
                               f"{type(value).__name__}")
        if getattr(value, "freed", False):
            raise KernargError(f"kernel {self.name}: {self.describe_param(k)} is a freed buffer (0x{value.va:x})")
        if value.device is not self.program.device:
            raise KernargError(f"kernel {self.name}: {self.describe_param(k)} belongs to another device")
        need = 4 * self.bufs[i].size
        if need and value.size < need:
            raise KernargError(f"kernel {self.name}: {self.describe_param(k)} has {value.size} bytes; the "
                               f"program declares {self.bufs[i].size} dwords ({need} bytes)")
        return value

    def _scalar(self, k, value, arg, words):
        what = f"kernel {self.name}: {self.describe_param(k)}"
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise KernargError(f"{what} must be a number, got {type(value).__name__}")
        if arg.type == "f32":
            words[arg.regid] = struct.unpack("<I", struct.pack("<f", float(value)))[0]
            return
        if isinstance(value, (float, np.floating)) and value != int(value):
            raise KernargError(f"{what} must be an integer, got {value!r}")
        v = int(value)
        lo, hi = {"u32": (0, 2**32 - 1), "s32": (-2**31, 2**31 - 1), "u64": (0, 2**64 - 1)}[arg.type]
        if not lo <= v <= hi:
            raise KernargError(f"{what} = {v} does not fit {arg.type}")
        v &= (1 << 64) - 1
        words[arg.regid] = v & 0xFFFFFFFF
        if arg.type == "u64":
            words[arg.regid + 1] = v >> 32

    def __call__(self, *args, grid=(1, 1, 1), block=None, wait=False, timeout=None):
        """Launch; with ``wait=True`` block until done and return the GPU execution time (s)."""
        if self.program.buffer.freed:
            raise GPUError(f"kernel {self.name}: its program was freed (code at 0x{self.code_va:x} is gone)")
        return self.program.device.launch(self, args, grid, block, wait=wait, timeout=timeout)

    def __repr__(self):
        return f"Kernel({self.name!r} at 0x{self.code_va:x}, wave{self.threadsize})"


def read_program(source):
    """An assembler.ir3.Program from a Program, container bytes, or a .asm / .ir3 path."""
    from assembler.ir3 import Program as IR3Program
    from assembler.ir3 import assemble_program
    if isinstance(source, IR3Program):
        return source, None
    if isinstance(source, (bytes, bytearray)):
        return IR3Program.read(bytes(source)), None
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        name = os.path.splitext(os.path.basename(path))[0]
        if path.endswith(".asm"):
            with open(path) as f:
                return assemble_program(f.read(), source=path), name
        with open(path, "rb") as f:
            return IR3Program.read(f.read(), path), name
    raise TypeError(f"load() takes an assembler.ir3 Program, its container bytes, or a .asm/.ir3 path, "
                    f"not {type(source).__name__}")


class Program:
    def __init__(self, device, source, name=None, threadsize=None):
        self.device = device
        self.ir3, default = read_program(source)
        if self.ir3.gpu // 100 != 6:
            raise GPUError(f"program assembled for a{self.ir3.gpu}; this device runs a6xx code")
        self.threadsize = threadsize or self.ir3.threadsize
        if self.threadsize not in (64, 128):
            raise ValueError(f"threadsize must be 64 or 128, got {self.threadsize!r}")
        self.name = name or default or "main"
        code = self.ir3.code
        size = max(self.ir3.instrlen, 1) * 128
        self.buffer = device.alloc(size, gpu_readonly=True)
        try:
            image = np.zeros(size, np.uint8)
            image[:len(code)] = np.frombuffer(code, np.uint8)
            device.copyin(self.buffer, image)
            self.kernels = {self.name: Kernel(self, self.name)}
        except BaseException:
            self.buffer.free()
            raise
        if device.debug >= 3:
            from assembler.ir3 import disassemble
            print(f"kernel {self.name}: {len(code) // 8} ir3 instructions, wave{self.threadsize}", file=sys.stderr)
            for i, line in enumerate(disassemble(code)):
                print(f"  {i:4d}: {line}", file=sys.stderr)

    @property
    def kernel(self):
        return self.kernels[self.name]

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
