"""Adreno GPUs of real phones, from public specifications, rendered as KGSL and socinfo sysfs files.

The virtual a630 serves the Adreno 630 entry; scripts/gen_kgsl_fixtures.py writes every entry
to tests/fixtures/kgsl/ so the probe is tested on the trees real phones have. Sources: chip ids
and GMEM sizes from the Linux kernel's Adreno catalogs (drm/msm a6xx_catalog, KGSL
adreno-gpulist.h); frequencies from the GPU OPP tables of the upstream device trees
(sdm845.dtsi, sm8250.dtsi at speed bin 0, sm8350.dtsi); SoC ids from dt-bindings/arm/qcom,ids.h.
File formats follow KGSL's kgsl_pwrctrl.c and adreno_sysfs.c.
"""
from dataclasses import dataclass

KiB, MiB, MHz = 1 << 10, 1 << 20, 1_000_000

KGSL_SYSFS = "/sys/class/kgsl/kgsl-3d0"
SOC_SYSFS = "/sys/devices/soc0"


@dataclass(frozen=True)
class AdrenoCard:
    key: str                 # fixture directory name
    chip_id: int             # kgsl_devinfo.chip_id
    gpu_model: str           # sysfs gpu_model (KGSL prints Adreno<core><major><minor>v<patch+1>)
    gmem_bytes: int
    soc: str                 # /sys/devices/soc0/machine
    soc_id: int              # /sys/devices/soc0/soc_id
    freqs_hz: tuple          # power levels, fastest first
    clock_hz: int            # the current clock of the captured state
    busy_percent: int        # gpu_busy_percentage of the captured state
    highest_bank_bit: int    # the device tree's qcom,highest-bank-bit (KGSL_PROP_HIGHEST_BANK_BIT)


CARDS = {
    # Snapdragon 845: Adreno 630 v2 (chip 6.3.0.1), 1 MiB GMEM, 257-710 MHz in 7 levels; idle.
    "a630": AdrenoCard("a630", 0x06030001, "Adreno630v2", 1 * MiB, "SDM845", 321,
                       tuple(f * MHz for f in (710, 675, 596, 520, 414, 342, 257)), 257 * MHz, 0, 15),
    # Snapdragon 865: Adreno 650 v3 (chip 6.5.0.2), 1152 KiB GMEM, 305-587 MHz (speed bin 0,
    # 441.6 MHz among them); mid-load.
    "a650": AdrenoCard("a650", 0x06050002, "Adreno650v3", 1 * MiB + 128 * KiB, "SM8250", 356,
                       (587 * MHz, 525 * MHz, 490 * MHz, 441_600_000, 400 * MHz, 305 * MHz), 441_600_000, 37,
                       16),
    # Snapdragon 888: Adreno 660 v2 (chip 6.6.0.1), 1.5 MiB GMEM, 315-840 MHz in 10 levels.
    "a660": AdrenoCard("a660", 0x06060001, "Adreno660v2", 1 * MiB + 512 * KiB, "SM8350", 439,
                       tuple(f * MHz for f in (840, 778, 738, 676, 608, 540, 491, 443, 379, 315)), 315 * MHz, 3,
                       16),
}


def render_sysfs(card):
    """{absolute path: text} of KGSL's and socinfo's sysfs files for `card`, as the kernel prints them."""
    freqs = card.freqs_hz
    k = KGSL_SYSFS
    files = {
        f"{k}/gpu_model": card.gpu_model,                                  # printed without a newline
        f"{k}/gpu_busy_percentage": f"{card.busy_percent} %\n",
        f"{k}/gpubusy": f"{card.busy_percent * 1000:7d} {100000:7d}\n",
        f"{k}/gpuclk": f"{card.clock_hz}\n",
        f"{k}/max_gpuclk": f"{freqs[0]}\n",
        f"{k}/gpu_available_frequencies": "".join(f"{f} " for f in freqs) + "\n",
        f"{k}/clock_mhz": f"{card.clock_hz // MHz}\n",
        f"{k}/max_clock_mhz": f"{freqs[0] // MHz}\n",
        f"{k}/min_clock_mhz": f"{freqs[-1] // MHz}\n",
        f"{k}/freq_table_mhz": "".join(f"{f // MHz} " for f in freqs) + "\n",
        f"{k}/num_pwrlevels": f"{len(freqs)}\n",
        f"{k}/max_pwrlevel": "0\n",
        f"{k}/min_pwrlevel": f"{len(freqs) - 1}\n",
        f"{k}/thermal_pwrlevel": "0\n",
        f"{k}/reset_count": "0\n",
        f"{SOC_SYSFS}/family": "Snapdragon\n",
        f"{SOC_SYSFS}/machine": f"{card.soc}\n",
        f"{SOC_SYSFS}/soc_id": f"{card.soc_id}\n",
    }
    return files
