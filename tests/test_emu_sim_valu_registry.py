"""The VALU registry covers every gfx1100 vector ALU mnemonic the oracle tables know, with operand
widths that match the encodings' register counts."""
import re

import numpy as np
import pytest

from assembler.rdna3.tables import ALU
from drivers.emu.amd.shader.valu import VALU, Ctx

VECTOR_FAMILIES = ("VOP1", "VOP2", "VOP3", "VOP3SD", "VOP3P", "VOPC")

# Executed by the simulator core, not by this library: lane-crossing ops, no-ops, v_illegal (an
# exception), v_swap_b32 / v_swaprel_b32 (they write two VGPRs) and v_permlane64_b32 (wave64 only).
CORE_OWNED = {"v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32", "v_permlane16_b32",
              "v_permlanex16_b32", "v_nop", "v_pipeflush", "v_illegal", "v_swap_b32",
              "v_swaprel_b32", "v_permlane64_b32"}


def base(mnemonic):
    return re.sub(r"(_e32|_e64|_dpp|_e64_dpp)$", "", mnemonic)


def table_entries():
    out = {}
    for fam in VECTOR_FAMILIES:
        for entry in ALU[fam].values():
            out.setdefault(base(entry[0]), []).append((fam, entry))
    return out


ENTRIES = table_entries()


def test_every_vector_alu_mnemonic_is_registered():
    missing = set(ENTRIES) - set(VALU) - CORE_OWNED
    assert missing == set()
    assert set(VALU) <= set(ENTRIES), set(VALU) - set(ENTRIES)
    assert not CORE_OWNED & set(VALU)
    assert len(VALU) == len(ENTRIES) - len(CORE_OWNED)


def test_clang_kernel_mnemonics_are_covered():
    path = "tests/clang_kernels/MNEMONICS.txt"
    names = [line.split()[0] for line in open(path) if line.startswith("v_")]
    wanted = {re.sub(r"^v_dual_", "v_", base(n)) for n in names}
    assert wanted - set(VALU) - CORE_OWNED == set()


def _widest(entries):
    """(source widths, destination width) of the widest encoding (VOP3 forms list src2)."""
    best = None
    for fam, entry in entries:
        srcs, dst = [], None
        for o in entry[1]:
            if o[0] == "src" or (o[0] == "reg" and o[1].startswith("vsrc")):
                srcs.append(32 * (o[2] if o[0] == "src" else o[3]))
            elif o[0] == "lit":
                srcs.append(32)
            elif o[0] == "reg" and o[1] == "vdst" and o[2] == "v":
                dst = 32 * o[3]
        if best is None or len(srcs) > len(best[0]):
            best = (srcs, dst)
    return best


@pytest.mark.parametrize("name", sorted(VALU))
def test_operand_widths_match_the_encoding(name):
    o = VALU[name]
    srcs, dst = _widest(ENTRIES[name])
    if o.mask_in and name != "v_div_fmas_f32" and name != "v_div_fmas_f64":
        srcs = srcs[:2]                  # the carry-in / select mask is ctx.mask, not a source
    assert list(o.src_bits) == srcs
    assert o.dst_bits == (dst or 0)


def test_mask_flags():
    masked_in = {n for n, o in VALU.items() if o.mask_in}
    assert masked_in == {"v_cndmask_b32", "v_cndmask_b16", "v_add_co_ci_u32", "v_sub_co_ci_u32",
                         "v_subrev_co_ci_u32", "v_div_fmas_f32", "v_div_fmas_f64"}
    for n, o in VALU.items():
        expect_out = (n.startswith("v_cmp") or "_co_" in n or n.startswith("v_div_scale")
                      or n.startswith("v_mad_u64") or n.startswith("v_mad_i64"))
        assert o.mask_out == expect_out, n


def test_every_entry_runs_on_two_waves():
    """Shapes and dtypes of every entry on random bits (values are checked by the family tests)."""
    rng = np.random.default_rng(7)
    ctx = Ctx(mask=rng.integers(0, 2, (2, 32)).astype(bool),
              lane=np.tile(np.arange(32, dtype=np.uint32), (2, 1)))

    def arr(bits):
        if bits == 32:
            return rng.integers(0, 2**32, (2, 32), dtype=np.uint64).astype(np.uint32)
        if bits == 64:
            return rng.integers(0, 2**64, (2, 32), dtype=np.uint64)
        return rng.integers(0, 2**32, (2, bits // 32, 32), dtype=np.uint64).astype(np.uint32)

    for name, o in VALU.items():
        srcs = [arr(b) for b in o.src_bits]
        old = arr(o.dst_bits) if o.dst_bits else None
        r = o.fn(ctx, srcs, old)
        if o.dst_bits == 0:
            assert r.dtype == bool and r.shape == (2, 32), name
            continue
        if o.mask_out:
            r, m = r
            assert m.dtype == bool and m.shape == (2, 32), name
        dtype = np.uint64 if o.dst_bits == 64 else np.uint32
        shape = (2, 32) if o.dst_bits <= 64 else (2, o.dst_bits // 32, 32)
        assert r.dtype == dtype and r.shape == shape, name


FAMILY_TESTS = ["f32", "f16", "f64", "convert", "rounding", "transcendental", "int", "compare",
                "packed", "division", "wmma", "moves"]


def test_every_entry_has_a_value_test():
    """Each family test module lists (COVERED) the ops its value tests exercise."""
    import importlib
    covered = set()
    for family in FAMILY_TESTS:
        covered |= importlib.import_module("test_emu_sim_valu_" + family).COVERED
    assert covered - set(VALU) == set()
    assert set(VALU) - covered == set()
