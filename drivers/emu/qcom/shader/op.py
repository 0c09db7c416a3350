"""One prepared instruction: what it reads and writes (for the hazard tracker), its sync flags,
and ``run(x, active)``, which executes it for the active fibers of a workgroup.

``x`` is the executor (drivers.emu.qcom.shader.executor.Runner): ``x.wg`` the registers,
``x.ctx`` the dispatch (consts, VM, descriptors), ``x.pcs`` each fiber's program counter.
Flow instructions (``flow=True``) set the next PC of their fibers themselves; the executor
advances everyone else by one.
"""

# What a producer's result needs before another instruction may touch its destination
SS, SY = 1, 2
# Which sync lets an instruction overwrite a register a producer may still be reading
WAR_SS, WAR_SY, WAR_EITHER = 1, 2, 3


# The third source of a cat3 instruction is read this many cycles after the others (mesa's
# delay_slots.cat3_src2_read)
CAT3_SRC3_LATE = 2
_UNCOUNTED_FLOW = ("jump", "br", "braa", "brao")


class Op:
    __slots__ = ("pc", "text", "name", "cat", "ss", "sy", "jp", "repeat", "nops", "reads", "writes",
                 "produces", "produce_rows", "war", "war_rows", "flow", "run", "counts", "alu", "cycles",
                 "timing", "dst_timing")

    def __init__(self, pc, ins, run, reads=(), writes=(), produces=0, produce_rows=None, war=0, war_rows=None,
                 flow=False, timing=None, dst_timing=None):
        self.pc, self.text, self.name, self.cat = pc, ins.text, ins.name, ins.category
        self.ss, self.sy, self.jp = ins.ss, ins.sy, ins.jp
        self.repeat = ins.repeat
        self.nops = ins.nop
        self.run = run
        # rows (full-register ids) read and written over every repetition; None inside the
        # tuple marks a relative access the tracker cannot know in advance
        self.reads, self.writes = tuple(reads), tuple(writes)
        self.produces = produces
        self.produce_rows = tuple(writes if produce_rows is None else produce_rows)
        self.war = war
        self.war_rows = tuple(reads if war_rows is None else war_rows)
        self.flow = flow
        self.counts = True          # counts as an executed instruction (everything but meta nops)
        # ALU latency (mesa's ir3_legalize model): cat1-3 results are late; ALU and flow
        # instructions (but jumps and branches) take a cycle, plus (rptN) and (nopN)
        self.alu = self.cat in (1, 2, 3)
        self.cycles = self.alu or (self.cat == 0 and self.name not in _UNCOUNTED_FLOW)
        # [(unit, read cycle offset, half)] and [(unit, write cycle offset, half)]
        self.timing = tuple(timing) if timing is not None else tuple((u, 0, False) for u in self.reads if u is not None)
        self.dst_timing = tuple(dst_timing) if dst_timing is not None else \
            tuple((u, 0, False) for u in self.writes if u is not None)

    def __repr__(self):
        return f"Op(0x{self.pc:x} {self.text})"


def timing_of(srcs, repeat, cat3=False):
    """[(unit, cycle offset, half)] of the register reads of ``srcs`` over the repetitions."""
    out = []
    for k, s in enumerate(srcs):
        late = CAT3_SRC3_LATE if cat3 and k == 2 else 0
        for i in range(repeat + 1 if s.r else 1):
            r = s.rows(i)
            if r is None:
                break
            out.extend((u, late + i, s.half) for u in r)
    return out


def rows_of(srcs, repeat):
    """Every row the sources read over ``repeat + 1`` repetitions."""
    out = []
    for s in srcs:
        for i in range(repeat + 1):
            r = s.rows(i)
            if r is None:
                out.append(None)
                break
            out.extend(r)
            if not s.r:
                break
    return out
