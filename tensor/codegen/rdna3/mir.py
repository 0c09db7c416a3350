"""Machine IR: RDNA3 instructions on virtual registers, before and after register allocation.

An :class:`MI` is one machine instruction in LLVM's AMDGPU syntax: a mnemonic, its operands in
text order (the first ``ndef`` are the registers it writes), a modifier suffix (``offset:16``)
and the registers it reads or writes implicitly (``scc``, ``vcc_lo``, ``exec_lo``).  Operands are
:class:`VReg` (a virtual register of ``size`` dwords in the VGPR or SGPR file), :class:`Sub` (some
dwords of one), or text: fixed registers (``vcc_lo``, ``exec_lo``, ``m0``, ``null``, ``off``),
constants (``0x3f800000``, ``-1``, ``0.5``) and labels.

Code is built into :class:`Code`: one list per open loop depth, so code for a value that belongs
outside the innermost loop is appended to an outer list, which places it before that loop when
the loop closes (the code generator's hoisting needs nothing more).  Loops are recorded as
(label, back-branch) positions for liveness.
"""

VALU_TRANS = frozenset({
    "v_exp_f32", "v_log_f32", "v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32", "v_sqrt_f32",
    "v_sin_f32", "v_cos_f32", "v_exp_f16", "v_log_f16", "v_rcp_f16", "v_rsq_f16", "v_sqrt_f16",
    "v_sin_f16", "v_cos_f16", "v_rcp_f64", "v_rsq_f64", "v_sqrt_f64"})


class VReg:
    """A virtual register: ``cls`` "v" (VGPR) or "s" (SGPR), ``size`` dwords, ``align`` (the
    first physical register must be a multiple of it), ``phys`` once allocated."""
    __slots__ = ("n", "cls", "size", "align", "phys", "fixed", "spillable")

    def __init__(self, n, cls, size=1, align=1, phys=None):
        self.n, self.cls, self.size, self.align = n, cls, size, align
        self.phys = phys
        self.fixed = phys is not None          # precoloured (kernel inputs)
        self.spillable = True

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop = i.start or 0, self.size if i.stop is None else i.stop
            return Sub(self, start, stop - start)
        return Sub(self, i, 1)

    @property
    def lo(self):
        return Sub(self, 0, 1)

    @property
    def hi(self):
        return Sub(self, 1, 1)

    def text(self):
        return reg_text(self.cls, self.phys, self.size)

    def __repr__(self):
        where = f"={self.text()}" if self.phys is not None else ""
        return f"%{self.cls}{self.n}" + (f"x{self.size}" if self.size > 1 else "") + where


class Sub:
    """Dwords ``off .. off+size-1`` of a VReg (a half of a 64-bit value, a WMMA row...)."""
    __slots__ = ("reg", "off", "size")

    def __init__(self, reg, off, size):
        self.reg, self.off, self.size = reg, off, size

    @property
    def cls(self):
        return self.reg.cls

    def text(self):
        return reg_text(self.reg.cls, self.reg.phys + self.off, self.size)

    def __repr__(self):
        return f"{self.reg!r}[{self.off}:{self.off + self.size}]"


class Neg:
    """A negated source operand (``-v[0:1]``): the VOP3 neg modifier."""
    __slots__ = ("op",)

    def __init__(self, op):
        self.op = op

    @property
    def cls(self):
        return self.op.cls

    @property
    def size(self):
        return self.op.size

    def text(self):
        return "-" + (self.op if isinstance(self.op, str) else self.op.text())


def reg_text(cls, phys, size):
    return f"{cls}{phys}" if size == 1 else f"{cls}[{phys}:{phys + size - 1}]"


def regs_of(op):
    """The (VReg, first dword, dwords) an operand names, or None for text operands."""
    if isinstance(op, VReg):
        return op, 0, op.size
    if isinstance(op, Sub):
        return op.reg, op.off, op.size
    if isinstance(op, Neg):
        return regs_of(op.op)
    return None


class MI:
    """``imm`` / ``align`` (memory instructions): the immediate offset, and what the register
    part of the address is known to be a multiple of (bytes), for merging neighbours."""
    __slots__ = ("op", "ops", "ndef", "mods", "imp_def", "imp_use", "kind", "imm", "align")

    def __init__(self, op, ops=(), ndef=0, mods="", imp_def=(), imp_use=()):
        self.op, self.ops, self.ndef, self.mods = op, list(ops), ndef, mods
        self.imp_def, self.imp_use = imp_def, imp_use
        self.kind = classify(op)
        self.imm = self.align = None

    @property
    def defs(self):
        return self.ops[:self.ndef]

    @property
    def uses(self):
        return self.ops[self.ndef:]

    def text(self):
        if self.kind == "label":
            return f"{self.ops[0]}:"
        parts = [o if isinstance(o, str) else o.text() if not isinstance(o, int) else str(o)
                 for o in self.ops]
        line = self.op + (" " + ", ".join(parts) if parts else "")
        return line + (" " + self.mods if self.mods else "")

    def __repr__(self):
        return f"MI({self.op} {self.ops!r} ndef={self.ndef} {self.mods})"


def classify(op):
    """The pipeline an instruction goes to, for the wait-count and hazard passes."""
    if op == "label":
        return "label"
    if op.startswith("v_"):
        if op in VALU_TRANS:
            return "trans"
        if op.startswith("v_wmma"):
            return "wmma"
        return "valu"
    if op.startswith(("global_load", "scratch_load")):
        return "vmem_load"
    if op.startswith(("global_store", "scratch_store")):
        return "vmem_store"
    if op.startswith("ds_"):
        return "ds_store" if op.startswith(("ds_store", "ds_write")) else "ds_load"
    if op.startswith("s_load") or op.startswith("s_buffer_load"):
        return "smem"
    if op.startswith(("s_cbranch", "s_branch")):
        return "branch"
    return "salu"


class Loop:
    __slots__ = ("head", "latch", "depth")

    def __init__(self, depth):
        self.head = self.latch = None        # the label MI and the back-branch MI
        self.depth = depth


class Code:
    """Instruction lists per open loop depth (see the module docstring)."""

    def __init__(self):
        self.blocks = [[]]
        self.loops = []            # every Loop, outermost first in the order opened
        self.open = []             # Loops currently open
        self.nregs = 0
        self.labels = 0

    @property
    def depth(self):
        return len(self.blocks) - 1

    def reg(self, cls, size=1, align=None):
        self.nregs += 1
        if align is None:
            align = 1 if cls == "v" else (2 if size == 2 else 4 if size >= 4 else 1)
        return VReg(self.nregs, cls, size, align)

    def fixed(self, cls, phys, size=1):
        self.nregs += 1
        return VReg(self.nregs, cls, size, 1, phys)

    def label(self):
        self.labels += 1
        return f"L{self.labels}"

    def add(self, mi, depth=None):
        self.blocks[self.depth if depth is None else depth].append(mi)
        return mi

    def open_loop(self):
        loop = Loop(len(self.open) + 1)
        self.loops.append(loop)
        self.open.append(loop)
        self.blocks.append([])
        return loop

    def close_loop(self):
        loop = self.open.pop()
        block = self.blocks.pop()
        self.blocks[-1].extend(block)
        return loop

    def finish(self):
        if len(self.blocks) != 1:
            raise RuntimeError("code generator bug: a loop was never closed")
        return self.blocks[0]
