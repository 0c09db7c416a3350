"""Learn SASS instruction formats from nvdisasm (the oracle): one format from one word.

Used by scripts/gen_sass_tables.py; scripts/sass_learn_class.py puts the formats of an opcode
class together and checks them. An opcode class is the low 12 bits of an instruction word
(opcode and operand form). Starting from words ptxas wrote, every bit outside the scheduling
control is flipped and the words are disassembled; comparing each text with the seed's tells
what each bit does:

  guard      the @P predicate (bits 12..15)
  hole       changes one number of one operand (a register, an immediate, an offset ...)
  decoration changes how one operand looks (-x, |x|, !p, .reuse, .H1_H1, .64 ...)
  presence   makes an operand appear or vanish (an operand printed only off its default)
  mnemonic   changes the opcode's modifiers only (.GE -> .LT, .U32 ...)
  format     changes the operand list in any other way (the class gets one format per value)
  invalid    nvdisasm refuses the word
  (nothing)  a bit nvdisasm does not print; ptxas's value is kept

Mnemonic bits are grouped (neighbouring bits acting on the same modifier), every value of every
group is disassembled, and the groups' print order is read off words that set several at once.
Each hole is fitted to a bit mapping (registers and integers: value bit <- word bit, signed or
not; floats: f32 / f16 / bf16 / f64 upper half; branch targets: relative to the instruction;
special-register names: a table). Decorations are enumerated per operand.

Every word is disassembled at two base addresses: numbers that move with the address are
branch targets and are kept relative to the instruction.
"""
import collections
import time
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from assembler.sass import aliases  # noqa: E402
from assembler.sass.holes import hole_bits  # noqa: E402
from assembler.sass.syntax import Operand, SyntaxProblem, parse_operand, split_statement  # noqa: E402

CONTROL_BITS = frozenset(range(105, 122))
CANDIDATE_BITS = tuple(b for b in range(12, 128) if b not in CONTROL_BITS)
GUARD_BITS = (12, 13, 14, 15)
BASES = (0x10000,)
M128 = (1 << 128) - 1


class Parsed:
    """A disassembled word: guard, tokens (opcode + modifiers), operands, semicolon style."""
    __slots__ = ("text", "guard", "tokens", "operands", "semicolon", "pc")

    def __init__(self, text, guard, tokens, operands, semicolon, pc=0):
        self.text, self.guard, self.tokens = text, guard, tokens
        self.operands, self.semicolon, self.pc = operands, semicolon, pc

    def key(self):
        return (self.guard, self.tokens, self.operands, self.semicolon)

    def __eq__(self, other):
        return isinstance(other, Parsed) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return "<%s>" % self.text


def _parse(text):
    st = split_statement(text)
    ops = tuple(parse_operand(o) for o in st.operands)
    return Parsed(text, st.guard, aliases.strip((st.opcode,) + st.modifiers), ops, st.semicolon)


def _relative(a, b, pc_a, delta):
    """Operands of the same word printed at two addresses: numbers that moved are targets."""
    if a.kind == "imm" and b.kind == "imm" and a.shape == ("hex",) and b.holes[0] - a.holes[0] == delta:
        return Operand("target", ("hex",), (a.holes[0] - pc_a,))
    if a.kind == "pair" and b.kind == "pair" and a.holes != b.holes:
        ka, sa, kb, sb = a.shape
        if kb == "imm" and b.holes[-1] - a.holes[-1] == delta:
            return Operand("pair", (ka, sa, "target", sb), a.holes[:-1] + (a.holes[-1] - pc_a,))
    return None


class Oracle:
    """nvdisasm behind a memo; words come back parsed, branch targets made relative.

    Each batch is disassembled once, laid out twice in one file: word i at BASE + 16*i and
    again at BASE + 16*(n + i). Numbers that differ by 16*n between the copies are branch
    targets."""

    def __init__(self, nvd, arch, cache_path=None):
        self.nvd, self.arch = nvd, arch
        self.memo = {}
        self.unnamed = {}            # word -> operand texts, for words refused for a '???' operand
        self.words_asked = 0
        self.batches = 0
        self.raw = None
        if cache_path:
            import shelve
            self.raw = shelve.open(cache_path)

    def fetch(self, words):
        need = [w for w in dict.fromkeys(words) if w not in self.memo]
        if self.raw is not None:
            for w in list(need):
                got = self.raw.get("%032x" % w)
                if got is not None:
                    self._keep(w, got)
            need = [w for w in need if w not in self.memo]
        self.last_new = len(need)
        if not need:
            return
        self.words_asked += len(need)
        self.batches += 1
        n = len(need)
        texts = self.nvd.disassemble_words(need + need, self.arch, base=BASES[0])
        for i, w in enumerate(need):
            args = (texts[i], texts[n + i], BASES[0] + 16 * i, 16 * n)
            self._keep(w, args)
            if self.raw is not None:
                self.raw["%032x" % w] = args
        if self.raw is not None:
            self.raw.sync()

    def get(self, words):
        self.fetch(words)
        return [self.memo[w] for w in words]

    def _keep(self, w, args):
        self.memo[w] = p = self._normalize(*args)
        if p is None and args[0] is not None and "???" in args[0]:
            self.unnamed[w] = tuple(o.strip() for o in split_statement(args[0]).operands)

    def _normalize(self, a, b, pc, delta):
        if a is None or b is None:
            return None
        if any("???" in o for o in split_statement(a).operands):
            # an operand nvdisasm has no name for: printed with padding that depends on the
            # rest of the listing, so it cannot be reproduced; counted as refused
            return None
        try:
            pa = _parse(a)
            pa.pc = pc
            if a == b:
                return pa
            pb = _parse(b)
        except (SyntaxProblem, ValueError) as e:
            raise RuntimeError("cannot parse nvdisasm's %r: %s" % (a, e))
        ops = list(pa.operands)
        for i, (x, y) in enumerate(zip(pa.operands, pb.operands)):
            if x != y:
                r = _relative(x, y, pc, delta)
                if r is None:
                    raise RuntimeError("%r at two addresses differs beyond a target: %r" % (a, b))
                ops[i] = r
        return Parsed(a, pa.guard, pa.tokens, tuple(ops), pa.semicolon, pc)


def run_all(oracle, gens, log=None):
    """Drive learning generators together: each yields the words it needs next; the requests
    of all of them go to nvdisasm as one batch per round. Returns {key: result or exception}."""
    results = {}
    active = {}
    for key, g in gens.items():
        active[key] = (g, None)
    while active:
        requests = {}
        for key, (g, send) in list(active.items()):
            try:
                req = g.send(send) if send is not None else next(g)
            except StopIteration as e:
                results[key] = e.value
                del active[key]
                continue
            except Unlearnable as e:
                results[key] = e
                del active[key]
                continue
            requests[key] = req
        allw = [w for req in requests.values() for w in req]
        t0 = time.time()
        calls = oracle.nvd.calls
        oracle.fetch(allw)
        if log:
            log("  round: %d learners active, %d words (%d new), %d nvdisasm runs, %.1fs"
                % (len(requests), len(allw), oracle.last_new, oracle.nvd.calls - calls, time.time() - t0))
        for key, req in requests.items():
            active[key] = (active[key][0], [oracle.memo[w] for w in req])
    return results


def bit(w, b):
    return (w >> b) & 1


def flip(w, bits):
    for b in bits:
        w ^= 1 << b
    return w


def setbits(w, bits, value):
    for i, b in enumerate(bits):
        w = (w & ~(1 << b)) | (((value >> i) & 1) << b)
    return w


def getbits(w, bits):
    v = 0
    for i, b in enumerate(bits):
        v |= ((w >> b) & 1) << i
    return v


class Unlearnable(Exception):
    pass


# ----------------------------------------------------------------------------- one format

class Format:
    """What one value of the format bits looks like (see module docstring)."""

    def __init__(self):
        self.guard = None            # 'P' / 'UP' / None (no guard seen)
        self.mnem = []               # fixed token (str) or group index (int), in print order
        self.groups = []             # [(bits, {value: tokens or None})]
        self.ops = []                # [OpSpec]
        self.seed = None
        self.dontcare = set()
        self.invalid = set()

    def __repr__(self):
        return "Format(%s, %s)" % (self.mnem, self.ops)


class OpSpec:
    def __init__(self, kind):
        self.kind = kind
        self.dbits = ()              # decoration bits
        self.shapes = {}             # decoration value -> shape
        self.holes = []              # per hole: ('bits', [(wbit, vbit)], signed_width, const) ...
        self.hide = None             # (bits, value): the operand is not printed at this value

    def bits(self):
        out = set(self.dbits)
        for h in self.holes:
            out |= set(hole_bits(h))
        return out

    def __repr__(self):
        return "Op(%s %r %s hide=%s)" % (self.kind, self.shapes, self.holes, self.hide)


def classify(seed, other):
    """How `other` differs from `seed` (both Parsed): a tuple describing the change."""
    if other is None:
        return ("invalid",)
    if other == seed:
        return ("none",)
    if other.guard != seed.guard and (other.tokens, other.operands) == (seed.tokens, seed.operands):
        return ("guard",)
    if other.guard != seed.guard:
        return ("format", "guard")
    if other.operands == seed.operands:
        if other.tokens != seed.tokens:
            return ("mnemonic",)
        return ("semicolon",)
    if other.tokens != seed.tokens or other.semicolon != seed.semicolon:
        return ("format", "tokens+operands")
    a, b = seed.operands, other.operands
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            i = diff[0]
            x, y = a[i], b[i]
            if x.kind == y.kind and x.norm_shape() == y.norm_shape():
                hd = [j for j in range(len(x.holes)) if x.holes[j] != y.holes[j]]
                if not hd:
                    return ("decoration", i)
                if len(hd) == 1 and (x.shape == y.shape or _base_shown_only(x, y)):
                    return ("hole", i, hd[0])
                return ("format", "holes")
            if x.kind == y.kind and x.holes == y.holes:
                return ("decoration", i)
        return ("format", "operands")
    # operands shown or hidden together: one at k, or a run from k (VIMNMX's two predicate
    # outputs, both hidden while the first is PT)
    if len(b) > len(a):
        n = len(b) - len(a)
        for k in range(len(a) + 1):
            if b[:k] + b[k + n:] == a:
                return ("insert", k)
    if len(b) < len(a):
        n = len(a) - len(b)
        for k in range(len(b) + 1):
            if a[:k] + a[k + n:] == b:
                return ("remove", k)
    return ("format", "count")


def _base_shown_only(x, y):
    """x and y differ only in whether an RZ base register of an address is printed."""
    if x.kind == "mem":
        return not x.shape[2] or not y.shape[2]
    if x.kind == "cbuf":
        return not x.shape[4] or not y.shape[4]
    return False


def common_prefix(a, b):
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def parallel(gens):
    """Run learning generators side by side inside another one: their requests are merged
    into one. Returns {key: result or Unlearnable}."""
    results = {}
    active = {k: (g, None) for k, g in gens.items()}
    while active:
        reqs = {}
        for k, (g, send) in list(active.items()):
            try:
                req = g.send(send) if send is not None else next(g)
            except StopIteration as e:
                results[k] = e.value
                del active[k]
                continue
            except Unlearnable as e:
                results[k] = e
                del active[k]
                continue
            reqs[k] = req
        if not reqs:
            break
        allw = list(dict.fromkeys(w for r in reqs.values() for w in r))
        got = yield allw
        m = dict(zip(allw, got))
        for k, req in reqs.items():
            active[k] = (active[k][0], [m[w] for w in req])
    return results


class Learner:
    """The analyses are generators: they yield lists of words and receive nvdisasm's parsed
    answers (see run_all), so that many of them share each nvdisasm run."""

    def __init__(self, oracle):
        self.o = oracle

    def need(self, words):
        """Parsed answers for words; asks (yields) only for those not known yet."""
        if any(w not in self.o.memo for w in words):
            return (yield list(words))
        return [self.o.memo[w] for w in words]

    # -- one word ------------------------------------------------------------------------
    def analyze(self, w, depth=0):
        """Learn the format of word w (a generator). Returns (Format, format bits)."""
        res = yield from self.need([w] + [w ^ (1 << b) for b in CANDIDATE_BITS])
        seed, flipped = res[0], dict(zip(CANDIDATE_BITS, res[1:]))
        if seed is None:
            raise Unlearnable("seed %032x is refused by nvdisasm" % w)
        cls = {b: classify(seed, t) for b, t in flipped.items()}
        inserts = {}
        for b, c in cls.items():
            if c[0] == "insert":
                inserts.setdefault(c[1], []).append(b)
        if inserts and depth < 3:
            # show the hidden operands: every bit that shows one, flipped together, keeps it
            # shown under any single flip (a predicate hidden at PT=7 becomes P0; P1, P2, P4)
            bits = [b for k, v in sorted(inserts.items()) for b in v]
            return (yield from self._shown(w, seed, flip(w, bits), depth))
        # operands a flip shows, but one of them at a value nvdisasm has no name for (VIMNMX's
        # second predicate output at PT beside a first one off PT prints '???7', counted as
        # refused): that flip with another bit, one that changes nothing here, shows them named
        seed_ops = split_statement(seed.text).operands
        unnamed = {b: self.o.unnamed[w ^ 1 << b] for b, c in cls.items()
                   if c[0] == "invalid" and w ^ 1 << b in self.o.unnamed}
        grown = sorted(b for b, ops in unnamed.items() if len(ops) > len(seed_ops))
        if grown and depth < 3:
            quiet = [b for b, c in cls.items() if c[0] == "none"]
            pairs = [(b, c) for b in grown for c in quiet if 0 < abs(b - c) <= 8]
            res = yield from self.need([w ^ 1 << b ^ 1 << c for b, c in pairs])
            for (b, c), r in zip(pairs, res):
                if classify(seed, r)[0] == "insert":
                    return (yield from self._shown(w, seed, w ^ 1 << b ^ 1 << c, depth))
        # an address whose RZ base is not printed: show it (all its bits flipped: R0)
        hidden_base = [b for b, c in cls.items() if c[0] == "hole" and c[2] == 1 and
                       seed.operands[c[1]].kind in ("mem", "cbuf") and not seed.operands[c[1]].shape[
                           2 if seed.operands[c[1]].kind == "mem" else 4]]
        if hidden_base and depth < 3:
            return (yield from self.analyze(flip(w, hidden_base), depth + 1))
        # an operand one flip away from its hidden value: move it away (all its hole bits
        # flipped) so that every flip of its bits shows a value
        near = set()
        for c in cls.values():
            if c[0] == "remove":
                near |= {b for b, d in cls.items() if d[0] == "hole" and d[1] == c[1]}
        # likewise a register one flip away from a value nvdisasm has no name for
        for ops in unnamed.values():
            diff = [i for i in range(len(ops)) if len(ops) == len(seed_ops) and ops[i] != seed_ops[i]]
            if len(diff) == 1 and ops[diff[0]].startswith("???") and seed.operands[diff[0]].kind == "reg":
                near |= {b for b, d in cls.items() if d[0] == "hole" and d[1] == diff[0]}
        if near and depth < 3:
            return (yield from self.analyze(flip(w, sorted(near)), depth + 1))
        fmt = Format()
        fmt.seed = w
        fbits = {b for b, c in cls.items() if c[0] in ("format", "insert", "remove")}
        fmt.invalid = {b for b, c in cls.items() if c[0] == "invalid"}
        fmt.dontcare = {b for b, c in cls.items() if c[0] in ("none", "semicolon")}
        fmt.guard = self._guard(seed, flipped)
        holes, decor = {}, {}
        for b, c in cls.items():
            if c[0] == "hole":
                holes.setdefault((c[1], c[2]), []).append(b)
            elif c[0] == "decoration":
                decor.setdefault(c[1], []).append(b)
        mbits = sorted(b for b, c in cls.items() if c[0] == "mnemonic")
        groups = yield from self._group_bits(w, seed, mbits, fmt.invalid, flipped)
        specs = []
        for i, op in enumerate(seed.operands):
            spec = OpSpec(op.kind)
            spec.dbits = tuple(sorted(decor.get(i, ())))
            if len(spec.dbits) > 8:
                raise Unlearnable("operand %d has %d decoration bits" % (i, len(spec.dbits)))
            specs.append(spec)
        # everything else this analysis needs, in one request
        pre = []
        for g in groups:
            pre += [setbits(w, g, v) for v in range(1 << len(g))]
        for spec in specs:
            pre += [setbits(w, spec.dbits, v) for v in range(1 << len(spec.dbits))]
        yield from self.need(pre)
        yield from self._build_groups(fmt, w, seed, groups)
        for i, (op, spec) in enumerate(zip(seed.operands, specs)):
            yield from self._decorations(spec, w, seed, i)
            for j in range(len(op.holes)):
                h = yield from self._hole(w, seed, flipped, i, j, sorted(holes.get((i, j), ())))
                spec.holes.append(h)
        fmt.ops = specs
        # small operands (predicates, masks) may vanish at one value: try them all
        small = [(i, sorted(spec.bits())) for i, spec in enumerate(specs)]
        small = [(i, bits) for i, bits in small if bits and len(bits) <= 6]
        yield from self.need([setbits(w, bits, v) for _, bits in small for v in range(1 << len(bits))])
        for i, bits in small:
            vals = list(range(1 << len(bits)))
            res = yield from self.need([setbits(w, bits, v) for v in vals])
            hidden = [v for v, r in zip(vals, res) if r is not None and
                      r.operands == seed.operands[:i] + seed.operands[i + 1:]]
            # or the operand vanishes with the ones after it (VIMNMX's predicate outputs: the
            # second is not printed either while the first is PT)
            runs = [(v, n) for v, r in zip(vals, res) if r is not None and not hidden
                    for n in range(2, len(seed.operands) - i + 1)
                    if r.operands == seed.operands[:i] + seed.operands[i + n:]]
            if len(hidden) == 1:
                specs[i].hide = (tuple(bits), hidden[0])
                fbits -= set(bits)
            elif hidden:
                raise Unlearnable("operand %d of %r vanishes at %d values" % (i, seed.text, len(hidden)))
            elif len(runs) == 1:
                v, n = runs[0]
                for k in range(i, i + n):
                    if specs[k].hide is None:
                        specs[k].hide = (tuple(bits), v)
                fbits -= set(bits)
        return fmt, fbits

    def _shown(self, w, seed, shown, depth):
        """The format of word w learned from `shown`, a word of it that prints the operands w
        hides; those are hidden at w's values."""
        fmt, fb = yield from self.analyze(shown, depth + 1)
        vis = (yield from self.need([fmt.seed]))[0]
        j = 0
        for i, op in enumerate(vis.operands):
            if j < len(seed.operands) and op == seed.operands[j]:
                j += 1
                continue
            spec = fmt.ops[i]
            if spec.hide is None and spec.bits():
                bits_i = tuple(sorted(spec.bits()))
                spec.hide = (bits_i, getbits(w, bits_i))
        return fmt, fb

    @staticmethod
    def _guard(seed, flipped):
        if seed.guard is not None:
            return seed.guard[0]
        t = flipped.get(12)
        if t is not None and t.guard is not None:
            return t.guard[0]
        return None

    # -- mnemonic groups -------------------------------------------------------------------
    def _group_bits(self, w, seed, mbits, invalid, flipped):
        """Group the mnemonic bits into fields: two nearby bits belong together when flipping
        both prints something else than each flip's tokens together, or when one of them alone
        is refused but both are not (a field whose single-bit values are undefined)."""
        cand = sorted(set(mbits) | {b for b in invalid
                                    if any(0 < abs(b - c) <= 3 for c in set(mbits) | invalid)})
        pairs = [(b, c) for b in cand for c in cand if b < c <= b + 4]
        res = yield from self.need([w ^ (1 << b) ^ (1 << c) for b, c in pairs])
        parent = {b: b for b in cand}

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        useful = set(mbits)
        base = collections.Counter(seed.tokens)
        for (b, c), r in zip(pairs, res):
            sb, sc = flipped[b], flipped[c]
            if r is None:
                if sb is not None and sc is not None and b in useful and c in useful:
                    parent[find(b)] = find(c)
                continue
            if r.operands != seed.operands or r.guard != seed.guard:
                continue
            if sb is None or sc is None:
                parent[find(b)] = find(c)
                useful |= {b, c}
                continue
            if collections.Counter(r.tokens) != collections.Counter(sb.tokens) + \
                    collections.Counter(sc.tokens) - base:
                parent[find(b)] = find(c)
        comps = collections.defaultdict(list)
        for b in cand:
            comps[find(b)].append(b)
        groups = sorted(sorted(g) for g in comps.values() if set(g) & useful)
        for g in groups:
            if len(g) > 8:
                raise Unlearnable("modifier field of %d bits: %s" % (len(g), g))
        return groups

    def _build_groups(self, fmt, w, seed, groups, tries=0):
        base = list(seed.tokens)
        tables, spans = [], []
        for g in groups:
            vals = list(range(1 << len(g)))
            res = yield from self.need([setbits(w, g, v) for v in vals])
            table, lists = {}, {}
            for v, r in zip(vals, res):
                if r is None or r.operands != seed.operands or r.guard != seed.guard:
                    table[v] = None
                else:
                    lists[v] = list(r.tokens)
            if not lists:
                raise Unlearnable("mnemonic group %s has no valid value" % g)
            pre = min(common_prefix(base, t) for t in lists.values())
            suf = min(common_prefix(base[::-1], t[::-1]) for t in lists.values())
            suf = min([suf, len(base) - pre] + [len(t) - pre for t in lists.values()])
            for v, t in lists.items():
                table[v] = tuple(t[pre:len(t) - suf])
            tables.append((list(g), table))
            spans.append((pre, len(base) - suf))
        merged = yield from self._joined_fields(w, seed, groups, tables)
        if merged is not None and tries <= 4:
            return (yield from self._build_groups(fmt, w, seed, merged, tries + 1))
        owned = {}
        for gi, (s, e) in enumerate(spans):
            for k in range(s, e):
                if k in owned:
                    # two groups claim one token: learn them as one group
                    if tries > 4:
                        raise Unlearnable("groups %s and %s overlap" % (groups[owned[k]], groups[gi]))
                    merged = self._merge(groups, owned[k], gi)
                    return (yield from self._build_groups(fmt, w, seed, merged, tries + 1))
                owned[k] = gi
        at_gap = {}
        for gi, (s, e) in enumerate(spans):
            if s == e:
                at_gap.setdefault(s, []).append(gi)
        items, placed = [], set()
        for k in range(len(base) + 1):
            order = yield from self._order_gap(w, tables, at_gap.get(k, []))
            items.extend(order)
            if k == len(base):
                break
            if k in owned:
                if owned[k] not in placed:
                    items.append(owned[k])
                    placed.add(owned[k])
            else:
                items.append(base[k])
        fmt.groups = tables
        fmt.mnem = items

    def _joined_fields(self, w, seed, groups, tables):
        """Two groups with refused values near each other can be one field whose values the
        pairs of bits _group_bits tries do not all reach (UBLKCP's bits 77..80: 77+79 print
        .STRONG.SM, 78+80 .STRONG.SYS, 77+78+79 .STRONG.GPU): every pair of their values is
        asked, and a value one table refuses that nvdisasm takes beside another value of the
        other group joins them. Returns the groups with that pair merged, or None."""
        sparse = [i for i, (_, t) in enumerate(tables) if None in t.values()]
        pairs = [(i, j) for i in sparse for j in sparse if i < j and len(groups[i]) + len(groups[j]) <= 8
                 and min(abs(a - b) for a in groups[i] for b in groups[j]) <= 4]
        asks = [(i, j, vi, vj, setbits(setbits(w, groups[i], vi), groups[j], vj))
                for i, j in pairs for vi in range(1 << len(groups[i])) for vj in range(1 << len(groups[j]))]
        res = yield from self.need([a[4] for a in asks])
        for (i, j, vi, vj, _), r in zip(asks, res):
            if r is not None and r.operands == seed.operands and r.guard == seed.guard and \
                    (tables[i][1][vi] is None or tables[j][1][vj] is None):
                return self._merge(groups, i, j)
        return None

    @staticmethod
    def _merge(groups, i, j):
        g = sorted(set(groups[i]) | set(groups[j]))
        out = [x for k, x in enumerate(groups) if k not in (i, j)]
        out.append(g)
        return sorted(out)

    def _order_gap(self, w, tables, gis):
        """Groups printing nothing in the seed, at the same place: which one prints first."""
        if len(gis) < 2:
            return list(gis)

        def nonempty(gi):
            bits, table = tables[gi]
            for v, t in sorted(table.items()):
                if t:
                    return bits, v, t
            return None

        pairs = {}
        for x in gis:
            for y in gis:
                a, b = nonempty(x), nonempty(y)
                if x < y and a and b:
                    pairs[(x, y)] = (setbits(setbits(w, a[0], a[1]), b[0], b[1]), a[2], b[2])
        res = yield from self.need([p[0] for p in pairs.values()])
        first = {}
        for (x, y), r in zip(pairs, res):
            word, ta, tb = pairs[(x, y)]
            toks = list(r.tokens) if r is not None else []
            ia = next((i for i in range(len(toks)) if toks[i:i + len(ta)] == list(ta)), None)
            ib = next((i for i in range(len(toks)) if toks[i:i + len(tb)] == list(tb)), None)
            first[(x, y)] = ia is None or ib is None or ia <= ib
        import functools

        def cmp(x, y):
            if (x, y) in first:
                return -1 if first[(x, y)] else 1
            if (y, x) in first:
                return 1 if first[(y, x)] else -1
            return -1 if x < y else 1
        return sorted(gis, key=functools.cmp_to_key(cmp))

    # -- decorations -------------------------------------------------------------------------
    def _decorations(self, spec, w, seed, i):
        op = seed.operands[i]
        if not spec.dbits:
            spec.shapes = {0: op.shape}
            return
        vals = range(1 << len(spec.dbits))
        res = yield from self.need([setbits(w, spec.dbits, v) for v in vals])
        for v, r in zip(vals, res):
            if r is None or len(r.operands) != len(seed.operands) or r.tokens != seed.tokens:
                continue
            o = r.operands[i]
            if o.kind != op.kind or o.holes != op.holes:
                continue
            if any(r.operands[k] != seed.operands[k] for k in range(len(seed.operands)) if k != i):
                continue
            spec.shapes[v] = o.shape
        if getbits(w, spec.dbits) not in spec.shapes:
            raise Unlearnable("seed decoration lost")

    # -- holes -----------------------------------------------------------------------------
    def _hole(self, w, seed, flipped, i, j, bits):
        op = seed.operands[i]
        v0 = op.holes[j]
        if not bits:
            return ("const", v0)
        if op.kind == "pair":
            ka, sa, kb, sb = op.shape
            kind_, shape_ = (ka, sa) if j == 0 else (kb, sb)
        else:
            kind_, shape_ = op.kind, op.shape
        vals = {b: flipped[b].operands[i].holes[j] for b in bits}
        if kind_ == "name":
            return (yield from self._name_table(w, seed, i, j, bits))
        if kind_ == "imm" and shape_ == ("float",):
            return (yield from self._float(w, seed, i, j, bits))
        if kind_ == "target":
            for add in (16, 0, -16):
                m = self._bitmap(v0 - add, {b: v - add for b, v in vals.items()}, bits, w)
                if m is not None:
                    return ("target", m[1], m[2], m[3], add)
            raise Unlearnable("target hole of %r is not a bit field" % seed.text)
        m = self._bitmap(v0, vals, bits, w)
        if m is None:
            raise Unlearnable("hole %d.%d of %r is not a bit field: %s" % (i, j, seed.text, vals))
        return m

    @staticmethod
    def _bitmap(v0, vals, bits, w):
        """Fit value = xor_const ^ sum(word bit -> value bit), sign-extended from `signed` bits
        when the top bit is a sign. Returns ('bits', pairs, signed, xor_const) or None."""
        M = (1 << 64) - 1
        if not all(isinstance(v, int) for v in list(vals.values()) + [v0]):
            return None
        u0 = v0 & M
        pairs, signed = [], 0
        for b in bits:
            d = (vals[b] & M) ^ u0
            if d and d & (d - 1) == 0:
                pairs.append((b, d.bit_length() - 1))
            else:
                p = (d & -d).bit_length() - 1
                if d and d == (M >> p) << p:
                    pairs.append((b, p))
                    signed = p + 1
                else:
                    return None
        width = max(p for _, p in pairs) + 1
        if (signed and signed != width) or len({p for _, p in pairs}) != len(pairs):
            return None
        raw = 0
        for b, p in pairs:
            raw |= ((w >> b) & 1) << p
        const = ((u0 & ((1 << width) - 1)) if signed else u0) ^ raw
        return ("bits", tuple(sorted(pairs, key=lambda x: x[1])), signed, const)

    def _float(self, w, seed, i, j, bits):
        """Which float format is printed from which bits: every window of the right width
        holding the bits seen is tried by writing 1.5 and -0.375 into it."""
        lo, hi = min(bits), max(bits)
        cands = []
        for kind in ("f32", "f64h", "f16", "bf16"):
            need = FLOAT_WIDTH[kind]
            if hi - lo < need:
                for start in range(max(12, hi - need + 1), lo + 1):
                    cands.append((kind, tuple(range(start, start + need))))
        probes = [setbits(w, win, encode_float(kind, x)) for kind, win in cands for x in (1.5, -0.375)]
        res = yield from self.need(probes)
        for k, (kind, win) in enumerate(cands):
            pair = res[2 * k:2 * k + 2]
            if all(r is not None and len(r.operands) == len(seed.operands) and
                   r.operands[i].kind == "imm" and r.operands[i].holes[j] == x
                   for r, x in zip(pair, (1.5, -0.375))):
                return ("float", kind, win)
        raise Unlearnable("float hole %d.%d of %r matches no float format" % (i, j, seed.text))

    def _name_table(self, w, seed, i, j, bits):
        bits = sorted(bits)
        if bits[-1] - bits[0] >= 10:
            raise Unlearnable("name field too wide: %s" % bits)
        bits = list(range(bits[0], bits[-1] + 1))
        res = yield from self.need([setbits(w, bits, v) for v in range(1 << len(bits))])
        table = {}
        for v, r in enumerate(res):
            if r is None or len(r.operands) != len(seed.operands):
                continue
            o = r.operands[i]
            if o.kind == seed.operands[i].kind and o.shape == seed.operands[i].shape:
                table[v] = o.holes[j]
        return ("name", tuple(bits), table)


FLOAT_WIDTH = {"f32": 32, "f64h": 32, "f16": 16, "bf16": 16}


def encode_float(kind, x):
    if kind == "f32":
        return struct.unpack("<I", struct.pack("<f", x))[0]
    if kind == "f64h":
        return struct.unpack("<Q", struct.pack("<d", x))[0] >> 32
    if kind == "f16":
        return struct.unpack("<H", struct.pack("<e", x))[0]
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16
