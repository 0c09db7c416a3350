"""LLVM 19's constant folding as a second oracle of the ALU semantics check: the llvm.amdgcn.*
intrinsics `opt-19 -passes=instcombine` folds on constant arguments, the instruction each one is,
and the classes where LLVM and the ISA pseudocode disagree (which one the simulator follows, and
why).
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

from rdna3_semantics_cases import (MODES, U16_EDGE, U32_EDGE, Case, _edge, agrees,  # noqa: E402
                                   ref_result, sim_results)

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
    tried = {intr for intr, _ in items}
    items = [(it, f) for it, f in zip(items, folded) if f is not None]
    by_op = {}
    for (intr, case), f in items:
        by_op.setdefault(case.op, []).append((intr, case, f))
    bad, known = [], []
    counts = dict(intrinsics=len({i for (i, _), _ in items}), folded=len(items), agree=0,
                  disagree=0, known=0, unfolded=sorted(tried - {i for (i, _), _ in items}))
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
