"""A ring allocator over one GPU buffer, for short-lived command and kernarg memory (any vendor).

Each allocation is tagged with the timeline value of the submission that reads it; once the
timeline has passed that value the bytes can be handed out again. Allocations never straddle
the end of the buffer (the tail is skipped), so every block is contiguous.
"""
from collections import deque

from drivers.errors import GPUError


class Arena:
    def __init__(self, buffer, timeline, name):
        self.buffer, self.timeline, self.name = buffer, timeline, name
        self.size = buffer.size
        self.head = 0                 # monotonic byte counter
        self.retired = 0              # bytes below this are free again
        self.pending = deque()        # (timeline value, head after the tagged allocations)

    def alloc(self, nbytes, align=64):
        """Offset (in the buffer) of ``nbytes`` free bytes aligned to ``align``."""
        if nbytes > self.size:
            raise GPUError(f"{self.name}: {nbytes} bytes requested from a {self.size}-byte arena")
        start = -(-self.head // align) * align
        if start % self.size + nbytes > self.size:
            start = -(-start // self.size) * self.size       # skip the tail: restart at offset 0
        end = start + nbytes
        while end - self.retired > self.size:
            if not self.pending:
                raise GPUError(f"{self.name}: no space and nothing in flight")
            value, mark = self.pending.popleft()
            if self.timeline.value < value:
                self.timeline.wait(value)
            self.retired = mark
        self.head = end
        return start % self.size

    def tag(self, value):
        """Everything allocated so far is read by the submission that signals ``value``."""
        if self.pending and self.pending[-1][1] == self.head:
            self.pending[-1] = (value, self.head)
        else:
            self.pending.append((value, self.head))

    def reset(self):
        self.head = self.retired = 0
        self.pending.clear()
