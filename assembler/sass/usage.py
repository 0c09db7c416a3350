"""Which registers an instruction reads and writes, conservatively, for the scheduler.

Registers are (file, index) pairs: ("R", 0..254), ("UR", 0..62), ("P", 0..6), ("UP", 0..6);
RZ, URZ, PT and UPT are constants and never tracked. The rules over-approximate, which only
costs speed, never correctness:

  * every register operand is read (destinations too: a write waits for earlier writers);
  * the written registers are the leading operands of the form P* R? P* (U variants alike):
    IADD3 R6, P0, P1, ...  LOP3.LUT P6, R0, ...  ISETP P0, P1, R2 (R2 counted too);
    stores, branches and barriers write nothing;
  * widths: an address register printed .64 covers 2 registers, a desc[URx] 2 uniform ones;
    data of .64 / 64-bit types (F64, S64, U64, D* opcodes, .WIDE) 2 registers, .128 4, MMA
    operands and .4 matrix loads 4;
  * the PR name (P2R / R2P) stands for every predicate.
"""

NO_DEST = frozenset("""ST STG STS STL RED REDG BAR BRA BRX JMP JMX CALL RET EXIT BSSY BSYNC BREAK
WARPSYNC NOP DEPBAR MEMBAR ERRBAR CGAERRBAR CCTL FENCE LDGDEPBAR LDGSTS STSM NANOSLEEP BPT YIELD
KILL PREEXIT ACQBULK UBLKCP UTMACMDFLUSH UCGABAR_ARV UCGABAR_WAIT ENDCOLLECTIVE BMOV.B SYNCS.CCTL
UTMALDG UTMASTG UBLKRED UTMAPF STAS REDAS""".split())
_MMA = ("HMMA", "IMMA", "DMMA", "QMMA", "HGMMA", "IGMMA", "QGMMA", "BMMA")
_WIDE_TYPES = {"64", "F64", "S64", "U64", "WIDE"}
_FILES = ("R", "UR", "P", "UP")
_ZERO = {"R": 255, "UR": 63, "P": 7, "UP": 7}


def data_width(ins):
    mods = set(ins.modifiers)
    if ins.opcode.startswith(_MMA):
        return 4
    if "128" in mods or (ins.opcode in ("LDSM", "STSM", "LDSM.B") and "4" in mods):
        return 4
    if mods & _WIDE_TYPES or ins.opcode.startswith("D") and ins.opcode not in ("DEPBAR",) or \
            (ins.opcode in ("LDSM", "STSM") and "2" in mods) or (ins.opcode == "CS2R" and "32" not in mods):
        return 2
    if ins.opcode in ("MUFU",) and any(m.endswith("64H") for m in mods):
        return 2
    return 1


def _regs(op, width):
    """(file, index) pairs an operand names, with its width."""
    out = []
    k = op.kind
    if k == "reg":
        f = op.shape[0]
        n = op.holes[0]
        if n != _ZERO[f]:
            w = width if f in ("R", "UR") else 1
            out += [(f, n + i) for i in range(w) if n + i < _ZERO[f]]
    elif k == "mem":
        has_desc, suff, _, _ = op.shape
        desc, reg, ureg, _ = op.holes
        if has_desc and desc != 63:
            out += [("UR", desc), ("UR", desc + 1)]
        if reg != 255:
            w = 2 if "64" in suff else 1
            out += [("R", reg + i) for i in range(w)]
        if ureg != 63:
            out.append(("UR", ureg))
    elif k == "cbuf":
        bank, reg, _, ureg = op.holes
        if reg != 255:
            out.append(("R", reg))
        if op.shape[0] == "cx" and bank != 63:
            out.append(("UR", bank))
        if ureg != 63:
            out.append(("UR", ureg))
    elif k == "pair":
        ka, sa, kb, sb = op.shape
        if ka == "reg" and sa[0] in _FILES and op.holes[0] != _ZERO[sa[0]]:
            out.append((sa[0], op.holes[0]))
    elif k == "name" and op.holes[0] == "PR":
        out += [("P", i) for i in range(7)]
    return out


def _is_dest_reg(op, files):
    return op.kind == "reg" and op.shape[0] in files or (op.kind == "name" and op.holes[0] == "PR")


def usage(ins):
    """(reads, writes): sets of (file, index) for a decoded Instruction."""
    width = data_width(ins)
    reads, writes = set(), set()
    for op in ins.operands:
        reads.update(_regs(op, width))
    if ins.guard is not None:
        reads.add((ins.guard[0], ins.guard[1]))
    if ins.opcode in NO_DEST or ins.mnemonic in NO_DEST:
        return reads, writes
    ops = ins.operands
    i = 0
    while i < len(ops) and _is_dest_reg(ops[i], ("P", "UP")):
        writes.update(_regs(ops[i], 1))
        i += 1
    if i < len(ops) and _is_dest_reg(ops[i], ("R", "UR")):
        writes.update(_regs(ops[i], width))
        i += 1
    while i < len(ops) and _is_dest_reg(ops[i], ("P", "UP")):
        writes.update(_regs(ops[i], 1))
        i += 1
    return reads, writes


def first_dest(ins):
    """The registers of the first operand when it is certainly a destination (used to measure
    ptxas's latencies), else an empty set."""
    if ins.opcode in NO_DEST or not ins.operands:
        return set()
    op = ins.operands[0]
    if op.kind != "reg" or op.shape[1] or op.shape[2]:
        return set()
    return set(_regs(op, data_width(ins) if op.shape[0] in ("R", "UR") else 1))
