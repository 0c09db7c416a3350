"""The virtual KGSL behind /dev/kgsl-3d0: properties and contexts, refused as the kernel refuses them."""
import errno

import pytest

import kgsl_ioctl as K
from drivers.emu import make_kernel, parse_target, targets
from drivers.errors import IoctlError
from drivers.qcom.kgsl import (COMPUTE_CONTEXT_FLAGS, create_context, destroy_context, device_info, get_property,
                               open_device)

NOTHING_LIVE = {"files": 0, "contexts": 0, "objects": 0, "mappings": 0, "pending": 0}


@pytest.fixture
def kgsl():
    kernel = make_kernel("a630")
    fd = open_device(kernel)
    yield kernel, fd
    if fd in kernel.open_files:
        kernel.close(fd)


def ioctl(kernel, fd, request, args):
    kernel.ioctl(fd, request, args, K.by_request(request).name if K.by_request(request) else None)
    return args


def getprop(kernel, fd, prop, value, sizebytes=None):
    args = K.new("kgsl_device_getproperty", type=prop, value=K.address_of(value) if value is not None else 0,
                 sizebytes=K.ffi.sizeof(K.ffi.typeof(value).item) if sizebytes is None else sizebytes)
    return ioctl(kernel, fd, K.IOCTL_KGSL_DEVICE_GETPROPERTY, args)


def refused(err, match):
    return pytest.raises(IoctlError, match=rf"failed: {errno.errorcode[err]} \(.*{match}")


def test_target_registry():
    assert targets()["a630"] == "qcom" and parse_target("a630")[:2] == ("a630", 1)
    kernel = make_kernel("a630")
    assert kernel.target == "a630" and kernel.gpus == [kernel.kgsl] and kernel.live() == NOTHING_LIVE
    with pytest.raises(ValueError, match="a virtual machine holds 1 to 1 GPUs, not 2"):
        make_kernel("a630", gpus=2)


def test_device_info_and_properties(kgsl):
    kernel, fd = kgsl
    info = device_info(kernel, fd)
    assert (info.device_id, info.chip_id, info.mmu_enabled, info.gmem_bytes, info.gmem_base) == (
        1, 0x06030001, True, 1 << 20, 0)
    assert (info.kgsl_version, info.va_bits, info.highest_bank_bit, info.ucode_version) == ("3.14", 48, 15, (0, 0))
    raw = K.new("kgsl_devinfo")
    getprop(kernel, fd, K.KGSL_PROP_DEVICE_INFO, raw)
    assert raw.gpu_id == 0          # adreno leaves it 0, so a driver must use chip_id
    shadow = get_property(kernel, fd, K.KGSL_PROP_DEVICE_SHADOW, "struct kgsl_shadowprop")
    assert shadow.flags == K.KGSL_FLAGS_INITIALIZED | K.KGSL_FLAGS_PER_CONTEXT_TIMESTAMPS and shadow.size == 32768
    assert get_property(kernel, fd, K.KGSL_PROP_INTERRUPT_WAITS, "int32_t") == 1
    assert get_property(kernel, fd, K.KGSL_PROP_UCHE_GMEM_VADDR, "uint64_t") == 0


def test_wrong_sizebytes_is_einval(kgsl):
    kernel, fd = kgsl
    info = K.ffi.new("char[64]")
    with refused(errno.EINVAL, r"KGSL_PROP_DEVICE_INFO\): sizebytes is 28, the property is 40 bytes"):
        getprop(kernel, fd, K.KGSL_PROP_DEVICE_INFO, info, sizebytes=28)
    with refused(errno.EINVAL, r"KGSL_PROP_VERSION\): sizebytes is 64"):
        getprop(kernel, fd, K.KGSL_PROP_VERSION, info, sizebytes=64)
    # "at least" properties take a larger buffer and refuse a smaller one.
    assert get_property(kernel, fd, K.KGSL_PROP_MMU_ENABLE, "int32_t") == 1
    getprop(kernel, fd, K.KGSL_PROP_MMU_ENABLE, info, sizebytes=8)
    with refused(errno.EINVAL, r"KGSL_PROP_HIGHEST_BANK_BIT\): sizebytes is 2, at least 4 needed"):
        getprop(kernel, fd, K.KGSL_PROP_HIGHEST_BANK_BIT, info, sizebytes=2)


def test_a_32_bit_layout_is_refused_by_the_property_checks(kgsl):
    """A 32-bit caller's 12-byte struct (request 0xc00c0902) reaches the same command: KGSL copies
    12 bytes, so sizebytes (at 16 on arm64) reads 0 and DEVICE_INFO is EINVAL; nothing is written."""
    kernel, fd = kgsl
    info = K.new("kgsl_devinfo")
    arm32 = bytearray(K.ffi.buffer(K.new("kgsl_device_getproperty", type=K.KGSL_PROP_DEVICE_INFO))[:4]) + \
        (K.address_of(info) & 0xFFFFFFFF).to_bytes(4, "little") + (28).to_bytes(4, "little")
    with refused(errno.EINVAL, "sizebytes is 0, the property is 40 bytes"):
        kernel.ioctl(fd, 0xC00C0902, arm32)
    assert info.chip_id == 0


def test_bad_value_pointer_is_efault(kgsl):
    kernel, fd = kgsl
    with refused(errno.EFAULT, "user pointer 0x0 .* is not mapped memory"):
        getprop(kernel, fd, K.KGSL_PROP_DEVICE_INFO, None, sizebytes=40)


def test_unknown_and_unsupported_properties(kgsl):
    kernel, fd = kgsl
    buf = K.ffi.new("char[64]")
    with refused(errno.EINVAL, r"KGSL_PROP_GPU_MODEL\): not a property this kernel serves"):
        getprop(kernel, fd, K.KGSL_PROP_GPU_MODEL, buf, sizebytes=32)
    with refused(errno.EINVAL, r"0x7f\): not a property"):
        getprop(kernel, fd, 0x7F, buf, sizebytes=4)
    with refused(errno.EOPNOTSUPP, "has no GPMU"):
        getprop(kernel, fd, K.KGSL_PROP_GPMU_VERSION, buf, sizebytes=12)


def test_unknown_command_is_enotty_and_unserved_is_einval(kgsl):
    kernel, fd = kgsl
    with refused(errno.ENOTTY, "no KGSL command has number 0x03"):
        kernel.ioctl(fd, K._IOWR(0x09, 0x03, 8), bytearray(8))
    with refused(errno.EINVAL, "IOCTL_KGSL_PERFCOUNTER_GET: not emulated by the virtual KGSL yet"):
        ioctl(kernel, fd, K.IOCTL_KGSL_PERFCOUNTER_GET, K.new("kgsl_perfcounter_get", groupid=1))
    with refused(errno.EFAULT, "_IOC_SIZE says 8 bytes but the argument has 4"):
        kernel.ioctl(fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, bytearray(4))


def test_contexts_as_tinygrad_and_turnip_create_them(kgsl):
    kernel, fd = kgsl
    tinygrad = ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, K.new("kgsl_drawctxt_create", flags=0x04008A12))
    # KGSL writes back the flags it kept, with per-context timestamps always on.
    assert (tinygrad.drawctxt_id, tinygrad.flags) == (1, 0x04008A52)
    turnip = ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, K.new("kgsl_drawctxt_create", flags=0x13))
    # SAVE_GMEM is dropped; an unset priority becomes the medium one (8).
    assert (turnip.drawctxt_id, turnip.flags) == (2, 0x8052)
    ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_DESTROY, K.new("kgsl_drawctxt_destroy", drawctxt_id=1))
    again = ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, K.new("kgsl_drawctxt_create", flags=0x12))
    assert again.drawctxt_id == 1 and kernel.live()["contexts"] == 2
    kernel.close(fd)                           # closing the file detaches its contexts
    assert kernel.live() == NOTHING_LIVE


@pytest.mark.parametrize("flags, err, match", [
    (K.KGSL_CONTEXT_NO_GMEM_ALLOC, errno.EINVAL, "lack KGSL_CONTEXT_PREAMBLE and KGSL_CONTEXT_NO_GMEM_ALLOC"),
    (K.KGSL_CONTEXT_PREAMBLE, errno.EINVAL, "legacy context switching is not supported"),
    (0x12 | K.KGSL_CONTEXT_SECURE, errno.EOPNOTSUPP, "secure contexts need a secure MMU"),
    (0x12 | K.KGSL_CONTEXT_LPAC, errno.EOPNOTSUPP, "LPAC contexts are not supported by Adreno630v2"),
])
def test_context_flags_refused(kgsl, flags, err, match):
    kernel, fd = kgsl
    args = K.new("kgsl_drawctxt_create", flags=flags)
    with refused(err, match):
        ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, args)
    assert args.drawctxt_id == 0 and args.flags == flags      # nothing copied back on failure


def test_context_limits_and_unknown_ids(kgsl):
    kernel, fd = kgsl
    with refused(errno.EINVAL, "IOCTL_KGSL_DRAWCTXT_DESTROY: context 7 does not exist"):
        ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_DESTROY, K.new("kgsl_drawctxt_destroy", drawctxt_id=7))
    for _ in range(201):
        ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, K.new("kgsl_drawctxt_create", flags=0x12))
    with refused(errno.ENOSPC, "the process already has 201 contexts"):
        ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, K.new("kgsl_drawctxt_create", flags=0x12))


def test_power_constraint_as_tinygrad_sets_it(kgsl):
    kernel, fd = kgsl
    ctx = ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, K.new("kgsl_drawctxt_create", flags=0x04008A12))
    level = K.new("kgsl_device_constraint_pwrlevel", level=K.KGSL_CONSTRAINT_PWR_MAX)
    constraint = K.new("kgsl_device_constraint", type=K.KGSL_CONSTRAINT_PWRLEVEL, context_id=ctx.drawctxt_id,
                       data=K.address_of(level), size=4)
    param = K.new("kgsl_device_getproperty", type=K.KGSL_PROP_PWR_CONSTRAINT, value=K.address_of(constraint),
                  sizebytes=K.ffi.sizeof(constraint[0]))
    ioctl(kernel, fd, K.IOCTL_KGSL_SETPROPERTY, param)
    assert kernel.kgsl.contexts[1].pwr_constraint == (K.KGSL_CONSTRAINT_PWRLEVEL, 1)
    level.level = 2
    with refused(errno.EINVAL, "power level 2 is neither KGSL_CONSTRAINT_PWR_MIN nor _MAX"):
        ioctl(kernel, fd, K.IOCTL_KGSL_SETPROPERTY, param)
    constraint.context_id = 9
    with refused(errno.EINVAL, r"SETPROPERTY\(KGSL_PROP_PWR_CONSTRAINT\): context 9 does not exist"):
        ioctl(kernel, fd, K.IOCTL_KGSL_SETPROPERTY, param)
    param.sizebytes = 12
    with refused(errno.EINVAL, "sizebytes is 12, expected 24"):
        ioctl(kernel, fd, K.IOCTL_KGSL_SETPROPERTY, param)
    param.type = K.KGSL_PROP_DEVICE_INFO
    with refused(errno.EINVAL, "not a property this kernel lets a process set"):
        ioctl(kernel, fd, K.IOCTL_KGSL_SETPROPERTY, param)


def test_reset_status_needs_an_existing_context(kgsl):
    kernel, fd = kgsl
    ctx_id = K.ffi.new("uint32_t *", 5)
    with refused(errno.EINVAL, r"KGSL_PROP_GPU_RESET_STAT\): context 5 does not exist"):
        getprop(kernel, fd, K.KGSL_PROP_GPU_RESET_STAT, ctx_id)
    created = ioctl(kernel, fd, K.IOCTL_KGSL_DRAWCTXT_CREATE, K.new("kgsl_drawctxt_create", flags=0x12))
    ctx_id[0] = created.drawctxt_id
    getprop(kernel, fd, K.KGSL_PROP_GPU_RESET_STAT, ctx_id)
    assert ctx_id[0] == K.KGSL_CTX_STAT_NO_ERROR


def test_the_drivers_compute_context(kgsl):
    kernel, fd = kgsl
    assert COMPUTE_CONTEXT_FLAGS == 0x04008A12
    ctx_id, flags = create_context(kernel, fd)
    assert (ctx_id, flags) == (1, COMPUTE_CONTEXT_FLAGS | K.KGSL_CONTEXT_PER_CONTEXT_TS)
    destroy_context(kernel, fd, ctx_id)
    with pytest.raises(IoctlError, match=r"IOCTL_KGSL_DRAWCTXT_DESTROY \(0x40040914\) failed: EINVAL"):
        destroy_context(kernel, fd, ctx_id)

