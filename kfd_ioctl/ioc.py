"""Linux ioctl request numbers: the `_IOC` encoding of <asm-generic/ioctl.h>.

A request packs four fields into 32 bits, low to high:

    bits  0..7   nr    command number inside the driver's range (KFD: 0x01..0x26)
    bits  8..15  type  the driver's magic byte (KFD: 'K' = 0x4B)
    bits 16..29  size  sizeof the argument struct (14 bits, so at most 16383 bytes)
    bits 30..31  dir   which way the argument is copied: _IOC_WRITE = user -> kernel,
                       _IOC_READ = kernel -> user (named from the caller's point of view)

This is the layout of x86, arm64 and riscv (everything amdkfd runs on); alpha, mips, powerpc and
sparc use other widths and are not described here.
"""

_IOC_NRBITS = 8
_IOC_TYPEBITS = 8
_IOC_SIZEBITS = 14
_IOC_DIRBITS = 2

_IOC_NRSHIFT = 0
_IOC_TYPESHIFT = _IOC_NRSHIFT + _IOC_NRBITS
_IOC_SIZESHIFT = _IOC_TYPESHIFT + _IOC_TYPEBITS
_IOC_DIRSHIFT = _IOC_SIZESHIFT + _IOC_SIZEBITS

_IOC_NRMASK = (1 << _IOC_NRBITS) - 1
_IOC_TYPEMASK = (1 << _IOC_TYPEBITS) - 1
_IOC_SIZEMASK = (1 << _IOC_SIZEBITS) - 1
_IOC_DIRMASK = (1 << _IOC_DIRBITS) - 1

_IOC_NONE = 0
_IOC_WRITE = 1
_IOC_READ = 2


def _field(what, value, bits):
    """Check one field fits its bit width: a too-large struct must not silently wrap."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"_IOC {what} must be an int, got {type(value).__name__}")
    if not 0 <= value < (1 << bits):
        raise ValueError(f"_IOC {what} {value:#x} does not fit in {bits} bits")
    return value


def _type_byte(type_):
    """The magic may be given as 'K' (as in the C headers) or as the int 0x4B."""
    if isinstance(type_, str):
        if len(type_) != 1:
            raise ValueError(f"_IOC type must be one character, got {type_!r}")
        return ord(type_)
    return type_


def _IOC(dir_, type_, nr, size):
    return (_field("dir", dir_, _IOC_DIRBITS) << _IOC_DIRSHIFT
            | _field("type", _type_byte(type_), _IOC_TYPEBITS) << _IOC_TYPESHIFT
            | _field("nr", nr, _IOC_NRBITS) << _IOC_NRSHIFT
            | _field("size", size, _IOC_SIZEBITS) << _IOC_SIZESHIFT)


def _IO(type_, nr):
    return _IOC(_IOC_NONE, type_, nr, 0)


def _IOR(type_, nr, size):
    return _IOC(_IOC_READ, type_, nr, size)


def _IOW(type_, nr, size):
    return _IOC(_IOC_WRITE, type_, nr, size)


def _IOWR(type_, nr, size):
    return _IOC(_IOC_READ | _IOC_WRITE, type_, nr, size)


def _IOC_DIR(request):
    return (request >> _IOC_DIRSHIFT) & _IOC_DIRMASK


def _IOC_TYPE(request):
    return (request >> _IOC_TYPESHIFT) & _IOC_TYPEMASK


def _IOC_NR(request):
    return (request >> _IOC_NRSHIFT) & _IOC_NRMASK


def _IOC_SIZE(request):
    return (request >> _IOC_SIZESHIFT) & _IOC_SIZEMASK


def direction_name(dir_):
    """'R', 'W', 'RW' or 'NONE', as the direction column of amd.md's ioctl table reads."""
    return {_IOC_NONE: "NONE", _IOC_WRITE: "W", _IOC_READ: "R", _IOC_READ | _IOC_WRITE: "RW"}[dir_]
