"""Short snippets of less common torch.nn.functional usage, run under real torch and under
ember (`import ember as torch`): what they print, including an exception's type and text, must
be identical.

Families: interpolate (every mode, align_corners, recompute_scale_factor, antialias, errors),
affine_grid + grid_sample, unfold / fold, embedding (max_norm renormalising in place,
padding_idx, scale_grad_by_freq), embedding_bag, one_hot, normalize, pdist / cdist,
cosine_similarity / pairwise_distance, pad, softmax family with dtype=, gumbel_softmax,
dropout family, activations at edge points (thresholds, inf, nan) and their gradients, the
functional normalisations with running statistics, local_response_norm, ctc_loss.
"""
import pytest

pytest.importorskip("torch")

from differential import snippet_tests  # noqa: E402

pytestmark = pytest.mark.oracle

P = "F = torch.nn.functional\n"
S = []


def add(snippet):
    S.append(P + snippet)


# -- interpolate, grid_sample, unfold / fold, embeddings, distances, pad, softmax, dropout ----
# interpolate
for mode, ac in [("nearest", None), ("nearest-exact", None), ("linear", False), ("linear", True)]:
    add("x = torch.arange(10.).reshape(1, 2, 5)\n"
        f"print(F.interpolate(x, scale_factor=1.7, mode='{mode}', align_corners={ac}))")
    add("x = torch.arange(10.).reshape(1, 2, 5)\n"
        f"print(F.interpolate(x, size=3, mode='{mode}', align_corners={ac}))")
for mode, ac in [("nearest", None), ("nearest-exact", None), ("bilinear", False), ("bilinear", True), ("bicubic", False), ("bicubic", True), ("area", None)]:
    add("x = torch.arange(20.).reshape(1, 1, 4, 5)\n"
        f"print(F.interpolate(x, scale_factor=(1.5, 0.6), mode='{mode}', align_corners={ac}).double().round(decimals=2))")
    add("x = torch.arange(20.).reshape(1, 1, 4, 5)\n"
        f"print(F.interpolate(x, scale_factor=(1.5, 0.6), mode='{mode}', align_corners={ac}, recompute_scale_factor=True).double().round(decimals=2))")
    add("x = torch.arange(20.).reshape(1, 1, 4, 5)\n"
        f"print(F.interpolate(x, size=(7, 3), mode='{mode}', align_corners={ac}).double().round(decimals=2))")
for mode in ["bilinear", "bicubic"]:
    add("x = torch.arange(64.).reshape(1, 1, 8, 8)\n"
        f"print(F.interpolate(x, size=(3, 5), mode='{mode}', antialias=True).double().round(decimals=4))")
    add("x = torch.arange(16.).reshape(1, 1, 4, 4)\n"
        f"print(F.interpolate(x, size=(6, 7), mode='{mode}', antialias=True).double().round(decimals=4))")
    add("x = torch.arange(64.).reshape(1, 1, 8, 8).requires_grad_()\n"
        f"y = F.interpolate(x, scale_factor=0.4, mode='{mode}', antialias=True)\n"
        "y.sum().backward()\n"
        "print(y.shape, x.grad.double().round(decimals=4))")
for mode, ac in [("nearest", None), ("trilinear", False), ("trilinear", True), ("area", None), ("nearest-exact", None)]:
    add("x = torch.arange(24.).reshape(1, 1, 2, 3, 4)\n"
        f"print(F.interpolate(x, scale_factor=(2, 1.5, 0.5), mode='{mode}', align_corners={ac}).double().round(decimals=4))")
    add("x = torch.arange(24.).reshape(1, 1, 2, 3, 4).requires_grad_()\n"
        f"F.interpolate(x, size=(3, 2, 5), mode='{mode}', align_corners={ac}).pow(2).sum().backward()\n"
        "print(x.grad)")
ERRS = [
 "F.interpolate(torch.ones(1, 1, 4), size=2, scale_factor=2.)",
 "F.interpolate(torch.ones(1, 1, 4))",
 "F.interpolate(torch.ones(1, 1, 4), size=2, mode='bilinear')",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=2, mode='linear')",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=2, mode='trilinear')",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=2, mode='nearest', align_corners=True)",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=(2, 2, 2))",
 "F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=(2., 2., 2.))",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=2, mode='foo')",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=2, mode='nearest', antialias=True)",
 "F.interpolate(torch.ones(4), size=2)",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=2, recompute_scale_factor=True)",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=0)",
 "F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=0.1)",
 "F.interpolate(torch.ones(1, 1, 4, 4, dtype=torch.long), size=2, mode='bilinear')",
 "F.interpolate(torch.ones(1, 1, 4, 4, dtype=torch.long), size=2)",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=[2, 3])",
 "F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=[2, 3])",
 "F.interpolate(torch.ones(1, 1, 4, 4), size=(2.5, 3))",
 "F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2)",
 "F.upsample_nearest(torch.ones(1, 1, 2, 2), scale_factor=2)",
 "F.upsample_bilinear(torch.arange(4.).reshape(1, 1, 2, 2), scale_factor=2)",
]
for e in ERRS:
    add(f"r = {e}\nprint(r.shape, r.dtype, r.double().sum())")
add("import warnings\n"
    "with warnings.catch_warnings(record=True) as w:\n"
    "    warnings.simplefilter('always')\n"
    "    F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=2, mode='bilinear')\n"
    "    F.upsample(torch.ones(1, 1, 4, 4), scale_factor=2)\n"
    "print([str(x.message)[:60] for x in w])")
# grid sample / affine grid
add("theta = torch.tensor([[[1., 0, 0], [0, 1, 0]]])\n"
    "g = F.affine_grid(theta, (1, 1, 3, 4), align_corners=False)\n"
    "print(g)\n"
    "x = torch.arange(12.).reshape(1, 1, 3, 4)\n"
    "print(F.grid_sample(x, g, align_corners=False))")
add("theta = torch.tensor([[[1., 0, 0], [0, 1, 0]]])\n"
    "g = F.affine_grid(theta, (1, 1, 3, 4), align_corners=True)\n"
    "x = torch.arange(12.).reshape(1, 1, 3, 4)\n"
    "print(F.grid_sample(x, g, align_corners=True, mode='nearest'))")
for pm in ["zeros", "border", "reflection"]:
    for mode in ["bilinear", "nearest"]:
        for ac in [True, False]:
            add("theta = torch.tensor([[[0.8, -0.6, 0.3], [0.6, 0.8, -0.23]]], dtype=torch.float64)\n"
                f"g = F.affine_grid(theta, (1, 1, 4, 5), align_corners={ac}) * 1.37\n"
                "x = torch.arange(20., dtype=torch.float64).reshape(1, 1, 4, 5).requires_grad_()\n"
                f"y = F.grid_sample(x, g, mode='{mode}', padding_mode='{pm}', align_corners={ac})\n"
                "y.sum().backward()\n"
                "print(y.round(decimals=6), x.grad)")
add("theta = torch.tensor([[[0.9, 0.1, 0, 0.1], [0, 1, 0.2, 0], [0.1, 0, 1, -0.1]]], dtype=torch.float64)\n"
    "g = F.affine_grid(theta, (1, 1, 2, 3, 3), align_corners=False)\n"
    "x = torch.arange(18., dtype=torch.float64).reshape(1, 1, 2, 3, 3)\n"
    "print(g.shape, F.grid_sample(x, g, align_corners=False).round(decimals=6))")
add("theta = torch.tensor([[[0.9, 0.1, 0, 0.1], [0, 1, 0.2, 0], [0.1, 0, 1, -0.1]]], dtype=torch.float64)\n"
    "g = F.affine_grid(theta, (1, 1, 2, 3, 3), align_corners=True)\n"
    "x = torch.arange(18., dtype=torch.float64).reshape(1, 1, 2, 3, 3)\n"
    "print(F.grid_sample(x, g, mode='nearest', padding_mode='border', align_corners=True))")
for e in ["F.affine_grid(torch.ones(1, 2, 3), (1, 1, 2, 2, 2))",
          "F.affine_grid(torch.ones(1, 3, 3), (1, 1, 2, 2))",
          "F.affine_grid(torch.ones(2, 2, 3), (1, 1, 2, 2))",
          "F.affine_grid(torch.ones(1, 2, 3, dtype=torch.long), (1, 1, 2, 2))",
          "F.affine_grid(torch.ones(1, 2, 3), (1, 1, 1, 2))",
          "F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 3))",
          "F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(2, 2, 2, 2))",
          "F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), mode='bicubic', align_corners=None)",
          "F.grid_sample(torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 2, 2, 2, 3), mode='bicubic')",
          "F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), padding_mode='foo')",
          "F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), mode='foo')"]:
    add(f"r = {e}\nprint(r.shape, r)")
# unfold / fold
for k, d, p, s in [(2, 1, 0, 1), (2, 2, 1, 1), ((2, 3), (1, 2), (1, 0), (2, 1)), (3, 1, 1, 2)]:
    add("x = torch.arange(2 * 2 * 5 * 6, dtype=torch.float64).reshape(2, 2, 5, 6).requires_grad_()\n"
        f"u = F.unfold(x, {k}, dilation={d}, padding={p}, stride={s})\n"
        "print(u.shape, u.sum(1))\n"
        f"f = F.fold(u, (5, 6), {k}, dilation={d}, padding={p}, stride={s})\n"
        "f.sum().backward()\n"
        "print(f, x.grad)")
add("u = torch.arange(12.).reshape(4, 3)\nprint(F.fold(u, (2, 4), 2, stride=(1, 1)))")
add("u = torch.arange(12.).reshape(1, 4, 3)\nprint(F.fold(u, (2, 4), (2, 2)))")
for e in ["F.unfold(torch.ones(2, 3), 2)",
          "F.unfold(torch.ones(1, 1, 2, 2), 3)",
          "F.unfold(torch.ones(1, 1, 3, 3), 2, dilation=0)",
          "F.unfold(torch.ones(1, 1, 3, 3), 2, stride=0)",
          "F.unfold(torch.ones(1, 1, 3, 3), 2, padding=-1)",
          "F.unfold(torch.ones(1, 1, 3, 3, 3), 2)",
          "F.unfold(torch.ones(1, 3, 3), 2)",
          "F.fold(torch.ones(1, 5, 3), (2, 4), 2)",
          "F.fold(torch.ones(1, 4, 4), (2, 4), 2)",
          "F.fold(torch.ones(4, 3, 3, 3), (2, 4), 2)",
          "F.fold(torch.ones(1, 4, 3), (2, 4), 2, dilation=0)",
          "F.fold(torch.ones(1, 4, 3), (1, 1), 2)"]:
    add(f"r = {e}\nprint(r.shape, r.sum())")
# embedding
add("w = torch.arange(15.).reshape(5, 3)\n"
    "i = torch.tensor([[0, 2], [2, 4]])\n"
    "e = F.embedding(i, w, max_norm=5.)\n"
    "print(e)\n"
    "print(w)")
add("w = torch.arange(15.).reshape(5, 3)\n"
    "i = torch.tensor([1, 3])\n"
    "e = F.embedding(i, w, max_norm=2., norm_type=1.)\n"
    "print(e, w)")
add("w = torch.arange(15.).reshape(5, 3).requires_grad_()\n"
    "i = torch.tensor([1, 3, 1])\n"
    "e = F.embedding(i, w, max_norm=2.)\n"
    "print(e)")
add("w = torch.arange(15.).reshape(5, 3).requires_grad_()\n"
    "i = torch.tensor([1, 3, 1, 0])\n"
    "e = F.embedding(i, w, padding_idx=1, scale_grad_by_freq=True)\n"
    "(e * torch.arange(12.).reshape(4, 3)).sum().backward()\n"
    "print(w.grad)")
add("w = torch.arange(15.).reshape(5, 3).requires_grad_()\n"
    "i = torch.tensor([[1, 3, 1], [3, 3, 4]])\n"
    "e = F.embedding(i, w, padding_idx=-1, scale_grad_by_freq=True)\n"
    "e.sum().backward()\n"
    "print(w.grad)")
for e in ["F.embedding(torch.tensor([5]), torch.ones(5, 3))",
          "F.embedding(torch.tensor([1.]), torch.ones(5, 3))",
          "F.embedding(torch.tensor([1]), torch.ones(5, 3), padding_idx=5)",
          "F.embedding(torch.tensor([1]), torch.ones(5, 3), padding_idx=-6)",
          "F.embedding(torch.tensor([-1]), torch.ones(5, 3))",
          "F.embedding(torch.tensor([1], dtype=torch.int32), torch.ones(5, 3))"]:
    add(f"r = {e}\nprint(r)")
# embedding_bag
for mode in ["sum", "mean", "max"]:
    add("w = torch.arange(20., dtype=torch.float64).reshape(5, 4).requires_grad_()\n"
        "i = torch.tensor([0, 2, 1, 4, 4, 3])\n"
        "o = torch.tensor([0, 2, 2, 5])\n"
        f"r = F.embedding_bag(i, w, o, mode='{mode}')\n"
        "r.pow(2).sum().backward()\n"
        "print(r, w.grad)")
    add("w = torch.arange(20., dtype=torch.float64).reshape(5, 4)\n"
        "i = torch.tensor([0, 2, 1, 4, 4, 3])\n"
        "o = torch.tensor([0, 2, 2, 6])\n"
        f"print(F.embedding_bag(i, w, o, mode='{mode}', include_last_offset=True))")
    add("w = torch.arange(20., dtype=torch.float64).reshape(5, 4)\n"
        "i = torch.tensor([[0, 2, 1], [4, 4, 3]])\n"
        f"print(F.embedding_bag(i, w, mode='{mode}', padding_idx=4))")
    add("w = torch.arange(20., dtype=torch.float64).reshape(5, 4)\n"
        "i = torch.tensor([0, 2, 1, 4])\n"
        "o = torch.tensor([0, 2])\n"
        f"print(F.embedding_bag(i, w, o, mode='{mode}', per_sample_weights=torch.tensor([1., 2, 3, 4], dtype=torch.float64)))")
    add("w = torch.arange(20., dtype=torch.float64).reshape(5, 4)\n"
        "i = torch.tensor([0, 2, 1, 4])\n"
        "o = torch.tensor([0, 2])\n"
        f"print(F.embedding_bag(i, w, o, mode='{mode}', max_norm=10.), w)")
add("w = torch.arange(20., dtype=torch.float64).reshape(5, 4).requires_grad_()\n"
    "p = torch.tensor([1., 2, 3, 4], dtype=torch.float64, requires_grad=True)\n"
    "r = F.embedding_bag(torch.tensor([0, 2, 1, 4]), w, torch.tensor([0, 1]), mode='sum', per_sample_weights=p)\n"
    "r.pow(2).sum().backward()\n"
    "print(r, w.grad, p.grad)")
for e in ["F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2))",
          "F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2), torch.tensor([0]), mode='foo')",
          "F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2), torch.tensor([0]), mode='max', per_sample_weights=torch.ones(2))",
          "F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2), torch.tensor([0]), per_sample_weights=torch.ones(3))",
          "F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2), torch.tensor([0, 3]))",
          "F.embedding_bag(torch.tensor([0, 5]), torch.ones(3, 2), torch.tensor([0]))"]:
    add(f"r = {e}\nprint(r)")
# one_hot
for e in ["F.one_hot(torch.tensor([0, 3, 1]))",
          "F.one_hot(torch.tensor([0, 3, 1]), -1)",
          "F.one_hot(torch.tensor([[0], [2]]), 4)",
          "F.one_hot(torch.tensor([0, 3]), 3)",
          "F.one_hot(torch.tensor([0, -1]), 3)",
          "F.one_hot(torch.tensor([0., 1.]))",
          "F.one_hot(torch.tensor([], dtype=torch.long))",
          "F.one_hot(torch.tensor([], dtype=torch.long), 3)",
          "F.one_hot(torch.tensor(2), 3)",
          "F.one_hot(torch.tensor([1]), -2)",
          "F.one_hot(torch.tensor([1], dtype=torch.int32), 3)",
          "F.one_hot(torch.tensor([1]), 0)"]:
    add(f"r = {e}\nprint(r, r.dtype, r.shape)")
# normalize
for kw in ["", "p=1", "p=float('inf')", "p=0.5, dim=0", "dim=-1, eps=10.", "p=3, dim=(0, 1)"]:
    add("x = torch.tensor([[3., -4., 0.], [0., 0., 0.]], requires_grad=True)\n"
        f"y = F.normalize(x, {kw})\n"
        "(y * torch.arange(6.).reshape(2, 3)).sum().backward()\n"
        "print(y.round(decimals=5), x.grad.round(decimals=5))")
add("x = torch.tensor([[3., -4.]])\n"
    "out = torch.empty(1, 2)\n"
    "r = F.normalize(x, out=out)\n"
    "print(r is out, out)")
# pdist / cdist
for p in [0., 1., 1.5, 2., float('inf')]:  # noqa
    add("torch.manual_seed(0)\n"
        "x = torch.tensor([[0., 1., 2.], [3., -1., 0.], [0., 1., 2.], [1., 1., 1.]], dtype=torch.float64, requires_grad=True)\n"
        f"d = F.pdist(x, p={p})\n"
        "d.sum().backward()\n"
        "print(d, x.grad)")
    add("a = torch.tensor([[0., 1., 2.], [3., -1., 0.]], dtype=torch.float64, requires_grad=True)\n"
        "b = torch.tensor([[0., 1., 2.], [1., 1., 1.], [2., 0., 0.]], dtype=torch.float64)\n"
        f"d = torch.cdist(a, b, p={p})\n"
        "d.sum().backward()\n"
        "print(d, a.grad)")
for cm in ["use_mm_for_euclid_dist_if_necessary",
           "use_mm_for_euclid_dist",
           "donot_use_mm_for_euclid_dist"]:
    add("a = torch.tensor([[[0., 1.], [3., -1.]]], dtype=torch.float64)\n"
        "b = torch.tensor([[[0., 1.], [1., 1.], [2., 0.]]], dtype=torch.float64)\n"
        f"print(torch.cdist(a, b, compute_mode='{cm}'))")
for e in ["F.pdist(torch.ones(2, 2, 2))",
          "F.pdist(torch.ones(3, 2), p=-1)",
          "F.pdist(torch.ones(1, 2))",
          "F.pdist(torch.ones(3, 2, dtype=torch.long))",
          "torch.cdist(torch.ones(2, 3), torch.ones(2, 4))",
          "torch.cdist(torch.ones(3), torch.ones(2, 3))",
          "torch.cdist(torch.ones(2, 3), torch.ones(2, 3), p=-1)",
          "torch.cdist(torch.ones(2, 3), torch.ones(2, 3), compute_mode='x')",
          "torch.cdist(torch.ones(2, 2, 3), torch.ones(3, 2, 3))",
          "torch.cdist(torch.ones(2, 1, 2, 3), torch.ones(3, 4, 3))",
          "torch.cdist(torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long))"]:
    add(f"r = {e}\nprint(r.shape, r)")
# cosine similarity / pairwise distance
add("a = torch.tensor([[0., 0., 0.], [1., 2., 3.]], requires_grad=True)\n"
    "b = torch.tensor([1., 0., 1.])\n"
    "c = F.cosine_similarity(a, b)\n"
    "c.sum().backward()\n"
    "print(c, a.grad)")
add("a = torch.zeros(2, 3, requires_grad=True)\n"
    "b = torch.zeros(2, 3)\n"
    "c = F.cosine_similarity(a, b, dim=1, eps=1e-8)\n"
    "c.sum().backward()\n"
    "print(c, a.grad)")
add("a = torch.tensor([[1., 2.], [3., 4.]])\n"
    "print(F.cosine_similarity(a, a.t(), dim=0), F.cosine_similarity(a[:, None], a[None], dim=-1), F.cosine_similarity(a, a, eps=100.))")
add("print(F.cosine_similarity(torch.tensor([1., 2.]), torch.tensor([2., 4.]), dim=0), F.cosine_similarity(torch.ones(2, 3), torch.ones(4, 3)))")
add("print(F.cosine_similarity(torch.ones(3), torch.ones(3), dim=1))")
add("print(F.cosine_similarity(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), dim=0))")
add("a = torch.tensor([[0., 0.], [1., 2.]], requires_grad=True)\n"
    "b = torch.tensor([[0., 0.], [4., -2.]])\n"
    "d = F.pairwise_distance(a, b)\n"
    "d.sum().backward()\n"
    "print(d, a.grad)")
for kw in ["p=1", "p=float('inf')", "p=0", "keepdim=True", "eps=0.", "p=3, eps=1."]:
    add("a = torch.tensor([[0., 0.], [1., 2.], [1., 1.]])\n"
        "b = torch.tensor([4., -2.])\n"
        f"print(F.pairwise_distance(a, b, {kw}), F.pairwise_distance(b, a, {kw}))")
add("print(F.pairwise_distance(torch.tensor([1., 2.]), torch.tensor([0., 0.])), F.pairwise_distance(torch.ones(3, 2), torch.ones(4, 2)))")
add("print(F.pairwise_distance(torch.tensor(1.), torch.tensor(3.)))")
# pad
for mode in ["constant", "reflect", "replicate", "circular"]:
    for pads in ["(1, 2)", "(-1, 2)", "(2, -1, 1, 1)", "(0, 0, 1, -1)"]:
        add("x = torch.arange(12.).reshape(1, 1, 3, 4).requires_grad_()\n"
            f"y = F.pad(x, {pads}, mode='{mode}')\n"
            "(y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()\n"
            "print(y, x.grad)")
    add("x = torch.arange(24.).reshape(1, 1, 2, 3, 4)\n"
        f"print(F.pad(x, (1, 1, 1, 0, 1, 1), mode='{mode}').sum((0, 1)))")
    add(f"x = torch.arange(6.).reshape(2, 3)\nprint(F.pad(x, (1, 1), mode='{mode}'))")
    add(f"x = torch.arange(3.).reshape(1, 1, 3)\nprint(F.pad(x, (3, 0), mode='{mode}'))")
    add("x = torch.arange(3.).reshape(1, 1, 3)\n"
        f"print(F.pad(x, (1, 1, 1, 1, 1, 1), mode='{mode}'))")
    add(f"x = torch.arange(3).reshape(1, 1, 3)\nprint(F.pad(x, (1, 1), mode='{mode}'))")
add("x = torch.arange(6.).reshape(2, 3)\n"
    "print(F.pad(x, (1, 1, 2, 0), value=-5.), F.pad(x, (-1, -1, -1, 0)), F.pad(x, [1]))")
add("print(F.pad(torch.ones(2, 2, dtype=torch.bool), (1, 0), value=0), F.pad(torch.ones(2, dtype=torch.long), (1, 0), value=2.7))")
add("print(F.pad(torch.ones(1, 2), (-3, 0)))")
add("print(F.pad(torch.ones(1, 2), (1, 1), mode='foo'))")
add("print(F.pad(torch.ones(1, 2), (1, 1), mode='reflect', value=1.))")
# softmax dtype
for fn in ["softmax", "log_softmax", "softmin"]:
    add("x = torch.tensor([[1., 2., 3.], [-1., 0., 1000.]], requires_grad=True)\n"
        f"y = F.{fn}(x, dim=1, dtype=torch.float64)\n"
        "(y * torch.tensor([1., 2., 5.], dtype=torch.float64)).sum().backward()\n"
        "print(y, x.grad)")
    add(f"x = torch.tensor([[1, 2, 3]])\nprint(F.{fn}(x, dim=1, dtype=torch.float32))")
    add(f"x = torch.tensor([[1, 2, 3]])\nprint(F.{fn}(x, dim=1))")
    add("x = torch.tensor([[1., 2., 3.]], dtype=torch.float64)\n"
        f"print(F.{fn}(x, 0, dtype=torch.float16), F.{fn}(torch.tensor(2.), 0))")
    add("x = torch.tensor([[1., float('inf'), 3.], [float('-inf'), float('-inf'), 0.], [float('nan'), 1., 2.]])\n"
        f"print(F.{fn}(x, -1))")
add("import warnings\n"
    "x = torch.tensor([[1., 2.], [3., 4.]])\n"
    "with warnings.catch_warnings(record=True) as w:\n"
    "    warnings.simplefilter('always')\n"
    "    print(F.softmax(x), F.log_softmax(torch.ones(2, 2, 2)), F.softmax(torch.ones(3)))\n"
    "print(len(w), str(w[0].message))")
# gumbel
add("torch.manual_seed(0)\n"
    "l = torch.tensor([[1., 2., 3.], [3., 0., 0.]], requires_grad=True)\n"
    "y = F.gumbel_softmax(l, tau=0.5, hard=True)\n"
    "(y * torch.arange(6.).reshape(2, 3)).sum().backward()\n"
    "print(y, l.grad.abs().sum() > 0, y.grad_fn.name())")
# dropout
for fn in ["dropout",
           "alpha_dropout",
           "feature_alpha_dropout",
           "dropout1d",
           "dropout2d",
           "dropout3d"]:
    add("x = torch.ones(2, 3, 4, 4)\n"
        f"y = F.{fn}(x, 0.5, training=False)\n"
        "print(y is x, y.data_ptr() == x.data_ptr(), y.sum())")
    add("x = torch.ones(2, 3, 4, 4)\n"
        f"y = F.{fn}(x, 0.5, training=False, inplace=True)\n"
        "print(y is x)")
    add(f"x = torch.ones(2, 3, 4, 4)\ny = F.{fn}(x, 1.5)\nprint(y.shape)")
    add(f"x = torch.ones(2, 3, 4, 4)\ny = F.{fn}(x, 1.)\nprint(y.sum(), y.shape)")
    add(f"x = torch.ones(2, 3, 4, 4)\ny = F.{fn}(x, 0.)\nprint(y is x, y.sum())")
add("x = torch.ones(3, 4)\ny = F.dropout2d(x, 0.5)\nprint(y.shape)")
add("x = torch.ones(2, 3)\n"
    "y = F.dropout1d(x, 0.5, training=False)\n"
    "print(y.shape)\n"
    "print(F.dropout1d(torch.ones(2, 2, 2, 2), 0.5))")
add("x = torch.ones(2, 3, 4)\nprint(F.dropout3d(x, 0.5, training=False).shape)")
add("x = torch.ones(2, 3, requires_grad=True)\n"
    "y = x * 1\n"
    "F.dropout(y, 0.5, training=False, inplace=True)\n"
    "print(y.grad_fn)")
add("for p in (0.5, -1., 1.5, 2., 3.):\n"
    "    x = torch.tensor([[0., 3., 0.], [0., 0., 0.]], dtype=torch.float64, requires_grad=True)\n"
    "    torch.linalg.vector_norm(x, p, dim=1).sum().backward()\n"
    "    y = torch.tensor([[0., 3., 0.], [0., 0., 0.]], dtype=torch.float64, requires_grad=True)\n"
    "    y.norm(p=p, dim=1).sum().backward()\n"
    "    print(p, x.grad.round(decimals=6), y.grad.round(decimals=6))")


# -- activations at edge points, normalisations, ctc_loss ------------------------------------
PTS = "torch.tensor([float('-inf'), -3., -1., -0.5, 0., 0.5, 1., 3., 6., 20., float('inf'), float('nan')], dtype=torch.float64, requires_grad=True)"
for call in ["F.gelu(x, approximate='tanh')",
             "F.gelu(x)",
             "F.hardtanh(x, -1., 1.)",
             "F.hardtanh(x, -0.5, 3.)",
             "F.relu6(x)",
             "F.elu(x, alpha=0.5)",
             "F.celu(x, alpha=2.)",
             "F.selu(x)",
             "F.silu(x)",
             "F.mish(x)",
             "F.softplus(x, beta=2., threshold=6.)",
             "F.softplus(x, beta=0.5, threshold=1.)",
             "F.softshrink(x, 0.5)",
             "F.hardshrink(x, 0.5)",
             "F.hardshrink(x, 3.)",
             "F.tanhshrink(x)",
             "F.threshold(x, 1., -7.)",
             "F.threshold(x, 0.5, 20.)",
             "F.hardsigmoid(x)",
             "F.hardswish(x)",
             "F.leaky_relu(x, 0.2)",
             "F.rrelu(x, training=False)",
             "F.logsigmoid(x)",
             "F.softsign(x)",
             "F.relu(x)",
             "F.glu(x, 0)"]:
    S.append(P + f"x = {PTS}\ny = {call}\nprint(y)\ny.sum().backward()\nprint(x.grad)")
for call in ["F.hardtanh(x, -1., 1., inplace=True)",
             "F.elu(x, inplace=True)",
             "F.threshold(x, 1., 0., inplace=True)",
             "F.relu6(x, inplace=True)",
             "F.selu(x, inplace=True)",
             "F.celu(x, inplace=True)",
             "F.silu(x, inplace=True)",
             "F.mish(x, inplace=True)",
             "F.leaky_relu(x, inplace=True)",
             "F.hardswish(x, inplace=True)",
             "F.hardsigmoid(x, inplace=True)",
             "F.rrelu(x, training=False, inplace=True)"]:
    S.append(P + f"x = torch.tensor([-2., 0., 1., 7.])\ny = {call}\nprint(y is x, x)")
    S.append(P + "l = torch.tensor([-2., 0., 1., 7.], requires_grad=True)\n"
                 "x = l * 1\n"
                 f"y = {call}\n"
                 "y.sum().backward()\n"
                 "print(y.grad_fn.name(), l.grad)")
for e in ["F.glu(torch.ones(3))",
          "F.glu(torch.ones(2, 4), dim=2)",
          "F.glu(torch.ones(0))",
          "F.hardtanh(torch.ones(2), 1., -1.)",
          "F.softshrink(torch.ones(2), -1.)",
          "F.elu(torch.tensor([1, -2]))",
          "F.gelu(torch.ones(2), approximate='foo')",
          "F.relu6(torch.tensor([-1, 3, 9]))",
          "F.hardtanh(torch.tensor([-1, 3, 9]), 0, 5)",
          "F.threshold(torch.tensor([-1, 3, 9]), 2, 0)",
          "F.softplus(torch.tensor([-1, 3]))",
          "F.silu(torch.tensor([1, 2]))",
          "F.leaky_relu(torch.tensor([-1, 2]))",
          "F.hardshrink(torch.tensor([-1, 2]))",
          "F.celu(torch.ones(2), alpha=0.)",
          "F.elu(torch.tensor([-1., 1.]), alpha=-1.)"]:
    S.append(P + f"r = {e}\nprint(r, r.dtype)")
# norms
for mom in ["0.1", "None", "0."]:
    S.append(P + "torch.manual_seed(0)\n"
                 "x = torch.randn(4, 3, 2, dtype=torch.float64)\n"
                 "rm = torch.zeros(3, dtype=torch.float64)\n"
                 "rv = torch.ones(3, dtype=torch.float64)\n"
                 "for i in range(3):\n"
                 f"    y = F.batch_norm(x + i, rm, rv, training=True, momentum={mom})\n"
                 "print(y.sum(0), rm, rv)\n"
                 f"print(F.batch_norm(x, rm, rv, torch.ones(3, dtype=torch.float64) * 2, torch.ones(3, dtype=torch.float64), training=False, momentum={mom}).sum((0, 2)))")
    S.append(P + "torch.manual_seed(0)\n"
                 "x = torch.randn(2, 3, 4, dtype=torch.float64)\n"
                 "rm = torch.zeros(3, dtype=torch.float64)\n"
                 "rv = torch.ones(3, dtype=torch.float64)\n"
                 "for i in range(2):\n"
                 f"    y = F.instance_norm(x * (i + 1), rm, rv, use_input_stats=True, momentum={mom})\n"
                 "print(y[0, 0].round(decimals=6), rm, rv)\n"
                 "print(F.instance_norm(x, rm, rv, use_input_stats=False).sum(-1))")
S.append(P + "torch.manual_seed(0)\n"
             "x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)\n"
             "w = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)\n"
             "y = F.batch_norm(x, None, None, w, None, training=True)\n"
             "(y ** 3).sum().backward()\n"
             "print(y.round(decimals=6), x.grad.round(decimals=6), w.grad)")
S.append(P + "x = torch.ones(1, 3)\nprint(F.batch_norm(x, None, None, training=True))")
S.append(P + "x = torch.ones(1, 3, 1)\nprint(F.instance_norm(x))")
S.append(P + "x = torch.ones(2, 3)\nprint(F.batch_norm(x, None, None, training=False))")
S.append(P + "x = torch.ones(2, 3)\n"
             "print(F.batch_norm(x, torch.zeros(2), torch.ones(2), training=False))")
S.append(P + "x = torch.arange(6.).reshape(2, 3)\n"
             "print(F.batch_norm(x, torch.zeros(3), torch.ones(3), training=False, eps=0.), F.batch_norm(x, torch.zeros(3), torch.ones(3), training=False))")
for call in ["F.layer_norm(x, (4,))",
             "F.layer_norm(x, (3, 4), w.reshape(3, 4), b.reshape(3, 4), eps=0.1)",
             "F.layer_norm(x, [4], w[:4], None)",
             "F.group_norm(x, 3)",
             "F.group_norm(x, 1, w[:3], b[:3])",
             "F.group_norm(x, 3, w[:3], b[:3], eps=1.)",
             "F.local_response_norm(x, 2)",
             "F.local_response_norm(x, 3, alpha=0.5, beta=0.5, k=2.)",
             "F.local_response_norm(x.reshape(2, 3, 2, 2), 2)",
             "F.local_response_norm(x.reshape(2, 3, 2, 1, 2), 4)",
             "F.rms_norm(x, (4,))",
             "F.rms_norm(x, (3, 4), w.reshape(3, 4), eps=0.5)",
             "F.instance_norm(x, weight=w[:3], bias=b[:3])"]:
    S.append(P + "torch.manual_seed(0)\n"
                 "x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)\n"
                 "w = torch.linspace(0.5, 2., 12, dtype=torch.float64, requires_grad=True)\n"
                 "b = torch.linspace(-1., 1., 12, dtype=torch.float64, requires_grad=True)\n"
                 f"y = {call}\n"
                 "(y * torch.arange(y.numel(), dtype=torch.float64).reshape(y.shape)).sum().backward()\n"
                 "print(y.round(decimals=8), x.grad.round(decimals=8), None if w.grad is None else w.grad.round(decimals=8))")
for e in ["F.layer_norm(torch.ones(2, 3), (2,))",
          "F.group_norm(torch.ones(2, 3, 4), 2)",
          "F.group_norm(torch.ones(2, 4), 2, torch.ones(3))",
          "F.local_response_norm(torch.ones(2), 2)",
          "F.local_response_norm(torch.ones(0, 3, 2), 2)",
          "F.instance_norm(torch.ones(2, 3, 4), torch.zeros(2), torch.ones(2))",
          "F.batch_norm(torch.ones(2, 3), torch.zeros(3), None, training=False)",
          "F.layer_norm(torch.ones(2, 3), 3)",
          "F.group_norm(torch.ones(2, 4), 0)",
          "F.layer_norm(torch.ones(2, 3), (3,), torch.ones(2))"]:
    S.append(P + f"r = {e}\nprint(r)")
# ctc
CTC = ("torch.manual_seed(0)\n"
       "T, N, C, L = 6, 3, 4, 3\n"
       "lp = torch.randn(T, N, C, dtype=torch.float64).log_softmax(2).requires_grad_()\n"
       "tg = torch.tensor([[1, 2, 2], [1, 1, 1], [3, 0, 0]])\n"
       "il = torch.tensor([6, 2, 5])\n"
       "tl = torch.tensor([3, 3, 1])\n")
for red in ["none", "sum", "mean"]:
    for zi in [False, True]:
        S.append(P + CTC + f"l = F.ctc_loss(lp, tg, il, tl, reduction='{red}', zero_infinity={zi})\n"
                           "print(l)\n"
                           "l.sum().backward()\n"
                           "print(lp.grad.abs().sum((0, 2)).round(decimals=6), torch.isfinite(lp.grad).all())")
S.append(P + CTC + "l = F.ctc_loss(lp, torch.tensor([1, 2, 2, 1, 1, 1, 3]), il, tl, reduction='none', blank=0)\n"
                   "print(l)")
S.append(P + CTC + "l = F.ctc_loss(lp, tg, (6, 4, 5), (3, 2, 1), reduction='none', blank=3)\n"
                   "print(l)")
S.append(P + CTC + "l = F.ctc_loss(lp[:, 0], tg[0], torch.tensor(6), torch.tensor(3), reduction='none')\n"
                   "print(l, l.shape)")
S.append(P + CTC + "l = F.ctc_loss(lp.float(), tg, il, tl)\nprint(l.dtype, round(l.item(), 4))")
S.append(P + CTC + "l = F.ctc_loss(lp, tg, il, tl, reduction='foo')\nprint(l)")
S.append(P + CTC + "l = F.ctc_loss(lp, tg, il, tl, blank=4)\nprint(l)")
S.append(P + CTC + "l = F.ctc_loss(lp, tg, torch.tensor([7, 2, 5]), tl)\nprint(l)")
S.append(P + CTC + "l = F.ctc_loss(lp, tg, il, torch.tensor([4, 3, 1]))\nprint(l)")
S.append(P + CTC + "l = F.ctc_loss(lp, tg, il, torch.tensor([0, 3, 1]), reduction='none')\n"
                   "print(l)")
# grid_sample's border / reflection clip sends a nan coordinate to 0 (forward only: torch's
# kernels crash on nan coordinates elsewhere, in nearest mode and in the backward).
add("g = torch.tensor([[[[float('nan'), 0.], [2., -3.]], [[0.3, float('nan')], [0.5, 0.5]]]],\n"
    "                 dtype=torch.float64)\n"
    "x = torch.arange(6., dtype=torch.float64).reshape(1, 1, 2, 3)\n"
    "for pm in ('border', 'reflection'):\n"
    "    for ac in (True, False):\n"
    "        print(pm, ac, F.grid_sample(x, g, padding_mode=pm, align_corners=ac))")

# torch's binding refuses plain ints as input_lengths / target_lengths (a TypeError listing
# its two signatures)
S.append(P + "lp = torch.zeros(6, 4).log_softmax(1)\n"
         "try:\n    print(F.ctc_loss(lp, torch.tensor([1, 2, 2]), 6, 3))\n"
         "except TypeError as e: print(str(e).splitlines()[0])")
# affine_grid's base grid is torch's linspace (one fused multiply-add per value): a nearest
# grid_sample at an exact .5 tie picks the same pixel
S.append(P + "theta = torch.tensor([[[0.8, -0.6, 0.3], [0.6, 0.8, -0.2]]], dtype=torch.float64)\n"
         "g = F.affine_grid(theta, (1, 1, 4, 5), align_corners=False)\n"
         "print(g[0, 2, 2].tolist(), torch.linspace(-1, 1, 7, dtype=torch.float64)[3].item())")
SNIPPETS = S

# Where ember differs from torch today: (reason, minimal reproduction), run as strict xfails so
# that a fix shows up as XPASS and the entry moves to the lists above.
BUGS = [
    ("torch 2.13's interpolate has a 'lanczos' mode (antialiased, 4-D); ember does not",
     P + "x = torch.arange(16.).reshape(1, 1, 4, 4)\n"
     "print(F.interpolate(x, size=(2, 3), mode='lanczos', antialias=True).round(decimals=4))"),
]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=300)
