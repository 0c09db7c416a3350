"""Code objects placed in GPU memory, and their kernels as callables.

``Program(device, data)`` reads the code object with assembler.amdgpu's reader (ours or
clang-19/ld.lld-19 output), copies the relocated image into VRAM and exposes each kernel:

    secs = prg["saxpy"](x, y, 2.0, n, grid=(gx, 1, 1), block=(64, 1, 1), wait=True)

A kernel keeps what every launch needs precomputed: code and descriptor addresses, RSRC1/2/3
(RSRC2 with the LDS size the dispatch must reserve), wave size, the user SGPRs it takes, the
kernarg layout (its metadata checked at load) and, per queue, the PM4 of its dispatch.
"""

from assembler.amdgpu.elf_reader import load_code_object

from drivers.amd.compute import user_sgpr_plan
from drivers.amd.kernargs import KernargLayout
from drivers.amd.memory import PAGE, round_up
from drivers.settings import debug_line
from drivers.errors import AssemblerError, GPUError, InvalidArgument

LDS_GRANULE = 512                     # RSRC2.LDS_SIZE unit on gfx10+ compute
MAX_WORKGROUP_ITEMS = 1024


class Kernel:
    def __init__(self, program, info, source="<code object>"):
        self.program, self.name, self.descriptor = program, info.name, info.descriptor
        kd = info.descriptor
        self.kd_va = program.base + info.kd_offset
        self.code_va = program.base + info.entry_offset
        if self.code_va % 256:
            raise GPUError(f"kernel {self.name}: entry 0x{self.code_va:x} is not 256-byte aligned")
        if self.kd_va % 64:
            raise GPUError(f"kernel {self.name}: descriptor 0x{self.kd_va:x} is not 64-byte aligned (an AQL "
                           "packet's kernel_object must be)")
        self.group_segment_size = kd.group_segment_fixed_size
        self.private_segment_size = kd.private_segment_fixed_size
        self.rsrc1 = kd.compute_pgm_rsrc1
        self.rsrc2 = self.rsrc2_for(self.group_segment_size)
        self.rsrc3 = kd.compute_pgm_rsrc3
        self.wave32 = kd.wave32
        self.needs_scratch = bool(kd.compute_pgm_rsrc2 & 1) or self.private_segment_size > 0
        self.needs_dispatch_ptr = bool(kd.get("ENABLE_SGPR_DISPATCH_PTR"))
        self.metadata = info.metadata
        self.max_workgroup_items = MAX_WORKGROUP_ITEMS
        if info.metadata is not None:
            self.layout = KernargLayout.from_metadata(self.name, info.metadata, kd.kernarg_size, source)
            flat = info.metadata.max_flat_workgroup_size
            self.max_workgroup_items = min(MAX_WORKGROUP_ITEMS, flat) if flat and flat > 0 else MAX_WORKGROUP_ITEMS
        else:
            self.layout = None
        self._sequential = {}
        self.templates = {}             # (queue generation, scratch, LDS) -> the queue's DispatchTemplate
        try:
            self.user_sgpr_plan = user_sgpr_plan(self)
            self.refusal = None
        except GPUError as e:           # a descriptor no dispatch can use: every launch says why
            self.user_sgpr_plan, self.refusal = ([], 0), e

    def rsrc2_for(self, lds_bytes):
        """COMPUTE_PGM_RSRC2 with LDS_SIZE covering ``lds_bytes`` (static + dynamic LDS)."""
        lds_blocks = -(-lds_bytes // LDS_GRANULE)
        return (self.descriptor.compute_pgm_rsrc2 & ~(0x1FF << 15)) | (lds_blocks << 15)

    def layout_for(self, args):
        """The kernarg layout (from metadata, or by the Python types of ``args`` without it)."""
        if self.layout is not None:
            return self.layout
        key = tuple("p" if hasattr(a, "va") else type(a).__name__ for a in args)
        layout = self._sequential.get(key)
        if layout is None:
            if len(self._sequential) >= 64:
                self._sequential.clear()
            layout = self._sequential[key] = KernargLayout.sequential(self.name, args, self.descriptor.kernarg_size)
        return layout

    def __call__(self, *args, grid=(1, 1, 1), block=(1, 1, 1), wait=False, timeout=None):
        """Launch; with ``wait=True`` block until done and return the GPU execution time (s)."""
        if self.program.buffer.freed:
            raise GPUError(f"kernel {self.name}: its program was freed (code at 0x{self.code_va:x} is gone)")
        return self.program.device.launch(self, args, grid, block, wait, timeout)

    def __repr__(self):
        return f"Kernel({self.name!r} at 0x{self.code_va:x})"


def disassembly(code_object, info, target):
    """The kernel's instructions as text (DEBUG=3), from the in-tree RDNA3 decoder."""
    head = f"kernel {info.name}: {info.code_size if info.code_size is not None else '?'} bytes of {target} code"
    if not target.startswith("gfx11"):
        return head + " (no disassembler for this target)"
    from assembler.rdna3.decoder import decode
    end = info.entry_offset + (info.code_size or 0)
    lines, pc = [head], info.entry_offset
    while pc < end:
        try:
            ins, size = decode(code_object.image, pc)
        except AssemblerError as e:
            lines.append(f"  {pc:#06x}: {e}")
            break
        lines.append(f"  {pc:#06x}: {ins.text}")
        pc += size
    return "\n".join(lines)


class Program:
    def __init__(self, device, data, source="<code object>"):
        self.device = device
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        if not isinstance(data, bytes):
            raise InvalidArgument(f"AMDDevice.load takes a code object (bytes) or the path of one, "
                                  f"got {type(data).__name__}")
        self.code_object = co = load_code_object(data, source, expected_target=device.target)
        self.image_size = round_up(max(len(co.image), 1), PAGE)
        self.buffer = device.alloc(self.image_size)
        try:
            self.base = self.buffer.va
            image = co.relocated_image(self.base)
            device.copyin_raw(self.buffer, image)
            self.kernels = {name: Kernel(self, info, source) for name, info in co.kernels.items()}
        except BaseException:
            self.buffer.free()
            raise
        compute = device.compute
        if not compute.use_aql:                # a first launch finds its PM4 ready (built now, not then)
            for k in self.kernels.values():
                if k.refusal is None and not k.needs_scratch:
                    compute.dispatch_template(k, k.group_segment_size)
        if device.debug >= 3:
            for info in co.kernels.values():
                debug_line(disassembly(co, info, device.target))

    def __getitem__(self, name):
        try:
            return self.kernels[name]
        except (KeyError, TypeError):
            raise KeyError(f"no kernel {name!r} in this program (has: {', '.join(self.kernels)})") from None

    def __contains__(self, name):
        return name in self.kernels

    def free(self):
        self.device.synchronize()
        self.buffer.free()
