"""What every vendor's CommandBuffer shares: the list of recorded launches, the refusals once it is
finalized or while it is empty, the launch index update() takes, and a free that waits for the
last replay.

A vendor's CommandBuffer (drivers.<vendor>.replay) checks a launch as a direct launch would and
records it with ``_record``, builds its GPU buffer in ``_finalize``, replays in ``submit``, and
waits in ``_idle`` until the last replay no longer reads its buffer.
"""
from drivers.errors import GPUError, InvalidArgument


class CommandBuffer:
    description = "replay of an empty command buffer"       # what a GPUHang during a replay names

    def __init__(self, device):
        self.device = device
        self.launches = []               # recorded launches, in order
        self.buffer = None               # the GPU buffer finalize() writes them into
        self.last_value = 0              # the timeline value the last replay reaches

    def _check_recording(self):
        if self.buffer is not None:
            raise GPUError("this command buffer was already finalized; record into a new one")

    def _record(self, launch):
        self.launches.append(launch)
        self.description = f"replay of {len(self.launches)} recorded launch(es) ({self.launches[0].kernel.name}...)"
        return self

    def finalize(self):
        if self.buffer is None:
            if not self.launches:
                raise GPUError("empty command buffer: add() at least one launch")
            self._finalize()
        return self

    def _recorded(self, index):
        """Recorded launch ``index`` (for update)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.launches):
            raise InvalidArgument(f"launch {index!r} out of range: {len(self.launches)} recorded")
        return self.launches[index]

    def free(self):
        if self.buffer is not None:
            if not self.device.closed:
                self._idle()
            self.buffer.free()
            self.buffer = None
