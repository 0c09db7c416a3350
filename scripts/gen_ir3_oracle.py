#!/usr/bin/env python3
"""mesa's own ir3 disassembler and assembler from the `tinymesa` wheel (pip install
tinymesa==25.2.7.2), via ctypes, as test oracles; and a seeded randomized differential test.

    python scripts/gen_ir3_oracle.py N SEED     N random/mutated words: ours vs ir3_isa_disasm,
                                                and our assembly of each text vs mesa's assembler

ir3_isa_disasm(bin, size, FILE *, struct isa_decode_options *) disassembles. mesa's assembler is
what its computerator and its disasm test run (ir3_parse_asm in ir3_assembler.c, which the wheel
does not export): a compute `ir3_shader_variant` with a compiler and a const state, then
ir3_parse(variant, kernel_info, FILE *) and ir3_shader_assemble(variant). The wheel exports
those two and ir3_compiler_create / fd_dev_info_raw / rzalloc_size / ralloc_free.

The struct offsets below are those of mesa 25.2.7 (the wheel's version; pin it). They were read
from the machine code of the wheel's own ir3_shader_assemble (which reads v->compiler at 0x90,
v->info.size at 0xe0, v->constant_data_size at 0x230, v->constlen at 0x240, v->type at 0x88,
v->binning_pass at 0x60, v->const_state at 0xc8) and agree with mesa 25.2's ir3_shader.h;
`mesa_assemble` checks what it can (a known program gives known words and footprint) before it
is trusted, see `_self_test`.

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


# struct ir3_shader_variant (mesa 25.2.7), sizeof 2040
_V_SIZE = 2040
_V_IR, _V_TYPE, _V_COMPILER, _V_BIN, _V_CONST_STATE = 120, 136, 144, 192, 200
_V_IMM_COUNT, _V_IMM_VALUES = 208 + 4, 208 + 8          # struct ir3_imm_const_state imm_state
_V_INFO = 224                                            # struct ir3_info
_I_SIZE, _I_INSTRS, _I_MAX_REG, _I_MAX_HALF, _I_MAX_CONST = 0, 10, 24, 25, 26
_V_BRANCHSTACK, _V_CONSTLEN, _V_PVTMEM, _V_EARLY_PREAMBLE, _V_SHARED = 564, 576, 580, 587, 588
_V_LOCAL_SIZE = 1466
_CONST_STATE_SIZE = 1424
_MESA_SHADER_COMPUTE = 5
# struct ir3_kernel_info: num_bufs, buf_types[4], buf_sizes[4], buf_addr_regs[4],
# buf_init_data[4] (pointers), buf_init_data_sizes[4], ... numwg (a const regid)
_K_SIZE = 256
_K_NUM_BUFS, _K_BUF_SIZES, _K_BUF_ADDR, _K_BUF_INIT, _K_BUF_INIT_SIZES, _K_NUMWG = 0, 20, 36, 56, 88, 112


class _DevId(ctypes.Structure):
    _fields_ = [("gpu_id", ctypes.c_uint32), ("chip_id", ctypes.c_uint64)]


_COMPILER = None


def _compiler():
    """An ir3_compiler for the Adreno 630 (chip 6.3.0.1), made once."""
    global _COMPILER
    if _COMPILER is None:
        lib, libc = _lib()
        lib.fd_dev_info_raw.restype = ctypes.c_void_p
        lib.fd_dev_info_raw.argtypes = [ctypes.POINTER(_DevId)]
        lib.ir3_compiler_create.restype = ctypes.c_void_p
        lib.ir3_compiler_create.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DevId), ctypes.c_void_p,
                                            ctypes.c_void_p]
        lib.rzalloc_size.restype = ctypes.c_void_p
        lib.rzalloc_size.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        lib.ralloc_free.argtypes = [ctypes.c_void_p]
        lib.ir3_parse.restype = ctypes.c_void_p
        lib.ir3_parse.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        lib.ir3_shader_assemble.restype = ctypes.c_void_p
        lib.ir3_shader_assemble.argtypes = [ctypes.c_void_p]
        libc.fmemopen.restype = ctypes.c_void_p
        libc.fmemopen.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
        dev = _DevId(630, 0x06030001)
        _COMPILER = (dev, ctypes.create_string_buffer(32))   # ir3_compiler_options, zeroed
        info = lib.fd_dev_info_raw(ctypes.byref(dev))
        comp = lib.ir3_compiler_create(None, ctypes.byref(dev), info, _COMPILER[1])
        if not comp or ctypes.c_uint8.from_address(comp + 16).value != 6:   # compiler->gen
            raise OSError("ir3_compiler_create did not give an a6xx compiler")
        _COMPILER = (dev, _COMPILER[1], comp)
    return _COMPILER[2]


class MesaProgram:
    """What mesa's assembler made of a source: `words` (the code; mesa pads it with zero words
    to its instruction alignment), the register footprint from ir3_collect_info (`max_reg`,
    `max_half_reg`: highest full / half vec4 register index, -1 for none; `max_const`), and
    the header fields it keeps: local_size, buf_sizes / buf_addr_regs / buf_init (per @buf),
    numwg, consts (its immediates: the words @const fills, from c0.x), branchstack, pvtmem,
    localmem, early_preamble."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def mesa_assemble(text):
    """mesa's assembly of `text`: a MesaProgram, or the error it printed (a str)."""
    lib, libc = _lib()
    comp = _compiler()
    v = lib.rzalloc_size(None, _V_SIZE)
    try:
        ctypes.c_uint32.from_address(v + _V_TYPE).value = _MESA_SHADER_COMPUTE
        ctypes.c_void_p.from_address(v + _V_COMPILER).value = comp
        ctypes.c_void_p.from_address(v + _V_CONST_STATE).value = lib.rzalloc_size(v, _CONST_STATE_SIZE)
        kinfo = ctypes.create_string_buffer(_K_SIZE)
        src = text.encode() + b"\n"
        buf = ctypes.create_string_buffer(src, len(src))
        with _stderr() as err:
            fp = libc.fmemopen(buf, len(src), b"r")
            ir = lib.ir3_parse(v, kinfo, fp)
            libc.fclose(fp)
            binary = lib.ir3_shader_assemble(v) if ir else None
        if not ir or not binary:
            return err.text().strip() or "rejected"
        size = ctypes.c_uint32.from_address(v + _V_INFO + _I_SIZE).value
        data = ctypes.string_at(binary, size)
        u16 = lambda off: ctypes.c_uint16.from_address(v + off).value   # noqa: E731
        imm_count = ctypes.c_uint32.from_address(v + _V_IMM_COUNT).value     # @const words from c0.x
        imm_values = ctypes.c_void_p.from_address(v + _V_IMM_VALUES).value
        k32 = lambda off: ctypes.c_uint32.from_address(ctypes.addressof(kinfo) + off).value  # noqa: E731
        nbufs = k32(_K_NUM_BUFS)
        return MesaProgram(
            words=[int.from_bytes(data[i:i + 8], "little") for i in range(0, len(data), 8)],
            instrs=u16(_V_INFO + _I_INSTRS),
            max_reg=ctypes.c_int8.from_address(v + _V_INFO + _I_MAX_REG).value,
            max_half_reg=ctypes.c_int8.from_address(v + _V_INFO + _I_MAX_HALF).value,
            max_const=ctypes.c_int16.from_address(v + _V_INFO + _I_MAX_CONST).value,
            local_size=tuple(u16(_V_LOCAL_SIZE + 2 * i) for i in range(3)),
            branchstack=ctypes.c_uint32.from_address(v + _V_BRANCHSTACK).value,
            pvtmem=ctypes.c_uint32.from_address(v + _V_PVTMEM).value,
            localmem=ctypes.c_uint32.from_address(v + _V_SHARED).value,
            early_preamble=bool(ctypes.c_uint8.from_address(v + _V_EARLY_PREAMBLE).value),
            buf_sizes=[k32(_K_BUF_SIZES + 4 * i) for i in range(nbufs)],
            buf_addr_regs=[k32(_K_BUF_ADDR + 4 * i) for i in range(nbufs)],
            buf_init=[list((ctypes.c_uint32 * k32(_K_BUF_INIT_SIZES + 4 * i)).from_address(
                ctypes.c_void_p.from_address(ctypes.addressof(kinfo) + _K_BUF_INIT + 8 * i).value))
                if k32(_K_BUF_INIT_SIZES + 4 * i) else [] for i in range(nbufs)],
            numwg=k32(_K_NUMWG),
            consts=list((ctypes.c_uint32 * imm_count).from_address(imm_values)) if imm_count else [])
    finally:
        lib.ralloc_free(v)


class _stderr:
    """Collects what mesa prints on fd 2 (its parse errors) instead of showing it."""

    def __enter__(self):
        sys.stderr.flush()
        self._file = tempfile.TemporaryFile()
        self._saved = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        _lib()[1].fflush(None)
        os.dup2(self._saved, 2)
        os.close(self._saved)

    def text(self):
        self._file.seek(0)
        return self._file.read().decode(errors="replace")


_CHECKED = None


def _self_test():
    """The offsets hold if a known program comes out as mesa's vectors and footprint say."""
    global _CHECKED
    if _CHECKED is None:
        p = mesa_assemble("@localsize 4, 2, 1\n@buf 4 (c2.x) 5, 6\n@numwg(c3.x)\n@const(c4.x) 0, 1.0, 7, 0\n"
                          "(nop3) cmps.f.lt r1.x, (abs)r1.x, c16.x\nend")
        _CHECKED = (isinstance(p, MesaProgram) and p.words[:2] == [0x40b8080410408004, 0x0300000000000000]
                    and (p.max_reg, p.max_half_reg, p.max_const) == (1, -1, 16)
                    and p.local_size == (4, 2, 1) and p.buf_sizes == [4] and p.buf_addr_regs == [8]
                    and p.buf_init == [[5, 6]] and p.numwg == 12
                    and p.consts[16:20] == [0, 0x3f800000, 7, 0])
    return _CHECKED


def mesa_assemble_many(texts):
    """mesa_assemble for each text, in a worker process (mesa aborts on some inputs: an assert
    in its parser or encoder); a text that kills the worker gets "crash: <how>"."""
    import json
    import subprocess
    out = []
    todo = list(texts)
    while todo:
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--asm-worker"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        done = 0
        try:
            for text in todo:
                proc.stdin.write(json.dumps(text) + "\n")
                proc.stdin.flush()
                line = proc.stdout.readline()
                if not line:
                    break
                out.append(_from_json(json.loads(line)))
                done += 1
        except BrokenPipeError:
            pass
        proc.stdin.close()
        err = proc.stderr.read()
        rc = proc.wait()
        todo = todo[done:]
        if todo:                  # the worker died on todo[0]
            how = err.strip().splitlines()[-1] if err.strip() else "signal %d" % -rc
            out.append("crash: " + how)
            todo = todo[1:]
    return out


def _to_json(r):
    return r if isinstance(r, str) else vars(r)


def _from_json(r):
    if isinstance(r, str):
        return r
    r["local_size"] = tuple(r["local_size"])
    return MesaProgram(**r)


def _worker():
    import json
    for line in sys.stdin:
        r = mesa_assemble(json.loads(line))
        if isinstance(r, str):
            # mesa's parser keeps the flags it read before an error in statics (iflags,
            # rflags) until its next instruction: a throwaway one takes them
            mesa_assemble("nop")
        print(json.dumps(_to_json(r)), flush=True)


def asm_available():
    """mesa's assembler can be called (the wheel is there and the offsets check out)."""
    try:
        return available() and _self_test()
    except OSError:
        return False


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


def differential(n, seed, seeds, reassemble=True, mesa_asm=True):
    """Compare n words with mesa; returns (stats, problems).

    Where mesa decodes a word: our text and warnings must be its. Where it rejects one: so must
    we. Our re-assembly of the text must decode to the text again, and (mesa_asm, when mesa's
    assembler can be called) be mesa's assembly of the text wherever mesa's word disassembles
    to that text (elsewhere mesa's parser misreads the text or rejects it: counted, not judged).
    """
    from assembler.errors import AssemblerError
    from assembler.ir3.encoder import encode_line
    rng = random.Random(seed)
    words = random_words(rng, n, seeds)
    stats = {"decoded": 0, "rejected": 0, "reassembled": 0, "reassembly_skipped": 0}
    problems = []
    again = {}
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
                word = encode_line(got[0])
            except AssemblerError:
                stats["reassembly_skipped"] += 1
                continue
            if ours(word) is None or ours(word)[0] != got[0]:
                problems.append(("%016x" % w, "reassembled to %016x" % word, got))
            else:
                stats["reassembled"] += 1
                if not got[1]:
                    again[got[0]] = word
    if reassemble and mesa_asm and again and asm_available():
        stats.update(mesa_asm_same=0, mesa_asm_misread=0, mesa_asm_rejected=0)
        texts = sorted(again)
        for text, r in zip(texts, mesa_assemble_many(texts)):
            if isinstance(r, str):
                stats["mesa_asm_rejected"] += 1
            elif r.words[0] == again[text]:
                stats["mesa_asm_same"] += 1
            elif (verdicts([r.words[0]])[0] or ("",))[0] != text:
                stats["mesa_asm_misread"] += 1
            else:
                problems.append((text, "mesa assembles %016x" % r.words[0], "%016x" % again[text]))
    return stats, problems


def main():
    if sys.argv[1:] == ["--asm-worker"]:
        _worker()
        return 0
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
