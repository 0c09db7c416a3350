#!/usr/bin/env python3
"""Write the /proc/driver/nvidia trees of the boards in drivers/emu/nv/cards.py under tests/fixtures/nv/.

Each tree looks like a copy of /proc/driver/nvidia (``mkdir -p DIR/proc/driver && cp -r
/proc/driver/nvidia DIR/proc/driver/``) plus a dev/ directory with stand-ins for /dev/nvidiactl,
/dev/nvidia0 and /dev/nvidia-uvm, so ``python -m drivers.nv.probe --proc-root
tests/fixtures/nv/rtx3090 --dev-root tests/fixtures/nv/rtx3090/dev`` replays it.  The boards run
drivers of different branches (the probe picks each one's layouts); ``malformed`` is the RTX 3090
tree with an information file the probe must refuse, naming the file and line.

Regenerate with:  python scripts/gen_nv_fixtures.py
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from drivers.emu.nv.cards import CARDS, boards, render_proc  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "nv")
DRIVERS = {"rtx3090": "580.95.05", "rtx4090": "570.172.08", "h100sxm": "595.45.04"}
DEV_NODES = ("dev/nvidiactl", "dev/nvidia0", "dev/nvidia-uvm")


def write_tree(name, files):
    root = os.path.join(OUT, name)
    shutil.rmtree(root, ignore_errors=True)
    for path, text in files.items():
        dest = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
    for node in DEV_NODES:
        dest = os.path.join(root, node)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        open(dest, "w").close()
    print(f"wrote {os.path.relpath(root)}")


def main():
    for key, driver in DRIVERS.items():
        write_tree(key, render_proc(boards(CARDS[key]), driver))
    files = render_proc(boards(CARDS["rtx3090"]), DRIVERS["rtx3090"])
    info = "/proc/driver/nvidia/gpus/0000:01:00.0/information"
    files[info] = files[info].replace("Device Minor: \t 0", "Device Minor: \t nvidia0")
    write_tree("malformed", files)


if __name__ == "__main__":
    main()
