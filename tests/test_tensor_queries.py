"""Tensor questions, the legacy `new`, element loops and the small functions whose error
paths the op table cannot express (texts recorded from torch 2.13)."""
import math

import numpy as np
import pytest

import ember


def test_is_nonzero_needs_exactly_one_element():
    assert ember.tensor([2.0]).is_nonzero() and not ember.tensor([[0]]).is_nonzero()
    with pytest.raises(RuntimeError, match="^Boolean value of Tensor with more than one value "
                                           "is ambiguous$"):
        ember.tensor([1, 2]).is_nonzero()
    with pytest.raises(RuntimeError, match="^Boolean value of Tensor with no values is "
                                           "ambiguous$"):
        ember.tensor([]).is_nonzero()


def test_is_same_size_refuses_numbers():
    with pytest.raises(TypeError, match=r"is_same_size\(\): argument 'other' \(position 2\) "
                                        r"must be Tensor, not int"):
        ember.is_same_size(ember.ones(2), 3)


def test_new_sizes_data_and_dtype():
    x = ember.tensor([1.0, 2.0], dtype=ember.float64)
    assert tuple(x.new(2, 3).shape) == (2, 3) and x.new(2, 3).dtype == ember.float64
    assert tuple(x.new().shape) == (0,)
    assert tuple(x.new(ember.Size([4])).shape) == (4,)
    assert x.new([1, 2]).dtype == ember.float64
    with pytest.raises(TypeError, match=r"new\(\): data must be a sequence \(got float\)"):
        x.new(2.5)
    with pytest.raises(TypeError, match="didn't match because some of the keywords were "
                                        "incorrect: dtype"):
        x.new(2, dtype=ember.int64)


def test_apply_and_map_follow_python_number_conversion():
    x = ember.tensor([1, 2])
    assert x.apply_(lambda v: v * 2.5) is x and x.tolist() == [2, 5]     # truncated
    y = ember.tensor([[1.0, 2.0]])
    assert y.map_(ember.tensor([10.0, 20.0]), lambda a, b: a + b).tolist() == [[11.0, 22.0]]
    with pytest.raises(TypeError, match=r"map_: expected torch.FloatTensor for 'other' \(got "
                                        r"torch.LongTensor\)"):
        y.map_(ember.tensor([1, 2]), lambda a, b: a)
    w = ember.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call apply_\(\) on Variable that requires "
                                           r"grad. Use var.detach\(\).apply_\(\) instead."):
        w.apply_(lambda v: v)


def test_pinning_without_an_accelerator():
    x = ember.ones(2)
    assert x.is_pinned() is False
    if not ember.cuda.is_available():
        with pytest.raises(RuntimeError, match="Cannot access accelerator device when none is "
                                               "available."):
            x.pin_memory()


def test_storage_type_names_the_legacy_class():
    assert ember.ones(1, dtype=ember.int64).storage_type().__name__ == "LongStorage"
    assert ember.ones(1).storage_type() is ember.ones(3).storage_type()


def test_splits_and_their_errors():
    x = ember.arange(12).reshape(3, 4)
    parts = ember.hsplit(x, 2)
    assert [p.tolist() for p in parts] == [[[0, 1], [4, 5], [8, 9]], [[2, 3], [6, 7], [10, 11]]]
    assert parts[0].untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    with pytest.raises(RuntimeError, match="torch.hsplit attempted to split along dimension 1, "
                                           "but the size of the dimension 4 is not divisible by "
                                           "the split_size 3!"):
        ember.hsplit(x, 3)
    with pytest.raises(RuntimeError, match="torch.dsplit requires a tensor with at least 3 "
                                           "dimension, but got a tensor with 2 dimensions!"):
        ember.dsplit(x, 2)


def test_view_scatters_check_sizes_and_keep_dtype():
    a = ember.zeros(3, 3)
    with pytest.raises(RuntimeError, match=r"expected src to have a size equal to the slice of "
                                           r"self. src size = \[2\], slice size = \[3\]"):
        ember.select_scatter(a, ember.ones(2), 0, 0)
    out = ember.select_scatter(ember.zeros(3, 3, dtype=ember.int64), ember.ones(3), 0, 0)
    assert out.dtype == ember.int64 and out.tolist() == [[1, 1, 1], [0, 0, 0], [0, 0, 0]]
    x = ember.zeros(2, 2, dtype=ember.float64, requires_grad=True)
    s = ember.ones(2, dtype=ember.float64, requires_grad=True)
    y = ember.diagonal_scatter(x, s)
    assert type(y.grad_fn).__name__ == "DiagonalScatterBackward0"


def test_unravel_index_refuses_floats_and_wraps():
    with pytest.raises(TypeError, match="expected 'indices' to be integer dtype, but got "
                                        "torch.float32"):
        ember.unravel_index(ember.tensor([1.0]), (2, 3))
    rows, cols = ember.unravel_index(ember.tensor([-1, 6]), (2, 3))
    assert rows.tolist() == [1, 0] and cols.tolist() == [2, 0]


def test_trapezoid_errors():
    with pytest.raises(RuntimeError, match="trapezoid: received a bool input for `y`, but bool "
                                           "is not supported"):
        ember.trapezoid(ember.tensor([True, False]))
    with pytest.raises(TypeError, match="trapezoid"):
        ember.trapezoid(ember.ones(3), 0.5)


def test_frombuffer_shares_memory():
    buffer = bytearray(np.arange(4, dtype=np.float32).tobytes())
    t = ember.frombuffer(buffer, dtype=ember.float32)
    t[0] = 7.0
    assert np.frombuffer(buffer, np.float32)[0] == 7.0
    with pytest.raises(ValueError):
        ember.frombuffer(bytearray(3), dtype=ember.float32)


def _fd(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.flat[i] = eps
        g.flat[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def test_polar_and_complex_gradients_by_finite_differences():
    r = np.array([0.5, 1.5, 2.0])
    t = np.array([0.3, -1.0, 2.5])
    c = np.array([1.0 - 2.0j, 0.5 + 1.0j, -1.0 + 0.25j])

    def loss(mod, fn, a, b):
        z = fn(mod.tensor(a), mod.tensor(b)) if mod is ember else fn(a, b)
        return z

    for fn, np_fn in [(ember.polar, lambda a, b: a * np.exp(1j * b)),
                      (ember.complex, lambda a, b: a + 1j * b)]:
        a = ember.tensor(r, requires_grad=True)
        b = ember.tensor(t, requires_grad=True)
        z = fn(a, b)
        assert type(z.grad_fn).__name__ == ("PolarBackward0" if fn is ember.polar else
                                            "ComplexBackward0")
        (z * ember.tensor(c)).real.sum().backward()
        ga = _fd(lambda v: (np_fn(v, t) * c).real.sum(), r)
        gb = _fd(lambda v: (np_fn(r, v) * c).real.sum(), t)
        np.testing.assert_allclose(a.grad.numpy(), ga, rtol=1e-6)
        np.testing.assert_allclose(b.grad.numpy(), gb, rtol=1e-6)
    assert ember.polar(ember.ones(1), ember.full((1,), math.pi / 2)).dtype == ember.complex64


def test_index_reduce_errors_as_torch():
    x, s, i = ember.ones(5, 3), ember.ones(4, 3), ember.tensor([0, 4, 2, 0])
    with pytest.raises(RuntimeError, match=r"index_reduce\(\): Expected reduce to be one of "
                                           r"prod, mean, amax or amin but got sum."):
        x.index_reduce(0, i, s, "sum")
    with pytest.raises(RuntimeError, match=r"index_reduce_\(\): Expected dtype int32/int64 for "
                                           r"index but got: Float"):
        x.index_reduce_(0, i.float(), s, "prod")
    with pytest.raises(RuntimeError, match=r"Number of indices \(3\) should be equal to "
                                           r"source.size\(dim\): \(4\), for dim: 0"):
        x.index_reduce(0, i[:3], s, "prod")
    with pytest.raises(RuntimeError, match=r"self \(Float\) and source \(Double\) must have the "
                                           r"same scalar type"):
        x.index_reduce(0, i, s.double(), "prod")
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_reduce(0, ember.tensor([-1, 0, 0, 0]), s, "amax")
    y = ember.ones(5, 3, dtype=ember.float64, requires_grad=True)
    out = ember.index_reduce(y * 1, 0, i, s.double(), "amax")
    assert type(out.grad_fn).__name__ == "IndexReduceBackward0"


def test_out_requiring_grad_is_refused_under_grad_mode():
    # torch 2.13: an out= tensor that requires grad is refused like an input that does; under
    # no_grad it is written (resized) and keeps requires_grad
    import pytest
    for call in (lambda o: ember.add(ember.ones(2), 1, out=o),
                 lambda o: ember.exp(ember.ones(2), out=o)):
        with pytest.raises(RuntimeError, match=r"functions with out=\.\.\. arguments don't "
                                               r"support automatic differentiation, but one of "
                                               r"the arguments requires grad\."):
            call(ember.empty(2, requires_grad=True))
    with ember.no_grad():
        out = ember.add(ember.ones(2), 1, out=ember.empty(0, requires_grad=True))
    assert out.requires_grad and out.tolist() == [2.0, 2.0]


def test_top_level_constants_are_pythons():
    assert ember.pi == math.pi and type(ember.pi) is float
    assert ember.e == math.e and ember.inf == math.inf and math.isnan(ember.nan)
    assert ember.newaxis is None
    assert ember.arange(3)[ember.newaxis].shape == (1, 3)
    assert ember.sin(ember.tensor([ember.pi / 2])).tolist() == [1.0]


@pytest.mark.parametrize("make, order", [
    (lambda: ember.ones(2, 3), (0, 1)),
    (lambda: ember.ones(2, 3).t(), (1, 0)),
    (lambda: ember.ones(2, 3, 4, 5).permute(0, 2, 3, 1), (0, 3, 1, 2)),
    (lambda: ember.ones(2, 3).expand(4, 2, 3), (0, 1, 2)),          # stride 0 stays in place
    (lambda: ember.ones(2, 3, 4, 5).to(memory_format=ember.channels_last), (0, 2, 3, 1)),
    (lambda: ember.ones(2, 1, 4, 5).to(memory_format=ember.channels_last), (0, 2, 3, 1)),
    (lambda: ember.ones(3, 4, 5).permute(2, 0, 1), (1, 2, 0)),
    (lambda: ember.ones(5), (0,)),
])
def test_dim_order_is_torchs(make, order):
    assert make().dim_order() == order


def test_dense_identities_and_module_load():
    x = ember.arange(6.0).reshape(2, 3)
    assert x.to_dense() is x and x.to_dense(ember.float64).dtype == ember.float64
    assert x.const_data_ptr() == x.data_ptr()
    assert x.is_set_to(x.view(2, 3)) and x[0].is_set_to(x[0])
    assert not x.is_set_to(x.clone()) and not x[0].is_set_to(x[1]) and not x.is_set_to(x.t())
    target, value = ember.zeros(2, 3), ember.ones(2, 3)
    loaded = target.module_load(value)
    assert loaded is not value and target.tolist() == value.tolist()     # copied into target
    assigned = target.module_load(value, assign=True)
    assert assigned is not value and assigned.data_ptr() == value.data_ptr()


def test_as_strided_scatter_writes_the_window_in_inputs_layout():
    x = ember.arange(12.0).reshape(3, 4)
    y = ember.as_strided_scatter(x, ember.tensor([100.0, 200.0, 300.0]), (3,), (5,))
    assert y.tolist() == [[100, 1, 2, 3], [4, 200, 6, 7], [8, 9, 300, 11]]
    # positions count in the input's own storage: offset 1 of a slice starting at 1
    base = ember.arange(6.0)[1:]
    assert ember.as_strided_scatter(base, ember.tensor([-1.0, -2.0]), (2,), (1,), 0).tolist() \
        == [-2, 2, 3, 4, 5]
    assert base.as_strided_scatter(ember.tensor([-1.0, -2.0]), (2,), (1,)).tolist() \
        == [-1, -2, 3, 4, 5]
    out = ember.as_strided_scatter(ember.zeros(3, dtype=ember.int64), ember.tensor([1.5]), (1,),
                                   (1,), 2)
    assert out.dtype == ember.int64 and out.tolist() == [0, 0, 1]
    with pytest.raises(RuntimeError, match=r"src size = \[3\], slice size = \[2\]"):
        ember.as_strided_scatter(ember.zeros(5), ember.ones(3), (2,), (1,))
    with pytest.raises(TypeError, match=r"as_strided_scatter\(\): argument 'src' \(position 2\) "
                                        r"must be Tensor, not int"):
        ember.as_strided_scatter(ember.zeros(5), 3, (2,), (1,))
    with pytest.raises(RuntimeError, match="as_strided_scatter is currently only supported for "
                                           "contiguous inputs"):
        ember.as_strided_scatter(ember.zeros(2, 3, requires_grad=True).t(), ember.ones(2), (2,),
                                 (1,))


def test_as_strided_scatter_gradients_follow_torchs_formulas():
    x = ember.zeros(3, 4, dtype=ember.float64, requires_grad=True)
    s = ember.zeros(3, dtype=ember.float64, requires_grad=True)
    y = ember.as_strided_scatter(x, s, (3,), (5,))
    assert type(y.grad_fn).__name__ == "AsStridedScatterBackward0"
    y.backward(ember.arange(12.0, dtype=ember.float64).reshape(3, 4))
    assert s.grad.tolist() == [0, 5, 10]
    # torch's as_strided_scatter_backward puts the window's gradient into zeros
    assert x.grad.tolist() == [[0, 0, 0, 0], [0, 5, 0, 0], [0, 0, 10, 0]]


def test_map2_calls_with_three_broadcast_elements():
    t = ember.zeros(2, 3)
    out = t.map2_(ember.ones(3), ember.arange(2.0).reshape(2, 1), lambda a, b, c: a + b * 10 + c)
    assert out is t and t.tolist() == [[10, 10, 10], [11, 11, 11]]
    ints = ember.zeros(3, dtype=ember.int32)
    ints.map2_(ember.ones(3, dtype=ember.int32), ember.ones(3, dtype=ember.int32),
               lambda a, b, c: a + b + c + 0.7)
    assert ints.tolist() == [2, 2, 2]
    with pytest.raises(TypeError, match=r"map2_: expected torch.FloatTensor for argument 'y' "
                                        r"\(got torch.LongTensor\)"):
        ember.zeros(3).map2_(ember.ones(3), ember.ones(3, dtype=ember.int64), lambda a, b, c: a)
    with pytest.raises(RuntimeError, match=r"Can't call map2_\(\) on Variable that requires "
                                           r"grad. Use var.detach\(\).map2_\(\) instead."):
        ember.zeros(3).map2_(ember.ones(3, requires_grad=True), ember.ones(3), lambda a, b, c: a)
    with pytest.raises(RuntimeError, match="The expanded size of the tensor"):
        ember.zeros(1).map2_(ember.ones(3), ember.ones(3), lambda a, b, c: a)
