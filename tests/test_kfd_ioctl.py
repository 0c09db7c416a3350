"""kfd_ioctl against the kernel's own header, compiled by the C compiler.

Oracles, strongest first:
1. live: scripts/kfd_header_probe.py compiles the installed <linux/kfd_ioctl.h> and prints the
   sizeof/offsetof/signedness of every struct member and the value of every macro, enum member
   and ioctl number; every one must match ours (skipped only without a compiler or header);
2. frozen verdicts of the same probe in tests/data/kfd_ioctl/ (no tool needed): Debian 12's
   linux-libc-dev 6.1 header (ABI 1.11) and ROCm 7's amdgpu-dkms header (ABI 1.17);
3. literals from the AMD reference notes (amd.md §1.2/§1.3) and from the upstream 1.18 header,
   for the few items no compiled header here has.
test_every_public_name_has_an_oracle makes sure nothing in kfd_ioctl escapes all three.
"""
import importlib.util
import json
import os
import struct

import pytest

import kfd_ioctl
from kfd_ioctl import ffi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "kfd_ioctl")
GOLDEN_6_1 = os.path.join(DATA, "linux-libc-dev-6.1_kfd_ioctl_1.11.json")
GOLDEN_DKMS = os.path.join(DATA, "rocm-dkms_kfd_ioctl_1.17.json")


def _load_probe():
    spec = importlib.util.spec_from_file_location(
        "kfd_header_probe", os.path.join(ROOT, "scripts", "kfd_header_probe.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


probe = _load_probe()

# ROCm's amdgpu-dkms header carries ioctls upstream Linux never merged (IPC handles, SPM, PC
# sampling, profiler, the pre-upstream debugger). The runtime here does not use them, so they are
# deliberately not declared; everything else in that header must match ours.
ROCM_ONLY_STRUCTS = frozenset({
    "kfd_ioctl_dbg_trap_args_deprecated", "kfd_ioctl_spm_args", "kfd_ioctl_ipc_export_handle_args",
    "kfd_ioctl_ipc_import_handle_args", "kfd_ioctl_cross_memory_copy_deprecated_args",
    "kfd_pc_sample_info", "kfd_ioctl_pc_sample_args", "kfd_ioctl_pmc_settings",
    "kfd_ioctl_profiler_args"})
ROCM_ONLY_CONSTANTS = frozenset({
    "AMDKFD_IOC_IPC_IMPORT_HANDLE", "AMDKFD_IOC_IPC_EXPORT_HANDLE", "AMDKFD_IOC_DBG_TRAP_DEPRECATED",
    "AMDKFD_IOC_CROSS_MEMORY_COPY_DEPRECATED", "AMDKFD_IOC_RLC_SPM", "AMDKFD_IOC_PC_SAMPLE",
    "AMDKFD_IOC_PROFILER", "AMDKFD_COMMAND_START_2", "AMDKFD_COMMAND_END_2",
    "KFD_IOCTL_SPM_OP_ACQUIRE", "KFD_IOCTL_SPM_OP_RELEASE", "KFD_IOCTL_SPM_OP_SET_DEST_BUF",
    "KFD_IOCTL_PCS_FLAG_POWER_OF_2", "KFD_IOCTL_PCS_QUERY_TYPE_FULL",
    "KFD_IOCTL_PCS_OP_QUERY_CAPABILITIES", "KFD_IOCTL_PCS_OP_CREATE", "KFD_IOCTL_PCS_OP_DESTROY",
    "KFD_IOCTL_PCS_OP_START", "KFD_IOCTL_PCS_OP_STOP", "KFD_IOCTL_PCS_METHOD_HOSTTRAP",
    "KFD_IOCTL_PCS_METHOD_STOCHASTIC", "KFD_IOCTL_PCS_TYPE_TIME_US",
    "KFD_IOCTL_PCS_TYPE_CLOCK_CYCLES", "KFD_IOCTL_PCS_TYPE_INSTRUCTIONS", "KFD_IOC_PROFILER_PMC",
    "KFD_IOC_PROFILER_PC_SAMPLE", "KFD_IOC_PROFILER_VERSION", "KFD_IOC_PROFILER_VERSION_NUM"})

# Constants that name the ABI level rather than a fact of it: an older header has a smaller one.
ABI_LEVEL = frozenset({"KFD_IOCTL_MINOR_VERSION", "AMDKFD_COMMAND_END"})


# ---------------------------------------------------------------------------------------------
# Comparing a compiler verdict with kfd_ioctl
# ---------------------------------------------------------------------------------------------

def _our_tag(tag, header_size):
    """The struct of ours that describes the header's `tag` (the legacy one if sizes say so)."""
    legacy = tag + "_legacy"
    if legacy in kfd_ioctl.STRUCT_NAMES and ffi.sizeof(f"struct {legacy}") == header_size:
        return legacy
    return tag


def _our_field_type(tag, path):
    ctype = ffi.typeof(f"struct {tag}")
    for part in path.split("."):
        ctype = dict(ctype.fields)[part].type
    return ctype


def _is_signed(ctype):
    if ctype.kind == "array":
        ctype = ctype.item
    return ctype.kind == "primitive" and int(ffi.cast(ctype, -1)) < 0


def _our_request_for(name, header_value):
    """Our request number for the header's AMDKFD_IOC_x: CREATE_QUEUE has two, matched by size."""
    if name == "AMDKFD_IOC_CREATE_QUEUE":
        candidates = (kfd_ioctl.AMDKFD_IOC_CREATE_QUEUE, kfd_ioctl.AMDKFD_IOC_CREATE_QUEUE_LEGACY)
        by_size = {kfd_ioctl._IOC_SIZE(r): r for r in candidates}
        return by_size.get(kfd_ioctl._IOC_SIZE(header_value), kfd_ioctl.AMDKFD_IOC_CREATE_QUEUE)
    return getattr(kfd_ioctl, name)


def compare(verdict, not_declared_structs=frozenset(), not_declared_constants=frozenset()):
    """(mismatches, counts) of kfd_ioctl against one compiler verdict."""
    bad = []
    counts = dict(structs=0, fields=0, ioctls=0, constants=0, macro_evaluations=0)
    for tag, layout in verdict["structs"].items():
        if tag in not_declared_structs:
            continue
        ours = _our_tag(tag, layout["size"])
        if ours not in kfd_ioctl.STRUCT_NAMES:
            bad.append(f"struct {tag}: not declared")
            continue
        counts["structs"] += 1
        if ffi.sizeof(f"struct {ours}") != layout["size"]:
            bad.append(f"sizeof(struct {ours}) = {ffi.sizeof(f'struct {ours}')}, "
                       f"header {layout['size']}")
        for path, field in layout["fields"].items():
            counts["fields"] += 1
            try:
                offset = ffi.offsetof(f"struct {ours}", *path.split("."))
                ctype = _our_field_type(ours, path)
            except (KeyError, TypeError) as e:
                bad.append(f"struct {ours}.{path}: missing ({e})")
                continue
            if offset != field["offset"]:
                bad.append(f"offsetof(struct {ours}, {path}) = {offset}, header {field['offset']}")
            if field["size"] is not None and ffi.sizeof(ctype) != field["size"]:
                bad.append(f"sizeof(struct {ours}.{path}) = {ffi.sizeof(ctype)}, "
                           f"header {field['size']}")
            if field["signed"] is not None and _is_signed(ctype) != field["signed"]:
                bad.append(f"struct {ours}.{path}: signed={_is_signed(ctype)}, "
                           f"header {field['signed']}")
    for name, value in verdict["constants"].items():
        if name in not_declared_constants:
            continue
        if not hasattr(kfd_ioctl, name):
            bad.append(f"{name}: not defined")
            continue
        is_ioctl = name.startswith("AMDKFD_IOC_")
        counts["ioctls" if is_ioctl else "constants"] += 1
        ours = _our_request_for(name, value) if is_ioctl else getattr(kfd_ioctl, name)
        if name in ABI_LEVEL:
            if ours < value:
                bad.append(f"{name} = {ours}, older than the header's {value}")
        elif ours != value:
            bad.append(f"{name} = {ours:#x}, header {value:#x}")
    for name, results in verdict["macro_functions"].items():
        function = getattr(kfd_ioctl, name, None)
        if function is None:
            bad.append(f"{name}(): not defined")
            continue
        for arg, value in results.items():
            counts["macro_evaluations"] += 1
            if int(function(int(arg))) != value:
                bad.append(f"{name}({arg}) = {int(function(int(arg)))}, header {value}")
    return bad, counts


def _golden(path):
    with open(path) as f:
        return json.load(f)


# ---------------------------------------------------------------------------------------------
# 1. The installed header, compiled now
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def live_verdict():
    if probe.find_compiler() is None:
        pytest.skip("no C compiler ($CC, cc, gcc or clang) to compile <linux/kfd_ioctl.h> with")
    if not os.path.exists(probe.DEFAULT_HEADER):
        pytest.skip(f"{probe.DEFAULT_HEADER} is not installed (package linux-libc-dev)")
    return probe.probe(probe.DEFAULT_HEADER)


def test_installed_header_matches(live_verdict):
    bad, counts = compare(live_verdict)
    assert bad == []
    # Everything the header declares was compared, not a subset.
    assert counts["structs"] == len(live_verdict["structs"]) >= 43
    assert counts["fields"] == sum(len(s["fields"]) for s in live_verdict["structs"].values())
    assert counts["ioctls"] == sum(n.startswith("AMDKFD_IOC_") for n in live_verdict["constants"])
    assert counts["ioctls"] >= 35 and counts["constants"] >= 100
    print(f"compared with {probe.DEFAULT_HEADER}: {counts}")


def test_installed_header_is_the_frozen_one(live_verdict):
    """On the reference machine the frozen 6.1 verdict is exactly what the compiler says now."""
    if live_verdict["constants"].get("KFD_IOCTL_MINOR_VERSION") != 11:
        pytest.skip("installed header is not the KFD 1.11 one the golden file froze")
    golden = _golden(GOLDEN_6_1)
    for key in ("structs", "constants", "macro_functions"):
        assert live_verdict[key] == golden[key], key


# ---------------------------------------------------------------------------------------------
# 2. Frozen compiler verdicts
# ---------------------------------------------------------------------------------------------

def test_frozen_linux_6_1_header_matches():
    golden = _golden(GOLDEN_6_1)
    bad, counts = compare(golden)
    assert bad == []
    assert counts == dict(structs=43, fields=183, ioctls=35, constants=105, macro_evaluations=128)


def test_frozen_rocm_dkms_1_17_header_matches():
    golden = _golden(GOLDEN_DKMS)
    assert golden["constants"]["KFD_IOCTL_MINOR_VERSION"] == 17
    bad, counts = compare(golden, ROCM_ONLY_STRUCTS, ROCM_ONLY_CONSTANTS)
    assert bad == []
    assert counts["structs"] == len(golden["structs"]) - len(ROCM_ONLY_STRUCTS)
    # The ROCm-only lists name things that really are in that header (no stale exemptions).
    assert ROCM_ONLY_STRUCTS <= set(golden["structs"])
    assert ROCM_ONLY_CONSTANTS <= set(golden["constants"])


def test_comparison_catches_a_wrong_layout():
    """The comparator is not vacuous: a doctored verdict is reported field by field."""
    golden = _golden(GOLDEN_6_1)
    golden["structs"]["kfd_ioctl_wait_events_args"]["fields"]["timeout"]["offset"] = 20
    golden["structs"]["kfd_ioctl_acquire_vm_args"]["size"] = 12
    golden["structs"]["kfd_ioctl_set_xnack_mode_args"]["fields"]["xnack_enabled"]["signed"] = False
    golden["constants"]["KFD_IOC_EVENT_MEMORY"] = 9
    golden["constants"]["AMDKFD_IOC_SVM"] = 0xC0204B20
    golden["structs"]["kfd_made_up_args"] = {"size": 4, "fields": {}}
    bad, _ = compare(golden)
    assert bad == [
        "offsetof(struct kfd_ioctl_wait_events_args, timeout) = 16, header 20",
        "sizeof(struct kfd_ioctl_acquire_vm_args) = 8, header 12",
        "struct kfd_ioctl_set_xnack_mode_args.xnack_enabled: signed=True, header False",
        "struct kfd_made_up_args: not declared",
        "KFD_IOC_EVENT_MEMORY = 0x8, header 0x9",
        "AMDKFD_IOC_SVM = 0xc0184b20, header 0xc0204b20",
    ]


# ---------------------------------------------------------------------------------------------
# 3. Items newer than the installed header, against amd.md and the upstream 1.18 header
# ---------------------------------------------------------------------------------------------

def test_newer_items_match_amd_md():
    # amd.md §1.2: "0x24 EXPORT_DMABUF (16 B, 0xc0104b24), 0x25 RUNTIME_ENABLE
    # ({u64 r_debug; u32 mode_mask; u32 capabilities_mask} 16 B, 0xc0104b25), 0x26 DBG_TRAP (32 B)"
    assert kfd_ioctl.AMDKFD_IOC_EXPORT_DMABUF == 0xC0104B24
    assert ffi.sizeof("struct kfd_ioctl_export_dmabuf_args") == 16
    assert kfd_ioctl.AMDKFD_IOC_RUNTIME_ENABLE == 0xC0104B25
    assert ffi.sizeof("struct kfd_ioctl_runtime_enable_args") == 16
    assert [(n, ffi.offsetof("struct kfd_ioctl_runtime_enable_args", n)) for n in
            ("r_debug", "mode_mask", "capabilities_mask")] == [
        ("r_debug", 0), ("mode_mask", 8), ("capabilities_mask", 12)]
    assert ffi.sizeof("struct kfd_ioctl_dbg_trap_args") == 32
    assert kfd_ioctl._IOC_NR(kfd_ioctl.AMDKFD_IOC_DBG_TRAP) == 0x26
    # amd.md §1.2: create_queue_args grows to 96 B (u32 sdma_engine_id; u32 pad at 88/92;
    # KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID 4) -> CREATE_QUEUE number 0xc0604b02; the 6.1 one is
    # 88 B, 0xc0584b02.
    assert ffi.sizeof("struct kfd_ioctl_create_queue_args") == 96
    assert ffi.offsetof("struct kfd_ioctl_create_queue_args", "sdma_engine_id") == 88
    assert ffi.offsetof("struct kfd_ioctl_create_queue_args", "pad") == 92
    assert kfd_ioctl.KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID == 4
    assert kfd_ioctl.AMDKFD_IOC_CREATE_QUEUE == 0xC0604B02
    assert ffi.sizeof("struct kfd_ioctl_create_queue_args_legacy") == 88
    assert kfd_ioctl.AMDKFD_IOC_CREATE_QUEUE_LEGACY == 0xC0584B02
    # amd.md §1.2: alloc flags EXT_COHERENT (1<<24), CONTIGUOUS (1<<23).
    assert kfd_ioctl.KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT == 1 << 24
    assert kfd_ioctl.KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS == 1 << 23
    # amd.md §1.3: kfd_event_data is 48 B with event_id@40; wait_events timeout@16 in ms.
    assert ffi.sizeof("struct kfd_event_data") == 48
    assert ffi.offsetof("struct kfd_event_data", "event_id") == 40
    assert ffi.offsetof("struct kfd_ioctl_wait_events_args", "timeout") == 16


# Upstream Linux include/uapi/linux/kfd_ioctl.h at ABI 1.18; neither compiled header has these.
UPSTREAM_1_18_LITERALS = {
    "KFD_IOCTL_MINOR_VERSION": 18,
    "KFD_PROC_FLAG_MFMA_HIGH_PRECISION": 1 << 0,
    "KFD_SMI_EVENT_PROCESS_START": 12,
    "KFD_SMI_EVENT_PROCESS_END": 13,
}
# libhsakmt (ROCm) HSA_RUNTIME_ENABLE_CAPS_SUPPORTS_CORE_DUMP_MASK: it returns
# kfd_ioctl_runtime_enable_args.capabilities_mask unchanged, so this is the kernel's bit.
ROCT_LITERALS = {"KFD_RUNTIME_ENABLE_CAPS_SUPPORTS_CORE_DUMP_MASK": 0x80000000}


def test_upstream_1_18_items():
    for name, value in {**UPSTREAM_1_18_LITERALS, **ROCT_LITERALS}.items():
        assert getattr(kfd_ioctl, name) == value, name
    # 1.18 renamed set_memory_policy_args.pad (offset 28) to misc_process_flag; both names work.
    args = kfd_ioctl.new("kfd_ioctl_set_memory_policy_args", misc_process_flag=1)
    assert ffi.offsetof("struct kfd_ioctl_set_memory_policy_args", "misc_process_flag") == 28
    assert ffi.offsetof("struct kfd_ioctl_set_memory_policy_args", "pad") == 28
    assert args.pad == 1 and ffi.sizeof(args[0]) == 32


def _oracle_names():
    names = set(UPSTREAM_1_18_LITERALS) | set(ROCT_LITERALS)
    structs = set()
    for path in (GOLDEN_6_1, GOLDEN_DKMS):
        golden = _golden(path)
        names |= set(golden["constants"]) | set(golden["macro_functions"])
        structs |= set(golden["structs"])
    return names, structs


def test_every_public_name_has_an_oracle():
    """Each constant, macro and struct we publish is checked by a compiler verdict or a literal."""
    names, structs = _oracle_names()
    # Ours only: the second CREATE_QUEUE layout and number (checked in test_newer_items_match_amd_md).
    structs.add("kfd_ioctl_create_queue_args_legacy")
    names.add("AMDKFD_IOC_CREATE_QUEUE_LEGACY")
    # Two-argument macros the probe does not evaluate; test_ioc_encode_decode checks them.
    names |= {"AMDKFD_IOR", "AMDKFD_IOW", "AMDKFD_IOWR"}
    public = {n for n in dir(kfd_ioctl)
              if n.isupper() and not n.startswith("_") and n not in ("IOCTLS", "STRUCT_NAMES")}
    public |= {n for n in dir(kfd_ioctl) if n.startswith(("KFD_", "AMDKFD_"))}
    assert sorted(public - names) == []
    assert sorted(kfd_ioctl.STRUCT_NAMES - structs) == []


# ---------------------------------------------------------------------------------------------
# Properties of the declarations themselves
# ---------------------------------------------------------------------------------------------

def _holes(tag):
    """Byte ranges of struct `tag` that no member covers (implicit padding)."""
    size = ffi.sizeof(f"struct {tag}")
    covered = bytearray(size)
    for name, field in ffi.typeof(f"struct {tag}").fields:
        width = ffi.sizeof(field.type) if field.type.kind != "array" or field.type.length else 0
        covered[field.offset:field.offset + width] = b"\1" * width
    return [i for i, c in enumerate(covered) if not c]


def test_no_implicit_padding_except_criu():
    """UAPI structs spell out their padding so 32- and 64-bit callers agree; CRIU is the one
    struct that ends on a lone __u32 (the compiler verdicts confirm its 56 bytes)."""
    holes = {tag: _holes(tag) for tag in kfd_ioctl.STRUCT_NAMES}
    assert {tag: h for tag, h in holes.items() if h} == {"kfd_ioctl_criu_args": [52, 53, 54, 55]}
    assert _golden(GOLDEN_6_1)["structs"]["kfd_ioctl_criu_args"]["size"] == 56


def test_byte_image_is_what_the_kernel_reads():
    args = kfd_ioctl.new("kfd_ioctl_alloc_memory_of_gpu_args", va_addr=0x7F0000001000, size=0x2000,
                         gpu_id=0x1234, flags=kfd_ioctl.KFD_IOC_ALLOC_MEM_FLAGS_VRAM
                         | kfd_ioctl.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE)
    assert bytes(ffi.buffer(args)) == struct.pack("<QQQQII", 0x7F0000001000, 0x2000, 0, 0, 0x1234,
                                                  0x80000001)
    events = ffi.new("struct kfd_event_data[2]")
    events[1].event_id = 7
    events[1].memory_exception_data.va = 0xDEAD000
    raw = bytes(ffi.buffer(events))
    assert len(raw) == 96
    assert struct.unpack_from("<Q", raw, 48 + 16)[0] == 0xDEAD000
    assert struct.unpack_from("<I", raw, 48 + 40)[0] == 7


# ---------------------------------------------------------------------------------------------
# new()
# ---------------------------------------------------------------------------------------------

def test_new_sets_fields_and_accepts_both_spellings():
    a = kfd_ioctl.new("kfd_ioctl_get_version_args", major_version=1, minor_version=18)
    b = kfd_ioctl.new("struct kfd_ioctl_get_version_args", minor_version=18, major_version=1)
    assert bytes(ffi.buffer(a)) == bytes(ffi.buffer(b)) == struct.pack("<II", 1, 18)
    assert ffi.typeof(a) is ffi.typeof("struct kfd_ioctl_get_version_args *")
    zero = kfd_ioctl.new("kfd_ioctl_create_queue_args")
    assert bytes(ffi.buffer(zero)) == bytes(96)


def test_new_nested_values():
    ev = kfd_ioctl.new("kfd_event_data", event_id=3,
                       memory_exception_data={"va": 0x1000, "failure": {"ReadOnly": 1}})
    assert (ev.event_id, ev.memory_exception_data.va, ev.memory_exception_data.failure.ReadOnly) \
        == (3, 0x1000, 1)
    ap = kfd_ioctl.new("kfd_ioctl_get_process_apertures_args", process_apertures=[{"gpu_id": 9}])
    assert ap.process_apertures[0].gpu_id == 9 and ap.process_apertures[1].gpu_id == 0


def test_new_unknown_field_names_field_and_struct():
    with pytest.raises(TypeError, match=r"struct kfd_ioctl_create_queue_args has no field "
                                        r"'ring_bytes'.*ring_size"):
        kfd_ioctl.new("kfd_ioctl_create_queue_args", ring_bytes=4096)


def test_new_unknown_nested_field():
    with pytest.raises(TypeError, match=r"struct kfd_event_data\.memory_exception_data: "
                                        r"unknown field 'address'"):
        kfd_ioctl.new("kfd_event_data", memory_exception_data={"address": 1})


def test_new_unknown_struct():
    with pytest.raises(TypeError, match=r"unknown amdkfd struct 'kfd_ioctl_frobnicate_args'"):
        kfd_ioctl.new("kfd_ioctl_frobnicate_args")
    with pytest.raises(TypeError, match="struct name must be a str"):
        kfd_ioctl.new(42)


def test_new_value_that_does_not_fit_names_the_field():
    with pytest.raises(OverflowError, match=r"struct kfd_ioctl_create_queue_args\.ring_size"):
        kfd_ioctl.new("kfd_ioctl_create_queue_args", ring_size=1 << 32)
    with pytest.raises(OverflowError, match=r"kfd_ioctl_wait_events_args\.timeout = -1"):
        kfd_ioctl.new("kfd_ioctl_wait_events_args", timeout=-1)
    with pytest.raises(TypeError, match=r"kfd_ioctl_acquire_vm_args\.drm_fd = 'x'"):
        kfd_ioctl.new("kfd_ioctl_acquire_vm_args", drm_fd="x")
    # A signed field takes negative values: XNACK mode -1 means "query only".
    assert kfd_ioctl.new("kfd_ioctl_set_xnack_mode_args", xnack_enabled=-1).xnack_enabled == -1


# ---------------------------------------------------------------------------------------------
# IOCTLS, by_request and the _IOC encoding
# ---------------------------------------------------------------------------------------------

def test_ioctls_table_is_consistent():
    assert sorted(kfd_ioctl.IOCTLS) == list(range(kfd_ioctl.AMDKFD_COMMAND_START,
                                                  kfd_ioctl.AMDKFD_COMMAND_END))
    for nr, rec in kfd_ioctl.IOCTLS.items():
        assert rec.nr == nr == kfd_ioctl._IOC_NR(rec.request)
        assert kfd_ioctl._IOC_TYPE(rec.request) == ord("K")
        assert kfd_ioctl._IOC_SIZE(rec.request) == rec.size == ffi.sizeof(f"struct {rec.struct}")
        assert kfd_ioctl._IOC_DIR(rec.request) == rec.direction
        assert getattr(kfd_ioctl, rec.name) == rec.request
        assert kfd_ioctl.by_request(rec.request) is rec
        assert ffi.sizeof(rec.new()[0]) == rec.size


def test_by_request_resolves_both_create_queue_sizes():
    new_rec = kfd_ioctl.by_request(0xC0604B02)
    old_rec = kfd_ioctl.by_request(0xC0584B02)
    assert (new_rec.name, new_rec.struct, new_rec.size) == (
        "AMDKFD_IOC_CREATE_QUEUE", "kfd_ioctl_create_queue_args", 96)
    assert (old_rec.name, old_rec.struct, old_rec.size) == (
        "AMDKFD_IOC_CREATE_QUEUE_LEGACY", "kfd_ioctl_create_queue_args_legacy", 88)
    assert new_rec.nr == old_rec.nr == 2 and kfd_ioctl.IOCTLS[2] is new_rec
    assert len(kfd_ioctl.all_requests()) == len(kfd_ioctl.IOCTLS) + 1


def test_by_request_unknown_and_wrong_type():
    assert kfd_ioctl.by_request(0xC0104B7F) is None           # unused command number
    assert kfd_ioctl.by_request(0xC0084B02) is None           # CREATE_QUEUE with a bogus size
    assert kfd_ioctl.by_request(0xC0084B01) is None           # GET_VERSION with the wrong dir
    with pytest.raises(TypeError, match="ioctl request must be an int, got str"):
        kfd_ioctl.by_request("0xc0084b03")


def test_directions():
    get_version = kfd_ioctl.by_request(kfd_ioctl.AMDKFD_IOC_GET_VERSION)
    assert (get_version.copies_in, get_version.copies_out, get_version.direction_name) == (
        False, True, "R")
    acquire = kfd_ioctl.by_request(kfd_ioctl.AMDKFD_IOC_ACQUIRE_VM)
    assert (acquire.copies_in, acquire.copies_out, acquire.direction_name) == (True, False, "W")
    wait = kfd_ioctl.by_request(kfd_ioctl.AMDKFD_IOC_WAIT_EVENTS)
    assert (wait.copies_in, wait.copies_out, wait.direction_name) == (True, True, "RW")


def test_ioc_encode_decode():
    req = kfd_ioctl._IOWR("K", 0x02, 96)
    assert req == 0xC0604B02 == kfd_ioctl._IOC(3, 0x4B, 2, 96)
    assert (kfd_ioctl._IOC_DIR(req), kfd_ioctl._IOC_TYPE(req), kfd_ioctl._IOC_NR(req),
            kfd_ioctl._IOC_SIZE(req)) == (kfd_ioctl._IOC_READ | kfd_ioctl._IOC_WRITE, 0x4B, 2, 96)
    assert kfd_ioctl._IOR("K", 1, 8) == 0x80084B01
    assert kfd_ioctl._IOW("K", 0x15, 8) == 0x40084B15
    assert kfd_ioctl._IO("K", 0x27) == 0x4B27 == kfd_ioctl.AMDKFD_IO(0x27)
    assert kfd_ioctl.AMDKFD_IOWR(0x25, "kfd_ioctl_runtime_enable_args") == 0xC0104B25
    assert kfd_ioctl.AMDKFD_IOR(0x01, "struct kfd_ioctl_get_version_args") == 0x80084B01
    assert kfd_ioctl.AMDKFD_IOW(0x15, "kfd_ioctl_acquire_vm_args") == 0x40084B15
    assert kfd_ioctl._IOC_SIZE(0xFFFFFFFF) == 0x3FFF and kfd_ioctl._IOC_DIR(0xFFFFFFFF) == 3


def test_ioc_rejects_fields_that_do_not_fit():
    with pytest.raises(ValueError, match=r"_IOC size 0x4000 does not fit in 14 bits"):
        kfd_ioctl._IOWR("K", 1, 0x4000)
    with pytest.raises(ValueError, match=r"_IOC nr 0x100 does not fit in 8 bits"):
        kfd_ioctl._IOR("K", 0x100, 8)
    with pytest.raises(ValueError, match="_IOC type must be one character, got 'KF'"):
        kfd_ioctl._IOR("KF", 1, 8)
    with pytest.raises(TypeError, match="_IOC size must be an int, got float"):
        kfd_ioctl._IOR("K", 1, 8.0)


# ---------------------------------------------------------------------------------------------
# The probe itself (scripts/kfd_header_probe.py)
# ---------------------------------------------------------------------------------------------

SYNTHETIC_HEADER = """
#define KFD_TEST_A (1 << 31)      /* int in C: the verdict keeps the 32-bit pattern */
#define KFD_TEST_NAME "text"
#define KFD_TEST_BIT(i) (1ULL << ((i) - 1))
enum kfd_test_enum { KFD_TEST_E0, KFD_TEST_E5 = 5, };
struct kfd_test_inner { __u32 x; };
struct kfd_test_args {
    union { struct kfd_test_inner inner; __u64 word; };   /* anonymous: members flatten */
    struct { __u32 lo; __s32 hi; } named;
    __u16 small[3];
    struct kfd_test_inner items[2];
    __u32 tail[];
};
"""


def test_probe_enumerates_members():
    names = probe.enumerate_header(SYNTHETIC_HEADER)
    assert names["constants"] == ["KFD_TEST_A", "KFD_TEST_E0", "KFD_TEST_E5"]
    assert names["macro_functions"] == ["KFD_TEST_BIT"]
    assert names["structs"]["kfd_test_args"] == [
        ("inner", "aggregate"), ("word", "scalar"), ("named", "aggregate"),
        ("named.lo", "scalar"), ("named.hi", "scalar"), ("small", "array"),
        ("items", "aggregate_array"), ("tail", "flex")]


def test_probe_compiles_a_header(tmp_path):
    if probe.find_compiler() is None:
        pytest.skip("no C compiler ($CC, cc, gcc or clang)")
    header = tmp_path / "kfd_test.h"
    header.write_text("#include <linux/types.h>\n" + SYNTHETIC_HEADER)
    verdict = probe.probe(str(header))
    fields = verdict["structs"]["kfd_test_args"]["fields"]
    assert verdict["structs"]["kfd_test_args"]["size"] == 32   # flexible tail adds nothing
    assert fields["named.hi"] == {"offset": 12, "size": 4, "signed": True}
    assert fields["small"] == {"offset": 16, "size": 6, "signed": False}
    assert fields["items"] == {"offset": 24, "size": 8, "signed": None}
    assert fields["tail"] == {"offset": 32, "size": None, "signed": None}
    assert verdict["constants"] == {"KFD_TEST_A": 0x80000000, "KFD_TEST_E0": 0, "KFD_TEST_E5": 5}
    assert verdict["macro_functions"]["KFD_TEST_BIT"]["64"] == 1 << 63


@pytest.mark.parametrize("body, message", [
    ("__u32 a, b;", "cannot parse member declaration '__u32 a, b'"),
    ("__u32 flag : 1;", "cannot parse member declaration '__u32 flag : 1'"),
    ("__u32 a", "member declaration without ';': '__u32 a'"),
])
def test_probe_rejects_what_it_cannot_measure(body, message):
    with pytest.raises(probe.ProbeError, match=message):
        probe.enumerate_header(f"struct kfd_bad {{ {body} }};")


def test_probe_reports_unbalanced_braces():
    with pytest.raises(probe.ProbeError, match="unbalanced braces"):
        probe.enumerate_header("struct kfd_bad { union { __u32 a; };")


def test_probe_reports_compiler_errors(tmp_path):
    if probe.find_compiler() is None:
        pytest.skip("no C compiler ($CC, cc, gcc or clang)")
    header = tmp_path / "kfd_broken.h"
    header.write_text("struct kfd_broken { undeclared_type_t a; };\n")
    with pytest.raises(probe.ProbeError, match=r"failed on the probe for .*kfd_broken\.h"):
        probe.probe(str(header))


def test_probe_cli_names_a_missing_header(tmp_path, capsys):
    missing = tmp_path / "nowhere" / "kfd_ioctl.h"
    assert probe.main([str(missing), "--cc", "cc"]) == 1
    assert f"kfd_header_probe: [Errno 2] No such file or directory: '{missing}'" \
        in capsys.readouterr().err
