"""The ring allocator AMD's queues use for kernargs and indirect buffers: drivers.arena."""
from drivers.arena import Arena  # noqa: F401
