"""Training-infrastructure programs as real projects write them (nanoGPT, minGPT, timm and
fairseq-style trainers, plain loops), run under real torch and under ember (`import ember as
torch`): what they print must be identical. A nanoGPT model (tril-buffer and SDPA attention,
weight tying, decay/no-decay groups, generate with top-k), checkpoints resumed to identical
losses (model, optimizer, scheduler, RNG states), LR schedules and their state_dicts, gradient
clipping and accumulation, weight EMA (`_foreach`, lerp_, AveragedModel), DataLoader workers,
samplers and collation, autocast, torch.compile as a wrapper, and the errors such code hits.
Values that pass through a matmul print rounded (BLAS summation order), as do those through
sqrt/log/sin (see the report on MKL's vector math on non-Intel CPUs).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PRELUDE = "import math\nnn = torch.nn; F = torch.nn.functional\n"

PROGRAMS = {
    'gpt': PRELUDE + r'''
import inspect
from dataclasses import dataclass
@dataclass
class GPTConfig:
    block_size: int = 8
    vocab_size: int = 17
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 8
    dropout: float = 0.0
    bias: bool = True
    flash: bool = False

class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None
    def forward(self, input):
        return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)

class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.dropout = config.dropout
        self.flash = config.flash and hasattr(torch.nn.functional, 'scaled_dot_product_attention')
        if not self.flash:
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                        .view(1, 1, config.block_size, config.block_size))
    def forward(self, x):
        B, T, C = x.size()
        q, k, v  = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if self.flash:
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:,:,:T,:T] == 0, float('-inf'))
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        y = self.resid_dropout(self.c_proj(y))
        return y

class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc    = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.gelu    = nn.GELU()
        self.c_proj  = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)
    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))

class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)
    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x

class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte = nn.Embedding(config.vocab_size, config.n_embd),
            wpe = nn.Embedding(config.block_size, config.n_embd),
            drop = nn.Dropout(config.dropout),
            h = nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
            ln_f = LayerNorm(config.n_embd, bias=config.bias),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith('c_proj.weight'):
                torch.nn.init.normal_(p, mean=0.0, std=0.02/math.sqrt(2 * config.n_layer))
        print("number of parameters: %.2fM" % (self.get_num_params()/1e6,), self.get_num_params(), self.get_num_params(False))
    def get_num_params(self, non_embedding=True):
        n_params = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n_params -= self.transformer.wpe.weight.numel()
        return n_params
    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
    def forward(self, idx, targets=None):
        device = idx.device
        b, t = idx.size()
        assert t <= self.config.block_size, f"Cannot forward sequence of length {t}, block size is only {self.config.block_size}"
        pos = torch.arange(0, t, dtype=torch.long, device=device)
        tok_emb = self.transformer.wte(idx)
        pos_emb = self.transformer.wpe(pos)
        x = self.transformer.drop(tok_emb + pos_emb)
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        else:
            logits = self.lm_head(x[:, [-1], :])
            loss = None
        return logits, loss
    def crop_block_size(self, block_size):
        self.config.block_size = block_size
        self.transformer.wpe.weight = nn.Parameter(self.transformer.wpe.weight[:block_size])
        for block in self.transformer.h:
            if hasattr(block.attn, 'bias'):
                block.attn.bias = block.attn.bias[:,:,:block_size,:block_size]
    def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):
        param_dict = {pn: p for pn, p in self.named_parameters()}
        param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [
            {'params': decay_params, 'weight_decay': weight_decay},
            {'params': nodecay_params, 'weight_decay': 0.0}
        ]
        num_decay_params = sum(p.numel() for p in decay_params)
        num_nodecay_params = sum(p.numel() for p in nodecay_params)
        print(f"num decayed parameter tensors: {len(decay_params)}, with {num_decay_params:,} parameters")
        print(f"num non-decayed parameter tensors: {len(nodecay_params)}, with {num_nodecay_params:,} parameters")
        fused_available = 'fused' in inspect.signature(torch.optim.AdamW).parameters
        use_fused = fused_available and device_type == 'cuda'
        extra_args = dict(fused=True) if use_fused else dict()
        print("fused available", fused_available, use_fused)
        optimizer = torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas, **extra_args)
        return optimizer
    def estimate_mfu(self, fwdbwd_per_iter, dt):
        N = self.get_num_params()
        cfg = self.config
        L, H, Q, T = cfg.n_layer, cfg.n_head, cfg.n_embd//cfg.n_head, cfg.block_size
        flops_per_token = 6*N + 12*L*H*Q*T
        flops_per_fwdbwd = flops_per_token * T
        flops_per_iter = flops_per_fwdbwd * fwdbwd_per_iter
        flops_achieved = flops_per_iter * (1.0/dt)
        return flops_achieved / 312e12
    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= self.config.block_size else idx[:, -self.config.block_size:]
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float('Inf')
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx

for flash, dropout, bias in ((False, 0.0, True), (True, 0.0, True), (False, 0.2, False), (True, 0.2, False)):
    torch.manual_seed(1337)
    cfg = GPTConfig(flash=flash, dropout=dropout, bias=bias)
    model = GPT(cfg)
    print(model)
    print(model.transformer.wte.weight is model.lm_head.weight)
    print([n for n, _ in model.named_parameters()][:6], len(list(model.parameters())), len(model.state_dict()))
    print(list(model.state_dict().keys())[:8])
    opt = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), 'cpu')
    print(opt)
    data = torch.randint(0, cfg.vocab_size, (200,))
    def get_batch():
        ix = torch.randint(len(data) - cfg.block_size, (4,))
        x = torch.stack([data[i:i+cfg.block_size] for i in ix])
        y = torch.stack([data[i+1:i+1+cfg.block_size] for i in ix])
        return x, y
    def get_lr(it, warmup_iters=2, lr_decay_iters=8, learning_rate=6e-4, min_lr=6e-5):
        if it < warmup_iters:
            return learning_rate * (it + 1) / (warmup_iters + 1)
        if it > lr_decay_iters:
            return min_lr
        decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
        coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
        return min_lr + coeff * (learning_rate - min_lr)
    X, Y = get_batch()
    for it in range(10):
        lr = get_lr(it)
        for g in opt.param_groups:
            g['lr'] = lr
        for micro in range(2):
            logits, loss = model(X, Y)
            loss = loss / 2
            X, Y = get_batch()
            loss.backward()
        n = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        print(it, lr, round(loss.item() * 2, 5), round(n.item(), 5))
    model.eval()
    torch.manual_seed(7)
    out = model.generate(torch.zeros((1, 1), dtype=torch.long), 12, temperature=0.8, top_k=5)
    print(out.tolist())
    out = model.generate(torch.zeros((2, 3), dtype=torch.long), 4)
    print(out.tolist(), round(model.estimate_mfu(4, 0.5), 12))
    model.crop_block_size(4)
    print(model.transformer.wpe.weight.shape, model.transformer.h[0].attn.bias.shape if not flash else None)
    try:
        model(torch.zeros(1, 6, dtype=torch.long))
    except AssertionError as e:
        print("assert", e)
    sd = opt.state_dict()
    print(sd['param_groups'][0].keys(), sd['param_groups'][1]['params'][:3], list(sd['state'].keys())[:5])
    print(sd['state'][0]['step'], sd['state'][0]['exp_avg'].shape)
''',
    'gpt2': PRELUDE + r'''
import numpy, os, tempfile
torch.manual_seed(0)
B, H, T, D = 2, 2, 5, 4
q, k, v = torch.randn(B, H, T, D), torch.randn(B, H, T, D), torch.randn(B, H, T, D)
def r(t): return t.round(decimals=4).tolist()[0][0][:2]
print(r(F.scaled_dot_product_attention(q, k, v, is_causal=True)))
mask = torch.ones(T, T, dtype=torch.bool).tril()
print(r(F.scaled_dot_product_attention(q, k, v, attn_mask=mask)))
fm = torch.zeros(T, T).masked_fill(~mask, float('-inf'))
print(r(F.scaled_dot_product_attention(q, k, v, attn_mask=fm, scale=0.3)))
torch.manual_seed(1)
o1 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5, is_causal=True)
print(r(o1))
kv = torch.randn(B, 1, T, D)
print(r(F.scaled_dot_product_attention(q, kv, kv, enable_gqa=True)))
try:
    F.scaled_dot_product_attention(q, kv, kv)
except RuntimeError as e:
    print(e)
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True)
except RuntimeError as e:
    print(str(e)[:200])
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, T, dtype=torch.long))
except RuntimeError as e:
    print(str(e)[:200])
from_attention = torch.nn.attention
with from_attention.sdpa_kernel(from_attention.SDPBackend.MATH):
    print(r(F.scaled_dot_product_attention(q, k, v, is_causal=True)))
with from_attention.sdpa_kernel([from_attention.SDPBackend.FLASH_ATTENTION, from_attention.SDPBackend.MATH]):
    print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.mem_efficient_sdp_enabled())
print(torch.backends.cuda.flash_sdp_enabled())
# nanoGPT data pipeline
d = tempfile.mkdtemp()
arr = numpy.arange(100, dtype=numpy.uint16) * 7 % 50
fn = os.path.join(d, 'train.bin'); arr.tofile(fn)
data = numpy.memmap(fn, dtype=numpy.uint16, mode='r')
block_size = 6; batch_size = 3
torch.manual_seed(3)
ix = torch.randint(len(data) - block_size, (batch_size,))
x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(numpy.int64)) for i in ix])
y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(numpy.int64)) for i in ix])
print(ix, x, y.dtype)
try:
    torch.from_numpy(data[0:3])
except Exception as e:
    print(type(e).__name__, e)
print(torch.from_numpy(numpy.array(data[0:3])).dtype)
try:
    x.pin_memory()
except Exception as e:
    print(type(e).__name__, str(e)[:100])
x = x.to('cpu', non_blocking=True); print(x.device, x.is_pinned())
eval_iters = 3
@torch.no_grad()
def estimate_loss(model):
    out = {}
    model.eval()
    for split in ['train', 'val']:
        losses = torch.zeros(eval_iters)
        for kk in range(eval_iters):
            logits = model(x.float())
            loss = F.mse_loss(logits, y.float())
            losses[kk] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out
m = nn.Linear(6, 6)
with torch.no_grad():
    m.weight.copy_(torch.arange(36.).view(6, 6) / 64 - 0.25); m.bias.fill_(0.5)
res = estimate_loss(m); print({kk: round(vv.item(), 3) for kk, vv in res.items()}, type(res['train']).__name__, res['train'].dtype)
print(f"step 0: train loss {res['train']:.4f}, val loss {res['val']:.4f}")
best_val_loss = 1e9
print(res['val'] < best_val_loss, type(res['val'] < best_val_loss).__name__)
checkpoint = {'model': m.state_dict(), 'iter_num': 0, 'best_val_loss': res['val'], 'config': {'a': 1}}
torch.save(checkpoint, os.path.join(d, 'ckpt.pt'))
ck = torch.load(os.path.join(d, 'ckpt.pt'), map_location='cpu')
print(sorted(ck), ck['best_val_loss'].shape, ck['iter_num'])
ck = torch.load(os.path.join(d, 'ckpt.pt'), map_location=torch.device('cpu'), weights_only=True)
print(ck['config'])
# HF weight transpose load
sd_hf = {'w': torch.arange(6.).view(2, 3)}
lin = nn.Linear(2, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(sd_hf['w'].t())
print(lin.weight)
try:
    with torch.no_grad():
        lin.weight.copy_(sd_hf['w'])
except RuntimeError as e:
    print(e)
# tokens / decode
stoi = {ch: i for i, ch in enumerate('abcdefgh')}; itos = {i: ch for ch, i in stoi.items()}
encode = lambda s: [stoi[c] for c in s]; decode = lambda l: ''.join(itos[i] for i in l)
start_ids = encode('abc')
xx = (torch.tensor(start_ids, dtype=torch.long, device='cpu')[None, ...])
print(xx, xx.shape)
torch.manual_seed(1337)
for _ in range(2):
    logits = torch.randn(1, 8)
    logits = logits / 0.8
    v_, _ = torch.topk(logits, 3)
    logits[logits < v_[:, [-1]]] = -float('Inf')
    probs = F.softmax(logits, dim=-1)
    nxt = torch.multinomial(probs, num_samples=1)
    xx = torch.cat((xx, nxt), dim=1)
print(decode(xx[0].tolist()), probs)
''',
    'ckpt': PRELUDE + r'''
import random, io, copy
import numpy
random.seed(0); numpy.random.seed(0); torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
X = torch.randn(32, 4); Y = torch.randint(0, 2, (32,))
def train_epoch(ep):
    model.train()
    perm = torch.randperm(32)
    tot = 0.0
    for i in range(0, 32, 8):
        idx = perm[i:i+8]
        noise = random.random() + numpy.random.rand()
        out = model(X[idx] + noise * 0.01)
        loss = F.cross_entropy(out, Y[idx])
        opt.zero_grad(); loss.backward(); opt.step()
        tot += loss.item()
    sched.step()
    return tot
for ep in range(3):
    print(ep, round(train_epoch(ep), 4), sched.get_last_lr())
buf = io.BytesIO()
ck = {'model': model.state_dict(), 'optimizer': opt.state_dict(), 'scheduler': sched.state_dict(),
      'epoch': 3, 'rng': torch.get_rng_state(), 'py': random.getstate(), 'np': numpy.random.get_state()}
torch.save(ck, buf)
print(ck['rng'].dtype, ck['rng'].shape, ck['rng'][:8], ck['scheduler'])
print(ck['optimizer']['param_groups'])
print(list(ck['optimizer']['state'][0].keys()), ck['optimizer']['state'][0]['momentum_buffer'][:2])
ref = [train_epoch(ep) for ep in range(3, 6)]
print([round(r, 4) for r in ref])
buf.seek(0)
ck2 = torch.load(buf, weights_only=False)
model.load_state_dict(ck2['model']); opt.load_state_dict(ck2['optimizer']); sched.load_state_dict(ck2['scheduler'])
torch.set_rng_state(ck2['rng']); random.setstate(ck2['py']); numpy.random.set_state(ck2['np'])
res = [train_epoch(ep) for ep in range(ck2['epoch'], 6)]
print([round(r, 4) for r in res], res == ref)
buf.seek(0)
try:
    torch.load(buf)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
# fresh objects resume
torch.manual_seed(5)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
print(opt.state_dict())
print(model.load_state_dict(ck2['model']))
opt.load_state_dict(ck2['optimizer']); sched.load_state_dict(ck2['scheduler'])
torch.set_rng_state(ck2['rng']); random.setstate(ck2['py']); numpy.random.set_state(ck2['np'])
res2 = [train_epoch(ep) for ep in range(ck2['epoch'], 6)]
print(res2 == ref, sched.last_epoch, opt.param_groups[0]['lr'], opt.param_groups[0]['initial_lr'])
# mistakes
sd = model.state_dict(); sd.pop('3.bias'); sd['extra'] = torch.zeros(1)
try:
    model.load_state_dict(sd)
except RuntimeError as e:
    print(e)
print(model.load_state_dict(sd, strict=False))
sd = model.state_dict(); sd['0.weight'] = torch.zeros(3, 4)
try:
    model.load_state_dict(sd)
except RuntimeError as e:
    print(e)
osd = opt.state_dict(); osd['param_groups'][0]['params'] = [0, 1]
try:
    opt.load_state_dict(osd)
except ValueError as e:
    print(e)
try:
    torch.set_rng_state(torch.zeros(10))
except Exception as e:
    print(type(e).__name__, e)
g = torch.Generator(); g.manual_seed(3); st = g.get_state(); a = torch.rand(3, generator=g); g.set_state(st); print(torch.equal(a, torch.rand(3, generator=g)), g.initial_seed())
print(torch.initial_seed(), torch.seed() > 0)
''',
    'ckpt_act': PRELUDE + r'''
import warnings
from_cp = torch.utils.checkpoint
torch.manual_seed(0)
blk = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.GELU(), nn.Linear(4, 4))
x = torch.randn(3, 4, requires_grad=True)
def grads(fn):
    x.grad = None; blk.zero_grad()
    torch.manual_seed(5)
    out = fn(x)
    out.pow(2).sum().backward()
    return out.detach().round(decimals=4), x.grad.round(decimals=4), blk[0].weight.grad.sum().round(decimals=4), torch.rand(1)
ref = grads(blk)
for ur in (False, True):
    r = grads(lambda t: from_cp.checkpoint(blk, t, use_reentrant=ur))
    print(ur, all(torch.equal(a, b) for a, b in zip(ref, r)), r[3])
    r = grads(lambda t: from_cp.checkpoint(blk, t, use_reentrant=ur, preserve_rng_state=False))
    print(ur, [torch.equal(a, b) for a, b in zip(ref, r)])
r = grads(lambda t: from_cp.checkpoint_sequential(blk, 2, t, use_reentrant=False))
print([torch.equal(a, b) for a, b in zip(ref, r)])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    try:
        from_cp.checkpoint(blk, x)
        print('no error')
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
    print([str(q.message)[:300] for q in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    xx = torch.randn(2, 4)
    o = from_cp.checkpoint(blk, xx, use_reentrant=True)
    print(o.requires_grad, [str(q.message)[:200] for q in w])
def f(a, b, scale=1.0):
    return (a * b).sum() * scale
a = torch.randn(3, requires_grad=True); b = torch.randn(3, requires_grad=True)
o = from_cp.checkpoint(f, a, b, scale=2.0, use_reentrant=False); o.backward(); print(a.grad.round(decimals=4))
try:
    from_cp.checkpoint(f, a, b, scale=2.0, use_reentrant=True)
except Exception as e:
    print(type(e).__name__, e)
cnt = [0]
def g(t):
    cnt[0] += 1
    return t.sin() * 2
t0 = torch.randn(3, requires_grad=True)
o = from_cp.checkpoint(g, t0, use_reentrant=False); print(cnt); o.sum().backward(); print(cnt)
o = from_cp.checkpoint(g, t0, use_reentrant=True); print(cnt); o.sum().backward(); print(cnt)
with torch.no_grad():
    o = from_cp.checkpoint(g, t0, use_reentrant=False); print(cnt, o.requires_grad)
o = from_cp.checkpoint(g, t0, use_reentrant=False, determinism_check='none'); o.sum().backward(); print(cnt)
try:
    from_cp.checkpoint(g, t0, use_reentrant=False, determinism_check='bogus')
except ValueError as e:
    print(e)
def nondet(t):
    return t[:torch.randint(1, 3, (1,)).item()].sum() if False else t * torch.rand(1)
o = from_cp.checkpoint(nondet, t0, use_reentrant=False, preserve_rng_state=True); o.sum().backward(); print('nondet ok')
''',
    'resume': PRELUDE + r'''
import warnings
LR = torch.optim.lr_scheduler
def run(make_sched, total=6, resume_at=3):
    torch.manual_seed(0)
    m = nn.Linear(2, 1); opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    s = make_sched(opt, -1)
    lrs = []
    for ep in range(total):
        opt.step(); s.step(); lrs.append(round(opt.param_groups[0]['lr'], 10))
        if ep == resume_at - 1:
            osd = opt.state_dict()
    m2 = nn.Linear(2, 1); opt2 = torch.optim.SGD(m2.parameters(), lr=0.1, momentum=0.9)
    opt2.load_state_dict(osd)
    print('  initial_lr' in opt2.param_groups[0], opt2.param_groups[0].get('initial_lr'), opt2.param_groups[0]['lr'])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            s2 = make_sched(opt2, resume_at - 1)
            lrs2 = []
            for ep in range(resume_at, total):
                opt2.step(); s2.step(); lrs2.append(round(opt2.param_groups[0]['lr'], 10))
            print(lrs[resume_at:] == lrs2, lrs, lrs2)
        except Exception as e:
            print(type(e).__name__, e)
        for x in w: print('  warn', str(x.message)[:150])
run(lambda o, le: LR.StepLR(o, 2, gamma=0.5, last_epoch=le))
run(lambda o, le: LR.MultiStepLR(o, [1, 4], gamma=0.5, last_epoch=le))
run(lambda o, le: LR.ExponentialLR(o, 0.9, last_epoch=le))
run(lambda o, le: LR.CosineAnnealingLR(o, 5, last_epoch=le))
run(lambda o, le: LR.LambdaLR(o, lambda e: 1 / (e + 1), last_epoch=le))
run(lambda o, le: LR.LinearLR(o, 0.5, total_iters=4, last_epoch=le))
run(lambda o, le: LR.PolynomialLR(o, total_iters=5, last_epoch=le))
run(lambda o, le: LR.OneCycleLR(o, max_lr=1.0, total_steps=10, last_epoch=le))
run(lambda o, le: LR.CosineAnnealingWarmRestarts(o, T_0=2, last_epoch=le))
run(lambda o, le: LR.CyclicLR(o, 0.01, 0.1, step_size_up=2, last_epoch=le))
torch.manual_seed(0)
m = nn.Linear(2, 1); opt = torch.optim.SGD(m.parameters(), lr=0.1)
try:
    LR.StepLR(opt, 2, last_epoch=3)
except KeyError as e:
    print('KeyError', e)
s = LR.StepLR(opt, 2)
for i in range(3): opt.step(); s.step()
sd = s.state_dict()
s3 = LR.StepLR(opt, 5); s3.load_state_dict(sd); print(s3.step_size, s3.last_epoch, s3.get_last_lr())
s3.step(); print(s3.get_last_lr(), opt.param_groups[0]['lr'])
''',
    'sched': PRELUDE + r'''
torch.manual_seed(0)
def mk(lr=0.1):
    m = nn.Linear(2, 2)
    return torch.optim.SGD(m.parameters(), lr=lr, momentum=0.9)
opt = mk()
warm = 3; total = 10
def lr_lambda(step):
    if step < warm:
        return float(step + 1) / warm
    progress = (step - warm) / max(1, total - warm)
    return 0.5 * (1.0 + math.cos(math.pi * progress))
s = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
for i in range(12):
    opt.step(); s.step(); print(i, s.get_last_lr(), opt.param_groups[0]['lr'])
print(s.state_dict())
opt = mk()
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
print(opt.param_groups[0]['lr'], opt.param_groups[0]['momentum'])
for i in range(10):
    opt.step(); s.step(); print(i, s.get_last_lr(), opt.param_groups[0]['momentum'])
print(s.state_dict())
try:
    opt.step(); s.step()
except ValueError as e:
    print(e)
opt = mk()
s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.01)
for v in [1.0, 0.99, 0.98, 0.97, 0.96, 0.95, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]:
    s.step(v); print(v, s.get_last_lr(), s.num_bad_epochs, s.best, s.cooldown_counter)
print(s.state_dict())
opt = mk()
s1 = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3)
s2 = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)
s = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[s1, s2], milestones=[3])
for i in range(9):
    opt.step(); s.step(); print(i, s.get_last_lr())
sd = s.state_dict()
print(sd)
opt2 = mk()
t1 = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=0.1, total_iters=3)
t2 = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=5, eta_min=0.001)
t = torch.optim.lr_scheduler.SequentialLR(opt2, schedulers=[t1, t2], milestones=[3])
t.load_state_dict(sd)
print(t.last_epoch, t._last_lr, t1.last_epoch, t2.last_epoch)
opt = mk()
s = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)])
for i in range(4):
    opt.step(); s.step(); print(i, s.get_last_lr())
print(s.state_dict())
opt = mk()
s = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
for i in range(10):
    opt.step(); s.step(); print(i, s.get_last_lr(), s.T_cur, s.T_i)
s.step(2.5); print(s.get_last_lr())
print(s.state_dict())
opt = mk()
s = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4, 4], gamma=0.1)
for i in range(6):
    opt.step(); s.step(); print(i, s.get_last_lr())
print(s.state_dict())
opt = mk()
s = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='triangular2')
for i in range(8):
    opt.step(); s.step(); print(i, s.get_last_lr(), opt.param_groups[0]['momentum'])
print(sorted(s.state_dict().keys()))
opt = mk()
s = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
for i in range(6):
    opt.step(); s.step(); print(i, s.get_last_lr())
try:
    torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[s], milestones=[1, 2])
except ValueError as e:
    print(e)
try:
    torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0)
except ValueError as e:
    print(e)
try:
    torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1, lambda e: 2])
except ValueError as e:
    print(e)
opt = mk()
s = torch.optim.lr_scheduler.StepLR(opt, 1)
s.step(); opt.step()
''',
    'sched2': PRELUDE + r'''
import warnings
LR = torch.optim.lr_scheduler
def mk(cls=torch.optim.SGD, **kw):
    torch.manual_seed(0)
    m = nn.Linear(2, 2)
    return cls([{'params': [m.weight]}, {'params': [m.bias], 'lr': 0.5}], **kw)
def t(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            r = fn()
            print('ok', type(r).__name__ if hasattr(r, 'optimizer') else r)
        except Exception as e:
            print(type(e).__name__, str(e).split('\n')[0][:300])
        for x in w:
            print('  warn', x.category.__name__, str(x.message)[:200])
opt = mk(lr=0.1)
s = LR.StepLR(opt, 2)
t(lambda: s.get_lr())
t(lambda: s.optimizer is opt)
t(lambda: LR.StepLR(mk(lr=0.1), 2, last_epoch=5))
t(lambda: LR.ExponentialLR(mk(lr=0.1), 0.5, verbose=True))
class Lam:
    def __init__(self, k): self.k = k
    def __call__(self, e): return self.k ** e
opt = mk(lr=0.1)
s = LR.LambdaLR(opt, [Lam(0.5), lambda e: 1.0 / (e + 1)])
for i in range(3): opt.step(); s.step()
print(s.get_last_lr(), s.state_dict())
s2 = LR.LambdaLR(mk(lr=0.1), [Lam(0.9), lambda e: 1.0]); s2.load_state_dict(s.state_dict()); print(s2.lr_lambdas[0].k, s2.last_epoch)
opt = mk(lr=0.1)
s = LR.MultiplicativeLR(opt, lambda e: 0.9)
for i in range(3): opt.step(); s.step()
print(s.get_last_lr())
opt = mk(torch.optim.Adam, lr=0.1)
s = LR.OneCycleLR(opt, max_lr=[1.0, 2.0], epochs=2, steps_per_epoch=3, three_phase=True, anneal_strategy='linear', div_factor=10, final_div_factor=100, pct_start=0.4)
print(opt.param_groups[0]['betas'], opt.param_groups[1]['lr'], opt.param_groups[0]['max_lr'], opt.param_groups[0]['min_lr'])
for i in range(6):
    opt.step(); s.step(); print(i, [round(x, 8) for x in s.get_last_lr()], opt.param_groups[0]['betas'])
opt = mk(torch.optim.Adam, lr=0.1)
t(lambda: LR.CyclicLR(opt, 0.01, 0.1, step_size_up=2))
opt = mk(torch.optim.Adam, lr=0.1)
s = LR.CyclicLR(opt, 0.01, 0.1, step_size_up=2, cycle_momentum=False, mode='exp_range', gamma=0.9)
for i in range(5): opt.step(); s.step()
print([round(x, 8) for x in s.get_last_lr()])
opt = mk(torch.optim.SGD, lr=0.1, momentum=0.9)
s = LR.CyclicLR(opt, [0.01, 0.02], [0.1, 0.2], step_size_up=2, step_size_down=3, scale_fn=lambda x: 0.5 ** x, scale_mode='iterations')
for i in range(5): opt.step(); s.step()
print([round(x, 8) for x in s.get_last_lr()], opt.param_groups[0]['momentum'])
opt = mk(lr=0.1)
s = LR.ReduceLROnPlateau(opt, mode='max', threshold_mode='abs', threshold=0.1, patience=0, factor=0.1, eps=0.02, min_lr=[0.0, 0.01])
for v in [0.5, 0.55, 0.7, 0.65, 0.6, 0.9, 0.8, 0.7]:
    s.step(v); print(v, s.get_last_lr(), s.num_bad_epochs, s.last_epoch)
t(lambda: LR.ReduceLROnPlateau(mk(lr=0.1), mode='avg'))
t(lambda: LR.ReduceLROnPlateau(mk(lr=0.1), factor=1.0))
t(lambda: LR.ReduceLROnPlateau(mk(lr=0.1), threshold_mode='pct'))
t(lambda: LR.ReduceLROnPlateau(mk(lr=0.1), min_lr=[0.1]))
s = LR.ReduceLROnPlateau(mk(lr=0.1))
t(lambda: s.step(torch.tensor(0.5)))
t(lambda: s.step(float('nan')))
t(lambda: s.step('x'))
t(lambda: s.get_last_lr())
opt = mk(lr=torch.tensor(0.1))
s = LR.StepLR(opt, 1, gamma=0.5); opt.step(); s.step(); print(opt.param_groups[0]['lr'], s.get_last_lr())
opt = mk(lr=0.1)
s = LR.CosineAnnealingLR(opt, T_max=3)
for i in range(8): opt.step(); s.step(); print(i, [round(x, 10) for x in s.get_last_lr()])
opt = mk(lr=0.1)
s = LR.LinearLR(opt, start_factor=1.0, end_factor=0.0, total_iters=4)
for i in range(5): opt.step(); s.step()
print(s.get_last_lr())
t(lambda: LR.LinearLR(mk(lr=0.1), start_factor=0))
t(lambda: LR.ConstantLR(mk(lr=0.1), factor=2))
t(lambda: LR.StepLR(mk(lr=0.1), step_size=0))
t(lambda: LR.StepLR(mk(lr=0.1), step_size=1.5))
t(lambda: LR.MultiStepLR(mk(lr=0.1), milestones=[3, 1]))
t(lambda: LR.CosineAnnealingWarmRestarts(mk(lr=0.1), T_0=0))
t(lambda: LR.CosineAnnealingWarmRestarts(mk(lr=0.1), T_0=2, T_mult=1.5))
t(lambda: LR.PolynomialLR(mk(lr=0.1), total_iters=0))
opt = mk(lr=0.1)
s = LR.StepLR(opt, 1)
t(lambda: LR.SequentialLR(opt, [s, LR.StepLR(mk(lr=0.1), 1)], milestones=[1]))
t(lambda: LR.ChainedScheduler([s, LR.StepLR(mk(lr=0.1), 1)]))
t(lambda: LR.SequentialLR(opt, [s], milestones=[]))
t(lambda: LR.SequentialLR(opt, [], milestones=[]))
t(lambda: LR.StepLR('opt', 1))
opt = mk(lr=0.1)
s = LR.StepLR(opt, 1)
opt.step(); s.step(); s.step(); s.step()
print(s.last_epoch, s._step_count, s.get_last_lr(), opt._opt_called if hasattr(opt, '_opt_called') else None)
s.step(10) if False else None
t(lambda: s.step(10))
print(s.last_epoch, s.get_last_lr())
t(lambda: print(s.state_dict()))
''',
    'data': PRELUDE + r'''
import random
import numpy
U = torch.utils.data
Dataset, DataLoader, TensorDataset, WeightedRandomSampler, SubsetRandomSampler, BatchSampler, SequentialSampler, RandomSampler, random_split, Subset, ConcatDataset = U.Dataset, U.DataLoader, U.TensorDataset, U.WeightedRandomSampler, U.SubsetRandomSampler, U.BatchSampler, U.SequentialSampler, U.RandomSampler, U.random_split, U.Subset, U.ConcatDataset
DistributedSampler = U.distributed.DistributedSampler
class DS(Dataset):
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        return {'x': torch.tensor([i, i * 2.0]), 'y': i % 3, 'name': f"s{i}", 'r': torch.rand(1).item(), 'npr': float(numpy.random.rand()), 'pr': random.random()}
def collate(batch):
    return {'x': torch.stack([b['x'] for b in batch]), 'y': torch.tensor([b['y'] for b in batch]), 'names': [b['name'] for b in batch],
            'r': [round(b['r'], 6) for b in batch], 'npr': [round(b['npr'], 6) for b in batch], 'pr': [round(b['pr'], 6) for b in batch]}
def worker_init_fn(worker_id):
    info = torch.utils.data.get_worker_info()
    seed = torch.initial_seed() % 2**32
    numpy.random.seed(seed); random.seed(seed)
ds = DS(10); random.seed(0); numpy.random.seed(0)
torch.manual_seed(0)
print(next(iter(DataLoader(ds, batch_size=3))))
g = torch.Generator(); g.manual_seed(0)
dl = DataLoader(ds, batch_size=3, shuffle=True, collate_fn=collate, num_workers=2, worker_init_fn=worker_init_fn, generator=g, drop_last=True)
print(len(dl))
for ep in range(2):
    for b in dl:
        print(ep, b['x'].tolist(), b['y'], b['names'], b['r'], b['npr'], b['pr'])
dl = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, persistent_workers=True, generator=torch.Generator().manual_seed(1), collate_fn=collate)
for ep in range(2):
    print([b['names'] for b in dl])
    print([b['r'] for b in dl])
torch.manual_seed(3)
dl = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, collate_fn=collate)
print([(b['names'], b['r']) for b in dl])
print([b['names'] for b in DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate, prefetch_factor=1)])
w = [0.1, 0.9, 0.5, 0.2, 0.3, 0.0, 1.0, 2.0, 0.4, 0.6]
torch.manual_seed(0)
s = WeightedRandomSampler(w, num_samples=12, replacement=True)
print(list(s), len(s))
s = WeightedRandomSampler(torch.tensor(w, dtype=torch.double), 5, replacement=False, generator=torch.Generator().manual_seed(2))
print(list(s))
s = SubsetRandomSampler([1, 3, 5, 7, 9], generator=torch.Generator().manual_seed(4))
print(list(s), list(s), len(s))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(10), 4, True)), len(BatchSampler(range(10), 4, True)), len(BatchSampler(range(10), 4, False)))
dl = DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds, generator=torch.Generator().manual_seed(5)), 3, False), collate_fn=collate)
print([b['names'] for b in dl])
for rank in range(3):
    ss = DistributedSampler(ds, num_replicas=3, rank=rank, shuffle=True, seed=7)
    ss.set_epoch(1)
    print(rank, list(ss), len(ss), ss.total_size, ss.num_samples)
    ss = DistributedSampler(ds, num_replicas=3, rank=rank, shuffle=False, drop_last=True)
    print(rank, list(ss), len(ss))
ss = DistributedSampler(ds, num_replicas=4, rank=1)
dl = DataLoader(ds, batch_size=2, sampler=ss, collate_fn=collate)
for ep in range(2):
    ss.set_epoch(ep)
    print([b['names'] for b in dl])
try:
    DistributedSampler(ds, num_replicas=2, rank=2)
except ValueError as e:
    print(e)
try:
    DistributedSampler(ds)
except Exception as e:
    print(type(e).__name__, e)
a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(a.indices, b.indices, len(a), type(a).__name__)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
print(list(a), list(b), list(c))
a, b = random_split(range(11), [0.5, 0.5], generator=torch.Generator().manual_seed(1))
print(list(a), list(b))
try:
    random_split(range(10), [5, 4])
except ValueError as e:
    print(e)
try:
    DataLoader(ds, batch_size=2, shuffle=True, sampler=SequentialSampler(ds))
except ValueError as e:
    print(e)
try:
    DataLoader(ds, batch_sampler=BatchSampler(range(10), 2, False), batch_size=3)
except ValueError as e:
    print(e)
try:
    DataLoader(ds, persistent_workers=True)
except ValueError as e:
    print(e)
try:
    DataLoader(ds, prefetch_factor=2)
except ValueError as e:
    print(e)
td = TensorDataset(torch.arange(6.).view(3, 2), torch.tensor([0, 1, 0]))
print(list(DataLoader(td, batch_size=2)))
print(list(DataLoader(ConcatDataset([td, td]), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))))
try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print("assert", e)
print(list(DataLoader(Subset(ds, [2, 4]), batch_size=None))[0]['x'])
''',
    'data2': PRELUDE + r'''
import collections, random
import numpy
U = torch.utils.data
class It(U.IterableDataset):
    def __init__(self, start, end):
        super().__init__(); self.start = start; self.end = end
    def __iter__(self):
        info = U.get_worker_info()
        if info is None:
            s, e = self.start, self.end
        else:
            per = int(math.ceil((self.end - self.start) / float(info.num_workers)))
            s = self.start + info.id * per; e = min(s + per, self.end)
        return iter(range(s, e))
ds = It(3, 10)
print(list(U.DataLoader(ds, num_workers=0)))
print(list(U.DataLoader(ds, num_workers=2)))
print(list(U.DataLoader(ds, num_workers=2, batch_size=2)))
print(list(U.DataLoader(ds, num_workers=2, batch_size=2, drop_last=True)))
print(list(U.DataLoader(ds, batch_size=None, num_workers=2)))
class It2(U.IterableDataset):
    def __iter__(self):
        info = U.get_worker_info()
        wid = info.id if info else -1
        for i in range(3):
            yield {'w': wid, 'r': round(torch.rand(1).item(), 5), 'seed': info.seed % 1000 if info else None}
torch.manual_seed(0)
print(list(U.DataLoader(It2(), num_workers=2, batch_size=2)))
try:
    U.DataLoader(ds, shuffle=True)
except ValueError as e:
    print(e)
try:
    len(U.DataLoader(It2()))
except TypeError as e:
    print(e)
Point = collections.namedtuple('Point', ['x', 'y'])
batch = [Point(torch.tensor([1.0]), 2), Point(torch.tensor([3.0]), 4)]
print(U.default_collate(batch))
print(U.default_collate([numpy.array([1, 2]), numpy.array([3, 4])]))
print(U.default_collate([numpy.float64(1.5), numpy.float64(2.5)]))
print(U.default_collate([1.5, 2.5]), U.default_collate([True, False]), U.default_collate(['a', 'b']))
print(U.default_collate([{'a': (1, torch.zeros(2)), 'b': [1, 2]}, {'a': (3, torch.ones(2)), 'b': [3, 4]}]))
print(U.default_convert(numpy.array([1.0, 2.0])), U.default_convert([numpy.int64(3)]), U.default_convert({'k': numpy.zeros(2, dtype=numpy.float32)}))
try:
    U.default_collate([torch.zeros(2), torch.zeros(3)])
except RuntimeError as e:
    print(e)
try:
    U.default_collate([[1, 2], [3]])
except RuntimeError as e:
    print(e)
try:
    U.default_collate([object(), object()])
except TypeError as e:
    print(str(e).split(' found')[0])
try:
    U.default_collate([numpy.array(['a', 'b']), numpy.array(['c', 'd'])])
except TypeError as e:
    print(e)
class Bad(U.Dataset):
    def __len__(self): return 4
    def __getitem__(self, i):
        if i == 2: raise ValueError('bad item %d' % i)
        return i
try:
    list(U.DataLoader(Bad(), batch_size=1))
except ValueError as e:
    print(e)
try:
    list(U.DataLoader(Bad(), batch_size=1, num_workers=2))
except ValueError as e:
    print(str(e).splitlines()[0])
print(list(U.DataLoader(U.StackDataset(U.TensorDataset(torch.arange(3)), torch.arange(3) * 2), batch_size=2)))
print(list(U.DataLoader(U.StackDataset(a=torch.arange(3), b=[5, 6, 7]), batch_size=2)))
print(list(U.ChainDataset([It(0, 2), It(5, 7)])))
print(list(U.DataLoader(range(5), batch_size=2, sampler=[4, 3, 2, 1, 0])))
class MySampler(U.Sampler):
    def __init__(self, n): self.n = n
    def __iter__(self): return iter(range(self.n - 1, -1, -2))
    def __len__(self): return (self.n + 1) // 2
dl = U.DataLoader(list(range(10)), sampler=MySampler(10), batch_size=2)
print(list(dl), len(dl))
dl = U.DataLoader(list(range(10)), batch_size=3, pin_memory=False, timeout=0)
it = iter(dl); print(next(it), next(it), len(dl), type(it).__name__)
dl = U.DataLoader(list(range(10)), batch_size=3, num_workers=2)
it = iter(dl); print(type(it).__name__, next(it))
del it
s = U.RandomSampler(range(5), replacement=True, num_samples=8, generator=torch.Generator().manual_seed(3)); print(list(s), len(s))
s = U.RandomSampler(range(5), num_samples=12, generator=torch.Generator().manual_seed(3)); print(list(s))
try:
    U.RandomSampler(range(5), num_samples=0)
except ValueError as e:
    print(e)
try:
    U.WeightedRandomSampler([0.1, 0.2], 5, replacement=False)
except RuntimeError as e:
    print(e)
try:
    U.BatchSampler(range(3), 0, False)
except ValueError as e:
    print(e)
try:
    U.BatchSampler(range(3), 2, 'no')
except ValueError as e:
    print(e)
torch.manual_seed(0)
dl = U.DataLoader(range(10), batch_size=4, shuffle=True)
print([b.tolist() for b in dl], [b.tolist() for b in dl])
torch.manual_seed(0)
print(torch.rand(1).item())
dl = U.DataLoader(range(10), batch_size=4, shuffle=True, num_workers=2)
print([b.tolist() for b in dl], round(torch.rand(1).item(), 6))
''',
    'data3': PRELUDE + r'''
import warnings
U = torch.utils.data
class It(U.IterableDataset):
    def __init__(self, n, length): self.n = n; self.length = length
    def __iter__(self):
        info = U.get_worker_info()
        r = range(self.n) if info is None else range(info.id, self.n, info.num_workers)
        return iter(r)
    def __len__(self): return self.length
for nw in (0, 2):
    for bs in (None, 1, 2):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            dl = U.DataLoader(It(7, 5), batch_size=bs, num_workers=nw)
            print(nw, bs, len(dl), [x.tolist() if hasattr(x, 'tolist') else x for x in dl])
            for x in w: print('  warn', str(x.message)[:300])
class Sq(U.Dataset):
    def __init__(self): self.scale = 1
    def __len__(self): return 6
    def __getitem__(self, i): return i * self.scale
def wif(wid):
    info = U.get_worker_info()
    info.dataset.scale = 10 * (wid + 1)
    print_later = (info.id, info.num_workers)
dl = U.DataLoader(Sq(), batch_size=2, num_workers=2, worker_init_fn=wif)
print([b.tolist() for b in dl])
dl = U.DataLoader(Sq(), batch_size=2, num_workers=2, in_order=False)
print(sorted(b.tolist() for b in dl))
print(U.get_worker_info())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    dl = U.DataLoader(Sq(), batch_size=2, num_workers=3)
    print(len([b for b in dl]))
    for x in w: print('  warn', str(x.message)[:400])
dl = U.DataLoader(Sq(), batch_size=4, num_workers=2, persistent_workers=True)
it1 = iter(dl); print(next(it1)); it2 = iter(dl); print(it1 is it2, [b.tolist() for b in it2])
try:
    U.DataLoader(Sq(), num_workers=-1)
except ValueError as e:
    print(e)
try:
    U.DataLoader(Sq(), timeout=-1)
except ValueError as e:
    print(e)
dl = U.DataLoader(Sq(), batch_size=3); dl.batch_size
try:
    dl.batch_size = 5
except ValueError as e:
    print(e)
class Pair(U.Dataset):
    def __len__(self): return 4
    def __getitem__(self, i): return torch.full((2,), float(i)), {'id': i, 'txt': 'x' * i}
for x, y in U.DataLoader(Pair(), batch_size=3, num_workers=2):
    print(x, y)
print(U.DataLoader(Pair(), batch_size=3).dataset.__class__.__name__, U.DataLoader(Pair()).sampler.__class__.__name__, U.DataLoader(Pair(), shuffle=True).sampler.__class__.__name__, U.DataLoader(Pair()).batch_sampler.__class__.__name__)
dl = U.DataLoader(Pair(), batch_size=None); print(dl.batch_sampler, dl.batch_size, dl.drop_last, next(iter(dl)))
print(U.DataLoader(Pair(), batch_size=3, drop_last=True).__len__(), U.DataLoader(Pair(), batch_size=3).num_workers, U.DataLoader(Pair()).collate_fn.__name__, U.DataLoader(Pair(), batch_size=None).collate_fn.__name__)
print(U.DataLoader(Pair(), num_workers=2).prefetch_factor, U.DataLoader(Pair()).prefetch_factor, U.DataLoader(Pair()).persistent_workers, U.DataLoader(Pair()).pin_memory, U.DataLoader(Pair()).timeout)
print(U.DataLoader(Pair()).generator, U.DataLoader(Pair()).multiprocessing_context, U.DataLoader(Pair()).worker_init_fn)
''',
    'data4': PRELUDE + r'''
U = torch.utils.data
class A(U.Dataset):
    def __init__(self, n, off=0): self.n = n; self.off = off
    def __len__(self): return self.n
    def __getitem__(self, i): return i + self.off
class G(A):
    calls = []
    def __getitems__(self, idx):
        G.calls.append(list(idx))
        return [i * 100 for i in idx]
c = A(3) + A(2, 10)
print(type(c).__name__, len(c), [c[i] for i in range(5)], c.cumulative_sizes, c[-1], c[-5])
def t(fn):
    try:
        print('ok', fn())
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: c[-6])
t(lambda: c[5])
t(lambda: U.ConcatDataset([]))
t(lambda: U.ConcatDataset([U.ChainDataset([])]))
s = U.Subset(U.Subset(A(10), [1, 3, 5, 7]), [0, 2]); print([s[i] for i in range(len(s))], s.__getitems__([0, 1]))
print(list(U.DataLoader(G(5), batch_size=2)), G.calls)
G.calls.clear()
print(list(U.DataLoader(U.Subset(G(5), [4, 0, 2]), batch_size=2)), G.calls)
print(list(U.DataLoader(G(3), batch_size=None)))
def coll_str(batch, *, collate_fn_map=None):
    return '|'.join(batch)
cm = dict(U._utils.collate.default_collate_fn_map); cm[str] = coll_str
print(U._utils.collate.collate([{'a': 'x', 'b': torch.ones(1)}, {'a': 'y', 'b': torch.zeros(1)}], collate_fn_map=cm))
try:
    U._utils.collate.collate([object()], collate_fn_map={})
except TypeError as e:
    print(str(e)[:60])
t(lambda: U.IterableDataset())
class I(U.IterableDataset):
    def __iter__(self): return iter([1, 2])
print(list(I() + I()), type(I() + I()).__name__)
t(lambda: I()[0])
t(lambda: U.Dataset()[0])
t(lambda: U.Subset(A(3), [5])[0])
t(lambda: U.TensorDataset()[0] if False else len(U.TensorDataset(torch.zeros(2, 1))))
t(lambda: U.TensorDataset(torch.arange(4))[1:3])
t(lambda: U.TensorDataset(torch.arange(4), torch.arange(4) * 2)[torch.tensor([0, 2])])
td = U.TensorDataset(torch.arange(6).view(3, 2))
t(lambda: list(U.DataLoader(td, batch_size=2, collate_fn=lambda b: b)))
t(lambda: list(U.DataLoader(td, batch_size=2, collate_fn=list)))
t(lambda: next(iter(U.DataLoader(A(4), batch_size=2, collate_fn=torch.tensor))))
''',
    'data5': PRELUDE + r'''
import random
import numpy
U = torch.utils.data
class R(U.Dataset):
    def __len__(self): return 6
    def __getitem__(self, i):
        info = U.get_worker_info()
        return (i, info.id if info else -1, round(random.random(), 6), round(float(numpy.random.rand()), 6), round(torch.rand(1).item(), 6), torch.initial_seed() % 10**6, numpy.random.get_state()[1][0])
random.seed(0); numpy.random.seed(0)
for seed in (0, 1):
    torch.manual_seed(seed)
    for b in U.DataLoader(R(), batch_size=2, num_workers=2, collate_fn=lambda b: b):
        print(b)
g = torch.Generator(); g.manual_seed(7)
for b in U.DataLoader(R(), batch_size=3, num_workers=2, collate_fn=lambda b: b, generator=g, shuffle=True):
    print(b)
print(torch.rand(1).item() if False else round(torch.rand(1).item(), 6), round(random.random(), 6), round(float(numpy.random.rand()), 6))
''',
    'data6': PRELUDE + r'''
import warnings
U = torch.utils.data
def t(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            r = fn(); print('ok', type(r).__name__ if hasattr(r, 'dataset') else r)
        except Exception as e:
            print(type(e).__name__, str(e).split('\n')[0][:300])
        for x in w:
            print('  warn', x.category.__name__, str(x.message)[:300])
t(lambda: [b for b in U.DataLoader(list(range(4)), batch_size=2, pin_memory=True)])
t(lambda: [b.is_pinned() for b in U.DataLoader(list(range(4)), batch_size=2, pin_memory=True, num_workers=2)])
t(lambda: [b for b in U.DataLoader(list(range(4)), batch_size=2, pin_memory=True, pin_memory_device='cpu')])
t(lambda: [b for b in U.DataLoader(list(range(4)), batch_size=2, multiprocessing_context='fork', num_workers=1)])
t(lambda: U.DataLoader(list(range(4)), multiprocessing_context='fork'))
t(lambda: U.DataLoader(list(range(4)), multiprocessing_context='nope', num_workers=1))
t(lambda: U.DataLoader(list(range(4)), multiprocessing_context=3, num_workers=1))
t(lambda: [b for b in U.DataLoader(list(range(4)), batch_size=2, num_workers=1, timeout=5)])
t(lambda: U.DataLoader(list(range(4)), batch_size=0))
t(lambda: U.DataLoader(list(range(4)), batch_size=-1))
t(lambda: U.DataLoader(list(range(4)), batch_size=2.5))
t(lambda: list(U.DataLoader(list(range(4)), batch_size=None, drop_last=True)))
t(lambda: U.DataLoader(list(range(4)), sampler=[0, 1], shuffle=True))
t(lambda: U.DataLoader(list(range(4)), shuffle=1))
t(lambda: list(U.DataLoader(list(range(4)), shuffle=None)))
t(lambda: U.DataLoader(list(range(4)), collate_fn=3))
t(lambda: list(U.DataLoader(list(range(4)), worker_init_fn=lambda i: 1/0, num_workers=1)))
t(lambda: list(U.DataLoader(list(range(4)), collate_fn=lambda b: 1/0)))
class It(U.IterableDataset):
    def __iter__(self): return iter(range(3))
t(lambda: U.DataLoader(It(), sampler=[0]))
t(lambda: U.DataLoader(It(), batch_sampler=[[0]]))
t(lambda: list(U.DataLoader(It(), batch_size=2, drop_last=True)))
t(lambda: U.DataLoader(It(), shuffle=False).sampler.__class__.__name__)
''',
    'samp2': PRELUDE + r'''
import warnings, numpy
U = torch.utils.data
def t(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            r = fn()
            print('ok', r)
        except Exception as e:
            print(type(e).__name__, str(e).split('\n')[0][:300])
        for x in w:
            print('  warn', x.category.__name__, str(x.message)[:200])
for rank in range(5):
    t(lambda: list(U.DistributedSampler(range(2), num_replicas=5, rank=rank, shuffle=False)))
    t(lambda: list(U.DistributedSampler(range(2), num_replicas=5, rank=rank, shuffle=True, seed=1)))
    t(lambda: list(U.DistributedSampler(range(7), num_replicas=5, rank=rank, drop_last=True)))
t(lambda: len(U.DistributedSampler(range(2), num_replicas=5, rank=0, drop_last=True)))
t(lambda: U.DistributedSampler(range(2), num_replicas=5, rank=-1))
t(lambda: U.DistributedSampler(range(2), num_replicas=0, rank=0))
t(lambda: list(U.WeightedRandomSampler(numpy.array([0.1, 0.9]), 4, generator=torch.Generator().manual_seed(0))))
t(lambda: list(U.WeightedRandomSampler([-0.1, 0.9], 4)))
t(lambda: list(U.WeightedRandomSampler([[0.1, 0.9]], 4)))
t(lambda: U.WeightedRandomSampler([0.1, 0.9], 0))
t(lambda: U.WeightedRandomSampler([0.1, 0.9], 2.5))
t(lambda: U.WeightedRandomSampler([0.1, 0.9], 2, replacement=1))
t(lambda: list(U.WeightedRandomSampler([0.0, 0.0], 2)))
t(lambda: list(U.SubsetRandomSampler(torch.tensor([5, 6, 7]), generator=torch.Generator().manual_seed(0))))
t(lambda: list(U.BatchSampler(U.SubsetRandomSampler(torch.tensor([5, 6, 7]), generator=torch.Generator().manual_seed(0)), 2, False)))
t(lambda: [b for b in U.DataLoader(list(range(10)), sampler=U.SubsetRandomSampler(torch.tensor([5, 6, 7]), generator=torch.Generator().manual_seed(0)), batch_size=2)])
t(lambda: [list(s) for s in U.random_split(range(10), [0.34, 0.33, 0.33], generator=torch.Generator().manual_seed(0))])
t(lambda: [list(s) for s in U.random_split(range(3), [0.9, 0.05, 0.05], generator=torch.Generator().manual_seed(0))])
t(lambda: [list(s) for s in U.random_split(range(3), [0.5, 0.6])])
t(lambda: [list(s) for s in U.random_split(range(3), [-1, 4])])
t(lambda: [list(s) for s in U.random_split(range(3), [1.0, 0.0], generator=torch.Generator().manual_seed(0))])
t(lambda: [list(s) for s in U.random_split(torch.arange(6), [3, 3], generator=torch.Generator().manual_seed(0))])
t(lambda: list(U.SequentialSampler(range(3))))
t(lambda: list(U.RandomSampler([], generator=torch.Generator().manual_seed(0))))
t(lambda: list(U.RandomSampler(range(3), replacement='y')))
t(lambda: list(U.RandomSampler(range(3), num_samples=2.0)))
t(lambda: [list(s) for s in U.random_split(range(3), [3])])
torch.manual_seed(0)
t(lambda: list(U.RandomSampler(range(40))))
torch.manual_seed(0)
t(lambda: list(U.RandomSampler(range(40), replacement=True, num_samples=70)))
torch.manual_seed(0)
t(lambda: list(U.WeightedRandomSampler(torch.rand(40), 50)))
torch.manual_seed(0)
t(lambda: list(U.WeightedRandomSampler(torch.rand(40), 30, replacement=False)))
t(lambda: (lambda s: (s.set_epoch(3), list(s), s.epoch))(U.DistributedSampler(range(9), num_replicas=2, rank=1)))
t(lambda: (lambda s: [list(s), s.num_replicas, s.rank, s.shuffle, s.seed, s.drop_last])(U.DistributedSampler(list(range(9)), num_replicas=2, rank=0, seed=3)))
''',
    'misc1': PRELUDE + r'''
import copy
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(4, 6), nn.LayerNorm(6), nn.GELU(approximate='tanh'))
        self.blocks = nn.ModuleList([nn.Sequential(nn.Conv1d(6, 6, 3, padding=1), nn.BatchNorm1d(6)) for _ in range(2)])
        self.head = nn.Linear(6, 3)
        self.register_buffer('steps', torch.zeros((), dtype=torch.long))
        self.register_buffer('tmp', torch.ones(2), persistent=False)
        self.scale = nn.Parameter(torch.ones(1))
    def forward(self, x):
        h = self.enc(x)
        h = h.unsqueeze(-1).expand(-1, -1, 3)
        for b in self.blocks:
            h = h + b(h)
        self.steps += 1
        return self.head(h.mean(-1)) * self.scale
    def extra_repr(self):
        return 'custom=1'
m = Net()
print(m)
print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in m.parameters() if p.requires_grad))
print(list(m.state_dict().keys()))
print([(n, tuple(b.shape)) for n, b in m.named_buffers()])
for name in ['SGD', 'Adam', 'AdamW', 'RMSprop', 'Adagrad', 'Adadelta', 'Adamax', 'NAdam', 'RAdam', 'ASGD', 'Rprop']:
    o = getattr(torch.optim, name)(m.parameters(), lr=0.01)
    print(o)
o = torch.optim.AdamW([{'params': m.enc.parameters(), 'lr': 1e-3}, {'params': m.head.parameters()}], lr=1e-2, foreach=True, amsgrad=True)
print(o)
o = torch.optim.Adam(m.parameters(), lr=torch.tensor(0.01), foreach=False, capturable=False, differentiable=False, fused=None)
print(o)
o = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, dampening=0.1, foreach=True)
print(o)
print(o.defaults)
# activation logging hooks
acts = {}
def hook(name):
    def f(mod, inp, out):
        acts[name] = (type(inp).__name__, len(inp), tuple(out.shape), round(out.detach().float().abs().mean().item(), 4))
    return f
hs = [mod.register_forward_hook(hook(n)) for n, mod in m.named_modules() if isinstance(mod, (nn.Linear, nn.Conv1d))]
pre = m.head.register_forward_pre_hook(lambda mod, inp: print('pre', type(inp).__name__, inp[0].shape))
grads = {}
bh = m.head.register_full_backward_hook(lambda mod, gi, go: grads.setdefault('head', (len(gi), len(go), tuple(go[0].shape), gi[0] is None)))
th = m.enc[0].weight.register_hook(lambda g: print('tensor hook', g.shape))
x = torch.randn(5, 4)
out = m(x)
out.sum().backward()
for k, v in acts.items(): print(k, v)
print(grads, m.steps)
for h in hs: h.remove()
pre.remove(); bh.remove(); th.remove()
out = m(x); print(len(acts), m.steps.item())
print(m.training, m.blocks[0][1].training)
m.eval(); print(m.training, m.blocks[0][1].training, m.blocks[0][1].running_mean.sum().item() != 0)
with torch.no_grad():
    e1 = m(x)
m.train(); print(m.training)
m.train(False); print(m.training); m.train()
print(m.blocks[1][1].num_batches_tracked)
# EMA
ema = copy.deepcopy(m)
for p in ema.parameters(): p.requires_grad_(False)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
@torch.no_grad()
def ema_update(ema, model, decay):
    msd = model.state_dict()
    for k, v in ema.state_dict().items():
        if v.dtype.is_floating_point:
            v.mul_(decay).add_(msd[k].detach(), alpha=1 - decay)
@torch.no_grad()
def ema_lerp(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.lerp_(p, 1 - decay)
    ema_b = list(ema.buffers()); mb = list(model.buffers())
    torch._foreach_lerp_([b for b in ema_b if b.is_floating_point()], [b for b in mb if b.is_floating_point()], 0.1)
@torch.no_grad()
def ema_foreach(ema, model, decay):
    ep = list(ema.parameters()); mp = list(model.parameters())
    torch._foreach_mul_(ep, decay)
    torch._foreach_add_(ep, mp, alpha=1 - decay)
for step in range(3):
    opt.zero_grad()
    F.cross_entropy(m(x), torch.tensor([0, 1, 2, 0, 1])).backward()
    opt.step()
    ema_update(ema, m, 0.9)
    ema_lerp(ema, m, 0.9)
    ema_foreach(ema, m, 0.99)
    print(step, [round(p.sum().item(), 5) for p in ema.parameters()][:4], ema.steps.item(), ema.blocks[0][1].num_batches_tracked.item())
print(ema.scale.requires_grad, ema.enc[0].weight.grad)
''',
    'misc2': PRELUDE + r'''
torch.manual_seed(0)
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('high'); print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('medium'); print(torch.get_float32_matmul_precision())
try:
    torch.set_float32_matmul_precision('low')
except Exception as e:
    print(type(e).__name__, e)
torch.set_float32_matmul_precision('highest')
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic, torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.backends.cudnn.enabled)
torch.backends.cudnn.benchmark = True; torch.backends.cuda.matmul.allow_tf32 = True; torch.backends.cudnn.allow_tf32 = True
print(torch.backends.cudnn.benchmark, torch.backends.cuda.matmul.allow_tf32, torch.get_float32_matmul_precision())
torch.backends.cuda.matmul.allow_tf32 = False; print(torch.get_float32_matmul_precision())
torch.backends.cudnn.benchmark = False
print(torch.backends.mps.is_available(), torch.cuda.is_available(), torch.backends.mkldnn.is_available() in (True, False), torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction, torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(True); print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(True, warn_only=True); print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.mem_efficient_sdp_enabled(), torch.backends.cuda.math_sdp_enabled())
device = 'cuda' if torch.cuda.is_available() else 'cpu'
device_type = 'cuda' if 'cuda' in device else 'cpu'
ptdtype = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}['bfloat16']
import contextlib
ctx = contextlib.nullcontext() if device_type == 'cpu' else torch.amp.autocast(device_type=device_type, dtype=ptdtype)
print(type(ctx).__name__)
scaler = torch.amp.GradScaler(device_type, enabled=(ptdtype == torch.float16))
print(scaler.is_enabled(), scaler.get_scale() if scaler.is_enabled() else None)
m = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(3, 4)
with torch.autocast('cpu', dtype=torch.bfloat16):
    y = m(x)
    print(y.dtype, torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    l = F.cross_entropy(y, torch.tensor([0, 1, 0]))
    print(l.dtype)
    s = y.float().softmax(-1); print(s.dtype)
    z = torch.mm(x, x.t()); print(z.dtype)
    print((y + 1).dtype, y.sum().dtype, F.layer_norm(y, (2,)).dtype, torch.exp(y).dtype, F.gelu(y).dtype)
    with torch.autocast('cpu', enabled=False):
        print(m(x).dtype, torch.is_autocast_enabled('cpu'))
print(y.float().tolist()[:1], round(l.item(), 2))
l.backward(); print(m[0].weight.grad.dtype)
with torch.amp.autocast('cpu'):
    print(m(x).dtype, torch.get_autocast_dtype('cpu'))
with torch.autocast(device_type='cpu', dtype=torch.float16):
    print(m(x).dtype)
try:
    with torch.autocast('cpu', dtype=torch.float64):
        pass
except Exception as e:
    print(type(e).__name__, e)
@torch.autocast('cpu', dtype=torch.bfloat16)
def f(a): return a @ a
print(f(x.t()[:3]).dtype)
@torch.compile
def g(a, b):
    return torch.sin(a) + b * 2
print(g(torch.ones(2), torch.ones(2)), type(g).__name__ if not callable(g) else callable(g))
cm = torch.compile(m)
print(type(cm).__name__, cm(x).shape, cm._orig_mod is m)
print(cm)
print(list(cm.state_dict().keys()))
cm2 = torch.compile(m, mode='max-autotune', fullgraph=False, dynamic=None)
print(round(cm2(x).sum().item(), 4) == round(m(x).sum().item(), 4))
@torch.compile(mode="reduce-overhead")
def h(a):
    print("traced side effect")
    return a * 2
print(h(torch.ones(1)))
print(h(torch.ones(1)))
print(torch.compiler.is_compiling(), torch._dynamo.is_compiling())
torch._dynamo.reset()
opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
cstep = torch.compile(opt.step)
m(x).sum().backward(); cstep(); print(opt.state[m[0].weight]['step'])
try:
    torch.compile(m, mode='bogus')
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.compile(m, backend='nope')(x)
except Exception as e:
    print(type(e).__name__, str(e)[:80])
''',
    'foreach': PRELUDE + r'''
torch.manual_seed(0)
a = [torch.randn(3), torch.randn(2, 2)]
b = [torch.randn(3), torch.randn(2, 2)]
c = [torch.rand(3) + 0.5, torch.rand(2, 2) + 0.5]
def show(name, r):
    if r is None: print(name, None); return
    print(name, [t.round(decimals=5).tolist() if isinstance(t, torch.Tensor) and t.is_floating_point() else t for t in r])
for op in ['abs', 'neg', 'exp', 'sqrt', 'sign', 'sigmoid', 'reciprocal', 'floor', 'ceil', 'round', 'trunc', 'frac', 'log', 'tanh', 'sin', 'cos', 'expm1', 'log1p', 'erf', 'lgamma', 'zero_']:
    try:
        src = c if op in ('log', 'sqrt', 'lgamma') else a
        r = getattr(torch, '_foreach_' + op)([t.clone() for t in src])
        show(op, r)
    except Exception as e:
        print(op, type(e).__name__, e)
show('add', torch._foreach_add(a, b))
show('add_s', torch._foreach_add(a, 2.5))
show('add_l', torch._foreach_add(a, [1.0, 2.0]))
show('add_alpha', torch._foreach_add(a, b, alpha=0.5))
show('add_t', torch._foreach_add(a, torch.tensor(3.0)))
show('sub', torch._foreach_sub(a, b, alpha=2))
show('mul', torch._foreach_mul(a, b))
show('mul_t', torch._foreach_mul(a, torch.tensor(2.0)))
show('div', torch._foreach_div(a, c))
show('div_s', torch._foreach_div(a, 3))
show('pow', torch._foreach_pow(c, 2))
show('pow_s', torch._foreach_pow(2.0, a))
show('pow_l', torch._foreach_pow(c, b))
show('max', torch._foreach_maximum(a, b))
show('min', torch._foreach_minimum(a, 0.1))
show('clamp_min', torch._foreach_clamp_min(a, 0.0))
show('clamp_max', torch._foreach_clamp_max(a, [0.0, 0.5]))
show('addcmul', torch._foreach_addcmul(a, b, c, value=0.5))
show('addcdiv', torch._foreach_addcdiv(a, b, c, value=-0.1))
show('addcdiv_l', torch._foreach_addcdiv(a, b, c, [0.1, 0.2]))
show('addcdiv_t', torch._foreach_addcdiv(a, b, c, torch.tensor([0.1, 0.2])))
show('lerp', torch._foreach_lerp(a, b, 0.3))
show('lerp_t', torch._foreach_lerp(a, b, c))
show('norm', torch._foreach_norm(a))
show('norm1', torch._foreach_norm(a, 1))
show('norminf', torch._foreach_norm(a, float('inf')))
show('norm_dt', torch._foreach_norm(a, 2, dtype=torch.float64))
print(torch._foreach_norm(a)[0].dtype, torch._foreach_norm(a, dtype=torch.float64)[0].dtype)
show('max_r', torch._foreach_max(a))
show('sqrt_', torch._foreach_sqrt_([t.clone() for t in c]))
x = [t.clone() for t in a]
r = torch._foreach_mul_(x, 2.0); print(r)
torch._foreach_copy_(x, b); show('copy_', x)
show('sign', torch._foreach_sign(a))
try:
    torch._foreach_add(a, b[:1])
except Exception as e:
    print(type(e).__name__, e)
try:
    torch._foreach_add(a, [1.0])
except Exception as e:
    print(type(e).__name__, e)
try:
    torch._foreach_add([], [])
except Exception as e:
    print(type(e).__name__, e)
try:
    torch._foreach_mul(a, [torch.randn(2), torch.randn(2, 2)])
except Exception as e:
    print(type(e).__name__, e)
ai = [torch.tensor([1, 2]), torch.tensor([3])]
show('int_div', torch._foreach_div(ai, 2))
show('int_add_f', torch._foreach_add(ai, 1.5))
show('mixed', torch._foreach_add([torch.tensor([1, 2]), torch.tensor([1.5])], 1))
p = [torch.randn(3, requires_grad=True)]
try:
    torch._foreach_add_(p, 1.0)
except Exception as e:
    print(type(e).__name__, e)
q = torch._foreach_mul(p, 2.0); print(q[0].grad_fn is not None, q[0].requires_grad)
''',
    'clip': PRELUDE + r'''
import warnings
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(5, 3)
m(x).pow(2).sum().backward()
g0 = [p.grad.clone() for p in m.parameters()]
def reset():
    for p, g in zip(m.parameters(), g0): p.grad = g.clone()
for kw in [dict(max_norm=0.5), dict(max_norm=0.5, norm_type=1), dict(max_norm=0.5, norm_type='inf'), dict(max_norm=0.5, norm_type=float('inf')), dict(max_norm=100.0), dict(max_norm=0.5, foreach=True), dict(max_norm=0.5, foreach=False), dict(max_norm=0.1, norm_type=3.0), dict(max_norm=0.5, norm_type=0)]:
    reset()
    try:
        n = torch.nn.utils.clip_grad_norm_(m.parameters(), **kw)
        print(kw, n.dtype, n.shape, round(n.item(), 4), [round(p.grad.norm().item(), 4) for p in m.parameters()])
    except Exception as e:
        print(kw, type(e).__name__, e)
reset()
n = torch.nn.utils.clip_grad_norm_(m[0].weight, 0.1); print(round(n.item(), 4))
reset()
m[0].weight.grad[0, 0] = float('nan')
n = torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0); print(n, m[2].weight.grad.isnan().all().item())
reset(); m[0].weight.grad[0, 0] = float('inf')
try:
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(e)
reset()
torch.nn.utils.clip_grad_value_(m.parameters(), 0.05)
print([round(p.grad.abs().max().item(), 4) for p in m.parameters()])
reset()
print(torch.nn.utils.clip_grad_norm_([], 1.0))
m2 = nn.Linear(2, 2)
print(torch.nn.utils.clip_grad_norm_(m2.parameters(), 1.0))
reset()
if hasattr(torch.nn.utils, 'get_total_norm'):
    grads = [p.grad for p in m.parameters()]
    tn = torch.nn.utils.get_total_norm(grads, norm_type=2.0)
    print(round(tn.item(), 4))
    torch.nn.utils.clip_grads_with_norm_(m.parameters(), 0.5, tn)
    print([round(p.grad.norm().item(), 4) for p in m.parameters()])
v = torch.nn.utils.parameters_to_vector(m.parameters()); print(v.shape, round(v.sum().item(), 4))
torch.nn.utils.vector_to_parameters(v * 0 + 1, m.parameters()); print(m[0].bias)
try:
    torch.nn.utils.vector_to_parameters(torch.zeros(3), m.parameters())
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.nn.utils.parameters_to_vector(m.parameters().__next__())
except Exception as e:
    print(type(e).__name__, e)
# clip with no_grad and grad scaling by hand
reset()
with torch.no_grad():
    norm = torch.norm(torch.stack([torch.norm(p.grad.detach(), 2) for p in m.parameters()]), 2)
    print(round(norm.item(), 4))
    coef = 0.5 / (norm + 1e-6)
    for p in m.parameters(): p.grad.mul_(coef.clamp(max=1.0))
print([round(p.grad.norm().item(), 4) for p in m.parameters()])
# grad accumulation
torch.manual_seed(1)
m = nn.Linear(3, 1); opt = torch.optim.SGD(m.parameters(), lr=0.1)
data = torch.randn(8, 3); tgt = torch.randn(8, 1)
accum = 4
for i in range(8):
    loss = F.mse_loss(m(data[i:i+1]), tgt[i:i+1]) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        print(i, round(m.weight.grad.sum().item(), 5))
        opt.step(); opt.zero_grad()
        print(m.weight.grad)
opt.zero_grad(set_to_none=False); print(m.weight.grad)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    sched = torch.optim.lr_scheduler.StepLR(opt, 1)
    sched.step()
    print([str(x.message)[:90] for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    s2 = torch.optim.lr_scheduler.StepLR(opt, 1)
    s2.step(0)
    print([str(x.message)[:120] for x in w])
try:
    torch.optim.SGD([m.weight, m.weight], lr=0.1)
except Exception as e:
    print(type(e).__name__, e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    try:
        torch.optim.SGD([m.weight, m.weight], lr=0.1)
    except Exception:
        pass
    print([str(x.message)[:140] for x in w])
try:
    torch.optim.SGD([torch.randn(2, requires_grad=True) * 2], lr=0.1)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.Adam(m.parameters(), lr=-1)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.Adam(m.parameters(), betas=(1.0, 0.9))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.SGD(m.parameters())
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.SGD([], lr=0.1)
except Exception as e:
    print(type(e).__name__, e)
o = torch.optim.SGD([m.weight], lr=0.1)
try:
    o.add_param_group({'params': m.weight})
except Exception as e:
    print(type(e).__name__, e)
o.add_param_group({'params': m.bias, 'lr': 0.01}); print(o)
try:
    o.add_param_group({'lr': 0.01})
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.SGD({'a': m.weight}, lr=0.1)
except Exception as e:
    print(type(e).__name__, e)
o = torch.optim.AdamW(m.named_parameters(), lr=0.1); print(o.state_dict()['param_groups'])
loss = m(data).sum(); loss.backward()
try:
    loss.backward()
except RuntimeError as e:
    print(e)
''',
    'swa': PRELUDE + r'''
swa_utils = torch.optim.swa_utils
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
swa = swa_utils.AveragedModel(m)
ema = swa_utils.AveragedModel(m, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.9))
ema2 = swa_utils.AveragedModel(m, avg_fn=swa_utils.get_ema_avg_fn(0.8), use_buffers=True)
sched = swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy='cos')
print(swa)
print(list(swa.state_dict().keys()))
print(sched.state_dict())
X = torch.randn(16, 3); Y = torch.randint(0, 2, (16,))
for ep in range(5):
    opt.zero_grad(); F.cross_entropy(m(X), Y).backward(); opt.step()
    swa.update_parameters(m); ema.update_parameters(m); ema2.update_parameters(m)
    sched.step()
    print(ep, sched.get_last_lr(), swa.n_averaged, round(swa.module[0].weight.sum().item(), 5), round(ema.module[0].weight.sum().item(), 5), round(ema2.module[1].running_mean.sum().item(), 5))
loader = [(X[:8], Y[:8]), (X[8:], Y[8:])]
print(swa.module[1].running_mean)
swa_utils.update_bn(loader, swa)
print(swa.module[1].running_mean.round(decimals=4), swa.module[1].momentum, swa.module[1].num_batches_tracked)
print(round(swa(X).sum().item(), 4))
sd = swa.state_dict(); print(sd['n_averaged'])
try:
    swa_utils.SWALR(opt, swa_lr=0.05, anneal_strategy='exp')
except ValueError as e:
    print(e)
try:
    swa_utils.SWALR(opt, swa_lr=[0.1, 0.2])
except ValueError as e:
    print(e)
try:
    swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=-1)
except ValueError as e:
    print(e)
# LBFGS
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
o = torch.optim.LBFGS([w], lr=0.5, max_iter=5, history_size=3, line_search_fn='strong_wolfe')
def closure():
    o.zero_grad()
    l = ((w - torch.tensor([1., 2., 3.])) ** 2).sum() + (w ** 4).sum() * 0.01
    l.backward()
    return l
for i in range(3):
    l = o.step(closure); print(i, round(l.item(), 5), w.detach().round(decimals=4))
print(list(o.state_dict()['state'][0].keys()), o.state_dict()['state'][0]['func_evals'], o.state_dict()['state'][0]['n_iter'])
print(o)
# custom optimizer
class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01, mom=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, mom=mom))
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None: continue
                st = self.state[p]
                if 'buf' not in st:
                    st['buf'] = torch.zeros_like(p)
                    st['step'] = 0
                st['step'] += 1
                st['buf'].mul_(group['mom']).add_(p.grad)
                p.add_(st['buf'], alpha=-group['lr'])
        return loss
torch.manual_seed(0)
m = nn.Linear(2, 1)
o = MySGD(m.parameters(), lr=0.1, mom=0.9)
print(o)
calls = []
o.register_step_pre_hook(lambda opt, a, k: calls.append('pre'))
o.register_step_post_hook(lambda opt, a, k: calls.append('post'))
for i in range(2):
    o.zero_grad(); m(torch.ones(1, 2)).sum().backward(); o.step()
print(calls, o.state_dict())
sd = o.state_dict()
o2 = MySGD(nn.Linear(2, 1).parameters(), lr=0.5)
o2.load_state_dict(sd); print(o2.param_groups[0]['lr'], o2.state_dict()['state'][0]['step'])
o.register_state_dict_pre_hook(lambda opt: print('sd pre'))
o.register_state_dict_post_hook(lambda opt, sd: sd.__setitem__('extra', 1) or sd)
print(o.state_dict().get('extra'))
o.register_load_state_dict_pre_hook(lambda opt, sd: print('load pre', sorted(sd)))
o.register_load_state_dict_post_hook(lambda opt: print('load post'))
o.load_state_dict(sd)
try:
    MySGD(m.parameters(), lr=-1)
except ValueError as e:
    print(e)
# Adam state_dict loaded into double params
torch.manual_seed(0)
m = nn.Linear(2, 2)
o = torch.optim.Adam(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward(); o.step()
sd = o.state_dict()
print(sd['state'][0]['step'], sd['state'][0]['step'].dtype, sd['param_groups'])
md = nn.Linear(2, 2).double()
od = torch.optim.Adam(md.parameters(), lr=0.1)
od.load_state_dict(sd)
print(od.state[md.weight]['exp_avg'].dtype, od.state[md.weight]['step'].dtype, od.state[md.weight]['exp_avg_sq'].dtype)
o3 = torch.optim.Adam([nn.Parameter(torch.zeros(3))])
try:
    o3.load_state_dict(sd)
except ValueError as e:
    print(e)
''',
    'timm': PRELUDE + r'''
import numpy, copy, warnings
numpy.random.seed(0); torch.manual_seed(0)
def accuracy(output, target, topk=(1,)):
    maxk = min(max(topk), output.size()[1])
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.reshape(1, -1).expand_as(pred))
    return [correct[:min(k, maxk)].reshape(-1).float().sum(0) * 100. / batch_size for k in topk]
class AverageMeter:
    def __init__(self): self.reset()
    def reset(self): self.val = 0; self.avg = 0; self.sum = 0; self.count = 0
    def update(self, val, n=1):
        self.val = val; self.sum += val * n; self.count += n; self.avg = self.sum / self.count
class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9999, device=None):
        super().__init__()
        self.module = copy.deepcopy(model); self.module.eval(); self.decay = decay
    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                ema_v.copy_(update_fn(ema_v, model_v))
    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)
class ModelEmaV3(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__(); self.module = copy.deepcopy(model); self.decay = decay
    @torch.no_grad()
    def update(self, model, step=None):
        ema_lerp_values, model_lerp_values = [], []
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.is_floating_point():
                ema_lerp_values.append(ema_v); model_lerp_values.append(model_v)
            else:
                ema_v.copy_(model_v)
        torch._foreach_lerp_(ema_lerp_values, model_lerp_values, weight=1. - self.decay)
class SoftTargetCrossEntropy(nn.Module):
    def forward(self, x, target):
        loss = torch.sum(-target * F.log_softmax(x, dim=-1), dim=-1)
        return loss.mean()
def one_hot(x, num_classes, on_value=1., off_value=0.):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value, device=x.device).scatter_(1, x, on_value)
def mixup_target(target, num_classes, lam=1., smoothing=0.0):
    off_value = smoothing / num_classes
    on_value = 1. - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value)
    return y1 * lam + y2 * (1. - lam)
def rand_bbox(img_shape, lam, margin=0., count=None):
    ratio = numpy.sqrt(1 - lam)
    img_h, img_w = img_shape[-2:]
    cut_h, cut_w = int(img_h * ratio), int(img_w * ratio)
    cy = numpy.random.randint(0 + cut_h // 2, img_h - cut_h // 2, size=count)
    cx = numpy.random.randint(0 + cut_w // 2, img_w - cut_w // 2, size=count)
    yl = numpy.clip(cy - cut_h // 2, 0, img_h); yh = numpy.clip(cy + cut_h // 2, 0, img_h)
    xl = numpy.clip(cx - cut_w // 2, 0, img_w); xh = numpy.clip(cx + cut_w // 2, 0, img_w)
    return yl, yh, xl, xh
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(4, 5)
        self.cls_token = nn.Parameter(torch.zeros(1, 4))
    def no_weight_decay(self): return {'cls_token'}
    def forward(self, x): return self.head(self.pool(self.stem(x)).flatten(1) + self.cls_token)
model = Net().to(memory_format=torch.channels_last)
print(model.stem[0].weight.is_contiguous(memory_format=torch.channels_last), model.stem[0].weight.stride())
def param_groups_weight_decay(model, weight_decay=1e-5, no_weight_decay_list=()):
    no_weight_decay_list = set(no_weight_decay_list)
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad: continue
        if param.ndim <= 1 or name.endswith(".bias") or name in no_weight_decay_list:
            no_decay.append(param)
        else:
            decay.append(param)
    return [{'params': no_decay, 'weight_decay': 0.}, {'params': decay, 'weight_decay': weight_decay}]
groups = param_groups_weight_decay(model, 0.05, model.no_weight_decay())
print([len(g['params']) for g in groups])
opt = torch.optim.AdamW(groups, lr=1e-2, eps=1e-8, betas=(0.9, 0.999))
ema2 = ModelEmaV2(model, decay=0.9); ema3 = ModelEmaV3(model, decay=0.9)
crit = SoftTargetCrossEntropy(); val_crit = nn.CrossEntropyLoss(label_smoothing=0.1)
X = torch.randn(6, 3, 5, 5).contiguous(memory_format=torch.channels_last); Y = torch.tensor([0, 1, 2, 3, 4, 0])
losses = AverageMeter(); top1 = AverageMeter()
for step in range(4):
    model.train()
    lam = float(numpy.random.beta(1.0, 1.0))
    x = X.clone()
    if step % 2:
        yl, yh, xl, xh = rand_bbox(x.shape, lam)
        x[:, :, yl:yh, xl:xh] = x.flip(0)[:, :, yl:yh, xl:xh]
        lam = 1. - (yh - yl) * (xh - xl) / float(x.shape[-2] * x.shape[-1])
    else:
        x.mul_(lam).add_(x.flip(0).mul_(1. - lam))
    t = mixup_target(Y, 5, lam, smoothing=0.1)
    out = model(x)
    loss = crit(out, t)
    opt.zero_grad(); loss.backward(); opt.step()
    ema2.update(model); ema3.update(model)
    losses.update(loss.item(), x.size(0))
    print(step, round(lam, 6), round(loss.item(), 4), round(losses.avg, 4), x.is_contiguous(memory_format=torch.channels_last))
model.eval()
with torch.no_grad():
    for m in (model, ema2.module, ema3.module):
        out = m(X)
        acc1, acc5 = accuracy(out, Y, topk=(1, 5))
        print(acc1, acc5, acc1.item(), round(val_crit(out, Y).item(), 3))
print(ema3.module.stem[1].num_batches_tracked, ema2.module.stem[1].num_batches_tracked)
print(accuracy(torch.tensor([[0.1, 0.9], [0.8, 0.2]]), torch.tensor([1, 1]), topk=(1, 5)))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    sc = torch.cuda.amp.GradScaler()
    print(sc.is_enabled(), [str(x.message)[:100] for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.cuda.amp.autocast(enabled=False):
        pass
    print([str(x.message)[:100] for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.cpu.amp.autocast():
        pass
    print([str(x.message)[:100] for x in w])
print(torch.distributed.is_available(), torch.distributed.is_initialized())
try:
    nn.parallel.DistributedDataParallel(model)
except Exception as e:
    print(type(e).__name__, e)
sbn = nn.SyncBatchNorm.convert_sync_batchnorm(model); print(sbn.stem)
''',
    'rng': PRELUDE + r'''
import random, pickle, io
g = torch.manual_seed(0)
print(type(g).__name__, g.initial_seed(), g.device)
s = torch.get_rng_state(); print(s.shape, s.dtype, s[:10].tolist(), s[-10:].tolist(), s.sum().item())
torch.rand(3); s2 = torch.get_rng_state(); print((s != s2).sum().item(), s2[-12:].tolist())
torch.randn(1); s3 = torch.get_rng_state(); print(s3[-16:].tolist())
with torch.random.fork_rng():
    torch.manual_seed(5); print(torch.rand(2))
print(torch.rand(2))
with torch.random.fork_rng(devices=[], enabled=True):
    torch.rand(10)
print(torch.rand(1))
g = torch.Generator().manual_seed(123)
st = g.get_state(); print(st.shape, st.dtype)
a = torch.randn(4, generator=g); g.set_state(st); b = torch.randn(4, generator=g); print(torch.equal(a, b), a)
g2 = torch.Generator(); g2.set_state(g.get_state()); print(torch.equal(torch.rand(3, generator=g), torch.rand(3, generator=g2)))
print(g.seed() != 123, type(g.seed()))
g3 = torch.Generator(device='cpu'); print(g3.initial_seed(), g3.device)
torch.manual_seed(42)
print(torch.randint(0, 10, (5,)), torch.randperm(6), torch.normal(0.0, 1.0, (2,)), torch.bernoulli(torch.full((4,), 0.5)))
torch.manual_seed(42)
x = torch.empty(3).uniform_(-1, 1); y = torch.empty(3).normal_(2, 0.5); z = torch.empty(3).exponential_(); w = torch.empty(3, dtype=torch.long).random_(0, 100)
print(x, y, z, w)
print(torch.empty(4).geometric_(0.3), torch.empty(2).cauchy_(), torch.empty(2).log_normal_())
torch.manual_seed(1)
d = nn.Dropout(0.5); print(d(torch.ones(8)))
print(F.dropout(torch.ones(2, 4), 0.25, training=True))
print(torch.randint_like(torch.zeros(3), 5), torch.rand_like(torch.zeros(2, dtype=torch.float64)), torch.randn_like(torch.zeros(2, dtype=torch.bfloat16)))
buf = io.BytesIO(); torch.save({'rng': torch.get_rng_state(), 'g': g.get_state()}, buf); buf.seek(0)
ck = torch.load(buf)
torch.set_rng_state(ck['rng']); print(torch.rand(2))
try:
    torch.set_rng_state(ck['rng'].float())
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.set_rng_state(ck['rng'][:100])
except Exception as e:
    print(type(e).__name__, e)
try:
    g.set_state([1, 2])
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.manual_seed(-1); print(torch.initial_seed())
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.manual_seed(2**64)
except Exception as e:
    print(type(e).__name__, e)
torch.manual_seed(2**63); print(torch.initial_seed(), torch.rand(1))
torch.manual_seed(3.0) if False else None
try:
    torch.manual_seed(3.7); print(torch.initial_seed())
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.manual_seed('1')
except Exception as e:
    print(type(e).__name__, e)
torch.random.manual_seed(7); print(torch.random.initial_seed(), torch.random.get_rng_state().shape)
print(torch.default_generator.initial_seed())
print(pickle.loads(pickle.dumps(torch.get_rng_state())).shape)
try:
    pickle.dumps(torch.Generator())
except Exception as e:
    print(type(e).__name__, e)
import copy
try:
    g5 = copy.deepcopy(torch.Generator().manual_seed(9)); print(g5.initial_seed(), torch.rand(1, generator=g5))
except Exception as e:
    print(type(e).__name__, e)
''',
    'compile': PRELUDE + r'''
import io
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
cm = torch.compile(m)
sd = cm.state_dict()
print(list(sd.keys()))
m2 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
try:
    m2.load_state_dict(sd)
except RuntimeError as e:
    print(e)
unwanted_prefix = '_orig_mod.'
for k, v in list(sd.items()):
    if k.startswith(unwanted_prefix):
        sd[k[len(unwanted_prefix):]] = sd.pop(k)
print(m2.load_state_dict(sd))
try:
    cm.load_state_dict(m.state_dict())
except RuntimeError as e:
    print(e)
print(cm.load_state_dict(cm.state_dict()))
print(type(cm).__name__, isinstance(cm, nn.Module), cm.training, cm._orig_mod.training)
cm.eval(); print(m.training)
print([n for n, _ in cm.named_parameters()])
print([n for n, _ in cm.named_modules()])
print(cm._orig_mod[0])
print(cm.__class__.__module__.split('.')[0] in ('torch', 'ember'))
print(hasattr(cm, 'forward'), cm._orig_mod is m, getattr(cm, '0') is m[0])
@torch.compiler.disable
def f(x): return x + 1
print(f(torch.ones(1)))
@torch._dynamo.disable(recursive=False)
def f2(x): return x * 3
print(f2(torch.ones(1)))
def loss_fn(a, b): return F.mse_loss(a, b)
closs = torch.compile(loss_fn, dynamic=True)
print(closs(torch.ones(3), torch.zeros(3)), closs(torch.ones(5), torch.zeros(5) + 0.5))
x = torch.ones(2, 3); torch._dynamo.mark_dynamic(x, 0); print(torch.compile(lambda t: t.sum(0))(x))
torch._dynamo.config.suppress_errors = True; print(torch._dynamo.config.suppress_errors)
torch._dynamo.config.suppress_errors = False
print(torch._dynamo.config.cache_size_limit)
try:
    torch.compile(m, mode='default', options={'triton.cudagraphs': False})
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.compile(m, mode='default', options={})
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.compile(3)
except Exception as e:
    print(type(e).__name__, e)
print(torch.compiler.list_backends()[:3] if hasattr(torch.compiler, 'list_backends') else None)
cm2 = torch.compile(m, backend='eager'); print(round(cm2(torch.ones(1, 2)).item(), 4) == round(m(torch.ones(1, 2)).item(), 4))
cm3 = torch.compile(m, backend='aot_eager'); print(cm3(torch.ones(1, 2)).shape)
class WithCompile(nn.Module):
    def __init__(self):
        super().__init__(); self.l = nn.Linear(2, 2)
    @torch.compile
    def forward(self, x): return self.l(x).relu()
w = WithCompile(); print(w(torch.ones(1, 2)).shape, w)
mm = nn.Linear(2, 2); r = mm.compile(); print(r, type(mm).__name__, mm(torch.ones(1, 2)).shape)
print(mm)
buf = io.BytesIO(); torch.save(cm.state_dict(), buf); print(len(torch.load(io.BytesIO(buf.getvalue()))))
import pickle
try:
    pickle.dumps(cm); print("pickled")
except Exception as e:
    print(type(e).__name__, str(e)[:80])
''',
    'mistakes': PRELUDE + r'''
import warnings
torch.manual_seed(0)
def t(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            r = fn()
            print('ok', r if not isinstance(r, torch.Tensor) else (r.shape, r.dtype))
        except Exception as e:
            print(type(e).__name__, str(e).split('\n')[0][:300])
        for x in w:
            print('  warn', x.category.__name__, str(x.message)[:200])
lin = nn.Linear(3, 5)
x = torch.randn(4, 3)
t(lambda: lin(torch.randn(4, 2)))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.tensor([0, 1, 5, 2])))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.tensor([0, 1, 4, 2], dtype=torch.int32)))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.tensor([0., 1., 4., 2.])))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.tensor([[0, 1, 4, 2]])))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.tensor([0, 1, 4])))
t(lambda: F.cross_entropy(torch.randn(4, 5, 2), torch.tensor([0, 1, 4, 1])))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.randn(4, 4).softmax(-1)))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.tensor([0, 1, -1, 2]), ignore_index=-1))
t(lambda: F.cross_entropy(torch.randn(4, 5), torch.tensor([0, 1, -1, 2])))
t(lambda: F.nll_loss(torch.randn(4, 5), torch.tensor([0, 1, 2, 3]), weight=torch.ones(4)))
t(lambda: F.mse_loss(torch.randn(4, 1), torch.randn(4)))
t(lambda: F.mse_loss(torch.randn(4, 2), torch.randn(3, 2)))
t(lambda: F.l1_loss(torch.randn(4), torch.randn(4, 1)))
t(lambda: F.binary_cross_entropy(torch.rand(4), torch.rand(4, 1)))
t(lambda: F.binary_cross_entropy(torch.randn(4), torch.rand(4)))
t(lambda: F.binary_cross_entropy(torch.rand(4), torch.tensor([0, 1, 1, 0])))
t(lambda: F.binary_cross_entropy_with_logits(torch.randn(4), torch.tensor([0, 1, 1, 0])))
t(lambda: F.binary_cross_entropy_with_logits(torch.randn(4), torch.rand(3)))
t(lambda: nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))(torch.randn(2, 4), torch.rand(2, 4)))
t(lambda: (lin(x)).backward())
t(lambda: torch.randn(2).item())
t(lambda: lin.weight.numpy())
t(lambda: lin.weight.add_(1))
t(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
t(lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
t(lambda: nn.BatchNorm1d(4).train()(torch.randn(1, 4)))
t(lambda: torch.stack([torch.zeros(3), torch.zeros(2)]))
t(lambda: torch.cat([torch.zeros(3, 1), torch.zeros(2)]))
t(lambda: x.t().view(-1))
with torch.no_grad():
    y = lin(x).sum()
t(lambda: y.backward())
t(lambda: torch.optim.Adam(lin.parameters(), lr=0.1).step())
t(lambda: nn.Conv2d(3, 4, 3)(torch.randn(2, 4, 5, 5)))
t(lambda: nn.Conv2d(3, 4, 3)(torch.randn(2, 3, 2, 2)))
t(lambda: nn.LayerNorm(4)(torch.randn(2, 3)))
t(lambda: nn.MultiheadAttention(6, 4))
t(lambda: F.softmax(torch.randn(3)))
t(lambda: F.log_softmax(torch.randn(2, 3)))
t(lambda: nn.Softmax()(torch.randn(2, 3)))
t(lambda: torch.tensor([1, 2]).float().mean(dtype=torch.long))
t(lambda: torch.tensor([1, 2]).mean())
t(lambda: torch.zeros(2, 3) @ torch.zeros(2, 3))
t(lambda: torch.bmm(torch.zeros(2, 3, 4), torch.zeros(3, 4, 2)))
t(lambda: torch.zeros(2, 3).view(4, 2))
t(lambda: torch.zeros(2, 3).reshape(-1, -1))
t(lambda: torch.zeros(2, 3)[2])
t(lambda: torch.zeros(2, 3)[:, torch.tensor([3])])
t(lambda: torch.zeros(2, 3).permute(0))
t(lambda: torch.zeros(2, 3).transpose(0, 2))
t(lambda: torch.zeros(2, 3).squeeze(3))
t(lambda: torch.load('/nonexistent/file.pt'))
t(lambda: nn.Sequential(nn.Linear(2, 2))[3])
t(lambda: nn.ModuleList([nn.Linear(2, 2)])(torch.zeros(2)))
t(lambda: nn.ModuleDict({'a': nn.Linear(2, 2)})['b'])
t(lambda: nn.Module()(torch.zeros(1)))
t(lambda: setattr(lin, 'weight', torch.zeros(5, 3)))
t(lambda: lin.register_buffer('weight', torch.zeros(1)))
t(lambda: lin.register_parameter('a.b', nn.Parameter(torch.zeros(1))))
t(lambda: nn.Linear(3, 5).half()(torch.randn(2, 3)))
t(lambda: nn.Linear(3, 5)(torch.randn(2, 3, dtype=torch.float64)))
t(lambda: nn.Linear(3, 5)(torch.randint(0, 3, (2, 3))))
t(lambda: torch.multinomial(torch.tensor([[0.2, 0.8]]), 3))
t(lambda: torch.topk(torch.randn(3), 5))
t(lambda: torch.randint(5, (3,), dtype=torch.float32).dtype)
t(lambda: torch.randint(0, 5, 3))
t(lambda: torch.tensor([[1, 2], [3]]))
t(lambda: torch.zeros(3).requires_grad_().resize_(4))
t(lambda: torch.nn.utils.clip_grad_norm_(lin.parameters(), max_norm='1'))
t(lambda: nn.Dropout(1.5))
t(lambda: nn.CrossEntropyLoss(reduction='avg')(torch.randn(2, 3), torch.tensor([0, 1])))
t(lambda: F.one_hot(torch.tensor([0, 3]), 3))
t(lambda: F.one_hot(torch.tensor([0., 1.])))
t(lambda: F.pad(torch.zeros(2, 3), (1, 1, 1, 1, 1, 1)))
t(lambda: torch.where(torch.tensor([1, 0]), 1.0, 0.0))
''',
    'load': PRELUDE + r'''
import io, random, numpy, collections, dataclasses, argparse, warnings
def roundtrip(obj, **kw):
    buf = io.BytesIO(); torch.save(obj, buf); buf.seek(0)
    try:
        r = torch.load(buf, **kw)
        print('ok', type(r).__name__)
        return r
    except Exception as e:
        print(type(e).__name__)
        print(str(e).replace('torch.', 'T.').replace('ember.', 'T.'))
roundtrip({'np': numpy.random.get_state()})
roundtrip({'py': random.getstate()})
roundtrip({'a': numpy.array([1, 2])})
roundtrip({'a': numpy.float64(1.5)})
roundtrip({'args': argparse.Namespace(lr=0.1)})
roundtrip(collections.OrderedDict(a=torch.zeros(1)))
roundtrip({'d': collections.defaultdict(list)})
roundtrip({'t': (1, 2.5, 'x', None, True, b'by', {1, 2}, frozenset([3]), complex(1, 2))})
roundtrip({'dt': torch.float16, 'dev': torch.device('cpu'), 'sz': torch.Size([2, 3])})
roundtrip({'gen': torch.Generator().get_state()})
r = roundtrip({'p': nn.Parameter(torch.ones(2))}); print(type(r['p']).__name__, r['p'].requires_grad)
r = roundtrip({'m': nn.Linear(2, 2)})
r = roundtrip({'m': nn.Linear(2, 2)}, weights_only=False); print(type(r['m']).__name__)
r = roundtrip(torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1).state_dict()); print(r)
r = roundtrip({'x': torch.arange(4)[1:3]}); print(r['x'], r['x'].storage_offset())
a = torch.arange(6.); r = roundtrip({'a': a, 'b': a[2:]}); r['a'][3] = 100; print(r['b'])
with torch.serialization.safe_globals([argparse.Namespace]):
    roundtrip({'cfg': argparse.Namespace(a=1)})
torch.serialization.add_safe_globals([argparse.Namespace])
roundtrip({'args': argparse.Namespace(lr=0.1)})
print([g for g in torch.serialization.get_safe_globals() if g is argparse.Namespace])
torch.serialization.clear_safe_globals()
roundtrip({'args': argparse.Namespace(lr=0.1)})
try:
    torch.load(io.BytesIO(b'not a checkpoint'))
except Exception as e:
    print(type(e).__name__, str(e)[:200])
try:
    torch.load(io.BytesIO(b''))
except Exception as e:
    print(type(e).__name__, str(e)[:200])
try:
    torch.save(lambda x: x, io.BytesIO())
except Exception as e:
    print(type(e).__name__, str(e)[:200])
for proto, new in [(2, True), (3, True), (4, True), (5, True), (3, False), (4, False)]:
    b = io.BytesIO(); torch.save({'a': torch.ones(2)}, b, pickle_protocol=proto, _use_new_zipfile_serialization=new)
    for wo in (True, False):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            try:
                r = torch.load(io.BytesIO(b.getvalue()), weights_only=wo); print(proto, new, wo, 'ok', r)
            except Exception as e:
                print(proto, new, wo, type(e).__name__, str(e).replace('torch.', 'T.').replace('ember.', 'T.'))
            print('  ', sorted(set(str(x.message) for x in w)))
''',
    'optim2': PRELUDE + r'''
def rs(sd):
    out = {}
    for k, st in sd['state'].items():
        out[k] = {n: (v.round(decimals=5).tolist(), str(v.dtype)) if isinstance(v, torch.Tensor) else v for n, v in st.items()}
    return out, sd['param_groups']
configs = [
    ('Adam', dict(lr=0.1, amsgrad=True, maximize=True, weight_decay=0.1)),
    ('Adam', dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ('Adam', dict(lr=0.1, capturable=True)),
    ('Adam', dict(lr=0.1, foreach=True, fused=None)),
    ('AdamW', dict(lr=0.1, amsgrad=True)),
    ('NAdam', dict(lr=0.1, momentum_decay=0.005, decoupled_weight_decay=True, weight_decay=0.1)),
    ('RAdam', dict(lr=0.1, decoupled_weight_decay=True, weight_decay=0.1)),
    ('Adagrad', dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1, weight_decay=0.1)),
    ('SGD', dict(lr=0.1, maximize=True, momentum=0.5, dampening=0.5)),
    ('Adamax', dict(lr=0.1, weight_decay=0.1)),
    ('ASGD', dict(lr=0.1, t0=1)),
    ('Rprop', dict(lr=0.1, etas=(0.4, 1.3), step_sizes=(1e-3, 1.0))),
    ('RMSprop', dict(lr=0.1, momentum=0.5, centered=True)),
    ('Adadelta', dict(lr=1.0, rho=0.5)),
    ('Adafactor', dict(lr=0.1)),
]
for name, kw in configs:
    if not hasattr(torch.optim, name):
        print('missing', name); continue
    torch.manual_seed(0)
    w = nn.Parameter(torch.randn(2, 3)); b = nn.Parameter(torch.randn(3))
    try:
        o = getattr(torch.optim, name)([w, b], **kw)
    except Exception as e:
        print(name, type(e).__name__, e); continue
    try:
        for i in range(3):
            o.zero_grad()
            ((w * torch.tensor([1., -2., 3.])).sum() + (b ** 2).sum()).backward()
            o.step()
    except Exception as e:
        print(name, type(e).__name__, e); continue
    print(name, kw)
    print(o)
    print(rs(o.state_dict()))
    print(w.round(decimals=4), b.round(decimals=4))
try:
    torch.optim.Adam([nn.Parameter(torch.zeros(2))], lr=0.1, fused=True, foreach=True)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.Adam([nn.Parameter(torch.zeros(2))], lr=0.1, fused=True)
except Exception as e:
    print(type(e).__name__, e)
try:
    o = torch.optim.Adam([nn.Parameter(torch.zeros(2))], lr=0.1, fused=True); o.param_groups[0]['params'][0].grad = torch.ones(2); o.step(); print('fused step ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.SparseAdam([nn.Parameter(torch.zeros(2))], lr=0.1)
    emb = nn.Embedding(4, 2, sparse=True); so = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
    emb(torch.tensor([1, 1, 3])).sum().backward(); print(emb.weight.grad.is_sparse); so.step(); print(emb.weight.round(decimals=4))
    o = torch.optim.Adam(emb.parameters()); o.step()
except Exception as e:
    print(type(e).__name__, e)
''',
    'optrepr': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Linear(2, 2)
o = torch.optim.SGD([{'params': [m.weight], 'name': 'w', 'lr': torch.tensor(0.5)}, {'params': [m.bias], 'tag': [1, 2], 'weight_decay': 1e-4}], lr=0.1, momentum=0.9)
s = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=5)
print(o)
print(o.state_dict()['param_groups'])
o2 = torch.optim.AdamW(m.named_parameters(), lr=1e-3, betas=(0.8, 0.99))
print(o2)
print(o2.state_dict())
o3 = torch.optim.Adam([{'params': m.named_parameters()}])
print(o3.param_groups[0]['param_names'])
try:
    torch.optim.Adam([{'params': [m.weight]}, {'params': m.named_parameters()}])
except ValueError as e:
    print(e)
o4 = torch.optim.Adam([{'params': [m.weight]}])
try:
    o4.load_state_dict(o3.state_dict())
except Exception as e:
    print(type(e).__name__, e)
print(torch.optim.Adam(m.parameters(), lr=1e-3, weight_decay=0, eps=1e-6))
print(torch.optim.RMSprop(m.parameters(), lr=torch.tensor(0.01)))
print(torch.optim.SGD([], lr=0.1) if False else torch.optim.SGD([{'params': []}], lr=0.1))
print(torch.optim.LBFGS(m.parameters()))
print(repr(torch.optim.Adagrad(m.parameters())).splitlines()[0])
o5 = torch.optim.Adam(m.parameters(), lr=0.1)
o5.param_groups[0]['lr'] = 0.05; o5.param_groups[0]['custom'] = 'x'
print(o5)
print(torch.optim.Optimizer.__repr__(o5) == repr(o5))
''',
    'amp': PRELUDE + r'''
import warnings
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 4); w = torch.randn(5, 3, 3, 3)
a = torch.randn(2, 3, 4); b = torch.randn(2, 4, 5)
m2 = torch.randn(3, 4); m3 = torch.randn(4, 2)
def T(name, fn):
    try:
        r = fn()
        if isinstance(r, tuple): r = r[0]
        print(name, r.dtype, tuple(r.shape))
    except Exception as e:
        print(name, type(e).__name__, str(e)[:150])
with torch.autocast('cpu', dtype=torch.bfloat16):
    T('conv2d', lambda: F.conv2d(x, w))
    T('conv1d', lambda: F.conv1d(a, torch.randn(2, 3, 2)))
    T('bmm', lambda: torch.bmm(a, b))
    T('matmul', lambda: a @ b)
    T('baddbmm', lambda: torch.baddbmm(torch.zeros(2, 3, 5), a, b))
    T('addmm', lambda: torch.addmm(torch.zeros(3, 2), m2, m3))
    T('addbmm', lambda: torch.addbmm(torch.zeros(3, 5), a, b))
    T('linear', lambda: F.linear(m2, m3.t()))
    T('mv', lambda: torch.mv(m2, torch.randn(4)))
    T('dot', lambda: torch.dot(torch.randn(4), torch.randn(4)))
    T('einsum', lambda: torch.einsum('bij,bjk->bik', a, b))
    T('layer_norm', lambda: F.layer_norm(m2.bfloat16(), (4,)))
    T('group_norm', lambda: F.group_norm(x.bfloat16(), 1))
    T('batch_norm', lambda: F.batch_norm(x.bfloat16(), torch.zeros(3), torch.ones(3)))
    T('softmax', lambda: F.softmax(m2.bfloat16(), -1))
    T('log_softmax', lambda: F.log_softmax(m2.bfloat16(), -1))
    T('ce', lambda: F.cross_entropy(m2.bfloat16(), torch.tensor([0, 1, 2])))
    T('mse', lambda: F.mse_loss(m2.bfloat16(), m2))
    T('l1', lambda: F.l1_loss(m2.bfloat16(), m2.bfloat16()))
    T('bce', lambda: F.binary_cross_entropy(m2.sigmoid().bfloat16(), m2.sigmoid().bfloat16()))
    T('bcel', lambda: F.binary_cross_entropy_with_logits(m2.bfloat16(), m2.sigmoid().bfloat16()))
    T('nll', lambda: F.nll_loss(m2.bfloat16(), torch.tensor([0, 1, 2])))
    T('gelu', lambda: F.gelu(m2.bfloat16()))
    T('cat', lambda: torch.cat([m2, m2.bfloat16()]))
    T('stack', lambda: torch.stack([m2, m2.bfloat16()]))
    T('add', lambda: m2 + m2.bfloat16())
    T('sum', lambda: m2.bfloat16().sum())
    T('mean', lambda: m2.bfloat16().mean())
    T('prod', lambda: m2.bfloat16().prod())
    T('cumsum', lambda: m2.bfloat16().cumsum(0))
    T('exp', lambda: m2.bfloat16().exp())
    T('pow', lambda: m2.bfloat16().pow(2))
    T('norm', lambda: m2.bfloat16().norm())
    T('topk', lambda: m2.bfloat16().topk(2))
    T('sdpa', lambda: F.scaled_dot_product_attention(a, a, a))
    T('mha', lambda: nn.MultiheadAttention(4, 2, batch_first=True)(a, a, a))
    T('gru_cell', lambda: nn.GRUCell(4, 3)(m2))
    T('embedding', lambda: nn.Embedding(5, 3)(torch.tensor([1, 2])))
    T('emb_bag', lambda: nn.EmbeddingBag(5, 3)(torch.tensor([[1, 2]])))
    T('conv_t', lambda: F.conv_transpose2d(x, torch.randn(3, 2, 2, 2)))
    T('prelu', lambda: F.prelu(m2, torch.tensor([0.25])))
    T('interp', lambda: F.interpolate(x, scale_factor=2))
    T('upsample_bil', lambda: F.interpolate(x, scale_factor=2, mode='bilinear'))
    T('avgpool', lambda: F.avg_pool2d(x.bfloat16(), 2))
    T('adaptive', lambda: F.adaptive_avg_pool2d(x.bfloat16(), 1))
    T('kl', lambda: F.kl_div(m2.bfloat16().log_softmax(-1), m2.softmax(-1), reduction='batchmean'))
    T('smoothl1', lambda: F.smooth_l1_loss(m2.bfloat16(), m2))
    T('cosine_sim', lambda: F.cosine_similarity(m2.bfloat16(), m2))
    T('pdist', lambda: torch.cdist(m2.bfloat16(), m2))
    T('index_put', lambda: torch.zeros(3).index_put_((torch.tensor([0]),), torch.tensor([1.0], dtype=torch.bfloat16)))
    T('where', lambda: torch.where(m2 > 0, m2, m2.bfloat16()))
    T('tensordot', lambda: torch.tensordot(m2, m3, dims=1))
    T('chain_matmul', lambda: torch.linalg.multi_dot([m2, m3]))
    T('outer', lambda: torch.outer(torch.randn(2), torch.randn(3)))
    T('addcmul', lambda: torch.addcmul(m2, m2.bfloat16(), m2))
    T('polar', lambda: torch.polar(torch.ones(2), torch.zeros(2)))
    T('fft', lambda: torch.fft.rfft(m2))
    T('det', lambda: torch.linalg.det(torch.eye(3)))
    T('inverse', lambda: torch.inverse(torch.eye(3)))
with torch.autocast('cpu', dtype=torch.float16):
    T('f16 linear', lambda: F.linear(m2, m3.t()))
    T('f16 conv', lambda: F.conv2d(x, w))
    T('f16 ce', lambda: F.cross_entropy(m2.half(), torch.tensor([0, 1, 2])))
    T('f16 softmax', lambda: F.softmax(m2.half(), -1))
lin = nn.Linear(4, 2)
with torch.autocast('cpu', dtype=torch.bfloat16):
    out = lin(m2)
    loss = out.float().pow(2).mean()
loss.backward()
print(out.dtype, loss.dtype, lin.weight.grad.dtype, lin.weight.dtype)
print(torch.is_autocast_cpu_enabled() if hasattr(torch, 'is_autocast_cpu_enabled') else None)
with warnings.catch_warnings(record=True) as wl:
    warnings.simplefilter('always')
    with torch.autocast('cpu', dtype=torch.bfloat16):
        print(torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype(), torch.is_autocast_enabled(), torch.is_autocast_enabled('cpu'))
    print([str(q.message).split(' (Triggered')[0] for q in wl])
with torch.autocast('cpu', dtype=torch.bfloat16, cache_enabled=False):
    print(lin(m2).dtype, torch.is_autocast_cache_enabled())
with warnings.catch_warnings(record=True) as wl:
    warnings.simplefilter('always')
    with torch.autocast('cuda'):
        print(torch.is_autocast_enabled('cuda'))
    print([str(q.message)[:200] for q in wl])
try:
    with torch.autocast('tpu'):
        pass
except Exception as e:
    print(type(e).__name__, e)
''',
    'scaler': PRELUDE + r'''
import warnings
torch.manual_seed(0)
m = nn.Linear(3, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
scaler = torch.amp.GradScaler('cpu', init_scale=2.0**4, growth_interval=2, backoff_factor=0.25, growth_factor=4.0)
print(scaler.get_scale(), scaler.is_enabled(), scaler.state_dict(), scaler.get_growth_interval(), scaler.get_backoff_factor())
x = torch.randn(4, 3)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    for it in range(5):
        opt.zero_grad()
        with torch.autocast('cpu', dtype=torch.float16):
            out = m(x)
            loss = out.float().pow(2).mean()
        if it == 2:
            loss = loss * float('inf')
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        n = nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        r = scaler.step(opt)
        scaler.update()
        sched.step()
        print(it, round(loss.item(), 3) if it != 2 else loss.item(), scaler.get_scale(), r if r is None else round(r, 3), n.isfinite().item(), sched.get_last_lr(), scaler._found_inf_per_device(opt) if False else '')
    print([str(q.message)[:120] for q in w])
print(scaler.state_dict())
s2 = torch.amp.GradScaler('cpu'); s2.load_state_dict(scaler.state_dict()); print(s2.get_scale(), s2._growth_tracker if hasattr(s2, '_growth_tracker') else None)
try:
    scaler.unscale_(opt); scaler.unscale_(opt)
except RuntimeError as e:
    print(e)
scaler.update()
try:
    scaler.step(opt, closure=lambda: 0)
except RuntimeError as e:
    print(e)
print(scaler.scale(torch.tensor(2.0)), scaler.scale([torch.tensor(1.0), (torch.tensor(3.0),)]))
try:
    scaler.update(new_scale=torch.tensor([2.0]))
except Exception as e:
    print(type(e).__name__, e)
scaler.update(new_scale=8.0); print(scaler.get_scale())
ds = torch.amp.GradScaler('cpu', enabled=False); print(ds.scale(torch.tensor(3.0)), ds.get_scale(), ds.state_dict())
l = torch.tensor(1.0, requires_grad=True)
ds.scale(l).backward(); print(ds.step(torch.optim.SGD([l], lr=0.1)), l)
try:
    torch.amp.GradScaler('cpu').load_state_dict({})
except RuntimeError as e:
    print(e)
o3 = torch.optim.SGD([nn.Parameter(torch.ones(2, dtype=torch.float16))], lr=0.1)
o3.param_groups[0]['params'][0].grad = torch.ones(2, dtype=torch.float16)
sc = torch.amp.GradScaler('cpu')
try:
    sc.scale(torch.tensor(1.0)); sc.unscale_(o3)
except ValueError as e:
    print(e)
''',
    'bf16': PRELUDE + r'''
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.float16):
    w = torch.randn(8, dtype=dt, requires_grad=True); b = torch.randn(8, requires_grad=True)
    for name, kw in [('AdamW', dict(lr=1e-2, weight_decay=0.1)), ('SGD', dict(lr=0.1, momentum=0.9)), ('Adam', dict(lr=1e-2, foreach=True)), ('Adam', dict(lr=1e-2, foreach=False))]:
        ww = w.detach().clone().requires_grad_(); bb = b.detach().clone().requires_grad_()
        opt = getattr(torch.optim, name)([ww, bb], **kw)
        for i in range(3):
            opt.zero_grad()
            loss = (ww.float() * torch.arange(8.)).sum() + (bb ** 2).sum()
            loss.backward()
            n = nn.utils.clip_grad_norm_([ww, bb], 5.0)
            opt.step()
        st = opt.state[ww]
        print(dt, name, kw, ww.tolist(), n.dtype, round(n.item(), 3), {k: (v.dtype, v.float().sum().item()) if isinstance(v, torch.Tensor) else v for k, v in st.items()} if name == 'SGD' else sorted(st))
    x = torch.randn(4, dtype=dt)
    print(x.sum().item(), x.mean().item(), x.norm().item(), (x * 3).sum().item(), torch.cumsum(x, 0).tolist())
m = nn.Linear(3, 2).to(torch.bfloat16)
print(m.weight.dtype, m(torch.randn(2, 3, dtype=torch.bfloat16)).dtype)
try:
    m(torch.randn(2, 3))
except RuntimeError as e:
    print(e)
print(nn.utils.clip_grad_norm_([torch.zeros(2, dtype=torch.bfloat16, requires_grad=True)], 1.0))
p1 = torch.ones(2, requires_grad=True); p2 = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)
(p1.sum() + p2.float().sum() * 3).backward()
print(nn.utils.clip_grad_norm_([p1, p2], 1.0), p1.grad, p2.grad)
print(nn.utils.clip_grad_norm_([p1, p2], 1.0, foreach=True))
''',
    'module2': PRELUDE + r'''
import collections
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d):
        super().__init__(); self.fc = nn.Linear(d, d); self.act = nn.GELU()
    def forward(self, x): return self.act(self.fc(x))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.blocks = nn.ModuleList([Block(4) for _ in range(3)] + [nn.Identity()])
        self.seq = nn.Sequential(collections.OrderedDict([('first', nn.Linear(4, 4)), ('drop', nn.Dropout(0.1))]))
        self.plist = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3, 3))])
        self.pdict = nn.ParameterDict({'a': nn.Parameter(torch.ones(1)), 'b': nn.Parameter(torch.zeros(2), requires_grad=False)})
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.emb.weight
        self.shared = self.seq.first
    def forward(self, idx):
        x = self.emb(idx)
        for b in self.blocks: x = b(x)
        return self.head(self.seq(x))
m = Net()
print(m)
print(len(list(m.parameters())), sum(p.numel() for p in m.parameters()), len(list(m.named_parameters(remove_duplicate=False))))
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_modules()])
print(len([n for n, _ in m.named_modules(remove_duplicate=False)]))
print([n for n, _ in m.named_children()])
print(m.get_submodule('blocks.1.fc'), m.get_parameter('blocks.0.fc.bias').shape)
for q in ['blocks.9', 'blocks.1.nope', 'emb.weight.x']:
    try:
        m.get_submodule(q)
    except AttributeError as e:
        print(e)
try:
    m.get_parameter('blocks.0.fc.nope')
except AttributeError as e:
    print(e)
try:
    m.get_buffer('blocks.0.fc.weight')
except AttributeError as e:
    print(e)
try:
    m.foo
except AttributeError as e:
    print(e)
try:
    m.blocks[7]
except IndexError as e:
    print(e)
print(m.blocks[-1], m.blocks[1:3])
print(m.plist, m.pdict)
order = []
m.apply(lambda mod: order.append(type(mod).__name__)); print(order)
for p in m.blocks.parameters(): p.requires_grad_(False)
opt = torch.optim.AdamW(filter(lambda p: p.requires_grad, m.parameters()), lr=0.1)
print(len(opt.param_groups[0]['params']))
print(sum(p.numel() for p in m.parameters() if p.requires_grad))
sd = m.state_dict(keep_vars=True); print(type(sd['emb.weight']).__name__, sd['emb.weight'].requires_grad)
sd2 = m.state_dict(prefix='model.'); print(list(sd2)[:3])
m2 = Net()
print(m2.load_state_dict(m.state_dict(), assign=True), m2.emb.weight is m2.head.weight)
with torch.device('meta'):
    mm = Net()
print(mm.emb.weight.device, mm.emb.weight.is_meta)
try:
    mm(torch.tensor([1]))
except Exception as e:
    print(type(e).__name__, str(e)[:200])
mm.to_empty(device='cpu')
print(mm.emb.weight.device, mm.emb.weight is mm.head.weight)
torch.manual_seed(1)
for mod in mm.modules():
    if hasattr(mod, 'reset_parameters'): mod.reset_parameters()
print(mm.seq.first.bias.round(decimals=4))
print(mm.to(torch.float64).emb.weight.dtype, mm.half().seq.first.weight.dtype)
class WithBuf(nn.Module):
    def __init__(self):
        super().__init__(); self.register_buffer('count', torch.tensor(0)); self.register_buffer('avg', torch.zeros(2)); self.register_buffer('none', None)
b = WithBuf().half(); print(b.count.dtype, b.avg.dtype, b.none, list(b.state_dict()))
b = WithBuf().to(torch.bfloat16); print(b.count.dtype, b.avg.dtype)
print(WithBuf().double().state_dict())
del m.seq.drop; print(m.seq)
m.register_module('extra', nn.ReLU()); print([n for n, _ in m.named_children()])
try:
    m.register_module('bad.name', nn.ReLU())
except KeyError as e:
    print(e)
try:
    m.add_module('emb', nn.ReLU()); print(m.emb)
except KeyError as e:
    print(e)
try:
    m.register_parameter('emb', nn.Parameter(torch.zeros(1)))
except KeyError as e:
    print(e)
try:
    m.blocks.append(3)
except TypeError as e:
    print(e)
try:
    nn.Sequential(nn.Linear(2, 2), 'x')
except TypeError as e:
    print(e)
try:
    m.plist.append(torch.zeros(1)); print(type(m.plist[-1]).__name__)
except Exception as e:
    print(type(e).__name__, e)
print(m.plist)
hits = []
h1 = m.register_load_state_dict_post_hook(lambda mod, keys: hits.append((len(keys.missing_keys), len(keys.unexpected_keys))))
sd = m.state_dict(); sd.pop('seq.first.bias')
print(m.load_state_dict(sd, strict=False), hits)
def pre(mod, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    hits.append(prefix)
m.seq.first.register_load_state_dict_pre_hook(pre) if hasattr(m.seq.first, 'register_load_state_dict_pre_hook') else m.seq.first._register_load_state_dict_pre_hook(pre)
m.load_state_dict(m.state_dict()); print(hits[-1])
m.register_state_dict_post_hook(lambda mod, sd, prefix, local_metadata: sd.pop('extra_key', None)) if hasattr(m, 'register_state_dict_post_hook') else None
print(m.state_dict()._metadata[''], m.state_dict()._metadata['seq.first'])
''',
    'hooks': PRELUDE + r'''
import functools
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
log = []
def fwd(name, mod, args, kwargs, out):
    log.append(('fwd', name, len(args), sorted(kwargs), tuple(out.shape)))
def fwd_pre(name, mod, args):
    log.append(('pre', name, tuple(args[0].shape)))
    return (args[0] * 1.0,)
hs = []
for name, mod in m.named_modules():
    if name:
        hs.append(mod.register_forward_hook(functools.partial(fwd, name), with_kwargs=True))
        hs.append(mod.register_forward_pre_hook(functools.partial(fwd_pre, name), prepend=True))
x = torch.randn(2, 3, requires_grad=True)
out = m(x)
for l in log: print(l)
log.clear()
h = m[2].register_forward_hook(lambda mod, i, o: o * 0 + 1)
print(m(x))
h.remove(); h.remove()
print(type(h).__name__, isinstance(h.id, int))
for h in hs: h.remove()
bw = []
m[0].register_full_backward_pre_hook(lambda mod, go: bw.append(('bpre', tuple(go[0].shape))))
m[0].register_full_backward_hook(lambda mod, gi, go: bw.append(('bwd', gi[0] is None, tuple(go[0].shape))))
m[2].register_full_backward_hook(lambda mod, gi, go: (gi[0] * 2,))
m(x).sum().backward()
print(bw, x.grad.round(decimals=4))
acc = []
w = m[0].weight
hh = w.register_post_accumulate_grad_hook(lambda p: acc.append(round(p.grad.sum().item(), 4)))
m(x).sum().backward(); print(acc)
hh.remove()
y = x * 2; y.retain_grad(); z = y.sum() ** 2
hk = y.register_hook(lambda g: g * 10)
z.backward(); print(y.grad.round(decimals=4), x.grad.shape)
print(y.is_leaf, y.retains_grad, x.retains_grad)
try:
    torch.randn(2).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)
try:
    m[0].register_forward_hook(lambda a, b: None); m(x)
except TypeError as e:
    print(str(e)[:100])
gl = []
gh = nn.modules.module.register_module_forward_hook(lambda mod, i, o: gl.append(type(mod).__name__))
m(x); gh.remove(); m(x); print(gl)
class Acts:
    def __init__(self): self.store = {}
    def __call__(self, mod, inp, out): self.store[id(mod)] = out.detach().abs().mean().round(decimals=4)
a = Acts()
m2 = nn.Sequential(nn.Linear(3, 3), nn.Tanh())
hds = [mm.register_forward_hook(a) for mm in m2]
m2(x); print(sorted(v.item() for v in a.store.values()))
st = m2.state_dict(); print(list(st))
always = []
m3 = nn.Linear(3, 3)
m3.register_forward_pre_hook(lambda mod, args: (_ for _ in ()).throw(ValueError('pre fail')))
m3.register_forward_hook(lambda mod, i, o: always.append('always'), always_call=True)
try:
    m3(x)
except ValueError as e:
    print(e, always)
m4 = nn.Linear(3, 1)
m4.register_forward_pre_hook(lambda mod, args, kwargs: (args, {'extra': 1}) if False else None, with_kwargs=True)
print(m4(x).shape)
def kw_pre(mod, args, kwargs):
    return args, kwargs
m4.register_forward_pre_hook(kw_pre, with_kwargs=True)
print(m4(x).shape)
def bad_pre(mod, args, kwargs):
    return args
m4.register_forward_pre_hook(bad_pre, with_kwargs=True)
try:
    m4(x)
except RuntimeError as e:
    print(e)
''',
    'f64': PRELUDE + r'''
U = torch.utils.data
torch.set_default_dtype(torch.float64)
try:
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Tanh(), nn.Linear(4, 1))
    print(m[0].weight.dtype, m[1].weight.dtype, torch.tensor([1.5]).dtype, torch.arange(3.).dtype, torch.zeros(1).dtype, torch.tensor(2).dtype)
    ds = [(torch.randn(3), 0.5 * i) for i in range(6)]
    dl = U.DataLoader(ds, batch_size=3)
    opt = torch.optim.Adam(m.parameters(), lr=0.1)
    sch = torch.optim.lr_scheduler.CosineAnnealingLR(opt, 4)
    for ep in range(2):
        for xb, yb in dl:
            print(xb.dtype, yb.dtype)
            loss = F.mse_loss(m(xb).squeeze(-1), yb)
            opt.zero_grad(); loss.backward()
            n = nn.utils.clip_grad_norm_(m.parameters(), 0.5)
            opt.step()
            print(round(loss.item(), 6), n.dtype, round(n.item(), 6))
        sch.step()
    print(opt.state_dict()['state'][0]['step'].dtype, opt.state_dict()['state'][0]['exp_avg'].dtype)
    print(torch.randn(2).dtype, torch.rand(2).dtype, torch.empty(2).uniform_().dtype, torch.full((2,), 1.5).dtype, torch.linspace(0, 1, 3).dtype)
    print((torch.tensor([1, 2]) / 2).dtype, (torch.tensor([1, 2]) * 1.5).dtype, torch.tensor([1, 2]).float().dtype, torch.tensor([1, 2]).mean(dtype=None) if False else None)
    print(torch.as_tensor([1.0, 2.0]).dtype, torch.from_numpy(np.zeros(2, dtype=np.float32)).dtype, torch.tensor(np.float32(1.0)).dtype, torch.tensor(np.array([1.0])).dtype)
    print(torch.tensor([1.0 + 2j]).dtype, torch.get_default_dtype(), U.default_collate([1.5, 2.5]).dtype, U.default_collate([np.float32(1.5)]).dtype)
    print(nn.Embedding(3, 2).weight.dtype, nn.BatchNorm1d(2).running_mean.dtype, nn.LSTM(2, 2).weight_ih_l0.dtype, nn.MultiheadAttention(2, 1).in_proj_weight.dtype)
    with torch.autocast('cpu', dtype=torch.bfloat16):
        print(m(torch.randn(2, 3)).dtype)
    print(torch.finfo().eps, torch.iinfo(torch.int32).max, F.softmax(torch.tensor([1.0, 2.0]), 0).dtype)
    print(torch.distributions.Normal(0., 1.).sample().dtype, torch.distributions.Categorical(logits=torch.zeros(3)).probs.dtype)
    try:
        torch.set_default_dtype(torch.int64)
    except TypeError as e:
        print(e)
    torch.set_default_dtype(torch.float16)
    print(torch.tensor([1.0]).dtype, nn.Linear(1, 1).weight.dtype)
    try:
        torch.set_default_dtype(torch.bfloat16)
    except TypeError as e:
        print(e)
    print(torch.tensor([1.0 + 1j]).dtype if torch.get_default_dtype() == torch.bfloat16 else 'n/a', torch.get_default_dtype())
finally:
    torch.set_default_dtype(torch.float32)
''',
    'metrics': PRELUDE + r'''
torch.manual_seed(0)
n = 4
pred = torch.randint(0, n, (30,)); tgt = torch.randint(0, n, (30,))
cm = torch.zeros(n, n, dtype=torch.long)
cm.index_put_((tgt, pred), torch.ones_like(tgt), accumulate=True)
print(cm)
cm2 = torch.bincount(tgt * n + pred, minlength=n * n).reshape(n, n); print(torch.equal(cm, cm2))
tp = cm.diag(); prec = tp / cm.sum(0).clamp(min=1); rec = tp / cm.sum(1).clamp(min=1)
f1 = 2 * prec * rec / (prec + rec + 1e-8)
print(prec, rec, f1.round(decimals=4), f1.mean().item())
print(torch.unique(pred, return_counts=True), torch.unique(pred, sorted=False, return_inverse=True)[1][:5])
print(torch.histc(pred.float(), bins=4, min=0, max=3), torch.bincount(pred, weights=torch.linspace(0, 1, 30)))
scores = torch.rand(10); labels = (torch.rand(10) > 0.5).long()
order = torch.argsort(scores, descending=True, stable=True)
tps = torch.cumsum(labels[order], 0); fps = torch.cumsum(1 - labels[order], 0)
tpr = tps / tps[-1]; fpr = fps / fps[-1]
print(tpr, fpr, torch.trapezoid(tpr, fpr).item(), torch.trapz(tpr, fpr).item())
loss = torch.tensor(0.123456789)
print(f"{loss:.4f}", f"{loss}", f"{loss.item():.3e}", "%.3f" % loss, "{:>10.2f}|".format(loss), f"{torch.tensor(3):d}" if True else "", f"{torch.tensor([2.5])}")
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except Exception as e:
    print(type(e).__name__, e)
try:
    print("%d" % torch.tensor(3.7))
except Exception as e:
    print(type(e).__name__, e)
print("%s" % torch.tensor([1, 2]), "{:,}".format(12345678), round(torch.tensor(2.567), 2) if False else None, float(torch.tensor([3.5])), int(torch.tensor(7.9)))
try:
    float(torch.tensor([1., 2.]))
except Exception as e:
    print(type(e).__name__, e)
print(round(torch.tensor(2.567).item(), 2), torch.tensor(2.567).__round__(1) if hasattr(torch.Tensor, '__round__') else None)
print(f"{torch.tensor(1.5, dtype=torch.float64):.3f}", f"{torch.tensor(True)}", f"{torch.tensor(5, dtype=torch.uint8):03d}")
print(format(torch.tensor(0.5), ''), format(torch.tensor(0.5), '>8'), format(torch.tensor([0.5]), ''))
acc = []
correct = 0; total = 0
with torch.no_grad():
    for i in range(3):
        logits = torch.randn(5, 3); y = torch.randint(0, 3, (5,))
        _, predicted = torch.max(logits.data, 1)
        total += y.size(0)
        correct += (predicted == y).sum().item()
        acc.append((predicted == y).float().mean())
print(correct, total, 100 * correct / total, torch.stack(acc).mean(), type(correct).__name__)
best = float('inf'); patience = 2; bad = 0; best_state = None
m = nn.Linear(2, 1)
for ep, vl in enumerate([1.0, 0.8, 0.85, 0.9, 0.7]):
    if vl < best - 1e-4:
        best = vl; bad = 0; best_state = {k: v.detach().clone() for k, v in m.state_dict().items()}
    else:
        bad += 1
        if bad >= patience:
            print('early stop at', ep, best); break
    with torch.no_grad(): m.weight.add_(0.1)
print(m.load_state_dict(best_state), m.weight)
print(torch.tensor([0.1, 0.2, 0.3]).sum() == 0.6, (torch.tensor([0.1, 0.2, 0.3]).sum() - 0.6).abs() < 1e-6, torch.isclose(torch.tensor(0.6), torch.tensor([0.1, 0.2, 0.3]).sum()))
print(torch.topk(torch.tensor([1., 3., 3., 2., 3.]), 2), torch.sort(torch.tensor([2, 1, 2, 1]), stable=True), torch.argmax(torch.tensor([1, 3, 3])), torch.max(torch.tensor([[1, 3, 3]]), 1))
print(torch.kthvalue(torch.tensor([3., 1., 2., 1.]), 2), torch.median(torch.tensor([3., 1., 2., 1.])), torch.mode(torch.tensor([3, 1, 2, 1, 3])), torch.quantile(torch.tensor([1., 2., 3., 4.]), torch.tensor([0.25, 0.5])))
''',
    'infer': PRELUDE + r'''
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Dropout(0.5))
with torch.inference_mode():
    cached = torch.randn(4, 3)
    out = m(cached)
print(cached.is_inference(), out.is_inference(), out.requires_grad, m[1].running_mean.is_inference(), m[1].num_batches_tracked)
def t(fn):
    try:
        r = fn(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
t(lambda: m(cached).sum().backward())
t(lambda: (nn.Linear(3, 3)(cached.clone())).sum().backward())
t(lambda: cached.add_(1))
t(lambda: cached.requires_grad_())
t(lambda: (cached * torch.ones(3, requires_grad=True)).sum().backward())
t(lambda: torch.ones(3, requires_grad=True).mul(cached).sum().item() is not None)
t(lambda: cached.view(-1).is_inference())
with torch.inference_mode():
    t(lambda: torch.ones(2, requires_grad=True).add_(1))
    p = torch.ones(2, requires_grad=True)
    t(lambda: (p * 2).requires_grad)
with torch.inference_mode(mode=False):
    t(lambda: torch.is_inference_mode_enabled())
@torch.inference_mode()
def ev(x): return m(x)
m.eval(); r = ev(torch.randn(2, 3)); print(r.is_inference(), m.training, torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.no_grad():
    q = m(torch.randn(2, 3)); print(q.requires_grad, q.is_inference())
    with torch.enable_grad():
        w = torch.ones(1, requires_grad=True); print((w * 2).requires_grad)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
buf = torch.zeros(3)
with torch.inference_mode():
    buf.add_(1)
print(buf, buf.is_inference())
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.requires_grad, y.grad_fn)
t(lambda: torch.tensor(y).is_inference())
t(lambda: y.clone().is_inference())
t(lambda: y.detach().requires_grad_().is_inference())
z = torch.zeros(2)
with torch.inference_mode():
    t(lambda: z.add_(1))
    t(lambda: z.view(2).is_inference())
t(lambda: nn.Parameter(cached))
t(lambda: nn.Parameter(cached.clone()).is_inference())
t(lambda: cached.numpy().shape)
t(lambda: cached.tolist()[0][0] is not None)
t(lambda: torch.save(cached, __import__('io').BytesIO()))
''',
    'fairseq': PRELUDE + r'''
torch.manual_seed(0)
def label_smoothed_nll_loss(lprobs, target, epsilon, ignore_index=None, reduce=True):
    if target.dim() == lprobs.dim() - 1:
        target = target.unsqueeze(-1)
    nll_loss = -lprobs.gather(dim=-1, index=target)
    smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
    if ignore_index is not None:
        pad_mask = target.eq(ignore_index)
        nll_loss.masked_fill_(pad_mask, 0.0)
        smooth_loss.masked_fill_(pad_mask, 0.0)
    else:
        nll_loss = nll_loss.squeeze(-1); smooth_loss = smooth_loss.squeeze(-1)
    if reduce:
        nll_loss = nll_loss.sum(); smooth_loss = smooth_loss.sum()
    eps_i = epsilon / (lprobs.size(-1) - 1)
    loss = (1.0 - epsilon - eps_i) * nll_loss + eps_i * smooth_loss
    return loss, nll_loss
def collate_tokens(values, pad_idx, eos_idx=None, left_pad=False, move_eos_to_beginning=False, pad_to_length=None, pad_to_multiple=1):
    size = max(v.size(0) for v in values)
    size = size if pad_to_length is None else max(size, pad_to_length)
    if pad_to_multiple != 1 and size % pad_to_multiple != 0:
        size = int(((size - 0.1) // pad_to_multiple + 1) * pad_to_multiple)
    res = values[0].new(len(values), size).fill_(pad_idx)
    def copy_tensor(src, dst):
        assert dst.numel() == src.numel()
        if move_eos_to_beginning:
            dst[0] = src[-1] if eos_idx is None else eos_idx
            dst[1:] = src[:-1]
        else:
            dst.copy_(src)
    for i, v in enumerate(values):
        copy_tensor(v, res[i][size - len(v):] if left_pad else res[i][: len(v)])
    return res
vals = [torch.LongTensor([5, 6, 2]), torch.LongTensor([7, 2]), torch.tensor([8, 9, 10, 2])]
print(collate_tokens(vals, 1), collate_tokens(vals, 1, eos_idx=2, left_pad=True, move_eos_to_beginning=True, pad_to_multiple=8))
src_tokens = collate_tokens(vals, 1)
src_lengths = torch.LongTensor([s.ne(1).long().sum() for s in src_tokens])
src_lengths, sort_order = src_lengths.sort(descending=True)
print(src_lengths, sort_order, src_tokens.index_select(0, sort_order))
logits = torch.randn(3, 4, 11)
lprobs = F.log_softmax(logits, dim=-1, dtype=torch.float32)
loss, nll = label_smoothed_nll_loss(lprobs.view(-1, 11), src_tokens.view(-1), 0.1, ignore_index=1)
print(round(loss.item(), 4), round(nll.item(), 4))
sample_size = src_tokens.ne(1).sum().item(); print(sample_size, round(loss.item() / sample_size / math.log(2), 4))
padded = nn.utils.rnn.pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], batch_first=True, padding_value=0)
print(padded, nn.utils.rnn.pad_sequence([torch.ones(2, 3), torch.ones(1, 3)]).shape, nn.utils.rnn.pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], padding_side='left', batch_first=True))
packed = nn.utils.rnn.pack_padded_sequence(torch.randn(2, 3, 4), torch.tensor([3, 1]), batch_first=True)
print(packed.batch_sizes, packed.sorted_indices, packed.data.shape)
try:
    nn.utils.rnn.pack_padded_sequence(torch.randn(2, 3, 4), torch.tensor([1, 3]), batch_first=True)
except RuntimeError as e:
    print(e)
p2 = nn.utils.rnn.pack_padded_sequence(torch.randn(2, 3, 4), torch.tensor([1, 3]), batch_first=True, enforce_sorted=False)
print(p2.sorted_indices, p2.unsorted_indices)
out, lens = nn.utils.rnn.pad_packed_sequence(p2, batch_first=True, total_length=5); print(out.shape, lens)
ps = nn.utils.rnn.pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5])]); print(ps)
print(nn.utils.rnn.unpad_sequence(padded, torch.tensor([3, 1]), batch_first=True))
print(nn.utils.rnn.unpack_sequence(ps))
grads = [torch.randn(3), torch.randn(2, 2)]
total = torch.norm(torch.stack([torch.norm(g, p=2, dtype=torch.float32) for g in grads]))
print(round(total.item(), 5), torch.norm(torch.stack([torch.norm(g, p=2, dtype=torch.float64) for g in grads])).dtype)
x = torch.FloatTensor(2, 3); print(x.shape, x.dtype, torch.LongTensor(2).dtype, torch.ByteTensor([1, 0]), torch.BoolTensor([True]))
print(torch.FloatTensor([1, 2]).new(3).shape, torch.ones(2).new_tensor([1, 2]).dtype, torch.ones(2).type_as(torch.zeros(1, dtype=torch.long)), torch.ones(2).type(torch.LongTensor), torch.ones(2).type())
print(torch.ones(2, dtype=torch.int32).new_zeros(3), torch.ones(2).new_full((2,), 7), torch.ones(2).new_empty(2).shape, torch.zeros(2).new_ones((1, 2), dtype=torch.long))
try:
    torch.LongTensor([1.5])
except Exception as e:
    print(type(e).__name__, e)
print(torch.LongTensor([1.5]) if False else torch.LongTensor([1, 2]).float().dtype)
try:
    torch.FloatTensor([1, 2], dtype=torch.float64)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.FloatTensor('x')
except Exception as e:
    print(type(e).__name__, e)
print(isinstance(torch.ones(2), torch.FloatTensor), isinstance(torch.ones(2, dtype=torch.long), torch.FloatTensor), isinstance(torch.ones(2, dtype=torch.long), torch.LongTensor))
''',
    'ddp': PRELUDE + r'''
import os, socket
dist = torch.distributed
s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
dist.init_process_group('gloo', init_method=f'tcp://127.0.0.1:{port}', rank=0, world_size=1)
try:
    print(dist.is_initialized(), dist.get_rank(), dist.get_world_size(), dist.get_backend())
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
    ddp = nn.parallel.DistributedDataParallel(m)
    print(type(ddp).__name__, ddp.module is m, list(ddp.state_dict())[:3])
    print(ddp)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    ds = torch.utils.data.TensorDataset(torch.randn(8, 3), torch.randn(8, 1))
    sampler = torch.utils.data.DistributedSampler(ds, shuffle=True, seed=0)
    print(sampler.num_replicas, sampler.rank, len(sampler))
    dl = torch.utils.data.DataLoader(ds, batch_size=4, sampler=sampler)
    for ep in range(2):
        sampler.set_epoch(ep)
        for i, (xb, yb) in enumerate(dl):
            ctx = ddp.no_sync() if i == 0 else __import__('contextlib').nullcontext()
            with ctx:
                loss = F.mse_loss(ddp(xb), yb)
                loss.backward()
            if i == 1:
                opt.step(); opt.zero_grad()
            t = loss.detach().clone()
            dist.all_reduce(t, op=dist.ReduceOp.SUM)
            print(ep, i, round(t.item(), 4))
    dist.barrier()
    lst = [None]; dist.all_gather_object(lst, {'r': 0}); print(lst)
    tl = [torch.zeros(2)]; dist.all_gather(tl, torch.ones(2)); print(tl)
    x = torch.tensor([3.0]); dist.broadcast(x, src=0); print(x)
    r = torch.tensor([5.0]); dist.reduce(r, dst=0, op=dist.ReduceOp.MAX); print(r)
    w = dist.all_reduce(torch.ones(1), async_op=True); w.wait(); print(type(w).__name__ in ('Work', 'ProcessGroupWork', 'FutureWork'), w.is_completed())
    try:
        dist.broadcast(torch.ones(1), src=1)
    except Exception as e:
        print(type(e).__name__, str(e)[:120])
    print(ddp.module.state_dict().keys() == m.state_dict().keys())
    sbn = nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)))
    print(sbn)
    sbn.train()
    try:
        sbn(torch.randn(4, 3))
    except ValueError as e:
        print(e, sbn[1].num_batches_tracked)
    sbn.eval(); print(sbn(torch.randn(4, 3)).shape)
    try:
        sbn[1](torch.randn(4, 0))
    except ValueError as e:
        print(e)
    loss = torch.tensor(2.5); dist.all_reduce(loss, op=dist.ReduceOp.AVG); print(loss, loss.shape)
    g = [torch.zeros(())]; dist.all_gather(g, torch.tensor(1.5)); print(g)
    print(dist.get_world_size() > 1 and 'multi' or 'single', dist.get_process_group_ranks(dist.group.WORLD) if hasattr(dist, 'get_process_group_ranks') else None)
finally:
    dist.destroy_process_group()
print(dist.is_initialized())
try:
    dist.get_rank()
except Exception as e:
    print(type(e).__name__, e)
try:
    dist.all_reduce(torch.ones(1))
except Exception as e:
    print(type(e).__name__, e)
''',
    'ddp2': PRELUDE + r'''
import os, socket
dist = torch.distributed
s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
os.environ['MASTER_ADDR'] = '127.0.0.1'; os.environ['MASTER_PORT'] = str(port); os.environ['RANK'] = '0'; os.environ['WORLD_SIZE'] = '1'; os.environ['LOCAL_RANK'] = '0'
print(dist.is_torchelastic_launched())
dist.init_process_group(backend='gloo')
def t(fn):
    try:
        r = fn(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0][:200])
try:
    print(dist.get_rank(), dist.get_world_size(), int(os.environ['LOCAL_RANK']), dist.get_global_rank(dist.group.WORLD, 0), dist.get_group_rank(dist.group.WORLD, 0))
    for dt in [torch.float32, torch.float64, torch.int64, torch.int32, torch.bfloat16, torch.float16, torch.bool, torch.uint8, torch.complex64]:
        for op in [dist.ReduceOp.SUM, dist.ReduceOp.AVG, dist.ReduceOp.PRODUCT, dist.ReduceOp.MIN, dist.ReduceOp.BAND]:
            x = torch.tensor([1, 0, 3]).to(dt)
            try:
                dist.all_reduce(x, op=op); print(dt, op, x)
            except Exception as e:
                print(dt, op, type(e).__name__, str(e).split('\n')[0][:150])
    out = torch.zeros(3); t(lambda: dist.all_gather_into_tensor(out, torch.tensor([1., 2., 3.])) or out)
    out = torch.zeros(2); t(lambda: dist.reduce_scatter_tensor(out, torch.tensor([1., 2.])) or out)
    t(lambda: dist.all_gather_into_tensor(torch.zeros(4), torch.ones(3)))
    t(lambda: (lambda o: (dist.all_to_all_single(o, torch.arange(4.)), o)[1])(torch.zeros(4)))
    objs = [{'a': 1}, [2]]; t(lambda: (dist.broadcast_object_list(objs, src=0), objs)[1])
    g = [None]; t(lambda: (dist.gather(torch.tensor(3.), [torch.zeros(())], dst=0)))
    t(lambda: (lambda o: (dist.scatter(o, [torch.tensor(7.)], src=0), o)[1])(torch.zeros(())))
    t(lambda: dist.monitored_barrier())
    t(lambda: dist.barrier())
    print(dist.get_pg_count())
    pg = dist.new_group([0]); t(lambda: (dist.get_world_size(pg), dist.get_rank(pg), type(pg).__name__))
    print(dist.get_pg_count(), dist.get_node_local_rank(), dist.get_default_backend_for_device('cpu'))
    out = torch.zeros(2); t(lambda: (dist.all_gather_single(out, torch.ones(2)), dist.reduce_scatter_single(out, torch.tensor([2., 3.])), out))
    t(lambda: dist.new_group([-1]))
    x = torch.ones(2); t(lambda: (dist.all_reduce(x, group=pg), x)[1])
    t(lambda: dist.new_group([0, 0]))
    t(lambda: dist.all_reduce([torch.ones(1)]))
    t(lambda: dist.all_reduce(torch.ones(1), op='sum'))
    t(lambda: dist.all_gather([torch.zeros(2), torch.zeros(2)], torch.ones(2)))
    t(lambda: dist.all_gather([torch.zeros(3)], torch.ones(2)))
    t(lambda: dist.all_gather([torch.zeros(2, dtype=torch.long)], torch.ones(2)))
    t(lambda: dist.reduce(torch.ones(1), dst=3))
    t(lambda: dist.all_reduce(torch.ones(2, 2).t()))
    t(lambda: dist.all_reduce(torch.ones(4)[::2]))
    t(lambda: dist.get_backend(pg))
    t(lambda: dist.get_debug_level())
    t(lambda: (dist.Backend.GLOO, dist.Backend('gloo'), dist.Backend.NCCL))
    t(lambda: dist.is_gloo_available())
    t(lambda: dist.is_nccl_available())
    t(lambda: dist.is_mpi_available())
    torch.manual_seed(0)
    m = nn.Linear(3, 2); m2 = nn.Linear(3, 2)
    class Two(nn.Module):
        def __init__(self):
            super().__init__(); self.a = m; self.b = m2
        def forward(self, x): return self.a(x)
    ddp = nn.parallel.DistributedDataParallel(Two(), find_unused_parameters=True, gradient_as_bucket_view=True, broadcast_buffers=False)
    ddp(torch.ones(1, 3)).sum().backward(); print(m.weight.grad, m2.weight.grad)
    ddp2 = nn.parallel.DistributedDataParallel(Two())
    ddp2(torch.ones(1, 3)).sum().backward(); print('unused ok', m2.weight.grad)
    t(lambda: ddp2(torch.ones(1, 3)).sum().backward())
    t(lambda: ddp2(torch.ones(1, 3)).sum().backward())
    t(lambda: nn.parallel.DistributedDataParallel(nn.Linear(1, 1), device_ids=[0]))
    t(lambda: nn.parallel.DistributedDataParallel(nn.ReLU()))
    for kw in [dict(device_ids=[0]), dict(output_device=0), dict(device_ids=[]), dict(device_ids=[0, 1]), dict(device_ids=['cpu']), dict(output_device='cpu')]:
        t(lambda: (lambda d: (d.device_ids, d.output_device, d.device_type, d.is_multi_device_module))(nn.parallel.DistributedDataParallel(nn.Linear(1, 1), **kw)))
    d = nn.parallel.DistributedDataParallel(nn.Linear(1, 1), bucket_cap_mb=1.5)
    print(d.bucket_bytes_cap, d.broadcast_bucket_size, d.mixed_precision, d.static_graph, d.gradient_as_bucket_view)
    print(ddp.require_backward_grad_sync if hasattr(ddp, 'require_backward_grad_sync') else None)
    print(ddp.module.a is m, ddp.device_ids, ddp.output_device, ddp.broadcast_buffers, ddp.find_unused_parameters, ddp.dim)
finally:
    dist.destroy_process_group()
    for k in ['MASTER_ADDR', 'MASTER_PORT', 'RANK', 'WORLD_SIZE', 'LOCAL_RANK']: os.environ.pop(k)
''',
    'prof': PRELUDE + r'''
P = torch.profiler
sch = P.schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
print([sch(i) for i in range(10)])
sch2 = P.schedule(wait=0, warmup=0, active=1)
print([sch2(i) for i in range(4)])
calls = []
def ready(p):
    calls.append(p.step_num)
with P.profile(activities=[P.ProfilerActivity.CPU], schedule=sch, on_trace_ready=ready, record_shapes=True) as prof:
    for i in range(10):
        with P.record_function("train_step"):
            torch.ones(2) + 1
        prof.step()
print(calls, prof.step_num)
print(P.ProfilerActivity.CPU, list(P.ProfilerActivity.__members__)[:2], P.ProfilerAction.RECORD_AND_SAVE)
with torch.autograd.profiler.record_function("x") as r:
    pass
print(type(r).__name__)
with torch.autograd.profiler.profile(enabled=False) as p2:
    torch.ones(1)
print(p2.enabled if hasattr(p2, 'enabled') else None)
try:
    P.schedule(wait=-1, warmup=0, active=1)
except Exception as e:
    print(type(e).__name__, e)
try:
    P.schedule(wait=0, warmup=0, active=0)
except Exception as e:
    print(type(e).__name__, e)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    P.schedule(wait=0, warmup=0, active=1, repeat=0)
    print([str(x.message)[:100] for x in w])
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, at_least=38)
