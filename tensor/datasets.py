"""Datasets as numpy arrays: scikit-learn's 8x8 digits, and MNIST from IDX files you supply.

Nothing is downloaded.  ``digits()`` needs scikit-learn (``pip install -e '.[examples]'``),
which ships the 1,797 images; ``mnist(directory)`` reads the four IDX files of MNIST (or
Fashion-MNIST, or anything in that format) from a directory, gzipped or not; ``read_idx``
reads one IDX file.  Images come back as float32 in [0, 1], labels as int64.

The IDX format (LeCun et al., the MNIST page): a big-endian header of two zero bytes, a type
byte (0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64) and a byte
with the number of dimensions; then one big-endian uint32 per dimension; then the values,
big-endian, row-major, and nothing after them.
"""
import gzip
import os

import numpy as np

IDX_TYPES = {0x08: np.dtype("u1"), 0x09: np.dtype("i1"), 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
             0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}
MNIST_FILES = {"train_images": "train-images-idx3-ubyte", "train_labels": "train-labels-idx1-ubyte",
               "test_images": "t10k-images-idx3-ubyte", "test_labels": "t10k-labels-idx1-ubyte"}


class DatasetError(ValueError):
    """A dataset that cannot be loaded; the message names the file and what is wrong."""


# ---- scikit-learn's digits ------------------------------------------------------------------

def digits(test_size=360, seed=0):
    """(x_train, y_train, x_test, y_test): the 8x8 digits, (N, 8, 8) float32 in [0, 1], split
    at random (fixed by ``seed``) into 1,437 training and 360 test images."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise DatasetError("the 8x8 digits ship with scikit-learn, which is not installed: "
                           "pip install -e '.[examples]'  (or: pip install scikit-learn)") from None
    d = load_digits()
    x = (d.images / 16.0).astype(np.float32)
    y = d.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    test, train = order[:test_size], order[test_size:]
    return x[train], y[train], x[test], y[test]


# ---- IDX files ------------------------------------------------------------------------------

def _read_bytes(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DatasetError(f"{path}: cannot read: {e.strerror}") from None
    if data[:2] == b"\x1f\x8b":                    # gzip, whatever the name says
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise DatasetError(f"{path}: damaged gzip data: {e}") from None
    return data


def read_idx(path):
    """One IDX file as a numpy array in native byte order (gzip is undone when present)."""
    data = _read_bytes(path)
    if len(data) < 4:
        raise DatasetError(f"{path}: {len(data)} bytes is too short for an IDX file (the header takes 4)")
    if data[0] != 0 or data[1] != 0:
        raise DatasetError(f"{path}: not an IDX file (it must start with two zero bytes, got "
                           f"{data[:4].hex()})")
    code, ndim = data[2], data[3]
    if code not in IDX_TYPES:
        raise DatasetError(f"{path}: unknown IDX element type 0x{code:02x} (known: "
                           + ", ".join(f"0x{c:02x} {t.name}" for c, t in IDX_TYPES.items()) + ")")
    if ndim == 0:
        raise DatasetError(f"{path}: the IDX header gives 0 dimensions")
    if len(data) < 4 + 4 * ndim:
        raise DatasetError(f"{path}: the header announces {ndim} dimensions but the file ends "
                           f"after {len(data)} bytes")
    shape = tuple(int(d) for d in np.frombuffer(data, ">u4", ndim, 4))
    dt = IDX_TYPES[code]
    need = int(np.prod(shape, dtype=object)) * dt.itemsize
    have = len(data) - 4 - 4 * ndim
    if have != need:
        how = "truncated" if have < need else f"{have - need} extra bytes at the end"
        raise DatasetError(f"{path}: shape {shape} of {dt.name} needs {need} bytes of data, the file "
                           f"has {have} ({how})")
    return np.frombuffer(data, dt, offset=4 + 4 * ndim).reshape(shape).astype(dt.newbyteorder("="))


def _find(directory, stem):
    for name in (stem, stem + ".gz", stem.replace("-idx", ".idx"), stem.replace("-idx", ".idx") + ".gz"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    raise DatasetError(f"{directory}: no {stem} (or {stem}.gz) here; MNIST needs "
                       + ", ".join(MNIST_FILES.values()))


def mnist(directory):
    """(x_train, y_train, x_test, y_test) from the four MNIST IDX files in ``directory``:
    images (N, H, W) float32 in [0, 1], labels int64."""
    if not os.path.isdir(directory):
        raise DatasetError(f"{directory}: not a directory (pass the one holding the MNIST IDX files)")
    out = []
    for split in ("train", "test"):
        ipath = _find(directory, MNIST_FILES[f"{split}_images"])
        lpath = _find(directory, MNIST_FILES[f"{split}_labels"])
        images, labels = read_idx(ipath), read_idx(lpath)
        if images.ndim != 3 or images.dtype != np.uint8:
            raise DatasetError(f"{ipath}: MNIST images are a 3-D uint8 array, this file holds "
                               f"{images.ndim}-D {images.dtype}")
        if labels.ndim != 1 or labels.dtype != np.uint8:
            raise DatasetError(f"{lpath}: MNIST labels are a 1-D uint8 array, this file holds "
                               f"{labels.ndim}-D {labels.dtype}")
        if len(images) != len(labels):
            raise DatasetError(f"{ipath} has {len(images)} images but {lpath} has {len(labels)} labels")
        if labels.size and labels.max() > 9:
            raise DatasetError(f"{lpath}: label {int(labels.max())} is not a digit (0-9)")
        out += [(images / 255.0).astype(np.float32), labels.astype(np.int64)]
    return tuple(out)


def write_idx(path, array):
    """Write ``array`` as an IDX file (tests and tools make small ones with it)."""
    array = np.asarray(array)
    codes = {v.newbyteorder("=").str[1:]: k for k, v in IDX_TYPES.items()}
    key = array.dtype.newbyteorder("=").str[1:]
    if key not in codes:
        raise DatasetError(f"{path}: IDX cannot hold {array.dtype} (it holds "
                           + ", ".join(t.name for t in IDX_TYPES.values()) + ")")
    code = codes[key]
    if not 1 <= array.ndim <= 255:
        raise DatasetError(f"{path}: IDX holds 1 to 255 dimensions, got {array.ndim}")
    head = bytes([0, 0, code, array.ndim]) + np.array(array.shape, ">u4").tobytes()
    body = np.ascontiguousarray(array, IDX_TYPES[code]).tobytes()
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(head + body)
