"""SMEM: scalar loads (s_load_b32..b512 from a 64-bit base, s_buffer_load through a V#).

The address is base + signed 21-bit offset + soffset, with the low two bits ignored as the
hardware does.  Waves loading the same address (the kernarg block, typically) share one VM read.
s_buffer_load returns 0 for dwords at or past the V#'s num_records.  Cache invalidations are no-ops.
"""
import numpy as np

from .operands import scalar_reader
from .state import NULL
from .vmaccess import gather_dwords

U32, U64, I64 = np.uint32, np.uint64, np.int64
_ADDR_MASK = (1 << 64) - 4        # the address wraps at 2**64; its low two bits are ignored
_WIDTHS = {"b32": 1, "b64": 2, "b128": 4, "b256": 8, "b512": 16}


def build_smem(ins, pc):
    m = ins.mnemonic
    if m in ("s_gl1_inv", "s_dcache_inv", "s_atc_probe", "s_atc_probe_buffer"):
        return None
    ops = {o.role: o for o in ins.operands}
    dwords = _WIDTHS[m.rsplit("_", 1)[1]]
    sdata, sbase = ops["sdata"].value, ops["sbase"].value
    offset = ins.modifiers.get("offset", 0)
    soff = ops.get("soffset")
    null_soff = soff is None or (soff.kind == "sgpr" and soff.value == NULL)
    soff_read = None if null_soff else scalar_reader(soff, 32, m)
    buffer = m.startswith("s_buffer")
    uniform = not buffer and soff_read is None and sbase + 1 < NULL and sdata + dwords <= NULL

    def load(st, sel):
        if uniform:
            # the base pair is one value in every wave (the kernarg pointer, typically): one
            # address, one read, computed on Python ints as the uint64 sum below wraps
            lo, hi = st.sregs[sbase, sel], st.sregs[sbase + 1, sel]
            a, b = lo.tobytes(), hi.tobytes()
            if a == a[:4] * lo.shape[0] and b == b[:4] * hi.shape[0]:
                va = ((int(hi[0]) << 32 | int(lo[0])) + offset) & _ADDR_MASK
                st.sregs[sdata:sdata + dwords, sel] = st.vm.translate(va, 4 * dwords).view(U32)[:, None]
                return
        off = np.full(st.pc[sel].shape[0], offset, I64)
        if soff_read is not None:
            off = off + soff_read(st, sel).astype(I64)
        if buffer:
            d = st.sgpr[sel, sbase:sbase + 4]
            base = d[:, 0].astype(U64) | (d[:, 1] & U32(0xFFFF)).astype(U64) << U64(32)
            records = d[:, 2].astype(I64)
        else:
            base = st.sgpr[sel, sbase].astype(U64) | st.sgpr[sel, sbase + 1].astype(U64) << U64(32)
        addr = (base + off.astype(U64)) & ~U64(3)
        if not buffer and addr.tobytes() == addr[:1].tobytes() * addr.shape[0]:
            # every wave reads one address (the kernarg block, typically)
            st.sgpr[sel, sdata:sdata + dwords] = st.vm.translate(int(addr[0]), 4 * dwords).view(U32)
            return
        uniq, inverse = np.unique(addr, return_inverse=True)
        if buffer:
            values = np.zeros((addr.shape[0], dwords), U32)
            byte = (off & ~3)[:, None] + 4 * np.arange(dwords)
            inside = byte + 4 <= records[:, None]
            for i, a in enumerate(uniq.tolist()):
                rows = np.flatnonzero(inverse == i)
                n = int(inside[rows].sum(axis=1).max())
                if n:
                    values[rows, :n] = gather_dwords(st.vm, np.array([a], U64), n)[0]
            values[~inside] = 0
        else:
            values = gather_dwords(st.vm, uniq, dwords)[inverse.ravel()]
        st.sgpr[sel, sdata:sdata + dwords] = values
    load.memory = True
    return load
