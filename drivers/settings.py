"""Settings read from the environment, each checked where it is read.

    DEBUG=0..4             debug output (1 devices and launches, 2 packets and ioctls, 3 disassembly)
    AMD_AQL=0|1            compute on an AQL queue instead of PM4
    AMD_DISABLE_SDMA=0|1   copies by the CPU instead of the SDMA engine
    GPU_EMULATE_BUDGET=N   wave-instructions one dispatch may run on the virtual GPU

A value that means nothing is a :class:`SettingError` naming the variable and what it accepts,
raised where the setting is read (opening a device, creating the virtual GPU), never later from
inside a queue.
"""
import os
import sys

from drivers.errors import GPUError

_FLAGS = {"": False, "0": False, "1": True, "false": False, "true": True, "no": False, "yes": True,
          "off": False, "on": True}


class SettingError(GPUError, ValueError):
    """An environment variable holds a value its reader cannot use."""

    def __init__(self, name, value, wanted):
        self.name, self.value = name, value
        super().__init__(f"{name}={value!r} is not valid: {wanted}")


def env_flag(name):
    """A boolean switch: unset, 0/1, false/true, no/yes, off/on (any case)."""
    raw = os.environ.get(name, "")
    try:
        return _FLAGS[raw.strip().lower()]
    except KeyError:
        raise SettingError(name, raw, "expected 0 or 1") from None


def env_int(name, default, minimum=0, maximum=None, wanted=None):
    """An integer in [minimum, maximum] (decimal ASCII digits), or ``default`` when unset or empty."""
    raw = os.environ.get(name, "")
    text = raw.strip()
    if not text:
        return default
    value = int(text) if text.isascii() and text.isdigit() else None
    if value is None or value < minimum or (maximum is not None and value > maximum):
        bound = f"{minimum}..{maximum}" if maximum is not None else f">= {minimum}"
        raise SettingError(name, raw, wanted or f"expected an integer {bound}")
    return value


def debug_level(strict=True):
    """DEBUG as an int (0 when unset). ``strict=False`` (inside the virtual GPU, where nobody could
    be told) reads a bad value as 0 instead of raising."""
    try:
        return env_int("DEBUG", 0, 0, None, "expected a debug level 0..4 (1 devices and launches, 2 packets "
                       "and ioctls, 3 kernel disassembly, 4 tensor IR)")
    except SettingError:
        if strict:
            raise
        return 0


def debug_line(text):
    """One line of debug output on stderr, written whole (the virtual GPU's thread prints too)."""
    sys.stderr.write(f"{text}\n")
