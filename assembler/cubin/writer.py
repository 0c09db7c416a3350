"""Write a cubin the way ptxas 13 lays one out, so NVIDIA's loader and tools accept it.

    write_cubin(arch, [KernelSpec]) -> bytes

ELF64, EM_CUDA, ET_EXEC, OSABI 0x41 with ABI version 8: e_flags holds the SM number in bits 8..15
and the section index of .note.nv.cuinfo in bits 24..31 (cuobjdump refuses an sm_90 cubin whose
e_flags names another section: "Invalid ELF").
Per kernel NAME:
    .text.NAME            the code, 128-aligned, padded like ptxas (BRA to itself, then NOPs to a
                          multiple of 128 bytes); sh_info = register count << 24 | symbol (before
                          sm_90), the symbol alone on sm_90
    .nv.info.NAME         CUDA_API_VERSION, KPARAM_INFO (one per parameter, last first),
                          MAXREG_COUNT, NUM_BARRIERS, EXIT_INSTR_OFFSETS, CBANK_PARAM_SIZE,
                          PARAM_CBANK, and MAX_THREADS / REQNTID when given
    .nv.constant0.NAME    zeros, sized for the driver area plus the parameters (they start at
                          0x160 before sm_90, at 0x210 on sm_90)
    .nv.shared.NAME       static shared memory (NOBITS); on sm_90 the 1 KiB ptxas reserves at
                          the bottom of shared memory is added, with .nv.shared.reserved.0
and .nv.info holds REGCOUNT, FRAME_SIZE and MIN_STACK_SIZE of every kernel. .note.nv.cuinfo
says which CUDA version wrote the file (CUDA 13's tools refuse a cubin without it: "does not
contain compatibility section").
"""
import struct
from dataclasses import dataclass, field

from . import elf as E
from . import nvinfo

E_FLAGS = {"sm_86": 0x00005604, "sm_89": 0x00005904, "sm_90": 0x00005A04}     # | cuinfo index << 24
PARAM_BASE = {"sm_86": 0x160, "sm_89": 0x160, "sm_90": 0x210}
RESERVED_SHARED = {"sm_90": 0x400}
CUDA_API_VERSION = 0x82
ELFOSABI_CUDA, ELFABI_V8 = 0x41, 8
STO_CUDA_ENTRY = 0x10
SHT_CUDA_INFO = 0x70000000
# ptxas's padding after the code: BRA to itself, then NOPs (both with an all-default control)
# (sm_90's branch offset field is wider: ptxas writes its own self-branch there)
_BRA_SELF = {"sm_86": (0xFFFFFFF000007947, 0x000FC0000383FFFF), "sm_89": (0xFFFFFFF000007947, 0x000FC0000383FFFF),
             "sm_90": (0xFFFFFFFC00FC7947, 0x000FC0000383FFFF)}
_NOP = (0x0000000000007918, 0x000FC00000000000)
# .note.nv.cuinfo: owner "NVIDIA Corp", type 1000; note version 2, the SM number, CUDA API
# version; on sm_90 its sh_info names .nv.compat
NT_CUDA_INFO = 1000
SHF_CUDA_NOTE = 0x1000000
# .nv.compat (sm_90): what the driver may assume of the code, as ptxas 13 writes it for plain
# sm_90 kernels: (format, attribute, value) records, EIFMT_BVAL = 2, EIFMT_HVAL = 3, EIFMT_SVAL = 4
SHT_CUDA_COMPAT = 0x70000086
_COMPAT_SM90 = (
    (2, 0x09, 0),          # EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET: no (sm_90, not sm_90a)
    (2, 0x02, 1),          # EICOMPAT_ATTR_ISA_CLASS
    (2, 0x05, 5),          # EICOMPAT_ATTR_INST_TCGEN05_MMA (cuobjdump's name; ptxas writes 5 for sm_90)
    (3, 0x07, 0x101),
    (2, 0x03, 0),          # EICOMPAT_ATTR_INST_TENSORMAP_V1: no tensor maps
    (2, 0x06, 1),          # EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION
    (4, 0x0b, b"\0" * 8),  # EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE
)


def _compat(records):
    out = b""
    for fmt, attr, v in records:
        if fmt == 4:
            out += struct.pack("<BBH", fmt, attr, len(v)) + v
        else:
            out += struct.pack("<BBH", fmt, attr, v)
    return out


@dataclass
class ParamSpec:
    name: str
    size: int
    align: int = None
    offset: int = None            # in the parameter area; None: next one, aligned


@dataclass
class KernelSpec:
    name: str
    code: bytes
    regs: int
    params: list = field(default_factory=list)
    shared: int = 0
    local: int = 0                # per-thread local memory (FRAME_SIZE, MIN_STACK_SIZE)
    barriers: int = 0
    max_threads: tuple = None
    reqntid: tuple = None
    exit_offsets: list = None     # None: found in the code by the caller
    pad: bool = True


def layout_params(params):
    """Assign offsets: each parameter aligned to its alignment (default min(size, 8))."""
    off = 0
    out = []
    for p in params:
        align = p.align or max(1, min(p.size, 8))
        if align & (align - 1):
            raise ValueError("parameter %s: alignment %d is not a power of two" % (p.name, align))
        o = p.offset if p.offset is not None else (off + align - 1) // align * align
        if o % align:
            raise ValueError("parameter %s: offset 0x%x is not %d-aligned" % (p.name, o, align))
        out.append(ParamSpec(p.name, p.size, align, o))
        off = max(off, o + p.size)
    return out, off


def pad_code(code, arch="sm_86"):
    code = bytes(code)
    if len(code) % 16:
        raise ValueError("code is %d bytes, not a multiple of 16" % len(code))
    out = code + struct.pack("<QQ", *_BRA_SELF[arch])
    while len(out) % 128:
        out += struct.pack("<QQ", *_NOP)
    return out


def _note(ntype, desc, owner=b"NVIDIA Corp\0"):
    pad = lambda b: b + b"\0" * (-len(b) % 4)          # noqa: E731
    return struct.pack("<III", len(owner), len(desc), ntype) + pad(owner) + pad(desc)


def write_cubin(arch, kernels):
    if arch not in E_FLAGS:
        raise ValueError("cannot write a cubin for %r (supported: %s)" % (arch, ", ".join(E_FLAGS)))
    base = PARAM_BASE[arch]
    f = E.Elf(osabi=ELFOSABI_CUDA, abiversion=ELFABI_V8, type=E.ET_EXEC, machine=E.EM_CUDA,
              flags=E_FLAGS[arch])
    null = E.Section("", E.SHT_NULL)
    shstrtab = E.Section(".shstrtab", E.SHT_STRTAB, align=1)
    strtab = E.Section(".strtab", E.SHT_STRTAB, align=1)
    symtab = E.Section(".symtab", E.SHT_SYMTAB, align=8, entsize=E.SYM.size)
    info = E.Section(".nv.info", SHT_CUDA_INFO, align=4)
    sm = int(arch.split("_")[1])
    cuinfo = E.Section(".note.nv.cuinfo", E.SHT_NOTE, SHF_CUDA_NOTE, _note(NT_CUDA_INFO, struct.pack(
        "<HHI", 2, sm, CUDA_API_VERSION)), align=4)
    secs = [null, shstrtab, strtab, symtab, cuinfo, info]
    f.flags |= secs.index(cuinfo) << 24
    if arch == "sm_90":
        compat = E.Section(".nv.compat", SHT_CUDA_COMPAT, 0, _compat(_COMPAT_SM90), align=4)
        secs.append(compat)
        cuinfo.flags |= E.SHF_INFO_LINK
    per = []
    for k in kernels:
        params, psize = layout_params(k.params)
        code = pad_code(k.code, arch) if k.pad else bytes(k.code)
        kinfo = E.Section(".nv.info." + k.name, SHT_CUDA_INFO, E.SHF_INFO_LINK, align=4)
        c0 = E.Section(".nv.constant0." + k.name, E.SHT_PROGBITS, E.SHF_ALLOC | E.SHF_INFO_LINK,
                       b"\0" * (base + psize), align=4)
        text = E.Section(".text." + k.name, E.SHT_PROGBITS, E.SHF_ALLOC | E.SHF_EXECINSTR, code, align=128)
        shared = None
        if k.shared:
            shared = E.Section(".nv.shared." + k.name, E.SHT_NOBITS, E.SHF_WRITE | E.SHF_ALLOC | E.SHF_INFO_LINK,
                               size=k.shared + RESERVED_SHARED.get(arch, 0), align=16)
        per.append((k, params, psize, kinfo, c0, text, shared))
        secs += [kinfo, c0, text] + ([shared] if shared else [])
    reserved = None
    if arch in RESERVED_SHARED and any(p[6] for p in per):
        reserved = E.Section(".nv.shared.reserved.0", E.SHT_NOBITS, E.SHF_WRITE | E.SHF_ALLOC, size=0, align=1)
        secs.append(reserved)
    for i, s in enumerate(secs):
        s.index = i
    # symbols: the null one, section symbols, then the kernels (global)
    syms = [E.Symbol("")]
    sec_sym = {}
    for k, params, psize, kinfo, c0, text, shared in per:
        for s in (text, c0) + ((shared,) if shared else ()):
            sec_sym[s.name] = len(syms)
            syms.append(E.Symbol(s.name, type=E.STT_SECTION, shndx=s.index))
    first_global = len(syms)
    fn_sym = {}
    for k, params, psize, kinfo, c0, text, shared in per:
        fn_sym[k.name] = len(syms)
        syms.append(E.Symbol(k.name, 0, len(text.data), E.STB_GLOBAL, E.STT_FUNC, STO_CUDA_ENTRY, text.index))
    symtab.data, strtab.data = E.symtab_bytes(syms, [])
    symtab.link, symtab.info = strtab.index, first_global
    # .nv.info and the per-kernel sections' links
    recs = b""
    for k, params, psize, kinfo, c0, text, shared in per:
        si = fn_sym[k.name]
        recs += nvinfo.record(nvinfo.EIATTR_REGCOUNT, nvinfo.EIFMT_SVAL, struct.pack("<II", si, k.regs))
        recs += nvinfo.record(nvinfo.EIATTR_FRAME_SIZE, nvinfo.EIFMT_SVAL, struct.pack("<II", si, k.local))
        recs += nvinfo.record(nvinfo.EIATTR_MIN_STACK_SIZE, nvinfo.EIFMT_SVAL, struct.pack("<II", si, k.local))
        kinfo.data = _kernel_info(k, params, psize, base, sec_sym[c0.name])
        kinfo.link, kinfo.info = symtab.index, text.index
        c0.info = text.index
        text.link = symtab.index
        text.info = si if arch == "sm_90" else (k.regs << 24 | si)
        if shared:
            shared.info = text.index
    info.data = recs
    info.link = symtab.index
    if arch == "sm_90":
        cuinfo.info = compat.index
    f.sections = secs
    return E.write(f)


def _kernel_info(k, params, psize, base, c0_sym):
    r = nvinfo.record(nvinfo.EIATTR_CUDA_API_VERSION, nvinfo.EIFMT_SVAL, struct.pack("<I", CUDA_API_VERSION))
    for ordinal in reversed(range(len(params))):
        p = params[ordinal]
        r += nvinfo.record(nvinfo.EIATTR_KPARAM_INFO, nvinfo.EIFMT_SVAL, nvinfo.kparam(ordinal, p.offset, p.size))
    r += nvinfo.record(nvinfo.EIATTR_MAXREG_COUNT, nvinfo.EIFMT_HVAL, 0xFF)
    if k.barriers:
        r += nvinfo.record(nvinfo.EIATTR_NUM_BARRIERS, nvinfo.EIFMT_BVAL, k.barriers)
    if k.max_threads:
        r += nvinfo.record(nvinfo.EIATTR_MAX_THREADS, nvinfo.EIFMT_SVAL, struct.pack("<3I", *k.max_threads))
    if k.reqntid:
        r += nvinfo.record(nvinfo.EIATTR_REQNTID, nvinfo.EIFMT_SVAL, struct.pack("<3I", *k.reqntid))
    if k.exit_offsets:
        r += nvinfo.record(nvinfo.EIATTR_EXIT_INSTR_OFFSETS, nvinfo.EIFMT_SVAL,
                           struct.pack("<%dI" % len(k.exit_offsets), *k.exit_offsets))
    r += nvinfo.record(nvinfo.EIATTR_CBANK_PARAM_SIZE, nvinfo.EIFMT_HVAL, psize)
    r += nvinfo.record(nvinfo.EIATTR_PARAM_CBANK, nvinfo.EIFMT_SVAL, struct.pack("<II", c0_sym, psize << 16 | base))
    return r
