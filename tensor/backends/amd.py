"""The AMD backend: tensors in AMDDevice buffers, kernels from the RDNA3 code generator.

    Tensor(x, device="AMD")       GPU 0;  "AMD:1" the second GPU
    GPU_EMULATE=gfx1100           the virtual gfx1100 (gfx1100xN: N of them, one machine)

Buffers are VRAM allocations; host copies go through the SDMA engine.  ``compile`` turns a
loop-level IR kernel into a code object (:mod:`tensor.codegen.rdna3`), loads it, and keeps it:
in memory by the kernel's IR, and on disk under ``~/.cache/gpustack/rdna3/<version>/`` (the
version is a hash of the code generator's sources, so a changed generator never reuses stale
code).  ``TENSOR_CACHE=0`` turns the disk cache off.  Launches are asynchronous; copies out
wait for them, up to ``TENSOR_GPU_TIMEOUT`` seconds (default 30 on a GPU, 600 on the virtual
one, whose speed is the host's and shared with whatever else runs there; a kernel that never
ends stops there at ``GPU_EMULATE_BUDGET`` wave-instructions anyway).  ``optimizations`` picks the lowering optimizations per kernel
(:mod:`tensor.backends.amd_opts`, with the optional ``BEAM=N`` search).
"""
import hashlib
import json
import os
import threading

from tensor.device import Backend, DeviceError

_machine = {}
_lock = threading.Lock()


def _env(name, default=""):
    return os.environ.get(name, default)


def emulated_target():
    t = _env("GPU_EMULATE")
    return t if t.startswith("gfx11") else None


def shared_kernel():
    """One kernel seam per process: every AMD device shares the KFD process (and, emulated,
    the virtual machine, so peer copies between its GPUs work)."""
    with _lock:
        target = emulated_target()
        k = _machine.get(target)
        if k is None:
            if target:
                from drivers.emu import make_kernel
                k = make_kernel(target)
            else:
                from drivers.amd.device import _host_kernel
                k = _host_kernel()
            _machine[target] = k
        return k


def _codegen_version():
    import tensor.codegen.rdna3 as pkg
    h = hashlib.sha256()
    folder = os.path.dirname(pkg.__file__)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()[:16]


def kernel_hash(kernel):
    """A stable digest of what a kernel computes (its IR, parameters and sizes)."""
    h = hashlib.sha256()
    h.update(repr((kernel.name, [(p.name, p.dtype.name, p.size, p.output) for p in kernel.params],
                   [(x.op.value, x.dtype.name, x.src, repr(x.arg)) for x in kernel.instrs],
                   tuple(kernel.global_size), tuple(kernel.local_size))).encode())
    return h.hexdigest()


def cache_dir():
    base = _env("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gpustack", "rdna3", VERSION)


VERSION = None


class Program:
    """A loaded kernel: what ``launch`` needs."""
    __slots__ = ("name", "kernel", "grid", "block", "compiled", "loaded", "__dict__")

    def __init__(self, name, kernel, grid, block, compiled, loaded):
        self.name, self.kernel, self.grid, self.block = name, kernel, grid, block
        self.compiled, self.loaded = compiled, loaded


class AMDBackend(Backend):
    name = "AMD"
    description = "RDNA3 (gfx1100) code generator, kernels run through AMDDevice"
    max_global_dims = 3

    def __init__(self, index=0):
        super().__init__(index)
        from drivers.amd.device import AMDDevice
        global VERSION
        if VERSION is None:
            VERSION = _codegen_version()
        kernel = shared_kernel()
        from drivers.settings import SettingError, env_int
        try:
            timeout = env_int("TENSOR_GPU_TIMEOUT", 600 if emulated_target() else 30, 1)
        except SettingError as e:
            raise DeviceError(str(e)) from None
        try:
            self.dev = AMDDevice(index, kernel=kernel, timeout=timeout)
        except Exception as e:
            hint = ""
            if emulated_target() and index > 0:
                from drivers.emu.machine import parse_target
                base = parse_target(emulated_target())[0]
                hint = f" (GPU_EMULATE={base}xN makes a machine of N virtual GPUs)"
            raise DeviceError(f"cannot open AMD:{index}: {e}{hint}") from e
        self.description = f"{self.dev.target} (gpu_id {self.dev.gpu_id:#x})" + \
            (" on the virtual GPU" if emulated_target() else "")
        self._programs = {}
        self._disk = _env("TENSOR_CACHE", "1") != "0"
        self._dead = []                  # freed by the tensor layer, maybe still read by a launch
        self._thread = threading.get_ident()    # the thread that may wait for the GPU in free()

    @classmethod
    def probe(cls):
        if emulated_target():
            return True, f"virtual {emulated_target()} (GPU_EMULATE)"
        if _env("GPU_EMULATE"):
            return False, f"GPU_EMULATE={_env('GPU_EMULATE')} is not an AMD target"
        if os.path.exists("/dev/kfd"):
            try:
                from drivers.amd.device import AMDDevice  # noqa: F401  (the driver imports)
                return True, "/dev/kfd"
            except Exception as e:        # pragma: no cover - depends on the machine
                return False, f"/dev/kfd present but the driver cannot load: {e}"
        return False, "no /dev/kfd (set GPU_EMULATE=gfx1100 for the virtual GPU)"

    # ---- memory --------------------------------------------------------------------------
    def alloc(self, nbytes):
        return self.dev.alloc(max(int(nbytes), 1))

    def free(self, handle):
        """Free once no launch in flight can still read the buffer (frees are batched)."""
        if self.dev.closed or handle.freed:
            return
        self._dead.append(handle)
        # a buffer the collector finalizes on another thread (the virtual GPU's command processor,
        # in the middle of a dispatch) must not wait for the GPU there: the next free or
        # synchronize of the backend's own thread releases it
        if len(self._dead) >= 256 and threading.get_ident() == self._thread:
            self.synchronize()

    def copyin(self, handle, host):
        self.dev.synchronize()          # kernels in flight may still read the old contents
        self.dev.copyin(handle, host)

    def copyout(self, handle, host):
        self.dev.synchronize()
        self.dev.copyout(host, handle)

    def copy_from(self, dst, src):
        """Buffer -> buffer without the host when the source is on an AMD device of this
        process (SDMA reads a peer GPU's memory through the peer mapping); False otherwise."""
        if not str(src.device).startswith("AMD") or src.nbytes != dst.nbytes:
            return False
        from tensor import device as devices
        other = devices.get(src.device)
        if other.dev.process is not self.dev.process:
            return False
        if not src.nbytes:
            return True
        other.dev.synchronize()             # the producer's kernels have written the source
        self.dev.synchronize()              # our kernels in flight may still read the old data
        self.dev.copy(dst.handle(), src.handle(), src.nbytes)
        return True

    def synchronize(self):
        self.dev.synchronize()
        dead, self._dead = self._dead, []
        for h in dead:
            if not h.freed:
                h.free()

    # ---- kernels -------------------------------------------------------------------------
    def compile(self, kernel, block=None):
        key = (kernel.key, block)
        prog = self._programs.get(key)
        if prog is not None:
            return prog
        compiled = self._load_cached(kernel, block)
        if compiled is None:
            from tensor.codegen.rdna3 import compile_kernel
            compiled = compile_kernel(kernel, block=block)
            self._store_cached(kernel, block, compiled)
        loaded = self.dev.load(compiled["code_object"] if isinstance(compiled, dict) else compiled.code_object,
                               source=f"<{kernel.name}>")
        info = compiled if isinstance(compiled, dict) else \
            {"name": compiled.name, "grid": compiled.grid, "block": compiled.block}
        prog = Program(info["name"], loaded[info["name"]], tuple(info["grid"]), tuple(info["block"]),
                       compiled, loaded)
        self._programs[key] = prog          # (DEBUG=3: AMDDevice.load prints the disassembly)
        return prog

    def _paths(self, kernel, block):
        digest = kernel_hash(kernel) + ("" if block is None else "-" + "x".join(map(str, block)))
        d = cache_dir()
        return os.path.join(d, digest + ".hsaco"), os.path.join(d, digest + ".json")

    def _load_cached(self, kernel, block):
        if not self._disk:
            return None
        co_path, meta_path = self._paths(kernel, block)
        try:
            with open(meta_path) as f:
                meta = json.load(f)
            with open(co_path, "rb") as f:
                meta["code_object"] = f.read()
            return meta
        except (OSError, ValueError):
            return None

    def _store_cached(self, kernel, block, ck):
        if not self._disk:
            return
        co_path, meta_path = self._paths(kernel, block)
        try:
            os.makedirs(os.path.dirname(co_path), exist_ok=True)
            tmp = f"{co_path}.{os.getpid()}.tmp"
            with open(tmp, "wb") as f:
                f.write(ck.code_object)
            os.replace(tmp, co_path)
            tmp = f"{meta_path}.{os.getpid()}.tmp"
            with open(tmp, "w") as f:
                json.dump({"name": ck.name, "grid": list(ck.grid), "block": list(ck.block),
                           "vgprs": ck.vgprs, "sgprs": ck.sgprs}, f)
            os.replace(tmp, meta_path)
        except OSError:
            pass                         # a read-only home: compile every time

    def launch(self, program, handles, timed=False):
        return program.kernel(*handles, grid=program.grid, block=program.block, wait=timed)

    def batch(self, programs):
        """Launches the jit replays together: see :class:`CommandBatch`."""
        return CommandBatch(self, programs)

    def optimizations(self, info):
        from tensor.backends.amd_opts import choose
        return choose(self, info)


class CommandBatch:
    """A run of kernel launches recorded once into an AMDDevice command buffer (their kernel
    arguments and PM4 in GPU memory, replayed by one INDIRECT_BUFFER packet); a later call with
    other buffers patches just those launches' arguments in place (``cb.update``)."""

    def __init__(self, backend, programs):
        self.backend, self.programs = backend, programs
        self.cb, self.args = None, None

    def __call__(self, handle_lists):
        if self.cb is None:
            cb = self.backend.dev.command_buffer()
            for p, hs in zip(self.programs, handle_lists):
                cb.add(p.kernel, *hs, grid=p.grid, block=p.block)
            self.cb, self.args = cb, [list(hs) for hs in handle_lists]
            if int(_env("DEBUG", "0") or 0) >= 1:
                print(f"jit: {len(self.programs)} launches recorded into a command buffer on "
                      f"{self.backend.name}:{self.backend.index}")
        else:
            for i, hs in enumerate(handle_lists):
                old = self.args[i]
                if any(a is not b for a, b in zip(hs, old)):
                    self.cb.update(i, *hs)
                    self.args[i] = list(hs)
        self.cb.submit()
