"""ember.nn on the GPU (the real one where there is one, else the fake CuPy), table-driven: each
case builds a module on the CPU with a fixed seed, runs it on the same float64 input on 'cpu'
and on a copy moved to 'cuda', backpropagates the same random output gradient
(autograd.grad over the inputs and the parameters), and checks that outputs, input and
parameter gradients, and the buffers after the step (BatchNorm's running statistics) agree,
with every result on 'cuda'. Integer inputs (targets, indices, lengths) go to 'cuda' too.

Train-mode dropout draws from each device's own generator, so it is checked on 'cuda' alone:
the kept fraction is plausible and the kept values are scaled by 1 / (1 - p)."""
import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F
from ember.nn.utils import prune

# --- inputs: (NumPy array, whether it takes a gradient) -----------------------------------


def R(*shape):
    """standard normal float64, differentiated"""
    return lambda rng: (rng.standard_normal(shape), True)


def P(*shape, low=0.1, high=1.0):
    """positive float64 in [low, high), differentiated"""
    return lambda rng: (rng.uniform(low, high, shape), True)


def I(high, *shape, low=0):
    """int64 in [low, high), no gradient"""
    return lambda rng: (rng.integers(low, high, shape), False)


def K(value):
    """a constant (no gradient): an array or a function of the generator"""
    return lambda rng: (np.asarray(value(rng) if callable(value) else value), False)


class Call(nn.Module):
    """Wraps `f(module, *inputs)` (or `f(*inputs)`) so that functional calls and modules with
    extra arguments run through the same table."""

    def __init__(self, f, module=None):
        super().__init__()
        self.f, self.inner = f, module

    def forward(self, *xs):
        return self.f(*xs) if self.inner is None else self.f(self.inner, *xs)


def fn(f):
    return lambda: Call(f)


def with_args(make, f):
    return lambda: Call(f, make())


def _log_probs(log_probs, targets, in_lens, tgt_lens):
    return nn.CTCLoss()(log_probs.log_softmax(2), targets, in_lens, tgt_lens)


def _mask(rng, shape):
    return rng.uniform(size=shape) < 0.3


CAUSAL = np.triu(np.ones((4, 4), dtype=bool), 1)

# id: (constructor, inputs, train mode)
CASES = {
    # linear
    "Linear": (lambda: nn.Linear(4, 3), [R(2, 5, 4)], True),
    "Linear-nobias": (lambda: nn.Linear(4, 3, bias=False), [R(6, 4)], True),
    "Bilinear": (lambda: nn.Bilinear(3, 4, 2), [R(5, 3), R(5, 4)], True),
    # convolutions
    "Conv1d-dilation": (lambda: nn.Conv1d(2, 4, 3, dilation=2, padding=1), [R(2, 2, 9)], True),
    "Conv1d-same-reflect": (lambda: nn.Conv1d(2, 3, 4, padding="same", padding_mode="reflect"),
                            [R(2, 2, 8)], True),
    "Conv2d-groups-stride": (lambda: nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2),
                             [R(2, 4, 7, 6)], True),
    "Conv2d-circular": (lambda: nn.Conv2d(2, 3, 3, padding=2, padding_mode="circular"),
                        [R(1, 2, 5, 6)], True),
    "Conv2d-same-dilated": (lambda: nn.Conv2d(2, 2, 3, padding="same", dilation=2),
                            [R(1, 2, 6, 6)], True),
    "Conv3d": (lambda: nn.Conv3d(2, 3, 2, stride=(1, 2, 1), padding=1), [R(1, 2, 4, 5, 3)], True),
    "Conv3d-replicate": (lambda: nn.Conv3d(2, 2, 3, padding=1, padding_mode="replicate"),
                         [R(1, 2, 3, 4, 3)], True),
    "ConvTranspose1d": (lambda: nn.ConvTranspose1d(2, 3, 3, stride=2, output_padding=1),
                        [R(2, 2, 5)], True),
    "ConvTranspose2d-groups": (lambda: nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, groups=2,
                                                          dilation=2), [R(1, 4, 4, 3)], True),
    "ConvTranspose3d": (lambda: nn.ConvTranspose3d(2, 2, 2, stride=2), [R(1, 2, 2, 3, 2)], True),
    # pooling
    "MaxPool1d-indices": (lambda: nn.MaxPool1d(3, 2, return_indices=True), [R(2, 3, 9)], True),
    "MaxPool2d-ceil": (lambda: nn.MaxPool2d(3, 2, padding=1, ceil_mode=True, return_indices=True),
                       [R(2, 2, 7, 6)], True),
    "MaxPool2d-dilation": (lambda: nn.MaxPool2d(2, 1, dilation=2), [R(1, 2, 6, 6)], True),
    "MaxPool3d": (lambda: nn.MaxPool3d(2, return_indices=True), [R(1, 2, 4, 4, 4)], True),
    "AvgPool1d": (lambda: nn.AvgPool1d(3, 2, padding=1), [R(2, 3, 8)], True),
    "AvgPool2d-nopad-count": (lambda: nn.AvgPool2d(3, 2, padding=1, count_include_pad=False,
                                                   ceil_mode=True), [R(2, 2, 7, 6)], True),
    "AvgPool2d-divisor": (lambda: nn.AvgPool2d(2, divisor_override=3), [R(1, 2, 4, 6)], True),
    "AvgPool3d": (lambda: nn.AvgPool3d(2, 1, padding=1, count_include_pad=True),
                  [R(1, 2, 3, 4, 3)], True),
    "AdaptiveAvgPool1d": (lambda: nn.AdaptiveAvgPool1d(4), [R(2, 3, 10)], True),
    "AdaptiveAvgPool2d": (lambda: nn.AdaptiveAvgPool2d((3, 2)), [R(2, 2, 7, 5)], True),
    "AdaptiveMaxPool1d": (lambda: nn.AdaptiveMaxPool1d(3, return_indices=True), [R(2, 2, 8)], True),
    "AdaptiveMaxPool2d": (lambda: nn.AdaptiveMaxPool2d((2, 3)), [R(1, 2, 7, 8)], True),
    "LPPool2d": (lambda: nn.LPPool2d(2, 2), [P(1, 2, 6, 4)], True),
    "LPPool1d": (lambda: nn.LPPool1d(3, 3, 2), [P(2, 2, 9)], True),
    "FractionalMaxPool2d": (with_args(lambda: nn.FractionalMaxPool2d(2, output_size=(4, 3)),
                                      lambda m, x, s: F.fractional_max_pool2d(
                                          x, 2, output_size=(4, 3), _random_samples=s)),
                            [R(2, 2, 8, 7), K(lambda rng: rng.uniform(size=(2, 2, 2)))], True),
    "AdaptiveAvgPool3d": (lambda: nn.AdaptiveAvgPool3d((2, 3, 2)), [R(1, 2, 5, 4, 3)], True),
    "AdaptiveMaxPool3d": (lambda: nn.AdaptiveMaxPool3d(2, return_indices=True),
                          [R(1, 2, 5, 4, 3)], True),
    "MaxUnpool2d": (with_args(lambda: nn.MaxUnpool2d(2),
                              lambda m, x: m(*F.max_pool2d(x, 2, return_indices=True))),
                    [R(1, 2, 4, 6)], True),
    "FractionalMaxPool3d": (fn(lambda x, s: F.fractional_max_pool3d(
        x, 2, output_size=(3, 2, 3), _random_samples=s)),
        [R(1, 2, 6, 5, 6), K(lambda rng: rng.uniform(size=(1, 2, 3)))], True),
    # normalization
    "BatchNorm1d-train": (lambda: nn.BatchNorm1d(3), [R(5, 3, 4)], True),
    "BatchNorm1d-eval": (lambda: nn.BatchNorm1d(3), [R(5, 3)], False),
    "BatchNorm2d-train": (lambda: nn.BatchNorm2d(3, momentum=None), [R(2, 3, 4, 3)], True),
    "BatchNorm3d-train": (lambda: nn.BatchNorm3d(2, affine=False), [R(2, 2, 3, 2, 3)], True),
    "BatchNorm2d-eval": (lambda: nn.BatchNorm2d(3), [R(2, 3, 4, 3)], False),
    "LayerNorm": (lambda: nn.LayerNorm((3, 4)), [R(2, 3, 4)], True),
    "LayerNorm-nobias": (lambda: nn.LayerNorm(4, bias=False), [R(5, 4)], True),
    "GroupNorm": (lambda: nn.GroupNorm(2, 4), [R(2, 4, 3, 3)], True),
    "RMSNorm": (lambda: nn.RMSNorm(4), [R(3, 2, 4)], True),
    "InstanceNorm1d-affine": (lambda: nn.InstanceNorm1d(3, affine=True), [R(2, 3, 6)], True),
    "InstanceNorm2d-tracked": (lambda: nn.InstanceNorm2d(2, track_running_stats=True),
                               [R(2, 2, 4, 5)], True),
    "LocalResponseNorm": (lambda: nn.LocalResponseNorm(3), [R(2, 5, 3, 3)], True),
    "InstanceNorm2d-tracked-eval": (lambda: nn.InstanceNorm2d(2, affine=True,
                                                              track_running_stats=True),
                                    [R(2, 2, 4, 5)], False),
    "GroupNorm-noaffine": (lambda: nn.GroupNorm(3, 6, affine=False), [R(2, 6, 5)], True),
    # dropout (eval: identity)
    "Dropout-eval": (lambda: nn.Dropout(0.4), [R(4, 5)], False),
    "Dropout2d-eval": (lambda: nn.Dropout2d(0.4), [R(2, 3, 4, 4)], False),
    "AlphaDropout-eval": (lambda: nn.AlphaDropout(0.4), [R(4, 5)], False),
    # sparse
    "Embedding-padding": (lambda: nn.Embedding(10, 3, padding_idx=2), [I(10, 4, 5)], True),
    "Embedding-max_norm": (lambda: nn.Embedding(10, 3, max_norm=1.0), [I(10, 6)], True),
    "EmbeddingBag-sum": (lambda: nn.EmbeddingBag(10, 3, mode="sum"), [I(10, 4, 3)], True),
    "EmbeddingBag-mean-offsets": (lambda: nn.EmbeddingBag(10, 3, mode="mean"),
                                  [I(10, 7), K(np.array([0, 2, 2, 5]))], True),
    "EmbeddingBag-padding-last-offset": (
        lambda: nn.EmbeddingBag(10, 3, mode="mean", padding_idx=0, include_last_offset=True),
        [K(np.array([0, 3, 4, 0, 7, 9])), K(np.array([0, 2, 5, 6]))], True),
    "EmbeddingBag-max": (lambda: nn.EmbeddingBag(10, 3, mode="max"), [I(10, 3, 4)], True),
    "EmbeddingBag-weights": (lambda: nn.EmbeddingBag(10, 3, mode="sum"),
                             [I(10, 2, 4), K(None), R(2, 4)], True),
    # recurrent
    "RNN-relu-batch_first": (lambda: nn.RNN(3, 4, nonlinearity="relu", batch_first=True),
                             [R(2, 5, 3)], True),
    "LSTM-2-bidirectional": (lambda: nn.LSTM(3, 4, num_layers=2, bidirectional=True),
                             [R(5, 2, 3)], True),
    "LSTM-proj-batch_first": (lambda: nn.LSTM(3, 4, proj_size=2, batch_first=True),
                              [R(2, 5, 3)], True),
    "GRU-bidirectional-h0": (lambda: nn.GRU(3, 4, bidirectional=True), [R(5, 2, 3), R(2, 2, 4)],
                             True),
    "RNNCell": (lambda: nn.RNNCell(3, 4), [R(2, 3), R(2, 4)], True),
    "LSTMCell": (with_args(lambda: nn.LSTMCell(3, 4), lambda m, x, h, c: m(x, (h, c))),
                 [R(2, 3), R(2, 4), R(2, 4)], True),
    "GRUCell": (lambda: nn.GRUCell(3, 4), [R(2, 3)], True),
    # attention and transformers
    "MultiheadAttention": (lambda: nn.MultiheadAttention(8, 2), [R(4, 2, 8), R(5, 2, 8),
                                                                 R(5, 2, 8)], True),
    "MultiheadAttention-masks": (
        with_args(lambda: nn.MultiheadAttention(8, 2, batch_first=True, kdim=6, vdim=5),
                  lambda m, q, k, v, am, kpm: m(q, k, v, attn_mask=am, key_padding_mask=kpm)),
        [R(2, 4, 8), R(2, 4, 6), R(2, 4, 5), K(CAUSAL),
         K(np.array([[False, False, False, True], [False, False, False, False]]))], True),
    "TransformerEncoderLayer": (
        lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0),
        [R(5, 2, 8)], False),
    "TransformerEncoderLayer-norm_first-gelu": (
        lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu",
                                           norm_first=True, batch_first=True), [R(2, 5, 8)], False),
    "TransformerEncoder": (
        with_args(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0),
                                                2, enable_nested_tensor=False),
                  lambda m, x, kpm: m(x, src_key_padding_mask=kpm)),
        [R(4, 2, 8), K(np.array([[False, False, True, True], [False] * 4]))], False),
    "MultiheadAttention-per-head-weights": (
        with_args(lambda: nn.MultiheadAttention(6, 3, bias=False, add_bias_kv=True),
                  lambda m, q, k, v: m(q, k, v, average_attn_weights=False)),
        [R(3, 2, 6), R(4, 2, 6), R(4, 2, 6)], True),
    "TransformerDecoderLayer": (
        with_args(lambda: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
                  lambda m, t, mem, tm: m(t, mem, tgt_mask=tm)),
        [R(4, 2, 8), R(5, 2, 8), K(np.where(CAUSAL, -np.inf, 0.0))], False),
    "Transformer": (
        with_args(lambda: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0),
                  lambda m, s, t, tm: m(s, t, tgt_mask=tm, tgt_is_causal=True)),
        [R(5, 2, 8), R(4, 2, 8), K(np.where(CAUSAL, -np.inf, 0.0))], False),
    # shapes, resampling, padding
    "Flatten": (lambda: nn.Flatten(), [R(2, 3, 4)], True),
    "Unflatten": (lambda: nn.Unflatten(1, (2, 3)), [R(4, 6)], True),
    "Upsample-nearest": (lambda: nn.Upsample(scale_factor=2), [R(1, 2, 3, 4)], True),
    "Upsample-bilinear": (lambda: nn.Upsample(size=(5, 7), mode="bilinear"), [R(1, 2, 3, 4)], True),
    "Upsample-bilinear-corners": (lambda: nn.Upsample(scale_factor=1.5, mode="bilinear",
                                                      align_corners=True), [R(1, 2, 4, 4)], True),
    "Upsample-bicubic": (lambda: nn.Upsample(size=(6, 5), mode="bicubic"), [R(1, 1, 3, 4)], True),
    "Upsample-linear": (lambda: nn.Upsample(scale_factor=2, mode="linear"), [R(2, 2, 5)], True),
    "Upsample-trilinear": (lambda: nn.Upsample(scale_factor=2, mode="trilinear"),
                           [R(1, 1, 2, 3, 2)], True),
    "PixelShuffle": (lambda: nn.PixelShuffle(2), [R(1, 8, 2, 3)], True),
    "PixelUnshuffle": (lambda: nn.PixelUnshuffle(2), [R(1, 2, 4, 6)], True),
    "ChannelShuffle": (lambda: nn.ChannelShuffle(2), [R(1, 6, 2, 2)], True),
    "ZeroPad2d": (lambda: nn.ZeroPad2d((1, 2, 0, 1)), [R(1, 2, 3, 3)], True),
    "ReflectionPad2d": (lambda: nn.ReflectionPad2d((2, 1, 1, 2)), [R(1, 2, 4, 4)], True),
    "ReplicationPad2d": (lambda: nn.ReplicationPad2d(2), [R(1, 2, 3, 4)], True),
    "CircularPad2d": (lambda: nn.CircularPad2d((1, 2, 2, 1)), [R(1, 2, 3, 4)], True),
    "ReflectionPad1d": (lambda: nn.ReflectionPad1d(2), [R(2, 3, 5)], True),
    "ReplicationPad3d": (lambda: nn.ReplicationPad3d(1), [R(1, 1, 2, 3, 2)], True),
    "Unfold": (lambda: nn.Unfold(2, dilation=1, padding=1, stride=2), [R(2, 3, 5, 4)], True),
    "Fold": (lambda: nn.Fold((4, 5), 2, stride=1), [R(2, 8, 12)], True),
    # activations
    **{name: (make, [R(3, 4, 5)], True) for name, make in {
        "ReLU": nn.ReLU, "ReLU6": nn.ReLU6, "ELU": lambda: nn.ELU(0.7), "SELU": nn.SELU,
        "CELU": lambda: nn.CELU(1.3), "GELU": nn.GELU, "GELU-tanh": lambda: nn.GELU("tanh"),
        "SiLU": nn.SiLU, "Mish": nn.Mish, "Sigmoid": nn.Sigmoid, "Tanh": nn.Tanh,
        "LogSigmoid": nn.LogSigmoid, "Hardtanh": lambda: nn.Hardtanh(-0.5, 0.7),
        "Hardsigmoid": nn.Hardsigmoid, "Hardswish": nn.Hardswish,
        "Hardshrink": lambda: nn.Hardshrink(0.3), "Softshrink": lambda: nn.Softshrink(0.3),
        "Tanhshrink": nn.Tanhshrink, "Softsign": nn.Softsign,
        "Softplus": lambda: nn.Softplus(2.0, threshold=1.0), "LeakyReLU": lambda: nn.LeakyReLU(0.1),
        "Threshold": lambda: nn.Threshold(0.1, -2.0),
        "Softmax": lambda: nn.Softmax(1), "Softmin": lambda: nn.Softmin(-1),
        "LogSoftmax": lambda: nn.LogSoftmax(0), "Softmax2d": nn.Softmax2d,
        "PReLU": lambda: nn.PReLU(4), "GLU-dim1": lambda: nn.GLU(1)}.items()},
    "RReLU-eval": (lambda: nn.RReLU(0.1, 0.3), [R(3, 4)], False),
    "PReLU-shared": (lambda: nn.PReLU(), [R(2, 3, 4)], True),
    # losses
    "MSELoss": (lambda: nn.MSELoss(), [R(3, 4), R(3, 4)], True),
    "L1Loss-sum": (lambda: nn.L1Loss(reduction="sum"), [R(3, 4), R(3, 4)], True),
    "SmoothL1Loss": (lambda: nn.SmoothL1Loss(beta=0.5, reduction="none"), [R(3, 4), R(3, 4)],
                     True),
    "HuberLoss": (lambda: nn.HuberLoss(delta=0.7), [R(3, 4), R(3, 4)], True),
    "CrossEntropyLoss-weight-ignore": (
        lambda: nn.CrossEntropyLoss(weight=ember.tensor([0.2, 1.0, 2.0, 0.5], dtype=ember.float64),
                                    ignore_index=1), [R(6, 4), I(4, 6)], True),
    "CrossEntropyLoss-smoothing-2d": (lambda: nn.CrossEntropyLoss(label_smoothing=0.1),
                                      [R(2, 4, 3, 2), I(4, 2, 3, 2)], True),
    "CrossEntropyLoss-probs": (lambda: nn.CrossEntropyLoss(label_smoothing=0.2),
                               [R(5, 3), K(lambda rng: rng.dirichlet(np.ones(3), 5))], True),
    "NLLLoss": (with_args(lambda: nn.NLLLoss(reduction="sum"),
                          lambda m, x, t: m(x.log_softmax(1), t)), [R(5, 3), I(3, 5)], True),
    "BCELoss": (lambda: nn.BCELoss(weight=ember.tensor([1.0, 0.5, 2.0], dtype=ember.float64)),
                [P(4, 3, low=0.05, high=0.95), K(lambda rng: rng.uniform(size=(4, 3)))], True),
    "BCEWithLogitsLoss-pos_weight": (
        lambda: nn.BCEWithLogitsLoss(pos_weight=ember.tensor([1.0, 3.0, 0.5], dtype=ember.float64)),
        [R(4, 3), K(lambda rng: (rng.uniform(size=(4, 3)) < 0.5) * 1.0)], True),
    "KLDivLoss": (with_args(lambda: nn.KLDivLoss(reduction="batchmean"),
                            lambda m, x, t: m(x.log_softmax(1), t)),
                  [R(4, 5), K(lambda rng: rng.dirichlet(np.ones(5), 4))], True),
    "KLDivLoss-log_target": (lambda: nn.KLDivLoss(reduction="sum", log_target=True),
                             [R(4, 5), R(4, 5)], True),
    "CosineEmbeddingLoss": (lambda: nn.CosineEmbeddingLoss(margin=0.2),
                            [R(4, 5), R(4, 5), K(np.array([1, -1, 1, -1]))], True),
    "MarginRankingLoss": (lambda: nn.MarginRankingLoss(0.3),
                          [R(6), R(6), K(np.array([1., -1, 1, 1, -1, -1]))], True),
    "TripletMarginLoss": (lambda: nn.TripletMarginLoss(margin=1.5, p=2, swap=True),
                          [R(4, 5), R(4, 5), R(4, 5)], True),
    "HingeEmbeddingLoss": (lambda: nn.HingeEmbeddingLoss(margin=1.2),
                           [R(3, 4), K(lambda rng: rng.choice([-1.0, 1.0], (3, 4)))], True),
    "MultiLabelMarginLoss": (lambda: nn.MultiLabelMarginLoss(),
                             [R(2, 4), K(np.array([[3, 0, -1, 1], [1, 2, 3, -1]]))], True),
    "MultiLabelSoftMarginLoss": (lambda: nn.MultiLabelSoftMarginLoss(),
                                 [R(3, 4), K(lambda rng: (rng.uniform(size=(3, 4)) < 0.5) * 1.0)],
                                 True),
    "MultiMarginLoss": (lambda: nn.MultiMarginLoss(p=2, margin=0.8,
                                                   weight=ember.tensor([1., 2, .5],
                                                                       dtype=ember.float64)),
                        [R(5, 3), I(3, 5)], True),
    "SoftMarginLoss": (lambda: nn.SoftMarginLoss(),
                       [R(3, 4), K(lambda rng: rng.choice([-1.0, 1.0], (3, 4)))], True),
    "PoissonNLLLoss": (lambda: nn.PoissonNLLLoss(),
                       [R(3, 4), K(lambda rng: rng.poisson(2, (3, 4)) * 1.)], True),
    "PoissonNLLLoss-full": (lambda: nn.PoissonNLLLoss(log_input=False, full=True),
                            [P(3, 4), K(lambda rng: rng.poisson(2, (3, 4)) * 1.)], True),
    "GaussianNLLLoss": (lambda: nn.GaussianNLLLoss(full=True), [R(4, 3), R(4, 3), P(4, 3)], True),
    "CTCLoss": (fn(_log_probs), [R(8, 2, 5), K(np.array([[1, 2, 2], [3, 4, 0]])),
                                 K(np.array([8, 6])), K(np.array([3, 2]))], True),
    "CosineSimilarity": (lambda: nn.CosineSimilarity(dim=1), [R(3, 5), R(3, 5)], True),
    "PairwiseDistance": (lambda: nn.PairwiseDistance(p=3, keepdim=True), [R(3, 5), R(3, 5)], True),
    "CTCLoss-1d-targets-none": (
        fn(lambda lp, t, il, tl: nn.CTCLoss(blank=4, reduction="none", zero_infinity=True)(
            lp.log_softmax(2), t, il, tl)),
        [R(6, 3, 5), K(np.array([0, 1, 1, 2, 3, 0, 0, 1, 2, 3])), K(np.array([6, 5, 2])),
         K(np.array([3, 3, 4]))], True),
    "NLLLoss-2d-ignore": (with_args(lambda: nn.NLLLoss(ignore_index=0, reduction="mean"),
                                    lambda m, x, t: m(x.log_softmax(1), t)),
                          [R(2, 3, 4, 2), I(3, 2, 4, 2)], True),
    "CrossEntropyLoss-probs-weight": (
        lambda: nn.CrossEntropyLoss(weight=ember.tensor([0.5, 1.0, 2.0], dtype=ember.float64),
                                    reduction="sum"),
        [R(5, 3), K(lambda rng: rng.dirichlet(np.ones(3), 5))], True),
    # functional
    "F.grid_sample-bilinear": (fn(lambda x, g: F.grid_sample(x, g, align_corners=False)),
                               [R(1, 2, 4, 5), K(lambda rng: rng.uniform(-1.1, 1.1, (1, 3, 3, 2)))],
                               True),
    "F.grid_sample-nearest-border": (
        fn(lambda x, g: F.grid_sample(x, g, mode="nearest", padding_mode="border",
                                      align_corners=True)),
        [R(1, 2, 4, 5), K(lambda rng: rng.uniform(-1.1, 1.1, (1, 3, 3, 2)))], True),
    "F.grid_sample-grad-grid": (fn(lambda x, g: F.grid_sample(x, g, padding_mode="reflection",
                                                              align_corners=False)),
                                [R(2, 1, 3, 4), R(2, 2, 3, 2)], True),
    "F.affine_grid": (fn(lambda t: F.affine_grid(t, [2, 1, 3, 4], align_corners=False)),
                      [R(2, 2, 3)], True),
    "F.interpolate-area": (fn(lambda x: F.interpolate(x, size=(2, 3), mode="area")),
                           [R(1, 2, 5, 7)], True),
    "F.interpolate-nearest-exact": (fn(lambda x: F.interpolate(x, scale_factor=1.7,
                                                               mode="nearest-exact")),
                                    [R(1, 2, 3, 4)], True),
    "F.pad-reflect": (fn(lambda x: F.pad(x, (1, 2), mode="reflect")), [R(2, 3, 5)], True),
    "F.pad-constant": (fn(lambda x: F.pad(x, (1, 0, 2, 1), value=0.5)), [R(2, 3, 4)], True),
    "F.pad-replicate": (fn(lambda x: F.pad(x, (1, 1, 2, 0), mode="replicate")),
                        [R(1, 2, 3, 4)], True),
    "F.one_hot": (fn(lambda t: F.one_hot(t, 5)), [I(5, 3, 4)], True),
    "F.normalize": (fn(lambda x: F.normalize(x, p=3.0, dim=1)), [R(3, 4)], True),
    "F.sdpa-causal": (fn(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True)),
                      [R(2, 2, 4, 3), R(2, 2, 4, 3), R(2, 2, 4, 3)], True),
    "F.sdpa-mask": (fn(lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m)),
                    [R(2, 4, 3), R(2, 5, 3), R(2, 5, 2),
                     K(lambda rng: rng.standard_normal((4, 5)))], True),
    "F.sdpa-bool-mask": (fn(lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m,
                                                                             scale=0.3)),
                         [R(2, 4, 3), R(2, 4, 3), R(2, 4, 3), K(~CAUSAL.T)], True),
    "F.pdist": (fn(lambda x: F.pdist(x, p=1.5)), [R(5, 3)], True),
    "F.rms_norm": (fn(lambda x, w: F.rms_norm(x, (4,), w, eps=1e-5)), [R(3, 4), R(4)], True),
    "F.batch_norm-stats": (fn(lambda x, m, v, w, b: F.batch_norm(x, m, v, w, b, training=True,
                                                                 momentum=0.3)),
                           [R(4, 3), K(np.zeros(3)), K(np.ones(3)), R(3), R(3)], True),
    "F.local_response_norm-3d": (fn(lambda x: F.local_response_norm(x, 2, k=2.0)),
                                 [R(1, 4, 2, 3, 2)], True),
    "F.triplet_margin_with_distance_loss": (
        fn(lambda a, p, n: F.triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda x, y: 1 - F.cosine_similarity(x, y), swap=True)),
        [R(4, 5), R(4, 5), R(4, 5)], True),
    "F.cosine_embedding_loss-1d": (fn(lambda a, b, y: F.cosine_embedding_loss(a, b, y)),
                                   [R(5), R(5), K(np.array(-1))], True),
    "F.embedding-max_norm": (fn(lambda i, w: F.embedding(i, w, max_norm=0.5, norm_type=1.0)),
                             [I(6, 3, 2), R(6, 4)], True),
    "F.elu-inplace": (fn(lambda x: F.elu_(x * 1.0)), [R(3, 4)], True),
    "F.hardtanh-inplace": (fn(lambda x: F.hardtanh(x * 1.0, -0.3, 0.4, inplace=True)), [R(3, 4)],
                           True),
    "F.interpolate-antialias": (fn(lambda x: F.interpolate(x, size=(3, 2), mode="bilinear",
                                                           antialias=True)),
                                [R(1, 2, 7, 5)], True),
    "F.interpolate-bicubic-corners": (fn(lambda x: F.interpolate(x, scale_factor=2.5,
                                                                 mode="bicubic",
                                                                 align_corners=True)),
                                      [R(1, 1, 3, 3)], True),
    "F.grid_sample-3d": (fn(lambda x, g: F.grid_sample(x, g, align_corners=True)),
                         [R(1, 2, 3, 4, 3), R(1, 2, 2, 3, 3)], True),
    "F.affine_grid-3d": (fn(lambda t: F.affine_grid(t, [1, 1, 2, 3, 4], align_corners=True)),
                         [R(1, 3, 4)], True),
    "F.gaussian_nll-scalar-var": (fn(lambda x, t, v: F.gaussian_nll_loss(x, t, v)),
                                  [R(4, 3), R(4, 3), P(4, 1)], True),
    "F.multilabel_margin-1d": (fn(lambda x, t: F.multilabel_margin_loss(x, t)),
                               [R(4), K(np.array([2, 0, -1, 3]))], True),
    "CrossMapLRN2d": (lambda: nn.CrossMapLRN2d(3, alpha=1e-2), [R(2, 5, 3, 3)], True),
    "LPPool3d": (lambda: nn.LPPool3d(3, 2), [P(1, 2, 4, 4, 2)], True),
    "AdaptiveLogSoftmaxWithLoss": (
        with_args(lambda: nn.AdaptiveLogSoftmaxWithLoss(6, 10, [4, 7], div_value=2.0),
                  lambda m, x, t: tuple(m(x, t)) + (m.log_prob(x), m.predict(x))),
        [R(5, 6), K(np.array([0, 5, 8, 3, 9]))], True),
    "pack_padded-LSTM": (
        with_args(lambda: nn.LSTM(3, 4, bidirectional=True),
                  lambda m, x, n: nn.utils.rnn.pad_packed_sequence(
                      m(nn.utils.rnn.pack_padded_sequence(x, n, enforce_sorted=False))[0])[0]),
        [R(5, 3, 3), K(np.array([3, 5, 2]))], True),
    "pack_sequence-GRU-h0": (
        with_args(lambda: nn.GRU(2, 3, num_layers=2),
                  lambda m, a, b, c, h: nn.utils.rnn.unpack_sequence(
                      m(nn.utils.rnn.pack_sequence([a, b, c], enforce_sorted=False), h)[0])),
        [R(2, 2), R(4, 2), R(3, 2), R(2, 3, 3)], True),
    "pad_sequence": (fn(lambda a, b: nn.utils.rnn.pad_sequence([a, b], padding_value=-1.0)),
                     [R(4, 2), R(2, 2)], True),
    "weight_norm": (lambda: nn.utils.weight_norm(nn.Linear(4, 3)), [R(2, 4)], True),
    "spectral_norm": (lambda: nn.utils.spectral_norm(nn.Conv2d(2, 3, 2), n_power_iterations=2),
                      [R(1, 2, 4, 4)], True),
    "parametrizations.weight_norm": (
        lambda: nn.utils.parametrizations.weight_norm(nn.Linear(4, 3), dim=1), [R(2, 4)], True),
    "parametrizations.spectral_norm": (
        lambda: nn.utils.parametrizations.spectral_norm(nn.Linear(4, 3)), [R(2, 4)], True),
    "parametrizations.orthogonal": (
        lambda: nn.utils.parametrizations.orthogonal(nn.Linear(4, 3)), [R(2, 4)], True),
    "parametrizations.orthogonal-householder": (
        lambda: nn.utils.parametrizations.orthogonal(nn.Linear(3, 4),
                                                     orthogonal_map="householder"),
        [R(2, 3)], True),
    "ConvTranspose2d-output_size": (
        with_args(lambda: nn.ConvTranspose2d(2, 3, 3, stride=2), lambda m, x: m(x, (8, 10))),
        [R(1, 2, 3, 4)], True),
    "fuse_conv_bn_eval": (lambda: nn.utils.fusion.fuse_conv_bn_eval(
        nn.Conv2d(2, 3, 2).eval(), nn.BatchNorm2d(3).eval()), [R(1, 2, 4, 4)], True),
    "prune.l1_unstructured": (lambda: prune.l1_unstructured(nn.Linear(4, 3), "weight",
                                                                     amount=0.4), [R(2, 4)], True),
    "prune.ln_structured": (lambda: prune.ln_structured(nn.Conv1d(2, 4, 2), "weight",
                                                                 amount=0.5, n=2, dim=0),
                            [R(2, 2, 5)], True),
    "F.multi_head_attention_forward": (
        fn(lambda q, w, b, ow, ob: F.multi_head_attention_forward(
            q, q, q, 4, 2, w, b, None, None, False, 0.0, ow, ob, training=False,
            need_weights=True, is_causal=False)),
        [R(3, 2, 4), R(12, 4), R(12), R(4, 4), R(4)], True),
    "MultiheadAttention-no-weights-causal": (
        with_args(lambda: nn.MultiheadAttention(8, 4, batch_first=True),
                  lambda m, x, am: m(x, x, x, attn_mask=am, need_weights=False, is_causal=True)),
        [R(2, 4, 8), K(CAUSAL)], False),
    "F.cross_entropy-3d-none": (fn(lambda x, t: F.cross_entropy(x, t, ignore_index=2,
                                                                reduction="none")),
                                [R(2, 3, 2, 2, 2), I(3, 2, 2, 2, 2)], True),
    "F.bce_with_logits-none-weight": (
        fn(lambda x, t, w: F.binary_cross_entropy_with_logits(x, t, w, reduction="none")),
        [R(3, 4), K(lambda rng: rng.uniform(size=(3, 4))), K(lambda rng: rng.uniform(size=4))],
        True),
    "F.ctc_loss-lists": (fn(lambda lp, t: F.ctc_loss(lp.log_softmax(2), t, [5, 4], [2, 2],
                                                      reduction="sum")),
                         [R(5, 2, 4), K(np.array([[1, 2], [3, 3]]))], True),
    "F.max_unpool1d": (fn(lambda x: F.max_unpool1d(*F.max_pool1d(x, 2, return_indices=True), 2,
                                                   output_size=[9])), [R(2, 2, 9)], True),
    "F.max_unpool3d": (fn(lambda x: F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True), 2)),
                       [R(1, 1, 4, 4, 2)], True),
    "F.adaptive_max_pool2d-indices": (fn(lambda x: F.adaptive_max_pool2d(x, (None, 2),
                                                                         return_indices=True)),
                                      [R(1, 2, 3, 5)], True),
    "F.interpolate-nearest-3d": (fn(lambda x: F.interpolate(x, size=(3, 4, 2))),
                                 [R(1, 1, 2, 3, 3)], True),
    "F.softmax-dtype": (fn(lambda x: F.log_softmax(x, 1, dtype=ember.float64)), [R(3, 4)], True),
    "F.embedding_bag-max-padding": (
        fn(lambda i, o, w: F.embedding_bag(i, w, o, mode="max", padding_idx=1)),
        [K(np.array([1, 3, 4, 1, 2, 5])), K(np.array([0, 3, 4])), R(6, 3)], True),
    "F.huber_loss-none": (fn(lambda x, t: F.huber_loss(x, t, reduction="none", delta=0.3)),
                          [R(3, 4), R(3, 4)], True),
    "F.l1_loss-broadcast": (fn(lambda x, t: F.smooth_l1_loss(x, t, beta=0.0)), [R(3, 4), R(3, 4)],
                            True),
    "functional_call": (fn(lambda x, w, b: ember.func.functional_call(
        nn.Linear(4, 2).double().to(x.device), {"weight": w, "bias": b}, (x,))),
        [R(3, 4), R(2, 4), R(2)], True),
    "F.grid_sample-bicubic-zeros": (fn(lambda x, g: F.grid_sample(x, g, mode="bicubic")),
                                    [R(1, 2, 4, 5), R(1, 3, 2, 2)], True),
    "F.pad-circular-3d": (fn(lambda x: F.pad(x, (1, 1, 0, 2, 1, 0), mode="circular")),
                          [R(1, 1, 2, 3, 3)], True),
    "F.pad-reflect-3d": (fn(lambda x: F.pad(x, (1, 1, 1, 0, 0, 1), mode="reflect")),
                         [R(1, 1, 2, 3, 3)], True),
    "Upsample-nearest-1d": (lambda: nn.Upsample(size=7), [R(2, 2, 3)], True),
    "F.interpolate-recompute": (fn(lambda x: F.interpolate(x, scale_factor=(1.3, 0.6),
                                                           mode="bilinear",
                                                           recompute_scale_factor=True)),
                                [R(1, 1, 4, 5)], True),
    "Softmax2d-3d": (lambda: nn.Softmax2d(), [R(3, 2, 2)], True),
    "F.pixel_unshuffle": (fn(lambda x: F.pixel_unshuffle(x, 3)), [R(2, 1, 3, 6)], True),
    "generate_square_subsequent_mask": (
        with_args(lambda: nn.Transformer(4, 1, 1, 1, 8, dropout=0.0, batch_first=True),
                  lambda m, s, t: m(s, t, tgt_mask=m.generate_square_subsequent_mask(
                      3, device=s.device, dtype=s.dtype))),
        [R(1, 2, 4), R(1, 3, 4)], False),
    "F.unfold": (fn(lambda x: F.unfold(x, (2, 3), padding=(1, 0), stride=(1, 2))), [R(1, 2, 4, 5)],
                 True),
    "F.fold": (fn(lambda x: F.fold(x, (3, 4), 2)), [R(1, 8, 6)], True),
}

XFAIL = {}          # case id: why it is a strict xfail (none known today)


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flat(o)]
    return [out] if isinstance(out, ember.Tensor) else []


def _run(module, inputs, train, device):
    """Outputs, gradients (inputs then parameters) and buffers of `module` on `device`."""
    module = module.to(device).train(train)
    xs = []
    for value, grad in inputs:
        if value.shape == () and value.dtype == object:       # K(None): an omitted argument
            xs.append(None)
            continue
        x = ember.tensor(value).to(device)
        xs.append(x.requires_grad_() if grad else x)
    outs = _flat(module(*xs))
    for t in outs:
        assert t.device.type == device, f"output on {t.device}"
    diff = [o for o in outs if o.requires_grad]
    rng = np.random.default_rng(1)
    grads_out = [ember.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype).to(device)
                 for o in diff]
    wrt = [x for x in xs if x is not None and x.requires_grad]
    wrt += [p for p in module.parameters() if p.requires_grad]
    grads = ember.autograd.grad(diff, wrt, grads_out, allow_unused=True) if diff and wrt else []
    for g in grads:
        assert g is None or g.device.type == device, f"gradient on {g.device}"
    buffers = [b for b in module.buffers() if b is not None]
    for b in buffers:
        assert b.device.type == device, f"buffer on {b.device}"
    host = lambda t: None if t is None else t.detach().cpu().numpy()
    return ([host(o) for o in outs], [host(g) for g in grads], [host(b) for b in buffers],
            len(diff))


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=XFAIL[n])) if n in XFAIL else n
    for n in CASES])
def test_module_agrees_with_cpu(gpu, name):
    make, specs, train = CASES[name]
    rng = np.random.default_rng(0)
    inputs = [spec(rng) for spec in specs]
    ember.manual_seed(0)
    module = make().double()
    ember.manual_seed(0)
    on_cuda = make().double()          # the same module (deepcopy refuses weight_norm's)
    want = _run(module, inputs, train, "cpu")
    got = _run(on_cuda, inputs, train, "cuda")
    tol = 1e-9 if gpu.__name__.endswith("fake_cupy") else 1e-7
    assert got[3] == want[3]
    for kind, g_list, w_list in zip(("output", "gradient", "buffer"), got[:3], want[:3]):
        assert len(g_list) == len(w_list), kind
        for i, (g, w) in enumerate(zip(g_list, w_list)):
            assert (g is None) == (w is None), f"{kind} {i}"
            if w is not None:
                assert g.dtype == w.dtype and g.shape == w.shape, f"{kind} {i}"
                np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 1e-2,
                                           err_msg=f"{kind} {i}")
    assert want[0] and (want[1] or not want[3])      # the case ran something


def test_packed_sequence_placement_on_cuda(gpu):
    """torch's rule: the permutations follow the data to 'cuda'; batch_sizes and the lengths
    that pad_packed_sequence returns stay on the CPU."""
    rnn = nn.utils.rnn
    x = ember.randn(5, 3, 2, dtype=ember.float64).cuda()
    packed = rnn.pack_padded_sequence(x, ember.tensor([2, 5, 3]).cuda(), enforce_sorted=False)
    assert packed.data.is_cuda and packed.sorted_indices.is_cuda
    assert packed.unsorted_indices.is_cuda and not packed.batch_sizes.is_cuda
    assert packed.unsorted_indices.cpu().tolist() == [2, 0, 1]
    padded, lengths = rnn.pad_packed_sequence(packed)
    assert padded.is_cuda and not lengths.is_cuda and lengths.tolist() == [2, 5, 3]


def test_clip_grad_and_vectors_on_cuda(gpu):
    results = []
    for device in ("cpu", "cuda"):
        ember.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).double().to(device)
        x = ember.linspace(-2, 2, 15, dtype=ember.float64).reshape(5, 3).to(device)
        (model(x) ** 2).sum().backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=3.0)
        inf_norm = nn.utils.get_total_norm([p.grad for p in model.parameters()], float("inf"))
        nn.utils.clip_grad_value_(model.parameters(), 0.05)
        vec = nn.utils.parameters_to_vector(p.grad for p in model.parameters())
        nn.utils.vector_to_parameters(vec * 2, model.parameters())
        for t in (norm, inf_norm, vec):
            assert t.device.type == device
        results.append([norm.item(), inf_norm.item(), vec.cpu().numpy()]
                       + [p.detach().cpu().numpy() for p in model.parameters()])
    want, got = results
    tol = 1e-9 if gpu.__name__.endswith("fake_cupy") else 1e-7
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 1e-2)


@pytest.mark.parametrize("init", [
    lambda t: nn.init.uniform_(t, -2, 3), lambda t: nn.init.normal_(t, 1, 2),
    lambda t: nn.init.trunc_normal_(t, 0, 1, -0.5, 0.7), lambda t: nn.init.xavier_uniform_(t),
    lambda t: nn.init.xavier_normal_(t), lambda t: nn.init.kaiming_uniform_(t, a=0.1),
    lambda t: nn.init.kaiming_normal_(t, mode="fan_out"), lambda t: nn.init.orthogonal_(t),
    lambda t: nn.init.sparse_(t, 0.5),
], ids=["uniform", "normal", "trunc_normal", "xavier_uniform", "xavier_normal",
        "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse"])
def test_random_init_on_cuda(gpu, init):
    """Random initializers fill a 'cuda' tensor in place, on its device (their numbers come
    from the device's generator, so only their shape of distribution is checked)."""
    ember.manual_seed(0)
    t = ember.empty(40, 30, dtype=ember.float64, device="cuda")
    data = t._data
    assert init(t) is t and t.is_cuda and t._data is data
    values = t.cpu().numpy()
    assert np.isfinite(values).all() and values.std() > 0


def test_deterministic_init_on_cuda(gpu):
    w = ember.empty(3, 2, 3, dtype=ember.float64, device="cuda")
    nn.init.dirac_(w)
    np.testing.assert_array_equal(w.cpu().numpy(), nn.init.dirac_(ember.empty(3, 2, 3,
                                  dtype=ember.float64)).numpy())
    e = nn.init.eye_(ember.empty(3, 4, device="cuda"))
    assert e.is_cuda and e.cpu().tolist() == np.eye(3, 4).tolist()
    c = nn.init.constant_(ember.empty(2, device="cuda"), 0.25)
    assert c.is_cuda and c.cpu().tolist() == [0.25, 0.25]


@pytest.mark.parametrize("make, shape", [
    (lambda: nn.LazyLinear(3), (2, 5)), (lambda: nn.LazyConv2d(4, 3), (1, 2, 5, 5)),
    (lambda: nn.LazyConvTranspose1d(2, 2), (2, 3, 4)), (lambda: nn.LazyBatchNorm2d(), (2, 3, 2, 2)),
    (lambda: nn.LazyInstanceNorm1d(affine=True, track_running_stats=True), (2, 3, 4)),
], ids=["LazyLinear", "LazyConv2d", "LazyConvTranspose1d", "LazyBatchNorm2d",
        "LazyInstanceNorm1d"])
def test_lazy_modules_materialize_on_cuda(gpu, make, shape):
    ember.manual_seed(0)
    module = make().double().cuda()
    x = ember.randn(shape, dtype=ember.float64).cuda().requires_grad_()
    out = module(x)
    assert out.is_cuda
    tensors = list(module.parameters()) + list(module.buffers())
    assert tensors and all(t.is_cuda for t in tensors)
    assert all(t.dtype == ember.float64 for t in tensors if t.is_floating_point())
    grads = ember.autograd.grad([out.sum()], [x] + list(module.parameters()))
    assert all(g.is_cuda for g in grads)


def test_random_activations_on_cuda(gpu):
    ember.manual_seed(0)
    x = -ember.ones(20000, dtype=ember.float64, device="cuda")
    slopes = -nn.RReLU(0.1, 0.3).train()(x).cpu().numpy()
    assert 0.1 <= slopes.min() and slopes.max() <= 0.3 and abs(slopes.mean() - 0.2) < 0.01
    logits = ember.randn(500, 4, dtype=ember.float64).cuda().requires_grad_()
    soft = F.gumbel_softmax(logits, tau=0.5)
    hard = F.gumbel_softmax(logits, hard=True)
    assert soft.is_cuda and hard.is_cuda
    np.testing.assert_allclose(soft.detach().sum(1).cpu().numpy(), 1.0)
    assert (hard.detach().cpu().numpy().max(1) == 1).all() and hard.detach().sum().item() == 500
    (g,) = ember.autograd.grad([(hard * ember.arange(4.).cuda()).sum()], [logits])
    assert g.is_cuda
    y = F.feature_alpha_dropout(ember.zeros(40, 50, 3, dtype=ember.float64, device="cuda"), 0.3,
                                training=True).cpu().numpy()
    assert (y == y[..., :1]).all() and len(np.unique(y.round(12))) == 2


def test_random_pruning_and_recurrent_dropout_on_cuda(gpu):
    ember.manual_seed(0)
    lin = nn.Linear(100, 50).double().cuda()
    prune.random_unstructured(lin, "weight", amount=0.3)
    assert lin.weight_mask.is_cuda and lin.weight.is_cuda
    assert (lin.weight_mask == 0).sum().item() == 1500
    conv = nn.Conv2d(3, 8, 2).double().cuda()
    prune.global_unstructured([(lin, "weight"), (conv, "weight")],
                              pruning_method=prune.L1Unstructured, amount=0.5)
    assert conv.weight_mask.is_cuda and lin.weight_mask.is_cuda
    prune.remove(conv, "weight")
    assert conv.weight.is_cuda and isinstance(conv.weight, nn.Parameter)
    lstm = nn.LSTM(3, 4, num_layers=2, dropout=0.5).double().cuda().train()
    x = ember.randn(6, 2, 3, dtype=ember.float64).cuda().requires_grad_()
    out, (h, c) = lstm(x)
    assert out.is_cuda and h.is_cuda and c.is_cuda
    grads = ember.autograd.grad([out.sum()], [x] + list(lstm.parameters()))
    assert all(g.is_cuda for g in grads)
    mha = nn.MultiheadAttention(8, 2, dropout=0.5).double().cuda().train()
    q = ember.randn(4, 2, 8, dtype=ember.float64).cuda()
    o, w = mha(q, q, q)
    assert o.is_cuda and w.is_cuda


@pytest.mark.parametrize("make, shape, per_channel", [
    (lambda: nn.Dropout(0.3), (200, 50), False),
    (lambda: nn.Dropout1d(0.3), (40, 50, 6), True),
    (lambda: nn.Dropout2d(0.3), (40, 50, 2, 3), True),
    (lambda: nn.Dropout3d(0.3), (40, 50, 1, 2, 3), True),
], ids=["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"])
def test_train_mode_dropout_rate_on_cuda(gpu, make, shape, per_channel):
    ember.manual_seed(0)
    x = ember.ones(shape, dtype=ember.float64, device="cuda").requires_grad_()
    out = make().train()(x)
    assert out.device.type == "cuda"
    kept = out.detach().cpu().numpy()
    assert set(np.unique(kept).round(12)) <= {0.0, round(1 / 0.7, 12)}
    if per_channel:                 # a whole channel is dropped or kept
        flat = kept.reshape(shape[0], shape[1], -1)
        assert (flat == flat[..., :1]).all()
    rate = (kept == 0).mean()
    assert 0.25 < rate < 0.35, rate
    (g,) = ember.autograd.grad([out.sum()], [x])
    assert g.device.type == "cuda"
    np.testing.assert_array_equal(g.cpu().numpy(), kept)


def test_alpha_dropout_train_on_cuda(gpu):
    ember.manual_seed(0)
    x = ember.zeros(10000, dtype=ember.float64, device="cuda")
    out = nn.AlphaDropout(0.2).train()(x).cpu().numpy()
    values = np.unique(out.round(12))
    assert len(values) == 2             # kept zeros map to one value, dropped ones to another
    assert 0.15 < (out == out.min()).mean() < 0.25 or 0.15 < (out == out.max()).mean() < 0.25
