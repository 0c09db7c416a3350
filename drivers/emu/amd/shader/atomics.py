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


# Accumulating forms of the associative operations: lanes that hit one location in turn see the
# running result, which a prefix scan computes at once.
_SCANS = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
          "min_u": np.minimum, "max_u": np.maximum, "min_i": np.minimum, "max_i": np.maximum,
          "add_f": np.add, "min_f": np.fmin, "max_f": np.fmax}


def _scan_view(name, x):
    if name in ("min_i", "max_i"):
        return _signed(x)
    if name in ("add_f", "min_f", "max_f"):
        return _float(x)
    return x


def apply(mem, index, name, src, cmp):
    """Execute every lane's read-modify-write of ``mem[index[k]]`` (a typed array), lane after
    lane; return each lane's value before its update.  Lanes at distinct locations are one
    vectorized step; lanes that share a location are served by a prefix scan (add, sub, logic,
    min, max), by a search for the next successful compare (cmpswap), or else round by round."""
    n = index.shape[0]
    f = OPS[name]
    # a wave's few lanes: a set of ints tells distinct locations or a single one for less than
    # np.unique does; more lanes: their bounds tell a single location (one counter, one lock)
    if n <= 32:
        distinct = len(set(index.tolist()))
    else:
        distinct = 1 if n and index.min() == index.max() else 0
    if distinct == n:
        old = mem[index]
        mem[index] = f(old, src, cmp).astype(mem.dtype, copy=False)
        return old
    if distinct == 1 and n <= 32 and name in ("cmpswap", "cmpstore"):
        # a wave's lanes at one lock or counter: their compares in turn, on ints
        loc = int(index[0])
        v = int(mem[loc])
        before = []
        for s, c in zip(src.tolist(), cmp.tolist()):
            before.append(v)
            if v == c:
                v = s
        mem[loc] = v
        return np.array(before, mem.dtype)
    if distinct == 1:                                  # every lane at one location, in lane order
        uniq, counts, order = index[:1], np.array([n]), np.arange(n)
    else:
        uniq, inverse, counts = np.unique(index, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
        if uniq.shape[0] == n:
            old = mem[index]
            mem[index] = f(old, src, cmp).astype(mem.dtype, copy=False)
            return old
        order = np.argsort(inverse, kind="stable")    # grouped by location, lane order inside
    ends = np.cumsum(counts)
    starts = ends - counts
    init = mem[uniq]
    old = np.empty(n, mem.dtype)
    if name in ("add", "sub") and mem.dtype.kind == "u":
        s = src[order].astype(np.uint64)
        c = np.cumsum(s)                                # wraps modulo 2**64, a multiple of 2**width
        before = c[starts] - s[starts]                  # sum of the lanes before each group
        group = np.repeat(np.arange(uniq.shape[0]), counts)
        prefix = c - s - before[group]                  # exclusive prefix inside the group
        total = c[ends - 1] - before
        base = init.astype(np.uint64)
        if name == "add":
            old[order] = (base[group] + prefix).astype(mem.dtype)
            mem[uniq] = (base + total).astype(mem.dtype)
        else:
            old[order] = (base[group] - prefix).astype(mem.dtype)
            mem[uniq] = (base - total).astype(mem.dtype)
        return old
    rounds_needed = int(counts.max())
    if name in _SCANS and uniq.shape[0] <= rounds_needed:
        ufunc = _SCANS[name]
        for g in range(uniq.shape[0]):
            lanes = order[starts[g]:ends[g]]
            seq = np.concatenate((init[g:g + 1], src[lanes].astype(mem.dtype, copy=False)))
            acc = ufunc.accumulate(_scan_view(name, seq)).view(mem.dtype)
            old[lanes] = acc[:-1]
            mem[uniq[g]] = acc[-1]
        return old
    if name in ("cmpswap", "cmpstore", "cmpswap_f") and uniq.shape[0] <= rounds_needed:
        equal = (lambda a, b: _float(a) == _float(b)) if name == "cmpswap_f" else (lambda a, b: a == b)
        for g in range(uniq.shape[0]):
            lanes = order[starts[g]:ends[g]]
            cmps, srcs = cmp[lanes].astype(mem.dtype, copy=False), src[lanes].astype(mem.dtype, copy=False)
            v = init[g:g + 1]
            k, m = 0, lanes.shape[0]
            got = np.empty(m, mem.dtype)
            while k < m:                                # each step: the failures up to the next success
                hits = np.flatnonzero(equal(cmps[k:], v))
                j = m if hits.size == 0 else k + int(hits[0])
                got[k:j + 1] = v[0]
                if j == m:
                    break
                v = srcs[j:j + 1]
                k = j + 1
            old[lanes] = got
            mem[uniq[g]] = v[0]
        return old
    for batch in rounds(index):
        idx = index[batch]
        prev = mem[idx]
        mem[idx] = f(prev, src[batch], None if cmp is None else cmp[batch]).astype(mem.dtype, copy=False)
        old[batch] = prev
    return old
