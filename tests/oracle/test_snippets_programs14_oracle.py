"""Whole programs of the kinds people write, run under real torch and under ember (`import
ember as torch`): what they print must be identical. Inspecting autograd graphs: walking
`next_functions` and printing each node's saved values (`dir(grad_fn)`, `grad_fn._saved_dim`,
losses' reductions, Linear's Addmm strides, conv/pool/upsample/pad/embedding arguments,
slices, the norm layers' statistics); torch.func transforms refusing in-place writes into
captured tensors (grad) and of mapped values into unmapped ones (vmap);
`allow_mutation_on_saved_tensors`.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    'graph_walk_saved_values': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(2, 3, 4, requires_grad=True)
h = F.leaky_relu(x.permute(0, -1, 1), 0.2).unsqueeze(-1).squeeze(-1)
h = torch.cat([h, h.transpose(-1, -2).reshape(2, 4, 3)], dim=-1)
att = torch.softmax((h.unsqueeze(1) * h.unsqueeze(2)).sum(-1) / 3 ** 0.5, dim=-1)
out = torch.log_softmax(att.sum(-2), -1).mean(dim=(0,), keepdim=True)
loss = out.max(-1).values.select(0, -1)
def walk(fn, depth=0):
    if fn is None or depth > 12:
        return
    saved = {k: (tuple(getattr(fn, k).shape) if hasattr(getattr(fn, k), "shape") else getattr(fn, k))
             for k in dir(fn) if k.startswith("_saved_")}
    print("  " * depth + type(fn).__name__, saved)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)
walk(loss.grad_fn)
loss.backward()
print(x.grad.shape, round(x.grad.abs().sum().item(), 4))
print(torch.stack([x, x], -1).grad_fn._saved_dim, x.expand(3, 2, 3, 4).grad_fn._saved_self_sym_sizes)
print(x.diagonal(0, -1, -2).grad_fn._saved_dim1, x.view(6, 4).grad_fn._saved_self_sym_sizes)
''',
    'loss_nodes_saved_values': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 8), nn.GELU(approximate="tanh"), nn.Linear(8, 3))
x = torch.randn(6, 5); y = torch.randint(0, 3, (6,)); t = torch.rand(6, 3)
def saved(fn):
    return {k: (tuple(getattr(fn, k).shape) if hasattr(getattr(fn, k), "shape") else getattr(fn, k))
            for k in dir(fn) if k.startswith("_saved_")}
out = model(x)
losses = {
    "ce": F.cross_entropy(out, y, ignore_index=2),
    "nll": F.nll_loss(F.log_softmax(out, 1), y, reduction="sum"),
    "mse": F.mse_loss(out, t, reduction="none"),
    "huber": nn.HuberLoss(delta=0.3)(out, t),
    "sl1": nn.SmoothL1Loss(beta=2.0, reduction="sum")(out, t),
    "bce": nn.BCEWithLogitsLoss(pos_weight=torch.full((3,), 2.0))(out, t),
    "bce2": F.binary_cross_entropy(out.sigmoid(), t),
}
for name, loss in losses.items():
    fn = loss.grad_fn
    print(name, type(fn).__name__, saved(fn))
    print("   <-", [(type(f).__name__, saved(f)) for f, _ in fn.next_functions if f is not None])
total = sum(l.sum() for l in losses.values())
print(type(total.grad_fn).__name__, saved(total.grad_fn))
total.backward()
print([round(p.grad.norm().item(), 4) for p in model.parameters()])
''',
    'func_grad_captured_writes': r'''
nn = torch.nn; F = torch.nn.functional
grad, vmap, functional_call = torch.func.grad, torch.func.vmap, torch.func.functional_call
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.BatchNorm1d(8), nn.Tanh(), nn.Linear(8, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.clone() for k, v in model.named_buffers()}
x, y = torch.randn(16, 3), torch.randn(16, 1)
def loss_params_only(p, x, y):
    return F.mse_loss(functional_call(model, p, (x,)), y)
try:
    grad(loss_params_only)(params, x, y)
except Exception as e:
    print(type(e).__name__, e)
print(model[1].num_batches_tracked, model[1].running_mean[:3])
def loss(p, b, x, y):
    return F.mse_loss(functional_call(model, (p, b), (x,)), y)
g = grad(loss)(params, buffers, x, y)
print({k: round(v.norm().item(), 4) for k, v in g.items()})
print(buffers["1.num_batches_tracked"], buffers["1.running_mean"][:3])
calls = torch.zeros(())
def counted(w, x):
    calls.add_(1)
    return (x @ w).pow(2).sum()
try:
    grad(counted)(torch.ones(3), x)
except Exception as e:
    print(type(e).__name__, e)
def counted2(w, x, calls):
    calls += 1
    h = x @ w
    h[h < 0] = 0.0
    return h.pow(2).sum()
print(grad(counted2)(torch.ones(3), x, calls), calls)
model.eval()
per_sample = vmap(grad(lambda p, xi, yi: loss_params_only(p, xi[None], yi[None])), in_dims=(None, 0, 0))
print({k: tuple(v.shape) for k, v in per_sample(params, x, y).items()})
cache = {}
def memo(w):
    if "y" not in cache:
        cache["y"] = torch.zeros(3)
    cache["y"].copy_(w)
    return (w * w).sum()
print(grad(memo)(torch.ones(3)))
try:
    print(grad(memo)(torch.ones(3) * 2))
except Exception as e:
    print(type(e).__name__, e)
''',
    'cnn_graph_saved_arguments': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 4, 3, padding=1, bias=False)
        self.c2 = nn.Conv2d(4, 6, 3, stride=2, groups=2)
        self.fc = nn.Linear(6, 3)
    def forward(self, x):
        h = F.elu(self.c1(x))
        h = F.softplus(self.c2(h), beta=2)
        h = F.relu6(h).amax(dim=(-2, -1))
        return torch.log_softmax(self.fc(h), -1)
net = Net()
x = torch.randn(5, 1, 8, 8); y = torch.tensor([0, 2, 1, 1, 0])
out = net(x)
loss = F.nll_loss(out, y) + 0.1 * out.exp().var(-1).mean() + 0.01 * net.c1.weight.norm(dim=-1).sum()
seen = set()
def walk(fn, depth=0):
    if fn is None or fn in seen:
        return
    seen.add(fn)
    vals = {k[7:]: getattr(fn, k) for k in dir(fn) if k.startswith("_saved_")}
    shown = {k: (tuple(v.shape) if hasattr(v, "shape") else v) for k, v in vals.items()}
    print("  " * depth + fn.name(), shown)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)
walk(loss.grad_fn)
loss.backward()
print(round(loss.item(), 4), [round(p.grad.abs().sum().item(), 4) for p in net.parameters()])
parts = out.detach().requires_grad_().split([1, 2], -1)
print(parts[1].grad_fn.name(), parts[1].grad_fn._saved_split_sizes, parts[1].grad_fn._saved_dim)
s = out.sort(-1, descending=True).values
print(s.grad_fn._saved_dim, s.grad_fn._saved_indices.tolist()[:2], out.cumsum(-1).grad_fn._saved_dim)
''',
    'rnn_cell_slices_graph': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class LSTMCell(nn.Module):
    def __init__(self, n_in, n_h):
        super().__init__()
        self.n_h = n_h
        self.lin = nn.Linear(n_in + n_h, 4 * n_h)
    def forward(self, x, state):
        h, c = state
        z = self.lin(torch.cat([x, h], dim=-1))
        i, f = z[:, :self.n_h].sigmoid(), z[:, self.n_h:2 * self.n_h].sigmoid()
        g, o = z[..., -2 * self.n_h:-self.n_h].tanh(), z.narrow(-1, -self.n_h, self.n_h).sigmoid()
        c = f * c + i * g
        return o * c.tanh(), c
cell = LSTMCell(3, 4)
xs = torch.randn(5, 2, 3)
h = c = torch.zeros(2, 4)
outs = []
for t in range(xs.shape[0]):
    h, c = cell(xs[t], (h, c))
    outs.append(h)
y = torch.stack(outs, 1)[:, ::2].flatten(1)
loss = y.pow(2).mean()
fn = loss.grad_fn
for _ in range(8):
    vals = {k[7:]: getattr(fn, k) for k in dir(fn) if k.startswith("_saved_")}
    print(fn.name(), {k: (tuple(v.shape) if hasattr(v, "shape") else v) for k, v in vals.items()})
    fn = fn.next_functions[0][0]
loss.backward()
print(round(loss.item(), 5), round(cell.lin.weight.grad.norm().item(), 4))
gates = cell.lin(torch.cat([xs[0], torch.zeros(2, 4)], -1))
for part in (gates[:, 4:8], gates[:, 12:], gates[1:, ::3], gates.narrow(1, -8, 4)):
    print(part.grad_fn.name(), part.grad_fn._saved_dim, part.grad_fn._saved_start, part.grad_fn._saved_end, part.grad_fn._saved_step)
''',
    'unet_graph_layer_arguments': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 8, padding_idx=0)
        self.down = nn.Conv2d(1, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.mid = nn.Conv2d(4, 4, 3)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.out = nn.Conv2d(8, 1, 1)
    def forward(self, x, label):
        h1 = F.relu(self.down(x))
        h = F.pad(F.relu(self.mid(self.pool(h1))), (1, 1, 1, 1))
        h = self.up(h) + self.emb(label)[:, :4, None, None]
        h = torch.cat([h, F.avg_pool2d(h1, 3, stride=1, padding=1, count_include_pad=False)], 1)
        return self.out(h)
net = TinyUNet()
x = torch.randn(2, 1, 8, 8); label = torch.tensor([1, 0])
loss = F.mse_loss(net(x, label), x)
seen = set()
def walk(fn, depth=0):
    if fn is None or fn in seen or depth > 14:
        return
    seen.add(fn)
    vals = {k[7:]: getattr(fn, k) for k in dir(fn) if k.startswith("_saved_")}
    print("  " * depth + fn.name(), {k: (tuple(v.shape) if hasattr(v, "shape") else v) for k, v in vals.items()})
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)
walk(loss.grad_fn)
loss.backward()
print(round(loss.item(), 5), net.emb.weight.grad[0].abs().sum().item(), round(net.down.weight.grad.norm().item(), 4))
''',
    'norm_layers_saved_statistics': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(2, 6, 3), nn.BatchNorm2d(6), nn.ReLU(), nn.GroupNorm(3, 6),
                    nn.Flatten(), nn.LayerNorm(6 * 4 * 4), nn.Linear(96, 2))
x = torch.randn(4, 2, 6, 6)
def show(fn):
    vals = {k[7:]: getattr(fn, k) for k in dir(fn) if k.startswith("_saved_")}
    return {k: (tuple(v.shape) if hasattr(v, "shape") else v) for k, v in vals.items()}
for mode in ("train", "eval"):
    getattr(net, mode)()
    out = net(x)
    fn = out.grad_fn
    while fn is not None:
        if "Norm" in fn.name():
            print(mode, fn.name(), show(fn))
        fn = next((f for f, _ in fn.next_functions if f is not None and f.name() != "torch::autograd::AccumulateGrad"), None)
    out.pow(2).mean().backward()
net.train()
bn_node = net[1](net[0](x)).grad_fn
print(torch.allclose(bn_node._saved_result1, net[0](x).mean((0, 2, 3)), atol=1e-6), bn_node._saved_running_var is net[1].running_var)
print([round(p.grad.norm().item(), 3) for p in net[1].parameters()], net[1].num_batches_tracked)
''',
    'mutation_on_saved_tensors': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
w = torch.randn(4, 4, requires_grad=True)
def step(x, inplace_ok):
    h = x @ w
    y = h.tanh()
    loss = (y * h).sum()
    h.mul_(0.5)              # reuse h's memory for the next stage
    y.relu_()
    return loss + y.sum()
x = torch.randn(3, 4)
try:
    step(x, False).backward()
except Exception as e:
    print(type(e).__name__, str(e)[:120])
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    out = step(x, True)
    out.backward()
    print(type(ctx).__name__, round(out.item(), 4), round(w.grad.norm().item(), 4))
w.grad = None
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    out = step(x, True)
try:
    out.backward()
except Exception as e:
    print(type(e).__name__, e)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    try:
        with torch.autograd.graph.disable_saved_tensors_hooks("this code cannot take saved tensor hooks"):
            pass
    except Exception as e:
        print(type(e).__name__, e)
''',
    'vmap_ensemble_accumulator': r'''
nn = torch.nn; F = torch.nn.functional
vmap, functional_call = torch.func.vmap, torch.func.functional_call
torch.manual_seed(0)
models = [nn.Linear(3, 2) for _ in range(4)]
params, buffers = torch.func.stack_module_state(models)
base = nn.Linear(3, 2)
x = torch.randn(5, 3)
running = torch.zeros(5, 2)
def predict(p, b, x):
    out = functional_call(base, (p, b), (x,))
    running.add_(out)                      # a mistake: accumulate across ensemble members
    return out
try:
    vmap(predict, in_dims=(0, 0, None))(params, buffers, x)
except Exception as e:
    print(type(e).__name__, e)
def predict2(p, b, x):
    out = functional_call(base, (p, b), (x,))
    running.copy_(out)
    return out
try:
    vmap(predict2, in_dims=(0, 0, None))(params, buffers, x)
except Exception as e:
    print(type(e).__name__, e)
outs = vmap(lambda p, b, x: functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x)
running += outs.sum(0)
print(outs.shape, running.shape, torch.allclose(outs[2], models[2](x)))
scores = vmap(lambda o: o.clone().clamp_(min=0).sum())(outs)
print(scores.shape, scores.dtype)
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
