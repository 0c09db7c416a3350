"""`python -m drivers.amd.probe`: which AMD GPUs does this machine have, and can we use them?

Reads the KFD topology (like rocminfo), opens /dev/kfd and each GPU's render node the way
libhsakmt decides whether a node is usable, and prints a table (or JSON).

Exit status: 0 at least one usable GPU; 1 none (the reason is printed); 2 malformed input.
"""
import errno
import os

from drivers.amd.topology import TOPOLOGY, read_topology
from drivers.errors import IoctlError, MalformedInput
from drivers.kernel import O_RDWR, RealKernel
from drivers.probe import CapturedTree, VendorProbeCLI, run

KFD = "/dev/kfd"
GROUP_HINT = "add your user to the 'render' and 'video' groups (sudo usermod -aG render,video $USER) and log in again"
EMULATE_HINT = ("; to try everything on the built-in virtual GPU instead, add --emulate gfx1100 "
                "(or set GPU_EMULATE=gfx1100)")


class NoGPU(Exception):
    """Nothing usable; the message is the one-line reason printed to the user."""


def kfd_version(kernel, fd):
    """GET_VERSION on an open /dev/kfd -> 'major.minor', or None when the ioctl is refused."""
    import kfd_ioctl
    args = kfd_ioctl.new("kfd_ioctl_get_version_args")
    try:
        kernel.ioctl(fd, kfd_ioctl.AMDKFD_IOC_GET_VERSION, args, "AMDKFD_IOC_GET_VERSION")
    except IoctlError:
        return None
    return f"{args.major_version}.{args.minor_version}"


def open_kfd(kernel):
    """Open /dev/kfd like libhsakmt's hsaKmtOpenKFD; failures become a one-line reason naming the
    path actually tried (``--dev-root`` moves it)."""
    path = kernel.source_path(KFD)
    if not kernel.exists(KFD):
        raise NoGPU(f"no AMD GPU: {path} does not exist (the amdgpu kernel driver is not loaded, "
                    f"or this machine has no AMD GPU){EMULATE_HINT}")
    try:
        return kernel.open(KFD, O_RDWR)
    except PermissionError:
        raise NoGPU(f"permission denied opening {path}: {GROUP_HINT}") from None
    except OSError as e:
        raise NoGPU(f"cannot open {path}: {os.strerror(e.errno or errno.EIO)}") from None


def render_node_status(kernel, node):
    """None when the render node opens read-write, else why not (topology_sysfs_check_node_supported)."""
    path = node.render_node
    if path is None:
        return "no drm_render_minor in the node's properties"
    shown = kernel.source_path(path)
    try:
        fd = kernel.open(path, O_RDWR)
    except PermissionError:
        return f"permission denied opening {shown}: {GROUP_HINT}"
    except FileNotFoundError:
        return f"{shown} does not exist"
    except OSError as e:
        return f"cannot open {shown}: {os.strerror(e.errno or errno.EIO)}"
    kernel.close(fd)
    return None


def probe(kernel, check_devices=True):
    """Return the report dict. Raises NoGPU (exit 1) or MalformedInput (exit 2)."""
    version = None
    if check_devices:
        fd = open_kfd(kernel)
        try:
            version = kfd_version(kernel, fd)
        finally:
            kernel.close(fd)
    if not kernel.exists(f"{TOPOLOGY}/nodes"):
        raise NoGPU(f"no KFD topology at {kernel.source_path(TOPOLOGY + '/nodes')} (amdgpu is loaded without KFD "
                    "support, CONFIG_HSA_AMD)")
    topo = read_topology(kernel)
    devices = []
    for index, node in enumerate(topo.gpus):
        reason = node.unsupported_reason
        if reason is None and check_devices:
            reason = render_node_status(kernel, node)
        devices.append(device_record(index, node, reason, check_devices))
    return {
        "kfd_version": version,
        "generation_id": topo.generation_id,
        "devices": devices,
        "cpus": [{"node": n.index, "name": n.name, "cores": n.prop("cpu_cores_count"),
                  "memory_bytes": n.system_memory_bytes} for n in topo.cpus],
        "usable": sum(d["usable"] for d in devices),
    }


def device_record(index, node, reason, checked):
    return {
        "index": index, "node": node.index, "gpu_id": node.gpu_id,
        "name": node.marketing_name, "asic_name": node.name,
        "gfx_target": node.gfx_target, "gfx_target_version": node.gfx_target_version,
        "vendor_id": f"0x{node.vendor_id:04x}", "device_id": f"0x{node.device_id:04x}",
        "pci_address": node.pci_address,
        "compute_units": node.compute_units, "simd_count": node.simd_count,
        "simds_per_cu": node.simd_per_cu, "wave_size": node.wave_size,
        "max_waves_per_simd": node.max_waves_per_simd, "max_waves": node.max_waves,
        "lds_bytes": node.lds_bytes, "vram_bytes": node.vram_bytes,
        "visible_vram_bytes": node.visible_vram_bytes, "engine_clock_mhz": node.engine_clock_mhz,
        "num_xcc": node.num_xcc, "sdma_engines": node.sdma_engines, "render_node": node.render_node,
        "supported": node.supported, "render_node_checked": checked,
        "usable": reason is None, "reason": reason,
    }


def _gib(n):
    return f"{n / (1 << 30):.1f} GiB"


def _vram(d):
    visible = _gib(d["visible_vram_bytes"]) if d["visible_vram_bytes"] else "not host-visible"
    return f"{_gib(d['vram_bytes'])} ({visible})"


def format_table(report, source):
    head = [f"KFD {report['kfd_version'] or 'version unknown'}",
            f"topology generation {report['generation_id']}", source]
    lines = [" · ".join(head)]
    cols = ("GPU", "NODE", "TARGET", "NAME", "CU", "WAVE", "CLOCK", "VRAM (VISIBLE)", "XCC", "SDMA",
            "PCI", "RENDER", "STATUS")
    rows = [cols]
    for d in report["devices"]:
        status = "usable" if d["usable"] else ("supported" if d["supported"] and not d["render_node_checked"]
                                               else "not usable")
        if d["usable"] and not d["render_node_checked"]:
            status = "supported (device nodes not checked)"
        rows.append((str(d["index"]), str(d["node"]), d["gfx_target"] or "?", d["name"], str(d["compute_units"]),
                     str(d["wave_size"]), f"{d['engine_clock_mhz']} MHz",
                     _vram(d), str(d["num_xcc"]),
                     str(d["sdma_engines"]), d["pci_address"], (d["render_node"] or "-").rsplit("/", 1)[-1],
                     status))
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    for d in report["devices"]:
        if d["reason"]:
            lines.append(f"GPU {d['index']} ({d['gfx_target']}, {d['name']}): {d['reason']}")
    for c in report["cpus"]:
        lines.append(f"CPU node {c['node']}: {c['name']} ({c['cores']} cores, {_gib(c['memory_bytes'])})")
    return "\n".join(lines)


def find_sysfs_root(path):
    """Accept the directory that replaces /sys, or one holding sys/ (an extracted tar of /sys/...)."""
    for candidate in (path, os.path.join(path, "sys")):
        if os.path.isdir(os.path.join(candidate, "devices/virtual/kfd/kfd/topology")):
            return candidate
    raise MalformedInput(path, None, "no devices/virtual/kfd/kfd/topology below it (expected a copy of "
                         "/sys, e.g. from 'tar c /sys/devices/virtual/kfd')")


def rows(emulate=None):
    """This vendor's rows for `python -m drivers.probe`: {vendor, index, name, arch, clock_mhz,
    usable, reason, details} per GPU. Raises NoGPU or MalformedInput as probe() does."""
    from drivers.emu import make_kernel
    report = probe(make_kernel(emulate) if emulate else RealKernel())
    return [{"vendor": "amd", "index": d["index"], "name": d["name"], "arch": d["gfx_target"],
             "clock_mhz": d["engine_clock_mhz"], "usable": d["usable"], "reason": d["reason"], "details": d}
            for d in report["devices"]]


def _probe(kernel, check_devices, stand_ins):
    return probe(kernel, check_devices=check_devices)       # stand-in device files are only opened


CLI = VendorProbeCLI(
    vendor="amd", doc=__doc__, probe=_probe, format_table=format_table, no_gpu=NoGPU,
    emulate_help="probe the virtual GPU (gfx1100, or gfx1100xN for N GPUs); also GPU_EMULATE",
    tree=CapturedTree("--sysfs-root", "sysfs", "/sys", "read the topology from a captured /sys tree", find_sysfs_root),
    no_devices="KFD reports no GPU nodes")


def main(argv=None):
    return CLI.main(argv)


if __name__ == "__main__":
    run(main)
