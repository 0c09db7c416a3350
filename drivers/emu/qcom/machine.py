"""The virtual Qualcomm machine behind the kernel seam: KGSL's sysfs, socinfo, /dev/kgsl-3d0.

``VirtualMachine("a630", 1)`` looks like a Snapdragon 845 phone (``drivers.emu.make_kernel``
picks it for the target ``a630``). A phone has one GPU, so MAX_GPUS is 1.

    kernel.kgsl      the KgslDevice (contexts, the card it reports)
    kernel.gpus      [that device]; kernel.gpu the same
    kernel.live()    what the process holds: open files, contexts
"""
from drivers.emu.kernel import EmulatedKernel
from drivers.emu.qcom.cards import CARDS, render_sysfs

# Emulation targets -> the card whose sysfs and DEVICE_INFO the virtual machine reports.
TARGETS = {"a630": "a630"}
MAX_GPUS = 1
KGSL_NODE = "/dev/kgsl-3d0"
# Android's ueventd gives the node to system:system, mode 0666.
KGSL_NODE_OWNER = ("system", "system", 0o666)


class VirtualMachine(EmulatedKernel):
    """A phone with the Adreno of `target` behind KGSL."""

    def __init__(self, target, gpus=1):
        if gpus != 1:
            raise ValueError(f"a Snapdragon phone has one GPU, not {gpus}")
        from drivers.emu.qcom.kgsl import KgslDevice    # not when another vendor's target is chosen
        card = CARDS[TARGETS[target]]
        super().__init__(render_sysfs(card), {}, owners={KGSL_NODE: KGSL_NODE_OWNER})
        self.kgsl = KgslDevice(card)
        self.devices[KGSL_NODE] = self.kgsl.open
        self.gpus = [self.kgsl]
        self.gpu = self.kgsl
        self.target = target

    def live(self):
        return self.kgsl.live()
