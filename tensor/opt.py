"""Optimizations a code generator asks for when a kernel is lowered.

A kernel's iteration space is a list of :class:`Axis`: each belongs to one dimension of the
kernel's shape, has a size, a kind, and a multiplier (its share of the dimension's index).
Lowering starts with one ``global`` axis per output dimension and one ``reduce`` axis per
reduced dimension; each :class:`Opt` splits an axis ``n`` into ``(size // amount, amount)``
and gives the inner part a new kind:

    Opt("upcast", n, a)  global -> "upcast": a work-item computes ``a`` outputs (register tile)
    Opt("local",  n, a)  global -> "local": ``a`` work-items of one workgroup share the axis
    Opt("unroll", n, a)  reduce -> "unroll": the loop body is repeated ``a`` times
    Opt("group",  n, a)  reduce -> "group": ``a`` work-items of a workgroup each reduce a
                         slice; partial results meet in local memory (a grouped reduction)
    Opt("shared", n, a)  reduce -> tiles of ``a``: each tile of every load that some local
                         work-items share is staged once in local memory (matmul tiling)

``n`` numbers the axes as they stand when the opt is applied.  Amounts must divide the size.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Opt:
    op: str
    axis: int
    amount: int


@dataclass(frozen=True)
class Axis:
    dim: int
    size: int
    mult: int
    kind: str          # global local upcast reduce unroll group tile


KINDS = {"upcast": ("global", "upcast"), "local": ("global", "local"),
         "unroll": ("reduce", "unroll"), "group": ("reduce", "group"),
         "shared": ("reduce", "tile")}


class OptError(ValueError):
    """An optimization does not fit the kernel; the message names the opt and the axis."""


def initial_axes(shape, reduce_dims):
    return [Axis(d, s, 1, "reduce" if d in reduce_dims else "global") for d, s in enumerate(shape)]


def apply_opts(axes, opts):
    axes = list(axes)
    for opt in opts:
        if opt.op not in KINDS:
            raise OptError(f"unknown optimization {opt.op!r}; known: {', '.join(KINDS)}")
        if not 0 <= opt.axis < len(axes):
            raise OptError(f"{opt}: the kernel has {len(axes)} axes")
        ax = axes[opt.axis]
        need, new_kind = KINDS[opt.op]
        if ax.kind != need:
            raise OptError(f"{opt}: axis {opt.axis} is {ax.kind}, {opt.op} needs a {need} axis")
        if opt.amount < 1 or ax.size % opt.amount:
            raise OptError(f"{opt}: {opt.amount} does not divide axis {opt.axis} of size {ax.size}")
        if opt.op == "shared" and any(a.kind == "tile" for a in axes):
            raise OptError(f"{opt}: one shared tiling per kernel")
        outer = Axis(ax.dim, ax.size // opt.amount, ax.mult * opt.amount, ax.kind)
        inner = Axis(ax.dim, opt.amount, ax.mult, new_kind)
        axes[opt.axis:opt.axis + 1] = [a for a in (outer, inner) if a.size > 1 or a is inner]
    return axes
