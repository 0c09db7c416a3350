#!/usr/bin/env python3
"""Fuzz the AMD runtime and the code-object path on the virtual gfx1100.

    python scripts/fuzz_runtime.py [-n 2000] [--seed 1] [--hang 30]

Each input is one of: a code object (clang-19's, ours, or one built here from a random kernel
body, descriptor and argument metadata; possibly with bytes flipped or cut) loaded and launched
with random arguments, grid, block, wait and timeout; or a random call on the device API
(alloc, copies with odd sizes, offsets and types, buffers of another device, frees, command
buffers). Every input must succeed or raise one of the project's errors. Devices are reopened
every few dozen inputs, and each must close with nothing left: no buffer, queue, event or
mapping in the virtual amdkfd, no open file, no thread. The instruction budget of the virtual GPU
is small, so a kernel that loops ends as a hang report instead of running for minutes.
Prints inputs tried, raw exceptions, hangs and leaks; exit status 1 unless all three are zero.
"""
import os
import random
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from fuzzing import Report, Watchdog, live_threads, main_args, open_fds, settle_threads  # noqa: E402

PER_SESSION = 40
BUDGET = 20_000                  # wave-instructions per dispatch: loops end quickly
WAIT = 2.0                       # seconds a device waits by default (a hung launch costs this much)

BODIES = [
    "s_endpgm",
    "s_load_b64 s[4:5], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v1, 7\nv_lshlrev_b32 v0, 2, v0\n"
    "global_store_b32 v0, v1, s[4:5]\ns_endpgm",
    "s_load_b128 s[4:7], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\nv_lshlrev_b32 v0, 2, v0\n"
    "global_load_b32 v1, v0, s[6:7]\ns_waitcnt vmcnt(0)\nglobal_store_b32 v0, v1, s[4:5]\ns_endpgm",
    "s_branch 0xffff\ns_endpgm",
    "s_trap 2\ns_endpgm",
    "v_mov_b32 v60, 1\ns_endpgm",
    ".long 0xffffffff\ns_endpgm",
    "v_lshlrev_b32 v0, 2, v0\nds_store_b32 v0, v0\ns_waitcnt lgkmcnt(0)\nds_load_b32 v1, v0\ns_waitcnt lgkmcnt(0)\n"
    "s_endpgm",
    "s_getpc_b64 s[2:3]\ns_add_u32 s2, s2, 6\ns_addc_u32 s3, s3, 0\ns_setpc_b64 s[2:3]\ns_endpgm",
    "s_mov_b32 s4, 0\ns_mov_b32 s5, 0\nglobal_load_b32 v1, v0, s[4:5]\ns_waitcnt vmcnt(0)\ns_endpgm",
]
VALUE_KINDS = ["by_value", "global_buffer", "dynamic_shared_pointer", "hidden_block_count_x", "hidden_group_size_x",
               "hidden_remainder_x", "hidden_global_offset_x", "hidden_grid_dims", "hidden_queue_ptr",
               "hidden_dynamic_lds_size", "hidden_none", "hidden_printf_buffer", "image", "sampler", "queue"]
TYPE_NAMES = ["float", "int", "uint", "half", "double", "float*", "char", "long", "", "struct s", "_Float16"]
HOSTILE_INTS = [-8, -1, 0, 1, 2, 3, 4, 7, 8, 16, 255, 4096, 1 << 31, 1 << 32, (1 << 64) - 1, 1 << 64, 1 << 80]


def _hostile(rng):
    return rng.choice(HOSTILE_INTS + ["4", 4.5, None, True, [1], {"a": 1}])


VALID_ARGS = [("global_buffer", 8, {".address_space": "global", ".type_name": "float*"}),
              ("by_value", 4, {".type_name": "float"}), ("by_value", 4, {".type_name": "uint"}),
              ("by_value", 8, {".type_name": "long"}), ("by_value", 2, {".type_name": "half"}),
              ("dynamic_shared_pointer", 4, {".address_space": "local", ".pointee_align": 16}),
              ("hidden_block_count_x", 4, {}), ("hidden_group_size_x", 2, {}), ("hidden_queue_ptr", 8, {}),
              ("hidden_dynamic_lds_size", 4, {}), ("hidden_grid_dims", 2, {})]


def valid_args_metadata(rng):
    """Records a loader accepts: sizes that fit their kinds, naturally aligned, no overlap."""
    args, offset = [], 0
    for _ in range(rng.randrange(0, 6)):
        kind, size, extra = rng.choice(VALID_ARGS)
        offset = -(-offset // size) * size
        args.append({".offset": offset, ".size": size, ".value_kind": kind, **extra})
        offset += size
    return args, offset


def random_args_metadata(rng):
    if rng.random() < 0.5:
        return valid_args_metadata(rng)
    args, offset = [], 0
    for _ in range(rng.randrange(0, 7)):
        kind = rng.choice(VALUE_KINDS)
        size = rng.choice([1, 2, 4, 8, 8, 3, 0, 16])
        a = {".offset": offset, ".size": size, ".value_kind": kind}
        if kind == "global_buffer" or rng.random() < 0.2:
            a[".address_space"] = rng.choice(["global", "generic", "local", "private", "constant", "bogus"])
        if rng.random() < 0.5:
            a[".type_name"] = rng.choice(TYPE_NAMES)
        if rng.random() < 0.4:
            a[".name"] = rng.choice(["x", "out", "n", "", "\u00b2", "a" * 200])
        if kind == "dynamic_shared_pointer" and rng.random() < 0.5:
            a[".pointee_align"] = _hostile(rng)
        if rng.random() < 0.1:                              # a field made hostile
            a[rng.choice([".offset", ".size", ".value_kind", ".address_space"])] = _hostile(rng)
        args.append(a)
        offset += max(size, 1) if isinstance(size, int) else 4
        if rng.random() < 0.15:
            offset -= rng.choice([4, 8])                    # overlap
    return args, offset


def random_code_object(rng):
    """A code object built here: a body, a (possibly contradictory) descriptor, random metadata."""
    from assembler.amdgpu.elf_writer import KernelSpec, write_code_object
    from assembler.amdgpu.kernel_descriptor import KernelDescriptor
    from assembler.amdgpu.metadata import metadata_document, synthesize_kernel_map
    from assembler.rdna3 import assemble
    code = assemble(rng.choice(BODIES))
    args, end = random_args_metadata(rng)
    kernarg = max(end, rng.choice([0, 8, 16, 64, 256])) if rng.random() < 0.9 else rng.choice([0, 4])
    kd = KernelDescriptor(kernarg_size=kernarg, group_segment_fixed_size=rng.choice([0, 0, 1024, 65536, 65537]),
                          private_segment_fixed_size=rng.choice([0, 0, 16, 1 << 20]))
    kd.set("ENABLE_SGPR_KERNARG_SEGMENT_PTR", int(rng.random() < 0.9))
    kd.set("ENABLE_SGPR_DISPATCH_PTR", int(rng.random() < 0.2))
    kd.set("ENABLE_WAVEFRONT_SIZE32", int(rng.random() < 0.9))
    kd.set("USER_SGPR_COUNT", rng.choice([0, 2, 2, 4, 16, 31]))
    kd.set("ENABLE_SGPR_WORKGROUP_ID_X", 1)
    kd.set("GRANULATED_WORKITEM_VGPR_COUNT", rng.choice([0, 1, 7, 31]))
    if rng.random() < 0.1:
        kd.set("ENABLE_PRIVATE_SEGMENT", 1)
    kmap = synthesize_kernel_map("k", kernarg_size=kernarg, group_segment_fixed_size=kd.group_segment_fixed_size,
                                 private_segment_fixed_size=kd.private_segment_fixed_size, wavefront_size=32,
                                 sgpr_count=16, vgpr_count=8, max_flat_workgroup_size=rng.choice([1024, 64, 0, 2048]),
                                 args=args)
    if rng.random() < 0.1:
        kmap[rng.choice([".kernarg_segment_size", ".max_flat_workgroup_size", ".wavefront_size"])] = _hostile(rng)
    try:
        return write_code_object(code, [KernelSpec("k", 0, kd, metadata=kmap, sgpr_count=16, vgpr_count=8)],
                                 "gfx1100", metadata=metadata_document("amdgcn-amd-amdhsa--gfx1100", [kmap]))
    except (ValueError, TypeError):
        return None                                          # the writer refused it: not an input


def seed_code_objects():
    out = []
    for folder in (os.path.join(ROOT, "tests", "clang_kernels"), os.path.join(ROOT, "tests", "data", "codeobj")):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".hsaco"):
                with open(os.path.join(folder, name), "rb") as f:
                    out.append((name, f.read()))
    return out


def damaged(rng, data):
    d = bytearray(data)
    how = rng.randrange(4)
    if how == 0:
        return bytes(d[:rng.randrange(len(d))])
    for _ in range(rng.randrange(1, 16)):
        where = rng.randrange(len(d)) if how == 1 else rng.randrange(min(len(d), 512))
        d[where] = rng.randrange(256)
    return bytes(d)


def random_value(rng, dev, other_buf, own_bufs):
    from drivers.amd.kernargs import Pointer
    pick = rng.random()
    if pick < 0.35 and own_bufs:
        return rng.choice(own_bufs)
    return rng.choice([1.5, -2.0, 1e300, float("nan"), float("inf"), 7, -1, 1 << 40, 1 << 70, True, None, "s",
                       b"\x00" * 4, np.float32(2), np.int16(-3), np.float64(1e300), np.uint64(5), [1, 2],
                       Pointer(0), Pointer((1 << 64) - 1), other_buf, 64, 0, 1 << 20])


def random_dims(rng):
    return rng.choice([1, 32, 64, 256, (1, 1, 1), (2, 3), (4, 1, 2), (1024,), (1025,), 0, -1, (1, 0), 1.5, "4",
                       (1 << 31, 1), (2, 2, 2, 2), None, (64, 16)])


def launch_input(rng, dev, prg, other_buf, own_bufs):
    from drivers.errors import GPUError
    names = list(prg.kernels)
    try:
        k = prg[rng.choice(names + ["missing"]) if rng.random() < 0.05 else rng.choice(names)]
    except KeyError as e:
        raise GPUError(f"(expected KeyError for a missing kernel: {e})") from None
    specs = k.layout.args if k.layout is not None else []
    if specs and rng.random() < 0.6:                    # values of the right kinds, so launches run
        args = [rng.choice(own_bufs) if a.kind == "pointer" and own_bufs else
                rng.choice([0, 64, 4096]) if a.kind == "lds" else
                rng.choice([1.0, -0.5, 3]) if a.kind == "float" else rng.randrange(0, 1 << 8) for a in specs]
    else:
        nargs = len(specs) if k.layout is not None else rng.randrange(4)
        if rng.random() < 0.15:
            nargs += rng.choice([-1, 1])
        args = [random_value(rng, dev, other_buf, own_bufs) for _ in range(max(0, nargs))]
    wait = rng.random() < 0.7
    kw = dict(grid=random_dims(rng) if rng.random() < 0.3 else rng.choice([1, 2, (3, 1, 1)]),
              block=random_dims(rng) if rng.random() < 0.3 else rng.choice([32, 64, (16, 2)]), wait=wait)
    if rng.random() < 0.3:
        kw["timeout"] = rng.choice([0.5, 1, -1, float("nan"), "1", None])
    if rng.random() < 0.15:
        cb = dev.command_buffer()
        cb.add(k, *args, grid=kw["grid"], block=kw["block"])
        cb.submit(wait=wait, timeout=kw.get("timeout"))
        cb.submit()
        if rng.random() < 0.5:
            cb.update(0, *args)
        cb.free()
    else:
        k(*args, **kw)


def api_input(rng, dev, other_buf, own_bufs):
    op = rng.randrange(8)
    if op == 0:
        b = dev.alloc(rng.choice([1, 4096, 3, 1 << 20, 0, -5, 1.5, 1 << 64, 1 << 47, "8", (1 << 30) * 30]),
                      **rng.choice([{}, {"host": True}, {"uncached": True}, {"cpu_access": True},
                                    {"host": True, "uncached": True}]))
        own_bufs.append(b)
        return
    if not own_bufs:
        return
    buf = rng.choice(own_bufs + [other_buf])
    data = rng.choice([np.arange(64, dtype=np.uint8), b"abc", bytearray(10), np.zeros((4, 4), np.float32).T,
                       [1, 2], np.zeros(0, np.uint8), memoryview(b"xyzw"), np.array([object()])])
    offset = rng.choice([0, 1, 4093, -1, 1.5, None, 1 << 70, "0"])
    if op == 1:
        dev.copyin(buf, data, offset)
    elif op == 2:
        out = rng.choice([np.empty(16, np.uint8), np.empty(8, np.float64), bytearray(4), b"ro", np.empty(0)])
        dev.copyout(out, buf, offset)
    elif op == 3:
        dev.copy(rng.choice(own_bufs + [other_buf, data]), rng.choice(own_bufs + [other_buf, data]),
                 rng.choice([None, 1, 64, 1 << 40, -1]))
    elif op == 4:
        buf.free()
        if buf in own_bufs:
            own_bufs.remove(buf)
    elif op == 5:
        buf.view(rng.choice([np.uint8, np.float32]))[:1]
    elif op == 6:
        dev.synchronize(timeout=rng.choice([None, 0, 1, -1]))
    else:
        buf.copyin(data)


def session(rng, report, dog, seeds, index, n):
    """Up to PER_SESSION inputs on a fresh pair of virtual machines, then close both and check
    that nothing is left. Returns the next input number."""
    from drivers.amd.device import AMDDevice
    from drivers.emu import make_kernel
    kernel, other_kernel = make_kernel("gfx1100"), make_kernel("gfx1100")
    dev = AMDDevice(kernel=kernel, aql=rng.random() < 0.5, timeout=WAIT)
    other = AMDDevice(kernel=other_kernel, timeout=WAIT)
    other_buf = other.alloc(4096, cpu_access=True)
    own_bufs = [dev.alloc(4096), dev.alloc(1 << 16, cpu_access=True)]
    for _ in range(min(PER_SESSION, n - index)):
        kind = rng.random()
        what = "api call" if kind < 0.25 else "code object"
        with dog.input(index, what):
            try:
                if kind < 0.25:
                    api_input(rng, dev, other_buf, own_bufs)
                else:
                    if rng.random() < 0.5:
                        name, data = rng.choice(seeds)
                        what = f"{name}{' damaged' if rng.random() < 0.5 else ''}"
                        if what.endswith("damaged"):
                            data = damaged(rng, data)
                    else:
                        what, data = "built here", random_code_object(rng)
                        if data is None:            # the writer refused it: not an input of the runtime
                            continue
                    prg = dev.load(data) if rng.random() < 0.97 else dev.load(rng.choice([None, 3, "/nope"]))
                    for _ in range(rng.randrange(1, 4)):
                        launch_input(rng, dev, prg, other_buf, own_bufs)
                report.outcome(index, what)
            except Exception as e:                  # noqa: BLE001 -- the fuzzer's job is to sort them
                report.outcome(index, what, e)
        index += 1
    for dev_, k_, name in ((dev, kernel, "device"), (other, other_kernel, "other device")):
        try:
            dev_.close()
        except Exception as e:                      # noqa: BLE001
            report.leaks.append(f"{name} close raised {type(e).__name__}: {e}")
        live = k_.live()
        if any(live.values()) or k_.open_files or k_.kfd.cp.alive:
            report.leaks.append(f"{name} of inputs before {index}: {live}, open files {len(k_.open_files)}, "
                                f"CP thread alive {k_.kfd.cp.alive}")
    return index


def live_objects():
    """ids of the runtime's and the virtual machine's objects the collector finds now."""
    import gc
    from drivers.amd.device import AMDDevice
    from drivers.amd.memory import Buffer
    from drivers.amd.program import Program
    from drivers.emu.amd.machine import VirtualMachine
    gc.collect()
    kinds = (AMDDevice, Buffer, Program, VirtualMachine)
    return {id(obj): type(obj).__name__ for obj in gc.get_objects() if isinstance(obj, kinds)}


def surviving(before):
    """{class name: count} of such objects made since ``before`` (live_objects()) still alive."""
    counts = {}
    for key, name in live_objects().items():
        if key not in before:
            counts[name] = counts.get(name, 0) + 1
    return counts


def run(n, seed, hang):
    """Fuzz ``n`` inputs; returns the Report."""
    os.environ["GPU_EMULATE_BUDGET"] = str(BUDGET)
    import assembler.rdna3  # noqa: F401 (the import is warmed outside the watched inputs)
    rng = random.Random(seed)
    report = Report("fuzz_runtime", seed)
    dog = Watchdog("fuzz_runtime", hang, seed)
    seeds = seed_code_objects()
    fds, threads, objects = open_fds(), live_threads(), live_objects()
    start = time.perf_counter()
    index = 0
    while index < n:
        index = session(rng, report, dog, seeds, index, n)
    survivors = surviving(objects)
    if survivors:
        report.leaks.append(f"objects still alive after every device closed: {survivors}")
    extra = settle_threads(threads)
    if extra:
        report.leaks.append(f"threads still running: {extra}")
    if len(open_fds() - fds) > 0:
        report.leaks.append(f"file descriptors opened and not closed: {sorted(open_fds() - fds)}")
    report.seconds = time.perf_counter() - start
    return report


def main():
    args = main_args(__doc__.split("\n\n")[0], 2000, hang=120)
    report = run(args.n, args.seed, args.hang)
    print(report.text())
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
