"""What the statically quantized layers share: quantizing a float weight with its observer's
parameters, a quint8 output tensor, the scale and zero point entries of their state_dicts,
and the `qconfig` checks of `from_float`."""
from ..... import _dtype, _qdtype
from ....._quantized import Quantizer, make, quantize_per_channel, quantize_per_tensor
from .....nn.modules.module import Module

__all__ = ["quantize_weight", "quantized_output", "QuantizedOutputModule"]


def quantize_weight(weight, observer):
    """`weight` quantized with the parameters `observer` (which has seen it) computes."""
    scale, zero_point = observer.calculate_qparams()
    if observer.qscheme in (_qdtype.per_channel_symmetric, _qdtype.per_channel_affine):
        return quantize_per_channel(weight.detach(), scale.to(_dtype.float64),
                                    zero_point.to(_dtype.int64), observer.ch_axis,
                                    observer.dtype)
    return quantize_per_tensor(weight.detach(), float(scale), int(zero_point), observer.dtype)


def zero_weight(*shape):
    """A qint8 weight of zeros (scale 1, zero point 0): a new layer's, until it gets one."""
    import numpy as np
    return make(np.zeros(shape, np.int8), Quantizer(_qdtype.qint8, _qdtype.per_tensor_affine,
                                                     1.0, 0))


def quantized_output(array, scale, zero_point):
    """The per-tensor quint8 tensor over uint8 `array`."""
    return make(array, Quantizer(_qdtype.quint8, _qdtype.per_tensor_affine, float(scale),
                                 int(zero_point)))


# The backends torch's error lists for an operator registered by a library (`quantized::`
# ops): the autograd fallbacks are fewer than a native operator's (aten::qscheme: _TAIL).
_LIBRARY_TAIL = (
    "BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Conjugate, "
    "Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, "
    "AutogradXLA, AutogradMPS, AutogradXPU, AutogradHPU, AutogradLazy, AutogradMTIA, "
    "AutogradMAIA, AutogradPrivateUse1, AutogradMeta, Tracer, AutocastCPU, AutocastMTIA, "
    "AutocastMAIA, AutocastXPU, AutocastMPS, AutocastCUDA, FuncTorchBatched, "
    "BatchedNestedTensor, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, "
    "PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PreDispatch, PythonDispatcher")


def check_quant_input(x, op):
    """torch's error when quantized operator `op` (its dispatcher name) meets a float tensor
    (a model missing a QuantStub); ember's for another quantized dtype than quint8."""
    if not getattr(x, "is_quantized", False):
        from .....sparse._backends import _TAIL
        tail = _LIBRARY_TAIL if op.startswith("quantized::") else _TAIL
        raise NotImplementedError(
            f"Could not run '{op}' with arguments from the 'CPU' backend. This could be "
            "because the operator doesn't exist for this backend, or was omitted during the "
            "selective/custom build process (if using custom build). If you are a Facebook "
            "employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
            f"possible resolutions. '{op}' is only available for these backends: [Meta, "
            f"QuantizedCPU, {tail}].")
    if x.dtype is not _qdtype.quint8:
        raise RuntimeError(f"ember: {op} of a {x.dtype} tensor is not implemented (quint8 "
                           "only)")


def observed_params(mod):
    """(scale, zero_point) as numbers from float module `mod`'s output observer."""
    if not hasattr(mod, "activation_post_process"):
        raise AssertionError("Input float module must have activation_post_process")
    scale, zero_point = mod.activation_post_process.calculate_qparams()
    return float(scale), int(zero_point)


def weight_observer(mod):
    """The observer (or QAT fake-quantizer) that decides float module `mod`'s weight's
    parameters, having seen the weight."""
    observer = getattr(mod, "weight_fake_quant", None)
    if observer is None:
        if getattr(mod, "qconfig", None) is None:
            raise AssertionError("Input float module must have qconfig defined")
        observer = mod.qconfig.weight()
    observer(mod.weight)
    return observer


class QuantizedOutputModule(Module):
    """A quantized layer whose output has its own `scale` and `zero_point` (numbers), saved
    in its state_dict as tensors."""

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        from ..... import tensor
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "scale"] = tensor(self.scale)
        destination[prefix + "zero_point"] = tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        for name, kind in (("scale", float), ("zero_point", int)):
            if prefix + name in state_dict:
                setattr(self, name, kind(state_dict.pop(prefix + name)))
            elif strict:
                missing_keys.append(prefix + name)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys,
                                      unexpected_keys, error_msgs)
