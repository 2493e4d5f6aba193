"""nn.utils.prune: masks worked out by hand (norms, counts, torch's choice among ties traced
through libstdc++'s selection), the parameter/buffer/hook layout, iterative pruning, remove,
global pruning, the random methods against the generator's own draws, and the error texts."""
import numpy as np
import pytest

import ember
from ember import nn
from ember.nn.utils import prune
from ember._ops._libstdcxx_select import topk_positions


def _linear(weight, bias=None):
    w = np.array(weight, np.float32)
    m = nn.Linear(w.shape[1], w.shape[0], bias=bias is not None)
    with ember.no_grad():
        m.weight.copy_(ember.tensor(w))
        if bias is not None:
            m.bias.copy_(ember.tensor(bias))
    return m


def _np(t):
    return t.detach().numpy()


# -- l1_unstructured and the layout ---------------------------------------------------------------

def test_l1_unstructured_layout_and_values():
    m = _linear([[0.1, -2.0, 0.3], [4.0, -0.05, 0.6]], bias=[1.0, 2.0])
    w = m.weight
    assert prune.l1_unstructured(m, "weight", amount=2) is m
    np.testing.assert_array_equal(_np(m.weight_mask), [[0, 1, 1], [1, 0, 1]])
    np.testing.assert_array_equal(_np(m.weight), np.float32([[0, -2.0, 0.3], [4.0, 0, 0.6]]))
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_orig"]
    assert [n for n, _ in m.named_buffers()] == ["weight_mask"]
    assert list(m.state_dict()) == ["bias", "weight_orig", "weight_mask"]
    assert m.weight_orig is w and not isinstance(m.weight, nn.Parameter)
    hooks = list(m._forward_pre_hooks.values())
    assert len(hooks) == 1 and isinstance(hooks[0], prune.L1Unstructured)
    assert hooks[0]._tensor_name == "weight" and hooks[0].amount == 2
    assert prune.is_pruned(m) and prune.is_pruned(nn.Sequential(nn.ReLU(), m))


def test_fraction_rounds_half_to_even():
    m = _linear([[1.0, 2.0, 3.0, 4.0, 5.0]])
    prune.l1_unstructured(m, "weight", amount=0.5)          # round(2.5) == 2
    np.testing.assert_array_equal(_np(m.weight_mask), [[0, 0, 1, 1, 1]])
    m = _linear([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])
    prune.l1_unstructured(m, "weight", amount=0.25)         # round(1.5) == 2
    np.testing.assert_array_equal(_np(m.weight_mask), [[0, 0, 1, 1, 1, 1]])


def test_forward_recomputes_and_gradient_is_masked():
    m = _linear([[1.0, -3.0], [0.5, 2.0]], bias=[0.0, 0.0])
    prune.l1_unstructured(m, "weight", amount=1)            # prunes 0.5
    with ember.no_grad():
        m.weight_orig.mul_(2)
    np.testing.assert_array_equal(_np(m.weight), [[1.0, -3.0], [0.0, 2.0]])   # not yet
    out = m(ember.tensor([[1.0, 1.0]]))
    np.testing.assert_array_equal(_np(m.weight), [[2.0, -6.0], [0.0, 4.0]])
    np.testing.assert_array_equal(_np(out), [[-4.0, 4.0]])
    out.sum().backward()
    np.testing.assert_array_equal(_np(m.weight_orig.grad), [[1.0, 1.0], [0.0, 1.0]])


def test_importance_scores_pick_the_entries():
    m = _linear([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    scores = ember.tensor([[5.0, 1.0, 3.0], [0.5, 9.0, 2.0]])
    prune.l1_unstructured(m, "weight", amount=2, importance_scores=scores)
    np.testing.assert_array_equal(_np(m.weight_mask), [[1, 0, 1], [0, 1, 1]])
    np.testing.assert_array_equal(_np(m.weight), [[1, 0, 3], [0, 5, 6]])


# -- ties ------------------------------------------------------------------------------------------

def test_ties_follow_libstdcxx_nth_element():
    # nth_element(3rd of 10 equal values): the median-of-three pivot moves index 5 to the
    # front, Hoare swaps pair (1,9) (2,8) (3,7) (4,6) and cuts at 5; then [8,9,5,7,6] is
    # partitioned around 5 with cut 3, leaving 8, 6, 7 first.
    assert topk_positions(np.zeros(10, np.float32), 3, False).tolist() == [6, 7, 8]
    assert topk_positions(np.zeros(10, np.float32), 3, True).tolist() == [6, 7, 8]
    # k * 64 <= n: partial_sort's heap keeps the first k
    assert topk_positions(np.zeros(200, np.float32), 3, False).tolist() == [0, 1, 2]
    # no tie at the k-th place: the plain answer
    assert topk_positions(np.array([3.0, 1.0, 2.0, 1.0]), 2, False).tolist() == [1, 3]
    # NaN is the largest value
    vals = np.array([1.0, np.nan, 5.0, 2.0])
    assert topk_positions(vals, 1, True).tolist() == [1]
    assert topk_positions(vals, 3, False).tolist() == [0, 2, 3]


def test_l1_unstructured_ties_as_torch():
    m = _linear(np.ones((2, 5)))
    prune.l1_unstructured(m, "weight", amount=3)
    np.testing.assert_array_equal(_np(m.weight_mask).reshape(-1),
                                  [1, 1, 1, 1, 1, 1, 0, 0, 0, 1])


def test_ln_structured_ties_as_torch():
    # six equal row norms, keep 4: median-of-three moves row 3 first, Hoare swaps rows 1/5
    # and 2/4 and cuts at 3, so rows 3, 5, 4, 0 stay.
    m = _linear(np.ones((6, 4)))
    prune.ln_structured(m, "weight", amount=2, n=2, dim=0)
    np.testing.assert_array_equal(_np(m.weight_mask)[:, 0], [1, 0, 0, 1, 1, 1])


# -- structured ------------------------------------------------------------------------------------

def test_ln_structured_rows_and_columns():
    w = [[1.0, -2.0, 0.0], [0.5, 0.5, 0.0], [3.0, 0.0, 0.1]]
    m = _linear(w)
    prune.ln_structured(m, "weight", amount=1, n=1, dim=0)   # L1 norms 3, 1, 3.1
    np.testing.assert_array_equal(_np(m.weight_mask), [[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    m = _linear(w)
    prune.ln_structured(m, "weight", amount=0.34, n=float("inf"), dim=-1)   # 3, 2, 0.1
    np.testing.assert_array_equal(_np(m.weight_mask), [[1, 1, 0]] * 3)
    m = _linear(w)
    prune.ln_structured(m, "weight", amount=2, n=2, dim=1)   # sqrt(10.25), sqrt(4.25), 0.1
    np.testing.assert_array_equal(_np(m.weight_mask), [[1, 0, 0]] * 3)


def test_iterative_pruning_builds_a_container():
    m = _linear([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [0.1, 0.2, 9.0]])
    prune.l1_unstructured(m, "weight", amount=2)            # 0.1, 0.2
    prune.ln_structured(m, "weight", amount=1, n=1, dim=1)  # column sums of what is kept: 5, 7, 18
    hooks = list(m._forward_pre_hooks.values())
    assert len(hooks) == 1 and isinstance(hooks[0], prune.PruningContainer)
    assert [type(h).__name__ for h in hooks[0]] == ["L1Unstructured", "LnStructured"]
    np.testing.assert_array_equal(_np(m.weight_mask), [[0, 1, 1], [0, 1, 1], [0, 0, 1]])
    prune.l1_unstructured(m, "weight", amount=2)            # among 2, 3, 5, 6, 9: 2 and 3
    assert len(hooks[0]) == 3 and list(m._forward_pre_hooks.values())[0] is hooks[0]
    np.testing.assert_array_equal(_np(m.weight_mask), [[0, 0, 0], [0, 1, 1], [0, 0, 1]])
    np.testing.assert_array_equal(_np(m.weight), [[0, 0, 0], [0, 5, 6], [0, 0, 9]])


def test_structured_after_structured_prunes_among_kept_channels():
    m = _linear([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]])
    prune.ln_structured(m, "weight", amount=1, n=1, dim=0)  # row 0
    prune.ln_structured(m, "weight", amount=1, n=1, dim=0)  # of rows 1-3: row 1
    np.testing.assert_array_equal(_np(m.weight_mask)[:, 0], [0, 0, 1, 1])


# -- random methods against the generator -------------------------------------------------------

def test_random_unstructured_prunes_the_largest_draws():
    ember.manual_seed(3)
    m = nn.Linear(4, 3)
    state = ember.get_rng_state()
    prune.random_unstructured(m, "weight", amount=5)
    ember.set_rng_state(state)
    draws = _np(ember.rand(3, 4)).reshape(-1)
    expected = np.ones(12, np.float32)
    expected[np.argsort(-draws)[:5]] = 0
    np.testing.assert_array_equal(_np(m.weight_mask).reshape(-1), expected)


def test_random_structured_prunes_channels_with_the_smallest_draws():
    ember.manual_seed(4)
    m = nn.Conv2d(2, 5, 2)
    state = ember.get_rng_state()
    prune.random_structured(m, "weight", amount=0.4, dim=0)  # round(2.0) channels
    ember.set_rng_state(state)
    draws = _np(ember.rand(5))
    kept = draws > np.sort(draws)[1]
    np.testing.assert_array_equal(_np(m.weight_mask).sum((1, 2, 3)), np.where(kept, 8, 0))


def test_pruning_method_prune_without_a_module():
    t = ember.tensor([3.0, -1.0, 2.0, 0.5])
    np.testing.assert_array_equal(_np(prune.L1Unstructured(0.5).prune(t)), [3, 0, 2, 0])
    np.testing.assert_array_equal(
        _np(prune.CustomFromMask(ember.tensor([1, 0, 1, 1])).prune(t)), [3, 0, 2, 0.5])
    np.testing.assert_array_equal(_np(prune.Identity().prune(t)), [3, -1, 2, 0.5])
    out = prune.LnStructured(1, n=1, dim=0).prune(ember.tensor([[1.0, -2.0], [0.5, 0.5]]))
    np.testing.assert_array_equal(_np(out), [[1, -2], [0, 0]])


# -- remove, identity, custom_from_mask, global ----------------------------------------------------

def test_remove_makes_it_permanent():
    m = _linear([[1.0, -3.0], [0.5, 2.0]], bias=[0.0, 0.0])
    prune.l1_unstructured(m, "weight", amount=1)
    orig = m.weight_orig
    assert prune.remove(m, "weight") is m
    assert m.weight is orig and isinstance(m.weight, nn.Parameter)
    np.testing.assert_array_equal(_np(m.weight), [[1.0, -3.0], [0.0, 2.0]])
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"]
    assert list(m.named_buffers()) == [] and len(m._forward_pre_hooks) == 0
    assert not prune.is_pruned(m)
    with pytest.raises(ValueError, match=r"^Parameter 'weight' of module Linear\(in_features=2, "
                                         r"out_features=2, bias=True\) has to be pruned before "
                                         r"pruning can be removed$"):
        prune.remove(m, "weight")


def test_identity_and_custom_from_mask():
    m = _linear([[1.0, 2.0], [3.0, 4.0]])
    prune.identity(m, "weight")
    np.testing.assert_array_equal(_np(m.weight_mask), np.ones((2, 2)))
    prune.custom_from_mask(m, "weight", mask=ember.tensor([[0, 1], [1, 0]]))
    np.testing.assert_array_equal(_np(m.weight), [[0, 2], [3, 0]])
    prune.custom_from_mask(m, "weight", mask=ember.tensor([[1, 1], [0, 1]]))
    np.testing.assert_array_equal(_np(m.weight_mask), [[0, 1], [0, 0]])


def test_global_unstructured_over_two_modules():
    a = _linear([[0.5, -4.0], [3.0, 0.1]])
    b = _linear([[2.0, -0.2, 6.0]], bias=[0.3])
    params = [(a, "weight"), (b, "weight"), (b, "bias")]
    prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=3)
    np.testing.assert_array_equal(_np(a.weight_mask), [[1, 1], [1, 0]])
    np.testing.assert_array_equal(_np(b.weight_mask), [[1, 0, 1]])
    np.testing.assert_array_equal(_np(b.bias_mask), [0])
    assert type(list(a._forward_pre_hooks.values())[0]).__name__ == "CustomFromMask"
    # again: only the unpruned entries compete (0.5 and 2.0 are the smallest left)
    prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.4)
    np.testing.assert_array_equal(_np(a.weight_mask), [[0, 1], [1, 0]])
    np.testing.assert_array_equal(_np(b.weight_mask), [[0, 0, 1]])


# -- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize("amount, error, text", [
    (1.5, ValueError, "amount=1.5 should either be a float in the range [0, 1] or a "
                      "non-negative integer"),
    (-1, ValueError, "amount=-1 should either be a float in the range [0, 1] or a "
                     "non-negative integer"),
    ("a", TypeError, "Invalid type for amount: a. Must be int or float."),
    (7, ValueError, "amount=7 should be smaller than the number of parameters to prune=6"),
])
def test_amount_errors_leave_the_module_unpruned(amount, error, text):
    m = nn.Linear(3, 2)
    w = m.weight
    with pytest.raises(error) as info:
        prune.l1_unstructured(m, "weight", amount=amount)
    assert str(info.value) == text
    assert m.weight is w and [n for n, _ in m.named_parameters()] == ["weight", "bias"]
    assert len(m._forward_pre_hooks) == 0


def test_structured_errors():
    m = nn.Linear(3, 4)
    with pytest.raises(ValueError) as info:
        prune.random_structured(m, "bias", amount=1, dim=0)
    assert str(info.value) == ("Structured pruning can only be applied to multidimensional "
                               "tensors. Found tensor of shape torch.Size([4]) with 1 dims")
    with pytest.raises(IndexError) as info:
        prune.ln_structured(m, "weight", amount=1, n=2, dim=2)
    assert str(info.value) == "Invalid index 2 for tensor of size torch.Size([4, 3])"
    with pytest.raises(ValueError) as info:
        prune.ln_structured(m, "weight", amount=5, n=2, dim=0)
    assert str(info.value) == ("amount=5 should be smaller than the number of parameters to "
                               "prune=4")
    with pytest.raises(TypeError, match="global_unstructured\\(\\): parameters is not an "):
        prune.global_unstructured(5, prune.L1Unstructured, amount=1)
    with pytest.raises(TypeError, match='^Only "unstructured" PRUNING_TYPE supported'):
        prune.global_unstructured([(m, "weight")], prune.LnStructured, amount=1, n=1)


def test_container_checks_the_parameter_name():
    a, b = prune.L1Unstructured(0.5), prune.L1Unstructured(0.5)
    a._tensor_name, b._tensor_name = "a", "b"
    c = prune.PruningContainer(a)
    with pytest.raises(ValueError, match="^Can only add pruning methods acting on the parameter "
                                         "named 'a' to PruningContainer <.*>. Found 'b'$"):
        c.add_pruning_method(b)
    with pytest.raises(TypeError, match="^<class 'int'> is not a BasePruningMethod subclass$"):
        c.add_pruning_method(3)
    assert len(c) == 1 and c[0] is a
    with pytest.raises(TypeError):
        prune.BasePruningMethod()
