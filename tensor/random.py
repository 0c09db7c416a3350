"""Seeded random numbers, computed by kernels so every device gives the same values.

Bits come from Threefry-2x32 with 20 rounds (Salmon et al., "Parallel random numbers: as
easy as 1, 2, 3", SC 2011): a counter-based generator, so element ``i`` of a call is a pure
function of (seed, call number, i) built from uint32 add, xor and shifts, primitives every
backend has.  The seed and call number reach the kernel in a three-word buffer, so a
``tensor.jit`` replay gets fresh numbers by rewriting that buffer (see :data:`rng_buffers`).
"""
import math
import weakref

import numpy as np

from tensor import ops
from tensor.dtypes import dtypes, to_dtype

ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)
KEY_PARITY = 0x1BD11BDA
MASK32 = 0xFFFFFFFF

rng_buffers = weakref.WeakKeyDictionary()   # state Buffer -> its call number (the jit rewrites)


def _rotl(x, r):
    return (x << r) | (x >> (32 - r))


def threefry2x32(c0, c1, k0, k1):
    """Threefry-2x32-20 on uint32 tensors (broadcast); returns the two output words."""
    k2 = k0 ^ k1 ^ KEY_PARITY
    ks = (k0, k1, k2)
    x0, x1 = c0 + k0, c1 + k1
    for r in range(20):
        x0 = x0 + x1
        x1 = _rotl(x1, ROTATIONS[r % 8]) ^ x0
        if r % 4 == 3:
            i = r // 4 + 1
            x0 = x0 + ks[i % 3]
            x1 = x1 + ks[(i + 1) % 3] + i
    return x0, x1


def threefry2x32_reference(c0, c1, k0, k1):
    """The same in plain numpy (tests use it)."""
    with np.errstate(over="ignore"):
        return _threefry_np(c0, c1, k0, k1)


def _threefry_np(c0, c1, k0, k1):
    c0, c1 = np.asarray(c0, np.uint32), np.asarray(c1, np.uint32)
    k0, k1 = np.uint32(k0), np.uint32(k1)
    k2 = k0 ^ k1 ^ np.uint32(KEY_PARITY)
    ks = (k0, k1, k2)
    x0, x1 = c0 + k0, c1 + k1
    for r in range(20):
        x0 = x0 + x1
        rot = ROTATIONS[r % 8]
        x1 = ((x1 << np.uint32(rot)) | (x1 >> np.uint32(32 - rot))) ^ x0
        if r % 4 == 3:
            i = r // 4 + 1
            x0 = x0 + ks[i % 3]
            x1 = x1 + ks[(i + 1) % 3] + np.uint32(i)
    return x0, x1


class RandomMixin:
    __slots__ = ()

    _seed = 0
    _rng_calls = 0

    @staticmethod
    def manual_seed(seed=0):
        from tensor.tensor import Tensor
        Tensor._seed = int(seed)
        Tensor._rng_calls = 0

    @classmethod
    def _random_bits(cls, shape, device=None):
        """uint32 random bits of ``shape`` (one Threefry block per element)."""
        from tensor import device as devices
        from tensor.tensor import Tensor
        dev = devices.canonical(device)
        if isinstance(dev, tuple):      # several devices: made on the first, copied to the others,
            return cls._random_bits(shape, dev[0]).shard(dev)   # so they equal one device's numbers
        n = math.prod(shape)
        seed = Tensor._seed
        call = Tensor._rng_calls
        state = np.array([seed & MASK32, (seed >> 32) & MASK32, call & MASK32], np.uint32)
        Tensor._rng_calls += 1
        st = Tensor(state, device=dev)
        rng_buffers[st.node.buffer] = call

        def word(i):
            return st[i].reshape(1).expand(n) if n else st[i].reshape(1).shrink([(0, 0)])
        counter = Tensor(ops.iota(n, dev)).cast(dtypes.uint32)
        x0, _ = threefry2x32(counter, word(2), word(0), word(1))
        return x0.reshape(shape)

    @classmethod
    def rand(cls, *shape, dtype=None, device=None, requires_grad=False):
        """Uniform on [0, 1): the top 24 bits of a random word, scaled."""
        shape = cls._shape_arg(shape)
        dtype = to_dtype(dtype) if dtype is not None else dtypes.default_float
        bits = cls._random_bits(shape, device)
        u = (bits >> 8).cast(dtypes.float32) * (1.0 / (1 << 24))
        out = u.cast(dtype)
        if dtype in (dtypes.float16, dtypes.bfloat16):      # rounding may reach 1.0
            out = (out >= 1).where(out.full_like(1 - 2.0 ** -11 if dtype is dtypes.float16
                                                 else 1 - 2.0 ** -8), out)
        return out.requires_grad_() if requires_grad else out

    @classmethod
    def randn(cls, *shape, dtype=None, device=None, requires_grad=False):
        """Standard normal by Box-Muller."""
        shape = cls._shape_arg(shape)
        dtype = to_dtype(dtype) if dtype is not None else dtypes.default_float
        u1 = cls.rand(*shape, device=device)
        u2 = cls.rand(*shape, device=device)
        z = ((1 - u1).log() * -2).sqrt() * (u2 * (2 * math.pi)).cos()
        out = z.cast(dtype)
        return out.requires_grad_() if requires_grad else out

    @classmethod
    def uniform(cls, *shape, low=0.0, high=1.0, dtype=None, device=None, requires_grad=False):
        out = cls.rand(*shape, dtype=dtypes.float32, device=device) * (high - low) + low
        out = out.cast(to_dtype(dtype) if dtype is not None else dtypes.default_float)
        return out.requires_grad_() if requires_grad else out

    @classmethod
    def normal(cls, *shape, mean=0.0, std=1.0, dtype=None, device=None, requires_grad=False):
        out = cls.randn(*shape, dtype=dtypes.float32, device=device) * std + mean
        out = out.cast(to_dtype(dtype) if dtype is not None else dtypes.default_float)
        return out.requires_grad_() if requires_grad else out

    @classmethod
    def randint(cls, low, high=None, size=(), dtype=None, device=None):
        if high is None:
            low, high = 0, low
        if high <= low:
            raise ValueError(f"randint: empty range [{low}, {high})")
        shape = cls._shape_arg(tuple(size) if isinstance(size, (tuple, list)) else (size,))
        u = cls.rand(*shape, dtype=dtypes.float64 if high - low > 1 << 24 else dtypes.float32,
                     device=device)
        out = (u * (high - low)).floor().cast(dtypes.int64) + low
        return out.cast(to_dtype(dtype) if dtype is not None else dtypes.int64)

    def rand_like(self, dtype=None):
        return type(self).rand(*self.shape, dtype=dtype or self.dtype, device=self.device)

    def randn_like(self, dtype=None):
        return type(self).randn(*self.shape, dtype=dtype or self.dtype, device=self.device)

    def uniform_like(self, low=0.0, high=1.0):
        return type(self).uniform(*self.shape, low=low, high=high, dtype=self.dtype, device=self.device)
