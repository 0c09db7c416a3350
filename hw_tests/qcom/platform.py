"""The GPU as KGSL describes it (sysfs), then opened: /dev/kgsl-3d0, DEVICE_INFO, a context."""
from drivers.errors import MalformedInput
from drivers.qcom import chips
from drivers.qcom.kgsl import KGSL_DEVICE
from drivers.qcom.sysfs import KGSL_SYSFS, read_kgsl_sysfs
from hw_tests.runner import check

CLOCK_MHZ_RANGE = (100, 2000)


def kgsl(ctx, r):
    """Read KGSL's sysfs (model, clocks, power levels) and check it agrees with itself"""
    kernel = ctx.kernel
    r.step(f"reading {KGSL_SYSFS}")
    check(kernel.exists(KGSL_SYSFS), f"no {KGSL_SYSFS}: the kernel does not drive an Adreno with KGSL (not a "
          "Snapdragon phone, or one whose kernel uses drm/msm); --emulate a630 tests the virtual one")
    try:
        s = read_kgsl_sysfs(kernel)
    except MalformedInput as e:
        raise AssertionError(str(e)) from None
    ctx.shared["sysfs"] = s
    chip_id = chips.chip_id_from_gpu_model(s.gpu_model)
    r.measure("gpu_model", s.gpu_model)
    if s.max_clock_mhz is not None:
        lo, hi = CLOCK_MHZ_RANGE
        check(lo <= s.max_clock_mhz <= hi, f"max_clock_mhz {s.max_clock_mhz} is outside {lo}..{hi} MHz")
        r.measure("max_clock_mhz", s.max_clock_mhz, "MHz")
    if s.freq_table_mhz:
        check(s.freq_table_mhz == sorted(s.freq_table_mhz, reverse=True),
              f"freq_table_mhz {s.freq_table_mhz} is not fastest first")
        check(s.max_clock_mhz in (None, s.freq_table_mhz[0]),
              f"max_clock_mhz {s.max_clock_mhz} is not the first power level {s.freq_table_mhz[0]}")
    if s.num_pwrlevels is not None and s.freq_table_mhz:
        check(s.num_pwrlevels == len(s.freq_table_mhz),
              f"num_pwrlevels {s.num_pwrlevels} but {len(s.freq_table_mhz)} frequencies")
    chip = chips.lookup(chip_id) if chip_id is not None else None
    r.summary = f"{s.gpu_model} ({chip.name if chip else 'unknown chip'}) on {s.soc or 'an unknown SoC'}, " \
                f"{len(s.freq_table_mhz)} power levels up to {s.max_clock_mhz} MHz"


def open_device(ctx, r):
    """Open /dev/kgsl-3d0, read DEVICE_INFO, create a compute context, map the memstore"""
    r.step(f"opening {KGSL_DEVICE}")
    dev = ctx.open_device()
    info = dev.info
    chip = chips.lookup(info.chip_id)
    r.measure("chip_id", f"0x{info.chip_id:08x}")
    r.measure("gmem_bytes", info.gmem_bytes, "B")
    r.measure("kgsl_version", info.kgsl_version)
    check(info.mmu_enabled, "KGSL reports the GPU MMU disabled: user memory could not be isolated")
    if chip.gmem_bytes is not None:
        check(info.gmem_bytes == chip.gmem_bytes, f"GMEM is {info.gmem_bytes} bytes; the {chip.name} has "
              f"{chip.gmem_bytes}")
    sysfs = ctx.shared.get("sysfs")
    if sysfs is not None:
        model = chips.chip_id_from_gpu_model(sysfs.gpu_model)
        check(model is None or model >> 8 == info.chip_id >> 8,
              f"sysfs says {sysfs.gpu_model}, DEVICE_INFO chip id 0x{info.chip_id:08x}")
    check(dev.timeline.memstore is not None or not ctx.emulated, "the virtual KGSL must offer its memstore")
    r.measure("fault_reports", dev.fault_info)
    if not dev.fault_info:
        r.note("this KGSL keeps no KGSL_CONTEXT_FAULT_INFO: page faults surface as GPU resets without an address")
    r.summary = f"{chip.name} chip 0x{info.chip_id:08x}, {info.gmem_bytes >> 10} KiB GMEM, KGSL " \
                f"{info.kgsl_version}, context {dev.context_id}" + (", fault reports" if dev.fault_info else "")


def register(reg):
    reg.add("kgsl", kgsl)
    reg.add("open", open_device, depends=["kgsl"])
