"""Graph neural networks, recommenders and classic NLP in plain PyTorch, as tutorials write
them, run under real torch and under ember (`import ember as torch`): what they print must be
identical. GCN with a dense normalised adjacency and with torch.sparse, message passing with
index_add_/scatter_add_/scatter_reduce, segment softmax, GAT, GraphSAGE, graph pooling; matrix
factorisation, NCF, EmbeddingBag, sparse gradients with SparseAdam/SGD, BPR with negative
sampling, ranking metrics; skip-gram with negative sampling, bag-of-words/TF-IDF, seq2seq with
attention, greedy and beam search, packed sequences, CTC, tokenizers, label smoothing.
Values after a matmul are printed rounded (BLAS summation order; see the README).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PRELUDE = "import math\nnn = torch.nn; F = torch.nn.functional\n"

PROGRAMS = {
    'bpr': PRELUDE + r'''
torch.manual_seed(0)
nu, ni, d = 5, 10, 4
U = nn.Embedding(nu, d); I = nn.Embedding(ni, d)
nn.init.normal_(U.weight, std=0.1); nn.init.normal_(I.weight, std=0.1)
pos = torch.tensor([[0, 1], [0, 3], [1, 2], [2, 5], [3, 7], [4, 9]])
opt = torch.optim.Adam(list(U.parameters()) + list(I.parameters()), lr=0.01)
for ep in range(5):
    u, p = pos[:, 0], pos[:, 1]
    n = torch.randint(0, ni, (len(u),))
    print(n, n.dtype)
    xu = U(u); xp = I(p); xn = I(n)
    diff = (xu * xp).sum(-1) - (xu * xn).sum(-1)
    loss = -F.logsigmoid(diff).mean() + 1e-4 * (xu.norm(2).pow(2) + xp.norm(2).pow(2) + xn.norm(2).pow(2)) / len(u)
    loss2 = -torch.log(torch.sigmoid(diff) + 1e-10).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(ep, round(loss.item(), 6), round(loss2.item(), 6))
pop = torch.bincount(pos[:, 1], minlength=ni).float() ** 0.75
print(pop)
print(torch.multinomial(pop, 5, replacement=True), torch.multinomial(pop / pop.sum(), 3))
print(torch.randint(10, (2, 3)), torch.randint(3, 10, (4,), dtype=torch.int32))
print(torch.randperm(6), torch.rand(3).argsort())
g = torch.Generator().manual_seed(1)
print(torch.randint(0, 100, (5,), generator=g))
print(F.softplus(-torch.tensor([0.5, -2.0, 30.])), F.logsigmoid(torch.tensor([-100., 0., 100.])))
print(torch.nn.BCEWithLogitsLoss()(torch.tensor([0.5, -1.2]), torch.tensor([1., 0.])).item())
print(F.margin_ranking_loss(torch.tensor([0.3, 0.9]), torch.tensor([0.5, 0.1]), torch.tensor([1., 1.]), margin=0.5))
''',
    'ebag': PRELUDE + r'''
torch.manual_seed(0)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
off = torch.tensor([0, 4])
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag(10, 3, mode=mode)
    out = bag(inp, off)
    print(mode, out, out.grad_fn.name())
    out.sum().backward()
    print(bag.weight.grad)
bag = nn.EmbeddingBag(10, 3, mode='sum')
psw = torch.rand(8)
print(bag(inp, off, per_sample_weights=psw))
try:
    nn.EmbeddingBag(10, 3, mode='mean')(inp, off, per_sample_weights=psw)
except (NotImplementedError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
print(bag(torch.tensor([[1, 2], [3, 4]])))
try:
    bag(torch.tensor([[1, 2], [3, 4]]), off)
except ValueError as e:
    print(e)
try:
    bag(inp)
except ValueError as e:
    print(e)
b2 = nn.EmbeddingBag(10, 3, mode='mean', padding_idx=2)
print(b2(inp, off), b2(torch.tensor([2, 2, 1]), torch.tensor([0, 2])))
print(b2(inp, torch.tensor([0, 4, 4])))
b3 = nn.EmbeddingBag(10, 3, mode='sum', include_last_offset=True)
print(b3(inp, torch.tensor([0, 3, 8])))
b4 = nn.EmbeddingBag(10, 3, max_norm=1.0)
print(b4(inp, off).round(decimals=4))
print(b4.weight.norm(dim=1).round(decimals=4))
print(bag, b2, b3, nn.EmbeddingBag(10, 3, mode='max', sparse=True))
fb = nn.EmbeddingBag.from_pretrained(torch.arange(12.).view(4, 3), mode='max')
print(fb(torch.tensor([[0, 3], [1, 2]])))
print(F.embedding_bag(inp, torch.randn(10, 2), off, mode='sum'))
sb = nn.EmbeddingBag(10, 3, mode='sum', sparse=True)
sb(inp, off).sum().backward()
print(sb.weight.grad)
print(sb.weight.grad.layout, sb.weight.grad.is_coalesced())
print(sb.weight.grad.coalesce())
''',
    'gat': PRELUDE + r'''
torch.manual_seed(0)
N, Fin, Fo, heads = 5, 4, 3, 2
x = torch.randn(N, Fin)
adj = (torch.rand(N, N) > 0.5).float()
adj = ((adj + adj.t() + torch.eye(N)) > 0).float()
print(adj)
class GATLayer(nn.Module):
    def __init__(s):
        super().__init__()
        s.W = nn.Linear(Fin, Fo * heads, bias=False)
        s.a_src = nn.Parameter(torch.empty(1, heads, Fo))
        s.a_dst = nn.Parameter(torch.empty(1, heads, Fo))
        nn.init.xavier_uniform_(s.a_src); nn.init.xavier_uniform_(s.a_dst)
        s.leaky = nn.LeakyReLU(0.2)
    def forward(s, x, adj):
        h = s.W(x).view(-1, heads, Fo)
        es = (h * s.a_src).sum(-1); ed = (h * s.a_dst).sum(-1)
        e = s.leaky(es.unsqueeze(1) + ed.unsqueeze(0))  # N,N,H
        e = e.permute(2, 0, 1)
        e = e.masked_fill(adj.unsqueeze(0) == 0, float('-inf'))
        att = torch.softmax(e, dim=-1)
        att = F.dropout(att, 0.6, s.training)
        out = torch.bmm(att, h.permute(1, 0, 2))
        return out.permute(1, 0, 2).reshape(N, -1), att
layer = GATLayer()
print(layer.a_src.round(decimals=4))
out, att = layer(x, adj)
print(out.shape, att.shape, out.grad_fn.name(), att.grad_fn.name())
layer.eval(); out, att = layer(x, adj)
print(att.round(decimals=4))
print(att.sum(-1))
loss = out.pow(2).mean(); loss.backward()
print(round(loss.item(), 5))
print(layer.a_src.grad.round(decimals=4))
print(F.leaky_relu(torch.tensor([-1., 0., 2.]), 0.2), F.elu(torch.tensor([-1., 0., 2.])))
e = torch.randn(3, 3).masked_fill(torch.tensor([[1,0,0],[0,1,0],[1,1,1]]).bool(), float('-inf'))
print(e, torch.softmax(e, -1))
print(layer)
l2 = nn.LeakyReLU(0.2, inplace=True); print(l2, nn.ELU(alpha=1.0))
try:
    torch.randn(3,3).masked_fill(torch.tensor([1,0,1]), 0.)
except RuntimeError as e:
    print(e)
''',
    'gcn_dense': PRELUDE + r'''
torch.manual_seed(0)
N, Fin, H, C = 6, 4, 5, 3
edges = torch.tensor([[0,1],[1,2],[2,3],[3,4],[4,5],[5,0],[0,3]])
A = torch.zeros(N, N)
A[edges[:,0], edges[:,1]] = 1
A[edges[:,1], edges[:,0]] = 1
A_hat = A + torch.eye(N)
deg = A_hat.sum(1)
print(deg, deg.dtype)
D_inv_sqrt = torch.diag(deg.pow(-0.5))
A_norm = D_inv_sqrt @ A_hat @ D_inv_sqrt
print(A_norm.round(decimals=4))
d = deg.pow(-0.5); d[torch.isinf(d)] = 0
A2 = d.view(-1,1) * A_hat * d.view(1,-1)
print(torch.allclose(A_norm, A2))
class GCN(nn.Module):
    def __init__(s):
        super().__init__()
        s.l1 = nn.Linear(Fin, H); s.l2 = nn.Linear(H, C)
    def forward(s, x, a):
        x = F.relu(a @ s.l1(x))
        x = F.dropout(x, 0.5, s.training)
        return a @ s.l2(x)
m = GCN()
x = torch.randn(N, Fin)
y = torch.tensor([0,1,2,0,1,2])
train_mask = torch.tensor([True, True, False, True, False, False])
opt = torch.optim.Adam(m.parameters(), lr=0.01, weight_decay=5e-4)
for ep in range(5):
    m.train(); opt.zero_grad()
    out = m(x, A_norm)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    loss.backward(); opt.step()
    print(ep, round(loss.item(), 5), out.grad_fn.name())
m.eval()
with torch.no_grad():
    pred = m(x, A_norm).argmax(dim=1)
print(pred, (pred[~train_mask] == y[~train_mask]).sum().item() / int((~train_mask).sum()))
print(train_mask.nonzero(as_tuple=True), train_mask.nonzero().squeeze())
print(A.nonzero().t().contiguous().shape, A.to_sparse())
''',
    'gcn_sparse': PRELUDE + r'''
torch.manual_seed(0)
N = 5
ei = torch.tensor([[0,1,1,2,3,4,0,0],[1,0,2,1,4,3,0,1]])
v = torch.ones(ei.size(1))
A = torch.sparse_coo_tensor(ei, v, (N, N))
print(A)
print(A.is_coalesced(), A._nnz())
Ac = A.coalesce()
print(Ac)
print(Ac.indices(), Ac.values(), Ac.is_coalesced())
print(Ac.to_dense())
deg = torch.sparse.sum(Ac, dim=1)
print(deg)
degd = deg.to_dense()
print(degd)
dinv = degd.pow(-0.5)
dinv[dinv == float('inf')] = 0
r, c = Ac.indices()
w = dinv[r] * Ac.values() * dinv[c]
An = torch.sparse_coo_tensor(Ac.indices(), w, (N, N))
print(An)
x = torch.randn(N, 3)
y = torch.sparse.mm(An, x)
print(y)
print(torch.allclose(y, An.to_dense() @ x))
W = torch.randn(3, 2, requires_grad=True)
out = torch.sparse.mm(An, x @ W)
print(out.grad_fn)
out.sum().backward()
print(W.grad)
print(An.shape, An.dtype, An.layout, An.is_sparse, An.sparse_dim(), An.dense_dim())
print(torch.mm(An, x).shape, (An @ x).shape)
print(An.t())
print(An.to_dense().to_sparse())
print(Ac * 2)
print(Ac + Ac)
try:
    An.view(-1)
except RuntimeError as e:
    print(str(e).split('\n')[0][:200])
try:
    An[0]
except Exception as e:
    print(type(e).__name__, str(e).split('\n')[0][:200])
print(torch.sparse.mm(Ac, torch.eye(5)).sum())
print(Ac.to_dense().to_sparse_csr())
''',
    'mf': PRELUDE + r'''
torch.manual_seed(0)
nu, ni, d = 6, 8, 4
users = torch.tensor([0,1,2,3,4,5,0,1]); items = torch.tensor([1,2,3,4,5,6,7,0])
ratings = torch.tensor([5., 3., 4., 2., 1., 4., 3., 5.])
class MF(nn.Module):
    def __init__(s):
        super().__init__()
        s.U = nn.Embedding(nu, d); s.I = nn.Embedding(ni, d)
        s.ub = nn.Embedding(nu, 1); s.ib = nn.Embedding(ni, 1)
        nn.init.normal_(s.U.weight, std=0.1); nn.init.normal_(s.I.weight, std=0.1)
        nn.init.zeros_(s.ub.weight); nn.init.zeros_(s.ib.weight)
    def forward(s, u, i):
        return (s.U(u) * s.I(i)).sum(1) + s.ub(u).squeeze() + s.ib(i).squeeze()
m = MF()
print(m)
opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
for ep in range(6):
    opt.zero_grad()
    pred = m(users, items)
    loss = F.mse_loss(pred, ratings)
    loss.backward(); opt.step()
    print(ep, loss.item())
print(pred.grad_fn.name(), m.U.weight.grad.round(decimals=5))
print(torch.sqrt(loss).item())
e = nn.Embedding(5, 3, padding_idx=0)
print(e.weight[0], e.padding_idx)
o = e(torch.tensor([[0, 2, 0], [4, 3, 0]])); o.sum().backward(); print(e.weight.grad)
e2 = nn.Embedding(5, 3, max_norm=1.0)
w0 = e2.weight.detach().clone()
print(w0.norm(dim=1))
r = e2(torch.tensor([1, 2, 1]))
print(r.norm(dim=1), e2.weight.norm(dim=1))
try:
    e(torch.tensor([5]))
except IndexError as ex:
    print(ex)
try:
    e(torch.tensor([1.]))
except RuntimeError as ex:
    print(ex)
print(nn.Embedding.from_pretrained(torch.arange(6.).view(3, 2)).weight.requires_grad)
fp = nn.Embedding.from_pretrained(torch.arange(6.).view(3, 2), freeze=False, padding_idx=1)
print(fp, fp(torch.tensor([2, 1])))
print(F.embedding(torch.tensor([[1, 2]]), torch.randn(3, 2)).shape)
print(nn.Embedding(3, 2, sparse=True), nn.Embedding(3, 2, scale_grad_by_freq=True, padding_idx=-1))
e3 = nn.Embedding(4, 2, scale_grad_by_freq=True)
e3(torch.tensor([1, 1, 2])).sum().backward(); print(e3.weight.grad)
''',
    'mp_scatter': PRELUDE + r'''
torch.manual_seed(0)
src_idx = torch.tensor([0,1,1,2,3,3,3])
dst_idx = torch.tensor([1,0,2,1,0,1,2])
N = 4
x = torch.randn(N, 3)
msg = x[src_idx]
out = torch.zeros(N, 3).index_add_(0, dst_idx, msg)
print(out)
out2 = torch.zeros(N, 3).scatter_add_(0, dst_idx.unsqueeze(-1).expand(-1, 3), msg)
print(torch.equal(out, out2))
idx = dst_idx.view(-1,1).expand_as(msg)
for red in ["sum", "mean", "amax", "amin", "prod"]:
    for inc in [True, False]:
        r = torch.zeros(N, 3).scatter_reduce(0, idx, msg, reduce=red, include_self=inc)
        print(red, inc, r)
cnt = torch.zeros(N).index_add_(0, dst_idx, torch.ones(len(dst_idx)))
print(cnt, out / cnt.clamp(min=1).unsqueeze(-1))
print(torch.bincount(dst_idx, minlength=N))
deg = torch.bincount(dst_idx, minlength=N).float()
print(deg.dtype)
xr = x.clone().requires_grad_()
m = xr[src_idx]
agg = torch.zeros(N, 3).scatter_reduce(0, idx, m, reduce="amax", include_self=False)
print(agg.grad_fn)
agg.sum().backward()
print(xr.grad)
xr.grad = None
agg = torch.zeros(N, 3).scatter_reduce(0, idx, m, reduce="mean", include_self=True)
agg.sum().backward(); print(xr.grad)
xr.grad = None
agg = torch.zeros(N, 3).index_add(0, dst_idx, m, alpha=2.)
print(agg.grad_fn); agg.pow(2).sum().backward(); print(xr.grad)
try:
    torch.zeros(N, 3).scatter_reduce(0, idx, msg, reduce="max")
except RuntimeError as e:
    print(e)
try:
    torch.zeros(N, 3).index_add_(0, dst_idx.float(), msg)
except RuntimeError as e:
    print(e)
try:
    torch.zeros(N, 3).scatter_add_(0, dst_idx, msg)
except RuntimeError as e:
    print(e)
try:
    torch.zeros(N, 3).index_add_(0, dst_idx, msg[:3])
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
print(torch.zeros(N, 3, dtype=torch.long).scatter_reduce(0, idx, (msg*10).long(), reduce="mean"))
print(torch.zeros(N).scatter_reduce(0, dst_idx, torch.arange(7.), "amax"))
print(torch.full((N,), float('-inf')).scatter_reduce(0, dst_idx, torch.arange(7.), "amax", include_self=True))
''',
    'ranking': PRELUDE + r'''
torch.manual_seed(0)
scores = torch.randn(3, 8)
train_items = [torch.tensor([0, 2]), torch.tensor([5]), torch.tensor([], dtype=torch.long)]
for u, it in enumerate(train_items):
    scores[u, it] = -float('inf')
print(scores)
k = 3
topv, topi = torch.topk(scores, k, dim=1)
print(topv, topi, topi.dtype)
test = [torch.tensor([1, 4]), torch.tensor([7, 3, 0]), torch.tensor([6])]
hits = torch.stack([torch.isin(topi[u], test[u]) for u in range(3)])
print(hits, hits.float().sum(1))
recall = hits.float().sum(1) / torch.tensor([len(t) for t in test])
print(recall, recall.mean().item())
prec = hits.float().mean(1); print(prec)
disc = 1.0 / torch.log2(torch.arange(2, k + 2).float())
print(disc)
dcg = (hits.float() * disc).sum(1)
idcg = torch.stack([disc[:min(len(t), k)].sum() for t in test])
print(dcg, idcg, dcg / idcg)
ranks = scores.argsort(dim=1, descending=True)
print(ranks)
pos_rank = (ranks == torch.tensor([[1], [7], [6]])).nonzero()
print(pos_rank)
print(1.0 / (pos_rank[:, 1] + 1).float())
print(torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5]), invert=True))
print(torch.isin(torch.tensor([1., 2.]), 2.), torch.isin(3, torch.tensor([1, 3])))
print(scores.topk(2, largest=False))
print(torch.argsort(torch.tensor([3, 1, 2, 1]), stable=True), torch.sort(torch.tensor([3, 1, 2, 1]), stable=True, descending=True))
auc_pos = torch.tensor([0.9, 0.4]); auc_neg = torch.tensor([0.5, 0.3, 0.95])
print((auc_pos.unsqueeze(1) > auc_neg.unsqueeze(0)).float().mean())
print(torch.topk(torch.tensor([1., 2.]), 3) if False else "skip")
try:
    torch.topk(torch.tensor([1., 2.]), 3)
except RuntimeError as e:
    print(e)
print(torch.kthvalue(torch.tensor([3., 1., 2.]), 2))
print(torch.tensor([[1, 5, 2]]).topk(2, sorted=True))
print(torch.argsort(torch.tensor([[0.1, float('nan'), -1.]]), dim=-1))
''',
    'sage_pool': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(7, 3)
ei = torch.tensor([[0,1,2,3,4,5,6,0],[1,2,0,4,5,6,3,2]])
batch = torch.tensor([0,0,0,1,1,1,1])
class SAGE(nn.Module):
    def __init__(s, i, o):
        super().__init__()
        s.lin_l = nn.Linear(i, o); s.lin_r = nn.Linear(i, o, bias=False)
    def forward(s, x, ei):
        src, dst = ei
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        cnt = torch.bincount(dst, minlength=x.size(0)).clamp(min=1).unsqueeze(-1)
        agg = agg / cnt
        out = s.lin_l(agg) + s.lin_r(x)
        return F.normalize(out, p=2., dim=-1)
m = SAGE(3, 4)
h = m(x, ei)
print(h.round(decimals=4), h.grad_fn.name())
print(cnt := torch.bincount(ei[1], minlength=7), cnt.dtype)
nb = int(batch.max()) + 1
sum_pool = torch.zeros(nb, 4).index_add_(0, batch, h)
print(sum_pool.round(decimals=4))
mean_pool = sum_pool / torch.bincount(batch).unsqueeze(1)
print(mean_pool.round(decimals=4))
max_pool = torch.full((nb, 4), float('-inf')).scatter_reduce(0, batch.unsqueeze(1).expand(-1, 4), h, 'amax', include_self=False)
print(max_pool.round(decimals=4))
print(torch.stack([h[batch == i].mean(0) for i in range(nb)]).round(decimals=4))
print(torch.unique(batch, return_counts=True))
print(torch.unique(ei[0], return_inverse=True, sorted=True))
print(torch.unique_consecutive(batch, return_counts=True))
print(torch.split(h, torch.bincount(batch).tolist())[1].shape)
print(torch.repeat_interleave(torch.tensor([3, 4])))
print(torch.repeat_interleave(torch.arange(2), torch.tensor([3, 4])))
ptr = torch.cat([torch.zeros(1, dtype=torch.long), torch.bincount(batch).cumsum(0)])
print(ptr, ptr.dtype)
h.sum().backward()
print(m.lin_l.weight.grad.round(decimals=4))
print(torch_geo := torch.cat([ei, ei.flip(0)], 1).unique(dim=1))
print(torch.searchsorted(ptr, torch.tensor([0, 3, 6])))
''',
    'seg_softmax': PRELUDE + r'''
torch.manual_seed(0)
index = torch.tensor([0,0,1,1,1,2,3,3])
N = 5
e = torch.randn(8, requires_grad=True)
mx = torch.full((N,), float('-inf')).scatter_reduce(0, index, e.detach(), "amax", include_self=True)
print(mx)
ex = (e - mx[index]).exp()
den = torch.zeros(N).index_add(0, index, ex)
alpha = ex / (den[index] + 1e-16)
print(alpha, alpha.grad_fn.name())
print(torch.zeros(N).index_add(0, index, alpha))
(alpha * torch.arange(8.)).sum().backward()
print(e.grad)
mx2 = e.new_zeros(N).scatter_reduce(0, index, e, "amax", include_self=False)
print(mx2, mx2.grad_fn.name())
ex2 = (e - mx2.gather(0, index)).exp()
s = torch.zeros(N).scatter_add(0, index, ex2)
a2 = ex2 / s.gather(0, index)
print(a2)
print(torch.zeros(N).scatter_add(0, index, ex2).grad_fn)
# multihead
eh = torch.randn(8, 2)
m = torch.full((N, 2), float('-inf')).scatter_reduce(0, index.unsqueeze(-1).expand(-1, 2), eh, 'amax')
print(m)
print(m[index])
''',
    'sgd_exact': PRELUDE + r'''
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    for kw in [dict(), dict(momentum=0.9), dict(momentum=0.9, nesterov=True, weight_decay=1e-2),
               dict(momentum=0.5, dampening=0.3, weight_decay=0.1, maximize=True), dict(weight_decay=0.05)]:
        w = torch.randn(50, dtype=dt, requires_grad=True)
        s = torch.randn((), dtype=dt, requires_grad=True)
        opt = torch.optim.SGD([w, s], lr=0.037, **kw)
        for i in range(4):
            opt.zero_grad()
            loss = ((w * s - 0.3) ** 2).sum() * 0.1 + (s - 1) ** 2 + (w.abs() * s).sum()
            loss.backward(); opt.step()
        print(dt, kw, loss.item(), w.sum().item(), s.item(), w[:3].tolist())
''',
    'sparse_opt': PRELUDE + r'''
torch.manual_seed(0)
emb = nn.Embedding(6, 3, sparse=True)
print(emb)
idx = torch.tensor([1, 3, 1, 5])
out = emb(idx)
out.pow(2).sum().backward()
g = emb.weight.grad
print(g)
print(g.is_sparse, g.coalesce())
opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
w_before = emb.weight.detach().clone()
opt.step()
print(emb.weight - w_before)
print(opt.state[emb.weight]['step'], opt.state[emb.weight]['exp_avg'])
opt.zero_grad()
print(emb.weight.grad)
emb(torch.tensor([0, 1])).sum().backward()
opt.step()
print(emb.weight.round(decimals=4))
emb2 = nn.Embedding(6, 3, sparse=True)
sgd = torch.optim.SGD(emb2.parameters(), lr=0.5)
emb2(idx).sum().backward(); w = emb2.weight.detach().clone(); sgd.step()
print((emb2.weight - w))
try:
    torch.optim.Adam(emb2.parameters()).step()
except RuntimeError as e:
    print(e)
emb2.zero_grad()
emb2(idx).sum().backward()
try:
    torch.optim.Adam(emb2.parameters()).step()
except RuntimeError as e:
    print(e)
try:
    torch.optim.SGD(emb2.parameters(), lr=0.1, momentum=0.9, weight_decay=0.1).step()
except RuntimeError as e:
    print(e)
l = nn.Linear(2, 2)
try:
    torch.optim.SparseAdam(l.parameters()).step()
except RuntimeError as e:
    print(e)
try:
    torch.optim.SparseAdam([{'params': l.parameters()}, {'params': emb.parameters()}])
except Exception as e:
    print(type(e).__name__, e)
l(torch.randn(1, 2)).sum().backward()
try:
    torch.optim.SparseAdam(l.parameters()).step()
except RuntimeError as e:
    print(e)
print(torch.optim.SparseAdam(emb.parameters(), lr=0.1))
o = torch.optim.Adagrad(emb2.parameters(), lr=0.1); o.step(); print(emb2.weight.round(decimals=4))
''',
}

BUGS = {
    'log1p_sleef': (
        "log_sigmoid: torch takes SLEEF's log1p (1 ulp), ember the correctly rounded one",
        PRELUDE + r'''
x = torch.tensor([0.3, -1.2]); t = torch.tensor([1., 0.])
print(F.logsigmoid(x).tolist())
print(F.binary_cross_entropy_with_logits(x, t).item())
'''),
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, BUGS)
