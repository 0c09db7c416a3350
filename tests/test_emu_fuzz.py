"""Random packet streams never crash the virtual CP: each ends processed or as a named queue error."""
import numpy as np
import pytest

import kfd_ioctl as K
from drivers.emu import make_kernel
from drivers.emu.amd.kfd_client import KfdClient

PM4_OPCODES = [0x10, 0x15, 0x37, 0x3C, 0x3F, 0x40, 0x46, 0x49, 0x58, 0x76, 0x79, 0x99]
SDMA_OPS = [0, 1, 2, 4, 5, 6, 8, 11, 13, 17, 0x3F]


def random_dwords(rng, mapped_va, n):
    """Mostly small or mapped-looking values, so packets reach deep into their handlers."""
    pool = [0, 1, 4, 0xFFFFFFFF, mapped_va & 0xFFFFFFFF, mapped_va >> 32, 1 << 23, 0x8005]
    return [int(rng.choice(pool)) if rng.random() < 0.6 else int(rng.integers(0, 2**32)) for _ in range(n)]


@pytest.mark.parametrize("queue_type", [K.KFD_IOC_QUEUE_TYPE_COMPUTE, K.KFD_IOC_QUEUE_TYPE_SDMA,
                                        K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL])
def test_random_packets_end_cleanly(queue_type):
    rng = np.random.default_rng(1234 + queue_type)
    k = make_kernel("gfx1100")
    k.gpu.executor = lambda d: d.vm.translate(d.code_va, 4, execute=True)
    outcomes = {"ok": 0, "error": 0}
    for trial in range(100):
        c = KfdClient(k)
        scratch = c.alloc(1 << 16)
        q = c.create_queue(queue_type, ring_size=4096)
        ring = q.ring.view(np.uint32, 0, 1024)
        if queue_type == K.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL:
            n = int(rng.integers(1, 4))
            words = random_dwords(rng, scratch.va, 16 * n)
            for i in range(n):
                words[16 * i] = (words[16 * i] & 0xFFFFFF00) | int(rng.choice([0, 2, 3, 5, 7]))
            ring[:len(words)] = words
            q.pointers.view(np.uint64, 56, 1)[0] = n
            doorbell = n - 1
        else:
            words = []
            while len(words) < 40:
                if queue_type == K.KFD_IOC_QUEUE_TYPE_COMPUTE:
                    count = int(rng.integers(0, 8))
                    words += [(3 << 30) | (count << 16) | (int(rng.choice(PM4_OPCODES)) << 8)]
                    words += random_dwords(rng, scratch.va, count + 1)
                else:
                    words += [int(rng.choice(SDMA_OPS)) | int(rng.integers(0, 4)) << 30]
                    words += random_dwords(rng, scratch.va, int(rng.integers(0, 8)))
            ring[:len(words)] = words
            doorbell = len(words) * (4 if queue_type == K.KFD_IOC_QUEUE_TYPE_SDMA else 1)
            q.pointers.view(np.uint64, q.wptr_offset, 1)[0] = doorbell
        k.gpu.last_error = None
        c.ring_doorbell(q, doorbell)
        outcomes["error" if k.gpu.last_error else "ok"] += 1
        if k.gpu.last_error:
            assert f"queue {q.queue_id}" in k.gpu.last_error
        c.close()
    assert k.gpu.live()["bos"] == 0 and outcomes["error"] > 0, outcomes
