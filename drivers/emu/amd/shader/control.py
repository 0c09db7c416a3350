"""SOPP: program control (branches, s_endpgm, s_barrier) and the instructions that only order
or hint (s_waitcnt, s_delay_alu, s_clause, s_nop...), which are no-ops because the simulator
executes every instruction to completion in program order.

Closures that move the PC themselves carry ``sets_pc`` and return the new PC when every wave of
the group went the same way (None when they diverged); the executor regroups waves by PC unless
a uniform branch leaves a group holding every runnable wave together.  A branch target is
PC + 4 + simm16 * 4.
"""
import numpy as np

from drivers.emu.faults import IllegalInstruction, WaveTrap

from .state import EXEC_LO, MODE_DENORM_F32, MODE_ROUND_F32, VCC_LO

try:                        # numpy's own C function, without the Python wrapper's dispatch
    from numpy._core.multiarray import count_nonzero
except ImportError:         # (numpy 1.x)
    count_nonzero = np.count_nonzero

ORDERING_ONLY = frozenset((
    "s_nop", "s_clause", "s_delay_alu", "s_waitcnt", "s_waitcnt_depctr", "s_set_inst_prefetch_distance",
    "s_sleep", "s_setprio", "s_incperflevel", "s_decperflevel", "s_ttracedata_imm", "s_wait_event",
    "s_setkill", "s_icache_inv", "s_version", "s_wait_idle", "s_wakeup", "s_ttracedata"))
ENDS_WAVE = frozenset(("s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done"))

# Messages a compute wave may send; the virtual GPU has nothing to do for any of them.
SENDMSG_ACCEPTED = frozenset((1, 3, 5, 6))     # INTERRUPT, DEALLOC_VGPRS, STALL_WAVE_GEN, HALT_WAVES

_COND = {
    "s_cbranch_scc0": lambda st, sel: st.scc[sel] == 0,
    "s_cbranch_scc1": lambda st, sel: st.scc[sel] != 0,
    "s_cbranch_vccz": lambda st, sel: st.sregs[VCC_LO, sel] == 0,
    "s_cbranch_vccnz": lambda st, sel: st.sregs[VCC_LO, sel] != 0,
    "s_cbranch_execz": lambda st, sel: st.sregs[EXEC_LO, sel] == 0,
    "s_cbranch_execnz": lambda st, sel: st.sregs[EXEC_LO, sel] != 0,
}
# The debugger flags are never raised on the virtual GPU, so these branches are never taken.
_NEVER = ("s_cbranch_cdbgsys", "s_cbranch_cdbguser", "s_cbranch_cdbgsys_or_user",
          "s_cbranch_cdbgsys_and_user")


def settle_branch(st, taken, target, nxt):
    """(the group's new PCs, what the branch returns) of a conditional branch taken by the waves
    ``taken`` (bool per wave): the PC every wave went to, or None when they diverged, the split
    then left in ``st.split`` (the executor's next two groups, executor.py)."""
    k = count_nonzero(taken)
    if k == taken.shape[0]:
        return target, target
    if not k:
        return nxt, nxt
    st.split = (taken, target, nxt)
    return np.where(taken, target, nxt), None


def _simm16(ins):
    v = ins.operands[0].value if ins.operands else 0
    return v - 0x10000 if v & 0x8000 else v


def build_sopp(ins, pc, size):
    m = ins.mnemonic
    if m in ORDERING_ONLY:
        return None
    nxt = pc + size
    if m in ENDS_WAVE:
        def endpgm(st, sel):
            st.done[sel] = True
        endpgm.ends = True
        return endpgm
    if m == "s_barrier":
        def barrier(st, sel):
            st.pc[sel] = nxt
            st.at_barrier[sel] = True
        barrier.sets_pc = True
        barrier.parks = True                  # every wave of the group stops being runnable
        return barrier
    if m == "s_branch":
        target = nxt + 4 * _simm16(ins)

        def branch(st, sel):
            st.pc[sel] = target
            return target
        branch.sets_pc = True
        return branch
    if m in _COND:
        target, cond = nxt + 4 * _simm16(ins), _COND[m]

        def cbranch(st, sel):
            pcs, went = settle_branch(st, cond(st, sel), target, nxt)
            st.pc[sel] = pcs
            return went
        cbranch.sets_pc = True
        return cbranch
    if m in _NEVER:
        return None
    if m == "s_sendmsg":
        msg = ins.operands[0].value & 0xFF
        if msg not in SENDMSG_ACCEPTED:
            raise IllegalInstruction(pc, f"{ins.text}: message {msg} means nothing to a compute wave")
        return None
    if m == "s_round_mode":
        return _mode_writer(ins.operands[0].value & 15, MODE_ROUND_F32[0], 15)
    if m == "s_denorm_mode":
        return _mode_writer(ins.operands[0].value & 15, MODE_DENORM_F32[0], 15)
    if m == "s_trap":
        trap_id = ins.operands[0].value & 0xFF if ins.operands else 0

        def trap(st, sel):
            raise WaveTrap(pc, f"s_trap {trap_id}: the shader trapped "
                               f"(no trap handler is installed; trap 2 is llvm.trap / abort)")
        return trap
    if m in ("s_sethalt", "s_sendmsghalt"):
        def halt(st, sel):
            raise IllegalInstruction(pc, f"{ins.text}: the wave halted itself")
        return halt
    if m == "s_code_end":
        def code_end(st, sel):
            raise IllegalInstruction(pc, "s_code_end executed: the wave ran past the end of its code")
        return code_end
    raise IllegalInstruction(pc, f"{ins.text}: not supported by the simulator")


def _mode_writer(bits, shift, width_mask):
    field = np.uint32(width_mask << shift)
    value = np.uint32(bits << shift)

    def set_mode(st, sel):
        st.mode[sel] = (st.mode[sel] & ~field) | value
        st.mode_changed()
    return set_mode
