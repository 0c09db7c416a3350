"""What a compute dispatch hands to the shader executor: everything a wave needs to start.

The command processor (PM4 DISPATCH_DIRECT or an AQL kernel-dispatch packet) fills a Dispatch and
calls ``gpu.dispatch(d)``; the executor attached to the virtual GPU runs the grid.  Field names
follow the registers and the kernel descriptor they come from.
"""
from dataclasses import dataclass, field

# COMPUTE_PGM_RSRC2 fields (amd.md §2.3 / §3.3)
RSRC2_SCRATCH_EN = 1 << 0
RSRC2_TGID_X_EN, RSRC2_TGID_Y_EN, RSRC2_TGID_Z_EN = 1 << 7, 1 << 8, 1 << 9
RSRC2_TG_SIZE_EN = 1 << 10
LDS_GRANULE = 512                       # bytes per RSRC2.LDS_SIZE unit on gfx10+


@dataclass
class Dispatch:
    source: str                         # "pm4" or "aql"
    code_va: int                        # first instruction (COMPUTE_PGM_LO/HI << 8, or KD + entry offset)
    rsrc1: int                          # COMPUTE_PGM_RSRC1
    rsrc2: int                          # COMPUTE_PGM_RSRC2
    rsrc3: int                          # COMPUTE_PGM_RSRC3
    user_sgprs: tuple                   # s0.. values loaded before the wave starts (USER_SGPR_COUNT of them)
    grid_workgroups: tuple              # (x, y, z) workgroups, partial ones included
    workgroup_size: tuple               # (x, y, z) work-items per workgroup
    grid_size: tuple                    # (x, y, z) work-items; the last workgroup may be partial
    lds_bytes: int                      # LDS per workgroup
    wave32: bool                        # COMPUTE_DISPATCH_INITIATOR.CS_W32_EN or KD ENABLE_WAVEFRONT_SIZE32
    vm: object                          # the GpuVM every access goes through
    scratch_base: int = 0               # private segment backing VA (COMPUTE_DISPATCH_SCRATCH_BASE << 8)
    tmpring_size: int = 0               # COMPUTE_TMPRING_SIZE: waves[11:0], wavesize[26:12] in 256 B units
    private_segment_size: int = 0       # scratch bytes per work-item
    kernarg_va: int = 0                 # AQL kernarg_address (PM4: whatever the user SGPRs say)
    kernel_object: int = 0              # AQL: VA of the 64-byte kernel descriptor
    packet_va: int = 0                  # VA of the AQL packet (the dispatch ptr) or of the PM4 packet
    queue_id: int = 0
    registers: dict = field(default_factory=dict, repr=False)   # PM4 SH registers at dispatch time
    clock: object = None                # () -> the 100 MHz GPU timestamp (s_memrealtime, s_memtime)
    trap_handler: tuple = (0, 0)        # (TBA, TMA) from AMDKFD_IOC_SET_TRAP_HANDLER

    @property
    def user_sgpr_count(self):
        return (self.rsrc2 >> 1) & 0x1F

    @property
    def wavefront_size(self):
        return 32 if self.wave32 else 64

    @property
    def tgid_enabled(self):
        """(x, y, z) flags: which workgroup ids the CP writes into SGPRs after the user SGPRs."""
        return tuple(bool(self.rsrc2 & bit) for bit in (RSRC2_TGID_X_EN, RSRC2_TGID_Y_EN, RSRC2_TGID_Z_EN))

    @property
    def workitem_id_dims(self):
        """ENABLE_VGPR_WORKITEM_ID: 0 X, 1 XY, 2 XYZ (gfx11 packs them into v0)."""
        return (self.rsrc2 >> 11) & 3

    @property
    def workgroup_count(self):
        x, y, z = self.grid_workgroups
        return x * y * z
