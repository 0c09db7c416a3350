"""One complete set of layouts per NVIDIA driver branch, and the choice of a set from a version.

The RM and UVM argument structs change between driver branches (cdefs.changes() lists where), so
every size, request number and list length comes from a `Layouts` for the branch the kernel module
belongs to:

    L = nv_ioctl.layouts_for_version("580.95.05")      # from /proc/driver/nvidia/version
    args = L.new("NVOS21_PARAMETERS", hClass=nv_ioctl.NV01_ROOT_CLIENT)
    kernel.ioctl(ctl_fd, L.request("NV_ESC_RM_ALLOC", "NVOS21_PARAMETERS"), args)

A version of a branch without a layout set is an UnknownBranch error naming the known branches:
sending a 580 struct to a 570 kernel is refused at best and misread at worst.
"""
import functools
import re
from typing import NamedTuple

from . import classes, constants, controls, flags, methods
from .cdefs import cdef_for, variant
from .drf import Field
from .ioc import _IOC_SIZEMASK, _IOWR
from .status import STATUS_CODES
from .tables import CLASS_PARAMS, CONTROLS, ESCAPES, UVM_IOCTLS

# Branch -> the open-gpu-kernel-modules tag its layouts were checked against (the newest of the
# branch when they were frozen; NVIDIA keeps the ABI of a branch stable across its releases).
BRANCHES = {570: "570.211.01", 575: "575.64.05", 580: "580.142", 590: "590.48.01", 595: "595.45.04"}

# Constants whose value depends on the branch: {name: {first branch with this value: value}}.
BRANCH_CONSTANTS = {
    "NV0080_CTRL_GPU_CLASSLIST_MAX_SIZE": {570: 100, 580: 200},
    "NV2080_CTRL_FB_INFO_MAX_LIST_SIZE": {570: 0x39, 580: 0x80},
    "NV2080_CTRL_GR_INFO_MAX_SIZE": {570: 0x3A, 590: 0x3B},
}


class UnknownBranch(ValueError):
    """A driver version no layout set is known for; the message lists the known branches."""


class DriverVersion(NamedTuple):
    text: str          # as the driver prints it, "580.95.05"
    major: int         # the branch, 580
    minor: int
    patch: int | None

    def __str__(self):
        return self.text


_VERSION = re.compile(r"(?<![\d.])(\d{3})\.(\d{1,3})(?:\.(\d{1,3}))?(?![\d.])")


def parse_driver_version(text):
    """'580.95.05' (or a line holding it) -> DriverVersion; ValueError when there is none."""
    m = _VERSION.search(text or "")
    if not m:
        raise ValueError(f"no NVIDIA driver version (like 580.95.05) in {text!r}")
    return DriverVersion(m.group(0), int(m.group(1)), int(m.group(2)),
                         int(m.group(3)) if m.group(3) is not None else None)


def known_branches():
    return ", ".join(str(b) for b in BRANCHES)


class Escape(NamedTuple):
    name: str          # "NV_ESC_RM_ALLOC"
    nr: int
    struct: str        # argument type (element type when `array`)
    node: str          # "ctl" or "gpu"
    array: bool
    size: int          # sizeof(struct)

    def request(self, count=1):
        """The ioctl request; an array escape takes `count` elements (the XFER escape carries
        arguments larger than the 14-bit size field, so the request of one is never formed)."""
        size = self.size * (count if self.array else 1)
        if size > _IOC_SIZEMASK:
            raise ValueError(f"{self.name}: {size} bytes do not fit _IOC_SIZE; send it with NV_ESC_IOCTL_XFER_CMD")
        return _IOWR(constants.NV_IOCTL_MAGIC, self.nr, size)


class UvmIoctl(NamedTuple):
    name: str
    request: int       # the raw command number
    struct: str
    size: int


class Control(NamedTuple):
    name: str
    cmd: int
    struct: str
    size: int


class Layouts:
    """The structs, sizes and request numbers of one driver branch."""

    def __init__(self, branch):
        import cffi             # here, so the constants and BRANCHES need no compiled module
        self.branch, self.tag = branch, BRANCHES[branch]
        self.ffi = cffi.FFI()
        self.ffi.cdef(cdef_for(branch))
        self._types = frozenset(self.ffi.list_types()[0])
        self.branch_constants = {}
        for name, values in BRANCH_CONSTANTS.items():
            value = variant(values, branch)
            if value is not None:
                self.branch_constants[name] = value
                setattr(self, name, value)
        self._escapes = [Escape(s.name, s.nr, s.struct, s.node, s.array, self.sizeof(s.struct)) for s in ESCAPES]
        self._uvm = {name: UvmIoctl(name, number, struct, self.sizeof(struct))
                     for name, (number, struct) in UVM_IOCTLS.items()}
        self._uvm_by_number = {u.request: u for u in self._uvm.values()}
        self._controls = {cmd: Control(name, cmd, struct, self.sizeof(struct))
                          for cmd, (name, struct) in CONTROLS.items()}
        self._status = {name: code for name, history in STATUS_CODES.items()
                        if (code := variant(history, branch)) is not None}
        self._status_names = {}
        for name, code in self._status.items():
            self._status_names.setdefault(code, name)

    def __repr__(self):
        return f"Layouts({self.branch}, checked against {self.tag})"

    # -- types ---------------------------------------------------------------------------------
    def type_names(self):
        """Every typedef name declared for this branch (the Nv* scalar typedefs excluded)."""
        return {t for t in self._types if t not in _SCALARS}

    def _type(self, name):
        if not isinstance(name, str):
            raise TypeError(f"type name must be a str, got {type(name).__name__}")
        if name not in self._types:
            raise TypeError(f"unknown NVIDIA type {name!r} (driver branch {self.branch})")
        return name

    def sizeof(self, name):
        return self.ffi.sizeof(self._type(name))

    def offsetof(self, name, *path):
        return self.ffi.offsetof(self._type(name), *path)

    def field_names(self, name):
        ctype = self.ffi.typeof(self._type(name))
        if ctype.kind != "struct":
            raise TypeError(f"{name} is not a struct")
        return [f for f, _ in ctype.fields]

    def new(self, name, **fields):
        """A zeroed `name *` owned by Python with `fields` set; an unknown field is a TypeError
        naming the struct and its fields, a value that does not fit names the field."""
        known = self.field_names(name)
        for field in fields:
            if field not in known:
                raise TypeError(f"{name} has no field {field!r} in driver branch {self.branch} "
                                f"(fields: {', '.join(known)})")
        args = self.ffi.new(f"{name} *")
        for field, value in fields.items():
            try:
                setattr(args, field, value)
            except KeyError as e:
                raise TypeError(f"{name}.{field}: unknown field {e} in the value") from None
            except (TypeError, OverflowError, ValueError, IndexError) as e:
                raise type(e)(f"{name}.{field} = {value!r}: {e}") from None
        return args

    def new_array(self, name, count):
        return self.ffi.new(f"{self._type(name)}[{count}]")

    def from_buffer(self, name, buffer):
        """A `name *` over existing bytes (the emulated kernel reads ioctl arguments this way)."""
        return self.ffi.from_buffer(f"{self._type(name)} *", buffer)

    # -- escapes, UVM commands, controls, classes -----------------------------------------------
    def escapes(self):
        return list(self._escapes)

    def escape(self, name, struct=None):
        for esc in self._escapes:
            if esc.name == name and (struct is None or esc.struct == struct):
                return esc
        raise KeyError(f"no escape {name}" + (f" taking {struct}" if struct else ""))

    def request(self, name, struct=None, count=1):
        return self.escape(name, struct).request(count)

    def escapes_by_nr(self, nr):
        """Every argument type the escape `nr` accepts (two for NV_ESC_RM_ALLOC)."""
        return [e for e in self._escapes if e.nr == nr]

    def uvm(self, name):
        return self._uvm[name]

    def uvm_by_number(self, number):
        return self._uvm_by_number.get(number)

    def uvm_ioctls(self):
        return list(self._uvm.values())

    def control(self, cmd):
        """The Control record of a command id, or None when nv_ioctl does not declare it."""
        return self._controls.get(cmd)

    def controls(self):
        return list(self._controls.values())

    @staticmethod
    def class_params(class_id):
        """The allocation parameter struct of a class (None: it takes none); KeyError if unknown."""
        return CLASS_PARAMS[class_id]

    def constants(self):
        """Every integer constant for this branch by name: the common ones and the branch's own."""
        return {**CONSTANTS, **self.branch_constants}

    # -- NV_STATUS --------------------------------------------------------------------------------
    def status_codes(self):
        """{NV_STATUS name: code} as this branch numbers them."""
        return dict(self._status)

    def status_name(self, code):
        """'NV_ERR_INVALID_ARGUMENT' for 0x1F; a code this branch does not define reads 'NV_STATUS 0x...'."""
        return self._status_names.get(code, f"NV_STATUS 0x{code:08X}")

    def status_code(self, name):
        """The code of a status name in this branch; KeyError if the branch has no such status."""
        return self._status[name]


_SCALARS = frozenset({"NvU8", "NvS8", "NvU16", "NvV16", "NvS16", "NvU32", "NvS32", "NvU64", "NvS64", "NvBool",
                      "NvHandle", "NvV32", "NvP64", "NV_STATUS"})


def _public(module, kind):
    return {name: value for name, value in vars(module).items()
            if not name.startswith("_") and isinstance(value, kind) and not isinstance(value, bool)
            and (kind is Field or not isinstance(value, Field))}


# Every constant and DRF field the package exports (the same in every supported branch).
CONSTANTS = {}
RANGES = {}
for _module in (constants, classes, controls, flags, methods):
    CONSTANTS.update(_public(_module, int))
    RANGES.update(_public(_module, Field))


@functools.lru_cache(maxsize=None)
def _layouts(branch):
    return Layouts(branch)


def layouts(branch):
    """The Layouts of a branch (570, 575, 580, 590, 595) or of a version string ("580.95.05")."""
    version = None
    if isinstance(branch, str):
        version = parse_driver_version(branch)
        branch = version.major
    if isinstance(branch, bool) or not isinstance(branch, int):
        raise TypeError(f"driver branch must be an int or a version string, got {branch!r}")
    if branch not in BRANCHES:
        what = f"driver {version}" if version else f"driver branch {branch}"
        newer = " (newer than any known branch)" if branch > max(BRANCHES) else ""
        raise UnknownBranch(f"{what}{newer}: layouts known for {known_branches()}")
    return _layouts(branch)


def layouts_for_version(version):
    """The Layouts for a driver version string; UnknownBranch names the known branches."""
    return layouts(str(version))
