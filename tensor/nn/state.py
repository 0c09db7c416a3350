"""State dicts, and the safetensors format (our own reader and writer).

safetensors, as the reference implementation writes and checks it:

    8 bytes      N, little-endian unsigned 64-bit: the header's length
    N bytes      JSON object, UTF-8: {"name": {"dtype": "F32", "shape": [2, 3],
                 "data_offsets": [begin, end]}, ..., "__metadata__": {"key": "value"}}
                 padded with spaces to a multiple of 8 bytes
    the rest     the tensors' bytes, little-endian, row-major; offsets count from the
                 start of this section, and the tensors cover it exactly: no gaps, no
                 overlaps, nothing after the last one

The writer orders tensors as the reference does (by its dtype order, which keeps wider types
first, then by name), so every tensor starts at a multiple of its element size and, for the
same tensors, the file is byte for byte the reference's.  The reader checks every
rule above and says which one a damaged file breaks, naming the file (and the tensor).
"""
import json
import mmap
import os
from collections import OrderedDict, namedtuple

import numpy as np

from tensor import device as devices
from tensor import ops
from tensor.device import Buffer
from tensor.dtypes import dtypes
from tensor.tensor import ShapeError, Tensor, no_grad

MAX_HEADER = 100_000_000           # the reference implementation's limit
# safetensors code <-> ours, for every dtype we have
CODES = {dtypes.bool: "BOOL", dtypes.uint8: "U8", dtypes.int8: "I8", dtypes.int16: "I16",
         dtypes.int32: "I32", dtypes.uint32: "U32", dtypes.int64: "I64", dtypes.float16: "F16",
         dtypes.bfloat16: "BF16", dtypes.float32: "F32", dtypes.float64: "F64"}
FROM_CODE = {v: k for k, v in CODES.items()}
# codes the format has that no tensor of ours can hold
OTHER_CODES = {"U16": 2, "U64": 8, "F8_E5M2": 1, "F8_E4M3": 1, "F8_E4M3FNUZ": 1, "F8_E5M2FNUZ": 1,
               "F8_E8M0": 1, "F4": 1, "C64": 8}

# the reference's dtype order (its writer puts the last first)
WRITE_ORDER = ["BOOL", "U8", "I8", "F8_E5M2", "F8_E4M3", "I16", "U16", "F16", "BF16", "I32", "U32", "F32",
               "F64", "I64", "U64"]

IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


class SafetensorsError(ValueError):
    """A file that is not valid safetensors, or tensors that cannot be saved; the message
    names the file and what is wrong."""


# ---- state dicts ----------------------------------------------------------------------------

def state_dict(obj):
    """A model's (or an optimizer's) tensors by name: ``obj.state_dict()``."""
    if not hasattr(obj, "state_dict"):
        raise TypeError(f"state_dict: {type(obj).__name__} has no state (needs a Module or an optimizer)")
    return obj.state_dict()


def load_state_dict(obj, state, strict=True):
    """Overwrite ``obj``'s tensors in place from ``state`` (name -> Tensor or array), casting to
    each tensor's dtype and device.  Shapes must match; with ``strict`` the names too.
    Returns (missing_keys, unexpected_keys)."""
    own = state_dict(obj)
    missing = [k for k in own if k not in state]
    unexpected = [k for k in state if k not in own]
    if strict and (missing or unexpected):
        parts = []
        if missing:
            parts.append("missing keys: " + ", ".join(missing))
        if unexpected:
            parts.append("unexpected keys: " + ", ".join(unexpected))
        raise KeyError(f"load_state_dict into {type(obj).__name__}: " + "; ".join(parts))
    pairs, bad = [], []
    for k, target in own.items():
        if k not in state:
            continue
        src = state[k]
        if not isinstance(src, Tensor):
            src = Tensor(np.asarray(src), device=target.device)
        if src.shape != target.shape:
            bad.append(f"{k}: the state has shape {src.shape}, {type(obj).__name__} has {target.shape}")
        elif src is not target:
            pairs.append((target, src))
    if bad:
        raise ShapeError(f"load_state_dict into {type(obj).__name__}: size mismatch for " + "; ".join(bad))
    with no_grad():
        for target, src in pairs:
            target.assign(src.to(target.device).cast(target.dtype).contiguous())
    Tensor.realize_all(*[t for t, _ in pairs])
    return IncompatibleKeys(missing, unexpected)


# ---- writing --------------------------------------------------------------------------------

def _raw(t):
    """A tensor's bytes as stored (bfloat16 as its bit patterns), little-endian."""
    t = t.contiguous().realize()
    base, _ = t.node.view()
    arr = base.buffer.storage() if t.numel() else np.zeros(0, t.dtype.np)
    return np.ascontiguousarray(arr.astype(arr.dtype.newbyteorder("<"), copy=False)).view(np.uint8)


def safe_save(tensors, path, metadata=None):
    """Write ``tensors`` (name -> Tensor, or a Module: its state dict) to ``path``.
    ``metadata`` (str -> str) goes to the header's ``__metadata__``."""
    if hasattr(tensors, "state_dict") and not isinstance(tensors, dict):
        tensors = tensors.state_dict()
    items = []
    for name, t in tensors.items():
        if not isinstance(name, str) or name == "__metadata__":
            raise SafetensorsError(f"{path}: tensor names must be strings other than '__metadata__', got {name!r}")
        if not isinstance(t, Tensor):
            raise SafetensorsError(f"{path}: {name!r} is a {type(t).__name__}, not a Tensor")
        if t.dtype not in CODES:
            raise SafetensorsError(f"{path}: {name!r} has dtype {t.dtype.name}, which safetensors cannot hold")
        items.append((name, t))
    if metadata is not None and not (isinstance(metadata, dict) and
                                     all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())):
        raise SafetensorsError(f"{path}: metadata must map strings to strings")
    items.sort(key=lambda it: (-WRITE_ORDER.index(CODES[it[1].dtype]), it[0]))
    header, offset, datas = {}, 0, []
    if metadata:
        header["__metadata__"] = dict(metadata)
    for name, t in items:
        data = _raw(t)
        header[name] = {"dtype": CODES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + data.size]}
        offset += data.size
        datas.append(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    tmp = f"{path}.tmp{os.getpid()}"              # written whole, then renamed into place
    try:
        with open(tmp, "wb") as f:
            f.write(len(text).to_bytes(8, "little"))
            f.write(text)
            for d in datas:
                f.write(d.tobytes())
        os.replace(tmp, path)
    except OSError as e:
        raise SafetensorsError(f"{path}: cannot write: {e.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# ---- reading --------------------------------------------------------------------------------

def _no_duplicates(path):
    def hook(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise SafetensorsError(f"{path}: the header names {k!r} twice")
            seen.add(k)
        return dict(pairs)
    return hook


def _parse(path, data):
    """(tensors in file order: [(name, code, shape, begin, end)], metadata, data start)."""
    size = len(data)
    if size < 8:
        raise SafetensorsError(f"{path}: {size} bytes is too short for a safetensors file "
                               "(the header length alone takes 8)")
    n = int.from_bytes(data[:8], "little")
    if n > MAX_HEADER:
        raise SafetensorsError(f"{path}: header length {n} is over the {MAX_HEADER}-byte limit "
                               "(not a safetensors file?)")
    if 8 + n > size:
        raise SafetensorsError(f"{path}: the header says it is {n} bytes but only {size - 8} follow "
                               "(truncated, or not a safetensors file)")
    try:
        text = bytes(data[8:8 + n]).decode("utf-8")
    except UnicodeDecodeError as e:
        raise SafetensorsError(f"{path}: the header is not UTF-8 text (byte {e.start})") from None
    if not text.lstrip().startswith("{"):
        raise SafetensorsError(f"{path}: the header is not a JSON object (starts with {text[:16]!r})")
    try:
        header = json.loads(text, object_pairs_hook=_no_duplicates(path))
    except json.JSONDecodeError as e:
        raise SafetensorsError(f"{path}: the header is not valid JSON: {e}") from None
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise SafetensorsError(f"{path}: __metadata__ must map strings to strings")
    entries = []
    for name, info in header.items():
        where = f"{path}: tensor {name!r}"
        if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
            got = sorted(info) if isinstance(info, dict) else type(info).__name__
            raise SafetensorsError(f"{where}: needs exactly dtype, shape and data_offsets, got {got}")
        code, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
        if code in FROM_CODE:
            itemsize = FROM_CODE[code].itemsize
        elif code in OTHER_CODES:
            itemsize = OTHER_CODES[code]
        else:
            raise SafetensorsError(f"{where}: unknown dtype {code!r}")
        if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
            raise SafetensorsError(f"{where}: shape must be a list of non-negative integers, got {shape!r}")
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(type(o) is int for o in offsets)
                and 0 <= offsets[0] <= offsets[1]):
            raise SafetensorsError(f"{where}: data_offsets must be [begin, end] with 0 <= begin <= end, "
                                   f"got {offsets!r}")
        need = int(np.prod(shape, dtype=object)) * itemsize
        if offsets[1] - offsets[0] != need:
            raise SafetensorsError(f"{where}: shape {shape} of {code} needs {need} bytes, data_offsets "
                                   f"{offsets} hold {offsets[1] - offsets[0]}")
        entries.append((name, code, tuple(shape), offsets[0], offsets[1]))
    entries.sort(key=lambda e: (e[3], e[4]))
    end = 0
    for name, code, shape, begin, stop in entries:
        if begin != end:
            what = "overlaps the tensor before it" if begin < end else f"leaves a gap of {begin - end} bytes"
            raise SafetensorsError(f"{path}: tensor {name!r} starts at data byte {begin}, where the tensor "
                                   f"before it ends at {end}: it {what}")
        end = stop
    have = size - 8 - n
    if end != have:
        if end > have:
            raise SafetensorsError(f"{path}: the tensors need {end} bytes of data but the file holds {have} "
                                   "after the header (truncated?)")
        raise SafetensorsError(f"{path}: {have - end} bytes after the last tensor's data (the tensors must "
                               "cover the data section exactly)")
    return entries, metadata, 8 + n


def _map(path):
    try:
        f = open(path, "rb")
    except OSError as e:
        raise SafetensorsError(f"{path}: cannot open: {e.strerror}") from None
    with f:
        if os.fstat(f.fileno()).st_size == 0:
            return b""
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def safe_load_metadata(path):
    """({name: (dtype code, shape)} in file order, the header's __metadata__) without reading data."""
    data = _map(path)
    try:
        entries, metadata, _ = _parse(path, data)
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
    return OrderedDict((e[0], (e[1], e[2])) for e in entries), metadata


def safe_load(path, device=None):
    """The tensors of a safetensors file, name -> Tensor, in file order (realized on ``device``)."""
    dev = devices.canonical(device)
    data = _map(path)
    try:
        entries, _, start = _parse(path, data)
        out = OrderedDict()
        for name, code, shape, begin, stop in entries:
            if code not in FROM_CODE:
                raise SafetensorsError(f"{path}: tensor {name!r} has dtype {code}, which the tensor library "
                                       f"does not have (it reads {', '.join(CODES.values())})")
            dt = FROM_CODE[code]
            raw = np.frombuffer(data, np.uint8, stop - begin, start + begin) if stop > begin else \
                np.zeros(0, np.uint8)
            arr = raw.view(dt.np.newbyteorder("<")).astype(dt.np)     # a copy, in native order
            del raw                                                   # (the map can close)
            buf = Buffer(dev, arr.size, dt, initial=arr)
            out[name] = Tensor(ops.buffer(buf, shape))
        return out
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
