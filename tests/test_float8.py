"""torch's float8 dtypes (NOTE [ Float8 dtypes ] in ember/_dtype.py): the dtype objects, torch's
rounding into them (worked out by hand from each format's bits), the few kernels torch has for
them and its errors for the rest, save and load."""
import io
import math

import numpy as np
import pytest

import ember

F8 = [ember.float8_e4m3fn, ember.float8_e5m2, ember.float8_e4m3fnuz, ember.float8_e5m2fnuz,
      ember.float8_e8m0fnu]
NAN = float("nan")
INF = float("inf")


def _bits(t):
    return t.view(ember.uint8).tolist()


def _same(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert (math.isnan(g) and math.isnan(e)) or g == e, (got, expected)


# -- the dtypes --------------------------------------------------------------------------------

@pytest.mark.parametrize("d", F8)
def test_the_dtypes_describe_themselves_as_torch(d):
    assert repr(d) == str(d) == f"torch.{d._name}"
    assert d.itemsize == 1 and d.is_floating_point and not d.is_complex
    assert d.is_signed is (d is not ember.float8_e8m0fnu)
    assert d.to_real() is d
    name = d._name[0].upper() + d._name[1:]
    with pytest.raises(RuntimeError, match=f"^Unknown Complex ScalarType for {name}$"):
        d.to_complex()
    assert ember.promote_types(d, d) is d


@pytest.mark.parametrize("d, eps, big, small, text", [
    (ember.float8_e4m3fn, 2.0 ** -3, 448.0, 2.0 ** -6,
     "finfo(resolution=1, min=-448, max=448, eps=0.125, smallest_normal=0.015625, "
     "tiny=0.015625, dtype=float8_e4m3fn)"),
    (ember.float8_e5m2, 2.0 ** -2, 57344.0, 2.0 ** -14,
     "finfo(resolution=1, min=-57344, max=57344, eps=0.25, smallest_normal=6.10352e-05, "
     "tiny=6.10352e-05, dtype=float8_e5m2)"),
    (ember.float8_e4m3fnuz, 2.0 ** -3, 240.0, 2.0 ** -7, None),
    (ember.float8_e5m2fnuz, 2.0 ** -3, 57344.0, 2.0 ** -15, None),   # (torch's eps: 2**-3)
])
def test_finfo_of_the_signed_formats(d, eps, big, small, text):
    info = ember.finfo(d)
    assert (info.bits, info.eps, info.max, info.min) == (8, eps, big, -big)
    assert info.tiny == info.smallest_normal == small
    assert info.resolution == 1.0 and info.dtype == d._name
    if text:
        assert repr(info) == text


def test_finfo_of_e8m0fnu_has_no_negatives():
    info = ember.finfo(ember.float8_e8m0fnu)
    assert (info.eps, info.max, info.min, info.tiny) == (1.0, 2.0 ** 127, 2.0 ** -127,
                                                         2.0 ** -127)


@pytest.mark.parametrize("other", [ember.float32, ember.bool, ember.int64, ember.uint16,
                                   ember.float8_e5m2])
def test_float8_promotes_with_nothing_else(other):
    with pytest.raises(RuntimeError, match="^Promotion for Float8 Types is not supported, "
                       f"attempted to promote Float8_e4m3fn and {other._scalar_name}$"):
        ember.promote_types(ember.float8_e4m3fn, other)
    with pytest.raises(RuntimeError, match="Promotion for Float8 Types"):
        ember.ones(2, dtype=ember.float8_e4m3fn) * ember.ones(2, dtype=other)


def test_float8_is_not_a_default_dtype():
    with pytest.raises(TypeError, match="^couldn't find storage object Float8_e5m2Storage$"):
        ember.set_default_dtype(ember.float8_e5m2)
    assert ember.get_default_dtype() is ember.float32


# -- torch's rounding into them ----------------------------------------------------------------

def test_e4m3fn_rounds_to_nearest_even_and_saturates():
    # 1.1 lies between 1.0 and 1.125 (steps of 1/8), nearer 1.125; 0.3 between 0.28125 and
    # 0.3125 (steps of 1/32); 1000, 500 and infinity are beyond 448 and saturate; NaN stays
    values = [1.1, 0.3, -3.5, 1000.0, 500.0, INF, -INF, NAN, 1e-5, 0.001]
    got = ember.tensor(values).to(ember.float8_e4m3fn)
    _same(got.float().tolist(), [1.125, 0.3125, -3.5, 448.0, 448.0, 448.0, -448.0, NAN, 0.0,
                                 2.0 ** -9])
    # 448 is 0x7E (exponent 15, mantissa 6), NaN 0x7F; 1.125 is 0x39
    assert _bits(got)[:8] == [0x39, 0x2A, 0xC6, 0x7E, 0x7E, 0x7E, 0xFE, 0x7F]
    # the same from Python numbers, from float64 and from float16
    for made in (ember.tensor(values, dtype=ember.float8_e4m3fn),
                 ember.tensor(values, dtype=ember.float64).to(ember.float8_e4m3fn)):
        assert _bits(made) == _bits(got)


def test_e5m2_keeps_infinities_and_writes_nan_as_0x7f():
    got = ember.tensor([1.1, 1000.0, 60000.0, 62000.0, INF, NAN, -NAN]).to(ember.float8_e5m2)
    # 1.1 -> 1.0 (steps of 1/4); 1000 -> 1024 (steps of 128 above 512); past the largest,
    # 57344, the next step would be 65536: 60000 rounds down, 62000 (> 61440) to inf
    _same(got.float().tolist()[:5], [1.0, 1024.0, 57344.0, INF, INF])
    assert _bits(got)[5:] == [0x7F, 0xFF]


def test_fnuz_formats_make_nan_of_overflow_and_have_no_negative_zero():
    # 241 rounds down to the largest, 240 (0x7F); 250 (past 248) up, out of range
    got = ember.tensor([1.1, 241.0, 250.0, INF, -0.0]).to(ember.float8_e4m3fnuz)
    _same(got.float().tolist(), [1.125, 240.0, NAN, NAN, 0.0])
    assert _bits(got) == [0x41, 0x7F, 0x80, 0x80, 0x00]


def test_e8m0fnu_rounds_magnitudes_to_powers_of_two():
    # bits: the exponent + 127. A mantissa of a half or more rounds up: 3 -> 4 (129),
    # 6 -> 8 (130), but 5.9 -> 4; the sign is dropped; 0.3 -> 0.25 (125); zero becomes the
    # all-zero bits (2**-127); NaN and infinity are 0xFF
    got = ember.tensor([3.0, 5.9, 6.0, -3.5, 0.3, 0.0, INF, NAN]).to(ember.float8_e8m0fnu)
    assert _bits(got) == [129, 129, 130, 129, 125, 0, 255, 255]
    assert got.float().tolist()[:5] == [4.0, 4.0, 8.0, 4.0, 0.25]


def test_integers_and_bools_convert_through_float():
    got = ember.tensor([1, 300, -3]).to(ember.float8_e4m3fn)      # 300: steps of 32 -> 288
    assert got.tolist() == [1.0, 288.0, -3.0]
    assert ember.tensor([True, False]).to(ember.float8_e5m2).tolist() == [1.0, 0.0]
    back = ember.tensor([1.5, -2.25], dtype=ember.float8_e4m3fn)
    assert back.int().tolist() == [1, -2] and back.bool().tolist() == [True, True]
    assert back.half().dtype is ember.float16 and back.double().tolist() == [1.5, -2.25]


def test_copies_and_assignments_round_as_conversions():
    x = ember.zeros(2, dtype=ember.float8_e4m3fn)
    x.copy_(ember.tensor([1.1, 1000.0]))
    assert x.tolist() == [1.125, 448.0]
    x[1] = ember.tensor(2.3)                # 2.3: steps of 1/4 -> 2.25
    assert x.tolist() == [1.125, 2.25]
    x[0] = 0.5
    assert x.tolist() == [0.5, 2.25]


# -- creation ----------------------------------------------------------------------------------

@pytest.mark.parametrize("d", F8)
def test_filled_factories(d):
    assert ember.ones(2, dtype=d).tolist() == [1.0, 1.0]
    assert ember.full((2,), 2.0, dtype=d).tolist() == [2.0, 2.0]
    assert ember.eye(2, dtype=d).float().tolist() in ([[1, 0], [0, 1]], [[1, 2 ** -127],
                                                                            [2 ** -127, 1]])
    zeros = ember.zeros_like(ember.ones(3, dtype=d))
    assert _bits(zeros) == [0, 0, 0]            # (e8m0fnu's zero is 2**-127, bits 0)
    x = ember.ones(2, dtype=d)
    x.zero_()
    assert _bits(x) == [0, 0]


def test_full_checks_the_range_with_infinities_and_e8m0fnu_from_its_smallest():
    message = "^value cannot be converted to type c10::{} without overflow$"
    with pytest.raises(RuntimeError, match=message.format("Float8_e4m3fn")):
        ember.full((2,), 449.0, dtype=ember.float8_e4m3fn)
    with pytest.raises(RuntimeError, match=message.format("Float8_e4m3fn")):
        ember.full((2,), INF, dtype=ember.float8_e4m3fn)
    with pytest.raises(RuntimeError, match=message.format("Float8_e8m0fnu")):
        ember.full((2,), 0.0, dtype=ember.float8_e8m0fnu)
    assert ember.full((2,), 1000.0, dtype=ember.float8_e5m2).tolist() == [1024.0, 1024.0]
    assert math.isnan(ember.full((1,), NAN, dtype=ember.float8_e4m3fn).item())


@pytest.mark.parametrize("make, kernel", [
    (lambda d: ember.arange(3, dtype=d), "arange_cpu"),
    (lambda d: ember.linspace(0, 1, 3, dtype=d), "linspace_cpu"),
    (lambda d: ember.randn(2, dtype=d), "normal_kernel_cpu"),
    (lambda d: ember.rand(2, dtype=d), "check_uniform_bounds"),
    (lambda d: ember.randint(3, (2,), dtype=d), "random_update_from_to"),
])
def test_factories_without_float8_kernels(make, kernel):
    with pytest.raises(NotImplementedError,
                       match=f"^\"{kernel}\" not implemented for 'Float8_e5m2'$"):
        make(ember.float8_e5m2)


def test_numpy_has_no_counterpart():
    import ml_dtypes
    x = ember.ones(2, dtype=ember.float8_e4m3fn)
    with pytest.raises(TypeError, match="^Got unsupported ScalarType Float8_e4m3fn$"):
        x.numpy()
    with pytest.raises(TypeError, match="^can't convert np.ndarray of type "
                       "ml_dtypes.float8_e5m2. The only supported types are"):
        ember.from_numpy(np.ones(2, ml_dtypes.float8_e5m2))


# -- what prints -------------------------------------------------------------------------------

def test_printing_and_type_names():
    x = ember.tensor([1.1, 2.0, -3.5, 1000.0], dtype=ember.float8_e4m3fn)
    assert repr(x) == ("tensor([  1.1250,   2.0000,  -3.5000, 448.0000], "
                       "dtype=torch.float8_e4m3fn)")
    assert x.type() == "torch.Float8_e4m3fnTensor"
    assert ember.ones(1).type("torch.Float8_e5m2Tensor").dtype is ember.float8_e5m2
    assert x[0].item() == 1.125


def test_e8m0fnu_prints_nan_and_its_zero_as_torch():
    # torch measures e8m0fnu's values with NaN among them (its isfinite is always true) and
    # leaves out only values equal to 0 converted (2**-127): no scientific notation here
    x = ember.tensor([1.0, 1000.0, NAN], dtype=ember.float8_e8m0fnu)
    assert repr(x) == "tensor([   1.0000, 1024.0000,       nan], dtype=torch.float8_e8m0fnu)"
    y = ember.tensor([0.5, 0.0], dtype=ember.float8_e8m0fnu)
    assert repr(y) == "tensor([0.5000, 0.0000], dtype=torch.float8_e8m0fnu)"


# -- kernels -----------------------------------------------------------------------------------

def test_the_kernels_torch_has():
    x = ember.tensor([[1.0, 2.0], [-4.0, NAN]], dtype=ember.float8_e4m3fn)
    assert (x * x)[0].tolist() == [1.0, 4.0] and (x * x).dtype is ember.float8_e4m3fn
    assert (x == 2.0).tolist() == [[False, True], [False, False]]
    assert (x != x).tolist() == [[False, False], [False, True]]
    assert x.abs()[1, 0].item() == 4.0
    assert x.isnan().tolist() == [[False, False], [False, True]]
    assert ember.where(x == 2.0, x, x).dtype is ember.float8_e4m3fn
    # e8m0fnu's isfinite is always true, NaN included
    assert ember.tensor([1.0, NAN], dtype=ember.float8_e8m0fnu).isfinite().tolist() == [True,
                                                                                        True]


@pytest.mark.parametrize("call, kernel", [
    (lambda x: x + x, "add_stub"), (lambda x: x - 1, "add_stub"), (lambda x: x / x, "div_cpu"),
    (lambda x: x * 2, "mul_cpu_reduced_float"), (lambda x: -x, "neg_cpu"),
    (lambda x: x.exp(), "exp_vml_cpu"), (lambda x: x < x, "lt_cpu"),
    (lambda x: ember.relu(x), "clamp_min_scalar_cpu"), (lambda x: x.isinf(), "isinf"),
    (lambda x: x.isfinite(), "isfinite"), (lambda x: x.sigmoid(), "sigmoid_cpu_reduced_float"),
    (lambda x: ember.logical_and(x, x), "logical_and_cpu"), (lambda x: x.rsqrt(), "rsqrt_cpu"),
])
def test_the_kernels_torch_lacks(call, kernel):
    # (e5m2: NumPy's kind "f"; it has isinf and isfinite)
    second = ember.float8_e4m3fnuz if kernel.startswith("is") else ember.float8_e5m2
    for d in (ember.float8_e4m3fn, second):
        x = ember.ones(2, 2, dtype=d)
        with pytest.raises(NotImplementedError,
                           match=f"^\"{kernel}\" not implemented for '{d._scalar_name}'$"):
            call(x)


def test_e5m2_has_isinf_and_isfinite():
    x = ember.tensor([1.0, INF, NAN], dtype=ember.float8_e5m2)
    assert x.isinf().tolist() == [False, True, False]
    assert x.isfinite().tolist() == [True, False, False]


def test_e8m0fnu_has_no_abs():
    with pytest.raises(NotImplementedError, match="^\"abs_cpu\" not implemented for "
                       "'Float8_e8m0fnu'$"):
        ember.ones(2, dtype=ember.float8_e8m0fnu).abs()


def test_views_indexing_and_joins():
    x = ember.tensor([[1.0, 2.0], [4.0, 8.0]], dtype=ember.float8_e4m3fn)
    assert _bits(x[0]) == [0x38, 0x40]                # 1.0 and 2.0
    assert x.view(ember.uint8).view(ember.float8_e4m3fn).tolist() == x.tolist()
    assert ember.cat([x, x]).shape == (4, 2) and ember.stack([x, x]).dtype is x.dtype
    assert x[ember.tensor([1, 0])].tolist() == [[4.0, 8.0], [1.0, 2.0]]
    assert x.t().contiguous().tolist() == [[1.0, 4.0], [2.0, 8.0]]
    assert x[x == 2.0].tolist() == [2.0]


# -- save and load -----------------------------------------------------------------------------

@pytest.mark.parametrize("d", F8)
def test_save_and_load(d):
    x = ember.tensor([1.1, 2.0, 0.25]).to(d)
    buffer = io.BytesIO()
    ember.save({"x": x}, buffer)
    buffer.seek(0)
    y = ember.load(buffer)["x"]
    assert y.dtype is d and _bits(y) == _bits(x)


@pytest.mark.parametrize("call, kernel", [
    (lambda x: x.sum(), "sum_cpu"), (lambda x: x.mean(), "sum_cpu"),
    (lambda x: x.prod(), "prod_out_cpu"), (lambda x: x.cumsum(0), "cumsum_out_cpu"),
    (lambda x: x.max(), "max_all"), (lambda x: x.max(0), "max_cpu"),
    (lambda x: x.amax(), "max_values_cpu"), (lambda x: x.argmax(), "argmax_cpu"),
    (lambda x: x.masked_fill(x == 1, 0.5), "masked_fill"),
    (lambda x: x.gather(0, ember.tensor([[0, 1]])), "scatter_gather_tensor_cpu"),
    (lambda x: x.nonzero(), "nonzero_count_cpu"), (lambda x: x.tril(), "tril"),
    (lambda x: x @ x[0], "addmv_impl_cpu"), (lambda x: x[0].dot(x[0]), "dot"),
    (lambda x: x.sort(), "sorting_kernel_method_name"), (lambda x: x.unique(), "unique"),
    (lambda x: ember.equal(x, x), "equal_notnan_cpu"),
    (lambda x: x.softmax(0), "softmax_kernel_impl"), (lambda x: x.std(0), "std_cpu"),
    (lambda x: x.median(), "median_cpu"), (lambda x: x.mode(), "mode_cpu"),
    (lambda x: x.norm(), "norm_cpu"), (lambda x: ember.linalg.vector_norm(x), "norm_cpu"),
    (lambda x: x.logsumexp(0), "max_values_cpu"),
    (lambda x: ember.isclose(x, x), "mul_cpu_reduced_float"),
])
def test_reductions_and_indexing_kernels_torch_lacks(call, kernel):
    x = ember.ones(2, 2, dtype=ember.float8_e5m2)
    with pytest.raises(NotImplementedError,
                       match=f"^\"{kernel}\" not implemented for 'Float8_e5m2'$"):
        call(x)


def test_the_matrix_product_rounds_once_and_e8m0fnu_has_none():
    x = ember.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=ember.float8_e4m3fn)
    y = ember.tensor([[1.0, 0.5], [3.0, -4.0]], dtype=ember.float8_e4m3fn)
    # -14.5 lies halfway between -14 and -15 (steps of 1 in [8, 16)): to even, -14
    assert (x @ y).tolist() == [[7.0, -7.5], [15.0, -14.0]] and (x @ y).dtype is x.dtype
    big = ember.tensor([[400.0]], dtype=ember.float8_e4m3fn)
    assert (big @ big).item() == 448.0                  # saturated, as the conversion
    e8 = x.to(ember.float8_e8m0fnu)
    with pytest.raises(NotImplementedError, match="addmm_impl_cpu_"):
        e8 @ e8
    assert (e8[:, :0] @ e8[:0]).shape == (2, 2)         # (torch checks only with work to do)


def test_indexing_kernels_torch_has():
    x = ember.tensor([[1.0, 2.0], [4.0, 8.0]], dtype=ember.float8_e4m3fn)
    assert x.index_select(0, ember.tensor([1])).tolist() == [[4.0, 8.0]]
    assert x.flip(0).tolist() == [[4.0, 8.0], [1.0, 2.0]]
    assert x.masked_select(x == 2.0).tolist() == [2.0]
    y = x.clone()
    y[ember.tensor([0])] = 0.5
    assert y.tolist() == [[0.5, 0.5], [4.0, 8.0]]
    e8 = x.to(ember.float8_e8m0fnu)
    with pytest.raises(NotImplementedError, match="^\"index_put\" not implemented for "
                       "'Float8_e8m0fnu'$"):
        e8[ember.tensor([0])] = 0.5


def test_std_of_all_elements_names_torch_s_dispatch():
    with pytest.raises(RuntimeError, match="^std_var_all: Unsupported dtype Float8_e4m3fn$"):
        ember.ones(2, dtype=ember.float8_e4m3fn).std()
    # a softmax in another dtype converts first
    got = ember.ones(2, dtype=ember.float8_e4m3fn).softmax(0, dtype=ember.float32)
    assert got.tolist() == [0.5, 0.5]


def test_single_elements_skip_the_range_check_and_saturate():
    # as for float16, torch checks no range where it fills a single element: the number is
    # converted as `to` does (e4m3fn saturates at 448, e8m0fnu drops the sign)
    assert ember.full((1,), 1000.0, dtype=ember.float8_e4m3fn).item() == 448.0
    assert ember.full((1,), -3.0, dtype=ember.float8_e8m0fnu).item() == 4.0
    x = ember.zeros(3, dtype=ember.float8_e4m3fn)
    x[1] = 1000.0
    assert x.tolist() == [0.0, 448.0, 0.0]
    with pytest.raises(RuntimeError, match="without overflow"):
        ember.zeros(2, dtype=ember.float8_e4m3fn).fill_(1000.0)


def test_empty_sums_need_no_kernel():
    assert ember.empty(0, dtype=ember.float8_e4m3fn).sum().item() == 0.0
    with pytest.raises(NotImplementedError, match="div_cpu_reduced_float"):
        ember.empty(0, dtype=ember.float8_e4m3fn).mean()
