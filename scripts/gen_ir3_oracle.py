#!/usr/bin/env python3
"""mesa's own ir3 disassembler from the `tinymesa` wheel (pip install tinymesa==25.2.7.2), via
ctypes, as a test oracle; and a seeded randomized differential test against it.

    python scripts/gen_ir3_oracle.py N SEED     N random/mutated words: ours vs ir3_isa_disasm

Test-only: nothing under assembler/ imports this. `available()` says whether the wheel is there.
"""
import ctypes
import ctypes.util
import os
import random
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

WHEEL = "tinymesa==25.2.7.2"
_LIB = None


class _Options(ctypes.Structure):
    """struct isa_decode_options (src/compiler/isaspec/isaspec.h, mesa 25.2)."""
    _fields_ = [("gpu_id", ctypes.c_uint32), ("show_errors", ctypes.c_bool),
                ("max_errors", ctypes.c_uint), ("branch_labels", ctypes.c_bool),
                ("stop", ctypes.c_bool), ("cbdata", ctypes.c_void_p), ("field_cb", ctypes.c_void_p),
                ("field_print_cb", ctypes.c_void_p), ("pre_instr_cb", ctypes.c_void_p),
                ("post_instr_cb", ctypes.c_void_p), ("no_match_cb", ctypes.c_void_p),
                ("entrypoint_count", ctypes.c_uint), ("entrypoints", ctypes.c_void_p)]


def _lib():
    global _LIB
    if _LIB is None:
        import tinymesa
        lib = ctypes.CDLL(str(tinymesa.libtinymesa))
        lib.ir3_isa_disasm.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                       ctypes.POINTER(_Options)]
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.fdopen.restype = ctypes.c_void_p
        libc.fdopen.argtypes = [ctypes.c_int, ctypes.c_char_p]
        libc.fflush.argtypes = [ctypes.c_void_p]
        libc.fclose.argtypes = [ctypes.c_void_p]
        _LIB = (lib, libc)
    return _LIB


def available():
    try:
        _lib()
        return True
    except (ImportError, OSError):
        return False


def disasm_text(data, gpu=630, labels=False, show_errors=True):
    """ir3_isa_disasm's output for `data` (bytes) as one string."""
    lib, libc = _lib()
    with tempfile.TemporaryFile("w+") as tf:
        fp = libc.fdopen(os.dup(tf.fileno()), b"w")
        opts = _Options(gpu_id=gpu, show_errors=show_errors, branch_labels=labels)
        buf = ctypes.create_string_buffer(bytes(data), len(data))
        lib.ir3_isa_disasm(buf, len(data), fp, ctypes.byref(opts))
        libc.fflush(fp)
        libc.fclose(fp)
        tf.seek(0)
        return tf.read()


_REJECT = ("no match", "no field", "bitset conflict", "no display template", "Bad field")


def verdicts(words, gpu=630):
    """Per word: (text, warnings) where mesa decodes it, or None where it rejects it."""
    # one word per call: mesa flushes a word's decode errors after the *next* word's text when
    # no bitset matched, so a batch would pin them on the wrong line
    res = []
    for w in words:
        line = disasm_text(struct.pack("<Q", w), gpu).split("\n")[0]
        text, _, errs = line.partition("\t; ")
        errors = errs.split(", ") if errs else []
        if text.startswith("no match") or any(e.startswith(_REJECT) or ": no display" in e
                                              for e in errors):
            res.append(None)
        else:
            res.append((text, errors))
    return res


def seed_words():
    """The words of mesa's test vectors (tests/data/ir3/vectors.txt), to mutate."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "data",
                        "ir3", "vectors.txt")
    with open(path) as f:
        return [int(line.split(" ", 1)[0], 16) for line in f if not line.startswith("#")]


def random_words(rng, n, seeds):
    """Random words, words with a category forced, and known words with bits flipped."""
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            w = rng.getrandbits(64)
        elif r < 0.5:
            w = (rng.getrandbits(61)) | (rng.randrange(8) << 61)
        elif r < 0.85:
            w = rng.choice(seeds)
            for _ in range(rng.randint(1, 4)):
                w ^= 1 << rng.randrange(64)
        else:
            w = rng.choice(seeds)
            m = rng.getrandbits(64) & rng.getrandbits(64)
            w = (w & ~m) | (rng.getrandbits(64) & m)
        out.append(w)
    return out


def ours(word):
    from assembler.errors import AssemblerError
    from assembler.ir3.decoder import decode
    try:
        ins = decode(word)
    except AssemblerError:
        return None
    return ins.text, ins.warnings


def differential(n, seed, seeds, reassemble=True):
    """Compare n words with mesa; returns (stats, problems)."""
    from assembler.errors import AssemblerError
    from assembler.ir3.encoder import encode_line
    rng = random.Random(seed)
    words = random_words(rng, n, seeds)
    stats = {"decoded": 0, "rejected": 0, "reassembled": 0, "reassembly_skipped": 0}
    problems = []
    for w, ref in zip(words, verdicts(words)):
        got = ours(w)
        if ref is None:
            stats["rejected"] += 1
            if got is not None:
                problems.append(("%016x" % w, "mesa rejects", got))
            continue
        stats["decoded"] += 1
        if got != (ref[0], ref[1]):
            problems.append(("%016x" % w, ref, got))
            continue
        if reassemble:
            try:
                again = encode_line(got[0])
            except AssemblerError:
                stats["reassembly_skipped"] += 1
                continue
            if ours(again) is None or ours(again)[0] != got[0]:
                problems.append(("%016x" % w, "reassembled to %016x" % again, got))
            else:
                stats["reassembled"] += 1
    return stats, problems


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if not available():
        print("tinymesa is not installed (pip install %s): no oracle" % WHEEL)
        return 1
    stats, problems = differential(n, seed, seed_words())
    print(stats)
    for p in problems[:50]:
        print(p)
    print("%d mismatches" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
