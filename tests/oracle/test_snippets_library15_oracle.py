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
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
