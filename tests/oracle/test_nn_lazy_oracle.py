"""Lazy modules against real torch: printed forms before and after the first call, the errors
(types and texts) of uninitialized parameters and buffers, state_dict contents, and the
numbers a lazy module starts with for the same seed. Skipped when torch is not installed."""
import copy
import re
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

LAZY_CASES = [
    ("LazyLinear", (4,), {}, (2, 3)),
    ("LazyLinear", (3,), {"bias": False}, (2, 5, 2)),
    ("LazyConv1d", (4, 3), {"stride": 2}, (2, 3, 9)),
    ("LazyConv2d", (4, 3), {"groups": 2, "padding": 1, "bias": False}, (2, 4, 5, 5)),
    ("LazyConv2d", (4, 3), {"padding": "same", "padding_mode": "reflect"}, (1, 2, 5, 5)),
    ("LazyConv3d", (2, 2), {"dilation": 1}, (1, 2, 3, 3, 3)),
    ("LazyConvTranspose1d", (4, 3), {"output_padding": 1, "stride": 2}, (2, 3, 5)),
    ("LazyConvTranspose2d", (4, 3), {"stride": 2, "groups": 2}, (2, 2, 3, 3)),
    ("LazyConvTranspose3d", (2, 2), {}, (1, 2, 2, 2, 2)),
    ("LazyBatchNorm1d", (), {}, (4, 3)),
    ("LazyBatchNorm2d", (), {"affine": False}, (2, 3, 2, 2)),
    ("LazyBatchNorm3d", (), {"momentum": None, "bias": False}, (2, 3, 2, 2, 2)),
    ("LazyInstanceNorm1d", (), {}, (2, 3, 4)),
    ("LazyInstanceNorm2d", (), {"track_running_stats": False}, (2, 3, 4, 4)),
    ("LazyInstanceNorm3d", (), {"affine": False, "eps": 1e-3}, (2, 3, 2, 2, 2)),
]


def _normalize(text):
    return re.sub(r" at 0x[0-9a-f]+", "", text.replace("ember.", "torch."))


def _outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok " + _normalize(repr(fn()))
    except Exception as e:      # noqa: BLE001 - the exception is what is compared
        return f"{type(e).__name__}: {_normalize(str(e))}"


@pytest.mark.parametrize("name, args, kwargs, shape", LAZY_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(LAZY_CASES)])
def test_lazy_layer_against_torch(name, args, kwargs, shape):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    seen = {}
    for lib in (torch, ember):
        lib.manual_seed(11)
        m = getattr(lib.nn, name)(*args, **kwargs)
        before = repr(m)
        keys = [(k, type(v).__name__) for k, v in m.state_dict().items()]
        lib.manual_seed(12)
        xt = lib.tensor(x, requires_grad=True)
        y = m(xt)
        y.sum().backward()
        seen[lib.__name__] = dict(
            before=before, after=repr(m), cls=type(m).__name__, keys=keys,
            grad_fn=y.grad_fn.name(), y=y.detach().numpy(), dx=xt.grad.numpy(),
            state={k: v.detach().numpy().copy() for k, v in m.state_dict().items()})
    t, e = seen["torch"], seen["ember"]
    for key in ("before", "after", "cls", "keys", "grad_fn"):
        assert e[key] == t[key], key
    np.testing.assert_allclose(e["y"], t["y"], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(e["dx"], t["dx"], rtol=1e-4, atol=1e-5)
    assert list(e["state"]) == list(t["state"])
    for k in t["state"]:
        np.testing.assert_allclose(e["state"][k], t["state"][k], rtol=1e-5, atol=1e-6,
                                   err_msg=k)


UNINITIALIZED_USES = [
    "p.numel()", "p.dim()", "p.sum()", "p.detach()", "p.clone()", "p.shape", "p.size()",
    "p.dtype", "p.requires_grad", "p.is_leaf", "p.data", "p + 1", "1 + p", "x + p", "p * 2",
    "x * p", "p / 2", "x - p", "p @ x", "x @ p", "-p", "abs(p)", "p < 1", "x < p", "p != 1",
    "p == 1", "len(p)", "p[0]", "bool(p)", "p.t()", "p.requires_grad_(False)", "p.view(-1)",
    "p.tolist()", "p.item()", "p.to(lib.float64)", "p.double()", "p.float()", "p.cpu()",
    "p.long()", "p.bool()", "p.half()", "p.is_floating_point()", "p.get_device()", "str(p)",
    "format(p)", "p.register_hook(print)", "p.share_memory_()", "copy.copy(p)",
    "copy.deepcopy(p)", "p.materialize((2, 3)) or (type(p).__name__, p.shape)",
    "p.materialize((2,), dtype=lib.int64)", "b.to(lib.float64)", "b.long()",
    "copy.deepcopy(b)", "len(b)", "b.numel()", "b.materialize(3) or type(b).__name__",
    "lib.nn.UninitializedParameter(3)", "lib.nn.UninitializedParameter(True, None, lib.int64)",
    "lib.nn.Parameter(lib.zeros(2, dtype=lib.long))",
    "m.load_state_dict(lib.nn.LazyLinear(2).state_dict())",
    "lib.nn.Linear(3, 2).load_state_dict(lib.nn.LazyLinear(2).state_dict())",
    "m.has_uninitialized_params()", "m.state_dict()", "m.share_memory()",
    "m.requires_grad_(False)", "copy.deepcopy(m)", "lib.nn.LazyBatchNorm2d().state_dict()",
    "copy.deepcopy(lib.nn.LazyBatchNorm2d())", "lib.nn.LazyConv2d(8, 3)(lib.zeros(5, 5))",
    "lib.nn.LazyConv2d(8, 3, groups=2)(lib.zeros(1, 3, 5, 5))",
    "lib.nn.LazyConvTranspose2d(8, 3, padding_mode='reflect')",
    "lib.nn.LazyBatchNorm1d()(lib.zeros(2, 3, 4, 4))",
    "lib.nn.LazyInstanceNorm2d()(lib.zeros(3, 4, 4))", "lib.nn.LazyLinear(3)(lib.tensor(2.))",
    "lib.nn.LazyLinear(3)()",
]


@pytest.mark.parametrize("expr", UNINITIALIZED_USES)
def test_uninitialized_uses_against_torch(expr):
    outcomes = []
    for lib in (torch, ember):
        scope = dict(lib=lib, copy=copy, p=lib.nn.UninitializedParameter(),
                     b=lib.nn.UninitializedBuffer(), x=lib.zeros(2), m=lib.nn.LazyLinear(2))
        outcomes.append(_outcome(lambda: eval(expr, scope)))
    assert outcomes[1] == outcomes[0]


def test_loaded_lazy_module_against_torch():
    seen = []
    for lib in (torch, ember):
        lib.manual_seed(3)
        src = lib.nn.Linear(2, 3)
        m = lib.nn.LazyLinear(3)
        m.load_state_dict(src.state_dict())
        first = (repr(m), type(m.weight).__name__)
        wrong = _outcome(lambda: m(lib.ones(1, 5)))
        y = m(lib.ones(1, 2))
        seen.append((first, wrong, repr(m), y.detach().numpy().round(6).tolist()))
    assert _normalize(repr(seen[1])) == _normalize(repr(seen[0]))


@pytest.mark.parametrize("expr", ["x / p", "2 / p", "1 - p", "x // p", "2 // p", "x % p", "2 % p",
                                  "2 ** p", "x ** p", "x & p", "x | p", "x ^ p", "p ** 2"])
def test_reflected_operators_against_torch(expr):
    outcomes = []
    for lib in (torch, ember):
        p = lib.nn.UninitializedParameter(requires_grad=False)
        scope = dict(p=p, x=lib.zeros(2, dtype=lib.float32))
        outcomes.append(_outcome(lambda: eval(expr, scope)))
    assert outcomes[1] == outcomes[0]
