"""The host (front end) of the virtual NVIDIA machine: one thread that runs every channel of every GPU.

A doorbell only wakes this thread, so a submission returns at once, as on hardware, and the driver
waits on its semaphores (a wait gives up at its own timeout while the GPU works).  The thread runs the
scheduled channels in a fixed order (GPU, then channel id), each until it empties or blocks on a
semaphore acquire, and repeats while any made progress, so a given submission sequence always
executes in the same order.  Blocked channels are polled again every fraction of a millisecond,
backing off to a few milliseconds.  The thread ends after a while without work and a later doorbell
starts another.

Channels run under the machine lock, so ioctls wait for the method in progress; freeing a channel
(or closing the file of its client) first sets its `preempt` flag, which the SASS simulator checks
between instructions, so a grid that never ends cannot hold the lock forever.
"""
import threading
import time
import traceback

from drivers.emu.faults import MemoryFault
from drivers.emu.nv.faults import ChannelError, Preempted, SmException
from drivers.emu.nv.gpu import log
from drivers.emu.nv.rc import fail_channel

POLL_FIRST, POLL_LONGEST = 0.0002, 0.005     # seconds between polls of a blocked channel
IDLE_EXIT = 2.0                              # seconds without work before the thread ends
STOPS = (MemoryFault, ChannelError, SmException, Preempted)


def run_channels(gpus):
    """Run every scheduled channel until none makes progress -> whether any is blocked."""
    while True:
        progress = blocked = False
        for gpu in gpus:
            for chid in sorted(gpu.channels):
                channel = gpu.channels.get(chid)
                if channel is None or not channel.enabled or channel.preempt:
                    continue
                try:
                    moved, waits = channel.pbdma.run()
                except STOPS as e:
                    fail_channel(channel, e)
                    moved, waits = True, False
                except Exception as e:            # a bug of the virtual GPU still stops only the channel
                    log(2, traceback.format_exc())
                    e.args = (f"internal error of the virtual GPU: {type(e).__name__}: {e}",)
                    fail_channel(channel, ChannelError(str(e.args[0])))
                    moved, waits = True, False
                progress |= bool(moved)
                blocked |= waits
        if not progress:
            return blocked


class Host:
    def __init__(self, machine, name="virtual NVIDIA host"):
        self.machine, self.name = machine, name
        self._cond = threading.Condition()
        self._kicked = False
        self._stopping = False
        self._thread = None

    def kick(self):
        with self._cond:
            self._kicked = True
            if self._thread is None:
                self._stopping = False
                self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
                self._thread.start()
            else:
                self._cond.notify()

    def stop(self):
        with self._cond:
            thread, self._stopping = self._thread, True
            self._cond.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def settle(self, timeout=60.0):
        """Run the channels on the calling thread until nothing moves (tests: no race with the thread)."""
        deadline = time.monotonic() + timeout
        while True:
            with self.machine.lock:
                blocked = run_channels(self.machine.gpus)
            if not blocked or time.monotonic() > deadline:
                return not blocked
            time.sleep(POLL_FIRST)

    def _loop(self):
        delay, idle_since = None, time.monotonic()
        while True:
            with self._cond:
                if not self._kicked and not self._stopping:
                    self._cond.wait(delay if delay is not None else IDLE_EXIT)
                if self._stopping:
                    self._thread = None
                    return
                if not self._kicked and delay is None:
                    if time.monotonic() - idle_since >= IDLE_EXIT:
                        self._thread = None
                        return
                    continue
                self._kicked = False
            with self.machine.lock:
                blocked = run_channels(self.machine.gpus)
            if blocked:
                delay = POLL_FIRST if delay is None else min(POLL_LONGEST, delay * 2)
            else:
                delay, idle_since = None, time.monotonic()
