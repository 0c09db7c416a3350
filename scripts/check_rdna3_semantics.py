#!/usr/bin/env python3
"""Edge-value check of the wave simulator's ALU semantics against an independent reference.

    python scripts/check_rdna3_semantics.py [--ops PATTERN] [--per-op N] [--seed S]
        every VALU and SALU op on edge values (+-0, +-inf, quiet and signalling NaNs, denormals,
        the largest and smallest numbers, integer limits, shift and field widths at and past
        the word size, equal operands), under several MODE settings (rounding, denormal
        flushing of inputs and outputs, IEEE, DX10 clamp) and every modifier the encoding has
        (abs, neg, op_sel, output modifiers, clamp), against scripts/rdna3_ref.py (written from
        the ISA pseudocode); prints the disagreements and the counts
    python scripts/check_rdna3_semantics.py --llvm
        the same simulator ops against LLVM 19's constant folding of the llvm.amdgcn.*
        intrinsics (`opt-19 -passes=instcombine` on constant arguments), and the reference
        against LLVM; lists where the pseudocode and LLVM disagree and which one the simulator
        follows (LLVM_DISAGREEMENTS below)
    python scripts/check_rdna3_semantics.py --kernels
        also runs a sample of the cases as real instructions: assembled into a kernel, executed
        by the WaveExecutor (decoder, operand fetch, modifiers, MODE, the executor's own paths)
    python scripts/check_rdna3_semantics.py --freeze
        rewrites the golden files tests/data/rdna3/semantics/{reference,llvm}.txt that
        tests/test_rdna3_semantics.py checks without LLVM (a fixed sample of every op)

Per-op runs call the simulator's op implementations (drivers/emu/amd/shader/valu, scalar.py)
directly on lane arrays; kernel runs go through the executor.
"""
import itertools
import os
import random
import re
import sys
import time

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
        n = opsel_map[0]
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
    """The VOP3 instruction of a case (e64 form) with its modifiers, or None when the op has no
    plain VOP3 form this path builds (VOP3P, lane-crossing, 128-bit operands)."""
    from assembler.rdna3.tables import ALU
    found = _vop3_entry(case.op)
    if found is None or found[0] == "VOP3P":
        return None
    fam, e = found
    op = R.OPS[case.op]
    if any(k == "u128" for k in op.srcs) or op.dst == "u128" or case.op.startswith("v_cmpx"):
        return None
    from drivers.emu.amd.shader.valu import VALU
    sop = VALU[case.op]
    parts, si = [], 0
    for spec in e[1]:
        if spec[0] == "reg" and spec[2] == "s":
            parts.append("s20")                           # the lane mask written (VOPC, carry)
        elif spec[0] == "reg" and spec[1] == "vdst":
            parts.append(_reg(40, max(sop.dst_bits, 32)))
        elif spec[0] == "src":
            if si < len(sop.src_bits):
                parts.append(_src_text(case, si, 10 + 4 * si, sop.src_bits[si],
                                       op.srcs[si] in ("f16", "f32", "f64")))
                si += 1
            else:
                parts.append("s21")                       # the lane mask (cndmask, carry in)
        elif spec[0] == "fixed":
            parts.append(spec[1])
    text = e[0] + " " + ", ".join(parts)
    mods = []
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


def run_kernel_group(cases, blocks=True):
    """Run cases that share op, modifiers and MODE as one instruction in a kernel: each lane loads
    its operands, executes it, stores the result. -> [(main, mask)] like sim_results. blocks:
    the executor's compiled straight-line blocks (its default), False: one instruction at a
    time."""
    from assembler.rdna3 import assemble
    from drivers.emu.amd.dispatch import Dispatch
    from drivers.emu.amd.shader import WaveExecutor
    from drivers.emu.amd.shader.valu import VALU
    from drivers.emu.vm import GpuVM
    c0 = cases[0]
    sop = VALU[c0.op]
    stmt = kernel_statement(c0)
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


# ---- LLVM 19 constant folding -----------------------------------------------------------------

# intrinsic -> (op, IR result type, IR argument types): the llvm.amdgcn.* (and generic) intrinsics
# `opt-19 -passes=instcombine` folds on constant arguments, and the instruction each one is
LLVM_FOLDS = {
    "llvm.amdgcn.sbfe.i32": ("v_bfe_i32", "i32", ("i32", "i32", "i32")),
    "llvm.amdgcn.ubfe.i32": ("v_bfe_u32", "i32", ("i32", "i32", "i32")),
    "llvm.amdgcn.fmed3.f32": ("v_med3_f32", "float", ("float",) * 3),
    "llvm.amdgcn.fmed3.f16": ("v_med3_f16", "half", ("half",) * 3),
    "llvm.amdgcn.frexp.mant.f32": ("v_frexp_mant_f32", "float", ("float",)),
    "llvm.amdgcn.frexp.mant.f64": ("v_frexp_mant_f64", "double", ("double",)),
    "llvm.amdgcn.frexp.mant.f16": ("v_frexp_mant_f16", "half", ("half",)),
    "llvm.amdgcn.frexp.exp.i32.f32": ("v_frexp_exp_i32_f32", "i32", ("float",)),
    "llvm.amdgcn.frexp.exp.i32.f64": ("v_frexp_exp_i32_f64", "i32", ("double",)),
    "llvm.amdgcn.frexp.exp.i16.f16": ("v_frexp_exp_i16_f16", "i16", ("half",)),
    "llvm.ldexp.f32.i32": ("v_ldexp_f32", "float", ("float", "i32")),
    "llvm.ldexp.f64.i32": ("v_ldexp_f64", "double", ("double", "i32")),
    "llvm.ldexp.f16.i16": ("v_ldexp_f16", "half", ("half", "i16")),
    "llvm.amdgcn.cvt.pkrtz": ("v_cvt_pk_rtz_f16_f32", "<2 x half>", ("float", "float")),
    "llvm.amdgcn.class.f32": ("v_cmp_class_f32", "i1", ("float", "i32")),
    "llvm.amdgcn.class.f64": ("v_cmp_class_f64", "i1", ("double", "i32")),
    "llvm.amdgcn.class.f16": ("v_cmp_class_f16", "i1", ("half", "i32")),
    "llvm.amdgcn.fract.f32": ("v_fract_f32", "float", ("float",)),
    "llvm.amdgcn.fract.f64": ("v_fract_f64", "double", ("double",)),
    "llvm.amdgcn.fract.f16": ("v_fract_f16", "half", ("half",)),
    "llvm.amdgcn.sin.f32": ("v_sin_f32", "float", ("float",)),
    "llvm.amdgcn.cos.f32": ("v_cos_f32", "float", ("float",)),
    "llvm.amdgcn.sin.f16": ("v_sin_f16", "half", ("half",)),
    "llvm.amdgcn.cos.f16": ("v_cos_f16", "half", ("half",)),
    "llvm.amdgcn.rcp.f32": ("v_rcp_f32", "float", ("float",)),
    "llvm.amdgcn.rcp.f64": ("v_rcp_f64", "double", ("double",)),
    "llvm.amdgcn.rcp.f16": ("v_rcp_f16", "half", ("half",)),
    "llvm.amdgcn.rsq.f32": ("v_rsq_f32", "float", ("float",)),
    "llvm.amdgcn.sqrt.f32": ("v_sqrt_f32", "float", ("float",)),
    "llvm.amdgcn.exp2.f32": ("v_exp_f32", "float", ("float",)),
    "llvm.amdgcn.log.f32": ("v_log_f32", "float", ("float",)),
    "llvm.amdgcn.div.fixup.f32": ("v_div_fixup_f32", "float", ("float",) * 3),
    "llvm.amdgcn.fma.legacy": ("v_fma_dx9_zero_f32", "float", ("float",) * 3),
    "llvm.amdgcn.fmul.legacy": ("v_mul_dx9_zero_f32", "float", ("float",) * 2),
    "llvm.amdgcn.cubeid": ("v_cubeid_f32", "float", ("float",) * 3),
    "llvm.amdgcn.cubema": ("v_cubema_f32", "float", ("float",) * 3),
    "llvm.amdgcn.cubesc": ("v_cubesc_f32", "float", ("float",) * 3),
    "llvm.amdgcn.cubetc": ("v_cubetc_f32", "float", ("float",) * 3),
    "llvm.amdgcn.trig.preop.f64": ("v_trig_preop_f64", "double", ("double", "i32")),
    "llvm.amdgcn.perm": ("v_perm_b32", "i32", ("i32",) * 3),
    "llvm.amdgcn.lerp": ("v_lerp_u8", "i32", ("i32",) * 3),
    "llvm.amdgcn.sad.u8": ("v_sad_u8", "i32", ("i32",) * 3),
    "llvm.amdgcn.msad.u8": ("v_msad_u8", "i32", ("i32",) * 3),
    "llvm.amdgcn.alignbyte": ("v_alignbyte_b32", "i32", ("i32",) * 3),
    "llvm.fshr.i32": ("v_alignbit_b32", "i32", ("i32",) * 3),
    "llvm.amdgcn.mul.u24.i32": ("v_mul_u32_u24", "i32", ("i32",) * 2),
    "llvm.amdgcn.mul.i24.i32": ("v_mul_i32_i24", "i32", ("i32",) * 2),
    "llvm.amdgcn.mulhi.u24": ("v_mul_hi_u32_u24", "i32", ("i32",) * 2),
    "llvm.amdgcn.mulhi.i24": ("v_mul_hi_i32_i24", "i32", ("i32",) * 2),
    "llvm.amdgcn.cvt.pknorm.i16": ("v_cvt_pk_norm_i16_f32", "<2 x i16>", ("float", "float")),
    "llvm.amdgcn.cvt.pknorm.u16": ("v_cvt_pk_norm_u16_f32", "<2 x i16>", ("float", "float")),
    "llvm.amdgcn.cvt.pk.i16": ("v_cvt_pk_i16_i32", "<2 x i16>", ("i32", "i32")),
    "llvm.amdgcn.cvt.pk.u16": ("v_cvt_pk_u16_u32", "<2 x i16>", ("i32", "i32")),
}

# Where LLVM 19's folding and the pseudocode disagree, which one the simulator follows and why.
# Each entry: op -> (predicate over (case, llvm result, reference result) telling the class,
# what is followed, why). A disagreement outside these classes fails the check.
def _is_nan_op(case, fmt_bits, width):
    from rdna3_ref import FMTS, decode
    return any(decode(FMTS[k], v).nan for k, v in zip(R.OPS[case.op].srcs, case.srcs)
               if k in ("f16", "f32", "f64"))


LLVM_DISAGREEMENTS = {
    "frexp-nan": ("v_frexp_mant_f32 v_frexp_mant_f64 v_frexp_mant_f16", "pseudocode",
                  "the pseudocode returns a NaN operand unchanged (D = S0); LLVM's fold quiets a "
                  "signalling one"),
    "dx9-zero-addend": ("v_fma_dx9_zero_f32", "pseudocode",
                        "the pseudocode's zero-factor result is S2 exactly (a -0 or NaN addend "
                        "stays as it is); LLVM folds +0 + S2"),
    "transcendental-denormals": ("v_rcp_f32 v_rsq_f32 v_sqrt_f32 v_exp_f32 v_log_f32", "hardware",
                                 "LLVM folds the exact function of a denormal operand or result; "
                                 "the f32 unit flushes them (rdna3_ref.DEVIATIONS, _FLUSH_WHY)"),
    "fmed3-nan": ("v_med3_f32 v_med3_f16", "pseudocode",
                  "with a NaN operand the pseudocode returns v_min3 of the three (IEEE-mode NaN "
                  "rules: a quiet NaN loses, a signalling one is returned quieted); LLVM's fold "
                  "takes the median of the other two"),
    "sin-negative-zero": ("v_sin_f32 v_sin_f16", "pseudocode",
                          "sin(-0 * 2PI) is sin(-0) = -0 in IEEE arithmetic; LLVM folds +0"),
    "trig-preop-nan": ("v_trig_preop_f64", "pseudocode",
                       "the pseudocode reads only S0's exponent field (an inf or NaN S0 selects "
                       "bits like any huge value); LLVM's fold returns the NaN operand"),
    "trig-preop-huge": ("v_trig_preop_f64", "pseudocode",
                        "for the largest exponents (>= 1968) the pseudocode adds 128 to the "
                        "scale, which keeps late segments normal; LLVM's fold returns 0 for them"),
}


def _llvm_class(case, llvm, ref):
    """The LLVM_DISAGREEMENTS class of a disagreement, or None."""
    op = case.op
    srcs = R.OPS[op].srcs
    vals = [R.decode(R.FMTS[k], v & ((1 << R.FMTS[k].width) - 1)) if k in R.FMTS else None
            for k, v in zip(srcs, case.srcs)]
    if op.startswith("v_frexp_mant") and vals[0].nan:
        return "frexp-nan"
    if op == "v_fma_dx9_zero_f32" and (vals[0].zero or vals[1].zero):
        return "dx9-zero-addend"
    if op.startswith("v_med3_f") and any(v.nan for v in vals):
        return "fmed3-nan"
    if op.startswith("v_sin_f") and vals[0].zero and vals[0].neg:
        return "sin-negative-zero"
    if op == "v_trig_preop_f64" and vals[0].kind != "num":
        return "trig-preop-nan"
    if op == "v_trig_preop_f64" and R.exponent_field(R.F64, case.srcs[0]) >= 1968 and llvm == 0:
        return "trig-preop-huge"
    if op in ("v_rcp_f32", "v_rsq_f32", "v_sqrt_f32", "v_exp_f32", "v_log_f32"):
        fmt = R.F32
        tiny = lambda b: R.is_denorm(fmt, b & 0xFFFFFFFF)  # noqa: E731
        if tiny(case.srcs[0]) or tiny(llvm):
            return "transcendental-denormals"
    return None


def _ir_const(kind, v):
    import struct
    if kind == "float":
        f = struct.unpack("<f", struct.pack("<I", v))[0]
        d = struct.unpack("<Q", struct.pack("<d", f))[0]
        if f != f:                                      # NaN: keep the payload (and quiet bit)
            d = (0x7FF0000000000000 | (v & 0x80000000) << 32 | (v & 0x7FFFFF) << 29)
        return "0x%016X" % d
    if kind == "double":
        return "0x%016X" % v
    if kind == "half":
        return "0xH%04X" % (v & 0xFFFF)
    if kind == "i16":
        return str(R.sx(v & 0xFFFF, 16))
    return str(R.sx(v & 0xFFFFFFFF, 32))


def _parse_ret(kind, text):
    import struct
    text = text.strip()
    if kind == "i1":
        return {"true": 1, "false": 0}.get(text)
    if kind in ("i32", "i16"):
        return int(text) & ((1 << int(kind[1:])) - 1)
    if kind.startswith("<2 x"):
        sub = kind[5:-1]
        if text == "zeroinitializer":
            return 0
        if text.startswith("splat"):
            v = _parse_ret(sub, text[text.index("(") + 1:text.rindex(")")].split(" ", 1)[1])
            return v | v << 16
        parts = [p.strip().split(" ", 1)[1] for p in text.strip("<>").split(",")]
        lo, hi = (_parse_ret(sub, p) for p in parts)
        return lo | hi << 16
    if kind == "half":
        return int(text[3:], 16) if text.startswith("0xH") else _half_bits(float(text))
    if text.startswith("0x"):
        d = int(text, 16)
    else:
        d = struct.unpack("<Q", struct.pack("<d", float(text)))[0]
    if kind == "double":
        return d
    f = struct.unpack("<d", struct.pack("<Q", d))[0]
    if f != f:
        return 0x7F800000 | (d >> 32 & 0x80000000) | (d >> 29 & 0x7FFFFF)
    return struct.unpack("<I", struct.pack("<f", f))[0]


def _half_bits(x):
    return int(np.array(x, np.float16).view(np.uint16))


def llvm_cases(rng, per_intrinsic):
    """(intrinsic, Case) pairs on edge values: the sources in the simulator's operand layout."""
    out = []
    for intr, (op, ret, args) in sorted(LLVM_FOLDS.items()):
        kinds = R.OPS[op].srcs
        edge = []
        for a, k in zip(args, kinds):
            if a == "i32" and k in ("u32",) and op in ("v_bfe_i32", "v_bfe_u32"):
                edge.append(U32_EDGE)
            else:
                edge.append(_edge(k) if a in ("float", "half", "double") else
                            (U16_EDGE if a == "i16" else U32_EDGE))
        combos = list(itertools.product(*edge)) if len(edge) <= 2 else \
            [tuple(rng.choice(e) for e in edge) for _ in range(per_intrinsic * 2)]
        rng.shuffle(combos)
        for c in combos[:per_intrinsic]:
            out.append((intr, Case(op, MODES[0][1], list(c))))
    return out


def llvm_fold(items):
    """Run opt-19 over one module with a function per item: [bits or None (not folded)]."""
    import subprocess
    lines, decls = [], {}
    for i, (intr, case) in enumerate(items):
        op, ret, args = LLVM_FOLDS[intr]
        decls[intr] = "declare %s @%s(%s)" % (ret, intr, ", ".join(args))
        call_args = ", ".join("%s %s" % (a, _ir_const(a, v)) for a, v in zip(args, case.srcs))
        lines.append("define %s @f%d() {\n  %%r = call %s @%s(%s)\n  ret %s %%r\n}" % (
            ret, i, ret, intr, call_args, ret))
    module = "\n".join(decls.values()) + "\n" + "\n".join(lines) + "\n"
    r = subprocess.run(["opt-19", "-passes=instcombine", "-S", "-mtriple=amdgcn-amd-amdhsa",
                        "-mcpu=gfx1100"], input=module, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("opt-19 failed: " + r.stderr[:2000])
    out = [None] * len(items)
    cur = None
    for line in r.stdout.splitlines():
        m = re.match(r"define .*@f(\d+)\(", line)
        if m:
            cur = int(m.group(1))
            continue
        m = re.match(r"\s*ret (.*)$", line)
        if m and cur is not None:
            ret = LLVM_FOLDS[items[cur][0]][1]
            text = m.group(1)[len(ret):].strip()
            if not text.startswith("%") and text not in ("poison", "undef"):
                out[cur] = _parse_ret(ret, text)
            cur = None
    return out


def _llvm_agrees(case, llvm, main, mask, tol=None):
    """Does a (simulator or reference) result match LLVM's folded value? 1 ulp apart for the
    approximate ops; any NaN matches any NaN (LLVM's NaN choices are its own)."""
    op = R.OPS[case.op]
    if op.dst == "mask":
        return mask == llvm
    v = main.bits if isinstance(main, R.Res) else main
    fmt = R.FMTS.get(op.dst)
    if op.dst == "u32" and case.op == "v_cvt_pk_rtz_f16_f32":
        return all(_same_float(R.F16, v >> s & 0xFFFF, llvm >> s & 0xFFFF, 0) for s in (0, 16))
    if fmt is None:
        mask_bits = 0xFFFF if op.dst in ("i16", "u16") else (1 << 64) - 1
        return (v & mask_bits) == (llvm & mask_bits) if op.dst in ("i16", "u16") else v == llvm
    tol = main if tol is None else tol
    ulp = tol.ulp if isinstance(tol, R.Res) else 0
    exact_nan = isinstance(tol, R.Res) and not tol.nan_any
    return _same_float(fmt, v & ((1 << fmt.width) - 1), llvm, ulp, exact_nan)


def _same_float(fmt, a, b, ulp, exact_nan=False):
    if a == b:
        return True
    x, y = R.decode(fmt, a), R.decode(fmt, b)
    if x.nan and y.nan:
        return not exact_nan
    return bool(ulp) and not x.nan and not y.nan and x.neg == y.neg and \
        abs((a & (fmt.sign - 1)) - (b & (fmt.sign - 1))) <= ulp


def check_llvm(per_intrinsic, seed):
    """-> (counts, [(intrinsic, case, llvm, reference, simulator, class)] disagreements,
    [(intrinsic, case, llvm, class)] known pseudocode-vs-LLVM differences)."""
    rng = random.Random(seed)
    items = llvm_cases(rng, per_intrinsic)
    folded = llvm_fold(items)
    items = [(it, f) for it, f in zip(items, folded) if f is not None]
    by_op = {}
    for (intr, case), f in items:
        by_op.setdefault(case.op, []).append((intr, case, f))
    bad, known = [], []
    counts = dict(intrinsics=len({i for (i, _), _ in items}), folded=len(items), agree=0,
                  disagree=0, known=0)
    for op, rows in by_op.items():
        sims = sim_results([c for _, c, _ in rows])
        for (intr, case, llvm), (smain, smask) in zip(rows, sims):
            rmain, rmask = ref_result(case)
            s_ok = _llvm_agrees(case, llvm, smain, smask, rmain)
            r_ok = _llvm_agrees(case, llvm, rmain, rmask)
            if s_ok and r_ok:
                counts["agree"] += 1
                continue
            cls = _llvm_class(case, llvm, rmain)
            if cls is not None and not s_ok and agrees(R.OPS[op], (rmain, rmask), (smain, smask)):
                counts["known"] += 1
                known.append((intr, case, llvm, cls))
            else:
                counts["disagree"] += 1
                bad.append((intr, case, llvm, (rmain, rmask), (smain, smask), cls))
    return counts, bad, known


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


def main_llvm(argv):
    per = int(argv[argv.index("--per-op") + 1]) if "--per-op" in argv else 300
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    t0 = time.time()
    counts, bad, known = check_llvm(per, seed)
    by_intr = {}
    for row in bad:
        by_intr.setdefault(row[0], []).append(row)
    for intr, rows in sorted(by_intr.items()):
        print("== %s: %d" % (intr, len(rows)))
        for _, case, llvm, ref, sim, cls in rows[:5]:
            print("   %s\n      LLVM %x  reference %s  simulator %s" % (case.text(), llvm, _show(ref),
                                                                    _show(sim)))
    by_cls = {}
    for intr, case, llvm, cls in known:
        by_cls.setdefault(cls, []).append((intr, case, llvm))
    for cls, rows in sorted(by_cls.items()):
        ops, follows, why = LLVM_DISAGREEMENTS[cls]
        print("pseudocode vs LLVM, %s: %d cases; the simulator follows the %s: %s" % (
            cls, len(rows), follows, why))
        for intr, case, llvm in rows[:3]:
            print("   %s %s -> LLVM %x" % (intr, ",".join("%x" % v for v in case.srcs), llvm))
    print("intrinsics %(intrinsics)d  folded cases %(folded)d  agree %(agree)d  known "
          "pseudocode-vs-LLVM %(known)d  disagree %(disagree)d" % counts, "(%.1fs)" % (time.time() - t0))
    return 1 if bad else 0


# ---- golden files --------------------------------------------------------------------------------

FROZEN_SEED, FROZEN_PER_OP, FROZEN_LLVM_PER = 20261124, 24, 40


def encode_expected(main, mask):
    """Text of an expected result: main bits (~nan: any quiet NaN, ~Nulp) and the mask bit."""
    out = []
    if main is not None:
        if isinstance(main, R.Res):
            out.append("main=%x%s%s" % (main.bits, "~nan" if main.nan_any else "",
                                        "~%dulp" % main.ulp if main.ulp else ""))
        else:
            out.append("main=%x" % main)
    if mask is not None:
        out.append("mask=%d" % mask)
    return " ".join(out)


def decode_expected(text):
    main = mask = None
    for p in text.split():
        k, _, v = p.partition("=")
        if k == "mask":
            mask = int(v)
        elif k == "main":
            bits, *flags = v.split("~")
            ulp = next((int(f[:-3]) for f in flags if f.endswith("ulp")), 0)
            main = R.Res(int(bits, 16), "nan" in flags, ulp) if flags else int(bits, 16)
    return main, mask


def load_golden(name):
    rows = []
    with open(os.path.join(DATA, name)) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            left, _, right = line.rstrip("\n").partition(" => ")
            rows.append((Case.parse(left), decode_expected(right)))
    return rows


def check_golden_reference(rows):
    """The simulator's op implementations on the frozen reference cases -> (counts, bad)."""
    by_op = {}
    for c, want in rows:
        by_op.setdefault(c.op, []).append((c, want))
    bad, ok = [], 0
    for name, items in by_op.items():
        cs = [c for c, _ in items]
        if name in R.SALU:
            got = salu_sim(cs)
            for (c, want), g in zip(items, got):
                good = want[0] == g[0] and (want[1] is None or want[1] == g[1])
                ok += good
                if not good:
                    bad.append((c, want, g))
            continue
        got = sim_results(cs)
        for (c, want), g in zip(items, got):
            good = agrees(R.OPS[name], want, g)
            ok += good
            if not good:
                bad.append((c, want, g))
    return dict(cases=len(rows), ops=len(by_op), agree=ok, disagree=len(bad)), bad


def freeze():
    os.makedirs(DATA, exist_ok=True)
    cases = all_cases(FROZEN_PER_OP, FROZEN_SEED)
    head = ("# Generated by scripts/check_rdna3_semantics.py --freeze; do not edit.\n"
            "# %s\n# case (op, MODE, modifiers, operand bits, old destination) => expected result\n")
    with open(os.path.join(DATA, "reference.txt"), "w") as f:
        f.write(head % "expected: scripts/rdna3_ref.py (the ISA pseudocode), every VALU and SALU op")
        for c in cases:
            if c.op in R.SALU:
                r, scc = salu_ref(c)
                f.write("%s => main=%x%s\n" % (c.text(), r, "" if scc is None else " mask=%d" % scc))
            else:
                f.write("%s => %s\n" % (c.text(), encode_expected(*ref_result(c))))
    counts, bad, known = check_llvm(FROZEN_LLVM_PER, FROZEN_SEED)
    if bad:
        raise SystemExit("LLVM disagreements outside LLVM_DISAGREEMENTS: run --llvm")
    rng = random.Random(FROZEN_SEED)
    items = llvm_cases(rng, FROZEN_LLVM_PER)
    folded = llvm_fold(items)
    known_ids = {(intr, tuple(c.srcs)): cls for intr, c, _, cls in known}
    n = 0
    with open(os.path.join(DATA, "llvm.txt"), "w") as f:
        f.write(head % "expected: LLVM 19's constant folding (opt-19 -passes=instcombine) of the "
                       "intrinsic named after '@'; where it\n# disagrees with the pseudocode "
                       "(follow=CLASS, LLVM_DISAGREEMENTS) the pseudocode's value is expected")
        for (intr, c), llvm in zip(items, folded):
            if llvm is None:
                continue
            cls = known_ids.get((intr, tuple(c.srcs)))
            if cls is None:
                ref_main = ref_result(c)[0]
                if R.OPS[c.op].dst == "mask":
                    want = "mask=%d" % llvm
                elif isinstance(ref_main, R.Res):
                    fmt = R.FMTS.get(R.OPS[c.op].dst, R.F16)
                    halves = (0, 16) if R.OPS[c.op].dst == "u32" else (0,)
                    nan = ref_main.nan_any and any(
                        R.decode(fmt, llvm >> sh & ((1 << fmt.width) - 1)).nan for sh in halves)
                    want = encode_expected(R.Res(llvm, nan, ref_main.ulp), None)
                else:
                    want = encode_expected(llvm, None)
                f.write("%s @%s => %s\n" % (c.text(), intr, want))
            else:
                f.write("%s @%s follow=%s llvm=%x => %s\n" % (c.text(), intr, cls, llvm,
                                                           encode_expected(*ref_result(c))))
            n += 1
    print("wrote %s: %d reference cases, %d LLVM folds (%d where the pseudocode is followed)"
          % (DATA, len(cases), n, len(known)))


def main_kernels(argv):
    pattern = argv[argv.index("--ops") + 1] if "--ops" in argv else None
    per_op = int(argv[argv.index("--per-op") + 1]) if "--per-op" in argv else 120
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    t0 = time.time()
    scases = [c for c in sop_cases(random.Random(seed), per_op)
              if not pattern or re.search(pattern, c.op)]
    scounts, sbad = check_sop(scases)
    for c, want, got in sbad[:20]:
        print("   %s\n      reference %s  kernel %s" % (c.text(), _show(want), _show(got)))
    print("SALU (SOP1, SOP2, SOPC, SOPK) cases %(cases)d  agree %(agree)d  disagree %(disagree)d"
          % scounts)
    cases = [c for c in all_cases(per_op, seed, pattern) if c.op in R.OPS]
    counts, bad = check_kernels(cases)
    by_op = {}
    for c, want, got in bad:
        by_op.setdefault(c.op, []).append((c, want, got))
    for name, rows in sorted(by_op.items()):
        print("== %s: %d   %s" % (name, len(rows), kernel_statement(rows[0][0])))
        for c, want, got in rows[:4]:
            print("   %s\n      reference %s  kernel %s" % (c.text(), _show(want), _show(got)))
    print("kernels %(kernels)d  cases %(cases)d  agree %(agree)d  disagree %(disagree)d (compiled "
          "blocks unlike one instruction at a time: %(paths_differ)d)" % counts,
          "(%.1fs)" % (time.time() - t0))
    return 1 if bad or sbad else 0


def main(argv):
    if "--freeze" in argv:
        freeze()
        return 0
    if "--llvm" in argv:
        return main_llvm(argv)
    if "--kernels" in argv:
        return main_kernels(argv)
    pattern = None
    if "--ops" in argv:
        pattern = argv[argv.index("--ops") + 1]
    per_op = int(argv[argv.index("--per-op") + 1]) if "--per-op" in argv else 400
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    t0 = time.time()
    cases = all_cases(per_op, seed, pattern)
    counts, bad = check(cases)
    by_op = {}
    for c, want, got in bad:
        by_op.setdefault(c.op, []).append((c, want, got))
    for name, rows in sorted(by_op.items()):
        print("== %s: %d" % (name, len(rows)))
        for c, want, got in rows[:6]:
            print("   %s\n      reference %s  simulator %s" % (c.text(), _show(want), _show(got)))
    if counts["literal"]:
        print("where the literal pseudocode gives another result and the simulator follows "
              "what rdna3_ref.DEVIATIONS says instead:")
        for name, n in sorted(counts["literal"].items()):
            print("   %-24s %5d cases   %s" % (name, n, R.DEVIATIONS[name][0][:90]))
    print("ops %(ops)d  cases %(cases)d  agree %(agree)d  disagree %(disagree)d" % counts,
          "(%.1fs)" % (time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
