"""The ir3 simulator of the virtual Adreno 630: compute shaders run fiber by fiber, in numpy.

    state.py      register files of a workgroup (full/half merged, shared, a0/a1, p0)
    operands.py   sources as readers (registers, consts, immediates, relative)
    convert.py    the #type enum, conversions and rounding
    alu.py        cat1 moves/conversions, cat2 and cat3 ALU
    sfu.py        cat4 transcendentals (accuracy documented there)
    memory.py     cat6 loads, stores, atomics (global, IBO, local, private, UBO)
    flow.py       cat0 branches and cat7 barriers
    hazards.py    the (ss)/(sy) scoreboard and the ALU latency (nop) check: a read before its
                  sync or delay is an error
    program.py    decode once per instruction, check footprint and const length
    executor.py   workgroups, lockstep fibers, lowest-PC-first divergence, slicing

``executor.Dispatch`` describes one dispatch (what the command processor collects from the
SP_CS / HLSQ_CS registers and CP_LOAD_STATE6); ``executor.run(dispatch)`` executes it.
"""
from .executor import Dispatch, Ibo, run, run_to_end  # noqa: F401
