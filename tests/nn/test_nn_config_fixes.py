"""nn layers in less common configurations, as torch behaves: power pooling with p = +-inf,
output_size errors of ConvTranspose and MaxUnpool, EmbeddingBag's offsets errors, Unflatten's
argument checks, GaussianNLLLoss's variance rules, the recurrent modules' own forward,
adaptive max pooling's gradient for an empty batch and LocalResponseNorm with size < 1."""
import math

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F


# -- LPPool with p = inf / -inf: the largest / smallest |x| of each window -------------------------

@pytest.mark.parametrize("nd", [1, 2, 3])
def test_lp_pool_infinite_norm_is_max_or_min_of_abs(nd):
    rng = np.random.default_rng(nd)
    shape = (1, 2) + (4,) * nd
    x = rng.standard_normal(shape).astype(np.float32)
    pool = (F.lp_pool1d, F.lp_pool2d, F.lp_pool3d)[nd - 1]
    windows = np.abs(x).reshape((1, 2) + (2, 2) * nd)     # non-overlapping windows of 2
    axes = tuple(range(3, 3 + 2 * nd, 2))
    big = pool(ember.tensor(x), float("inf"), 2).numpy()
    small = pool(ember.tensor(x), -float("inf"), 2).numpy()
    np.testing.assert_array_equal(big, windows.max(axis=axes))
    np.testing.assert_array_equal(small, windows.min(axis=axes))


def test_lp_pool_module_with_infinite_norm():
    x = ember.arange(16.).reshape(1, 1, 4, 4) - 8
    out = nn.LPPool2d(float("inf"), 2)(x)
    assert out.flatten().tolist() == [8.0, 6.0, 5.0, 7.0]


# -- output_size errors show output_size as given --------------------------------------------------

def test_conv_transpose_output_size_error_shows_the_tuple():
    m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
    with pytest.raises(ValueError, match=r"^requested an output size of \(9, 9\), but valid "
                                         r"sizes range from \[7, 7\] to \[8, 8\] \(for an "
                                         r"input of torch.Size\(\[4, 4\]\)\)$"):
        m(ember.zeros(1, 2, 4, 4), output_size=(9, 9))


def test_conv_transpose_unbatched_output_size_takes_channel_and_spatial_sizes():
    m = nn.ConvTranspose2d(2, 3, 3, stride=2)
    x = ember.zeros(2, 4, 4)
    assert m(x, output_size=[3, 10, 9]).shape == (3, 10, 9)
    # four sizes: too many for an unbatched input (torch counts 2 or 3)
    with pytest.raises(ValueError, match=r"for 3D input, output_size must have 2 or 3 "
                                         r"elements \(got 4\)"):
        m(x, output_size=[1, 3, 9, 10])
    # torch shows the input's sizes from dim 2 on, batched or not
    with pytest.raises(ValueError, match=r"\(for an input of torch.Size\(\[4\]\)\)"):
        m(x, output_size=[3, 11, 10])


def test_max_unpool_output_size_error_shows_the_list():
    out, idx = F.max_pool1d(ember.arange(5.).reshape(1, 1, 5), 2, return_indices=True)
    with pytest.raises(ValueError, match=r'^invalid output_size "\[7\]" \(dim 0 must be '
                                         r'between 2 and 6\)$'):
        nn.MaxUnpool1d(2)(out, idx, output_size=[7])
    assert nn.MaxUnpool1d(2)(out, idx, output_size=[5]).shape == (1, 1, 5)


# -- EmbeddingBag's offsets ------------------------------------------------------------------------

def test_embedding_bag_2d_input_with_offsets_names_torch_tensor():
    m = nn.EmbeddingBag(10, 3)
    with pytest.raises(ValueError, match=r"found offsets of type <class 'torch.Tensor'>$"):
        m(ember.tensor([[1, 2]]), ember.tensor([0]))
    with pytest.raises(ValueError, match=r"found offsets of type <class 'list'>$"):
        m(ember.tensor([[1, 2]]), [0])


@pytest.mark.parametrize("index_dtype, offsets_dtype, name", [
    ("int64", "int64", "torch.LongTensor"), ("int32", "int32", "torch.IntTensor"),
    ("int64", "int32", "torch.LongTensor"), ("int32", "int64", "torch.LongTensor")])
def test_embedding_bag_first_offset_error_ends_with_the_tensor_type(index_dtype, offsets_dtype,
                                                                     name):
    m = nn.EmbeddingBag(10, 3, mode="sum")
    inp = ember.tensor([1, 2, 3], dtype=getattr(ember, index_dtype))
    off = ember.tensor([1, 2], dtype=getattr(ember, offsets_dtype))
    with pytest.raises(RuntimeError) as info:
        m(inp, off)
    assert str(info.value).endswith(f"However, got 1\n[ {name}{{}} ]")


def test_embedding_bag_floating_offsets_are_refused():
    m = nn.EmbeddingBag(10, 3, mode="sum")
    with pytest.raises(RuntimeError, match=r"argument #1 'indices' to have one of the following "
                                           r"scalar types: Long, Int; but got "
                                           r"torch.DoubleTensor instead"):
        m(ember.tensor([1, 2, 3]), ember.tensor([0.0, 1.0], dtype=ember.float64))


# -- Unflatten takes a tuple or list of ints -------------------------------------------------------

@pytest.mark.parametrize("size, text", [
    (6, "unflattened_size must be a tuple of ints, but found type int"),
    ((("C", 2), ("H", 3)), "unflattened_size must be tuple of ints, but found element of type "
                           "tuple at pos 0"),
    ((2, 3.0), "unflattened_size must be tuple of ints, but found element of type float at "
               "pos 1")])
def test_unflatten_refuses_other_sizes(size, text):
    with pytest.raises(TypeError) as info:
        nn.Unflatten(1, size)
    assert str(info.value) == text


def test_unflatten_takes_lists_and_sizes():
    assert nn.Unflatten(1, [2, 3])(ember.zeros(4, 6)).shape == (4, 2, 3)
    assert nn.Unflatten(-1, ember.Size([3, 2]))(ember.zeros(4, 6)).shape == (4, 3, 2)


# -- GaussianNLLLoss -------------------------------------------------------------------------------

def _gaussian_nll(mu, y, var):
    return np.mean(0.5 * (np.log(var) + (mu - y) ** 2 / var))


@pytest.mark.parametrize("var_shape", [(4, 1, 2), (1, 3, 2), (4, 3, 1)])
def test_gaussian_nll_var_may_be_one_along_a_single_dim(var_shape):
    rng = np.random.default_rng(0)
    mu, y = rng.standard_normal((2, 4, 3, 2))
    var = rng.uniform(0.5, 2.0, var_shape)
    got = F.gaussian_nll_loss(ember.tensor(mu), ember.tensor(y), ember.tensor(var)).item()
    assert math.isclose(got, _gaussian_nll(mu, y, var), rel_tol=1e-9)


def test_gaussian_nll_var_one_along_two_dims_is_refused():
    with pytest.raises(ValueError, match="^var is of incorrect size$"):
        F.gaussian_nll_loss(ember.zeros(4, 3, 2), ember.zeros(4, 3, 2), ember.ones(1, 1, 2))


def test_gaussian_nll_checks_sign_then_size_then_reduction():
    with pytest.raises(ValueError, match="^var has negative entry/entries$"):
        F.gaussian_nll_loss(ember.ones(2, 3), ember.ones(2, 3), -ember.ones(5))
    with pytest.raises(ValueError, match="^var has negative entry/entries$"):
        F.gaussian_nll_loss(ember.ones(2), ember.ones(2), -1.0)
    with pytest.raises(ValueError, match="^var is of incorrect size$"):
        F.gaussian_nll_loss(ember.ones(2, 3), ember.ones(2, 3), ember.ones(5), reduction="avg")
    with pytest.raises(ValueError, match="^mean2 is not valid$"):
        nn.GaussianNLLLoss(reduction="mean2")(ember.ones(2), ember.ones(2), ember.ones(2))


# -- each recurrent class has its own forward ------------------------------------------------------

@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU"])
def test_recurrent_forward_is_the_class_own(cls):
    m = getattr(nn, cls)(3, 4)
    with pytest.raises(TypeError, match=rf"^{cls}.forward\(\) takes from 2 to 3 positional "
                                        r"arguments but 4 were given$"):
        m(ember.zeros(2, 1, 3), None, None)


def test_rnn_base_has_no_forward():
    m = nn.RNNBase("LSTM", 3, 4)
    with pytest.raises(NotImplementedError,
                       match=r'Module \[RNNBase\] is missing the required "forward" function'):
        m(ember.zeros(2, 1, 3))


# -- adaptive max pooling's gradient for an empty batch --------------------------------------------

@pytest.mark.parametrize("fn, shape", [(F.adaptive_max_pool1d, (0, 2, 4)),
                                       (F.adaptive_max_pool2d, (0, 2, 4, 3)),
                                       (F.adaptive_max_pool3d, (0, 2, 4, 4, 4))])
def test_adaptive_max_pool_backward_with_empty_batch(fn, shape):
    x = ember.zeros(*shape, requires_grad=True)
    fn(x, 2).sum().backward()
    assert x.grad.shape == shape


# -- LocalResponseNorm with size < 1 ---------------------------------------------------------------

@pytest.mark.parametrize("size, shape, text", [
    (0, (1, 2, 4), "kernel size should be greater than zero, but got kH: 0 kW: 1"),
    (-1, (1, 2, 4, 4), "kernel size should be greater than zero, but got kT: -1 kH: 1 kW: 1"),
    (-2, (1, 2, 4), "narrow(): length must be non-negative.")])
def test_local_response_norm_size_below_one(size, shape, text):
    with pytest.raises(RuntimeError) as info:
        nn.LocalResponseNorm(size)(ember.ones(*shape))
    assert str(info.value) == text
    assert nn.LocalResponseNorm(size)(ember.ones(0, *shape[1:])).shape == (0,) + shape[1:]


# -- embedding's index dtype error names types as torch's C++ does ---------------------------------

@pytest.mark.parametrize("dtype, name", [("bool", "CPUBoolType"), ("bfloat16", "CPUBFloat16Type"),
                                         ("complex64", "CPUComplexFloatType"),
                                         ("float16", "torch.HalfTensor"),
                                         ("uint8", "torch.ByteTensor")])
def test_embedding_index_dtype_error_type_names(dtype, name):
    with pytest.raises(RuntimeError, match=rf"but got {name} instead \(while checking arguments "
                                           r"for embedding\)$"):
        F.embedding(ember.zeros(2, dtype=getattr(ember, dtype)), ember.ones(3, 2))


# -- ctc_loss's argument checks, in torch's order --------------------------------------------------

_WHERE = " (while checking arguments for ctc_loss_allocate_outputs)"


@pytest.mark.parametrize("targets, input_lengths, target_lengths, text", [
    ([[1, 2], [1, 1]], [4, 4], [-1, 2],
     "Expected target_lengths to have value at least 0, but got value -1"),
    ([[1, 2], [1, 1]], [-2, 4], [1, 2],
     "Expected input_lengths to have value at least 0, but got value -2"),
    ([[1, 2]], [4, 4], [2, 2],
     "Expected tensor to have size 2 at dimension 0, but got size 1 for argument #2 'targets'"),
    ([[[1, 2]], [[1, 1]]], [4, 4], [2, 2],
     "Expected 1 to 2 dimensions, but got 3-dimensional tensor for argument #2 'targets'")])
def test_ctc_loss_argument_errors(targets, input_lengths, target_lengths, text):
    lp = ember.zeros(4, 2, 3).log_softmax(2)
    with pytest.raises(RuntimeError) as info:
        F.ctc_loss(lp, ember.tensor(targets), input_lengths, target_lengths)
    assert str(info.value) == text + _WHERE


def test_ctc_loss_unbatched_takes_padded_targets_of_one_row():
    rng = np.random.default_rng(0)
    lp = ember.tensor(rng.standard_normal((4, 3))).log_softmax(1)
    flat = F.ctc_loss(lp, ember.tensor([1, 2]), [4], [2], reduction="none")
    padded = F.ctc_loss(lp, ember.tensor([[1, 2]]), [4], [2], reduction="none")
    assert padded.shape == () and padded.item() == flat.item()


def test_ctc_loss_of_nothing_against_nothing_is_minus_zero():
    lp = ember.zeros(4, 1, 3).log_softmax(2)
    loss = F.ctc_loss(lp, ember.zeros(1, 0, dtype=ember.int64), [0], [0], reduction="none")
    assert loss.item() == 0.0 and math.copysign(1.0, loss.item()) == -1.0


# -- batch and group norm of a channels-last batch of one keep torch's strides ---------------------

@pytest.mark.parametrize("make", [lambda: nn.BatchNorm2d(2), lambda: nn.BatchNorm2d(2).eval(),
                                  lambda: nn.GroupNorm(1, 2)])
def test_norm_of_channels_last_batch_of_one_has_torch_strides(make):
    x = ember.arange(18.).reshape(1, 2, 3, 3).to(memory_format=ember.channels_last)
    assert x.stride() == (18, 1, 6, 2)
    out = make()(x)
    assert out.stride() == (18, 1, 6, 2)      # (N x C x H x W: C*H*W, 1, W*C, C)
    expected = make()(x.contiguous())
    # (torch's channels-last kernel rounds elsewhere than its contiguous one: a value near
    # zero differs by an ulp of the others)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-6,
                               atol=1e-6)


# -- cross_entropy with class probabilities takes no (non-negative) ignore_index -------------------

def test_cross_entropy_probability_targets_refuse_ignore_index():
    x = ember.zeros(2, 3)
    y = ember.full((2, 3), 1 / 3)
    with pytest.raises(RuntimeError, match="^ignore_index is not supported for floating point "
                                           "target$"):
        F.cross_entropy(x, y, ignore_index=1)
    # a negative index is let through: log(3) per sample, as for the default -100
    assert math.isclose(F.cross_entropy(x, y, ignore_index=-1).item(), math.log(3), rel_tol=1e-6)
    # an integer target of the input's shape fails on its dtype first
    with pytest.raises(RuntimeError, match="^Expected floating point type for target with class "
                                           "probabilities, got Long$"):
        F.cross_entropy(x, ember.zeros(2, 3, dtype=ember.int64), ignore_index=0)


# -- max_unpool reports the last invalid index (torch's kernel goes on past the first) -------------

def test_max_unpool_reports_the_last_invalid_index():
    idx = ember.zeros(2, 2, 2, 2, dtype=ember.int64)
    idx[0, 0, 0, 1] = 100
    idx[0, 1, 1, 0] = 200
    idx[1, 0, 0, 0] = -3
    with pytest.raises(RuntimeError, match=r"^Found an invalid max index: -3 \(output volumes "
                                           r"are of size 4x4\)$"):
        F.max_unpool2d(ember.ones(2, 2, 2, 2), idx, 2)
    with pytest.raises(RuntimeError, match=r"^Found an invalid max index: 7 \(output volumes "
                                           r"are of size 6x1\)$"):
        F.max_unpool1d(ember.ones(2, 3), ember.tensor([[9, 0, 8], [7, 1, 0]]), 2)


# -- linear's argument types -----------------------------------------------------------------------

@pytest.mark.parametrize("args, text", [
    ((None, "W"), "argument 'input' (position 1) must be Tensor, not NoneType"),
    (("X", None), "argument 'weight' (position 2) must be Tensor, not NoneType"),
    (("X", "W", 1), "argument 'bias' (position 3) must be Tensor, not int"),
    (([1.0, 2.0, 3.0], "W"), "argument 'input' (position 1) must be Tensor, not list")])
def test_linear_refuses_non_tensors(args, text):
    given = {"X": ember.ones(3), "W": ember.ones(2, 3)}
    args = [given.get(a, a) if isinstance(a, str) else a for a in args]
    with pytest.raises(TypeError) as info:
        F.linear(*args)
    assert str(info.value) == "linear(): " + text


def test_linear_module_with_its_weight_removed():
    m = nn.Linear(3, 2)
    m.weight = None
    with pytest.raises(TypeError, match=r"argument 'weight' \(position 2\) must be Tensor, not "
                                        r"NoneType"):
        m(ember.ones(3))
