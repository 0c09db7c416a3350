"""KFD events of one process: signal slots in the event page, exception events, and waiting.

Follows amdkfd's kfd_events.c: signal events get an id that is also their 8-byte slot in the
event page (a GTT buffer the runtime hands over with the first CREATE_EVENT on a dGPU); the GPU
signals one by writing the slot and raising an interrupt whose context id is the event id.
Memory-exception and hardware-exception events carry a kfd_event_data payload out of
WAIT_EVENTS.  Auto-reset events are consumed by the waiter they release.
"""
import errno
import sys
import threading
import time

import numpy as np

import kfd_ioctl as K

UNSIGNALED_EVENT_SLOT = 0xFFFFFFFFFFFFFFFF
FIRST_NONSIGNAL_EVENT_ID = 0x40000000     # KFD_FIRST_NONSIGNAL_EVENT_ID: (INT_MAX >> 1) + 1
KFD_MMAP_TYPE_EVENTS = 2 << 62
INFINITE = 0xFFFFFFFF
STALL_WARNING = 10.0                      # seconds before an endless wait says what it waits for
SIGNAL_TYPES = (K.KFD_IOC_EVENT_SIGNAL, K.KFD_IOC_EVENT_DEBUG_EVENT)


class Event:
    __slots__ = ("id", "type", "auto_reset", "node_id", "signaled", "age", "memory", "hw", "waiters")

    def __init__(self, id_, type_, auto_reset, node_id):
        self.id, self.type, self.auto_reset, self.node_id = id_, type_, bool(auto_reset), node_id
        self.signaled, self.age = False, 1
        self.memory = self.hw = None       # exception payloads (dicts of kfd_event_data fields)
        self.waiters = []

    @property
    def is_signal(self):
        return self.type in SIGNAL_TYPES


class _Waiter:
    __slots__ = ("activated",)

    def __init__(self):
        self.activated = False


class EventTable:
    """The events of one KFD process.  ``poll`` is called while waiting (the GPU keeps polling)."""

    def __init__(self, fail):
        self._fail = fail                  # fail(errno, rule) raises the ioctl error
        self.events = {}
        self.page = None                   # numpy uint64 view of the event page (signal slots)
        self.page_handle = None
        self.cond = threading.Condition(threading.RLock())

    # -- event page ---------------------------------------------------------------------------
    def set_page(self, mem, handle):
        if self.page is not None:
            self._fail(errno.EINVAL, "the event page is already set (only the first CREATE_EVENT passes it)")
        if mem.size < K.KFD_SIGNAL_EVENT_LIMIT * 8:
            self._fail(errno.EINVAL, f"event page BO of {mem.size} bytes is smaller than "
                       f"KFD_SIGNAL_EVENT_LIMIT*8 = {K.KFD_SIGNAL_EVENT_LIMIT * 8}")
        self.page = mem.view(np.uint64)
        self.page[:K.KFD_SIGNAL_EVENT_LIMIT] = UNSIGNALED_EVENT_SLOT
        self.page_handle = handle

    # -- create / destroy / set / reset -------------------------------------------------------
    def create(self, type_, auto_reset, node_id):
        with self.cond:
            if type_ in SIGNAL_TYPES:
                if self.page is None:
                    self._fail(errno.EINVAL, "the first signal event on a dGPU needs the event page "
                               "BO handle in event_page_offset")
                limit = min(K.KFD_SIGNAL_EVENT_LIMIT, self.page.size)
                id_ = next((i for i in range(limit) if i not in self.events), None)
                if id_ is None:
                    self._fail(errno.ENOSPC, f"all {limit} signal event slots are in use")
                self.page[id_] = UNSIGNALED_EVENT_SLOT
            else:
                id_ = FIRST_NONSIGNAL_EVENT_ID
                while id_ in self.events:
                    id_ += 1
            ev = self.events[id_] = Event(id_, type_, auto_reset, node_id)
            return ev

    def lookup(self, id_):
        ev = self.events.get(id_)
        if ev is None:
            self._fail(errno.EINVAL, f"event id {id_} does not exist in this process")
        return ev

    def destroy(self, id_):
        with self.cond:
            ev = self.lookup(id_)
            del self.events[id_]
            for w in ev.waiters:        # a waiter on a destroyed event is released, as in the kernel
                w.activated = True
            self.cond.notify_all()

    def _set(self, ev):
        ev.age += 1
        if ev.auto_reset and ev.waiters:
            for w in ev.waiters:
                w.activated = True
        else:
            ev.signaled = True
            for w in ev.waiters:
                w.activated = True
        self.cond.notify_all()

    def set(self, id_):
        with self.cond:
            ev = self.lookup(id_)
            if not ev.is_signal:
                self._fail(errno.EINVAL, f"event {id_} (type {ev.type}) cannot be signaled by the CPU")
            self._set(ev)

    def reset(self, id_):
        with self.cond:
            ev = self.lookup(id_)
            if not ev.is_signal:
                self._fail(errno.EINVAL, f"event {id_} (type {ev.type}) cannot be reset by the CPU")
            ev.signaled = False

    # -- from the GPU -------------------------------------------------------------------------
    def interrupt(self, context_id):
        """An end-of-pipe/TRAP interrupt carrying ``context_id`` (kfd_signal_event_interrupt)."""
        with self.cond:
            if self.page is None:
                return
            ev = self.events.get(context_id)
            if ev is not None and ev.is_signal and self.page[ev.id] != UNSIGNALED_EVENT_SLOT:
                self.page[ev.id] = UNSIGNALED_EVENT_SLOT
                self._set(ev)
                return
            # the id did not name a written slot: scan every signal slot, as the kernel does
            for ev in list(self.events.values()):
                if ev.is_signal and self.page[ev.id] != UNSIGNALED_EVENT_SLOT:
                    self.page[ev.id] = UNSIGNALED_EVENT_SLOT
                    self._set(ev)

    def set_from_gpu(self, id_):
        """kfd_set_event from the kernel side (a queue's err_event_id): unknown ids are ignored."""
        with self.cond:
            ev = self.events.get(id_)
            if ev is not None:
                self._set(ev)

    def memory_exception(self, gpu_id, va, reason):
        with self.cond:
            for ev in self.events.values():
                if ev.type == K.KFD_IOC_EVENT_MEMORY:
                    ev.memory = {"failure": {"NotPresent": int(reason == "NotPresent"),
                                             "ReadOnly": int(reason == "ReadOnly"),
                                             "NoExecute": int(reason == "NoExecute"), "imprecise": 0},
                                 "va": va & ~0xFFF, "gpu_id": gpu_id, "ErrorType": 0}
                    self._set(ev)

    def hw_exception(self, gpu_id):
        with self.cond:
            for ev in self.events.values():
                if ev.type == K.KFD_IOC_EVENT_HW_EXCEPTION:
                    ev.hw = {"reset_type": K.KFD_HW_EXCEPTION_PER_ENGINE_RESET,
                             "reset_cause": K.KFD_HW_EXCEPTION_GPU_HANG, "memory_lost": 0, "gpu_id": gpu_id}
                    self._set(ev)

    # -- waiting ------------------------------------------------------------------------------
    def wait(self, data, wait_for_all, timeout_ms):
        """``data``: cffi array of kfd_event_data (updated in place) -> KFD_IOC_WAIT_RESULT_*.

        Sleeps on the table's condition (the command-processor thread signals it) until the
        events fire or ``timeout_ms`` passes; it never runs the queues itself, so a timeout holds
        however long the GPU's work takes.
        """
        with self.cond:
            evs = [self.lookup(d.event_id) for d in data]
            waiters = []
            for d, ev in zip(data, evs):
                w = _Waiter()
                w.activated = ev.signaled
                ev.signaled = ev.signaled and not ev.auto_reset
                age = d.signal_event_data.last_event_age
                if ev.is_signal and age and age != ev.age:
                    w.activated = True
                ev.waiters.append(w)
                waiters.append(w)
        start = time.monotonic()
        deadline = None if timeout_ms == INFINITE else start + timeout_ms / 1000.0
        warned = False
        try:
            with self.cond:
                while True:
                    done = [w.activated for w in waiters]
                    if all(done) if wait_for_all else any(done):
                        result = K.KFD_IOC_WAIT_RESULT_COMPLETE
                        break
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        result = K.KFD_IOC_WAIT_RESULT_TIMEOUT
                        break
                    if deadline is None and not warned and time.monotonic() - start > STALL_WARNING:
                        warned = True     # a real GPU would hang here too; at least say on what
                        print(f"kfd: WAIT_EVENTS without timeout still waiting for events "
                              f"{[ev.id for ev in evs]} after {STALL_WARNING:g} s", file=sys.stderr)
                    self.cond.wait(STALL_WARNING if left is None else left)
        finally:
            with self.cond:
                for ev, w in zip(evs, waiters):
                    if w in ev.waiters:
                        ev.waiters.remove(w)
        for d, ev, w in zip(data, evs, waiters):
            if not w.activated:
                continue
            if ev.type == K.KFD_IOC_EVENT_MEMORY and ev.memory:
                d.memory_exception_data = ev.memory
            elif ev.type == K.KFD_IOC_EVENT_HW_EXCEPTION and ev.hw:
                d.hw_exception_data = ev.hw
            elif ev.is_signal and d.signal_event_data.last_event_age:
                d.signal_event_data.last_event_age = ev.age
        return result

    def counts(self):
        return len(self.events)
