"""What the NVIDIA stages share: the cubins of hw_tests/kernels/nv loaded once per device, and the
check that the virtual GPU can run them."""
from hw_tests.nv_kernels import cubin_path, decoder_disagrees
from hw_tests.runner import LayerMissing


def require_decoder(ctx):
    """On the virtual GPU, running a kernel needs the SASS decoder (assembler.sass)."""
    if not ctx.emulated:
        return
    from drivers.emu.nv.sass.decode import missing
    reason = missing()
    if reason:
        raise LayerMissing("assembler.sass", reason)


def program(ctx, name):
    """The loaded program of hw_tests/kernels/nv/cubin/NAME.<target>.cubin (loaded on first use). On
    the virtual GPU its code must decode as nvdisasm's frozen listing says, or the simulator would run
    something else."""
    require_decoder(ctx)
    if ctx.emulated:
        reason = decoder_disagrees(name, ctx.dev.target)
        if reason:
            raise LayerMissing("assembler.sass", reason)
    loaded = ctx.shared.setdefault("programs", {})
    if name not in loaded:
        loaded[name] = ctx.dev.load(cubin_path(name, ctx.dev.target))
    return loaded[name]


def kernel(ctx, name):
    return program(ctx, name)[name]
