"""Fetching and decoding SASS for the simulator.

The words come from GPU memory (the program VA of the QMD, through the channel's VM, so an unmapped
PC is an MMU fault); the decoding is the SASS assembler's (assembler.sass), turned into `Instr`
records.  Branch targets become 'target' operands holding `target - pc` (what assembler.sass gives),
so the simulator never sees where the code was decoded.

Decoded blocks are cached by their bytes (and SM), so relaunching a kernel costs no decoding.
"""
import functools

from drivers.emu.nv.faults import ESR_ILLEGAL_INSTR_ENCODING, SmException
from drivers.emu.nv.sass.instr import Control, Instr

BLOCK = 4096                   # bytes decoded at a time (a page: the fetch never crosses a mapping)
_decoder = None
_BRANCHES = {"BRA", "BSSY", "CALL", "BREAK", "SSY", "JMP", "JCAL", "PBK", "PCNT", "WARPSYNC_TARGET"}


def set_decoder(fn):
    """Install `fn(code: bytes, sm: int) -> {offset: (guard, tokens, operands, lo, hi, text)}` (tests and
    tools may install another one)."""
    global _decoder
    _decoder = fn
    _cached_block.cache_clear()


def decoder():
    global _decoder
    if _decoder is None:
        try:
            from assembler.sass import decode_block        # the SASS assembler's decoder
        except ImportError:
            raise SmException(ESR_ILLEGAL_INSTR_ENCODING, 0, "this tree has no SASS decoder (assembler.sass) to "
                              "run shaders with") from None
        _decoder = decode_block
    return _decoder


def _as_target(op, pc):
    kind = op.kind
    if kind == "imm":
        return type(op)("target", ("hex",), (op.holes[0] - pc,))
    if kind == "pair" and op.shape[2] == "imm":
        ka, sa, _, sb = op.shape
        return type(op)("pair", (ka, sa, "target", sb), op.holes[:-1] + (op.holes[-1] - pc,))
    return op


@functools.lru_cache(maxsize=256)
def _cached_block(code, sm, absolute_targets):
    raw = decoder()(code, sm)
    out = {}
    for off, (guard, tokens, operands, lo, hi, text) in raw.items():
        opcode, mods = tokens[0], tuple(tokens[1:])
        if absolute_targets:
            if opcode in _BRANCHES:
                operands = tuple(_as_target(o, off) if o.kind == "imm" else o for o in operands)
            elif opcode == "RET":
                operands = tuple(_as_target(o, off) for o in operands)
        out[off] = Instr(off, guard, opcode, mods, tuple(operands), Control.from_hi(hi), text)
    return out


def decode_block(code, sm, absolute_targets=None):
    """{offset: Instr} of a block of code."""
    if absolute_targets is None:
        absolute_targets = getattr(decoder(), "absolute_targets", False)
    return _cached_block(bytes(code), sm, absolute_targets)


def disassemble(code, sm):
    """Text lines of a code blob (DEBUG=3)."""
    block = decode_block(code, sm)
    return [f"/*{off:04x}*/ {block[off]}" for off in sorted(block)]
