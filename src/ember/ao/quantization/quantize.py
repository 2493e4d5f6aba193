"""Eager-mode quantization's entry points: `prepare` gives a model's layers qconfigs and output
observers, `convert` swaps the observed layers for quantized ones (`quantize` does both around
a calibration function), and `quantize_dynamic` swaps layers for their dynamically quantized
twins, following a qconfig spec.

NOTE [ Eager-mode static quantization ]
`prepare` hands each module its qconfig (its own `qconfig` attribute, even None, else its
entry in a qconfig dict, else its parent's), and each leaf module of a class in the
propagation list (and each fused module, FloatFunctional and QuantStub) with a qconfig gets
a child `activation_post_process` built by `qconfig.activation()`, called on the module's
output by a forward hook. Running data through it (calibration) lets the observers see the
ranges. `convert` replaces, bottom-up, each module with a qconfig whose class the mapping
knows by `QuantizedClass.from_float(module)`, which quantizes the weight with a fresh
`qconfig.weight()` observer and takes the output's scale and zero point from the module's
observer; then the qconfigs and leftover observers (and their hooks) are removed.
"""
import copy
import functools

from ... import _dtype, _qdtype
from ...nn.modules.container import Sequential
from ...nn.modules.dropout import Dropout
from ...nn.modules.linear import Linear
from ..nn.intrinsic import _FusedModule
from ..nn.quantized import FloatFunctional, QFunctional
from .quantization_mappings import (_RECURRENT, UNSUPPORTED_STATIC,
                                    get_default_dynamic_quant_module_mappings,
                                    get_default_qat_module_mappings,
                                    get_default_qconfig_propagation_list,
                                    get_default_static_quant_module_mappings)
from .qconfig import default_dynamic_qconfig, float16_dynamic_qconfig
from .stubs import DeQuantStub
from ... import _warn

__all__ = ["quantize_dynamic", "propagate_qconfig_", "prepare", "convert", "quantize",
           "add_quant_dequant", "swap_module", "prepare_qat", "quantize_qat"]

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
        _warn.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
        return fn(*args, **kwargs)
    return warned


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
    _refuse_recurrent(model, qconfig_spec)
    if mapping is None:
        mapping = get_default_dynamic_quant_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    propagate_qconfig_(model, qconfig_spec)
    convert(model, mapping, inplace=True)
    return model




def _refuse_recurrent(model, spec):
    for name, child in model.named_modules():
        if type(child) in _RECURRENT and type(child) is not _RECURRENT[0] and (
                type(child) in spec or name in spec):
            raise NotImplementedError(f"ember: dynamic quantization of {type(child).__name__} "
                                      "is not implemented (Linear and LSTM only)")


def propagate_qconfig_(module, qconfig_dict=None, prepare_custom_config_dict=None):
    """Give each submodule a `qconfig`: its own attribute (even None), else its entry in
    `qconfig_dict` (by qualified name, else by class), else its parent's."""
    _propagate(module, qconfig_dict or {}, None, "")


def _propagate(module, spec, inherited, prefix):
    qconfig = spec.get(type(module), inherited)
    qconfig = spec.get(prefix, qconfig)
    qconfig = getattr(module, "qconfig", qconfig)
    module.qconfig = qconfig
    for name, child in module.named_children():
        _propagate(child, spec, qconfig, prefix + ("." if prefix else "") + name)


def _observer_forward_hook(self, input, output):
    """The forward hook `prepare` adds: the output passes through the module's observer."""
    return self.activation_post_process(output)


def _observe(module):
    """Give `module` (which has a qconfig) its output observer and the hook calling it."""
    if isinstance(module, DeQuantStub):
        return
    module.add_module("activation_post_process", module.qconfig.activation())
    module.register_forward_hook(_observer_forward_hook, prepend=True)


def _add_observer_(module, propagation_list, non_leaf_module_list=None):
    for child in module.children():
        observed = getattr(child, "qconfig", None) is not None
        if type(child) is Dropout:
            continue
        if type(child) in (FloatFunctional, QFunctional):
            if observed:
                child.activation_post_process = child.qconfig.activation()
        elif isinstance(child, _FusedModule):
            if observed:
                _observe(child)
        elif non_leaf_module_list is not None and type(child) in non_leaf_module_list:
            if observed:
                _observe(child)
        else:
            _add_observer_(child, propagation_list, non_leaf_module_list)
    if (not list(module.children()) and not isinstance(module, Sequential)
            and type(module) in propagation_list and module.qconfig is not None):
        _observe(module)


@_deprecated
def prepare(model, inplace=False, allow_list=None, observer_non_leaf_module_list=None,
            prepare_custom_config_dict=None):
    """`model` (a copy unless `inplace`) ready for calibration: qconfigs propagated and
    output observers added (NOTE [ Eager-mode static quantization ]).

        >>> model.qconfig = torch.ao.quantization.get_default_qconfig("x86")
        >>> prepared = torch.ao.quantization.prepare(model)
    """
    if not inplace:
        model = copy.deepcopy(model)
    propagation_list = allow_list or get_default_qconfig_propagation_list()
    propagate_qconfig_(model)
    if not any(getattr(m, "qconfig", None) for m in model.modules()):
        _warn.warn("None of the submodule got qconfig applied. Make sure you passed correct "
                   "configuration through `qconfig_dict` or by assigning the `.qconfig` "
                   "attribute directly on submodules", stacklevel=2)
    _add_observer_(model, propagation_list, observer_non_leaf_module_list)
    return model


@_deprecated
def convert(module, mapping=None, inplace=False, remove_qconfig=True, is_reference=False,
            convert_custom_config_dict=None, use_precomputed_fake_quant=False):
    """`module` (a copy unless `inplace`) with each observed submodule swapped for its
    quantized class (`mapping`, default the static one), then qconfigs and observers removed.

        >>> quantized = torch.ao.quantization.convert(prepared)
    """
    refuse = mapping is None        # (layers torch quantizes statically and ember cannot)
    if mapping is None:
        mapping = get_default_static_quant_module_mappings()
    if not inplace:
        module = copy.deepcopy(module)
    _convert(module, mapping, refuse)
    if remove_qconfig:
        _remove_qconfig(module)
    return module


def _convert(module, mapping, refuse):
    swapped = {}
    for name, child in module.named_children():
        if not isinstance(child, _FusedModule):
            _convert(child, mapping, refuse)
        if refuse and type(child) in UNSUPPORTED_STATIC and \
                getattr(child, "qconfig", None) is not None:
            raise NotImplementedError(f"ember: the statically quantized "
                                      f"{type(child).__name__} is not implemented")
        swapped[name] = swap_module(child, mapping, {})
    for name, child in swapped.items():
        module._modules[name] = child


def swap_module(mod, mapping, custom_module_class_mapping=None):
    """`mod`'s quantized replacement (`from_float`) if it has a qconfig and `mapping` knows
    its class, keeping its hooks other than the observer's; else `mod` itself."""
    if getattr(mod, "qconfig", None) is None or type(mod) not in mapping:
        return mod
    new = mapping[type(mod)].from_float(mod)
    for hook in mod._forward_pre_hooks.values():
        new.register_forward_pre_hook(hook)
    for hook in mod._forward_hooks.values():
        if hook is not _observer_forward_hook:
            new.register_forward_hook(hook)
    return new


def _remove_qconfig(module):
    for child in module.children():
        _remove_qconfig(child)
    if hasattr(module, "qconfig"):
        del module.qconfig
    from .fake_quantize import FakeQuantizeBase
    from .observer import ObserverBase
    if isinstance(module._modules.get("activation_post_process"),
                  (ObserverBase, FakeQuantizeBase)):
        del module._modules["activation_post_process"]
        for key, hook in list(module._forward_hooks.items()):
            if hook is _observer_forward_hook:
                del module._forward_hooks[key]


@_deprecated
def prepare_qat(model, mapping=None, inplace=False):
    """`model` (in training mode; a copy unless `inplace`) ready for quantization-aware
    training: layers swapped for their QAT classes (fake-quantized weights) and output
    fake-quantizers added (NOTE [ Eager-mode static quantization ]).

        >>> model.qconfig = torch.ao.quantization.get_default_qat_qconfig("x86")
        >>> qat_model = torch.ao.quantization.prepare_qat(model.train())
    """
    if not model.training:
        raise AssertionError("prepare_qat only works on models in training mode")
    if mapping is None:
        mapping = get_default_qat_module_mappings()
    if not inplace:
        model = copy.deepcopy(model)
    propagate_qconfig_(model)
    convert(model, mapping=mapping, inplace=True, remove_qconfig=False)
    prepare(model, observer_non_leaf_module_list=set(mapping.values()), inplace=True)
    return model


def quantize_qat(model, run_fn, run_args, inplace=False):
    """Quantization-aware training in one call: `prepare_qat`, `run_fn(model, *run_args)`
    (the training), then `convert` (in eval mode)."""
    if not inplace:
        model = copy.deepcopy(model)
    model.train()
    prepare_qat(model, inplace=True)
    run_fn(model, *run_args)
    convert(model.eval(), inplace=True)
    return model


def quantize(model, run_fn, run_args, mapping=None, inplace=False):
    """Post-training static quantization in one call: `prepare` (in eval mode), then
    `run_fn(prepared, *run_args)` to calibrate, then `convert`."""
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    prepare(model, inplace=True)
    run_fn(model, *run_args)
    convert(model, mapping, inplace=True)
    return model


def add_quant_dequant(module):
    """Wrap each leaf submodule with a qconfig in a QuantWrapper (and `module` itself if it
    is such a leaf)."""
    from .stubs import QuantWrapper
    if not list(module.children()) and getattr(module, "qconfig", None):
        return QuantWrapper(module)
    for name, child in module.named_children():
        module._modules[name] = add_quant_dequant(child)
    return module
