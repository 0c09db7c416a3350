#!/usr/bin/env python3
"""Generate assembler/ir3/tables.py from mesa's isaspec description of the ir3 ISA.

    python scripts/gen_ir3_tables.py MESA_DIR [--gpu 630] [-o assembler/ir3/tables.py]

MESA_DIR is a mesa source tree (only src/freedreno/isa/ir3*.xml is read; those files are MIT
licensed, "Copyright 2020 Google, Inc."). The tables are checked against the `tinymesa` wheel,
which is built from mesa 25.2.7, so use that tree:

    git clone --depth 1 --branch mesa-25.2.7 https://gitlab.freedesktop.org/mesa/mesa.git

Nothing of mesa is committed: the output holds the bitset tree (patterns, fields, display
templates, expressions translated to Python) for one GPU generation, and a header naming the
input files and their sha256.

Like mesa's own isaspec generator (src/compiler/isaspec/isa.py) this refuses a description with
redefined or overlapping bits, a leaf bitset with undefined bits, a field of unknown type or of
the wrong size, or a pattern of the wrong length, so the tables decode every word one way.
"""
import argparse
import hashlib
import os
import re
import sys
from xml.etree import ElementTree

BUILTIN_TYPES = ("branch", "absbranch", "int", "uint", "hex", "offset", "uoffset", "float",
                 "bool", "bool_inv", "custom")
GEN_ALL = (0, (1 << 32) - 1)


class ISAError(Exception):
    """The description is inconsistent (mesa's isa.py would refuse it too)."""


# ---------------------------------------------------------------------------------------------
# C expressions (<expr>) -> Python source over f(FIELD) and gpu


_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)(?:[uU]?[lL]{0,2})|\{([A-Za-z0-9_]+)\}|(ISA_GPU_ID\(\))|"
                    r"(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^~!<>?:()]))")
_BINARY = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, "<=": 7, ">": 7,
           ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}


def _tokens(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S).strip().rstrip(";").strip()
    pos, out = 0, []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ISAError("cannot parse expression %r at %r" % (text, text[pos:]))
        num, field, gpu, op = m.groups()
        out.append(("num", int(num, 0)) if num else ("field", field) if field else
                   ("gpu", None) if gpu else ("op", op))
        pos = m.end()
    return out


def c_to_python(text):
    """Translate one isaspec C expression to Python with C's semantics (&&, || and comparisons
    give 0/1, ! is logical not, ?: is the conditional, division truncates)."""
    toks = _tokens(text)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else ("end", None)

    def take(op=None):
        nonlocal pos
        t = peek()
        if op is not None and t != ("op", op):
            raise ISAError("expected %r in expression %r" % (op, text))
        pos += 1
        return t

    def unary():
        kind, val = take()
        if kind == "num":
            return str(val)
        if kind == "field":
            return "f(%r)" % val
        if kind == "gpu":
            return "gpu"
        if val == "(":
            inner = ternary()
            take(")")
            return "(%s)" % inner
        if val == "!":
            return "int(not %s)" % unary()
        if val == "~":
            return "(~%s & 0xffffffffffffffff)" % unary()
        if val == "-":
            return "(-%s)" % unary()
        raise ISAError("unexpected %r in expression %r" % (val, text))

    def binary(min_prec):
        left = unary()
        while True:
            kind, op = peek()
            if kind != "op" or op not in _BINARY or _BINARY[op] < min_prec:
                return left
            take()
            right = binary(_BINARY[op] + 1)
            if op == "&&":
                left = "int(bool(%s) and bool(%s))" % (left, right)
            elif op == "||":
                left = "int(bool(%s) or bool(%s))" % (left, right)
            elif _BINARY[op] in (6, 7):
                left = "int(%s %s %s)" % (left, op, right)
            elif op == "/":
                left = "int(%s / %s)" % (left, right)
            else:
                left = "(%s %s %s)" % (left, op, right)

    def ternary():
        cond = binary(1)
        if peek() == ("op", "?"):
            take()
            a = ternary()
            take(":")
            b = ternary()
            return "(%s if %s else %s)" % (a, cond, b)
        return cond

    out = ternary()
    if pos != len(toks):
        raise ISAError("trailing tokens in expression %r" % text)
    return out


# ---------------------------------------------------------------------------------------------
# The XML description


def _bitrange(el, where):
    if "pos" in el.attrib:
        if "low" in el.attrib or "high" in el.attrib:
            raise ISAError("%s: both pos and low/high" % where)
        return int(el.attrib["pos"]), int(el.attrib["pos"])
    low, high = int(el.attrib["low"]), int(el.attrib["high"])
    if low > high:
        raise ISAError("%s: low %d > high %d" % (where, low, high))
    return low, high


class Field:
    def __init__(self, name, low, high, type_, expr=None, display=None, params=(), val=None,
                 call=False):
        self.name, self.low, self.high, self.type = name, low, high, type_
        self.expr, self.display, self.params, self.val, self.call = expr, display, params, val, call

    def mask(self):
        return ((1 << (self.high - self.low + 1)) - 1) << self.low


class Case:
    def __init__(self, expr, display, fields):
        self.expr, self.display, self.fields = expr, display, fields


class BitSet:
    def __init__(self, isa, el):
        self.name = el.attrib["name"]
        self.display_name = el.attrib.get("displayname", self.name)
        if "size" in el.attrib:
            if "extends" in el.attrib:
                raise ISAError("%s: both size and extends" % self.name)
            self.size, self.extends = int(el.attrib["size"]), None
        else:
            self.size, self.extends = None, el.attrib["extends"]
        self.gen_min, self.gen_max = GEN_ALL
        for g in el.findall("gen"):
            self.gen_min = int(g.attrib.get("min", self.gen_min))
            self.gen_max = int(g.attrib.get("max", self.gen_max))
        self.match = self.dontcare = self.mask = self.field_mask = 0
        self.cases = []
        # <encode><map name="F">1</map>: mesa's encoder writes a constant into a field the text
        # does not show (stg's DST_OFF); the assembler starts from these values
        self.encode_consts = {}
        for enc in el.findall("encode"):
            for m in enc.findall("map"):
                if re.fullmatch(r"\s*(0[xX][0-9a-fA-F]+|\d+)\s*", m.text or ""):
                    self.encode_consts[m.attrib["name"]] = int(m.text.strip(), 0)
        default = self._case(isa, el, None, default=True)
        for ov in el.findall("override"):
            expr = ov.attrib.get("expr") or isa.one_expression(ov, self.name)
            self.cases.append(self._case(isa, ov, expr, default=False))
        self.cases.append(default)
        for pat in el.findall("pattern"):
            low, high = _bitrange(pat, self.name)
            text = pat.text.strip()
            if len(text) != high - low + 1:
                raise ISAError("invalid pattern length in %s: %d..%d" % (self.name, low, high))
            mask = ((1 << (high - low + 1)) - 1) << low
            if (self.field_mask | self.mask | self.dontcare | self.match) & mask:
                raise ISAError("redefined bits in pattern %s: %d..%d" % (self.name, low, high))
            match = dontcare = 0
            for ch in text:
                if ch not in "01x":
                    raise ISAError("invalid pattern character %r in %s" % (ch, self.name))
                match = match << 1 | (ch == "1")
                dontcare = dontcare << 1 | (ch == "x")
            self.match |= match << low
            self.dontcare |= dontcare << low
            self.mask |= mask

    def _case(self, isa, el, expr, default):
        fields = {}
        for d in el.findall("derived"):
            width = int(d.attrib["width"]) if "width" in d.attrib else 1
            dexpr = d.attrib.get("expr") or isa.one_expression(d, d.attrib["name"])
            fields[d.attrib["name"]] = Field(d.attrib["name"], 0, width - 1, d.attrib["type"],
                                             expr=dexpr, display=_disp(d),
                                             call=d.attrib.get("call") == "true")
        for i, a in enumerate(el.findall("assert")):
            low, high = _bitrange(a, self.name)
            text = a.text.strip()
            if len(text) != high - low + 1 or set(text) - set("01"):
                raise ISAError("invalid assert in %s: %r" % (self.name, text))
            f = Field("%s#assert%d" % (self.name, len(fields)), low, high, "assert", val=int(text, 2))
            self._claim(f, default)
            fields[f.name] = f
        for x in el.findall("field"):
            low, high = _bitrange(x, self.name)
            params = tuple((p.attrib["name"], p.attrib.get("as", p.attrib["name"]))
                           for p in x.findall("param"))
            f = Field(x.attrib["name"], low, high, x.attrib["type"], display=_disp(x),
                      params=params, call=x.attrib.get("call") == "true")
            self._claim(f, default)
            fields[f.name] = f
        display = None
        for d in el.findall("display"):
            display = d.text.strip() if d.text is not None else ""
        return Case(expr, display, fields)

    def _claim(self, f, default):
        if not default:
            return       # an override redefines bits of the default case on purpose
        if (self.field_mask | self.mask | self.dontcare | self.match) & f.mask():
            raise ISAError("redefined bits in field %s.%s: %d..%d" % (self.name, f.name, f.low, f.high))
        self.field_mask |= f.mask()


def _disp(el):
    return el.attrib["display"].strip() if "display" in el.attrib else None


class ISA:
    def __init__(self, path):
        self.base = os.path.dirname(path)
        self.files = []
        self.anon = 0
        self.expressions = {}
        self.enums = {}
        self.bitsets = []          # every bitset, XML order (per-gen variants share a name)
        self._parse(path)

    def _parse(self, path):
        self.files.append(path)
        root = ElementTree.parse(path).getroot()
        for imp in root.findall("import"):
            self._parse(os.path.join(self.base, imp.attrib["file"]))
        for e in root.findall("expr"):
            self._expression(e)
        if root.findall("template"):
            raise ISAError("%s: <template> is not supported" % path)
        for e in root.findall("enum"):
            self.enums[e.attrib["name"]] = {int(v.attrib["val"], 0): v.attrib["display"]
                                            for v in e.findall("value")}
        for b in root.findall("bitset"):
            self.bitsets.append(BitSet(self, b))

    def _expression(self, el):
        name = el.attrib.get("name")
        if name is None:
            name = "anon_%d" % self.anon
            self.anon += 1
        self.expressions[name] = (el.text.strip(), c_to_python(el.text))
        return name


    def one_expression(self, el, where):
        exprs = el.findall("expr")
        if len(exprs) != 1:
            raise ISAError("expected a single expression in %s" % where)
        return self._expression(exprs[0])



def expr_equalities(text):
    """((FIELD, value), ...) that a conjunction of `{FIELD} == N` terms requires, else ()."""
    body = re.sub(r"/\*.*?\*/", " ", text, flags=re.S).strip().rstrip(";")
    out = []
    for term in body.split("&&"):
        m = re.fullmatch(r"\s*\(?\s*\{([A-Za-z0-9_]+)\}\s*==\s*(0[xX][0-9a-fA-F]+|\d+)\s*\)?\s*", term)
        if m:
            out.append((m.group(1), int(m.group(2), 0)))
    return tuple(out)


def select_gen(isa, gpu):
    """The bitsets that exist on `gpu`, by name, each with its parent chain checked and merged."""
    by_name = {}
    for b in isa.bitsets:
        by_name.setdefault(b.name, []).append(b)
    for name, variants in by_name.items():
        if len(variants) > 1 and any(v.size is not None or
                                     any(o.extends == name for o in isa.bitsets) for v in variants):
            raise ISAError("bitset %s is defined more than once but is not a leaf" % name)

    def resolve(name):
        cands = [b for b in by_name.get(name, ()) if b.gen_min <= gpu <= b.gen_max]
        if len(cands) > 1:
            raise ISAError("bitset %s: %d variants for gpu %d" % (name, len(cands), gpu))
        return cands[0] if cands else None

    chosen = {}
    for b in isa.bitsets:
        if b.name in chosen:
            continue
        sel = resolve(b.name)
        if sel is None:
            continue
        lo, hi, p = sel.gen_min, sel.gen_max, sel
        while p.extends is not None:
            parent = resolve(p.extends)
            if parent is None:
                if not by_name.get(p.extends):
                    raise ISAError("%s extends invalid type: %s" % (p.name, p.extends))
                break
            if (p.gen_min and p.gen_min < parent.gen_min) or \
                    (p.gen_max != GEN_ALL[1] and p.gen_max > parent.gen_max):
                raise ISAError("bitset %s has a gen range outside its parent's" % p.name)
            lo, hi, p = max(lo, parent.gen_min), min(hi, parent.gen_max), parent
        else:
            if lo <= gpu <= hi:
                chosen[b.name] = sel
    return chosen


def pattern_of(bs, chosen):
    """(match, dontcare, mask, field_mask) merged down the parent chain; refuses overlaps."""
    m, d, k, f = bs.match, bs.dontcare, bs.mask, bs.field_mask
    if bs.extends is not None:
        pm, pd, pk, pf = pattern_of(chosen[bs.extends], chosen)
        if (pm | pd | pk | pf) & (m | d | k | f):
            raise ISAError("bitset conflict in %s: %x" % (bs.name, (pm | pd | pk | pf) & (m | d | k | f)))
        m, d, k, f = m | pm, d | pd, k | pk, f | pf
    return m, d, k, f


def root_of(bs, chosen):
    while bs.extends is not None:
        bs = chosen[bs.extends]
    return bs


def validate(isa, chosen):
    """mesa's validate_isa() on the chosen generation."""
    size = {}
    for name, bs in chosen.items():
        size[name] = root_of(bs, chosen).size
    # a leaf is a bitset nothing extends in any generation (mesa's isa.leafs), so a parent whose
    # children all belong to other generations is not a leaf of this one
    extended = {o.extends for o in isa.bitsets}
    leaves = [n for n in chosen if n not in extended]
    for name, bs in chosen.items():
        for case in bs.cases:
            for fname, f in case.fields.items():
                if f.type == "assert":
                    continue
                if f.type == "float" and (f.high - f.low + 1) not in (16, 32):
                    raise ISAError("%s.%s: a float must be 16 or 32 bits" % (name, fname))
                if f.expr is None and f.high >= size[name]:
                    raise ISAError("%s.%s: invalid bit range: [%d, %d] is not in [0, %d]"
                                   % (name, fname, f.low, f.high, size[name] - 1))
                if f.type in BUILTIN_TYPES or f.type in isa.enums:
                    continue
                if f.type not in chosen:
                    raise ISAError("%s.%s: invalid type: %s" % (name, fname, f.type))
                if chosen[f.type].size is None:
                    raise ISAError("%s.%s: type %s is not a root bitset" % (name, fname, f.type))
                if f.high - f.low + 1 != size[f.type]:
                    raise ISAError("%s.%s: invalid size: %d vs %d"
                                   % (name, fname, f.high - f.low + 1, size[f.type]))
            if case.expr is not None and case.expr not in isa.expressions:
                raise ISAError("%s: unknown expression %s" % (name, case.expr))
    for name in leaves:
        m, d, k, f = pattern_of(chosen[name], chosen)
        full = (1 << size[name]) - 1
        if (k | f) != full:
            raise ISAError("leaf bitset %s has undefined bits: %x" % (name, ~(k | f) & full))
    for name, bs in chosen.items():
        for case in bs.cases:
            for f in case.fields.values():
                if f.expr is not None and f.expr not in isa.expressions:
                    raise ISAError("%s.%s: unknown expression %s" % (name, f.name, f.expr))
    return leaves


# ---------------------------------------------------------------------------------------------
# Output


def render(isa, chosen, leaves, gpu, sources):
    used_exprs = set()
    for bs in chosen.values():
        for c in bs.cases:
            if c.expr:
                used_exprs.add(c.expr)
            for f in c.fields.values():
                if f.expr:
                    used_exprs.add(f.expr)
    out = ["# Generated by scripts/gen_ir3_tables.py from mesa's isaspec XML (src/freedreno/isa,",
           "# MIT, Copyright 2020 Google, Inc.) for gpu_id %d; do not edit." % gpu,
           "# Regenerate: python scripts/gen_ir3_tables.py MESA_DIR   (mesa-25.2.7, the tinymesa",
           "# wheel's version; see the script's docstring). Inputs (sha256):"]
    for path, digest in sources:
        out.append("#   %s %s" % (path, digest))
    out += ["# fmt: off", "# flake8: noqa", "", "GPU_ID = %d" % gpu, "",
            "# expression name -> function of (f, gpu): f(FIELD) resolves a field in the current scope",
            "EXPRS = {"]
    for name in sorted(used_exprs):
        src, py = isa.expressions[name]
        out.append("    %r: lambda f, gpu: %s,  # %s" % (name, py, " ".join(src.split())[:80]))
    out += ["}", "", "# expression name -> the Python body of its function above (compiled decoding plans",
            "# inline it)", "EXPR_SOURCE = {"]
    for name in sorted(used_exprs):
        out.append("    %r: %r," % (name, isa.expressions[name][1]))
    out += ["}", "", "# expression name -> fields it reads; and the FIELD == N terms it requires (for the",
            "# assembler, which must make an override's expression true)", "EXPR_FIELDS = {"]
    for name in sorted(used_exprs):
        out.append("    %r: %r," % (name, tuple(sorted(set(re.findall(r"\{([A-Za-z0-9_]+)\}",
                                                                    isa.expressions[name][0]))))))
    out += ["}", "", "EXPR_EQ = {"]
    for name in sorted(used_exprs):
        eq = expr_equalities(isa.expressions[name][0])
        if eq:
            out.append("    %r: %r," % (name, eq))
    out += ["}", "", "# bitset -> {field: constant} written by mesa's encoder (<encode><map>)",
            "ENCODE_CONSTS = {"]
    for name, bs in chosen.items():
        if bs.encode_consts:
            out.append("    %r: %r," % (name, bs.encode_consts))
    out += ["}", "", "ENUMS = {"]
    for name in sorted(isa.enums):
        out.append("    %r: %r," % (name, isa.enums[name]))
    out += ["}", "",
            "# name -> (parent, root, match, dontcare, mask, cases); a case is (expr or None,",
            "# display or None, fields); a field is (name, low, high, type, expr, display, params,",
            "# assert value, call). match/dontcare/mask are merged down the parent chain.",
            "BITSETS = {"]
    for name, bs in chosen.items():
        m, d, k, _ = pattern_of(bs, chosen)
        root = root_of(bs, chosen)
        cases = []
        for c in bs.cases:
            fields = tuple((f.name, f.low, f.high, f.type, f.expr, f.display, f.params, f.val, f.call)
                           for f in c.fields.values())
            cases.append((c.expr, c.display, fields))
        out.append("    %r: (%r, %r, 0x%x, 0x%x, 0x%x, %r)," % (name, bs.extends, root.name, m, d, k,
                                                               tuple(cases)))
    out += ["}", "", "# root -> its leaves in description order (where decoding starts from)",
            "ROOTS = {"]
    roots = [n for n, b in chosen.items() if b.size is not None]
    for r in roots:
        out.append("    %r: (%d, %r)," % (r, chosen[r].size,
                                          tuple(n for n in leaves if root_of(chosen[n], chosen).name == r)))
    out += ["}", ""]
    return "\n".join(out)


def generate(mesa_dir, gpu=630):
    xml = os.path.join(mesa_dir, "src", "freedreno", "isa", "ir3.xml")
    if not os.path.exists(xml):
        raise ISAError("%s not found: MESA_DIR must be a mesa source tree" % xml)
    isa = ISA(xml)
    chosen = select_gen(isa, gpu)
    leaves = validate(isa, chosen)
    sources = []
    for path in isa.files:
        with open(path, "rb") as f:
            sources.append((os.path.relpath(path, mesa_dir), hashlib.sha256(f.read()).hexdigest()))
    return render(isa, chosen, leaves, gpu, sources)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mesa_dir", help="mesa source tree (mesa-25.2.7)")
    p.add_argument("--gpu", type=int, default=630, help="gpu_id whose generation to keep (630)")
    p.add_argument("-o", "--output", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "assembler", "ir3", "tables.py"))
    args = p.parse_args(argv)
    try:
        text = generate(args.mesa_dir, args.gpu)
    except ISAError as e:
        print("gen_ir3_tables: refusing the description: %s" % e, file=sys.stderr)
        return 1
    with open(args.output, "w") as f:
        f.write(text)
    print("wrote %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
