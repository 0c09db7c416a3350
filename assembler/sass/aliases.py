"""Modifiers nvdisasm derives from operand values rather than from bits of their own.

IMAD prints as IMAD.MOV when the product is known to be zero or the addend is RZ (or -RZ) with
a unit factor, as IMAD.IADD when the factor is the immediate 1, and as IMAD.SHL when the factor is an
immediate power of two (but 0x10000, the f16/bf16 to f32 shift) and the addend is RZ. No bit encodes these words; the assembler drops
them and the disassembler adds them back (checked against nvdisasm by the differential test).
"""
ALIAS_TOKENS = {"IMAD": ("MOV", "IADD", "SHL")}


def strip(tokens):
    """Opcode tokens without the value-derived ones: ('IMAD','MOV','U32') -> ('IMAD','U32')."""
    extra = ALIAS_TOKENS.get(tokens[0])
    if extra and len(tokens) > 1 and tokens[1] in extra:
        return tokens[:1] + tokens[2:]
    return tokens


def _is_rz(op):
    return op.kind == "reg" and op.shape[0] == "R" and op.holes[0] == 255 and not op.shape[1] \
        and not op.shape[2]


def _imm(op):
    if op.kind == "imm" and op.shape == ("hex",):
        return op.holes[0]
    return None


def _is_neg_rz(op):
    return op.kind == "reg" and op.shape[0] == "R" and op.holes[0] == 255 and not op.shape[2]


def add(tokens, operands, reuse=0):
    """Insert the value-derived token nvdisasm prints, if any (reuse: the reuse bits when they
    are not printed, the yield bit being clear; with the first two both set nvdisasm gives the
    word no alias)."""
    if tokens[0] != "IMAD" or len(operands) != 4 or "X" in tokens[1:] or reuse & 3 == 3 or \
            any(t in ("WIDE", "HI") for t in tokens[1:]):
        return tokens
    a, b, c = operands[1], operands[2], operands[3]
    if any(o.kind == "reg" and o.shape[0] == "UR" for o in operands):
        return tokens                  # nvdisasm keeps IMAD.U32 R5, RZ, RZ, UR6 as it is
    if c.kind == "cbuf" and c.shape[0] == "cx":
        return tokens                  # nor an addend from a bindless bank (cx[UR4][...])
    bv = _imm(b)
    if _is_rz(a) or _is_rz(b) or bv == 0 or (bv == 1 and _is_neg_rz(c)):
        alias = "MOV"
    elif bv == 1:
        alias = "IADD"
    elif bv is not None and 2 <= bv < (1 << 31) and bv & (bv - 1) == 0 and bv != 0x10000 and _is_neg_rz(c):
        alias = "SHL"
    else:
        return tokens
    return tokens[:1] + (alias,) + tokens[1:]

