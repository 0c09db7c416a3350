"""A virtual machine with two RX 7900 XTX, driven through the kernel seam like a driver drives it:
one KFD process over both GPUs, peer mappings of one GPU's buffers into the other's VM, and
the errnos amdkfd answers when a driver gets the ownership of handles and VMs wrong."""
import errno
import json

import numpy as np
import pytest

import kfd_ioctl as K
from drivers.amd.probe import main as probe_main
from drivers.amd.topology import read_topology
from drivers.emu import UnknownTarget, make_kernel
from drivers.emu.amd.cards import CARDS, render_topology
from drivers.emu.amd.kfd_client import GTT, VRAM, KfdClient
from drivers.errors import IoctlError
from tests.test_emu_queues import SDMARing, hi, lo, sdma_copy, sdma_fence

SDMA, COMPUTE = K.KFD_IOC_QUEUE_TYPE_SDMA, K.KFD_IOC_QUEUE_TYPE_COMPUTE
COMPLETE = K.KFD_IOC_WAIT_RESULT_COMPLETE
NODES = "/sys/devices/virtual/kfd/kfd/topology/nodes"
NOTHING = {"processes": 0, "bos": 0, "queues": 0, "events": 0, "mappings": 0}


def ptr(cdata):
    return int(K.ffi.cast("uintptr_t", cdata))


def props(kernel, path):
    return {k: int(v) for k, v in (line.split() for line in kernel.read_text(path).splitlines())}


def refused(c, name, err, match=None, **fields):
    with pytest.raises(IoctlError) as e:
        c.ioctl(name, **fields)
    assert e.value.errno_value == err, str(e.value)
    if match:
        assert match in str(e.value), str(e.value)
    return e.value


def map_args(buf, *gpu_ids):
    ids = K.ffi.new(f"uint32_t[{len(gpu_ids)}]", list(gpu_ids))
    return dict(handle=buf.handle, n_devices=len(gpu_ids), device_ids_array_ptr=ptr(ids)), ids


@pytest.fixture
def kernel():
    k = make_kernel("gfx1100", gpus=2)
    yield k
    for gpu in k.gpus:
        assert gpu.live() == NOTHING, f"gpu 0x{gpu.gpu_id:x} still holds {gpu.live()}"
    assert k.live() == NOTHING and k.open_files == {}


@pytest.fixture
def ab(kernel):
    """Clients of GPU A (node 1) and GPU B (node 2) in one KFD process."""
    a = KfdClient(kernel, node=1)
    b = KfdClient(kernel, node=2, runtime_enable=False)
    yield a, b
    b.close()
    a.close()


# -- the machine --------------------------------------------------------------------------------
def test_two_gpus_in_the_topology_as_amdkfd_reports_them():
    k = make_kernel("gfx1100x2")
    assert sorted(k.listdir(NODES)) == ["0", "1", "2"]
    gpus = [props(k, f"{NODES}/{n}/properties") for n in (1, 2)]
    ids = [int(k.read_text(f"{NODES}/{n}/gpu_id")) for n in (1, 2)]
    assert ids == [g.gpu_id for g in k.gpus] and len(set(ids)) == 2 and all(0 < i < 1 << 16 for i in ids)
    assert [g["drm_render_minor"] for g in gpus] == [128, 129]
    assert gpus[0]["location_id"] != gpus[1]["location_id"] and gpus[0]["unique_id"] != gpus[1]["unique_id"]
    assert gpus[0]["simd_id_base"] != gpus[1]["simd_id_base"]
    assert props(k, f"{NODES}/2/caches/0/properties")["processor_id_low"] == gpus[1]["simd_id_base"]
    assert k.exists("/dev/dri/renderD128") and k.exists("/dev/dri/renderD129") and not k.exists("/dev/dri/renderD130")
    cpu = props(k, f"{NODES}/0/properties")
    assert cpu["io_links_count"] == 2
    assert [(link["node_from"], link["node_to"], link["type"])
            for link in (props(k, f"{NODES}/0/io_links/{i}/properties") for i in (0, 1))] == [(0, 1, 2), (0, 2, 2)]
    for node, peer, g in ((1, 2, gpus[0]), (2, 1, gpus[1])):
        assert g["io_links_count"] == 1 and g["p2p_links_count"] == 1
        up = props(k, f"{NODES}/{node}/io_links/0/properties")
        p2p = props(k, f"{NODES}/{node}/p2p_links/0/properties")
        assert (up["node_from"], up["node_to"], up["type"]) == (node, 0, 2)
        assert (p2p["node_from"], p2p["node_to"], p2p["type"]) == (node, peer, 2)       # PCIe peer
        assert p2p["weight"] == 2 * up["weight"] and p2p["flags"] & 1
    assert k.exists("/sys/class/drm/renderD129/device/ip_discovery/die/0/GC/0/major")
    topo = read_topology(k)                            # the runtime's reader agrees
    assert [n.gpu_id for n in topo.gpus] == ids and [n.render_node for n in topo.gpus] == \
        ["/dev/dri/renderD128", "/dev/dri/renderD129"]


def test_one_gpu_machine_is_unchanged():
    k = make_kernel("gfx1100")
    assert len(k.gpus) == 1 and k.gpu is k.gpus[0]
    assert render_topology(CARDS["rx7900xtx"]) == render_topology(CARDS["rx7900xtx"], gpus=1)
    assert not any("/p2p_links/" in path for path in k.files)
    assert make_kernel("gfx1100x1").files == k.files and make_kernel("gfx1100", gpus=1).files == k.files


@pytest.mark.parametrize("spec", ["gfx1100x0", "gfx1100x9", "gfx1100y2", "gfx900x2", "x2", "gfx1100x", ""])
def test_unknown_target_forms_name_what_is_accepted(spec):
    with pytest.raises(UnknownTarget, match=r"available: gfx1100, gfx1100xN \(N = 1\.\.8 GPUs\)"):
        make_kernel(spec)


def test_gpu_count_must_agree_with_the_target():
    assert len(make_kernel("gfx1100x3").gpus) == 3 and len(make_kernel("gfx1100x2", gpus=2).gpus) == 2
    for target, gpus in (("gfx1100x3", 2), ("gfx1100", 0), ("gfx1100", 9), ("gfx1100", True)):
        with pytest.raises(ValueError):
            make_kernel(target, gpus=gpus)


def test_probe_lists_two_usable_devices(capsys, monkeypatch):
    monkeypatch.delenv("GPU_EMULATE", raising=False)
    assert probe_main(["--emulate", "gfx1100x2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["usable"] == 2 and [d["index"] for d in report["devices"]] == [0, 1]
    assert all(d["usable"] and d["gfx_target"] == "gfx1100" for d in report["devices"])
    assert [d["render_node"] for d in report["devices"]] == ["/dev/dri/renderD128", "/dev/dri/renderD129"]
    assert len({d["gpu_id"] for d in report["devices"]}) == 2
    assert len({d["pci_address"] for d in report["devices"]}) == 2
    monkeypatch.setenv("GPU_EMULATE", "gfx1100x2")
    assert probe_main([]) == 0
    rows = capsys.readouterr().out.splitlines()[2:4]
    assert [r.split()[:3] for r in rows] == [["0", "1", "gfx1100"], ["1", "2", "gfx1100"]]


# -- one process over two GPUs ------------------------------------------------------------------
def test_one_process_has_device_data_on_every_gpu(ab, kernel):
    a, b = ab
    assert kernel.gpus[0].live()["processes"] == kernel.gpus[1].live()["processes"] == 1
    assert kernel.live()["processes"] == 1
    assert a.ioctl("GET_PROCESS_APERTURES_NEW", num_of_nodes=0).num_of_nodes == 2
    aps = K.ffi.new("struct kfd_process_device_apertures[2]")
    got = a.ioctl("GET_PROCESS_APERTURES_NEW", num_of_nodes=2, kfd_process_device_apertures_ptr=ptr(aps))
    assert got.num_of_nodes == 2
    assert [ap.gpu_id for ap in aps] == [a.gpu_id, b.gpu_id]
    old = a.ioctl("GET_PROCESS_APERTURES")
    assert old.num_of_nodes == 2 and old.process_apertures[1].gpu_id == b.gpu_id
    assert b.ioctl("GET_CLOCK_COUNTERS", gpu_id=b.gpu_id).gpu_clock_counter > 0


def test_sdma_of_b_copies_a_vram_buffer_of_a_mapped_into_b(ab, kernel):
    a, b = ab
    src = a.alloc(3 * 4096 + 4096, VRAM)
    data = np.random.default_rng(7).integers(0, 256, src.size, dtype=np.uint8)
    src.view(np.uint8)[:] = data
    a.map(src, [b.gpu_id])                            # the same BO, the same VA, now in B's VM too
    dst = b.alloc(src.size, VRAM)
    a_vm, b_vm = (g.processes[0].vm for g in kernel.gpus)
    assert np.shares_memory(b_vm.lookup(src.va).mem, a_vm.lookup(src.va).mem)
    assert b_vm.lookup(dst.va) is not None and a_vm.lookup(dst.va) is None
    sdma = SDMARing(b)
    for n, so, do in ((1, 0, 0), (7, 3, 5), (4097, 4095, 1), (12345, 77, 333), (src.size, 0, 0)):
        dst.view(np.uint8)[:] = 0
        sdma.submit(sdma_copy(dst.va + do, src.va + so, n))
        out = dst.view(np.uint8)
        assert np.array_equal(out[do:do + n], data[so:so + n])
        assert not out[:do].any() and not out[do + n:].any()
    assert b.rptr(sdma.q) == sdma.wptr and kernel.gpus[1].last_error is None
    sdma.submit(sdma_copy(src.va + 8, dst.va + 100, 5))      # and B writes into A's VRAM
    assert np.array_equal(src.view(np.uint8)[8:13], data[100:105])
    assert kernel.gpus[0].live()["mappings"] == 1 and kernel.gpus[1].live()["mappings"] == 4   # + dst, ring, pointers
    a.unmap(src, [b.gpu_id])
    for q in list(b.queues):
        b.destroy_queue(q)


def test_compute_queue_of_b_writes_a_gtt_buffer_of_a(ab, kernel):
    a, b = ab
    out = a.alloc(4096, GTT)
    a.map(out, [b.gpu_id])
    q = b.create_queue(COMPUTE)
    ring = q.ring.view(np.uint32, 0, 1024)
    packet = [(3 << 30) | (4 << 16) | (0x37 << 8), 5 << 8, lo(out.va + 16), hi(out.va), 0xB0B, 0xA11CE]
    ring[:len(packet)] = packet
    q.pointers.view(np.uint64, q.wptr_offset, 1)[0] = len(packet)
    b.ring_doorbell(q, len(packet))
    assert list(out.view(np.uint32, 16, 2)) == [0xB0B, 0xA11CE] and kernel.gpus[1].last_error is None
    b.destroy_queue(q)
    a.unmap(out, [b.gpu_id])


def test_a_buffer_not_mapped_on_b_faults_on_b_with_its_va(ab, kernel):
    a, b = ab
    mem = a.create_event(K.KFD_IOC_EVENT_MEMORY)       # events are the process's: any GPU raises them
    src = a.alloc(8192, VRAM)
    dst = b.alloc(8192, VRAM)
    sdma = SDMARing(b)
    sdma.submit(sdma_copy(dst.va, src.va + 4096 + 12, 16))
    result, data = b.wait([mem.event_id], timeout_ms=0)
    assert result == COMPLETE
    assert data[0].memory_exception_data.va == src.va + 4096
    assert data[0].memory_exception_data.gpu_id == b.gpu_id
    assert data[0].memory_exception_data.failure.NotPresent == 1
    assert f"0x{src.va + 4096 + 12:x}" in kernel.gpus[1].last_error and kernel.gpus[0].last_error is None
    a.map(src, [b.gpu_id])                             # mapped, used, unmapped: faults again
    sdma2 = SDMARing(b)
    sdma2.submit(sdma_copy(dst.va, src.va, 16))
    assert kernel.gpus[1].processes[0].queues[sdma2.q.queue_id].error is None
    a.unmap(src, [b.gpu_id])
    sdma2.submit(sdma_copy(dst.va, src.va, 16))
    assert b.wait([mem.event_id], timeout_ms=0)[1][0].memory_exception_data.va == src.va
    for q in list(b.queues):
        b.destroy_queue(q)


def test_event_page_is_shared_and_b_signals_through_it(ab, kernel):
    a, b = ab
    ev = a.create_event()                              # the event page is A's GTT buffer
    a.map(a.event_page, [b.gpu_id])
    sdma = SDMARing(b)
    sdma.submit(sdma_fence(a.mailbox(ev), ev.event_id), [6, ev.event_id])
    assert a.wait([ev.event_id], timeout_ms=0)[0] == COMPLETE
    refused(b, "CREATE_EVENT", errno.EINVAL, "already set", event_type=0, event_page_offset=b.alloc(32768).handle)
    b.destroy_queue(sdma.q)
    a.unmap(a.event_page, [b.gpu_id])


def test_a_queue_of_b_waits_for_memory_a_writes(ab, kernel):
    a, b = ab
    flag = a.alloc(4096, GTT)
    out = b.alloc(4096, GTT)
    a.map(flag, [b.gpu_id])
    sdma_b, sdma_a = SDMARing(b), SDMARing(a)
    sdma_b.submit([8 | 3 << 28 | 1 << 31, lo(flag.va), hi(flag.va), 1, 0xFF, 10], sdma_fence(out.va, 5))
    assert out.view(np.uint32)[0] == 0
    sdma_a.submit(sdma_fence(flag.va, 1))              # A's doorbell lets B's queue go on
    assert out.view(np.uint32)[0] == 5 and b.rptr(sdma_b.q) == sdma_b.wptr
    b.destroy_queue(sdma_b.q)
    a.destroy_queue(sdma_a.q)
    a.unmap(flag, [b.gpu_id])


def test_each_gpu_has_its_own_vram_budget(ab):
    a, b = ab
    before = [c.ioctl("AVAILABLE_MEMORY", gpu_id=c.gpu_id).available for c in (a, b)]
    big = a.alloc(20 << 30, VRAM, cpu=False, map_gpu=False)
    assert a.ioctl("AVAILABLE_MEMORY", gpu_id=a.gpu_id).available == before[0] - (20 << 30)
    assert a.ioctl("AVAILABLE_MEMORY", gpu_id=b.gpu_id).available == before[1]
    b.free(b.alloc(20 << 30, VRAM, cpu=False, map_gpu=False))      # B's 24 GiB are all still there
    a.free(big)


def test_host_memory_gone_unmaps_a_userptr_from_every_gpu(ab, kernel):
    a, b = ab
    host = kernel.mmap(None, 4096)
    host.view(np.uint8)[:4] = list(b"host")
    args = a.ioctl("ALLOC_MEMORY_OF_GPU", va_addr=host.address, size=4096, gpu_id=a.gpu_id,
                   flags=K.KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
                   mmap_offset=host.address)
    both, ids = map_args(args, a.gpu_id, b.gpu_id)
    assert a.ioctl("MAP_MEMORY_TO_GPU", **both).n_success == 2
    vms = [g.processes[0].vm for g in kernel.gpus]
    assert [vm.read(host.address, 4) for vm in vms] == [b"host", b"host"]
    mem = a.create_event(K.KFD_IOC_EVENT_MEMORY)
    sdma = SDMARing(b)
    kernel.munmap(host)                                # the MMU notifier drops it from both VMs
    sdma.submit(sdma_copy(sdma.q.pointers.va + 512, host.address, 4))     # B now faults on it
    result, data = b.wait([mem.event_id], timeout_ms=0)
    assert result == COMPLETE and data[0].memory_exception_data.va == host.address
    assert all(vm.lookup(host.address) is None for vm in vms)
    assert a.ioctl("UNMAP_MEMORY_FROM_GPU", **both).n_success == 2
    a.ioctl("FREE_MEMORY_OF_GPU", handle=args.handle)
    b.destroy_queue(sdma.q)


def test_vram_behind_a_small_bar_is_not_peer_accessible(monkeypatch):
    """Two RX 6900 XT without resizable BAR: amdgpu_device_is_peer_accessible says no, so
    amdkfd lists no p2p_links and refuses to map one's VRAM into the other (GTT still maps)."""
    from drivers.emu.amd import machine
    monkeypatch.setitem(machine.TARGETS, "gfx1030", "rx6900xt")
    k = make_kernel("gfx1030x2")
    assert props(k, f"{NODES}/1/properties")["p2p_links_count"] == 0
    assert not any("/p2p_links/" in path for path in k.files)
    a, b = KfdClient(k, node=1), KfdClient(k, node=2, runtime_enable=False)
    vram = a.alloc(4096, K.KFD_IOC_ALLOC_MEM_FLAGS_VRAM | K.KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, cpu=False)
    args, ids = map_args(vram, b.gpu_id)
    refused(a, "MAP_MEMORY_TO_GPU", errno.EINVAL, "not all visible through its BAR", **args)
    gtt = a.alloc(4096, GTT)
    a.map(gtt, [b.gpu_id])
    a.unmap(gtt, [b.gpu_id])
    b.close()
    a.close()
    assert k.live() == NOTHING


# -- ownership errors ---------------------------------------------------------------------------
def test_mapping_to_an_unknown_gpu_id_is_einval(ab):
    a, b = ab
    buf = a.alloc(4096)
    args, ids = map_args(buf, 0x1234)
    e = refused(a, "MAP_MEMORY_TO_GPU", errno.EINVAL, "device_ids_array[0] = 0x1234", **args)
    assert e.name == "AMDKFD_IOC_MAP_MEMORY_TO_GPU"
    args, ids = map_args(buf, b.gpu_id, 0x1234)        # B first: n_success says how far it got
    refused(a, "MAP_MEMORY_TO_GPU", errno.EINVAL, "0x1234", **args)
    a.unmap(buf, [b.gpu_id])
    only_b, ids_b = map_args(buf, b.gpu_id)
    refused(a, "UNMAP_MEMORY_FROM_GPU", errno.EINVAL, f"not mapped to GPU 0x{b.gpu_id:x}", **only_b)
    stray = dict(args, handle=b.gpu_id << 32 | (buf.handle & 0xFFFFFFFF))     # A's idr, B's gpu_id
    refused(a, "MAP_MEMORY_TO_GPU", errno.ENOMEM, "names no buffer", **stray)
    refused(a, "MAP_MEMORY_TO_GPU", errno.EINVAL, "belongs to no device", **dict(args, handle=0x4321 << 32))


def test_acquire_vm_with_the_other_gpus_render_node_is_einval(kernel):
    kfd = kernel.open("/dev/kfd")
    r128, r129 = kernel.open("/dev/dri/renderD128"), kernel.open("/dev/dri/renderD129")
    ga, gb = (g.gpu_id for g in kernel.gpus)

    def acquire(fd, gpu_id):
        kernel.ioctl(kfd, K.AMDKFD_IOC_ACQUIRE_VM, K.new("kfd_ioctl_acquire_vm_args", drm_fd=fd, gpu_id=gpu_id),
                     "AMDKFD_IOC_ACQUIRE_VM")

    with pytest.raises(IoctlError) as e:
        acquire(r129, ga)
    assert e.value.errno_name == "EINVAL" and f"render node of gpu 0x{gb:x}, not of gpu 0x{ga:x}" in str(e.value)
    acquire(r128, ga)
    with pytest.raises(IoctlError) as e:               # B's VM cannot be A's render node either
        acquire(r128, gb)
    assert e.value.errno_name == "EINVAL"
    with pytest.raises(IoctlError) as e:
        acquire(r129, ga)                              # A's VM is taken: another file is EBUSY
    assert e.value.errno_name == "EBUSY"
    acquire(r129, gb)
    for fd in (r129, r128, kfd):
        kernel.close(fd)


def test_peer_without_a_vm_is_enodev_and_alloc_there_too(kernel):
    a = KfdClient(kernel, node=1)
    buf = a.alloc(4096, VRAM)
    gb = kernel.gpus[1].gpu_id
    args, ids = map_args(buf, gb)
    refused(a, "MAP_MEMORY_TO_GPU", errno.ENODEV, f"no VM yet on gpu 0x{gb:x}", **args)
    refused(a, "ALLOC_MEMORY_OF_GPU", errno.ENODEV, "ACQUIRE_VM", va_addr=1 << 40, size=4096, gpu_id=gb, flags=GTT)
    refused(a, "CREATE_QUEUE", errno.ESRCH, gpu_id=gb, queue_type=SDMA, ring_size=4096)
    a.close()


def test_free_while_mapped_on_a_peer_is_ebusy(ab, kernel):
    a, b = ab
    buf = a.alloc(4096, VRAM)
    a.map(buf, [b.gpu_id])
    a.unmap(buf)                                       # gone from A's VM, still in B's
    refused(a, "FREE_MEMORY_OF_GPU", errno.EBUSY, f"still mapped to GPU 0x{b.gpu_id:x}", handle=buf.handle)
    assert kernel.gpus[1].processes[0].vm.lookup(buf.va) is not None
    a.unmap(buf, [b.gpu_id])
    a.free(buf)
    assert kernel.gpus[1].processes[0].vm.lookup(buf.va) is None


def test_a_queue_pins_a_peer_buffer_only_in_its_own_vm(ab, kernel):
    a, b = ab
    ring, pointers = a.alloc(4096), a.alloc(4096)
    for buf in (ring, pointers):
        a.map(buf, [b.gpu_id])
    q = b.ioctl("CREATE_QUEUE", gpu_id=b.gpu_id, queue_type=SDMA, ring_base_address=ring.va, ring_size=4096,
                queue_percentage=100, read_pointer_address=pointers.va, write_pointer_address=pointers.va + 8)
    args, ids = map_args(ring, b.gpu_id)
    refused(a, "UNMAP_MEMORY_FROM_GPU", errno.EBUSY, "queue of GPU", **args)
    a.unmap(ring)                                      # A's VM: no queue of A uses it
    b.ioctl("DESTROY_QUEUE", queue_id=q.queue_id)
    for buf in (ring, pointers):
        a.unmap(buf, [b.gpu_id])
    a.buffers.remove(ring)
    a.ioctl("FREE_MEMORY_OF_GPU", handle=ring.handle)
    kernel.munmap(ring.mapping)


def test_render_nodes_mmap_only_their_own_gpus_buffers(ab, kernel):
    a, b = ab
    buf = a.alloc(8192, VRAM, cpu=False)
    offset = next(bo.mmap_offset for bo in kernel.gpus[0].processes[0].bos.values() if bo.handle == buf.handle)
    with pytest.raises(OSError) as e:
        kernel.mmap(b.drm, 8192, offset)
    assert e.value.errno == errno.EINVAL and f"gpu 0x{b.gpu_id:x}" in str(e.value)
    m = kernel.mmap(a.drm, 8192, offset)
    kernel.munmap(m)


def test_doorbell_pages_are_per_gpu(ab, kernel):
    a, b = ab
    qa, qb = a.create_queue(SDMA), b.create_queue(SDMA)
    assert qa.doorbell_offset == qb.doorbell_offset and qa.queue_id != qb.queue_id    # ids are the process's
    assert a.doorbells.address != b.doorbells.address
    with pytest.raises(OSError) as e:
        kernel.mmap(a.kfd, 8192, (3 << 62) | 0x1234 << 46)
    assert e.value.errno == errno.ENODEV


# -- teardown -----------------------------------------------------------------------------------
def test_live_counts_per_gpu_and_for_the_machine(ab, kernel):
    a, b = ab
    before = [g.live() for g in kernel.gpus]
    buf = a.alloc(4096, VRAM)
    a.map(buf, [b.gpu_id])
    b.create_queue(SDMA)
    after = [g.live() for g in kernel.gpus]
    assert after[0]["bos"] == before[0]["bos"] + 1 and after[0]["mappings"] == before[0]["mappings"] + 1
    assert after[1]["bos"] == before[1]["bos"] + 2 and after[1]["queues"] == before[1]["queues"] + 1
    assert after[1]["mappings"] == before[1]["mappings"] + 3            # the peer BO, ring, pointers
    total = kernel.live()
    assert total["bos"] == after[0]["bos"] + after[1]["bos"] and total["processes"] == 1
    assert total["queues"] == after[0]["queues"] + after[1]["queues"]
    a.unmap(buf, [b.gpu_id])


def test_closing_releases_peer_mappings_left_behind(kernel):
    """Process exit unmaps a BO from every VM and frees it, even if the driver did neither."""
    a = KfdClient(kernel, node=1)
    b = KfdClient(kernel, node=2, runtime_enable=False)
    buf = a.alloc(4096, VRAM)
    a.map(buf, [b.gpu_id])
    SDMARing(b).submit(sdma_copy(buf.va, buf.va + 64, 8))
    a.create_event(K.KFD_IOC_EVENT_MEMORY)
    for fd in (b.drm, b.kfd, a.drm, a.kfd):
        kernel.close(fd)
    for m in [x.mapping for x in a.buffers + b.buffers] + [a.doorbells, b.doorbells]:
        if m is not None:
            kernel.munmap(m)
