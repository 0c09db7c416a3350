"""What the Qualcomm stages share: programs loaded once per wave size, buffers freed together."""
import numpy as np

from hw_tests.ir3_programs import assemble

WAVES = (64, 128)


def program(ctx, name, wave=64):
    """Kernel NAME of hw_tests/kernels/ir3/NAME.asm on ``wave``-fiber waves (loaded once)."""
    loaded = ctx.shared.setdefault("programs", {})
    key = (name, wave)
    if key not in loaded:
        loaded[key] = ctx.dev.load(assemble(name), name=name, threadsize=wave)
    return loaded[key][name]


def upload_args(b, args):
    """Case arguments -> call arguments (arrays become buffers) and [(buffer, array)] to read back."""
    call, back = [], []
    for a in args:
        if isinstance(a, np.ndarray):
            buf = b.upload(a)
            call.append(buf)
            back.append((buf, a))
        else:
            call.append(a)
    return call, back
