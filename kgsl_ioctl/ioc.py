"""Linux ioctl request numbers as arm64 encodes them (the `_IOC` of <asm-generic/ioctl.h>).

A request packs, low to high: nr (bits 0..7, the command: KGSL uses 0x02..0x5F), type (bits
8..15, the driver's magic: KGSL_IOC_TYPE = 0x09), size (bits 16..29, sizeof the argument) and
dir (bits 30..31: _IOC_WRITE = the kernel reads the argument, _IOC_READ = it writes it back).
arm64 and 32-bit ARM share this layout; what differs between them is the size field, because the
structs themselves differ (see kgsl_ioctl.abi).
"""

_IOC_NRBITS, _IOC_TYPEBITS, _IOC_SIZEBITS, _IOC_DIRBITS = 8, 8, 14, 2
_IOC_NRSHIFT = 0
_IOC_TYPESHIFT = _IOC_NRSHIFT + _IOC_NRBITS
_IOC_SIZESHIFT = _IOC_TYPESHIFT + _IOC_TYPEBITS
_IOC_DIRSHIFT = _IOC_SIZESHIFT + _IOC_SIZEBITS

_IOC_NONE, _IOC_WRITE, _IOC_READ = 0, 1, 2
_IOC_READWRITE = _IOC_READ | _IOC_WRITE


def _field(what, value, bits):
    """One field of a request; a struct too large for 14 bits must not silently wrap."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"_IOC {what} must be an int, got {type(value).__name__}")
    if not 0 <= value < (1 << bits):
        raise ValueError(f"_IOC {what} {value:#x} does not fit in {bits} bits")
    return value


def _IOC(dir_, type_, nr, size):
    return (_field("dir", dir_, _IOC_DIRBITS) << _IOC_DIRSHIFT
            | _field("type", type_, _IOC_TYPEBITS) << _IOC_TYPESHIFT
            | _field("nr", nr, _IOC_NRBITS) << _IOC_NRSHIFT
            | _field("size", size, _IOC_SIZEBITS) << _IOC_SIZESHIFT)


def _IOR(type_, nr, size):
    return _IOC(_IOC_READ, type_, nr, size)


def _IOW(type_, nr, size):
    return _IOC(_IOC_WRITE, type_, nr, size)


def _IOWR(type_, nr, size):
    return _IOC(_IOC_READWRITE, type_, nr, size)


def _IOC_DIR(request):
    return (request >> _IOC_DIRSHIFT) & ((1 << _IOC_DIRBITS) - 1)


def _IOC_TYPE(request):
    return (request >> _IOC_TYPESHIFT) & ((1 << _IOC_TYPEBITS) - 1)


def _IOC_NR(request):
    return (request >> _IOC_NRSHIFT) & ((1 << _IOC_NRBITS) - 1)


def _IOC_SIZE(request):
    return (request >> _IOC_SIZESHIFT) & ((1 << _IOC_SIZEBITS) - 1)


def direction_name(dir_):
    """'NONE', 'W', 'R' or 'RW'."""
    return {_IOC_NONE: "NONE", _IOC_WRITE: "W", _IOC_READ: "R", _IOC_READWRITE: "RW"}[dir_]
