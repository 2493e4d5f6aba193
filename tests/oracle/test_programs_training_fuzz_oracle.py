"""Whole training programs from a seeded fuzzer, run under real torch and under ember
(`import ember as torch`): what each prints, including an exception's type and first line, must
be identical.

The fuzzer wrote programs of the kind tutorials show: a model from random pieces (Sequential or
custom Modules; Linear, Conv1d/2d, BatchNorm, LayerNorm, GroupNorm, Dropout, Embedding,
EmbeddingBag, LSTM/GRU/RNN, MultiheadAttention, Transformer encoders, pooling, residual blocks,
shared and tied weights, buffers, parametrizations, hooks), data from randn/randint or a
TensorDataset and DataLoader, a loss, an optimizer with param groups or frozen parameters, a
scheduler, clipping, gradient accumulation, train/eval switches, accuracy under no_grad, EMA
copies, state_dict and optimizer round trips through BytesIO; recipes (GAN, WGAN-GP, VAE,
contrastive, distillation, mixup, char-RNN sampling, negative sampling, packed sequences,
seq2seq with attention, transformer generation with top-k/top-p, beam search, autoencoders,
SWA, LBFGS, sparse embeddings, autocast); and user mistakes (shape and dtype errors, bad
optimizer and scheduler arguments, state_dict mismatches) with their exceptions and warnings.

Floats print rounded to 4 significant digits. In about 12000 programs every difference that
survived rounding was rounding noise that training amplifies, or one of the bugs below (the
first programs, fixed). The noise: a bias in front of a BatchNorm has a zero gradient in exact
arithmetic, and Adam, RMSprop and Rprop turn torch's and ember's different last bits into
steps of the learning rate; GroupNorm of one element divides torch's rounding residue by
sqrt(eps); these vanish when the program runs in float64. Weights initialised to one constant
make ties whose breaking (Rprop's signs) differs even in float64.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    # clip_grad_value_ before any backward raises torch's error of an empty gradient list;
    # clip_grad_norm_ of a generator the optimizer used up warns; an optimizer refusing a
    # Module names its class as torch.nn.modules....
    'clip_mistakes': r'''\
import warnings
nn = torch.nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
params = model.parameters()
opt = torch.optim.SGD(params, lr=0.1)       # (the generator is used up here)
X, Y = torch.randn(6, 3), torch.randint(0, 2, (6,))
try:
    nn.utils.clip_grad_value_(model.parameters(), 0.5)
except RuntimeError as e:
    print("before backward:", type(e).__name__, e)
for step in range(2):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X), Y)
    loss.backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        total = nn.utils.clip_grad_norm_(params, 0.1)
    print(step, total, [str(w.message) for w in caught])
    print(f"{nn.utils.clip_grad_norm_(model.parameters(), 0.1).item():.4f}")
    nn.utils.clip_grad_value_(model.parameters(), 0.01)
    print(f"{max(p.grad.abs().max().item() for p in model.parameters()):.4f}")
    opt.step()
try:
    torch.optim.Adam(model, lr=0.1)
except TypeError as e:
    print(e)
try:
    torch.optim.SGD([model[0], model[2]], lr=0.1)
except TypeError as e:
    print(e)
''',
    # float() (and complex()) of a tensor that requires grad: torch warns (once per process;
    # every time under set_warn_always(True)); int() and item() do not
    'float_loss_warning': r'''\
import warnings
nn = torch.nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X, Y = torch.randn(8, 3), torch.randn(8, 1)
torch.set_warn_always(True)     # (torch warns once per process otherwise)
try:
    history = []
    for step in range(3):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(X), Y)
        loss.backward()
        opt.step()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            history.append(round(float(loss), 4))
            steps = int(torch.tensor(step + 1.0, requires_grad=True))
        print(step, history[-1], steps, [str(w.message).split("\n")[0] for w in caught])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(round(float(loss.detach()), 4), round(loss.item(), 4), len(caught))
finally:
    torch.set_warn_always(False)
''',
    # det of a singular matrix raised LinAlgError in backward; BCE's target gradient was
    # clamped; dist with p < 1 gave NaN where the difference is 0
    'gradients_at_special_points': r'''\
nn = torch.nn
F = nn.functional
torch.manual_seed(0)
# a volume term on a batch of 2x2 maps, one of them degenerate
maps = torch.tensor([[[1., 2.], [3., 4.]], [[1., 1.], [1., 1.]], [[0., 0.], [0., 0.]]],
                    requires_grad=True)
torch.linalg.det(maps).abs().sum().backward()
print(maps.grad)
# distillation with a learnable soft target: BCE's gradient reaches the target
student = torch.tensor([0.0, 0.25, 0.5, 1.0], dtype=torch.float64, requires_grad=True)
teacher = torch.tensor([0.1, 0.25, 0.9, 1.0], dtype=torch.float64, requires_grad=True)
F.binary_cross_entropy(student, teacher).backward()
print(student.grad, teacher.grad)
# a sparsity penalty with a p < 1 distance between nearly equal embeddings
u = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
v = torch.tensor([1.0, 2.5, 3.0, 3.0], requires_grad=True)
torch.dist(u, v, 0.5).backward()
print(u.grad, v.grad)
# clamp to learnable bounds that meet, and xlog1py at zero inputs
x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
lo = torch.tensor([0.0, 1.0, 1.0], requires_grad=True)
hi = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
torch.clamp(x, lo, hi).backward(torch.tensor([1.0, 2.0, 3.0]))
print(x.grad, lo.grad, hi.grad)
p = torch.tensor([0.0, 0.0, 2.0], requires_grad=True)
torch.special.xlog1py(p, torch.tensor([1.0, -1.0, 3.0])).sum().backward()
print(p.grad)
''',
    # hardswish/hardsigmoid multiplied the gradient by a zero slope outside their ramp:
    # NaN for an infinite gradient, -0.0 for a negative one
    'hard_activations_inf_grad': r'''\
nn = torch.nn
torch.manual_seed(0)
# a MobileNetV3-style squeeze-excitation gate: hardsigmoid(fc(hardswish(x)))
block = nn.Sequential(nn.Linear(4, 4), nn.Hardswish(), nn.Linear(4, 4), nn.Hardsigmoid())
x = torch.randn(3, 4) * 4
gate = block(x)
print(gate)
gate.backward(torch.full_like(gate, float("inf")))      # an overflowed upstream gradient
print(block[0].weight.grad)
print(block[2].bias.grad)
z = torch.tensor([-5.0, -3.0, -1.0, 0.0, 3.0, 6.0], requires_grad=True)
for f in (nn.functional.hardswish, nn.functional.hardsigmoid):
    z.grad = None
    f(z).backward(torch.full((6,), -2.0))
    print(z.grad)
''',
    # max/min/median/kthvalue/mode sent gradient * mask to their input: an infinite
    # gradient made NaN (0 * inf) everywhere; torch scatters it into zeros
    'inf_grad_through_max': r'''\
import warnings
nn = torch.nn
F = nn.functional
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(5, 3)
# a careless loss: log(out - out.max()) is -inf at the max and NaN elsewhere
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        with torch.autograd.detect_anomaly():
            out = model(x)
            torch.log(out - out.max()).sum().backward()
    except RuntimeError as e:
        print(type(e).__name__, e)
# the gradient of a picked value goes to the picked elements only, even when it is infinite
w = torch.tensor([[1., 5., 3.], [4., 2., 4.]], requires_grad=True)
for pick in (lambda t: t.max(), lambda t: t.min(1).values, lambda t: t.median(),
             lambda t: t.kthvalue(2, 0).values, lambda t: t.mode(1).values):
    w.grad = None
    y = pick(w)
    y.backward(torch.full_like(y, float("inf")))
    print(w.grad)
g, = torch.autograd.grad(w.max(1).values.pow(2).sum(), w, create_graph=True)
print(g, g.grad_fn.name())
''',
    # saving a scheduler holding a local function: the pure-Python pickler's module search
    # met torch._classes' raising __getattr__ before it saw a local object
    'lambda_save': r'''\
import io
nn = torch.nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def warmup(total):
    return lambda epoch: min(1.0, (epoch + 1) / total)
sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup(3))
for epoch in range(3):
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr())
buf = io.BytesIO()
try:
    torch.save(sched, buf)
except Exception as e:
    print(type(e).__name__, e)
buf = io.BytesIO()
torch.save(sched.state_dict(), buf)
buf.seek(0)
state = torch.load(buf, weights_only=False)
print(sorted(state), state["lr_lambdas"], state["last_epoch"])
''',
    # nn.init on a lazy module's parameter before its first call: torch's error names the init
    # function (uniform_, normal_, constant_, kaiming_uniform_) or `dim` (eye_, orthogonal_, ...)
    'lazy_init': r'''\
nn = torch.nn
torch.manual_seed(0)
model = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 2))
print(model)
inits = [nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.xavier_uniform_,
         nn.init.orthogonal_, nn.init.normal_, nn.init.uniform_, nn.init.trunc_normal_,
         nn.init.zeros_, nn.init.ones_, lambda w: nn.init.constant_(w, 0.1), nn.init.eye_]
for fn in inits:
    try:
        fn(model[0].weight)
        print("ok")
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, str(e)[:100])
print(model[0].weight.is_meta, model[0].weight.dtype)
model(torch.randn(4, 5))
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_uniform_(m.weight, nonlinearity="relu")
        nn.init.zeros_(m.bias)
model.apply(init)
print(model)
print(model[0].weight.shape, f"{model[0].weight.abs().max().item():.4f}")
''',
    # LBFGS takes float() of the closure's loss inside its no_grad step: no warning
    'lbfgs_no_warning': r'''\
import warnings
nn = torch.nn
torch.manual_seed(3)
model = nn.Linear(3, 1)
X, Y = torch.randn(10, 3), torch.randn(10, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=4, history_size=3,
                        line_search_fn="strong_wolfe")
evals = []
def closure():
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    evals.append(round(loss.item(), 4))
    return loss
torch.set_warn_always(True)
try:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in range(2):
            loss = opt.step(closure)
            print(step, round(loss.item(), 4), loss.requires_grad)
    print(len(evals), evals[:3], [str(w.message).split("\n")[0] for w in caught])
    state = opt.state[next(iter(opt.state))]
    print(state["func_evals"], state["n_iter"])
finally:
    torch.set_warn_always(False)
''',
    # torch.load of a file that is no pickle at all: torch lets its unpickler's own error
    # through (ember said 'Invalid magic number; corrupt file?')
    'load_text': r'''\
import io
nn = torch.nn
model = nn.Linear(2, 2)
f = io.BytesIO(b"epoch 3, loss 0.25\n")
try:
    model.load_state_dict(torch.load(f))
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
f.seek(0)
try:
    torch.load(f, weights_only=False)
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
''',
    # layers kept in a plain list and a tensor attribute are not registered; Module.to(a
    # complex dtype) warns that complex modules are a new feature
    'module_mistakes': r'''\
import warnings
nn = torch.nn
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(3, 4), nn.Linear(4, 2)]    # a list: not registered
        self.w = torch.randn(2, 2, requires_grad=True)      # a tensor: not a parameter

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x @ self.w

m = Net()
print(m)
print(len(list(m.parameters())), list(m.state_dict()))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    c = nn.Sequential(nn.Linear(3, 2)).to(torch.complex64)
    print(c[0].weight.dtype, [str(w.message)[:60] for w in caught])
try:
    nn.Sequential(nn.Linear(3, 2)).to(torch.int64)
except TypeError as e:
    print(e)
''',
    # pad_sequence of Python lists, and of sequences whose trailing shapes do not match
    'pad_sequence_mistakes': r'''\
nn = torch.nn
torch.manual_seed(0)
sentences = [[3, 1, 4], [1, 5], [9, 2, 6, 5]]
try:
    nn.utils.rnn.pad_sequence(sentences, batch_first=True)
except TypeError as e:
    print(type(e).__name__, e)
seqs = [torch.tensor(s) for s in sentences]
batch = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0)
print(batch)
features = [torch.randn(len(s), 4) for s in sentences]
features[1] = torch.randn(2, 4, 1)          # one sequence with an extra dim
for batch_first in (True, False):
    try:
        nn.utils.rnn.pad_sequence(features, batch_first=batch_first)
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    nn.utils.rnn.pad_sequence([torch.ones(2), torch.ones(3, 1)])
except RuntimeError as e:
    print(type(e).__name__, e)
lengths = torch.tensor([len(s) for s in sentences])
emb = nn.Embedding(10, 3, padding_idx=0)
packed = nn.utils.rnn.pack_padded_sequence(emb(batch), lengths, batch_first=True,
                                           enforce_sorted=False)
out, h = nn.GRU(3, 2, batch_first=True)(packed)
print(packed.batch_sizes, h.shape)
''',
    # SGD with momentum and weight decay kept a NumPy scalar as the momentum buffer of a
    # 0-d parameter: saving the optimizer's state failed (AssertionError about CUDA)
    'sgd_scalar': r'''\
import io
nn = torch.nn
torch.manual_seed(0)

class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.scale = nn.Parameter(torch.tensor(1.0))

    def forward(self, x):
        return self.lin(x) * self.scale

model = Scaled()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
x, y = torch.randn(4, 3), torch.randn(4, 2)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", f"{model.scale.item():.4f}")
buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'opt': opt.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
print(sorted(ck['opt']['state']), ck['opt']['state'][2]['momentum_buffer'].shape)
opt2 = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
opt2.load_state_dict(ck['opt'])
print(opt2.state[model.scale]['momentum_buffer'].dtype)
''',
    # the same with maximize=True (the negated gradient)
    'sgd_scalar_maximize': r'''\
import io
nn = torch.nn
torch.manual_seed(1)
temperature = nn.Parameter(torch.tensor(2.0))
w = nn.Parameter(torch.randn(3))
opt = torch.optim.SGD([w, temperature], lr=0.05, momentum=0.5, maximize=True)
x = torch.randn(5, 3)
for step in range(3):
    opt.zero_grad()
    score = torch.log_softmax(x @ w / temperature, 0).max()
    score.backward()
    opt.step()
    print(step, f"{score.item():.4f}", f"{temperature.item():.4f}")
buf = io.BytesIO()
torch.save(opt.state_dict(), buf)
buf.seek(0)
state = torch.load(buf)["state"]
print({k: tuple(v["momentum_buffer"].shape) for k, v in state.items()})
print(f"{state[1]['momentum_buffer'].item():.4f}")
''',
    'fuzz_a2000': r'''\
torch.manual_seed(2000)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv1d(1, 2, 2, padding=1, bias=True), nn.ELU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(2, 1))
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(6, 1, 8)
Y = torch.randn(6, 1)
loss_fn = nn.MSELoss()
ps = list(model.parameters())
opt = torch.optim.RMSprop([{'params': ps[:2], 'lr': 0.001}, {'params': ps[2:]}], lr=0.01, centered=True, alpha=0.9)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2, eta_min=0.001)
for step in range(2):
    model.train()
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, Y)
    loss.backward()
    opt.step()
    sched.step()
    print('loss', r(loss.item()))
    print('lr', [r(g['lr']) for g in opt.param_groups])
    print('p', r(sum(p.detach().norm() for p in model.parameters())))
model.eval()
with torch.no_grad():
    out = model(X)
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = nn.Sequential(nn.Conv1d(1, 2, 2, padding=1, bias=True), nn.ELU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(2, 1))
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
sd = opt.state_dict()
print(sorted(sd.keys()), len(sd['state']), [sorted(k for k in g if k != 'params') for g in sd['param_groups']])
st = sd['state'][len(sd['state']) - 1] if sd['state'] else {}
print(sorted(st.keys()), [r(v) if hasattr(v, 'shape') else v for k, v in sorted(st.items()) if k in ('step',)])
opt2 = torch.optim.RMSprop(model.parameters(), lr=0.01, centered=True, alpha=0.9)
try:
    opt2.load_state_dict(sd)
    print('loaded', opt2.state_dict()['param_groups'][0]['lr'])
except Exception as e:
    print(type(e).__name__, str(e)[:80])
''',
    'fuzz_a2003': r'''\
torch.manual_seed(2003)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv2d(1, 3, 3, stride=2, padding=0, bias=False), nn.GroupNorm(1, 3), nn.Hardtanh(), nn.Flatten(), nn.Linear(3, 2))
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(4, 1, 4, 4)
Y = torch.randn(4, 2)
loss_fn = nn.SmoothL1Loss(beta=0.5)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e)
for step in range(3):
    model.train()
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, Y)
    loss.backward()
    opt.step()
    sched.step()
    print('p', r(sum(p.detach().norm() for p in model.parameters())))
    print('gsum', [r(p.grad.abs().sum()) if p.grad is not None else None for p in model.parameters()])
model.eval()
with torch.no_grad():
    out = model(X)
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = nn.Sequential(nn.Conv2d(1, 3, 3, stride=2, padding=0, bias=False), nn.GroupNorm(1, 3), nn.Hardtanh(), nn.Flatten(), nn.Linear(3, 2))
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
''',
    'fuzz_a2007': r'''\
torch.manual_seed(2007)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv1d(1, 2, 2, padding=1, bias=False), nn.BatchNorm1d(2), nn.Hardtanh(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(2, 3))
print(model)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(4, 1, 5)
Y = torch.randint(0, 2, (4, 3)).float()
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)
ds = torch.utils.data.TensorDataset(X, Y)
dl = torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True, drop_last=True)
for epoch in range(2):
    model.train()
    tot = 0.0
    for xb, yb in dl:
        opt.zero_grad()
        out = model(xb)
        loss = loss_fn(out, yb)
        loss.backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), 0.05)
        opt.step()
        print(loss)
        print('p', r(sum(p.detach().norm() for p in model.parameters())))
        tot += loss.item()
    print('epoch', epoch, r(tot))
model.eval()
with torch.no_grad():
    out = model(X)
    print('eval', r(out[:2]))
''',
    'fuzz_a2010': r'''\
torch.manual_seed(2010)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv1d(3, 2, 2, padding=0, bias=True), nn.LeakyReLU(0.1), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(2, 3))
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(4, 3, 8)
Y = torch.randint(0, 3, (4,))
loss_fn = nn.CrossEntropyLoss(weight=torch.tensor([1.43, 1.24, 1.68]), reduction='mean')
opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=7)
for step in range(5):
    model.train()
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, Y)
    loss.backward()
    opt.step()
    sched.step()
    print('gsum', [r(p.grad.abs().sum()) if p.grad is not None else None for p in model.parameters()])
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = nn.Sequential(nn.Conv1d(3, 2, 2, padding=0, bias=True), nn.LeakyReLU(0.1), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(2, 3))
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
print(sorted(sched.state_dict().keys())[:8])
print([r(v) for v in sched.get_last_lr()])
''',
    'fuzz_a2013': r'''\
torch.manual_seed(2013)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv1d(3, 4, 2, padding=1, bias=False), nn.BatchNorm1d(4), nn.Tanh(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(4, 2))
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(6, 3, 8)
Y = torch.randn(6, 2)
loss_fn = nn.MSELoss(reduction='sum')
first = next(model.parameters())
first.requires_grad_(False)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
opt = torch.optim.RAdam([p for p in model.parameters() if p.requires_grad], lr=0.01)
for step in range(2):
    model.train()
    opt.zero_grad()
    for xs, ys in zip(X.chunk(2), Y.chunk(2)):
        loss = loss_fn(model(xs), ys) / 2
        loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    print('gn', r(gn))
    opt.step()
    print('lr', [r(g['lr']) for g in opt.param_groups])
model.eval()
with torch.no_grad():
    out = model(X)
    print('eval', r(out[:2]))
''',
    'fuzz_a2016': r'''\
torch.manual_seed(2016)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.attn = nn.MultiheadAttention(4, 1, batch_first=True, dropout=0.1)
        self.norm = nn.LayerNorm(4)
        self.head = nn.Linear(4, 2)
    def forward(self, x):
        h = self.emb(x)
        T = x.shape[1]
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        a, _ = self.attn(h, h, h, attn_mask=mask)
        h = self.norm(h + a)
        h = h.amax(1)
        return self.head(h)
model = Net()
print(model)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randint(0, 10, (8, 3))
Y = torch.randint(0, 2, (8,))
loss_fn = nn.CrossEntropyLoss(weight=torch.tensor([1.24, 1.89]), reduction='sum')
first = next(model.parameters())
first.requires_grad_(False)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
opt = torch.optim.NAdam([p for p in model.parameters() if p.requires_grad], lr=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=7)
ds = torch.utils.data.TensorDataset(X, Y)
dl = torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True, drop_last=False)
for epoch in range(3):
    model.train()
    tot = 0.0
    for xb, yb in dl:
        opt.zero_grad()
        out = model(xb)
        loss = loss_fn(out, yb)
        loss.backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), 0.05)
        opt.step()
        print(loss)
        print('gsum', [r(p.grad.abs().sum()) if p.grad is not None else None for p in model.parameters()])
        tot += loss.item()
    print('epoch', epoch, r(tot))
    sched.step()
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = Net()
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
''',
    'fuzz_a2019': r'''\
torch.manual_seed(2019)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv1d(1, 4, 3, padding=1, bias=True), nn.Softplus(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(4, 2))
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(4, 1, 8)
Y = torch.randint(0, 2, (4,))
loss_fn = nn.CrossEntropyLoss(label_smoothing=0.2)
first = next(model.parameters())
first.requires_grad_(False)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=0.01, amsgrad=True, betas=(0.8, 0.99))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e)
ds = torch.utils.data.TensorDataset(X, Y)
dl = torch.utils.data.DataLoader(ds, batch_size=2, shuffle=True, drop_last=True)
for epoch in range(3):
    model.train()
    tot = 0.0
    for xb, yb in dl:
        opt.zero_grad(set_to_none=False)
        out = model(xb)
        loss = loss_fn(out, yb)
        loss.backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), 0.05)
        opt.step()
        print('lr', [r(g['lr']) for g in opt.param_groups])
        tot += loss.item()
    print('epoch', epoch, r(tot))
    sched.step()
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
''',
    'fuzz_a2022': r'''\
torch.manual_seed(2022)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv1d(1, 4, 2, padding=1, bias=True), nn.LeakyReLU(0.1), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(4, 3))
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(8, 1, 8)
Y = torch.randint(0, 2, (8, 3)).float()
loss_fn = nn.BCELoss()
opt = torch.optim.RAdam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=6)
ds = torch.utils.data.TensorDataset(X, Y)
dl = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=False, drop_last=False)
for epoch in range(3):
    model.train()
    tot = 0.0
    for xb, yb in dl:
        opt.zero_grad()
        out = model(xb)
        loss = loss_fn(torch.sigmoid(out), yb)
        loss.backward()
        opt.step()
        print('lr', [r(g['lr']) for g in opt.param_groups])
        tot += loss.item()
    print('epoch', epoch, r(tot))
    sched.step()
model.eval()
with torch.no_grad():
    out = model(X)
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = nn.Sequential(nn.Conv1d(1, 4, 2, padding=1, bias=True), nn.LeakyReLU(0.1), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(4, 3))
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
sd = opt.state_dict()
print(sorted(sd.keys()), len(sd['state']), [sorted(k for k in g if k != 'params') for g in sd['param_groups']])
st = sd['state'][len(sd['state']) - 1] if sd['state'] else {}
print(sorted(st.keys()), [r(v) if hasattr(v, 'shape') else v for k, v in sorted(st.items()) if k in ('step',)])
opt2 = torch.optim.RAdam(model.parameters(), lr=0.01)
try:
    opt2.load_state_dict(sd)
    print('loaded', opt2.state_dict()['param_groups'][0]['lr'])
except Exception as e:
    print(type(e).__name__, str(e)[:80])
print(sorted(sched.state_dict().keys())[:8])
print([r(v) for v in sched.get_last_lr()])
''',
    'fuzz_a2025': r'''\
torch.manual_seed(2025)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6, padding_idx=0)
        self.enc = nn.TransformerEncoderLayer(6, 2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True, activation='relu')
        self.head = nn.Linear(6, 3)
    def forward(self, x):
        h = self.emb(x)
        h = self.enc(h)
        h = h[:, -1]
        return self.head(h)
model = Net()
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randint(0, 10, (8, 3))
Y = torch.randint(0, 3, (8,))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.Adamax(model.parameters(), lr=0.02)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
for step in range(2):
    model.train()
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, Y)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    print('gn', r(gn))
    print('g', r(sum(p.grad.norm() ** 2 for p in model.parameters() if p.grad is not None)))
    opt.step()
    sched.step()
    print('loss', r(loss.item()))
    print('lr', [r(g['lr']) for g in opt.param_groups])
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = Net()
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
''',
    'fuzz_a2029': r'''\
torch.manual_seed(2029)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Conv1d(3, 4, 3, padding=1, bias=True), nn.SELU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(4, 2))
print(model)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(8, 3, 5)
Y = torch.randint(0, 2, (8,))
loss_fn = nn.NLLLoss()
opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.01)
for step in range(5):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = loss_fn(F.log_softmax(out, dim=-1), Y)
    loss.backward()
    print('g', r(sum(p.grad.norm() ** 2 for p in model.parameters() if p.grad is not None)))
    opt.step()
    print('p', r(sum(p.detach().norm() for p in model.parameters())))
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
sd = opt.state_dict()
print(sorted(sd.keys()), len(sd['state']), [sorted(k for k in g if k != 'params') for g in sd['param_groups']])
st = sd['state'][len(sd['state']) - 1] if sd['state'] else {}
print(sorted(st.keys()), [r(v) if hasattr(v, 'shape') else v for k, v in sorted(st.items()) if k in ('step',)])
opt2 = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.01)
try:
    opt2.load_state_dict(sd)
    print('loaded', opt2.state_dict()['param_groups'][0]['lr'])
except Exception as e:
    print(type(e).__name__, str(e)[:80])
''',
    'fuzz_a2032': r'''\
torch.manual_seed(2032)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.BatchNorm1d(d)
        self.lin = nn.Linear(d, d)
        self.act = nn.ReLU()
    def forward(self, x):
        return x + self.act(self.lin(self.norm(x)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(3, 4, bias=False)
        self.blocks = nn.ModuleList([Block(4) for _ in range(1)])
        self.out = nn.Linear(4, 1)
    def forward(self, x):
        x = self.inp(x)
        for b in self.blocks:
            x = b(x)
        return self.out(x)
model = Net()
print(model)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(4, 3)
Y = torch.randn(4, 1)
loss_fn = nn.L1Loss()
ps = list(model.parameters())
opt = torch.optim.RMSprop([{'params': ps[:2], 'lr': 0.001}, {'params': ps[2:]}], lr=0.01, centered=True, alpha=0.9)
sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=3)
ds = torch.utils.data.TensorDataset(X, Y)
dl = torch.utils.data.DataLoader(ds, batch_size=3, shuffle=False, drop_last=True)
for epoch in range(3):
    model.train()
    tot = 0.0
    for xb, yb in dl:
        opt.zero_grad()
        out = model(xb)
        loss = loss_fn(out, yb)
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        print('gn', r(gn))
        opt.step()
        print('p', r(sum(p.detach().norm() for p in model.parameters())))
        tot += loss.item()
    print('epoch', epoch, r(tot))
    sched.step()
model.eval()
with torch.no_grad():
    out = model(X)
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = Net()
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
''',
    'fuzz_a2035': r'''\
torch.manual_seed(2035)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.lin = nn.Linear(d, d)
        self.act = nn.ELU()
    def forward(self, x):
        return x + self.act(self.lin(self.norm(x)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(5, 8, bias=True)
        self.blocks = nn.ModuleList([Block(8) for _ in range(1)])
        self.out = nn.Linear(8, 3)
    def forward(self, x):
        x = self.inp(x)
        for b in self.blocks:
            x = b(x)
        return self.out(x)
model = Net()
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(6, 5)
Y = torch.randint(0, 3, (6,))
loss_fn = nn.CrossEntropyLoss(label_smoothing=0.2)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01, centered=True, alpha=0.9)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
for step in range(3):
    model.train()
    opt.zero_grad()
    for xs, ys in zip(X.chunk(2), Y.chunk(2)):
        loss = loss_fn(model(xs), ys) / 2
        loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    print('gn', r(gn))
    opt.step()
    sched.step()
    print('loss', r(loss.item()))
    print('gsum', [r(p.grad.abs().sum()) if p.grad is not None else None for p in model.parameters()])
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
sd = opt.state_dict()
print(sorted(sd.keys()), len(sd['state']), [sorted(k for k in g if k != 'params') for g in sd['param_groups']])
st = sd['state'][len(sd['state']) - 1] if sd['state'] else {}
print(sorted(st.keys()), [r(v) if hasattr(v, 'shape') else v for k, v in sorted(st.items()) if k in ('step',)])
opt2 = torch.optim.RMSprop(model.parameters(), lr=0.01, centered=True, alpha=0.9)
try:
    opt2.load_state_dict(sd)
    print('loaded', opt2.state_dict()['param_groups'][0]['lr'])
except Exception as e:
    print(type(e).__name__, str(e)[:80])
''',
    'fuzz_a2038': r'''\
torch.manual_seed(2038)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
model = nn.Sequential(nn.Linear(3, 6), nn.Linear(6, 2))
print(model)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randn(4, 3)
Y = torch.randint(0, 2, (4,))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e)
for step in range(5):
    model.train()
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, Y)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    print('gn', r(gn))
    opt.step()
    sched.step()
    print('lr', [r(g['lr']) for g in opt.param_groups])
    print('p', r(sum(p.detach().norm() for p in model.parameters())))
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
sd = opt.state_dict()
print(sorted(sd.keys()), len(sd['state']), [sorted(k for k in g if k != 'params') for g in sd['param_groups']])
st = sd['state'][len(sd['state']) - 1] if sd['state'] else {}
print(sorted(st.keys()), [r(v) if hasattr(v, 'shape') else v for k, v in sorted(st.items()) if k in ('step',)])
opt2 = torch.optim.Adadelta(model.parameters(), lr=1.0)
try:
    opt2.load_state_dict(sd)
    print('loaded', opt2.state_dict()['param_groups'][0]['lr'])
except Exception as e:
    print(type(e).__name__, str(e)[:80])
''',
    'fuzz_a2042': r'''\
torch.manual_seed(2042)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(7, 8)
        self.attn = nn.MultiheadAttention(8, 1, batch_first=True, dropout=0.0)
        self.norm = nn.LayerNorm(8)
        self.head = nn.Linear(8, 7, bias=False)
        self.head.weight = self.emb.weight
    def forward(self, x):
        h = self.emb(x)
        a, _ = self.attn(h, h, h, need_weights=False)
        h = self.norm(h + a)
        return self.head(h)
model = Net()
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.randint(0, 7, (6, 5))
Y = torch.randint(0, 7, (6, 5))
loss_fn = nn.CrossEntropyLoss(ignore_index=0)
opt = torch.optim.RAdam(model.parameters(), lr=0.01)
for step in range(3):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = loss_fn(out.reshape(-1, 7), Y.reshape(-1))
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    print('gn', r(gn))
    opt.step()
    print(loss)
    print('p', r(sum(p.detach().norm() for p in model.parameters())))
    print('gsum', [r(p.grad.abs().sum()) if p.grad is not None else None for p in model.parameters()])
model.eval()
with torch.no_grad():
    out = model(X)
    acc = (out.argmax(-1) == Y).float().mean()
    print('acc', r(acc.item()))
    print('eval', r(out[:2]))
import io
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
torch.manual_seed(1)
model2 = Net()
print(model2.load_state_dict(torch.load(buf)))
model2.eval()
with torch.no_grad():
    print(torch.equal(model2(X), model(X)))
print(list(model.state_dict().keys())[:6])
''',
    'fuzz_b3000': r'''\
torch.manual_seed(3000)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 4, 5, 2
model = nn.Sequential(nn.utils.parametrizations.weight_norm(nn.Linear(D, 6)), nn.GELU(), nn.Linear(6, C))
print([n for n, _ in model.named_parameters()])
X = torch.randn(B, D)
loss_fn = nn.BCELoss(weight=torch.rand(C))
Y = (torch.rand(B, C),)
def crit(out, y):
    l = loss_fn(torch.sigmoid(out), *y)
    return l.mean() if l.dim() else l
print(model)
opt = torch.optim.RAdam([{'params': [p for n, p in model.named_parameters() if 'bias' not in n], 'weight_decay': 0.1}, {'params': [p for n, p in model.named_parameters() if 'bias' in n], 'weight_decay': 0.0}], lr=0.01, decoupled_weight_decay=True, weight_decay=0.01)
sched = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt, 0.5, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, 0.9)])
best = None
for step in range(4):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    opt.step()
    sched.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
opt.add_param_group({'params': [nn.Parameter(torch.ones(2))], 'lr': 0.5})
print(len(opt.param_groups), sorted(opt.param_groups[-1].keys()))
sd = opt.state_dict()
print(sd['param_groups'])
print({k: sorted(v.keys()) for k, v in sd['state'].items()})
''',
    'fuzz_b3003': r'''\
torch.manual_seed(3003)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 6, 3, 4
model = nn.Sequential(nn.utils.parametrizations.weight_norm(nn.Linear(D, 4)), nn.SELU(), nn.Linear(4, C))
print([n for n, _ in model.named_parameters()])
X = torch.randn(B, D)
loss_fn = nn.KLDivLoss(reduction='batchmean', log_target=True)
Y = (F.log_softmax(torch.randn(B, C), -1),)
def crit(out, y):
    l = loss_fn(F.log_softmax(out, -1), *y)
    return l.mean() if l.dim() else l
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, maximize=False, foreach=False)
sched = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt, 0.5, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, 0.9)])
best = None
for step in range(2):
    model.train()
    opt.zero_grad(set_to_none=True)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    print([None if p.grad is None else r(p.grad.norm()) for p in model.parameters()])
    opt.step()
    sched.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
print(opt)
for k, v in model.state_dict().items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
''',
    'fuzz_b3007': r'''\
torch.manual_seed(3007)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 6, 5, 4
model = nn.Sequential(nn.Unflatten(1, (1, D)), nn.ConvTranspose1d(1, 2, 3, stride=2), nn.Sigmoid(), nn.Upsample(scale_factor=2), nn.Flatten(), nn.LazyLinear(C))
X = torch.randn(B, D)
loss_fn = nn.CosineEmbeddingLoss(margin=0.1)
Y = (torch.randint(0, 2, (B,)) * 2 - 1,)
def crit(out, y):
    l = loss_fn(out, torch.randn(B, C), *y)
    return l.mean() if l.dim() else l
with torch.no_grad():
    model(X)
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adadelta(model.parameters(), lr=0.5, rho=0.8)
sched = torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.95)
best = None
for step in range(2):
    model.train()
    opt.zero_grad(set_to_none=True)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    opt.step()
    sched.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
print(opt)
opt.add_param_group({'params': [nn.Parameter(torch.ones(2))], 'lr': 0.5})
print(len(opt.param_groups), sorted(opt.param_groups[-1].keys()))
''',
    'fuzz_b3011': r'''\
torch.manual_seed(3011)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 4, 3, 4
shared = nn.Linear(4, 4)
model = nn.Sequential(nn.Linear(D, 4), shared, nn.LeakyReLU(0.1), shared, nn.Linear(4, C))
print(len(list(model.parameters())), len(list(model.named_parameters(remove_duplicate=False))), len(model.state_dict()))
def init_fn(m):
    if isinstance(m, nn.Linear):
        nn.init.sparse_(m.weight, 0.5)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
model.apply(init_fn)
X = torch.randn(B, D)
loss_fn = nn.MultiLabelMarginLoss()
Y = (torch.tensor([[1, 0] + [-1] * (C - 2)] * B),)
def crit(out, y):
    l = loss_fn(out, *y)
    return l.mean() if l.dim() else l
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.SGD([{'params': [p for n, p in model.named_parameters() if 'bias' not in n], 'weight_decay': 0.1}, {'params': [p for n, p in model.named_parameters() if 'bias' in n], 'weight_decay': 0.0}], lr=0.05, momentum=0.9, maximize=False, foreach=False)
sched = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
best = None
for step in range(3):
    model.train()
    opt.zero_grad(set_to_none=True)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    print([None if p.grad is None else r(p.grad.norm()) for p in model.parameters()])
    opt.step()
    sched.step()
    with torch.no_grad():
        for pe, pm in zip(ema.parameters(), model.parameters()):
            pe.mul_(0.9).add_(pm, alpha=0.1)
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
with torch.no_grad():
    print('ema', r(ema(X)[:1]))
sd = sched.state_dict()
print(sorted(k for k in sd.keys()))
print({k: v for k, v in sd.items() if isinstance(v, (int, float, bool, str))})
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    o2 = torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1)
    s2 = torch.optim.lr_scheduler.StepLR(o2, 1)
    s2.step()
    print([str(x.message)[:90] for x in w])
''',
    'fuzz_b3015': r'''\
torch.manual_seed(3015)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 6, 3, 2
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 6, max_norm=1.0, scale_grad_by_freq=False)
        self.out = nn.Linear(6, C)
    def forward(self, x):
        return self.out(self.emb(x).sum(1))
model = Net()
X = torch.randint(0, 12, (B, 3))
loss_fn = nn.CrossEntropyLoss(weight=torch.rand(C), ignore_index=1, label_smoothing=0.1)
Y = (torch.randint(0, C, (B,)),)
def crit(out, y):
    l = loss_fn(out, *y)
    return l.mean() if l.dim() else l
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(model.parameters(), lr=0.02, amsgrad=True, weight_decay=0.05)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, epochs=2, steps_per_epoch=4, pct_start=0.5, div_factor=10.0)
best = None
for step in range(2):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    print('clip', r(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=1.0)))
    opt.step()
    sched.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
sd = sched.state_dict()
print(sorted(k for k in sd.keys()))
print({k: v for k, v in sd.items() if isinstance(v, (int, float, bool, str))})
for k, v in model.state_dict().items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
''',
    'fuzz_b3018': r'''\
torch.manual_seed(3018)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 6, 3, 3
model = nn.Sequential(nn.Linear(D, 8), nn.Unflatten(1, (2, 4)), nn.BatchNorm1d(2), nn.MaxPool1d(2), nn.Flatten(), nn.Linear(4, C))
def init_fn(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity='relu')
        if m.bias is not None:
            nn.init.zeros_(m.bias)
model.apply(init_fn)
X = torch.randn(B, D)
loss_fn = nn.CrossEntropyLoss()
Y = (F.softmax(torch.randn(B, C), -1),)
def crit(out, y):
    l = loss_fn(out, *y)
    return l.mean() if l.dim() else l
print(model)
opt = torch.optim.ASGD(model.parameters(), lr=0.05, t0=1)
best = None
for step in range(4):
    model.train()
    opt.zero_grad(set_to_none=True)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    opt.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
print(opt)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    o2 = torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1)
    s2 = torch.optim.lr_scheduler.StepLR(o2, 1)
    s2.step()
    print([str(x.message)[:90] for x in w])
''',
    'fuzz_b3021': r'''\
torch.manual_seed(3021)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 4, 3, 2
model = nn.Sequential(nn.utils.parametrizations.weight_norm(nn.Linear(D, 6)), nn.ReLU(), nn.Linear(6, C))
print([n for n, _ in model.named_parameters()])
def init_fn(m):
    if isinstance(m, nn.Linear):
        nn.init.trunc_normal_(m.weight, std=0.1)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
model.apply(init_fn)
X = torch.randn(B, D)
loss_fn = nn.CrossEntropyLoss(weight=torch.rand(C), ignore_index=1, label_smoothing=0.1)
Y = (torch.randint(0, C, (B,)),)
def crit(out, y):
    l = loss_fn(out, *y)
    return l.mean() if l.dim() else l
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam([{'params': [p for n, p in model.named_parameters() if 'bias' not in n], 'weight_decay': 0.1}, {'params': [p for n, p in model.named_parameters() if 'bias' in n], 'weight_decay': 0.0}], lr=0.01, betas=(0.5, 0.9), eps=1e-6, foreach=False)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.LinearLR(opt, 0.1, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, 0.8)], milestones=[2])
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
best = None
for step in range(4):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    print([None if p.grad is None else r(p.grad.norm()) for p in model.parameters()])
    opt.step()
    sched.step()
    with torch.no_grad():
        for pe, pm in zip(ema.parameters(), model.parameters()):
            pe.mul_(0.9).add_(pm, alpha=0.1)
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
with torch.no_grad():
    print('ema', r(ema(X)[:1]))
buf = io.BytesIO()
torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 3}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=False)
opt.load_state_dict(ck['opt'])
print(sorted(ck), ck['epoch'], opt.state_dict()['param_groups'][0]['lr'])
for k, v in model.state_dict().items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
''',
    'fuzz_b3024': r'''\
torch.manual_seed(3024)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 4, 3, 3
model = nn.Sequential(nn.Unflatten(1, (1, D)), nn.ConvTranspose1d(1, 2, 3, stride=2), nn.Mish(), nn.Upsample(scale_factor=2), nn.Flatten(), nn.LazyLinear(C))
X = torch.randn(B, D)
loss_fn = nn.CrossEntropyLoss(weight=torch.rand(C), ignore_index=1, label_smoothing=0.1)
Y = (torch.randint(0, C, (B,)),)
def crit(out, y):
    l = loss_fn(out, *y)
    return l.mean() if l.dim() else l
with torch.no_grad():
    model(X)
print(model)
opt = torch.optim.Adadelta(model.parameters(), lr=0.5, rho=0.8)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=1, T_mult=2, eta_min=1e-4)
best = None
for step in range(2):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    print('clip', r(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=2.0)))
    opt.step()
    sched.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
print(opt)
for k, v in model.state_dict().items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
''',
    'fuzz_b3027': r'''\
torch.manual_seed(3027)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 4, 5, 2
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(D, 4)
        self.dec = nn.Linear(4, D)
        self.dec.weight = nn.Parameter(self.enc.weight.t()) if False else self.dec.weight
        self.head = nn.Linear(D, C)
    def forward(self, x):
        z = torch.tanh(self.enc(x))
        rec = F.linear(z, self.enc.weight.t(), self.dec.bias)
        return self.head(rec)
model = Net()
X = torch.randn(B, D)
loss_fn = nn.MarginRankingLoss(margin=0.2)
Y = (torch.randint(0, 2, (B,)).float() * 2 - 1,)
def crit(out, y):
    l = loss_fn(out[:, 0], out[:, 1], *y)
    return l.mean() if l.dim() else l
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adamax(model.parameters(), lr=0.02, weight_decay=0.01)
sched = torch.optim.lr_scheduler.CyclicLR(opt, 0.001, 0.05, step_size_up=1, mode='triangular2', cycle_momentum=False)
best = None
for step in range(3):
    model.train()
    opt.zero_grad(set_to_none=True)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    opt.step()
    sched.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
sd = sched.state_dict()
print(sorted(k for k in sd.keys()))
print({k: v for k, v in sd.items() if isinstance(v, (int, float, bool, str))})
print(opt)
''',
    'fuzz_b3030': r'''\
torch.manual_seed(3030)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 4, 5, 4
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(D, 4)
        self.dec = nn.Linear(4, D)
        self.dec.weight = nn.Parameter(self.enc.weight.t()) if False else self.dec.weight
        self.head = nn.Linear(D, C)
    def forward(self, x):
        z = torch.tanh(self.enc(x))
        rec = F.linear(z, self.enc.weight.t(), self.dec.bias)
        return self.head(rec)
model = Net()
def init_fn(m):
    if isinstance(m, nn.Linear):
        nn.init.trunc_normal_(m.weight, std=0.1)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
model.apply(init_fn)
X = torch.randn(B, D)
loss_fn = nn.BCELoss(weight=torch.rand(C))
Y = (torch.rand(B, C),)
def crit(out, y):
    l = loss_fn(torch.sigmoid(out), *y)
    return l.mean() if l.dim() else l
print(model)
opt = torch.optim.RAdam(model.parameters(), lr=0.01, decoupled_weight_decay=True, weight_decay=0.01)
sched = torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.95)
best = None
for step in range(2):
    model.train()
    opt.zero_grad(set_to_none=True)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    opt.step()
    sched.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
sd = opt.state_dict()
print(sd['param_groups'])
print({k: sorted(v.keys()) for k, v in sd['state'].items()})
opt.add_param_group({'params': [nn.Parameter(torch.ones(2))], 'lr': 0.5})
print(len(opt.param_groups), sorted(opt.param_groups[-1].keys()))
''',
    'fuzz_b3033': r'''\
torch.manual_seed(3033)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 6, 3, 2
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(12, 6, mode='max')
        self.out = nn.Linear(6, C)
    def forward(self, x):
        return self.out(self.bag(x))
model = Net()
X = torch.randint(0, 12, (B, 3))
loss_fn = nn.KLDivLoss(reduction='batchmean', log_target=True)
Y = (F.log_softmax(torch.randn(B, C), -1),)
def crit(out, y):
    l = loss_fn(F.log_softmax(out, -1), *y)
    return l.mean() if l.dim() else l
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.Rprop(model.parameters(), lr=0.01, etas=(0.4, 1.3))
best = None
for step in range(4):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    print([None if p.grad is None else r(p.grad.norm()) for p in model.parameters()])
    opt.step()
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    o2 = torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1)
    s2 = torch.optim.lr_scheduler.StepLR(o2, 1)
    s2.step()
    print([str(x.message)[:90] for x in w])
opt.add_param_group({'params': [nn.Parameter(torch.ones(2))], 'lr': 0.5})
print(len(opt.param_groups), sorted(opt.param_groups[-1].keys()))
''',
    'fuzz_b3037': r'''\
torch.manual_seed(3037)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
import io, copy, warnings
B, D, C = 6, 3, 2
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.bil = nn.Bilinear(D, D, 6)
        self.out = nn.Linear(6, C)
    def forward(self, x):
        return self.out(F.relu(self.bil(x, x.flip(1))))
model = Net()
def init_fn(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
model.apply(init_fn)
X = torch.randn(B, D)
loss_fn = nn.KLDivLoss(reduction='batchmean')
Y = (F.softmax(torch.randn(B, C), -1),)
def crit(out, y):
    l = loss_fn(F.log_softmax(out, -1), *y)
    return l.mean() if l.dim() else l
print(model)
opt = torch.optim.Rprop([{'params': [p for n, p in model.named_parameters() if 'bias' not in n], 'weight_decay': 0.1}, {'params': [p for n, p in model.named_parameters() if 'bias' in n], 'weight_decay': 0.0}], lr=0.01, etas=(0.4, 1.3))
sched = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt, 0.5, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, 0.9)])
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
best = None
for step in range(3):
    model.train()
    opt.zero_grad(set_to_none=False)
    out = model(X)
    loss = crit(out, Y)
    loss.backward()
    print([None if p.grad is None else r(p.grad.norm()) for p in model.parameters()])
    opt.step()
    sched.step()
    with torch.no_grad():
        for pe, pm in zip(ema.parameters(), model.parameters()):
            pe.mul_(0.9).add_(pm, alpha=0.1)
    print(step, r(loss.item()), [r(g['lr']) for g in opt.param_groups])
    if best is None or loss.item() < best[0]:
        best = (loss.item(), copy.deepcopy(model.state_dict()))
model.load_state_dict(best[1])
model.eval()
with torch.no_grad():
    print(r(model(X)[:2]))
with torch.no_grad():
    print('ema', r(ema(X)[:1]))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    o2 = torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1)
    s2 = torch.optim.lr_scheduler.StepLR(o2, 1)
    s2.step()
    print([str(x.message)[:90] for x in w])
sd = sched.state_dict()
print(sorted(k for k in sd.keys()))
print({k: v for k, v in sd.items() if isinstance(v, (int, float, bool, str))})
''',
    'fuzz_c100': r'''\
torch.manual_seed(100)
nn = torch.nn
F = torch.nn.functional
import io, warnings
def attempt(label, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "ok", out if not isinstance(out, torch.Tensor) else (tuple(out.shape), out.dtype))
        except Exception as e:
            print(label, type(e).__name__, str(e).split("\n")[0])
        for x in w:
            print(label, "warn", x.category.__name__, str(x.message).split("\n")[0][:160])
model = nn.Linear(5, 6)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 5)
loss = model(x).pow(2).mean()
loss.backward()
attempt('sched', lambda: (lambda s: (s.step(), opt.step(), s.get_last_lr()))(torch.optim.lr_scheduler.StepLR(opt, 1)))
attempt(0, lambda: model(torch.randn(4, 5)).sum().item() and model(torch.randn(4, 5)).item())
attempt(1, lambda: opt.load_state_dict({'state': {}, 'param_groups': []}))
attempt(2, lambda: torch.randn(4, 5).reshape(-1, 7))
attempt(3, lambda: model.register_parameter('extra', torch.zeros(1)))
attempt(4, lambda: nn.TransformerEncoderLayer(6, 2, batch_first=True)(torch.randn(4, 3, 8)))
attempt(5, lambda: F.log_softmax(torch.randn(4, 2), dim=2))
''',
    'fuzz_c104': r'''\
torch.manual_seed(104)
nn = torch.nn
F = torch.nn.functional
import io, warnings
def attempt(label, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "ok", out if not isinstance(out, torch.Tensor) else (tuple(out.shape), out.dtype))
        except Exception as e:
            print(label, type(e).__name__, str(e).split("\n")[0])
        for x in w:
            print(label, "warn", x.category.__name__, str(x.message).split("\n")[0][:160])
model = nn.Linear(5, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 5)
loss = model(x).pow(2).mean()
loss.backward()
attempt('sched', lambda: (lambda s: (s.step(), opt.step(), s.get_last_lr()))(torch.optim.lr_scheduler.StepLR(opt, 1)))
attempt(0, lambda: F.cross_entropy(torch.randn(4, 2), torch.randint(0, 2, (5,))))
attempt(1, lambda: nn.Conv2d(3, 6, 3)(torch.randn(4, 1, 5, 5)))
attempt(2, lambda: F.mse_loss(torch.randn(4, 2), torch.randn(4, 3)))
attempt(3, lambda: nn.MultiheadAttention(6, 2, batch_first=True)(torch.randn(4, 3, 6), torch.randn(4, 3, 6), torch.randn(4, 3, 6), key_padding_mask=torch.zeros(4, 4, dtype=torch.bool)))
attempt(4, lambda: F.cross_entropy(torch.randn(4, 2, 3), torch.randint(0, 2, (4, 4))))
attempt(5, lambda: F.cross_entropy(torch.randn(4, 2), torch.tensor([2] * 4)))
''',
    'fuzz_c110': r'''\
torch.manual_seed(110)
nn = torch.nn
F = torch.nn.functional
import io, warnings
def attempt(label, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "ok", out if not isinstance(out, torch.Tensor) else (tuple(out.shape), out.dtype))
        except Exception as e:
            print(label, type(e).__name__, str(e).split("\n")[0])
        for x in w:
            print(label, "warn", x.category.__name__, str(x.message).split("\n")[0][:160])
model = nn.Linear(3, 6)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 3)
loss = model(x).pow(2).mean()
loss.backward()
attempt('sched', lambda: (lambda s: (s.step(), opt.step(), s.get_last_lr()))(torch.optim.lr_scheduler.StepLR(opt, 1)))
attempt(0, lambda: (torch.randn(3, 3).argmax(1) == torch.randint(0, 3, (3,))).mean())
attempt(1, lambda: nn.LSTM(3, 4)(torch.randn(4, 3, 4)))
attempt(2, lambda: (torch.randn(3, 3).argmax(1) == torch.randint(0, 3, (3,))).sum() / 3)
attempt(3, lambda: torch.randn(2, 3).t().view(6))
attempt(4, lambda: model.register_buffer('weight', torch.zeros(1)))
attempt(5, lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5))
''',
    'fuzz_c114': r'''\
torch.manual_seed(114)
nn = torch.nn
F = torch.nn.functional
import io, warnings
def attempt(label, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "ok", out if not isinstance(out, torch.Tensor) else (tuple(out.shape), out.dtype))
        except Exception as e:
            print(label, type(e).__name__, str(e).split("\n")[0])
        for x in w:
            print(label, "warn", x.category.__name__, str(x.message).split("\n")[0][:160])
model = nn.Linear(5, 6)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 5)
loss = model(x).pow(2).mean()
loss.backward()
attempt('sched', lambda: (lambda s: (s.step(), opt.step(), s.get_last_lr()))(torch.optim.lr_scheduler.StepLR(opt, 1)))
attempt(0, lambda: nn.BatchNorm2d(6)(torch.randn(2, 6)))
attempt(1, lambda: F.nll_loss(torch.randn(2, 2), torch.randint(0, 2, (2,)).float()))
attempt(2, lambda: model.get_submodule('nope'))
attempt(3, lambda: F.softmax(torch.randn(2, 2)))
attempt(4, lambda: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=5, anneal_strategy='exp'))
attempt(5, lambda: nn.init.trunc_normal_(torch.empty(3), mean=10.0))
''',
    'fuzz_c120': r'''\
torch.manual_seed(120)
nn = torch.nn
F = torch.nn.functional
import io, warnings
def attempt(label, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "ok", out if not isinstance(out, torch.Tensor) else (tuple(out.shape), out.dtype))
        except Exception as e:
            print(label, type(e).__name__, str(e).split("\n")[0])
        for x in w:
            print(label, "warn", x.category.__name__, str(x.message).split("\n")[0][:160])
model = nn.Linear(5, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 5)
loss = model(x).pow(2).mean()
loss.backward()
attempt(0, lambda: nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type='fro'))
attempt(1, lambda: nn.RNN(5, 4)(torch.randn(4, 4, 5, 5)))
attempt(2, lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5))
attempt(3, lambda: torch.optim.SGD([], lr=0.1))
attempt(4, lambda: torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True))
attempt(5, lambda: torch.optim.SGD([{'params': model.parameters()}, {'params': model.parameters()}], lr=0.1))
''',
    'fuzz_c127': r'''\
torch.manual_seed(127)
nn = torch.nn
F = torch.nn.functional
import io, warnings
def attempt(label, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "ok", out if not isinstance(out, torch.Tensor) else (tuple(out.shape), out.dtype))
        except Exception as e:
            print(label, type(e).__name__, str(e).split("\n")[0])
        for x in w:
            print(label, "warn", x.category.__name__, str(x.message).split("\n")[0][:160])
model = nn.Linear(5, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 5)
loss = model(x).pow(2).mean()
loss.backward()
attempt('again', lambda: loss.backward())
attempt(0, lambda: torch.randint(0, 3, (2,)).requires_grad_())
attempt(1, lambda: torch.optim.SGD(model.parameters(), lr=0.1, momentum=-0.5))
attempt(2, lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=1.5))
attempt(3, lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0))
attempt(4, lambda: model.load_state_dict({k: v.double() for k, v in model.state_dict().items()}) or next(model.parameters()).dtype)
attempt(5, lambda: nn.GroupNorm(2, 4)(torch.randn(2, 6)))
''',
    'fuzz_d5000': r'''\
torch.manual_seed(5000)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 5, 3
model = nn.Sequential(nn.Linear(D, 4), nn.Tanh(), nn.Linear(4, C))
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, r(vec.norm()))
nn.utils.vector_to_parameters(vec * 0.5, model.parameters())
print(r(model[0].weight.norm()))
X = torch.randn(B, D)
model(X).sum().backward()
g = torch.cat([p.grad.flatten() for p in model.parameters()])
print(g.shape, r(g.norm()))
print(r(nn.utils.clip_grad_norm_(model.parameters(), 0.1, norm_type=3.0)))
print(r(torch.cat([p.grad.flatten() for p in model.parameters()]).norm()))
print(r(nn.utils.get_total_norm([p.grad for p in model.parameters()])))

''',
    'fuzz_d5001': r'''\
torch.manual_seed(5001)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 6, 5, 2
model = nn.Sequential(nn.Linear(D, 8), nn.GELU(), nn.Linear(8, C))
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
X, Y = torch.randn(B, D), torch.randint(0, C, (B,))
for step in range(3):
    opt.zero_grad()
    with torch.autocast('cpu', dtype=torch.bfloat16):
        out = model(X)
        loss = F.cross_entropy(out, Y)
    print(out.dtype, loss.dtype)
    loss.backward()
    print(model[0].weight.grad.dtype)
    opt.step()
    print(step, round(loss.item(), 2))

''',
    'fuzz_d5002': r'''\
torch.manual_seed(5002)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 6, 3, 2
emb = nn.Embedding(10, 4, sparse=True)
head = nn.Linear(4, C)
opt1 = torch.optim.SparseAdam(list(emb.parameters()), lr=0.05)
opt2 = torch.optim.SGD(head.parameters(), lr=0.05)
X, Y = torch.randint(0, 10, (B, 3)), torch.randint(0, C, (B,))
for step in range(3):
    opt1.zero_grad(); opt2.zero_grad()
    loss = F.cross_entropy(head(emb(X).mean(1)), Y)
    loss.backward()
    print(emb.weight.grad.is_sparse, emb.weight.grad.layout, r(emb.weight.grad.to_dense().abs().sum()))
    opt1.step(); opt2.step()
    print(step, r(loss.item()))
print(r(emb.weight[:2]))

''',
    'fuzz_d5003': r'''\
torch.manual_seed(5003)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 5, 3
emb = nn.Embedding(8, 3, sparse=True, padding_idx=0)
opt = torch.optim.Adagrad(emb.parameters(), lr=0.1)
X = torch.randint(0, 8, (B, 2))
for step in range(3):
    opt.zero_grad()
    loss = emb(X).pow(2).sum()
    loss.backward()
    opt.step()
    print(step, r(loss.item()))
print(r(emb.weight))

''',
    'fuzz_d5005': r'''\
torch.manual_seed(5005)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 3, 2
model = nn.Sequential(nn.Linear(D, 4), nn.Softplus(), nn.Dropout(0.5), nn.Linear(4, C))
log = []
for name, m in model.named_modules():
    if name:
        m.register_forward_pre_hook(lambda m, inp, name=name: log.append((name, tuple(inp[0].shape))))
X = torch.randn(B, D)
out = model(X)
print(log)
print([n for n, _ in model.named_modules()], [n for n, _ in model.named_parameters()])
print(r(out))
model.eval()
print(r(model(X)))
print(model.training, [m.training for m in model])
print(model.extra_repr(), model[0].extra_repr(), model[2].extra_repr())

''',
    'fuzz_d5006': r'''\
torch.manual_seed(5006)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 3, 2
emb = nn.Embedding(8, 3, sparse=True)
opt = torch.optim.SGD(emb.parameters(), lr=0.1)
X = torch.randint(0, 8, (B, 2))
for step in range(3):
    opt.zero_grad()
    loss = emb(X).pow(2).sum()
    loss.backward()
    opt.step()
    print(step, r(loss.item()))
print(r(emb.weight))

''',
    'fuzz_e6000': r'''\
torch.manual_seed(6000)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 5, 2
teacher = nn.Sequential(nn.Linear(D, 8), nn.ReLU(), nn.Linear(8, C)).eval()
student = nn.Sequential(nn.Linear(D, 4), nn.ELU(), nn.Linear(4, C))
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
X, Y = torch.randn(B, D), torch.randint(0, C, (B,))
T = 2.0
for step in range(3):
    with torch.no_grad():
        t_logits = teacher(X)
    s_logits = student(X)
    soft = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1), reduction='batchmean') * T * T
    hard = F.cross_entropy(s_logits, Y)
    loss = 0.7 * soft + 0.3 * hard
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, r(soft.item()), r(hard.item()))

''',
    'fuzz_e6001': r'''\
torch.manual_seed(6001)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 6, 3, 2
class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(D, 8)
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Sequential(nn.Linear(2, 8), nn.PReLU(), nn.Linear(8, D))
    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar)
        z = mu + torch.randn_like(std) * std
        return self.dec(z), mu, logvar
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
X = torch.rand(B, D)
for step in range(3):
    recon, mu, logvar = model(X)
    rec = F.binary_cross_entropy_with_logits(recon, X, reduction='sum')
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (rec + kld) / B
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, r(rec.item()), r(kld.item()))
model.eval()
with torch.no_grad():
    print(r(model.dec(torch.randn(2, 2))))

''',
    'fuzz_e6002': r'''\
torch.manual_seed(6002)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 3, 2
V, E = 12, 4
counts = torch.randint(1, 10, (V,)).float()
noise = counts.pow(0.75)
noise /= noise.sum()
inp = nn.Embedding(V, E)
outp = nn.Embedding(V, E)
opt = torch.optim.Adam(list(inp.parameters()) + list(outp.parameters()), lr=0.05)
for step in range(3):
    center = torch.randint(0, V, (B,))
    ctx = torch.randint(0, V, (B,))
    neg = torch.multinomial(noise, B * 3, replacement=True).view(B, 3)
    c = inp(center)
    pos = F.logsigmoid((c * outp(ctx)).sum(1))
    negs = F.logsigmoid(-torch.bmm(outp(neg), c.unsqueeze(2)).squeeze(2)).sum(1)
    loss = -(pos + negs).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, neg[0].tolist(), r(loss.item()))

''',
    'fuzz_e6003': r'''\
torch.manual_seed(6003)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 6, 5, 3
G = nn.Sequential(nn.Linear(2, 8), nn.SiLU(), nn.Linear(8, D))
Dn = nn.Sequential(nn.Linear(D, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(Dn.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real = torch.randn(B, D) * 0.5 + 1.0
for step in range(3):
    z = torch.randn(B, 2)
    fake = G(z)
    optD.zero_grad()
    lossD = crit(Dn(real), torch.ones(B, 1)) + crit(Dn(fake.detach()), torch.zeros(B, 1))
    lossD.backward()
    optD.step()
    optG.zero_grad()
    lossG = crit(Dn(fake), torch.ones(B, 1))
    lossG.backward()
    optG.step()
    print(step, r(lossD.item()), r(lossG.item()), r(sum(p.grad.norm() for p in Dn.parameters())))

''',
    'fuzz_e6005': r'''\
torch.manual_seed(6005)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 5, 3
N = 10
X, Y = torch.randn(N, D), torch.randn(N, 1)
model = nn.Sequential(nn.Linear(D, 4), nn.Hardtanh(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
bs = 5
for epoch in range(2):
    perm = torch.randperm(N)
    total = 0.0
    for i in range(0, N, bs):
        idx = perm[i:i + bs]
        loss = F.l1_loss(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(epoch, perm[:4].tolist(), r(total / N))

''',
    'fuzz_e6007': r'''\
torch.manual_seed(6007)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 6, 5, 3
lengths = torch.tensor(sorted([int(v) for v in torch.randint(1, 6, (B,))], reverse=True))
X = torch.randn(B, int(lengths.max()), D)
Y = torch.randint(0, C, (B,))
rnn = nn.GRU(D, 5, batch_first=True, bidirectional=False)
head = nn.Linear(5 * (2 if rnn.bidirectional else 1), C)
opt = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=0.01)
for step in range(3):
    packed = nn.utils.rnn.pack_padded_sequence(X, lengths, batch_first=True, enforce_sorted=False)
    out, h = rnn(packed)
    h = h[0] if isinstance(h, tuple) else h
    feat = torch.cat([h[-2], h[-1]], 1) if rnn.bidirectional else h[-1]
    padded, lens = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
    loss = F.cross_entropy(head(feat), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, lens.tolist(), padded.shape, r(loss.item()))

''',
    'fuzz_e6008': r'''\
torch.manual_seed(6008)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 4, 5, 3
model = nn.Sequential(nn.Linear(D, 8), nn.PReLU(), nn.Linear(8, C))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X, Y = torch.randn(B, D), torch.randint(0, C, (B,))
beta = torch.distributions.Beta(torch.tensor(0.4), torch.tensor(0.4))
for step in range(3):
    lam = beta.sample()
    perm = torch.randperm(B)
    xm = lam * X + (1 - lam) * X[perm]
    out = model(xm)
    loss = lam * F.cross_entropy(out, Y) + (1 - lam) * F.cross_entropy(out, Y[perm])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, r(lam.item()), perm.tolist(), r(loss.item()))

''',
    'fuzz_e6010': r'''\
torch.manual_seed(6010)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B, D, C = 6, 3, 2
enc = nn.Sequential(nn.Linear(D, 8), nn.Sigmoid(), nn.Linear(8, 4))
opt = torch.optim.SGD(enc.parameters(), lr=0.1, momentum=0.9)
X = torch.randn(B, D)
for step in range(3):
    a = F.normalize(enc(X + 0.1 * torch.randn_like(X)), dim=1)
    b = F.normalize(enc(X + 0.1 * torch.randn_like(X)), dim=1)
    logits = a @ b.t() / 0.5
    labels = torch.arange(B)
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, r(loss.item()), (logits.argmax(1) == labels).float().mean().item())
print(r(F.cosine_similarity(a, b).mean()))

''',
    'fuzz_f7000': r'''\
torch.manual_seed(7000)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(2, 2, 1, padding=0, padding_mode='zeros'), nn.GroupNorm(2, 2), nn.SELU())
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.mid = nn.Sequential(nn.Conv2d(2, 2, 1), nn.Dropout2d(0.2))
        self.up = nn.MaxUnpool2d(2)
        self.dec = nn.Conv2d(4, 2, 1)
    def forward(self, x):
        e = self.enc(x)
        d, idx = self.pool(e)
        d = self.mid(d)
        u = self.up(d, idx, output_size=e.shape)
        u = torch.cat([u, e], dim=1)
        return self.dec(u)
model = AE()
X = torch.rand(3, 2, 4, 4)
X = X.contiguous(memory_format=torch.channels_last)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
shapes = []
hooks = [m.register_forward_hook(lambda m, i, o: shapes.append((type(m).__name__, tuple(o[0].shape if isinstance(o, tuple) else o.shape)))) for m in model.children()]
for step in range(2):
    opt.zero_grad()
    loss = F.smooth_l1_loss(model(X), X)
    loss.backward()
    opt.step()
    print(step, r(loss.item()), r(model.enc[0].weight.grad.norm()))
for h in hooks:
    h.remove()
print(shapes[:5])
model.eval()
with torch.no_grad():
    y = model(X)
print(y.shape, y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last), r(y[0, 0, 0]))
print(model.enc[0].weight.is_contiguous(), model.enc[0].weight.stride())
''',
    'fuzz_g8000': r'''\
torch.manual_seed(8000)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B = 4
V, D, T = 11, 8, 5
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Parameter(torch.zeros(1, 16, D))
        self.block = nn.TransformerEncoderLayer(D, 2, 16, dropout=0.0, batch_first=True, norm_first=False)
        self.ln = nn.LayerNorm(D)
        self.head = nn.Linear(D, V, bias=False)
        self.head.weight = self.tok.weight
    def forward(self, x):
        n = x.shape[1]
        mask = torch.triu(torch.full((n, n), float('-inf')), 1)
        h = self.block(self.tok(x) + self.pos[:, :n], src_mask=mask)
        return self.head(self.ln(h))
model = LM()
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
data = torch.randint(0, V, (B, T + 1))
for step in range(3):
    logits = model(data[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, r(loss.item()))
model.eval()
@torch.no_grad()
def generate(idx, n, temperature=1.0, top_k=None, top_p=None):
    for _ in range(n):
        logits = model(idx)[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, top_k)
            logits[logits < v[:, [-1]]] = -float('inf')
        if top_p is not None:
            sl, si = torch.sort(logits, descending=True)
            cp = torch.cumsum(F.softmax(sl, dim=-1), dim=-1)
            remove = cp > top_p
            remove[:, 1:] = remove[:, :-1].clone()
            remove[:, 0] = False
            logits = logits.masked_fill(remove.scatter(1, si, remove), -float('inf'))
        probs = F.softmax(logits, dim=-1)
        nxt = torch.multinomial(probs, 1)
        idx = torch.cat([idx, nxt], 1)
    return idx
print(generate(torch.zeros(2, 1, dtype=torch.long), 6, temperature=1.0, top_k=3, top_p=None).tolist())

''',
    'fuzz_g8001': r'''\
torch.manual_seed(8001)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B = 4
V, E, Hd, T = 9, 6, 8, 4
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.rnn = nn.LSTM(E, Hd, batch_first=True)
    def forward(self, x):
        out, h = self.rnn(self.emb(x))
        return out, h
class Dec(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.rnn = nn.LSTM(E + Hd, Hd, batch_first=True)
        self.attn = nn.Linear(Hd, Hd, bias=False)
        self.out = nn.Linear(2 * Hd, V)
    def forward(self, tok, h, enc_out, mask):
        top = (h[0] if isinstance(h, tuple) else h)[-1]
        scores = torch.bmm(enc_out, self.attn(top).unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(~mask, float('-inf'))
        w = F.softmax(scores, dim=1)
        ctx = torch.bmm(w.unsqueeze(1), enc_out)
        out, h = self.rnn(torch.cat([self.emb(tok).unsqueeze(1), ctx], 2), h)
        return self.out(torch.cat([out.squeeze(1), ctx.squeeze(1)], 1)), h, w
enc, dec = Enc(), Dec()
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.01)
src = torch.randint(1, V, (B, T))
src[0, -1] = 0
tgt = torch.randint(1, V, (B, T))
mask = src != 0
for step in range(3):
    enc_out, h = enc(src)
    tok = torch.zeros(B, dtype=torch.long)
    loss = 0
    for t in range(T):
        logits, h, w = dec(tok, h, enc_out, mask)
        loss = loss + F.cross_entropy(logits, tgt[:, t], ignore_index=0)
        teacher = torch.rand(1).item() < 1.0
        tok = tgt[:, t] if teacher else logits.argmax(1)
    opt.zero_grad()
    (loss / T).backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    print(step, r(loss.item() / T), r(w[0]))
with torch.no_grad():
    enc_out, h = enc(src[:1])
    tok = torch.zeros(1, dtype=torch.long)
    outs = []
    for t in range(T):
        logits, h, w = dec(tok, h, enc_out, mask[:1])
        tok = logits.argmax(1)
        outs.append(tok.item())
print(outs)

''',
    'fuzz_g8002': r'''\
torch.manual_seed(8002)
nn = torch.nn
F = torch.nn.functional
def r(t):
    if isinstance(t, (int, float)):
        return f"{t:.4g}"
    return [f"{v:.4g}" for v in t.detach().double().flatten().tolist()]
B = 4
V, Hd = 7, 6
emb = nn.Embedding(V, Hd)
cell = nn.GRUCell(Hd, Hd)
out = nn.Linear(Hd, V)
K = 3
h = torch.zeros(1, Hd)
beams = [(0.0, [0], h)]
with torch.no_grad():
    for t in range(4):
        cand = []
        for score, seq, hh in beams:
            h2 = cell(emb(torch.tensor([seq[-1]])), hh)
            lp = F.log_softmax(out(h2), -1)[0]
            top = torch.topk(lp, K)
            for v, i in zip(top.values.tolist(), top.indices.tolist()):
                cand.append((score + v, seq + [i], h2))
        cand.sort(key=lambda c: -c[0])
        beams = cand[:K]
        print(t, [(round(s, 3), q) for s, q, _ in beams])

''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    PROGRAMS, at_least=30)
