"""Many lane accesses through the GPU VM at once: gather and scatter by virtual address.

The fast path finds one mapping that holds every address and indexes its bytes with numpy (as
dwords when everything is dword-aligned).  Otherwise each address is translated on its own, in
lane order, so a fault names the first lane's VA that is not mapped (or not writable), exactly as
GpuVM.translate reports it.
"""
import numpy as np

from drivers.emu.faults import NOT_PRESENT, READ_ONLY, MemoryFault

_BYTE_STEPS = {n: np.arange(n, dtype=np.intp) for n in range(1, 65)}
_COLUMN_STEPS = {n: a[:, None] for n, a in _BYTE_STEPS.items()}
_TILES = {}                     # (lanes, k) -> 0..k-1 repeated per lane (read-only)


# Element indices of k consecutive elements at each of N starts.  ``start[:, None] + steps``
# broadcasts over an inner axis of k, which numpy runs as N tiny loops (several times slower
# than the forms below for a wave's worth of lanes).
def read_index(start, k):
    """(k, N): element j of lane i at [j, i]; a gather through it, transposed, is (N, k)."""
    return _COLUMN_STEPS[k] + start if k > 1 else start[None, :]


def write_index(start, k):
    """(N * k,) in lane order (lane 0's k elements, then lane 1's...), so that where accesses
    overlap the highest lane's store lands last, as the memory pipeline orders them."""
    if k == 1:
        return start
    n = start.shape[0]
    tile = _TILES.get((n, k))
    if tile is None:
        if len(_TILES) >= 256:
            _TILES.clear()
        tile = _TILES[(n, k)] = np.tile(_BYTE_STEPS[k], n)
        tile.flags.writeable = False
    idx = start.repeat(k)
    idx += tile
    return idx


def lane_major(data):
    """(N, k) -> its N * k elements in lane order (a view when it already is)."""
    return data.reshape(-1) if data.flags.c_contiguous else data.ravel()


def _one_range(vm, addrs, nbytes):
    lo, hi = int(addrs.min()), int(addrs.max()) + nbytes
    r = vm.lookup(lo)
    if r is not None and hi <= r.end:
        return r
    return None


def _check_writable(r, addrs, write):
    if write and not r.writable:
        raise MemoryFault(int(addrs[0]), READ_ONLY, True)


def gather(vm, addrs, nbytes):
    """(N,) uint64 VAs -> (N, nbytes) uint8 (a copy)."""
    n = addrs.shape[0]
    if n == 0:
        return np.zeros((0, nbytes), np.uint8)
    r = _one_range(vm, addrs, nbytes)
    if r is not None:
        off = (addrs - np.uint64(r.start)).astype(np.intp)
        if nbytes % 4 == 0 and not np.count_nonzero(off & 3):
            words = r.mem.view(np.uint32)[read_index(off >> 2, nbytes // 4)]
            return np.ascontiguousarray(words.T).view(np.uint8).reshape(n, nbytes)
        return np.ascontiguousarray(r.mem[read_index(off, nbytes)].T)
    out = np.empty((n, nbytes), np.uint8)
    for i, a in enumerate(addrs.tolist()):
        out[i] = vm.translate(a, nbytes)
    return out


def word_offsets(vm, addrs, nbytes, write):
    """Dword indices into one mapping's words when every address is dword-aligned and every
    access lies inside the mapping of the first one (the common case), else None (the byte
    paths then decide, faults included)."""
    r, w, _ = _word_offsets(vm, addrs, nbytes, write)
    return r, w


def _word_offsets(vm, addrs, nbytes, write):
    """word_offsets, and the OR of the byte offsets (their common alignment)."""
    r = vm.lookup(int(addrs[0]))
    if r is None or (write and not r.writable):
        return None, None, 0
    off = addrs - np.uint64(r.start)            # wraps around for addresses below the mapping
    # the OR of the offsets is at least the largest: one reduction checks the alignment and,
    # unless it exceeds the bound, the range
    bits, limit = int(np.bitwise_or.reduce(off, axis=None)), r.end - r.start - nbytes
    if bits & 3 or bits > limit and int(off.max()) > limit:
        return None, None, 0
    off >>= np.uint64(2)                        # our own array: shifted in place, then < 2**62
    return r, off.view(np.intp), bits


# accesses of 2 and 4 dwords aligned to their size: rows of the mapping viewed as (-1, dwords)
_ROW_SHIFT = {2: (7, np.intp(1)), 4: (15, np.intp(2))}


def element_offsets(vm, addrs, size, write):
    """Indices of ``size``-byte elements (1 or 2) into one mapping, viewed as elements of that
    size, when every address is a multiple of ``size`` and every access lies inside the mapping
    of the first one, else None (the byte paths then decide, faults included)."""
    r = vm.lookup(int(addrs[0]))
    if r is None or (write and not r.writable):
        return None, None
    off = addrs - np.uint64(r.start)            # wraps around for addresses below the mapping
    bits, limit = int(np.bitwise_or.reduce(off, axis=None)), r.end - r.start - size
    if bits & (size - 1) or bits > limit and int(off.max()) > limit:
        return None, None
    if size == 2:
        off >>= np.uint64(1)
    return r, off.view(np.intp)


def gather_words(vm, addrs, dwords):
    """(N,) VAs -> (N, dwords) uint32 (a copy)."""
    n = addrs.shape[0]
    if n:
        r, w, bits = _word_offsets(vm, addrs, 4 * dwords, False)
        if r is not None:
            words = r.mem.view(np.uint32)
            if dwords == 1:
                return words[w][:, None]
            row = _ROW_SHIFT.get(dwords)
            if row is not None and not bits & row[0]:
                return words.reshape(-1, dwords)[w >> row[1]]
            return np.take(words, read_index(w, dwords)).T
    return gather(vm, addrs, 4 * dwords).view(np.uint32)


def scatter_words(vm, addrs, data):
    """Write (N, dwords) uint32 at addrs (the last lane wins on duplicates)."""
    n, dwords = data.shape
    if n:
        r, w, bits = _word_offsets(vm, addrs, 4 * dwords, True)
        if r is not None:
            words = r.mem.view(np.uint32)
            row = _ROW_SHIFT.get(dwords)
            if dwords == 1:
                words[w] = data[:, 0]
            elif row is not None and not bits & row[0]:
                words.reshape(-1, dwords)[w >> row[1]] = data
            else:
                words[write_index(w, dwords)] = lane_major(data)
            return
    scatter(vm, addrs, np.ascontiguousarray(data).view(np.uint8))


def gather_dwords(vm, addrs, dwords):
    """(N,) VAs -> (N, dwords) uint32."""
    return gather(vm, addrs, 4 * dwords).view(np.uint32)


def scatter(vm, addrs, data):
    """Write data (N, nbytes) uint8 at addrs; with duplicates the last lane's bytes win."""
    n, nbytes = data.shape
    if n == 0:
        return
    r = _one_range(vm, addrs, nbytes)
    if r is not None:
        _check_writable(r, addrs, True)
        off = (addrs - np.uint64(r.start)).astype(np.intp)
        if nbytes % 4 == 0 and not np.count_nonzero(off & 3):
            r.mem.view(np.uint32)[write_index(off >> 2, nbytes // 4)] = \
                np.ascontiguousarray(data).view(np.uint32).reshape(-1)
        else:
            r.mem[write_index(off, nbytes)] = lane_major(data)
        return
    for a in addrs.tolist():           # validate everything first: a faulting store changes nothing
        _probe_write(vm, a, nbytes)
    for a, row in zip(addrs.tolist(), data):
        vm.write(a, row)


def _probe_write(vm, a, nbytes):
    """Raise the MemoryFault a write of nbytes at a would raise, without writing."""
    pos, end = a, a + nbytes
    while pos < end:
        r = vm.lookup(pos)
        if r is None:
            raise MemoryFault(pos, NOT_PRESENT, True)
        if not r.writable:
            raise MemoryFault(pos, READ_ONLY, True)
        pos = r.end


def locate(vm, addrs, nbytes, write):
    """For atomics: (VMRange, offsets) when one mapping holds every address, else None after
    checking each address in lane order (raising the first fault)."""
    r = _one_range(vm, addrs, nbytes)
    if r is not None:
        _check_writable(r, addrs, write)
        return r, (addrs - np.uint64(r.start)).astype(np.intp)
    for a in addrs.tolist():
        _probe_write(vm, a, nbytes) if write else vm.translate(a, nbytes)
    return None
