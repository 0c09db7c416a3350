"""Read AMDHSA code objects (ours, or clang-19 + ld.lld-19 output) for a loader.

`load_code_object(data)` checks the ELF header (ELF64 LE, EM_AMDGPU, EI_OSABI 64, ABI version
1..4 = code object v3..v6, ET_DYN, a known EF_AMDGPU_MACH), builds the loadable image (every
PT_LOAD copied to its p_vaddr, so descriptor <-> code offsets hold), finds each kernel's
descriptor through its `NAME.kd` symbol, decodes it, locates the entry point, and parses the
NT_AMDGPU_METADATA note into argument lists (including code object v5 hidden arguments); the
note's amdhsa.version and amdhsa.target must agree with EI_ABIVERSION and e_flags. Symbols come
from .symtab, or from .dynsym in a stripped object.
Dynamic relocations R_AMDGPU_RELATIVE64 and R_AMDGPU_ABS64 are applied by
`CodeObject.relocated_image(base)`; any other relocation type is rejected when loading.
Every problem raises MalformedInput naming the source and what is wrong.
"""
import io
import struct
from dataclasses import dataclass, field

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from assembler.errors import MalformedInput

from .elf_writer import (CODE_ALIGN, ELFOSABI_AMDGPU_HSA, EM_AMDGPU, ET_DYN, NT_AMDGPU_METADATA,
                         PF_X, PT_LOAD)
from .kernel_descriptor import KD_ALIGN, KD_SIZE, KernelDescriptor
from .metadata import parse_metadata_document
from .msgpack import unpackb
from .targets import Target, parse_target, target_from_e_flags

R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64 = 3, 13
_RELOC_NAMES = {0: "R_AMDGPU_NONE", 1: "R_AMDGPU_ABS32_LO", 2: "R_AMDGPU_ABS32_HI", 3: "R_AMDGPU_ABS64",
                4: "R_AMDGPU_REL32", 5: "R_AMDGPU_REL64", 6: "R_AMDGPU_ABS32", 7: "R_AMDGPU_GOTPCREL",
                8: "R_AMDGPU_GOTPCREL32_LO", 9: "R_AMDGPU_GOTPCREL32_HI", 10: "R_AMDGPU_REL32_LO",
                11: "R_AMDGPU_REL32_HI", 13: "R_AMDGPU_RELATIVE64", 14: "R_AMDGPU_REL16"}
_ABI_VERSIONS = {1: 3, 2: 4, 3: 5, 4: 6}           # EI_ABIVERSION -> code object version
_ET_NAMES = {0: "ET_NONE", 1: "ET_REL", 2: "ET_EXEC", 3: "ET_DYN", 4: "ET_CORE"}
_MAX_IMAGE = 1 << 30
_SHT_NOBITS, _SHT_RELA, _SHT_REL, _SHT_NOTE = 8, 4, 9, 7
_STT_FUNC, _STT_OBJECT = 2, 1


@dataclass
class KernelInfo:
    name: str
    descriptor: KernelDescriptor
    kd_offset: int             # image offset (p_vaddr) of the 64-byte descriptor
    entry_offset: int          # image offset of the first instruction
    code_size: int = None      # st_size of the kernel's function symbol, when present
    metadata: object = None    # KernelMetadata from the note, when present


@dataclass
class Relocation:
    offset: int
    type: int
    addend: int
    symbol: str = ""
    symbol_value: int = None   # None for an undefined symbol

    @property
    def type_name(self):
        return _RELOC_NAMES.get(self.type, f"type {self.type}")


@dataclass
class CodeObject:
    target: object                       # targets.Target
    e_flags: int
    code_object_version: int
    image: bytes                         # offset i holds p_vaddr i of the PT_LOAD segments
    segments: list                       # (p_vaddr, p_memsz, p_flags) of each PT_LOAD
    kernels: dict                        # name -> KernelInfo, in metadata/symbol order
    metadata: dict = None                # the decoded note document
    relocations: list = field(default_factory=list)

    def kernel(self, name):
        if name not in self.kernels:
            raise KeyError(f"no kernel {name!r} in the code object (has: {', '.join(self.kernels)})")
        return self.kernels[name]

    def relocated_image(self, base):
        """The image as it must look when loaded at GPU virtual address `base`."""
        image = bytearray(self.image)
        for r in self.relocations:
            if r.type == R_AMDGPU_RELATIVE64:
                value = base + r.addend
            else:
                value = base + r.symbol_value + r.addend
            image[r.offset:r.offset + 8] = struct.pack("<Q", value & 0xFFFFFFFFFFFFFFFF)
        return bytes(image)


def load_code_object(data, source="<code object>", expected_target=None):
    """Parse and check a code object (bytes); `expected_target` (a processor such as 'gfx1100',
    a target id, or a Target) must name the same processor."""
    data = bytes(data)
    _check_ident(data, source)
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    e_flags = struct.unpack_from("<I", data, 48)[0]
    if e_machine != EM_AMDGPU:
        raise MalformedInput(source, None, f"wrong machine: e_machine {e_machine}, expected "
                                           f"{EM_AMDGPU} (EM_AMDGPU)")
    osabi, abi_version = data[7], data[8]
    if osabi != ELFOSABI_AMDGPU_HSA:
        raise MalformedInput(source, None, f"EI_OSABI {osabi}, expected {ELFOSABI_AMDGPU_HSA} "
                                           f"(ELFOSABI_AMDGPU_HSA)")
    if abi_version not in _ABI_VERSIONS:
        raise MalformedInput(source, None, f"EI_ABIVERSION {abi_version} is not a supported code object "
                                           f"version (1..4 = v3..v6)")
    if e_type != ET_DYN:
        hint = ": link it with ld.lld -shared first" if e_type == 1 else ""
        raise MalformedInput(source, None, f"e_type {_ET_NAMES.get(e_type, e_type)}, expected ET_DYN{hint}")
    try:
        target = target_from_e_flags(e_flags)
    except ValueError as err:
        raise MalformedInput(source, None, str(err)) from None
    if expected_target is not None:
        wanted = expected_target if isinstance(expected_target, Target) else parse_target(str(expected_target))
        if target.processor != wanted.processor:
            raise MalformedInput(source, None, f"code object is for {target.processor}, expected "
                                               f"{wanted.processor}")
    _check_tables(data, source)
    try:                                   # pyelftools checks section links and sizes lazily
        elf = ELFFile(io.BytesIO(data))
        segments = [s.header for s in elf.iter_segments() if s["p_type"] == "PT_LOAD"]
        sections = list(elf.iter_sections())
        image, seg_list = _build_image(data, segments, source)
        symbols = _symbols(sections, source)
        metadata = _metadata(data, sections, source)
        relocations = _relocations(elf, sections, image, source)
    except (ELFError, struct.error, ValueError) as err:
        raise MalformedInput(source, None, f"bad ELF structure: {err}") from None
    kernels = _kernels(image, seg_list, symbols, metadata, target, _ABI_VERSIONS[abi_version], source)
    return CodeObject(target, e_flags, _ABI_VERSIONS[abi_version], bytes(image), seg_list, kernels,
                      metadata, relocations)


def _check_ident(data, source):
    if len(data) < 4 or data[:4] != b"\x7fELF":
        raise MalformedInput(source, None, f"not an ELF file (starts with {data[:4]!r})")
    if len(data) < 64:
        raise MalformedInput(source, None, f"truncated: the ELF64 header needs 64 bytes, file has {len(data)}")
    if data[4] != 2:
        raise MalformedInput(source, None, f"EI_CLASS {data[4]}, expected 2 (ELFCLASS64)")
    if data[5] != 1:
        raise MalformedInput(source, None, f"EI_DATA {data[5]}, expected 1 (little-endian)")


def _check_tables(data, source):
    phoff, shoff = struct.unpack_from("<QQ", data, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 54)
    for what, off, size, num in (("program header table", phoff, phentsize, phnum),
                                 ("section header table", shoff, shentsize, shnum)):
        if num and off + size * num > len(data):
            raise MalformedInput(source, None, f"truncated: the {what} ends at byte {off + size * num}, "
                                               f"the file has {len(data)}")
    if not phnum:
        raise MalformedInput(source, None, "no program headers: nothing to load")
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
        if p_type == PT_LOAD and p_offset + p_filesz > len(data):
            raise MalformedInput(source, None, f"truncated: PT_LOAD segment {i} needs bytes up to "
                                               f"{p_offset + p_filesz}, the file has {len(data)}")
    for i in range(shnum):
        sh = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        if sh[1] != _SHT_NOBITS and sh[1] != 0 and sh[4] + sh[5] > len(data):
            raise MalformedInput(source, None, f"truncated: section {i} needs bytes up to "
                                               f"{sh[4] + sh[5]}, the file has {len(data)}")


def _build_image(data, segments, source):
    if not segments:
        raise MalformedInput(source, None, "no PT_LOAD segment")
    end = max(s["p_vaddr"] + s["p_memsz"] for s in segments)
    if end > _MAX_IMAGE:
        raise MalformedInput(source, None, f"PT_LOAD segments span {end} bytes (more than 1 GiB)")
    image = bytearray(end)
    seg_list = []
    for s in segments:
        if s["p_filesz"] > s["p_memsz"]:
            raise MalformedInput(source, None, f"PT_LOAD at 0x{s['p_vaddr']:x}: p_filesz > p_memsz")
        image[s["p_vaddr"]:s["p_vaddr"] + s["p_filesz"]] = data[s["p_offset"]:s["p_offset"] + s["p_filesz"]]
        seg_list.append((s["p_vaddr"], s["p_memsz"], s["p_flags"]))
    return image, seg_list


def _symbols(sections, source):
    """{name: (value, size, type)} from .symtab, else .dynsym."""
    tables = [s for s in sections if s["sh_type"] == "SHT_SYMTAB"] or \
             [s for s in sections if s["sh_type"] == "SHT_DYNSYM"]
    result = {}
    for table in tables:
        strsize = table.stringtable["sh_size"]
        for index in range(table.num_symbols()):
            sym = table.get_symbol(index)
            if sym["st_name"] >= max(strsize, 1):
                raise MalformedInput(source, None, f"{table.name}: symbol {index} has name offset "
                                                   f"{sym['st_name']}, past the {strsize}-byte string table")
            if sym.name and sym["st_shndx"] != "SHN_UNDEF":
                stype = {"STT_FUNC": _STT_FUNC, "STT_OBJECT": _STT_OBJECT}.get(sym["st_info"]["type"], 0)
                result.setdefault(sym.name, (sym["st_value"], sym["st_size"], stype))
    return result


def iter_notes(blob, source, where):
    """(owner, type, desc) of each ELF note in `blob`."""
    pos = 0
    while pos + 12 <= len(blob):
        namesz, descsz, ntype = struct.unpack_from("<III", blob, pos)
        name_end = pos + 12 + namesz
        desc_start = pos + 12 + (namesz + 3) // 4 * 4
        desc_end = desc_start + descsz
        if desc_end > len(blob) or name_end > len(blob):
            raise MalformedInput(source, None, f"{where}: note at offset {pos} runs past the end "
                                               f"({desc_end} > {len(blob)})")
        yield blob[pos + 12:name_end].rstrip(b"\0"), ntype, blob[desc_start:desc_end]
        pos = desc_start + (descsz + 3) // 4 * 4
    if pos != len(blob) and any(blob[pos:]):
        raise MalformedInput(source, None, f"{where}: {len(blob) - pos} stray bytes after the last note")


def _metadata(data, sections, source):
    for sec in sections:
        if sec["sh_type"] != "SHT_NOTE":
            continue
        blob = data[sec["sh_offset"]:sec["sh_offset"] + sec["sh_size"]]
        for owner, ntype, desc in list(iter_notes(blob, source, f"section {sec.name}")):
            if owner == b"AMDGPU" and ntype == NT_AMDGPU_METADATA:
                return unpackb(desc, source=f"{source}: NT_AMDGPU_METADATA note")
    return None


def _relocations(elf, sections, image, source):
    relocations = []
    for sec in sections:
        if sec["sh_type"] not in ("SHT_RELA", "SHT_REL") or not sec["sh_flags"] & 2:   # SHF_ALLOC
            continue
        symtab = elf.get_section(sec["sh_link"]) if sec["sh_link"] else None
        for rel in sec.iter_relocations():
            rtype = rel["r_info_type"]
            addend = rel["r_addend"] if rel.is_RELA() else 0
            offset = rel["r_offset"]
            r = Relocation(offset, rtype, addend)
            if rtype not in (R_AMDGPU_RELATIVE64, R_AMDGPU_ABS64):
                raise MalformedInput(source, None, f"{sec.name}: relocation {r.type_name} at 0x{offset:x} "
                                                   f"is not supported (only R_AMDGPU_RELATIVE64 and "
                                                   f"R_AMDGPU_ABS64)")
            if offset + 8 > len(image):
                raise MalformedInput(source, None, f"{sec.name}: relocation at 0x{offset:x} is outside "
                                                   f"the loaded image ({len(image)} bytes)")
            if rtype == R_AMDGPU_ABS64:
                sym = symtab.get_symbol(rel["r_info_sym"]) if symtab is not None else None
                r.symbol = sym.name if sym is not None else ""
                if sym is None or sym["st_shndx"] == "SHN_UNDEF":
                    raise MalformedInput(source, None, f"{sec.name}: R_AMDGPU_ABS64 at 0x{offset:x} "
                                                       f"refers to undefined symbol {r.symbol!r}")
                r.symbol_value = sym["st_value"]
            relocations.append(r)
    return relocations


def _kernels(image, segments, symbols, metadata, target, co_version, source):
    kernel_meta = {}
    if metadata is not None:
        version, note_target, kernel_list = parse_metadata_document(metadata, f"{source}: metadata")
        if version != [1, co_version - 3]:
            raise MalformedInput(source, None, f"metadata amdhsa.version {version} does not match code "
                                               f"object v{co_version} (EI_ABIVERSION {co_version - 2})")
        if note_target and note_target != target.target_id:
            raise MalformedInput(source, None, f"metadata amdhsa.target {note_target} does not match "
                                               f"e_flags 0x{target.e_flags:x} ({target.target_id})")
        kernel_meta = {k.name: k for k in kernel_list}
        kd_names = [(k.name, k.symbol) for k in kernel_list]
    else:
        kd_names = [(name[:-3], name) for name, (_, _, stype) in symbols.items()
                    if name.endswith(".kd") and stype == _STT_OBJECT]
    if not kd_names:
        raise MalformedInput(source, None, "no kernels: no metadata note and no NAME.kd symbol")
    kernels = {}
    for name, kd_symbol in kd_names:
        if kd_symbol not in symbols:
            raise MalformedInput(source, None, f"kernel {name}: descriptor symbol {kd_symbol} is missing")
        kd_addr, kd_size, _ = symbols[kd_symbol]
        if kd_size not in (0, KD_SIZE):
            raise MalformedInput(source, None, f"kernel {name}: {kd_symbol} has size {kd_size}, expected 64")
        if kd_addr % KD_ALIGN or kd_addr + KD_SIZE > len(image):
            raise MalformedInput(source, None, f"kernel {name}: {kd_symbol} at 0x{kd_addr:x} is not a "
                                               f"64-byte aligned address inside the image")
        kd = KernelDescriptor.unpack(image[kd_addr:kd_addr + KD_SIZE], f"{source}: {kd_symbol}")
        entry = kd_addr + kd.kernel_code_entry_byte_offset
        if not any(v <= entry < v + size and flags & PF_X for v, size, flags in segments):
            raise MalformedInput(source, None, f"kernel {name}: entry 0x{entry:x} (descriptor 0x{kd_addr:x} "
                                               f"{kd.kernel_code_entry_byte_offset:+d}) is not in an "
                                               f"executable segment")
        if entry % CODE_ALIGN:
            raise MalformedInput(source, None, f"kernel {name}: entry 0x{entry:x} is not 256-byte aligned")
        code_size = symbols[name][1] if name in symbols and symbols[name][2] == _STT_FUNC else None
        kernels[name] = KernelInfo(name, kd, kd_addr, entry, code_size, kernel_meta.get(name))
    return kernels
