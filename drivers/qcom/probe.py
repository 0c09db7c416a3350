"""`python -m drivers.qcom.probe`: which Qualcomm Adreno GPU does this machine have, and can we use it?

Opens /dev/kgsl-3d0, reads KGSL_PROP_DEVICE_INFO (chip id, GMEM, MMU) and a few other properties,
then KGSL's sysfs (/sys/class/kgsl/kgsl-3d0: model, clocks, load) and the SoC's name, and prints a
table (or JSON). A captured tree replays with --sysfs-root (and --dev-root for the device nodes):
its stand-in device files cannot answer ioctls, so the chip id then comes from sysfs gpu_model.

Exit status: 0 a usable GPU; 1 none (the reason is printed); 2 malformed input.
"""
import errno
import os

import kgsl_ioctl
from drivers.errors import IoctlError, MalformedInput
from drivers.kernel import RealKernel
from drivers.qcom import chips
from drivers.qcom.kgsl import KGSL_DEVICE, device_info, open_device
from drivers.probe import CapturedTree, VendorProbeCLI, emulated_kernel, run
from drivers.qcom.sysfs import KGSL_SYSFS, read_kgsl_sysfs

VENDOR = "qcom"
EMULATE_HINT = "to probe the virtual Adreno 630 instead: --emulate a630"


class NoGPU(Exception):
    """Nothing usable; the message is the one-line reason printed to the user."""


def _mode(mode):
    return "".join(c if mode & bit else "-" for c, bit in zip("rwxrwxrwx", (0o400, 0o200, 0o100, 0o40, 0o20,
                                                                              0o10, 0o4, 0o2, 0o1)))


def permission_hint(kernel, path):
    owner = kernel.node_owner(path)
    if owner is None:
        return f"join the group that owns {path} (ls -l {path}) and log in again"
    user, group, mode = owner
    return (f"{path} is c{_mode(mode)} {user}:{group}: add your user to the '{group}' group "
            f"(sudo usermod -aG {group} $USER) and log in again")


def open_kgsl(kernel, path=KGSL_DEVICE):
    """Open the KGSL node; every failure becomes a one-line reason (NoGPU)."""
    if not kernel.exists(path):
        raise NoGPU(f"no Qualcomm GPU: {path} does not exist (not a Snapdragon device, or its kernel drives "
                    f"the Adreno with the upstream drm/msm driver instead of KGSL); {EMULATE_HINT}")
    try:
        return open_device(kernel, path)
    except kgsl_ioctl.UnsupportedABI as e:
        raise NoGPU(str(e)) from None
    except PermissionError:
        raise NoGPU(f"permission denied opening {path}: {permission_hint(kernel, path)}") from None
    except OSError as e:
        raise NoGPU(f"cannot open {path}: {os.strerror(e.errno or errno.EIO)}") from None


def query_device(kernel, fd, path=KGSL_DEVICE):
    try:
        return device_info(kernel, fd)
    except IoctlError as e:
        raise NoGPU(f"{path} is not a KGSL device: {e}") from None


def probe(kernel, check_devices=True, query=True):
    """The report dict. Raises NoGPU (exit 1) or MalformedInput (exit 2).

    check_devices: open /dev/kgsl-3d0 (permissions); query: ask it for its properties (False
    for a replayed tree, whose device files are stand-ins)."""
    info = None
    if check_devices:
        fd = open_kgsl(kernel)
        try:
            info = query_device(kernel, fd) if query else None
        finally:
            kernel.close(fd)
    sysfs = None
    if kernel.exists(KGSL_SYSFS):
        sysfs = read_kgsl_sysfs(kernel)
    elif info is None:
        raise NoGPU(f"no KGSL sysfs at {KGSL_SYSFS}: not a Qualcomm device with the KGSL driver; {EMULATE_HINT}")
    device = device_record(0, info, sysfs, check_devices)
    return {"kgsl_version": info.kgsl_version if info else None, "devices": [device],
            "usable": int(device["usable"])}


def device_record(index, info, sysfs, checked):
    """One row: what DEVICE_INFO says (or, for a replayed tree, what sysfs gpu_model implies)."""
    if info is not None:
        chip_id, source = info.chip_id, "ioctl"
    else:
        chip_id, source = chips.chip_id_from_gpu_model(sysfs.gpu_model), "sysfs gpu_model"
    chip = chips.lookup(chip_id) if chip_id is not None else None
    if chip_id is None:
        reason = (f"sysfs gpu_model {sysfs.gpu_model!r} does not spell a chip id (Adreno<core><major><minor>"
                  f"v<patch+1>) and the device was not asked (replayed tree)")
    else:
        reason = chips.unsupported_reason(chip_id)
    gmem = info.gmem_bytes if info is not None else (chip.gmem_bytes if chip else None)
    return {
        "index": index, "device": KGSL_DEVICE,
        "name": chip.name if chip else (sysfs.gpu_model if chip_id is None else f"unknown Adreno (0x{chip_id:08x})"),
        "chip_id": f"0x{chip_id:08x}" if chip_id is not None else None,
        "gpu_id": chip.gpu_id if chip else None, "family": chip.family if chip else None,
        "gpu_model": sysfs.gpu_model if sysfs else None,
        "soc": sysfs.soc if sysfs else None, "soc_id": sysfs.soc_id if sysfs else None,
        "gmem_bytes": gmem,
        "mmu_enabled": info.mmu_enabled if info else None, "device_id": info.device_id if info else None,
        "kgsl_version": info.kgsl_version if info else None, "va_bits": info.va_bits if info else None,
        "highest_bank_bit": info.highest_bank_bit if info else None,
        "ucode_version": list(info.ucode_version) if info and info.ucode_version else None,
        "clock_mhz": sysfs.clock_mhz if sysfs else None, "max_clock_mhz": sysfs.max_clock_mhz if sysfs else None,
        "min_clock_mhz": sysfs.min_clock_mhz if sysfs else None,
        "freq_table_mhz": sysfs.freq_table_mhz if sysfs else [],
        "busy_percent": sysfs.busy_percent if sysfs else None,
        "device_info_from": source, "device_checked": checked,
        "supported": reason is None, "usable": reason is None, "reason": reason,
    }


def _bytes(n):
    if n is None:
        return "?"
    return f"{n >> 20} MiB" if n % (1 << 20) == 0 else f"{n >> 10} KiB"


def _opt(value, unit=""):
    return "?" if value is None else f"{value}{unit}"


def format_table(report, source):
    lines = [" · ".join([f"KGSL {report['kgsl_version'] or 'version unknown'}", source])]
    cols = ("GPU", "DEVICE", "CHIP", "NAME", "GMEM", "CLOCK", "MAX", "BUSY", "MMU", "SOC", "STATUS")
    rows = [cols]
    for d in report["devices"]:
        mmu = "?" if d["mmu_enabled"] is None else ("yes" if d["mmu_enabled"] else "no")
        status = "usable" if d["usable"] else "not usable"
        if d["usable"] and not d["device_checked"]:
            status = "supported (device node not checked)"
        rows.append((str(d["index"]), d["device"].rsplit("/", 1)[-1], d["chip_id"] or "?", d["name"],
                     _bytes(d["gmem_bytes"]), _opt(d["clock_mhz"], " MHz"), _opt(d["max_clock_mhz"], " MHz"),
                     _opt(d["busy_percent"], "%"), mmu, d["soc"] or "?", status))
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    for d in report["devices"]:
        if d["freq_table_mhz"]:
            lines.append(f"GPU {d['index']} clocks: {' '.join(map(str, d['freq_table_mhz']))} MHz "
                         f"(gpu_model {d['gpu_model']}; device info from {d['device_info_from']})")
        if d["reason"]:
            lines.append(f"GPU {d['index']} ({d['name']}): {d['reason']}")
    return "\n".join(lines)


def find_sysfs_root(path):
    """Accept the directory that replaces /sys, or one holding sys/ (a copied tree)."""
    for candidate in (path, os.path.join(path, "sys")):
        if os.path.isdir(os.path.join(candidate, "class/kgsl/kgsl-3d0")):
            return candidate
    raise MalformedInput(path, None, "no class/kgsl/kgsl-3d0 below it (expected a copy of /sys/class/kgsl/"
                         "kgsl-3d0 and /sys/devices/soc0 as the README's Qualcomm section makes one)")


def rows(emulate=None):
    """This vendor's rows for `python -m drivers.probe`: {vendor, index, name, arch, clock_mhz,
    usable, reason, details} per GPU. Raises NoGPU or MalformedInput as probe() does."""
    report = probe(emulated_kernel(VENDOR, emulate) if emulate else RealKernel())
    return [{"vendor": VENDOR, "index": d["index"], "name": d["name"],
             "arch": f"a{d['gpu_id']}" if d["gpu_id"] else d["chip_id"], "clock_mhz": d["max_clock_mhz"],
             "usable": d["usable"], "reason": d["reason"], "details": d} for d in report["devices"]]


def _probe(kernel, check_devices, stand_ins):
    return probe(kernel, check_devices=check_devices, query=not stand_ins)


CLI = VendorProbeCLI(
    vendor=VENDOR, doc=__doc__, probe=_probe, format_table=format_table, no_gpu=NoGPU,
    emulate_help="probe the virtual Adreno (a630); also GPU_EMULATE",
    tree=CapturedTree("--sysfs-root", "sysfs", "/sys", "read KGSL's sysfs from a captured /sys tree",
                      find_sysfs_root))


def main(argv=None):
    return CLI.main(argv)


if __name__ == "__main__":
    run(main)
