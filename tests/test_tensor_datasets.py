"""tensor.datasets: the IDX reader on small files the tests write (by hand, from the format's
description, and with write_idx), MNIST from a directory, the digits split, and the errors."""
import gzip
import struct
import sys

import numpy as np
import pytest

from tensor.datasets import DatasetError, digits, mnist, read_idx, write_idx


def idx_bytes(code, shape, payload):
    """An IDX file built from the format's description: 0, 0, type, ndim, big-endian dims."""
    return bytes([0, 0, code, len(shape)]) + struct.pack(f">{len(shape)}I", *shape) + payload


def put(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return str(path)


def test_read_idx_of_every_type_from_hand_made_files(tmp_path):
    cases = [(0x08, "u1", np.uint8), (0x09, "i1", np.int8), (0x0B, ">i2", np.int16),
             (0x0C, ">i4", np.int32), (0x0D, ">f4", np.float32), (0x0E, ">f8", np.float64)]
    for code, big, native in cases:
        want = (np.arange(24).reshape(2, 3, 4) - 7).astype(native)
        path = put(tmp_path / f"t{code}.idx", idx_bytes(code, want.shape, want.astype(big).tobytes()))
        got = read_idx(path)
        assert got.dtype == native and got.dtype.isnative and got.shape == (2, 3, 4)
        np.testing.assert_array_equal(got, want)
    one_d = put(tmp_path / "labels", idx_bytes(0x08, (5,), bytes([3, 1, 4, 1, 5])))
    assert read_idx(one_d).tolist() == [3, 1, 4, 1, 5]


def test_write_idx_round_trips_and_gzip_is_undone(tmp_path):
    a = np.random.default_rng(0).standard_normal((3, 2)).astype(np.float32)
    write_idx(tmp_path / "a.idx", a)
    assert open(tmp_path / "a.idx", "rb").read() == idx_bytes(0x0D, (3, 2), a.astype(">f4").tobytes())
    write_idx(str(tmp_path / "b.idx.gz"), a)
    np.testing.assert_array_equal(read_idx(str(tmp_path / "b.idx.gz")), a)
    # gzip is recognized by its magic bytes, whatever the file is called
    put(tmp_path / "c", gzip.compress(idx_bytes(0x08, (2,), bytes([7, 9]))))
    assert read_idx(str(tmp_path / "c")).tolist() == [7, 9]
    with pytest.raises(DatasetError, match="IDX cannot hold complex128"):
        write_idx(tmp_path / "d", np.zeros(2, complex))


@pytest.mark.parametrize("data,message", [
    (b"\x00\x00", "2 bytes is too short for an IDX file"),
    (b"\x01\x00\x08\x01\x00\x00\x00\x01\x05", "not an IDX file \\(it must start with two zero bytes, got 01000801\\)"),
    (idx_bytes(0x07, (1,), b"\x05"), "unknown IDX element type 0x07"),
    (bytes([0, 0, 8, 0]), "the IDX header gives 0 dimensions"),
    (bytes([0, 0, 8, 3, 0, 0, 0, 2]), "the header announces 3 dimensions but the file ends after 8 bytes"),
    (idx_bytes(0x08, (2, 3), bytes(5)), "shape \\(2, 3\\) of uint8 needs 6 bytes of data, the file has 5 \\(truncated\\)"),
    (idx_bytes(0x0C, (2,), bytes(10)), "shape \\(2,\\) of int32 needs 8 bytes of data, the file has 10 \\(2 extra bytes at the end\\)"),
    (gzip.compress(idx_bytes(0x08, (2,), bytes(2)))[:-6], "damaged gzip data"),
])
def test_malformed_idx_files_say_what_is_wrong(tmp_path, data, message):
    path = put(tmp_path / "bad.idx", data)
    with pytest.raises(DatasetError, match=f"^{path}: {message}"):
        read_idx(path)


def write_mnist(directory, n_train=6, n_test=4, gz=False, names=None):
    rng = np.random.default_rng(0)
    parts = {"train-images-idx3-ubyte": rng.integers(0, 256, (n_train, 28, 28)).astype(np.uint8),
             "train-labels-idx1-ubyte": rng.integers(0, 10, n_train).astype(np.uint8),
             "t10k-images-idx3-ubyte": rng.integers(0, 256, (n_test, 28, 28)).astype(np.uint8),
             "t10k-labels-idx1-ubyte": rng.integers(0, 10, n_test).astype(np.uint8)}
    for stem, arr in parts.items():
        name = (names or {}).get(stem, stem) + (".gz" if gz else "")
        write_idx(str(directory / name), arr)
    return parts


@pytest.mark.parametrize("gz", [False, True])
def test_mnist_from_a_directory(tmp_path, gz):
    parts = write_mnist(tmp_path, gz=gz)
    xtr, ytr, xte, yte = mnist(str(tmp_path))
    assert xtr.shape == (6, 28, 28) and xtr.dtype == np.float32 and xte.shape == (4, 28, 28)
    np.testing.assert_allclose(xtr, parts["train-images-idx3-ubyte"] / 255.0, rtol=1e-6)
    assert ytr.dtype == np.int64 and ytr.tolist() == parts["train-labels-idx1-ubyte"].tolist()
    assert yte.tolist() == parts["t10k-labels-idx1-ubyte"].tolist()


def test_mnist_accepts_the_dotted_file_names(tmp_path):
    names = {s: s.replace("-idx", ".idx") for s in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                                    "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
    write_mnist(tmp_path, names=names)
    assert mnist(str(tmp_path))[0].shape == (6, 28, 28)


def test_mnist_errors(tmp_path):
    with pytest.raises(DatasetError, match="not a directory"):
        mnist(str(tmp_path / "nowhere"))
    with pytest.raises(DatasetError, match="no train-images-idx3-ubyte \\(or train-images-idx3-ubyte.gz\\) here"):
        mnist(str(tmp_path))
    write_mnist(tmp_path)
    write_idx(str(tmp_path / "t10k-labels-idx1-ubyte"), np.zeros(3, np.uint8))
    with pytest.raises(DatasetError, match="has 4 images but .*t10k-labels-idx1-ubyte has 3 labels"):
        mnist(str(tmp_path))
    write_idx(str(tmp_path / "t10k-labels-idx1-ubyte"), np.array([1, 2, 12, 3], np.uint8))
    with pytest.raises(DatasetError, match="label 12 is not a digit"):
        mnist(str(tmp_path))
    write_idx(str(tmp_path / "t10k-labels-idx1-ubyte"), np.zeros(4, np.uint8))
    write_idx(str(tmp_path / "train-images-idx3-ubyte"), np.zeros((6, 28, 28), np.float32))
    with pytest.raises(DatasetError, match="MNIST images are a 3-D uint8 array, this file holds 3-D float32"):
        mnist(str(tmp_path))


def test_digits_split_is_fixed_and_scaled():
    pytest.importorskip("sklearn", reason="the digits ship with scikit-learn (pip install -e '.[examples]')")
    xtr, ytr, xte, yte = digits()
    assert xtr.shape == (1437, 8, 8) and xte.shape == (360, 8, 8) and xtr.dtype == np.float32
    assert 0.0 <= xtr.min() and xtr.max() == 1.0 and ytr.dtype == np.int64 and set(yte.tolist()) == set(range(10))
    again = digits()
    np.testing.assert_array_equal(again[0], xtr)
    assert not np.array_equal(digits(seed=1)[1], ytr)


def test_digits_without_scikit_learn_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    with pytest.raises(DatasetError, match=r"scikit-learn, which is not installed: pip install -e '.\[examples\]'"):
        digits()
