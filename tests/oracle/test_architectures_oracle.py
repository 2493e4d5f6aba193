"""Small complete model architectures (UNet- and SegNet-like encoder-decoders, ResNet blocks on
channels_last input, a VAE, GAN and WGAN-GP steps, a GRU seq2seq with attention, Transformers with
greedy decoding and pre-norm layers, a ViT on unfold patches, rotary attention, a mixture of
experts, WaveNet-style causal convolutions, a CTC acoustic model, a char-level LSTM with sampling,
a depthwise-separable ConvNet, a Siamese network, weight tying, gradient checkpointing, CPU
autocast, a normalizing flow, pixel-shuffle super-resolution) trained for a few steps under real
torch and under ember (`import ember as torch`) from the same seed: everything printed (shapes,
parameter counts, strides, rounded outputs, losses, gradient norms) must be identical. Values are
printed to few digits since float32 sums in another order drift in the last ones over several
optimizer steps (and a conv bias before BatchNorm, whose true gradient is 0, is left out: Adam
turns its rounding noise into full-size steps).
"""
import pytest

torch = pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]



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
    'segnet_unpool': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(20)
class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(2, 4, 3, padding=1, padding_mode="reflect")
        self.pool = nn.MaxPool2d(2, return_indices=True, ceil_mode=True)
        self.c2 = nn.Conv2d(4, 6, 3, padding="same")
        self.unpool = nn.MaxUnpool2d(2)
        self.up = nn.ConvTranspose2d(6, 4, 3, stride=2, padding=1, output_padding=1)
        self.head = nn.Conv2d(8, 3, 1)
    def forward(self, x):
        a = F.relu(self.c1(x))
        p, idx = self.pool(a)
        b = F.relu(self.c2(p))
        u = self.up(b)
        v = self.unpool(p, idx, output_size=a.shape[-2:])
        w = F.interpolate(u, size=a.shape[-2:], mode="nearest")
        return self.head(torch.cat([w, v], 1)), idx
net = SegNet()
x = torch.randn(2, 2, 9, 9)
y = torch.randint(0, 3, (2, 9, 9))
out, idx = net(x)
print(out.shape, idx.shape, idx.dtype, idx[0, 0, :2])
opt = torch.optim.Adam(net.parameters(), lr=5e-3)
for step in range(4):
    opt.zero_grad()
    out, _ = net(x)
    loss = F.cross_entropy(out, y, weight=torch.tensor([1.0, 2.0, 0.5]))
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), round(net.c1.weight.grad.norm().item(), 4), out.grad_fn.name())
print((out.argmax(1) == y).float().mean().item(), out.argmax(1)[0, 0])
print(F.interpolate(torch.arange(6.).view(1, 1, 2, 3), scale_factor=1.5, mode="nearest-exact"))
print(F.interpolate(torch.arange(6.).view(1, 1, 2, 3), size=(3, 4), mode="bicubic", align_corners=True).round(decimals=4))
print(F.interpolate(torch.arange(4.).view(1, 1, 4), scale_factor=0.5, mode="linear", recompute_scale_factor=True))
''',
    'resnet_cl_strides': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(21)
cl = torch.channels_last
x = torch.randn(2, 3, 6, 6).to(memory_format=cl)
conv = nn.Conv2d(3, 4, 3, 2, 1, bias=False).to(memory_format=cl)
bn = nn.BatchNorm2d(4)
h = conv(x)
print(h.stride(), h.is_contiguous(memory_format=cl))
g = bn(h)
print(g.stride(), F.relu(g).stride(), (g + h).stride(), (g + h.contiguous()).stride())
print(F.max_pool2d(g, 2).stride(), F.avg_pool2d(g, 2).stride(), F.adaptive_avg_pool2d(g, 1).stride())
print(torch.flatten(F.adaptive_avg_pool2d(g, 1), 1).stride(), g.contiguous().stride(), g.clone().stride())
print(torch.empty_like(g).stride(), torch.zeros_like(g).stride(), g.to(torch.float64).stride())
print(g.permute(0, 2, 3, 1).is_contiguous(), g.view(2, 4, -1).shape if g.is_contiguous() else "noview")
print(conv.weight.stride(), conv.weight.is_contiguous(memory_format=cl))
try:
    g.view(2, -1)
except RuntimeError as e:
    print("view failed")
print(g.reshape(2, -1).stride(), torch.cat([g, g], 1).stride(), (g * 2).sum().round(decimals=2).item() == (g * 2).sum().round(decimals=2).item())
up = nn.Upsample(scale_factor=2, mode="nearest")(g)
print(up.stride(), up.shape)
ct = nn.ConvTranspose2d(4, 2, 2, stride=2)(g)
print(ct.shape, ct.is_contiguous(memory_format=cl))
loss = F.relu(g + conv(x)).mean()
loss.backward()
print(conv.weight.grad.stride(), round(conv.weight.grad.norm().item(), 4))
print(x.to(memory_format=torch.contiguous_format).stride(), x.contiguous().stride(), x.float().stride())
d = nn.Dropout2d(0.5)(g)
print(d.stride(), g.sum(dim=(2, 3)).stride(), g.mean(1, keepdim=True).stride())
print(F.layer_norm(g, (3,)).stride(), F.group_norm(g, 2).stride(), F.interpolate(g, scale_factor=2.0, mode="bilinear").stride())
''',
    'autocast_ops_table': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(30)
x = torch.randn(2, 3, 8, 8)
conv, lin, ln = nn.Conv2d(3, 4, 3), nn.Linear(8, 5), nn.LayerNorm(8)
q = torch.randn(2, 4, 6)
with torch.autocast("cpu", dtype=torch.bfloat16):
    c = conv(x)
    l = lin(x)
    n = ln(x)
    bm = torch.bmm(q, q.transpose(1, 2))
    ba = torch.baddbmm(torch.zeros(2, 4, 4), q, q.transpose(1, 2))
    mse = F.mse_loss(c, torch.zeros_like(c))
    ls = F.log_softmax(l, -1)
    sd = F.scaled_dot_product_attention(q, q, q)
    ce = F.cross_entropy(l.flatten(0, 2), torch.zeros(48, dtype=torch.long))
    bn = F.batch_norm(c, None, None, training=True)
    gelu = F.gelu(c)
    mp = F.max_pool2d(c, 2)
    ap = F.adaptive_avg_pool2d(c, 1)
    up = F.interpolate(c, scale_factor=2.0)
    cs = torch.cumsum(l, -1)
    nrm = torch.norm(l)
    ms = l.sum()
    mm64 = torch.randn(2, 2, dtype=torch.float64) @ torch.randn(2, 2, dtype=torch.float64)
    ad = torch.addmm(torch.zeros(3, 3), torch.randn(3, 2), torch.randn(2, 3))
    ein = torch.einsum("bij,bkj->bik", q, q)
    mat = torch.matmul(q, q.transpose(1, 2))
    pr = torch.prod(l, -1)
    st = torch.stack([l, l.float()])
names = "c l n bm ba mse ls sd ce bn gelu mp ap up cs nrm ms mm64 ad ein mat pr st".split()
vals = [c, l, n, bm, ba, mse, ls, sd, ce, bn, gelu, mp, ap, up, cs, nrm, ms, mm64, ad, ein, mat, pr, st]
for name, v in zip(names, vals):
    print(name, str(v.dtype).replace("torch.", ""), tuple(v.shape))
print(round(mse.item(), 2), round(ce.item(), 2))
y = torch.randn(3, 8, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    out = lin(y).relu().sum()
out.backward()
print(out.dtype, y.grad.dtype, lin.weight.grad.dtype, round(y.grad.abs().sum().item(), 1))
with torch.autocast("cpu", dtype=torch.float16):
    h = lin(y)
print(h.dtype, torch.amp.is_autocast_available("cpu"))
''',
    'transformer_norm_first': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(31)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1,
                                   activation="gelu", batch_first=True, norm_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(8), enable_nested_tensor=False)
dec_layer = nn.TransformerDecoderLayer(8, 2, 16, 0.0, batch_first=True, norm_first=True)
dec = nn.TransformerDecoder(dec_layer, 1)
print(enc.layers[0].self_attn, sum(p.numel() for p in enc.parameters()), sum(p.numel() for p in dec.parameters()))
src = torch.randn(3, 5, 8)
tgt = torch.randn(3, 4, 8)
pad = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
fpad = torch.zeros(3, 5).masked_fill(pad, float("-inf"))
causal = nn.Transformer.generate_square_subsequent_mask(4)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-3)
for step in range(3):
    opt.zero_grad()
    mem = enc(src, src_key_padding_mask=pad)
    out = dec(tgt, mem, tgt_mask=causal, tgt_is_causal=True, memory_key_padding_mask=fpad)
    loss = out.pow(2).mean()
    loss.backward()
    opt.step()
    print(step, tuple(mem.shape), round(loss.item(), 4), round(enc.layers[0].linear1.weight.grad.norm().item(), 4))
enc.eval()
with torch.no_grad():
    a = enc(src, src_key_padding_mask=pad)
    b = enc(src, src_key_padding_mask=fpad)
    print(torch.allclose(a, b, atol=1e-6), a[1, :3, :3].round(decimals=3))
    m = nn.MultiheadAttention(8, 2, batch_first=True)
    o, w = m(src, src, src, key_padding_mask=pad, average_attn_weights=False)
    print(o.shape, w.shape, w[1, 0, 0].round(decimals=3))
    o2, w2 = m(src, src, src, attn_mask=causal.new_zeros(5, 5).bool(), need_weights=False)
    print(w2, o2.shape)
''',
    'ctc_speech': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(32)
class Acoustic(nn.Module):
    def __init__(self, n_mels=6, hid=10, n_cls=5):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hid, 3, padding=1)
        self.rnn = nn.LSTM(hid, hid, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hid, n_cls)
    def forward(self, x, lengths):
        h = F.relu(self.conv(x)).transpose(1, 2)
        packed = nn.utils.rnn.pack_padded_sequence(h, lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed)
        out, lens = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        return self.fc(out).log_softmax(-1), lens
model = Acoustic()
x = torch.randn(3, 6, 12)
in_lens = torch.tensor([12, 9, 11])
targets = torch.randint(1, 5, (3, 4))
tgt_lens = torch.tensor([4, 2, 3])
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(4):
    opt.zero_grad()
    logp, lens = model(x, in_lens)
    loss = ctc(logp.transpose(0, 1), targets, lens, tgt_lens)
    loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    print(step, tuple(logp.shape), lens.tolist(), round(loss.item(), 3), round(gn.item(), 3))
best = logp.argmax(-1)
for row, n in zip(best, lens):
    seq = torch.unique_consecutive(row[:n])
    print(seq[seq != 0].tolist())
print(F.ctc_loss(logp.transpose(0, 1), targets, lens, tgt_lens, reduction="none").round(decimals=2))
''',
    'wgan_gp': r'''\
nn = torch.nn
torch.manual_seed(40)
G = nn.Sequential(nn.Linear(3, 12), nn.Softplus(), nn.Linear(12, 4))
C = nn.Sequential(nn.Linear(4, 12), nn.ELU(), nn.Linear(12, 1))
optG = torch.optim.RMSprop(G.parameters(), lr=5e-3)
optC = torch.optim.Adam(C.parameters(), lr=1e-3, betas=(0.0, 0.9))
real = torch.randn(8, 4) + 1.0
def penalty(real, fake):
    eps = torch.rand(real.size(0), 1).expand_as(real)
    mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
    out = C(mix)
    g, = torch.autograd.grad(out, mix, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)
    return ((g.norm(2, dim=1) - 1) ** 2).mean(), g
for it in range(3):
    for _ in range(2):
        fake = G(torch.randn(8, 3)).detach()
        optC.zero_grad()
        gp, g = penalty(real, fake)
        lossC = C(fake).mean() - C(real).mean() + 10 * gp
        lossC.backward()
        optC.step()
    optG.zero_grad()
    lossG = -C(G(torch.randn(8, 3))).mean()
    lossG.backward()
    optG.step()
    gn = torch.nn.utils.get_total_norm([p.grad for p in G.parameters()])
    print(it, round(lossC.item(), 3), round(gp.item(), 4), round(lossG.item(), 4), round(gn.item(), 4))
print(g.requires_grad, g.grad_fn is not None, g.shape, round(g.norm().item(), 3))
print(C[0].weight.grad.abs().sum().round(decimals=2), len(optC.state), sorted(optC.state[C[0].weight]))
''',
    'pixel_shuffle_sr': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(41)
class SR(nn.Module):
    def __init__(self, r=2):
        super().__init__()
        self.head = nn.Conv2d(1, 8, 5, padding=2, padding_mode="replicate")
        self.body = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.PReLU(8))
        self.tail = nn.Conv2d(8, r * r, 3, padding=1)
        self.shuffle = nn.PixelShuffle(r)
    def forward(self, x):
        h = F.hardswish(self.head(x))
        h = h + self.body(h)
        return self.shuffle(self.tail(h))
net = SR()
print(net.shuffle, net.body[1], sum(p.numel() for p in net.parameters()))
hr = torch.rand(2, 1, 12, 12)
lr_img = F.avg_pool2d(hr, 2)
print(lr_img.shape, F.pixel_unshuffle(hr, 2).shape, torch.equal(F.pixel_shuffle(F.pixel_unshuffle(hr, 3), 3), hr))
opt = torch.optim.Adamax(net.parameters(), lr=2e-3)
for step in range(4):
    opt.zero_grad()
    sr = net(lr_img)
    loss = F.l1_loss(sr, hr) + 0.1 * F.smooth_l1_loss(sr, hr, beta=0.5)
    loss.backward()
    opt.step()
    psnr = 10 * torch.log10(1 / F.mse_loss(sr.detach(), hr))
    print(step, tuple(sr.shape), round(loss.item(), 4), round(psnr.item(), 2), round(net.head.weight.grad.norm().item(), 4))
bic = F.interpolate(lr_img, scale_factor=2, mode="bicubic", align_corners=False).clamp(0, 1)
print(round(F.mse_loss(bic, hr).item(), 4), net.body[1].weight[:3])
''',
    'rotary_attention': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(42)
def rope_freqs(dim, n, theta=10000.0):
    freqs = 1.0 / theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim)
    t = torch.arange(n, dtype=torch.float32)
    return torch.polar(torch.ones(n, dim // 2), torch.outer(t, freqs))
def apply_rope(x, f):
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(xc * f).flatten(-2).type_as(x)
class Attn(nn.Module):
    def __init__(self, d=8, h=2):
        super().__init__()
        self.h, self.dh = h, d // h
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.norm = nn.RMSNorm(d)
    def forward(self, x, f):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm(x)).split(D, dim=-1)
        q, k, v = (t.view(B, T, self.h, self.dh).transpose(1, 2) for t in (q, k, v))
        q, k = apply_rope(q, f), apply_rope(k, f)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + self.o(y.transpose(1, 2).contiguous().view(B, T, D))
f = rope_freqs(4, 6)
print(f.dtype, f.shape, torch.view_as_real(f[1]).round(decimals=4))
try:
    f.round(decimals=4)
except NotImplementedError as e:
    print(e)
m = Attn()
x = torch.randn(2, 6, 8)
opt = torch.optim.AdamW(m.parameters(), lr=1e-2, weight_decay=0.1)
for step in range(4):
    opt.zero_grad()
    y = m(x, f)
    loss = (y[:, 1:] - x[:, :-1]).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), round(m.qkv.weight.grad.norm().item(), 4))
print(m.norm, m.norm.weight[:3], y[0, 0, :4].round(decimals=3))
''',
    'moe_router': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(43)
class MoE(nn.Module):
    def __init__(self, d=6, n_exp=4, k=2):
        super().__init__()
        self.k = k
        self.gate = nn.Linear(d, n_exp, bias=False)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, 8), nn.GELU(approximate="tanh"), nn.Linear(8, d)) for _ in range(n_exp))
    def forward(self, x):
        logits = self.gate(x)
        w, idx = torch.topk(logits, self.k, dim=-1)
        w = F.softmax(w, dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            rows, slot = torch.where(idx == e)
            if rows.numel():
                out.index_add_(0, rows, expert(x[rows]) * w[rows, slot, None])
        load = torch.bincount(idx.flatten(), minlength=len(self.experts)).float()
        aux = (F.softmax(logits, -1).mean(0) * load / load.sum()).sum() * len(self.experts)
        return out, aux, load
moe = MoE()
x, y = torch.randn(10, 6), torch.randn(10, 6)
opt = torch.optim.SGD(moe.parameters(), lr=0.1)
for step in range(4):
    opt.zero_grad()
    out, aux, load = moe(x)
    loss = F.mse_loss(out, y) + 0.01 * aux
    loss.backward()
    opt.step()
    grads = [round(moe.experts[e][0].weight.grad.norm().item(), 4) if moe.experts[e][0].weight.grad is not None else None for e in range(4)]
    print(step, load.tolist(), round(loss.item(), 4), round(aux.item(), 4), grads)
print(out.grad_fn.name(), moe.gate.weight.grad.shape, round(moe.gate.weight.grad.norm().item(), 4))
''',
    'wavenet_causal': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(44)
class CausalConv(nn.Conv1d):
    def __init__(self, cin, cout, k, dilation):
        super().__init__(cin, cout, k, dilation=dilation)
        self.left = (k - 1) * dilation
    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))
class Res(nn.Module):
    def __init__(self, c, d):
        super().__init__()
        self.filt, self.gate = CausalConv(c, c, 2, d), CausalConv(c, c, 2, d)
        self.skip = nn.Conv1d(c, c, 1)
    def forward(self, x):
        z = torch.tanh(self.filt(x)) * torch.sigmoid(self.gate(x))
        s = self.skip(z)
        return x + s, s
class WaveNet(nn.Module):
    def __init__(self, q=8, c=6):
        super().__init__()
        self.inp = nn.Conv1d(q, c, 1)
        self.blocks = nn.ModuleList(Res(c, 2 ** i) for i in range(3))
        self.out = nn.Conv1d(c, q, 1)
    def forward(self, x):
        h, skips = self.inp(x), 0
        for b in self.blocks:
            h, s = b(h)
            skips = skips + s
        return self.out(F.relu(skips))
net = WaveNet()
print(net.blocks[2].filt, net.blocks[2].filt.left, sum(p.numel() for p in net.parameters()))
seq = torch.randint(0, 8, (2, 20))
x = F.one_hot(seq, 8).float().transpose(1, 2)
opt = torch.optim.NAdam(net.parameters(), lr=5e-3)
for step in range(4):
    opt.zero_grad()
    logits = net(x[:, :, :-1])
    loss = F.cross_entropy(logits, seq[:, 1:])
    loss.backward()
    opt.step()
    print(step, tuple(logits.shape), round(loss.item(), 4), round(net.inp.weight.grad.norm().item(), 4))
x2 = x.clone()
x2[:, :, 10:] = 0
print(torch.allclose(net(x)[:, :, :10], net(x2)[:, :, :10]), x.is_contiguous(), x.stride())
''',
    'lstm_proj_bidir': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(50)
class Tagger(nn.Module):
    def __init__(self, V=15, E=6, H=8, P=4, T=3):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0, max_norm=1.0)
        self.lstm = nn.LSTM(E, H, num_layers=2, bidirectional=True, proj_size=P, dropout=0.2)
        self.fc = nn.Linear(2 * P, T)
    def forward(self, x):
        out, (h, c) = self.lstm(self.emb(x))
        return self.fc(out), h, c
m = Tagger()
print([(n, tuple(p.shape)) for n, p in m.lstm.named_parameters()][:5])
x = torch.randint(0, 15, (7, 3))
y = torch.randint(0, 3, (7, 3))
opt = torch.optim.Adam(m.parameters(), lr=0.01)
for step in range(4):
    opt.zero_grad()
    logits, h, c = m(x)
    loss = F.cross_entropy(logits.view(-1, 3), y.view(-1))
    loss.backward()
    opt.step()
    print(step, tuple(logits.shape), tuple(h.shape), tuple(c.shape), round(loss.item(), 4))
print(m.emb.weight.norm(dim=1)[:4].round(decimals=4), m.emb.weight[0].abs().sum().item())
m.eval()
with torch.no_grad():
    a, _, _ = m(x)
    b, _, _ = m(x)
print(torch.equal(a, b), a.argmax(-1)[0].tolist())
''',
    'vit_unfold': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(51)
class ViT(nn.Module):
    def __init__(self, img=8, p=4, c=2, d=12, n_cls=3):
        super().__init__()
        self.p = p
        self.proj = nn.Linear(c * p * p, d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, (img // p) ** 2 + 1, d) * 0.02)
        nn.init.trunc_normal_(self.cls, std=0.02)
        layer = nn.TransformerEncoderLayer(d, 3, 24, 0.0, batch_first=True, norm_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, n_cls))
    def forward(self, x):
        patches = F.unfold(x, self.p, stride=self.p).transpose(1, 2)
        t = torch.cat([self.cls.expand(x.size(0), -1, -1), self.proj(patches)], 1) + self.pos
        return self.head(self.enc(t)[:, 0])
vit = ViT()
x = torch.randn(4, 2, 8, 8)
print(F.unfold(x, 4, stride=4).shape, vit.cls.abs().max().item() < 0.05)
print(torch.equal(F.fold(F.unfold(x, 4, stride=4), (8, 8), 4, stride=4), x))
y = torch.tensor([0, 1, 2, 1])
decay = [p for n, p in vit.named_parameters() if p.ndim >= 2 and "pos" not in n]
no_decay = [p for n, p in vit.named_parameters() if p.ndim < 2 or "pos" in n]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=4)
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(vit(x), y)
    loss.backward()
    opt.step()
    sched.step()
    print(step, round(loss.item(), 4), [round(g["lr"], 6) for g in opt.param_groups])
print(len(decay), len(no_decay), sum(p.numel() for p in vit.parameters()))
''',
    'normalizing_flow': r'''\
nn = torch.nn
D = torch.distributions
torch.manual_seed(52)
class Coupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 4))
    def forward(self, x):
        s, t = self.net(x * self.mask).chunk(2, dim=1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        return x * torch.exp(s) + t, s.sum(1)
flows = nn.ModuleList([Coupling(torch.tensor([1.0, 0.0])), Coupling(torch.tensor([0.0, 1.0]))])
base = D.MultivariateNormal(torch.zeros(2), torch.eye(2))
data = torch.randn(64, 2) @ torch.tensor([[1.0, 0.8], [0.0, 0.6]]) + 1.0
opt = torch.optim.Adam(flows.parameters(), lr=1e-2)
def log_prob(x):
    logdet = torch.zeros(x.size(0))
    for f in flows:
        x, ld = f(x)
        logdet = logdet + ld
    return base.log_prob(x) + logdet
for step in range(5):
    opt.zero_grad()
    nll = -log_prob(data).mean()
    nll.backward()
    opt.step()
    print(step, round(nll.item(), 4), round(flows[0].net[0].weight.grad.norm().item(), 4))
print(list(flows.state_dict().keys())[:3], flows[1].mask)
t = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.AffineTransform(1.0, 2.0), D.transforms.ExpTransform()])
torch.manual_seed(0)
s = t.sample((3,))
print(s, t.log_prob(s).round(decimals=4))
''',
    'seq_first_encoder_dropout': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(60)
class PosEnc(nn.Module):
    def __init__(self, d, n=16, p=0.1):
        super().__init__()
        self.drop = nn.Dropout(p)
        pos = torch.arange(n).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2) * (-torch.log(torch.tensor(10000.0)) / d))
        pe = torch.zeros(n, 1, d)
        pe[:, 0, 0::2] = torch.sin(pos * div)
        pe[:, 0, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)
    def forward(self, x):
        return self.drop(x + self.pe[:x.size(0)])
class Clf(nn.Module):
    def __init__(self, V=20, d=8):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.pos = PosEnc(d)
        layer = nn.TransformerEncoderLayer(d, 2, 16, dropout=0.2)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.fc = nn.Linear(d, 2)
    def forward(self, src, pad):
        h = self.enc(self.pos(self.emb(src) * 8 ** 0.5), src_key_padding_mask=pad)
        keep = (~pad).T.unsqueeze(-1).float()
        return self.fc((h * keep).sum(0) / keep.sum(0))
m = Clf()
src = torch.randint(1, 20, (7, 4))
pad = torch.zeros(4, 7, dtype=torch.bool)
pad[1, 5:] = True
pad[3, 3:] = True
y = torch.tensor([0, 1, 1, 0])
opt = torch.optim.Adam(m.parameters(), lr=5e-3)
for step in range(4):
    opt.zero_grad()
    out = m(src, pad)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(step, tuple(out.shape), round(loss.item(), 4), round(m.emb.weight.grad.norm().item(), 4))
m.eval()
with torch.no_grad():
    print(m(src, pad).softmax(-1).round(decimals=3), m.pos.pe[1, 0, :4].round(decimals=4))
''',
    'textcnn_dropout': r'''\
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(61)
class TextCNN(nn.Module):
    def __init__(self, V=30, E=8, C=4, ks=(2, 3, 4), n_cls=3):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(E, C, k) for k in ks)
        self.drop = nn.Dropout(0.5)
        self.fc = nn.Linear(C * len(ks), n_cls)
    def forward(self, x):
        e = self.drop(self.emb(x).transpose(1, 2))
        feats = [F.adaptive_max_pool1d(F.relu(c(e)), 1).squeeze(-1) for c in self.convs]
        h = torch.cat(feats, 1)
        return self.fc(self.drop(h)), e
net = TextCNN()
x = torch.randint(0, 30, (6, 9))
x[:, 7:] = 0
y = torch.randint(0, 3, (6,))
opt = torch.optim.Adadelta(net.parameters(), lr=1.0)
for step in range(4):
    opt.zero_grad()
    out, e = net(x)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(step, e.stride(), e.is_contiguous(), round(loss.item(), 4), round(net.convs[1].weight.grad.norm().item(), 4))
print(net.emb.weight.grad[0].abs().sum().item(), net.emb.weight[0].abs().sum().item())
net.eval()
print(net(x)[0].argmax(1).tolist(), [tuple(c.weight.shape) for c in net.convs])
g = torch.randn(3, 4).t()
print(F.rrelu(g, training=False).stride(), F.hardtanh(g).stride(), torch.sigmoid(g).stride())
''',
}

# Programs where ember still prints something else: name -> (why, program).
BUGS = {
}


@pytest.mark.parametrize("program", cases(PROGRAMS, BUGS))
def test_architecture_prints_like_torch(program):
    expected, got = compare(program)
    assert got == expected


def test_programs_are_distinct_and_sized():
    programs = list(PROGRAMS.values()) + [p for _, p in BUGS.values()]
    assert len(set(programs)) == len(programs) >= 12
    assert all(20 <= program.count("\n") <= 60 for program in programs)
