"""Statistics and scans: torch's errors (type and text), out= of the tuple-returning ops, and
a few behaviours the operator table cannot express. Values are worked out by hand."""
import math
import re

import numpy as np
import pytest

import ember

X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def x():
    return ember.tensor(X)


ERRORS = [
    (lambda: ember.norm(ember.ones(0), float("inf")), RuntimeError,
     "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation "
     "does not have an identity"),
    (lambda: ember.norm(ember.ones(0), -1), RuntimeError,
     "linalg.vector_norm cannot compute the -1 norm on an empty tensor"),
    (lambda: ember.norm(ember.tensor([1, 2])), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: ember.norm(x().half(), "nuc"), RuntimeError,
     "linalg.matrix_norm: Low precision dtypes not supported. Got Half"),
    (lambda: ember.norm(x().to(ember.complex64), 2, dtype=ember.float64), RuntimeError,
     "linalg.vector_norm: dtype should be complex for complex inputs, but got Double"),
    (lambda: ember.aminmax(ember.ones(0)), RuntimeError,
     "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
     "identity."),
    (lambda: ember.aminmax(ember.ones(0, 2), dim=0), IndexError,
     "aminmax: Expected reduction dim 0 to have non-zero size."),
    (lambda: ember.aminmax(x().to(ember.complex64)), NotImplementedError,
     "\"aminmax_cpu\" not implemented for 'ComplexFloat'"),
    (lambda: ember.kthvalue(x(), 4, 1), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 1"),
    (lambda: ember.kthvalue(x(), 0), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 1"),
    (lambda: ember.median(ember.ones(0, 2), 0), IndexError,
     "median(): Expected reduction dim 0 to have non-zero size."),
    (lambda: ember.median(ember.tensor([True])), NotImplementedError,
     "\"median_cpu\" not implemented for 'Bool'"),
    (lambda: ember.mode(ember.ones(0, 2), 0), IndexError,
     "mode(): Expected reduction dim 0 to have non-zero size."),
    (lambda: ember.quantile(x(), 1.5), RuntimeError,
     "quantile() q must be in the range [0, 1] but got 1.5"),
    (lambda: ember.quantile(x(), -0.1), RuntimeError,
     "quantile() q must be in the range [0, 1] but got -0.1"),
    (lambda: ember.quantile(x(), ember.tensor([0.5, 2.0])), RuntimeError,
     "quantile() q values must be in the range [0, 1]"),
    (lambda: ember.quantile(x(), 0.5, interpolation="foo"), RuntimeError,
     "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but "
     "got foo"),
    (lambda: ember.quantile(x(), ember.tensor([[0.5]])), RuntimeError,
     "quantile() q must be a scalar or 1D tensor"),
    (lambda: ember.quantile(x(), ember.tensor([0.5], dtype=ember.float64)), RuntimeError,
     "quantile() q tensor must be same dtype as the input tensor"),
    (lambda: ember.quantile(ember.ones(0), 0.5), RuntimeError,
     "quantile() input tensor must be non-empty"),
    (lambda: ember.nanquantile(ember.tensor([1, 2]), 0.5), RuntimeError,
     "quantile() input tensor must be either float or double dtype"),
    (lambda: ember.nansum(x().to(ember.complex64)), RuntimeError,
     "nansum on CPU does not support complex inputs"),
    (lambda: ember.nanmean(ember.tensor([1, 2])), RuntimeError,
     "nanmean(): expected input to have floating point or complex dtype but got Long"),
    (lambda: ember.var(ember.tensor([1, 2])), RuntimeError,
     "std and var only support floating point and complex dtypes"),
    (lambda: ember.std_mean(ember.tensor([1, 2])), RuntimeError,
     "std_mean only support floating point and complex dtypes"),
    (lambda: ember.var(x(), 5), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
    (lambda: ember.var(x(), 1, True, correction=1), TypeError, "var()"),
    (lambda: ember.tensor([True]).cumsum_(0), NotImplementedError,
     "\"cumsum_out_cpu\" not implemented for 'Bool'"),
    (lambda: x().cumsum_(0, dtype=ember.float64), RuntimeError,
     "Bad in-place call: input tensor dtype float and output tensor dtype double should match"),
    (lambda: ember.cumsum(x(), 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: ember.logcumsumexp(ember.tensor([1, 2]), 0), NotImplementedError,
     "\"logcumsumexp_out_cpu\" not implemented for 'Long'"),
    (lambda: ember.cummax(x().to(ember.complex64), 0), NotImplementedError,
     "\"cummax_cpu\" not implemented for 'ComplexFloat'"),
    (lambda: ember.diff(ember.tensor(1.0)), RuntimeError,
     "diff expects input to be at least one-dimensional"),
    (lambda: ember.diff(x(), n=-1), RuntimeError, "order must be non-negative but got -1"),
    (lambda: ember.diff(x(), prepend=ember.ones(3)), RuntimeError,
     "diff expects prepend or append to be the same dimension as input"),
    (lambda: ember.logsumexp(x()), TypeError, "dim"),
    (lambda: ember.cumsum(x()), TypeError, "dim"),
]


@pytest.mark.parametrize("call,kind,text", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors(call, kind, text):
    with pytest.raises(kind, match=re.escape(text)):
        call()


def test_zero_degrees_of_freedom_warn_and_give_nan_or_inf():
    with pytest.warns(UserWarning, match=re.escape("var(): degrees of freedom is <= 0")):
        assert math.isnan(ember.var(ember.tensor([2.0])).item())
    with pytest.warns(UserWarning, match=re.escape("std(): degrees of freedom is <= 0")):
        assert ember.std(ember.tensor([1.0, 3.0]), correction=2).item() == math.inf


def test_var_call_forms():
    t = x()
    assert ember.var(t, True).item() == pytest.approx(3.5)            # var(x, unbiased)
    assert ember.var(t, False).item() == pytest.approx(35 / 12)
    v = ember.var(t, 1, False, True)                                  # (dim, unbiased, keepdim)
    assert v.shape == (2, 1) and v.flatten().tolist() == pytest.approx([2 / 3, 2 / 3])
    assert ember.std(t, dim=1, correction=0).tolist() == pytest.approx([(2 / 3) ** 0.5] * 2)
    v, m = ember.var_mean(t, 0)
    assert v.tolist() == pytest.approx([4.5] * 3) and m.tolist() == [2.5, 3.5, 4.5]


@pytest.mark.parametrize("fn,args,kind", [
    (ember.aminmax, (), "aminmax"), (ember.median, (1,), "median"),
    (ember.nanmedian, (1,), "nanmedian"), (ember.kthvalue, (2, 1), "kthvalue"),
    (ember.mode, (1,), "mode"), (ember.cummax, (1,), "cummax"), (ember.cummin, (1,), "cummin")])
def test_out_pairs(fn, args, kind):
    """out=(a, b) of the tuple-returning ops: filled, returned, and refused for a wrong dtype."""
    kwargs = {"dim": 1} if fn is ember.aminmax else {}
    want = fn(x(), *args, **kwargs)
    first = ember.empty(0)
    second = ember.empty(0, dtype=want[1].dtype)
    got = fn(x(), *args, **kwargs, out=(first, second))
    assert type(got).__name__ == kind + "_out" and got[0] is first and got[1] is second
    assert first.tolist() == want[0].tolist() and second.tolist() == want[1].tolist()
    with pytest.raises(RuntimeError):
        fn(x(), *args, **kwargs, out=(ember.empty(0, dtype=ember.int64), ember.empty(0)))


def test_order_statistics_by_hand():
    nan = float("nan")
    t = ember.tensor([[1.0, nan, 2.0, nan], [3.0, 1.0, 2.0, 0.0]])
    m = t.median(1)
    assert math.isnan(m.values[0].item()) and m.indices.tolist() == [1, 1]   # first NaN
    assert t.nanmedian(1).values.tolist() == [1.0, 1.0]
    assert ember.tensor([1.0, 2, 2, 3, 2, 1, 1]).mode(0).indices.item() == 6  # last occurrence
    assert ember.tensor([4.0, 1.0, 3.0, 2.0]).median().item() == 2.0        # the lower median


def test_quantile_by_hand():
    t = ember.tensor([0.0, 1.0, 2.0, 3.0, 4.0])
    q = 0.375                                   # rank 1.5
    assert [ember.quantile(t, q, interpolation=i).item() for i in
            ("linear", "lower", "higher", "midpoint", "nearest")] == [1.5, 1.0, 2.0, 1.5, 2.0]
    assert ember.quantile(t, ember.tensor([0.0, 1.0])).tolist() == [0.0, 4.0]
    assert ember.nanquantile(ember.tensor([nan_ for nan_ in (float("nan"), 1.0, 3.0)]),
                             0.5).item() == 2.0


def test_cumprod_gradient_with_zeros_is_twice_differentiable():
    a = ember.tensor([2.0, 0.0, 3.0, 0.0, 5.0], dtype=ember.float64, requires_grad=True)
    (g,) = ember.autograd.grad(a.cumprod(0).sum(), a, create_graph=True)
    # d/da1 of sum(cumprod): 2 + 2*3 + 0 + 0 = 8; after the first zero every term has it
    assert g.tolist() == [1.0, 8.0, 0.0, 0.0, 0.0]
    (gg,) = ember.autograd.grad(g[1], a)
    # g1 = a0 + a0*a2 + a0*a2*a3 + a0*a2*a3*a4
    assert gg.tolist() == [4.0, 0.0, 2.0, 36.0, 0.0]


def test_node_names():
    t = ember.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    names = {
        "StdBackward0": t.std(), "VarBackward0": t.var(1),
        "LinalgVectorNormBackward0": t.norm(), "SumBackward1": ember.norm(t, "nuc"),
        "LogsumexpBackward0": t.logsumexp(1), "NansumBackward0": t.nansum(),
        "DivBackward0": t.nanmean(), "MedianBackward0": t.median(),
        "MedianBackward1": t.median(1)[0], "KthvalueBackward0": t.kthvalue(1)[0],
        "SqueezeBackward4": t.quantile(0.5), "CumsumBackward0": t.cumsum(1),
        "CumprodBackward0": t.cumprod(1), "CummaxBackward0": t.cummax(1)[0],
        "LogcumsumexpBackward0": t.logcumsumexp(1), "SubBackward0": t.diff(),
        "AminmaxBackward0": t.aminmax()[0], "StdMeanBackward0": ember.std_mean(t)[0],
    }
    for name, y in names.items():
        assert type(y.grad_fn).__name__ == name


def test_logcumsumexp_gradient_with_large_inputs():
    """No overflow where exp(x) alone would overflow: sum over i >= k of g_i exp(x_k - out_i)."""
    a = np.array([1000.0, 1001.0, 999.0, -1000.0])
    g = np.array([1.0, -2.0, 0.5, 3.0])
    out = np.logaddexp.accumulate(a)
    want = [sum(g[i] * np.exp(a[k] - out[i]) for i in range(k, 4)) for k in range(4)]
    x = ember.tensor(a, requires_grad=True)
    (got,) = ember.autograd.grad(x.logcumsumexp(0), x, ember.tensor(g))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


@pytest.mark.parametrize("fn,args", [
    (lambda t, **kw: ember.aminmax(t, dim=1, **kw), ()), (ember.median, (1,)),
    (ember.kthvalue, (1, 1)), (ember.mode, (1,)), (ember.cummax, (1,))])
def test_out_pairs_need_exact_dtypes(fn, args):
    t = ember.tensor(np.ones((3, 4), np.float32))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype"):
        fn(t, *args, out=(ember.empty(0, dtype=ember.float64), ember.empty(0, dtype=ember.int64)))
