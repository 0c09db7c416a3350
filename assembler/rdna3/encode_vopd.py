"""Encode VOPD dual-issue pairs (v_dual_X ... :: v_dual_Y ...) from tables.VOPD, with the
operand readers of encode_alu.py.
"""
from .constants import ConstError, literal_bits, parse_number, strip_lit
from .encode_alu import _is_scalar, asm_accept, reg_operand, source_operand
from .formats import ENCODING_BITS
from .syntax import SyntaxErr
from .tables import VOPD


def encode_vopd(x, y, xops, yops, ctx, cols):
    """v_dual_X ... :: v_dual_Y ...; x/y are (opcode, (mnemonic, operands))."""
    word = ENCODING_BITS["VOPD"][1] | x[0] << 22 | y[0] << 17
    lit = None
    regs = {}
    kimm = any(s[0] == "lit" for s in x[1][1] + y[1][1])
    for side, (op, (mnem, spec)), ops in (("X", x, xops), ("Y", y, yops)):
        if len(ops) != len(spec):
            raise SyntaxErr("%s expects %d operands, got %d" % (mnem, len(spec), len(ops)),
                            ops[-1][1] if ops else cols[side])
        r = {}
        for s, (tok, col) in zip(spec, ops):
            if s[0] == "reg":
                r[s[1]] = (reg_operand(tok, col, "v", 1, None, 256, s[1], mnem), col)
            elif s[0] == "src":
                acc = asm_accept(_VOPD_ACCEPT, ("VOPD", side, op))
                code, l, _, _, _ = source_operand(tok, col, 1, vopd_dtype(s[3], kimm), acc, "src0",
                                                  mnem)
                if l is not None:
                    if lit is not None and lit != l:
                        raise SyntaxErr("only one unique literal constant is allowed in a VOPD pair",
                                        col)
                    lit = l
                r["src0"] = (code, col)
            else:
                num = parse_number(strip_lit(tok))
                if num is None:
                    raise SyntaxErr("%s expects a constant here, got %r" % (mnem, tok), col)
                try:
                    l = literal_bits(num[0], num[1], "b32")
                except ConstError as e:
                    raise SyntaxErr("%s: %s" % (mnem, e), col) from None
                if lit is not None and lit != l:
                    raise SyntaxErr("only one unique literal constant is allowed in a VOPD pair", col)
                lit = l
        regs[side] = r
    X, Y = regs["X"], regs["Y"]
    scalars = {r["src0"][0] for r in (X, Y) if _is_scalar(r["src0"][0])}
    if "v_dual_cndmask_b32" in (x[1][0], y[1][0]):
        # cndmask reads vcc: llvm-mc-19 counts that read apart from an explicit vcc_lo source
        # (v_dual_cndmask_b32 v0, vcc_lo, v1 :: v_dual_mov_b32 v3, s1 is three scalar values)
        scalars.add(-1)
    if len(scalars) + (lit is not None) > 2:
        raise SyntaxErr("VOPD pair reads %d scalar values (SGPRs, literal) but gfx11 allows 2 "
                        "(constant bus)" % (len(scalars) + (lit is not None)), Y["src0"][1])
    # register bank rules of the dual-issue VALU: operands in the same position must sit in
    # different VGPR banks (register number % 4, % 2 for src2); the accumulators' src2 is their vdst
    if X["vdst"][0] & 1 == Y["vdst"][0] & 1:
        raise SyntaxErr("VOPD destinations must be one even and one odd VGPR (v%d, v%d)"
                        % (X["vdst"][0], Y["vdst"][0]), Y["vdst"][1])
    pos = {}
    for side, (op, (mnem, spec)) in (("X", x), ("Y", y)):
        r = regs[side]
        p = {}
        if r["src0"][0] >= 256:
            p[0] = (r["src0"][0] - 256, r["src0"][1])
        elif r["src0"][0] == 254:
            p[0] = (255, r["src0"][1])     # llvm-mc checks lds_direct's bank as VGPR bank 3
        if "vsrc1" in r:
            p[2 if mnem == "v_dual_fmamk_f32" else 1] = r["vsrc1"]
        if mnem in ("v_dual_fmac_f32", "v_dual_dot2acc_f32_f16"):
            p[2] = r["vdst"]
        pos[side] = p
    for i in range(3):
        if i in pos["X"] and i in pos["Y"]:
            a, b = pos["X"][i][0], pos["Y"][i][0]
            banks = 2 if i == 2 else 4             # src2 (the accumulators) has two banks
            if a % banks == b % banks:
                raise SyntaxErr("VOPD src%d operands v%d and v%d must use different VGPR banks "
                                "(both %% %d == %d)" % (i, a, b, banks, a % banks), pos["Y"][i][1])
    word |= X["vdst"][0] << 56 | (Y["vdst"][0] >> 1) << 49
    word |= X["src0"][0] | Y["src0"][0] << 32
    if "vsrc1" in X:
        word |= X["vsrc1"][0] << 9
    if "vsrc1" in Y:
        word |= Y["vsrc1"][0] << 41
    out = word.to_bytes(8, "little")
    if lit is not None:
        out += lit.to_bytes(4, "little")
    return out


def vopd_dtype(dtype, kimm):
    """llvm-mc-19 types v_dual_dot2acc_f32_f16's packed source as a plain 32-bit operand when
    the pair has a fmaak/fmamk half (0x3f800000 is then inline 1.0, 0x3c00 a literal)."""
    return "b32" if kimm and dtype == "pf16" else dtype


def _vopd_accept():
    """VOPD sources take what VOP2's v_add_f32_e32 src0 takes: VGPRs, SGPRs, constants, literal."""
    from .tables import ALU
    return ALU["VOP2"][3][1][1][4]


_VOPD_ACCEPT = _vopd_accept()
VOPD_X = {v[0]: (k, v) for k, v in VOPD["X"].items()}
VOPD_Y = {v[0]: (k, v) for k, v in VOPD["Y"].items()}
