"""Integer index arithmetic, simplified symbolically before it becomes IR instructions.

An index is a linear combination ``sum(c_i * atom_i) + c`` where an atom is a loop variable
(a :class:`Var` with its bounds), ``Div(L, d)`` (floor division) or ``Mod(L, d)``.  Every
expression knows its bounds, and the constructors simplify with them:

* constants fold; like terms combine; terms are kept in one canonical order;
* ``(x*4 + y) // 4 -> x`` when ``0 <= y < 4`` (split each coefficient ``c = d*q + r``: the
  ``q`` parts leave the division exactly, the rest vanishes when its bounds fit in ``[0, d)``);
  ``x // a // b -> x // (a*b)``; ``(x*4 + y) % 4 -> y``; ``x % d -> x`` when ``0 <= x < d``;
* a comparison ``L < c`` is divided by the gcd of its coefficients, moved through a single
  division, and becomes True or False when the bounds decide it;
* ``And`` drops true conditions, is False if any is, and merges conditions on the same
  expression into the tightest (mask merging).

Floor semantics throughout.  Index expressions only divide values that are >= 0 where the
access is valid, so the IR's truncating IDIV/MOD compute the same thing.
"""
from math import gcd


class Atom:
    __slots__ = ("key", "min", "max", "_hash")

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self is other or (type(other) is type(self) and other.key == self.key)

    def __lt__(self, other):
        return self.key < other.key


class Var(Atom):
    """A loop variable in [lo, hi] (inclusive); ``name`` identifies it (e.g. its RANGE)."""
    __slots__ = ("name",)

    def __init__(self, name, lo, hi):
        self.name, self.min, self.max = name, lo, hi
        self.key = (0, name, lo, hi)
        self._hash = hash(self.key)

    def __repr__(self):
        return str(self.name)


class Div(Atom):
    __slots__ = ("a", "d")

    def __init__(self, a, d):
        self.a, self.d = a, d
        self.min, self.max = a.min // d, a.max // d
        self.key = (1, a.key, d)
        self._hash = hash(self.key)

    def __repr__(self):
        return f"({self.a!r})//{self.d}"


class Mod(Atom):
    __slots__ = ("a", "d")

    def __init__(self, a, d):
        self.a, self.d = a, d
        self.min, self.max = (a.min, a.max) if 0 <= a.min and a.max < d else (0, d - 1)
        self.key = (2, a.key, d)
        self._hash = hash(self.key)

    def __repr__(self):
        return f"({self.a!r})%{self.d}"


class Lin:
    """sum(coeff * atom) + const, terms sorted by atom."""
    __slots__ = ("terms", "const", "min", "max", "key", "_hash")

    def __init__(self, terms, const):
        self.terms, self.const = terms, const
        lo = hi = const
        for a, c in terms:
            if c > 0:
                lo += c * a.min
                hi += c * a.max
            else:
                lo += c * a.max
                hi += c * a.min
        self.min, self.max = lo, hi
        self.key = (tuple((a.key, c) for a, c in terms), const)
        self._hash = hash(self.key)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self is other or (type(other) is Lin and other.key == self.key)

    @property
    def is_const(self):
        return not self.terms

    def __repr__(self):
        parts = [(f"{a!r}" if c == 1 else f"{a!r}*{c}") for a, c in self.terms]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)

    # operator sugar for views and lowering
    def __add__(self, o):
        return add(self, o)

    __radd__ = __add__

    def __mul__(self, c):
        return mul(self, c)

    __rmul__ = __mul__

    def __floordiv__(self, d):
        return floordiv(self, d)

    def __mod__(self, d):
        return mod(self, d)


def _make(coeffs, const):
    terms = tuple(sorted(((a, c) for a, c in coeffs.items() if c), key=lambda t: t[0].key))
    return Lin(terms, const)


def lin(x):
    if isinstance(x, Lin):
        return x
    if isinstance(x, int):
        return Lin((), x)
    if isinstance(x, Atom):
        if x.min == x.max:
            return Lin((), x.min)
        return Lin(((x, 1),), 0)
    raise TypeError(f"not an index expression: {x!r}")


def const(c):
    return Lin((), c)


def var(name, lo, hi):
    return lin(Var(name, lo, hi))


def add(a, b):
    a, b = lin(a), lin(b)
    if not b.terms:
        return a if not b.const else Lin(a.terms, a.const + b.const) if a.terms else Lin((), a.const + b.const)
    if not a.terms:
        return Lin(b.terms, b.const + a.const)
    coeffs = dict(a.terms)
    for t, c in b.terms:
        coeffs[t] = coeffs.get(t, 0) + c
    return _make(coeffs, a.const + b.const)


def mul(a, c):
    a = lin(a)
    if c == 0:
        return Lin((), 0)
    if c == 1:
        return a
    return Lin(tuple((t, k * c) for t, k in a.terms), a.const * c)


def floordiv(a, d):
    a = lin(a)
    if d <= 0:
        raise ValueError(f"index division by {d}")
    if d == 1:
        return a
    if a.min // d == a.max // d:
        return Lin((), a.min // d)
    q = {t: c // d for t, c in a.terms if c // d}
    rest = {t: c % d for t, c in a.terms if c % d}
    qc, rc = a.const // d, a.const % d
    r = _make(rest, rc)
    if r.min // d == r.max // d:
        return add(_make(q, qc), r.min // d)
    g = gcd(d, rc, *rest.values())
    if g > 1:
        r, d = _make({t: c // g for t, c in rest.items()}, rc // g), d // g
    if len(r.terms) == 1 and r.const == 0 and r.terms[0][1] == 1 and isinstance(r.terms[0][0], Div):
        inner = r.terms[0][0]                        # (x // a) // b -> x // (a*b)
        return add(_make(q, qc), floordiv(inner.a, inner.d * d))
    return add(_make(q, qc), lin(Div(r, d)))


def mod(a, d):
    a = lin(a)
    if d <= 0:
        raise ValueError(f"index modulo by {d}")
    if d == 1:
        return Lin((), 0)
    rest = {t: c % d for t, c in a.terms if c % d}
    r = _make(rest, a.const % d)
    if 0 <= r.min and r.max < d:
        return r
    if r.min // d == r.max // d:
        return add(r, -d * (r.min // d))
    if len(r.terms) == 1 and r.const == 0 and r.terms[0][1] == 1 and isinstance(r.terms[0][0], Mod) \
            and r.terms[0][0].d % d == 0:
        return mod(r.terms[0][0].a, d)               # (x % (k*d)) % d -> x % d
    g = gcd(d, r.const, *rest.values())
    if g > 1:                                        # (g*x) % (g*e) -> g * (x % e)
        return mul(mod(_make({t: c // g for t, c in rest.items()}, r.const // g), d // g), g)
    return lin(Mod(r, d))


# ---- conditions ----------------------------------------------------------------------------

class Lt:
    """``expr < c`` with ``expr`` a Lin without constant term."""
    __slots__ = ("a", "c", "key", "_hash")

    def __init__(self, a, c):
        self.a, self.c = a, c
        self.key = (a.key, c)
        self._hash = hash(self.key)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return type(other) is Lt and other.key == self.key

    def __repr__(self):
        return f"({self.a!r} < {self.c})"


class And:
    __slots__ = ("conds", "key", "_hash")

    def __init__(self, conds):
        self.conds = conds
        self.key = tuple(c.key for c in conds)
        self._hash = hash(self.key)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return type(other) is And and other.key == self.key

    def __repr__(self):
        return " and ".join(map(repr, self.conds))


def lt(a, b):
    """a < b for index expressions (b may be an int)."""
    e = add(lin(a), mul(lin(b), -1))
    c = -e.const
    e = Lin(e.terms, 0)
    if e.max < c:
        return True
    if e.min >= c:
        return False
    g = gcd(*(k for _, k in e.terms))
    if g > 1:
        e, c = Lin(tuple((t, k // g) for t, k in e.terms), 0), -((-c) // g)
    for k in sorted({abs(t) for _, t in e.terms if abs(t) > 1}, reverse=True):
        if c % k:
            continue
        big = [(t, q) for t, q in e.terms if q % k == 0]
        rest = Lin(tuple((t, q) for t, q in e.terms if q % k), 0)
        if big and rest.terms and 0 <= rest.min and rest.max < k:
            # k*Q + R < k*m with 0 <= R < k  <=>  Q < m
            return lt(Lin(tuple((t, q // k) for t, q in big), 0), c // k)
    if len(e.terms) == 1 and isinstance(e.terms[0][0], Div) and e.terms[0][1] in (1, -1):
        div, sign = e.terms[0]
        if sign == 1:                                 # x//d < c  <=>  x < c*d
            return lt(div.a, c * div.d)
        return lt(mul(div.a, -1), (c - 1) * div.d + 1)  # -(x//d) < c <=> x >= (1-c)*d
    if e.max < c:
        return True
    if e.min >= c:
        return False
    return Lt(e, c)


def ge(a, b):
    """a >= b"""
    return lt(mul(lin(b), 1), add(lin(a), 1))


def and_(*conds):
    best = {}
    for cond in conds:
        if cond is True:
            continue
        if cond is False:
            return False
        for c in (cond.conds if isinstance(cond, And) else (cond,)):
            prev = best.get(c.a)
            if prev is None or c.c < prev:
                best[c.a] = c.c
    if not best:
        return True
    # a lower and an upper bound on the same variable that cannot both hold
    out = []
    for a, c in best.items():
        neg = Lin(tuple((t, -k) for t, k in a.terms), 0)
        if neg in best and best[neg] + c <= 1:       # a < c and -a < c'  <=>  -c' < a < c
            return False
        out.append(Lt(a, c))
    out.sort(key=lambda x: x.key)
    return out[0] if len(out) == 1 else And(tuple(out))


def evaluate(expr, env):
    """The value of an index expression or condition for {Var name: int} (used by tests)."""
    if expr is True or expr is False:
        return expr
    if isinstance(expr, int):
        return expr
    if isinstance(expr, Lin):
        return sum(c * evaluate(a, env) for a, c in expr.terms) + expr.const
    if isinstance(expr, Var):
        return env[expr.name]
    if isinstance(expr, Div):
        return evaluate(expr.a, env) // expr.d
    if isinstance(expr, Mod):
        return evaluate(expr.a, env) % expr.d
    if isinstance(expr, Lt):
        return evaluate(expr.a, env) < expr.c
    if isinstance(expr, And):
        return all(evaluate(c, env) for c in expr.conds)
    raise TypeError(f"not an expression: {expr!r}")
