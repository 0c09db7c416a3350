"""QMDs (queue meta data): the launch descriptors the compute class reads, field by field.

    layout = qmd.layout_for_class(nv_ioctl.HOPPER_COMPUTE_A)       # NVCBC0_QMDV04_00, 384 bytes
    q = qmd.Qmd(layout)                                            # zeroed words
    q.set("GRID_WIDTH", 64); q.set("CONSTANT_BUFFER_VALID", 1, i=0)
    q.get("PROGRAM_ADDRESS_LOWER"); q.words                        # numpy uint32

Field positions come from open-gpu-doc's clc7c0qmd.h (Ampere, V03_00), clc9c0qmd.h (Ada, V03_00)
and clcbc0qmd.h (Hopper, V04_00) through nv_ioctl.qmd_tables (scripts/gen_nv_qmd.py).  A value that
does not fit its field, an unknown field name or an index on a plain field is a QmdError naming the
layout and the field.
"""
import numpy as np

from . import classes as C
from .qmd_tables import FIELDS, VALUES


class QmdError(ValueError):
    pass


class QmdLayout:
    """One QMD layout: its fields, named values, major/minor version and size."""

    def __init__(self, name):
        self.name, self.fields, self.values = name, FIELDS[name], VALUES[name]
        self.major = int(name[-5:-3])
        self.minor = int(name[-2:])
        top = max(hi + (7 if stride else 0) * stride for hi, _, stride in self.fields.values())
        self.dwords = 96 if self.major >= 4 else 64
        if top >= 32 * self.dwords:
            raise QmdError(f"{name}: a field reaches bit {top}, past {self.dwords} dwords")
        self.size = 4 * self.dwords
        self.version_field = "QMD_MINOR_VERSION" if "QMD_MINOR_VERSION" in self.fields else "QMD_VERSION"

    def bits(self, name, i=None):
        """(hi, lo) of field `name` (entry `i` of an indexed field)."""
        try:
            hi, lo, stride = self.fields[name]
        except KeyError:
            raise QmdError(f"{self.name} has no field {name}") from None
        if stride:
            if i is None or not 0 <= i < 8:
                raise QmdError(f"{self.name}_{name}(i) needs an index 0..7, got {i!r}")
            return hi + i * stride, lo + i * stride
        if i is not None:
            raise QmdError(f"{self.name}_{name} is not an indexed field")
        return hi, lo

    def value(self, name):
        try:
            return self.values[name]
        except KeyError:
            raise QmdError(f"{self.name} has no value {name}") from None

    def __repr__(self):
        return f"QmdLayout({self.name}, {self.size} bytes)"


_LAYOUTS = {name: QmdLayout(name) for name in FIELDS}
LAYOUT_OF_CLASS = {C.AMPERE_COMPUTE_B: _LAYOUTS["NVC7C0_QMDV03_00"],
                   C.ADA_COMPUTE_A: _LAYOUTS["NVC9C0_QMDV03_00"],
                   C.HOPPER_COMPUTE_A: _LAYOUTS["NVCBC0_QMDV04_00"]}


def layout(name):
    return _LAYOUTS[name]


def layout_for_class(compute_class):
    """The QMD layout a compute class takes (V03_00 through Ada, V04_00 on Hopper, as mesa does)."""
    try:
        return LAYOUT_OF_CLASS[compute_class]
    except KeyError:
        raise QmdError(f"no QMD layout known for compute class 0x{compute_class:04X}") from None


def get_bits(words, hi, lo):
    """Bits hi..lo of a QMD held as uint32 words."""
    first, last = lo // 32, hi // 32
    if first == last:
        return (int(words[first]) >> (lo % 32)) & ((1 << (hi - lo + 1)) - 1)
    value = 0
    for d in range(last, first - 1, -1):
        value = (value << 32) | int(words[d])
    return (value >> (lo % 32)) & ((1 << (hi - lo + 1)) - 1)


def set_bits(words, hi, lo, value):
    width = hi - lo + 1
    for d in range(lo // 32, hi // 32 + 1):
        dlo, dhi = max(lo, 32 * d), min(hi, 32 * d + 31)
        part = (value >> (dlo - lo)) & ((1 << (dhi - dlo + 1)) - 1)
        mask = ((1 << (dhi - dlo + 1)) - 1) << (dlo - 32 * d)
        words[d] = (int(words[d]) & ~mask & 0xFFFFFFFF) | (part << (dlo - 32 * d))
    return width


class Qmd:
    """A QMD's words (numpy uint32, owned or a view of GPU memory) read and written by field name."""

    def __init__(self, layout, words=None):
        self.layout = layout
        self.words = np.zeros(layout.dwords, np.uint32) if words is None else words
        if self.words.dtype != np.uint32 or self.words.size != layout.dwords:
            raise QmdError(f"{layout.name} is {layout.dwords} uint32 words, got {self.words.size} x {self.words.dtype}")

    def get(self, name, i=None):
        hi, lo = self.layout.bits(name, i)
        return get_bits(self.words, hi, lo)

    def set(self, name, value, i=None):
        hi, lo = self.layout.bits(name, i)
        if isinstance(value, str):
            value = self.layout.value(f"{name}_{value}")
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not 0 <= value < 1 << (hi - lo + 1):
            where = f"{name}({i})" if i is not None else name
            raise QmdError(f"{self.layout.name}_{where}: {value!r} does not fit {hi - lo + 1} bits")
        set_bits(self.words, hi, lo, int(value))
        return self

    def set_address(self, lower, upper, address, i=None, shift=0):
        """A VA split over a LOWER/UPPER field pair (optionally >> shift, as the *_SHIFTED fields)."""
        hi, lo = self.layout.bits(upper, i)
        if address % (1 << shift) or (address >> shift) >> 32 >= 1 << (hi - lo + 1):
            raise QmdError(f"{self.layout.name}_{lower}: address 0x{address:x} does not fit (shift {shift})")
        value = address >> shift
        self.set(lower, value & 0xFFFFFFFF, i)
        self.set(upper, value >> 32, i)
        return self

    def address(self, lower, upper, i=None, shift=0):
        return ((self.get(upper, i) << 32) | self.get(lower, i)) << shift

    def copy(self):
        return Qmd(self.layout, self.words.copy())
