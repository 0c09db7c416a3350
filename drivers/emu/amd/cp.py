"""The command processors of the virtual machine: one thread that runs every queue of every GPU.

A doorbell store only publishes the queue's new write pointer and wakes this thread, so a
submission returns at once, as on hardware; the driver then waits on its signals (WAIT_EVENTS
times out on its own while the GPU works).  The thread runs the queues of the KFD process in a
fixed order (GPU, then queue id), each until it empties or blocks, and repeats while any made
progress, so the packets of a given submission sequence always execute in the same order.
Queues blocked on memory (WAIT_REG_MEM, POLL_REGMEM, AQL barriers) are polled again every
fraction of a millisecond, backing off to a few milliseconds, as a real CP keeps polling.  The
thread ends after a while without work and starts again with the next doorbell.

A pass takes at most one dispatch from each queue, and the queues run under the machine lock:
an ioctl that changes the process announces itself (``host_enter``), the pass in progress stops
after the packet it is executing, and the CP waits until the ioctl is done, so an ioctl waits for
at most one dispatch, never for everything queued.  Destroying a queue (or closing /dev/kfd)
first preempts the dispatch that queue is executing: the shader executor stops at its next
instruction.
"""
import threading
import time

POLL_FIRST, POLL_LONGEST = 0.0002, 0.005     # seconds between polls of a blocked queue
IDLE_EXIT = 2.0                              # seconds without work before the thread ends
PREEMPT_PATIENCE = 10.0                      # seconds a preemption waits for an executor that ignores it


class CommandProcessor:
    def __init__(self, lock, name="virtual CP"):
        self.lock, self.name = lock, name        # the machine lock: held while queues run
        self._cond = threading.Condition()
        self._kicked = False
        self._thread = None
        self._stopping = False
        self.process = None                      # the KfdProcess whose queues run
        self.host_waiting = 0                    # ioctls waiting for the machine lock

    def host_enter(self):
        """An ioctl wants the machine: the pass in progress yields after its current packet."""
        with self._cond:
            self.host_waiting += 1

    def host_leave(self):
        with self._cond:
            self.host_waiting -= 1
            if not self.host_waiting:
                self._cond.notify()

    # -- from other threads ---------------------------------------------------------------------
    def kick(self, process):
        """A doorbell was written: run the queues (starting the thread if it is not running)."""
        with self._cond:
            self.process = process
            self._kicked = True
            if self._thread is None:
                self._stopping = False
                self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
                self._thread.start()
            else:
                self._cond.notify()

    def stop(self):
        """End the thread (the process went away); waits for the pass in progress."""
        with self._cond:
            thread, self._stopping, self.process = self._thread, True, None
            self._cond.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    @property
    def alive(self):
        return self._thread is not None

    # -- the thread -----------------------------------------------------------------------------
    def _loop(self):
        delay = None                             # None: nothing blocked, sleep until a doorbell
        idle_since = time.monotonic()
        while True:
            with self._cond:
                while self.host_waiting and not self._stopping:     # an ioctl goes first
                    self._cond.wait(0.01)
                if not self._kicked and not self._stopping:
                    self._cond.wait(delay if delay is not None else IDLE_EXIT)
                if self._stopping:
                    self._thread = None
                    return
                if not self._kicked and delay is None:
                    if time.monotonic() - idle_since >= IDLE_EXIT:
                        self._thread = None      # a later doorbell starts a new thread
                        return
                    continue
                self._kicked = False
                process = self.process
            if process is None:
                delay = None
                continue
            blocked = process.run_queues()
            if blocked:
                delay = POLL_FIRST if delay is None else min(POLL_LONGEST, delay * 2)
            else:
                delay = None
                idle_since = time.monotonic()
