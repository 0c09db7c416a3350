"""The virtual Adreno behind the kernel seam: /dev/kgsl-3d0 and its sysfs, one machine per target.

    machine.py       VirtualMachine("a630"): the phone (KGSL's sysfs, socinfo, the device node)
    cards.py         the Adreno 630/650/660 as KGSL and socinfo report them
    kgsl.py          the KGSL device file: ioctl dispatch, properties, draw contexts
    kgsl_memory.py   GPU objects, their mmap at id << 12, emulated cache maintenance
    kgsl_submit.py   GPU_COMMAND, timestamps, waits, fault reports
    gpu.py           the GPU: submissions of every context in bounded slices, faults, hangs
    registers.py     the A6XX compute registers (both of mesa's names) and CP_PROTECT
    cp.py            the command processor: type-4/7 packets, IBs, LOAD_STATE6, dispatch
    shader/          the ir3 simulator
    simulate.py      simulate(program, ...): one ir3 program without KGSL

Each ioctl is one handler in KgslFile.HANDLERS; one not served is EINVAL "not emulated".
"""
