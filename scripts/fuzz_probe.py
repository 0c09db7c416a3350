#!/usr/bin/env python3
"""Fuzz `python -m drivers.amd.probe` with damaged captures of /sys and /dev.

    python scripts/fuzz_probe.py [-n 2000] [--seed 1] [--hang 30]

Each input copies a captured tree of a real card (tests/fixtures/topology), damages it the way a
bad capture or a hostile tree can be (values that are negative, huge, fullwidth or superscript
digits, binary or not UTF-8; lines cut, doubled or reordered; FIFOs, device files, directories,
symlink loops or huge files where a sysfs file belongs; files where a directory belongs; node
names that are not ASCII numbers; a missing or extra node), then runs the probe on it with
--sysfs-root and --dev-root, with or without --json. The probe must answer with exit status 0, 1
or 2 and nothing escaping; every file it opened must be closed. Prints inputs tried, raw
exceptions, hangs and leaks; exit status 1 unless all three are zero.
"""
import contextlib
import io
import os
import random
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from fuzzing import Report, Watchdog, live_threads, main_args, open_fds, settle_threads  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures", "topology")
TOPOLOGY = "sys/devices/virtual/kfd/kfd/topology"
VALUES = ["-1", "-192", "0", "18446744073709551615", "18446744073709551616", "99999999999999999999999",
          "\uff11\uff12", "\u00b2", "\u0661\u0662", "1_000", " 12", "0x10", "1e3", "", "nan", "1.5", "+4",
          "\x00", "12\x00", "\u200b7"]


class UsageExit(Exception):
    """argparse wanted to exit (a bad command line built by the fuzzer is still an answer)."""


def damage(rng, root):
    """One or more damages to the tree at ``root``; returns a short description."""
    topo = os.path.join(root, TOPOLOGY)
    files, dirs = [], []
    for base, ds, fs in os.walk(topo):
        files += [os.path.join(base, f) for f in fs]
        dirs += [os.path.join(base, d) for d in ds]
    done = []
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(14)
        path = rng.choice(files) if files else topo
        if not os.path.lexists(path):
            continue
        rel = os.path.relpath(path, root)
        regular = os.path.isfile(path) and not os.path.islink(path)      # an earlier damage may have changed it
        if kind in (4, 9) and not regular:
            continue
        if kind <= 3 and regular:
            lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
            if lines:
                i = rng.randrange(len(lines))
                parts = lines[i].split()
                if kind == 0 and len(parts) == 2:
                    lines[i] = f"{parts[0]} {rng.choice(VALUES)}"
                elif kind == 1:
                    lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
                elif kind == 2:
                    lines.insert(i, lines[i] if rng.random() < 0.5 else "key with three")
                else:
                    rng.shuffle(lines)
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write("\n".join(lines) + rng.choice(["\n", "", "\n\n", "\r\n"]))
            done.append(f"edited {rel}")
        elif kind == 4:
            with open(path, "wb") as f:
                f.write(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))))
            done.append(f"binary {rel}")
        elif kind == 5:
            _replace(path)
            os.mkfifo(path)
            done.append(f"FIFO {rel}")
        elif kind == 6:
            _replace(path)
            os.symlink(rng.choice(["/dev/zero", "/dev/null", "/dev/urandom", "/proc/self/mem", "/"]), path)
            done.append(f"special symlink {rel}")
        elif kind == 7:
            _replace(path)
            os.symlink(os.path.basename(path), path)
            done.append(f"symlink loop {rel}")
        elif kind == 8:
            _replace(path)
            os.mkdir(path)
            done.append(f"directory for {rel}")
        elif kind == 9:
            with open(path, "w") as f:
                f.write("simd_count 1\n" * rng.choice([5000, 20000]))
            done.append(f"huge {rel}")
        elif kind == 10 and dirs:
            d = rng.choice(dirs)
            if not os.path.isdir(d) or os.path.islink(d):
                continue
            shutil.rmtree(d)
            with open(d, "w") as f:
                f.write("0\n")
            done.append(f"file for directory {os.path.relpath(d, root)}")
        elif kind == 11 and dirs:
            d = rng.choice(dirs)
            name = rng.choice(["\u00b2", "\uff11", "1a", "-1", " 1", "x", "01", "99999999999999999999"])
            target = os.path.join(os.path.dirname(d), name)
            if not os.path.isdir(d) or os.path.lexists(target) or not os.path.isdir(os.path.dirname(d)):
                continue
            os.rename(d, target)
            done.append(f"renamed {os.path.relpath(d, root)} to {name!r}")
        elif kind == 12:
            os.unlink(path) if not os.path.isdir(path) or os.path.islink(path) else shutil.rmtree(path)
            done.append(f"removed {rel}")
        else:
            nodes = os.path.join(topo, "nodes")
            extra = os.path.join(nodes, str(rng.randrange(2, 9)))
            if os.path.isdir(nodes) and not os.path.lexists(extra):
                os.symlink(rng.choice(["0", "1", "..", "/"]), extra)
                done.append("extra node symlink")
    if rng.random() < 0.2:
        dev = os.path.join(root, "dev")
        if os.path.isdir(dev):
            shutil.rmtree(dev)
            with open(dev, "w") as f:
                f.write("")
            done.append("dev is a file")
    return "; ".join(done) or "unchanged"


def _replace(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def run(n, seed, hang):
    from drivers.amd import probe
    rng = random.Random(seed)
    report = Report("fuzz_probe", seed)
    dog = Watchdog("fuzz_probe", hang, seed)
    cards = sorted(os.listdir(FIXTURES))
    fds, threads = open_fds(), live_threads()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(n):
            root = os.path.join(tmp, str(index))
            shutil.copytree(os.path.join(FIXTURES, rng.choice(cards)), root, symlinks=True)
            what = damage(rng, root)
            argv = ["--sysfs-root", rng.choice([root, os.path.join(root, "sys")])]
            if rng.random() < 0.7:
                argv += ["--dev-root", os.path.join(root, "dev")]
            if rng.random() < 0.5:
                argv.append("--json")
            before = open_fds()
            with dog.input(index, what):
                out, err = io.StringIO(), io.StringIO()
                try:
                    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                        code = probe.main(argv)
                    if code not in (0, 1, 2):
                        raise AssertionError(f"exit status {code!r}")
                    if code == 2 and err.getvalue().count("\n") != 1:
                        raise AssertionError(f"exit 2 without a one-line reason: {err.getvalue()!r}")
                    report.outcome(index, what, label=f"exit {code}")
                except SystemExit as e:                 # argparse: a usage error is an answer too
                    report.outcome(index, what, None if e.code == 2 else AssertionError(f"exit {e.code}"),
                                   label="usage error")
                except Exception as e:                  # noqa: BLE001 -- the fuzzer's job is to sort them
                    report.outcome(index, what, e)
            leaked = open_fds() - before
            if leaked:
                report.leaks.append(f"input {index} ({what}): file descriptors {sorted(leaked)} left open")
            _rmtree(root)
    extra = settle_threads(threads)
    if extra:
        report.leaks.append(f"threads still running: {extra}")
    if open_fds() - fds:
        report.leaks.append(f"file descriptors opened and not closed: {sorted(open_fds() - fds)}")
    report.seconds = time.perf_counter() - start
    return report


def _rmtree(path):
    for base, dirs, files in os.walk(path, topdown=False):
        for name in files + dirs:
            p = os.path.join(base, name)
            if os.path.islink(p) or not os.path.isdir(p):
                os.unlink(p)
            else:
                os.rmdir(p)
    os.rmdir(path)


def main():
    args = main_args(__doc__.split("\n\n")[0], 2000)
    report = run(args.n, args.seed, args.hang)
    print(report.text())
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
