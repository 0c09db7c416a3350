"""Human-readable sizes and rates for the console lines."""


def gib(n):
    return f"{n / (1 << 30):.1f} GiB"


def size(n):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} B"


def exact_size(n):
    """A byte count without rounding: '4 KiB' only when it is exactly that, else '4097 B'."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


def rate(value, unit):
    """3 significant digits, never scientific notation: 0.0312 TFLOPS, 812 GB/s."""
    if value == 0:
        return f"0 {unit}"
    digits = max(0, 2 - int(f"{abs(value):e}".split("e")[1]))
    return f"{value:.{digits}f} {unit}"


def share_of_peak(measured, peak, unit, scale, whose, emulated):
    """(percent, text) for a measured rate against a peak: '812 GB/s, 84.6% of the RX 7900 XTX's
    960 GB/s' (``whose`` is "RX 7900 XTX's"); on a virtual GPU the text says what it measured."""
    pct = 100 * measured / peak
    where, tail = ("virtual GPU: ", " -- this measures the simulator") if emulated else ("", "")
    shown = f"{pct:.1f}%" if pct >= 0.1 or pct == 0 else f"{pct:.2g}%"
    return pct, f"{where}{rate(measured / scale, unit)}, {shown} of the {whose} {rate(peak / scale, unit)}{tail}"
