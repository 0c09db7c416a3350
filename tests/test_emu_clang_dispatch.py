"""AQL dispatch of real clang-19 code objects: the CP reads their kernel descriptors correctly.

Each committed tests/clang_kernels/*.hsaco is loaded into GPU memory the way a loader does (PT_LOAD
segments at their relative addresses), dispatched through an AQL queue, and the Dispatch handed to
the executor must point at the kernel's own symbol with the descriptor's resources and user SGPRs.
"""
import glob
import io
import os
import struct

import numpy as np
import pytest
from elftools.elf.elffile import ELFFile

import kfd_ioctl as K
from drivers.emu import make_kernel
from drivers.emu.amd.kfd_client import KfdClient

HERE = os.path.dirname(os.path.abspath(__file__))
CODE_OBJECTS = sorted(glob.glob(os.path.join(HERE, "clang_kernels", "*.hsaco")))


def load(c, path):
    """(buffer, symbols) with every PT_LOAD segment copied at its p_vaddr inside one buffer."""
    with open(path, "rb") as f:         # closed now, not whenever the ELFFile is collected
        elf = ELFFile(io.BytesIO(f.read()))
    segments = [s for s in elf.iter_segments() if s["p_type"] == "PT_LOAD"]
    size = max(s["p_vaddr"] + s["p_memsz"] for s in segments)
    buf = c.alloc(size)
    for s in segments:
        buf.view(np.uint8, s["p_vaddr"], s["p_filesz"])[:] = np.frombuffer(s.data(), np.uint8)
    symtab = elf.get_section_by_name(".symtab") or elf.get_section_by_name(".dynsym")
    return buf, {s.name: s["st_value"] for s in symtab.iter_symbols() if s.name}


@pytest.mark.skipif(not CODE_OBJECTS, reason="no committed clang code objects")
def test_clang_kernel_descriptors_drive_the_dispatch():
    k = make_kernel("gfx1100")
    c = KfdClient(k)
    q = c.create_queue(K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
    ring = q.ring.view(np.uint8, 0, 4096)
    kernarg = c.alloc(4096)
    seen = []
    k.gpu.executor = seen.append
    for n, path in enumerate(CODE_OBJECTS):
        buf, syms = load(c, path)
        name = os.path.basename(path)[:-len(".hsaco")]
        kd_va = buf.va + syms[f"{name}.kd"]
        kd = buf.view(np.uint8, syms[f"{name}.kd"], 64).tobytes()
        group, private = struct.unpack_from("<II", kd, 0)
        rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", kd, 0x2C)
        props = struct.unpack_from("<H", kd, 0x38)[0]
        packet = np.zeros(16, np.uint32)
        packet[1:3] = [64 | 1 << 16, 1]               # workgroup 64 x 1 x 1
        packet[3:6] = [256, 1, 1]                     # grid in work-items
        packet[7] = group
        packet[8:12] = [kd_va & 0xFFFFFFFF, kd_va >> 32, kernarg.va & 0xFFFFFFFF, kernarg.va >> 32]
        slot = (n % 64) * 64
        ring[slot + 4:slot + 64] = packet.view(np.uint8)[4:]
        ring[slot:slot + 4] = np.array([0x1502 | 1 << 16], np.uint32).view(np.uint8)
        q.pointers.view(np.uint64, 56, 1)[0] = n + 1
        c.ring_doorbell(q, n)
        assert k.gpu.last_error is None, k.gpu.last_error
        d = seen[-1]
        assert d.code_va == buf.va + syms[name], name              # entry = the function's own symbol
        assert (d.rsrc1, d.rsrc3, d.rsrc2 & ~(0x1FF << 15)) == (rsrc1, rsrc3, rsrc2 & ~(0x1FF << 15))
        assert d.wave32 and d.lds_bytes == group and d.grid_workgroups == (4, 1, 1)
        expect = []
        if props & 2:
            expect += [(q.ring.va + slot) & 0xFFFFFFFF, (q.ring.va + slot) >> 32]
        expect += [kernarg.va & 0xFFFFFFFF, kernarg.va >> 32]
        assert d.user_sgprs[:len(expect)] == tuple(expect) and len(d.user_sgprs) == (rsrc2 >> 1) & 0x1F
        assert d.private_segment_size == 0 and (rsrc2 & 1) == (private > 0)
    assert len(seen) == len(CODE_OBJECTS)
    c.close()
