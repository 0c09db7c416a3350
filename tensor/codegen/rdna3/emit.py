"""Machine code -> text in LLVM's AMDGPU syntax -> bytes (``assembler.rdna3``) -> code object v5.

The kernel descriptor says what the code needs: VGPRs (granules of 8 in wave32), LDS bytes,
scratch bytes per work-item, the kernarg pointer in s[0:1] (USER_SGPR_COUNT 2), the workgroup
ids the grid needs (s2, s3, s4 in x, y, z order, only those enabled), the packed work-item ids
in v0, denormals kept for every float type (FLOAT_DENORM_MODE 3), IEEE mode, wave32.
The metadata lists one 8-byte global pointer per kernel parameter, in order.
"""
from assembler.amdgpu import KernelDescriptor, KernelSpec, write_code_object
from assembler.amdgpu.kernel_descriptor import granulated_workitem_vgpr_count
from assembler.amdgpu.metadata import synthesize_kernel_map
from assembler.rdna3 import assemble_program

TARGET = "gfx1100"


def render(code):
    return "\n".join(mi.text() for mi in code) + "\n"


def descriptor(launch, vgprs, lds, scratch, nparams, wg_enabled):
    kd = KernelDescriptor()
    kd.group_segment_fixed_size = lds
    kd.private_segment_fixed_size = scratch
    kd.kernarg_size = 8 * nparams
    kd.set("GRANULATED_WORKITEM_VGPR_COUNT", granulated_workitem_vgpr_count(vgprs, True))
    kd.set("FLOAT_DENORM_MODE_32", 3)
    kd.set("FLOAT_DENORM_MODE_16_64", 3)
    kd.set("ENABLE_DX10_CLAMP", 1)
    kd.set("ENABLE_IEEE_MODE", 1)
    kd.set("WGP_MODE", 1)
    kd.set("MEM_ORDERED", 1)
    kd.set("ENABLE_PRIVATE_SEGMENT", 1 if scratch else 0)
    kd.set("USER_SGPR_COUNT", 2)
    for h, name in enumerate("XYZ"):
        kd.set(f"ENABLE_SGPR_WORKGROUP_ID_{name}", 1 if wg_enabled[h] else 0)
    b = launch.block
    kd.set("ENABLE_VGPR_WORKITEM_ID", 2 if b[2] > 1 else 1 if b[1] > 1 else 0)
    kd.set("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 1)
    kd.set("ENABLE_WAVEFRONT_SIZE32", 1)
    return kd


def code_object(name, text, kd, params, vgprs, sgprs, launch):
    """(code object bytes, code bytes) for one kernel."""
    prog = assemble_program(text, source=f"<{name}>")
    args = [{".offset": 8 * i, ".size": 8, ".value_kind": "global_buffer",
             ".address_space": "global", ".name": p.name, ".type_name": f"{p.dtype.name}*"}
            for i, p in enumerate(params)]
    kmap = synthesize_kernel_map(
        name, kernarg_size=kd.kernarg_size, group_segment_fixed_size=kd.group_segment_fixed_size,
        private_segment_fixed_size=kd.private_segment_fixed_size, wavefront_size=32,
        sgpr_count=sgprs + 2, vgpr_count=vgprs, workgroup_processor_mode=1,
        max_flat_workgroup_size=max(launch.lanes, 1), args=args)
    spec = KernelSpec(name, 0, kd, metadata=kmap, sgpr_count=sgprs + 2, vgpr_count=vgprs)
    return write_code_object(prog.data, [spec], TARGET), bytes(prog.data)
