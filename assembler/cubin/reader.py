"""Read a cubin (ptxas's or ours): everything a launcher needs, per kernel.

    read_cubin(data, where="cubin") -> Cubin

For each kernel (a global STT_FUNC symbol with STO_CUDA_ENTRY in .text.NAME):

    code            the .text.NAME bytes; code_size the symbol's size
    regs            EIATTR_REGCOUNT (.nv.info), else the register count in .text's sh_info
    params          [Param(ordinal, offset, size)] from EIATTR_KPARAM_INFO, offsets within the
                    parameter area, which starts at param_base in constant bank 0
                    (EIATTR_PARAM_CBANK: 0x160 on sm_86/89, 0x210 on sm_90) and is param_size long
    cbank0_size     size of .nv.constant0.NAME (driver constants + parameters)
    shared_size     static shared memory (.nv.shared.NAME; on sm_90 ptxas includes the 1 KiB
                    it reserves, reported as shared_reserved)
    local_size      per-thread local memory: EIATTR_FRAME_SIZE, min_stack EIATTR_MIN_STACK_SIZE,
                    crs_stack EIATTR_CRS_STACK_SIZE
    barriers        EIATTR_NUM_BARRIERS (0 when absent)
    max_threads, reqntid, cluster_dims      launch bounds when the kernel declares them
    exit_offsets    EIATTR_EXIT_INSTR_OFFSETS
    const_banks     {bank: bytes} of its own .nv.constantN.NAME sections (e.g. jump tables)
    relocations     relocations patching its .text
    functions       {name: (offset, size)} of other functions inside its .text (callees)

and for the whole file: arch (from e_flags), const_banks {bank: bytes} of .nv.constantN,
globals {name: (section, offset, size)}, relocations (all of them, by section).
Anything inconsistent raises MalformedInput naming the section and the problem.
"""
import struct
from dataclasses import dataclass, field

from assembler.errors import MalformedInput

from . import nvinfo
from .elf import EM_CUDA, SHT_NOBITS, STB_GLOBAL, STT_FUNC, STT_OBJECT, read

SHT_CUDA_INFO = 0x70000000
STO_CUDA_ENTRY = 0x10
ELFOSABI_CUDA = 0x41
SM_RESERVED_SHARED = {"sm_90": 0x400}
R_CUDA_NAMES = {0: "R_CUDA_NONE", 1: "R_CUDA_32", 2: "R_CUDA_64", 0x38: "R_CUDA_ABS32_LO_32",
                0x39: "R_CUDA_ABS32_HI_32"}


@dataclass
class Param:
    ordinal: int
    offset: int                # within the parameter area
    size: int
    cbank: int = 0x1F


@dataclass
class Kernel:
    name: str
    code: bytes
    code_size: int
    text_section: str
    regs: int
    params: list
    param_base: int
    param_size: int
    cbank0_size: int
    shared_size: int = 0
    shared_reserved: int = 0
    local_size: int = 0
    min_stack: int = 0
    crs_stack: int = 0
    barriers: int = 0
    max_threads: tuple = None
    reqntid: tuple = None
    cluster_dims: tuple = None
    exit_offsets: list = field(default_factory=list)
    const_banks: dict = field(default_factory=dict)
    relocations: list = field(default_factory=list)
    functions: dict = field(default_factory=dict)
    attributes: list = field(default_factory=list)     # [(name, format, value)] of .nv.info.NAME

    @property
    def param_offsets(self):
        """Absolute offsets in constant bank 0, by ordinal."""
        return [self.param_base + p.offset for p in sorted(self.params, key=lambda p: p.ordinal)]


@dataclass
class Cubin:
    arch: str
    e_flags: int
    abi_version: int
    kernels: dict
    const_banks: dict
    globals: dict
    relocations: list
    elf: object = None


def arch_of(e_flags, abiversion):
    if abiversion >= 8:
        sm = (e_flags >> 8) & 0xFF
    else:
        sm = e_flags & 0xFF
    return "sm_%d" % sm


def read_cubin(data, where="cubin"):
    elf = read(data, where)
    if elf.machine != EM_CUDA:
        raise MalformedInput(where, None, "e_machine is %d, not EM_CUDA (190)" % elf.machine)
    arch = arch_of(elf.flags, elf.abiversion)
    secs = {s.name: s for s in elf.sections}
    # .nv.info: per-function REGCOUNT / FRAME_SIZE / MIN_STACK_SIZE, keyed by symbol index
    per_fn = {}
    if ".nv.info" in secs:
        for attr, fmt, value in nvinfo.parse(secs[".nv.info"].data, where + ": .nv.info"):
            if fmt == nvinfo.EIFMT_SVAL and len(value) == 8:
                sym, v = struct.unpack("<II", value)
                per_fn.setdefault(sym, {})[attr] = v
    kernels = {}
    for sym in elf.symbols:
        if sym.type != STT_FUNC or sym.bind != STB_GLOBAL or not sym.other & STO_CUDA_ENTRY:
            continue
        if sym.shndx >= len(elf.sections):
            raise MalformedInput(where, None, "kernel %s lives in section %d of %d" % (sym.name, sym.shndx,
                                                                                   len(elf.sections)))
        kernels[sym.name] = _kernel(elf, secs, sym, per_fn.get(sym.index, {}), arch, where)
    const_banks, globals_ = {}, {}
    for s in elf.sections:
        if s.name.startswith(".nv.constant") and s.name.count(".") == 2:
            const_banks[int(s.name[len(".nv.constant"):])] = s.data
    for sym in elf.symbols:
        if sym.type == STT_OBJECT and 0 < sym.shndx < len(elf.sections):
            globals_[sym.name] = (elf.sections[sym.shndx].name, sym.value, sym.size)
    return Cubin(arch, elf.flags, elf.abiversion, kernels, const_banks, globals_, elf.relocations, elf)


def _kernel(elf, secs, sym, fn_attrs, arch, where):
    text = elf.sections[sym.shndx]
    name = sym.name
    if text.name != ".text." + name:
        raise MalformedInput(where, None, "kernel %s is in section %s, not .text.%s" % (name, text.name, name))
    info_name = ".nv.info." + name
    attrs = nvinfo.parse(secs[info_name].data, where + ": " + info_name) if info_name in secs else []
    k = Kernel(name=name, code=text.data, code_size=sym.size or len(text.data), text_section=text.name,
               regs=fn_attrs.get(nvinfo.EIATTR_REGCOUNT, text.info >> 24), params=[], param_base=0,
               param_size=0, cbank0_size=0)
    k.attributes = [(nvinfo.name(a), f, v) for a, f, v in attrs]
    k.local_size = fn_attrs.get(nvinfo.EIATTR_FRAME_SIZE, 0)
    k.min_stack = fn_attrs.get(nvinfo.EIATTR_MIN_STACK_SIZE, 0)
    for attr, fmt, value in attrs:
        if attr == nvinfo.EIATTR_KPARAM_INFO:
            if len(value) != 12:
                raise MalformedInput(where, None, "%s: KPARAM_INFO of %d bytes (12 expected)" % (info_name, len(value)))
            p = nvinfo.parse_kparam(value)
            k.params.append(Param(p["ordinal"], p["offset"], p["size"], p["cbank"]))
        elif attr == nvinfo.EIATTR_PARAM_CBANK:
            _sym, packed = struct.unpack("<II", value)
            k.param_base, k.param_size = packed & 0xFFFF, packed >> 16
        elif attr == nvinfo.EIATTR_CBANK_PARAM_SIZE and not k.param_size:
            k.param_size = value
        elif attr == nvinfo.EIATTR_NUM_BARRIERS:
            k.barriers = value
        elif attr == nvinfo.EIATTR_EXIT_INSTR_OFFSETS:
            k.exit_offsets = nvinfo.words(value)
        elif attr == nvinfo.EIATTR_CRS_STACK_SIZE:
            k.crs_stack = nvinfo.words(value)[0]
        elif attr == nvinfo.EIATTR_MAX_THREADS:
            k.max_threads = tuple(nvinfo.words(value))
        elif attr == nvinfo.EIATTR_REQNTID:
            k.reqntid = tuple(nvinfo.words(value))
        elif attr == nvinfo.EIATTR_CTA_PER_CLUSTER:
            k.cluster_dims = tuple(nvinfo.words(value))
    k.params.sort(key=lambda p: p.ordinal)
    end = 0
    for p in k.params:
        if p.offset + p.size > k.param_size:
            raise MalformedInput(where, None, "%s: parameter %d (offset 0x%x, %d bytes) is past the %d-byte "
                                 "parameter area" % (info_name, p.ordinal, p.offset, p.size, k.param_size))
        end = max(end, p.offset + p.size)
    c0 = secs.get(".nv.constant0." + name)
    k.cbank0_size = c0.sh_size if c0 is not None else k.param_base + k.param_size
    if k.params and k.cbank0_size < k.param_base + k.param_size:
        raise MalformedInput(where, None, ".nv.constant0.%s is %d bytes, the parameters end at 0x%x"
                             % (name, k.cbank0_size, k.param_base + k.param_size))
    sh = secs.get(".nv.shared." + name)
    if sh is not None:
        if sh.type != SHT_NOBITS:
            raise MalformedInput(where, None, ".nv.shared.%s is not NOBITS" % name)
        k.shared_size = sh.sh_size
        k.shared_reserved = SM_RESERVED_SHARED.get(arch, 0) if ".nv.shared.reserved.0" in secs else 0
    for s in elf.sections:
        if s.name.startswith(".nv.constant") and s.name.endswith("." + name) and not s.name.startswith(".nv.constant0."):
            bank = s.name[len(".nv.constant"):].split(".", 1)[0]
            if bank.isdigit():
                k.const_banks[int(bank)] = s.data
    k.relocations = [r for r in elf.relocations if r.section == text.name]
    for s in elf.symbols:
        if s.type == STT_FUNC and s.shndx == text.index and s.name != name:
            k.functions[s.name] = (s.value, s.size)
    return k
