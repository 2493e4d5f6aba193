"""torch's two once-per-process sparse warnings (ember/sparse/_warnings.py): invariant checks
implicitly off at a factory called without check_invariants=, and the compressed layouts'
beta state at the first compressed tensor made."""
import warnings

import pytest

import ember

INVARIANTS = ("Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) "
              "will occur when operating on a sparse tensor which violates the invariants, but "
              "checks incur performance overhead. To silence this warning, explicitly opt in "
              "or out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance. ")


def _messages(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert all(w.filename == __file__ for w in caught)
    return [str(w.message) for w in caught]


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(ember._config, "_warned", set())    # (no once used up yet)


def coo(**kw):
    return ember.sparse_coo_tensor(ember.tensor([[0], [1]]), ember.tensor([1.]), (2, 2), **kw)


def csr(**kw):
    return ember.sparse_csr_tensor(ember.tensor([0, 1, 2]), ember.tensor([1, 0]),
                                   ember.ones(2), (2, 2), **kw)


def test_a_factory_without_check_invariants_warns_once(fresh):
    assert _messages(lambda: coo(check_invariants=False)) == []      # (opted out)
    assert _messages(coo) == [INVARIANTS]
    assert _messages(coo) == []                                      # once per process
    assert _messages(lambda: ember.eye(2).to_sparse()) == []         # (no factory)


def test_the_warning_comes_before_the_factorys_errors(fresh):
    def bad():
        with pytest.raises(RuntimeError, match="indices and values must have same nnz"):
            ember.sparse_coo_tensor(ember.tensor([[0], [1]]), ember.tensor([1., 2.]), (2, 2))
    assert _messages(bad) == [INVARIANTS]


def test_checked_invariants_do_not_warn(fresh):
    assert _messages(lambda: coo(check_invariants=True)) == []
    with ember.sparse.check_sparse_tensor_invariants():
        assert _messages(coo) == []


def test_the_first_compressed_tensor_warns_of_the_beta_once_for_all_layouts(fresh):
    beta = ("Sparse {} tensor support is in beta state. If you miss a functionality in the "
            "sparse tensor support, please submit a feature request to "
            "https://github.com/pytorch/pytorch/issues.")
    assert _messages(lambda: ember.eye(2).to_sparse_csc()) == [beta.format("CSC")]
    assert _messages(lambda: ember.eye(2).to_sparse_csr()) == []
    ember._config._warned.clear()
    assert _messages(csr) == [INVARIANTS, beta.format("CSR")]


def test_warn_always_repeats_them(fresh):
    ember.set_warn_always(True)
    try:
        assert len(_messages(coo)) == 1 and len(_messages(coo)) == 1
        assert len(_messages(lambda: ember.eye(2).to_sparse_csr())) == 1
        assert len(_messages(lambda: ember.eye(2).to_sparse_csr())) == 1
    finally:
        ember.set_warn_always(False)
