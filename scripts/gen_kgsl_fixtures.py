#!/usr/bin/env python3
"""Write the KGSL sysfs trees of the Adreno cards in drivers/emu/qcom/cards.py under tests/fixtures/kgsl/.

Each tree looks like a copy of a phone's /sys/class/kgsl/kgsl-3d0 and /sys/devices/soc0 plus a
dev/ directory with a stand-in for /dev/kgsl-3d0, so `python -m drivers.qcom.probe --sysfs-root
tests/fixtures/kgsl/a630-sdm845 --dev-root tests/fixtures/kgsl/a630-sdm845/dev` replays it.
`a630-malformed` is the A630 tree with a corrupted frequency table (a letter O for a zero), which
the probe must refuse naming the file and line.

Regenerate with:  python scripts/gen_kgsl_fixtures.py
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from drivers.emu.qcom.cards import CARDS, KGSL_SYSFS, render_sysfs  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "kgsl")
MALFORMED = {"a630-malformed": ("a630", {f"{KGSL_SYSFS}/freq_table_mhz": "710 675 596 52O 414 342 257 \n"})}


def write_tree(name, files):
    root = os.path.join(OUT, name)
    shutil.rmtree(root, ignore_errors=True)
    for path, text in files.items():
        dest = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
    os.makedirs(os.path.join(root, "dev"), exist_ok=True)
    open(os.path.join(root, "dev", "kgsl-3d0"), "w").close()
    print(f"wrote {os.path.relpath(root)}")


def main():
    for key, card in CARDS.items():
        write_tree(f"{key}-{card.soc.lower()}", render_sysfs(card))
    for name, (key, changes) in MALFORMED.items():
        write_tree(name, {**render_sysfs(CARDS[key]), **changes})


if __name__ == "__main__":
    main()
