"""Write an AMDHSA code object v5: a little-endian ELF64 shared object for EM_AMDGPU.

Layout (file offset == virtual address, so the image is the file's first bytes):

    ELF header, program headers (PT_LOAD R, PT_LOAD R+X, PT_LOAD R+W, PT_DYNAMIC, PT_NOTE)
    .note     NT_AMDGPU_METADATA, owner "AMDGPU", MessagePack metadata     } PT_LOAD R
    .dynsym .hash .dynstr   kernel symbols for loaders that read the       }
                            dynamic symbol table                           }
    .rodata   one 64-byte kernel descriptor per kernel (64-aligned)        }
    .text     the machine code, 256-aligned                                  PT_LOAD R+X
    .dynamic  DT_HASH/DT_SYMTAB/DT_STRTAB/DT_STRSZ/DT_SYMENT                 PT_LOAD R+W
    .symtab .strtab .shstrtab, section headers (not loaded)

Each kernel NAME has symbols NAME (STT_FUNC, its entry point) and NAME.kd (STT_OBJECT, its
descriptor), both global and protected, as clang-19 + ld.lld-19 emit them. The descriptor's
kernel_code_entry_byte_offset is filled in here (entry address minus descriptor address).
llvm-readelf-19 and llvm-objdump-19 accept this layout without warnings.
"""
import struct
from dataclasses import dataclass, replace

from .kernel_descriptor import KD_ALIGN, KD_SIZE, KernelDescriptor, vgprs_from_granules
from .metadata import metadata_document, synthesize_kernel_map
from .msgpack import packb
from .targets import Target, parse_target

EM_AMDGPU = 224
ELFOSABI_AMDGPU_HSA = 64
ELFABIVERSION_AMDGPU_HSA_V5 = 3
ET_DYN = 3
NT_AMDGPU_METADATA = 32
NOTE_OWNER = b"AMDGPU\0"
CODE_ALIGN = 256
PAGE = 0x1000

SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_HASH, SHT_DYNAMIC, SHT_NOTE, SHT_DYNSYM = 1, 2, 3, 5, 6, 7, 11
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4
PT_LOAD, PT_DYNAMIC, PT_NOTE = 1, 2, 4
PF_X, PF_W, PF_R = 1, 2, 4
STB_GLOBAL, STT_OBJECT, STT_FUNC, STV_PROTECTED = 1, 1, 2, 3
DT_NULL, DT_HASH, DT_STRTAB, DT_SYMTAB, DT_STRSZ, DT_SYMENT = 0, 4, 5, 6, 10, 11

_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
_PHDR = struct.Struct("<IIQQQQQQ")
_SHDR = struct.Struct("<IIQQQQIIQQ")
_SYM = struct.Struct("<IBBHQQ")


@dataclass
class KernelSpec:
    """One kernel to place in a code object.

    `entry_offset` is the byte offset of the kernel's first instruction in the code (must be
    256-aligned); `descriptor` is its KD (entry offset ignored, the writer computes it);
    `metadata` is its amdhsa.kernels map, or None to synthesize one from the KD and counts.
    """
    name: str
    entry_offset: int
    descriptor: KernelDescriptor
    metadata: dict = None
    code_size: int = None
    sgpr_count: int = None
    vgpr_count: int = None


def note_bytes(desc, name=NOTE_OWNER, note_type=NT_AMDGPU_METADATA):
    """One ELF note: namesz, descsz, type, then name and desc each padded to 4 bytes."""
    return (struct.pack("<III", len(name), len(desc), note_type) + _pad(name, 4) + _pad(desc, 4))


def _pad(data, align):
    return data + b"\0" * (-len(data) % align)


def _align(value, align):
    return (value + align - 1) // align * align


def elf_hash(name):
    """The SysV ELF symbol hash (DT_HASH)."""
    h = 0
    for byte in name.encode():
        h = ((h << 4) + byte) & 0xFFFFFFFF
        g = h & 0xF0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xFFFFFFFF
    return h


class _StrTab:
    def __init__(self):
        self.data = bytearray(b"\0")
        self.index = {"": 0}

    def add(self, s):
        if s not in self.index:
            self.index[s] = len(self.data)
            self.data += s.encode() + b"\0"
        return self.index[s]


def _kernel_map(spec, target):
    if spec.metadata is not None:
        return spec.metadata
    kd = spec.descriptor
    wave32 = kd.wave32
    return synthesize_kernel_map(
        spec.name, kernarg_size=kd.kernarg_size,
        group_segment_fixed_size=kd.group_segment_fixed_size,
        private_segment_fixed_size=kd.private_segment_fixed_size,
        wavefront_size=32 if wave32 else 64,
        sgpr_count=spec.sgpr_count if spec.sgpr_count is not None else 0,
        vgpr_count=spec.vgpr_count if spec.vgpr_count is not None else vgprs_from_granules(
            kd.get("GRANULATED_WORKITEM_VGPR_COUNT"), wave32, target.gfx90a_class),
        uses_dynamic_stack=kd.get("USES_DYNAMIC_STACK"),
        workgroup_processor_mode=kd.get("WGP_MODE") if target.major >= 10 else None)


def write_code_object(code, kernels, target="gfx1100", metadata=None):
    """An HSA code object v5 (bytes) holding `code` as .text and one KD per KernelSpec.

    `target` is a processor name, target id or Target. `metadata` replaces the whole metadata
    document when given (a dict as it should appear in the note); otherwise it is built from
    each KernelSpec's metadata map (or a synthesized one). ValueError names a bad kernel.
    """
    tgt = target if isinstance(target, Target) else parse_target(target)
    if tgt.processor.endswith("-generic"):
        raise ValueError(f"{tgt.processor} is a generic target, which needs code object v6; "
                         f"this writer makes v5 objects for a specific processor")
    code = bytes(code)
    _check_kernels(code, kernels)
    if metadata is None:
        metadata = metadata_document(tgt.target_id, [_kernel_map(k, tgt) for k in kernels])
    note = note_bytes(packb(metadata))

    # Symbols: index 0 null, then per kernel NAME (FUNC) and NAME.kd (OBJECT).
    dynstr = _StrTab()
    names = []
    for k in kernels:
        names += [k.name, k.name + ".kd"]
    for n in names:
        dynstr.add(n)

    n_phdr = 5
    off = _EHDR.size + n_phdr * _PHDR.size
    note_off = _align(off, 4)
    dynsym_off = _align(note_off + len(note), 8)
    nsyms = 1 + len(names)
    hash_off = _align(dynsym_off + nsyms * _SYM.size, 4)
    hash_section = _sysv_hash([""] + names)
    hash_size = len(hash_section)
    dynstr_off = hash_off + hash_size
    rodata_off = _align(dynstr_off + len(dynstr.data), KD_ALIGN)
    rodata_size = KD_SIZE * len(kernels)
    text_off = _align(rodata_off + rodata_size, CODE_ALIGN)
    dynamic_off = _align(text_off + len(code), 8)
    dynamic_entries = [(DT_HASH, hash_off), (DT_SYMTAB, dynsym_off), (DT_STRTAB, dynstr_off),
                       (DT_STRSZ, len(dynstr.data)), (DT_SYMENT, _SYM.size), (DT_NULL, 0)]
    dynamic_size = 16 * len(dynamic_entries)

    rodata = bytearray()
    symbols = []
    for i, k in enumerate(kernels):
        kd_addr = rodata_off + KD_SIZE * i
        entry_addr = text_off + k.entry_offset
        kd = replace(k.descriptor, kernel_code_entry_byte_offset=entry_addr - kd_addr)
        rodata += kd.pack()
        size = k.code_size if k.code_size is not None else _code_size(k, kernels, len(code))
        symbols.append((k.name, entry_addr, size, STT_FUNC, "text"))
        symbols.append((k.name + ".kd", kd_addr, KD_SIZE, STT_OBJECT, "rodata"))

    # Section indices (fixed order below).
    sec_index = {"note": 1, "dynsym": 2, "hash": 3, "dynstr": 4, "rodata": 5, "text": 6, "dynamic": 7,
                 "symtab": 8, "strtab": 9, "shstrtab": 10}

    def symtab_bytes(strtab):
        out = bytearray(_SYM.pack(0, 0, 0, 0, 0, 0))
        for name, value, size, stype, sec in symbols:
            out += _SYM.pack(strtab.add(name), (STB_GLOBAL << 4) | stype, STV_PROTECTED,
                             sec_index[sec], value, size)
        return bytes(out)

    dynsym = symtab_bytes(dynstr)
    strtab = _StrTab()
    symtab = symtab_bytes(strtab)

    alloc_end = dynamic_off + dynamic_size
    symtab_off = _align(alloc_end, 8)
    strtab_off = symtab_off + len(symtab)
    shstrtab = _StrTab()
    section_names = [".note", ".dynsym", ".hash", ".dynstr", ".rodata", ".text", ".dynamic",
                     ".symtab", ".strtab", ".shstrtab"]
    for n in section_names:
        shstrtab.add(n)
    shstrtab_off = strtab_off + len(strtab.data)
    shdr_off = _align(shstrtab_off + len(shstrtab.data), 8)

    image = bytearray(shdr_off + _SHDR.size * (len(section_names) + 1))

    def put(offset, data):
        image[offset:offset + len(data)] = data

    ident = b"\x7fELF" + bytes([2, 1, 1, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V5]) + b"\0" * 7
    put(0, _EHDR.pack(ident, ET_DYN, EM_AMDGPU, 1, 0, _EHDR.size, shdr_off, tgt.e_flags, _EHDR.size,
                      _PHDR.size, n_phdr, _SHDR.size, len(section_names) + 1, sec_index["shstrtab"]))
    ro_end = rodata_off + rodata_size
    phdrs = [
        (PT_LOAD, PF_R, 0, 0, ro_end, ro_end, PAGE),
        (PT_LOAD, PF_R | PF_X, text_off, text_off, len(code), len(code), PAGE),
        (PT_LOAD, PF_R | PF_W, dynamic_off, dynamic_off, dynamic_size, dynamic_size, PAGE),
        (PT_DYNAMIC, PF_R | PF_W, dynamic_off, dynamic_off, dynamic_size, dynamic_size, 8),
        (PT_NOTE, PF_R, note_off, note_off, len(note), len(note), 4),
    ]
    for i, (ptype, flags, offset, vaddr, filesz, memsz, align) in enumerate(phdrs):
        put(_EHDR.size + i * _PHDR.size, _PHDR.pack(ptype, flags, offset, vaddr, vaddr, filesz, memsz, align))
    put(note_off, note)
    put(dynsym_off, dynsym)
    put(hash_off, hash_section)
    put(dynstr_off, dynstr.data)
    put(rodata_off, rodata)
    put(text_off, code)
    put(dynamic_off, b"".join(struct.pack("<qQ", tag, val) for tag, val in dynamic_entries))
    put(symtab_off, symtab)
    put(strtab_off, strtab.data)
    put(shstrtab_off, shstrtab.data)

    # name, type, flags, addr/offset, size, link, info, align, entsize
    sections = [
        (".note", SHT_NOTE, SHF_ALLOC, note_off, len(note), 0, 0, 4, 0),
        (".dynsym", SHT_DYNSYM, SHF_ALLOC, dynsym_off, len(dynsym), sec_index["dynstr"], 1, 8, _SYM.size),
        (".hash", SHT_HASH, SHF_ALLOC, hash_off, hash_size, sec_index["dynsym"], 0, 4, 4),
        (".dynstr", SHT_STRTAB, SHF_ALLOC, dynstr_off, len(dynstr.data), 0, 0, 1, 0),
        (".rodata", SHT_PROGBITS, SHF_ALLOC, rodata_off, rodata_size, 0, 0, KD_ALIGN, 0),
        (".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_off, len(code), 0, 0, CODE_ALIGN, 0),
        (".dynamic", SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, dynamic_off, dynamic_size, sec_index["dynstr"], 0, 8, 16),
        (".symtab", SHT_SYMTAB, 0, symtab_off, len(symtab), sec_index["strtab"], 1, 8, _SYM.size),
        (".strtab", SHT_STRTAB, 0, strtab_off, len(strtab.data), 0, 0, 1, 0),
        (".shstrtab", SHT_STRTAB, 0, shstrtab_off, len(shstrtab.data), 0, 0, 1, 0),
    ]
    for i, (name, stype, flags, offset, size, link, info, align, entsize) in enumerate(sections, 1):
        addr = offset if flags & SHF_ALLOC else 0
        put(shdr_off + i * _SHDR.size, _SHDR.pack(shstrtab.add(name), stype, flags, addr, offset, size,
                                                   link, info, align, entsize))
    return bytes(image)


def _sysv_hash(names):
    nbucket = max(1, len(names) - 1)
    buckets = [0] * nbucket
    chains = [0] * len(names)
    for index in range(1, len(names)):
        b = elf_hash(names[index]) % nbucket
        chains[index] = buckets[b]
        buckets[b] = index
    return struct.pack(f"<II{nbucket}I{len(names)}I", nbucket, len(names), *buckets, *chains)


def _code_size(spec, kernels, code_len):
    """Bytes from this kernel's entry to the next kernel's entry or the end of the code."""
    later = [k.entry_offset for k in kernels if k.entry_offset > spec.entry_offset]
    return (min(later) if later else code_len) - spec.entry_offset


def _check_kernels(code, kernels):
    if not kernels:
        raise ValueError("a code object needs at least one kernel")
    seen = set()
    for k in kernels:
        if k.name in seen:
            raise ValueError(f"kernel {k.name} is listed twice")
        seen.add(k.name)
        if not 0 <= k.entry_offset < max(1, len(code)) or not code:
            raise ValueError(f"kernel {k.name}: entry offset {k.entry_offset} is outside the "
                             f"{len(code)}-byte code")
        if k.entry_offset % CODE_ALIGN:
            raise ValueError(f"kernel {k.name}: entry offset 0x{k.entry_offset:x} is not "
                             f"{CODE_ALIGN}-byte aligned (add .p2align 8 before the kernel label)")
