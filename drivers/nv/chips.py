"""What the NVIDIA probe knows about chips and boards without asking the RM.

- `target(sm_version)`: GR_GET_INFO's SM_VERSION (0x806) -> "sm_86" and its architecture.
- `chip_name(architecture, implementation)`: MC_GET_ARCH_INFO -> "GA102".
- `SKUS`: boards from their public launch specifications, found by the RM's model name (what
  /proc/driver/nvidia/gpus/*/information prints) or by PCI device id.  A probe that cannot reach
  the RM (a replayed /proc tree) reports these numbers and says they come from the specifications.
"""
from typing import NamedTuple

import nv_ioctl as NV

GiB = 1 << 30

# Targets this stack runs compute on (NVDevice, the SASS assembler and the virtual GPU's simulator).
SUPPORTED_TARGETS = {"sm_86": "Ampere GA10x", "sm_89": "Ada", "sm_90": "Hopper"}
ARCHITECTURES = {7: "Volta/Turing", 8: "Ampere", 9: "Hopper", 10: "Blackwell", 12: "Blackwell"}
_ADA_MINORS = {9}

_CHIPS = {
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GA100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GA100): "GA100",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GA100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GA102): "GA102",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GA100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GA103): "GA103",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GA100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GA104): "GA104",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GA100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GA106): "GA106",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GA100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GA107): "GA107",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_GH100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_GH100): "GH100",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_AD100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_AD102): "AD102",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_AD100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_AD103): "AD103",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_AD100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_AD104): "AD104",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_AD100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_AD106): "AD106",
    (NV.NV2080_CTRL_MC_ARCH_INFO_ARCHITECTURE_AD100, NV.NV2080_CTRL_MC_ARCH_INFO_IMPLEMENTATION_AD107): "AD107",
}


def target(sm_version):
    """0x806 -> ("sm_86", "Ampere"); GA100 reports 8.2 for sm_80, so 0x802 reads sm_80."""
    if not sm_version:
        return None, None
    major, minor = sm_version >> 8, sm_version & 0xFF
    if (major, minor) == (8, 2):
        minor = 0
    arch = "Ada" if major == 8 and minor in _ADA_MINORS else ARCHITECTURES.get(major, "unknown")
    return f"sm_{major}{minor:x}", arch


def architecture(target_name):
    """'sm_89' -> 'Ada' (the architecture of a target name)."""
    digits = target_name[3:]
    return target(int(digits[:-1]) << 8 | int(digits[-1], 16))[1]


def chip_name(architecture, implementation):
    return _CHIPS.get((architecture, implementation), f"arch 0x{architecture:x} impl 0x{implementation:x}")


class Sku(NamedTuple):
    model: str               # the RM's name for the board
    device_ids: tuple        # PCI device ids
    chip: str
    target: str
    sms: int
    vram_bytes: int
    bus_width: int
    boost_mhz: int = None    # the quoted boost clock
    memory_bandwidth: float = None    # the quoted memory bandwidth, bytes/s

    @property
    def fp32_peak(self):
        """FP32 FLOP/s at the boost clock: SMs x FP32 lanes per SM x 2 (an FFMA) x clock."""
        return self.sms * FP32_LANES_PER_SM.get(self.target, 128) * 2 * self.boost_mhz * 1e6 if self.boost_mhz else None


FP32_LANES_PER_SM = {"sm_80": 64, "sm_86": 128, "sm_89": 128, "sm_90": 128}

# Boost clocks and memory bandwidths are the launch specifications' (RTX 3090: 82 SMs x 128 x 2 x
# 1695 MHz = 35.6 TFLOPS and 936 GB/s; RTX 4090: 82.6 TFLOPS, 1008 GB/s; H100 SXM: 66.9 TFLOPS,
# 3.35 TB/s).
SKUS = (
    Sku("NVIDIA GeForce RTX 3080", (0x2206,), "GA102", "sm_86", 68, 10 * GiB, 320, 1710, 760e9),
    Sku("NVIDIA GeForce RTX 3090", (0x2204,), "GA102", "sm_86", 82, 24 * GiB, 384, 1695, 936e9),
    Sku("NVIDIA GeForce RTX 3090 Ti", (0x2203,), "GA102", "sm_86", 84, 24 * GiB, 384, 1860, 1008e9),
    Sku("NVIDIA GeForce RTX 4080", (0x2704,), "AD103", "sm_89", 76, 16 * GiB, 256, 2505, 716.8e9),
    Sku("NVIDIA GeForce RTX 4090", (0x2684,), "AD102", "sm_89", 128, 24 * GiB, 384, 2520, 1008e9),
    Sku("NVIDIA A100-SXM4-40GB", (0x20B0,), "GA100", "sm_80", 108, 40 * GiB, 5120, 1410, 1555e9),
    Sku("NVIDIA H100 PCIe", (0x2331,), "GH100", "sm_90", 114, 80 * GiB, 5120, 1755, 2.0e12),
    Sku("NVIDIA H100 80GB HBM3", (0x2330,), "GH100", "sm_90", 132, 80 * GiB, 5120, 1980, 3.35e12),
)


def sku(model=None, device_id=None):
    """The Sku of a board by model name or PCI device id, or None."""
    for s in SKUS:
        if (model is not None and s.model == model) or (device_id is not None and device_id in s.device_ids):
            return s
    return None


def unsupported_reason(target_name):
    """None when the stack targets this SM version; else a one-line reason."""
    if target_name in SUPPORTED_TARGETS:
        return None
    wanted = ", ".join(f"{t} ({a})" for t, a in SUPPORTED_TARGETS.items())
    return f"{target_name or 'an unknown SM version'} is not supported for compute yet; supported: {wanted}"
