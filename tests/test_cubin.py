"""Cubins: ours are read back with every attribute we wrote; ptxas's are read as cuobjdump reads
them (frozen in tests/data/sass/ARCH/resources.json; the ptxas part skips without ptxas); ours
pass `cuobjdump -elf -sass` and `nvdisasm` (skips without them)."""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

import pytest

from assembler.cubin import build_cubin, read_cubin
from assembler.cubin.text import parse_cubin_text
from assembler.errors import AssemblerError, MalformedInput

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from sass_oracle import archs_for, find_tool, ptxas  # noqa: E402

KERNELS = os.path.join(ROOT, "tests", "sass_kernels")
ARCHS = ("sm_86", "sm_89", "sm_90")

VADD = """
.kernel vadd
    .param a, 8
    .param b, 8
    .param c, 8
    .param n, 4
    .shared 256
    S2R R0, SR_TID.X ;
    S2R R3, SR_CTAID.X ;
    ULDC UR4, c[0x0][param:n] ;
    ISETP.GE.U32.AND P0, PT, R0, UR4, PT ;
    @P0 EXIT ;
    BAR.SYNC.DEFER_BLOCKING 0x0 ;
    EXIT ;
.end
.kernel second
    .param x, 4
    .param y, 8
    .local 16
    .maxntid 128
    EXIT ;
.end
"""


@pytest.mark.parametrize("arch", ARCHS)
def test_our_cubin_reads_back(arch):
    data = build_cubin(VADD, arch)
    cub = read_cubin(data)
    assert cub.arch == arch and cub.abi_version == 8 and set(cub.kernels) == {"vadd", "second"}
    # e_flags bits 24..31 name .note.nv.cuinfo, as ptxas writes them (cuobjdump checks it on sm_90)
    from assembler.cubin import elf
    assert elf.read(data).sections[cub.e_flags >> 24].name == ".note.nv.cuinfo"
    k = cub.kernels["vadd"]
    base = 0x210 if arch == "sm_90" else 0x160
    assert [(p.ordinal, p.offset, p.size) for p in k.params] == [(0, 0, 8), (1, 8, 8), (2, 16, 8), (3, 24, 4)]
    assert (k.param_base, k.param_size, k.cbank0_size) == (base, 28, base + 28)
    assert k.shared_size == 256 + (0x400 if arch == "sm_90" else 0)
    assert k.shared_reserved == (0x400 if arch == "sm_90" else 0)
    assert k.barriers == 1 and k.exit_offsets == [0x40, 0x60]
    assert k.regs == 6                                       # R0..R3 used, as ptxas counts: + 3
    assert len(k.code) % 128 == 0 and k.code[:16 * 7] == parse_cubin_text(VADD, arch)[1][0].code
    s = cub.kernels["second"]
    assert [(p.offset, p.size) for p in s.params] == [(0, 4), (8, 8)]
    assert s.local_size == 16 and s.max_threads == (128, 1, 1) and s.barriers == 0 and s.shared_size == 0
    # the parameter reference was resolved to the constant-bank address
    from assembler.sass import decode
    assert decode(k.code, arch, 0x20).text == \
        "ULDC UR4, c[0x0][0x%x] ;" % (base + 24)


def test_the_example_builds_and_reads_back():
    with open(os.path.join(ROOT, "examples", "vector_add_sm90.sass")) as f:
        cub = read_cubin(build_cubin(f.read()))
    k = cub.kernels["vadd"]
    assert cub.arch == "sm_90" and (k.param_base, k.param_size) == (0x210, 28) and k.exit_offsets == [0x60, 0x120]


def test_text_errors_name_the_line():
    with pytest.raises(AssemblerError, match=r"no \.end"):
        build_cubin(".target sm_86\n.kernel k\n EXIT ;\n")
    with pytest.raises(AssemblerError, match="unknown parameter 'q'") as e:
        build_cubin(".target sm_86\n.kernel k\n.param a, 4\n MOV R0, c[0x0][param:q] ;\n.end\n")
    assert e.value.line == 4
    with pytest.raises(AssemblerError, match="disagrees"):
        build_cubin(".target sm_90\n.kernel k\nEXIT ;\n.end\n", "sm_86")
    with pytest.raises(AssemblerError, match="no arch"):
        build_cubin(".kernel k\nEXIT ;\n.end\n")
    with pytest.raises(AssemblerError, match="parameter a declared twice"):
        build_cubin(".target sm_86\n.kernel k\n.param a, 4\n.param a, 4\nEXIT ;\n.end\n")


def test_malformed_cubins_are_refused():
    data = bytearray(build_cubin(VADD, "sm_86"))
    with pytest.raises(MalformedInput, match="not an ELF"):
        read_cubin(b"garbage")
    bad = bytearray(data)
    struct.pack_into("<H", bad, 18, 62)                      # e_machine: x86-64
    with pytest.raises(MalformedInput, match="not EM_CUDA"):
        read_cubin(bytes(bad))
    with pytest.raises(MalformedInput, match="section headers"):
        read_cubin(bytes(data[:len(data) - 100]))


def _tools():
    return find_tool("cuobjdump"), find_tool("nvdisasm")


@pytest.mark.skipif(None in _tools(), reason="cuobjdump / nvdisasm not installed (pip install "
                    "nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)")
@pytest.mark.parametrize("arch", ARCHS)
def test_nvidia_tools_accept_our_cubins(arch, tmp_path):
    cuobjdump, nvdisasm = _tools()
    path = tmp_path / "k.cubin"
    path.write_bytes(build_cubin(VADD, arch))
    r = subprocess.run([nvdisasm, "-c", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "BAR.SYNC.DEFER_BLOCKING 0x0" in r.stdout and ".text.second" in r.stdout
    r = subprocess.run([cuobjdump, "-elf", "-sass", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "sm=%s, toolkit=13.0" % arch[3:] in out and "CUDA Virtual SM: %s" % arch in out
    assert "EIATTR_KPARAM_INFO" in out and "EIATTR_PARAM_CBANK" in out and "EIATTR_REGCOUNT" in out
    assert "function: vadd(0x6)\tregister count: 6" in out and "function: second(0x7)\tframe size: 0x10" in out
    assert "EIATTR_NUM_BARRIERS" in out and "EIATTR_MAX_THREADS\n\tFormat:\tEIFMT_SVAL\n\tValue:\t0x80 0x1 0x1" in out
    assert "Ordinal : 0x3\tOffset  : 0x18\tSize    : 0x4" in out
    assert "EIATTR_EXIT_INSTR_OFFSETS" in out and "0x40 0x60" in out
    base = 0x210 if arch == "sm_90" else 0x160
    assert "Value:\t0x2 0x1c%04x" % base in out and "Value:\t0x5 0x10%04x" % base in out     # PARAM_CBANK
    assert "smem=%d" % (256 + (0x400 if arch == "sm_90" else 0)) in out
    assert "ULDC UR4, c[0x0][0x%x]" % (base + 24) in out
    # the code cuobjdump lists is ours, word for word
    cub = read_cubin(path.read_bytes())
    listed = {}
    for fn, body in re.findall(r"Function : (\w+)\n(.*?)\.\.\.\.", out, re.S):
        hexes = re.findall(r"/\* 0x([0-9a-f]{16}) \*/", body)
        listed[fn] = b"".join(int(h, 16).to_bytes(8, "little") for h in hexes)
    assert listed == {name: k.code for name, k in cub.kernels.items()}


RESOURCES = {a: json.load(open(os.path.join(ROOT, "tests", "data", "sass", a, "resources.json"))) for a in ARCHS}


def _frozen_ptxas_version():
    with open(os.path.join(ROOT, "tests", "data", "sass", "sm_86", "control.sass")) as f:
        return f.readline().split("ptxas ")[1].split(",")[0]


def _ptxas_problem():
    """Why the live ptxas test cannot run here, or None."""
    path = find_tool("ptxas")
    if path is None:
        return "ptxas not installed (CUDA toolkit or pip install nvidia-cuda-nvcc==%s)" % _frozen_ptxas_version()
    from sass_oracle import tool_version
    if tool_version(path) != _frozen_ptxas_version():
        return "ptxas %s is not the %s the corpus was frozen with (pip install nvidia-cuda-nvcc==%s)" % (
            tool_version(path), _frozen_ptxas_version(), _frozen_ptxas_version())
    return None


@pytest.mark.skipif(_ptxas_problem() is not None, reason=str(_ptxas_problem()))
@pytest.mark.parametrize("arch", ARCHS)
def test_every_ptxas_cubin_of_the_corpus_reads_back(arch):
    """Registers, parameters, constant bank 0, shared memory, barriers and EXIT offsets as
    cuobjdump reported them when the corpus was frozen; the code is the golden corpus's."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from test_sass_corpus import load
    golden = {(f[:-5], sec): [w for _, w, _, _ in insns] for f, sec, insns, _ in load(arch)}
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernels in sorted(RESOURCES[arch].items()):
            if arch not in archs_for(os.path.join(KERNELS, name)):
                continue
            out = os.path.join(tmp, name + ".cubin")
            ptxas(os.path.join(KERNELS, name), arch, out)
            cub = read_cubin(open(out, "rb").read(), out)
            assert set(cub.kernels) == set(kernels), name
            for kname, want in kernels.items():
                k = cub.kernels[kname]
                got = {"regs": k.regs, "params": [[p.ordinal, p.offset, p.size] for p in k.params],
                       "param_base": k.param_base, "param_size": k.param_size, "barriers": k.barriers,
                       "exit_offsets": k.exit_offsets, "shared_size": k.shared_size,
                       "cbank0_size": k.cbank0_size}
                if got != {key: want.get(key) for key in got}:
                    bad.append((name, kname, got, want))
                words = [int.from_bytes(k.code[i:i + 16], "little") for i in range(0, len(k.code), 16)]
                if words != golden[(name[:-4], k.text_section)]:
                    bad.append((name, kname, "code differs from the golden corpus"))
            if name == "memory.ptx":
                # its __constant__ table (bank 3) and the address of a __device__ variable the
                # driver patches into bank 4
                assert len(cub.const_banks[3]) == 256 and cub.globals["ctable"][2] == 256
                assert [(r.symbol, r.section) for r in cub.relocations if r.section != ".debug_frame"] == \
                    [("gcounter", ".nv.constant4")]
    assert bad == [], bad[:3]
