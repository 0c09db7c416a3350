"""Timeline semaphores and the host wait.

A timeline is a 64-bit counter (16-byte slot: the value, then the GPU time of its last release) in
pinned host memory; a channel's push buffer releases it after each submission (SEM_EXECUTE with a
64-bit payload, RELEASE_WFI and the timestamp).  Waiting for value v means polling until the counter
is >= v: spin briefly, then sleep in growing slices.  Between polls the wait reads the device's error
notifiers, so a channel the RM stopped (a GPU page fault, an SM exception, a bad push buffer) ends the
wait at once as GPUFault / GPUError instead of running into the timeout, which is a GPUHang naming
the last completed value and what was in flight.
"""
import time

import numpy as np

from drivers.errors import GPUHang

SLOT_BYTES = 16
SPIN_SECONDS = 200e-6
SLEEP_FIRST, SLEEP_LONGEST = 20e-6, 2e-3
DEFAULT_TIMEOUT = 30.0


def describe(work):
    """What a submission was: a string, or (format, *args) formatted only when someone asks."""
    return work[0].format(*work[1:]) if isinstance(work, tuple) else str(work)


class TimelineSignal:
    def __init__(self, buffer, offset, check_faults, name="timeline", timeout=DEFAULT_TIMEOUT):
        self.buffer, self.offset, self.name, self.timeout = buffer, offset, name, timeout
        self.check_faults = check_faults           # callable: raises when a channel of the device died
        self.address = buffer.va + offset
        self._words = buffer.view(np.uint64, offset, 2)
        self._words[:] = 0
        self.last_submitted = 0
        self.in_flight = {}

    @property
    def value(self):
        return int(self._words[0])

    @property
    def timestamp(self):
        """GPU time (ns) of the last release."""
        return int(self._words[1])

    def next_value(self, description):
        self.last_submitted += 1
        self.in_flight[self.last_submitted] = description
        if len(self.in_flight) > 4096:
            done = self.value
            for v in [v for v in self.in_flight if v <= done]:
                del self.in_flight[v]
        return self.last_submitted

    def wait(self, target, timeout=None):
        if self._words[0] >= target:
            return
        timeout = self.timeout if timeout is None else timeout
        start = time.perf_counter()
        while time.perf_counter() - start < SPIN_SECONDS:
            if self._words[0] >= target:
                return
        deadline, nap = start + timeout, SLEEP_FIRST
        while self._words[0] < target:
            self.check_faults()
            if time.perf_counter() >= deadline:
                raise self.hang(target)
            time.sleep(nap)
            nap = min(SLEEP_LONGEST, nap * 2)
        for v in [v for v in self.in_flight if v <= target]:
            del self.in_flight[v]

    def hang(self, target, cause=""):
        done = self.value
        pending = sorted(v for v in self.in_flight if v > done)
        what = self.in_flight.get(pending[0], "unknown work") if pending else "nothing recorded"
        text = f"{self.name} value {pending[0] if pending else done + 1}: {describe(what)}"
        return GPUHang(done, target, text + (f" ({cause})" if cause else ""))

    def reset(self, value=None):
        """After the channels are recreated: the counter restarts where it stands (or at `value`)."""
        if value is not None:
            self._words[0] = value
        self.last_submitted = self.value
        self.in_flight.clear()
