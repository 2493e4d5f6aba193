"""Whole programs of the kinds people write, each mixing many APIs, run under real torch and
under ember (`import ember as torch`): what they print (shapes, dtypes, rounded values, printed
modules and optimizers, losses per step, exceptions and warnings a user meets) must be
identical. REINFORCE and actor-critic with torch.distributions, VAEs, a DCGAN step, EmbeddingBag
text classification, a GRU seq2seq with attention over packed sequences, a Transformer LM, per-
sample gradients and Hessians with torch.func (and a BatchNorm model under vmap, which torch
refuses in training mode), physics-informed losses, normalizing flows, GNNs by hand, metric
learning, data utilities and worker seeding, checkpoints, parametrizations and pruning, hooks
and model surgery, CPU autocast, torch.compile, U-Net, DQN, PPO, VQ-VAE, Gaussian processes
and k-means, neural ODEs and mixtures of experts, char-RNN sampling, audio features and a
WaveNet, WGAN-GP, MAML, checkpointing and custom Functions, metrics, printing, LLaMA-style
rotary attention, beam search, recommenders with sparse gradients, augmentation, linear
algebra, samplers, meta-device initialisation and Python's operators on tensors, a vmap
ensemble with dropout (randomness="different"), float16/bfloat16 training steps and
nll_loss sums printed in full.

Where torch's float32 kernels sum in another order than NumPy's (BLAS matmuls, convolutions'
double backward, SLEEF's exp inside softmax), a printed value can differ in its last digit:
those prints round to fewer digits (`round(x, 4)`, `.round(decimals=...)`).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    'reinforce': r'''
nn = torch.nn; F = torch.nn.functional
Categorical = torch.distributions.Categorical
torch.manual_seed(0)
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 16); self.l2 = nn.Linear(16, 2)
    def forward(self, x):
        return F.softmax(self.l2(F.relu(self.l1(x))), dim=-1)
pi = Policy()
opt = torch.optim.Adam(pi.parameters(), lr=1e-2)
gamma = 0.99
for ep in range(3):
    log_probs, rewards, ents = [], [], []
    state = torch.randn(4)
    for t in range(6):
        probs = pi(state)
        m = Categorical(probs)
        a = m.sample()
        log_probs.append(m.log_prob(a))
        ents.append(m.entropy())
        rewards.append(float(a.item() == 1) - 0.1 * t)
        state = state * 0.9 + torch.randn(4) * 0.1
    R = 0; returns = []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = (-torch.stack(log_probs) * returns).sum() - 0.01 * torch.stack(ents).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(ep, round(loss.item(), 4), returns.dtype, [round(x, 3) for x in returns.tolist()])
print(m, m.probs.shape, m.logits)
print(Categorical(logits=torch.tensor([[1.0, 2.0, 3.0]])).sample((2,)).shape)
print(m.log_prob(torch.tensor([0, 1])))
''',
    'actor_critic': r'''
nn = torch.nn; F = torch.nn.functional
Normal = torch.distributions.Normal
Independent = torch.distributions.Independent
torch.manual_seed(1)
class AC(nn.Module):
    def __init__(self, obs=3, act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 32), nn.Tanh())
        self.mu = nn.Linear(32, act)
        self.log_std = nn.Parameter(torch.zeros(act))
        self.v = nn.Linear(32, 1)
    def forward(self, x):
        h = self.body(x)
        return self.mu(h), self.log_std.exp().expand_as(self.mu(h)), self.v(h).squeeze(-1)
net = AC()
print(net)
opt = torch.optim.RMSprop(net.parameters(), lr=3e-3, alpha=0.99, eps=1e-5)
obs = torch.randn(8, 3)
for it in range(4):
    mu, std, v = net(obs)
    dist = Normal(mu, std)
    a = dist.sample()
    lp = dist.log_prob(a).sum(-1)
    ind = Independent(Normal(mu, std), 1)
    assert torch.allclose(ind.log_prob(a), lp)
    rew = -(a ** 2).sum(-1)
    adv = rew - v.detach()
    adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
    actor = -(lp * adv).mean()
    critic = F.smooth_l1_loss(v, rew)
    ent = dist.entropy().sum(-1).mean()
    loss = actor + 0.5 * critic - 0.01 * ent
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    opt.step()
    print(it, f"{loss.item():.4f} {critic.item():.4f} {ent.item():.4f} gn={gn:.3f}")
print(ind, ind.batch_shape, ind.event_shape)
print(dist.rsample((2,)).shape, dist.mean.shape, dist.stddev[0])
print(Normal(0., 1.).cdf(torch.tensor([0., 1.96])), Normal(torch.tensor(0.), 1.).icdf(torch.tensor(0.975)))
try:
    Normal(torch.zeros(2), torch.tensor([1., -1.]))
except ValueError as e:
    print("ValueError", str(e)[:80])
''',
    'vae': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self, d=20, h=16, z=4, c=0):
        super().__init__()
        self.c = c
        self.enc = nn.Linear(d + c, h)
        self.mu = nn.Linear(h, z); self.lv = nn.Linear(h, z)
        self.dec1 = nn.Linear(z + c, h); self.dec2 = nn.Linear(h, d)
    def encode(self, x):
        h = F.relu(self.enc(x))
        return self.mu(h), self.lv(h)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std
    def decode(self, z):
        return torch.sigmoid(self.dec2(F.relu(self.dec1(z))))
    def forward(self, x, y=None):
        if self.c:
            oh = F.one_hot(y, self.c).float()
            x = torch.cat([x, oh], 1)
        mu, lv = self.encode(x)
        z = self.reparameterize(mu, lv)
        if self.c:
            z = torch.cat([z, oh], 1)
        return self.decode(z), mu, lv
def loss_fn(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld
x = torch.rand(32, 20).round()
y = torch.randint(0, 3, (32,))
for c in (0, 3):
    m = VAE(c=c)
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    for ep in range(3):
        m.train()
        tot = 0.
        for i in range(0, 32, 8):
            xb, yb = x[i:i+8], y[i:i+8]
            r, mu, lv = m(xb, yb)
            loss, bce, kld = loss_fn(r, xb, mu, lv)
            opt.zero_grad(); loss.backward(); opt.step()
            tot += loss.item()
        print(c, ep, f"{tot / 32:.4f}", f"{bce.item():.3f}", f"{kld.item():.4f}")
    m.eval()
    with torch.no_grad():
        z = torch.randn(2, 4)
        if c:
            z = torch.cat([z, F.one_hot(torch.tensor([0, 2]), 3).float()], 1)
        s = m.decode(z)
        print(s.shape, s.requires_grad, s[0, :4])
print(F.one_hot(torch.tensor([0, 2, 1])))
print(F.one_hot(torch.arange(0, 5) % 3, num_classes=5).dtype)
try:
    F.one_hot(torch.tensor([3]), 2)
except RuntimeError as e:
    print("RT", e)
try:
    F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.]))
except RuntimeError as e:
    print("RT", e)
''',
    'dcgan': r'''
nn = torch.nn
torch.manual_seed(0)
nz, ngf, ndf = 8, 4, 4
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
G = nn.Sequential(
    nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
    nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
    nn.ConvTranspose2d(ngf * 2, 1, 4, 2, 1, bias=False), nn.Tanh())
D = nn.Sequential(
    nn.Conv2d(1, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Flatten())
G.apply(weights_init); D.apply(weights_init)
print(G); print(D)
crit = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
fixed = torch.randn(4, nz, 1, 1)
real = torch.rand(6, 1, 16, 16) * 2 - 1
for it in range(3):
    D.zero_grad()
    label = torch.full((6, 1), 1.0)
    out = D(real)
    errD_real = crit(out, label); errD_real.backward()
    D_x = torch.sigmoid(out).mean().item()
    noise = torch.randn(6, nz, 1, 1)
    fake = G(noise)
    label.fill_(0.0)
    out = D(fake.detach())
    errD_fake = crit(out, label); errD_fake.backward()
    optD.step()
    G.zero_grad()
    label.fill_(1.0)
    out = D(fake)
    errG = crit(out, label); errG.backward()
    optG.step()
    print(f"[{it}] Loss_D: {(errD_real + errD_fake).item():.4f} Loss_G: {errG.item():.4f} D(x): {D_x:.4f}")
with torch.no_grad():
    f = G(fixed).detach().cpu()
print(f.shape, f.min().item() >= -1, f.max().item() <= 1)
print(G[1].running_mean[:3], G[1].num_batches_tracked)
print(list(optG.state_dict()["param_groups"][0].keys()))
print(optD.state_dict()["state"][0]["step"], optD.state_dict()["state"][0]["exp_avg"].shape)
''',
    'embbag': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
data = [("good movie great fun", 1), ("bad boring film", 0), ("great acting", 1), ("awful bad", 0), ("fun fun fun", 1)]
vocab = {"<unk>": 0}
for text, _ in data:
    for w in text.split():
        vocab.setdefault(w, len(vocab))
print(len(vocab))
def collate(batch):
    labels, toks, offsets = [], [], [0]
    for text, lab in batch:
        ids = torch.tensor([vocab.get(w, 0) for w in text.split()], dtype=torch.int64)
        toks.append(ids); labels.append(lab); offsets.append(ids.size(0))
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    return torch.tensor(labels, dtype=torch.int64), torch.cat(toks), offsets
class TextClf(nn.Module):
    def __init__(self, V, D, C, mode):
        super().__init__()
        self.emb = nn.EmbeddingBag(V, D, mode=mode)
        self.fc = nn.Linear(D, C)
        self.init_weights()
    def init_weights(self):
        r = 0.5
        self.emb.weight.data.uniform_(-r, r)
        self.fc.weight.data.uniform_(-r, r)
        self.fc.bias.data.zero_()
    def forward(self, text, offsets):
        return self.fc(self.emb(text, offsets))
dl = torch.utils.data.DataLoader(data, batch_size=2, shuffle=True, collate_fn=collate)
for mode in ("mean", "sum", "max"):
    model = TextClf(len(vocab), 6, 2, mode)
    print(model)
    opt = torch.optim.SGD(model.parameters(), lr=5.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.1)
    for ep in range(3):
        acc, cnt = 0, 0
        for lab, text, off in dl:
            opt.zero_grad()
            out = model(text, off)
            loss = F.cross_entropy(out, lab)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
            opt.step()
            acc += (out.argmax(1) == lab).sum().item(); cnt += lab.size(0)
        sched.step()
        print(mode, ep, acc / cnt, sched.get_last_lr())
bag = nn.EmbeddingBag(10, 3, mode="sum")
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]); off = torch.tensor([0, 4])
w = torch.rand(8)
print(bag(inp, off, per_sample_weights=w).shape)
print(bag(torch.tensor([[1, 2], [3, 4]])).shape)
try:
    nn.EmbeddingBag(10, 3, mode="mean")(inp, off, per_sample_weights=w)
except Exception as e:
    print(type(e).__name__, e)
print(F.embedding_bag(inp, bag.weight, off, mode="sum", include_last_offset=True).shape)
print(nn.EmbeddingBag.from_pretrained(torch.eye(4), mode="max")(torch.tensor([[0, 1], [2, 3]])))
''',
    'seq2seq': r'''
import random
nn = torch.nn; F = torch.nn.functional
pack_padded_sequence = torch.nn.utils.rnn.pack_padded_sequence
pad_packed_sequence = torch.nn.utils.rnn.pad_packed_sequence
pad_sequence = torch.nn.utils.rnn.pad_sequence
torch.manual_seed(0); random.seed(0)
V, H = 12, 8
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H, padding_idx=0)
        self.gru = nn.GRU(H, H, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * H, H)
    def forward(self, x, lens):
        e = self.emb(x)
        packed = pack_padded_sequence(e, lens, batch_first=True, enforce_sorted=False)
        out, h = self.gru(packed)
        out, out_lens = pad_packed_sequence(out, batch_first=True, total_length=x.size(1))
        h = torch.tanh(self.fc(torch.cat([h[-2], h[-1]], dim=1)))
        return out, h, out_lens
class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Linear(3 * H, H); self.v = nn.Linear(H, 1, bias=False)
    def forward(self, h, enc, mask):
        T = enc.size(1)
        hh = h.unsqueeze(1).repeat(1, T, 1)
        e = self.v(torch.tanh(self.W(torch.cat([hh, enc], 2)))).squeeze(2)
        e = e.masked_fill(mask == 0, -1e10)
        return F.softmax(e, dim=1)
class Dec(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H); self.attn = Attn()
        self.gru = nn.GRU(3 * H, H, batch_first=True)
        self.out = nn.Linear(4 * H, V)
    def forward(self, tok, h, enc, mask):
        e = self.emb(tok).unsqueeze(1)
        a = self.attn(h, enc, mask).unsqueeze(1)
        w = torch.bmm(a, enc)
        o, h2 = self.gru(torch.cat([e, w], 2), h.unsqueeze(0))
        pred = self.out(torch.cat([o.squeeze(1), w.squeeze(1), e.squeeze(1)], 1))
        return pred, h2.squeeze(0), a.squeeze(1)
seqs = [torch.randint(3, V, (n,)) for n in (5, 3, 4)]
src = pad_sequence(seqs, batch_first=True)
lens = torch.tensor([len(s) for s in seqs])
mask = (src != 0)
trg = torch.randint(3, V, (3, 4)); trg[:, 0] = 1
enc, dec = Enc(), Dec()
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
crit = nn.CrossEntropyLoss(ignore_index=0)
for ep in range(3):
    out, h, ol = enc(src, lens)
    tok = trg[:, 0]; loss = 0
    for t in range(1, trg.size(1)):
        p, h, a = dec(tok, h, out, mask)
        loss = loss + crit(p, trg[:, t])
        tok = trg[:, t] if random.random() < 0.5 else p.argmax(1)
    opt.zero_grad(); loss.backward()
    nn.utils.clip_grad_norm_(enc.parameters(), 1.0)
    opt.step()
    print(ep, round(loss.item() / 3, 4), ol.tolist(), out.shape)
print(a.sum(1).round(decimals=4), (a[1, 3:] == 0).all())
with torch.no_grad():
    out, h, _ = enc(src[:1], lens[:1]); tok = torch.tensor([1]); res = []
    for _ in range(4):
        p, h, _ = dec(tok, h, out, mask[:1])
        v, i = p.topk(2, dim=1)
        tok = i[:, 0]; res.append(tok.item())
print(res, v.shape)
pk = pack_padded_sequence(torch.randn(3, 5, 2), lens, batch_first=True, enforce_sorted=False)
print(pk.batch_sizes, pk.sorted_indices, pk.unsorted_indices)
try:
    pack_padded_sequence(torch.randn(3, 5, 2), lens, batch_first=True)
except RuntimeError as e:
    print("RT", str(e)[:90])
''',
    'transformer_lm': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class PE(nn.Module):
    def __init__(self, d, max_len=64, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(max_len, 1, d)
        pe[:, 0, 0::2] = torch.sin(pos * div); pe[:, 0, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)
    def forward(self, x):
        return self.dropout(x + self.pe[:x.size(0)])
class LM(nn.Module):
    def __init__(self, V=20, d=16, nhead=2, nl=2):
        super().__init__()
        self.pos = PE(d)
        layer = nn.TransformerEncoderLayer(d, nhead, 32, 0.1)
        self.enc = nn.TransformerEncoder(layer, nl, enable_nested_tensor=False)
        self.emb = nn.Embedding(V, d); self.d = d
        self.head = nn.Linear(d, V)
    def forward(self, src, mask, pad=None):
        x = self.pos(self.emb(src) * math.sqrt(self.d))
        return self.head(self.enc(x, mask, src_key_padding_mask=pad))
model = LM()
print(model.enc.layers[0])
print(sorted(model.state_dict().keys())[:6], "pos.pe" in model.state_dict())
data = torch.randint(0, 20, (40, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
warm = 3
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm))
bptt = 8
mask = nn.Transformer.generate_square_subsequent_mask(bptt)
print(mask)
for ep in range(2):
    model.train(); tot = 0.
    for i in range(0, data.size(0) - 1, bptt):
        sl = min(bptt, data.size(0) - 1 - i)
        x, y = data[i:i+sl], data[i+1:i+1+sl].reshape(-1)
        m = mask[:sl, :sl]
        out = model(x, m)
        loss = F.cross_entropy(out.view(-1, 20), y)
        opt.zero_grad(); loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step(); sched.step()
        tot += loss.item() * sl
    model.eval()
    with torch.no_grad():
        out = model(data[:8], mask)
        vl = F.cross_entropy(out.view(-1, 20), data[1:9].reshape(-1)).item()
    print(ep, round(tot / 39, 3), round(vl, 3), round(math.exp(vl), 2), sched.get_last_lr())
pad = torch.zeros(2, 8, dtype=torch.bool); pad[1, 6:] = True
with torch.no_grad():
    o = model.enc(torch.randn(8, 2, 16), mask=mask, src_key_padding_mask=pad.T.T, is_causal=True)
print(o.shape, torch.isnan(o).any().item())
try:
    model.enc(torch.randn(8, 2, 16), mask=torch.ones(3, 3))
except Exception as e:
    print(type(e).__name__, str(e)[:100])
print(nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64))
''',
    'persample': r'''
nn = torch.nn; F = torch.nn.functional
functional_call = torch.func.functional_call
grad = torch.func.grad
vmap = torch.func.vmap
jacrev = torch.func.jacrev
hessian = torch.func.hessian
jacfwd = torch.func.jacfwd
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def loss_one(p, b, x, y):
    out = functional_call(model, (p, b), (x.unsqueeze(0),))
    return F.cross_entropy(out, y.unsqueeze(0))
x = torch.randn(4, 3); y = torch.tensor([0, 1, 1, 0])
g = vmap(grad(loss_one), in_dims=(None, None, 0, 0))(params, buffers, x, y)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 4))
model.zero_grad()
F.cross_entropy(model(x), y, reduction="sum").backward()
print(torch.allclose(g["0.weight"].sum(0), model[0].weight.grad, atol=1e-6))
f = lambda x: (x.sin() * x.cos()).sum()
x0 = torch.tensor([0.1, 0.5, 1.0])
print(jacrev(lambda x: x.sin() * x)(x0))
print(hessian(f)(x0))
print(torch.allclose(jacfwd(jacrev(f))(x0), hessian(f)(x0)))
print(vmap(torch.dot)(torch.randn(3, 4), torch.randn(3, 4)).shape)
def lf(w, x): return (x @ w).pow(2).mean()
w = torch.randn(3, 1)
gv, lv = grad(lf, has_aux=False)(w, x), lf(w, x)
print(gv.shape, round(lv.item(), 4))
gf, aux = grad(lambda w: (lf(w, x), lf(w, x).detach() * 2), has_aux=True)(w)
print(torch.allclose(gf, gv), round(aux.item(), 4))
ens = [nn.Linear(3, 2) for _ in range(3)]
stack_module_state = torch.func.stack_module_state
ps, bs = stack_module_state(ens)
import copy
base = copy.deepcopy(ens[0]).to("meta")
out = vmap(lambda p, b, x: functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))(ps, bs, x)
print(out.shape, torch.allclose(out[1], ens[1](x)))
try:
    vmap(lambda t: t.item())(torch.randn(3))
except RuntimeError as e:
    print("RT", str(e)[:80])
''',
    'pinn': r'''
nn = torch.nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.LBFGS(net.parameters(), lr=0.5, max_iter=5, history_size=5, line_search_fn="strong_wolfe")
xt = torch.rand(32, 2, requires_grad=True)
def residual():
    u = net(xt)
    du = torch.autograd.grad(u, xt, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_x, u_t = du[:, 0:1], du[:, 1:2]
    u_xx = torch.autograd.grad(u_x, xt, torch.ones_like(u_x), create_graph=True)[0][:, 0:1]
    return u_t - 0.1 * u_xx
xb = torch.cat([torch.zeros(8, 1), torch.rand(8, 1)], 1)
ub = torch.zeros(8, 1)
def closure():
    opt.zero_grad()
    loss = residual().pow(2).mean() + nn.functional.mse_loss(net(xb), ub)
    loss.backward()
    return loss
for it in range(3):
    l = opt.step(closure)
    print(it, f"{l.item():.6f}")
st = opt.state_dict()["state"]
print(sorted(st[0].keys()) if 0 in st else list(st.keys()))
print(opt.state[net[0].weight].keys() if net[0].weight in opt.state else "none")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
h = torch.autograd.grad(g.sum(), x)[0]
print(g, h)
try:
    torch.autograd.grad(y, x)
except RuntimeError as e:
    print("RT", str(e)[:90])
z = torch.randn(3, requires_grad=True)
gg = torch.autograd.grad((z * 2).sum(), [z, torch.randn(2, requires_grad=True)], allow_unused=True)
print(gg[1])
try:
    torch.autograd.grad((z * 2).sum(), [z, torch.randn(2, requires_grad=True)])
except RuntimeError as e:
    print("RT", str(e)[:90])
''',
    'flows': r'''
D = torch.distributions
T = torch.distributions.transforms
torch.manual_seed(0)
base = D.Normal(torch.zeros(2), torch.ones(2))
flow = [T.AffineTransform(loc=torch.tensor([1., -1.]), scale=torch.tensor([2., 0.5])), T.TanhTransform(cache_size=1)]
td = D.TransformedDistribution(base, flow)
s = td.sample((3,))
print(s.shape, td.batch_shape, td.event_shape)
print(td.log_prob(s).shape, [round(v, 4) for v in td.log_prob(s).flatten().tolist()])
ind = D.Independent(base, 1)
td2 = D.TransformedDistribution(ind, [T.ExpTransform()])
y = td2.sample((2,))
print(td2.log_prob(y).shape, (y > 0).all().item())
ln = D.LogNormal(torch.zeros(2), torch.ones(2))
print(torch.allclose(ln.log_prob(y).sum(-1), td2.log_prob(y)))
comp = T.ComposeTransform([T.AffineTransform(0., 2.), T.SigmoidTransform()])
x = torch.tensor([0.3, -1.0])
print(comp(x), comp.inv(comp(x)), comp.log_abs_det_jacobian(x, comp(x)))
print(T.ExpTransform().inv, T.ExpTransform().sign, comp.domain, comp.codomain)
class Planar(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.u = torch.nn.Parameter(torch.randn(d) * 0.1); self.w = torch.nn.Parameter(torch.randn(d) * 0.1)
        self.b = torch.nn.Parameter(torch.zeros(1))
    def forward(self, z):
        a = torch.tanh(z @ self.w + self.b)
        psi = (1 - a ** 2).unsqueeze(-1) * self.w
        ldj = torch.log(torch.abs(1 + psi @ self.u) + 1e-8)
        return z + self.u * a.unsqueeze(-1), ldj
flows = torch.nn.ModuleList([Planar(2) for _ in range(3)])
opt = torch.optim.Adam(flows.parameters(), lr=1e-2)
target = D.MultivariateNormal(torch.tensor([1., 1.]), torch.tensor([[1., 0.5], [0.5, 1.]]))
for it in range(3):
    z = base.rsample((64,)); lq = base.log_prob(z).sum(-1)
    for f in flows:
        z, ldj = f(z); lq = lq - ldj
    loss = (lq - target.log_prob(z)).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, round(loss.item(), 4))
A = torch.tensor([[2., 1.], [1., 3.]])
print(torch.linalg.slogdet(A), torch.slogdet(-A).sign, torch.logdet(A))
print(target.entropy(), target.covariance_matrix, target.scale_tril)
print(D.kl_divergence(target, D.MultivariateNormal(torch.zeros(2), torch.eye(2))))
''',
    'gnn': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
N = 6
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 0], [1, 0, 2, 1, 4, 3, 0, 5]])
x = torch.randn(N, 4)
def gcn_norm(ei, n):
    loops = torch.arange(n).unsqueeze(0).repeat(2, 1)
    ei = torch.cat([ei, loops], 1)
    row, col = ei
    deg = torch.zeros(n).index_add_(0, col, torch.ones(col.size(0)))
    dinv = deg.pow(-0.5)
    dinv[torch.isinf(dinv)] = 0
    return ei, dinv[row] * dinv[col]
ei, w = gcn_norm(edge_index, N)
print(w)
A = torch.sparse_coo_tensor(ei, w, (N, N)).coalesce()
print(A)
print(A.to_dense().sum(1))
class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8); self.l2 = nn.Linear(8, 3)
    def forward(self, x, A):
        h = F.relu(torch.sparse.mm(A, self.l1(x)))
        h = F.dropout(h, 0.5, self.training)
        return A @ self.l2(h)
m = GCN(); opt = torch.optim.Adam(m.parameters(), lr=0.01, weight_decay=5e-4)
y = torch.tensor([0, 1, 2, 0, 1, 2]); train_mask = torch.tensor([1, 1, 1, 0, 0, 0], dtype=torch.bool)
for ep in range(3):
    m.train(); opt.zero_grad()
    out = m(x, A)
    loss = F.cross_entropy(out[train_mask], y[train_mask]); loss.backward(); opt.step()
    m.eval(); pred = m(x, A).argmax(1)
    print(ep, round(loss.item(), 4), (pred[~train_mask] == y[~train_mask]).float().mean().item())
src, dst = edge_index
msg = x[src] * 2
agg = torch.zeros(N, 4).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 4), msg, reduce="amax", include_self=False)
print(agg[:2])
agg2 = torch.zeros(N, 4).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 4), msg, reduce="mean")
print(agg2[:2])
cnt = torch.bincount(dst, minlength=N)
print(cnt, torch.zeros(N).scatter_add_(0, dst, torch.ones(8)))
print(torch.zeros(N, 4).index_reduce_(0, dst, msg, "prod", include_self=False)[0])
s = torch.sparse_coo_tensor(edge_index, torch.ones(8), (N, N))
print(s.is_coalesced(), torch.sparse.sum(s, dim=1), s._nnz())
print(torch.sparse.softmax(s.coalesce(), dim=1).to_dense()[0])
''',
    'metric': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
emb = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
trip = nn.TripletMarginLoss(margin=1.0, p=2)
cos = nn.CosineEmbeddingLoss(margin=0.2)
opt = torch.optim.SGD(emb.parameters(), lr=0.1, momentum=0.9, nesterov=True)
a, p, n = torch.randn(10, 8), torch.randn(10, 8), torch.randn(10, 8)
tgt = torch.tensor([1, -1] * 5)
for it in range(3):
    ea, ep_, en = emb(a), emb(p), emb(n)
    l1 = trip(ea, ep_, en); l2 = cos(ea, ep_, tgt)
    loss = l1 + l2
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, f"{l1.item():.4f} {l2.item():.4f}")
with torch.no_grad():
    db = F.normalize(emb(torch.randn(20, 8)), dim=1)
    q = F.normalize(emb(a[:3]), dim=1)
sim = q @ db.T
vals, idx = sim.topk(5, dim=1)
print(idx, vals.round(decimals=3))
d = torch.cdist(q, db)
print(d.shape, d.argmin(1), torch.cdist(q, db, p=1).argmin(1))
print(F.pairwise_distance(q, db[:3]), F.cosine_similarity(q, db[:3]))
print(F.pairwise_distance(q, db[:3], keepdim=True).shape)
tw = nn.TripletMarginWithDistanceLoss(distance_function=lambda x, y: 1 - F.cosine_similarity(x, y), margin=0.5, swap=True)
print(round(tw(ea, ep_, en).item(), 4))
print(trip, cos, tw)
print(F.triplet_margin_loss(ea, ep_, en, reduction="none").shape)
mr = nn.MarginRankingLoss(margin=0.1)
print(round(mr(torch.randn(5), torch.randn(5), torch.tensor([1., -1, 1, 1, -1])).item(), 4))
he = nn.HingeEmbeddingLoss()(torch.randn(4), torch.tensor([1, -1, 1, -1]))
print(round(he.item(), 4))
print(torch.cdist(torch.randn(2, 3, 4), torch.randn(2, 5, 4)).shape)
try:
    torch.cdist(torch.randn(3, 4), torch.randn(5, 3))
except RuntimeError as e:
    print("RT", e)
print(F.cosine_similarity(torch.zeros(1, 3), torch.ones(1, 3)))
''',
    'data': r'''
Dataset = torch.utils.data.Dataset
DataLoader = torch.utils.data.DataLoader
WeightedRandomSampler = torch.utils.data.WeightedRandomSampler
random_split = torch.utils.data.random_split
Subset = torch.utils.data.Subset
ConcatDataset = torch.utils.data.ConcatDataset
TensorDataset = torch.utils.data.TensorDataset
torch.manual_seed(0)
class DS(Dataset):
    def __init__(self, n, off=0):
        self.x = torch.randn(n, 3); self.y = (torch.arange(n) % 3 == 0).long(); self.off = off
    def __len__(self): return len(self.x)
    def __getitem__(self, i): return {"x": self.x[i], "y": self.y[i], "id": i + self.off}
ds = DS(12)
counts = torch.bincount(ds.y)
wts = (1.0 / counts.float())[ds.y]
print(counts, wts[:4])
sampler = WeightedRandomSampler(wts, num_samples=12, replacement=True, generator=torch.Generator().manual_seed(1))
print(list(sampler))
dl = DataLoader(ds, batch_size=4, sampler=sampler)
for b in dl:
    print(sorted(b.keys()), b["x"].shape, b["y"].tolist(), b["id"].tolist())
tr, va = random_split(ds, [0.75, 0.25], generator=torch.Generator().manual_seed(42))
print(len(tr), len(va), tr.indices, type(tr).__name__)
tr2, va2, te2 = random_split(range(10), [5, 3, 2], generator=torch.Generator().manual_seed(0))
print(list(tr2), list(va2), list(te2))
sub = Subset(ds, [0, 5, 7])
cat = ConcatDataset([sub, DS(2, off=100)])
print(len(cat), cat.cumulative_sizes, cat[3]["id"], cat[-1]["id"])
def collate(batch):
    return {"x": torch.stack([b["x"] for b in batch]), "ids": [b["id"] for b in batch]}
dl2 = DataLoader(cat, batch_size=2, shuffle=True, collate_fn=collate, drop_last=True, generator=torch.Generator().manual_seed(3))
for b in dl2:
    print(b["x"].shape, b["ids"])
print(len(dl2))
td = TensorDataset(torch.arange(6.), torch.arange(6) * 2)
print(next(iter(DataLoader(td, batch_size=3))))
try:
    random_split(range(10), [5, 4])
except ValueError as e:
    print("VE", e)
try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print("AE", e)
dd = DataLoader(ds, batch_size=5)
print([len(b["id"]) for b in dd], len(dd))
print(next(iter(DataLoader([(1, 2.0, "a"), (3, 4.0, "b")], batch_size=2))))
print(next(iter(DataLoader([{"a": [1, 2]}, {"a": [3, 4]}], batch_size=2))))
import numpy as np
print(next(iter(DataLoader([np.array([1, 2]), np.array([3, 4])], batch_size=2))))
''',
    'ckpt': r'''
import tempfile, os
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
X = torch.randn(64, 4); Y = X.sum(1, keepdim=True) ** 2
best, bad, patience = float("inf"), 0, 3
d = tempfile.mkdtemp()
path = os.path.join(d, "ck.pt")
for ep in range(8):
    model.train()
    for i in range(0, 64, 16):
        loss = F.mse_loss(model(X[i:i+16]), Y[i:i+16])
        opt.zero_grad(); loss.backward(); opt.step()
    model.eval()
    with torch.no_grad():
        vl = F.mse_loss(model(X), Y).item()
    sched.step(vl)
    print(ep, round(vl, 3), opt.param_groups[0]["lr"], sched.num_bad_epochs)
    if vl < best - 1e-3:
        best, bad = vl, 0
        torch.save({"epoch": ep, "model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "best": best}, path)
    else:
        bad += 1
        if bad >= patience:
            print("early stop", ep); break
ck = torch.load(path)
print(sorted(ck.keys()), ck["epoch"], sorted(ck["sched"].keys()))
m2 = nn.Sequential(nn.Linear(4, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
o2 = torch.optim.AdamW(m2.parameters(), lr=1.0)
s2 = torch.optim.lr_scheduler.ReduceLROnPlateau(o2)
print(m2.load_state_dict(ck["model"]))
o2.load_state_dict(ck["opt"]); s2.load_state_dict(ck["sched"])
print(o2.param_groups[0]["lr"], s2.best == ck["best"], s2.patience)
m2.eval()
with torch.no_grad():
    print(torch.allclose(m2(X), model(X)) or "different (later epochs)")
torch.save(model, os.path.join(d, "whole.pt"))
try:
    w = torch.load(os.path.join(d, "whole.pt"))
except Exception as e:
    print(type(e).__name__, str(e)[:60])
w = torch.load(os.path.join(d, "whole.pt"), weights_only=False)
print(w)
print(m2.load_state_dict({k: v for k, v in ck["model"].items() if "1." not in k}, strict=False))
try:
    m2.load_state_dict({"0.weight": torch.zeros(3, 3)}, strict=False)
except RuntimeError as e:
    print("RT", str(e)[:200])
print(list(ck["model"].keys()))
print(ck["opt"]["param_groups"][0])
''',
    'param': r'''
import importlib
nn = torch.nn; P = torch.nn.utils.parametrizations; prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
torch.manual_seed(0)
l = P.weight_norm(nn.Linear(4, 3))
print(l)
print(sorted(n for n, _ in l.named_parameters()))
print(l.parametrizations.weight.original0.shape, l.parametrizations.weight.original1.shape)
sn = P.spectral_norm(nn.Linear(5, 5))
x = torch.randn(2, 5)
for _ in range(3):
    sn(x)
print(round(torch.linalg.matrix_norm(sn.weight, 2).item(), 3))
print(sorted(sn.state_dict().keys()))
orth = P.orthogonal(nn.Linear(4, 4))
W = orth.weight
print(torch.allclose(W @ W.T, torch.eye(4), atol=1e-5))
opt = torch.optim.SGD(orth.parameters(), lr=0.1)
(orth(torch.randn(3, 4)) ** 2).sum().backward(); opt.step()
print(torch.allclose(orth.weight @ orth.weight.T, torch.eye(4), atol=1e-5))
old = nn.utils.weight_norm(nn.Linear(3, 2), name="weight")
print(sorted(n for n, _ in old.named_parameters()), old.weight_g.shape)
nn.utils.remove_weight_norm(old)
print(sorted(n for n, _ in old.named_parameters()))
parametrize = torch.nn.utils.parametrize
class Sym(nn.Module):
    def forward(self, X): return X.triu() + X.triu(1).transpose(-1, -2)
m = nn.Linear(3, 3)
parametrize.register_parametrization(m, "weight", Sym())
print(torch.equal(m.weight, m.weight.T), parametrize.is_parametrized(m), type(m).__name__)
with parametrize.cached():
    a = m.weight; b = m.weight
    print(a is b)
parametrize.remove_parametrizations(m, "weight", leave_parametrized=True)
print(type(m).__name__, parametrize.is_parametrized(m))
net = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
prune.l1_unstructured(net[0], "weight", amount=0.5)
prune.ln_structured(net[3], "weight", amount=0.5, n=2, dim=0)
print(sorted(n for n, _ in net.named_buffers()))
print(int((net[0].weight == 0).sum()), net[0].weight_mask.sum().item())
params = [(net[0], "weight"), (net[3], "weight")]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.3)
tot = sum(m.weight.nelement() for m, _ in params); z = sum(int((m.weight == 0).sum()) for m, _ in params)
print(round(100. * z / tot, 2))
prune.remove(net[0], "weight")
print(sorted(n for n, _ in net[0].named_parameters()), list(net[0]._forward_pre_hooks.values()) == [])
print(prune.is_pruned(net), prune.is_pruned(net[0]))
print(net[3]._forward_pre_hooks[next(iter(net[3]._forward_pre_hooks))].__class__.__name__)
''',
    'hooks': r'''
nn = torch.nn
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False); self.bn = nn.BatchNorm2d(c); self.act = nn.ReLU()
    def forward(self, x): return self.act(self.bn(self.conv(x)) + x)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.layer1 = nn.Sequential(Block(4), Block(4))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, 10)
    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.layer1(self.stem(x))), 1))
net = Net().eval()
feats = {}
def hook(name):
    def fn(mod, inp, out): feats[name] = out.detach()
    return fn
hs = [net.layer1[1].register_forward_hook(hook("l1")), net.pool.register_forward_hook(hook("pool"))]
x = torch.randn(2, 3, 8, 8)
y = net(x)
print({k: tuple(v.shape) for k, v in feats.items()}, y.shape)
for h in hs: h.remove()
print(len(net.layer1[1]._forward_hooks))
def pre(mod, args): return (args[0] * 0,)
h = net.fc.register_forward_pre_hook(pre)
print(net(x)[0, :3].detach(), net.fc.bias[:3].detach())
h.remove()
grads = []
net.stem.register_full_backward_hook(lambda m, gi, go: grads.append((gi[0] is None, go[0].shape)))
net.layer1[0].conv.weight.register_hook(lambda g: print("wgrad", g.shape))
net(x.requires_grad_()).sum().backward()
print(grads)
for p in net.parameters(): p.requires_grad = False
net.fc = nn.Linear(4, 3)
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
for p in net.layer1[1].parameters(): p.requires_grad = True
opt = torch.optim.SGD([{"params": net.fc.parameters(), "lr": 0.1}, {"params": net.layer1[1].parameters()}], lr=0.01, momentum=0.9)
print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])
net.train()
loss = nn.functional.cross_entropy(net(x), torch.tensor([0, 2]))
opt.zero_grad(); loss.backward(); opt.step()
print(round(loss.item(), 4), net.stem.weight.grad is None, net.layer1[0].bn.running_mean[:2])
net.layer1[0].bn.eval()
def replace_relu(m):
    for n, c in m.named_children():
        if isinstance(c, nn.ReLU): setattr(m, n, nn.GELU())
        else: replace_relu(c)
replace_relu(net)
print(net.layer1)
print([n for n, _ in net.named_modules()][:6])
print(net.get_submodule("layer1.0.bn"), net.get_parameter("fc.bias").shape)
try:
    net.get_submodule("layer1.5")
except AttributeError as e:
    print("AE", e)
sd = net.state_dict()
print(len(sd), [k for k in sd if "num_batches" in k])
''',
    'amp_compile': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.GELU(), nn.Linear(16, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(4, 8); y = torch.tensor([0, 1, 2, 3])
for it in range(3):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = model(x)
        loss = F.cross_entropy(out, y)
    print(it, out.dtype, loss.dtype, round(loss.item(), 2))
    opt.zero_grad(); loss.backward(); opt.step()
print(model[0].weight.grad.dtype)
with torch.autocast("cpu"):
    a = torch.randn(3, 3) @ torch.randn(3, 3)
    b = torch.randn(3).sum()
    c = torch.mm(torch.randn(2, 2), torch.randn(2, 2)).float()
    print(a.dtype, b.dtype, c.dtype, torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
with torch.autocast("cpu", enabled=False):
    print((torch.randn(2, 2) @ torch.randn(2, 2)).dtype)
cm = torch.compile(model)
with torch.no_grad():
    print(torch.allclose(cm(x), model(x)), type(cm).__name__)
print(cm)
with torch.inference_mode():
    o = model(x)
print(o.requires_grad, o.is_inference())
try:
    o.requires_grad_()
except RuntimeError as e:
    print("RT", e)
torch.set_printoptions(precision=2, sci_mode=False)
print(model[0].weight[:2, :4])
print(torch.tensor([1e-6, 1e6]))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-6, 1e6]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10.))
torch.set_printoptions(profile="default")
print(torch.tensor([1.5], dtype=torch.bfloat16), torch.randn(2, 2).to(torch.bfloat16))
@torch.compile
def f(a, b): return torch.sin(a) + b.cos()
print(f(torch.ones(2), torch.zeros(2)))
@torch.no_grad()
def evaluate(m, x): return m(x)
print(evaluate(model, x).requires_grad)
''',
    'workers': r'''
import numpy as np, random
DataLoader = torch.utils.data.DataLoader
Dataset = torch.utils.data.Dataset
get_worker_info = torch.utils.data.get_worker_info
class DS(Dataset):
    def __len__(self): return 8
    def __getitem__(self, i):
        return torch.tensor([i]), np.random.randint(0, 1000), random.random() < 2
def wif(wid):
    info = get_worker_info()
    seed = torch.initial_seed() % 2**32
    np.random.seed(seed); random.seed(seed)
torch.manual_seed(0)
dl = DataLoader(DS(), batch_size=2, num_workers=2, worker_init_fn=wif, shuffle=True, persistent_workers=False)
for ep in range(2):
    print(ep, [b[0].flatten().tolist() for b in dl])
dl = DataLoader(DS(), batch_size=3, num_workers=2, pin_memory=False, prefetch_factor=2)
out = list(dl)
print([o[0].tolist() for o in out], out[0][2])
class It(torch.utils.data.IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        if info is None: return iter(range(6))
        return iter(range(info.id, 6, info.num_workers))
print([b.tolist() for b in DataLoader(It(), batch_size=2, num_workers=2)])
print([b.tolist() for b in DataLoader(It(), batch_size=2)])
try:
    DataLoader(It(), shuffle=True)
except ValueError as e:
    print("VE", e)
try:
    DataLoader(DS(), prefetch_factor=2)
except ValueError as e:
    print("VE", e)
print(get_worker_info())
''',
    'vit': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class PatchEmbed(nn.Module):
    def __init__(self, img=8, p=4, c=3, d=12):
        super().__init__()
        self.proj = nn.Conv2d(c, d, kernel_size=p, stride=p)
        self.n = (img // p) ** 2
    def forward(self, x): return self.proj(x).flatten(2).transpose(1, 2)
class ViT(nn.Module):
    def __init__(self, d=12, depth=2, heads=3, ncls=5):
        super().__init__()
        self.pe = PatchEmbed(d=d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.zeros(1, self.pe.n + 1, d))
        nn.init.trunc_normal_(self.pos, std=0.02); nn.init.trunc_normal_(self.cls, std=0.02)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.norm = nn.LayerNorm(d, eps=1e-6)
        self.head = nn.Linear(d, ncls)
        self.apply(self._init)
    def _init(self, m):
        if isinstance(m, nn.Linear):
            nn.init.xavier_uniform_(m.weight)
            if m.bias is not None: nn.init.zeros_(m.bias)
    def forward(self, x):
        x = self.pe(x)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        return self.head(self.norm(self.blocks(x))[:, 0])
m = ViT()
print(m.blocks.layers[0].self_attn, m.blocks.layers[0].norm_first)
print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in m.parameters() if p.dim() > 1))
decay = [p for n, p in m.named_parameters() if p.ndim >= 2 and "pos" not in n]
no_decay = [p for n, p in m.named_parameters() if p.ndim < 2 or "pos" in n]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=6, pct_start=0.3)
x = torch.randn(4, 3, 8, 8); y = torch.tensor([0, 1, 2, 3])
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
for it in range(6):
    loss = crit(m(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    print(it, round(loss.item(), 4), [round(l, 6) for l in sched.get_last_lr()], round(opt.param_groups[0]["betas"][0], 4))
m.eval()
with torch.no_grad():
    p = m(x).softmax(-1)
print(p.argmax(-1), p.max(-1).values.round(decimals=3))
print(F.unfold(x, kernel_size=4, stride=4).shape, F.fold(F.unfold(x, 4, stride=4), (8, 8), 4, stride=4).equal(x))
''',
    'sched': r'''
nn = torch.nn
torch.manual_seed(0)
def mk():
    return torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9)
o = mk()
s1 = torch.optim.lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3)
s2 = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.001)
s = torch.optim.lr_scheduler.SequentialLR(o, [s1, s2], milestones=[3])
lrs = []
for _ in range(9):
    o.step(); s.step(); lrs.append(round(s.get_last_lr()[0], 6))
print(lrs)
o = mk()
s = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)
print([round((o.step(), s.step(), o.param_groups[0]["lr"])[2], 5) for _ in range(10)])
o = mk()
s = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)])
print([round((o.step(), s.step(), s.get_last_lr()[0])[2], 6) for _ in range(4)])
o = mk()
s = torch.optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
print([round((o.step(), s.step(), s.get_last_lr()[0])[2], 6) for _ in range(8)], o.param_groups[0]["momentum"])
o = mk()
s = torch.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 4], gamma=0.5)
for _ in range(5): o.step(); s.step()
sd = s.state_dict(); print(sorted(sd.keys()), sd["last_epoch"], sd["milestones"])
o = mk()
s = torch.optim.lr_scheduler.PolynomialLR(o, total_iters=4, power=2.0)
print([round((o.step(), s.step(), s.get_last_lr()[0])[2], 6) for _ in range(5)])
o = mk()
s = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, epochs=2, steps_per_epoch=3, anneal_strategy="linear", three_phase=True)
print([round((o.step(), s.step(), s.get_last_lr()[0])[2], 5) for _ in range(6)], [round(g["momentum"], 4) for g in o.param_groups])
try:
    for _ in range(2): o.step(); s.step()
except ValueError as e:
    print("VE", e)
o = mk()
s = torch.optim.lr_scheduler.StepLR(o, 2)
s.step()
o = mk()
s = torch.optim.lr_scheduler.ReduceLROnPlateau(o, "max", patience=0, threshold=0.1, threshold_mode="abs", cooldown=1, min_lr=0.02)
for v in [1, 1.05, 1.2, 1.2, 1.2, 1.2, 1.2]:
    s.step(v); print(round(o.param_groups[0]["lr"], 5), s.num_bad_epochs, s.cooldown_counter, end="; ")
print()
print(s.get_last_lr())
''',
    'swa_ema': r'''
nn = torch.nn; F = torch.nn.functional
from_swa = torch.optim.swa_utils
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
swa = from_swa.AveragedModel(model)
ema = from_swa.AveragedModel(model, multi_avg_fn=from_swa.get_ema_multi_avg_fn(0.9))
swa_sched = from_swa.SWALR(opt, swa_lr=0.01, anneal_epochs=2, anneal_strategy="cos")
X = torch.randn(32, 3); Y = X[:, :1] * 2 - X[:, 1:2]
loader = [(X[i:i+8], Y[i:i+8]) for i in range(0, 32, 8)]
for ep in range(5):
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
        ema.update_parameters(model)
    if ep >= 2:
        swa.update_parameters(model); swa_sched.step()
    print(ep, round(loss.item(), 4), opt.param_groups[0]["lr"], swa.n_averaged.item())
print(swa.module[1].running_mean[:2])
from_swa.update_bn(loader, swa)
print(swa.module[1].running_mean[:2], swa.module[1].momentum)
print(list(swa.state_dict().keys())[:3], len(swa.state_dict()))
with torch.no_grad():
    swa.eval(); ema.eval(); model.eval()
    print(round(F.mse_loss(swa(X), Y).item(), 3), round(F.mse_loss(ema(X), Y).item(), 3), round(F.mse_loss(model(X), Y).item(), 3))
shadow = {k: v.clone() for k, v in model.state_dict().items()}
with torch.no_grad():
    for k, v in model.state_dict().items():
        if v.dtype.is_floating_point: shadow[k].mul_(0.99).add_(v, alpha=0.01)
params = [p.detach().clone() for p in model.parameters()]
torch._foreach_mul_(params, 0.5)
torch._foreach_add_(params, [p.detach() for p in model.parameters()], alpha=0.5)
print(all(torch.allclose(a, b) for a, b in zip(params, model.parameters())))
v = nn.utils.parameters_to_vector(model.parameters())
print(v.shape)
nn.utils.vector_to_parameters(torch.zeros_like(v), model.parameters())
print(model[0].weight.abs().sum().item())
print(swa)
''',
    'losses': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
logits = torch.randn(6, 4, requires_grad=True)
y = torch.tensor([0, 1, 2, 3, 1, -100])
w = torch.tensor([1., 2., 0.5, 1.])
for red in ("mean", "sum", "none"):
    l = F.cross_entropy(logits, y, weight=w, ignore_index=-100, label_smoothing=0.2, reduction=red)
    print(red, l.detach().round(decimals=4))
soft = torch.softmax(torch.randn(6, 4), 1)
print(round(F.cross_entropy(logits, soft, label_smoothing=0.1).item(), 4))
def focal(logits, y, gamma=2.0, alpha=0.25):
    ce = F.cross_entropy(logits, y, reduction="none")
    pt = torch.exp(-ce)
    return (alpha * (1 - pt) ** gamma * ce).mean()
print(round(focal(logits[:5], y[:5]).item(), 5))
T = 4.0
student = torch.randn(6, 4, requires_grad=True); teacher = torch.randn(6, 4)
kd = F.kl_div(F.log_softmax(student / T, 1), F.softmax(teacher / T, 1), reduction="batchmean") * T * T
kd2 = nn.KLDivLoss(reduction="batchmean", log_target=True)(F.log_softmax(student / T, 1), F.log_softmax(teacher / T, 1)) * T * T
print(round(kd.item(), 5), torch.isclose(kd, kd2).item())
kd.backward(); print(student.grad.sum(1).abs().max() < 1e-6)
bl = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([3.0, 1.0]))
print(round(bl(torch.randn(5, 2), torch.randint(0, 2, (5, 2)).float()).item(), 4))
print(F.nll_loss(F.log_softmax(torch.randn(2, 3, 4, 4), 1), torch.randint(0, 3, (2, 4, 4))).shape)
print(round(F.huber_loss(torch.randn(5), torch.randn(5), delta=0.5).item(), 5), round(F.smooth_l1_loss(torch.randn(5), torch.randn(5), beta=0.5).item(), 5))
print(F.poisson_nll_loss(torch.randn(4), torch.rand(4) * 3, log_input=True).round(decimals=4))
print(F.gaussian_nll_loss(torch.randn(4, 2), torch.randn(4, 2), torch.rand(4, 1) + 0.1).round(decimals=4))
print(F.multilabel_soft_margin_loss(torch.randn(3, 4), torch.randint(0, 2, (3, 4))).round(decimals=4))
print(F.multi_margin_loss(torch.randn(3, 4), torch.tensor([0, 3, 1])).round(decimals=4))
lp = torch.randn(10, 2, 5).log_softmax(2)
ctc = F.ctc_loss(lp, torch.tensor([[1, 2, 2], [3, 4, 0]]), torch.tensor([10, 8]), torch.tensor([3, 2]))
print(ctc.round(decimals=4))
try:
    F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1, 4]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(torch.randn(3, 4), torch.tensor([0., 1, 2]))
except RuntimeError as e:
    print("RT", e)
try:
    F.mse_loss(torch.randn(3, 1), torch.randn(3))
except Exception as e:
    print(type(e).__name__, e)
print(F.mse_loss(torch.randn(3, 1), torch.randn(3)).shape)
''',
    'unet': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
def block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                         nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))
class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1 = block(1, 4); self.d2 = block(4, 8)
        self.pool = nn.MaxPool2d(2)
        self.bott = block(8, 16)
        self.up2 = nn.ConvTranspose2d(16, 8, 2, stride=2); self.u2 = block(16, 8)
        self.up1 = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True); self.u1 = block(8 + 4, 4)
        self.out = nn.Conv2d(4, 2, 1)
    def forward(self, x):
        a = self.d1(x); b = self.d2(self.pool(a)); c = self.bott(self.pool(b))
        u = self.u2(torch.cat([self.up2(c), b], 1))
        u = self.up1(u)
        if u.shape[-2:] != a.shape[-2:]:
            u = F.interpolate(u, size=a.shape[-2:], mode="nearest")
        return self.out(self.u1(torch.cat([u, a], dim=1)))
def dice_loss(logits, target, eps=1.0):
    p = logits.softmax(1)[:, 1]
    t = target.float()
    inter = (p * t).sum((1, 2)); union = p.sum((1, 2)) + t.sum((1, 2))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()
net = UNet()
x = torch.randn(2, 1, 12, 12); tgt = (x[:, 0] > 0.5).long()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for it in range(3):
    out = net(x)
    ce = F.cross_entropy(out, tgt, weight=torch.tensor([0.3, 0.7]))
    dl = dice_loss(out, tgt)
    loss = ce + dl
    opt.zero_grad(); loss.backward(); opt.step()
    pred = out.argmax(1)
    iou = ((pred == 1) & (tgt == 1)).sum() / ((pred == 1) | (tgt == 1)).sum().clamp(min=1)
    print(it, out.shape, round(ce.item(), 4), round(dl.item(), 4), round(iou.item(), 4))
print(net.up1, net.pool)
y = torch.arange(16.).view(1, 1, 4, 4)
print(F.interpolate(y, scale_factor=0.5, mode="bilinear", align_corners=False))
print(F.interpolate(y, size=(3, 5), mode="bicubic", align_corners=True).round(decimals=3))
print(F.interpolate(y, scale_factor=1.5, mode="nearest-exact").shape, F.interpolate(y, scale_factor=1.5, mode="area").shape)
print(F.adaptive_max_pool2d(y, 3, return_indices=True)[1])
p, idx = F.max_pool2d(y, 2, return_indices=True)
print(F.max_unpool2d(p, idx, 2))
print(F.pad(y, (1, 1, 0, 2), mode="reflect").shape, F.pad(y, (1, 1), mode="replicate")[0, 0, 0])
try:
    F.interpolate(y, scale_factor=2, mode="bilinear", size=(3, 3))
except ValueError as e:
    print("VE", e)
''',
    'dqn': r'''
import random, collections, copy
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0); random.seed(0)
Transition = collections.namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))
class Replay:
    def __init__(self, cap): self.mem = collections.deque([], maxlen=cap)
    def push(self, *a): self.mem.append(Transition(*a))
    def sample(self, n): return random.sample(self.mem, n)
    def __len__(self): return len(self.mem)
policy = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
target = copy.deepcopy(policy); target.load_state_dict(policy.state_dict()); target.eval()
opt = torch.optim.AdamW(policy.parameters(), lr=1e-3, amsgrad=True)
mem = Replay(100)
state = torch.randn(1, 4)
eps = 0.9
for t in range(40):
    if random.random() > eps:
        with torch.no_grad(): action = policy(state).max(1).indices.view(1, 1)
    else:
        action = torch.tensor([[random.randrange(2)]], dtype=torch.long)
    eps = max(0.05, eps * 0.95)
    nxt = state + torch.randn(1, 4) * 0.1; r = torch.tensor([1.0 if action.item() == 0 else -0.5])
    done = t % 10 == 9
    mem.push(state, action, None if done else nxt, r, done)
    state = torch.randn(1, 4) if done else nxt
    if len(mem) < 16: continue
    batch = Transition(*zip(*mem.sample(16)))
    mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool)
    nfinal = torch.cat([s for s in batch.next_state if s is not None])
    sb, ab, rb = torch.cat(batch.state), torch.cat(batch.action), torch.cat(batch.reward)
    q = policy(sb).gather(1, ab)
    nv = torch.zeros(16)
    with torch.no_grad(): nv[mask] = target(nfinal).max(1).values
    exp_q = nv * 0.99 + rb
    loss = nn.SmoothL1Loss()(q, exp_q.unsqueeze(1))
    opt.zero_grad(); loss.backward()
    torch.nn.utils.clip_grad_value_(policy.parameters(), 100)
    opt.step()
    tsd, psd = target.state_dict(), policy.state_dict()
    for k in psd: tsd[k] = psd[k] * 0.005 + tsd[k] * (1 - 0.005)
    target.load_state_dict(tsd)
    if t % 8 == 0: print(t, round(loss.item(), 5), mask.sum().item(), round(eps, 4), action.shape)
print(opt.state_dict()["state"][0].keys())
print(q.grad_fn, exp_q.requires_grad, nv.dtype)
''',
    'ppo': r'''
nn = torch.nn; F = torch.nn.functional
D = torch.distributions
torch.manual_seed(0)
actor = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 4))
critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam([{"params": actor.parameters(), "lr": 3e-3}, {"params": critic.parameters(), "lr": 1e-2}], eps=1e-5)
T = 16
obs = torch.randn(T, 3)
with torch.no_grad():
    dist = D.Categorical(logits=actor(obs))
    acts = dist.sample(); old_lp = dist.log_prob(acts); vals = critic(obs).squeeze(-1)
rews = (acts == 2).float() - 0.1
dones = torch.zeros(T); dones[7] = 1
gamma, lam = 0.99, 0.95
adv = torch.zeros(T); last = 0.
for t in reversed(range(T)):
    nv = 0.0 if t == T - 1 else vals[t + 1]
    nonterm = 1.0 - dones[t]
    delta = rews[t] + gamma * nv * nonterm - vals[t]
    last = delta + gamma * lam * nonterm * last
    adv[t] = last
ret = adv + vals
print(adv.round(decimals=3))
for ep in range(4):
    perm = torch.randperm(T)
    for mb in perm.split(8):
        d = D.Categorical(logits=actor(obs[mb]))
        lp = d.log_prob(acts[mb]); ratio = (lp - old_lp[mb]).exp()
        a = adv[mb]; a = (a - a.mean()) / (a.std() + 1e-8)
        pg = -torch.min(ratio * a, torch.clamp(ratio, 0.8, 1.2) * a).mean()
        vl = 0.5 * (critic(obs[mb]).squeeze(-1) - ret[mb]).pow(2).mean()
        ent = d.entropy().mean()
        loss = pg + 0.5 * vl - 0.01 * ent
        opt.zero_grad(); loss.backward()
        nn.utils.clip_grad_norm_(list(actor.parameters()) + list(critic.parameters()), 0.5)
        opt.step()
        with torch.no_grad():
            kl = ((ratio - 1) - (lp - old_lp[mb])).mean()
            clipfrac = ((ratio - 1.0).abs() > 0.2).float().mean()
    print(ep, f"{pg.item():.4f} {vl.item():.4f} {ent.item():.4f} {kl.item():.5f} {clipfrac.item():.2f}")
print(D.Categorical(logits=torch.tensor([[0., 0.], [1., -1.]])).entropy())
b = D.Bernoulli(logits=torch.tensor([0.3, -2.0]))
print(b.sample((3,)).shape, b.log_prob(torch.tensor([1., 0.])), b.entropy(), b.mean, b.probs)
mnd = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1., 0.], [0.5, 2.]]))
print(mnd.log_prob(torch.tensor([[0.1, -0.2]])), mnd.sample((4,)).shape, mnd.variance)
print(D.kl_divergence(D.Categorical(probs=torch.tensor([0.2, 0.8])), D.Categorical(probs=torch.tensor([0.5, 0.5]))))
beta = D.Beta(torch.tensor([2.0]), torch.tensor([3.0]))
print(beta.sample().shape, beta.log_prob(torch.tensor([0.3])), beta.mean, beta.rsample().requires_grad)
''',
    'vqvae': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class VQ(nn.Module):
    def __init__(self, K=8, d=4, beta=0.25):
        super().__init__()
        self.emb = nn.Embedding(K, d); self.emb.weight.data.uniform_(-1 / K, 1 / K); self.beta = beta; self.K = K
    def forward(self, z):
        z = z.permute(0, 2, 3, 1).contiguous(); flat = z.view(-1, z.shape[-1])
        d = (flat ** 2).sum(1, keepdim=True) + (self.emb.weight ** 2).sum(1) - 2 * flat @ self.emb.weight.t()
        idx = torch.argmin(d, dim=1).unsqueeze(1)
        enc = torch.zeros(idx.shape[0], self.K).scatter_(1, idx, 1)
        q = (enc @ self.emb.weight).view(z.shape)
        loss = F.mse_loss(q.detach(), z) * self.beta + F.mse_loss(q, z.detach())
        q = z + (q - z).detach()
        avg = enc.mean(0); perp = torch.exp(-(avg * torch.log(avg + 1e-10)).sum())
        return loss, q.permute(0, 3, 1, 2).contiguous(), perp, idx.view(z.shape[:-1])
enc = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1), nn.ReLU(), nn.Conv2d(8, 4, 3, 1, 1))
dec = nn.Sequential(nn.ConvTranspose2d(4, 8, 4, 2, 1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
vq = VQ()
params = list(enc.parameters()) + list(vq.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=3e-3, amsgrad=False)
x = torch.rand(4, 1, 8, 8)
for it in range(4):
    l_vq, q, perp, idx = vq(enc(x))
    rec = dec(q)
    l_rec = F.mse_loss(rec, x)
    loss = l_rec + l_vq
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, f"{l_rec.item():.5f} {l_vq.item():.6f} {perp.item():.3f}", idx.shape, idx.unique().numel())
print(vq.emb.weight.grad.abs().sum() > 0, enc[0].weight.grad is not None)
print(torch.unique(idx, return_counts=True)[1].sum(), torch.unique(torch.tensor([3, 1, 3, 2]), sorted=True, return_inverse=True))
''',
    'gp_kmeans': r'''
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
X = torch.linspace(0, 5, 12).unsqueeze(1); y = torch.sin(X).squeeze() + 0.1 * torch.randn(12)
Xs = torch.linspace(0, 5, 4).unsqueeze(1)
ls = torch.tensor(1.0, requires_grad=True); sf = torch.tensor(0.5, requires_grad=True); sn = torch.tensor(-2.0, requires_grad=True)
def K(a, b): return sf.exp() ** 2 * torch.exp(-0.5 * torch.cdist(a, b) ** 2 / ls.exp() ** 2)
opt = torch.optim.Adam([ls, sf, sn], lr=0.05)
for it in range(5):
    Kxx = K(X, X) + (sn.exp() ** 2 + 1e-6) * torch.eye(12)
    L = torch.linalg.cholesky(Kxx)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    nll = 0.5 * y @ alpha.squeeze() + torch.log(torch.diagonal(L)).sum() + 6 * torch.log(torch.tensor(2 * torch.pi))
    opt.zero_grad(); nll.backward(); opt.step()
    print(it, round(nll.item(), 6), round(ls.item(), 5))
with torch.no_grad():
    Ks = K(Xs, X); mu = Ks @ alpha
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = K(Xs, Xs).diagonal() - (v ** 2).sum(0)
print(mu.squeeze().round(decimals=4), var.round(decimals=4), mu.dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.0]).dtype, torch.get_default_dtype())
pts = torch.cat([torch.randn(10, 2) + 3, torch.randn(10, 2) - 3])
C = pts[torch.randperm(20)[:2]].clone()
for it in range(5):
    assign = torch.cdist(pts, C).argmin(1)
    newC = torch.zeros_like(C).index_add_(0, assign, pts) / torch.bincount(assign, minlength=2).unsqueeze(1)
    shift = (newC - C).norm()
    C = newC
    print(it, assign.bincount().tolist(), round(shift.item(), 4))
U, S, V = torch.pca_lowrank(pts, q=2)
print(S.round(decimals=3), U.shape, V.shape)
u, s, vh = torch.linalg.svd(pts - pts.mean(0), full_matrices=False)
print(torch.allclose(s, S, atol=1e-4), s.round(decimals=3))
ev, evec = torch.linalg.eigh(torch.cov(pts.T))
print(ev.round(decimals=4), torch.cov(pts.T).round(decimals=4), torch.corrcoef(pts.T).round(decimals=4))
print(torch.linalg.lstsq(X.float(), y.float().unsqueeze(1)).solution.round(decimals=4))
''',
    'ode_moe': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class ODEF(nn.Module):
    def __init__(self): super().__init__(); self.net = nn.Sequential(nn.Linear(3, 16), nn.Softplus(), nn.Linear(16, 2))
    def forward(self, t, y): return self.net(torch.cat([y, t.expand(y.shape[0], 1)], 1))
def rk4(f, y0, ts):
    ys = [y0]; y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        h = t1 - t0
        k1 = f(t0, y); k2 = f(t0 + h / 2, y + h * k1 / 2); k3 = f(t0 + h / 2, y + h * k2 / 2); k4 = f(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4); ys.append(y)
    return torch.stack(ys)
f = ODEF(); ts = torch.linspace(0, 1, 5)
y0 = torch.randn(4, 2); target = torch.stack([y0 * torch.exp(-t) for t in ts])
opt = torch.optim.Adam(f.parameters(), lr=1e-2)
for it in range(3):
    pred = rk4(f, y0, ts); loss = F.mse_loss(pred, target)
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, pred.shape, round(loss.item(), 5))
class MoE(nn.Module):
    def __init__(self, d=6, E=4, k=2):
        super().__init__()
        self.gate = nn.Linear(d, E, bias=False); self.k = k
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(d, 8), nn.SiLU(), nn.Linear(8, d)) for _ in range(E)])
    def forward(self, x):
        logits = self.gate(x)
        w, idx = logits.topk(self.k, dim=-1)
        w = F.softmax(w, dim=-1)
        out = torch.zeros_like(x)
        for e, ex in enumerate(self.experts):
            tok, slot = torch.where(idx == e)
            if tok.numel() == 0: continue
            out.index_add_(0, tok, w[tok, slot].unsqueeze(-1) * ex(x[tok]))
        probs = logits.softmax(-1)
        load = F.one_hot(idx[:, 0], len(self.experts)).float().mean(0)
        aux = (probs.mean(0) * load).sum() * len(self.experts)
        return out, aux, idx
moe = MoE(); opt = torch.optim.SGD(moe.parameters(), lr=0.1)
x = torch.randn(10, 6)
for it in range(3):
    out, aux, idx = moe(x)
    loss = out.pow(2).mean() + 0.01 * aux
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, round(loss.item(), 5), round(aux.item(), 4), torch.bincount(idx.flatten(), minlength=4).tolist())
print(moe.experts[0][1], moe.gate.weight.grad.shape)
print(torch.where(torch.tensor([[1, 0], [0, 1]]) > 0))
''',
    'charrnn': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
text = "hello world, hello torch. the quick brown fox."
chars = sorted(set(text)); stoi = {c: i for i, c in enumerate(chars)}; itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
V = len(chars)
class CharLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16); self.lstm = nn.LSTM(16, 32, num_layers=2, dropout=0.1, batch_first=True)
        self.fc = nn.Linear(32, V)
    def forward(self, x, h=None):
        o, h = self.lstm(self.emb(x), h)
        return self.fc(o), h
m = CharLSTM(); opt = torch.optim.Adam(m.parameters(), lr=5e-3)
seq = 10
for it in range(5):
    ix = torch.randint(0, len(data) - seq - 1, (4,))
    xb = torch.stack([data[i:i+seq] for i in ix]); yb = torch.stack([data[i+1:i+seq+1] for i in ix])
    logits, _ = m(xb)
    loss = F.cross_entropy(logits.view(-1, V), yb.view(-1))
    opt.zero_grad(); loss.backward(); nn.utils.clip_grad_norm_(m.parameters(), 1.0); opt.step()
    print(it, round(loss.item(), 4))
@torch.no_grad()
def sample(start, n, temp=0.8, top_k=None, top_p=None):
    m.eval(); x = torch.tensor([[stoi[start]]]); h = None; out = [start]
    g = torch.Generator().manual_seed(1)
    for _ in range(n):
        logits, h = m(x, h); logits = logits[:, -1] / temp
        if top_k is not None:
            v, _ = torch.topk(logits, top_k); logits[logits < v[:, [-1]]] = -float("inf")
        if top_p is not None:
            sl, si = torch.sort(logits, descending=True)
            cp = torch.cumsum(F.softmax(sl, -1), -1)
            rm = cp > top_p; rm[..., 1:] = rm[..., :-1].clone(); rm[..., 0] = False
            logits[0, si[rm]] = -float("inf")
        p = F.softmax(logits, -1)
        x = torch.multinomial(p, 1, generator=g)
        out.append(itos[x.item()])
    return "".join(out)
print(repr(sample("h", 12)), repr(sample("t", 12, top_k=3)), repr(sample("q", 12, top_p=0.9)))
print(m.lstm, [tuple(p.shape) for n, p in m.lstm.named_parameters()][:4])
h0 = (torch.zeros(2, 1, 32), torch.zeros(2, 1, 32))
o, (h, c) = m.lstm(torch.randn(1, 3, 16), h0)
print(o.shape, h.shape, c.shape)
try:
    m.lstm(torch.randn(1, 3, 16), torch.zeros(2, 1, 32))
except Exception as e:
    print(type(e).__name__, str(e)[:80])
print(torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 4, replacement=True, generator=torch.Generator().manual_seed(0)))
try:
    torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 3)
except RuntimeError as e:
    print("RT", e)
''',
    'audio': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
sr = 800
t = torch.arange(0, 0.5, 1 / sr)
wave = torch.sin(2 * math.pi * 50 * t) + 0.3 * torch.randn_like(t)
print(t.shape, t.dtype, wave[:3])
win = torch.hann_window(64)
spec = torch.stft(wave, n_fft=64, hop_length=16, win_length=64, window=win, return_complex=True)
print(spec.shape, spec.dtype, spec.abs().pow(2)[:3, 0].round(decimals=3))
mag = spec.abs()
rec = torch.istft(spec, n_fft=64, hop_length=16, window=win, length=wave.numel())
print(torch.allclose(rec, wave, atol=1e-5), (rec - wave).abs().max() < 1e-4)
def mel(f): return 2595 * torch.log10(1 + f / 700)
def imel(m): return 700 * (10 ** (m / 2595) - 1)
nm = 6
mpts = torch.linspace(mel(torch.tensor(0.)), mel(torch.tensor(sr / 2)), nm + 2)
bins = torch.floor((64 + 1) * imel(mpts) / sr).long()
fb = torch.zeros(nm, 33)
for m in range(1, nm + 1):
    l, c, r = bins[m - 1], bins[m], bins[m + 1]
    for k in range(l, c): fb[m - 1, k] = (k - l) / (c - l)
    for k in range(c, r): fb[m - 1, k] = (r - k) / (r - c)
melspec = torch.log(fb @ mag.pow(2) + 1e-6)
print(bins.tolist(), melspec.shape, melspec.mean().round(decimals=3))
fr = torch.fft.rfft(wave); freqs = torch.fft.rfftfreq(wave.numel(), d=1 / sr)
print(freqs[fr.abs().argmax()].item(), fr.dtype, freqs.dtype)
class CausalConv(nn.Conv1d):
    def __init__(self, i, o, k, d):
        super().__init__(i, o, k, dilation=d); self.lp = (k - 1) * d
    def forward(self, x): return super().forward(F.pad(x, (self.lp, 0)))
class WaveBlock(nn.Module):
    def __init__(self, c, d):
        super().__init__()
        self.f = CausalConv(c, c, 2, d); self.g = CausalConv(c, c, 2, d); self.res = nn.Conv1d(c, c, 1)
    def forward(self, x):
        return x + self.res(torch.tanh(self.f(x)) * torch.sigmoid(self.g(x)))
net = nn.Sequential(nn.Conv1d(1, 8, 1), *[WaveBlock(8, 2 ** i) for i in range(3)], nn.Conv1d(8, 1, 1))
print(net[1])
x = wave[:-1].view(1, 1, -1); y = wave[1:].view(1, 1, -1)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for it in range(3):
    out = net(x); loss = F.mse_loss(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, out.shape, round(loss.item(), 5))
q = torch.clamp(wave, -1, 1)
mu = 255
enc = torch.sign(q) * torch.log1p(mu * q.abs()) / math.log1p(mu)
codes = ((enc + 1) / 2 * mu + 0.5).to(torch.int64)
print(codes[:6], codes.dtype, codes.max() <= 255)
print(torch.fft.fftshift(torch.arange(6)), torch.fft.irfft(fr).shape)
print(torch.kaiser_window(5, periodic=False), torch.hamming_window(4), torch.bartlett_window(5))
''',
    'translate': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
PAD, BOS, EOS = 0, 1, 2
class Seq2SeqT(nn.Module):
    def __init__(self, V=15, d=16):
        super().__init__()
        self.src_emb = nn.Embedding(V, d, padding_idx=PAD); self.tgt_emb = nn.Embedding(V, d, padding_idx=PAD)
        self.tf = nn.Transformer(d_model=d, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.gen = nn.Linear(d, V); self.d = d
    def forward(self, src, tgt):
        tm = self.tf.generate_square_subsequent_mask(tgt.size(1))
        return self.gen(self.tf(self.src_emb(src) * math.sqrt(self.d), self.tgt_emb(tgt) * math.sqrt(self.d), tgt_mask=tm,
                                src_key_padding_mask=src == PAD, tgt_key_padding_mask=tgt == PAD, memory_key_padding_mask=src == PAD))
m = Seq2SeqT()
print(type(m.tf.encoder).__name__, type(m.tf.decoder.layers[0]).__name__, m.tf.decoder.norm)
src = torch.tensor([[5, 6, 7, 2, 0], [8, 9, 2, 0, 0]]); tgt = torch.tensor([[1, 7, 6, 5, 2], [1, 9, 8, 2, 0]])
opt = torch.optim.Adam(m.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
crit = nn.CrossEntropyLoss(ignore_index=PAD)
for it in range(4):
    logits = m(src, tgt[:, :-1])
    loss = crit(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, round(loss.item(), 4), logits.shape)
m.eval()
with torch.no_grad():
    mem = m.tf.encoder(m.src_emb(src[:1]) * 4, src_key_padding_mask=src[:1] == PAD)
    ys = torch.tensor([[BOS]])
    for i in range(5):
        tm = nn.Transformer.generate_square_subsequent_mask(ys.size(1)).bool()
        out = m.tf.decoder(m.tgt_emb(ys) * 4, mem, tgt_mask=tm, tgt_is_causal=True)
        nxt = m.gen(out[:, -1]).argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], 1)
print(ys, mem.shape)
mha = nn.MultiheadAttention(8, 2, batch_first=True, kdim=6, vdim=4, add_bias_kv=True, add_zero_attn=True)
print(mha, sorted(n for n, _ in mha.named_parameters()))
q = torch.randn(2, 3, 8); k = torch.randn(2, 5, 6); v = torch.randn(2, 5, 4)
o, w = mha(q, k, v, key_padding_mask=torch.tensor([[False] * 5, [False] * 3 + [True] * 2]))
print(o.shape, w.shape, w.sum(-1).round(decimals=4))
o, w = mha(q, k, v, need_weights=True, average_attn_weights=False)
print(w.shape)
mha2 = nn.MultiheadAttention(8, 2)
o, w = mha2(torch.randn(3, 2, 8), torch.randn(4, 2, 8), torch.randn(4, 2, 8), attn_mask=torch.zeros(3, 4, dtype=torch.bool), need_weights=False)
print(o.shape, w)
try:
    nn.MultiheadAttention(7, 2)
except AssertionError as e:
    print("AE", e)
print(F.scaled_dot_product_attention(torch.randn(2, 2, 3, 4), torch.randn(2, 2, 3, 4), torch.randn(2, 2, 3, 4), is_causal=True).shape)
''',
    'cells_norms': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
cell = nn.LSTMCell(3, 5); gc = nn.GRUCell(3, 5); rc = nn.RNNCell(3, 5, nonlinearity="relu")
x = torch.randn(6, 2, 3)
h, c = torch.zeros(2, 5), torch.zeros(2, 5); hg = torch.zeros(2, 5); hr = None
outs = []
for t in range(6):
    h, c = cell(x[t], (h, c)); hg = gc(x[t], hg); hr = rc(x[t], hr)
    outs.append(h)
print(torch.stack(outs).shape, h[0], hg[1], hr[0])
print(cell, gc, rc)
print(gc(x[0, 0]).shape)
rnn = nn.RNN(3, 4, num_layers=2, nonlinearity="relu", bidirectional=True)
o, hn = rnn(x)
print(o.shape, hn.shape, o[-1, 0].detach())
lstm = nn.LSTM(3, 6, proj_size=2, batch_first=True)
o, (hh, cc) = lstm(x.transpose(0, 1))
print(o.shape, hh.shape, cc.shape, [n for n, _ in lstm.named_parameters()])
gn = nn.GroupNorm(2, 4); inn = nn.InstanceNorm1d(4, affine=True, track_running_stats=True); lrn = nn.LocalResponseNorm(2)
z = torch.randn(3, 4, 7)
print(gn(z)[0, :, 0].detach(), inn(z)[0, 0, :3].detach(), inn.running_mean, lrn(z).shape)
inn.eval(); print(inn(z)[0, 0, :3].detach())
print(gn, inn, lrn)
ps = nn.PixelShuffle(2); pu = nn.PixelUnshuffle(2)
im = torch.arange(32.).view(1, 8, 2, 2)
print(ps(im).shape, torch.equal(pu(ps(im)), im), ps(im)[0, 0])
print(nn.ChannelShuffle(2)(torch.arange(8.).view(1, 4, 1, 2)).flatten())
bl = nn.Bilinear(3, 4, 2)
print(bl(torch.randn(5, 3), torch.randn(5, 4)).shape, bl)
ln = nn.LayerNorm([4, 7], elementwise_affine=False)
print(ln(z).mean().abs() < 1e-6, ln, nn.RMSNorm(7)(z).shape, nn.RMSNorm([4, 7], eps=1e-5))
bn = nn.BatchNorm1d(4, momentum=None)
for _ in range(3): bn(torch.randn(8, 4) * 2 + 1)
print(bn.running_mean, bn.num_batches_tracked, bn)
try:
    bn(torch.randn(1, 4))
except ValueError as e:
    print("VE", e)
try:
    nn.GroupNorm(3, 4)
except ValueError as e:
    print("VE", e)
''',
    'warnings': r'''
import warnings
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
def show(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = fn()
        except Exception as e:
            r = f"!! {type(e).__name__}: {e}"
    for x in w:
        print("  W", x.category.__name__, str(x.message).split("\n")[0].split(" (Triggered internally")[0][:150])
    return r
m = nn.Linear(3, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, 1)
print(show(lambda: s.step()))
print(show(lambda: F.mse_loss(torch.randn(4, 1), torch.randn(4)).shape))
print(show(lambda: F.softmax(torch.randn(2, 3)).shape))
print(show(lambda: F.log_softmax(torch.randn(2, 3, 4)).shape))
t = torch.randn(3)
print(show(lambda: torch.tensor(t).shape))
x = torch.randn(3, requires_grad=True); y = x * 2
print(show(lambda: y.grad))
print(show(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, norm_first=True), 2).num_layers))
print(show(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, batch_first=True), 2).num_layers))
print(show(lambda: nn.GRU(3, 4, num_layers=1, dropout=0.5).dropout))
print(show(lambda: F.interpolate(torch.randn(1, 1, 4, 4), scale_factor=2, mode="bilinear").shape))
print(show(lambda: nn.utils.clip_grad_norm_([nn.Parameter(torch.randn(2))], 1.0)))
print(show(lambda: torch.nn.init.kaiming_normal_(torch.empty(0, 3))))
print(show(lambda: F.sigmoid(torch.tensor([0.0]))))
print(show(lambda: F.tanh(torch.tensor([0.0]))))
print(show(lambda: F.upsample(torch.randn(1, 1, 2, 2), scale_factor=2).shape))
print(show(lambda: nn.Softmax()(torch.randn(2, 3)).shape))
print(show(lambda: torch.range(0, 3)))
print(show(lambda: nn.utils.weight_norm(nn.Linear(2, 2)).weight_g.shape))
print(show(lambda: torch.cross(torch.randn(3, 3), torch.randn(3, 3)).shape))
print(show(lambda: F.dropout2d(torch.randn(2, 3, 4)).shape))
print(show(lambda: torch.stft(torch.randn(64), 16, return_complex=True).shape))
print(show(lambda: nn.CrossEntropyLoss(size_average=False).reduction))
print(show(lambda: torch.lu(torch.randn(3, 3))[1]))
print(show(lambda: torch.norm(torch.randn(3), p="fro")))
print(show(lambda: torch.meshgrid(torch.arange(2), torch.arange(2))[0]))
print(show(lambda: x.data.numpy().shape))
print(show(lambda: torch.from_numpy(np.ones(2)).dtype))
def step_twice():
    o = torch.optim.Adam(m.parameters()); sc = torch.optim.lr_scheduler.ExponentialLR(o, 0.9)
    sc.step(); o.step(); sc.step(); return sc.get_last_lr()
print(show(step_twice))
print(show(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, verbose=True).patience))
print(show(lambda: m.state_dict(destination=None, prefix="a.", keep_vars=False).keys()))
''',
    'wgangp': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Unflatten(1, (2, 4, 4)), nn.ConvTranspose2d(2, 1, 4, 2, 1), nn.Tanh())
D = nn.Sequential(nn.Conv2d(1, 4, 3, 2, 1), nn.InstanceNorm2d(4, affine=True), nn.LeakyReLU(0.2),
                  nn.Conv2d(4, 8, 3, 2, 1), nn.LayerNorm([8, 2, 2]), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(32, 1))
print(G, D)
oG = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.0, 0.9)); oD = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.0, 0.9))
real = torch.rand(5, 1, 8, 8) * 2 - 1
def gp(D, real, fake):
    a = torch.rand(real.size(0), 1, 1, 1)
    xi = (a * real + (1 - a) * fake).requires_grad_(True)
    d = D(xi)
    g = torch.autograd.grad(outputs=d, inputs=xi, grad_outputs=torch.ones_like(d), create_graph=True, retain_graph=True, only_inputs=True)[0]
    g = g.view(g.size(0), -1)
    return ((g.norm(2, dim=1) - 1) ** 2).mean(), g
for it in range(3):
    for _ in range(2):
        z = torch.randn(5, 4)
        fake = G(z).detach()
        pen, g = gp(D, real, fake)
        lD = D(fake).mean() - D(real).mean() + 10 * pen
        oD.zero_grad(); lD.backward(); oD.step()
    z = torch.randn(5, 4)
    lG = -D(G(z)).mean()
    oG.zero_grad(); lG.backward(); oG.step()
    print(it, f"{lD.item():.3f} {pen.item():.4f} {lG.item():.4f} {g.norm(dim=1).mean().item():.4f}")
print(D[1].weight.grad.round(decimals=2), D[0].weight.grad.abs().sum().round(decimals=1))
x = torch.randn(2, 3, 5, requires_grad=True)
y = F.instance_norm(x, weight=torch.ones(3), bias=torch.zeros(3))
gx, = torch.autograd.grad(y.pow(3).sum(), x, create_graph=True)
print(gx.grad_fn is not None, torch.autograd.grad(gx.sum(), x)[0].abs().sum().round(decimals=4))
''',
    'maml': r'''
nn = torch.nn; F = torch.nn.functional
func = torch.func
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(1, 20), nn.ReLU(), nn.Linear(20, 20), nn.ReLU(), nn.Linear(20, 1))
meta = torch.optim.Adam(model.parameters(), lr=1e-3)
def task():
    A = torch.rand(1) * 4 + 0.1; ph = torch.rand(1) * 3.14
    xs = torch.rand(10, 1) * 10 - 5; xq = torch.rand(10, 1) * 10 - 5
    return xs, A * torch.sin(xs + ph), xq, A * torch.sin(xq + ph)
for it in range(3):
    meta.zero_grad(); tot = 0.
    for _ in range(2):
        xs, ys, xq, yq = task()
        params = dict(model.named_parameters())
        for _ in range(2):
            l = F.mse_loss(func.functional_call(model, params, (xs,)), ys)
            grads = torch.autograd.grad(l, list(params.values()), create_graph=True)
            params = {k: v - 0.01 * g for (k, v), g in zip(params.items(), grads)}
        lq = F.mse_loss(func.functional_call(model, params, (xq,)), yq)
        lq.backward(); tot += lq.item()
    meta.step()
    print(it, round(tot / 2, 4), round(model[0].weight.grad.norm().item(), 4))
print(type(params["0.weight"]).__name__, params["0.weight"].grad_fn.name())
def loss_fn(p, x, y): return F.mse_loss(func.functional_call(model, p, (x,)), y)
p0 = {k: v.detach() for k, v in model.named_parameters()}
xs, ys, _, _ = task()
g = func.grad(loss_fn)(p0, xs, ys)
print(sorted(g.keys()), round(sum(v.sum() for v in g.values()).item(), 3))
v = [torch.ones_like(p) for p in model.parameters()]
l = F.mse_loss(model(xs), ys)
gs = torch.autograd.grad(l, model.parameters(), create_graph=True)
hvp = torch.autograd.grad(gs, model.parameters(), grad_outputs=v)
print([round(h.sum().item(), 2) for h in hvp])
from_af = torch.autograd.functional
print(from_af.hvp(lambda w: (w ** 3).sum(), torch.tensor([1., 2.]), torch.tensor([1., 1.])))
print(from_af.jacobian(lambda a, b: a * b, (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))
print(from_af.hessian(lambda w: (w ** 2).prod(), torch.tensor([1., 2.]), vectorize=True))
print(from_af.vjp(lambda w: w.exp(), torch.zeros(2), torch.ones(2)))
''',
    'checkpoint': r'''
cp = torch.utils.checkpoint
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self): super().__init__(); self.l = nn.Linear(8, 8); self.d = nn.Dropout(0.5)
    def forward(self, x): return x + self.d(F.gelu(self.l(x)))
blocks = nn.ModuleList([Block() for _ in range(3)])
x = torch.randn(4, 8, requires_grad=True)
def run(ckpt, reentrant=False):
    torch.manual_seed(1)
    h = x
    for b in blocks:
        h = cp.checkpoint(b, h, use_reentrant=reentrant) if ckpt else b(h)
    h.sum().backward()
    g = x.grad.clone(); x.grad = None
    gw = blocks[0].l.weight.grad.clone(); blocks.zero_grad()
    return h.detach(), g, gw
a = run(False); b = run(True); c = run(True, True)
print(torch.allclose(a[0], b[0]), torch.allclose(a[1], b[1]), torch.allclose(a[2], b[2]), torch.allclose(a[1], c[1]))
print(a[1][0, :3])
seq = nn.Sequential(*[nn.Sequential(nn.Linear(8, 8), nn.Tanh()) for _ in range(4)])
o = cp.checkpoint_sequential(seq, 2, x, use_reentrant=False)
print(o.shape, o.grad_fn is not None)
o.sum().backward(); print(x.grad.shape)
class GradRev(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g.neg() * ctx.alpha, None
feat = nn.Linear(8, 4); dom = nn.Linear(4, 2); cls = nn.Linear(4, 3)
x2 = torch.randn(6, 8)
f = feat(x2)
l = F.cross_entropy(cls(f), torch.tensor([0, 1, 2, 0, 1, 2])) + F.cross_entropy(dom(GradRev.apply(f, 0.5)), torch.tensor([0, 0, 0, 1, 1, 1]))
l.backward()
print(round(l.item(), 4), feat.weight.grad.abs().sum().round(decimals=4), type(GradRev.apply(f, 1.0).grad_fn).__name__)
class STE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x): return (x > 0).float()
    @staticmethod
    def backward(ctx, g): return F.hardtanh(g)
z = torch.randn(5, requires_grad=True)
STE.apply(z).mul(3).sum().backward(); print(z.grad)
class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x); ctx.lo, ctx.hi = lo, hi; return x.clamp(lo, hi)
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ((x >= ctx.lo) & (x <= ctx.hi)), None, None
w = torch.randn(6, requires_grad=True)
y = Clamp.apply(w, -0.5, 0.5)
g, = torch.autograd.grad(y.sum(), w, create_graph=True)
print(g, g.requires_grad, y.grad_fn.__class__.__name__)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RT", str(e)[:90])
''',
    'metrics': r'''
torch.manual_seed(0)
n = 4
y = torch.randint(0, n, (50,)); p = torch.where(torch.rand(50) < 0.6, y, torch.randint(0, n, (50,)))
p[p == 3] = 2
cm = torch.bincount(n * y + p, minlength=n * n).reshape(n, n)
print(cm)
tp = cm.diag(); prec = tp / cm.sum(0); rec = tp / cm.sum(1)
f1 = 2 * prec * rec / (prec + rec)
print(prec, rec, f1)
print(torch.nan_to_num(f1).mean(), f1.nanmean(), torch.nansum(f1))
print(f"acc={(p == y).float().mean():.3f}", "{:.2%}".format((p == y).float().mean().item()))
scores = torch.rand(20); labels = (torch.rand(20) < 0.5).long()
order = scores.argsort(descending=True)
tps = labels[order].cumsum(0); fps = (1 - labels[order]).cumsum(0)
tpr = tps / labels.sum(); fpr = fps / (1 - labels).sum()
tpr = torch.cat([torch.zeros(1), tpr]); fpr = torch.cat([torch.zeros(1), fpr])
print(tps.dtype, tpr.dtype, round(torch.trapezoid(tpr, fpr).item(), 4))
print(torch.cumulative_trapezoid(tpr[:5], fpr[:5]))
cm2 = torch.zeros(n, n, dtype=torch.long)
cm2.index_put_((y, p), torch.ones_like(y), accumulate=True)
print(torch.equal(cm, cm2), cm.sum(), cm.float().div(cm.sum(1, keepdim=True)).round(decimals=2))
print(torch.histc(scores, bins=4, min=0, max=1), torch.histogram(scores, bins=4).hist)
edges = torch.tensor([0.25, 0.5, 0.75])
print(torch.bucketize(scores[:6], edges), torch.searchsorted(edges, scores[:6], right=True))
print(torch.quantile(scores, torch.tensor([0.1, 0.5, 0.9])), torch.quantile(scores, 0.5, interpolation="nearest"))
print(scores.median(), scores.kthvalue(3), torch.mode(y))
print(y.unique(return_counts=True), torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1])))
s = torch.tensor(3.14159)
print(f"{s:.2f}", f"{s}", f"{torch.tensor(7)}", f"{s.item():e}", "%.3f" % s)
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except TypeError as e:
    print("TE", e)
print(torch.tensor([1.0, float("nan"), float("inf")]).isfinite(), 1 / torch.tensor(0.), torch.tensor(0.) / 0)
print(torch.topk(scores, 3, largest=False, sorted=True))
print((y == p).sum().item() / len(y), type((y == p).sum().item()))
print(torch.tensor([5, 2]) // torch.tensor([2, -3]), torch.tensor([5, -7]) % 3, torch.tensor([7]) / 2, torch.div(torch.tensor([-7]), 2, rounding_mode="trunc"))
''',
    'print': r'''
nn = torch.nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
print(m.state_dict())
print(list(m.named_parameters())[0])
print(m[0].weight)
torch.set_printoptions(linewidth=40)
print(torch.randn(3, 8))
torch.set_printoptions(profile="default")
print(torch.tensor([1e10, 1.0]), torch.tensor([123456789.0]), torch.tensor([1e-10, 1.0]), torch.tensor([0.1, 100000.0]))
print(torch.tensor([2**40, -3]), torch.tensor([True, False]), torch.tensor([[1.5, float("nan")], [float("-inf"), 2.0]]))
print(torch.tensor([1 + 2j, -0.5j]), torch.zeros(0, 3), torch.ones(2, 0), torch.tensor([]))
print(torch.randn(2, 2, 2, requires_grad=True) * 2)
print(torch.randn(2, 3).to(torch.float16), torch.arange(6, dtype=torch.uint8).view(2, 3), torch.randn(2).double())
print(torch.full((2,), 1e-5), torch.full((3,), 12345.678), torch.tensor([1e-5, 1e5]))
print(torch.arange(2000.).view(2, 1000))
print(torch.tensor(float("nan")), torch.tensor(-0.0), torch.tensor([1e300]).double(), torch.tensor([1.0, 2.0]).int())
opt = torch.optim.Adam(m.parameters(), lr=1e-3, weight_decay=1e-4)
print(opt)
print(torch.optim.SGD([{"params": m[0].weight}, {"params": m[0].bias, "lr": 0.5}], lr=0.1, momentum=0.9))
print(torch.randn(2, 3)[:, None].shape, torch.Size([2, 3]), torch.Size([]), torch.Size([2]).numel())
p = nn.Parameter(torch.ones(2)); print(p, repr(p * 1))
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3, 3))]); print(pl)
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(1)), "b": nn.Parameter(torch.ones(2, 2).double())}); print(pd)
md = nn.ModuleDict({"enc": nn.Linear(2, 2), "act": nn.Tanh()}); print(md)
print(nn.ModuleList([nn.Linear(2, 2) for _ in range(3)]))
print(nn.Sequential(nn.Conv2d(1, 2, (3, 5), stride=(2, 1), padding="same" if False else 1, dilation=2, groups=1, padding_mode="reflect"), nn.MaxPool2d(2, ceil_mode=True), nn.Dropout(p=0.25), nn.Embedding(10, 3, max_norm=1.0, sparse=True)))
print(torch.tensor([0.0001, 0.001]), torch.tensor([1.0, 1000.5]), torch.tensor([-1e-4, 5.0]))
print(torch.randn(4, 4).to_sparse(), torch.eye(2).to_sparse_csr())
''',
    'worker_rng': r'''
import random
DL = torch.utils.data.DataLoader
class Aug(torch.utils.data.Dataset):
    def __len__(self): return 6
    def __getitem__(self, i):
        wi = torch.utils.data.get_worker_info()
        return torch.rand(1).item(), random.random() if False else 0, (wi.id if wi else -1), i
torch.manual_seed(0)
for nw in (0, 2):
    for ep in range(2):
        out = [(round(a, 4), w, i) for b in DL(Aug(), batch_size=None, num_workers=nw, shuffle=True) for a, _, w, i in [b]]
        print(nw, ep, out)
    print(nw, torch.rand(2))
torch.manual_seed(0)
dl = DL(Aug(), batch_size=2, num_workers=2, persistent_workers=True, shuffle=False)
for ep in range(2):
    print([(b[0].round(decimals=4).tolist(), b[2].tolist()) for b in dl])
print(torch.rand(1))
g = torch.Generator(); g.manual_seed(5)
dl = DL(Aug(), batch_size=3, shuffle=True, generator=g, num_workers=2)
print([b[3].tolist() for b in dl], g.initial_seed(), torch.rand(1))
def wif(i):
    info = torch.utils.data.get_worker_info()
    print("init", i, info.num_workers, info.seed - torch.initial_seed(), flush=True)
it = iter(DL(Aug(), batch_size=3, num_workers=2, worker_init_fn=wif))
print(next(it)[3])
''',
    'llama': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)
def apply_rotary(xq, xk, fc):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    fc = fc.view(1, xq_.shape[1], 1, xq_.shape[-1])
    return torch.view_as_real(xq_ * fc).flatten(3).type_as(xq), torch.view_as_real(xk_ * fc).flatten(3).type_as(xk)
class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__(); self.eps = eps; self.weight = nn.Parameter(torch.ones(d))
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight
class Attn(nn.Module):
    def __init__(self, d=16, h=4, kvh=2):
        super().__init__(); self.h, self.kvh, self.hd = h, kvh, d // h
        self.wq = nn.Linear(d, h * self.hd, bias=False); self.wk = nn.Linear(d, kvh * self.hd, bias=False)
        self.wv = nn.Linear(d, kvh * self.hd, bias=False); self.wo = nn.Linear(h * self.hd, d, bias=False)
    def forward(self, x, fc, mask, cache=None):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.h, self.hd); k = self.wk(x).view(B, T, self.kvh, self.hd); v = self.wv(x).view(B, T, self.kvh, self.hd)
        q, k = apply_rotary(q, k, fc)
        if cache is not None:
            k = torch.cat([cache[0], k], 1); v = torch.cat([cache[1], v], 1)
        newc = (k, v)
        rep = self.h // self.kvh
        k = k.repeat_interleave(rep, dim=2); v = v.repeat_interleave(rep, dim=2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        s = q @ k.transpose(-2, -1) / math.sqrt(self.hd)
        if mask is not None: s = s + mask
        o = F.softmax(s.float(), dim=-1).type_as(q) @ v
        return self.wo(o.transpose(1, 2).contiguous().view(B, T, -1)), newc
class FF(nn.Module):
    def __init__(self, d=16, hid=24):
        super().__init__(); self.w1 = nn.Linear(d, hid, bias=False); self.w2 = nn.Linear(hid, d, bias=False); self.w3 = nn.Linear(d, hid, bias=False)
    def forward(self, x): return self.w2(F.silu(self.w1(x)) * self.w3(x))
class Block(nn.Module):
    def __init__(self):
        super().__init__(); self.attn = Attn(); self.ff = FF(); self.n1 = RMSNorm(16); self.n2 = RMSNorm(16)
    def forward(self, x, fc, mask, cache=None):
        a, c = self.attn(self.n1(x), fc, mask, cache)
        h = x + a
        return h + self.ff(self.n2(h)), c
V = 20
emb = nn.Embedding(V, 16); blk = Block(); head = nn.Linear(16, V, bias=False); head.weight = emb.weight
fc = precompute_freqs_cis(4, 32)
print(fc.dtype, fc.shape, fc[1, :2])
toks = torch.randint(0, V, (2, 6))
mask = torch.full((6, 6), float("-inf")).triu(1)
params = list({id(p): p for p in list(emb.parameters()) + list(blk.parameters()) + list(head.parameters())}.values())
print(len(params), head.weight is emb.weight)
opt = torch.optim.AdamW(params, lr=1e-2, fused=None)
for it in range(3):
    h, _ = blk(emb(toks[:, :-1]), fc[:5], mask[:5, :5])
    loss = F.cross_entropy(head(h).view(-1, V), toks[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, round(loss.item(), 4))
with torch.no_grad():
    full, _ = blk(emb(toks), fc[:6], mask)
    h1, c = blk(emb(toks[:, :4]), fc[:4], mask[:4, :4])
    steps = []
    for t in range(4, 6):
        ht, c = blk(emb(toks[:, t:t+1]), fc[t:t+1], None, c)
        steps.append(ht)
    print(torch.allclose(torch.cat([h1] + steps, 1), full, atol=1e-5), c[0].shape)
z = torch.view_as_complex(torch.randn(3, 2))
print(z.dtype, torch.view_as_real(z).shape, z.abs().round(decimals=4), z.angle().round(decimals=4), z.conj().imag)
print(torch.polar(torch.tensor([2.0]), torch.tensor([math.pi / 2])), torch.complex(torch.tensor([1.]), torch.tensor([2.])))
try:
    torch.view_as_complex(torch.randn(3, 3))
except RuntimeError as e:
    print("RT", e)
''',
    'beam': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
V, H, B, K = 10, 8, 2, 3
emb = nn.Embedding(V, H); cell = nn.GRUCell(H, H); out = nn.Linear(H, V)
EOS = 2
@torch.no_grad()
def beam(h0, maxlen=5):
    h = h0.repeat_interleave(K, 0)
    scores = torch.full((B, K), float("-inf")); scores[:, 0] = 0
    seqs = torch.full((B * K, 1), 1, dtype=torch.long)
    done = torch.zeros(B * K, dtype=torch.bool)
    for t in range(maxlen):
        h = cell(emb(seqs[:, -1]), h)
        lp = F.log_softmax(out(h), -1)
        lp[done] = float("-inf"); lp[done, EOS] = 0
        cand = (scores.view(-1, 1) + lp).view(B, K * V)
        top, idx = cand.topk(K, dim=1)
        bi = idx // V; ti = idx % V
        base = (torch.arange(B) * K).unsqueeze(1)
        sel = (base + bi).view(-1)
        seqs = torch.cat([seqs[sel], ti.view(-1, 1)], 1)
        h = h[sel]; done = done[sel] | (ti.view(-1) == EOS)
        scores = top
    return seqs.view(B, K, -1), scores
s, sc = beam(torch.randn(B, H))
print(s, sc.round(decimals=4))
lengths = (s != EOS).sum(-1)
norm = sc / lengths.float() ** 0.6
print(lengths, norm.argmax(1), s[torch.arange(B), norm.argmax(1)])
x = torch.tensor([[3, 1, 4], [1, 5, 9]])
print(x.flatten().topk(3), torch.div(torch.tensor([7, 8, 17]), V, rounding_mode="floor"), torch.remainder(torch.tensor([-3, 13]), V))
print(x.gather(1, torch.tensor([[2, 0], [1, 1]])), x.index_select(0, torch.tensor([1, 1, 0])), torch.take_along_dim(x, x.argsort(1), 1))
print(torch.full((2, 2), float("-inf")).logsumexp(1), torch.tensor([[-float("inf"), 0.]]).softmax(1))
''',
    'recsys': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
nU, nI, d = 6, 10, 4
class MF(nn.Module):
    def __init__(self, sparse):
        super().__init__()
        self.U = nn.Embedding(nU, d, sparse=sparse); self.I = nn.Embedding(nI, d, sparse=sparse)
        self.ub = nn.Embedding(nU, 1); self.ib = nn.Embedding(nI, 1)
        nn.init.normal_(self.U.weight, std=0.1); nn.init.normal_(self.I.weight, std=0.1)
        nn.init.zeros_(self.ub.weight); nn.init.zeros_(self.ib.weight)
    def forward(self, u, i):
        return (self.U(u) * self.I(i)).sum(-1) + self.ub(u).squeeze(-1) + self.ib(i).squeeze(-1)
users = torch.randint(0, nU, (30,)); pos = torch.randint(0, nI, (30,))
for sparse in (True, False):
    torch.manual_seed(1)
    m = MF(sparse)
    if sparse:
        opts = [torch.optim.SparseAdam(list(m.U.parameters()) + list(m.I.parameters()), lr=0.05), torch.optim.Adagrad(list(m.ub.parameters()) + list(m.ib.parameters()), lr=0.1)]
    else:
        opts = [torch.optim.Adam(m.parameters(), lr=0.05)]
    for ep in range(3):
        neg = torch.randint(0, nI, (30,))
        loss = -F.logsigmoid(m(users, pos) - m(users, neg)).mean()
        for o in opts: o.zero_grad()
        loss.backward()
        if sparse and ep == 0:
            g = m.U.weight.grad
            print(g.layout, g.is_sparse, g.coalesce().indices().shape, g._nnz())
        for o in opts: o.step()
        print(sparse, ep, round(loss.item(), 5))
    with torch.no_grad():
        sc = m.U.weight @ m.I.weight.T + m.ib.weight.T
        print(sc.topk(3, dim=1).indices[:2])
print(opts[0])
ebs = nn.Embedding(5, 2, sparse=True)
ebs(torch.tensor([1, 1, 3])).sum().backward()
print(ebs.weight.grad)
try:
    torch.optim.Adam(ebs.parameters()).step()
except RuntimeError as e:
    print("RT", str(e)[:120])
try:
    torch.optim.SparseAdam(nn.Linear(2, 2).parameters())
except Exception as e:
    print(type(e).__name__, e)
''',
    'optim_adv': r'''
import copy, io
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
body = nn.Linear(3, 4); head = nn.Linear(4, 2)
opt = torch.optim.Adam(body.parameters(), lr=torch.tensor(0.01), maximize=False, foreach=False)
x = torch.randn(5, 3); y = torch.tensor([0, 1, 1, 0, 1])
log = []
h = opt.register_step_post_hook(lambda o, a, k: log.append(len(o.state)))
for it in range(2):
    loss = F.cross_entropy(head(body(x)), y)
    opt.zero_grad(); loss.backward(); opt.step()
opt.add_param_group({"params": head.parameters(), "lr": 0.1, "betas": (0.8, 0.9)})
for it in range(2):
    loss = F.cross_entropy(head(body(x)), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, round(loss.item(), 5))
h.remove()
print(log, [g["lr"] for g in opt.param_groups], opt.param_groups[1]["betas"], opt.param_groups[1]["amsgrad"])
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], sorted(sd["state"].keys()), sd["state"][2]["step"])
opt2 = torch.optim.Adam([{"params": body.parameters()}, {"params": head.parameters()}], lr=5.0)
opt2.load_state_dict(sd)
print(opt2.param_groups[1]["lr"], opt2.param_groups[0]["lr"], opt2.state[head.weight]["exp_avg"].shape)
try:
    torch.optim.Adam([{"params": body.parameters()}]).load_state_dict(sd)
except ValueError as e:
    print("VE", e)
try:
    opt.add_param_group({"params": body.weight})
except ValueError as e:
    print("VE", e)
o3 = torch.optim.SGD(head.parameters(), lr=0.1, maximize=True, weight_decay=0.1, dampening=0.1, momentum=0.5)
before = head.weight.detach().clone()
F.cross_entropy(head(body(x)), y).backward(); o3.step()
print((head.weight - before).abs().sum().round(decimals=5), o3.state[head.weight]["momentum_buffer"].shape)
for cls, kw in [(torch.optim.Adamax, {}), (torch.optim.NAdam, {"momentum_decay": 0.004}), (torch.optim.RAdam, {"decoupled_weight_decay": True, "weight_decay": 0.1}), (torch.optim.Adadelta, {}), (torch.optim.ASGD, {}), (torch.optim.Rprop, {}), (torch.optim.Adafactor, {})]:
    torch.manual_seed(2)
    m = nn.Linear(3, 2); o = cls(m.parameters(), **kw)
    for _ in range(3):
        o.zero_grad(); F.mse_loss(m(x), x[:, :2]).backward(); o.step()
    print(cls.__name__, m.weight.detach().flatten()[:3].round(decimals=5), sorted(o.state[m.weight].keys()))
m = nn.Linear(2, 2)
mc = copy.deepcopy(nn.utils.parametrizations.weight_norm(m))
print(type(mc).__name__, torch.equal(mc.weight, m.weight))
buf = io.BytesIO()
try:
    torch.save(mc, buf)
except RuntimeError as e:
    print("RT", str(e)[:100])
''',
    'hf_timm': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
def drop_path(x, p=0., training=False, scale_by_keep=True):
    if p == 0. or not training: return x
    keep = 1 - p
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    rt = x.new_empty(shape).bernoulli_(keep)
    if keep > 0.0 and scale_by_keep: rt.div_(keep)
    return x * rt
class DropPath(nn.Module):
    def __init__(self, p=0.): super().__init__(); self.p = p
    def forward(self, x): return drop_path(x, self.p, self.training)
    def extra_repr(self): return f"drop_prob={round(self.p, 3):0.3f}"
dpr = [x.item() for x in torch.linspace(0, 0.3, 4)]
print(dpr)
blocks = nn.ModuleList([nn.Sequential(nn.LayerNorm(8), nn.Linear(8, 8), nn.GELU(approximate="tanh"), DropPath(p)) for p in dpr])
print(blocks[2])
x = torch.randn(6, 5, 8)
h = x
for b in blocks: h = h + b(h)
print(h[:, 0, 0])
mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]] * 2)
ext = mask[:, None, None, :].to(dtype=x.dtype)
ext = (1.0 - ext) * torch.finfo(x.dtype).min
print(ext.shape, ext[0, 0, 0], torch.finfo(torch.float16).min, torch.finfo(torch.bfloat16).eps, torch.iinfo(torch.int32).max)
q = k = v = h.view(6, 5, 2, 4).transpose(1, 2)
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(4) + ext
probs = scores.softmax(-1)
print(probs[2, 0, 0].round(decimals=4), torch.baddbmm(torch.zeros(12, 5, 5), q.reshape(12, 5, 4), k.reshape(12, 5, 4).transpose(1, 2), beta=0.0, alpha=0.5).shape)
ctx = torch.einsum("bhqk,bhkd->bqhd", probs, v).reshape(6, 5, 8)
print(ctx.shape, ctx.is_contiguous())
pos_ids = torch.arange(5).expand((1, -1))
print(pos_ids, pos_ids.stride(), mask.cumsum(-1) * mask - 1)
tti = torch.zeros(pos_ids.size(), dtype=torch.long)
print(tti, x.new_ones((2, 2)).dtype, x.new_tensor([1, 2]).dtype, x.new_full((1,), 7).dtype, x.new_zeros(2, dtype=torch.int64))
last = mask.sum(1) - 1
print(h[torch.arange(6), last].shape, h.masked_fill(~mask.bool()[..., None], 0.0).sum().round(decimals=3))
pooled = (h * mask[..., None]).sum(1) / mask.sum(1, keepdim=True).clamp(min=1e-9)
print(pooled.shape, pooled[2, :3])
print(torch.is_tensor(x), torch.is_floating_point(x), torch.jit.is_scripting(), torch.is_grad_enabled(), torch.numel(x))
print(F.pad(x, (0, -2)).shape, F.pad(x, (1, 1, 0, 0, 0, 1), value=-1.0).shape)
ls = nn.Parameter(1e-5 * torch.ones(8))
print((ls * h).abs().max() < 1e-3, torch.where(mask.bool(), 0.0, -1e4)[2])
bn_drop = nn.Dropout1d(0.5); bn_drop.train()
print(bn_drop(torch.ones(2, 3, 4))[0, :, 0])
print(torch.empty(3).uniform_(-1, 1), torch.empty(2).normal_(0, 2), torch.empty(2).exponential_(), torch.empty(2).geometric_(0.5), torch.empty(3).random_(0, 10), torch.empty(2).log_normal_(), torch.empty(2).cauchy_())
''',
    'mistakes': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
def trial(name, fn):
    try:
        r = fn(); print(name, "ok", r if not isinstance(r, torch.Tensor) else tuple(r.shape))
    except Exception as e:
        print(name, type(e).__name__, "|", str(e).replace("\n", " / ")[:400])
bn = nn.BatchNorm1d(3)
trial("bn", lambda: bn(torch.randn(4, 4)))
trial("bn2d", lambda: nn.BatchNorm2d(3)(torch.randn(4, 3, 2)))
trial("conv", lambda: nn.Conv2d(3, 8, 3)(torch.randn(4, 1, 28, 28)))
trial("conv5d", lambda: nn.Conv2d(3, 8, 3)(torch.randn(1, 4, 3, 8, 8)))
trial("convsmall", lambda: nn.Conv2d(1, 2, 5)(torch.randn(1, 1, 3, 3)))
trial("lin", lambda: nn.Linear(5, 2)(torch.randn(4, 3)))
trial("lin_dtype", lambda: nn.Linear(3, 2)(torch.randn(4, 3, dtype=torch.float64)))
trial("lin_int", lambda: nn.Linear(3, 2)(torch.arange(6).view(2, 3)))
trial("ce_multi", lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([[0], [1], [2], [0]])))
trial("ce_float", lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0., 1., 2., 0.])))
trial("ce_int", lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 2, 0], dtype=torch.int32)))
trial("ce_batch", lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 2])))
trial("nll_neg", lambda: F.nll_loss(torch.randn(2, 3), torch.tensor([-1, 0])))
trial("bce_shape", lambda: F.binary_cross_entropy_with_logits(torch.randn(4, 1), torch.ones(4)))
trial("bce_long", lambda: F.binary_cross_entropy_with_logits(torch.randn(4), torch.ones(4, dtype=torch.long)))
trial("emb", lambda: nn.Embedding(5, 2)(torch.tensor([1, 5])))
trial("emb_float", lambda: nn.Embedding(5, 2)(torch.tensor([1., 2.])))
def leaf():
    w = torch.randn(3, requires_grad=True); F.relu(w, inplace=True)
trial("leaf", leaf)
def twice():
    w = torch.randn(3, requires_grad=True); l = (w.exp()).sum(); l.backward(); l.backward()
trial("twice", twice)
trial("nonscalar", lambda: (torch.randn(3, requires_grad=True) * 2).backward())
trial("numpy", lambda: torch.randn(3, requires_grad=True).numpy())
trial("view", lambda: torch.randn(3, 4).t().view(12))
trial("cat", lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)]))
trial("stack_empty", lambda: torch.stack([]))
trial("collate", lambda: next(iter(torch.utils.data.DataLoader([torch.zeros(3), torch.zeros(4)], batch_size=2))))
def inplace_sig():
    a = torch.randn(3, 4, requires_grad=True); s = a.sigmoid(); s.mul_(2); s.sum().backward()
trial("inplace", inplace_sig)
m = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
sd = nn.Sequential(nn.Linear(3, 5), nn.Linear(5, 2)).state_dict(); sd["extra"] = torch.zeros(1); del sd["1.bias"]
trial("load", lambda: m.load_state_dict(sd))
trial("lstm2d", lambda: nn.LSTM(3, 4, batch_first=True)(torch.randn(5, 3))[0])
trial("lstm_bad", lambda: nn.LSTM(3, 4)(torch.randn(5, 2, 4)))
trial("gru_h", lambda: nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(1, 3, 4)))
trial("mm", lambda: torch.mm(torch.randn(2, 3), torch.randn(2, 3)))
trial("matmul", lambda: torch.randn(2, 3) @ torch.randn(4))
trial("bmm", lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(3, 4, 5)))
trial("item", lambda: torch.randn(3).item())
trial("bool", lambda: bool(torch.tensor([1, 2])))
trial("reshape", lambda: torch.randn(6).reshape(4, -1))
trial("expand", lambda: torch.randn(2, 3).expand(4, 3))
trial("index", lambda: torch.randn(3)[5])
trial("mask", lambda: torch.randn(3, 4)[torch.tensor([True, False])])
trial("add", lambda: torch.randn(2, 3) + torch.randn(3, 2))
trial("opt_empty", lambda: torch.optim.SGD([], lr=0.1))
trial("opt_lr", lambda: torch.optim.Adam(m.parameters(), lr=-1))
trial("opt_tensor", lambda: torch.optim.SGD(torch.randn(3, requires_grad=True), lr=0.1))
trial("pool", lambda: nn.MaxPool2d(4)(torch.randn(1, 1, 2, 2)))
trial("mse_int", lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
trial("softmax_int", lambda: torch.tensor([1, 2]).softmax(0))
trial("mean_int", lambda: torch.tensor([1, 2]).mean())
trial("std_int", lambda: torch.tensor([1, 2]).float().std(unbiased=True, dim=5))
''',
    'autocast_mix': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, 3, padding=1); self.bn = nn.BatchNorm1d(8); self.lstm = nn.LSTM(8, 8, batch_first=True)
        self.gru = nn.GRU(8, 8, batch_first=True)
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True); self.ln = nn.LayerNorm(8); self.fc = nn.Linear(8, 3)
        self.prelu = nn.PReLU(); self.ct = nn.ConvTranspose1d(8, 8, 1); self.emb = nn.Embedding(5, 8)
    def forward(self, x, ids):
        d = {}
        h = self.conv(x); d["conv"] = h.dtype
        h = self.bn(h); d["bn"] = h.dtype
        h = self.prelu(h); d["prelu"] = h.dtype
        h = self.ct(h); d["ct"] = h.dtype
        h = h.transpose(1, 2) + self.emb(ids); d["emb"] = h.dtype
        o = h
        g, _ = self.gru(h); d["gru"] = g.dtype
        a, w = self.attn(o, o, o); d["attn"] = a.dtype; d["w"] = w.dtype
        s = F.scaled_dot_product_attention(o, o, o); d["sdpa"] = s.dtype
        n = self.ln(a); d["ln"] = n.dtype
        sm = n.softmax(-1); d["softmax"] = sm.dtype
        ls = F.log_softmax(n, -1); d["log_softmax"] = ls.dtype
        gl = F.gelu(n); d["gelu"] = gl.dtype
        out = self.fc(n.mean(1)); d["fc"] = out.dtype
        d["bmm"] = torch.bmm(n, n.transpose(1, 2)).dtype; d["cdist"] = torch.cdist(n, n).dtype
        d["sum"] = n.sum().dtype; d["norm"] = n.norm().dtype; d["exp"] = n.exp().dtype
        d["einsum"] = torch.einsum("bij,bkj->bik", n, n).dtype; d["addmm"] = torch.addmm(torch.zeros(2, 2), torch.randn(2, 3), torch.randn(3, 2)).dtype
        d["cat"] = torch.cat([n, x.transpose(1, 2)[..., :8].repeat(1, 1, 2)], 0).dtype
        d["mse"] = F.mse_loss(out, torch.zeros(2, 3)).dtype
        d["pool"] = F.avg_pool1d(h.transpose(1, 2), 2).dtype; d["mp"] = F.max_pool1d(h.transpose(1, 2), 2).dtype
        d["interp"] = F.interpolate(h.transpose(1, 2), scale_factor=2).dtype
        d["topk"] = n.topk(2).values.dtype; d["cumsum"] = n.cumsum(1).dtype; d["prod"] = n.prod().dtype
        d["group_norm"] = F.group_norm(h.transpose(1, 2), 2).dtype; d["layer_norm_f"] = F.layer_norm(h, (8,)).dtype
        d["linalg_vn"] = torch.linalg.vector_norm(n).dtype; d["dropout"] = F.dropout(n).dtype
        d["ce"] = F.cross_entropy(out, torch.tensor([0, 1])).dtype
        return out, d
m = M()
x = torch.randn(2, 4, 6); ids = torch.randint(0, 5, (2, 6))
with torch.autocast("cpu", dtype=torch.bfloat16):
    out, d = m(x, ids)
for k, v in d.items(): print(k, v)
loss = F.cross_entropy(out, torch.tensor([0, 1]))
loss.backward()
print(loss.dtype, m.conv.weight.grad.dtype, m.gru.weight_hh_l0.grad.dtype)
with torch.autocast("cpu", dtype=torch.float16):
    out, d = m(x, ids)
print(out.dtype, d["conv"], d["gru"], d["attn"], d["softmax"])
''',
    'compile': r'''
import io
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
cm = torch.compile(model, mode="max-autotune", fullgraph=False, dynamic=False, backend="eager")
print(type(cm).__name__, list(cm.state_dict().keys()), cm._orig_mod is model)
print([n for n, _ in cm.named_parameters()], [n for n, _ in cm.named_modules()][:3])
opt = torch.optim.SGD(cm.parameters(), lr=0.1)
x = torch.randn(5, 4); y = torch.tensor([0, 1, 0, 1, 1])
for it in range(3):
    loss = F.cross_entropy(cm(x), y); opt.zero_grad(); loss.backward(); opt.step(); print(it, round(loss.item(), 4))
buf = io.BytesIO(); torch.save(cm.state_dict(), buf); buf.seek(0)
sd = torch.load(buf)
m2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
try:
    m2.load_state_dict(sd)
except RuntimeError as e:
    print("RT", str(e).split("\n")[0])
m2.load_state_dict({k.removeprefix("_orig_mod."): v for k, v in sd.items()})
print(torch.equal(m2(x), model(x)))
cm.eval(); print(cm.training, model.training)
print(cm._orig_mod[0] is model[0], cm.__class__.__name__)
@torch.compiler.disable
def host(x): return x.sum().item()
@torch.compile(fullgraph=True)
def f(x): return torch.relu(x) * 2
print(f(torch.tensor([-1.0, 2.0])), host(torch.ones(2)))
torch.compiler.reset(); torch._dynamo.reset()
print(torch.compiler.is_compiling(), torch._dynamo.is_compiling())
def g(x, n): return x * n if n > 1 else x - n
cg = torch.compile(g, dynamic=True)
print(cg(torch.ones(2), 3), cg(torch.ones(2), 0))
class Net(nn.Module):
    def __init__(self): super().__init__(); self.l = nn.Linear(2, 2)
    def forward(self, x): return self.l(x).relu()
n = Net(); n.compile()
print(type(n).__name__, list(n.state_dict().keys()), n(torch.ones(1, 2)).shape)
print(cm)
''',
    'augment': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
np.random.seed(0)
img_np = (np.random.rand(8, 8, 3) * 255).astype(np.uint8)
t = torch.from_numpy(img_np)
print(t.dtype, t.shape, (t - 128)[0, 0], (t.float() - 128)[0, 0], (t // 2)[0, 0], (t * 2)[0, 0], (t / 2)[0, 0])
print((t + 300)[0, 0].dtype, t.sum(), t.sum().dtype, t.float().mean().round(decimals=3), t.max(), t.to(torch.int8)[0, 0])
x = t.permute(2, 0, 1).float().div(255)
mean = torch.tensor([0.485, 0.456, 0.406]); std = torch.tensor([0.229, 0.224, 0.225])
xn = (x - mean.view(-1, 1, 1)) / std[:, None, None]
print(xn.shape, xn.is_contiguous(), xn.mean((1, 2)).round(decimals=4))
batch = torch.stack([xn, xn.flip(-1), torch.rot90(xn, 1, (1, 2)), xn.roll(2, dims=2)])
print(batch.shape, torch.equal(batch[1].flip(-1), xn))
ang = torch.tensor([0.0, math.pi / 6, -math.pi / 4, math.pi / 2])
theta = torch.stack([torch.stack([ang.cos(), -ang.sin(), torch.zeros(4)], 1), torch.stack([ang.sin(), ang.cos(), torch.zeros(4)], 1)], 1)
grid = F.affine_grid(theta, batch.shape, align_corners=False)
rot = F.grid_sample(batch, grid, mode="bilinear", padding_mode="reflection", align_corners=False)
print(theta.shape, grid.shape, rot[1, 0, 3, :4].round(decimals=4), rot[3, 1, 0, :3].round(decimals=4))
print(F.grid_sample(batch, grid, mode="nearest", padding_mode="zeros", align_corners=True)[2, 2, 0, :4].round(decimals=4))
y = torch.tensor([0, 1, 2, 1])
lam = float(np.random.beta(0.4, 0.4))
perm = torch.randperm(4)
mixed = lam * batch + (1 - lam) * batch[perm]
yoh = F.one_hot(y, 3).float(); ymix = lam * yoh + (1 - lam) * yoh[perm]
print(round(lam, 5), perm, ymix.round(decimals=4))
W = H = 8
cut = np.sqrt(1.0 - lam); cw, ch = int(W * cut), int(H * cut)
cx, cy = np.random.randint(W), np.random.randint(H)
bx1, by1, bx2, by2 = np.clip(cx - cw // 2, 0, W), np.clip(cy - ch // 2, 0, H), np.clip(cx + cw // 2, 0, W), np.clip(cy + ch // 2, 0, H)
cm = batch.clone(); cm[:, :, bx1:bx2, by1:by2] = batch[perm, :, bx1:bx2, by1:by2]
lam2 = 1 - ((bx2 - bx1) * (by2 - by1) / (W * H))
print(type(bx1).__name__, cm.shape, round(float(lam2), 4), (cm != batch).any().item())
logits = torch.randn(4, 3)
print(F.cross_entropy(logits, ymix).round(decimals=4), (lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[perm])).round(decimals=4))
area = torch.empty(1).uniform_(0.02, 0.33).item() * 64
r = math.exp(torch.empty(1).uniform_(math.log(0.3), math.log(3.3)).item())
h, w = int(round(math.sqrt(area * r))), int(round(math.sqrt(area / r)))
i = torch.randint(0, 8 - h + 1, size=(1,)).item(); j = torch.randint(0, 8 - w + 1, size=(1,)).item()
er = xn.clone(); er[:, i:i+h, j:j+w] = torch.empty((3, h, w), dtype=torch.float32).normal_()
print(h, w, i, j, er[0, i, j:j+2])
win = torch.arange(10.).unfold(0, 4, 2)
print(win, torch.arange(12.).view(3, 4).unfold(1, 2, 1).shape, torch.as_strided(torch.arange(6.), (3, 2), (2, 1)))
g = x.mul(255).byte()
print(g.dtype, g[0, 0, :3], torch.clamp(xn * 2, -1, 1).max(), xn.clip(min=0).min())
print(torch.tensor([250], dtype=torch.uint8) + torch.tensor([10], dtype=torch.uint8), torch.tensor([3], dtype=torch.uint8) - 5, torch.tensor([200], dtype=torch.uint8) * 2.0)
print(torch.tensor([1, 2], dtype=torch.int8) * 100, torch.tensor([-128], dtype=torch.int8).abs(), torch.tensor([-128], dtype=torch.int8) // -1)
''',
    'packed': r'''
nn = torch.nn
R = torch.nn.utils.rnn
torch.manual_seed(0)
seqs = [torch.randn(n, 3) for n in (2, 5, 3)]
lens = torch.tensor([2, 5, 3])
padded = R.pad_sequence(seqs, batch_first=True)
packed = R.pack_padded_sequence(padded, lens, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.data.shape)
gru = nn.GRU(3, 4, num_layers=2, bidirectional=True, batch_first=True)
h0 = torch.randn(4, 3, 4)
out, hn = gru(packed, h0)
print(type(out).__name__, out.data.shape, hn.shape)
o, ol = R.pad_packed_sequence(out, batch_first=True, padding_value=-1.0)
print(ol, o[0, 2:, :2])
for i, n in enumerate([2, 5, 3]):
    oi, hi = gru(seqs[i].unsqueeze(0), h0[:, i:i+1].contiguous())
    print(i, torch.allclose(oi[0], o[i, :n], atol=1e-6), torch.allclose(hi, hn[:, i:i+1], atol=1e-6))
lstm = nn.LSTM(3, 4, proj_size=2)
ps = R.pack_sequence(seqs, enforce_sorted=False)
(po, (h, c)) = lstm(ps, (torch.zeros(1, 3, 2), torch.ones(1, 3, 4)))
print(po.data.shape, h.shape, c.shape, h[0, 0])
un = R.unpack_sequence(po)
print([u.shape for u in un])
print([u.shape for u in R.unpad_sequence(padded, lens, batch_first=True)])
print(R.pad_sequence(seqs, padding_value=0.5, padding_side="left")[:, 0, 0])
print(packed.to(torch.float64).data.dtype, packed.is_cuda, packed.cpu().sorted_indices)
print(R.pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])]))
try:
    R.pack_padded_sequence(padded, torch.tensor([2, 0, 3]), batch_first=True, enforce_sorted=False)
except RuntimeError as e:
    print("RT", e)
rnn = nn.RNN(3, 2)
po2, hn2 = rnn(R.pack_sequence(seqs, enforce_sorted=False))
print(hn2.shape, R.pad_packed_sequence(po2, total_length=6)[0].shape)
po3, _ = rnn(R.pack_padded_sequence(padded.transpose(0, 1), [5, 3, 2][::-1], enforce_sorted=False))
print(po3.unsorted_indices)
''',
    'dist_more': r'''
D = torch.distributions; T = torch.distributions.transforms; C = torch.distributions.constraints
torch.manual_seed(0)
mix = D.Categorical(logits=torch.zeros(3))
comp = D.Independent(D.Normal(torch.randn(3, 2), torch.rand(3, 2) + 0.5), 1)
gmm = D.MixtureSameFamily(mix, comp)
x = gmm.sample((4,))
print(gmm, x.shape, gmm.log_prob(x).round(decimals=4), gmm.mean.round(decimals=4), gmm.variance.round(decimals=4))
logits = torch.zeros(3, requires_grad=True); locs = torch.randn(3, 2, requires_grad=True)
opt = torch.optim.Adam([logits, locs], lr=0.1)
data = torch.cat([torch.randn(20, 2) + 2, torch.randn(20, 2) - 2])
for it in range(3):
    g = D.MixtureSameFamily(D.Categorical(logits=logits), D.Independent(D.Normal(locs, torch.ones(3, 2)), 1))
    nll = -g.log_prob(data).mean(); opt.zero_grad(); nll.backward(); opt.step()
    print(it, round(nll.item(), 5))
for t in [T.StickBreakingTransform(), T.SoftmaxTransform(), T.PowerTransform(torch.tensor(2.0)), T.LowerCholeskyTransform(), T.CorrCholeskyTransform()]:
    print(type(t).__name__, t.domain, t.codomain, t.bijective)
sb = T.StickBreakingTransform(); v = torch.tensor([0.1, -0.3, 0.5])
y = sb(v); print(y, y.sum(), sb.inv(y), sb.log_abs_det_jacobian(v, y))
cc = T.CorrCholeskyTransform(); Lc = cc(torch.tensor([0.2, -0.1, 0.4])); print(Lc, (Lc @ Lc.T).diagonal())
print(D.biject_to(C.positive)(torch.tensor([0.0])), D.transform_to(C.interval(0, 2))(torch.tensor([0.0])), D.biject_to(C.simplex)(torch.zeros(2)))
print(C.positive.check(torch.tensor([-1.0, 1.0])), C.integer_interval(0, 3).check(torch.tensor([1.5, 2])), C.real_vector)
st = T.StackTransform([T.ExpTransform(), T.AffineTransform(1., 2.)], dim=1)
print(st(torch.tensor([[0.0, 1.0]])))
ct = T.CatTransform([T.ExpTransform(), T.SigmoidTransform()], dim=0, lengths=[1, 2])
print(ct(torch.tensor([0.0, 0.0, 100.0])))
rt = T.ReshapeTransform((4,), (2, 2)); print(rt(torch.arange(4.)), rt.inv(torch.ones(2, 2)).shape)
lr = D.LowRankMultivariateNormal(torch.zeros(3), torch.randn(3, 1), torch.ones(3))
print(lr.log_prob(torch.ones(3)).round(decimals=4), lr.covariance_matrix.shape, lr.entropy().round(decimals=4))
rb = D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.2, 0.8])); s = rb.rsample()
print(s.shape, rb.temperature, D.RelaxedOneHotCategorical(torch.tensor(1.0), logits=torch.zeros(3)).rsample().sum())
w = D.Wishart(df=torch.tensor(4.0), covariance_matrix=torch.eye(2)); ws = w.sample()
print(ws.shape, w.log_prob(torch.eye(2)).round(decimals=4), w.mean)
lkj = D.LKJCholesky(3, concentration=2.0); L = lkj.sample()
print(L.shape, lkj.log_prob(L).shape, torch.allclose((L @ L.T).diagonal(), torch.ones(3)))
vm = D.VonMises(torch.tensor(0.0), torch.tensor(2.0)); print(vm.sample((3,)).shape, vm.log_prob(torch.tensor(0.5)).round(decimals=4), vm.mean)
print(D.Dirichlet(torch.tensor([1., 2., 3.])).entropy().round(decimals=4), D.Gamma(2., 3.).rsample((2,)).shape, D.Poisson(3.).log_prob(torch.tensor(2.)).round(decimals=4))
print(D.Binomial(10, probs=torch.tensor(0.3)).sample((3,)), D.Geometric(0.3).mean, D.NegativeBinomial(5, 0.4).variance)
print(D.Uniform(0., 2.).entropy(), D.Laplace(0., 1.).cdf(torch.tensor(0.5)), D.Cauchy(0., 1.).icdf(torch.tensor(0.75)))
print(D.StudentT(3.).log_prob(torch.tensor(0.)).round(decimals=5), D.Chi2(4.).mean, D.HalfNormal(1.).log_prob(torch.tensor(1.)), D.Gumbel(0., 1.).mean)
print(D.kl_divergence(D.Normal(0., 1.), D.Normal(1., 2.)), D.kl_divergence(D.Beta(2., 2.), D.Beta(1., 1.)), D.kl_divergence(gmm.component_distribution, gmm.component_distribution).shape)
try:
    D.kl_divergence(gmm, gmm)
except NotImplementedError as e:
    print("NIE", e)
''',
    'misc_runtime': r'''
import io
nn = torch.nn; F = torch.nn.functional
g0 = torch.manual_seed(0)
print(type(g0).__name__, g0.initial_seed())
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 8, growth_interval=2)
print(scaler.is_enabled(), scaler.get_scale(), scaler.get_growth_factor())
x = torch.randn(6, 3); y = torch.tensor([0, 1, 0, 1, 0, 1])
for it in range(4):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = F.cross_entropy(m(x), y)
    scaler.scale(loss).backward()
    if it == 2:
        m[0].weight.grad[0, 0] = float("inf")
    scaler.unscale_(opt)
    gn = nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    scaler.step(opt); scaler.update()
    print(it, round(loss.item(), 3), scaler.get_scale(), gn.item() if torch.isfinite(gn) else "inf")
print(sorted(scaler.state_dict().keys()), scaler.state_dict()["scale"])
state = torch.get_rng_state()
print(state.dtype, state.shape)
a = torch.randn(3); torch.set_rng_state(state); b = torch.randn(3)
print(torch.equal(a, b))
with torch.random.fork_rng():
    torch.manual_seed(123); c = torch.rand(2)
d = torch.rand(2)
print(c, d)
g = torch.Generator().manual_seed(7)
gs = g.get_state(); e1 = torch.rand(2, generator=g); g.set_state(gs); e2 = torch.rand(2, generator=g)
print(torch.equal(e1, e2), g.seed() > 0 if False else "", g.device)
buf = io.BytesIO(); torch.save({"rng": torch.get_rng_state(), "g": g.get_state()}, buf); buf.seek(0)
ck = torch.load(buf)
torch.set_rng_state(ck["rng"]); print(torch.rand(1))
print(torch.get_float32_matmul_precision()); torch.set_float32_matmul_precision("high"); print(torch.get_float32_matmul_precision()); torch.set_float32_matmul_precision("highest")
print(torch.backends.cudnn.is_available() in (True, False), torch.backends.mps.is_available(), torch.cuda.is_available(), torch.cuda.device_count())
torch.backends.cudnn.benchmark = True; torch.backends.cudnn.deterministic = True
torch.use_deterministic_algorithms(True); print(torch.are_deterministic_algorithms_enabled()); torch.use_deterministic_algorithms(False)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, device.type, device.index, torch.device("cuda:1").index, str(torch.device("cpu", 0)))
print(m.to(device)[0].weight.device, torch.zeros(2, device=device).device, x.to(device, non_blocking=True).is_pinned())
print(torch.initial_seed(), torch.seed() > 0, torch.default_generator.initial_seed() == torch.initial_seed())
sa = nn.attention
with sa.sdpa_kernel(sa.SDPBackend.MATH):
    print(F.scaled_dot_product_attention(torch.ones(1, 2, 3), torch.ones(1, 2, 3), torch.ones(1, 2, 3)).shape)
print(torch.__version__ >= "2.0", torch.get_num_threads() > 0, torch.version.cuda is None)
''',
    'linalg_prog': r'''
torch.manual_seed(0)
pts = torch.cat([torch.randn(5, 2) * 0.3 + 0.7, torch.randn(5, 2) * 0.3 - 0.7])
W = torch.exp(-torch.cdist(pts, pts) ** 2 / 2); W.fill_diagonal_(0)
Dg = W.sum(1); L = torch.diag(Dg) - W
Ln = torch.eye(10) - torch.diag(Dg.rsqrt()) @ W @ torch.diag(Dg.rsqrt())
ev, evec = torch.linalg.eigh(Ln)
print(ev.round(decimals=4)); print(evec[:, :2].round(decimals=3))
print((evec[:, 1] > 0).long())
A = torch.randn(4, 4)
e, v = torch.linalg.eig(A)
print(e.real.round(decimals=4), e.imag.abs().round(decimals=4), v.dtype, v[:, 0].abs().round(decimals=3))
print(torch.linalg.eigvals(A).real.round(decimals=4), torch.linalg.eigvalsh(A + A.T).round(decimals=4))
U, S, Vh = torch.linalg.svd(A)
print(U.round(decimals=3), S.round(decimals=4), Vh[0].round(decimals=3))
Q, R = torch.linalg.qr(A); print(Q[0].round(decimals=4), R.diagonal().round(decimals=4))
Q2, R2 = torch.linalg.qr(torch.randn(5, 3), mode="complete"); print(Q2.shape, R2.shape)
print(torch.linalg.matrix_exp(A * 0.1).round(decimals=4)[0], torch.linalg.pinv(torch.randn(3, 5)).shape)
print(torch.linalg.inv(A).round(decimals=3)[0], torch.linalg.det(A).round(decimals=4), torch.linalg.matrix_rank(torch.ones(3, 3)))
print(torch.linalg.norm(A, "nuc").round(decimals=4), torch.linalg.cond(A).round(decimals=3), torch.linalg.matrix_norm(A, ord=-2).round(decimals=4))
P, Lw, Up = torch.linalg.lu(A); print(P, Lw.diagonal(), Up.diagonal().round(decimals=4))
LU, piv = torch.linalg.lu_factor(A); print(piv, torch.linalg.lu_solve(LU, piv, torch.ones(4, 1)).squeeze().round(decimals=4))
print(torch.linalg.solve(A, torch.ones(4)).round(decimals=4), torch.linalg.multi_dot([A, A, A]).round(decimals=2)[0])
Sg = A @ A.T + torch.eye(4)
print(torch.linalg.cholesky(Sg).round(decimals=4)[3], torch.cholesky_inverse(torch.linalg.cholesky(Sg)).round(decimals=3)[0])
print(torch.linalg.householder_product(*torch.geqrf(A)).round(decimals=4)[0], torch.linalg.vander(torch.tensor([1., 2., 3.])))
print(torch.linalg.tensorsolve(torch.eye(6).view(2, 3, 6), torch.ones(2, 3)).shape, torch.linalg.cross(torch.tensor([1., 0, 0]), torch.tensor([0., 1, 0])))
ev2, evec2 = torch.lobpcg(Sg, k=1, largest=True) if False else (None, None)
u, s, v = torch.svd(A); print(torch.allclose(u @ torch.diag(s) @ v.T, A, atol=1e-5), v[0].round(decimals=3))
print(torch.linalg.svdvals(A).round(decimals=4), torch.linalg.eigh(Sg, UPLO="U")[1][0].round(decimals=3))
try:
    torch.linalg.cholesky(-Sg)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.inv(torch.zeros(2, 2))
except Exception as e:
    print(type(e).__name__, e)
''',
    'meta_init': r'''
import io
nn = torch.nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4); self.fc = nn.Linear(4, 3); self.bn = nn.BatchNorm1d(3)
        self.register_buffer("step", torch.zeros((), dtype=torch.long)); self.register_parameter("extra", None)
    def forward(self, x): return self.bn(self.fc(self.emb(x).mean(1)))
ref = Net()
sd = ref.state_dict()
print(list(sd.keys()))
with torch.device("meta"):
    m = Net()
print(m.fc.weight.device, m.fc.weight.is_meta, m.step.device, m.fc)
print(m.fc.weight)
try:
    m(torch.randint(0, 10, (2, 3), device="meta"))
    print("meta forward ok")
except Exception as e:
    print(type(e).__name__, str(e)[:80])
m2 = Net().to("meta")
m2.load_state_dict(sd, assign=True)
print(m2.fc.weight.device, torch.equal(m2.fc.weight, ref.fc.weight), type(m2.fc.weight).__name__, m2.fc.weight.requires_grad)
m3 = Net().to("meta")
r = m3.load_state_dict(sd)
print(r, m3.fc.weight.is_meta)
m4 = m.to_empty(device="cpu")
print(m4.fc.weight.device, m4.fc.weight.shape)
for mod in m4.modules():
    if hasattr(mod, "reset_parameters"): mod.reset_parameters()
print(m4.bn.running_var, m4.bn.num_batches_tracked)
sk = nn.utils.skip_init(nn.Linear, 3, 2)
print(sk.weight.shape, sk)
x = torch.randint(0, 10, (4, 3))
h = ref.half(); print(h.fc.weight.dtype, h.bn.running_mean.dtype, h.step.dtype, h.emb.weight.dtype)
f = ref.float(); print(f(x).dtype)
d = ref.to(torch.float64); print(d.fc.bias.dtype, d(x).dtype, d.step.dtype)
b = ref.bfloat16(); print(b.fc.weight.dtype); ref.float()
ref.requires_grad_(False); print(all(not p.requires_grad for p in ref.parameters())); ref.requires_grad_()
print([n for n, _ in ref.named_buffers(recurse=False)], [n for n, _ in ref.named_parameters()], ref.extra)
t = ref.type(torch.float64); print(t.fc.weight.dtype); ref.float()
print(ref.share_memory().fc.weight.is_shared())
print(ref.zero_grad() is None, ref.fc.weight.grad)
try:
    ref.register_parameter("fc.x", nn.Parameter(torch.ones(1)))
except KeyError as e:
    print("KE", e)
try:
    ref.register_buffer("fc", torch.ones(1))
except KeyError as e:
    print("KE", e)
try:
    ref.fc = torch.ones(2)
except TypeError as e:
    print("TE", e)
ref.newp = nn.Parameter(torch.ones(2)); print("newp" in dict(ref.named_parameters()))
del ref.newp; print(hasattr(ref, "newp"))
print(torch.empty(2, 3, device="meta").sum(0).shape, torch.zeros(3, device="meta") + 1)
''',
    'python_ops': r'''
import math, copy, pickle
torch.manual_seed(0)
losses = [torch.tensor(1.5), torch.tensor(0.25), torch.tensor(2.0)]
def trial(name, fn):
    try:
        r = fn(); print(name, repr(r)[:200], type(r).__name__)
    except Exception as e:
        print(name, "!!", type(e).__name__, str(e)[:200])
trial("sum", lambda: sum(losses))
trial("max", lambda: max(losses))
trial("sorted", lambda: sorted(losses))
trial("round", lambda: round(torch.tensor(2.567), 2))
trial("round0", lambda: round(torch.tensor(2.5)))
trial("floor", lambda: math.floor(torch.tensor(2.7)))
trial("isclose", lambda: math.isclose(torch.tensor(0.1), 0.1))
trial("int", lambda: int(torch.tensor(-2.7)))
trial("float", lambda: float(torch.tensor([3])))
trial("complex", lambda: complex(torch.tensor(1.0)))
trial("abs", lambda: abs(torch.tensor([-1, 2])))
trial("divmod", lambda: divmod(torch.tensor([7, -7]), 3))
trial("negpow", lambda: torch.tensor([2, 3]) ** -1)
trial("rpow", lambda: 2 ** torch.tensor([1, 2]))
trial("rpowf", lambda: 2.5 ** torch.tensor([1, 2]))
trial("idx", lambda: [10, 20, 30][torch.tensor(1)])
trial("range", lambda: list(range(torch.tensor(3))))
trial("npa", lambda: np.array(losses))
trial("tt", lambda: torch.tensor(losses))
trial("ttg", lambda: torch.tensor([torch.tensor(1.0, requires_grad=True), torch.tensor(2.0)]))
trial("stack", lambda: torch.stack(losses).mean())
trial("in", lambda: torch.tensor(0.25) in losses)
trial("eqNone", lambda: torch.tensor([1]) == None)
trial("if", lambda: "yes" if torch.tensor(0.0) else "no")
trial("ifmany", lambda: "yes" if torch.tensor([1, 1]) else "no")
trial("any", lambda: any(torch.tensor([0, 1])))
trial("list", lambda: list(torch.arange(3)))
trial("zip", lambda: list(zip(*torch.arange(6).view(3, 2))))
trial("tolist_bf", lambda: torch.tensor([1.1, 2.2], dtype=torch.bfloat16).tolist())
trial("dtypestr", lambda: (str(torch.float32), repr(torch.int64), torch.float32.is_floating_point, torch.int8.itemsize, torch.bool.is_signed))
trial("shape_eq", lambda: (torch.zeros(2, 3).shape == (2, 3), torch.zeros(2, 3).size() == torch.Size([2, 3]), type(torch.zeros(2, 3).shape[0])))
trial("len0", lambda: len(torch.tensor(1.0)))
trial("dictkey", lambda: {torch.float32: "f", torch.int64: "i"}[torch.tensor(1).dtype])
trial("iter0", lambda: list(torch.tensor(1.0)))
trial("format", lambda: "{:>8.3f}|{:d}".format(torch.tensor(3.14159), torch.tensor(5)))
trial("fmtint", lambda: f"{torch.tensor(5):03d}")
trial("bool_op", lambda: torch.tensor([True, False]) & True)
trial("invert", lambda: ~torch.tensor([1, 0]))
trial("inv_f", lambda: ~torch.tensor([1.0]))
trial("neg_bool", lambda: -torch.tensor([True]))
trial("sub_bool", lambda: torch.tensor([True]) - torch.tensor([False]))
trial("matmul_list", lambda: torch.ones(2, 2) @ [1.0, 2.0])
trial("mul_list", lambda: torch.ones(2) * [1.0, 2.0])
trial("add_np", lambda: torch.ones(2) + np.array([1.0, 2.0]))
trial("np_add", lambda: np.array([1.0, 2.0]) + torch.ones(2))
trial("np_scalar", lambda: np.float64(2.0) * torch.ones(2, dtype=torch.float32))
trial("np_int", lambda: torch.ones(2) * np.int64(3))
trial("deepcopy", lambda: copy.deepcopy(torch.ones(2, requires_grad=True) * 2))
trial("deepcopy_leaf", lambda: copy.deepcopy(torch.ones(2, requires_grad=True)))
trial("pickle", lambda: pickle.loads(pickle.dumps(torch.arange(3))))
trial("setitem_list", lambda: torch.zeros(3).__setitem__(slice(None), [1, 2, 3]))
trial("bool_mask_int", lambda: torch.arange(4)[torch.tensor([1, 0, 1, 0])])
trial("fancy", lambda: torch.arange(12).view(3, 4)[[0, 2], 1:])
trial("nonetype", lambda: torch.arange(3)[None, ..., None].shape)
trial("int_div_neg", lambda: torch.tensor(-7) // 2)
trial("float_mod", lambda: torch.tensor(-7.5) % 2)
trial("pow_0d", lambda: torch.tensor(2) ** 0.5)
trial("bitshift", lambda: torch.tensor([1, 2]) << 3)
trial("matmul_1d", lambda: torch.arange(3.) @ torch.arange(3.))
''',
    'science': r'''
import math
F = torch.nn.functional
torch.manual_seed(0)
S0, K, r, sigma, Tm, steps, paths = 100.0, 105.0, 0.05, 0.2, 1.0, 50, 2000
dt = Tm / steps
z = torch.randn(paths, steps, dtype=torch.float64)
logS = math.log(S0) + torch.cumsum((r - 0.5 * sigma ** 2) * dt + sigma * math.sqrt(dt) * z, dim=1)
ST = logS[:, -1].exp()
payoff = torch.clamp(ST - K, min=0)
price = math.exp(-r * Tm) * payoff.mean()
se = payoff.std() / math.sqrt(paths)
print(f"{price.item():.4f} +- {se.item():.4f}", ST.dtype, torch.quantile(ST, torch.tensor([0.05, 0.95], dtype=torch.float64)).round(decimals=3))
asian = torch.clamp(logS.exp().mean(1) - K, min=0).mean() * math.exp(-r * Tm)
print(round(asian.item(), 4), (ST > K).double().mean().item())
N = 16
u = torch.zeros(1, 1, N, N); u[0, 0, N // 2 - 2:N // 2 + 2, N // 2 - 2:N // 2 + 2] = 100.0
lap = torch.tensor([[0., 1., 0.], [1., -4., 1.], [0., 1., 0.]]).view(1, 1, 3, 3)
for it in range(50):
    u = u + 0.2 * F.conv2d(F.pad(u, (1, 1, 1, 1), mode="replicate"), lap)
print(u.sum().round(decimals=2), u.max().round(decimals=4), u[0, 0, N // 2, :4].round(decimals=4))
v = torch.zeros(N, N); v[N // 2, N // 2] = 1.0
for it in range(10):
    v = v + 0.1 * (v.roll(1, 0) + v.roll(-1, 0) + v.roll(1, 1) + v.roll(-1, 1) - 4 * v)
print(v.sum().round(decimals=5), v[N // 2, N // 2 - 2:N // 2 + 3].round(decimals=5))
L = 10
spins = torch.randint(0, 2, (L, L)) * 2 - 1
beta = 0.6
for sweep in range(20):
    i, j = torch.randint(0, L, (2,)).tolist()
    nb = spins[(i + 1) % L, j] + spins[i - 1, j] + spins[i, (j + 1) % L] + spins[i, j - 1]
    dE = 2 * spins[i, j] * nb
    if dE <= 0 or torch.rand(1).item() < math.exp(-beta * dE.item()):
        spins[i, j] *= -1
print(spins.sum(), spins.dtype, spins.float().mean())
xs = torch.linspace(-2, 1, 24); ys = torch.linspace(-1.2, 1.2, 12)
c = xs[None, :] + 1j * ys[:, None]
zz = torch.zeros_like(c); count = torch.zeros(c.shape, dtype=torch.int32)
for k in range(20):
    zz = torch.where(zz.abs() <= 2, zz * zz + c, zz)
    count += (zz.abs() <= 2).int()
print(c.dtype, count.sum(), count[6, 10:16], zz.abs().max() > 2)
img = torch.randn(16, 16)
Fimg = torch.fft.fftshift(torch.fft.fft2(img))
yy, xx = torch.meshgrid(torch.arange(16) - 8, torch.arange(16) - 8, indexing="ij")
mask = (xx ** 2 + yy ** 2 <= 16).to(Fimg.dtype)
low = torch.fft.ifft2(torch.fft.ifftshift(Fimg * mask)).real
print(low.std().round(decimals=4), Fimg.dtype, mask.dtype, torch.fft.fftn(img, norm="ortho").abs().pow(2).sum().round(decimals=3), img.pow(2).sum().round(decimals=3))
print(torch.special.erfinv(torch.tensor([0.5, -0.9])), torch.special.logit(torch.tensor([0.25]), eps=1e-6), torch.special.xlogy(torch.tensor([0., 2.]), torch.tensor([0., 3.])))
print(torch.lgamma(torch.tensor([0.5, 10.])), torch.digamma(torch.tensor([1., 2.5])), torch.special.i0(torch.tensor([1.])), torch.special.entr(torch.tensor([0.5, 0.])))
print(torch.special.log_ndtr(torch.tensor([-3., 0.])), torch.special.ndtri(torch.tensor([0.975])), torch.special.zeta(torch.tensor([2.]), torch.tensor([1.])), torch.special.sinc(torch.tensor([0., 0.5])))
''',
    'emb_details': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
emb = nn.Embedding(6, 3, max_norm=1.0, norm_type=2.0, padding_idx=0, scale_grad_by_freq=True)
print(emb, emb.weight[0])
opt = torch.optim.SGD(emb.parameters(), lr=0.5)
idx = torch.tensor([[1, 2, 2, 0], [3, 2, 0, 0]])
for it in range(3):
    out = emb(idx)
    loss = (out.sum(-1) ** 2).mean()
    opt.zero_grad(); loss.backward()
    print(it, round(loss.item(), 5), emb.weight.grad[:4].round(decimals=4).tolist())
    opt.step()
print(emb.weight.norm(dim=1).round(decimals=4))
pre = torch.randn(5, 2)
fe = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=1)
print(fe.weight.requires_grad, fe.padding_idx, torch.equal(fe.weight, pre), fe)
fe(torch.tensor([1, 1, 2])).sum().backward(); print(fe.weight.grad)
bag = nn.EmbeddingBag(6, 2, mode="mean", padding_idx=0)
print(bag(torch.tensor([[0, 1, 2], [0, 0, 3], [0, 0, 0]])), bag)
w = torch.randn(5, 3)
print(F.embedding(torch.tensor([4, 4, 1]), w.clone(), max_norm=0.5).norm(dim=1))
wt = w.clone(); F.embedding(torch.tensor([4]), wt, max_norm=0.5); print(wt.norm(dim=1).round(decimals=4))
print(F.embedding_bag(torch.tensor([1, 2, 3, 4]), w, torch.tensor([0, 2]), mode="max", max_norm=1.0).round(decimals=4))
eb = nn.EmbeddingBag(5, 3, mode="sum")
r = eb(torch.tensor([1, 2, 3]), torch.tensor([0, 1, 1]))
print(r[1], r.shape)
r.sum().backward(); print(eb.weight.grad)
sp = nn.Embedding(5, 2, sparse=True); sp(torch.tensor([[1, 1], [4, 0]])).sum().backward()
print(sp.weight.grad.coalesce().values(), sp.weight.grad.coalesce().indices())
''',
    'func_bn': r'''
nn = torch.nn; F = torch.nn.functional
fn = torch.func
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
x = torch.randn(3, 1, 4, 4); y = torch.tensor([0, 1, 1])
def loss1(p, b, xi, yi):
    return F.cross_entropy(fn.functional_call(model, (p, b), (xi.unsqueeze(0),)), yi.unsqueeze(0))
try:
    g = fn.vmap(fn.grad(loss1), in_dims=(None, None, 0, 0))(params, buffers, x, y)
    print("ok", g["0.weight"].shape)
except Exception as e:
    print(type(e).__name__, str(e)[:160])
model.eval()
g = fn.vmap(fn.grad(loss1), in_dims=(None, None, 0, 0))(params, buffers, x, y)
print({k: tuple(v.shape) for k, v in g.items()})
print(g["4.bias"].round(decimals=4))
model.train()
fn.replace_all_batch_norm_modules_(model)
print(model[1].running_mean, model[1].track_running_stats)
g = fn.vmap(fn.grad(loss1), in_dims=(None, None, 0, 0))(params, {}, x, y)
print(g["1.weight"].round(decimals=4))
out, vjpf = fn.vjp(lambda p: fn.functional_call(model, p, (x,)), params)
ct = vjpf(torch.ones_like(out))[0]
print(sorted(ct.keys())[:2], ct["4.weight"].shape)
jf = fn.jacrev(lambda p: fn.functional_call(model, p, (x[:1],)))(params)
print(jf["4.bias"].shape, jf["0.weight"].shape)
(o, lin) = fn.linearize(lambda t: t.sin() * 2, torch.tensor([0.0, 1.0]))
print(o, lin(torch.tensor([1.0, 1.0])))
print(fn.jvp(lambda t: t.exp().sum(), (torch.zeros(3),), (torch.ones(3),)))
print(fn.vmap(lambda a, b: a @ b, in_dims=(0, None))(torch.ones(4, 2, 3), torch.ones(3)).shape)
print(fn.vmap(torch.trace)(torch.eye(3).expand(5, 3, 3)), fn.vmap(fn.vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)).shape)
print(fn.vmap(lambda t: t.sum(), chunk_size=2)(torch.arange(12.).view(6, 2)), fn.vmap(F.relu, in_dims=1, out_dims=1)(torch.randn(2, 3) ).shape)
try:
    fn.vmap(lambda a, b: a + b)(torch.ones(3, 2), torch.ones(4, 2))
except ValueError as e:
    print("VE", e)
''',
    'ensemble_bn': r'''
import copy
nn = torch.nn; F = torch.nn.functional
fn = torch.func
torch.manual_seed(0)
models = [nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)) for _ in range(3)]
params, buffers = fn.stack_module_state(models)
print(sorted(params.keys()), sorted(buffers.keys()), buffers["1.num_batches_tracked"])
base = copy.deepcopy(models[0]).to("meta")
def call(p, b, x): return fn.functional_call(base, (p, b), (x,))
x = torch.randn(5, 3)
out = fn.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, buffers["1.running_mean"].round(decimals=4), buffers["1.num_batches_tracked"])
ref = models[1](x)
print(torch.allclose(out[1], ref, atol=1e-6))
xs = torch.randn(3, 5, 3)
out2 = fn.vmap(call)(params, buffers, xs)
print(out2.shape, buffers["1.num_batches_tracked"])
def loss(p, b, x, y): return F.cross_entropy(call(p, b, x), y)
y = torch.tensor([0, 1, 0, 1, 1])
g = fn.vmap(fn.grad(loss), in_dims=(0, 0, None, None))(params, buffers, x, y)
print({k: tuple(v.shape) for k, v in g.items()}, g["3.bias"].round(decimals=4))
base.eval()
out3 = fn.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
print(out3[0, :2].round(decimals=4))
''',
    'autograd_hooks': r'''
nn = torch.nn; F = torch.nn.functional
fwAD = torch.autograd.forward_ad
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
opt_dict = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}
order = []
def hook(p):
    order.append(tuple(p.shape)); opt_dict[p].step(); opt_dict[p].zero_grad()
for p in model.parameters(): p.register_post_accumulate_grad_hook(hook)
x = torch.randn(3, 4); y = torch.tensor([0, 1, 1])
for it in range(2):
    loss = F.cross_entropy(model(x), y); loss.backward()
    print(it, round(loss.item(), 5), [p.grad is None for p in model.parameters()])
print(order)
packed = []
def pack(t): packed.append((tuple(t.shape), t.dtype)); return t.to(torch.float16)
def unpack(t): return t.to(torch.float32)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    a = torch.randn(5, requires_grad=True)
    b = (a.exp() * a.sin()).sum()
b.backward()
print(packed, a.grad.round(decimals=2))
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    out = model(x).pow(2).sum()
out.backward(); print(model[0].weight.grad is None)
seen = []
t1 = torch.randn(2, requires_grad=True); t2 = torch.randn(2, requires_grad=True)
h = torch.autograd.graph.register_multi_grad_hook((t1, t2), lambda grads: seen.append([g is None for g in grads]))
(t1 * 2).sum().backward(); (t1 * t2).sum().backward()
print(seen); h.remove()
prim = torch.randn(4); tang = torch.ones(4)
with fwAD.dual_level():
    d = fwAD.make_dual(prim, tang)
    out = model(d.unsqueeze(0))
    p, t = fwAD.unpack_dual(out)
    print(p.shape, t.round(decimals=4), type(fwAD.unpack_dual(out)).__name__)
    print(fwAD.unpack_dual(F.softplus(d)).tangent.round(decimals=4))
with torch.autograd.set_detect_anomaly(True):
    z = torch.randn(3, requires_grad=True); w = z * 2; w.sum().backward()
print(z.grad, torch.is_anomaly_enabled())
v = torch.randn(3, requires_grad=True)
u = v * 3; u.retain_grad(); u.register_hook(lambda g: g * 10)
(u ** 2).sum().backward()
print(u.grad.round(decimals=4), v.grad.round(decimals=4), u.is_leaf, u.retains_grad, u.grad_fn.name())
n = torch.randn(2, requires_grad=True)
print((n * 2).grad_fn.next_functions, (n * 2).grad_fn.metadata)
l = (n.exp() + n.sin()).sum()
print(torch.autograd.grad(l, n, retain_graph=True)[0].shape, l.grad_fn.next_functions[0][0].name())
l.backward(inputs=[n]); print(n.grad.shape)
gg = torch.autograd.grad(torch.stack([n.sum(), (n ** 2).sum()]), n, grad_outputs=torch.eye(2), is_grads_batched=True)[0]
print(gg.shape)
''',
    'ensemble_dropout': r'''
import copy
nn = torch.nn; F = torch.nn.functional
fn = torch.func
torch.manual_seed(0)
models = [nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Dropout(0.5), nn.Linear(6, 6), nn.ReLU(), nn.Dropout(0.5), nn.Linear(6, 2)) for _ in range(3)]
params, buffers = fn.stack_module_state(models)
base = copy.deepcopy(models[0]).to("meta")
def fmodel(p, b, x): return fn.functional_call(base, (p, b), (x,))
x = torch.randn(5, 4)
out = fn.vmap(fmodel, in_dims=(0, 0, None), randomness="different")(params, buffers, x)
print(out.round(decimals=4))
same = fn.vmap(fmodel, in_dims=(0, 0, None), randomness="same")(params, buffers, x)
print(same[:, 0].round(decimals=4))
chunked = fn.vmap(fmodel, in_dims=(0, 0, None), randomness="different", chunk_size=2)(params, buffers, x)
print(chunked[:, 1].round(decimals=4))
def loss(p, b, x, y): return F.cross_entropy(fmodel(p, b, x), y)
g = fn.vmap(fn.grad(loss), in_dims=(0, 0, None, None), randomness="different")(params, buffers, x, torch.tensor([0, 1, 0, 1, 1]))
print(g["6.bias"].round(decimals=4))
noise = fn.vmap(lambda t: t + 0.1 * torch.randn(6) + torch.rand(1), randomness="different")(torch.zeros(4, 6))
print(noise.round(decimals=4))
print(fn.vmap(lambda p: torch.bernoulli(p) * torch.normal(p, 0.1), randomness="different")(torch.rand(3, 4)).round(decimals=4))
try:
    fn.vmap(lambda t: t + torch.empty(3).uniform_(), randomness="different")(torch.zeros(2, 3))
except RuntimeError as e:
    print("RT", e)
print(torch.rand(2))
''',
    'ddp_single': r'''
import os, socket
dist = torch.distributed
nn = torch.nn; F = torch.nn.functional
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = str(port)
torch.manual_seed(0)
print(dist.is_available(), dist.is_initialized())
dist.init_process_group("gloo", rank=0, world_size=1)
try:
    print(dist.is_initialized(), dist.get_rank(), dist.get_world_size(), dist.get_backend())
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    ddp = nn.parallel.DistributedDataParallel(model)
    print(type(ddp).__name__, list(ddp.state_dict().keys())[:2], ddp.module is model)
    ds = torch.utils.data.TensorDataset(torch.randn(10, 4), torch.randint(0, 2, (10,)))
    sampler = torch.utils.data.distributed.DistributedSampler(ds, shuffle=True, seed=1)
    dl = torch.utils.data.DataLoader(ds, batch_size=4, sampler=sampler)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for ep in range(2):
        sampler.set_epoch(ep)
        print(ep, list(sampler))
        for xb, yb in dl:
            loss = F.cross_entropy(ddp(xb), yb); opt.zero_grad(); loss.backward(); opt.step()
        t = torch.tensor([loss.item()]); dist.all_reduce(t, op=dist.ReduceOp.SUM)
        print(ep, round(t.item(), 4))
    lst = [torch.zeros(2)]; dist.all_gather(lst, torch.ones(2)); print(lst)
    b = torch.tensor([5.0]); dist.broadcast(b, src=0); print(b)
    dist.barrier()
    objs = [None]; dist.all_gather_object(objs, {"a": 1}); print(objs)
    with ddp.no_sync():
        F.cross_entropy(ddp(xb), yb).backward()
    print(model[0].weight.grad.shape)
finally:
    dist.destroy_process_group()
print(dist.is_initialized())
''',
    'gumbel_sinkhorn_caps': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
logits = torch.randn(4, 5, requires_grad=True)
for tau in (1.0, 0.5):
    y = F.gumbel_softmax(logits, tau=tau, hard=False)
    yh = F.gumbel_softmax(logits, tau=tau, hard=True, dim=-1)
    print(tau, y.round(decimals=4)[0], yh[0], yh.grad_fn.name())
(yh * torch.arange(5.)).sum().backward(); print(logits.grad.round(decimals=4)[0])
class GVAE(nn.Module):
    def __init__(self, N=3, K=4):
        super().__init__(); self.N, self.K = N, K
        self.enc = nn.Linear(8, N * K); self.dec = nn.Linear(N * K, 8)
    def forward(self, x, tau):
        q = self.enc(x).view(-1, self.N, self.K)
        z = F.gumbel_softmax(q, tau=tau, hard=False).view(-1, self.N * self.K)
        qy = F.softmax(q, dim=-1)
        kl = (qy * torch.log(qy * self.K + 1e-20)).sum((-1, -2)).mean()
        return torch.sigmoid(self.dec(z)), kl
m = GVAE(); opt = torch.optim.Adam(m.parameters(), lr=1e-2)
x = torch.rand(6, 8).round()
tau = 1.0
for it in range(4):
    r, kl = m(x, tau); loss = F.binary_cross_entropy(r, x, reduction="sum") / 6 + kl
    opt.zero_grad(); loss.backward(); opt.step(); tau = max(0.5, tau * 0.9)
    print(it, round(loss.item(), 4), round(kl.item(), 5), round(tau, 3))
def sinkhorn(C, eps=0.1, iters=50):
    n, m_ = C.shape
    log_mu = torch.full((n,), -torch.log(torch.tensor(float(n)))); log_nu = torch.full((m_,), -torch.log(torch.tensor(float(m_))))
    u = torch.zeros(n); v = torch.zeros(m_)
    for _ in range(iters):
        u = eps * (log_mu - torch.logsumexp((-C + u[:, None] + v[None, :]) / eps, dim=1)) + u
        v = eps * (log_nu - torch.logsumexp((-C + u[:, None] + v[None, :]) / eps, dim=0)) + v
    P = torch.exp((-C + u[:, None] + v[None, :]) / eps)
    return P, (P * C).sum()
a = torch.randn(5, 2); b = torch.randn(4, 2) + 1
P, cost = sinkhorn(torch.cdist(a, b) ** 2)
print(P.sum(1).round(decimals=4), P.sum(0).round(decimals=4), round(cost.item(), 4))
def squash(s, dim=-1):
    n2 = (s ** 2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)
u_hat = torch.randn(2, 6, 3, 4)
b_ij = torch.zeros(2, 6, 3)
for r in range(3):
    c = F.softmax(b_ij, dim=2)
    s = (c.unsqueeze(-1) * u_hat).sum(1)
    v = squash(s)
    b_ij = b_ij + torch.einsum("bicd,bcd->bic", u_hat, v)
print(v.norm(dim=-1).round(decimals=4), c[0, 0].round(decimals=4))
''',
    'lowp_train': r'''
nn = torch.nn; F = torch.nn.functional
for dt in (torch.bfloat16, torch.float16):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3)).to(dt)
    x = torch.randn(5, 6).to(dt); y = torch.tensor([0, 1, 2, 0, 1])
    out = m(x); loss = F.cross_entropy(out, y)
    loss.backward()
    print(dt, out.dtype, loss.dtype, loss.item(), F.cross_entropy(out, y, reduction="sum").item())
    for n, p in m.named_parameters():
        print(n, p.grad.dtype, p.grad.flatten()[:6])
    print(F.log_softmax(out, 1)[0], F.softmax(out, 0)[:, 0], F.nll_loss(F.log_softmax(out, -1), y, ignore_index=1).item())
    ln = nn.LayerNorm(16).to(dt); z = torch.randn(40, 16).to(dt).requires_grad_()
    ln(z).pow(2).sum().backward()
    print(ln.weight.grad[:4], ln.bias.grad[:4], z.grad[0, :4])
''',
    'loss_items': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(64, 10); y = torch.randint(0, 4, (64,))
for n in (1, 17, 33, 64):
    logits = torch.randn(n, 4) * 3
    t = y[:n]
    print(n, F.nll_loss(-(torch.rand(n, 4) * 3) - logits.abs(), t, reduction="sum").item(),
          F.nll_loss(-torch.rand(n, 4, dtype=torch.float64) * 3, t).item())
lp = -torch.rand(40, 5) * 4
tt = torch.randint(0, 5, (40,)); tt[::3] = -100
w = torch.tensor([1.0, 0.5, 2.0, 1.5, 0.25])
print(F.nll_loss(lp, tt).item(), F.nll_loss(lp, tt, weight=w).item(), F.nll_loss(lp, tt, weight=w, reduction="sum").item())
print(F.nll_loss(lp.half(), tt).item(), F.nll_loss(lp.bfloat16(), tt, reduction="sum").item(), F.nll_loss(lp.bfloat16(), tt, weight=w.bfloat16()).item())
tt[:] = -100
print(F.nll_loss(lp, tt).item(), F.nll_loss(lp, tt, reduction="sum").item())
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    PROGRAMS, at_least=50)
