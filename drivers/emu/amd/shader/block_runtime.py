"""What the code of a compiled block calls at run time: lane and EXEC mask unpacking, 64-bit
register pairs, lane-mask packing, constants.  `HELPERS` is the namespace the generated functions
run in (short names keep the generated lines readable); the compiler is ``block.py``."""
import numpy as np

from .control import count_nonzero, settle_branch
from .operands import constant_lanes
from .state import FULL_EXEC, LANE_BITS, WAVE32
from .vector import write_vgpr

U32, U64, I32 = np.uint32, np.uint64, np.int32
_D64 = np.dtype(U64)

def _lanes(x):
    """(w,) -> read-only (w, 32) repeating each wave's value over its lanes (x is not copied:
    the VALU functions never write into their sources)."""
    x = np.ascontiguousarray(x)
    v = np.ndarray((x.shape[0], WAVE32), x.dtype, buffer=x, strides=(x.itemsize, 0))
    v.flags.writeable = False
    return v


_UNPACKED = {}              # lane-mask bytes of a small group -> read-only bool (w, 32)
_CACHED_WAVES = 64          # groups up to this many waves cache their unpacked masks


def _unpack(bits, key=None):
    """uint32 (w,) lane masks -> bool (w, 32), read-only.  A small group's masks repeat (EXEC
    inside a loop, carries that are mostly clear), so they are unpacked once per bit pattern
    (``key``: the masks' bytes, when the caller has them)."""
    if bits.shape[0] > _CACHED_WAVES:
        return (bits[:, None] & LANE_BITS) != 0
    if key is None:
        key = bits.tobytes()
    m = _UNPACKED.get(key)
    if m is None:
        if len(_UNPACKED) >= 4096:
            _UNPACKED.clear()
        m = _UNPACKED[key] = (bits[:, None] & LANE_BITS) != 0
        m.flags.writeable = False
    return m


def _exec_mask(ex, full):
    """None when every lane is active (``full``: the bytes of an all-ones EXEC for the group),
    else the lanes as bool (w, 32) (_unpack, its cache looked up with the same bytes)."""
    key = ex.tobytes()
    return None if key == full else _unpack(ex, key)


def _join_pair(lo, hi):
    """A VGPR pair (its two registers' lanes) as uint64 (w, 32): the two dwords interleaved,
    viewed as one (a copy)."""
    pair = np.empty(lo.shape + (2,), U32)
    pair[..., 0] = lo
    pair[..., 1] = hi
    return pair.view(U64)[..., 0]


def _join(V, r, sel):
    return _join_pair(V[r, sel], V[r + 1, sel])


def _join_s(S, c, sel):
    return S[c, sel].astype(U64) | S[c + 1, sel].astype(U64) << U64(32)


def _put64(V, r, sel, value, em):
    """Write a 64-bit result to a VGPR pair under the EXEC mask ``em``."""
    v = value if type(value) is np.ndarray and value.dtype == U64 and value.flags.c_contiguous \
        else np.ascontiguousarray(value, U64)
    halves = v.view(U32).reshape(v.shape + (2,))          # [..., 0] low dword, [..., 1] high
    if type(sel) is slice:                                # both registers in one call
        if em is None:
            V[r:r + 2, sel] = halves.transpose(2, 0, 1)
        else:
            np.copyto(V[r:r + 2, sel], halves.transpose(2, 0, 1), where=em)
        return
    lo, hi = halves[..., 0], halves[..., 1]
    if em is None:
        V[r, sel] = lo
        V[r + 1, sel] = hi
    else:
        V[r, sel] = np.where(em, lo, V[r, sel])
        V[r + 1, sel] = np.where(em, hi, V[r + 1, sel])


def _put64_forward(V, r, sel, value, em, n):
    """_put64, returning the uint64 (n, 32) lanes written when every lane was (the pair's value
    from now on, for the block's later reads), else None."""
    v = value if type(value) is np.ndarray and value.dtype is _D64 and value.flags.c_contiguous \
        else np.ascontiguousarray(value, U64)
    if type(sel) is not slice:
        _put64(V, r, sel, v, em)
    elif em is None:
        if v.shape == (n, WAVE32):
            V[r:r + 2, sel] = v.view(U32).reshape(n, WAVE32, 2).transpose(2, 0, 1)
            return v
        _put64(V, r, sel, v, em)
    else:
        np.copyto(V[r:r + 2, sel], v.view(U32).reshape(v.shape + (2,)).transpose(2, 0, 1), where=em)
    return None


def _put64_s(S, c, sel, value):
    v = np.asarray(value, U64)
    S[c, sel] = v.astype(U32)
    S[c + 1, sel] = (v >> U64(32)).astype(U32)


def _mask(mask, n, em):
    """A lane-mask result as bool (w, 32) with the lanes EXEC leaves off cleared (what the
    SGPR receives)."""
    if not (type(mask) is np.ndarray and mask.dtype == bool and mask.shape == (n, WAVE32)):
        mask = np.broadcast_to(np.asarray(mask, bool), (n, WAVE32))
    return mask if em is None else mask & em


def _pack_bits(mask, packbits=np.packbits):
    return packbits(mask, None, "little").view(U32)          # (positional: numpy parses them faster)


def _pack(mask, n, em):
    """A lane mask result as SGPR bits, EXEC-masked (lanes with EXEC clear write 0)."""
    if not (type(mask) is np.ndarray and mask.dtype == bool and mask.shape == (n, WAVE32)):
        mask = np.broadcast_to(np.asarray(mask, bool), (n, WAVE32))
    if em is not None:
        mask = mask & em
    return np.packbits(mask, None, "little").view(U32)


def _branch(st, pc, taken, target, nxt, n):
    """A conditional branch of the ``n`` waves whose PCs are the view ``pc`` (control.py's
    cbranch): ``taken`` bool (n,)."""
    pcs, went = settle_branch(st, taken, target, nxt)
    pc[...] = pcs
    return went


def _branch_zero(st, pc, reg, target, nxt, n):
    """_branch taken where ``reg`` (n,) is 0 (s_cbranch_execz, vccz, scc0): the lanes of the
    condition are only made when the waves disagree."""
    k = count_nonzero(reg)
    if not k:
        pc.fill(target)
        return target
    if k == n:
        pc.fill(nxt)
        return nxt
    return _branch(st, pc, reg == 0, target, nxt, n)


def _branch_nonzero(st, pc, reg, target, nxt, n):
    """_branch taken where ``reg`` (n,) is not 0 (s_cbranch_execnz, vccnz, scc1)."""
    k = count_nonzero(reg)
    if k == n:
        pc.fill(target)
        return target
    if not k:
        pc.fill(nxt)
        return nxt
    return _branch(st, pc, reg != 0, target, nxt, n)


def constant(v, n):
    """A constant operand for n waves, as the one-instruction path lays it out."""
    return constant_lanes(v, n)


def readonly(a):
    a.flags.writeable = False
    return a


HELPERS = {"np": np, "U32": U32, "U64": U64, "I32": I32, "FULL": FULL_EXEC, "LS": _lanes, "UL": _unpack,
            "EM": _exec_mask, "J": _join, "JS": _join_s, "PUT64": _put64, "PUT64F": _put64_forward,
            "PUT64S": _put64_s,
            "PACK": _pack, "BR": _branch, "BRZ": _branch_zero, "BRNZ": _branch_nonzero, "MK": _mask,
            "PK": _pack_bits, "WV": write_vgpr, "CP": np.copyto}
