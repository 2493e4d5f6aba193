"""nn.functional refuses arguments of the wrong type with torch's TypeError (worded as torch's
argument parser words it, naming the native operator the function reaches), before any shape
check; valid calls are unchanged. Texts as torch 2.x prints them."""
import numpy as np
import pytest

import ember as torch

F = torch.nn.functional


@pytest.fixture
def x4():
    return torch.arange(96.).reshape(2, 3, 4, 4) / 96 - 0.5


@pytest.fixture
def x2():
    return torch.arange(15.).reshape(3, 5) / 15 - 0.5


def refused(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).splitlines()[0] == text


@pytest.mark.parametrize("call, text", [
    (lambda a, b: F.kl_div(b, 1), "kl_div(): argument 'target' (position 2) must be Tensor, not int"),
    (lambda a, b: F.kl_div(1, b), "kl_div(): argument 'input' (position 1) must be Tensor, not int"),
    (lambda a, b: F.nll_loss(b, 0.5),
     "nll_loss_nd(): argument 'target' (position 2) must be Tensor, not float"),
    (lambda a, b: F.soft_margin_loss(b, 1),
     "soft_margin_loss(): argument 'target' (position 2) must be Tensor, not int"),
    (lambda a, b: F.multi_margin_loss(b, 1),
     "multi_margin_loss(): argument 'target' (position 2) must be Tensor, not int"),
    (lambda a, b: F.multilabel_margin_loss(a, 1),
     "multilabel_margin_loss(): argument 'target' (position 2) must be Tensor, not int"),
    (lambda a, b: F.poisson_nll_loss(b, 2),
     "poisson_nll_loss(): argument 'target' (position 2) must be Tensor, not int"),
    (lambda a, b: F.triplet_margin_loss(b, b, 1),
     "triplet_margin_loss(): argument 'negative' (position 3) must be Tensor, not int"),
    (lambda a, b: F.cosine_embedding_loss(b, 1, 1),
     "cosine_embedding_loss(): argument 'input2' (position 2) must be Tensor, not int"),
    (lambda a, b: F.cosine_similarity(a, 1),
     "cosine_similarity(): argument 'x2' (position 2) must be Tensor, not int"),
    (lambda a, b: F.cosine_similarity(b, b, 0.5),
     "cosine_similarity(): argument 'dim' (position 3) must be int, not float"),
    (lambda a, b: F.pairwise_distance(1, b),
     "pairwise_distance(): argument 'x1' (position 1) must be Tensor, not int"),
    (lambda a, b: F.bilinear(b, b, 1),
     "bilinear(): argument 'weight' (position 3) must be Tensor, not int"),
    (lambda a, b: F.embedding(torch.tensor([0]), 1),
     "embedding(): argument 'weight' (position 1) must be Tensor, not int"),
    (lambda a, b: F.grid_sample(a, 0.5, align_corners=False),
     "grid_sampler(): argument 'grid' (position 2) must be Tensor, not float"),
    (lambda a, b: F.scaled_dot_product_attention(a, a, 1),
     "scaled_dot_product_attention(): argument 'value' (position 3) must be Tensor, not int"),
    (lambda a, b: F.max_unpool2d(a, 1, 1),
     "max_unpool2d(): argument 'indices' (position 2) must be Tensor, not int"),
    (lambda a, b: F.batch_norm(a, 1, 1),
     "batch_norm(): argument 'running_mean' (position 4) must be Tensor, not int"),
    (lambda a, b: F.batch_norm(a, torch.zeros(3), torch.ones(3), 1),
     "batch_norm(): argument 'weight' (position 2) must be Tensor, not int"),
    (lambda a, b: F.instance_norm(a, None, None, 1),
     "instance_norm(): argument 'weight' (position 2) must be Tensor, not int"),
    (lambda a, b: F.group_norm(a, 3, None, 1),
     "group_norm(): argument 'bias' (position 4) must be Tensor, not int"),
    (lambda a, b: F.conv_transpose2d(b, 1),
     "conv_transpose2d(): argument 'weight' (position 2) must be Tensor, not int"),
    (lambda a, b: F.conv_transpose2d(a, torch.ones(3, 1, 1, 1), None, 0.5),
     "conv_transpose2d(): argument 'stride' (position 4) must be tuple of ints, not float"),
])
def test_a_number_where_a_tensor_is_taken(x4, x2, call, text):
    refused(lambda: call(x4, x2), text)


@pytest.mark.parametrize("call, text", [
    # (a 2-D input: torch's parser refuses before the shape checks)
    (lambda a, b: F.pixel_shuffle(b, 0.5),
     "pixel_shuffle(): argument 'upscale_factor' (position 2) must be int, not float"),
    (lambda a, b: F.pixel_unshuffle(a, 0.5),
     "pixel_unshuffle(): argument 'downscale_factor' (position 2) must be int, not float"),
    (lambda a, b: F.channel_shuffle(b, 0.5),
     "channel_shuffle(): argument 'groups' (position 2) must be int, not float"),
    (lambda a, b: F.native_channel_shuffle(b, 0.5),
     "native_channel_shuffle(): argument 'groups' (position 2) must be int, not float"),
    (lambda a, b: F.one_hot(b, 0.5),
     "one_hot(): argument 'num_classes' (position 2) must be int, not float"),
    (lambda a, b: F.max_pool1d(a, 0.5),
     "max_pool1d(): argument 'kernel_size' (position 2) must be tuple of ints, not float"),
    (lambda a, b: F.avg_pool1d(a, 0.5),
     "avg_pool1d(): argument 'kernel_size' (position 2) must be tuple of ints, not float"),
    (lambda a, b: F.max_pool2d(a, 2, 1, 0.5),
     "max_pool2d(): argument 'padding' (position 4) must be tuple of ints, not float"),
    (lambda a, b: F.unfold(a, 0.5), "im2col(): argument 'kernel_size' (position 2) must be "
                                    "tuple of ints, but found element of type float at pos 0"),
    (lambda a, b: F.unfold(a, (2, 1.5)),
     "im2col(): argument 'kernel_size' failed to unpack the object at pos 2 with error "
     "\"type must be tuple of ints,but got float\""),
    (lambda a, b: F.local_response_norm(a, 0.5),
     "pad(): argument 'pad' failed to unpack the object at pos 5 with error "
     "\"type must be tuple of ints,but got float\""),
])
def test_a_float_where_ints_are_taken(x4, x2, call, text):
    refused(lambda: call(x4, x2), text)


def test_conv_lists_its_two_overloads_with_the_arguments_given(x4, x2):
    with pytest.raises(TypeError) as info:
        F.conv2d(x2, 1)                 # (before the shape check)
    lines = str(info.value).splitlines()
    assert lines[0] == ("conv2d() received an invalid combination of arguments - got (Tensor, "
                        "int), but expected one of:")
    assert lines[1] == (" * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints "
                        "stride = 1, tuple of ints padding = 0, tuple of ints dilation = 1, "
                        "int groups = 1)")
    assert lines[2].endswith('str padding = "valid", tuple of ints dilation = 1, int groups = 1)')
    w = torch.ones(1, 3, 1, 1)
    refused(lambda: F.conv2d(x4, w, None, (1.5, 1)),
            "conv2d() received an invalid combination of arguments - got (Tensor, Tensor, "
            "NoneType, tuple), but expected one of:")
    refused(lambda: F.conv2d(x4, w, None, 1, 0, 1, 1.0),
            "conv2d() received an invalid combination of arguments - got (Tensor, Tensor, "
            "NoneType, int, int, int, float), but expected one of:")
    assert F.conv2d(x4, w, None, 1, "same").shape == (2, 1, 4, 4)       # still fine
    assert F.conv2d(x4, w, None, [2, 2]).shape == (2, 1, 2, 2)


def test_interpolate_refuses_a_float_size(x4):
    with pytest.raises(TypeError) as info:
        F.interpolate(x4, 0.5)
    assert str(info.value).splitlines() == [
        "upsample_nearest2d() received an invalid combination of arguments - got (Tensor, "
        "list, NoneType), but expected one of:",
        " * (Tensor input, tuple of ints output_size, tuple of floats scale_factors)",
        "      didn't match because some of the arguments have invalid types: (Tensor, "
        "!list of [float, float]!, !NoneType!)",
        " * (Tensor input, tuple of ints output_size, float scales_h = None, "
        "float scales_w = None, *, Tensor out = None)"]
    refused(lambda: F.interpolate(x4[0], 0.5, mode="linear"),
            "upsample_linear1d() received an invalid combination of arguments - got (Tensor, "
            "list, bool, NoneType), but expected one of:")
    assert F.interpolate(x4, 2).shape == (2, 3, 2, 2)


def test_gaussian_nll_loss_takes_a_float_or_a_tensor_var(x2):
    refused(lambda: F.gaussian_nll_loss(x2, x2, 1),
            "any() received an invalid combination of arguments - got (bool), but expected "
            "one of:")
    # 0.5 * (log(var) + (input - target)**2 / var), averaged: here log(2) / 2
    assert np.isclose(F.gaussian_nll_loss(x2, x2, 2.0).item(), np.log(2) / 2)


def test_poisson_nll_loss_computes_nothing_for_a_number_target(x2):
    refused(lambda: F.poisson_nll_loss(x2, 1, False),
            "poisson_nll_loss(): argument 'target' (position 2) must be Tensor, not int")


def test_gelu_takes_approximate_by_keyword_only(x2):
    refused(lambda: F.gelu(x2, "tanh"), "gelu() takes 1 positional argument but 2 were given")
    assert F.gelu(x2, approximate="tanh").shape == (3, 5)


def test_elu_inplace_takes_the_scales_of_the_native_function():
    x = torch.tensor([-1.0, 2.0])
    F.elu_(x, 2.0, 3.0, 0.5)            # scale * (alpha * (exp(input_scale * x) - 1)), x > 0
    assert np.allclose(x.numpy(), [3 * 2 * (np.exp(-0.5) - 1), 6.0])


def test_hardtanh_inplace_does_not_check_min_below_max():
    x = torch.tensor([-1.0, 0.5, 3.0])
    F.hardtanh_(x, 2.0)                 # min 2 > max 1: every value ends at max_val
    assert x.tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        F.hardtanh(x, 2.0)


def test_adaptive_avg_pool3d_of_a_1d_input_names_dim_minus_2():
    with pytest.raises(IndexError, match=r"but got -2\)"):
        F.adaptive_avg_pool3d(torch.ones(5), 1)


def test_no_private_names_leak_into_functional():
    for name in ("tensors", "check_int", "check_ints", "int_lists", "is_int"):
        assert not hasattr(F, name)


@pytest.mark.parametrize("call, text", [
    (lambda a, b: F.binary_cross_entropy(b, 1), "'int' object has no attribute 'size'"),
    (lambda a, b: F.binary_cross_entropy_with_logits(b, 0.5),
     "'float' object has no attribute 'size'"),
    (lambda a, b: F.huber_loss(b, 1, 1), "'int' object has no attribute 'size'"),
    (lambda a, b: F.margin_ranking_loss(b, b, 1), "'int' object has no attribute 'dim'"),
    (lambda a, b: F.linear_cross_entropy(b, 1, 1), "'int' object has no attribute 'dim'"),
    (lambda a, b: F.embedding(torch.tensor([0]), 1, 1), "'int' object has no attribute 'size'"),
    (lambda a, b: F.embedding_bag(torch.tensor([[0]]), 1), "'int' object has no attribute 'dtype'"),
])
def test_where_torchs_python_reads_an_attribute_first(x4, x2, call, text):
    # torch's own Python code reads the attribute of the number before any native call
    with pytest.raises(AttributeError) as info:
        call(x4, x2)
    assert str(info.value) == text


def test_max_unpool_of_too_few_dims_indexes_out_of_range():
    with pytest.raises(IndexError, match="tuple index out of range"):
        F.max_unpool2d(torch.ones(5), torch.zeros(5, dtype=torch.int64), 1)


def test_embedding_padding_idx_is_an_int():
    refused(lambda: F.embedding(torch.tensor([0]), torch.ones(3, 2), padding_idx=1.5),
            "embedding(): argument 'padding_idx' (position 3) must be int, not float")
    assert F.embedding(torch.tensor([0]), torch.ones(3, 2), padding_idx=1).shape == (1, 2)


# torch 2.13's parser reads these functions' input first (the texts are torch's, recorded)
_INPUT_FIRST = [
    ("relu6", lambda v: F.relu6(v), "relu6"), ("elu", lambda v: F.elu(v), "elu"),
    ("elu_", lambda v: F.elu_(v), "elu_"), ("gelu", lambda v: F.gelu(v), "gelu"),
    ("silu", lambda v: F.silu(v), "silu"), ("mish", lambda v: F.mish(v), "mish"),
    ("hardtanh", lambda v: F.hardtanh(v), "hardtanh"),
    ("leaky_relu", lambda v: F.leaky_relu(v, 0.2), "leaky_relu"),
    ("softplus", lambda v: F.softplus(v), "softplus"),
    ("logsigmoid", lambda v: F.logsigmoid(v), "log_sigmoid"),
    ("selu", lambda v: F.selu(v), "selu"), ("celu", lambda v: F.celu(v), "celu"),
    ("hardswish", lambda v: F.hardswish(v), "hardswish"),
    ("hardsigmoid", lambda v: F.hardsigmoid(v), "hardsigmoid"),
    ("softshrink", lambda v: F.softshrink(v), "softshrink"),
    ("hardshrink", lambda v: F.hardshrink(v), "hardshrink"),
    ("threshold", lambda v: F.threshold(v, 0.1, 0.0), "threshold"),
    ("rrelu", lambda v: F.rrelu(v), "rrelu"),
    ("dropout", lambda v: F.dropout(v, 0.5), "dropout"),
    ("dropout eval", lambda v: F.dropout(v, 0.5, training=False), "dropout"),
    ("alpha_dropout", lambda v: F.alpha_dropout(v, 0.5, True), "alpha_dropout"),
    ("feature_alpha_dropout", lambda v: F.feature_alpha_dropout(v, 0.5, True),
     "feature_alpha_dropout"),
    ("max_pool1d", lambda v: F.max_pool1d(v, 2), "max_pool1d"),
    ("max_pool2d", lambda v: F.max_pool2d(v, 2), "max_pool2d"),
    ("max_pool3d", lambda v: F.max_pool3d(v, 2), "max_pool3d"),
    ("avg_pool1d", lambda v: F.avg_pool1d(v, 2), "avg_pool1d"),
    ("avg_pool2d", lambda v: F.avg_pool2d(v, 2), "avg_pool2d"),
    ("avg_pool3d", lambda v: F.avg_pool3d(v, 2), "avg_pool3d"),
]


@pytest.mark.parametrize("call, native", [c[1:] for c in _INPUT_FIRST],
                         ids=[c[0] for c in _INPUT_FIRST])
@pytest.mark.parametrize("value, type_text", [([1.0], "list"),
                                              (np.ones(3, np.float32), "numpy.ndarray"),
                                              (2.0, "float")])
def test_input_that_is_no_tensor_gets_the_parsers_error(call, native, value, type_text):
    with pytest.raises(TypeError) as info:
        call(value)
    assert str(info.value) == (f"{native}(): argument 'input' (position 1) must be Tensor, "
                               f"not {type_text}")


# -- inputs that are no tensors: a NumPy array, a list, None, a number -------------------------

@pytest.mark.parametrize("call, text", [
    (lambda v: F.layer_norm(v, (2,)), "layer_norm(): argument 'input' (position 1) must be "
                                      "Tensor, not {}"),
    (lambda v: F.rms_norm(v, (2,)), "rms_norm(): argument 'input' (position 1) must be Tensor, "
                                    "not {}"),
    (lambda v: F.pad(v, (1, 1)), "pad(): argument 'input' (position 1) must be Tensor, not {}"),
    (lambda v: F.nll_loss(v, torch.tensor([0])), "nll_loss_nd(): argument 'input' (position 1) "
                                                 "must be Tensor, not {}"),
    (lambda v: F.gelu(v), "gelu(): argument 'input' (position 1) must be Tensor, not {}"),
    (lambda v: F.silu(v, inplace=True), "silu_(): argument 'input' (position 1) must be "
                                        "Tensor, not {}"),
    (lambda v: F.leaky_relu(v, 0.1, True), "leaky_relu_(): argument 'input' (position 1) must "
                                           "be Tensor, not {}"),
    (lambda v: F.relu_(v), "relu_(): argument 'input' (position 1) must be Tensor, not {}"),
    (lambda v: F.pixel_shuffle(v, 2), "pixel_shuffle(): argument 'input' (position 1) must be "
                                      "Tensor, not {}"),
    (lambda v: F.unfold(v, 2), "im2col(): argument 'input' (position 1) must be Tensor, not {}"),
    (lambda v: torch.nn.Tanh()(v), "tanh(): argument 'input' (position 1) must be Tensor, "
                                   "not {}"),
    (lambda v: torch.nn.Sigmoid()(v), "sigmoid(): argument 'input' (position 1) must be "
                                      "Tensor, not {}"),
])
@pytest.mark.parametrize("value, shown", [(np.ones((2, 2), dtype=np.float32), "numpy.ndarray"),
                                          ([[1.0, 2.0]], "list"), (None, "NoneType"),
                                          (3, "int")])
def test_a_value_that_is_no_tensor_is_refused_by_the_parser(call, text, value, shown):
    refused(lambda: call(value), text.format(shown))


@pytest.mark.parametrize("call, method", [
    (lambda v: F.group_norm(v, 1), "dim"), (lambda v: F.interpolate(v, scale_factor=2), "dim"),
    (lambda v: F.dropout2d(v), "dim"), (lambda v: F.glu(v), "dim"),
    (lambda v: F.softmax(v), "dim"), (lambda v: F.log_softmax(v), "dim"),
    (lambda v: F.adaptive_avg_pool2d(v, 1), "size"),
    (lambda v: F.binary_cross_entropy(v, torch.ones(2)), "size"),
    (lambda v: torch.nn.MultiheadAttention(2, 1)(v, v, v), "dim"),
])
def test_torchs_python_reads_a_method_of_the_input_first(call, method):
    # a list has no such attribute; a NumPy array's `size` is an int, which is not callable
    with pytest.raises(AttributeError, match=f"^'list' object has no attribute '{method}'$"):
        call([[1.0, 2.0]])
    array = np.ones((2, 2), dtype=np.float32)
    if method == "size":
        with pytest.raises(TypeError, match="^'int' object is not callable$"):
            call(array)
    else:
        with pytest.raises(AttributeError, match=f"^'numpy.ndarray' object has no attribute "
                                                 f"'{method}'$"):
            call(array)


def test_a_transformer_layer_reads_the_dtype_then_the_dim_of_its_input():
    layer = torch.nn.TransformerEncoderLayer(2, 1, 4, norm_first=True)
    with pytest.raises(AttributeError, match="^'list' object has no attribute 'dtype'$"):
        layer([[1.0, 2.0]])
    with pytest.raises(AttributeError, match="^'numpy.ndarray' object has no attribute 'dim'$"):
        layer(np.ones((2, 2), dtype=np.float32))


def test_a_conv_module_lists_all_seven_arguments_and_names_parameters():
    conv = torch.nn.Conv2d(2, 2, 1)
    with pytest.raises(TypeError) as info:
        conv(np.ones((1, 2, 3, 3), dtype=np.float32))
    assert str(info.value).splitlines()[0] == (
        "conv2d() received an invalid combination of arguments - got (numpy.ndarray, "
        "Parameter, Parameter, tuple, tuple, tuple, int), but expected one of:")
    with pytest.raises(TypeError) as info:       # (the function lists what it was given)
        F.conv2d(None, conv.weight)
    assert "got (NoneType, Parameter)," in str(info.value).splitlines()[0]


# -- NumPy integers where ints are taken (gymnasium's `env.action_space.n` is one) ---------------

I2 = np.int64(2)


@pytest.mark.parametrize("call, plain", [
    (lambda x: F.max_pool1d(x, I2), lambda x: F.max_pool1d(x, 2)),
    (lambda x: F.max_pool1d(x, I2, np.int32(1), return_indices=True)[1],
     lambda x: F.max_pool1d(x, 2, 1, return_indices=True)[1]),
    (lambda x: F.avg_pool1d(x, 3, I2, np.int32(1)), lambda x: F.avg_pool1d(x, 3, 2, 1)),
    (lambda x: F.avg_pool1d(x, torch.tensor(2)), lambda x: F.avg_pool1d(x, 2)),
    (lambda x: F.adaptive_avg_pool1d(x, I2), lambda x: F.adaptive_avg_pool1d(x, 2)),
    (lambda x: F.lp_pool1d(x, 2, I2), lambda x: F.lp_pool1d(x, 2, 2)),
    (lambda x: F.conv1d(x, torch.ones(1, 1, 3), stride=I2, padding=np.int32(1)),
     lambda x: F.conv1d(x, torch.ones(1, 1, 3), stride=2, padding=1)),
    (lambda x: F.conv_transpose1d(x, torch.ones(1, 1, 2), stride=I2, output_padding=np.int8(1)),
     lambda x: F.conv_transpose1d(x, torch.ones(1, 1, 2), stride=2, output_padding=1)),
    (lambda x: F.max_pool2d(x.view(1, 1, 2, 6), I2), lambda x: F.max_pool2d(x.view(1, 1, 2, 6), 2)),
    (lambda x: F.avg_pool2d(x.view(1, 1, 2, 6), (I2, I2)),
     lambda x: F.avg_pool2d(x.view(1, 1, 2, 6), 2)),
    (lambda x: F.interpolate(x.view(1, 1, 2, 6), size=(I2, np.int32(3))),
     lambda x: F.interpolate(x.view(1, 1, 2, 6), size=(2, 3))),
    (lambda x: torch.nn.Conv2d(1, 1, I2, stride=I2, bias=False)(x.view(1, 1, 2, 6)).shape,
     lambda x: torch.nn.Conv2d(1, 1, 2, stride=2, bias=False)(x.view(1, 1, 2, 6)).shape),
])
def test_numpy_integers_are_ints_for_pooling_and_convolution(call, plain):
    x = torch.arange(12.).view(1, 1, 12)
    got, expected = call(x), plain(x)
    if isinstance(got, torch.Size):
        assert got == expected
    else:
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()


@pytest.mark.parametrize("call", [
    lambda x: F.adaptive_avg_pool2d(x, I2), lambda x: F.adaptive_max_pool2d(x, np.int32(1)),
    lambda x: torch.nn.AdaptiveAvgPool2d(np.int32(1))(x)])
def test_adaptive_2d_pools_measure_a_numpy_integer_as_torchs_python_does(call):
    x = torch.arange(24.).view(1, 1, 4, 6)
    with pytest.raises(TypeError, match=r"^object of type 'numpy\.int(64|32)' has no len\(\)$"):
        call(x)


def test_a_bool_kernel_is_still_refused():
    x = torch.arange(24.).view(1, 1, 4, 6)
    with pytest.raises(TypeError, match=r"^max_pool2d\(\): argument 'kernel_size' \(position 2\) "
                                        r"must be tuple of ints, not bool$"):
        F.max_pool2d(x, True)
