"""DRF fields: NVIDIA's `hi:lo` bit ranges (`#define NVOS46_FLAGS_PAGE_SIZE 11:8`).

The headers name a field of a 32-bit word by its bit range and its values by plain numbers
(NVOS46_FLAGS_PAGE_SIZE_4KB = 1); nvmisc.h's DRF_DEF/DRF_NUM/DRF_VAL macros shift them into place.
A `Field` is such a range: ``NVOS46_FLAGS_PAGE_SIZE.num(NVOS46_FLAGS_PAGE_SIZE_4KB)`` is
``DRF_DEF(OS46, _FLAGS, _PAGE_SIZE, _4KB)``, ``field.val(word)`` is DRF_VAL.
"""
from typing import NamedTuple


class Field(NamedTuple):
    hi: int
    lo: int

    @property
    def width(self):
        return self.hi - self.lo + 1

    @property
    def mask(self):
        """The field's mask before shifting (DRF_MASK)."""
        return (1 << self.width) - 1

    @property
    def shift(self):
        return self.lo

    def num(self, value):
        """`value` placed in the field (DRF_NUM); a value wider than the field is a ValueError."""
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= self.mask:
            raise ValueError(f"{value!r} does not fit the {self.width}-bit field {self.hi}:{self.lo}")
        return value << self.lo

    def val(self, word):
        """The field's value in `word` (DRF_VAL)."""
        return (word >> self.lo) & self.mask

    def set(self, word, value):
        """`word` with this field replaced by `value` (FLD_SET_DRF_NUM)."""
        return (word & ~(self.mask << self.lo)) | self.num(value)

    def __repr__(self):
        return f"Field({self.hi}:{self.lo})"
