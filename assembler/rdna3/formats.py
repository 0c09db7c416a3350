"""RDNA3 (gfx11) instruction formats: where each field sits in the instruction word.

Positions are (low bit, width) in the little-endian 32- or 64-bit base word; a literal constant
or a DPP control word follows the base word. Layouts follow the RDNA3 ISA guide and were checked
against llvm-mc-19 (see ../../tests/data/rdna3).
"""

# family -> (base size in bytes, {field: (lo, width)})
FORMATS = {
    "SOP2": (4, {"ssrc0": (0, 8), "ssrc1": (8, 8), "sdst": (16, 7), "op": (23, 7)}),
    "SOPK": (4, {"simm16": (0, 16), "sdst": (16, 7), "op": (23, 5)}),
    "SOP1": (4, {"ssrc0": (0, 8), "op": (8, 8), "sdst": (16, 7)}),
    "SOPC": (4, {"ssrc0": (0, 8), "ssrc1": (8, 8), "op": (16, 7)}),
    "SOPP": (4, {"simm16": (0, 16), "op": (16, 7)}),
    "SMEM": (8, {"sbase": (0, 6), "sdata": (6, 7), "dlc": (13, 1), "glc": (14, 1), "op": (18, 8),
                 "offset": (32, 21), "soffset": (57, 7)}),
    "VOP1": (4, {"src0": (0, 9), "op": (9, 8), "vdst": (17, 8)}),
    "VOP2": (4, {"src0": (0, 9), "vsrc1": (9, 8), "vdst": (17, 8), "op": (25, 6)}),
    "VOPC": (4, {"src0": (0, 9), "vsrc1": (9, 8), "op": (17, 8)}),
    "VOP3": (8, {"vdst": (0, 8), "abs": (8, 3), "opsel": (11, 4), "clamp": (15, 1), "op": (16, 10),
                 "src0": (32, 9), "src1": (41, 9), "src2": (50, 9), "omod": (59, 2), "neg": (61, 3)}),
    "VOP3SD": (8, {"vdst": (0, 8), "sdst": (8, 7), "clamp": (15, 1), "op": (16, 10),
                   "src0": (32, 9), "src1": (41, 9), "src2": (50, 9), "omod": (59, 2), "neg": (61, 3)}),
    "VOP3P": (8, {"vdst": (0, 8), "neg_hi": (8, 3), "opsel": (11, 3), "opsel_hi2": (14, 1),
                  "clamp": (15, 1), "op": (16, 7), "src0": (32, 9), "src1": (41, 9), "src2": (50, 9),
                  "opsel_hi": (59, 2), "neg": (61, 3)}),
    "VOPD": (8, {"srcx0": (0, 9), "vsrcx1": (9, 8), "opy": (17, 5), "opx": (22, 4),
                 "srcy0": (32, 9), "vsrcy1": (41, 8), "vdsty": (49, 7), "vdstx": (56, 8)}),
    "VINTERP": (8, {"vdst": (0, 8), "waitexp": (8, 3), "opsel": (11, 4), "clamp": (15, 1),
                    "op": (16, 7), "src0": (32, 9), "src1": (41, 9), "src2": (50, 9),
                    "neg": (61, 3)}),
    "LDSDIR": (4, {"vdst": (0, 8), "attr_chan": (8, 2), "attr": (10, 6), "wait_vdst": (16, 4),
                   "op": (20, 2)}),
    "EXP": (8, {"en": (0, 4), "target": (4, 6), "done": (11, 1), "row": (13, 1),
                "vsrc0": (32, 8), "vsrc1": (40, 8), "vsrc2": (48, 8), "vsrc3": (56, 8)}),
    "DS": (8, {"offset0": (0, 8), "offset1": (8, 8), "gds": (17, 1), "op": (18, 8),
               "addr": (32, 8), "data0": (40, 8), "data1": (48, 8), "vdst": (56, 8)}),
    "FLAT": (8, {"offset": (0, 13), "dlc": (13, 1), "glc": (14, 1), "slc": (15, 1), "seg": (16, 2),
                 "op": (18, 7), "addr": (32, 8), "data": (40, 8), "saddr": (48, 7), "sve": (55, 1),
                 "vdst": (56, 8)}),
    "MUBUF": (8, {"offset": (0, 12), "slc": (12, 1), "dlc": (13, 1), "glc": (14, 1), "op": (18, 8),
                  "vaddr": (32, 8), "vdata": (40, 8), "srsrc": (48, 5), "tfe": (53, 1),
                  "offen": (54, 1), "idxen": (55, 1), "soffset": (56, 8)}),
    # MIMG: an NSA form (nsa=1) is followed by a dword holding the first register of address
    # operands 1..4
    "MIMG": (8, {"nsa": (0, 1), "dim": (2, 3), "unorm": (7, 1), "dmask": (8, 4), "slc": (12, 1),
                 "dlc": (13, 1), "glc": (14, 1), "r128": (15, 1), "a16": (16, 1), "d16": (17, 1),
                 "op": (18, 8), "vaddr": (32, 8), "vdata": (40, 8), "srsrc": (48, 5),
                 "tfe": (53, 1), "lwe": (54, 1), "ssamp": (58, 5)}),
    "MTBUF": (8, {"offset": (0, 12), "slc": (12, 1), "dlc": (13, 1), "glc": (14, 1), "op": (15, 4),
                  "format": (19, 7), "vaddr": (32, 8), "vdata": (40, 8), "srsrc": (48, 5),
                  "tfe": (53, 1), "offen": (54, 1), "idxen": (55, 1), "soffset": (56, 8)}),
}

# Fixed identification bits: family -> (mask, value) over the first dword.
ENCODING_BITS = {
    "SOP1": (0xFF800000, 0xBE800000), "SOPC": (0xFF800000, 0xBF000000),
    "SOPP": (0xFF800000, 0xBF800000), "SOPK": (0xF0000000, 0xB0000000),
    "SOP2": (0xC0000000, 0x80000000),
    "VOP1": (0xFE000000, 0x7E000000), "VOPC": (0xFE000000, 0x7C000000),
    "VOP2": (0x80000000, 0x00000000),
    "VOP3P": (0xFF000000, 0xCC000000), "VINTERP": (0xFF000000, 0xCD000000),
    "LDSDIR": (0xFF000000, 0xCE000000),
    "SMEM": (0xFC000000, 0xF4000000), "VOP3": (0xFC000000, 0xD4000000),
    "VOPD": (0xFC000000, 0xC8000000), "DS": (0xFC000000, 0xD8000000),
    "FLAT": (0xFC000000, 0xDC000000), "MUBUF": (0xFC000000, 0xE0000000),
    "MTBUF": (0xFC000000, 0xE8000000), "MIMG": (0xFC000000, 0xF0000000),
    "EXP": (0xFC000000, 0xF8000000),
}

# Checked most specific first (SOP1/SOPC/SOPP live inside the SOPK and SOP2 spaces, VOP1/VOPC
# inside VOP2's).
_ORDER = ["SOP1", "SOPC", "SOPP", "SOPK", "SOP2", "VOP1", "VOPC", "VOP2", "VOP3P", "VINTERP",
          "LDSDIR", "SMEM", "VOP3", "VOPD", "DS", "FLAT", "MUBUF", "MTBUF", "MIMG", "EXP"]
FLAT_SEGMENTS = {0: "FLAT", 1: "SCRATCH", 2: "GLOBAL"}


def family_of(dword):
    """The encoding family of an instruction from its first dword, or None."""
    for fam in _ORDER:
        mask, value = ENCODING_BITS[fam]
        if dword & mask == value:
            return fam
    return None


def put(fam, **values):
    """Build a base word of family `fam` (encoding bits included) from field values."""
    fields = FORMATS[fam][1]
    word = ENCODING_BITS["VOP3" if fam == "VOP3SD" else fam][1]
    for name, v in values.items():
        lo, width = fields[name]
        word |= (v & ((1 << width) - 1)) << lo
    return word


def get(fields, word, name):
    lo, width = fields[name]
    return (word >> lo) & ((1 << width) - 1)
