"""Sorting, sets and bins beyond the op table: torch's errors (types and texts, checked against
torch 2.13), out=(values, indices), topk(sorted=False), and the fast paths on large inputs."""
import numpy as np
import pytest

import ember


def t(values, dtype=None):
    return ember.tensor(values, dtype=dtype)


# -- sort / argsort / topk ----------------------------------------------------------------------

def test_sort_refuses_complex():
    with pytest.raises(RuntimeError, match="^ Sort does not support complex dtypes on CPU$"):
        ember.sort(t([1j, 2]))


def test_topk_refuses_bool_and_bad_k():
    with pytest.raises(RuntimeError, match="^topk does not support bool dtypes on CPU$"):
        ember.topk(t([True, False]), 1)
    with pytest.raises(RuntimeError, match="^selected index k out of range$"):
        ember.topk(t([[1.0, 2.0]]), 3)
    with pytest.raises(RuntimeError, match="^selected index k out of range$"):
        ember.topk(t([1.0, 2.0]), -1)


def test_sort_dim_out_of_range():
    with pytest.raises(IndexError, match=r"expected to be in range of \[-2, 1\], but got 3"):
        ember.sort(t([[1.0, 2.0]]), 3)


@pytest.mark.parametrize("name", ["sort", "topk"])
def test_out_values_indices(name):
    x = t([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    args = (2,) if name == "topk" else ()
    values, indices = ember.empty(0), ember.empty(0, dtype=ember.int64)
    result = getattr(ember, name)(x, *args, out=(values, indices))
    expected = getattr(ember, name)(x, *args)
    assert result.values is values and result.indices is indices
    assert type(result).__name__ == name + "_out"        # torch.return_types.sort_out
    assert values.tolist() == expected.values.tolist()
    assert indices.tolist() == expected.indices.tolist()
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int"):
        getattr(ember, name)(x, *args, out=(ember.empty(0), ember.empty(0, dtype=ember.int32)))


def test_out_refuses_autograd():
    x = t([3.0, 1.0], None).requires_grad_()
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        ember.sort(x, out=(ember.empty(0), ember.empty(0, dtype=ember.int64)))


def test_topk_unsorted_is_the_same_set():
    x = ember.tensor(np.random.default_rng(1).permutation(50).astype(np.float32))
    v, i = ember.topk(x, 7, sorted=False)
    assert sorted(v.tolist()) == list(range(43, 50))
    assert (x[i] == v).all()


def test_sort_names_its_node_by_overload():
    x = t([2.0, 1.0]).requires_grad_()
    assert type(ember.sort(x).values.grad_fn).__name__ == "SortBackward0"
    assert type(ember.sort(x, stable=False).values.grad_fn).__name__ == "SortBackward1"
    assert type(ember.msort(x).grad_fn).__name__ == "SortBackward0"
    assert type(ember.topk(x, 1).values.grad_fn).__name__ == "TopkBackward0"


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "float16", "uint8"])
@pytest.mark.parametrize("descending", [False, True])
def test_large_sort_is_stable_with_nan_largest(dtype, descending):
    rng = np.random.default_rng(0)
    a = rng.integers(0, 20, 100_000).astype(dtype)
    if a.dtype.kind == "f":
        a[rng.integers(0, a.size, 50)] = np.nan
        a[rng.integers(0, a.size, 50)] = -0.0
    v, i = ember.sort(ember.tensor(a), descending=descending, stable=True)
    key = np.where(np.isnan(a), np.inf, a).astype(np.float64) + 0.0 if a.dtype.kind == "f" \
        else a.astype(np.int64)
    rank = np.where(np.isnan(a), 1, 0) if a.dtype.kind == "f" else np.zeros(a.size, int)
    order = np.lexsort((np.arange(a.size), -key if descending else key,
                        -rank if descending else rank))
    np.testing.assert_array_equal(i.numpy(), order)
    np.testing.assert_array_equal(v.numpy(), a[order])


@pytest.mark.parametrize("largest", [True, False])
def test_large_topk_matches_a_full_sort(largest):
    rng = np.random.default_rng(2)
    a = rng.standard_normal(300_000).astype(np.float32)
    a[[5, 70_000]] = np.nan
    v, i = ember.topk(ember.tensor(a), 100, largest=largest)
    ordered = np.sort(a)            # NaN last
    expected = ordered[::-1][:100] if largest else ordered[:100]
    np.testing.assert_array_equal(v.numpy(), expected)
    np.testing.assert_array_equal(a[i.numpy()], v.numpy())


def test_sort_and_topk_gradients_go_to_the_indices():
    x = t([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], ember.float64).requires_grad_()
    v, _ = ember.topk(x, 2, dim=1)
    (v * t([[1.0, 10.0]], ember.float64)).sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 10.0], [0.0, 1.0, 10.0]]


# -- unique / unique_consecutive ----------------------------------------------------------------

def test_unique_nan_each_distinct():
    values, counts = ember.unique(t([1.0, np.nan, 1.0, np.nan]), return_counts=True)
    assert values.tolist()[0] == 1.0 and np.isnan(values.tolist()[1:]).all()
    assert counts.tolist() == [2, 1, 1]


def test_unique_backward_raises():
    x = t([2.0, 1.0, 2.0]).requires_grad_()
    for y, node, what in [(ember.unique(x), "Unique2Backward0", "_unique2"),
                          (ember.unique(x, dim=0), "UniqueDimBackward0", "unique_dim"),
                          (ember.unique_consecutive(x), "UniqueConsecutiveBackward0",
                           "unique_consecutive")]:
        assert type(y.grad_fn).__name__ == node
        with pytest.raises(NotImplementedError,
                           match=f"^the derivative for '{what}' is not implemented.$"):
            y.sum().backward()


def test_unique_errors():
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no dimensions$"):
        ember.unique(t(5.0), dim=0)
    with pytest.raises(RuntimeError, match="aren't selected, so unique cannot be applied"):
        ember.unique(ember.zeros(0, 3), dim=1)
    with pytest.raises(NotImplementedError, match="\"unique\" not implemented for 'ComplexFloat'"):
        ember.unique(t([1j]))


# -- searchsorted / bucketize ------------------------------------------------------------------

def test_searchsorted_errors():
    b = t([1.0, 3.0, 5.0, 7.0])
    v = t([3.0, 6.0])
    cases = [
        (dict(side="middle"), "side can only be 'left' or 'right' but got middle"),
        (dict(side="left", right=True), "side and right can't be set to opposites, got side of "
                                        "left while right was True"),
        (dict(sorter=t([0, 1, 2])), r"boundary and sorter must have the same size, but got "
                                    r"boundary tensor \[4\]and got sorter tensor \[3\]"),
        (dict(sorter=t([0, 1, 2, 5])), "sorter index out of range"),
        (dict(sorter=t([0, 1, 2, 3], ember.int32)), "sorter must be a tensor of long dtype but "
                                                    "got dtype Int"),
        (dict(out=ember.empty(0, dtype=ember.int32)),
         "output tensor's dtype is wrong, it can only be Int\\(int32\\) or Long\\(int64\\) "
         "depending on whether out_int32 flag is True, but we got output tensor's dtype Int "
         "and out_int32 flag is False"),
    ]
    for kwargs, message in cases:
        with pytest.raises(RuntimeError, match=message):
            ember.searchsorted(b, v, **kwargs)
    with pytest.raises(RuntimeError, match="should have positive dimension, but got 0"):
        ember.searchsorted(t(1.0), v)
    with pytest.raises(RuntimeError, match=r"but we got boundaries tensor \[2, 2\] and input "
                                           r"value tensor \[2\]"):
        ember.searchsorted(b.view(2, 2), v)
    with pytest.raises(NotImplementedError,
                       match="\"searchsorted_out_cpu\" not implemented for 'Bool'"):
        ember.searchsorted(t([False, True]), t(True))
    with pytest.raises(RuntimeError, match=r"^boundaries tensor must be 1 dimension, but got "
                                           r"dim\(2\)$"):
        ember.bucketize(v, b.view(2, 2))


def test_searchsorted_scalar_and_sorter():
    b = t([5.0, 1.0, 3.0])
    assert ember.searchsorted(t([1, 3, 5]), 3.5).item() == 2
    assert ember.searchsorted(b, t([3.0, 6.0]), sorter=t([1, 2, 0])).tolist() == [1, 3]
    assert ember.bucketize(3, t([1, 3, 5]), right=True).item() == 2


# -- isin / histc / bincount ---------------------------------------------------------------------

def test_isin_errors():
    with pytest.raises(RuntimeError, match="^Unsupported input type encountered for isin\\(\\): "
                                           "Bool$"):
        ember.isin(t([1, 2]), t(True))
    with pytest.raises(TypeError):
        ember.isin(1, 2)


def test_histc_errors():
    x = t([1.0, 2.0])
    with pytest.raises(RuntimeError, match="^torch.histc: max must be larger than min$"):
        ember.histc(x, 4, 3, 0)
    with pytest.raises(RuntimeError, match="bins must be > 0, but got 0 for dimension 0"):
        ember.histc(x, 0)
    with pytest.raises(RuntimeError, match=r"^torch.histc: range of \[1, inf\] is not finite$"):
        ember.histc(t([1.0, np.inf]), 4)
    with pytest.raises(NotImplementedError, match="\"histogram_cpu\" not implemented for 'Long'"):
        ember.histc(t([1, 2]), 4)
    assert ember.histc(t([1.0, np.inf]), 4, 0, 2).tolist() == [0, 0, 1, 0]
    assert ember.histc(t(2.0), 4).tolist() == [0, 0, 1, 0]


def test_bincount_errors():
    i = t([0, 2, 2, 5])
    message = "^bincount only supports 1-d non-negative integral inputs.$"
    for bad in (-i, i.view(2, 2), t(3)):
        with pytest.raises(RuntimeError, match=message):
            ember.bincount(bad)
    with pytest.raises(RuntimeError, match="^minlength should be >= 0$"):
        ember.bincount(i, minlength=-1)
    with pytest.raises(RuntimeError, match="^weights should be 1-d and have the same length"):
        ember.bincount(i, t([1.0, 2.0]))
    with pytest.raises(NotImplementedError, match="\"bincount_cpu\" not implemented for 'Float'"):
        ember.bincount(i.float())


def test_bincount_weights_have_no_derivative():
    w = t([1.0, 2.0, 3.0, 4.0]).requires_grad_()
    y = ember.bincount(t([0, 2, 2, 5]), w)
    assert type(y.grad_fn).__name__ == "NotImplemented"
    assert y.tolist() == [1, 0, 5, 0, 0, 4]
    with pytest.raises(RuntimeError, match="^derivative for aten::bincount is not implemented$"):
        y.sum().backward()


def test_sort_results_take_the_inputs_layout_and_topk_is_row_major():
    # torch allocates sort's results with empty_like(input): its strides where it is dense
    y = ember.arange(24.).reshape(2, 3, 4).transpose(1, 2)          # strides (12, 1, 4)
    assert y.sort(1).values.stride() == (12, 1, 4)
    assert y.sort(2).indices.stride() == (12, 1, 4) and y.argsort(1).stride() == (12, 1, 4)
    assert ember.ones(3, 1).sort(0).values.stride() == (1, 1)
    assert ember.ones(2, 3)[:, ::2].sort(0).values.stride() == (2, 1)   # sliced: row-major
    assert ember.ones(3, 1).topk(2, 0).values.stride() == (1, 1)
    np.testing.assert_array_equal(y.sort(1).values.numpy(), np.sort(y.numpy(), axis=1))
