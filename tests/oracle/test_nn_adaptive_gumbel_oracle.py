"""AdaptiveLogSoftmaxWithLoss, F.gumbel_softmax, TripletMarginWithDistanceLoss, NLLLoss2d and
Container against real torch: printed results (float64, so sums round alike), reprs, warnings
and errors; float32 samples compared exactly and gradients closely. Skipped without torch."""
import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

from differential import compare  # noqa: E402

MAKE = "torch.manual_seed(0)\nm = torch.nn.AdaptiveLogSoftmaxWithLoss({args})\n"
ASM_ARGS = ["8, 20, [4, 10], div_value=2.0, dtype=torch.float64",
            "8, 20, [4, 10], dtype=torch.float64",
            "16, 30, (5, 12, 20), head_bias=True, dtype=torch.float64",
            "6, 10, [9], dtype=torch.float64", "6, 10, [1], dtype=torch.float64"]


def _asm_cases():
    for args in ASM_ARGS:
        yield (MAKE.format(args=args) + "print(m)\n"
               "print({k: (tuple(v.shape), round(v.sum().item(), 10))\n"
               "       for k, v in m.state_dict().items()})\n"
               "print(m.cutoffs, m.shortlist_size, m.n_clusters, m.head_size)")
        for target in ["[1, 5, 15]", "[0, 0, 0]", "[15, 19, 11]", "[3, 9, 4, 19, 10, 0]"]:
            n = target.count(",") + 1
            yield (MAKE.format(args=args)
                   + f"x = torch.randn({n}, m.in_features, dtype=torch.float64, "
                     f"requires_grad=True)\nt = torch.tensor({target})\n"
                   "try:\n    o = m(x, t)\nexcept Exception as e:\n"
                   "    print(type(e).__name__, e)\nelse:\n"
                   "    print(type(o).__name__, o._fields, o)\n    o.loss.backward()\n"
                   "    print(x.grad)\n    print({k: p.grad for k, p in m.named_parameters()})\n"
                   "lp = m.log_prob(x)\n"
                   "print(lp, bool((lp.exp().sum(1) - 1).abs().max() < 1e-12))\n"
                   "print(m.predict(x), lp.argmax(1))")
        yield (MAKE.format(args=args)
               + "x = torch.randn(m.in_features, dtype=torch.float64, requires_grad=True)\n"
                 "o = m(x, torch.tensor(3))\nprint(o)\no.loss.backward()\nprint(x.grad)")
    for cutoffs in ["[]", "[4, 3]", "[0, 4]", "[4, 20]", "[4, 4]", "[4.5]", "[19]"]:
        yield MAKE.format(args=f"8, 20, {cutoffs}") + "print(m.cutoffs)"
    for x, t in [("(3, 8)", "[1, 2]"), ("(3, 8)", "[1, 2, 20]"), ("(3, 8)", "[1, -2, 5]"),
                 ("(3, 8)", "[[1, 2, 5]]"), ("(3, 8, 1)", "[1, 2, 5]"), ("(3, 8)", "1")]:
        yield MAKE.format(args="8, 20, [4, 10]") + f"print(m(torch.randn{x}, torch.tensor({t})))"
    yield (MAKE.format(args="8, 20, [4, 10]")
           + "m.reset_parameters()\nprint(m.head.weight.sum(), m.tail[1][1].weight.sum())")


def _gumbel_cases():
    for shape, dim in [((3, 5), -1), ((3, 5), 0), ((2, 3, 4), 1), ((7,), 0), ((40, 30), -1)]:
        for tau, hard in [(1, False), (0.5, True), (2.0, False), (1, True)]:
            yield (f"torch.manual_seed(3)\nx = torch.randn({shape}, dtype=torch.float64)"
                   f".requires_grad_()\n"
                   f"y = torch.nn.functional.gumbel_softmax(x, tau={tau}, hard={hard}, "
                   f"dim={dim})\nprint(y.grad_fn.name(), y.dtype)\nprint(y)\n"
                   f"y.backward(torch.linspace(-1, 1, y.numel(), dtype=y.dtype)"
                   f".reshape(y.shape))\nprint(x.grad)\nprint(torch.rand(2))")
    yield ("import warnings\nwarnings.simplefilter('error')\n"
           "torch.nn.functional.gumbel_softmax(torch.zeros(2, 3), eps=1e-5)")
    yield "print(torch.nn.functional.gumbel_softmax(torch.zeros(2, 3), dim=2))"
    yield "print(torch.nn.functional.gumbel_softmax(torch.zeros(2, 3, dtype=torch.int64)))"
    yield ("torch.manual_seed(0)\n"
           "print(torch.nn.functional.gumbel_softmax(torch.zeros(2, 3, dtype=torch.float16)))")
    yield ("torch.manual_seed(0)\n"
           "print(torch.nn.functional.gumbel_softmax(torch.zeros(5, 3).t(), hard=True))")
    yield "torch.manual_seed(0)\nprint(torch.nn.functional.gumbel_softmax(torch.zeros(0, 3)))"


def _triplet_cases():
    for kw in ["", "margin=2.0", "swap=True", "reduction='sum'", "reduction='none'",
               "distance_function=lambda a, b: (a - b).abs().sum(-1)",
               "distance_function=torch.nn.CosineSimilarity(), swap=True, reduction='none'",
               "distance_function=torch.nn.PairwiseDistance(p=1)", "margin=0", "margin=-1",
               "reduction='bad'"]:
        for shape in ["(4, 5)", "(5,)", "(2, 3, 4)"]:
            tensors = (f"torch.manual_seed(1)\na, p, n = (torch.randn({shape}, "
                       f"dtype=torch.float64, requires_grad=True) for _ in range(3))\n")
            tail = "print(l, l.grad_fn.name())\nl.sum().backward()\nprint(a.grad, p.grad, n.grad)"
            yield (tensors + f"l = torch.nn.functional.triplet_margin_with_distance_loss("
                             f"a, p, n, {kw})\n" + tail)
            yield (tensors + f"m = torch.nn.TripletMarginWithDistanceLoss({kw})\nprint(m)\n"
                             f"l = m(a, p, n)\n" + tail)
    yield ("print(torch.nn.functional.triplet_margin_with_distance_loss(torch.ones(2, 3), "
           "torch.ones(3), torch.ones(2, 3)))")
    yield "print(torch.nn.TripletMarginWithDistanceLoss(margin=1, p=2))"
    yield "print(torch.nn.TripletMarginWithDistanceLoss(torch.nn.PairwiseDistance()))"


DEPRECATED = [
    "import warnings\nwith warnings.catch_warnings(record=True) as w:\n"
    "    warnings.simplefilter('always')\n"
    "    m = torch.nn.NLLLoss2d(reduction='sum', ignore_index=1)\n"
    "print(m, m.reduction, m.ignore_index, isinstance(m, torch.nn.NLLLoss),\n"
    "      [str(x.message) for x in w], [x.category.__name__ for x in w])\n"
    "x = torch.randn(2, 3, 4, 4, dtype=torch.float64).log_softmax(1)\n"
    "t = torch.tensor([[[0, 1, 2, 1]] * 4, [[2, 2, 0, 1]] * 4])\n"
    "print(m(x, t), torch.nn.NLLLoss(reduction='sum', ignore_index=1)(x, t))",
    "import warnings\nwith warnings.catch_warnings(record=True) as w:\n"
    "    warnings.simplefilter('always')\n"
    "    c = torch.nn.Container(a=torch.nn.Linear(1, 2), b=torch.nn.ReLU())\n"
    "print(c, [str(x.message) for x in w], [x.category.__name__ for x in w],\n"
    "      list(dict(c.named_parameters())))",
    "import warnings\nwith warnings.catch_warnings(record=True) as w:\n"
    "    warnings.simplefilter('always')\n"
    "    class C(torch.nn.Container):\n        pass\n"
    "print(len(w), [x.category.__name__ for x in w])",
]


ASM = "torch.manual_seed(0)\nm = torch.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])\n"
WRONG_INPUTS = [
    ASM + "print(m(torch.ones(2, 4, dtype=torch.float64), torch.tensor([1, 2])))",
    ASM + "print(m(torch.ones(2, 4), torch.tensor([1., 2.])))",
    ASM + "print(m(torch.ones(2, 4), torch.tensor([1, 2], dtype=torch.int32)))",
    ASM + "print(m(torch.ones(2, 5), torch.tensor([1, 2])))",
    ASM + "print(m(torch.ones(0, 4), torch.tensor([], dtype=torch.int64)))",
    ASM + "print(m.log_prob(torch.ones(4)))",
    ASM + "print(m.predict(torch.ones(4)))",
    ASM + "print(m.log_prob(torch.ones(0, 4)), m.predict(torch.ones(0, 4)))",
    "print(torch.nn.functional.gumbel_softmax(torch.ones(())))",
    "torch.manual_seed(0)\nprint(torch.nn.functional.gumbel_softmax(torch.ones(()), hard=True))",
    "torch.manual_seed(0)\nprint(torch.nn.functional.gumbel_softmax(torch.ones(3), tau=0))",
    "torch.manual_seed(0)\n"
    "print(torch.nn.functional.gumbel_softmax(torch.ones(3, dtype=torch.bfloat16), hard=True))",
] + [f"print(torch.nn.functional.triplet_margin_with_distance_loss({a}, {p}, {n}))"
     for a, p, n in [("torch.ones(2, 3, dtype=torch.int64)",) * 3, ("torch.ones(())",) * 3,
                     ("torch.ones(2, 3)", "torch.ones(2, 3, dtype=torch.float64)",
                      "torch.ones(2, 3)"),
                     ("torch.ones(2, 3)", "torch.ones(2, 4)", "torch.ones(2, 3)")]]


@pytest.mark.parametrize("snippet", list(_asm_cases()) + list(_gumbel_cases())
                         + list(_triplet_cases()) + DEPRECATED + WRONG_INPUTS)
def test_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet


@pytest.mark.parametrize("dtype,rtol", [("float32", 1e-5), ("float64", 1e-13)])
@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_samples_against_torchs(hard, dtype, rtol):
    """Same seed, same draws: samples and gradients equal to the dtype's rounding (torch's
    float32 exp and softmax kernels round differently from NumPy's in the last bits)."""
    logits = np.random.default_rng(0).standard_normal((40, 30)).astype(dtype)
    weights = np.random.default_rng(1).standard_normal((40, 30)).astype(dtype)
    results = []
    for lib in (torch, ember):
        lib.manual_seed(3)
        x = lib.tensor(logits, requires_grad=True)
        y = lib.nn.functional.gumbel_softmax(x, tau=0.5, hard=hard)
        (y * lib.tensor(weights)).sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy()))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=rtol, atol=rtol / 10)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=rtol * 10, atol=rtol / 10)
    if hard:
        np.testing.assert_array_equal(results[1][0], results[0][0])


def test_float32_adaptive_softmax_against_torch():
    """Same seed, same float32 weights exactly; outputs and gradients to float32 rounding."""
    x = np.random.default_rng(2).standard_normal((9, 16)).astype(np.float32)
    target = np.random.default_rng(3).integers(0, 30, 9)
    results = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        m = lib.nn.AdaptiveLogSoftmaxWithLoss(16, 30, [5, 12, 20], head_bias=True)
        state = {k: v.numpy().copy() for k, v in m.state_dict().items()}
        xt = lib.tensor(x, requires_grad=True)
        out = m(xt, lib.tensor(target))
        out.loss.backward()
        results.append((state, out.output.detach().numpy(), xt.grad.numpy(),
                        m.log_prob(xt).detach().numpy(), m.predict(xt).numpy()))
    (s0, o0, g0, l0, p0), (s1, o1, g1, l1, p1) = results
    assert list(s0) == list(s1)
    for k in s0:
        np.testing.assert_array_equal(s1[k], s0[k])
    np.testing.assert_allclose(o1, o0, rtol=1e-5)
    np.testing.assert_allclose(g1, g0, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(l1, l0, rtol=1e-5)
    assert p1.tolist() == p0.tolist()


def test_state_dicts_load_both_ways():
    tm = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10], head_bias=True)
    em = ember.nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10], head_bias=True)
    em.load_state_dict({k: ember.tensor(v.numpy()) for k, v in tm.state_dict().items()})
    tm.load_state_dict({k: torch.tensor(v.numpy()) for k, v in em.state_dict().items()})
    x = np.random.default_rng(4).standard_normal((5, 8)).astype(np.float32)
    np.testing.assert_allclose(em.log_prob(ember.tensor(x)).detach().numpy(),
                               tm.log_prob(torch.tensor(x)).detach().numpy(), rtol=1e-5)
