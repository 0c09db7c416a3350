#!/usr/bin/env python3
"""Generate assembler/sass/tables/sm_XX.py from ptxas + nvdisasm (the oracles).

Run:  python scripts/gen_sass_tables.py [sm_86 sm_89 sm_90]   (needs ptxas and nvdisasm;
      about 10 minutes per arch the first time, seconds afterwards: nvdisasm's answers are
      cached under ~/.cache/gpustack/sass-oracle)
      python scripts/gen_sass_tables.py --validity [ARCH ...]   step 4 alone, on the
      committed tables (after a change to scripts/sass_validity.py only)

1. ptxas compiles every PTX file of tests/sass_kernels for the arch (those whose .target allows
   it); nvdisasm's listing gives each instruction word ptxas wrote.
2. The words are grouped by opcode class (low 12 bits) and scripts/sass_learn.py and
   scripts/sass_learn_class.py learn every format of every class by flipping bits and asking
   nvdisasm (see their docstrings).
3. Bits nvdisasm does not print keep the value ptxas gives them (the most common one in the
   corpus for that format), so assembling nvdisasm's text of a ptxas word gives the word back.
4. scripts/sass_validity.py merges modifier groups nvdisasm reads as one field, then asks which
   scoreboards each format takes, which pairs of modifier values and of reuse flags nvdisasm
   refuses together, and which modifier text an operand at its zero register hides.

The encoder, decoder and operand syntax in assembler/sass are ours; only these facts come from
the oracle. The tables are written as Python literals with a header saying how to regenerate.
"""
import collections
import os
import pprint
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from sass_learn import CONTROL_BITS, Learner, Oracle, getbits, run_all  # noqa: E402
from sass_learn_class import learn_class, node_dict  # noqa: E402
from sass_oracle import ARCHS, Nvdisasm, archs_for, ptxas  # noqa: E402
import sass_validity  # noqa: E402

KERNELS = os.path.join(ROOT, "tests", "sass_kernels")
# Opcode classes learned without the value-flip words of sass_learn_class._value_flips: on
# sm_90 they split HFMA2.MMA (classes 0x435 and 0x835) on a bit that breaks its BF16_V2
# decoding (22 and 13 differential mismatches on seeds 1 and 2).
NO_VALUE_FLIPS = {"sm_90": {0x435, 0x835}}
OUT = os.path.join(ROOT, "assembler", "sass", "tables")
CTRL_MASK = sum(1 << b for b in CONTROL_BITS)


def corpus_words(nvd, arch, workdir):
    """Every instruction word ptxas writes for the PTX corpus: [(word, text, file, section)] in
    listing order."""
    out = []
    for name in sorted(os.listdir(KERNELS)):
        if not name.endswith(".ptx"):
            continue
        path = os.path.join(KERNELS, name)
        if arch not in archs_for(path):
            continue
        cubin = os.path.join(workdir, "%s.%s.cubin" % (name[:-4], arch))
        ptxas(path, arch, cubin)
        for section, addr, text, word in nvd.listing(cubin):
            if word is not None:
                out.append((word, text, name, section))
    return out


def learn_arch(arch, nvd, log=print):
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = corpus_words(nvd, arch, tmp)
    log("%s: %d instruction words from the PTX corpus" % (arch, len(corpus)))
    by_class = collections.defaultdict(list)
    for w, *_ in corpus:
        by_class[w & 0xfff].append(w)
    cache = os.environ.get("SASS_ORACLE_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "gpustack",
                                                            "sass-oracle"))
    os.makedirs(cache, exist_ok=True)
    oracle = Oracle(nvd, arch, os.path.join(cache, "learn-%s-%s" % (arch, nvd.version)))
    learner = Learner(oracle)
    gens = {}
    for opclass in sorted(by_class):
        words = by_class[opclass]
        # seeds: one word per distinct non-control bits, the most common first
        count = collections.Counter(w & ~CTRL_MASK for w in words)
        first = {}
        for w in words:
            first.setdefault(w & ~CTRL_MASK, w)
        seeds = [first[k] for k, _ in sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))]
        gens[opclass] = learn_class(learner, opclass, seeds, value_flips=opclass not in NO_VALUE_FLIPS.get(arch, ()))
    results = run_all(oracle, gens, log)
    log("%s: learned %d classes, %d words asked in %d batches, %.0fs"
        % (arch, len(results), oracle.words_asked, oracle.batches, time.time() - t0))
    classes = {}
    problems = []
    for opclass, r in sorted(results.items()):
        if isinstance(r, Exception):
            problems.append("class 0x%03x: %s" % (opclass, r))
            continue
        for p in r.problems:
            problems.append("class 0x%03x: %s" % (opclass, p))
        formats = {}
        for key, fmt in r.formats.items():
            mine = [w for w in by_class[opclass] if getbits(w, r.fbits) == key]
            formats[key] = node_dict(fmt, mine)
        classes[opclass] = {"fbits": r.fbits, "formats": formats}
    sass_validity.learn(oracle, classes, by_class, log)
    return classes, problems, corpus


def schedule_stats(arch, corpus):
    """What ptxas does, measured on its output: which opcodes it gives write / read scoreboards,
    the smallest stall it leaves after each opcode, and for fixed-latency opcodes the fewest
    cycles it leaves between a result and its first reader (a safe latency: ptxas is right)."""
    import importlib
    from assembler.sass import decoder, tables
    importlib.reload(importlib.import_module("assembler.sass.tables." + arch))
    tables._cache.clear()
    from assembler.sass.usage import first_dest, sources, usage
    seqs = collections.defaultdict(list)
    for w, text, name, section in corpus:
        seqs[(name, section)].append(w)
    var_w, var_r = set(), set()
    min_stall = {}
    decoded = {}
    for key, words in seqs.items():
        decoded[key] = [decoder.decode_word(w, arch, 16 * i) for i, w in enumerate(words)]
        for ins in decoded[key]:
            c = ins.control
            if c.wbar != 7 and usage(ins)[1]:
                var_w.add(ins.opcode)
            if c.rbar != 7:
                var_r.add(ins.opcode)
            min_stall[ins.opcode] = min(min_stall.get(ins.opcode, 15), c.stall)
    lat = {}
    for key, seq in decoded.items():
        for i, ins in enumerate(seq):
            if ins.opcode in var_w:
                continue
            dest = first_dest(ins)
            if not dest:
                continue
            dist = 0
            for j in range(i + 1, min(len(seq), i + 24)):
                dist += seq[j - 1].control.stall
                wr = usage(seq[j])[1]
                if sources(seq[j]) & dest:
                    lat[ins.opcode] = min(lat.get(ins.opcode, 99), dist)
                    break
                dest = dest - wr
                if not dest:
                    break
    default = max(lat.values()) if lat else 15
    return {"variable_write": sorted(var_w), "variable_read": sorted(var_r),
            "latency": {k: max(v, 1) for k, v in sorted(lat.items())}, "default_latency": default,
            "min_stall": {k: max(v, 1) for k, v in sorted(min_stall.items())}}


class _Source:
    """Python source for nested tables, with every repeated container written once as a
    module-level name (_0, _1 ...) and referred to by it."""

    def __init__(self):
        self.count = collections.Counter()
        self.names = {}
        self.defs = []

    @staticmethod
    def _items(o):
        if isinstance(o, dict):
            return list(o.keys()) + list(o.values())
        if isinstance(o, (list, tuple)):
            return list(o)
        return []

    def scan(self, o):
        if isinstance(o, (dict, list, tuple)):
            k = repr(o)
            self.count[k] += 1
            if self.count[k] == 1:
                for x in self._items(o):
                    self.scan(x)

    def expr(self, o):
        if not isinstance(o, (dict, list, tuple)):
            return repr(o)
        k = repr(o)
        if k in self.names:
            return self.names[k]
        if isinstance(o, dict):
            body = ", ".join("%s: %s" % (self.expr(a), self.expr(b)) for a, b in o.items())
            src = "{" + body + "}"
        elif isinstance(o, list):
            src = "[" + ", ".join(self.expr(x) for x in o) + "]"
        else:
            src = "(" + ", ".join(self.expr(x) for x in o) + ("," if len(o) == 1 else "") + ")"
        if self.count[k] > 1 and len(src) > 24:
            name = "_%d" % len(self.names)
            self.names[k] = name
            self.defs.append("%s = %s" % (name, src))
            return name
        return src


def _getbits(w, bits):
    return sum(((w >> b) & 1) << i for i, b in enumerate(bits))


def record_spellings(classes, corpus):
    """Each format gets the mnemonics (opcode and modifiers) ptxas wrote with it: where two
    classes print the same text (I2F.U32.RP: the narrow-integer class and the general one) the
    assembler picks the one ptxas uses for that spelling."""
    fmts, seen = {}, collections.defaultdict(set)
    for w, text, _, _ in corpus:
        cls = classes.get(w & 0xfff)
        if cls is None:
            continue
        fmt = cls["formats"].get(_getbits(w, cls["fbits"]))
        while fmt is not None and "split" in fmt:
            fmt = fmt["formats"].get(_getbits(w, fmt["split"]))
        words = text.split()
        if fmt is not None and words:
            fmts[id(fmt)] = fmt
            seen[id(fmt)].add(words[1] if words[0].startswith("@") and len(words) > 1 else words[0])
    for key, fmt in fmts.items():
        fmt["spellings"] = sorted(seen[key])
    return classes


def write_tables(arch, classes, nvd_version, problems, sched=None):
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, arch + ".py")
    with open(path, "w") as f:
        f.write('"""SASS instruction formats for %s, learned from nvdisasm %s.\n\n'
                "GENERATED by scripts/gen_sass_tables.py from the PTX corpus in tests/sass_kernels;\n"
                "do not edit. Regenerate with:  python scripts/gen_sass_tables.py %s\n"
                "The layout is described in assembler/sass/tables/__init__.py.\n"
                '"""\n\n' % (arch, nvd_version, arch))
        f.write("ARCH = %r\n" % arch)
        f.write("SCHEDULE = %s\n" % pprint.pformat(sched or {}, width=100, compact=True))
        f.write("PROBLEMS = %s\n\n" % pprint.pformat(problems, width=100))
        src = _Source()
        for opclass in sorted(classes):
            src.scan(classes[opclass])
        body = ["    0x%03x: %s," % (opclass, src.expr(classes[opclass])) for opclass in sorted(classes)]
        f.write("# shared parts\n" + "\n".join(src.defs) + "\n\n")
        f.write("CLASSES = {\n" + "\n".join(body) + "\n}\n")
    return path


def revalidate(arch, nvd, log=print):
    """Only step 4 again, on the committed tables (after a change to scripts/sass_validity.py):
    the formats stay as learned, the facts sass_validity asks for are asked again."""
    import copy
    import importlib
    mod = importlib.import_module("assembler.sass.tables." + arch)
    classes = copy.deepcopy(mod.CLASSES)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = corpus_words(nvd, arch, tmp)
    by_class = collections.defaultdict(list)
    for w, *_ in corpus:
        by_class[w & 0xfff].append(w)
    cache = os.environ.get("SASS_ORACLE_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "gpustack",
                                                            "sass-oracle"))
    oracle = Oracle(nvd, arch, os.path.join(cache, "learn-%s-%s" % (arch, nvd.version)))
    sass_validity.learn(oracle, classes, by_class, log)
    return write_tables(arch, classes, nvd.version, list(mod.PROBLEMS), mod.SCHEDULE)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description="Learn assembler/sass/tables/sm_XX.py from ptxas and nvdisasm "
                                             "(both needed; nvdisasm's answers are cached under "
                                             "~/.cache/gpustack/sass-oracle or $SASS_ORACLE_CACHE).")
    ap.add_argument("archs", nargs="*", metavar="ARCH",
                    help="archs to learn (default: %s)" % " ".join(ARCHS))
    ap.add_argument("--validity", action="store_true",
                    help="only re-ask the validity facts (step 4) on the committed tables")
    args = ap.parse_args(argv)
    unknown = [a for a in args.archs if a not in ARCHS]
    if unknown:
        ap.error("unknown arch %s (choose from %s)" % (", ".join(unknown), ", ".join(ARCHS)))
    archs = args.archs or list(ARCHS)
    if args.validity:
        nvd = Nvdisasm(cache=False)
        for arch in archs:
            print("wrote %s" % revalidate(arch, nvd))
        nvd.close()
        return
    nvd = Nvdisasm(cache=False)
    for arch in archs:
        classes, problems, corpus = learn_arch(arch, nvd)
        record_spellings(classes, corpus)
        path = write_tables(arch, classes, nvd.version, problems)
        sched = schedule_stats(arch, corpus)
        path = write_tables(arch, classes, nvd.version, problems, sched)
        print("wrote %s: %d classes, %d problems" % (path, len(classes), len(problems)))
        for p in problems:
            print("  " + p)
    nvd.close()


if __name__ == "__main__":
    main()
