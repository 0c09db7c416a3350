"""MUBUF: untyped buffer loads, stores and atomics through a buffer resource (V#), with the
V#'s range check: an out-of-range load returns 0 and an out-of-range store is dropped.

V# (4 SGPRs): base[47:0], stride[61:48], num_records (dword 2), dword 3 type/format fields.
The address of a lane is base + soffset + inst_offset + (offen ? VGPR offset : 0)
+ stride * (idxen ? VGPR index : 0).  Raw buffers (stride 0 or no index) check
offset + size <= num_records; structured ones check index < num_records and offset < stride.
Typed (format) loads and stores, and loads to LDS, are rejected as unsupported.
"""
import numpy as np

from drivers.emu.faults import IllegalInstruction

from . import atomics
from .memory import LOAD_KINDS, STORE_KINDS, split_mnemonic, store_bytes, to_lanes
from .operands import scalar_reader
from .vmaccess import gather, scatter

U32, U64, I64 = np.uint32, np.uint64, np.int64
NO_OP = ("buffer_gl0_inv", "buffer_gl1_inv")


def build_buffer(ins, pc, vgprs):
    m = ins.mnemonic
    if m in NO_OP:
        return None
    if "format" in m or "_lds_" in m:
        raise IllegalInstruction(pc, f"{ins.text}: typed and LDS-direct buffer accesses are not supported")
    ops = {o.role: o for o in ins.operands}
    for o in ins.operands:
        if o.kind == "vgpr" and o.value + o.nregs > vgprs:
            raise IllegalInstruction(pc, f"{ins.text}: {o.text} lies beyond the {vgprs} VGPRs the kernel allocates")
    mods = ins.modifiers
    if mods.get("tfe"):
        raise IllegalInstruction(pc, f"{ins.text}: tfe is not supported")
    srsrc = ops["srsrc"].value
    soffset = scalar_reader(ops["soffset"], 32, m)
    vaddr = ops["vaddr"].value if ops.get("vaddr") is not None and ops["vaddr"].kind == "vgpr" else None
    offen, idxen, inst_offset = mods.get("offen", 0), mods.get("idxen", 0), mods.get("offset", 0)
    kind, what = split_mnemonic(m)

    def lanes(st, sel, nbytes):
        mask = st.exec_mask(sel)
        w, lane = np.nonzero(mask)
        rows = st.wave_ids[sel][w]
        d = st.sgpr[rows, srsrc:srsrc + 4]
        base = d[:, 0].astype(U64) | (d[:, 1] & U32(0xFFFF)).astype(U64) << U64(32)
        stride = ((d[:, 1] >> U32(16)) & U32(0x3FFF)).astype(I64)
        records = d[:, 2].astype(I64)
        index = st.vgpr[rows, vaddr, lane].astype(I64) if idxen else np.zeros(rows.shape, I64)
        voff = st.vgpr[rows, vaddr + idxen, lane].astype(I64) if offen else np.zeros(rows.shape, I64)
        off = voff + inst_offset
        soff = soffset(st, sel)[w].astype(I64)
        structured = (stride != 0) & bool(idxen)
        inside = np.where(structured, (index < records) & (off < np.maximum(stride, 1)),
                          off + stride * index + nbytes <= records)
        addr = base + (soff + off + stride * index).astype(U64)
        return rows, lane, addr, inside

    if kind == "load":
        nbytes, how = LOAD_KINDS[what]
        vdst = ops["vdata"].value

        def load(st, sel):
            rows, lane, addr, inside = lanes(st, sel, nbytes)
            raw = np.zeros((rows.shape[0], nbytes), np.uint8)
            raw[inside] = gather(st.vm, addr[inside], nbytes)
            old = st.vgpr[rows, vdst, lane][:, None] if how.startswith(("lo", "hi")) else None
            values = to_lanes(raw, how, old)
            for j in range(values.shape[1]):
                st.vgpr[rows, vdst + j, lane] = values[:, j]
        return load
    if kind == "store":
        nbytes, shift = STORE_KINDS[what]
        data = ops["vdata"].value
        k = max(1, nbytes // 4)

        def store(st, sel):
            rows, lane, addr, inside = lanes(st, sel, nbytes)
            d = np.stack([st.vgpr[rows, data + j, lane] for j in range(k)], axis=1)
            scatter(st.vm, addr[inside], store_bytes(d, nbytes, shift)[inside])
        return store
    if kind == "atomic":
        name = atomics.op_name(m)
        k = 2 if what.endswith("64") else 1
        data = ops["vdata"].value
        has_cmp = name in ("cmpswap", "cmpswap_f")
        returns = bool(mods.get("glc"))

        def atomic(st, sel):
            from .memory import global_atomic
            rows, lane, addr, inside = lanes(st, sel, 4 * k)
            d = np.stack([st.vgpr[rows, data + j, lane] for j in range((2 if has_cmp else 1) * k)], axis=1)
            src, cmp = atomics.combine_dwords(d[:, :k]), (atomics.combine_dwords(d[:, k:]) if has_cmp else None)
            old = np.zeros(rows.shape[0], src.dtype)
            old[inside] = global_atomic(st.vm, addr[inside], name, src[inside],
                                        None if cmp is None else cmp[inside])
            if returns:
                values = atomics.split_dwords(old, k)
                for j in range(k):
                    st.vgpr[rows, data + j, lane] = values[:, j]
        return atomic
    raise IllegalInstruction(pc, f"{ins.text}: not supported by the simulator")
