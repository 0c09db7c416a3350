"""Loss functions as Tensor methods, with PyTorch's formulas, defaults and reductions.

``logits.cross_entropy(target)`` takes class indices (integers, shape of the input without
its class dimension) or class probabilities (floats, the input's shape); the class dimension
is 1 (0 for a 1-D input), so (N, C) and (N, C, d1, ...) inputs work as in PyTorch.
``reduction`` is "mean" (the default), "sum" or "none"; with class indices and "mean", the
sum is divided by the total weight of the targets not equal to ``ignore_index`` (NaN when
every target is ignored, as in PyTorch).  :mod:`tensor.nn` has the same as functions
(``nn.functional``) and modules (``nn.CrossEntropyLoss``).
"""
from tensor import ops
from tensor.dtypes import DTypeError

REDUCTIONS = ("mean", "sum", "none")


def _shape_error(msg):
    from tensor.tensor import ShapeError
    return ShapeError(msg)


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _check_reduction(name, reduction):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{name}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


class LossMixin:
    __slots__ = ()

    # ---- classification --------------------------------------------------------------------
    def _class_dim(self, name):
        if self.ndim == 0:
            raise _shape_error(f"{name}: the input needs a class dimension, got a 0-d tensor")
        return 1 if self.ndim >= 2 else 0

    def _class_targets(self, target, name):
        """Integer class targets checked against the input: (target, class dim, classes)."""
        d = self._class_dim(name)
        want = self.shape[:d] + self.shape[d + 1:]
        if target.shape != want:
            raise _shape_error(f"{name}: input {self.shape} needs class targets of shape {want}, "
                               f"got {target.shape}")
        return d, self.shape[d]

    def _class_weights(self, weight, d, C, name):
        """``weight`` (C,) shaped to broadcast along the class dimension, or None."""
        if weight is None:
            return None
        weight = self._to_tensor(weight)
        if weight.shape != (C,):
            raise _shape_error(f"{name}: weight must have shape ({C},) for {C} classes, got {weight.shape}")
        return weight.cast(self.dtype).reshape((C,) + (1,) * (self.ndim - d - 1))

    def nll_loss(self, target, weight=None, ignore_index=-100, reduction="mean"):
        """Negative log-likelihood of log-probabilities ``self`` at the class indices ``target``."""
        _check_reduction("nll_loss", reduction)
        target = self._to_tensor(target)
        if not target.dtype.is_int:
            raise DTypeError(f"nll_loss: class targets must be integers, got {target.dtype.name} "
                             "(probability targets go to cross_entropy)")
        d, C = self._class_targets(target, "nll_loss")
        _check_host_targets(target, C, ignore_index, "nll_loss")
        w = self._class_weights(weight, d, C, "nll_loss")
        hit = target.unsqueeze(d) == self._classes(C, d, target.dtype)
        valid = target != ignore_index
        picked = hit.where(self if w is None else self * w, 0).sum(d)
        loss = valid.where(-picked, 0)
        if reduction != "mean":
            return _reduce(loss, reduction)
        total = valid.cast(self.dtype).sum() if w is None else \
            valid.where(hit.where(w, 0).sum(d), 0).sum()
        return loss.sum() / total

    def _classes(self, C, d, dtype):
        from tensor.tensor import Tensor
        shape = (C,) + (1,) * (self.ndim - d - 1)
        return Tensor(ops.iota(C, self.device)).cast(dtype).reshape(shape)

    def cross_entropy(self, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        """Cross-entropy of the logits ``self`` against class indices or class probabilities.

        With ``label_smoothing`` s, the target is mixed with the uniform distribution:
        (1 - s) * the plain loss + s * the mean over classes of -log p (weighted by ``weight``)."""
        _check_reduction("cross_entropy", reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"cross_entropy: label_smoothing must be in [0, 1], got {label_smoothing}")
        if not self.dtype.is_float:
            raise DTypeError(f"cross_entropy: the input must be floating point (logits), got {self.dtype.name}")
        target = self._to_tensor(target)
        d = self._class_dim("cross_entropy")
        C = self.shape[d]
        if target.dtype.is_float:                      # class probabilities
            logp = self.log_softmax(d)
            if target.shape != self.shape:
                raise _shape_error(f"cross_entropy: probability targets must have the input's shape "
                                   f"{self.shape}, got {target.shape}")
            w = self._class_weights(weight, d, C, "cross_entropy")
            t = target.cast(self.dtype)
            if label_smoothing:
                t = t * (1 - label_smoothing) + label_smoothing / C
            terms = logp * t if w is None else logp * t * w
            return _reduce(-terms.sum(d), reduction)
        # class indices: -log p[y] = logsumexp(x) - x[y], so the backward pass needs no
        # reduction over the classes (softmax * g - onehot * g)
        if not target.dtype.is_int:
            raise DTypeError(f"cross_entropy: targets must be class indices (integers) or class "
                             f"probabilities (floats), got {target.dtype.name}")
        d, C = self._class_targets(target, "cross_entropy")
        _check_host_targets(target, C, ignore_index, "cross_entropy")
        w = self._class_weights(weight, d, C, "cross_entropy")
        x = self._f()
        lse = x.logsumexp(d)
        hit = target.unsqueeze(d) == self._classes(C, d, target.dtype)
        picked = hit.where(x if w is None else x * w, 0).sum(d)
        w_y = None if w is None else hit.where(w, 0).sum(d)
        loss = lse - picked if w is None else lse * w_y - picked
        if label_smoothing:
            total_w = C if w is None else w.sum()
            smooth = lse * total_w - (x if w is None else x * w).sum(d)
            loss = loss * (1 - label_smoothing) + smooth * (label_smoothing / C)
        valid = target != ignore_index
        loss = valid.where(loss, 0)
        if reduction != "mean":
            return _reduce(loss, reduction)
        total = valid.cast(x.dtype).sum() if w is None else valid.where(w_y, 0).sum()
        return loss.sum() / total

    # ---- elementwise losses ----------------------------------------------------------------
    def _pair_target(self, target, name):
        target = self._to_tensor(target)
        if target.shape != self.shape:
            raise _shape_error(f"{name}: input shape {self.shape} and target shape {target.shape} "
                               "differ (reshape one of them: broadcasting here is usually a bug)")
        if not self.dtype.is_float:
            raise DTypeError(f"{name}: the input must be floating point, got {self.dtype.name}")
        return target.cast(self.dtype)

    def mse_loss(self, target, reduction="mean"):
        _check_reduction("mse_loss", reduction)
        diff = self - self._pair_target(target, "mse_loss")
        return _reduce(diff * diff, reduction)

    def l1_loss(self, target, reduction="mean"):
        _check_reduction("l1_loss", reduction)
        return _reduce((self - self._pair_target(target, "l1_loss")).abs(), reduction)

    def binary_cross_entropy(self, target, weight=None, reduction="mean"):
        """``self`` holds probabilities; each log is clamped at -100, as PyTorch does, so a
        probability of exactly 0 or 1 gives a finite loss."""
        _check_reduction("binary_cross_entropy", reduction)
        t = self._pair_target(target, "binary_cross_entropy")
        loss = -(t * self.log().maximum(-100.0) + (1 - t) * (1 - self).log().maximum(-100.0))
        if weight is not None:
            loss = loss * self._to_tensor(weight).cast(self.dtype)
        return _reduce(loss, reduction)

    def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction="mean"):
        """Sigmoid + binary cross-entropy in one stable formula (no overflow for large |x|)."""
        _check_reduction("binary_cross_entropy_with_logits", reduction)
        t = self._pair_target(target, "binary_cross_entropy_with_logits")
        # log(1 + e^-x) = max(-x, 0) + log(1 + e^-|x|)
        log1pexp = (-self).relu() + (1 + (-self.abs()).exp()).log()
        if pos_weight is None:
            loss = (1 - t) * self + log1pexp
        else:
            pw = self._to_tensor(pos_weight).cast(self.dtype)
            loss = (1 - t) * self + (1 + (pw - 1) * t) * log1pexp
        if weight is not None:
            loss = loss * self._to_tensor(weight).cast(self.dtype)
        return _reduce(loss, reduction)


def _check_host_targets(target, C, ignore_index, name):
    """Targets still on the host (made from a list or an array) are checked now: a class out
    of range would otherwise select nothing and give a silently wrong loss."""
    base, _ = target.node.view()
    buf = base.buffer if base.op is ops.G.BUFFER else None
    if buf is None or buf._pending is None or not buf.size:
        return
    import numpy as np
    vals = np.asarray(buf._pending)
    bad = vals[((vals < 0) | (vals >= C)) & (vals != ignore_index)]
    if bad.size:
        raise IndexError(f"{name}: target {int(bad[0])} is out of range for {C} classes "
                         f"(and is not ignore_index={ignore_index})")
