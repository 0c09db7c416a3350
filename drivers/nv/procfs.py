"""/proc/driver/nvidia, parsed into typed objects (what nvidia-smi's "Driver Version" and
nvidia-bug-report read first).

Layout (kernel-open/nvidia/nv-procfs.c):

    /proc/driver/nvidia/version                         "NVRM version: <module> <version> ..." and the GCC line
    /proc/driver/nvidia/gpus/<dddd:bb:ss.f>/information "Key: \\t value" lines: Model, IRQ, GPU UUID,
                                                        Video BIOS, Bus Type, DMA Size/Mask,
                                                        Bus Location, Device Minor, GPU Firmware,
                                                        GPU Excluded

The open kernel module calls itself "NVIDIA UNIX Open Kernel Module for <arch>", the proprietary
one "NVIDIA UNIX <arch> Kernel Module".  Everything is read through the kernel seam, so a copied
tree (``cp -r /proc/driver/nvidia``) or the virtual GPU's /proc parse like the live one; a line that
does not parse is a MalformedInput naming the file and line.
"""
import re
from dataclasses import dataclass, field

from nv_ioctl import parse_driver_version

from drivers.errors import MalformedInput

PROC_NVIDIA = "/proc/driver/nvidia"
VERSION_FILE = f"{PROC_NVIDIA}/version"
GPUS_DIR = f"{PROC_NVIDIA}/gpus"
OPEN, PROPRIETARY = "open", "proprietary"
_PCI = re.compile(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]")


@dataclass
class DriverInfo:
    version: object          # nv_ioctl.DriverVersion
    flavour: str             # OPEN or PROPRIETARY
    arch: str                # x86_64, aarch64...
    line: str                # the NVRM line as printed
    gcc: str = None

    @property
    def branch(self):
        return self.version.major


@dataclass
class ProcGpu:
    """One gpus/<bus location>/information file."""
    pci_address: str
    model: str
    minor: int
    uuid: str = None
    irq: int = None
    vbios: str = None
    bus_type: str = None
    firmware: str = None
    excluded: bool = False
    fields: dict = field(default_factory=dict)   # every key as printed
    path: str = ""


def _read(kernel, path):
    try:
        return kernel.read_text(path)
    except FileNotFoundError:
        raise MalformedInput(kernel.source_path(path), None, "missing") from None
    except UnicodeDecodeError:
        raise MalformedInput(kernel.source_path(path), None, "not a text file") from None
    except OSError as e:
        raise MalformedInput(kernel.source_path(path), None, f"cannot read it: {e.strerror}") from None


def read_version(kernel):
    """Parse /proc/driver/nvidia/version -> DriverInfo."""
    path = kernel.source_path(VERSION_FILE)
    lines = _read(kernel, VERSION_FILE).splitlines()
    nvrm = next(((n, line) for n, line in enumerate(lines, 1) if line.startswith("NVRM version:")), None)
    if nvrm is None:
        raise MalformedInput(path, 1, "no 'NVRM version:' line")
    lineno, line = nvrm
    text = line[len("NVRM version:"):].strip()
    m = re.match(r"NVIDIA UNIX Open Kernel Module for (\S+)\s+(.*)$", text)
    flavour = OPEN
    if not m:
        m = re.match(r"NVIDIA UNIX (\S+) Kernel Module\s+(.*)$", text)
        flavour = PROPRIETARY
    if not m:
        raise MalformedInput(path, lineno, f"not an NVIDIA kernel module's version line: {text[:60]!r}")
    try:
        version = parse_driver_version(m.group(2).split()[0] if m.group(2).split() else "")
    except ValueError:
        raise MalformedInput(path, lineno, f"no driver version (like 580.95.05) after the module name: "
                             f"{m.group(2)[:40]!r}") from None
    gcc = next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("GCC version:")), None)
    return DriverInfo(version, flavour, m.group(1), line, gcc)


def parse_information(kernel, path, directory):
    """One information file -> ProcGpu; `directory` is its bus-location directory name."""
    where = kernel.source_path(path)
    fields = {}
    for lineno, line in enumerate(_read(kernel, path).splitlines(), 1):
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            raise MalformedInput(where, lineno, f"expected 'Key: value', got {line.strip()!r}")
        fields[key.strip()] = (lineno, value.strip())

    def get(key, required=False):
        if key not in fields:
            if required:
                raise MalformedInput(where, None, f"no '{key}:' line")
            return None, None
        return fields[key]

    def number(key, required=False):
        lineno, value = get(key, required)
        if value is None:
            return None
        try:
            return int(value, 10)
        except ValueError:
            raise MalformedInput(where, lineno, f"{key} is not a decimal integer: {value!r}") from None

    lineno, location = get("Bus Location", required=True)
    if not _PCI.fullmatch(location):
        raise MalformedInput(where, lineno, f"Bus Location is not a PCI address (dddd:bb:ss.f): {location!r}")
    if location != directory:
        raise MalformedInput(where, lineno, f"Bus Location {location} is not the directory's {directory}")
    model = get("Model", required=True)[1]
    uuid_line, uuid = get("GPU UUID")
    if uuid is not None and not re.fullmatch(r"GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", uuid):
        raise MalformedInput(where, uuid_line, f"GPU UUID is not GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx: {uuid!r}")
    excluded_line, excluded = get("GPU Excluded")
    if excluded not in (None, "Yes", "No"):
        raise MalformedInput(where, excluded_line, f"GPU Excluded is neither Yes nor No: {excluded!r}")
    return ProcGpu(location, model, number("Device Minor", required=True), uuid=uuid, irq=number("IRQ"),
                   vbios=get("Video BIOS")[1], bus_type=get("Bus Type")[1], firmware=get("GPU Firmware")[1],
                   excluded=excluded == "Yes", fields={k: v for k, (_, v) in fields.items()}, path=where)


def read_gpus(kernel):
    """Every gpus/*/information, in minor order (an empty list when the directory is absent)."""
    if not kernel.exists(GPUS_DIR):
        return []
    gpus = []
    for name in kernel.listdir(GPUS_DIR):
        if not _PCI.fullmatch(name):
            raise MalformedInput(kernel.source_path(GPUS_DIR), None,
                                 f"unexpected entry {name!r} (expected PCI addresses like 0000:01:00.0)")
        gpus.append(parse_information(kernel, f"{GPUS_DIR}/{name}/information", name))
    minors = [g.minor for g in gpus]
    if len(set(minors)) != len(minors):
        dup = next(m for m in minors if minors.count(m) > 1)
        raise MalformedInput(kernel.source_path(GPUS_DIR), None, f"two GPUs claim Device Minor {dup}")
    return sorted(gpus, key=lambda g: g.minor)
