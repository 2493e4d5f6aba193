"""Code as model libraries and from-scratch repositories write it (nanoGPT/minGPT-style
transformers, HF-transformers-style attention and utilities, timm-style layers,
torchvision-style ResNet blocks, diffusion U-Net pieces), run under real torch and under ember
(`import ember as torch`): what each snippet prints, including an exception's type and first
line, must be identical.

Each section has its SETUP (a seed, `nn`, `F`) and the snippets of one theme; model classes
shared by several snippets are module constants prepended to them. Snippets reach submodules
by attribute (a `from torch import` inside a snippet would bind real torch in both runs).
Known differences are wrapped in `bug(reason, snippet)` and run as strict xfails.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

# what prints an exception raised by the snippet's last statement
E = '\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])'

BF16_PROD = "bfloat16 prod: torch's vectorized kernel multiplies in lanes (not emulated)"
BF16_BATCH_NORM = ("bfloat16 batch_norm in training: a last-bit difference of torch's "
                   "mixed-precision kernel")
BF16_RSQRT = ("bfloat16 rsqrt: torch's vectorized kernel is not correctly rounded (it depends on "
              "the position in the vector)")


class bug:
    """A snippet whose output differs from torch's, and why."""

    def __init__(self, reason, snippet):
        self.reason, self.snippet = reason, snippet

    def __radd__(self, setup):
        return bug(self.reason, setup + self.snippet)








# -- causal self-attention, masks, finfo ----------------------------------------------------------

SETUP_1 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"

CSA = '''
class CausalSelfAttention(nn.Module):
    def __init__(self, C=8, H=2, T=5, bias=True, flash=False):
        super().__init__()
        self.c_attn = nn.Linear(C, 3 * C, bias=bias)
        self.c_proj = nn.Linear(C, C, bias=bias)
        self.attn_dropout = nn.Dropout(0.0)
        self.n_head = H; self.n_embd = C; self.flash = flash
        self.register_buffer("bias", torch.tril(torch.ones(T, T)).view(1, 1, T, T))
    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if self.flash:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)
'''

_S1 = [
    CSA + 'm = CausalSelfAttention(); x = torch.randn(2, 5, 8); y = m(x); print(y.shape, y.grad_fn.name()); print(y[0, :2].round(decimals=4))',
    CSA + 'm = CausalSelfAttention(); x = torch.randn(2, 4, 8); y = m(x); m.flash = True; y2 = m(x); print(torch.allclose(y, y2, atol=1e-6))',
    CSA + 'm = CausalSelfAttention(); print(list(m.state_dict().keys())); print(m.bias.shape, m.bias.dtype)',
    CSA + 'm = CausalSelfAttention(); print(m)',
    CSA + 'm = CausalSelfAttention(); print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in m.parameters() if p.requires_grad))',
    CSA + 'm = CausalSelfAttention(bias=False); print([n for n, _ in m.named_parameters()]); print([n for n, _ in m.named_buffers()])',
    CSA + 'm = CausalSelfAttention(); x = torch.randn(1, 5, 8); m(x).sum().backward(); print(m.c_attn.weight.grad.shape, round(m.c_attn.weight.grad.abs().sum().item(), 3))',
    CSA + 'm = CausalSelfAttention(); x = torch.randn(1, 6, 8)\ntry:\n    m(x)\nexcept RuntimeError as e: print(e)',
    'T = 4; mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T); print(mask); print(mask.stride(), mask.is_contiguous())',
    'att = torch.randn(1, 1, 3, 3); m = torch.tril(torch.ones(3, 3)); a = att.masked_fill(m == 0, float("-inf")); print(a); print(F.softmax(a, dim=-1))',
    'att = torch.randn(2, 3); print(att.masked_fill(torch.tensor([True, False, True]), float("-inf")))',
    'x = torch.randn(2, 3); x.masked_fill_(x > 0, 0.0); print(x)',
    'x = torch.randn(2, 3)\ntry:\n    x.masked_fill(torch.tensor([1, 0, 1]), 0.0)\nexcept RuntimeError as e: print(e)',
    'q = torch.randn(1, 2, 4, 8); k = torch.randn(1, 2, 4, 8); v = torch.randn(1, 2, 4, 8); y = F.scaled_dot_product_attention(q, k, v, is_causal=True); print(y.shape, y[0, 0, 0].round(decimals=4))',
    'q = torch.randn(1, 2, 4, 8); k = torch.randn(1, 2, 4, 8); v = torch.randn(1, 2, 4, 8); m = torch.ones(4, 4, dtype=torch.bool).tril(); print(torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=m), F.scaled_dot_product_attention(q, k, v, is_causal=True), atol=1e-6))',
    'q = torch.randn(1, 2, 3, 4); k = torch.randn(1, 2, 3, 4); v = torch.randn(1, 2, 3, 4); m = torch.zeros(3, 3); m[0, 1:] = float("-inf"); print(F.scaled_dot_product_attention(q, k, v, attn_mask=m).round(decimals=4)[0, 0])',
    'q = torch.randn(1, 4, 3, 8); k = torch.randn(1, 2, 3, 8); v = torch.randn(1, 2, 3, 8); y = F.scaled_dot_product_attention(q, k, v, enable_gqa=True); print(y.shape)',
    'q = torch.randn(1, 4, 3, 8); k = torch.randn(1, 2, 3, 8); v = torch.randn(1, 2, 3, 8)\ntry:\n    F.scaled_dot_product_attention(q, k, v)\nexcept RuntimeError as e: print(e)',
    'q = torch.randn(1, 4, 3, 8); k = torch.randn(1, 2, 3, 8); v = torch.randn(1, 2, 3, 8); a = F.scaled_dot_product_attention(q, k, v, enable_gqa=True); b = F.scaled_dot_product_attention(q, k.repeat_interleave(2, dim=1), v.repeat_interleave(2, dim=1)); print(torch.allclose(a, b, atol=1e-6))',
    'q = torch.randn(2, 3, 4); y = F.scaled_dot_product_attention(q, q, q, dropout_p=0.0, scale=0.5); print(y.shape, y.dtype)',
    'q = torch.randn(1, 2, 3, 4, requires_grad=True); y = F.scaled_dot_product_attention(q, q, q, is_causal=True); y.sum().backward(); print(q.grad.shape, round(q.grad.sum().item(), 4))',
    'q = torch.randn(1, 1, 2, 4); k = torch.randn(1, 1, 5, 4); v = torch.randn(1, 1, 5, 4); print(F.scaled_dot_product_attention(q, k, v, is_causal=True).round(decimals=4))',
    'q = torch.randn(1, 1, 3, 4)\ntry:\n    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(3, 3, dtype=torch.bool), is_causal=True)\nexcept RuntimeError as e: print(e)',
    'q = torch.randn(1, 1, 3, 4).to(torch.bfloat16); y = F.scaled_dot_product_attention(q, q, q); print(y.dtype, y.shape)',
    'q = torch.randn(1, 1, 3, 4); m = torch.tensor([[True, False, False], [True, True, False], [False, False, False]]); print(F.scaled_dot_product_attention(q, q, q, attn_mask=m))',
    'dtype = torch.float32; print(torch.finfo(dtype).min, torch.finfo(torch.float16).min, torch.finfo(torch.bfloat16).min)',
    'print(torch.finfo(torch.float32).eps, torch.finfo(torch.float32).max, torch.finfo(torch.float32).tiny, torch.finfo(torch.float32).bits)',
    'print(torch.finfo(torch.float16))',
    'print(torch.iinfo(torch.int64).max, torch.iinfo(torch.int32).min)',
    'm = torch.tensor([[1, 1, 0]]); ext = (1.0 - m[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min; print(ext, ext.shape)',
    'x = torch.full((2, 2), torch.finfo(torch.float32).min); print(x, F.softmax(x, -1))',
]


# -- rotary and sinusoidal embeddings, F.pad, positions -------------------------------------------

SETUP_2 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
ROPE = '''
def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)
def apply_rotary_emb(xq, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    return torch.view_as_real(xq_ * freqs_cis).flatten(3).type_as(xq)
'''
HF_ROPE = '''
def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)
inv_freq = 1.0 / (10000 ** (torch.arange(0, 4, 2, dtype=torch.int64).float() / 4))
pos = torch.arange(3).float()
freqs = torch.einsum("i,j->ij", pos, inv_freq)
emb = torch.cat((freqs, freqs), dim=-1)
cos, sin = emb.cos(), emb.sin()
'''
_S2 = [
    ROPE + 'f = precompute_freqs_cis(4, 3); print(f.dtype, f.shape); print(f)',
    ROPE + 'f = precompute_freqs_cis(4, 3); x = torch.randn(1, 3, 2, 4); y = apply_rotary_emb(x, f); print(y.shape, y.dtype); print(y[0, 1].round(decimals=4))',
    ROPE + 'f = precompute_freqs_cis(4, 3); x = torch.randn(1, 3, 2, 4, requires_grad=True); y = apply_rotary_emb(x, f); y.pow(2).sum().backward(); print(x.grad.round(decimals=4)[0, 2])',
    ROPE + 'f = precompute_freqs_cis(4, 3); x = torch.randn(1, 3, 2, 4).to(torch.bfloat16); y = apply_rotary_emb(x, f); print(y.dtype)',
    ROPE + 'f = precompute_freqs_cis(4, 3); print(f.real, f.imag, f.abs().round(decimals=4), f.angle().round(decimals=4))',
    HF_ROPE + 'print(cos.round(decimals=4)); print(sin.round(decimals=4)); x = torch.randn(1, 1, 3, 4); print((x * cos + rotate_half(x) * sin).round(decimals=4))',
    HF_ROPE + 'print(inv_freq, inv_freq.dtype, freqs.shape)',
    'x = torch.randn(2, 4); c = torch.view_as_complex(x.reshape(2, 2, 2)); print(c.dtype, c.shape, c.stride())',
    'x = torch.randn(2, 3)\ntry:\n    torch.view_as_complex(x)\nexcept RuntimeError as e: print(e)',
    'x = torch.randn(4, 2).t()\ntry:\n    torch.view_as_complex(x)\nexcept RuntimeError as e: print(e)',
    'x = torch.randn(2, 2).double(); c = torch.view_as_complex(x); print(c.dtype, torch.view_as_real(c).dtype)',
    'print(torch.polar(torch.tensor([1., 2.]), torch.tensor([0., math.pi / 2])).round(decimals=4))',
    'try:\n    torch.polar(torch.tensor([1., 2.]), torch.tensor([0, 1]))\nexcept RuntimeError as e: print(e)',
    'print(torch.outer(torch.arange(3), torch.arange(2.)), torch.outer(torch.arange(3), torch.arange(2)).dtype)',
    'x = torch.randn(3, 2, dtype=torch.complex64); print(torch.view_as_real(x).shape, torch.view_as_real(x).stride())',
    'x = torch.randn(1, 2, 3, 4); print(x.float().reshape(*x.shape[:-1], -1, 2).shape)',
    'half = 4; freqs = torch.exp(-math.log(10000) * torch.arange(start=0, end=half, dtype=torch.float32) / half); t = torch.tensor([0, 10, 500]); args = t[:, None].float() * freqs[None]; emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1); print(emb.shape); print(emb.round(decimals=4))',
    'def get_timestep_embedding(timesteps, embedding_dim):\n    half_dim = embedding_dim // 2\n    emb = math.log(10000) / (half_dim - 1)\n    emb = torch.exp(torch.arange(half_dim, dtype=torch.float32) * -emb)\n    emb = timesteps.float()[:, None] * emb[None, :]\n    emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1)\n    if embedding_dim % 2 == 1:\n        emb = F.pad(emb, (0, 1, 0, 0))\n    return emb\nprint(get_timestep_embedding(torch.tensor([1, 7]), 5).round(decimals=4))',
    'class SinusoidalPosEmb(nn.Module):\n    def __init__(self, dim):\n        super().__init__(); self.dim = dim\n    def forward(self, x):\n        half = self.dim // 2\n        e = math.log(10000) / (half - 1)\n        e = torch.exp(torch.arange(half, device=x.device) * -e)\n        e = x[:, None] * e[None, :]\n        return torch.cat((e.sin(), e.cos()), dim=-1)\nm = SinusoidalPosEmb(6); print(m); y = m(torch.tensor([0., 3.])); print(y.round(decimals=4), y.dtype)',
    'x = torch.arange(6.).reshape(1, 2, 3); print(F.pad(x, (1, 2)), F.pad(x, (0, 0, 1, 0), value=-1.0))',
    'x = torch.arange(6).reshape(2, 3); print(F.pad(x, (2, 0), value=0).dtype, F.pad(x, (0, 1), value=7))',
    'x = torch.arange(6).reshape(2, 3)\ntry:\n    F.pad(x, (1,))\nexcept Exception as e: print(type(e).__name__, e)',
    'x = torch.randn(1, 2, 3); print(F.pad(x, (1, 1), mode="reflect").shape, F.pad(x, (1, 1), mode="replicate")[0, 0])',
    'x = torch.randn(2, 3); print(F.pad(x, (-1, 1)))',
    'am = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 0]]); pos = am.long().cumsum(-1) - 1; pos.masked_fill_(am == 0, 1); print(pos, pos.dtype)',
    'am = torch.tensor([[0, 1, 1]]); print(torch.cumsum(am, dim=1), torch.cumsum(am, dim=1).dtype, am.cumsum(-1, dtype=torch.float32))',
    'am = torch.tensor([[True, False, True]]); print(am.cumsum(-1), am.cumsum(-1).dtype, am.long().sum(-1))',
    'x = torch.randn(2, 5, 3); T = x.size(1); pos = torch.arange(T, device=x.device); print(pos, pos.dtype, pos.device); print(torch.arange(0, T, dtype=torch.long).unsqueeze(0).shape)',
    'wpe = nn.Embedding(8, 4); idx = torch.tensor([[1, 2, 3]]); pos = torch.arange(0, 3, dtype=torch.long); x = nn.Embedding(10, 4)(idx) + wpe(pos); print(x.shape, x.grad_fn.name())',
    'emb = nn.Embedding(5, 3, padding_idx=0); print(emb.weight[0]); print(emb)',
    'emb = nn.Embedding(5, 3)\ntry:\n    emb(torch.tensor([5]))\nexcept IndexError as e: print(e)',
    'emb = nn.Embedding(5, 3)\ntry:\n    emb(torch.tensor([1.0]))\nexcept RuntimeError as e: print(e)',
]


# -- a nanoGPT-style model: init, weight tying, optimizers, generate, state_dict; losses, norms ---

SETUP_3 = "import math, io\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
GPT = '''
class Block(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.ln_1 = nn.LayerNorm(C, bias=False)
        self.attn = nn.MultiheadAttention(C, 2, batch_first=True)
        self.ln_2 = nn.LayerNorm(C)
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(approximate='tanh'), nn.Linear(4 * C, C), nn.Dropout(0.0))
    def forward(self, x):
        T = x.size(1)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))
class GPT(nn.Module):
    def __init__(self, V=11, T=6, C=8, L=2):
        super().__init__()
        self.block_size = T
        self.transformer = nn.ModuleDict(dict(wte=nn.Embedding(V, C), wpe=nn.Embedding(T, C), drop=nn.Dropout(0.0), h=nn.ModuleList([Block(C) for _ in range(L)]), ln_f=nn.LayerNorm(C)))
        self.lm_head = nn.Linear(C, V, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith('out_proj.weight'):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * L))
    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
    def get_num_params(self, non_embedding=True):
        n = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n -= self.transformer.wpe.weight.numel()
        return n
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
            logits = self.lm_head(x[:, [-1], :])
            loss = None
        return logits, loss
    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= self.block_size else idx[:, -self.block_size:]
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float('Inf')
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx
    def configure_optimizers(self, weight_decay, learning_rate, betas):
        param_dict = {pn: p for pn, p in self.named_parameters()}
        param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [{'params': decay_params, 'weight_decay': weight_decay}, {'params': nodecay_params, 'weight_decay': 0.0}]
        print(len(decay_params), sum(p.numel() for p in decay_params), len(nodecay_params), sum(p.numel() for p in nodecay_params))
        return torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas, fused=False)
'''
_S3 = [
    GPT + 'm = GPT(); print(m.get_num_params(), m.get_num_params(False)); print(len(list(m.parameters())), len(m.state_dict()))',
    GPT + 'm = GPT(); print(m.transformer.wte.weight is m.lm_head.weight); print([k for k in m.state_dict() if "wte" in k or "lm_head" in k])',
    GPT + 'm = GPT(); print(m)',
    GPT + 'm = GPT(); idx = torch.randint(0, 11, (2, 6)); tg = torch.randint(0, 11, (2, 6)); tg[0, :2] = -1; logits, loss = m(idx, tg); print(logits.shape, round(loss.item(), 4), loss.grad_fn.name())',
    GPT + 'm = GPT(); idx = torch.randint(0, 11, (2, 4)); logits, loss = m(idx); print(logits.shape, loss)',
    GPT + 'm = GPT(); idx = torch.randint(0, 11, (1, 7))\ntry:\n    m(idx)\nexcept AssertionError as e: print(e)',
    GPT + 'm = GPT(); out = m.generate(torch.zeros((1, 1), dtype=torch.long), 8, top_k=3); print(out.shape, out.dtype, out.requires_grad)',
    GPT + 'm = GPT(); o = m.configure_optimizers(0.1, 6e-4, (0.9, 0.95)); print(o)',
    GPT + 'm = GPT(); o = m.configure_optimizers(0.1, 1e-2, (0.9, 0.95)); idx = torch.randint(0, 11, (2, 6)); l0 = None\nfor i in range(3):\n    _, loss = m(idx, idx); o.zero_grad(set_to_none=True); loss.backward(); n = torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0); o.step()\n    print(round(loss.item(), 4), n.dtype, n.shape)\nprint(m.lm_head.weight.grad is not None, o.state_dict()["state"][0]["step"])',
    GPT + 'm = GPT(); sd = m.state_dict(); m2 = GPT(); r = m2.load_state_dict(sd); print(r); print(torch.equal(m2.lm_head.weight, m.lm_head.weight))',
    GPT + 'm = GPT(); sd = m.state_dict(); del sd["lm_head.weight"]; sd["extra.w"] = torch.zeros(1); r = GPT().load_state_dict(sd, strict=False); print(r); print(r.missing_keys, r.unexpected_keys)',
    GPT + 'm = GPT(); sd = m.state_dict(); del sd["lm_head.weight"]\ntry:\n    GPT().load_state_dict(sd)\nexcept RuntimeError as e: print(e)',
    GPT + 'm = GPT(); sd = {k: v for k, v in m.state_dict().items()}; sd["lm_head.weight"] = torch.zeros(3, 3)\ntry:\n    GPT().load_state_dict(sd, strict=False)\nexcept RuntimeError as e: print(str(e).splitlines()[0])',
    GPT + 'm = GPT(); buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0); sd = torch.load(buf); print(type(sd).__name__, len(sd), sd["lm_head.weight"].data_ptr() == sd["transformer.wte.weight"].data_ptr())',
    GPT + 'm = GPT().to(dtype=torch.bfloat16); print(m.lm_head.weight.dtype, m.transformer.h[0].attn.in_proj_weight.dtype); lo, _ = m(torch.randint(0, 11, (1, 3))); print(lo.dtype)',
    GPT + 'm = GPT()\nwith torch.autocast(device_type="cpu", dtype=torch.bfloat16):\n    lo, loss = m(torch.randint(0, 11, (1, 3)), torch.randint(0, 11, (1, 3)))\nprint(lo.dtype, loss.dtype)',
    GPT + 'm = GPT(); print(sorted({p.dim() for p in m.parameters()})); print([n for n, p in m.named_parameters() if p.dim() < 2][:5])',
    GPT + 'm = GPT(); print([type(mm).__name__ for mm in m.modules()][:12])',
    GPT + 'm = GPT(); print([n for n, _ in m.named_modules()][:10])',
    GPT + 'm = GPT(); print(len(list(m.named_parameters(remove_duplicate=False))), len(list(m.named_parameters())))',
    GPT + 'm = GPT(); m.eval(); print(m.training, m.transformer.h[0].training); m.train(); print(m.transformer.drop.training)',
    GPT + 'm = GPT(); m.requires_grad_(False); m.lm_head.requires_grad_(True); print(sum(p.numel() for p in m.parameters() if p.requires_grad))',
    'logits = torch.randn(2, 3, 5); t = torch.tensor([[1, -1, 2], [-1, -1, 4]]); print(F.cross_entropy(logits.view(-1, 5), t.view(-1), ignore_index=-1))',
    'logits = torch.randn(2, 3, 5); t = torch.full((2, 3), -1); print(F.cross_entropy(logits.view(-1, 5), t.view(-1), ignore_index=-1))',
    'logits = torch.randn(2, 3, 5); t = torch.tensor([[1, -100, 2], [0, 3, 4]]); print(F.cross_entropy(logits.transpose(1, 2), t), F.cross_entropy(logits.view(-1, 5), t.view(-1), reduction="sum"))',
    'logits = torch.randn(4, 5); t = torch.tensor([1, 0, 2, 9])\ntry:\n    F.cross_entropy(logits, t)\nexcept IndexError as e: print(e)',
    'logits = torch.randn(4, 5); t = torch.tensor([1, 0, 2, 3]); print(F.cross_entropy(logits, t, label_smoothing=0.1), F.cross_entropy(logits, t, label_smoothing=0.1, ignore_index=0))',
    'logits = torch.randn(2, 3, 5)\ntry:\n    F.cross_entropy(logits.view(-1, 5), torch.zeros(2, 3, dtype=torch.long).view(-1, 2))\nexcept (RuntimeError, ValueError) as e: print(type(e).__name__, e)',
    'logits = torch.randn(6, 5); t = torch.zeros(5, dtype=torch.long)\ntry:\n    F.cross_entropy(logits, t)\nexcept ValueError as e: print(e)',
    'logits = torch.randn(4, 5).to(torch.bfloat16); t = torch.tensor([1, 0, 2, 3]); l = F.cross_entropy(logits, t); print(l.dtype)',
    'x = torch.randn(5); print(nn.GELU(approximate="tanh")(x), nn.GELU()(x)); print(nn.GELU(approximate="tanh"))',
    'try:\n    nn.GELU(approximate="fast")(torch.randn(2))\nexcept RuntimeError as e: print(e)',
    'ln = nn.LayerNorm(4, bias=False); print(ln, ln.bias, list(ln.state_dict())); print(ln(torch.randn(2, 4)).round(decimals=4))',
    'ln = nn.LayerNorm(4, elementwise_affine=False, bias=False); print(ln, list(ln.parameters()))',
    'ln = nn.LayerNorm((2, 3), eps=1e-6); print(ln, ln.weight.shape); x = torch.randn(1, 2, 3); print(F.layer_norm(x, (2, 3), None, None, 1e-5).round(decimals=4))',
    'rms = nn.RMSNorm(4); print(rms, rms.eps); print(rms(torch.randn(2, 4)).round(decimals=4))',
    'class RMSNorm(nn.Module):\n    def __init__(self, dim, eps=1e-6):\n        super().__init__(); self.eps = eps; self.weight = nn.Parameter(torch.ones(dim))\n    def _norm(self, x):\n        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)\n    def forward(self, x):\n        return self._norm(x.float()).type_as(x) * self.weight\nm = RMSNorm(4); x = torch.randn(2, 4).to(torch.bfloat16); y = m(x); print(y.dtype, y); print(torch.allclose(m(x.float()), nn.RMSNorm(4, eps=1e-6)(x.float()), atol=1e-5))',
]


# -- DropPath / LayerScale, _ntuple, jit and compiler questions, checkpoint, backend flags, autocast

SETUP_4 = "import math, io, collections.abc\nfrom itertools import repeat\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
DP = '''
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
        return f'drop_prob={round(self.drop_prob,3):0.3f}'
class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__(); self.inplace = inplace; self.gamma = nn.Parameter(init_values * torch.ones(dim))
    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma
'''
_S4 = [
    DP + 'm = DropPath(0.5); print(m); x = torch.ones(6, 2, 3); y = m(x); print(y[:, 0, 0]); m.eval(); print(m(x) is x)',
    DP + 'x = torch.ones(4, 3); r = x.new_empty((4, 1)); print(r.shape, r.dtype); print(r.bernoulli_(0.7).squeeze())',
    DP + 'x = torch.ones(8, 3, requires_grad=True); y = drop_path(x, 0.25, True); y.sum().backward(); print(x.grad[:, 0], y.grad_fn.name())',
    DP + 'm = LayerScale(4); print(m, m.gamma); x = torch.randn(2, 4); print(m(x).round(decimals=8))',
    DP + 'm = LayerScale(4, inplace=True); x = torch.randn(2, 4)\nwith torch.no_grad():\n    y = m(x)\nprint(y is x, x.round(decimals=8))',
    DP + 'm = LayerScale(4, inplace=True); x = torch.randn(2, 4, requires_grad=True)\ntry:\n    m(x)\nexcept RuntimeError as e: print(e)',
    'x = torch.ones(3, 2); print(x.new_empty((2,)).shape, x.new_zeros(2, 3).dtype, x.new_ones((1,)), x.new_full((2,), 3), x.new_tensor([1, 2]).dtype)',
    'x = torch.empty(5).bernoulli_(0.0); print(x); print(torch.empty(3).bernoulli_(1.0))',
    'x = torch.zeros(2, 3); print(torch.bernoulli(torch.full((2, 3), 0.5))); print(torch.bernoulli(x, p=1.0) if hasattr(torch, "bernoulli") else 0)',
    'try:\n    torch.empty(3).bernoulli_(1.5)\nexcept RuntimeError as e: print(e)',
    'print(nn.modules.utils._pair(3), nn.modules.utils._pair((1, 2)), nn.modules.utils._single(2), nn.modules.utils._triple(1), nn.modules.utils._quadruple(0))',
    'f = nn.modules.utils._ntuple(3); print(f(2), f([1, 2, 3]), f("ab"))',
    'def _ntuple(n):\n    def parse(x):\n        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):\n            return tuple(x)\n        return tuple(repeat(x, n))\n    return parse\nto_2tuple = _ntuple(2); print(to_2tuple(torch.Size([3, 4])), to_2tuple(5))',
    'print(torch.jit.is_scripting(), torch.jit.is_tracing(), torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling())',
    '@torch.jit.ignore\ndef f(x):\n    return x + 1\nprint(f(torch.ones(1)))\n@torch.jit.unused\ndef g(x):\n    return x * 2\nprint(g(torch.ones(1)))',
    'class M(nn.Module):\n    __constants__ = ["k"]\n    def __init__(self):\n        super().__init__(); self.k = 2\n    @torch.jit.export\n    def f(self):\n        return self.k\nprint(M().f())',
    'print(torch.jit.Final, torch.jit.annotate(int, 3) if hasattr(torch.jit, "annotate") else 3)',
    'x = torch.randn(3, 4, requires_grad=True); lin = nn.Linear(4, 4); y = torch.utils.checkpoint.checkpoint(lin, x, use_reentrant=False); y.sum().backward(); print(y.grad_fn is not None, x.grad.shape, round(lin.weight.grad.sum().item(), 4))',
    'x = torch.randn(3, 4, requires_grad=True); f = lambda a, b: (a * b).sin(); y = torch.utils.checkpoint.checkpoint(f, x, x, use_reentrant=False); y.sum().backward(); print(x.grad.round(decimals=4)[0])',
    'x = torch.randn(3, 4, requires_grad=True); lin = nn.Linear(4, 4); y = torch.utils.checkpoint.checkpoint(lin, x, use_reentrant=True); y.sum().backward(); print(x.grad.shape, round(x.grad.sum().item(), 4))',
    'seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2)); x = torch.randn(3, 2, requires_grad=True); y = torch.utils.checkpoint.checkpoint_sequential(seq, 2, x, use_reentrant=False); y.sum().backward(); print(y.shape, x.grad.shape)',
    'print(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.get_float32_matmul_precision())',
    'torch.backends.cuda.matmul.allow_tf32 = True; torch.backends.cudnn.allow_tf32 = True; torch.set_float32_matmul_precision("high"); print(torch.get_float32_matmul_precision()); torch.set_float32_matmul_precision("highest"); torch.backends.cuda.matmul.allow_tf32 = False; print(torch.get_float32_matmul_precision())',
    'try:\n    torch.set_float32_matmul_precision("ultra")\nexcept Exception as e: print(type(e).__name__, e)',
    'print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic, torch.backends.cudnn.enabled, torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction)',
    'print(torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())',
    'device = "cuda" if torch.cuda.is_available() else "cpu"; device_type = "cuda" if "cuda" in device else "cpu"; print(device, device_type); ctx = torch.amp.autocast(device_type=device_type, dtype=torch.bfloat16)\nwith ctx:\n    y = nn.Linear(2, 2)(torch.randn(1, 2))\nprint(y.dtype)',
    'print(torch.cuda.is_bf16_supported() if torch.cuda.is_available() else "no cuda")',
    'scaler = torch.amp.GradScaler("cpu", enabled=False); print(scaler.is_enabled(), scaler.get_scale())',
    'scaler = torch.cuda.amp.GradScaler(enabled=False); print(scaler.is_enabled())',
    'x = torch.randn(2, 3)\nwith torch.autocast(device_type="cpu", dtype=torch.bfloat16):\n    a = x @ x.T; b = F.softmax(a, -1); c = torch.relu(a); d = a.float(); e = F.layer_norm(a, (2,)); g = x.sum()\nprint(a.dtype, b.dtype, c.dtype, d.dtype, e.dtype, g.dtype)',
    'x = torch.randn(2, 3); lin = nn.Linear(3, 3)\nwith torch.autocast(device_type="cpu", dtype=torch.bfloat16):\n    y = lin(x); z = F.gelu(y); w = F.cross_entropy(y, torch.tensor([0, 1])); s = F.scaled_dot_product_attention(y[None], y[None], y[None])\nprint(y.dtype, z.dtype, w.dtype, s.dtype, lin.weight.dtype)',
    'x = torch.randn(2, 3)\nwith torch.autocast(device_type="cpu", dtype=torch.bfloat16):\n    with torch.autocast(device_type="cpu", enabled=False):\n        y = x @ x.T\n    z = x @ x.T\nprint(y.dtype, z.dtype, torch.is_autocast_enabled("cpu"))',
    'x = torch.randn(2, 3)\nwith torch.autocast(device_type="cpu", dtype=torch.bfloat16):\n    print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))\nprint(torch.is_autocast_enabled("cpu"))',
    'x = torch.randn(2, 3)\nwith torch.autocast(device_type="cpu", dtype=torch.float16):\n    y = x @ x.T\nprint(y.dtype)',
    'x = torch.randn(2, 3)\nwith torch.autocast(device_type="cpu"):\n    y = torch.mm(x, x.T); c = nn.Conv1d(2, 2, 1)(x[None, :2]); b = torch.bmm(x[None], x.T[None])\nprint(y.dtype, c.dtype, b.dtype)',
]


# -- torchvision-style ResNet blocks, batch/group norm, interpolate and Upsample ------------------

SETUP_5 = "import math, io, copy\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
RES = '''
def conv3x3(i, o, stride=1, groups=1, dilation=1):
    return nn.Conv2d(i, o, kernel_size=3, stride=stride, padding=dilation, groups=groups, bias=False, dilation=dilation)
def conv1x1(i, o, stride=1):
    return nn.Conv2d(i, o, kernel_size=1, stride=stride, bias=False)
class BasicBlock(nn.Module):
    expansion = 1
    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride); self.bn1 = nn.BatchNorm2d(planes); self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes); self.bn2 = nn.BatchNorm2d(planes); self.downsample = downsample; self.stride = stride
    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)
class Bottleneck(nn.Module):
    expansion = 4
    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv1x1(inplanes, planes); self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = conv3x3(planes, planes, stride); self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = conv1x1(planes, planes * 4); self.bn3 = nn.BatchNorm2d(planes * 4)
        self.relu = nn.ReLU(inplace=True); self.downsample = downsample
    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)
class TinyResNet(nn.Module):
    def __init__(self, block=BasicBlock, num_classes=3, zero_init_residual=True):
        super().__init__()
        self.inplanes = 4
        self.conv1 = nn.Conv2d(3, 4, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(4); self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 4, 1)
        self.layer2 = self._make_layer(block, 8, 1, stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8 * block.expansion, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1); nn.init.constant_(m.bias, 0)
        if zero_init_residual:
            for m in self.modules():
                if isinstance(m, Bottleneck) and m.bn3.weight is not None:
                    nn.init.constant_(m.bn3.weight, 0)
                elif isinstance(m, BasicBlock) and m.bn2.weight is not None:
                    nn.init.constant_(m.bn2.weight, 0)
    def _make_layer(self, block, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(conv1x1(self.inplanes, planes * block.expansion, stride), nn.BatchNorm2d(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes))
        return nn.Sequential(*layers)
    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)
'''
_S5 = [
    RES + 'm = TinyResNet(); print(m)',
    RES + 'm = TinyResNet(); print(sum(p.numel() for p in m.parameters()), len(m.state_dict()), [k for k in m.state_dict() if "num_batches" in k][:3])',
    RES + 'm = TinyResNet(); x = torch.randn(2, 3, 16, 16); y = m(x); print(y.shape, y.grad_fn.name()); print(m.bn1.num_batches_tracked, m.bn1.running_mean.round(decimals=4))',
    RES + 'm = TinyResNet(); m.eval(); x = torch.randn(2, 3, 16, 16); y = m(x); print(y.round(decimals=4))',
    RES + 'm = TinyResNet(Bottleneck); x = torch.randn(2, 3, 16, 16); y = m(x); y.sum().backward(); print(y.shape, m.layer1[0].bn3.weight.grad.shape, round(m.conv1.weight.grad.abs().sum().item(), 3))',
    RES + 'm = TinyResNet(Bottleneck); print(m.layer2[0].downsample); print(m.layer1[0].bn3.weight[:4])',
    RES + 'm = TinyResNet(); print(round(m.conv1.weight.std().item(), 3), m.layer1[0].bn2.weight)',
    RES + 'm = TinyResNet(); n = 0\nfor name, mod in m.named_modules():\n    if isinstance(mod, nn.BatchNorm2d): n += 1\nprint(n, m.layer1[0].bn1)',
    RES + 'm = TinyResNet(); m.fc = nn.Identity(); print(m(torch.randn(1, 3, 8, 8)).shape, m.fc)',
    RES + 'm = TinyResNet(); m2 = copy.deepcopy(m); print(m2.fc.weight is m.fc.weight, torch.equal(m2.fc.weight, m.fc.weight))',
    RES + 'm = TinyResNet(); m.eval(); x = torch.randn(1, 3, 8, 8)\nwith torch.inference_mode():\n    y = m(x)\nprint(y.requires_grad, y.is_inference())',
    RES + 'm = TinyResNet(); x = torch.randn(1, 3, 16, 16).to(memory_format=torch.channels_last); m = m.to(memory_format=torch.channels_last); y = m(x); print(y.shape, m.conv1.weight.is_contiguous(memory_format=torch.channels_last))',
    RES + 'm = TinyResNet(); sd = m.state_dict(); print(type(sd).__name__, list(sd)[:6])',
    RES + 'm = TinyResNet(); print([n for n, c in m.named_children()])',
    'bn = nn.BatchNorm2d(3); x = torch.randn(4, 3, 2, 2); bn(x); print(bn.running_var.round(decimals=4), bn.num_batches_tracked, bn.num_batches_tracked.dtype)',
    'bn = nn.BatchNorm2d(3, momentum=None); x = torch.randn(4, 3, 2, 2); bn(x); bn(x * 2); print(bn.running_mean.round(decimals=4), bn.num_batches_tracked)',
    'bn = nn.BatchNorm2d(3); x = torch.randn(1, 3, 1, 1)\ntry:\n    bn(x)\nexcept ValueError as e: print(e)',
    'bn = nn.BatchNorm1d(3, track_running_stats=False); print(bn, bn.running_mean, list(bn.state_dict()))',
    'gn = nn.GroupNorm(2, 4); print(gn); x = torch.randn(2, 4, 3, 3); print(gn(x).mean(dim=(2, 3)).round(decimals=4)[0])',
    'try:\n    nn.GroupNorm(3, 4)\nexcept ValueError as e: print(e)',
    'gn = nn.GroupNorm(num_groups=32, num_channels=64, eps=1e-6, affine=True); print(gn, gn.weight.shape)',
    'gn = nn.GroupNorm(2, 4); x = torch.randn(2, 4, 3, 3)\nwith torch.autocast(device_type="cpu", dtype=torch.bfloat16):\n    y = gn(x.to(torch.bfloat16))\nprint(y.dtype)',
    'print(nn.SiLU(), F.silu(torch.tensor([-1., 0., 2.])), nn.SiLU(inplace=True))',
    'x = torch.arange(4.).reshape(1, 1, 2, 2); print(F.interpolate(x, scale_factor=2, mode="nearest")); print(F.interpolate(x, scale_factor=2.0, mode="nearest").shape)',
    'x = torch.arange(4.).reshape(1, 1, 2, 2); print(F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=False)); print(F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)[0, 0, 1])',
    'x = torch.arange(4.).reshape(1, 1, 2, 2); print(nn.Upsample(scale_factor=2, mode="nearest"), nn.Upsample(size=3, mode="bilinear", align_corners=True)); print(nn.Upsample(scale_factor=2)(x).shape)',
    'x = torch.arange(4.).reshape(1, 1, 4)\ntry:\n    F.interpolate(x, scale_factor=2, mode="bilinear")\nexcept (ValueError, NotImplementedError) as e: print(type(e).__name__, e)',
    'x = torch.arange(4.).reshape(1, 1, 2, 2)\ntry:\n    F.interpolate(x, size=3, scale_factor=2)\nexcept ValueError as e: print(e)',
    'x = torch.arange(16.).reshape(1, 1, 4, 4); print(F.interpolate(x, scale_factor=0.5, mode="nearest"), F.avg_pool2d(x, 2), F.interpolate(x, scale_factor=0.5, mode="area"))',
    'x = torch.arange(8.).reshape(1, 2, 4); print(F.interpolate(x, scale_factor=1.5, mode="linear"), F.interpolate(x, size=6, mode="nearest-exact"))',
    'x = torch.arange(4.).reshape(1, 1, 2, 2); print(F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False).round(decimals=4)[0, 0, 0])',
    'x = torch.randn(1, 2, 4, 4, requires_grad=True); y = F.interpolate(x, scale_factor=2, mode="nearest"); print(y.grad_fn.name()); y.sum().backward(); print(x.grad[0, 0])',
    'x = torch.randn(1, 2, 4, 4).to(torch.bfloat16); print(F.interpolate(x, scale_factor=2, mode="nearest").dtype, F.interpolate(x, scale_factor=2, mode="bilinear").dtype)',
    'x = torch.arange(4.).reshape(1, 1, 2, 2); print(F.interpolate(x, scale_factor=(2, 1), mode="nearest").shape, F.upsample(x, scale_factor=2).shape if hasattr(F, "upsample") else None)',
]


# -- timm-style ViT pieces, init functions, einsum attention --------------------------------------

SETUP_6 = "import math, io, copy\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
VIT = '''
class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, embed_dim=8, norm_layer=None, flatten=True):
        super().__init__()
        img_size = nn.modules.utils._pair(img_size); patch_size = nn.modules.utils._pair(patch_size)
        self.grid_size = (img_size[0] // patch_size[0], img_size[1] // patch_size[1])
        self.num_patches = self.grid_size[0] * self.grid_size[1]
        self.flatten = flatten
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = norm_layer(embed_dim) if norm_layer else nn.Identity()
    def forward(self, x):
        x = self.proj(x)
        if self.flatten:
            x = x.flatten(2).transpose(1, 2)
        return self.norm(x)
class Attention(nn.Module):
    def __init__(self, dim, num_heads=2, qkv_bias=False, fused=False):
        super().__init__()
        self.num_heads = num_heads; self.head_dim = dim // num_heads; self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias); self.proj = nn.Linear(dim, dim); self.fused = fused
    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        if self.fused:
            x = F.scaled_dot_product_attention(q, k, v)
        else:
            q = q * self.scale
            attn = q @ k.transpose(-2, -1)
            attn = attn.softmax(dim=-1)
            x = attn @ v
        x = x.transpose(1, 2).reshape(B, N, C)
        return self.proj(x)
class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=nn.GELU, drop=0.):
        super().__init__()
        out_features = out_features or in_features; hidden_features = hidden_features or in_features
        self.fc1 = nn.Linear(in_features, hidden_features); self.act = act_layer(); self.drop1 = nn.Dropout(drop)
        self.fc2 = nn.Linear(hidden_features, out_features); self.drop2 = nn.Dropout(drop)
    def forward(self, x):
        return self.drop2(self.fc2(self.drop1(self.act(self.fc1(x)))))
class ViT(nn.Module):
    def __init__(self, dim=8, depth=2, n_cls=3):
        super().__init__()
        self.patch_embed = PatchEmbed(embed_dim=dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, self.patch_embed.num_patches + 1, dim) * .02)
        self.blocks = nn.Sequential(*[nn.Sequential(nn.LayerNorm(dim, eps=1e-6), Attention(dim)) for _ in range(depth)])
        self.mlp = Mlp(dim, 16)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.head = nn.Linear(dim, n_cls)
        nn.init.trunc_normal_(self.pos_embed, std=.02); nn.init.normal_(self.cls_token, std=1e-6)
        self.apply(self._init)
    def _init(self, m):
        if isinstance(m, nn.Linear):
            nn.init.trunc_normal_(m.weight, std=.02)
            if m.bias is not None:
                nn.init.constant_(m.bias, 0)
        elif isinstance(m, nn.LayerNorm):
            nn.init.constant_(m.bias, 0); nn.init.constant_(m.weight, 1.0)
    @torch.jit.ignore
    def no_weight_decay(self):
        return {'pos_embed', 'cls_token'}
    def forward(self, x):
        x = self.patch_embed(x)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)
        x = x + self.pos_embed
        x = self.blocks(x)
        x = self.norm(x + self.mlp(x))
        return self.head(x[:, 0])
'''
_S6 = [
    VIT + 'm = ViT(); print(m)',
    VIT + 'm = ViT(); x = torch.randn(2, 3, 8, 8); y = m(x); print(y.shape, y.grad_fn.name(), round(y.abs().sum().item(), 4))',
    VIT + 'm = ViT(); print(sum(p.numel() for p in m.parameters()), m.no_weight_decay(), [k for k in m.state_dict()][:4])',
    VIT + 'a = Attention(8); x = torch.randn(2, 5, 8); y1 = a(x); a.fused = True; print(torch.allclose(y1, a(x), atol=1e-6))',
    VIT + 'p = PatchEmbed(); x = torch.randn(1, 3, 8, 8); y = p(x); print(y.shape, y.stride(), y.is_contiguous(), p.grid_size, p.num_patches)',
    VIT + 'p = PatchEmbed(norm_layer=nn.LayerNorm); print(p)',
    VIT + 'm = ViT(); x = torch.randn(2, 3, 8, 8); m(x).sum().backward(); print(m.cls_token.grad.shape, m.pos_embed.grad.shape, round(m.pos_embed.grad.abs().sum().item(), 3))',
    VIT + 'm = ViT(); decay, no_decay = [], []\nfor n, p in m.named_parameters():\n    if p.ndim <= 1 or n.endswith(".bias") or n in m.no_weight_decay(): no_decay.append(n)\n    else: decay.append(n)\nprint(len(decay), len(no_decay), no_decay[:4])',
    VIT + 'm = ViT(); x = torch.randn(1, 3, 8, 8); print(m.patch_embed.proj.weight.shape); y = m.patch_embed.proj(x); print(y.flatten(2).shape, y.flatten(2).transpose(1, 2).stride())',
    'x = torch.zeros(1, 1, 4); c = x.expand(3, -1, -1); print(c.shape, c.stride(), c.is_contiguous())',
    'x = torch.zeros(1, 1, 4)\ntry:\n    x.expand(3, 2, -1, 5)\nexcept RuntimeError as e: print(e)',
    'x = torch.zeros(2, 4)\ntry:\n    x.expand(3, 4)\nexcept RuntimeError as e: print(e)',
    'w = torch.empty(3, 4); nn.init.trunc_normal_(w, std=0.02); print(w.abs().max().item() <= 2.0, round(w.std().item(), 2))',
    'w = torch.empty(1000); nn.init.trunc_normal_(w, mean=0., std=1., a=-0.5, b=0.5); print(w.min().item() >= -0.5, w.max().item() <= 0.5)',
    'w = torch.empty(3, 4); nn.init.xavier_uniform_(w); print(w.round(decimals=4)); nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("relu")); print(w.round(decimals=4))',
    'print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("selu"), nn.init.calculate_gain("linear"))',
    'try:\n    nn.init.calculate_gain("gelu")\nexcept ValueError as e: print(e)',
    'w = torch.empty(4, 3, 3, 3); nn.init.kaiming_uniform_(w, a=math.sqrt(5)); print(round(w.abs().max().item(), 4)); nn.init.kaiming_normal_(w, mode="fan_in", nonlinearity="leaky_relu"); print(w[0, 0].round(decimals=4))',
    'w = torch.empty(3); \ntry:\n    nn.init.xavier_uniform_(w)\nexcept ValueError as e: print(e)',
    'w = torch.empty(4, 4); nn.init.orthogonal_(w); print(torch.allclose(w @ w.T, torch.eye(4), atol=1e-5)); nn.init.eye_(w); print(w.diag())',
    'w = torch.empty(2, 3, 3); nn.init.dirac_(w); print(w)',
    'w = nn.Parameter(torch.empty(2, 3)); r = nn.init.normal_(w, 0, 0.02); print(r is w, type(r).__name__, w.requires_grad, w.grad_fn)',
    'w = nn.Parameter(torch.empty(2, 3)); nn.init.uniform_(w, -0.1, 0.1); nn.init.zeros_(w); nn.init.ones_(w); print(w)',
    'w = torch.empty(2, 3); nn.init.sparse_(w, 0.5) if False else None; nn.init.constant_(w, 0.3); print(w)',
    'lin = nn.Linear(4, 3)\nfor m in nn.Sequential(lin, nn.ReLU()).modules():\n    if isinstance(m, nn.Linear):\n        nn.init.normal_(m.weight, 0, 0.02); nn.init.zeros_(m.bias)\nprint(lin.bias, round(lin.weight.std().item(), 2))',
    'def init(m):\n    print(type(m).__name__)\n    if type(m) == nn.Linear: m.weight.data.fill_(1.0)\nnet = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1))); r = net.apply(init); print(r is net, net[1][1].weight)',
    'x = torch.randn(2, 3, 4); print(torch.einsum("bhd,bkd->bhk", x, x).shape, torch.einsum("b i d, b j d -> b i j", x, x).shape)',
    'q = torch.randn(1, 2, 3, 4); k = torch.randn(1, 2, 5, 4); s = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(4); print(s.shape); print(torch.allclose(s, q @ k.transpose(-1, -2) / 2))',
    'x = torch.randn(3, 4); print(torch.einsum("ij->ji", x).stride(), torch.einsum("ii->i", torch.eye(3)), torch.einsum("ij->", x).shape)',
    'x = torch.randn(3, 4)\ntry:\n    torch.einsum("ij,jk->ik", x, x)\nexcept RuntimeError as e: print(e)',
    'a = torch.randn(2, 3); b = torch.randn(3); print(torch.einsum("...j,j->...", a, b).round(decimals=4), torch.einsum("ij,j", a, b).shape)',
    'a = torch.randn(2, 3, requires_grad=True); y = torch.einsum("ij,ij->i", a, a); print(y.grad_fn.name()); y.sum().backward(); print(torch.allclose(a.grad, 2 * a))',
    'a = torch.randn(2, 3).to(torch.bfloat16); print(torch.einsum("ij,kj->ik", a, a).dtype)',
    'try:\n    torch.einsum("ij,jk->ik", torch.randn(2, 3), torch.randn(3, 4).double())\nexcept RuntimeError as e: print(e)',
]


# -- buffers, parameter assignment, state_dict round trips, EMA with _foreach and lerp ------------

SETUP_7 = "import math, io, copy\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S7 = [
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__(); self.lin = nn.Linear(2, 2)\n        self.register_buffer("cos", torch.ones(3), persistent=False); self.register_buffer("step", torch.tensor(0))\nm = M(); print(list(m.state_dict())); print([n for n, _ in m.named_buffers()]); print(m._non_persistent_buffers_set)',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__(); self.register_buffer("cos", torch.ones(3), persistent=False)\nm = M(); r = m.load_state_dict({}, strict=True); print(r); m2 = m.to(torch.float64); print(m2.cos.dtype, m2 is m)',
    'm = nn.Module(); m.register_buffer("b", None); print(list(m.named_buffers()), m.b, m.state_dict())',
    'm = nn.Module()\ntry:\n    m.register_buffer("a.b", torch.ones(1))\nexcept KeyError as e: print(e)',
    'm = nn.Module()\ntry:\n    m.register_buffer("x", [1])\nexcept TypeError as e: print(e)',
    'm = nn.Linear(2, 2)\ntry:\n    m.register_buffer("weight", torch.ones(1))\nexcept KeyError as e: print(e)',
    'm = nn.Linear(2, 2)\ntry:\n    m.weight = torch.ones(2, 2)\nexcept TypeError as e: print(e)',
    'm = nn.Linear(2, 2); m.weight = nn.Parameter(torch.ones(2, 2)); m.bias = None; print(m.bias, [n for n, _ in m.named_parameters()], m(torch.ones(1, 2)))',
    'm = nn.Module()\ntry:\n    m.register_parameter("p", torch.ones(1))\nexcept TypeError as e: print(e)',
    'm = nn.Module(); m.register_buffer("b", torch.ones(2)); m.b = torch.zeros(2); print(m.b, list(m.state_dict()))',
    'm = nn.Module(); m.register_buffer("b", torch.ones(2))\ntry:\n    m.b = 3\nexcept TypeError as e: print(e)',
    'm = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1))); print(m.get_submodule("1.1"), m.get_parameter("1.1.bias").shape)',
    'm = nn.Sequential(nn.Linear(2, 2))\ntry:\n    m.get_submodule("0.foo")\nexcept AttributeError as e: print(e)',
    'm = nn.Sequential(nn.Linear(2, 2)); print([n for n, _ in m.named_parameters(prefix="model")], [n for n, _ in m.named_parameters(recurse=False)])',
    'm = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).half(); print(m[0].weight.dtype, m[1].running_mean.dtype, m[1].num_batches_tracked.dtype)',
    'm = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).to(torch.bfloat16); print(m[1].num_batches_tracked.dtype, m[1].weight.dtype)\ntry:\n    m.to(torch.int32)\nexcept TypeError as e: print(e)',
    'm = nn.Linear(2, 2); sd = m.state_dict(); sd["weight"] = sd["weight"].double(); m.load_state_dict(sd); print(m.weight.dtype, m.weight.requires_grad, type(m.weight).__name__)',
    'm = nn.Linear(2, 2); sd = m.state_dict(keep_vars=True); print(type(sd["weight"]).__name__, sd["weight"].requires_grad); sd2 = m.state_dict(); print(sd2["weight"].requires_grad)',
    'm = nn.Linear(2, 2); sd = m.state_dict(); sd["weight"].add_(1); print(torch.equal(m.weight, sd["weight"]))',
    'm = nn.Linear(2, 2); m2 = nn.Linear(2, 3)\ntry:\n    m2.load_state_dict(m.state_dict())\nexcept RuntimeError as e: print(e)',
    'm = nn.Linear(2, 2); r = m.load_state_dict(m.state_dict()); print(r, bool(r), r == ([], []) if isinstance(r, tuple) else None)',
    'm = nn.Linear(2, 2); r = m.load_state_dict({"weight": torch.ones(2, 2), "extra": torch.ones(1)}, strict=False); print(r.missing_keys, r.unexpected_keys, repr(r))',
    'm = nn.Linear(2, 2); r = m.load_state_dict({"weight": torch.ones(2, 2), "bias": torch.ones(2)}, assign=True); print(m.weight, type(m.weight).__name__, m.weight.requires_grad)',
    'sd = collections.OrderedDict() if False else {}; m = nn.Sequential(nn.Linear(2, 2)); sd = {"module." + k: v for k, v in m.state_dict().items()}; r = m.load_state_dict(sd, strict=False); print(r)\nsd2 = {k.replace("module.", "", 1): v for k, v in sd.items()}; print(m.load_state_dict(sd2))',
    'm = nn.Sequential(nn.Linear(2, 2)); sd = {"module." + k: v for k, v in m.state_dict().items()}; nn.modules.utils.consume_prefix_in_state_dict_if_present(sd, "module."); print(list(sd))',
    'm = nn.Linear(2, 2); buf = io.BytesIO(); torch.save({"model": m.state_dict(), "iter": 5, "config": {"n": 1}}, buf); buf.seek(0); ck = torch.load(buf, map_location="cpu"); print(ck["iter"], ck["config"], list(ck["model"]))',
    'm = nn.Linear(2, 2); buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0); ck = torch.load(buf, weights_only=True); print(list(ck), type(ck).__name__)',
    'm = nn.Linear(2, 2); buf = io.BytesIO(); torch.save(m, buf); buf.seek(0)\ntry:\n    torch.load(buf, weights_only=True)\nexcept Exception as e: print(type(e).__name__)',
    'm = nn.Linear(2, 2); buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0); ck = torch.load(buf, mmap=False, map_location=torch.device("cpu")); print(ck["bias"].device)',
    'ps = [nn.Parameter(torch.randn(2, 2)) for _ in range(2)]; ema = [p.detach().clone() for p in ps]; torch._foreach_mul_(ema, 0.9); torch._foreach_add_(ema, ps, alpha=0.1); print([e.round(decimals=4) for e in ema])',
    'ps = [torch.ones(2), torch.full((3,), 2.)]; ema = [torch.zeros(2), torch.zeros(3)]; torch._foreach_lerp_(ema, ps, 0.25); print(ema); torch._foreach_mul_(ema, torch.tensor(2.)); print(ema)',
    'a = [torch.ones(2), torch.ones(3)]; print(torch._foreach_add(a, 1), torch._foreach_mul(a, [2, 3]), torch._foreach_norm(a), torch._foreach_sqrt(a))',
    'a = [torch.ones(2)]; b = [torch.ones(3)]\ntry:\n    torch._foreach_add_(a, b)\nexcept RuntimeError as e: print(e)',
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_add_(a, [torch.ones(2), torch.ones(2)])\nexcept RuntimeError as e: print(e)',
    'a = [torch.ones(2), torch.ones(3)]; torch._foreach_addcmul_(a, a, a, value=0.5); torch._foreach_addcdiv_(a, a, a, value=2); torch._foreach_zero_(a) if False else None; print(a); torch._foreach_copy_(a, [torch.zeros(2), torch.zeros(3)]); print(a)',
    'x = torch.zeros(3); y = torch.ones(3); print(torch.lerp(x, y, 0.3), x.lerp(y, torch.tensor([0., .5, 1.])), x.lerp_(y, 0.1), x)',
    'class EMA:\n    def __init__(self, model, decay=0.999):\n        self.shadow = copy.deepcopy(model).eval(); self.decay = decay\n        for p in self.shadow.parameters(): p.requires_grad_(False)\n    @torch.no_grad()\n    def update(self, model):\n        for s, p in zip(self.shadow.state_dict().values(), model.state_dict().values()):\n            if s.dtype.is_floating_point: s.lerp_(p, 1 - self.decay)\n            else: s.copy_(p)\nm = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)); e = EMA(m, 0.5)\nwith torch.no_grad():\n    for p in m.parameters(): p.add_(1.0)\nm(torch.randn(3, 2)); e.update(m); print(e.shadow[0].bias.round(decimals=4), e.shadow[1].num_batches_tracked, e.shadow[1].running_mean.round(decimals=4))',
    'm = nn.Linear(2, 2); avg = torch.optim.swa_utils.AveragedModel(m, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)); \nwith torch.no_grad(): m.weight.add_(1)\navg.update_parameters(m); avg.update_parameters(m); print(avg.n_averaged, list(avg.state_dict())[:3])',
    'print(torch.float32.is_floating_point, torch.int64.is_floating_point, torch.bfloat16.is_complex, torch.complex64.is_complex, torch.bool.is_signed, torch.float16.itemsize)',
]


# -- the _foreach_* ops and their errors ----------------------------------------------------------

SETUP_8 = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S8 = [
    'a = [torch.ones(2), torch.ones(3)]; r = torch._foreach_add_(a, 1); print(r is a, type(r).__name__, type(torch._foreach_add(a, 1)).__name__)',
    'a = (torch.ones(2), torch.ones(3)); r = torch._foreach_mul_(a, 3); print(r is a, a)',
    'a = [torch.ones(2), torch.full((3,), 4.)]; print(torch._foreach_clone(a), torch._foreach_powsum(a, 2), torch._foreach_norm(a, 2, dtype=torch.float64))',
    'a = [torch.tensor([-1., 2.])]; print(torch._foreach_powsum(a, 3), torch._foreach_norm(a, 1), torch._foreach_norm(a, float("inf")), torch._foreach_max([torch.tensor([[1., 5.], [7., 0.]])]))',
    'print(torch._foreach_mm([torch.ones(2, 2)], [torch.ones(2, 3)]))',
    'a = [torch.ones(2)]; print(torch._foreach_lerp(a, [torch.zeros(2)], torch.tensor(0.5)), torch._foreach_lerp(a, [torch.zeros(2)], [torch.full((2,), 0.25)]), torch._foreach_lerp(a, [torch.zeros(2)], [0.1]))',
    'b = [torch.zeros(2, dtype=torch.float64)]; torch._foreach_copy_(b, [torch.ones(2)]); print(b)',
    'x = [torch.ones(2, requires_grad=True)]; y = torch._foreach_mul(x, 2); print(y[0].requires_grad); y[0].sum().backward(); print(x[0].grad)',
    'x = [torch.ones(2, requires_grad=True)]\ntry:\n    torch._foreach_mul_(x, 2)' + E,
    'try:\n    torch._foreach_max([torch.tensor([])])' + E,
    'a = [torch.ones(2), torch.ones(3)]; print(torch._foreach_sub(a, 1), torch._foreach_div(a, [2, 4]), torch._foreach_sub(a, a, alpha=2))',
    'print(torch._foreach_add([torch.ones(2, dtype=torch.int64)], 1.5), torch._foreach_div([torch.ones(2, dtype=torch.int64)], 2), torch._foreach_exp([torch.ones(2, dtype=torch.int64)]))',
    'try:\n    torch._foreach_mul_([torch.ones(2, dtype=torch.int64)], 1.5)' + E,
    'try:\n    torch._foreach_add(torch.ones(2), 1)' + E,
    'try:\n    torch._foreach_add([torch.ones(2), 3], 1)' + E,
    'try:\n    torch._foreach_add([], 1)' + E,
    'a = [torch.ones(2), torch.ones(3)]\ntry:\n    torch._foreach_mul(a, [1])' + E,
    'a = [torch.ones(2), torch.ones(3)]\ntry:\n    torch._foreach_add(a, [torch.ones(2)])' + E,
    'a = [torch.ones(2), torch.ones(3)]\ntry:\n    torch._foreach_mul(a, torch.ones(2))' + E,
    'a = [torch.ones(2), torch.ones(3)]\ntry:\n    torch._foreach_add(a, "x")' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_add(a, 1, alpha=2)' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_mul(a, [torch.ones(2)], alpha=2)' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_add(a, [1], alpha=2)' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_addcmul(a, a, a, torch.tensor([1., 2.]))' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_addcmul(a, a, a, torch.tensor([[1.]]))' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_add(a, torch.tensor([2.]))' + E,
    'try:\n    torch._foreach_exp(1)' + E,
    'try:\n    torch._foreach_exp([1])' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_norm(a, "fro")' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_copy_(a, [torch.ones(3)])' + E,
    'a = [torch.ones(2)]\ntry:\n    torch._foreach_lerp(a, a, "x")' + E,
    'try:\n    torch._foreach_sub([torch.ones(1, dtype=torch.bool)], 1)' + E,
    'a = [torch.ones(2), torch.ones(3) * 2]; print(torch._foreach_pow(2, a), torch._foreach_pow(a, [1, 2]), torch._foreach_pow(a, a), torch._foreach_maximum(a, 1.5), torch._foreach_minimum(a, [torch.zeros(2), torch.zeros(3)]))',
    'a = [torch.ones(2), torch.ones(3) * 2]; print(torch._foreach_addcmul(a, a, a, torch.tensor([1., 2.])), torch._foreach_addcdiv(a, a, a, [3, 4]), torch._foreach_clamp_min(a, 1.5), torch._foreach_clamp_max_(a, [0.5, 1.5]))',
    'a = [torch.tensor([-1.5, 0.25])]; print(torch._foreach_abs(a), torch._foreach_sign(a), torch._foreach_neg(a), torch._foreach_round(a), torch._foreach_frac(a), torch._foreach_trunc(a), torch._foreach_ceil(a), torch._foreach_floor(a))',
    'a = [torch.tensor([0.5, 0.25])]; print(torch._foreach_sigmoid(a), torch._foreach_rsqrt(a), torch._foreach_reciprocal(a), torch._foreach_log1p(a), torch._foreach_expm1(a), torch._foreach_erf(a), torch._foreach_lgamma(a), torch._foreach_tanh(a))',
    'a = [torch.tensor([4., 9.])]; r = torch._foreach_sqrt_(a); print(r, torch._foreach_zero_(a), torch._foreach_sqrt.__name__)',
    'a = [torch.ones(2, dtype=torch.bfloat16)]; print(torch._foreach_norm(a), torch._foreach_mul(a, 0.5)[0].dtype)',
]


# -- sampling (multinomial, top-k, top-p), where/-inf, GQA head repeats, KV caches, causal masks ---

SETUP_9 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S9 = [
    'p = torch.softmax(torch.randn(2, 5), -1); print(torch.multinomial(p, 1), torch.multinomial(p, 3), torch.multinomial(p, 8, replacement=True))',
    'p = torch.tensor([0.1, 0.0, 0.9]); print(torch.multinomial(p, 2), torch.multinomial(p, 1).shape, torch.multinomial(p, 1).dtype)',
    'p = torch.tensor([0.1, 0.0, 0.9])\ntry:\n    torch.multinomial(p, 3)' + E,
    'p = torch.tensor([0.1, -0.1, 0.9])\ntry:\n    torch.multinomial(p, 1)' + E,
    'p = torch.tensor([0., 0.])\ntry:\n    torch.multinomial(p, 1)' + E,
    'p = torch.tensor([1, 2])\ntry:\n    torch.multinomial(p, 1)' + E,
    'p = torch.tensor([0.2, float("nan")])\ntry:\n    torch.multinomial(p, 1)' + E,
    'p = torch.ones(2, 2, 2)\ntry:\n    torch.multinomial(p, 1)' + E,
    'g = torch.Generator().manual_seed(42); p = torch.ones(6) / 6; print(torch.multinomial(p, 4, generator=g), torch.multinomial(p, 4, replacement=True, generator=g))',
    'logits = torch.randn(2, 6); v, ix = torch.topk(logits, 3); print(v.round(decimals=4), ix); logits[logits < v[:, [-1]]] = -float("Inf"); print(logits.round(decimals=4))',
    'logits = torch.randn(1, 6); v, _ = torch.topk(logits, min(10, logits.size(-1))); print(v.shape); print(torch.topk(logits, 2, largest=False).indices, torch.topk(logits, 2, sorted=True))',
    'logits = torch.randn(1, 6)\ntry:\n    torch.topk(logits, 7)' + E,
    'logits = torch.randn(2, 8); top_p = 0.7; sl, si = torch.sort(logits, descending=True); cp = torch.cumsum(F.softmax(sl, dim=-1), dim=-1); rm = cp > top_p; rm[..., 1:] = rm[..., :-1].clone(); rm[..., 0] = 0; ir = rm.scatter(1, si, rm); logits = logits.masked_fill(ir, -float("inf")); print(logits.round(decimals=3)); print(torch.multinomial(F.softmax(logits, -1), 1))',
    'logits = torch.randn(2, 5); print(torch.argmax(logits, dim=-1, keepdim=True), logits.argmax(-1), torch.argmax(logits), logits.max(dim=-1, keepdim=True))',
    'x = torch.tensor([[1., 3., 3.], [2., 2., 0.]]); print(x.argmax(1), x.argmin(1), x.argmax(dim=0, keepdim=True).shape)',
    'try:\n    torch.argmax(torch.tensor([]))' + E,
    'x = torch.randn(2, 3); print(torch.where(x > 0, x, -math.inf), torch.where(x > 0, x, torch.tensor(float("-inf"))).dtype, torch.where(x > 0, 1.0, 0.0).dtype)',
    'x = torch.randn(2, 3).to(torch.bfloat16); print(torch.where(x > 0, x, float("-inf")).dtype, torch.where(x > 0, x, torch.finfo(x.dtype).min))',
    'x = torch.arange(6).reshape(2, 3); print(torch.where(x > 2, x, -1).dtype, torch.where(x > 2, x, 0.5).dtype, torch.where(x > 2))',
    'x = torch.randn(2, 3)\ntry:\n    torch.where(x, x, x)' + E,
    'x = torch.tensor([1, 2, 3]); print(x.repeat_interleave(2), torch.repeat_interleave(x, torch.tensor([1, 0, 2])), torch.repeat_interleave(torch.tensor([2, 1])))',
    'x = torch.arange(6).reshape(1, 3, 2); print(x.repeat_interleave(2, dim=1), x.repeat_interleave(2, dim=1).shape)',
    'x = torch.arange(4).reshape(2, 2)\ntry:\n    x.repeat_interleave(torch.tensor([1, 2, 3]), dim=0)' + E,
    'x = torch.arange(4.).reshape(2, 2, requires_grad=True) if False else torch.arange(4.).reshape(2, 2).requires_grad_(); y = x.repeat_interleave(3, dim=0); y.sum().backward(); print(x.grad, y.grad_fn.name())',
    'def repeat_kv(x, n_rep):\n    bs, slen, n_kv_heads, head_dim = x.shape\n    if n_rep == 1:\n        return x\n    return x[:, :, :, None, :].expand(bs, slen, n_kv_heads, n_rep, head_dim).reshape(bs, slen, n_kv_heads * n_rep, head_dim)\nx = torch.arange(8.).reshape(1, 2, 2, 2); r = repeat_kv(x, 2); print(r.shape, r[0, 0]); print(torch.equal(r, torch.repeat_interleave(x, 2, dim=2)))',
    'def repeat_kv(h, n_rep):\n    b, nkv, s, d = h.shape\n    h = h[:, :, None, :, :].expand(b, nkv, n_rep, s, d)\n    return h.reshape(b, nkv * n_rep, s, d)\nx = torch.randn(1, 2, 3, 4, requires_grad=True); r = repeat_kv(x, 3); print(r.shape, r.is_contiguous(), r.grad_fn.name()); r.sum().backward(); print(x.grad[0, 0, 0])',
    'x = torch.randn(2, 1, 3); e = x.expand(2, 4, 3); print(e.stride()); r = e.reshape(8, 3); print(r.stride(), r._base is None if hasattr(r, "_base") else 0)',
    'x = torch.randn(2, 1, 3); e = x.expand(2, 4, 3)\ntry:\n    e.view(8, 3)' + E,
    'B, H, D = 1, 2, 4; ck = torch.zeros(B, H, 0, D); cv = torch.zeros(B, H, 0, D)\nfor t in range(3):\n    k = torch.randn(B, H, 1, D); v = torch.randn(B, H, 1, D); ck = torch.cat([ck, k], dim=2); cv = torch.cat([cv, v], dim=2)\nprint(ck.shape, cv.shape, ck.is_contiguous()); q = torch.randn(B, H, 1, D); print(F.scaled_dot_product_attention(q, ck, cv).shape)',
    'cache_k = torch.zeros(2, 8, 2, 4); xk = torch.randn(2, 3, 2, 4); start_pos = 2; cache_k[:2, start_pos:start_pos + 3] = xk; keys = cache_k[:2, :start_pos + 3]; print(keys.shape, keys.stride(), keys.is_contiguous(), torch.equal(keys[:, 2:], xk))',
    'past = (torch.randn(1, 2, 3, 4), torch.randn(1, 2, 3, 4)); k_new = torch.randn(1, 2, 1, 4); k = torch.cat((past[0], k_new), dim=-2); print(k.shape, k.size(-2))',
    'try:\n    torch.cat([torch.zeros(1, 2, 3), torch.zeros(1, 3, 3)], dim=2)' + E,
    'try:\n    torch.cat([torch.zeros(1, 2, 3), torch.zeros(2, 3)], dim=1)' + E,
    'print(torch.cat([torch.zeros(2, 0), torch.ones(2, 2)], dim=1), torch.cat([torch.zeros(0), torch.ones(2, 2)]).shape if False else 0)',
    'try:\n    torch.cat([torch.zeros(0), torch.ones(2, 2)])' + E,
    'x = torch.zeros(1, 3, dtype=torch.long); n = torch.tensor([[5]]); print(torch.cat((x, n), dim=1), torch.cat((x, n.float()), dim=1).dtype)',
    'idx = torch.tensor([[1, 2, 3, 4, 5, 6, 7]]); bs = 4; print(idx[:, -bs:], idx if idx.size(1) <= bs else idx[:, -bs:].shape)',
    'am = torch.tensor([[1, 1, 0], [1, 0, 0]]); bsz, src = am.shape; e = am[:, None, None, :].expand(bsz, 1, 2, src).to(torch.float32); inv = 1.0 - e; print(inv.masked_fill(inv.to(torch.bool), torch.finfo(torch.float32).min)[0, 0])',
    'T = 3; m = torch.full((T, T), torch.finfo(torch.float32).min); c = torch.arange(T); m.masked_fill_(c < (c + 1).view(T, 1), 0); print(m)',
    'T = 4; causal = torch.full((T, T), float("-inf")).triu(1); print(causal, causal.dtype)',
    'T = 3; print(torch.ones(T, T, dtype=torch.bool).tril(diagonal=0), torch.triu(torch.ones(2, 3), diagonal=1), torch.ones(T, T).tril(-1))',
    'x = torch.randn(2, 3, 4); print(torch.tril(x).shape)\ntry:\n    torch.tril(torch.ones(3))' + E,
]


# -- diffusion U-Net pieces, transformer layers, MultiheadAttention, module printing, shape errors

SETUP_10 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
UNET = '''
def Normalize(c):
    return nn.GroupNorm(num_groups=2, num_channels=c, eps=1e-6, affine=True)
class Upsample(nn.Module):
    def __init__(self, c, with_conv=True):
        super().__init__(); self.with_conv = with_conv
        if with_conv: self.conv = nn.Conv2d(c, c, 3, 1, 1)
    def forward(self, x):
        x = F.interpolate(x, scale_factor=2.0, mode="nearest")
        return self.conv(x) if self.with_conv else x
class Downsample(nn.Module):
    def __init__(self, c):
        super().__init__(); self.conv = nn.Conv2d(c, c, 3, 2, 0)
    def forward(self, x):
        x = F.pad(x, (0, 1, 0, 1), mode="constant", value=0)
        return self.conv(x)
class ResnetBlock(nn.Module):
    def __init__(self, cin, cout=None, temb_channels=8, dropout=0.0):
        super().__init__()
        cout = cin if cout is None else cout
        self.norm1 = Normalize(cin); self.conv1 = nn.Conv2d(cin, cout, 3, 1, 1)
        self.temb_proj = nn.Linear(temb_channels, cout)
        self.norm2 = Normalize(cout); self.dropout = nn.Dropout(dropout); self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1)
        self.nin_shortcut = nn.Conv2d(cin, cout, 1) if cin != cout else None
    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(self.dropout(F.silu(self.norm2(h))))
        if self.nin_shortcut is not None: x = self.nin_shortcut(x)
        return x + h
class AttnBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.norm = Normalize(c)
        self.q = nn.Conv2d(c, c, 1); self.k = nn.Conv2d(c, c, 1); self.v = nn.Conv2d(c, c, 1); self.proj_out = nn.Conv2d(c, c, 1)
    def forward(self, x):
        h_ = self.norm(x)
        q, k, v = self.q(h_), self.k(h_), self.v(h_)
        b, c, h, w = q.shape
        q = q.reshape(b, c, h * w).permute(0, 2, 1)
        k = k.reshape(b, c, h * w)
        w_ = torch.bmm(q, k) * (int(c) ** (-0.5))
        w_ = F.softmax(w_, dim=2)
        v = v.reshape(b, c, h * w)
        h_ = torch.bmm(v, w_.permute(0, 2, 1)).reshape(b, c, h, w)
        return x + self.proj_out(h_)
'''
_S10 = [
    UNET + 'm = ResnetBlock(4, 6); print(m); x = torch.randn(2, 4, 5, 5); t = torch.randn(2, 8); y = m(x, t); print(y.shape, y.grad_fn.name(), round(y.mean().item(), 4))',
    UNET + 'm = AttnBlock(4); x = torch.randn(2, 4, 3, 3); y = m(x); print(y.shape, round(y.std().item(), 4)); y.sum().backward(); print(m.q.weight.grad.shape)',
    UNET + 'u = Upsample(4); d = Downsample(4); x = torch.randn(1, 4, 6, 6); print(u(x).shape, d(x).shape, d(u(x)).shape)',
    UNET + 'u = Upsample(4, False); print(u, list(u.children())); print(u(torch.arange(4.).reshape(1, 1, 2, 2) * torch.ones(1, 4, 1, 1))[0, 0])',
    UNET + 'm = nn.ModuleList([ResnetBlock(4), AttnBlock(4), Downsample(4)]); print(sum(p.numel() for p in m.parameters())); print([type(x).__name__ for x in m])',
    UNET + 'm = AttnBlock(4); x = torch.randn(1, 4, 2, 2)\nwith torch.autocast("cpu", dtype=torch.bfloat16):\n    y = m(x)\nprint(y.dtype)',
    'ct = nn.ConvTranspose2d(4, 2, kernel_size=4, stride=2, padding=1); print(ct); x = torch.randn(1, 4, 3, 3); print(ct(x).shape, ct.weight.shape)',
    'ct = nn.ConvTranspose2d(2, 2, 3, stride=2, padding=1, output_padding=1); print(ct(torch.randn(1, 2, 4, 4)).shape)\ntry:\n    nn.ConvTranspose2d(2, 2, 3, stride=1, output_padding=1)(torch.randn(1, 2, 4, 4))' + E,
    'layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu"); print(layer)',
    'layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True); enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False); x = torch.randn(2, 5, 8); m = nn.Transformer.generate_square_subsequent_mask(5); print(m); y = enc(x, mask=m, is_causal=True); print(y.shape, round(y.sum().item(), 3))',
    'layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True); enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False); print(sum(p.numel() for p in enc.parameters()), list(enc.state_dict())[:8])',
    'print(nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.bfloat16))',
    'mha = nn.MultiheadAttention(8, 2, batch_first=True); x = torch.randn(2, 4, 8); o, w = mha(x, x, x); print(o.shape, w.shape, w.sum(-1)[0]); o, w = mha(x, x, x, average_attn_weights=False); print(w.shape)',
    'mha = nn.MultiheadAttention(8, 2, batch_first=True); x = torch.randn(2, 4, 8); kpm = torch.tensor([[False, False, True, True], [False] * 4]); o, w = mha(x, x, x, key_padding_mask=kpm); print(w[0].round(decimals=3))',
    'mha = nn.MultiheadAttention(8, 2, kdim=4, vdim=6); print(mha); print([n for n, _ in mha.named_parameters()])',
    'mha = nn.MultiheadAttention(8, 2, bias=False, add_bias_kv=True); print([n for n, _ in mha.named_parameters()], mha.bias_k.shape)',
    'try:\n    nn.MultiheadAttention(8, 3)' + E,
    'mha = nn.MultiheadAttention(8, 2); x = torch.randn(4, 8)\no, w = mha(x, x, x); print(o.shape, w.shape)',
    'print(nn.Flatten(), nn.Unflatten(1, (2, 3)), nn.Unflatten(1, (2, 3))(torch.ones(4, 6)).shape, nn.Flatten(0)(torch.ones(2, 3)).shape)',
    'm = nn.ModuleDict({"b": nn.Linear(1, 1), "a": nn.ReLU()}); print(m, list(m.keys())); m.update({"c": nn.Tanh()}); print(len(m), "c" in m)',
    'p = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3, 2))]); print(p); print([n for n, _ in p.named_parameters()])',
    'p = nn.ParameterDict({"scale": nn.Parameter(torch.ones(2))}); print(p); p["bias"] = torch.zeros(1); print(type(p["bias"]).__name__, list(p.keys()))',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__(); self.w = nn.Parameter(torch.ones(2)); self.k = 3\n    def extra_repr(self):\n        return f"k={self.k}"\nm = nn.Sequential(M(), nn.Sequential()); print(m)',
    'm = nn.Sequential(nn.Identity(54, unused="x"), nn.Dropout(0.1), nn.Dropout2d(0.2), nn.AlphaDropout(0.0), nn.Softmax(dim=-1), nn.LogSoftmax(1), nn.Hardswish(), nn.Mish(), nn.PReLU(3)); print(m)',
    'm = nn.Sequential(nn.Conv1d(2, 4, 3, padding="same", padding_mode="reflect", dilation=2), nn.Conv2d(1, 1, (3, 5), stride=(1, 2), groups=1, bias=False), nn.Conv3d(1, 2, 1), nn.MaxPool1d(2), nn.AvgPool2d(3, ceil_mode=True, count_include_pad=False), nn.AdaptiveAvgPool1d(4)); print(m)',
    'try:\n    nn.Conv2d(2, 4, 3, stride=2, padding="same")' + E,
    'try:\n    nn.Conv2d(3, 4, 3, groups=2)' + E,
    'c = nn.Conv2d(2, 4, 3)\ntry:\n    c(torch.randn(1, 3, 5, 5))' + E,
    'c = nn.Linear(2, 4)\ntry:\n    c(torch.randn(1, 3))' + E,
    'c = nn.Linear(2, 4)\ntry:\n    c(torch.randn(1, 2, dtype=torch.float64))' + E,
    'c = nn.Conv2d(2, 4, 3)\ntry:\n    c(torch.randn(1, 2, 2, 2))' + E,
]


# -- data loading, devices, generators, LR schedules, AdamW configuration, zero_grad, dropout -----

SETUP_11 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S11 = [
    'data = np.arange(100, dtype=np.uint16); ix = torch.randint(len(data) - 8, (4,)); x = torch.stack([torch.from_numpy((data[i:i + 8]).astype(np.int64)) for i in ix]); y = torch.stack([torch.from_numpy((data[i + 1:i + 9]).astype(np.int64)) for i in ix]); print(ix, x.dtype, x.shape, y[0])',
    'x = torch.from_numpy(np.arange(4, dtype=np.uint16)); print(x.dtype, x + 1, x.long().dtype)',
    'x = torch.arange(4); print(x.to("cpu", non_blocking=True).device, x.pin_memory().is_pinned() if torch.cuda.is_available() else "nocuda")',
    'x = torch.arange(4.); print(x.type_as(torch.zeros(1, dtype=torch.int32)), x.type(torch.int64).dtype, x.type())',
    'print(torch.cuda.is_available(), torch.device("cpu"), torch.device("cuda", 0), torch.device("cuda:1").index, str(torch.device("cpu")))',
    'g = torch.manual_seed(3); print(type(g).__name__, g.initial_seed(), torch.initial_seed())',
    'g = torch.Generator(); g.manual_seed(1); a = torch.randn(2, generator=g); g.manual_seed(1); print(torch.equal(a, torch.randn(2, generator=g)), torch.randint(0, 10, (3,), generator=g))',
    'lr = 6e-4; warmup = 3; max_iters = 10; min_lr = 6e-5\ndef get_lr(it):\n    if it < warmup: return lr * (it + 1) / (warmup + 1)\n    if it > max_iters: return min_lr\n    r = (it - warmup) / (max_iters - warmup); c = 0.5 * (1.0 + math.cos(math.pi * r)); return min_lr + c * (lr - min_lr)\nm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=lr)\nfor it in range(5):\n    for g in o.param_groups: g["lr"] = get_lr(it)\n    print(round(o.param_groups[0]["lr"], 8))',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=1.0); s = torch.optim.lr_scheduler.LambdaLR(o, lambda step: min(1.0, (step + 1) / 3))\nfor _ in range(4):\n    o.step(); s.step(); print(s.get_last_lr())',
    'm = nn.Linear(2, 2); o = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9); s = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01)\nfor _ in range(5):\n    o.step(); s.step(); print(round(s.get_last_lr()[0], 6))',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=0.1); s = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=6)\nfor _ in range(5):\n    o.step(); s.step(); print(round(s.get_last_lr()[0], 6), round(o.param_groups[0]["betas"][0], 4))',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=0.1); w = torch.optim.lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=2); c = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=3); s = torch.optim.lr_scheduler.SequentialLR(o, [w, c], milestones=[2])\nfor _ in range(5):\n    o.step(); s.step(); print(round(s.get_last_lr()[0], 6))',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=1e-3, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1); print(o)',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW([{"params": [m.weight], "weight_decay": 0.1}, {"params": [m.bias], "weight_decay": 0.0}], lr=1e-3, fused=None); print([g["weight_decay"] for g in o.param_groups], sorted(o.param_groups[0].keys()))',
    'm = nn.Linear(2, 2); print(torch.optim.AdamW(m.parameters(), lr=1e-3, foreach=True).defaults["foreach"])\ntry:\n    torch.optim.AdamW(m.parameters(), lr=1e-3, fused=True)' + E,
    'm = nn.Linear(2, 2)\ntry:\n    torch.optim.AdamW([{"params": [m.weight]}, {"params": [m.weight]}])' + E,
    'm = nn.Linear(2, 2)\ntry:\n    torch.optim.AdamW(m.parameters(), lr=-1)' + E,
    'm = nn.Linear(2, 2)\ntry:\n    torch.optim.AdamW(m.parameters(), betas=(1.0, 0.9))' + E,
    'try:\n    torch.optim.AdamW([], lr=1e-3)' + E,
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters()); m(torch.randn(3, 2)).sum().backward(); o.zero_grad(set_to_none=True); print(m.weight.grad); m(torch.randn(3, 2)).sum().backward(); o.zero_grad(set_to_none=False); print(m.weight.grad)',
    'm = nn.Linear(2, 2); m(torch.randn(3, 2)).sum().backward(); m.zero_grad(); print(m.weight.grad, m.bias.grad)',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=0.1); m(torch.randn(3, 2)).sum().backward(); o.step(); sd = o.state_dict(); print(list(sd), sd["param_groups"][0]["params"], sorted(sd["state"][0]), sd["state"][0]["step"])',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=0.1); m(torch.randn(3, 2)).sum().backward(); o.step(); o2 = torch.optim.AdamW(m.parameters(), lr=0.5); o2.load_state_dict(o.state_dict()); print(o2.param_groups[0]["lr"], o2.state[m.weight]["exp_avg"].shape)',
    'm = nn.Linear(2, 2); m(torch.randn(3, 2)).sum().backward(); n = torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0); print(n, type(n).__name__, n.requires_grad, round(torch.cat([p.grad.view(-1) for p in m.parameters()]).norm().item(), 4))',
    'm = nn.Linear(2, 2); m(torch.randn(3, 2)).sum().backward(); print(torch.nn.utils.clip_grad_norm_(m.parameters(), float("inf")))',
    'x = torch.randn(2, 3); print(F.softmax(x, dim=-1, dtype=torch.float64).dtype, x.softmax(-1, dtype=torch.float64).dtype, F.log_softmax(x.bfloat16(), -1, dtype=torch.float32).dtype)',
    'x = torch.randn(2, 3).half(); print(F.softmax(x.float(), dim=-1).to(x.dtype).dtype, nn.LayerNorm(3).half()(x).dtype)',
    'x = torch.randn(2, 3); print(F.dropout(x, 0.5, training=False) is x, torch.equal(F.dropout(x, 0.0, training=True), x), F.dropout(x, 1.0, training=True))',
    'x = torch.ones(2, 4); y = F.dropout(x, 0.5, training=True); print(y, y.grad_fn)',
    'x = torch.ones(2, 4)\ntry:\n    F.dropout(x, 1.5)' + E,
    'x = torch.randn(2, 3); d = nn.Dropout(0.2); d.eval(); print(torch.equal(d(x), x), d, nn.Dropout(p=0.1, inplace=True))',
    'W = torch.randn(5, 3); ids = torch.tensor([[0, 4], [2, 2]]); print(F.embedding(ids, W).shape, torch.equal(F.embedding(ids, W)[1, 0], W[2]))',
    'W = torch.randn(5, 3, requires_grad=True); ids = torch.tensor([0, 2, 2]); F.embedding(ids, W).sum().backward(); print(W.grad[:, 0])',
    'x = torch.randn(4, 6); w1, w3, w2 = nn.Linear(6, 8, bias=False), nn.Linear(6, 8, bias=False), nn.Linear(8, 6, bias=False); y = w2(F.silu(w1(x)) * w3(x)); print(y.shape, y.grad_fn.name())',
    'dim = 10; hidden_dim = 4 * dim; hidden_dim = int(2 * hidden_dim / 3); multiple_of = 8; hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of); print(hidden_dim)',
    'x = torch.randn(2, 3, 4); print(x.float().pow(2).mean(-1, keepdim=True).shape, torch.rsqrt(torch.tensor([4.0, 0.0])), x.new_ones(1).rsqrt())',
    'x = torch.tensor([[1, 2, 0, 0]]); pad_id = 0; mask = (x != pad_id).long(); print(mask, mask.sum(-1), (x == pad_id).nonzero(), torch.nonzero(x, as_tuple=True))',
    'x = torch.tensor([3, 1, 2]); print(x.sort(descending=True), x.argsort(), torch.sort(x, stable=True).indices)',
]


# -- HF-style Conv1D, GELU variants, head splitting, extended masks, hooks, tied embeddings -------

SETUP_12 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
CONV1D = '''
class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)
    def __repr__(self):
        return "Conv1D(nf={nf}, nx={nx})".format(**self.__dict__) if False else f"Conv1D(nf={self.nf}, nx={self.weight.shape[0]})"
    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)
'''
_S12 = [
    CONV1D + 'c = Conv1D(6, 4); x = torch.randn(2, 3, 4); y = c(x); print(y.shape, y.grad_fn.name(), x.size()[:-1] + (6,), type(x.size()[:-1] + (6,)).__name__); print(nn.Sequential(c))',
    CONV1D + 'c = Conv1D(6, 4); x = torch.randn(2, 3, 4).transpose(0, 1)\ntry:\n    c(x)' + E,
    'def gelu_new(x):\n    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))\nx = torch.randn(10); print(torch.allclose(gelu_new(x), F.gelu(x, approximate="tanh"), atol=1e-6), gelu_new(x)[:3])',
    'def quick_gelu(x):\n    return x * torch.sigmoid(1.702 * x)\nprint(quick_gelu(torch.tensor([-1., 0., 1.])))',
    'x = torch.randn(2, 4, 6); B, T, C = x.shape; h = x.view(B, T, 2, 3).permute(0, 2, 1, 3); print(h.shape, h.stride(), h.is_contiguous()); m = h.permute(0, 2, 1, 3).contiguous(); print(m.view(B, T, C).equal(x), m.stride())',
    'x = torch.randn(2, 4, 6); h = x.view(2, 4, 2, 3).permute(0, 2, 1, 3)\ntry:\n    h.view(2, 2, 12)' + E,
    'x = torch.randn(2, 4, 6); h = x.view(2, 4, 2, 3).transpose(1, 2)\ntry:\n    h.transpose(1, 2).view(2, 4, 6)' + E,
    'am = torch.tensor([[1, 1, 0]]); ext = am[:, None, None, :]; ext = ext.to(dtype=torch.float16); ext = (1.0 - ext) * torch.finfo(torch.float16).min; print(ext, ext.dtype)',
    'am = torch.tensor([[1., 1., 0.]]); ext = (1.0 - am[:, None, None, :]) * -10000.0; s = torch.randn(1, 1, 2, 3) + ext; print(F.softmax(s, -1).round(decimals=4))',
    'x = torch.full((2,), torch.finfo(torch.float16).min, dtype=torch.float16); print(x * 2, x + x, x - 1, (x.float() * 2).to(torch.float16))',
    'x = torch.full((2,), torch.finfo(torch.bfloat16).min, dtype=torch.bfloat16); print(x, x + x, x.float())',
    'mn = torch.finfo(torch.float32).min; s = torch.tensor([[0., mn, mn], [0., 0., mn]]); print(F.softmax(s + mn, -1))',
    'x = torch.tensor([1e30, -1e30]).half(); print(x, torch.clamp(torch.tensor([70000., -70000.]), min=torch.finfo(torch.float16).min, max=torch.finfo(torch.float16).max).half())',
    'x = torch.randn(2, 3); print(torch.isinf(x.masked_fill(x > 0, float("-inf"))).sum(), torch.isfinite(torch.tensor([1., float("inf"), float("nan")])), torch.nan_to_num(torch.tensor([float("nan"), float("-inf")])))',
    'x = torch.randn(1, 3, 4); y = torch.baddbmm(torch.zeros(1, 3, 3), x, x.transpose(1, 2), beta=0, alpha=0.5); print(torch.allclose(y, 0.5 * x @ x.transpose(1, 2)), y.shape)',
    'x = torch.randn(2, 3); b = torch.randn(4); w = torch.randn(3, 4); print(torch.allclose(torch.addmm(b, x, w), x @ w + b), torch.addmm(b, x, w, beta=2, alpha=0.5).shape)',
    'try:\n    torch.addmm(torch.randn(4), torch.randn(2, 3), torch.randn(2, 4))' + E,
    'print(torch.Size([2, 3]) + (4,), torch.Size([2, 3])[-1:], torch.Size([2, 3]).numel(), torch.Size([2, 3]) == (2, 3), list(torch.Size([1])))',
    'x = torch.randn(2, 3); print(x.size(), x.size(-1), x.shape[0], len(x), x.dim(), x.ndim, x.numel(), x.nelement(), x.element_size())',
    'try:\n    torch.randn(2, 3).size(2)' + E,
    'x = torch.randn(3, 4); print(F.normalize(x, dim=-1).norm(dim=-1).round(decimals=4), F.normalize(torch.zeros(2, 2), dim=0))',
    'x = torch.randn(3, 4); s, m = torch.std_mean(x, dim=-1, keepdim=True); print(s.shape, torch.var_mean(x, unbiased=False)[0].round(decimals=4), x.std(correction=0).round(decimals=4))',
    'class Out(dict):\n    pass\nclass M(nn.Module):\n    def forward(self, x, attention_mask=None, output_attentions=False):\n        return {"last_hidden_state": x, "attentions": None if not output_attentions else (x,)}\nm = M(); o = m(torch.ones(1), output_attentions=True); print(o["attentions"], m(x=torch.zeros(1))["last_hidden_state"])',
    'def hook(mod, args, kwargs):\n    kwargs["scale"] = 2.0\n    return args, kwargs\nclass M(nn.Module):\n    def forward(self, x, scale=1.0):\n        return x * scale\nm = M(); h = m.register_forward_pre_hook(hook, with_kwargs=True); print(m(torch.ones(2))); h.remove(); print(m(torch.ones(2)))',
    'def hook(mod, args, kwargs, out):\n    return out + kwargs.get("b", 0)\nm = nn.Identity(); m.register_forward_hook(hook, with_kwargs=True); print(m(torch.ones(2)))',
    'acts = {}\ndef save(name):\n    def hook(m, i, o): acts[name] = o.detach()\n    return hook\nnet = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))\nfor n, mod in net.named_modules():\n    if isinstance(mod, nn.Linear): mod.register_forward_hook(save(n))\nnet(torch.randn(4, 2)); print(sorted(acts), acts["0"].shape, acts["2"].requires_grad)',
    'm = nn.Linear(2, 2); m.register_full_backward_hook(lambda mod, gi, go: print("bw", [g.shape if g is not None else None for g in gi], go[0].shape)); x = torch.randn(3, 2, requires_grad=True); m(x).sum().backward()',
    'm = nn.Linear(2, 2); h = m.weight.register_hook(lambda g: g * 0); m(torch.randn(3, 2)).sum().backward(); print(m.weight.grad); h.remove()',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__(); self.emb = nn.Embedding(5, 2); self.head = nn.Linear(2, 5, bias=False); self.head.weight = self.emb.weight\n    def get_input_embeddings(self): return self.emb\n    def get_output_embeddings(self): return self.head\nm = M(); print(m.get_output_embeddings().weight is m.get_input_embeddings().weight); print([n for n, _ in m.named_parameters()], list(m.state_dict()))',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__(); self.emb = nn.Embedding(5, 2); self.head = nn.Linear(2, 5, bias=False); self.head.weight = self.emb.weight\nm = M(); sd = m.state_dict(); m2 = M(); m2.head.weight = nn.Parameter(torch.zeros(5, 2)); r = m2.load_state_dict({"emb.weight": sd["emb.weight"]}, strict=False); print(r, torch.equal(m2.emb.weight, sd["emb.weight"]), m2.head.weight.sum())',
    'e = nn.Embedding(5, 2); new = nn.Embedding(7, 2); new.weight.data[:5] = e.weight.data; print(new.weight.shape, torch.equal(new.weight[:5], e.weight))',
    'e = nn.Embedding(5, 2); print(e.weight.data.requires_grad, e.weight.data.grad_fn, type(e.weight.data).__name__, e.weight.data.data_ptr() == e.weight.data_ptr())',
    'm = nn.Linear(2, 2); print(m.weight.data.normal_(mean=0.0, std=0.02) is not None, m.bias.data.zero_(), m.weight.requires_grad)',
    'm = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2)); m[1].weight = m[0].weight; print(len(list(m.parameters())), len(list(m.named_parameters(remove_duplicate=False))), len(m.state_dict()), sum(p.numel() for p in m.parameters()))',
    'm = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2)); m[1].weight = m[0].weight; o = torch.optim.SGD(m.parameters(), lr=0.1); print(len(o.param_groups[0]["params"]))',
    'm = nn.Linear(2, 2); p = list(m.parameters())\ntry:\n    torch.optim.SGD(p + p, lr=0.1)' + E,
]


# -- devices as contexts, default dtype, split/chunk, SDPA masks and backends, checkpoint options

SETUP_13 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S13 = [
    'm = nn.Linear(2, 3, device="meta"); print(m.weight.device, m.weight.shape, m.weight.is_meta, m); m2 = m.to_empty(device="cpu"); print(m2.weight.device, m2 is m)',
    'x = torch.empty(2, 3, device="meta"); print(x, (x + 1).device, x.sum().shape)',
    'with torch.device("meta"):\n    m = nn.Linear(4, 4)\nprint(m.weight.device, sum(p.numel() for p in m.parameters()))',
    'with torch.device("cpu"):\n    x = torch.ones(2)\nprint(x.device, torch.get_default_device())',
    'torch.set_default_dtype(torch.float64); m = nn.Linear(2, 2); print(m.weight.dtype, torch.tensor([1.0]).dtype, torch.arange(2.).dtype); torch.set_default_dtype(torch.float32)',
    'try:\n    torch.set_default_dtype(torch.int64)' + E,
    'torch.set_default_dtype(torch.bfloat16) if False else None; print(torch.get_default_dtype())',
    'x = torch.ones(2, 3, 4); print(x.unflatten(-1, (2, 2)).shape, x.flatten(1).shape, x.flatten(0, 1).shape, x.flatten(-2, -1).shape)',
    'x = torch.ones(2, 12); q, k, v = x.chunk(3, dim=-1); print(q.shape, q.is_contiguous(), q.stride()); a, b = x.split([5, 7], dim=1); print(a.shape, b.shape); print([t.shape for t in x.split(5, dim=1)])',
    'x = torch.ones(2, 12)\ntry:\n    x.split([5, 6], dim=1)' + E,
    'x = torch.ones(2, 7); print([c.shape for c in x.chunk(3, 1)], [c.shape for c in torch.tensor_split(x, 3, dim=1)])',
    'q = torch.randn(2, 2, 3, 4); m = torch.tensor([[True, True, False], [True, True, True]])[:, None, None, :]; y = F.scaled_dot_product_attention(q, q, q, attn_mask=m); print(y.shape, y[0, 0].round(decimals=4))',
    'q = torch.randn(2, 2, 3, 4); m = torch.zeros(2, 1, 1, 3); m[0, ..., 2] = float("-inf"); y = F.scaled_dot_product_attention(q, q, q, attn_mask=m); print(y[0, 1, 0].round(decimals=4))',
    'q = torch.randn(2, 2, 3, 4); m = torch.ones(2, 3, 1, 3, dtype=torch.bool)\ntry:\n    F.scaled_dot_product_attention(q, q, q, attn_mask=m)' + E,
    'from_ = torch.nn.attention\nwith from_.sdpa_kernel(from_.SDPBackend.MATH):\n    q = torch.randn(1, 1, 2, 4); print(F.scaled_dot_product_attention(q, q, q).shape)\nprint(from_.SDPBackend.MATH, from_.SDPBackend.FLASH_ATTENTION)',
    'print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.mem_efficient_sdp_enabled(), torch.backends.cuda.cudnn_sdp_enabled())',
    'with torch.backends.cuda.sdp_kernel(enable_flash=False, enable_math=True, enable_mem_efficient=False):\n    print(torch.backends.cuda.flash_sdp_enabled())\nprint(torch.backends.cuda.flash_sdp_enabled())',
    'q = torch.randn(1, 3, 4); k = torch.randn(1, 5, 4); v = torch.randn(1, 5, 6); print(F.scaled_dot_product_attention(q, k, v).shape)',
    'q = torch.randn(1, 3, 4); k = torch.randn(1, 5, 3)\ntry:\n    F.scaled_dot_product_attention(q, k, k)' + E,
    'q = torch.randn(1, 3, 4)\ntry:\n    F.scaled_dot_product_attention(q, q.double(), q)' + E,
    'q = torch.randn(1, 2, 3, 4); y = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5); print(y.shape, y.dtype)',
    'x = torch.randn(3, 2, 8); mha = nn.MultiheadAttention(8, 2); out, w = F.multi_head_attention_forward(x, x, x, 8, 2, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0, mha.out_proj.weight, mha.out_proj.bias, training=False); print(out.shape, w.shape, torch.allclose(out, mha(x, x, x)[0], atol=1e-6))',
    'x = torch.randn(2, 3); torch.testing.assert_close(x, x.clone()); print("ok")\ntry:\n    torch.testing.assert_close(x, x + 1)\nexcept AssertionError as e: print(str(e).splitlines()[0])',
    'try:\n    torch.testing.assert_close(torch.ones(2), torch.ones(2).double())\nexcept AssertionError as e: print(str(e).splitlines()[0])',
    'try:\n    torch.testing.assert_close(torch.ones(2), torch.ones(3))\nexcept AssertionError as e: print(str(e).splitlines()[0])',
    'p = nn.Parameter(torch.ones(2)); calls = []; p.register_post_accumulate_grad_hook(lambda t: calls.append(t.grad.clone())); (p * 3).sum().backward(); print(calls)',
    'x = torch.randn(4, 2, requires_grad=True); d = nn.Dropout(0.5)\ndef f(a): return d(a * 2)\ny = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False, preserve_rng_state=True); y.sum().backward(); print(torch.equal((y != 0).float() * 4, x.grad))',
    'x = torch.randn(4, 2, requires_grad=True)\ndef f(a, scale=1.0): return a * scale\ny = torch.utils.checkpoint.checkpoint(f, x, scale=3.0, use_reentrant=False); y.sum().backward(); print(x.grad[0])',
    'x = torch.randn(4, 2, requires_grad=True)\ntry:\n    torch.utils.checkpoint.checkpoint(lambda a, scale=1.0: a, x, scale=3.0, use_reentrant=True)' + E,
    'x = torch.randn(4, 2)\nwith torch.no_grad():\n    y = torch.utils.checkpoint.checkpoint(lambda a: a * 2, x, use_reentrant=False)\nprint(y.requires_grad, y.grad_fn)',
    'class Blk(nn.Module):\n    def __init__(self):\n        super().__init__(); self.l = nn.Linear(2, 2); self.gradient_checkpointing = True\n    def forward(self, x):\n        if self.gradient_checkpointing and self.training:\n            return torch.utils.checkpoint.checkpoint(self.l, x, use_reentrant=False)\n        return self.l(x)\nb = Blk(); x = torch.randn(3, 2, requires_grad=True); y = b(x); print(y.grad_fn is not None); y.sum().backward(); print(b.l.weight.grad.shape)',
]


# -- diffusion schedules, guidance, logits processors, beam-search index arithmetic ---------------

SETUP_14 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
DIFF = '''
T = 10
betas = torch.linspace(1e-4, 0.02, T, dtype=torch.float64)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
def extract(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))
'''
_S14 = [
    DIFF + 'print(betas.dtype, alphas_cumprod[-3:], alphas_cumprod_prev[:3])',
    DIFF + 't = torch.tensor([0, 5, 9]); x = torch.randn(3, 2, 4, 4); e = extract(alphas_cumprod.float(), t, x.shape); print(e.shape, e.flatten())',
    DIFF + 'x0 = torch.randn(2, 1, 2, 2); t = torch.randint(0, T, (2,), device=x0.device).long(); noise = torch.randn_like(x0); xt = extract(alphas_cumprod.sqrt().float(), t, x0.shape) * x0 + extract((1 - alphas_cumprod).sqrt().float(), t, x0.shape) * noise; print(t, xt.round(decimals=4).flatten())',
    DIFF + 'print(torch.sqrt(1.0 / alphas_cumprod)[:2], (betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod))[:3], torch.log(torch.clamp(betas, min=1e-20))[:2])',
    'def cosine_beta_schedule(timesteps, s=0.008):\n    steps = timesteps + 1\n    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)\n    ac = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2\n    ac = ac / ac[0]\n    b = 1 - (ac[1:] / ac[:-1])\n    return torch.clip(b, 0, 0.999)\nprint(cosine_beta_schedule(5))',
    'x = torch.randn(2, 3); u, c = torch.cat([x] * 2).chunk(2); g = 7.5; out = u + g * (c - u); print(out.shape, torch.equal(u, c))',
    'x = torch.randn(4); print(x.clamp(-1, 1), torch.clamp(x, min=-0.5), x.clamp_(max=0.5), x)',
    'x = torch.randn(4)\ntry:\n    torch.clamp(x)' + E,
    'x = torch.randn(2, 8, 3, 3); print(F.adaptive_avg_pool2d(x, 1).flatten(1).shape, torch.allclose(x.mean((-2, -1)), F.adaptive_avg_pool2d(x, 1).flatten(1), atol=1e-6), x.mean(dim=[2, 3], keepdim=True).shape)',
    'scores = torch.tensor([[1.0, -2.0, 3.0, 0.5]]); ids = torch.tensor([[0, 1]]); s = torch.gather(scores, 1, ids); s = torch.where(s < 0, s * 1.2, s / 1.2); print(scores.scatter(1, ids, s), scores.scatter_(1, ids, s) is scores)',
    'scores = torch.randn(2, 3, 5); flat = scores.view(2, -1); v, i = torch.topk(flat, 4, dim=1); print(torch.div(i, 5, rounding_mode="floor"), i % 5, torch.div(i, 5, rounding_mode="trunc").dtype, i // 5)',
    'print(torch.div(torch.tensor([-7, 7]), 2, rounding_mode="floor"), torch.div(torch.tensor([-7, 7]), 2), torch.tensor([-7, 7]) // 2, torch.tensor([-7., 7.]) // 2, torch.tensor([-7, 7]) % 3, torch.fmod(torch.tensor([-7, 7]), 3))',
    'try:\n    torch.div(torch.tensor([1]), 2, rounding_mode="round")' + E,
    'x = torch.randn(2, 5); print(torch.logsumexp(x, dim=-1).round(decimals=4), torch.log_softmax(x, -1).exp().sum(-1).round(decimals=4), x.log_softmax(dim=1).shape)',
    'x = torch.randn(2, 5); p = F.softmax(x, -1); min_p = 0.2; top = p.max(-1, keepdim=True).values; rm = p < min_p * top; print(x.masked_fill(rm, -float("inf")).round(decimals=3))',
    'd = torch.distributions.Categorical(logits=torch.tensor([[0., 1., 2.]])); print(d.sample(), d.sample((3,)).shape, d.log_prob(torch.tensor([2])).round(decimals=4), d.entropy().round(decimals=4), d.probs.round(decimals=4))',
    # (validate_args given: once torch.compile has run, torch turns the default off for the
    # process, and other oracle files compile)
    'try:\n    torch.distributions.Categorical(probs=torch.tensor([0.5, -0.5]), validate_args=True)' + E,
    'x = torch.randn(2, 3); print(torch.full_like(x, 7).dtype, torch.full_like(x, 7, dtype=torch.long), x.new(2).shape, x.new([1, 2]).dtype)',
    'logits = torch.tensor([[2., 1., 0.]]); t = 0.0\ntry:\n    print(logits / t, F.softmax(logits / t, -1))' + E,
    'x = torch.randn(1, 5); print(torch.argmax(x, -1, keepdim=True).shape, torch.max(x, dim=-1).indices.shape, x.topk(1).indices.squeeze(-1))',
    'ids = torch.tensor([[5, 6, 7, 0, 0]]); eos = 7; done = (ids == eos).any(dim=-1); print(done, ids.eq(eos).int().argmax(-1), (ids == eos).cumsum(-1).bool())',
    'unfinished = torch.ones(2, dtype=torch.long); nt = torch.tensor([3, 7]); nt = nt * unfinished + 0 * (1 - unfinished); unfinished = unfinished & (nt != 7); print(nt, unfinished, unfinished.max() == 0)',
    'x = torch.arange(10).view(2, 5); print(x[:, -1], x[:, [-1]], x[..., -1:], x[:, None].shape, x[None, :, None].shape)',
    'x = torch.arange(10).view(2, 5); x[x > 5] = -1; print(x); x[:, 0] = torch.tensor([9, 8]); print(x)',
    'x = torch.arange(10.).view(2, 5)\ntry:\n    x[:, 0] = torch.tensor([1., 2., 3.])' + E,
    'x = torch.zeros(2, 5); idx = torch.tensor([[1, 3], [0, 0]]); print(x.scatter_add(1, idx, torch.ones(2, 2)), x.scatter(1, idx, 1.0), torch.zeros(2, 5, dtype=torch.long).scatter_(1, idx, 2))',
    'x = torch.zeros(5); x.index_add_(0, torch.tensor([0, 0, 3]), torch.tensor([1., 2., 3.])); print(x, x.index_fill(0, torch.tensor([1]), -1.))',
]


# -- grad_fn names along library forward passes ---------------------------------------------------

SETUP_15 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nx = torch.randn(2, 4, 8, requires_grad=True)\n"
_S15 = [
    'q, k, v = nn.Linear(8, 24)(x).split(8, dim=2); print(q.grad_fn.name(), q.view(2, 4, 2, 4).transpose(1, 2).grad_fn.name())',
    'y = F.scaled_dot_product_attention(x[None], x[None], x[None], is_causal=True); print(y.grad_fn.name())',
    'y = F.scaled_dot_product_attention(x[None], x[None], x[None], attn_mask=torch.ones(4, 4, dtype=torch.bool)); print(y.grad_fn.name())',
    'print(nn.LayerNorm(8)(x).grad_fn.name(), nn.LayerNorm(8, bias=False)(x).grad_fn.name(), nn.RMSNorm(8)(x).grad_fn.name(), F.layer_norm(x, (8,)).grad_fn.name())',
    'print(nn.Embedding(5, 8)(torch.tensor([1, 2])).grad_fn.name(), F.cross_entropy(x.view(-1, 8), torch.zeros(8, dtype=torch.long)).grad_fn.name(), F.cross_entropy(x.view(-1, 8), torch.zeros(8, dtype=torch.long), ignore_index=-1, reduction="sum").grad_fn.name())',
    'print(F.gelu(x).grad_fn.name(), F.gelu(x, approximate="tanh").grad_fn.name(), F.silu(x).grad_fn.name(), F.relu(x).grad_fn.name(), F.softmax(x, -1).grad_fn.name(), F.log_softmax(x, -1).grad_fn.name())',
    'print(x.masked_fill(torch.ones(4, 8, dtype=torch.bool).tril(), 0.).grad_fn.name(), torch.where(x > 0, x, 0.).grad_fn.name(), torch.where(x > 0, x, x * 2).grad_fn.name())',
    'print(x.view(8, 8).grad_fn.name(), x.reshape(8, 8).grad_fn.name(), x.transpose(1, 2).reshape(2, 32).grad_fn.name(), x.contiguous().grad_fn, x.transpose(1, 2).contiguous().grad_fn.name(), x.flatten(0, 1).grad_fn.name())',
    'print(x.permute(2, 0, 1).grad_fn.name(), x.unbind(0)[0].grad_fn.name(), x[0].grad_fn.name(), x[:, 1:].grad_fn.name(), x[:, [0, 2]].grad_fn.name(), x[..., None].grad_fn.name())',
    'print(x.expand(3, 2, 4, 8).grad_fn.name() if False else x[None].expand(3, 2, 4, 8).grad_fn.name(), x.repeat(1, 2, 1).grad_fn.name(), x.repeat_interleave(2, dim=1).grad_fn.name(), torch.cat([x, x], 1).grad_fn.name(), torch.stack([x, x]).grad_fn.name())',
    'print((x @ x.transpose(1, 2)).grad_fn.name(), torch.bmm(x, x.transpose(1, 2)).grad_fn.name(), (x[0] @ x[0].T).grad_fn.name(), torch.einsum("bij,bkj->bik", x, x).grad_fn.name(), nn.Linear(8, 3)(x).grad_fn.name(), nn.Linear(8, 3)(x[0]).grad_fn.name(), nn.Linear(8, 3, bias=False)(x).grad_fn.name())',
    'print(x.pow(2).mean(-1, keepdim=True).grad_fn.name(), torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6).grad_fn.name(), x.float().grad_fn, x.to(torch.bfloat16).grad_fn.name(), x.type_as(torch.zeros(1).double()).grad_fn.name(), x.sum().grad_fn.name(), x.mean().grad_fn.name())',
    'c = torch.view_as_complex(x.reshape(2, 4, 4, 2)); print(c.grad_fn.name(), torch.view_as_real(c * 2).grad_fn.name(), torch.polar(x.abs(), x).grad_fn.name(), (c * c).grad_fn.name())',
    'print(x.chunk(2, -1)[0].grad_fn.name(), x.split([3, 5], -1)[1].grad_fn.name(), torch.tensor_split(x, 2, -1)[0].grad_fn.name(), x.narrow(2, 0, 3).grad_fn.name(), x.squeeze(0).grad_fn, x[None].squeeze(0).grad_fn.name(), x.unsqueeze(1).grad_fn.name())',
    'y = x.view(2, 4, 2, 4); print(nn.GroupNorm(2, 4)(y).grad_fn.name(), F.interpolate(y, scale_factor=2, mode="nearest").grad_fn.name(), F.interpolate(y, scale_factor=2, mode="bilinear").grad_fn.name(), nn.Conv2d(4, 4, 1)(y).grad_fn.name(), F.pad(y, (0, 1, 0, 1)).grad_fn.name(), F.avg_pool2d(y, 2).grad_fn.name(), F.adaptive_avg_pool2d(y, 1).grad_fn.name())',
    'y = x.view(2, 4, 2, 4); print(nn.BatchNorm2d(4)(y).grad_fn.name(), nn.BatchNorm2d(4).eval()(y).grad_fn.name(), F.dropout(y, 0.5).grad_fn.name(), F.dropout(y, 0.0).grad_fn.name(), nn.Dropout(0.1).eval()(y).grad_fn, y.lerp(torch.zeros_like(y), 0.3).grad_fn.name(), torch.tanh(y).grad_fn.name(), y.sigmoid().grad_fn.name())',
    'y = x.clone(); print(y.grad_fn.name(), y.detach().grad_fn, y.abs().grad_fn.name(), y.clamp(-1, 1).grad_fn.name(), y.clamp(min=0).grad_fn.name(), y.max(-1).values.grad_fn.name(), y.max().grad_fn.name(), y.amax(-1).grad_fn.name(), y.norm(dim=-1).grad_fn.name(), y.std(-1).grad_fn.name(), y.var().grad_fn.name())',
    'y = x * 1; y2 = y.masked_fill_(y > 0, 0); print(y2 is y, y.grad_fn.name()); z = x * 1; z.mul_(2); print(z.grad_fn.name()); w = x * 1; w[:, 0] = 0; print(w.grad_fn.name()); u = x * 1; u.add_(1).div_(2); print(u.grad_fn.name())',
    'print(F.normalize(x, dim=-1).grad_fn.name(), torch.cumsum(x, -1).grad_fn.name(), x.exp().grad_fn.name(), x.log_softmax(-1).gather(-1, torch.zeros(2, 4, 1, dtype=torch.long)).grad_fn.name(), x.topk(2).values.grad_fn.name(), x.sort(-1).values.grad_fn.name(), torch.outer(x[0, 0], x[0, 1]).grad_fn.name())',
    'print(F.mse_loss(x, torch.zeros_like(x)).grad_fn.name(), F.l1_loss(x, torch.zeros_like(x)).grad_fn.name(), F.binary_cross_entropy_with_logits(x, torch.zeros_like(x)).grad_fn.name(), F.smooth_l1_loss(x, torch.zeros_like(x)).grad_fn.name(), F.kl_div(x, x, reduction="batchmean", log_target=True).grad_fn.name(), F.nll_loss(x.view(-1, 8), torch.zeros(8, dtype=torch.long)).grad_fn.name())',
]


# -- Swin windows, unfold/fold, pixel shuffle, gradient penalty, grad modes, compile, checkpoints

SETUP_16 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
SWIN = '''
def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)
def window_reverse(windows, ws, H, W):
    B = int(windows.shape[0] / (H * W / ws / ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)
'''
_S16 = [
    SWIN + 'x = torch.arange(2 * 4 * 4 * 3.).view(2, 4, 4, 3); w = window_partition(x, 2); print(w.shape, w[1, :, :, 0]); print(torch.equal(window_reverse(w, 2, 4, 4), x))',
    SWIN + 'x = torch.randn(1, 4, 4, 2); s = torch.roll(x, shifts=(-1, -1), dims=(1, 2)); print(torch.equal(torch.roll(s, shifts=(1, 1), dims=(1, 2)), x), torch.roll(torch.arange(5), 2), torch.roll(torch.arange(6).view(2, 3), 1))',
    'ws = 2; ch = torch.arange(ws); cw = torch.arange(ws); coords = torch.stack(torch.meshgrid(ch, cw, indexing="ij")); cf = torch.flatten(coords, 1); rc = cf[:, :, None] - cf[:, None, :]; rc = rc.permute(1, 2, 0).contiguous(); rc[:, :, 0] += ws - 1; rc[:, :, 1] += ws - 1; rc[:, :, 0] *= 2 * ws - 1; idx = rc.sum(-1); print(idx)',
    'ws = 2; table = nn.Parameter(torch.zeros((2 * ws - 1) * (2 * ws - 1), 3)); nn.init.trunc_normal_(table, std=.02); idx = torch.randint(0, 9, (4, 4)); b = table[idx.view(-1)].view(4, 4, -1).permute(2, 0, 1).contiguous(); print(b.shape, b.grad_fn.name())',
    'print(torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")[0], torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")[1])',
    'print(torch.meshgrid(torch.arange(2), torch.arange(3))[0].shape)',
    SWIN + 'H = W = 4; ws = 2; shift = 1; img_mask = torch.zeros((1, H, W, 1)); cnt = 0\nfor h in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):\n    for w in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):\n        img_mask[:, h, w, :] = cnt; cnt += 1\nmw = window_partition(img_mask, ws).view(-1, ws * ws); am = mw.unsqueeze(1) - mw.unsqueeze(2); am = am.masked_fill(am != 0, float(-100.0)).masked_fill(am == 0, float(0.0)); print(am.shape, am[-1])',
    'x = torch.arange(16.).view(1, 1, 4, 4); p = F.unfold(x, kernel_size=2, stride=2); print(p.shape, p[0, :, 0]); print(F.fold(p, (4, 4), kernel_size=2, stride=2).equal(x))',
    'x = torch.arange(8.); print(x.unfold(0, 3, 2), x.unfold(0, 3, 2).stride())',
    'x = torch.arange(16.).view(1, 4, 2, 2); ps = nn.PixelShuffle(2); y = ps(x); print(y.shape, y[0, 0], nn.PixelUnshuffle(2)(y).equal(x), ps)',
    'try:\n    nn.PixelShuffle(2)(torch.zeros(1, 3, 2, 2))' + E,
    'theta = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]]); g = F.affine_grid(theta, (1, 1, 2, 2), align_corners=False); print(g); x = torch.arange(4.).view(1, 1, 2, 2); print(F.grid_sample(x, g, align_corners=False))',
    'x = torch.randn(4, 3, requires_grad=True); D = nn.Sequential(nn.Linear(3, 1)); d = D(x); g = torch.autograd.grad(outputs=d, inputs=x, grad_outputs=torch.ones_like(d), create_graph=True, retain_graph=True, only_inputs=True)[0]; gp = ((g.norm(2, dim=1) - 1) ** 2).mean(); gp.backward(); print(g.shape, g.requires_grad, round(gp.item(), 4), D[0].weight.grad.shape)',
    'x = torch.randn(3, requires_grad=True)\ntry:\n    torch.autograd.grad((x * 2).sum(), [x, torch.ones(1, requires_grad=True)])' + E,
    'x = torch.randn(3, requires_grad=True); print(torch.autograd.grad((x * 2).sum(), [x, torch.ones(1, requires_grad=True)], allow_unused=True)[1], torch.autograd.grad((x * 2).sum(), [x, torch.ones(1, requires_grad=True)], allow_unused=True, materialize_grads=True)[1])',
    '@torch.no_grad()\ndef f(x):\n    return x * 2\n@torch.inference_mode()\ndef g(x):\n    return x * 2\nx = torch.ones(1, requires_grad=True); print(f(x).requires_grad, g(x).requires_grad, g(x).is_inference(), torch.is_grad_enabled())',
    'x = torch.ones(1, requires_grad=True)\nwith torch.no_grad():\n    with torch.enable_grad():\n        y = x * 2\n    z = x * 2\nprint(y.requires_grad, z.requires_grad); torch.set_grad_enabled(False); print(torch.is_grad_enabled(), (x * 2).requires_grad); torch.set_grad_enabled(True)',
    'x = torch.ones(1, requires_grad=True)\nwith torch.inference_mode():\n    y = x * 2\ntry:\n    (y * x).sum().backward()' + E,
    'x = torch.ones(2)\nwith torch.inference_mode():\n    y = torch.ones(2)\ntry:\n    y.add_(1)' + E,
    'x = torch.ones(2, requires_grad=True)\nwith torch.set_grad_enabled(False):\n    y = x * 2\nprint(y.requires_grad)',
    'm = nn.Linear(2, 2); c = torch.compile(m); sd = c.state_dict(); print(list(sd)); unwanted = "_orig_mod."; sd = {k[len(unwanted):] if k.startswith(unwanted) else k: v for k, v in sd.items()}; print(m.load_state_dict(sd))',
    'm = nn.Linear(2, 2); c = torch.compile(m, mode="max-autotune"); print(type(c).__name__, c(torch.ones(1, 2)).shape, c._orig_mod is m)',
    'try:\n    torch.compile(nn.Linear(2, 2), mode="fastest")' + E,
    'import io\nm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters()); m(torch.ones(1, 2)).sum().backward(); o.step(); buf = io.BytesIO(); torch.save({"optimizer": o.state_dict(), "model_args": dict(n_layer=2), "best_val_loss": torch.tensor(1.5), "iter_num": 3}, buf); buf.seek(0); ck = torch.load(buf, weights_only=True); print(ck["iter_num"], ck["best_val_loss"], ck["model_args"], ck["optimizer"]["state"][0]["step"])',
    'import io\nbuf = io.BytesIO(); torch.save({"args": {"a": 1}, "s": set([1])}, buf); buf.seek(0)\ntry:\n    torch.load(buf, weights_only=True)' + E,
]


# -- models in bfloat16 ---------------------------------------------------------------------------

SETUP_17 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nx = torch.randn(2, 3, 8).to(torch.bfloat16)\n"
_S17 = [
    'print(nn.Linear(8, 4).to(torch.bfloat16)(x))',
    'print(nn.Linear(8, 4, bias=False).bfloat16()(x)[0])',
    'print(nn.LayerNorm(8).bfloat16()(x)[0])',
    'print(nn.RMSNorm(8).bfloat16()(x)[0])',
    'print(F.softmax(x, -1)[0], F.log_softmax(x, -1)[0, 0])',
    'print(F.gelu(x)[0, 0], F.gelu(x, approximate="tanh")[0, 0], F.silu(x)[0, 0])',
    'print(F.scaled_dot_product_attention(x[None], x[None], x[None], is_causal=True)[0, 0])',
    'print((x @ x.transpose(-1, -2))[0], torch.bmm(x, x.transpose(1, 2))[1])',
    'print(x.sum(-1), x.mean(-1), x.float().mean(-1).bfloat16(), x.pow(2).mean(-1))',
    'print(F.cross_entropy(x.view(-1, 8), torch.arange(6) % 8), F.cross_entropy(x.view(-1, 8).float(), torch.arange(6) % 8))',
    'e = nn.Embedding(10, 8).to(torch.bfloat16); print(e(torch.tensor([1, 2]))); print(e.weight.dtype)',
    'm = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8)).to(torch.bfloat16); y = m(x); y.float().sum().backward(); print(y[0, 0], m[0].weight.grad.dtype, m[0].weight.grad[0])',
    'm = nn.Conv2d(2, 3, 3, padding=1).bfloat16(); print(m(x.view(1, 2, 3, 8))[0, 0])',
    'print(nn.GroupNorm(2, 4).bfloat16()(x.view(2, 4, 6))[0, 0])',
    'print(x.cumsum(-1)[0, 0], x.float().exp().bfloat16()[0, 0], x.exp()[0, 0], torch.tanh(x)[0, 0])',
    'print(x + 1e-3, (x * 0.1)[0, 0])',
    'w = nn.Parameter(torch.ones(8).bfloat16()); o = torch.optim.AdamW([w], lr=1e-3); (w * x[0, 0]).sum().backward(); o.step(); print(w)',
    'w = nn.Parameter(torch.ones(8).bfloat16()); o = torch.optim.SGD([w], lr=0.1, momentum=0.9); (w * x[0, 0]).sum().backward(); o.step(); o.step(); print(w)',
    'print(torch.finfo(torch.bfloat16), x.dtype.itemsize, x.element_size(), x.half()[0, 0])',
]


# -- bfloat16 pieces: reductions, matmuls, attention ----------------------------------------------

SETUP_18 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nx = torch.randn(2, 3, 8).to(torch.bfloat16)\n"
_S18 = [
    bug(BF16_RSQRT, 'print(x.pow(2)[0, 0], x.pow(2).mean(-1)[0], (x.pow(2).mean(-1, keepdim=True) + 1e-6)[0, 0], torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)[0, 0])'),
    'print(x.max(-1, keepdim=True).values[0,0], (x - x.max(-1, keepdim=True).values)[0, 0], torch.logsumexp(x, -1)[0], (x - torch.logsumexp(x, -1, keepdim=True))[0, 0])',
    'xg = x.clone().requires_grad_(); y = F.gelu(xg); y.backward(torch.ones_like(y)); print(xg.grad[0])',
    'a = torch.randn(3, 16).bfloat16(); b = torch.randn(3, 8).bfloat16(); print(a.t() @ b, (a.float().t() @ b.float()).bfloat16())',
    'a = torch.randn(3, 16).bfloat16(); b = torch.randn(16, 8).bfloat16(); print((a @ b)[0], (a.float() @ b.float()).bfloat16()[0])',
    'q = x[None]; s = (q @ q.transpose(-2, -1)) * (1.0 / math.sqrt(8)); print(s[0, 0])',
    'q = x[None]; print(F.scaled_dot_product_attention(q, q, q)[0, 0], F.scaled_dot_product_attention(q.float(), q.float(), q.float()).bfloat16()[0, 0])',
    'q = x[None]; print(F.scaled_dot_product_attention(q, q, q, is_causal=True)[0, 0], F.scaled_dot_product_attention(q.float(), q.float(), q.float(), is_causal=True).bfloat16()[0, 0])',
    'print(F.softmax(x, -1)[1], F.softmax(x.float(), -1).bfloat16()[1])',
]


# -- bfloat16 gradients ---------------------------------------------------------------------------

SETUP_19 = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nx = (torch.randn(4, 16) * 2).to(torch.bfloat16).requires_grad_(); g = torch.randn(4, 16).to(torch.bfloat16)\n"
_S19 = [
    'y = F.gelu(x); y.backward(g); print(x.grad[0])',
    'y = F.gelu(x, approximate="tanh"); y.backward(g); print(x.grad[0])',
    'y = F.silu(x); y.backward(g); print(x.grad[0])',
    'y = torch.tanh(x); y.backward(g); print(x.grad[0])',
    'y = torch.sigmoid(x); y.backward(g); print(x.grad[0])',
    'y = F.softmax(x, -1); y.backward(g); print(x.grad[0])',
    'y = F.log_softmax(x, -1); y.backward(g); print(x.grad[0])',
    'y = F.relu(x); y.backward(g); print(x.grad[0])',
    'y = F.mish(x); y.backward(g); print(x.grad[0])',
    'y = F.elu(x); y.backward(g); print(x.grad[0])',
    'y = F.softplus(x); y.backward(g); print(x.grad[0])',
    'y = F.hardswish(x); y.backward(g); print(x.grad[0])',
    'y = F.leaky_relu(x, 0.1); y.backward(g); print(x.grad[0])',
    'y = x.exp(); y.backward(g); print(x.grad[0])',
    'y = x.pow(2); y.backward(g); print(x.grad[0])',
    'y = x * x; y.backward(g); print(x.grad[0])',
    'y = x.sin(); y.backward(g); print(x.grad[0])',
    bug(BF16_RSQRT, 'y = x.rsqrt(); y.backward(g); print(x.grad[0])'),
    'y = x.abs().sqrt(); y.backward(g); print(x.grad[0])',
    'y = F.layer_norm(x, (16,)); y.backward(g); print(x.grad[0])',
    'y = F.rms_norm(x, (16,)); y.backward(g); print(x.grad[0])',
    'y = x.sum(-1, keepdim=True) * x; y.backward(g); print(x.grad[0])',
    'y = x.mean(-1, keepdim=True).expand(4, 16); y.backward(g); print(x.grad[0])',
    'y = torch.logsumexp(x, -1, keepdim=True).expand(4, 16); y.backward(g); print(x.grad[0])',
    'y = F.normalize(x, dim=-1); y.backward(g); print(x.grad[0])',
    'y = x / x.norm(dim=-1, keepdim=True); y.backward(g); print(x.grad[0])',
    'y = x.var(-1, keepdim=True).expand(4, 16); y.backward(g); print(x.grad[0])',
    'y = x.cumsum(-1); y.backward(g); print(x.grad[0])',
    'y = F.dropout(x, 0.0); y.backward(g); print(x.grad[0])',
    'y = x.float().bfloat16(); y.backward(g); print(x.grad[0])',
    'print(torch.logsumexp(x.detach(), -1))',
    'print(torch.logsumexp(x.detach().half(), -1))',
    'print(x.detach().half().rsqrt()[0])',
    'print(x.detach().half().log_softmax(-1)[0])',
    'print(x.detach().softmax(-1)[0])',
    'print(x.detach().half().softmax(-1)[0])',
]


# -- legacy constructors, numpy interop, version checks, module containers, parameters ------------

SETUP_20 = "import math, io\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S20 = [
    'ids = torch.tensor([[1, 5, 2], [7, 2, 9]]); print(torch.isin(ids, torch.tensor([2, 9])), torch.isin(ids, 5), ids.eq(2).any(dim=1), torch.all(ids > 0, dim=-1))',
    'x = torch.randn(2, 4, 3); idx = torch.tensor([[1], [3]]); g = x.gather(1, idx.unsqueeze(-1).expand(-1, -1, 3)); print(g.shape, torch.equal(g[1, 0], x[1, 3]), x.index_select(1, torch.tensor([0, 2])).shape)',
    'print(torch.LongTensor([1, 2]).dtype, torch.FloatTensor(2, 3).shape, torch.BoolTensor([True]).dtype, torch.Tensor([1, 2]).dtype, torch.Tensor(2).shape)',
    'try:\n    torch.tensor([torch.ones(2), torch.ones(2)])' + E,
    'print(torch.tensor([torch.tensor(1.), torch.tensor(2.)]), torch.stack([torch.ones(2), torch.ones(2)]).shape, torch.as_tensor(np.array([1, 2])).dtype, torch.as_tensor([1.5]).dtype)',
    'x = torch.randn(2, 3).bfloat16()\ntry:\n    x.numpy()' + E,
    'x = torch.randn(2, 3).bfloat16(); print(x.float().cpu().numpy().dtype, x.detach().cpu().tolist()[0][:1], x[0, 0].item(), type(x[0, 0].item()).__name__)',
    'x = torch.randn(2, 3, requires_grad=True)\ntry:\n    x.numpy()' + E,
    'print(torch.version.cuda, torch.__version__ >= "2.0", torch.__version__ < (3, 0), torch.backends.cudnn.version(), torch.version.hip)',
    'print(torch.utils._pytree.tree_map(lambda t: t * 2, {"a": torch.ones(1), "b": [torch.zeros(1), 3]}))',
    'leaves, spec = torch.utils._pytree.tree_flatten({"a": torch.ones(1), "b": (1, 2)}); print(len(leaves), torch.utils._pytree.tree_unflatten([l for l in leaves], spec))',
    'm = nn.Linear(2, 2); sd = m.state_dict(); print(type(sd).__name__, sd._metadata if hasattr(sd, "_metadata") else None)',
    'm = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)); print(dict(m.state_dict()._metadata))',
    'm = nn.Linear(2, 2); buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0); sd = torch.load(buf); print(type(sd).__name__, dict(sd._metadata))',
    'ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU(), nn.ReLU()]); print(ml)',
    'print(nn.Sequential(*[nn.Sequential(nn.Linear(2, 2), nn.GELU()) for _ in range(4)]))',
    'ml = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 3), nn.Linear(2, 3), nn.Linear(2, 2)]); print(ml)',
    'ml = nn.ModuleList(); print(ml, len(ml)); ml.append(nn.ReLU()); ml.extend([nn.Tanh()]); ml.insert(0, nn.Identity()); print(ml, ml[-1], ml[1:])',
    'ml = nn.ModuleList([nn.ReLU()])\ntry:\n    ml[3]' + E,
    'seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU()); seq.append(nn.Linear(2, 1)); print(len(seq), seq[-1], seq[:2]); del seq[1]; print(seq)',
    'seq = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())])) if False else nn.Sequential(); import collections; seq = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())])); print(seq, seq.fc)',
    'seq = nn.Sequential(nn.Linear(2, 2))\ntry:\n    seq(torch.ones(1, 2), torch.ones(1))' + E,
    'q = torch.randn(1, 4, 2, 8); k = torch.randn(1, 2, 5, 8); y = F.scaled_dot_product_attention(q, k, k, is_causal=True, enable_gqa=True, scale=0.1); print(y.shape, y[0, 0, 0, :3])',
    'x = torch.ones(2, 3); print(torch.ones_like(x, memory_format=torch.contiguous_format).stride(), torch.empty_like(x).shape, torch.zeros_like(x, dtype=torch.int8).dtype, torch.rand_like(x).shape, torch.randint_like(x, 5).dtype)',
    'print(torch.is_floating_point(torch.ones(1)), torch.is_tensor([1]), torch.numel(torch.ones(2, 3)), torch.is_nonzero(torch.tensor([1])))',
    'with torch.cuda.amp.autocast(enabled=False):\n    y = torch.ones(2) @ torch.ones(2)\nprint(y.dtype)',
    'with torch.autocast(device_type="cuda", enabled=False):\n    y = torch.ones(2) @ torch.ones(2)\nprint(y.dtype)',
    'x = torch.randn(3, 4); print(x.max(), x.max(0).values.shape, torch.max(x, 1, keepdim=True)[1].shape, torch.maximum(x, torch.zeros(1)).shape, x.amax(dim=(0, 1)))',
    'x = torch.randn(3, 4)\ntry:\n    torch.max(x, x.shape)' + E,
    'x = torch.arange(6).view(2, 3); print(x.T, x.mT, x.t().is_contiguous(), x.permute(1, 0).contiguous().stride())',
    'x = torch.randn(2, 3, 4)\ntry:\n    x.T' + E,
    'x = torch.randn(2, 3); print(x.norm(), x.norm(p=1, dim=1), torch.linalg.norm(x, dim=-1), torch.linalg.vector_norm(x, ord=float("inf")), x.norm(dim=1, keepdim=True).shape)',
    'p = nn.Parameter(torch.randn(2)); print(p); print(repr(nn.Parameter(torch.ones(2), requires_grad=False)))',
    'p = nn.Parameter(torch.randn(2)); print(type(p * 2).__name__, type(p.data).__name__, type(p.detach()).__name__, isinstance(p, torch.Tensor), type(p.clone()).__name__)',
    'p = nn.Parameter(torch.randn(2).bfloat16()); print(p.dtype, p.requires_grad, type(p.float()).__name__)',
    'try:\n    nn.Parameter(torch.tensor([1, 2]))' + E,
    'p = nn.Parameter(torch.tensor([1, 2]), requires_grad=False); print(p)',
]


# -- torch.utils._pytree over batches and outputs -------------------------------------------------

SETUP_21 = "import collections\ntorch.manual_seed(0); nn = torch.nn; P = torch.utils._pytree\n"
_S21 = [
    'l, s = P.tree_flatten({"a": torch.ones(1), "b": (1, [2, None])}); print(l); print(s); print(s.num_leaves, s.num_nodes, type(s).__name__, s.num_children)',
    'print(P.tree_flatten(None), P.tree_leaves([1, (2, 3)]), P.tree_structure((1, 2)), P.tree_flatten(3))',
    'print(P.tree_map(lambda a, b: a + b, [1, 2], [10, 20]), P.tree_map(lambda x: x, {"x": None}), P.tree_map(lambda x: x * 2, {"a": torch.ones(1), "b": [torch.zeros(1), 3]}))',
    'print(P.tree_map(lambda x: 0, [1, [2, 3]], is_leaf=lambda x: isinstance(x, list) and len(x) == 2 and x[0] == 2))',
    'NT = collections.namedtuple("NT", "a b"); print(P.tree_map(lambda x: x * 2, NT(1, 2)), P.tree_flatten(collections.OrderedDict(z=1, a=2)))',
    'l, s = P.tree_flatten({"a": 1, "b": (2, [3, 4])})\ntry:\n    P.tree_unflatten([1, 2], s)' + E,
    'try:\n    P.tree_map(lambda a, b: a, [1, 2], [1])' + E,
    'class Box:\n    def __init__(self, v): self.v = v\n    def __repr__(self): return f"Box({self.v})"\nP.register_pytree_node(Box, lambda b: ([b.v], None), lambda ch, ctx: Box(ch[0]), serialized_type_name="Box")\nprint(P.tree_map(lambda x: x + 1, [Box(1), Box(2)]), P.tree_leaves({"k": Box(3)}))\ntry:\n    P.register_pytree_node(Box, lambda b: ([b.v], None), lambda ch, ctx: Box(ch[0]))' + E,
    'print(P.tree_all(lambda x: x > 0, [1, 2]), P.tree_any(lambda x: x > 1, (1, 2)), list(P.tree_iter([1, (2,)])), P.tree_unflatten([5], P.tree_structure(3)))',
    'l, s = P.tree_flatten({"b": 1, "a": (2, [3])}); print(s.unflatten([7, 8, 9]), P.treespec_pprint(s), s == P.tree_structure({"b": 0, "a": (0, [0])}), s == P.tree_structure({"a": 0, "b": (0, [0])}))',
    'print(P.tree_map(lambda x: x, collections.defaultdict(int, a=1)), P.tree_map(lambda x: -x, collections.deque([1, 2])))',
    'batch = {"input_ids": torch.ones(2, 3, dtype=torch.long), "mask": torch.ones(2, 3), "meta": ["a", "b"]}; moved = P.tree_map(lambda t: t.to("cpu") if isinstance(t, torch.Tensor) else t, batch); print({k: type(v).__name__ for k, v in moved.items()}, moved["meta"])',
    'out = (torch.ones(2, requires_grad=True) * 2, [torch.ones(1)]); d = P.tree_map(lambda t: t.detach(), out); print(d[0].requires_grad, P.tree_leaves(d)[1])',
    'acc = []; r = P.tree_map_(lambda x: acc.append(x), [1, (2, 3)]); print(acc, r)',
    'print(P.tree_map(lambda x, y: x * y, {"a": 2, "b": 3}, {"b": 10, "a": 5}))',
    'try:\n    P.tree_map(lambda x, y: x, {"a": 1}, {"b": 1})' + E,
    'try:\n    P.tree_map(lambda x, y: x, [1], (1,))' + E,
    'print(P.tree_map(lambda x, y: (x, y), [1, 2], [[3, 4], 5]))',
]


# -- half-precision initialisation, from_pretrained embeddings, one_hot, audio convs, schedulers ---

SETUP_22 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S22 = [
    'print(torch.empty(6, dtype=torch.bfloat16).normal_(), torch.empty(6, dtype=torch.float16).uniform_(-1, 1))',
    'print(torch.randn(5, dtype=torch.bfloat16), torch.rand(5, dtype=torch.float16), torch.randint(0, 9, (4,), dtype=torch.bfloat16))',
    'w = torch.empty(3, 4, dtype=torch.bfloat16); nn.init.trunc_normal_(w, std=0.02); print(w)',
    'w = torch.empty(3, 4, dtype=torch.bfloat16); nn.init.kaiming_uniform_(w, a=math.sqrt(5)); print(w); nn.init.xavier_normal_(w); print(w)',
    'w = torch.empty(4, 4, dtype=torch.float16); nn.init.normal_(w, 0, 0.02); print(w[0]); nn.init.orthogonal_(w.float()); print(w.dtype)',
    'm = nn.Linear(3, 2, dtype=torch.bfloat16); print(m.weight, m.bias)',
    'm = nn.Embedding(4, 3, dtype=torch.float16); print(m.weight)',
    'torch.set_default_dtype(torch.float16) if False else None; m = nn.LayerNorm(3, dtype=torch.bfloat16); print(m.weight.dtype, m(torch.randn(2, 3, dtype=torch.bfloat16)))',
    'x = torch.randn(2, 3); print(torch.bernoulli(torch.full((2, 3), 0.5, dtype=torch.bfloat16)), F.dropout(x.bfloat16(), 0.5))',
    'e = nn.Embedding.from_pretrained(torch.arange(6.).view(3, 2)); print(e, e.weight.requires_grad, e(torch.tensor([2])))',
    'e = nn.Embedding.from_pretrained(torch.arange(6.).view(3, 2), freeze=False, padding_idx=0); print(e, e.weight.requires_grad)',
    'print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[1], [0]]), num_classes=4).shape, F.one_hot(torch.tensor([1]), -1).dtype)',
    'try:\n    F.one_hot(torch.tensor([3]), num_classes=2)' + E,
    'try:\n    F.one_hot(torch.tensor([1.0]))' + E,
    'x = torch.randn(1, 2, 10); k = 3; c = nn.Conv1d(2, 4, k); y = c(F.pad(x, (k - 1, 0))); print(y.shape); print(nn.Conv1d(2, 4, 4, padding="same")(x).shape)',
    'x = torch.randn(1, 2, 10); c = nn.Conv1d(2, 4, 3, dilation=2, padding=2); print(c(x).shape, c)',
    'x = torch.arange(16.).view(1, 1, 4, 4); print(F.interpolate(x, size=(2, 2), mode="bilinear", antialias=True, align_corners=False))',
    'x = torch.arange(16.).view(1, 1, 16); print(F.interpolate(x, size=5, mode="linear", align_corners=True))',
    'w = torch.hann_window(8); print(w, torch.hann_window(8, periodic=False)[:3])',
    'x = torch.randn(64); s = torch.stft(x, n_fft=16, hop_length=4, window=torch.hann_window(16), return_complex=True); print(s.shape, s.dtype, s.abs()[:2, 0].round(decimals=4))',
    'x = torch.randn(2, 3, 4); ln = nn.LayerNorm([3, 4], elementwise_affine=True); print(ln.weight.shape, ln(x).mean(dim=(1, 2)).abs().max() < 1e-6)',
    'x = torch.randn(4, 3); print(nn.BatchNorm1d(3, affine=False)(x).mean(0).abs().max() < 1e-6, nn.InstanceNorm1d(3)(x.T[None]).shape)',
    'm = nn.Sequential(nn.Linear(2, 4), nn.LayerNorm(4), nn.Linear(4, 2)); no_decay = ["bias", "LayerNorm.weight", "1.weight"]; groups = [{"params": [p for n, p in m.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01}, {"params": [p for n, p in m.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0}]; print([len(g["params"]) for g in groups]); o = torch.optim.AdamW(groups, lr=1e-3); print(o.param_groups[1]["weight_decay"])',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=1e-3); s = torch.optim.lr_scheduler.LambdaLR(o, lambda step: step / 10); print(o.param_groups[0]["lr"], s.get_last_lr(), o.param_groups[0]["initial_lr"])',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=1e-3)\ntry:\n    s = torch.optim.lr_scheduler.StepLR(o, step_size=2, last_epoch=3)' + E,
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=1e-3); s = torch.optim.lr_scheduler.StepLR(o, 2); print(s.state_dict())',
    'm = nn.Linear(2, 2); o = torch.optim.SGD(m.parameters(), lr=1.0); s = torch.optim.lr_scheduler.ReduceLROnPlateau(o, patience=0, factor=0.5)\nfor v in [1.0, 1.0, 1.0]:\n    s.step(v)\nprint(o.param_groups[0]["lr"], s.get_last_lr())',
    'm = nn.Linear(2, 2); o = torch.optim.AdamW(m.parameters(), lr=1e-3); print(o.state_dict()["param_groups"][0].keys())',
]


# -- LoRA layers, int8 quantisation arithmetic, rounding, dtype limits ----------------------------

SETUP_23 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
LORA = '''
class LoRALinear(nn.Linear):
    def __init__(self, i, o, r=2, alpha=4):
        super().__init__(i, o)
        self.lora_A = nn.Parameter(self.weight.new_zeros((r, i)))
        self.lora_B = nn.Parameter(self.weight.new_zeros((o, r)))
        self.scaling = alpha / r
        self.weight.requires_grad = False
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)
        self.merged = False
    def forward(self, x):
        result = F.linear(x, self.weight, bias=self.bias)
        if not self.merged:
            result += (x @ self.lora_A.transpose(0, 1) @ self.lora_B.transpose(0, 1)) * self.scaling
        return result
    def merge(self):
        self.weight.data += (self.lora_B @ self.lora_A) * self.scaling
        self.merged = True
'''
_S23 = [
    LORA + 'm = LoRALinear(4, 3); print(m, [n for n, p in m.named_parameters() if p.requires_grad]); x = torch.randn(2, 4); print(torch.equal(m(x), F.linear(x, m.weight, m.bias)))',
    LORA + 'm = LoRALinear(4, 3); nn.init.normal_(m.lora_B); x = torch.randn(2, 4); y = m(x); m.merge(); print(torch.allclose(y, m(x), atol=1e-5), y.grad_fn.name())',
    LORA + 'm = LoRALinear(4, 3); x = torch.randn(2, 4); m(x).sum().backward(); print(m.weight.grad, m.lora_B.grad.shape, m.lora_A.grad.abs().sum())',
    LORA + 'm = nn.Sequential(LoRALinear(4, 3), nn.ReLU()); sd = {k: v for k, v in m.state_dict().items() if "lora_" in k}; print(list(sd)); print(m.load_state_dict(sd, strict=False))',
    'class LoRAParam(nn.Module):\n    def __init__(self, w, r=2):\n        super().__init__(); self.A = nn.Parameter(torch.zeros(r, w.shape[1])); self.B = nn.Parameter(torch.ones(w.shape[0], r))\n    def forward(self, W):\n        return W + self.B @ self.A\nm = nn.Linear(3, 2); torch.nn.utils.parametrize.register_parametrization(m, "weight", LoRAParam(m.weight)); print(sorted(n for n, _ in m.named_parameters())); print(type(m).__name__, m.weight.shape)',
    'x = torch.randn(2, 8); s = x.abs().amax(dim=-1, keepdim=True) / 127; q = torch.round(x / s).clamp(-128, 127).to(torch.int8); print(q, q.dtype, (q.float() * s - x).abs().max() < s.max())',
    'x = torch.randn(4); print(x.to(torch.int8), x.to(torch.uint8), (x * 100).to(torch.int16), torch.tensor([300.]).to(torch.uint8))',
    'x = torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.5]); print(torch.round(x), x.round(decimals=1), torch.floor(x), torch.trunc(x).to(torch.int32))',
    'print(torch.float8_e4m3fn, torch.tensor([1.0, 2.5]).to(torch.float8_e4m3fn).float())',
    'print(torch.iinfo(torch.int8).max, torch.iinfo(torch.uint8).min, torch.finfo(torch.float16).eps, torch.finfo(torch.bfloat16).eps, torch.finfo(torch.float64).resolution)',
    'x = torch.randn(3, 4); print(torch.quantile(x, 0.5, dim=1), torch.kthvalue(x, 2, dim=1).values, torch.median(x, dim=1).values, x.abs().mean(dim=-1))',
    'x = torch.randint(-5, 5, (6,), dtype=torch.int8); print(x, x.abs(), x.sum(), x.sum().dtype, x.float().mean())',
    'x = torch.tensor([1, 2], dtype=torch.int8)\ntry:\n    x.mean()' + E,
    'x = torch.ones(2, dtype=torch.int8) * 100; print(x + x, (x * 3).dtype, x.to(torch.int32) * 3)',
]


# -- module attributes, registration errors, copies and pickles, devices, dtype moves -------------

SETUP_24 = "import math, copy, pickle, io\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S24 = [
    'class GPT(nn.Module):\n    pass\ntry:\n    GPT().foo' + E,
    'm = nn.Linear(2, 2)\ntry:\n    m.add_module("a.b", nn.ReLU())' + E,
    'm = nn.Linear(2, 2)\ntry:\n    m.add_module("weight", nn.ReLU())' + E,
    'm = nn.Linear(2, 2)\ntry:\n    m.add_module("x", 3)' + E,
    'm = nn.Module(); m.register_module("enc", nn.Linear(1, 1)); m.add_module("dec", None); print(m, list(m.named_children()), m.dec)',
    'class M(nn.Module):\n    def __init__(self):\n        self.l = nn.Linear(1, 1)\ntry:\n    M()' + E,
    'm = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)); print([n for n, _ in m.named_buffers()], [n for n, _ in m.named_buffers(recurse=False)], len(list(m.buffers())))',
    'm = nn.Sequential(nn.Linear(2, 2)); print(list(m.state_dict(prefix="model.")), m.requires_grad_(False) is m, m[0].weight.requires_grad, m.train(False) is m, m.training)',
    'm = nn.Sequential(nn.Linear(2, 2)); m2 = copy.deepcopy(m); print(m2[0].weight is m[0].weight, torch.equal(m2[0].weight, m[0].weight), m2[0].weight.requires_grad)',
    'm = nn.Sequential(nn.Linear(2, 2)); b = pickle.dumps(m); m2 = pickle.loads(b); print(type(m2).__name__, torch.equal(m2[0].bias, m[0].bias))',
    'm = nn.Linear(2, 2); m.register_forward_hook(lambda *a: None); m2 = copy.deepcopy(m); print(len(m2._forward_hooks))',
    'm = nn.Linear(2, 2); x = torch.randn(1, 2, requires_grad=True); y = m(x); print(m.weight.grad_fn, m.weight.is_leaf, y.is_leaf, x.grad_fn)',
    'x = torch.ones(2)\ntry:\n    x.to("mps")' + E,
    'x = torch.ones(2)\ntry:\n    x.to("gpu")' + E,
    'm = nn.Linear(2, 2).double(); print(m.weight.dtype, m.float().weight.dtype, m.half().bias.dtype, m.bfloat16().weight.dtype, m.to(torch.float32).weight.dtype)',
    'm = nn.Linear(2, 2); p = m.weight; m.to(torch.float64); print(m.weight is p, p.dtype)',
    'm = nn.Linear(2, 2); print(m.to("cpu") is m, m.to(torch.device("cpu"), torch.float32) is m, m.cpu() is m, m.type(torch.float64).weight.dtype)',
    'm = nn.Linear(2, 2)\ntry:\n    m.to(torch.float32, "cpu")' + E,
    'm = nn.Linear(2, 2); print(m.__class__.__name__, m._get_name(), m.extra_repr(), nn.ReLU().extra_repr(), repr(nn.Module()))',
    'class Cfg:\n    n_embd = 8\nclass M(nn.Module):\n    def __init__(self, cfg):\n        super().__init__(); self.config = cfg; self.ln = nn.LayerNorm(cfg.n_embd)\nm = M(Cfg()); print(m, m.config.n_embd, hasattr(m, "config"))',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__(); self.layers = [nn.Linear(1, 1)]\nm = M(); print(len(list(m.parameters())), m)',
    'class M(nn.Module):\n    def forward(self, x):\n        return x\nm = M(); print(m(torch.ones(1)), m.forward(torch.ones(1)))\ntry:\n    nn.Module()(torch.ones(1))' + E,
    'm = nn.Linear(2, 2); print(sum(1 for _ in m.modules()), list(m.children()), [type(x).__name__ for x in nn.Sequential(m, m).modules()])',
    'm = nn.Linear(2, 2); s = nn.Sequential(m, m); print(len(list(s.named_modules())), len(list(s.named_modules(remove_duplicate=False))), len(list(s.parameters())))',
    'm = nn.Linear(2, 2); print(m.weight.shape, m.in_features, m.out_features, m.weight.T.shape, m.weight.numel(), m.weight.nbytes if hasattr(m.weight, "nbytes") else None)',
    'm = nn.Linear(2, 2); print(sum(p.numel() * p.element_size() for p in m.parameters()), sum(b.numel() for b in m.buffers()))',
]


# -- data loading: samplers, random_split, collate functions --------------------------------------

SETUP_25 = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional; D = torch.utils.data\n"
_S25 = [
    'ds = D.TensorDataset(torch.arange(10).float(), torch.arange(10)); g = torch.Generator().manual_seed(42); dl = D.DataLoader(ds, batch_size=4, shuffle=True, generator=g, drop_last=True)\nfor x, y in dl:\n    print(y)\nprint(len(dl))',
    'ds = D.TensorDataset(torch.arange(10)); tr, va = D.random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(0)); print(len(tr), len(va), va.indices, type(tr).__name__)',
    'ds = D.TensorDataset(torch.arange(10)); tr, va = D.random_split(ds, [7, 3], generator=torch.Generator().manual_seed(1)); print(sorted(tr.indices), va.indices)',
    'seqs = [torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])]\ndef collate(batch):\n    return nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=0), torch.tensor([len(b) for b in batch])\ndl = D.DataLoader(seqs, batch_size=2, collate_fn=collate)\nfor x, l in dl:\n    print(x, l)',
    'dl = D.DataLoader([{"a": torch.ones(2), "b": 1}, {"a": torch.zeros(2), "b": 2}], batch_size=2); b = next(iter(dl)); print(b)',
    'dl = D.DataLoader([(torch.ones(2), "x"), (torch.zeros(2), "y")], batch_size=2); print(next(iter(dl)))',
    'dl = D.DataLoader(list(range(5)), batch_size=2); print(list(dl), len(dl))',
    'dl = D.DataLoader(list(range(5)), batch_size=None); print(list(dl)[:2])',
    's = D.RandomSampler(range(6), generator=torch.Generator().manual_seed(3)); print(list(s)); b = D.BatchSampler(D.SequentialSampler(range(5)), 2, False); print(list(b))',
    's = D.WeightedRandomSampler([0.1, 0.9, 0.0], 5, replacement=True, generator=torch.Generator().manual_seed(0)); print(list(s))',
    'class DS(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return torch.full((2,), float(i))\ndl = D.DataLoader(DS(), batch_size=2, shuffle=False); print([b.tolist() for b in dl])',
    'class DS(D.IterableDataset):\n    def __iter__(self): return iter(range(5))\nprint(list(D.DataLoader(DS(), batch_size=2)))',
    'try:\n    D.DataLoader(list(range(4)), batch_size=2, shuffle=True, sampler=D.SequentialSampler(range(4)))' + E,
    'ds = D.ConcatDataset([D.TensorDataset(torch.arange(3)), D.TensorDataset(torch.arange(3, 5))]); print(len(ds), ds[3], ds.cumulative_sizes)',
    'print(D.default_collate([torch.tensor(1), torch.tensor(2)]), D.default_collate([1.5, 2.5]), D.default_collate([[1, 2], [3, 4]]))',
    'print(D.default_collate([np.array([1, 2]), np.array([3, 4])]), D.default_collate(["a", "b"]))',
]


# -- T5 buckets, ALiBi slopes, Whisper sinusoids, BERT buffers, pooling, shifted losses -----------

SETUP_26 = "import math\ntorch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"
_S26 = [
    'def bucket(rel, bidirectional=True, num_buckets=32, max_distance=128):\n    rb = 0\n    if bidirectional:\n        num_buckets //= 2\n        rb += (rel > 0).to(torch.long) * num_buckets\n        rel = torch.abs(rel)\n    else:\n        rel = -torch.min(rel, torch.zeros_like(rel))\n    max_exact = num_buckets // 2\n    is_small = rel < max_exact\n    large = max_exact + (torch.log(rel.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)).to(torch.long)\n    large = torch.min(large, torch.full_like(large, num_buckets - 1))\n    rb += torch.where(is_small, rel, large)\n    return rb\nctx = torch.arange(6, dtype=torch.long)[:, None]; mem = torch.arange(6, dtype=torch.long)[None, :]; print(bucket(mem - ctx)); print(bucket(torch.tensor([[-200, -20, 0, 20, 200]]), False))',
    'def get_slopes(n):\n    start = 2 ** (-(2 ** -(math.log2(n) - 3)))\n    return [start * start ** i for i in range(n)]\ns = torch.tensor(get_slopes(8)); print(s); T = 4; alibi = s[:, None, None] * (torch.arange(T)[None, :] - torch.arange(T)[:, None])[None]; print(alibi.shape, alibi[1])',
    'def sinusoids(length, channels, max_timescale=10000):\n    inc = math.log(max_timescale) / (channels // 2 - 1)\n    inv = torch.exp(-inc * torch.arange(channels // 2))\n    t = torch.arange(length)[:, np.newaxis] * inv[np.newaxis, :]\n    return torch.cat([torch.sin(t), torch.cos(t)], dim=1)\nprint(sinusoids(3, 6).round(decimals=4))',
    'class Emb(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer("position_ids", torch.arange(8).expand((1, -1)), persistent=False)\n        self.register_buffer("token_type_ids", torch.zeros(self.position_ids.size(), dtype=torch.long), persistent=False)\nm = Emb(); print(m.position_ids, m.position_ids.stride(), m.token_type_ids.shape, list(m.state_dict())); print(m.position_ids[:, 2:5], m.token_type_ids[:, :3].expand(2, 3))',
    'x = torch.zeros(2, 4); m = torch.tensor([[True, False, True, False], [False] * 4]); print(x.masked_scatter(m, torch.tensor([1., 2., 3.])), torch.ones(3).expand_as(torch.zeros(2, 3)).shape)',
    'b = torch.tensor([0, 10, 20]); print(torch.bucketize(torch.tensor([-1, 0, 5, 10, 25]), b), torch.bucketize(torch.tensor([10]), b, right=True), torch.searchsorted(b, torch.tensor([15])))',
    'x = torch.randn(2, 3); print(x.new_full((2,), -100).dtype, x.new_full((2,), 7, dtype=torch.long), x.new_empty(0).shape)',
    'input_ids = torch.tensor([[101, 7, 8, 102, 0, 0]]); am = (input_ids != 0).long(); tt = torch.zeros_like(input_ids); print(am, tt.dtype, am.sum(dim=1) - 1, input_ids[torch.arange(1), am.sum(dim=1) - 1])',
    'h = torch.randn(2, 5, 4); am = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]); m = am.unsqueeze(-1).float(); pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9); print(pooled.shape, torch.allclose(pooled[1], h[1].mean(0)))',
    'h = torch.randn(2, 5, 4); last = torch.tensor([2, 4]); print(h[torch.arange(2), last].shape, torch.equal(h[torch.arange(2), last][0], h[0, 2]))',
    'logits = torch.randn(2, 5, 7); labels = torch.randint(0, 7, (2, 5)); shift_logits = logits[..., :-1, :].contiguous(); shift_labels = labels[..., 1:].contiguous(); loss = nn.CrossEntropyLoss()(shift_logits.view(-1, 7), shift_labels.view(-1)); print(round(loss.item(), 4), shift_logits.is_contiguous(), logits[..., :-1, :].is_contiguous())',
    'labels = torch.tensor([[1, 2, -100]]); logits = torch.randn(1, 3, 4); print(nn.CrossEntropyLoss(reduction="none")(logits.view(-1, 4), labels.view(-1)))',
    'x = torch.randn(2, 3, 4); print(x.transpose(1, 2).contiguous().view(2, -1).shape, x.view(-1, x.size(-1)).shape)\ntry:\n    x.view(-1, -1)' + E,
    'x = torch.randn(2, 3, 4)\ntry:\n    x.view(5, -1)' + E,
    'x = torch.randn(2, 3, 4)\ntry:\n    x.reshape(7)' + E,
    'print(torch.cat([torch.ones(2, 3), torch.zeros(2, 3)], dim=-1).shape, torch.cat((torch.ones(1),)).shape)\ntry:\n    torch.cat([])' + E,
    'x = torch.randn(3, 4); print(x.softmax(-1).argmax(-1), torch.nn.functional.softmax(x, dim=1).max(1)[1], (x.softmax(-1).sum(-1) - 1).abs().max() < 1e-6)',
]


# -- strides along library forward passes ---------------------------------------------------------

SETUP_27 = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nx = torch.randn(2, 3, 4)\n"
_S27 = [
    'print(x.unsqueeze(0).stride(), x.unsqueeze(1).stride(), x.unsqueeze(-1).stride(), x[None].stride(), x[:, None].stride(), x[..., None].stride())',
    'print(torch.ones(4, 4).view(1, 1, 4, 4).stride(), torch.tril(torch.ones(4, 4)).view(1, 1, 4, 4).stride(), x[:1].stride(), x[:, :1].stride(), x[0:1, 0:1].squeeze().stride())',
    'print(x.squeeze().stride(), x[:1].squeeze(0).stride(), x[:, :1, :].squeeze(1).stride(), torch.ones(1, 3, 1).squeeze().stride(), torch.ones(1, 3, 1).squeeze(-1).stride())',
    'print(torch.stack([x, x]).stride(), torch.stack([x, x], 1).stride(), torch.stack([x, x], -1).stride(), torch.cat([x, x], 1).stride())',
    'print(x.permute(0, 2, 1).reshape(2, 12).stride(), x.transpose(0, 1).reshape(3, 8).stride(), x.transpose(0, 1).flatten(1).stride(), x.t().stride() if x.dim() == 2 else x[0].t().stride())',
    'q, k, v = x.split(1, dim=1); print(q.stride(), q.shape, x.chunk(2, dim=-1)[1].stride(), x.unbind(1)[0].stride(), x.narrow(1, 1, 2).stride())',
    'print(x[0].stride(), x[:, 0].stride(), x[..., 0].stride(), x[:, 1:].stride(), x[:, ::2].stride(), x[:, [0, 2]].stride(), x[torch.tensor([1, 0])].stride())',
    'e = x[:, :1].expand(2, 5, 4); print(e.stride(), e.contiguous().stride(), e.reshape(10, 4).stride(), e.clone().stride())',
    'print((x + 1).stride(), (x.transpose(1, 2) + 1).stride(), (x.transpose(1, 2) * x.transpose(1, 2)).stride(), (x.permute(2, 0, 1) + torch.ones(1)).stride(), (x[:, :1] + x).stride())',
    'print(x.transpose(1, 2).softmax(-1).stride(), F.gelu(x.transpose(1, 2)).stride(), x.transpose(1, 2).sum(-1).stride(), x.transpose(1, 2).float().stride(), x.transpose(1, 2).to(torch.float64).stride())',
    'print(x.transpose(1, 2).clone().stride(), torch.empty_like(x.transpose(1, 2)).stride(), torch.zeros_like(x.permute(2, 0, 1)).stride(), x.transpose(1, 2).contiguous().stride())',
    'print((x @ x.transpose(1, 2)).stride(), (x.transpose(1, 2) @ x).stride(), torch.bmm(x, x.transpose(1, 2)).stride(), nn.Linear(4, 5)(x).stride(), nn.Linear(4, 5)(x.transpose(0, 1)).stride())',
    'print(nn.LayerNorm(4)(x.transpose(0, 1)).stride(), F.dropout(x.transpose(1, 2), 0.0).stride(), x.transpose(1, 2).masked_fill(torch.zeros(1, dtype=torch.bool), 0).stride(), torch.where(x > 0, x, 0.).stride())',
    'print(x.view(2, 3, 2, 2).permute(0, 2, 1, 3).stride(), x.view(2, 3, 2, 2).transpose(1, 2).contiguous().view(2, 2, 6).stride(), x.reshape(2, 3, 2, 2).transpose(1, 2).reshape(2, 2, 6).stride())',
    'print(F.scaled_dot_product_attention(x[None], x[None], x[None]).stride(), F.scaled_dot_product_attention(x[None].transpose(1, 2), x[None].transpose(1, 2), x[None].transpose(1, 2)).stride())',
    'print(F.pad(x, (1, 1)).stride(), F.interpolate(x, scale_factor=2).stride(), x.repeat(1, 2, 1).stride(), x.repeat_interleave(2, 1).stride(), x.flip(1).stride(), x.roll(1, 1).stride())',
    'print(x.cumsum(1).stride(), x.transpose(1, 2).cumsum(1).stride(), x.max(1).values.stride(), x.mean(1, keepdim=True).stride(), x.topk(2, dim=-1).values.stride(), x.sort(1).values.stride(), x.argmax(-1, keepdim=True).stride())',
    'y = x.transpose(1, 2); print(y.max(1).values.stride(), y.mean(1, keepdim=True).stride(), y.sort(1).values.stride(), y.topk(2, 1).indices.stride(), y.cumsum(2).stride(), y.norm(dim=1).stride())',
]


# -- strides of op results on transposed, permuted and channels-last inputs -----------------------

SETUP_28 = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nx = torch.randn(2, 3, 4); y = x.transpose(1, 2); p = x.permute(2, 0, 1)\n"
_S28 = [
    'print(y.exp().stride(), p.abs().stride(), (y > 0).stride(), y.clamp(0, 1).stride(), y.pow(2).stride(), (y * 2).stride(), y.neg().stride(), y.sign().stride())',
    'print((y + y).stride(), (y + p.permute(1, 2, 0)).stride(), (y + torch.ones(4, 1)).stride(), (y + torch.ones(3)).stride(), (p + 1.0).stride(), torch.maximum(y, y).stride())',
    'print(y.masked_fill(y > 0, 0.).stride(), torch.where(y > 0, y, 0.).stride(), torch.where(y > 0, y, x.transpose(1, 2).contiguous()).stride(), y.type_as(torch.ones(1).double()).stride(), y.to(torch.int32).stride())',
    'print(y.tril().stride(), y.triu(1).stride(), y.flip(1).stride(), y.roll(1, 2).stride(), y.repeat(1, 1, 2).stride(), y.tile(2).stride(), F.pad(y, (1, 0)).stride())',
    'print(y.cumsum(1).stride(), y.cumprod(2).stride(), y.cummax(1).values.stride(), y.logcumsumexp(2).stride(), y.softmax(1).stride(), y.log_softmax(-1).stride(), F.normalize(y, dim=1).stride())',
    'print(y.sum(1, keepdim=True).stride(), y.mean(-1).stride(), y.amax(1).stride(), y.max(-1).indices.stride(), y.argmax(1).stride(), y.std(2).stride(), y.norm(dim=-1, keepdim=True).stride(), y.prod(1).stride())',
    'print(y.topk(2, 2).values.stride(), y.kthvalue(2, 1).values.stride(), y.median(1).values.stride(), y.mode(2).values.stride(), y.min(1).values.stride())',
    'print(torch.cat([y, y], 0).stride(), torch.cat([y, y], 2).stride(), torch.cat([y, x.transpose(1, 2).contiguous()], 1).stride(), torch.stack([y, y], 1).stride(), torch.stack([p, p]).stride())',
    'print(y.gather(1, torch.zeros(2, 1, 3, dtype=torch.long)).stride(), y.scatter(1, torch.zeros(2, 1, 3, dtype=torch.long), 1.0).stride(), y.index_select(1, torch.tensor([0, 2])).stride(), y[:, [0, 2]].stride(), y[y > 0].stride())',
    'print((y @ x).stride(), torch.matmul(p, p.transpose(1, 2)).stride(), torch.einsum("bij,bjk->bik", y, x).stride(), torch.baddbmm(torch.zeros(2, 4, 4), y, x).stride(), nn.Linear(3, 5)(y).stride(), nn.Linear(2, 5)(p).stride())',
    'print(F.gelu(p).stride(), F.silu(y).stride(), F.dropout(p, 0.5).stride(), nn.LayerNorm(3)(y).stride(), nn.LayerNorm(2)(p).stride(), nn.RMSNorm(3)(y).stride(), nn.GroupNorm(1, 4)(y).stride())',
    'c = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last); print(c.stride(), nn.Conv2d(3, 6, 3)(c).stride(), F.relu(c).stride(), (c + 1).stride(), nn.BatchNorm2d(3)(c).stride(), F.max_pool2d(c, 2).stride(), F.adaptive_avg_pool2d(c, 1).stride(), F.interpolate(c, scale_factor=2).stride())',
    'c = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last); print(nn.GroupNorm(1, 3)(c).stride(), c.sum(1).stride(), c.mean((2, 3)).stride(), c.flatten(1).stride(), c.contiguous().stride(), c.clone().stride(), torch.cat([c, c], 1).stride())',
    'print(torch.outer(x[0, 0], x[0, 1]).stride(), F.one_hot(torch.tensor([[1, 0]]), 3).stride(), nn.Embedding(5, 3)(torch.tensor([[1, 2]]).t()).stride(), torch.diag_embed(y[..., 0]).stride(), y.diagonal(dim1=1, dim2=2).stride())',
    'g = x.clone().requires_grad_(); (g.transpose(1, 2) * 2).sum().backward(); print(g.grad.stride()); g2 = x.transpose(1, 2).clone().requires_grad_(); (g2 * 2).sum().backward(); print(g2.grad.stride(), g2.stride())',
    'g = torch.randn(4, 3, requires_grad=True); l = nn.Linear(3, 2); l(g.t().t()).sum().backward(); print(l.weight.grad.stride(), g.grad.stride()); w = torch.randn(3, 4).t().requires_grad_(); (w @ torch.ones(3, 2)).sum().backward(); print(w.grad.stride(), w.stride())',
]


# -- optimizer variants, state dicts, schedules; clipping bfloat16 gradients ----------------------

SETUP_29 = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward()\n"
_S29 = [
    'o = torch.optim.AdamW(m.parameters(), lr=0.1, amsgrad=True, maximize=True); o.step(); print(o.state_dict()["state"][0].keys(), m.bias)',
    'o = torch.optim.AdamW(m.parameters(), lr=torch.tensor(0.01)); o.step(); print(o.param_groups[0]["lr"], m.bias)',
    'o = torch.optim.AdamW(m.parameters(), lr=0.01); o.step(); print(o.state_dict())',
    'o = torch.optim.SGD([m.weight], lr=0.1); o.add_param_group({"params": [m.bias], "lr": 0.5}); o.step(); print([g["lr"] for g in o.param_groups], m.bias, len(o.param_groups))',
    'o = torch.optim.SGD([m.weight], lr=0.1)\ntry:\n    o.add_param_group({"params": [m.weight]})' + E,
    'w = nn.Parameter(torch.randn(3, 4).t()); (w * w).sum().backward(); o = torch.optim.AdamW([w], lr=0.1); o.step(); print(w.stride(), o.state[w]["exp_avg"].stride(), w.grad.stride())',
    'ps = [nn.Parameter(torch.randn(2).bfloat16()) for _ in range(2)]\nfor p in ps: (p.float() ** 2).sum().backward()\nprint(torch.nn.utils.clip_grad_norm_(ps, 0.1, foreach=True), ps[0].grad)',
    'o = torch.optim.Adam(m.parameters(), lr=0.1, weight_decay=0.1, capturable=False, differentiable=False); o.step(); print(m.weight[0])',
    'o = torch.optim.RMSprop(m.parameters(), lr=0.01, momentum=0.9, centered=True); o.step(); o.step(); print(m.weight[0], sorted(o.state[m.weight]))',
    'o = torch.optim.Adagrad(m.parameters(), lr=0.1); o.step(); print(m.bias, o.state[m.bias]["sum"])',
    'o = torch.optim.NAdam(m.parameters(), lr=0.1); o.step(); print(m.bias); o2 = torch.optim.RAdam(m.parameters(), lr=0.1, decoupled_weight_decay=True, weight_decay=0.1); o2.step(); print(m.bias)',
    'o = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True, dampening=0); o.step(); o.step(); print(m.bias, o.state[m.bias]["momentum_buffer"])',
    'try:\n    torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True)' + E,
    'o = torch.optim.Adafactor(m.parameters(), lr=0.01) if hasattr(torch.optim, "Adafactor") else None; o.step(); print(m.bias, sorted(o.state[m.weight]))',
    'o = torch.optim.AdamW(m.parameters()); print(repr(o).splitlines()[:4])',
    'o = torch.optim.AdamW(m.parameters()); o.zero_grad(); print(m.weight.grad); o.step(); print(o.state)',
    'o = torch.optim.AdamW(m.parameters(), lr=0.1); o.step(); sd = o.state_dict(); o2 = torch.optim.AdamW(m.parameters(), lr=0.1); o2.load_state_dict(sd); print(o2.state[m.weight]["step"], o2.state[m.weight]["step"].dtype)',
    'o = torch.optim.AdamW(m.parameters(), lr=0.1)\ntry:\n    o.load_state_dict({"state": {}, "param_groups": [{"params": [0]}]})' + E,
    'lrs = []; o = torch.optim.SGD(m.parameters(), lr=1.0); s = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2)\nfor _ in range(6):\n    o.step(); s.step(); lrs.append(round(s.get_last_lr()[0], 4))\nprint(lrs)',
    'o = torch.optim.SGD(m.parameters(), lr=1.0); s = torch.optim.lr_scheduler.PolynomialLR(o, total_iters=4, power=2.0)\nfor _ in range(5):\n    o.step(); s.step()\nprint(s.get_last_lr(), s.last_epoch)',
    'o = torch.optim.SGD(m.parameters(), lr=1.0); s = torch.optim.lr_scheduler.MultiStepLR(o, milestones=[1, 3], gamma=0.1)\nfor _ in range(4):\n    o.step(); s.step()\nprint(s.get_last_lr(), s.state_dict()["milestones"])',
    'o = torch.optim.SGD(m.parameters(), lr=1.0); s = torch.optim.lr_scheduler.ExponentialLR(o, 0.5); s.step()\nprint(s.get_last_lr(), o.param_groups[0]["lr"])',
]


# -- bfloat16 reductions, matmuls, norms, losses, convolutions and pointwise ops ------------------

SETUP_30 = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\nx = torch.randn(4, 64).bfloat16(); w = torch.randn(16, 64).bfloat16()\n"
_S30 = [
    'print(x.sum(), x.mean(), x.sum(1)[:3], x.mean(0)[:3], x.var(1)[:3], x.std(), x.norm(dim=1)[:3])',
    'print(F.linear(x, w)[0, :4], F.linear(x, w, torch.ones(16).bfloat16())[1, :4], (x @ w.t())[2, :4])',
    'print(torch.einsum("ik,jk->ij", x, w)[0, :4], torch.bmm(x[None], w.t()[None])[0, 3, :4], torch.addmm(torch.ones(16).bfloat16(), x, w.t())[0, :3])',
    'print(F.layer_norm(x, (64,))[0, :4], F.rms_norm(x, (64,))[0, :4], F.normalize(x, dim=-1)[0, :4], F.group_norm(x.view(4, 8, 8), 2)[0, 0, :4])',
    'print(F.mse_loss(x, x.flip(0)), F.l1_loss(x, x.flip(0)), F.smooth_l1_loss(x, x.flip(0)), F.cross_entropy(x, torch.arange(4)), F.binary_cross_entropy_with_logits(x, (x > 0).bfloat16()))',
    bug(BF16_PROD, 'print(x.cumsum(1)[0, -4:], x.softmax(-1).max(-1).values, x.logsumexp(-1), x.amax(1), x.prod(1)[:2])'),
    'c = nn.Conv2d(4, 4, 3).bfloat16(); print(c(x.view(1, 4, 4, 16))[0, 0, 0, :4])',
    bug(BF16_BATCH_NORM, 'bn = nn.BatchNorm1d(64).bfloat16(); bn.running_mean.fill_(0.1); bn.eval(); print(bn(x)[0, :4]); bn.train(); print(bn(x)[0, :4], bn.running_var[:3])'),
    'print(F.interpolate(x.view(1, 1, 4, 64), scale_factor=0.5, mode="bilinear")[0, 0, 0, :4], F.avg_pool1d(x[None], 4)[0, 0, :4], F.adaptive_avg_pool1d(x[None], 3)[0, 0])',
    'print(torch.nn.functional.gelu(x)[0, :4], x.sigmoid()[0, :4], x.tanh()[0, :4], F.silu(x)[0, :4], x.exp()[0, :4], x.rsqrt()[0, :4], x.sqrt()[0, :4])',
    'print((x * 0.125 + 1)[0, :4], (x / 3)[0, :4], x.pow(3)[0, :4], (x ** 0.5)[0, :2], torch.addcmul(x, x, x, value=0.5)[0, :4], torch.lerp(x, w[:4], 0.3)[0, :4])',
]


SNIPPETS, BUGS = [], []
for _setup, _snippets in [(SETUP_1, _S1), (SETUP_2, _S2), (SETUP_3, _S3), (SETUP_4, _S4),
                          (SETUP_5, _S5), (SETUP_6, _S6), (SETUP_7, _S7), (SETUP_8, _S8),
                          (SETUP_9, _S9), (SETUP_10, _S10), (SETUP_11, _S11), (SETUP_12, _S12),
                          (SETUP_13, _S13), (SETUP_14, _S14), (SETUP_15, _S15), (SETUP_16, _S16),
                          (SETUP_17, _S17), (SETUP_18, _S18), (SETUP_19, _S19), (SETUP_20, _S20),
                          (SETUP_21, _S21), (SETUP_22, _S22), (SETUP_23, _S23), (SETUP_24, _S24),
                          (SETUP_25, _S25), (SETUP_26, _S26), (SETUP_27, _S27), (SETUP_28, _S28),
                          (SETUP_29, _S29), (SETUP_30, _S30)]:
    for _s in _snippets:
        _s = _setup + _s
        if isinstance(_s, bug):
            BUGS.append((_s.reason, _s.snippet))
        else:
            SNIPPETS.append(_s)


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=600)
