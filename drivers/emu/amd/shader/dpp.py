"""DPP lane selection for VALU src0: DPP16 row operations and DPP8 selects.

``dpp16_sources(ctrl)`` gives, for each of the 32 lanes, the lane it reads (-1 when the source is
out of the row).  ``apply`` returns the selected src0 and the lanes the instruction may write:
a lane is not written when its row or bank is masked off, or when its source lane is invalid
(out of range, or inactive without fetch-inactive) and bound_ctrl is clear; with bound_ctrl set
such a lane reads 0 instead.
"""
import numpy as np

from .state import WAVE32

_LANES = np.arange(WAVE32)
_IN_ROW = _LANES & 15
_ROW_BASE = _LANES & ~15


def dpp16_sources(ctrl):
    if ctrl <= 0xFF:                                         # quad_perm
        return (_LANES & ~3) | ((ctrl >> (2 * (_LANES & 3))) & 3)
    if ctrl == 0x140:                                        # row_mirror
        return _ROW_BASE + (15 - _IN_ROW)
    if ctrl == 0x141:                                        # row_half_mirror
        return (_LANES & ~7) + (7 - (_LANES & 7))
    kind, n = ctrl & 0x1F0, ctrl & 15
    if kind == 0x100:                                        # row_shl: read lane + n
        return np.where(_IN_ROW + n < 16, _LANES + n, -1)
    if kind == 0x110:                                        # row_shr: read lane - n
        return np.where(_IN_ROW >= n, _LANES - n, -1)
    if kind == 0x120:                                        # row_ror
        return _ROW_BASE + ((_IN_ROW - n) & 15)
    if kind == 0x150:                                        # row_share
        return _ROW_BASE + n
    if kind == 0x160:                                        # row_xmask
        return _ROW_BASE + (_IN_ROW ^ n)
    raise ValueError(f"reserved dpp_ctrl 0x{ctrl:x}")


def dpp8_sources(sel):
    return (_LANES & ~7) + np.array(sel)[_LANES & 7]


def lane_enable(row_mask, bank_mask):
    """bool (32,): lanes whose row and bank are enabled."""
    return (((row_mask >> (_LANES >> 4)) & 1) & ((bank_mask >> ((_LANES >> 2) & 3)) & 1)).astype(bool)


class DppSelect:
    def __init__(self, dpp):
        self.kind = dpp["kind"]
        self.fi = bool(dpp.get("fi"))
        if self.kind == "dpp16":
            self.sources = dpp16_sources(dpp["ctrl"])
            self.bound_ctrl = bool(dpp["bound_ctrl"])
            self.enabled = lane_enable(dpp["row_mask"], dpp["bank_mask"])
        else:
            self.sources = dpp8_sources(dpp["sel"])
            self.bound_ctrl = True               # DPP8 reads 0 from invalid lanes
            self.enabled = np.ones(WAVE32, bool)
        self.valid = self.sources >= 0
        self.gather = np.where(self.valid, self.sources, 0)

    def apply(self, src0, exec_mask):
        """(selected src0, bool (w, 32) lanes allowed to write)."""
        picked = src0[:, self.gather]
        ok = np.broadcast_to(self.valid, exec_mask.shape)
        if not self.fi:
            ok = ok & exec_mask[:, self.gather]
        picked = np.where(ok, picked, src0.dtype.type(0))
        write = np.broadcast_to(self.enabled, exec_mask.shape)
        if not self.bound_ctrl:
            write = write & ok
        return picked, write
