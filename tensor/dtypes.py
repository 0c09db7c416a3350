"""Element types and PyTorch's type promotion.

The eight types a user asks for (float32, float16, bfloat16, int8, uint8, int32, int64, bool)
plus int16 (what int8 + uint8 gives, as in PyTorch), uint32 (what the random-number generator
computes in) and float64 (the reference precision of the tests).  ``void`` is the type of IR
instructions that produce no value (stores, barriers, loop ends).

numpy has no bfloat16: buffers of that type hold the upper 16 bits of a float32 (``np.uint16``)
and ``DType.np`` names the storage type.
"""
import numpy as np


class DType:
    __slots__ = ("name", "itemsize", "kind", "np", "rank", "bits")

    def __init__(self, name, itemsize, kind, np_type, rank):
        self.name, self.itemsize, self.kind, self.rank = name, itemsize, kind, rank
        self.np = np.dtype(np_type) if np_type is not None else None
        self.bits = itemsize * 8

    @property
    def is_float(self):
        return self.kind == "f"

    @property
    def is_int(self):
        """Integer, signed or unsigned (bool is not an integer here, as in PyTorch)."""
        return self.kind in "iu"

    @property
    def is_unsigned(self):
        return self.kind == "u"

    @property
    def is_bool(self):
        return self.kind == "b"

    @property
    def min(self):
        if self.is_float:
            return -float("inf")
        if self.is_bool:
            return False
        return -(1 << (self.bits - 1)) if self.kind == "i" else 0

    @property
    def max(self):
        if self.is_float:
            return float("inf")
        if self.is_bool:
            return True
        return (1 << (self.bits - 1)) - 1 if self.kind == "i" else (1 << self.bits) - 1

    def __repr__(self):
        return f"dtypes.{self.name}"

    def __reduce__(self):
        return (getattr, (dtypes, self.name))


class dtypes:
    """The element types; ``dtypes.float32`` and friends, plus a few PyTorch aliases."""
    bool = DType("bool", 1, "b", np.bool_, 0)
    uint8 = DType("uint8", 1, "u", np.uint8, 1)
    int8 = DType("int8", 1, "i", np.int8, 2)
    int16 = DType("int16", 2, "i", np.int16, 3)
    uint32 = DType("uint32", 4, "u", np.uint32, 4)
    int32 = DType("int32", 4, "i", np.int32, 5)
    int64 = DType("int64", 8, "i", np.int64, 6)
    float16 = DType("float16", 2, "f", np.float16, 7)
    bfloat16 = DType("bfloat16", 2, "f", np.uint16, 8)
    float32 = DType("float32", 4, "f", np.float32, 9)
    float64 = DType("float64", 8, "f", np.float64, 10)
    void = DType("void", 0, "v", None, -1)

    # PyTorch's other spellings
    half, float, double, bfloat = float16, float32, float64, bfloat16
    int, long, short, char, byte = int32, int64, int16, int8, uint8

    default_float = float32
    default_int = int64

    @staticmethod
    def all():
        return ALL


ALL = (dtypes.bool, dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.uint32, dtypes.int32,
       dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
BY_NAME = {d.name: d for d in ALL}
BY_NAME.update(half=dtypes.half, float=dtypes.float, double=dtypes.double, long=dtypes.long,
               int=dtypes.int, short=dtypes.short, bfloat=dtypes.bfloat)
_FROM_NUMPY = {d.np: d for d in ALL if d is not dtypes.bfloat16}


class DTypeError(TypeError):
    """An operation got a dtype it cannot take; the message names the dtype(s) and operation."""


def to_dtype(x):
    """A DType from a DType, its name ('float32', 'half'), a numpy dtype or a Python type."""
    if isinstance(x, DType):
        return x
    if x is float:
        return dtypes.default_float
    if x is int:
        return dtypes.default_int
    if x is bool:
        return dtypes.bool
    if isinstance(x, str):
        name = x.removeprefix("torch.").removeprefix("dtypes.")
        if name in BY_NAME:
            return BY_NAME[name]
        raise DTypeError(f"unknown dtype {x!r}; known: {', '.join(d.name for d in ALL)}")
    try:
        npd = np.dtype(x)
    except TypeError:
        raise DTypeError(f"unknown dtype {x!r}; known: {', '.join(d.name for d in ALL)}") from None
    if npd in _FROM_NUMPY:
        return _FROM_NUMPY[npd]
    raise DTypeError(f"numpy dtype {npd} has no tensor equivalent; "
                     f"known: {', '.join(d.name for d in ALL)}")


def from_numpy(npd):
    """The DType of a numpy array (float64 arrays stay float64, as torch.from_numpy does)."""
    return to_dtype(npd)


# torch.promote_types for the types above: the smallest type both convert to without losing
# range in their category; floats beat integers, integers beat bool.
def promote_types(a, b):
    if a is b:
        return a
    if a.rank > b.rank:
        a, b = b, a                                # a is the "smaller" one
    if b.is_float:
        if a is dtypes.float16 and b is dtypes.bfloat16:
            return dtypes.float32
        return b
    if a.is_bool:
        return b
    # both integers
    if a.kind == b.kind:
        return a if a.bits > b.bits else b
    unsigned, signed = (a, b) if a.is_unsigned else (b, a)
    if signed.bits > unsigned.bits:
        return signed
    for cand in (dtypes.int16, dtypes.int32, dtypes.int64):
        if cand.bits > unsigned.bits:
            return cand
    return dtypes.int64


def category(d):
    return 0 if d.is_bool else 1 if d.is_int else 2


def result_type(dimensioned, zero_dim, scalars):
    """PyTorch's three-tier promotion: tensors with dimensions, zero-dim tensors, Python scalars.

    A higher category among zero-dim tensors or scalars lifts the result to that category
    (Python float -> the default float, int -> int64); otherwise the dimensioned tensors decide.
    """
    def join(ds):
        out = None
        for d in ds:
            out = d if out is None else promote_types(out, d)
        return out
    result = join(dimensioned)
    for tier in (zero_dim, scalars):
        t = join(tier)
        if t is None:
            continue
        if result is None or category(t) > category(result):
            result = t
    return result


def scalar_dtype(x):
    if isinstance(x, bool):
        return dtypes.bool
    if isinstance(x, int):
        return dtypes.int64
    if isinstance(x, float):
        return dtypes.default_float
    raise DTypeError(f"cannot use {type(x).__name__} {x!r} as a tensor scalar")


def float32_to_bf16_bits(a):
    """float32 array -> bfloat16 bit patterns (uint16), round to nearest even, NaN kept quiet."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    rounded = (u + (np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1)))) >> np.uint32(16)
    nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    return np.where(nan, (u >> np.uint32(16)) | np.uint32(0x40), rounded).astype(np.uint16)


def bf16_bits_to_float32(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def to_numpy_values(arr, dtype):
    """A storage array (bf16 as uint16 bits) -> numpy values a user can read (bf16 -> float32)."""
    return bf16_bits_to_float32(arr) if dtype is dtypes.bfloat16 else arr


def from_numpy_values(arr, dtype):
    """Values -> the storage array of ``dtype`` (float32 rounded to bf16 bits when needed)."""
    if dtype is dtypes.bfloat16:
        return float32_to_bf16_bits(np.asarray(arr, dtype=np.float32))
    with np.errstate(all="ignore"):
        return np.asarray(arr).astype(dtype.np)
