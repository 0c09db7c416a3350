"""What the fuzz_*.py scripts share: the tally of outcomes, a watchdog for hangs, leak counters.

Every fuzzer feeds inputs one at a time to a target that must either succeed or raise one of
the project's errors (GPUError and its subclasses). Anything else escaping is a *raw exception*;
an input that runs past the watchdog is a *hang* (the watchdog dumps every thread's stack and
ends the process, since a hung call cannot be interrupted); a resource still held when the
fuzzer is done (an open file descriptor, a thread, a buffer or queue of a closed device) is a
*leak*. The report counts inputs tried and each of the three, with the first few raw exceptions
and how to replay them (seed and input number).
"""
import faulthandler
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

MAX_EXAMPLES = 5


@dataclass
class Report:
    name: str
    seed: int
    inputs: int = 0
    ok: int = 0
    errors: dict = field(default_factory=dict)       # project error class -> count
    answers: dict = field(default_factory=dict)      # accepted outcomes by label (an exit status...)
    raw: list = field(default_factory=list)          # (input number, description, traceback text)
    raw_count: int = 0
    hangs: int = 0
    leaks: list = field(default_factory=list)
    seconds: float = 0.0

    def outcome(self, index, what, error=None, label=None):
        """Record one input: ``error`` None (it worked; ``label`` says how), a project error, or
        anything else."""
        from assembler.errors import GPUError
        self.inputs += 1
        if error is None:
            self.ok += 1
            if label is not None:
                self.answers[label] = self.answers.get(label, 0) + 1
        elif isinstance(error, GPUError):
            name = type(error).__name__
            self.errors[name] = self.errors.get(name, 0) + 1
        else:
            self.raw_count += 1
            if len(self.raw) < MAX_EXAMPLES:
                text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
                self.raw.append((index, what, text))

    @property
    def clean(self):
        return not self.raw_count and not self.hangs and not self.leaks

    def text(self):
        errors = ", ".join(f"{k} {v}" for k, v in sorted(self.errors.items(), key=lambda kv: -kv[1])) or "none"
        answers = ", ".join(f"{k} {v}" for k, v in sorted(self.answers.items()))
        lines = [f"{self.name}: {self.inputs} inputs in {self.seconds:.1f} s (seed {self.seed}): {self.ok} answered"
                 + (f" ({answers})" if answers else "") + f", {self.inputs - self.ok - self.raw_count} refused with "
                 f"project errors ({errors})",
                 f"  raw exceptions {self.raw_count}, hangs {self.hangs}, leaks {len(self.leaks)}"]
        for index, what, tb in self.raw:
            lines.append(f"  raw exception at input {index} ({what}):")
            lines += ["    " + line for line in tb.rstrip().splitlines()[-6:]]
        for leak in self.leaks[:MAX_EXAMPLES]:
            lines.append(f"  leak: {leak}")
        return "\n".join(lines)


class Watchdog:
    """``with watchdog.input(i, what):`` -- past ``seconds`` the process prints which input hung
    and every thread's stack, and exits with status 3 (a hung call cannot be interrupted). A
    timer thread says which input it was; faulthandler is the backstop if the GIL is never let go."""

    def __init__(self, name, seconds, seed):
        self.name, self.seconds, self.seed = name, seconds, seed

    def input(self, index, what):
        return _Armed(self, index, what)


class _Armed:
    def __init__(self, dog, index, what):
        self.dog, self.index, self.what = dog, index, what

    def _fire(self):
        sys.stderr.write(f"{self.dog.name}: HANG: input {self.index} ({self.what}) ran past {self.dog.seconds:g} s; "
                         f"replay with --seed {self.dog.seed} -n {self.index + 1}\n")
        faulthandler.dump_traceback(all_threads=True)
        os._exit(3)

    def __enter__(self):
        self.timer = threading.Timer(self.dog.seconds, self._fire)
        self.timer.daemon = True
        self.timer.start()
        faulthandler.dump_traceback_later(self.dog.seconds + 10, exit=True)
        return self

    def __exit__(self, *exc):
        self.timer.cancel()
        self.timer.join()
        faulthandler.cancel_dump_traceback_later()
        return False


def open_fds():
    """This process's open file descriptors (Linux)."""
    try:
        return set(os.listdir("/proc/self/fd"))
    except OSError:
        return set()


def live_threads():
    return {t.ident for t in threading.enumerate() if t.is_alive()}


def settle_threads(before, seconds=5.0):
    """Threads started meanwhile that are still alive after ``seconds`` (names)."""
    deadline = time.monotonic() + seconds
    while True:
        extra = [t for t in threading.enumerate() if t.is_alive() and t.ident not in before]
        if not extra or time.monotonic() > deadline:
            return [t.name for t in extra]
        time.sleep(0.05)


def main_args(description, default_n, hang=30.0):
    import argparse
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("-n", type=int, default=default_n, help=f"inputs to try (default {default_n})")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1); a report names it")
    ap.add_argument("--hang", type=float, default=hang, help=f"seconds one input may take (default {hang:g}); "
                    "longer is reported as a hang")
    args = ap.parse_args()
    if args.n < 1 or args.hang <= 0:
        ap.error("-n must be >= 1 and --hang > 0")
    return args
