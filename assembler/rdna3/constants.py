"""Source constants in assembly text -> an inline constant code or a 32-bit literal.

The rules follow llvm-mc-19 per operand type (learned by scripts/gen_rdna3_tables.py):
integers -16..64 are inline everywhere; a value whose bit pattern equals a float inline constant
of the operand's float width is inline too; floats are converted to the operand's format first.
"""
import math
import struct

from .operands import INLINE_BITS

_F32 = {bits: code for code, bits in INLINE_BITS[32].items()}
_F16 = {bits: code for code, bits in INLINE_BITS[16].items()}
_F64 = {bits: code for code, bits in INLINE_BITS[64].items()}
_BF16 = {0x3F00: 240, 0xBF00: 241, 0x3F80: 242, 0xBF80: 243, 0x4000: 244, 0xC000: 245,
         0x4080: 246, 0xC080: 247, 0x3E22: 248}


class ConstError(ValueError):
    """The constant cannot be encoded for this operand (message says why)."""


MAX_EXPRESSION_CHARS = 1000
_EXPR_CHARS = frozenset("0123456789abcdefxABCDEFX+-*/%()<>&|^~ ")
_BINOPS = {}


def _binops(ast):
    if not _BINOPS:
        _BINOPS.update({ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
                        ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
                        ast.Div: lambda a, b: int(a / b), ast.Mod: lambda a, b: a % b,
                        ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
                        ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
                        ast.BitXor: lambda a, b: a ^ b})
    return _BINOPS


def _int_expr(text):
    """Integer constant expressions as llvm-mc folds them: 1+2, (1<<4), 0x10*2, ~0 (ast is
    imported only when a statement has one)."""
    if len(text) > MAX_EXPRESSION_CHARS:        # Python's parser recurses: bound what it is given
        return None
    import ast
    binops = _binops(ast)
    try:
        tree = ast.parse(text.replace("/", "//") if "/" in text and "//" not in text else text,
                         mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):     # nesting past the parser's stack
        return None

    def ev(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else (~v if isinstance(node.op, ast.Invert) else v)
        if isinstance(node, ast.BinOp) and type(node.op) in binops:
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, (ast.FloorDiv, ast.Div, ast.Mod)) and b == 0:
                raise ZeroDivisionError
            if isinstance(node.op, (ast.LShift, ast.RShift)) and not 0 <= b < 64:
                raise ValueError
            return binops[type(node.op)](a, b)
        raise ValueError
    try:
        return ev(tree.body)
    except (ValueError, ZeroDivisionError, RecursionError):
        return None


def parse_number(tok):
    """'12', '-0x1f', '1.5', '-4.0', '1e3', '(1<<4)' -> (value, is_float) or None."""
    t = tok.strip()
    neg = t.startswith("-")
    body = t[1:] if neg or t.startswith("+") else t
    if not body:
        return None
    try:
        if body[:2].lower() == "0x":
            v = int(body, 16)
        elif body[:2].lower() == "0b":
            v = int(body, 2)
        elif body.isdigit():
            v = int(body, 10)
        else:
            if not (body[0].isdigit() or body[0] == "."):
                raise ValueError
            f = float(body)
            return (-f if neg else f), True
    except ValueError:
        if set(t) <= _EXPR_CHARS and any(c in t for c in "+-*/%()<>&|^~"):
            v = _int_expr(t)
            return None if v is None else (v, False)
        return None
    return (-v if neg else v), False


def _f32_bits(f):
    try:
        return struct.unpack("<I", struct.pack("<f", f))[0]
    except OverflowError:
        raise ConstError("floating-point constant out of range") from None


def _f16_bits(f):
    try:
        return struct.unpack("<H", struct.pack("<e", f))[0]
    except OverflowError:
        raise ConstError("floating-point constant out of range for a 16-bit operand") from None


def _bf16_bits(f):
    b = _f32_bits(f)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF if not math.isnan(f) else 0x7FC0


def encode_constant(value, is_float, dtype):
    """-> (operand code, literal or None) for a constant in a source of type `dtype`."""
    if not is_float:
        v = value
        if -16 <= v <= 64:
            return (128 + v if v >= 0 else 192 - v), None
        if dtype in ("f16", "bf16"):
            if not -0x8000 <= v <= 0xFFFF:
                raise ConstError("literal does not fit in 16 bits")
            v16 = v & 0xFFFF
            s16 = v16 - 0x10000 if v16 & 0x8000 else v16
            if -16 <= s16 <= 64:
                return (128 + s16 if s16 >= 0 else 192 - s16), None
            table = _F16 if dtype == "f16" else _BF16
            if v16 in table:
                return table[v16], None
            return 255, v16
        if dtype == "i16":
            if not -0x8000 <= v <= 0xFFFF:
                raise ConstError("literal does not fit in 16 bits")
            return 255, v & 0xFFFF
        if dtype in ("f64", "i64"):
            if v & 0xFFFFFFFFFFFFFFFF in _F64 and (v < 0 or v > 0xFFFFFFFF):
                return _F64[v & 0xFFFFFFFFFFFFFFFF], None
            if -0x80000000 <= v <= 0xFFFFFFFF:
                return 255, v & 0xFFFFFFFF
            if dtype == "f64" and 0 <= v <= 0xFFFFFFFFFFFFFFFF and not v & 0xFFFFFFFF:
                return 255, v >> 32
            raise ConstError("literal does not fit in 32 bits")
        if not -0x80000000 <= v <= 0xFFFFFFFF:
            raise ConstError("literal does not fit in 32 bits")
        v32 = v & 0xFFFFFFFF
        if dtype in ("pf16", "pbf16"):
            table = _F16 if dtype == "pf16" else _BF16
            if v32 in table:
                return table[v32], None
            return 255, v32
        if v32 in _F32:
            return _F32[v32], None
        return 255, v32
    f = value
    if dtype in ("f16", "pf16"):
        b = _f16_bits(f)
        if b in _F16:
            return _F16[b], None
        return (128, None) if b == 0 else (255, b)
    if dtype in ("bf16", "pbf16"):
        if _f32_bits(f) in _F32:            # 1/(2*pi) is inline although it rounds to 0x3e23
            return _F32[_f32_bits(f)], None
        b = _bf16_bits(f)
        if b in _BF16:
            return _BF16[b], None
        return (128, None) if b == 0 else (255, b)
    if dtype == "f64":
        b = struct.unpack("<Q", struct.pack("<d", f))[0]
        if b in _F64:
            return _F64[b], None
        return (128, None) if b == 0 else (255, b >> 32)
    if dtype == "i64":
        b = struct.unpack("<Q", struct.pack("<d", f))[0]
        if b in _F64:
            return _F64[b], None
        if b == 0:
            return 128, None
        raise ConstError("a 64-bit integer operand takes a floating-point constant only when it is "
                         "an inline constant")
    b = _f32_bits(f)
    if b in _F32:
        return _F32[b], None
    return (128, None) if b == 0 else (255, b)


def literal_bits(value, is_float, dtype):
    """A mandatory 32-bit literal (v_fmamk/v_fmaak K, s_setreg_imm32)."""
    if is_float:
        if dtype in ("f16", "pf16"):
            return _f16_bits(value)
        return _f32_bits(value)
    if not -0x80000000 <= value <= 0xFFFFFFFF:
        raise ConstError("literal does not fit in 32 bits")
    return value & 0xFFFFFFFF
