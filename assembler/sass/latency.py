"""Fixed latencies: how many issue cycles after a fixed-latency instruction its result can be read.

Ampere, Ada and Hopper do not interlock on ALU results (FFMA, IADD3, IMAD, LOP3, ISETP, ULDC ...):
the compiler spaces a reader from its producer with the stall counts of the instructions in between
(bits 105..108; a stall of 0 still costs the cycle of an issue), and a reader issued earlier reads the
register's old value.  Variable-latency instructions (memory, MUFU, S2R ...) use scoreboards instead
and are not described here.

The numbers are ptxas's (tables/latency.py, measured by scripts/gen_sass_latency.py over every path
of its code): the fewest cycles it ever leaves between a producer and the first reader of its
result, per opcode (a .WIDE form apart: Hopper's IMAD.WIDE gives its low half after 3 cycles, where
every other IMAD takes 4) and register file, and, for a predicate read as an instruction's guard, per
file (on all three archs ptxas leaves at least 13 cycles before a predicate is read as a guard, 4
before it is read as an operand).

Two users, two directions:
  * `check_latency` is what a strict simulator may demand: never more than ptxas leaves.  A distance
    seen only a few times may be ptxas's convenience rather than the latency, so it is capped at the
    latency most opcodes of that register file share; an opcode never measured gets the smallest
    latency of its file.
  * `schedule_latency` is what a scheduler must leave: at least the checked latency, and at least
    what the arch's SCHEDULE table (learned with over-approximated registers) says.
"""
import collections

from .tables import canonical_arch, load
from .tables.latency import LATENCY

TRUST = 10                    # first readers a measured distance needs to be taken as it is
FILES = ("R", "UR", "P", "UP")


def variant(opcode, modifiers):
    """The table key of an instruction: its opcode, with '.WIDE' for a wide form."""
    return opcode + ".WIDE" if "WIDE" in modifiers else opcode


class Latencies:
    """The fixed-latency model of one arch; opcodes are given as key(opcode, modifiers)."""
    key = staticmethod(variant)

    def __init__(self, arch):
        self.arch = canonical_arch(arch)
        table = LATENCY.get(self.arch, {"result": {}, "guard": {}})
        common, smallest = {}, {}
        for f in FILES:
            seen = [d for per in table["result"].values() for ff, (d, n) in per.items() if ff == f and n >= TRUST]
            common[f] = collections.Counter(seen).most_common(1)[0][0] if seen else 4
            smallest[f] = min(seen, default=common[f])
        self.common, self.smallest = common, smallest
        self._check = {}
        for op, per in table["result"].items():
            for f, (d, n) in per.items():
                self._check[op, f] = d if n >= TRUST else min(d, common[f])
        self._guard = dict(table["guard"])
        sched = load(self.arch).SCHEDULE
        self._learned, self._default = sched["latency"], sched["default_latency"]

    def check_latency(self, opcode, file):
        """Cycles after issue a source operand may read `file` registers `opcode` (a variant()) wrote."""
        got = self._check.get((opcode, file))
        if got is None:
            got = self._check.get((opcode.split(".")[0], file), self.smallest.get(file, 1))
        return got

    def guard_latency(self, opcode, file):
        """The same for a predicate read as a guard (@P)."""
        return max(self.check_latency(opcode, file), self._guard.get(file, 0))

    def schedule_latency(self, opcode, file, guard=False):
        """What a scheduler leaves after `opcode` before a reader of its `file` result (as a guard)."""
        checked = self.guard_latency(opcode, file) if guard and file in ("P", "UP") else \
            self.check_latency(opcode, file)
        return max(checked, self._learned.get(opcode.split(".")[0], self._default))


_cache = {}


def latencies(arch):
    a = canonical_arch(arch)
    m = _cache.get(a)
    if m is None:
        m = _cache[a] = Latencies(a)
    return m
