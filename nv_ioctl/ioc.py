"""Linux ioctl request numbers for the NVIDIA device nodes: the `_IOC` encoding of <asm-generic/ioctl.h>.

/dev/nvidiactl and /dev/nvidiaN take `_IOWR(NV_IOCTL_MAGIC, escape, sizeof(argument))`:

    bits  0..7   nr    the escape (NV_ESC_RM_ALLOC = 0x2B, NV_ESC_CARD_INFO = 200...)
    bits  8..15  type  NV_IOCTL_MAGIC, 'F' = 0x46
    bits 16..29  size  sizeof the argument (14 bits: larger blocks go through NV_ESC_IOCTL_XFER_CMD)
    bits 30..31  dir   always read|write

The kernel reads `_IOC_NR` and `_IOC_SIZE` and refuses a size that is not the one it expects.
/dev/nvidia-uvm does not use this encoding: its request is the raw command number.
This is the layout of x86-64 and arm64, the two architectures the open kernel modules build for.
"""

_IOC_NRBITS, _IOC_TYPEBITS, _IOC_SIZEBITS, _IOC_DIRBITS = 8, 8, 14, 2
_IOC_NRSHIFT = 0
_IOC_TYPESHIFT = _IOC_NRSHIFT + _IOC_NRBITS
_IOC_SIZESHIFT = _IOC_TYPESHIFT + _IOC_TYPEBITS
_IOC_DIRSHIFT = _IOC_SIZESHIFT + _IOC_SIZEBITS
_IOC_SIZEMASK = (1 << _IOC_SIZEBITS) - 1

_IOC_NONE, _IOC_WRITE, _IOC_READ = 0, 1, 2


def _field(what, value, bits):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"_IOC {what} must be an int, got {type(value).__name__}")
    if not 0 <= value < (1 << bits):
        raise ValueError(f"_IOC {what} {value:#x} does not fit in {bits} bits")
    return value


def _IOC(dir_, type_, nr, size):
    type_ = ord(type_) if isinstance(type_, str) and len(type_) == 1 else type_
    return (_field("dir", dir_, _IOC_DIRBITS) << _IOC_DIRSHIFT
            | _field("type", type_, _IOC_TYPEBITS) << _IOC_TYPESHIFT
            | _field("nr", nr, _IOC_NRBITS) << _IOC_NRSHIFT
            | _field("size", size, _IOC_SIZEBITS) << _IOC_SIZESHIFT)


def _IOWR(type_, nr, size):
    return _IOC(_IOC_READ | _IOC_WRITE, type_, nr, size)


def _IOC_DIR(request):
    return (request >> _IOC_DIRSHIFT) & ((1 << _IOC_DIRBITS) - 1)


def _IOC_TYPE(request):
    return (request >> _IOC_TYPESHIFT) & ((1 << _IOC_TYPEBITS) - 1)


def _IOC_NR(request):
    return (request >> _IOC_NRSHIFT) & ((1 << _IOC_NRBITS) - 1)


def _IOC_SIZE(request):
    return (request >> _IOC_SIZESHIFT) & _IOC_SIZEMASK
