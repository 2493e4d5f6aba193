"""nn.AdaptiveLogSoftmaxWithLoss: forward, log_prob and predict against a NumPy reference built
from the module's own weights, finite-difference gradients in float64, torch's parameter names
and shapes, numbers recorded from torch 2.13 for the same seed, and torch's error texts."""
import warnings

import numpy as np
import pytest

import ember
from ember import nn

from nn_checks import check_gradients


def _np_log_softmax(z):
    z = z - z.max(1, keepdims=True)
    return z - np.log(np.exp(z).sum(1, keepdims=True))


def _np_full_log_prob(m, x):
    """Every class's log-probability: head classes directly, cluster classes as the cluster's
    head log-probability plus the class's log-probability inside its cluster."""
    head = _np_log_softmax(x @ m.head.weight.detach().numpy().T
                           + (m.head.bias.detach().numpy() if m.head_bias else 0))
    parts = [head[:, :m.shortlist_size]]
    for i, (proj, out) in enumerate(m.tail):
        h = x @ proj.weight.detach().numpy().T @ out.weight.detach().numpy().T
        parts.append(_np_log_softmax(h) + head[:, m.shortlist_size + i:m.shortlist_size + i + 1])
    return np.concatenate(parts, 1)


@pytest.mark.parametrize("args", [(8, 20, [4, 10], 2.0, False), (8, 20, [4, 10], 4.0, True),
                                  (6, 10, [9], 4.0, False), (12, 30, (5, 12, 20), 2.0, True)])
def test_forward_log_prob_predict_match_numpy(args):
    ember.manual_seed(0)
    m = nn.AdaptiveLogSoftmaxWithLoss(*args, dtype=ember.float64)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((7, args[0]))
    target = rng.integers(0, args[1], 7)
    full = _np_full_log_prob(m, x)
    out = m(ember.tensor(x), ember.tensor(target))
    expected = full[np.arange(7), target]
    np.testing.assert_allclose(out.output.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out.loss.item(), -expected.mean(), rtol=1e-12)
    log_prob = m.log_prob(ember.tensor(x)).detach().numpy()
    np.testing.assert_allclose(log_prob, full, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.exp(log_prob).sum(1), np.ones(7), rtol=1e-12)
    assert m.predict(ember.tensor(x)).tolist() == full.argmax(1).tolist()


def test_unbatched_input_and_output_type():
    ember.manual_seed(0)
    m = nn.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], dtype=ember.float64)
    x = ember.linspace(-1, 1, 6, dtype=ember.float64)
    out = m(x, ember.tensor(7))
    assert type(out).__name__ == "_ASMoutput" and out._fields == ("output", "loss")
    assert out.output.shape == () and out.loss.shape == ()
    assert out.output.item() == m(x[None], ember.tensor([7])).output.item()


def test_gradients_by_finite_differences():
    ember.manual_seed(0)
    m = nn.AdaptiveLogSoftmaxWithLoss(6, 12, [3, 7], div_value=2.0, head_bias=True,
                                      dtype=ember.float64)
    target = ember.tensor([0, 4, 11, 8, 2])
    x = np.random.default_rng(1).standard_normal((5, 6))
    check_gradients(lambda t: m(t, target).output, x)
    check_gradients(lambda t: m.log_prob(t), x)


def test_parameters_and_print_as_torch():
    m = nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10], div_value=2.0)
    shapes = {k: tuple(v.shape) for k, v in m.state_dict().items()}
    assert shapes == {"head.weight": (6, 8), "tail.0.0.weight": (4, 8),
                      "tail.0.1.weight": (6, 4), "tail.1.0.weight": (2, 8),
                      "tail.1.1.weight": (10, 2)}
    assert (m.cutoffs, m.shortlist_size, m.n_clusters, m.head_size) == ([4, 10, 20], 4, 2, 6)
    assert repr(m) == (
        "AdaptiveLogSoftmaxWithLoss(\n"
        "  (head): Linear(in_features=8, out_features=6, bias=False)\n"
        "  (tail): ModuleList(\n"
        "    (0): Sequential(\n"
        "      (0): Linear(in_features=8, out_features=4, bias=False)\n"
        "      (1): Linear(in_features=4, out_features=6, bias=False)\n"
        "    )\n"
        "    (1): Sequential(\n"
        "      (0): Linear(in_features=8, out_features=2, bias=False)\n"
        "      (1): Linear(in_features=2, out_features=10, bias=False)\n"
        "    )\n"
        "  )\n"
        ")")


def test_numbers_recorded_from_torch():
    # torch 2.13: torch.manual_seed(0); AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], div_value=2.0)
    ember.manual_seed(0)
    m = nn.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], div_value=2.0)
    x = ember.linspace(-1, 1, 12).reshape(2, 6)
    out = m(x, ember.tensor([1, 8]))
    np.testing.assert_allclose(out.output.tolist(), [-2.058907985687256, -3.34961199760437],
                               rtol=1e-6)
    np.testing.assert_allclose(out.loss.item(), 2.7042598724365234, rtol=1e-6)
    np.testing.assert_allclose(m.log_prob(x)[1].tolist(), [
        -1.9457242488861084, -1.683447003364563, -1.441133975982666, -1.9390712976455688,
        -2.583212375640869, -2.4879164695739746, -3.431743621826172, -3.4790799617767334,
        -3.34961199760437, -3.3811354637145996], rtol=1e-6)
    assert m.predict(x).tolist() == [2, 2]
    assert out.output.grad_fn.name() == "AddBackward0"
    assert out.loss.grad_fn.name() == "MeanBackward0"


@pytest.mark.parametrize("cutoffs,text", [
    ([], "cutoffs should be a sequence of length larger than 0"),
    ([4, 3], None), ([0, 4], None), ([4, 20], None), ([4, 4], None), ([4.5], None)])
def test_cutoff_errors(cutoffs, text):
    text = text or ("cutoffs should be a sequence of unique, positive integers sorted in an "
                    "increasing order, where each value is between 1 and n_classes-1")
    with pytest.raises(ValueError) as info:
        nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs)
    assert str(info.value) == text


@pytest.mark.parametrize("x,t,text", [
    ((3, 8), [1, 2], "Input and target should have the same size in the batch dimension."),
    ((3, 8, 1), [1, 2, 5], "1D target tensor expects 2D input tensors, but found inputs with "
                           "size torch.Size([3, 8, 1])"),
    ((3, 8), 1, "0D target tensor expects 1D input tensors, but found inputs with size "
                "torch.Size([3, 8])"),
    ((3, 8), [[1, 2, 5]], "0D or 1D target tensor expected, multi-target not supported"),
    ((3, 8), [1, 2, 20], "Target values should be in [0, 19], but values in range [1, 20] were "
                         "found. "),
    ((3, 8), [1, -2, 5], "Target values should be in [0, 19], but values in range [-2, 5] were "
                         "found. "),
])
def test_forward_errors(x, t, text):
    m = nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10])
    with pytest.raises(RuntimeError) as info:
        m(ember.randn(*x), ember.tensor(t))
    assert str(info.value) == text


def test_deprecated_aliases_warn_and_work():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = nn.NLLLoss2d(ignore_index=1, reduction="sum")
        box = nn.Container(a=nn.Linear(1, 2))
    assert [w.category for w in caught] == [FutureWarning, FutureWarning]
    assert str(caught[0].message).startswith("`NLLLoss2d` has been deprecated.")
    assert str(caught[1].message) == ("`nn.Container` is deprecated. All of its functionality "
                                      "is now implemented in `nn.Module`. Subclass that instead.")
    assert isinstance(loss, nn.NLLLoss) and repr(loss) == "NLLLoss2d()"
    x = ember.randn(2, 3, 4, 4).log_softmax(1)
    t = ember.tensor(np.random.default_rng(0).integers(0, 3, (2, 4, 4)))
    assert loss(x, t).item() == nn.NLLLoss(ignore_index=1, reduction="sum")(x, t).item()
    assert list(dict(box.named_parameters())) == ["a.weight", "a.bias"]
