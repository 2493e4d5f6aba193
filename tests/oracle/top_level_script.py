"""Run by test_top_level_oracle.py as `python top_level_script.py ember|torch`: the top-level
forms of nn.functional's ops on fixed inputs, printing shapes and sums to compare."""
import importlib
import sys

torch = importlib.import_module(sys.argv[1])
torch.manual_seed(0)


def show(name, v):
    if isinstance(v, tuple):
        v = v[0]
    print(name, tuple(v.shape), round(float(v.double().sum()), 4))


x = torch.randn(2, 3, 8, 8)
w = torch.randn(4, 3, 3, 3)
b = torch.randn(4)
show("conv2d", torch.conv2d(x, w, b, 1, 1))
show("conv1d", torch.conv1d(x[:, :, 0], w[:, :, 0], None, 2))
show("conv_transpose2d", torch.conv_transpose2d(x, w.transpose(0, 1), None, 2))
show("max_pool2d", torch.max_pool2d(x, 2))
show("max_pool2d s", torch.max_pool2d(x, 3, 2, 1))
show("max_pool1d", torch.max_pool1d(x[:, :, 0], 2))
show("max_pool1d_with_indices", torch.max_pool1d_with_indices(x[:, :, 0], 2))
print(torch.max_pool1d_with_indices(x[:, :, 0], 2)[1][0, 0].tolist(),
      torch.adaptive_max_pool1d(x[:, :, 0], 3)[1][0, 0].tolist())
show("avg_pool1d", torch.avg_pool1d(x[:, :, 0], 2))
show("adaptive_avg_pool1d", torch.adaptive_avg_pool1d(x[:, :, 0], 3))
show("pixel_shuffle", torch.pixel_shuffle(torch.randn(1, 8, 2, 2), 2))
show("channel_shuffle", torch.channel_shuffle(x, 3))
show("layer_norm", torch.layer_norm(x, (8,), torch.ones(8), torch.zeros(8), 1e-5, True))
show("group_norm", torch.group_norm(x, 3, None, None, 1e-5, True))
rm, rv = torch.zeros(3), torch.ones(3)
show("batch_norm", torch.batch_norm(x, torch.ones(3), torch.zeros(3), rm, rv, True, 0.1, 1e-5,
                                    False))
print(round(float(rm.sum()), 4), round(float(rv.sum()), 4))
show("instance_norm", torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False))
show("rms_norm", torch.rms_norm(x, (8,)))
e = torch.randn(10, 3)
idx = torch.tensor([[1, 2], [0, 9]])
show("embedding", torch.embedding(e, idx))
show("embedding pad", torch.embedding(e, idx, 0))
p, t = torch.randn(4, 5), torch.rand(4, 5)
show("bce", torch.binary_cross_entropy_with_logits(p, t))
show("bce none", torch.binary_cross_entropy_with_logits(p, t, None, None, 0))
show("bce sum", torch.binary_cross_entropy_with_logits(p, t, None, torch.ones(5), 2))
show("kl_div", torch.kl_div(p.log_softmax(1), t, 2))
show("kl_div lt", torch.kl_div(p.log_softmax(1), t.log(), 1, log_target=True))
y = torch.tensor([1., -1, 1, -1])
show("cosine_embedding_loss", torch.cosine_embedding_loss(p, t, y, 0.1, 1))
show("hinge", torch.hinge_embedding_loss(p, torch.ones(4, 5), 1.0, 0))
show("margin_ranking", torch.margin_ranking_loss(p[:, 0], t[:, 0], y, 0.2, 2))
show("poisson", torch.poisson_nll_loss(p, t, True, False, 1e-8, 1))
show("triplet", torch.triplet_margin_loss(p, t, p * 2, 1.0, 2.0, 1e-6, False, 1))
show("pdist", torch.pdist(p))
show("cos", torch.cosine_similarity(p, t))
show("pairwise", torch.pairwise_distance(p, t))
show("bilinear", torch.bilinear(p, t, torch.randn(3, 5, 5), None))
lp = torch.randn(6, 2, 4).log_softmax(2)
tg = torch.tensor([[1, 2], [3, 1]])
show("ctc", torch.ctc_loss(lp, tg, [6, 5], [2, 2], 0, 1, False))
try:
    torch.conv2d(x, w[:, :2])
except Exception as ex:         # the error text is compared too
    print(type(ex).__name__, ex)
print(torch.binary_cross_entropy_with_logits(p, t).shape, torch.kl_div(p, t).shape,
      torch.kl_div(p, t, 5).shape)
print(torch.hinge_embedding_loss(p, torch.ones(4, 5)).shape,
      torch.margin_ranking_loss(p[:, 0], t[:, 0], torch.ones(4)).shape,
      torch.cosine_embedding_loss(p, t, torch.ones(4)).shape,
      torch.triplet_margin_loss(p, t, p).shape,
      torch.ctc_loss(torch.randn(6, 2, 4).log_softmax(2), torch.tensor([[1, 2], [3, 1]]),
                     [6, 5], [2, 2]).shape)
