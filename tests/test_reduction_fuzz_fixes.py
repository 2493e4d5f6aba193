"""Reductions, scans, sorting and binning at the edges a random fuzzer found against torch
(tests/oracle/test_snippets_reduction_fuzz_oracle.py), checked here without torch: values
worked out by hand or with NumPy, torch's texts as read off torch 2.13."""
import re

import numpy as np
import pytest

import ember


def _raises(exc, text, fn, *args, **kwargs):
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        fn(*args, **kwargs)


# -- dtype=float16: the input is cast first, then summed in float32 --------------------------

def test_half_dtype_casts_the_input_before_accumulating():
    x = ember.tensor([2.0, 1.0, -3.569])
    half = np.array([2.0, 1.0, -3.569], np.float32).astype(np.float16).astype(np.float32)
    expected = float(np.float16(half.sum()))          # -0.56836, not -0.56885
    assert float(x.sum(dtype=ember.float16)) == expected
    assert float(ember.sum(x, 0, dtype=ember.float16)) == expected
    assert float(ember.nansum(x, dtype=ember.float16)) == expected
    assert float(x.prod(dtype=ember.float16)) == float(np.float16(half.prod()))
    # mean is torch's exception: the float32 sum of the float32 input, divided, then rounded
    assert float(x.mean(dtype=ember.float16)) == float(np.float16(np.float32(-0.569) / 3))


def test_half_std_rounds_once():
    x = ember.tensor([-3.373, -2.957, -3.0], dtype=ember.float16)
    v = x.numpy().astype(np.float32)
    expected = np.float16(np.sqrt(((v - v.mean()) ** 2).sum() / 3))
    assert float(x.std(unbiased=False)) == float(expected) == float(np.float16(0.18677))
    assert float(ember.std_mean(x, correction=0)[0]) == float(expected)


# -- nanmean: torch's checks, in its order ----------------------------------------------------

def test_nanmean_dtype_and_out_checks():
    x = ember.tensor([1., float("nan"), 2.])
    _raises(RuntimeError, "nanmean(): could not infer output dtype. Optional dtype must be "
            "either a floating point or complex dtype. Got: Int", ember.nanmean, x,
            dtype=ember.int32)
    _raises(RuntimeError, "nanmean(): integral types and 'Bool' are not supported for "
            "nanmean, even for empty tensors.", ember.nanmean, ember.tensor([1, 2]),
            out=ember.empty(0))
    _raises(RuntimeError, "nansum: provided dtype must match dtype of result. Got Double "
            "and Half.", ember.nanmean, x, dtype=ember.float16,
            out=ember.empty(0, dtype=ember.float64))
    _raises(NotImplementedError, "\"nansum_cpu\" not implemented for 'Long'", ember.nanmean,
            x, out=ember.empty(0, dtype=ember.int64))
    o = ember.empty(0, dtype=ember.float16)
    assert ember.nanmean(x, out=o) is o and o.dtype is ember.float16 and float(o) == 1.5


# -- diff, bincount, cummax/cummin, cumsum, median ----------------------------------------------

def test_diff_of_order_zero_is_a_copy_of_the_input():
    x = ember.tensor([[1., 2.]], requires_grad=True)
    y = ember.diff(x, n=0, prepend=x)             # nothing prepended
    assert y is not x and y.tolist() == [[1., 2.]] and y.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert ember.diff(x, n=0, dim=3).shape == (1, 2)        # no dim checked either
    assert ember.diff(ember.tensor([1, 2]), n=0).dtype is ember.int64


def test_diff_checks_the_shape_of_prepend_and_append():
    x = ember.zeros(1, 4)
    _raises(RuntimeError, "diff expects the shape of tensor to prepend or append to match "
            "that of input except along the differencing dimension; input.size(1) = 4, but "
            "got tensor.size(1) = 1", ember.diff, x, dim=0, append=ember.zeros(1, 1))


def test_bincount_of_an_empty_input_is_int64_zeros_even_with_weights():
    empty = ember.tensor([], dtype=ember.int64)
    r = ember.bincount(empty, weights=ember.tensor([1.]), minlength=3)
    assert r.dtype is ember.int64 and r.tolist() == [0, 0, 0]
    _raises(RuntimeError, "minlength should be >= 0", ember.bincount,
            ember.tensor([[-1]]), minlength=-1)


def test_cummax_cummin_of_an_empty_tensor_take_any_dim():
    v, i = ember.cummin(ember.zeros(0), 1)
    assert v.shape == (0,) and i.dtype is ember.int64
    assert ember.cummax(ember.zeros(2, 0), -3).values.shape == (2, 0)
    with pytest.raises(IndexError):
        ember.cummax(ember.zeros(2), 1)


def test_cumsum_gives_no_negative_zero():
    r = ember.cumsum(ember.tensor([-0.0, -0.0]), 0)
    assert np.signbit(r.numpy()).tolist() == [False, False]
    assert np.signbit(ember.cumprod(ember.tensor([-0.0]), 0).numpy()).tolist() == [True]


def test_median_of_an_empty_integer_tensor_is_nan_converted():
    assert ember.median(ember.zeros(0, dtype=ember.int16)).item() == 0
    assert ember.nanmedian(ember.zeros(2, 0, dtype=ember.int32)).item() == -2 ** 31
    assert ember.median(ember.zeros(0, dtype=ember.int64)).item() == -2 ** 63


def test_median_without_dim_takes_no_keepdim_or_out():
    x = ember.tensor([1., 2.])
    for kwargs in ({"keepdim": True}, {"keepdim": False}, {"out": ember.empty(0)}):
        _raises(TypeError, 'median() missing 1 required positional arguments: "dim"',
                ember.median, x, **kwargs)
    assert ember.median(x, 0, True).values.tolist() == [1.]


# -- histc: bins, then the range, then the dtype ---------------------------------------------

def test_histc_checks_in_torchs_order():
    u8 = ember.tensor([1, 2, 3], dtype=ember.uint8)
    _raises(RuntimeError, "torch.histogram(): bins must be > 0, but got 0 for dimension 0",
            ember.histc, u8, bins=0)
    _raises(RuntimeError, "torch.histc: max must be larger than min", ember.histc, u8, bins=2,
            min=3, max=1)
    _raises(RuntimeError, "value cannot be converted to type uint8_t without overflow",
            ember.histc, u8, bins=2, min=-1, max=5)
    _raises(RuntimeError, "value cannot be converted to type uint8_t without overflow",
            ember.histc, ember.tensor([], dtype=ember.uint8))      # range [-1, 1]
    _raises(NotImplementedError, "\"histogram_cpu\" not implemented for 'Char'", ember.histc,
            u8.to(ember.int8), bins=2, min=-1, max=5)
    _raises(NotImplementedError, "\"linspace_cpu\" not implemented for 'Bool'", ember.histc,
            ember.tensor([True]), bins=3)
    _raises(RuntimeError, "value cannot be converted to type c10::Half without overflow",
            ember.histc, ember.tensor([1.], dtype=ember.float16), bins=2, min=0, max=1e6)
    _raises(NotImplementedError, "\"aminmax_cpu\" not implemented for 'ComplexFloat'",
            ember.histc, ember.tensor([0.5j]), bins=4)
    assert ember.histc(ember.tensor([0.5, 2.5, 1.1]), bins=3, min=0.1, max=2.6).tolist() == \
        [1., 1., 1.]


# -- argument checks before the call (NOTE [ Arguments checked first ]) --------------------

def test_calls_torchs_parser_refuses():
    x = ember.tensor([3., 1., 2.])
    with pytest.raises(TypeError, match=r"^sort\(\) received an invalid combination"):
        ember.sort(x, 0, stable=True)
    _raises(TypeError, "argsort() takes from 2 to 1 positional arguments but 2 were given",
            ember.argsort, x, 0, descending=True, stable=True)
    _raises(TypeError, "topk(): argument 'out' must be tuple of Tensors, not Tensor",
            ember.topk, x, 2, out=ember.empty(0))
    _raises(TypeError, "nanmedian(): argument 'out' must be tuple of Tensors, not Tensor",
            ember.nanmedian, x, 0, out=ember.empty(0))
    with pytest.raises(TypeError, match=r"^var\(\) received an invalid combination"):
        ember.var(x, True, out=ember.empty(0))
    # the calls torch takes still work
    assert ember.sort(x, dim=0, stable=True).values.tolist() == [1., 2., 3.]
    v, i = ember.empty(0), ember.empty(0, dtype=ember.int64)
    assert ember.topk(x, 2, out=(v, i)).values is v and i.tolist() == [0, 2]
    assert float(ember.var(x, 0, True, out=ember.empty(0))) == 1.


def test_sort_outs_need_their_exact_dtypes():
    x = ember.tensor([3, 1, 2], dtype=ember.int16)
    _raises(RuntimeError, "Expected out tensor to have dtype long int, but got float instead",
            ember.argsort, x, stable=True, out=ember.empty(0))
    _raises(RuntimeError, "Expected out tensor to have dtype short int, but got bool instead",
            ember.msort, x, out=ember.empty(0, dtype=ember.bool))


# -- linalg.norm: torch's choice of vector or matrix norm, and its checks --------------------

def test_linalg_norm_checks_dim_and_ord_as_torch():
    v = ember.tensor([3., 4.])
    m = ember.tensor([[1., -2.], [3., 4.]])
    _raises(RuntimeError, "linalg.matrix_norm: The input tensor A must have at least 2 "
            "dimensions.", ember.linalg.norm, v, "fro")
    _raises(RuntimeError, "linalg.norm: If dim is specified, it must be of length 1 or 2. "
            "Got []", ember.linalg.norm, v, "fro", ())
    _raises(RuntimeError, "linalg.norm: If dim is specified, it must be of length 1 or 2. "
            "Got [-1, -1, -2]", ember.linalg.norm, m, 1, [-1, -1, -2])
    _raises(RuntimeError, "linalg.matrix_norm: dims must be different. Got (1, 1)",
            ember.linalg.matrix_norm, m, dim=(1, -1))
    _raises(RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 1",
            ember.linalg.matrix_norm, m, dim=(0, 1, 1))
    _raises(RuntimeError, "linalg.matrix_norm: Order 3 not supported.", ember.linalg.norm, m,
            3)
    _raises(RuntimeError, "linalg.matrix_norm: Low precision dtypes not supported. Got Half",
            ember.linalg.matrix_norm, m.half(), 2)
    r = ember.linalg.norm(m.requires_grad_(), dim=(0, 1))      # no ord: a vector norm
    assert r.grad_fn.name() == "LinalgVectorNormBackward0" and float(r) == pytest.approx(30 ** .5)
    assert float(ember.linalg.norm(m, 1)) == 6.     # the largest column sum


# -- trapezoid, logcumsumexp, quantile, topk, kthvalue, searchsorted: errors in torch's order ---

def test_trapezoid_of_a_0_dim_tensor():
    y = ember.tensor(1.)
    _raises(IndexError, "Dimension specified as -1 but tensor has no dimensions",
            ember.trapezoid, y)
    _raises(IndexError, "Dimension specified as 0 but tensor has no dimensions",
            ember.trapezoid, y, ember.tensor([1.]))
    _raises(IndexError, "slice() cannot be applied to a 0-dim tensor.",
            ember.cumulative_trapezoid, y)
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got "
            "3)", ember.trapezoid, ember.tensor([True]), dim=3)


def test_logcumsumexp_checks_out_then_dim_then_dtype():
    i = ember.tensor([4, 4, -1], dtype=ember.int32)
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got "
            "5)", ember.logcumsumexp, i, 5)
    _raises(RuntimeError, "expected scalar_type Int but found Float", ember.logcumsumexp, i, 0,
            out=ember.empty(0))
    _raises(NotImplementedError, "\"logcumsumexp_out_cpu\" not implemented for 'Int'",
            ember.logcumsumexp, i, 0)


def test_quantile_checks_interpolation_first_and_out_dtype():
    bad = "quantile() interpolation must be one of linear, lower, higher, midpoint or " \
        "nearest, but got bad"
    _raises(RuntimeError, bad, ember.quantile, ember.tensor([1]), 0.5, interpolation="bad")
    _raises(RuntimeError, bad, ember.nanquantile, ember.zeros(2, 0), 1., interpolation="bad")
    _raises(RuntimeError, "quantile() out tensor must be same dtype as the input tensor",
            ember.quantile, ember.tensor([1.]), 0.5, out=ember.empty(0, dtype=ember.int64))


def test_topk_kthvalue_check_dim_and_k_before_the_dtype():
    b = ember.tensor([True, False])
    _raises(RuntimeError, "selected index k out of range", ember.topk, b, 3)
    _raises(RuntimeError, "topk does not support bool dtypes on CPU", ember.topk, b, 1)
    _raises(IndexError, "kthvalue(): Expected reduction dim 1 to have non-zero size.",
            ember.kthvalue, ember.zeros(2, 0, dtype=ember.bool), 1)
    _raises(RuntimeError, "kthvalue(): selected number k out of range for dimension 0",
            ember.kthvalue, ember.tensor([1j, 2]), 3)


def test_searchsorted_of_a_0_dim_boundary_names_the_scalar_first():
    text = "torch.searchsorted(): input value can be a scalar only when boundaries tensor " \
        "dimension is 1, but we got boundaries tensor dim({}) and input value's dim(0) numel(1)"
    _raises(RuntimeError, text.format(0), ember.searchsorted, ember.tensor(1.), 2)
    _raises(RuntimeError, text.format(2), ember.searchsorted, ember.tensor([[1., 2.]]),
            ember.tensor(2.))
    _raises(RuntimeError, "torch.searchsorted(): boundaries tensor should have positive "
            "dimension, but got 0 dimension", ember.searchsorted, ember.tensor(1.),
            ember.tensor([2.]))
    assert ember.searchsorted(ember.tensor([1., 2.]), ember.tensor(2.)).item() == 1


# -- torch.norm is linalg.vector_norm / matrix_norm, as torch's Python code calls them ---------

def test_norm_hands_nuc_and_long_fro_to_matrix_norm():
    _raises(RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2", ember.norm,
            ember.ones(1, 1, 3), p="nuc")
    _raises(RuntimeError, "linalg.matrix_norm: The input tensor A must have at least 2 "
            "dimensions.", ember.norm, ember.ones(3), p="nuc")
    _raises(RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got 0 0 1", ember.norm,
            ember.ones(2, 3), p="fro", dim=[0, 0, 1])
    _raises(RuntimeError, "dim 0 appears multiple times in the list of dims", ember.norm,
            ember.ones(2, 3), p=2, dim=[0, 0])
    _raises(RuntimeError, "linalg.vector_norm cannot compute the inf norm on the dimension "
            "1because this dimension is empty and the operation does not have an identity",
            ember.norm, ember.zeros(2, 0), p=float("inf"), dim=[-2, -2, 1])
    assert float(ember.norm(ember.tensor([[3., 4.]]), p="nuc")) == 5.


def test_vector_norm_checks_dtype_and_out():
    x = ember.tensor([3., 4.], dtype=ember.float64)
    _raises(RuntimeError, "linalg.vector_norm: the dtype of the input (Double) should be "
            "convertible without narrowing to the specified dtype (Float)",
            ember.linalg.vector_norm, x, dtype=ember.float32)
    _raises(RuntimeError, "Expected out tensor to have dtype double, but got float instead",
            ember.linalg.vector_norm, x, out=ember.empty(0))
    _raises(RuntimeError, "linalg.norm expected out tensor dtype Double but got: Float",
            ember.linalg.norm, x, out=ember.empty(0))
    _raises(RuntimeError, "dim 0 appears multiple times in the list of dims",
            ember.linalg.vector_norm, ember.tensor(2.), dim=[0, -1])


# -- out= of the sums and scans ----------------------------------------------------------------

def test_nansum_mean_cumsum_out_checks():
    f = ember.tensor([1., 2.])
    _raises(RuntimeError, "nansum: provided dtype must match dtype of result. Got Double and "
            "Float.", ember.nansum, f, dtype=ember.float32,
            out=ember.empty(0, dtype=ember.float64))
    _raises(RuntimeError, "Expected out tensor to have dtype int, but got long int instead",
            ember.nansum, f, dtype=ember.int32, out=ember.empty(0, dtype=ember.int64))
    _raises(NotImplementedError, "\"nansum_cpu\" not implemented for 'Long'", ember.nansum, f,
            out=ember.empty(0, dtype=ember.int64))
    o = ember.empty(0, dtype=ember.bool)      # integers sum (no NaN), into out's dtype
    assert ember.nansum(ember.tensor([2, -2, 3], dtype=ember.int16), out=o) is o and o.item()
    _raises(RuntimeError, "Expected out tensor to have dtype float, but got double instead",
            ember.mean, f, 0, dtype=ember.float32, out=ember.empty(0, dtype=ember.float64))
    _raises(RuntimeError, "mean.dtype_out(): input types can't be cast to the desired output "
            "type Long", ember.mean, f, out=ember.empty(0, dtype=ember.int64))
    _raises(RuntimeError, "Expected out tensor to have dtype float, but got double instead",
            ember.cumsum, f, 0, dtype=ember.float32, out=ember.empty(0, dtype=ember.float64))
    _raises(RuntimeError, "dim 0 appears multiple times in the list of dims", ember.sum,
            f.reshape(1, 2), (0, -2), dtype=ember.float64, out=ember.empty(0, dtype=ember.int64))
    with pytest.raises(TypeError, match=r'^sum\(\) missing 1 required positional arguments'):
        ember.sum(f, dtype=ember.float32, out=ember.empty(0))


def test_scans_into_bool_without_a_kernel():
    assert ember.cumsum(ember.zeros(0, 3), 0, dtype=ember.bool).shape == (0, 3)
    r = ember.cumprod(ember.tensor(3, dtype=ember.int32), 0, dtype=ember.bool)
    assert r.dtype is ember.bool and r.item() is True
    _raises(NotImplementedError, "\"cumprod_out_cpu\" not implemented for 'Bool'",
            ember.cumprod, ember.ones(2), 0, dtype=ember.bool)


def test_amax_and_all_check_out_first():
    _raises(RuntimeError, "Expected the dtype for input and out to match, but got Char for "
            "input's dtype and Double for out's dtype.", ember.amin,
            ember.zeros(2, 3, dtype=ember.int8), [0, 0], out=ember.empty(0, dtype=ember.float64))
    _raises(RuntimeError, "any only supports bool tensor for result, got: Float", ember.any,
            ember.tensor([1., 2.]), [0, 0], out=ember.empty(0))


def test_half_prod_rounds_each_product():
    a = np.array([0.189, -2.691, 0.286], np.float16)
    expected = np.float16(np.float16(a[0] * a[1]) * a[2])
    assert expected != np.float16(a.astype(np.float32).prod())       # (the test can fail)
    x = ember.tensor(a)
    assert float(x.prod()) == float(x.prod(0)) == float(expected)


def test_cummax_of_a_0_dim_tensor_takes_dims_0_and_minus_1():
    _raises(IndexError, "cummax(): Expected reduction dim -1 or 0 for scalar but got 5",
            ember.cummax, ember.tensor(1.), 5)
    assert ember.cummin(ember.tensor(2.), -1).values.item() == 2.


def test_median_of_bool_is_refused_only_where_there_is_work():
    _raises(NotImplementedError, "\"median_cpu\" not implemented for 'Bool'", ember.median,
            ember.tensor([True, False]))
    assert ember.median(ember.zeros(0, dtype=ember.bool)).item() is True
    _raises(IndexError, "median(): Expected reduction dim 1 to have non-zero size.",
            ember.median, ember.zeros(2, 0, dtype=ember.bool), 1)


def test_unique_refuses_unknown_keywords_in_torchs_inner_names():
    x = ember.tensor([1, 2, 2])
    _raises(TypeError, "_return_output() got an unexpected keyword argument 'out'",
            ember.unique, x, out=ember.empty(0))
    _raises(TypeError, "_return_inverse_and_counts() got an unexpected keyword argument 'out'",
            ember.unique, x, True, True, True, out=ember.empty(0))
    _raises(TypeError, "_consecutive_return_inverse() got an unexpected keyword argument "
            "'out'", ember.unique_consecutive, x, False, True, out=ember.empty(0))


def test_logsumexp_over_no_dims_fails_as_torch():
    _raises(RuntimeError, "output with shape [] doesn't match the broadcast shape [1, 1]",
            ember.logsumexp, ember.ones(2, 3), ())
    r = ember.logsumexp(ember.ones(2, 3), (), keepdim=True)
    assert r.shape == (1, 1) and float(r) == pytest.approx(1 + np.log(6))
    assert float(ember.logsumexp(ember.ones(0, 2), ())) == -np.inf


def test_quantile_picks_infinities_without_interpolating():
    x = ember.tensor([-float("inf"), 1.0, -2.0, 3.25])
    assert float(ember.nanquantile(x, 0., interpolation="nearest")) == -np.inf
    assert float(ember.quantile(x, 0., interpolation="higher")) == -np.inf
    assert float(ember.quantile(x.neg(), 1., interpolation="lower")) == np.inf


def test_half_scans_cast_the_input_first():
    x = ember.tensor([-2.734, 3.0])
    expected = np.float16(np.float32(np.float16(-2.734)) + np.float32(3.0))   # 0.26562
    assert float(ember.cumsum(x, 0, dtype=ember.float16)[1]) == float(expected)


def test_logsumexp_out_checks_first_and_computes_in_outs_dtype():
    i = ember.tensor([[1, -1], [2, 0]], dtype=ember.int32)
    _raises(RuntimeError, "logsumexp(): Expected floating point type for result tensor, but "
            "got: Long", ember.logsumexp, i, 2, out=ember.empty(0, dtype=ember.int64))
    o = ember.empty(0, dtype=ember.float64)
    assert ember.logsumexp(i, 1, out=o) is o and o.dtype is ember.float64
    assert o.tolist() == pytest.approx(np.log(np.exp([[1., -1.], [2., 0.]]).sum(1)).tolist())


def test_linalg_norm_checks_out_after_its_arguments():
    _raises(RuntimeError, "linalg.norm: If dim is not specified but ord is, the input must be "
            "1D or 2D. Got 3D.", ember.linalg.norm, ember.ones(2, 2, 2, dtype=ember.uint8),
            float("inf"), out=ember.empty(0, dtype=ember.float64))
    _raises(RuntimeError, "linalg.norm expected out tensor dtype Half but got: Float",
            ember.linalg.norm, ember.ones(3, dtype=ember.float16), out=ember.empty(0))


def test_trapezoid_of_an_empty_bool_tensor_is_false():
    r = ember.trapezoid(ember.tensor([], dtype=ember.bool), x=ember.arange(0.))
    assert r.dtype is ember.bool and r.item() is False
    with pytest.raises(TypeError, match=r"^trapz\(\) received an invalid combination"):
        ember.trapz(ember.ones(3), out=ember.empty(0))


def test_nansum_and_std_name_a_repeated_dim_before_a_later_bad_one():
    x = ember.tensor([1., 2.])
    for fn in (ember.nansum, ember.std, ember.var_mean):
        _raises(RuntimeError, "dim 0 appears multiple times in the list of dims", fn, x,
                [0, 0, 1])
    for fn in (ember.sum, ember.amax, ember.nanmean):       # these wrap every dim first
        _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                "got 1)", fn, x, [0, 0, 1])


def test_max_min_of_everything_into_out():
    _raises(RuntimeError, "Expected canCast( typeMetaToScalarType(self.dtype()), "
            "typeMetaToScalarType(out.dtype())) to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)",
            ember.min, ember.tensor([1.5]), out=ember.empty(0, dtype=ember.int64))
    o = ember.empty(0, dtype=ember.float64)
    assert ember.max(ember.zeros(0, 3, dtype=ember.float64), out=o) is o
    assert o.item() == -np.inf
    assert ember.min(ember.zeros(0, dtype=ember.int32),
                     out=ember.empty(0, dtype=ember.int32)).item() == 2 ** 31 - 1


def test_diff_of_order_zero_into_out_and_histc_out():
    x = ember.tensor([2, -2], dtype=ember.int8)
    _raises(RuntimeError, "expected scalar_type Char but found Long", ember.diff, x, n=0,
            prepend=x, out=ember.empty(0, dtype=ember.int64))
    o = ember.empty(0, dtype=ember.int8)
    assert ember.diff(x, n=0, prepend=x, out=o) is o and o.tolist() == [2, -2]
    _raises(RuntimeError, "torch.histogram: input tensor and hist tensor should have the same "
            "dtype, but got input double and hist float", ember.histc,
            ember.zeros(2, dtype=ember.float64), bins=0, out=ember.empty(0))


def test_sort_methods_with_stable_and_a_positional_dim():
    x = ember.tensor([3, 1, 2])
    _raises(TypeError, "sort() takes from 1 to 0 positional arguments but 1 were given",
            x.sort, 0, descending=False, stable=False)
    with pytest.raises(TypeError, match=r"^sort\(\) received an invalid combination"):
        x.sort(5, stable=True)
    assert x.sort(stable=True, dim=0).indices.tolist() == [1, 2, 0]


def test_inf_norm_gradient_goes_to_the_nans():
    x = ember.tensor([-2., -0.5, float("nan")], requires_grad=True)
    ember.linalg.vector_norm(x, ord=float("inf")).backward()
    g = x.grad.numpy()
    assert g.tolist() == [0., 0., 0.] and np.signbit(g).tolist() == [True, True, False]
    y = ember.tensor([1., -3., 3.], requires_grad=True)
    ember.linalg.vector_norm(y, ord=float("inf")).backward()
    assert y.grad.tolist() == [0., -0.5, 0.5]


def test_amin_of_an_empty_tensor_checks_dims_in_order():
    _raises(IndexError, "amin(): Expected reduction dim -1 to have non-zero size.", ember.amin,
            ember.zeros(2, 0), (-1, 2, 0))
    _raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got "
            "5)", ember.amin, ember.zeros(2, 0), (0, 5))


def test_nansum_of_an_empty_input_into_any_out():
    o = ember.empty(0, dtype=ember.int64)
    assert ember.nansum(ember.zeros(2, 0), -1, out=o) is o and o.tolist() == [0, 0]
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Bool",
            ember.mean, ember.tensor(1., dtype=ember.float16), out=ember.empty(0, dtype=ember.bool))


def test_mode_of_short_rows_with_nan_follows_torchs_insertion_sort():
    # std::sort's insertion sort with `<`: NaN is never moved past, and ends every run
    x = ember.tensor([[float("nan"), 1.355], [-0.627, 2.351], [float("nan"), float("inf")]])
    values, indices = ember.mode(x)
    assert np.isnan(values[0].item()) and values[1].item() == pytest.approx(-0.627)
    assert np.isnan(values[2].item()) and indices.tolist() == [0, 0, 0]
    # sorted so: (1, 3), (2, 0), (nan, 1), (2, 2): no run longer than one, the first wins
    v, i = ember.mode(ember.tensor([[2., float("nan"), 2., 1.]]))
    assert v.item() == 1. and i.item() == 3


def test_matrix_norm_of_an_empty_matrix():
    e = ember.zeros(0, 3, requires_grad=True)
    r = ember.linalg.matrix_norm(e, float("inf"))
    assert r.item() == 0. and r.grad_fn is None
    assert ember.linalg.matrix_norm(e, 2).item() == 0.
    _raises(IndexError, "amin(): Expected reduction dim 0 to have non-zero size.",
            ember.linalg.matrix_norm, ember.zeros(0, 3), -float("inf"))


def test_more_orders_of_checks():
    _raises(RuntimeError, "cumulative_trapezoid: received a bool input for `y`, but bool is not "
            "supported", ember.cumulative_trapezoid, ember.tensor([[False, True]]), dim=2)
    _raises(RuntimeError, "nansum: provided dtype must match dtype of result. Got Bool and "
            "Half.", ember.nansum, ember.zeros(0, 3), 5, dtype=ember.float16,
            out=ember.empty(0, dtype=ember.bool))
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Long",
            ember.mean, ember.ones(3, dtype=ember.float64), 0,
            out=ember.empty(0, dtype=ember.int64))


def test_std_mean_takes_the_mean_by_welfords_update():
    # an infinity before the last element makes the running mean NaN (inf - inf)
    s, m = ember.var_mean(ember.tensor([[float("inf"), 1.], [2., float("inf")]]), 1)
    assert np.isnan(s.numpy()).all()
    assert np.isnan(m[0].item()) and m[1].item() == np.inf
    assert ember.std_mean(ember.tensor([1., 3.]))[1].item() == 2.


def test_float32_scans_and_variance_accumulate_in_float64():
    # torch's CPU cumsum/cumprod and var/std accumulate float32 in float64 and round once:
    # 1e8 + 1 - 1e8 is 1 (float32 running sums would give 0)
    x = ember.tensor([1e8, 1., -1e8])
    assert x.cumsum(0).tolist() == [1e8, 1e8, 1.0]
    assert x.flip(0).cumsum(0).flip(0).tolist() == [1.0, -1e8, -1e8]
    t = ember.tensor([1e8, 1., -1e8], requires_grad=True)
    t.cumsum(0).backward(ember.tensor([-1e8, 1., 1e8]))
    assert t.grad.tolist() == [1.0, 1e8, 1e8]          # the reversed running sums
    c = ember.tensor([1e8 + 0j, 1., -1e8])
    assert c.cumsum(0)[2].item() == 1.0
    # variance: the mean 1 / 3 and the squares in float64; float32 gives a different last bit
    v = ember.tensor([0., 0., 1.]).var()
    assert v.item() == float(np.float32(1 / 3))
    big = ember.tensor([[1e4 + 1, 1e4 + 2, 1e4 + 4]] * 2, dtype=ember.float32)
    assert big.var(1)[0].item() == float(np.float32(np.var([1., 2., 4.], ddof=1)))
    assert big.std(1)[1].item() == float(np.float32(np.std([1., 2., 4.], ddof=1)))
    assert ember.var_mean(big[0])[0].item() == float(np.float32(np.var([1., 2., 4.], ddof=1)))
    # (one element's variance: the float32 mean first, NOTE [ torch's variance order ])
    mean = np.float64(np.float32(3e4 + 7) / np.float32(3))
    squares = 2 * sum((np.float64(v) - mean) ** 2 for v in (1e4 + 1, 1e4 + 2, 1e4 + 4))
    assert big.var().item() == float(np.float32(squares / 5))
    assert big[0].var().item() != float(np.float32(np.var([1., 2., 4.], ddof=1)))


@pytest.mark.parametrize("dim", [0, 1, (0, 1)])
def test_logsumexp_adds_its_exponentials_as_sum_does(dim):
    # torch's logsumexp is max + log(sum(exp(x - max))) with its sum's order of additions
    rng = np.random.default_rng(3)
    x = ember.tensor((rng.standard_normal((64, 64)) * 3).astype(np.float32))
    m = x.amax(dim, keepdim=True)
    composed = (x - m).exp().sum(dim).log() + m.squeeze()
    assert ember.logsumexp(x, dim).tolist() == composed.tolist()


def test_float32_logcumsumexp_runs_in_float64():
    # torch's running value is float64 (log1p(exp(min - max)) + max), each output rounded once
    x = (np.random.default_rng(8).standard_normal(60) * 3).astype(np.float32)
    running, expected = -np.inf, []
    for v in x.astype(np.float64):
        lo, hi = min(v, running), max(v, running)
        running = np.log1p(np.exp(lo - hi)) + hi
        expected.append(float(np.float32(running)))
    assert ember.from_numpy(x).logcumsumexp(0).tolist() == expected
    assert np.logaddexp.accumulate(x).tolist() != expected      # (float32 running values)
    h = ember.tensor([1.0, 2.0, 3.0], dtype=ember.float16).logcumsumexp(0)
    assert h.dtype is ember.float16


def test_quantile_interpolates_with_torchs_fused_lerp():
    # lower + w * (upper - lower) with one rounding (w < 0.5), as torch's lerp kernel
    row = np.array([-1.2304387, 2.8419936, 3.8487103, 6.4600458], dtype=np.float32)
    w = np.float32(np.float32(0.1) * np.float32(3))
    fused = np.float32(np.float64(w) * np.float64(row[1] - row[0]) + np.float64(row[0]))
    plain = row[0] + w * (row[1] - row[0])
    assert fused != plain
    t = ember.from_numpy(row)
    assert t.quantile(0.1).item() == float(fused)
    assert t.nanquantile(0.1).item() == float(fused)
    table = ember.from_numpy(np.stack([row, row]))
    assert table.quantile(0.1, dim=1).tolist() == [float(fused)] * 2
    # w >= 0.5: upper + (w - 1) * (upper - lower), fused
    w = np.float32(np.float32(0.9) * np.float32(3)) - np.float32(2)
    fused = np.float32(np.float64(w - 1) * np.float64(row[3] - row[2]) + np.float64(row[3]))
    assert t.quantile(0.9).item() == float(fused)
