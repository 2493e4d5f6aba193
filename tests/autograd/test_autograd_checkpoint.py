"""ember.utils.checkpoint: same values and gradients as the plain run, random draws replayed in
the recomputation, lower peak memory on a deep MLP (tracemalloc sees NumPy's buffers)."""
import tracemalloc

import numpy as np
import pytest

import ember as torch
from ember.utils.checkpoint import checkpoint, checkpoint_sequential

VARIANTS = [False, True]        # use_reentrant


def mlp(depth=16, width=128, batch=1024):
    torch.manual_seed(0)
    ws = [(torch.randn(width, width, dtype=torch.float64) * 0.08).requires_grad_()
          for _ in range(depth)]
    x = torch.randn(batch, width, dtype=torch.float64, requires_grad=True)
    return ws, x, [lambda h, w=w: (h @ w).tanh() for w in ws]


def grads(ws, x):
    return [t.grad.clone() for t in ws + [x]]


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_gradients_equal_the_plain_run(use_reentrant):
    ws, x, layers = mlp(depth=6, width=8, batch=4)
    h = x
    for f in layers:
        h = f(h)
    h.sum().backward()
    expected = grads(ws, x)
    for t in ws + [x]:
        t.grad = None
    y = checkpoint_sequential(layers, 3, x, use_reentrant=use_reentrant)
    np.testing.assert_allclose(y.tolist(), h.tolist(), rtol=0, atol=0)
    y.sum().backward()
    for got, want in zip(grads(ws, x), expected):
        np.testing.assert_allclose(got.tolist(), want.tolist(), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_random_draws_are_replayed(use_reentrant):
    x = torch.randn(50, dtype=torch.float64, requires_grad=True)
    masks = []

    def dropout_like(h):
        mask = (torch.rand(h.shape) > 0.5).to(h.dtype)
        masks.append(mask)
        return (h * mask * 2).sin()

    y = checkpoint(dropout_like, x, use_reentrant=use_reentrant)
    y.sum().backward()
    assert len(masks) == 2 and masks[0].tolist() == masks[1].tolist()
    expected = (x * masks[0] * 2).cos() * masks[0] * 2
    np.testing.assert_allclose(x.grad.tolist(), expected.tolist(), rtol=1e-13)
    masks.clear()
    x.grad = None
    y = checkpoint(dropout_like, x, use_reentrant=use_reentrant, preserve_rng_state=False)
    y.sum().backward()
    assert masks[0].tolist() != masks[1].tolist()       # not replayed: a different mask


def test_non_reentrant_graph_is_the_real_one():
    x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    y = checkpoint(lambda a: a.exp() * a, x, use_reentrant=False)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)     # (1 + a) e^a
    np.testing.assert_allclose(g.tolist(), ((1 + np.array([0.5, 1.5])) *
                                            np.exp([0.5, 1.5])).tolist(), rtol=1e-13)
    (gg,) = torch.autograd.grad(g.sum(), x)                        # (2 + a) e^a
    np.testing.assert_allclose(gg.tolist(), ((2 + np.array([0.5, 1.5])) *
                                             np.exp([0.5, 1.5])).tolist(), rtol=1e-13)


def test_reentrant_node_and_default_warning():
    x = torch.tensor([1., 2.], requires_grad=True)
    with pytest.warns(UserWarning, match="^torch.utils.checkpoint: the use_reentrant parameter "
                                         "should be passed explicitly"):
        y = checkpoint(lambda a: a * 2, x)
    assert type(y.grad_fn).__name__ == "CheckpointFunctionBackward"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [2., 2.])
    with pytest.warns(UserWarning, match="^torch.utils.checkpoint.checkpoint_sequential: the "
                                         "use_reentrant parameter should be passed explicitly"):
        checkpoint_sequential([lambda a: a * 2], 1, x)


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_recomputation_runs_under_the_forward_autocast(use_reentrant):
    # the recomputed matmul is bfloat16 again, so backward sees the first run's dtypes
    torch.manual_seed(0)
    x = torch.randn(3, 3, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = checkpoint(lambda a: a @ a, x, use_reentrant=use_reentrant)
    assert y.dtype is torch.bfloat16
    y.float().sum().backward()
    got = x.grad.clone()
    x.grad = None
    with torch.autocast("cpu", dtype=torch.bfloat16):
        ref = x @ x
    ref.float().sum().backward()
    assert torch.equal(got, x.grad)
    assert not torch.is_autocast_enabled("cpu")


def test_reentrant_warns_when_no_input_requires_grad():
    x = torch.ones(2)
    with pytest.warns(UserWarning, match="^None of the inputs have requires_grad=True. "
                                         "Gradients will be None$"):
        y = checkpoint(lambda a: a * 2, x, use_reentrant=True)
    assert y.tolist() == [2., 2.] and not y.requires_grad


def peak_bytes(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_peak_memory_is_lower_on_a_deep_mlp(use_reentrant):
    ws, x, layers = mlp()

    def plain():
        h = x
        for f in layers:
            h = f(h)
        h.sum().backward()

    def checkpointed():
        checkpoint_sequential(layers, 4, x, use_reentrant=use_reentrant).sum().backward()

    plain_peak = peak_bytes(plain)
    for t in ws + [x]:
        t.grad = None
    ck_peak = peak_bytes(checkpointed)
    activation = 1024 * 128 * 8
    # 16 kept activations against 4 segment outputs plus one segment recomputed.
    assert plain_peak > 16 * activation
    assert ck_peak < 0.7 * plain_peak, (plain_peak, ck_peak)


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_sequential_with_dropout_matches_the_plain_run(use_reentrant):
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 16),
                          nn.Tanh(), nn.Dropout(0.3), nn.Linear(16, 2)).double()
    x = torch.randn(4, 8, dtype=torch.float64, requires_grad=use_reentrant)
    torch.manual_seed(1)
    y = model(x)
    y.sum().backward()
    expected = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    torch.manual_seed(1)
    y2 = checkpoint_sequential(model, 2, x, use_reentrant=use_reentrant)
    assert y2.tolist() == y.tolist()
    y2.sum().backward()
    for p, want in zip(model.parameters(), expected):
        assert p.grad.tolist() == want.tolist()


# -- the recomputation's checks and early stop (NOTE [ Checking the recomputation ]) ----------

from ember.utils import checkpoint as cp     # noqa: E402


def _varying(changes):
    """A segment whose second run (the recomputation) differs as `changes` says."""
    calls = [0]

    def fn(x):
        calls[0] += 1
        second = calls[0] == 2
        if changes == "shape" and second:
            x = x[:1]
        if changes == "dtype" and second:
            x = x.double()
        y = x.sin()                         # saves its input: position 0
        if (changes == "more") == second and changes in ("more", "fewer"):
            y = y.cos().tanh()              # two more saved tensors
        return y.exp()                      # saves its result
    return fn


@pytest.mark.parametrize("changes, saved, recomputed", [("shape", [2, 3], [1, 3]),
                                                        ("dtype", None, None)])
def test_recomputed_metadata_must_match(changes, saved, recomputed):
    x = torch.ones(2, 3, requires_grad=True)
    y = checkpoint(_varying(changes), x, use_reentrant=False)
    with pytest.raises(cp.CheckpointError) as info:
        y.sum().backward()
    text = str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert text.startswith("torch.utils.checkpoint: Recomputed values for the following tensors "
                           "have different metadata than during the forward pass.\ntensor at "
                           "position 0:\nsaved metadata: {'shape': torch.Size([2, 3]), ")
    if changes == "shape":
        assert f"recomputed metadata: {{'shape': torch.Size({recomputed}), " in text
    else:
        assert "'dtype': torch.float64" in text
    assert "\ntensor at position 1:\n" in text      # exp()'s result differs as well
    assert "\n.\n\nTip: To see a more detailed error message" in text


def test_determinism_check_none_skips_the_metadata():
    x = torch.ones(2, 3, requires_grad=True)
    fn = _varying("dtype")
    checkpoint(fn, x, use_reentrant=False, determinism_check="none").sum().backward()
    with pytest.raises(ValueError, match=r"determinism_check should be one of \['default', "
                                         r"'none'\], but got bogus"):
        checkpoint(fn, x, use_reentrant=False, determinism_check="bogus")


def test_fewer_saved_tensors_is_an_error():
    x = torch.ones(2, 3, requires_grad=True)
    y = checkpoint(_varying("fewer"), x, use_reentrant=False)
    with pytest.raises(cp.CheckpointError, match="A different number of tensors was saved "
                       "during the original forward and recomputation.\nNumber of tensors saved "
                       "during forward: 4\nNumber of tensors saved during recomputation: 2."):
        y.sum().backward()


def test_more_saved_tensors_only_matter_without_early_stop():
    x = torch.ones(2, 3, requires_grad=True)
    # with early stop the recomputation ends at the forward's count, so the extra tensors never
    # come; position 1 (exp's result in the forward) is then cos's input, sin(x), whose
    # metadata matches: torch computes the gradient with it too, as here
    checkpoint(_varying("more"), x, use_reentrant=False).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 3), np.sin(1.0) * np.cos(1.0)),
                               rtol=1e-6)
    y = checkpoint(_varying("more"), x, use_reentrant=False, early_stop=False)
    with pytest.raises(cp.CheckpointError, match="trying to save more tensors during "
                                                 "recomputation than during the original"):
        y.sum().backward()


def _traced(log):
    def fn(x):
        log.append("start")
        y = x.sin()
        log.append("mid")
        z = y.cos()                 # the last op that saves a tensor
        log.append("end")
        return z * 2
    return fn


def test_early_stop_ends_the_recomputation_after_the_last_saved_tensor():
    x = torch.ones(3, requires_grad=True)
    log = []
    checkpoint(_traced(log), x, use_reentrant=False).sum().backward()
    assert log == ["start", "mid", "end", "start", "mid"]
    np.testing.assert_allclose(x.grad.numpy(), -2 * np.sin(np.sin(1.0)) * np.cos(1.0),
                               rtol=1e-6)
    log.clear()
    checkpoint(_traced(log), x, use_reentrant=False, early_stop=False).sum().backward()
    assert log == ["start", "mid", "end"] * 2


def test_set_checkpoint_early_stop_overrides_and_is_read_in_the_forward():
    x = torch.ones(3, requires_grad=True)
    log = []
    with cp.set_checkpoint_early_stop(True):
        y = checkpoint(_traced(log), x, use_reentrant=False, early_stop=False)
    y.sum().backward()
    assert log == ["start", "mid", "end", "start", "mid"]
    log.clear()
    y = checkpoint(_traced(log), x, use_reentrant=False)
    with cp.set_checkpoint_early_stop(False):       # too late: the forward had decided
        y.sum().backward()
    assert log == ["start", "mid", "end", "start", "mid"]


def test_reentrant_refuses_grad_and_backward_inputs():
    x = torch.ones(3, requires_grad=True)
    message = "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad()"
    y = checkpoint(torch.sin, x, use_reentrant=True)
    with pytest.raises(RuntimeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        torch.autograd.grad(y.sum(), x)
    y = checkpoint(torch.sin, x, use_reentrant=True)
    with pytest.raises(RuntimeError, match="incompatible with"):
        y.sum().backward(inputs=[x])
    assert torch.autograd._is_checkpoint_valid()
    y.sum().backward()                  # a plain backward still works
    np.testing.assert_allclose(x.grad.numpy(), np.cos(np.ones(3)), rtol=1e-6)


def test_helpers():
    x = torch.ones(2, requires_grad=True)
    a, b = cp.detach_variable((x, 3))
    assert a.requires_grad and a.grad_fn is None and a is not x and b == 3
    with pytest.raises(RuntimeError, match="Only tuple of tensors is supported. Got Unsupported "
                                           "input type: list"):
        cp.detach_variable([x])
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        cp.check_backward_validity((x.detach(), 1))
    assert cp.get_device_states(x) == ([], [])
    assert [p.value for p in cp.CheckpointPolicy] == list(range(6))
    assert cp.DefaultDeviceType.get_device_type() == "cpu"
    with cp.set_checkpoint_debug_enabled(True):
        assert cp._debug is True
    assert cp._debug is None
