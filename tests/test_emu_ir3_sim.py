"""The ir3 simulator on its own (drivers.emu.qcom.simulate): instruction semantics with edge values,
the (ss)/(sy) scoreboard, the ALU latency check, and what it refuses (footprint, const length, memory, barriers)."""
import numpy as np
import pytest

from assembler.ir3 import assemble_program
from drivers.emu.faults import HazardError, IllegalInstruction, MemoryFault, ShaderHang
from drivers.emu.qcom.simulate import simulate
from drivers.errors import GPUError

HEAD = """@localsize 64, 1, 1
@buf 0 (c2.x)
@buf 0 (c2.z)
@invocationid(r0.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r1.z, c2.z
mov.u32u32 r1.w, c2.w
(rpt5)nop
"""


def run(body, inp, out_dtype, n=64, wave=64, consts=None, outs=1):
    """in[i] -> r2.x (loaded with (sy)); the body leaves its result(s) in r3.x..; out[outs*i+k]."""
    src = HEAD + f"ldg.a.u32 r2.x, g[r1.x+(r0.x<<2)], 1\n(sy)nop\n{body}\n(rpt5)nop\n"
    src += "shl.b r0.y, r0.x, %d\n(rpt5)nop\n" % {1: 0, 2: 1, 4: 2}[outs]
    src += f"stg.a.u32 g[r1.z+(r0.y<<2)], r3.x, {outs}\nend\n"
    prog = assemble_program(src)
    a = np.zeros(64, np.uint32)
    a[:len(inp)] = np.asarray(inp).view(np.uint32) if np.asarray(inp).dtype.itemsize == 4 else np.asarray(inp)
    out = np.zeros(64 * outs, np.uint32)
    simulate(prog, buffers=[a, out], wave=wave, consts=consts)
    return out.view(out_dtype)


def f32(*v):
    return np.array(v, np.float32)


# -- cat2 / cat3 / cat4 semantics ----------------------------------------------------------------------
def test_float_ops_and_modifiers():
    x = f32(1.5, -2.25, 0.0, -0.0, np.inf, 3e38)
    got = run("add.f r3.x, (neg)r2.x, (abs)r2.x", x, np.float32)[:6]
    with np.errstate(all="ignore"):
        assert np.array_equal(got, -x + np.abs(x), equal_nan=True)
    got = run("mul.f r3.x, r2.x, (2.0)", x, np.float32)[:6]
    with np.errstate(all="ignore"):
        assert np.array_equal(got, x * np.float32(2.0))              # 3e38 * 2 overflows to inf
    got = run("floor.f r3.x, r2.x\nrndne.f r3.y, r2.x", f32(2.5, -2.5, 3.5), np.float32, outs=2)
    assert got[:6].tolist() == [2.0, 2.0, -3.0, -2.0, 3.0, 4.0]


def test_integer_compare_select_and_shifts():
    x = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 33], np.uint32)
    got = run("cmps.s.lt r3.x, r2.x, 0\ncmps.u.gt r3.y, r2.x, 1", x, np.uint32, outs=2).reshape(-1, 2)[:6]
    assert got[:, 0].tolist() == [0, 0, 0, 1, 1, 0] and got[:, 1].tolist() == [0, 0, 1, 1, 1, 1]
    got = run("ashr.b r3.x, r2.x, 4\nshl.b r3.y, r2.x, r2.x", x, np.uint32, outs=2).reshape(-1, 2)[:6]
    assert got[:, 0].tolist() == [int(v) & 0xFFFFFFFF for v in (x.view(np.int32) >> 4)]
    assert got[:, 1].tolist() == [(int(v) << (int(v) & 31)) & 0xFFFFFFFF for v in x]   # the count uses 5 bits


def test_clz_bfrev_and_mul_forms():
    x = np.array([0, 1, 0x80000000, 0x00F00000, 0xFFFFFFFF], np.uint32)
    got = run("clz.b r3.x, r2.x\nclz.s r3.y, r2.x\nbfrev.b r3.z, r2.x\nmull.u r3.w, r2.x, r2.x", x, np.uint32,
              outs=4).reshape(-1, 4)[:5]
    assert got[:, 0].tolist() == [0xFFFFFFFF, 31, 0, 8, 0]                # -1 for zero
    assert got[:, 1].tolist() == [0xFFFFFFFF, 31, 1, 8, 0xFFFFFFFF]     # leading bits equal to the sign
    assert got[:, 2].tolist() == [int(f"{int(v):032b}"[::-1], 2) for v in x]
    assert got[:, 3].tolist() == [(int(v) & 0xFFFF) ** 2 & 0xFFFFFFFF for v in x]


def test_saturating_and_halving_integer_add():
    x = np.array([0x7FFFFFF0, 0xFFFFFFF0, 5], np.uint32)
    got = run("(sat)add.s r3.x, r2.x, 100\n(sat)add.u r3.y, r2.x, 100", x, np.uint32, outs=2).reshape(-1, 2)[:3]
    assert got[:, 0].tolist() == [0x7FFFFFFF, 0xFFFFFFF0 + 100 & 0xFFFFFFFF, 105]
    assert got[:, 1].tolist() == [0x7FFFFFF0 + 100, 0xFFFFFFFF, 105]


def test_conversions_round_as_told():
    x = f32(2.7, -2.7, 1e10, np.nan, 65520.0)
    got = run("cov.f32s32 r3.x, r2.x\n(rpt2)nop\ncov.f32f16 hr8.x, r2.x\ncov.f32f16 (even)hr8.y, r2.x\n"
              "(rpt2)nop\ncov.f16f32 r3.y, hr8.x\ncov.f16f32 r3.z, hr8.y\nmov.u32u32 r3.w, 0",
              x, np.uint32, outs=4).reshape(-1, 4)[:5]
    assert got[:, 0].view(np.int32).tolist() == [2, -2, 2**31 - 1, 0, 65520]      # truncate, saturate, NaN -> 0
    rtz, rne = got[:, 1].view(np.float32), got[:, 2].view(np.float32)
    assert rtz[0] == np.float32(np.float16(2.699)) and rtz[0] <= 2.7 and rne[0] == np.float16(2.7)
    assert rtz[4] == 65504.0 and np.isinf(rne[4])                  # RTZ keeps the largest finite half


def test_sfu_special_values():
    x = f32(0.0, -1.0, 4.0, np.inf)
    got = run("(ss)rcp r3.x, r2.x\nsqrt r3.y, r2.x\nlog2 r3.z, r2.x\nexp2 r3.w, r2.x\n(ss)nop", x, np.float32,
              outs=4).reshape(-1, 4)[:4]
    assert np.isinf(got[0, 0]) and got[2, 0] == 0.25 and got[3, 0] == 0.0
    assert np.isnan(got[1, 1]) and got[2, 1] == 2.0 and got[0, 2] == -np.inf and got[2, 3] == 16.0


# -- the scoreboard ------------------------------------------------------------------------------------
def test_read_before_sy_is_a_hazard_naming_the_pc():
    src = HEAD + "ldg.a.u32 r2.x, g[r1.x+(r0.x<<2)], 1\nadd.u r3.x, r2.x, 1\nend\n"
    with pytest.raises(HazardError) as err:
        simulate(assemble_program(src), buffers=[np.zeros(64, np.uint32), np.zeros(64, np.uint32)])
    assert err.value.pc == 6 and "reads r2.x before (sy)" in str(err.value)
    assert "`ldg.a.u32 r2.x, g[r1.x+(r0.x<<2)], 1` at PC 0x5" in str(err.value)


def test_read_of_an_sfu_result_before_ss_is_a_hazard():
    with pytest.raises(HazardError, match=r"reads r3.x before \(ss\): `rcp r3.x, r2.x`"):
        run("rcp r3.x, r2.x\nadd.f r3.x, r3.x, r3.x", f32(1.0), np.float32)


def test_overwriting_a_store_source_before_ss_is_a_hazard():
    src = HEAD + ("mov.u32u32 r2.x, 5\n(rpt5)nop\nstg.a.u32 g[r1.z+(r0.x<<2)], r2.x, 1\nmov.u32u32 r2.x, 6\nend\n")
    with pytest.raises(HazardError, match=r"overwrites r2.x before \(ss\): `stg.a.u32 .*` at PC 0x7 may still be reading"):
        simulate(assemble_program(src), buffers=[np.zeros(64, np.uint32), np.zeros(64, np.uint32)])


# -- ALU latency: the nops mesa's legalization places (its delay test vectors, ir3/tests/delay.c) ---------
DELAYS = [
    (6, "add.f r0.x, r2.x, r2.y\nrsq r0.x, r0.x"),
    (3, "mov.f32f32 r0.x, c0.x\nmov.f32f32 r0.y, c0.y\nadd.f r0.x, r0.x, r0.y"),
    (2, "mov.f32f32 r0.x, c0.x\nmov.f32f32 r0.y, c0.y\nmov.f32f32 r0.z, c0.z\nmad.f32 r0.x, r0.x, r0.y, r0.z"),
    (0, "mov.f32f32 r0.x, c0.x\nrcp r0.x, r0.y\n(ss)add.f r0.x, r0.x, c0.x"),
    (2, "mov.f32f32 r0.x, c0.x\nmov.f32f32 r0.y, c0.y\n(rpt1)add.f r0.x, (r)r0.x, (r)c0.x"),
    (2, "(rpt1)mov.f32f32 r0.x, c0.x\n(rpt1)add.f r0.x, (r)r0.x, (r)c0.x"),
    (3, "mov.f32f32 r0.y, c0.y\nmov.f32f32 r0.x, c0.x\n(rpt1)add.f r0.x, (r)r0.x, (r)c0.x"),
    (1, "(rpt2)mov.f32f32 r0.x, (r)c0.x\nadd.f r0.x, r0.x, c0.x"),
    (2, "(rpt2)mov.f32f32 r0.x, (r)c0.x\nadd.f r0.x, r0.x, r0.y"),
    (2, "(rpt1)mov.f32f32 r0.x, (r)c0.x\n(rpt1)add.f r0.x, (r)r0.x, c0.x"),
    (1, "(rpt1)mov.f32f32 r0.y, (r)c0.x\n(rpt1)add.f r0.x, (r)r0.x, c0.x"),
    (3, "(rpt1)mov.f32f32 r0.x, (r)c0.x\n(rpt1)add.f r0.x, (r)r0.y, c0.x"),
]


def _with_nops(body, nops):
    *head, last = body.split("\n")
    pad = [] if nops == 0 else ["nop"] if nops == 1 else [f"(rpt{nops - 1})nop"]
    return assemble_program("\n".join(["@localsize 1, 1, 1", *head, *pad, last, "end"]))


@pytest.mark.parametrize("delay,body", DELAYS)
def test_alu_latency_needs_the_nops_mesa_places(delay, body):
    simulate(_with_nops(body, delay), consts={0: 0x3F800000, 1: 0x40000000, 2: 0x40400000})
    if delay:
        with pytest.raises(HazardError, match=r"reads r0\.[xyz] 1 cycle\(s\) too early: `.*` at PC 0x\d+ is an ALU result"):
            simulate(_with_nops(body, delay - 1), consts={0: 0x3F800000, 1: 0x40000000, 2: 0x40400000})


def test_alu_latency_follows_the_path_taken():
    """A result written on the other side of an if does not count against this side; a loop-carried
    one does: the loop's own back edge brings it round to the top again."""
    src = HEAD + ("@branchstack 1\ncmps.u.lt p0.x, r0.x, 32\nmov.u32u32 r3.x, 0\n(rpt5)nop\nbr p0.x, #low\n"
                  "mov.u32u32 r3.x, 1\njump #join\nlow:\n(jp)mov.u32u32 r3.x, 2\n(rpt2)nop\njoin:\n"
                  "(jp)add.u r3.x, r3.x, 10\n(rpt5)nop\nstg.a.u32 g[r1.z+(r0.x<<2)], r3.x, 1\nend\n")
    out = np.zeros(64, np.uint32)
    with pytest.raises(HazardError, match=r"PC 0x\w+ \(\(jp\)add.u r3.x, r3.x, 10\): reads r3.x 3 cycle\(s\) too early: "
                                          r"`mov.u32u32 r3.x, 1`.*\(fiber 32, wave 0\)"):
        simulate(assemble_program(src), buffers=[np.zeros(64, np.uint32), out])
    simulate(assemble_program(src.replace("jump #join", "(rpt2)nop\njump #join")),
             buffers=[np.zeros(64, np.uint32), out])
    assert (out[:32] == 12).all() and (out[32:] == 11).all()


def test_halves_of_one_register_do_not_collide():
    got = run("cov.u32u16 hr8.x, r2.x\ncov.u32u16 hr8.y, r2.x\n(rpt5)nop\nmov.u32u32 r3.x, r4.x",
              np.array([0x12345678], np.uint32), np.uint32)
    assert got[0] == 0x56785678


# -- what the simulator refuses ------------------------------------------------------------------------
def test_register_beyond_the_footprint_is_refused():
    from drivers.emu.qcom.shader import Dispatch, run_to_end
    from drivers.emu.vm import GpuVM
    prog = assemble_program("mov.u32u32 r9.x, 1\nend\n")
    d = Dispatch(GpuVM(), prog.code, np.zeros(4, np.uint32), 2, (1, 1, 1), (1, 1, 1))
    with pytest.raises(IllegalInstruction, match=r"r9.x at PC 0x0 is beyond the register footprint.*grants 2"):
        run_to_end(d)


def test_const_beyond_constlen_is_refused():
    from drivers.emu.qcom.shader import Dispatch, run_to_end
    from drivers.emu.vm import GpuVM
    prog = assemble_program("mov.u32u32 r0.x, c7.y\nend\n")
    d = Dispatch(GpuVM(), prog.code, np.zeros(16, np.uint32), 1, (1, 1, 1), (1, 1, 1))
    with pytest.raises(IllegalInstruction, match=r"c7.y at PC 0x0 is beyond the const file .*CONSTLEN grants 4 vec4"):
        run_to_end(d)


def test_unmapped_global_access_is_a_memory_fault_with_the_va():
    src = "@localsize 1, 1, 1\nmov.u32u32 r1.x, 0x1000\nmov.u32u32 r1.y, 0xdead\n(rpt5)nop\n" \
          "ldg.u32 r2.x, g[r1.x+8], 1\nend\n"
    with pytest.raises(MemoryFault) as err:
        simulate(assemble_program(src))
    assert err.value.va == 0xdead_0000_1008 and err.value.reason == "NotPresent"


def test_misaligned_global_access_faults():
    with pytest.raises(MemoryFault, match="Misaligned"):
        simulate(assemble_program(HEAD + "ldg.u32 r2.x, g[r1.x+2], 1\nend\n"),
                 buffers=[np.zeros(64, np.uint32), np.zeros(64, np.uint32)])


def test_local_memory_out_of_range_and_ibo_out_of_range():
    with pytest.raises(GPUError, match=r"local memory byte 4096 \(\+4\) is outside the workgroup's 64 bytes"):
        simulate(assemble_program("@localsize 1, 1, 1\n@localmem 64\nmov.u32u32 r0.x, 4096\n(rpt5)nop\n"
                                  "ldl.u32 r1.x, l[r0.x], 1\nend\n"))
    with pytest.raises(GPUError, match=r"element 16 \(\+1\) is past the end of IBO 0 \(16 elements"):
        simulate(assemble_program("@localsize 1, 1, 1\n@buf 16\nmov.u32u32 r0.x, 16\n(rpt5)nop\n"
                                  "ldib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0\nend\n"), buffers=[np.zeros(16, np.uint32)])


def test_non_uniform_write_to_a_shared_register_is_refused():
    with pytest.raises(GPUError, match=r"non-uniform write to shared register r49.x at PC 0x0: wave 0 writes 4"):
        simulate(assemble_program("@localsize 4, 1, 1\n@invocationid(r0.x)\nmov.u32u32 r49.x, r0.x\nend\n"))


def test_barrier_at_different_instructions_deadlocks():
    src = """@localsize 128, 1, 1
@invocationid(r0.x)
cmps.u.lt p0.x, r0.x, 64
(rpt5)nop
br !p0.x, #other
bar
jump #done
other:
(jp)bar
done:
(jp)end
"""
    with pytest.raises(GPUError, match="barrier deadlock: fibers wait at bar instructions at PCs 0x3, 0x5"):
        simulate(assemble_program(src), wave=64)


def test_endless_loop_runs_into_the_budget():
    with pytest.raises(ShaderHang, match="still running at PC"):
        simulate(assemble_program("@localsize 1, 1, 1\nloop:\njump #loop\nend\n"), budget=1000)


def test_an_instruction_not_emulated_is_illegal_only_when_reached():
    simulate(assemble_program("@localsize 1, 1, 1\nend\nkill p0.x\n"))
    with pytest.raises(IllegalInstruction, match=r"illegal instruction at PC 0x0: .*kill is not emulated"):
        simulate(assemble_program("@localsize 1, 1, 1\nkill p0.x\nend\n"))


def test_getone_lets_one_fiber_per_wave_through():
    src = """@localsize 256, 1, 1
@buf 1 (c2.x)
@invocationid(r0.x)
mov.u32u32 r1.x, c2.x
mov.u32u32 r1.y, c2.y
mov.u32u32 r2.x, 1
(rpt5)nop
getone #done
atomic.g.add.untyped.1d.u32.1.g r3.x, r1.x, r2.x
done:
(jp)end
"""
    for wave, waves in ((64, 4), (128, 2)):
        counter = np.zeros(1, np.uint32)
        simulate(assemble_program(src), buffers=[counter], wave=wave)
        assert counter[0] == waves


def test_relative_registers_and_consts_through_a0():
    """mova loads a0.x; r<a0.x + k> and c<a0.x + k> then pick a register / const per fiber."""
    src = HEAD + """mov.u32u32 r4.x, 40
mov.u32u32 r4.y, 41
mov.u32u32 r4.z, 42
mov.u32u32 r4.w, 43
and.b r2.y, r0.x, 3
(rpt2)nop
cov.u32s16 hr6.x, r2.y
(rpt2)nop
mova a0.x, hr6.x
(rpt5)nop
mov.u32u32 r3.x, r<a0.x + 16>
mov.u32u32 r3.y, c<a0.x + 12>
(rpt5)nop
shl.b r0.y, r0.x, 1
(rpt5)nop
stg.a.u32 g[r1.z+(r0.y<<2)], r3.x, 2
end
@const(c3.x) 100, 101, 102, 103
"""
    out = np.zeros(128, np.uint32)
    simulate(assemble_program(src), buffers=[np.zeros(64, np.uint32), out])
    lane = np.arange(64) % 4
    assert out[0::2].tolist() == (40 + lane).tolist() and out[1::2].tolist() == (100 + lane).tolist()
