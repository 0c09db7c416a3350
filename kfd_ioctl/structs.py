"""The cffi FFI holding the amdkfd structs, and `new()` to build an ioctl argument in one call.

ABI mode only: nothing is compiled or loaded, cffi just lays the structs out the way the C
compiler does, so `ffi.buffer(args)` is the byte image the kernel copies in and out.  The
declarations (cdefs.py) are parsed ahead of time into _ffi.py (scripts/gen_ffi_modules.py), so
importing this package does not run pycparser.
"""
from ._ffi import ffi

# Tags of the named structs, e.g. "kfd_ioctl_create_queue_args" (cffi names anonymous ones "$...").
STRUCT_NAMES = frozenset(name for name in ffi.list_types()[1] if not name.startswith("$"))


def struct_tag(struct_name):
    """'kfd_x' or 'struct kfd_x' -> 'kfd_x'; an unknown struct is a TypeError naming it."""
    if not isinstance(struct_name, str):
        raise TypeError(f"struct name must be a str, got {type(struct_name).__name__}")
    tag = struct_name.strip()
    if tag.startswith("struct "):
        tag = tag[len("struct "):].strip()
    if tag not in STRUCT_NAMES:
        raise TypeError(f"unknown amdkfd struct {struct_name!r}")
    return tag


def field_names(struct_name):
    """Member names of a struct, members of anonymous unions included (as C lets you use them)."""
    return [name for name, _ in ffi.typeof(f"struct {struct_tag(struct_name)}").fields]


def new(struct_name, **fields):
    """A zeroed `struct X *` owned by Python, with the given members set.

    Nested structs and arrays take dicts and lists: new("kfd_event_data", event_id=3,
    memory_exception_data={"va": 0x1000}). A member the struct does not have is a TypeError
    naming it and the struct; a value that does not fit keeps cffi's error type, and the message
    names the member.
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
        except KeyError as e:  # cffi's complaint about a key inside a nested dict
            raise TypeError(f"struct {tag}.{name}: unknown field {e} in the value") from None
        except (TypeError, OverflowError, ValueError, IndexError) as e:
            raise type(e)(f"struct {tag}.{name} = {value!r}: {e}") from None
    return args
