"""AMDHSA code object metadata (the NT_AMDGPU_METADATA note) as typed objects.

The note is a MessagePack map: amdhsa.version ([1, 2] for code object v5), amdhsa.target, and
amdhsa.kernels, a list of per-kernel maps (AMDGPUUsage "Code Object V3 Metadata" and later):
.name, .symbol, .args, .kernarg_segment_size/.kernarg_segment_align, .group_segment_fixed_size,
.private_segment_fixed_size, .sgpr_count, .vgpr_count, .wavefront_size,
.max_flat_workgroup_size, ... Each argument has .offset, .size, .value_kind and, for pointers,
.address_space; code object v5 adds "hidden_*" arguments the runtime fills (HIDDEN_ARG_KINDS).
"""
from dataclasses import dataclass, field

from assembler.errors import MalformedInput

CODE_OBJECT_V5_VERSION = [1, 2]

# value_kind of implicit arguments the runtime writes after the explicit ones (code object v5).
HIDDEN_ARG_KINDS = frozenset({
    "hidden_global_offset_x", "hidden_global_offset_y", "hidden_global_offset_z",
    "hidden_none", "hidden_printf_buffer", "hidden_hostcall_buffer", "hidden_default_queue",
    "hidden_completion_action", "hidden_multigrid_sync_arg", "hidden_heap_v1",
    "hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
    "hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z",
    "hidden_remainder_x", "hidden_remainder_y", "hidden_remainder_z",
    "hidden_grid_dims", "hidden_dynamic_lds_size", "hidden_private_base", "hidden_shared_base",
    "hidden_queue_ptr",
})
EXPLICIT_ARG_KINDS = frozenset({"by_value", "global_buffer", "dynamic_shared_pointer", "sampler",
                                "image", "pipe", "queue"})

ADDRESS_SPACES = frozenset({"global", "constant", "local", "private", "generic", "region"})

_REQUIRED_KERNEL_KEYS = (".name", ".symbol", ".kernarg_segment_size", ".kernarg_segment_align",
                         ".group_segment_fixed_size", ".private_segment_fixed_size",
                         ".wavefront_size", ".sgpr_count", ".vgpr_count",
                         ".max_flat_workgroup_size")


@dataclass
class KernelArg:
    offset: int
    size: int
    value_kind: str
    name: str = ""
    type_name: str = ""
    address_space: str = ""
    raw: dict = field(default_factory=dict, repr=False)

    @property
    def hidden(self):
        return self.value_kind.startswith("hidden_")


@dataclass
class KernelMetadata:
    name: str
    symbol: str
    args: list
    kernarg_segment_size: int
    kernarg_segment_align: int
    group_segment_fixed_size: int
    private_segment_fixed_size: int
    wavefront_size: int
    sgpr_count: int
    vgpr_count: int
    max_flat_workgroup_size: int
    uses_dynamic_stack: bool = False
    raw: dict = field(default_factory=dict, repr=False)

    def arg(self, value_kind_or_name):
        """The first argument with this value_kind (e.g. 'hidden_block_count_x') or name."""
        for a in self.args:
            if value_kind_or_name in (a.value_kind, a.name):
                return a
        raise KeyError(f"kernel {self.name} has no argument {value_kind_or_name!r}")

    @property
    def explicit_args(self):
        return [a for a in self.args if not a.hidden]

    @property
    def hidden_args(self):
        return [a for a in self.args if a.hidden]


def _need(mapping, key, kind, where, source):
    if key not in mapping:
        raise MalformedInput(source, None, f"{where}: missing {key}")
    value = mapping[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise MalformedInput(source, None, f"{where}: {key} is {value!r}, expected {kind.__name__}")
    return value


def parse_kernel_map(kmap, source="<metadata>", strict=False):
    """A KernelMetadata from one amdhsa.kernels entry; MalformedInput naming a missing/bad key.

    `strict` (used for metadata we write) also rejects value kinds and address spaces that
    code object v5 does not define, as llvm-mc-19's metadata verifier does.
    """
    if not isinstance(kmap, dict):
        raise MalformedInput(source, None, f"amdhsa.kernels entry is {type(kmap).__name__}, not a map")
    where = f"kernel {kmap.get('.name', '?')!s}"
    values = {}
    for key in _REQUIRED_KERNEL_KEYS:
        values[key[1:]] = _need(kmap, key, str if key in (".name", ".symbol") else int, where, source)
    args = []
    raw_args = kmap.get(".args", [])
    if not isinstance(raw_args, list):
        raise MalformedInput(source, None, f"{where}: .args is not a list")
    for i, amap in enumerate(raw_args):
        awhere = f"{where} argument {i}"
        if not isinstance(amap, dict):
            raise MalformedInput(source, None, f"{awhere}: not a map")
        args.append(KernelArg(
            offset=_need(amap, ".offset", int, awhere, source),
            size=_need(amap, ".size", int, awhere, source),
            value_kind=_need(amap, ".value_kind", str, awhere, source),
            name=str(amap.get(".name", "")), type_name=str(amap.get(".type_name", "")),
            address_space=str(amap.get(".address_space", "")), raw=amap))
    for i, a in enumerate(args):
        if strict and a.value_kind not in EXPLICIT_ARG_KINDS | HIDDEN_ARG_KINDS:
            raise MalformedInput(source, None, f"{where} argument {i}: unknown .value_kind {a.value_kind!r}")
        if strict and a.address_space and a.address_space not in ADDRESS_SPACES:
            raise MalformedInput(source, None, f"{where} argument {i}: unknown .address_space "
                                               f"{a.address_space!r}")
        if a.offset < 0 or a.size < 1:
            field, value = (".offset", a.offset) if a.offset < 0 else (".size", a.size)
            raise MalformedInput(source, None, f"{where} argument {i}: {field} {value} is not a byte "
                                               f"{'offset >= 0' if field == '.offset' else 'size >= 1'}")
        if a.offset + a.size > values["kernarg_segment_size"]:
            raise MalformedInput(source, None, f"{where}: argument {a.value_kind} at {a.offset}+{a.size} "
                                               f"ends past .kernarg_segment_size {values['kernarg_segment_size']}")
    return KernelMetadata(args=args, uses_dynamic_stack=bool(kmap.get(".uses_dynamic_stack", False)),
                          raw=kmap, **values)


def parse_metadata_document(doc, source="<metadata>"):
    """(version, target, [KernelMetadata]) from a decoded note; MalformedInput on a bad shape."""
    if not isinstance(doc, dict):
        raise MalformedInput(source, None, "AMDGPU metadata is not a map")
    version = doc.get("amdhsa.version")
    if not (isinstance(version, list) and len(version) == 2 and all(isinstance(v, int) for v in version)):
        raise MalformedInput(source, None, f"amdhsa.version is {version!r}, expected [major, minor]")
    target = doc.get("amdhsa.target", "")
    kernels = doc.get("amdhsa.kernels", [])
    if not isinstance(kernels, list):
        raise MalformedInput(source, None, "amdhsa.kernels is not a list")
    return version, target, [parse_kernel_map(k, source) for k in kernels]


def sorted_map(obj):
    """`obj` with every map's keys sorted, the order LLVM writes them in the note."""
    if isinstance(obj, dict):
        return {k: sorted_map(obj[k]) for k in sorted(obj)}
    if isinstance(obj, list):
        return [sorted_map(v) for v in obj]
    return obj


def synthesize_kernel_map(name, *, kernarg_size, group_segment_fixed_size, private_segment_fixed_size,
                          wavefront_size, sgpr_count, vgpr_count, uses_dynamic_stack=False,
                          workgroup_processor_mode=None, max_flat_workgroup_size=1024, args=None):
    """The amdhsa.kernels entry for a kernel described only by its directives.

    Without argument metadata the kernarg segment is opaque: .args is left out (a runtime for
    hand-written kernels defines its own layout), only its size and 8-byte alignment are given.
    """
    kmap = {
        ".name": name, ".symbol": f"{name}.kd",
        ".kernarg_segment_size": kernarg_size, ".kernarg_segment_align": 8,
        ".group_segment_fixed_size": group_segment_fixed_size,
        ".private_segment_fixed_size": private_segment_fixed_size,
        ".wavefront_size": wavefront_size, ".sgpr_count": sgpr_count, ".vgpr_count": vgpr_count,
        ".max_flat_workgroup_size": max_flat_workgroup_size,
        ".sgpr_spill_count": 0, ".vgpr_spill_count": 0,
        ".uses_dynamic_stack": bool(uses_dynamic_stack),
    }
    if workgroup_processor_mode is not None:
        kmap[".workgroup_processor_mode"] = workgroup_processor_mode
    if args:
        kmap[".args"] = args
    return sorted_map(kmap)


def metadata_document(target_id, kernel_maps):
    return sorted_map({"amdhsa.version": list(CODE_OBJECT_V5_VERSION), "amdhsa.target": target_id,
                       "amdhsa.kernels": list(kernel_maps)})
