"""The KFD process: what this OS process shares across all its AMD devices on one kernel.

amdkfd keeps one process object per address space, so every device of this Python process
shares one /dev/kfd descriptor, one event page (the first signal event of a dGPU process must
name it) and one VM per GPU (ACQUIRE_VM binds the render node's VM once). Devices take a
reference here and drop it on close; the last one out releases everything.
"""
from drivers.amd import probe
from drivers.amd.kfd import KFD, SIGNAL_EVENT_LIMIT
from drivers.amd.memory import GTT, Memory
from drivers.amd.topology import read_topology
from drivers.errors import DeviceNotFound, IoctlError
from drivers.kernel import O_RDWR

EVENT_PAGE_SIZE = SIGNAL_EVENT_LIMIT * 8           # one 8-byte mailbox per signal event


class GPU:
    """One GPU opened in the process: its topology node, render node fd and memory."""

    def __init__(self, node, drm_fd, memory):
        self.node, self.drm_fd, self.memory, self.users = node, drm_fd, memory, 0


class KFDProcess:
    _open = {}            # id(kernel) -> KFDProcess

    @classmethod
    def acquire(cls, kernel):
        proc = cls._open.get(id(kernel))
        if proc is None:
            proc = cls._open[id(kernel)] = cls(kernel)
        proc.refs += 1
        return proc

    def __init__(self, kernel):
        self.kernel, self.refs = kernel, 0
        try:
            report = probe.probe(kernel)
        except probe.NoGPU as e:
            raise DeviceNotFound(str(e)) from None
        self.report = report
        self.topology = read_topology(kernel)
        self.kfd = KFD(kernel)
        self.gpus = {}                    # gpu_id -> GPU
        self.runtime_enabled = False
        self.event_page = None            # (Buffer, GPU that allocated it)

    def node(self, index):
        """The index-th GPU node, or DeviceNotFound with the probe's reason."""
        devices = self.report["devices"]
        if not 0 <= index < len(devices):
            usable = sum(d["usable"] for d in devices)
            raise DeviceNotFound(f"no AMD GPU with index {index}: this machine has {len(devices)} GPU node(s), "
                                 f"{usable} usable")
        d = devices[index]
        if not d["usable"]:
            raise DeviceNotFound(f"GPU {index} ({d['gfx_target']}, {d['name']}) is not usable: {d['reason']}")
        return self.topology.gpus[index]

    def open_gpu(self, node):
        gpu = self.gpus.get(node.gpu_id)
        if gpu is None:
            try:
                drm_fd = self.kernel.open(node.render_node, O_RDWR)
            except OSError as e:
                raise DeviceNotFound(f"cannot open {node.render_node}: {probe.render_node_status(self.kernel, node) or e}") from None
            try:
                self.kfd.acquire_vm(drm_fd, node.gpu_id)
                if not self.runtime_enabled and self.kfd.has_runtime_enable:
                    self.kfd.runtime_enable()
                    self.runtime_enabled = True
            except IoctlError:
                self.kernel.close(drm_fd)
                raise
            gpu = self.gpus[node.gpu_id] = GPU(node, drm_fd, Memory(self.kfd, drm_fd, node.gpu_id))
        gpu.users += 1
        return gpu

    def event_page_handle(self, gpu):
        """Handle to pass with this process's first signal event (None once the page exists;
        then it is only mapped into ``gpu`` too, so that GPU's signals can reach the mailboxes)."""
        if self.event_page is not None:
            buf, owner = self.event_page
            owner.memory.map_peer(buf, gpu.node.gpu_id)
            return None
        buf = gpu.memory.alloc(EVENT_PAGE_SIZE, GTT)
        gpu.memory.live.pop(buf.va)        # owned by the process, not by the device's allocations
        self.event_page = (buf, gpu)
        return buf.handle

    def release_gpu(self, gpu):
        gpu.users -= 1

    def release(self):
        self.refs -= 1
        if self.refs > 0:
            return
        del KFDProcess._open[id(self.kernel)]
        errors = []
        if self.event_page is not None:
            buf, gpu = self.event_page
            try:
                gpu.memory.free(buf, free_bo=False)
            except Exception as e:      # keep releasing the rest; report the first failure
                errors.append(e)
        for gpu in self.gpus.values():
            try:
                gpu.memory.close()
                self.kernel.close(gpu.drm_fd)
            except Exception as e:
                errors.append(e)
        self.kfd.close()
        if errors:
            raise errors[0]
