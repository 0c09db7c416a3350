"""Learn every format of one SASS opcode class: format bits, one format per key, and the splits
that checking random words against nvdisasm calls for (used by scripts/gen_sass_tables.py).

scripts/sass_learn.py learns one format from one word; here the formats of a class are put
together (the bits whose flips change the operand list select the format), checked against
nvdisasm on the corpus words and on random words of each format (random modifiers, operands,
decorations, unprinted bits, the seed with each single bit flipped, and with each other
modifier value and each unprinted or refused bit flipped), and a format whose words
disagree is split on the bit that best tells them apart.
"""
import collections

from assembler.errors import AssemblerError
from sass_learn import CANDIDATE_BITS, CONTROL_BITS, GUARD_BITS, Unlearnable, getbits, hole_bits, parallel, setbits

MAX_FORMAT_BITS = 9


def format_dict(fmt, corpus_for_key=()):
    """The table entry for one format (see assembler/sass/tables/__init__.py)."""
    used = set()
    for bits, _ in fmt.groups:
        used |= set(bits)
    for op in fmt.ops:
        used |= op.bits()
    used |= set(range(12, 16)) if fmt.guard else set()
    # bits nvdisasm does not print: ptxas's most common value, else the seed's
    free = [b for b in range(128) if b >= 12 and b not in used and b not in CONTROL_BITS
            and b not in (122, 123, 124, 125)]
    # bits of an operand hidden by other bits (VIMNMX's second predicate output, hidden while
    # the first is PT) are not printed then either: ptxas's value there too
    unseen = set()
    for op in fmt.ops:
        if op.hide:
            unseen |= op.bits() - set(op.hide[0])
    dmask = dval = 0
    for b in sorted(set(free) | unseen):
        vals = collections.Counter(getbits(w, [b]) for w in corpus_for_key) if corpus_for_key else None
        v = vals.most_common(1)[0][0] if vals else getbits(fmt.seed, [b])
        dmask |= 1 << b
        dval |= v << b
    ops = []
    for op in fmt.ops:
        d = {"kind": op.kind, "shapes": op.shapes, "holes": [tuple(h) for h in op.holes]}
        if op.dbits:
            d["dbits"] = tuple(op.dbits)
        if op.hide:
            d["hide"] = op.hide
        ops.append(d)
    groups = []
    for bits, table in fmt.groups:
        vals = collections.Counter(getbits(w, bits) for w in corpus_for_key)
        pref = vals.most_common(1)[0][0] if vals else getbits(fmt.seed, bits)
        groups.append((tuple(bits), {v: ".".join(t) for v, t in sorted(table.items()) if t is not None},
                       pref))
    # unprinted bits whose flip makes nvdisasm refuse the seed, where every corpus word of the
    # format agrees with the seed: a word with another value there is refused
    smask = 0
    for b in sorted(set(fmt.invalid) & set(free)):
        v = getbits(fmt.seed, [b])
        if all(getbits(w, [b]) == v for w in corpus_for_key):
            smask |= 1 << b
    out = {"guard": fmt.guard, "mnem": list(fmt.mnem), "groups": groups, "ops": ops,
           "default": (dmask, dval & dmask), "uses": len(corpus_for_key)}
    if smask:
        out["strict"] = (smask, fmt.seed & smask)
    return out


def fkey_of(w, fbits):
    return getbits(w, fbits)


def merge_groups(fmt, other):
    """Add the values `other` knows for groups both formats have on the same bits."""
    mine = {tuple(bits): table for bits, table in fmt.groups}
    for bits, table in other.groups:
        t = mine.get(tuple(bits))
        if t is None:
            continue
        for v, toks in table.items():
            if toks is not None and t.get(v) is None:
                t[v] = toks


class ClassResult:
    def __init__(self, opclass):
        self.opclass = opclass
        self.fbits = ()
        self.formats = {}            # fkey -> Format
        self.problems = []


def permissive_control(w):
    """The word with a control nvdisasm prints everything under: .reuse flags show only when
    bit 109 is set, which needs a stall of 1..11."""
    stall = (w >> 105) & 15
    w = setbits(w, range(105, 109), min(max(stall, 1), 11))
    return setbits(w, [109], 1)


class Split:
    """A format whose words disagree with one learned format on the value of some bits: one
    format per value of those bits (a small decision tree under a format key)."""

    def __init__(self, bits, formats):
        self.bits, self.formats = tuple(bits), formats


def leaves(node, path=()):
    if isinstance(node, Split):
        for v, sub in node.formats.items():
            yield from leaves(sub, path + ((node.bits, v),))
    else:
        yield path, node


def pick(node, w):
    while isinstance(node, Split):
        node = node.formats.get(getbits(w, node.bits))
    return node


def node_dict(node, corpus_words):
    if isinstance(node, Split):
        groups = collections.defaultdict(list)
        for w in corpus_words:
            groups[getbits(w, node.bits)].append(w)
        return {"split": node.bits, "formats": {v: node_dict(sub, groups.get(v, ()))
                                                for v, sub in node.formats.items()}}
    return format_dict(node, corpus_words)


def learn_class(learner, opclass, seeds, rounds=12, samples=24, max_depth=6, value_flips=True):
    """Learn every format of one opcode class from its corpus words (a generator).

    The formats found are then checked: every corpus word of the class, and random words made
    from each format (random modifier values, operands, decorations and unprinted bits), must
    decode to nvdisasm's text. Where words of one format disagree, the bit whose value differs
    from the format's seed in most of them splits that format in two (each learned from a word
    with that value), and the check runs again. ``value_flips=False`` leaves out the words with
    another modifier value and one unprinted or refused bit flipped (see _value_flips)."""
    import random
    from assembler.sass.decoder import decode_with_format
    res = ClassResult(opclass)
    corpus = list(dict.fromkeys(seeds))
    seeds = list(dict.fromkeys(permissive_control(w) for w in seeds))
    rng = random.Random(opclass)
    fb, formats, problems = yield from _formats(learner, seeds, set())
    res.fbits, res.formats, res.problems = fb, formats, list(problems)
    bad = []
    for _ in range(rounds):
        words = list(corpus)
        for key, node in formats.items():
            for _path, leaf in leaves(node):
                words += _variants(leaf, rng, samples)
                words += _flips(leaf)
                if value_flips:
                    words += _value_flips(leaf)
        got = yield from learner.need(words)
        dicts = {}
        bad = []
        seen = collections.defaultdict(list)          # leaf -> [(word, agrees)]
        for w, r in zip(words, got):
            if r is None:
                continue
            key = getbits(w, fb)
            node = formats.get(key)
            leaf = pick(node, w) if node is not None else None
            try:
                if leaf is None:
                    ours = None
                else:
                    if id(leaf) not in dicts:
                        dicts[id(leaf)] = format_dict(leaf)
                    ours = decode_with_format(w, dicts[id(leaf)], r.pc).text
            except AssemblerError as e:
                ours = "error: %s" % e
            if leaf is not None:
                seen[(key, id(leaf))].append((w, ours == r.text))
            if ours != r.text:
                bad.append((w, r.text, ours, key, leaf))
        if not bad:
            break
        # split each leaf that disagrees on the bit that best separates its good and bad words
        splits = {}
        for (key, lid), results in seen.items():
            if all(ok for _, ok in results):
                continue
            path, leaf = next((p, lf) for p, lf in leaves(formats[key]) if id(lf) == lid)
            if len(path) >= max_depth:
                continue
            taken = set(fb) | {b for bits, _ in path for b in bits}
            b = _telling_bit(results, leaf, taken)
            if b is None:
                continue
            other = [w for w, ok in results if not ok and getbits(w, [b]) != getbits(leaf.seed, [b])]
            splits[(key, lid)] = (path, leaf, b, permissive_control(other[0]))
        if not splits:
            break
        res_ = yield from parallel({k: learner.analyze(v[3]) for k, v in splits.items()})
        for k, (path, leaf, b, w2) in splits.items():
            r = res_[k]
            if isinstance(r, Unlearnable):
                res.problems.append("split on bit %d: %s" % (b, r))
                continue
            v0 = getbits(leaf.seed, [b])
            node = Split([b], {v0: leaf, 1 - v0: r[0]})
            formats[k[0]] = _replace(formats[k[0]], leaf, node)
    res.formats = formats
    for w, theirs, ours, _, _ in bad[:8]:
        res.problems.append("%032x: nvdisasm %r, tables %r" % (w, theirs, ours))
    if bad:
        res.problems.append("%d disagreements left" % len(bad))
    return res


def _replace(node, leaf, new):
    if node is leaf:
        return new
    if isinstance(node, Split):
        node.formats = {v: _replace(sub, leaf, new) for v, sub in node.formats.items()}
    return node


def _telling_bit(results, leaf, taken):
    """The bit whose value (same as the leaf's seed, or not) best separates the words that
    disagree from those that agree."""
    best, score = None, 0.0
    n_bad = sum(1 for _, ok in results if not ok)
    for b in range(12, 128):
        if b in CONTROL_BITS or b in taken or b in GUARD_BITS:
            continue
        s0 = getbits(leaf.seed, [b])
        diff = [ok for w, ok in results if getbits(w, [b]) != s0]
        same = [ok for w, ok in results if getbits(w, [b]) == s0]
        bad_diff = sum(1 for ok in diff if not ok)
        if bad_diff < 1:
            continue
        rate = bad_diff / len(diff) - (sum(1 for ok in same if not ok) / len(same) if same else 0)
        sc = rate * bad_diff / n_bad
        if sc > score:
            best, score = b, sc
    return best


def _variants(fmt, rng, n):
    """Random words of a format: modifier values, operands, decorations and unprinted bits."""
    out = []
    free = sorted(fmt.dontcare - CONTROL_BITS)
    for _ in range(n):
        x = fmt.seed
        for bits, table in fmt.groups:
            vals = [v for v, t in table.items() if t is not None]
            x = setbits(x, bits, rng.choice(vals))
        for op in fmt.ops:
            if op.dbits and op.shapes:
                x = setbits(x, op.dbits, rng.choice(sorted(op.shapes)))
            for h in op.holes:
                if h[0] == "name":
                    x = setbits(x, h[1], rng.choice(sorted(h[2])))
                else:
                    for b in hole_bits(h):
                        if rng.random() < 0.5:
                            x ^= 1 << b
        if fmt.guard and rng.random() < 0.3:
            x = setbits(x, GUARD_BITS, rng.getrandbits(4))
        for b in rng.sample(free, min(len(free), rng.choice((0, 1, 3)))):
            x ^= 1 << b
        out.append(x)
    return out


def _flips(fmt):
    """The seed with each bit outside the opcode, guard and control flipped in turn: a bit the
    format takes as fixed (MUFU's .F16 next to the half selector it enables, its type field
    next to the .H1 selector only a 16-bit type reads) must split it. Every bit is asked, not a
    sample: one missed bit is a word printed wrong."""
    return [fmt.seed ^ 1 << b for b in CANDIDATE_BITS if b not in GUARD_BITS]


def _value_flips(fmt):
    """For each modifier value other than the seed's, the seed with that value and each
    unprinted bit flipped in turn: a bit only one value reads (F2I's .H1 selector, printed only
    with an .F16 source) must split the format. Bits whose single flip nvdisasm refuses are
    flipped too: a field whose other values are taken only beside another modifier's value
    (I2F's source size in the 64-bit class: a 32-, 16- or 8-bit source only with an .F64
    result, so every flip of it next to the seed's .F32 result is refused) splits there."""
    out = []
    free = sorted((fmt.dontcare | fmt.invalid) - CONTROL_BITS - set(GUARD_BITS))
    for bits, table in fmt.groups:
        own = getbits(fmt.seed, bits)
        for v, t in table.items():
            if t is None or v == own:
                continue
            x = setbits(fmt.seed, bits, v)
            out += [x ^ 1 << b for b in free]
    return out


def _formats(learner, seeds, forced):
    """Format bits and one format per key (a generator): (fbits, {key: Format}, problems).
    Every analysis of a step runs side by side (see parallel)."""
    problems = []
    fbits = set(forced)
    learned = {}
    res = yield from parallel({w: learner.analyze(w) for w in seeds[:3]})
    for w, r in res.items():
        if isinstance(r, Unlearnable):
            problems.append("seed %032x: %s" % (w, r))
            continue
        learned[w] = r[0]
        fbits |= r[1]
    formats = {}
    for _round in range(6):
        if len(fbits) > MAX_FORMAT_BITS:
            problems.append("too many format bits: %s" % sorted(fbits))
            fbits = set(sorted(fbits, key=lambda b: (b not in forced, b))[:MAX_FORMAT_BITS])
        fb = tuple(sorted(fbits))
        cands = {}
        for key in range(1 << len(fb)):
            c = [w for w in seeds if fkey_of(w, fb) == key][:2]
            if not c:
                c = [setbits(w, fb, key) for w in seeds[:2]]
            cands[key] = c
        formats = {}
        grown = False
        for attempt in range(2):
            todo = {key: c[attempt] for key, c in cands.items() if key not in formats and len(c) > attempt}
            for key, w in todo.items():
                if w in learned:
                    formats[key] = learned[w]
            todo = {key: w for key, w in todo.items() if key not in formats}
            res = yield from parallel({key: learner.analyze(w) for key, w in todo.items()})
            for key, r in res.items():
                if isinstance(r, Unlearnable):
                    if todo[key] in seeds:
                        problems.append("seed %032x: %s" % (todo[key], r))
                    continue
                learned[todo[key]] = r[0]
                formats[key] = r[0]
                if r[1] - fbits:
                    fbits |= r[1]
                    grown = True
            if grown:
                break
        if grown:
            continue
        # a modifier value refused next to the seed's other modifiers may be fine next to
        # another word's: fill the tables from more words of the same format
        more = {}
        for key, fmt in formats.items():
            for j, w in enumerate([w for w in seeds if fkey_of(w, fb) == key and w != fmt.seed][:2]):
                more[(key, j)] = w
        res = yield from parallel({k: learner.analyze(w) for k, w in more.items()})
        for (key, j), r in sorted(res.items(), key=lambda kv: kv[0]):
            if not isinstance(r, Unlearnable):
                merge_groups(formats[key], r[0])
        return fb, formats, problems
    problems.append("format bits did not settle: %s" % sorted(fbits))
    return tuple(sorted(fbits)), formats, problems
