"""The device under test and what stages hand each other (the open device, loaded programs).

``--device amd:N`` drives GPU N through the host's amdkfd, ``--device qcom:0`` the Adreno
through KGSL, ``--device nv:N`` NVIDIA GPU N through the RM and UVM; ``--emulate gfx1100`` /
``a630`` / ``sm_90`` (or GPU_EMULATE) drives the virtual GPU behind the same kernel seam, and picks the vendor when --device is not given. On the virtual GPU the stages
shrink their problem sizes (``ctx.size``) so the whole suite runs in minutes; each stage says
which sizes it used.
"""
import re

from drivers.kernel import RealKernel
from hw_tests.runner import FAIL

VENDORS = ("amd", "qcom", "nv")


class UsageError(ValueError):
    """A bad command-line value; the message is printed as is."""


def parse_device(text):
    """'amd:0' -> ('amd', 0); a bare index means AMD."""
    m = re.fullmatch(r"(?:(\w+):)?(\d+)", (text or "").strip())
    if not m:
        raise UsageError(f"--device {text!r}: expected VENDOR:INDEX such as amd:0")
    vendor = (m.group(1) or "amd").lower()
    if vendor not in VENDORS:
        raise UsageError(f"--device {text!r}: vendor {vendor!r} is not supported; supported: {', '.join(VENDORS)}")
    return vendor, int(m.group(2))


def target_vendor(emulate):
    """The vendor of an emulation target ('a630' -> 'qcom'); UsageError for an unknown one."""
    from drivers.emu import UnknownTarget, parse_target, targets
    try:
        return targets()[parse_target(emulate)[0]]
    except UnknownTarget as e:
        raise UsageError(f"--emulate: {e}") from None


def vendor_of(device, emulate):
    """The vendor a run tests: --device's, else the emulation target's, else AMD."""
    if device:
        return parse_device(device)[0]
    return target_vendor(emulate) if emulate else "amd"


class Context:
    def __init__(self, device=None, emulate=None, kernel=None):
        if device is None:
            device = f"{vendor_of(None, emulate)}:0"
        self.vendor, self.index = parse_device(device)
        self.target = emulate
        if kernel is None:
            if emulate:
                from drivers.emu import make_kernel
                vendor = target_vendor(emulate)
                if vendor != self.vendor:
                    raise UsageError(f"--emulate: {emulate!r} is a virtual {vendor.upper()} GPU, but --device "
                                     f"{device} asks for {self.vendor.upper()}")
                kernel = make_kernel(emulate)
            else:
                kernel = RealKernel()
        self.kernel = kernel
        self.topology = self.node = self.dev = None
        self.shared = {}                # results one stage leaves for the stages after it
        self.device_nodes = True        # False for a captured /sys replayed without its /dev
        self._gpu_error_seen = None

    @property
    def emulated(self):
        return self.target is not None

    @property
    def spec(self):
        return f"emulate:{self.target}" if self.emulated else f"{self.vendor}:{self.index}"

    def size(self, hardware, simulator, result=None, what="problem size"):
        """A problem size: the full one on a real card, the small one on the virtual GPU (noted in
        ``result`` so the report says what was scaled)."""
        if not self.emulated:
            return hardware
        if result is not None and simulator != hardware:
            result.note(f"virtual GPU: {what} {simulator} (a card runs {hardware})")
        return simulator

    def open_device(self):
        if self.vendor == "qcom":
            from drivers.qcom.device import QCOMDevice
            dev = self.dev = QCOMDevice(self.index, kernel=self.kernel)
            self.shared["qcom"] = {"target": dev.target, "name": dev.chip.name, "kgsl": {
                "chip_id": dev.info.chip_id, "gmem_bytes": dev.info.gmem_bytes, "version": dev.info.kgsl_version,
                "fault_reports": dev.fault_info}}
        elif self.vendor == "nv":
            import nv_ioctl as NV
            from drivers.nv.device import NVDevice
            dev = self.dev = NVDevice(self.index, kernel=self.kernel)
            u = dev.uuid.hex()
            self.shared["nv"] = {"target": dev.target, "name": dev.sku.model if dev.sku else dev.arch, "nvidia": {
                "sm_version": dev.sm_version, "sms": dev.sms, "pci_device_id": dev.pci_device_id,
                "pci_address": dev.pci_address, "uuid": f"GPU-{u[:8]}-{u[8:12]}-{u[12:16]}-{u[16:20]}-{u[20:]}",
                "classes": {what: NV.class_name(c) for what, c in (
                    ("compute", dev.compute_class), ("copy", dev.copy_class), ("gpfifo", dev.gpfifo_class),
                    ("usermode", dev.usermode_class))}}}
        else:
            from drivers.amd.device import AMDDevice
            self.dev = AMDDevice(self.index, kernel=self.kernel)
        return self.dev

    def after_stage(self, stage, result):
        """Called after every stage that ran. On the virtual GPU a failed stage gets the reason the
        simulator stopped the queue; an instruction it cannot execute marks the simulator as the
        layer that blocks the stage (the kernels are checked against llvm-mc-19 by the tests)."""
        error = getattr(self._virtual_gpu(), "last_error", None)
        if error is None or error == self._gpu_error_seen:
            return
        self._gpu_error_seen = error
        if result.status == FAIL:
            result.note(f"virtual GPU: {error}")
            if "illegal instruction" in error and result.error is not None:
                result.error.setdefault("layer", f"drivers.emu.{self.vendor}.shader")

    def _virtual_gpu(self):
        """The emulated GPU behind the device under test (None on real hardware)."""
        if self.vendor == "qcom":
            kgsl = getattr(self.kernel, "kgsl", None)
            return kgsl.gpu if kgsl is not None else None
        if self.vendor == "nv" and self.dev is None:
            return None
        gpus = getattr(self.kernel, "gpus", ())
        gpu_id = self.dev.gpu_id if self.dev is not None else None
        return next((g for g in gpus if g.gpu_id == gpu_id), getattr(self.kernel, "gpu", None))

    def close(self):
        programs = self.shared.pop("programs", {})
        dev, self.dev = self.dev, None
        if dev is not None and not dev.closed:
            for prg in programs.values():
                try:
                    prg.free()
                except Exception:        # noqa: BLE001 -- the device close below frees it anyway
                    pass
            dev.close()

    def describe(self):
        """The device as the report records it: spec, node properties, memory banks, caches (AMD),
        chip id, GMEM and KGSL version (Qualcomm), SM version, SMs, PCI identity and classes (NVIDIA)."""
        out = {"spec": self.spec, "emulated": self.emulated, "target": None, "name": None, "topology": None}
        if self.vendor == "nv":
            opened = self.shared.get("nv")
            out["nvidia"] = None
            if opened is not None:
                out.update(target=opened["target"], name=opened["name"], nvidia=dict(opened["nvidia"]))
            return out
        if self.vendor == "qcom":
            opened = self.shared.get("qcom")
            out["kgsl"] = None
            if opened is not None:
                out.update(target=opened["target"], name=opened["name"], kgsl=dict(opened["kgsl"]))
            return out
        node = self.node
        if node is not None:
            out.update(target=node.gfx_target, name=node.marketing_name)
            out["topology"] = {
                "node": node.index, "gpu_id": node.gpu_id, "properties": dict(node.properties),
                "compute_units": node.compute_units, "engine_clock_mhz": node.engine_clock_mhz,
                "vram_bytes": node.vram_bytes, "wave_size": node.wave_size,
                "mem_banks": [dict(b.properties) for b in node.mem_banks],
                "caches": [dict(c.properties) for c in node.caches],
            }
        return out
