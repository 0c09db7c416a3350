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

from drivers.device import Timeline

SLOT_BYTES = 16
SPIN_SECONDS = 200e-6
SLEEP_FIRST, SLEEP_LONGEST = 20e-6, 2e-3
DEFAULT_TIMEOUT = 30.0


class TimelineSignal(Timeline):
    def __init__(self, buffer, offset, check_faults, name="timeline", timeout=DEFAULT_TIMEOUT):
        super().__init__(name, timeout)
        self.buffer, self.offset = buffer, offset
        self.check_faults = check_faults           # callable: raises when a channel of the device died
        self.address = buffer.va + offset
        self._words = buffer.view(np.uint64, offset, 2)
        self._words[:] = 0

    @property
    def value(self):
        return int(self._words[0])

    @property
    def timestamp(self):
        """GPU time (ns) of the last release."""
        return int(self._words[1])

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
        self.forget(target)

    def reset(self, value=None):
        """After the channels are recreated: the counter continues where it stands (or at `value`)."""
        if value is not None:
            self._words[0] = value
        super().reset(self.value)
