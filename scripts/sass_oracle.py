"""NVIDIA's tools as test oracles: ptxas, nvdisasm and cuobjdump, found and driven in bulk.

Shared by scripts/gen_sass_tables.py, scripts/gen_sass_corpus.py, scripts/bench_sass.py and the
tests that need an oracle. Nothing here is used at run time.

Where the tools come from: the PATH first, then the PyPI wheels `nvidia-cuda-nvdisasm`,
`nvidia-cuda-cuobjdump` and `nvidia-cuda-nvcc` (ptxas), which put their binaries under
site-packages/nvidia/<something>/bin/.

`disassemble_words(words, arch)` hands thousands of 128-bit words to one `nvdisasm -b SMxx`
process. nvdisasm refuses a whole file when one word is illegal, but names the address of every
bad word on stderr, so a refused batch is retried without them; word i sits at address 16*i
(branch targets print as absolute addresses). Answers are cached on disk (SASS_ORACLE_CACHE, by
default ~/.cache/gpustack/sass-oracle) keyed by tool version, arch, address and word.
"""
import glob
import hashlib
import os
import re
import shelve
import shutil
import site
import struct
import subprocess
import sys
import tempfile

ARCHS = ("sm_86", "sm_89", "sm_90")
_LINE = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*$")
_ERR = re.compile(r"at address 0x([0-9a-f]+)")
_M64 = (1 << 64) - 1


def _wheel_dirs():
    dirs = []
    for base in site.getsitepackages() + [site.getusersitepackages()] + sys.path:
        if base and os.path.isdir(os.path.join(base, "nvidia")):
            dirs.append(os.path.join(base, "nvidia"))
    return list(dict.fromkeys(dirs))


def find_tool(name):
    """Path of an NVIDIA tool (ptxas, nvdisasm, cuobjdump), or None."""
    env = os.environ.get(name.upper())
    if env and os.access(env, os.X_OK):
        return env
    path = shutil.which(name)
    if path:
        return path
    for d in _wheel_dirs():
        for cand in sorted(glob.glob(os.path.join(d, "*", "bin", name))):
            if os.access(cand, os.X_OK):
                return cand
    return None


def tool_version(path):
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"V(\d+\.\d+\.\d+)", out)
    return m.group(1) if m else "unknown"


def sm_flag(arch):
    """'sm_90' -> 'SM90' (nvdisasm -b)."""
    return "SM" + arch.split("_", 1)[1]


class Nvdisasm:
    def __init__(self, path=None, cache=True):
        self.path = path or find_tool("nvdisasm")
        if self.path is None:
            raise RuntimeError("nvdisasm not found (pip install nvidia-cuda-nvdisasm)")
        self.version = tool_version(self.path)
        self.calls = 0
        self._db = None
        if cache:
            d = os.environ.get("SASS_ORACLE_CACHE",
                               os.path.join(os.path.expanduser("~"), ".cache", "gpustack", "sass-oracle"))
            os.makedirs(d, exist_ok=True)
            self._db = shelve.open(os.path.join(d, "nvdisasm-" + self.version))

    def close(self):
        if self._db is not None:
            self._db.close()
            self._db = None

    def _run(self, arch, words, base=0):
        data = b"".join(struct.pack("<QQ", w & _M64, w >> 64) for w in words)
        with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
            f.write(data)
            name = f.name
        try:
            r = subprocess.run([self.path, "-b", sm_flag(arch), "--base-address", hex(base), name],
                               capture_output=True, text=True)
        finally:
            os.unlink(name)
        self.calls += 1
        return r

    def disassemble_words(self, words, arch, base=0, chunk=2048):
        """Text nvdisasm prints for each word (word i at address base + 16*i), None where it
        refuses the word."""
        res = [None] * len(words)
        need = []
        for i, w in enumerate(words):
            key = "%s:%x:%032x" % (arch, base + 16 * i, w)
            if self._db is not None and key in self._db:
                res[i] = self._db[key]
            else:
                need.append(i)
        # words keep their addresses: disassemble the needed positions in runs of the full list
        for s in range(0, len(need), chunk):
            idx = need[s:s + chunk]
            lo, hi = idx[0], idx[-1] + 1
            span = list(words[lo:hi])
            todo = set(i - lo for i in idx)
            refused = set()
            while True:
                # refused words are replaced by NOPs so every other word keeps its address
                batch = [0x7918 if j in refused else w for j, w in enumerate(span)]
                r = self._run(arch, batch, base + 16 * lo)
                bad = {(int(m.group(1), 16) - base - 16 * lo) // 16 for m in _ERR.finditer(r.stderr)}
                if r.returncode == 0 and not (bad - refused):
                    got = {}
                    for line in r.stdout.splitlines():
                        m = _LINE.match(line)
                        if m:
                            got[(int(m.group(1), 16) - base - 16 * lo) // 16] = m.group(2)
                    for j in todo:
                        res[lo + j] = None if j in refused else got.get(j)
                    break
                if not (bad - refused):
                    raise RuntimeError("nvdisasm failed: " + r.stderr.strip())
                refused |= bad
            if self._db is not None:
                for j in todo:
                    self._db["%s:%x:%032x" % (arch, base + 16 * (lo + j), span[j])] = res[lo + j]
                self._db.sync()
        return res

    def listing(self, path_or_bytes, arch=None, hex_words=True):
        """nvdisasm's listing of a cubin (or raw code with arch): [(section, addr, text, word)]."""
        tmp = None
        if isinstance(path_or_bytes, (bytes, bytearray)):
            with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
                f.write(path_or_bytes)
                tmp = path = f.name
        else:
            path = path_or_bytes
        try:
            cmd = [self.path, "-c"] + (["-hex"] if hex_words else [])
            if arch:
                cmd += ["-b", sm_flag(arch)]
            r = subprocess.run(cmd + [path], capture_output=True, text=True)
        finally:
            if tmp:
                os.unlink(tmp)
        if r.returncode != 0:
            raise RuntimeError("nvdisasm failed: " + r.stderr.strip())
        return parse_listing(r.stdout)


_HEX_LINE = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*/\* 0x([0-9a-f]{16}) \*/\s*$")
_HEX_HI = re.compile(r"^\s+/\* 0x([0-9a-f]{16}) \*/\s*$")
_SECTION = re.compile(r"^\s*\.section\s+([^,\s]+)")


def parse_listing(text):
    """[(section, addr, text, word or None)] from an nvdisasm listing (with or without -hex)."""
    out = []
    section = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _SECTION.match(line)
        if m:
            section = m.group(1)
        m = _HEX_LINE.match(line)
        if m and i + 1 < len(lines) and _HEX_HI.match(lines[i + 1]):
            hi = int(_HEX_HI.match(lines[i + 1]).group(1), 16)
            out.append((section, int(m.group(1), 16), m.group(2), int(m.group(3), 16) | hi << 64))
            i += 2
            continue
        m = _LINE.match(line)
        if m:
            out.append((section, int(m.group(1), 16), m.group(2), None))
        i += 1
    return out


def ptxas(ptx_path, arch, out_path, extra=()):
    """Compile PTX to a cubin with ptxas; raises with ptxas's message on failure."""
    tool = find_tool("ptxas")
    if tool is None:
        raise RuntimeError("ptxas not found (CUDA toolkit, or pip install nvidia-cuda-nvcc)")
    r = subprocess.run([tool, "-arch=" + arch, *extra, "-o", out_path, ptx_path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("ptxas %s (%s): %s" % (ptx_path, arch, r.stderr.strip()))
    return out_path


def ptx_target(ptx_path):
    """The .target of a PTX file ('sm_80')."""
    with open(ptx_path) as f:
        for line in f:
            m = re.match(r"\s*\.target\s+(sm_\d+)", line)
            if m:
                return m.group(1)
    raise RuntimeError("%s has no .target line" % ptx_path)


def archs_for(ptx_path):
    """The archs of ARCHS a PTX file can be compiled for (those at or above its .target)."""
    t = int(ptx_target(ptx_path).split("_")[1])
    return [a for a in ARCHS if int(a.split("_")[1]) >= t]


def file_digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]
