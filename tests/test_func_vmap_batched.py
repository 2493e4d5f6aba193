"""vmap refuses what torch's batched tensors refuse (NOTE [ vmap runs the function once per
batch element ]): .item(), data-dependent control flow, reading the data and dynamic output
shapes on values derived from the mapped inputs; everything else still runs."""
import numpy as np
import pytest

import ember
from ember.func import grad, jacrev, vmap

X = [[1., -2.], [-3., 1.]]

FLOW = "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow"
ITEM = r"vmap: It looks like you're calling \.item\(\) on a Tensor"
STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
MASK = "Attempting to batch over indexing with a boolean mask"
DYNAMIC = "vmap: We do not support batching operators that can output dynamic shape. " \
          "Attempted to vmap over aten::{}"


@pytest.mark.parametrize("f, message", [
    (lambda x: x if x.sum() > 0 else -x, FLOW),
    (lambda x: x if x.any() else -x, FLOW),
    (lambda x: x.max().item(), ITEM),
    (lambda x: x * float(x.sum()), ITEM),
    (lambda x: x * int(x.sum()), ITEM),
    (lambda x: x[:int(x.sum())], ITEM),
    (lambda x: ember.tensor(x.tolist()), STORAGE),
    (lambda x: (x.numpy(), x)[1], STORAGE),
    (lambda x: x[x > 0], MASK),
    (lambda x: x.clone().index_put_((x > 0,), ember.tensor(0.)), MASK),
    (lambda x: ember.nonzero(x), DYNAMIC.format("nonzero")),
    (lambda x: (x > 0).nonzero(), DYNAMIC.format("nonzero")),
    (lambda x: ember.unique(x), DYNAMIC.format("_unique2")),
    (lambda x: ember.where(x > 0)[0], DYNAMIC.format("where")),
    (lambda x: x.masked_select(x > 0), r"Attempted to vmap over `mask` in torch\.masked_select"),
])
def test_refused_on_values_from_the_mapped_input(f, message):
    with pytest.raises(RuntimeError, match=message):
        vmap(f)(ember.tensor(X))


def test_values_not_from_the_mapped_input_are_not_batched():
    c, m = ember.tensor(3.), ember.tensor([True, False])
    x = ember.tensor(X)
    # a captured constant, and anything computed from it alone
    r = vmap(lambda a: a * c.item() * (c * 0 + 1).item() if c > 0 else a)(x)
    assert np.array_equal(r.numpy(), np.array(X) * 3)
    # an in_dims=None input
    r = vmap(lambda a, b: a * b.item() if b > 0 else a, in_dims=(0, None))(x, c)
    assert np.array_equal(r.numpy(), np.array(X) * 3)
    # a mask not from the mapped input indexes each element
    assert np.array_equal(vmap(lambda a: a[m])(x).numpy(), [[1.], [-3.]])
    assert np.array_equal(vmap(lambda a: a.masked_select(m))(x).numpy(), [[1.], [-3.]])


def test_value_dependent_ops_of_fixed_shape_still_run():
    x = ember.tensor(X)
    assert np.array_equal(vmap(lambda a: ember.where(a > 0, a, 0.))(x).numpy(),
                          np.where(np.array(X) > 0, X, 0.))
    assert np.array_equal(vmap(lambda a: a[a.argmax()])(x).numpy(), [1., 1.])
    assert np.array_equal(vmap(lambda a: ember.sort(a)[0])(x).numpy(), np.sort(X, axis=1))


def test_nested_vmap_marks_the_inner_elements():
    x = ember.tensor(X)
    assert np.array_equal(vmap(vmap(lambda a: a * 2))(x).numpy(), np.array(X) * 2)
    with pytest.raises(RuntimeError, match=ITEM):
        vmap(vmap(lambda a: a.item()))(x)
    # the inner vmap's in_dims=None input is still batched by the outer one
    with pytest.raises(RuntimeError, match=ITEM):
        vmap(lambda r: vmap(lambda a, b: a * b.item(), in_dims=(0, None))(r, r.sum()))(x)


def test_vmap_of_grad_refuses_with_torch_message_for_both():
    x = ember.tensor(X)
    with pytest.raises(RuntimeError, match=r"either \(1\) calling \.item\(\) on a Tensor or "
                                           r"\(2\) attempting to use a Tensor"):
        vmap(grad(lambda y: y.sum() * y.sum().item()))(x)


def test_per_sample_gradients_and_transforms_inside_vmap_still_run():
    w, t, x = ember.tensor([0.5, -1.]), ember.tensor([1., 0.]), ember.tensor(X)
    g = vmap(grad(lambda w, x, t: ((x * w).sum() - t) ** 2), in_dims=(None, 0, 0))(w, x, t)
    xs, ts = np.array(X), np.array([1., 0.])
    want = 2 * ((xs * [0.5, -1.]).sum(1) - ts)[:, None] * xs     # d/dw (x.w - t)^2
    assert np.allclose(g.numpy(), want)
    # the backward formulas of prod and max run on batched values inside (ember's own code)
    j = vmap(jacrev(lambda a: a.prod()))(x)
    assert np.array_equal(j.numpy(), np.array(X)[:, ::-1])
    h = vmap(grad(lambda a: a.max()))(x)
    assert np.array_equal(h.numpy(), [[1., 0.], [0., 1.]])


def test_randomness_modes_still_apply():
    x = ember.tensor(X)
    r = vmap(lambda a: a * 0 + ember.rand(()), randomness="different")(x)
    assert r[0, 0].item() != r[1, 0].item()
    with pytest.raises(RuntimeError, match="randomness"):
        vmap(lambda a: a + ember.rand(2))(x)


def test_the_wrappers_are_gone_after_vmap():
    item, bool_ = ember.Tensor.item, ember.Tensor.__bool__
    with pytest.raises(RuntimeError):
        vmap(lambda a: a.item())(ember.ones(2))
    vmap(lambda a: a * 2)(ember.ones(2))
    assert ember.Tensor.item is item and ember.Tensor.__bool__ is bool_
    assert ember.ones(()).item() == 1.0


def test_data_of_a_batched_tensor_is_refused_except_under_grad():
    x, c = ember.tensor(X), ember.tensor([2., 3.])
    with pytest.raises(RuntimeError, match="accessing `data` under vmap transform is not allowed"):
        vmap(lambda a: (a * 2).data)(x)
    assert np.array_equal(vmap(lambda a: c.data * a)(x).numpy(), np.array(X) * [2., 3.])
    g = vmap(grad(lambda y: y.data.sum() + (y * y).sum()))(x)
    assert np.array_equal(g.numpy(), 2 * np.array(X))


def test_a_functions_vmap_rule_runs_on_plain_tensors():
    """A custom Function's vmap staticmethod runs below vmap's level (as torch's): its own
    calls may read the data (`.numpy()`), and its results are batched again for the caller."""
    class Take(ember.autograd.Function):
        @staticmethod
        def forward(x, ind, dim):
            return ember.tensor(np.take_along_axis(x.numpy(), ind.numpy(), dim))

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def vmap(info, in_dims, x, ind, dim):
            # (the logical dim is one further in: the batch dim comes first)
            return Take.apply(x.movedim(in_dims[0], 0), ind.movedim(in_dims[1], 0), dim + 1), 0

    x = ember.tensor([[3., 1., 2.], [0., 5., 4.]])
    ind = ember.tensor([[2, 0, 1], [1, 2, 0]])
    out = ember.func.vmap(lambda a, b: Take.apply(a, b, 0))(x, ind)
    np.testing.assert_array_equal(out.numpy(), [[2., 3., 1.], [5., 4., 0.]])
    with pytest.raises(RuntimeError, match="calling .item"):
        ember.func.vmap(lambda a, b: Take.apply(a, b, 0).sum().item())(x, ind)


NORM_STATS = "Batch norm got a batched tensor as input while the running_mean or running_var, " \
             "which will be updated in place, were not batched"


def _batch_norm_rows(x, mean, var, eps=1e-5):
    """NumPy's batch norm of each sample (N, C) of `x` (B, N, C) with its batch statistics,
    and the running statistics after one update of `mean`, `var` by each (momentum 0.1)."""
    mu = x.mean(1, keepdims=True)
    out = (x - mu) / np.sqrt(x.var(1, keepdims=True) + eps)
    return out, 0.9 * mean + 0.1 * mu[:, 0], 0.9 * var + 0.1 * x.var(1, ddof=1)


def test_batch_norm_refuses_to_update_running_statistics_that_are_not_batched():
    x = ember.tensor(np.arange(24.).reshape(3, 4, 2) ** 1.5, dtype=ember.float32)
    bn = ember.nn.BatchNorm1d(2)
    with pytest.raises(RuntimeError, match=NORM_STATS):
        vmap(bn)(x)
    assert bn.num_batches_tracked.item() == 1       # (counted before the call, as in torch)
    assert bn.running_mean.tolist() == [0., 0.]
    F = ember.nn.functional
    for f in (lambda t: F.batch_norm(t, ember.zeros(2), None, training=True),
              lambda t: ember.batch_norm(t, None, None, None, ember.ones(2), True, 0.1, 1e-5,
                                         False),
              ember.nn.InstanceNorm1d(4, track_running_stats=True),
              grad(lambda t: F.batch_norm(t, ember.zeros(2), ember.ones(2),
                                          training=True).sum())):
        with pytest.raises(RuntimeError, match=NORM_STATS):
            vmap(f)(x)


def test_batch_norm_under_vmap_where_torch_allows_it():
    xs = np.arange(24.).reshape(3, 4, 2) ** 1.5
    x = ember.tensor(xs)
    bn = ember.nn.BatchNorm1d(2, dtype=ember.float64)
    bn.eval()                               # the running statistics are only read
    np.testing.assert_allclose(vmap(bn)(x).detach().numpy(), xs / np.sqrt(1 + 1e-5))
    plain = ember.nn.BatchNorm1d(2, track_running_stats=False, dtype=ember.float64)
    want, mean, var = _batch_norm_rows(xs, np.zeros(2), np.ones(2))
    np.testing.assert_allclose(vmap(plain)(x).detach().numpy(), want, rtol=1e-6)
    # batched running statistics: each sample updates its own row
    means, vars_ = ember.zeros(3, 2, dtype=ember.float64), ember.ones(3, 2, dtype=ember.float64)
    out = vmap(lambda t, m, v: ember.nn.functional.batch_norm(t, m, v, training=True))(
        x, means, vars_)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(means.numpy(), mean, rtol=1e-6)
    np.testing.assert_allclose(vars_.numpy(), var, rtol=1e-6)
