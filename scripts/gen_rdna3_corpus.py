#!/usr/bin/env python3
"""Generate the gfx1100 golden corpus under tests/data/rdna3/ with llvm-mc-19 as the oracle.

Run:  python scripts/gen_rdna3_corpus.py        (needs llvm-mc-19; under a minute)

For every opcode of every supported family it builds several instruction words (VGPR, SGPR,
inline-constant and literal sources, each modifier bit, DPP16/DPP8, memory offsets and cache
bits, symbolic immediates), keeps the ones llvm-mc-19 decodes, and records what llvm-mc says:

  corpus.s       `text ; [bytes]` -- llvm-mc's canonical text and the bytes llvm-mc assembles it to
  disasm.txt     `bytes ; text`   -- llvm-mc's disassembly of those bytes
  syntax.s       hand-written alternative spellings (no _e32/_e64 suffix, decimal and float
                 constants, labels...) with llvm-mc's bytes
  invalid.txt    words llvm-mc-19 refuses to decode
  clang/NAME.s   clang-19 -S output of tests/clang_kernels/NAME.cl and NAME.text.hex, the .text
                 bytes llvm-mc-19 assembles from it
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from gen_rdna3_oracle import assemble_lines, disassemble_probes  # noqa: E402
from assembler.rdna3.formats import ENCODING_BITS, FORMATS  # noqa: E402
from assembler.rdna3.tables import ACCEPT, ALU, MEM, MIMG, MIMG_REGS, VOPD  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "rdna3")
SEG = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}


def _pick(rng, mask, lo=0, hi=512):
    codes = [c for c in range(lo, hi) if (mask >> c) & 1]
    return rng.choice(codes) if codes else None


def _set(fam, word, name, v):
    lo, width = FORMATS[fam][1][name]
    return (word & ~(((1 << width) - 1) << lo)) | ((v & ((1 << width) - 1)) << lo)


def alu_words(rng, fam, op, entry):
    """Instruction byte strings exercising one ALU opcode."""
    mnem, spec, fmask, fval, mmask, dpp16, dpp8, dppmods, _ = entry
    size, fields = FORMATS[fam]
    base = ENCODING_BITS["VOP3" if fam == "VOP3SD" else fam][1] | op << fields["op"][0] | fval
    if fam == "VOP3P" and not mnem.startswith("v_fma_mix"):
        base |= mmask & (3 << 59 | 1 << 14)              # default op_sel_hi
    out = []
    kinds = ["vgpr", "vgpr", "sgpr", "int", "float", "literal", "mods", "mods"]
    for kind in kinds:
        w = base
        lit = rng.getrandbits(32)
        for s in spec:
            if s[0] == "reg":
                if s[2] == "v":
                    w = _set(fam, w, s[1], rng.randrange(0, s[4] - s[3] + 1))
                else:
                    c = _pick(rng, ACCEPT[s[4]], 0, 106)
                    if kind == "int" and (ACCEPT[s[4]] >> 124) & 1:
                        c = 124                           # null (s_waitcnt_vscnt wants it)
                    w = _set(fam, w, s[1], c if c is not None else 0)
            elif s[0] == "src":
                m = ACCEPT[s[4]]
                first = s[1] in ("src0", "ssrc0")
                choice = {"vgpr": (256, 512), "sgpr": (0, 128), "int": (128, 209),
                          "float": (240, 249), "literal": (255, 256)}.get(kind, (0, 512))
                c = _pick(rng, m, *choice) if first or kind in ("vgpr", "sgpr") else None
                if c is None:
                    c = _pick(rng, m, 256, 512) or _pick(rng, m)
                w = _set(fam, w, s[1], c if c is not None else 0)
            elif s[0] == "imm":
                w = _set(fam, w, "simm16", rng.choice([0, 1, 3, 0x40, 0x41, 0x1234, 0xFFFF,
                                                       rng.getrandbits(16)]))
            elif s[0] == "msg":
                w = _set(fam, w, "ssrc0", rng.choice([1, 2, 3, 0x80, 0x84, 4]))
        if kind == "mods":
            w |= mmask & rng.getrandbits(size * 8)
        if kind in ("int", "vgpr"):
            lit &= 0xFFFF                                 # 16-bit K of v_fmamk_f16 & co.
        out.append(w.to_bytes(size, "little") + lit.to_bytes(4, "little"))
    for kind, code, present in (("dpp16", 250, dpp16), ("dpp8", 233, dpp8)):
        if not present:
            continue
        for _ in range(2):
            w = _set(fam, base, "src0", code if rng.random() < 0.7 or kind == "dpp16" else 234)
            for s in spec:
                if s[0] == "reg" and s[2] == "v":
                    w = _set(fam, w, s[1], rng.randrange(0, s[4] - s[3] + 1))
                elif s[0] == "src" and s[1] != "src0":
                    w = _set(fam, w, s[1], _pick(rng, ACCEPT[s[4]], 256, 512) or 256)
            if fam in ("VOP3", "VOP3SD", "VOP3P"):
                w |= mmask & rng.getrandbits(size * 8)
            if kind == "dpp16":
                ctl = rng.choice([0xE4, 0x1B, 0x101, 0x10F, 0x111, 0x121, 0x140, 0x141, 0x150, 0x16F])
                dw = rng.randrange(0, 128) | ctl << 8 | rng.getrandbits(4) << 24 | rng.getrandbits(4) << 28
                dw |= dppmods & rng.getrandbits(24)
            else:
                dw = rng.randrange(0, 128) | rng.getrandbits(24) << 8
            out.append(w.to_bytes(size, "little") + dw.to_bytes(4, "little"))
    return out


def mem_words(rng, name, op, entry):
    mnem, spec, fmask, fval, mmask = entry
    fam = "FLAT" if name in SEG else name
    size, fields = FORMATS[fam]
    base = ENCODING_BITS[fam][1] | op << fields["op"][0] | fval
    if fam == "FLAT":
        base = _set(fam, base, "seg", SEG[name])
    if fam == "MTBUF":
        base = _set(fam, base, "format", 1)
    out = []
    for variant in range(6):
        w = base
        for s in spec:
            if s[0] == "reg" and s[2] == "v":
                w = _set(fam, w, s[1], rng.randrange(0, 250))
            elif s[0] in ("reg", "src"):
                m = ACCEPT[s[4]]
                c = _pick(rng, m, 0, 106) if variant % 2 == 0 else _pick(rng, m)
                if s[1] == "saddr" and variant in (1, 3):
                    c = 124
                if s[1] == "soffset" and fam == "SMEM" and variant in (0, 2):
                    c = 124
                w = _set(fam, w, s[1], c if c is not None else 0)
            elif s[0] == "imm":
                w = _set(fam, w, "sdata", rng.randrange(0, 128))
        if variant >= 2:
            w |= mmask & rng.getrandbits(size * 8)
        out.append(w.to_bytes(size, "little") + rng.getrandbits(32).to_bytes(4, "little"))
    return out


def vopd_words(rng):
    """Every X/Y pair, with registers placed in the banks the dual-issue rules require."""
    out = []
    for x in VOPD["X"]:
        for y in VOPD["Y"]:
            for variant in range(3):
                r = lambda bank: 4 * rng.randrange(0, 63) + bank  # noqa: E731
                vdx, vdy = r(0), r(1) | 2 * rng.randrange(2)
                srcs = {"X": (256 + r(0), r(2)), "Y": (256 + r(1), r(3))}
                if variant:
                    for side in srcs:
                        c = rng.choice([rng.randrange(106), 128 + rng.randrange(65),
                                        240 + rng.randrange(9), 255])
                        if variant == 2 or side == "Y":
                            srcs[side] = (c, srcs[side][1])
                w = (ENCODING_BITS["VOPD"][1] | x << 22 | y << 17 | vdx << 56 | (vdy >> 1) << 49)
                for side, (sf, vf) in (("X", ("srcx0", "vsrcx1")), ("Y", ("srcy0", "vsrcy1"))):
                    spec = VOPD[side][x if side == "X" else y][1]
                    w = _set("VOPD", w, sf, srcs[side][0])
                    if any(s[0] == "reg" and s[1] == "vsrc1" for s in spec):
                        w = _set("VOPD", w, vf, srcs[side][1])
                out.append(w.to_bytes(8, "little") + rng.getrandbits(32).to_bytes(4, "little"))
    return out


def export_words(rng):
    """LDSDIR and EXP: every op / target with random registers and fields."""
    from assembler.rdna3.tables import EXP_TARGETS, LDSDIR_OPS
    out = []
    for op in LDSDIR_OPS:
        for _ in range(8):
            w = (ENCODING_BITS["LDSDIR"][1] | op << 20 | rng.getrandbits(4) << 16 |
                 rng.getrandbits(8) << 8 | rng.randrange(256))
            out.append(w.to_bytes(4, "little") + bytes(4))
    for target in EXP_TARGETS:
        for _ in range(3):
            w = (ENCODING_BITS["EXP"][1] | target << 4 | rng.getrandbits(4) | rng.getrandbits(1) << 11 |
                 rng.getrandbits(1) << 13 | rng.getrandbits(32) << 32)
            out.append(w.to_bytes(8, "little") + bytes(4))
    return out


def _data_shape(rng, e):
    """(dmask, d16, tfe) whose data register count llvm-mc's assembler takes for the opcode."""
    from assembler.rdna3.mimg import data_size
    d16cap = bool(e["mods"] >> 17 & 1)
    while True:
        dmask = rng.choice((1, 2, 4, 8) if e["gather"] else (1, 3, 15) if e["atomic"] else range(16))
        d16, tfe = d16cap and rng.random() < 0.3, rng.random() < 0.3
        n = data_size(dmask, d16, tfe, e["gather"])
        if (e["asm_data"] >> n) & 1 and (dmask or rng.random() < 0.2):
            return dmask, int(d16), int(tfe)


def mimg_words(rng, op, e):
    """Image instructions: every dim and a16, plain and NSA addresses, data shapes llvm-mc takes
    (dmask/d16/tfe), modifier bits, resource and sampler registers."""
    base = ENCODING_BITS["MIMG"][1] | op << 18 | e["fval"]
    pick = lambda mask: rng.choice([v for v in range(32) if (mask >> v) & 1])  # noqa: E731
    out = []
    if e["kind"] == "bvh":
        shapes = [(0, a16, nsa) for a16 in (0, 1) for nsa in (0, 1) for _ in range(3)]
    else:
        shapes = [(dim, a16, nsa) for dim in range(8) for a16 in (0, 1) for nsa in (0, 1)]
    for dim, a16, nsa in shapes:
        w = base | dim << 2 | a16 << 16 | nsa
        if e["kind"] != "bvh":
            dmask, d16, tfe = _data_shape(rng, e)
            w |= dmask << 8 | d16 << 17 | tfe << 53
            for pos in (7, 12, 13, 14, 15, 54):          # unorm, slc, dlc, glc, r128, lwe
                if (e["mods"] >> pos) & 1 and rng.random() < 0.2:
                    w |= 1 << pos
        w |= rng.randrange(0, 240) << 32 | rng.randrange(0, 240) << 40
        w |= pick(MIMG_REGS["srsrc4" if e["kind"] == "bvh" else "srsrc8"]) << 48
        if e["kind"] == "sampler":
            w |= pick(MIMG_REGS["ssamp"]) << 58
        extra = bytes(rng.randrange(0, 240) for _ in range(4)) if nsa else rng.getrandbits(32).to_bytes(4, "little")
        out.append(w.to_bytes(8, "little") + extra)
    return out


def mimg_invalid(rng, n):
    """Image words llvm-mc may refuse: opcodes that do not exist, fixed bits changed, registers
    past v255, sampler fields of non-sampling instructions."""
    out = []
    for _ in range(n):
        op = rng.randrange(256)
        w = ENCODING_BITS["MIMG"][1] | op << 18 | rng.getrandbits(18) | rng.getrandbits(32) << 32
        if op in MIMG and rng.random() < 0.7:
            e = MIMG[op]
            w = (w & ~e["fmask"]) | e["fval"]
            w ^= 1 << rng.choice([b for b in range(64) if (e["fmask"] >> b) & 1] or [40])
        out.append(w.to_bytes(8, "little") + rng.getrandbits(32).to_bytes(4, "little"))
    return out


SYNTAX = """\
v_add_f32 v0, v1, v2
v_add_f32 v0, s1, v2
v_add_f32 v0, v1, s2
v_add_f32 v0, 1.5, v2
v_add_f32 v0, 0.5, v2
v_add_f32 v0, -4.0, v2
v_add_f32 v0, 100, v2
v_add_f32 v0, -1, v2
v_add_f32 v0, 0x3e22f983, v2
v_add_f32 v0, v1, v2 clamp
v_add_f32 v0, -v1, |v2| mul:2
v_mul_f32 v0, neg(1.0), v2
v_add_f16 v0, 0x3800, v1
v_add_f16 v0, 1.5, v1
v_add_f16 v0, -1, v1
v_add_nc_u16 v0, 0x1234, v1
v_add_f64 v[0:1], 1.5, v[2:3]
v_add_f64 v[0:1], 0.15915494309189532, v[2:3]
v_add_f64 v[0:1], 0x12345678, v[2:3]
v_lshlrev_b64 v[0:1], 3, v[2:3]
s_mov_b32 s0, 0x3f000000
s_mov_b32 s0, 1.0
s_mov_b32 s0, 12345
s_mov_b64 s[0:1], -1
s_mov_b64 s[0:1], 0xffffffff
s_mov_b64 vcc, exec
s_mov_b32 m0, exec_lo
s_and_b32 vcc_lo, vcc_lo, exec_lo
s_add_u32 s0, 0x1234, 0x1234
v_cmp_eq_f32 vcc_lo, v1, v2
v_cmp_eq_f32 s0, v1, v2
v_cmp_gt_i32 s4, v1, 7
v_cmpx_eq_u32 v1, v2
v_cndmask_b32 v0, v1, v2, vcc_lo
v_cndmask_b32 v0, v1, v2, s4
v_mov_b32 v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_f32 v0, v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
v_add_f32 v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0]
v_add_f32 v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0] fi:1
v_fma_f32 v0, v1, v2, v3 row_xmask:1 row_mask:0xf bank_mask:0xf
v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0,1]
v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[1,0,0]
v_pk_add_f16 v0, v1, v2
v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,1]
v_dot2_f32_f16 v0, v1, v2, v3
v_add_co_u32 v0, vcc_lo, v1, v2
v_add_co_u32 v0, s4, v1, v2
v_add_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo
v_mad_u64_u32 v[0:1], null, v1, v2, v[4:5]
v_readlane_b32 s0, v1, 3
v_writelane_b32 v1, s0, 3
v_readfirstlane_b32 s0, v1
v_fmamk_f32 v0, v1, 0x40000000, v2
v_fmaak_f32 v0, v1, v2, 0x40000000
v_dual_mov_b32 v0, 1.0 :: v_dual_mov_b32 v1, 2.0
v_dual_fmaak_f32 v0, v1, v2, 0x3f800000 :: v_dual_mov_b32 v3, v4
v_dual_add_f32 v0, s1, v2 :: v_dual_mul_f32 v3, v5, v7
s_load_b32 s0, s[2:3], 0x10
s_load_b128 s[4:7], s[2:3], s8 offset:0x20 glc
s_buffer_load_b64 s[0:1], s[4:7], 0x0
global_load_b32 v0, v[2:3], off
global_load_b64 v[0:1], v2, s[4:5] offset:-8 glc slc dlc
global_store_b128 v[0:1], v[4:7], off offset:16
global_atomic_add_u32 v0, v[2:3], v4, off glc
global_atomic_add_u32 v[2:3], v4, off
flat_load_b32 v0, v[2:3] offset:8
scratch_load_b32 v0, off, s2 offset:16
scratch_store_b32 v1, v2, off
ds_load_b32 v0, v1 offset:1024
ds_store_b32 v1, v2
ds_store_2addr_b32 v1, v2, v3 offset0:1 offset1:2
ds_add_rtn_u32 v0, v1, v2 gds
ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,16)
buffer_load_b32 v0, off, s[4:7], 0
buffer_load_b32 v0, v1, s[4:7], s2 offen offset:16
buffer_store_b64 v[0:1], v[2:3], s[8:11], 0 idxen offen glc
tbuffer_load_format_x v0, v1, s[4:7], s2 format:[BUF_FMT_32_FLOAT] offen
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt expcnt(1)
s_waitcnt 0
s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)
s_waitcnt_depctr depctr_va_vdst(0)
s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
s_sendmsg sendmsg(2, 1, 0)
s_getreg_b32 s0, hwreg(HW_REG_MODE, 2, 3)
s_setreg_b32 hwreg(HW_REG_MODE), s0
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xf
s_nop 7
s_clause 0x3
s_endpgm
s_code_end
s_barrier
s_branch 3
s_cbranch_scc1 -2
v_nop_e64
v_pipeflush_e64
ds_load_b64 v[0:1], v2 offset:8
buffer_load_b32 v0, off, s[0:3], 0 offset:4
scratch_store_b32 off, v0, s0 offset:4
global_atomic_cmpswap_b32 v0, v1, v[2:3], s[0:1] glc
v_cvt_f16_f32 v0, v1
v_cvt_f32_f16 v0, 0.5
v_add3_u32 v0, v1, v2, 5
v_bfe_u32 v0, v1, 8, 8
v_cndmask_b32_e64 v0, 0, 1.0, s0
v_lshl_add_u32 v0, v1, 2, s3
s_getpc_b64 s[0:1]
s_setpc_b64 s[30:31]
s_and_saveexec_b32 s0, vcc_lo
s_or_b32 exec_lo, exec_lo, s0
s_cselect_b32 s0, -1, 0
v_readfirstlane_b32 s0, v0
v_mbcnt_lo_u32_b32 v0, -1, 0
v_permlane16_b32 v0, v1, s0, s1
v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]
v_pk_mul_f16 v0, v1, v2 op_sel_hi:[0,1]
v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[12:15], v[0:7] neg_lo:[1,1,0]
v_mov_b16 v0.h, v1.l
v_add_nc_u16 v0, v1, 0x5
v_sqrt_f64 v[0:1], s[2:3]
v_ldexp_f64 v[0:1], v[2:3], -2
v_trig_preop_f64 v[0:1], v[2:3], 1
v_div_scale_f32 v0, vcc_lo, v1, v1, v2
v_div_fmas_f32 v0, v1, v2, v3
v_div_fixup_f32 v0, v1, v2, v3
s_mov_b32 s0, src_shared_base
s_mov_b64 s[0:1], src_private_base
s_setprio 3
s_sleep 1
s_trap 2
s_icache_inv
s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)
s_call_b64 s[30:31], 4
s_mov_b32 s0, 1+2
v_add_f32 v0, (1<<4), v1
s_movk_i32 s0, 0x10*2
ds_load_b32 v0, v1 offset:4*4
s_mov_b32 s0, -(3)
s_mov_b32 s0, ~0
s_load_dwordx2 s[0:1], s[4:5], 0x8
global_load_dword v0, v[2:3], off
global_store_dwordx4 v[0:1], v[4:7], off
buffer_load_dword v0, off, s[4:7], 0
ds_read_b32 v0, v1 offset:4
ds_write2_b32 v1, v2, v3 offset0:1 offset1:2
flat_atomic_add v0, v[2:3], v4 glc
s_andn2_b32 s0, s1, s2
v_ffbh_u32 v0, v1
v_cvt_pkrtz_f16_f32 v0, v1, v2
v_mul_legacy_f32 v0, v1, v2
v_cmp_eq_f32 v1, v2
v_cmp_eq_f32_e32 s1, v2
v_add_co_ci_u32 v0, v1, v2
v_cndmask_b32 v0, v1, v2
S_ENDPGM
V_ADD_F32 v0, v1, v2
exp mrt0 v1, v2, off, off done
exp pos0 v0, v1, v2, v3 done
lds_param_load v20, attr5.z wait_vdst:3
lds_direct_load v20 wait_vdst:3
v_interp_p10_f32 v20, -v40, v60, v80 clamp wait_exp:5
v_interp_p2_f32 v0, v1, v2, v3
v_fma_f32_e64_dpp v0, v1, v2, 1.0 dpp8:[0,1,2,3,4,5,6,7]
v_cndmask_b32_e64_dpp v0, v1, v2, s4 dpp8:[0,1,2,3,4,5,6,7]
v_fma_f32 v0, s1, s1, s1
v_fma_f32 v0, s1, 0x1234, v3
v_fma_f32 v0, 0x1234, 0x1234, v2
v_div_fmas_f32 v0, s1, v2, v3
v_add_co_ci_u32_e64 v0, s0, s1, v2, s4
v_fma_f32 v0, vcc_lo, s1, v3
v_dual_cndmask_b32 v11, s84, v249 :: v_dual_mul_f32 v94, v38, v136
v_dual_mul_f32 v11, s84, v249 :: v_dual_mul_f32 v94, s85, v136
v_mad_u64_u32 v[0:1], s2, s3, s4, v[2:3]
v_cndmask_b32 v0, 0x1234, v1, s2
v_dual_fmamk_f32 v20, v1, 0x1, v2 :: v_dual_fmamk_f32 v21, v6, 0x1, v5
v_dual_mul_f32 v20, v1, v2 :: v_dual_mul_f32 v21, v6, v4
image_load v0, v4, s[8:15] dmask:0x1 dim:1D
image_load v[0:1], v[4:5], s[8:15] dmask:0x3 dim:2D
image_load v[0:3], v[4:6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_CUBE
image_load v[0:3], v[4:6], s[8:15] dmask:0xf dim:cube
image_load v0, v[4:7], s[8:15] dmask:1 dim:2D_MSAA_ARRAY
image_load v0, v[4:7], s[8:15] dmask:(1<<0) dim:2d_msaa_array
image_load v0, v4, s[8:15] dim:1D
image_load v0, v4, s[8:15] dmask:0x10 dim:1D
image_load v0 v4 s[8:15] dmask:0x1 dim:1D
image_load v0, v4, s[8:15], dmask:0x1, dim:1D, glc
image_load v0, v4, s[8:15] dmask : 0x1 dim : SQ_RSRC_IMG_1D
image_load v0, v4, s[8:15] dmask:0x1 dim:1D dlc slc glc
image_load v0, v4, s[8:15] dmask:0x1 dim:1D nounorm noglc noslc nodlc nor128 noa16 notfe nolwe nod16
image_load v0, v4, s[8:15] dmask:0x1 dim:2D a16
image_load v0, [v4], s[8:15] dmask:0x1 dim:1D
image_load v0, [v[4:5]], s[8:15] dmask:0x1 dim:2D
image_load v0, [v4, v9], s[8:15] dmask:0x1 dim:2D
image_load v0, [v4, v9, v2], s[8:15] dmask:0x1 dim:3D
image_load v[0:1], v4, s[8:15] dmask:0x1 dim:1D tfe lwe
image_load v0, v4, s[8:15] dmask:0x3 dim:1D d16
image_load v[0:1], v4, ttmp[8:15] dmask:0x3 dim:1D unorm glc slc dlc r128 tfe d16
image_store v[0:3], v[4:5], s[96:103] dmask:0xf dim:2D
image_atomic_cmpswap v[0:1], v4, s[8:15] dmask:0x3 dim:1D glc
image_atomic_add v0, [v4, v5, v6], s[8:15] dmask:0x1 dim:2D_ARRAY glc
image_sample v[0:3], v[4:5], s[8:15], s[12:15] dmask:0xf dim:2D
image_sample v[0:3], [v4, v8], s[8:15], ttmp[12:15] dmask:0xf dim:2D
image_sample_d v0, v[4:11], s[8:15], s[12:15] dmask:0x1 dim:2D
image_sample_d v0, [v4, v5, v6, v7, v[8:9]], s[8:15], s[12:15] dmask:0x1 dim:2D
image_sample_c_d_cl_o v0, [v4, v5, v6, v7, v[8:15]], s[8:15], s[12:15] dmask:0x1 dim:3D
image_gather4 v[0:3], v[4:5], s[8:15], s[12:15] dmask:0x2 dim:2D
image_gather4 v[0:1], v[4:5], s[8:15], s[12:15] dmask:0x8 dim:2D d16
image_msaa_load v[0:3], v[4:6], s[8:15] dmask:0x1 dim:2D_MSAA
image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf dim:2D
image_bvh_intersect_ray v[0:3], v[4:14], s[8:11]
image_bvh_intersect_ray v[0:3], [v4, v5, v[6:8], v[9:11], v[12:14]], s[8:11]
image_bvh_intersect_ray v[0:3], [v4, v5, v[6:8], v[9:11]], s[8:11] a16
image_bvh64_intersect_ray v[0:3], [v[4:5], v6, v[7:9], v[10:12], v[13:15]], s[8:11] noa16
"""


def clang_sources():
    """clang-19 -S output of the OpenCL kernels in tests/clang_kernels, with the .text bytes
    llvm-mc-19 makes of it (an end-to-end check of labels, branches, directives and padding)."""
    import glob
    import shutil
    import subprocess
    import tempfile
    if not (shutil.which("clang-19") and shutil.which("llvm-objcopy-19")):
        print("clang-19 / llvm-objcopy-19 missing: clang sources not regenerated")
        return
    out = os.path.join(OUT, "clang")
    os.makedirs(out, exist_ok=True)
    src_dir = os.path.join(ROOT, "tests", "clang_kernels")
    for cl in sorted(glob.glob(os.path.join(src_dir, "*.cl"))):
        name = os.path.basename(cl)[:-3]
        asm = os.path.join(out, name + ".s")
        subprocess.run(["clang-19", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-O3", "-x", "cl",
                        "-cl-std=CL2.0", "-nogpulib", "-S", os.path.basename(cl), "-o", asm],
                       check=True, cwd=src_dir)
        with tempfile.TemporaryDirectory() as d:
            obj, text = os.path.join(d, "k.o"), os.path.join(d, "k.bin")
            subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj",
                            asm, "-o", obj], check=True)
            subprocess.run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", obj, text],
                           check=True)
            with open(text, "rb") as f:
                data = f.read()
        with open(os.path.join(out, name + ".text.hex"), "w") as f:
            f.write("# .text of llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1100 -filetype=obj %s.s\n"
                    % name)
            for i in range(0, len(data), 32):
                f.write(data[i:i + 32].hex() + "\n")


def main():
    clang_sources()
    rng = random.Random(20261122)
    probes = []
    for fam, ops in ALU.items():
        for op, entry in sorted(ops.items()):
            probes += alu_words(rng, fam, op, entry)
    for name, ops in MEM.items():
        for op, entry in sorted(ops.items()):
            probes += mem_words(rng, name, op, entry)
    probes += vopd_words(rng)
    probes += export_words(rng)
    for op, e in sorted(MIMG.items()):
        probes += mimg_words(rng, op, e)
    res = disassemble_probes(probes)
    # random words of every family: the ones llvm-mc rejects must be rejected by us too
    fams = list(ENCODING_BITS)
    randoms = mimg_invalid(rng, 1500)
    for _ in range(6000):
        fam = rng.choice(fams)
        mask, value = ENCODING_BITS[fam]
        size = FORMATS[fam][0] if fam in FORMATS else 8
        w = (rng.getrandbits(8 * size) & ~mask) | value
        randoms.append(w.to_bytes(size, "little") + rng.getrandbits(32).to_bytes(4, "little"))
    rres = disassemble_probes(randoms)
    texts, seen, invalid = [], set(), []
    for p, r in zip(probes, res):
        if r is None:
            invalid.append(p[:4])
            continue
        if r[0] not in seen:
            seen.add(r[0])
            texts.append(r[0])
    encs = assemble_lines(texts)
    corpus = [(t, e) for t, (e, err) in zip(texts, encs) if e is not None]
    # llvm-mc's own disassembly of the bytes it assembled (the canonical text to match)
    dis = disassemble_probes([e for _, e in corpus])
    os.makedirs(OUT, exist_ok=True)
    header = "# Generated by scripts/gen_rdna3_corpus.py with llvm-mc-19 (gfx1100); do not edit.\n"
    with open(os.path.join(OUT, "corpus.s"), "w") as f:
        f.write(header.replace("#", ";"))
        for t, e in corpus:
            f.write("%s ; [%s]\n" % (t, ",".join("0x%02x" % b for b in e)))
    with open(os.path.join(OUT, "disasm.txt"), "w") as f:
        f.write(header)
        for (t, e), d in zip(corpus, dis):
            if d is not None:
                f.write("%s ; %s\n" % (e.hex(), d[0]))
    syn = [line for line in SYNTAX.splitlines() if line.strip()]
    syn_enc = assemble_lines(syn)
    with open(os.path.join(OUT, "syntax.s"), "w") as f:
        f.write(header.replace("#", ";"))
        for t, (e, err) in zip(syn, syn_enc):
            if e is None:
                raise SystemExit("llvm-mc rejects syntax sample %r: %s" % (t, err))
            f.write("%s ; [%s]\n" % (t, ",".join("0x%02x" % b for b in e)))
    inval = []
    with open(os.path.join(OUT, "invalid.txt"), "w") as f:
        f.write(header + "# probes (base word + one trailing dword) whose first instruction llvm-mc-19 rejects\n")
        inval = [p for p, r in zip(probes + randoms, res + rres) if r is None]
        is_mimg = lambda p: p[3] & 0xFC == 0xF0  # noqa: E731
        inval = [p for p in inval if not is_mimg(p)][:3000] + [p for p in inval if is_mimg(p)][:1000]
        for p in inval:
            f.write(p.hex() + "\n")
    print("corpus: %d lines, %d llvm-mc disassemblies, %d syntax samples, %d rejected probes"
          % (len(corpus), sum(d is not None for d in dis), len(syn), len(inval)))


if __name__ == "__main__":
    main()
