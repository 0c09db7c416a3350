#!/usr/bin/env python3
"""Write the KFD sysfs trees of the cards in drivers/emu/amd/cards.py under tests/fixtures/topology/.

Each tree looks like an extracted `tar c /sys/devices/virtual/kfd` plus a dev/ directory with
stand-ins for /dev/kfd and /dev/dri/renderD128, so `python -m drivers.amd.probe --sysfs-root
tests/fixtures/topology/rx7900xtx --dev-root tests/fixtures/topology/rx7900xtx/dev` replays it.

Regenerate with:  python scripts/gen_topology_fixtures.py
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from drivers.emu.amd.cards import CARDS, render_topology  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "topology")


def write_tree(key, card):
    root = os.path.join(OUT, key)
    shutil.rmtree(root, ignore_errors=True)
    for path, text in render_topology(card).items():
        dest = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
    for node in ("dev/kfd", "dev/dri/renderD128"):
        dest = os.path.join(root, node)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        open(dest, "w").close()


def main():
    for key, card in CARDS.items():
        write_tree(key, card)
        print(f"wrote {os.path.relpath(os.path.join(OUT, key))}")


if __name__ == "__main__":
    main()
