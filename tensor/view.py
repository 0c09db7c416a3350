"""Views: how a tensor's shape maps onto the flat storage of its base, without copying.

A :class:`View` is shape + strides (in elements, 0 for a broadcast dimension, negative for a
flipped one) + offset + an optional validity mask (per dimension, the ``[lo, hi)`` range that
holds data; outside it the value is 0, which is how ``pad`` works without a copy).

Every movement primitive (reshape, permute, expand, pad, shrink, flip) maps a view to a view.
A reshape that strides cannot express (say, flattening a transposed matrix) stacks a new view
on top: a :class:`ShapeTracker` is that stack, read top to bottom: the top view turns an index
of the tensor's shape into a flat position in the shape of the view below, and so on down to
the base.  :meth:`ShapeTracker.expr` gives the final (index, valid) as symbolic expressions.
"""
from tensor import symbolic as sym


def strides_for(shape):
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc if s != 1 else 0)
        acc *= s
    return tuple(reversed(out))


def prod(xs):
    out = 1
    for x in xs:
        out *= x
    return out


class View:
    __slots__ = ("shape", "strides", "offset", "mask", "contiguous", "key", "_hash")

    def __init__(self, shape, strides, offset, mask):
        self.shape, self.strides, self.offset, self.mask = shape, strides, offset, mask
        self.contiguous = offset == 0 and mask is None and strides == strides_for(shape)
        self.key = (shape, strides, offset, mask)
        self._hash = hash(self.key)

    @staticmethod
    def create(shape, strides=None, offset=0, mask=None):
        shape = tuple(shape)
        strides = strides_for(shape) if strides is None else \
            tuple(0 if s == 1 else st for s, st in zip(shape, strides))
        if mask is not None:
            if any(lo >= hi for lo, hi in mask):
                mask = tuple((0, 0) for _ in shape)
                strides, offset = (0,) * len(shape), 0
            elif all(lo == 0 and hi == s for (lo, hi), s in zip(mask, shape)):
                mask = None
            else:
                # a dimension masked down to one element needs no stride
                new = []
                for (lo, hi), st in zip(mask, strides):
                    if hi - lo == 1 and st:
                        offset += lo * st
                        st = 0
                    new.append(st)
                strides = tuple(new)
        return View(shape, strides, offset, mask)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self is other or (type(other) is View and other.key == self.key)

    def __repr__(self):
        m = f", mask={self.mask}" if self.mask else ""
        return f"View({self.shape}, strides={self.strides}, offset={self.offset}{m})"

    @property
    def empty(self):
        return self.mask is not None and any(lo >= hi for lo, hi in self.mask)

    # ---- movement -----------------------------------------------------------------------
    def permute(self, order):
        return View.create(tuple(self.shape[i] for i in order), tuple(self.strides[i] for i in order),
                           self.offset, tuple(self.mask[i] for i in order) if self.mask else None)

    def expand(self, shape):
        mask = None
        if self.mask:
            mask = tuple(m if old == new else ((0, new) if m != (0, 0) else (0, 0))
                         for m, old, new in zip(self.mask, self.shape, shape))
        return View.create(shape, self.strides, self.offset, mask)

    def pad(self, pads):
        offset = self.offset - sum(lo * st for (lo, _), st in zip(pads, self.strides))
        shape = tuple(s + lo + hi for s, (lo, hi) in zip(self.shape, pads))
        old = self.mask or tuple((0, s) for s in self.shape)
        mask = tuple((mlo + lo, mhi + lo) for (mlo, mhi), (lo, _) in zip(old, pads))
        return View.create(shape, self.strides, offset, mask)

    def shrink(self, bounds):
        offset = self.offset + sum(lo * st for (lo, _), st in zip(bounds, self.strides))
        shape = tuple(hi - lo for lo, hi in bounds)
        mask = None
        if self.mask:
            mask = tuple((max(mlo - lo, 0), min(mhi - lo, hi - lo))
                         for (mlo, mhi), (lo, hi) in zip(self.mask, bounds))
        return View.create(shape, self.strides, offset, mask)

    def flip(self, axes):
        offset, strides, mask = self.offset, list(self.strides), list(self.mask) if self.mask else None
        for a in axes:
            offset += (self.shape[a] - 1) * strides[a]
            strides[a] = -strides[a]
            if mask:
                lo, hi = mask[a]
                mask[a] = (self.shape[a] - hi, self.shape[a] - lo)
        return View.create(self.shape, tuple(strides), offset, tuple(mask) if mask else None)

    def reshape(self, shape):
        """The same data in a new shape as one view, or None when strides cannot express it."""
        if shape == self.shape:
            return self
        if self.contiguous:
            return View.create(shape)
        if self.empty:                 # a 0-d view cannot carry the empty mask: stack it
            return View.create(shape, mask=tuple((0, 0) for _ in shape)) if shape else None
        old = [(s, st, (self.mask[i] if self.mask else (0, s))) for i, (s, st) in
               enumerate(zip(self.shape, self.strides)) if s != 1]
        new_nz = [s for s in shape if s != 1]
        strides, mask, i = [], [], 0
        for s_new in new_nz:
            if i < len(old) and old[i][0] == s_new:        # a dimension kept as it is
                strides.append(old[i][1])
                mask.append(old[i][2])
                i += 1
                continue
            # merge old dims until their product covers s_new, or split one old dim
            if i >= len(old):
                return None
            group, p = [], 1
            while p < s_new and i < len(old):
                group.append(old[i])
                p *= old[i][0]
                i += 1
            if p == s_new:
                for (s1, st1, m1), (s2, st2, m2) in zip(group, group[1:]):
                    if st1 != st2 * s2:
                        return None
                if any(m != (0, s) for s, _, m in group):
                    return None
                strides.append(group[-1][1])
                mask.append((0, s_new))
                continue
            # a split of a single old dimension into several new ones
            if len(group) != 1 or p % s_new:
                return None
            s_old, st_old, m_old = group[0]
            if m_old != (0, s_old):
                return None
            remaining = s_old // s_new
            strides.append(st_old * remaining)
            mask.append((0, s_new))
            # push the remainder back as a pseudo old dimension
            i -= 1
            old[i] = (remaining, st_old, (0, remaining))
        if i != len(old):
            return None
        it_st, it_m = iter(strides), iter(mask)
        full_st, full_m = [], []
        for s in shape:
            if s == 1:
                full_st.append(0)
                full_m.append((0, 1))
            else:
                full_st.append(next(it_st))
                full_m.append(next(it_m))
        return View.create(shape, tuple(full_st), self.offset,
                           tuple(full_m) if self.mask else None)

    # ---- index expressions ------------------------------------------------------------------
    def expr(self, idxs):
        """(flat position, valid) for per-dimension index expressions ``idxs``."""
        if self.empty:
            return sym.const(0), False
        pos = sym.const(self.offset)
        for idx, st in zip(idxs, self.strides):
            if st:
                pos = sym.add(pos, sym.mul(idx, st))
        valid = True
        if self.mask:
            conds = []
            for idx, (lo, hi), s in zip(idxs, self.mask, self.shape):
                if lo > 0:
                    conds.append(sym.ge(idx, lo))
                if hi < s:
                    conds.append(sym.lt(idx, hi))
            valid = sym.and_(*conds)
        return pos, valid


class ShapeTracker:
    """A stack of views, the top one last; immutable and hashable."""
    __slots__ = ("views", "_hash")

    def __init__(self, views):
        self.views = views
        self._hash = hash(views)

    @staticmethod
    def contiguous(shape):
        return ShapeTracker((View.create(shape),))

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self is other or (type(other) is ShapeTracker and other.views == self.views)

    def __repr__(self):
        return f"ShapeTracker({', '.join(map(repr, self.views))})"

    @property
    def shape(self):
        return self.views[-1].shape

    @property
    def size(self):
        return prod(self.shape)

    @property
    def is_contiguous(self):
        return len(self.views) == 1 and self.views[0].contiguous

    def _top(self, view):
        views = self.views[:-1] + (view,)
        # a contiguous view below the top maps flat positions to themselves: drop it
        if len(views) > 1 and any(v.contiguous for v in views[:-1]):
            views = tuple(v for v in views[:-1] if not v.contiguous) + (views[-1],)
        return ShapeTracker(views)

    def permute(self, order):
        return self._top(self.views[-1].permute(order))

    def expand(self, shape):
        return self._top(self.views[-1].expand(tuple(shape)))

    def pad(self, pads):
        return self._top(self.views[-1].pad(tuple(pads)))

    def shrink(self, bounds):
        return self._top(self.views[-1].shrink(tuple(bounds)))

    def flip(self, axes):
        return self._top(self.views[-1].flip(tuple(axes)))

    def reshape(self, shape):
        shape = tuple(shape)
        if prod(shape) != prod(self.shape):
            raise ValueError(f"internal: reshape of {self.shape} to {shape}")
        v = self.views[-1].reshape(shape)
        if v is not None:
            return self._top(v)
        return ShapeTracker(self.views + (View.create(shape),))

    def expr(self, idxs):
        """(index into the base's flat storage, valid) for per-dimension index expressions."""
        pos, valid = self.views[-1].expr(idxs)
        for v in reversed(self.views[:-1]):
            if valid is False:
                break
            sub, acc = [], 1
            for s in reversed(v.shape):
                sub.append(sym.const(0) if s == 1 else sym.mod(sym.floordiv(pos, acc), s))
                acc *= s
            pos, ok = v.expr(tuple(reversed(sub)))
            valid = sym.and_(valid, ok)
        return pos, valid
