"""NVIDIA boards from their public specifications, and the /proc/driver/nvidia tree a machine with
them shows.

The virtual NVIDIA machine serves these cards (sm_86: RTX 3090, sm_89: RTX 4090, sm_90: H100 SXM);
scripts/gen_nv_fixtures.py writes their /proc trees to tests/fixtures/nv/ so the probe is tested on
the files real machines have.  Numbers are what the RM reports for them: GR_GET_INFO's design
("litter") values of the chip and what the board enables, FB sizes in KiB, MC architecture and
implementation ids.  File formats follow kernel-open/nvidia/nv-procfs.c.
"""
import hashlib
from dataclasses import dataclass

import nv_ioctl as NV

from drivers.emu.nv.machine import MAX_GPUS

MiB, GiB = 1 << 20, 1 << 30

# The driver the virtual machine runs unless told otherwise: the newest branch with layouts.
DEFAULT_DRIVER = NV.BRANCHES[max(NV.BRANCHES)]
GCC_LINE = "gcc version 12.2.0 (Debian 12.2.0-14+deb12u1)"


@dataclass(frozen=True)
class Card:
    key: str                 # fixture directory name
    model: str               # what the RM calls the board (nvidia-smi's name)
    chip: str                # GA102, AD102, GH100
    device_id: int
    subsystem: tuple         # (vendor, device) of the board
    sm_version: int          # NV2080_CTRL_GR_INFO_SM_VERSION_*: 0x806 = sm_86
    architecture: int        # NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_*
    implementation: int      # NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_*
    litter_gpcs: int         # GPCs of the full chip
    litter_tpcs_per_gpc: int
    sms_per_tpc: int
    gpc_mask: int            # GPCs enabled on this board
    tpcs: int                # TPCs enabled on this board
    cores_per_sm: int        # FP32 lanes per SM ("CUDA cores")
    max_warps_per_sm: int
    vram_bytes: int
    reserved_bytes: int      # what the RM keeps for itself (VRAM - heap)
    bus_width: int
    ram_type: int            # NV2080_CTRL_FB_INFO_RAM_TYPE_*
    l2_bytes: int
    bar1_bytes: int
    vbios: str
    bus: int                 # PCI bus of the first board
    irq: int
    class_list: str          # key of drivers.emu.nv.classes.CHIP_CLASSES

    @property
    def sms(self):
        return self.tpcs * self.sms_per_tpc

    @property
    def target(self):
        return f"sm_{self.sm_version >> 8}{self.sm_version & 0xFF:x}"


CARDS = {
    # GA102-300: 41 of 42 TPCs (82 SMs) in 7 GPCs, 10496 CUDA cores, 24 GB GDDR6X on 384 bits, 6 MB L2.
    "rtx3090": Card("rtx3090", "NVIDIA GeForce RTX 3090", "GA102", 0x2204, (0x10DE, 0x147D), 0x806,
                    NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GA100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GA102,
                    7, 6, 2, 0x7F, 41, 128, 48, 24 * GiB, 339 * MiB, 384, NV.NV2080_CTRL_FB_INFO_RAM_TYPE_GDDR6X,
                    6 * MiB, 256 * MiB, "94.02.42.00.a9", 0x01, 130, "GA102"),
    # AD102-300: 64 of 72 TPCs (128 SMs) in 11 of 12 GPCs, 16384 CUDA cores, 24 GB GDDR6X, 72 MB L2.
    "rtx4090": Card("rtx4090", "NVIDIA GeForce RTX 4090", "AD102", 0x2684, (0x10DE, 0x165B), 0x809,
                    NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_AD100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_AD102,
                    12, 6, 2, 0x7FF, 64, 128, 48, 24 * GiB, 470 * MiB, 384, NV.NV2080_CTRL_FB_INFO_RAM_TYPE_GDDR6X,
                    72 * MiB, 256 * MiB, "95.02.18.80.5f", 0x01, 142, "AD102"),
    # GH100 in the SXM5 H100: 66 of 72 TPCs (132 SMs) in 8 GPCs, 16896 FP32 lanes, 80 GB HBM3 on
    # 5120 bits, 50 MB L2, 128 GB BAR1.
    "h100sxm": Card("h100sxm", "NVIDIA H100 80GB HBM3", "GH100", 0x2330, (0x10DE, 0x16C1), 0x900,
                    NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GH100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GH100,
                    8, 9, 2, 0xFF, 66, 128, 64, 80 * GiB, 361 * MiB, 5120, NV.NV2080_CTRL_FB_INFO_RAM_TYPE_HBM3,
                    50 * MiB, 128 * GiB, "96.00.74.00.1c", 0x19, 155, "GH100"),
}


@dataclass(frozen=True)
class Board:
    """One GPU of a machine: a card at a PCI address with its minor number and ids."""
    card: Card
    index: int               # 0-based, the minor number /dev/nvidiaN
    domain: int
    bus: int

    @property
    def slot(self):
        return 0

    @property
    def function(self):
        return 0

    @property
    def pci_address(self):
        return f"{self.domain:04x}:{self.bus:02x}:{self.slot:02x}.{self.function:x}"

    @property
    def minor(self):
        return self.index

    @property
    def gpu_id(self):
        """The RM's gpuId of a PCIe GPU: domain, bus and device packed as in gpuGenerate32BitId."""
        return (self.domain << 16) | (self.bus << 8) | self.slot

    @property
    def uuid_bytes(self):
        return hashlib.sha1(f"{self.card.key}/{self.index}".encode()).digest()[:16]

    @property
    def uuid(self):
        h = self.uuid_bytes.hex()
        return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    @property
    def irq(self):
        return self.card.irq + self.index


def boards(card, gpus=1):
    """``gpus`` boards of ``card``, each on its own PCI bus."""
    if not 1 <= gpus <= MAX_GPUS:
        raise ValueError(f"a machine holds 1 to {MAX_GPUS} GPUs, not {gpus}")
    return [Board(card, i, 0, card.bus + 0x10 * i if card.bus >= 0x10 else card.bus + i) for i in range(gpus)]


def version_line(driver=DEFAULT_DRIVER, open_module=True, arch="x86_64"):
    """The NVRM line of /proc/driver/nvidia/version, as the open or the proprietary module prints it."""
    kind = f"NVIDIA UNIX Open Kernel Module for {arch}" if open_module else f"NVIDIA UNIX {arch} Kernel Module"
    build = "  Release Build  (dvs-builder@U22-I3-AE18-23-3)" if open_module else ""
    return f"NVRM version: {kind}  {driver}{build}  Tue Sep 23 09:55:41 UTC 2025"


def render_proc(boards_, driver=DEFAULT_DRIVER, open_module=True):
    """The /proc/driver/nvidia files of a machine with these boards: {absolute path: text}."""
    root = "/proc/driver/nvidia"
    files = {f"{root}/version": f"{version_line(driver, open_module)}\nGCC version:  {GCC_LINE}\n"}
    for b in boards_:
        files[f"{root}/gpus/{b.pci_address}/information"] = (
            f"Model: \t\t {b.card.model}\n"
            f"IRQ:   \t\t {b.irq}\n"
            f"GPU UUID: \t {b.uuid}\n"
            f"Video BIOS: \t {b.card.vbios}\n"
            f"Bus Type: \t PCIe\n"
            f"DMA Size: \t 47 bits\n"
            f"DMA Mask: \t 0x7fffffffffff\n"
            f"Bus Location: \t {b.pci_address}\n"
            f"Device Minor: \t {b.minor}\n"
            f"GPU Firmware: \t {driver}\n"
            f"GPU Excluded:\t No\n")
    return files
