"""Longer programs of the kind tutorials and blog posts show (a model printed and counted, a
training loop over a DataLoader, schedulers, custom autograd Functions, hooks, saving and loading,
sequence models, transformers, printing), run under real torch and under ember
(`import ember as torch`): what they print, including an exception's type and text, must be
identical. Each program seeds torch's generator, which ember reproduces (randn, rand, randint,
randperm, dropout masks, init), so printed values agree to printing precision. Programs bind
`nn = torch.nn` and the like themselves: `torch` is the module under test.
"""
import pytest

torch = pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]


PROGRAMS = {
    'mlp_print': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)

class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out, p=0.1):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.act = nn.ReLU()
        self.drop = nn.Dropout(p)
        self.fc2 = nn.Linear(d_hidden, d_out, bias=False)
        self.norm = nn.LayerNorm(d_hidden)
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, x):
        h = self.drop(self.act(self.norm(self.fc1(x))))
        return self.fc2(h) * self.scale

model = MLP(4, 8, 3)
print(model)
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("total", total, "trainable", trainable)
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.dtype, p.requires_grad)
for name, b in model.named_buffers():
    print(name, b)
print(list(model.state_dict().keys()))
x = torch.randn(5, 4)
model.train()
y1 = model(x)
print(y1)
model.eval()
y2 = model(x)
print(y2.shape, round(y2.sum().item(), 4))
print([type(m).__name__ for m in model.modules()])
print([n for n, _ in model.named_children()])
print(model.fc1.weight[:2])
print(model.training, model.fc1.training)
''',
    'train_loop': r'''\
nn = torch.nn
data = torch.utils.data
torch.manual_seed(42)
N = 200
X = torch.randn(N, 2)
y = ((X[:, 0] * X[:, 1]) > 0).long()
ds = data.TensorDataset(X, y)
train_ds, val_ds = data.random_split(ds, [160, 40])
print(len(train_ds), len(val_ds), train_ds.indices[:8])
train_dl = data.DataLoader(train_ds, batch_size=32, shuffle=True)
val_dl = data.DataLoader(val_ds, batch_size=16)
print(len(train_dl), len(val_dl))
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(5):
    model.train()
    total = 0.0
    for xb, yb in train_dl:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * xb.size(0)
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_dl:
            pred = model(xb).argmax(dim=1)
            correct += (pred == yb).sum().item()
    print(epoch, round(total / len(train_ds), 4), correct, correct / len(val_ds))
xb, yb = next(iter(val_dl))
print(xb.shape, yb.dtype, yb[:5])
with torch.no_grad():
    out = model(xb)
print(out.softmax(-1)[:3])
print(out.argmax(1).eq(yb).float().mean())
''',
    'custom_dataset': r'''\
data = torch.utils.data
torch.manual_seed(1)

class Seqs(data.Dataset):
    def __init__(self, n):
        self.lengths = torch.randint(1, 6, (n,)).tolist()
        self.items = [torch.randint(1, 20, (L,)) for L in self.lengths]
        self.labels = torch.randint(0, 3, (n,))
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return {"ids": self.items[i], "label": self.labels[i], "idx": i}

def collate(batch):
    lengths = torch.tensor([len(b["ids"]) for b in batch])
    padded = torch.nn.utils.rnn.pad_sequence([b["ids"] for b in batch], batch_first=True)
    labels = torch.stack([b["label"] for b in batch])
    return padded, lengths, labels

ds = Seqs(10)
print(len(ds), ds[0])
dl = data.DataLoader(ds, batch_size=4, collate_fn=collate)
for padded, lengths, labels in dl:
    print(padded)
    print(lengths, labels)
class Fixed(data.Dataset):
    def __len__(self):
        return 7
    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "y": i % 2, "name": f"s{i}"}
dl2 = data.DataLoader(Fixed(), batch_size=3, drop_last=True)
for b in dl2:
    print(sorted(b.keys()), b["x"], b["y"], b["name"])
print(len(dl2))
g = torch.Generator().manual_seed(7)
dl3 = data.DataLoader(ds, batch_size=5, shuffle=True, generator=g,
                      collate_fn=lambda b: [x["idx"] for x in b])
print(list(dl3))
print(list(data.BatchSampler(data.SequentialSampler(range(7)), 3, False)))
sub = data.Subset(ds, [1, 3, 5])
print(len(sub), sub[1]["idx"])
cat = data.ConcatDataset([sub, sub])
print(len(cat), cat[4]["idx"], cat.cumulative_sizes)
''',
    'schedulers': r'''\
nn = torch.nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
def fresh(lr=0.1, cls=torch.optim.SGD, **kw):
    return cls(model.parameters(), lr=lr, **kw)
opt = fresh(momentum=0.9)
s = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
out = []
for e in range(6):
    opt.step(); s.step(); out.append(round(s.get_last_lr()[0], 6))
print("step", out)
opt = fresh()
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
out = []
for e in range(10):
    out.append([round(v, 5) for v in s.get_last_lr()]); opt.step(); s.step() if e < 9 else None
print("onecycle", out)
print(round(opt.param_groups[0]["momentum"], 5))
opt = fresh()
s = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
out = []
for e in range(10):
    opt.step(); s.step(); out.append(round(s.get_last_lr()[0], 5))
print("cawr", out)
opt = fresh(lr=1.0)
s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
out = []
for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]:
    opt.step(); s.step(loss); out.append(opt.param_groups[0]["lr"])
print("plateau", out)
opt = fresh(lr=0.1)
s = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)
out = []
for e in range(6):
    opt.step(); s.step(); out.append(round(s.get_last_lr()[0], 6))
print("multistep", out)
opt = fresh(lr=0.1)
s = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 1 / (e + 1))
for e in range(3):
    opt.step(); s.step()
print("lambda", s.get_last_lr(), s.last_epoch)
opt = fresh(lr=0.1)
w = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4)
c = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5)
s = torch.optim.lr_scheduler.SequentialLR(opt, [w, c], milestones=[4])
out = []
for e in range(9):
    opt.step(); s.step(); out.append(round(s.get_last_lr()[0], 5))
print("seq", out)
print(sorted(k for k in s.state_dict().keys()))
''',
    'autograd_fn': r'''\
torch.manual_seed(3)

class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        mask = (x >= ctx.lo) & (x <= ctx.hi)
        return g * mask, None, None

x = torch.randn(4, dtype=torch.double, requires_grad=True)
y = MyExp.apply(x)
print(y.grad_fn is not None, type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
print(torch.autograd.gradcheck(MyExp.apply, (x,)))
z = Clamp.apply(x, -0.5, 0.5)
print(z)
g, = torch.autograd.grad(z.sum(), x)
print(g)
x2 = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: MyExp.apply(t).sum(1), (x2,), eps=1e-6, atol=1e-4))
print(torch.autograd.gradgradcheck(lambda t: (t ** 3).sum(), (x2,)))
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = Square.apply(a)
(b * torch.tensor([1.0, 0.5, 0.25])).sum().backward()
print(a.grad)
with torch.no_grad():
    print(Square.apply(a).requires_grad)
''',
    'init_tying': r'''\
nn = torch.nn
torch.manual_seed(0)
class TiedLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.out.weight = self.emb.weight
    def forward(self, ids):
        return self.out(torch.tanh(self.proj(self.emb(ids))))
m = TiedLM(10, 4)
print(m.out.weight is m.emb.weight)
print(sum(p.numel() for p in m.parameters()))
print(len(list(m.parameters())), len(m.state_dict()))
print([n for n, _ in m.named_parameters()])
def init_weights(mod):
    if isinstance(mod, nn.Linear):
        nn.init.xavier_uniform_(mod.weight)
        if mod.bias is not None:
            nn.init.zeros_(mod.bias)
    elif isinstance(mod, nn.Embedding):
        nn.init.normal_(mod.weight, mean=0.0, std=0.02)
m.apply(init_weights)
print(m.emb.weight[:2])
print(m.proj.bias)
w = torch.empty(3, 5)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(w)
nn.init.orthogonal_(w)
print((w @ w.t() - torch.eye(3)).abs().max() < 1e-5, w.shape)
nn.init.constant_(w, 0.3)
print(w.sum())
nn.init.trunc_normal_(w, std=0.5, a=-0.5, b=0.5)
print(w.abs().max() <= 0.5)
print(round(nn.init.calculate_gain("leaky_relu", 0.2), 6), nn.init.calculate_gain("tanh"))
ids = torch.tensor([[1, 2, 3], [4, 5, 6]])
out = m(ids)
out.sum().backward()
print(m.emb.weight.grad[:3])
print(out.shape)
''',
    'freeze_clip': r'''\
nn = torch.nn
torch.manual_seed(5)
backbone = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU())
head = nn.Linear(8, 3)
model = nn.Sequential(backbone, head)
print(model)
backbone.requires_grad_(False)
params = [p for p in model.parameters() if p.requires_grad]
print(len(params), sum(p.numel() for p in params))
opt = torch.optim.Adam(params, lr=1e-2)
x = torch.randn(16, 6)
y = torch.randint(0, 3, (16,))
before = backbone[0].weight.clone()
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(head.parameters(), max_norm=0.1)
    print(step, round(loss.item(), 4), round(norm.item(), 4))
    opt.step()
print(torch.equal(before, backbone[0].weight), backbone[0].weight.grad)
print(head.weight.grad.norm())
nn.utils.clip_grad_value_(head.parameters(), 0.01)
print(head.weight.grad.abs().max())
sd = opt.state_dict()
print(sd["param_groups"])
print(sorted(sd["state"].keys()), sorted(sd["state"][0].keys()))
print(sd["state"][0]["step"], sd["state"][1]["exp_avg"])
for name, p in model.named_parameters():
    print(name, p.requires_grad, p.grad is None)
vec = nn.utils.parameters_to_vector(head.parameters())
print(vec.shape, round(vec.sum().item(), 4))
''',
    'save_load': r'''\
import io
nn = torch.nn
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 3))
x = torch.randn(4, 1, 6, 6)
model(x)
sd = model.state_dict()
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype)
print(sd["1.running_mean"], sd["1.num_batches_tracked"])
buf = io.BytesIO()
torch.save({"model": sd, "epoch": 3, "note": "hi"}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck["epoch"], ck["note"], type(ck["model"]).__name__)
model2 = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 3))
res = model2.load_state_dict(ck["model"])
print(res)
model.eval(); model2.eval()
print(torch.allclose(model(x), model2(x)))
bad = {k: v for k, v in sd.items() if not k.startswith("4.")}
print(model2.load_state_dict(bad, strict=False))
try:
    model2.load_state_dict(bad)
except RuntimeError as e:
    print(str(e).splitlines()[0])
sd2 = dict(sd)
sd2["4.weight"] = torch.zeros(3, 5)
try:
    model2.load_state_dict(sd2)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())
buf2 = io.BytesIO()
t = torch.arange(10.)
torch.save([t[2:5], t], buf2)
buf2.seek(0)
a, b = torch.load(buf2)
a[0] = 100
print(a, b)
''',
    'lstm_packed': r'''\
nn = torch.nn
rnn = torch.nn.utils.rnn
torch.manual_seed(0)
class SeqClassifier(nn.Module):
    def __init__(self, vocab, emb, hid, n_cls):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hid, n_cls)
    def forward(self, ids, lengths):
        e = self.emb(ids)
        packed = rnn.pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        unpacked, lens = rnn.pad_packed_sequence(out, batch_first=True)
        feat = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(feat), unpacked, lens
m = SeqClassifier(20, 5, 4, 2)
print(m)
ids = torch.tensor([[3, 4, 5, 0], [6, 7, 0, 0], [1, 2, 3, 4]])
lengths = torch.tensor([3, 2, 4])
logits, unpacked, lens = m(ids, lengths)
print(logits)
print(unpacked.shape, lens)
print(unpacked[1])
packed = rnn.pack_padded_sequence(ids, lengths, batch_first=True, enforce_sorted=False)
print(packed.data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
loss = nn.functional.cross_entropy(logits, torch.tensor([0, 1, 1]))
loss.backward()
print(round(loss.item(), 4))
print(m.lstm.weight_hh_l0.grad.shape, m.emb.weight.grad[0])
print([n for n, _ in m.lstm.named_parameters()])
gru = nn.GRU(3, 2, num_layers=2)
x = torch.randn(5, 1, 3)
o, h = gru(x)
print(o[-1], h)
''',
    'embbag_text': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
class TextCls(nn.Module):
    def __init__(self, vocab, dim, ncls):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.fc = nn.Linear(dim, ncls)
    def forward(self, ids):
        mask = (ids != 0).unsqueeze(-1).float()
        e = self.emb(ids) * mask
        pooled = e.sum(1) / mask.sum(1).clamp(min=1)
        return self.fc(pooled)
vocab = 30
X = torch.randint(1, vocab, (64, 7))
X[:, 5:] = 0
y = (X[:, 0] > 15).long()
m = TextCls(vocab, 8, 2)
opt = torch.optim.AdamW(m.parameters(), lr=0.05, weight_decay=0.01)
for epoch in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(m(X), y)
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        print(epoch, round(loss.item(), 4))
with torch.no_grad():
    acc = (m(X).argmax(-1) == y).float().mean().item()
print(round(acc, 4))
print(m.emb.weight[0])
bag = nn.EmbeddingBag(vocab, 3, mode="mean")
offsets = torch.tensor([0, 3])
print(bag(torch.tensor([1, 2, 3, 4, 5]), offsets))
print(F.one_hot(torch.tensor([0, 2, 1]), 4))
print(F.embedding(torch.tensor([[0, 1]]), torch.arange(6.).view(3, 2)))
''',
    'transformer': r'''\
nn = torch.nn
torch.manual_seed(0)
d_model, nhead, L, B = 8, 2, 5, 3
layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print(enc)
print(sum(p.numel() for p in enc.parameters()))
x = torch.randn(B, L, d_model)
causal = nn.Transformer.generate_square_subsequent_mask(L)
print(causal)
pad = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
enc.eval()
with torch.no_grad():
    out = enc(x, mask=causal, src_key_padding_mask=pad)
print(out.shape)
print(out[0, :2])
print(out[1].sum(-1).abs().max() < 1e-5, out[1].std(-1, unbiased=False))
mha = nn.MultiheadAttention(d_model, nhead, batch_first=True)
o, w = mha(x, x, x, key_padding_mask=pad)
print(o.shape, w.shape)
print(w[1])
o2, w2 = mha(x, x, x, need_weights=True, average_attn_weights=False)
print(w2.shape, round(w2.sum().item(), 3))
q = torch.randn(2, 2, 4, 3)
attn = nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)
print(attn[0, 0])
pe = torch.zeros(L, d_model)
pos = torch.arange(L, dtype=torch.float).unsqueeze(1)
div = torch.exp(torch.arange(0, d_model, 2).float() * (-torch.log(torch.tensor(10000.0)) / d_model))
pe[:, 0::2] = torch.sin(pos * div)
pe[:, 1::2] = torch.cos(pos * div)
print(pe)
''',
    'hooks_gradcam': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(4, 6, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(6, 5)
    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))
net = Net()
acts, grads = {}, {}
def fwd_hook(mod, inp, out):
    acts["v"] = out.detach()
    print("fwd", type(mod).__name__, tuple(inp[0].shape), tuple(out.shape))
def bwd_hook(mod, gin, gout):
    grads["v"] = gout[0].detach()
    print("bwd", len(gin), len(gout), tuple(gout[0].shape))
target = net.features[3]
h1 = target.register_forward_hook(fwd_hook)
h2 = target.register_full_backward_hook(bwd_hook)
x = torch.randn(1, 3, 8, 8)
logits = net(x)
cls = logits.argmax(1).item()
print(cls, logits)
logits[0, cls].backward()
weights = grads["v"].mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * acts["v"]).sum(1))
cam = cam / cam.max()
print(cam.shape)
print(cam)
up = F.interpolate(cam.unsqueeze(1), size=(8, 8), mode="bilinear", align_corners=False)
print(up[0, 0, :2])
h1.remove(); h2.remove()
net(x)
pre = net.fc.register_forward_pre_hook(lambda m, a: (a[0] * 0,))
print(net(x))
pre.remove()
t = torch.ones(3, requires_grad=True)
t.register_hook(lambda g: g * 10)
(t * 2).sum().backward()
print(t.grad)
''',
    'gather_scatter_loss': r'''\
F = torch.nn.functional
torch.manual_seed(0)
logits = torch.randn(4, 5, requires_grad=True)
target = torch.tensor([1, 0, 4, 2])
logp = logits.log_softmax(-1)
nll = -logp.gather(1, target.unsqueeze(1)).squeeze(1)
print(nll)
print(torch.allclose(nll.mean(), F.cross_entropy(logits, target)))
mask = torch.tensor([True, False, True, True])
loss = torch.where(mask, nll, torch.zeros_like(nll)).sum() / mask.sum()
loss.backward()
print(round(loss.item(), 4))
print(logits.grad)
scores = torch.randn(2, 6)
m = torch.tensor([[1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 0]]).bool()
print(scores.masked_fill(~m, float("-inf")).softmax(-1))
oh = torch.zeros(4, 5).scatter_(1, target.unsqueeze(1), 1.0)
print(oh)
smooth = oh * 0.9 + 0.1 / 5
print(smooth)
agg = torch.zeros(3).scatter_add_(0, torch.tensor([0, 1, 0, 2, 1]), torch.tensor([1., 2., 3., 4., 5.]))
print(agg)
print(torch.zeros(2, 3).scatter_reduce(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), torch.tensor([[1., 5., 2.], [3., 4., 6.]]), reduce="amax", include_self=False))
idx = torch.topk(scores, k=2, dim=1)
print(idx.values, idx.indices)
print(scores.index_select(1, torch.tensor([0, 5])))
print(torch.take_along_dim(scores, idx.indices, dim=1))
focal_p = logp.exp().gather(1, target[:, None]).squeeze(1)
focal = (-(1 - focal_p) ** 2 * torch.log(focal_p)).mean()
print(focal)
print(F.nll_loss(logp, target, reduction="none"))
''',
    'einsum_broadcast': r'''\
torch.manual_seed(0)
a = torch.randn(2, 3, 4)
b = torch.randn(2, 4, 5)
print(torch.allclose(torch.einsum("bij,bjk->bik", a, b), a @ b))
print(torch.einsum("bij->bj", a))
print(torch.einsum("ii->i", torch.arange(9.).view(3, 3)))
print(torch.einsum("i,j->ij", torch.arange(3.), torch.arange(4.)))
print(torch.einsum("bhqd,bhkd->bhqk", torch.ones(1, 2, 3, 4), torch.ones(1, 2, 5, 4)).shape)
x = torch.randn(5, 3)
d = torch.cdist(x, x)
d2 = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1).sqrt()
print(torch.allclose(d, d2, atol=1e-5))
print(d.round(decimals=3))
mu = x.mean(0, keepdim=True)
sd = x.std(0, keepdim=True)
z = (x - mu) / sd
print(z.mean(0).abs().max() < 1e-6, z.std(0))
print(torch.arange(3)[:, None] + torch.arange(4))
print((torch.arange(6).view(2, 3, 1) * torch.arange(2)).shape)
print(torch.broadcast_tensors(torch.ones(3, 1), torch.zeros(1, 2))[0])
print(torch.broadcast_shapes((3, 1), (1, 4), (4,)))
try:
    torch.ones(2, 3) + torch.ones(3, 2)
except RuntimeError as e:
    print(e)
print(torch.outer(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
print(torch.tril(torch.ones(3, 3)).cumsum(0))
eye = torch.eye(3, dtype=torch.bool)
print(x[:3, :3].masked_fill(eye, 0))
print(torch.bmm(a, b).shape, torch.matmul(a[0], b).shape)
print(torch.einsum("ij,ij->", x, x), (x * x).sum())
''',
    'printing': r'''\
torch.manual_seed(0)
print(torch.randn(3, 4, dtype=torch.float64))
print(torch.randint(-100, 100, (3, 5), dtype=torch.int32))
print(torch.rand(2, 3) > 0.5)
print(torch.randn(2, 2).half())
print(torch.randn(2, 2).bfloat16())
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([0.1, 123456.0]))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]))
print(torch.arange(2000.))
print(torch.randn(100, 100))
print(torch.arange(24).view(2, 3, 4))
print(torch.zeros(0, 3), torch.tensor([]), torch.tensor(3.5), torch.tensor(True))
print(torch.randn(2, 3, dtype=torch.complex64))
torch.set_printoptions(precision=2)
print(torch.randn(3))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 250.0]))
torch.set_printoptions(sci_mode=False, threshold=5, edgeitems=1)
print(torch.arange(10))
print(torch.arange(12.).view(3, 4))
torch.set_printoptions(linewidth=30)
print(torch.arange(20.))
torch.set_printoptions(profile="default")
print(torch.arange(10) / 3)
print(repr(torch.ones(2, requires_grad=True)), str(torch.ones(1, dtype=torch.int8)))
print(torch.ones(2, 2).shape, torch.ones(2, 2).size(1), torch.Size([2, 3]).numel())
x = torch.randn(3, 3)
print(f"{x.mean().item():.4f}", x.dtype, x.device, x.layout)
print(torch.tensor([1., -0., 2.]), torch.tensor([[1., -0.], [-0., 1.]]))
print(torch.tensor([100000.0, 1.0]), torch.tensor([1e-5, 1.0]))
print(torch.tensor([12345678.0, 0.5]))
print(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([True, False]).int())
''',
    'cnn_bn': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
class SmallCNN(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, 3, stride=2, padding=1)
        self.drop = nn.Dropout2d(0.2)
        self.head = nn.Linear(8 * 4 * 4, n_cls)
    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.max_pool2d(x, 2)
        x = self.drop(F.relu(self.conv2(x)))
        return self.head(torch.flatten(x, 1))
model = SmallCNN()
print(model)
X = torch.randn(32, 1, 16, 16)
Y = torch.randint(0, 3, (32,))
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3, alpha=0.9)
for epoch in range(3):
    model.train()
    for i in range(0, 32, 8):
        opt.zero_grad()
        loss = F.cross_entropy(model(X[i:i + 8]), Y[i:i + 8], label_smoothing=0.1)
        loss.backward()
        opt.step()
    print(epoch, round(loss.item(), 4))
print(model.bn1.running_mean, model.bn1.running_var, model.bn1.num_batches_tracked)
model.eval()
with torch.no_grad():
    logits = model(X)
    probs = logits.softmax(1)
    conf, pred = probs.max(1)
print(pred, (pred == Y).sum().item())
print(conf[:4])
cm = torch.zeros(3, 3, dtype=torch.long)
for t, p in zip(Y, pred):
    cm[t, p] += 1
print(cm)
print(torch.bincount(Y * 3 + pred, minlength=9).view(3, 3))
print(opt.state_dict()["state"][0]["square_avg"][0, 0])
''',
    'vae': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self, d=6, z=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 8), nn.ReLU())
        self.mu = nn.Linear(8, z)
        self.logvar = nn.Linear(8, z)
        self.dec = nn.Sequential(nn.Linear(z, 8), nn.ReLU(), nn.Linear(8, d), nn.Sigmoid())
    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return self.dec(mu + eps * std), mu, logvar
vae = VAE()
x = torch.rand(16, 6)
opt = torch.optim.Adam(vae.parameters(), lr=1e-2)
for step in range(30):
    recon, mu, logvar = vae(x)
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (bce + kld) / x.size(0)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        print(step, round(bce.item(), 3), round(kld.item(), 3))
D = torch.distributions
q = D.Normal(mu[0], torch.exp(0.5 * logvar[0]))
p = D.Normal(torch.zeros(2), torch.ones(2))
print(D.kl_divergence(q, p))
print(q.rsample().shape, q.log_prob(torch.zeros(2)))
cat = D.Categorical(logits=torch.tensor([0.0, 1.0, 2.0]))
print(cat.sample((6,)), cat.entropy(), cat.probs)
b = D.Bernoulli(probs=torch.tensor([0.2, 0.8]))
print(b.sample((3,)), b.log_prob(torch.tensor([1.0, 1.0])))
mvn = D.MultivariateNormal(torch.zeros(2), torch.eye(2) * 2)
print(mvn.log_prob(torch.ones(2)), mvn.sample())
print(D.Uniform(0, 1).sample((2,)), D.Normal(0.0, 1.0))
''',
    'modulelist': r'''\
nn = torch.nn
import copy
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d, scale=1.0):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.scale = scale
    def extra_repr(self):
        return f"scale={self.scale}"
    def forward(self, x):
        return x + self.scale * torch.relu(self.lin(x))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(4, s) for s in (0.5, 1.0)])
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 2), "b": nn.Linear(4, 1)})
        self.alphas = nn.ParameterList([nn.Parameter(torch.ones(1) * i) for i in range(2)])
        self.temp = nn.Parameter(torch.tensor(1.5))
    def forward(self, x, head="a"):
        for b in self.blocks:
            x = b(x)
        return self.heads[head](x) / self.temp
net = Net()
print(net)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_parameters()])
print(net(torch.randn(2, 4)), net(torch.randn(2, 4), "b").shape)
net2 = copy.deepcopy(net)
print(net2.blocks[0].lin.weight is net.blocks[0].lin.weight, torch.equal(net2.temp, net.temp))
net.double()
print(net.temp.dtype, net2.temp.dtype)
print(net.get_submodule("blocks.1.lin"))
print(net.get_parameter("heads.b.bias").shape)
net.register_parameter("extra", None)
net.extra2 = nn.Parameter(torch.zeros(2))
print(len(list(net.parameters())), "extra" in dict(net.named_parameters()))
del net.heads["b"]
print(net.heads, len(net.blocks))
net.blocks.append(Block(4))
print(net.blocks[-1], net.blocks[-1].training)
seq = nn.Sequential()
seq.add_module("l1", nn.Linear(2, 2))
seq.add_module("act", nn.GELU(approximate="tanh"))
print(seq, seq[0], seq.l1 is seq[0], len(seq), seq[-1:])
print(nn.Sequential(nn.Identity(), nn.Softmax(dim=-1), nn.LeakyReLU(0.2), nn.Hardtanh(-2, 2), nn.Unflatten(1, (2, 2))))
''',
    'kmeans_linreg': r'''\
torch.manual_seed(0)
centers = torch.tensor([[0., 0.], [5., 5.], [0., 5.]])
pts = torch.cat([c + torch.randn(20, 2) * 0.5 for c in centers])
perm = torch.randperm(pts.size(0))
C = pts[perm[:3]].clone()
for it in range(5):
    assign = torch.cdist(pts, C).argmin(1)
    C = torch.stack([pts[assign == k].mean(0) for k in range(3)])
print(C.round(decimals=3))
print(torch.bincount(assign))
X = torch.randn(50, 3)
true_w = torch.tensor([[1.5], [-2.0], [0.5]])
y = X @ true_w + 0.1 * torch.randn(50, 1)
Xb = torch.cat([X, torch.ones(50, 1)], 1)
sol = torch.linalg.lstsq(Xb, y).solution
print(sol.round(decimals=3))
w_ne = torch.linalg.solve(Xb.T @ Xb, Xb.T @ y)
print(torch.allclose(sol, w_ne, atol=1e-4))
w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
for i in range(100):
    loss = ((X @ w + b - y) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
print(w.detach().round(decimals=3).flatten(), round(b.item(), 3), round(loss.item(), 5))
xs = torch.linspace(-1, 1, 9)
V = torch.vander(xs, N=3, increasing=True)
print(V[:3])
coef = torch.linalg.pinv(V) @ (xs ** 2 + 1)
print(coef.round(decimals=4) + 0.0)
U, S, Vh = torch.linalg.svd(pts - pts.mean(0), full_matrices=False)
print(S.round(decimals=3), U.shape, Vh.abs().round(decimals=3))
print(torch.linalg.norm(X, dim=1)[:4], torch.linalg.matrix_rank(Xb))
''',
    'numpy_interop': r'''\
torch.manual_seed(0)
a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
t[0, 0] = 100
print(a[0, 0], t.dtype)
print(torch.tensor(a).dtype, torch.as_tensor(a) is t, torch.as_tensor(np.array([1, 2])).dtype)
x = torch.randn(3)
n = x.numpy()
n[0] = 0
print(x[0].item(), type(n).__name__, n.dtype)
print(torch.tensor(np.float64(2.5)), torch.tensor([np.int64(3)]))
print(torch.from_numpy(np.array([True, False])), torch.from_numpy(np.zeros(2, dtype=np.int16)))
r = torch.randn(2, 2, requires_grad=True)
try:
    r.numpy()
except RuntimeError as e:
    print(e)
print(r.detach().numpy().shape, r.tolist() == r.detach().tolist())
print(np.asarray(torch.ones(2)), torch.ones(2).numpy().sum())
print(torch.tensor([[1, 2], [3, 4]]).tolist(), torch.tensor(3).item(), type(torch.tensor(3.).item()))
print(torch.zeros(3).numpy().flags["WRITEABLE"])
v = torch.arange(5)
print(v.numpy()[::2], torch.from_numpy(np.arange(10)[::3].copy()))
print(torch.from_numpy(a.T.copy()).is_contiguous(), torch.tensor(a.T).stride())
print(float(torch.tensor(2.5)), int(torch.tensor(7)), bool(torch.tensor([1])))
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
print(len(torch.zeros(4, 2)), list(torch.arange(3)))
''',
    'gan': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 2))
D = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real_data = torch.randn(64, 2) * 0.5 + torch.tensor([2.0, -1.0])
for step in range(20):
    z = torch.randn(64, 2)
    fake = G(z)
    d_loss = crit(D(real_data), torch.ones(64, 1)) + crit(D(fake.detach()), torch.zeros(64, 1))
    opt_d.zero_grad(); d_loss.backward(); opt_d.step()
    g_loss = crit(D(fake), torch.ones(64, 1))
    opt_g.zero_grad(); g_loss.backward(); opt_g.step()
    if step % 5 == 0:
        print(step, round(d_loss.item(), 4), round(g_loss.item(), 4))
alpha = torch.rand(64, 1)
interp = (alpha * real_data + (1 - alpha) * G(torch.randn(64, 2)).detach()).requires_grad_(True)
out = D(interp)
grads = torch.autograd.grad(out, interp, grad_outputs=torch.ones_like(out), create_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
print(round(gp.item(), 4), grads.shape, grads.requires_grad)
gp.backward()
print(D[0].weight.grad.abs().sum() > 0)
print(G(torch.zeros(3, 2)))
print(opt_g.state_dict()["param_groups"][0]["betas"], len(opt_g.state_dict()["state"]))
print(opt_g.state[G[0].weight]["step"])
''',
    'param_groups': r'''\
nn = torch.nn
import copy
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
opt = torch.optim.SGD([
    {"params": model[0].parameters(), "lr": 0.01},
    {"params": model[2].parameters()}], lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
print(opt)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
x, y = torch.randn(8, 4), torch.randn(8, 2)
for i in range(3):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step(); sched.step()
    print(i, round(loss.item(), 5), [round(lr, 5) for lr in sched.get_last_lr()])
sd = copy.deepcopy(opt.state_dict())
print([ (g["lr"], g["initial_lr"], g["params"]) for g in sd["param_groups"]])
print(sd["state"][0]["momentum_buffer"])
model2 = copy.deepcopy(model)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.5, momentum=0.9)
try:
    opt2.load_state_dict(sd)
except ValueError as e:
    print("ValueError", e)
opt3 = torch.optim.SGD([{"params": model2[0].parameters()}, {"params": model2[2].parameters()}], lr=0.5, momentum=0.9)
opt3.load_state_dict(sd)
print(opt3.param_groups[0]["lr"], opt3.param_groups[1]["nesterov"])
print(torch.equal(opt3.state[model2[0].weight]["momentum_buffer"], opt.state[model[0].weight]["momentum_buffer"]))
extra = nn.Parameter(torch.ones(3))
opt.add_param_group({"params": [extra], "lr": 1.0})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["lr"])
try:
    opt.add_param_group({"params": [extra]})
except ValueError as e:
    print(e)
print(model[0].weight.grad is None, model[2].bias.grad)
opt.zero_grad()
print(model[2].bias.grad)
ss = sched.state_dict()
print(sorted(ss), ss["last_epoch"], ss["base_lrs"])
''',
    'tensor_utils': r'''\
torch.manual_seed(0)
x = torch.randint(0, 6, (12,))
print(x)
vals, idx = torch.sort(x, descending=True, stable=True)
print(vals, idx)
u, inv, counts = torch.unique(x, return_inverse=True, return_counts=True)
print(u, inv, counts)
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 3, 1])))
print(torch.histc(torch.randn(100), bins=5, min=-2, max=2))
bounds = torch.tensor([0.0, 0.5, 1.0])
print(torch.bucketize(torch.tensor([-0.1, 0.2, 0.5, 0.9, 1.3]), bounds), torch.searchsorted(bounds, torch.tensor([0.5, 0.7]), right=True))
print(torch.arange(1, 6).cumprod(0), torch.diff(torch.tensor([1, 4, 9, 16])), torch.roll(torch.arange(5), 2))
print(torch.flip(torch.arange(6).view(2, 3), [1]), torch.rot90(torch.arange(4).view(2, 2)))
print(torch.repeat_interleave(torch.tensor([1, 2, 3]), torch.tensor([2, 0, 1])))
print(torch.arange(10).chunk(3), torch.arange(10).split([3, 7]))
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(gx, gy)
print(torch.nonzero(torch.tensor([[0, 1], [2, 0]])), torch.tensor([0, 3, 0, 4]).nonzero(as_tuple=True))
print(torch.stack([torch.ones(2), torch.zeros(2)], dim=1), torch.hstack([torch.ones(2), torch.zeros(1)]))
print(torch.kthvalue(torch.tensor([3., 1., 2., 5.]), 2), torch.median(torch.tensor([3., 1., 2., 5.])))
print(torch.mode(torch.tensor([1, 2, 2, 3, 3])), torch.tensor([[1., 2.], [3., 4.]]).var(dim=0))
print(torch.quantile(torch.arange(10.), torch.tensor([0.1, 0.5, 0.9])))
print(torch.cummax(torch.tensor([1, 3, 2, 5, 4]), 0))
print(torch.clamp(torch.arange(-3, 4), min=-1, max=2), torch.sign(torch.tensor([-2., 0., 3.])))
print(torch.argsort(torch.tensor([3, 1, 2])), torch.msort(torch.tensor([[3, 1], [1, 2]])))
print(torch.tril_indices(3, 3), torch.combinations(torch.arange(3), r=2))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
print(torch.block_diag(torch.ones(1, 2), torch.ones(2, 1) * 2))
print(torch.count_nonzero(torch.eye(3)), torch.allclose(torch.ones(2), torch.ones(2) + 1e-9), torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.1])))
print(torch.logsumexp(torch.tensor([[1., 2.], [3., 4.]]), dim=1), torch.nan_to_num(torch.tensor([float('nan'), float('inf'), 1.])))
print(torch.lerp(torch.zeros(3), torch.ones(3), 0.25), torch.addcmul(torch.zeros(2), torch.ones(2), torch.full((2,), 3.), value=0.5))
''',
    'vision_ops': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
class PatchEmbed(nn.Module):
    def __init__(self, img=8, patch=4, ch=3, dim=6):
        super().__init__()
        self.proj = nn.Conv2d(ch, dim, kernel_size=patch, stride=patch)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.randn(1, (img // patch) ** 2 + 1, dim) * 0.02)
    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        cls = self.cls.expand(x.shape[0], -1, -1)
        return torch.cat([cls, x], dim=1) + self.pos
pe = PatchEmbed()
img = torch.randn(2, 3, 8, 8)
tok = pe(img)
print(tok.shape, tok[0, :2])
patches = F.unfold(img, kernel_size=4, stride=4)
print(patches.shape)
w = pe.proj.weight.view(6, -1)
alt = (w @ patches + pe.proj.bias[:, None]).transpose(1, 2)
print(torch.allclose(alt, tok[:, 1:] - pe.pos[:, 1:], atol=1e-5))
print(F.pad(torch.arange(4.).view(1, 1, 2, 2), (1, 1, 0, 1), mode="constant", value=-1))
print(F.pad(torch.arange(6.).view(1, 2, 3), (2, 1), mode="reflect"))
print(F.pad(torch.arange(4.).view(1, 1, 2, 2), (1, 1, 1, 1), mode="replicate"))
up = nn.ConvTranspose2d(2, 1, kernel_size=2, stride=2)
print(up(torch.randn(1, 2, 2, 2)).shape, up)
ps = nn.PixelShuffle(2)
print(ps(torch.arange(16.).view(1, 4, 2, 2)))
print(F.interpolate(torch.arange(4.).view(1, 1, 2, 2), scale_factor=2, mode="nearest"))
print(F.interpolate(torch.arange(4.).view(1, 1, 2, 2), size=(3, 3), mode="bilinear", align_corners=True))
print(F.avg_pool2d(torch.arange(16.).view(1, 1, 4, 4), 2), F.adaptive_max_pool2d(torch.arange(16.).view(1, 1, 4, 4), (1, 2)))
grid = F.affine_grid(torch.tensor([[[1., 0., 0.], [0., 1., 0.]]]), (1, 1, 2, 2), align_corners=False)
print(grid)
print(F.grid_sample(torch.arange(4.).view(1, 1, 2, 2), grid, align_corners=False))
mp = nn.MaxPool2d(2, return_indices=True)
o, i = mp(torch.randn(1, 1, 4, 4))
print(o, i, nn.MaxUnpool2d(2)(o, i))
print(nn.Conv1d(3, 4, 3, dilation=2, padding="same", groups=1)(torch.randn(1, 3, 10)).shape)
''',
    'contrastive': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 4))
a = torch.randn(6, 5)
b = a + 0.1 * torch.randn(6, 5)
za, zb = F.normalize(enc(a), dim=1), F.normalize(enc(b), dim=1)
print(za.norm(dim=1))
sim = za @ zb.t() / 0.5
labels = torch.arange(6)
loss = (F.cross_entropy(sim, labels) + F.cross_entropy(sim.t(), labels)) / 2
print(round(loss.item(), 4))
print(F.cosine_similarity(za, zb, dim=1))
print(F.pairwise_distance(za, zb))
trip = nn.TripletMarginLoss(margin=0.5)
print(trip(za, zb, za.roll(1, 0)))
print(nn.CosineEmbeddingLoss()(za, zb, torch.tensor([1, -1, 1, -1, 1, -1])))
print(F.margin_ranking_loss(torch.tensor([0.5, 0.2]), torch.tensor([0.1, 0.4]), torch.tensor([1., 1.]), margin=0.1))
print(nn.HingeEmbeddingLoss()(torch.tensor([0.3, 2.0]), torch.tensor([1, -1])))
print(F.kl_div(F.log_softmax(sim, 1), F.softmax(sim.t(), 1), reduction="batchmean"))
print(F.smooth_l1_loss(za, zb, beta=0.05), F.huber_loss(za, zb, delta=0.1), F.l1_loss(za, zb))
loss.backward()
print(enc[0].bias.grad)
print(torch.nn.functional.softplus(torch.tensor([-20., 0., 25.])), F.logsigmoid(torch.tensor([-1., 1.])))
print(F.gelu(torch.tensor([-1., 0., 1.])), F.silu(torch.tensor([1.])), F.mish(torch.tensor([1.])), F.elu(torch.tensor([-1.])), F.selu(torch.tensor([-1., 1.])))
print(F.softmin(torch.tensor([1., 2.]), dim=0), F.glu(torch.arange(4.), dim=0), F.hardswish(torch.tensor([-4., 0.5, 4.])))
''',
    'imbalanced': r'''\
nn = torch.nn
data = torch.utils.data
torch.manual_seed(0)
labels = torch.cat([torch.zeros(90), torch.ones(10)]).long()
X = torch.randn(100, 3) + labels[:, None] * 2.0
counts = torch.bincount(labels)
print(counts)
class_w = 1.0 / counts.float()
sample_w = class_w[labels]
sampler = data.WeightedRandomSampler(sample_w, num_samples=40, replacement=True)
idx = list(sampler)
print(idx[:10], torch.bincount(labels[idx]))
loader = data.DataLoader(data.TensorDataset(X, labels), batch_size=20, sampler=sampler)
for xb, yb in loader:
    print(xb.shape, yb.float().mean())
crit = nn.CrossEntropyLoss(weight=counts.sum() / (2 * counts.float()))
print(crit.weight)
logits = torch.randn(5, 2)
t = torch.tensor([0, 1, 1, 0, 1])
print(crit(logits, t), nn.CrossEntropyLoss(ignore_index=1)(logits, t), nn.CrossEntropyLoss(reduction="sum")(logits, t))
print(torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 5, replacement=True))
print(torch.multinomial(torch.tensor([[1., 1., 1., 1.]]), 2))
pos_weight = torch.tensor([9.0])
bce = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
print(bce(torch.tensor([[0.2], [-1.0]]), torch.tensor([[1.0], [0.0]])))
print(list(data.RandomSampler(range(6), generator=torch.Generator().manual_seed(3))))
print(list(data.SubsetRandomSampler([10, 20, 30], generator=torch.Generator().manual_seed(1))))
dl = data.DataLoader(range(10), batch_size=4, shuffle=True)
print([b.tolist() for b in dl])
print(torch.bernoulli(torch.full((8,), 0.3)), torch.poisson(torch.tensor([1.0, 5.0])))
print(torch.normal(torch.zeros(3), torch.ones(3)), torch.randn(2, generator=torch.Generator().manual_seed(5)))
''',
    'mistakes': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
def attempt(f):
    try:
        r = f()
        print("ok", r if not isinstance(r, torch.Tensor) else tuple(r.shape))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
lin = nn.Linear(4, 3)
attempt(lambda: lin(torch.randn(2, 5)))
attempt(lambda: lin(torch.randn(2, 4, dtype=torch.float64)))
attempt(lambda: lin(torch.randint(0, 3, (2, 4))))
attempt(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0.0, 1.0, 2.0])))
attempt(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1, 4])))
attempt(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([[0], [1], [2]])))
attempt(lambda: F.mse_loss(torch.randn(3), torch.randn(3, 1)).shape)
attempt(lambda: F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([1.0, 0.0])))
attempt(lambda: nn.Conv2d(3, 8, 3)(torch.randn(1, 1, 8, 8)))
attempt(lambda: nn.Conv2d(3, 8, 3)(torch.randn(3, 8)))
attempt(lambda: nn.BatchNorm1d(4)(torch.randn(1, 4)))
attempt(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
attempt(lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
w = torch.ones(3, requires_grad=True)
attempt(lambda: w.add_(1))
def twice():
    y = (w * w).sum()
    y.backward()
    y.backward()
attempt(twice)
def inplace_saved():
    a = torch.ones(3, requires_grad=True)
    b = a.sigmoid()
    b.mul_(2)
    b.sum().backward()
attempt(inplace_saved)
attempt(lambda: torch.randn(2, 3).t().view(6))
attempt(lambda: torch.randn(2, 3).view(4, 2))
attempt(lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
attempt(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
attempt(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
attempt(lambda: torch.ones(3).backward())
attempt(lambda: (torch.ones(3, requires_grad=True) * 2).backward())
attempt(lambda: torch.zeros(2, 2)[2])
attempt(lambda: torch.zeros(2, 2)[:, 5])
attempt(lambda: torch.tensor([1, 2]).mean())
attempt(lambda: torch.ones(2).to("cuda:0") if False else torch.ones(2).reshape(-1, -1))
attempt(lambda: nn.LSTM(4, 8, batch_first=True)(torch.randn(2, 5, 3)))
attempt(lambda: torch.optim.SGD([], lr=0.1))
attempt(lambda: torch.optim.Adam(nn.Linear(2, 2).parameters(), lr=-1))
attempt(lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.ones(2, 2)}))
attempt(lambda: torch.randn(2, 3).max(dim=2))
attempt(lambda: torch.randn(4).view(2, 3))
attempt(lambda: torch.randn(2, 2).numpy() if False else torch.ones(2, requires_grad=True).numpy())
attempt(lambda: torch.tensor([[1, 2], [3]]))
attempt(lambda: torch.ones(3).item())
attempt(lambda: torch.arange(5).float().expand(2, 4))
''',
    'functional_ad': r'''\
torch.manual_seed(0)
AF = torch.autograd.functional
def f(x):
    return torch.stack([x[0] * x[1], x[0].sin() + x[1] ** 2])
x = torch.tensor([0.5, 2.0])
print(AF.jacobian(f, x))
print(AF.hessian(lambda v: (v ** 3).sum() + v[0] * v[1], x))
out, vjp = AF.vjp(f, x, torch.tensor([1.0, 1.0]))
print(out, vjp)
print(AF.jvp(f, x, torch.tensor([1.0, 0.0])))
print(AF.hvp(lambda v: (v ** 2).prod(), x, torch.ones(2)))
func = torch.func
print(func.grad(lambda v: (v.sin() * v).sum())(x))
print(func.vmap(torch.dot)(torch.ones(3, 2), torch.arange(6.).view(3, 2)))
W = torch.randn(3, 2)
print(func.vmap(lambda v: W @ v)(torch.randn(4, 2)).shape)
print(func.jacrev(lambda v: v.exp())(x))
print(func.jacfwd(lambda v: v.exp() * 2)(x))
model = torch.nn.Linear(2, 1)
params = dict(model.named_parameters())
def loss_fn(p, xb, yb):
    return ((func.functional_call(model, p, (xb,)) - yb) ** 2).mean()
g = func.grad(loss_fn)(params, torch.ones(4, 2), torch.zeros(4, 1))
print(sorted(g), g["bias"])
per_sample = func.vmap(func.grad(loss_fn), in_dims=(None, 0, 0))(params, torch.randn(3, 1, 2), torch.randn(3, 1, 1))
print(per_sample["weight"].shape)
x2 = torch.tensor([1.0, 2.0], requires_grad=True)
y = x2 ** 3
g1, = torch.autograd.grad(y.sum(), x2, create_graph=True)
g2, = torch.autograd.grad(g1.sum(), x2)
print(g1, g2)
with torch.enable_grad():
    z = x2 * 2
with torch.no_grad():
    w = x2 * 2
print(z.requires_grad, w.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    q = x2 * 3
print(q.requires_grad)
x3 = torch.ones(2, requires_grad=True)
with torch.autograd.set_detect_anomaly(True):
    (x3 * 2).sum().backward()
print(x3.grad)
''',
    'amp_dtypes': r'''\
nn = torch.nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(3, 4)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    y = m(x)
    s = y.float().softmax(-1)
print(y.dtype, s.dtype)
print(y)
h = nn.Linear(4, 2).half()
print(h.weight.dtype, h(x.half()).dtype)
print(m.to(torch.float64)[0].weight.dtype, m(x.double()).dtype)
print(x.to(torch.bfloat16), x.half().float() - x)
print(torch.tensor([1, 2]) / 2, torch.tensor([1, 2]) // 2, torch.tensor([1, 2]) * 1.5, torch.tensor([True]) + 1)
print((torch.tensor([1], dtype=torch.int8) + torch.tensor([1.5], dtype=torch.float16)).dtype)
print(torch.tensor([3], dtype=torch.uint8) - 5, torch.tensor(200, dtype=torch.uint8) + torch.tensor(100, dtype=torch.uint8))
print(torch.result_type(torch.tensor([1]), 1.0), torch.promote_types(torch.int32, torch.float16))
print(torch.finfo(torch.float16).eps, torch.finfo(torch.bfloat16).max, torch.iinfo(torch.int8).min)
print(torch.get_default_dtype(), torch.tensor([1.5]).dtype)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]).dtype, torch.randn(2).dtype, nn.Linear(1, 1).weight.dtype, torch.arange(3.).dtype)
torch.set_default_dtype(torch.float32)
print(torch.ones(2, dtype=torch.float16).sum().dtype, torch.ones(2, dtype=torch.int32).sum().dtype, torch.ones(2, dtype=torch.bool).sum())
print(torch.tensor([65504.0], dtype=torch.float16) * 2, torch.tensor([1e-8]).half())
print(torch.tensor([1.1, 2.9, -1.5]).long(), torch.tensor([1.5, 2.5, -0.5]).round(), torch.tensor([0.3333333], dtype=torch.float64))
print(torch.tensor([1.0]).is_floating_point(), torch.tensor([1]).is_floating_point(), torch.complex(torch.tensor([1.]), torch.tensor([2.])))
print(x.type(), x.int().type(), x.type(torch.float64).dtype)
''',
    'seq2seq': r'''\
nn = torch.nn
torch.manual_seed(0)
class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hid, batch_first=True)
    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        return out, h
class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.cell = nn.GRUCell(emb + hid, hid)
        self.out = nn.Linear(hid, vocab)
    def forward(self, tok, h, enc_out):
        scores = torch.bmm(enc_out, h.unsqueeze(2)).squeeze(2)
        attn = scores.softmax(1)
        ctx = (attn.unsqueeze(2) * enc_out).sum(1)
        h = self.cell(torch.cat([self.emb(tok), ctx], 1), h)
        return self.out(h), h, attn
enc, dec = Encoder(10, 4, 6), Decoder(10, 4, 6)
src = torch.randint(1, 10, (2, 5))
tgt = torch.randint(1, 10, (2, 4))
enc_out, h = enc(src)
h = h[0]
tok = torch.zeros(2, dtype=torch.long)
loss = 0
for t in range(tgt.size(1)):
    logits, h, attn = dec(tok, h, enc_out)
    loss = loss + nn.functional.cross_entropy(logits, tgt[:, t])
    tok = tgt[:, t] if t % 2 == 0 else logits.argmax(1)
print(round(loss.item() / 4, 4), attn)
loss.backward()
print(enc.rnn.weight_ih_l0.grad.norm().round(decimals=4))
cell = nn.LSTMCell(3, 2)
hx, cx = torch.zeros(1, 2), torch.zeros(1, 2)
for step in range(3):
    hx, cx = cell(torch.ones(1, 3) * step, (hx, cx))
print(hx, cx)
r = nn.RNN(2, 3, num_layers=2, nonlinearity="relu", dropout=0.0, bidirectional=True)
o, hn = r(torch.randn(4, 1, 2))
print(o.shape, hn.shape, r)
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])]
ps = nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False)
print(ps)
print(nn.utils.rnn.pad_sequence(seqs, padding_value=-1))
print(nn.utils.rnn.unpad_sequence(nn.utils.rnn.pad_sequence(seqs, batch_first=True), torch.tensor([3, 1, 2]), batch_first=True))
''',
    'parametrize': r'''\
nn = torch.nn
P = torch.nn.utils.parametrize
torch.manual_seed(0)
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
print(layer)
print(torch.equal(layer.weight, layer.weight.T), P.is_parametrized(layer), P.is_parametrized(layer, "bias"))
print(sorted(n for n, _ in layer.named_parameters()))
print(list(layer.state_dict().keys()))
layer(torch.randn(2, 3)).sum().backward()
print(layer.parametrizations.weight.original.grad)
P.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(type(layer.weight).__name__, P.is_parametrized(layer))
wn = nn.utils.parametrizations.weight_norm(nn.Linear(4, 2))
print(sorted(n for n, _ in wn.named_parameters()))
print(wn.parametrizations.weight.original0.shape, wn.parametrizations.weight.original1.shape)
print(wn.weight.norm(dim=1), wn.parametrizations.weight.original0.flatten())
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(5, 4))
x = torch.randn(3, 5)
for _ in range(3):
    y = sn(x)
print(torch.linalg.matrix_norm(sn.weight, ord=2) < 1.05)
orth = nn.utils.parametrizations.orthogonal(nn.Linear(3, 3))
print(torch.allclose(orth.weight @ orth.weight.T, torch.eye(3), atol=1e-5))
old_wn = nn.utils.weight_norm(nn.Linear(3, 2), name="weight")
print(sorted(n for n, _ in old_wn.named_parameters()), old_wn.weight_g.shape)
with P.cached():
    a = wn.weight
    b = wn.weight
print(a is b)
''',
    'iterable': r'''\
data = torch.utils.data
import collections
torch.manual_seed(0)
class Stream(data.IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        g = torch.Generator().manual_seed(11)
        for i in range(self.n):
            yield torch.randn(2, generator=g), i % 3
dl = data.DataLoader(Stream(7), batch_size=3)
for xb, yb in dl:
    print(xb, yb)
Point = collections.namedtuple("Point", ["x", "y"])
batch = data.default_collate([Point(torch.tensor(1.), 2), Point(torch.tensor(3.), 4)])
print(batch, type(batch).__name__)
print(data.default_collate([np.array([1, 2]), np.array([3, 4])]))
print(data.default_collate([{"a": [1, 2], "b": "x"}, {"a": [3, 4], "b": "y"}]))
print(data.default_collate([(1.5, True), (2.5, False)]))
print(data.default_convert(np.arange(3)), data.default_convert([np.float64(2.0)]))
dl = data.DataLoader(list(range(5)), batch_size=None)
print(list(dl))
ds = data.TensorDataset(torch.arange(10).float(), torch.arange(10) % 2)
parts = data.random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
print([len(p) for p in parts], parts[1].indices)
chain = data.ChainDataset([Stream(2), Stream(1)])
print(sum(1 for _ in chain))
sub = data.Subset(ds, range(0, 10, 3))
print([sub[i][0].item() for i in range(len(sub))])
dl = data.DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0), drop_last=True)
print([yb.tolist() for _, yb in dl], len(dl))
print(next(iter(data.DataLoader(ds, batch_size=2, pin_memory=False)))[0].is_pinned())
''',
    'logging_repr': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
x = torch.randn(4, 2)
y = torch.randn(4, 1)
loss = F.mse_loss(m(x), y)
print(loss)
print(f"loss={loss:.4f}", "{:.3f}".format(loss.item()), f"{loss.item():.2e}")
print(f"{torch.tensor(3)}", f"{torch.tensor([1.5, 2.0])}")
print(m.state_dict())
print(m[0].weight.size(), m[0].weight.shape[0], str(m[0].weight.dtype), m[0].weight.device)
print(repr(torch.Size([2, 3])), torch.Size([2, 3]) == (2, 3), type(x.shape).__name__)
print(F.cross_entropy(torch.randn(2, 3, requires_grad=True), torch.tensor([0, 2])))
print(F.binary_cross_entropy_with_logits(torch.randn(3, requires_grad=True), torch.ones(3)))
print(F.nll_loss(torch.randn(2, 3, requires_grad=True).log_softmax(1), torch.tensor([1, 1])))
print(m(x).mean(), m(x).sum(), m(x).max(), m(x).std())
print((m(x) > 0).float().mean(), m(x).view(-1)[0], m(x).squeeze(1).unsqueeze(0).t()[1])
out = m(x)
print(out.grad_fn, out.grad_fn.next_functions[0][0])
print(torch.cat([out, out], 1).grad_fn.name(), torch.stack([out, out]).grad_fn.name())
print(out.sigmoid().grad_fn, out.softmax(0).grad_fn, out.log_softmax(0).grad_fn, F.gelu(out).grad_fn)
print(F.dropout(out, 0.5).grad_fn, out.expand(4, 3).grad_fn, out[:, 0].grad_fn, out[[0, 1]].grad_fn)
print(out.masked_fill(out > 0, 0).grad_fn, torch.where(out > 0, out, 0.).grad_fn, out.clamp(min=0).grad_fn)
print(out.norm().grad_fn, out.abs().pow(2).grad_fn, out.mean(0).grad_fn, (out @ out.t()).grad_fn)
print(F.layer_norm(out, (1,)).grad_fn, F.embedding(torch.tensor([0]), m[0].weight).grad_fn)
print(m[0].weight.T.grad_fn, m[0].weight.reshape(-1).grad_fn, m[0].weight.flatten().grad_fn, m[0].weight.unbind(0)[0].grad_fn)
print(torch.einsum("ij->j", out).grad_fn, out.cumsum(0).grad_fn, out.exp().log().grad_fn, (out / 2).grad_fn)
''',
    'ema_swa': r'''\
nn = torch.nn
import copy
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
swa = torch.optim.swa_utils.AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
swa_sched = torch.optim.swa_utils.SWALR(opt, swa_lr=0.01, anneal_epochs=2)
X, Y = torch.randn(32, 3), torch.randn(32, 1)
best, best_state, bad = float("inf"), None, 0
for epoch in range(6):
    model.train()
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    with torch.no_grad():
        for pe, pm in zip(ema.parameters(), model.parameters()):
            pe.mul_(0.9).add_(pm, alpha=0.1)
    if epoch >= 3:
        swa.update_parameters(model)
        swa_sched.step()
    val = loss.item()
    if val < best - 1e-3:
        best, best_state, bad = val, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
    print(epoch, round(val, 4), bad, [round(g["lr"], 4) for g in opt.param_groups])
print(swa.n_averaged, round(best, 4))
torch.optim.swa_utils.update_bn([(X,)], swa)
print(swa.module[1].running_mean)
model.load_state_dict(best_state)
print(ema[0].weight[0], ema[0].weight.requires_grad)
print([k for k in swa.state_dict().keys()][:3])
''',
    'layers_zoo': r'''\
nn = torch.nn
torch.manual_seed(0)
layers = [nn.Bilinear(3, 2, 4), nn.PReLU(3), nn.GroupNorm(2, 4), nn.InstanceNorm1d(4, affine=True),
          nn.LocalResponseNorm(2), nn.Softmax2d(), nn.AlphaDropout(0.2), nn.Fold((3, 3), 2),
          nn.Unfold(2), nn.ChannelShuffle(2), nn.Upsample(scale_factor=2, mode="nearest"),
          nn.ZeroPad2d((1, 0, 0, 1)), nn.ReflectionPad1d(1), nn.AdaptiveAvgPool1d(3), nn.LPPool2d(2, 2),
          nn.CosineSimilarity(dim=0), nn.PairwiseDistance(), nn.Threshold(0.1, 20.0), nn.RReLU(), nn.CELU(),
          nn.Softsign(), nn.Tanhshrink(), nn.LogSoftmax(dim=1), nn.SyncBatchNorm(4), nn.RMSNorm([4])]
for l in layers:
    print(l)
print(layers[0](torch.randn(2, 3), torch.randn(2, 2)).shape, layers[1].weight)
x = torch.randn(2, 4, 5)
print(layers[2](x)[0, 0], layers[3](x)[1, 1])
print(layers[4](torch.randn(1, 4, 2, 2))[0, 0])
print(layers[7](torch.arange(16.).view(1, 4, 4)))
print(layers[8](torch.arange(9.).view(1, 1, 3, 3)))
print(layers[9](torch.arange(4.).view(1, 4, 1, 1)).flatten())
print(layers[13](torch.arange(10.).view(1, 1, 10)))
print(layers[14](torch.arange(16.).view(1, 1, 4, 4)))
print(layers[17](torch.tensor([0.05, 0.5])), layers[24](torch.ones(2, 4) * 3))
r = nn.RReLU()
r.eval()
print(r(torch.tensor([-1.0, 1.0])))
''',
    'optimizers': r'''\
nn = torch.nn
torch.manual_seed(0)
def run(make, steps=4, closure=False):
    torch.manual_seed(1)
    m = nn.Linear(3, 1)
    opt = make(m.parameters())
    X, Y = torch.randn(16, 3), torch.randn(16, 1)
    for _ in range(steps):
        def closure_fn():
            opt.zero_grad()
            l = ((m(X) - Y) ** 2).mean()
            l.backward()
            return l
        if closure:
            loss = opt.step(closure_fn)
        else:
            loss = closure_fn(); opt.step()
    return round(loss.item(), 5), [round(v, 5) for v in m.weight.flatten().tolist()]
O = torch.optim
print("adagrad", run(lambda p: O.Adagrad(p, lr=0.1, lr_decay=0.01)))
print("adadelta", run(lambda p: O.Adadelta(p, lr=1.0)))
print("adamax", run(lambda p: O.Adamax(p, lr=0.05)))
print("nadam", run(lambda p: O.NAdam(p, lr=0.05)))
print("radam", run(lambda p: O.RAdam(p, lr=0.05), steps=8))
print("rprop", run(lambda p: O.Rprop(p, lr=0.01)))
print("asgd", run(lambda p: O.ASGD(p, lr=0.05)))
print("amsgrad", run(lambda p: O.Adam(p, lr=0.05, amsgrad=True, weight_decay=0.1)))
print("adamw", run(lambda p: O.AdamW(p, lr=0.05, maximize=True)))
print("sgd", run(lambda p: O.SGD(p, lr=0.05, momentum=0.9, dampening=0.1)))
print("lbfgs", run(lambda p: O.LBFGS(p, lr=0.5, max_iter=5), steps=2, closure=True))
torch.set_default_dtype(torch.float64)
print("lbfgs-sw", run(lambda p: O.LBFGS(p, lr=1, history_size=3, line_search_fn="strong_wolfe"), steps=2, closure=True))
torch.set_default_dtype(torch.float32)
print("rmsprop", run(lambda p: O.RMSprop(p, lr=0.01, momentum=0.5, centered=True)))
print(O.Adam(nn.Linear(1, 1).parameters(), lr=1e-3))
print(O.LBFGS(nn.Linear(1, 1).parameters()).defaults)
''',
    'more_scheds': r'''\
nn = torch.nn
S = torch.optim.lr_scheduler
torch.manual_seed(0)
def trace(make_opt, make_s, n=8, metric=False):
    m = nn.Linear(2, 1)
    opt = make_opt(m.parameters())
    s = make_s(opt)
    lrs = []
    for i in range(n):
        opt.step()
        s.step()
        lrs.append(round(opt.param_groups[0]["lr"], 5))
    return lrs
sgd = lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)
print("cyclic", trace(sgd, lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2)))
print("cyclic-tri2", trace(sgd, lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="triangular2"), n=10))
print("poly", trace(sgd, lambda o: S.PolynomialLR(o, total_iters=4, power=2.0)))
print("const", trace(sgd, lambda o: S.ConstantLR(o, factor=0.5, total_iters=3)))
print("chained", trace(sgd, lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.9)])))
print("cos", trace(sgd, lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.001), n=10))
print("onecycle-adam", trace(lambda p: torch.optim.Adam(p, lr=0.1), lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=9, anneal_strategy="linear", three_phase=True)))
m = nn.Linear(2, 1)
o = torch.optim.Adam(m.parameters(), lr=0.1)
s = S.OneCycleLR(o, max_lr=0.1, epochs=2, steps_per_epoch=3)
print([round(b, 4) for b in o.param_groups[0]["betas"]], o.param_groups[0]["initial_lr"], o.param_groups[0]["max_lr"])
o = torch.optim.SGD(m.parameters(), lr=1.0)
s = S.ReduceLROnPlateau(o, mode="max", factor=0.1, patience=0, threshold=0.1, threshold_mode="abs", cooldown=1, min_lr=0.001)
out = []
for v in [0.5, 0.55, 0.7, 0.71, 0.72, 0.73, 0.74, 0.75]:
    s.step(v)
    out.append(o.param_groups[0]["lr"])
print(out, s.get_last_lr(), s.num_bad_epochs, s.best)
o = torch.optim.SGD(m.parameters(), lr=0.1)
s = S.StepLR(o, 2)
s.step(); s.step(); s.step()
sd = s.state_dict()
print(sorted(sd), sd["last_epoch"], sd["_last_lr"])
o2 = torch.optim.SGD(m.parameters(), lr=0.1)
s2 = S.StepLR(o2, 2)
s2.load_state_dict(sd)
print(s2.last_epoch, s2.get_last_lr(), o2.param_groups[0]["lr"])
''',
    'indexing_train': r'''\
torch.manual_seed(0)
x = torch.randn(4, 5)
mask = x > 0
print(x[mask].shape, mask.sum(1))
y = x.clone()
y[mask] = 0
y[~mask] *= -1
print(y)
y[:, [0, 2]] = torch.tensor([1.0, 2.0])
print(y[0])
y[torch.arange(4), torch.tensor([4, 3, 2, 1])] = -5
print(y)
acc = torch.zeros(5)
acc.index_put_((torch.tensor([0, 0, 3]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(acc)
acc.index_add_(0, torch.tensor([1, 1]), torch.tensor([0.5, 0.5]))
print(acc, acc.index_fill(0, torch.tensor([0]), -1.0))
print(x[1:3, ::2], x[..., -1], x[None, :, None, 0].shape, x[[0, 3]][:, [1]])
print(x[x.sum(1) > 0].shape, x[torch.tensor([True, False, True, False])].shape)
w = torch.ones(3, requires_grad=True)
z = w * 2
z2 = z.clone()
z2[1] = 0
z2.sum().backward()
print(w.grad)
b = torch.zeros(2, 3)
b[0] += 1
b[:, 1] = b[:, 1] + 2
print(b, b.masked_scatter(b == 0, torch.tensor([7., 8., 9.])))
t = torch.arange(12).view(3, 4)
print(t[t % 2 == 0], t.masked_select(t > 5), t.narrow(1, 1, 2), t.select(0, 1))
print(t.unfold(1, 2, 2), t.diagonal(), t.flatten()[[-1, -2]], t[-1, -1])
e = torch.eye(3)
e[e == 0] = float("nan")
print(e, torch.nansum(e), torch.nanmean(e, dim=1))
idx = torch.tensor([[0, 1], [1, 2]])
print(torch.gather(t, 1, idx), t[idx], t[idx, idx])
print(torch.where(t > 5), torch.argwhere(t > 9))
''',
    'save_module': r'''\
import io
nn = torch.nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
buf = io.BytesIO()
torch.save(m, buf)
buf.seek(0)
m2 = torch.load(buf, weights_only=False)
print(m2, torch.equal(m2[0].weight, m[0].weight))
buf = io.BytesIO()
torch.save({"w": torch.arange(3), "f": torch.ones(2, dtype=torch.float16), "n": None, "l": [1, 2.5, "x"], "t": (torch.tensor(True),)}, buf)
buf.seek(0)
d = torch.load(buf)
print(d)
buf.seek(0)
print(sorted(torch.load(buf, map_location="cpu").keys()))
buf = io.BytesIO()
p = nn.Parameter(torch.ones(2))
torch.save({"p": p}, buf)
buf.seek(0)
q = torch.load(buf)["p"]
print(type(q).__name__, q.requires_grad, q)
buf = io.BytesIO()
x = torch.arange(6.).view(2, 3)
torch.save({"a": x, "b": x.t(), "c": x[1]}, buf)
buf.seek(0)
r = torch.load(buf)
r["a"][1, 0] = 100
print(r["b"], r["c"], r["b"].stride(), r["c"].storage_offset())
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
print(buf.tell() > 0)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
print(type(sd).__name__, list(sd), sd["0.bias"])
''',
    'rng_state': r'''\
torch.manual_seed(123)
state = torch.get_rng_state()
a = torch.randn(3)
torch.set_rng_state(state)
b = torch.randn(3)
print(torch.equal(a, b), state.dtype, state.shape)
with torch.random.fork_rng():
    torch.manual_seed(0)
    inner = torch.rand(2)
after = torch.rand(2)
torch.set_rng_state(state)
torch.randn(3)
print(torch.equal(after, torch.rand(2)), inner)
print(torch.initial_seed())
g = torch.Generator()
g.manual_seed(2024)
print(torch.randint(0, 100, (5,), generator=g), g.initial_seed())
gs = g.get_state()
x1 = torch.randperm(6, generator=g)
g.set_state(gs)
print(torch.equal(x1, torch.randperm(6, generator=g)), x1)
t = torch.empty(6)
print(t.uniform_(-1, 1), t.normal_(2, 0.5), t.random_(0, 10), t.exponential_(2.0))
print(t.geometric_(0.3), t.cauchy_(), t.log_normal_(0, 0.25), t.bernoulli_(0.5))
print(torch.rand(2, 2, dtype=torch.float64), torch.randn(3, dtype=torch.float16), torch.randint(3, (2, 2), dtype=torch.int32))
print(torch.rand_like(torch.zeros(2)), torch.randn_like(torch.zeros(1, 2)), torch.randint_like(torch.zeros(3), 5))
print(torch.randperm(10), torch.randperm(3, dtype=torch.int32))
d = torch.nn.Dropout(0.5)
print(d(torch.ones(8)), torch.nn.functional.dropout(torch.ones(2, 4), p=0.25, training=True))
print(torch.seed() > 0 if False else torch.normal(mean=torch.arange(3.), std=1.0))
print(torch.normal(2.0, 3.0, size=(2,)), torch.empty(3).normal_(generator=torch.Generator().manual_seed(1)))
''',
    'distributions': r'''\
D = torch.distributions
torch.manual_seed(0)
print(D.Beta(torch.tensor([2.0]), torch.tensor([3.0])).sample((3,)).shape)
g = D.Gamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0]))
print(g.mean, g.variance, g.log_prob(torch.tensor([1.0, 1.0])))
dir_ = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
print(dir_.mean, dir_.log_prob(torch.tensor([0.2, 0.3, 0.5])))
ind = D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(3)))
print(ind)
td = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.ExpTransform()])
print(td.log_prob(torch.tensor(1.0)), D.LogNormal(0.0, 1.0).log_prob(torch.tensor(1.0)))
mix = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 1.0]), torch.tensor([0.5, 0.5])))
print(mix.log_prob(torch.tensor([0.0, 1.0])), mix.mean)
pois = D.Poisson(torch.tensor([3.0]))
print(pois.log_prob(torch.tensor([2.0])), pois.mean)
lap = D.Laplace(0.0, 2.0)
print(lap.cdf(torch.tensor(1.0)), lap.icdf(torch.tensor(0.9)), lap.entropy())
oh = D.OneHotCategorical(probs=torch.tensor([0.1, 0.6, 0.3]))
print(oh.sample((4,)).sum(0).sum(), oh.log_prob(torch.tensor([0.0, 1.0, 0.0])))
bin_ = D.Binomial(10, torch.tensor([0.2, 0.8]))
print(bin_.mean, bin_.log_prob(torch.tensor([2.0, 8.0])))
n = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.cdf(torch.tensor([0.0, 1.0])), n.icdf(torch.tensor([0.5, 0.975])), n.entropy(), n)
print(D.kl_divergence(D.Categorical(probs=torch.tensor([0.5, 0.5])), D.Categorical(probs=torch.tensor([0.9, 0.1]))))
s = n.rsample((2,))
print(s.shape, n.sample().shape, n.batch_shape, n.expand((3, 2)).batch_shape)
try:
    D.Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError", str(e)[:80])
print(D.Categorical(logits=torch.zeros(2, 3)).sample().shape, D.Exponential(torch.tensor([2.0])).rsample((2,)).shape)
''',
    'print_options': r'''\
torch.manual_seed(0)
torch.set_printoptions(precision=6)
print(torch.randn(2, 3), torch.randn(2, dtype=torch.float64))
torch.set_printoptions(precision=1, sci_mode=False)
print(torch.tensor([1e-4, 123.456, 1e5]))
torch.set_printoptions(profile="short")
print(torch.randn(10, 10))
torch.set_printoptions(profile="full")
print(torch.arange(1200).view(30, 40)[:2])
torch.set_printoptions(profile="default")
print(torch.randn(3, 4, 5, 6))
print(torch.arange(3000).view(3, 1000))
print(torch.ones(1001, dtype=torch.bool))
print(torch.randn(1002, dtype=torch.complex64))
print(torch.arange(-1500, 1500, 1).view(2, 1500).float() / 7)
print(torch.zeros(2, 0, 3), torch.zeros(0, dtype=torch.int64), torch.empty(3, 0))
print(torch.tensor([1e-10, 1e10]), torch.tensor([1e-10, 1e10], dtype=torch.float64))
print(torch.tensor([-float("inf"), 1e20, 3.0]), torch.tensor([0.0, -0.0, 1e-30]))
print(torch.tensor([123456789.0]), torch.tensor([1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0]))
print(torch.tensor([[1e-5, 2e-5], [3.5, 1e3]]))
print(torch.tensor([2.0 ** 60]), torch.tensor([2 ** 60]), torch.tensor([-2 ** 63]))
print(torch.tensor(1e-8), torch.tensor(-1.5e12), torch.tensor(float("nan")), torch.tensor(7, dtype=torch.int16))
print(torch.tensor([1.5 + 2j, -0.25 - 1e-3j]), torch.tensor([1e10 + 1j]))
print(torch.tensor([0.1, 0.2], dtype=torch.bfloat16), torch.tensor([65000.0, 0.001], dtype=torch.float16))
x = torch.randn(2, 3, requires_grad=True)
print(x * 1, torch.nn.Parameter(torch.zeros(2)), torch.nn.Parameter(torch.zeros(1), requires_grad=False))
print(torch.randn(2, 2).to_sparse() if False else torch.eye(2).t(), torch.ones(2, 2).T.contiguous())
print(torch.arange(8.).view(2, 2, 2).permute(2, 0, 1), torch.tensor([[True, False]]))
print(torch.linspace(0, 1, 7), torch.logspace(0, 3, 4), torch.arange(0, 1, 0.125))
print(torch.full((2, 2), 1 / 3, dtype=torch.float64), torch.tensor([1 / 3], dtype=torch.float16))
''',
    'seq_transformer': r'''\
nn = torch.nn
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=16, dropout=0.1, activation="gelu", norm_first=True)
src = torch.randn(5, 2, 8)
tgt = torch.randn(4, 2, 8)
tgt_mask = model.generate_square_subsequent_mask(4)
out = model(src, tgt, tgt_mask=tgt_mask)
print(out.shape, out[0, 0])
loss = out.pow(2).mean()
loss.backward()
print(round(loss.item(), 5), model.encoder.layers[0].self_attn.in_proj_weight.grad.abs().sum().round(decimals=3))
model.eval()
with torch.no_grad():
    o2 = model(src, tgt, tgt_mask=tgt_mask, tgt_is_causal=True)
print(o2[-1, 1])
mha = nn.MultiheadAttention(6, 2, kdim=4, vdim=3, dropout=0.0)
q, k, v = torch.randn(3, 1, 6), torch.randn(5, 1, 4), torch.randn(5, 1, 3)
fm = torch.zeros(3, 5)
fm[:, -1] = float("-inf")
o, w = mha(q, k, v, attn_mask=fm)
print(o.shape, w)
print(sorted(n for n, _ in mha.named_parameters()))
dec = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
mem = torch.randn(2, 5, 8)
print(dec(torch.randn(2, 3, 8), mem, memory_key_padding_mask=torch.tensor([[False] * 5, [False] * 3 + [True] * 2]))[1])
q = torch.randn(1, 2, 3, 4)
torch.manual_seed(5)
print(nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=0.5)[0, 0])
''',
    'rnn_dropout': r'''\
nn = torch.nn
torch.manual_seed(0)
gru = nn.GRU(3, 4, num_layers=3, dropout=0.5, batch_first=True)
x = torch.randn(2, 5, 3)
gru.train()
o, h = gru(x)
print(o[:, -1], h.shape)
o2, _ = gru(x)
print(torch.equal(o, o2))
lstm = nn.LSTM(3, 6, proj_size=2, num_layers=2, dropout=0.3)
print(lstm, [tuple(p.shape) for p in lstm.parameters()])
o, (h, c) = lstm(torch.randn(4, 1, 3))
print(o[-1], h.shape, c.shape)
emb = nn.Embedding(6, 3, max_norm=1.0)
ids = torch.tensor([0, 2, 2, 5])
e = emb(ids)
print(e.norm(dim=1), emb.weight.norm(dim=1))
ctc = nn.CTCLoss(blank=0)
logp = torch.randn(6, 2, 4).log_softmax(2).requires_grad_()
targets = torch.tensor([[1, 2], [3, 3]])
l = ctc(logp, targets, torch.tensor([6, 6]), torch.tensor([2, 2]))
l.backward()
print(l, logp.grad[0, 0])
''',
    'module_api': r'''\
nn = torch.nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
        self.head = nn.Linear(4, 2)
    def forward(self, x):
        return self.head(torch.relu(self.body(x)))
net = Net()
print([n for n, _ in net.named_parameters(prefix="model")])
print([n for n, _ in net.named_parameters(recurse=False)], [n for n, _ in net.body.named_buffers()])
sd = net.state_dict(keep_vars=True)
print(type(sd["head.weight"]).__name__, sd["head.weight"].requires_grad, net.state_dict()["head.weight"].requires_grad)
print(list(net.state_dict(prefix="p.").keys())[:2])
x = torch.randn(5, 3)
net(x).sum().backward()
print(net.head.weight.grad.shape)
net.zero_grad()
print(net.head.weight.grad)
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))
net.requires_grad_(True)
net.half()
print(net.head.weight.dtype, net.body[1].running_mean.dtype, net.body[1].num_batches_tracked.dtype)
net.float().to("cpu")
print(net.head.weight.dtype, net.head.weight.device)
@torch.no_grad()
def evaluate(model, x):
    return model(x).requires_grad
print(evaluate(net, x), torch.is_grad_enabled())
@torch.inference_mode()
def infer(model, x):
    return model(x).sum().item()
net.eval()
print(round(infer(net, x), 4))
v = torch.zeros(3)
print(v._version)
v.add_(1); v[0] = 3
print(v._version)
class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.register_buffer("total", torch.zeros(1), persistent=False)
    def forward(self, x):
        self.calls += 1
        self.total += x.sum()
        return x
c = Counter()
c(torch.ones(2)); c(torch.ones(3))
print(c.calls, c.total, c.state_dict(), dict(c.named_buffers()))
print(net.training, net.body[0].training, net.train().body[1].training)
print(nn.Module().__class__.__name__, len(list(nn.Module().parameters())))
h = net.register_forward_hook(lambda m, i, o: o * 0, with_kwargs=False)
print(net(x).abs().sum())
h.remove()
k = net.register_forward_hook(lambda m, a, kw, o: o + 1, with_kwargs=True)
print(net(x)[0])
k.remove()
print(net.get_extra_state() if False else hasattr(net, "head"), net._modules.keys())
''',
    'api_errors': r'''\
nn = torch.nn
data = torch.utils.data
torch.manual_seed(0)
def attempt(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
ds = data.TensorDataset(torch.arange(10.), torch.arange(10))
attempt(lambda: data.random_split(ds, [5, 4]))
attempt(lambda: data.random_split(ds, [0.5, 0.6]))
attempt(lambda: data.TensorDataset(torch.ones(3), torch.ones(4)))
attempt(lambda: ds[10])
attempt(lambda: data.DataLoader(ds, batch_size=0))
attempt(lambda: data.DataLoader(ds, shuffle=True, sampler=data.SequentialSampler(ds)))
attempt(lambda: data.DataLoader(ds, batch_sampler=data.BatchSampler(range(10), 2, False), batch_size=3))
attempt(lambda: len(data.DataLoader(data.ChainDataset([]))))
attempt(lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1))
attempt(lambda: torch.optim.SGD([torch.ones(2)], lr=0.1).step())
attempt(lambda: torch.optim.SGD([nn.Parameter(torch.ones(1))]))
attempt(lambda: torch.optim.Adam([nn.Parameter(torch.ones(1))], betas=(1.0, 0.9)))
attempt(lambda: torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1, nesterov=True))
lin = nn.Linear(2, 2)
attempt(lambda: lin.foo)
def assign():
    lin.weight = torch.ones(2, 2)
attempt(assign)
def assign_mod():
    m = nn.Module()
    m.register_buffer("w", 3)
attempt(assign_mod)
attempt(lambda: nn.Parameter(torch.tensor([1, 2])))
attempt(lambda: torch.tensor([1, 2], requires_grad=True))
attempt(lambda: nn.Module().register_parameter("a.b", None))
attempt(lambda: nn.Sequential(nn.Linear(2, 2))[3])
attempt(lambda: nn.ModuleDict({"a": nn.ReLU()})["b"])
attempt(lambda: nn.ModuleList([1]))
attempt(lambda: lin.load_state_dict({"weight": torch.ones(3, 2), "bias": torch.ones(2)}))
attempt(lambda: lin.get_submodule("x.y"))
attempt(lambda: nn.Linear(2, 2).to("cuda:0") if False else nn.Linear(2, 2).to(torch.int64))
attempt(lambda: torch.optim.lr_scheduler.StepLR(object(), 1))
attempt(lambda: torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD(lin.parameters(), lr=0.1), max_lr=1.0))
def overstep():
    o = torch.optim.SGD(lin.parameters(), lr=0.1)
    s = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=2)
    for _ in range(3):
        o.step(); s.step()
attempt(overstep)
attempt(lambda: nn.functional.softmax(torch.ones(2, 3)).shape)
attempt(lambda: nn.CrossEntropyLoss()(torch.randn(2, 3), torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])).shape)
attempt(lambda: nn.MSELoss()(torch.ones(2), torch.ones(2, dtype=torch.long)))
attempt(lambda: nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0))
attempt(lambda: nn.LayerNorm(4)(torch.ones(2, 3)))
''',
    'mnist_like': r'''\
nn = torch.nn
F = torch.nn.functional
data = torch.utils.data
torch.manual_seed(0)
N = 256
protos = torch.randn(4, 1, 12, 12)
labels = torch.randint(0, 4, (N,))
images = protos[labels] + 0.8 * torch.randn(N, 1, 12, 12)
ds = data.TensorDataset(images, labels)
train, test = data.random_split(ds, [200, 56], generator=torch.Generator().manual_seed(1))
train_dl = data.DataLoader(train, batch_size=25, shuffle=True)
test_dl = data.DataLoader(test, batch_size=56)
class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 6, 3)
        self.c2 = nn.Conv2d(6, 8, 3)
        self.f1 = nn.Linear(8 * 2 * 2, 16)
        self.f2 = nn.Linear(16, 4)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.dropout(x.flatten(1), 0.1, self.training)
        return self.f2(F.relu(self.f1(x)))
net = LeNet()
print(net, sum(p.numel() for p in net.parameters()))
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, 2, 0.5)
for epoch in range(4):
    net.train()
    running, seen = 0.0, 0
    for xb, yb in train_dl:
        opt.zero_grad()
        loss = F.cross_entropy(net(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(yb); seen += len(yb)
    sched.step()
    net.eval()
    with torch.no_grad():
        xb, yb = next(iter(test_dl))
        out = net(xb)
        acc = (out.argmax(1) == yb).float().mean().item()
        tl = F.cross_entropy(out, yb).item()
    print(f"epoch {epoch} train {running / seen:.3f} test {tl:.3f} acc {acc:.3f} lr {sched.get_last_lr()[0]:.5f}")
print(net.c1.weight.grad.abs().mean() > 0, out.softmax(1)[0])
''',
    'autograd_fn_adv': r'''\
torch.manual_seed(0)
F_ = torch.autograd.Function
class SortWithIdx(F_):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        return torch.zeros_like(gv).scatter(0, i, gv)
x = torch.randn(5, requires_grad=True)
v, i = SortWithIdx.apply(x)
print(v.requires_grad, i.requires_grad, i)
(v * torch.arange(5.)).sum().backward()
print(x.grad)
class ScaleInplace(F_):
    @staticmethod
    def forward(ctx, x, k):
        ctx.mark_dirty(x)
        ctx.k = k
        return x.mul_(k)
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
a = torch.ones(3, requires_grad=True)
b = a.clone()
c = ScaleInplace.apply(b, 3.0)
print(c is b, c.grad_fn.name() if hasattr(c.grad_fn, "name") else c.grad_fn)
c.sum().backward()
print(a.grad)
class NewStyle(F_):
    @staticmethod
    def forward(x, w):
        return x * w
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        ctx.save_for_backward(x, w)
    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        return g * w if ctx.needs_input_grad[0] else None, g * x
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0, 4.0], requires_grad=True)
NewStyle.apply(p, q).sum().backward()
print(p.grad, q.grad)
NewStyle.apply(p.detach(), q).sum().backward()
print(q.grad)
class Materialize(F_):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print("g2 is None:", g2 is None)
        return g1
r = torch.ones(2, requires_grad=True)
o1, o2 = Materialize.apply(r)
o1.sum().backward()
print(r.grad)
class Once(F_):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
s = torch.tensor([3.0], requires_grad=True)
g, = torch.autograd.grad(Once.apply(s), s, create_graph=True)
print(g, g.requires_grad)
try:
    g.backward()
except RuntimeError as e:
    print("RuntimeError", str(e).split("\n")[0])
''',
    'hooks_adv': r'''\
nn = torch.nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
log = []
def pre_bwd(mod, gout):
    log.append(("pre", type(mod).__name__, tuple(gout[0].shape)))
    return (gout[0] * 2,)
def bwd(mod, gin, gout):
    log.append(("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin]))
h1 = m[2].register_full_backward_pre_hook(pre_bwd)
h2 = m[0].register_full_backward_hook(bwd)
x = torch.randn(4, 3, requires_grad=True)
m(x).sum().backward()
print(log)
print(m[2].bias.grad)
h1.remove(); h2.remove()
opt_per_param = {}
for p in m.parameters():
    opt_per_param[p] = torch.optim.SGD([p], lr=0.1)
    def step_hook(p):
        opt_per_param[p].step()
        opt_per_param[p].zero_grad()
    p.register_post_accumulate_grad_hook(step_hook)
before = m[2].bias.clone()
m(x).sum().backward()
print(m[2].bias - before, m[2].bias.grad)
q = torch.ones(2, requires_grad=True)
q.register_post_accumulate_grad_hook(lambda p: (p.grad.mul_(0), None))
try:
    (q * 2).sum().backward()
except TypeError as e:
    print("TypeError", e, q.grad)
y = x * 2
y.retain_grad()
z = y.sum() * 3
z.backward()
print(y.grad, y.is_leaf, y.retains_grad)
seen = []
t = torch.ones(2, requires_grad=True)
u = t * 3
u.register_hook(lambda g: seen.append(g.clone()))
u.grad_fn.register_hook(lambda gi, go: seen.append(("node", len(gi), len(go))))
u.grad_fn.register_prehook(lambda go: seen.append(("prenode", go[0].tolist())))
(u ** 2).sum().backward()
print(seen, t.grad)
w = torch.randn(3, requires_grad=True)
handle = w.register_hook(lambda g: g.clamp(max=0.1))
(w * torch.tensor([1.0, -2.0, 0.05])).sum().backward()
print(w.grad)
handle.remove()
ck = torch.utils.checkpoint.checkpoint
lin = nn.Linear(3, 3)
a = torch.randn(2, 3, requires_grad=True)
out = ck(lambda v: torch.tanh(lin(v)) * 2, a, use_reentrant=False)
out.sum().backward()
g1 = a.grad.clone(); a.grad = None
(torch.tanh(lin(a)) * 2).sum().backward()
print(torch.allclose(g1, a.grad), out.grad_fn is not None)
seq = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3), nn.Tanh())
o = torch.utils.checkpoint.checkpoint_sequential(seq, 2, a, use_reentrant=False)
print(o.shape, o.requires_grad)
''',
    'signal_fft': r'''\
torch.manual_seed(0)
fs = 64
t = torch.arange(0, 1, 1 / fs)
sig = torch.sin(2 * torch.pi * 5 * t) + 0.5 * torch.sin(2 * torch.pi * 12 * t) + 0.1 * torch.randn(fs)
spec = torch.fft.rfft(sig)
freqs = torch.fft.rfftfreq(fs, d=1 / fs)
mag = spec.abs()
top = mag.topk(2).indices
print(freqs[top], mag[top].round(decimals=2))
print(torch.allclose(torch.fft.irfft(spec, n=fs), sig, atol=1e-5))
print(torch.fft.fftshift(torch.fft.fftfreq(8)), torch.fft.fft(torch.tensor([1.0, 0.0, 0.0, 0.0])))
win = torch.hann_window(16)
print(win[:4], torch.hamming_window(5, periodic=False), torch.blackman_window(4))
S = torch.stft(sig, n_fft=16, hop_length=8, window=win, return_complex=True)
print(S.shape, S.dtype, S.abs()[5].round(decimals=3))
rec = torch.istft(S, n_fft=16, hop_length=8, window=win, length=fs)
print(torch.allclose(rec, sig, atol=1e-4))
x = torch.randn(32)
k = torch.tensor([0.25, 0.5, 0.25])
conv_direct = torch.nn.functional.conv1d(x.view(1, 1, -1), k.flip(0).view(1, 1, -1), padding=2).flatten()
n = 32 + 3 - 1
conv_fft = torch.fft.irfft(torch.fft.rfft(x, n) * torch.fft.rfft(k, n), n)
print(torch.allclose(conv_direct, conv_fft, atol=1e-5))
img = torch.randn(8, 8)
F2 = torch.fft.fft2(img)
print(F2[0, 0].real.round(decimals=4), torch.allclose(torch.fft.ifft2(F2).real, img, atol=1e-5))
print(torch.fft.rfft2(img).shape, torch.fft.fftn(img, dim=(0,)).shape, torch.fft.hfft(torch.ones(3, dtype=torch.complex64)))
c = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, torch.pi / 2]))
print(c, c.angle(), torch.view_as_real(c), c.conj(), c.real, torch.view_as_complex(torch.tensor([[1.0, -1.0]])))
''',
    'gp_linalg': r'''\
torch.manual_seed(0)
def rbf(a, b, ls=0.5, var=1.0):
    d2 = (a[:, None] - b[None, :]) ** 2
    return var * torch.exp(-0.5 * d2 / ls ** 2)
X = torch.linspace(-2, 2, 8, dtype=torch.float64)
y = torch.sin(2 * X) + 0.05 * torch.randn(8, dtype=torch.float64)
K = rbf(X, X) + 1e-2 * torch.eye(8, dtype=torch.float64)
L = torch.linalg.cholesky(K)
alpha = torch.cholesky_solve(y[:, None], L)
Xs = torch.tensor([-1.0, 0.0, 1.5], dtype=torch.float64)
Ks = rbf(Xs, X)
mean = (Ks @ alpha).squeeze(1)
v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
var = rbf(Xs, Xs).diagonal() - (v ** 2).sum(0)
print(mean, var)
lml = -0.5 * y @ alpha.squeeze(1) - L.diagonal().log().sum() - 4 * torch.log(torch.tensor(2 * torch.pi, dtype=torch.float64))
print(lml)
sign, logdet = torch.linalg.slogdet(K)
print(sign, torch.allclose(logdet, 2 * L.diagonal().log().sum()))
A = torch.randn(4, 4, dtype=torch.float64)
S = A @ A.T
evals, evecs = torch.linalg.eigh(S)
print(evals, torch.allclose(evecs @ torch.diag(evals) @ evecs.T, S))
print(torch.linalg.det(A), torch.linalg.inv(A) @ A - torch.eye(4, dtype=torch.float64) < 1e-10)
print(torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])))
Q, R = torch.linalg.qr(A)
print(torch.allclose(Q @ R, A), R.diagonal().abs())
print(torch.linalg.cond(S).round(), torch.linalg.matrix_norm(A, "fro"), torch.linalg.vector_norm(A, ord=float("inf")))
print(torch.linalg.eigvals(torch.tensor([[2.0, 0.0], [0.0, 3.0]])), torch.trace(S), torch.linalg.multi_dot([A, A, A]).shape)
print(torch.cholesky_inverse(L).allclose(torch.linalg.inv(K)), torch.linalg.lu_factor(A)[1])
try:
    torch.linalg.cholesky(-torch.eye(2))
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
''',
    'repro_setup': r'''\
import random
nn = torch.nn
data = torch.utils.data
Variable = torch.autograd.Variable
def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
set_seed(42)
device = torch.device("cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu")
print(device, torch.backends.cudnn.deterministic, torch.backends.cudnn.is_available(), torch.version.cuda)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
if torch.cuda.device_count() > 1 or True:
    model = nn.DataParallel(model)
print(model)
print(list(model.state_dict())[:2])
ds = data.TensorDataset(torch.randn(20, 4), torch.randint(0, 2, (20,)))
sampler = data.DistributedSampler(ds, num_replicas=2, rank=1, shuffle=True, seed=7)
dl = data.DataLoader(ds, batch_size=4, sampler=sampler)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    sampler.set_epoch(epoch)
    for xb, yb in dl:
        xb, yb = Variable(xb.to(device)), Variable(yb.to(device))
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
    print(epoch, len(sampler), list(sampler)[:4], round(loss.item(), 4))
w = Variable(torch.randn(3), requires_grad=True)
print(w, isinstance(w, Variable), w.requires_grad)
(w * torch.pi).sum().backward()
print(w.grad, torch.e, torch.inf, -torch.inf < 0)
state = {k.replace("module.", ""): v for k, v in model.state_dict().items()}
plain = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
print(plain.load_state_dict(state))
print(torch.backends.cuda.matmul.allow_tf32, torch.get_float32_matmul_precision())
''',
    'tabular': r'''\
nn = torch.nn
torch.manual_seed(0)
N = 64
cat = torch.randint(0, 5, (N, 2))
num = torch.randn(N, 3) * torch.tensor([1.0, 10.0, 0.1]) + torch.tensor([0.0, 50.0, -1.0])
mean, std = num.mean(0), num.std(0)
print(torch.std_mean(num, dim=0), torch.var_mean(num[:, 0], correction=0))
num_n = (num - mean) / std
y = ((cat[:, 0] > 2) ^ (num_n[:, 1] > 0)).float()
class TabNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(5, 3), nn.Embedding(5, 2)])
        self.bn = nn.BatchNorm1d(3)
        self.mlp = nn.Sequential(nn.Linear(3 + 2 + 3, 16), nn.SiLU(), nn.Dropout(0.1), nn.Linear(16, 1))
    def forward(self, c, x):
        e = torch.cat([emb(c[:, i]) for i, emb in enumerate(self.embs)], dim=1)
        return self.mlp(torch.cat([e, self.bn(x)], dim=1)).squeeze(-1)
net = TabNet()
opt = torch.optim.Adam(net.parameters(), lr=0.02)
crit = nn.BCEWithLogitsLoss()
for ep in range(30):
    net.train()
    opt.zero_grad()
    loss = crit(net(cat, num), y)
    loss.backward()
    opt.step()
net.eval()
with torch.no_grad():
    p = torch.sigmoid(net(cat, num))
    pred = torch.round(p)
tp = ((pred == 1) & (y == 1)).sum().item(); fp = ((pred == 1) & (y == 0)).sum().item(); fn = ((pred == 0) & (y == 1)).sum().item()
prec = tp / max(tp + fp, 1); rec = tp / max(tp + fn, 1)
print(round(loss.item(), 4), tp, fp, fn, round(prec, 4), round(rec, 4), round(2 * prec * rec / max(prec + rec, 1e-9), 4))
print(p[:6], net.bn.running_mean, net.bn.running_var)
order = torch.argsort(p, descending=True)
ranks = torch.empty_like(order); ranks[order] = torch.arange(N)
pos = y.bool()
auc = ((ranks[~pos].float().unsqueeze(0) > ranks[pos].float().unsqueeze(1)).float().mean())
print(round(auc.item(), 4))
resid = p - y
print(1 - (resid ** 2).sum() / ((y - y.mean()) ** 2).sum(), torch.corrcoef(torch.stack([p, y]))[0, 1])
''',
    'timeseries': r'''\
nn = torch.nn
torch.manual_seed(0)
t = torch.arange(0, 120, dtype=torch.float32)
series = torch.sin(t * 0.2) + 0.1 * torch.randn(120)
win = 10
windows = series.unfold(0, win + 1, 1)
X, Y = windows[:, :win].unsqueeze(-1), windows[:, win]
print(windows.shape, X.shape, Y[:3])
split = int(0.8 * len(X))
class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 12, batch_first=True)
        self.head = nn.Linear(12, 1)
    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1]).squeeze(-1)
f = Forecaster()
opt = torch.optim.Adam(f.parameters(), lr=0.01)
for epoch in range(15):
    perm = torch.randperm(split)
    for i in range(0, split, 16):
        idx = perm[i:i + 16]
        opt.zero_grad()
        loss = nn.functional.mse_loss(f(X[idx]), Y[idx])
        loss.backward()
        nn.utils.clip_grad_norm_(f.parameters(), 1.0)
        opt.step()
    if epoch % 5 == 4:
        with torch.no_grad():
            pred = f(X[split:])
            mae = (pred - Y[split:]).abs().mean()
        print(epoch, round(loss.item(), 4), round(mae.item(), 4))
with torch.no_grad():
    hist = series[-win:].clone()
    preds = []
    for _ in range(5):
        nxt = f(hist.view(1, win, 1))
        preds.append(nxt.item())
        hist = torch.cat([hist[1:], nxt])
print([round(v, 3) for v in preds])
ma = torch.nn.functional.avg_pool1d(series.view(1, 1, -1), 5, stride=1).flatten()
print(ma[:5], torch.cumsum(series, 0)[-1], series.diff()[:3], torch.nn.functional.pad(series[:3], (2, 0), value=float("nan")))
''',
    'distill_mixup': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 4)).eval()
student = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
X = torch.randn(40, 6)
Y = torch.randint(0, 4, (40,))
T, alpha = 3.0, 0.7
opt = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
beta = torch.distributions.Beta(torch.tensor([0.4]), torch.tensor([0.4]))
for step in range(10):
    lam = beta.sample().item()
    perm = torch.randperm(X.size(0))
    xm = lam * X + (1 - lam) * X[perm]
    with torch.no_grad():
        t_logits = teacher(xm)
    s_logits = student(xm)
    kd = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1), reduction="batchmean") * T * T
    ce = lam * F.cross_entropy(s_logits, Y) + (1 - lam) * F.cross_entropy(s_logits, Y[perm])
    loss = alpha * kd + (1 - alpha) * ce
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 3 == 0:
        print(step, round(lam, 4), round(kd.item(), 4), round(ce.item(), 4))
with torch.no_grad():
    agree = (student(X).argmax(1) == teacher(X).argmax(1)).float().mean()
print(round(agree.item(), 4))
soft = F.one_hot(Y, 4).float() * (1 - 0.1) + 0.1 / 4
print(soft[:2], F.cross_entropy(student(X), soft).round(decimals=4), F.cross_entropy(student(X), Y, label_smoothing=0.1).round(decimals=4))
cut = torch.zeros(1, 3, 8, 8)
cx, cy = torch.randint(8, (2,)).tolist()
x1, x2, y1, y2 = max(cx - 2, 0), min(cx + 2, 8), max(cy - 2, 0), min(cy + 2, 8)
cut[:, :, y1:y2, x1:x2] = 1
print(cx, cy, cut.sum().item(), 1 - (x2 - x1) * (y2 - y1) / 64)
''',
    'augment': r'''\
torch.manual_seed(0)
imgs = torch.rand(4, 3, 8, 8)
mean = imgs.mean(dim=(0, 2, 3))
std = imgs.std(dim=(0, 2, 3))
print(mean, std)
norm = (imgs - mean.view(1, -1, 1, 1)) / std[None, :, None, None]
print(norm.mean(dim=(0, 2, 3)).abs().max() < 1e-6, norm.std(dim=(0, 2, 3)))
flip_mask = torch.rand(4) < 0.5
aug = torch.where(flip_mask[:, None, None, None], imgs.flip(-1), imgs)
print(flip_mask, torch.equal(aug[~flip_mask], imgs[~flip_mask]))
i, j = torch.randint(0, 3, (2,)).tolist()
crop = imgs[:, :, i:i + 6, j:j + 6]
print(i, j, crop.shape, crop.is_contiguous(), crop.contiguous().stride())
gray = (imgs * torch.tensor([0.299, 0.587, 0.114]).view(1, 3, 1, 1)).sum(1, keepdim=True)
print(gray.shape, gray[0, 0, 0, :4])
jitter = (imgs * (1 + 0.2 * (torch.rand(4, 1, 1, 1) - 0.5))).clamp(0, 1)
print(jitter.max() <= 1, jitter[1, 0, 0, :3])
noisy = imgs + 0.05 * torch.randn_like(imgs)
print(torch.nn.functional.mse_loss(noisy, imgs))
rot = torch.rot90(imgs, k=1, dims=(2, 3))
print(torch.equal(rot[0, 0, 0], imgs[0, 0, :, -1]))
uint = (imgs * 255).to(torch.uint8)
print(uint[0, 0, 0], uint.dtype, uint.float().div(255).sub(imgs).abs().max() < 1 / 255)
print(torch.nn.functional.interpolate(imgs, size=(4, 4), mode="area")[0, 0], torch.nn.functional.interpolate(imgs, scale_factor=0.5, mode="bilinear", antialias=True)[0, 0, 0])
patches = imgs.unfold(2, 4, 4).unfold(3, 4, 4)
print(patches.shape, patches.reshape(4, 3, -1, 16).permute(0, 2, 1, 3).reshape(4, 4, 48).shape)
''',
    'bayes_sampling': r'''\
D = torch.distributions
torch.manual_seed(0)
true_p = 0.7
flips = D.Bernoulli(torch.tensor(true_p)).sample((50,))
heads = flips.sum()
post = D.Beta(1 + heads, 1 + 50 - heads)
print(heads, post.mean, post.variance.sqrt())
draws = post.sample((2000,))
print(draws.mean().round(decimals=3), (draws > 0.5).float().mean(), torch.quantile(draws, torch.tensor([0.05, 0.95])))
rates = D.Gamma(torch.tensor([2.0, 5.0]), torch.tensor([1.0, 0.5])).sample((4,))
print(rates)
counts = D.Poisson(rates).sample()
print(counts)
theta = D.Dirichlet(torch.full((4,), 0.5)).sample((3,))
print(theta, theta.sum(-1))
words = D.Categorical(probs=theta).sample((5,))
print(words.T)
nb = D.NegativeBinomial(total_count=torch.tensor(4.0), probs=torch.tensor(0.3)).sample((6,))
print(nb)
t = D.StudentT(df=torch.tensor(3.0)).sample((4,))
chi = D.Chi2(torch.tensor([2.0, 4.0])).sample()
print(t, chi)
log_w = D.Normal(0.0, 1.0).log_prob(draws[:5]) - post.log_prob(draws[:5])
print(log_w.softmax(0))
''',
    'resnet': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
class BasicBlock(nn.Module):
    expansion = 1
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
    def forward(self, x):
        idt = x if self.downsample is None else self.downsample(x)
        out = F.relu(self.bn1(self.conv1(x)), inplace=True)
        return F.relu(self.bn2(self.conv2(out)) + idt)
class TinyResNet(nn.Module):
    def __init__(self, n_cls=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.layer1 = nn.Sequential(BasicBlock(8, 8), BasicBlock(8, 8))
        self.layer2 = nn.Sequential(BasicBlock(8, 16, 2), BasicBlock(16, 16))
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, n_cls)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1); nn.init.constant_(m.bias, 0)
    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(self.pool(x), 1))
net = TinyResNet()
print(net.layer2)
n = sum(p.numel() for p in net.parameters())
print(f"{n:,} parameters", sum(1 for m in net.modules() if isinstance(m, nn.Conv2d)), "convs")
x = torch.randn(2, 3, 16, 16)
out = net(x)
print(out.shape, out)
out.logsumexp(1).sum().backward()
print(net.stem[0].weight.grad.norm().round(decimals=4), net.layer2[0].downsample[1].weight.grad)
net.eval()
with torch.no_grad():
    print(net(x).argmax(1), net.layer1[0].bn1.running_var[:4])
feats = {}
net.layer2.register_forward_hook(lambda m, i, o: feats.__setitem__("l2", o.shape))
net(x[:1])
print(feats)
cl = net.to(memory_format=torch.channels_last)
print(cl.stem[0].weight.stride(), cl(x.to(memory_format=torch.channels_last)).shape)
print(nn.utils.parameters_to_vector(net.fc.parameters()).shape)
''',
    'amp_scaler': r'''\
nn = torch.nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
use_amp = False
scaler = torch.amp.GradScaler("cpu", enabled=use_amp)
print(scaler.is_enabled(), scaler.get_scale() if use_amp else "off")
X, Y = torch.randn(16, 4), torch.randn(16, 1)
for step in range(3):
    opt.zero_grad(set_to_none=True)
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=use_amp):
        loss = nn.functional.mse_loss(model(X), Y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    scaler.step(opt)
    scaler.update()
    print(step, round(loss.item(), 5))
s2 = torch.amp.GradScaler("cpu", init_scale=2.0 ** 8, growth_interval=1)
print(s2.is_enabled(), s2.get_scale(), s2.state_dict())
loss = nn.functional.mse_loss(model(X), Y)
s2.scale(loss).backward()
print(round(model[0].bias.grad.abs().sum().item() / 256, 5))
s2.step(opt); s2.update()
print(s2.get_scale(), s2.get_growth_factor(), s2.get_backoff_factor())
print(torch.cuda.amp.GradScaler(enabled=False).is_enabled(), torch.cuda.is_available())
''',
    'reinforce_dqn': r'''\
import random
import collections
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
random.seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99
for episode in range(3):
    log_probs, rewards, entropies = [], [], []
    state = torch.randn(4)
    for t in range(6):
        dist = torch.distributions.Categorical(logits=policy(state))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        rewards.append(1.0 if action.item() == int(state[0] > 0) else 0.0)
        state = state + 0.1 * torch.randn(4)
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(log_probs) * returns).sum() - 0.01 * torch.stack(entropies).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    print(episode, rewards, round(loss.item(), 4))
Transition = collections.namedtuple("Transition", "s a r s2 done")
buffer = collections.deque(maxlen=50)
for i in range(40):
    s = torch.randn(4)
    buffer.append(Transition(s, random.randrange(2), random.random(), s + 0.1, i % 10 == 9))
q_net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
target = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
target.load_state_dict(q_net.state_dict())
target.eval()
qopt = torch.optim.RMSprop(q_net.parameters(), lr=1e-3)
for step in range(3):
    batch = Transition(*zip(*random.sample(buffer, 8)))
    s = torch.stack(batch.s); a = torch.tensor(batch.a); r = torch.tensor(batch.r, dtype=torch.float32)
    s2 = torch.stack(batch.s2); done = torch.tensor(batch.done, dtype=torch.float32)
    q = q_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        tgt = r + gamma * target(s2).max(1).values * (1 - done)
    loss = F.smooth_l1_loss(q, tgt)
    qopt.zero_grad(); loss.backward()
    for p in q_net.parameters():
        p.grad.data.clamp_(-1, 1)
    qopt.step()
    print(step, a.tolist(), round(loss.item(), 5))
eps = 0.1
state = torch.randn(4)
act = random.randrange(2) if random.random() < eps else q_net(state).argmax().item()
print(act, type(act).__name__)
tau = 0.05
for tp, p in zip(target.parameters(), q_net.parameters()):
    tp.data.copy_(tau * p.data + (1 - tau) * tp.data)
print(target[0].bias[:3])
''',
    'pretrained_emb': r'''\
nn = torch.nn
torch.manual_seed(0)
vectors = torch.randn(6, 4)
emb = nn.Embedding.from_pretrained(vectors, freeze=True, padding_idx=0)
print(emb, emb.weight.requires_grad)
print(emb(torch.tensor([[1, 0, 3]])))
emb2 = nn.Embedding.from_pretrained(vectors, freeze=False)
bag = nn.EmbeddingBag.from_pretrained(vectors, mode="max")
print(bag(torch.tensor([[1, 2], [3, 4]])))
vocab = {w: i for i, w in enumerate(["<pad>", "the", "cat", "sat", "on", "mat"])}
sents = ["the cat sat", "the cat sat on the mat", "mat"]
ids = [torch.tensor([vocab[w] for w in s.split()]) for s in sents]
pad = nn.utils.rnn.pad_sequence(ids, batch_first=True, padding_value=vocab["<pad>"])
print(pad)
mask = pad != 0
e = emb2(pad)
mean = (e * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
print(mean)
sim = nn.functional.cosine_similarity(mean.unsqueeze(1), mean.unsqueeze(0), dim=-1)
print(sim)
mean.sum().backward()
print(emb2.weight.grad)
near = torch.topk(nn.functional.normalize(vectors, dim=1) @ nn.functional.normalize(vectors[2], dim=0), 3)
print(near)
inv = {i: w for w, i in vocab.items()}
print([inv[i] for i in near.indices.tolist()])
''',
    'tensor_ops_misc': r'''\
torch.manual_seed(0)
a = torch.randn(3, 4)
b = torch.randint(-5, 5, (3, 4))
print(b.type_as(a), a.new_tensor([1, 2]).dtype, torch.ones(2).expand_as(torch.zeros(3, 2)).shape, a.view_as(torch.zeros(4, 3)).shape)
print(torch.arange(3).repeat(2, 2), torch.arange(3).tile((2,)), torch.arange(4).view(2, 2).repeat_interleave(2, dim=0))
print(torch.std(a, unbiased=False), a.std(dim=1, correction=0), torch.histogram(a.flatten(), bins=4))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [3, 4]]), dim=0, return_counts=True))
print(torch.cdist(a, a, p=1)[0], torch.cummin(torch.tensor([3, 1, 2, 0]), 0), torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0]), 0))
print(torch.erfinv(torch.tensor([0.0, 0.5, -0.9])), torch.special.expit(torch.tensor([0.0])), torch.special.logit(torch.tensor([0.25])))
print(torch.atan2(torch.tensor([1.0, -1.0]), torch.tensor([-1.0, -1.0])), torch.hypot(torch.tensor([3.0]), torch.tensor([4.0])))
print(torch.fmod(torch.tensor([-7, 7]), 3), torch.remainder(torch.tensor([-7, 7]), 3), torch.tensor([-7, 7]) % -3)
print(torch.div(torch.tensor([-7, 7]), 2, rounding_mode="floor"), torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"), torch.tensor([-7, 7]) // 2)
print(torch.tensor([2 ** 62]) * 4, torch.tensor([127], dtype=torch.int8) + 1, torch.tensor([250], dtype=torch.uint8) * 2)
print(torch.clip(a, -0.5, 0.5)[0], torch.frac(torch.tensor([-1.5, 2.25])), torch.trunc(torch.tensor([-1.5, 2.7])))
print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5])), torch.signbit(torch.tensor([-0.0, 0.0, -1.0])))
print(torch.special.gammaln(torch.tensor([0.5, 5.0])), torch.special.i0(torch.tensor([1.0])), torch.special.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])))
print(torch.special.entr(torch.tensor([0.5, 0.0])), torch.special.sinc(torch.tensor([0.0, 0.5])), torch.special.ndtr(torch.tensor([1.0])), torch.special.log_ndtr(torch.tensor([-3.0])))
print(torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5])), torch.isfinite(torch.tensor([1.0, float("inf")])), torch.isnan(torch.tensor([float("nan")])))
print(a.T @ a - (a.t().mm(a)) == 0, torch.tensordot(a, a, dims=([1], [1])).shape, torch.kron(torch.eye(2), torch.ones(2, 2)))
print(torch.cross(torch.tensor([[1.0, 0, 0]]), torch.tensor([[0.0, 1, 0]]), dim=1), torch.dist(a[0], a[1]), torch.renorm(a, 2, 0, 1.0).norm(dim=1))
print(torch.diag_embed(torch.tensor([1, 2])), torch.diagflat(torch.tensor([[1, 2]])), torch.triu(torch.ones(3, 3), diagonal=1))
print(torch.flatten(torch.arange(24).view(2, 3, 4), 1, 2).shape, torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape, torch.swapaxes(torch.zeros(2, 3), 0, 1).shape)
print(torch.amax(a, dim=(0, 1)), torch.aminmax(a), torch.argmax(a), torch.all(a > -5), torch.any(a > 5, dim=1))
print(torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])), torch.lcm(torch.tensor([4]), torch.tensor([6])), torch.bitwise_xor(torch.tensor([5]), 3), torch.tensor([1]) << 3)
print(torch.sgn(torch.tensor([3 + 4j])), torch.log1p(torch.tensor([1e-10])), torch.expm1(torch.tensor([1e-10])), torch.exp2(torch.tensor([3.0])), torch.float_power(torch.tensor([2]), 3))
print(torch.deg2rad(torch.tensor([180.0])), torch.rad2deg(torch.tensor([torch.pi])), torch.rsqrt(torch.tensor([4.0])), torch.square(torch.tensor([3])), torch.reciprocal(torch.tensor([2, 4])))
print(a.apply_(lambda v: round(v, 1))[0] if False else a.clone().apply_(lambda v: round(v, 1))[0], torch.trapezoid(torch.tensor([1.0, 2.0, 3.0])), torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 3.0])))
''',
    'reprs': r'''\
nn = torch.nn
torch.manual_seed(0)
a = torch.randn(3, 4)
print(a.max(dim=1), torch.sort(a[0]), a.topk(2), torch.linalg.slogdet(torch.eye(2)), torch.aminmax(a, dim=0))
print(repr(torch.float32), torch.device("cpu"), repr(torch.device("cpu", 0) if False else torch.device("cpu")), torch.Size([]), torch.Size([0, 1]))
print(torch.finfo(torch.float32), torch.iinfo(torch.int16))
print([torch.tensor(1.5), torch.tensor([1, 2])], {"w": torch.zeros(2)}, (torch.ones(1),))
print(nn.Parameter(torch.randn(30, 40))[0, :3], nn.Parameter(torch.randn(1100)))
opt = torch.optim.SGD([{"params": [nn.Parameter(torch.ones(1))]}, {"params": [nn.Parameter(torch.ones(1))], "lr": 0.5, "momentum": 0.9}], lr=0.1)
print(opt)
print(torch.optim.Adam([nn.Parameter(torch.ones(1))], lr=0.01, amsgrad=True))
print(torch.randn(1100, dtype=torch.float16), torch.randint(-10 ** 9, 10 ** 9, (1200,)))
print(torch.randn(2, 1100, dtype=torch.complex128) * 1000)
print(torch.randn(4, 300, requires_grad=True) * 2)
print(torch.tensor([1e-3, 1e4, 5]).to(torch.float64), torch.tensor([[0.5], [1e-4]]))
print(torch.tensor([True] * 2000).view(2, 1000))
print(torch.nn.functional.softmax(torch.tensor([1000.0, 0.0]), 0), torch.tensor([5e-324], dtype=torch.float64), torch.tensor([3.4e38]) * 10)
print(torch.arange(6).view(2, 3).t(), torch.arange(6).view(2, 3).t().contiguous().is_contiguous())
print(torch.empty(0, 2, 3).sum(0), torch.zeros(2, 2).to_dense() if hasattr(torch.Tensor, "to_dense") else torch.zeros(2, 2))
print(nn.ModuleList(), nn.Sequential(), nn.ModuleDict(), nn.ParameterList([nn.Parameter(torch.ones(2, 2))]), nn.ParameterDict({"a": nn.Parameter(torch.zeros(3))}))
print(torch.Generator().manual_seed(3).initial_seed(), torch.tensor([1.0]).storage_offset(), torch.tensor([[1, 2]]).stride())
print(torch.tensor(2.5).item(), torch.tensor([7]).tolist(), torch.tensor([[1.5]]).numpy(), torch.tensor(3).dim(), torch.zeros(2, 3).ndimension())
''',
    'workers': r'''\
data = torch.utils.data
torch.manual_seed(0)
class Squares(data.Dataset):
    def __len__(self):
        return 10
    def __getitem__(self, i):
        info = data.get_worker_info()
        return torch.tensor([i, i * i]), (info.id if info is not None else -1) >= 0
dl = data.DataLoader(Squares(), batch_size=3, num_workers=2, shuffle=True, generator=torch.Generator().manual_seed(1))
for xb, in_worker in dl:
    print(xb.tolist(), in_worker.tolist())
print(len(dl), data.get_worker_info())
dl2 = data.DataLoader(Squares(), batch_size=4, num_workers=2, persistent_workers=True, prefetch_factor=2)
for epoch in range(2):
    print([b[0][:, 0].tolist() for b in dl2])
class Noisy(data.Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        return torch.rand(1).item()
g = torch.Generator().manual_seed(5)
a = [round(v, 4) for b in data.DataLoader(Noisy(), batch_size=2, num_workers=2, generator=g) for v in b.tolist()]
print(len(a), all(0 <= v < 1 for v in a))
''',
    'numpy_mix': r'''\
torch.manual_seed(0)
t = torch.tensor([1.0, 2.0, 3.0])
r = np.float64(2.0) * t
print(type(r).__name__, r, r.dtype)
r2 = t * np.float32(0.5)
print(type(r2).__name__, r2.dtype, (t + np.int64(1)).dtype, (np.int64(2) ** t).dtype if False else (t ** np.int64(2)).dtype)
print(type(np.float64(1.5) + t).__name__, type(t / np.float64(2)).__name__)
arr = np.array([1.0, 2.0, 3.0])
print(t + arr, t * arr, arr / t, t == arr)
print(torch.tensor([np.float32(1.5), np.float32(2.5)]).dtype, torch.tensor(np.array([1, 2], dtype=np.int32)).dtype)
losses = [torch.tensor(0.5), torch.tensor(0.25)]
print(np.mean([l.item() for l in losses]), float(np.mean(np.array([l.item() for l in losses]))))
print(torch.tensor(np.float32(3.0)).dtype, torch.tensor(np.bool_(True)), torch.full((2,), np.float64(1.5)).dtype)
print(torch.arange(np.int64(3)), torch.zeros(np.int64(2), 2).shape, t[np.int64(1)], t[np.array([0, 2])])
idx = np.array([True, False, True])
print(t[idx], t[torch.from_numpy(idx)])
t2 = t.clone()
t2[np.array([0])] = np.float64(9.0)
t2[1] = np.int32(7)
print(t2)
try:
    t2[2] = np.float32(5.0)
except TypeError as e:
    print("TypeError", e)
t2[2] = float(np.float32(5.0))
print(t2)
print(np.allclose(t.numpy(), [1, 2, 3]), np.array(t).dtype, np.asarray([t, t]).shape if False else np.stack([t.numpy(), t.numpy()]).shape)
print(torch.as_tensor([1, 2], dtype=torch.float16), torch.tensor(np.array(5)), torch.tensor(np.array([[1.5]])).shape)
print(t.max().item() > np.float32(2.5), round(float(t.mean()), 3), int(t.argmax()), t.sum() == 6)
print(torch.tensor([1, 2]) == np.int64(2), torch.tensor(np.uint8(200)).dtype)
print(np.float32(2) * torch.ones(2, dtype=torch.float16), (torch.ones(2, dtype=torch.int32) * np.float64(1.5)).dtype)
''',
    'numpy_ufuncs': r'''\
nn = torch.nn
torch.manual_seed(0)
model = nn.Sequential(nn.Embedding(12, 6), nn.Flatten(), nn.Linear(18, 12))
x = torch.randint(0, 12, (8, 3))
y = torch.randint(0, 12, (8,))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
history = []
for step in range(5):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    history.append(loss.item())
    with torch.no_grad():
        ppl = np.exp(loss.detach())
    print(step, ppl, f"{float(ppl):.3f}", type(ppl).__name__)
print(np.mean(history).round(4), np.std(history).round(4), np.argmin(history))
arr = np.array(history)
print(np.round(arr / arr.max(), 3), torch.from_numpy(arr).dtype)
with torch.no_grad():
    probs = model(x).softmax(-1)
print(np.log(probs[0, :3]), np.maximum(probs[0, :3], 0.1), np.isfinite(probs[0, :2]))
print(np.clip(probs[1, :3], 0.05, 0.07), np.sqrt(torch.tensor([4.0, 9.0])), np.negative(torch.tensor(3)))
w = model[2].weight.detach()
print(np.linalg.norm(w.numpy()).round(4), w.norm().round(decimals=4), np.abs(w[0, :3]))
print(np.multiply(torch.tensor([1.0, 2.0]), np.float32(3.0)), np.add(np.array([1.0]), torch.tensor([2.0])))
''',
    'python_protocols': r'''\
import math
torch.manual_seed(0)
s = torch.tensor(2.567)
v = torch.tensor([1.25, 2.5])
def attempt(name, f):
    try:
        r = f()
        print(name, type(r).__name__, r)
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0])
attempt("fmt0d", lambda: f"{s:.2f}")
attempt("fmt1d", lambda: f"{v:.2f}")
attempt("fmtint", lambda: f"{torch.tensor(7):03d}")
attempt("fmtempty", lambda: f"{v}")
attempt("percent", lambda: "%.3f" % s)
attempt("round", lambda: round(s))
attempt("round2", lambda: round(s, 2))
attempt("round1d", lambda: round(v))
attempt("floor", lambda: math.floor(s))
attempt("ceil", lambda: math.ceil(s))
attempt("trunc", lambda: math.trunc(s))
attempt("isclose", lambda: math.isclose(s, 2.567, rel_tol=1e-6))
attempt("sqrt", lambda: math.sqrt(s))
attempt("exp", lambda: math.exp(torch.tensor([1.0])))
attempt("int", lambda: int(s))
attempt("index", lambda: [10, 20, 30][torch.tensor(1)])
attempt("index_float", lambda: [10, 20, 30][torch.tensor(1.0)])
attempt("range", lambda: list(range(torch.tensor(3))))
attempt("divmod", lambda: divmod(torch.tensor(7), 2))
attempt("abs", lambda: abs(torch.tensor(-3)))
attempt("hash", lambda: hash(s) == hash(s))
attempt("bool_empty", lambda: bool(torch.tensor([])))
attempt("in", lambda: 2.5 in v)
attempt("in_list", lambda: v in [v])
attempt("max_py", lambda: max(torch.tensor([3, 1, 2])))
attempt("sorted", lambda: sorted(torch.tensor([3, 1, 2])))
attempt("sum_py", lambda: sum(torch.tensor([1.5, 2.5])))
attempt("min_list", lambda: min([torch.tensor(2.0), torch.tensor(1.0)]))
attempt("float_1d", lambda: float(v))
attempt("complex", lambda: complex(torch.tensor(1.5)))
attempt("neg0", lambda: -torch.tensor(0.0))
attempt("pow_py", lambda: 2 ** torch.tensor([1, 2]))
attempt("rdiv_int", lambda: 1 / torch.tensor([2, 4]))
attempt("floordiv_neg", lambda: -7 // torch.tensor(2))
attempt("list_of_t", lambda: torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
attempt("list_mixed", lambda: torch.tensor([torch.tensor(1), 2.5]))
attempt("stack_py", lambda: torch.stack([torch.tensor(1.0), torch.tensor(2)]))
attempt("zip", lambda: [(a.item(), b) for a, b in zip(v, "ab")])
attempt("unpack", lambda: (lambda a, b: a + b)(*v))
attempt("dict_key", lambda: {torch.tensor(1): "a"}[torch.tensor(1)])
attempt("iter0d", lambda: list(torch.tensor(1)))
attempt("len0d", lambda: len(torch.tensor(1)))
attempt("reversed", lambda: list(reversed(torch.arange(3))))
attempt("numpy_int", lambda: np.arange(5)[torch.tensor(2)])
attempt("numpy_idx", lambda: np.arange(5)[torch.tensor([1, 3])])
''',
    'finetune_recipe': r'''\
import math
nn = torch.nn
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
    def forward(self, x):
        return x + self.ff(self.ln(x))
model = nn.Sequential(nn.Linear(5, 8), Block(8), Block(8), nn.LayerNorm(8), nn.Linear(8, 3))
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if p.ndim == 1 or "ln" in name else decay).append(p)
print(len(decay), len(no_decay), sum(p.numel() for p in decay))
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=3e-3, betas=(0.9, 0.95))
total, warmup = 12, 3
def lr_lambda(step):
    if step < warmup:
        return (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * (1 + math.cos(math.pi * progress))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
steps_seen = []
h = opt.register_step_post_hook(lambda o, args, kwargs: steps_seen.append(len(o.state)))
X, Y = torch.randn(24, 5), torch.randint(0, 3, (24,))
accum = 3
for step in range(total):
    for micro in range(accum):
        xb, yb = X[micro * 8:(micro + 1) * 8], Y[micro * 8:(micro + 1) * 8]
        loss = nn.functional.cross_entropy(model(xb), yb) / accum
        loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step(); opt.zero_grad(set_to_none=True); sched.step()
    if step % 4 == 0:
        print(step, round(loss.item() * accum, 4), round(gn.item(), 4), [f"{g['lr']:.2e}" for g in opt.param_groups])
h.remove()
print(steps_seen[:3], len(steps_seen))
sd = opt.state_dict()
print([(g["weight_decay"], len(g["params"])) for g in sd["param_groups"]], sd["param_groups"][0]["betas"])
print(sorted(sd["state"][0].keys()), sd["state"][0]["step"])
for g in opt.param_groups:
    g["lr"] = 1e-4
print(sched.get_last_lr(), [g["lr"] for g in opt.param_groups])
model.eval()
with torch.no_grad():
    print(model(X[:2]).softmax(-1))
''',
    'gnn': r'''\
nn = torch.nn
torch.manual_seed(0)
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 4, 5], [1, 0, 2, 1, 4, 3, 5, 4]])
N = 6
x = torch.randn(N, 4)
y = torch.tensor([0, 0, 0, 1, 1, 1])
class GCNLayer(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.lin = nn.Linear(din, dout, bias=False)
        self.bias = nn.Parameter(torch.zeros(dout))
    def forward(self, x, edge_index):
        loops = torch.arange(x.size(0)).repeat(2, 1)
        ei = torch.cat([edge_index, loops], dim=1)
        src, dst = ei
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel()))
        norm = deg[src].rsqrt() * deg[dst].rsqrt()
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, dst, h[src] * norm[:, None])
        return out + self.bias
class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = GCNLayer(4, 8)
        self.l2 = GCNLayer(8, 2)
    def forward(self, x, ei):
        return self.l2(torch.relu(self.l1(x, ei)), ei)
g = GCN()
opt = torch.optim.Adam(g.parameters(), lr=0.05, weight_decay=5e-4)
train_mask = torch.tensor([True, False, False, True, False, False])
for epoch in range(20):
    opt.zero_grad()
    out = g(x, edge_index)
    loss = nn.functional.cross_entropy(out[train_mask], y[train_mask])
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        pred = out.argmax(1)
        print(epoch, round(loss.item(), 4), pred.tolist(), (pred[~train_mask] == y[~train_mask]).float().mean().item())
A = torch.zeros(N, N)
A[edge_index[0], edge_index[1]] = 1
print(A.sum(1), torch.equal(A, A.T), torch.linalg.matrix_power(A, 2)[0])
agg = torch.zeros(N, 4).scatter_reduce(0, edge_index[1].unsqueeze(1).expand(-1, 4), x[edge_index[0]], reduce="mean", include_self=False)
print(agg)
print(torch.zeros(N).scatter_add(0, edge_index[1], torch.ones(8)), torch.bincount(edge_index[1], minlength=N))
''',
    'numpy_array_operands': r'''\
torch.manual_seed(0)
weights = np.array([0.5, 1.0, 2.0], dtype=np.float32)
t = torch.tensor([1.0, 2.0, 3.0])
def attempt(name, f):
    try:
        r = f()
        print(name, type(r).__name__, r)
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0])
attempt("t*w", lambda: t * weights)
attempt("w*t", lambda: weights * t)
attempt("w+t", lambda: weights + t)
attempt("w-t", lambda: weights - t)
attempt("w/t", lambda: weights / t)
attempt("w**t", lambda: weights ** t)
attempt("t<w", lambda: t < weights)
attempt("t!=w", lambda: t != weights)
attempt("np.add", lambda: np.add(weights, t))
attempt("np.float64*t", lambda: np.float64(2.0) * t)
attempt("0d+t", lambda: np.array(2.0) + t)
attempt("t&w", lambda: torch.tensor([1, 2]) & np.array([3, 1]))
attempt("w&t", lambda: np.array([3, 1]) & torch.tensor([1, 2]))
attempt("t@w", lambda: torch.ones(3) @ np.ones(3))
attempt("sum", lambda: (t * weights).sum())
''',
    'pruning': r'''\
nn = torch.nn
import importlib
prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 2))
prune.l1_unstructured(model[0], name="weight", amount=0.5)
print(sorted(n for n, _ in model[0].named_parameters()), sorted(n for n, _ in model[0].named_buffers()))
print(model[0].weight_mask)
print(int((model[0].weight == 0).sum()), model[0].weight.numel())
prune.random_unstructured(model[2], name="bias", amount=1)
print(model[2].bias_mask, model[2].bias)
prune.ln_structured(model[2], name="weight", amount=0.5, n=2, dim=0)
print(model[2].weight_mask)
print(list(model[0]._forward_pre_hooks.values())[0].__class__.__name__)
out = model(torch.randn(3, 6))
out.sum().backward()
print(model[0].weight_orig.grad * (1 - model[0].weight_mask))
prune.remove(model[0], "weight")
print(sorted(n for n, _ in model[0].named_parameters()), prune.is_pruned(model[0]), prune.is_pruned(model))
params = [(model[0], "weight"), (model[2], "weight")]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=4)
print(sum(int((m.weight == 0).sum()) for m, _ in params))
''',
    'inference_mode': r'''\
nn = torch.nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
x = torch.randn(4, 3)
with torch.inference_mode():
    feats = model(x)
    print(feats.requires_grad, feats.is_inference(), torch.is_inference_mode_enabled())
print(x.is_inference(), model.weight.is_inference())
try:
    loss = (model(feats.sum(1, keepdim=True).expand(4, 3)) ** 2).sum()
    loss.backward()
    print("backward ok", model.weight.grad.shape)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
try:
    feats.add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
with torch.inference_mode(False):
    print((x * 2).is_inference())
print(feats.clone().is_inference())
''',
    'sparse_embedding': '\\\nnn = torch.nn\ntorch.manual_seed(0)\nclass BagModel(nn.Module):\n    def __init__(self, vocab, dim, ncls):\n        super().__init__()\n        self.emb = nn.EmbeddingBag(vocab, dim, mode="sum", sparse=True)\n        self.fc = nn.Linear(dim, ncls)\n    def forward(self, ids, offsets):\n        return self.fc(self.emb(ids, offsets))\nmodel = BagModel(20, 4, 2)\nsparse_params = list(model.emb.parameters())\ndense_params = list(model.fc.parameters())\nopt_sparse = torch.optim.SparseAdam(sparse_params, lr=0.05)\nopt_dense = torch.optim.Adam(dense_params, lr=0.05)\nids = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])\noffsets = torch.tensor([0, 4])\ny = torch.tensor([0, 1])\nfor step in range(3):\n    opt_sparse.zero_grad(); opt_dense.zero_grad()\n    loss = nn.functional.cross_entropy(model(ids, offsets), y)\n    loss.backward()\n    g = model.emb.weight.grad\n    print(step, round(loss.item(), 4), g.is_sparse, g.layout)\n    print(g.coalesce().indices(), g.to_dense()[4])\n    opt_sparse.step(); opt_dense.step()\nprint(model.emb.weight[0], model.emb.weight[4])\n',
    'jit': r'''\
import io
nn = torch.nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.fc = nn.Linear(8, 3)
    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).flatten(1))
m = Net().eval()
x = torch.randn(2, 1, 4, 4)
traced = torch.jit.trace(m, x)
print(type(traced).__name__, torch.allclose(traced(x), m(x)))
print(isinstance(traced, torch.jit.ScriptModule), torch.jit.is_scripting(), torch.jit.is_tracing())
print(traced.conv.weight.shape, sorted(traced.state_dict().keys()))
buf = io.BytesIO()
torch.jit.save(traced, buf)
buf.seek(0)
loaded = torch.jit.load(buf)
print(torch.allclose(loaded(x), m(x)), type(loaded).__name__)
frozen = torch.jit.freeze(torch.jit.trace(m, x))
print(torch.allclose(frozen(x * 2), m(x * 2)))
with torch.no_grad():
    print(traced(torch.ones(1, 1, 4, 4)))
''',
}

# Where ember differs from torch today: (reason, program), run as strict xfails so that a fix
# shows up as XPASS and the program moves to PROGRAMS.
BUGS = {}


@pytest.mark.parametrize("program", cases(PROGRAMS, BUGS))
def test_program_prints_like_torch(program):
    expected, got = compare(program)
    assert got == expected


def test_programs_are_long_and_distinct():
    programs = list(PROGRAMS.values()) + [p for _, p in BUGS.values()]
    assert len(set(programs)) == len(programs) >= 30
    assert all(program.count("\n") >= 15 for program in programs)
