"""ember.nn against real torch.nn: printed modules, state_dict keys, default initialisation
(same seed, same numbers), and forward/backward values and node names of every layer and loss
with the same weights. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _arrays(specs):
    """Input arrays from specs: a shape (float64 normal), or (kind, shape[, high])."""
    out = []
    for spec in specs:
        if isinstance(spec, tuple) and spec and isinstance(spec[0], str):
            kind, shape = spec[0], spec[1]
            if kind == "prob":
                out.append(RNG.uniform(0.05, 0.95, shape))
            elif kind == "index":
                out.append(RNG.integers(0, spec[2], shape))
            elif kind == "count":
                out.append(RNG.integers(0, 5, shape).astype(np.float64))
            elif kind == "sign":
                out.append(RNG.choice([-1.0, 1.0], shape))
            elif kind == "dist":
                a = RNG.uniform(0.1, 1, shape)
                out.append(a / a.sum(-1, keepdims=True))
        else:
            out.append(RNG.standard_normal(spec))
    return out


def _run(lib, module, arrays):
    tensors = [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    out = module(*tensors)
    out.backward(lib.ones_like(out) if out.ndim else None)
    grads = [t.grad.numpy() if t.grad is not None else None for t in tensors]
    params = {n: p.grad.numpy() for n, p in module.named_parameters() if p.grad is not None}
    return out, grads, params


def _lib(nn):
    """The library a `nn` module belongs to (torch or ember)."""
    return torch if nn is torch.nn else ember


def _copy_weights(src, dst):
    dst.load_state_dict({k: ember.tensor(v.detach().numpy()) for k, v in
                         src.state_dict().items()})


LAYERS = {
    "Identity": (lambda nn: nn.Identity(), [(3, 4)]),
    "Linear": (lambda nn: nn.Linear(4, 3), [(2, 4)]),
    "Linear3d": (lambda nn: nn.Linear(4, 3, bias=False), [(2, 5, 4)]),
    "Bilinear": (lambda nn: nn.Bilinear(3, 4, 2), [(5, 3), (5, 4)]),
    "BilinearNoBias": (lambda nn: nn.Bilinear(3, 4, 2, bias=False), [(2, 5, 3), (2, 5, 4)]),
    "Flatten": (lambda nn: nn.Flatten(), [(2, 3, 4)]),
    "Unflatten": (lambda nn: nn.Unflatten(1, (2, 3)), [(4, 6)]),
    "DropoutEval": (lambda nn: nn.Dropout(0.3).eval(), [(3, 4)]),
    "ReLU": (lambda nn: nn.ReLU(), [(3, 4)]),
    "ReLU6": (lambda nn: nn.ReLU6(), [(3, 4)]),
    "LeakyReLU": (lambda nn: nn.LeakyReLU(0.2), [(3, 4)]),
    "PReLU": (lambda nn: nn.PReLU(), [(3, 4)]),
    "PReLU3": (lambda nn: nn.PReLU(3, init=0.1), [(2, 3, 4)]),
    "RReLUEval": (lambda nn: nn.RReLU().eval(), [(3, 4)]),
    "ELU": (lambda nn: nn.ELU(0.7), [(3, 4)]),
    "SELU": (lambda nn: nn.SELU(), [(3, 4)]),
    "CELU": (lambda nn: nn.CELU(1.5), [(3, 4)]),
    "GELU": (lambda nn: nn.GELU(), [(3, 4)]),
    "GELUtanh": (lambda nn: nn.GELU("tanh"), [(3, 4)]),
    "SiLU": (lambda nn: nn.SiLU(), [(3, 4)]),
    "Mish": (lambda nn: nn.Mish(), [(3, 4)]),
    "Sigmoid": (lambda nn: nn.Sigmoid(), [(3, 4)]),
    "Tanh": (lambda nn: nn.Tanh(), [(3, 4)]),
    "Softmax": (lambda nn: nn.Softmax(dim=1), [(3, 4)]),
    "LogSoftmax": (lambda nn: nn.LogSoftmax(dim=0), [(3, 4)]),
    "Softmin": (lambda nn: nn.Softmin(dim=-1), [(3, 4)]),
    "Softplus": (lambda nn: nn.Softplus(2.0, 3.0), [(3, 4)]),
    "Softsign": (lambda nn: nn.Softsign(), [(3, 4)]),
    "Hardtanh": (lambda nn: nn.Hardtanh(-0.5, 0.7), [(3, 4)]),
    "Hardswish": (lambda nn: nn.Hardswish(), [((4, 5))]),
    "Hardsigmoid": (lambda nn: nn.Hardsigmoid(), [(4, 5)]),
    "Threshold": (lambda nn: nn.Threshold(0.1, 20.0), [(3, 4)]),
    "GLU": (lambda nn: nn.GLU(), [(3, 4)]),
    "Hardshrink": (lambda nn: nn.Hardshrink(0.3), [(3, 4)]),
    "Softshrink": (lambda nn: nn.Softshrink(0.3), [(3, 4)]),
    "Tanhshrink": (lambda nn: nn.Tanhshrink(), [(3, 4)]),
    "LogSigmoid": (lambda nn: nn.LogSigmoid(), [(3, 4)]),
    "Softmax2d": (lambda nn: nn.Softmax2d(), [(2, 3, 2, 2)]),
    "CosineSimilarity": (lambda nn: nn.CosineSimilarity(dim=0), [(4, 5), (4, 5)]),
    "PairwiseDistance": (lambda nn: nn.PairwiseDistance(p=3.0, keepdim=True), [(4, 5), (4, 5)]),
    "MSELoss": (lambda nn: nn.MSELoss(), [(3, 4), (3, 4)]),
    "MSELossSum": (lambda nn: nn.MSELoss(reduction="sum"), [(3, 4), (3, 4)]),
    "L1Loss": (lambda nn: nn.L1Loss(), [(3, 4), (3, 4)]),
    "SmoothL1Loss": (lambda nn: nn.SmoothL1Loss(beta=0.5), [(3, 4), (3, 4)]),
    "HuberLoss": (lambda nn: nn.HuberLoss(delta=0.5), [(3, 4), (3, 4)]),
    "CrossEntropy": (lambda nn: nn.CrossEntropyLoss(), [(5, 4), ("index", (5,), 4)]),
    "CrossEntropyNd": (lambda nn: nn.CrossEntropyLoss(reduction="sum"),
                       [(2, 4, 3, 2), ("index", (2, 3, 2), 4)]),
    "CrossEntropySmooth": (lambda nn: nn.CrossEntropyLoss(label_smoothing=0.1,
                                                          ignore_index=1),
                           [(6, 4), ("index", (6,), 4)]),
    "CrossEntropyProb": (lambda nn: nn.CrossEntropyLoss(label_smoothing=0.2),
                         [(5, 4), ("dist", (5, 4))]),
    "CrossEntropy1d": (lambda nn: nn.CrossEntropyLoss(), [(4,), ("index", (), 4)]),
    "NLLLoss": (lambda nn: nn.NLLLoss(ignore_index=2), [(6, 4), ("index", (6,), 4)]),
    "NLLLossNone": (lambda nn: nn.NLLLoss(reduction="none"), [(6, 4), ("index", (6,), 4)]),
    "BCELoss": (lambda nn: nn.BCELoss(), [("prob", (3, 4)), ("prob", (3, 4))]),
    "BCELossWeighted": (lambda nn: nn.BCELoss(weight=_lib(nn).tensor([1.0, 2.0, 0.5, 1.5]),
                                              reduction="sum"),
                        [("prob", (3, 4)), ("prob", (3, 4))]),
    "BCEWithLogits": (lambda nn: nn.BCEWithLogitsLoss(), [(3, 4), ("prob", (3, 4))]),
    "BCEWithLogitsPos": (lambda nn: nn.BCEWithLogitsLoss(
        weight=_lib(nn).tensor([1.0, 2.0, 0.5, 1.5]), pos_weight=_lib(nn).tensor(
            [0.5, 2.0, 1.0, 3.0])), [(3, 4), ("prob", (3, 4))]),
    "NLLLossWeighted": (lambda nn: nn.NLLLoss(weight=_lib(nn).tensor([1.0, 2.0, 0.5, 1.5])),
                        [(6, 4), ("index", (6,), 4)]),
    "CrossEntropyWeightedSmooth": (lambda nn: nn.CrossEntropyLoss(
        weight=_lib(nn).tensor([1.0, 2.0, 0.5, 1.5]), label_smoothing=0.3, ignore_index=0),
        [(2, 4, 3), ("index", (2, 3), 4)]),
    "KLDivLoss": (lambda nn: nn.KLDivLoss(reduction="batchmean"),
                  [(3, 4), ("dist", (3, 4))]),
    "KLDivLogTarget": (lambda nn: nn.KLDivLoss(reduction="sum", log_target=True),
                       [(3, 4), (3, 4)]),
    "CosineEmbedding": (lambda nn: nn.CosineEmbeddingLoss(margin=0.1),
                        [(4, 5), (4, 5), ("sign", (4,))]),
    "MarginRanking": (lambda nn: nn.MarginRankingLoss(0.2), [(6,), (6,), ("sign", (6,))]),
    "TripletMargin": (lambda nn: nn.TripletMarginLoss(swap=True), [(4, 5), (4, 5), (4, 5)]),
    "HingeEmbedding": (lambda nn: nn.HingeEmbeddingLoss(0.5), [(4, 5), ("sign", (4, 5))]),
    "SoftMargin": (lambda nn: nn.SoftMarginLoss(), [(4, 5), ("sign", (4, 5))]),
    "SoftMarginInt": (lambda nn: nn.SoftMarginLoss(reduction="none"),
                      [(4, 5), ("index", (4, 5), 2)]),
    "MultiLabelSoftMargin": (lambda nn: nn.MultiLabelSoftMarginLoss(
        weight=_lib(nn).tensor([1.0, 2.0, 0.5])), [(4, 3), ("prob", (4, 3))]),
    "PoissonNLL": (lambda nn: nn.PoissonNLLLoss(full=True),
                   [(4, 3), ("count", (4, 3))]),
    "PoissonNLLRate": (lambda nn: nn.PoissonNLLLoss(log_input=False, reduction="sum"),
                       [("prob", (4, 3)), ("count", (4, 3))]),
    "GaussianNLL": (lambda nn: nn.GaussianNLLLoss(full=True),
                    [(4, 3), (4, 3), ("prob", (4, 1))]),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(name):
    make, specs = LAYERS[name]
    arrays = _arrays(specs)
    tm, em = make(torch.nn).double(), make(ember.nn).double()
    assert repr(em) == repr(tm)
    assert list(em.state_dict()) == list(tm.state_dict())
    _copy_weights(tm, em)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            t_out, t_grads, t_params = _run(torch, tm, arrays)
        except RuntimeError as exc:         # e.g. a target that may not require grad
            with pytest.raises(RuntimeError, match=str(exc)[:40]):
                _run(ember, em, arrays)
            return
        e_out, e_grads, e_params = _run(ember, em, arrays)
    assert type(e_out.grad_fn).__name__ == type(t_out.grad_fn).__name__, name
    np.testing.assert_allclose(e_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    for e, t in zip(e_grads, t_grads):
        if t is not None:
            np.testing.assert_allclose(e, t, rtol=1e-9, atol=1e-12)
    assert set(e_params) == set(t_params)
    for k in t_params:
        np.testing.assert_allclose(e_params[k], t_params[k], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("make", [
    lambda nn: nn.Linear(5, 3), lambda nn: nn.Bilinear(2, 3, 4), lambda nn: nn.PReLU(4),
    lambda nn: nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1, bias=False))])
def test_default_initialisation_matches_torch(make):
    torch.manual_seed(3)
    ember.manual_seed(3)
    t_state, e_state = make(torch.nn).state_dict(), make(ember.nn).state_dict()
    assert list(e_state) == list(t_state)
    for k in t_state:
        np.testing.assert_array_equal(e_state[k].numpy(), t_state[k].numpy())


@pytest.mark.parametrize("fn,args", [
    ("kaiming_uniform_", dict(a=0.1, mode="fan_out", nonlinearity="relu")),
    ("kaiming_normal_", dict()), ("xavier_uniform_", dict(gain=2.0)), ("xavier_normal_", dict()),
    ("uniform_", dict(a=-2, b=3)), ("normal_", dict(mean=1, std=2)),
    ("trunc_normal_", dict(std=0.5)), ("trunc_normal_", dict(a=1.5, b=3.0)),
    ("orthogonal_", dict(gain=1.5)), ("eye_", dict()),
    ("zeros_", dict()), ("ones_", dict()), ("constant_", dict(val=0.3))])
def test_init_matches_torch(fn, args):
    torch.manual_seed(5)
    ember.manual_seed(5)
    t = getattr(torch.nn.init, fn)(torch.empty(4, 6), **args)
    e = getattr(ember.nn.init, fn)(ember.empty(4, 6), **args)
    np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-5, atol=1e-6)


def test_dirac_and_gains_match_torch():
    t = torch.nn.init.dirac_(torch.empty(6, 2, 3, 3), groups=2)
    e = ember.nn.init.dirac_(ember.empty(6, 2, 3, 3), groups=2)
    np.testing.assert_array_equal(e.numpy(), t.numpy())
    for name, param in [("relu", None), ("leaky_relu", 0.2), ("tanh", None), ("selu", None),
                        ("conv2d", None), ("sigmoid", None)]:
        assert ember.nn.init.calculate_gain(name, param) == torch.nn.init.calculate_gain(name,
                                                                                        param)


@pytest.mark.parametrize("name,shape", [("Dropout", (50,)), ("Dropout1d", (4, 6, 3)),
                                        ("Dropout1d", (6, 3)), ("Dropout2d", (3, 5, 2, 2)),
                                        ("Dropout3d", (5, 2, 2, 2)), ("AlphaDropout", (40,)),
                                        ("FeatureAlphaDropout", (3, 6, 2))])
def test_dropout_draws_torch_stream(name, shape):
    x = RNG.standard_normal(shape)
    torch.manual_seed(7)
    ember.manual_seed(7)
    t = getattr(torch.nn, name)(0.4)(torch.tensor(x))
    e = getattr(ember.nn, name)(0.4)(ember.tensor(x))
    np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-12)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("pad", [(1, 2), (2, 1, 1, 0), (-1, 1)])
def test_pad_matches_torch(mode, pad):
    if mode != "constant" and min(pad) < 0:
        pytest.skip("negative padding is constant-mode only here")
    x = RNG.standard_normal((2, 3, 4, 5)[:len(pad) // 2 + 2])
    kw = {"value": 0.5} if mode == "constant" else {}
    tx, ex = torch.tensor(x, requires_grad=True), ember.tensor(x, requires_grad=True)
    t = torch.nn.functional.pad(tx, pad, mode=mode, **kw)
    e = ember.nn.functional.pad(ex, pad, mode=mode, **kw)
    np.testing.assert_allclose(e.detach().numpy(), t.detach().numpy())
    g = RNG.standard_normal(tuple(t.shape))
    t.backward(torch.tensor(g))
    e.backward(ember.tensor(g))
    np.testing.assert_allclose(ex.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


def test_functional_helpers_match_torch():
    x, y = RNG.standard_normal((4, 5)), RNG.standard_normal((4, 5))
    tF, eF = torch.nn.functional, ember.nn.functional
    T, E = torch.tensor, ember.tensor
    pairs = [
        (tF.normalize(T(x), p=3, dim=0), eF.normalize(E(x), p=3, dim=0)),
        (tF.cosine_similarity(T(x), T(y)), eF.cosine_similarity(E(x), E(y))),
        (tF.pairwise_distance(T(x), T(y), p=1.5), eF.pairwise_distance(E(x), E(y), p=1.5)),
        (tF.one_hot(T([0, 3, 1])), eF.one_hot(E([0, 3, 1]))),
        (tF.one_hot(T([[0], [2]]), 4), eF.one_hot(E([[0], [2]]), 4)),
    ]
    for t, e in pairs:
        assert str(e.dtype) == str(t.dtype)
        np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-12)


def test_printed_containers_match_torch():
    def build(nn, lib):
        return nn.ModuleDict({
            "blocks": nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.Tanh()]),
            "seq": nn.Sequential(nn.Flatten(), nn.Dropout(0.1)),
            "plist": nn.ParameterList([nn.Parameter(lib.ones(2, 3)), lib.zeros(4)]),
            "pdict": nn.ParameterDict({"a": nn.Parameter(lib.ones(2))}),
        })
    t, e = build(torch.nn, torch), build(ember.nn, ember)
    assert repr(e) == repr(t)
    assert list(e.state_dict()) == list(t.state_dict())
    assert repr(e["seq"][1:]) == repr(t["seq"][1:])


def test_load_state_dict_errors_match_torch():
    def net(nn):
        return nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    t_state = {"0.weight": torch.zeros(3, 3), "2.bias": torch.zeros(1), "junk": torch.zeros(1),
               "2.extra.x": torch.zeros(1)}
    e_state = {k: ember.tensor(v.numpy()) for k, v in t_state.items()}
    with pytest.raises(RuntimeError) as t_err:
        net(torch.nn).load_state_dict(t_state)
    with pytest.raises(RuntimeError) as e_err:
        net(ember.nn).load_state_dict(e_state)
    assert str(e_err.value) == str(t_err.value)
    t_keys = net(torch.nn).load_state_dict({}, strict=False)
    e_keys = net(ember.nn).load_state_dict({}, strict=False)
    assert repr(e_keys) == repr(t_keys)


@pytest.mark.parametrize("input_grad", [True, False])
def test_full_backward_hook_matches_torch(input_grad):
    x = RNG.standard_normal((3, 4))
    seen = {}

    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Tanh()).double()
        record = seen.setdefault(lib.__name__, [])

        def hook(module, grad_input, grad_output):
            record.append([None if g is None else g.detach().numpy().copy()
                           for g in grad_input + grad_output])
            return None if grad_input[0] is None else (grad_input[0] * 3,)

        for m in model:
            m.register_full_backward_hook(hook)
        xt = lib.tensor(x, requires_grad=input_grad)
        out = model(xt)
        out.backward(lib.ones_like(out))
        return xt.grad, model[0].weight.grad, type(out.grad_fn).__name__

    t_grad, t_wgrad, t_name = run(torch)
    e_grad, e_wgrad, e_name = run(ember)
    assert e_name == t_name
    assert (e_grad is None) == (t_grad is None)
    if t_grad is not None:
        np.testing.assert_allclose(e_grad.numpy(), t_grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(e_wgrad.numpy(), t_wgrad.numpy(), rtol=1e-6)
    for e_call, t_call in zip(seen["ember"], seen["torch"], strict=True):
        for e, t in zip(e_call, t_call, strict=True):
            assert (e is None) == (t is None)
            if t is not None:
                np.testing.assert_allclose(e, t, rtol=1e-6)


def test_forward_hooks_with_kwargs_match_torch():
    def run(lib):
        log = []

        class Scale(lib.nn.Module):
            def forward(self, x, factor=1.0):
                return x * factor

        m = Scale()
        m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": 3.0}),
                                    with_kwargs=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: log.append(kwargs) or out + 1,
                                with_kwargs=True)
        m.register_forward_hook(lambda mod, args, out: out * 2, prepend=True)
        return m(lib.ones(2)).tolist(), log

    assert run(ember) == run(torch)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch_in_lower_precision(name, dtype):
    """The same layers in float32 and half precision: dtypes of outputs and gradients, and
    values within the precision's tolerance."""
    make, specs = LAYERS[name]
    arrays = [a.astype(dtype if dtype != "bfloat16" else "float32") if a.dtype.kind == "f"
              else a for a in _arrays(specs)]
    tm, em = make(torch.nn), make(ember.nn)
    _copy_weights(tm, em)
    t_dtype, e_dtype = getattr(torch, dtype), getattr(ember, dtype)
    tm, em = tm.to(t_dtype), em.to(e_dtype)
    tol = {"float32": 1e-5, "float16": 2e-2, "bfloat16": 5e-2}[dtype]

    def run(lib, module, lib_dtype):
        tensors = [lib.tensor(a).to(lib_dtype).requires_grad_() if a.dtype.kind == "f"
                   else lib.tensor(a) for a in arrays]
        out = module(*tensors)
        out.float().sum().backward()
        return out, [t.grad for t in tensors if t.requires_grad]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            t_out, t_grads = run(torch, tm, t_dtype)
        except RuntimeError:
            with pytest.raises(RuntimeError):
                run(ember, em, e_dtype)
            return
        e_out, e_grads = run(ember, em, e_dtype)
    assert str(e_out.dtype) == str(t_out.dtype)
    np.testing.assert_allclose(e_out.detach().float().numpy(), t_out.detach().float().numpy(),
                               rtol=tol, atol=tol)
    for e, t in zip(e_grads, t_grads):
        assert (e is None) == (t is None)
        if t is None:
            continue
        assert str(e.dtype) == str(t.dtype)
        np.testing.assert_allclose(e.float().numpy(), t.float().numpy(), rtol=tol, atol=tol)


def test_full_backward_pre_hook_matches_torch():
    x = RNG.standard_normal((2, 3))

    def run(lib):
        lib.manual_seed(0)
        lin = lib.nn.Linear(3, 2).double()
        lin.register_full_backward_pre_hook(lambda m, grad_output: (grad_output[0] * 5,))
        xt = lib.tensor(x, requires_grad=True)
        lin(xt).sum().backward()
        return xt.grad.numpy(), lin.weight.grad.numpy()

    for e, t in zip(run(ember), run(torch)):
        np.testing.assert_allclose(e, t, rtol=1e-12)
