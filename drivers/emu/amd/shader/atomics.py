"""Read-modify-write operations shared by global/flat, buffer and DS atomics.

``apply(name, old, src, cmp)`` returns the new memory value for one batch of lanes with
distinct addresses.  ``rounds(addrs)`` splits lanes that hit the same address into successive
batches in lane order, so the result equals executing the lanes one after another.
"""
import numpy as np

U32, U64 = np.uint32, np.uint64


def combine_dwords(d):
    """(N, k) uint32 lane data -> (N,) uint32 or uint64 (k == 2, low dword first)."""
    if d.shape[1] == 1:
        return d[:, 0].copy()
    return d[:, 0].astype(U64) | d[:, 1].astype(U64) << U64(32)


def split_dwords(v, k):
    """The inverse of combine_dwords: (N,) values -> (N, k) uint32 dwords."""
    if k == 1:
        return v[:, None]
    return np.stack([(v & U64(0xFFFFFFFF)).astype(U32), (v >> U64(32)).astype(U32)], axis=1)


def _signed(x):
    return x.view(np.int32) if x.dtype == U32 else x.view(np.int64)


def _float(x):
    return x.view(np.float32) if x.dtype == U32 else x.view(np.float64)


def _fminmax(f):
    def op(old, src, cmp):
        a, b = _float(old), _float(src)
        with np.errstate(invalid="ignore"):
            return f(a, b).astype(a.dtype).view(old.dtype)
    return op


OPS = {
    "swap": lambda old, src, cmp: src,
    "storexchg": lambda old, src, cmp: src,
    "cmpswap": lambda old, src, cmp: np.where(old == cmp, src, old),
    "cmpstore": lambda old, src, cmp: np.where(old == cmp, src, old),
    "add": lambda old, src, cmp: old + src,
    "sub": lambda old, src, cmp: old - src,
    "rsub": lambda old, src, cmp: src - old,
    "csub": lambda old, src, cmp: np.where(old >= src, old - src, old.dtype.type(0)),
    "min_i": lambda old, src, cmp: np.where(_signed(src) < _signed(old), src, old),
    "max_i": lambda old, src, cmp: np.where(_signed(src) > _signed(old), src, old),
    "min_u": lambda old, src, cmp: np.minimum(old, src),
    "max_u": lambda old, src, cmp: np.maximum(old, src),
    "and": lambda old, src, cmp: old & src,
    "or": lambda old, src, cmp: old | src,
    "xor": lambda old, src, cmp: old ^ src,
    "mskor": lambda old, src, cmp: (old & ~src) | cmp,
    "inc": lambda old, src, cmp: np.where(old >= src, old.dtype.type(0), old + old.dtype.type(1)),
    "dec": lambda old, src, cmp: np.where((old == 0) | (old > src), src, old - old.dtype.type(1)),
    "wrap": lambda old, src, cmp: np.where(old >= src, old - src, old + cmp),
    "add_f": lambda old, src, cmp: (_float(old) + _float(src)).view(old.dtype),
    "min_f": _fminmax(np.fmin),
    "max_f": _fminmax(np.fmax),
    "cmpswap_f": lambda old, src, cmp: np.where(_float(old) == _float(cmp), src, old),
}


def op_name(mnemonic):
    """'global_atomic_min_i32' -> 'min_i'; 'ds_add_rtn_u64' -> 'add'; 'ds_cmpstore_rtn_f32' -> 'cmpswap_f'."""
    parts = mnemonic.split("_")
    typ = parts[-1]
    core = [p for p in parts[1:-1] if p not in ("atomic", "rtn")]
    base = "_".join(core)
    if base in ("min", "max"):
        return f"{base}_{typ[0]}"
    if base == "add" and typ.startswith("f"):
        return "add_f"
    if base in ("cmpswap", "cmpstore") and typ.startswith("f"):
        return "cmpswap_f"
    if base not in OPS:
        raise KeyError(mnemonic)
    return base


def rounds(addrs):
    """Yield index arrays partitioning range(len(addrs)): each batch has distinct addresses, and
    lanes sharing an address appear in successive batches in their original order."""
    n = addrs.shape[0]
    if n == 0:
        return
    order = np.argsort(addrs, kind="stable")
    sorted_addrs = addrs[order]
    starts = np.r_[True, sorted_addrs[1:] != sorted_addrs[:-1]]
    group_start = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    rank = np.arange(n) - group_start             # position of each lane among its address's lanes
    ranks = np.empty(n, np.intp)
    ranks[order] = rank
    if not rank.any():
        yield np.arange(n)
        return
    for k in range(int(rank.max()) + 1):
        yield np.flatnonzero(ranks == k)
