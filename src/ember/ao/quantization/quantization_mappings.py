"""Which float module class becomes which quantized class (`convert`'s default mappings),
and which classes get a qconfig and an output observer in `prepare`."""
from ...nn.modules import activation, batchnorm, conv, dropout, instancenorm, normalization
from ...nn.modules import linear, rnn, sparse
from ..nn import intrinsic as nni
from ..nn import quantized as nnq
from ..nn import qat as nnqat
from ..nn.intrinsic import qat as nniqat
from ..nn.intrinsic import quantized as nniq
from .stubs import DeQuantStub, QuantStub

__all__ = ["get_default_static_quant_module_mappings", "get_default_dynamic_quant_module_mappings",
           "get_default_qat_module_mappings", "get_default_qconfig_propagation_list",
           "no_observer_set"]

# What `convert` swaps by default.
DEFAULT_STATIC_QUANT_MODULE_MAPPINGS = {
    QuantStub: nnq.Quantize,
    DeQuantStub: nnq.DeQuantize,
    conv.Conv1d: nnq.Conv1d,
    conv.Conv2d: nnq.Conv2d,
    conv.Conv3d: nnq.Conv3d,
    dropout.Dropout: nnq.Dropout,
    activation.ReLU6: nnq.ReLU6,
    activation.Hardswish: nnq.Hardswish,
    activation.LeakyReLU: nnq.LeakyReLU,
    linear.Linear: nnq.Linear,
    nnq.FloatFunctional: nnq.QFunctional,
    nni.ConvReLU1d: nniq.ConvReLU1d,
    nni.ConvReLU2d: nniq.ConvReLU2d,
    nni.ConvReLU3d: nniq.ConvReLU3d,
    nni.LinearReLU: nniq.LinearReLU,
    nnqat.Linear: nnq.Linear,
    nnqat.Conv2d: nnq.Conv2d,
    nnqat.Conv3d: nnq.Conv3d,
    nniqat.LinearReLU: nniq.LinearReLU,
    nniqat.ConvReLU2d: nniq.ConvReLU2d,
    nniqat.ConvReLU3d: nniq.ConvReLU3d,
    nniqat.ConvBn1d: nnq.Conv1d,
    nniqat.ConvBn2d: nnq.Conv2d,
    nniqat.ConvBnReLU1d: nniq.ConvReLU1d,
    nniqat.ConvBn3d: nnq.Conv3d,
    nniqat.ConvBnReLU2d: nniq.ConvReLU2d,
    nniqat.ConvBnReLU3d: nniq.ConvReLU3d,
    nniqat.LinearBn1d: nnq.Linear,
}

# What `prepare_qat` swaps in: the layers with fake-quantized weights.
DEFAULT_QAT_MODULE_MAPPINGS = {
    conv.Conv2d: nnqat.Conv2d,
    conv.Conv3d: nnqat.Conv3d,
    linear.Linear: nnqat.Linear,
    nni.ConvReLU2d: nniqat.ConvReLU2d,
    nni.ConvReLU3d: nniqat.ConvReLU3d,
    nni.LinearReLU: nniqat.LinearReLU,
    nni.ConvBn1d: nniqat.ConvBn1d,
    nni.ConvBn2d: nniqat.ConvBn2d,
    nni.ConvBn3d: nniqat.ConvBn3d,
    nni.ConvBnReLU1d: nniqat.ConvBnReLU1d,
    nni.ConvBnReLU2d: nniqat.ConvBnReLU2d,
    nni.ConvBnReLU3d: nniqat.ConvBnReLU3d,
    nni.LinearBn1d: nniqat.LinearBn1d,
}

# Classes torch also quantizes statically and ember has no quantized layer for: they get
# observers in `prepare` as in torch, and `convert` refuses them.
UNSUPPORTED_STATIC = (
    batchnorm.BatchNorm2d, batchnorm.BatchNorm3d,
    conv.ConvTranspose1d, conv.ConvTranspose2d, conv.ConvTranspose3d, activation.ELU,
    activation.PReLU,
    instancenorm.InstanceNorm1d, instancenorm.InstanceNorm2d, instancenorm.InstanceNorm3d,
    normalization.GroupNorm, normalization.LayerNorm, sparse.Embedding, sparse.EmbeddingBag,
    nni.BNReLU2d, nni.BNReLU3d)

_RECURRENT = (rnn.LSTM, rnn.GRU, rnn.LSTMCell, rnn.RNNCell, rnn.GRUCell)


def get_default_static_quant_module_mappings():
    """Float (or fused) class -> its statically quantized class."""
    return dict(DEFAULT_STATIC_QUANT_MODULE_MAPPINGS)


def get_default_qat_module_mappings():
    """Float (or fused) class -> its quantization-aware training class."""
    return dict(DEFAULT_QAT_MODULE_MAPPINGS)


def get_default_dynamic_quant_module_mappings():
    """Float layer class -> its dynamically quantized class (ember has Linear's and LSTM's)."""
    return {linear.Linear: nnq.dynamic.Linear, rnn.LSTM: nnq.dynamic.LSTM}


def get_default_qconfig_propagation_list():
    """The classes `prepare` gives a qconfig and (leaves) an output observer."""
    return (set(DEFAULT_STATIC_QUANT_MODULE_MAPPINGS) | set(UNSUPPORTED_STATIC)
            | set(_RECURRENT) | {nni.ConvBn1d, nni.ConvBn2d, nni.ConvBn3d, nni.ConvBnReLU1d,
                                 nni.ConvBnReLU2d, nni.ConvBnReLU3d, nni.LinearBn1d})


def no_observer_set():
    """Classes whose output needs no observer (none of ember's)."""
    return set()
