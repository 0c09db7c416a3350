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


def missing():
    """Why the simulator cannot decode SASS here (no assembler.sass and no decoder installed), or None."""
    if _decoder is not None:
        return None
    import importlib.util
    try:
        found = importlib.util.find_spec("assembler.sass") is not None
    except ImportError:
        found = False
    return None if found else "this tree has no SASS decoder (assembler.sass), so the virtual SM cannot run a kernel"


def decoder():
    global _decoder
    if _decoder is None:
        try:
            import assembler.sass                            # noqa: F401 (the SASS assembler's decoder)
        except ImportError:
            raise SmException(ESR_ILLEGAL_INSTR_ENCODING, 0, "this tree has no SASS decoder (assembler.sass) to "
                              "run shaders with") from None
        _decoder = assembler_decoder
    return _decoder


def assembler_decoder(code, sm):
    """assembler.sass's decoder over a block: {offset: (guard, tokens, operands, lo, hi, text)}, with the
    modifiers nvdisasm derives from operand values (IMAD.MOV...) dropped and branch targets made
    relative to the instruction; a word it refuses becomes an opcode '???' whose text is the refusal
    (executing it is an SM exception)."""
    from assembler.errors import AssemblerError
    from assembler.sass import decode
    from assembler.sass.aliases import strip
    arch = f"sm_{sm}"
    out = {}
    absent = tables_missing(arch)
    if absent:
        for off in range(0, len(code) - 15, 16):
            lo, hi = int.from_bytes(code[off:off + 8], "little"), int.from_bytes(code[off + 8:off + 16], "little")
            out[off] = (None, ("???",), (), lo, hi, absent)
        return out
    for off in range(0, len(code) - 15, 16):
        lo = int.from_bytes(code[off:off + 8], "little")
        hi = int.from_bytes(code[off + 8:off + 16], "little")
        try:
            ins = decode(code, arch, off, pc=off)
        except AssemblerError as e:
            out[off] = (None, ("???",), (), lo, hi, str(e))
            continue
        operands = tuple(_relative(op, off) for op in ins.operands)
        out[off] = (ins.guard, strip((ins.opcode,) + tuple(ins.modifiers)), operands, lo, hi, ins.text)
    return out


def tables_missing(arch):
    """Why assembler.sass cannot decode `arch` ('sm_89'), or None."""
    from assembler.sass.tables import load
    try:
        load(arch)
    except (ImportError, ValueError) as e:
        return f"assembler.sass has no {arch} instruction tables ({e})"
    return None


def _relative(op, pc):
    if op.kind == "target":
        return type(op)("target", op.shape, (op.holes[0] - pc,))
    if op.kind == "pair" and op.shape[2] == "target":
        return type(op)("pair", op.shape, op.holes[:-1] + (op.holes[-1] - pc,))
    return op


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
