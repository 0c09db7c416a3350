#!/usr/bin/env python3
"""Fuzz the command lines: `python -m assembler.rdna3 asm|disasm` and `python -m assembler.amdgpu`.

    python scripts/fuzz_cli.py [-n 5000] [--seed 1] [--hang 30]

Each input is a file handed to one command: assembly built from the instruction corpus and then
mutated (characters replaced, inserted or deleted; operands swapped for hostile ones: deep
expressions, unicode digits, huge numbers, long tokens; bytes that are not UTF-8; directives and
.amdhsa_kernel blocks with hostile values), or a code object (ours or clang-19's) with bytes
flipped or cut, or random bytes, for disasm and the code-object reader. Every run must end with
exit status 0, 1 or 2 and at most one error line per file, nothing escaping; files must be
closed. Prints inputs tried, raw exceptions, hangs and leaks; exit status 1 unless all three
are zero.
"""
import contextlib
import io
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from fuzzing import Report, Watchdog, live_threads, main_args, open_fds, settle_threads  # noqa: E402

CORPUS = os.path.join(ROOT, "tests", "data", "rdna3", "corpus.s")
HOSTILE = ["-" * 3000 + "1", "~" * 20000, "(" * 400 + "1" + ")" * 400, "\u00b2", "\uff11\uff12", "1" * 5000,
           "0x" + "f" * 200, "1e999", "-0.0", "nan", "v[4:2]", "s[0:99999999999]", "v\u0663", "s-1", "[]",
           "dpp8:[\u00b2,1,2,3,4,5,6,7]", "offset:-99999999999", "row_shl:\uff11", "\x00", "'", '"', ";", "::",
           "v_dual_mul_f32", "x" * 10000, "@", "\\", "\t" * 50]
DIRECTIVES = [".long", ".byte", ".short", ".quad", ".p2align", ".align", ".text", ".rodata", ".globl k",
              ".amdhsa_next_free_vgpr", ".amdhsa_user_sgpr_count", ".amdhsa_kernarg_size", ".amdhsa_code_object_version"]
KERNEL_BLOCK = """.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5
.text
.p2align 8
.globl k
k:
  {body}
.rodata
.p2align 6
.amdhsa_kernel k
  {directive} {value}
  .amdhsa_next_free_vgpr 4
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel
"""


def corpus_lines():
    with open(CORPUS) as f:
        return [line.split(";", 1)[0].strip() for line in f if line.strip() and not line.startswith(";")]


def mutate_text(rng, line):
    chars = list(line)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(5)
        pos = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            chars[min(pos, len(chars) - 1)] = rng.choice("0123456789abcdefxv s[]:,-~()+*/<>|&^.\u00b2\uff11\x00\t\"'")
        elif op == 1:
            chars.insert(pos, rng.choice(HOSTILE) if rng.random() < 0.3 else rng.choice(" ,:[]()-~0123456789"))
        elif op == 2 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif op == 3:
            words = "".join(chars).split(" ")
            words[rng.randrange(len(words))] = rng.choice(HOSTILE)
            chars = list(" ".join(words))
        else:
            chars = list("".join(chars) + " " + rng.choice(HOSTILE))
    return "".join(chars)


def asm_source(rng, lines):
    pick = rng.random()
    if pick < 0.55:
        body = [rng.choice(lines) for _ in range(rng.randrange(1, 6))]
        i = rng.randrange(len(body))
        body[i] = mutate_text(rng, body[i])
        text = "\n".join(body) + "\n"
    elif pick < 0.75:
        text = f"{rng.choice(DIRECTIVES)} {rng.choice(HOSTILE + ['1', '0', '-1', '1,2,3', '0x100'])}\n"
    else:
        text = KERNEL_BLOCK.format(body=mutate_text(rng, rng.choice(lines)) if rng.random() < 0.5 else "s_endpgm",
                                   directive=rng.choice(DIRECTIVES[9:] + [".amdhsa_bogus", ".amdhsa_wavefront_size32"]),
                                   value=rng.choice(HOSTILE + ["1", "0", "4294967296", "-1", "2+3"]))
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.08:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]) + data[at:]
    return data


def binary_input(rng, objects):
    pick = rng.random()
    if pick < 0.15:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 400)))
    data = bytearray(rng.choice(objects))
    if pick < 0.3:
        return bytes(data[:rng.randrange(len(data))])
    for _ in range(rng.randrange(1, 24)):
        limit = len(data) if rng.random() < 0.3 else min(len(data), 1024)
        data[rng.randrange(limit)] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
    return bytes(data)


def code_objects():
    out = []
    for folder in (os.path.join(ROOT, "tests", "clang_kernels"), os.path.join(ROOT, "tests", "data", "codeobj")):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".hsaco"):
                with open(os.path.join(folder, name), "rb") as f:
                    out.append(f.read())
    return out


def run(n, seed, hang):
    from assembler.amdgpu.__main__ import main as amdgpu_main
    from assembler.rdna3.__main__ import main as rdna3_main
    rng = random.Random(seed)
    report = Report("fuzz_cli", seed)
    dog = Watchdog("fuzz_cli", hang, seed)
    lines, objects = corpus_lines(), code_objects()
    fds, threads = open_fds(), live_threads()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        src, obj, out = os.path.join(tmp, "in.s"), os.path.join(tmp, "in.hsaco"), os.path.join(tmp, "out.bin")
        for index in range(n):
            pick = rng.random()
            if pick < 0.6:
                with open(src, "wb") as f:
                    f.write(asm_source(rng, lines))
                command, argv, main = "asm", ["asm", src] + (["-o", out] if rng.random() < 0.8 else []), rdna3_main
            else:
                with open(obj, "wb") as f:
                    f.write(binary_input(rng, objects))
                if pick < 0.8:
                    command, argv, main = "disasm", ["disasm", obj], rdna3_main
                else:
                    command, argv, main = "amdgpu", ["-v", obj] if rng.random() < 0.5 else [obj], amdgpu_main
            before = open_fds()
            with dog.input(index, command):
                stdout, stderr = io.StringIO(), io.StringIO()
                try:
                    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                        code = main(argv)
                    err = stderr.getvalue()
                    if code not in (0, 1, 2) or err.count("\n") > 1 or "Traceback" in err:
                        raise AssertionError(f"exit status {code!r}, stderr {err[:300]!r}")
                    report.outcome(index, command, label=f"{command} exit {code}")
                except SystemExit as e:
                    report.outcome(index, command, None if e.code == 2 else AssertionError(f"exit {e.code}"),
                                   label=f"{command} usage error")
                except Exception as e:                  # noqa: BLE001 -- the fuzzer's job is to sort them
                    report.outcome(index, command, e)
            leaked = open_fds() - before
            if leaked:
                report.leaks.append(f"input {index} ({command}): file descriptors {sorted(leaked)} left open")
            for path in (out, os.path.join(tmp, "in.bin"), os.path.join(tmp, "in.hsaco.bin")):
                if os.path.exists(path):
                    os.unlink(path)
    extra = settle_threads(threads)
    if extra:
        report.leaks.append(f"threads still running: {extra}")
    if open_fds() - fds:
        report.leaks.append(f"file descriptors opened and not closed: {sorted(open_fds() - fds)}")
    report.seconds = time.perf_counter() - start
    return report


def main():
    args = main_args(__doc__.split("\n\n")[0], 5000)
    report = run(args.n, args.seed, args.hang)
    print(report.text())
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
