#!/usr/bin/env python3
"""Ask the C compiler what NVIDIA's open-gpu-kernel-modules headers say about everything nv_ioctl
declares: struct layouts, request numbers, class ids, control ids, flags and status codes.

    python scripts/nv_header_probe.py --tag 580.142          # fetch the tag, write tests/data/nv_ioctl/580.142.json
    python scripts/nv_header_probe.py --tag 580.142 --git DIR  # take the tag from a local clone instead
    python scripts/nv_header_probe.py --source DIR           # a checkout on disk (tag read from version.mk)
    python scripts/nv_header_probe.py --all                  # every branch nv_ioctl supports
    python scripts/nv_header_probe.py --fetch-only           # fetch the newest tag into the cache, print its path
    python scripts/nv_header_probe.py --status-table         # rewrite nv_ioctl/status.py from the verdicts

A fetched tag is a shallow, sparse clone (only the header directories) kept in the user cache,
~/.cache/gpustack/open-gpu-kernel-modules/<tag>, and reused.

The names to ask about come from nv_ioctl (for the tag's branch); the *members* of each struct come
from the header itself (its preprocessed text), so a field we lack is reported, not skipped.  Every
number comes from a C program, generated from those lists and compiled with the headers, that prints
sizeof/offsetof/signedness, macro and enum values, the low/high bit of each DRF range (`31:30`),
`_IOWR('F', NV_ESC_x, type)` for each escape and every NV_STATUS_CODE().

The JSON it writes is the oracle's verdict; tests/test_nv_ioctl.py compares nv_ioctl with the frozen
verdicts in tests/data/nv_ioctl/, and runs this probe again on any frozen tag found in the cache
(or named by NV_OGKM_DIR).  The fetched sources are read there and never committed.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "tests", "data", "nv_ioctl")
STATUS_MODULE = os.path.join(ROOT, "nv_ioctl", "status.py")
UPSTREAM = "https://github.com/NVIDIA/open-gpu-kernel-modules.git"

# Directories of the checkout the probe needs (a sparse checkout fetches only these).
SOURCE_DIRS = ("kernel-open/common/inc", "kernel-open/nvidia-uvm", "src/common/sdk/nvidia/inc",
               "src/nvidia/arch/nvalloc/unix/include", "src/common/inc/swref/published/volta/gv100/dev_fault.h",
               "version.mk")
INCLUDE_DIRS = ("src/common/sdk/nvidia/inc", "src/common/sdk/nvidia/inc/ctrl",
                "src/nvidia/arch/nvalloc/unix/include", "kernel-open/common/inc", "kernel-open/nvidia-uvm",
                "src/common/inc/swref/published")
# Every header an nv_ioctl name comes from; a header a branch lacks is skipped (__has_include).
HEADERS = (
    "nvtypes.h", "nvlimits.h", "nvstatus.h", "nvos.h", "nvCpuUuid.h", "class/cl0000.h", "class/cl0001.h",
    "class/cl003e.h", "class/cl0040.h", "class/cl0070.h", "class/cl0071.h", "class/cl0080.h",
    "class/cl2080.h", "class/cl2080_notification.h", "class/cl9067.h", "class/cl90f1.h", "class/cla06c.h",
    "class/clc361.h", "class/clc461.h", "class/clc561.h", "class/clc661.h", "class/clc36f.h",
    "class/clc46f.h", "class/clc56f.h", "class/clc86f.h", "class/clc96f.h", "class/clc3c0.h",
    "class/clc5c0.h", "class/clc6c0.h", "class/clc7c0.h", "class/clc9c0.h", "class/clcbc0.h",
    "class/clcdc0.h", "class/clcec0.h", "class/clc6b5.h", "class/clc7b5.h", "class/clc8b5.h",
    "class/clc9b5.h", "class/clcab5.h", "class/clb0b5sw.h", "class/cl83de.h", "alloc/alloc_channel.h",
    "ctrl/ctrl0000/ctrl0000system.h", "ctrl/ctrl0000/ctrl0000gpu.h", "ctrl/ctrl0080/ctrl0080gpu.h",
    "ctrl/ctrl0080/ctrl0080gr.h", "ctrl/ctrl2080/ctrl2080gr.h", "ctrl/ctrl2080/ctrl2080gpu.h",
    "ctrl/ctrl2080/ctrl2080fb.h", "ctrl/ctrl2080/ctrl2080mc.h", "ctrl/ctrl2080/ctrl2080fifo.h",
    "ctrl/ctrla06c.h", "ctrl/ctrla06f.h", "ctrl/ctrlc36f.h", "ctrl/ctrl83de/ctrl83dedebug.h", "nvgputypes.h",
    "nverror.h", "class/clc56fsw.h", "volta/gv100/dev_fault.h", "nv_escape.h", "nv-ioctl-numbers.h",
    "nv-ioctl.h", "nv-unix-nvos-params-wrappers.h", "uvm_types.h", "uvm_ioctl.h", "uvm_linux_ioctl.h",
)


SCALARS = ("NvU8", "NvU16", "NvU32", "NvU64")   # escape arguments that are arrays of a scalar


class ProbeError(Exception):
    """The checkout could not be read, parsed or compiled; the message says where."""


# ---------------------------------------------------------------------------------------------
# Getting the sources
# ---------------------------------------------------------------------------------------------

def read_tag(source):
    """The driver version a checkout is at (version.mk: NVIDIA_VERSION = 580.142)."""
    path = os.path.join(source, "version.mk")
    try:
        with open(path) as f:
            m = re.search(r"^NVIDIA_VERSION\s*=\s*(\S+)", f.read(), re.M)
    except OSError as e:
        raise ProbeError(f"{path}: {e.strerror} (is {source} a checkout of open-gpu-kernel-modules?)") from None
    if not m:
        raise ProbeError(f"{path}: no NVIDIA_VERSION line")
    return m.group(1)


def export_tag(git_dir, tag, dest):
    """Write the probe's directories of `tag` from a local clone to `dest` (git archive | tar)."""
    os.makedirs(dest, exist_ok=True)
    archive = subprocess.run(["git", "-C", git_dir, "archive", "--format=tar", tag, *SOURCE_DIRS],
                             capture_output=True)
    if archive.returncode != 0:
        raise ProbeError(f"git archive {tag} in {git_dir} failed: {archive.stderr.decode()[-500:]}")
    subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout, check=True)
    return dest


def cached_checkout(tag):
    """Where a fetched tag lives: the user cache, so the tests find it and a second run reuses it."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "gpustack", "open-gpu-kernel-modules", tag)


def fetch(tag, git_dir=None):
    """The cached checkout of `tag`, made first (from `git_dir`, else GitHub) when missing."""
    dest = cached_checkout(tag)
    if os.path.isfile(os.path.join(dest, "version.mk")):
        return dest
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ogkm_", dir=os.path.dirname(dest)) as tmp:
        src = os.path.join(tmp, "src")
        if git_dir:
            export_tag(git_dir, tag, src)
        else:
            clone_tag(tag, src)
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(src, dest)
    return dest


def clone_tag(tag, dest):
    """A shallow, sparse clone of `tag` from GitHub holding only the probe's directories."""
    run = lambda *cmd: subprocess.run(cmd, capture_output=True, text=True)   # noqa: E731
    res = run("git", "clone", "--quiet", "--depth", "1", "--filter=blob:none", "--sparse", "--branch", tag,
              UPSTREAM, dest)
    if res.returncode == 0:
        res = run("git", "-C", dest, "sparse-checkout", "set", "--no-cone", *SOURCE_DIRS)
    if res.returncode != 0:
        raise ProbeError(f"fetching {UPSTREAM} at {tag} failed: {res.stderr[-500:]}")
    return dest


# ---------------------------------------------------------------------------------------------
# Enumerating what the header declares (on its preprocessed text)
# ---------------------------------------------------------------------------------------------

def _strip_attributes(text):
    """Drop every __attribute__((...)) (balanced parentheses) from preprocessed C."""
    out, i = [], 0
    while True:
        j = text.find("__attribute__", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.index("(", j)
        depth = 0
        while True:
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        i = k


def _matching(text, open_at, pair="{}"):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == pair[0]:
            depth += 1
        elif text[i] == pair[1]:
            depth -= 1
            if depth == 0:
                return i
    raise ProbeError(f"unbalanced {pair} from offset {open_at}")


def _statements(body):
    out, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            stmt = " ".join(body[start:i].split())
            if stmt:
                out.append(stmt)
            start = i + 1
    return out


_DECL = re.compile(r"^(?P<type>.+?)\s*\b(?P<name>\w+)\s*(?P<array>(\[[^\]]*\]\s*)+)?$")


def members(body, records, prefix=""):
    """[(path, kind)] of a struct body; kind: scalar, array, aggregate, aggregate_array, flex.
    Anonymous nested structs/unions flatten into the enclosing struct, as C11 lets you use them."""
    fields = []
    for stmt in _statements(body):
        if "{" in stmt:
            open_at = stmt.index("{")
            close_at = _matching(stmt, open_at)
            name = stmt[close_at + 1:].strip()
            inner = members(stmt[open_at + 1:close_at], records, prefix + name + "." if name else prefix)
            if name:
                fields.append((prefix + name, "aggregate"))
            fields += inner
            continue
        m = _DECL.match(stmt)
        if not m or "," in stmt or ":" in stmt:
            raise ProbeError(f"cannot parse member declaration {stmt!r}")
        base = m.group("type").split()[-1]
        aggregate = m.group("type").split()[0] in ("struct", "union") or base in records
        if m.group("array") is None:
            kind = "aggregate" if aggregate else "scalar"
        elif m.group("array").strip() == "[]":
            kind = "flex"
        else:
            kind = "aggregate_array" if aggregate else "array"
        fields.append((prefix + m.group("name"), kind))
    return fields


def parse_typedefs(text):
    """{name: ("record", body) | ("alias", other)} for the typedefs of preprocessed C."""
    text = _strip_attributes(text)
    typedefs = {}
    for m in re.finditer(r"\btypedef\s+(?:volatile\s+)?(struct|union)\s*(\w+)?\s*\{", text):
        close_at = _matching(text, m.end() - 1)
        tail = text[close_at + 1:text.index(";", close_at)]
        body = text[m.end():close_at]
        for name in re.findall(r"\*?\s*(\w+)", tail):
            if not tail.strip().startswith("*") or name != tail.split()[0]:
                typedefs.setdefault(name, ("record", body))
        if m.group(2):
            typedefs.setdefault(f"struct {m.group(2)}", ("record", body))
    for m in re.finditer(r"\btypedef\s+(?:struct\s+|union\s+)?(\w+)\s+(\w+)\s*;", text):
        if m.group(2) not in typedefs:
            typedefs[m.group(2)] = ("alias", m.group(1))
    return typedefs


def resolve(typedefs, name):
    """The body of typedef `name`, following aliases; None if the header has no such record."""
    seen = set()
    while name in typedefs and name not in seen:
        seen.add(name)
        kind, value = typedefs[name]
        if kind == "record":
            return value
        name = value
    return None


def enumerators(text):
    """Names of every enum member in preprocessed C."""
    names = []
    for m in re.finditer(r"\benum\s*\w*\s*\{", text):
        body = text[m.end():_matching(text, m.end() - 1)]
        names += [item.split("=")[0].strip() for item in body.split(",") if item.strip()]
    return names


# ---------------------------------------------------------------------------------------------
# Asking the compiler
# ---------------------------------------------------------------------------------------------

def translation_unit(source):
    lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <linux/ioctl.h>"]
    for header in HEADERS:
        lines += [f"#if __has_include(\"{header}\")", f"#include \"{header}\"", "#endif"]
    return "\n".join(lines) + "\n"


def find_compiler():
    for cc in (os.environ.get("CC"), "gcc", "cc"):
        if cc and shutil.which(cc):
            return cc
    return None


def _cc(cc, source, args, stdin):
    flags = ["-std=gnu11", "-w"] + [f"-I{os.path.join(source, d)}" for d in INCLUDE_DIRS]
    res = subprocess.run([cc, *flags, *args], input=stdin, capture_output=True, text=True)
    if res.returncode != 0:
        raise ProbeError(f"{cc} {' '.join(args[:2])} failed:\n{res.stderr[-3000:]}")
    return res.stdout


def c_program(unit, structs, constants, ranges, escapes):
    p = [unit, "#define SIGNED(x) ((__typeof__(x))-1 < 0)", "int main(void) {"]
    for name, fields in structs.items():
        p.append(f'printf("S {name} %zu\\n", sizeof({name}));')
        for path, kind in fields:
            member, offset = f"((({name} *)0)->{path})", f"offsetof({name}, {path})"
            if kind == "flex":
                p.append(f'printf("F {name} {path} %zu - -\\n", {offset});')
            elif kind in ("aggregate", "aggregate_array"):
                p.append(f'printf("F {name} {path} %zu %zu -\\n", {offset}, sizeof{member});')
            else:
                element = member + ("[0]" if kind == "array" else "")
                p.append(f'printf("F {name} {path} %zu %zu %d\\n", {offset}, sizeof{member}, SIGNED({element}));')
    for name in constants:   # the value as C has it: signed expressions keep their sign
        p.append(f'if (SIGNED({name})) printf("C {name} %lld\\n", (long long)({name})); '
                 f'else printf("C {name} %llu\\n", (unsigned long long)({name}));')
    for name in ranges:
        p.append(f'printf("R {name} %d %d\\n", (int)(1?{name}), (int)(0?{name}));')
    for key, (nr, ctype) in escapes.items():
        p.append(f'printf("Q {key} %u\\n", (unsigned)_IOWR(NV_IOCTL_MAGIC, {nr}, {ctype}));')
    p += ["#undef NV_STATUS_CODE", "#undef SDK_NVSTATUSCODES_H",
          '#define NV_STATUS_CODE(name, code, string) printf("T %s %llu\\n", #name, (unsigned long long)(code));',
          '#include "nvstatuscodes.h"', "return 0;", "}"]
    return "\n".join(p) + "\n"


def parse_output(out):
    verdict = {"structs": {}, "constants": {}, "ranges": {}, "requests": {}, "status_codes": {}}
    for line in out.splitlines():
        kind, *rest = line.split()
        if kind == "S":
            verdict["structs"][rest[0]] = {"size": int(rest[1]), "fields": {}}
        elif kind == "F":
            name, path, offset, size, signed = rest
            verdict["structs"][name]["fields"][path] = {
                "offset": int(offset), "size": None if size == "-" else int(size),
                "signed": None if signed == "-" else bool(int(signed))}
        elif kind == "C":
            verdict["constants"][rest[0]] = int(rest[1])
        elif kind == "R":
            verdict["ranges"][rest[0]] = [int(rest[1]), int(rest[2])]
        elif kind == "Q":
            verdict["requests"][rest[0]] = int(rest[1])
        elif kind == "T":
            verdict["status_codes"][rest[0]] = int(rest[1])
    return verdict


def our_names(branch):
    """What nv_ioctl declares for `branch`: struct names, constant names, range names, escapes."""
    sys.path.insert(0, ROOT)
    import nv_ioctl
    layouts = nv_ioctl.layouts(branch)
    escapes = {}
    for esc in layouts.escapes():
        ctype = f"{esc.struct}[1]" if esc.array else esc.struct
        escapes[f"{esc.name}/{esc.struct}"] = (esc.name, ctype)
    return {"structs": sorted(layouts.type_names()), "constants": sorted(layouts.constants()),
            "ranges": sorted(nv_ioctl.RANGES), "escapes": escapes}


def probe(source, branch=None, cc=None):
    """Compile and run the probe on a checkout; returns the verdict dict."""
    cc = cc or find_compiler()
    if cc is None:
        raise ProbeError("no C compiler found (tried $CC, gcc, cc)")
    tag = read_tag(source)
    branch = branch or int(tag.split(".")[0])
    names = our_names(branch)
    unit = translation_unit(source)
    text = _cc(cc, source, ["-E", "-P", "-x", "c", "-"], unit)
    macros = {}
    for line in _cc(cc, source, ["-E", "-dM", "-x", "c", "-"], unit).splitlines():
        m = re.match(r"#define (\w+)(\([^)]*\))? ?(.*)$", line)
        if m and not m.group(2):
            macros[m.group(1)] = m.group(3)
    typedefs = parse_typedefs(text)
    enums = set(enumerators(_strip_attributes(text)))
    records = {name for name in typedefs if resolve(typedefs, name) is not None}
    structs, missing = {}, {"structs": [], "constants": [], "ranges": [], "escapes": []}
    for name in names["structs"]:
        body = resolve(typedefs, name)
        if body is None:
            missing["structs"].append(name)
        else:
            structs[name] = members(body, records)
    is_range = lambda value: re.fullmatch(r"\(?\s*\d+\s*:\s*\d+\s*\)?", value.strip()) is not None  # noqa: E731
    constants, ranges = [], []
    for name in names["constants"] + names["ranges"]:
        if name in macros:
            (ranges if is_range(macros[name]) else constants).append(name)
        elif name in enums:
            constants.append(name)
        else:
            missing["ranges" if name in names["ranges"] else "constants"].append(name)
    escapes = {}
    for key, (nr, ctype) in names["escapes"].items():
        base = ctype.split("[")[0]
        if nr in macros and (base in structs or base in SCALARS):
            escapes[key] = (nr, ctype)
        else:
            missing["escapes"].append(key)
    with tempfile.TemporaryDirectory(prefix="nv_probe_") as tmp:
        src, exe = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe")
        with open(src, "w") as f:
            f.write(c_program(unit, structs, constants, ranges, escapes))
        _cc(cc, source, ["-o", exe, src], None)
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    verdict = parse_output(out)
    verdict["missing"] = missing
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    verdict["compiler"] = version.splitlines()[0] if version else cc
    verdict["tag"], verdict["branch"] = tag, branch
    return verdict


# ---------------------------------------------------------------------------------------------
# The status table (nv_ioctl/status.py), from the frozen verdicts of every branch
# ---------------------------------------------------------------------------------------------

def write_status_table(branches, path=STATUS_MODULE):
    """Codes are mostly added, but not only: 595 gave 0x8B to NV_ERR_OPERATION_ABORTED and moved
    NV_ERR_DMA_XFER_FAILED to 0x8C.  So each name maps {first branch with this code: code}."""
    history = {}
    for branch, tag in sorted(branches.items()):
        with open(os.path.join(OUT_DIR, f"{tag}.json")) as f:
            codes = json.load(f)["status_codes"]
        for name, code in codes.items():
            entry = history.setdefault(name, {})
            if not entry or entry[max(entry)] != code:
                entry[branch] = code
    newest = max(branches)
    lines = ['"""Every NV_STATUS code of the RM and UVM, by its name in nvstatuscodes.h (generated; do not edit).',
             "",
             "Generated from the frozen header verdicts in tests/data/nv_ioctl/ by",
             "    python scripts/nv_header_probe.py --status-table",
             "Each name maps {first driver branch with this code: code}; a code can move between",
             "branches, so read it through nv_ioctl.layouts(branch).status_codes().",
             '"""', "", "STATUS_CODES = {"]
    for name, entry in sorted(history.items(), key=lambda kv: (kv[1][max(kv[1])], kv[0])):
        body = ", ".join(f"{b}: 0x{c:08X}" for b, c in sorted(entry.items()))
        lines.append(f"    {name!r}: {{{body}}},")
    lines += ["}", f"NEWEST_BRANCH = {newest}", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return len(history)


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def _write(verdict, command, out):
    doc = {"generated_by": "scripts/nv_header_probe.py",
           "regenerate": " ".join(shlex.quote(part) for part in command),
           "source": f"NVIDIA/open-gpu-kernel-modules tag {verdict['tag']}",
           **verdict}
    with open(out, "w") as f:
        f.write(json.dumps(doc, indent=1) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--source", metavar="DIR", help="a checkout of open-gpu-kernel-modules")
    where.add_argument("--git", metavar="DIR", help="a local clone to take --tag (or --all) from")
    ap.add_argument("--tag", help="driver tag, e.g. 580.142 (fetched from GitHub without --git)")
    ap.add_argument("--all", action="store_true", help="every tag nv_ioctl.BRANCHES names")
    ap.add_argument("--fetch-only", action="store_true",
                    help="fetch --tag (default: the newest branch's) into the cache, print its path, stop")
    ap.add_argument("--status-table", action="store_true",
                    help="rewrite nv_ioctl/status.py from the frozen verdicts (no sources needed)")
    ap.add_argument("-o", "--output", help="JSON path (default tests/data/nv_ioctl/<tag>.json)")
    ap.add_argument("--cc", default=None)
    args = ap.parse_args(argv)
    sys.path.insert(0, ROOT)
    import nv_ioctl
    if args.status_table:
        count = write_status_table(nv_ioctl.BRANCHES)
        print(f"wrote {os.path.relpath(STATUS_MODULE)} ({count} codes)")
        return 0
    if args.fetch_only:
        try:
            print(fetch(args.tag or nv_ioctl.BRANCHES[max(nv_ioctl.BRANCHES)], args.git))
        except (ProbeError, OSError, subprocess.CalledProcessError) as e:
            print(f"nv_header_probe: {e}", file=sys.stderr)
            return 1
        return 0
    tags = list(nv_ioctl.BRANCHES.values()) if args.all else [args.tag] if args.tag else [None]
    if tags == [None] and not args.source:
        ap.error("name a checkout (--source) or a tag (--tag, --all)")
    try:
        for tag in tags:
            source = args.source or fetch(tag, args.git)
            verdict = probe(source, cc=args.cc)
            out = args.output or os.path.join(OUT_DIR, f"{verdict['tag']}.json")
            command = ["python", "scripts/nv_header_probe.py", "--tag", verdict["tag"]]
            _write(verdict, command, out)
            counts = {k: len(verdict[k]) for k in ("structs", "constants", "ranges", "requests", "status_codes")}
            print(f"wrote {os.path.relpath(out)}: {counts}")
    except (ProbeError, OSError, subprocess.CalledProcessError) as e:
        print(f"nv_header_probe: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
