"""Elementwise Tensor methods: arithmetic, math functions, activations, comparisons, logic.

Each is a few primitives: ``exp(x) = exp2(x * log2(e))``, ``a - b = a + b * -1``,
``a / b = a * reciprocal(b)``, ``cos(x) = sin(pi/2 - x)``, ``sigmoid = 1 / (1 + exp(-x))``...
"""
import math

from tensor.dtypes import DTypeError, dtypes
from tensor.loopir import Op

LOG2_E = 1 / math.log(2)
LN_2 = math.log(2)


def _float_of(x):
    """The float dtype an int/bool tensor computes in for float math (PyTorch: float32)."""
    return x.dtype if x.dtype.is_float else dtypes.default_float


class ElementwiseMixin:
    __slots__ = ()

    # ---- arithmetic -------------------------------------------------------------------------
    def add(self, other, alpha=1):
        if alpha != 1:
            other = other * alpha
        a, b = self._broadcast(other)
        if a.dtype.is_bool:
            return a._alu(Op.OR, b)
        return a._alu(Op.ADD, b)

    def sub(self, other, alpha=1):
        a, b = self._broadcast(other)
        if a.dtype.is_bool:
            raise DTypeError("subtraction of bool tensors is not supported; use logical_xor")
        return a._alu(Op.ADD, b.neg() if alpha == 1 else b * -alpha)

    def mul(self, other):
        a, b = self._broadcast(other)
        if a.dtype.is_bool:
            return a._alu(Op.AND, b)
        return a._alu(Op.MUL, b)

    def div(self, other, rounding_mode=None):
        if rounding_mode == "floor":
            return self.floor_divide(other)
        if rounding_mode == "trunc":
            return self._trunc_div(other)
        dt = self._binary_dtype(other)
        dt = dt if dt.is_float else dtypes.default_float
        a, b = self._broadcast(other, dtype=dt)
        return a._alu(Op.MUL, b.reciprocal())

    def _trunc_div(self, other):
        a, b = self._broadcast(other)
        if a.dtype.is_float:
            return (a / b).trunc()
        return a._alu(Op.IDIV, b)

    def floor_divide(self, other):
        a, b = self._broadcast(other)
        if a.dtype.is_bool:
            raise DTypeError("floor_divide of bool tensors is not supported")
        if a.dtype.is_float:
            return (a / b).floor()
        q = a._alu(Op.IDIV, b)
        # C division truncates; step down when the signs differ and there is a remainder
        fix = (a._alu(Op.MOD, b) != 0).logical_and((a < 0) != (b < 0))
        return fix.where(q - 1, q)

    def remainder(self, other):
        """Python's modulo: the result has the divisor's sign (torch.remainder)."""
        a, b = self._broadcast(other)
        if a.dtype.is_float:
            return a - a.floor_divide(b) * b
        r = a._alu(Op.MOD, b)
        fix = (r != 0).logical_and((r < 0) != (b < 0))
        return fix.where(r + b, r)

    def fmod(self, other):
        a, b = self._broadcast(other)
        if a.dtype.is_float:
            return a - (a / b).trunc() * b
        return a._alu(Op.MOD, b)

    def neg(self):
        if self.dtype.is_bool:
            raise DTypeError("negation of a bool tensor is not supported; use logical_not")
        return self * -1

    def reciprocal(self):
        x = self.cast(_float_of(self))
        return x._alu(Op.RECIPROCAL)

    def pow(self, exponent):
        from tensor.tensor import Tensor
        if not isinstance(exponent, Tensor) and not self.dtype.is_float and isinstance(exponent, int) \
                and exponent >= 0:
            return self._int_pow(exponent)
        if not isinstance(exponent, Tensor) and isinstance(exponent, (int, float)):
            if exponent == 2:
                return self * self
            if exponent == 1:
                return self * 1
            if exponent == 0.5:
                return self.cast(_float_of(self)).sqrt() if not self.dtype.is_float else self.sqrt()
            if exponent == -1:
                return self.reciprocal()
        a, b = self._broadcast(exponent)
        if not a.dtype.is_float:
            dt = dtypes.default_float
            return a.cast(dt).pow(b.cast(dt)).round().cast(a.dtype)
        # |a|^b, with the sign of a for odd integer b; 0^0 = 1; NaN for negative ** non-integer
        mag = (b * a.abs().log2()).exp2()
        b_int = b.trunc() == b
        odd = b_int.logical_and(b.fmod(2).abs() == 1)
        neg = a < 0
        out = neg.logical_and(odd).where(-mag, mag)
        out = neg.logical_and(b_int.logical_not()).where(float("nan"), out)
        return (b == 0).where(1.0, out)

    def _int_pow(self, n):
        result, base = self.ones_like(), self
        while n:
            if n & 1:
                result = result * base
            n >>= 1
            if n:
                base = base * base
        return result

    def __add__(self, x): return self.add(x)
    def __radd__(self, x): return self._to_tensor(x, self._binary_dtype(x)).add(self)
    def __sub__(self, x): return self.sub(x)
    def __rsub__(self, x): return self._to_tensor(x, self._binary_dtype(x)).sub(self)
    def __mul__(self, x): return self.mul(x)
    def __rmul__(self, x): return self._to_tensor(x, self._binary_dtype(x)).mul(self)
    def __truediv__(self, x): return self.div(x)
    def __rtruediv__(self, x): return self._to_tensor(x, self._binary_dtype(x)).div(self)
    def __floordiv__(self, x): return self.floor_divide(x)
    def __rfloordiv__(self, x): return self._to_tensor(x, self._binary_dtype(x)).floor_divide(self)
    def __mod__(self, x): return self.remainder(x)
    def __rmod__(self, x): return self._to_tensor(x, self._binary_dtype(x)).remainder(self)
    def __pow__(self, x): return self.pow(x)
    def __rpow__(self, x): return self._to_tensor(x, self._binary_dtype(x)).pow(self)
    def __neg__(self): return self.neg()
    def __pos__(self): return self
    def __abs__(self): return self.abs()
    def __matmul__(self, x): return self.matmul(x)
    def __rmatmul__(self, x): return self._to_tensor(x).matmul(self)

    # ---- comparisons ------------------------------------------------------------------------
    def _cmp(self, other, op, swap=False):
        a, b = self._broadcast(other)
        if swap:
            a, b = b, a
        return a._alu(op, b)

    def __lt__(self, x): return self._cmp(x, Op.CMPLT)
    def __gt__(self, x): return self._cmp(x, Op.CMPLT, swap=True)
    def __le__(self, x): return self._cmp(x, Op.CMPLT).logical_or(self._cmp(x, Op.CMPNE).logical_not())
    def __ge__(self, x): return self._cmp(x, Op.CMPLT, swap=True).logical_or(self._cmp(x, Op.CMPNE).logical_not())
    def __ne__(self, x): return self._cmp(x, Op.CMPNE)
    def __eq__(self, x): return self._cmp(x, Op.CMPNE).logical_not()

    lt, gt, le, ge, ne, eq = __lt__, __gt__, __le__, __ge__, __ne__, __eq__
    less, greater, less_equal, greater_equal, not_equal = lt, gt, le, ge, ne

    def maximum(self, other):
        a, b = self._broadcast(other)
        if a.dtype.is_bool:
            return a._alu(Op.OR, b)
        return a._alu(Op.MAX, b)

    def minimum(self, other):
        a, b = self._broadcast(other)
        if a.dtype.is_bool:
            return a._alu(Op.AND, b)
        return a.neg()._alu(Op.MAX, b.neg()).neg() if a.dtype.is_float or a.dtype.kind == "i" else \
            (a < b).where(a, b)

    def clip(self, min=None, max=None):
        if min is None and max is None:
            raise ValueError("clip: at least one of min and max must be given")
        out = self
        if min is not None:
            out = out.maximum(min)
        if max is not None:
            out = out.minimum(max)
        return out

    clamp = clip

    def where(self, x, y):
        """``cond.where(x, y)``: x where this (bool) tensor is true, else y."""
        from tensor.tensor import Tensor
        cond = self.cast(dtypes.bool)
        xs = x if isinstance(x, Tensor) else None
        ys = y if isinstance(y, Tensor) else None
        ref = xs if xs is not None else ys
        if ref is None:
            dt = self._binary_dtype_pair(x, y)
            x, y = self._to_tensor(x, dt), self._to_tensor(y, dt)
        else:
            dt = ref._binary_dtype(y if ref is xs else x) if (xs is None or ys is None) else \
                xs._binary_dtype(ys)
            x = xs if xs is not None else self._to_tensor(x, dt)
            y = ys if ys is not None else self._to_tensor(y, dt)
        shape = Tensor.broadcast_shapes(cond.shape, x.shape, y.shape)
        c = cond.broadcast_to(shape)
        return c._alu(Op.WHERE, x.cast(dt).broadcast_to(shape), y.cast(dt).broadcast_to(shape))

    def _binary_dtype_pair(self, x, y):
        from tensor.dtypes import result_type, scalar_dtype
        return result_type([], [], [scalar_dtype(x), scalar_dtype(y)])

    # ---- logic and bits ----------------------------------------------------------------------
    def logical_not(self):
        return self.cast(dtypes.bool)._alu(Op.CMPNE, self._to_tensor(True).broadcast_to(self.shape))

    def logical_and(self, other):
        a, b = self._broadcast(other, dtype=dtypes.bool)
        return a._alu(Op.AND, b)

    def logical_or(self, other):
        a, b = self._broadcast(other, dtype=dtypes.bool)
        return a._alu(Op.OR, b)

    def logical_xor(self, other):
        a, b = self._broadcast(other, dtype=dtypes.bool)
        return a._alu(Op.XOR, b)

    def _bitwise(self, other, op, name):
        a, b = self._broadcast(other)
        if a.dtype.is_float:
            raise DTypeError(f"{name}: needs integer or bool tensors, got {self.dtype.name} and "
                             f"{getattr(other, 'dtype', a.dtype).name}")
        return a._alu(op, b)

    def bitwise_and(self, x): return self._bitwise(x, Op.AND, "bitwise_and")
    def bitwise_or(self, x): return self._bitwise(x, Op.OR, "bitwise_or")
    def bitwise_xor(self, x): return self._bitwise(x, Op.XOR, "bitwise_xor")

    def bitwise_not(self):
        if self.dtype.is_float:
            raise DTypeError(f"bitwise_not: needs an integer or bool tensor, got {self.dtype.name}")
        if self.dtype.is_bool:
            return self.logical_not()
        return self._bitwise(-1, Op.XOR, "bitwise_not")

    def _shift(self, other, op, name):
        a, b = self._broadcast(other)
        if not a.dtype.is_int:
            raise DTypeError(f"{name}: needs integer tensors, got {a.dtype.name}")
        return a._alu(op, b)

    def bitwise_left_shift(self, x): return self._shift(x, Op.SHL, "bitwise_left_shift")
    def bitwise_right_shift(self, x): return self._shift(x, Op.SHR, "bitwise_right_shift")
    __and__, __or__, __xor__ = bitwise_and, bitwise_or, bitwise_xor
    __invert__ = bitwise_not
    __lshift__, __rshift__ = bitwise_left_shift, bitwise_right_shift
    def __rand__(self, x): return self._to_tensor(x, self._binary_dtype(x)).bitwise_and(self)
    def __ror__(self, x): return self._to_tensor(x, self._binary_dtype(x)).bitwise_or(self)
    def __rxor__(self, x): return self._to_tensor(x, self._binary_dtype(x)).bitwise_xor(self)

    # ---- math ----------------------------------------------------------------------------------
    def _f(self):
        return self.cast(_float_of(self))

    def exp2(self): return self._f()._alu(Op.EXP2)
    def log2(self): return self._f()._alu(Op.LOG2)
    def sin(self): return self._f()._alu(Op.SIN)
    def sqrt(self): return self._f()._alu(Op.SQRT)
    def exp(self): return (self._f() * LOG2_E).exp2()
    def log(self): return self._f().log2() * LN_2
    def log10(self): return self._f().log2() * (LN_2 / math.log(10))
    def log1p(self): return (self._f() + 1).log()
    def expm1(self): return self.exp() - 1
    def rsqrt(self): return self._f().sqrt().reciprocal()
    def cos(self): return (math.pi / 2 - self._f()).sin()
    def tan(self): return self.sin() / self.cos()
    def square(self): return self * self

    def abs(self):
        if self.dtype.is_bool or self.dtype.is_unsigned:
            return self
        # x * sign(x): NaN stays NaN and the gradient at 0 is 0, as in PyTorch
        out = self * self.sign()
        return out + 0.0 if self.dtype.is_float else out

    def sign(self):
        if self.dtype.is_bool:
            return self
        one = (self > 0).cast(self.dtype) - (self < 0).cast(self.dtype) if not self.dtype.is_unsigned \
            else (self > 0).cast(self.dtype)
        return (self != self).where(self, one) if self.dtype.is_float else one

    def trunc(self):
        if not self.dtype.is_float:
            return self
        # values with |x| >= 2**52 (2**23 for float32) are integers already
        big = 2.0 ** (52 if self.dtype is dtypes.float64 else 23)
        it = dtypes.int64
        t = self.cast(it).cast(self.dtype)
        return (self.abs() < big).where(t, self)

    def floor(self):
        if not self.dtype.is_float:
            return self
        t = self.trunc()
        return (self < t).where(t - 1, t)

    def ceil(self):
        if not self.dtype.is_float:
            return self
        t = self.trunc()
        return (self > t).where(t + 1, t)

    def round(self, decimals=0):
        """Round half to even, as torch.round does."""
        if not self.dtype.is_float:
            return self
        if decimals:
            s = 10.0 ** decimals
            return (self * s).round() / s
        f = self.floor()
        diff = self - f
        even = (f.fmod(2) == 0)
        up = (diff > 0.5).logical_or((diff == 0.5).logical_and(even.logical_not()))
        return up.where(f + 1, f)

    def frac(self):
        return self - self.trunc()

    def isnan(self):
        return self != self if self.dtype.is_float else self.full_like(False, dtype=dtypes.bool)

    def isinf(self):
        if not self.dtype.is_float:
            return self.full_like(False, dtype=dtypes.bool)
        return (self == float("inf")).logical_or(self == float("-inf"))

    def isfinite(self):
        return self.isnan().logical_or(self.isinf()).logical_not()

    def lerp(self, end, weight):
        return self + (end - self) * weight

    # ---- activations ---------------------------------------------------------------------------
    def _positive_or_nan(self):
        pos = self > 0
        return pos.logical_or(self != self) if self.dtype.is_float else pos

    def relu(self):
        return self._positive_or_nan().where(self, 0)

    def leaky_relu(self, negative_slope=0.01):
        return self._positive_or_nan().where(self, self * negative_slope)

    def elu(self, alpha=1.0):
        return (self > 0).where(self, (self.exp() - 1) * alpha)

    def sigmoid(self):
        x = self._f()
        return (1 + (x * -LOG2_E).exp2()).reciprocal()

    def tanh(self):
        return 2.0 * (self * 2).sigmoid() - 1.0

    def silu(self):
        return self * self.sigmoid()

    swish = silu

    def softplus(self, beta=1.0, threshold=20.0):
        x = self._f() * beta
        # log(1 + e^x) computed as max(x, 0) + log(1 + e^-|x|) so large |x| neither overflows
        # nor loses the small term; PyTorch returns x itself above the threshold
        soft = (x.relu() + (1 + (-x.abs()).exp()).log()) / beta
        return (x > threshold).where(self._f(), soft)

    def erf(self):
        """Abramowitz & Stegun 7.1.26 refined: |error| < 1.5e-7."""
        x = self._f()
        s = (x < 0).where(-1.0, 1.0)
        a = x.abs()
        t = (1 + 0.3275911 * a).reciprocal()
        y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
                 + 0.254829592) * t * (-a * a).exp()
        return s * y

    def gelu(self, approximate="none"):
        if approximate == "tanh":
            return 0.5 * self * (1 + (math.sqrt(2 / math.pi) * (self + 0.044715 * self * self * self)).tanh())
        if approximate != "none":
            raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
        return 0.5 * self * (1 + (self * (1 / math.sqrt(2))).erf())

    def hardtanh(self, min_val=-1.0, max_val=1.0):
        return self.clip(min_val, max_val)

    def relu6(self):
        return self.relu().minimum(6)

    def hardsigmoid(self):
        return (self / 6 + 0.5).clip(0, 1)

    def mish(self):
        return self * self.softplus().tanh()
