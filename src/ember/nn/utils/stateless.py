"""torch.nn.utils.stateless: the deprecated home of `functional_call` (now ember.func's)."""
from ... import _warn

__all__ = ["functional_call"]


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """`module` called with `parameters_and_buffers` in place of its own (deprecated: use
    `ember.func.functional_call`, which this calls, with torch's FutureWarning)."""
    _warn.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
               "and will be removed in a future version of PyTorch. Please use "
               "`torch.func.functional_call` instead which is a drop-in replacement.",
               FutureWarning, stacklevel=2)
    from ...func import functional_call as call
    return call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights,
                strict=strict)
