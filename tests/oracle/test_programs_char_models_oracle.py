"""Character-level language models written from scratch, the way popular from-zero courses
write them: counts of bigrams in an int32 matrix, a one-hot bigram network trained with
`W.data += -lr * W.grad`, an embedding MLP with minibatches drawn by a seeded Generator,
batch normalization by hand with running statistics, gradients derived by hand and compared
with autograd's (`retain_grad` on every intermediate), a hierarchical (WaveNet-like) model from
hand-written layer classes, and a scalar autograd engine checked against torch. Each runs under
real torch and under ember (`import ember as torch`): what it prints must be identical.

The data is a fixed list of names; every random number comes from a
`torch.Generator().manual_seed(...)`, which ember reproduces, so printed values agree.
"""
import pytest

torch = pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

NAMES = r'''
words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia",
         "harper", "evelyn", "abigail", "emily", "elizabeth", "mila", "ella", "avery",
         "sofia", "camila", "aria", "scarlett", "victoria", "madison", "luna", "grace",
         "chloe", "penelope", "layla", "riley", "zoey", "nora", "lily", "eleanor", "hannah",
         "lillian", "addison", "aubrey", "ellie", "stella", "natalie", "zoe", "leah", "hazel",
         "violet", "aurora", "savannah", "audrey", "brooklyn", "bella", "claire", "skylar"]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)
'''

DATASET = r'''
def build_dataset(words, block_size):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)
'''

PROGRAMS = {
    'bigram_counts': NAMES + r'''
N = torch.zeros((vocab_size, vocab_size), dtype=torch.int32)
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N.dtype, N.sum().item(), N[0].tolist()[:8], N.max())
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P.shape, P[0].sum().item(), P[0, :5])
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))
log_likelihood, n = 0.0, 0
for w in words[:10]:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        logprob = torch.log(P[stoi[ch1], stoi[ch2]])
        log_likelihood += logprob
        n += 1
nll = -log_likelihood
print(f"{log_likelihood=}")
print(f"{nll/n}")
''',
    'bigram_network': NAMES + r'''
F = torch.nn.functional
xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs, ys = torch.tensor(xs), torch.tensor(ys)
num = xs.nelement()
print("number of examples:", num, xs.dtype)
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((vocab_size, vocab_size), generator=g, requires_grad=True)
xenc = F.one_hot(xs, num_classes=vocab_size).float()
print(xenc.shape, xenc.dtype, xenc[:2].sum(1))
for k in range(30):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    if k % 10 == 0:
        print(k, round(loss.item(), 4))
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
print(round(loss.item(), 4), W.grad.abs().max() > 0)
for i in range(3):
    out, ix = [], 0
    while True:
        xenc = F.one_hot(torch.tensor([ix]), num_classes=vocab_size).float()
        p = (xenc @ W).exp()
        p = p / p.sum(1, keepdims=True)
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))
''',
    'embedding_mlp': NAMES + DATASET + r'''
F = torch.nn.functional
block_size = 3
Xtr, Ytr = build_dataset(words[:40], block_size)
Xdev, Ydev = build_dataset(words[40:], block_size)
print(Xtr.shape, Xtr.dtype, Ytr.shape, Xdev.shape)
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, 10), generator=g)
W1 = torch.randn((30, 64), generator=g)
b1 = torch.randn(64, generator=g)
W2 = torch.randn((64, vocab_size), generator=g)
b2 = torch.randn(vocab_size, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
for i in range(200):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 100 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 50 == 0:
        print(i, f"{loss.item():.4f}")
with torch.no_grad():
    emb = C[Xdev]
    h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
    print("dev", f"{F.cross_entropy(h @ W2 + b2, Ydev).item():.4f}")
for _ in range(3):
    out, context = [], [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        probs = F.softmax(h @ W2 + b2, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0:
            break
    print("".join(itos[i] for i in out))
''',
    'batchnorm_by_hand': NAMES + DATASET + r'''
F = torch.nn.functional
Xtr, Ytr = build_dataset(words, 3)
n_embd, n_hidden = 10, 100
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = torch.randn((n_embd * 3, n_hidden), generator=g) * (5 / 3) / ((n_embd * 3) ** 0.5)
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.01
b2 = torch.randn(vocab_size, generator=g) * 0
bngain = torch.ones((1, n_hidden))
bnbias = torch.zeros((1, n_hidden))
bnmean_running = torch.zeros((1, n_hidden))
bnstd_running = torch.ones((1, n_hidden))
parameters = [C, W1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True
ud = []
for i in range(60):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix]
    embcat = C[Xb].view(Xb.shape[0], -1)
    hpreact = embcat @ W1
    bnmeani = hpreact.mean(0, keepdim=True)
    bnstdi = hpreact.std(0, keepdim=True)
    hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
    with torch.no_grad():
        bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
        bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
    h = torch.tanh(hpreact)
    loss = F.cross_entropy(h @ W2 + b2, Yb)
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    with torch.no_grad():
        ud.append([((0.1 * p.grad).std() / p.data.std()).log10().item() for p in parameters])
    if i % 20 == 0:
        print(i, f"{loss.item():.4f}", f"{(h.abs() > 0.97).float().mean().item():.4f}")
print(bnmean_running.shape, f"{bnmean_running.abs().mean().item():.6f}", f"{bnstd_running.mean().item():.6f}")
print([round(v, 2) for v in ud[-1]])
hy, hx = torch.histogram(h.detach().view(-1), 5)
print(hy.tolist(), hx.round(decimals=3).tolist())
print(torch.histc(h.detach(), bins=4, min=-1, max=1))
''',
    'backprop_by_hand': NAMES + DATASET + r'''
F = torch.nn.functional
torch.manual_seed(0)
Xtr, Ytr = build_dataset(words, 3)
n_embd, n_hidden, n = 10, 64, 32
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = torch.randn((n_embd * 3, n_hidden), generator=g) * (5 / 3) / ((n_embd * 3) ** 0.5)
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
b2 = torch.randn(vocab_size, generator=g) * 0.1
bngain = torch.randn((1, n_hidden)) * 0.1 + 1.0
bnbias = torch.randn((1, n_hidden)) * 0.1
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True
ix = torch.randint(0, Xtr.shape[0], (n,), generator=g)
Xb, Yb = Xtr[ix], Ytr[ix]
emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff ** 2
bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5) ** -0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum ** -1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes,
          logits, h, hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani,
          embcat, emb]:
    t.retain_grad()
loss.backward()
print(f"{loss.item():.4f}")

def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    print(f"{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s}")

dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum ** -2) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhpreact = (1.0 - h ** 2) * dh
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
dbndiff = bnvar_inv * dbnraw
dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
dbnvar = (-0.5 * (bnvar + 1e-5) ** -1.5) * dbnvar_inv
dbndiff2 = (1.0 / (n - 1)) * torch.ones_like(bndiff2) * dbnvar
dbndiff += (2 * bndiff) * dbndiff2
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
dhprebn += 1.0 / n * (torch.ones_like(hprebn) * dbnmeani)
dembcat = dhprebn @ W1.T
dW1 = embcat.T @ dhprebn
db1 = dhprebn.sum(0)
demb = dembcat.view(emb.shape)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        dC[Xb[k, j]] += demb[k, j]
for name, d, t in [("logprobs", dlogprobs, logprobs), ("probs", dprobs, probs),
                   ("counts_sum_inv", dcounts_sum_inv, counts_sum_inv),
                   ("counts_sum", dcounts_sum, counts_sum), ("counts", dcounts, counts),
                   ("norm_logits", dnorm_logits, norm_logits), ("logit_maxes", dlogit_maxes, logit_maxes),
                   ("logits", dlogits, logits), ("h", dh, h), ("W2", dW2, W2), ("b2", db2, b2),
                   ("hpreact", dhpreact, hpreact), ("bngain", dbngain, bngain), ("bnbias", dbnbias, bnbias),
                   ("bnraw", dbnraw, bnraw), ("bnvar_inv", dbnvar_inv, bnvar_inv), ("bnvar", dbnvar, bnvar),
                   ("bndiff2", dbndiff2, bndiff2), ("bndiff", dbndiff, bndiff), ("bnmeani", dbnmeani, bnmeani),
                   ("hprebn", dhprebn, hprebn), ("embcat", dembcat, embcat), ("W1", dW1, W1),
                   ("b1", db1, b1), ("emb", demb, emb), ("C", dC, C)]:
    cmp(name, d, t)
dlogits2 = F.softmax(logits, 1)
dlogits2[range(n), Yb] -= 1
dlogits2 /= n
print(f"{(dlogits2 - logits.grad).abs().max().item() < 1e-6}", F.cross_entropy(logits, Yb).item() - loss.item() < 1e-6)
''',
    'hierarchical_layers': NAMES + DATASET + r'''
g = torch.Generator().manual_seed(42)

class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in ** 0.5
        self.bias = torch.zeros(fan_out) if bias else None
    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out
    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])

class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma, self.beta = torch.ones(dim), torch.zeros(dim)
        self.running_mean, self.running_var = torch.zeros(dim), torch.ones(dim)
    def __call__(self, x):
        if self.training:
            dim = 0 if x.ndim == 2 else (0, 1)
            xmean = x.mean(dim, keepdim=True)
            xvar = x.var(dim, keepdim=True)
        else:
            xmean, xvar = self.running_mean, self.running_var
        xhat = (x - xmean) / torch.sqrt(xvar + self.eps)
        self.out = self.gamma * xhat + self.beta
        if self.training:
            with torch.no_grad():
                self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
                self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
        return self.out
    def parameters(self):
        return [self.gamma, self.beta]

class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out
    def parameters(self):
        return []

class Embedding:
    def __init__(self, num, dim):
        self.weight = torch.randn((num, dim), generator=g)
    def __call__(self, ix):
        self.out = self.weight[ix]
        return self.out
    def parameters(self):
        return [self.weight]

class FlattenConsecutive:
    def __init__(self, n):
        self.n = n
    def __call__(self, x):
        B, T, C = x.shape
        x = x.view(B, T // self.n, C * self.n)
        if x.shape[1] == 1:
            x = x.squeeze(1)
        self.out = x
        return self.out
    def parameters(self):
        return []

class Sequential:
    def __init__(self, layers):
        self.layers = layers
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        self.out = x
        return self.out
    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

Xtr, Ytr = build_dataset(words, 8)
n_embd, n_hidden = 8, 32
model = Sequential([
    Embedding(vocab_size, n_embd),
    FlattenConsecutive(2), Linear(n_embd * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
    FlattenConsecutive(2), Linear(n_hidden * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
    FlattenConsecutive(2), Linear(n_hidden * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
    Linear(n_hidden, vocab_size),
])
with torch.no_grad():
    model.layers[-1].weight *= 0.1
parameters = model.parameters()
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
for i in range(40):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    logits = model(Xtr[ix])
    loss = torch.nn.functional.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    if i % 10 == 0:
        print(i, f"{loss.item():.4f}")
for layer in model.layers:
    print(layer.__class__.__name__, ":", tuple(layer.out.shape))
for layer in model.layers:
    layer.training = False
print(f"{torch.nn.functional.cross_entropy(model(Xtr), Ytr).item():.4f}")
''',
    'scalar_engine_vs_torch': r'''
x1 = torch.Tensor([2.0]).double();                x1.requires_grad = True
x2 = torch.Tensor([0.0]).double();                x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double();               w1.requires_grad = True
w2 = torch.Tensor([1.0]).double();                w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double();  b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print("---")
print("x2", x2.grad.item())
print("w2", w2.grad.item())
print("x1", x1.grad.item())
print("w1", w1.grad.item())
print(o, n.grad_fn, x1.dtype, x1.is_leaf, n.is_leaf)
x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
print(y.data.item(), x.grad.item())
a = torch.Tensor([-4.0]).double(); a.requires_grad = True
b = torch.Tensor([2.0]).double(); b.requires_grad = True
c = a + b
d = a * b + b ** 3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e ** 2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(f"{g.data.item():.4f}", f"{a.grad.item():.4f}", f"{b.grad.item():.4f}")
print(torch.Tensor([1, 2]).dtype, torch.Tensor(2, 3).shape, torch.Tensor().shape)
''',
}

BUGS = {
}


@pytest.mark.parametrize("program", cases(PROGRAMS, BUGS))
def test_char_model_prints_like_torch(program):
    expected, got = compare(program)
    assert got == expected


def test_programs_are_distinct():
    programs = list(PROGRAMS.values()) + [p for _, p in BUGS.values()]
    assert len(set(programs)) == len(programs) >= 7
