"""State dicts and safetensors: our writer and reader against the `safetensors` package (the
reference implementation, test-only): it reads our files, we read its files, our bytes equal
its bytes for the same tensors, and a damaged file gives an error naming the file and the
problem (the reference rejects those files too)."""
import json
import os

import numpy as np
import pytest

from tensor import ShapeError, Tensor, dtypes, nn
from tensor.nn.state import CODES, SafetensorsError, safe_load, safe_load_metadata, safe_save

try:
    import safetensors
    import safetensors.numpy as st_numpy
except ImportError:                      # pragma: no cover - depends on the environment
    safetensors = None

needs_reference = pytest.mark.skipif(safetensors is None, reason="needs the safetensors package "
                                     "(pip install -e '.[test]')")


def sample_tensors():
    """One tensor of every dtype, with a 0-d, an empty and a non-contiguous one among them."""
    rng = np.random.default_rng(0)
    out = {
        "bool": Tensor(rng.integers(0, 2, (3, 2)).astype(bool)),
        "u8": Tensor(rng.integers(0, 256, (4,)).astype(np.uint8)),
        "i8": Tensor(rng.integers(-128, 128, (2, 3)).astype(np.int8)),
        "i16": Tensor(rng.integers(-3000, 3000, (5,)).astype(np.int16)),
        "u32": Tensor(rng.integers(0, 2 ** 32, (2, 2), dtype=np.uint64).astype(np.uint32)),
        "i32": Tensor(np.array(-7, np.int32)),
        "i64": Tensor(rng.integers(-2 ** 62, 2 ** 62, (3,))),
        "f16": Tensor(rng.standard_normal((2, 2)).astype(np.float16)),
        "bf16": Tensor(rng.standard_normal((3, 4)).astype(np.float32)).cast(dtypes.bfloat16),
        "f32.T": Tensor(rng.standard_normal((3, 5)).astype(np.float32)).T,
        "f64": Tensor(rng.standard_normal((2, 1, 3))),
        "empty": Tensor(np.zeros((0, 4), np.float32)),
    }
    assert {t.dtype for t in out.values()} == set(CODES)
    return out


def bits(t):
    """A tensor's stored values (bfloat16 as bit patterns) for exact comparison."""
    return t.bitcast(dtypes.int16).numpy() if t.dtype is dtypes.bfloat16 else t.numpy()


def test_round_trip_of_every_dtype(tmp_path):
    path = str(tmp_path / "all.safetensors")
    tensors = sample_tensors()
    safe_save(tensors, path, metadata={"format": "pt", "note": "ünïcode"})
    loaded = safe_load(path)
    assert set(loaded) == set(tensors)
    for name, t in tensors.items():
        assert loaded[name].dtype is t.dtype and loaded[name].shape == t.shape, name
        np.testing.assert_array_equal(bits(loaded[name]), bits(t), err_msg=name)
    info, meta = safe_load_metadata(path)
    assert meta == {"format": "pt", "note": "ünïcode"} and info["bf16"] == ("BF16", (3, 4))
    # the reference's layout: header padded to 8 bytes, wider types first, each tensor aligned
    data = open(path, "rb").read()
    n = int.from_bytes(data[:8], "little")
    assert n % 8 == 0
    header = json.loads(data[8:8 + n])
    for name, entry in header.items():
        if name != "__metadata__":
            assert entry["data_offsets"][0] % np.dtype(CODES_NP[entry["dtype"]]).itemsize == 0


CODES_NP = {"BOOL": "?", "U8": "u1", "I8": "i1", "I16": "i2", "U32": "u4", "I32": "i4", "I64": "i8",
            "F16": "f2", "BF16": "u2", "F32": "f4", "F64": "f8"}


@needs_reference
def test_the_reference_reads_our_files(tmp_path):
    path = str(tmp_path / "ours.safetensors")
    tensors = sample_tensors()
    safe_save(tensors, path)
    raw = dict(safetensors.deserialize(open(path, "rb").read()))      # every dtype, as bytes
    assert set(raw) == set(tensors)
    for name, t in tensors.items():
        assert raw[name]["dtype"] == CODES[t.dtype] and raw[name]["shape"] == list(t.shape), name
        want = np.ascontiguousarray(bits(t)).reshape(t.shape)
        np.testing.assert_array_equal(np.frombuffer(bytes(raw[name]["data"]), want.dtype).reshape(t.shape),
                                      want, err_msg=name)
    # its numpy loader (which has no bfloat16) gives the same arrays
    del tensors["bf16"]
    safe_save(tensors, path)
    theirs = st_numpy.load_file(path)
    for name, t in tensors.items():
        assert theirs[name].dtype == t.dtype.np, name
        np.testing.assert_array_equal(theirs[name], t.numpy(), err_msg=name)


def _reference_bytes(arrays, metadata=None):
    """The reference writer's bytes for {name: (numpy storage array, dtype name)}."""
    if hasattr(safetensors, "TensorSpec"):
        specs = {k: safetensors.TensorSpec(dtype=dt, shape=list(a.shape), data_ptr=a.ctypes.data,
                                           data_len=a.nbytes) for k, (a, dt) in arrays.items()}
    else:                                              # safetensors before 0.7 takes plain dicts
        specs = {k: {"dtype": dt, "shape": list(a.shape), "data": a.tobytes()} for k, (a, dt) in arrays.items()}
    return bytes(safetensors.serialize(specs, metadata=metadata))


@needs_reference
def test_our_bytes_are_the_references(tmp_path):
    tensors = sample_tensors()
    arrays = {}
    for name, t in tensors.items():
        a = np.ascontiguousarray(bits(t)).reshape(t.shape)
        a = a.view(np.uint16) if t.dtype is dtypes.bfloat16 else a
        arrays[name] = (a, "bfloat16" if t.dtype is dtypes.bfloat16 else a.dtype.name)
    path = str(tmp_path / "ours.safetensors")
    safe_save(tensors, path, metadata={"framework": "tensor"})
    assert open(path, "rb").read() == _reference_bytes(arrays, {"framework": "tensor"})


@needs_reference
def test_we_read_the_references_files(tmp_path):
    rng = np.random.default_rng(1)
    arrays = {"w": rng.standard_normal((4, 3)).astype(np.float32), "b": rng.standard_normal(3),
              "h": rng.standard_normal((2, 2)).astype(np.float16), "i": np.arange(-3, 3, dtype=np.int64),
              "m": np.array([True, False]), "u": np.arange(5, dtype=np.uint8), "s": np.array(-4, np.int16),
              "x": np.arange(4, dtype=np.uint32), "y": np.arange(6, dtype=np.int8).reshape(2, 3)}
    path = str(tmp_path / "theirs.safetensors")
    st_numpy.save_file(arrays, path, metadata={"k": "v"})
    loaded = safe_load(path)
    for name, a in arrays.items():
        assert loaded[name].dtype.np == a.dtype and loaded[name].shape == a.shape, name
        np.testing.assert_array_equal(loaded[name].numpy(), a, err_msg=name)
    assert safe_load_metadata(path)[1] == {"k": "v"}
    bf = np.array([0x3F80, 0xC040, 0x7F80, 0x0001], np.uint16)       # 1, -3, inf, a subnormal
    with open(path, "wb") as f:
        f.write(_reference_bytes({"bf": (bf, "bfloat16")}))
    t = safe_load(path)["bf"]
    assert t.dtype is dtypes.bfloat16
    np.testing.assert_array_equal(t.numpy(), (bf.astype(np.uint32) << 16).view(np.float32))


def _file(header, data=b"", raw_header=None, pad=True):
    text = raw_header if raw_header is not None else json.dumps(header).encode()
    if pad:
        text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text + data


GOOD = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
        "b": {"dtype": "I8", "shape": [3], "data_offsets": [8, 11]}}
DAMAGED = {
    "too_short": (b"\x08\x00\x00", "3 bytes is too short for a safetensors file"),
    "huge_header": ((2 ** 40).to_bytes(8, "little") + b"{}", "header length 1099511627776 is over the"),
    "truncated_header": (_file(GOOD, bytes(11))[:30], "the header says it is 128 bytes but only 22 follow"),
    "not_utf8": (_file(None, raw_header=b'{"a\xff": 1}'), "the header is not UTF-8 text"),
    "not_json": (_file(None, raw_header=b'{"a": [0, 8}'), "the header is not valid JSON"),
    "not_object": (_file(None, raw_header=b'[1, 2]'), "the header is not a JSON object"),
    "duplicate": (_file(None, raw_header=b'{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},'
                        b'"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}', data=bytes(2)),
                  "the header names 'a' twice"),
    "missing_field": (_file({"a": {"dtype": "F32", "shape": [2]}}, bytes(8)),
                      "tensor 'a': needs exactly dtype, shape and data_offsets"),
    "unknown_dtype": (_file({"a": {"dtype": "F33", "shape": [2], "data_offsets": [0, 8]}}, bytes(8)),
                      "tensor 'a': unknown dtype 'F33'"),
    "bad_shape": (_file({"a": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}}, bytes(8)),
                  "tensor 'a': shape must be a list of non-negative integers"),
    "bad_offsets": (_file({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}}, bytes(8)),
                    "tensor 'a': data_offsets must be \\[begin, end\\] with 0 <= begin <= end"),
    "size_mismatch": (_file({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, bytes(8)),
                      "tensor 'a': shape \\[3\\] of F32 needs 12 bytes, data_offsets \\[0, 8\\] hold 8"),
    "gap": (_file({"a": {"dtype": "U8", "shape": [2], "data_offsets": [0, 2]},
                   "b": {"dtype": "U8", "shape": [2], "data_offsets": [4, 6]}}, bytes(6)),
            "tensor 'b' starts at data byte 4, where the tensor before it ends at 2: it leaves a gap of 2 bytes"),
    "overlap": (_file({"a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]},
                       "b": {"dtype": "U8", "shape": [2], "data_offsets": [2, 4]}}, bytes(4)),
                "tensor 'b' starts at data byte 2, where the tensor before it ends at 4: it overlaps"),
    "truncated_data": (_file(GOOD, bytes(9)), "the tensors need 11 bytes of data but the file holds 9"),
    "trailing_bytes": (_file(GOOD, bytes(14)), "3 bytes after the last tensor's data"),
    "bad_metadata": (_file({"__metadata__": {"k": 1}, **GOOD}, bytes(11)), "__metadata__ must map strings to strings"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_a_damaged_file_says_which_file_and_what_is_wrong(tmp_path, case):
    data, message = DAMAGED[case]
    path = str(tmp_path / f"{case}.safetensors")
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(SafetensorsError, match=f"^{path}: .*{message}"):
        safe_load(path)
    with pytest.raises(SafetensorsError, match=message):
        safe_load_metadata(path)
    if safetensors is not None:                       # the reference refuses it too
        with pytest.raises(Exception):
            safetensors.deserialize(data)


def test_the_good_file_of_the_damaged_ones_loads(tmp_path):
    path = str(tmp_path / "good.safetensors")
    with open(path, "wb") as f:
        f.write(_file(GOOD, np.array([1.5, -2], "<f4").tobytes() + bytes([1, 2, 255])))
    t = safe_load(path)
    assert t["a"].tolist() == [1.5, -2.0] and t["b"].tolist() == [1, 2, -1]


def test_unsupported_dtypes_and_names_are_refused_clearly(tmp_path):
    path = str(tmp_path / "u16.safetensors")
    with open(path, "wb") as f:
        f.write(_file({"q": {"dtype": "U16", "shape": [1], "data_offsets": [0, 2]}}, bytes(2)))
    assert safe_load_metadata(path)[0] == {"q": ("U16", (1,))}           # inspecting works
    with pytest.raises(SafetensorsError, match="tensor 'q' has dtype U16, which the tensor library does not have"):
        safe_load(path)
    with pytest.raises(SafetensorsError, match="cannot open"):
        safe_load(str(tmp_path / "missing.safetensors"))
    with pytest.raises(SafetensorsError, match="'x' is a list, not a Tensor"):
        safe_save({"x": [1, 2]}, path)
    with pytest.raises(SafetensorsError, match="metadata must map strings to strings"):
        safe_save({"x": Tensor.ones(1)}, path, metadata={"epoch": 3})
    with pytest.raises(SafetensorsError, match="nowhere/x.safetensors: cannot write: No such file or directory"):
        safe_save({"x": Tensor.ones(1)}, str(tmp_path / "nowhere" / "x.safetensors"))


def _model():
    return nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3))


def test_a_model_round_trips_through_a_file(tmp_path):
    Tensor.manual_seed(1)
    a = _model()
    a(Tensor.randn(4, 1, 4, 4)).realize()                 # moves BatchNorm's running statistics
    a.eval()
    path = str(tmp_path / "model.safetensors")
    nn.safe_save(a.state_dict(), path)
    Tensor.manual_seed(2)
    b = _model().eval()
    x = Tensor.randn(2, 1, 4, 4)
    assert not np.allclose(a(x).numpy(), b(x).numpy())
    buffers = [t.node.buffer for t in b.state_dict().values()]
    result = b.load_state_dict(nn.safe_load(path))
    assert result.missing_keys == [] and result.unexpected_keys == []
    np.testing.assert_array_equal(a(x).numpy(), b(x).numpy())
    assert [t.node.buffer for t in b.state_dict().values()] == buffers        # loaded in place
    assert b[1].num_batches_tracked.item() == 1
    # a bfloat16 checkpoint loads into a float32 model, cast
    half = {k: (v.cast(dtypes.bfloat16) if v.dtype.is_float else v) for k, v in a.state_dict().items()}
    nn.safe_save(half, path)
    b.load_state_dict(nn.safe_load(path))
    np.testing.assert_allclose(b[4].weight.numpy(), a[4].weight.numpy(), rtol=1e-2)
    assert b[4].weight.dtype is dtypes.float32


def test_load_state_dict_names_missing_unexpected_and_misshapen_keys():
    m = _model()
    sd = {k: v.numpy() for k, v in m.state_dict().items()}
    partial = dict(sd)
    del partial["4.bias"]
    partial["5.weight"] = np.zeros(1)
    with pytest.raises(KeyError, match="missing keys: 4.bias; unexpected keys: 5.weight"):
        m.load_state_dict(partial)
    res = nn.load_state_dict(m, partial, strict=False)
    assert res == (["4.bias"], ["5.weight"])
    bad = dict(sd)
    bad["4.weight"] = np.zeros((3, 9), np.float32)
    with pytest.raises(ShapeError, match=r"size mismatch for 4.weight: the state has shape \(3, 9\), "
                                         r"Sequential has \(3, 8\)"):
        m.load_state_dict(bad)


def test_safe_save_takes_a_module_and_writes_atomically(tmp_path):
    m = nn.Linear(2, 2)
    path = str(tmp_path / "lin.safetensors")
    safe_save(m, path)
    assert list(safe_load(path)) == ["bias", "weight"]                # file order: by name
    assert os.listdir(tmp_path) == ["lin.safetensors"]
