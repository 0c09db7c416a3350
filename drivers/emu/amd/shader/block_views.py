"""The variant of a compiled block for a group whose waves are a slice of the batch (the usual
case): its registers are views of the register files made once per (batch state, slice) and kept,
instead of being indexed out of the files at every operand and written back through them.

Indexing is what a block spends most of its time on: ``V[3, sel]`` makes a new view per read
(about 330 ns) and ``V[3, sel] = x`` is a slow assignment (about 780 ns), where reading a bound
view costs nothing and ``view[...] = x`` about 175 ns.  The variant is a rewrite of the block's
generated source (``slice_source``), so every emitter's code benefits unchanged:

* ``V[r, sel]``, ``S[r, sel]``, ``S[r, sel][:, None]`` (an SGPR as a column), ``LS(S[r, sel])``
  (an SGPR repeated over the lanes), ``SCC[sel]``, ``st.pc[sel]`` and the registers of the
  64-bit helpers' pairs become local names, unpacked at entry from one tuple (``R[spec]``) that the state's
  ``RegisterViews`` for the slice builds at the block's first run and keeps;
* an assignment to one of them becomes an assignment into the view (``v[...] = x``), and
  ``out=`` / ``where=`` writes go into the view as they went into the indexed register;
* the branches for index-array groups (``if IX:``) are dropped.

A group given by wave indices (fancy indexing copies) runs the same code on copies of its
registers gathered at entry (``gather_source``), the written ones scattered back before a memory,
LDS or SMEM closure and before returning, what a closure writes gathered again after it; a block
calling any other closure runs its original function with cheaper reads (``index_source``).

The views are the same memory as the indexed registers, so aliasing is what it was (numpy's
ufuncs buffer an ``out=`` that overlaps an input).  They stay valid while the state keeps its
arrays: ``WaveState.init_from`` (the only place that allocates them) starts a new cache, and
``register_views`` also rebuilds the entry of a state whose arrays are not the cached ones."""
import re

import numpy as np

from .block_runtime import _join_pair, _lanes, count_nonzero, readonly
from .state import WAVE32

_D64 = np.dtype(np.uint64)

# register references of the generated code -> (kind, the local's name)
_REFERENCE = re.compile(r"\bV\[(\d+), sel\]|\bS\[(\d+), sel\]\[:, None\]|\bLS\(S\[(\d+), sel\]\)|\bS\[(\d+), sel\]"
                        r"|\bSCC\[sel\]|\bst\.pc\[sel\]|\bJ\(V, (\d+), sel\)|\bPUT64F\(V, (\d+), sel, ")
_KINDS = (("v", "Vr"), ("c", "Sc"), ("l", "Sl"), ("s", "Sr"))
_SETTERS = re.compile(r"\b((?:Vr|Sr)\d+|Scc|Pc) = ")


class Spec:
    """The registers a block's slice variant binds (``regs``: (kind, number) pairs); hashed by
    identity, so that looking its views up costs one dictionary probe."""
    __slots__ = ("regs",)

    def __init__(self, regs):
        self.regs = tuple(regs)


def _name(kind, r):
    return {"v": "Vr", "c": "Sc", "l": "Sl", "s": "Sr", "f": "Vf", "i": "Vi", "k": "Ku", "b": "Sb"}[kind] + str(r) \
        if r is not None \
        else {"scc": "Scc", "pc": "Pc", "one": "One", "zero": "Zero"}[kind]


# ``view[...] = np.ufunc(...)`` -> ``np.ufunc(..., out=view)``: no result array, no copy.  Only
# uint32 ufuncs of register views and prepared uint32 constants (the SALU forms): the result
# type is the view's, and numpy buffers an ``out=`` that overlaps an input.
_UFUNCS = ("bitwise_or", "bitwise_and", "bitwise_xor", "add", "subtract", "multiply", "maximum", "minimum",
           "left_shift", "right_shift", "invert")
_INTO = re.compile(r"^(\s*(?:(?:if|elif) [^:=]*: |else: )?)((?:Sr|Vr)\d+)\[\.\.\.\] = np\.(" + "|".join(_UFUNCS)
                   + r")\((.*)\)$")
_ARGUMENT = re.compile(r"^(?:(?:Sr|Vr)\d+|C\[\d+\]|np\.(?:" + "|".join(_UFUNCS) + r")\((?:Sr|Vr)\d+\))$")
# a lane mask packed into an SGPR: the bits straight into the SGPR's bytes (no uint32 view)
_PACKED = re.compile(r"^(\s*)Sr(\d+)\[\.\.\.\] = PK\((.*)\)$")
# a VGPR's bits as float32 / int32: a view kept like the register's own
_TYPED = re.compile(r"\bVr(\d+)\.view\((F32|I32)\)")
# a VGPR and a uint32 scalar (a constant count, mask or operand) -> with uint32 lanes holding it
# (numpy converts a scalar operand slowly; the result is the same uint32 array)
_SCALAR = re.compile(r"\bnp\.(" + "|".join(_UFUNCS[:-1]) + r")\((Vr\d+), (?:U32\((\d+)\)|(shift\d+))\)")
# ``Scc[...] = r != 0`` of a uint32 SALU result -> ``np.minimum(r, One, out=Scc)`` (One: uint32 ones)
# an SGPR or SCC compared with 0 -> with uint32 zeros (numpy converts a Python 0 slowly)
_ZERO_TEST = re.compile(r"\b(Sr\d+|Scc) (==|!=) 0(?![\w.])")
# a conditional branch on a register being 0 / not 0: the register itself to the branch
_BRANCH_TEST = re.compile(r"\bBR\(st, Pc, (Sr\d+|Scc) (==|!=) 0, ")
_SCC_BOOL = re.compile(r"\bScc\[\.\.\.\] = (\w+) != 0(?=;|$)")


def _into_view(line):
    m = _INTO.match(line)
    if m is None:
        return line
    args = _split(m.group(4))
    if args is None or not all(_ARGUMENT.match(a) for a in args):
        return line
    return f"{m.group(1)}np.{m.group(3)}({', '.join(args)}, out={m.group(2)})"


_RESULT = re.compile(r"^(\s*)(?:if (C\[\d+\]): )?d([a-z]) = (np\.(?:" + "|".join(_UFUNCS) + r"))\((.*?)\)(\.view\(U32\))?$")


def _write_into(lines, origin, bind):
    """A result computed as one ufunc of the block's views and written at once to a VGPR,
    ``dX = np.f(...)`` and its write lines, becomes ``np.f(..., out=the register)`` when every
    lane is on (else copied in where EXEC is set: faster than ``where=``), provided nothing reads
    ``dX`` afterwards.  A float form (``if C[k]: dX = np.f(...).view(U32)``, the library's call
    in ``else:``) writes into the register's float32 view when its flag is set and every lane is
    on."""
    out, where = [], []
    i = 0
    while i < len(lines):
        done = _rewrite_result(lines, i, bind)
        if done is None:
            out.append(lines[i])
            where.append(origin[i])
            i += 1
            continue
        new, used = done
        out += new
        where += [origin[i]] * len(new)
        i += used
    return out, where


_UINT32_ARGUMENT = re.compile(r"^(?:Vr\d+|Sc\d+|Ku\d+|C\[\d+\])$")


def _rewrite_carry(lines, i):
    """``dX = np.add(a, b)`` read by the carry-out lines after it (``mX = ...``) before it is
    written: computed into the register when every lane is on (the register's lanes are then
    ``dX``), when a and b are uint32 lanes (so is their sum) and no carry line reads the
    register."""
    m = re.match(r"^(\s*)d([a-z]) = (np\.(?:add|subtract))\(([^()]*)\)$", lines[i])
    if m is None:
        return None
    indent, tag, ufunc, args = m.groups()
    args = _split(args)
    if not all(_UINT32_ARGUMENT.match(a) for a in args):
        return None
    j = i + 1
    while j < len(lines) and lines[j].startswith(f"{indent}m{tag} = "):
        j += 1
    if j == i + 1 or j + 1 >= len(lines):
        return None
    name = f"d{tag}"
    w = re.match(rf"^{indent}if em is None: Vr(\d+)\[\.\.\.\] = {name}$", lines[j])
    if w is None or lines[j + 1] != f"{indent}else: CP(Vr{w.group(1)}, {name}, casting='unsafe', where=em)" \
            or not _dead(lines, j + 2, name):
        return None
    register = re.compile(rf"\bV[rfi]{w.group(1)}\b")
    if any(register.search(line) for line in lines[i:j]):
        return None
    call = f"{ufunc}({', '.join(args)}"
    return [f"{indent}if em is None: {name} = {call}, out=Vr{w.group(1)})",
            f"{indent}else: {name} = {call})"] + lines[i + 1:j] + \
        [f"{indent}if em is not None: CP(Vr{w.group(1)}, {name}, casting='unsafe', where=em)"], j + 2 - i


def _rewrite_result(lines, i, bind):
    carry = _rewrite_carry(lines, i)
    if carry is not None:
        return carry
    m = _RESULT.match(lines[i])
    if m is None:
        return None
    indent, flag, tag, ufunc, args, view = m.groups()
    split = _split(args)
    if split is None or any("=" in a for a in split) or (flag is None) != (view is None):
        return None
    name = f"d{tag}"
    j = i + 1
    if flag is not None:                    # the library's call in the else: branch
        if j >= len(lines) or lines[j] != f"{indent}else:":
            return None
        j += 1
        while j < len(lines) and lines[j].startswith(indent + " "):
            j += 1
    if j + 1 >= len(lines):
        return None
    w = re.match(rf"^{indent}if em is None: (Vr(\d+))\[\.\.\.\] = {name}$", lines[j])
    if w is None or lines[j + 1] != f"{indent}else: CP({w.group(1)}, {name}, casting='unsafe', where=em)" \
            or not _dead(lines, j + 2, name):
        return None
    call = f"{ufunc}({', '.join(split)}"
    if flag is None:
        return [f"{indent}if em is None: {call}, out={w.group(1)}, casting='unsafe')",
                f"{indent}else: CP({w.group(1)}, {call}), casting='unsafe', where=em)"], j + 2 - i
    # the float32 result straight into the register's float32 view (a float32 ufunc: a result of
    # another type would not have been the (n, 32) uint32 lanes the write lines take)
    register = bind("f", int(w.group(2)))
    return [f"{indent}if {flag} and em is None: {call}, out={register})", f"{indent}else:"] + \
        ["    " + line for line in lines[i:j + 2]], j + 2 - i


def _dead(lines, start, name):
    """Whether the local ``name`` is assigned anew before any line from ``start`` reads it."""
    mention = re.compile(rf"\b{name}\b")
    for line in lines[start:]:
        if not mention.search(line):
            continue
        m = re.match(rf"^\s*(?:if C\[\d+\]: )?{name} = (.*)$", line)
        return m is not None and not mention.search(m.group(1))
    return True


def _split(text):
    """The top-level comma-separated arguments of a call's text, or None when unbalanced."""
    args, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 0:
            args.append(text[start:i].strip())
            start = i + 1
    if depth:
        return None
    args.append(text[start:].strip())
    return args


def slice_source(source, names=None):
    """(the source of the slice variant of a block's function, its Spec, for each of its lines
    the line of ``source`` it comes from).  The function takes ``(st, sel, n, C, R)``; ``names``:
    the globals of the block (the values of its named constants)."""
    regs = {}
    names = names or {}

    def lanes_constant(m):
        value = names.get(m.group(4)) if m.group(4) else np.uint32(int(m.group(3)))
        if type(value) is not np.uint32:
            return m.group(0)
        return f"np.{m.group(1)}({m.group(2)}, {bind('k', int(value))})"

    def bind(kind, r=None):
        regs.setdefault((kind, r), len(regs))
        return _name(kind, r)

    def reference(m):
        text = m.group(0)
        for i, (kind, _prefix) in enumerate(_KINDS):
            if m.group(i + 1) is not None:
                return bind(kind, int(m.group(i + 1)))
        if m.group(5) is not None:
            r = int(m.group(5))
            return f"JP({bind('v', r)}, {bind('v', r + 1)})"
        if m.group(6) is not None:
            r = int(m.group(6))
            return f"PUT64P({bind('v', r)}, {bind('v', r + 1)}, "
        return bind("scc") if text.startswith("SCC") else bind("pc")

    lines = source.splitlines()
    out, origin = [], []
    header, first = lines[0], lines[1]
    assert header == "def block(st, sel, n, C):" and first.strip().startswith("V = st.vregs")
    dropped_if = None                      # indentation of a dropped ``if IX:`` line
    for number, line in enumerate(lines[2:], start=3):
        body = line.lstrip()
        indent = line[:len(line) - len(body)]
        if body.startswith("if IX:"):
            dropped_if = indent
            continue
        if body.startswith("elif IX:"):
            continue
        if dropped_if == indent and body.startswith("elif "):
            line = indent + body[2:]
        dropped_if = None
        line = _REFERENCE.sub(reference, line)
        line = _SETTERS.sub(lambda m: f"{m.group(1)}[...] = ", line)
        line = _into_view(line)
        line = _PACKED.sub(lambda m: f"{m.group(1)}{bind('b', int(m.group(2)))}[...] = PB({m.group(3)}, None, 'little')",
                           line)
        line = _TYPED.sub(lambda m: bind("f" if m.group(2) == "F32" else "i", int(m.group(1))), line)
        line = _SCALAR.sub(lanes_constant, line)
        line = _BRANCH_TEST.sub(lambda m: f"{'BRZ' if m.group(2) == '==' else 'BRNZ'}(st, Pc, {m.group(1)}, ", line)
        line = line.replace("np.where(Scc != 0, ", "CSEL(Scc, ")
        line = _ZERO_TEST.sub(lambda m: f"np.{'equal' if m.group(2) == '==' else 'not_equal'}({m.group(1)}, "
                                        f"{bind('zero')})", line)
        if "Scc[...] = " in line:
            line = _SCC_BOOL.sub(lambda m: f"np.minimum({m.group(1)}, {bind('one')}, out=Scc)", line)
        if "IX" in re.sub(r"'[^']*'", "", line):
            raise AssertionError(f"index-array branch left in a block's slice variant: {line.strip()}")
        out.append(line)
        origin.append(number)
    out, origin = _write_into(out, origin, bind)
    names = sorted(regs, key=regs.get)
    prologue = ["def block(st, sel, n, C, R):", "    V = st.vregs; S = st.sregs; SCC = st.scc"]
    if names:
        prologue.append(f"    {', '.join(_name(k, r) for k, r in names)}, = R[SPEC]")
    return "\n".join(prologue + out) + "\n", Spec(names), [1, 2, 2][:len(prologue)] + origin


# reads of one register of an index-array group (not an assignment's target): a row of the file
# first, then the waves (numpy's fancy indexing of a 1-D row, or ``take``, is several times
# faster than indexing both axes at once)
_GATHER = re.compile(r"\b([VS])\[(\d+), sel\](?! = )")


# an SGPR or SCC of every wave of the group assigned (the whole statement): ``put`` into the row
_PUT_LINE = re.compile(r"^(\s*(?:(?:if|elif) [^:]*: |else: )?)(S\[(\d+), sel\]|SCC\[sel\]) = ([^;]+)$")
_PUT_NAME = re.compile(r"\b(S\[(\d+), sel\]|SCC\[sel\]) = (\w+)(?=;)")


def _put(target, row, value):
    return f"{'SCC' if row is None else f'S[{row}]'}.put(sel, {value})"


def index_source(source):
    """The source of the variant of a block's function for a group given by wave indices (the
    same lines, the same line numbers): register reads index the register's row, then the
    waves, and an SGPR's or SCC's value (n,) is ``put`` into its row.  Lines with ``out=`` or
    ``CP(`` are left alone (the slice-only branches)."""
    lines = source.splitlines()
    out = []
    for line in lines:
        if "out=" not in line and "CP(" not in line:
            m = _PUT_LINE.match(line)
            if m is not None:
                line = m.group(1) + _put(m.group(2), m.group(3), m.group(4))
            else:
                line = _PUT_NAME.sub(lambda m: _put(m.group(1), m.group(2), m.group(3)), line)
            line = _GATHER.sub(lambda m: f"V[{m.group(2)}].take(sel, 0)" if m.group(1) == "V"
                               else f"S[{m.group(2)}][sel]", line)
        out.append(line)
    return "\n".join(out) + "\n"


# -- index-array groups without closures: the slice variant over gathered copies --------------
_WRITES = (re.compile(r"\b((?:Vr|Vf|Vi|Sr|Sb)\d+|Scc|Pc)\[\.\.\.\] ="),     # view[...] = x
           re.compile(r"\bout=((?:Vr|Vf|Vi|Sr|Sb)\d+|Scc)\b"),               # ufunc(..., out=view)
           re.compile(r"\bCP\(((?:Vr|Vf|Vi|Sr|Sb)\d+),"),                    # copyto(view, ...)
           re.compile(r"\bPUT64P\((Vr\d+), (Vr\d+),"),                       # a 64-bit pair
           re.compile(r"\b\w+ = ((?:Vr|Vf|Vi|Sr|Sb)\d+|Scc)(?=;|$)"))       # a local naming it
_BASE = {"Vr": "Vr", "Vf": "Vr", "Vi": "Vr", "Sr": "Sr", "Sb": "Sr", "Sc": "Sr", "Sl": "Sr"}


# closures a gathered block may call: they read registers (flushed before the call) and write no
# register but their destinations (gathered again after it)
_GATHER_SAFE = frozenset(("GLOBAL", "SCRATCH", "FLAT", "DS", "SMEM"))


def _closure_writes(step):
    """The (VGPRs, SGPRs) the closure of ``step`` writes, or None when it is not one a gathered
    block may call."""
    from .waits import effect_of
    if step.ins.family not in _GATHER_SAFE or step.ins.second is not None:
        return None
    effect = effect_of(step.ins, step.next_pc - step.size)
    return set(effect.vwrite), set(effect.swrite)


def _line_writes(line):
    """The registers (("Vr" | "Sr", number)) a line of a slice variant may write."""
    names = set()
    for pattern in _WRITES:
        for m in pattern.finditer(line):
            names.update(m.groups())
    if re.search(r"(?:\+|-|\*|\||&|\^|<<|>>)= ", line):       # an augmented assignment: every
        names.update(re.findall(r"\b(?:Vr|Sr)\d+\b", line))      # register it names
    out = set()
    for name in names:
        if name in ("Scc", "Pc"):
            out.add((name, None))
        elif name[:2] in _BASE and name[2:].isdigit():
            out.add((_BASE[name[:2]], int(name[2:])))
    return out


def _scatter(regs):
    lines = []
    for prefix, r in sorted(regs, key=lambda k: (k[0], -1 if k[1] is None else k[1])):
        if prefix == "Scc":
            lines.append("SCC.put(sel, Scc)")
        elif prefix == "Pc":
            lines.append("st.pc.put(sel, Pc)")
        elif prefix == "Vr":
            lines.append(f"V[{r}, sel] = Vr{r}")
        else:
            lines.append(f"S[{r}].put(sel, Sr{r})")
    return "; ".join(lines)


def gather_source(source, spec, calls=None):
    """The variant of a block's slice variant (``source``, ``spec``: slice_source's) for a group
    given by wave indices: each register it names is gathered into a copy at entry, the code
    runs on the copies as on views, the registers it has written are scattered back before a
    memory, LDS or SMEM closure (``calls``: name -> Step) runs and before it returns (or an op
    of its own raises), and what a closure writes is gathered again after it.  Returns (the
    source, for each of its lines the line of ``source`` it comes from), or None when the block
    reads the state otherwise (another closure, a helper given the register files)."""
    calls = calls or {}
    lines = source.splitlines()
    first = 3 if len(spec.regs) else 2
    body = lines[first:]
    state = re.compile(r"\b(?:st|sel|V|S|SCC|R)\b")
    closures = {}
    for line in body:
        text = line.strip()
        m = re.fullmatch(r"(f\d+)\(st, sel\)", text)
        if m is not None and line.startswith("    ") and not line.startswith("     "):
            writes = calls.get(m.group(1))
            writes = writes if writes is None or isinstance(writes, tuple) else _closure_writes(writes)
            if writes is None:
                return None
            closures[m.group(1)] = writes
        elif state.search(text) and not (text.startswith(("return BR(st, Pc, ", "return BRZ(st, Pc, ", "return BRNZ(st, Pc, ")) or
                                          re.fullmatch(r"return f\d+\(st, sel\)", text)):
            return None
    bound, gather, derived = set(), [], []
    for kind, r in spec.regs:
        name = _name(kind, r)
        if kind in ("v", "f", "i", "s", "b", "c", "l"):
            bound.add(("Vr" if kind in ("v", "f", "i") else "Sr", r))
            derived += {"f": [f"{name} = Vr{r}.view(np.float32)"], "i": [f"{name} = Vr{r}.view(I32)"],
                        "b": [f"{name} = Sr{r}.view(np.uint8)"], "c": [f"{name} = Sr{r}[:, None]"],
                        "l": [f"{name} = LS(Sr{r})"]}.get(kind, [])
        elif kind == "scc":
            gather.append("Scc = SCC[sel]")
        elif kind == "pc":
            gather.append("Pc = st.pc[sel]")
        elif kind in ("one", "zero", "k"):
            value = 1 if kind == "one" else 0 if kind == "zero" else r
            gather.append(f"{name} = LANES(n, {value}, {1 if kind == 'k' else 0})")
        else:
            return None
    for prefix, r in sorted(bound):
        gather.append(f"Vr{r} = V[{r}].take(sel, 0)" if prefix == "Vr" else f"Sr{r} = S[{r}][sel]")
    out = ["def block(st, sel, n, C):", "    V = st.vregs; S = st.sregs; SCC = st.scc; c_ = 0"]
    out += ["    " + line for line in gather + derived] + ["    try:"]
    origin = [1, 2] + [2] * (len(gather) + len(derived) + 1)
    dirty, everything = set(), set()
    for number, line in enumerate(body, start=first + 1):
        text = line.strip()
        indent = line[:len(line) - len(text)]
        m = re.fullmatch(r"(f\d+)\(st, sel\)", text)
        if m is not None and m.group(1) in closures:
            vwrite, swrite = closures[m.group(1)]
            again = [f"Vr{r}[...] = V[{r}].take(sel, 0)" for r in sorted(vwrite) if ("Vr", r) in bound] + \
                    [f"Sr{r}[...] = S[{r}][sel]" for r in sorted(swrite) if ("Sr", r) in bound]
            parts = ([_scatter(dirty)] if dirty else []) + [f"c_ = 1; {text}; c_ = 0"] + again
            line = indent + "; ".join(parts)
            dirty = set()
        else:
            written = _line_writes(line)
            dirty |= written
            everything |= written
            if text.startswith(("return BR(", "return BRZ(", "return BRNZ(")):
                dirty.add(("Pc", None))
                line = f"{indent}taken_ = {text[7:]}; {_scatter(dirty) or 'pass'}; return taken_"
            elif text.startswith("return "):
                line = f"{indent}{_scatter(dirty) or 'pass'}; {text}"
        out.append("    " + line)
        origin.append(number)
    # an op of the block that raises leaves what it wrote since the last closure in the copies
    # (a closure that raises had everything before it scattered)
    out += ["    except BaseException:", f"        if not c_: {_scatter(everything) or 'pass'}", "        raise"]
    origin += [origin[-1]] * 3
    return "\n".join(out) + "\n", origin


_LANES = {}


def _constant_lanes(n, value, lanes):
    """Read-only uint32 constants of a gathered group: (n, 32) lanes of ``value`` (``lanes``) or
    (n,) (the One / Zero of SCC and branch tests)."""
    key = (n, value, lanes)
    a = _LANES.get(key)
    if a is None:
        if len(_LANES) >= 1024:
            _LANES.clear()
        a = _LANES[key] = readonly(np.full((n, WAVE32) if lanes else (n,), value, np.uint32))
    return a


class RegisterViews(dict):
    """The views of one slice of a batch state's registers, per block Spec: a tuple of views in
    the Spec's order, made at the first lookup."""
    __slots__ = ("vregs", "sregs", "scc", "pc", "sel")

    def __init__(self, st, sel):
        super().__init__()
        self.vregs, self.sregs, self.scc, self.pc, self.sel = st.vregs, st.sregs, st.scc, st.pc, sel

    def __missing__(self, spec):
        views = self[spec] = tuple(self._view(kind, r) for kind, r in spec.regs)
        return views

    def _view(self, kind, r):
        sel = self.sel
        if kind == "v":
            return self.vregs[r, sel]
        if kind == "s":
            return self.sregs[r, sel]
        if kind == "c":
            return self.sregs[r, sel][:, None]
        if kind == "l":
            return _lanes(self.sregs[r, sel])
        if kind == "b":                               # an SGPR's bytes
            return self.sregs[r, sel].view(np.uint8)
        if kind == "f":
            return self.vregs[r, sel].view(np.float32)
        if kind == "i":
            return self.vregs[r, sel].view(np.int32)
        if kind == "k":                               # uint32 lanes holding r
            return readonly(np.full(self.vregs[0, sel].shape, r, np.uint32))
        if kind in ("one", "zero"):                   # uint32 (n,) constants
            return readonly((np.ones_like if kind == "one" else np.zeros_like)(self.scc[sel]))
        return self.scc[sel] if kind == "scc" else self.pc[sel]


def register_views(st, sel):
    """The RegisterViews of the slice ``sel`` of ``st`` (kept in ``st.views``)."""
    key = (sel.start, sel.stop, sel.step)
    views = st.views.get(key)
    if views is None or views.vregs is not st.vregs or views.sregs is not st.sregs:
        if len(st.views) >= 256:
            st.views.clear()
        views = st.views[key] = RegisterViews(st, sel)
    return views


def _cselect(scc, a, b):
    """np.where(scc != 0, a, b) of s_cselect: a or b themselves when SCC is uniform (the usual
    case), which the caller copies into the destination."""
    k = count_nonzero(scc)
    if k == scc.shape[0]:
        return a
    return b if not k else np.where(scc != 0, a, b)


def _put64_pair(lo, hi, value, em, n):
    """block_runtime._put64_forward into a VGPR pair given as the views of its registers."""
    v = value if type(value) is np.ndarray and value.dtype is _D64 and value.flags.c_contiguous \
        else np.ascontiguousarray(value, np.uint64)
    dwords = v.view(np.uint32)                       # (..., 2k): low, high, low, high...
    if em is None:
        lo[...] = dwords[..., 0::2]
        hi[...] = dwords[..., 1::2]
        return v if v.shape == (n, WAVE32) else None
    np.copyto(lo, dwords[..., 0::2], where=em)
    np.copyto(hi, dwords[..., 1::2], where=em)
    return None


HELPERS = {"JP": _join_pair, "PUT64P": _put64_pair, "PB": np.packbits, "LANES": _constant_lanes, "CSEL": _cselect}


def slice_function(block):
    """(the slice variant of a compiled Block, for each of its lines the line of the block's
    source it comes from)."""
    source, spec, origin = slice_source(block.source, block._globals)
    namespace = dict(block._globals, SPEC=spec, **HELPERS)
    exec(compile(source, f"<block 0x{block.pc:x} slice>", "exec"), namespace)
    return namespace["block"], origin


def index_function(block):
    """(the variant of a compiled Block for index-array groups, None or, for the gathered one,
    the line of the block's source each of its lines comes from)."""
    source, spec, origin = slice_source(block.source, block._globals)
    gathered = gather_source(source, spec, block._calls)
    namespace = dict(block._globals, **HELPERS)
    if gathered is None:
        exec(compile(index_source(block.source), f"<block 0x{block.pc:x} indices>", "exec"), namespace)
        return namespace["block"], None
    exec(compile(gathered[0], f"<block 0x{block.pc:x} gathered>", "exec"), namespace)
    return namespace["block"], [origin[line - 1] for line in gathered[1]]
