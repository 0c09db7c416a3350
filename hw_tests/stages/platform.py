"""The device as the kernel describes it (sysfs topology), then opened: /dev/kfd, render node, VM."""
from drivers.amd.topology import TOPOLOGY, read_topology
from hw_tests.runner import check
from hw_tests.units import gib

# The engine clock KFD reports is the maximum compute clock; anything outside this range is a
# topology parsing or firmware-table problem rather than a real card.
CLOCK_MHZ_RANGE = (300, 4000)
MIN_KFD_ABI = (1, 1)


def sysfs(ctx, r):
    """Enumerate the KFD topology and check the node's properties agree with each other"""
    kernel = ctx.kernel
    r.step(f"reading {TOPOLOGY}")
    check(kernel.exists(f"{TOPOLOGY}/nodes"), f"no KFD topology at {kernel.source_path(TOPOLOGY)}/nodes: the amdgpu "
          "driver is not loaded, lacks KFD support (CONFIG_HSA_AMD), or this machine has no AMD GPU; "
          "python -m hw_tests --emulate gfx1100 runs every stage on the built-in virtual GPU")
    topo = ctx.topology = read_topology(kernel)
    gpus = topo.gpus
    r.measure("gpu_nodes", len(gpus))
    r.measure("cpu_nodes", len(topo.cpus))
    check(0 <= ctx.index < len(gpus), f"no GPU with index {ctx.index}: the topology has {len(gpus)} GPU node(s)")
    node = ctx.node = gpus[ctx.index]
    p = node.properties
    r.step(f"node {node.index}: {node.gfx_target} {node.marketing_name}")
    check(node.gfx_target_version > 0, "gfx_target_version is 0: the kernel does not know this GPU's ISA")
    check(node.simd_per_cu > 0, "simd_per_cu is 0")
    check(node.simd_count > 0 and node.simd_count % node.simd_per_cu == 0,
          f"simd_count {node.simd_count} is not a positive multiple of simd_per_cu {node.simd_per_cu}")
    cus = node.compute_units
    arrays, per_array = p.get("array_count", 0), p.get("cu_per_simd_array", 0)
    check(arrays * per_array >= cus, f"array_count {arrays} x cu_per_simd_array {per_array} = {arrays * per_array} "
          f"cannot hold the {cus} compute units simd_count / simd_per_cu gives")
    check(node.wave_size in (32, 64), f"wave_front_size {node.wave_size} is neither 32 nor 64")
    check(node.max_waves_per_simd > 0, "max_waves_per_simd is 0")
    check(node.lds_bytes > 0, "lds_size_in_kb is 0")
    lo, hi = CLOCK_MHZ_RANGE
    check(lo <= node.engine_clock_mhz <= hi, f"max_engine_clk_fcompute {node.engine_clock_mhz} MHz is outside the "
          f"plausible {lo}..{hi} MHz")
    for key, items in (("mem_banks_count", node.mem_banks), ("caches_count", node.caches),
                       ("io_links_count", node.io_links)):
        check(p.get(key) == len(items), f"{key} says {p.get(key)} but the node has {len(items)} {key[:-6]} directories")
    check(node.mem_banks, "the GPU node has no memory banks")
    for i, bank in enumerate(node.mem_banks):
        check(bank.size_in_bytes > 0, f"mem_banks/{i} ({bank.heap}) has size_in_bytes 0")
        check(bank.properties.get("width", 0) > 0, f"mem_banks/{i} ({bank.heap}) has no bus width")
    render = node.render_node
    check(render is not None, "the node has no drm_render_minor")
    if ctx.device_nodes:
        check(kernel.exists(render), f"render node {render} does not exist")
    else:
        r.note(f"{render} not checked: the topology is a capture replayed without its /dev")
    if node.unsupported_reason:
        r.note(f"this stack cannot run compute on the node: {node.unsupported_reason}")
    bank = node.mem_banks[0]
    for key, value, unit in (("compute_units", cus, ""), ("simd_count", node.simd_count, ""),
                             ("wave_size", node.wave_size, "lanes"), ("engine_clock_mhz", node.engine_clock_mhz, "MHz"),
                             ("vram_bytes", node.vram_bytes, "B"), ("lds_bytes", node.lds_bytes, "B"),
                             ("mem_width_bits", bank.properties.get("width", 0), "bit"),
                             ("mem_clk_max_mhz", bank.properties.get("mem_clk_max", 0), "MHz")):
        r.measure(key, value, unit)
    r.summary = (f"{node.gfx_target} {node.marketing_name}: {cus} CUs ({node.simd_count} SIMDs), wave{node.wave_size}, "
                 f"{node.engine_clock_mhz} MHz, {gib(node.vram_bytes)} VRAM, {render.rsplit('/', 1)[-1]}")


def open_device(ctx, r):
    """Open /dev/kfd and the render node, acquire the GPU VM, create the queues"""
    reason = ctx.node.unsupported_reason
    check(reason is None, f"this stack cannot run compute on {ctx.node.gfx_target}: {reason}")
    r.step("opening /dev/kfd, the render node and the queues")
    dev = ctx.open_device()
    version = dev.kfd.version
    ctx.shared["kfd_version"] = "%d.%d" % version
    r.measure("kfd_abi", ctx.shared["kfd_version"])
    check(version >= MIN_KFD_ABI, f"KFD ABI {version[0]}.{version[1]} is older than "
          f"{MIN_KFD_ABI[0]}.{MIN_KFD_ABI[1]}")
    check(dev.gpu_id == ctx.node.gpu_id, f"opened gpu_id {dev.gpu_id:#x}, the topology node says {ctx.node.gpu_id:#x}")
    r.step("AVAILABLE_MEMORY")
    avail = r.measure("available_vram_bytes", dev.kfd.available_memory(dev.gpu_id), "B")
    check(0 < avail <= ctx.node.vram_bytes, f"KFD reports {avail} bytes of VRAM available of {ctx.node.vram_bytes}")
    copies = type(dev.copier).__name__
    r.measure("compute_queue", dev.compute.name)
    r.measure("copy_engine", "SDMA" if copies == "SDMACopier" else "CPU")
    r.summary = (f"KFD {version[0]}.{version[1]}, gpu_id {dev.gpu_id:#x}, {dev.compute.name}, "
                 f"{r.numbers['copy_engine']['value']} copies, {gib(avail)} VRAM free (PCI {ctx.node.pci_address})")


def register(reg):
    reg.add("sysfs", sysfs)
    reg.add("open", open_device, depends=["sysfs"])
