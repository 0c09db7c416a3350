"""The register files of one workgroup on the virtual Adreno's shader processor.

Every fiber (work-item) of the workgroup is one column; every 32-bit register one row, so an
instruction reads and writes whole rows with numpy. Register ids are mesa's: regid = 4 * n + c
for rN.c (r0.x = 0, r1.y = 5), 256 of them:

    r0.x .. r47.w     general registers (the footprint SP_CS_CTRL_REG0 grants)
    r48.x .. r55.w    shared registers: one value per wave (the hardware keeps them per wave;
                      here every fiber of the wave holds the same copy, checked on write)
    r61.x, r61.y      a0.x and a1.x, the address registers (signed 16-bit)
    r62.x .. r62.w    p0.x .. p0.w, the predicate registers (0 or 1)

Half registers share the storage (a6xx merged register file): hrN.c is the low (even half
regid) or high (odd) 16 bits of full register regid // 2, so hr0.x/hr0.y are the halves of r0.x.
"""
import numpy as np

from drivers.errors import GPUError

NREGS = 256
SHARED_FIRST, SHARED_END = 48 * 4, 56 * 4          # r48.x .. r55.w
A0, A1 = 61 * 4, 61 * 4 + 1                        # a0.x, a1.x
P0 = 62 * 4                                        # p0.x .. p0.w
NONE_REG = 63 * 4                                  # r63.x: "no register" (writes are dropped)
COMPONENTS = "xyzw"


def regname(regid, half=False):
    """mesa's name of a register id: 'r3.y', 'hr0.x', 'a0.x', 'p0.z'."""
    if regid == A0:
        return "a0.x"
    if regid == A1:
        return "a1.x"
    if P0 <= regid < P0 + 4:
        return "p0." + COMPONENTS[regid - P0]
    return ("hr" if half else "r") + f"{regid >> 2}.{COMPONENTS[regid & 3]}"


def is_shared(regid, half=False):
    return SHARED_FIRST <= regid < SHARED_END


# The hazard tracker counts in 16-bit units: full register r covers units 2r and 2r + 1, half
# register h the one unit it occupies, so two halves of one full register never collide.
NUNITS = 2 * NREGS


def units(regid, half=False):
    if half:
        row, hi = half_row(regid)
        return (2 * row + hi,)
    return (2 * regid, 2 * regid + 1)


def unit_name(u, accessed):
    """The register unit ``u`` belongs to, named the way an instruction that touched the units
    ``accessed`` names it (a full register when it used both halves)."""
    row = u >> 1
    if 2 * row in accessed and 2 * row + 1 in accessed:
        return regname(row)
    h = u if row < SHARED_FIRST else u - SHARED_FIRST
    return regname(h, half=True)


def half_row(h):
    """(full row, which half) that half register id ``h`` lives in."""
    if h >= SHARED_FIRST:                   # hr48.x.. alias the halves of the shared r48.x..
        return SHARED_FIRST + ((h - SHARED_FIRST) >> 1), h & 1
    return h >> 1, h & 1


class Workgroup:
    """Registers, local memory and fiber bookkeeping of one workgroup.

    ``fibers`` live fibers in waves of ``wave`` (64 or 128); the last wave may be partly empty
    (those columns exist but never run)."""

    def __init__(self, fibers, wave, local_bytes=0, private=None):
        self.wave = wave
        self.waves = -(-fibers // wave)
        self.F = F = self.waves * wave
        self.fibers = fibers
        self.R = np.zeros((NREGS, F), np.uint32)
        self.R16 = self.R.view(np.uint16)          # (NREGS, 2F): [row, 2f] low half, [row, 2f+1] high
        self.valid = np.arange(F) < fibers
        self.lane = np.arange(F) % wave
        self.wave_of = np.arange(F) // wave
        self.local = np.zeros(local_bytes, np.uint8)
        self.private = private                      # (vm, base VA, bytes per fiber, first slot)

    # -- reads -----------------------------------------------------------------------------------
    def full(self, regid):
        return self.R[regid]

    def half(self, h):
        row, hi = half_row(h)
        return self.R16[row, hi::2]

    def a0(self):
        return self.R[A0].view(np.int32)

    # -- writes ----------------------------------------------------------------------------------
    def write_full(self, regid, values, active, pc=None):
        if regid == NONE_REG:
            return
        if SHARED_FIRST <= regid < SHARED_END:
            self._write_shared(self.R[regid], values, active, regid, False, pc)
            return
        np.copyto(self.R[regid], values, where=active, casting="unsafe")

    def write_half(self, h, values, active, pc=None):
        if h >> 1 == NONE_REG:
            return
        row, hi = half_row(h)
        dst = self.R16[row, hi::2]
        if SHARED_FIRST <= row < SHARED_END:
            self._write_shared(dst, values, active, h, True, pc)
            return
        np.copyto(dst, values, where=active, casting="unsafe")

    def _write_shared(self, dst, values, active, regid, half, pc):
        """A shared register holds one value per wave: the active fibers of a wave must agree,
        and every fiber of that wave sees the new value."""
        vals = np.broadcast_to(np.asarray(values), (self.F,)).astype(dst.dtype, copy=False)
        act = active.reshape(self.waves, self.wave)
        v = vals.reshape(self.waves, self.wave)
        for w in np.flatnonzero(act.any(axis=1)):
            chosen = v[w][act[w]]
            if (chosen != chosen[0]).any():
                where = f" at PC 0x{pc:x}" if pc is not None else ""
                raise GPUError(f"non-uniform write to shared register {regname(regid, half)}{where}: wave {w} "
                               f"writes {len(np.unique(chosen))} different values (shared registers hold one value "
                               "per wave)")
            dst[w * self.wave:(w + 1) * self.wave] = chosen[0]

    def waves_active(self, active):
        """Which waves have an active fiber (bool per wave)."""
        return active.reshape(self.waves, self.wave).any(axis=1)
