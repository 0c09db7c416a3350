"""What the launcher needs from a cubin, read by the project's cubin reader (assembler.cubin) and
laid out for placement in GPU memory: the sections to place (each kernel's .text, .nv.global[.init],
constant banks N > 0), the kernels (code offset and size, registers, parameters, shared and local
memory, barriers, launch bounds) and the relocations against placed sections (R_CUDA_64 and
R_CUDA_32 into data, R_CUDA_ABS32_LO_32 / _HI_32 into an instruction's immediate).

assembler.cubin reads the ELF and its .nv.info attributes; this adapter adds what only a loader needs
(section indices to place, relocation targets resolved to sections) and refuses what the loader cannot
apply.  Anything malformed is a MalformedInput naming the file and what is wrong.
"""
from dataclasses import dataclass, field

from drivers.errors import MalformedInput

SHT_NOBITS = 8
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
    local_bytes: int = 0       # per-thread stack (EIATTR_MIN_STACK_SIZE, else the frame)
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


def _placed(name):
    return name.startswith(".text.") or name.startswith(".nv.global") or \
        (name.startswith(".nv.constant") and not name.startswith(".nv.constant0"))


def _threads(dims):
    if not dims:
        return 1024
    n = 1
    for d in dims:
        n *= d
    return n


def read_cubin(data, source="<cubin>"):
    from assembler.cubin import read_cubin as read
    cubin = read(bytes(data), source)
    elf = cubin.elf
    sm = int(cubin.arch[len("sm_"):])
    sections, const_banks = {}, {}
    for s in elf.sections:
        if not _placed(s.name):
            continue
        sections[s.index] = Section(s.name, s.index, bytes(s.sh_size) if s.type == SHT_NOBITS else s.data,
                                    max(1, s.align), True)
        if s.name.startswith(".nv.constant"):
            digits = s.name[len(".nv.constant"):].split(".")[0]
            if not digits.isdigit():
                _fail(source, f"section {s.name}: no bank number")
            const_banks[s.index] = int(digits)
    index_of = {s.name: s.index for s in elf.sections}
    kernels = {}
    for name, k in cubin.kernels.items():
        entry = next((sym for sym in elf.symbols if sym.name == name), None)
        info = KernelInfo(name, k.text_section, entry.value if entry else 0, k.code_size, k.regs,
                          barriers=k.barriers, shared_bytes=k.shared_size,
                          local_bytes=max(k.min_stack, k.local_size), param_base=k.param_base,
                          param_size=k.param_size, params=[Param(p.ordinal, p.offset, p.size) for p in k.params],
                          max_threads=min(_threads(k.max_threads), _threads(k.reqntid)),
                          exits=tuple(k.exit_offsets))
        if info.registers == 0:
            _fail(source, f"kernel {name}: no EIATTR_REGCOUNT")
        kernels[name] = info
    if not kernels:
        _fail(source, "no kernels (no global function with STO_CUDA_ENTRY in a .text.<name> section)")
    relocations = []
    for r in elf.relocations:
        patched = index_of.get(r.section)
        if patched not in sections:
            continue
        sym = elf.symbols[r.symbol_index]
        if r.type not in RELOCATIONS:
            _fail(source, f"relocation of {r.section} at +0x{r.offset:x}: type 0x{r.type:x} against {sym.name} is "
                          f"not one the loader applies ({', '.join(RELOCATIONS.values())})")
        if sym.shndx not in sections:
            _fail(source, f"relocation of {r.section} at +0x{r.offset:x}: against "
                          f"{sym.name or 'section ' + str(sym.shndx)}, which is not placed in GPU memory")
        relocations.append(Relocation(patched, r.offset, r.type, sym.name, sym.shndx, sym.value, r.addend))
    return Cubin(sm, kernels, sections, relocations, const_banks)
