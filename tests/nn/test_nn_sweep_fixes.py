"""Differences from torch that the nn oracle sweep (tests/oracle/test_nn_sweep.py) found and
that are fixed: each checked here against numbers and texts recorded from torch 2.13, so the
default suite keeps them fixed without torch."""
import math

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F


def _raises(exc_type, text, fn):
    with pytest.raises(exc_type) as info:
        fn()
    assert str(info.value) == text


# -- RReLU: torch's random stream and checks ----------------------------------------------------

def test_rrelu_training_draws_one_double_per_non_positive_element():
    # torch.manual_seed(0); F.rrelu(x, training=True) in torch 2.13
    ember.manual_seed(0)
    x = ember.tensor([[-1.0, 2, -3], [math.nan, -0.5, -2]], dtype=ember.float64)
    out = F.rrelu(x, training=True)
    np.testing.assert_array_equal(out.numpy(), [[-0.3270943753763652, 2.0, -0.8173874152498675],
                                                [math.nan, -0.11035238990910946,
                                                 -0.63364486838415]])


def test_rrelu_training_gradient_is_the_drawn_slope():
    ember.manual_seed(1)
    x = ember.tensor([-1.0, 2, -3, 0.0], requires_grad=True)
    y = F.rrelu(x, 0.1, 0.9, training=True)
    y.sum().backward()
    assert type(y.grad_fn).__name__ == "RreluWithNoiseBackward0"
    np.testing.assert_allclose(y.detach().numpy(), [-0.14884261786937714, 2.0,
                                                    -0.8389307856559753, 0.0], rtol=1e-7)
    np.testing.assert_array_equal(x.grad.numpy(), np.float32(
        [0.14884261786937714, 1.0, 0.27964359521865845, 0.2874020040035248]))


def test_rrelu_bfloat16_and_the_stream_after_it():
    ember.manual_seed(2)
    out = F.rrelu(ember.tensor([-1.0, -2]).bfloat16(), training=True)
    assert out.tolist() == [-0.31640625, -0.291015625]
    assert ember.rand(1).item() == pytest.approx(0.7135938405990601, abs=0)


def test_rrelu_errors():
    _raises(RuntimeError, "Lower bound should be less than or equal to the upper bound",
            lambda: nn.RReLU(0.5, 0.1)(ember.ones(3)))
    _raises(RuntimeError, "Lower bound should be less than or equal to the upper bound",
            lambda: nn.RReLU(0.5, 0.1).eval()(ember.ones(3)))
    _raises(NotImplementedError, "\"rrelu_with_noise_out_cpu\" not implemented for 'Half'",
            lambda: F.rrelu(ember.ones(3).half(), training=True))
    assert F.rrelu(-ember.ones(2).half(), 0.1, 0.3).tolist() == [-0.199951171875] * 2


# -- Embedding(max_norm) ------------------------------------------------------------------------

def test_embedding_max_norm_renorms_a_row_once():
    w = ember.tensor([[3.0, 4.0], [0.1, 0.2]], dtype=ember.float64)
    for _ in range(3):
        F.embedding(ember.tensor([0, 1]), w, max_norm=1.0)
    assert w.tolist() == [[0.5999999880000002, 0.7999999840000003], [0.1, 0.2]]


# -- recurrent layers: node names ---------------------------------------------------------------

@pytest.mark.parametrize("name,node", [("RNN", "TransposeBackward1"),
                                       ("GRU", "TransposeBackward1"),
                                       ("LSTM", "TransposeBackward0")])
def test_batch_first_output_node(name, node):
    out, _ = getattr(nn, name)(2, 3, batch_first=True)(ember.ones(1, 2, 2))
    assert type(out.grad_fn).__name__ == node
    x = np.random.default_rng(0).standard_normal((2, 4, 2))
    m = getattr(nn, name)(2, 3, batch_first=True).double()
    ref = getattr(nn, name)(2, 3).double()
    ref.load_state_dict(m.state_dict())
    np.testing.assert_allclose(m(ember.tensor(x))[0].detach().numpy(),
                               ref(ember.tensor(x).transpose(0, 1))[0].transpose(0, 1)
                               .detach().numpy(), rtol=1e-12)


# -- linear and bilinear checks -----------------------------------------------------------------

def test_linear_of_a_0d_operand():
    _raises(RuntimeError, "both arguments to linear need to be at least 1D, but they are 0D "
            "and 2D", lambda: nn.Linear(4, 3)(ember.tensor(1.0)))
    _raises(RuntimeError, "both arguments to linear need to be at least 1D, but they are 1D "
            "and 0D", lambda: F.linear(ember.ones(3), ember.ones(())))


@pytest.mark.parametrize("args,text", [
    (((2, 3), (2, 4), (2, 3, 5)),
     "bilinear(): input2 size does not match weight size: got 4 but expected 5"),
    (((2, 3), (2, 4), (2, 2, 4)),
     "bilinear(): input1 size does not match weight size: got 3 but expected 2"),
    (((2, 3), (2, 4), (2, 3, 4), (3,)),
     "bilinear(): bias size does not match weight size: got 3 but expected 2"),
    (((2, 3), (3, 4), (2, 3, 4)),
     "bilinear(): input batch dimensions do not match at dim 0: got 2 and 3"),
    (((2, 3), (1, 2, 4), (2, 3, 4)), "bilinear(): input dimensions do not match: got 2 and 3"),
])
def test_bilinear_shape_errors(args, text):
    _raises(RuntimeError, text, lambda: F.bilinear(*[ember.ones(*s) for s in args]))


def test_bilinear_dtype_errors_and_accepted_shapes():
    _raises(RuntimeError, "All tensors must have the same dtype, got input1: float, input2: "
            "double, weight: float", lambda: F.bilinear(ember.ones(2, 3), ember.ones(
                2, 4, dtype=ember.float64), ember.ones(2, 3, 4)))
    _raises(RuntimeError, "All tensors must have the same dtype, got input1: long int, input2: "
            "long int, weight: float", lambda: F.bilinear(ember.ones(2, 3, dtype=ember.long),
                                                          ember.ones(2, 4, dtype=ember.long),
                                                          ember.ones(2, 3, 4)))
    # a (2, 1) bias broadcasts, and 1-D inputs give one row: as torch
    assert F.bilinear(ember.ones(2, 3), ember.ones(2, 4), ember.ones(2, 3, 4),
                      ember.ones(2, 1)).shape == (2, 2)
    assert F.bilinear(ember.ones(3), ember.ones(4), ember.ones(2, 3, 4)).tolist() == [12.0] * 2


# -- convolution dtype errors -------------------------------------------------------------------

X, W, B = ember.ones(1, 3, 5, 5), ember.ones(4, 3, 3, 3), ember.ones(4)


@pytest.mark.parametrize("fn,text", [
    (lambda: F.conv2d(X.long(), W, B), "Input type (long int) and bias type (float) should be "
                                       "the same"),
    (lambda: F.conv2d(X.long(), W), "expected scalar type Long but found Float"),
    (lambda: F.conv2d(X.double(), W, B), "Input type (double) and bias type (float) should be "
                                         "the same"),
    # the bias is checked before the input's dims and channels ...
    (lambda: F.conv2d(X[0, 0].double(), W, B), "Input type (double) and bias type (float) "
                                               "should be the same"),
    (lambda: F.conv1d(X[0].double(), W[:, :, 0], B), "Input type (double) and bias type "
                                                     "(float) should be the same"),
    # ... but after the weight with string padding and in transposed convolutions
    (lambda: F.conv2d(X.double(), W, B, padding="same"), "expected scalar type Double but "
                                                         "found Float"),
    (lambda: F.conv2d(X.double(), W, B, padding="valid"), "expected scalar type Double but "
                                                          "found Float"),
    (lambda: F.conv_transpose2d(X.double(), W.transpose(0, 1), B),
     "expected scalar type Double but found Float"),
    (lambda: F.conv2d(X.half(), W, B), "Input type (c10::Half) and bias type (float) should be "
                                       "the same"),
    # float32 with another weight dtype: oneDNN's words only where torch's heuristic uses it
    (lambda: F.conv2d(X, W.double()), "expected scalar type Float but found Double"),
    (lambda: F.conv2d(ember.ones(2, 3, 5, 5), W.double()),
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv2d(ember.ones(1, 3, 9, 9), ember.ones(4, 3, 4, 4).double()),
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv2d(ember.ones(1, 3, 90, 90), W.double()),
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv2d(ember.ones(1, 4, 5, 5), ember.ones(4, 2, 3, 3).double(), groups=2),
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv2d(ember.ones(1, 3, 9, 9), ember.ones(4, 3, 4, 3).double()),
     "expected scalar type Float but found Double"),
])
def test_convolution_dtype_errors(fn, text):
    _raises(RuntimeError, text, fn)


# -- normalisation dtype checks -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [ember.long, ember.uint8, ember.int16, ember.bool,
                                   ember.float64])
def test_layer_and_group_norm_mixed_dtypes_checked_first(dtype):
    x = ember.ones(2, 3).to(dtype)
    text = "mixed dtype (CPU): all inputs must share same datatype."
    _raises(RuntimeError, text, lambda: F.layer_norm(x, (3,), ember.ones(3)))
    _raises(RuntimeError, text, lambda: F.group_norm(x, 1, ember.ones(3)))
    _raises(RuntimeError, text, lambda: nn.LayerNorm(3)(x))


def test_layer_norm_of_integers_with_integer_weight():
    x = ember.ones(2, 3, dtype=ember.long)
    _raises(NotImplementedError, "\"LayerNormKernelImpl\" not implemented for 'Long'",
            lambda: F.layer_norm(x, (3,), ember.ones(3, dtype=ember.long)))
    _raises(NotImplementedError, "\"GroupNormKernelImpl\" not implemented for 'Long'",
            lambda: F.group_norm(x, 1))


def test_instance_norm_of_float64_with_float32_running_statistics():
    # recorded from torch: InstanceNorm1d(3, track_running_stats=True) on a float64 input
    x = np.random.default_rng(0).standard_normal((2, 3, 5))
    m = nn.InstanceNorm1d(3, track_running_stats=True)
    y = m(ember.tensor(x))
    assert y.dtype == ember.float64 and m.running_mean.dtype == ember.float32
    np.testing.assert_allclose(m.running_mean.numpy(), [0.0006459616124629974,
                                                        0.0247123371809721,
                                                        -0.06180424988269806], rtol=1e-6)
    np.testing.assert_allclose(m.running_var.numpy(), [0.9364748597145081, 0.9917472004890442,
                                                       0.9573585987091064], rtol=1e-6)
    m.eval()
    np.testing.assert_allclose(m(ember.tensor(x)).numpy().ravel()[:3],
                               [0.1292564671506074, -0.13717875222346004, 0.6611165538074152],
                               rtol=1e-7)
    _raises(RuntimeError, "mixed dtype (CPU): all inputs must share same datatype.",
            lambda: nn.InstanceNorm1d(3, affine=True)(ember.tensor(x)))


# -- cosine_similarity broadcasts before taking norms --------------------------------------------

def test_cosine_similarity_broadcasts_first():
    a = ember.tensor([[1.0, 2, 3], [0, 1, -1]], dtype=ember.float64)
    b = ember.tensor([2.0, 0, 1], dtype=ember.float64)
    # torch 2.13; ember once took the norm of b over dim 0 before broadcasting (wrong values)
    np.testing.assert_allclose(F.cosine_similarity(a, b, dim=0).numpy(),
                               [0.7071067811865475, 0.0, 0.44721359549995787], rtol=1e-14)
    np.testing.assert_allclose(F.cosine_similarity(a, b).numpy(),
                               [0.5976143046671969, -0.3162277660168379], rtol=1e-14)
    np.testing.assert_allclose(F.cosine_similarity(a[None], a[:1], dim=1).numpy(),
                               [[0.7071067811865475, 0.9486832980505137, 0.4472135954999579]],
                               rtol=1e-14)
    out = F.cosine_similarity(ember.tensor([[1, 2, 3]]), b)      # integers take the common dtype
    assert out.dtype == ember.float64
    np.testing.assert_allclose(out.numpy(), [0.5976143046671969], rtol=1e-14)
    _raises(RuntimeError, "The size of tensor a (4) must match the size of tensor b (3) at "
            "non-singleton dimension 0",
            lambda: F.cosine_similarity(ember.ones(4, 5), ember.ones(3, 5)))


# -- activation kernels' names in dtype errors ---------------------------------------------------

@pytest.mark.parametrize("fn,kernel", [
    (F.leaky_relu, "leaky_relu_cpu"), (F.silu, "silu_cpu"), (F.mish, "mish_cpu"),
    (F.softplus, "softplus_cpu"), (F.hardswish, "hardswish_cpu"),
    (F.hardsigmoid, "hardsigmoid_cpu"), (F.glu, "glu_cpu"), (F.softshrink, "softshrink_check"),
    (F.logsigmoid, "log_sigmoid_cpu"),
    (lambda x: F.softmax(x, 1), "softmax_lastdim_kernel_impl"),
    (lambda x: F.softmax(x, 0), "softmax_kernel_impl"),
    (lambda x: F.log_softmax(x, 0), "log_softmax_kernel_impl"),
    (lambda x: F.softmin(x, -1), "softmax_lastdim_kernel_impl"),
])
def test_activation_integer_errors_name_torch_kernels(fn, kernel):
    x = ember.tensor([[1, -2, 3, 4], [0, 1, 2, -3]])
    _raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Long'", lambda: fn(x))


def test_prelu_checks_in_torch_order():
    x = ember.tensor([[1, -2, 3, 4], [0, 1, 2, -3]])
    _raises(RuntimeError, "prelu: Type promoting not supported. Got Long and Float",
            lambda: F.prelu(x, ember.ones(1)))
    _raises(RuntimeError, "prelu: Type promoting not supported. Got Float and Double",
            lambda: nn.PReLU().double()(ember.ones(2, 3)))
    _raises(RuntimeError, "Mismatch of parameter numbers and input channel size. Found "
            "parameter numbers = 3 and channel size = 4.",
            lambda: F.prelu(x, ember.ones(3, dtype=ember.long)))
    _raises(RuntimeError, "Not allow zero-dim input tensor.",
            lambda: F.prelu(ember.ones(()), ember.ones(3)))
    _raises(NotImplementedError, "\"prelu_cpu\" not implemented for 'Long'",
            lambda: F.prelu(x, ember.ones(1, dtype=ember.long)))
    assert F.prelu(-ember.ones(()), ember.tensor([0.5])).item() == -0.5


# -- normalisation: torch's mixed-dtype rule -----------------------------------------------------

@pytest.mark.parametrize("x,params,text", [
    # parameters of another dtype than the input's must all be float32 ...
    (ember.float32, (ember.float64,), "mixed dtype (CPU): expect parameter to have scalar type "
                                      "of Float"),
    (ember.long, (ember.float64,), "mixed dtype (CPU): expect parameter to have scalar type of "
                                   "Float"),
    (ember.float16, (ember.float32, ember.float16), "mixed dtype (CPU): expect parameter to "
                                                    "have scalar type of Float"),
    # ... and the input half precision
    (ember.float64, (ember.float32,), "mixed dtype (CPU): all inputs must share same datatype."),
    # the first parameter in the input's dtype: the kernel meets the other
    (ember.float16, (ember.float16, ember.float32), "expected scalar type Half but found Float"),
    (ember.float32, (ember.float32, ember.float64), "expected scalar type Float but found "
                                                    "Double"),
])
def test_layer_and_group_norm_mixed_dtype_rule(x, params, text):
    inp = ember.ones(2, 3, 4).to(x)
    w4, w3 = (ember.ones(4).to(params[0]), ember.ones(3).to(params[0]))
    b4, b3 = (None, None) if len(params) == 1 else (ember.ones(4).to(params[1]),
                                                    ember.ones(3).to(params[1]))
    _raises(RuntimeError, text, lambda: F.layer_norm(inp, (4,), w4, b4))
    _raises(RuntimeError, text, lambda: F.group_norm(inp, 1, w3, b3))


def test_batch_norm_mixed_dtype_rule():
    x = ember.ones(2, 3, 4).half()
    _raises(RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of Float",
            lambda: F.batch_norm(x, ember.zeros(3).half(), ember.ones(3).half(), None,
                                 ember.ones(3)))
    _raises(RuntimeError, "expected scalar type Half but found Double",
            lambda: F.batch_norm(x, ember.zeros(3).double(), ember.ones(3).double(), None,
                                 ember.ones(3).half()))
    _raises(RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of Float",
            lambda: nn.BatchNorm1d(3).double()(ember.ones(2, 3)))
    assert F.batch_norm(x, ember.zeros(3), ember.ones(3)).dtype == ember.float16


def test_rms_norm_dims_and_result_dtype():
    _raises(ValueError, "Input tensor must have at least 2 dimensions, but got 1",
            lambda: nn.RMSNorm([4, 5])(ember.ones(5)))
    _raises(ValueError, "Input tensor must have at least 1 dimensions, but got 0",
            lambda: F.rms_norm(ember.ones(()), (5,)))
    x = ember.tensor([[1.0, 2, 3], [0, 1, -1]], requires_grad=True)
    with pytest.warns(UserWarning, match="Mismatch dtype between input and weight: input dtype "
                                         "= float, weight dtype = double"):
        out = nn.RMSNorm(3).double()(x)
    assert out.dtype == ember.float32                 # torch: type_as(input)
    assert type(out.grad_fn).__name__ == "ToCopyBackward0"
    assert nn.RMSNorm(3)(x.double()).dtype == ember.float64


# -- embedding_bag's per_sample_weights ----------------------------------------------------------

def test_embedding_bag_per_sample_weights_checks():
    w, i = ember.ones(10, 3), ember.tensor([[1, 2, 3], [4, 5, 6]])
    _raises(ValueError, "embedding_bag: If per_sample_weights (torch.Size([3])) is not None, "
            "then it must have the same shape as the input (torch.Size([2, 3]))",
            lambda: F.embedding_bag(i, w, mode="mean", per_sample_weights=ember.ones(3)))
    _raises(RuntimeError, "Expected tensor for argument #1 'weight' to have the same type as "
            "tensor for argument #1 'per_sample_weights'; but type torch.FloatTensor does not "
            "equal torch.LongTensor (while checking arguments for embedding_bag)",
            lambda: F.embedding_bag(i.view(-1), w, ember.tensor([0, 3]), mode="sum",
                                    per_sample_weights=ember.ones(6).long()))
    out = F.embedding_bag(i, w, mode="sum", per_sample_weights=ember.ones(2, 3) * 2)
    assert out.tolist() == [[6.0] * 3] * 2


# -- dropout: dims ---------------------------------------------------------------------------

def test_dropout2d_and_3d_warn_on_other_dims_like_torch():
    x = ember.ones(2, 3, 5, 2, 2)
    with pytest.warns(UserWarning, match="dropout2d: Received a 5-D input to dropout2d, which "
                                         "is deprecated"):
        assert F.dropout2d(x, 0.5, False) is x
    with pytest.warns(UserWarning, match="dropout3d: Received a 6-D input to dropout3d"):
        F.dropout3d(x[None], 0.5, False)
    # torch's unbatched dropout1d/3d go through unsqueeze/squeeze even in eval mode
    y = ember.ones(3, 4, requires_grad=True)
    assert type(F.dropout1d(y, 0.5, False).grad_fn).__name__ == "SqueezeBackward1"


def test_feature_dropout_checks_dims_only_when_it_draws():
    x = ember.ones(3)
    assert F.feature_alpha_dropout(x, 0.5, False) is x
    _raises(RuntimeError, "Feature dropout requires at least 2 dimensions in the input",
            lambda: F.feature_alpha_dropout(x, 0.5, True))
    _raises(RuntimeError, "Feature dropout requires at least 2 dimensions in the input",
            lambda: F.dropout2d(ember.ones(()), 0.5, True))


# -- recurrent cells without biases: matmul's words ------------------------------------------

@pytest.mark.parametrize("cell", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cells_without_bias_word_dtype_errors_as_matmul(cell):
    m = getattr(nn, cell)(3, 4, bias=False).double()
    _raises(RuntimeError, "expected m1 and m2 to have the same dtype, but got: long int != "
            "double", lambda: m(ember.ones(2, 3).long()))
    _raises(RuntimeError, "expected m1 and m2 to have the same dtype, but got: float != double",
            lambda: m(ember.ones(3)))
    m = getattr(nn, cell)(3, 4).double()
    _raises(RuntimeError, "mat1 and mat2 must have the same dtype, but got Float and Double",
            lambda: m(ember.ones(2, 3)))


# -- small shape checks ----------------------------------------------------------------------

def test_flatten_of_a_0d_tensor_checks_its_dims():
    assert ember.ones(()).flatten(0, -1).shape == (1,)
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
            lambda: nn.Flatten()(ember.ones(())))
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got "
            "-2)", lambda: ember.ones(()).flatten(-2))


def test_addmm_bias_of_more_dims_in_expands_words():
    _raises(RuntimeError, "expand(torch.FloatTensor{[5, 2, 3]}, size=[2, 3]): the number of "
            "sizes provided (2) must be greater or equal to the number of dimensions in the "
            "tensor (3)", lambda: ember.addmm(ember.ones(5, 2, 3), ember.ones(2, 4),
                                              ember.ones(4, 3)))
    _raises(RuntimeError, "The expanded size of the tensor (3) must match the existing size (4) "
            "at non-singleton dimension 1.  Target sizes: [2, 3].  Tensor sizes: [4]",
            lambda: ember.addmm(ember.ones(4), ember.ones(2, 4), ember.ones(4, 3)))


def test_fold_and_unfold_name_the_batched_dims():
    _raises(RuntimeError, "Expected size of input's dimension 1 to be divisible by the product "
            "of kernel_size, but got input.size(1)=3 and kernel_size=(2, 2).",
            lambda: F.fold(ember.ones(3, 4), (3, 3), 2))
    _raises(RuntimeError, "Given output_size=(3, 3), kernel_size=(2, 2), dilation=(1, 1), "
            "padding=(0, 0), stride=(1, 1), expected size of input's dimension 2 to match the "
            "calculated number of sliding blocks 2 * 2 = 4, but got input.size(2)=5.",
            lambda: F.fold(ember.ones(12, 5), (3, 3), 2))
    _raises(IndexError, "Dimension specified as 1 but tensor has no dimensions",
            lambda: nn.Unfold(2)(ember.ones(())))


def test_transformer_reads_sizes_first():
    m = nn.Transformer(8, 2, 1, 1, 16, 0.0)
    _raises(IndexError, "Dimension specified as 1 but tensor has no dimensions",
            lambda: m(ember.ones(()), ember.ones(3, 2, 8)))


# -- ctc_loss argument checks ------------------------------------------------------------------

@pytest.mark.parametrize("make,exc,text", [
    (lambda lp: lp.long(), NotImplementedError, "\"ctc_loss_cpu\" not implemented for 'Long'"),
    (lambda lp: lp.half(), NotImplementedError, "\"ctc_loss_cpu\" not implemented for 'Half'"),
    (lambda lp: lp[:, 0], RuntimeError, "input_lengths must be of size batch_size"),
    (lambda lp: lp[None, None], RuntimeError, "Expected 3-dimensional tensor, but got "
     "6-dimensional tensor for argument #1 'log_probs' (while checking arguments for "
     "ctc_loss_allocate_outputs)"),
    (lambda lp: lp[0, 0], RuntimeError, "Expected 3-dimensional tensor, but got 2-dimensional "
     "tensor for argument #1 'log_probs' (while checking arguments for "
     "ctc_loss_allocate_outputs)"),
    (lambda lp: lp[0, 0, 0], IndexError, "Dimension out of range (expected to be in range of "
     "[-1, 0], but got 1)"),
])
def test_ctc_loss_checks(make, exc, text):
    lp = ember.ones(6, 2, 4).log_softmax(2)
    with pytest.raises(exc) as info:
        F.ctc_loss(make(lp), ember.tensor([[1, 2], [3, 3]]), ember.tensor([6, 5]),
                   ember.tensor([2, 2]))
    assert str(info.value) == text


# -- in-place activations' node names ------------------------------------------------------------

@pytest.mark.parametrize("fn,node", [
    (lambda x: F.leaky_relu_(x), "LeakyReluBackward1"), (lambda x: F.elu_(x), "EluBackward1"),
    (lambda x: F.celu_(x), "CeluBackward1"), (lambda x: F.selu_(x), "EluBackward1"),
    (lambda x: F.threshold_(x, 0.1, 2.0), "ThresholdBackward1"),
    (lambda x: F.rrelu_(x), "RreluWithNoiseBackward1"),
    (lambda x: nn.LeakyReLU(0.2, True)(x), "LeakyReluBackward1"),
    (lambda x: nn.RReLU(inplace=True)(x), "RreluWithNoiseBackward1"),
    # these keep their out-of-place names, as in torch
    (lambda x: F.relu_(x), "ReluBackward0"), (lambda x: F.hardtanh_(x), "HardtanhBackward0"),
    (lambda x: F.leaky_relu(x), "LeakyReluBackward0"),
])
def test_inplace_activation_nodes(fn, node):
    leaf = ember.tensor([-1.0, 0.5, -2.0], requires_grad=True)
    x = leaf * 1
    y = fn(x)
    assert type(y.grad_fn).__name__ == node
    y.sum().backward()
    assert leaf.grad is not None


def test_inplace_leaky_relu_gradient():
    leaf = ember.tensor([-1.0, 0.5, -2.0], requires_grad=True)
    F.leaky_relu_(leaf * 1, 0.25).sum().backward()
    assert leaf.grad.tolist() == [0.25, 1.0, 0.25]


# -- empty batches -------------------------------------------------------------------------------

def test_empty_inputs():
    assert nn.InstanceNorm1d(3)(ember.ones(0, 3, 5)).shape == (0, 3, 5)
    assert F.batch_norm(ember.ones(0, 3, 5), None, None, training=True).shape == (0, 3, 5)
    _raises(ValueError, "Expected more than 1 value per channel when training, got input size "
            "torch.Size([1, 3, 1])", lambda: F.batch_norm(ember.ones(1, 3, 1), None, None,
                                                          training=True))
    _raises(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (1x0 and 4x3)",
            lambda: nn.Linear(4, 3)(ember.ones(0)))
    _raises(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (6x0 and 4x3)",
            lambda: nn.Linear(4, 3)(ember.ones(2, 3, 0)))
    assert nn.Linear(4, 3)(ember.ones(2, 0, 4)).shape == (2, 0, 3)
    _raises(RuntimeError, "log_probs tensor must not be empty",
            lambda: F.ctc_loss(ember.ones(6, 0, 4), ember.ones(0, 2).long(),
                               ember.ones(0).long(), ember.ones(0).long()))


# -- loading older state dicts into norm layers --------------------------------------------------

def test_batch_norm_loads_a_state_dict_without_num_batches_tracked():
    b = nn.BatchNorm1d(3)
    b.num_batches_tracked.fill_(5)
    state = {k: v for k, v in b.state_dict().items() if k != "num_batches_tracked"}
    assert repr(b.load_state_dict(state)) == "<All keys matched successfully>"
    assert b.num_batches_tracked.item() == 5            # a plain dict: the module's own count
    versioned = b.state_dict()
    del versioned["num_batches_tracked"]
    _raises(RuntimeError, "Error(s) in loading state_dict for BatchNorm1d:\n\tMissing key(s) in "
            "state_dict: \"num_batches_tracked\". ", lambda: b.load_state_dict(versioned))
    versioned._metadata[""]["version"] = 1               # saved before the count existed
    assert repr(b.load_state_dict(versioned)) == "<All keys matched successfully>"


def test_instance_norm_explains_old_running_stats():
    m = nn.InstanceNorm1d(3)
    _raises(RuntimeError, "Error(s) in loading state_dict for InstanceNorm1d:\n\tUnexpected "
            "running stats buffer(s) \"running_mean\" and \"running_var\" for InstanceNorm1d "
            "with track_running_stats=False. If state_dict is a checkpoint saved before 0.4.0, "
            "this may be expected because InstanceNorm1d does not track running stats by "
            "default since 0.4.0. Please remove these keys from state_dict. If the running "
            "stats are actually needed, instead set track_running_stats=True in InstanceNorm1d "
            "to enable them. See the documentation of InstanceNorm1d for details.",
            lambda: m.load_state_dict({"running_mean": ember.zeros(3),
                                       "running_var": ember.ones(3)}))
    tracked = nn.InstanceNorm1d(3, track_running_stats=True)
    tracked.load_state_dict({"running_mean": ember.zeros(3), "running_var": ember.full((3,), 2.)})
    assert tracked.running_var.tolist() == [2.0] * 3


def test_relu_of_a_non_tensor_is_torchs_type_error():
    with pytest.raises(TypeError) as info:
        F.relu([1.0, -2.0])
    assert str(info.value) == "relu(): argument 'input' (position 1) must be Tensor, not list"
    assert F.relu(ember.tensor([1.0, -2.0])).tolist() == [1.0, 0.0]
