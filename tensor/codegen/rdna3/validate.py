"""Checks that generated code is valid RDNA3, not just valid in the project's own tools.

``RDNA3_VERIFY=1`` (the test suite sets it) makes every :func:`compile_kernel` call

* disassemble its machine code and assemble the text again: the bytes must be identical
  (the assembler and disassembler agree on every instruction the generator emits), and
* check its memory waits on every path (:mod:`.waitcheck`: the simulator runs a load at once,
  so a missing ``s_waitcnt`` would otherwise pass there by luck), and
* record the kernel in :data:`SEEN`, so that :func:`llvm_problems` can hand all of them at once
  to LLVM 19 when it is installed: ``llvm-mc-19`` must assemble the generated text to the same
  bytes, and ``llvm-objdump-19`` must read every code object and decode every instruction.

LLVM is a test oracle here, never a run-time dependency.
"""
import os
import re
import shutil
import subprocess
import tempfile

from . import waitcheck

SEEN = []                      # (name, text, code bytes, code object bytes)
LLVM_MC = "llvm-mc-19"
LLVM_OBJDUMP = "llvm-objdump-19"


class VerifyError(AssertionError):
    """Generated code that does not survive a round trip; names the kernel and instruction."""


def enabled():
    return os.environ.get("RDNA3_VERIFY", "") not in ("", "0")


def roundtrip(name, code):
    """Disassemble ``code`` and assemble it again; VerifyError at the first differing word."""
    from assembler.rdna3 import assemble, decode
    pc, lines, starts = 0, [], []
    while pc < len(code):
        ins, size = decode(code, pc)
        lines.append(ins.text)
        starts.append(pc)
        pc += size
    again = assemble("\n".join(lines))
    if again != code:
        for k, pc in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(code)
            if again[pc:end] != code[pc:end]:
                raise VerifyError(f"{name}: '{lines[k]}' at 0x{pc:x} re-assembles to "
                                  f"{again[pc:end].hex()}, the code has {code[pc:end].hex()}")
        raise VerifyError(f"{name}: re-assembled code differs in length")


def record(name, text, code, code_object):
    if enabled():
        roundtrip(name, code)
        waitcheck.check(name, text)
        SEEN.append((name, text, bytes(code), bytes(code_object)))


def llvm_available():
    return shutil.which(LLVM_MC) is not None and shutil.which(LLVM_OBJDUMP) is not None


def llvm_problems(kernels):
    """What LLVM 19 finds wrong with these kernels ([] when all is well)."""
    from elftools.elf.elffile import ELFFile
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        # llvm-mc: every kernel's text, labels made unique, into one object
        parts, expect = [], b""
        for n, (name, text, code, _) in enumerate(kernels):
            parts.append(re.sub(r"\b(L\d+)\b", rf"k{n}_\1", text))
            expect += code
        src = os.path.join(tmp, "all.s")
        with open(src, "w") as f:
            f.write("\n".join(parts))
        obj = os.path.join(tmp, "all.o")
        r = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj", src, "-o", obj],
                           capture_output=True, text=True)
        if r.returncode or r.stderr.strip():
            problems.append(f"llvm-mc-19 rejects the generated text: {r.stderr.strip()[:2000]}")
        else:
            with open(obj, "rb") as f:
                text = ELFFile(f).get_section_by_name(".text").data()
            if text != expect:
                at = next((i for i in range(min(len(text), len(expect))) if text[i] != expect[i]),
                          min(len(text), len(expect)))
                owner, start = "?", 0
                for name, _, code, _ in kernels:
                    if at < start + len(code):
                        owner = name
                        break
                    start += len(code)
                problems.append(f"llvm-mc-19 encodes kernel {owner} differently at byte {at - start}")
        # llvm-objdump: every code object
        paths = []
        for n, (name, _, _, co) in enumerate(kernels):
            p = os.path.join(tmp, f"k{n}.hsaco")
            with open(p, "wb") as f:
                f.write(co)
            paths.append(p)
        for chunk in range(0, len(paths), 200):
            r = subprocess.run([LLVM_OBJDUMP, "-d", "--mcpu=gfx1100"] + paths[chunk:chunk + 200],
                               capture_output=True, text=True)
            bad = [ln for ln in r.stdout.splitlines() if "<unknown>" in ln or "invalid" in ln.lower()]
            if r.returncode or r.stderr.strip() or bad:
                problems.append(f"llvm-objdump-19: {(r.stderr.strip() or ' / '.join(bad))[:2000]}")
    return problems
