"""The NVIDIA driver: /proc/driver/nvidia, the RM (resource manager) escapes on /dev/nvidiactl and
/dev/nvidiaN, and UVM on /dev/nvidia-uvm, over the kernel seam with the layouts of the running
driver branch (nv_ioctl).

    python -m drivers.nv.probe            # which NVIDIA GPUs, and can this stack use them
    python -m drivers.nv.probe --emulate sm_86

Modules: procfs (the /proc tree), rm (NvCtl, RmClient, RMError), uvm, chips (SM versions, chip
names, boards' public specifications), probe (the command).
"""
