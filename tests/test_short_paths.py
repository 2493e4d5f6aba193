"""Short paths for common small calls give what the general paths give: `x[i]` and `x[a:b:c]`
with plain ints against the tuple spelling `x[(i,)]` (values, shape, strides, storage offset,
base, version sharing, grad_fn and errors), and a vector-matrix product without a graph
against the product recorded with one."""
import itertools

import numpy as np
import pytest

import ember


def describe(t):
    return (t.tolist(), tuple(t.shape), t.stride(), t.storage_offset(), t._base is not None,
            t.requires_grad, t.grad_fn.name() if t.grad_fn is not None else None)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_short_path_views_equal_the_general_ones(requires_grad):
    base = ember.arange(60.).reshape(5, 3, 4).transpose(0, 2)   # (a strided base)
    x = base.clone().requires_grad_() if requires_grad else base
    for i in range(-4, 4):
        assert describe(x[i]) == describe(x[(i,)])
    bounds = [None, -7, -2, 0, 1, 3, 9]
    for start, stop, step in itertools.product(bounds, bounds, [None, 1, 2, 3]):
        key = slice(start, stop, step)
        got, want = describe(x[key]), describe(x[(key,)])
        if not start and (stop is None or stop >= 4) and step in (None, 1):
            # a lone slice over the whole dim is still a slice view (SliceBackward0), as in
            # torch; inside a tuple torch skips it (an alias)
            assert got[:-1] == want[:-1] and got[-1] == (
                "SliceBackward0" if requires_grad else None), key
        else:
            assert got == want, key


def test_short_path_errors_are_the_general_ones():
    x = ember.zeros(4, 2)
    for key in [4, -5]:
        with pytest.raises(IndexError, match="index .* is out of bounds for dimension 0 "
                                             "with size 4"):
            x[key]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]
    with pytest.raises(ValueError, match="step must be greater than zero"):
        x[::-1]


def test_a_short_path_view_shares_memory_and_records_backward():
    x = ember.zeros(3, 2, requires_grad=True)
    y = x * 1
    y[1].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 0], [1, 1], [0, 0]])
    z = ember.zeros(4)
    v = z[1:3]
    v += 1
    assert z.tolist() == [0.0, 1.0, 1.0, 0.0] and z._version == v._version == 1


def test_vector_times_matrix_without_a_graph_is_the_graph_paths_product():
    # matmul(1-D, 2-D) with nothing requiring grad skips the unsqueeze/mm/squeeze_ ops:
    # the same one-row product, a fresh contiguous tensor at version 1 (torch's squeeze_)
    rng = np.random.default_rng(0)
    x = ember.from_numpy(rng.standard_normal(37).astype(np.float32))
    w = ember.from_numpy(rng.standard_normal((37, 5)).astype(np.float32))
    fast = x @ w
    slow = (x.clone().requires_grad_() @ w).detach()
    assert fast.numpy().tobytes() == slow.numpy().tobytes()
    assert fast._version == 1 and fast.is_contiguous() and fast._base is None
    assert fast.tolist() == [np.float32(v) for v in
                             (x.numpy()[None, :].astype(np.float32) @ w.numpy())[0]]


def test_clamp_of_a_float_tensor_between_numbers_keeps_the_checks_that_apply():
    x = ember.tensor([-2.0, -0.0, 0.5, 3.0, float("nan")])
    assert x.clamp(0, 1).tolist()[:4] == [0.0, -0.0, 0.5, 1.0]      # (-0. ties keep the input)
    assert str(x.clamp(0, 1)[1].item()) == "-0.0"
    assert x.clamp(min=1).tolist()[:4] == [1.0, 1.0, 1.0, 3.0]
    assert x.clamp(max=-1).tolist()[:4] == [-2.0, -1.0, -1.0, -1.0]
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without "
                                           "overflow"):
        x.clamp(max=1e40)
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        x.clamp()
    assert x.double().clamp(max=1e40).dtype is ember.float64


def test_equal_of_one_dtype_compares_the_arrays_as_the_general_path_does():
    nan = float("nan")
    cases = [([1.0, -0.0], [1.0, 0.0], True), ([nan], [nan], False), ([1, 2], [1, 3], False),
             ([], [], True), ([[True, False]], [[True, False]], True)]
    for a, b, want in cases:
        x, y = ember.tensor(a), ember.tensor(b)
        assert ember.equal(x, y) is want
        assert ember.equal(x, y) == bool((x == y).all()) or not x.numel()
    assert ember.equal(ember.tensor([1, 2]), ember.tensor([1.0, 2.0]))     # (promoted)
    assert not ember.equal(ember.ones(2), ember.ones(3))
