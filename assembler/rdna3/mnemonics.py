"""Which instruction forms each mnemonic names, in the order llvm-mc tries them: the rules the
assembler's mnemonic index follows, over tables.py.

The index itself is generated from these rules into index_table.py (python
scripts/gen_rdna3_index.py), so importing the assembler does not rebuild it; a test checks the
committed table against build_index().
"""
from .encode_mem import MEM_BY_NAME
from .tables import ALIASES, ALU, FORCED_SUFFIX, LDSDIR_OPS, MIMG


def _build_index():
    """mnemonic -> list of (kind, family, opcode, entry, variant) in the order llvm-mc tries them."""
    index = {}
    order = {"SOP1": 0, "SOP2": 0, "SOPK": 0, "SOPC": 0, "SOPP": 0, "VOP1": 1, "VOP2": 1, "VOPC": 1,
             "VOP3": 2, "VOP3SD": 2, "VOP3P": 2, "VINTERP": 2}

    def add(name, item):
        index.setdefault(name, []).append(item)

    for fam, ops in ALU.items():
        for op, entry in ops.items():
            mnem, dpp16, dpp8 = entry[0], entry[5], entry[6]
            item = ("alu", fam, op, entry, None)
            add(mnem, item)
            suffixed = mnem.endswith(("_e32", "_e64"))
            if suffixed:
                add(mnem[:-4], item)
            if dpp16 or dpp8:
                # the plain mnemonic with DPP controls also selects the DPP form
                base = mnem[:-4] if suffixed else mnem
                for kind, name in (("dpp16", dpp16), ("dpp8", dpp8)):
                    if name:
                        add(name, ("alu", fam, op, entry, kind))
                        add(base, ("alu", fam, op, entry, kind))
    short = {e[0] for f in ("VOP1", "VOP2", "VOPC") for e in ALU[f].values()}
    for op, entry in ALU["VOP3"].items():
        mnem = entry[0]
        if not mnem.endswith("_e64") and mnem in short:
            add(mnem + "_e64", ("alu", "VOP3", op, entry, None))     # v_nop_e64, v_pipeflush_e64
    key = lambda it: (it[4] is not None, order[it[1]])   # noqa: E731
    for name, items in index.items():
        if len(items) > 1:
            items.sort(key=key)
            index[name] = list(dict.fromkeys(items))                 # first occurrences, in order
    for name, (seg, op, entry) in MEM_BY_NAME.items():
        index.setdefault(name, []).append(("mem", seg, op, entry, None))
    for op, entry in MIMG.items():
        index[entry["mnem"]] = [("mimg", "MIMG", op, entry, None)]
    for name in list(LDSDIR_OPS.values()) + ["exp"]:
        index[name] = [("exp", "EXP" if name == "exp" else "LDSDIR", 0, None, None)]
    return index


def _add_aliases(index):
    """Older spellings llvm-mc-19 still accepts (checked by the table generator)."""
    for alias, mnem in ALIASES.items():
        if mnem in index:
            index.setdefault(alias, index[mnem])
        if alias.endswith(("_e32", "_e64")) and mnem[:-4] in index:
            index.setdefault(alias[:-4], index[mnem[:-4]])
    return index


_VOP3_FLAGGED = frozenset(("VOP3", "VOP3SD", "VOP3P", "VINTERP"))


def _takes(cand, size):
    """Does llvm-mc keep this form under a forced _e32 / _e64 suffix (tables.FORCED_SUFFIX)?"""
    kind, fam, op = cand[0], cand[1], cand[2]
    learned = FORCED_SUFFIX.get((fam, op))
    if learned is not None:
        return size in learned.split()
    if kind == "exp":
        return size == "e32"                    # exp, lds_param_load, lds_direct_load
    return (size == "e64") == (fam in _VOP3_FLAGGED)


def _add_forced_encodings(index):
    """llvm-mc strips _e32, _e64, _dpp and _e64_dpp from any mnemonic and keeps the forms of
    that encoding: _e32 / _e64 per form as learned from llvm-mc (tables.FORCED_SUFFIX: any SOP,
    memory, export or VOP1/2/C form takes _e32, VOP3/VOP3P/VINTERP forms _e64, with exceptions
    like v_readlane_b32), _dpp the DPP forms of VOP1/2/C, _e64_dpp the VOP3 DPP ones."""
    added = {}
    for name, cands in index.items():
        if name.endswith(("_e32", "_e64", "_dpp", "_sdwa")):
            continue
        forms = {
            "_e32": [c for c in cands if c[4] is None and _takes(c, "e32")],
            "_e64": [c for c in cands if c[4] is None and _takes(c, "e64")],
            "_dpp": [c for c in cands if c[4] is not None and c[1] not in _VOP3_FLAGGED],
            "_e64_dpp": [c for c in cands if c[4] is not None and c[1] in _VOP3_FLAGGED],
        }
        for suffix, sel in forms.items():
            if name + suffix in index:
                continue
            if sel:
                added[name + suffix] = sel
    index.update(added)
    # a table name with a suffix llvm-mc refuses for that form (v_readlane_b32 is e32)
    for name in [n for n in index if n.endswith("_e64") and not n.endswith("_e64_dpp")]:
        keep = [c for c in index[name] if c[0] != "alu" or c[4] is not None or _takes(c, "e64")
                or c[3][0] == name]
        if keep:
            index[name] = keep
        else:
            del index[name]
    return index



def build_index():
    """mnemonic -> [(kind, family, opcode, table entry, variant)], every spelling llvm-mc-19 takes."""
    return _add_forced_encodings(_add_aliases(_build_index()))
