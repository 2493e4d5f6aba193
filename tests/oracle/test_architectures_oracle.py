"""Small complete model architectures (a UNet-like encoder-decoder, a ResNet basic block on
channels_last input, a VAE, a GAN step, a GRU seq2seq with attention, a Transformer with greedy
decoding, a char-level LSTM with sampling, a depthwise-separable ConvNet, a Siamese network, weight
tying, gradient checkpointing, CPU autocast) trained for a few steps under real torch and under
ember (`import ember as torch`) from the same seed: everything printed (shapes, parameter counts,
rounded outputs, losses, gradient norms) must be identical. Values are printed to few digits since
float32 sums in a different order drift in the last ones over several optimizer steps.
"""
import pytest

torch = pytest.importorskip("torch")

from differential import compare  # noqa: E402

pytestmark = pytest.mark.oracle


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """torch's thread pool only slows these small programs down (on a busy machine, a lot)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


PROGRAMS = {
    'unet': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(0)
def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))
class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.e1, self.e2 = block(1, 4), block(4, 8)
        self.pool = nn.MaxPool2d(2)
        self.mid = block(8, 8)
        self.up1 = nn.ConvTranspose2d(8, 8, 2, stride=2)
        self.d1 = block(16, 4)
        self.d2 = block(8, 4)
        self.out = nn.Conv2d(4, 1, 1)
    def forward(self, x):
        a = self.e1(x)
        b = self.e2(self.pool(a))
        m = self.mid(self.pool(b))
        u = self.d1(torch.cat([self.up1(m), b], dim=1))
        u = F.interpolate(u, scale_factor=2, mode="bilinear", align_corners=False)
        u = self.d2(torch.cat([u, a], 1))
        return self.out(u)
net = UNet()
print(sum(p.numel() for p in net.parameters()), len(list(net.buffers())))
x = torch.randn(2, 1, 16, 16)
y = (x > 0.3).float()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(4):
    opt.zero_grad()
    out = net(x)
    loss = F.binary_cross_entropy_with_logits(out, y)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
    opt.step()
    print(step, tuple(out.shape), round(loss.item(), 4), round(gn.item(), 3))
print(net.e1[1].running_mean.round(decimals=4), net.e1[1].num_batches_tracked)
net.eval()
with torch.no_grad():
    print(net(x)[0, 0, :2, :3].round(decimals=3))
''',
    'resnet_block_cl': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(1)
class Basic(nn.Module):
    expansion = 1
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
    def forward(self, x):
        idt = x if self.down is None else self.down(x)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + idt)
net = nn.Sequential(Basic(3, 6, 2), Basic(6, 6, 1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 4))
net = net.to(memory_format=torch.channels_last)
print(net[0])
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
x = torch.randn(4, 3, 10, 10).to(memory_format=torch.channels_last)
print(x.is_contiguous(), x.is_contiguous(memory_format=torch.channels_last), x.stride())
y = torch.tensor([0, 1, 2, 3])
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
for step in range(4):
    opt.zero_grad()
    feats = net[0](x)
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(step, tuple(feats.shape), feats.is_contiguous(memory_format=torch.channels_last), round(loss.item(), 3))
print(round(net[0].conv1.weight.grad.norm().item(), 3), net[0].conv1.weight.grad.is_contiguous())
''',
    'vae_bce': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(2)
class VAE(nn.Module):
    def __init__(self, d=16, h=8, z=2):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.mu, self.logvar = nn.Linear(h, z), nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.Tanh(), nn.Linear(h, d), nn.Sigmoid())
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std
    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        return self.dec(self.reparameterize(mu, logvar)), mu, logvar
def loss_fn(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld
model = VAE()
x = torch.rand(10, 16).round()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    opt.zero_grad()
    recon, mu, logvar = model(x)
    loss, bce, kld = loss_fn(recon, x, mu, logvar)
    loss.backward()
    gn = sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5
    opt.step()
    print(epoch, round(loss.item() / len(x), 3), round(bce.item(), 2), round(kld.item(), 3), round(gn.item(), 2))
with torch.no_grad():
    z = torch.randn(3, 2)
    s = model.dec(z)
    print(s.shape, s.min().item() > 0, s[0, :4].round(decimals=3))
''',
    'gan_bce_logits': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(3)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Dropout(0.1), nn.Linear(16, 1))
crit = nn.BCEWithLogitsLoss()
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
real = torch.randn(16, 2) * 0.5 + torch.tensor([2.0, -1.0])
ones, zeros = torch.ones(16, 1), torch.zeros(16, 1)
for it in range(4):
    z = torch.randn(16, 4)
    fake = G(z)
    optD.zero_grad()
    lossD = crit(D(real), ones) + crit(D(fake.detach()), zeros)
    lossD.backward()
    optD.step()
    print(it, "G grads after D step:", all(p.grad is None for p in G.parameters()))
    optG.zero_grad()
    lossG = crit(D(fake), ones)
    lossG.backward()
    optG.step()
    gD = torch.cat([p.grad.flatten() for p in D.parameters()]).norm()
    print(it, round(lossD.item(), 3), round(lossG.item(), 3), round(gD.item(), 3))
G.eval()
with torch.no_grad():
    print(G(torch.zeros(2, 4)).round(decimals=3), fake.requires_grad, fake.detach().requires_grad)
''',
    'gru_attention_seq2seq': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(4)
V, E, H, SOS = 10, 6, 8, 1
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.rnn = nn.GRU(E, H, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * H, H)
    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        return self.proj(out), torch.tanh(self.proj(torch.cat([h[0], h[1]], -1))).unsqueeze(0)
class Dec(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.rnn = nn.GRU(E + H, H, batch_first=True)
        self.out = nn.Linear(2 * H, V)
    def forward(self, tok, h, enc):
        scores = torch.bmm(enc, h[-1].unsqueeze(2)).squeeze(2)
        attn = F.softmax(scores, dim=1)
        ctx = torch.bmm(attn.unsqueeze(1), enc)
        o, h = self.rnn(torch.cat([self.emb(tok), ctx], -1), h)
        return self.out(torch.cat([o.squeeze(1), ctx.squeeze(1)], -1)), h, attn
enc, dec = Enc(), Dec()
src = torch.randint(2, V, (3, 5))
tgt = src.flip(1)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=0.01)
for step in range(4):
    opt.zero_grad()
    memory, h = enc(src)
    tok = torch.full((3, 1), SOS)
    loss = 0.0
    for t in range(tgt.size(1)):
        logits, h, attn = dec(tok, h, memory)
        loss = loss + F.cross_entropy(logits, tgt[:, t])
        tok = tgt[:, t:t + 1] if step % 2 == 0 else logits.argmax(-1, keepdim=True)
    loss.backward()
    gn = nn.utils.clip_grad_norm_(enc.parameters(), 1.0)
    opt.step()
    print(step, tuple(memory.shape), tuple(attn.shape), round(loss.item() / 5, 4), round(gn.item(), 3))
print(attn.sum(1).round(decimals=4), attn[0].round(decimals=3))
''',
    'transformer_greedy': r'''\
nn = torch.nn
torch.manual_seed(5)
V, D, PAD, BOS = 12, 16, 0, 1
class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=PAD)
        self.pos = nn.Parameter(torch.randn(1, 10, D) * 0.02)
        self.tf = nn.Transformer(D, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                 dim_feedforward=32, dropout=0.0, batch_first=True)
        self.head = nn.Linear(D, V)
    def forward(self, src, tgt):
        s = self.emb(src) + self.pos[:, :src.size(1)]
        t = self.emb(tgt) + self.pos[:, :tgt.size(1)]
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        out = self.tf(s, t, tgt_mask=mask, src_key_padding_mask=src == PAD,
                      memory_key_padding_mask=src == PAD)
        return self.head(out)
m = Seq()
print(sum(p.numel() for p in m.parameters()))
print(nn.Transformer.generate_square_subsequent_mask(3))
src = torch.randint(2, V, (4, 6))
src[0, 4:] = PAD
src[2, 5:] = PAD
tgt = torch.cat([torch.full((4, 1), BOS), src[:, :5]], 1)
opt = torch.optim.AdamW(m.parameters(), lr=3e-3)
for step in range(4):
    opt.zero_grad()
    logits = m(src, tgt[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, V), tgt[:, 1:].reshape(-1), ignore_index=PAD)
    loss.backward()
    opt.step()
    print(step, tuple(logits.shape), round(loss.item(), 3))
m.eval()
with torch.no_grad():
    ys = torch.full((4, 1), BOS)
    for _ in range(4):
        nxt = m(src, ys)[:, -1].argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], 1)
print(ys.shape, ys.dtype, ys[:, 1:].tolist())
''',
    'char_lstm_sample': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(6)
text = "hello world, hello ember, hello torch. "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text])
V = len(chars)
class CharLM(nn.Module):
    def __init__(self, h=24):
        super().__init__()
        self.emb = nn.Embedding(V, 8)
        self.lstm = nn.LSTM(8, h, num_layers=2, batch_first=True)
        self.fc = nn.Linear(h, V)
    def forward(self, x, state=None):
        out, state = self.lstm(self.emb(x), state)
        return self.fc(out), state
model = CharLM()
print(V, sum(p.numel() for p in model.parameters()), [n for n, _ in model.lstm.named_parameters()][:4])
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
x, y = data[:-1].view(2, -1), data[1:].view(2, -1)
for step in range(5):
    opt.zero_grad()
    logits, (h, c) = model(x)
    loss = F.cross_entropy(logits.transpose(1, 2), y)
    loss.backward()
    opt.step()
    print(step, tuple(h.shape), round(loss.item(), 3))
torch.manual_seed(42)
model.eval()
idx, state, out = torch.tensor([[stoi["h"]]]), None, []
with torch.no_grad():
    for _ in range(15):
        logits, state = model(idx, state)
        probs = F.softmax(logits[:, -1] / 0.8, dim=-1)
        idx = torch.multinomial(probs, num_samples=1)
        out.append(chars[idx.item()])
print(repr("".join(out)))
print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 6, replacement=True))
''',
    'depthwise_groupnorm': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(7)
class DWSep(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.gn = nn.GroupNorm(2, cout)
        self.act = nn.SiLU()
    def forward(self, x):
        return self.act(self.gn(self.pw(self.dw(x))))
net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.SiLU(), DWSep(4, 8, 2), DWSep(8, 8),
                    nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(8, 3))
print(net[2])
print([tuple(p.shape) for p in net[2].parameters()], sum(p.numel() for p in net.parameters()))
x, y = torch.randn(6, 3, 12, 12), torch.tensor([0, 1, 2, 0, 1, 2])
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y, label_smoothing=0.1)
    loss.backward()
    g = net[2].dw.weight.grad
    opt.step()
    sched.step()
    print(step, round(loss.item(), 4), tuple(g.shape), round(g.norm().item(), 4), round(sched.get_last_lr()[0], 5))
h = net[:3](x)
print(h.shape, round(h.mean().item(), 4), round(F.silu(torch.tensor(1.5)).item(), 4))
''',
    'siamese_triplet': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(8)
class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 16), nn.PReLU(), nn.Linear(16, 4))
    def forward(self, x):
        return F.normalize(self.net(x), p=2, dim=1)
class Siamese(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = Embed()
    def forward(self, a, p, n):
        return self.embed(a), self.embed(p), self.embed(n)
model = Siamese()
crit = nn.TripletMarginLoss(margin=1.0, p=2)
print(crit, sum(p.numel() for p in model.parameters()))
centers = torch.randn(3, 10)
lab = torch.randint(0, 3, (12,))
anc = centers[lab] + 0.3 * torch.randn(12, 10)
pos = centers[lab] + 0.3 * torch.randn(12, 10)
neg = centers[(lab + 1) % 3] + 0.3 * torch.randn(12, 10)
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
for step in range(4):
    opt.zero_grad()
    ea, ep, en = model(anc, pos, neg)
    loss = crit(ea, ep, en)
    loss.backward()
    gn = torch.stack([p.grad.norm() for p in model.parameters()]).norm()
    opt.step()
    sp, sn = F.cosine_similarity(ea, ep).mean(), F.cosine_similarity(ea, en).mean()
    print(step, round(loss.item(), 4), round(sp.item(), 3), round(sn.item(), 3), round(gn.item(), 3))
print(ea.norm(dim=1).round(decimals=4)[:3], model.embed.net[1].weight)
cs = nn.CosineSimilarity(dim=0, eps=1e-6)
print(round(cs(torch.tensor([1.0, 2.0]), torch.tensor([2.0, 4.5])).item(), 4))
print(F.triplet_margin_loss(anc[:3], neg[:3], pos[:3], reduction="none", swap=True, margin=0.5).round(decimals=3))
''',
    'weight_tying_lm': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(9)
class TiedLM(nn.Module):
    def __init__(self, V=20, D=8):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.rnn = nn.GRU(D, D, batch_first=True)
        self.out = nn.Linear(D, V)
        self.out.weight = self.emb.weight
    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)
m = TiedLM()
print(m.out.weight is m.emb.weight, len(list(m.parameters())), sum(p.numel() for p in m.parameters()))
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters()])
print(len(list(m.named_parameters(remove_duplicate=False))))
x = torch.randint(0, 20, (3, 7))
opt = torch.optim.SGD(m.parameters(), lr=0.5)
for step in range(4):
    opt.zero_grad()
    logits = m(x[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 20), x[:, 1:].reshape(-1))
    loss.backward()
    print(step, tuple(logits.shape), round(loss.item(), 4), round(m.emb.weight.grad.norm().item(), 4))
    opt.step()
print(torch.equal(m.out.weight, m.emb.weight), m.out.weight.data_ptr() == m.emb.weight.data_ptr())
sd = m.state_dict()
m2 = TiedLM()
m2.load_state_dict(sd)
print(m2.out.weight is m2.emb.weight, torch.equal(m2.emb.weight, m.emb.weight))
''',
    'grad_checkpoint': r'''\
nn = torch.nn
F = torch.nn.functional
cp = torch.utils.checkpoint
torch.manual_seed(10)
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Dropout(0.2), nn.Linear(2 * d, d))
    def forward(self, x):
        return x + self.ff(self.ln(x))
class Net(nn.Module):
    def __init__(self, use_cp):
        super().__init__()
        self.use_cp = use_cp
        self.blocks = nn.ModuleList([Block(6) for _ in range(2)])
        self.head = nn.Linear(6, 1)
    def forward(self, x):
        for b in self.blocks:
            x = cp.checkpoint(b, x, use_reentrant=False) if self.use_cp else b(x)
        return self.head(x)
torch.manual_seed(11)
a = Net(True)
b = Net(False)
b.load_state_dict(a.state_dict())
x, y = torch.randn(8, 6), torch.randn(8, 1)
for net in (a, b):
    torch.manual_seed(12)
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    for step in range(3):
        opt.zero_grad()
        loss = F.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        print(net.use_cp, step, round(loss.item(), 4), round(net.blocks[0].ff[0].weight.grad.norm().item(), 4))
print([torch.allclose(p, q, atol=1e-6) for p, q in zip(a.parameters(), b.parameters())][:3])
z = torch.randn(3, 6, requires_grad=True)
out = cp.checkpoint_sequential(nn.Sequential(nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 2)), 2, z, use_reentrant=False)
out.sum().backward()
print(out.shape, z.grad.shape, round(z.grad.abs().sum().item(), 4))
''',
    'autocast_bf16': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(13)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
x, y = torch.randn(10, 8), torch.randint(0, 4, (10,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        h = model[0](x)
        out = model(x)
        print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"), h.dtype, out.dtype)
        loss = F.cross_entropy(out, y)
        s = out.float().sum()
    print(step, loss.dtype, s.dtype, round(loss.item(), 2))
    loss.backward()
    print(model[0].weight.grad.dtype, round(model[0].weight.grad.norm().item(), 2))
    opt.step()
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    a = torch.randn(3, 4)
    mm = a @ torch.randn(4, 2)
    e = torch.exp(mm)
    with torch.autocast("cpu", enabled=False):
        f = mm.float() @ torch.ones(2, 2)
    print(mm.dtype, e.dtype, f.dtype, (a + 1).dtype, torch.softmax(mm, 0).dtype, torch.cat([mm, a[:, :2]]).dtype)
print(torch.is_autocast_enabled("cpu"), mm.float().round(decimals=2))
''',
}

# Programs where ember still prints something else: name -> (why, program).
BUGS = {
}


def _params():
    for name, program in PROGRAMS.items():
        yield pytest.param(program, id=name)
    for name, (reason, program) in BUGS.items():
        yield pytest.param(program, id=name, marks=pytest.mark.xfail(reason=reason, strict=True))


@pytest.mark.parametrize("program", list(_params()))
def test_architecture_prints_like_torch(program):
    expected, got = compare(program)
    assert got == expected


def test_programs_are_distinct_and_sized():
    programs = list(PROGRAMS.values()) + [p for _, p in BUGS.values()]
    assert len(set(programs)) == len(programs) >= 12
    assert all(20 <= program.count("\n") <= 60 for program in programs)
