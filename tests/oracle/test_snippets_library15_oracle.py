"""Library-style programs (Hugging Face, nanoGPT, llama, timm, training utilities), run under
real torch and under ember (`import ember as torch`): what they print must be identical.
Sampling (top-k/top-p, repetition penalty, multinomial's errors), generate loops under
inference_mode (inference tensors saved by embedding/indexing), KV caches, rotary embeddings,
timm blocks (DropPath, LayerScale, patch embedding, window partition), weight EMA with
`_foreach` ops, param groups, LR schedules, GradScaler and CPU autocast (promote ops'
`prioritize` errors), and the errors such code hits.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PRELUDE = "import math\nnn = torch.nn; F = torch.nn.functional\n"

PROGRAMS = {
    'sampling': PRELUDE + r'''
torch.manual_seed(0)
logits = torch.randn(2, 10)
def top_k_top_p(logits, top_k=0, top_p=1.0, filter_value=-float("inf")):
    if top_k > 0:
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits = logits.masked_fill(indices_to_remove, filter_value)
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        logits = logits.masked_fill(indices_to_remove, filter_value)
    return logits
f = top_k_top_p(logits, top_k=5, top_p=0.8)
print(f)
probs = F.softmax(f / 0.7, dim=-1)
print(probs.round(decimals=4))
print(torch.multinomial(probs, num_samples=1), torch.multinomial(probs, 3, replacement=True))
g = torch.Generator().manual_seed(42)
print(torch.multinomial(probs, 2, generator=g))
# HF style top-p warper
sorted_logits, sorted_indices = torch.sort(logits, descending=False)
cum = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
rm = cum <= (1 - 0.9)
rm[..., -1:] = 0
idx = rm.scatter(1, sorted_indices, rm)
print(idx, idx.dtype)
scores = logits.masked_fill(idx, torch.finfo(logits.dtype).min)
print(scores[0])
# repetition penalty
input_ids = torch.tensor([[1, 3, 3, 7], [0, 0, 2, 9]])
score = torch.gather(logits, 1, input_ids)
print(score)
score = torch.where(score < 0, score * 1.3, score / 1.3)
out = logits.scatter(1, input_ids, score)
print(out.round(decimals=4))
out2 = logits.clone(); out2.scatter_(1, input_ids, score); print(torch.equal(out, out2))
# min-p
p = logits.softmax(-1); top = p.max(-1, keepdim=True).values; print((p < 0.1 * top).sum(-1))
# argmax greedy
print(torch.argmax(logits, dim=-1, keepdim=True), logits.argmax(-1).dtype)
print(torch.multinomial(torch.tensor([0., 0., 1.]), 1))
try:
    torch.multinomial(torch.tensor([0., 0., 0.]), 1)
except RuntimeError as e:
    print(e)
try:
    torch.multinomial(torch.tensor([0.5, -0.1, 1.]), 1)
except RuntimeError as e:
    print(e)
try:
    torch.multinomial(torch.tensor([0.5, 0.1, 1.]), 4)
except RuntimeError as e:
    print(e)
try:
    torch.multinomial(torch.tensor([0.5, float('nan'), 1.]), 1)
except RuntimeError as e:
    print(e)
''',
    'generate': PRELUDE + r'''
torch.manual_seed(0)
class Tiny(nn.Module):
    def __init__(self, V=11, D=8, T=16):
        super().__init__()
        self.tok = nn.Embedding(V, D); self.pos = nn.Embedding(T, D)
        self.ln = nn.LayerNorm(D); self.head = nn.Linear(D, V, bias=False)
        self.head.weight = self.tok.weight
        self.register_buffer("mask", torch.tril(torch.ones(T, T)).view(1, 1, T, T))
    def forward(self, idx, past=None):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        att = (x @ x.transpose(-2, -1)) * (1.0 / math.sqrt(x.size(-1)))
        att = att.unsqueeze(1).masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf")).squeeze(1)
        att = F.softmax(att, dim=-1)
        return self.head(self.ln(att @ x))
m = Tiny(); m.eval()
print(m.head.weight is m.tok.weight, m.head.weight.data_ptr() == m.tok.weight.data_ptr())
print(sum(p.numel() for p in m.parameters()), len(list(m.parameters())), len(m.state_dict()))
print(list(m.state_dict().keys()))
idx = torch.tensor([[1, 2]])
with torch.inference_mode():
    for _ in range(5):
        logits = m(idx[:, -16:])[:, -1, :] / 0.8
        v, _ = torch.topk(logits, min(3, logits.size(-1)))
        logits[logits < v[:, [-1]]] = -float("Inf")
        probs = F.softmax(logits, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        idx = torch.cat((idx, nxt), dim=1)
print(idx, idx.is_inference(), logits.requires_grad, probs.round(decimals=4))
try:
    idx.add_(1)
except RuntimeError as e:
    print(e)
x = idx.clone(); print(x.is_inference())
try:
    m(idx).sum().backward()
except RuntimeError as e:
    print(e)
with torch.no_grad():
    out = m.generate if hasattr(m, "generate") else None
print(out)
@torch.inference_mode()
def greedy(m, idx, n):
    for _ in range(n):
        idx = torch.cat([idx, m(idx)[:, -1].argmax(-1, keepdim=True)], -1)
    return idx
r = greedy(m, torch.tensor([[3]]), 4); print(r, r.is_inference(), torch.is_inference_mode_enabled())
''',
    'kvcache': PRELUDE + r'''
torch.manual_seed(0)
B, H, D = 1, 2, 4
class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(H * D, 3 * H * D)
        self.proj = nn.Linear(H * D, H * D)
    def forward(self, x, cache=None):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, H, D).transpose(1, 2)
        k = k.view(B, T, H, D).transpose(1, 2)
        v = v.view(B, T, H, D).transpose(1, 2)
        if cache is not None:
            pk, pv = cache
            k = torch.cat([pk, k], dim=-2); v = torch.cat([pv, v], dim=-2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y), (k, v)
a = Attn()
x = torch.randn(B, 5, H * D)
full, _ = a(x)
out, cache = a(x[:, :3])
print(cache[0].shape, cache[0].stride(), cache[0].is_contiguous())
steps = [out]
for t in range(3, 5):
    o, cache = a(x[:, t:t + 1], cache)
    steps.append(o)
inc = torch.cat(steps, 1)
print(torch.allclose(inc, full, atol=1e-5), (inc - full).abs().max() < 1e-5)
print(full.round(decimals=4)[0, -1])
try:
    torch.cat([cache[0], torch.randn(1, 3, 1, 4)], dim=-2)
except RuntimeError as e:
    print(e)
try:
    torch.cat([cache[0], torch.randn(1, 2, 1, 4).double()], dim=-2).dtype
    print(torch.cat([cache[0], torch.randn(1, 2, 1, 4).double()], dim=-2).dtype)
except RuntimeError as e:
    print(e)
y = torch.randn(1, 2, 3, 4).transpose(1, 2)
try:
    y.view(1, 3, 8)
except RuntimeError as e:
    print(e)
print(y.reshape(1, 3, 8).shape, y.contiguous().view(1, 3, 8).stride())
# static cache with index_copy_
kc = torch.zeros(1, 2, 6, 4)
kc.index_copy_(2, torch.tensor([0, 1, 2]), cache[0][:, :, :3])
print(kc[0, 0].round(decimals=4))
kc[:, :, 3:5] = cache[0][:, :, 3:5]
print(kc.sum().round(decimals=4) if hasattr(kc.sum(), 'round') else 0)
''',
    'rope': PRELUDE + r'''
torch.manual_seed(0)
def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)
fc = precompute_freqs_cis(8, 6)
print(fc.dtype, fc.shape, fc.stride()); print(fc[1])
def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)
def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)
xq = torch.randn(2, 6, 3, 8, requires_grad=True); xk = torch.randn(2, 6, 3, 8)
q, k = apply_rotary_emb(xq, xk, fc)
print(q.shape, q.dtype, q.grad_fn.name(), q.stride())
print(q[0, 1, 0].round(decimals=4))
q.pow(2).sum().backward(); print(xq.grad[0, 2, 1].round(decimals=4))
# HF style rotate_half
def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]; x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)
inv_freq = 1.0 / (10000 ** (torch.arange(0, 8, 2, dtype=torch.int64).float() / 8))
position_ids = torch.arange(6)[None].expand(2, -1)
inv_freq_expanded = inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
position_ids_expanded = position_ids[:, None, :].float()
freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
emb = torch.cat((freqs, freqs), dim=-1)
cos, sin = emb.cos(), emb.sin()
print(inv_freq_expanded.stride(), freqs.shape, freqs.stride(), cos.dtype)
x = torch.randn(2, 3, 6, 8).to(torch.bfloat16)
cos_ = cos.unsqueeze(1).to(x.dtype); sin_ = sin.unsqueeze(1).to(x.dtype)
y = (x * cos_) + (rotate_half(x) * sin_)
print(y.dtype, y[0, 0, 2])
print(torch.view_as_real(fc).shape, torch.view_as_real(fc)[2].round(decimals=4))
try:
    torch.view_as_complex(torch.randn(3, 4, 2).to(torch.bfloat16))
except RuntimeError as e:
    print(e)
try:
    torch.view_as_complex(torch.randn(3, 4, 2)[:, ::2])
except RuntimeError as e:
    print(e)
c = torch.view_as_complex(torch.randn(3, 4, 2))
print(c.abs().round(decimals=4)[0], c.angle().dtype, (c * c.conj()).real.round(decimals=4)[0])
print(torch.polar(torch.tensor([2.0]), torch.tensor([math.pi])).round(decimals=4))
print(torch.polar(torch.ones(2, dtype=torch.float64), torch.zeros(2, dtype=torch.float64)).dtype)
try:
    torch.polar(torch.ones(2), torch.zeros(2, dtype=torch.float64))
except RuntimeError as e:
    print(e)
print(torch.outer(torch.tensor([1, 2]), torch.tensor([0.5, 1.5])).dtype, torch.ger(torch.arange(2.), torch.arange(3.)))
''',
    'vision': PRELUDE + r'''
torch.manual_seed(0)
def drop_path(x, drop_prob: float = 0., training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor
class DropPath(nn.Module):
    def __init__(self, drop_prob=0., scale_by_keep=True):
        super().__init__(); self.drop_prob = drop_prob; self.scale_by_keep = scale_by_keep
    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)
    def extra_repr(self):
        return f'drop_prob={round(self.drop_prob, 3):0.3f}'
class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__(); self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))
    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma
class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, embed_dim=6):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = nn.Identity()
    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        return self.norm(x)
pe = PatchEmbed()
cls_token = nn.Parameter(torch.zeros(1, 1, 6)); pos = nn.Parameter(torch.zeros(1, 5, 6))
nn.init.trunc_normal_(pos, std=.02); nn.init.normal_(cls_token, std=1e-6)
x = torch.randn(2, 3, 8, 8)
t = pe(x)
print(t.shape, t.stride(), t.is_contiguous(), t.grad_fn.name())
t = torch.cat((cls_token.expand(t.shape[0], -1, -1), t), dim=1) + pos
print(t.shape, t.grad_fn.name(), t.grad_fn.next_functions[0][0].name())
dp = DropPath(0.5); print(dp, nn.Sequential(dp, LayerScale(6), nn.Identity()))
dp.train(); y = dp(t); print((y == 0).all(dim=(1, 2)), y.abs().sum(dim=(1, 2)).round(decimals=4))
dp.eval(); print(dp(t) is t)
ls = LayerScale(6, inplace=True)
try:
    ls(t)
except RuntimeError as e:
    print(e)
tt = t.detach().clone(); r = ls(tt); print(r is tt, tt[0, 0].round(decimals=6))
leaf = torch.randn(2, 6, requires_grad=True)
try:
    ls(leaf)
except RuntimeError as e:
    print(e)
def window_partition(x, window_size):
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    windows = x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, C)
    return windows
def window_reverse(windows, window_size, H, W):
    C = windows.shape[-1]
    x = windows.view(-1, H // window_size, W // window_size, window_size, window_size, C)
    x = x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, H, W, C)
    return x
img = torch.arange(2 * 4 * 4 * 3.).view(2, 4, 4, 3)
w = window_partition(img, 2); print(w.shape, w[1, :, :, 0])
print(torch.equal(window_reverse(w, 2, 4, 4), img))
try:
    img.view(2, 2, 2, 2, 2, 3).permute(0, 1, 3, 2, 4, 5).view(-1, 2, 2, 3)
except RuntimeError as e:
    print(e)
shifted = torch.roll(img, shifts=(-1, -1), dims=(1, 2)); print(shifted[0, :, :, 0])
# relative position index (swin)
coords = torch.stack(torch.meshgrid([torch.arange(2), torch.arange(2)], indexing="ij"))
cf = torch.flatten(coords, 1); rel = cf[:, :, None] - cf[:, None, :]
rel = rel.permute(1, 2, 0).contiguous(); rel[:, :, 0] += 1; rel[:, :, 1] += 1; rel[:, :, 0] *= 3
print(rel.sum(-1), rel.dtype)
# attn mask for shifted windows
img_mask = torch.zeros((1, 4, 4, 1)); cnt = 0
for h in (slice(0, -2), slice(-2, -1), slice(-1, None)):
    for w_ in (slice(0, -2), slice(-2, -1), slice(-1, None)):
        img_mask[:, h, w_, :] = cnt; cnt += 1
mw = window_partition(img_mask, 2).view(-1, 4)
am = mw.unsqueeze(1) - mw.unsqueeze(2)
am = am.masked_fill(am != 0, float(-100.0)).masked_fill(am == 0, float(0.0))
print(am.shape, am[3])
''',
    'ema': PRELUDE + r'''
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
import copy
ema = copy.deepcopy(model).eval()
for p in ema.parameters():
    p.requires_grad_(False)
print([p.requires_grad for p in ema.parameters()][:2], ema[1].training, model[1].training)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
decay = 0.9
for step in range(3):
    x = torch.randn(5, 4); y = torch.randint(0, 2, (5,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    with torch.no_grad():
        ema_params = list(ema.parameters()); params = list(model.parameters())
        torch._foreach_mul_(ema_params, decay)
        torch._foreach_add_(ema_params, params, alpha=1 - decay)
        for eb, b in zip(ema.buffers(), model.buffers()):
            if eb.dtype.is_floating_point:
                eb.lerp_(b, 1 - decay)
            else:
                eb.copy_(b)
    print(step, round(loss.item(), 4))
print(ema[0].weight[0].round(decimals=4), ema[1].running_mean.round(decimals=4)[:3], ema[1].num_batches_tracked)
# timm ModelEmaV3 style
with torch.no_grad():
    ep = [p for p in ema.parameters()]; mp = [p for p in model.parameters()]
    torch._foreach_lerp_(ep, mp, weight=1. - decay)
print(ema[3].bias.round(decimals=4))
r = torch._foreach_add([torch.ones(2), torch.zeros(3)], 1.5); print(r, type(r).__name__)
r = torch._foreach_mul([torch.ones(2), torch.ones(3)], [2.0, 3.0]); print(r)
print(torch._foreach_norm([torch.ones(2), torch.full((3,), 2.0)]))
print(torch._foreach_sqrt([torch.tensor([4.0]), torch.tensor([9.0])]))
a = [torch.ones(2)]; torch._foreach_addcmul_(a, [torch.ones(2)], [torch.full((2,), 3.)], value=0.5); print(a)
try:
    torch._foreach_add_([torch.ones(2), torch.ones(3)], [torch.ones(2)])
except RuntimeError as e:
    print(e)
try:
    torch._foreach_mul_([torch.ones(2, requires_grad=True)], 2.0)
except RuntimeError as e:
    print(e)
m1 = [torch.ones(2, dtype=torch.float64), torch.ones(2)]; torch._foreach_mul_(m1, torch.tensor(3.0)); print(m1)
print(torch._foreach_maximum([torch.tensor([1., 5.])], [torch.tensor([3., 2.])]))
# EMA via state_dict
msd = model.state_dict()
for k, v in ema.state_dict().items():
    if v.dtype.is_floating_point:
        v.mul_(decay).add_(msd[k].detach(), alpha=1 - decay)
print(ema[1].running_var.round(decimals=4)[:3])
sw = torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9))
sw.update_parameters(model); sw.update_parameters(model)
print(sw.n_averaged, sw.module[0].weight[0].round(decimals=4)[:3])
print(ema[1].running_mean[:3].round(decimals=4))
''',
    'paramgroups': PRELUDE + r'''
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(4); self.fc = nn.Linear(4, 4); self.emb = nn.Embedding(5, 4)
        self.pos = nn.Parameter(torch.zeros(1, 3, 4))
m = nn.Sequential(Block(), nn.Linear(4, 2))
decay, no_decay = [], []
for n, p in m.named_parameters():
    if not p.requires_grad:
        continue
    if p.ndim <= 1 or n.endswith(".bias") or "pos" in n:
        no_decay.append(p)
    else:
        decay.append(p)
groups = [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}]
opt = torch.optim.AdamW(groups, lr=1e-3, betas=(0.9, 0.95), eps=1e-8)
print(opt)
print([len(g["params"]) for g in opt.param_groups], opt.param_groups[1]["weight_decay"], sorted(opt.param_groups[0].keys()))
# nanoGPT style
param_dict = {pn: p for pn, p in m.named_parameters() if p.requires_grad}
dp = [p for n, p in param_dict.items() if p.dim() >= 2]; ndp = [p for n, p in param_dict.items() if p.dim() < 2]
print(sum(p.numel() for p in dp), sum(p.numel() for p in ndp))
import inspect
print("fused" in inspect.signature(torch.optim.AdamW).parameters)
opt2 = torch.optim.AdamW([{"params": dp, "weight_decay": 0.1}, {"params": ndp, "weight_decay": 0.0}], lr=6e-4, betas=(0.9, 0.95), fused=False)
print(opt2.defaults["fused"], opt2.param_groups[0]["fused"])
try:
    torch.optim.AdamW([{"params": dp}, {"params": dp[:1]}])
except ValueError as e:
    print(e)
try:
    torch.optim.SGD([{"params": dp, "lr": 0.1}, {"params": ndp}])
except Exception as e:
    print(type(e).__name__, e)
opt3 = torch.optim.SGD([{"params": dp, "lr": 0.1}, {"params": ndp}], lr=0.01, momentum=0.9, nesterov=True)
print(opt3)
opt3.add_param_group({"params": nn.Linear(2, 2).parameters(), "lr": 0.5})
print(len(opt3.param_groups), opt3.param_groups[2]["momentum"], opt3.param_groups[2]["lr"])
x = torch.randn(3, 4); idx = torch.randint(0, 5, (3,))
b = m[0]; out = m[1](b.ln(b.fc(x) + b.emb(idx)) + b.pos[0])
out.sum().backward(); opt.step()
st = opt.state_dict(); print(list(st.keys()), list(st["state"].keys()), st["param_groups"][0]["params"], st["param_groups"][1]["params"])
print(sorted(st["state"][0].keys()), st["state"][0]["step"], st["state"][0]["step"].dtype)
for g in opt.param_groups:
    g["lr"] = 3e-4
print([g["lr"] for g in opt.param_groups], opt.param_groups[0]["initial_lr"] if "initial_lr" in opt.param_groups[0] else "none")
try:
    torch.optim.AdamW(m.parameters(), lr=-1)
except ValueError as e:
    print(e)
try:
    torch.optim.AdamW(m.parameters(), betas=(0.9, 1.0))
except ValueError as e:
    print(e)
try:
    torch.optim.AdamW([])
except ValueError as e:
    print(e)
try:
    torch.optim.Adam(torch.randn(3, requires_grad=True))
except TypeError as e:
    print(e)
''',
    'sched': PRELUDE + r'''
torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.AdamW(model.parameters(), lr=0.1)
warmup, total = 3, 10
def lr_lambda(step):
    if step < warmup:
        return float(step) / float(max(1, warmup))
    progress = float(step - warmup) / float(max(1, total - warmup))
    return max(0.0, 0.5 * (1.0 + math.cos(math.pi * 0.5 * 2.0 * progress)))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
print(opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"], sched.last_epoch, sched.get_last_lr())
lrs = []
for step in range(total):
    opt.step(); sched.step(); lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs)
print(sched.state_dict().keys() if False else sorted(sched.state_dict().keys()))
s2 = torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), max_lr=0.1, total_steps=6, pct_start=0.3)
r = []
for _ in range(6):
    s2.optimizer.step(); s2.step(); r.append((round(s2.get_last_lr()[0], 6), round(s2.optimizer.param_groups[0]["momentum"], 4)))
print(r)
try:
    s2.step()
except ValueError as e:
    print(e)
o3 = torch.optim.SGD(model.parameters(), lr=1.0)
s3 = torch.optim.lr_scheduler.SequentialLR(o3, [torch.optim.lr_scheduler.LinearLR(o3, start_factor=0.1, total_iters=2), torch.optim.lr_scheduler.CosineAnnealingLR(o3, T_max=4, eta_min=0.01)], milestones=[2])
r = []
for _ in range(7):
    o3.step(); s3.step(); r.append(round(o3.param_groups[0]["lr"], 6))
print(r)
o4 = torch.optim.SGD(model.parameters(), lr=1.0)
s4 = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o4, T_0=3, T_mult=2, eta_min=0.1)
r = []
for _ in range(8):
    o4.step(); s4.step(); r.append(round(s4.get_last_lr()[0], 6))
print(r, s4.T_cur, s4.T_i)
o5 = torch.optim.SGD(model.parameters(), lr=1.0)
s5 = torch.optim.lr_scheduler.ReduceLROnPlateau(o5, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.1)
for v in [1.0, 0.99, 0.995, 0.98, 0.97, 0.97, 0.97, 0.97, 0.97]:
    s5.step(v)
print(o5.param_groups[0]["lr"], s5.num_bad_epochs, s5.best, s5.get_last_lr() if hasattr(s5, "get_last_lr") else None)
o6 = torch.optim.SGD(model.parameters(), lr=1.0)
s6 = torch.optim.lr_scheduler.LambdaLR(o6, [lambda e: 0.5 ** e])
s6.step(); s6.step(); print(s6.get_last_lr(), s6.last_epoch)
try:
    torch.optim.lr_scheduler.LambdaLR(o6, [lambda e: 1, lambda e: 2])
except ValueError as e:
    print(e)
o7 = torch.optim.SGD(model.parameters(), lr=1.0)
s7 = torch.optim.lr_scheduler.StepLR(o7, step_size=2, gamma=0.1)
for _ in range(5):
    s7.step()
print([round(x, 6) for x in s7.get_last_lr()], s7.last_epoch)
s8 = torch.optim.lr_scheduler.PolynomialLR(torch.optim.SGD(model.parameters(), lr=1.0), total_iters=4, power=2.0)
r = []
for _ in range(5):
    s8.optimizer.step(); s8.step(); r.append(round(s8.get_last_lr()[0], 6))
print(r)
m = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD(model.parameters(), lr=1.0), milestones=[1, 3], gamma=0.5)
print(m.milestones, type(m.milestones).__name__)
''',
    'amp': PRELUDE + r'''
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 4, growth_interval=2)
print(scaler.get_scale(), scaler.is_enabled(), scaler.get_growth_factor(), scaler.get_backoff_factor(), scaler.get_growth_interval())
accum = 2
for step in range(4):
    for micro in range(accum):
        x = torch.randn(3, 4); y = torch.randint(0, 3, (3,))
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            logits = model(x)
            loss = F.cross_entropy(logits, y) / accum
        print(step, micro, logits.dtype, loss.dtype, round(loss.item(), 2))
        scaler.scale(loss).backward()
    scaler.unscale_(opt)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    print("norm", norm.dtype, round(norm.item(), 2), norm.shape)
    scaler.step(opt); scaler.update(); opt.zero_grad(set_to_none=True)
    print("scale", scaler.get_scale())
print(sorted(scaler.state_dict().items()))
try:
    scaler.unscale_(opt); scaler.unscale_(opt)
except RuntimeError as e:
    print(e)
print(model[0].weight.dtype, model[0].weight.grad)
s2 = torch.amp.GradScaler("cpu")
x = torch.randn(3, 4)
loss = model(x).sum(); s2.scale(loss).backward()
model[0].weight.grad[0, 0] = float("inf")
s2.step(opt); s2.update(); print(s2.get_scale(), s2._found_inf_per_device(opt) if False else "")
print(torch.amp.is_autocast_available("cpu"))
with torch.autocast("cpu"):
    print(torch.get_autocast_dtype("cpu"), torch.is_autocast_enabled("cpu"))
    a = torch.randn(2, 2); b = a @ a; c = b + a; d = torch.exp(b); e = b.sum(); f = torch.cat([a, b]); g = torch.stack([a.half().float(), b.half()])
    print(b.dtype, c.dtype, d.dtype, e.dtype, f.dtype, g.dtype)
    h = F.mse_loss(b, a); i = F.log_softmax(b, -1); j = torch.nn.functional.binary_cross_entropy_with_logits(b, a.sigmoid()); k = b.float().softmax(-1)
    print(h.dtype, i.dtype, j.dtype, k.dtype)
    lo = torch.bmm(a[None], a[None]); ad = torch.addmm(a, a, a); bl = torch.baddbmm(a[None], a[None], a[None]); cv = F.conv2d(a[None, None], a[None, None]); print(lo.dtype, ad.dtype, bl.dtype, cv.dtype)
    n1 = torch.norm(b); n2 = b.pow(2); n3 = torch.cumsum(b, 0); n4 = F.group_norm(b[None], 1); print(n1.dtype, n2.dtype, n3.dtype, n4.dtype)
    try:
        torch.stack([a.half(), b])
    except RuntimeError as e:
        print(e)
@torch.autocast(device_type="cpu", dtype=torch.bfloat16)
def fwd(x):
    return model(x)
print(fwd(torch.randn(1, 4)).dtype)
try:
    with torch.autocast(device_type="cpu", dtype=torch.float64):
        pass
except Exception as e:
    print(type(e).__name__, e)
with torch.autocast(device_type="cpu", dtype=torch.float64):
    print(torch.is_autocast_enabled("cpu"), (torch.randn(2,2) @ torch.randn(2,2)).dtype)
''',
    'mixup': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(4, 3); y = torch.tensor([0, 2, 1, 2])
beta = torch.distributions.Beta(torch.tensor([0.4]), torch.tensor([0.4]))
lam = beta.sample(); print(lam.shape, lam.dtype, lam.round(decimals=4))
lam = lam.item()
perm = torch.randperm(x.size(0)); print(perm, perm.dtype)
mixed = lam * x + (1 - lam) * x[perm]
y_a, y_b = y, y[perm]
logits = nn.Linear(3, 3)(mixed)
loss = lam * F.cross_entropy(logits, y_a) + (1 - lam) * F.cross_entropy(logits, y_b)
print(round(loss.item(), 4), loss.grad_fn.name())
def one_hot(x, num_classes, on_value=1., off_value=0.):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value, device=x.device).scatter_(1, x, on_value)
sm = 0.1
oh = one_hot(y, 3, on_value=1 - sm + sm / 3, off_value=sm / 3); print(oh.round(decimals=4))
tgt = oh * lam + one_hot(y.flip(0), 3, 1 - sm + sm / 3, sm / 3) * (1. - lam)
soft = torch.sum(-tgt * F.log_softmax(logits, dim=-1), dim=-1).mean()
print(round(soft.item(), 4))
print(round(F.cross_entropy(logits, tgt).item(), 4), round(F.cross_entropy(logits, y, label_smoothing=0.1).item(), 4))
class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__(); assert smoothing < 1.0
        self.smoothing = smoothing; self.confidence = 1. - smoothing
    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1))
        nll_loss = nll_loss.squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        loss = self.confidence * nll_loss + self.smoothing * smooth_loss
        return loss.mean()
print(LabelSmoothingCrossEntropy(), round(LabelSmoothingCrossEntropy()(logits, y).item(), 4))
# cutmix box
W = H = 8
cut_rat = math.sqrt(1. - 0.3)
cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
cx = torch.randint(W, (1,)).item(); cy = torch.randint(H, (1,)).item()
print(cut_w, cut_h, cx, cy)
bbx1 = torch.clamp(torch.tensor(cx - cut_w // 2), 0, W); print(bbx1, bbx1.dtype)
import numpy as np
print(np.clip(cx - cut_w // 2, 0, W))
d = torch.distributions.Beta(0.4, 0.4); print(d.batch_shape, d.concentration1, d.sample().shape, d.mean)
d2 = torch.distributions.Beta(torch.tensor(2.0), torch.tensor([1.0, 3.0])); print(d2.batch_shape, d2.sample((2,)).shape, d2.log_prob(torch.tensor(0.3)).round(decimals=4))
try:
    torch.distributions.Beta(torch.tensor(-1.0), torch.tensor(1.0))
except ValueError as e:
    print(e)
try:
    d2.log_prob(torch.tensor(1.5))
except ValueError as e:
    print(e)
print(torch.distributions.Dirichlet(torch.ones(3)).sample().shape, torch.distributions.Uniform(0, 1).sample((2,)).round(decimals=4))
print(torch.distributions.Categorical(logits=logits).sample(), torch.distributions.Categorical(probs=torch.tensor([0.2, 0.8])).entropy().round(decimals=4))
''',
    'metrics': PRELUDE + r'''
torch.manual_seed(0)
num_classes = 4
preds = torch.randint(0, 4, (20,)); target = torch.randint(0, 4, (20,))
cm = torch.bincount(target * num_classes + preds, minlength=num_classes ** 2).reshape(num_classes, num_classes)
print(cm, cm.dtype)
k = (target >= 0) & (target < num_classes)
cm2 = torch.bincount(num_classes * target[k].to(torch.int64) + preds[k], minlength=num_classes ** 2).reshape(num_classes, num_classes)
print(torch.equal(cm, cm2))
h = cm.float()
acc_global = torch.diag(h).sum() / h.sum(); acc = torch.diag(h) / h.sum(1); iu = torch.diag(h) / (h.sum(1) + h.sum(0) - torch.diag(h))
print(acc_global.item(), acc.round(decimals=4), iu.round(decimals=4), iu.mean().item())
print(torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([0.5, 0.25, 2.0])), torch.bincount(torch.tensor([], dtype=torch.long)))
print(torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([1, 2, 3])).dtype, torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([1., 2., 3.], dtype=torch.float64)).dtype)
try:
    torch.bincount(torch.tensor([-1, 2]))
except RuntimeError as e:
    print(e)
try:
    torch.bincount(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(e)
try:
    torch.bincount(torch.tensor([[1, 2]]))
except RuntimeError as e:
    print(e)
def accuracy(output, target, topk=(1,)):
    maxk = min(max(topk), output.size()[1])
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.reshape(1, -1).expand_as(pred))
    return [correct[:min(k, maxk)].reshape(-1).float().sum(0) * 100. / batch_size for k in topk]
out = torch.randn(8, 5); t = torch.randint(0, 5, (8,))
a1, a5 = accuracy(out, t, topk=(1, 5)); print(a1, a5, a1.shape)
def accuracy2(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk); batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t(); correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].view(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res
try:
    print(accuracy2(out, t, (1, 3)))
except RuntimeError as e:
    print(e)
_, pred = out.topk(3, 1, True, True); print(pred.t().is_contiguous(), pred.t().stride())
print((out.argmax(1) == t).float().mean(), (out.argmax(1) == t).sum().item(), (out.argmax(dim=1) == t).type(torch.float).sum().item())
# precision/recall/f1 from cm
tp = cm.diag(); fp = cm.sum(0) - tp; fn = cm.sum(1) - tp
prec = tp / (tp + fp).clamp(min=1); rec = tp / (tp + fn).clamp(min=1)
f1 = 2 * prec * rec / (prec + rec + 1e-8)
print(prec.round(decimals=4), rec.dtype, f1.round(decimals=4), f1.mean().round(decimals=4))
print(torch.histc(torch.tensor([1., 2, 1, 4]), bins=4, min=0, max=4), torch.unique(target, return_counts=True))
vals, counts = torch.unique(preds, sorted=True, return_inverse=False, return_counts=True); print(vals, counts, counts.float() / counts.sum())
# AUC-ish: ranks via argsort
s = torch.tensor([0.1, 0.4, 0.35, 0.8]); lab = torch.tensor([0, 0, 1, 1])
ranks = s.argsort().argsort().float() + 1
pos = lab.bool(); n_pos = pos.sum(); n_neg = (~pos).sum()
auc = (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg); print(auc, auc.dtype)
print(torch.searchsorted(torch.tensor([0.1, 0.5, 0.9]), torch.tensor([0.05, 0.5, 0.95])), torch.bucketize(torch.tensor([0.05, 0.5, 0.95]), torch.tensor([0.1, 0.5, 0.9]), right=True))
''',
    'sampler': PRELUDE + r'''
import random
import numpy as np
torch.manual_seed(0)
labels = torch.tensor([0, 0, 0, 0, 1, 1, 2])
class_count = torch.bincount(labels); weights = 1.0 / class_count.float()
sample_w = weights[labels]; print(sample_w.round(decimals=4))
g = torch.Generator(); g.manual_seed(0)
s = torch.utils.data.WeightedRandomSampler(sample_w, num_samples=10, replacement=True, generator=g)
print(list(s), len(s))
s2 = torch.utils.data.WeightedRandomSampler(sample_w.tolist(), num_samples=5, replacement=False, generator=torch.Generator().manual_seed(1))
print(list(s2))
try:
    torch.utils.data.WeightedRandomSampler(sample_w, num_samples=0)
except ValueError as e:
    print(e)
try:
    list(torch.utils.data.WeightedRandomSampler(sample_w, num_samples=8, replacement=False))
except RuntimeError as e:
    print(e)
try:
    torch.utils.data.WeightedRandomSampler(torch.ones(2, 2), 2)
except ValueError as e:
    print(e)
def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed); random.seed(worker_seed)
ds = torch.utils.data.TensorDataset(torch.arange(10.).view(5, 2), labels[:5])
dl = torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True, worker_init_fn=seed_worker, generator=torch.Generator().manual_seed(7))
for xb, yb in dl:
    print(xb.tolist(), yb, yb.dtype)
print(len(dl), dl.batch_size, dl.drop_last, type(dl.sampler).__name__, type(dl.batch_sampler).__name__)
dl2 = torch.utils.data.DataLoader(ds, batch_size=2, sampler=s2, drop_last=True)
print([b[1].tolist() for b in dl2], len(dl2))
try:
    torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True, sampler=s2)
except ValueError as e:
    print(e)
g1 = torch.Generator().manual_seed(3); print(torch.randperm(6, generator=g1), torch.rand(2, generator=g1).round(decimals=4), g1.initial_seed())
st = g1.get_state(); a = torch.randint(0, 10, (3,), generator=g1); g1.set_state(st); b = torch.randint(0, 10, (3,), generator=g1); print(torch.equal(a, b), st.dtype, st.shape)
tr, va = torch.utils.data.random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(42)); print(list(tr), list(va))
tr, va = torch.utils.data.random_split(ds, [3, 2], generator=torch.Generator().manual_seed(0)); print(tr.indices, type(tr).__name__, len(va))
try:
    torch.utils.data.random_split(ds, [3, 3])
except ValueError as e:
    print(e)
sub = torch.utils.data.Subset(ds, [4, 0]); print(sub[0], len(sub))
cat = torch.utils.data.ConcatDataset([ds, sub]); print(len(cat), cat[6], cat.cumulative_sizes)
bs = torch.utils.data.BatchSampler(torch.utils.data.SequentialSampler(range(5)), batch_size=2, drop_last=False); print(list(bs), len(bs))
rs = torch.utils.data.RandomSampler(range(5), replacement=True, num_samples=7, generator=torch.Generator().manual_seed(0)); print(list(rs))
print(torch.utils.data.default_collate([(torch.tensor([1., 2.]), 3), (torch.tensor([4., 5.]), 6)]))
print(torch.utils.data.default_collate([{"a": 1.5, "b": np.array([1, 2])}, {"a": 2.5, "b": np.array([3, 4])}]))
''',
    'errors': PRELUDE + r'''
torch.manual_seed(0)
def tryit(f):
    try:
        r = f(); print("ok", getattr(r, "shape", r), getattr(r, "dtype", ""))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
lin = nn.Linear(4, 3)
tryit(lambda: lin(torch.randn(2, 4).double()))
tryit(lambda: lin(torch.randn(2, 5)))
tryit(lambda: lin(torch.randint(0, 3, (2, 4))))
tryit(lambda: lin(torch.randn(2, 4).half()))
tryit(lambda: lin.double()(torch.randn(2, 4)))
tryit(lambda: torch.randn(2, 3) @ torch.randn(2, 3))
tryit(lambda: torch.randn(2, 3) @ torch.randn(3, 2).double())
tryit(lambda: torch.randn(2, 3, 4) @ torch.randn(5, 4, 2))
tryit(lambda: torch.randn(3) @ torch.randn(4))
tryit(lambda: torch.mm(torch.randn(2, 3), torch.randn(3)))
tryit(lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(3, 4, 2)))
tryit(lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(2, 5, 2)))
tryit(lambda: torch.matmul(torch.randn(2, 3).to(torch.bfloat16), torch.randn(3, 2)))
tryit(lambda: torch.randint(0, 5, (2, 3)) @ torch.randn(3, 2))
tryit(lambda: torch.randint(0, 5, (2, 3)) @ torch.randint(0, 5, (3, 2)))
tryit(lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 4)]))
tryit(lambda: torch.cat([torch.randn(2, 3), torch.randn(3)]))
tryit(lambda: torch.cat([torch.randn(2, 3), torch.randn(2, 3)], dim=2))
tryit(lambda: torch.cat([]))
tryit(lambda: torch.stack([torch.randn(2, 3), torch.randn(2, 4)]))
tryit(lambda: torch.cat((torch.randn(2, 3), torch.randint(0, 2, (2, 3)))))
tryit(lambda: torch.cat([torch.randn(2, 3), torch.tensor([])]))
tryit(lambda: torch.randn(2, 3).view(4))
tryit(lambda: torch.randn(2, 3).view(-1, -1))
tryit(lambda: torch.randn(2, 3).view(4, -1))
tryit(lambda: torch.randn(2, 3).t().view(6))
tryit(lambda: torch.randn(2, 3, 4).transpose(0, 1).view(3, 8))
tryit(lambda: torch.randn(2, 3).reshape(5))
tryit(lambda: torch.randn(4, 3)[:, :2].view(8))
tryit(lambda: torch.randn(4, 3)[:, :2].view(4, 2, 1))
tryit(lambda: torch.randn(2, 3).permute(1, 0, 2))
tryit(lambda: torch.randn(2, 3).permute(0, 0))
tryit(lambda: torch.randn(2, 3).transpose(0, 2))
tryit(lambda: torch.randn(2, 3).squeeze(2))
tryit(lambda: torch.randn(2, 3).unsqueeze(3))
tryit(lambda: torch.randn(2, 3).expand(2, 2))
tryit(lambda: torch.randn(2, 3).flatten(2))
tryit(lambda: torch.randn(2, 3).unflatten(1, (2, 2)))
tryit(lambda: torch.randn(2, 3).split([1, 1], dim=1))
tryit(lambda: torch.randn(2, 3).chunk(0))
tryit(lambda: torch.randn(2, 3) + torch.randn(3, 2))
tryit(lambda: torch.randn(2, 3).masked_fill(torch.ones(3, 2, dtype=torch.bool), 0))
tryit(lambda: torch.randn(2, 3).masked_fill(torch.ones(2, 3, dtype=torch.bool), torch.tensor([1., 2.])))
tryit(lambda: torch.randn(2, 3).gather(1, torch.tensor([[0, 5]])))
tryit(lambda: torch.randn(2, 3).gather(1, torch.tensor([[0.0]])))
tryit(lambda: torch.randn(2, 3).gather(1, torch.tensor([0, 1])))
tryit(lambda: torch.zeros(2, 3).scatter_(1, torch.tensor([[0, 1]]), torch.ones(2, 2, dtype=torch.float64)))
tryit(lambda: torch.zeros(2, 3).index_select(1, torch.tensor([[0]])))
tryit(lambda: torch.zeros(2, 3, dtype=torch.long).add_(torch.randn(2, 3)))
tryit(lambda: torch.zeros(2, 3, dtype=torch.long).mul_(1.5))
tryit(lambda: torch.zeros(2, 3).add_(torch.zeros(2, 1, 3)))
tryit(lambda: torch.zeros(1, 3).add_(torch.zeros(2, 3)))
tryit(lambda: torch.zeros(3).copy_(torch.zeros(2)))
tryit(lambda: torch.zeros(2, 3).bool().sum().dtype)
tryit(lambda: F.softmax(torch.randint(0, 3, (2, 3)), dim=-1))
tryit(lambda: torch.randint(0, 3, (2, 3)).mean())
tryit(lambda: torch.randint(0, 3, (2, 3)).float().mean(dtype=torch.long))
tryit(lambda: torch.arange(5).std())
tryit(lambda: F.layer_norm(torch.randn(2, 3), (4,)))
tryit(lambda: nn.LayerNorm(4)(torch.randn(2, 3)))
tryit(lambda: nn.BatchNorm1d(4)(torch.randn(2, 3)))
tryit(lambda: nn.Conv2d(3, 4, 3)(torch.randn(1, 4, 5, 5)))
tryit(lambda: nn.Conv2d(3, 4, 3)(torch.randn(4, 5, 5)))
tryit(lambda: nn.Conv2d(3, 4, 3)(torch.randn(3, 5)))
tryit(lambda: nn.Conv2d(3, 4, 7)(torch.randn(1, 3, 5, 5)))
tryit(lambda: nn.Embedding(4, 2)(torch.tensor([[1, 4]])))
tryit(lambda: nn.MultiheadAttention(6, 4))
tryit(lambda: nn.MultiheadAttention(8, 2, batch_first=True)(torch.randn(2, 3, 8), torch.randn(2, 4, 8), torch.randn(2, 5, 8)))
''',
    'autograd_err': PRELUDE + r'''
torch.manual_seed(0)
def tryit(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
w = torch.randn(3, requires_grad=True)
def f1():
    w.add_(1)
tryit(f1)
def f1b():
    w[0] = 1.0
tryit(f1b)
def f1c():
    w.data.add_(1); return w.grad
tryit(f1c)
def f2():
    a = torch.randn(3, requires_grad=True); b = a.sigmoid(); b.mul_(2); b.sum().backward()
tryit(f2)
def f3():
    a = torch.randn(3, requires_grad=True); b = a * 2; c = b.exp(); b.add_(1); c.sum().backward()
tryit(f3)
def f3b():
    a = torch.randn(3, requires_grad=True); b = a * 2; c = b ** 2; b.add_(1); b.add_(1); c.sum().backward()
tryit(f3b)
def f4():
    a = torch.randn(2, 3, requires_grad=True); b = a.tanh(); v = b[0]; v.zero_(); b.sum().backward()
tryit(f4)
def f5():
    x = torch.randn(3, requires_grad=True); y = x.relu(); y += 1; return y.grad_fn.name(), y._version
tryit(f5)
def f6():
    x = torch.randn(3, requires_grad=True); y = F.relu(x, inplace=True)
tryit(f6)
def f7():
    x = torch.randn(3, requires_grad=True) * 1; y = F.relu(x, inplace=True); z = F.sigmoid(y); y.mul_(2); z.sum().backward()
tryit(f7)
def f8():
    x = torch.randn(3, requires_grad=True); l = (x * 2).sum(); l.backward(); l.backward()
tryit(f8)
def f9():
    x = torch.randn(3, requires_grad=True); (x * 2).backward()
tryit(f9)
def f10():
    x = torch.randn(3); x.sum().backward()
tryit(f10)
def f11():
    x = torch.randn(3, requires_grad=True); y = x * 2; return y.grad
tryit(f11)
def f12():
    x = torch.randn(3, requires_grad=True); return x.numpy()
tryit(f12)
def f13():
    x = torch.randn(3, requires_grad=True); return torch.autograd.grad(x.sum(), [x, torch.randn(2, requires_grad=True)])
tryit(f13)
def f14():
    x = torch.randn(3, requires_grad=True); return torch.autograd.grad((x * 2).sum(), x, grad_outputs=torch.ones(2))
tryit(f14)
def f15():
    x = torch.randn(3, requires_grad=True); x.requires_grad_(False) if False else None; y = (x * 2).detach(); y.requires_grad = True; return y.is_leaf, y.grad_fn
tryit(f15)
def f16():
    x = torch.randn(3, requires_grad=True); y = x * 2; y.requires_grad = False
tryit(f16)
def f17():
    x = torch.randint(0, 3, (3,)); x.requires_grad_()
tryit(f17)
def f18():
    x = torch.randn(3, requires_grad=True); y = x.view(3); y.add_(1)
tryit(f18)
def f19():
    x = torch.randn(3, requires_grad=True) * 1; y = x.unbind(0)[0]; y.mul_(2)
tryit(f19)
def f20():
    x = torch.randn(4, requires_grad=True) * 1; a, b = x.split(2); a.mul_(2)
tryit(f20)
def f21():
    x = torch.randn(4, requires_grad=True) * 1; a, b = x.chunk(2); a.mul_(2); return a.grad_fn.name()
tryit(f21)
def f22():
    with torch.no_grad():
        x = torch.randn(3, requires_grad=True) * 1
    return x.requires_grad, x.grad_fn
tryit(f22)
def f23():
    x = torch.randn(3, requires_grad=True); y = x.detach(); y.add_(1); (x * x).sum().backward(); return x.grad is not None
tryit(f23)
def f24():
    x = torch.randn(3, requires_grad=True); y = x * x; x.detach().add_(1); y.sum().backward()
tryit(f24)
def f25():
    lin = nn.Linear(2, 2); out = lin(torch.randn(1, 2)); lin.weight.data.mul_(2); out.sum().backward(); return lin.weight.grad.shape
tryit(f25)
def f26():
    lin = nn.Linear(2, 2); x = torch.randn(1, 2, requires_grad=True); out = lin(x); 
    with torch.no_grad():
        lin.weight.mul_(2)
    out.sum().backward()
tryit(f26)
def f27():
    x = torch.randn(2, requires_grad=True); y = torch.randn(2, requires_grad=True); z = x * y
    with torch.no_grad():
        y += 1
    z.sum().backward()
tryit(f27)
def f28():
    x = torch.randn(3, requires_grad=True); h = x.register_hook(lambda g: g * 2); (x * 3).sum().backward(); h.remove(); return x.grad
tryit(f28)
def f29():
    x = torch.randn(3); x.register_hook(lambda g: g)
tryit(f29)
def f30():
    x = torch.randn(3, requires_grad=True); y = x * 2; y.retain_grad(); y.sum().backward(); return y.grad, y.retains_grad, x.retains_grad
tryit(f30)
def f31():
    x = torch.randn(3, requires_grad=True); y = x * 2; y.sum().backward(); return y.grad
tryit(f31)
def f32():
    x = torch.randn(3, requires_grad=True); y = x.exp(); y.backward(torch.ones(3), retain_graph=True); y.backward(torch.ones(3)); return x.grad.round(decimals=4)
tryit(f32)
def f33():
    x = torch.tensor([1., 2.], requires_grad=True); y = x.clone(); y[0] = y[1] * 3; y.sum().backward(); return x.grad, y.grad_fn.name()
tryit(f33)
def f34():
    x = torch.ones(2, requires_grad=True); return x.grad_fn, x.is_leaf, (x + 0).is_leaf, x.detach().requires_grad, x.clone().grad_fn
tryit(f34)
''',
    'hf_masks': PRELUDE + r'''
torch.manual_seed(0)
def _make_causal_mask(input_ids_shape, dtype, device, past_key_values_length=0):
    bsz, tgt_len = input_ids_shape
    mask = torch.full((tgt_len, tgt_len), torch.finfo(dtype).min, device=device)
    mask_cond = torch.arange(mask.size(-1), device=device)
    mask.masked_fill_(mask_cond < (mask_cond + 1).view(mask.size(-1), 1), 0)
    mask = mask.to(dtype)
    if past_key_values_length > 0:
        mask = torch.cat([torch.zeros(tgt_len, past_key_values_length, dtype=dtype, device=device), mask], dim=-1)
    return mask[None, None, :, :].expand(bsz, 1, tgt_len, tgt_len + past_key_values_length)
def _expand_mask(mask, dtype, tgt_len=None):
    bsz, src_len = mask.size()
    tgt_len = tgt_len if tgt_len is not None else src_len
    expanded_mask = mask[:, None, None, :].expand(bsz, 1, tgt_len, src_len).to(dtype)
    inverted_mask = 1.0 - expanded_mask
    return inverted_mask.masked_fill(inverted_mask.to(torch.bool), torch.finfo(dtype).min)
for dtype in (torch.float32, torch.bfloat16, torch.float16):
    cm = _make_causal_mask((2, 3), dtype, torch.device("cpu"), past_key_values_length=1)
    am = _expand_mask(torch.tensor([[1, 1, 1, 1], [0, 1, 1, 1]]), dtype, tgt_len=3)
    comb = am + cm
    print(dtype, cm.shape, cm.stride(), comb.dtype)
    print(comb[1, 0])
    print(comb.softmax(-1)[1, 0])
    q = torch.randn(2, 2, 3, 4, dtype=dtype); k = torch.randn(2, 2, 4, 4, dtype=dtype)
    o = F.scaled_dot_product_attention(q, k, k, attn_mask=comb)
    print(o.dtype, o[1, 0, 0].float().round(decimals=2))
# fully masked row with finfo.min vs -inf
m = torch.full((1, 1, 2, 2), torch.finfo(torch.float32).min); m[0, 0, 1, 0] = 0
q = torch.randn(1, 1, 2, 4)
print(F.scaled_dot_product_attention(q, q, q, attn_mask=m).round(decimals=4))
mi = torch.full((1, 1, 2, 2), float("-inf")); mi[0, 0, 1, 0] = 0
print(F.scaled_dot_product_attention(q, q, q, attn_mask=mi))
mb = torch.tensor([[False, False], [True, False]])
print(F.scaled_dot_product_attention(q, q, q, attn_mask=mb))
# BERT extended attention mask
attention_mask = torch.tensor([[1, 1, 0]])
ext = attention_mask[:, None, None, :]
ext = ext.to(dtype=torch.float16)
ext = (1.0 - ext) * torch.finfo(torch.float16).min
print(ext, ext.dtype)
print((1.0 - attention_mask[:, None, None, :]) * -10000.0)
# T5 relative position bucket
def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets
ctx = torch.arange(12, dtype=torch.long)[:, None]; mem = torch.arange(12, dtype=torch.long)[None, :]
rp = mem - ctx
b = _relative_position_bucket(rp, num_buckets=8, max_distance=16); print(b[0], b[-1], b.dtype)
print(_relative_position_bucket(rp, bidirectional=False, num_buckets=8, max_distance=16)[-1])
# GPT-2 Conv1D
class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__(); self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf)); self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)
    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)
c = Conv1D(6, 4); x = torch.randn(2, 3, 4, requires_grad=True); y = c(x)
print(y.shape, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), type(x.size()[:-1] + (6,)).__name__)
y.sum().backward(); print(c.weight.grad.shape, c.bias.grad)
try:
    c(x.transpose(0, 1))
except RuntimeError as e:
    print(e)
''',
    'printing': PRELUDE + r'''
torch.manual_seed(0)
class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=nn.GELU, drop=0.):
        super().__init__()
        out_features = out_features or in_features; hidden_features = hidden_features or in_features
        self.fc1 = nn.Linear(in_features, hidden_features); self.act = act_layer()
        self.drop1 = nn.Dropout(drop); self.norm = nn.Identity()
        self.fc2 = nn.Linear(hidden_features, out_features); self.drop2 = nn.Dropout(drop)
class Attention(nn.Module):
    def __init__(self, dim, num_heads=2, qkv_bias=False, qk_norm=False):
        super().__init__()
        self.num_heads = num_heads; self.head_dim = dim // num_heads; self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.q_norm = nn.LayerNorm(self.head_dim) if qk_norm else nn.Identity()
        self.attn_drop = nn.Dropout(0.0); self.proj = nn.Linear(dim, dim)
class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6); self.attn = Attention(dim, qk_norm=True)
        self.ls1 = nn.Identity(); self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = Mlp(dim, int(dim * 4.0), act_layer=nn.GELU)
m = nn.Sequential(*[Block(4) for _ in range(2)])
print(m)
print(nn.ModuleDict({"a": nn.ReLU(), "b": nn.ModuleList([nn.Tanh(), nn.Softplus(beta=2)])}))
pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(2)), "b": nn.Parameter(torch.zeros(2, 3, dtype=torch.float64))})
print(pd)
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(1), requires_grad=False)])
print(pl)
print(nn.Sequential())
print(nn.ModuleList())
class Empty(nn.Module):
    pass
print(Empty(), nn.Identity(54, unused="x"))
class WithExtra(nn.Module):
    def __init__(self):
        super().__init__(); self.lin = nn.Linear(2, 2)
    def extra_repr(self):
        return "hello=1\nworld=2"
print(WithExtra())
print(nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, batch_first=True, norm_first=True))
print(nn.Conv2d(3, 8, kernel_size=(3, 1), stride=(2, 1), padding="same" if False else (1, 0), dilation=1, groups=1, bias=False, padding_mode="reflect"))
print(nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1), nn.Conv1d(2, 2, 3, padding="same", dilation=2))
print(nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), nn.AvgPool2d(2, count_include_pad=False), nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveAvgPool1d(1))
print(nn.BatchNorm2d(4, momentum=0.01, eps=1e-3), nn.SyncBatchNorm(3), nn.InstanceNorm2d(3, affine=True), nn.LocalResponseNorm(2))
print(nn.Dropout2d(0.2), nn.AlphaDropout(0.1), nn.Hardswish(inplace=True), nn.Mish(), nn.PReLU(3), nn.ELU(alpha=0.5), nn.Softmax(dim=-1), nn.LogSoftmax(1), nn.Softmax2d())
print(nn.Flatten(), nn.Unflatten(1, (2, 2)), nn.PixelShuffle(2), nn.Upsample(scale_factor=2.0, mode="bilinear"), nn.ZeroPad2d((1, 0, 1, 0)), nn.ReflectionPad1d(2), nn.ConstantPad2d(1, 3.5))
print(nn.LSTM(4, 8, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True), nn.GRU(3, 3), nn.RNN(2, 2, nonlinearity="relu"), nn.LSTMCell(2, 3))
print(nn.Embedding(10, 4, padding_idx=0, max_norm=1.0), nn.EmbeddingBag(10, 3, mode="sum"), nn.Bilinear(2, 3, 4))
print(nn.CrossEntropyLoss(label_smoothing=0.1), nn.BCEWithLogitsLoss(pos_weight=torch.ones(2)), nn.KLDivLoss(reduction="batchmean", log_target=True), nn.CTCLoss())
sd = nn.Linear(2, 1).state_dict(); print(sd); print(type(sd).__name__)
x = torch.tensor([1e-5, 1.0, 12345.678]); print(x, x.half(), x.to(torch.bfloat16), x.double())
print(torch.tensor([1e10, 1.0]), torch.tensor([0.1, 100.0]), torch.tensor([1e-10]), torch.tensor([float("nan"), float("inf"), -float("inf"), 0.5]))
print(torch.arange(12).reshape(3, 4).to(torch.int8), torch.tensor([True, False]), torch.tensor([1 + 2j, 0.5 - 1j]))
print(torch.randn(2, 3, dtype=torch.float64), torch.zeros(0, 3), torch.ones(2, 0, 2).shape, torch.tensor(3.5), torch.tensor(7, dtype=torch.uint8))
print(torch.randn(3, requires_grad=True), torch.randn(2, 2).to(torch.bfloat16).requires_grad_())
print(nn.Parameter(torch.tensor([1.5, -2.0])), nn.Parameter(torch.arange(3.), requires_grad=False))
print(torch.linspace(0, 1, 1001))
print(torch.arange(30).reshape(5, 6) * 1000000)
print(torch.full((2, 2), 1 / 3, dtype=torch.float16), torch.tensor([65504.0], dtype=torch.float16), torch.tensor([3.0e38]).to(torch.bfloat16))
''',
    'moe_alibi': PRELUDE + r'''
torch.manual_seed(0)
# Mixtral-style sparse MoE
hidden_dim, ffn, E, top_k = 4, 6, 3, 2
gate = nn.Linear(hidden_dim, E, bias=False)
experts = nn.ModuleList([nn.Sequential(nn.Linear(hidden_dim, ffn, bias=False), nn.SiLU(), nn.Linear(ffn, hidden_dim, bias=False)) for _ in range(E)])
hidden_states = torch.randn(2, 3, hidden_dim)
b, s, h = hidden_states.shape
hs = hidden_states.view(-1, h)
router_logits = gate(hs)
routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
routing_weights, selected_experts = torch.topk(routing_weights, top_k, dim=-1)
routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
routing_weights = routing_weights.to(hs.dtype)
print(selected_experts, routing_weights.round(decimals=4), routing_weights.grad_fn.name())
final = torch.zeros((b * s, h), dtype=hs.dtype, device=hs.device)
expert_mask = F.one_hot(selected_experts, num_classes=E).permute(2, 1, 0)
print(expert_mask.shape, expert_mask.stride(), expert_mask.dtype)
for expert_idx in range(E):
    idx, top_x = torch.where(expert_mask[expert_idx])
    print(expert_idx, idx, top_x)
    current_state = hs[None, top_x].reshape(-1, h)
    current = experts[expert_idx](current_state) * routing_weights[top_x, idx, None]
    final.index_add_(0, top_x, current.to(hs.dtype))
out = final.reshape(b, s, h)
print(out.round(decimals=4)[0], out.grad_fn.name())
out.sum().backward(); print(gate.weight.grad.round(decimals=4))
hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero(); print(hit, hit.shape)
# load-balancing loss
num_experts = E
rw = F.softmax(router_logits.detach(), dim=-1)
_, sel = torch.topk(rw, top_k, dim=-1)
em = F.one_hot(sel, num_experts)
tokens_per_expert = torch.mean(em.float(), dim=0)
router_prob_per_expert = torch.mean(rw, dim=0)
print(tokens_per_expert, (tokens_per_expert * router_prob_per_expert.unsqueeze(0)).sum() * num_experts)
z = torch.logsumexp(router_logits, dim=-1); print((z ** 2).mean().round(decimals=4))
# repeat_kv
def repeat_kv(hidden_states, n_rep):
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
kv = torch.randn(1, 2, 3, 4); r = repeat_kv(kv, 3)
print(r.shape, r.stride(), r.is_contiguous(), torch.equal(r, kv.repeat_interleave(3, dim=1)))
print(kv[:, :, None].expand(1, 2, 3, 3, 4).stride(), kv[:, :, None].expand(1, 2, 3, 3, 4).is_contiguous())
# ALiBi
def build_alibi_tensor(attention_mask, num_heads, dtype):
    batch_size, seq_length = attention_mask.shape
    closest_power_of_2 = 2 ** math.floor(math.log2(num_heads))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3))), device=attention_mask.device, dtype=torch.float32)
    powers = torch.arange(1, 1 + closest_power_of_2, device=attention_mask.device, dtype=torch.int32)
    slopes = torch.pow(base, powers)
    if closest_power_of_2 != num_heads:
        extra_base = torch.tensor(2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3))), device=attention_mask.device, dtype=torch.float32)
        num_remaining_heads = min(closest_power_of_2, num_heads - closest_power_of_2)
        extra_powers = torch.arange(1, 1 + 2 * num_remaining_heads, 2, device=attention_mask.device, dtype=torch.int32)
        slopes = torch.cat([slopes, torch.pow(extra_base, extra_powers)], dim=0)
    arange_tensor = ((attention_mask.cumsum(dim=-1) - 1) * attention_mask)[:, None, :]
    alibi = slopes[..., None] * arange_tensor
    return alibi.reshape(batch_size * num_heads, 1, seq_length).to(dtype)
al = build_alibi_tensor(torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1]]), 6, torch.bfloat16)
print(al.shape, al.dtype, al[:6, 0])
print(torch.pow(torch.tensor(0.5), torch.arange(1, 4, dtype=torch.int32)).dtype, torch.pow(2, torch.arange(3)).dtype, torch.pow(2.5, torch.arange(3)).dtype)
q = torch.randn(12, 4, 2, dtype=torch.bfloat16); k = torch.randn(12, 2, 4, dtype=torch.bfloat16)
sc = al.baddbmm(batch1=q, batch2=k, beta=1.0, alpha=0.5); print(sc.shape, sc.dtype, sc[0, 0])
try:
    torch.baddbmm(al.float(), q, k)
except RuntimeError as e:
    print(e)
# gelu_new
x = torch.linspace(-3, 3, 7)
gn = 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
print(gn.round(decimals=4), torch.allclose(gn, F.gelu(x, approximate="tanh"), atol=1e-6))
print((x * torch.sigmoid(1.702 * x)).round(decimals=4), F.mish(x).round(decimals=4), F.hardswish(x), F.relu6(x * 3), F.silu(x).round(decimals=4))
''',
    'channels_last': PRELUDE + r'''
torch.manual_seed(0)
def resample_abs_pos_embed(posemb, new_size, num_prefix_tokens=1, interpolation="bicubic", antialias=True):
    num_pos_tokens = posemb.shape[1]
    num_new_tokens = new_size[0] * new_size[1] + num_prefix_tokens
    if num_new_tokens == num_pos_tokens and new_size[0] == new_size[1]:
        return posemb
    old_size = [int(math.sqrt(num_pos_tokens - num_prefix_tokens))] * 2
    posemb_prefix, posemb = posemb[:, :num_prefix_tokens], posemb[:, num_prefix_tokens:]
    embed_dim = posemb.shape[-1]
    orig_dtype = posemb.dtype
    posemb = posemb.float()
    posemb = posemb.reshape(1, old_size[0], old_size[1], -1).permute(0, 3, 1, 2)
    posemb = F.interpolate(posemb, size=new_size, mode=interpolation, antialias=antialias)
    posemb = posemb.permute(0, 2, 3, 1).reshape(1, -1, embed_dim)
    posemb = posemb.to(orig_dtype)
    return torch.cat([posemb_prefix, posemb], dim=1)
pe = torch.randn(1, 1 + 16, 3)
for size, mode, aa in [((2, 2), "bicubic", True), ((6, 6), "bicubic", True), ((3, 5), "bilinear", False), ((2, 3), "bilinear", True), ((6, 6), "nearest", False)]:
    r = resample_abs_pos_embed(pe, size, interpolation=mode, antialias=aa)
    print(size, mode, r.shape, r[0, 1:4].round(decimals=3))
try:
    F.interpolate(torch.randn(1, 2, 4, 4), size=(2, 2), mode="nearest", antialias=True)
except Exception as e:
    print(type(e).__name__, e)
x = torch.randn(2, 3, 5, 5)
xc = x.to(memory_format=torch.channels_last)
print(xc.shape, xc.stride(), xc.is_contiguous(), xc.is_contiguous(memory_format=torch.channels_last))
conv = nn.Conv2d(3, 4, 3, padding=1).to(memory_format=torch.channels_last)
print(conv.weight.stride(), conv.weight.is_contiguous(memory_format=torch.channels_last))
y = conv(xc); print(y.stride(), y.is_contiguous(memory_format=torch.channels_last))
y2 = conv(x); print(y2.stride())
bn = nn.BatchNorm2d(4); z = bn(y); print(z.stride())
r = F.relu(z); print(r.stride(), (r + 1).stride(), (r + x[:, :1].contiguous()).stride(), r.sum(1, keepdim=True).stride())
p = F.max_pool2d(r, 2); print(p.stride(), F.avg_pool2d(r, 2).stride(), F.adaptive_avg_pool2d(r, 1).stride(), F.adaptive_avg_pool2d(r, 1).flatten(1).stride())
print(F.interpolate(r, scale_factor=2, mode="nearest").stride(), F.interpolate(r, scale_factor=2, mode="bilinear").stride())
print(r.contiguous().stride(), r.permute(0, 2, 3, 1).is_contiguous(), r.view(2, 4, 25).stride() if r.is_contiguous() else "nc")
try:
    r.view(2, 4, 25)
except RuntimeError as e:
    print(e)
print(torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride(), torch.zeros_like(xc).stride(), torch.empty_like(xc, memory_format=torch.contiguous_format).stride(), xc.clone().stride(), xc.clone(memory_format=torch.preserve_format).stride())
print(torch.randn(2, 3, 4, 5, 6).to(memory_format=torch.channels_last_3d).stride())
try:
    torch.randn(2, 3, 4).to(memory_format=torch.channels_last)
except RuntimeError as e:
    print(e)
print(xc.new_zeros(2, 3, 5, 5).stride(), (xc * 2).stride(), xc.float().stride(), xc.double().stride(), xc.to(torch.bfloat16).stride(), torch.cat([xc, xc], 1).stride(), torch.cat([xc, xc], 0).stride())
print(F.layer_norm(xc.permute(0, 2, 3, 1), (3,)).stride(), nn.GroupNorm(1, 3)(xc).stride(), F.dropout(xc, 0.5, training=False).stride())
u = F.unfold(x, kernel_size=2, stride=2); print(u.shape, u.stride())
print(F.fold(u, output_size=(4, 4), kernel_size=2, stride=2).shape)
t = torch.arange(10.); print(t.unfold(0, 4, 3), t.unfold(0, 4, 3).stride())
''',
    'gnn': PRELUDE + r'''
torch.manual_seed(0)
edge_index = torch.tensor([[0, 1, 1, 2, 3, 3], [1, 0, 2, 1, 0, 2]])
N = 4; x = torch.randn(N, 3, requires_grad=True)
row, col = edge_index
deg = torch.zeros(N).scatter_add_(0, col, torch.ones(col.size(0))); print(deg)
deg_inv_sqrt = deg.pow(-0.5); deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]; print(norm.round(decimals=4))
msg = x[row] * norm.view(-1, 1)
out = torch.zeros(N, 3).index_add_(0, col, msg)
print(out.round(decimals=4), out.grad_fn.name())
out2 = torch.zeros(N, 3).scatter_reduce(0, col.view(-1, 1).expand(-1, 3), msg, reduce="amax", include_self=False)
print(out2.round(decimals=4), out2.grad_fn.name())
out3 = torch.zeros(N, 3).scatter_reduce(0, col.view(-1, 1).expand(-1, 3), msg, reduce="mean", include_self=True)
print(out3.round(decimals=4))
out4 = torch.full((N, 3), 5.0).scatter_reduce(0, col.view(-1, 1).expand(-1, 3), msg, reduce="prod", include_self=False)
print(out4.round(decimals=4))
(out.sum() + out2.sum() + out3.sum()).backward(); print(x.grad.round(decimals=4))
# segment softmax (GAT)
alpha = torch.randn(6)
amax = torch.full((N,), float("-inf")).scatter_reduce(0, col, alpha, reduce="amax", include_self=True)
e = (alpha - amax[col]).exp()
den = torch.zeros(N).index_add(0, col, e)
print((e / den[col]).round(decimals=4))
adj = torch.sparse_coo_tensor(edge_index, torch.ones(6), (N, N))
print(adj, adj.is_coalesced(), adj.coalesce().indices())
print(torch.sparse.mm(adj, x.detach()).round(decimals=4), (adj.to_dense() @ x.detach()).round(decimals=4).equal(torch.sparse.mm(adj, x.detach()).round(decimals=4)))
print(torch.sparse.sum(adj, dim=1), torch.sparse.sum(adj, dim=1).to_dense())
A = adj.to_dense() + torch.eye(N); D = A.sum(1); Dm = torch.diag(D.pow(-0.5)); print((Dm @ A @ Dm).round(decimals=4))
try:
    torch.zeros(3).scatter_add_(0, torch.tensor([0, 5]), torch.ones(2))
except RuntimeError as e:
    print(e)
try:
    torch.zeros(3).scatter_reduce(0, torch.tensor([0, 1]), torch.ones(2), reduce="max")
except RuntimeError as e:
    print(e)
try:
    torch.zeros(3).index_add_(0, torch.tensor([0, 1]), torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    torch.zeros(3, 2).index_add_(0, torch.tensor([0, 1]), torch.ones(2, 2, dtype=torch.float64))
except RuntimeError as e:
    print(e)
print(torch.zeros(3, dtype=torch.long).index_add_(0, torch.tensor([0, 0]), torch.tensor([2, 3]), alpha=2))
print(torch.zeros(2, 3).index_reduce_(0, torch.tensor([0, 0, 1]), torch.arange(9.).view(3, 3), "amax", include_self=False))
print(torch.cdist(x.detach(), x.detach()).round(decimals=4)[0], torch.cdist(x.detach()[None], x.detach()[None], p=1).shape)
print(torch.pairwise_distance(x.detach()[:2], x.detach()[2:]).round(decimals=4), F.cosine_similarity(x.detach()[:, None], x.detach()[None], dim=-1).round(decimals=4)[0])
print(torch.unique(edge_index, dim=1).shape, torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]), return_counts=True))
print(torch.topk(torch.tensor([1., 3., 3., 2.]), 2), torch.kthvalue(torch.tensor([3., 1., 2.]), 2))
''',
    'clip_new': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
m(torch.randn(5, 3)).pow(2).sum().backward()
grads = [p.grad for p in m.parameters()]
tn = torch.nn.utils.get_total_norm(grads, norm_type=2.0); print(tn.round(decimals=4), tn.dtype)
print(torch.nn.utils.get_total_norm(grads, norm_type="inf").round(decimals=4), torch.nn.utils.get_total_norm(grads, 1.0).round(decimals=4))
torch.nn.utils.clip_grads_with_norm_(m.parameters(), max_norm=1.0, total_norm=tn)
print(torch.nn.utils.get_total_norm([p.grad for p in m.parameters()]).round(decimals=4))
n = torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=float("inf"), foreach=True); print(n.round(decimals=4))
m[0].weight.grad[0, 0] = float("nan")
try:
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(e)
n = torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0); print(n, m[2].bias.grad)
print(torch.nn.utils.clip_grad_norm_([], 1.0), torch.nn.utils.clip_grad_norm_(nn.Linear(2, 2).parameters(), 1.0))
w = torch.randn(2, requires_grad=True); w.grad = torch.tensor([3.0, -4.0]); torch.nn.utils.clip_grad_value_([w], 1.5); print(w.grad)
w.grad = torch.tensor([3.0, -4.0]); print(torch.nn.utils.clip_grad_norm_(w, 1.0), w.grad)
v = torch.nn.utils.parameters_to_vector(m.parameters()); print(v.shape, v.grad_fn.name())
torch.nn.utils.vector_to_parameters(torch.zeros_like(v), m.parameters()); print(m[0].bias)
try:
    torch.nn.utils.vector_to_parameters(torch.zeros(3), m.parameters())
except Exception as e:
    print(type(e).__name__, e)
opt = torch.optim.Adam(m.parameters(), lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)
print(opt.defaults.get("decoupled_weight_decay"), type(opt).__name__)
print(sorted(torch.optim.AdamW(m.parameters()).defaults.items()))
print(sorted(torch.optim.Adam(m.parameters()).defaults.items()))
print(sorted(torch.optim.SGD(m.parameters(), lr=0.1).defaults.items()))
''',
    'inference': PRELUDE + r'''
torch.manual_seed(0)
def tryit(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
with torch.inference_mode():
    w = torch.randn(2, 2)
    lin = nn.Linear(2, 2)
print(w.is_inference(), lin.weight.is_inference(), lin.weight.requires_grad, type(lin.weight).__name__)
tryit(lambda: lin(torch.randn(1, 2)).sum().backward())
tryit(lambda: w.requires_grad_())
tryit(lambda: nn.Parameter(w))
tryit(lambda: nn.Parameter(w.clone()).is_inference())
tryit(lambda: w.add_(1))
tryit(lambda: w.clone().add_(1).is_inference())
tryit(lambda: w[0].is_inference())
tryit(lambda: w.view(4).is_inference())
tryit(lambda: w.detach().is_inference())
tryit(lambda: w.data.is_inference())
tryit(lambda: torch.zeros_like(w).is_inference())
tryit(lambda: (w + 1).is_inference())
tryit(lambda: w.numpy().shape)
tryit(lambda: w.to(torch.float64).is_inference())
tryit(lambda: w.float().is_inference())
tryit(lambda: w.to(torch.float32) is w)
def f1():
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        y = x * 2
    return y.requires_grad, y.is_inference(), y.grad_fn
tryit(f1)
def f2():
    x = torch.ones(2)
    with torch.inference_mode():
        v = x.view(2); v.add_(1)
        s = x[0]
    return x, v.is_inference(), s.is_inference()
tryit(f2)
def f3():
    x = torch.ones(2)
    with torch.inference_mode():
        y = x.view(2)
    y.add_(1)
    return x
tryit(f3)
def f4():
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        y = x.view(2)
    return y.requires_grad, y.is_inference(), y._is_view()
tryit(f4)
def f5():
    with torch.inference_mode():
        x = torch.ones(2)
    with torch.inference_mode(mode=False):
        return torch.is_inference_mode_enabled(), torch.is_grad_enabled()
tryit(f5)
def f6():
    with torch.inference_mode():
        with torch.enable_grad():
            x = torch.ones(2, requires_grad=True); y = x * 2
            return y.requires_grad, torch.is_grad_enabled(), x.is_inference()
tryit(f6)
def f7():
    with torch.inference_mode():
        x = torch.ones(2)
    y = torch.ones(2, requires_grad=True)
    return (x + y).requires_grad, (x * y).grad_fn is not None
tryit(f7)
def f8():
    with torch.inference_mode():
        x = torch.ones(2)
    y = torch.ones(2, requires_grad=True)
    return (x * y).sum().backward()
tryit(f8)
def f9():
    with torch.inference_mode():
        x = torch.ones(2)
    lin = nn.Linear(2, 2)
    return lin(x).requires_grad
tryit(f9)
def f10():
    with torch.inference_mode():
        x = torch.ones(1, 2)
    lin = nn.Linear(2, 2)
    lin(x).sum().backward(); return lin.weight.grad
tryit(f10)
def f11():
    with torch.inference_mode():
        x = torch.ones(1, 2)
    lin = nn.Linear(2, 2)
    with torch.no_grad():
        return lin(x).is_inference()
tryit(f11)
def f12():
    lin = nn.Linear(2, 2)
    with torch.inference_mode():
        lin.weight.add_(1)
    return lin.weight.is_inference(), lin.weight._version
tryit(f12)
def f13():
    lin = nn.Linear(2, 2)
    with torch.inference_mode():
        lin.weight.data = torch.zeros(2, 2)
    return lin.weight.is_inference(), lin.weight.requires_grad
tryit(f13)
def f14():
    sd = {}
    with torch.inference_mode():
        sd = nn.Linear(2, 2).state_dict()
    m = nn.Linear(2, 2); m.load_state_dict(sd); return m.weight.is_inference()
tryit(f14)
def f15():
    with torch.inference_mode():
        x = torch.ones(2)
    return x._version
tryit(f15)
def f16():
    with torch.inference_mode():
        x = torch.ones(2); x.add_(1)
    return x
tryit(f16)
def f17():
    bn = nn.BatchNorm1d(2)
    with torch.inference_mode():
        bn(torch.randn(4, 2))
    return bn.running_mean.is_inference(), bn.num_batches_tracked
tryit(f17)
def f18():
    with torch.inference_mode():
        bn = nn.BatchNorm1d(2)
    bn(torch.randn(4, 2))
tryit(f18)
def f19():
    with torch.inference_mode():
        x = torch.ones(2)
    y = torch.ones(2)
    y.copy_(x); return y.is_inference()
tryit(f19)
def f20():
    with torch.inference_mode():
        x = torch.ones(2)
    return torch.stack([x, x]).is_inference(), x.clone().is_inference(), x.contiguous().is_inference()
tryit(f20)
''',
    'autocast_more': PRELUDE + r'''
import warnings
torch.manual_seed(0)
def tryit(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.cuda.amp.autocast():
        pass
    with torch.autocast(device_type="cuda"):
        pass
    with torch.cpu.amp.autocast():
        pass
    s = torch.cuda.amp.GradScaler()
    print([str(x.message)[:200] for x in w], [x.category.__name__ for x in w])
class MyMM(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        print("fwd", a.dtype, b.dtype, torch.is_autocast_enabled("cpu"))
        return a.mm(b)
    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        print("bwd", grad.dtype, torch.is_autocast_enabled("cpu"))
        return grad.mm(b.t()), a.t().mm(grad)
a = torch.randn(2, 3, requires_grad=True); b = torch.randn(3, 2, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = MyMM.apply(a.bfloat16(), b)
    print(y.dtype)
y.sum().backward(); print(a.grad.dtype)
class MyMM2(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, a, b):
        print("fwd2", a.dtype, torch.is_autocast_enabled("cpu"), (a @ b).dtype)
        return a @ b
    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        print("bwd2", torch.is_autocast_enabled("cpu"))
        return g, g
with torch.autocast("cpu", dtype=torch.bfloat16):
    z = MyMM2.apply(a, b)
tryit(lambda: torch.amp.custom_fwd(lambda ctx, x: x))
tryit(lambda: torch.amp.custom_fwd(device_type="cpu")(lambda ctx, x: x)(None, 1))
lin = nn.Linear(3, 3)
with torch.autocast("cpu", dtype=torch.bfloat16):
    o1 = lin(a); o2 = lin(a)
    with torch.autocast("cpu", dtype=torch.bfloat16, cache_enabled=False):
        o3 = lin(a)
    print(o1.grad_fn.next_functions, o1.dtype)
    with torch.no_grad():
        o4 = lin(a)
    print(o4.requires_grad, o4.dtype)
    with torch.autocast("cpu", enabled=False):
        print(lin(a).dtype, lin(a.bfloat16().float()).dtype)
        try:
            lin(a.bfloat16())
        except RuntimeError as e:
            print(e)
    o5 = lin(a.double()); print(o5.dtype)
    o6 = torch.mm(a.double(), b.double()); print(o6.dtype)
    try:
        torch.mm(a.double(), b)
    except RuntimeError as e:
        print(e)
    print(torch.mm(a.half(), b).dtype, torch.matmul(a, b.half()).dtype)
    x16 = torch.randn(2, 2, dtype=torch.float16)
    print((x16 @ x16).dtype, F.linear(x16, x16).dtype)
(o1.sum() + o2.sum() + o3.sum()).backward(); print(lin.weight.grad.dtype, lin.weight.grad.round(decimals=2))
print(torch.is_autocast_cache_enabled() if hasattr(torch, "is_autocast_cache_enabled") else None)
ac = torch.autocast("cpu", dtype=torch.bfloat16); print(ac.fast_dtype, ac.device, ac._enabled)
tryit(lambda: torch.autocast("xpu2"))
tryit(lambda: torch.autocast("cpu", dtype=torch.int32))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autocast("cpu", dtype=torch.float64):
        pass
    print([str(x.message)[:300] for x in w])
''',
    'nanogpt_train': PRELUDE + r'''
torch.manual_seed(1337)
class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size, dropout=0.0):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd); self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout = nn.Dropout(dropout); self.resid_dropout = nn.Dropout(dropout)
        self.n_head = n_head; self.n_embd = n_embd
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))
    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1); att = self.attn_dropout(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))
class MLP(nn.Module):
    def __init__(self, n):
        super().__init__(); self.c_fc = nn.Linear(n, 4 * n); self.gelu = nn.GELU(); self.c_proj = nn.Linear(4 * n, n); self.dropout = nn.Dropout(0.1)
    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))
class Block(nn.Module):
    def __init__(self, n, h, bs):
        super().__init__(); self.ln_1 = nn.LayerNorm(n); self.attn = CausalSelfAttention(n, h, bs); self.ln_2 = nn.LayerNorm(n); self.mlp = MLP(n)
    def forward(self, x):
        x = x + self.attn(self.ln_1(x)); return x + self.mlp(self.ln_2(x))
class GPT(nn.Module):
    def __init__(self, V=13, bs=8, n=8, h=2, L=2):
        super().__init__()
        self.block_size = bs
        self.transformer = nn.ModuleDict(dict(wte=nn.Embedding(V, n), wpe=nn.Embedding(bs, n), drop=nn.Dropout(0.1),
                                              h=nn.ModuleList([Block(n, h, bs) for _ in range(L)]), ln_f=nn.LayerNorm(n)))
        self.lm_head = nn.Linear(n, V, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith('c_proj.weight'):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * L))
    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
    def forward(self, idx, targets=None):
        b, t = idx.size()
        assert t <= self.block_size, f"Cannot forward sequence of length {t}, block size is only {self.block_size}"
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        else:
            logits = self.lm_head(x[:, [-1], :]); loss = None
        return logits, loss
model = GPT()
print("number of parameters: %.2fK" % (sum(p.numel() for p in model.parameters()) / 1e3,))
print(len(list(model.named_parameters())), len(model.state_dict()))
data = torch.randint(0, 13, (200,))
def get_batch():
    ix = torch.randint(len(data) - 8, (4,))
    x = torch.stack([data[i:i + 8] for i in ix]); y = torch.stack([data[i + 1:i + 1 + 8] for i in ix])
    return x, y
param_dict = {pn: p for pn, p in model.named_parameters() if p.requires_grad}
decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
optimizer = torch.optim.AdamW([{'params': decay_params, 'weight_decay': 0.1}, {'params': nodecay_params, 'weight_decay': 0.0}], lr=1e-2, betas=(0.9, 0.95))
print(f"num decayed parameter tensors: {len(decay_params)}, with {sum(p.numel() for p in decay_params):,} parameters")
def get_lr(it, warmup_iters=3, lr_decay_iters=12, learning_rate=1e-2, min_lr=1e-3):
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (learning_rate - min_lr)
X, Y = get_batch()
for it in range(15):
    lr = get_lr(it)
    for g in optimizer.param_groups:
        g['lr'] = lr
    for micro in range(2):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=(it % 2 == 1)):
            logits, loss = model(X, Y)
            loss = loss / 2
        X, Y = get_batch()
        loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step(); optimizer.zero_grad(set_to_none=True)
    if it % 3 == 0:
        print(f"iter {it}: loss {loss.item() * 2:.4f}, lr {lr:.6f}, norm {gn.item():.3f}")
model.eval()
@torch.no_grad()
def estimate_loss():
    out = []
    for _ in range(3):
        X, Y = get_batch(); _, l = model(X, Y); out.append(l.item())
    return torch.tensor(out).mean()
print(f"{estimate_loss():.4f}")
idx = torch.zeros((1, 1), dtype=torch.long)
for _ in range(10):
    idx_cond = idx if idx.size(1) <= 8 else idx[:, -8:]
    logits, _ = model(idx_cond)
    logits = logits[:, -1, :] / 0.8
    v, _ = torch.topk(logits, 5)
    logits[logits < v[:, [-1]]] = -float('Inf')
    probs = F.softmax(logits, dim=-1)
    idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
print(idx.tolist())
try:
    model(torch.zeros(1, 9, dtype=torch.long))
except AssertionError as e:
    print("AssertionError", e)
''',
    'sdpa_bf16': PRELUDE + r'''
torch.manual_seed(0)
q, k, v = [torch.randn(2, 2, 6, 8).bfloat16().requires_grad_() for _ in range(3)]
at = F.scaled_dot_product_attention(q[0], k[0], v[0]); print(at.grad_fn.name(), at.grad_fn.next_functions[0][0].name(), at.dtype, at.stride())
at.float().sum().backward(); print(q.grad.dtype, q.grad[0, 0, 0])
at = F.scaled_dot_product_attention(q, k, v); print(at.grad_fn.name(), at.dtype, at.stride()); print(at[1, 0, :3])
m = torch.zeros(6, 6, dtype=torch.bool); m[:, :2] = True; m[3] = False
for mask in (m, torch.where(m, 0.0, float("-inf")), torch.where(m, 0.0, float("-inf")).bfloat16()):
    print(F.scaled_dot_product_attention(q.detach(), k.detach(), v.detach(), attn_mask=mask)[0, 0, 2:4])
    print(F.scaled_dot_product_attention(q.detach()[0], k.detach()[0], v.detach()[0], attn_mask=mask)[0, 2:4])
try:
    F.scaled_dot_product_attention(q.detach()[0], k.detach()[0], v.detach()[0], attn_mask=m[None, None])
except RuntimeError as e:
    print(e)
with torch.autocast("cpu", dtype=torch.bfloat16):
    o = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=True)
    print(o.dtype, o[1, 1, 5], o.grad_fn.name())
h = torch.randn(1, 4, 5, 8).half()
print(F.scaled_dot_product_attention(h, h, h, is_causal=True)[0, 1], F.scaled_dot_product_attention(h[0], h[0], h[0])[1, :2])
kv = torch.randn(1, 2, 5, 8).bfloat16(); qq = torch.randn(1, 4, 3, 8).bfloat16()
print(F.scaled_dot_product_attention(qq, kv, kv, enable_gqa=True)[0, 3], F.scaled_dot_product_attention(qq, kv[:, :, :, :4], kv, enable_gqa=True, scale=0.5)[0, 0] if False else "")
# llama-style block in bf16
class Attn(nn.Module):
    def __init__(self, d=8, h=2):
        super().__init__(); self.h = h; self.wqkv = nn.Linear(d, 3 * d, bias=False); self.wo = nn.Linear(d, d, bias=False)
    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).chunk(3, dim=-1)
        q, k, v = [t.view(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v)]
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.wo(y.transpose(1, 2).reshape(B, T, C))
a = Attn().to(torch.bfloat16); x = torch.randn(2, 5, 8, dtype=torch.bfloat16)
y = a(x); print(y.dtype, y[1, 4], y.grad_fn.name())
y.float().pow(2).mean().backward(); print(a.wo.weight.grad.dtype, a.wqkv.weight.grad.shape)
''',
    'state_dict': PRELUDE + r'''
torch.manual_seed(0)
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(10, 4); self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.ln = nn.LayerNorm(4); self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.wte.weight
        self.register_buffer("rope", torch.ones(3), persistent=False)
m = LM()
sd = m.state_dict(); print(list(sd.keys()))
print(sd["head.weight"].data_ptr() == sd["wte.weight"].data_ptr(), len(list(m.parameters())), len(list(m.named_parameters(remove_duplicate=False))))
print([n for n, _ in m.named_modules()], len(list(m.named_modules(remove_duplicate=False))))
m2 = LM()
r = m2.load_state_dict(sd); print(r, r.missing_keys, type(r).__name__)
sd2 = {k: v for k, v in sd.items() if k != "ln.bias"}; sd2["extra.weight"] = torch.zeros(1)
r = m2.load_state_dict(sd2, strict=False); print(r)
try:
    m2.load_state_dict(sd2)
except RuntimeError as e:
    print(e)
bad = dict(sd); bad["blocks.0.weight"] = torch.zeros(5, 4)
try:
    m2.load_state_dict(bad)
except RuntimeError as e:
    print(e)
bad2 = dict(sd); bad2["ln.weight"] = torch.zeros(4, dtype=torch.float64); m2.load_state_dict(bad2); print(m2.ln.weight.dtype, m2.ln.weight)
sd3 = {"module." + k: v for k, v in sd.items()}
torch.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd3, "module."); print(list(sd3)[:3])
r = m2.load_state_dict({k.replace("blocks", "layers"): v for k, v in sd.items()}, strict=False); print(r.missing_keys, r.unexpected_keys)
print(m.blocks.state_dict(prefix="x.", keep_vars=True)["x.0.bias"].requires_grad, m.state_dict()["ln.weight"].requires_grad)
feats = {}
def hook(mod, inp, out):
    feats[mod.__class__.__name__ + str(len(feats))] = (tuple(inp[0].shape), tuple(out.shape))
hs = [b.register_forward_hook(hook) for b in m.blocks]
def pre(mod, args, kwargs):
    print("pre", type(args).__name__, len(args), sorted(kwargs))
    return args, kwargs
h2 = m.ln.register_forward_pre_hook(pre, with_kwargs=True)
x = m.wte(torch.tensor([[1, 2]]))
for b in m.blocks:
    x = b(x)
y = m.ln(x); print(feats, y.shape)
for h in hs:
    h.remove()
h2.remove()
def fh(mod, args, kwargs, out):
    return out * 0
hh = m.ln.register_forward_hook(fh, with_kwargs=True); print(m.ln(x).abs().sum()); hh.remove()
def bad_hook(mod, args):
    return 5
hb = m.ln.register_forward_pre_hook(bad_hook)
try:
    m.ln(x)
except Exception as e:
    print(type(e).__name__, e)
hb.remove()
def pre2(mod, args):
    return args[0] * 2
hp = m.ln.register_forward_pre_hook(pre2); print(m.ln(x).shape); hp.remove()
m.ln.register_full_backward_hook(lambda mod, gi, go: print("bwd", [None if g is None else tuple(g.shape) for g in gi], [tuple(g.shape) for g in go]))
m.ln(x.detach().requires_grad_()).sum().backward()
print(m._forward_hooks, len(m.ln._backward_hooks))
print(m.ln._version if hasattr(m.ln, "_version") else "")
''',
    'not_a_tensor': PRELUDE + r'''
import numpy as np
torch.manual_seed(0)
mods = [nn.Linear(2, 2), nn.Conv1d(2, 2, 1), nn.Conv2d(2, 2, 3, padding=1, padding_mode="reflect"), nn.BatchNorm1d(2), nn.LayerNorm(2), nn.GroupNorm(1, 2), nn.RMSNorm(2),
        nn.Embedding(3, 2), nn.EmbeddingBag(3, 2), nn.GELU(), nn.SiLU(inplace=True), nn.Tanh(), nn.Sigmoid(), nn.Softmax(-1), nn.Dropout2d(), nn.AdaptiveAvgPool2d(1),
        nn.Upsample(scale_factor=2), nn.PixelShuffle(2), nn.MultiheadAttention(2, 1), nn.TransformerEncoderLayer(2, 1, 4), nn.ZeroPad2d(1), nn.LeakyReLU(inplace=True),
        nn.CrossEntropyLoss(), nn.BCEWithLogitsLoss(), nn.NLLLoss(), nn.BCELoss()]
for val in (np.ones((2, 2), dtype=np.float32), [[1.0, 2.0]], None, 3.0):
    for m in mods:
        args = (val, torch.ones(2, 2)) if "Loss" in type(m).__name__ else ((val, val, val) if isinstance(m, nn.MultiheadAttention) else (val,))
        try:
            r = m(*args); print(type(m).__name__, "ok", type(r).__name__)
        except Exception as e:
            print(type(m).__name__, type(e).__name__, str(e).split("\n")[0][:200])
def bad_hook(mod, args):
    return 5
ln = nn.LayerNorm(4); ln.register_forward_pre_hook(bad_hook)
try:
    ln(torch.randn(2, 4))
except Exception as e:
    print(type(e).__name__, e)
x = np.random.RandomState(0).randn(3, 2).astype(np.float32)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
try:
    model(x)
except TypeError as e:
    print(e)
print(model(torch.from_numpy(x)).shape, model(torch.tensor(x)).dtype)
try:
    model(torch.from_numpy(x.astype(np.float64)))
except RuntimeError as e:
    print(e)
for f in (lambda v: F.gelu(v), lambda v: F.silu(v, inplace=True), lambda v: F.softmax(v), lambda v: F.log_softmax(v, -1), lambda v: F.softmin(v, -1),
          lambda v: F.interpolate(v, scale_factor=2), lambda v: F.one_hot(v, 3), lambda v: F.relu_(v), lambda v: F.unfold(v, 2), lambda v: F.batch_norm(v, None, None)):
    for v in (5, x, None):
        try:
            f(v)
        except Exception as e:
            print(type(e).__name__, str(e).split("\n")[0][:150])
''',
    'warnings': PRELUDE + r'''
import warnings
torch.manual_seed(0)
def show(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f()
        except Exception as e:
            print("error", type(e).__name__, str(e).split("\n")[0][:120])
        for x in w:
            print(x.category.__name__, str(x.message).split(" (Triggered")[0][:300])
        print("--")
m = nn.Linear(2, 2); opt = torch.optim.SGD(m.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
show(lambda: sched.step())
show(lambda: torch.optim.lr_scheduler.StepLR(opt, 1).step(3))
show(lambda: sched.get_lr())
show(lambda: F.mse_loss(torch.randn(3, 1), torch.randn(3)))
show(lambda: F.l1_loss(torch.randn(3), torch.randn(3, 1)))
show(lambda: F.softmax(torch.randn(2, 3)))
show(lambda: F.log_softmax(torch.randn(2, 3)))
show(lambda: torch.tensor(torch.ones(2)))
show(lambda: nn.functional.sigmoid(torch.ones(1)))
show(lambda: F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2))
show(lambda: F.interpolate(torch.ones(1, 1, 2, 2), scale_factor=2, mode="bilinear"))
show(lambda: nn.init.normal(torch.empty(2)))
show(lambda: torch.nn.utils.clip_grad_norm(m.parameters(), 1.0))
show(lambda: (torch.ones(2, requires_grad=True) * 2).grad)
show(lambda: torch.load.__name__)
show(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, norm_first=True), 2))
show(lambda: nn.MultiheadAttention(4, 2)(torch.ones(3, 4), torch.ones(3, 4), torch.ones(3, 4), key_padding_mask=torch.zeros(3, dtype=torch.bool), attn_mask=torch.zeros(3, 3)))
show(lambda: nn.GRU(2, 2, num_layers=1, dropout=0.5))
show(lambda: nn.LSTM(2, 2, batch_first=True)(torch.randn(1, 3, 2))[0].shape)
show(lambda: torch.cuda.amp.GradScaler())
show(lambda: torch.amp.GradScaler("cpu").step(opt))
show(lambda: torch.ones(3).resize_(2))
show(lambda: torch.nn.utils.weight_norm(nn.Linear(2, 2)))
show(lambda: torch.ones(2, 3).T.shape)
show(lambda: torch.symeig if hasattr(torch, "symeig") else 0)
show(lambda: torch.nn.functional.dropout(torch.ones(2), p=0.5, training=True, inplace=False).shape)
show(lambda: torch.nn.Softmax()(torch.ones(2, 2)))
show(lambda: nn.CrossEntropyLoss(size_average=True))
show(lambda: nn.MSELoss(reduce=False))
show(lambda: torch.autograd.Variable(torch.ones(1)))
show(lambda: torch.utils.data.DataLoader(range(4), num_workers=0, prefetch_factor=2))
show(lambda: torch.tensor([1, 2]).float().numpy().flags.writeable)
show(lambda: torch.from_numpy(__import__("numpy").ones(2).astype("f")[::-1].copy()).shape)
show(lambda: torch.as_tensor(__import__("numpy").ones(2)).dtype)
show(lambda: torch.optim.Adam(m.parameters(), lr=0.1, amsgrad=True, foreach=False).step())
show(lambda: torch.nn.utils.rnn.pack_padded_sequence(torch.randn(3, 2, 1), [3, 1], enforce_sorted=True).data.shape)
''',
    'rl_dists': PRELUDE + r'''
torch.manual_seed(0)
D = torch.distributions
mu = torch.randn(2, 3, requires_grad=True); log_std = torch.zeros(3, requires_grad=True)
dist = D.Normal(mu, log_std.exp())
print(dist, dist.batch_shape, dist.event_shape)
a = dist.rsample(); lp = dist.log_prob(a).sum(-1); print(a.shape, lp.round(decimals=4), lp.grad_fn.name())
ind = D.Independent(D.Normal(mu, log_std.exp()), 1); print(ind, ind.batch_shape, ind.event_shape, ind.log_prob(a).round(decimals=4), ind.entropy().round(decimals=4))
tanh = D.TransformedDistribution(D.Normal(mu, log_std.exp()), [D.transforms.TanhTransform(cache_size=1)])
s = tanh.rsample(); print(s.abs().max() < 1, tanh.log_prob(s).sum(-1).round(decimals=4))
squashed = torch.tanh(a); corr = (2 * (math.log(2) - a - F.softplus(-2 * a))).sum(-1); print((lp - corr).round(decimals=4))
logits = torch.randn(2, 4); mask = torch.tensor([[True, True, False, True], [False, True, True, True]])
masked = torch.where(mask, logits, torch.tensor(torch.finfo(logits.dtype).min))
cat = D.Categorical(logits=masked); print(cat, cat.probs.round(decimals=4), cat.entropy().round(decimals=4))
act = cat.sample(); print(act, cat.log_prob(act).round(decimals=4), cat.logits.round(decimals=2))
cat2 = D.Categorical(logits=logits.masked_fill(~mask, float("-inf"))); print(cat2.entropy(), cat2.probs.round(decimals=4))
print(D.kl_divergence(cat, D.Categorical(logits=logits)).round(decimals=4), D.kl_divergence(dist, D.Normal(0., 1.)).shape)
old_lp = lp.detach() + 0.1
ratio = (lp - old_lp).exp(); adv = torch.tensor([1.0, -0.5])
surr = torch.min(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv); loss = -surr.mean() - 0.01 * dist.entropy().sum(-1).mean()
loss.backward(); print(round(loss.item(), 4), mu.grad.round(decimals=4), log_std.grad.round(decimals=4))
mvn = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]])); print(mvn, mvn.covariance_matrix, mvn.log_prob(torch.ones(2)).round(decimals=4), mvn.entropy().round(decimals=4))
b = D.Bernoulli(logits=torch.tensor([0.0, 2.0])); print(b, b.sample((3,)), b.log_prob(torch.tensor([1.0, 0.0])).round(decimals=4), b.entropy().round(decimals=4))
try:
    D.Categorical(probs=torch.tensor([0.5, -0.1, 0.6]))
except ValueError as e:
    print(e)
try:
    D.Normal(torch.zeros(2), torch.tensor([1.0, 0.0]))
except ValueError as e:
    print(e)
try:
    dist.log_prob(torch.ones(5))
except (ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
g = D.Gumbel(0., 1.); print(g.sample((2,)).round(decimals=4), g.mean.round(decimals=4))
beta = D.Beta(torch.tensor([2.0]), torch.tensor([3.0])); print(beta.rsample().requires_grad, beta.mean, beta.variance.round(decimals=4))
mix = D.MixtureSameFamily(D.Categorical(torch.ones(2)), D.Normal(torch.tensor([-1.0, 1.0]), torch.tensor([0.5, 0.5]))); print(mix, mix.log_prob(torch.tensor(0.0)).round(decimals=4), mix.mean)
''',
    'logging': PRELUDE + r'''
torch.manual_seed(0)
def tryit(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
loss = torch.tensor(0.123456, requires_grad=True) * 2
tryit(lambda: f"{loss:.4f}")
tryit(lambda: f"{loss.item():.4f}")
tryit(lambda: f"{torch.tensor([1.0, 2.0]):.2f}")
tryit(lambda: "%.3f" % loss)
tryit(lambda: "%d" % torch.tensor(3))
tryit(lambda: "{:>8.3f}".format(torch.tensor(2.5)))
tryit(lambda: f"{torch.tensor(7):05d}")
tryit(lambda: f"{torch.tensor(True)}")
tryit(lambda: f"{torch.tensor(3.5, dtype=torch.bfloat16):.3f}")
tryit(lambda: round(torch.tensor(2.567), 2))
tryit(lambda: round(torch.tensor([2.567, 1.234]), 1))
tryit(lambda: round(torch.tensor(2.5)))
tryit(lambda: float(torch.tensor([1.5])))
tryit(lambda: float(torch.tensor([1.5, 2.5])))
tryit(lambda: int(torch.tensor(3.9)))
tryit(lambda: int(torch.tensor([[-3.9]])))
tryit(lambda: torch.tensor([1, 2]).item())
tryit(lambda: torch.tensor([]).item())
tryit(lambda: bool(torch.tensor([1, 2])))
tryit(lambda: bool(torch.tensor([])))
tryit(lambda: complex(torch.tensor(1 + 2j)))
tryit(lambda: torch.tensor(5).__index__())
tryit(lambda: [0, 1, 2, 3][torch.tensor(2)])
tryit(lambda: [0, 1, 2, 3][torch.tensor(2.0)])
tryit(lambda: range(torch.tensor(3)))
tryit(lambda: "abc" * torch.tensor(2))
tryit(lambda: math.sqrt(torch.tensor(4.0)))
tryit(lambda: math.isnan(torch.tensor(float("nan"))))
tryit(lambda: math.floor(torch.tensor(2.7)))
tryit(lambda: divmod(torch.tensor(7), 2))
tryit(lambda: abs(torch.tensor(-2)))
tryit(lambda: torch.tensor(1) in {torch.tensor(1): 0})
tryit(lambda: len(torch.tensor(3)))
tryit(lambda: len(torch.zeros(4, 2)))
tryit(lambda: list(torch.arange(3)))
tryit(lambda: list(torch.tensor(3)))
tryit(lambda: max(torch.tensor([1, 5, 3])))
tryit(lambda: sum(torch.tensor([1.5, 2.5])))
tryit(lambda: sorted(torch.tensor([3, 1, 2])))
tryit(lambda: torch.tensor([1, 2]) == [1, 2])
tryit(lambda: torch.tensor(2) ** torch.tensor(-1))
tryit(lambda: 2 ** torch.tensor([-1]))
tryit(lambda: torch.tensor([1, 2]) / 0)
tryit(lambda: torch.tensor([1, 2]) // 0)
tryit(lambda: torch.tensor([1, 2]) % 0)
tryit(lambda: torch.tensor(3) @ torch.tensor(3))
tryit(lambda: -torch.tensor([True]))
tryit(lambda: ~torch.tensor([1.5]))
tryit(lambda: torch.tensor([1, 2]).tolist())
tryit(lambda: torch.tensor(2.5, dtype=torch.float16).tolist())
tryit(lambda: torch.tensor([0.1, 0.2], dtype=torch.bfloat16).tolist())
tryit(lambda: torch.tensor([1.5]).numpy().dtype)
tryit(lambda: str(torch.float32) + "|" + repr(torch.bfloat16) + "|" + str(torch.device("cpu")) + "|" + repr(torch.Size([2, 3])))
tryit(lambda: torch.Size([2, 3]) + (4,))
tryit(lambda: torch.Size([2, 3]).numel())
tryit(lambda: torch.zeros(2, 3).size(-1))
tryit(lambda: torch.zeros(2, 3).size(2))
tryit(lambda: torch.zeros(2, 3).shape[2])
tryit(lambda: print("loss:", loss, "acc", torch.tensor(0.5), sep=" | "))
tryit(lambda: "{}".format(torch.zeros(2, 2, dtype=torch.int64)))
tryit(lambda: str(torch.tensor([1e-8, 1.0])))
tryit(lambda: torch.tensor(1.0).__format__(""))
tryit(lambda: format(torch.tensor([1.0]), ""))
''',
    'inference_writes': PRELUDE + r'''
with torch.inference_mode():
    idx = torch.tensor([0, 1]); m = torch.tensor([True, False]); v = torch.tensor([5.0, 6.0])
w = torch.randn(2, 2, requires_grad=True)
def run(name, f):
    try:
        f(); print(name, "ok")
    except RuntimeError as e:
        print(name, "ERR", str(e)[:40])
def f1():
    y = w * 1; y[idx] = 0.0
run("index_put_scalar", f1)
def f2():
    y = w * 1; y[idx, idx] = w[0]
run("index_put_tensor", f2)
def f3():
    y = w * 1; y[m] = 1.0
run("mask_put", f3)
def f4():
    y = w * 1; y[0] = v
run("copy_inf_value", f4)
def f5():
    y = w * 1; y.index_put_((idx,), torch.ones(2, 2), accumulate=True)
run("index_put_acc", f5)
run("index_add", lambda: w.index_add(0, idx, w))
run("scatter", lambda: w.scatter(0, idx.view(2, 1).expand(2, 2), w))
run("gather_inf", lambda: w.gather(0, idx.view(2, 1).expand(2, 2)))
run("gather_inf2", lambda: w.gather(1, torch.stack([idx, idx])))
run("take_along", lambda: torch.take_along_dim(w, idx.view(2, 1), 1))
run("masked_fill", lambda: w.masked_fill(m.view(2, 1), 0.0))
run("masked_scatter", lambda: w.masked_scatter(m.view(2, 1).expand(2, 2), torch.ones(4)))
run("where", lambda: torch.where(m.view(2, 1), w, 0.0))
run("mul_inf", lambda: w * v)
run("add_inf", lambda: w + v)
run("cross_entropy_inf_target", lambda: F.cross_entropy(w, idx))
run("nll_inf", lambda: F.nll_loss(w, idx))
run("mse_inf", lambda: F.mse_loss(w, v.expand(2, 2)))
run("index_select", lambda: w.index_select(0, idx))
run("embedding_bag", lambda: F.embedding_bag(idx, w, torch.tensor([0])))
run("one_hot_mul", lambda: w * F.one_hot(idx, 2))
run("lstm_inf_input", lambda: nn.LSTM(2, 2)(torch.zeros(1, 2, 2).add(v)))
''',
    'data': PRELUDE + r'''
import collections
import numpy as np
torch.manual_seed(0)
def tryit(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:200])
class DS(torch.utils.data.Dataset):
    def __init__(self, n=5): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        return {"input_ids": torch.arange(i, i + 3), "label": i % 2, "text": f"s{i}", "mask": np.ones(2, dtype=np.float32) * i, "score": float(i) / 2}
dl = torch.utils.data.DataLoader(DS(), batch_size=2)
for b in dl:
    print({k: (v.dtype, v.shape) if hasattr(v, "shape") else v for k, v in b.items()})
print(next(iter(dl))["label"], next(iter(dl))["score"], next(iter(dl))["mask"])
P = collections.namedtuple("P", ["x", "y"])
print(torch.utils.data.default_collate([P(torch.ones(2), 1), P(torch.zeros(2), 2)]))
tryit(lambda: torch.utils.data.default_collate([torch.ones(2), torch.ones(3)]))
tryit(lambda: torch.utils.data.default_collate([{"a": 1}, {"b": 2}]))
tryit(lambda: torch.utils.data.default_collate([[1, 2], [3]]))
tryit(lambda: torch.utils.data.default_collate([object(), object()]))
tryit(lambda: torch.utils.data.default_collate([np.array(["a"]), np.array(["b"])]))
tryit(lambda: torch.utils.data.default_collate([(1, "a"), (2, "b")]))
tryit(lambda: torch.utils.data.default_collate([True, False]))
tryit(lambda: torch.utils.data.default_collate([np.float32(1.5), np.float32(2.5)]))
tryit(lambda: torch.utils.data.default_collate([np.int64(1), np.int64(2)]).dtype)
tryit(lambda: torch.utils.data.default_convert([np.ones(2), (np.zeros(1), 3)]))
def pad_collate(batch):
    xs = [torch.tensor(b[0]) for b in batch]; ys = torch.tensor([b[1] for b in batch])
    lens = torch.tensor([len(x) for x in xs])
    return torch.nn.utils.rnn.pad_sequence(xs, batch_first=True, padding_value=-1), lens, ys
data = [([1, 2, 3], 0), ([4], 1), ([5, 6], 0)]
dl2 = torch.utils.data.DataLoader(data, batch_size=3, collate_fn=pad_collate)
print(next(iter(dl2)))
print(torch.nn.utils.rnn.pad_sequence([torch.ones(2), torch.ones(3)], batch_first=True, padding_side="left"))
class It(torch.utils.data.IterableDataset):
    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        print("worker", info)
        return iter(range(5))
dl3 = torch.utils.data.DataLoader(It(), batch_size=2)
print(list(dl3))
tryit(lambda: len(dl3))
tryit(lambda: torch.utils.data.DataLoader(It(), shuffle=True))
tryit(lambda: torch.utils.data.DataLoader(DS(), batch_size=None).__iter__().__next__()["label"])
tryit(lambda: torch.utils.data.DataLoader(DS(), batch_size=2, drop_last=True).__len__())
tryit(lambda: torch.utils.data.DataLoader(DS(), batch_sampler=torch.utils.data.BatchSampler(range(5), 2, False), batch_size=2))
tryit(lambda: torch.utils.data.DataLoader(DS(), num_workers=-1))
tryit(lambda: torch.utils.data.DataLoader(DS(), timeout=-1))
tryit(lambda: torch.utils.data.DataLoader(DS(), persistent_workers=True))
tryit(lambda: list(torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(4), torch.arange(4) * 2), batch_size=3)))
tryit(lambda: torch.utils.data.TensorDataset(torch.arange(4), torch.arange(3)))
tryit(lambda: torch.utils.data.ChainDataset([It(), It()]).__iter__().__next__())
tryit(lambda: torch.utils.data.StackDataset(a=torch.utils.data.TensorDataset(torch.arange(3)), b=torch.utils.data.TensorDataset(torch.arange(3) + 10))[1])
tryit(lambda: list(torch.utils.data.DistributedSampler(range(10), num_replicas=2, rank=1, shuffle=False)))
tryit(lambda: list(torch.utils.data.DistributedSampler(range(10), num_replicas=3, rank=0, shuffle=True, seed=1, drop_last=True)))
tryit(lambda: list(torch.utils.data.SubsetRandomSampler([3, 5, 7], generator=torch.Generator().manual_seed(0))))
''',
    'compile': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
cm = torch.compile(m)
print(type(cm).__name__, cm._orig_mod is m, isinstance(cm, nn.Module))
print(list(cm.state_dict().keys()))
print(cm)
x = torch.randn(4, 2); print(torch.allclose(cm(x), m(x)), cm(x).grad_fn is not None)
sd = cm.state_dict()
unwanted_prefix = '_orig_mod.'
for k, v in list(sd.items()):
    if k.startswith(unwanted_prefix):
        sd[k[len(unwanted_prefix):]] = sd.pop(k)
m2 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)); print(m2.load_state_dict(sd))
print([n for n, _ in cm.named_parameters()][:2], len(list(cm.parameters())))
print(cm.training, cm.eval().training, m.training)
cm[0] if hasattr(cm, "__getitem__") else None
print(cm._orig_mod[0])
@torch.compile
def f(a, b):
    return (a * b).sum()
print(f(torch.ones(3), torch.full((3,), 2.0)), type(f).__name__ if False else "")
@torch.compile(mode="max-autotune", fullgraph=True, dynamic=False)
def g(a):
    return a.relu() + 1
print(g(torch.tensor([-1.0, 2.0])))
print(torch.compiler.is_compiling(), torch._dynamo.is_compiling() if hasattr(torch, "_dynamo") else None)
try:
    torch.compile(m, mode="fastest")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.compile(m, backend="nonexistent")(x)
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0][:100])
opt = torch.optim.AdamW(cm.parameters(), lr=0.1)
loss = cm(x).pow(2).mean(); loss.backward(); opt.step(); print(round(loss.item(), 4), m[0].weight.grad is not None)
print(hasattr(cm, "_orig_mod"), getattr(cm, "dynamo_ctx", None) is not None if False else "")
m.compile(); print(type(m).__name__, list(m.state_dict().keys())[:1])
''',
    'version_errors': PRELUDE + r'''
torch.manual_seed(0)
def tryit(f):
    try:
        f(); print("ok")
    except RuntimeError as e:
        print(str(e).split("\n")[0])
def gan_bug():
    G = nn.Linear(2, 2); D = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    optD = torch.optim.SGD(D.parameters(), lr=0.1)
    fake = G(torch.randn(3, 2))
    d_out = D(fake)
    lossD = d_out.mean(); lossD.backward(retain_graph=True); optD.step()
    lossG = -d_out.mean(); lossG.backward()
tryit(gan_bug)
def gan_bug2():
    G = nn.Linear(2, 2); D = nn.Linear(2, 1, bias=False)
    optD = torch.optim.Adam(D.parameters(), lr=0.1)
    fake = G(torch.randn(3, 2)); out = D(fake)
    out.sum().backward(retain_graph=True); optD.step(); out.sum().backward()
tryit(gan_bug2)
def conv_bug():
    c = nn.Conv2d(1, 1, 3); x = torch.randn(1, 1, 5, 5, requires_grad=True); y = c(x)
    with torch.no_grad():
        c.weight.mul_(2)
    y.sum().backward()
tryit(conv_bug)
def view_bug():
    a = torch.randn(4, requires_grad=True); b = a * 2; c = b.view(2, 2); d = c.sin(); b.add_(1); d.sum().backward()
tryit(view_bug)
def split_bug():
    a = torch.randn(4, requires_grad=True); b = a.exp(); p, q = b.split(2); r = p * q; b.mul_(2); r.sum().backward()
tryit(split_bug)
def sigmoid_bug():
    a = torch.randn(3, requires_grad=True); s = a.sigmoid(); s[0] = 0; s.sum().backward()
tryit(sigmoid_bug)
def tanh_bug():
    a = torch.randn(3, requires_grad=True); s = torch.tanh(a); t = s * 2; s.add_(1); t.sum().backward(); print(a.grad)
tryit(tanh_bug)
def param_bug():
    lin = nn.Linear(3, 2); x = torch.randn(4, 3, requires_grad=True); y = lin(x); lin.weight.data.zero_(); y.sum().backward(); print(x.grad.abs().sum())
tryit(param_bug)
def bn_bug():
    bn = nn.BatchNorm1d(3); x = torch.randn(4, 3, requires_grad=True); y = bn(x); y2 = bn(x); y.sum().backward(); print(bn.num_batches_tracked)
tryit(bn_bug)
def relu_inplace_bug():
    m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(inplace=True)); x = torch.randn(3, 2); y = m(x); z = y * y; y.add_(1); z.sum().backward()
tryit(relu_inplace_bug)
def exp_bug():
    a = torch.randn(2, 3, requires_grad=True); e = a.exp(); e /= e.sum(-1, keepdim=True); e.sum().backward()
tryit(exp_bug)
def pow_bug():
    a = torch.randn(2, 3, requires_grad=True) + 0; p = a ** 2; a.zero_(); p.sum().backward()
tryit(pow_bug)
def leaf_view_bug():
    a = torch.randn(3, requires_grad=True); v = a[:2]; v.mul_(2)
tryit(leaf_view_bug)
def detached_bug():
    a = torch.randn(3, requires_grad=True); b = a.sin(); b.detach().zero_(); b.sum().backward(); print(a.grad is not None)
tryit(detached_bug)
def double_backward():
    a = torch.randn(3, requires_grad=True); y = (a * a).sum(); g, = torch.autograd.grad(y, a, create_graph=True); g.sum().backward(); print(a.grad.round(decimals=4))
tryit(double_backward)
def retain_graph_bug():
    a = torch.randn(3, requires_grad=True); y = a.exp().sum(); y.backward(); y.backward()
tryit(retain_graph_bug)
def lstm_bug():
    l = nn.LSTM(2, 3); x = torch.randn(4, 1, 2); h = None; out = []
    for t in range(2):
        o, h = l(x[t:t + 1], h); out.append(o)
    torch.cat(out).sum().backward(); print(l.weight_hh_l0.grad.shape)
    o, h2 = l(x[2:3], h); h[0].add_(1); o.sum().backward()
tryit(lstm_bug)
''',
    'vit_train': PRELUDE + r'''
torch.manual_seed(0)
class PatchEmbed(nn.Module):
    def __init__(self, img=8, p=4, c=3, d=16):
        super().__init__(); self.proj = nn.Conv2d(c, d, p, p); self.num_patches = (img // p) ** 2
    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)
class Block(nn.Module):
    def __init__(self, d=16, h=2, dp=0.1):
        super().__init__()
        self.norm1 = nn.LayerNorm(d, eps=1e-6); self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.ls1 = nn.Parameter(1e-1 * torch.ones(d)); self.norm2 = nn.LayerNorm(d, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Dropout(0.0), nn.Linear(4 * d, d))
        self.ls2 = nn.Parameter(1e-1 * torch.ones(d)); self.dp = dp
    def drop_path(self, x):
        if not self.training or self.dp == 0:
            return x
        keep = 1 - self.dp
        mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep).div_(keep)
        return x * mask
    def forward(self, x):
        y = self.norm1(x)
        x = x + self.drop_path(self.ls1 * self.attn(y, y, y, need_weights=False)[0])
        return x + self.drop_path(self.ls2 * self.mlp(self.norm2(x)))
class ViT(nn.Module):
    def __init__(self, nc=5, d=16):
        super().__init__()
        self.patch_embed = PatchEmbed(d=d)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d)); self.pos_embed = nn.Parameter(torch.zeros(1, 5, d))
        self.blocks = nn.Sequential(*[Block(d) for _ in range(2)]); self.norm = nn.LayerNorm(d, eps=1e-6); self.head = nn.Linear(d, nc)
        nn.init.trunc_normal_(self.pos_embed, std=.02); nn.init.trunc_normal_(self.cls_token, std=.02)
        self.apply(self._init)
    def _init(self, m):
        if isinstance(m, nn.Linear):
            nn.init.trunc_normal_(m.weight, std=.02)
            if m.bias is not None:
                nn.init.constant_(m.bias, 0)
        elif isinstance(m, nn.LayerNorm):
            nn.init.constant_(m.bias, 0); nn.init.constant_(m.weight, 1.0)
    def forward(self, x):
        x = self.patch_embed(x)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1) + self.pos_embed
        x = self.norm(self.blocks(x))
        return self.head(x[:, 0])
model = ViT()
print(sum(p.numel() for p in model.parameters()), model.blocks[0].attn)
no_wd = {n for n, p in model.named_parameters() if p.ndim <= 1 or n.endswith(".bias") or n in ("cls_token", "pos_embed")}
print(sorted(no_wd)[:6], len(no_wd))
opt = torch.optim.AdamW([{"params": [p for n, p in model.named_parameters() if n not in no_wd], "weight_decay": 0.05},
                         {"params": [p for n, p in model.named_parameters() if n in no_wd], "weight_decay": 0.0}], lr=1e-3)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 3) * 0.5 * (1 + math.cos(math.pi * s / 10)))
ema = {k: v.detach().clone() for k, v in model.state_dict().items()}
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
for step in range(6):
    x = torch.randn(4, 3, 8, 8); y = torch.randint(0, 5, (4,))
    lam = 0.7; idx = torch.randperm(4)
    xm = lam * x + (1 - lam) * x[idx]
    out = model(xm); loss = lam * crit(out, y) + (1 - lam) * crit(out, y[idx])
    opt.zero_grad(); loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step(); sched.step()
    with torch.no_grad():
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                ema[k].mul_(0.9).add_(v, alpha=0.1)
    print(step, f"{loss.item():.4f}", f"{gn.item():.4f}", f"{sched.get_last_lr()[0]:.6f}")
model.eval()
with torch.no_grad():
    logits = model(torch.randn(2, 3, 8, 8)); print(logits.softmax(-1).round(decimals=4), logits.argmax(-1))
print(ema["head.bias"].round(decimals=4))
''',
    'hooks_misc': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Linear(3, 2)
opts = {p: torch.optim.SGD([p], lr=0.1) for p in m.parameters()}
def hook(p):
    print("post-acc", tuple(p.shape), p.grad is not None)
    opts[p].step(); opts[p].zero_grad()
hs = [p.register_post_accumulate_grad_hook(hook) for p in m.parameters()]
before = m.weight.detach().clone()
m(torch.randn(4, 3)).sum().backward()
print(m.weight.grad, (m.weight - before).abs().sum().round(decimals=4))
for h in hs:
    h.remove()
x = torch.randn(3, requires_grad=True) * 2
try:
    x.register_post_accumulate_grad_hook(lambda t: None)
except RuntimeError as e:
    print(e)
class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x); ctx.lo, ctx.hi = lo, hi
        idx = (x > lo).nonzero()
        ctx.mark_non_differentiable(idx)
        return x.clamp(lo, hi), idx
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g, gidx):
        x, = ctx.saved_tensors
        print("gidx", gidx)
        return g * ((x > ctx.lo) & (x < ctx.hi)).float(), None, None
a = torch.randn(5, requires_grad=True)
y, idx = Clamp.apply(a, -0.5, 0.5); print(y.grad_fn.name(), idx.requires_grad, idx.dtype)
y.sum().backward(); print(a.grad)
class Mat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print("grads", g1 is None, g2 is None)
        return (g1 if g1 is not None else 0) * 2 + (g2 * 3 if g2 is not None else 0)
b = torch.ones(2, requires_grad=True); o1, o2 = Mat.apply(b); o1.sum().backward(); print(b.grad)
print(torch.autograd.functional.jacobian(lambda t: t ** 2, torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.vjp(lambda t: t.exp(), torch.zeros(2), torch.ones(2)))
print(torch.autograd.functional.jvp(lambda t: t.sin(), torch.zeros(2), torch.ones(2)))
theta = torch.tensor([[[1.0, 0.0, 0.1], [0.0, 1.0, 0.0]]])
grid = F.affine_grid(theta, (1, 1, 3, 3), align_corners=False); print(grid.shape, grid[0, 0].round(decimals=4))
img = torch.arange(9.).view(1, 1, 3, 3); print(F.grid_sample(img, grid, align_corners=False).round(decimals=4))
print(F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=True).round(decimals=4))
emb = nn.Embedding(4, 3, max_norm=1.0); w0 = emb.weight.detach().clone(); out = emb(torch.tensor([1, 1, 2]))
print(out.norm(dim=-1).round(decimals=4), (emb.weight.norm(dim=-1) <= 1.0001).tolist(), torch.equal(emb.weight[0], w0[0]))
sn = nn.utils.spectral_norm(nn.Linear(3, 3)); print([n for n, _ in sn.named_parameters()], [n for n, _ in sn.named_buffers()])
y = sn(torch.randn(2, 3)); print(y.shape, round(torch.linalg.matrix_norm(sn.weight, 2).item(), 3))
pn = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 3)); print(type(pn.parametrizations.weight[0]).__name__, pn(torch.randn(1, 3)).shape)
on = nn.utils.parametrizations.orthogonal(nn.Linear(3, 3)); print(torch.allclose(on.weight @ on.weight.T, torch.eye(3), atol=1e-5))
wn = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2)); print(sorted(n for n, _ in wn.named_parameters()), wn.parametrizations.weight.original0.shape)
print(torch.cdist(torch.randn(2, 3), torch.randn(4, 3), compute_mode="donot_use_mm_for_euclid_dist").shape)
''',
    'printopts': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(3, 12) * 100
torch.set_printoptions(precision=3, sci_mode=False)
print(x)
torch.set_printoptions(linewidth=60)
print(x[:2])
torch.set_printoptions(profile="short"); print(torch.randn(20, 20) * 1e-3)
torch.set_printoptions(profile="default")
print(torch.arange(2000).view(40, 50))
print(torch.randn(1001))
torch.set_printoptions(threshold=5, edgeitems=1); print(torch.arange(10.) / 3)
torch.set_printoptions(profile="default")
torch.set_printoptions(sci_mode=True); print(torch.tensor([1.0, 2.5]))
torch.set_printoptions(profile="default"); torch.set_printoptions(sci_mode=None)
print(torch.tensor([1e-5, 1e5]), torch.tensor([1e-3, 1e3]), torch.tensor([0.0001234, 123.4]))
print(torch.tensor([123456789.0]), torch.tensor([1e16]), torch.tensor([-0.0, 0.0]), torch.tensor([1.0, float("nan")]) * 1e10)
print(torch.randn(2, 3).to(torch.bfloat16) * 1000, torch.randn(4).half() * 1e-4)
print(torch.tensor([[-1, 100], [5, -2000]]), torch.tensor([[True, False]]), torch.zeros(2, 0, 3))
print(torch.randn(2, 2, 2, 2).round(decimals=2))
print(torch.full((2, 3), float("inf")), torch.tensor([1, 2], dtype=torch.uint8), torch.tensor(-3, dtype=torch.int8))
print(torch.complex(torch.randn(3), torch.randn(3)) * 100)
print(torch.randn(3, requires_grad=True) * 1, torch.ones(2, names=None) if False else "", torch.tensor([1.5]).to(torch.float64).requires_grad_())
print(repr(torch.tensor(1e-30)), repr(torch.tensor(3.14159265, dtype=torch.float64)), repr(torch.tensor(65504., dtype=torch.float16)))
print(torch.get_printoptions() if hasattr(torch, "get_printoptions") else "")
print(torch.randn(8, 8).to_sparse() if False else torch.eye(3).to_sparse())
print(torch.tensor([0.1, 0.25, 1 / 3], dtype=torch.float64) * 10)
''',
    'autocast_table': PRELUDE + r'''
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4).bfloat16(); x1 = torch.randn(1, 2, 6).bfloat16(); x3 = torch.randn(1, 2, 3, 4, 4).bfloat16()
t = torch.randint(0, 2, (1, 4, 4)); y16 = torch.rand(1, 2, 4, 4).bfloat16()
ops = {
 "reflect1d": lambda: F.pad(x1, (1, 1), mode="reflect"), "reflect2d": lambda: F.pad(x, (1, 1, 1, 1), mode="reflect"),
 "replicate1d": lambda: F.pad(x1, (1, 1), mode="replicate"), "replicate2d": lambda: F.pad(x, (1, 1, 1, 1), mode="replicate"),
 "replicate3d": lambda: F.pad(x3, (1, 1, 1, 1, 1, 1), mode="replicate"), "reflect3d": lambda: F.pad(x3, (1, 1, 1, 1, 1, 1), mode="reflect"),
 "circular": lambda: F.pad(x, (1, 1, 1, 1), mode="circular"), "constant": lambda: F.pad(x, (1, 1)),
 "reflectpad_mod": lambda: nn.ReflectionPad2d(1)(x), "conv_reflect": lambda: nn.Conv2d(2, 2, 3, padding=1, padding_mode="reflect")(x.float()),
 "nll2d": lambda: F.nll_loss(x, t), "ce2d": lambda: F.cross_entropy(x, t), "mse": lambda: F.mse_loss(x, y16), "bce": lambda: F.binary_cross_entropy(y16, y16),
 "bcel": lambda: F.binary_cross_entropy_with_logits(x, y16), "kl": lambda: F.kl_div(x, y16, reduction="batchmean"), "huber": lambda: F.huber_loss(x, y16),
 "l1": lambda: F.l1_loss(x, y16), "smoothl1": lambda: F.smooth_l1_loss(x, y16), "soft_margin": lambda: F.soft_margin_loss(x, y16),
 "max_pool3d": lambda: F.max_pool3d(x3, 2), "avg_pool3d": lambda: F.avg_pool3d(x3, 2), "adaptive_avg_pool3d": lambda: F.adaptive_avg_pool3d(x3, 1),
 "adaptive_max_pool3d": lambda: F.adaptive_max_pool3d(x3, 1), "max_pool2d": lambda: F.max_pool2d(x, 2), "avg_pool2d": lambda: F.avg_pool2d(x, 2),
 "adaptive_avg_pool2d": lambda: F.adaptive_avg_pool2d(x, 1), "upsample_nearest": lambda: F.interpolate(x, scale_factor=2), "upsample_bilinear": lambda: F.interpolate(x, scale_factor=2, mode="bilinear"),
 "grid_sample": lambda: F.grid_sample(x, torch.zeros(1, 2, 2, 2)), "prod": lambda: x.prod(), "cumprod": lambda: x.cumprod(-1), "cumsum": lambda: x.cumsum(-1),
 "softmax": lambda: x.softmax(-1), "log_softmax": lambda: x.log_softmax(-1), "layer_norm": lambda: F.layer_norm(x, (4,)), "group_norm": lambda: F.group_norm(x, 1),
 "batch_norm": lambda: F.batch_norm(x, None, None, training=True), "instance_norm": lambda: F.instance_norm(x), "norm": lambda: x.norm(), "sum": lambda: x.sum(),
 "mean": lambda: x.mean(), "exp": lambda: x.exp(), "pow": lambda: x.pow(2), "topk": lambda: x.topk(2).values, "cdist": lambda: torch.cdist(x[0], x[0]),
 "trace": lambda: x[0, 0].trace(), "quantile": lambda: torch.quantile(x.float().flatten()[:5].bfloat16(), 0.5) if False else x.flatten().float().quantile(0.5),
 "polar": lambda: torch.polar(x.float().abs(), x.float()), "stft": lambda: torch.stft(x1[0, 0].float().repeat(4), 4, return_complex=True).abs(),
 "fft": lambda: torch.fft.rfft(x1).abs(), "inverse": lambda: torch.inverse(x[0, 0] + 4 * torch.eye(4).bfloat16()), "det": lambda: torch.linalg.det(x[0, 0]),
 "pinv": lambda: torch.linalg.pinv(x[0, 0]), "svd": lambda: torch.linalg.svdvals(x[0, 0]), "cholesky": lambda: torch.linalg.cholesky((x[0, 0] @ x[0, 0].T + 4 * torch.eye(4).bfloat16())),
 "matrix_norm": lambda: torch.linalg.matrix_norm(x[0, 0]), "vector_norm": lambda: torch.linalg.vector_norm(x), "solve": lambda: torch.linalg.solve(x[0, 0] + 4 * torch.eye(4).bfloat16(), x[0, 1]),
 "ctc": lambda: F.ctc_loss(x1.permute(2, 0, 1).log_softmax(-1).expand(6, 1, 2), torch.tensor([[1]]), torch.tensor([6]), torch.tensor([1])),
 "embedding": lambda: F.embedding(torch.tensor([0]), x[0, 0]), "dropout": lambda: F.dropout(x, 0.0), "gelu": lambda: F.gelu(x), "sigmoid": lambda: x.sigmoid(),
 "multi_margin": lambda: F.multi_margin_loss(x[0, 0], torch.tensor([0, 1, 2, 3])), "triplet": lambda: F.triplet_margin_loss(x[0, 0], x[0, 1], x[0, 0].flip(0)),
 "cosine_emb": lambda: F.cosine_embedding_loss(x[0, 0], x[0, 1], torch.ones(4)), "margin_rank": lambda: F.margin_ranking_loss(x[0, 0, 0], x[0, 0, 1], torch.ones(4)),
 "hinge": lambda: F.hinge_embedding_loss(x[0, 0], torch.ones(4, 4)), "poisson": lambda: F.poisson_nll_loss(x, y16), "gaussian_nll": lambda: F.gaussian_nll_loss(x, y16, torch.ones_like(x)),
 "max_unpool2d": lambda: F.max_unpool2d(*F.max_pool2d(x, 2, return_indices=True), 2), "fractional": lambda: F.fractional_max_pool2d(x, 2, output_size=2, _random_samples=torch.full((1, 2, 2), 0.5).bfloat16()),
 "lp_pool": lambda: F.lp_pool2d(x, 2, 2), "pixel_shuffle": lambda: F.pixel_shuffle(x.repeat(1, 2, 1, 1), 2), "normalize": lambda: F.normalize(x), "cos_sim": lambda: F.cosine_similarity(x, y16),
 "pdist": lambda: F.pdist(x[0, 0]), "dist": lambda: torch.dist(x, y16), "renorm": lambda: x.renorm(2, 0, 1.0), "logsumexp": lambda: x.logsumexp(-1), "softplus": lambda: F.softplus(x),
 "erfinv": lambda: (x / 10).erfinv(), "acos": lambda: (x / 10).acos(), "rsqrt": lambda: x.abs().rsqrt(), "reciprocal": lambda: x.reciprocal(), "sinh": lambda: x.sinh(),
 "addcdiv": lambda: torch.addcdiv(x, x, y16 + 1), "addcmul": lambda: torch.addcmul(x, x, y16), "atan2": lambda: torch.atan2(x, y16), "cross": lambda: torch.linalg.cross(x[0, :, :3, :3].transpose(0, 2), y16[0, :, :3, :3].transpose(0, 2)),
 "dot": lambda: torch.dot(x.flatten(), y16.flatten()), "tensordot": lambda: torch.tensordot(x, y16, 2), "index_put": lambda: x.index_put((torch.tensor([0]),), y16[0:1]),
 "scatter_add": lambda: x.scatter_add(1, torch.zeros(1, 2, 4, 4, dtype=torch.long), y16), "bilinear": lambda: F.bilinear(x[0, 0], x[0, 1], torch.randn(2, 4, 4).bfloat16()),
 "mv": lambda: torch.mv(x[0, 0], x[0, 1, 0]), "addmv": lambda: torch.addmv(x[0, 0, 0], x[0, 0], x[0, 1, 0]), "addr": lambda: torch.addr(x[0, 0], x[0, 0, 0], x[0, 1, 0]),
 "chain_matmul": lambda: torch.linalg.multi_dot([x[0, 0], x[0, 1]]), "matrix_power": lambda: torch.linalg.matrix_power(x[0, 0], 2), "vecdot": lambda: torch.linalg.vecdot(x, y16),
 "rnn": lambda: nn.RNN(4, 3)(x[0, 0:1].float())[0], "gru_cell": lambda: nn.GRUCell(4, 3)(x[0, 0].float()), "prelu": lambda: F.prelu(x, torch.ones(1).bfloat16()),
}
with torch.autocast("cpu", dtype=torch.bfloat16):
    for name, f in ops.items():
        try:
            r = f(); print(name, r.dtype)
        except Exception as e:
            print(name, type(e).__name__, str(e).split("\n")[0][:120])
''',
    'tensordot_pdist': PRELUDE + r'''
print(torch.tensordot(torch.ones(3,4), torch.ones(1,5), dims=([1],[0])))
print(torch.tensordot(torch.ones(3,1), torch.arange(10.).view(2,5), dims=([1],[0])))
print(torch.tensordot(torch.ones(3,1), torch.ones(1,5), dims=([1],[0])))
print(torch.tensordot(torch.arange(6).view(2, 3), torch.arange(4).view(1, 4), dims=([0],[0])), torch.tensordot(torch.arange(6).view(2, 3), torch.arange(4).view(1, 4), dims=([0],[0])).dtype)
torch.manual_seed(0)
a = torch.randn(2,3,requires_grad=True); b = torch.randn(1,4, requires_grad=True)
r = torch.tensordot(a, b, dims=([0],[0])); print(r.shape, r.grad_fn.name(), r.grad_fn.next_functions[0][0].name()); r.sum().backward(); print(a.grad, b.grad)
x = torch.randn(1, 2, 4, 4); y = torch.randn(1, 2, 4, 4)
try:
    torch.tensordot(x, y, 2)
except RuntimeError as e:
    print(e)
print(torch.tensordot(x, y, dims=([0, 1], [0, 1])).shape, torch.tensordot(x, y, 0).shape, torch.tensordot(x, y, 1).shape if False else "")
try:
    torch.tensordot(torch.ones(2, 3), torch.ones(2, 4), dims=([1], [1]))
except RuntimeError as e:
    print(e)
for dt in (torch.bfloat16, torch.float16, torch.float32):
    for shape in ((3, 2), (1, 2), (3, 0)):
        try:
            print(F.pdist(torch.ones(shape, dtype=dt)))
        except Exception as e:
            print(type(e).__name__, e)
''',
    'half_kernels': PRELUDE + r'''
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    x = torch.rand(1, 1, 4, 4, 4).to(dt)
    for name, f in [('avg3d', lambda: F.avg_pool3d(x, 2)), ('lrn3d', lambda: F.local_response_norm(x[0, 0, :1].expand(1, 2, 4, 4), 2)), ('lrn1d', lambda: F.local_response_norm(x[0, 0], 2)),
                    ('lrn_mod', lambda: nn.LocalResponseNorm(2)(x)), ('adaptive_avg3d', lambda: F.adaptive_avg_pool3d(x, 2)), ('aa_bicubic', lambda: F.interpolate(x[0], size=2, mode='bicubic', antialias=True)),
                    ('aa_up', lambda: F.interpolate(x[0], size=8, mode='bilinear', antialias=True)), ('bilinear', lambda: F.interpolate(x[0], size=8, mode='bilinear')),
                    ('affine2d', lambda: F.affine_grid(torch.eye(2, 3)[None].to(dt), (1, 1, 2, 2), align_corners=False)), ('affine3d', lambda: F.affine_grid(torch.eye(3, 4)[None].to(dt), (1, 1, 2, 2, 2), align_corners=False)),
                    ('pdist', lambda: F.pdist(x[0, 0, 0])), ('aa_float', lambda: F.interpolate(x[0].float(), size=2, mode='bilinear', antialias=True))]:
        try:
            r = f(); print(dt, name, 'ok', r.dtype, round(r.float().sum().item(), 3))
        except Exception as e:
            print(dt, name, type(e).__name__, e)
try:
    F.affine_grid(torch.eye(2, 3, dtype=torch.float64)[None].long(), (1, 1, 2, 2), align_corners=False)
except Exception as e:
    print(type(e).__name__, e)
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    th = torch.randn(2, 2, 3).to(dt)
    g = F.affine_grid(th, (2, 1, 3, 5), align_corners=False); print(g.dtype, g[1, 2])
    g = F.affine_grid(torch.randn(1, 3, 4).to(dt), (1, 1, 2, 3, 3), align_corners=True); print(g.dtype, g[0, 1, 2])
    th2 = torch.randn(1, 2, 3).to(dt).requires_grad_(); g = F.affine_grid(th2, (1, 1, 3, 3), align_corners=False); g.float().pow(2).sum().backward(); print(th2.grad)
''',
    'dtype_refusals': PRELUDE + r'''
torch.manual_seed(0)
def t(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, e)
b = torch.ones(3, dtype=torch.bool); B = torch.ones(2, 3, dtype=torch.bool)
t(lambda: torch.inner(b, b)); t(lambda: torch.inner(b, B)); t(lambda: torch.inner(B[None], B)); t(lambda: torch.vdot(b, b)); t(lambda: torch.dot(b, b))
t(lambda: torch.linalg.cross(b, b)); t(lambda: torch.cross(b, b, dim=0)); t(lambda: torch.mm(B, B.T)); t(lambda: torch.mv(B, b)); t(lambda: torch.addmv(b[:2], B, b))
t(lambda: torch.baddbmm(B[None, :, :2], B[None], B.T[None])); t(lambda: torch.kron(b, b)); t(lambda: torch.outer(b, b))
for dt in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.bool, torch.complex64, torch.float64, torch.float16):
    t(lambda: F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2, dtype=dt), torch.tensor([0])))
t(lambda: F.embedding_bag(torch.tensor([0, 5]), torch.ones(3, 2, dtype=torch.long), torch.tensor([0])))
t(lambda: nn.EmbeddingBag(3, 2, mode="sum").to(torch.float64)(torch.tensor([[0, 2]])))
for steps in (0, 1, 3):
    t(lambda: torch.linspace(0, 1, steps, dtype=torch.bool)); t(lambda: torch.logspace(0, 1, steps, dtype=torch.bool)); t(lambda: torch.logspace(0, 2, steps, dtype=torch.uint16))
for dt in (torch.int32, torch.int64, torch.int16, torch.float16, torch.bfloat16, torch.bool):
    t(lambda: F.local_response_norm(torch.ones(1, 2, 3, dtype=dt), 2).dtype); t(lambda: F.local_response_norm(torch.ones(1, 2, 3, 3, dtype=dt), 2).dtype)
    t(lambda: F.interpolate(torch.ones(1, 1, 4, 4, dtype=dt), size=2, mode="bilinear", antialias=True).dtype)
''',
    'checkpoint_warn': PRELUDE + r'''
import warnings
torch.manual_seed(0)
lin = nn.Linear(3, 3)
x = torch.randn(2, 3, requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y = torch.utils.checkpoint.checkpoint(lin, x)
    y.sum().backward()
    for m in w:
        print(m.category.__name__, str(m.message)[:400])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y = torch.utils.checkpoint.checkpoint(lin, x.detach(), use_reentrant=True)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print("RuntimeError", e)
    for m in w:
        print(m.category.__name__, str(m.message)[:400])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
    y = torch.utils.checkpoint.checkpoint_sequential(seq, 2, x)
    for m in w:
        print(m.category.__name__, str(m.message)[:400])
print(y.shape, y.requires_grad)
def f(a, flag):
    return a * 2 if flag else a
print(torch.utils.checkpoint.checkpoint(f, x, True, use_reentrant=False).grad_fn.name())
try:
    torch.utils.checkpoint.checkpoint(f, x, True, use_reentrant=False, bad_kwarg=1)
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
''',
    'beam': PRELUDE + r'''
torch.manual_seed(0)
V, B, K = 7, 2, 3
logits = torch.randn(B * K, V)
beam_scores = torch.zeros(B, K); beam_scores[:, 1:] = -1e9; beam_scores = beam_scores.view(-1)
next_scores = F.log_softmax(logits, dim=-1) + beam_scores[:, None].expand_as(logits)
next_scores = next_scores.view(B, K * V)
top, tok = torch.topk(next_scores, 2 * K, dim=1, largest=True, sorted=True)
beam_idx = torch.div(tok, V, rounding_mode="floor"); tok = tok % V
print(top.round(decimals=4), beam_idx, tok, beam_idx.dtype)
print(torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"), torch.div(torch.tensor([-7, 7]), 2, rounding_mode="floor"), torch.div(torch.tensor([-7, 7]), 2))
print(torch.floor_divide(torch.tensor([-7.5, 7]), 2), torch.tensor([-7, 7]) // 2, torch.remainder(torch.tensor([-7, 7]), 3), torch.fmod(torch.tensor([-7, 7]), 3))
input_ids = torch.tensor([[1, 2, 3, 2, 3], [4, 4, 4, 5, 6]])
def ngrams(ids, n):
    gen = {}
    for i in range(len(ids) - n + 1):
        prefix = tuple(ids[i:i + n - 1]); gen.setdefault(prefix, []).append(ids[i + n - 1])
    return gen
for b in range(2):
    ids = input_ids[b].tolist(); banned = ngrams(ids, 2).get(tuple(ids[-1:]), [])
    print(b, banned)
    logits[b, banned] = -float("inf")
print(logits[:2].round(decimals=2))
bad = torch.zeros(B * K, V, dtype=torch.bool); bad[:, [0, 6]] = True
print(logits.masked_fill(bad, torch.finfo(logits.dtype).min)[0].round(decimals=2))
s, i = torch.sort(torch.tensor([3., 1., 3., 2., 1.]), descending=True, stable=True); print(s, i)
print(torch.topk(torch.tensor([1., 3., 3., 2.]), 3, largest=False), torch.argsort(torch.tensor([2, 1, 2, 1]), stable=True))
lengths = torch.tensor([5., 3.]); scores = torch.tensor([-4.2, -2.9])
print(scores / lengths ** 1.0, scores / (((5 + lengths) / 6) ** 0.6))
eos = 3; seqs = torch.tensor([[5, 3, 0, 0], [2, 4, 3, 1]])
mask = (seqs == eos).cumsum(-1) > 0; print(mask, mask.dtype, (seqs == eos).int().argmax(-1))
unfinished = torch.ones(2, dtype=torch.long); nxt = torch.tensor([3, 4]); unfinished = unfinished & (nxt != eos); print(unfinished, unfinished.dtype, unfinished.max() == 0)
pad = 0; nxt = nxt * unfinished + pad * (1 - unfinished); print(nxt)
print(torch.where(unfinished.bool(), nxt, torch.tensor(pad)), torch.where(unfinished.bool(), nxt, -1).dtype, torch.where(unfinished.bool(), 1.5, nxt).dtype)
temp = torch.tensor([0.7]); print((logits[0] / temp).softmax(-1).round(decimals=4))
rep = torch.gather(logits[:2], 1, input_ids); print(rep.round(decimals=2))
''',
    'packed': PRELUDE + r'''
torch.manual_seed(0)
R = torch.nn.utils.rnn
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])]
padded = R.pad_sequence(seqs, batch_first=True); print(padded)
lengths = torch.tensor([3, 2, 1])
emb = nn.Embedding(7, 4, padding_idx=0)
packed = R.pack_padded_sequence(emb(padded), lengths, batch_first=True)
print(type(packed).__name__, packed.batch_sizes, packed.data.shape, packed.sorted_indices, packed.unsorted_indices)
lstm = nn.LSTM(4, 3, batch_first=True, bidirectional=True)
out, (h, c) = lstm(packed)
unp, lens = R.pad_packed_sequence(out, batch_first=True, total_length=4); print(unp.shape, lens, unp[1, 2:].abs().sum())
print(h.shape, torch.cat([h[-2], h[-1]], dim=-1).shape)
try:
    R.pack_padded_sequence(emb(padded), torch.tensor([1, 3, 2]), batch_first=True)
except RuntimeError as e:
    print(e)
p2 = R.pack_padded_sequence(emb(padded), torch.tensor([1, 3, 2]), batch_first=True, enforce_sorted=False)
print(p2.sorted_indices, p2.unsorted_indices, p2.batch_sizes)
try:
    R.pack_padded_sequence(emb(padded), torch.tensor([3, 2, 0]), batch_first=True)
except RuntimeError as e:
    print(e)
ps = R.pack_sequence([torch.randn(3, 2), torch.randn(1, 2)]); print(ps.batch_sizes, ps.data.shape)
ps2 = R.pack_sequence([torch.randn(1, 2), torch.randn(3, 2)], enforce_sorted=False); print(ps2.sorted_indices)
try:
    R.pack_sequence([torch.randn(1, 2), torch.randn(3, 2)])
except RuntimeError as e:
    print(e)
print(R.unpad_sequence(padded, lengths, batch_first=True), R.unpack_sequence(ps)[1].shape)
gru = nn.GRU(4, 3); o, hn = gru(R.pack_padded_sequence(emb(padded.T), lengths)); print(type(o).__name__, hn.shape, o.data.shape)
print(packed.to(torch.float64).data.dtype, packed.is_cuda, packed.cpu().batch_sizes.dtype)
print(R.PackedSequence(torch.randn(3, 2), torch.tensor([2, 1])).batch_sizes)
''',
    'loss_mistakes': PRELUDE + r'''
torch.manual_seed(0)
def tryit(f):
    try:
        r = f(); print("ok", r.dtype, r.shape, round(r.float().sum().item(), 4) if r.numel() else "")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:200])
logits = torch.randn(4, 3); yl = torch.tensor([0, 2, 1, 2]); yf = torch.rand(4, 3)
tryit(lambda: F.cross_entropy(logits, yl.float()))
tryit(lambda: F.cross_entropy(logits, yl.int()))
tryit(lambda: F.cross_entropy(logits, yl.view(4, 1)))
tryit(lambda: F.cross_entropy(logits, yf.double()))
tryit(lambda: F.cross_entropy(logits.double(), yl))
tryit(lambda: F.cross_entropy(logits, yl.to(torch.uint8)))
tryit(lambda: F.cross_entropy(logits, torch.tensor([0, 2, 1, 3])))
tryit(lambda: F.cross_entropy(logits, torch.tensor([0, 2, 1, -1])))
tryit(lambda: F.cross_entropy(logits.unsqueeze(-1).expand(4, 3, 5), yl.view(4, 1).expand(4, 5)))
tryit(lambda: F.cross_entropy(logits, yl, weight=torch.ones(4)))
tryit(lambda: F.cross_entropy(logits, yl, weight=torch.ones(3, dtype=torch.float64)))
tryit(lambda: F.cross_entropy(logits, yl, reduction="avg"))
tryit(lambda: F.binary_cross_entropy_with_logits(logits, yl))
tryit(lambda: F.binary_cross_entropy_with_logits(logits[:, 0], yl.float()))
tryit(lambda: F.binary_cross_entropy_with_logits(logits, yf.long()))
tryit(lambda: F.binary_cross_entropy_with_logits(logits, yf.double()))
tryit(lambda: F.binary_cross_entropy_with_logits(logits, yf[:, :1]))
tryit(lambda: F.binary_cross_entropy(logits, yf))
tryit(lambda: F.binary_cross_entropy(logits.sigmoid(), yf.view(3, 4)))
tryit(lambda: F.binary_cross_entropy(logits.sigmoid(), yf.double()))
tryit(lambda: F.binary_cross_entropy(logits.sigmoid().double(), yf))
tryit(lambda: F.mse_loss(logits, yl))
tryit(lambda: F.mse_loss(logits, yf.double()))
tryit(lambda: F.mse_loss(logits.long(), yf.long()))
tryit(lambda: F.l1_loss(logits, yf.int()))
tryit(lambda: F.nll_loss(logits, yl.float()))
tryit(lambda: F.nll_loss(logits.log_softmax(-1), yl.view(2, 2)))
tryit(lambda: F.nll_loss(logits[0], yl[0]))
tryit(lambda: F.kl_div(logits.log_softmax(-1), yf.softmax(-1), reduction="batchmean", log_target=False))
tryit(lambda: F.kl_div(logits.log_softmax(-1), yl, reduction="batchmean"))
tryit(lambda: F.smooth_l1_loss(logits, yf, beta=-1.0))
tryit(lambda: F.huber_loss(logits, yf, delta=0.0))
tryit(lambda: nn.CrossEntropyLoss(ignore_index=1, label_smoothing=0.2)(logits, yl))
tryit(lambda: nn.CrossEntropyLoss(label_smoothing=1.5)(logits, yl))
tryit(lambda: nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 1.0]))(logits, yf))
tryit(lambda: nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 1.0, 0.5]))(logits, yf))
tryit(lambda: nn.MultiLabelSoftMarginLoss()(logits, yf.round()))
tryit(lambda: nn.CosineEmbeddingLoss()(logits, yf, torch.tensor([1, -1, 1, -1])))
tryit(lambda: nn.MarginRankingLoss()(logits[:, 0], logits[:, 1], torch.tensor([1, -1, 1, -1])))
tryit(lambda: nn.TripletMarginLoss()(logits, yf, yf.flip(0)))
tryit(lambda: nn.GaussianNLLLoss()(logits, yf, torch.ones(4, 1)))
tryit(lambda: nn.PoissonNLLLoss(log_input=False)(logits.exp(), yf))
tryit(lambda: nn.CTCLoss()(logits.log_softmax(-1).unsqueeze(1), torch.tensor([[1, 2]]), torch.tensor([4]), torch.tensor([2])))
''',
    'devices': PRELUDE + r'''
import warnings
def tryit(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:200])
x = torch.ones(2)
tryit(lambda: x.pin_memory().is_pinned())
tryit(lambda: x.is_pinned())
tryit(lambda: x.to("cpu", non_blocking=True).device)
tryit(lambda: torch.device("cuda", 0))
tryit(lambda: torch.device("cuda:1").index)
tryit(lambda: torch.device("gpu"))
tryit(lambda: torch.cuda.empty_cache())
tryit(lambda: torch.cuda.manual_seed_all(0))
tryit(lambda: torch.cuda.memory_allocated())
tryit(lambda: torch.backends.mps.is_available())
tryit(lambda: nn.Linear(2, 2).to("cpu").weight.device)
tryit(lambda: torch.get_default_device())
tryit(lambda: torch.accelerator.is_available() if hasattr(torch, "accelerator") else None)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(4.)), batch_size=2, pin_memory=True)
    b = next(iter(dl)); print(b[0], b[0].is_pinned())
    print([str(m.message)[:150] for m in w])
tryit(lambda: torch.randn(2, generator=torch.Generator(), device="cpu").shape)
tryit(lambda: x.device.type == "cpu" and str(x.device))
tryit(lambda: torch.tensor([1.0], device=torch.device("cpu")).get_device())
''',
    'sdpa_math16': PRELUDE + r'''
torch.manual_seed(0)
q = torch.randn(1, 2, 4, 8).bfloat16(); k = torch.randn(1, 2, 4, 8).bfloat16(); v = torch.randn(1, 2, 4, 8).bfloat16()
torch.manual_seed(1)
o = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5); print(o[0, 0], o.dtype)
torch.manual_seed(1)
o = F.scaled_dot_product_attention(q.half(), k.half(), v.half(), dropout_p=0.3, is_causal=True); print(o[0, 1], torch.rand(1))
m = torch.ones(4, 4, dtype=torch.bool).tril()
print(F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=m)[1, 2:])
print(F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=torch.zeros(2, 4, 4).bfloat16())[1, 0])
try:
    F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=torch.zeros(3, 4, 4).bfloat16())
except RuntimeError as e:
    print(e)
''',
    'channels_last_autocast': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.GELU(), nn.Conv2d(8, 8, 3, groups=8, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4)).to(memory_format=torch.channels_last)
x = torch.randn(2, 3, 6, 6).to(memory_format=torch.channels_last)
with torch.autocast("cpu", dtype=torch.bfloat16):
    h = m[0](x); print(h.dtype, h.stride()); h = m[1](h); print(h.dtype, h.stride()); h = m[2](h); print(h.dtype, h.stride())
    h = m[3](h); print(h.dtype, h.stride()); h = m[4](h); print(h.dtype, h.stride(), h.shape); h = m[5](h); print(h.stride()); h = m[6](h); print(h.dtype, h.stride())
    y = F.interpolate(m[0](x), scale_factor=2, mode="bilinear"); print(y.dtype, y.stride())
    z = F.max_pool2d(m[0](x), 2); print(z.dtype, z.stride()); z2 = F.avg_pool2d(m[0](x), 2); print(z2.stride())
    w = m[0](x) + m[0](x).contiguous(); print(w.stride(), (m[0](x) * 2).stride(), torch.cat([m[0](x), m[0](x)], 1).stride())
    u = F.pad(m[0](x), (1, 1, 1, 1)); print(u.stride(), u.dtype)
    r = F.pad(m[0](x), (1, 1, 1, 1), mode="reflect"); print(r.stride(), r.dtype)
    l = F.layer_norm(m[0](x).permute(0, 2, 3, 1), (8,)); print(l.stride(), l.dtype)
    g = F.group_norm(m[0](x), 2); print(g.stride(), g.dtype)
''',
    'module_dtypes': PRELUDE + r'''
torch.manual_seed(0)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2); self.bn = nn.BatchNorm1d(2); self.emb = nn.Embedding(3, 2)
        self.register_buffer("inv_freq", torch.tensor([1.0, 0.5]), persistent=False)
        self.register_buffer("ids", torch.arange(3)); self.register_buffer("flag", torch.tensor(True))
        self.register_buffer("cplx", torch.tensor([1 + 1j])); self.p = nn.Parameter(torch.ones(1, dtype=torch.float64))
m = M()
def show(m):
    print({n: str(t.dtype).replace("torch.", "") for n, t in list(m.named_parameters()) + list(m.named_buffers())})
show(m.half()); show(m.to(torch.bfloat16)); show(m.float()); show(m.double()); show(m.to(dtype=torch.float16)); show(m.type(torch.float32))
try:
    m.to(torch.int32)
except TypeError as e:
    print(e)
m2 = M().to(torch.complex64); show(m2)
m3 = M().bfloat16(); print(m3.lin(torch.randn(1, 2).bfloat16()).dtype)
try:
    m3.lin(torch.randn(1, 2))
except RuntimeError as e:
    print(e)
print(m3.bn.num_batches_tracked.dtype, m3.bn.running_mean.dtype)
sd = m3.state_dict(); print({k: str(v.dtype) for k, v in sd.items()})
m4 = M(); r = m4.load_state_dict(sd); print(m4.lin.weight.dtype, r)
m5 = M(); m5.lin.weight.data = m5.lin.weight.data.half(); print(m5.lin.weight.dtype, type(m5.lin.weight).__name__, m5.lin.weight.requires_grad)
m6 = M(); m6.to(torch.float16, non_blocking=True); print(m6.lin.weight.dtype)
m7 = M(); m7.apply(lambda mod: mod.half() if isinstance(mod, nn.Linear) else None); show(m7)
print(next(M().parameters()).dtype, M().lin.weight.is_leaf, M().half().lin.weight.is_leaf, M().half().lin.weight.grad_fn)
m8 = nn.Linear(2, 2); m8.weight.grad = torch.ones(2, 2); m8.half(); print(m8.weight.grad.dtype if m8.weight.grad is not None else None)
''',
    'rnn16': PRELUDE + r'''
torch.manual_seed(0)
torch.manual_seed(0)

for dt in (torch.bfloat16, torch.float16):
    x = torch.randn(5, 2, 6).to(dt)
    for cls, cell in ((nn.RNN, nn.RNNCell), (nn.GRU, nn.GRUCell), (nn.LSTM, nn.LSTMCell)):
        torch.manual_seed(1); layer = cls(6, 3).to(dt)
        c = cell(6, 3).to(dt)
        with torch.no_grad():
            c.weight_ih.copy_(layer.weight_ih_l0); c.weight_hh.copy_(layer.weight_hh_l0); c.bias_ih.copy_(layer.bias_ih_l0); c.bias_hh.copy_(layer.bias_hh_l0)
        out, _ = layer(x)
        h = None; outs = []
        for t in range(5):
            h = c(x[t], h) if h is not None else c(x[t])
            outs.append(h[0] if isinstance(h, tuple) else h)
        ref = torch.stack(outs)
        print(dt, cls.__name__, (ref != out).sum().item(), out.numel())
torch.manual_seed(0)
x = torch.randn(5, 2, 6).bfloat16()
for cls in (nn.RNN, nn.GRU, nn.LSTM):
    torch.manual_seed(1); m = cls(6, 3, num_layers=2).bfloat16()
    out, h = m(x)
    print(cls.__name__, out.dtype, out[-1], out.grad_fn.name())
''',
    'grad_mode_gen': PRELUDE + r'''
torch.manual_seed(0)
w = torch.randn(2, requires_grad=True)
@torch.no_grad()
def gen(n):
    for i in range(n):
        print("inside", torch.is_grad_enabled())
        yield (w * i).requires_grad
g = gen(2)
print(next(g), torch.is_grad_enabled()); print(next(g), torch.is_grad_enabled())
@torch.inference_mode()
def gen2():
    yield torch.is_inference_mode_enabled(), (w * 2).is_inference()
    yield torch.is_inference_mode_enabled(), (w * 2).is_inference()
for v in gen2():
    print(v, torch.is_inference_mode_enabled())
class Model(nn.Module):
    def __init__(self):
        super().__init__(); self.l = nn.Linear(2, 2)
    @torch.no_grad()
    def generate(self, x):
        return self.l(x)
    @torch.inference_mode()
    def stream(self, x):
        for _ in range(2):
            x = self.l(x)
            yield x
m = Model(); y = m.generate(torch.randn(1, 2)); print(y.requires_grad, m.generate.__name__, m.generate.__doc__)
for o in m.stream(torch.randn(1, 2)):
    print(o.is_inference(), o.requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print((w * 2).requires_grad)
    print((w * 2).requires_grad)
torch.set_grad_enabled(False); print((w * 2).requires_grad); torch.set_grad_enabled(True); print((w * 2).requires_grad)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
@torch.enable_grad()
def f():
    return torch.is_grad_enabled()
with torch.no_grad():
    print(f())
print(type(torch.no_grad()).__name__, torch.no_grad().__class__.__mro__[1].__name__ if False else "")
try:
    @torch.no_grad
    def h():
        return torch.is_grad_enabled()
    print(h())
except Exception as e:
    print(type(e).__name__, e)
import functools
@torch.inference_mode(mode=False)
def k():
    return torch.is_inference_mode_enabled()
with torch.inference_mode():
    print(k())
async_fn_ok = True
print(torch.autograd.grad_mode.no_grad is torch.no_grad, torch.autograd.no_grad is torch.no_grad)
''',
    'sdpa16_backward': PRELUDE + r'''
torch.manual_seed(0)
for T, D, causal, gqa in [(5, 8, True, False), (8, 16, False, False), (16, 32, True, False), (6, 8, False, True)]:
    for dt in (torch.bfloat16, torch.float16):
        q = torch.randn(1, 4, T, D).to(dt).requires_grad_()
        kh = 2 if gqa else 4
        k, v = [torch.randn(1, kh, T, D).to(dt).requires_grad_() for _ in range(2)]
        o = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=gqa)
        g = torch.randn_like(o)
        o.backward(g)
        print(T, D, dt, q.grad.stride(), k.grad.stride(), q.grad.dtype)
m = torch.ones(5, 5, dtype=torch.bool).tril(); m[2] = False
q = torch.randn(1, 2, 5, 8).bfloat16().requires_grad_(); k = torch.randn(1, 2, 5, 8).bfloat16().requires_grad_()
o = F.scaled_dot_product_attention(q, k, k, attn_mask=m); o.float().pow(2).sum().backward(); print(q.grad[0, 0, 2], k.grad.float().sum().item())
torch.manual_seed(0)
q, k, v = [torch.randn(1, 2, 5, 8).bfloat16().requires_grad_() for _ in range(3)]
o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
g = torch.randn_like(o)
o.backward(g)
print(q.grad.float().abs().sum().item(), k.grad.float().abs().sum().item(), v.grad.float().abs().sum().item())
print(q.grad[0, 0, 1], v.grad[0, 1, 0])
''',
    'llama_bf16': PRELUDE + r'''
torch.manual_seed(0)
class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__(); self.eps = eps; self.weight = nn.Parameter(torch.ones(dim))
    def forward(self, x):
        out = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return out.type_as(x) * self.weight
def precompute(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    return torch.polar(torch.ones(end, dim // 2), torch.outer(torch.arange(end).float(), freqs))
def rope(x, fc):
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(xc * fc[None, :, None, :]).flatten(3).type_as(x)
class Block(nn.Module):
    def __init__(self, d=16, h=4, kvh=2):
        super().__init__(); self.h, self.kvh, self.hd = h, kvh, d // h
        self.wq = nn.Linear(d, d, bias=False); self.wk = nn.Linear(d, kvh * self.hd, bias=False); self.wv = nn.Linear(d, kvh * self.hd, bias=False)
        self.wo = nn.Linear(d, d, bias=False); self.w1 = nn.Linear(d, 32, bias=False); self.w2 = nn.Linear(32, d, bias=False); self.w3 = nn.Linear(d, 32, bias=False)
        self.n1 = RMSNorm(d); self.n2 = RMSNorm(d)
    def forward(self, x, fc, cache=None):
        B, T, _ = x.shape
        h = self.n1(x)
        q = self.wq(h).view(B, T, self.h, self.hd); k = self.wk(h).view(B, T, self.kvh, self.hd); v = self.wv(h).view(B, T, self.kvh, self.hd)
        q, k = rope(q, fc), rope(k, fc)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], 2); v = torch.cat([cache[1], v], 2)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None, enable_gqa=True)
        x = x + self.wo(o.transpose(1, 2).reshape(B, T, -1))
        h = self.n2(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h)), (k, v)
blk = Block().to(torch.bfloat16)
fc = precompute(4, 8)
x = torch.randn(2, 5, 16).to(torch.bfloat16)
y, cache = blk(x, fc[:5])
print(y.dtype, y[1, 4], cache[0].shape)
y.float().pow(2).mean().backward()
print(blk.wq.weight.grad.dtype, blk.wq.weight.grad[0, :6], blk.n1.weight.grad[:4])
with torch.inference_mode():
    step = torch.randn(2, 1, 16).to(torch.bfloat16)
    y2, cache2 = blk(step, fc[5:6], tuple(c.detach() for c in cache))
    print(y2[0, 0], cache2[0].shape, y2.is_inference())
with torch.autocast("cpu", dtype=torch.bfloat16):
    blk32 = Block(); y3, _ = blk32(torch.randn(1, 4, 16), fc[:4])
    print(y3.dtype, y3[0, 3, :6])
''',
    'sdpa16_math_backward': PRELUDE + r'''
torch.manual_seed(0)
q, k, v = [torch.randn(2, 5, 8).bfloat16().requires_grad_() for _ in range(3)]
o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
o.backward(torch.randn_like(o))
print(o[1, 3], q.grad[1, 2], k.grad[0, 0], v.grad[1, 4])
q2 = torch.randn(1, 2, 4, 8).half().requires_grad_(); v2 = torch.randn(1, 2, 4, 6).half().requires_grad_()
o = F.scaled_dot_product_attention(q2, q2, v2); o.float().sum().backward(); print(o.grad_fn.name(), q2.grad[0, 0, 0], v2.grad[0, 1, 1])
''',
    'mha16': PRELUDE + r'''
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2, batch_first=True).to(dt)
    x = torch.randn(2, 5, 8).to(dt)
    o1, w1 = mha(x, x, x)
    o2, _ = mha(x, x, x, need_weights=False)
    o3, _ = mha(x, x, x, need_weights=False, attn_mask=torch.ones(5, 5, dtype=torch.bool).triu(1))
    o4, w4 = mha(x, x, x, key_padding_mask=torch.tensor([[False] * 4 + [True], [False] * 5]))
    print(dt, o1[1, 2], w1[0, 1], o2[1, 2], o3[0, 4], o4[0, 0])
    o2.float().sum().backward(); print(mha.in_proj_weight.grad[0, :4], mha.out_proj.weight.grad[0, :4])
    tel = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True).to(dt)
    tel.eval()
    with torch.no_grad():
        print(tel(x)[0, 0])
''',
    'fill_limits16': PRELUDE + r'''
def t(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e)[:150])
for dt in (torch.bfloat16, torch.float16):
    s = torch.zeros(2, 3, dtype=dt); m = torch.tensor([[True, False, False]] * 2)
    t(lambda: s.masked_fill(m, torch.finfo(torch.float32).min))
    t(lambda: s.masked_fill(m, torch.finfo(dt).min))
    t(lambda: s.masked_fill(m, -1e9))
    t(lambda: s.masked_fill_(m, float("-inf")))
    t(lambda: s.masked_fill(m, torch.tensor(torch.finfo(torch.float32).min)))
    t(lambda: torch.full((2,), torch.finfo(torch.float32).min, dtype=dt))
    t(lambda: torch.full((2,), -1e9, dtype=dt))
    t(lambda: s + torch.finfo(torch.float32).min)
    t(lambda: torch.where(m, torch.finfo(torch.float32).min, s))
    t(lambda: s.fill_(-1e9))
    t(lambda: s.clamp(min=-1e9))
    t(lambda: s.new_full((2,), -1e9))
    t(lambda: torch.tensor([-1e9], dtype=dt))
    t(lambda: s.index_fill(1, torch.tensor([0]), -1e9))
    t(lambda: s.scatter(1, torch.tensor([[0], [1]]), -1e9))
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
