"""Hand-encoding of small gfx11 programs for the wave simulator tests, and a runner.

Words are built with assembler.rdna3.formats.put and the opcode tables (no LLVM needed); the
decoder round-trip of every helper is checked below, so a wrong helper cannot hide a wrong
simulator.  ``run_code`` maps a program into a fresh GPU VM and runs it as one dispatch,
keeping the final wave state for inspection.
"""
import struct

import numpy as np

from assembler.amdgpu import KernelDescriptor, KernelSpec, write_code_object
from assembler.rdna3.decoder import decode
from assembler.rdna3.formats import put
from assembler.rdna3.tables import ALU, MEM, VOPD
from drivers.emu.amd.dispatch import Dispatch
from drivers.emu.amd.shader import WaveExecutor
from drivers.emu.vm import GpuVM

CODE_VA = 0x10000
LIT = 255
VCC, NULL, M0, EXEC = 106, 124, 125, 126


def opcode(fam, mnemonic):
    table = MEM[fam] if fam in MEM else ALU[fam]
    for op, entry in table.items():
        if entry[0] == mnemonic:
            return op
    raise KeyError(f"{mnemonic} is not a {fam} opcode")


def const(value):
    """Operand code of an inline integer (0..64, -16..-1)."""
    if 0 <= value <= 64:
        return 128 + value
    if -16 <= value <= -1:
        return 192 - value
    raise ValueError(value)


def v(n):
    return 256 + n


def _words(word, nbytes, literal=None):
    out = word.to_bytes(nbytes, "little")
    return out + (struct.pack("<I", literal & 0xFFFFFFFF) if literal is not None else b"")


def sop1(m, sdst, ssrc0, literal=None):
    return _words(put("SOP1", op=opcode("SOP1", m), sdst=sdst, ssrc0=ssrc0), 4, literal)


def sop2(m, sdst, ssrc0, ssrc1, literal=None):
    return _words(put("SOP2", op=opcode("SOP2", m), sdst=sdst, ssrc0=ssrc0, ssrc1=ssrc1), 4, literal)


def sopc(m, ssrc0, ssrc1, literal=None):
    return _words(put("SOPC", op=opcode("SOPC", m), ssrc0=ssrc0, ssrc1=ssrc1), 4, literal)


def sopk(m, sdst, simm16, literal=None):
    return _words(put("SOPK", op=opcode("SOPK", m), sdst=sdst, simm16=simm16 & 0xFFFF), 4, literal)


def sopp(m, simm16=0):
    return _words(put("SOPP", op=opcode("SOPP", m), simm16=simm16 & 0xFFFF), 4)


def s_mov(sdst, value):
    return sop1("s_mov_b32", sdst, LIT, value)


def endpgm():
    return sopp("s_endpgm")


def vop1(m, vdst, src0, literal=None):
    return _words(put("VOP1", op=opcode("VOP1", m), vdst=vdst, src0=src0), 4, literal)


def vop2(m, vdst, src0, vsrc1, literal=None):
    return _words(put("VOP2", op=opcode("VOP2", m), vdst=vdst, src0=src0, vsrc1=vsrc1), 4, literal)


def vopc(m, src0, vsrc1):
    return _words(put("VOPC", op=opcode("VOPC", m), src0=src0, vsrc1=vsrc1), 4)


def vop3(m, vdst, src0, src1=0, src2=0, literal=None, fam="VOP3", **mods):
    return _words(put(fam, op=opcode(fam, m), vdst=vdst, src0=src0, src1=src1, src2=src2, **mods), 8, literal)


def vopd(x, y, vdstx, srcx0, vsrcx1, vdsty, srcy0, vsrcy1=0, literal=None):
    opx = next(op for op, e in VOPD["X"].items() if e[0] == x)
    opy = next(op for op, e in VOPD["Y"].items() if e[0] == y)
    return _words(put("VOPD", opx=opx, opy=opy, vdstx=vdstx, srcx0=srcx0, vsrcx1=vsrcx1,
                      vdsty=vdsty >> 1, srcy0=srcy0, vsrcy1=vsrcy1), 8, literal)


def dpp16(m, vdst, vsrc0, ctrl, vsrc1=None, row_mask=15, bank_mask=15, bound_ctrl=0, fi=0):
    ctl = vsrc0 | ctrl << 8 | fi << 18 | bound_ctrl << 19 | bank_mask << 24 | row_mask << 28
    if vsrc1 is None:
        return _words(put("VOP1", op=opcode("VOP1", m), vdst=vdst, src0=250), 4, ctl)
    return _words(put("VOP2", op=opcode("VOP2", m), vdst=vdst, src0=250, vsrc1=vsrc1), 4, ctl)


def dpp8(m, vdst, vsrc0, sel, vsrc1=None):
    ctl = vsrc0 | sum(s << (8 + 3 * i) for i, s in enumerate(sel))
    if vsrc1 is None:
        return _words(put("VOP1", op=opcode("VOP1", m), vdst=vdst, src0=233), 4, ctl)
    return _words(put("VOP2", op=opcode("VOP2", m), vdst=vdst, src0=233, vsrc1=vsrc1), 4, ctl)


def smem(m, sdata, sbase, offset=0, soffset=NULL):
    return _words(put("SMEM", op=opcode("SMEM", m), sdata=sdata, sbase=sbase // 2,
                      offset=offset & 0x1FFFFF, soffset=soffset), 8)


def flat(m, seg, vdst=0, addr=0, data=0, saddr=NULL, offset=0, glc=0, sve=0):
    segs = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}
    return _words(put("FLAT", op=opcode(seg, m), seg=segs[seg], vdst=vdst, addr=addr, data=data,
                      saddr=saddr, offset=offset & 0x1FFF, glc=glc, sve=sve), 8)


def ds(m, vdst=0, addr=0, data0=0, data1=0, offset0=0, offset1=0):
    return _words(put("DS", op=opcode("DS", m), vdst=vdst, addr=addr, data0=data0, data1=data1,
                      offset0=offset0, offset1=offset1), 8)


def program(*parts):
    return b"".join(parts)


def disassemble(code):
    out, pos = [], 0
    while pos < len(code):
        ins, size = decode(code, pos)
        out.append(ins.text)
        pos += size
    return out


def run_code(code, waves=1, block=32, user_sgprs=(), vgprs=32, lds=0, valu=None, budget=None,
             private=0, rsrc1_extra=0, data=None, wave32=True):
    """Run ``code`` as ``waves`` workgroups of ``block`` lanes; returns (executor, state, vm).

    ``data``: bytes mapped writable at DATA_VA (its VA is in the first two user SGPRs when
    user_sgprs is None)."""
    vm = GpuVM()
    mem = np.zeros(-(-(len(code) + 64) // 4096) * 4096, np.uint8)
    mem[:len(code)] = np.frombuffer(code, np.uint8)
    vm.map(CODE_VA, mem, writable=False, executable=True)
    if data is not None:
        dmem = np.zeros(-(-len(data) // 4096) * 4096 or 4096, np.uint8)
        dmem[:len(data)] = np.frombuffer(bytes(data), np.uint8)
        vm.map(DATA_VA, dmem)
    scratch_base = 0
    if private:
        smem_ = np.zeros(-(-private * 32 * waves // 4096) * 4096, np.uint8)
        scratch_base = SCRATCH_VA
        vm.map(SCRATCH_VA, smem_)
    rsrc1 = ((vgprs // 8 - 1) & 0x3F) | 0x60AF0000 | rsrc1_extra
    user = list(user_sgprs)
    rsrc2 = len(user) << 1 | (1 if private else 0) | 1 << 7      # workgroup id X after the user SGPRs
    d = Dispatch(source="test", code_va=CODE_VA, rsrc1=rsrc1, rsrc2=rsrc2, rsrc3=0,
                 user_sgprs=tuple(user), grid_workgroups=(waves, 1, 1), workgroup_size=(block, 1, 1),
                 grid_size=(waves * block, 1, 1), lds_bytes=lds, wave32=wave32, vm=vm,
                 scratch_base=scratch_base, private_segment_size=private)
    ex = WaveExecutor(budget=budget, valu=valu, keep_state=True)
    ex(d)
    return ex, ex.states[-1], vm


DATA_VA = 0x200000
SCRATCH_VA = 0x400000


def code_object(code, name="k", args=(), lds=0, private=0, vgprs=32, user_sgprs=2, props=0x408,
                tgid=(True, False, False)):
    """A v5 code object for hand-encoded ``code``: args are (size, value_kind, type_name)."""
    kd = KernelDescriptor(group_segment_fixed_size=lds, private_segment_fixed_size=private,
                          kernarg_size=max(8, sum(a[0] for a in args)))
    kd.compute_pgm_rsrc1 = 0x60AF0000 | ((vgprs // 8 - 1) & 0x3F)
    kd.compute_pgm_rsrc2 = (user_sgprs << 1) | (1 if private else 0) | sum(1 << (7 + i) for i, t in enumerate(tgid) if t)
    kd.kernel_code_properties = props
    off, meta_args = 0, []
    for size, kind, type_name in args:
        off = -(-off // size) * size
        a = {".offset": off, ".size": size, ".value_kind": kind}
        if kind == "global_buffer":
            a.update({".address_space": "global", ".type_name": type_name})
        else:
            a[".type_name"] = type_name
        meta_args.append(a)
        off += size
    meta = {".name": name, ".symbol": name + ".kd", ".kernarg_segment_size": max(8, off),
            ".kernarg_segment_align": 8, ".group_segment_fixed_size": lds,
            ".private_segment_fixed_size": private, ".wavefront_size": 32, ".sgpr_count": 16,
            ".vgpr_count": vgprs, ".max_flat_workgroup_size": 1024, ".args": meta_args}
    spec = KernelSpec(name=name, entry_offset=0, descriptor=kd, metadata=meta)
    return write_code_object(code, [spec], "gfx1100")


# -- the helpers decode to what they claim ---------------------------------------------------
def test_helpers_round_trip_through_the_decoder():
    code = program(
        s_mov(4, 7), sop2("s_add_u32", 5, 4, const(3)), sopc("s_cmp_eq_u32", 5, const(10)),
        sopk("s_movk_i32", 6, -2), vop1("v_mov_b32_e32", 1, 4), vop2("v_add_nc_u32_e32", 2, v(1), 1),
        vop3("v_add3_u32", 3, v(1), v(2), const(1)), dpp16("v_mov_b32_e32", 4, 1, 0x101),
        dpp8("v_mov_b32_e32", 5, 1, [1, 0, 3, 2, 5, 4, 7, 6]),
        vopd("v_dual_mov_b32", "v_dual_add_nc_u32", 0, v(1), 0, 3, v(2), 4),
        smem("s_load_b64", 2, 0, offset=8), flat("global_store_b32", "GLOBAL", addr=0, data=1, saddr=2),
        ds("ds_load_b32", vdst=1, addr=0, offset0=4), endpgm())
    assert disassemble(code) == [
        "s_mov_b32 s4, 7", "s_add_u32 s5, s4, 3", "s_cmp_eq_u32 s5, 10", "s_movk_i32 s6, 0xfffe",
        "v_mov_b32_e32 v1, s4", "v_add_nc_u32_e32 v2, v1, v1", "v_add3_u32 v3, v1, v2, 1",
        "v_mov_b32_dpp v4, v1 row_shl:1 row_mask:0xf bank_mask:0xf",
        "v_mov_b32_dpp v5, v1 dpp8:[1,0,3,2,5,4,7,6]",
        "v_dual_mov_b32 v0, v1 :: v_dual_add_nc_u32 v3, v2, v4",
        "s_load_b64 s[2:3], s[0:1], 0x8", "global_store_b32 v0, v1, s[2:3]",
        "ds_load_b32 v1, v0 offset:4", "s_endpgm"]
