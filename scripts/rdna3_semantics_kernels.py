"""The instruction path of the ALU semantics check: cases assembled into kernels, decoded and run
by the WaveExecutor -- in compiled blocks and one instruction at a time -- then compared with the
reference (VOP3 and VOP3P with modifiers and MODE; SOP1/SOP2/SOPC/SOPK with SCC in and out).
"""
import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import rdna3_ref as R  # noqa: E402

from rdna3_semantics_cases import (U16_EDGE, U32_EDGE, U64_EDGE, Case, _edge,  # noqa: E402
                                   _fit, _vop3_entry, agrees, ref_result, salu_cases,
                                   salu_ref)

# ---- the instruction path: assembled, decoded and executed by the WaveExecutor ------------------

CODE_VA, DATA_VA = 0x10000, 0x200000


def _reg(first, bits):
    n = max(1, bits // 32)
    return "v%d" % first if n == 1 else "v[%d:%d]" % (first, first + n - 1)


def _src_text(case, i, first, bits, fkind):
    t = _reg(first, bits)
    if fkind:
        if case.abs >> i & 1:
            t = "|%s|" % t
        if case.neg >> i & 1:
            t = "-" + t
    return t


def kernel_statement(case):
    """The VOP3 (or VOP3P) instruction of a case (e64 form) with its modifiers, or None when the
    op has no form this path builds (lane-crossing, 128-bit operands)."""
    found = _vop3_entry(case.op)
    if found is None:
        return None
    fam, e = found
    op = R.OPS[case.op]
    if any(k == "u128" for k in op.srcs) or op.dst == "u128" or case.op.startswith("v_cmpx"):
        return None
    from drivers.emu.amd.shader.valu import VALU
    sop = VALU[case.op]
    parts, si = [], 0
    mix = case.op.startswith("v_fma_mix")
    for spec in e[1]:
        if spec[0] == "reg" and spec[2] == "s":
            parts.append("s20")                           # the lane mask written (VOPC, carry)
        elif spec[0] == "reg" and spec[1] == "vdst":
            parts.append(_reg(40, max(sop.dst_bits, 32)))
        elif spec[0] == "src":
            if si < len(sop.src_bits):
                if mix:                                   # neg_lo / neg_hi are -x / |x| there
                    t = _reg(10 + 4 * si, 32)
                    t = "|%s|" % t if case.neg_hi >> si & 1 else t
                    parts.append("-" + t if case.neg >> si & 1 else t)
                else:
                    parts.append(_src_text(case, si, 10 + 4 * si, sop.src_bits[si],
                                           fam != "VOP3P" and op.srcs[si] in ("f16", "f32", "f64")))
                si += 1
            else:
                parts.append("s21")                       # the lane mask (cndmask, carry in)
        elif spec[0] == "fixed":
            parts.append(spec[1])
    text = e[0] + " " + ", ".join(parts)
    mods = []
    if fam == "VOP3P":
        # every bit spelled out, so the encoding holds exactly the case's modifiers
        n = len(sop.src_bits)
        for name, v in (("op_sel", case.opsel), ("op_sel_hi", case.opsel_hi)) + (
                () if mix else (("neg_lo", case.neg), ("neg_hi", case.neg_hi))):
            mods.append("%s:[%s]" % (name, ",".join(str(v >> i & 1) for i in range(n))))
        if case.clamp:
            mods.append("clamp")
        return text + " " + " ".join(mods)
    if case.opsel and e[8] is not None:
        n = e[8][0]
        bits = [0] * n
        for b in range(4):
            idx = e[8][1 + b]
            if idx >= 0 and case.opsel >> b & 1:
                bits[idx] = 1
        mods.append("op_sel:[%s]" % ",".join(map(str, bits)))
    if case.clamp:
        mods.append("clamp")
    if case.omod:
        mods.append(("", "mul:2", "mul:4", "div:2")[case.omod])
    return text + (" " + " ".join(mods) if mods else "")


def run_kernel_group(cases, blocks=True, statement=None):
    """Run cases that share op, modifiers and MODE as one instruction in a kernel: each lane loads
    its operands, executes it, stores the result. -> [(main, mask)] like sim_results. blocks:
    the executor's compiled straight-line blocks (its default), False: one instruction at a
    time. statement: the instruction's text when it is not kernel_statement's (a constant in
    place of a source register)."""
    from assembler.rdna3 import assemble
    from drivers.emu.amd.dispatch import Dispatch
    from drivers.emu.amd.shader import WaveExecutor
    from drivers.emu.amd.shader.valu import VALU
    from drivers.emu.vm import GpuVM
    c0 = cases[0]
    sop = VALU[c0.op]
    stmt = kernel_statement(c0) if statement is None else statement
    n = len(cases)
    waves = -(-n // 32)
    lanes = waves * 32
    bufs = []                                   # (name, bytes per lane, values)

    def add(name, nbytes, vals):
        vals = vals + [vals[-1]] * (lanes - n)
        bufs.append((name, nbytes, vals))
    for j, b in enumerate(sop.src_bits):
        add("s%d" % j, b // 8, [c.srcs[j] for c in cases])
    add("old", max(sop.dst_bits, 32) // 8, [c.old for c in cases])
    add("vcc", 4, [c.vcc for c in cases])
    add("out", max(sop.dst_bits, 32) // 8, [0] * n)
    add("mask", 4, [0] * n)
    offs, off = {}, 0
    for name, nb, _ in bufs:
        offs[name] = off
        off += nb * lanes
    data = np.zeros(-(-off // 4096) * 4096, np.uint8)
    for name, nb, vals in bufs:
        raw = b"".join(int(v).to_bytes(nb, "little") for v in vals)
        data[offs[name]:offs[name] + len(raw)] = np.frombuffer(raw, np.uint8)
    src = ["s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), 0x%x" % c0.mode,
           "s_lshl_b32 s3, s2, 5", "v_add_nc_u32 v1, s3, v0",
           "v_lshlrev_b32 v2, 2, v1", "v_lshlrev_b32 v3, 3, v1"]

    def base(name, sreg):
        src.extend(["s_add_u32 s%d, s0, 0x%x" % (sreg, offs[name]), "s_addc_u32 s%d, s1, 0" % (sreg + 1)])

    def load(name, nb, dst):
        base(name, 4)
        addr = "v2" if nb == 4 else "v3"
        kind = {4: "b32", 8: "b64"}[nb]
        src.append("global_load_%s %s, %s, s[4:5]" % (kind, _reg(dst, nb * 8), addr))
    for j, b in enumerate(sop.src_bits):
        load("s%d" % j, b // 8, 10 + 4 * j)
    load("old", max(sop.dst_bits, 32) // 8, 40)
    load("vcc", 4, 30)
    src.append("s_waitcnt vmcnt(0)")
    src.append("v_cmp_ne_u32_e64 s21, 0, v30")
    src.append("s_mov_b32 vcc_lo, s21")
    src.append(stmt)
    nb_out = max(sop.dst_bits, 32) // 8
    if sop.dst_bits:
        base("out", 6)
        src.append("global_store_%s %s, %s, s[6:7]" % ({4: "b32", 8: "b64"}[nb_out],
                                                       "v2" if nb_out == 4 else "v3", _reg(40, nb_out * 8)))
    if sop.mask_out or not sop.dst_bits:
        base("mask", 8)
        src.append("v_cndmask_b32_e64 v31, 0, 1, s20")
        src.append("global_store_b32 v2, v31, s[8:9]")
    src.append("s_endpgm")
    code = assemble("\n".join(src))
    vm = GpuVM()
    mem = np.zeros(-(-(len(code) + 64) // 4096) * 4096, np.uint8)
    mem[:len(code)] = np.frombuffer(code, np.uint8)
    vm.map(CODE_VA, mem, writable=False, executable=True)
    vm.map(DATA_VA, data)
    rsrc1 = ((64 // 8 - 1) & 0x3F) | 0x60AF0000
    d = Dispatch(source="check", code_va=CODE_VA, rsrc1=rsrc1, rsrc2=2 << 1 | 1 << 7, rsrc3=0,
                 user_sgprs=(DATA_VA & 0xFFFFFFFF, DATA_VA >> 32), grid_workgroups=(waves, 1, 1),
                 workgroup_size=(32, 1, 1), grid_size=(lanes, 1, 1), lds_bytes=0, wave32=True, vm=vm,
                 scratch_base=0, private_segment_size=0)
    WaveExecutor(blocks=blocks)(d)
    out = []
    for i in range(n):
        main = mask = None
        if sop.dst_bits:
            o = offs["out"] + i * nb_out
            main = int.from_bytes(data[o:o + nb_out].tobytes(), "little")
        if sop.mask_out or not sop.dst_bits:
            o = offs["mask"] + i * 4
            mask = int.from_bytes(data[o:o + 4].tobytes(), "little")
        out.append((main, mask))
    return out


def check_kernels(cases, max_groups=None):
    """Run cases through assembled kernels; -> (counts, disagreements) as check()."""
    groups = {}
    for c in cases:
        if c.op in R.OPS and kernel_statement(c) is not None:
            groups.setdefault((c.op,) + c.mods_key(), []).append(c)
    keys = sorted(groups)
    if max_groups is not None:
        keys = keys[:max_groups]
    bad, ok, n, paths = [], 0, 0, 0
    for k in keys:
        cs = groups[k][:256]
        for i, c in enumerate(cs):
            c.lane = i % 32                       # the lane each case runs in
        got = run_kernel_group(cs)
        one = run_kernel_group(cs, blocks=False)
        op = R.OPS[cs[0].op]
        for c, g, o in zip(cs, got, one):
            n += 1
            want = ref_result(c)
            if op.dst == "mask":
                g, o = (None, g[1]), (None, o[1])
            if g != o:                            # a compiled block must match one-at-a-time
                paths += 1
                bad.append((c, ("one instruction at a time",) + o, g))
            elif agrees(op, want, g):
                ok += 1
            else:
                bad.append((c, want, g))
    return dict(kernels=len(keys), cases=n, agree=ok, disagree=len(bad), paths_differ=paths), bad


# ---- constant and SGPR operands in place of a source register -----------------------------------

CONSTANTS = ["0", "1", "-1", "64", "-16", "0.5", "-4.0", "1.0", "0.15915494", "0x12345678",
             "0x3c00", "0x3f800000", "0x80000000", "-0x20"]
_INLINE_FLOAT = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0,
                 247: -4.0}
_INV_2PI = {16: 0x3118, 32: 0x3E22F983, 64: 0x3FC45F306DC9C882}


def constant_operand(kind, value, dtype, width):
    """What an inline constant (kind 'const', value = its code) or a literal supplies to a
    source of operand type `dtype` and `width` bits, as the hardware produces it (LLVM's account,
    AMDGPUBaseInfo's getInlineEncodingV216, where the ISA guide's table is misleading): integers
    -16..64 sign-extended; a float code as the half value in the low bits (0 above) for f16
    operands, packed or not, the bf16 value for bf16 ones, the single value for 16-bit integer
    and 32-bit operands, the double for 64-bit ones; a literal as its 32 bits (the high dword of
    a double). None: no model (a 64-bit integer literal, whose extension the guide leaves open)."""
    import struct
    if kind == "literal":
        if width == 64:
            return value << 32 if dtype == "f64" else None
        return value & R.M32
    if 128 <= value <= 192:
        return value - 128
    if 193 <= value <= 208:
        return (192 - value) & ((1 << width) - 1)
    x = _INLINE_FLOAT.get(value)
    if width == 64 or dtype in ("f64", "i64"):
        return _INV_2PI[64] if x is None else struct.unpack("<Q", struct.pack("<d", x))[0]
    if dtype in ("f16", "pf16", "pf16v"):
        return _INV_2PI[16] if x is None else struct.unpack("<H", struct.pack("<e", x))[0]
    f32 = _INV_2PI[32] if x is None else struct.unpack("<I", struct.pack("<f", x))[0]
    if dtype in ("bf16", "pbf16", "pbf16v"):
        return (f32 >> 16) + (1 if x is None else 0)       # 1/(2*pi) rounded to bf16: 0x3E23
    return f32


def constant_statements(names=None):
    """(op, source slot, statement, operand value) for every VOP3 and VOP3P form the kernel path
    builds, each of its first two register sources replaced by each of CONSTANTS the assembler
    takes."""
    from assembler.errors import AssemblerError
    from assembler.rdna3 import assemble, decode
    out = []
    for name, slot, bits, mnem, operands, reg in _register_sources(names):
        for text in CONSTANTS:
            stmt = mnem + " " + ", ".join(text if o == reg else o for o in operands)
            try:
                ins = decode(assemble(stmt))[0]
            except AssemblerError:
                continue                          # not an operand this form takes
            const = [o for o in ins.operands if o.kind in ("const", "literal")]
            v = constant_operand(const[0].kind, const[0].value, const[0].dtype, 64 if bits == 64 else 32)
            if v is not None:
                out.append((name, slot, stmt, v))
    return out


def _register_sources(names=None):
    """(op, source slot, its bits, mnemonic, operand texts, the slot's register text) for each
    of the first two register sources of every op the kernel path builds."""
    from drivers.emu.amd.shader.valu import VALU
    for name in sorted(names or R.OPS):
        op = R.OPS[name]
        if not op.srcs:
            continue
        base = kernel_statement(Case(name, R.Mode.of().reg, [0] * len(op.srcs)))
        if base is None:
            continue
        mnem, _, rest = base.partition(" ")
        operands = rest.split(", ")
        src_bits = VALU[name].src_bits
        for slot in range(min(2, len(src_bits))):
            reg = _reg(10 + 4 * slot, src_bits[slot])
            if reg in operands:
                yield name, slot, src_bits[slot], mnem, operands, reg


def sgpr_statements(rng, names=None):
    """(op, source slot, statement, operand value) with an SGPR (pair) in place of each of the
    first two register sources, set by s_mov_b32 to an edge value of the source's kind (the
    same for every lane), the case's other modifiers kept as kernel_statement spells them."""
    from assembler.errors import AssemblerError
    from assembler.rdna3 import assemble
    out = []
    for name, slot, bits, mnem, operands, reg in _register_sources(names):
        wide = bits == 64
        stmt = mnem + " " + ", ".join(("s[24:25]" if wide else "s24") if o == reg else o for o in operands)
        try:
            assemble(stmt)
        except AssemblerError:
            continue
        v = _fit_edge(rng, R.OPS[name].srcs[slot])
        movs = "s_mov_b32 s24, 0x%x\n" % (v & R.M32) + ("s_mov_b32 s25, 0x%x\n" % (v >> 32) if wide else "")
        out.append((name, slot, movs + stmt, v))
    return out


def check_constants(items, rng):
    """Each statement (constant_statements, sgpr_statements) against the reference with the
    constant's or SGPR's value as the operand, in compiled blocks and one instruction at a
    time -> (counts, disagreements)."""
    bad, ok, n = [], 0, 0
    for name, slot, stmt, v in items:
        op = R.OPS[name]
        cases = []
        for lane in range(32):
            srcs = [_fit_edge(rng, k) for k in op.srcs]
            srcs[slot] = v
            c = Case(name, R.Mode.of().reg, srcs, old=rng.getrandbits(32), vcc=rng.getrandbits(1))
            c.lane = lane
            cases.append(c)
        got = run_kernel_group(cases, statement=stmt)
        one = run_kernel_group(cases, blocks=False, statement=stmt)
        for c, g, o in zip(cases, got, one):
            n += 1
            want = ref_result(c)
            if op.dst == "mask":
                g, o = (None, g[1]), (None, o[1])
            if g != o:
                bad.append((stmt, c, ("one instruction at a time",) + o, g))
            elif agrees(op, want, g):
                ok += 1
            else:
                bad.append((stmt, c, want, g))
    return dict(statements=len(items), cases=n, agree=ok, disagree=len(bad)), bad


def _fit_edge(rng, kind):
    return _fit(rng.choice(_edge(kind)), kind, rng)


# ---- SALU through the instruction path ----------------------------------------------------------

def sop_cases(rng, per_op):
    """SOP1/SOP2 (R.SALU), SOPC and SOPK cases: Case(op, 0, [a, b or simm16], scc=SCC in)."""
    out = [c for name in sorted(R.SALU) for c in salu_cases(name, rng, per_op)]
    for name, (bits, fn) in sorted(R.SOPC.items()):
        edge = U64_EDGE if bits == 64 else U32_EDGE
        combos = list(itertools.product(edge, edge if not name.startswith("s_bitcmp") else U32_EDGE))
        rng.shuffle(combos)
        out += [Case(name, 0, list(c), scc=rng.getrandbits(1)) for c in combos[:per_op]]
    for name in sorted(R.SOPK):
        combos = list(itertools.product(U32_EDGE, U16_EDGE + [0x8000, 0xFFF0, 0x7FF0, 0x0010]))
        rng.shuffle(combos)
        out += [Case(name, 0, list(c), scc=rng.getrandbits(1)) for c in combos[:per_op]]
    return out


def sop_ref(c):
    """(D or None, SCC or None) of the reference."""
    if c.op in R.SALU:
        return salu_ref(c)
    if c.op in R.SOPC:
        return None, R.SOPC[c.op][1](*c.srcs)
    d, scc = R.SOPK[c.op](c.srcs[0], c.srcs[1], c.scc)
    return d, scc


def _sop_width(c):
    if c.op in R.SALU:
        nbits, srcs, fn, _ = R.SALU[c.op]
        import inspect
        n = len(inspect.signature(fn).parameters) - (1 if R.SALU[c.op][3] else 0)
        return nbits, list(srcs or (nbits,) * n)
    if c.op in R.SOPC:
        bits = R.SOPC[c.op][0]
        return 0, [bits, 32 if c.op.startswith("s_bitcmp") else bits]
    return 32, [32]


def run_sop_kernel(cases, blocks=True):
    """One wave runs the cases one after the other; each case's D and SCC go to lanes of v1..v3
    (v_writelane) and to memory every 32 cases. -> [(D or None, SCC)]. blocks as in
    run_kernel_group."""
    from assembler.rdna3 import assemble
    from drivers.emu.amd.dispatch import Dispatch
    from drivers.emu.amd.shader import WaveExecutor
    from drivers.emu.vm import GpuVM

    def movs(reg, v, bits):
        out = ["s_mov_b32 s%d, 0x%x" % (reg, v & 0xFFFFFFFF)]
        if bits == 64:
            out.append("s_mov_b32 s%d, 0x%x" % (reg + 1, v >> 32 & 0xFFFFFFFF))
        return out

    def sreg(r, bits):
        return "s%d" % r if bits != 64 else "s[%d:%d]" % (r, r + 1)
    src = ["v_lshlrev_b32 v0, 2, v0"]
    chunk = 0
    for i, c in enumerate(cases):
        dbits, widths = _sop_width(c)
        src += ["s_mov_b32 s30, %d" % c.scc, "s_cmp_lg_u32 s30, 0"]
        if c.op in R.SOPK:
            src += movs(6, c.srcs[0], 32)
            src += ["s_cmp_lg_u32 s30, 0", "%s s6, 0x%x" % (c.op, c.srcs[1])]
        else:
            src += movs(4, c.srcs[0], widths[0])
            if len(widths) > 1:
                src += movs(8, c.srcs[1], widths[1])
            src += ["s_cmp_lg_u32 s30, 0"]
            ops = [sreg(4, widths[0])] + ([sreg(8, widths[1])] if len(widths) > 1 else [])
            if c.op in R.SOPC:
                src.append("%s %s" % (c.op, ", ".join(ops)))
            else:
                src.append("%s %s, %s" % (c.op, sreg(6, dbits), ", ".join(ops)))
        lane = i % 32
        src += ["s_cselect_b32 s12, 1, 0", "v_writelane_b32 v1, s6, %d" % lane,
                "v_writelane_b32 v2, s7, %d" % lane, "v_writelane_b32 v3, s12, %d" % lane]
        if lane == 31 or i == len(cases) - 1:
            for k in range(3):
                src += ["s_add_u32 s20, s0, 0x%x" % ((chunk * 3 + k) * 128), "s_addc_u32 s21, s1, 0",
                        "global_store_b32 v0, v%d, s[20:21]" % (k + 1)]
            chunk += 1
    src.append("s_endpgm")
    code = assemble("\n".join(src))
    data = np.zeros(-(-(chunk * 3 * 128) // 4096) * 4096, np.uint8)
    vm = GpuVM()
    mem = np.zeros(-(-(len(code) + 64) // 4096) * 4096, np.uint8)
    mem[:len(code)] = np.frombuffer(code, np.uint8)
    vm.map(CODE_VA, mem, writable=False, executable=True)
    vm.map(DATA_VA, data)
    d = Dispatch(source="check", code_va=CODE_VA, rsrc1=0x60AF0000 | 1, rsrc2=2 << 1, rsrc3=0,
                 user_sgprs=(DATA_VA & 0xFFFFFFFF, DATA_VA >> 32), grid_workgroups=(1, 1, 1),
                 workgroup_size=(32, 1, 1), grid_size=(32, 1, 1), lds_bytes=0, wave32=True, vm=vm,
                 scratch_base=0, private_segment_size=0)
    WaveExecutor(budget=10 ** 7, blocks=blocks)(d)
    words = data.view(np.uint32)
    out = []
    for i, c in enumerate(cases):
        base = (i // 32) * 3 * 32 + i % 32
        lo, hi, scc = (int(words[base + 32 * k]) for k in range(3))
        dbits, _ = _sop_width(c)
        out.append((None if not dbits else lo | (hi << 32 if dbits == 64 else 0), scc))
    return out


def check_sop(cases):
    bad, ok = [], 0
    for start in range(0, len(cases), 256):
        group = cases[start:start + 256]
        for c, got, one in zip(group, run_sop_kernel(group), run_sop_kernel(group, blocks=False)):
            want_d, want_scc = sop_ref(c)
            if got != one:                        # a compiled block must match one-at-a-time
                bad.append((c, ("one instruction at a time",) + one, got))
                continue
            good = (want_d is None or want_d == got[0]) and (want_scc is None or want_scc == got[1])
            # ops that leave SCC alone: it keeps the value set before them
            if want_scc is None and got[1] != c.scc:
                good = False
            ok += good
            if not good:
                bad.append((c, (want_d, want_scc), got))
    return dict(cases=len(cases), agree=ok, disagree=len(bad)), bad
