"""One line of mesa's ir3 disassembly syntax -> one 64-bit word.

The display templates of the bitset tree are read backwards: a line is matched against the
templates of every instruction form whose mnemonic fits, recursively through operand bitsets
(registers, multi-source operands) and <param> renames, binding the fields it shows. Fields the
text does not show (FULL, DST_CONV, the (r) bits that hold (nopN)...) are then searched, zero
first, until the word decodes to exactly the text the match implies; the decoder is the judge,
so an assembled word always disassembles back to the canonical form of its source.
"""
import os
import re
import struct
from itertools import product

from assembler.errors import AssemblerError

from . import isa
from . import templates
from .frames import bind, case_requirements, field_lookup, new_frame, require, solve
from .fieldtext import to_int
from .decoder import _c_float, _decode_word, _State

_U64 = (1 << 64) - 1
_INT = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|\d+)")
_HEX = re.compile(r"(?:0[xX])?[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)
_LABEL = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$]*")


_MAX_TRIES = 4096
_MAX_TRIES_PER_FORM = 512


def _reachable_cases(leaf):
    """The cases whose display find_display() can pick for `leaf`, in its order."""
    out = []
    for b in leaf.chain:
        for case in b.cases:
            if case.parts is not None:
                out.append(case)
                if case.expr is None:
                    return out
    return out


def _head(leaf, case):
    parts = case.parts
    for i, (kind, text) in enumerate(parts):
        if kind == "ref" and text == "NAME":
            tail = parts[i + 1][1] if i + 1 < len(parts) and parts[i + 1][0] == "lit" else ""
            return leaf.name + re.split(r"[ {]", tail, 1)[0]
    for kind, text in parts:
        if kind == "lit" and re.match(r"[a-z]", text):
            return text.split(" ", 1)[0]
    return ""


# per leaf: [(case, head)], per root leaf: reachable cases
_FORMS = {}
_SUBFORMS = {}


def _forms():
    if not _FORMS:
        for leaf in isa.INSTRUCTIONS:
            for case in _reachable_cases(leaf):
                head = _head(leaf, case)
                _FORMS.setdefault(head[:1], []).append((head, leaf, case))
    return _FORMS


# cat2 opcodes mesa's encoder treats as integer (ir3.h ir3_cat2_int()): an immediate source
# of these is an integer; of every other cat2 opcode, an index into the float lookup table
# (encode.c __multisrc_case), also where the index prints as a plain number (12..1023)
_CAT2_INT = frozenset(("add.u", "add.s", "sub.u", "sub.s", "cmps.u", "cmps.s", "min.u", "min.s",
                       "max.u", "max.s", "cmpv.u", "cmpv.s", "mul.u24", "mul.s24", "mull.u", "clz.s",
                       "absneg.s", "and.b", "or.b", "not.b", "xor.b", "bfrev.b", "clz.b", "shl.b",
                       "shr.b", "ashr.b", "mgen.b", "getbit.b", "cbits.b", "bary.f", "flat.b"))


def _subforms(root, leaf=None):
    """(leaf, case) forms of a sub-field, in the order the matcher tries them: the order of
    the description, but a float ALU op's immediate source tries the lookup table first."""
    flut = root == "#multisrc" and leaf is not None and leaf.category == 2 and \
        leaf.name not in _CAT2_INT
    forms = _SUBFORMS.get((root, flut))
    if forms is None:
        forms = [(lf, case) for lf in isa.LEAVES[root] for case in _reachable_cases(lf)]
        if flut:
            forms.sort(key=lambda fc: 0 if "flut" in fc[0].name else 1)
        _SUBFORMS[(root, flut)] = forms
    return forms


def _mnemonic(text):
    pos = 0
    while True:
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos < len(text) and text[pos] == "(":
            end = text.find(")", pos)
            if end < 0:
                break
            pos = end + 1
            continue
        break
    end = text.find(" ", pos)
    return text[pos:end if end >= 0 else len(text)]


_COMMA = re.compile(r"\s*,\s*")
_TIGHT = re.compile(r"\s*([-+<>\[\]])\s*")
_TIGHT_NEEDED = re.compile(r"\s[-+<>\[\]]|[-+<>\[\]]\s")
_RAW = re.compile(r"raw (\S+)")
_TRAILING_FLAGS = re.compile(r".*\S\s*\((?:sy|ss|jp|eq|sat|ul|rpt\d+|nop\d+)\)")


def normalize(text):
    """One spelling per line: single spaces, ", " between operands, none around -+<>[]."""
    text = " ".join(text.split())
    if " ," in text or "," in text.replace(", ", ""):
        text = _COMMA.sub(", ", text)
    if _TIGHT_NEEDED.search(text):
        text = _TIGHT.sub(r"\1", text)                 # "p[r0.x + 0]" -> "p[r0.x+0]"
    return text


class _Matcher:
    def __init__(self, text, pc, labels):
        self.text, self.pc, self.labels = text, pc, labels
        self.label_used = None

    # Each step yields (pos, frames, out) where frames is a dict id -> Frame (copied on write)
    # and out the canonical text so far (a tuple of strings).

    def match_parts(self, parts, i, pos, fid, frames, out):
        if i == len(parts):
            yield pos, frames, out
            return
        kind, item = parts[i]
        text = self.text
        if kind == "lit":
            p = pos
            for ch in item:
                if ch == " ":
                    while p < len(text) and text[p] == " ":
                        p += 1
                elif p < len(text) and text[p] == ch:
                    p += 1
                else:
                    return
            yield from self.match_parts(parts, i + 1, p, fid, frames, out + (item,))
            return
        for p2, fr2, out2 in self.match_ref(item, pos, fid, frames, out):
            yield from self.match_parts(parts, i + 1, p2, fid, fr2, out2)

    def match_ref(self, name, pos, fid, frames, out):
        frame = frames[fid]
        if name == "NAME":
            if self.text.startswith(frame.bitset.name, pos):
                yield pos + len(frame.bitset.name), frames, out + (frame.bitset.name,)
            return
        cands = field_lookup(frame.bitset, frame.case, name)
        if not cands:
            for pname, alias in frame.params:
                if alias == name:
                    yield from self.match_ref(pname, pos, frame.parent, frames, out)
                    return
            return
        for f in cands:
            if f.kind == "bitset":
                yield from self.match_bitset(f, pos, fid, frames, out)
                continue
            for p2, raw, canon in self.values(f, pos):
                if f.expr is not None:
                    # derived: bind or constrain what it reads; the decode check at the end
                    # holds the rest to what the text says
                    fr = solve(frames[fid], f, raw)
                    if fr is None:
                        continue
                    yield p2, dict(frames, **{fid: fr}), out + (canon,)
                    continue
                nf = bind(frames[fid], f, raw)
                if nf is None:
                    continue
                yield p2, dict(frames, **{fid: nf}), out + (canon,)

    def match_bitset(self, f, pos, fid, frames, out):
        # an override that prints nothing here comes after the cases that print nothing
        # by default: its expression would set fields the text says nothing about (isam's
        # SRC2_IMM_OFFSET under an empty offset), which mesa's encoder leaves 0
        deferred = []
        for r in self._match_bitset(f, pos, fid, frames, out):
            if r[3] and r[0] == pos:
                deferred.append(r[:3])
            else:
                yield r[:3]
        yield from deferred

    def _match_bitset(self, f, pos, fid, frames, out):
        for leaf, case in _subforms(f.type, frames["i"].bitset):
            sub_id = "%s/%s@%d" % (fid, f.name, len(frames))
            sub = new_frame(leaf, case, f.params, fid, f.low)
            if sub is None:
                continue
            fr = dict(frames)
            fr[sub_id] = sub
            for fn, name, truth in case_requirements(leaf, case):
                fr = require(fr, sub_id, fn, name, truth)
                if fr is None:
                    break
            if fr is None:
                continue
            for p2, fr2, out2 in self.match_parts(case.parts, 0, pos, sub_id, fr, out):
                s = fr2[sub_id]
                parent = fr2[fid]
                m = f.mask << f.low
                val = s.val & f.mask
                if parent.known & m and (parent.val >> f.low) & f.mask != val:
                    continue
                np = parent.copy()
                np.val = (np.val & ~m) | (val << f.low)
                np.known |= (s.known & f.mask) << f.low   # operand bits its text left open stay open
                if s.allowed:                             # and so do their constraints
                    np.allowed = dict(np.allowed)
                    for (low, width), vals in s.allowed.items():
                        np.allowed[(f.low + low, width)] = vals
                fr3 = dict(fr2)
                fr3[fid] = np
                del fr3[sub_id]
                yield p2, fr3, out2, case.expr is not None

    def values(self, f, pos):
        """(new pos, raw field value, canonical text) for each reading of the text at pos."""
        text, kind, width = self.text, f.kind, f.width
        mask = f.mask
        if f.expr is not None and width == 1 and kind not in ("bool", "bool_inv"):
            width, mask = 64, (1 << 64) - 1     # a derived field without width: any value
        if kind in ("bool", "bool_inv"):
            on, off = (1, 0) if kind == "bool" else (0, 1)
            if f.display is not None:
                if f.display and text.startswith(f.display, pos):
                    yield pos + len(f.display), on, f.display
                yield pos, off, ""
            else:
                if text.startswith("1", pos):
                    yield pos + 1, on, "1"
                if text.startswith("0", pos):
                    yield pos + 1, off, "0"
            return
        if kind == "enum":
            values = isa.tables.ENUMS[f.type]
            for v, disp in sorted(values.items(), key=lambda kv: -len(kv[1])):
                if v <= f.mask and text.startswith(disp, pos):
                    yield pos + len(disp), v, disp
            m = re.compile(r"\d+").match(text, pos)
            if m and int(m.group()) <= f.mask and int(m.group()) not in values:
                yield m.end(), int(m.group()), m.group()
            return
        if kind in ("offset", "uoffset"):
            m = _INT.match(text, pos)
            if m and m.group()[0] in "+-":
                v = to_int(m.group())
                if kind == "uoffset" and v > 0 and v <= mask:
                    yield m.end(), v, "+%d" % v
                if kind == "offset" and v != 0 and -(1 << (width - 1)) <= v < (1 << (width - 1)):
                    yield m.end(), v & mask, "%+d" % v
                if v == 0:
                    yield m.end(), 0, ""
            yield pos, 0, ""
            return
        if kind in ("branch", "absbranch"):
            m = _INT.match(text, pos)
            if m is None:
                lm = _LABEL.match(text, pos)
                if lm is None or self.labels is None or lm.group() not in self.labels:
                    if lm is not None:
                        self.label_used = lm.group()
                    return
                target = self.labels[lm.group()]
                v = target - self.pc if kind == "branch" else target
                end = lm.end()
            else:
                v, end = to_int(m.group()), m.end()
            if -(1 << (width - 1)) <= v < (1 << width):
                raw = v & mask
                yield end, raw, str(_sext(raw, width) if kind == "branch" or v < 0 else raw)
            return
        if kind == "int":
            m = _INT.match(text, pos)
            if m:
                v = to_int(m.group())
                if -(1 << (width - 1)) <= v < (1 << width):
                    raw = v & mask
                    yield m.end(), raw, str(_sext(raw, width))
            return
        if kind == "uint":
            m = _INT.match(text, pos)
            if m:
                v = to_int(m.group())
                if f.expr is not None or 0 <= v <= mask:
                    yield m.end(), v, str(v)
            return
        if kind == "hex":
            m = _HEX.match(text, pos)
            if m:
                v = int(m.group(), 16)
                if v <= mask:
                    yield m.end(), v, "%x" % v
            return
        if kind == "float":
            m = _FLOAT.match(text, pos)
            if m:
                x = float(m.group())
                try:
                    if width == 16:
                        raw = struct.unpack("<H", struct.pack("<e", x))[0]
                    else:
                        raw = struct.unpack("<I", struct.pack("<f", x))[0]
                except (OverflowError, struct.error):
                    return
                if m.group().lstrip("+-").lower() == "nan" and m.group().startswith("-"):
                    raw |= 1 << (width - 1)
                canon = _c_float(struct.unpack("<e" if width == 16 else "<f",
                                               struct.pack("<H" if width == 16 else "<I", raw))[0])
                yield m.end(), raw, canon
            return


def _sext(v, w):
    return v - (1 << w) if v >> (w - 1) & 1 else v


def _render(word, gpu, pc, labels):
    """The decoder's text for a candidate word, and its errors (dontcare bits aside)."""
    state = _State(gpu)
    if _decode_word(word, gpu, state) is None:
        return None, None
    errors = [e for e in state.errors if not e.startswith("dontcare")]
    return "".join(state.out), errors


def _unknown_fields(leaf, known):
    """(low, width) of fields the text did not bind, narrow ones first (searched exhaustively)."""
    full = (1 << 64) - 1
    missing = full & ~known
    spans = {}
    for b in leaf.chain:
        for case in b.cases:
            for f in case.fields.values():
                if f.expr is None and f.kind != "assert":
                    m = f.mask << f.low
                    if missing & m == m:
                        spans[(f.low, f.width)] = True
    out = [s for s in sorted(spans, key=lambda s: (s[1], s[0])) if s[1] <= 4]
    for low, width in out:
        missing &= ~(((1 << width) - 1) << low)
    for f in spans:
        missing &= ~(((1 << f[1]) - 1) << f[0])
    # bits inside operands that their text left open (a 1-bit BASE_LO), one by one
    out += [(b, 1) for b in range(64) if missing >> b & 1][:8]
    return out


def _assignments(spans):
    """Values for the unbound fields, fewest non-zero fields first."""
    yield {}
    n = len(spans)
    from itertools import combinations, product
    for k in range(1, n + 1):
        for combo in combinations(range(n), k):
            for vals in product(*[range(1, 1 << spans[i][1]) for i in combo]):
                yield dict(zip(combo, vals))


# IR3_ASM_VERIFY=1: every word a template gives is checked against the matcher's
VERIFY = os.environ.get("IR3_ASM_VERIFY", "") not in ("", "0")
USE_TEMPLATES = True


def encode_line(text, gpu=isa.GPU_ID, pc=0, labels=None):
    """Encode one instruction in mesa's syntax. Raises AssemblerError naming the problem.

    A line shaped like one the matcher has encoded before takes that line's template
    (templates.py); any other goes through the matcher below, and the next line of its shape
    gets a template (the decoder's plan learns the line's path then)."""
    norm = normalize(text)
    if not norm:
        raise AssemblerError("empty instruction")
    raw = _RAW.fullmatch(norm)
    if raw:                      # mesa's `raw` pseudo-instruction: the word as written
        try:
            value = to_int(raw.group(1))
        except ValueError:
            value = -1
        if not 0 <= value <= _U64:
            raise AssemblerError("raw takes one 64-bit word (0x0123456789abcdef), got %r" % raw.group(1))
        return value
    if norm[-1] == ")" and _TRAILING_FLAGS.fullmatch(norm):
        raise AssemblerError("flags after an instruction belong to the next one (as in mesa's "
                             "assembler): %r" % norm)
    word = templates.lookup(norm, gpu, pc, labels) if USE_TEMPLATES else None
    mnem = _mnemonic(norm)
    forms, leaves = _forms_for(mnem)
    if not forms:
        raise AssemblerError("unknown instruction %r" % mnem)
    if USE_TEMPLATES:
        if word is not None:
            if VERIFY:
                slow = _match(norm, forms, gpu, pc, labels)
                if slow != word:
                    raise AssemblerError("template gave %016x for %r, the matcher %016x"
                                         % (word, norm, slow))
            return word
    word = _match(norm, forms, gpu, pc, labels)
    if USE_TEMPLATES:
        templates.learned(norm, word, gpu, pc, labels)
    return word


_HALF_OPERAND = re.compile(r"(?:\((?:neg|abs|absneg|r|last|ei)\))*h")


def _operands(norm):
    """The operand texts of a normalized line (after the mnemonic)."""
    pos = 0
    while norm.startswith("(", pos):
        pos = norm.index(")", pos) + 1
        while norm.startswith(" ", pos):
            pos += 1
    sp = norm.find(" ", pos)
    return norm[sp + 1:].split(", ") if sp >= 0 else []


_FLAGS = re.compile(r"(?:\([a-z0-9_]+\))*")


def hint_fields(leaf, norm):
    """(mask, value) of the fields mesa's encoder derives from its IR where the text says
    nothing (isaspec <encode> maps of cat2 and cat3): FULL = the first source is not half,
    DST_CONV = the destination's precision differs from the first source's (never for p0).
    (0, 0) when there is nothing to say."""
    bits = _HINT_BITS.get(leaf)
    if bits is None:
        bits = _HINT_BITS[leaf] = _hint_positions(leaf)
    if not bits[0] and not bits[1]:
        return 0, 0
    ops = _operands(norm)
    if len(ops) < 2:
        return 0, 0
    dst_half = bool(_HALF_OPERAND.match(ops[0]))
    src_half = bool(_HALF_OPERAND.match(ops[1]))
    to_p0 = ops[0][_FLAGS.match(ops[0]).end():].startswith("p0.")
    full, conv = bits
    return full | conv, (0 if src_half else full) | (conv if dst_half != src_half and not to_p0 else 0)


_HINT_BITS = {}


def _hint_positions(leaf):
    """(FULL bit, DST_CONV bit) of a cat2/cat3 form as masks, 0 where it has none (the last
    plain 1-bit field of that name down the chain, as mesa's encoder fills it)."""
    out = {"FULL": 0, "DST_CONV": 0}
    if leaf.category in (2, 3):
        for b in leaf.chain:
            for case in b.cases:
                for name in out:
                    f = case.fields.get(name)
                    if f is not None and f.expr is None and f.width == 1:
                        out[name] = 1 << f.low
    return out["FULL"], out["DST_CONV"]


def hint_bits(leaf, norm, known):
    """hint_fields' bits for the fields not in `known`: what mesa's encoder would write there."""
    mask, value = hint_fields(leaf, norm)
    return value & mask & ~known


_FORMS_FOR = {}


def _forms_for(mnem):
    """The (head, leaf, case) forms a mnemonic may be, and their leaves."""
    r = _FORMS_FOR.get(mnem)
    if r is None:
        forms = [(h, leaf, case) for h, leaf, case in _forms().get(mnem[:1], ()) if mnem.startswith(h)]
        r = _FORMS_FOR[mnem] = (forms, list(dict.fromkeys(leaf for _, leaf, _ in forms)))
    return r


def _match(norm, forms, gpu, pc, labels):
    """The matcher: display templates read backwards, candidates judged by the decoder."""
    matcher = _Matcher(norm, pc, labels)
    tries = 0
    near = None
    for head, leaf, case in forms:
        first = new_frame(leaf, case, (), None, 0)
        if first is None:
            continue
        frames = {"i": first}
        for fn, name, truth in case_requirements(leaf, case):
            frames = require(frames, "i", fn, name, truth)
            if frames is None:
                break
        if frames is None:
            continue
        for pos, fr, out in matcher.match_parts(case.parts, 0, 0, "i", frames, ()):
            if pos != len(norm):
                near = near if near is not None and near[0] >= pos else (pos, leaf.name)
                continue
            top = fr["i"]
            canon = "".join(out)
            base = top.val
            for b in leaf.chain:       # constants mesa's encoder writes (stg's DST_OFF = 1)
                for fname, v in isa.tables.ENCODE_CONSTS.get(b.name, {}).items():
                    for f in field_lookup(leaf, case, fname)[:1]:
                        if f.expr is None and not top.known & (f.mask << f.low):
                            base |= (v & f.mask) << f.low
            # fields the text left open: constrained ones take their allowed values, the others
            # are searched, fewest non-zero first; the decoder judges each candidate
            cons = [(k, sorted(v)) for k, v in top.allowed.items()
                    if not top.known & (((1 << k[1]) - 1) << k[0])]
            cmask = 0
            for (low, width), _ in cons:
                cmask |= ((1 << width) - 1) << low
            spans = [sp for sp in _unknown_fields(leaf, top.known | cmask)]
            budget = tries + _MAX_TRIES_PER_FORM
            hint = hint_bits(leaf, norm, top.known | cmask)
            if hint:                 # what mesa's encoder would write there, first
                got, errors = _render(base | hint, gpu, pc, labels)
                tries += 1
                if got == canon and not errors:
                    return base | hint
            for cvals in product(*[v for _, v in cons]):
                cbase = base
                for ((low, _), _), v in zip(cons, cvals):
                    cbase |= v << low
                for assign in _assignments(spans):
                    word = cbase
                    for i, v in assign.items():
                        low, width = spans[i]
                        word |= v << low
                    got, errors = _render(word, gpu, pc, labels)
                    tries += 1
                    if got == canon and not errors:
                        return word
                    if tries > budget or tries > _MAX_TRIES:
                        break
                if tries > budget or tries > _MAX_TRIES:
                    break
    if matcher.label_used is not None and (labels is None or matcher.label_used not in labels):
        raise AssemblerError("undefined label %r" % matcher.label_used)
    if near is not None:
        raise AssemblerError("cannot encode %r: %s matches up to column %d (%r)"
                             % (norm, near[1], near[0] + 1, norm[near[0]:near[0] + 12]))
    raise AssemblerError("cannot encode %r as %s: no operand form fits" % (norm, "/".join(
        sorted({leaf.name for _, leaf, _ in forms}))))
