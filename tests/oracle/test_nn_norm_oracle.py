"""Normalization layers, embeddings and the margin/CTC losses against real torch: printed forms,
state_dict keys, default initialisation, forward/backward values, node names, running
statistics and error messages. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _lib(nn):
    return torch if nn is torch.nn else ember


def _copy(src, dst):
    dst.load_state_dict({k: ember.tensor(v.detach().numpy()) for k, v in
                         src.state_dict().items()})


def _perturb(module):
    """Non-trivial weights and running statistics (same in both libraries after _copy)."""
    with torch.no_grad():
        for name, t in module.state_dict().items():
            if t.is_floating_point():
                t.copy_(torch.tensor(RNG.uniform(0.5, 1.5, tuple(t.shape))))


def _input(spec):
    if isinstance(spec, tuple) and spec and isinstance(spec[0], str):
        kind, value = spec
        return np.asarray(value)
    return RNG.standard_normal(spec)


def _log_probs(shape):
    x = RNG.standard_normal(shape)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


LAYERS = {
    "LayerNorm": (lambda nn: nn.LayerNorm(5), [(3, 4, 5)]),
    "LayerNorm2d": (lambda nn: nn.LayerNorm([4, 5], eps=1e-3, bias=False), [(3, 4, 5)]),
    "LayerNormPlain": (lambda nn: nn.LayerNorm(5, elementwise_affine=False), [(3, 5)]),
    "GroupNorm": (lambda nn: nn.GroupNorm(2, 6), [(3, 6, 4)]),
    "GroupNormPlain": (lambda nn: nn.GroupNorm(3, 6, affine=False), [(2, 6, 2, 2)]),
    "RMSNorm": (lambda nn: nn.RMSNorm(5), [(3, 4, 5)]),
    "RMSNormEps": (lambda nn: nn.RMSNorm([4, 5], eps=1e-3, elementwise_affine=False),
                   [(3, 4, 5)]),
    "LocalResponseNorm": (lambda nn: nn.LocalResponseNorm(3, alpha=0.1, k=2.0), [(2, 5, 3)]),
    "LocalResponseNorm2d": (lambda nn: nn.LocalResponseNorm(2), [(2, 4, 3, 2)]),
    "BatchNorm1d": (lambda nn: nn.BatchNorm1d(4), [(5, 4)]),
    "BatchNorm1d3d": (lambda nn: nn.BatchNorm1d(4, momentum=None), [(3, 4, 5)]),
    "BatchNorm2d": (lambda nn: nn.BatchNorm2d(3, eps=1e-3, momentum=0.3), [(2, 3, 4, 5)]),
    "BatchNorm2dEval": (lambda nn: nn.BatchNorm2d(3).eval(), [(2, 3, 4, 5)]),
    "BatchNorm2dNoStats": (lambda nn: nn.BatchNorm2d(3, track_running_stats=False).eval(),
                           [(2, 3, 2, 2)]),
    "BatchNorm3d": (lambda nn: nn.BatchNorm3d(2, affine=False), [(2, 2, 3, 2, 2)]),
    "SyncBatchNorm": (lambda nn: nn.SyncBatchNorm(3, momentum=None), [(2, 3, 4, 2)]),
    "InstanceNorm1d": (lambda nn: nn.InstanceNorm1d(3), [(2, 3, 5)]),
    "InstanceNorm2dAffine": (lambda nn: nn.InstanceNorm2d(3, affine=True,
                                                          track_running_stats=True),
                             [(2, 3, 4, 4)]),
    "InstanceNorm2dEval": (lambda nn: nn.InstanceNorm2d(3, track_running_stats=True).eval(),
                           [(2, 3, 4, 4)]),
    "InstanceNorm3d": (lambda nn: nn.InstanceNorm3d(2), [(2, 2, 3, 2, 2)]),
    "Embedding": (lambda nn: nn.Embedding(6, 3, padding_idx=2),
                  [("index", [[0, 2, 5], [2, 1, 1]])]),
    "EmbeddingFreq": (lambda nn: nn.Embedding(6, 3, scale_grad_by_freq=True),
                      [("index", [[0, 2, 5], [2, 1, 1]])]),
    "EmbeddingMaxNorm": (lambda nn: nn.Embedding(6, 3, max_norm=0.7, norm_type=1.5),
                         [("index", [4, 0, 4])]),
    "EmbeddingBagSum": (lambda nn: nn.EmbeddingBag(6, 3, mode="sum"),
                        [("index", [0, 2, 5, 2, 1, 1, 4]), ("index", [0, 2, 2, 5])]),
    "EmbeddingBagMean2d": (lambda nn: nn.EmbeddingBag(6, 3, padding_idx=2),
                           [("index", [[0, 2, 5], [2, 1, 1], [2, 2, 2]])]),
    "EmbeddingBagMax": (lambda nn: nn.EmbeddingBag(6, 3, mode="max"),
                        [("index", [0, 2, 5, 2, 1, 1, 4]), ("index", [0, 2, 2, 5])]),
    "EmbeddingBagWeighted": (lambda nn: nn.EmbeddingBag(6, 3, mode="sum",
                                                        include_last_offset=True),
                             # NOTE: torch's float64 kernel ignores a last offset short of
                             # the input's end when given per_sample_weights; float32 does not
                             [("index", [0, 2, 5, 2, 1, 1, 4]), ("index", [0, 2, 7]), (7,)]),
    "MultiMargin": (lambda nn: nn.MultiMarginLoss(), [(4, 5), ("index", [0, 4, 2, 2])]),
    "MultiMarginP2": (lambda nn: nn.MultiMarginLoss(p=2, margin=0.4, reduction="none",
                                                    weight=_lib(nn).tensor(
                                                        [1.0, 2, 3, 4, 5]).double()),
                      [(4, 5), ("index", [0, 4, 2, 2])]),
    "MultiLabelMargin": (lambda nn: nn.MultiLabelMarginLoss(reduction="sum"),
                         [(3, 4), ("index", [[3, 0, -1, 1], [1, 2, 3, -1], [2, 2, 0, 1]])]),
}


def _run(lib, module, arrays):
    tensors = [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    out = module(*tensors)
    out.backward(lib.tensor(RNG.standard_normal(tuple(out.shape))) if out.ndim else None)
    grads = [t.grad.numpy() if t.grad is not None else None for t in tensors]
    params = {n: p.grad.numpy() for n, p in module.named_parameters() if p.grad is not None}
    return out, grads, params


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(name):
    make, specs = LAYERS[name]
    arrays = [_input(s) for s in specs]
    tm, em = make(torch.nn).double(), make(ember.nn).double()
    assert repr(em) == repr(tm)
    assert list(em.state_dict()) == list(tm.state_dict())
    _perturb(tm)
    _copy(tm, em)
    state = RNG.bit_generator.state
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_out, t_grads, t_params = _run(torch, tm, arrays)
        RNG.bit_generator.state = state
        e_out, e_grads, e_params = _run(ember, em, arrays)
    assert type(e_out.grad_fn).__name__ == type(t_out.grad_fn).__name__
    np.testing.assert_allclose(e_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    for e, t in zip(e_grads, t_grads):
        assert (e is None) == (t is None)
        if t is not None:
            np.testing.assert_allclose(e, t, rtol=1e-9, atol=1e-12)
    assert set(e_params) == set(t_params)
    for k in t_params:
        np.testing.assert_allclose(e_params[k], t_params[k], rtol=1e-9, atol=1e-12)
    for k, t in tm.state_dict().items():                # running statistics, max_norm rows
        np.testing.assert_allclose(em.state_dict()[k].numpy(), t.numpy(), rtol=1e-10)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_layer_and_batch_norm_low_precision_match_torch(dtype):
    x = RNG.standard_normal((4, 3, 5)) * 3 + 2
    for make in (lambda nn: nn.LayerNorm(5), lambda nn: nn.BatchNorm1d(3),
                 lambda nn: nn.GroupNorm(3, 3)):
        tm, em = make(torch.nn).to(getattr(torch, dtype)), make(ember.nn)
        em = em.to(getattr(ember, dtype))
        t = tm(torch.tensor(x, dtype=getattr(torch, dtype)))
        e = em(ember.tensor(x, dtype=getattr(ember, dtype)))
        assert str(e.dtype) == str(t.dtype)
        tol = 1e-5 if dtype == "float32" else 2e-3
        np.testing.assert_allclose(e.detach().float().numpy(), t.detach().float().numpy(),
                                   rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_input_with_float_parameters_matches_torch(dtype):
    x = RNG.standard_normal((4, 3, 5))
    g = RNG.standard_normal((4, 3, 5))
    for make in (lambda nn: nn.LayerNorm(5), lambda nn: nn.BatchNorm1d(3),
                 lambda nn: nn.GroupNorm(3, 3)):
        results = []
        for lib in (torch, ember):
            m = make(lib.nn)
            xt = lib.tensor(x, dtype=getattr(lib, dtype), requires_grad=True)
            out = m(xt)
            out.backward(lib.tensor(g, dtype=getattr(lib, dtype)))
            results.append([out.detach().float().numpy(), xt.grad.float().numpy()] +
                           [p.grad.numpy() for p in m.parameters()] +
                           [str(p.grad.dtype) for p in m.parameters()] + [str(out.dtype)])
        for e, t in zip(results[1], results[0], strict=True):
            if isinstance(t, str):
                assert e == t
            else:
                np.testing.assert_allclose(e, t, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("targets_layout", ["padded", "concatenated"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_ctc_loss_matches_torch(targets_layout, reduction, zero_infinity):
    lp = _log_probs((6, 3, 5))
    targets = [[1, 2, 2], [4], [3, 3, 1, 2]]
    in_lens, tg_lens = [6, 5, 3], [3, 1, 4]     # the last sample is impossible: inf
    if targets_layout == "padded":
        tg = np.array([t + [0] * (4 - len(t)) for t in targets])
    else:
        tg = np.array(sum(targets, []))
    results = []
    for lib in (torch, ember):
        x = lib.tensor(lp, requires_grad=True)
        out = lib.nn.functional.ctc_loss(x, lib.tensor(tg), lib.tensor(in_lens),
                                         lib.tensor(tg_lens), blank=0, reduction=reduction,
                                         zero_infinity=zero_infinity)
        out.sum().backward()
        results.append((out.detach().numpy(), x.grad.numpy(), type(out.grad_fn).__name__))
    (t_out, t_grad, t_name), (e_out, e_grad, e_name) = results
    assert e_name == t_name
    np.testing.assert_allclose(e_out, t_out, rtol=1e-9)
    np.testing.assert_allclose(e_grad, t_grad, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("make", [
    lambda nn: nn.Embedding(7, 4), lambda nn: nn.Embedding(7, 4, padding_idx=-2),
    lambda nn: nn.EmbeddingBag(5, 3, mode="sum"), lambda nn: nn.LayerNorm((2, 3)),
    lambda nn: nn.BatchNorm2d(4), lambda nn: nn.GroupNorm(2, 4), lambda nn: nn.RMSNorm(3),
    lambda nn: nn.InstanceNorm1d(3, affine=True, track_running_stats=True)])
def test_default_initialisation_matches_torch(make):
    torch.manual_seed(3)
    ember.manual_seed(3)
    t_module, e_module = make(torch.nn), make(ember.nn)
    assert repr(e_module) == repr(t_module)
    t_state, e_state = t_module.state_dict(), e_module.state_dict()
    assert list(e_state) == list(t_state)
    for k in t_state:
        assert str(e_state[k].dtype) == str(t_state[k].dtype)
        np.testing.assert_array_equal(e_state[k].numpy(), t_state[k].numpy())


def _errors(lib):
    F, nn, T = lib.nn.functional, lib.nn, lib.tensor
    x = lib.randn(4, 6, 5)
    lp = lib.randn(5, 2, 4).log_softmax(2)
    tg, il, tl = T([[1, 2, 2], [3, 1, 0]]), T([5, 4]), T([3, 2])
    return [
        lambda: F.layer_norm(x, (4,)),
        lambda: F.layer_norm(x, (6, 5), lib.ones(5)),
        lambda: F.layer_norm(x, 5),
        lambda: F.layer_norm(x, []),
        lambda: F.layer_norm(lib.ones(3, dtype=lib.long), (3,)),
        lambda: nn.LayerNorm(5)(lib.ones(3, 5, dtype=lib.float64)),
        lambda: F.layer_norm(x.half(), (5,), lib.ones(5).double()),
        lambda: F.layer_norm(x.half(), (5,), lib.ones(5), lib.ones(5).half()),
        lambda: F.batch_norm(x.half(), lib.zeros(6, dtype=lib.half), lib.ones(6)),
        lambda: F.batch_norm(x.half(), lib.zeros(6).double(), lib.ones(6).double()),
        lambda: F.batch_norm(x.double(), lib.zeros(6), lib.ones(6)),
        lambda: F.group_norm(x.double(), 2, lib.ones(6)),
        lambda: F.rms_norm(x, (4,)),
        lambda: F.group_norm(x, 4),
        lambda: F.group_norm(lib.randn(6), 2),
        lambda: F.group_norm(x, 2, lib.ones(5)),
        lambda: nn.GroupNorm(3, 4),
        lambda: F.batch_norm(lib.randn(1, 4), None, None, training=True),
        lambda: F.batch_norm(lib.randn(2, 4), lib.zeros(3), lib.ones(3), training=True),
        lambda: F.batch_norm(lib.randn(2, 4), None, None, training=False),
        lambda: nn.BatchNorm1d(4)(lib.randn(2, 4, 3, 3)),
        lambda: nn.BatchNorm2d(4)(lib.randn(2, 4, 3)),
        lambda: nn.BatchNorm3d(4)(lib.randn(2, 4, 3)),
        lambda: nn.BatchNorm1d(4)(lib.randn(1, 4, 1)),
        lambda: nn.InstanceNorm1d(4)(lib.randn(2, 4, 1)),
        lambda: nn.InstanceNorm2d(4, affine=True)(lib.randn(3, 5, 2, 2)),
        lambda: F.local_response_norm(lib.randn(2, 3), 2),
        lambda: F.embedding(T([10]), lib.randn(10, 3)),
        lambda: F.embedding(T([1.0]), lib.randn(10, 3)),
        lambda: F.embedding(T([1]), lib.randn(10)),
        lambda: nn.Embedding(10, 3, padding_idx=10),
        lambda: nn.Embedding.from_pretrained(lib.zeros(3)),
        lambda: F.embedding_bag(T([[0, 5]]), lib.randn(4, 3), mode="sum"),
        lambda: F.embedding_bag(T([0, 1]), lib.randn(4, 3)),
        lambda: F.multi_margin_loss(lib.randn(2, 4), T([4, 0])),
        lambda: F.multi_margin_loss(lib.randn(2, 4), T([1, 0, 1])),
        lambda: F.multi_margin_loss(lib.randn(2, 4), T([1, 0]), weight=lib.ones(3)),
        lambda: F.multi_margin_loss(lib.randn(2, 4).long(), T([1, 0])),
        lambda: F.multilabel_margin_loss(lib.randn(2, 4), T([[4, 0, -1, 1], [1, 2, 3, -1]])),
        lambda: F.multilabel_margin_loss(lib.randn(2, 4), T([[1, 0, -1]])),
        lambda: F.ctc_loss(lp, tg, T([6, 4]), tl),
        lambda: F.ctc_loss(lp, tg, il, T([4, 2])),
        lambda: F.ctc_loss(lp, T([1, 2, 2, 3]), il, tl),
        lambda: F.ctc_loss(lp, tg, il, tl, blank=4),
        lambda: F.ctc_loss(lp, tg, il.float(), tl),
        lambda: F.ctc_loss(lp, tg, il, tl, reduction="foo"),
    ]


def test_errors_match_torch():
    for k, (t_call, e_call) in enumerate(zip(_errors(torch), _errors(ember), strict=True)):
        with pytest.raises(Exception) as t_err:
            t_call()
        with pytest.raises(Exception) as e_err:
            e_call()
        assert type(e_err.value).__name__ == type(t_err.value).__name__, k
        assert str(e_err.value) == str(t_err.value), k
