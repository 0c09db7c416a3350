"""Kernel argument (kernarg) segments: explicit arguments from the code object's metadata and
the code object v5 hidden arguments the runtime fills (grid shape, queue pointer...).

The layout is computed and checked once per kernel, when the code object is loaded
(:class:`KernargLayout`): every argument must lie in the segment at a non-negative offset, not
overlap another, and have a size its kind can hold (a global pointer 8 bytes, an LDS offset 4,
hidden_group_size_x 2...); a metadata record that breaks a rule is MalformedInput naming the
kernel, the argument and the field.  The whole segment is then packed by one precompiled
``struct.Struct`` per launch (padding bytes come out zero).  Values are checked against the
metadata: a buffer where a number is expected, a float for an integer, a number that does not
fit, a buffer of another device, or the wrong number of arguments is a :class:`KernargError`
naming the argument's index, name and type.
"""
import math
import struct

import numpy as np

from drivers.amd.memory import Buffer
from drivers.errors import KernargError, MalformedInput


class Pointer:
    """A raw GPU virtual address passed where the kernel expects a pointer."""
    __slots__ = ("va",)

    def __init__(self, va):
        if isinstance(va, bool) or not isinstance(va, (int, np.integer)) or not 0 <= int(va) < 1 << 64:
            raise KernargError(f"Pointer({va!r}): a GPU virtual address is an int in 0 .. 2**64-1")
        self.va = int(va)

    def __repr__(self):
        return f"Pointer(0x{self.va:x})"


_FLOAT_TYPES = {"float": 4, "double": 8, "half": 2, "_Float16": 2, "bfloat": 2, "__bf16": 2}
_INT_FORMATS = {1: "B", 2: "H", 4: "I", 8: "Q"}
_FLOAT_FORMATS = {2: "e", 4: "f", 8: "d"}
_FLOAT_MAX = {2: 65504.0, 4: 3.4028234663852886e38, 8: math.inf}

# Hidden argument value kinds the runtime fills: what each holds and the size it must have
# (AMDGPUUsage, code object v5). Other hidden kinds are zero here, at whatever size they have.
HIDDEN_FIELDS = {
    "hidden_block_count_x": ("grid", 0, 4), "hidden_block_count_y": ("grid", 1, 4),
    "hidden_block_count_z": ("grid", 2, 4),
    "hidden_group_size_x": ("block", 0, 2), "hidden_group_size_y": ("block", 1, 2),
    "hidden_group_size_z": ("block", 2, 2),
    "hidden_remainder_x": ("zero", 0, 2), "hidden_remainder_y": ("zero", 0, 2), "hidden_remainder_z": ("zero", 0, 2),
    "hidden_global_offset_x": ("zero", 0, 8), "hidden_global_offset_y": ("zero", 0, 8),
    "hidden_global_offset_z": ("zero", 0, 8), "hidden_grid_dims": ("dims", 0, 2),
    "hidden_queue_ptr": ("queue_ptr", 0, 8), "hidden_dynamic_lds_size": ("dynamic_lds", 0, 4),
}
_POINTER_SPACES = ("global", "constant", "generic")
MAX_KERNARG_SEGMENT = 1 << 20       # what a launch can hold (the compute queue's kernarg arena)


class ArgSpec:
    """One explicit argument: where it goes and what it accepts ('pointer', 'float', 'int', or
    'lds': a dynamically sized LDS array, given as its size in bytes, passed as its LDS offset)."""
    __slots__ = ("index", "name", "type_name", "offset", "size", "kind", "fmt", "align", "limit")

    def __init__(self, index, name, type_name, offset, size, kind, align=4):
        self.index, self.name, self.type_name, self.offset, self.size, self.kind = \
            index, name, type_name, offset, size, kind
        self.align, self.limit = align, 1 << (8 * size)
        self.fmt = (_FLOAT_FORMATS if kind == "float" else _INT_FORMATS).get(size) or f"{size}s"

    def describe(self):
        label = f"argument {self.index}"
        if self.name:
            label += f" ({self.name}"
            label += f": {self.type_name})" if self.type_name else ")"
        elif self.type_name:
            label += f" ({self.type_name})"
        return label


def _scalar_kind(type_name, size):
    base = type_name.replace("const", "").strip()
    if base in _FLOAT_TYPES and _FLOAT_TYPES[base] == size:
        return "float"
    return "int" if size in _INT_FORMATS else "bytes"


def _check_arg(where, a, segment_size):
    """The metadata rules one argument record must satisfy (MalformedInput names the field)."""
    if isinstance(a.offset, bool) or not isinstance(a.offset, int) or a.offset < 0:
        raise where(f".offset {a.offset!r} is not a byte offset >= 0")
    if isinstance(a.size, bool) or not isinstance(a.size, int) or a.size < 1:
        raise where(f".size {a.size!r} is not a size >= 1")
    if a.offset + a.size > segment_size:
        raise where(f".offset {a.offset} + .size {a.size} ends past the {segment_size}-byte kernarg segment")
    kind = a.value_kind
    if a.hidden:
        field = HIDDEN_FIELDS.get(kind)
        if field is not None and a.size != field[2]:
            raise where(f".size {a.size} does not fit {kind} ({field[2]} bytes)")
    elif kind == "dynamic_shared_pointer":
        if a.size != 4:
            raise where(f".size {a.size} does not fit a dynamic LDS offset (4 bytes)")
    elif kind == "global_buffer" or a.address_space in _POINTER_SPACES:
        if a.size != 8:
            raise where(f".size {a.size} does not fit a {a.address_space or 'global'} pointer (8 bytes)")


class KernargLayout:
    """Where every explicit and hidden argument of one kernel lives in its kernarg segment."""

    def __init__(self, kernel_name, size, align, args, hidden):
        self.kernel_name, self.size, self.align = kernel_name, size, max(16, align)
        self.args, self.hidden = args, hidden        # [ArgSpec], [(offset, size, (what, axis))]
        self.launch_bytes = (size + 63) & ~63 or 64   # what a launch takes from the kernarg arena
        self.launch_align = max(64, self.align)
        self._compile()

    def _compile(self):
        """One Struct for the whole segment: the fields in offset order, zero padding between."""
        fields = [(a.offset, a.size, a.fmt, ("arg", i)) for i, a in enumerate(self.args)]
        fields += [(off, size, _INT_FORMATS.get(size, f"{size}s"), ("hidden", j))
                   for j, (off, size, what) in enumerate(self.hidden) if what[0] != "zero"]
        fields.sort(key=lambda f: f[0])
        fmt, pos = "<", 0
        for off, size, code, _ in fields:
            if off < pos:
                raise ValueError(f"kernel {self.kernel_name}: kernarg fields overlap at offset {off}")
            fmt += (f"{off - pos}x" if off > pos else "") + code
            pos = off + size
        fmt += f"{self.size - pos}x" if self.size > pos else ""
        self._struct = struct.Struct(fmt)
        self._hidden_fill = [what for _, _, what in self.hidden if what[0] != "zero"]
        order = [key for _, _, _, key in fields]
        natural = [("arg", i) for i in range(len(self.args))] + [("hidden", j) for j in range(len(self.hidden))
                                                                 if self.hidden[j][2][0] != "zero"]
        self._order = None if order == natural else \
            [natural.index(key) for key in order]     # positions in explicit + hidden value order
        self._has_lds = any(a.kind == "lds" for a in self.args)
        self._hidden_key = self._hidden_values = None

    @classmethod
    def from_metadata(cls, name, meta, kd_kernarg_size=0, source="<code object>"):
        size = max(meta.kernarg_segment_size, kd_kernarg_size)
        if size > MAX_KERNARG_SEGMENT:
            raise MalformedInput(source, None, f"kernel {name}: a kernarg segment of {size} bytes "
                                               f"(.kernarg_segment_size / .amdhsa_kernarg_size) is larger than the "
                                               f"{MAX_KERNARG_SEGMENT} a launch can pass")
        args, hidden = [], []
        for i, a in enumerate(meta.args):
            label = f"kernel {name}: argument {i}" + (f" ({a.name})" if a.name else "") + f" ({a.value_kind})"

            def where(reason, label=label):
                return MalformedInput(source, None, f"{label}: {reason}")
            _check_arg(where, a, size)
            if a.hidden:
                what = HIDDEN_FIELDS.get(a.value_kind, ("zero", 0, a.size))
                hidden.append((a.offset, a.size, what[:2]))
            elif a.value_kind == "dynamic_shared_pointer":
                align = a.raw.get(".pointee_align", 4) if isinstance(a.raw, dict) else 4
                if isinstance(align, bool) or not isinstance(align, int) or not 1 <= align <= 1 << 16 \
                        or align & (align - 1):
                    raise where(f".pointee_align {align!r} is not a power of two")
                args.append(ArgSpec(len(args), a.name, a.type_name, a.offset, a.size, "lds", align))
            elif a.value_kind == "global_buffer" or a.address_space in _POINTER_SPACES:
                args.append(ArgSpec(len(args), a.name, a.type_name, a.offset, a.size, "pointer"))
            else:
                args.append(ArgSpec(len(args), a.name, a.type_name, a.offset, a.size,
                                    _scalar_kind(a.type_name, a.size)))
        spans = sorted([(s.offset, s.size, s.describe()) for s in args] +
                       [(off, n, f"hidden argument at {off}") for off, n, _ in hidden])
        for (o1, n1, d1), (o2, _, d2) in zip(spans, spans[1:]):
            if o2 < o1 + n1:
                raise MalformedInput(source, None, f"kernel {name}: {d2} (.offset {o2}) overlaps {d1} "
                                                   f"(.offset {o1}, .size {n1})")
        return cls(name, size, meta.kernarg_segment_align, args, hidden)

    @classmethod
    def sequential(cls, name, values, kd_kernarg_size=0):
        """No metadata: pointers take 8 bytes, Python ints 4 (int32), floats 4 (float32), numpy
        scalars their own size; each naturally aligned, in call order."""
        args, off = [], 0
        for i, v in enumerate(values):
            if hasattr(v, "va"):
                size, kind = 8, "pointer"
            elif isinstance(v, (np.generic,)) and isinstance(v, (np.integer, np.floating)):
                size, kind = v.dtype.itemsize, "float" if isinstance(v, np.floating) else "int"
            elif isinstance(v, float):
                size, kind = 4, "float"
            elif isinstance(v, int):
                size, kind = 4, "int"
            else:
                raise KernargError(f"{name}: argument {i} is a {type(v).__name__}; without metadata only "
                                   "buffers, ints, floats and numpy scalars can be passed")
            off = (off + size - 1) // size * size
            args.append(ArgSpec(i, "", "", off, size, kind))
            off += size
        return cls(name, max(off, kd_kernarg_size), 16, args, [])

    # -- packing --------------------------------------------------------------------------------
    def check_count(self, values):
        if len(values) != len(self.args):
            sig = ", ".join(a.type_name or a.kind for a in self.args)
            raise KernargError(f"kernel {self.kernel_name}({sig}) takes {len(self.args)} arguments, "
                               f"{len(values)} given")

    def pack_into(self, out, base, values, grid, block, queue_ptr=0, static_lds=0, device=None):
        """Write the whole segment at ``out[base:]`` (a writable buffer). Returns the LDS the
        dispatch needs: ``static_lds`` plus the dynamically sized LDS arguments, each placed
        after the previous at its pointee alignment (its offset is what the kernel gets).
        ``device``: the AMDDevice launching; its own live buffers pass without further checks,
        others go through ``device.kernarg_pointer`` (peer mapping, or a KernargError)."""
        if len(values) != len(self.args):
            self.check_count(values)
        lds = static_lds
        explicit = []
        add = explicit.append
        for spec, v in zip(self.args, values):
            kind, t = spec.kind, type(v)
            if kind == "pointer":
                if t is Buffer and v.device is device and device is not None and not v.freed:
                    add(v.va)
                else:
                    add(self.convert(spec, v, device))
            elif kind == "float" and t is float:
                add(v)
            elif kind == "int" and t is int and 0 <= v < spec.limit:
                add(v)
            elif kind == "lds":
                nbytes = self.convert(spec, v)
                lds = -(-lds // spec.align) * spec.align
                add(lds)
                lds += nbytes
            else:
                add(self.convert(spec, v, device))
        if self._hidden_fill:
            key = (grid, block, queue_ptr, lds - static_lds)
            values = explicit + (self._hidden_values if key == self._hidden_key else self._hidden(key))
        else:
            values = explicit
        if self._order is not None:
            values = [values[i] for i in self._order]
        try:
            self._struct.pack_into(out, base, *values)
        except (struct.error, OverflowError) as e:
            for spec, v in zip(self.args, explicit):       # name the value that did not fit
                if spec.kind == "float":
                    self._check_float(spec, v)
            raise KernargError(f"kernel {self.kernel_name}: the arguments do not pack into the kernarg "
                               f"segment: {e}") from None
        return lds

    def _hidden(self, key):
        grid, block, queue_ptr, dynamic_lds = key
        values = []
        for what, axis in self._hidden_fill:
            if what == "grid":
                values.append(grid[axis])
            elif what == "block":
                values.append(block[axis])
            elif what == "dims":
                values.append(3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1)
            elif what == "queue_ptr":
                values.append(queue_ptr)
            else:
                values.append(dynamic_lds)
        self._hidden_key, self._hidden_values = key, values
        return values

    def _check_float(self, spec, v):
        if math.isfinite(v) and abs(v) > _FLOAT_MAX[spec.size]:
            raise KernargError(f"kernel {self.kernel_name}: {spec.describe()} = {v!r} is out of the range of a "
                               f"{spec.size * 8}-bit float (largest finite {_FLOAT_MAX[spec.size]:.8g})")

    def convert(self, spec, v, device=None):
        """The value ``struct`` packs for ``spec``, or KernargError saying what is wrong."""
        kind = spec.kind
        if kind == "lds":
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v < 1 << 32:
                raise self._error(spec, v, "the size in bytes of its dynamic LDS array (an int >= 0)")
            return int(v)
        if kind == "pointer":
            va = getattr(v, "va", None)
            if va is None:
                raise self._error(spec, v, "a buffer (or drivers.amd.Pointer)")
            if getattr(v, "freed", False):
                raise KernargError(f"kernel {self.kernel_name}: {spec.describe()} is a freed buffer (0x{va:x})")
            if device is not None and type(v) is not Pointer and getattr(v, "device", None) is not device:
                return device.kernarg_pointer(v, f"kernel {self.kernel_name}: {spec.describe()}")
            if isinstance(va, bool) or not isinstance(va, int) or not 0 <= va < 1 << 64:
                raise self._error(spec, v, "a buffer (or drivers.amd.Pointer) with a 64-bit address")
            return va
        if hasattr(v, "va"):
            raise self._error(spec, v, f"a {spec.size}-byte {kind} value")
        if isinstance(v, np.generic):
            if v.dtype.itemsize == spec.size and (kind == "bytes" or (kind == "float") == isinstance(v, np.floating)):
                return struct.unpack("<" + spec.fmt, v.tobytes())[0]
            if kind == "float" and isinstance(v, (np.integer, np.floating)):
                v = float(v)
            elif kind == "int" and isinstance(v, np.integer):
                v = int(v)
            else:
                raise self._error(spec, v, f"a {spec.size}-byte {kind}")
        if kind == "float":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise self._error(spec, v, "a float")
            try:
                v = float(v)
            except OverflowError:
                raise KernargError(f"kernel {self.kernel_name}: {spec.describe()} = {_short(v)} is out of the range "
                                   f"of a {spec.size * 8}-bit float") from None
            self._check_float(spec, v)
            return v
        if kind == "int":
            if isinstance(v, bool):
                v = int(v)
            if not isinstance(v, int):
                raise self._error(spec, v, f"an integer ({spec.size * 8}-bit)")
            bits = spec.size * 8
            if not -(1 << (bits - 1)) <= v < (1 << bits):
                raise KernargError(f"kernel {self.kernel_name}: {spec.describe()} = {v} does not fit in {bits} bits")
            return v & ((1 << bits) - 1)
        try:
            data = bytes(v) if isinstance(v, (bytes, bytearray)) else np.asarray(v).tobytes()
        except (TypeError, ValueError):
            raise self._error(spec, v, f"{spec.size} bytes") from None
        if len(data) != spec.size:
            raise self._error(spec, v, f"{spec.size} bytes")
        return data

    def _error(self, spec, v, wanted):
        shown = type(v).__name__ if hasattr(v, "va") else _short(v)
        return KernargError(f"kernel {self.kernel_name}: {spec.describe()} must be {wanted}, got {shown}")


def _short(v):
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."
