"""A card's theoretical peaks, computed from its KFD topology.

Compute: compute units x engine clock x per-CU rate. The RDNA3 per-CU rates are those that
reproduce AMD's RX 7900 XTX figures (96 CUs at 2.5 GHz boost):

    FP32:        2 SIMD32 x 32 lanes x 2 (dual issue) x 2 flops per FMA = 256 flop/clock/CU
                 -> 96 x 2.5 GHz x 256 = 61.4 TFLOPS
    FP16 matrix: WMMA f16 -> f32 at twice that, 512 flop/clock/CU -> 122.9 TFLOPS

(the topology reports max_engine_clk_fcompute, 2482 MHz on a 7900 XTX, so the figures computed
here are 61.0 and 122.0).

Memory: bus width (mem_banks width, bits) / 8 x mem_clk_max (MHz) x transfers per clock, where
KFD's mem_clk_max for GDDR6 is the command clock and the pins move 16 bits per clock per pin
(20 Gbps GDDR6 reports 1250 MHz: 384 / 8 x 1250 MHz x 16 = 960 GB/s), and for HBM (buses of
1024 bits and more) 4 transfers per reported clock (an MI300X: 8192 / 8 x 1300 MHz x 4 = 5.3 TB/s).
"""
from drivers.amd.topology import HEAP_FB_PRIVATE, HEAP_FB_PUBLIC

FLOPS_PER_CU_CLOCK = {"gfx11": {"fp32": 256, "fp16_matrix": 512}}
GDDR_TRANSFERS_PER_CLOCK = 16
HBM_TRANSFERS_PER_CLOCK = 4
HBM_MIN_WIDTH_BITS = 1024


def compute_peak(node, kind):
    """Theoretical flop/s of ``kind`` ('fp32' or 'fp16_matrix'), or None for an unknown family."""
    rates = FLOPS_PER_CU_CLOCK.get(node.family)
    if rates is None:
        return None
    return node.compute_units * node.engine_clock_mhz * 1e6 * rates[kind]


def memory_peak(node):
    """Theoretical VRAM bytes/s from the first VRAM bank, and the rule used (None without one)."""
    banks = [b for b in node.mem_banks if b.heap_type in (HEAP_FB_PUBLIC, HEAP_FB_PRIVATE)]
    if not banks:
        return None, "no VRAM bank"
    width, clock = banks[0].properties.get("width", 0), banks[0].properties.get("mem_clk_max", 0)
    if not width or not clock:
        return None, "the VRAM bank reports no width or clock"
    hbm = width >= HBM_MIN_WIDTH_BITS
    per = HBM_TRANSFERS_PER_CLOCK if hbm else GDDR_TRANSFERS_PER_CLOCK
    rule = f"{width}-bit x {clock} MHz x {per} ({'HBM' if hbm else 'GDDR'})"
    return width / 8 * clock * 1e6 * per, rule
