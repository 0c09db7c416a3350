"""Builders for KGSL's packed flag words, and the mmap offset of a GPU object.

The header defines the fields as MASK/SHIFT pairs; these helpers put values into them and
refuse values that do not fit (a priority of 16 would silently become a context type).

    context_flags(KGSL_CONTEXT_PREAMBLE, KGSL_CONTEXT_NO_GMEM_ALLOC, priority=8,
                  preempt_style=KGSL_CONTEXT_PREEMPT_STYLE_FINEGRAIN)
    memflags(KGSL_MEMFLAGS_USE_CPU_MAP, align=12, cachemode=KGSL_CACHEMODE_WRITEBACK)
"""
from . import constants as C

PAGE_SHIFT = 12     # KGSL maps 4 KiB pages; an object's mmap offset is its id in pages


def _put(value, mask, shift, what):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or (value << shift) & ~mask:
        raise ValueError(f"{what} {value!r} does not fit its field (mask {mask:#x})")
    return value << shift


def context_flags(*bits, priority=C.KGSL_CONTEXT_PRIORITY_UNDEF, type=C.KGSL_CONTEXT_TYPE_ANY,
                  preempt_style=C.KGSL_CONTEXT_PREEMPT_STYLE_DEFAULT):
    """DRAWCTXT_CREATE flags: single KGSL_CONTEXT_* bits, then the priority (0..15, lower is more
    urgent), context type (KGSL_CONTEXT_TYPE_*) and preemption style fields."""
    flags = 0
    for bit in bits:
        flags |= bit
    return (flags | _put(priority, C.KGSL_CONTEXT_PRIORITY_MASK, C.KGSL_CONTEXT_PRIORITY_SHIFT, "priority")
            | _put(type, C.KGSL_CONTEXT_TYPE_MASK, C.KGSL_CONTEXT_TYPE_SHIFT, "context type")
            | _put(preempt_style, C.KGSL_CONTEXT_PREEMPT_STYLE_MASK, C.KGSL_CONTEXT_PREEMPT_STYLE_SHIFT,
                   "preempt style"))


def memflags(*bits, cachemode=C.KGSL_CACHEMODE_WRITECOMBINE, memtype=C.KGSL_MEMTYPE_OBJECTANY, align=0):
    """GPUOBJ_ALLOC / GPUMEM_ALLOC_ID flags: single KGSL_MEMFLAGS_* bits, then the cache mode
    (KGSL_CACHEMODE_*), memory type (KGSL_MEMTYPE_*) and alignment (log2 of bytes: 12 = 4 KiB)."""
    flags = 0
    for bit in bits:
        flags |= bit
    return (flags | _put(cachemode, C.KGSL_CACHEMODE_MASK, C.KGSL_CACHEMODE_SHIFT, "cache mode")
            | _put(memtype, C.KGSL_MEMTYPE_MASK, C.KGSL_MEMTYPE_SHIFT, "memtype")
            | _put(align, C.KGSL_MEMALIGN_MASK, C.KGSL_MEMALIGN_SHIFT, "alignment (log2)"))


def memflags_fields(flags):
    """The fields of a memory flag word: {'cachemode', 'memtype', 'align', 'usermem'}."""
    return {"cachemode": (flags & C.KGSL_CACHEMODE_MASK) >> C.KGSL_CACHEMODE_SHIFT,
            "memtype": (flags & C.KGSL_MEMTYPE_MASK) >> C.KGSL_MEMTYPE_SHIFT,
            "align": (flags & C.KGSL_MEMALIGN_MASK) >> C.KGSL_MEMALIGN_SHIFT,
            "usermem": (flags & C.KGSL_MEMFLAGS_USERMEM_MASK) >> C.KGSL_MEMFLAGS_USERMEM_SHIFT}


def context_fields(flags):
    """The fields of a context flag word: {'priority', 'type', 'preempt_style'}."""
    return {"priority": (flags & C.KGSL_CONTEXT_PRIORITY_MASK) >> C.KGSL_CONTEXT_PRIORITY_SHIFT,
            "type": (flags & C.KGSL_CONTEXT_TYPE_MASK) >> C.KGSL_CONTEXT_TYPE_SHIFT,
            "preempt_style": (flags & C.KGSL_CONTEXT_PREEMPT_STYLE_MASK) >> C.KGSL_CONTEXT_PREEMPT_STYLE_SHIFT}


def mmap_offset(obj_id):
    """Where to mmap /dev/kgsl-3d0 for GPU object `obj_id` (GPUOBJ_ALLOC or GPUMEM_ALLOC_ID):
    kgsl_mmap() takes vm_pgoff as the id, so the byte offset is id << 12."""
    if not isinstance(obj_id, int) or isinstance(obj_id, bool) or not 0 < obj_id < 1 << 32:
        raise ValueError(f"GPU object id must be a positive 32-bit int, got {obj_id!r}")
    return obj_id << PAGE_SHIFT
