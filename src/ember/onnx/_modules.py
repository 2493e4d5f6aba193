"""Translations of whole layers, for the layers whose forward cannot be traced through (it
checks its input's rank, say); every other layer is traced into its functional calls."""
from .. import nn
from ._ops_norm import batch_norm, instance_norm
from ._registry import translates_module
from .errors import SymbolicValueError


def _qualified(module_name, attribute):
    """The state_dict name of a layer's parameter ("bn.weight", or "weight" for the root)."""
    return f"{module_name}.{attribute}" if module_name else attribute


@translates_module(nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)
def batch_norm_module(g, module, name, input):
    if module.training or not module.track_running_stats:
        raise SymbolicValueError(f"{type(module).__name__} exports only in eval mode with "
                                 "running statistics (export with training=TrainingMode.EVAL)")
    params = {k: g.initializer(_qualified(name, k), getattr(module, k)) if getattr(module, k)
              is not None else None for k in ("weight", "bias", "running_mean", "running_var")}
    return batch_norm(g, input, params["running_mean"], params["running_var"],
                      params["weight"], params["bias"], False, module.momentum, module.eps)


@translates_module(nn.InstanceNorm1d, nn.InstanceNorm2d, nn.InstanceNorm3d)
def instance_norm_module(g, module, name, input):
    params = {k: g.initializer(_qualified(name, k), getattr(module, k)) if getattr(module, k)
              is not None else None for k in ("weight", "bias", "running_mean", "running_var")}
    unbatched = input.rank == module._no_batch_dim
    x = g.unsqueeze(input, [0]) if unbatched else input
    out = instance_norm(g, x, params["running_mean"], params["running_var"], params["weight"],
                        params["bias"], module.training or not module.track_running_stats,
                        module.momentum, module.eps)
    return g.squeeze(out, [0]) if unbatched else out
