"""Fixes found by fuzzing tensor printing against torch (tests/oracle/
test_snippets_printing_fuzz_oracle.py holds the snippets): the expected texts follow torch's
rules, worked out by hand."""
import numpy as np
import pytest

import ember


# -- reshape's node: view for a contiguous tensor, _reshape_alias for a strided one ------------

def test_reshape_of_a_contiguous_tensor_records_a_view():
    x = ember.ones(6, requires_grad=True)
    assert type(x.reshape(2, 3).grad_fn).__name__ == "ViewBackward0"


@pytest.mark.parametrize("shape", [(-1,), (3, 1), (1, 3)])
def test_reshape_that_views_a_strided_tensor_records_reshape_alias(shape):
    x = ember.arange(6.)[::2].requires_grad_()
    y = x.reshape(*shape)
    assert type(y.grad_fn).__name__ == "ReshapeAliasBackward0"
    y.backward(ember.tensor([1., 2., 3.]).reshape(shape))
    np.testing.assert_array_equal(x.grad.numpy(), [1., 2., 3.])


def test_reshape_that_must_copy_still_records_unsafe_view():
    x = ember.arange(6.).reshape(2, 3).t().requires_grad_()
    assert type(x.reshape(-1).grad_fn).__name__ == "UnsafeViewBackward0"
    assert type(x.reshape(3, 1, 2).grad_fn).__name__ == "ReshapeAliasBackward0"


def test_view_of_a_strided_tensor_is_still_a_view_node():
    x = ember.arange(6.)[::2].requires_grad_()
    assert type(x.view(3).grad_fn).__name__ == "ViewBackward0"
