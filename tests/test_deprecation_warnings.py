"""Deprecation and implicit-argument warnings with torch's categories and texts: softmax's
family names itself, torch.cholesky and torch.chain_matmul warn once per process (as torch's
TORCH_WARN_ONCE), torch.testing.assert_allclose warns on every call and keeps its old
tolerances."""
import warnings

import pytest

import ember
from ember import _config
F = ember.nn.functional


def caught(fn):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        fn()
    return [(w.category, str(w.message)) for w in rec]


@pytest.mark.parametrize("name", ["softmax", "softmin", "log_softmax"])
def test_implicit_dim_warning_names_the_function(name):
    [(category, text)] = caught(lambda: getattr(F, name)(ember.ones(2, 3)))
    assert category is UserWarning
    assert text == (f"Implicit dimension choice for {name} has been deprecated. Change the call "
                    f"to include dim=X as an argument.")


@pytest.fixture
def fresh_once():
    _config._warned.clear()
    yield
    _config._warned.clear()


@pytest.mark.parametrize("call, start", [
    (lambda: ember.cholesky(ember.eye(2)), "torch.cholesky is deprecated in favor of "
                                           "torch.linalg.cholesky"),
    (lambda: ember.chain_matmul(ember.eye(2), ember.eye(2)),
     "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
     "torch.linalg.multi_dot instead"),
])
def test_deprecated_linalg_warns_once(fresh_once, call, start):
    first = caught(call)
    assert len(first) == 1 and first[0][0] is UserWarning and first[0][1].startswith(start)
    assert caught(call) == []
    ember.set_warn_always(True)
    try:
        assert len(caught(call)) == 1
    finally:
        ember.set_warn_always(False)


def test_cholesky_warning_text_and_values(fresh_once):
    [(_, text)] = caught(lambda: ember.cholesky(ember.tensor([[4.0, 2.0], [2.0, 5.0]])))
    assert text.split("\n")[1:4] == ["L = torch.cholesky(A)", "should be replaced with",
                                     "L = torch.linalg.cholesky(A)"]
    assert ember.cholesky(ember.tensor([[4.0, 2.0], [2.0, 5.0]])).tolist() == [[2.0, 0.0],
                                                                                [1.0, 2.0]]


def test_assert_allclose_warns_every_call():
    for _ in range(2):
        [(category, text)] = caught(lambda: ember.testing.assert_allclose(ember.ones(2),
                                                                          ember.ones(2)))
        assert category is FutureWarning
        assert text.startswith("`torch.testing.assert_allclose()` is deprecated since 1.12")


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_assert_allclose_old_tolerances_and_conversions():
    check = ember.testing.assert_allclose
    check(ember.tensor(1.0), ember.tensor(1.0 + 2e-5))       # atol 1e-5 + rtol 1e-4 * 1
    with pytest.raises(AssertionError, match=r"up to 0\.0001 allowed"):
        check(ember.tensor(1.0), ember.tensor(1.0 + 2e-4))
    check(ember.ones(2), [1, 1])                                 # a list: of actual's dtype
    check(ember.ones(2), ember.ones(2, dtype=ember.float64))     # dtypes may differ
    check(ember.tensor([1.0, float("nan")]), ember.tensor([1.0, float("nan")]))
    check(ember.tensor(1.0), ember.tensor(1.1), rtol=0.2, atol=0)
    with pytest.raises(AssertionError, match="^boom$"):
        check(ember.tensor([1.0, 2.0]), ember.tensor([1.0, 3.0]), msg="boom")
    with pytest.raises(ValueError, match="must be either specified or omitted"):
        check(ember.tensor(1.0), ember.tensor(1.1), rtol=0.2)
