"""What nvdisasm refuses beyond single fields: learned after the formats (scripts/sass_learn.py).

Used by scripts/gen_sass_tables.py. The format learner finds every value a modifier field can
print, one field at a time; nvdisasm also refuses some words whose every field is known:

  one field     two modifier groups printed side by side that nvdisasm reads as one field
                (sm_90's HMUL2: .INVALID1 and .BF16_V2 print .INVALID3 together) become one
                group, before the facts below are asked.
  scoreboards   branches, barriers, stores ... take no write scoreboard (bits 110..112 must be
                7), and branches no read scoreboard either (113..115). Each format is asked with
                a write and a read scoreboard; the ones refused are written as "nosb": "w",
                "r" or "wr".
  field pairs   two modifier fields whose values are each fine alone but not together
                (I2F in the 64-bit class: a 32-bit source with a 32-bit result belongs to the
                narrow class, and nvdisasm refuses it here). Each pair of groups of a format is
                asked with every pair of values, the other fields at a sample word's values; a
                pair refused where each value is taken with some other value of the other field
                is written to "forbid" as (group i, value, group j, value).
  operands      an operand printed only off its default value can be printed always (BAR.ARV's
                thread count) or never (UBLKCP.MULTICAST's desc[]) with some modifier value:
                "hide_by" on the operand.

  RZ bases      how an address on RZ with an offset prints differs by instruction: LDG.E
                [0x970be7] (no base, the offset unsigned), LDGSTS [RZ.64+-0x61e] (the base and
                its suffix, the offset signed), LDGSTS's shared side [-0x100]. Every address
                decoration of every format is asked with a positive and a negative offset on
                RZ: "rz" {decoration: (base printed, negative offset printed unsigned)}, or
                None where nvdisasm refuses an RZ base (ATOMG's 64-bit address).
  blank         formats that print ' ;' even under a quiet control: "blank"; or as soon as
                a scoreboard is named: "sbblank".
  reuse flags   which of the four reuse flags nvdisasm refuses (an immediate in that slot):
                "noreuse"; which it takes alone but refuses together (LDS: the second and the
                third): "noreuse_mix".
  hidden text   modifier text nvdisasm leaves out when an operand is at its zero register
                (LDG.???0 with a 64-bit address on RZ prints as LDG): "hide_mod".

The decoder refuses such words (and leaves hidden text out), and the assembler does not
produce them.
"""
import itertools

from sass_learn import CONTROL_BITS, getbits, setbits

from assembler.sass.encoder import leaf_formats

CTRL_MASK = sum(1 << b for b in CONTROL_BITS)
# stall 1, '-', no scoreboards, no waits: a control nvdisasm takes with every instruction
NEUTRAL = (1 | 1 << 4 | 7 << 5 | 7 << 8) << 105


def _sb(wbar=7, rbar=7):
    return (1 | 1 << 4 | wbar << 5 | rbar << 8) << 105


def _plain(t):
    return "INVALID" not in t and "???" not in t


def built_word(opclass, fbits, key, fmt, path):
    """A word of the format when the corpus has none: ptxas's usual unprinted bits, each
    group's preferred (or first printable) value, no guard."""
    w = setbits(opclass, fbits, key)
    dmask, dval = fmt["default"]
    w = (w & ~dmask) | dval
    for bits, v in path:
        w = setbits(w, bits, v)
    for g in fmt["groups"]:
        bits, table = g[0], g[1]
        pref = g[2] if len(g) > 2 and g[2] in table else None
        if pref is None:
            plain = [v for v, t in sorted(table.items()) if _plain(t)]
            pref = plain[0] if plain else min(table)
        w = setbits(w, bits, pref)
    return setbits(w, (12, 13, 14, 15), 7)


def _in_format(w, fbits, key, path):
    return getbits(w, fbits) == key and all(getbits(w, bits) == v for bits, v in path)


def samples(opclass, cls, corpus):
    """{id(leaf format): (leaf format, [candidate words])}, corpus words first."""
    out = {}
    for key, fmt, path in leaf_formats(cls["formats"]):
        mine = [w for w in corpus if _in_format(w, cls["fbits"], key, path)]
        cands = list(dict.fromkeys((w & ~CTRL_MASK) | NEUTRAL for w in mine[:4]))
        cands.append((built_word(opclass, cls["fbits"], key, fmt, path) & ~CTRL_MASK) | NEUTRAL)
        out[id(fmt)] = (fmt, cands)
    return out


def _pair_words(fmt, s):
    """[(i, vi, j, vj, word)] for every pair of groups and every pair of their values."""
    out = []
    groups = fmt["groups"]
    for i, j in itertools.combinations(range(len(groups)), 2):
        bi, ti = groups[i][0], groups[i][1]
        bj, tj = groups[j][0], groups[j][1]
        for vi in sorted(ti):
            for vj in sorted(tj):
                out.append((i, vi, j, vj, setbits(setbits(s, bi, vi), bj, vj)))
    return out


def learn(oracle, classes, corpus_by_class, log=print):
    """Merge the groups nvdisasm reads as one field, then add "nosb", "forbid" and the other
    facts of the module's docstring to the leaf formats of `classes` (in place)."""
    chosen = {}
    for opclass, cls in classes.items():
        for fid, (fmt, cands) in samples(opclass, cls, corpus_by_class.get(opclass, ())).items():
            chosen[fid] = (fmt, cands)
    # a sample word nvdisasm takes, per format
    oracle.fetch([w for _, cands in chosen.values() for w in cands])
    picked, alts = {}, {}
    for fid, (fmt, cands) in chosen.items():
        ok = [w for w in cands if oracle.memo[w] is not None]
        if ok:
            picked[fid] = (fmt, ok[0])
            alts[fid] = ok
    log("  validity: %d of %d formats have a word nvdisasm takes" % (len(picked), len(chosen)))
    log("  validity: %d pairs of modifier fields nvdisasm reads as one" % _merge_fields(oracle, picked))
    # scoreboards
    asks = {}
    for fid, (fmt, s) in picked.items():
        base = s & ~CTRL_MASK
        asks[fid] = ([base | _sb(wbar=v) for v in (0, 5)], [base | _sb(rbar=v) for v in (0, 5)])
    oracle.fetch([w for ws, rs in asks.values() for w in ws + rs])
    nosb = 0
    for fid, (ws, rs) in asks.items():
        fmt = picked[fid][0]
        flag = ("w" if all(oracle.memo[w] is None for w in ws) else "") + \
            ("r" if all(oracle.memo[w] is None for w in rs) else "")
        fmt.pop("nosb", None)
        if flag:
            fmt["nosb"] = flag
            nosb += 1
    # pairs of modifier fields
    pairs = {fid: _pair_words(fmt, s) for fid, (fmt, s) in picked.items() if len(fmt["groups"]) > 1}
    oracle.fetch([p[4] for ps in pairs.values() for p in ps])
    nforbid = 0
    for fid, ps in pairs.items():
        fmt = picked[fid][0]
        forbid = []
        by_pair = {}
        for i, vi, j, vj, w in ps:
            by_pair.setdefault((i, j), []).append((vi, vj, oracle.memo[w] is not None))
        for (i, j), res in sorted(by_pair.items()):
            live_i = {vi for vi, vj, ok in res if ok}
            live_j = {vj for vi, vj, ok in res if ok}
            for vi, vj, ok in res:
                if not ok and vi in live_i and vj in live_j:
                    forbid.append((i, vi, j, vj))
        fmt.pop("forbid", None)
        if forbid:
            fmt["forbid"] = tuple(forbid)
            nforbid += len(forbid)
    log("  validity: %d formats without some scoreboard, %d forbidden pairs of modifier values"
        % (nosb, nforbid))
    log("  validity: %d operands shown or hidden by a modifier value" % _learn_hide_by(oracle, picked, alts))
    log("  validity: %d operands printed at their 'hidden' value too" % _check_hide(oracle, picked, alts))
    log("  validity: %d modifier values hidden by an operand at its zero register"
        % _learn_hide_mod(oracle, picked, alts))
    log("  validity: %d formats always print a blank before ';'" % _learn_blank(oracle, picked))
    log("  validity: %d address operands with their RZ-base rule"
        % _learn_rz(oracle, picked))
    log("  validity: %d formats refuse some reuse flag" % _learn_reuse(oracle, picked, alts))
    log("  validity: %d formats refuse reuse flags together they take alone"
        % _learn_reuse_mix(oracle, picked, alts))
    log("  validity: %d rules dropped that a ptxas word contradicts" % _prune(classes, corpus_by_class))
    return classes


def _merge_fields(oracle, picked):
    """Two modifier fields printed side by side that nvdisasm reads as one: sm_90's HMUL2 prints
    .INVALID1 for bit 78 and .BF16_V2 for bit 85, but .INVALID3 for both, not the two texts in a
    row. Every pair of adjacent groups is asked with every pair of values; where nvdisasm takes
    them all, prints each as one run of tokens in the pair's place, and some run is new text,
    not the two texts in a row, the pair becomes one group (the first printed's bits, then the
    second's). One pair per format."""
    words = {fid: _pair_words(fmt, s) for fid, (fmt, s) in picked.items() if len(fmt["groups"]) > 1}
    oracle.fetch([p[4] for ps in words.values() for p in ps])
    n = 0
    for fid, ps in words.items():
        fmt = picked[fid][0]
        by_pair = {}
        for i, vi, j, vj, w in ps:
            by_pair.setdefault((i, j), []).append((vi, vj, w))
        for (i, j), res in sorted(by_pair.items()):
            merged = _merged_table(oracle, fmt, i, j, res)
            if merged is not None:
                _merge(fmt, *merged)
                n += 1
                break
    return n


def _merged_table(oracle, fmt, i, j, res):
    """(first group, second group, {merged value: text}) when groups i and j print as one field
    (see _merge_fields), else None."""
    mnem = fmt["mnem"]
    if i not in mnem or j not in mnem or abs(mnem.index(i) - mnem.index(j)) != 1:
        return None
    a, b = (i, j) if mnem.index(i) < mnem.index(j) else (j, i)
    lo = mnem.index(a)
    width = len(fmt["groups"][a][0])
    table, joined = {}, True
    for vi, vj, w in res:
        p = oracle.memo[w]
        if p is None:
            return None
        head = _tokens(dict(fmt, mnem=mnem[:lo]), w)
        tail = _tokens(dict(fmt, mnem=mnem[lo + 2:]), w)
        pair = _tokens(dict(fmt, mnem=mnem[lo:lo + 2]), w)
        toks = p.tokens
        if head is None or tail is None or pair is None or toks[:len(head)] != head or \
                toks[len(toks) - len(tail):] != tail or len(toks) < len(head) + len(tail):
            return None
        run = toks[len(head):len(toks) - len(tail)]
        if run != pair and (set(run) <= set(pair) or any(t.startswith("???") for t in run)):
            # text left out (an operand hides it: "hide_mod"), or a value nvdisasm has no name
            # for (F2FP's .???3 beside some conversions), not one field's named values
            return None
        joined = joined and run == pair
        va, vb = (vi, vj) if a == i else (vj, vi)
        table[va | vb << width] = ".".join(run)
    return None if joined else (a, b, table)


def _merge(fmt, a, b, table):
    """Groups a (printed first) and b of the format become one, at a's place."""
    ga, gb = fmt["groups"][a], fmt["groups"][b]
    width = len(ga[0])
    merged = (tuple(ga[0]) + tuple(gb[0]), table)
    if len(ga) > 2 and len(gb) > 2:
        merged += (ga[2] | gb[2] << width,)

    def renum(k):
        return k - (k > b)

    fmt["groups"] = [merged if k == a else g for k, g in enumerate(fmt["groups"]) if k != b]
    fmt["mnem"] = [t if isinstance(t, str) else renum(t) for t in fmt["mnem"] if t != b]
    fmt.pop("forbid", None)         # group numbers changed; asked again below


def _prune(classes, corpus_by_class):
    """nvdisasm takes every word ptxas wrote: a rule that refuses one was learned from a sample
    too narrow (a reuse flag refused next to that sample's operands only); drop it."""
    from assembler.sass.decoder import format_problem
    n = 0
    for opclass, cls in classes.items():
        for w in corpus_by_class.get(opclass, ()):
            fmt = cls["formats"].get(getbits(w, cls["fbits"]))
            while fmt is not None and "split" in fmt:
                fmt = fmt["formats"].get(getbits(w, fmt["split"]))
            if fmt is None:
                continue
            while format_problem(w, fmt):
                for key in ("noreuse_mix", "noreuse_by", "noreuse", "forbid", "nosb"):
                    if key in fmt:
                        saved = fmt.pop(key)
                        if not format_problem(w, fmt):
                            n += 1
                            break
                        fmt[key] = saved
                else:
                    break
    return n


def _learn_hide_by(oracle, picked, alts):
    """Operands printed only off a default value (a barrier's thread count, R2UR's predicate)
    that some modifier value prints always (BAR.ARV 0x0, 0x0; R2UR.OR PT, ...) or never
    (UBLKCP.MULTICAST has no desc[]): "hide_by" ((group, value, 1 shown / 0 hidden), ...).
    Every sample word of the format is asked (a value may be refused next to another's)."""
    asks = []
    for fid, (fmt, _) in picked.items():
        for k, spec in enumerate(fmt["ops"]):
            if "hide" not in spec:
                continue
            hbits, hval = spec["hide"]
            for si, s in enumerate(alts[fid]):
                for i, g in enumerate(fmt["groups"]):
                    for v in sorted(g[1]):
                        w = setbits(s, g[0], v)
                        asks.append((fid, k, si, i, v, setbits(w, hbits, hval), setbits(w, hbits, hval ^ 1)))
    oracle.fetch([w for a in asks for w in a[5:]])
    base = {}
    for fid, k, si, i, v, wh, ws in asks:
        if getbits(alts[fid][si], picked[fid][0]["groups"][i][0]) == v:
            h, sh = oracle.memo[wh], oracle.memo[ws]
            if h is not None and sh is not None and len(sh.operands) == len(h.operands) + 1:
                base[(fid, k, si, i)] = (len(h.operands), len(sh.operands))
    found = {}
    for fid, k, si, i, v, wh, ws in asks:
        b = base.get((fid, k, si, i))
        h, sh = oracle.memo[wh], oracle.memo[ws]
        if b is None or h is None or sh is None or len(h.operands) != len(sh.operands):
            continue
        n = len(h.operands)
        if n in b:
            found.setdefault((fid, k), {}).setdefault((i, v), 1 if n == b[1] else 0)
    for fid, (fmt, s) in picked.items():
        for spec in fmt["ops"]:
            spec.pop("hide_by", None)
    for (fid, k), hb in found.items():
        picked[fid][0]["ops"][k]["hide_by"] = tuple((i, v, show) for (i, v), show in sorted(hb.items()))
    return len(found)


def _check_hide(oracle, picked, alts):
    """An operand the learner saw vanish at one value (`hide`) in a format learned from a
    random word can be printed at that value in fact (IADD3.X's carry predicates beside a cx[]
    bank print always, PT too), or never printed at all (UBLKCP's desc[] without bit 76): every
    sample word is asked with the operand at that value and off it. When nvdisasm prints as
    many operands both ways on every one, `hide` goes: the operand is always printed when that
    count is the tables' with the operand shown, and it is no operand of the format when the
    count is one less."""
    from assembler.sass.decoder import decode_with_format
    asks = []
    for fid, (fmt, _) in picked.items():
        for k, spec in enumerate(fmt["ops"]):
            if "hide" in spec and "hide_by" not in spec:
                hbits, hval = spec["hide"]
                for s in alts[fid]:
                    asks.append((fid, k, setbits(s, hbits, hval), setbits(s, hbits, hval ^ 1)))
    oracle.fetch([w for a in asks for w in a[2:]])
    verdict = {}
    for fid, k, wh, ws in asks:
        h, sh = oracle.memo[wh], oracle.memo[ws]
        if h is None or sh is None:
            continue
        try:
            ours = len(decode_with_format(ws, picked[fid][0]).operands)
        except Exception:               # noqa: BLE001 -- no verdict from this sample
            continue
        v = "shown" if len(h.operands) == len(sh.operands) == ours else \
            "never" if len(h.operands) == len(sh.operands) == ours - 1 else "hidden"
        prev = verdict.get((fid, k), v)
        verdict[(fid, k)] = v if prev == v else "hidden"
    n = 0
    for (fid, k), v in sorted(verdict.items(), key=lambda kv: -kv[0][1]):
        ops = picked[fid][0]["ops"]
        if v == "shown":
            ops[k].pop("hide")
        elif v == "never":
            del ops[k]
        n += v != "hidden"
    return n


_ZERO = {"R": 255, "UR": 63, "P": 7, "UP": 7}


def zero_fields(fmt):
    """[(word bits, raw value)] of every register field of the format's operands at its zero
    register (RZ, URZ, PT, UPT): the bases and uniform registers of addresses and constants too."""
    out = []

    def add(h, zero):
        if h[0] == "bits" and not h[2]:
            pairs = sorted(h[1], key=lambda p: p[1])
            bits = tuple(wb for wb, _ in pairs)
            out.append((bits, (zero ^ h[3]) & ((1 << len(bits)) - 1)))

    for spec in fmt["ops"]:
        holes, shapes = spec["holes"], list(spec["shapes"].values())
        if spec["kind"] == "reg" and shapes and shapes[0][0] in _ZERO:
            add(holes[0], _ZERO[shapes[0][0]])
        elif spec["kind"] == "mem":
            for h, zero in zip(holes[:3], (63, 255, 63)):
                add(h, zero)
        elif spec["kind"] == "cbuf":
            if any(sh[0] == "cx" for sh in shapes):
                add(holes[0], 63)
            add(holes[1], 255)
            add(holes[3], 63)
    return list(dict.fromkeys(out))


def _tokens(fmt, w, skip=None):
    """The opcode tokens the format prints for w (group `skip` left out), None where a modifier
    field holds a value it does not print."""
    out = []
    for item in fmt["mnem"]:
        if isinstance(item, str):
            out.append(item)
        elif item != skip:
            t = fmt["groups"][item][1].get(getbits(w, fmt["groups"][item][0]))
            if t is None:
                return None
            out.extend(t.split(".") if t else ())
    return tuple(out)


def _learn_hide_mod(oracle, picked, alts):
    """Modifier text nvdisasm leaves out when an operand is at its zero register: LDG.???0 with
    a 64-bit address prints as plain LDG when the address has no register base (RZ, the
    uniform register alone). Every printed value of every group, on the first two sample
    words, is asked with each register field at its zero register and off it: "hide_mod"
    ((group, value, word bits, raw value), ...) where the text vanished on every sample nvdisasm
    took both ways, and was printed off that value."""
    asks = []
    for fid, (fmt, _) in picked.items():
        fmt.pop("hide_mod", None)
        zeros = zero_fields(fmt)
        for s in alts[fid][:2]:
            for i, g in enumerate(fmt["groups"]):
                for v, t in sorted(g[1].items()):
                    if not t or i not in fmt["mnem"]:
                        continue
                    w = setbits(s, g[0], v)
                    for bits, raw in zeros:
                        off = w if getbits(w, bits) != raw else setbits(w, bits, raw ^ 1)
                        asks.append((fid, i, v, bits, raw, setbits(w, bits, raw), off))
    oracle.fetch([w for a in asks for w in a[5:]])
    verdict = {}
    for fid, i, v, bits, raw, on, off in asks:
        fmt = picked[fid][0]
        p, q = oracle.memo[on], oracle.memo[off]
        if p is None or q is None or q.tokens != _tokens(fmt, off):
            continue
        hidden = _tokens(fmt, on, skip=i)
        key = (fid, i, v, bits, raw)
        if p.tokens == hidden and hidden != _tokens(fmt, on):
            verdict.setdefault(key, True)
        else:
            verdict[key] = False
    found = {}
    for (fid, i, v, bits, raw), hidden in sorted(verdict.items(), key=lambda kv: kv[0][1:]):
        if hidden:
            found.setdefault(fid, []).append((i, v, bits, raw))
    for fid, lst in found.items():
        picked[fid][0]["hide_mod"] = tuple(lst)
    return sum(len(x) for x in found.values())


def _learn_blank(oracle, picked):
    """nvdisasm ends a statement with ';' (no blank) when the stall, the wait mask and bits
    102..103 are clear, except in some formats (DSETP, DFMA ...), which print ' ;' always:
    "blank": 1; and in formats that print ' ;' as soon as a write or read scoreboard is named
    (the variable-latency ones, and some ptxas gives a fixed latency: Hopper's DFMA):
    "sbblank": 1."""
    quiet = {fid: s & ~(((1 << 26) - 1) << 102) | (7 << 110 | 7 << 113) for fid, (fmt, s) in picked.items()}
    named = {fid: (w & ~(7 << 110), w & ~(7 << 113)) for fid, w in quiet.items()}
    oracle.fetch(list(quiet.values()) + [x for ws in named.values() for x in ws])
    n = 0
    for fid, w in quiet.items():
        fmt = picked[fid][0]
        fmt.pop("blank", None)
        fmt.pop("sbblank", None)
        p = oracle.memo[w]
        if p is not None and p.semicolon == " ;":
            fmt["blank"] = 1
            n += 1
        elif p is not None and any(oracle.memo[x] is not None and oracle.memo[x].semicolon == " ;"
                                   for x in named[fid]):
            fmt["sbblank"] = 1
    return n


def _learn_reuse(oracle, picked, alts):
    """Reuse flags (bits 122..125) nvdisasm refuses, with bit 109 set, where the operand in that
    slot is an immediate or missing (FMUL R3, R6, 16777216 takes none on its third slot):
    "noreuse", a 4-bit mask of the flags every sample word of the format is refused with; and
    "noreuse_by" ((group, value, mask), ...) for flags refused only with one modifier value
    (HADD2.F32 takes none on its first source)."""
    asks = {fid: [[(s & ~(15 << 122)) | 1 << (122 + k) for s in alts[fid]] for k in range(4)]
            for fid in picked}
    oracle.fetch([w for per in asks.values() for ws in per for w in ws])
    n = 0
    by = []
    for fid, per in asks.items():
        fmt, s = picked[fid]
        fmt.pop("noreuse", None)
        fmt.pop("noreuse_by", None)
        m = sum(1 << k for k, ws in enumerate(per) if all(oracle.memo[w] is None for w in ws))
        if m:
            fmt["noreuse"] = m
            n += 1
        for i, g in enumerate(fmt["groups"]):
            for v in sorted(g[1]):
                for s in alts[fid]:
                    w = setbits(s & ~(15 << 122), g[0], v)
                    by.append((fid, i, v, w, [(k, w | 1 << (122 + k)) for k in range(4) if not m >> k & 1]))
    oracle.fetch([w for a in by for w in [a[3]] + [x for _, x in a[4]]])
    masks = {}
    for fid, i, v, w, ks in by:
        if oracle.memo[w] is None:
            continue
        mask = sum(1 << k for k, x in ks if oracle.memo[x] is None)
        key = (fid, i, v)
        masks[key] = masks.get(key, 15) & mask
    found = {}
    for (fid, i, v), mask in sorted(masks.items(), key=lambda kv: kv[0][1:]):
        if mask:
            found.setdefault(fid, []).append((i, v, mask))
    for fid, lst in found.items():
        picked[fid][0]["noreuse_by"] = tuple(lst)
    return n + len(found)


def _learn_reuse_mix(oracle, picked, alts):
    """Reuse flags nvdisasm takes one at a time but refuses together, with bit 109 set (LDS
    takes the second or the third flag, never both; nor do most formats without a third
    register source): "noreuse_mix", a 16-bit mask of the refused reuse values. A value counts
    where every sample word takes each of its flags alone and refuses them together."""
    def flags(s, r):
        return (s & ~(15 << 122)) | r << 122

    oracle.fetch([flags(s, 1 << k) for fid in picked for s in alts[fid] for k in range(4)])
    asks = []
    for fid in picked:
        fmt = picked[fid][0]
        fmt.pop("noreuse_mix", None)
        m = fmt.get("noreuse", 0)
        for s in alts[fid]:
            ok = {k for k in range(4) if oracle.memo[flags(s, 1 << k)] is not None}
            for r in range(16):
                if bin(r).count("1") > 1 and all(k in ok for k in range(4) if r >> k & 1) and not r & m:
                    asks.append((fid, r, flags(s, r)))
    oracle.fetch([w for _, _, w in asks])
    verdict = {}
    for fid, r, w in asks:
        verdict[(fid, r)] = verdict.get((fid, r), True) and oracle.memo[w] is None
    found = {}
    for (fid, r), refused in verdict.items():
        if refused:
            found[fid] = found.get(fid, 0) | 1 << r
    for fid, mask in found.items():
        picked[fid][0]["noreuse_mix"] = mask
    return len(found)


def _rz_probe(fmt, k, spec, s):
    """{decoration: (word with RZ + 0x10, RZ - 0x10, RZ alone)} for a memory operand whose base
    register and offset are plain fields, or {}."""
    from assembler.sass.holes import HoleError, write_hole
    holes = spec["holes"]
    if len(holes) != 4 or holes[1][0] != "bits" or holes[3][0] != "bits" or not holes[3][2]:
        return {}
    out = {}
    for dv in sorted(spec["shapes"]):
        w = setbits(s, spec["dbits"], dv) if spec.get("dbits") else s
        try:
            w = write_hole(holes[1], w, 255, 0)
            out[dv] = (write_hole(holes[3], w, 0x10, 0), write_hole(holes[3], w, -0x10, 0),
                       write_hole(holes[3], w, 0, 0))
        except HoleError:
            continue
    return out


def _learn_rz(oracle, picked):
    """For each address operand (see the module's docstring): "rz" {decoration: (RZ printed
    beside an offset, a negative offset alone printed unsigned)}, as nvdisasm prints the sample
    word with the base set to RZ and the offset to 0x10 and -0x10; None where it refuses an RZ
    base with each of 0x10, -0x10 and 0 (ATOMG.E [RZ.64+0x48]), a word the decoder refuses too.
    Decorations nvdisasm refuses otherwise are left out (the decoder keeps the usual rule)."""
    asks = []
    for fid, (fmt, s) in picked.items():
        nmem = 0
        for k, spec in enumerate(fmt["ops"]):
            if spec["kind"] != "mem":
                continue
            for dv, (wp, wn, wz) in _rz_probe(fmt, k, spec, s).items():
                asks.append((fid, k, nmem, dv, wp, wn, wz))
            nmem += 1
    oracle.fetch([w for a in asks for w in a[4:]])
    found = {}
    for fid, k, j, dv, wp, wn, wz in asks:
        p, n = oracle.memo[wp], oracle.memo[wn]
        if p is None and n is None and oracle.memo[wz] is None:
            found.setdefault((fid, k), {})[dv] = None     # no RZ base at all (ATOMG)
            continue
        if p is None or n is None:
            continue
        mp = [o for o in p.operands if o.kind == "mem"]
        mn = [o for o in n.operands if o.kind == "mem"]
        if len(mp) <= j or len(mn) <= j or mp[j].holes[3] != 0x10:
            continue
        unsigned = mn[j].holes[3] > 0 and not mn[j].shape[2]
        found.setdefault((fid, k), {})[dv] = (bool(mp[j].shape[2]), unsigned)
    for fid, (fmt, s) in picked.items():
        for spec in fmt["ops"]:
            spec.pop("rz", None)
    n = 0
    for (fid, k), rz in found.items():
        picked[fid][0]["ops"][k]["rz"] = rz
        n += 1
    return n
