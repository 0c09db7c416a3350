"""The cases of the ALU semantics check and how they are judged: edge values, the modifiers each
op's encodings allow, a Case per (op, MODE, modifiers, operands), the reference's result
(scripts/rdna3_ref/) and the simulator's (its op implementations called on lane arrays), and
the comparison. Used by scripts/check_rdna3_semantics.py and its kernel and LLVM parts.
"""
import itertools
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import rdna3_ref as R  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "rdna3", "semantics")

# ---- edge values ---------------------------------------------------------------------------

F32_EDGE = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x40000000,
            0x40400000, 0xC0600000, 0x3FC00000, 0x40200000, 0xC0200000, 0x3EFFFFFF, 0x3F7FFFFF,
            0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x80800000, 0x00000001, 0x80000001,
            0x007FFFFF, 0x807FFFFF, 0x00400000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
            0x7F800001, 0xFF800123, 0x7FA00000, 0x7FC12345, 0x4F000000, 0xCF000000, 0x4F800000,
            0x4EFFFFFF, 0x3E22F983, 0x3DCCCCCD, 0x42F60000, 0xC2F60000, 0x5F800000, 0x1F800000]
F16_EDGE = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0xB800, 0x4000, 0x4200, 0xC300, 0x3E00, 0x4100,
            0xC100, 0x37FF, 0x3BFF, 0x3C01, 0x7BFF, 0xFBFF, 0x0400, 0x8400, 0x0001, 0x8001, 0x03FF,
            0x83FF, 0x0200, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFC23, 0x7D00, 0x7E12, 0x3118,
            0x2E66, 0x5BB0, 0xDBB0, 0x7800, 0x0800]
F64_EDGE = [0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
            0x3FE0000000000000, 0xBFE0000000000000, 0x4000000000000000, 0x4008000000000000,
            0xC00C000000000000, 0x3FF8000000000000, 0x4004000000000000, 0xC004000000000000,
            0x3FDFFFFFFFFFFFFF, 0x3FEFFFFFFFFFFFFF, 0x3FF0000000000001, 0x7FEFFFFFFFFFFFFF,
            0xFFEFFFFFFFFFFFFF, 0x0010000000000000, 0x8010000000000000, 0x0000000000000001,
            0x8000000000000001, 0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF, 0x0008000000000000,
            0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
            0x7FF0000000000001, 0xFFF0000000000123, 0x7FF4000000000000, 0x7FF8000123456789,
            0x41E0000000000000, 0xC1E0000000000000, 0x41F0000000000000, 0x41DFFFFFFFC00000,
            0x3FC45F306DC9C883, 0x3FB999999999999A, 0x43300000000000FF, 0x7FD0000000000000,
            0x0020000000000000, 0x4330000000000000]
U32_EDGE = [0, 1, 2, 3, 5, 7, 8, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65, 0x7F, 0x80, 0xFF, 0x100,
            0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x00FF00FF, 0x12345678, 0x7FFFFFFF, 0x80000000,
            0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0xDEADBEEF, 0x00FFFFFF, 0xFF000000, 0x0F0F0F0F,
            0x001F0008, 0x00200000, 0x0008001C, 0x0007001F]
U64_EDGE = [0, 1, 2, 31, 32, 63, 64, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF,
            0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0x123456789ABCDEF0, 0x8000000000000001,
            0xFFFFFFFF00000000, 0x00000000FFFFFFFF, 0xFFFFFFFFFFFFFFFE, 0x0000000100000001]
U16_EDGE = [0, 1, 2, 15, 16, 17, 0x7F, 0xFF, 0x100, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0xFFFE, 0x1234]

# s_bfe / v_bfe: (offset, width) at and past the word size
BFE_CTL = [(o, w) for o in (0, 1, 4, 8, 16, 24, 28, 31, 32, 33, 48, 60, 63)
           for w in (0, 1, 4, 8, 16, 24, 31, 32, 33, 63, 64, 65, 127)]

# MODE register values: (name, reg)
MODES = [("default", R.Mode.of().reg),                                  # RNE, denormals, IEEE
         ("flush-noieee", R.Mode.of(denorm_f32=0, denorm_f16_64=0, ieee=0).reg),  # omod active
         ("in-only", R.Mode.of(denorm_f32=1, denorm_f16_64=1, ieee=0).reg),
         ("out-only", R.Mode.of(denorm_f32=2, denorm_f16_64=2, ieee=0).reg),
         ("up", R.Mode.of(round_f32=R.RUP, round_f16_64=R.RUP).reg),
         ("down-flush", R.Mode.of(round_f32=R.RDOWN, round_f16_64=R.RDOWN, denorm_f32=0,
                                  denorm_f16_64=0).reg),
         ("zero", R.Mode.of(round_f32=R.RZERO, round_f16_64=R.RZERO, dx10_clamp=0).reg),
         ("nodx10-noieee", R.Mode.of(dx10_clamp=0, ieee=0).reg)]

# integer ops whose clamp bit is checked (it saturates the result); other integer ops with the
# bit (conversions, sad, min/max) are run without it
INT_CLAMP = frozenset((
    "v_add_nc_u32", "v_sub_nc_u32", "v_subrev_nc_u32", "v_add_nc_i32", "v_sub_nc_i32",
    "v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_add_co_ci_u32", "v_sub_co_ci_u32",
    "v_subrev_co_ci_u32", "v_mad_u32_u24", "v_mad_i32_i24", "v_mad_u32_u16", "v_mad_i32_i16",
    "v_mad_u64_u32", "v_mad_i64_i32", "v_add_nc_u16", "v_sub_nc_u16", "v_add_nc_i16",
    "v_sub_nc_i16", "v_mad_u16", "v_mad_i16", "v_pk_add_u16", "v_pk_sub_u16", "v_pk_add_i16",
    "v_pk_sub_i16", "v_pk_mul_lo_u16", "v_pk_mad_u16", "v_pk_mad_i16", "v_dot4_u32_u8",
    "v_dot8_u32_u4", "v_dot4_i32_iu8", "v_dot8_i32_iu4"))

# Ops left out, and why.
EXCLUDED = {
    "v_movrels_b32": "reads another VGPR by M0 (tests/test_emu_sim_vector.py)",
    "v_movreld_b32": "writes another VGPR by M0", "v_movrelsd_b32": "M0-relative",
    "v_movrelsd_2_b32": "M0-relative",
    "v_wmma_f32_16x16x16_f16": "a 16x16 matrix product across the wave, not a lane op "
                               "(tests/test_emu_sim_wmma.py checks it against numpy)",
    "v_wmma_f32_16x16x16_bf16": "matrix", "v_wmma_f16_16x16x16_f16": "matrix",
    "v_wmma_bf16_16x16x16_bf16": "matrix", "v_wmma_i32_16x16x16_iu8": "matrix",
    "v_wmma_i32_16x16x16_iu4": "matrix",
}


def _edge(kind):
    if kind == "f32":
        return F32_EDGE
    if kind == "f16" or kind == "bf16":
        return F16_EDGE
    if kind == "f64":
        return F64_EDGE
    if kind in ("u64",):
        return U64_EDGE
    if kind == "u128":
        return U64_EDGE
    if kind in ("u16", "i16"):
        return U16_EDGE
    return U32_EDGE


# ---- what each op's encodings allow ------------------------------------------------------------

def _vop3_entry(name):
    """The VOP3 (or VOP3P) table entry of a VALU op, or None."""
    from assembler.rdna3.tables import ALU
    for fam in ("VOP3", "VOP3SD", "VOP3P"):
        for e in ALU[fam].values():
            base = e[0][:-4] if e[0].endswith("_e64") else e[0]
            if base == name:
                return fam, e
    return None


def modifiers_of(name, op):
    """{'neg': mask, 'abs': mask, 'clamp': bool, 'omod': bool, 'opsel': (srcs bits, dst), 'vop3p':
    bool} for the float sources / results of the op that its encoding has."""
    found = _vop3_entry(name)
    out = dict(neg=0, abs=0, clamp=False, omod=False, opsel=0, vop3p=False)
    if found is None:
        return out
    fam, e = found
    mmask, opsel_map = e[4], e[8]
    fsrc = [i for i, k in enumerate(op.srcs) if k in ("f16", "f32", "f64")]
    if fam == "VOP3P":
        out["vop3p"] = True
        out["clamp"] = bool(mmask >> 15 & 1) and (name in INT_CLAMP or not name.startswith(
            ("v_pk_max_i", "v_pk_max_u", "v_pk_min_i", "v_pk_min_u", "v_pk_lsh", "v_pk_ash")))
        return out
    for i in fsrc:
        if mmask >> (61 + i) & 1:
            out["neg"] |= 1 << i
        if mmask >> (8 + i) & 1:
            out["abs"] |= 1 << i
    fdst = op.dst in ("f16", "f32", "f64")
    out["clamp"] = bool(mmask >> 15 & 1) and (fdst or name in INT_CLAMP)
    out["omod"] = bool(mmask >> 59 & 3) and fdst
    if opsel_map is not None:
        bits = 0
        for i in range(4):
            idx = opsel_map[1 + i]
            if idx >= 0:
                bits |= 1 << i
        out["opsel"] = bits & (0b1111 if op.reads_old or any(k in ("f16", "u16", "i16") for k in op.srcs)
                               else 0)
        if not op.reads_old:
            out["opsel"] &= 0b0111
    return out


# ---- cases ------------------------------------------------------------------------------------

class Case:
    __slots__ = ("op", "mode", "neg", "abs", "opsel", "opsel_hi", "neg_hi", "clamp", "omod", "srcs",
                 "old", "vcc", "lane", "scc")

    def __init__(self, op, mode, srcs, old=0, vcc=0, lane=0, scc=0, **mods):
        self.op, self.mode, self.srcs, self.old, self.vcc, self.lane, self.scc = \
            op, mode, list(srcs), old, vcc, lane, scc
        self.neg = mods.get("neg", 0)
        self.abs = mods.get("abs", 0)
        self.opsel = mods.get("opsel", 0)
        self.opsel_hi = mods.get("opsel_hi", 0b111)
        self.neg_hi = mods.get("neg_hi", 0)
        self.clamp = mods.get("clamp", False)
        self.omod = mods.get("omod", 0)

    def mods_key(self):
        return (self.mode, self.neg, self.abs, self.opsel, self.opsel_hi, self.neg_hi, self.clamp,
                self.omod)

    def text(self):
        m = "mode=%03x" % self.mode
        for k in ("neg", "abs", "opsel", "neg_hi"):
            if getattr(self, k):
                m += " %s=%d" % (k, getattr(self, k))
        if self.opsel_hi != 0b111:
            m += " opsel_hi=%d" % self.opsel_hi
        if self.clamp:
            m += " clamp"
        if self.omod:
            m += " omod=%d" % self.omod
        if self.vcc:
            m += " vcc=1"
        if self.scc:
            m += " scc=1"
        if self.lane:
            m += " lane=%d" % self.lane
        return "%s %s srcs=%s old=%x" % (self.op, m, ",".join("%x" % v for v in self.srcs), self.old)

    @staticmethod
    def parse(line):
        parts = line.split()
        op = parts[0]
        kw = {}
        srcs, old, mode, vcc, lane, scc = [], 0, 0, 0, 0, 0
        for p in parts[1:]:
            k, _, v = p.partition("=")
            if k == "mode":
                mode = int(v, 16)
            elif k == "srcs":
                srcs = [int(x, 16) for x in v.split(",")] if v else []
            elif k == "old":
                old = int(v, 16)
            elif k == "clamp":
                kw["clamp"] = True
            elif k == "vcc":
                vcc = int(v)
            elif k == "scc":
                scc = int(v)
            elif k == "lane":
                lane = int(v)
            elif k in ("neg", "abs", "opsel", "neg_hi", "opsel_hi", "omod"):
                kw[k] = int(v)
        return Case(op, mode, srcs, old, vcc, lane, scc, **kw)


def _random_old(rng, kind):
    return rng.choice([0, 0xFFFFFFFF, 0x12345678, 0xDEAD0000 | rng.getrandbits(16)])


def _fit(v, kind, rng):
    """An edge value placed in a register of the operand's kind (16-bit kinds: in one half, the
    other half random)."""
    if kind in ("f16", "u16", "i16", "bf16"):
        junk = rng.getrandbits(16)
        return (junk << 16 | v) if rng.random() < 0.5 else (v << 16 | junk)
    return v


def valu_cases(name, op, rng, per_op):
    mods = modifiers_of(name, op)
    kinds = op.srcs
    n = len(kinds)
    out = []
    edge = [_edge(k) for k in kinds]
    must = []                   # kept whatever the sample size: the corners a class lives in
    if name in ("v_bfe_u32", "v_bfe_i32"):
        combos = [(rng.choice(U32_EDGE), o, w) for o, w in BFE_CTL]
        # fields reaching past bit 31 of a negative S0 (the signed form fills them with the sign)
        must = [(v, o, w) for v in (0x80000000, 0xDEADBEEF) for o, w in ((28, 8), (16, 31), (31, 4))]
    elif n == 1:
        combos = [(v,) for v in edge[0]]
    elif n == 2:
        combos = list(itertools.product(edge[0], edge[1]))
        combos += [(v, v) for v in edge[0]] if kinds[0] == kinds[1] else []
    else:
        combos = [tuple(rng.choice(e) for e in edge) for _ in range(per_op * 2)]
        combos += [(v, v, rng.choice(edge[2])) for v in edge[0]] if kinds[0] == kinds[1] else []
        combos += [(rng.choice(edge[0]), v, v) for v in edge[1]] if kinds[1] == kinds[2] else []
    rng.shuffle(combos)
    combos = must + combos[:max(0, per_op - len(must))]
    fp = any(k in ("f16", "f32", "f64", "bf16") for k in op.srcs + (op.dst,)) or mods["vop3p"]
    for c in combos:
        mode = rng.choice(MODES)[1] if fp else MODES[0][1]
        kw = {}
        r = rng.random()
        if mods["neg"] and r < 0.4:
            kw["neg"] = rng.getrandbits(n) & mods["neg"]
        if mods["abs"] and rng.random() < 0.3:
            kw["abs"] = rng.getrandbits(n) & mods["abs"]
        if mods["omod"] and rng.random() < 0.3:
            kw["omod"] = rng.randrange(1, 4)
        if mods["clamp"] and rng.random() < 0.25:
            kw["clamp"] = True
        if mods["opsel"] and rng.random() < 0.5:
            kw["opsel"] = rng.getrandbits(4) & mods["opsel"]
        if mods["vop3p"] and rng.random() < 0.5:
            kw["opsel"] = rng.getrandbits(3)
            kw["opsel_hi"] = rng.getrandbits(3)
            if name.startswith(("v_pk_", "v_dot2", "v_fma_mix")) and "_u16" not in name and \
                    "_i16" not in name and not name.startswith(("v_pk_lsh", "v_pk_ash", "v_pk_mul_lo")):
                kw["neg"] = rng.getrandbits(3) if rng.random() < 0.3 else 0
                kw["neg_hi"] = rng.getrandbits(3) if rng.random() < 0.3 else 0
        if name.startswith(("v_dot4_i32", "v_dot8_i32")):
            kw["neg"] = rng.getrandbits(2)
        srcs = [_fit(v, k, rng) if not (name in ("v_bfe_u32", "v_bfe_i32") and i) else v
                for i, (v, k) in enumerate(zip(c, kinds))]
        out.append(Case(name, mode, srcs, old=_random_old(rng, op.dst), vcc=rng.getrandbits(1),
                        lane=rng.randrange(32), **kw))
    return out


# ---- running the reference and the simulator ----------------------------------------------------

def ref_result(case):
    """(main result, mask bit or None) of the reference for a VALU case."""
    op = R.OPS[case.op]
    ctx = R.Ctx(mode=R.Mode(case.mode), neg=case.neg, abs=case.abs, opsel=case.opsel,
                opsel_hi=case.opsel_hi, neg_hi=case.neg_hi, clamp=case.clamp, omod=case.omod,
                vcc=case.vcc, lane=case.lane)
    args = list(case.srcs)
    if op.reads_old:
        args.append(case.old)
    r = op.fn(ctx, *args)
    if op.dst == "mask":
        return None, r
    if op.mask_out:
        return r[0], r[1]
    return r, None


_ENV = None


def _env():
    global _ENV
    if _ENV is None:
        from drivers.emu.amd.shader.executor import ValuEnv
        _ENV = ValuEnv()
    return _ENV


_WIDTH = {"u32": 32, "f32": 32, "f16": 32, "u16": 32, "i16": 32, "bf16": 32, "i32": 32, "u64": 64,
          "f64": 64, "i64": 64, "u128": 128, "mask": 0}


def sim_results(cases):
    """Run cases of one VALU op through the simulator's op implementation, batched by modifiers
    and MODE: [(main, mask)] in case order."""
    from drivers.emu.amd.shader.valu import VALU
    env = _env()
    name = cases[0].op
    sop = VALU[name]
    out = [None] * len(cases)
    groups = {}
    for i, c in enumerate(cases):
        groups.setdefault(c.mods_key(), []).append(i)
    for key, idx in groups.items():
        n = len(idx)
        w = -(-n // 32)

        def arr(vals, bits):
            vals = vals + [vals[-1]] * (w * 32 - n)
            if bits == 64:
                return np.array(vals, np.uint64).reshape(w, 32)
            if bits > 64:
                k = bits // 32
                a = np.zeros((w * 32, k), np.uint32)
                for j, v in enumerate(vals):
                    for q in range(k):
                        a[j, q] = v >> (32 * q) & 0xFFFFFFFF
                return a.reshape(w, 32, k).transpose(0, 2, 1).copy()
            return np.array(vals, np.uint32).reshape(w, 32)
        srcs = [arr([cases[i].srcs[j] for i in idx], b) for j, b in enumerate(sop.src_bits)]
        old = arr([cases[i].old & ((1 << max(sop.dst_bits, 32)) - 1) for i in idx], sop.dst_bits) \
            if sop.dst_bits else None
        c0 = cases[idx[0]]
        mask = np.array([cases[i].vcc for i in idx] + [0] * (w * 32 - n), bool).reshape(w, 32)
        lane = np.array([cases[i].lane for i in idx] + [0] * (w * 32 - n), np.uint32).reshape(w, 32)
        ctx = env.Ctx(mode=env.float_mode(c0.mode), neg=c0.neg, abs=c0.abs, opsel=c0.opsel,
                      opsel_hi=c0.opsel_hi, neg_hi=c0.neg_hi, clamp=c0.clamp, omod=c0.omod,
                      mask=mask, lane=lane)
        r = sop.fn(ctx, srcs, old)
        if sop.mask_out and sop.dst_bits:
            dst, m = r
        elif sop.mask_out or not sop.dst_bits:
            dst, m = None, r
        else:
            dst, m = r, None
        if dst is not None and sop.dst_bits > 64:
            dst = dst.transpose(0, 2, 1).reshape(w * 32, -1)
            dvals = [sum(int(dst[j, q]) << (32 * q) for q in range(dst.shape[1])) for j in range(w * 32)]
        elif dst is not None:
            dvals = [int(v) for v in np.asarray(dst).reshape(-1)]
        if m is not None:
            mvals = [int(bool(v)) for v in np.broadcast_to(np.asarray(m, bool), (w, 32)).reshape(-1)]
        for j, i in enumerate(idx):
            out[i] = (dvals[j] if dst is not None else None, mvals[j] if m is not None else None)
    return out


def agrees(op, ref, got):
    """Does the simulator's (main, mask) match the reference's?"""
    rmain, rmask = ref
    gmain, gmask = got
    if rmask is not None and rmask != gmask:
        return False
    if rmain is None:
        return True
    if isinstance(rmain, R.Res):
        if rmain.nan_any or rmain.ulp:
            return _float_close(op, rmain, gmain)
        return rmain.bits == gmain
    return rmain == gmain


def _float_close(op, r, got):
    fmt = R.FMTS.get(op.dst, R.F32)
    width = fmt.width
    if op.dst in ("f16", "bf16") and op.reads_old:
        # a 16-bit result in one half: compare the other half exactly, this half loosely
        if (r.bits ^ got) & 0xFFFF0000 and (r.bits ^ got) & 0xFFFF:
            return False
        for sh in (0, 16):
            if (r.bits >> sh & 0xFFFF) != (got >> sh & 0xFFFF):
                return _close_bits(fmt, r, r.bits >> sh & 0xFFFF, got >> sh & 0xFFFF)
        return True
    if op.dst == "u32" and r.nan_any:
        # packed f16 halves
        return all(_close_bits(R.F16, r, r.bits >> sh & 0xFFFF, got >> sh & 0xFFFF) for sh in (0, 16))
    return _close_bits(fmt, r, r.bits & ((1 << width) - 1), got & ((1 << width) - 1))


def _close_bits(fmt, r, want, got):
    if want == got:
        return True
    w, g = R.decode(fmt, want), R.decode(fmt, got)
    if w.nan:
        return r.nan_any and g.nan and bool(got & fmt.qbit)
    if r.ulp and not g.nan and w.neg == g.neg:
        return abs((want & (fmt.sign - 1)) - (got & (fmt.sign - 1))) <= r.ulp
    return False


# ---- SALU -------------------------------------------------------------------------------------

def salu_cases(name, rng, per_op):
    nbits, srcs, fn, scc_in = R.SALU[name]
    import inspect
    nargs = len(inspect.signature(fn).parameters) - (1 if scc_in else 0)
    widths = srcs or (nbits,) * nargs
    edge = [U64_EDGE + [v | v << 32 for v in U32_EDGE[:8]] if w == 64 else U32_EDGE for w in widths]
    must = []                   # kept whatever the sample size
    if name.startswith("s_bfe"):
        combos = [(rng.choice(edge[0]), o | w << 16) for o, w in BFE_CTL]
        must = [(v, o | w << 16) for v in (0x80000000, 0x8000000000000000)
                for o, w in ((28, 8), (31, 4), (60, 8))]
        combos += [(v, o | w << 16) for v in (0x80000000, 0xFFFFFFFF, 0x8000000000000000, 0x7FFFFFFF)
                   for o, w in ((28, 8), (31, 4), (16, 20), (1, 31), (60, 8), (32, 40))]
    elif nargs == 1:
        combos = [(v,) for v in edge[0]]
    else:
        combos = list(itertools.product(edge[0], edge[1])) + [(v, v) for v in edge[0]]
        if name.startswith(("s_min", "s_max")):
            must = [(v, v) for v in (0, 5, 0x80000000, 0xFFFFFFFF)]     # SCC of equal operands
    rng.shuffle(combos)
    combos = must + combos[:max(0, per_op - len(must))]
    return [Case(name, 0, [v & ((1 << w) - 1) for v, w in zip(c, widths)], scc=rng.getrandbits(1))
            for c in combos]


def salu_ref(case):
    nbits, srcs, fn, scc_in = R.SALU[case.op]
    args = list(case.srcs) + ([case.scc] if scc_in else [])
    return fn(*args)


def salu_sim(cases):
    from drivers.emu.amd.shader import scalar
    name = cases[0].op
    if name in scalar.SOP2:
        width, f = scalar.SOP2[name]
        wa, wb = scalar.SOP2_SRC_BITS.get(name, (width, width))
        dt = lambda w: np.uint64 if w == 64 else np.uint32  # noqa: E731
        a = np.array([c.srcs[0] for c in cases], dt(wa))
        b = np.array([c.srcs[1] for c in cases], dt(wb))
        scc = np.array([c.scc for c in cases], np.uint32)
        r, s = f(a, b, scc)
    else:
        width, swidth, f = scalar.SOP1[name]
        a = np.array([c.srcs[0] for c in cases], np.uint64 if swidth == 64 else np.uint32)
        r, s = f(a)
    r = np.broadcast_to(np.asarray(r), (len(cases),))
    return [(int(r[i]) & ((1 << width) - 1), None if s is None else int(np.asarray(s).reshape(-1)[i]))
            for i in range(len(cases))]


# ---- driver -----------------------------------------------------------------------------------

def all_cases(per_op, seed, pattern=None):
    rng = random.Random(seed)
    out = []
    for name in sorted(R.OPS):
        if name in EXCLUDED or (pattern and not re.search(pattern, name)):
            continue
        out += valu_cases(name, R.OPS[name], rng, per_op)
    for name in sorted(R.SALU):
        if pattern and not re.search(pattern, name):
            continue
        out += salu_cases(name, rng, per_op)
    return out


def literal_differs(case):
    """For ops where the simulator follows something other than the literal pseudocode
    (rdna3_ref.DEVIATIONS): does the literal pseudocode give another result here?"""
    if case.op not in R.DEVIATIONS:
        return False
    op = R.DEVIATIONS[case.op][1]
    saved = R.OPS[case.op]
    R.OPS[case.op] = op
    try:
        lit = ref_result(case)
    finally:
        R.OPS[case.op] = saved
    return not agrees(op, lit, _as_got(ref_result(case)))


def _as_got(ref):
    main, mask = ref
    return (main.bits if isinstance(main, R.Res) else main, mask)


def check(cases):
    """-> (counts, [(case, reference, simulator)] disagreements)."""
    by_op = {}
    for c in cases:
        by_op.setdefault(c.op, []).append(c)
    bad = []
    n_ok = 0
    literal = {}
    for name, cs in by_op.items():
        if name in R.SALU:
            got = salu_sim(cs)
            for c, g in zip(cs, got):
                want = salu_ref(c)
                ok = want[0] == g[0] and (want[1] is None or want[1] == g[1])
                n_ok += ok
                if not ok:
                    bad.append((c, want, g))
            continue
        got = sim_results(cs)
        op = R.OPS[name]
        for c, g in zip(cs, got):
            want = ref_result(c)
            ok = agrees(op, want, g)
            n_ok += ok
            if not ok:
                bad.append((c, want, g))
            if name in R.DEVIATIONS and literal_differs(c):
                literal[name] = literal.get(name, 0) + 1
    counts = dict(cases=len(cases), ops=len(by_op), agree=n_ok, disagree=len(bad),
                  literal=literal)
    return counts, bad


def _show(v):
    if isinstance(v, R.Res):
        return "%x%s%s" % (v.bits, "~nan" if v.nan_any else "", "~%dulp" % v.ulp if v.ulp else "")
    if isinstance(v, tuple):
        return "(%s)" % ", ".join(_show(x) for x in v)
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return "%x" % v
