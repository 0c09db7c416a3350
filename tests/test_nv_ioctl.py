"""nv_ioctl against NVIDIA's own headers (open-gpu-kernel-modules), compiled by gcc, per driver branch.

Oracles:
1. frozen verdicts of scripts/nv_header_probe.py in tests/data/nv_ioctl/<tag>.json, one per
   supported branch (no tool needed): sizeof/offsetof/signedness of every member of every struct we
   declare (members enumerated from the header, so a field we lack shows up), the value of every
   constant and DRF range we export, `_IOWR('F', escape, type)` of every escape, every NV_STATUS code;
2. live: for each of those tags with a checkout in the cache (scripts/nv_header_probe.py
   --fetch-only --tag TAG; CI fetches the newest) or named by NV_OGKM_DIR, the probe runs again
   now and must agree with the frozen verdict (skipped otherwise).
"""
import importlib.util
import json
import os
import struct

import pytest

import nv_ioctl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "nv_ioctl")


def _load_probe():
    spec = importlib.util.spec_from_file_location("nv_header_probe", os.path.join(ROOT, "scripts", "nv_header_probe.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


probe = _load_probe()


def golden(tag):
    with open(os.path.join(DATA, f"{tag}.json")) as f:
        return json.load(f)


# ---------------------------------------------------------------------------------------------
# Comparing a compiler verdict with one branch's layouts
# ---------------------------------------------------------------------------------------------

def _field_type(L, name, path):
    ctype = L.ffi.typeof(name)
    for part in path.split("."):
        ctype = dict(ctype.fields)[part].type
    return ctype


def _is_signed(L, ctype):
    if ctype.kind == "array":
        ctype = ctype.item
    if ctype.kind != "primitive":
        return None
    if ctype.cname == "char":
        return True                  # plain char is signed on x86-64, where the verdicts are made
    return int(L.ffi.cast(ctype, -1)) < 0


def compare(verdict, L):
    """(mismatches, counts) of Layouts `L` against one compiler verdict."""
    bad = []
    counts = dict(structs=0, fields=0, constants=0, ranges=0, requests=0, status_codes=0)
    ours = L.type_names()
    for name in sorted(ours - set(verdict["structs"])):
        bad.append(f"{name}: declared here, not in the header")
    for name, layout in verdict["structs"].items():
        if name not in ours:
            bad.append(f"{name}: in the header, not declared")
            continue
        counts["structs"] += 1
        if L.sizeof(name) != layout["size"]:
            bad.append(f"sizeof({name}) = {L.sizeof(name)}, header {layout['size']}")
        ctype = L.ffi.typeof(name)
        if ctype.kind == "struct":
            extra = [f for f, _ in ctype.fields if f not in layout["fields"]]
            bad += [f"{name}.{f}: declared here, not in the header" for f in extra]
        for path, field in layout["fields"].items():
            counts["fields"] += 1
            try:
                offset, ftype = L.offsetof(name, *path.split(".")), _field_type(L, name, path)
            except (KeyError, TypeError) as e:
                bad.append(f"{name}.{path}: missing ({e})")
                continue
            if offset != field["offset"]:
                bad.append(f"offsetof({name}, {path}) = {offset}, header {field['offset']}")
            if field["size"] is not None and L.ffi.sizeof(ftype) != field["size"]:
                bad.append(f"sizeof({name}.{path}) = {L.ffi.sizeof(ftype)}, header {field['size']}")
            if field["signed"] is not None and _is_signed(L, ftype) != field["signed"]:
                bad.append(f"{name}.{path}: signed={_is_signed(L, ftype)}, header {field['signed']}")
    for name, value in L.constants().items():
        if name not in verdict["constants"]:
            bad.append(f"{name}: not in the header")
            continue
        counts["constants"] += 1
        if value != verdict["constants"][name]:
            bad.append(f"{name} = {value:#x}, header {verdict['constants'][name]:#x}")
    for name, field in nv_ioctl.RANGES.items():
        if name not in verdict["ranges"]:
            bad.append(f"{name}: not a hi:lo range in the header")
            continue
        counts["ranges"] += 1
        if [field.hi, field.lo] != verdict["ranges"][name]:
            bad.append(f"{name} = {field.hi}:{field.lo}, header {verdict['ranges'][name][0]}:{verdict['ranges'][name][1]}")
    for esc in L.escapes():
        key = f"{esc.name}/{esc.struct}"
        if key not in verdict["requests"]:
            bad.append(f"{key}: no request in the verdict")
            continue
        counts["requests"] += 1
        if esc.request() != verdict["requests"][key]:
            bad.append(f"{key}: request {esc.request():#x}, header {verdict['requests'][key]:#x}")
    ours = L.status_codes()
    for name, code in verdict["status_codes"].items():
        counts["status_codes"] += 1
        if ours.get(name) != code:
            bad.append(f"{name} = {ours.get(name)}, header {code:#x}")
    bad += [f"{name}: status declared here, not in the header" for name in sorted(set(ours) - set(verdict["status_codes"]))]
    return bad, counts


# ---------------------------------------------------------------------------------------------
# 1. Frozen verdicts, one per supported branch
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("branch,tag", sorted(nv_ioctl.BRANCHES.items()))
def test_frozen_header_verdict_matches(branch, tag):
    verdict = golden(tag)
    assert verdict["tag"] == tag and verdict["branch"] == branch
    assert verdict["missing"] == {"structs": [], "constants": [], "ranges": [], "escapes": []}
    L = nv_ioctl.layouts(branch)
    bad, counts = compare(verdict, L)
    assert bad == []
    # Everything we declare was compared, and every header member of those structs.
    assert counts["structs"] == len(L.type_names()) == len(verdict["structs"]) == 77
    assert counts["fields"] == sum(len(s["fields"]) for s in verdict["structs"].values())
    assert counts["constants"] == len(L.constants()) and counts["ranges"] == len(nv_ioctl.RANGES)
    assert counts["requests"] == len(L.escapes()) == 14
    assert counts["status_codes"] == len(verdict["status_codes"]) >= 143


def test_every_branch_was_probed_and_nothing_else():
    files = sorted(f[:-5] for f in os.listdir(DATA) if f.endswith(".json"))
    assert files == sorted(nv_ioctl.BRANCHES.values())


def test_status_codes_per_branch():
    """NV_STATUS codes are per branch: 595 gave 0x8B to a new status and moved another."""
    L580, L595 = nv_ioctl.layouts(580), nv_ioctl.layouts(595)
    assert L580.status_name(0x8B) == "NV_ERR_DMA_XFER_FAILED" == L595.status_name(0x8C)
    assert L595.status_name(0x8B) == "NV_ERR_OPERATION_ABORTED"
    assert "NV_ERR_OPERATION_ABORTED" not in L580.status_codes()
    assert L595.status_name(0x1F) == "NV_ERR_INVALID_ARGUMENT" and L595.status_code("NV_ERR_INVALID_CLASS") == 0x22
    assert L595.status_name(0xBEEF) == "NV_STATUS 0x0000BEEF"
    assert nv_ioctl.layouts(570).status_codes() == golden("570.211.01")["status_codes"]


def test_comparison_catches_a_wrong_layout():
    """The comparator is not vacuous: a doctored verdict is reported item by item."""
    verdict = golden("580.142")
    verdict["structs"]["NVOS46_PARAMETERS"]["fields"]["dmaOffset"]["offset"] = 40
    verdict["structs"]["NVOS21_PARAMETERS"]["size"] = 36
    verdict["structs"]["UVM_MM_INITIALIZE_PARAMS"]["fields"]["uvmFd"]["signed"] = False
    verdict["structs"]["NV2080_ALLOC_PARAMETERS"]["fields"]["reserved"] = {"offset": 4, "size": 4, "signed": False}
    verdict["constants"]["AMPERE_COMPUTE_B"] = 0xC6C0
    verdict["ranges"]["NVOS46_FLAGS_PAGE_SIZE"] = [12, 8]
    verdict["requests"]["NV_ESC_RM_CONTROL/NVOS54_PARAMETERS"] = 0xC028462A
    del verdict["structs"]["NVOS47_PARAMETERS"]
    del verdict["structs"]["NVOS46_PARAMETERS"]["fields"]["flags2"]
    verdict["status_codes"]["NV_ERR_GENERIC"] = 0xFFFE
    bad, _ = compare(verdict, nv_ioctl.layouts(580))
    assert bad == [
        "NVOS47_PARAMETERS: declared here, not in the header",
        "NV2080_ALLOC_PARAMETERS.reserved: missing ('reserved')",
        "sizeof(NVOS21_PARAMETERS) = 32, header 36",
        "NVOS46_PARAMETERS.flags2: declared here, not in the header",
        "offsetof(NVOS46_PARAMETERS, dmaOffset) = 48, header 40",
        "UVM_MM_INITIALIZE_PARAMS.uvmFd: signed=True, header False",
        "AMPERE_COMPUTE_B = 0xc7c0, header 0xc6c0",
        "NVOS46_FLAGS_PAGE_SIZE = 11:8, header 12:8",
        "NV_ESC_RM_CONTROL/NVOS54_PARAMETERS: request 0xc020462a, header 0xc028462a",
        "NV_ERR_GENERIC = 65535, header 0xfffe",
    ]


def test_a_branch_layout_against_another_branch_fails():
    """The branches really differ: 570's layouts checked against 580's headers are wrong where
    NVIDIA changed the structs."""
    bad, _ = compare(golden("580.142"), nv_ioctl.layouts(570))
    assert "sizeof(NVOS46_PARAMETERS) = 56, header 64" in bad
    assert "sizeof(NV_VASPACE_ALLOCATION_PARAMETERS) = 48, header 56" in bad
    assert "NV_ESC_RM_MAP_MEMORY_DMA/NVOS46_PARAMETERS: request 0xc0384657, header 0xc0404657" in bad


# ---------------------------------------------------------------------------------------------
# 2. Live: the probe again on a checkout, when one is named
# ---------------------------------------------------------------------------------------------

def _checkout(tag):
    """NV_OGKM_DIR when it is at `tag`, else the checkout scripts/nv_header_probe.py fetched into the cache."""
    named = os.environ.get("NV_OGKM_DIR")
    if named and os.path.isfile(os.path.join(named, "version.mk")) and probe.read_tag(named) == tag:
        return named
    cached = probe.cached_checkout(tag)
    return cached if os.path.isfile(os.path.join(cached, "version.mk")) else None


@pytest.mark.parametrize("tag", sorted(nv_ioctl.BRANCHES.values()))
def test_live_probe_agrees_with_the_frozen_verdict(tag):
    source = _checkout(tag)
    if source is None:
        pytest.skip(f"no checkout of NVIDIA/open-gpu-kernel-modules {tag} (fetch one with "
                    f"'python scripts/nv_header_probe.py --fetch-only --tag {tag}', or set NV_OGKM_DIR); "
                    "the frozen verdict is checked without it")
    if probe.find_compiler() is None:
        pytest.skip("no C compiler ($CC, gcc or cc)")
    verdict = probe.probe(source)
    frozen = golden(tag)
    for key in ("structs", "constants", "ranges", "requests", "status_codes", "missing"):
        assert verdict[key] == frozen[key], key


# ---------------------------------------------------------------------------------------------
# The differences between branches, as a table (also what cdefs.changes() says)
# ---------------------------------------------------------------------------------------------

def branch_differences():
    """{struct or constant: {tag: size or value}} for everything that is not the same in every branch."""
    verdicts = {tag: golden(tag) for tag in nv_ioctl.BRANCHES.values()}
    out = {}
    for name in verdicts["595.45.04"]["structs"]:
        sizes = {tag: v["structs"][name]["size"] for tag, v in verdicts.items()}
        layouts = {tag: json.dumps(v["structs"][name], sort_keys=True) for tag, v in verdicts.items()}
        if len(set(layouts.values())) > 1:
            out[name] = sizes
    for name in verdicts["595.45.04"]["constants"]:
        values = {tag: v["constants"].get(name) for tag, v in verdicts.items()}
        if len(set(values.values())) > 1:
            out[name] = values
    return out


def test_branch_differences_are_the_declared_variants():
    diffs = branch_differences()
    assert diffs == {
        "NVOS46_PARAMETERS": {"570.211.01": 56, "575.64.05": 56, "580.142": 64, "590.48.01": 64, "595.45.04": 64},
        "NV_VASPACE_ALLOCATION_PARAMETERS": {"570.211.01": 48, "575.64.05": 48, "580.142": 56, "590.48.01": 56,
                                             "595.45.04": 56},
        "NV0080_CTRL_GPU_GET_CLASSLIST_V2_PARAMS": {"570.211.01": 404, "575.64.05": 404, "580.142": 804,
                                                    "590.48.01": 804, "595.45.04": 804},
        "NV2080_CTRL_FB_GET_INFO_V2_PARAMS": {"570.211.01": 460, "575.64.05": 460, "580.142": 1028,
                                              "590.48.01": 1028, "595.45.04": 1028},
        "NVA06F_CTRL_GPFIFO_SCHEDULE_PARAMS": {"570.211.01": 2, "575.64.05": 3, "580.142": 3, "590.48.01": 3,
                                               "595.45.04": 3},
        "NVA06C_CTRL_GPFIFO_SCHEDULE_PARAMS": {"570.211.01": 2, "575.64.05": 3, "580.142": 3, "590.48.01": 3,
                                               "595.45.04": 3},
        "UVM_UNREGISTER_CHANNEL_PARAMS": {"570.211.01": 28, "575.64.05": 28, "580.142": 28, "590.48.01": 12,
                                          "595.45.04": 12},
        "UVM_FREE_PARAMS": {"570.211.01": 24, "575.64.05": 24, "580.142": 24, "590.48.01": 16, "595.45.04": 16},
        "NV0080_CTRL_GPU_CLASSLIST_MAX_SIZE": {"570.211.01": 100, "575.64.05": 100, "580.142": 200,
                                               "590.48.01": 200, "595.45.04": 200},
        "NV2080_CTRL_FB_INFO_MAX_LIST_SIZE": {"570.211.01": 0x39, "575.64.05": 0x39, "580.142": 0x80,
                                              "590.48.01": 0x80, "595.45.04": 0x80},
        "NV2080_CTRL_GR_INFO_MAX_SIZE": {"570.211.01": 0x3A, "575.64.05": 0x3A, "580.142": 0x3A,
                                         "590.48.01": 0x3B, "595.45.04": 0x3B},
    }
    # Every struct that differs has one declaration per layout (NVA06C's is a typedef of NVA06F's).
    from nv_ioctl.cdefs import changes
    structs = {name for name in diffs if name in golden("595.45.04")["structs"]}
    assert set(changes()) == structs - {"NVA06C_CTRL_GPFIFO_SCHEDULE_PARAMS"}
    assert changes()["NVOS46_PARAMETERS"] == [580] and changes()["UVM_FREE_PARAMS"] == [590]


# ---------------------------------------------------------------------------------------------
# The Python side: branch choice, new(), requests, DRF fields
# ---------------------------------------------------------------------------------------------

def test_layouts_chosen_by_version_string():
    assert nv_ioctl.layouts_for_version("580.95.05").branch == 580
    assert nv_ioctl.layouts("575.64.05").sizeof("NVOS46_PARAMETERS") == 56
    assert nv_ioctl.layouts(590) is nv_ioctl.layouts("590.48.01")
    v = nv_ioctl.parse_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build")
    assert (v.text, v.major, v.minor, v.patch) == ("580.95.05", 580, 95, 5)
    assert nv_ioctl.parse_driver_version("580.142").patch is None


@pytest.mark.parametrize("version,message", [
    ("535.288.01", "driver 535.288.01: layouts known for 570, 575, 580, 590, 595"),
    ("610.12", r"driver 610.12 \(newer than any known branch\): layouts known for 570, 575, 580, 590, 595"),
    (560, "driver branch 560: layouts known for 570, 575, 580, 590, 595"),
])
def test_unknown_branch_names_the_known_ones(version, message):
    with pytest.raises(nv_ioctl.UnknownBranch, match=message):
        nv_ioctl.layouts(version)


def test_bad_version_arguments():
    with pytest.raises(ValueError, match="no NVIDIA driver version"):
        nv_ioctl.layouts("nvidia")
    with pytest.raises(TypeError, match="driver branch must be an int or a version string"):
        nv_ioctl.layouts(5.8)


def test_request_numbers_user_space_drivers_send():
    # RM_ALLOC 0xC020462B (NVOS21) / 0xC030462B (NVOS64), RM_CONTROL 0xC020462A, RM_FREE 0xC0104629,
    # MAP_MEMORY 0xC038464E, ALLOC_MEMORY 0xC0384627, MAP_MEMORY_DMA 0xC0404657 (>= 580),
    # CARD_INFO x1 0xC04846C8, REGISTER_FD 0xC00446C9.
    L = nv_ioctl.layouts(580)
    assert L.request("NV_ESC_RM_ALLOC") == 0xC020462B
    assert L.request("NV_ESC_RM_ALLOC", "NVOS64_PARAMETERS") == 0xC030462B
    assert L.request("NV_ESC_RM_CONTROL") == 0xC020462A
    assert L.request("NV_ESC_RM_FREE") == 0xC0104629
    assert L.request("NV_ESC_RM_MAP_MEMORY") == 0xC038464E
    assert L.request("NV_ESC_RM_ALLOC_MEMORY") == 0xC0384627
    assert L.request("NV_ESC_RM_MAP_MEMORY_DMA") == 0xC0404657
    assert nv_ioctl.layouts(570).request("NV_ESC_RM_MAP_MEMORY_DMA") == 0xC0384657
    assert L.request("NV_ESC_CARD_INFO") == 0xC04846C8
    assert L.request("NV_ESC_CARD_INFO", count=64) == nv_ioctl._IOWR("F", 200, 72 * 64)
    assert L.request("NV_ESC_REGISTER_FD") == 0xC00446C9
    assert L.request("NV_ESC_ATTACH_GPUS_TO_FD", count=2) == nv_ioctl._IOWR("F", 212, 8)
    # UVM: raw numbers, and the argument sizes the module copies
    assert L.uvm("UVM_INITIALIZE") == ("UVM_INITIALIZE", 0x30000001, "UVM_INITIALIZE_PARAMS", 16)
    assert L.uvm("UVM_CREATE_EXTERNAL_RANGE").size == 24 and L.uvm("UVM_PAGEABLE_MEM_ACCESS").size == 8
    assert L.uvm("UVM_MAP_EXTERNAL_ALLOCATION").size == 9264 and L.uvm("UVM_REGISTER_GPU").size == 40
    assert L.uvm("UVM_REGISTER_CHANNEL").size == 56 and L.uvm("UVM_REGISTER_GPU_VASPACE").size == 32
    assert L.uvm_by_number(75).name == "UVM_MM_INITIALIZE" and L.uvm_by_number(99) is None
    assert [e.struct for e in L.escapes_by_nr(0x2B)] == ["NVOS21_PARAMETERS", "NVOS64_PARAMETERS"]


def test_an_argument_over_the_size_field_needs_xfer():
    L = nv_ioctl.layouts(595)
    with pytest.raises(ValueError, match="NV_ESC_CARD_INFO: 16416 bytes do not fit _IOC_SIZE; "
                                         "send it with NV_ESC_IOCTL_XFER_CMD"):
        L.request("NV_ESC_CARD_INFO", count=228)


def test_controls_and_classes():
    L = nv_ioctl.layouts(595)
    gr = L.control(nv_ioctl.NV2080_CTRL_CMD_GR_GET_INFO)
    assert (gr.name, gr.struct, gr.size) == ("NV2080_CTRL_CMD_GR_GET_INFO", "NV2080_CTRL_GR_GET_INFO_PARAMS", 32)
    assert L.control(0x12345678) is None
    assert L.control(nv_ioctl.NVA06C_CTRL_CMD_GPFIFO_SCHEDULE).size == 3
    assert nv_ioctl.layouts(570).control(nv_ioctl.NVA06C_CTRL_CMD_GPFIFO_SCHEDULE).size == 2
    assert L.class_params(nv_ioctl.AMPERE_CHANNEL_GPFIFO_A) == "NV_CHANNEL_ALLOC_PARAMS"
    assert L.class_params(nv_ioctl.AMPERE_USERMODE_A) is None
    assert L.sizeof("NV_CHANNEL_ALLOC_PARAMS") == 368                 # 368 bytes in every branch
    assert nv_ioctl.class_name(0xC7C0) == "AMPERE_COMPUTE_B" and nv_ioctl.class_name(0) == "NV01_ROOT"
    assert nv_ioctl.class_name(0x40) == "NV01_MEMORY_LOCAL_USER" and nv_ioctl.class_name(0xBEEF) == "class 0xBEEF"
    assert nv_ioctl.control_name(0x2080014A) == "NV2080_CTRL_CMD_GPU_GET_GID_INFO"
    assert L.NV2080_CTRL_FB_INFO_MAX_LIST_SIZE == 0x80 and nv_ioctl.layouts(575).NV0080_CTRL_GPU_CLASSLIST_MAX_SIZE == 100


def test_new_sets_fields_and_names_mistakes():
    L = nv_ioctl.layouts(595)
    args = L.new("NVOS21_PARAMETERS", hRoot=1, hObjectParent=2, hObjectNew=3, hClass=0xC7C0, pAllocParms=0x1000,
                 paramsSize=16)
    assert bytes(L.ffi.buffer(args)) == struct.pack("<IIIIQII", 1, 2, 3, 0xC7C0, 0x1000, 16, 0)
    with pytest.raises(TypeError, match=r"NVOS46_PARAMETERS has no field 'flags2' in driver branch 570 "
                                        r"\(fields: hClient, hDevice"):
        nv_ioctl.layouts(570).new("NVOS46_PARAMETERS", flags2=1)
    with pytest.raises(OverflowError, match=r"NVOS54_PARAMETERS.cmd = 4294967296"):
        L.new("NVOS54_PARAMETERS", cmd=1 << 32)
    with pytest.raises(TypeError, match=r"unknown NVIDIA type 'NVOS99_PARAMETERS' \(driver branch 595\)"):
        L.new("NVOS99_PARAMETERS")
    with pytest.raises(TypeError, match="NvU32 is not a struct"):
        L.field_names("NvU32")
    card = L.new("nv_ioctl_card_info_t", valid=1, pci_info={"bus": 1, "device_id": 0x2204}, minor_number=3)
    raw = bytes(L.ffi.buffer(card))
    assert len(raw) == 72 and raw[0] == 1 and raw[8] == 1 and struct.unpack_from("<H", raw, 14)[0] == 0x2204
    assert struct.unpack_from("<I", raw, 56)[0] == 3


def test_drf_fields():
    page_size = nv_ioctl.NVOS46_FLAGS_PAGE_SIZE
    assert (page_size.hi, page_size.lo, page_size.width, page_size.mask) == (11, 8, 4, 0xF)
    flags = (page_size.num(nv_ioctl.NVOS46_FLAGS_PAGE_SIZE_4KB)
             | nv_ioctl.NVOS46_FLAGS_CACHE_SNOOP.num(nv_ioctl.NVOS46_FLAGS_CACHE_SNOOP_ENABLE)
             | nv_ioctl.NVOS46_FLAGS_DMA_OFFSET_FIXED.num(nv_ioctl.NVOS46_FLAGS_DMA_OFFSET_FIXED_TRUE))
    assert flags == (1 << 8) | (1 << 4) | (1 << 15)                    # the flags of a fixed-VA GPU mapping
    assert page_size.val(flags) == 1 and page_size.set(flags, 4) == (4 << 8) | (1 << 4) | (1 << 15)
    caching = nv_ioctl.NVOS33_FLAGS_CACHING_TYPE.num(nv_ioctl.NVOS33_FLAGS_CACHING_TYPE_WRITECOMBINED)
    assert caching == 2 << 23                                          # write-combined CPU mapping
    with pytest.raises(ValueError, match="16 does not fit the 4-bit field 11:8"):
        page_size.num(16)
    assert repr(nv_ioctl.NVOS02_FLAGS_MAPPING) == "Field(31:30)"


# ---------------------------------------------------------------------------------------------
# The probe script itself
# ---------------------------------------------------------------------------------------------

def test_probe_enumerates_members_of_preprocessed_c():
    text = """
    typedef struct { unsigned int a; unsigned long long b __attribute__ ((aligned (8))); } A_T;
    typedef struct B_T { A_T inner; union { unsigned int x; int y; }; struct { int lo; } named; int arr[4U]; } B_T;
    typedef B_T C_T;
    enum { E0 = 0, E1 = (5), };
    """
    typedefs = probe.parse_typedefs(text)
    records = {n for n in typedefs if probe.resolve(typedefs, n) is not None}
    assert probe.members(probe.resolve(typedefs, "C_T"), records) == [
        ("inner", "aggregate"), ("x", "scalar"), ("y", "scalar"), ("named", "aggregate"),
        ("named.lo", "scalar"), ("arr", "array")]
    assert probe.enumerators(text) == ["E0", "E1"]
    with pytest.raises(probe.ProbeError, match="cannot parse member declaration 'int a, b'"):
        probe.members("int a, b;", set())


def test_probe_cli_names_a_missing_checkout(tmp_path, capsys):
    assert probe.main(["--source", str(tmp_path)]) == 1
    assert f"nv_header_probe: {tmp_path}/version.mk: No such file or directory (is {tmp_path} a checkout " \
           "of open-gpu-kernel-modules?)" in capsys.readouterr().err
