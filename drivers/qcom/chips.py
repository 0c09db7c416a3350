"""Adreno chip ids: how KGSL numbers a GPU, which GPU a number is, and which ones this stack targets.

KGSL reports `chip_id` in kgsl_devinfo. Up to the 6xx generation it packs four bytes,
core.major.minor.patch: 0x06030001 is core 6, major 3, minor 0, patch 1, the Adreno 630 of the
Snapdragon 845, and its "gpu id" (what turnip calls it) is core*100 + major*10 + minor = 630.
KGSL's sysfs `gpu_model` prints the same bytes as "Adreno<core><major><minor>v<patch+1>"
("Adreno630v2"). Newer chips (the Adreno 7xx "gen7" parts) use ids outside that scheme
(0x43050a01 is the Adreno 740), so they are listed by their whole id.

The table holds public facts: chip ids and GMEM sizes as the Linux kernel's Adreno catalogs
(drm/msm and KGSL's adreno-gpulist) list them, SoCs from the kernels' device trees.
"""
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Chip:
    gpu_id: int              # 630
    name: str                # "Adreno 630"
    family: str              # "a6xx"
    gmem_bytes: int = None   # on-chip tile memory, as the kernel reports it (None: not listed here)
    socs: tuple = ()         # SoCs that carry it (examples, not exhaustive)


KiB, MiB = 1 << 10, 1 << 20

# (core, major, minor) -> Chip: the patch byte is a stepping (A630 ships as 6.3.0.1, "v2").
CHIPS = {
    (5, 0, 5): Chip(505, "Adreno 505", "a5xx", 136 * KiB),
    (5, 0, 6): Chip(506, "Adreno 506", "a5xx", 136 * KiB, ("MSM8953",)),
    (5, 0, 8): Chip(508, "Adreno 508", "a5xx", 136 * KiB, ("SDM630",)),
    (5, 1, 0): Chip(510, "Adreno 510", "a5xx", 256 * KiB, ("MSM8976",)),
    (5, 1, 2): Chip(512, "Adreno 512", "a5xx", 272 * KiB, ("SDM660",)),
    (5, 3, 0): Chip(530, "Adreno 530", "a5xx", 1 * MiB, ("MSM8996",)),
    (5, 4, 0): Chip(540, "Adreno 540", "a5xx", 1 * MiB, ("MSM8998",)),
    (6, 1, 0): Chip(610, "Adreno 610", "a6xx", 132 * KiB, ("SM6115",)),
    (6, 1, 2): Chip(612, "Adreno 612", "a6xx", 132 * KiB),
    (6, 1, 5): Chip(615, "Adreno 615", "a6xx", 512 * KiB, ("SDM670",)),
    (6, 1, 6): Chip(616, "Adreno 616", "a6xx", 512 * KiB, ("SDM710",)),
    (6, 1, 8): Chip(618, "Adreno 618", "a6xx", 512 * KiB, ("SM7150", "SC7180")),
    (6, 1, 9): Chip(619, "Adreno 619", "a6xx", 512 * KiB, ("SM6350", "SM4350")),
    (6, 2, 0): Chip(620, "Adreno 620", "a6xx", 512 * KiB, ("SM7250",)),
    (6, 2, 1): Chip(621, "Adreno 621", "a6xx", 512 * KiB),
    (6, 3, 0): Chip(630, "Adreno 630", "a6xx", 1 * MiB, ("SDM845", "SDM850")),
    (6, 4, 0): Chip(640, "Adreno 640", "a6xx", 1 * MiB, ("SM8150",)),
    (6, 5, 0): Chip(650, "Adreno 650", "a6xx", 1 * MiB + 128 * KiB, ("SM8250",)),
    (6, 6, 0): Chip(660, "Adreno 660", "a6xx", 1 * MiB + 512 * KiB, ("SM8350",)),
    (6, 8, 0): Chip(680, "Adreno 680", "a6xx", 2 * MiB, ("SC8180X",)),
}

# Whole chip ids outside the core.major.minor.patch scheme.
CHIP_IDS = {
    0x07030001: Chip(730, "Adreno 730", "a7xx", None, ("SM8450",)),
    0x43050A01: Chip(740, "Adreno 740", "a7xx", 3 * MiB, ("SM8550",)),
    0x43051401: Chip(750, "Adreno 750", "a7xx", None, ("SM8650",)),
}

FAMILY_NAMES = {"a3xx": "Adreno 3xx", "a4xx": "Adreno 4xx", "a5xx": "Adreno 5xx", "a6xx": "Adreno 6xx",
                "a7xx": "Adreno 7xx"}
# Families this stack is built for: the A6XX register map and ir3 as a6xx encodes it (the
# virtual GPU is an Adreno 630).
SUPPORTED_FAMILIES = {"a6xx": "Adreno 6xx"}

_GPU_MODEL = re.compile(r"Adreno(\d)(\d)(\d)v(\d+)")


def decode(chip_id):
    """(core, major, minor, patch) of a chip id."""
    return chip_id >> 24 & 0xFF, chip_id >> 16 & 0xFF, chip_id >> 8 & 0xFF, chip_id & 0xFF


def lookup(chip_id):
    """The Chip a chip id names, or None when this table does not know it."""
    if chip_id in CHIP_IDS:
        return CHIP_IDS[chip_id]
    return CHIPS.get(decode(chip_id)[:3])


def gpu_model_name(chip_id):
    """What KGSL's sysfs gpu_model shows when the device tree names no model: 'Adreno630v2'."""
    core, major, minor, patch = decode(chip_id)
    return f"Adreno{core}{major}{minor}v{patch + 1}"


def chip_id_from_gpu_model(text):
    """Invert gpu_model_name ('Adreno630v2' -> 0x06030001); None for any other spelling."""
    m = _GPU_MODEL.fullmatch(text.strip())
    if not m:
        return None
    core, major, minor, version = (int(g) for g in m.groups())
    if not 1 <= version <= 256:
        return None
    return core << 24 | major << 16 | minor << 8 | (version - 1)


def family_of(chip_id):
    chip = lookup(chip_id)
    return chip.family if chip else None


def unsupported_reason(chip_id):
    """None when this stack targets the chip; else a one-line reason a user can act on."""
    chip = lookup(chip_id)
    if chip is None:
        core, major, minor, patch = decode(chip_id)
        return (f"unknown chip id 0x{chip_id:08x} (core {core}, major {major}, minor {minor}, patch {patch}): "
                f"not an Adreno this stack knows; please report it with the output of --json")
    if chip.family not in SUPPORTED_FAMILIES:
        wanted = ", ".join(f"{name} ({fam})" for fam, name in SUPPORTED_FAMILIES.items())
        return f"{chip.name} ({chip.family}) is not supported for compute yet; supported: {wanted}"
    return None
