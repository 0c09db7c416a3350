"""kgsl_ioctl against mesa's msm_kgsl.h compiled for arm64 by aarch64-linux-gnu-gcc.

Oracles, strongest first:
1. live: scripts/kgsl_header_probe.py compiles the fetched header (in the --fetch cache, or
   $KGSL_HEADER) with the cross compiler and reads sizeof/offsetof/signedness of every struct
   member and the value of every macro, enum member and request number back from the object
   file; every one must match ours (skipped without the compiler or a fetched header);
2. frozen verdicts of the same probe in tests/data/kgsl_ioctl/ (no tool needed): mesa main of
   January 2026 and mesa 24.0.9 (the 4.19 kernel uapi);
3. literals from the Qualcomm reference notes (qcom.md §1, computed from tinygrad's copy of the
   header), for the request numbers and layouts a compute driver uses.
test_every_public_name_has_an_oracle makes sure nothing in kgsl_ioctl escapes them.
"""
import importlib.util
import json
import os
import struct

import pytest

import kgsl_ioctl
from kgsl_ioctl import ffi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "kgsl_ioctl")
GOLDEN_MAIN = os.path.join(DATA, "mesa-26.0-devel_msm_kgsl.json")
GOLDEN_24 = os.path.join(DATA, "mesa-24.0.9_msm_kgsl.json")
GOLDEN_ARMV7 = os.path.join(DATA, "mesa-26.0-devel_msm_kgsl_armv7.json")


def _load_probe():
    spec = importlib.util.spec_from_file_location(
        "kgsl_header_probe", os.path.join(ROOT, "scripts", "kgsl_header_probe.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


probe = _load_probe()

# A constant that names how far the header has grown rather than a fact of the ABI.
ABI_LEVEL = frozenset({"KGSL_PERFCOUNTER_GROUP_MAX"})


# ---------------------------------------------------------------------------------------------
# Comparing a compiler verdict with kgsl_ioctl
# ---------------------------------------------------------------------------------------------

def _our_field_type(tag, path):
    ctype = ffi.typeof(f"struct {tag}")
    for part in path.split("."):
        ctype = dict(ctype.fields)[part].type
    return ctype


def _is_signed(ctype):
    if ctype.kind == "array":
        ctype = ctype.item
    if ctype.cname == "char":
        return False          # plain char is unsigned on arm64; cffi's char is a byte
    return ctype.kind in ("primitive", "enum") and int(ffi.cast(ctype, -1)) < 0


def compare(verdict):
    """(mismatches, counts) of kgsl_ioctl against one compiler verdict."""
    bad = []
    counts = dict(structs=0, fields=0, ioctls=0, constants=0, macro_evaluations=0, memstore_offsets=0)
    for tag, layout in verdict["structs"].items():
        if tag not in kgsl_ioctl.STRUCT_NAMES:
            bad.append(f"struct {tag}: not declared")
            continue
        counts["structs"] += 1
        if ffi.sizeof(f"struct {tag}") != layout["size"]:
            bad.append(f"sizeof(struct {tag}) = {ffi.sizeof(f'struct {tag}')}, header {layout['size']}")
        for path, field in layout["fields"].items():
            counts["fields"] += 1
            try:
                offset = ffi.offsetof(f"struct {tag}", *path.split("."))
                ctype = _our_field_type(tag, path)
            except (KeyError, TypeError) as e:
                bad.append(f"struct {tag}.{path}: missing ({e})")
                continue
            if offset != field["offset"]:
                bad.append(f"offsetof(struct {tag}, {path}) = {offset}, header {field['offset']}")
            if field["size"] is not None and ffi.sizeof(ctype) != field["size"]:
                bad.append(f"sizeof(struct {tag}.{path}) = {ffi.sizeof(ctype)}, header {field['size']}")
            if field["signed"] is not None and _is_signed(ctype) != field["signed"]:
                bad.append(f"struct {tag}.{path}: signed={_is_signed(ctype)}, header {field['signed']}")
            if field["kind"] == "pointer" and (ctype.cname != "uint64_t"):
                bad.append(f"struct {tag}.{path}: a pointer in the header, declared {ctype.cname}")
    for name, value in verdict["constants"].items():
        if not hasattr(kgsl_ioctl, name):
            bad.append(f"{name}: not defined")
            continue
        counts["ioctls" if name.startswith("IOCTL_KGSL_") else "constants"] += 1
        ours = getattr(kgsl_ioctl, name)
        if name in ABI_LEVEL:
            if ours < value:
                bad.append(f"{name} = {ours}, older than the header's {value}")
        elif ours != value:
            bad.append(f"{name} = {ours:#x}, header {value:#x}")
    for name, results in verdict["macro_functions"].items():
        function = getattr(kgsl_ioctl, name, None)
        if function is None:
            bad.append(f"{name}(): not defined")
            continue
        for arg, value in results.items():
            counts["macro_evaluations"] += 1
            if int(function(int(arg))) != value:
                bad.append(f"{name}({arg}) = {int(function(int(arg)))}, header {value}")
    for ctxt, fields in verdict["memstore_offsets"].items():
        for field, value in fields.items():
            counts["memstore_offsets"] += 1
            if kgsl_ioctl.KGSL_MEMSTORE_OFFSET(int(ctxt), field) != value:
                bad.append(f"KGSL_MEMSTORE_OFFSET({ctxt}, {field}) = "
                           f"{kgsl_ioctl.KGSL_MEMSTORE_OFFSET(int(ctxt), field)}, header {value}")
    return bad, counts


def _golden(path):
    with open(path) as f:
        return json.load(f)


def _complete(verdict, counts):
    """Everything the verdict holds was compared, not a subset."""
    assert counts["structs"] == len(verdict["structs"])
    assert counts["fields"] == sum(len(s["fields"]) for s in verdict["structs"].values())
    assert counts["ioctls"] + counts["constants"] == len(verdict["constants"])
    assert counts["ioctls"] == sum(n.startswith("IOCTL_KGSL_") for n in verdict["constants"])


# ---------------------------------------------------------------------------------------------
# 1. The fetched header, compiled now for arm64
# ---------------------------------------------------------------------------------------------

def _fetched_header():
    path = os.environ.get("KGSL_HEADER") or probe.cached_header()
    return path if os.path.exists(path) else None


@pytest.fixture(scope="module")
def live_verdict():
    if probe.find_compiler() is None:
        pytest.skip(f"{probe.DEFAULT_CC} is not installed (Debian: gcc-aarch64-linux-gnu)")
    header = _fetched_header()
    if header is None:
        pytest.skip("no fetched msm_kgsl.h: run `python scripts/kgsl_header_probe.py --fetch` "
                    "(or set KGSL_HEADER to mesa's src/freedreno/vulkan/msm_kgsl.h)")
    return probe.probe(header)


def test_fetched_header_matches(live_verdict):
    bad, counts = compare(live_verdict)
    assert bad == []
    _complete(live_verdict, counts)
    assert counts["structs"] >= 83 and counts["ioctls"] >= 55
    print(f"compared with {_fetched_header()}: {counts}")


def test_fetched_default_header_is_the_frozen_one(live_verdict):
    """The default --fetch ref is the commit the main frozen verdict was made from."""
    if os.environ.get("KGSL_HEADER"):
        pytest.skip("KGSL_HEADER names another header")
    golden = _golden(GOLDEN_MAIN)
    for key in ("structs", "constants", "macro_functions", "memstore_offsets"):
        assert live_verdict[key] == golden[key], key


# ---------------------------------------------------------------------------------------------
# 2. Frozen compiler verdicts
# ---------------------------------------------------------------------------------------------

def test_frozen_mesa_main_header_matches():
    golden = _golden(GOLDEN_MAIN)
    assert golden["abi"] == "arm64 (LP64)" and "aarch64-linux-gnu-gcc" in golden["compiler"]
    bad, counts = compare(golden)
    assert bad == []
    _complete(golden, counts)
    assert counts == dict(structs=100, fields=387, ioctls=65, constants=288, macro_evaluations=66,
                          memstore_offsets=40)


def test_frozen_mesa_24_header_matches():
    golden = _golden(GOLDEN_24)
    bad, counts = compare(golden)
    assert bad == []
    _complete(golden, counts)
    assert counts["structs"] == 83 and counts["ioctls"] == 55
    assert golden["constants"]["KGSL_PERFCOUNTER_GROUP_MAX"] < kgsl_ioctl.KGSL_PERFCOUNTER_GROUP_MAX


def test_every_struct_and_request_of_the_header_is_declared():
    golden = _golden(GOLDEN_MAIN)
    assert set(golden["structs"]) == set(kgsl_ioctl.STRUCT_NAMES)
    header_ioctls = {n for n in golden["constants"] if n.startswith("IOCTL_KGSL_")}
    assert header_ioctls == set(kgsl_ioctl.ioctls.__all__)


def test_comparison_catches_a_wrong_layout():
    """The comparator is not vacuous: a doctored verdict is reported field by field."""
    golden = _golden(GOLDEN_MAIN)
    golden["structs"]["kgsl_devinfo"]["fields"]["gmem_sizebytes"]["offset"] = 28
    golden["structs"]["kgsl_device_getproperty"]["size"] = 12
    golden["structs"]["kgsl_map_user_mem"]["fields"]["fd"]["signed"] = False
    golden["constants"]["KGSL_MEMFLAGS_USE_CPU_MAP"] = 1 << 27
    golden["constants"]["IOCTL_KGSL_DEVICE_GETPROPERTY"] = 0xC00C0902
    golden["structs"]["kgsl_made_up"] = {"size": 4, "fields": {}}
    golden["memstore_offsets"]["1"]["eoptimestamp"] = 44
    bad, _ = compare(golden)
    assert bad == [
        "offsetof(struct kgsl_devinfo, gmem_sizebytes) = 32, header 28",
        "sizeof(struct kgsl_device_getproperty) = 24, header 12",
        "struct kgsl_map_user_mem.fd: signed=True, header False",
        "struct kgsl_made_up: not declared",
        "KGSL_MEMFLAGS_USE_CPU_MAP = 0x10000000, header 0x8000000",
        "IOCTL_KGSL_DEVICE_GETPROPERTY = 0xc0180902, header 0xc00c0902",
        "KGSL_MEMSTORE_OFFSET(1, eoptimestamp) = 48, header 44",
    ]


# ---------------------------------------------------------------------------------------------
# 3. The request numbers and layouts of qcom.md §1 (an independent computation)
# ---------------------------------------------------------------------------------------------

QCOM_MD_REQUESTS = {
    "IOCTL_KGSL_DEVICE_GETPROPERTY": 0xC0180902, "IOCTL_KGSL_SETPROPERTY": 0x40180932,
    "IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID": 0x400C0907,
    "IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID": 0xC00C0916,
    "IOCTL_KGSL_DRAWCTXT_CREATE": 0xC0080913, "IOCTL_KGSL_DRAWCTXT_DESTROY": 0x40040914,
    "IOCTL_KGSL_GPUOBJ_ALLOC": 0xC0300945, "IOCTL_KGSL_GPUOBJ_FREE": 0x40200946,
    "IOCTL_KGSL_GPUOBJ_INFO": 0xC0300947, "IOCTL_KGSL_GPUOBJ_IMPORT": 0xC0200948,
    "IOCTL_KGSL_GPUOBJ_SYNC": 0x40100949, "IOCTL_KGSL_GPUMEM_ALLOC_ID": 0xC0300934,
    "IOCTL_KGSL_GPUMEM_FREE_ID": 0xC0080935, "IOCTL_KGSL_GPUMEM_GET_INFO": 0xC0480936,
    "IOCTL_KGSL_GPUMEM_ALLOC": 0xC018092F, "IOCTL_KGSL_MAP_USER_MEM": 0xC0300915,
    "IOCTL_KGSL_SHAREDMEM_FREE": 0x40080921, "IOCTL_KGSL_GPU_COMMAND": 0xC040094A,
    "IOCTL_KGSL_SUBMIT_COMMANDS": 0xC038093D, "IOCTL_KGSL_RINGBUFFER_ISSUEIBCMDS": 0xC0200910,
    "IOCTL_KGSL_TIMESTAMP_EVENT": 0xC0200933, "IOCTL_KGSL_PERFCOUNTER_GET": 0xC0140938,
    "IOCTL_KGSL_PERFCOUNTER_READ": 0xC018093B,
}


def test_request_numbers_match_qcom_md():
    for name, request in QCOM_MD_REQUESTS.items():
        assert getattr(kgsl_ioctl, name) == request, name


def test_layouts_match_qcom_md():
    def offsets(tag, names):
        return [ffi.offsetof(f"struct {tag}", n) for n in names]
    assert offsets("kgsl_gpu_command", ["flags", "cmdlist", "cmdsize", "numcmds", "objlist", "objsize",
                                        "numobjs", "synclist", "syncsize", "numsyncs", "context_id",
                                        "timestamp"]) == [0, 8, 16, 20, 24, 32, 36, 40, 48, 52, 56, 60]
    assert offsets("kgsl_command_object", ["offset", "gpuaddr", "size", "flags", "id"]) == [0, 8, 16, 24, 28]
    assert ffi.sizeof("struct kgsl_command_object") == 32
    assert ffi.sizeof("struct kgsl_command_syncpoint") == 24
    assert offsets("kgsl_devinfo", ["device_id", "chip_id", "mmu_enabled", "gmem_gpubaseaddr", "gpu_id",
                                    "gmem_sizebytes"]) == [0, 4, 8, 16, 24, 32]
    assert ffi.sizeof("struct kgsl_devinfo") == 40
    assert offsets("kgsl_gpuobj_alloc", ["size", "flags", "va_len", "mmapsize", "id", "metadata_len",
                                         "metadata"]) == [0, 8, 16, 24, 32, 36, 40]
    assert offsets("kgsl_gpumem_alloc_id", ["id", "flags", "size", "mmapsize", "gpuaddr"]) == [0, 4, 8, 16, 24]
    assert offsets("kgsl_gpumem_get_info", ["gpuaddr", "id", "flags", "size", "mmapsize", "useraddr"]) == \
        [0, 8, 12, 16, 24, 32]
    assert offsets("kgsl_map_user_mem", ["fd", "gpuaddr", "len", "offset", "hostptr", "memtype", "flags"]) == \
        [0, 8, 16, 24, 32, 40, 44]
    assert ffi.sizeof("struct kgsl_devmemstore") == 40
    assert [kgsl_ioctl.KGSL_MEMSTORE_OFFSET(3, f) for f in ("soptimestamp", "eoptimestamp", "preempted")] == \
        [120, 128, 136]


def test_flag_words_of_tinygrad_and_turnip():
    """qcom.md §1: tinygrad's compute context 0x04008A12 and allocation flags 0x100C0000 /
    0x140C0000 (uncached), turnip's context 0x13."""
    K = kgsl_ioctl
    assert K.context_flags(K.KGSL_CONTEXT_PREAMBLE, K.KGSL_CONTEXT_PWR_CONSTRAINT,
                           K.KGSL_CONTEXT_NO_FAULT_TOLERANCE, K.KGSL_CONTEXT_NO_GMEM_ALLOC, priority=8,
                           preempt_style=K.KGSL_CONTEXT_PREEMPT_STYLE_FINEGRAIN) == 0x04008A12
    assert K.context_flags(K.KGSL_CONTEXT_SAVE_GMEM, K.KGSL_CONTEXT_NO_GMEM_ALLOC,
                           K.KGSL_CONTEXT_PREAMBLE) == 0x13
    assert K.memflags(K.KGSL_MEMFLAGS_USE_CPU_MAP, align=12) == 0x100C0000
    assert K.memflags(K.KGSL_MEMFLAGS_USE_CPU_MAP, align=12, cachemode=K.KGSL_CACHEMODE_UNCACHED) == 0x140C0000
    assert K.memflags_fields(0x140C0000) == {"cachemode": 1, "memtype": 0, "align": 12, "usermem": 0}
    assert K.context_fields(0x04008A12) == {"priority": 8, "type": 0, "preempt_style": 2}
    assert K.memflags(K.KGSL_MEMFLAGS_IOCOHERENT, K.KGSL_MEMFLAGS_FORCE_32BIT,
                      cachemode=K.KGSL_CACHEMODE_WRITEBACK) == 0x1_8C00_0000


@pytest.mark.parametrize("call, message", [
    (lambda: kgsl_ioctl.context_flags(priority=16), r"priority 16 does not fit its field \(mask 0xf000\)"),
    (lambda: kgsl_ioctl.context_flags(type=32), "context type 32 does not fit"),
    (lambda: kgsl_ioctl.memflags(align=256), r"alignment \(log2\) 256 does not fit"),
    (lambda: kgsl_ioctl.memflags(cachemode=-1), "cache mode -1 does not fit"),
    (lambda: kgsl_ioctl.mmap_offset(0), "GPU object id must be a positive 32-bit int, got 0"),
])
def test_flag_builders_refuse_values_that_do_not_fit(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_mmap_offset_is_the_id_in_pages():
    assert kgsl_ioctl.mmap_offset(1) == 0x1000 and kgsl_ioctl.mmap_offset(0x2A) == 0x2A000


def _oracle_names():
    names, structs = set(), set()
    for path in (GOLDEN_MAIN, GOLDEN_24):
        golden = _golden(path)
        names |= set(golden["constants"]) | set(golden["macro_functions"])
        structs |= set(golden["structs"])
    names.add("KGSL_MEMSTORE_OFFSET")      # two-argument macro: checked through memstore_offsets
    return names, structs


def test_every_public_name_has_an_oracle():
    """Each constant, macro and struct we publish is checked by a compiler verdict."""
    names, structs = _oracle_names()
    public = {n for n in dir(kgsl_ioctl) if n.startswith(("KGSL_", "IOCTL_KGSL_"))}
    assert sorted(public - names) == []
    assert sorted(kgsl_ioctl.STRUCT_NAMES - structs) == []


# ---------------------------------------------------------------------------------------------
# The arm64 ABI and the refusal of a 32-bit process
# ---------------------------------------------------------------------------------------------

def test_layouts_are_arm64_whatever_the_host():
    """No member uses a host-sized C type: long, size_t and pointers are spelled __u64."""
    for tag in kgsl_ioctl.STRUCT_NAMES:
        for name, field in ffi.typeof(f"struct {tag}").fields:
            ctype = field.type.item if field.type.kind == "array" else field.type
            assert ctype.cname not in ("long", "unsigned long", "size_t", "void *"), (tag, name)
            assert ctype.kind != "pointer", (tag, name)


def test_the_32_bit_arm_abi_differs():
    """The header compiled for armv7: what a 32-bit process would have to send, and why it is
    refused. The message of check_abi() quotes this verdict."""
    arm32, arm64 = _golden(GOLDEN_ARMV7), _golden(GOLDEN_MAIN)
    assert arm32["abi"] == "32-bit ARM (ILP32, EABI)"
    bad, _ = compare(arm32)
    changed = sorted(t for t in arm64["structs"] if arm32["structs"][t] != arm64["structs"][t])
    requests = sorted(n for n in arm64["constants"]
                      if n.startswith("IOCTL_KGSL_") and arm32["constants"][n] != arm64["constants"][n])
    assert len(changed) == 25 and len(requests) == 23 and len(bad) >= len(changed)
    assert arm32["structs"]["kgsl_device_getproperty"]["size"] == 12
    assert arm32["structs"]["kgsl_devinfo"]["size"] == 24
    assert arm32["constants"]["IOCTL_KGSL_DEVICE_GETPROPERTY"] == 0xC00C0902
    # Structs of fixed-width members only are the same in both ABIs (GPU_COMMAND, GPUOBJ_*).
    assert "kgsl_gpu_command" not in changed and "kgsl_gpuobj_alloc" not in changed
    assert arm32["constants"]["IOCTL_KGSL_GPU_COMMAND"] == kgsl_ioctl.IOCTL_KGSL_GPU_COMMAND
    assert "IOCTL_KGSL_GPUMEM_ALLOC_ID" in requests and "IOCTL_KGSL_MAP_USER_MEM" in requests


def test_live_armv7_verdict_is_the_frozen_one():
    if probe.find_compiler(arch="armv7") is None:
        pytest.skip("clang-19 is not installed (the armv7 comparison compiler)")
    header = _fetched_header()
    if header is None or os.environ.get("KGSL_HEADER"):
        pytest.skip("no fetched default msm_kgsl.h: run `python scripts/kgsl_header_probe.py --fetch`")
    golden = _golden(GOLDEN_ARMV7)
    live = probe.probe(header, arch="armv7")
    for key in ("structs", "constants", "macro_functions", "memstore_offsets"):
        assert live[key] == golden[key], key


def test_a_32_bit_process_is_refused(monkeypatch):
    kgsl_ioctl.check_abi()                        # this (64-bit) interpreter passes
    monkeypatch.setattr(kgsl_ioctl.abi, "pointer_size", lambda: 4)
    with pytest.raises(kgsl_ioctl.UnsupportedABI, match=r"this Python is a 32-bit process: .*0xc00c0902 "
                                                        r"with a 12-byte argument.*run a 64-bit \(aarch64\)"):
        kgsl_ioctl.check_abi()


# ---------------------------------------------------------------------------------------------
# new(), the byte image, the IOCTLS table
# ---------------------------------------------------------------------------------------------

def test_byte_image_is_what_the_kernel_reads():
    info = kgsl_ioctl.new("kgsl_devinfo")
    prop = kgsl_ioctl.new("kgsl_device_getproperty", type=kgsl_ioctl.KGSL_PROP_DEVICE_INFO,
                          value=kgsl_ioctl.address_of(info), sizebytes=ffi.sizeof(info[0]))
    assert bytes(ffi.buffer(prop)) == struct.pack("<IIQQ", 1, 0, kgsl_ioctl.address_of(info), 40)
    alloc = kgsl_ioctl.new("kgsl_gpuobj_alloc", size=0x3000, flags=0x100C0000)
    assert bytes(ffi.buffer(alloc)) == struct.pack("<QQQQIIQ", 0x3000, 0x100C0000, 0, 0, 0, 0, 0)
    model = kgsl_ioctl.new("kgsl_gpu_model", gpu_model=b"Adreno630v2")
    assert ffi.string(model.gpu_model) == b"Adreno630v2" and ffi.sizeof(model[0]) == 32


def test_new_refuses_unknown_fields_structs_and_values():
    with pytest.raises(TypeError, match=r"struct kgsl_drawctxt_create has no field 'context_id' "
                                        r"\(fields: flags, drawctxt_id\)"):
        kgsl_ioctl.new("kgsl_drawctxt_create", context_id=1)
    with pytest.raises(TypeError, match=r"unknown KGSL struct 'kgsl_frobnicate'"):
        kgsl_ioctl.new("kgsl_frobnicate")
    with pytest.raises(OverflowError, match=r"struct kgsl_drawctxt_create\.flags = 4294967296"):
        kgsl_ioctl.new("kgsl_drawctxt_create", flags=1 << 32)
    with pytest.raises(TypeError, match=r"struct kgsl_bind_gmem_shadow\.gmem_desc: unknown field 'depth'"):
        kgsl_ioctl.new("kgsl_bind_gmem_shadow", gmem_desc={"depth": 1})
    assert kgsl_ioctl.new("struct kgsl_map_user_mem", fd=-1).fd == -1


def test_ioctls_table_is_consistent():
    names = set(kgsl_ioctl.ioctls.__all__)
    seen = set()
    for nr in range(256):
        for rec in kgsl_ioctl.by_nr(nr):
            seen.add(rec.name)
            assert rec.nr == nr == kgsl_ioctl._IOC_NR(rec.request)
            assert kgsl_ioctl._IOC_TYPE(rec.request) == kgsl_ioctl.KGSL_IOC_TYPE == 0x09
            assert kgsl_ioctl._IOC_SIZE(rec.request) == rec.size == ffi.sizeof(rec.ctype)
            assert kgsl_ioctl._IOC_DIR(rec.request) == rec.direction
            assert getattr(kgsl_ioctl, rec.name) == rec.request
            assert ffi.sizeof(ffi.typeof(rec.new()).item) == rec.size
    assert seen == names and len(names) == 65 and len(kgsl_ioctl.IOCTLS) == 64


def test_shared_command_numbers():
    old, new = kgsl_ioctl.by_nr(0x11)
    assert (old.name, old.direction_name, new.name, new.direction_name) == (
        "IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_OLD", "R", "IOCTL_KGSL_CMDSTREAM_READTIMESTAMP", "RW")
    cff, event_old = kgsl_ioctl.by_nr(0x31)
    assert cff.request == event_old.request == 0x40200931 and cff.ctype != event_old.ctype
    assert kgsl_ioctl.by_request(0x40200931) is cff
    setprop = kgsl_ioctl.by_request(kgsl_ioctl.IOCTL_KGSL_SETPROPERTY)
    assert (setprop.struct, setprop.copies_in, setprop.copies_out) == ("kgsl_device_getproperty", True, False)
    destroy = kgsl_ioctl.by_request(kgsl_ioctl.IOCTL_KGSL_TIMELINE_DESTROY)
    assert (destroy.struct, destroy.ctype, destroy.size) == (None, "__u32", 4)
    with pytest.raises(TypeError, match="takes a bare __u32"):
        destroy.new(id=1)


def test_by_request_unknown_and_wrong_type():
    assert kgsl_ioctl.by_request(0xC00C0902) is None       # the 32-bit ARM GETPROPERTY
    assert kgsl_ioctl.by_request(0xC0180903) is None       # no command 0x03
    with pytest.raises(TypeError, match="ioctl request must be an int, got str"):
        kgsl_ioctl.by_request("0xc0180902")


def test_ioc_encoding():
    assert kgsl_ioctl._IOWR(0x09, 0x02, 24) == 0xC0180902
    assert kgsl_ioctl._IOW(0x09, 0x5D, 4) == 0x4004095D == kgsl_ioctl.IOCTL_KGSL_TIMELINE_DESTROY
    assert kgsl_ioctl._IOR(0x09, 0x11, 8) == 0x80080911 == kgsl_ioctl.IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_OLD
    with pytest.raises(ValueError, match=r"_IOC size 0x4000 does not fit in 14 bits"):
        kgsl_ioctl._IOWR(0x09, 1, 0x4000)
    with pytest.raises(TypeError, match="_IOC nr must be an int, got float"):
        kgsl_ioctl._IOR(0x09, 1.0, 8)


# ---------------------------------------------------------------------------------------------
# The probe script itself (scripts/kgsl_header_probe.py)
# ---------------------------------------------------------------------------------------------

SYNTHETIC_HEADER = """
#include <linux/types.h>
#define KGSL_TEST_A (1 << 31U)
#define KGSL_TEST_NAME "text"
#define KGSL_TEST_BIT(x) (1ULL << (x))
#define KGSL_TEST_TWO(a, b) ((a) + (b))
enum kgsl_test_enum { KGSL_TEST_E0, KGSL_TEST_E5 = 5, KGSL_TEST_E6, };
struct kgsl_test_inner { unsigned int x; };
struct kgsl_test {
    int fd;
    unsigned long addr;
    void __user *ptr;
    struct kgsl_test_inner __user *list;
    __kernel_size_t size;
    char name[6];
    struct kgsl_test_inner items[2];
    enum kgsl_test_enum kind;
};
"""


def test_probe_enumerates_members():
    names = probe.enumerate_header(SYNTHETIC_HEADER)
    assert names["constants"] == ["KGSL_TEST_A", "KGSL_TEST_E0", "KGSL_TEST_E5", "KGSL_TEST_E6"]
    assert names["macro_functions"] == ["KGSL_TEST_BIT"] and names["macro_functions_2"] == ["KGSL_TEST_TWO"]
    assert names["structs"]["kgsl_test"] == [
        ("fd", "scalar"), ("addr", "scalar"), ("ptr", "pointer"), ("list", "pointer"), ("size", "scalar"),
        ("name", "char_array"), ("items", "aggregate_array"), ("kind", "scalar")]


def test_probe_compiles_for_arm64(tmp_path):
    if probe.find_compiler() is None:
        pytest.skip(f"{probe.DEFAULT_CC} is not installed (Debian: gcc-aarch64-linux-gnu)")
    header = tmp_path / "kgsl_test.h"
    header.write_text(SYNTHETIC_HEADER)
    verdict = probe.probe(str(header))
    layout = verdict["structs"]["kgsl_test"]
    assert layout["size"] == 64
    assert layout["fields"]["fd"] == {"offset": 0, "size": 4, "signed": True, "kind": "scalar"}
    assert layout["fields"]["addr"] == {"offset": 8, "size": 8, "signed": False, "kind": "scalar"}
    assert layout["fields"]["ptr"] == {"offset": 16, "size": 8, "signed": None, "kind": "pointer"}
    assert layout["fields"]["size"]["size"] == 8
    assert layout["fields"]["name"] == {"offset": 40, "size": 6, "signed": False, "kind": "char_array"}
    assert layout["fields"]["kind"] == {"offset": 56, "size": 4, "signed": False, "kind": "scalar"}
    assert verdict["constants"] == {"KGSL_TEST_A": 0x80000000, "KGSL_TEST_E0": 0, "KGSL_TEST_E5": 5,
                                    "KGSL_TEST_E6": 6}
    assert verdict["macro_functions"]["KGSL_TEST_BIT"]["32"] == 1 << 32


def test_probe_rejects_what_it_cannot_measure():
    with pytest.raises(probe.ProbeError, match="cannot parse member declaration 'unsigned int a, b'"):
        probe.enumerate_header("struct kgsl_bad { unsigned int a, b; };")


def test_probe_reports_compiler_errors(tmp_path):
    if probe.find_compiler() is None:
        pytest.skip(f"{probe.DEFAULT_CC} is not installed (Debian: gcc-aarch64-linux-gnu)")
    header = tmp_path / "kgsl_broken.h"
    header.write_text("struct kgsl_broken { undeclared_type_t a; };\n")
    with pytest.raises(probe.ProbeError, match=r"aarch64-linux-gnu-gcc failed on the probe for .*kgsl_broken\.h"):
        probe.probe(str(header))


def test_probe_refuses_an_object_that_is_not_arm64(tmp_path):
    import shutil
    import subprocess
    if shutil.which("cc") is None:
        pytest.skip("no host C compiler")
    src, obj = tmp_path / "x.c", tmp_path / "x.o"
    src.write_text("const unsigned long long v[] __attribute__((section(\".kgsl_probe\"))) = {1};\n")
    subprocess.run(["cc", "-c", "-o", str(obj), str(src)], check=True)
    with pytest.raises(probe.ProbeError, match="not a little-endian 64-bit arm64 object"):
        probe.read_section(str(obj))


def test_probe_cli_needs_a_header_or_fetch(capsys):
    with pytest.raises(SystemExit):
        probe.main([])
    assert "give either HEADER or --fetch [REF]" in capsys.readouterr().err


def test_probe_cli_names_a_missing_compiler(tmp_path, capsys):
    header = tmp_path / "msm_kgsl.h"
    header.write_text(SYNTHETIC_HEADER)
    assert probe.main([str(header), "--cc", "no-such-aarch64-gcc"]) == 1
    assert "no-such-aarch64-gcc not found (Debian: apt-get install gcc-aarch64-linux-gnu)" in capsys.readouterr().err
