"""Register files and per-wave state of one batch of waves, with a leading wave axis.

Scalar registers are indexed by their gfx11 operand code, so a decoded SGPR operand addresses
the file directly: s0..s105, vcc_lo/hi (106, 107), ttmp0..15 (108..123), null (124, reads 0,
writes dropped), m0 (125), exec_lo/hi (126, 127).  VGPRs are waves x registers x lanes.
"""
import numpy as np

WAVE32 = 32
VCC_LO, VCC_HI, NULL, M0, EXEC_LO, EXEC_HI = 106, 107, 124, 125, 126, 127
SGPR_CODES = 128

LANE_IDS = np.arange(WAVE32, dtype=np.uint32)
LANE_BITS = (np.uint32(1) << LANE_IDS).astype(np.uint32)

# MODE register (s_getreg/s_setreg HW_REG_MODE) fields on gfx11
MODE_ROUND_F32, MODE_ROUND_F16_64 = (0, 2), (2, 2)
MODE_DENORM_F32, MODE_DENORM_F16_64 = (4, 2), (6, 2)
MODE_DX10_CLAMP, MODE_IEEE = (8, 1), (9, 1)


def mode_from_rsrc1(rsrc1):
    """The initial MODE register of a wave from COMPUTE_PGM_RSRC1 (FLOAT_MODE, DX10_CLAMP, IEEE)."""
    float_mode = (rsrc1 >> 12) & 0xFF              # round[3:0] denorm[7:4], same layout as MODE
    return float_mode | ((rsrc1 >> 21) & 1) << 8 | ((rsrc1 >> 23) & 1) << 9


def field(value, spec):
    lo, width = spec
    return (value >> lo) & ((1 << width) - 1)


class WaveState:
    """Everything the closures read and write for ``W`` waves of ``G`` workgroups.

    ``wg`` maps a wave to its workgroup (index into ``lds``); ``pc`` is the byte address of the
    next instruction; ``done`` marks waves that ran s_endpgm; ``at_barrier`` those waiting in
    s_barrier.
    """

    def __init__(self, waves, vgprs, workgroups, lds_bytes, vm):
        # LDS bytes of every workgroup, one after another (16 spare bytes, whole 8-byte words)
        lds_size = -(-(max(1, workgroups) * lds_bytes + 16) // 8) * 8
        self.init_from(waves, vgprs, lds_size, lds_bytes, vm, np.zeros(arena_bytes(waves), np.uint8))
        self.private_size = 0                              # scratch bytes per lane

    def init_from(self, waves, vgprs, lds_size, lds_bytes, vm, arena):
        """Everything but private_size, over ``arena`` (arena_bytes(waves) bytes, taken as it is:
        a launch template gives the SGPRs and per-wave arrays in it, see ARENA)."""
        self.W, self.vgprs, self.vm = waves, vgprs, vm
        # The SGPRs and the per-wave arrays live in one buffer, so that a launch template resets
        # them all with one copy.  Stored register-major, so one register of every wave is one
        # contiguous block (numpy works several times faster on it than on a strided view);
        # ``sgpr[w, code]`` and ``vgpr[w, reg, lane]`` are the wave-major views of the same storage.
        self.arena = arena
        for name, start, end, dtype, shape in _arena_layout(waves):
            setattr(self, name, arena[start:end].view(dtype).reshape(shape))
        self.vregs = np.zeros((vgprs, waves, WAVE32), np.uint32)
        self.views = {}                                    # block_views.py: register views per slice
        self.sgpr = self.sregs.T
        self.vgpr = self.vregs.transpose(1, 0, 2)
        self.lds_bytes = lds_bytes
        # ``lds32`` is the same memory as dwords (the access path of aligned dword loads and stores)
        self.lds = np.zeros(lds_size, np.uint8)
        self.lds32 = self.lds.view(np.uint32)
        self.scratch_lanes = None                          # lane L's private offset, L * private_size
        self.lds_lane_words = None                         # lds.py: each lane's workgroup LDS base (dwords)
        self.lane_sets = {}                                # lanesets.py: (waves, EXEC) -> LaneSet
        self.wave_ids = np.arange(waves)
        self.restarted(vm)

    def restart(self, arena, v0, vm):
        """Back to the initial state of a launch of the same shape (a template's ``arena`` and
        ``v0``): what a new WaveState built by the same template holds.  ``scratch_lanes`` and
        ``lds_lane_words`` are kept (they follow from ``wg``, ``lds_bytes`` and
        ``private_size``, which the template fixes)."""
        np.copyto(self.arena, arena)
        self.vregs.fill(0)
        self.vregs[0] = v0
        self.lds.fill(0)
        self.restarted(vm)

    def restarted(self, vm):
        self.vm = vm
        self.clock = None                                  # () -> the GPU's 100 MHz timestamp
        self.mode_uniform = True                           # every wave has the same MODE
        self.split = None                                  # control.py: a divergent branch's halves
        # statistics
        self.wave_instructions = 0
        self.lane_ops = 0

    def timestamp(self):
        """The GPU timestamp (MSG_RTN_GET_REALTIME); without a GPU clock, the instructions executed."""
        return int(self.clock()) if self.clock is not None else self.wave_instructions

    def mode_changed(self):
        self.mode_uniform = bool((self.mode == self.mode[0]).all())

    def exec_mask(self, sel):
        """bool (w, 32): the EXEC bit of every lane of the selected waves."""
        return unpack_lanes(self.sgpr[sel, EXEC_LO])

    def exec_or_none(self, sel):
        """exec_mask, or None when every lane of every selected wave is active (the common case
        the VALU writes take without a mask)."""
        ex = self.sgpr[sel, EXEC_LO]
        if (ex == FULL_EXEC).all():
            return None
        return unpack_lanes(ex)


FULL_EXEC = np.uint32(0xFFFFFFFF)

# The arena of a WaveState: the SGPR file and the per-wave arrays, each 8-byte aligned.
ARENA = (("sregs", np.uint32, SGPR_CODES), ("pc", np.int64, 1), ("wg", np.int64, 1),
         ("scratch_base", np.uint64, 1),                   # VA of lane 0's private segment
         ("mode", np.uint32, 1), ("hw_id", np.uint32, 1), ("scc", np.uint32, 1),
         ("done", np.bool_, 1), ("at_barrier", np.bool_, 1))
_LAYOUTS = {}


def _arena_layout(waves):
    """[(name, first byte, end, dtype, shape)] of the arena of ``waves`` waves (kept)."""
    layout = _LAYOUTS.get(waves)
    if layout is None:
        fields, start = [], 0
        for name, dtype, rows in ARENA:
            dtype = np.dtype(dtype)
            end = start + dtype.itemsize * rows * waves
            fields.append((name, start, end, dtype, (rows, waves) if rows > 1 else (waves,)))
            start = -(-end // 8) * 8
        if len(_LAYOUTS) >= 64:
            _LAYOUTS.clear()
        layout = _LAYOUTS[waves] = fields
        _SIZES[waves] = start
    return layout


_SIZES = {}


def arena_view(arena, waves, name):
    """The array ``name`` (an ARENA field) of the arena of ``waves`` waves."""
    for field, start, end, dtype, shape in _arena_layout(waves):
        if field == name:
            return arena[start:end].view(dtype).reshape(shape)
    raise KeyError(name)


def arena_bytes(waves):
    _arena_layout(waves)
    return _SIZES[waves]


def unpack_lanes(bits):
    """uint32 (w,) lane masks -> bool (w, 32)."""
    b = np.ascontiguousarray(bits, np.uint32).view(np.uint8).reshape(-1, 4)
    return np.unpackbits(b, axis=1, bitorder="little").view(bool)
