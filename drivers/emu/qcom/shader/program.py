"""A shader prepared for execution: every instruction decoded once into an Op.

Decoding uses the in-tree ir3 decoder (assembler.ir3, generated from mesa's isaspec), so the
simulator sees exactly the fields mesa's disassembler prints. Preparation also checks the
program against what the dispatch grants (register footprint, const length): an operand
outside them is an error before anything runs. A word that does not decode becomes an op that
raises IllegalInstruction only if a fiber reaches it (padding after ``end`` is common).
Prepared programs are cached by code and limits.
"""
from collections import OrderedDict

from assembler.errors import AssemblerError
from assembler.ir3.decoder import decode
from drivers.emu.faults import IllegalInstruction
from drivers.errors import GPUError

from .alu import build_cat1, build_cat2, build_cat3
from .flow import build_flow
from .memory import build_cat6
from .op import SS, Op
from .sfu import build_cat4
from .state import SHARED_END, SHARED_FIRST

_BUILDERS = {0: build_flow, 1: build_cat1, 2: build_cat2, 3: build_cat3, 4: build_cat4, 6: build_cat6,
             7: build_flow}
_CACHE = OrderedDict()
_CACHE_SIZE = 64


class _Broken:
    """Stands in for an instruction the simulator cannot run; raises when a fiber reaches it."""
    text = name = "?"
    category = 0
    ss = sy = jp = False
    repeat = nop = 0

    def __init__(self, word, reason):
        self.word, self.reason = word, reason
        self.text = f"raw 0x{word:016x}"


def _broken_op(pc, word, reason):
    ins = _Broken(word, reason)

    def run(x, active):
        raise IllegalInstruction(pc, f"{ins.text}: {reason}")
    op = Op(pc, ins, run, flow=True)
    return op


def _prepare(pc, word, limits):
    try:
        ins = decode(word)
    except AssemblerError as e:
        return _broken_op(pc, word, str(e))
    builder = _BUILDERS.get(ins.category)
    try:
        if builder is None:
            raise GPUError(f"PC 0x{pc:x}: {ins.text}: cat{ins.category} ({ins.name}) instructions are not emulated "
                           "(texture and sampler instructions)")
        op = builder(ins, pc, limits)
    except GPUError as e:
        reason = str(e)

        def run(x, active, reason=reason):
            raise IllegalInstruction(pc, reason)
        return Op(pc, ins, run, flow=True)
    shared = [u for u in op.writes if u is not None and 2 * SHARED_FIRST <= u < 2 * SHARED_END]
    if shared and not op.produces:         # a shared-register write lands late: readers need (ss)
        op.produces, op.produce_rows = SS, tuple(shared)
    return op


class ShaderProgram:
    """``ops[pc]`` for each 64-bit instruction of ``code`` (pc = instruction index)."""

    def __init__(self, code, limits):
        if len(code) % 8:
            raise GPUError(f"shader code of {len(code)} bytes is not a whole number of 64-bit instructions")
        self.code = bytes(code)
        self.limits = limits
        words = [int.from_bytes(self.code[i:i + 8], "little") for i in range(0, len(self.code), 8)]
        self.ops = [_prepare(pc, w, limits) for pc, w in enumerate(words)]

    def __len__(self):
        return len(self.ops)

    @classmethod
    def get(cls, code, limits):
        key = (bytes(code), limits.full_rows, limits.const_words)
        prog = _CACHE.get(key)
        if prog is None:
            prog = _CACHE[key] = cls(code, limits)
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        else:
            _CACHE.move_to_end(key)
        return prog
