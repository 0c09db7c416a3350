"""An emulated Linux kernel behind the kernel seam: a virtual /sys and /dev served from Python.

Files are strings in a flat dict keyed by absolute path (directories are implied by their
children).  Device nodes are factories: opening one creates a per-open "file" object whose
``ioctl``/``mmap`` methods implement the driver, as the kernel's file_operations would.  Errors
are raised as the kernel returns them: OSError with the errno, or IoctlError for ioctls.
"""
import errno
import os
import posixpath

from drivers.errors import IoctlError
from drivers.kernel import (MAP_ANONYMOUS, MAP_PRIVATE, MAP_SHARED, PROT_READ, PROT_WRITE, Kernel,
                            RealKernel)


class DeviceFile:
    """One open instance of an emulated device node (the kernel's struct file)."""

    def ioctl(self, request, buf):
        """Handle an ioctl; ``buf`` is the writable argument memory. Return 0 or raise OSError."""
        raise OSError(errno.ENOTTY, "inappropriate ioctl for device")

    def mmap(self, kernel, length, offset, prot, flags, address):
        """Map part of the device -> Mapping. Devices without mmap refuse with ENODEV."""
        raise OSError(errno.ENODEV, "device does not support mmap")

    def release(self):
        """The last close of this file."""


class EmulatedKernel(Kernel):
    """A kernel whose sysfs and device nodes are Python objects.

    Anonymous memory is real host memory (so CPU VA == GPU VA holds for the virtual GPU too);
    device mmaps are delegated to the device file.
    """

    def __init__(self, files=None, devices=None, denied=(), owners=None):
        self.files = dict(files or {})
        self.devices = dict(devices or {})     # path -> factory() -> DeviceFile
        self.denied = set(denied)              # paths whose open fails with EACCES
        self.owners = dict(owners or {})       # device path -> (user, group, mode)
        self._fds = {}
        self._next_fd = 1000
        self._host = RealKernel()
        self.log_lines = []                    # what the virtual kernel modules print (dmesg)

    # -- files ---------------------------------------------------------------------------------
    def _is_dir(self, path):
        prefix = path.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self.files) or any(p.startswith(prefix) for p in self.devices)

    def exists(self, path):
        path = posixpath.normpath(path)
        return path in self.files or path in self.devices or self._is_dir(path)

    def read_text(self, path):
        path = posixpath.normpath(path)
        if path in self.files:
            return self.files[path]
        if self._is_dir(path):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)

    def listdir(self, path):
        prefix = posixpath.normpath(path).rstrip("/") + "/"
        names = {p[len(prefix):].split("/", 1)[0] for p in list(self.files) + list(self.devices)
                 if p.startswith(prefix)}
        if not names:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        return sorted(names)

    def node_owner(self, path):
        return self.owners.get(posixpath.normpath(path))

    def kernel_log(self):
        return list(self.log_lines)

    def printk(self, line):
        self.log_lines.append(line)
        del self.log_lines[:-1000]

    # -- device nodes -------------------------------------------------------------------------
    def open(self, path, flags=os.O_RDWR):
        path = posixpath.normpath(path)
        if path in self.denied:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        if path in self.devices:
            fd, self._next_fd = self._next_fd, self._next_fd + 1
            self._fds[fd] = self.devices[path]()
            return fd
        if path in self.files:
            raise PermissionError(errno.EACCES, "sysfs files are read through read_text", path)
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)

    def file(self, fd):
        """The DeviceFile behind a descriptor (EBADF if it is not open)."""
        try:
            return self._fds[fd]
        except KeyError:
            raise OSError(errno.EBADF, f"fd {fd} is not open") from None

    def close(self, fd):
        self.file(fd).release()
        del self._fds[fd]

    def ioctl(self, fd, request, arg, name=None):
        from drivers.kernel import check_request, ioctl_buffer
        check_request(request, name)
        try:
            self.file(fd).ioctl(request, ioctl_buffer(arg))
        except IoctlError:
            raise
        except OSError as e:
            raise IoctlError(name or f"ioctl 0x{request:x}", request, e.errno or errno.EIO,
                             e.strerror if e.strerror and e.strerror != os.strerror(e.errno or 0) else "") from None

    def mmap(self, fd, length, offset=0, prot=PROT_READ | PROT_WRITE, flags=MAP_SHARED, address=None, hint=None):
        if fd is None or flags & MAP_ANONYMOUS:
            return self._host.mmap(None, length, offset, prot, flags | MAP_PRIVATE if not flags & MAP_SHARED else flags,
                                   address, hint)
        return self.file(fd).mmap(self, length, offset, prot, flags, address)

    def host_mmap(self, length, prot=PROT_READ | PROT_WRITE, flags=MAP_SHARED, address=None):
        """Real anonymous memory for device backing (used by emulated device files)."""
        return self._host.mmap(None, length, 0, prot, flags, address)

    def munmap(self, mapping):
        owner = getattr(mapping, "owner", None)
        if owner is not None and owner is not self._host and hasattr(owner, "unmap"):
            owner.unmap(mapping)
        else:
            self._host.munmap(mapping)

    @property
    def open_files(self):
        """Descriptors still open (tests assert this is empty after a device closes)."""
        return dict(self._fds)
