"""The virtual NVIDIA kernel driver, driven through the kernel seam like a driver: every rule has
its errno or its NV_STATUS, named."""
import errno

import pytest

import nv_ioctl as NV
from drivers.emu.nv.classes import CHIP_CLASSES
from drivers.emu.nv.machine import VirtualMachine
from drivers.errors import IoctlError
from drivers.nv.rm import NvCtl, RMError, RmClient, address_of
from drivers.nv.uvm import Uvm


@pytest.fixture
def kernel():
    k = VirtualMachine("sm_86", 1)
    yield k
    assert set(k.live().values()) == {0}, k.live()


@pytest.fixture
def ctl(kernel):
    c = NvCtl.open(kernel, kernel.layouts)
    yield c
    c.close()


@pytest.fixture
def rm(ctl):
    client = RmClient(ctl)
    yield client
    client.close()


@pytest.fixture
def gpu_fd(kernel):
    fd = kernel.open("/dev/nvidia0")
    yield fd
    kernel.close(fd)


def refused(kernel, fd, request, arg, err, match):
    with pytest.raises(IoctlError) as e:
        kernel.ioctl(fd, request, arg)
    assert e.value.errno_value == err, str(e.value)
    assert match in str(e.value), str(e.value)


def status_of(exc_info):
    return exc_info.value.status_name


def device_and_subdevice(rm):
    ids = rm.control(rm.handle, NV.NV0000_CTRL_CMD_GPU_GET_ID_INFO_V2,
                     rm.L.new("NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS", gpuId=0x100))
    dev = rm.alloc(rm.handle, NV.NV01_DEVICE_0, rm.L.new("NV0080_ALLOC_PARAMETERS", deviceId=ids.deviceInstance))
    sub = rm.alloc(dev, NV.NV20_SUBDEVICE_0, rm.L.new("NV2080_ALLOC_PARAMETERS"))
    return dev, sub


# -- nvidia_ioctl(): sizes, nodes, XFER ----------------------------------------------------------------
def test_escape_sizes_are_the_branch_ones(kernel, ctl):
    L = kernel.layouts
    refused(kernel, ctl.fd, NV._IOWR("F", NV.NV_ESC_RM_CONTROL, 40), bytearray(40), errno.EINVAL,
            "NV_ESC_RM_CONTROL: argument of 40 bytes, driver 595.45.04 takes 32 (NVOS54_PARAMETERS)")
    refused(kernel, ctl.fd, NV._IOWR("F", NV.NV_ESC_RM_ALLOC, 40), bytearray(40), errno.EINVAL,
            "takes 32 (NVOS21_PARAMETERS) or 48 (NVOS64_PARAMETERS)")
    refused(kernel, ctl.fd, NV._IOWR("F", NV.NV_ESC_CARD_INFO, 100), bytearray(100), errno.EINVAL,
            "100 bytes is not a whole number of nv_ioctl_card_info_t (72 bytes)")
    refused(kernel, ctl.fd, NV._IOWR("K", NV.NV_ESC_RM_CONTROL, 32), bytearray(32), errno.EINVAL,
            "type 0x4b is not NV_IOCTL_MAGIC 'F'")
    refused(kernel, ctl.fd, NV._IOWR("F", 0x7F, 8), bytearray(8), errno.EINVAL, "escape 0x7f: not an escape")
    # NVOS64 is the other accepted RM_ALLOC layout.
    args = L.new("NVOS64_PARAMETERS", hClass=NV.NV01_ROOT_CLIENT)
    kernel.ioctl(ctl.fd, L.request("NV_ESC_RM_ALLOC", "NVOS64_PARAMETERS"), args)
    assert args.status == NV.NV_OK and args.hObjectNew >> 20 == 0xC1D
    free = L.new("NVOS00_PARAMETERS", hRoot=args.hObjectNew, hObjectOld=args.hObjectNew)
    kernel.ioctl(ctl.fd, L.request("NV_ESC_RM_FREE"), free)
    assert free.status == NV.NV_OK


def test_an_older_branch_refuses_the_newer_layout():
    kernel = VirtualMachine("sm_86", 1, driver="570.211.01")
    fd = kernel.open("/dev/nvidiactl")
    new = NV.layouts(580)
    refused(kernel, fd, new.request("NV_ESC_RM_MAP_MEMORY_DMA"), new.new("NVOS46_PARAMETERS"), errno.EINVAL,
            "NV_ESC_RM_MAP_MEMORY_DMA: argument of 64 bytes, driver 570.211.01 takes 56 (NVOS46_PARAMETERS)")
    old = NV.layouts(570).new("NVOS46_PARAMETERS")
    kernel.ioctl(fd, NV.layouts(570).request("NV_ESC_RM_MAP_MEMORY_DMA"), old)
    assert NV.layouts(570).status_name(old.status) == "NV_ERR_INVALID_CLIENT"   # size right: the RM looked
    kernel.close(fd)


def test_escapes_go_to_their_node(kernel, ctl, gpu_fd):
    L = kernel.layouts
    refused(kernel, gpu_fd, L.request("NV_ESC_RM_CONTROL"), L.new("NVOS54_PARAMETERS"), errno.EINVAL,
            "NV_ESC_RM_CONTROL is taken on /dev/nvidiactl only")
    refused(kernel, ctl.fd, L.request("NV_ESC_REGISTER_FD"), L.new("nv_ioctl_register_fd_t"), errno.EINVAL,
            "NV_ESC_REGISTER_FD is taken on a /dev/nvidiaN only")
    refused(kernel, gpu_fd, L.request("NV_ESC_REGISTER_FD"), L.new("nv_ioctl_register_fd_t", ctl_fd=gpu_fd),
            errno.EINVAL, f"fd {gpu_fd} is not an open /dev/nvidiactl")
    kernel.ioctl(gpu_fd, L.request("NV_ESC_REGISTER_FD"), L.new("nv_ioctl_register_fd_t", ctl_fd=ctl.fd))
    refused(kernel, gpu_fd, L.request("NV_ESC_REGISTER_FD"), L.new("nv_ioctl_register_fd_t", ctl_fd=ctl.fd),
            errno.EINVAL, "already registered")


def test_card_info_needs_room_for_every_gpu():
    kernel = VirtualMachine("sm_89", 3)
    fd = kernel.open("/dev/nvidiactl")
    L = kernel.layouts
    small = L.new_array("nv_ioctl_card_info_t", 2)
    small[0].valid = 7
    refused(kernel, fd, L.request("NV_ESC_CARD_INFO", count=2), small, errno.EINVAL,
            "NV_ESC_CARD_INFO: room for 2 GPUs, the machine has 3")
    assert small[0].valid == 0                       # zeroed and copied back, as nv.c does
    cards = NvCtl(kernel, L, fd).card_info(4)
    assert [(c.pci_info.bus, c.minor_number, c.pci_info.device_id, c.gpu_id) for c in cards] == [
        (1, 0, 0x2684, 0x100), (2, 1, 0x2684, 0x200), (3, 2, 0x2684, 0x300)]
    kernel.close(fd)


def test_xfer_carries_arguments_over_the_size_field(kernel, ctl):
    cards = ctl.card_info(300)                       # 21600 bytes: only through NV_ESC_IOCTL_XFER_CMD
    assert len(cards) == 1 and cards[0].pci_info.device_id == 0x2204
    L = kernel.layouts
    refused(kernel, ctl.fd, NV._IOWR("F", NV.NV_ESC_IOCTL_XFER_CMD, 24), bytearray(24), errno.EINVAL,
            "NV_ESC_IOCTL_XFER_CMD: argument of 24 bytes, nv_ioctl_xfer_t is 16")
    xfer = L.new("nv_ioctl_xfer_t", cmd=NV.NV_ESC_CARD_INFO, size=72, ptr=0x10)
    refused(kernel, ctl.fd, L.request("NV_ESC_IOCTL_XFER_CMD"), xfer, errno.EFAULT, "0x10 (+72 bytes) is not mapped")
    inner = L.new("nv_ioctl_xfer_t")
    nested = L.new("nv_ioctl_xfer_t", cmd=NV.NV_ESC_IOCTL_XFER_CMD, size=16, ptr=address_of(inner, L.ffi))
    refused(kernel, ctl.fd, L.request("NV_ESC_IOCTL_XFER_CMD"), nested, errno.EINVAL,
            "NV_ESC_IOCTL_XFER_CMD inside NV_ESC_IOCTL_XFER_CMD")


def test_check_version_str(kernel, ctl):
    assert ctl.check_version(None) == (True, "595.45.04")                       # QUERY
    assert ctl.check_version("595.45.04") == (True, None)                       # STRICT, same
    assert ctl.check_version("595.44.03") == (False, "595.45.04")               # STRICT, other release
    assert ctl.check_version("595.1", NV.NV_RM_API_VERSION_CMD_RELAXED) == (True, None)
    assert ctl.check_version("580.95.05", NV.NV_RM_API_VERSION_CMD_RELAXED) == (False, "595.45.04")


def test_attach_gpus_to_fd():
    kernel = VirtualMachine("sm_90", 2)
    fd = kernel.open("/dev/nvidiactl")
    ids = kernel.layouts.ffi.new("NvU32[2]", [0x1900, 0])
    kernel.ioctl(fd, kernel.layouts.request("NV_ESC_ATTACH_GPUS_TO_FD", count=2), ids)
    assert [g.attached for g in kernel.gpus] == [True, False]
    refused(kernel, fd, kernel.layouts.request("NV_ESC_ATTACH_GPUS_TO_FD", count=2), ids, errno.EINVAL,
            "already has GPUs attached")
    other = kernel.open("/dev/nvidiactl")
    bad = kernel.layouts.ffi.new("NvU32[1]", [0x4200])
    refused(kernel, other, kernel.layouts.request("NV_ESC_ATTACH_GPUS_TO_FD"), bad, errno.EINVAL,
            "no GPU with gpu_id 0x4200")
    kernel.close(other)
    kernel.close(fd)
    assert not any(g.attached for g in kernel.gpus)


# -- the RM: RM_ALLOC -----------------------------------------------------------------------------
def test_device_needs_an_attached_gpu(kernel, rm):
    with pytest.raises(RMError) as e:
        rm.control(rm.handle, NV.NV0000_CTRL_CMD_GPU_GET_ID_INFO_V2,
                   rm.L.new("NV0000_CTRL_GPU_GET_ID_INFO_V2_PARAMS", gpuId=0x100))
    assert status_of(e) == "NV_ERR_INVALID_ARGUMENT" and "not an attached GPU" in kernel.rm.last_error
    with pytest.raises(RMError) as e:
        rm.alloc(rm.handle, NV.NV01_DEVICE_0, rm.L.new("NV0080_ALLOC_PARAMETERS", deviceId=0))
    assert str(e.value) == (f"NV_ESC_RM_ALLOC of NV01_DEVICE_0 under 0x{rm.handle:x} failed: "
                            "NV_ERR_INVALID_CLASS (0x22)")
    attached = rm.control(rm.handle, NV.NV0000_CTRL_CMD_GPU_GET_ATTACHED_IDS).gpuIds
    assert attached[0] == NV.NV0000_CTRL_GPU_INVALID_ID


def test_alloc_rules(kernel, rm, gpu_fd):
    L = rm.L
    dev, sub = device_and_subdevice(rm)
    cases = [
        (dict(parent=dev, class_id=0xBEEF), "NV_ERR_INVALID_CLASS", "class 0xbeef is not a class the RM knows"),
        (dict(parent=0x1234, class_id=NV.NV20_SUBDEVICE_0), "NV_ERR_INVALID_OBJECT_PARENT", "no object 0x1234"),
        (dict(parent=rm.handle, class_id=NV.NV20_SUBDEVICE_0), "NV_ERR_INVALID_OBJECT_PARENT",
         "NV20_SUBDEVICE_0 goes under a device, not under NV01_ROOT_CLIENT"),
        (dict(parent=dev, class_id=NV.NV20_SUBDEVICE_0, handle=sub), "NV_ERR_INSERT_DUPLICATE_NAME",
         f"handle 0x{sub:x} is already in use"),
        (dict(parent=dev, class_id=NV.NV20_SUBDEVICE_0, handle=rm.handle), "NV_ERR_INVALID_OBJECT_HANDLE",
         "already in use"),
        (dict(parent=dev, class_id=NV.FERMI_VASPACE_A), "NV_ERR_INVALID_ARGUMENT",
         "FERMI_VASPACE_A requires NV_VASPACE_ALLOCATION_PARAMETERS, pAllocParms is NULL"),
        (dict(parent=sub, class_id=NV.HOPPER_USERMODE_A), "NV_ERR_INVALID_CLASS",
         "HOPPER_USERMODE_A is not in the class list of GA102"),
        (dict(parent=dev, class_id=NV.AMPERE_USERMODE_A), "NV_ERR_INVALID_OBJECT_PARENT",
         "AMPERE_USERMODE_A goes under a subdevice"),
        (dict(parent=dev, class_id=NV.NV20_SUBDEVICE_0, params=L.new("NV2080_ALLOC_PARAMETERS", subDeviceId=1)),
         "NV_ERR_INVALID_ARGUMENT", "subDeviceId 1"),
    ]
    for kwargs, status, reason in cases:
        with pytest.raises(RMError) as e:
            rm.alloc(**kwargs)
        assert status_of(e) == status and reason in kernel.rm.last_error, (kwargs, kernel.rm.last_error)
    rm.free(dev)


def test_alloc_params_must_be_the_branch_size_and_mapped(kernel, rm, gpu_fd):
    L = rm.L
    dev, _ = device_and_subdevice(rm)
    params = L.new("NV_VASPACE_ALLOCATION_PARAMETERS")
    args = L.new("NVOS21_PARAMETERS", hRoot=rm.handle, hObjectParent=dev, hClass=NV.FERMI_VASPACE_A,
                 pAllocParms=address_of(params, L.ffi), paramsSize=48)           # 570's size
    rm.ctl.escape("NV_ESC_RM_ALLOC", args)
    assert L.status_name(args.status) == "NV_ERR_INVALID_PARAM_STRUCT"
    assert "paramsSize 48 for FERMI_VASPACE_A, but NV_VASPACE_ALLOCATION_PARAMETERS is 56 bytes in driver " \
           "595.45.04 (the real RM reads 56 bytes regardless)" in kernel.rm.last_error
    args = L.new("NVOS21_PARAMETERS", hRoot=rm.handle, hObjectParent=dev, hClass=NV.NV20_SUBDEVICE_0,
                 pAllocParms=0x1000, paramsSize=4)
    rm.ctl.escape("NV_ESC_RM_ALLOC", args)
    assert L.status_name(args.status) == "NV_ERR_INVALID_ADDRESS" and "is not mapped memory" in kernel.rm.last_error


def test_alloc_and_free_of_the_client(kernel, ctl):
    L = kernel.layouts
    args = L.new("NVOS21_PARAMETERS", hRoot=0x4242, hClass=NV.NV01_ROOT)      # forced to _CLIENT
    ctl.escape("NV_ESC_RM_ALLOC", args)
    handle = args.hObjectNew
    assert args.status == NV.NV_OK and set(kernel.rm.clients) == {handle}
    assert kernel.rm.clients[handle].class_id == NV.NV01_ROOT_CLIENT
    again = L.new("NVOS21_PARAMETERS", hObjectNew=handle, hClass=NV.NV01_ROOT_CLIENT)
    ctl.escape("NV_ESC_RM_ALLOC", again)
    assert L.status_name(again.status) == "NV_ERR_INSERT_DUPLICATE_NAME"
    bad = L.new("NVOS00_PARAMETERS", hRoot=0x77, hObjectOld=0x77)
    ctl.escape("NV_ESC_RM_FREE", bad)
    assert L.status_name(bad.status) == "NV_ERR_INVALID_OBJECT_HANDLE"
    # Closing /dev/nvidiactl frees what it allocated (the fixture checks live() is all zero).


def test_free_takes_the_subtree(kernel, rm, gpu_fd):
    dev, sub = device_and_subdevice(rm)
    client = kernel.rm.clients[rm.handle]
    assert set(client.objects) == {rm.handle, dev, sub}
    rm.free(dev)
    assert set(client.objects) == {rm.handle}
    with pytest.raises(RMError) as e:
        rm.free(sub)
    assert status_of(e) == "NV_ERR_INVALID_OBJECT_HANDLE"


# -- the RM: RM_CONTROL ---------------------------------------------------------------------------
def test_control_rules(kernel, rm, gpu_fd):
    L = rm.L
    dev, sub = device_and_subdevice(rm)

    def control(h_client, h_object, cmd, params, size):
        args = L.new("NVOS54_PARAMETERS", hClient=h_client, hObject=h_object, cmd=cmd,
                     params=address_of(params, L.ffi) if params is not None else 0, paramsSize=size)
        rm.ctl.escape("NV_ESC_RM_CONTROL", args)
        return L.status_name(args.status), kernel.rm.last_error

    gr = L.new("NV2080_CTRL_GR_GET_INFO_PARAMS")
    assert control(0x99, sub, NV.NV2080_CTRL_CMD_GR_GET_INFO, gr, 32)[0] == "NV_ERR_INVALID_CLIENT"
    assert control(rm.handle, sub, NV.NV2080_CTRL_CMD_GR_GET_INFO, gr, 24) == (
        "NV_ERR_INVALID_ARGUMENT", "RM_CONTROL NV2080_CTRL_CMD_GR_GET_INFO: NV_ERR_INVALID_ARGUMENT: paramsSize 24, "
        "but NV2080_CTRL_GR_GET_INFO_PARAMS is 32 bytes in driver 595.45.04")
    assert control(rm.handle, sub, NV.NV2080_CTRL_CMD_GR_GET_INFO, None, 32)[0] == "NV_ERR_INVALID_ARGUMENT"
    assert control(rm.handle, 0x31337, NV.NV2080_CTRL_CMD_GR_GET_INFO, gr, 32)[0] == "NV_ERR_INVALID_OBJECT_HANDLE"
    status, why = control(rm.handle, dev, NV.NV2080_CTRL_CMD_GR_GET_INFO, gr, 32)
    assert status == "NV_ERR_NOT_SUPPORTED" and "(it goes to a subdevice)" in why
    assert control(rm.handle, sub, 0x20801299, gr, 32)[0] == "NV_ERR_NOT_SUPPORTED"
    status, why = control(rm.handle, sub, NV.NV2080_CTRL_CMD_GR_GET_INFO, gr, 32)       # grInfoListSize 0
    assert status == "NV_ERR_INVALID_ARGUMENT" and "grInfoListSize 0 (1 to 59)" in why
    with pytest.raises(RMError) as e:
        rm.gr_info(sub, [NV.NV2080_CTRL_GR_INFO_INDEX_SM_VERSION, 0x3B])
    assert status_of(e) == "NV_ERR_INVALID_ARGUMENT" and "index 0x3b is past" in kernel.rm.last_error
    rm.free(dev)


def test_controls_answer_the_board(kernel, rm, gpu_fd):
    dev, sub = device_and_subdevice(rm)
    gr = rm.gr_info(sub, [NV.NV2080_CTRL_GR_INFO_INDEX_SM_VERSION, NV.NV2080_CTRL_GR_INFO_INDEX_LITTER_NUM_GPCS,
                          NV.NV2080_CTRL_GR_INFO_INDEX_SHADER_PIPE_SUB_COUNT, 0x22])
    assert gr == {0x0C: 0x806, 0x14: 7, 0x09: 41, 0x22: 0}
    assert rm.uuid(sub) == kernel.gpus[0].board.uuid
    binary = rm.L.new("NV2080_CTRL_GPU_GET_GID_INFO_PARAMS", flags=2)
    rm.control(sub, NV.NV2080_CTRL_CMD_GPU_GET_GID_INFO, binary)
    assert binary.length == 16 and bytes(binary.data[0:16]) == kernel.gpus[0].board.uuid_bytes
    assert rm.class_list(dev) == list(CHIP_CLASSES["GA102"])
    small = rm.L.new_array("NvU32", 3)
    params = rm.L.new("NV0080_CTRL_GPU_GET_CLASSLIST_PARAMS", numClasses=3, classList=address_of(small, rm.L.ffi))
    with pytest.raises(RMError) as e:
        rm.control(dev, NV.NV0080_CTRL_CMD_GPU_GET_CLASSLIST, params)
    assert status_of(e) == "NV_ERR_INVALID_PARAM_STRUCT" and list(small) == list(CHIP_CLASSES["GA102"][:3])
    v2 = rm.control(dev, NV.NV0080_CTRL_CMD_GPU_GET_CLASSLIST_V2)
    assert list(v2.classList[0:v2.numClasses]) == list(CHIP_CLASSES["GA102"])
    assert rm.fb_info(sub, [NV.NV2080_CTRL_FB_INFO_INDEX_RAM_SIZE, NV.NV2080_CTRL_FB_INFO_INDEX_RAM_TYPE]) == {
        7: 24 << 20, 0x0D: NV.NV2080_CTRL_FB_INFO_RAM_TYPE_GDDR6X}
    with pytest.raises(RMError) as e:
        rm.fb_info(sub, [0x3B])
    assert status_of(e) == "NV_ERR_INVALID_ARGUMENT"
    arch = rm.control(sub, NV.NV2080_CTRL_CMD_MC_GET_ARCH_INFO)
    assert (arch.architecture, arch.implementation) == (0x170, 0x2)
    flush = rm.L.new("NV2080_CTRL_FB_FLUSH_GPU_CACHE_PARAMS", flags=NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_FLUSH_MODE.num(1)
                     | NV.NV2080_CTRL_FB_FLUSH_GPU_CACHE_FLAGS_WRITE_BACK.num(1))
    rm.control(sub, NV.NV2080_CTRL_CMD_FB_FLUSH_GPU_CACHE, flush)
    with pytest.raises(RMError):
        rm.control(sub, NV.NV2080_CTRL_CMD_FB_FLUSH_GPU_CACHE)
    build = rm.control(rm.handle, NV.NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2)
    assert rm.L.ffi.string(build.driverBranch) == b"r595_00"
    rm.free(dev)


def test_memory_escapes_check_their_client_first(kernel, ctl, gpu_fd):
    L = kernel.layouts
    m = L.new("nv_ioctl_nvos33_parameters_with_fd", fd=gpu_fd)
    kernel.ioctl(ctl.fd, L.request("NV_ESC_RM_MAP_MEMORY"), m)
    assert L.status_name(m.params.status) == "NV_ERR_INVALID_CLIENT"
    a = L.new("nv_ioctl_nvos02_parameters_with_fd", fd=-1)
    kernel.ioctl(gpu_fd, L.request("NV_ESC_RM_ALLOC_MEMORY"), a)
    assert L.status_name(a.params.status) == "NV_ERR_INVALID_CLIENT"


# -- /dev/nvidia-uvm ------------------------------------------------------------------------------
def test_uvm_rules(kernel):
    L = kernel.layouts
    fd = kernel.open("/dev/nvidia-uvm")
    access = L.new("UVM_PAGEABLE_MEM_ACCESS_PARAMS")
    kernel.ioctl(fd, NV.UVM_PAGEABLE_MEM_ACCESS, access)
    assert L.status_name(access.rmStatus) == "NV_ERR_ILLEGAL_ACTION"           # before UVM_INITIALIZE
    bad = L.new("UVM_INITIALIZE_PARAMS", flags=0x10)
    kernel.ioctl(fd, NV.UVM_INITIALIZE, bad)
    assert L.status_name(bad.rmStatus) == "NV_ERR_INVALID_ARGUMENT"
    refused(kernel, fd, NV.UVM_FREE, NV.layouts(580).new("UVM_FREE_PARAMS"), errno.EINVAL,
            "UVM_FREE: argument of 24 bytes, but UVM_FREE_PARAMS is 16 in driver 595.45.04")
    refused(kernel, fd, 0x99, bytearray(8), errno.EINVAL, "UVM command 0x99 is not one")
    kernel.close(fd)
    uvm = Uvm.open(kernel, L)
    assert uvm.pageable_mem_access() is False
    with pytest.raises(RMError) as e:
        uvm.call("UVM_REGISTER_GPU")
    assert str(e.value) == "UVM_REGISTER_GPU failed: NV_ERR_GPU_UUID_NOT_FOUND (0x12)"
    mirror = kernel.open("/dev/nvidia-uvm")
    mm = L.new("UVM_MM_INITIALIZE_PARAMS", uvmFd=mirror)
    kernel.ioctl(mirror, NV.UVM_MM_INITIALIZE, mm)
    assert L.status_name(mm.rmStatus) == "NV_ERR_INVALID_ARGUMENT"              # not another, initialized fd
    mm.uvmFd = uvm.fd
    kernel.ioctl(mirror, NV.UVM_MM_INITIALIZE, mm)
    assert mm.rmStatus == NV.NV_OK
    kernel.close(mirror)
    uvm.close()
