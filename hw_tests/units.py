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
