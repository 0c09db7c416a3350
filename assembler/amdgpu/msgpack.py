"""A small MessagePack codec for the AMDGPU metadata note (NT_AMDGPU_METADATA).

Supported: nil, bool, int (positive/negative fixint, uint8..64, int8..64), float32/64,
str (fixstr, str8/16/32), bin (bin8/16/32), array (fixarray, array16/32) and map (fixmap,
map16/32). Extension types are rejected. The encoder always picks the shortest form, as LLVM's
msgpack writer does, and writes dict entries in the dict's own order, so decoding an LLVM note
and encoding it again reproduces the original bytes.

Decoded maps are plain dicts, arrays lists, str values str, bin values bytes; a float32 is
returned as `Float32` (a float subclass) so that it is written back as float32.
"""
import struct

from assembler.errors import MalformedInput


class Float32(float):
    """A float that is encoded as MessagePack float32 (0xca) rather than float64."""


def packb(obj):
    """Encode `obj` (None, bool, int, float, str, bytes, list/tuple, dict) to MessagePack bytes."""
    out = bytearray()
    _pack(obj, out, "$")
    return bytes(out)


def _pack(obj, out, path):
    if obj is None:
        out.append(0xC0)
    elif obj is True:
        out.append(0xC3)
    elif obj is False:
        out.append(0xC2)
    elif isinstance(obj, int):
        _pack_int(obj, out, path)
    elif isinstance(obj, Float32):
        out += b"\xca" + struct.pack(">f", obj)
    elif isinstance(obj, float):
        out += b"\xcb" + struct.pack(">d", obj)
    elif isinstance(obj, str):
        raw = obj.encode("utf-8")
        _pack_header(len(raw), out, path, fix=(0xA0, 31), forms=((0xD9, "B"), (0xDA, ">H"), (0xDB, ">I")))
        out += raw
    elif isinstance(obj, (bytes, bytearray, memoryview)):
        raw = bytes(obj)
        _pack_header(len(raw), out, path, fix=None, forms=((0xC4, "B"), (0xC5, ">H"), (0xC6, ">I")))
        out += raw
    elif isinstance(obj, (list, tuple)):
        _pack_header(len(obj), out, path, fix=(0x90, 15), forms=((0xDC, ">H"), (0xDD, ">I")))
        for i, item in enumerate(obj):
            _pack(item, out, f"{path}[{i}]")
    elif isinstance(obj, dict):
        _pack_header(len(obj), out, path, fix=(0x80, 15), forms=((0xDE, ">H"), (0xDF, ">I")))
        for key, value in obj.items():
            _pack(key, out, f"{path}.key")
            _pack(value, out, f"{path}[{key!r}]")
    else:
        raise ValueError(f"msgpack: cannot encode {type(obj).__name__} at {path}")


_UINT_FORMS = ((0xCC, "B", 0xFF), (0xCD, ">H", 0xFFFF), (0xCE, ">I", 0xFFFFFFFF),
               (0xCF, ">Q", 0xFFFFFFFFFFFFFFFF))
_INT_FORMS = ((0xD0, "b", 7), (0xD1, ">h", 15), (0xD2, ">i", 31), (0xD3, ">q", 63))


def _pack_int(value, out, path):
    if 0 <= value <= 0x7F:
        out.append(value)
        return
    if -32 <= value < 0:
        out.append(value & 0xFF)
        return
    if value > 0:
        for tag, fmt, top in _UINT_FORMS:
            if value <= top:
                out += bytes([tag]) + struct.pack(fmt, value)
                return
    else:
        for tag, fmt, bits in _INT_FORMS:
            if value >= -(1 << bits):
                out += bytes([tag]) + struct.pack(fmt, value)
                return
    raise ValueError(f"msgpack: integer {value} at {path} does not fit in 64 bits")


def _pack_header(length, out, path, fix, forms):
    if fix is not None and length <= fix[1]:
        out.append(fix[0] | length)
        return
    for tag, fmt in forms:
        if length < (1 << (8 * struct.calcsize(fmt))):
            out += bytes([tag]) + struct.pack(fmt, length)
            return
    raise ValueError(f"msgpack: length {length} at {path} does not fit in 32 bits")


def unpackb(data, source="<msgpack>"):
    """Decode one MessagePack object that must span all of `data`.

    Errors raise MalformedInput naming `source` and the byte offset of the problem.
    """
    reader = _Reader(bytes(data), source)
    obj = reader.read(0)
    if reader.pos != len(reader.data):
        reader.fail(reader.pos, f"{len(reader.data) - reader.pos} trailing bytes after the object")
    return obj


_MAX_DEPTH = 64


class _Reader:
    def __init__(self, data, source):
        self.data, self.source, self.pos = data, source, 0

    def fail(self, offset, reason):
        raise MalformedInput(self.source, None, f"msgpack at offset {offset}: {reason}")

    def take(self, n, what, start):
        end = self.pos + n
        if end > len(self.data):
            self.fail(start, f"truncated {what}: needs {n} bytes at offset {self.pos}, "
                             f"only {len(self.data) - self.pos} left")
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def unpack(self, fmt, what, start):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what, start))[0]

    def read(self, depth):
        start = self.pos
        if depth > _MAX_DEPTH:
            self.fail(start, f"nesting deeper than {_MAX_DEPTH}")
        if self.pos >= len(self.data):
            self.fail(start, "truncated: expected an object, found end of data")
        tag = self.data[self.pos]
        self.pos += 1
        if tag <= 0x7F:
            return tag
        if tag >= 0xE0:
            return tag - 0x100
        if 0x80 <= tag <= 0x8F:
            return self.read_map(tag & 0x0F, depth, start)
        if 0x90 <= tag <= 0x9F:
            return self.read_array(tag & 0x0F, depth, start)
        if 0xA0 <= tag <= 0xBF:
            return self.read_str(tag & 0x1F, start)
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if tag in simple:
            return simple[tag]
        if tag in _FIXED_FORMS:
            fmt, what = _FIXED_FORMS[tag]
            value = self.unpack(fmt, what, start)
            return Float32(value) if tag == 0xCA else value
        if tag in _LENGTH_FORMS:
            fmt, kind = _LENGTH_FORMS[tag]
            length = self.unpack(fmt, f"{kind} length", start)
            if kind == "str":
                return self.read_str(length, start)
            if kind == "bin":
                return self.take(length, "bin", start)
            if kind == "array":
                return self.read_array(length, depth, start)
            return self.read_map(length, depth, start)
        if tag == 0xC1:
            self.fail(start, "byte 0xc1 is never used in MessagePack")
        self.fail(start, f"extension type 0x{tag:02x} is not supported")

    def read_str(self, length, start):
        raw = self.take(length, "str", start)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as err:
            self.fail(start, f"str is not valid UTF-8 ({err.reason} at byte {err.start})")

    def read_array(self, length, depth, start):
        return [self.read(depth + 1) for _ in range(length)]

    def read_map(self, length, depth, start):
        result = {}
        for _ in range(length):
            key_at = self.pos
            key = self.read(depth + 1)
            if isinstance(key, (list, dict)):
                self.fail(key_at, "map key is an array or map")
            if key in result:
                self.fail(key_at, f"duplicate map key {key!r}")
            result[key] = self.read(depth + 1)
        return result


_FIXED_FORMS = {
    0xCA: (">f", "float32"), 0xCB: (">d", "float64"),
    0xCC: ("B", "uint8"), 0xCD: (">H", "uint16"), 0xCE: (">I", "uint32"), 0xCF: (">Q", "uint64"),
    0xD0: ("b", "int8"), 0xD1: (">h", "int16"), 0xD2: (">i", "int32"), 0xD3: (">q", "int64"),
}
_LENGTH_FORMS = {
    0xC4: ("B", "bin"), 0xC5: (">H", "bin"), 0xC6: (">I", "bin"),
    0xD9: ("B", "str"), 0xDA: (">H", "str"), 0xDB: (">I", "str"),
    0xDC: (">H", "array"), 0xDD: (">I", "array"),
    0xDE: (">H", "map"), 0xDF: (">I", "map"),
}
