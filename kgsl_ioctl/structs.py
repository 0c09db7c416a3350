"""The cffi FFI holding the KGSL structs (arm64 layouts), and `new()` to build an argument.

ABI mode only: nothing is compiled or loaded; cffi lays the structs out as the C compiler does,
so `ffi.buffer(args)` is the byte image the kernel copies in and out.
"""
import cffi

from .cdefs import CDEF

ffi = cffi.FFI()
ffi.cdef(CDEF)

# Tags of the named structs, e.g. "kgsl_gpuobj_alloc".
STRUCT_NAMES = frozenset(name for name in ffi.list_types()[1] if not name.startswith("$"))


def struct_tag(struct_name):
    """'kgsl_x' or 'struct kgsl_x' -> 'kgsl_x'; an unknown struct is a TypeError naming it."""
    if not isinstance(struct_name, str):
        raise TypeError(f"struct name must be a str, got {type(struct_name).__name__}")
    tag = struct_name.strip()
    if tag.startswith("struct "):
        tag = tag[len("struct "):].strip()
    if tag not in STRUCT_NAMES:
        raise TypeError(f"unknown KGSL struct {struct_name!r}")
    return tag


def field_names(struct_name):
    return [name for name, _ in ffi.typeof(f"struct {struct_tag(struct_name)}").fields]


def new(struct_name, **fields):
    """A zeroed `struct X *` owned by Python, with the given members set.

    Nested structs and arrays take dicts and lists. A member the struct does not have is a
    TypeError naming it and the struct; a value that does not fit keeps cffi's error type, and
    the message names the member. Pointer members (declared __u64) take an address:
    `new("kgsl_device_getproperty", type=..., value=address_of(info), sizebytes=...)`.
    """
    tag = struct_tag(struct_name)
    known = field_names(tag)
    for name in fields:
        if name not in known:
            raise TypeError(f"struct {tag} has no field {name!r} (fields: {', '.join(known)})")
    args = ffi.new(f"struct {tag} *")
    for name, value in fields.items():
        try:
            setattr(args, name, value)
        except KeyError as e:
            raise TypeError(f"struct {tag}.{name}: unknown field {e} in the value") from None
        except (TypeError, OverflowError, ValueError, IndexError) as e:
            raise type(e)(f"struct {tag}.{name} = {value!r}: {e}") from None
    return args


def address_of(cdata):
    """The address of a cffi object (what a __user pointer member holds)."""
    return int(ffi.cast("uintptr_t", cdata))


def KGSL_MEMSTORE_OFFSET(ctxt_id, field):
    """The header's macro: byte offset of `field` of context `ctxt_id`'s kgsl_devmemstore."""
    return ctxt_id * ffi.sizeof("struct kgsl_devmemstore") + ffi.offsetof("struct kgsl_devmemstore", field)
