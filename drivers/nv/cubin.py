"""What a launcher needs from a cubin (ptxas's ELF or ours): kernels, their code, registers, parameters,
shared/local memory, barriers, constant banks, global data and relocations.

Layout (observed in ptxas 13 output, see the NVIDIA notes of the project): EM_CUDA (190), the SM in
e_flags bits 8..15 (ABI V2, OSABI 0x41) or the low byte (older ABI); a kernel is a global STT_FUNC with
a `.text.<name>` section and a `.nv.info.<name>` attribute section (EIATTR_PARAM_CBANK,
EIATTR_KPARAM_INFO, EIATTR_NUM_BARRIERS, EIATTR_MAX_THREADS/REQNTID...); `.nv.info` holds per-function
EIATTR_REGCOUNT, EIATTR_FRAME_SIZE and EIATTR_MIN_STACK_SIZE keyed by symbol index.  `.nv.shared.<name>`
is static shared memory (on sm_90 it includes the 1 KiB reserved window), `.nv.constantN[.<name>]` a
constant bank N > 0 to upload, `.nv.global[.init]` device globals, `.rel[a].*` relocations against
symbols (R_CUDA_64 and R_CUDA_32 into data, R_CUDA_ABS32_LO_32 / _HI_32 into an instruction's
immediate).  Anything malformed is a MalformedInput naming the file and what is wrong.
"""
import io
import struct
from dataclasses import dataclass, field

from drivers.errors import MalformedInput

EM_CUDA = 190
SHT_CUDA_INFO = 0x70000000
EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL, EIFMT_SVAL = 1, 2, 3, 4
EIATTR_CTAIDZ_USED, EIATTR_MAX_THREADS, EIATTR_PARAM_CBANK = 0x04, 0x05, 0x0A
EIATTR_FRAME_SIZE, EIATTR_MIN_STACK_SIZE, EIATTR_REQNTID = 0x11, 0x12, 0x10
EIATTR_KPARAM_INFO, EIATTR_CBANK_PARAM_SIZE, EIATTR_MAXREG_COUNT = 0x17, 0x19, 0x1B
EIATTR_EXIT_INSTR_OFFSETS, EIATTR_CRS_STACK_SIZE, EIATTR_REGCOUNT = 0x1C, 0x1E, 0x2F
EIATTR_NUM_BARRIERS = 0x4C
R_CUDA_32, R_CUDA_64 = 1, 2
R_CUDA_ABS32_LO_32, R_CUDA_ABS32_HI_32 = 0x38, 0x39
RELOCATIONS = {R_CUDA_32: "R_CUDA_32", R_CUDA_64: "R_CUDA_64", R_CUDA_ABS32_LO_32: "R_CUDA_ABS32_LO_32",
               R_CUDA_ABS32_HI_32: "R_CUDA_ABS32_HI_32"}


@dataclass
class Param:
    ordinal: int
    offset: int                # from the start of the parameter block
    size: int


@dataclass
class KernelInfo:
    name: str
    section: str               # .text.<name>
    offset: int                # of the entry in its section
    code_size: int
    registers: int
    barriers: int = 0
    shared_bytes: int = 0
    local_bytes: int = 0       # per-thread stack (EIATTR_MIN_STACK_SIZE)
    param_base: int = 0        # in constant bank 0
    param_size: int = 0
    params: list = field(default_factory=list)
    max_threads: int = 1024
    exits: tuple = ()


@dataclass
class Section:
    name: str
    index: int
    data: bytes                # zeros for NOBITS
    align: int
    alloc: bool


@dataclass
class Relocation:
    section: int               # the section patched
    offset: int
    kind: int
    symbol: str
    symbol_section: int
    symbol_value: int
    addend: int


@dataclass
class Cubin:
    sm: int                    # 86, 89, 90
    kernels: dict              # name -> KernelInfo
    sections: dict             # index -> Section (code, data and constant banks to place)
    relocations: list
    const_banks: dict          # index of a .nv.constantN section -> N

    def text(self, kernel):
        return next(s for s in self.sections.values() if s.name == self.kernels[kernel].section)


def _fail(source, message):
    raise MalformedInput(source, 0, message)


def _attributes(data, source, where):
    """[(attr, fmt, value-or-bytes)] of an .nv.info section."""
    out, i = [], 0
    while i < len(data):
        if i + 4 > len(data):
            _fail(source, f"{where}: truncated attribute at +{i}")
        fmt, attr, v = data[i], data[i + 1], struct.unpack_from("<H", data, i + 2)[0]
        if fmt == EIFMT_SVAL:
            if i + 4 + v > len(data):
                _fail(source, f"{where}: attribute 0x{attr:x} of {v} bytes runs past the section")
            out.append((attr, fmt, data[i + 4:i + 4 + v]))
            i += 4 + v
        elif fmt in (EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL):
            out.append((attr, fmt, v))
            i += 4
        else:
            _fail(source, f"{where}: attribute 0x{attr:x} has format {fmt} (1 to 4)")
    return out


def read_cubin(data, source="<cubin>"):
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    try:
        elf = ELFFile(io.BytesIO(bytes(data)))
        machine, flags = elf.header.e_machine, elf.header.e_flags
    except (ELFError, struct.error, ValueError) as e:
        _fail(source, f"not an ELF file: {e}")
    if machine not in ("EM_CUDA", EM_CUDA):
        _fail(source, f"e_machine is {machine}, not EM_CUDA (190): not a cubin")
    # ABI V2 (ptxas 13) puts the SM in bits 8..15, the older ABI in the low byte
    sm = (flags >> 8) & 0xFF if 30 <= (flags >> 8) & 0xFF < 200 else flags & 0xFF
    symtab = elf.get_section_by_name(".symtab")
    if symtab is None:
        _fail(source, "no .symtab")
    symbols = list(symtab.iter_symbols())
    sections, const_banks = {}, {}
    for i, s in enumerate(elf.iter_sections()):
        name = s.name
        if name.startswith(".text.") or name.startswith(".nv.global") or \
                (name.startswith(".nv.constant") and not name.startswith(".nv.constant0")):
            nobits = s["sh_type"] == "SHT_NOBITS"
            sections[i] = Section(name, i, bytes(s["sh_size"]) if nobits else s.data(), max(1, s["sh_addralign"]),
                                  True)
            if name.startswith(".nv.constant"):
                digits = name[len(".nv.constant"):].split(".")[0]
                if not digits.isdigit():
                    _fail(source, f"section {name}: no bank number")
                const_banks[i] = int(digits)
    regcount, frame, stack = {}, {}, {}
    info = elf.get_section_by_name(".nv.info")
    if info is not None:
        for attr, fmt, v in _attributes(info.data(), source, ".nv.info"):
            if fmt == EIFMT_SVAL and len(v) == 8:
                sym, value = struct.unpack("<II", v)
                {EIATTR_REGCOUNT: regcount, EIATTR_FRAME_SIZE: frame, EIATTR_MIN_STACK_SIZE: stack}.get(
                    attr, {})[sym] = value
    kernels = {}
    for index, sym in enumerate(symbols):
        if sym["st_info"]["type"] != "STT_FUNC" or sym["st_info"]["bind"] != "STB_GLOBAL":
            continue
        name = sym.name
        text = elf.get_section(sym["st_shndx"]) if isinstance(sym["st_shndx"], int) else None
        kinfo = elf.get_section_by_name(f".nv.info.{name}")
        if text is None or kinfo is None:
            continue                            # a device function, not a kernel
        k = KernelInfo(name, text.name, sym["st_value"], sym["st_size"] or text["sh_size"],
                       regcount.get(index, text["sh_info"] >> 24))
        k.local_bytes = stack.get(index, frame.get(index, 0))
        shared = elf.get_section_by_name(f".nv.shared.{name}")
        k.shared_bytes = shared["sh_size"] if shared is not None else 0
        for attr, fmt, v in _attributes(kinfo.data(), source, kinfo.name):
            if attr == EIATTR_PARAM_CBANK and fmt == EIFMT_SVAL:
                _, k.param_base, k.param_size = struct.unpack("<IHH", v)
            elif attr == EIATTR_CBANK_PARAM_SIZE:
                k.param_size = max(k.param_size, v if fmt == EIFMT_HVAL else 0)
            elif attr == EIATTR_KPARAM_INFO and fmt == EIFMT_SVAL:
                _, ordinal, offset, bits = struct.unpack("<IHHI", v)
                k.params.append(Param(ordinal, offset, bits >> 18))
            elif attr == EIATTR_NUM_BARRIERS:
                k.barriers = v if fmt != EIFMT_SVAL else struct.unpack("<I", v[-4:])[0]
            elif attr == EIATTR_MAX_THREADS and fmt == EIFMT_SVAL:
                x, y, z = struct.unpack("<III", v[:12])
                k.max_threads = min(k.max_threads, x * y * z)
            elif attr == EIATTR_REQNTID and fmt == EIFMT_SVAL:
                x, y, z = struct.unpack("<III", v[:12])
                k.max_threads = min(k.max_threads, x * y * z)
            elif attr == EIATTR_EXIT_INSTR_OFFSETS and fmt == EIFMT_SVAL:
                k.exits = struct.unpack(f"<{len(v) // 4}I", v)
        k.params.sort(key=lambda p: p.ordinal)
        if k.registers == 0:
            _fail(source, f"kernel {name}: no EIATTR_REGCOUNT")
        kernels[name] = k
    if not kernels:
        _fail(source, "no kernels (no global function with a .nv.info.<name> section)")
    relocations = []
    for s in elf.iter_sections():
        if s["sh_type"] not in ("SHT_REL", "SHT_RELA") or s["sh_info"] not in sections:
            continue
        for r in s.iter_relocations():
            sym = symbols[r["r_info_sym"]]
            kind = r["r_info_type"]
            if kind not in RELOCATIONS:
                _fail(source, f"{s.name}: relocation type 0x{kind:x} against {sym.name} is not one the loader "
                              f"applies ({', '.join(RELOCATIONS.values())})")
            shndx = sym["st_shndx"]
            if not isinstance(shndx, int) or shndx not in sections:
                _fail(source, f"{s.name}: relocation against {sym.name or 'section ' + str(shndx)}, which is not "
                              "placed in GPU memory")
            relocations.append(Relocation(s["sh_info"], r["r_offset"], kind, sym.name, shndx, sym["st_value"],
                                          r.entry.get("r_addend", 0)))
    return Cubin(sm, kernels, sections, relocations, const_banks)
