"""Symbolic 16-bit immediates: s_waitcnt, s_delay_alu, s_waitcnt_depctr, hwreg(), sendmsg().

Each has a printer (value -> llvm-mc's text) and a parser (text -> value). Field layouts are gfx11's.
"""
from .tables import HWREG_NAMES, SENDMSG_NAMES, VERSION_NAMES

# s_waitcnt: vmcnt[15:10] lgkmcnt[9:4] expcnt[2:0]
WAITCNT = (("vmcnt", 10, 6), ("expcnt", 0, 3), ("lgkmcnt", 4, 6))


def waitcnt_text(v):
    parts = [(n, (v >> lo) & ((1 << w) - 1), (1 << w) - 1) for n, lo, w in WAITCNT]
    shown = [p for p in parts if p[1] != p[2]] or parts
    return " ".join("%s(%d)" % (n, x) for n, x, _ in shown)


DELAY_ID = ["NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1",
            "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2",
            "SALU_CYCLE_3"]
DELAY_SKIP = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"]


def delay_alu_text(v):
    """None when a field holds a value llvm-mc does not decode."""
    id0, skip, id1 = v & 15, (v >> 4) & 7, (v >> 7) & 15
    if id0 >= len(DELAY_ID) or id1 >= len(DELAY_ID) or skip >= len(DELAY_SKIP):
        return None
    parts = []
    if id0:
        parts.append("instid0(%s)" % DELAY_ID[id0])
    if skip:
        parts.append("instskip(%s)" % DELAY_SKIP[skip])
    if id1:
        parts.append("instid1(%s)" % DELAY_ID[id1])
    return " | ".join(parts) if parts else "0"


# s_waitcnt_depctr fields in printing order: (name, lo, width)
DEPCTR = (("depctr_hold_cnt", 7, 1), ("depctr_sa_sdst", 0, 1), ("depctr_va_vdst", 12, 4),
          ("depctr_va_sdst", 9, 3), ("depctr_va_ssrc", 8, 1), ("depctr_va_vcc", 1, 1),
          ("depctr_vm_vsrc", 2, 3))
_DEPCTR_BITS = sum(((1 << w) - 1) << lo for _, lo, w in DEPCTR)


def depctr_text(v):
    if v & ~_DEPCTR_BITS & 0xFFFF:
        return "0x%x" % v
    parts = [(n, (v >> lo) & ((1 << w) - 1), (1 << w) - 1) for n, lo, w in DEPCTR]
    shown = [p for p in parts if p[1] != p[2]] or parts
    return " ".join("%s(%d)" % (n, x) for n, x, _ in shown)


def hwreg_text(v):
    hid, off, size = v & 63, (v >> 6) & 31, (v >> 11) + 1
    name = HWREG_NAMES.get(hid, str(hid))
    if off == 0 and size == 32:
        return "hwreg(%s)" % name
    return "hwreg(%s, %d, %d)" % (name, off, size)


def sendmsg_text(v):
    mid = v & 0xFF
    if mid in SENDMSG_NAMES:
        return "sendmsg(%s)" % SENDMSG_NAMES[mid]
    if v >> 8 == 0:
        return "sendmsg(%d, 0, 0)" % mid
    return str(v)


VERSION_FLAGS = ((0x2000, "UC_VERSION_W64_BIT"), (0x4000, "UC_VERSION_W32_BIT"),
                 (0x8000, "UC_VERSION_MDP_BIT"))


def version_text(v):
    base = v & 0x1FFF
    if base > 0xFF:
        return "0x%x" % v
    text = VERSION_NAMES.get(base, str(base))
    for bit, name in VERSION_FLAGS:
        if v & bit:
            text = ("(%s)|%s" if "|" in text else "%s|%s") % (text, name)
    return text


def int16_text(v):
    return str(v) if v <= 64 else "0x%x" % v


PRINTERS = {
    "waitcnt": waitcnt_text, "delay_alu": delay_alu_text, "depctr": depctr_text,
    "hwreg": hwreg_text, "sendmsg": sendmsg_text, "version": version_text,
    "hex": lambda v: "0x%x" % v, "udec": str, "int16": int16_text, "opt_dec": str,
}
