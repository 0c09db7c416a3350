"""Our MessagePack codec: exact bytes for every form, round trips, a real clang-19 note, errors."""
import random
import struct

import pytest

from assembler.amdgpu.msgpack import Float32, packb, unpackb
from drivers.errors import MalformedInput
from tests.test_amdgpu_codeobj_support import read_data

KNOWN = [
    (None, "c0"), (False, "c2"), (True, "c3"),
    (0, "00"), (127, "7f"), (128, "cc80"), (255, "ccff"), (256, "cd0100"), (65535, "cdffff"),
    (65536, "ce00010000"), (2**32 - 1, "ceffffffff"), (2**32, "cf0000000100000000"),
    (2**64 - 1, "cf" + "ff" * 8),
    (-1, "ff"), (-32, "e0"), (-33, "d0df"), (-128, "d080"), (-129, "d1ff7f"), (-32768, "d18000"),
    (-32769, "d2ffff7fff"), (-2**31, "d280000000"), (-2**31 - 1, "d3ffffffff7fffffff"), (-2**63, "d38000000000000000"),
    (1.5, "cb3ff8000000000000"), (Float32(1.5), "ca3fc00000"),
    ("", "a0"), ("a", "a161"), ("x" * 31, "bf" + "78" * 31), ("x" * 32, "d920" + "78" * 32),
    ("x" * 256, "da0100" + "78" * 256), ("é", "a2c3a9"),
    (b"", "c400"), (b"\x01\x02", "c4020102"), (b"\0" * 256, "c50100" + "00" * 256),
    ([], "90"), ([1, 2], "920102"), ([0] * 15, "9f" + "00" * 15), ([0] * 16, "dc0010" + "00" * 16),
    ({}, "80"), ({"a": 1}, "81a16101"), ({i: 0 for i in range(16)}, "de0010" + "".join(f"{i:02x}00" for i in range(16))),
]


@pytest.mark.parametrize("value,hexbytes", KNOWN, ids=lambda v: repr(v)[:20] if not isinstance(v, str) or len(v) < 40 else "")
def test_exact_encoding_and_back(value, hexbytes):
    assert packb(value).hex() == hexbytes
    decoded = unpackb(bytes.fromhex(hexbytes))
    assert decoded == value and type(decoded) is type(value)


def test_large_forms():
    big = "y" * 70000
    assert packb(big)[:5] == b"\xdb" + struct.pack(">I", 70000) and unpackb(packb(big)) == big
    arr = list(range(70000))
    assert packb(arr)[:5] == b"\xdd" + struct.pack(">I", 70000) and unpackb(packb(arr)) == arr
    m = {str(i): i for i in range(70000)}
    assert packb(m)[:5] == b"\xdf" + struct.pack(">I", 70000) and unpackb(packb(m)) == m
    blob = bytes(70000)
    assert packb(blob)[:5] == b"\xc6" + struct.pack(">I", 70000) and unpackb(packb(blob)) == blob


def test_decoding_accepts_non_minimal_forms():
    assert unpackb(bytes.fromhex("cd0001")) == 1            # uint16 holding 1
    assert unpackb(bytes.fromhex("d9016178")[:-1]) == "a"    # str8 of length 1
    assert unpackb(bytes.fromhex("dc000101")) == [1]
    assert unpackb(bytes.fromhex("de0001a16102")) == {"a": 2}


def test_random_round_trips():
    rng = random.Random(1234)

    def make(depth):
        kind = rng.randrange(9 if depth < 3 else 7)
        if kind == 0:
            return rng.choice([None, True, False])
        if kind in (1, 2):
            return rng.randint(-2**63, 2**64 - 1) >> rng.randrange(64)
        if kind == 3:
            return rng.uniform(-1e9, 1e9)
        if kind == 4:
            return Float32(struct.unpack(">f", struct.pack(">f", rng.uniform(-1e6, 1e6)))[0])
        if kind == 5:
            return "".join(rng.choice("abcé.") for _ in range(rng.randrange(40)))
        if kind == 6:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        if kind == 7:
            return [make(depth + 1) for _ in range(rng.randrange(20))]
        return {f"k{i}": make(depth + 1) for i in range(rng.randrange(20))}

    for _ in range(300):
        value = make(0)
        raw = packb(value)
        assert unpackb(raw) == value and packb(unpackb(raw)) == raw


def _note_desc(hsaco):
    from elftools.elf.elffile import ELFFile
    import io
    note = ELFFile(io.BytesIO(hsaco)).get_section_by_name(".note").data()
    namesz, descsz, ntype = struct.unpack_from("<III", note)
    assert (namesz, ntype, note[12:19]) == (7, 32, b"AMDGPU\0")
    return note[20:20 + descsz]


@pytest.mark.parametrize("name", ["saxpy", "implicit", "table"])
def test_clang_note_decodes_and_reencodes_byte_for_byte(name):
    desc = _note_desc(read_data(f"{name}.hsaco", "rb"))
    doc = unpackb(desc)
    assert doc["amdhsa.version"] == [1, 2] and doc["amdhsa.target"] == "amdgcn-amd-amdhsa--gfx1100"
    assert packb(doc) == desc


def test_encode_errors():
    with pytest.raises(ValueError, match=r"cannot encode set at \$\[1\]"):
        packb([1, {2}])
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        packb(2**64)
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        packb(-2**63 - 1)


@pytest.mark.parametrize("hexbytes,message", [
    ("", "offset 0: truncated: expected an object"),
    ("cd01", "offset 0: truncated uint16: needs 2 bytes at offset 1, only 1 left"),
    ("a561", "offset 0: truncated str: needs 5 bytes at offset 1, only 1 left"),
    ("9201", "offset 2: truncated: expected an object"),
    ("82a16101a162", "offset 6: truncated: expected an object"),
    ("c1", "offset 0: byte 0xc1 is never used"),
    ("d40100", "offset 0: extension type 0xd4 is not supported"),
    ("c7010100", "offset 0: extension type 0xc7 is not supported"),
    ("0102", "offset 1: 1 trailing bytes after the object"),
    ("a2c328", "offset 0: str is not valid UTF-8"),
    ("82a16101a16102", "offset 4: duplicate map key 'a'"),
    ("8191010203", "offset 1: map key is an array or map"),
    ("db00000010", "offset 0: truncated str: needs 16 bytes at offset 5, only 0 left"),
])
def test_decode_errors_name_the_offset(hexbytes, message):
    with pytest.raises(MalformedInput) as info:
        unpackb(bytes.fromhex(hexbytes), source="note.bin")
    assert str(info.value).startswith("note.bin: msgpack at ") and message in str(info.value)


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(MalformedInput, match="nesting deeper than 64"):
        unpackb(b"\x91" * 100 + b"\x00")


def test_random_garbage_fails_only_with_malformed_input():
    rng = random.Random(5)
    sample = packb({"a": [1, 2, {"b": "xyz"}], "c": -5, "d": 1.5, "e": b"\x00\x01"})
    for _ in range(2000):
        if rng.random() < 0.5:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        else:
            data = bytearray(sample)
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            unpackb(bytes(data))
        except MalformedInput:
            pass
