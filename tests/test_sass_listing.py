"""Listings (assembler.sass.listing, `python -m assembler.sass disasm`): branch targets as the
labels nvdisasm gives them in a cubin, and exact listings that assemble back to the same words.

Checked on the golden corpus (each .sass file holds one cubin's code sections in nvdisasm's
order, with its labels and its text), then through the command line on a cubin of ours, and,
when ptxas and nvdisasm are installed, against nvdisasm's own listing of ptxas's cubins.
"""
import os
import re
import subprocess
import sys

import pytest

from assembler.cubin import build_cubin
from assembler.sass import assemble_program, decode_word
from assembler.sass.listing import listing

sys.path.insert(0, os.path.dirname(__file__))
from test_sass_corpus import ARCHS, load  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STMT = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/ (.*?)(  // \[.*)?$")
_ANNOT = re.compile(r"\s+\(\*.*\*\)")


def _files(arch):
    """{file: [(section, code bytes, {address: [symbols]}, insns, labels)]} in corpus order."""
    out = {}
    for f, sec, insns, labels in load(arch):
        code = b"".join(w.to_bytes(16, "little") for _, w, _, _ in insns)
        symbols = {}
        for i, name in labels:
            if not name.startswith(".L_x_"):
                symbols.setdefault(16 * i, []).append(name)
        out.setdefault(f, []).append((sec, code, symbols, insns, labels))
    return out


def _parse(lines):
    """([(address, statement)], {label: index of the statement after it})"""
    stmts, labels = [], {}
    for line in lines:
        m = _STMT.match(line)
        if m:
            stmts.append((int(m.group(1), 16), m.group(2)))
        elif line.endswith(":"):
            labels[line[:-1]] = len(stmts)
    return stmts, labels


@pytest.mark.parametrize("arch", ARCHS)
def test_labels_are_nvdisasms(arch):
    """Every statement reads as in nvdisasm's cubin listing (`(.L_x_N), `($callee)), every label
    we print stands where nvdisasm put it (nvdisasm adds more: .nv.info offsets, section ends, and
    the BRANCH_TARGETS annotation of BRX, which comes from .nv.info too)."""
    bad, n_labels = [], 0
    for f, secs in _files(arch).items():
        got = listing([(code, symbols) for _, code, symbols, _, _ in secs], arch)
        for (sec, _, _, insns, labels), lines in zip(secs, got):
            stmts, ours = _parse(lines)
            for (addr, _w, text, raw), (a, t) in zip(insns, stmts):
                want = raw if _ANNOT.search(text) else text
                if (addr, want) != (a, t):
                    bad.append((f, sec, hex(addr), text, t))
            theirs = {name: i for i, name in labels}
            for name, i in ours.items():
                n_labels += name.startswith(".L_x_")
                if theirs.get(name) != i:
                    bad.append((f, sec, "label %s before statement %d, nvdisasm: %s" % (name, i, theirs.get(name))))
    assert bad == [], bad[:5]
    assert n_labels > 150


@pytest.mark.parametrize("arch", ARCHS)
def test_exact_listings_assemble_to_the_same_words(arch):
    """The kernels with branches, calls, the descriptor ptxas keeps twice and NaN payloads (the
    whole corpus assembles from nvdisasm's listing in test_sass_corpus)."""
    files = _files(arch)
    for f in ("control.sass", "reduce.sass", "convert.sass"):
        secs = files[f]
        got = listing([(code, symbols) for _, code, symbols, _, _ in secs], arch, exact=True)
        for (sec, code, _, _, _), lines in zip(secs, got):
            assert assemble_program("\n".join(lines), arch).data == code, (f, sec)
    # and with absolute addresses as targets
    secs = _files(arch)["control.sass"]
    got = listing([(code, {}) for _, code, _, _, _ in secs], arch, addresses=True, exact=True)
    for (sec, code, _, _, _), lines in zip(secs, got):
        assert "`(" not in "\n".join(lines)
        assert assemble_program("\n".join(lines), arch).data == code, sec


LOOP = """
.kernel loop
    .param n, 4
    S2R R0, SR_TID.X ;
    MOV R1, RZ ;
    ULDC UR4, c[0x0][param:n] ;
    BSSY B0, `(done) ;
top:
    ISETP.GE.U32.AND P0, PT, R1, UR4, PT ;
    @P0 BRA `(out) ;
    IADD3 R1, R1, 0x1, RZ ;
    BRA `(top) ;
out:
    BSYNC B0 ;
done:
    EXIT ;
.end
"""


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "assembler.sass"] + list(args), capture_output=True, text=True,
                          cwd=ROOT)


@pytest.mark.parametrize("arch", ARCHS)
def test_cli_round_trip_with_labels(arch, tmp_path):
    from assembler.cubin import read_cubin
    cub = read_cubin(build_cubin(LOOP, arch))
    path = tmp_path / "k.cubin"
    path.write_bytes(build_cubin(LOOP, arch))
    r = _cli("disasm", str(path), "--exact")
    assert r.returncode == 0, r.stderr
    assert "@P0 BRA `(.L_x_1) ;" in r.stdout and "BSSY B0, `(.L_x_0) ;" in r.stdout
    assert "BRA `(.L_x_3);" in r.stdout                   # the padding's branch to itself
    assert "\n.L_x_2:\n" in r.stdout and "// [B" in r.stdout
    src = tmp_path / "k.sass"
    src.write_text(r.stdout)
    assert r.stdout.startswith(".target %s\n" % arch)        # asm takes the arch from it
    assert _cli("asm", str(src), "-o", str(tmp_path / "k.bin")).returncode == 0
    assert (tmp_path / "k.bin").read_bytes() == cub.kernels["loop"].code
    r = _cli("disasm", str(path), "--addresses")
    assert r.returncode == 0 and "`(" not in r.stdout and re.search(r"@P0 BRA 0x[0-9a-f]+ ;", r.stdout)


def test_cli_exact_annotates_what_the_text_cannot_say(tmp_path):
    # a NaN with a payload, and a global load whose descriptor pair is not the dominating load's
    src = ("ULDC.64 UR4, c[0x0][0x118] ;\nULDC.64 UR6, c[0x0][0x118] ;\n"
           "LDG.E R2, [R2.64] ;  // desc=UR6\nFSEL R5, R5, 0x7ff00000, !P0 ;\nEXIT ;\n")
    code = assemble_program(src, "sm_86").data
    (tmp_path / "k.bin").write_bytes(code)
    plain = _cli("disasm", str(tmp_path / "k.bin"), "--arch", "sm_86")
    assert "LDG.E R2, [R2.64] ;" in plain.stdout and "FSEL R5, R5, +QNAN , !P0 ;" in plain.stdout
    r = _cli("disasm", str(tmp_path / "k.bin"), "--arch", "sm_86", "--exact")
    assert re.search(r"LDG.E R2, \[R2.64\] ;  // \[B.*\] desc=UR6\n", r.stdout)
    assert "FSEL R5, R5, 0x7ff00000, !P0 ;" in r.stdout
    assert "ULDC.64 UR4, c[0x0][0x118] ;  // [B" in r.stdout           # the rest as nvdisasm says it
    (tmp_path / "k.sass").write_text(r.stdout)
    assert _cli("asm", str(tmp_path / "k.sass"), "--arch", "sm_86", "-o", str(tmp_path / "k2.bin")).returncode == 0
    assert (tmp_path / "k2.bin").read_bytes() == code


def test_a_descriptor_note_where_there_is_none_is_refused():
    from assembler.errors import AssemblerError
    with pytest.raises(AssemblerError, match="desc=UR4 names a memory descriptor") as e:
        assemble_program("NOP ;\nLDS R0, [R2] ;  // desc=UR4\n", "sm_86")
    assert e.value.line == 2
    with pytest.raises(AssemblerError, match="sm_90 prints the memory descriptor") as e:
        assemble_program("LDG.E R2, desc[UR4][R2.64] ;  // desc=UR6\n", "sm_90")
    assert (e.value.line, e.value.column) == (1, 34)
    # before sm_90, desc[URn] in the address is another encoding, as nvdisasm prints it
    w = assemble_program("LDG.E R2, desc[UR6][R2.64] ;", "sm_86").words[0]
    assert (w >> 32) & 63 == 6 and "desc[UR6]" in decode_word(w, "sm_86").text
