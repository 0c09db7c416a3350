"""One SASS statement (nvdisasm syntax) -> its 128-bit word, from the learned tables.

`encode(statement, arch, pc, control, labels)` tries the formats whose opcode matches: the
opcode tokens must be printable by the format's fixed tokens and modifier groups (in order),
and the operands must fit its operand list (operands a format hides at their default value may
be left out). The first format that fits (those ptxas wrote this spelling with first, then the
ones ptxas uses most) gives the word; bits nvdisasm does not print get ptxas's usual value.
Problems raise EncodeError with the 0-based column of the offending part.
"""
import functools

from . import aliases
from .decoder import control_problem, format_problem
from .holes import HoleError, hole_bits, write_hole
from .syntax import Operand, SyntaxProblem, format_hex, parse_operand
from .tables import canonical_arch, load

_KIND_WORDS = {"reg": "a register", "imm": "an immediate", "cbuf": "a constant c[bank][offset]",
               "mem": "an address [...]", "name": "a name (SR_*, B0 ...)", "target": "a branch target",
               "pair": "a register and a target", "set": "a set {..}", "label": "a label",
               "desc": "a memory descriptor desc[URn]"}


class EncodeError(ValueError):
    def __init__(self, msg, column=0):
        super().__init__(msg)
        self.column = column


def _setbits(w, bits, value):
    for i, b in enumerate(bits):
        w = (w & ~(1 << b)) | (((value >> i) & 1) << b)
    return w


def _getbits(w, bits):
    v = 0
    for i, b in enumerate(bits):
        v |= ((w >> b) & 1) << i
    return v


class _Index:
    """Formats by opcode name, most used first, with per-group token options."""

    def __init__(self, arch):
        self.tables = load(arch)
        self.by_name = {}
        for opclass, cls in self.tables.CLASSES.items():
            for key, fmt, fixed in leaf_formats(cls["formats"]):
                names = set()
                first = fmt["mnem"][0] if fmt["mnem"] else None
                if isinstance(first, str):
                    names.add(first)
                elif first is not None:
                    for t in fmt["groups"][first][1].values():
                        if t:
                            names.add(t.split(".")[0])
                entry = (opclass, cls["fbits"], key, fmt, _options(fmt), fixed)
                for n in names:
                    self.by_name.setdefault(n, []).append(entry)
        for lst in self.by_name.values():
            lst.sort(key=lambda e: -e[3].get("uses", 0))
        self.cache = {}


def leaf_formats(formats):
    """(format key, leaf format, [(bits, value)] its split path fixes)."""
    for key, node in formats.items():
        stack = [(node, ())]
        while stack:
            n, path = stack.pop()
            if "split" in n:
                for v, sub in n["formats"].items():
                    stack.append((sub, path + ((n["split"], v),)))
            else:
                yield key, n, path


def _options(fmt):
    """Per group: [(value, tokens, condition)] with the preferred value first among equal
    spellings; then the values whose text an operand at its zero register hides ("hide_mod"),
    with no tokens and the condition (word bits, raw value, text hidden) the operands must meet."""
    hidden = {}
    for i, v, bits, raw in fmt.get("hide_mod", ()):
        hidden.setdefault(i, []).append((v, (), (bits, raw, fmt["groups"][i][1][v])))
    out = []
    for i, g in enumerate(fmt["groups"]):
        table = g[1]
        pref = g[2] if len(g) > 2 else None
        opts = sorted(table.items(), key=lambda kv: (kv[0] != pref, kv[0]))
        out.append([(v, tuple(t.split(".")) if t else (), None) for v, t in opts] + hidden.get(i, []))
    return out


@functools.lru_cache(maxsize=None)
def _index(arch):
    return _Index(arch)


def _match_mnem(items, options, toks):
    """Group values printing exactly `toks` through `items` ({group: value}, with the conditions
    of hidden ones under ("if", group)), or None."""
    n = len(toks)

    def rec(i, j):
        if i == len(items):
            return {} if j == n else None
        item = items[i]
        if isinstance(item, str):
            if j < n and toks[j] == item:
                return rec(i + 1, j + 1)
            return None
        for v, t, cond in options[item]:
            if toks[j:j + len(t)] == t:
                r = rec(i + 1, j + len(t))
                if r is not None:
                    r[item] = v
                    if cond is not None:
                        r[("if", item)] = cond
                    return r
        return None
    return rec(0, 0)


def _fit(spec, op):
    """(decoration value, hole values) when the parsed operand fits the operand spec."""
    kind = spec["kind"]
    if op.kind == "label":
        raise EncodeError("label %r was not resolved" % op.holes[0])
    if kind == "target":
        if op.kind == "imm" and op.shape == ("hex",):
            op = Operand("target", ("hex",), op.holes)
        elif op.kind != "target":
            return None
    if kind == "pair" and op.kind == "pair" and op.shape not in spec["shapes"].values():
        # 'R2 0x140' is a target where the pair's number moves with the address (RET), a plain
        # offset where it does not (BRX R2 -0x90)
        ka, sa, kb, sb = op.shape
        if kb == "imm" and sb == ("hex",):
            op = Operand("pair", (ka, sa, "target", ("hex",)), op.holes)
    if kind == "imm" and op.kind == "imm":
        for dv, shape in spec["shapes"].items():
            if shape == op.shape:
                return dv, op.holes
            v = op.holes[0]
            if shape == ("float",) and op.shape == ("hex",):
                return dv, ("raw", v)
            if shape == ("hex",) and op.shape == ("float",) and float(v).is_integer():
                return dv, (int(v),)
        return None
    if op.kind != kind:
        return None
    for dv, shape in spec["shapes"].items():
        if shape == op.shape:
            return dv, op.holes
    if kind in ("mem", "cbuf"):
        # an address written without its RZ base (or with it) still fits
        for dv, shape in spec["shapes"].items():
            if Operand(kind, shape, op.holes).norm_shape() == op.norm_shape() and \
                    _same_base(kind, shape, op):
                return dv, op.holes
    return None


def _same_base(kind, shape, op):
    i = 2 if kind == "mem" else 4
    j = 1 if kind == "mem" else 5
    if not shape[i]:
        return not op.shape[i]            # the instruction has no base register
    return not op.shape[i] or shape[j] == op.shape[j]


def _shown(fmt, gv):
    """{operand index: 1 printed always / 0 never} for the modifier values gv."""
    out = {}
    for k, spec in enumerate(fmt["ops"]):
        for i, v, show in spec.get("hide_by", ()):
            if gv.get(i) == v:
                out[k] = show
                break
    return out


def _match_ops(specs, ops, shown=None):
    """[(spec, fit or None when hidden)] covering all operands, or None."""
    shown = shown or {}

    def rec(k, m):
        if k == len(specs):
            return [] if m == len(ops) else None
        spec = specs[k]
        if shown.get(k) == 0:
            r = rec(k + 1, m)
            return None if r is None else [(spec, None, None)] + r
        if m < len(ops):
            f = _fit(spec, ops[m])
            if f is not None:
                r = rec(k + 1, m + 1)
                if r is not None:
                    return [(spec, f, m)] + r
        if "hide" in spec and shown.get(k) != 1:
            r = rec(k + 1, m)
            if r is not None:
                return [(spec, None, None)] + r
        return None
    return rec(0, 0)


def _spec_bits(spec):
    """The word bits an operand's numbers are read from."""
    return {b for h in spec["holes"] if h[0] == "bits" for b in hole_bits(h)}


def _forbidden(fmt, word):
    forbid = fmt.get("forbid")
    if forbid:
        groups = fmt["groups"]
        for i, vi, j, vj in forbid:
            if _getbits(word, groups[i][0]) == vi and _getbits(word, groups[j][0]) == vj:
                return True
    return False


def _write_operand(word, spec, fit, pc):
    dv, holes = fit
    if spec.get("dbits"):
        word = _setbits(word, spec["dbits"], dv)
    if holes and holes[0] == "raw":
        h = spec["holes"][0]
        bits = hole_bits(h)
        v = holes[1]
        if v < 0 or v >> len(bits):
            raise HoleError("%s does not fit in %d bits" % (format_hex(v), len(bits)))
        return _setbits(word, bits, v)
    for h, v in zip(spec["holes"], holes):
        word = write_hole(h, word, v, pc)
    return word


def _forms(idx, toks, arch):
    """The formats whose mnemonic prints toks, each with its group values and the word its fixed
    parts make, the one ptxas wrote with this spelling first (computed once per spelling)."""
    hit = idx.cache.get(toks)
    if hit is not None:
        return hit
    cands = idx.by_name.get(toks[0])
    if not cands:
        raise EncodeError("unknown opcode %r for %s" % (toks[0], arch))
    mnem_ok = []
    for opclass, fbits, key, fmt, options, fixed in cands:
        gv = _match_mnem(fmt["mnem"], options, toks)
        if gv is not None:
            conds = tuple(gv.pop(k) for k in [k for k in gv if isinstance(k, tuple)])
            word = _setbits(opclass, fbits, key)
            dmask, dval = fmt["default"]
            word = (word & ~dmask) | dval
            for bits, v in fixed:
                word = _setbits(word, bits, v)
            for gi, v in gv.items():
                word = _setbits(word, fmt["groups"][gi][0], v)
            mnem_ok.append((opclass, fbits, key, fmt, gv, fixed, word, conds))
    if not mnem_ok:
        mods = sorted({t for c in cands for o in c[4] for opt in o for t in opt[1]} |
                      {t for c in cands for t in c[3]["mnem"] if isinstance(t, str)} - {toks[0]})
        raise EncodeError("%s: no %s form takes the modifiers %s (modifiers seen with %s: %s)"
                          % (".".join(toks), arch, "." + ".".join(toks[1:]) if toks[1:] else "(none)",
                             toks[0], " ".join("." + m for m in mods)))
    # the same text can fit formats of two classes: the one ptxas wrote with this spelling first
    spelled = ".".join(toks)
    mnem_ok.sort(key=lambda c: (spelled not in c[3].get("spellings", ()), bool(c[7])))
    idx.cache[toks] = mnem_ok
    return mnem_ok


def encode(st, arch, pc=0, control_bits=None, operands=None):
    """Statement -> 128-bit word. `operands` may give pre-parsed operands (labels resolved).
    control_bits: bits 105..121 already shifted (None: all defaults)."""
    arch = canonical_arch(arch)
    idx = _index(arch)
    toks = aliases.strip((st.opcode,) + tuple(st.modifiers))
    if operands is None:
        operands = []
        for text, col in zip(st.operands, st.columns):
            try:
                operands.append(parse_operand(text))
            except SyntaxProblem as e:
                raise EncodeError(str(e), col) from None
    mnem_ok = _forms(idx, toks, arch)
    errors = []
    bf16_view = "BF16_V2" in toks or \
        (toks[0] == "MUFU" and "BF16" in toks)                          # see decoder._bf16_view
    for opclass, fbits, key, fmt, gv, fixed, word, conds in mnem_ok:
        assign = _match_ops(fmt["ops"], operands, _shown(fmt, gv))
        if assign is None:
            continue
        if st.guard is not None:
            gfile, gnum, gneg = st.guard
            if fmt["guard"] is None or fmt["guard"] != gfile:
                errors.append(("%s cannot take a @%s guard" % (".".join(toks), gfile), 0))
                continue
            word = _setbits(word, (12, 13, 14, 15), gnum | (8 if gneg else 0))
        else:
            word = _setbits(word, (12, 13, 14, 15), 7)
        try:
            # hidden operands first: a shown one writing their hide bits is caught below
            for spec, fit, m in assign:
                if fit is None:
                    word = _setbits(word, spec["hide"][0], spec["hide"][1])
            for spec, fit, m in assign:
                if fit is not None:
                    if bf16_view and spec["kind"] == "imm" and spec["holes"][0][:2] == ("float", "f32"):
                        # printed truncated to bf16: only the upper half is written (the lower
                        # one overlaps the register fields)
                        h = spec["holes"][0]
                        spec = dict(spec, holes=[("float", "bf16", h[2][16:])])
                    try:
                        word = _write_operand(word, spec, fit, pc)
                    except HoleError as e:
                        raise EncodeError("operand %d (%s): %s" % (m + 1, st.operands[m] if m < len(st.operands)
                                                                 else "", e),
                                          st.columns[m] if m < len(st.columns) else 0)
        except EncodeError as e:
            errors.append((str(e), e.column))
            continue
        why = _hiding_problem(toks, assign, word, _shown(fmt, gv), st)
        if why:
            errors.append(why)
            continue
        if any(_getbits(word, bits) != v for bits, v in fixed) or _getbits(word, fbits) != key:
            continue        # an operand's decoration moved the word into another format
        unmet = [c for c in conds if _getbits(word, c[0]) != c[1]]
        if unmet:
            # a modifier left out that only an operand at its zero register hides
            bits, _, text = unmet[0]
            m = next((m for spec, fit, m in assign if m is not None and set(bits) <= _spec_bits(spec)), None)
            where = "of operand %d %r " % (m + 1, st.operands[m]) if m is not None and m < len(st.operands) \
                else ""
            errors.append(("%s: this form prints .%s unless a register %sis the zero one (RZ, URZ or PT)"
                           % (".".join(toks), text, where),
                           st.columns[m] if m is not None and m < len(st.columns) else 0))
            continue
        if _forbidden(fmt, word):
            continue        # modifiers this class does not take together (I2F.U32 in the 64-bit class)
        if control_bits is not None:
            word = (word & ~(((1 << 17) - 1) << 105)) | control_bits
            # a scoreboard the instruction takes none of, a .reuse on a slot that takes none, or
            # a format told apart by a reuse bit this control refuses
            why = control_problem(word) or format_problem(word, fmt)
            if why:
                errors.append(("%s: %s" % (".".join(toks), why), 0))
                continue
        return word
    if errors:
        raise EncodeError(errors[0][0], errors[0][1])
    raise _operand_problem(toks, mnem_ok, operands, st)


def _hiding_problem(toks, assign, word, shown, st):
    """(message, column) when operands that nvdisasm shows or hides together were given apart
    (VIMNMX's two predicate outputs are both hidden while the first is PT), else None."""
    for k, (spec, fit, m) in enumerate(assign):
        hide = spec.get("hide")
        if hide is None or shown.get(k) is not None:
            continue
        at = _getbits(word, hide[0]) == hide[1]
        if fit is None and not at:
            prev = next((mm for _, f, mm in reversed(assign[:k]) if f is not None), None)
            col = st.columns[prev] if prev is not None and prev < len(st.columns) else 0
            return ("%s: an operand after operand %d is missing (this form prints it with the others "
                    "given)" % (".".join(toks), (prev or 0) + 1), col)
        if fit is not None and at and not set(hide[0]) <= _spec_bits(spec):
            return ("%s: operand %d %r cannot be printed with the operands before it as given (an "
                    "operand it comes with is missing or at the value that hides both)"
                    % (".".join(toks), m + 1, st.operands[m] if m < len(st.operands) else ""),
                    st.columns[m] if m < len(st.columns) else 0)
    return None


def _operand_problem(toks, mnem_ok, operands, st):
    """Say which operand does not fit the forms that take these modifiers."""
    best = None
    for opclass, fbits, key, fmt, gv, fixed, _word, _conds in mnem_ok:
        specs = fmt["ops"]
        # how many leading operands fit, hidden ones skipped
        k = m = 0
        while k < len(specs) and m < len(operands):
            if _fit(specs[k], operands[m]) is not None:
                m += 1
            elif "hide" not in specs[k]:
                break
            k += 1
        want = [_KIND_WORDS.get(specs[k]["kind"], specs[k]["kind"])] if k < len(specs) else []
        if best is None or m > best[0]:
            best = (m, want, len([s for s in specs if "hide" not in s]), len(specs))
        elif m == best[0]:
            best = (m, sorted(set(best[1]) | set(want)), best[2], best[3])
    m, want, nmin, nmax = best
    name = ".".join(toks)
    if m < len(operands):
        if want:
            return EncodeError("%s: operand %d %r does not fit here (expected %s)"
                               % (name, m + 1, st.operands[m], " or ".join(want)), st.columns[m])
        return EncodeError("%s: too many operands (%d; this form takes %d)" % (name, len(operands), nmax),
                           st.columns[m])
    return EncodeError("%s: missing operand %d (expected %s)" % (name, m + 1, " or ".join(want) or "more"))
