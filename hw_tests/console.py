"""What a person watching the bring-up sees: one line per stage, progress while it runs.

On a terminal a running stage's sub-steps overwrite each other after a carriage return; in a
log (CI, a pipe) each sub-step is its own indented line so a slow stage is never silent.
"""
import sys

from hw_tests.runner import FAIL, PASS, SKIP


def _seconds(s):
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.1f} s"


class Console:
    def __init__(self, stream=None, tty=None, width=30):
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty() if tty is None else tty
        self.width = width
        self._prefix = ""
        self._dirty = False
        self._announced = False

    def write(self, text=""):
        self._clear()
        print(text, file=self.stream, flush=True)

    def _clear(self):
        if self._dirty:
            self.stream.write("\r\033[K")
            self._dirty = False

    def stage_start(self, stage, index, total):
        counter = f"[{index:>2}/{total}] " if index and total else "        "
        self._prefix = f"{counter}{stage.name} ".ljust(self.width + len(counter), ".")
        self._announced = False
        if self.tty:
            self.stream.write(f"{self._prefix} ...")
            self.stream.flush()
            self._dirty = True

    def step(self, text):
        if self.tty:
            self.stream.write(f"\r\033[K{self._prefix} {text[:100]}")
            self.stream.flush()
            self._dirty = True
        else:
            if not self._announced:            # a log names the stage before its sub-steps
                print(self._prefix.rstrip(". "), file=self.stream, flush=True)
                self._announced = True
            print(f"          {text}", file=self.stream, flush=True)

    def stage_end(self, result):
        if result.status == PASS:
            detail = result.summary
        elif result.status == SKIP:
            detail = result.skip_reason
        else:
            err = result.error or {}
            detail = f"{err.get('type', 'error')}: {err.get('message', '')}"
        line = f"{self._prefix} {result.status}  {_seconds(result.seconds):>7}  {detail}".rstrip()
        self.write(line)
        if result.status == FAIL:
            for note in result.notes:
                self.write(f"          note: {note}")

    def summary(self, results, seconds):
        counts = {s: sum(r.status == s for r in results) for s in (PASS, FAIL, SKIP)}
        self.write(f"{counts[PASS]} passed, {counts[FAIL]} failed, {counts[SKIP]} skipped in {_seconds(seconds)}")
        for r in results:
            if r.status == FAIL and r.error and r.error.get("layer"):
                self.write(f"  {r.name}: blocked by {r.error['layer']}")
