"""Ask the arm64 C compiler what msm_kgsl.h declares: struct layouts, constants, ioctl numbers.

KGSL runs on arm64 phones, so the verdict that matters is the one of an LP64 arm64 build: the
header is full of `unsigned long`, `size_t` and pointers, whose widths (and so the struct sizes
and the request numbers _IOWR() computes from them) differ on 32-bit ARM. The header is parsed
here only to *enumerate* names (structs and their members, object-like macros, enum members,
function-like macros); every number comes from a C file generated from that list and compiled
with Debian's `aarch64-linux-gnu-gcc`. Nothing is run: the values are initializers of one array
in a section of the object file, read back with pyelftools, so no arm64 machine or emulator is
needed.

    python scripts/kgsl_header_probe.py --fetch [REF]              # mesa's header at REF
    python scripts/kgsl_header_probe.py --fetch --fetch-only       # download it, print its path
    python scripts/kgsl_header_probe.py HEADER -o OUT.json --source "where HEADER came from"

The header is mesa's vendored copy, `src/freedreno/vulkan/msm_kgsl.h` (no Debian package ships
it). `--fetch REF` downloads it from mesa's repository at REF (a commit or a tag such as
mesa-24.0.9; default: the commit the main frozen verdict was made from) into the user cache
(~/.cache/gpustack/msm_kgsl/REF/msm_kgsl.h; a header already there is reused) and probes it;
a copy from any mesa checkout or mirror works as well when passed as HEADER. It is read, never
committed. tests/test_kgsl_ioctl.py compares kgsl_ioctl with the frozen verdicts in
tests/data/kgsl_ioctl/ and, when a fetched header is in that cache (or named by $KGSL_HEADER)
and the cross compiler is installed, with a live one. Regenerate with the command in each
file's "regenerate" entry.

`--arch armv7` asks the same of the 32-bit ARM ABI (clang-19 for armv7a-linux-gnueabihf, with
stand-ins for the two kernel headers msm_kgsl.h includes: the __u32-style types, size_t as
unsigned int, and the asm-generic _IOC macros). That verdict is not what kgsl_ioctl declares; it
is the evidence for refusing a 32-bit process (kgsl_ioctl.abi): which structs and request
numbers differ there.

The kernel's uapi export strips `__user`; mesa's copy keeps it, so the probe defines it away.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kfd_header_probe import ProbeError, _matching_brace, _statements, _strip_comments  # noqa: E402

DEFAULT_CC = "aarch64-linux-gnu-gcc"
ARCHES = {
    "arm64": {"cc": DEFAULT_CC, "flags": [], "machine": "EM_AARCH64", "elfclass": 64, "abi": "arm64 (LP64)",
              "install": "Debian: apt-get install gcc-aarch64-linux-gnu"},
    "armv7": {"cc": "clang-19", "flags": ["--target=armv7a-linux-gnueabihf", "-ffreestanding", "-nostdinc"],
              "machine": "EM_ARM", "elfclass": 32, "abi": "32-bit ARM (ILP32, EABI)",
              "install": "Debian: apt-get install clang-19"},
}
# armv7 has no Debian sysroot here: stand-ins for the two kernel headers msm_kgsl.h includes.
ARMV7_STUBS = {
    "linux/types.h": """typedef unsigned char __u8; typedef signed char __s8;
typedef unsigned short __u16; typedef short __s16; typedef unsigned int __u32; typedef int __s32;
typedef unsigned long long __u64; typedef long long __s64;
typedef unsigned int __kernel_size_t;   /* asm-generic/posix_types.h when longs are 32-bit */
""",
    "linux/ioctl.h": """#define _IOC(dir, type, nr, size) (((dir) << 30) | ((type) << 8) | (nr) | ((size) << 16))
#define _IOW(type, nr, T) _IOC(1U, (type), (nr), sizeof(T))
#define _IOR(type, nr, T) _IOC(2U, (type), (nr), sizeof(T))
#define _IOWR(type, nr, T) _IOC(3U, (type), (nr), sizeof(T))
""",
}
# mesa main of 2026-01 (26.0.0-devel): tests/data/kgsl_ioctl/mesa-26.0-devel_msm_kgsl.json
DEFAULT_REF = "d02ba9bb9c01a58ab6231ef6cb9fd8cc6ce00a71"
MESA_RAW = "https://gitlab.freedesktop.org/mesa/mesa/-/raw/{ref}/src/freedreno/vulkan/msm_kgsl.h"
MACRO_ARGS = range(0, 33)   # one-argument macros are evaluated at these arguments
SECTION = ".kgsl_probe"
# Two-argument macros: KGSL_MEMSTORE_OFFSET(ctxt_id, field) is evaluated for these contexts and
# every member of struct kgsl_devmemstore.
MEMSTORE_CONTEXTS = (0, 1, 2, 7)


# ---------------------------------------------------------------------------------------------
# Enumerating names
# ---------------------------------------------------------------------------------------------

_DECL = re.compile(r"^(?P<type>.+?)\s*\b(?P<name>\w+)\s*(?P<array>\[\s*(?P<len>[^\]]*)\])?$")


def _members(body, prefix=""):
    """[(path, kind)]: kind is scalar, pointer, array, char_array, aggregate, aggregate_array
    or flex; anonymous structs and unions flatten into the enclosing struct."""
    fields = []
    for stmt in _statements(body):
        if "{" in stmt:
            open_at = stmt.index("{")
            close_at = _matching_brace(stmt, open_at)
            name = stmt[close_at + 1:].strip()
            if name:
                fields.append((prefix + name, "aggregate"))
                fields += _members(stmt[open_at + 1:close_at], prefix + name + ".")
            else:
                fields += _members(stmt[open_at + 1:close_at], prefix)
            continue
        m = _DECL.match(stmt)
        if not m or "," in stmt or ":" in stmt:
            raise ProbeError(f"cannot parse member declaration {stmt!r}")
        ctype = m.group("type")
        words = ctype.replace("*", " * ").split()
        if "*" in words:
            kind = "pointer" if m.group("array") is None else "array_of_pointers"
        elif m.group("array") is None:
            kind = "aggregate" if words[0] in ("struct", "union") else "scalar"
        elif not m.group("len").strip():
            kind = "flex"
        elif words[0] in ("struct", "union"):
            kind = "aggregate_array"
        else:
            kind = "char_array" if words[-1] == "char" and "unsigned" not in words else "array"
        fields.append((prefix + m.group("name"), kind))
    return fields


def enumerate_header(text):
    """Names the header declares: structs (tag -> members), constants, one- and two-argument
    macros, in the order they appear."""
    text = _strip_comments(text).replace("\\\n", " ")
    constants, functions, functions2 = [], [], []
    code_lines = []
    for line in text.splitlines():
        m = re.match(r"\s*#\s*define\s+(\w+)(\(([^)]*)\))?\s*(.*)$", line)
        if m:
            name, params, value = m.group(1), m.group(3), m.group(4).strip()
            if params is None:
                if value and '"' not in value:
                    constants.append(name)
            elif len(params.split(",")) == 1 and params.strip():
                functions.append(name)
            elif len(params.split(",")) == 2:
                functions2.append(name)
            continue
        if not re.match(r"\s*#", line):
            code_lines.append(line)
    code = "\n".join(code_lines)
    for m in re.finditer(r"\benum\s*\w*\s*\{(.*?)\}", code, flags=re.S):
        for item in m.group(1).split(","):
            if item.strip():
                constants.append(item.split("=")[0].strip())
    structs = {}
    for m in re.finditer(r"\bstruct\s+(\w+)\s*\{", code):
        if m.group(1) in structs:
            continue
        close_at = _matching_brace(code, m.end() - 1)
        structs[m.group(1)] = _members(code[m.end():close_at])
    return {"structs": structs, "constants": constants, "macro_functions": functions,
            "macro_functions_2": functions2}


# ---------------------------------------------------------------------------------------------
# Asking the compiler
# ---------------------------------------------------------------------------------------------

def c_program(header_path, names):
    """(C source, keys): the source fills one u64 array; keys[i] says what element i measures."""
    lines, keys = [], []

    def value(key, expr):
        keys.append(key)
        lines.append(f"  (unsigned long long)({expr}),")

    for tag, fields in names["structs"].items():
        value(("S", tag), f"sizeof(struct {tag})")
        for path, kind in fields:
            member = f"((struct {tag} *)0)->{path}"
            value(("O", tag, path), f"offsetof(struct {tag}, {path})")
            if kind != "flex":
                value(("Z", tag, path), f"sizeof({member})")
            if kind in ("scalar", "array", "char_array"):
                element = member + ("[0]" if kind != "scalar" else "")
                value(("G", tag, path), f"SIGNED({element})")
    for name in names["constants"]:
        value(("C", name), name)
        value(("CZ", name), f"sizeof({name})")
    for name in names["macro_functions"]:
        for arg in MACRO_ARGS:
            value(("X", name, arg), f"{name}({arg})")
            value(("XZ", name, arg), f"sizeof({name}({arg}))")
    if "KGSL_MEMSTORE_OFFSET" in names["macro_functions_2"]:
        for ctxt in MEMSTORE_CONTEXTS:
            for path, _ in names["structs"].get("kgsl_devmemstore", []):
                value(("M", ctxt, path), f"KGSL_MEMSTORE_OFFSET({ctxt}, {path})")
    source = "\n".join([
        "#include <stddef.h>",
        "#include <stdint.h>     /* headers before the 2022 sanitizing use uint64_t */",
        f'#include "{os.path.abspath(header_path)}"',
        "#define SIGNED(x) ((__typeof__(x))-1 < 0)",
        f'__attribute__((used, section("{SECTION}")))',
        "const unsigned long long kgsl_probe_values[] = {",
        *lines,
        "};",
    ]) + "\n"
    return source, keys


def _bits(value, size):
    """The bit pattern a C value of `size` bytes has (so (1 << 31) reads 0x80000000)."""
    return value & ((1 << (8 * size)) - 1)


def read_section(obj_path, arch="arm64"):
    """The u64 values the probe's section holds in the object file."""
    from elftools.elf.elffile import ELFFile
    want = ARCHES[arch]
    with open(obj_path, "rb") as f:
        elf = ELFFile(f)
        if elf["e_machine"] != want["machine"] or elf.elfclass != want["elfclass"] or not elf.little_endian:
            raise ProbeError(f"{obj_path}: not a little-endian {want['elfclass']}-bit {arch} object "
                             f"({elf['e_machine']}, ELF{elf.elfclass})")
        section = elf.get_section_by_name(SECTION)
        if section is None:
            raise ProbeError(f"{obj_path}: no {SECTION} section")
        data = section.data()
    return list(struct.unpack(f"<{len(data) // 8}Q", data))


def build_verdict(names, keys, values):
    if len(keys) != len(values):
        raise ProbeError(f"the object file holds {len(values)} values for {len(keys)} probes")
    got = dict(zip(keys, values))
    verdict = {"structs": {}, "constants": {}, "macro_functions": {}, "memstore_offsets": {}}
    for tag, fields in names["structs"].items():
        layout = {"size": got[("S", tag)], "fields": {}}
        for path, kind in fields:
            layout["fields"][path] = {
                "offset": got[("O", tag, path)],
                "size": got.get(("Z", tag, path)),
                "signed": bool(got[("G", tag, path)]) if ("G", tag, path) in got else None,
                "kind": kind}
        verdict["structs"][tag] = layout
    for name in names["constants"]:
        verdict["constants"][name] = _bits(got[("C", name)], got[("CZ", name)])
    for name in names["macro_functions"]:
        verdict["macro_functions"][name] = {
            str(arg): _bits(got[("X", name, arg)], got[("XZ", name, arg)]) for arg in MACRO_ARGS}
    for key, val in got.items():
        if key[0] == "M":
            verdict["memstore_offsets"].setdefault(str(key[1]), {})[key[2]] = val
    return verdict


def cached_header(ref=DEFAULT_REF):
    """Where --fetch keeps mesa's header at `ref` (it may not be there)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "gpustack", "msm_kgsl", ref, "msm_kgsl.h")


def fetch_header(ref=DEFAULT_REF):
    """mesa's msm_kgsl.h at `ref` from the cache, downloaded first if missing -> its path."""
    import urllib.request
    path = cached_header(ref)
    if os.path.exists(path):
        return path
    url = MESA_RAW.format(ref=ref)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            text = response.read()
    except OSError as e:
        raise ProbeError(f"cannot fetch {url}: {e}") from None
    if b"_UAPI_MSM_KGSL_H" not in text:
        raise ProbeError(f"{url} is not msm_kgsl.h (no _UAPI_MSM_KGSL_H guard)")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text)
    return path


def find_compiler(cc=None, arch="arm64"):
    cc = cc or (os.environ.get("KGSL_CC") if arch == "arm64" else None) or ARCHES[arch]["cc"]
    return cc if shutil.which(cc) else None


def _arch_flags(compiler, arch, tmp):
    flags = list(ARCHES[arch]["flags"])
    if arch == "armv7":
        resource = subprocess.run([compiler, "-print-resource-dir"], capture_output=True, text=True).stdout.strip()
        for name, text in ARMV7_STUBS.items():
            os.makedirs(os.path.join(tmp, "stub", os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(tmp, "stub", name), "w") as f:
                f.write(text)
        flags += ["-isystem", os.path.join(resource, "include"), "-I", os.path.join(tmp, "stub")]
    return flags


def probe(header_path, cc=None, arch="arm64"):
    """Compile the probe for `header_path` for `arch` (arm64, or armv7 for comparison) -> the verdict."""
    compiler = find_compiler(cc, arch)
    if compiler is None:
        raise ProbeError(f"{cc or ARCHES[arch]['cc']} not found ({ARCHES[arch]['install']})")
    with open(header_path, encoding="utf-8", errors="replace") as f:
        names = enumerate_header(f.read())
    source, keys = c_program(header_path, names)
    with tempfile.TemporaryDirectory(prefix="kgsl_probe_") as tmp:
        src, obj = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe.o")
        with open(src, "w") as f:
            f.write(source)
        build = subprocess.run([compiler, *_arch_flags(compiler, arch, tmp), "-std=gnu11", "-w", "-c", "-O0",
                                "-D__user=", "-o", obj, src], capture_output=True, text=True)
        if build.returncode != 0:
            raise ProbeError(f"{compiler} failed on the probe for {header_path}:\n{build.stderr[-3000:]}")
        values = read_section(obj, arch)
    verdict = build_verdict(names, keys, values)
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    verdict["compiler"] = version.splitlines()[0] if version else compiler
    verdict["abi"] = ARCHES[arch]["abi"]
    return verdict


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("header", nargs="?", help="path of msm_kgsl.h (mesa: src/freedreno/vulkan/msm_kgsl.h)")
    ap.add_argument("--fetch", nargs="?", const=DEFAULT_REF, metavar="REF",
                    help=f"download mesa's header at REF first (default {DEFAULT_REF[:12]})")
    ap.add_argument("--fetch-only", action="store_true", help="with --fetch: download, print the path, stop")
    ap.add_argument("-o", "--output", help="write JSON here (default: stdout)")
    ap.add_argument("--source", default="", help="where the header came from, kept in the JSON")
    ap.add_argument("--arch", choices=sorted(ARCHES), default="arm64",
                    help="the ABI to ask about (default arm64; armv7 shows what a 32-bit process would see)")
    ap.add_argument("--cc", default=None,
                    help=f"the C compiler (default: $KGSL_CC or {DEFAULT_CC}; clang-19 for armv7)")
    args = ap.parse_args(argv)
    if bool(args.header) == bool(args.fetch):
        ap.error("give either HEADER or --fetch [REF]")
    try:
        if args.fetch:
            args.header = fetch_header(args.fetch)
            if args.fetch_only:
                print(args.header)
                return 0
            args.source = args.source or f"mesa src/freedreno/vulkan/msm_kgsl.h at {args.fetch}"
        verdict = probe(args.header, args.cc, args.arch)
    except (ProbeError, OSError) as e:
        print(f"kgsl_header_probe: {e}", file=sys.stderr)
        return 1
    command = ["python", "scripts/kgsl_header_probe.py"]
    command += ["--fetch", args.fetch] if args.fetch else [args.header]
    if args.arch != "arm64":
        command += ["--arch", args.arch]
    if args.output:
        command += ["-o", args.output]
    if args.source:
        command += ["--source", args.source]
    doc = {"generated_by": "scripts/kgsl_header_probe.py",
           "regenerate": " ".join(shlex.quote(part) for part in command),
           "source": args.source or os.path.abspath(args.header),
           **verdict}
    text = json.dumps(doc, indent=1) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
