"""Operand readers and writers built once per decoded instruction.

A reader is ``read(st, sel) -> ndarray`` for the waves ``sel`` (an index array or ``slice(None)``):
scalar readers return (w,) uint32 or uint64, vector readers (w, 32) (a read-only broadcast view
for an SGPR or constant).  Constants are expanded here
to the operand's width and type, as the ISA defines inline constants and literals:
* inline integers are sign-extended to the operand width;
* inline floats are f16 / bf16 / f32 / f64 bits per the operand's constant type;
* a 32-bit literal is the low dword of a 32-bit operand, the high dword of an f64 operand, and
  sign- or zero-extended for a 64-bit integer operand depending on the operation's signedness.
"""
import struct

import numpy as np

from drivers.emu.faults import IllegalInstruction

from .state import EXEC_LO, NULL, SGPR_CODES, VCC_LO, WAVE32

# Aperture bases (src_shared_base / src_private_base and FLAT address classification).
SHARED_APERTURE = 0x1000000000000
PRIVATE_APERTURE = 0x2000000000000
APERTURE_SIZE = 1 << 32

_F32 = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0, 247: -4.0}
_F16_BITS = {240: 0x3800, 241: 0xB800, 242: 0x3C00, 243: 0xBC00, 244: 0x4000, 245: 0xC000,
             246: 0x4400, 247: 0xC400, 248: 0x3118}
_F32_BITS = {c: struct.unpack("<I", struct.pack("<f", v))[0] for c, v in _F32.items()}
_F32_BITS[248] = 0x3E22F983
_F64_BITS = {c: struct.unpack("<Q", struct.pack("<d", v))[0] for c, v in _F32.items()}
_F64_BITS[248] = 0x3FC45F306DC9C882
_BF16_BITS = {c: b >> 16 for c, b in _F32_BITS.items()}
_BF16_BITS[248] = 0x3E23       # 1/(2*pi) rounded to bf16

M32, M64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


def _signed_op(mnemonic):
    """Whether a 64-bit integer operation reads its operands as signed (a literal is then
    sign-extended, otherwise zero-extended): s_ashr_i64, v_cmp_lt_i64, v_mad_i64_i32..."""
    return "_i64" in mnemonic


def constant_value(op, width, mnemonic=""):
    """The bits a const/literal operand supplies to an operand of `width` (32 or 64) bits."""
    dtype = op.dtype
    if op.kind == "literal":
        lit = op.value & M32
        if width == 64:
            if dtype == "f64":
                return lit << 32
            if _signed_op(mnemonic) and lit & 0x80000000:
                return lit | 0xFFFFFFFF00000000
            return lit
        return lit
    code = op.value
    if 128 <= code <= 192:
        return code - 128
    if 193 <= code <= 208:
        return (192 - code) & (M64 if width == 64 else M32)
    if 240 <= code <= 248:
        # Float encodings, as the hardware produces them (LLVM documents it where it picks these
        # codes, AMDGPUBaseInfo's getInlineEncodingV216; the ISA guide's table is misleading
        # there): an f16 operand, packed or not, gets the half-precision value in its low bits
        # and 0 above; a 16-bit integer operand gets the single-precision value (whose low half
        # is what it reads: 0 for 1.0). bf16 operands get the bf16 value like f16 ones do.
        if width == 64 or dtype in ("f64", "i64"):
            return _F64_BITS[code]
        if dtype in ("f16", "pf16", "pf16v"):
            return _F16_BITS[code]
        if dtype in ("bf16", "pbf16", "pbf16v", "bf16d"):
            return _BF16_BITS[code]
        return _F32_BITS[code]
    raise IllegalInstruction(0, f"operand code {code} is not a constant")


def aperture_value(code, width):
    base = {235: SHARED_APERTURE, 236: SHARED_APERTURE + APERTURE_SIZE - 1,
            237: PRIVATE_APERTURE, 238: PRIVATE_APERTURE + APERTURE_SIZE - 1}[code]
    return base if width == 64 else base >> 32


def scalar_reader(op, width, mnemonic=""):
    """(st, sel) -> (w,) uint32 (width 32) or uint64 (width 64) for an SGPR/constant operand."""
    dt = np.uint64 if width == 64 else np.uint32
    if op.kind in ("const", "literal"):
        value = dt(constant_value(op, width, mnemonic))
        return lambda st, sel: np.full(st.pc[sel].shape[0], value, dt)
    if op.kind != "sgpr":
        raise IllegalInstruction(0, f"operand {op.text} cannot be read as a scalar")
    code = op.value
    if code < SGPR_CODES:
        if width == 32:
            return lambda st, sel: st.sgpr[sel, code].copy()
        if code + 1 >= SGPR_CODES and code != NULL:
            raise IllegalInstruction(0, f"64-bit operand {op.text} runs past the scalar register file")
        if code == NULL:
            return lambda st, sel: np.zeros(st.pc[sel].shape[0], np.uint64)
        return lambda st, sel: (st.sgpr[sel, code].astype(np.uint64)
                                | st.sgpr[sel, code + 1].astype(np.uint64) << np.uint64(32))
    if 235 <= code <= 238:
        value = dt(aperture_value(code, width))
        return lambda st, sel: np.full(st.pc[sel].shape[0], value, dt)
    if code == 251:          # src_vccz
        return lambda st, sel: (st.sgpr[sel, VCC_LO] == 0).astype(dt)
    if code == 252:          # src_execz
        return lambda st, sel: (st.sgpr[sel, EXEC_LO] == 0).astype(dt)
    if code == 253:          # src_scc
        return lambda st, sel: st.scc[sel].astype(dt)
    raise IllegalInstruction(0, f"operand {op.text} (code {code}) is not supported")


def scalar_writer(op, width):
    """(st, sel, values) -> None writing an SGPR destination (null drops the write)."""
    if op.kind != "sgpr":
        raise IllegalInstruction(0, f"destination {op.text} is not a scalar register")
    code = op.value
    if code == NULL:
        return lambda st, sel, v: None
    if code >= SGPR_CODES or (width == 64 and code + 1 >= SGPR_CODES):
        raise IllegalInstruction(0, f"destination {op.text} is not writable")
    if width == 32:
        def write32(st, sel, v):
            st.sgpr[sel, code] = v
        return write32

    def write64(st, sel, v):
        v = np.asarray(v, np.uint64)
        st.sgpr[sel, code] = (v & np.uint64(M32)).astype(np.uint32)
        st.sgpr[sel, code + 1] = (v >> np.uint64(32)).astype(np.uint32)
    return write64


def vector_reader(op, width, mnemonic="", vgprs=256):
    """(st, sel) -> (w, 32) uint32 / uint64 (width 64) / uint32 (w, k, 32) for k-dword tuples."""
    if op.kind == "vgpr":
        r = op.value
        dwords = width // 32
        if r + dwords > vgprs:
            raise IllegalInstruction(0, f"{op.text} lies beyond the {vgprs} VGPRs the kernel allocates")
        if width == 32:
            return lambda st, sel: st.vgpr[sel, r]
        if width == 64:
            return lambda st, sel: (st.vgpr[sel, r].astype(np.uint64)
                                    | st.vgpr[sel, r + 1].astype(np.uint64) << np.uint64(32))
        return lambda st, sel: st.vgpr[sel, r:r + dwords]
    if width > 64:
        raise IllegalInstruction(0, f"a {width}-bit source must be a VGPR tuple, not {op.text}")
    if op.kind in ("const", "literal"):
        value = (np.uint64 if width == 64 else np.uint32)(constant_value(op, width, mnemonic))
        views = {}                    # group size -> read-only lanes of the constant
        # med3 with two uniform operands (a clamp's bounds) clips: they stay broadcast views
        make = (lambda n: np.broadcast_to(value, (n, WAVE32))) if "med3" in mnemonic else \
            (lambda n: constant_lanes(value, n))

        def constant(st, sel):
            n = st.pc[sel].shape[0]
            v = views.get(n)
            if v is None:
                v = views[n] = make(n)
            return v
        return constant
    scalar = scalar_reader(op, width, mnemonic)
    return lambda st, sel: lanes_of_scalar(scalar(st, sel))


CONSTANT_ARRAY_WAVES = 64      # groups up to this many waves get constants as real arrays


def constant_lanes(value, n):
    """A constant source for n waves, laid out the same way on every execution path (compiled
    blocks and one instruction at a time): a real read-only array for small groups (numpy's
    loops over same-shaped contiguous operands are the fast ones), a broadcast view for large
    ones. The layout decides which NaN numpy returns for an operation on two NaNs (its loop over
    a broadcast operand takes that operand's), so it must not depend on the path."""
    if n > CONSTANT_ARRAY_WAVES:
        return np.broadcast_to(value, (n, WAVE32))
    a = np.full((n, WAVE32), value)
    a.flags.writeable = False
    return a


def lanes_of_scalar(x):
    """(w,) -> a read-only (w, 32) view repeating each wave's value over its lanes (the VALU
    functions never write into their sources)."""
    x = np.ascontiguousarray(x)
    v = np.ndarray((x.shape[0], WAVE32), x.dtype, buffer=x, strides=(x.itemsize, 0))
    v.flags.writeable = False
    return v


def vgpr_index(op, width, vgprs):
    dwords = max(1, width // 32)
    if op.kind != "vgpr":
        raise IllegalInstruction(0, f"destination {op.text} is not a VGPR")
    if op.value + dwords > vgprs:
        raise IllegalInstruction(0, f"{op.text} lies beyond the {vgprs} VGPRs the kernel allocates")
    return op.value
