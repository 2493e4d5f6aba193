"""Argument forms torch's parser accepts (and some it refuses), with hand-derived results:
NumPy's `axis=`/`keepdims=` names, arguments given by keyword under torch's names, Python's
number types as dtypes, NumPy integers as sizes or dims, and the texts of a few TypeErrors.
"""
import numpy as np
import pytest

import ember


def _x():
    return ember.arange(6.).view(2, 3)      # [[0, 1, 2], [3, 4, 5]]


# -- NumPy's names: axis= for dim=, keepdims= for keepdim= --------------------------------------

def test_axis_and_keepdims_are_dim_and_keepdim():
    x = _x()
    assert x.sum(axis=0).tolist() == [3., 5., 7.]
    assert x.sum(axis=1, keepdims=True).tolist() == [[3.], [12.]]
    assert ember.mean(x, axis=0, keepdims=True).tolist() == [[1.5, 2.5, 3.5]]
    assert x.max(axis=0).values.tolist() == [3., 4., 5.]
    assert x.argmax(axis=1).tolist() == [2, 2]
    assert ember.cat([x, x], axis=1).shape == (2, 6)
    assert ember.stack([x, x], axis=0).shape == (2, 2, 3)
    assert x.unsqueeze(axis=0).shape == (1, 2, 3)
    y = x.clone()
    y.cumsum_(axis=1)
    assert y.tolist() == [[0., 1., 3.], [3., 7., 12.]]


def test_both_names_at_once_is_refused():
    with pytest.raises(TypeError, match="sum\\(\\) got an unexpected keyword argument 'axis'"):
        ember.sum(_x(), dim=0, axis=0)


def test_operators_torch_writes_in_python_take_no_axis():
    # Tensor.norm is Python code in torch, outside its argument parser
    with pytest.raises(TypeError, match="axis"):
        _x().norm(axis=0)


# -- keyword names -------------------------------------------------------------------------------

def test_size_arguments_by_keyword():
    x = _x()
    assert x.view(size=(3, 2)).tolist() == [[0., 1.], [2., 3.], [4., 5.]]
    assert x.reshape(shape=(6,)).tolist() == [0., 1., 2., 3., 4., 5.]
    assert x.permute(dims=(1, 0)).tolist() == [[0., 3.], [1., 4.], [2., 5.]]
    assert ember.permute(x, dims=[1, 0]).shape == (3, 2)
    assert x.expand(size=(2, 2, 3)).shape == (2, 2, 3)
    assert x.repeat(repeats=(2, 1)).shape == (4, 3)
    assert x.flip(dims=(1,)).tolist() == [[2., 1., 0.], [5., 4., 3.]]
    assert [t.tolist() for t in x.split(split_size=1)] == [[[0., 1., 2.]], [[3., 4., 5.]]]
    assert x.new_zeros(size=(1, 2)).tolist() == [[0., 0.]]
    assert x.new_ones(size=(2,)).tolist() == [1., 1.]
    assert x.new_empty(size=(0, 2)).shape == (0, 2)
    assert ember.randn(size=(3,)).shape == (3,)
    assert ember.rand(size=[2, 1]).shape == (2, 1)


def test_view_dtype_by_keyword():
    x = ember.ones(2, dtype=ember.float32)
    assert x.view(dtype=ember.int32).tolist() == [0x3F800000, 0x3F800000]


def test_an_unknown_keyword_is_named():
    # view has two signatures: torch lists them; add has one (and a hidden one): torch names
    # the keyword
    with pytest.raises(TypeError, match=r"^view\(\) received an invalid combination of "
                                        r"arguments - got \(shape=tuple, \), but expected"):
        _x().view(shape=(6,))
    with pytest.raises(TypeError, match="^add\\(\\) got an unexpected keyword argument 'foo'$"):
        _x().add(_x(), foo=1)


def test_pow_exponent_by_keyword():
    x = ember.arange(4.)
    assert x.pow(exponent=2).tolist() == [0., 1., 4., 9.]
    assert ember.pow(x, exponent=0.5).tolist()[1] == 1.0
    assert (x ** 2).tolist() == [0., 1., 4., 9.]
    assert (2 ** x).tolist() == [1., 2., 4., 8.]
    x = ember.arange(3.).requires_grad_()
    (x ** 3).sum().backward()
    assert x.grad.tolist() == [0., 3., 12.]


# -- Python's number types as dtypes ----------------------------------------------------------

def test_python_types_are_dtypes():
    assert ember.zeros(2, dtype=float).dtype is ember.float64
    assert ember.ones(2, dtype=int).dtype is ember.int64
    assert ember.empty(2, dtype=bool).dtype is ember.bool
    assert ember.zeros(2, dtype=complex).dtype is ember.complex128
    assert ember.tensor([1, 2], dtype=float).tolist() == [1., 2.]
    assert ember.tensor([1, 2], dtype=float).dtype is ember.float64
    assert ember.arange(3, dtype=float).dtype is ember.float64
    assert ember.full((2,), 1, dtype=float).dtype is ember.float64
    x = ember.arange(3.)
    assert x.to(int).dtype is ember.int64
    assert x.to(bool).tolist() == [False, True, True]
    assert x.to(dtype=float).dtype is ember.float64
    assert x.new_zeros(2, dtype=float).dtype is ember.float64


def test_a_dtype_name_string_is_refused():
    with pytest.raises(TypeError, match="zeros\\(\\): argument 'dtype' must be torch.dtype, not str"):
        ember.zeros(2, dtype="float32")


# -- sizes and dims ------------------------------------------------------------------------------

def test_sum_without_dim_keeps_every_dim():
    x = _x().requires_grad_()
    s = x.sum(dim=None, keepdim=True)
    assert s.shape == (1, 1) and s.item() == 15.
    s.backward()
    assert x.grad.tolist() == [[1.] * 3] * 2


def test_a_numpy_integer_is_one_dim_or_size():
    x = _x()
    assert x.flip(np.int64(0)).tolist() == [[3., 4., 5.], [0., 1., 2.]]
    assert ember.arange(3).repeat(np.int64(2)).tolist() == [0, 1, 2, 0, 1, 2]
    assert ember.arange(3.).expand(np.int64(3)).shape == (3,)


@pytest.mark.parametrize("call, text", [
    (lambda x: x.permute(), 'permute() missing 1 required positional arguments: "dims"'),
    (lambda x: x.expand(), 'expand() missing 1 required positional arguments: "size"'),
    (lambda x: x.chunk(2.0), "chunk(): argument 'chunks' (position 1) must be int, not float"),
    (lambda x: x.topk(2.0), "topk(): argument 'k' (position 1) must be int, not float"),
    (lambda x: x.new_full(2, 7), "new_full(): argument 'size' (position 1) must be tuple of "
                                 "ints, not int"),
    (lambda x: ember.zeros("3"), "zeros(): argument 'size' (position 1) must be tuple of ints, "
                                 "not str"),
])
def test_type_error_texts(call, text):
    with pytest.raises(TypeError) as info:
        call(ember.arange(6.))
    assert str(info.value) == text


def test_python_number_types_as_dtype_of_reductions_scans_and_factories():
    x = ember.arange(6)
    assert x.sum(dtype=float).dtype == ember.float64
    assert x.mean(dtype=float).item() == 2.5
    assert x.prod(dtype=int).dtype == ember.int64
    assert x.nansum(dtype=float).dtype == ember.float64
    assert x.cumsum(0, dtype=float).dtype == ember.float64
    assert x.cumprod(0, dtype=int).dtype == ember.int64
    with pytest.raises(NotImplementedError, match="cumprod_out_cpu"):     # as torch: no bool scans
        x.cumprod(0, dtype=bool)
    assert ember.zeros_like(x, dtype=float).dtype == ember.float64
    assert ember.ones_like(x, dtype=bool).dtype == ember.bool
    assert ember.full_like(x, 2, dtype=complex).dtype == ember.complex128
    assert ember.empty_like(x, dtype=float).dtype == ember.float64
    assert ember.rand_like(x, dtype=float).dtype == ember.float64
    assert ember.randn_like(x, dtype=float).dtype == ember.float64
    assert ember.randint_like(x, 3, dtype=float).dtype == ember.float64
    assert ember.linspace(0, 1, 3, dtype=float).tolist() == [0.0, 0.5, 1.0]
    assert ember.linspace(0, 1, 3, dtype=float).dtype == ember.float64
    assert ember.logspace(0, 1, 2, dtype=float).dtype == ember.float64
    assert ember.eye(2, dtype=int).dtype == ember.int64
    with pytest.raises(TypeError, match=r"^zeros_like\(\): argument 'dtype' must be "
                                        r"torch.dtype, not str$"):
        ember.zeros_like(x, dtype="float")
