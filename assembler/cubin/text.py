"""A cubin from text: SASS kernels with a few directives.

    .target sm_90                   optional; must agree with --arch when both are given
    .kernel vadd                    starts a kernel (its code follows, up to .end)
        .param a, 8                 a parameter: name, size in bytes[, alignment]; laid out in
        .param b, 8                 order, each aligned (default: its size, at most 8), in the
        .param n, 4                 parameter area of constant bank 0
        .shared 1024                static shared memory in bytes (default 0)
        .local 0                    per-thread local memory (stack) in bytes (default 0)
        .regs 16                    register count (default: highest register used + 3, as
                                    ptxas counts them)
        .barriers 1                 named barriers (default: from the BAR instructions)
        .maxntid 256                launch bounds: maximum / required threads per block
        .reqntid 128, 1, 1
        LDC R1, c[0x0][0x28] ;      SASS in nvdisasm's syntax (assembler.sass)
        ...
    .end

In the code, `c[0x0][param:NAME]` is the constant-bank address of parameter NAME (and
`param:NAME+4` a few bytes into it), so kernels need not hard-code 0x160 / 0x210.
    build_cubin(text, arch=None, source=None) -> bytes
    parse_cubin_text(text, arch=None, source=None) -> (arch, [KernelSpec])
"""
import re

from assembler.errors import AssemblerError

from .writer import PARAM_BASE, KernelSpec, ParamSpec, layout_params, write_cubin

_DIRECTIVE = re.compile(r"^\s*(\.[A-Za-z_]+)\b(.*)$")
_PARAM_REF = re.compile(r"param:([A-Za-z_$][\w$]*)(\s*\+\s*(0x[0-9a-fA-F]+|\d+))?")


def _ints(text, n_max, what, line, source):
    vals = []
    for part in text.split(","):
        part = part.strip()
        try:
            vals.append(int(part, 0))
        except ValueError:
            raise AssemblerError("%s: %r is not a number" % (what, part), line, None, source) from None
    if not 1 <= len(vals) <= n_max:
        raise AssemblerError("%s takes 1 to %d numbers" % (what, n_max), line, None, source)
    return vals


class _Kernel:
    def __init__(self, name, line):
        self.name, self.line = name, line
        self.params, self.shared, self.local, self.regs, self.barriers = [], 0, 0, None, None
        self.maxntid = self.reqntid = None
        self.code = []            # (line number, text)


def parse_cubin_text(text, arch=None, source=None):
    from assembler.sass.tables import canonical_arch
    kernels = []
    cur = None
    target = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("//", 1)[0] if "[B" not in raw else raw
        m = _DIRECTIVE.match(line)
        word = m.group(1) if m else None
        rest = m.group(2).strip() if m else ""
        if word == ".target" or word == ".arch":
            try:
                target = canonical_arch(rest)
            except ValueError as e:
                raise AssemblerError(str(e), n, None, source) from None
            continue
        if word == ".kernel":
            if cur is not None:
                raise AssemblerError("kernel %s has no .end before .kernel" % cur.name, n, None, source)
            if not re.match(r"^[A-Za-z_$][\w$.]*$", rest):
                raise AssemblerError(".kernel needs a name", n, None, source)
            if any(k.name == rest for k in kernels):
                raise AssemblerError("kernel %s defined twice" % rest, n, None, source)
            cur = _Kernel(rest, n)
            continue
        if word == ".end":
            if cur is None:
                raise AssemblerError(".end outside a .kernel", n, None, source)
            kernels.append(cur)
            cur = None
            continue
        if word in (".param", ".shared", ".local", ".regs", ".barriers", ".maxntid", ".reqntid"):
            if cur is None:
                raise AssemblerError("%s outside a .kernel" % word, n, None, source)
            if word == ".param":
                parts = [p.strip() for p in rest.split(",")]
                if len(parts) not in (2, 3) or not re.match(r"^[A-Za-z_$][\w$]*$", parts[0]):
                    raise AssemblerError(".param takes a name, a size and an optional alignment", n, None, source)
                size, *align = _ints(",".join(parts[1:]), 2, ".param", n, source)
                if size <= 0:
                    raise AssemblerError(".param %s: size must be positive" % parts[0], n, None, source)
                if any(p.name == parts[0] for p in cur.params):
                    raise AssemblerError("parameter %s declared twice" % parts[0], n, None, source)
                cur.params.append(ParamSpec(parts[0], size, align[0] if align else None))
            elif word in (".maxntid", ".reqntid"):
                v = _ints(rest, 3, word, n, source)
                setattr(cur, word[1:], tuple(v + [1] * (3 - len(v))))
            else:
                v = _ints(rest, 1, word, n, source)[0]
                if v < 0:
                    raise AssemblerError("%s must not be negative" % word, n, None, source)
                setattr(cur, word[1:], v)
            continue
        if cur is None:
            if raw.strip() and not raw.strip().startswith("//"):
                raise AssemblerError("code outside a .kernel ... .end block", n, None, source)
            continue
        cur.code.append((n, raw))
    if cur is not None:
        raise AssemblerError("kernel %s has no .end" % cur.name, cur.line, None, source)
    if arch is not None:
        arch = canonical_arch(arch)
        if target is not None and target != arch:
            raise AssemblerError(".target %s disagrees with the requested arch %s" % (target, arch), None, None,
                                 source)
    arch = arch or target
    if arch is None:
        raise AssemblerError("no arch: add '.target sm_XX' or pass the arch", None, None, source)
    if not kernels:
        raise AssemblerError("no .kernel in the text", None, None, source)
    return arch, [_build(k, arch, source) for k in kernels]


def _build(k, arch, source):
    from assembler.sass.asm import assemble_program
    from assembler.sass.decoder import decode_word
    params, _ = layout_params(k.params)
    offsets = {p.name: p for p in params}
    base = PARAM_BASE[arch]

    def subst(m, line):
        p = offsets.get(m.group(1))
        if p is None:
            raise AssemblerError("unknown parameter %r" % m.group(1), line, m.start() + 1, source)
        extra = int(m.group(3), 0) if m.group(3) else 0
        return hex(base + p.offset + extra)
    # keep line numbers: blank lines stand in for the directives
    lines = [""] * (k.code[-1][0] if k.code else 0)
    for n, raw in k.code:
        lines[n - 1] = _PARAM_REF.sub(lambda m: subst(m, n), raw)
    prog = assemble_program("\n".join(lines), arch, source=source)
    words = prog.words
    max_reg, bars, exits = -1, 0, []
    from assembler.sass.usage import usage
    for i, w in enumerate(words):
        ins = decode_word(w, arch, 16 * i)
        reads, writes = usage(ins)
        for f, r in reads | writes:
            if f == "R":
                max_reg = max(max_reg, r)
        if ins.opcode == "BAR" and ins.operands and ins.operands[0].kind == "imm":
            bars = max(bars, int(ins.operands[0].holes[0]) + 1)
        elif ins.opcode == "BAR":
            bars = 16
        if ins.opcode == "EXIT":
            exits.append(16 * i)
    regs = k.regs if k.regs is not None else max(max_reg + 3, 2)
    if regs > 255:
        raise AssemblerError("kernel %s: %d registers (at most 255)" % (k.name, regs), k.line, None, source)
    return KernelSpec(k.name, prog.data, regs, params, k.shared, k.local,
                      k.barriers if k.barriers is not None else bars, k.maxntid, k.reqntid, exits)


def build_cubin(text, arch=None, source=None):
    arch, kernels = parse_cubin_text(text, arch, source)
    return write_cubin(arch, kernels)
