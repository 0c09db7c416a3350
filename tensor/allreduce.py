"""Summing partial results across devices: deferred all-reduces, bucketed when realized.

A reduction over the sharded axis of a tensor (:func:`tensor.multi.reduce`) leaves one partial
result per device.  It does not build its all-reduce at once: :func:`pending` returns one
placeholder node per device (op ``G.ALLREDUCE``, the :class:`Group` as its argument), and
the graph goes on being built on top of them.  When something is realized, :func:`resolve`
(called by the scheduler) finds every placeholder the realize needs and replaces them, many
at a time:

* **Rounds.**  An all-reduce whose partials depend on another's result cannot share a
  transfer with it.  Each group gets the latest round its consumers allow (the dependent
  groups' round minus one; the last round for those only the caller reads, the parameters'
  gradients of a training step), so there are as few rounds as the longest chain of
  dependent all-reduces, and every gradient lands in the last.
* **Buckets.**  The groups of one round (same devices, dtype and reduce op) are packed in
  creation order into buckets of at most ``TENSOR_BUCKET_MB`` megabytes (default 25; 0: one
  tensor per bucket) and at most :data:`MAX_BUCKET_TENSORS` tensors (each is a masked load in
  the kernel that packs them).  Per device a bucket is one flat buffer: one packing kernel
  (none for a single tensor: its own kernel writes it), one transfer per peer, one kernel that
  sums.  Each placeholder becomes a view of its slice of the sum, so a gradient a step keeps
  costs no copy.
* **Transfers.**  With two devices each one sends its whole bucket to the other (a device to
  device copy where the backend has one: SDMA reading the peer's memory on AMD) and both add
  ``x0 + x1`` in that order, so the replicas stay bit-identical; this moves as many bytes as a
  ring and takes one step instead of two.  With more devices the bucket goes through the
  ring of :func:`ring` (each device sends 2(N-1)/N of it, whatever N).
"""
import itertools
import os
import weakref

from tensor import ops
from tensor.ops import G
from tensor.view import prod

DEFAULT_BUCKET_MB = 25.0
MAX_BUCKET_TENSORS = 64
_serial = itertools.count()
_unresolved = weakref.WeakSet()    # groups still pending (a realize without any skips the search)


class Group:
    """One all-reduce: ``partials[d]`` on device d (one shape), ``outs[d]`` the placeholders."""
    __slots__ = ("serial", "partials", "outs", "rop", "shape", "dtype", "devices", "__weakref__")

    def __init__(self, partials, rop):
        self.serial = next(_serial)
        self.partials, self.rop = tuple(partials), rop
        p0 = self.partials[0]
        self.shape, self.dtype = p0.shape, p0.dtype
        self.devices = tuple(p.device for p in self.partials)
        self.outs = tuple(ops.Node(G.ALLREDUCE, (p,), self, p.dtype, p.shape, p.device)
                          for p in self.partials)
        _unresolved.add(self)

    def __repr__(self):
        return f"<all-reduce #{self.serial} {self.rop} {self.dtype.name}{list(self.shape)} on {self.devices}>"


def pending(parts, rop="add"):
    """One node per device that will hold the elementwise sum (or max) of ``parts``."""
    if len(parts) == 1 or prod(parts[0].shape) == 0:
        return list(parts)
    return list(Group(parts, rop).outs)


def bucket_bytes():
    text = os.environ.get("TENSOR_BUCKET_MB", "")
    try:
        mb = float(text) if text else DEFAULT_BUCKET_MB
    except ValueError:
        raise ValueError(f"TENSOR_BUCKET_MB={text!r} is not a number of megabytes") from None
    if mb < 0:
        raise ValueError(f"TENSOR_BUCKET_MB={text!r} is negative")
    return int(mb * (1 << 20))


# ---- finding and bucketing the pending all-reduces -----------------------------------------------

def resolve(targets):
    """Replace every all-reduce placeholder the ``targets`` need (see the module docstring);
    returns the targets to schedule: a target that became a view stands for its base, as a
    Tensor's view does."""
    if not _unresolved:
        return targets
    groups = _groups(targets)
    if not groups:
        return targets
    for bucket in _buckets(groups):
        _reduce_bucket(bucket)
    out = []
    for t in targets:
        if t.op in ops.MOVEMENT:
            base, _ = t.view()
            if not base.realized and base.op not in (G.CONST, G.IOTA):
                t = base
        if all(t is not o for o in out):
            out.append(t)
    return out


def _groups(targets):
    """Every pending group the targets need, with the groups their sibling partials need."""
    found, roots = {}, list(targets)
    while True:
        new = [n.arg for n in ops.walk(roots, stop=lambda n: n.realized)
               if n.op is G.ALLREDUCE and n.arg.serial not in found]
        if not new:
            return sorted(found.values(), key=lambda g: g.serial)
        for g in new:
            found[g.serial] = g
            roots.extend(g.partials)


def _rounds(groups):
    """Round of each group: as late as the groups that read its result allow."""
    index = {g.serial: i for i, g in enumerate(groups)}
    mask = {}                   # node id -> bit set of the groups it depends on
    roots = [p for g in groups for p in g.partials]
    for n in ops.walk(roots, stop=lambda n: n.realized):
        m = 0
        for s in n.src:
            m |= mask.get(s.id, 0)
        if n.op is G.ALLREDUCE and n.arg.serial in index:
            m |= 1 << index[n.arg.serial]
        mask[n.id] = m
    deps = [0] * len(groups)
    for i, g in enumerate(groups):
        for p in g.partials:
            deps[i] |= mask.get(p.id, 0)
    # earliest rounds (groups are in creation order, which puts dependencies first), then
    # each group as late as its dependents allow
    early = []
    for i in range(len(groups)):
        early.append(1 + max((early[j] for j in range(i) if deps[i] >> j & 1), default=0))
    last = max(early)
    late = [last] * len(groups)
    for i in reversed(range(len(groups))):
        for j in range(i + 1, len(groups)):
            if deps[j] >> i & 1:
                late[i] = min(late[i], late[j] - 1)
    return late


def _buckets(groups):
    cap = bucket_bytes()
    rounds = _rounds(groups)
    by_key = {}
    for g, r in zip(groups, rounds):
        by_key.setdefault((r, g.devices, g.dtype, g.rop), []).append(g)
    out = []
    for key in sorted(by_key, key=lambda k: (k[0], by_key[k][0].serial)):
        bucket, size = [], 0
        for g in by_key[key]:
            nbytes = prod(g.shape) * g.dtype.itemsize
            if bucket and (size + nbytes > cap or len(bucket) >= MAX_BUCKET_TENSORS):
                out.append(bucket)
                bucket, size = [], 0
            bucket.append(g)
            size += nbytes
        out.append(bucket)
    return out


# ---- one bucket ------------------------------------------------------------------------------

def _concat_op(dtype):
    from tensor.loopir import Op
    return Op.OR if dtype.is_bool else Op.ADD


def _reduce_op(rop, dtype):
    from tensor.loopir import Op
    return Op.MAX if rop == "max" else _concat_op(dtype)


def _reduce_bucket(groups):
    g0 = groups[0]
    dtype, n = g0.dtype, len(g0.devices)
    sizes = [prod(g.shape) for g in groups]
    total = sum(sizes)
    offsets = list(itertools.accumulate([0] + sizes[:-1]))
    packs = []
    for d in range(n):
        flat = None
        for g, off, size in zip(groups, offsets, sizes):
            piece = ops.reshape(g.partials[d], (size,))
            if len(groups) > 1:
                piece = ops.pad(piece, [(off, total - off - size)])
            flat = piece if flat is None else ops.alu(_concat_op(dtype), flat, piece)
        packs.append(ops.contiguous(flat))
    sums = exchange(packs, g0.rop) if n == 2 else ring(packs, g0.rop)
    for g, off, size in zip(groups, offsets, sizes):
        for d, out in enumerate(g.outs):
            piece = ops.shrink(sums[d], [(off, off + size)])
            ops.become(out, G.RESHAPE, (piece,), g.shape)
        _unresolved.discard(g)


def exchange(flat, rop="add"):
    """All-reduce by all-gather: each device receives every peer's buffer and combines them in
    device order (the same operations on every device, so the results are bit-identical)."""
    op = _reduce_op(rop, flat[0].dtype)
    out = []
    for d, mine in enumerate(flat):
        acc = None
        for j, x in enumerate(flat):
            x = mine if j == d else ops.copy(x, mine.device)
            acc = x if acc is None else ops.alu(op, acc, x)
        out.append(acc)
    return out


def ring(parts, rop="add"):
    """Ring all-reduce: ``parts[i]`` on device i, all one shape; returns one node per device,
    each holding the elementwise sum (or max) of all parts.

    The flattened tensor is cut into N chunks; in N-1 reduce-scatter steps device d sends chunk
    (d - s) mod N to device d+1, which adds it to its own, so that device d ends with the
    complete chunk (d+1) mod N; N-1 all-gather steps pass the complete chunks around the same
    ring.  Each device sends 2(N-1)/N of the tensor, whatever N."""
    from tensor.multi import split_bounds
    n = len(parts)
    if n == 1:
        return list(parts)
    shape, dtype = parts[0].shape, parts[0].dtype
    devs = [p.device for p in parts]
    size = prod(shape)
    if size == 0:
        return list(parts)
    op = _reduce_op(rop, dtype)
    flat = [ops.reshape(p if p.op is G.CONTIGUOUS else ops.contiguous(p), (size,)) for p in parts]
    bounds = split_bounds(size, n)
    chunks = [[ops.shrink(f, [b]) for b in bounds] for f in flat]
    for s in range(n - 1):                      # reduce-scatter
        new = [list(c) for c in chunks]
        for d in range(n):
            c, dst = (d - s) % n, (d + 1) % n
            if bounds[c][0] == bounds[c][1]:    # fewer elements than devices: nothing to send
                continue
            new[dst][c] = ops.alu(op, chunks[dst][c], ops.copy(ops.contiguous(chunks[d][c]), devs[dst]))
        chunks = new
    for s in range(n - 1):                      # all-gather
        new = [list(c) for c in chunks]
        for d in range(n):
            c, dst = (d + 1 - s) % n, (d + 1) % n
            if bounds[c][0] == bounds[c][1]:
                continue
            new[dst][c] = ops.copy(ops.contiguous(chunks[d][c]), devs[dst])
        chunks = new
    out = []
    for d in range(n):
        whole = None
        for (lo, hi), c in zip(bounds, chunks[d]):
            if lo == hi:
                continue
            piece = ops.pad(c, [(lo, size - hi)])
            whole = piece if whole is None else ops.alu(_concat_op(dtype), whole, piece)
        out.append(ops.reshape(whole, shape))
    return out
