"""Run one kernel of a code object on the wave simulator, CUDA-style, without any driver.

    stats = simulate(code_object, "saxpy", grid=(4, 1, 1), block=(64, 1, 1), args=[x, y, a])

``grid`` counts workgroups, ``block`` is the workgroup shape.  A private GPU VM receives the code
object image, one buffer per numpy array argument (copied in, and copied back into the same
array afterwards), the kernarg segment (explicit arguments packed per the code object metadata,
code object v5 hidden arguments filled in; without argument metadata, arrays and numpy scalars
are packed in order, naturally aligned), an AQL dispatch packet for the dispatch pointer and
the scratch the kernel's private segment needs.  Returns the executor's Stats.  Parsed code
objects and decoded programs are kept between calls (a program is reused only while the bytes
it decoded are unchanged).
"""
import struct

import numpy as np

from assembler.amdgpu import load_code_object
from assembler.amdgpu.metadata import KernelArg
from drivers.emu.amd.aql import KD_USER_SGPRS, KD_WAVEFRONT_SIZE32
from drivers.emu.amd.dispatch import LDS_GRANULE, Dispatch
from drivers.emu.amd.shader.executor import WaveExecutor, budget_from_env
from drivers.emu.amd.shader.operands import PRIVATE_APERTURE, SHARED_APERTURE
from drivers.emu.vm import PAGE_SIZE, GpuVM
from drivers.errors import GPUError

CODE_VA = 0x1_0000_0000
DATA_VA = 0x2_0000_0000
KERNARG_ALIGN = 256
AQL_KERNEL_DISPATCH = 2


class LaunchError(GPUError):
    """simulate() was given arguments that do not fit the kernel's metadata."""


class _Heap:
    """Page-aligned allocations in a private GPU VM, one mapping each, with guard pages between."""

    def __init__(self, vm, base):
        self.vm, self.next = vm, base

    def alloc(self, nbytes, writable=True, executable=False, filled=0):
        """(VA, memory) of a new zeroed mapping; ``filled``: its first bytes the caller writes at
        once (left unzeroed)."""
        size = max(PAGE_SIZE, -(-nbytes // PAGE_SIZE) * PAGE_SIZE)
        if filled:
            mem = np.empty(size, np.uint8)
            mem[filled:] = 0
        else:
            mem = np.zeros(size, np.uint8)
        va = self.next
        self.vm.map(va, mem, writable=writable, executable=executable)
        self.next = va + size + PAGE_SIZE            # an unmapped guard page after each buffer
        return va, mem


_DIMS = {}                    # launch shapes given as tuples -> _dims3() of them (valid ones)


def _dims3(v, what):
    if type(v) is tuple:
        hit = _DIMS.get(v)
        if hit is not None:
            return hit
    t = (v,) if isinstance(v, (int, np.integer)) else tuple(v)
    if not 1 <= len(t) <= 3 or any(int(x) < 1 for x in t):
        raise LaunchError(f"{what} must be 1 to 3 positive sizes, got {v!r}")
    out = tuple(int(x) for x in t) + (1,) * (3 - len(t)), len(t)
    if type(v) is tuple and all(type(x) is int for x in v):
        if len(_DIMS) >= 256:
            _DIMS.clear()
        _DIMS[v] = out
    return out


def _scalar_bytes(value, arg, index):
    """Bytes of a by-value argument: numpy scalars as they are, Python numbers per the metadata."""
    size = arg.size
    if isinstance(value, (np.generic, np.ndarray)):
        raw = np.asarray(value).tobytes()
    elif isinstance(value, (bool, int, float)):
        t = (arg.type_name or "").strip()
        is_float = isinstance(value, float) or t in ("float", "double", "half")
        code = {(4, True): "<f", (8, True): "<d", (1, False): "<B", (2, False): "<H",
                (4, False): "<I", (8, False): "<Q"}.get((size, is_float))
        if code is None:
            raise LaunchError(f"argument {index} ({t or 'by_value'}, {size} bytes) cannot take the "
                              f"Python value {value!r}: pass a numpy scalar")
        if not is_float:
            value = int(value) & ((1 << (8 * size)) - 1)
        raw = struct.pack(code, value)
    else:
        raise LaunchError(f"argument {index} is passed by value; got {type(value).__name__}")
    if len(raw) != size:
        raise LaunchError(f"argument {index} ({arg.type_name or 'by_value'}) takes {size} bytes, "
                          f"the value given has {len(raw)}")
    return raw


def _opaque_layout(args, meta, kernel):
    """Argument layout for a kernel whose metadata lists no arguments (an opaque kernarg segment,
    as the assembler writes for hand-written kernels): arrays become 8-byte pointers, numpy
    scalars their own bytes, each naturally aligned, in the order given."""
    layout, offset = [], 0
    for i, value in enumerate(args):
        if isinstance(value, np.ndarray) or value is None:
            kind, size, type_name = "global_buffer", 8, "void*"
        elif isinstance(value, np.generic):
            kind, size, type_name = "by_value", value.dtype.itemsize, str(value.dtype)
        else:
            raise LaunchError(f"kernel {kernel} has no argument metadata: pass argument {i} as a numpy "
                              f"array (a pointer) or a numpy scalar, not {type(value).__name__}")
        offset = -(-offset // size) * size
        layout.append(KernelArg(offset, size, kind, type_name=type_name))
        offset += size
    if offset > meta.kernarg_segment_size:
        raise LaunchError(f"kernel {kernel}: {offset} bytes of arguments do not fit its "
                          f"{meta.kernarg_segment_size}-byte kernarg segment")
    return layout


def simulate(code_object, kernel, grid, block, args, *, executor=None, budget=None, valu=None,
             dynamic_lds=0, batch_waves=None):
    """Run ``kernel`` over ``grid`` workgroups of ``block`` work-items; see the module text."""
    co = _parsed(bytes(code_object)) if isinstance(code_object, (bytes, bytearray, memoryview)) \
        else code_object
    kl = _kernel_launch(co, kernel)
    grid3, ndims = _dims3(grid, "grid")
    block3, _ = _dims3(block, "block")
    if block3[0] * block3[1] * block3[2] > 1024:
        raise LaunchError(f"workgroup {block3} has more than 1024 work-items")
    args = list(args)
    explicit = kl.explicit if kl.explicit is not None else _opaque_layout(args, kl.meta, kernel)
    if len(args) != len(explicit):
        raise LaunchError(f"kernel {kernel} takes {len(explicit)} arguments, {len(args)} given")
    plan, arrays = _plan(explicit, args)
    if executor is None:
        executor = WaveExecutor(valu=valu, batch_waves=batch_waves) if valu is not None or batch_waves \
            else _DEFAULT_EXECUTOR
        if budget is None:
            budget = budget_from_env()          # (an executor given reads it at its first dispatch)
    # a launch of the same shape reuses the VM and Dispatch of the previous one, its writable
    # memory restored to what a new launch starts from; it is taken out of the cache while it
    # runs, so a launch running at the same time (another thread) builds its own
    key = (grid3, ndims, block3, dynamic_lds, executor.batch_waves, plan)
    launch = kl.launches.pop(key, None)
    if launch is None:
        launch = _Launch(kl, kernel, grid3, ndims, block3, dynamic_lds, executor.batch_waves, explicit, plan)
    launch.load(arrays)
    try:
        stats = executor(launch.dispatch, budget=budget)
        for array, data in zip(arrays, launch.heads):
            if array.flags.writeable:
                np.copyto(array, data)
            elif not np.array_equal(array.reshape(-1).view(np.uint8), data.reshape(-1).view(np.uint8)):
                raise LaunchError(f"the kernel wrote to a read-only array argument ({array.dtype}{array.shape})")
    finally:
        if len(kl.launches) >= MAX_LAUNCHES:
            kl.launches.pop(next(iter(kl.launches)))
        kl.launches[key] = launch
    return stats


MAX_LAUNCHES = 8              # launch shapes kept per kernel


def _plan(explicit, args):
    """What each argument puts in the kernarg segment and the VM, checked: a tuple (part of the
    launch cache key) of ("buffer", bytes) for arrays (listed in ``arrays``), ("pointer", VA),
    ("lds", bytes, alignment) and ("value", bytes)."""
    plan, arrays = [], []
    for i, (arg, value) in enumerate(zip(explicit, args)):
        if arg.value_kind == "dynamic_shared_pointer":
            # the value is the byte size of the dynamic LDS array; the kernel gets its LDS offset
            if not isinstance(value, (int, np.integer)) or value < 0:
                raise LaunchError(f"argument {i} is dynamic LDS: pass its size in bytes")
            align = max(1, int(arg.raw.get(".pointee_align", 4)) if arg.raw else 4)
            plan.append(("lds", int(value), align))
        elif arg.value_kind == "global_buffer":
            if isinstance(value, np.ndarray):
                if not value.flags.c_contiguous:
                    raise LaunchError(f"argument {i}: the array must be C-contiguous")
                plan.append(("buffer", value.nbytes))
                arrays.append(value)
            elif value is None:
                plan.append(("pointer", 0))
            elif isinstance(value, (int, np.integer)):
                plan.append(("pointer", int(value)))    # a raw GPU VA the caller knows is mapped
            else:
                raise LaunchError(f"argument {i} is a pointer ({arg.type_name}); pass a numpy array")
        elif arg.value_kind == "by_value":
            plan.append(("value", _scalar_bytes(value, arg, i)))
        else:
            raise LaunchError(f"argument {i}: value kind {arg.value_kind} is not supported")
    return tuple(plan), arrays


class _Launch:
    """The private GPU VM of one launch shape (kernel, grid, block, argument sizes and values)
    and its Dispatch.  ``load(arrays)`` puts a launch's array arguments in their buffers and
    returns every writable mapping to its initial contents."""

    def __init__(self, kl, kernel, grid3, ndims, block3, dynamic_lds, batch_waves, explicit, plan):
        kd, meta = kl.kd, kl.meta
        vm = GpuVM()
        heap = _Heap(vm, DATA_VA)
        vm.map(CODE_VA, kl.code_mem, writable=False, executable=True)
        kernarg = bytearray(max(meta.kernarg_segment_size, 8))
        self.buffers = []                  # the mapping of each array argument, in order
        lds = kd.group_segment_fixed_size
        for arg, p in zip(explicit, plan):
            if p[0] == "lds":
                _, size, align = p
                lds = -(-lds // align) * align
                raw = struct.pack("<I", lds)[:arg.size]
                lds += size
            elif p[0] == "buffer":
                va, mem = heap.alloc(p[1], filled=p[1])
                self.buffers.append(mem)
                raw = struct.pack("<Q", va)[:arg.size]
            elif p[0] == "pointer":
                raw = struct.pack("<Q", p[1])[:arg.size]
            else:
                raw = p[1]
            kernarg[arg.offset:arg.offset + arg.size] = raw

        queue_va, self.queue = heap.alloc(256)
        packet_va, packet = heap.alloc(64)
        grid_items = tuple(g * b for g, b in zip(grid3, block3))
        private_size = max(kd.private_segment_fixed_size, meta.private_segment_fixed_size)
        dynamic_lds += lds - kd.group_segment_fixed_size
        lds = kd.group_segment_fixed_size + dynamic_lds
        hidden = {
            "hidden_block_count_x": grid3[0], "hidden_block_count_y": grid3[1], "hidden_block_count_z": grid3[2],
            "hidden_group_size_x": block3[0], "hidden_group_size_y": block3[1], "hidden_group_size_z": block3[2],
            "hidden_remainder_x": 0, "hidden_remainder_y": 0, "hidden_remainder_z": 0,
            "hidden_global_offset_x": 0, "hidden_global_offset_y": 0, "hidden_global_offset_z": 0,
            "hidden_grid_dims": ndims,
            "hidden_dynamic_lds_size": dynamic_lds, "hidden_queue_ptr": queue_va,
            "hidden_private_base": PRIVATE_APERTURE >> 32, "hidden_shared_base": SHARED_APERTURE >> 32,
        }
        for arg in kl.hidden:
            value = hidden.get(arg.value_kind, 0)
            kernarg[arg.offset:arg.offset + arg.size] = \
                (value & ((1 << (8 * arg.size)) - 1)).to_bytes(arg.size, "little")
        kernarg_va, kernarg_mem = heap.alloc(len(kernarg), writable=False)
        kernarg_mem[:len(kernarg)] = np.frombuffer(bytes(kernarg), np.uint8)

        kd_va = kl.kd_va
        struct.pack_into("<HHHHHHIIIIIQQQQ", packet, 0,
                         AQL_KERNEL_DISPATCH | (1 << 8), ndims, *block3, 0, *grid_items,
                         private_size, lds, kd_va, kernarg_va, 0, 0)
        self.packet, self.packet_bytes = packet, packet.copy()

        total_waves = grid3[0] * grid3[1] * grid3[2] * -(-(block3[0] * block3[1] * block3[2]) // 32)
        scratch_base, tmpring, self.scratch = 0, 0, None
        if private_size or kd.compute_pgm_rsrc2 & 1:
            per_lane = -(-max(private_size, 4) // 4) * 4
            wg_waves = -(-(block3[0] * block3[1] * block3[2]) // 32)
            slots = min(total_waves, max(batch_waves, wg_waves), 0xFFF)     # TMPRING_SIZE.WAVES
            wave_units = -(-(per_lane * 32) // 256)                          # .WAVESIZE, 256-byte units
            scratch_base, self.scratch = heap.alloc(slots * wave_units * 256)
            tmpring = slots | wave_units << 12

        values = {"private_segment_buffer": (0, 0, 0, 0), "dispatch_ptr": _pair(packet_va),
                  "queue_ptr": _pair(queue_va), "kernarg_segment_ptr": _pair(kernarg_va),
                  "dispatch_id": (0, 0), "flat_scratch_init": _pair(scratch_base),
                  "private_segment_size": (private_size,)}
        props = kd.kernel_code_properties
        sgprs = []
        for bit, name, _n in KD_USER_SGPRS:
            if props & (1 << bit):
                sgprs.extend(values[name])
        count = kd.user_sgpr_count
        if len(sgprs) > count:
            raise LaunchError(f"kernel {kernel} enables {len(sgprs)} user SGPRs but USER_SGPR_COUNT is {count}")
        sgprs += [0] * (count - len(sgprs))
        rsrc2 = (kd.compute_pgm_rsrc2 & ~(0x1FF << 15)) | (-(-lds // LDS_GRANULE) << 15)
        self.dispatch = Dispatch(
            source="simulate", code_va=kd_va + kd.kernel_code_entry_byte_offset,
            rsrc1=kd.compute_pgm_rsrc1, rsrc2=rsrc2, rsrc3=kd.compute_pgm_rsrc3,
            user_sgprs=tuple(sgprs), grid_workgroups=grid3, workgroup_size=block3,
            grid_size=grid_items, lds_bytes=lds, wave32=bool(props & KD_WAVEFRONT_SIZE32), vm=vm,
            scratch_base=scratch_base, tmpring_size=tmpring, private_segment_size=private_size,
            kernarg_va=kernarg_va, kernel_object=kd_va, packet_va=packet_va)
        self.tails = [mem[p[1]:] for p, mem in zip((p for p in plan if p[0] == "buffer"), self.buffers)]
        self.heads = [None] * len(self.buffers)     # each buffer's bytes as its array: load()
        self._fresh = True

    def load(self, arrays):
        """Copy the arrays in (``heads``: each buffer's start viewed with its array's dtype and
        shape, an array of the same size but another type gets a new view) and, after the
        first launch, clear what the previous one may have written past them."""
        heads = self.heads
        for i, array in enumerate(arrays):
            head = heads[i]
            if head is None or head.dtype != array.dtype or head.shape != array.shape:
                head = heads[i] = self.buffers[i][:array.nbytes].view(array.dtype).reshape(array.shape)
            np.copyto(head, array)
        if not self._fresh:
            for tail in self.tails:
                tail.fill(0)                # the page tail a kernel may have written
            self.queue.fill(0)
            np.copyto(self.packet, self.packet_bytes)
            if self.scratch is not None:
                self.scratch.fill(0)
        self._fresh = False


_DEFAULT_EXECUTOR = WaveExecutor()      # keeps decoded programs between simulate() calls
_LAUNCHES = {}                # (id of a CodeObject, kernel) -> _KernelLaunch
_PARSED = {}                  # code object bytes -> CodeObject: parsing dominates small launches
_PARSED_MAX = 32


def _parsed(data):
    co = _PARSED.get(data)
    if co is None:
        co = load_code_object(data)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.pop(next(iter(_PARSED)))
        _PARSED[data] = co
    return co


class _KernelLaunch:
    """What every launch of one kernel of a parsed code object shares: its descriptor, argument
    layout and the code image relocated to CODE_VA (mapped read-only into each launch's VM)."""

    def __init__(self, co, kernel):
        try:
            k = co.kernel(kernel)
        except KeyError as e:
            raise LaunchError(str(e).strip('"')) from None
        kd = k.descriptor
        if not kd.wave32:
            raise LaunchError(f"kernel {kernel} is compiled for wave64; the virtual gfx1100 runs wave32")
        meta = k.metadata
        if meta is None:
            raise LaunchError(f"kernel {kernel} has no metadata note: argument layout unknown")
        self.co, self.kd, self.meta = co, kd, meta      # co: keeps its id (the cache key) taken
        self.explicit = meta.explicit_args if ".args" in meta.raw else None   # None: per call
        self.hidden = meta.hidden_args
        self.kd_va = CODE_VA + k.kd_offset
        self.launches = {}          # launch shape -> _Launch (simulate())
        image = co.relocated_image(CODE_VA)
        code_mem = np.zeros(max(PAGE_SIZE, -(-len(image) // PAGE_SIZE) * PAGE_SIZE), np.uint8)
        code_mem[:len(image)] = np.frombuffer(image, np.uint8)
        code_mem.flags.writeable = False
        self.code_mem = code_mem


def _kernel_launch(co, kernel):
    key = (id(co), kernel)
    kl = _LAUNCHES.get(key)
    if kl is None or kl.co is not co:
        if len(_LAUNCHES) >= 4 * _PARSED_MAX:
            _LAUNCHES.pop(next(iter(_LAUNCHES)))
        kl = _LAUNCHES[key] = _KernelLaunch(co, kernel)
    return kl


def _pair(v):
    return (v & 0xFFFFFFFF, v >> 32 & 0xFFFFFFFF)
