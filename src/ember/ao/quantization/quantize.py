"""Eager-mode quantization's entry points: `quantize_dynamic` swaps a model's layers for their
dynamically quantized twins, following a qconfig spec."""
import copy
import functools
import warnings

from ... import _dtype, _qdtype
from ...nn.modules.linear import Linear
from ...nn.modules.rnn import GRU, GRUCell, LSTM, LSTMCell, RNNCell
from .qconfig import default_dynamic_qconfig, float16_dynamic_qconfig

__all__ = ["quantize_dynamic", "propagate_qconfig_", "convert",
           "get_default_dynamic_quant_module_mappings"]

_RECURRENT = (LSTM, GRU, LSTMCell, RNNCell, GRUCell)

DEPRECATION_WARNING = (
    "torch.ao.quantization is deprecated and will be removed in 2.10. \n"
    "For migrations of users: \n"
    "1. Eager mode quantization (torch.ao.quantization.quantize, "
    "torch.ao.quantization.quantize_dynamic), please migrate to use torchao eager mode "
    "quantize_ API instead \n"
    "2. FX graph mode quantization (torch.ao.quantization.quantize_fx.prepare_fx,"
    "torch.ao.quantization.quantize_fx.convert_fx, please migrate to use torchao pt2e "
    "quantization API instead (prepare_pt2e, convert_pt2e) \n"
    "3. pt2e quantization has been migrated to torchao "
    "(https://github.com/pytorch/ao/tree/main/torchao/quantization/pt2e) \n"
    "see https://github.com/pytorch/ao/issues/2259 for more details")


def _deprecated(fn):
    """torch marks its eager-mode entry points deprecated: a DeprecationWarning at each call
    (so `quantize_dynamic` warns twice: itself, and the `convert` it calls)."""
    @functools.wraps(fn)
    def warned(*args, **kwargs):
        warnings.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
        return fn(*args, **kwargs)
    return warned


def get_default_dynamic_quant_module_mappings():
    """Float layer class -> its dynamically quantized class (ember has Linear's and LSTM's)."""
    from ..nn.quantized import dynamic
    return {Linear: dynamic.Linear, LSTM: dynamic.LSTM}


@_deprecated
def quantize_dynamic(model, qconfig_spec=None, dtype=_qdtype.qint8, mapping=None,
                     inplace=False):
    """`model` (a copy unless `inplace`) in eval mode with each layer the spec names replaced
    by its dynamically quantized twin. `qconfig_spec`: a set of layer classes or submodule
    names (each gets the default qconfig of `dtype`), or a dict of them to qconfigs; None: every
    Linear and recurrent layer.

        >>> qmodel = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear},
        ...                                                  dtype=torch.qint8)
    """
    if dtype is _qdtype.qint8:
        default = default_dynamic_qconfig
    elif dtype is _dtype.float16:
        default = float16_dynamic_qconfig
    else:
        raise ValueError(f"Don't know how to quantize with default settings for {dtype}. "
                         "Provide full qconfig please")
    if qconfig_spec is None:
        qconfig_spec = dict.fromkeys((Linear,) + _RECURRENT, default)
    elif isinstance(qconfig_spec, (set, list, tuple, frozenset)):
        qconfig_spec = dict.fromkeys(qconfig_spec, default)
    if mapping is None:
        mapping = get_default_dynamic_quant_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    propagate_qconfig_(model, qconfig_spec)
    convert(model, mapping, inplace=True)
    return model


def propagate_qconfig_(module, qconfig_dict=None):
    """Give each submodule a `qconfig`: its own entry (by class, or by qualified name), else
    its parent's."""
    _propagate(module, qconfig_dict or {}, getattr(module, "qconfig", None), "")


def _propagate(module, spec, inherited, prefix):
    qconfig = spec.get(type(module), inherited)
    qconfig = spec.get(prefix, qconfig)
    qconfig = getattr(module, "qconfig", None) or qconfig
    module.qconfig = qconfig
    for name, child in module.named_children():
        _propagate(child, spec, qconfig, prefix + ("." if prefix else "") + name)


@_deprecated
def convert(module, mapping=None, inplace=False):
    """Swap every submodule with a qconfig whose class `mapping` knows for its quantized
    twin (`from_float`); qconfig attributes are removed afterwards."""
    if mapping is None:
        mapping = get_default_dynamic_quant_module_mappings()
    if not inplace:
        module = copy.deepcopy(module)
    _convert(module, mapping)
    _remove_qconfig(module)
    return module


def _convert(module, mapping):
    for name, child in list(module.named_children()):
        if getattr(child, "qconfig", None) is not None and type(child) in mapping:
            module._modules[name] = mapping[type(child)].from_float(child)
        elif getattr(child, "qconfig", None) is not None and type(child) in _RECURRENT:
            raise NotImplementedError(f"ember: dynamic quantization of {type(child).__name__} "
                                      "is not implemented (Linear and LSTM only)")
        else:
            _convert(child, mapping)


def _remove_qconfig(module):
    for child in module.children():
        _remove_qconfig(child)
    if hasattr(module, "qconfig"):
        del module.qconfig
