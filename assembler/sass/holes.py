"""Reading and writing the numbers of an operand ("holes") as the learned tables describe them.

    ("bits", ((word bit, value bit), ...), signed width or 0, xor constant)
    ("float", kind, word bits LSB first)              kind: f32, f16, bf16, f64h (upper half)
    ("name", word bits, {value: name})
    ("target", pairs, signed width, xor constant, addend)   relative to the instruction
    ("const", value)
"""
import struct


_M64 = (1 << 64) - 1


def _raw(word, pairs):
    v = 0
    for wb, vb in pairs:
        v |= ((word >> wb) & 1) << vb
    return v


def _signed(raw, const, signed):
    if signed:
        v = (raw ^ const) & ((1 << signed) - 1)
        if v >> (signed - 1):
            v -= 1 << signed
        return v
    v = raw ^ const
    # values read as 64-bit two's complement (an unsigned field never sets bit 63)
    return v - (1 << 64) if v >> 63 else v


# (exponent bits, mantissa bits) of each immediate format; f64h is a double's upper 32 bits
_LAYOUT = {"f32": (8, 23), "f16": (5, 10), "bf16": (8, 7), "f64h": (11, 20)}
# the bits nvdisasm's NaN texts assemble to (payload: the quiet bit, or the lowest bit)
_NANS = {k: {"+QNAN": ((1 << e) - 1) << m | 1 << (m - 1), "+SNAN": ((1 << e) - 1) << m | 1}
         for k, (e, m) in _LAYOUT.items()}


def decode_float(kind, raw):
    e, m = _LAYOUT[kind]
    if (raw >> m) & ((1 << e) - 1) == (1 << e) - 1 and raw & ((1 << m) - 1):
        sign = "-" if raw >> (e + m) & 1 else "+"
        return sign + ("QNAN" if raw >> (m - 1) & 1 else "SNAN")
    if kind == "f32":
        return struct.unpack("<f", struct.pack("<I", raw))[0]
    if kind == "f64h":
        return struct.unpack("<d", struct.pack("<Q", raw << 32))[0]
    if kind == "f16":
        return struct.unpack("<e", struct.pack("<H", raw))[0]
    if kind == "bf16":
        return struct.unpack("<f", struct.pack("<I", raw << 16))[0]
    raise ValueError(kind)


def encode_float(kind, x):
    """Bits of x in the given format; None when x does not fit it (f32 and f16 round to the
    nearest value, as ptxas does; bf16 and the f64 upper half must be exact)."""
    if isinstance(x, str):
        e, m = _LAYOUT[kind]
        bits = _NANS[kind]["+" + x[1:]]
        return bits | (1 << (e + m) if x[0] == "-" else 0)
    try:
        if kind == "f32":
            return struct.unpack("<I", struct.pack("<f", x))[0]
        if kind == "f16":
            return struct.unpack("<H", struct.pack("<e", x))[0]
        if kind == "f64h":
            full = struct.unpack("<Q", struct.pack("<d", x))[0]
            return None if full & 0xffffffff else full >> 32
        if kind == "bf16":
            full = struct.unpack("<I", struct.pack("<f", x))[0]
            return None if full & 0xffff or decode_float("bf16", full >> 16) != x else full >> 16
    except (OverflowError, struct.error):
        return None
    raise ValueError(kind)


def read_hole(h, word, pc):
    t = h[0]
    if t == "bits":
        return _signed(_raw(word, h[1]), h[3], h[2])
    if t == "float":
        raw = 0
        for i, b in enumerate(h[2]):
            raw |= ((word >> b) & 1) << i
        return decode_float(h[1], raw)
    if t == "name":
        raw = 0
        for i, b in enumerate(h[1]):
            raw |= ((word >> b) & 1) << i
        return h[2].get(raw)
    if t == "target":
        return pc + h[4] + _signed(_raw(word, h[1]), h[3], h[2])
    if t == "const":
        return h[1]
    raise ValueError(t)


def hole_bits(h):
    t = h[0]
    if t in ("bits", "target"):
        return [wb for wb, _ in h[1]]
    if t in ("float", "name"):
        return list(h[2] if t == "float" else h[1])
    return []


class HoleError(ValueError):
    pass


def write_hole(h, word, value, pc):
    """Put value into the word; HoleError when it does not fit."""
    t = h[0]
    if t == "const":
        if value != h[1]:
            raise HoleError("must be %r" % (h[1],))
        return word
    if t == "name":
        for raw, name in h[2].items():
            if name.strip() == str(value).strip():
                break
        else:
            raise HoleError("unknown name %r" % (value,))
        for i, b in enumerate(h[1]):
            word = (word & ~(1 << b)) | (((raw >> i) & 1) << b)
        return word
    if t == "float":
        if isinstance(value, int):
            value = float(value)
        raw = encode_float(h[1], value)
        if raw is None:
            raise HoleError("%r is not representable as %s" % (value, h[1]))
        for i, b in enumerate(h[2]):
            word = (word & ~(1 << b)) | (((raw >> i) & 1) << b)
        return word
    if t == "target":
        value = value - pc - h[4]
        pairs, signed, const = h[1], h[2], h[3]
    elif t == "bits":
        pairs, signed, const = h[1], h[2], h[3]
    else:
        raise ValueError(t)
    if not isinstance(value, int):
        raise HoleError("%r is not an integer" % (value,))
    width = signed or (max(vb for _, vb in pairs) + 1 if pairs else 0)
    mask = 0
    for _, vb in pairs:
        mask |= 1 << vb
    if signed:
        if t == "bits" and (1 << (signed - 1)) <= value < (1 << signed):
            value -= 1 << signed          # the unsigned view nvdisasm prints an absolute address in
        if not -(1 << (signed - 1)) <= value < (1 << (signed - 1)):
            raise HoleError("%s does not fit in %d signed bits" % (_hx(value), signed))
        u = (value & ((1 << signed) - 1)) ^ const
    else:
        u = (value & _M64) ^ const
    if u & ~mask:
        if not signed and (value < 0 or value >> width):
            raise HoleError("%s does not fit in %d bits" % (_hx(value), width))
        raise HoleError("%s cannot be encoded (bits 0x%x are fixed)" % (_hx(value), u & ~mask))
    for wb, vb in pairs:
        word = (word & ~(1 << wb)) | (((u >> vb) & 1) << wb)
    return word


def _hx(v):
    return "-0x%x" % -v if v < 0 else "0x%x" % v
