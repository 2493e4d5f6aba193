"""Fixes found by running the examples of torch's docstrings under ember
(tests/oracle/test_snippets_docex_oracle.py compares them with torch); checked here against
values worked out by hand or with NumPy, so that runs without torch cover them."""
import warnings

import numpy as np
import pytest

import ember as torch


def _raises(exc, fn):
    with pytest.raises(exc) as info:
        fn()
    return str(info.value)


def test_a_post_accumulate_grad_hook_may_return_its_leaf():
    w = torch.tensor([1., 2.], requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda p: p.sub_(p.grad, alpha=0.5))
    (w * w).sum().backward()            # grad 2w = [2, 4]; the step subtracts half of it
    assert w.tolist() == [0., 0.] and w.grad.tolist() == [2., 4.]
    for hook, exc, text in [
            (lambda p: p.detach(), RuntimeError, "should return None"),
            (lambda p: 3, TypeError, "hook returned 'int'"),
            (lambda p: torch.zeros(4), RuntimeError, "has changed the size of value"),
            (lambda p: torch.zeros(2, dtype=torch.float64), RuntimeError,
             "(was torch.FloatTensor got torch.DoubleTensor)")]:
        v = torch.tensor([1., 2.], requires_grad=True)
        v.register_post_accumulate_grad_hook(hook)
        assert text in _raises(exc, lambda: v.sum().backward())


def test_asarray_keeps_or_drops_the_graph_as_requires_grad_says():
    leaf = torch.tensor([1., 2.], requires_grad=True)
    mid = leaf * 2
    kept = torch.asarray(mid, requires_grad=True)
    assert kept is mid
    dropped = torch.asarray(mid, requires_grad=False)
    assert dropped.grad_fn is None and not dropped.requires_grad
    assert dropped.data_ptr() == mid.data_ptr()
    copied = torch.asarray(mid, copy=True, requires_grad=True)
    assert type(copied.grad_fn).__name__ == "CloneBackward0"
    assert copied.data_ptr() != mid.data_ptr()
    wide = torch.asarray(mid, dtype=torch.float64)
    assert type(wide.grad_fn).__name__ == "ToCopyBackward0"
    assert torch.asarray(mid, dtype=torch.float64, requires_grad=False).grad_fn is None
    # a leaf passed through is the same tensor, its flag set as asked
    assert torch.asarray(leaf, requires_grad=False) is leaf and not leaf.requires_grad
    assert _raises(RuntimeError, lambda: torch.asarray(torch.tensor([1]), requires_grad=True)) \
        == "Only Tensors of floating point and complex dtype can require gradients"


def test_asarray_warns_when_requires_grad_is_left_to_the_input():
    w = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.set_warn_always(True)
        try:
            out = torch.asarray(w * 1)
            torch.asarray(w.detach())
        finally:
            torch.set_warn_always(False)
    assert out.requires_grad and out.grad_fn is not None
    assert [str(c.message)[:61] for c in caught] == \
        ["torch.asarray: unspecified requires_grad now defaults to obj."]


def test_round_to_negative_decimals_divides_by_the_power_of_ten():
    x = np.array([1200.1234567, -2550.5, 449.99, 7.0e6], np.float32)
    for d in (-1, -2, -3):
        ten = np.float32(10.0 ** -d)
        expected = np.round(x / ten) * ten
        assert torch.round(torch.from_numpy(x), decimals=d).numpy().tolist() == \
            expected.tolist()
    assert torch.round(torch.tensor([1200.1234567]), decimals=-3).tolist() == [1000.]
    assert torch.round(torch.tensor([0.1234567]), decimals=3).tolist() == \
        [float(np.float32(123.0) / np.float32(1000.))]
    half = torch.tensor([1234.], dtype=torch.float16).round(decimals=-2)
    assert half.dtype is torch.float16 and half.tolist() == [1200.]


def test_ldexp_warns_when_a_float_input_broadcasts_against_integer_exponents():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = torch.ldexp(torch.tensor([1.]), torch.tensor([1, 2, 3]))
        torch.ldexp(torch.tensor([1., 2.]), torch.tensor([1.5]))     # no warning:
        torch.ldexp(torch.tensor([1]), torch.tensor([1, 2]))         # float exponent, int input
        torch.ldexp(torch.tensor([1j]), torch.tensor([1, 2]))        # complex input
    assert out.tolist() == [2., 4., 8.]
    assert len(caught) == 1 and str(caught[0].message).startswith(
        "An output with one or more elements was resized since it had shape [1], which does "
        "not match the required output shape [3].")
    assert torch.ldexp(torch.tensor([1j]), torch.tensor([1, 2])).tolist() == [2j, 4j]


def test_dim_order_ambiguity_checks():
    assert torch.zeros(2, 3, 4, 5).dim_order(ambiguity_check=True) == (0, 1, 2, 3)
    cl = torch.zeros(2, 3, 4, 5).to(memory_format=torch.channels_last)
    assert cl.dim_order(ambiguity_check=[torch.channels_last]) == (0, 2, 3, 1)
    one = torch.zeros(1, 3, 4, 5)       # a size-1 dim: several orders fit
    assert one.dim_order() == (0, 1, 2, 3)
    assert "given memory formats" in _raises(RuntimeError,
                                             lambda: one.dim_order(ambiguity_check=True))
    assert one.dim_order(ambiguity_check=[torch.contiguous_format, torch.channels_last]) == \
        (0, 1, 2, 3)
    # strides 1, 4, 1: dims 0 and 2 tie, so the order by stride is not the only one
    tie = torch.zeros(64).as_strided((2, 2, 2), (1, 4, 1))
    assert tie.dim_order() == (1, 0, 2) and tie.dim_order(ambiguity_check=[]) == (1, 0, 2)
    assert _raises(RuntimeError, lambda: tie.dim_order(ambiguity_check=True)) == \
        "The tensor does not have unique dim order."
    for bad in ("yes", (torch.channels_last,), [torch.channels_last, 1]):
        assert _raises(TypeError, lambda: one.dim_order(ambiguity_check=bad)) == \
            "The ambiguity_check argument must be a bool or a list of memory formats."
    assert "takes 1 positional argument" in _raises(TypeError, lambda: one.dim_order(True))
