#!/usr/bin/env python3
"""Seeded randomized differential test of the SASS tables against nvdisasm.

Run:  python scripts/sass_differential.py [--arch sm_90] [-n 20000] [--seed 1] [--freeze]

Words are made from the golden corpus (tests/data/sass): a corpus word with, at random, new
register numbers, immediates, offsets, predicates, modifier values (any value of the field,
also ones the corpus never used), decorations, unprinted bits and scheduling control, or with
1-3 arbitrary bits flipped. nvdisasm decodes them; for every word it decodes:

  1. our disassembly must print exactly nvdisasm's text (disassembly direction);
  2. assembling nvdisasm's text with the word's control must give a word nvdisasm prints as the
     same text, and which we decode to it too (assembly direction; the words may differ only
     in bits nvdisasm does not print).

Words nvdisasm refuses are counted (and how many of them we refuse too). Words whose text
holds an operand nvdisasm has no name for ('???') are skipped: nvdisasm pads those with a
varying number of blanks. --freeze writes tests/data/sass/<arch>/mutations.txt (word ; text)
for tests/test_sass_differential.py.
"""
import argparse
import collections
import os
import re
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from sass_oracle import ARCHS, Nvdisasm  # noqa: E402

CTRL = ((1 << 17) - 1) << 105


def corpus_words(arch):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from test_sass_corpus import load
    return sorted({w for _, _, insns, _ in load(arch) for _, w, _, _ in insns})


def _setbits(w, bits, v):
    for i, b in enumerate(bits):
        w = (w & ~(1 << b)) | (((v >> i) & 1) << b)
    return w


def _leaf(fmt, w):
    """The format entry a word uses (formats split on further bits nest)."""
    from assembler.sass.decoder import _getbits
    while fmt is not None and "split" in fmt:
        fmt = fmt["formats"].get(_getbits(w, fmt["split"]))
    return fmt


def mutate(rng, w, arch):
    """One random word derived from corpus word w."""
    from assembler.sass.decoder import _getbits
    from assembler.sass.holes import hole_bits
    from assembler.sass.tables import load
    cls = load(arch).CLASSES.get(w & 0xfff)
    r = rng.random()
    if r < 0.15 or cls is None:
        for _ in range(rng.randint(1, 3)):
            w ^= 1 << rng.randrange(12, 128)
        return w
    fmt = _leaf(cls["formats"].get(_getbits(w, cls["fbits"])), w)
    if fmt is None:
        return w ^ (1 << rng.randrange(12, 128))
    if r < 0.3 and cls["fbits"]:
        w = _setbits(w, cls["fbits"], rng.getrandbits(len(cls["fbits"])))
        fmt = _leaf(cls["formats"].get(_getbits(w, cls["fbits"])), w)
        if fmt is None:
            return w
    for bits, table, *_ in fmt["groups"]:
        if rng.random() < 0.4:
            w = _setbits(w, bits, rng.getrandbits(len(bits)))
    for spec in fmt["ops"]:
        if spec.get("dbits") and rng.random() < 0.4:
            w = _setbits(w, spec["dbits"], rng.getrandbits(len(spec["dbits"])))
        for h in spec["holes"]:
            if rng.random() < 0.5:
                for b in hole_bits(h):
                    if rng.random() < 0.5:
                        w ^= 1 << b
    if rng.random() < 0.3:
        w = _setbits(w, range(12, 16), rng.getrandbits(4))
    if rng.random() < 0.3:
        dmask = fmt["default"][0]
        free = [b for b in range(128) if dmask >> b & 1]
        for b in rng.sample(free, min(len(free), 2)):
            w ^= 1 << b
    if rng.random() < 0.5:
        # a control nvdisasm accepts: stall 1..11 with '-', or any stall with Y
        stall = rng.randrange(16)
        y = 1 if (1 <= stall <= 11 and rng.random() < 0.7) else 0
        c = stall | y << 4 | rng.choice((7, rng.randrange(6))) << 5 | rng.choice((7, rng.randrange(6))) << 8 | \
            rng.getrandbits(6) << 11
        w = (w & ~CTRL) | c << 105
    return w


def differential(arch, n, seed, nvd=None):
    from assembler.sass.asm import assemble_program
    from assembler.sass.control import Control
    from assembler.sass.decoder import decode_word
    own = nvd is None
    nvd = nvd or Nvdisasm(cache=False)
    rng = random.Random(seed)
    base = corpus_words(arch)
    words = [mutate(rng, rng.choice(base), arch) for _ in range(n)]
    words = list(dict.fromkeys(words))
    theirs = nvd.disassemble_words(words, arch)
    stats = dict(words=len(words), decoded=0, refused=0, refused_by_us_too=0, unnamed_skipped=0,
                 disasm_equal=0, reassembled=0)
    problems = []
    reasm = []
    accepted = collections.Counter()     # words nvdisasm refuses and we print, by opcode
    for i, (w, t) in enumerate(zip(words, theirs)):
        pc = 16 * i
        try:
            ours = decode_word(w, arch, pc).text
        except Exception as e:          # noqa: BLE001 -- compared below
            ours = None
            err = str(e)
        if t is None:
            stats["refused"] += 1
            stats["refused_by_us_too"] += ours is None
            if ours is not None:
                accepted[ours.split()[1 if ours.startswith("@") else 0].split(".")[0]] += 1
                stats.setdefault("accepted_words", []).append("%032x @%x: nvdisasm refuses, we %r" % (w, pc, ours))
            continue
        if "???" in t:
            stats["unnamed_skipped"] += 1
            continue
        stats["decoded"] += 1
        if ours != t:
            problems.append("%032x @%x: nvdisasm %r, we %r" % (w, pc, t, ours if ours is not None else err))
            continue
        stats["disasm_equal"] += 1
        src = "%s  // %s" % (t, Control.from_word(w).text())
        try:
            w2 = assemble_program(src, arch, base=pc).words[0]
        except Exception as e:          # noqa: BLE001 -- reported
            problems.append("%032x @%x: cannot assemble %r: %s" % (w, pc, t, e))
            continue
        reasm.append((w, w2, t, pc))
    # the re-encoded words, at their own addresses, through nvdisasm again
    if reasm:
        layout = {}
        for w, w2, t, pc in reasm:
            layout[pc // 16] = w2
        seq = [layout.get(i, 0x7918) for i in range(max(layout) + 1)]
        back = nvd.disassemble_words(seq, arch)
        for w, w2, t, pc in reasm:
            t2 = back[pc // 16]
            if t2 != t:
                problems.append("%032x @%x: %r re-encodes to %032x, which nvdisasm prints %r" % (w, pc, t, w2, t2))
            elif decode_word(w2, arch, pc).text != t:
                problems.append("%032x @%x: re-encoded %032x decodes differently" % (w, pc, w2))
            else:
                stats["reassembled"] += 1
    if own:
        nvd.close()
    stats["refused_accepted"] = stats["refused"] - stats["refused_by_us_too"]
    stats["accepted_by_opcode"] = dict(accepted.most_common())
    return stats, problems, [(w, t, 16 * i) for i, (w, t) in enumerate(zip(words, theirs))]


def problem_class(line):
    """The opcode (with its first modifier) a problem line is about."""
    m = re.search(r"nvdisasm '(?:@!?U?P\w+ )?([A-Z0-9_]+(?:\.[A-Z0-9_]+)?)", line) or \
        re.search(r": '(?:@!?U?P\w+ )?([A-Z0-9_]+(?:\.[A-Z0-9_]+)?)", line)
    return m.group(1) if m else "?"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--arch", action="append", help="sm_86 / sm_89 / sm_90 (default: all)")
    p.add_argument("-n", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--freeze", type=int, default=0, metavar="N",
                   help="write N decoded words and nvdisasm's text to tests/data/sass/ARCH/mutations.txt")
    p.add_argument("--regress", action="append", default=[], metavar="ARCH:PC:WORD",
                   help="with --freeze: also keep this word (hex, at address PC), one the tables once "
                        "printed differently (or printed though nvdisasm refuses it); those already "
                        "kept stay, their text asked again")
    args = p.parse_args(argv)
    bad = 0
    for arch in args.arch or ARCHS:
        stats, problems, seen = differential(arch, args.n, args.seed)
        for line in problems[:40]:
            print(arch, line)
        by_op = stats.pop("accepted_by_opcode")
        for line in stats.pop("accepted_words", [])[:10]:
            print(arch, line)
        print(arch, stats, "mismatches:", len(problems))
        print(arch, "mismatches by class:", dict(collections.Counter(map(problem_class, problems)).most_common()))
        print(arch, "refused by nvdisasm, printed by us, by opcode:", by_op)
        bad += len(problems)
        if args.freeze:
            freeze(arch, seen, args)
    return 1 if bad else 0


REGRESS = "# words the tables once printed differently (kept across freezes, nvdisasm's text asked again)"
REGRESS_REFUSED = "# words nvdisasm refuses that the tables once printed (kept across freezes, asked again)"


def regressions(arch, args):
    """[(pc, word)] to keep: those under REGRESS in the current mutations.txt and under
    REGRESS_REFUSED in refused.txt, then the --regress words (ARCH:PC:WORD) of this arch."""
    out = []
    for name, head in (("mutations.txt", REGRESS), ("refused.txt", REGRESS_REFUSED)):
        path = os.path.join(ROOT, "tests", "data", "sass", arch, name)
        if not os.path.exists(path):
            continue
        on = False
        with open(path) as f:
            for line in f:
                if line.startswith(head):
                    on = True
                elif on and not line.startswith("#"):
                    pc, word = line.split(" ; ")[0].split()
                    out.append((int(pc, 16), int(word, 16)))
    for item in args.regress:
        a, pc, word = item.split(":")
        if a == arch:
            out.append((int(pc, 16), int(word, 16)))
    return list(dict.fromkeys(out))


def freeze(arch, seen, args):
    """Write the first N decoded words (mutations.txt) and the first N words nvdisasm refuses
    (refused.txt) with nvdisasm's verdict, for tests/test_sass_differential.py; both also keep
    the regression words (see regressions), each in the file of its verdict."""
    from assembler.sass.decoder import decode_word
    cmd = "python scripts/sass_differential.py --arch %s -n %d --seed %d --freeze %d" % (
        arch, args.n, args.seed, args.freeze)
    keep = [(w, t, pc) for w, t, pc in seen if t is not None and "???" not in t][:args.freeze]
    nvd = Nvdisasm(cache=False)
    old, old_refused = [], []
    for pc, w in regressions(arch, args):
        t = nvd.disassemble_words([w], arch, base=pc)[0]
        if t is None:
            old_refused.append((w, pc))
        elif "???" not in t:
            old.append((w, t, pc))
    nvd.close()
    with open(os.path.join(ROOT, "tests", "data", "sass", arch, "mutations.txt"), "w") as f:
        f.write("# %s: words made from the corpus and nvdisasm's text of each, at the address given (%s)\n"
                % (arch, cmd))
        for w, t, pc in keep:
            f.write("%04x %032x ; %s\n" % (pc, w, t))
        f.write(REGRESS + "\n")
        for w, t, pc in old:
            f.write("%04x %032x ; %s\n" % (pc, w, t))
    refused = [(w, pc) for w, t, pc in seen if t is None][:args.freeze]
    printed = []
    for w, pc in refused:
        try:
            printed.append(decode_word(w, arch, pc).text)
        except Exception:               # noqa: BLE001 -- refused, as nvdisasm does
            pass
    with open(os.path.join(ROOT, "tests", "data", "sass", arch, "refused.txt"), "w") as f:
        f.write("# %s: words made from the corpus that nvdisasm refuses, at the address given (%s)\n"
                % (arch, cmd))
        f.write("# printed by the tables when frozen: %d\n" % len(printed))
        for w, pc in refused:
            f.write("%04x %032x\n" % (pc, w))
        f.write(REGRESS_REFUSED + "\n")
        for w, pc in old_refused:
            f.write("%04x %032x\n" % (pc, w))


if __name__ == "__main__":
    sys.exit(main())
