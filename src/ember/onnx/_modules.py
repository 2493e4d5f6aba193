"""Translations of whole layers, for the layers whose forward cannot be traced through (it
checks its input's rank, say); every other layer is traced into its functional calls."""
from .. import nn
from ._ops_nn import batch_norm
from ._registry import translates_module
from .errors import SymbolicValueError


@translates_module(nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)
def batch_norm_module(g, module, name, input):
    if module.training or not module.track_running_stats:
        raise SymbolicValueError(f"{type(module).__name__} exports only in eval mode with "
                                 "running statistics (export with training=TrainingMode.EVAL)")
    params = {k: g.initializer(f"{name}.{k}", getattr(module, k)) if getattr(module, k)
              is not None else None for k in ("weight", "bias", "running_mean", "running_var")}
    return batch_norm(g, input, params["running_mean"], params["running_var"],
                      params["weight"], params["bias"], False, module.momentum, module.eps)
