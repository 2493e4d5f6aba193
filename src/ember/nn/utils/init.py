"""skip_init: build a module without running its parameter initialisation."""
import inspect

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """`module_cls(*args, **kwargs)` with uninitialised parameters and buffers (the module
    class must accept a `device` argument).

        m = nn.utils.skip_init(nn.Linear, 5, 1)    # m.weight holds arbitrary values
    """
    from ... import random as _random
    from ..modules.module import Module
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    # NOTE: torch builds the module on the 'meta' device, where initialisers do no work and
    # draw no random numbers; ember cannot compute on 'meta', so it builds the module on the
    # CPU and puts the random state back, which leaves the same observable result.
    state = _random.get_rng_state()
    try:
        module = module_cls(*args, **kwargs, device="cpu")
    finally:
        _random.set_rng_state(state)
    return module.to_empty(device=final_device)
