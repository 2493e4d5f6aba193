"""A NaN fails LAPACK's SVD: torch's LinAlgError text for every linalg function built on it."""
import pytest

import ember

_TEXT = ("^linalg.svd: The algorithm failed to converge because the input matrix contained "
         "non-finite values.$")


@pytest.mark.parametrize("call", [
    lambda a: ember.linalg.svdvals(a),
    lambda a: ember.linalg.svd(a),
    lambda a: ember.linalg.cond(a, "nuc"),
    lambda a: ember.linalg.cond(a),
    lambda a: ember.linalg.pinv(a),
])
def test_nan_fails_the_svd_with_torchs_text(call):
    a = ember.tensor([[float("nan"), 0.], [0., 1.]])
    with pytest.raises(ember.linalg.LinAlgError, match=_TEXT):
        call(a)


def test_infinite_entries_do_not_raise():
    # torch (LAPACK) returns nan here rather than failing: cond(..., 'nuc') of [[inf, 0], [0, 1]]
    value = ember.linalg.cond(ember.tensor([[float("inf"), 0.], [0., 1.]]), "nuc")
    assert value.isnan().item()
