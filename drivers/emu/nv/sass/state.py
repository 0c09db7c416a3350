"""The state of a batch of CTAs on the virtual SMs, laid out for numpy.

Every array has a warp axis, so one instruction runs for every warp that sits at its PC in one call
(`G` selects those warps: a slice when they are contiguous, else an index array; `m` is the
[len(G), 32] mask of lanes that execute):

    R   uint32 [registers, warps, 32]     general registers (RZ reads 0 and drops writes)
    P   bool   [8, warps, 32]             predicates, P7 = PT is always true
    UR  uint32 [64, warps]                uniform registers (UR63 = URZ), UP bool [8, warps]
    B   uint32 [16, warps]                convergence barriers (BSSY/BSYNC lane masks)
    pc  int64  [warps, 32]                each lane's PC (Volta+ threads have their own)
    exited, wait, wait_arg                lanes that ended, and what a blocked lane waits for

Shared memory is one uint8 row per CTA; local memory one row per thread covering the two regions the
QMD gives (SHADER_LOCAL_MEMORY_LOW_SIZE from address 0, _HIGH_SIZE below the 16 MiB window top);
constant buffers are snapshots taken when the grid starts (what the constant caches hold).
"""
import numpy as np

from drivers.emu.nv.faults import ESR_INVALID_CONST_ADDR_LDC, ESR_OOR_REG, SmException

RZ, URZ, PT = 255, 63, 7
LOCAL_WINDOW = 1 << 24
WAIT_NONE, WAIT_BSYNC, WAIT_WARPSYNC, WAIT_BAR = 0, 1, 2, 3
LANES = np.arange(32, dtype=np.uint32)
LANE_BITS = np.uint32(1) << LANES


def mask_bits(masks):
    """uint32 lane masks [n] -> bool [n, 32]."""
    return ((np.asarray(masks, np.uint32)[..., None] >> LANES) & 1).astype(bool)


def bits_mask(bits):
    """bool [n, 32] -> uint32 lane masks [n]."""
    return (bits.astype(np.uint32) << LANES).sum(axis=-1, dtype=np.uint64).astype(np.uint32)


class Batch:
    def __init__(self, launch, ctas, shared_bytes, local_low, local_high):
        self.launch, self.vm, self.sm = launch, launch.vm, launch.sm_version
        bx, by, bz = launch.block
        self.threads = bx * by * bz
        self.wpc = -(-self.threads // 32)
        self.ncta = len(ctas)
        nw = self.nw = self.ncta * self.wpc
        self.nregs = launch.registers
        self.R = np.zeros((self.nregs, nw, 32), np.uint32)
        self.P = np.zeros((8, nw, 32), bool)
        self.P[PT] = True
        self.UR = np.zeros((64, nw), np.uint32)
        self.UP = np.zeros((8, nw), bool)
        self.UP[PT] = True
        self.B = np.zeros((16, nw), np.uint32)
        self.pc = np.zeros((nw, 32), np.int64)
        linear = (np.arange(self.wpc)[:, None] * 32 + LANES[None, :]).astype(np.int64)   # [wpc, 32]
        linear = np.tile(linear, (self.ncta, 1))
        self.exited = linear >= self.threads
        self.wait = np.zeros((nw, 32), np.int8)
        self.wait_arg = np.zeros((nw, 32), np.int64)
        self.tid = np.stack([linear % bx, linear // bx % by, linear // (bx * by)]).astype(np.uint32)
        self.cta_of_warp = np.repeat(np.arange(self.ncta), self.wpc)
        ctas = np.asarray(ctas, np.int64)
        gx, gy, _ = launch.grid
        self.ctaid = np.stack([ctas % gx, ctas // gx % gy, ctas // (gx * gy)]).astype(np.uint32)     # [3, ncta]
        self.warp_in_cta = np.tile(np.arange(self.wpc), self.ncta)
        self.shared_bytes = shared_bytes
        self.shared = np.zeros((self.ncta, max(shared_bytes, 4)), np.uint8)
        self.local_low, self.local_high = local_low, local_high
        self.local = np.zeros((nw * 32, max(local_low + local_high, 4)), np.uint8) if local_low + local_high else None
        self.cbufs = {}
        for bank, (va, size) in launch.cbufs.items():
            self.cbufs[bank] = self.vm.read(va, size) if size else b""
        self.cbuf_arrays = {b: np.frombuffer(d, np.uint8) for b, d in self.cbufs.items()}
        self.executed = 0              # warp-instructions
        self.thread_ops = 0            # thread-instructions (active lanes)

    # -- registers ------------------------------------------------------------------------------
    def check_reg(self, r, pc, what="R"):
        if r != RZ and r >= self.nregs:
            raise SmException(ESR_OOR_REG, pc, f"{what}{r} is past the {self.nregs} registers the QMD gives "
                              "(REGISTER_COUNT)")

    def r(self, n, G):
        if n == RZ:
            return np.zeros((_count(G, self.nw), 32), np.uint32)
        return self.R[n][G]

    def w(self, n, G, m, value):
        if n == RZ:
            return
        if isinstance(G, slice):
            np.copyto(self.R[n][G], value, casting="unsafe", where=m)
        else:
            cur = self.R[n][G]
            self.R[n][G] = np.where(m, value, cur)

    def p(self, n, G):
        return self.P[n][G]

    def wp(self, n, G, m, value):
        if n == PT:
            return
        if isinstance(G, slice):
            np.copyto(self.P[n][G], value, casting="unsafe", where=m)
        else:
            self.P[n][G] = np.where(m, value, self.P[n][G])

    def ur(self, n, G):
        if n == URZ:
            return np.zeros(_count(G, self.nw), np.uint32)
        return self.UR[n][G]

    def wur(self, n, G, mw, value):
        """Uniform register write for the warps `mw` (bool [len(G)]) that execute."""
        if n == URZ:
            return
        cur = self.UR[n][G]
        self.UR[n][G] = np.where(mw, value, cur)

    def wup(self, n, G, mw, value):
        if n == PT:
            return
        self.UP[n][G] = np.where(mw, value, self.UP[n][G])

    # -- constants ------------------------------------------------------------------------------
    def cbuf(self, bank, offset, size, pc):
        """Scalar read of c[bank][offset] (size 4 or 8) -> int."""
        data = self.cbufs.get(bank)
        if data is None:
            raise SmException(ESR_INVALID_CONST_ADDR_LDC, pc, f"c[0x{bank:x}] is not a constant buffer the QMD made "
                              "valid (CONSTANT_BUFFER_VALID)")
        if offset < 0 or offset + size > len(data):
            raise SmException(ESR_INVALID_CONST_ADDR_LDC, pc, f"c[0x{bank:x}][0x{offset:x}] is past the "
                              f"{len(data):#x}-byte constant buffer {bank}")
        return int.from_bytes(data[offset:offset + size], "little")

    def cbuf_lanes(self, bank, offsets, size, m, pc):
        """Per-lane reads of c[bank][offsets] -> uint32 [.., size // 4] words."""
        arr = self.cbuf_arrays.get(bank)
        if arr is None:
            raise SmException(ESR_INVALID_CONST_ADDR_LDC, pc, f"c[0x{bank:x}] is not a valid constant buffer")
        offs = np.where(m, offsets, 0).astype(np.int64)
        bad = m & ((offs < 0) | (offs + size > arr.size) | (offs % 4 != 0))
        if bad.any():
            o = int(offs[bad][0])
            raise SmException(ESR_INVALID_CONST_ADDR_LDC, pc, f"c[0x{bank:x}][0x{o:x}] is past the {arr.size:#x}-byte "
                              f"constant buffer {bank} (or misaligned)")
        idx = offs[..., None] + np.arange(size, dtype=np.int64)
        return arr[idx].view(np.uint32).reshape(offs.shape + (size // 4,))

    # -- special registers ------------------------------------------------------------------------
    def lane_masks(self):
        """SR_EQMASK, LTMASK, LEMASK, GTMASK, GEMASK per lane."""
        eq = LANE_BITS
        lt = eq - np.uint32(1)
        return {"SR_EQMASK": eq, "SR_LTMASK": lt, "SR_LEMASK": lt | eq, "SR_GTMASK": ~(lt | eq),
                "SR_GEMASK": ~lt}


def _count(G, n):
    if isinstance(G, slice):
        return len(range(*G.indices(n)))
    return len(G)
