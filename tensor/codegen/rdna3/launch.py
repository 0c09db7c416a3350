"""Launch shape: which hardware workgroup and grid run a kernel, and where each range comes from.

The loop-level IR names work-items by ``global`` and ``local`` ranges.  The hardware has a grid
of workgroups (workgroup ids in SGPRs) of up to 1024 work-items (ids packed in v0), wave32.

* A kernel with ``local`` ranges keeps its workgroups: local dimension ``d`` of ``n`` becomes
  hardware axis ``n-1-d`` of the workgroup (the last, usually contiguous, dimension is x, so a
  wave's 32 lanes walk it), global dimension ``d`` becomes grid axis ``n-1-d``.
* A kernel without them (one work-item per IR workgroup) is free to pack work-items into
  hardware workgroups.  The heuristic, per hardware axis from x (the last global dimension) to
  z: give the axis ``min(size, remaining lanes)`` lanes when that fits, otherwise the multiple
  of 32 (x) or power of two (y, z) up to the remaining lanes that wastes the fewest lanes on the
  partial last workgroup (ties: the larger).  Target: 256 lanes (8 waves) per workgroup, fewer
  when the kernel is smaller.  Lanes past the end of an axis are switched off in EXEC on entry.
  A global range is then ``workgroup_id * b + workitem_id`` (``b`` lanes on its axis); with
  ``b == 1`` it is the workgroup id alone, a uniform value in an SGPR.
* A kernel that uses local memory or barriers but has no local ranges (workgroups of one
  work-item) is launched with one lane per workgroup.
"""
from dataclasses import dataclass, field

MAX_WORKGROUP = 1024
TARGET_LANES = 256


class LaunchError(ValueError):
    """The kernel's ranges cannot be launched (too many dimensions, too large a workgroup)."""


@dataclass
class Launch:
    block: tuple
    grid: tuple
    global_axes: list = field(default_factory=list)   # per IR global dim: (hw axis, lanes b)
    local_axes: list = field(default_factory=list)    # per IR local dim: hw axis
    partial: list = field(default_factory=list)       # (hw axis, size): lanes with id >= size off

    @property
    def lanes(self):
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def waves(self):
        return -(-self.lanes // 32)


def _choose(size, budget, axis):
    if size <= budget:
        return size
    if axis == 0:
        cands = list(range(32, budget + 1, 32)) or [budget]
    else:
        cands = [1 << k for k in range(budget.bit_length()) if 1 << k <= budget]
    best = None
    for b in cands:
        waste = -(-size // b) * b - size
        key = (waste, -b)
        if best is None or key < best[0]:
            best = (key, b)
    return best[1]


def plan(global_size, local_size, uses_local_memory, block_override=None):
    """The Launch of a kernel with these ranges (``block_override``: lanes per hardware axis for a
    kernel without local ranges, as a launch-shape search proposes)."""
    ng, nl = len(global_size), len(local_size)
    if ng > 3 or nl > 3:
        raise LaunchError(f"{ng} global / {nl} local dimensions: the hardware has 3 of each")
    if nl:
        block = [1, 1, 1]
        for d, s in enumerate(local_size):
            block[nl - 1 - d] = s
        items = block[0] * block[1] * block[2]
        if items > MAX_WORKGROUP:
            raise LaunchError(f"local size {tuple(local_size)} has {items} work-items; a workgroup "
                              f"holds at most {MAX_WORKGROUP}")
        grid = [1, 1, 1]
        for d, s in enumerate(global_size):
            grid[ng - 1 - d] = s
        return Launch(tuple(block), tuple(grid), [(ng - 1 - d, 1) for d in range(ng)],
                      [nl - 1 - d for d in range(nl)], [])
    block, grid, axes, partial = [1, 1, 1], [1, 1, 1], [None] * ng, []
    budget = 1 if uses_local_memory else TARGET_LANES
    total = 1
    for s in global_size:
        total *= s
    if total < budget:
        budget = max(1, total)
    for d in range(ng - 1, -1, -1):
        h = ng - 1 - d
        s = global_size[d]
        if block_override is not None:
            b = max(1, min(block_override[h], s))
        else:
            b = _choose(s, budget, h) if budget > 1 else 1
        budget = max(1, budget // b)
        block[h], grid[h] = b, -(-s // b)
        axes[d] = (h, b)
        if grid[h] * b != s:
            partial.append((h, s))
    if block[0] * block[1] * block[2] > MAX_WORKGROUP:
        raise LaunchError(f"block {tuple(block)} exceeds {MAX_WORKGROUP} work-items")
    return Launch(tuple(block), tuple(grid), axes, [], partial)
