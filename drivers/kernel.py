"""The kernel seam: the only way driver code touches the operating system.

A driver asks a :class:`Kernel` to open device nodes, issue ioctls, map memory and read sysfs.
:class:`RealKernel` does it with the host's system calls; ``drivers.emu`` provides a kernel that
serves a virtual GPU from Python objects.  The driver code above the seam is identical in both.

Memory handed out by ``mmap`` is a :class:`Mapping`: an address plus typed views of the bytes.
GPU virtual addresses equal CPU virtual addresses, so a Mapping's ``address`` is what the GPU
sees too.
"""
import abc
import errno
import fcntl
import mmap as _mmap
import os
import stat

from drivers._libc import ffi as _ffi
from drivers.errors import IoctlError, request_text

PROT_NONE, PROT_READ, PROT_WRITE, PROT_EXEC = 0, _mmap.PROT_READ, _mmap.PROT_WRITE, _mmap.PROT_EXEC
MAP_SHARED, MAP_PRIVATE = _mmap.MAP_SHARED, _mmap.MAP_PRIVATE
MAP_ANONYMOUS = _mmap.MAP_ANONYMOUS
MAP_FIXED = 0x10                       # <sys/mman.h> on every Linux architecture we target
MAP_NORESERVE = getattr(_mmap, "MAP_NORESERVE", 0x4000)
O_RDWR, O_RDONLY, O_CLOEXEC = os.O_RDWR, os.O_RDONLY, os.O_CLOEXEC
MAX_TEXT_FILE_BYTES = 1 << 16        # sysfs attributes are at most a page; a captured tree holds no more
_FILE_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
               (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))

_libc = _ffi.dlopen(None)          # the declarations: drivers/_libc.py (parsed ahead of time)
_MAP_FAILED = 2**64 - 1
np = None                              # numpy, imported by the first Mapping


class Mapping:
    """A window of CPU-visible memory at a fixed address (== the GPU VA where the GPU maps it).

    ``view(dtype, offset, count)`` returns a numpy array aliasing the bytes; ``store64`` is the
    one 64-bit store used for doorbells (the virtual GPU hooks it to run its queue processor).
    """

    def __init__(self, address, size, owner=None):
        global np
        if np is None:                     # numpy is loaded with the first mapping: a probe needs none
            import numpy as np
        self.address, self.size, self.owner = address, size, owner
        self._bytes = np.frombuffer(_ffi.buffer(_ffi.cast("char *", address), size), dtype=np.uint8) \
            if size else np.zeros(0, np.uint8)
        self._u64 = memoryview(self._bytes[:size // 8 * 8]).cast("Q")     # doorbell stores, without numpy

    def view(self, dtype=None, offset=0, count=None):
        """numpy view of ``count`` items of ``dtype`` (default uint8) at byte ``offset``."""
        dtype = np.dtype(np.uint8 if dtype is None else dtype)
        if offset < 0 or offset % dtype.itemsize or offset > self.size:
            raise ValueError(f"view at offset {offset} of a {self.size}-byte mapping is not {dtype}-aligned or in range")
        if count is None:
            count = (self.size - offset) // dtype.itemsize
        if offset + count * dtype.itemsize > self.size:
            raise ValueError(f"view of {count} x {dtype} at offset {offset} passes the end of a {self.size}-byte mapping")
        return self._bytes[offset:offset + count * dtype.itemsize].view(dtype)

    def read(self, offset, length):
        return self.view(np.uint8, offset, length).tobytes()

    def write(self, offset, data):
        data = np.frombuffer(bytes(data), np.uint8) if not isinstance(data, np.ndarray) else data.view(np.uint8).ravel()
        self.view(np.uint8, offset, data.size)[:] = data

    def store64(self, offset, value):
        if offset & 7 or not 0 <= offset <= self.size - 8:
            raise ValueError(f"64-bit store at offset {offset} of a {self.size}-byte mapping is not 8-byte aligned "
                             "or in range")
        self._u64[offset >> 3] = value

    def load64(self, offset):
        return int(self.view(np.uint64, offset, 1)[0])

    def store32(self, offset, value):
        """One 32-bit store (NVIDIA's doorbell: the virtual GPU hooks it too)."""
        self.view(np.uint32, offset, 1)[0] = value

    def load32(self, offset):
        return int(self.view(np.uint32, offset, 1)[0])

    def __repr__(self):
        return f"Mapping(0x{self.address:x}, {self.size:#x})"


class Kernel(abc.ABC):
    """The interface every driver uses. Paths are absolute Linux paths (/dev/..., /sys/...)."""

    @abc.abstractmethod
    def open(self, path, flags=O_RDWR):
        """Open a device node or file -> file descriptor (OSError with errno on failure)."""

    @abc.abstractmethod
    def close(self, fd):
        """Close a descriptor returned by open."""

    @abc.abstractmethod
    def ioctl(self, fd, request, arg, name=None):
        """Issue ``request`` with ``arg`` (a writable buffer: a cffi struct or a bytearray).

        Raises :class:`IoctlError` naming the ioctl and errno on failure.
        """

    @abc.abstractmethod
    def mmap(self, fd, length, offset=0, prot=PROT_READ | PROT_WRITE, flags=MAP_SHARED, address=None, hint=None):
        """Map ``length`` bytes of ``fd`` (or anonymous memory when fd is None) -> Mapping: at ``address``
        exactly (MAP_FIXED), or near ``hint`` if that range is free."""

    @abc.abstractmethod
    def munmap(self, mapping):
        """Unmap a Mapping returned by mmap."""

    @abc.abstractmethod
    def read_text(self, path):
        """The whole text of a (sysfs) file."""

    @abc.abstractmethod
    def listdir(self, path):
        """Sorted entries of a directory."""

    @abc.abstractmethod
    def exists(self, path):
        """Whether a path exists."""

    def source_path(self, path):
        """Where ``path`` really lives, for error messages (a captured tree's file, say)."""
        return path

    def node_owner(self, path):
        """(user, group, mode) of a device node, e.g. ("system", "system", 0o666), or None when
        unknown; a probe uses it to say which group a permission error asks for."""
        return None

    def kernel_log(self):
        """The kernel's recent log lines (what dmesg prints), [] when they cannot be read; drivers use
        it for what a kernel module says only there (NVIDIA's RM reports Xid details this way)."""
        return []


def check_request(request, name):
    """An ioctl request is an unsigned 32-bit number (the syscall's ``unsigned int cmd``);
    anything else is EINVAL before it reaches a driver."""
    if isinstance(request, bool) or not isinstance(request, int) or not 0 <= request < 1 << 32:
        raise IoctlError(name or request_text(request), request, errno.EINVAL,
                         "an ioctl request number is an unsigned 32-bit value")


def ioctl_buffer(arg):
    """The writable bytes behind an ioctl argument (cffi pointer/cdata or buffer object)."""
    if isinstance(arg, (bytearray, memoryview)):
        return arg
    try:
        return _ffi.buffer(arg)
    except TypeError:
        return memoryview(arg)


class RealKernel(Kernel):
    """System calls on this host.  ``sysfs_root``/``dev_root``/``proc_root`` redirect /sys, /dev and
    /proc so a captured tree (``tar c /sys/devices/virtual/kfd``, a copy of /proc/driver/nvidia) can
    be replayed."""

    def __init__(self, sysfs_root="/sys", dev_root="/dev", proc_root="/proc"):
        self.sysfs_root, self.dev_root = sysfs_root.rstrip("/") or "/", dev_root.rstrip("/") or "/"
        self.proc_root = proc_root.rstrip("/") or "/"

    def source_path(self, path):
        return self.host_path(path)

    def kernel_log(self, max_records=4096):
        """The records of /dev/kmsg still in the ring buffer ([] without permission to read it)."""
        try:
            fd = os.open(self.host_path("/dev/kmsg"), os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return []
        lines = []
        try:
            while len(lines) < max_records:
                try:
                    record = os.read(fd, 8192)
                except BlockingIOError:
                    break
                except OSError as e:
                    if e.errno == errno.EPIPE:          # records overwritten while reading: go on
                        continue
                    break
                if not record:
                    break
                lines.append(record.decode("utf-8", "replace").split(";", 1)[-1].split("\n", 1)[0])
        finally:
            os.close(fd)
        return lines

    def host_path(self, path):
        for prefix, root in (("/sys", self.sysfs_root), ("/dev", self.dev_root), ("/proc", self.proc_root)):
            if path == prefix or path.startswith(prefix + "/"):
                return root + path[len(prefix):]
        return path

    def open(self, path, flags=O_RDWR):
        return os.open(self.host_path(path), flags | O_CLOEXEC)

    def close(self, fd):
        os.close(fd)

    def ioctl(self, fd, request, arg, name=None):
        check_request(request, name)
        try:
            fcntl.ioctl(fd, request, ioctl_buffer(arg), True)
        except OSError as e:
            raise IoctlError(name or f"ioctl 0x{request:x}", request, e.errno or errno.EIO) from None

    def mmap(self, fd, length, offset=0, prot=PROT_READ | PROT_WRITE, flags=MAP_SHARED, address=None, hint=None):
        if fd is None:
            fd, flags = -1, flags | MAP_ANONYMOUS
        addr = _ffi.cast("void *", address or hint or 0)
        if address:
            flags |= MAP_FIXED
        ptr = _libc.mmap(addr, length, prot, flags, fd, offset)
        res = int(_ffi.cast("uintptr_t", ptr))
        if res == _MAP_FAILED:
            err = _ffi.errno
            raise OSError(err, f"mmap of {length:#x} bytes at offset {offset:#x} (fd {fd}) failed: {os.strerror(err)}")
        return Mapping(res, length if prot & (PROT_READ | PROT_WRITE) else 0, owner=self) \
            if prot != PROT_NONE else _Reservation(res, length)

    def munmap(self, mapping):
        size = mapping.size if not isinstance(mapping, _Reservation) else mapping.length
        if _libc.munmap(_ffi.cast("void *", mapping.address), size) != 0:
            err = _ffi.errno
            raise OSError(err, f"munmap of 0x{mapping.address:x}+{size:#x} failed: {os.strerror(err)}")

    def read_text(self, path):
        """The text of a regular file of at most MAX_TEXT_FILE_BYTES (a FIFO, a device, a
        directory or anything larger is an OSError naming it, never a hang or a huge read)."""
        host = self.host_path(path)
        fd = os.open(host, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                kind = next((what for test, what in _FILE_KINDS if test(mode)), "not a regular file")
                raise OSError(errno.EINVAL, f"{kind}, not a regular file", host)
            chunks, size = [], 0
            while size <= MAX_TEXT_FILE_BYTES:
                chunk = os.read(fd, MAX_TEXT_FILE_BYTES + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            if size > MAX_TEXT_FILE_BYTES:
                raise OSError(errno.EFBIG, f"larger than {MAX_TEXT_FILE_BYTES} bytes", host)
        finally:
            os.close(fd)
        return b"".join(chunks).decode("utf-8")

    def listdir(self, path):
        return sorted(os.listdir(self.host_path(path)))

    def exists(self, path):
        return os.path.exists(self.host_path(path))

    def node_owner(self, path):
        import grp
        import pwd
        try:
            st = os.stat(self.host_path(path))
        except OSError:
            return None
        def name(lookup, number):
            try:
                return lookup(number)[0]
            except KeyError:
                return str(number)
        return name(pwd.getpwuid, st.st_uid), name(grp.getgrgid, st.st_gid), st.st_mode & 0o777


class _Reservation(Mapping):
    """A PROT_NONE address-space reservation: it has an address and a length but no bytes."""

    def __init__(self, address, length):
        super().__init__(address, 0)
        self.length = length

    def __repr__(self):
        return f"Reservation(0x{self.address:x}, {self.length:#x})"
