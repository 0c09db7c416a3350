"""Kernel argument (kernarg) segments: explicit arguments from the code object's metadata and
the code object v5 hidden arguments the runtime fills (grid shape, queue pointer...).

The layout is computed once per kernel (:class:`KernargLayout`); packing a launch is then a
loop of ``struct.pack_into`` calls. Values are checked against the metadata: a buffer where a
number is expected, a float for an integer, a number that does not fit, or the wrong number of
arguments is a :class:`KernargError` naming the argument's index, name and type.
"""
import struct

import numpy as np

from drivers.errors import KernargError  # noqa: F401 (part of this module's interface)


class Pointer:
    """A raw GPU virtual address passed where the kernel expects a pointer."""
    __slots__ = ("va",)

    def __init__(self, va):
        self.va = int(va)

    def __repr__(self):
        return f"Pointer(0x{self.va:x})"


_FLOAT_TYPES = {"float": 4, "double": 8, "half": 2, "_Float16": 2, "bfloat": 2, "__bf16": 2}
_INT_FORMATS = {1: "B", 2: "H", 4: "I", 8: "Q"}
_FLOAT_FORMATS = {2: "e", 4: "f", 8: "d"}

# Hidden argument value kinds and what each holds (AMDGPUUsage, code object v5).
HIDDEN_FIELDS = {
    "hidden_block_count_x": ("grid", 0), "hidden_block_count_y": ("grid", 1), "hidden_block_count_z": ("grid", 2),
    "hidden_group_size_x": ("block", 0), "hidden_group_size_y": ("block", 1), "hidden_group_size_z": ("block", 2),
    "hidden_remainder_x": ("zero", 0), "hidden_remainder_y": ("zero", 0), "hidden_remainder_z": ("zero", 0),
    "hidden_global_offset_x": ("zero", 0), "hidden_global_offset_y": ("zero", 0),
    "hidden_global_offset_z": ("zero", 0), "hidden_grid_dims": ("dims", 0),
    "hidden_queue_ptr": ("queue_ptr", 0), "hidden_dynamic_lds_size": ("dynamic_lds", 0),
}


class ArgSpec:
    """One explicit argument: where it goes and what it accepts ('pointer', 'float', 'int', or
    'lds': a dynamically sized LDS array, given as its size in bytes, passed as its LDS offset)."""
    __slots__ = ("index", "name", "type_name", "offset", "size", "kind", "fmt", "align", "limit")

    def __init__(self, index, name, type_name, offset, size, kind, align=4):
        self.index, self.name, self.type_name, self.offset, self.size, self.kind = \
            index, name, type_name, offset, size, kind
        self.align, self.limit = align, 1 << (8 * size)
        self.fmt = "<" + ((_FLOAT_FORMATS if kind == "float" else _INT_FORMATS).get(size) or f"{size}s")

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


class KernargLayout:
    """Where every explicit and hidden argument of one kernel lives in its kernarg segment."""

    def __init__(self, kernel_name, size, align, args, hidden):
        self.kernel_name, self.size, self.align = kernel_name, size, max(16, align)
        self.args, self.hidden = args, hidden        # [ArgSpec], [(offset, size, (what, axis))]

    @classmethod
    def from_metadata(cls, name, meta, kd_kernarg_size=0):
        args, hidden = [], []
        for a in meta.args:
            if a.hidden:
                what = HIDDEN_FIELDS.get(a.value_kind, ("zero", 0))
                hidden.append((a.offset, a.size, what))
            elif a.value_kind == "dynamic_shared_pointer":
                align = a.raw.get(".pointee_align", 4) if isinstance(a.raw, dict) else 4
                args.append(ArgSpec(len(args), a.name, a.type_name, a.offset, a.size, "lds", max(1, int(align))))
            elif a.value_kind == "global_buffer" or a.address_space in ("global", "generic"):
                args.append(ArgSpec(len(args), a.name, a.type_name, a.offset, a.size, "pointer"))
            else:
                args.append(ArgSpec(len(args), a.name, a.type_name, a.offset, a.size,
                                    _scalar_kind(a.type_name, a.size)))
        size = max(meta.kernarg_segment_size, kd_kernarg_size)
        return cls(name, size, meta.kernarg_segment_align, args, hidden)

    @classmethod
    def sequential(cls, name, values, kd_kernarg_size=0):
        """No metadata: pointers take 8 bytes, Python ints 4 (int32), floats 4 (float32), numpy
        scalars their own size; each naturally aligned, in call order."""
        args, off = [], 0
        for i, v in enumerate(values):
            if hasattr(v, "va"):
                size, kind = 8, "pointer"
            elif isinstance(v, (np.generic,)):
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

    def pack_into(self, out, base, values, grid, block, queue_ptr=0, static_lds=0):
        """Write the whole segment at ``out[base:]`` (a writable buffer, pre-zeroed). Returns the
        LDS the dispatch needs: ``static_lds`` plus the dynamically sized LDS arguments, each
        placed after the previous at its pointee alignment (its offset is what the kernel gets)."""
        self.check_count(values)
        lds = static_lds
        for spec, v in zip(self.args, values):
            if spec.kind == "lds":
                nbytes = self.convert(spec, v)
                lds = -(-lds // spec.align) * spec.align
                struct.pack_into(spec.fmt, out, base + spec.offset, lds)
                lds += nbytes
            else:
                self.pack_arg(out, base, spec, v)
        for off, size, (what, axis) in self.hidden:
            if what == "grid":
                value = grid[axis]
            elif what == "block":
                value = block[axis]
            elif what == "dims":
                value = 3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1
            elif what == "queue_ptr":
                value = queue_ptr
            elif what == "dynamic_lds":
                value = lds - static_lds
            else:
                continue
            struct.pack_into(_INT_FORMATS[size], out, base + off, value)
        return lds

    def pack_arg(self, out, base, spec, v):
        # the common cases first (a live buffer, a float, an in-range int); the rest is checked
        kind, t = spec.kind, type(v)
        if kind == "pointer" and t is not Pointer and hasattr(v, "freed") and not v.freed:
            value = v.va
        elif kind == "float" and t is float:
            value = v
        elif kind == "int" and t is int and 0 <= v < spec.limit:
            value = v
        else:
            value = self.convert(spec, v)
        struct.pack_into(spec.fmt, out, base + spec.offset, value)

    def convert(self, spec, v):
        """The value ``struct`` packs for ``spec``, or KernargError saying what is wrong."""
        kind = spec.kind
        if kind == "lds":
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise self._error(spec, v, "the size in bytes of its dynamic LDS array (an int >= 0)")
            return int(v)
        if kind == "pointer":
            va = getattr(v, "va", None)
            if va is None:
                raise self._error(spec, v, "a buffer (or drivers.amd.Pointer)")
            if getattr(v, "freed", False):
                raise KernargError(f"kernel {self.kernel_name}: {spec.describe()} is a freed buffer (0x{va:x})")
            return va
        if hasattr(v, "va"):
            raise self._error(spec, v, f"a {spec.size}-byte {kind} value")
        if isinstance(v, np.generic):
            if v.dtype.itemsize == spec.size and (kind == "bytes" or (kind == "float") == isinstance(v, np.floating)):
                return struct.unpack(spec.fmt, v.tobytes())[0]
            if kind == "float" and isinstance(v, (np.integer, np.floating)):
                return float(v)
            if kind == "int" and isinstance(v, np.integer):
                v = int(v)
            else:
                raise self._error(spec, v, f"a {spec.size}-byte {kind}")
        if kind == "float":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise self._error(spec, v, "a float")
            return float(v)
        if kind == "int":
            if isinstance(v, bool):
                v = int(v)
            if not isinstance(v, int):
                raise self._error(spec, v, f"an integer ({spec.size * 8}-bit)")
            bits = spec.size * 8
            if not -(1 << (bits - 1)) <= v < (1 << bits):
                raise KernargError(f"kernel {self.kernel_name}: {spec.describe()} = {v} does not fit in {bits} bits")
            return v & ((1 << bits) - 1)
        data = bytes(v) if isinstance(v, (bytes, bytearray)) else np.asarray(v).tobytes()
        if len(data) != spec.size:
            raise self._error(spec, v, f"{spec.size} bytes")
        return data

    def _error(self, spec, v, wanted):
        shown = type(v).__name__ if hasattr(v, "va") else repr(v)
        return KernargError(f"kernel {self.kernel_name}: {spec.describe()} must be {wanted}, got {shown}")
