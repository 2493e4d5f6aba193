"""skip_init: build a module without running its parameter initialisation."""
import inspect

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """`module_cls(*args, **kwargs)` with uninitialised parameters and buffers (the module
    class must accept a `device` argument).

        m = nn.utils.skip_init(nn.Linear, 5, 1)    # m.weight holds arbitrary values
    """
    from ..modules.module import Module
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    # As torch: built on the 'meta' device, where initialisers do no work and draw no random
    # numbers, then given uninitialised memory.
    return module_cls(*args, **kwargs, device="meta").to_empty(device=final_device)
