"""The copy engine of the virtual GPU (AMPERE_DMA_COPY_B, HOPPER_DMA_COPY_A).

OFFSET_IN/OUT, PITCH_IN/OUT, LINE_LENGTH_IN and LINE_COUNT are latched; LAUNCH_DMA moves
LINE_LENGTH_IN bytes (LINE_COUNT lines of them with MULTI_LINE_ENABLE) between pitch-linear virtual
addresses, or with REMAP_ENABLE fills the destination with the REMAP constants (memset), and then
releases the semaphore at SET_SEMAPHORE_A/B: one word (the payload, 32 or 64 bits with
SEMAPHORE_PAYLOAD_SIZE) or four words (the payload and the GPU time at +8).  Block-linear layouts,
physical addresses and source swizzles are refused by name; a VA outside the VM is an MMU fault.
"""
import nv_ioctl as NV

from drivers.emu.nv.faults import ClassError
from drivers.emu.nv.pbdma import semaphore_reduce, write_semaphore

_STATE = {NV.NVC7B5_NOP, NV.NVC7B5_SET_SEMAPHORE_A, NV.NVC7B5_SET_SEMAPHORE_B, NV.NVC7B5_SET_SEMAPHORE_PAYLOAD,
          NV.NVC7B5_SET_SEMAPHORE_PAYLOAD_UPPER, NV.NVC7B5_OFFSET_IN_UPPER, NV.NVC7B5_OFFSET_IN_LOWER,
          NV.NVC7B5_OFFSET_OUT_UPPER, NV.NVC7B5_OFFSET_OUT_LOWER, NV.NVC7B5_PITCH_IN, NV.NVC7B5_PITCH_OUT,
          NV.NVC7B5_LINE_LENGTH_IN, NV.NVC7B5_LINE_COUNT, NV.NVC7B5_SET_REMAP_CONST_A, NV.NVC7B5_SET_REMAP_CONST_B,
          NV.NVC7B5_SET_REMAP_COMPONENTS}
CHUNK = 16 << 20                   # bytes moved per step, so a huge copy does not double host memory


class CopyEngine:
    def __init__(self, channel, class_id):
        self.channel, self.class_id = channel, class_id
        self.state = {}
        self.bytes_copied = 0

    def bind(self, subch):
        pass

    def release(self):
        pass

    def _reg(self, method):
        return self.state.get(method, 0)

    def fail(self, where, message):
        raise ClassError(f"{self.channel.describe()}: {where}: {NV.class_name(self.class_id)} {message}",
                         NV.ROBUST_CHANNEL_CE0_ERROR)

    def method(self, method, data, where):
        if method == 0:                                        # SET_OBJECT
            if data & 0xFFFF != self.class_id:
                self.fail(where, f"SET_OBJECT names class 0x{data & 0xFFFF:04X}")
            return None
        if method in _STATE:
            self.state[method] = data
            return None
        if method == NV.NVC7B5_LAUNCH_DMA:
            return self.launch(data, where)
        self.fail(where, f"method 0x{method:x} (data 0x{data:x}) is not one the virtual copy engine implements")

    def launch(self, data, where):
        transfer = NV.NVC7B5_LAUNCH_DMA_DATA_TRANSFER_TYPE.val(data)
        if transfer != NV.NVC7B5_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE:
            for name, field, pitch in (("SRC", NV.NVC7B5_LAUNCH_DMA_SRC_MEMORY_LAYOUT, 1),
                                       ("DST", NV.NVC7B5_LAUNCH_DMA_DST_MEMORY_LAYOUT, 1)):
                if field.val(data) != pitch:
                    self.fail(where, f"LAUNCH_DMA with a BLOCKLINEAR {name} layout is not emulated (PITCH is)")
            if NV.NVC7B5_LAUNCH_DMA_SRC_TYPE.val(data) or NV.NVC7B5_LAUNCH_DMA_DST_TYPE.val(data):
                self.fail(where, "LAUNCH_DMA with PHYSICAL addresses is not emulated (VIRTUAL is)")
            lines = max(1, self._reg(NV.NVC7B5_LINE_COUNT)) if NV.NVC7B5_LAUNCH_DMA_MULTI_LINE_ENABLE.val(data) else 1
            if NV.NVC7B5_LAUNCH_DMA_REMAP_ENABLE.val(data):
                self._fill(where, lines)
            else:
                self._copy(lines)
        self._semaphore(data, where)
        return None

    def _copy(self, lines):
        vm = self.channel.vaspace.vm
        src = (NV.NVC7B5_OFFSET_IN_UPPER_UPPER.val(self._reg(NV.NVC7B5_OFFSET_IN_UPPER)) << 32) | \
            self._reg(NV.NVC7B5_OFFSET_IN_LOWER)
        dst = (NV.NVC7B5_OFFSET_OUT_UPPER_UPPER.val(self._reg(NV.NVC7B5_OFFSET_OUT_UPPER)) << 32) | \
            self._reg(NV.NVC7B5_OFFSET_OUT_LOWER)
        length = self._reg(NV.NVC7B5_LINE_LENGTH_IN)
        for line in range(lines):
            s = src + line * self._reg(NV.NVC7B5_PITCH_IN)
            d = dst + line * self._reg(NV.NVC7B5_PITCH_OUT)
            for off in range(0, length, CHUNK):
                n = min(CHUNK, length - off)
                vm.write(d + off, vm.translate(s + off, n).copy())
            self.bytes_copied += length

    def _fill(self, where, lines):
        """REMAP with constant components only: a memset of LINE_LENGTH_IN elements."""
        comps = self._reg(NV.NVC7B5_SET_REMAP_COMPONENTS)
        size = NV.NVC7B5_SET_REMAP_COMPONENTS_COMPONENT_SIZE.val(comps) + 1
        count = NV.NVC7B5_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS.val(comps) + 1
        consts = {NV.NVC7B5_SET_REMAP_COMPONENTS_DST_X_CONST_A: self._reg(NV.NVC7B5_SET_REMAP_CONST_A),
                  NV.NVC7B5_SET_REMAP_COMPONENTS_DST_X_CONST_B: self._reg(NV.NVC7B5_SET_REMAP_CONST_B)}
        pattern = b""
        for field in (NV.NVC7B5_SET_REMAP_COMPONENTS_DST_X, NV.NVC7B5_SET_REMAP_COMPONENTS_DST_Y,
                      NV.NVC7B5_SET_REMAP_COMPONENTS_DST_Z, NV.NVC7B5_SET_REMAP_COMPONENTS_DST_W)[:count]:
            sel = field.val(comps)
            if sel not in consts:
                self.fail(where, f"REMAP component select {sel} reads the source; only CONST_A/CONST_B fills are "
                                 "emulated")
            pattern += (consts[sel] & ((1 << 8 * size) - 1)).to_bytes(size, "little")
        vm = self.channel.vaspace.vm
        dst = (NV.NVC7B5_OFFSET_OUT_UPPER_UPPER.val(self._reg(NV.NVC7B5_OFFSET_OUT_UPPER)) << 32) | \
            self._reg(NV.NVC7B5_OFFSET_OUT_LOWER)
        nbytes = self._reg(NV.NVC7B5_LINE_LENGTH_IN) * len(pattern)
        for line in range(lines):
            vm.fill(dst + line * self._reg(NV.NVC7B5_PITCH_OUT), pattern, nbytes)
        self.bytes_copied += nbytes * lines

    def _semaphore(self, data, where):
        kind = NV.NVC7B5_LAUNCH_DMA_SEMAPHORE_TYPE.val(data)
        if kind == NV.NVC7B5_LAUNCH_DMA_SEMAPHORE_TYPE_NONE:
            return
        if kind == NV.NVC7B5_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_CONDITIONAL_INTR_SEMAPHORE:
            self.fail(where, "LAUNCH_DMA SEMAPHORE_TYPE CONDITIONAL_INTR is not emulated")
        vm = self.channel.vaspace.vm
        addr = (NV.NVC7B5_SET_SEMAPHORE_A_UPPER.val(self._reg(NV.NVC7B5_SET_SEMAPHORE_A)) << 32) | \
            self._reg(NV.NVC7B5_SET_SEMAPHORE_B)
        wide = NV.NVC7B5_LAUNCH_DMA_SEMAPHORE_PAYLOAD_SIZE.val(data) == \
            NV.NVC7B5_LAUNCH_DMA_SEMAPHORE_PAYLOAD_SIZE_TWO_WORD
        payload = self._reg(NV.NVC7B5_SET_SEMAPHORE_PAYLOAD) | \
            ((self._reg(NV.NVC7B5_SET_SEMAPHORE_PAYLOAD_UPPER) << 32) if wide else 0)
        if NV.NVC7B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE.val(data):
            op, signed = (data >> 14) & 0xF, not (data >> 18) & 1
            if op > NV.NVC56F_SEM_EXECUTE_REDUCTION_DEC:
                self.fail(where, f"semaphore reduction {op} (float reductions) is not emulated")
            old = vm.u64(addr) if wide else vm.u32(addr)
            payload = semaphore_reduce(op, old, payload, 64 if wide else 32, signed)
        four = kind == NV.NVC7B5_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE
        write_semaphore(vm, addr, payload, wide, self.channel.gpu.ptimer() if four else None,
                        f"{self.channel.describe()}: {where}: LAUNCH_DMA semaphore")
        if four and not wide:
            vm.write_u32(addr + 4, 0)

