"""The KFD topology in sysfs, parsed into typed objects (what rocminfo ultimately reads).

Layout (drivers/gpu/drm/amd/amdkfd/kfd_topology.c, libhsakmt topology.c):

    /sys/devices/virtual/kfd/kfd/topology/
        generation_id, system_properties
        nodes/N/{gpu_id, name, properties}
        nodes/N/mem_banks/M/properties, caches/C/properties, io_links/L/properties

``properties`` files hold one ``key value`` pair per line, values in decimal.  A CPU node has
gpu_id 0.  Everything is read through the kernel seam, so a captured tree or the virtual GPU's
sysfs parse exactly like the live one.  The kernel prints every value unsigned (%u, %llu):
anything but ASCII digits (a sign, a fullwidth or superscript digit), a value past 64 bits, a
directory where a file belongs or the reverse, a FIFO or a device file is MalformedInput
naming the file (and line).
"""
import re
from dataclasses import dataclass, field

from drivers.errors import MalformedInput

_DIGITS = re.compile(r"[0-9]{1,20}")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
U64_MAX = (1 << 64) - 1

TOPOLOGY = "/sys/devices/virtual/kfd/kfd/topology"

# HSA_HEAPTYPE_* (hsakmttypes.h): the kind of memory a mem_banks entry describes.
HEAP_SYSTEM, HEAP_FB_PUBLIC, HEAP_FB_PRIVATE, HEAP_GPU_GDS, HEAP_GPU_LDS, HEAP_GPU_SCRATCH, \
    HEAP_DEVICE_SVM, HEAP_MMIO_REMAP = range(8)
HEAP_NAMES = {HEAP_SYSTEM: "system", HEAP_FB_PUBLIC: "fb_public", HEAP_FB_PRIVATE: "fb_private",
              HEAP_GPU_GDS: "gds", HEAP_GPU_LDS: "lds", HEAP_GPU_SCRATCH: "scratch",
              HEAP_DEVICE_SVM: "device_svm", HEAP_MMIO_REMAP: "mmio_remap"}

# PCI device id -> marketing names, split by compute-unit count where one die ships as several
# products (a 7900 XTX and a 7900 XT are both 0x744C).  Public launch specifications.
MARKETING_NAMES = {
    0x744C: {96: "Radeon RX 7900 XTX", 84: "Radeon RX 7900 XT", 80: "Radeon RX 7900 GRE"},
    0x7448: {96: "Radeon Pro W7900"},
    0x745E: {70: "Radeon Pro W7800"},
    0x747E: {60: "Radeon RX 7800 XT", 54: "Radeon RX 7700 XT"},
    0x7480: {32: "Radeon RX 7600 / 7600 XT", 28: "Radeon RX 7600M"},
    0x15BF: {12: "Radeon 780M", 8: "Radeon 760M"},
    0x1900: {16: "Radeon 890M", 12: "Radeon 880M"},
    0x150E: {16: "Radeon 890M", 12: "Radeon 880M"},
    0x7550: {64: "Radeon RX 9070 XT", 56: "Radeon RX 9070"},
    0x74A1: {304: "Instinct MI300X"},
    0x74A0: {228: "Instinct MI300A"},
    0x74A5: {304: "Instinct MI325X"},
    0x740C: {110: "Instinct MI250X (one GCD)", 104: "Instinct MI250 (one GCD)"},
    0x740F: {104: "Instinct MI210"},
    0x738C: {120: "Instinct MI100"},
    0x73BF: {80: "Radeon RX 6900 XT", 72: "Radeon RX 6800 XT", 60: "Radeon RX 6800"},
    0x73AF: {80: "Radeon RX 6900 XT"},
    0x73DF: {40: "Radeon RX 6700 XT", 36: "Radeon RX 6700"},
}

# Targets this stack can run compute on: an assembler, a simulator and queue code exist for them.
SUPPORTED_FAMILIES = {"gfx11": "RDNA3"}
FAMILY_NAMES = {"gfx9": "GCN/CDNA", "gfx10": "RDNA1/RDNA2", "gfx11": "RDNA3", "gfx12": "RDNA4"}


def gfx_target_name(version):
    """gfx_target_version (major*10000 + minor*100 + stepping) -> LLVM target name."""
    major, minor, stepping = version // 10000, version // 100 % 100, version % 100
    return f"gfx{major}{minor:x}{stepping:x}"


def pci_address(domain, location_id):
    """KFD location_id is (bus << 8) | devfn, as in the PCI bus/device/function triple."""
    return f"{domain:04x}:{location_id >> 8 & 0xff:02x}:{location_id >> 3 & 0x1f:02x}.{location_id & 7:x}"


def marketing_name(device_id, compute_units):
    names = MARKETING_NAMES.get(device_id)
    if not names:
        return f"unknown (0x{device_id:04x})"
    return names.get(compute_units) or " / ".join(dict.fromkeys(names.values()))


def parse_properties(kernel, path):
    """Read a sysfs ``properties`` file into an ordered {key: int}; bad lines name file and line."""
    props = {}
    text, path = read_file(kernel, path), kernel.source_path(path)
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise MalformedInput(path, lineno, f"expected 'key value', got {line.strip()!r}")
        key, value = parts
        if not _KEY.fullmatch(key):
            raise MalformedInput(path, lineno, f"key {key[:40]!r} is not a property name")
        props[key] = _decimal(value, path, lineno, f"value of {key!r} is not a decimal integer: {value[:40]!r}")
    return props


def _decimal(text, path, line, message):
    if not _DIGITS.fullmatch(text) or int(text) > U64_MAX:
        raise MalformedInput(path, line, f"{message} (the kernel prints unsigned values: ASCII digits, at most "
                                         "64 bits)")
    return int(text)


def read_file(kernel, path):
    try:
        return kernel.read_text(path)
    except FileNotFoundError:
        raise MalformedInput(kernel.source_path(path), None, "missing (the topology tree is incomplete)") from None
    except UnicodeDecodeError:
        raise MalformedInput(kernel.source_path(path), None, "not a text file (not UTF-8)") from None
    except OSError as e:
        raise MalformedInput(kernel.source_path(path), None, f"cannot be read as a sysfs file: "
                                                             f"{e.strerror or e}") from None


def read_int(kernel, path):
    text = read_file(kernel, path).strip()
    return _decimal(text, kernel.source_path(path), 1, f"expected a decimal integer, got {text[:40]!r}")


@dataclass
class MemBank:
    heap_type: int
    size_in_bytes: int
    properties: dict

    @property
    def heap(self):
        return HEAP_NAMES.get(self.heap_type, f"heap_type {self.heap_type}")


@dataclass
class Cache:
    level: int
    size_kb: int
    properties: dict


@dataclass
class IoLink:
    node_from: int
    node_to: int
    properties: dict


@dataclass
class Node:
    """One KFD topology node: a CPU (gpu_id 0) or a GPU agent."""
    index: int
    gpu_id: int
    name: str
    properties: dict
    mem_banks: list = field(default_factory=list)
    caches: list = field(default_factory=list)
    io_links: list = field(default_factory=list)

    def prop(self, key, default=0):
        return self.properties.get(key, default)

    @property
    def is_gpu(self):
        return self.gpu_id != 0

    @property
    def gfx_target_version(self):
        return self.prop("gfx_target_version")

    @property
    def gfx_target(self):
        return gfx_target_name(self.gfx_target_version) if self.gfx_target_version else None

    @property
    def family(self):
        target = self.gfx_target or ""
        return target[:-2] if target else None       # gfx1100 -> gfx11, gfx942 -> gfx9

    @property
    def vendor_id(self):
        return self.prop("vendor_id")

    @property
    def device_id(self):
        return self.prop("device_id")

    @property
    def simd_count(self):
        return self.prop("simd_count")

    @property
    def simd_per_cu(self):
        return self.prop("simd_per_cu")

    @property
    def compute_units(self):
        return self.simd_count // self.simd_per_cu if self.simd_per_cu else 0

    @property
    def num_xcc(self):
        return self.prop("num_xcc", 1) or 1

    @property
    def wave_size(self):
        return self.prop("wave_front_size")

    @property
    def max_waves_per_simd(self):
        return self.prop("max_waves_per_simd")

    @property
    def max_waves(self):
        return self.simd_count * self.max_waves_per_simd

    @property
    def lds_bytes(self):
        return self.prop("lds_size_in_kb") * 1024

    @property
    def engine_clock_mhz(self):
        return self.prop("max_engine_clk_fcompute")

    @property
    def sdma_engines(self):
        return self.prop("num_sdma_engines") + self.prop("num_sdma_xgmi_engines")

    @property
    def vram_bytes(self):
        return sum(b.size_in_bytes for b in self.mem_banks if b.heap_type in (HEAP_FB_PUBLIC, HEAP_FB_PRIVATE))

    @property
    def visible_vram_bytes(self):
        """Host-visible VRAM: the FB_PUBLIC banks (the whole VRAM with a resizable BAR)."""
        return sum(b.size_in_bytes for b in self.mem_banks if b.heap_type == HEAP_FB_PUBLIC)

    @property
    def system_memory_bytes(self):
        return sum(b.size_in_bytes for b in self.mem_banks if b.heap_type == HEAP_SYSTEM)

    @property
    def drm_render_minor(self):
        return self.prop("drm_render_minor", None)

    @property
    def render_node(self):
        minor = self.drm_render_minor
        return f"/dev/dri/renderD{minor}" if minor is not None and self.is_gpu else None

    @property
    def pci_address(self):
        return pci_address(self.prop("domain"), self.prop("location_id"))

    @property
    def marketing_name(self):
        if not self.is_gpu:
            return self.name or "CPU"
        return marketing_name(self.device_id, self.compute_units)

    @property
    def unsupported_reason(self):
        """None when this stack can run compute on the node; otherwise a one-line reason."""
        if not self.is_gpu:
            return "a CPU node"
        if self.vendor_id != 0x1002:
            return f"vendor 0x{self.vendor_id:04x} is not AMD"
        if not self.gfx_target_version:
            return "the node reports no gfx_target_version"
        if self.family in SUPPORTED_FAMILIES:
            if self.wave_size != 32:
                return f"{self.gfx_target} reports wave size {self.wave_size}; RDNA3 compute here is wave32"
            return None
        known = FAMILY_NAMES.get(self.family, "unknown family")
        wanted = ", ".join(f"{f}xx ({n})" for f, n in SUPPORTED_FAMILIES.items())
        return f"{self.gfx_target} ({known}) is not supported for compute yet; supported: {wanted}"

    @property
    def supported(self):
        return self.unsupported_reason is None


@dataclass
class Topology:
    generation_id: int
    system_properties: dict
    nodes: list

    @property
    def gpus(self):
        return [n for n in self.nodes if n.is_gpu]

    @property
    def cpus(self):
        return [n for n in self.nodes if not n.is_gpu]


def _numbered(kernel, path):
    """Entries of a directory of numbered subdirectories (ASCII digits), in numeric order."""
    if not kernel.exists(path):
        return []
    try:
        names = kernel.listdir(path)
    except OSError as e:
        raise MalformedInput(kernel.source_path(path), None, f"cannot be listed as a directory: "
                                                             f"{e.strerror or e}") from None
    bad = [n for n in names if not _DIGITS.fullmatch(n)]
    if bad:
        raise MalformedInput(kernel.source_path(path), None,
                             f"unexpected entry {bad[0]!r} (expected numbered subdirectories)")
    return sorted(int(n) for n in names)


def read_node(kernel, root, index):
    base = f"{root}/nodes/{index}"
    props = parse_properties(kernel, f"{base}/properties")
    name = read_file(kernel, f"{base}/name").strip() if kernel.exists(f"{base}/name") else ""
    node = Node(index, read_int(kernel, f"{base}/gpu_id"), name, props)
    for m in _numbered(kernel, f"{base}/mem_banks"):
        p = parse_properties(kernel, f"{base}/mem_banks/{m}/properties")
        node.mem_banks.append(MemBank(p.get("heap_type", 0), p.get("size_in_bytes", 0), p))
    for c in _numbered(kernel, f"{base}/caches"):
        p = parse_properties(kernel, f"{base}/caches/{c}/properties")
        node.caches.append(Cache(p.get("level", 0), p.get("size", 0), p))
    for link in _numbered(kernel, f"{base}/io_links"):
        p = parse_properties(kernel, f"{base}/io_links/{link}/properties")
        node.io_links.append(IoLink(p.get("node_from", index), p.get("node_to", 0), p))
    return node


def read_topology(kernel, root=TOPOLOGY):
    """Parse the whole topology tree. Raises MalformedInput naming the file and line."""
    system = parse_properties(kernel, f"{root}/system_properties") \
        if kernel.exists(f"{root}/system_properties") else {}
    generation = read_int(kernel, f"{root}/generation_id") if kernel.exists(f"{root}/generation_id") else 0
    nodes = [read_node(kernel, root, i) for i in _numbered(kernel, f"{root}/nodes")]
    return Topology(generation, system, nodes)
