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
    'attention_more': PRELUDE + r'''
torch.manual_seed(0)
B, T, H = 2, 4, 6
enc = torch.randn(B, T, H); dec_h = torch.randn(B, H)
mask = torch.tensor([[1, 1, 1, 0], [1, 1, 0, 0]]).bool()
# Luong dot / general / concat
score = torch.bmm(enc, dec_h.unsqueeze(2)).squeeze(2)
score = score.masked_fill(~mask, float('-inf'))
a = F.softmax(score, dim=1)
print(a.round(decimals=4))
ctx = (a.unsqueeze(2) * enc).sum(1)
print(ctx.round(decimals=4), torch.einsum('bt,bth->bh', a, enc).round(decimals=4))
Wa = nn.Linear(H, H, bias=False)
g = torch.bmm(Wa(enc), dec_h.unsqueeze(2)).squeeze(2).masked_fill(mask == 0, -1e9)
print(F.softmax(g, -1).round(decimals=4))
allmasked = torch.full((1, 3), float('-inf'))
print(F.softmax(allmasked, -1), torch.softmax(allmasked.masked_fill(torch.tensor([[True, False, False]]), 0.), -1))
print(torch.nan_to_num(F.softmax(allmasked, -1), nan=0.0))
mha = nn.MultiheadAttention(H, 2, batch_first=True)
out, w = mha(enc, enc, enc, key_padding_mask=~mask)
print(out.shape, w.shape, w.round(decimals=4))
out, w = mha(enc, enc, enc, key_padding_mask=~mask, average_attn_weights=False)
print(w.shape)
causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
print(causal, nn.Transformer.generate_square_subsequent_mask(T))
out, w = mha(enc, enc, enc, attn_mask=causal)
print(w.round(decimals=4)[0])
try:
    mha(enc, enc, enc, key_padding_mask=mask.float()[:, :3])
except (RuntimeError, AssertionError) as e:
    print(type(e).__name__, e)
q = torch.randn(B, 2, T, 3)
o = F.scaled_dot_product_attention(q, q, q, attn_mask=mask[:, None, None, :])
print(o.shape, o.round(decimals=4)[1, 0])
o2 = F.scaled_dot_product_attention(q, q, q, is_causal=True)
print(o2.round(decimals=4)[0, 0])
print(F.scaled_dot_product_attention(q, q, q, attn_mask=~causal).sub(o2).abs().max() < 1e-6)
''',
    'beam': PRELUDE + r'''
torch.manual_seed(0)
V, H = 7, 4
emb = nn.Embedding(V, H); cell = nn.GRUCell(H, H); proj = nn.Linear(H, V)
EOS = 1
def step(tok, h):
    h = cell(emb(tok), h)
    return F.log_softmax(proj(h), dim=-1), h
with torch.no_grad():
    # greedy
    h = torch.zeros(2, H); tok = torch.tensor([0, 0]); outs = []
    for t in range(5):
        lp, h = step(tok, h); tok = lp.argmax(-1); outs.append(tok)
    print(torch.stack(outs, 1))
    # beam search
    K = 3
    h = torch.zeros(1, H); seqs = torch.zeros(1, 1, dtype=torch.long); scores = torch.zeros(1)
    finished = []
    for t in range(4):
        lp, h = step(seqs[:, -1], h)
        cand = (scores.unsqueeze(1) + lp).view(-1)
        top, idx = cand.topk(K)
        beam = idx // V; tokn = idx % V
        print(t, top.round(decimals=4), beam, tokn, idx.dtype)
        seqs = torch.cat([seqs.index_select(0, beam), tokn.unsqueeze(1)], 1)
        h = h.index_select(0, beam); scores = top
        h = h[beam.argsort().argsort()] if False else h
    print(seqs, scores.round(decimals=4))
    best = scores.argmax()
    print(seqs[best], best)
    lp = torch.randn(2, 3, V).log_softmax(-1)
    tk = lp.topk(2, dim=-1)
    print(tk.values.round(decimals=4), tk.indices)
    print(torch.gather(lp, 2, tk.indices).round(decimals=4))
    print(lp.view(2, -1).topk(2, -1).indices // V, torch.div(lp.view(2, -1).topk(2, -1).indices, V, rounding_mode='floor'))
    # length penalty
    lens = torch.tensor([3, 5, 2]).float()
    print(((5 + lens) / 6).pow(0.6), scores / lens)
    g = torch.gather(torch.arange(12).view(3, 4), 1, torch.tensor([[0], [3], [1]]))
    print(g)
    try:
        torch.gather(torch.arange(12).view(3, 4), 1, torch.tensor([[4]]))
    except RuntimeError as e:
        print(e)
    try:
        torch.gather(torch.arange(12).view(3, 4), 1, torch.tensor([0, 1]))
    except RuntimeError as e:
        print(e)
    try:
        torch.arange(12).view(3, 4).index_select(0, torch.tensor([[0]]))
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
    try:
        torch.arange(12).view(3, 4).index_select(0, torch.tensor([3]))
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
    print(torch.arange(12).view(3, 4).index_select(1, torch.tensor([3, 0, 3])))
    eos_mask = seqs == EOS
    print(eos_mask.any(1), eos_mask.int().argmax(1), eos_mask.cumsum(1))
    print(torch.where(eos_mask.any(1), eos_mask.int().argmax(1), seqs.size(1)))
''',
    'bow': PRELUDE + r'''
torch.manual_seed(0)
docs = ["good movie great plot", "bad movie awful acting", "great acting good fun", "awful plot bad fun bad"]
labels = torch.tensor([1, 0, 1, 0])
vocab = {w: i for i, w in enumerate(sorted({w for d in docs for w in d.split()}))}
V = len(vocab); print(V, vocab)
X = torch.zeros(len(docs), V)
for r, d in enumerate(docs):
    for w in d.split():
        X[r, vocab[w]] += 1
print(X)
tf = X / X.sum(1, keepdim=True)
df = (X > 0).sum(0)
print(df, df.dtype)
idf = torch.log((1 + len(docs)) / (1 + df)) + 1
print(idf, idf.dtype)
tfidf = tf * idf
tfidf = tfidf / tfidf.norm(dim=1, keepdim=True)
print(tfidf.round(decimals=4))
clf = nn.Linear(V, 2)
opt = torch.optim.SGD(clf.parameters(), lr=0.5)
for ep in range(5):
    opt.zero_grad(); out = clf(tfidf); loss = F.cross_entropy(out, labels); loss.backward(); opt.step()
    print(ep, round(loss.item(), 5))
print(out.argmax(1), F.softmax(out, 1).round(decimals=3))
# sparse bag of words via EmbeddingBag
flat = torch.tensor([vocab[w] for d in docs for w in d.split()])
offs = torch.tensor([0] + [len(d.split()) for d in docs[:-1]]).cumsum(0)
print(flat, offs)
bag = nn.EmbeddingBag(V, 2, mode='mean')
print(bag(flat, offs).round(decimals=4))
Xs = X.to_sparse()
print(Xs)
print(torch.sparse.mm(Xs, torch.ones(V, 1)).squeeze(1))
print(X.count_nonzero(), X.count_nonzero(dim=1), torch.count_nonzero(X, dim=0))
print(torch.log(torch.tensor(5 / 3)), torch.log(torch.tensor([5, 3]) / 3), (torch.tensor([5, 3]) / 3).dtype)
print(torch.tensor([1, 2]) / torch.tensor([3, 3]), torch.tensor([7, 2]) // 3, torch.div(torch.tensor([7, -2]), 3, rounding_mode='floor'))
print(torch.div(torch.tensor([7, -2]), 3, rounding_mode='trunc'))
''',
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
    'chartok': PRELUDE + r'''
torch.manual_seed(0)
text = "hello world"
chars = sorted(set(text)); stoi = {c: i for i, c in enumerate(chars)}; itos = {i: c for c, i in stoi.items()}
enc = lambda s: [stoi[c] for c in s]
data = torch.tensor(enc(text), dtype=torch.long)
print(data, data.dtype, data.shape)
print(torch.tensor([enc("hel"), enc("lo ")]))
try:
    torch.tensor([enc("hel"), enc("lo")])
except ValueError as e:
    print(e)
print(torch.tensor([[1, 2], [3, 4.5]]).dtype, torch.tensor([True, 1]).dtype, torch.tensor([]).dtype, torch.tensor([[]]).shape)
print(torch.as_tensor([1, 2], dtype=torch.int32), torch.LongTensor([1, 2]), torch.tensor(enc("ab")).tolist())
print(''.join(itos[i] for i in data.tolist()))
block = 4
ix = torch.randint(len(data) - block, (3,))
x = torch.stack([data[i:i + block] for i in ix]); y = torch.stack([data[i + 1:i + block + 1] for i in ix])
print(ix, x, y)
class Bigram(nn.Module):
    def __init__(s, V):
        super().__init__(); s.tok = nn.Embedding(V, V)
    def forward(s, idx, tgt=None):
        logits = s.tok(idx)
        if tgt is None: return logits, None
        B, T, C = logits.shape
        return logits, F.cross_entropy(logits.view(B * T, C), tgt.view(B * T))
m = Bigram(len(chars))
logits, loss = m(x, y)
print(logits.shape, loss.item())
opt = torch.optim.AdamW(m.parameters(), lr=1e-2)
for i in range(3):
    _, loss = m(x, y); opt.zero_grad(set_to_none=True); loss.backward(); opt.step(); print(loss.item())
idx = torch.zeros((1, 1), dtype=torch.long)
for _ in range(6):
    lg, _ = m(idx); p = F.softmax(lg[:, -1, :], dim=-1)
    idx = torch.cat((idx, torch.multinomial(p, 1)), dim=1)
print(idx, ''.join(itos[i] for i in idx[0].tolist()))
print(F.cross_entropy(logits.transpose(1, 2), y).item(), F.cross_entropy(logits.view(-1, len(chars)), y.view(-1), reduction='none').shape)
try:
    F.cross_entropy(logits, y)
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits.view(-1, len(chars)), y.view(-1).float())
except RuntimeError as e:
    print(e)
print(torch.tensor(b"abc"[0]), torch.tensor(list(b"hi")), torch.frombuffer(bytearray(b"hi"), dtype=torch.uint8))
print(torch.tensor([ord(c) for c in "Az"], dtype=torch.uint8), torch.tensor(list(map(ord, "hi"))).dtype)
''',
    'ctc': PRELUDE + r'''
torch.manual_seed(0)
T, N, C, S = 6, 2, 5, 3
log_probs = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
targets = torch.randint(1, C, (N, S), dtype=torch.long)
print(targets)
input_lengths = torch.full((N,), T, dtype=torch.long)
target_lengths = torch.tensor([3, 2])
ctc = nn.CTCLoss(blank=0)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
print(round(loss.item(), 5), loss.grad_fn.name())
loss.backward()
print(log_probs.grad.round(decimals=4)[0])
for red in ['none', 'sum', 'mean']:
    l = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction=red)
    print(red, l.round(decimals=4) if l.dim() else round(l.item(), 4))
flat = torch.cat([targets[0, :3], targets[1, :2]])
print(round(F.ctc_loss(log_probs, flat, input_lengths, target_lengths).item(), 5))
print(round(F.ctc_loss(log_probs, targets, (6, 5), (3, 2)).item(), 5))
inf = F.ctc_loss(log_probs, torch.tensor([[1, 1, 1, 1, 1, 1, 1]] * 2), input_lengths, torch.tensor([7, 7]), reduction='none')
print(inf)
print(F.ctc_loss(log_probs, torch.tensor([[1, 1, 1, 1, 1, 1, 1]] * 2), input_lengths, torch.tensor([7, 7]), zero_infinity=True, reduction='none'))
print(nn.CTCLoss(blank=4, zero_infinity=True))
try:
    F.ctc_loss(log_probs, targets, input_lengths, torch.tensor([4, 2]))
except RuntimeError as e:
    print(e)
try:
    F.ctc_loss(log_probs, targets.int(), input_lengths.float(), target_lengths)
except RuntimeError as e:
    print(e)
try:
    F.ctc_loss(log_probs, targets, torch.tensor([7, 6]), target_lengths)
except RuntimeError as e:
    print(e)
# greedy CTC decode
best = log_probs.argmax(2).t()
print(best)
dec = []
for b in best:
    u = torch.unique_consecutive(b)
    dec.append(u[u != 0].tolist())
print(dec)
''',
    'ctc_more': PRELUDE + r'''
torch.manual_seed(0)
T, N, C = 8, 3, 6
lp = torch.randn(T, N, C).log_softmax(2).requires_grad_()
tg = torch.tensor([[1, 2, 2, 3], [4, 4, 0, 0], [5, 1, 0, 0]])
il = torch.tensor([8, 6, 7]); tl = torch.tensor([4, 2, 2])
for red in ['mean', 'sum', 'none']:
    l = F.ctc_loss(lp, tg, il, tl, reduction=red)
    print(red, l.detach().round(decimals=4) if l.dim() else round(l.item(), 4))
l = F.ctc_loss(lp, tg, il, tl); g, = torch.autograd.grad(l, lp); print(g.abs().sum().round(decimals=3), g[7, 1].round(decimals=4))
l64 = F.ctc_loss(lp.double(), tg, il, tl, reduction='none'); print(l64.dtype, l64.round(decimals=6))
ctc = nn.CTCLoss(blank=0, reduction='mean', zero_infinity=True)
print(ctc(lp, torch.tensor([[1, 1, 1, 1, 1]] * 3), torch.tensor([3, 3, 3]), torch.tensor([5, 5, 5])))
lp2 = torch.randn(T, C).log_softmax(1)
print(round(F.ctc_loss(lp2, torch.tensor([1, 2]), torch.tensor(8), torch.tensor(2)).item(), 4))
print(round(F.ctc_loss(lp2, torch.tensor([1, 2]), (8,), (2,)).item(), 4))
try:
    F.ctc_loss(lp, tg, il, torch.tensor([5, 2, 2]))
except RuntimeError as e:
    print(e)
try:
    F.ctc_loss(lp, tg.float(), il, tl)
except RuntimeError as e:
    print(e)
try:
    F.ctc_loss(lp, tg, torch.tensor([9, 6, 7]), tl)
except RuntimeError as e:
    print(e)
try:
    F.ctc_loss(lp[:, :2], tg, il, tl)
except RuntimeError as e:
    print(e)
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
    'ebag_more': PRELUDE + r'''
torch.manual_seed(0)
w = torch.tensor([[1., 5.], [3., 2.], [3., 7.], [0., 0.], [2., 2.]])
inp = torch.tensor([0, 1, 2, 4, 2, 3]); off = torch.tensor([0, 3])
bag = nn.EmbeddingBag.from_pretrained(w.clone(), freeze=False, mode='max')
o = bag(inp, off); print(o); (o * torch.tensor([[1., 2.], [3., 4.]])).sum().backward(); print(bag.weight.grad)
bag = nn.EmbeddingBag.from_pretrained(w.clone(), freeze=False, mode='sum')
psw = torch.tensor([0.5, 1., 2., 1., 3., 0.25], requires_grad=True)
o = bag(inp, off, per_sample_weights=psw); print(o, o.grad_fn.name())
o.sum().backward(); print(bag.weight.grad, psw.grad)
bag = nn.EmbeddingBag.from_pretrained(w.clone(), freeze=False, mode='mean', padding_idx=2)
o = bag(inp, off); print(o); o.sum().backward(); print(bag.weight.grad)
print(bag(torch.tensor([2, 2]), torch.tensor([0])), bag(torch.tensor([[2, 2], [1, 2]])))
sb = nn.EmbeddingBag(5, 2, mode='mean', sparse=True); sb(inp, off).sum().backward(); print(sb.weight.grad.coalesce())
sb = nn.EmbeddingBag(5, 2, mode='max', sparse=True); sb(inp, off).sum().backward(); print(sb.weight.grad.coalesce().indices())
e = nn.Embedding.from_pretrained(w.clone(), max_norm=3.0, norm_type=1.0)
print(e(torch.tensor([1, 2])), e.weight)
e = nn.Embedding(5, 2, max_norm=1.0); x = e(torch.tensor([[0, 1], [1, 1]])); print(x.grad_fn.name(), e.weight.norm(dim=1).round(decimals=5))
print(F.embedding(torch.tensor([0, 4]), w, max_norm=2.0), w)
emb = nn.Embedding(5, 2, sparse=True); out = emb(torch.tensor([[0, 2], [2, 4]])); out.sum().backward()
print(emb.weight.grad, emb.weight.grad.is_coalesced(), emb.weight.grad._nnz())
print(emb.weight.grad + emb.weight.grad)
emb.weight.grad.add_(emb.weight.grad)
print(emb.weight.grad.to_dense())
emb2 = nn.Embedding(5, 2, sparse=True, padding_idx=2); emb2(torch.tensor([2, 3, 2])).sum().backward(); print(emb2.weight.grad)
print(F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([0]), mode='max', padding_idx=1))
bag = nn.EmbeddingBag(5, 2, include_last_offset=True, mode='sum')
try:
    print(bag(inp, torch.tensor([0, 3])))
    print(bag(inp, torch.tensor([0])))
except Exception as ex:
    print(type(ex).__name__, ex)
''',
    'ebag_paths': PRELUDE + r'''
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    w = torch.randn(30, 8, dtype=dt, requires_grad=True); inp = torch.randint(0, 30, (40,)); psw = torch.rand(40, dtype=dt, requires_grad=True)
    for mode in ['sum', 'mean', 'max']:
        for pad in [None, 3]:
            for last in [False, True]:
                off = torch.tensor([0, 5, 5, 17, 30 if dt == torch.float64 else 40]) if last else torch.tensor([0, 5, 5, 17])
                p = psw if mode == 'sum' else None
                o = F.embedding_bag(inp, w, off, mode=mode, per_sample_weights=p, include_last_offset=last, padding_idx=pad)
                gw, = torch.autograd.grad((o * torch.arange(o.numel(), dtype=dt).view_as(o)).sum(), w)
                print(dt, mode, pad, last, o.shape, o.sum().item(), o[-1, :3].tolist(), gw.sum().item())
bag = nn.EmbeddingBag(30, 8, mode='sum')
x = bag(torch.randint(0, 30, (4, 6)), per_sample_weights=torch.rand(4, 6))
print(x.sum().item(), x.grad_fn.name())
''',
    'errors_gnn_nlp': PRELUDE + r'''
torch.manual_seed(0)
def t(f):
    try:
        r = f()
        print("ok", r if not isinstance(r, torch.Tensor) else (r.shape, r.dtype))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
x = torch.randn(4, 3); idx = torch.tensor([0, 1, 1])
t(lambda: torch.zeros(4, 3).index_add_(0, idx, torch.randn(3, 3, dtype=torch.float64)))
t(lambda: torch.zeros(4, 3).index_add_(0, idx.int(), torch.randn(3, 3)))
t(lambda: torch.zeros(4, 3).scatter_add_(0, idx.int().view(3, 1).expand(3, 3), torch.randn(3, 3)))
t(lambda: torch.zeros(4, 3).scatter_add_(0, idx.view(3, 1).expand(3, 3), torch.randn(3, 3, dtype=torch.float64)))
t(lambda: torch.zeros(4, 3).scatter_add(1, idx.view(3, 1), torch.randn(2, 3)))
t(lambda: torch.zeros(4, 3).scatter_add(0, idx.view(1, 3), torch.randn(1, 2)))
t(lambda: torch.zeros(4, 3).scatter_reduce(0, idx.view(3, 1).expand(3, 3), torch.randn(3, 3), 'sum', include_self=False).sum())
t(lambda: torch.zeros(4, 3).scatter_(0, idx.view(3, 1).expand(3, 3), torch.randn(3, 3), reduce='sum'))
t(lambda: nn.Embedding(5, 2)(torch.tensor([1, 2], dtype=torch.int32)))
t(lambda: nn.Embedding(5, 2)(torch.tensor([-1])))
t(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
t(lambda: nn.Embedding(5, 2, padding_idx=5))
t(lambda: nn.Embedding(5, 2, padding_idx=-6))
t(lambda: nn.Embedding(5, 2, padding_idx=-1).padding_idx)
t(lambda: nn.EmbeddingBag(5, 2)(torch.tensor([1, 2, 3]), torch.tensor([1, 2])))
t(lambda: nn.EmbeddingBag(5, 2)(torch.tensor([1, 2, 3]), torch.tensor([0, 2], dtype=torch.int32)))
t(lambda: nn.EmbeddingBag(5, 2)(torch.tensor([1, 2, 3]), torch.tensor([0, 4])))
t(lambda: nn.EmbeddingBag(5, 2)(torch.tensor([1, 2, 3]), torch.tensor([[0, 2]])))
t(lambda: nn.EmbeddingBag(5, 2, mode='avg'))
t(lambda: nn.EmbeddingBag(5, 2, mode='max')(torch.tensor([1, 2, 3]), torch.tensor([0, 1]), per_sample_weights=torch.ones(3)))
t(lambda: nn.EmbeddingBag(5, 2)(torch.tensor([1, 2, 3]), torch.tensor([0, 1]), per_sample_weights=torch.ones(2)))
t(lambda: nn.EmbeddingBag(5, 2)(torch.tensor([1, 2, 3]).float(), torch.tensor([0, 1])))
t(lambda: torch.sparse.mm(torch.randn(3, 3), torch.randn(3, 2)))
t(lambda: torch.sparse_coo_tensor(torch.tensor([0, 1]), torch.tensor([1., 2.]), (4,)))
t(lambda: torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1., 2.]), (4, 4)))
t(lambda: F.cross_entropy(torch.randn(2, 5, 4), torch.randint(0, 4, (2, 5))))
t(lambda: F.cross_entropy(torch.randn(2, 4, 5), torch.randint(0, 4, (2, 4))))
t(lambda: F.cross_entropy(torch.randn(10, 4), torch.randint(0, 4, (2, 5))))
t(lambda: F.nll_loss(torch.randn(10, 4), torch.randint(0, 4, (10,)).int()))
t(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1, 4])))
t(lambda: torch.randn(3, 4).masked_fill(torch.ones(3, 4), 0.))
t(lambda: torch.randn(3, 4).masked_fill(torch.ones(3, 4, dtype=torch.bool), torch.tensor([1., 2.])))
t(lambda: torch.arange(4).softmax(0))
t(lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(2, 5, 6)))
t(lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(3, 4, 6)))
t(lambda: torch.bmm(torch.randn(3, 4), torch.randn(4, 6)))
g = nn.GRU(8, 4, batch_first=True)
t(lambda: g(torch.randn(2, 5, 6)))
t(lambda: g(torch.randn(2, 5, 8), torch.randn(2, 4)))
t(lambda: g(torch.randn(2, 5, 8), torch.randn(1, 3, 4)))
t(lambda: nn.LSTM(8, 4)(torch.randn(5, 2, 8), torch.randn(1, 2, 4)))
t(lambda: nn.LSTM(8, 4)(torch.randn(5, 2, 8), (torch.randn(1, 2, 4), torch.randn(1, 2, 5))))
t(lambda: nn.GRU(8, 4)(torch.randn(5, 2, 8).double()))
t(lambda: nn.GRU(8, 4)(torch.randn(2, 5, 2, 8)))
t(lambda: nn.utils.rnn.pack_padded_sequence(torch.randn(3, 4, 2), torch.tensor([2, 4, 3]), batch_first=True))
t(lambda: nn.utils.rnn.pack_padded_sequence(torch.randn(3, 4, 2), torch.tensor([4, 3]), batch_first=True))
t(lambda: nn.utils.rnn.pad_sequence([torch.ones(2, 3), torch.ones(3, 2)]))
t(lambda: torch.topk(torch.randn(3, 4), 5, dim=1))
t(lambda: torch.gather(torch.randn(3, 4), 1, torch.tensor([[4]])))
t(lambda: torch.randn(3, 4).index_select(1, torch.tensor([1.])))
t(lambda: torch.multinomial(torch.tensor([[0.2, 0.8], [0., 0.]]), 1))
t(lambda: torch.multinomial(torch.tensor([0.2, 0.8]), 3))
t(lambda: F.ctc_loss(torch.randn(6, 2, 5).log_softmax(2), torch.randint(1, 5, (2, 3)), torch.tensor([6, 6]), torch.tensor([3, 3]), blank=5))
t(lambda: F.one_hot(torch.tensor([-1, 2])))
t(lambda: torch.isin(torch.tensor([1, 2]), [1]))
t(lambda: torch.bincount(torch.tensor([-1, 2])))
t(lambda: torch.bincount(torch.tensor([[1, 2]])))
t(lambda: torch.bincount(torch.tensor([1., 2.])))
t(lambda: torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1, 2, 3])))
t(lambda: torch.unique(torch.tensor([[1, 2], [1, 2]]), dim=2))
t(lambda: torch.segment_reduce(torch.tensor([1., 2.]), 'sum', lengths=torch.tensor([1, 2])))
''',
    'exact_misc': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(7, 5); y = torch.randn(7, 5)
print(F.cosine_similarity(x, y).tolist())
print(F.cosine_similarity(x, y, dim=0).tolist())
print(F.cosine_similarity(x[:1], y).tolist())
print(F.pairwise_distance(x, y).tolist())
print(torch.cdist(x, y).flatten()[:10].round(decimals=5).tolist(), torch.cdist(x, y, p=1).flatten()[:10].tolist())  # (p=2: its vector lanes' order)
w = torch.randn(10, 6); inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0]); off = torch.tensor([0, 3, 4])
for mode in ['sum', 'mean', 'max']:
    print(mode, F.embedding_bag(inp, w, off, mode=mode).flatten().tolist())
psw = torch.rand(9)
print(F.embedding_bag(inp, w, off, mode='sum', per_sample_weights=psw).flatten().tolist())
idx = torch.tensor([0, 1, 0, 2, 1, 0, 2, 2]); src = torch.randn(8, 3)
for red in ['sum', 'mean', 'prod', 'amax']:
    print(red, torch.zeros(3, 3).scatter_reduce(0, idx.view(-1, 1).expand(-1, 3), src, red, include_self=False).flatten().tolist())
print(torch.bincount(idx, weights=torch.rand(8)).tolist(), torch.bincount(idx, weights=torch.rand(8, dtype=torch.float64)).dtype)
print(torch.segment_reduce(src[:, 0], 'mean', lengths=torch.tensor([3, 5])).tolist())
v = torch.randn(40)
print(v.norm().item(), v.norm(p=1).item(), v.norm(p=3).item(), torch.linalg.vector_norm(v, ord=float('inf')).item())
print(F.normalize(x, p=1, dim=1).flatten()[:5].tolist(), F.normalize(x, dim=0).flatten()[:5].tolist())
print(x.std(0).tolist(), x.var(1, unbiased=False).tolist())
print(F.leaky_relu(x, 0.2).sum().item(), F.elu(x).sum().item(), F.gelu(x).flatten()[:4].round(decimals=5).tolist())  # (gelu's erf: README)
print(torch.softmax(x.masked_fill(x < -1, float('-inf')), 1).flatten().tolist())
print(x.mean().item(), x.sum(0).tolist(), x.sum(1).tolist(), x.mean(0).tolist())
print((x @ y.t()).round(decimals=4).flatten()[:5].tolist())
print(torch.einsum('ij,ij->i', x, y).round(decimals=5).tolist(), (x * y).sum(-1).tolist())  # (einsum: a BLAS product)
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
a = torch.randn(3, 3, requires_grad=True); b = torch.randn(3, 2, requires_grad=True)
r = torch.sparse.mm(a, b); print(r.grad_fn, r.grad_fn.next_functions[0][0].name(), r.stride())
r.sum().backward(); print(a.grad, b.grad)
r2 = torch.sparse.mm(b.t(), Ac.t().to_dense()[:3].to_sparse()) if False else torch.sparse.mm(x.t(), An)
print(r2.shape, r2.grad_fn)
''',
    'gin': PRELUDE + r'''
torch.manual_seed(0)
class GIN(nn.Module):
    def __init__(s, i, h, eps=0.0, train_eps=True):
        super().__init__()
        s.mlp = nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, h))
        s.eps = nn.Parameter(torch.tensor([eps])) if train_eps else eps
    def forward(s, x, ei):
        agg = torch.zeros_like(x).index_add_(0, ei[1], x[ei[0]])
        return s.mlp((1 + s.eps) * x + agg)
x = torch.randn(6, 3); ei = torch.tensor([[0, 1, 2, 3, 4, 5, 1], [1, 2, 3, 4, 5, 0, 3]])
batch = torch.tensor([0, 0, 0, 1, 1, 1])
g = GIN(3, 4)
print(g)
h = g(x, ei)
print(h.shape, h.grad_fn.name(), g.mlp[1].running_mean.round(decimals=4), g.mlp[1].num_batches_tracked)
pooled = torch.zeros(2, 4).index_add_(0, batch, h)
out = nn.Linear(4, 2)(pooled)
loss = F.cross_entropy(out, torch.tensor([0, 1]))
loss.backward()
print(round(loss.item(), 4), g.eps.grad.round(decimals=4), g.eps)
g.eval(); print(g(x, ei).round(decimals=3)[0])
print(sum(p.numel() for p in g.parameters() if p.requires_grad))
print([n for n, _ in g.named_parameters()], [n for n, _ in g.named_buffers()])
sd = g.state_dict(); print(list(sd.keys()), sd['eps'])
try:
    g.mlp[1](torch.randn(1, 4)) if False else nn.BatchNorm1d(4)(torch.randn(1, 4))
except ValueError as e:
    print(e)
''',
    'gradfn_names': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(5, 3, requires_grad=True); i = torch.tensor([0, 2, 2])
fs = {
 'index_add': lambda: torch.zeros(5, 3).index_add(0, i, x[:3]),
 'index_add_': lambda: torch.zeros(5, 3).index_add_(0, i, x[:3]),
 'scatter_add': lambda: torch.zeros(5, 3).scatter_add(0, i.view(3, 1).expand(3, 3), x[:3]),
 'scatter_reduce': lambda: torch.zeros(5, 3).scatter_reduce(0, i.view(3, 1).expand(3, 3), x[:3], 'amax'),
 'scatter': lambda: torch.zeros(5, 3).scatter(0, i.view(3, 1).expand(3, 3), x[:3]),
 'index_select': lambda: x.index_select(0, i), 'gather': lambda: x.gather(1, torch.tensor([[0], [1], [2], [0], [1]])),
 'getitem': lambda: x[i], 'getitem_mask': lambda: x[x > 0], 'index_put': lambda: x.index_put((i,), torch.ones(3)),
 'embedding': lambda: F.embedding(i, x), 'embedding_bag': lambda: F.embedding_bag(i, x, torch.tensor([0]), mode='mean'),
 'masked_fill': lambda: x.masked_fill(x > 0, float('-inf')), 'where': lambda: torch.where(x > 0, x, 0.),
 'index_fill': lambda: x.index_fill(0, i, 0.), 'index_copy': lambda: x.index_copy(0, torch.tensor([1]), x[:1] * 2),
 'take': lambda: x.take(torch.tensor([0, 7])), 'take_along_dim': lambda: torch.take_along_dim(x, torch.tensor([[0], [1], [2], [0], [1]]), 1),
 'repeat_interleave': lambda: x.repeat_interleave(2, dim=0), 'segment': lambda: torch.segment_reduce(x[:, 0], 'sum', lengths=torch.tensor([2, 3])),
 'index_reduce': lambda: torch.ones(5, 3).index_reduce(0, i, x[:3], 'prod'),
 'masked_scatter': lambda: torch.zeros(5, 3).masked_scatter(torch.ones(5, 3, dtype=torch.bool), x),
 'sparse_mm': lambda: torch.sparse.mm(torch.eye(5).to_sparse(), x), 'spmm': lambda: torch.spmm(torch.eye(5).to_sparse(), x),
 'to_sparse': lambda: x.to_sparse(), 'sparse_to_dense': lambda: x.to_sparse().to_dense(), 'coalesce': lambda: x.to_sparse().coalesce(),
 'values': lambda: x.to_sparse().coalesce().values(), 'sparse_sum': lambda: torch.sparse.sum(x.to_sparse()),
 'sparse_softmax': lambda: torch.sparse.softmax(x.to_sparse(), 1), 'cdist': lambda: torch.cdist(x, x),
 'cos_sim': lambda: F.cosine_similarity(x, x), 'normalize': lambda: F.normalize(x), 'logsigmoid': lambda: F.logsigmoid(x),
 'ctc': lambda: F.ctc_loss(x.view(5, 1, 3).log_softmax(2), torch.tensor([[1, 2]]), (5,), (2,)),
 'topk': lambda: x.topk(2).values, 'sort': lambda: x.sort(0).values, 'max_dim': lambda: x.max(1).values, 'amax': lambda: x.amax(0),
 'kthvalue': lambda: x.kthvalue(2, 1).values, 'cumsum': lambda: x.cumsum(0), 'logcumsumexp': lambda: x.logcumsumexp(0),
}
for k, f in fs.items():
    try:
        r = f(); print(k, r.grad_fn.name() if r.grad_fn else None, r.layout)
    except Exception as e:
        print(k, type(e).__name__, str(e)[:100])
''',
    'knn_graph': PRELUDE + r'''
torch.manual_seed(0)
pos = torch.randn(8, 2)
d = torch.cdist(pos, pos)
print(d.round(decimals=4), d.dtype)
d.fill_diagonal_(float('inf'))
knn = d.topk(3, largest=False)
print(knn.indices, knn.values.round(decimals=4))
row = torch.arange(8).repeat_interleave(3); col = knn.indices.flatten()
ei = torch.stack([row, col]); print(ei.shape, ei[:, :6])
print(torch.pdist(pos).shape, torch.pdist(pos).round(decimals=3)[:5])
print(torch.triu_indices(4, 4, offset=1), torch.tril_indices(3, 3))
print(torch.combinations(torch.arange(4), r=2), torch.cartesian_prod(torch.arange(2), torch.arange(3)).shape)
deg = torch.bincount(ei[0], minlength=8).float(); deg[2] = 0
dis = deg.pow(-0.5); print(dis)
dis.masked_fill_(dis == float('inf'), 0); print(dis, torch.rsqrt(torch.tensor([4., 0., 1.])))
w = dis[ei[0]] * dis[ei[1]]; print(w[:6])
A = torch.sparse_coo_tensor(ei, w, (8, 8)).coalesce()
print(A.values()[:5], A.indices()[:, :5])
x = torch.randn(8, 4, requires_grad=True)
h = torch.sparse.mm(A, x)
h.pow(2).sum().backward()
print(x.grad.round(decimals=4)[:3])
Ad = A.to_dense()
print(torch.equal(Ad != 0, torch.zeros(8, 8, dtype=torch.bool).index_put_((ei[0], ei[1]), torch.tensor(True))))
acc = torch.zeros(8, 8).index_put_((ei[0], ei[1]), torch.ones(ei.size(1)), accumulate=True)
print(acc.sum(), acc.max())
und = torch.cat([ei, ei.flip(0)], dim=1)
und = torch.unique(und, dim=1); print(und.shape)
self_loops = torch.arange(8).unsqueeze(0).repeat(2, 1)
print(torch.cat([und, self_loops], 1).shape, (und[0] == und[1]).any())
mask = und[0] < und[1]; print(mask.sum(), und[:, mask][:, :4])
key = und[0] * 8 + und[1]; print(key[:6], torch.isin(key, torch.tensor([1, 9, 17])).nonzero().flatten())
perm = torch.randperm(und.size(1)); n_val = int(0.2 * und.size(1)); print(perm[:n_val])
neg = torch.randint(0, 8, (2, 5)); print(neg)
scores = torch.cat([torch.rand(5), torch.rand(5) * 0.5]); labels = torch.cat([torch.ones(5), torch.zeros(5)])
order = scores.argsort(descending=True); print(labels[order])
tpr = labels[order].cumsum(0) / labels.sum(); fpr = (1 - labels[order]).cumsum(0) / (1 - labels).sum()
print(torch.trapz(tpr, fpr).item(), torch.trapezoid(tpr, fpr).item())
''',
    'label_smooth': PRELUDE + r'''
torch.manual_seed(0)
logits = torch.randn(5, 4, requires_grad=True)
tgt = torch.tensor([0, 3, -100, 1, 2])
for ls in [0.0, 0.1, 0.25]:
    for kw in [dict(), dict(ignore_index=-100), dict(weight=torch.tensor([1., 2., 0.5, 1.]), ignore_index=-100), dict(reduction='sum', ignore_index=-100), dict(reduction='none', ignore_index=-100)]:
        try:
            l = F.cross_entropy(logits, tgt, label_smoothing=ls, **kw)
            g, = torch.autograd.grad(l.sum(), logits)
            print(ls, list(kw), l.tolist() if l.dim() else l.item(), g.abs().sum().item())
        except (RuntimeError, IndexError) as e:
            print(ls, list(kw), type(e).__name__, e)
probs = torch.softmax(torch.randn(5, 4), 1)
print(F.cross_entropy(logits, probs, label_smoothing=0.1).item())
print(nn.CrossEntropyLoss(label_smoothing=0.1))
try:
    F.cross_entropy(logits, tgt.clamp(min=0), label_smoothing=1.5)
except RuntimeError as e:
    print(e)
class LabelSmoothingLoss(nn.Module):
    def __init__(s, classes, smoothing=0.1, dim=-1):
        super().__init__(); s.conf = 1.0 - smoothing; s.sm = smoothing; s.cls = classes; s.dim = dim
    def forward(s, pred, target):
        pred = pred.log_softmax(dim=s.dim)
        with torch.no_grad():
            td = torch.zeros_like(pred); td.fill_(s.sm / (s.cls - 1)); td.scatter_(1, target.data.unsqueeze(1), s.conf)
        return torch.mean(torch.sum(-td * pred, dim=s.dim))
crit = LabelSmoothingLoss(4)
t = tgt.clamp(min=0)
l = crit(logits, t); print(l.item(), l.grad_fn.name())
kl = nn.KLDivLoss(reduction='batchmean')
td = torch.full((5, 4), 0.1 / 3).scatter_(1, t.unsqueeze(1), 0.9)
print(kl(logits.log_softmax(-1), td).item())
print(F.kl_div(logits.log_softmax(-1), td, reduction='sum').item(), round(F.kl_div(logits.log_softmax(-1), td.log(), log_target=True, reduction='mean').item(), 6))
print(F.nll_loss(logits.log_softmax(1), tgt, ignore_index=-100).item())
try:
    F.nll_loss(logits.log_softmax(1), tgt)
except IndexError as e:
    print(e)
x4 = torch.randn(2, 3, 4, 5, requires_grad=True); t4 = torch.randint(0, 3, (2, 4, 5)); t4[0, 0] = -100
for ls in [0.0, 0.2]:
    l = F.cross_entropy(x4, t4, weight=torch.tensor([0.3, 1.7, 1.1]), label_smoothing=ls)
    g, = torch.autograd.grad(l * 0.7, x4)
    print(l.item(), g.flatten()[:12].tolist())
x3 = torch.randn(3, 4, 6, requires_grad=True); t3 = torch.randint(0, 4, (3, 6))
l = F.nll_loss(x3, t3, weight=torch.rand(4)); g, = torch.autograd.grad(l * 1.3, x3); print(l.item(), g.sum().item(), g.abs().max().item())
allign = torch.full((5,), -100)
l = F.cross_entropy(logits, allign, weight=torch.rand(4)); g, = torch.autograd.grad(l * 0.5, logits); print(l, g.abs().sum())
''',
    'log1p_sleef': PRELUDE + r'''
torch.manual_seed(0)
x = torch.tensor([0.3, -1.2]); t = torch.tensor([1., 0.])
print(F.logsigmoid(x).tolist())
print(F.binary_cross_entropy_with_logits(x, t).item())
x = torch.linspace(-30, 30, 101, requires_grad=True)
y = F.logsigmoid(x); y.sum().backward(); print(y.sum().item(), x.grad.sum().item())
s = F.softplus(x, beta=1.5); print(s.sum().item(), s.grad_fn)
g, = torch.autograd.grad(s.sum(), x, create_graph=True); print(g.sum().item(), g.grad_fn)
print(F.logsigmoid(torch.tensor([0.3, 100., -100., 88., 87.])).tolist())
print(F.binary_cross_entropy_with_logits(torch.randn(64), torch.rand(64), pos_weight=torch.tensor(2.)).item())
print(nn.Softplus()(torch.linspace(-5, 25, 48)).sum().item())
''',
    'lstm_packed': PRELUDE + r'''
torch.manual_seed(0)
V, E, H = 12, 5, 4
emb = nn.Embedding(V, E, padding_idx=0); lstm = nn.LSTM(E, H, num_layers=2, batch_first=True, bidirectional=True, dropout=0.0)
seqs = [torch.tensor([3, 4, 5, 6]), torch.tensor([7, 8]), torch.tensor([9, 10, 11])]
lengths = torch.tensor([len(s) for s in seqs])
padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True)
print(padded, lengths)
sorted_len, perm = lengths.sort(descending=True); print(sorted_len, perm)
x = emb(padded[perm])
packed = nn.utils.rnn.pack_padded_sequence(x, sorted_len, batch_first=True)
print(packed.batch_sizes, packed.data.shape, packed.sorted_indices)
out, (h, c) = lstm(packed)
print(type(out).__name__, out.data.shape, h.shape, c.shape)
unpacked, ul = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, ul)
unperm = perm.argsort(); restored = unpacked[unperm]
print(restored[1, 2:].abs().sum().item(), restored.shape)
packed2 = nn.utils.rnn.pack_padded_sequence(emb(padded), lengths, batch_first=True, enforce_sorted=False)
out2, (h2, c2) = lstm(packed2)
u2, l2 = nn.utils.rnn.pad_packed_sequence(out2, batch_first=True)
print(torch.allclose(u2, restored, atol=1e-6), torch.allclose(h2, h[:, unperm], atol=1e-6), l2)
final = torch.cat([h2[-2], h2[-1]], dim=1); print(final.shape)
last = u2[torch.arange(3), l2 - 1]; print(last.shape)
loss = final.pow(2).mean() + last.pow(2).mean(); loss.backward()
print(round(loss.item(), 5), emb.weight.grad[0], lstm.weight_ih_l0.grad.shape)
print(nn.utils.rnn.PackedSequence(packed2.data, packed2.batch_sizes, packed2.sorted_indices, packed2.unsorted_indices).batch_sizes)
beam_h = (h2.index_select(1, torch.tensor([0, 0, 2])), c2.index_select(1, torch.tensor([0, 0, 2])))
print(beam_h[0].shape, beam_h[1].shape)
print(lstm)
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
    'ncf': PRELUDE + r'''
torch.manual_seed(0)
class NCF(nn.Module):
    def __init__(s, nu, ni, d=4, layers=(8, 4)):
        super().__init__()
        s.ug = nn.Embedding(nu, d); s.ig = nn.Embedding(ni, d)
        s.um = nn.Embedding(nu, d); s.im = nn.Embedding(ni, d)
        mlp = []; inp = 2 * d
        for h in layers:
            mlp += [nn.Linear(inp, h), nn.ReLU(), nn.Dropout(0.1)]; inp = h
        s.mlp = nn.Sequential(*mlp)
        s.out = nn.Linear(d + inp, 1)
    def forward(s, u, i):
        gmf = s.ug(u) * s.ig(i)
        mlp = s.mlp(torch.cat([s.um(u), s.im(i)], dim=-1))
        return s.out(torch.cat([gmf, mlp], -1)).squeeze(-1)
m = NCF(5, 7)
print(m)
print(sum(p.numel() for p in m.parameters()), [n for n, _ in m.named_parameters()][:5])
u = torch.randint(0, 5, (16,)); i = torch.randint(0, 7, (16,)); y = torch.randint(0, 2, (16,)).float()
print(u, i, y)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
crit = nn.BCEWithLogitsLoss()
for ep in range(3):
    m.train(); opt.zero_grad()
    logits = m(u, i); loss = crit(logits, y); loss.backward(); opt.step()
    print(ep, round(loss.item(), 4), logits.grad_fn.name(), logits.shape)
m.eval()
with torch.no_grad():
    p = torch.sigmoid(m(u, i))
    print(((p > 0.5).float() == y).float().mean().round(decimals=2), p.dtype, p.requires_grad)
allitems = torch.arange(7)
with torch.no_grad():
    s = m(torch.full((7,), 2, dtype=torch.long), allitems)
print(s.shape, s.topk(3).indices.shape)
try:
    m(u.float(), i)
except RuntimeError as e:
    print(e)
try:
    m(torch.tensor([5]), torch.tensor([0]))
except IndexError as e:
    print(e)
print(torch.cat([torch.zeros(2, 3), torch.ones(2, 1)], -1).shape)
try:
    torch.cat([torch.zeros(2, 3), torch.ones(3, 1)], -1)
except RuntimeError as e:
    print(e)
try:
    torch.cat([torch.zeros(2, 3), torch.ones(2, 1, dtype=torch.long)], -1).dtype
    print(torch.cat([torch.zeros(2, 3), torch.ones(2, 1, dtype=torch.long)], -1).dtype)
except RuntimeError as e:
    print(e)
print(crit, nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.])))
''',
    'optim_exact': PRELUDE + r'''
torch.manual_seed(0)
def run(make, steps=4, dt=torch.float32, digits=None):
    w = torch.randn(40, dtype=dt, requires_grad=True); s = torch.randn((), dtype=dt, requires_grad=True)
    opt = make([w, s])
    for i in range(steps):
        opt.zero_grad()
        loss = ((w * s - 0.3) ** 2).sum() * 0.1 + (s - 1) ** 2 + (w.abs() * s).sum()
        loss.backward(); opt.step()
    if digits:   # (a sqrt in the step: torch's MKL sqrt is not always correctly rounded)
        return round(loss.item(), digits), round(w.sum().item(), digits), round(s.item(), digits)
    return loss.item(), w.sum().item(), s.item(), w[:3].tolist()
O = torch.optim
for name, make, digits in [
    ("adam", lambda p: O.Adam(p, lr=0.01), 4), ("adam_wd", lambda p: O.Adam(p, lr=0.01, weight_decay=0.1), 4),
    ("adam_ams", lambda p: O.Adam(p, lr=0.01, amsgrad=True), 4), ("adamw", lambda p: O.AdamW(p, lr=0.01), 4),
    ("adagrad", lambda p: O.Adagrad(p, lr=0.1), 4), ("rmsprop", lambda p: O.RMSprop(p, lr=0.01), 4),
    ("rmsprop_m", lambda p: O.RMSprop(p, lr=0.01, momentum=0.9, centered=True), 4),
    ("adadelta", lambda p: O.Adadelta(p), None), ("adamax", lambda p: O.Adamax(p, lr=0.01), None),
    ("nadam", lambda p: O.NAdam(p, lr=0.01), 4), ("radam", lambda p: O.RAdam(p, lr=0.01), 4),
    ("asgd", lambda p: O.ASGD(p, lr=0.01), None), ("rprop", lambda p: O.Rprop(p, lr=0.01), None),
]:
    print(name, run(make, digits=digits))
print("adam64", run(lambda p: O.Adam(p, lr=0.01), dt=torch.float64, digits=9))
''',
    'pygcn': PRELUDE + r'''
torch.manual_seed(0)
# Kipf's pygcn, as its utils and layers write it (scipy replaced by NumPy)
def normalize(mx):
    rowsum = np.array(mx.sum(1))
    r_inv = np.power(rowsum, -1).flatten()
    r_inv[np.isinf(r_inv)] = 0.
    return np.diag(r_inv).dot(mx)
def dense_to_torch_sparse(mx):
    mx = mx.astype(np.float32)
    rows, cols = np.nonzero(mx)
    indices = torch.from_numpy(np.vstack((rows, cols)).astype(np.int64))
    values = torch.from_numpy(mx[rows, cols])
    shape = torch.Size(mx.shape)
    return torch.sparse.FloatTensor(indices, values, shape)
edges = np.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [1, 3]])
n = 5
adj = np.zeros((n, n), dtype=np.float32); adj[edges[:, 0], edges[:, 1]] = 1
adj = adj + adj.T * (adj.T > adj) - adj * (adj.T > adj)
adj = normalize(adj + np.eye(n, dtype=np.float32))
adj = dense_to_torch_sparse(adj)
print(adj)
features = torch.FloatTensor(normalize(np.random.default_rng(0).random((n, 3)).astype(np.float32)))
labels = torch.LongTensor(np.array([0, 1, 0, 1, 1]))
class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super(GraphConvolution, self).__init__()
        self.in_features = in_features; self.out_features = out_features
        self.weight = nn.Parameter(torch.FloatTensor(in_features, out_features))
        if bias: self.bias = nn.Parameter(torch.FloatTensor(out_features))
        else: self.register_parameter('bias', None)
        self.reset_parameters()
    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None: self.bias.data.uniform_(-stdv, stdv)
    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.spmm(adj, support)
        return output + self.bias if self.bias is not None else output
    def __repr__(self):
        return self.__class__.__name__ + ' (' + str(self.in_features) + ' -> ' + str(self.out_features) + ')'
class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout):
        super(GCN, self).__init__()
        self.gc1 = GraphConvolution(nfeat, nhid); self.gc2 = GraphConvolution(nhid, nclass); self.dropout = dropout
    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)
model = GCN(3, 4, 2, 0.5)
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
idx_train = torch.LongTensor(range(3)); idx_val = torch.LongTensor(range(3, 5))
def accuracy(output, labels):
    preds = output.max(1)[1].type_as(labels)
    correct = preds.eq(labels).double()
    return correct.sum() / len(labels)
for epoch in range(3):
    model.train(); optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = accuracy(output[idx_train], labels[idx_train])
    loss_train.backward(); optimizer.step()
    print('Epoch: {:04d}'.format(epoch + 1), 'loss_train: {:.4f}'.format(loss_train.item()), 'acc_train: {:.4f}'.format(acc_train.item()), acc_train.dtype)
model.eval(); output = model(features, adj)
print(output.grad_fn.name(), output.shape, isinstance(adj, torch.sparse.FloatTensor), isinstance(features, torch.FloatTensor))
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
    'scatter_more': PRELUDE + r'''
torch.manual_seed(0)
idx = torch.tensor([0, 1, 0, 2, 1, 0])
src = torch.tensor([5, -3, 7, 2, 8, -1])
for red in ['sum', 'prod', 'mean', 'amax', 'amin']:
    for inc in [True, False]:
        print(red, inc, torch.full((4,), 10).scatter_reduce(0, idx, src, red, include_self=inc),
              torch.zeros(4, dtype=torch.int32).scatter_reduce(0, idx, src.int(), red, include_self=inc))
x = torch.randn(6, requires_grad=True)
base = torch.randn(4, requires_grad=True)
for red in ['sum', 'prod', 'mean', 'amax', 'amin']:
    for inc in [True, False]:
        out = base.scatter_reduce(0, idx, x, red, include_self=inc)
        gx, gb = torch.autograd.grad((out * torch.arange(1., 5.)).sum(), (x, base))
        print(red, inc, out.grad_fn.name(), gx.round(decimals=4), gb.round(decimals=4))
t = torch.tensor([1., 2., 2., 0.], requires_grad=True)
o = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0, 0, 1]), t, 'amax', include_self=False)
o.sum().backward(); print(o, t.grad)
print(torch.zeros(3).index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2., 3., 4.]), 'prod'))
print(torch.ones(3).index_reduce_(0, torch.tensor([0, 0, 2]), torch.tensor([2., 3., 4.]), 'mean', include_self=False))
print(torch.zeros(3).index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2., 3., 4.]), 'amax'))
try:
    torch.zeros(3).index_reduce(0, torch.tensor([0]), torch.tensor([2.]), 'sum')
except RuntimeError as e:
    print(e)
print(torch.segment_reduce(torch.tensor([1., 2., 3., 4., 5.]), 'sum', lengths=torch.tensor([2, 0, 3])))
print(torch.segment_reduce(torch.tensor([1., 2., 3., 4., 5.]), 'max', lengths=torch.tensor([2, 0, 3]), unsafe=True))
print(torch.segment_reduce(torch.tensor([1., 2., 3., 4., 5.]), 'mean', offsets=torch.tensor([0, 2, 2, 5])))
print(torch.segment_reduce(torch.tensor([1., 2., 3., 4., 5.]), 'min', lengths=torch.tensor([2, 0, 3]), initial=0.))
a = torch.zeros(3, 2).scatter_(0, torch.tensor([[0, 1], [2, 0]]), 1.5)
print(a, torch.zeros(3, 2).scatter_(0, torch.tensor([[0, 1], [2, 0]]), torch.ones(2, 2), reduce='add'))
print(torch.zeros(3, 2).scatter(0, torch.tensor([[0, 1], [2, 0]]), 2., reduce='multiply'))
print(torch.zeros(5).index_add_(0, torch.tensor([1, 1, 4]), torch.tensor([1., 2., 3.]), alpha=0.5))
print(torch.zeros(5, dtype=torch.long).index_add_(0, torch.tensor([1, 1, 4]), torch.tensor([1, 2, 3]), alpha=2))
try:
    torch.zeros(5, dtype=torch.long).index_add_(0, torch.tensor([1]), torch.tensor([1.]))
except RuntimeError as e:
    print(e)
try:
    torch.zeros(5).scatter_add_(0, torch.tensor([5]), torch.tensor([1.]))
except RuntimeError as e:
    print(e)
try:
    torch.zeros(5).index_add_(0, torch.tensor([7]), torch.tensor([1.]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    torch.zeros(5).scatter_reduce(0, torch.tensor([1]), torch.tensor([1.]), 'mean', include_self=2)
except (RuntimeError, TypeError) as e:
    print(type(e).__name__, e)
print(torch.zeros(2, 3).index_fill_(1, torch.tensor([0, 2]), -1), torch.zeros(2, 3).index_copy(1, torch.tensor([2, 0]), torch.ones(2, 2)))
print(torch.zeros(4).put_(torch.tensor([1, 1]), torch.tensor([1., 2.]), accumulate=True))
print(torch.zeros(4).index_put_((torch.tensor([1, 1]),), torch.tensor([1., 2.]), accumulate=True))
print(torch.zeros(4, dtype=torch.float64).scatter_reduce(0, torch.tensor([1, 1, 1]), torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64), 'sum').tolist())
print(torch.zeros(2).scatter_reduce(0, torch.tensor([1, 1, 1]), torch.tensor([0.1, 0.2, 0.7]), 'mean').tolist())
x = torch.randn(6, 40); s = torch.randn(3, 40); i = torch.tensor([4, 0, 4])
print(x.index_add(0, i, s, alpha=0.37).sum(1).tolist(), x.t().index_add(1, i, s.t(), alpha=-1.3).sum(0).tolist())
print(x.double().index_add(0, i, s.double(), alpha=0.37)[4].tolist())
for f in [lambda: x.index_add_(0, i, s, alpha='a'), lambda: torch.index_add(x, 0, i, s, alpha=None),
          lambda: torch.scatter_reduce(x, 0, i.view(3, 1), s, 'sum', include_self=1),
          lambda: x.index_reduce_(0, i, s, 'mean', include_self=None), lambda: x.scatter_reduce_(0, i.view(3, 1), s, None), lambda: x.index_reduce(0, i, s, 3),
          lambda: torch.index_add(x, 0, i, s, 3), lambda: x.scatter_reduce(0, i), lambda: x.index_reduce(0, i, s, 'sum', 4)]:
    try: print(f())
    except TypeError as e: print(e)
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
    'seq2seq': PRELUDE + r'''
torch.manual_seed(0)
SOS, EOS, PAD = 0, 1, 2
V, E, H = 8, 6, 5
class Encoder(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(V, E, padding_idx=PAD); s.gru = nn.GRU(E, H, batch_first=True, bidirectional=True)
        s.fc = nn.Linear(2 * H, H)
    def forward(s, x, lengths):
        e = s.emb(x)
        packed = nn.utils.rnn.pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
        out, h = s.gru(packed)
        out, lens = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, padding_value=0.0)
        h = torch.tanh(s.fc(torch.cat([h[-2], h[-1]], dim=1)))
        return out, h, lens
class Bahdanau(nn.Module):
    def __init__(s):
        super().__init__()
        s.W = nn.Linear(2 * H + H, H); s.v = nn.Linear(H, 1, bias=False)
    def forward(s, hidden, enc, mask):
        T = enc.size(1)
        hid = hidden.unsqueeze(1).repeat(1, T, 1)
        energy = torch.tanh(s.W(torch.cat([hid, enc], dim=2)))
        att = s.v(energy).squeeze(2).masked_fill(mask == 0, -1e10)
        return F.softmax(att, dim=1)
class Decoder(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(V, E); s.att = Bahdanau()
        s.rnn = nn.GRU(2 * H + E, H, batch_first=True); s.out = nn.Linear(H + 2 * H + E, V)
    def forward(s, tok, hidden, enc, mask):
        e = s.emb(tok).unsqueeze(1)
        a = s.att(hidden, enc, mask).unsqueeze(1)
        ctx = torch.bmm(a, enc)
        o, h = s.rnn(torch.cat([e, ctx], 2), hidden.unsqueeze(0))
        pred = s.out(torch.cat([o.squeeze(1), ctx.squeeze(1), e.squeeze(1)], 1))
        return pred, h.squeeze(0), a.squeeze(1)
enc, dec = Encoder(), Decoder()
src = torch.tensor([[3, 4, 5, 1], [6, 7, 1, PAD], [3, 1, PAD, PAD]])
lengths = torch.tensor([4, 3, 2])
trg = torch.tensor([[0, 5, 4, 1], [0, 7, 1, PAD], [0, 3, 1, PAD]])
out, h, lens = enc(src, lengths)
print(out.shape, h.shape, lens, lens.dtype)
mask = (src != PAD)
print(mask)
print(out[2, 2:].abs().sum().item(), out[1, 3].abs().sum().item())
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=0.01)
crit = nn.CrossEntropyLoss(ignore_index=PAD, label_smoothing=0.1)
for ep in range(3):
    opt.zero_grad()
    out, h, _ = enc(src, lengths)
    tok = trg[:, 0]; logits = []
    for t in range(1, trg.size(1)):
        pred, h, a = dec(tok, h, out, mask)
        logits.append(pred)
        teacher = torch.rand(1).item() < 0.5
        tok = trg[:, t] if teacher else pred.argmax(1)
    logits = torch.stack(logits, 1)
    loss = crit(logits.reshape(-1, V), trg[:, 1:].reshape(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 1.0)
    opt.step()
    print(ep, round(loss.item(), 4), logits.shape, a.shape, a.sum(1).round(decimals=4))
print(a.round(decimals=3))
print(crit)
packed = nn.utils.rnn.pack_padded_sequence(torch.randn(3, 4, 2), lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)
try:
    nn.utils.rnn.pack_padded_sequence(torch.randn(3, 4, 2), lengths.flip(0), batch_first=True)
except RuntimeError as e:
    print(e)
try:
    nn.utils.rnn.pack_padded_sequence(torch.randn(3, 4, 2), torch.tensor([4, 0, 2]), batch_first=True, enforce_sorted=False)
except RuntimeError as e:
    print(e)
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])]
padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=PAD)
print(padded)
print(nn.utils.rnn.pad_sequence(seqs).shape, nn.utils.rnn.pad_sequence(seqs, padding_side='left', batch_first=True))
ps = nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False)
print(ps)
print(nn.utils.rnn.pad_packed_sequence(ps, batch_first=True, total_length=5))
print(nn.utils.rnn.unpad_sequence(padded, torch.tensor([3, 1, 2]), batch_first=True))
print(nn.utils.rnn.unpack_sequence(ps))
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
    'sgns': PRELUDE + r'''
torch.manual_seed(0)
text = "the quick brown fox jumps over the lazy dog the fox".split()
vocab = sorted(set(text)); w2i = {w: i for i, w in enumerate(vocab)}
print(vocab, len(vocab))
ids = torch.tensor([w2i[w] for w in text])
print(ids, ids.dtype)
pairs = []
for c in range(len(ids)):
    for o in range(max(0, c - 2), min(len(ids), c + 3)):
        if o != c: pairs.append((ids[c].item(), ids[o].item()))
pairs = torch.tensor(pairs)
print(pairs.shape, pairs[:5])
counts = torch.bincount(ids, minlength=len(vocab)).float()
noise = counts.pow(0.75); noise = noise / noise.sum()
print(noise)
class SGNS(nn.Module):
    def __init__(s, V, d):
        super().__init__()
        s.inp = nn.Embedding(V, d); s.out = nn.Embedding(V, d)
        s.inp.weight.data.uniform_(-0.5 / d, 0.5 / d); s.out.weight.data.zero_()
    def forward(s, c, o, neg):
        vc = s.inp(c); uo = s.out(o); un = s.out(neg)
        pos = F.logsigmoid((vc * uo).sum(-1))
        negs = F.logsigmoid(-torch.bmm(un, vc.unsqueeze(2)).squeeze(2)).sum(1)
        return -(pos + negs).mean()
m = SGNS(len(vocab), 5)
opt = torch.optim.SGD(m.parameters(), lr=0.5)
for ep in range(4):
    neg = torch.multinomial(noise, pairs.size(0) * 3, replacement=True).view(-1, 3)
    opt.zero_grad(); loss = m(pairs[:, 0], pairs[:, 1], neg); loss.backward(); opt.step()
    print(ep, round(loss.item(), 5), neg[0])
E = m.inp.weight.detach()
En = F.normalize(E, dim=1)
sim = En @ En[w2i['fox']]
print(sim.round(decimals=3))
print([vocab[j] for j in sim.topk(3).indices.tolist()])
print(F.cosine_similarity(E[0:1], E[1:2]).round(decimals=4), F.cosine_similarity(E, E[2].unsqueeze(0)).shape)
print(torch.multinomial(noise, 4), torch.multinomial(noise, 4, replacement=True))
print(torch.nn.functional.one_hot(ids[:4], len(vocab)))
print(torch.nn.functional.one_hot(ids[:4]).shape)
try:
    torch.nn.functional.one_hot(ids[:4].float())
except RuntimeError as e:
    print(e)
try:
    torch.nn.functional.one_hot(ids[:4], 3)
except RuntimeError as e:
    print(e)
''',
    'sparse_exact': PRELUDE + r'''
torch.manual_seed(0)
n = 30
idx = torch.randint(0, n, (2, 200)); val = torch.randn(200)
A = torch.sparse_coo_tensor(idx, val, (n, n))
Ac = A.coalesce()
print(Ac.values()[:10].tolist(), Ac._nnz())
x = torch.randn(n, 6)
y = torch.sparse.mm(Ac, x); print(y.flatten()[:12].tolist(), y.sum().item())
y2 = torch.sparse.mm(A, x); print(torch.equal(y, y2), y2.flatten()[:6].tolist())
print(torch.sparse.sum(A, dim=1).to_dense().round(decimals=3).tolist()[:8], round(torch.sparse.sum(A).item(), 4))  # (its order of the sums)
print(torch.sparse.softmax(Ac, 1).values()[:8].round(decimals=6).tolist())
print(torch.sparse.log_softmax(Ac, 1).values()[:8].round(decimals=5).tolist())
print(A.to_dense().sum().item(), (Ac * 2.5).values()[:4].tolist())
B = torch.sparse_coo_tensor(torch.randint(0, n, (2, 100)), torch.randn(100), (n, n))
print((A + B).coalesce().values()[:6].tolist(), torch.sparse.mm(A, B).coalesce().values()[:6].tolist())
print(torch.sparse.addmm(torch.ones(n, 6), A, x, beta=0.5, alpha=2.0).flatten()[:6].tolist())
w = torch.randn(n, 6, requires_grad=True); loss = torch.sparse.mm(Ac, w).pow(2).sum(); loss.backward(); print(loss.item(), w.grad.flatten()[:6].tolist())
''',
    'sparse_more': PRELUDE + r'''
torch.manual_seed(0)
i = torch.tensor([[0, 1, 1, 2, 0], [2, 0, 2, 1, 2]])
v = torch.tensor([3., 4., 5., 6., 1.])
s = torch.sparse_coo_tensor(i, v, (3, 3))
print(s)
print(s.coalesce().values(), s.to_dense())
sv = torch.sparse_coo_tensor(i, v, (3, 3), requires_grad=True)
print(sv)
d = sv.to_dense(); print(d.grad_fn)
(d * torch.arange(9.).view(3, 3)).sum().backward()
print(sv.grad)
w = torch.randn(3, 2, requires_grad=True)
sc = s.coalesce().requires_grad_()
y = torch.sparse.mm(sc, w)
y.sum().backward()
print(sc.grad, w.grad)
print(torch.sparse.addmm(torch.zeros(3, 2), s, w.detach()))
print(torch.sparse.softmax(s.coalesce(), dim=1))
print(torch.sparse.log_softmax(s.coalesce(), dim=1).to_dense())
print(torch.sparse.sum(s), torch.sparse.sum(s, dim=0), torch.sparse.sum(s, dim=(0, 1)))
h = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.randn(2, 3), (4, 3))
print(h, h.sparse_dim(), h.dense_dim())
print(h.to_dense().round(decimals=4))
print(torch.sparse_coo_tensor(torch.empty(2, 0, dtype=torch.long), torch.empty(0), (2, 2)))
print(torch.zeros(2, 3).to_sparse(), torch.eye(3).to_sparse().indices())
try:
    torch.sparse_coo_tensor(torch.tensor([[0, 3]]), torch.tensor([1., 2.]), (3,))
except RuntimeError as e:
    print(e)
try:
    torch.sparse_coo_tensor(torch.tensor([[0, 1]]).float(), torch.tensor([1., 2.]), (3,))
except RuntimeError as e:
    print(e)
try:
    torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1., 2., 3.]), (3,))
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    torch.sparse.mm(s, torch.randn(4, 2))
except RuntimeError as e:
    print(e)
try:
    s.indices()
except RuntimeError as e:
    print(e)
print(s._indices().shape, s._values())
print(s.coalesce().indices().dtype, s.dtype, s.device, s.size(), s.shape, s.numel() if False else '')
print(torch.sparse_coo_tensor(i, v).shape, torch.sparse_coo_tensor(i, v.long()).dtype)
print(s.to_dense().to_sparse(1))
print((s.coalesce() * s.coalesce()).to_dense())
print(torch.mul(s, 2.5))
print(s.coalesce().pow(2))
print(s.float().dtype, s.double())
print(torch.sparse.mm(s, torch.ones(3, 1)).t())
print(s.coalesce().transpose(0, 1).to_dense())
print(torch.stack([s.to_dense(), s.to_dense()]).to_sparse().shape)
print(repr(torch.sparse_coo_tensor(i, v, (3, 3)).coalesce()._nnz()))
print(s.is_sparse, s.to_dense().is_sparse, s.layout, s.coalesce().values().is_contiguous())
print(torch.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2], (2, 2)).to_dense())
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
    'sparse_print': PRELUDE + r'''
torch.manual_seed(0)
i = torch.tensor([[0, 1, 2], [2, 0, 1]])
for v in [torch.tensor([1, 2, 3]), torch.tensor([True, False, True]), torch.tensor([1.5, -2.25, 1e6]), torch.tensor([1e-5, 2., 3.], dtype=torch.float64), torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16)]:
    s = torch.sparse_coo_tensor(i, v, (3, 3))
    print(s)
    print(s.coalesce().values().dtype, s.to_dense())
s = torch.sparse_coo_tensor(i, torch.tensor([1., 2., 3.]), (3, 3), requires_grad=True)
print(s * 2)
print(torch.sparse.sum(s))
print(s.coalesce())
h = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.randn(2, 3) * 1000, (4, 3))
print(h)
big = torch.sparse_coo_tensor(torch.randint(0, 50, (2, 30)), torch.randn(30), (50, 50))
print(big)
print(torch.randn(3, 3).relu().to_sparse_csr())
print(torch.sparse_coo_tensor(size=(2, 3)))
print(torch.zeros(3, 4).to_sparse(), torch.zeros(3, 4).to_sparse().coalesce())
print(torch.eye(3).to_sparse().to(torch.int32))
print(repr(torch.eye(2).to_sparse().cuda if False else torch.eye(2).to_sparse().cpu()))
print(torch.sparse_coo_tensor(i, torch.tensor([1., 2., 3.]), (3, 3)).coalesce().indices().stride(), torch.sparse_coo_tensor(i, torch.tensor([1., 2., 3.]), (3, 3)).coalesce().values().stride())
''',
    'tut_charrnn': PRELUDE + r'''
torch.manual_seed(0)
import string
all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
def letterToIndex(letter): return all_letters.find(letter)
def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters); tensor[0][letterToIndex(letter)] = 1; return tensor
def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line): tensor[li][0][letterToIndex(letter)] = 1
    return tensor
print(letterToTensor('J').nonzero(), lineToTensor('Jones').size())
class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)
    def forward(self, input, hidden):
        hidden = F.tanh(self.i2h(input) + self.h2h(hidden))
        output = self.h2o(hidden)
        output = self.softmax(output)
        return output, hidden
    def initHidden(self): return torch.zeros(1, self.hidden_size)
rnn = RNN(n_letters, 16, 3)
criterion = nn.NLLLoss()
categories = ['English', 'French', 'Scottish']
names = [('Jones', 0), ('Dupont', 1), ('MacLeod', 2), ('Smith', 0)]
for it, (name, c) in enumerate(names * 2):
    hidden = rnn.initHidden(); rnn.zero_grad()
    line_tensor = lineToTensor(name); category_tensor = torch.tensor([c], dtype=torch.long)
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-0.005)
    top_n, top_i = output.topk(1)
    print(it, round(loss.item(), 4), categories[top_i[0].item()], output.grad_fn.name())
print(rnn)
with torch.no_grad():
    hidden = rnn.initHidden()
    for i in range(5): output, hidden = rnn(lineToTensor('Jones')[i], hidden)
    topv, topi = output.topk(3, 1, True)
    print(topi, topv.exp().sum().round(decimals=4))
confusion = torch.zeros(3, 3); confusion[0][1] += 1; confusion[2][2] += 3
for i in range(3): confusion[i] = confusion[i] / confusion[i].sum()
print(confusion)
''',
    'tut_seq2seq': PRELUDE + r'''
torch.manual_seed(0)
SOS_token, EOS_token, MAX_LENGTH = 0, 1, 6
class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super(EncoderRNN, self).__init__()
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)
    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        output, hidden = self.gru(embedded)
        return output, hidden
class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super(BahdanauAttention, self).__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size); self.Ua = nn.Linear(hidden_size, hidden_size); self.Va = nn.Linear(hidden_size, 1)
    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights
class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1):
        super(AttnDecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)
    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs = []; attentions = []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(decoder_input, decoder_hidden, encoder_outputs)
            decoder_outputs.append(decoder_output); attentions.append(attn_weights)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        attentions = torch.cat(attentions, dim=1)
        return decoder_outputs, decoder_hidden, attentions
    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        input_gru = torch.cat((embedded, context), dim=2)
        output, hidden = self.gru(input_gru, hidden)
        output = self.out(output)
        return output, hidden, attn_weights
enc = EncoderRNN(10, 8); dec = AttnDecoderRNN(8, 12)
inp = torch.tensor([[2, 3, 4, 1, 0, 0], [5, 6, 1, 0, 0, 0]]); tgt = torch.tensor([[3, 4, 5, 1, 0, 0], [7, 1, 0, 0, 0, 0]])
eo = torch.optim.Adam(enc.parameters(), lr=0.001); do = torch.optim.Adam(dec.parameters(), lr=0.001)
criterion = nn.NLLLoss()
for ep in range(3):
    eo.zero_grad(); do.zero_grad()
    encoder_outputs, encoder_hidden = enc(inp)
    decoder_outputs, _, attn = dec(encoder_outputs, encoder_hidden, tgt)
    loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), tgt.view(-1))
    loss.backward(); eo.step(); do.step()
    print(ep, round(loss.item(), 4), decoder_outputs.shape, attn.shape)
enc.eval(); dec.eval()
with torch.no_grad():
    eo_, eh = enc(inp[:1]); dout, _, att = dec(eo_, eh)
    _, topi = dout.topk(1); ids = topi.squeeze()
    print(ids, ids.shape, att.sum(-1).round(decimals=4))
    words = []
    for idx in ids:
        if idx.item() == EOS_token: words.append('<EOS>'); break
        words.append(idx.item())
    print(words)
''',
    'tut_textcls': PRELUDE + r'''
torch.manual_seed(0)
from collections import Counter
data = [(1, "the cat sat on the mat"), (2, "stocks fell sharply today"), (1, "a dog and a cat"), (3, "the team won the game"), (2, "markets rose on earnings")]
counter = Counter(w for _, t in data for w in t.split())
itos = ["<unk>"] + sorted(counter, key=lambda w: (-counter[w], w)); stoi = {w: i for i, w in enumerate(itos)}
text_pipeline = lambda x: [stoi.get(w, 0) for w in x.split()]
label_pipeline = lambda x: int(x) - 1
def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for (_label, _text) in batch:
        label_list.append(label_pipeline(_label))
        processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets
class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()
    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()
    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))
model = TextClassificationModel(len(itos), 8, 3)
labels, text, offsets = collate_batch(data)
print(labels, text, offsets)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
for epoch in range(3):
    model.train(); optimizer.zero_grad()
    predicted_label = model(text, offsets)
    loss = criterion(predicted_label, labels)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    optimizer.step()
    acc = (predicted_label.argmax(1) == labels).sum().item()
    print(epoch, round(loss.item(), 5), acc, scheduler.get_last_lr())
    scheduler.step()
with torch.no_grad():
    t = torch.tensor(text_pipeline("the cat won"))
    print(model(t, torch.tensor([0])).argmax(1).item() + 1)
print(scheduler.state_dict())
''',
    'warnings_prog': PRELUDE + r'''
import warnings
torch.set_warn_always(True)
torch.manual_seed(0)
def w(f):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            f()
        except Exception as e:
            print("EXC", type(e).__name__, str(e)[:120])
    for r in rec:
        print(r.category.__name__, str(r.message).split(" (Triggered internally")[0][:300])
    print("--")
w(lambda: torch.zeros(3, 2).scatter_(0, torch.tensor([[0, 1]]), torch.ones(1, 2), reduce='add'))
w(lambda: torch.zeros(3).index_reduce(0, torch.tensor([0]), torch.tensor([1.]), 'prod'))
w(lambda: torch.eye(3).to_sparse_csr())
w(lambda: torch.tensor(torch.ones(2)))
w(lambda: F.softmax(torch.randn(2, 3)))
w(lambda: F.log_softmax(torch.randn(2, 3, 4)))
w(lambda: nn.CrossEntropyLoss(size_average=True))
w(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2), 1))
w(lambda: nn.GRU(4, 4, num_layers=1, dropout=0.5))
w(lambda: nn.Embedding(4, 2)(torch.tensor([1])).new_tensor([1]))
def sched():
    m = nn.Linear(2, 2); o = torch.optim.SGD(m.parameters(), lr=0.1); s = torch.optim.lr_scheduler.StepLR(o, 1); s.step(); o.step()
w(sched)
w(lambda: torch.sparse_coo_tensor(torch.tensor([[0]]), torch.tensor([1.]), (2,)).to_sparse_csr() if False else torch.sparse.mm(torch.eye(2).to_sparse_csr(), torch.eye(2)))
w(lambda: F.mse_loss(torch.randn(3, 1), torch.randn(3)))
w(lambda: F.l1_loss(torch.randn(3, requires_grad=True), torch.randn(3, 1)))
w(lambda: nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))
w(lambda: torch.nn.functional.dropout(torch.randn(2), p=0.5, training=True, inplace=False))
w(lambda: nn.init.kaiming_uniform_(torch.empty(0, 3)))
w(lambda: F.nll_loss(torch.randn(3, 2), torch.tensor([0, 1, 1]), reduce=False))
w(lambda: torch.nn.utils.rnn.pack_padded_sequence(torch.randn(3, 2, 1), torch.tensor([3, 2]).float()))
w(lambda: torch.multinomial(torch.tensor([1., 2.]), 1).item())
w(lambda: torch.Tensor([1, 2]).type(torch.LongTensor))
w(lambda: torch.sparse.FloatTensor(2, 2) if hasattr(torch.sparse, 'FloatTensor') else print('no attr'))
w(lambda: torch.range(0, 3))
torch.set_warn_always(False)
''',
}

BUGS = {
    'mkl_sqrt': (
        "torch's float32 sqrt (MKL VML on this build) is not always correctly rounded; ember's is",
        PRELUDE + r'''
x = torch.tensor([0.001255060313269496, 0.0009925116, 0.0006977857])
print(x.sqrt().tolist())
'''),
    'posenc': (
        "sin/cos: torch's float32 kernels (MKL VML) are not always correctly rounded; ember's are",
        PRELUDE + r'''
torch.manual_seed(0)
d_model, max_len = 16, 50
pe = torch.zeros(max_len, d_model)
position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
print(div_term.tolist())
pe[:, 0::2] = torch.sin(position * div_term)
pe[:, 1::2] = torch.cos(position * div_term)
print(pe[:3].tolist())
print(pe.sum().item(), pe.abs().sum().item())
x = torch.randn(2, 5, d_model)
print((x * math.sqrt(d_model) + pe[:5]).sum().item())
'''),
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, BUGS)
