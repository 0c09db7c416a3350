"""`python -m drivers.nv.probe`: which NVIDIA GPUs does this machine have, and can we use them?

Reads /proc/driver/nvidia (the module's version and flavour, each GPU's information file), picks the
layouts of the driver branch, opens /dev/nvidiactl and has the module confirm its version
(NV_ESC_CHECK_VERSION_STR), lists the GPUs (NV_ESC_CARD_INFO) and asks the RM about each one:
root client, device, subdevice, GR_GET_INFO (SM version, TPCs, SMs per TPC...), GR_GET_GPC_MASK,
GPU_GET_GID_INFO (UUID), FB_GET_INFO_V2 (VRAM), MC_GET_ARCH_INFO (chip), GPU_GET_CLASSLIST.  Last,
/dev/nvidia-uvm must open and take UVM_INITIALIZE.  Prints a table (or JSON).

Exit status: 0 at least one usable GPU; 1 none (the reason is printed); 2 malformed input or an
unknown emulation target.
"""
import errno
import os

import nv_ioctl as NV

from drivers.errors import IoctlError, MalformedInput
from drivers.kernel import O_RDWR, RealKernel
from drivers.nv import chips
from drivers.nv.procfs import GPUS_DIR, OPEN, PROPRIETARY, VERSION_FILE, DriverInfo, read_gpus, read_version
from drivers.nv.rm import NVIDIACTL, NvCtl, RMError, RmClient, pci_address
from drivers.nv.uvm import NVIDIA_UVM, Uvm
from drivers.probe import CapturedTree, VendorProbeCLI, run

VENDOR = "nv"             # its key in drivers.probe.VENDOR_PROBES
EMULATE_HINT = "without an NVIDIA GPU, --emulate sm_86, sm_89 or sm_90 probes a virtual one"
NO_MODULE = ("no NVIDIA GPU: /dev/nvidiactl does not exist and there is no /proc/driver/nvidia (the nvidia "
             "kernel module is not loaded, or this machine has no NVIDIA GPU)")
NODE_HINT = ("the device nodes are created by nvidia-modprobe or udev: run 'sudo nvidia-modprobe -c 0 -u' "
             "or check the udev rules of the driver package")
PERMISSION_HINT = ("the driver restricts its device files (NVreg_DeviceFileUID/GID/Mode): add your user to "
                   "their group (see ls -l /dev/nvidia*) or ask for mode 0666")
PROPRIETARY_REASON = ("the proprietary NVIDIA kernel module is loaded; this stack needs the open kernel module "
                      "(the -open driver packages, NVIDIA's default since 560), whose headers its layouts are "
                      "checked against")
UVM_MISSING = ("no /dev/nvidia-uvm: the nvidia-uvm module is not loaded (sudo modprobe nvidia-uvm; "
               "'sudo nvidia-modprobe -u -c 0' creates the node)")
GR_INDICES = (NV.NV2080_CTRL_GR_INFO_INDEX_SM_VERSION, NV.NV2080_CTRL_GR_INFO_INDEX_SHADER_PIPE_SUB_COUNT,
              NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_GPCS, NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_TPC_PER_GPC,
              NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_SM_PER_TPC, NV.NV2080_CTRL_GR_INFO_INDEX_MAX_WARPS_PER_SM,
              NV.NV2080_CTRL_GR_INFO_INDEX_GPU_CORE_COUNT)
FB_INDICES = (NV.NV2080_CTRL_FB_INFO_INDEX_RAM_SIZE, NV.NV2080_CTRL_FB_INFO_INDEX_BUS_WIDTH,
              NV.NV2080_CTRL_FB_INFO_INDEX_L2CACHE_SIZE)
COMPUTE_CLASSES = (NV.BLACKWELL_COMPUTE_B, NV.BLACKWELL_COMPUTE_A, NV.HOPPER_COMPUTE_A, NV.ADA_COMPUTE_A,
                   NV.AMPERE_COMPUTE_B, NV.AMPERE_COMPUTE_A)


class NoGPU(Exception):
    """Nothing to list; the message is the one-line reason printed to the user."""


def _device_record(index):
    return {"index": index, "minor": None, "name": None, "chip": None, "target": None, "sm_version": None,
            "architecture": None, "pci_address": None, "vendor_id": None, "device_id": None, "gpu_id": None,
            "uuid": None, "vbios": None, "irq": None, "sms": None, "tpcs": None, "gpcs": None, "max_gpcs": None,
            "tpcs_per_gpc": None, "sms_per_tpc": None, "cuda_cores": None, "max_warps_per_sm": None,
            "vram_bytes": None, "bus_width": None, "l2_bytes": None, "compute_class": None,
            "device_node": None, "excluded": False, "details": None, "nodes_checked": False,
            "supported": False, "usable": False, "reason": None}


def _from_proc(rec, gpu):
    rec.update(minor=gpu.minor, name=gpu.model, pci_address=gpu.pci_address, uuid=gpu.uuid, vbios=gpu.vbios,
               irq=gpu.irq, excluded=gpu.excluded, device_node=f"/dev/nvidia{gpu.minor}")


def _from_card(rec, card):
    rec.update(minor=card.minor_number, pci_address=pci_address(card), gpu_id=card.gpu_id,
               vendor_id=f"0x{card.pci_info.vendor_id:04x}", device_id=f"0x{card.pci_info.device_id:04x}",
               device_node=f"/dev/nvidia{card.minor_number}")
    if rec["irq"] is None:
        rec["irq"] = card.interrupt_line


def _from_specs(rec):
    """Fill what the RM was not asked from the board's public specifications, if it is a known one."""
    device_id = int(rec["device_id"], 16) if rec["device_id"] else None
    s = chips.sku(rec["name"], device_id)
    if s is None:
        return
    rec.update(chip=rec["chip"] or s.chip, target=rec["target"] or s.target, sms=rec["sms"] or s.sms,
               vram_bytes=rec["vram_bytes"] or s.vram_bytes, bus_width=rec["bus_width"] or s.bus_width,
               name=rec["name"] or s.model, details="specifications")
    rec["architecture"] = rec["architecture"] or chips.architecture(s.target)


def query_gpu(rm, card, rec):
    """The RM's view of one GPU (its /dev/nvidiaN is open, so it is attached)."""
    ids = rm.control(rm.handle, NV.NV0000_CTRL_CMD_GPU_GET_ID_INFO_V2,
                     rm.L.new("NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS", gpuId=card.gpu_id))
    device = rm.alloc(rm.handle, NV.NV01_DEVICE_0, rm.L.new("NV0080_ALLOC_PARAMETERS", deviceId=ids.deviceInstance,
                                                           hClientShare=rm.handle))
    try:
        sub = rm.alloc(device, NV.NV20_SUBDEVICE_0, rm.L.new("NV2080_ALLOC_PARAMETERS", subDeviceId=0))
        gr = rm.gr_info(sub, GR_INDICES)
        fb = rm.fb_info(sub, FB_INDICES)
        arch = rm.control(sub, NV.NV2080_CTRL_CMD_MC_GET_ARCH_INFO)
        gpc_mask = rm.control(sub, NV.NV2080_CTRL_CMD_GR_GET_GPC_MASK).gpcMask
        uuid = rm.uuid(sub)
        classes = set(rm.class_list(device))
    finally:
        rm.free(device)
    sm_version = gr[NV.NV2080_CTRL_GR_INFO_INDEX_SM_VERSION]
    target, architecture = chips.target(sm_version)
    tpcs = gr[NV.NV2080_CTRL_GR_INFO_INDEX_SHADER_PIPE_SUB_COUNT]
    sms_per_tpc = gr[NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_SM_PER_TPC]
    compute = next((c for c in COMPUTE_CLASSES if c in classes), None)
    rec.update(target=target, architecture=architecture, sm_version=f"{sm_version >> 8}.{sm_version & 0xFF}",
               chip=chips.chip_name(arch.architecture, arch.implementation), uuid=uuid,
               tpcs=tpcs, sms_per_tpc=sms_per_tpc, sms=tpcs * sms_per_tpc, gpcs=bin(gpc_mask).count("1"),
               max_gpcs=gr[NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_GPCS],
               tpcs_per_gpc=gr[NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_TPC_PER_GPC],
               cuda_cores=gr[NV.NV2080_CTRL_GR_INFO_INDEX_GPU_CORE_COUNT],
               max_warps_per_sm=gr[NV.NV2080_CTRL_GR_INFO_INDEX_MAX_WARPS_PER_SM],
               vram_bytes=fb[NV.NV2080_CTRL_FB_INFO_INDEX_RAM_SIZE] * 1024,
               bus_width=fb[NV.NV2080_CTRL_FB_INFO_INDEX_BUS_WIDTH],
               l2_bytes=fb[NV.NV2080_CTRL_FB_INFO_INDEX_L2CACHE_SIZE],
               compute_class=NV.class_name(compute) if compute else None, details="rm")


def _open_reason(path, exc, hint):
    if isinstance(exc, PermissionError):
        return f"permission denied opening {path}: {hint}"
    if isinstance(exc, FileNotFoundError):
        return f"{path} does not exist"
    return f"cannot open {path}: {os.strerror(exc.errno or errno.EIO)}"


def _any_layouts():
    """For the escapes whose layout no branch changed (CHECK_VERSION_STR, CARD_INFO)."""
    return NV.layouts(max(NV.BRANCHES))


class _Probe:
    """One run of the probe; `reasons` are the machine-wide ones (each keeps every GPU unusable)."""

    def __init__(self, kernel, check_devices):
        self.kernel, self.check_devices = kernel, check_devices
        self.reasons, self.devices, self.L, self.driver = [], {}, None, None
        self.rm_checked, self.notes, self.driver_build = False, [], None
        self.uvm = {"device": NVIDIA_UVM, "present": None, "initialized": False, "pageable_mem_access": None}

    def device(self, address):
        if address not in self.devices:
            self.devices[address] = _device_record(len(self.devices))
        return self.devices[address]

    def choose_layouts(self):
        try:
            self.L = NV.layouts(self.driver.version.text)
        except NV.UnknownBranch as e:
            self.reasons.append(str(e))

    def run(self):
        kernel = self.kernel
        if kernel.exists(VERSION_FILE):
            self.driver = read_version(kernel)
        for gpu in read_gpus(kernel) if kernel.exists(GPUS_DIR) else []:
            _from_proc(self.device(gpu.pci_address), gpu)
        ctl_present = self.check_devices and kernel.exists(NVIDIACTL)
        if self.driver is None and not ctl_present:
            raise NoGPU(f"{NO_MODULE}; {EMULATE_HINT}")
        if self.driver is not None:
            self.choose_layouts()
            if self.driver.flavour == PROPRIETARY:
                self.reasons.append(PROPRIETARY_REASON)
        if self.check_devices:
            if not ctl_present:
                self.reasons.append(f"{NVIDIACTL} does not exist although the nvidia module is loaded: {NODE_HINT}")
            else:
                self.ask_the_module()
            self.check_uvm()
        return self.report()

    def ask_the_module(self):
        try:
            ctl = NvCtl.open(self.kernel, self.L or _any_layouts())
        except OSError as e:
            self.reasons.append(_open_reason(NVIDIACTL, e, PERMISSION_HINT))
            return
        try:
            if not self.check_version(ctl):
                return
            if self.L is None or self.reasons:
                return
            ctl.L = self.L
            self.ask_the_rm(ctl)
        except (RMError, IoctlError) as e:
            self.reasons.append(f"the RM refused the probe: {e}")
        finally:
            ctl.close()

    def check_version(self, ctl):
        """True when the RM answered and agrees with /proc (or told us its version)."""
        try:
            ok, theirs = ctl.check_version(self.driver.version.text if self.driver else None)
        except IoctlError as e:
            self.notes.append(f"{NVIDIACTL} does not answer NVIDIA ioctls ({e.errno_name}): "
                              "not the driver's device node (a replayed tree?); the RM was not queried")
            return False
        if self.driver is None:     # no /proc/driver/nvidia (a container?): the module says which it is
            self.driver = DriverInfo(NV.parse_driver_version(theirs), "unknown", "unknown",
                                     f"(from {NVIDIACTL}: {theirs})")
            self.choose_layouts()
        elif not ok:
            self.reasons.append(
                f"user-space/kernel version mismatch: /proc/driver/nvidia/version says {self.driver.version} but "
                f"the kernel module behind {NVIDIACTL} is {theirs} (the module was replaced under a running system, "
                "or /proc comes from another machine): reload the nvidia modules or reboot")
            return False
        return True

    def ask_the_rm(self, ctl):
        self.rm_checked = True
        cards = ctl.card_info()
        rm = RmClient(ctl)
        gpu_fds = {}
        try:
            build = rm.control(rm.handle, NV.NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2)
            self.driver_build = self.L.ffi.string(build.driverVersionBuffer).decode(errors="replace")
            for card in cards:
                rec = self.device(pci_address(card))
                _from_card(rec, card)
                rec["nodes_checked"] = True
                try:
                    gpu_fds[card.gpu_id] = self.kernel.open(rec["device_node"], O_RDWR)
                except OSError as e:
                    rec["reason"] = _open_reason(rec["device_node"], e, PERMISSION_HINT)
            attached = rm.control(rm.handle, NV.NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS).gpuIds
            attached = {i for i in attached if i != NV.NV0000_CTRL_GPU_INVALID_ID}
            for card in cards:
                rec = self.devices[pci_address(card)]
                if card.gpu_id not in gpu_fds:
                    continue
                if card.gpu_id not in attached:
                    rec["reason"] = f"the RM did not attach GPU 0x{card.gpu_id:x} when {rec['device_node']} was opened"
                    continue
                try:
                    query_gpu(rm, card, rec)
                except (RMError, IoctlError) as e:
                    rec["reason"] = f"the RM refused a query: {e}"
        finally:
            rm.close()
            for fd in gpu_fds.values():
                self.kernel.close(fd)

    def check_uvm(self):
        if not self.kernel.exists(NVIDIA_UVM):
            self.uvm["present"] = False
            self.reasons.append(UVM_MISSING)
            return
        self.uvm["present"] = True
        try:
            uvm = Uvm.open(self.kernel, self.L or _any_layouts())
        except IoctlError as e:
            if e.errno_value != errno.ENOTTY:       # ENOTTY: not the driver's node (a replayed tree)
                self.reasons.append(f"UVM_INITIALIZE on {NVIDIA_UVM} failed: {e}")
            return
        except OSError as e:
            self.reasons.append(_open_reason(NVIDIA_UVM, e, PERMISSION_HINT))
            return
        except RMError as e:
            self.reasons.append(f"{NVIDIA_UVM}: {e}")
            return
        try:
            self.uvm["initialized"] = True
            self.uvm["pageable_mem_access"] = uvm.pageable_mem_access()
        except (RMError, IoctlError) as e:
            self.notes.append(f"{NVIDIA_UVM}: {e}")
        finally:
            uvm.close()

    def report(self):
        devices = sorted(self.devices.values(), key=lambda d: (d["minor"] is None, d["minor"], d["pci_address"]))
        for index, rec in enumerate(devices):
            rec["index"] = index
            if rec["details"] is None:
                _from_specs(rec)
            elif rec["name"] is None and rec["device_id"]:       # no /proc: the RM gives no model name
                known = chips.sku(device_id=int(rec["device_id"], 16))
                rec["name"] = known.model if known else f"NVIDIA device {rec['device_id']}"
            own = rec["reason"]
            if own is None and rec["excluded"]:
                own = "excluded by the driver (NVreg_ExcludedGpus): the module does not drive it"
            if own is None and self.rm_checked and not rec["nodes_checked"]:
                own = "listed in /proc/driver/nvidia/gpus but not by NV_ESC_CARD_INFO: the module does not drive it"
            if own is None and rec["target"] is not None:
                own = chips.unsupported_reason(rec["target"])
            if own is None and rec["target"] is None:
                own = ("the RM reports no SM version" if rec["details"] == "rm" else
                       "unknown board: not in the table of public specifications and the RM was not queried")
            rec["supported"] = rec["target"] in chips.SUPPORTED_TARGETS
            rec["reason"] = own
            rec["usable"] = own is None and not self.reasons
        d = self.driver
        driver = None if d is None else {
            "version": d.version.text, "branch": d.version.major, "flavour": d.flavour, "arch": d.arch,
            "layouts": self.L.branch if self.L else None, "layouts_checked_against": self.L.tag if self.L else None,
            "rm_build_version": self.driver_build}
        reason = "; ".join(self.reasons) or None
        if reason is None and not devices:
            reason = "the nvidia module drives no GPU (/proc/driver/nvidia/gpus is empty)"
        return {"driver": driver, "rm_checked": self.rm_checked, "devices_checked": self.check_devices,
                "uvm": self.uvm if self.check_devices else None, "devices": devices,
                "usable": sum(r["usable"] for r in devices), "reason": reason, "notes": self.notes}


def probe(kernel, check_devices=True):
    """Return the report dict. Raises NoGPU (exit 1) or MalformedInput (exit 2)."""
    return _Probe(kernel, check_devices).run()


def rows(emulate=None):
    """This vendor's rows for `python -m drivers.probe`: {vendor, index, name, arch, clock_mhz,
    usable, reason, details} per GPU. Raises NoGPU or MalformedInput as probe() does."""
    from drivers.emu import make_kernel
    report = probe(make_kernel(emulate) if emulate else RealKernel())
    return [{"vendor": VENDOR, "index": d["index"], "name": d["name"], "arch": d["target"], "clock_mhz": None,
             "usable": d["usable"], "reason": d["reason"] or (None if d["usable"] else report["reason"]),
             "details": d} for d in report["devices"]]


# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------

def _gib(n):
    return f"{n / (1 << 30):.1f} GiB" if n else "?"


def _status(d, report):
    if d["usable"]:
        if not report["devices_checked"]:
            return "supported (device nodes not checked)"
        return "usable" if report["rm_checked"] else "usable (RM not queried)"
    return "not usable"


def format_table(report, source):
    d = report["driver"]
    if d:
        flavour = {OPEN: "open kernel module", PROPRIETARY: "proprietary kernel module"}.get(d["flavour"], d["flavour"])
        layouts = f"branch {d['layouts']} layouts" if d["layouts"] else "no layouts for this branch"
        head = [f"NVIDIA driver {d['version']} ({flavour}, {layouts})"]
    else:
        head = ["NVIDIA driver unknown"]
    head += ["RM queried" if report["rm_checked"] else "RM not queried", source]
    lines = [" · ".join(head)]
    cols = ("GPU", "MINOR", "TARGET", "CHIP", "NAME", "SM", "GPC", "VRAM", "PCI", "DEVICE", "STATUS")
    rows = [cols]
    for g in report["devices"]:
        gpcs = f"{g['gpcs']}/{g['max_gpcs']}" if g["gpcs"] is not None else "?"
        rows.append((str(g["index"]), str(g["minor"]), g["target"] or "?", g["chip"] or "?", g["name"] or "?",
                     str(g["sms"] or "?"), gpcs, _gib(g["vram_bytes"]), g["pci_address"] or "?",
                     (g["device_node"] or "-").rsplit("/", 1)[-1], _status(g, report)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    for g in report["devices"]:
        if g["reason"]:
            lines.append(f"GPU {g['index']} ({g['target'] or '?'}, {g['name']}): {g['reason']}")
        if g["details"] == "specifications":
            lines.append(f"GPU {g['index']}: chip, SMs and VRAM from the board's public specifications "
                         "(the RM was not queried)")
    uvm = report["uvm"]
    if uvm and uvm["present"]:
        state = "initialized" if uvm["initialized"] else "present"
        pageable = {True: "yes", False: "no", None: "?"}[uvm["pageable_mem_access"]]
        lines.append(f"UVM: {uvm['device']} {state}, pageable memory access: {pageable}")
    lines += [f"note: {n}" for n in report["notes"]]
    return "\n".join(lines)


def find_proc_root(path):
    """Accept the directory that replaces /proc, or one holding proc/ (a copy of /proc/driver/nvidia
    made with 'mkdir -p DIR/proc/driver && cp -r /proc/driver/nvidia DIR/proc/driver/')."""
    for candidate in (path, os.path.join(path, "proc")):
        if os.path.isfile(os.path.join(candidate, "driver/nvidia/version")):
            return candidate
    raise MalformedInput(path, None, "no driver/nvidia/version below it (expected a copy of /proc, e.g. "
                         "'mkdir -p DIR/proc/driver && cp -r /proc/driver/nvidia DIR/proc/driver/')")


def _probe(kernel, check_devices, stand_ins):
    return probe(kernel, check_devices=check_devices)       # a stand-in's refusal of ioctls is a note


CLI = VendorProbeCLI(
    vendor=VENDOR, doc=__doc__, probe=_probe, format_table=format_table, no_gpu=NoGPU,
    emulate_help="probe the virtual GPU (sm_86, sm_89, sm_90, or sm_86xN for N GPUs); also GPU_EMULATE",
    tree=CapturedTree("--proc-root", "proc", "/proc", "read /proc/driver/nvidia from a captured tree", find_proc_root),
    input_errors=(NV.UnknownBranch,), no_usable="no usable NVIDIA GPU")


def main(argv=None):
    return CLI.main(argv)


if __name__ == "__main__":
    run(main)
