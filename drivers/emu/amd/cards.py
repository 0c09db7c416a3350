"""KFD topology of real cards, from their public specifications, rendered as sysfs files.

The virtual gfx1100 serves the RX 7900 XTX entry; scripts/gen_topology_fixtures.py writes every
entry to tests/fixtures/topology/ so the probe is tested on the shapes real machines have (dGPU,
APU with its CPU node, multi-XCC accelerator, an older RDNA2 card).  Property names and their
order follow amdkfd's node_show(); values are decimal as the kernel prints them.
"""
from dataclasses import dataclass, field

MiB, GiB = 1 << 20, 1 << 30

NODE_KEYS = (
    "cpu_cores_count", "simd_count", "mem_banks_count", "caches_count", "io_links_count",
    "p2p_links_count", "cpu_core_id_base", "simd_id_base", "max_waves_per_simd", "lds_size_in_kb",
    "gds_size_in_kb", "num_gws", "wave_front_size", "array_count", "simd_arrays_per_engine",
    "cu_per_simd_array", "simd_per_cu", "max_slots_scratch_cu", "gfx_target_version", "vendor_id",
    "device_id", "location_id", "domain", "drm_render_minor", "hive_id", "num_sdma_engines",
    "num_sdma_xgmi_engines", "num_sdma_queues_per_engine", "num_cp_queues", "max_engine_clk_fcompute",
    "local_mem_size", "fw_version", "capability", "debug_prop", "sdma_fw_version", "unique_id",
    "num_xcc", "max_engine_clk_ccompute",
)


@dataclass
class Card:
    """What differs between GPUs; everything else in a node's properties is derived."""
    key: str                    # fixture directory name
    gfx_target_version: int
    device_id: int
    compute_units: int
    simd_per_cu: int
    wave_front_size: int
    max_waves_per_simd: int
    array_count: int            # shader arrays in the whole device
    simd_arrays_per_engine: int
    clock_mhz: int
    vram_bytes: int
    vram_public: bool           # resizable BAR / APU: all of VRAM host-visible
    mem_width: int
    mem_clk_mhz: int
    sdma_engines: int
    location_id: int
    num_xcc: int = 1
    sdma_xgmi_engines: int = 0
    num_cp_queues: int = 8
    lds_kb: int = 64
    l2_kb: int = 4096
    l3_kb: int = 0
    cpu: dict = field(default_factory=dict)   # the host's CPU node (the APU itself on an APU)
    ip_versions: dict = field(default_factory=dict)
    asic_name: str = "ip discovery"   # amdgpu_asic_name[]: every IP-discovery part says this

    @property
    def cu_per_simd_array(self):
        return -(-self.compute_units // self.array_count)


CARDS = {
    # Navi 31: 96 CUs in 6 SEs x 2 SAs, 2482 MHz max compute clock, 24 GiB GDDR6 384-bit @ 20 Gbps.
    "rx7900xtx": Card("rx7900xtx", 110000, 0x744C, 96, 2, 32, 16, 12, 2, 2482, 24560 * MiB, True,
                      384, 1250, 2, 0x0300, l2_kb=6144, l3_kb=98304,
                      ip_versions={"GC": (11, 0, 0), "SDMA0": (6, 0, 0), "SDMA1": (6, 0, 0),
                                   "NBIO": (4, 3, 0), "MMHUB": (3, 0, 0)}),
    # Navi 33: 32 CUs in 2 SEs x 2 SAs, 8 GiB GDDR6 128-bit.
    "rx7600": Card("rx7600", 110002, 0x7480, 32, 2, 32, 16, 4, 2, 2655, 8176 * MiB, True,
                   128, 1125, 2, 0x0300, l2_kb=2048, l3_kb=32768),
    # Phoenix APU: Radeon 780M, 12 CUs (1 SE x 2 SAs), UMA carve-out of 512 MiB, CPU node 0.
    "apu780m": Card("apu780m", 110003, 0x15BF, 12, 2, 32, 16, 2, 2, 2700, 512 * MiB, True,
                    64, 2800, 1, 0xC300, l2_kb=2048,
                    cpu={"name": "AMD Ryzen 7 7840U w/ Radeon 780M Graphics", "cores": 16,
                         "memory": 32 * GiB, "clock_mhz": 5100}),
    # MI300X in SPX mode: one node of 8 XCDs x 38 CUs, wave64, 192 GiB HBM3 8192-bit.
    "mi300x": Card("mi300x", 90402, 0x74A1, 304, 4, 64, 8, 32, 1, 2100, 192 * GiB, True,
                   8192, 1300, 2, 0x0C00, num_xcc=8, sdma_xgmi_engines=14, num_cp_queues=24,
                   l2_kb=4096, l3_kb=262144,
                   cpu={"name": "AMD EPYC 9654 96-Core Processor", "cores": 192, "memory": 1536 * GiB,
                        "clock_mhz": 3700}),
    # Navi 21: 80 CUs in 4 SEs x 2 SAs, 16 GiB GDDR6 256-bit, no resizable BAR on this machine.
    "rx6900xt": Card("rx6900xt", 100300, 0x73BF, 80, 2, 32, 16, 8, 2, 2250, 16368 * MiB, False,
                     256, 1000, 4, 0x0300, l2_kb=4096, l3_kb=131072, asic_name="sienna_cichlid"),
}


def _props_text(props):
    return "".join(f"{k} {v}\n" for k, v in props.items())


def _gpu_properties(card, gpu_node, render_minor, caches, links):
    values = {
        "cpu_cores_count": 0,
        "simd_count": card.compute_units * card.simd_per_cu,
        "mem_banks_count": 1,
        "caches_count": caches,
        "io_links_count": links,
        "p2p_links_count": 0,
        "cpu_core_id_base": 0,
        "simd_id_base": _simd_id_base(gpu_node),
        "max_waves_per_simd": card.max_waves_per_simd,
        "lds_size_in_kb": card.lds_kb,
        "gds_size_in_kb": 0,
        "num_gws": 64 if card.gfx_target_version >= 100000 else 0,
        "wave_front_size": card.wave_front_size,
        "array_count": card.array_count,
        "simd_arrays_per_engine": card.simd_arrays_per_engine,
        "cu_per_simd_array": card.cu_per_simd_array,
        "simd_per_cu": card.simd_per_cu,
        "max_slots_scratch_cu": 32,
        "gfx_target_version": card.gfx_target_version,
        "vendor_id": 0x1002,
        "device_id": card.device_id,
        "location_id": card.location_id,
        "domain": 0,
        "drm_render_minor": render_minor,
        "hive_id": 0x5AE6D2C1E3B84F27 if card.sdma_xgmi_engines else 0,
        "num_sdma_engines": card.sdma_engines,
        "num_sdma_xgmi_engines": card.sdma_xgmi_engines,
        "num_sdma_queues_per_engine": 6 if card.gfx_target_version >= 110000 else 8,
        "num_cp_queues": card.num_cp_queues,
        "max_engine_clk_fcompute": card.clock_mhz,
        "local_mem_size": 0,
        "fw_version": 2280 if card.gfx_target_version >= 110000 else 115,
        "capability": 0x2A2E8280 if card.gfx_target_version >= 110000 else 0x28282280,
        "debug_prop": 0x4A6,
        "sdma_fw_version": 21,
        "unique_id": 0x3AB8C91F22D04E61 + gpu_node,
        "num_xcc": card.num_xcc,
        "max_engine_clk_ccompute": card.cpu.get("clock_mhz", 4200),
    }
    return {k: values[k] for k in NODE_KEYS}


def _cpu_properties(cores, clock_mhz, links):
    values = dict.fromkeys(NODE_KEYS, 0)
    values.update(cpu_cores_count=cores, mem_banks_count=1, caches_count=0, io_links_count=links,
                  max_engine_clk_ccompute=clock_mhz, num_xcc=0)
    return values


MAX_GPUS = 8                # PCI buses 0x03, 0x23 ... 0xE3: one root port per GPU
PEER_LINK_NON_COHERENT = 1 << 1   # CRAT_IOLINK_FLAGS_NON_COHERENT


def gpu_location_id(card, gpu_node):
    """PCI (bus << 8 | devfn) of the ``gpu_node``-th GPU (1-based): each on its own bus."""
    return card.location_id + 0x2000 * (gpu_node - 1)


def gpu_id_for(card, gpu_node):
    """amdkfd hashes the PCI location into a 16-bit gpu_id; here a stable, distinct stand-in."""
    return (0xD1DA + (card.device_id & 0xFF) + 0x3A5 * (gpu_node - 1)) & 0xFFFF


def render_topology(card, render_minor=128, cpu_name="AMD Ryzen 9 7950X 16-Core Processor",
                    cpu_cores=32, system_memory=64 * GiB, gpus=1):
    """The sysfs files of one machine with ``gpus`` of ``card``: {absolute path: text}.

    GPU k (1-based) is node k with render minor ``render_minor + k - 1``.  Every GPU has one
    PCIe io_link to the CPU node; two GPUs on PCIe are not io_links of each other but p2p_links
    (kfd_dev_create_p2p_links), when each can reach the other's VRAM through a large BAR.
    """
    if not 1 <= gpus <= MAX_GPUS:
        raise ValueError(f"a machine holds 1 to {MAX_GPUS} GPUs, not {gpus}")
    root = "/sys/devices/virtual/kfd/kfd/topology"
    files = {f"{root}/generation_id": "1\n",
             f"{root}/system_properties": _props_text({"platform_oem": 0x414D44, "platform_id": 0x4D4F4F42,
                                                        "platform_rev": 1})}
    cpu = card.cpu or {"name": cpu_name, "cores": cpu_cores, "memory": system_memory, "clock_mhz": 4200}
    cpu_dir = f"{root}/nodes/0"
    files[f"{cpu_dir}/gpu_id"] = "0\n"
    files[f"{cpu_dir}/name"] = cpu["name"] + "\n"
    files[f"{cpu_dir}/properties"] = _props_text(_cpu_properties(cpu["cores"], cpu["clock_mhz"], gpus))
    files[f"{cpu_dir}/mem_banks/0/properties"] = _props_text(
        {"heap_type": 0, "size_in_bytes": cpu["memory"], "flags": 0, "width": 64, "mem_clk_max": 2400})
    for i in range(gpus):
        files[f"{cpu_dir}/io_links/{i}/properties"] = _io_link_text(0, i + 1)

    peer_accessible = gpus > 1 and card.vram_public and not card.cpu    # amdgpu_device_is_peer_accessible
    for node in range(1, gpus + 1):
        gpu_dir = f"{root}/nodes/{node}"
        peers = [p for p in range(1, gpus + 1) if p != node] if peer_accessible else []
        caches = _gpu_caches(card, node)
        props = _gpu_properties(card, node, render_minor + node - 1, len(caches), 1)
        props.update(location_id=gpu_location_id(card, node), p2p_links_count=len(peers))
        files[f"{gpu_dir}/gpu_id"] = f"{gpu_id_for(card, node)}\n"
        files[f"{gpu_dir}/name"] = card.asic_name + "\n"
        files[f"{gpu_dir}/properties"] = _props_text(props)
        files[f"{gpu_dir}/mem_banks/0/properties"] = _props_text(
            {"heap_type": 1 if card.vram_public else 2, "size_in_bytes": card.vram_bytes, "flags": 0,
             "width": card.mem_width, "mem_clk_max": card.mem_clk_mhz})
        for i, cache in enumerate(caches):
            files[f"{gpu_dir}/caches/{i}/properties"] = _props_text(cache)
        files[f"{gpu_dir}/io_links/0/properties"] = _io_link_text(node, 0)
        for i, peer in enumerate(peers):
            files[f"{gpu_dir}/p2p_links/{i}/properties"] = _p2p_link_text(node, peer)
    return files


def _simd_id_base(gpu_node):
    return 0x80001000 + 0x10 * (gpu_node - 1)


def _gpu_caches(card, gpu_node):
    """One entry per cache level (the kernel lists one per CU group; the shape is what matters)."""
    levels = [(1, 16, 128), (2, card.l2_kb, 128)] + ([(3, card.l3_kb, 64)] if card.l3_kb else [])
    return [{"processor_id_low": _simd_id_base(gpu_node), "level": level, "size": size, "cache_line_size": line,
             "cache_lines_per_tag": 1, "association": 16, "latency": 1, "type": 5, "sibling_map": 1}
            for level, size, line in levels]


def _io_link(node_from, node_to):
    return {"type": 2, "version_major": 0, "version_minor": 0, "node_from": node_from,
            "node_to": node_to, "weight": 20, "min_latency": 0, "max_latency": 0,
            "min_bandwidth": 312, "max_bandwidth": 31508, "recommended_transfer_size": 0, "flags": 1}


def _io_link_text(node_from, node_to):
    return _props_text(_io_link(node_from, node_to))


def _p2p_link_text(node_from, node_to):
    """kfd_add_peer_prop: the GPU's link to the CPU, with both GPUs' PCIe hops added up."""
    link, back = _io_link(node_from, 0), _io_link(node_to, 0)
    link.update(node_to=node_to, weight=link["weight"] + back["weight"],
                min_bandwidth=min(link["min_bandwidth"], back["min_bandwidth"]),
                max_bandwidth=min(link["max_bandwidth"], back["max_bandwidth"]),
                flags=link["flags"] | PEER_LINK_NON_COHERENT)
    return _props_text(link)


def render_ip_discovery(card, render_minor=128):
    """/sys/class/drm/renderD*/device/ip_discovery versions the runtime reads (GC, SDMA...)."""
    base = f"/sys/class/drm/renderD{render_minor}/device/ip_discovery/die/0"
    files = {}
    for ip, (major, minor, rev) in card.ip_versions.items():
        for name, value in (("major", major), ("minor", minor), ("revision", rev)):
            files[f"{base}/{ip}/0/{name}"] = f"{value}\n"
    return files
