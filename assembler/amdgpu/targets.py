"""AMDGCN processors as code objects name them: target IDs, e_flags, and the few per-processor
facts the kernel descriptor depends on.

A target ID is `amdgcn-amd-amdhsa--<processor>[:sramecc(+|-)][:xnack(+|-)]` (AMDGPUUsage
"Target ID"); e_flags = MACH[7:0] | XNACK_V4[9:8] | SRAMECC_V4[11:10]. A processor that supports a
feature but has it unspecified gets the "any" setting (gfx942 -> 0x54C), as clang-19 writes.
"""
from dataclasses import dataclass

from .mach_table import MACH_BY_PROCESSOR

TRIPLE = "amdgcn-amd-amdhsa"
EF_AMDGPU_MACH = 0x0FF
EF_AMDGPU_FEATURE_XNACK_V4 = 0x300
EF_AMDGPU_FEATURE_SRAMECC_V4 = 0xC00
_SETTING_BITS = {"unsupported": 0, "any": 1, "off": 2, "on": 3}
_SETTING_NAMES = {v: k for k, v in _SETTING_BITS.items()}

# Processors that support XNACK / SRAMECC selection (AMDGPUUsage processor table).
_XNACK_PROCESSORS = {"gfx801", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909",
                     "gfx90a", "gfx90c", "gfx940", "gfx941", "gfx942", "gfx1010", "gfx1011",
                     "gfx1012", "gfx1013", "gfx9-generic", "gfx10-1-generic"}
_SRAMECC_PROCESSORS = {"gfx906", "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942"}
# Processors whose scratch is addressed by hardware ("architected flat scratch"): no private
# segment buffer or flat scratch init user SGPRs (llvm-mc-19 rejects those directives there).
_ARCHITECTED_FLAT_SCRATCH = {"gfx940", "gfx941", "gfx942"}
# gfx90a-class processors: unified VGPR/AGPR file, VGPR encoding granule 8 in wave64.
_GFX90A_CLASS = {"gfx90a", "gfx940", "gfx941", "gfx942"}


@dataclass(frozen=True)
class Target:
    """One processor with its XNACK/SRAMECC settings ('unsupported', 'any', 'off', 'on')."""
    processor: str
    xnack: str = "unsupported"
    sramecc: str = "unsupported"

    @property
    def mach(self):
        return MACH_BY_PROCESSOR[self.processor]

    @property
    def major(self):
        """GFX major version: 9 for gfx90a, 10 for gfx1030, 11 for gfx1100."""
        version = self.processor[3:].split("-")[0]
        if "-" in self.processor[3:]:          # gfx9-generic, gfx10-1-generic, gfx11-generic
            return int(version)
        return int(version[:-2])               # gfx90a -> 9, gfx1100 -> 11

    @property
    def e_flags(self):
        return (self.mach | _SETTING_BITS[self.xnack] << 8 | _SETTING_BITS[self.sramecc] << 10)

    @property
    def target_id(self):
        tid = f"{TRIPLE}--{self.processor}"
        if self.sramecc in ("on", "off"):
            tid += ":sramecc" + ("+" if self.sramecc == "on" else "-")
        if self.xnack in ("on", "off"):
            tid += ":xnack" + ("+" if self.xnack == "on" else "-")
        return tid

    @property
    def default_wave32(self):
        return self.major >= 10

    @property
    def architected_flat_scratch(self):
        return self.major >= 11 or self.processor in _ARCHITECTED_FLAT_SCRATCH

    @property
    def gfx90a_class(self):
        return self.processor in _GFX90A_CLASS


def parse_target(text):
    """A Target from 'gfx1100', 'gfx942:xnack-' or 'amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-'.

    Raises ValueError with the reason for an unknown processor or feature.
    """
    spec = text.strip()
    if spec.startswith(TRIPLE):
        rest = spec[len(TRIPLE):]
        if not rest.startswith("--"):
            raise ValueError(f"target id {text!r} must be '{TRIPLE}--<processor>'")
        spec = rest[2:]
    processor, *features = spec.split(":")
    if processor not in MACH_BY_PROCESSOR:
        raise ValueError(f"unknown AMDGPU processor {processor!r} in target {text!r}")
    settings = {"xnack": "any" if processor in _XNACK_PROCESSORS else "unsupported",
                "sramecc": "any" if processor in _SRAMECC_PROCESSORS else "unsupported"}
    supported = {"xnack": _XNACK_PROCESSORS, "sramecc": _SRAMECC_PROCESSORS}
    for feature in features:
        name, sign = feature[:-1], feature[-1:]
        if name not in settings or sign not in "+-" or not sign:
            raise ValueError(f"bad target feature {feature!r} in {text!r} (want xnack+/- or sramecc+/-)")
        if processor not in supported[name]:
            raise ValueError(f"{processor} does not support {name}")
        settings[name] = "on" if sign == "+" else "off"
    return Target(processor, settings["xnack"], settings["sramecc"])


def target_from_e_flags(e_flags):
    """The Target an ELF header's e_flags names; ValueError for an unknown MACH."""
    mach = e_flags & EF_AMDGPU_MACH
    for processor, value in MACH_BY_PROCESSOR.items():
        if value == mach:
            return Target(processor, _SETTING_NAMES[(e_flags >> 8) & 3],
                          _SETTING_NAMES[(e_flags >> 10) & 3])
    raise ValueError(f"e_flags 0x{e_flags:x}: unknown EF_AMDGPU_MACH 0x{mach:02x}")
