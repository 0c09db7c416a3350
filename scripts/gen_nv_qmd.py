#!/usr/bin/env python3
"""Generate nv_ioctl/qmd_tables.py (the QMD field layouts) from NVIDIA's open-gpu-doc headers.

    python scripts/gen_nv_qmd.py --source DIR      # a checkout of NVIDIA/open-gpu-doc
    python scripts/gen_nv_qmd.py --git DIR         # a clone: read the files at HEAD (or --rev)
    python scripts/gen_nv_qmd.py --check ...       # compare with the committed table, write nothing

The QMD (queue meta data) is the 256- or 384-byte launch descriptor the compute class reads; its
fields are `#define NVC7C0_QMDV03_00_<FIELD> MW(hi:lo)` in classes/compute/clc*qmd.h, and an indexed
field is `MW((hi+(i)*s):(lo+(i)*s))`.  This writes every field (and every named value) of the layouts
the virtual GPU and NVDevice use: NVC7C0_QMDV03_00 (Ampere GA10x), NVC9C0_QMDV03_00 (Ada) and
NVCBC0_QMDV04_00 (Hopper).  The headers are read, never committed.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "nv_ioctl", "qmd_tables.py")
LAYOUTS = (("NVC7C0_QMDV03_00", "classes/compute/clc7c0qmd.h"),
           ("NVC9C0_QMDV03_00", "classes/compute/clc9c0qmd.h"),
           ("NVCBC0_QMDV04_00", "classes/compute/clcbc0qmd.h"))

_FIELD = re.compile(r"#define\s+(?P<prefix>NV[0-9A-F]{4}_QMDV\d\d_\d\d)_(?P<name>\w+?)(?P<indexed>\(i\))?\s+MW\((?P<range>.+)\)\s*$")
_VALUE = re.compile(r"#define\s+(?P<prefix>NV[0-9A-F]{4}_QMDV\d\d_\d\d)_(?P<name>\w+)\s+(?P<value>0x[0-9A-Fa-f]+|\d+)\s*$")
_PLAIN = re.compile(r"(\d+):(\d+)")
_INDEXED = re.compile(r"\((\d+)\+\(i\)\*(\d+)\):\((\d+)\+\(i\)\*(\d+)\)")


class GenError(Exception):
    pass


def parse(text, prefix):
    """({field: (hi, lo, stride)}, {value name: value}) of one QMD layout in a header's text;
    stride is 0 for a plain field, else the bit distance between entries i and i+1."""
    fields, values = {}, {}
    for line in text.splitlines():
        m = _FIELD.match(line.strip())
        if m and m["prefix"] == prefix:
            rng = m["range"].replace(" ", "")
            if m["indexed"]:
                mi = _INDEXED.fullmatch(rng)
                if not mi or mi[2] != mi[4]:
                    raise GenError(f"{prefix}_{m['name']}(i): cannot read MW({m['range']})")
                fields[m["name"]] = (int(mi[1]), int(mi[3]), int(mi[2]))
            else:
                mp = _PLAIN.fullmatch(rng)
                if not mp:
                    raise GenError(f"{prefix}_{m['name']}: cannot read MW({m['range']})")
                fields[m["name"]] = (int(mp[1]), int(mp[2]), 0)
            continue
        m = _VALUE.match(line.strip())
        if m and m["prefix"] == prefix:
            values[m["name"]] = int(m["value"], 0)
    # a value belongs to the longest field name it extends (RELEASE0_ENABLE_TRUE -> RELEASE0_ENABLE)
    owned = {}
    for name, value in values.items():
        owner = max((f for f in fields if name.startswith(f + "_")), key=len, default=None)
        if owner is not None:
            owned[name] = value
    if not fields:
        raise GenError(f"no {prefix} fields found")
    return fields, owned


def read_sources(args):
    texts = {}
    for prefix, path in LAYOUTS:
        if args.source:
            full = os.path.join(args.source, path)
            try:
                with open(full) as f:
                    texts[prefix] = f.read()
            except OSError as e:
                raise GenError(f"{full}: {e.strerror} (is {args.source} a checkout of NVIDIA/open-gpu-doc?)") from None
        else:
            res = subprocess.run(["git", "-C", args.git, "show", f"{args.rev}:{path}"], capture_output=True, text=True)
            if res.returncode != 0:
                raise GenError(f"git show {args.rev}:{path} in {args.git}: {res.stderr.strip()}")
            texts[prefix] = res.stdout
    return texts


def render(tables, origin):
    lines = ['"""QMD field layouts from NVIDIA\'s open-gpu-doc headers (generated; do not edit).', "",
             "Regenerate with", "    python scripts/gen_nv_qmd.py --source OPEN_GPU_DOC_CHECKOUT",
             f"Source: {origin}.", "",
             "FIELDS[layout][name] = (hi, lo, stride): bits of the whole QMD (dword = bit // 32); an indexed",
             "field NAME(i) has stride != 0 and sits at (hi + i*stride, lo + i*stride).  VALUES[layout] holds",
             "the named values of the fields (RELEASE0_ENABLE_TRUE...).", '"""', "", "FIELDS = {"]
    for prefix, (fields, _) in tables.items():
        lines.append(f"    {prefix!r}: {{")
        for name, (hi, lo, stride) in sorted(fields.items(), key=lambda kv: (kv[1][1], kv[0])):
            lines.append(f"        {name!r}: ({hi}, {lo}, {stride}),")
        lines.append("    },")
    lines += ["}", "", "VALUES = {"]
    for prefix, (_, values) in tables.items():
        lines.append(f"    {prefix!r}: {{")
        for name, value in sorted(values.items()):
            lines.append(f"        {name!r}: {value:#x},")
        lines.append("    },")
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--source", metavar="DIR", help="a checkout of NVIDIA/open-gpu-doc")
    where.add_argument("--git", metavar="DIR", help="a clone of NVIDIA/open-gpu-doc (files read at --rev)")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--check", action="store_true", help="compare with the committed table instead of writing")
    ap.add_argument("-o", "--output", default=OUT)
    args = ap.parse_args(argv)
    try:
        texts = read_sources(args)
        tables = {prefix: parse(texts[prefix], prefix) for prefix, _ in LAYOUTS}
    except GenError as e:
        print(f"gen_nv_qmd: {e}", file=sys.stderr)
        return 1
    text = render(tables, "NVIDIA/open-gpu-doc classes/compute/clc7c0qmd.h, clc9c0qmd.h, clcbc0qmd.h")
    if args.check:
        with open(args.output) as f:
            same = f.read() == text
        print("qmd tables match the headers" if same else "qmd tables differ from the headers")
        return 0 if same else 1
    with open(args.output, "w") as f:
        f.write(text)
    counts = {p: len(t[0]) for p, t in tables.items()}
    print(f"wrote {os.path.relpath(args.output)}: {counts}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(0)
