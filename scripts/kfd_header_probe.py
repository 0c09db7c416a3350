"""Ask the C compiler what a kfd_ioctl.h declares: every struct layout, constant and ioctl number.

The header is parsed here only to *enumerate* names (structs and their members, object-like
macros, enum members, one-argument function-like macros); every number comes from a C program,
generated from that list and compiled against the header, that prints sizeof/offsetof/values.

    python scripts/kfd_header_probe.py                      # /usr/include/linux/kfd_ioctl.h
    python scripts/kfd_header_probe.py HEADER -o OUT.json --source "where HEADER came from"

The JSON it writes is the oracle's verdict; tests/test_kfd_ioctl.py compares kfd_ioctl against
the live verdict for the installed header and against the frozen ones in tests/data/kfd_ioctl/:
    linux-libc-dev-6.1_kfd_ioctl_1.11.json   this script on /usr/include/linux/kfd_ioctl.h
                                              (Debian 12 linux-libc-dev 6.1)
    rocm-dkms_kfd_ioctl_1.17.json            this script on the ROCm 7 amdgpu-dkms header
                                              (KFD 1.17, with ROCm-only ioctls 0x80..0x86)
Regenerate with the command in each file's "regenerate" entry.

Debian's linux-libc-dev lacks <drm/drm.h>, which kfd_ioctl.h includes for nothing but the
__u32-style types; a stub including <linux/types.h> stands in for it.
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

DEFAULT_HEADER = "/usr/include/linux/kfd_ioctl.h"
MACRO_ARGS = range(1, 65)   # one-argument macros are evaluated at these arguments


class ProbeError(Exception):
    """The header could not be parsed or compiled; the message says where."""


# ---------------------------------------------------------------------------------------------
# Enumerating names
# ---------------------------------------------------------------------------------------------

def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _matching_brace(text, open_at):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ProbeError(f"unbalanced braces from offset {open_at}")


def _statements(body):
    """Split a struct body into its member declarations (';' at brace depth 0)."""
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
    if body[start:].strip():
        raise ProbeError(f"member declaration without ';': {body[start:].strip()[:60]!r}")
    return out


_DECL = re.compile(r"^(?P<type>.+?)\s*\b(?P<name>\w+)\s*(?P<array>\[\s*(?P<len>[^\]]*)\])?$")


def _members(body, prefix=""):
    """[(path, kind)] with kind in scalar / array / flex / aggregate; anonymous unions flatten."""
    fields = []
    for stmt in _statements(body):
        if "{" in stmt:
            open_at = stmt.index("{")
            close_at = _matching_brace(stmt, open_at)
            name = stmt[close_at + 1:].strip()
            if name:
                fields.append((prefix + name, "aggregate"))
                fields += _members(stmt[open_at + 1:close_at], prefix + name + ".")
            else:   # C11 anonymous struct/union: its members belong to the enclosing struct
                fields += _members(stmt[open_at + 1:close_at], prefix)
            continue
        m = _DECL.match(stmt)
        if not m or "," in stmt or ":" in stmt:
            raise ProbeError(f"cannot parse member declaration {stmt!r}")
        aggregate = m.group("type").split()[0] in ("struct", "union")
        if m.group("array") is None:
            kind = "aggregate" if aggregate else "scalar"
        elif not m.group("len").strip():
            kind = "flex"
        else:
            kind = "aggregate_array" if aggregate else "array"
        fields.append((prefix + m.group("name"), kind))
    return fields


def enumerate_header(text):
    """Names the header declares: {'structs': {tag: [(path, kind)]}, 'constants': [...], ...}."""
    text = _strip_comments(text).replace("\\\n", " ")
    constants, functions = [], []
    code_lines = []
    for line in text.splitlines():
        m = re.match(r"\s*#\s*define\s+(\w+)(\(([^)]*)\))?\s*(.*)$", line)
        if m:
            name, params, value = m.group(1), m.group(3), m.group(4).strip()
            if params is None and value and '"' not in value:
                constants.append(name)
            elif params is not None and len(params.split(",")) == 1 and params.strip():
                functions.append(name)
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
    return {"structs": structs, "constants": constants, "macro_functions": functions}


# ---------------------------------------------------------------------------------------------
# Asking the compiler
# ---------------------------------------------------------------------------------------------

def c_program(header_path, names):
    p = ['#include <stdio.h>', '#include <stddef.h>', f'#include "{os.path.abspath(header_path)}"',
         '#define SIGNED(x) ((__typeof__(x))-1 < 0)',
         'int main(void) {']
    for tag, fields in names["structs"].items():
        p.append(f'printf("S {tag} %zu\\n", sizeof(struct {tag}));')
        for path, kind in fields:
            member = f"((struct {tag} *)0)->{path}"
            offset = f"offsetof(struct {tag}, {path})"
            if kind == "flex":
                p.append(f'printf("F {tag} {path} %zu - -\\n", {offset});')
            elif kind in ("aggregate", "aggregate_array"):
                p.append(f'printf("F {tag} {path} %zu %zu -\\n", {offset}, sizeof({member}));')
            else:
                element = member + ("[0]" if kind == "array" else "")
                p.append(f'printf("F {tag} {path} %zu %zu %d\\n", {offset}, sizeof({member}), '
                         f'SIGNED({element}));')
    for name in names["constants"]:
        p.append(f'printf("C {name} %llu %zu\\n", (unsigned long long)({name}), sizeof({name}));')
    for name in names["macro_functions"]:
        for arg in MACRO_ARGS:
            p.append(f'printf("X {name} {arg} %llu %zu\\n", (unsigned long long)({name}({arg})), '
                     f'sizeof({name}({arg})));')
    p += ["return 0;", "}"]
    return "\n".join(p) + "\n"


def _bits(value, size):
    """The bit pattern a C value of `size` bytes has (so (1 << 31) reads 0x80000000)."""
    return value & ((1 << (8 * size)) - 1)


def parse_output(out):
    verdict = {"structs": {}, "constants": {}, "macro_functions": {}}
    for line in out.splitlines():
        kind, *rest = line.split()
        if kind == "S":
            verdict["structs"][rest[0]] = {"size": int(rest[1]), "fields": {}}
        elif kind == "F":
            tag, path, offset, size, signed = rest
            verdict["structs"][tag]["fields"][path] = {
                "offset": int(offset), "size": None if size == "-" else int(size),
                "signed": None if signed == "-" else bool(int(signed))}
        elif kind == "C":
            verdict["constants"][rest[0]] = _bits(int(rest[1]), int(rest[2]))
        elif kind == "X":
            name, arg, value, size = rest
            verdict["macro_functions"].setdefault(name, {})[arg] = _bits(int(value), int(size))
    return verdict


def find_compiler():
    for cc in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if cc and shutil.which(cc):
            return cc
    return None


def probe(header_path=DEFAULT_HEADER, cc=None):
    """Compile and run the probe for `header_path`; returns the verdict dict."""
    cc = cc or find_compiler()
    if cc is None:
        raise ProbeError("no C compiler found (tried $CC, cc, gcc, clang)")
    with open(header_path, encoding="utf-8", errors="replace") as f:
        names = enumerate_header(f.read())
    with tempfile.TemporaryDirectory(prefix="kfd_probe_") as tmp:
        os.makedirs(os.path.join(tmp, "stub", "drm"))
        with open(os.path.join(tmp, "stub", "drm", "drm.h"), "w") as f:
            f.write("#include <linux/types.h>\n")
        src, exe = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe")
        with open(src, "w") as f:
            f.write(c_program(header_path, names))
        build = subprocess.run([cc, "-std=gnu11", "-w", "-I", os.path.join(tmp, "stub"),
                                "-o", exe, src], capture_output=True, text=True)
        if build.returncode != 0:
            raise ProbeError(f"{cc} failed on the probe for {header_path}:\n{build.stderr[-3000:]}")
        run = subprocess.run([exe], capture_output=True, text=True, check=True)
    verdict = parse_output(run.stdout)
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    verdict["compiler"] = version.splitlines()[0] if version else cc
    return verdict


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("header", nargs="?", default=DEFAULT_HEADER)
    ap.add_argument("-o", "--output", help="write JSON here (default: stdout)")
    ap.add_argument("--source", default="", help="where the header came from, kept in the JSON")
    ap.add_argument("--cc", default=None)
    args = ap.parse_args(argv)
    try:
        verdict = probe(args.header, args.cc)
    except (ProbeError, OSError) as e:
        print(f"kfd_header_probe: {e}", file=sys.stderr)
        return 1
    command = ["python", "scripts/kfd_header_probe.py", args.header]
    if args.output:
        command += ["-o", args.output]
    if args.source:
        command += ["--source", args.source]
    doc = {"generated_by": "scripts/kfd_header_probe.py",
           "regenerate": " ".join(shlex.quote(part) for part in command),
           "source": args.source or os.path.abspath(args.header),
           **verdict}
    text = json.dumps(doc, indent=1, sort_keys=False) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
