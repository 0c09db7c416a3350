"""Just enough ELF64 (little-endian) to read and write cubins: sections, symbols, relocations.

Reading checks every offset against the file and raises MalformedInput naming the problem;
writing lays sections out in order, each at its alignment, then the section headers.
"""
import struct
from dataclasses import dataclass, field

from assembler.errors import MalformedInput

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
PHDR = struct.Struct("<IIQQQQQQ")
SHDR = struct.Struct("<IIQQQQIIQQ")
SYM = struct.Struct("<IBBHQQ")
REL = struct.Struct("<QQ")
RELA = struct.Struct("<QQq")

EM_CUDA = 190
ET_EXEC, ET_REL = 2, 1
SHT_NULL, SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_NOTE, SHT_NOBITS, SHT_REL = 0, 1, 2, 3, 4, 7, 8, 9
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR, SHF_INFO_LINK = 1, 2, 4, 0x40
PT_LOAD, PT_PHDR = 1, 6
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_SECTION = 0, 1, 2, 3


@dataclass
class Section:
    name: str
    type: int
    flags: int = 0
    data: bytes = b""
    size: int = None           # NOBITS size (data empty); None: len(data)
    link: int = 0
    info: int = 0
    align: int = 1
    entsize: int = 0
    offset: int = 0            # file offset (set when read or written)
    index: int = 0

    @property
    def sh_size(self):
        return self.size if self.size is not None else len(self.data)


@dataclass
class Symbol:
    name: str
    value: int = 0
    size: int = 0
    bind: int = STB_LOCAL
    type: int = STT_NOTYPE
    other: int = 0
    shndx: int = 0
    index: int = 0


@dataclass
class Relocation:
    section: str               # the section patched
    offset: int
    type: int
    symbol: str
    addend: int = 0
    symbol_index: int = 0


@dataclass
class Elf:
    osabi: int = 0
    abiversion: int = 0
    type: int = ET_EXEC
    machine: int = EM_CUDA
    flags: int = 0
    entry: int = 0
    sections: list = field(default_factory=list)     # index 0 is the null section
    symbols: list = field(default_factory=list)
    relocations: list = field(default_factory=list)
    phdrs: list = field(default_factory=list)

    def section(self, name):
        for s in self.sections:
            if s.name == name:
                return s
        return None


def _cstr(table, off, where):
    if off >= len(table):
        raise MalformedInput(where, None, "string offset 0x%x is past the string table" % off)
    end = table.find(b"\0", off)
    return table[off:end if end >= 0 else len(table)].decode("utf-8", "replace")


def read(data, where="cubin"):
    """Parse an ELF64 LE image into an Elf (sections with data, symbols, relocations)."""
    if len(data) < EHDR.size or data[:4] != b"\x7fELF":
        raise MalformedInput(where, None, "not an ELF file")
    if data[4] != 2 or data[5] != 1:
        raise MalformedInput(where, None, "not a 64-bit little-endian ELF file (class %d, data %d)"
                             % (data[4], data[5]))
    (ident, etype, machine, _ver, entry, phoff, shoff, flags, _ehsize, phentsize, phnum,
     shentsize, shnum, shstrndx) = EHDR.unpack_from(data, 0)
    elf = Elf(osabi=ident[7], abiversion=ident[8], type=etype, machine=machine, flags=flags, entry=entry)
    if shentsize != SHDR.size or shoff + shnum * SHDR.size > len(data):
        raise MalformedInput(where, None, "section headers (offset 0x%x, %d of %d bytes) do not fit the "
                             "%d-byte file" % (shoff, shnum, shentsize, len(data)))
    raw = [SHDR.unpack_from(data, shoff + i * SHDR.size) for i in range(shnum)]
    if shstrndx >= shnum:
        raise MalformedInput(where, None, "e_shstrndx %d is not a section" % shstrndx)

    def body(h, i):
        name_off, stype, sflags, _addr, off, size = h[:6]
        if stype == SHT_NOBITS:
            return b""
        if off + size > len(data):
            raise MalformedInput(where, None, "section %d (offset 0x%x, size 0x%x) runs past the end of "
                                 "the file" % (i, off, size))
        return data[off:off + size]
    shstr = body(raw[shstrndx], shstrndx)
    for i, h in enumerate(raw):
        name_off, stype, sflags, _addr, off, size, link, info, align, entsize = h
        elf.sections.append(Section(_cstr(shstr, name_off, where) if i else "", stype, sflags, body(h, i),
                                    size if stype == SHT_NOBITS else None, link, info, align, entsize,
                                    off, i))
    for i in range(phnum):
        if phoff + (i + 1) * PHDR.size <= len(data) and phentsize == PHDR.size:
            elf.phdrs.append(PHDR.unpack_from(data, phoff + i * PHDR.size))
    symtab = next((s for s in elf.sections if s.type == SHT_SYMTAB), None)
    if symtab is not None:
        if symtab.link >= len(elf.sections):
            raise MalformedInput(where, None, ".symtab links to section %d, which does not exist" % symtab.link)
        strtab = elf.sections[symtab.link].data
        for k in range(len(symtab.data) // SYM.size):
            name, info, other, shndx, value, size = SYM.unpack_from(symtab.data, k * SYM.size)
            elf.symbols.append(Symbol(_cstr(strtab, name, where), value, size, info >> 4, info & 15, other,
                                      shndx, k))
    for s in elf.sections:
        if s.type in (SHT_REL, SHT_RELA):
            st = REL if s.type == SHT_REL else RELA
            if s.info >= len(elf.sections):
                raise MalformedInput(where, None, "%s patches section %d, which does not exist" % (s.name, s.info))
            target = elf.sections[s.info].name
            for k in range(len(s.data) // st.size):
                ent = st.unpack_from(s.data, k * st.size)
                sym = ent[1] >> 32
                if sym >= len(elf.symbols):
                    raise MalformedInput(where, None, "%s entry %d names symbol %d of %d" % (s.name, k, sym,
                                                                                          len(elf.symbols)))
                elf.relocations.append(Relocation(target, ent[0], ent[1] & 0xffffffff, elf.symbols[sym].name,
                                                  ent[2] if s.type == SHT_RELA else 0, sym))
    return elf


def _align(v, a):
    return (v + a - 1) // a * a if a > 1 else v


def write(elf):
    """Serialize: ELF header, program headers, sections in order, section header table.
    `elf.sections[0]` must be the null section; .shstrtab is rebuilt from the names."""
    names = b"\0"
    name_off = {}
    for s in elf.sections[1:]:
        if s.name not in name_off:
            name_off[s.name] = len(names)
            names += s.name.encode() + b"\0"
    shstr = next(s for s in elf.sections if s.name == ".shstrtab")
    shstr.data = names
    out = bytearray(EHDR.size + PHDR.size * len(elf.phdrs))
    for i, s in enumerate(elf.sections):
        s.index = i
        if i == 0:
            continue
        if s.type == SHT_NOBITS:
            s.offset = _align(len(out), s.align)
            continue
        pad = _align(len(out), s.align) - len(out)
        out += b"\0" * pad
        s.offset = len(out)
        out += s.data
    shoff = _align(len(out), 8)
    out += b"\0" * (shoff - len(out))
    for i, s in enumerate(elf.sections):
        if i == 0:
            out += b"\0" * SHDR.size
            continue
        out += SHDR.pack(name_off[s.name], s.type, s.flags, 0, s.offset, s.sh_size, s.link, s.info, s.align,
                         s.entsize)
    ident = b"\x7fELF" + bytes([2, 1, 1, elf.osabi, elf.abiversion]) + b"\0" * 7
    shstrndx = elf.sections.index(shstr)
    EHDR.pack_into(out, 0, ident, elf.type, elf.machine, 1, elf.entry, EHDR.size if elf.phdrs else 0, shoff,
                   elf.flags, EHDR.size, PHDR.size, len(elf.phdrs), SHDR.size, len(elf.sections), shstrndx)
    for i, ph in enumerate(elf.phdrs):
        PHDR.pack_into(out, EHDR.size + i * PHDR.size, *ph(elf) if callable(ph) else ph)
    return bytes(out)


def symtab_bytes(symbols, strtab_names):
    """(.symtab bytes, .strtab bytes) for symbols (index 0 must be the null symbol)."""
    strtab = b"\0"
    offs = {"": 0}
    for n in strtab_names:
        if n not in offs:
            offs[n] = len(strtab)
            strtab += n.encode() + b"\0"
    data = b""
    for s in symbols:
        if s.name not in offs:
            offs[s.name] = len(strtab)
            strtab += s.name.encode() + b"\0"
        data += SYM.pack(offs[s.name], s.bind << 4 | s.type, s.other, s.shndx, s.value, s.size)
    return data, strtab
