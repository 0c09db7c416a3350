"""The driver as /proc/driver/nvidia describes it, then the GPU opened through the RM and UVM."""
from drivers.errors import MalformedInput
from drivers.nv import chips, procfs
from hw_tests.runner import check


def procfs_stage(ctx, r):
    """Read /proc/driver/nvidia (module version, GPUs) and check this stack has the branch's layouts"""
    import nv_ioctl as NV
    kernel = ctx.kernel
    r.step(f"reading {procfs.VERSION_FILE}")
    check(kernel.exists(procfs.VERSION_FILE), f"no {procfs.VERSION_FILE}: the NVIDIA kernel module is not loaded; "
          "--emulate sm_90 tests the virtual GPU")
    try:
        info = procfs.read_version(kernel)
        gpus = procfs.read_gpus(kernel)
    except MalformedInput as e:
        raise AssertionError(str(e)) from None
    ctx.shared["nvidia_driver"] = info.version.text
    r.measure("driver", info.version.text)
    r.measure("flavour", info.flavour)
    r.measure("gpus", len(gpus))
    check(info.branch in NV.BRANCHES, f"driver {info.version.text}: branch {info.branch} has no layouts here "
          f"(known: {', '.join(map(str, NV.BRANCHES))})")
    check(info.flavour == procfs.OPEN or ctx.emulated, f"{info.line}: the proprietary module; UVM external "
          "allocations and the usermode doorbell are used as the open module offers them")
    check(gpus, f"{procfs.GPUS_DIR} lists no GPU")
    r.summary = f"{info.flavour} module {info.version.text} ({info.arch}), " + \
        ", ".join(f"{g.model} at {g.pci_address}" for g in gpus)


def open_device(ctx, r):
    """Open the GPU: RM client, device, subdevice, classes, usermode page, VA space, channels, debugger"""
    r.step("opening /dev/nvidiactl, /dev/nvidia-uvm and the GPU")
    dev = ctx.open_device()
    r.measure("target", dev.target)
    r.measure("sms", dev.sms)
    r.measure("sm_version", f"0x{dev.sm_version:x}")
    for what, cls in (("compute", dev.compute_class), ("copy", dev.copy_class), ("gpfifo", dev.gpfifo_class),
                      ("usermode", dev.usermode_class)):
        r.measure(f"{what}_class", f"0x{cls:04x}")
    check(dev.target in chips.SUPPORTED_TARGETS, f"{dev.target} is not a target this stack supports")
    if dev.sku is not None:
        check(dev.sku.target == dev.target, f"PCI id 0x{dev.pci_device_id:04x} is a {dev.sku.model} "
              f"({dev.sku.target}); the RM reports {dev.target}")
        check(dev.sms == dev.sku.sms or ctx.emulated, f"the RM reports {dev.sms} SMs; a {dev.sku.model} has "
              f"{dev.sku.sms}")
    else:
        r.note(f"PCI device id 0x{dev.pci_device_id:04x} is not among the boards this stack knows")
    name = dev.sku.model if dev.sku else f"PCI 0x{dev.pci_device_id:04x}"
    r.summary = f"{name}: {dev.target} ({dev.arch}), {dev.sms} SMs, compute 0x{dev.compute_class:04x}, copy " \
                f"0x{dev.copy_class:04x}, GPFIFO 0x{dev.gpfifo_class:04x}"


def register(reg):
    reg.add("procfs", procfs_stage, title="/proc/driver/nvidia: module version and GPUs")
    reg.add("open", open_device, depends=["procfs"])
