"""KGSL's sysfs view of the GPU (/sys/class/kgsl/kgsl-3d0) and the SoC's (/sys/devices/soc0).

What a probe reads there, as KGSL's kgsl_pwrctrl.c and adreno_sysfs.c write it:

    gpu_model              "Adreno630v2" (no newline): the device tree's name, or the chip id
    gpu_busy_percentage    "37 %"
    clock_mhz              current clock, MHz           (older kernels: gpuclk, in Hz)
    max_clock_mhz          highest allowed clock, MHz   (older kernels: max_gpuclk, in Hz)
    min_clock_mhz          lowest allowed clock, MHz
    freq_table_mhz         "710 675 596 520 414 342 257 \\n" (older: gpu_available_frequencies, Hz)
    num_pwrlevels          the number of power levels

and socinfo's /sys/devices/soc0/machine ("SDM845") and soc_id ("321"). Every file but gpu_model
is optional (kernels differ); a file that is there but unreadable as documented is a
MalformedInput naming the file and line. Everything goes through the kernel seam, so a
captured tree and the virtual Adreno's sysfs parse exactly like the live one.
"""
import re
from dataclasses import dataclass, field

from drivers.errors import MalformedInput

KGSL_SYSFS = "/sys/class/kgsl/kgsl-3d0"
SOC_SYSFS = "/sys/devices/soc0"
MHZ = 1_000_000


@dataclass
class KgslSysfs:
    gpu_model: str
    busy_percent: int = None
    clock_mhz: int = None
    max_clock_mhz: int = None
    min_clock_mhz: int = None
    freq_table_mhz: list = field(default_factory=list)
    num_pwrlevels: int = None
    soc: str = None
    soc_id: int = None


def _read(kernel, path):
    """The file's text, or None when it does not exist."""
    if not kernel.exists(path):
        return None
    try:
        return kernel.read_text(path)
    except UnicodeDecodeError:
        raise MalformedInput(kernel.source_path(path), None, "not a text file") from None
    except IsADirectoryError:
        raise MalformedInput(kernel.source_path(path), None, "a directory, expected a file") from None


def _single_line(kernel, path, text):
    lines = text.strip("\n").split("\n") if text.strip() else [""]
    if len(lines) != 1:
        raise MalformedInput(kernel.source_path(path), 2, f"expected one line, got {len(lines)}")
    return lines[0].strip()


def _int(kernel, path, text, what):
    value = _single_line(kernel, path, text)
    if not re.fullmatch(r"\d+", value):
        raise MalformedInput(kernel.source_path(path), 1, f"expected {what}, got {value[:40]!r}")
    return int(value)


def _read_int(kernel, path, what):
    text = _read(kernel, path)
    return None if text is None else _int(kernel, path, text, what)


def _read_list(kernel, path, what):
    text = _read(kernel, path)
    if text is None:
        return None
    value = _single_line(kernel, path, text)
    numbers = value.split()
    bad = [n for n in numbers if not n.isdigit()]
    if bad or not numbers:
        raise MalformedInput(kernel.source_path(path), 1,
                             f"expected {what} separated by spaces, got {(bad[0] if bad else value)[:40]!r}")
    return [int(n) for n in numbers]


def read_busy(kernel, path):
    text = _read(kernel, path)
    if text is None:
        return None
    value = _single_line(kernel, path, text)
    m = re.fullmatch(r"(\d+)\s*%", value)
    if not m or int(m.group(1)) > 100:
        raise MalformedInput(kernel.source_path(path), 1, f"expected '<0..100> %', got {value[:40]!r}")
    return int(m.group(1))


def _mhz(hz):
    return None if hz is None else hz // MHZ


def read_kgsl_sysfs(kernel, root=KGSL_SYSFS, soc_root=SOC_SYSFS):
    """Parse KGSL's sysfs directory. Raises MalformedInput naming the file and line."""
    model_path = f"{root}/gpu_model"
    model = _read(kernel, model_path)
    if model is None:
        raise MalformedInput(kernel.source_path(model_path), None,
                             "missing (KGSL has written it since msm-4.9; the captured tree is incomplete)")
    info = KgslSysfs(gpu_model=_single_line(kernel, model_path, model))
    if not info.gpu_model:
        raise MalformedInput(kernel.source_path(model_path), 1, "empty")
    info.busy_percent = read_busy(kernel, f"{root}/gpu_busy_percentage")
    info.clock_mhz = _read_int(kernel, f"{root}/clock_mhz", "MHz")
    if info.clock_mhz is None:
        info.clock_mhz = _mhz(_read_int(kernel, f"{root}/gpuclk", "Hz"))
    info.max_clock_mhz = _read_int(kernel, f"{root}/max_clock_mhz", "MHz")
    if info.max_clock_mhz is None:
        info.max_clock_mhz = _mhz(_read_int(kernel, f"{root}/max_gpuclk", "Hz"))
    info.min_clock_mhz = _read_int(kernel, f"{root}/min_clock_mhz", "MHz")
    table = _read_list(kernel, f"{root}/freq_table_mhz", "MHz values")
    if table is None:
        hz = _read_list(kernel, f"{root}/gpu_available_frequencies", "Hz values")
        table = [_mhz(f) for f in hz] if hz else []
    info.freq_table_mhz = table
    info.num_pwrlevels = _read_int(kernel, f"{root}/num_pwrlevels", "a count")
    machine = _read(kernel, f"{soc_root}/machine")
    info.soc = _single_line(kernel, f"{soc_root}/machine", machine) if machine else None
    info.soc_id = _read_int(kernel, f"{soc_root}/soc_id", "a number")
    return info
