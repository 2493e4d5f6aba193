"""Losses under inputs found by a random fuzzer, run under real torch and under ember (`import
ember as torch`): what each snippet prints, including an exception's type and first line, must
be identical.

Minimized from the fuzzer's differences: the graphs torch's C++ composites record (ViewBackward0
around the 4-D kernel of 3-D and 5-D nll_loss, no edge for the target, MulBackward1 /
AddBackward1 for numbers, SubBackward0 for number - tensor, NegBackward0 over a
probability-target cross_entropy), signed zeros, broadcasting that leaves a same-shaped input
alone, smooth_l1_loss's beta 0, bool targets, and the order of the target checks.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = """torch.manual_seed(0); F = torch.nn.functional
def chain(t):
    f, out = t.grad_fn, []
    while f is not None:
        out.append(f.name())
        nf = [n for n, _ in f.next_functions if n is not None]
        f = nf[0] if nf else None
    return out
def edges(t):
    return [n.name() if n is not None else None for n, _ in t.grad_fn.next_functions]
def show(t, x):
    print(t.dtype, tuple(t.shape), chain(t))
    print(np.round(t.detach().double().numpy(), 5).tolist())
    (t.sum() * 1).backward()
    print(np.round(x.grad.double().numpy(), 5).tolist())
"""

_NLL_SHAPES = [((2, 3, 4), (2, 4)), ((2, 3, 2, 1, 2), (2, 2, 1, 2)), ((0, 2, 2), (0, 2)),
               ((2, 2, 0), (2, 0)), ((2, 3), (2,)), ((2, 3, 2, 2), (2, 2, 2))]

SNIPPETS = [SETUP + s for s in [
    # nll_loss / cross_entropy of 3-D and 5-D inputs go through the 4-D kernel by views
    *(f"g = np.random.default_rng(0)\nx = torch.tensor(g.standard_normal({xs}), requires_grad=True)\n"
      f"t = torch.tensor(g.integers(0, {xs[1]}, {ts}))\n"
      f"l = F.{fn}(x, t, reduction={red!r})\nshow(l, x)\nprint(edges(l))"
      for xs, ts in _NLL_SHAPES for fn in ("nll_loss", "cross_entropy")
      for red in ("none", "mean", "sum")),
    "x = torch.zeros(2, 2, 3, requires_grad=True)\nl = F.nll_loss(x, torch.zeros(2, 3, dtype=torch.long), ignore_index=0)\nprint(l, chain(l))",
    "x = torch.randn(2, 3, 4, requires_grad=True)\nl = F.nll_loss(x, torch.ones(2, 4, dtype=torch.long), weight=torch.rand(3), reduction='none')\nprint(l.shape, chain(l))",
    # signed zeros
    "x = torch.tensor([0.3], dtype=torch.float64, requires_grad=True)\nprint(F.cross_entropy(x, torch.tensor(0), reduction='none'))",
    "print(F.nll_loss(torch.tensor([0.0]), torch.tensor(0), reduction='none'))",
    "print(F.nll_loss(torch.tensor([[0.0], [0.0]]), torch.tensor([0, 0]), reduction='none'))",
    "print(F.nll_loss(torch.tensor([[0.0], [0.0]]), torch.tensor([0, 0]), reduction='sum'))",
    # class-probability targets: torch negates after summing
    *(f"x = torch.zeros({n}, 2, requires_grad=True)\nt = torch.full(({n}, 2), 0.5)\n"
      f"l = F.cross_entropy(x, t, reduction={red!r}{extra})\nprint(l, chain(l))"
      for n in (3, 0) for red in ("mean", "sum", "none")
      for extra in ("", ", weight=torch.ones(2), label_smoothing=0.2")),
    "x = torch.randn(3, 1, requires_grad=True)\nprint(F.cross_entropy(x, torch.ones(3, 1)))",
    # label smoothing of class indices scales by numbers (MulBackward1)
    *(f"x = torch.randn(2, 3, 4, requires_grad=True)\nt = torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])\n"
      f"l = F.cross_entropy(x, t, reduction={red!r}, label_smoothing=0.1{extra})\nshow(l, x)\nprint(edges(l))"
      for red in ("none", "mean", "sum") for extra in ("", ", weight=torch.tensor([1., 2., 3.])")),
    # smooth_l1_loss with beta 0 is l1_loss
    *(f"torch.manual_seed(1)\nx = torch.randn(3, 2, requires_grad=True)\n"
      f"l = F.smooth_l1_loss(x, torch.randn(3, 2), beta=0.0, reduction={red!r})\nshow(l, x)"
      for red in ("none", "mean", "sum")),
    "print(torch.nn.SmoothL1Loss(beta=0.0)(torch.ones(2, requires_grad=True), torch.zeros(2)))",
    # broadcasting expands only the tensor whose shape differs
    "x = torch.tensor([0.5, 0.25], requires_grad=True)\nl = F.mse_loss(x, torch.tensor(1.0), reduction='sum')\nprint(chain(l))",
    "x = torch.zeros(0, requires_grad=True)\nl = F.l1_loss(x, torch.tensor(1.0), reduction='sum')\nprint(l, chain(l))",
    "x = torch.tensor(0.5, requires_grad=True)\nl = F.mse_loss(x, torch.ones(3))\nprint(l, chain(l))",
    # numbers in C++ composites: AddBackward1 for tensor + number, SubBackward0 for number - tensor
    *(f"torch.manual_seed(2)\na = torch.randn({s}, requires_grad=True)\nb, y = torch.randn({s}), torch.tensor({y})\n"
      f"l = F.margin_ranking_loss(a, b, y, margin=0.5, reduction={red!r})\nshow(l, a)"
      for s, y in (("3", "[1., -1., 1.]"), ("0", "[]")) for red in ("none", "mean", "sum")),
    *(f"torch.manual_seed(3)\na = torch.randn(3, 4, requires_grad=True)\np, n = torch.randn(3, 4), torch.randn(3, 4)\n"
      f"l = F.triplet_margin_loss(a, p, n, margin=0.5, p={p}, swap={swap})\nshow(l, a)"
      for p in (1, 2, 3) for swap in (False, True)),
    "torch.manual_seed(3)\na = torch.randn(3, 4, requires_grad=True)\np, n = torch.randn(3, 4), torch.randn(3, 4)\nl = F.triplet_margin_with_distance_loss(a, p, n, swap=True)\nshow(l, a)",
    "torch.manual_seed(3)\na = torch.randn(4, requires_grad=True)\nl = F.pairwise_distance(a, torch.randn(4))\nshow(l, a)",
    "a = torch.tensor([1, 2, 3])\nprint(F.pairwise_distance(a, torch.tensor([0, 0, 0])))",
    *(f"torch.manual_seed(4)\na = torch.randn(3, 4, requires_grad=True)\nb = torch.randn(3, 4)\n"
      f"l = F.cosine_embedding_loss(a, b, torch.tensor([1., -1., 1.]), margin=0.2, reduction={red!r})\nshow(l, a)"
      for red in ("none", "mean", "sum")),
    *(f"torch.manual_seed(5)\nx = torch.randn(2, 3, requires_grad=True)\n"
      f"l = F.hinge_embedding_loss(x, torch.tensor([[1., -1., 1.], [-1., -1., 1.]]), margin={m}, reduction={red!r})\nshow(l, x)"
      for m in (1.0, 0.3) for red in ("none", "mean", "sum")),
    "print(F.hinge_embedding_loss(torch.tensor([1, 2, 0]), torch.tensor([1, -1, -1]), margin=1.5, reduction='sum'))",
    # bool targets: mse / smooth_l1 promote them in backward too; huber's backward refuses them
    *(f"x = torch.tensor([0.25, 0.5], requires_grad=True)\nl = F.{fn}(x, torch.tensor([True, False]))\nprint(l)\nl.backward(); print(x.grad)"
      for fn in ("mse_loss", "smooth_l1_loss", "huber_loss", "l1_loss")),
    *(f"x = torch.tensor([0.25, 0.5], requires_grad=True)\nl = F.huber_loss(x, torch.tensor({y}))\nprint(l)\nl.backward(); print(x.grad)"
      for y in ("[1, 0]", "[1., 0.], dtype=torch.float64")),
    "x = torch.tensor([0.25, 0.5], dtype=torch.float64, requires_grad=True)\nl = F.mse_loss(x, torch.tensor([1, 0]))\nprint(l)\nl.backward(); print(x.grad)",
    # the order of nll_loss's target checks
    "print(F.nll_loss(torch.rand(2, 3), torch.tensor(1)))",
    "print(F.nll_loss(torch.rand(2, 3), torch.tensor(1.)))",
    "print(F.cross_entropy(torch.rand(2, 3), torch.tensor(1)))",
    "print(F.cross_entropy(torch.rand(2, 3), torch.tensor(1.)))",
    "print(F.nll_loss(torch.rand(2), torch.tensor([1., 0.])))",
    "print(F.nll_loss(torch.rand(2), torch.tensor([1, 0])))",
    "print(F.nll_loss(torch.rand(2), torch.tensor([[1., 0.]])))",
    "print(F.nll_loss(torch.rand(2, 3, 4), torch.zeros(2, 5)))",
    "print(F.nll_loss(torch.rand(2, 3, 4, 5), torch.zeros(2, 5)))",
    "print(F.nll_loss(torch.rand(2, 3), torch.tensor([1., 0.]), weight=torch.ones(2)))",
    "print(F.nll_loss(torch.rand(2), torch.tensor([1]), weight=torch.ones(3)))",
    "print(F.cross_entropy(torch.rand(0, 1, dtype=torch.float64), torch.tensor(1)))",
    "print(F.nll_loss(torch.rand(0, 3), torch.tensor(0)))",
    "x = torch.zeros(1, 1, 2, requires_grad=True)\nprint(F.cross_entropy(x, torch.tensor([[-100, 0]]), reduction='none'))",
    "x = torch.zeros(2, 1, requires_grad=True)\nprint(F.nll_loss(x, torch.tensor([0, 3]), ignore_index=3, reduction='none'))",
    # multi_margin / multilabel_margin: a 0-d target for a batch of one
    "x = torch.tensor([[0.2, 0.7]], requires_grad=True)\nl = F.multi_margin_loss(x, torch.tensor(1))\nshow(l, x)",
    "print(F.multi_margin_loss(torch.tensor([[0.2, 0.7]]), torch.tensor(1, dtype=torch.int32)))",
    "print(F.multi_margin_loss(torch.rand(2, 2), torch.tensor(1)))",
    "print(F.multi_margin_loss(torch.tensor([0.2, 0.7]), torch.tensor(0)))",
    "print(F.multi_margin_loss(torch.tensor([0.2, 0.7]), torch.tensor([0, 1])))",
    "print(F.multilabel_margin_loss(torch.tensor([0.4]), torch.tensor(0)))",
    "print(F.multilabel_margin_loss(torch.tensor([0.4]), torch.tensor(1)))",
    "print(F.multilabel_margin_loss(torch.rand(3), torch.tensor(1)))",
    "x = torch.tensor([0.1, 0.9], requires_grad=True)\nl = F.multilabel_margin_loss(x, torch.tensor([1, -1]))\nshow(l, x)",
    "print(F.multilabel_margin_loss(torch.rand(2, 2), torch.tensor([1, -1])))",
    "print(F.multilabel_margin_loss(torch.tensor(0.4), torch.tensor([0])))",
    "print(F.nll_loss(torch.rand(0, 3), torch.tensor(0.)))",
    "print(F.cross_entropy(torch.rand(0, 3), torch.tensor(True)))",
    # where torch's Python checks the reduction: first, after broadcasting, or last
    *(f"x = torch.tensor([[True, False]])\nprint(F.{fn}(x, x, {args}reduction={red!r}))"
      for fn, args in (("cosine_embedding_loss", "x, "), ("margin_ranking_loss", "x, "),
                       ("hinge_embedding_loss", ""), ("triplet_margin_loss", "x, "),
                       ("poisson_nll_loss", ""), ("l1_loss", ""))
      for red in ("bogus", "batchmean")),
    *(f"print(F.{fn}(torch.rand(2, 3), torch.rand(2, 0), reduction='bogus'))"
      for fn in ("mse_loss", "smooth_l1_loss", "l1_loss")),
    "print(F.smooth_l1_loss(torch.rand(2, 3), torch.rand(2, 3), reduction='bogus', beta=-1.0))",
    "print(F.multilabel_soft_margin_loss(torch.rand(2, 3), torch.rand(2, 3), reduction='bogus'))",
    "print(F.multilabel_soft_margin_loss(torch.rand(2, 3), torch.rand(2, 3), reduction='batchmean'))",
    # multi_margin_loss's weight must be 1-D
    "print(F.multi_margin_loss(torch.rand(2, 3), torch.tensor([0, 2]), weight=torch.ones(1, 3)))",
    "print(F.multi_margin_loss(torch.rand(2, 3), torch.tensor(1), weight=torch.tensor(1.)))",
    # cross_entropy with probabilities checks its weight (and a 0-d input) before log_softmax
    "print(F.cross_entropy(torch.rand(2, 3, dtype=torch.float64), torch.rand(2, 3, dtype=torch.float16), weight=torch.ones(2, dtype=torch.float64)))",
    "print(F.cross_entropy(torch.rand(2, 3), torch.rand(2, 3), weight=torch.ones(1, 3)))",
    "print(F.cross_entropy(torch.tensor(1, dtype=torch.int32), torch.tensor(1.)))",
    "print(F.cross_entropy(torch.tensor(0.5), torch.tensor(True)))",
    "print(F.cross_entropy(torch.tensor(0.5), torch.tensor(1.)))",
    "print(F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([[True, False]])))",
    # bool operands of soft_margin_loss (its backward negates the target) and margin_ranking_loss
    "x = torch.tensor([0.5, 0.2], requires_grad=True)\nl = F.soft_margin_loss(x, torch.tensor([True, False]))\nprint(l)\nl.backward()",
    "print(F.soft_margin_loss(torch.tensor([True, False]), torch.tensor([0.5, 0.2])))",
    "print(F.soft_margin_loss(torch.tensor([True, False]), torch.tensor([[0.5, 0.2], [1., 2.]])))",
    "x = torch.tensor([[True, False]])\nprint(F.margin_ranking_loss(x, x, x))",
]]

BUGS = [
    ("binary_cross_entropy_with_logits: torch refuses an integer input (log_sigmoid's kernel) "
     "before the broadcast of weight / pos_weight; ember checks the broadcast first",
     SETUP + "print(F.binary_cross_entropy_with_logits(torch.tensor([[1], [0]], dtype=torch.int32), torch.ones(2, 1), weight=torch.ones(2)))"),
    ("binary_cross_entropy: torch compares the dtypes before the shapes",
     SETUP + "print(F.binary_cross_entropy(torch.rand(2, 1), torch.ones(2, 1, dtype=torch.int32), weight=torch.ones(2)))"),
    ("huber_loss of a bool input and an integer target: torch's cast error comes first",
     SETUP + "x = torch.tensor([True, False, True])\nprint(F.huber_loss(x, torch.tensor([1, 0, 0]), reduction='sum'))"),
    ("multilabel_margin_loss of an empty batch accepts a floating target in torch",
     SETUP + "x = torch.zeros(0, 3, requires_grad=True)\nl = F.multilabel_margin_loss(x, torch.zeros(0, 3, dtype=torch.float64), reduction='none')\nprint(l.shape, l.grad_fn.name())"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS,
                                                                            at_least=100)
