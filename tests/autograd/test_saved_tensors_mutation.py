"""autograd.graph.allow_mutation_on_saved_tensors, and disable_saved_tensors_hooks refusing to
start while saved-tensor hooks are in use (both as torch's)."""
import numpy as np
import pytest

import ember as torch

graph = torch.autograd.graph


def test_a_saved_tensor_modified_in_place_gives_the_gradient_of_its_saved_value():
    with graph.allow_mutation_on_saved_tensors() as ctx:
        a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
        b = a * 1
        out = (b ** 2).sum() + b.exp().sum()
        b.sin_()                                        # b was saved by pow and exp
        out.backward()
    np.testing.assert_allclose(a.grad.numpy(), 2 * np.array([0.5, 1, 2]) +
                               np.exp([0.5, 1, 2]), rtol=1e-6)
    np.testing.assert_allclose(b.detach().numpy(), np.sin([0.5, 1, 2]), rtol=1e-6)
    assert type(ctx).__name__ == "_AllowMutationOnSavedContext"


def test_outside_the_block_torch_s_errors():
    x = torch.ones(2, requires_grad=True)
    y = x * 1
    z = y * y
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    with graph.allow_mutation_on_saved_tensors():
        z = (x * 3) ** 2
    with pytest.raises(AssertionError, match="Trying to backward outside of the"):
        z.sum().backward()
    with graph.allow_mutation_on_saved_tensors():
        with pytest.raises(RuntimeError, match="^allow_mutation_on_saved_tensors contexts "
                                               "cannot be nested$"):
            with graph.allow_mutation_on_saved_tensors():
                pass
    with graph.allow_mutation_on_saved_tensors():       # (the refused one closed nothing)
        pass


def test_disabling_saved_tensor_hooks_while_they_run_is_refused():
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        with pytest.raises(RuntimeError, match="^no hooks here$"):
            with graph.disable_saved_tensors_hooks("no hooks here"):
                pass
        a = torch.ones(2, requires_grad=True)
        (a * a).sum().backward()                        # (the hooks still work)
    assert a.grad.tolist() == [2.0, 2.0]
    with graph.disable_saved_tensors_hooks("outer"):
        with pytest.raises(RuntimeError, match="^outer$"):
            with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
