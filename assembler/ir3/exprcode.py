"""mesa's isaspec expressions as Python source over argument code, for compiled plans.

The generator (scripts/gen_ir3_tables.py) keeps each expression's Python body in
tables.EXPR_SOURCE, with `f('FIELD')` where mesa's C reads `{FIELD}`. Compiled decoding plans
(trace.py) and assembly templates (templates.py) inline those bodies with each field replaced by
the code of the node it resolved to. As mesa's expressions short-circuit, the set of fields one
evaluation reads depends on the values; `mask()` gives source that computes that set (bit i:
field i of `names`), so a plan can check a replay reads what the recorded evaluation read.
"""
import ast

from . import isa

_U64 = (1 << 64) - 1


class ExprCode:
    """An expression's Python body as code over argument slots: `value(args)` computes it,
    `mask(args)` the set of its fields it reads (bit i: field i of `names`), `total` when every
    evaluation reads all of them (no short-circuit can skip one)."""

    def __init__(self, name):
        src = isa.tables.EXPR_SOURCE[name]
        tree = ast.parse(src, mode="eval").body
        self.names = tuple(sorted({n.args[0].value for n in ast.walk(tree) if _is_read(n)}))
        self.tree = tree
        self.total = True
        self._check(tree)

    def _check(self, n):
        if isinstance(n, (ast.BoolOp, ast.IfExp)):
            first = n.values[0] if isinstance(n, ast.BoolOp) else n.test
            rest = n.values[1:] if isinstance(n, ast.BoolOp) else (n.body, n.orelse)
            if any(_reads(r) - _reads(first) for r in rest):
                self.total = False
        for c in ast.iter_child_nodes(n):
            self._check(c)

    def value(self, args, gpu):
        return _value(self.tree, args, gpu)

    def mask(self, args, gpu):
        return _mask(self.tree, args, gpu, self.names)


def _is_read(n):
    return (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "f"
            and len(n.args) == 1 and isinstance(n.args[0], ast.Constant))


def _reads(n):
    return {x.args[0].value for x in ast.walk(n) if _is_read(x)}


_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_BIN = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.LShift: "<<",
        ast.RShift: ">>", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^"}
_UN = {ast.USub: "-", ast.Invert: "~", ast.UAdd: "+"}


def _wrapped(n):
    """int(x) / bool(x) -> (name, x), else None."""
    if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("int", "bool")
            and len(n.args) == 1 and not n.keywords):
        return n.func.id, n.args[0]
    return None


def _is_bool(n):
    """An expression whose value is True/False (numerically 0/1, as int() of it would be)."""
    w = _wrapped(n)
    return (isinstance(n, (ast.Compare, ast.BoolOp)) or (isinstance(n, ast.UnaryOp) and
            isinstance(n.op, ast.Not)) or (w is not None and (w[0] == "bool" or _is_bool(w[1]))))


def _truth(n, args, gpu):
    """Source with the truth value of node n (not necessarily its value)."""
    w = _wrapped(n)
    if w is not None:
        return _truth(w[1], args, gpu)
    if isinstance(n, ast.BoolOp):
        op = " and " if isinstance(n.op, ast.And) else " or "
        return "(" + op.join(_truth(v, args, gpu) for v in n.values) + ")"
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
        return "(not %s)" % _truth(n.operand, args, gpu)
    return _value(n, args, gpu)


def _value(n, args, gpu):
    """Source of node n with each field read replaced by its argument ("0" if not read); a
    boolean result may be True/False where mesa's expression has int(): the same number."""
    if _is_read(n):
        return args.get(n.args[0].value, "0")
    w = _wrapped(n)
    if w is not None:
        if _is_bool(w[1]):
            return _value(w[1], args, gpu)
        if w[0] == "bool":
            return "bool(%s)" % _truth(w[1], args, gpu)
        return "int(%s)" % _value(w[1], args, gpu)
    if isinstance(n, ast.Name):
        if n.id == "gpu":
            return "%d" % gpu
        raise ValueError(n.id)
    if isinstance(n, ast.Constant):
        return repr(n.value)
    if isinstance(n, ast.BoolOp):
        return "bool%s" % _truth(n, args, gpu)
    if isinstance(n, ast.IfExp):
        return "(%s if %s else %s)" % (_value(n.body, args, gpu), _truth(n.test, args, gpu),
                                       _value(n.orelse, args, gpu))
    if isinstance(n, ast.UnaryOp):
        if isinstance(n.op, ast.Not):
            return "(not %s)" % _truth(n.operand, args, gpu)
        return "(%s%s)" % (_UN[type(n.op)], _value(n.operand, args, gpu))
    if isinstance(n, ast.BinOp):
        return "(%s %s %s)" % (_value(n.left, args, gpu), _BIN[type(n.op)], _value(n.right, args, gpu))
    if isinstance(n, ast.Compare) and len(n.ops) == 1:
        return "(%s %s %s)" % (_value(n.left, args, gpu), _CMP[type(n.ops[0])],
                               _value(n.comparators[0], args, gpu))
    raise ValueError(ast.dump(n))


def _mask(n, args, gpu, names):
    """Source computing which fields evaluating node n reads (Python's short-circuits)."""
    if _is_read(n):
        return "%d" % (1 << names.index(n.args[0].value))
    if isinstance(n, ast.BoolOp):
        vals = n.values
        out = _mask(vals[-1], args, gpu, names)
        for v in reversed(vals[:-1]):
            if isinstance(n.op, ast.Or):
                out = "(%s | (0 if %s else %s))" % (_mask(v, args, gpu, names), _truth(v, args, gpu), out)
            else:
                out = "(%s | (%s if %s else 0))" % (_mask(v, args, gpu, names), out, _truth(v, args, gpu))
        return out
    if isinstance(n, ast.IfExp):
        return "(%s | (%s if %s else %s))" % (_mask(n.test, args, gpu, names),
                                              _mask(n.body, args, gpu, names),
                                              _truth(n.test, args, gpu),
                                              _mask(n.orelse, args, gpu, names))
    parts = [_mask(c, args, gpu, names) for c in ast.iter_child_nodes(n)
             if isinstance(c, ast.expr)]
    parts = [p for p in parts if p != "0"]
    return "(" + " | ".join(parts) + ")" if parts else "0"


_EXPR_CODE = {}


def code_for(n):
    """The ExprCode of expression node n."""
    code = _EXPR_CODE.get(n.expr_name)
    if code is None:
        code = _EXPR_CODE[n.expr_name] = ExprCode(n.expr_name)
    return code


def read_mask(n):
    """The read mask (see ExprCode.mask) of recorded evaluation n."""
    code = code_for(n)
    return sum(1 << code.names.index(x) for x in n.names)


def expr_lines(n, val, gpu, assign, mask=True, check=True, fail="raise Diverge()"):
    """Lines for an evaluation of node n (val(node) gives a node's code): `m = ` its read
    mask (mask), `fail` unless it is n's (check), and `vN = ` its value (assign)."""
    code = code_for(n)
    args = {name: val(a) for name, a in zip(n.names, n.args)}
    exact = code.total and set(n.names) == set(code.names)
    lines = []
    if mask and not exact:
        lines.append("m = %s" % code.mask(args, gpu))
    if check and assign and not exact:
        lines.append("if m != %d: %s" % (read_mask(n), fail))
    if assign:
        lines.append("v%d = %s & %d" % (n.id, code.value(args, gpu), _U64))
    return lines
