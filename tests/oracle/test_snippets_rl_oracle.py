"""Reinforcement-learning programs as people write them with PyTorch 2.x on the CPU, run under
real torch and under ember (`import ember as torch`): what they print must be identical.
REINFORCE and actor-critic with torch.distributions (Categorical from logits or probs, Normal,
Beta, tanh-squashed policies), DQN with replay buffers (tensors from lists of arrays and
tuples, gather, max(1), target networks, soft updates with copy_/lerp_/_foreach), dueling and
distributional (C51) heads, PPO (ratios, clipping, GAE, advantage normalisation), gridworld
and bandit environments in Python and NumPy, recurrent policies, checkpoints, and the mistakes
RL code makes (dtypes into gather and losses, in-place writes before backward, backward twice,
frames kept in a deque).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    'gather_dtype': r'''
torch.manual_seed(0)
q = torch.randn(4, 3, requires_grad=True)
acts = [0, 2, 1, 1]
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
t(lambda: q.gather(1, torch.tensor(acts)))
t(lambda: q.gather(1, torch.tensor(acts).unsqueeze(1)))
t(lambda: q.gather(1, torch.tensor(acts, dtype=torch.float32).unsqueeze(1)))
t(lambda: q.gather(1, torch.tensor(acts, dtype=torch.int32).unsqueeze(1)))
t(lambda: q.gather(1, torch.tensor(acts, dtype=torch.uint8).unsqueeze(1)))
t(lambda: q.gather(1, torch.tensor(acts, dtype=torch.int16).unsqueeze(1)))
t(lambda: q.gather(1, torch.tensor([[3], [0], [0], [0]])))
t(lambda: q.gather(1, torch.tensor([[-1], [0], [0], [0]])))
t(lambda: q.gather(2, torch.tensor(acts).unsqueeze(1)))
t(lambda: q.gather(0, torch.tensor([[0, 1, 2, 3]])))
t(lambda: q.gather(1, torch.tensor(acts).view(-1, 1).expand(4, 2)))
t(lambda: q.gather(1, torch.tensor(acts).view(1, -1)))
t(lambda: q[torch.arange(4), torch.tensor(acts)])
t(lambda: q[torch.arange(4), torch.tensor(acts, dtype=torch.float32)])
t(lambda: q[range(4), acts])
t(lambda: q[np.arange(4), np.array(acts)])
t(lambda: q[torch.arange(4), torch.tensor(acts, dtype=torch.int32)])
t(lambda: q[torch.arange(4), torch.tensor([0, 3, 1, 1])])
t(lambda: q.gather(1, torch.LongTensor([[0], [1], [2], [0]])).squeeze(1))
t(lambda: q.gather(1, torch.tensor(acts).unsqueeze(1)).squeeze())
t(lambda: torch.gather(q, -1, torch.tensor(acts)[:, None]))
t(lambda: q.gather(dim=1, index=torch.tensor(acts).unsqueeze(-1)).grad_fn)
t(lambda: q.index_select(1, torch.tensor(acts, dtype=torch.float32)))
t(lambda: q.index_select(1, torch.tensor([0, 2])))
t(lambda: q.take_along_dim(torch.tensor(acts)[:, None], dim=1))
t(lambda: q.take_along_dim(torch.tensor(acts, dtype=torch.float)[:, None], dim=1))
t(lambda: q.gather(1, torch.tensor(acts)[:, None]).sum().backward() or q.grad)
''',
    'losses': r'''
torch.manual_seed(0)
F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
pred = torch.randn(4, 1, requires_grad=True)
target = torch.tensor([1, 0, 2, 1])
t(lambda: F.mse_loss(pred, target))
t(lambda: F.mse_loss(pred, target.float()))
t(lambda: F.mse_loss(pred.squeeze(), target.float()))
t(lambda: F.mse_loss(pred, target.double()))
t(lambda: F.smooth_l1_loss(pred, target))
t(lambda: F.smooth_l1_loss(pred, target.float()))
t(lambda: F.huber_loss(pred, target.float().unsqueeze(1), delta=0.5))
t(lambda: F.l1_loss(pred, target.float()))
t(lambda: torch.nn.MSELoss()(pred, target.float().unsqueeze(1)))
t(lambda: torch.nn.SmoothL1Loss(beta=0.5)(pred, target.float().unsqueeze(1)))
t(lambda: F.cross_entropy(torch.randn(4, 3), target.float()))
t(lambda: F.cross_entropy(torch.randn(4, 3), target.int()))
t(lambda: F.cross_entropy(torch.randn(4, 3), target.unsqueeze(1)))
t(lambda: F.nll_loss(torch.randn(4, 3).log_softmax(1), target.float()))
t(lambda: F.nll_loss(torch.randn(4, 3).log_softmax(1), target.int()))
t(lambda: F.mse_loss(pred, torch.tensor(1.)))
t(lambda: F.mse_loss(pred.long(), target))
t(lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
t(lambda: F.smooth_l1_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
t(lambda: F.binary_cross_entropy(torch.sigmoid(pred), target.float().unsqueeze(1).clamp(max=1)))
t(lambda: F.binary_cross_entropy(torch.sigmoid(pred), target.unsqueeze(1)))
t(lambda: F.binary_cross_entropy_with_logits(pred, target.unsqueeze(1)))
t(lambda: F.mse_loss(pred, target.float(), reduction='sum'))
t(lambda: F.mse_loss(pred, target.float(), reduction='mean2'))
t(lambda: F.mse_loss(pred, target.float().unsqueeze(1), reduction='none'))
t(lambda: F.mse_loss(pred.double(), target.float().unsqueeze(1)))
t(lambda: F.mse_loss(pred, target.double().unsqueeze(1)).dtype)
t(lambda: F.smooth_l1_loss(pred, target.double().unsqueeze(1)).dtype)
t(lambda: F.mse_loss(torch.randn(3, 4), torch.randn(4)))
t(lambda: F.mse_loss(torch.randn(3, 4), torch.randn(3)))
''',
    'backward_errors': r'''
torch.manual_seed(0)
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
net = torch.nn.Linear(3, 2)
x = torch.randn(5, 3)
loss = net(x).pow(2).mean()
loss.backward()
t(lambda: loss.backward())
out = net(x)
l1 = out.sum(); l2 = (out ** 2).sum()
l1.backward(retain_graph=True); l2.backward(); print(net.bias.grad)
# inplace modification
v = torch.randn(3, requires_grad=True)
y = v.exp(); y += 1
t(lambda: y.sum().backward())
y = v.sigmoid(); y[0] = 0
t(lambda: y.sum().backward())
y = torch.tanh(v); y.mul_(2)
t(lambda: y.sum().backward())
w = torch.randn(3, requires_grad=True)
t(lambda: w.add_(1))
t(lambda: w.data.add_(1) is None)
with torch.no_grad():
    w -= 0.1 * torch.ones(3)
print(w)
h = w * 2
r = torch.relu(h); r[r > 0] = 0.5
t(lambda: r.sum().backward())
# reward tensor without grad
rewards = torch.tensor([1., 2.])
t(lambda: rewards.sum().backward())
t(lambda: net(x).backward())
t(lambda: net(x).mean().item().backward())
a = torch.randn(2, requires_grad=True)
b = a * 2
t(lambda: b.backward(torch.ones(3)))
t(lambda: torch.autograd.grad(b.sum(), a, retain_graph=True))
t(lambda: torch.autograd.grad(b.sum(), [a, torch.randn(2, requires_grad=True)]))
t(lambda: a.numpy())
t(lambda: a.detach().numpy())
t(lambda: b.grad)
t(lambda: np.array(a))
t(lambda: float(a))
t(lambda: a[0].item())
''',
    'tensor_from': r'''
def t(f):
    try:
        r = f(); print(r, getattr(r, 'dtype', None), getattr(r, 'shape', None))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
rng = np.random.RandomState(0)
states = [rng.randn(3) for _ in range(4)]
states32 = [rng.randn(3).astype(np.float32) for _ in range(4)]
t(lambda: torch.tensor(states))
t(lambda: torch.tensor(states32))
t(lambda: torch.tensor(np.array(states)))
t(lambda: torch.FloatTensor(states))
t(lambda: torch.FloatTensor(np.array(states)))
t(lambda: torch.Tensor(states))
t(lambda: torch.tensor(states, dtype=torch.float32))
t(lambda: torch.stack([torch.from_numpy(s) for s in states]))
t(lambda: torch.as_tensor(states))
t(lambda: torch.as_tensor(np.stack(states), dtype=torch.float))
batch = [(rng.randn(2), 1, 0.5, False), (rng.randn(2), 0, -1.0, True)]
s, a, r, d = zip(*batch)
t(lambda: torch.tensor(s))
t(lambda: torch.tensor(a))
t(lambda: torch.tensor(r))
t(lambda: torch.tensor(d))
t(lambda: torch.tensor(d, dtype=torch.float32))
t(lambda: torch.tensor(a).unsqueeze(-1))
t(lambda: torch.LongTensor(a))
t(lambda: torch.BoolTensor(d))
t(lambda: torch.tensor([np.float32(1.5), np.float32(2.)]))
t(lambda: torch.tensor([np.float64(1.5), 2]))
t(lambda: torch.tensor([np.int64(1), np.int64(2)]))
t(lambda: torch.tensor([np.int32(1), np.int32(2)]))
t(lambda: torch.tensor(np.int64(3)))
t(lambda: torch.tensor(np.float32(3)))
t(lambda: torch.tensor(np.bool_(True)))
t(lambda: torch.tensor([np.bool_(True), np.bool_(False)]))
t(lambda: torch.tensor([1, 2.5, True]))
t(lambda: torch.tensor([[1, 2], [3]]))
t(lambda: torch.tensor([rng.randn(2), rng.randn(3)]))
t(lambda: torch.tensor([np.array(1.0), np.array(2.0)]))
t(lambda: torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
t(lambda: torch.tensor([torch.tensor([1.0]), torch.tensor([2.0])]))
t(lambda: torch.tensor([torch.randn(2), torch.randn(2)]))
t(lambda: torch.from_numpy(states[0]).float())
t(lambda: torch.from_numpy(np.array([1, 2])))
t(lambda: torch.from_numpy(np.array([True])))
t(lambda: torch.from_numpy(np.array(5.0)))
t(lambda: torch.from_numpy([1, 2]))
t(lambda: torch.tensor(np.array([1, 2], dtype=np.uint16)))
t(lambda: torch.from_numpy(np.array(['a'])))
t(lambda: torch.from_numpy(np.zeros(3)[::-1]))
t(lambda: torch.tensor(np.zeros(3)[::-1]))
t(lambda: torch.FloatTensor([1, 2]).dtype)
t(lambda: torch.FloatTensor(3).shape)
t(lambda: torch.FloatTensor(rng.randn(2, 2).astype(np.float64)))
t(lambda: torch.LongTensor([1.7, 2.2]))
t(lambda: torch.tensor(5).float().unsqueeze(0))
t(lambda: torch.tensor([[0.1, 0.2]]).numpy().tolist())
t(lambda: torch.Tensor([1, 2]).long())
t(lambda: torch.tensor(states[0]).float().view(1, -1))
''',
    'dist_errors': r'''
D = torch.distributions
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
t(lambda: D.Categorical(torch.tensor([0.2, 0.3])).probs)
t(lambda: D.Categorical(probs=torch.tensor([0.2, -0.3])))
t(lambda: D.Categorical(logits=torch.tensor([1., float('nan')])))
t(lambda: D.Categorical(probs=torch.tensor([[0.5, 0.5]])).sample())
t(lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(2)))
t(lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(1.)))
t(lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(0.5)))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).log_prob(torch.tensor([0, 1, 1])))
t(lambda: D.Categorical(logits=torch.randn(3, 2)).log_prob(torch.tensor([0, 1])))
t(lambda: D.Categorical(logits=torch.randn(3, 2)).log_prob(torch.tensor([[0], [1], [1]])))
t(lambda: D.Categorical(logits=torch.randn(3, 2)).entropy())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).logits)
t(lambda: D.Categorical(logits=torch.tensor([-float('inf'), 2.])).entropy())
t(lambda: D.Categorical(probs=torch.tensor([0., 1.])).entropy())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).sample((3,)))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).sample(3))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).mode)
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).mean)
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).param_shape)
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).enumerate_support())
t(lambda: D.Categorical(torch.tensor([1., 2.]), logits=torch.tensor([1., 2.])))
t(lambda: D.Categorical())
t(lambda: D.Categorical(logits=torch.tensor(1.)))
t(lambda: D.Normal(torch.tensor([0.]), torch.tensor([-1.])))
t(lambda: D.Normal(torch.tensor([0.]), torch.tensor([0.])))
t(lambda: D.Normal(torch.tensor([0.]), torch.tensor([1.]), validate_args=False).log_prob(torch.tensor([1.])))
t(lambda: D.Normal(0., 1.).log_prob(1.))
t(lambda: D.Normal(0, 1).sample())
t(lambda: D.Normal(torch.tensor([0., 1.]), 1.).log_prob(torch.ones(3)))
t(lambda: D.Normal(torch.tensor([0., 1.]), torch.ones(3)))
t(lambda: D.Normal(torch.tensor([float('nan')]), 1.))
t(lambda: D.Bernoulli(logits=torch.tensor([0.3])).sample())
t(lambda: D.Bernoulli(probs=torch.tensor([1.3])))
t(lambda: D.Bernoulli(probs=torch.tensor([0.3])).log_prob(torch.tensor([2.])))
t(lambda: D.Bernoulli(probs=torch.tensor([0.3])).log_prob(torch.tensor([1])))
t(lambda: D.Beta(torch.tensor([2.]), torch.tensor([0.])))
t(lambda: D.OneHotCategorical(logits=torch.tensor([1., 2., 3.])).sample())
t(lambda: D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.tensor([1., 2., 3.])).rsample())
t(lambda: D.kl_divergence(D.Categorical(logits=torch.tensor([1., 2.])), D.Categorical(logits=torch.tensor([2., 1.]))))
t(lambda: D.kl_divergence(D.Normal(0., 1.), D.Normal(1., 2.)))
t(lambda: D.kl_divergence(D.Normal(0., 1.), D.Categorical(logits=torch.tensor([2., 1.]))))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).cdf(torch.tensor(0)))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).rsample())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).perplexity())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).expand((3,)).sample())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).variance)
t(lambda: D.Normal(torch.zeros(2), torch.ones(2)).expand((3, 2)))
t(lambda: D.Normal(torch.zeros(2), torch.ones(2)).stddev)
t(lambda: D.Normal(torch.zeros(2), 2.).variance)
t(lambda: D.Normal(torch.zeros(2), 2.).icdf(torch.tensor([0.1, 0.9])))
t(lambda: D.Normal(torch.zeros(2), 2.).icdf(torch.tensor([1.1, 0.9])))
t(lambda: D.Uniform(-1., 1.).sample((2,)))
t(lambda: D.Uniform(-1., 1.).log_prob(torch.tensor(2.)))
t(lambda: D.Uniform(1., -1.))
t(lambda: D.TransformedDistribution(D.Normal(0., 1.), [D.transforms.TanhTransform(cache_size=1)]).rsample((2,)))
t(lambda: D.TransformedDistribution(D.Normal(torch.zeros(2), 1.), [D.transforms.TanhTransform()]).log_prob(torch.tensor([0.5, -0.2])))
t(lambda: D.TransformedDistribution(D.Normal(torch.zeros(2), 1.), [D.transforms.TanhTransform()]).log_prob(torch.tensor([1.0, -0.2])))
''',
    'misc': r'''
F = torch.nn.functional; nn = torch.nn
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
x = torch.randn(2, 3)
t(lambda: F.softmax(x))
t(lambda: F.log_softmax(x))
t(lambda: F.softmin(x))
t(lambda: nn.Softmax()(x))
t(lambda: F.softmax(torch.randn(3)))
t(lambda: F.softmax(torch.randn(2, 2, 2)))
t(lambda: F.softmax(torch.randn(2, 2, 2, 2)))
t(lambda: F.one_hot(torch.tensor([0, 2, 1])))
t(lambda: F.one_hot(torch.tensor([0, 2, 1]), 4))
t(lambda: F.one_hot(torch.tensor([0, 2, 1]), num_classes=2))
t(lambda: F.one_hot(torch.tensor([0., 2., 1.]), 3))
t(lambda: F.one_hot(torch.tensor([0, 2, 1], dtype=torch.int32), 3))
t(lambda: F.one_hot(torch.tensor([0, -1, 1]), 3))
t(lambda: F.one_hot(torch.tensor(2), 3))
t(lambda: F.one_hot(torch.tensor([[0, 2], [1, 1]]), 3).float())
t(lambda: F.one_hot(torch.tensor([], dtype=torch.long), 3))
t(lambda: F.one_hot(torch.tensor([], dtype=torch.long)))
t(lambda: F.one_hot(torch.tensor([0, 2, 1]), -2))
t(lambda: torch.multinomial(torch.tensor([[0.2, 0.8], [0.9, 0.1]]), 1))
t(lambda: torch.multinomial(torch.tensor([[0.2, 0.8], [0.9, 0.1]]), 1).squeeze(1))
t(lambda: torch.multinomial(torch.tensor([0.2, 0.8]), 2))
t(lambda: torch.multinomial(torch.tensor([2, 8]), 1))
t(lambda: torch.multinomial(torch.tensor([[[0.2, 0.8]]]), 1))
t(lambda: torch.multinomial(torch.tensor([0.2, 0.8], dtype=torch.float64), 5, True))
t(lambda: torch.randint(0, 4, (3,)))
t(lambda: torch.randint(4, (3,)))
t(lambda: torch.randint(4, size=(2, 2)))
t(lambda: torch.randint(0, 4, 3))
t(lambda: torch.randint(0, 4))
t(lambda: torch.randint(0, 4, (1,)).item())
t(lambda: torch.randint(4, 2, (1,)))
t(lambda: torch.randint(0, 4, (2,), dtype=torch.float32))
t(lambda: torch.randint_like(torch.zeros(3), 5))
t(lambda: torch.rand(1) < 0.5)
t(lambda: (torch.rand(4) < 0.5).float())
t(lambda: torch.rand(()))
t(lambda: torch.rand(3, 1).bernoulli())
t(lambda: torch.bernoulli(torch.full((3,), 0.5)))
t(lambda: torch.bernoulli(torch.tensor([0.5]), p=0.1))
t(lambda: torch.bernoulli(torch.tensor([1.5])))
t(lambda: torch.normal(0., 1., (2,)))
t(lambda: torch.normal(torch.zeros(2), 1.))
t(lambda: torch.normal(torch.zeros(2), torch.ones(2) * 0.1))
t(lambda: torch.normal(0, 1, size=(2,)))
t(lambda: torch.normal(torch.zeros(2), -1.))
t(lambda: torch.randn(2).clamp(-0.5, 0.5))
t(lambda: torch.randperm(5))
t(lambda: torch.randperm(5)[:2])
q = torch.randn(4, 3)
eps = 0.5
rnd = torch.rand(4)
greedy = q.argmax(dim=1)
rand_a = torch.randint(0, 3, (4,))
t(lambda: torch.where(rnd < eps, rand_a, greedy))
t(lambda: torch.where(rnd < eps, 1, greedy))
t(lambda: torch.where(rnd < eps, 1.0, greedy))
t(lambda: torch.where(rnd < eps, rand_a.float(), greedy))
t(lambda: torch.where(rnd < eps))
t(lambda: q.max(1)[0])
t(lambda: q.max(1)[1])
t(lambda: q.max(1))
t(lambda: q.max(dim=1).values.detach())
t(lambda: q.max(-1, keepdim=True))
t(lambda: q.min(0))
t(lambda: torch.max(q, 1, True))
t(lambda: q.max(1).indices.unsqueeze(1))
t(lambda: q.topk(2, dim=1))
t(lambda: q.sort(1, descending=True))
t(lambda: q.argmax())
t(lambda: q.argmax(1, keepdim=True))
t(lambda: q.max(2))
t(lambda: q.max(torch.tensor(1)))
t(lambda: torch.max(q, torch.zeros(4, 3)))
t(lambda: torch.max(q, 0.))
t(lambda: q.amax(1))
t(lambda: torch.tensor([1., 1., 0.]).argmax())
t(lambda: torch.tensor([float('nan'), 1.]).argmax())
t(lambda: torch.tensor([float('nan'), 1.]).max(0))
t(lambda: torch.tensor([]).max())
t(lambda: torch.tensor([]).argmax())
t(lambda: torch.zeros(0, 3).max(1))
t(lambda: torch.zeros(0, 3).max(0))
''',
    'save': r'''
import io, copy
nn = torch.nn
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e)[:1500])
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
target = copy.deepcopy(net)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
loss = net(torch.randn(5, 3)).pow(2).mean(); loss.backward(); opt.step()
buf = io.BytesIO()
torch.save({'model': net.state_dict(), 'target': target.state_dict(), 'opt': opt.state_dict(), 'steps': 10, 'eps': 0.1}, buf)
buf.seek(0)
ck = torch.load(buf)
print(sorted(ck), ck['steps'], ck['opt']['param_groups'], ck['opt']['state'][0]['step'])
print(ck['opt']['state'][1])
net2 = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(net2.load_state_dict(ck['model']))
opt2 = torch.optim.Adam(net2.parameters()); opt2.load_state_dict(ck['opt']); print(opt2)
print(opt2.state_dict()['param_groups'])
buf = io.BytesIO(); torch.save({'rewards': [np.float64(1.5), np.float32(2.)], 'arr': np.zeros(2)}, buf); buf.seek(0)
t(lambda: torch.load(buf))
buf.seek(0); t(lambda: torch.load(buf, weights_only=False))
class Agent:
    def __init__(self): self.net = nn.Linear(2, 1); self.eps = 0.2
buf = io.BytesIO(); torch.save(Agent(), buf); buf.seek(0)
t(lambda: torch.load(buf))
buf = io.BytesIO(); torch.save(net, buf); buf.seek(0)
t(lambda: torch.load(buf))
buf.seek(0); t(lambda: torch.load(buf, weights_only=False))
t(lambda: net2.load_state_dict({'0.weight': torch.zeros(4, 3)}))
t(lambda: net2.load_state_dict({'0.weight': torch.zeros(4, 3)}, strict=False))
t(lambda: net2.load_state_dict({**ck['model'], '0.weight': torch.zeros(3, 3)}))
t(lambda: nn.Linear(3, 5).load_state_dict(nn.Linear(3, 4).state_dict()))
t(lambda: net2.load_state_dict(net2))
print(target.state_dict().keys())
print(list(net.state_dict().items())[0])
for name, p in net.named_parameters(): print(name, p.shape, p.requires_grad)
''',
    'soft': r'''
import copy
nn = torch.nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
tgt = copy.deepcopy(net)
for p in tgt.parameters(): p.requires_grad = False
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for i in range(3):
    loss = net(torch.randn(4, 3)).pow(2).sum(); opt.zero_grad(); loss.backward(); opt.step()
    tau = 0.1
    with torch.no_grad():
        for tp, p in zip(tgt.parameters(), net.parameters()):
            tp.data.copy_(tau * p.data + (1 - tau) * tp.data)
print(tgt[0].bias)
for tp, p in zip(tgt.parameters(), net.parameters()):
    tp.data.mul_(0.9); tp.data.add_(0.1 * p.data)
print(tgt[2].weight)
with torch.no_grad():
    for tp, p in zip(tgt.parameters(), net.parameters()):
        tp.lerp_(p, 0.5)
print(tgt[2].bias)
with torch.no_grad():
    torch._foreach_lerp_(list(tgt.parameters()), list(net.parameters()), 0.3)
    torch._foreach_mul_(list(tgt.parameters()), 0.99)
    torch._foreach_add_(list(tgt.parameters()), list(net.parameters()), alpha=0.01)
print(tgt[0].weight)
try:
    for tp, p in zip(net.parameters(), tgt.parameters()):
        tp.copy_(p)
except RuntimeError as e:
    print(e)
try:
    for tp, p in zip(net.parameters(), tgt.parameters()):
        tp.mul_(0.5)
except RuntimeError as e:
    print(e)
try:
    net[0].weight.lerp_(tgt[0].weight, 0.5)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    net[0].weight.lerp_(tgt[0].weight, torch.tensor(0.5))
    net[0].weight.lerp_(tgt[0].weight, torch.full((4, 3), 0.25))
print(net[0].weight, net[0].weight.grad_fn, net[0].weight.is_leaf)
sd = tgt.state_dict()
for k, v in net.state_dict().items():
    sd[k] = 0.5 * v + 0.5 * sd[k]
tgt.load_state_dict(sd); print(tgt[2].weight)
print(torch.nn.utils.parameters_to_vector(tgt.parameters()))
v = torch.zeros(26); torch.nn.utils.vector_to_parameters(v, tgt.parameters()); print(tgt[0].bias)
print(torch.lerp(torch.zeros(3), torch.ones(3), 0.3), torch.zeros(3).lerp(torch.ones(3), torch.tensor([0., 0.5, 1.])))
print(torch.zeros(2, dtype=torch.float64).lerp_(torch.ones(2, dtype=torch.float64), 0.7))
try:
    print(torch.zeros(2).lerp_(torch.ones(2, dtype=torch.float64), 0.7))
except RuntimeError as e:
    print(e)
try:
    print(torch.zeros(2, dtype=torch.long).lerp(torch.ones(2, dtype=torch.long), 0.7))
except RuntimeError as e:
    print(e)
''',
    'print': r'''
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
loss = torch.tensor(0.123456, requires_grad=True) * 2
t(lambda: f"{loss:.3f}")
t(lambda: f"{loss}")
t(lambda: f"{loss.item():.3f}")
t(lambda: f"{torch.tensor([1., 2.]):.3f}")
t(lambda: f"{torch.tensor(3):d}")
t(lambda: f"{torch.tensor(3):5}")
t(lambda: f"{torch.tensor(3.5):>10}")
t(lambda: f"{torch.tensor([1.5])}")
t(lambda: "%.2f" % torch.tensor(1.234))
t(lambda: "%d" % torch.tensor(3))
t(lambda: "%.2f" % torch.tensor([1.234]))
t(lambda: "{:.2f}".format(torch.tensor(2.5, dtype=torch.float64)))
t(lambda: round(torch.tensor(1.23456).item(), 2))
t(lambda: round(torch.tensor(1.23456), 2))
t(lambda: round(torch.tensor(1.5)))
t(lambda: int(torch.tensor(3.7)))
t(lambda: int(torch.tensor([3.7])))
t(lambda: int(torch.tensor([3.7, 1.])))
t(lambda: float(torch.tensor([[2]])))
t(lambda: bool(torch.tensor([1, 0])))
t(lambda: torch.tensor([1, 2, 3]).mean())
t(lambda: torch.tensor([1, 2, 3]).float().mean())
t(lambda: torch.tensor([1, 2, 3]).std())
t(lambda: torch.tensor([1.]).std())
t(lambda: torch.tensor([1.]).var())
t(lambda: torch.tensor([]).mean())
t(lambda: torch.tensor([]).std())
t(lambda: torch.tensor([1.]).std(unbiased=False))
t(lambda: torch.tensor([1., 2.]).std(correction=0))
t(lambda: torch.tensor([[1.], [2.]]).std(1))
t(lambda: (torch.tensor([5.]) - torch.tensor([5.]).mean()) / (torch.tensor([5.]).std() + 1e-8))
t(lambda: np.mean([torch.tensor(1.), torch.tensor(2.)]))
t(lambda: np.mean([torch.tensor(1.5)]))
t(lambda: np.array([torch.tensor(1.5), torch.tensor(2.)]))
t(lambda: sum([torch.tensor(1.5), torch.tensor(2.)]))
t(lambda: max([torch.tensor(1.5), torch.tensor(2.)]))
t(lambda: torch.tensor([1e5, 1., 0.001]))
t(lambda: torch.tensor([123456.7, -0.5]))
t(lambda: torch.tensor([1e-5, 1.]))
t(lambda: torch.tensor([200., -200.5, 0.25]))
t(lambda: torch.tensor([1e10, 1.]))
t(lambda: torch.tensor([0.1, 0.2], dtype=torch.float64))
t(lambda: torch.tensor([1, 2], dtype=torch.float64) * 1e-9)
t(lambda: torch.arange(12.).reshape(3, 4) * 1000.5)
t(lambda: torch.tensor([-0.0, 0.0]))
t(lambda: torch.tensor([float('inf'), -float('inf'), float('nan'), 1.5]))
t(lambda: torch.tensor(-1e-9))
t(lambda: torch.tensor([True, False]))
t(lambda: torch.randn(2, 2, dtype=torch.float16))
t(lambda: torch.randn(2, 2).to(torch.bfloat16))
t(lambda: torch.tensor([2.], dtype=torch.float64, requires_grad=True))
t(lambda: torch.tensor([2], dtype=torch.int32))
t(lambda: torch.tensor([2], dtype=torch.uint8))
t(lambda: torch.tensor(2, dtype=torch.int16))
t(lambda: torch.zeros(2, 0))
t(lambda: torch.zeros(0, dtype=torch.long))
t(lambda: repr(torch.zeros(1, 2)))
t(lambda: str(torch.ones(3, dtype=torch.int64).sum()))
t(lambda: torch.ones(3).sum(dtype=torch.int64))
t(lambda: torch.arange(1000.))
t(lambda: torch.arange(30).reshape(3, 10) * 1000)
t(lambda: torch.tensor([[1.1234567, 2], [3, 4]]).tolist())
t(lambda: torch.tensor([0.1], dtype=torch.float32).tolist())
t(lambda: torch.tensor([0.1], dtype=torch.float32).item())
t(lambda: torch.tensor(1.).numpy())
t(lambda: torch.tensor([1.5, 2.5]).numpy().dtype)
t(lambda: torch.tensor([1.5, 2.5]).cpu().data.numpy())
''',
    'dtype_mistakes': r'''
nn = torch.nn; F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
net = nn.Linear(4, 2)
obs = np.random.RandomState(0).randn(3, 4)
t(lambda: net(torch.from_numpy(obs)))
t(lambda: net(torch.tensor(obs)))
t(lambda: net(torch.tensor(obs[0])))
t(lambda: net(torch.tensor(obs, dtype=torch.float32)))
t(lambda: net(torch.Tensor(obs)).shape)
t(lambda: net(obs))
t(lambda: net(torch.tensor([1, 2, 3, 4])))
t(lambda: net(torch.zeros(3, 5)))
t(lambda: net(torch.zeros(5)))
t(lambda: net(torch.tensor(obs, dtype=torch.float16)))
t(lambda: net.double()(torch.tensor(obs)).dtype)
net.float()
conv = nn.Conv2d(3, 4, 3)
frames = np.random.RandomState(1).randint(0, 256, (2, 8, 8, 3)).astype(np.uint8)
t(lambda: conv(torch.from_numpy(frames)))
t(lambda: conv(torch.from_numpy(frames).permute(0, 3, 1, 2)))
t(lambda: conv(torch.from_numpy(frames).permute(0, 3, 1, 2).float() / 255.0).shape)
t(lambda: conv(torch.from_numpy(frames).float() / 255))
x = torch.from_numpy(frames).permute(0, 3, 1, 2).float()
t(lambda: x.view(x.size(0), -1).shape)
t(lambda: x.reshape(x.size(0), -1).shape)
t(lambda: x.flatten(1).shape)
t(lambda: (torch.from_numpy(frames) / 255).dtype)
t(lambda: (torch.from_numpy(frames) // 2).dtype)
t(lambda: torch.from_numpy(frames).float().div(255).max())
t(lambda: torch.from_numpy(frames)[0, 0, 0] + 250)
t(lambda: torch.from_numpy(frames).sum().dtype)
t(lambda: torch.from_numpy(frames).mean())
t(lambda: torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8))
t(lambda: torch.tensor([1, 2]) * 0.5)
t(lambda: torch.tensor([1, 2]) / 2)
t(lambda: torch.tensor([1, 2]).div(2, rounding_mode='floor'))
t(lambda: torch.tensor([3]) // 2)
t(lambda: torch.tensor([-3]) // 2)
t(lambda: torch.tensor([True, False]) + 1)
t(lambda: 1 - torch.tensor([True, False]))
t(lambda: ~torch.tensor([1., 0.]))
t(lambda: -torch.tensor([True, False]))
t(lambda: 1.0 - torch.tensor([True, False]).float())
t(lambda: torch.tensor([True]) * 0.99)
t(lambda: torch.tensor([1., 2.]) * torch.tensor([True, False]))
t(lambda: torch.tensor([1., 2.]) * (1 - torch.tensor([1, 0])))
t(lambda: torch.tensor([1., 2.]) * np.float64(0.5))
t(lambda: (torch.tensor([1., 2.]) * np.float64(0.5)).dtype)
t(lambda: (np.float64(0.5) * torch.tensor([1., 2.])))
t(lambda: (np.float32(0.5) * torch.tensor([1., 2.])).dtype)
t(lambda: (np.array([0.5, 1.]) * torch.tensor([1., 2.])))
t(lambda: (torch.tensor([1., 2.]) * np.array([0.5, 1.])))
t(lambda: torch.tensor([1., 2.]) + np.array(1.0))
t(lambda: torch.tensor([1., 2.]) + np.int64(1))
t(lambda: torch.tensor([1, 2]) + np.float64(1.5))
t(lambda: torch.tensor([1., 2.]) > np.float64(1.5))
t(lambda: torch.tensor([1., 2.])[np.int64(1)])
t(lambda: torch.tensor([1., 2.])[np.array(1)])
t(lambda: torch.tensor([1., 2.])[np.array([True, False])])
t(lambda: torch.zeros(3)[torch.tensor(1.)])
t(lambda: torch.zeros(3)[1.0])
t(lambda: torch.zeros(3)[torch.tensor([0, 1], dtype=torch.uint8)])
t(lambda: torch.zeros(3, 2)[torch.tensor([True, False, True])].shape)
t(lambda: torch.zeros(3, 2)[torch.tensor([1, 0, 1]).bool()].shape)
t(lambda: torch.zeros(3)[torch.tensor([True, False])])
''',
    'modes': r'''
nn = torch.nn; F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
net = nn.Linear(3, 2)
with torch.inference_mode():
    out = net(torch.randn(2, 3))
print(out, out.requires_grad, out.is_inference())
t(lambda: out.add_(1))
t(lambda: out.clone().add_(1))
t(lambda: net(out.clone()).sum().backward())
t(lambda: (net.weight * out[:, :1]).sum().backward())
t(lambda: net.weight.grad)
@torch.no_grad()
def act(x):
    return net(x).argmax(-1)
print(act(torch.randn(4, 3)), torch.is_grad_enabled())
@torch.inference_mode()
def act2(x):
    return net(x)
y = act2(torch.randn(1, 3)); print(y, y.is_inference())
t(lambda: torch.cat([y, net(torch.randn(1, 3))]).sum().backward())
t(lambda: y.requires_grad_())
with torch.no_grad():
    z = net(torch.randn(2, 3))
print(z, z.requires_grad, z.grad_fn)
z.requires_grad_(); print(z)
with torch.enable_grad():
    print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(net(torch.ones(1, 3)).requires_grad)
torch.set_grad_enabled(True)
print(net.training, net.eval().training, net.train(False).training, net.train().training)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, repr(device), device.type, torch.zeros(1).to(device).device, net.to(device).weight.device)
print(torch.zeros(2, device=device), torch.zeros(2, device="cpu").is_cuda)
t(lambda: torch.device("gpu"))
print(torch.cuda.device_count(), torch.backends.mps.is_available() if hasattr(torch.backends, "mps") else None)
torch.backends.cudnn.deterministic = True; torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic)
torch.use_deterministic_algorithms(True); print(torch.are_deterministic_algorithms_enabled()); torch.use_deterministic_algorithms(False)
st = torch.get_rng_state(); a1 = torch.rand(2); torch.set_rng_state(st); a2 = torch.rand(2); print(torch.equal(a1, a2), st.dtype, st.shape)
g = torch.Generator(); g.manual_seed(5); print(torch.randint(0, 10, (3,), generator=g), torch.rand(2, generator=g))
print(torch.initial_seed(), torch.manual_seed(7).initial_seed(), torch.seed() > 0)
''',
    'optim': r'''
nn = torch.nn
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
net = nn.Linear(2, 1)
params = net.parameters()
opt1 = torch.optim.Adam(params)
t(lambda: torch.optim.Adam(params))
t(lambda: torch.optim.Adam(net.parameters(), lr=-1))
t(lambda: torch.optim.Adam(net.parameters(), betas=(1.0, 0.9)))
t(lambda: torch.optim.Adam(net.parameters(), eps=-1e-8))
t(lambda: torch.optim.SGD(net.parameters()))
t(lambda: torch.optim.SGD(net.parameters(), lr=0.1, momentum=-0.1))
t(lambda: torch.optim.Adam([net.weight * 2]))
t(lambda: torch.optim.Adam(net.weight))
t(lambda: torch.optim.Adam([net.weight, net.weight]))
t(lambda: torch.optim.Adam([{'params': net.weight}, {'params': net.weight}]))
t(lambda: torch.optim.Adam([{'params': net.weight, 'lr': 0.1}, {'params': net.bias}], lr=1e-3).param_groups[1]['lr'])
t(lambda: torch.optim.Adam([torch.zeros(2)]).step())
log_alpha = torch.zeros(1, requires_grad=True)
a_opt = torch.optim.Adam([log_alpha], lr=3e-4)
target_entropy = -torch.prod(torch.Tensor((2,))).item()
print(target_entropy)
logp = torch.tensor([-1.2, -0.3])
for i in range(3):
    alpha_loss = -(log_alpha * (logp + target_entropy).detach()).mean()
    a_opt.zero_grad(); alpha_loss.backward(); a_opt.step()
    alpha = log_alpha.exp().item()
print(log_alpha, alpha, a_opt.state[log_alpha]['exp_avg'])
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
sched.step()
for i in range(4):
    net(torch.randn(3, 2)).sum().backward(); opt.step(); opt.zero_grad(); sched.step()
    print(sched.get_last_lr(), opt.param_groups[0]['lr'])
frac = 1.0 - (2 - 1.0) / 10
opt.param_groups[0]["lr"] = frac * 2.5e-4; print(opt.param_groups[0]["lr"])
lam = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e); print(lam.get_last_lr())
lin = torch.optim.lr_scheduler.LinearLR(opt, start_factor=1.0, end_factor=0.0, total_iters=5)
for i in range(3): opt.step(); lin.step()
print(lin.get_last_lr(), lin.state_dict()['_step_count'])
print(opt.state_dict()['param_groups'][0].keys())
t(lambda: opt.step(lambda: 1.0))
print(net.weight.grad)
opt.zero_grad(set_to_none=False); print(net.weight.grad)
opt.zero_grad(); print(net.weight.grad)
t(lambda: nn.utils.clip_grad_norm_(net.parameters(), 1.0))
t(lambda: nn.utils.clip_grad_norm_([], 1.0))
net(torch.ones(1, 2)).sum().backward()
t(lambda: nn.utils.clip_grad_norm_(net.parameters(), 0.1))
t(lambda: net.weight.grad)
t(lambda: nn.utils.clip_grad_norm_(net.parameters(), 0.1, norm_type='inf'))
t(lambda: nn.utils.clip_grad_norm_(net.parameters(), 0.1, norm_type=float('inf')))
t(lambda: nn.utils.clip_grad_value_(net.parameters(), 0.01))
net.weight.grad[0, 0] = float('nan')
t(lambda: nn.utils.clip_grad_norm_(net.parameters(), 0.1))
t(lambda: nn.utils.clip_grad_norm_(net.parameters(), 0.1, error_if_nonfinite=True))
t(lambda: nn.utils.clip_grad_norm_(net.weight, 0.1))
t(lambda: nn.utils.get_total_norm([torch.ones(2), torch.ones(3)]))
''',
    'more': r'''
from collections import deque
nn = torch.nn; F = torch.nn.functional; D = torch.distributions
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
frames = deque([torch.zeros(2, 2) for _ in range(3)], maxlen=3)
frames.append(torch.ones(2, 2))
t(lambda: torch.stack(list(frames)).shape)
t(lambda: torch.stack(frames).shape)
t(lambda: torch.cat(frames).shape)
t(lambda: torch.stack([]))
t(lambda: torch.cat([]))
t(lambda: torch.stack([torch.zeros(2), torch.zeros(3)]))
t(lambda: torch.cat([torch.zeros(2, 1), torch.zeros(3)]))
t(lambda: torch.cat([torch.zeros(2, 1), torch.zeros(3, 2)]))
t(lambda: torch.cat([torch.zeros(2), torch.zeros(3, dtype=torch.long)]))
t(lambda: torch.stack([torch.zeros(2), torch.zeros(2, dtype=torch.long)]).dtype)
t(lambda: torch.stack([torch.tensor(1.), torch.tensor(2.)]))
t(lambda: torch.cat([torch.tensor(1.), torch.tensor(2.)]))
t(lambda: torch.stack([1., 2.]))
t(lambda: torch.stack((torch.zeros(2), torch.zeros(2)), dim=2))
t(lambda: torch.roll(torch.arange(4), 1))
t(lambda: torch.roll(torch.arange(6).view(2, 3), -1, 1))
t(lambda: torch.roll(torch.arange(6).view(2, 3), 1))
t(lambda: F.gumbel_softmax(torch.tensor([[1., 2., 3.]]), tau=0.5, hard=True))
t(lambda: F.gumbel_softmax(torch.tensor([[1., 2., 3.]]), tau=0.5))
t(lambda: D.Beta(torch.tensor([2.]), torch.tensor([3.])).rsample((2,)))
t(lambda: D.Beta(torch.tensor([2.]), torch.tensor([3.])).log_prob(torch.tensor([0.5])))
t(lambda: D.Beta(torch.tensor([2.]), torch.tensor([3.])).log_prob(torch.tensor([1.5])))
t(lambda: D.Beta(torch.tensor([2.]), torch.tensor([3.])).entropy())
t(lambda: D.Beta(2., 3.).mean)
base = D.Normal(torch.zeros(2), torch.ones(2))
tr = D.TransformedDistribution(base, [D.transforms.TanhTransform(cache_size=1), D.transforms.AffineTransform(loc=1., scale=2.)])
t(lambda: tr.rsample())
s = tr.rsample(); t(lambda: tr.log_prob(s))
t(lambda: tr)
t(lambda: D.MultivariateNormal(torch.zeros(2), scale_tril=torch.eye(2) * 0.5).rsample())
t(lambda: D.MultivariateNormal(torch.zeros(2), torch.tensor([[1., 2.], [2., 1.]])))
t(lambda: D.MultivariateNormal(torch.zeros(2), torch.eye(3)))
t(lambda: D.MultivariateNormal(torch.zeros(2)))
t(lambda: D.MultivariateNormal(torch.zeros(2), precision_matrix=torch.eye(2) * 2).log_prob(torch.ones(2)))
t(lambda: D.Independent(D.Normal(torch.zeros(3, 2), 1.), 1).log_prob(torch.zeros(3, 2)))
t(lambda: D.Independent(D.Normal(torch.zeros(3, 2), 1.), 3))
t(lambda: D.Categorical(logits=torch.tensor([[1., -float('inf'), 0.]])).entropy())
t(lambda: D.Categorical(logits=torch.tensor([[1., -1e8, 0.]])).entropy())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.]).masked_fill(torch.tensor([True, False]), torch.finfo(torch.float32).min)).probs)
lg = torch.tensor([1., 2., 3.], requires_grad=True)
m = D.Categorical(logits=lg); a = torch.tensor(2)
(-m.log_prob(a) - 0.01 * m.entropy()).backward(); print(lg.grad)
pr = torch.tensor([0.2, 0.3, 0.5], requires_grad=True)
m = D.Categorical(probs=pr); (-m.log_prob(torch.tensor(1)) - m.entropy()).backward(); print(pr.grad)
t(lambda: D.Categorical(logits=torch.zeros(2, 3)).sample().shape)
t(lambda: D.Categorical(logits=torch.zeros(2, 3)).batch_shape)
t(lambda: D.Categorical(probs=torch.tensor([1, 2, 3])).probs)
t(lambda: D.Categorical(probs=torch.tensor([0.1, 0.2], dtype=torch.float64)).sample().dtype)
t(lambda: D.Normal(torch.zeros(2, dtype=torch.float64), 1.).sample().dtype)
t(lambda: D.Normal(torch.zeros(2), torch.ones(2)).log_prob(torch.zeros(2, dtype=torch.float64)).dtype)
t(lambda: D.Normal(torch.zeros(2), torch.ones(2)).log_prob(torch.zeros(2, dtype=torch.long)))
t(lambda: D.Categorical(logits=torch.zeros(3)).log_prob(torch.tensor(1, dtype=torch.int32)))
t(lambda: D.Categorical(logits=torch.zeros(3)).log_prob(1))
t(lambda: D.Categorical(logits=torch.zeros(3)).log_prob(torch.tensor(True)))
t(lambda: D.Normal(0., 1.).log_prob(torch.tensor([0, 1])))
t(lambda: D.Normal(loc=torch.zeros(1), scale=torch.ones(1)).sample_n(2))
t(lambda: D.Normal(torch.zeros(1), torch.ones(1)).sample(torch.Size([2])).shape)
t(lambda: D.Normal(torch.zeros(1), torch.ones(1)).sample([2, 3]).shape)
t(lambda: D.Normal(torch.zeros(1), torch.ones(1)).support)
t(lambda: D.Categorical(logits=torch.zeros(4)).support)
t(lambda: D.Normal(torch.zeros(1), torch.ones(1)).arg_constraints)
t(lambda: D.Distribution.set_default_validate_args(False))
t(lambda: D.Normal(torch.zeros(1), -torch.ones(1)).scale)
t(lambda: D.Distribution.set_default_validate_args(True))
''',
    'seqargs': r'''
from collections import deque
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
a = torch.zeros(2); b = torch.ones(2)
d = {'x': a, 'y': b}
for name, fn in [('stack', torch.stack), ('cat', torch.cat), ('hstack', torch.hstack), ('vstack', torch.vstack), ('concat', torch.concat), ('concatenate', torch.concatenate), ('column_stack', torch.column_stack), ('dstack', torch.dstack), ('row_stack', torch.row_stack), ('block_diag', torch.block_diag), ('cartesian_prod', torch.cartesian_prod), ('broadcast_tensors', torch.broadcast_tensors), ('meshgrid', torch.meshgrid), ('atleast_1d', torch.atleast_1d)]:
    print(name)
    t(lambda: fn(deque([a, b])))
    t(lambda: fn(x for x in [a, b]))
    t(lambda: fn(d.values()))
    t(lambda: fn(map(lambda x: x, [a, b])))
    t(lambda: fn(torch.zeros(2, 2)))
    t(lambda: fn(np.array([1., 2.])))
    t(lambda: fn(a))
t(lambda: torch.stack(deque([a, b]), 1))
t(lambda: torch.stack(tensors=deque([a, b])))
t(lambda: torch.cat(deque([a, b]), dim=0))
t(lambda: torch.cat(tensors=(a, b)))
t(lambda: torch.cat([a, 1.]))
t(lambda: torch.stack([a, [1., 2.]]))
t(lambda: torch.cat([a, None]))
t(lambda: torch.stack(range(3)))
t(lambda: torch.cat('ab'))
t(lambda: torch.stack(a, b))
t(lambda: torch.cat(a, b))
t(lambda: torch.cat((a, b), 0, 1))
t(lambda: torch.stack([a, b], dim=1.0))
t(lambda: torch.stack([a, b], dim=torch.tensor(0)))
t(lambda: torch.stack([a, b], out=torch.empty(2, 2)))
t(lambda: torch.cat([a, b], out=torch.empty(3)))
t(lambda: torch.cat([a, b], dim='x'))
t(lambda: torch._foreach_add(deque([a, b]), 1))
t(lambda: torch.nn.utils.clip_grad_norm_(deque([a]), 1.))
t(lambda: torch.broadcast_tensors(a, b))
t(lambda: torch.split(torch.arange(5), deque([2, 3])))
t(lambda: torch.zeros(deque([2, 3])).shape)
t(lambda: torch.zeros((x for x in [2, 3])).shape)
t(lambda: torch.arange(6).view(deque([2, 3])).shape)
t(lambda: torch.arange(6).reshape(np.array([2, 3])).shape)
t(lambda: torch.arange(6).permute(deque([0])))
t(lambda: torch.tensor(deque([1, 2])))
t(lambda: torch.tensor((x for x in [1, 2])))
t(lambda: torch.tensor(d.values()))
t(lambda: torch.tensor(range(3)))
t(lambda: torch.tensor(deque([a, b])))
t(lambda: torch.as_tensor(deque([1., 2.])))
t(lambda: torch.Tensor(deque([1., 2.])))
t(lambda: torch.LongTensor(range(3)))
t(lambda: torch.tensor({1, 2}))
t(lambda: torch.tensor({'a': 1}))
t(lambda: torch.tensor('a'))
t(lambda: torch.tensor(None))
t(lambda: torch.tensor([None]))
''',
    'sizes': r'''
from collections import deque
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
class L(list): pass
x = torch.arange(6.)
for arg in [deque([2, 3]), (i for i in [2, 3]), range(2, 4), {2: 0, 3: 0}.keys(), L([2, 3]), np.array([2, 3]), torch.tensor([2, 3]), {2, 3}, map(int, [2, 3])]:
    print(type(arg).__name__)
    t(lambda: torch.zeros(arg).shape)
    t(lambda: torch.ones(arg).shape)
    t(lambda: torch.empty(arg).shape)
    t(lambda: torch.full(arg, 1.).shape)
    t(lambda: torch.randn(arg).shape)
    t(lambda: torch.rand(arg).shape)
    t(lambda: torch.randint(5, arg).shape)
    t(lambda: x.view(arg).shape)
    t(lambda: x.reshape(arg).shape)
    t(lambda: x.new_zeros(arg).shape)
    t(lambda: x.view(2, 3).permute(arg if not isinstance(arg, (range,)) else range(2)).shape)
    t(lambda: x.expand(arg).shape)
    t(lambda: x.view(2, 3).repeat(arg).shape)
    t(lambda: x.view(2, 3).sum(arg).shape)
    t(lambda: x.view(1, 6).squeeze(arg).shape)
    t(lambda: torch.Size(arg))
''',
    'view_args': r'''
from collections import deque
def t(f, lab=''):
    print(lab, end=' ')
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e)[:400])
x = torch.arange(6.)
for a in [torch.tensor(6), torch.tensor([6]), torch.tensor(6.), np.int64(6), np.array(6), np.array([6]), torch.tensor([2, 3]), deque([6]), range(6, 7), [torch.tensor(2), 3], (np.int32(2), 3), [torch.tensor([2]), 3], 6.0, True, None, 'a', [2.0, 3]]:
    print('ARG', type(a).__name__, a)
    t(lambda: x.view(a).shape, 'view')
    t(lambda: x.reshape(a).shape)
    t(lambda: torch.zeros(a).shape)
    t(lambda: x.new_ones(a).shape)
    t(lambda: torch.randint(3, a).shape)
    t(lambda: torch.randint(0, 3, a).shape)
    t(lambda: torch.rand(a).shape)
    t(lambda: torch.full(a, 2).shape)
t(lambda: x.view(2, torch.tensor(3)).shape)
t(lambda: x.view(torch.tensor(2), 3).shape)
t(lambda: torch.zeros(torch.tensor(2), 3).shape)
t(lambda: torch.zeros(2, torch.tensor([3])).shape)
t(lambda: torch.randint(3, (torch.tensor(2), 3)).shape)
''',
    'classic_bugs': r'''
nn = torch.nn; F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:400])
torch.manual_seed(0)
actor = nn.Linear(3, 2); critic = nn.Linear(3 + 2, 1)
ao = torch.optim.Adam(actor.parameters()); co = torch.optim.Adam(critic.parameters())
s = torch.randn(4, 3)
a = actor(s)
q = critic(torch.cat([s, a], 1))
closs = (q - 1).pow(2).mean()
co.zero_grad(); closs.backward(retain_graph=True); co.step()
aloss = -q.mean()
ao.zero_grad()
t(lambda: aloss.backward())
# shared body
body = nn.Linear(3, 4); pi = nn.Linear(4, 2); v = nn.Linear(4, 1)
opt = torch.optim.SGD(list(body.parameters()) + list(pi.parameters()) + list(v.parameters()), lr=0.1)
h = torch.relu(body(s)); vl = v(h).pow(2).mean(); pl = pi(h).sum()
vl.backward()
t(lambda: pl.backward())
h = torch.relu(body(s)); vl = v(h).pow(2).mean(); pl = pi(h).sum()
vl.backward(retain_graph=True); opt.step()
t(lambda: pl.backward())
h = torch.tanh(body(s)); out = pi(h)
opt.step()
t(lambda: out.sum().backward())
x = torch.randn(3, requires_grad=True)
t(lambda: torch.tensor(x))
t(lambda: torch.tensor([x[0], x[1]]))
t(lambda: torch.tensor([x.sum(), x.mean()]))
t(lambda: torch.FloatTensor(x))
t(lambda: torch.as_tensor(x).requires_grad)
t(lambda: torch.Tensor(x).requires_grad)
t(lambda: np.array([x[0], x[1]]))
t(lambda: x.item())
t(lambda: x.tolist())
t(lambda: torch.stack([x, x]).item())
t(lambda: x.numpy())
t(lambda: x.detach().numpy().dtype)
y = torch.zeros(3)
t(lambda: torch.tensor(y))
t(lambda: torch.tensor(y, dtype=torch.long))
t(lambda: torch.tensor([y, y]))
t(lambda: torch.tensor((y[0], y[1], 2.0)))
t(lambda: torch.tensor([torch.tensor(1), 2.5]))
t(lambda: torch.tensor([torch.tensor(1.5), torch.tensor(2)]).dtype)
t(lambda: torch.tensor([np.float32(1.5), torch.tensor(2)]).dtype)
t(lambda: torch.tensor(np.array([y.numpy()] * 2)).shape)
z = torch.ones(2, requires_grad=True)
t(lambda: z.data.numpy())
z.data = torch.zeros(2); print(z, z.requires_grad)
t(lambda: setattr(z, 'data', torch.zeros(3, dtype=torch.long)))
print(z)
w = torch.ones(2, requires_grad=True)
t(lambda: w.grad.zero_())
w.sum().backward(); w.sum().backward(); print(w.grad)
t(lambda: w.grad.data.zero_())
w.grad = None; print(w.grad)
t(lambda: setattr(w, 'grad', torch.zeros(3)))
t(lambda: setattr(w, 'grad', torch.zeros(2, dtype=torch.float64)))
t(lambda: setattr(w, 'grad', [1., 2.]))
''',
    'warn': r'''
import warnings
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
for name, f in [("tensor_list", lambda: torch.tensor([x[0], x[1]])), ("tensor_list2", lambda: torch.tensor([x.sum(), x.mean()])),
                ("np", lambda: np.array([x[0], x[1]])), ("float", lambda: float(x[0])), ("item", lambda: x[0].item()), ("tolist", lambda: x.tolist()),
                ("FloatTensor", lambda: torch.FloatTensor(x)), ("Tensor", lambda: torch.Tensor(x)), ("LongTensor", lambda: torch.LongTensor(x)),
                ("FloatTensor_list", lambda: torch.FloatTensor([x[0], x[1]])), ("as_tensor_list", lambda: torch.as_tensor([x[0], x[1]])),
                ("int", lambda: int(x[0])), ("bool", lambda: bool(x[0])), ("format", lambda: f"{x[0]:.2f}"), ("round", lambda: round(x[0].item(), 2))]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f(); print(name, r)
        except Exception as e:
            print(name, type(e).__name__, e)
    for m in w: print("   W", str(m.message).split(" (Triggered")[0][:100])
''',
    'tensor_elems': r'''
def t(f):
    try:
        r = f(); print(r, getattr(r, 'dtype', ''))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
x = torch.tensor([1.5, 2.5]); i = torch.tensor([1, 2])
t(lambda: torch.tensor([x[0]], dtype=torch.long))
t(lambda: torch.tensor([x[0], 1], dtype=torch.int32))
t(lambda: torch.tensor([i[0]], dtype=torch.long))
t(lambda: torch.tensor([i[0]], dtype=torch.float32))
t(lambda: torch.tensor([x[0]], dtype=torch.bool))
t(lambda: torch.tensor([torch.tensor(True)], dtype=torch.long))
t(lambda: torch.tensor([torch.tensor(1+2j)], dtype=torch.float32))
t(lambda: torch.tensor([torch.tensor(1+2j)], dtype=torch.long))
t(lambda: torch.tensor([x[0]], dtype=torch.uint8))
t(lambda: torch.tensor([torch.tensor([1.5])], dtype=torch.long))
t(lambda: torch.tensor([torch.tensor([2])], dtype=torch.long))
t(lambda: torch.LongTensor([x[0], x[1]]))
t(lambda: torch.LongTensor([1.5, 2]))
t(lambda: torch.tensor([1.5, 2], dtype=torch.long))
t(lambda: torch.tensor([np.float32(1.5)], dtype=torch.long))
t(lambda: torch.tensor([np.float64(1.5)], dtype=torch.long))
t(lambda: torch.tensor(np.array([1.5]), dtype=torch.long))
t(lambda: torch.tensor([x[0], x[1]], dtype=torch.float64))
t(lambda: torch.tensor([x[0], i[0]]))
t(lambda: torch.tensor([i[0], x[0]]))
t(lambda: torch.tensor([i[0], 2.5]))
t(lambda: torch.tensor([torch.tensor(1, dtype=torch.uint8), -1]))
t(lambda: torch.tensor([torch.tensor(1, dtype=torch.int8), 300]))
t(lambda: torch.tensor([torch.tensor(1., dtype=torch.float16), 2.]))
t(lambda: torch.tensor([torch.tensor(1., dtype=torch.float64), np.float32(2.)]))
''',
    'numerics': r'''
F = torch.nn.functional; D = torch.distributions
torch.manual_seed(0)
x = torch.randn(64) * 3
def show(name, t):
    print(name, t.dtype, t.shape, t.sum().item(), t[:3].tolist())
show("logsumexp", torch.logsumexp(x.view(8, 8), 1))
show("softplus", F.softplus(x))
show("softplus_b", F.softplus(x, beta=2, threshold=5))
show("logsigmoid", F.logsigmoid(x))
show("log_softmax", F.log_softmax(x.view(8, 8), -1))
show("softmax", torch.softmax(x.view(8, 8) / 0.5, 1))
show("tanh", torch.tanh(x))
show("atanh", torch.atanh(torch.tanh(x).clamp(-0.999, 0.999)))
show("log1p", torch.log1p(x.abs()))
show("expm1", torch.expm1(x / 3))
show("lgamma", torch.lgamma(x.abs() + 0.1))
show("digamma", torch.digamma(x.abs() + 0.1))
show("erf", torch.erf(x))
show("xlogy", torch.special.xlogy(x.abs(), x.abs() + 1))
show("entr", torch.special.entr(torch.sigmoid(x)))
show("normal_lp", D.Normal(x[:32], torch.exp(x[32:] / 5)).log_prob(x.flip(0)[:32]))
show("normal_ent", D.Normal(x[:32], torch.exp(x[32:] / 5)).entropy())
show("normal_cdf", D.Normal(0., 1.).cdf(x))
show("beta_lp", D.Beta(x[:32].abs() + 0.5, x[32:].abs() + 0.5).log_prob(torch.sigmoid(x[:32])))
show("beta_ent", D.Beta(x[:32].abs() + 0.5, x[32:].abs() + 0.5).entropy())
show("cat_ent", D.Categorical(logits=x.view(8, 8)).entropy())
show("cat_lp", D.Categorical(logits=x.view(8, 8)).log_prob(torch.arange(8)))
show("gamma_lp", D.Gamma(x[:32].abs() + 0.5, 2.0).log_prob(x[32:].abs() + 0.1))
show("kl_cat", D.kl_divergence(D.Categorical(logits=x.view(8, 8)), D.Categorical(logits=x.flip(0).view(8, 8))))
show("kl_norm", D.kl_divergence(D.Normal(x[:32], 1.), D.Normal(x[32:], 2.)))
show("tanh_tr", D.TransformedDistribution(D.Normal(torch.zeros(64), 1.), [D.transforms.TanhTransform()]).log_prob(torch.tanh(x).clamp(-0.99, 0.99)))
show("huber", F.huber_loss(x, x.flip(0), reduction='none', delta=1.5))
show("sl1", F.smooth_l1_loss(x, x.flip(0), reduction='none', beta=0.5))
print(F.smooth_l1_loss(x, x.flip(0)).item(), F.mse_loss(x, x.flip(0)).item(), F.l1_loss(x, x.flip(0)).item(), F.huber_loss(x, x.flip(0)).item())
print(x.std().item(), x.var().item(), x.mean().item(), ((x - x.mean()) / (x.std() + 1e-8)).sum().item())
print(torch.std_mean(x.view(8, 8), 1), torch.var_mean(x, unbiased=False))
print(x.norm().item(), x.view(8, 8).norm(dim=1).tolist()[:2])
g = 0.99; r = x[:16]; ret = torch.zeros(16); run = 0.
for i in reversed(range(16)):
    run = r[i] + g * run; ret[i] = run
print(ret.tolist()[:4], ret.sum().item())
print(torch.cumsum(r.flip(0), 0).flip(0)[:3].tolist(), torch.cumprod(torch.full((5,), g), 0).tolist())
''',
    'inplace_msgs': r'''
nn = torch.nn; F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
actor = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)); critic = nn.Linear(5, 1)
ao = torch.optim.Adam(actor.parameters()); co = torch.optim.SGD(critic.parameters(), lr=0.1, momentum=0.9)
s = torch.randn(4, 3)
a = actor(s); q = critic(torch.cat([s, a], 1))
co.zero_grad(); (q ** 2).mean().backward(retain_graph=True); co.step()
t(lambda: (-q.mean()).backward())
a = actor(s); ao.zero_grad(); l1 = a.pow(2).sum(); l1.backward(retain_graph=True); ao.step()
t(lambda: a.sum().backward())
a = actor(s); l1 = a.pow(2).sum(); l1.backward(retain_graph=True); ao.step()
t(lambda: l1.backward())
x = torch.randn(3, requires_grad=True)
y = x.sigmoid(); y.add_(1)
t(lambda: y.sum().backward())
y = x.exp(); z = y[1:]; z.mul_(2)
t(lambda: y.sum().backward())
y = x * 2; w = y.tanh(); y.zero_()
t(lambda: w.sum().backward())
v = torch.randn(2, 2, requires_grad=True); m = v @ v.t(); v.data.add_(1); print(m.grad_fn)
v2 = torch.randn(2, 2, requires_grad=True).clone(); m2 = v2 @ v2.t(); v2.add_(1)
t(lambda: m2.sum().backward())
logits = torch.randn(3, 4, requires_grad=True)
p = F.softmax(logits, -1); p[:, 0] = 0
t(lambda: p.sum().backward())
lp = F.log_softmax(logits, -1); lp.clamp_(min=-2)
t(lambda: lp.sum().backward())
r = torch.relu(logits); r.masked_fill_(r > 1, 1)
t(lambda: r.sum().backward())
t(lambda: logits.exp_())
with torch.no_grad(): logits.exp_()
print(logits._version)
buf = torch.zeros(3); vals = torch.randn(3, requires_grad=True)
buf[0] = vals[0] * 2; buf[1] = vals[1]; print(buf, buf.grad_fn)
buf.sum().backward(); print(vals.grad)
rets = torch.zeros(4); rew = torch.randn(4, requires_grad=True); run = torch.tensor(0.)
for i in reversed(range(4)):
    run = rew[i] + 0.9 * run; rets[i] = run
print(rets.grad_fn, rets._version)
rets.sum().backward(); print(rew.grad)
''',
    'dist_errors_full': r'''
D = torch.distributions
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
t(lambda: D.Categorical(torch.tensor([0.2, 0.3])).probs)
t(lambda: D.Categorical(probs=torch.tensor([0.2, -0.3])))
t(lambda: D.Categorical(logits=torch.tensor([1., float('nan')])))
t(lambda: D.Categorical(probs=torch.tensor([[0.5, 0.5]])).sample())
t(lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(2)))
t(lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(1.)))
t(lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor(0.5)))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).log_prob(torch.tensor([0, 1, 1])))
t(lambda: D.Categorical(logits=torch.randn(3, 2)).log_prob(torch.tensor([0, 1])))
t(lambda: D.Categorical(logits=torch.randn(3, 2)).log_prob(torch.tensor([[0], [1], [1]])))
t(lambda: D.Categorical(logits=torch.randn(3, 2)).entropy())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).logits)
t(lambda: D.Categorical(logits=torch.tensor([-float('inf'), 2.])).entropy())
t(lambda: D.Categorical(probs=torch.tensor([0., 1.])).entropy())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).sample((3,)))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).sample(3))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).mode)
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).mean)
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).param_shape)
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).enumerate_support())
t(lambda: D.Categorical(torch.tensor([1., 2.]), logits=torch.tensor([1., 2.])))
t(lambda: D.Categorical())
t(lambda: D.Categorical(logits=torch.tensor(1.)))
t(lambda: D.Normal(torch.tensor([0.]), torch.tensor([-1.])))
t(lambda: D.Normal(torch.tensor([0.]), torch.tensor([0.])))
t(lambda: D.Normal(torch.tensor([0.]), torch.tensor([1.]), validate_args=False).log_prob(torch.tensor([1.])))
t(lambda: D.Normal(0., 1.).log_prob(1.))
t(lambda: D.Normal(0, 1).sample())
t(lambda: D.Normal(torch.tensor([0., 1.]), 1.).log_prob(torch.ones(3)))
t(lambda: D.Normal(torch.tensor([0., 1.]), torch.ones(3)))
t(lambda: D.Normal(torch.tensor([float('nan')]), 1.))
t(lambda: D.Bernoulli(logits=torch.tensor([0.3])).sample())
t(lambda: D.Bernoulli(probs=torch.tensor([1.3])))
t(lambda: D.Bernoulli(probs=torch.tensor([0.3])).log_prob(torch.tensor([2.])))
t(lambda: D.Bernoulli(probs=torch.tensor([0.3])).log_prob(torch.tensor([1])))
t(lambda: D.Beta(torch.tensor([2.]), torch.tensor([0.])))
t(lambda: D.OneHotCategorical(logits=torch.tensor([1., 2., 3.])).sample())
t(lambda: D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.tensor([1., 2., 3.])).rsample())
t(lambda: D.kl_divergence(D.Categorical(logits=torch.tensor([1., 2.])), D.Categorical(logits=torch.tensor([2., 1.]))))
t(lambda: D.kl_divergence(D.Normal(0., 1.), D.Normal(1., 2.)))
t(lambda: D.kl_divergence(D.Normal(0., 1.), D.Categorical(logits=torch.tensor([2., 1.]))))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).cdf(torch.tensor(0)))
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).rsample())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).perplexity())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).expand((3,)).sample())
t(lambda: D.Categorical(logits=torch.tensor([1., 2.])).variance)
t(lambda: D.Normal(torch.zeros(2), torch.ones(2)).expand((3, 2)))
t(lambda: D.Normal(torch.zeros(2), torch.ones(2)).stddev)
t(lambda: D.Normal(torch.zeros(2), 2.).variance)
t(lambda: D.Normal(torch.zeros(2), 2.).icdf(torch.tensor([0.1, 0.9])))
t(lambda: D.Normal(torch.zeros(2), 2.).icdf(torch.tensor([1.1, 0.9])))
t(lambda: D.Uniform(-1., 1.).sample((2,)))
t(lambda: D.Uniform(-1., 1.).log_prob(torch.tensor(2.)))
t(lambda: D.Uniform(1., -1.))
t(lambda: D.TransformedDistribution(D.Normal(0., 1.), [D.transforms.TanhTransform(cache_size=1)]).rsample((2,)))
t(lambda: D.TransformedDistribution(D.Normal(torch.zeros(2), 1.), [D.transforms.TanhTransform()]).log_prob(torch.tensor([0.5, -0.2])))
t(lambda: D.TransformedDistribution(D.Normal(torch.zeros(2), 1.), [D.transforms.TanhTransform()]).log_prob(torch.tensor([1.0, -0.2])))
''',
    'samplers': r'''
D = torch.distributions
torch.manual_seed(0)
print(D.Dirichlet(torch.full((5,), 0.3)).sample())
print(D.Dirichlet(torch.tensor([[0.3, 0.3, 0.3], [1., 2., 3.]])).sample((2,)))
print(D.Gamma(torch.tensor([0.5, 2.0]), torch.tensor([1.0, 3.0])).sample((3,)))
print(D.Poisson(torch.tensor([0.5, 4.0, 20.0])).sample((2,)))
print(D.Exponential(torch.tensor([1.0, 0.1])).sample((3,)))
print(D.Geometric(probs=torch.tensor([0.3, 0.9])).sample((3,)))
print(D.Binomial(10, torch.tensor([0.2, 0.7])).sample((2,)))
print(D.Multinomial(5, torch.tensor([0.2, 0.3, 0.5])).sample((2,)))
print(D.Laplace(0., 1.).sample((3,)), D.Cauchy(0., 1.).sample((2,)), D.Gumbel(0., 1.).sample((2,)))
print(D.LogNormal(0., 0.5).sample((2,)), D.StudentT(3.).sample((2,)), D.Chi2(torch.tensor([2.])).sample((2,)))
print(D.Uniform(torch.zeros(2), torch.ones(2)).rsample((2,)), D.Bernoulli(0.3).sample((4,)))
print(D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3, 0.6])).rsample())
print(D.VonMises(torch.tensor(0.), torch.tensor(2.)).sample((3,)))
print(D.Weibull(torch.tensor(1.), torch.tensor(2.)).sample((2,)))
print(D.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), torch.ones(3)).sample())
print(D.NegativeBinomial(5, torch.tensor([0.3])).sample((3,)))
print(D.ContinuousBernoulli(probs=torch.tensor([0.3])).sample((2,)))
print(D.Kumaraswamy(torch.tensor(2.), torch.tensor(3.)).sample((2,)))
print(D.HalfNormal(1.).sample((2,)), D.HalfCauchy(1.).sample((2,)), D.Pareto(1., 2.).sample((2,)))
print(torch.poisson(torch.tensor([1.0, 5.0])), torch._standard_gamma(torch.tensor([0.5, 3.0])), torch._sample_dirichlet(torch.tensor([0.5, 0.5])))
g = torch.Generator().manual_seed(3)
print(torch.randn(2, generator=g), torch.rand(2, generator=g, dtype=torch.float64), torch.randperm(6, generator=g), torch.multinomial(torch.ones(4), 2, generator=g))
print(torch.empty(3).exponential_(), torch.empty(3).geometric_(0.5), torch.empty(3).log_normal_(), torch.empty(3).cauchy_(), torch.empty(2, dtype=torch.long).random_(10), torch.empty(3).uniform_(-1, 1), torch.empty(3).normal_(2, 0.5))
''',
    'agent_repr': r'''
import io, copy, collections
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class Agent(nn.Module):
    def __init__(self, obs, act, hidden=(8, 8)):
        super().__init__()
        layers = []; last = obs
        for h in hidden:
            layers += [nn.Linear(last, h), nn.Tanh()]; last = h
        self.body = nn.Sequential(*layers)
        self.heads = nn.ModuleDict({'pi': nn.Linear(last, act), 'v': nn.Linear(last, 1)})
        self.log_std = nn.Parameter(torch.zeros(act))
        self.extra = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(1))])
        self.towers = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
        self.register_buffer('obs_mean', torch.zeros(obs)); self.register_buffer('count', torch.tensor(0, dtype=torch.long))
        self.register_buffer('tmp', torch.zeros(1), persistent=False)
    def forward(self, x):
        h = self.body(x); return self.heads['pi'](h), self.heads['v'](h).squeeze(-1)
ag = Agent(3, 2)
print(ag)
print(ag.state_dict().keys())
print(ag.state_dict()['count'], ag.state_dict()['log_std'])
print(sum(p.numel() for p in ag.parameters()), sum(p.numel() for p in ag.parameters() if p.requires_grad))
print([n for n, _ in ag.named_parameters()])
print([n for n, _ in ag.named_buffers()], [n for n, _ in ag.named_children()])
print([type(m).__name__ for m in ag.modules()][:6])
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.orthogonal_(m.weight, gain=np.sqrt(2)); nn.init.zeros_(m.bias)
ag.apply(init); print(ag.heads['pi'].weight)
print(ag.extra, ag.extra[0])
print(ag.heads, ag.towers[1])
print(repr(ag.log_std))
sd = ag.state_dict(keep_vars=True); print(sd['log_std'].requires_grad, type(sd).__name__)
opt = torch.optim.Adam(ag.parameters(), lr=3e-4)
pi, v = ag(torch.randn(5, 3)); (pi.sum() + v.sum()).backward(); opt.step()
osd = opt.state_dict(); print(osd['state'][0].keys(), osd['state'][0]['step'], len(osd['state']))
print(osd['param_groups'])
buf = io.BytesIO(); torch.save({'agent': ag.state_dict(), 'opt': osd, 'hp': {'gamma': 0.99}}, buf); buf.seek(0)
ck = torch.load(buf, map_location='cpu', weights_only=True); print(ck['hp'], ck['agent']['count'])
ag2 = Agent(3, 2); print(ag2.load_state_dict(ck['agent']))
print(torch.equal(ag2.log_std, ag.log_std), ag2.tmp)
ag3 = copy.deepcopy(ag); print(ag3.log_std is ag.log_std, torch.equal(ag3.heads.v.weight, ag.heads.v.weight))
ag.requires_grad_(False); print(ag.log_std.requires_grad, ag.training, ag.eval().training)
print(ag.heads['v'].weight.shape, ag.get_submodule('heads.v'), ag.get_parameter('extra.0'))
print(nn.Sequential(collections.OrderedDict([('fc', nn.Linear(2, 2)), ('act', nn.ReLU())])))
print(ag.count + 1, (ag.count + 1).dtype)
ag.count += 1; print(ag.count, ag.state_dict()['count'])
print(ag.extra_repr(), nn.Linear(2, 3, bias=False), nn.Dropout(0.1), nn.LSTM(2, 3, num_layers=2, batch_first=True), nn.Conv2d(4, 32, 8, stride=4), nn.Flatten(), nn.Identity(), nn.Softmax(dim=-1), nn.LayerNorm(4), nn.Embedding(10, 3))
''',
    'gym_mistakes': r'''
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
obs = np.array([0.1, -0.2, 0.03, 0.4], dtype=np.float32)
reset_out = (obs, {})
step_out = (obs, 1.0, False, False, {})
t(lambda: torch.tensor(reset_out))
t(lambda: torch.tensor(step_out))
t(lambda: torch.FloatTensor(reset_out))
t(lambda: torch.as_tensor(reset_out))
t(lambda: torch.tensor([obs, {}]))
t(lambda: torch.tensor({}))
t(lambda: torch.tensor([{}]))
t(lambda: torch.tensor([obs, obs[:2]]))
t(lambda: torch.tensor([[1, 2], np.array([3, 4])]))
t(lambda: torch.tensor([np.array([3, 4]), [1, 2]]))
t(lambda: torch.tensor([obs, None]))
t(lambda: torch.tensor([1.0, None]))
t(lambda: torch.tensor((1.0, False)))
t(lambda: torch.tensor(np.array([obs, obs], dtype=object)))
t(lambda: torch.tensor(np.array([1, 'a'], dtype=object)))
t(lambda: torch.tensor(np.array([1.5, 2], dtype=object)))
t(lambda: torch.from_numpy(np.array([1.5, 2], dtype=object)))
t(lambda: torch.tensor(np.array([[obs], [obs]])).shape)
t(lambda: torch.tensor([obs.tolist(), obs]).dtype)
t(lambda: torch.tensor(obs[None]).shape)
t(lambda: torch.tensor(np.float64(1.5)).dtype)
t(lambda: torch.tensor([np.int64(1), 2.5]).dtype)
t(lambda: torch.tensor(np.int32(3)).dtype)
t(lambda: torch.tensor([np.uint8(3)]).dtype)
t(lambda: torch.tensor(np.array(3, dtype=np.uint32)).dtype)
t(lambda: torch.tensor(np.array([3], dtype=np.uint64)))
t(lambda: torch.tensor(np.array([3], dtype=np.float16)))
t(lambda: torch.tensor(np.array(['a'])))
t(lambda: torch.tensor(np.array([1 + 2j])))
t(lambda: torch.tensor(np.array([True, False])).dtype)
t(lambda: torch.tensor(np.datetime64('2020-01-01')))
a = torch.tensor([1, 0]).numpy(); print(a, a.dtype, a[0].item(), type(a[0]).__name__)
act = torch.tensor(2); print(int(act), act.numpy(), type(act.numpy()).__name__, act.numpy().shape, act.tolist())
print([10, 20, 30][act], [10, 20, 30][torch.tensor([1])[0]])
t(lambda: [10, 20, 30][torch.tensor([1])])
t(lambda: [10, 20, 30][torch.tensor(1.)])
t(lambda: range(5)[torch.tensor(2)])
t(lambda: np.arange(5)[torch.tensor(2)])
t(lambda: np.arange(5)[torch.tensor([1, 2])])
t(lambda: np.zeros(3)[torch.tensor(True)])
t(lambda: "abc"[torch.tensor(1)])
t(lambda: np.array(torch.tensor([1., 2.]), dtype=np.float64))
t(lambda: np.asarray(torch.tensor([1., 2.])).dtype)
t(lambda: np.float32(torch.tensor(1.5)))
t(lambda: np.clip(torch.tensor([1., 5.]), 0, 2))
t(lambda: np.argmax(torch.tensor([1., 5.])))
t(lambda: np.random.RandomState(0).choice(3, p=torch.softmax(torch.tensor([1., 2., 3.]), 0).numpy()))
t(lambda: np.random.RandomState(0).choice(3, p=torch.softmax(torch.tensor([1., 2., 3.]), 0)))
t(lambda: np.exp(torch.tensor([1.])))
t(lambda: np.sum(torch.tensor([1., 2.])))
t(lambda: math.exp(torch.tensor(1.)) if False else __import__('math').exp(torch.tensor(1.)))
t(lambda: __import__('math').sqrt(torch.tensor([4.])))
t(lambda: __import__('math').isnan(torch.tensor(float('nan'))))
t(lambda: __import__('math').floor(torch.tensor(2.5)))
t(lambda: __import__('math').ceil(torch.tensor(2.5)))
t(lambda: divmod(torch.tensor(7), 2))
t(lambda: abs(torch.tensor(-2.)))
t(lambda: pow(2, torch.tensor(3)))
t(lambda: torch.tensor(7) % 3)
t(lambda: 7 // torch.tensor(2))
''',
    'scatter_counts': r'''
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
a = torch.tensor([2, 0, 1, 2])
t(lambda: torch.zeros(4, 3).scatter_(1, a.unsqueeze(1), 1))
t(lambda: torch.zeros(4, 3).scatter_(1, a.unsqueeze(1), 1.0))
t(lambda: torch.zeros(4, 3).scatter(1, a.unsqueeze(1), torch.ones(4, 1)))
t(lambda: torch.zeros(4, 3).scatter_(1, a.unsqueeze(1).float(), 1))
t(lambda: torch.zeros(4, 3).scatter_(1, a, 1))
t(lambda: torch.zeros(4, 3).scatter_(1, a.unsqueeze(1), torch.ones(4, 1, dtype=torch.long)))
t(lambda: torch.zeros(4, 3, dtype=torch.long).scatter_(1, a.unsqueeze(1), 1.5))
t(lambda: torch.zeros(4, 3).scatter_(1, torch.tensor([[3], [0], [0], [0]]), 1))
t(lambda: torch.zeros(4, 3).scatter_(1, a.unsqueeze(1), 2, reduce='add'))
t(lambda: torch.zeros(4, 3).scatter_add_(1, a.unsqueeze(1), torch.ones(4, 1)))
t(lambda: torch.zeros(4, 3).scatter_reduce_(1, a.unsqueeze(1), torch.ones(4, 1) * 3, reduce='amax'))
t(lambda: torch.zeros(3).index_add_(0, a, torch.ones(4)))
t(lambda: torch.zeros(3).index_add_(0, a.int(), torch.ones(4)))
t(lambda: torch.zeros(3).index_add_(0, a.float(), torch.ones(4)))
t(lambda: torch.zeros(3, dtype=torch.long).index_put_((a,), torch.tensor(1), accumulate=True))
t(lambda: torch.zeros(3).index_put_((a,), torch.tensor(1.), accumulate=False))
t(lambda: torch.zeros(3).put_(a, torch.ones(4), accumulate=True))
t(lambda: torch.bincount(a))
t(lambda: torch.bincount(a, minlength=5))
t(lambda: torch.bincount(a, weights=torch.tensor([0.5, 1., 1., 2.])))
t(lambda: torch.bincount(a.float()))
t(lambda: torch.bincount(torch.tensor([-1, 2])))
t(lambda: torch.bincount(a.view(2, 2)))
t(lambda: a.unique(return_counts=True))
t(lambda: torch.unique(a, sorted=False, return_inverse=True))
t(lambda: torch.histc(torch.tensor([1., 2, 1, 4]), bins=4, min=0, max=4))
t(lambda: torch.histc(a, bins=3))
t(lambda: torch.histogram(torch.tensor([1., 2, 1, 4]), bins=2))
Q = torch.zeros(5, 3)
s = np.int64(2); act = np.int64(1)
Q[s, act] = 1.5; Q[s][0] = 0.5; print(Q[s], Q[s].max(), Q[s].argmax(), Q[s, :].max().item())
Q[np.array([0, 1]), np.array([2, 2])] += 1; print(Q)
Q[torch.tensor(4)] = torch.tensor([1., 2., 3.]); print(Q[4])
Q[[1, 1], [0, 0]] += 1; print(Q[1])
t(lambda: Q.index_put_((torch.tensor([1, 1]), torch.tensor([0, 0])), torch.tensor(1.), accumulate=True)[1])
counts = torch.zeros(5, dtype=torch.long); counts[a] += 1; print(counts)
counts.index_add_(0, a, torch.ones_like(a)); print(counts)
t(lambda: counts.index_add_(0, a, torch.ones(4)))
visit = torch.zeros(5); visit[torch.tensor([True, False, True, False, False])] = 3; print(visit)
print(1 / torch.sqrt(visit + 1))
''',
    'nan_policies': r'''
nn = torch.nn; F = torch.nn.functional; D = torch.distributions
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
net = nn.Linear(3, 2)
with torch.no_grad(): net.weight[0, 0] = float('nan')
x = torch.randn(4, 3)
logits = net(x)
t(lambda: D.Categorical(logits=logits))
t(lambda: D.Categorical(probs=F.softmax(logits, -1)))
t(lambda: D.Categorical(probs=F.softmax(logits, -1)[0]))
t(lambda: D.Normal(logits, torch.ones(2)))
t(lambda: D.Normal(torch.zeros(2), F.softplus(logits[0])))
t(lambda: D.Normal(torch.zeros(2), torch.tensor([1.0, -0.5], requires_grad=True)))
t(lambda: D.Normal(torch.zeros(2), torch.tensor([1.0, 0.0])))
t(lambda: D.Bernoulli(logits=logits[:, 0]))
t(lambda: D.Bernoulli(probs=torch.sigmoid(logits[:, 1]) * 2))
t(lambda: D.Beta(F.softplus(logits[:, 1]), torch.tensor(-1.)))
t(lambda: D.MultivariateNormal(torch.zeros(2), torch.diag(torch.tensor([1., float('nan')]))))
t(lambda: D.Categorical(probs=torch.tensor([[0.5, 0.5], [0.2, 0.1]], dtype=torch.float64)))
t(lambda: D.Normal(torch.zeros(3, 4), torch.ones(3, 4)).log_prob(torch.zeros(2, 4)))
t(lambda: torch.multinomial(F.softmax(logits, -1), 1))
t(lambda: torch.multinomial(torch.tensor([[0.5, 0.5], [float('inf'), 0.]]), 1))
t(lambda: torch.multinomial(torch.tensor([0., 0.]), 1))
big = torch.randn(20, 3)
t(lambda: D.Categorical(logits=net(big)))
t(lambda: D.Normal(net(big), 1.))
''',
    'anomaly': r'''
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
torch.manual_seed(0)
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = torch.sqrt(x)
    t(lambda: y.sum().backward())
    z = (x * 0).log()
    t(lambda: z.sum().backward())
    w = x / x
    t(lambda: w.sum().backward())
print(x.grad)
torch.autograd.set_detect_anomaly(True); print(torch.is_anomaly_enabled()); torch.autograd.set_detect_anomaly(False)
with torch.autograd.detect_anomaly(check_nan=False):
    x.grad = None; torch.sqrt(x).sum().backward(); print(x.grad)
p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
h = p.register_hook(lambda g: g.clamp(-0.5, 0.5))
(p * torch.tensor([3., -4.])).sum().backward(); print(p.grad)
h.remove(); p.grad = None
(p * torch.tensor([3., -4.])).sum().backward(); p.grad.data.clamp_(-1, 1); print(p.grad)
q = p * 2; q.retain_grad(); (q ** 2).sum().backward(); print(q.grad, p.grad)
t(lambda: torch.autograd.grad((p ** 2).sum(), p, torch.tensor(1.), create_graph=True))
g, = torch.autograd.grad((p ** 3).sum(), p, create_graph=True); print(g)
g.sum().backward(); print(p.grad)
t(lambda: torch.autograd.grad((p * 2).sum(), [p, torch.zeros(2)]))
t(lambda: torch.autograd.grad((p * 2).sum(), [p, torch.zeros(2, requires_grad=True)]))
print(torch.autograd.grad((p * 2).sum(), [p, torch.zeros(2, requires_grad=True)], allow_unused=True))
print(torch.autograd.grad((p * 2).sum(), [p, torch.zeros(2, requires_grad=True)], allow_unused=True, materialize_grads=True))
''',
    'inits': r'''
nn = torch.nn
torch.manual_seed(0)
w = torch.empty(3, 5)
for name, f in [('trunc', lambda: nn.init.trunc_normal_(w, std=0.02)), ('trunc2', lambda: nn.init.trunc_normal_(w, mean=0.5, std=1., a=-0.5, b=1.)),
                ('xn', lambda: nn.init.xavier_normal_(w, gain=2.)), ('ku', lambda: nn.init.kaiming_uniform_(w, a=np.sqrt(5))), ('kn', lambda: nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='leaky_relu')),
                ('sparse', lambda: nn.init.sparse_(w, 0.4)), ('eye', lambda: nn.init.eye_(w)), ('const', lambda: nn.init.constant_(w, 0.3)), ('ones', lambda: nn.init.ones_(w)),
                ('orth', lambda: nn.init.orthogonal_(w, 0.01)), ('normal', lambda: nn.init.normal_(w, 0, 0.1)), ('unif', lambda: nn.init.uniform_(w)), ('xu', lambda: nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain('relu')))]:
    print(name, f())
c = torch.empty(2, 2, 3); nn.init.dirac_(c); print(c)
lin = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2)); print(lin.parametrizations.weight.original0, lin(torch.ones(1, 3)))
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 2)); print(sn(torch.ones(1, 3)))
old = nn.utils.weight_norm(nn.Linear(3, 2)); print(old.weight_g, old.weight_v.shape)
print(nn.Linear(4, 3).weight, nn.Conv2d(2, 2, 3).bias, nn.LSTM(2, 2).weight_hh_l0[:2], nn.Embedding(3, 2).weight, nn.GRUCell(2, 2).bias_ih[:3])
print(nn.LayerNorm(3).weight, nn.BatchNorm1d(2).running_var, nn.Bilinear(2, 2, 1).weight)
''',
    'load_errors': r'''
nn = torch.nn
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e))
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
t(lambda: net.load_state_dict({'0.weight': torch.zeros(4, 3)}))
t(lambda: net.load_state_dict({**net.state_dict(), '0.weight': torch.zeros(3, 3), '2.bias': torch.zeros(5)}))
t(lambda: net.load_state_dict({**net.state_dict(), 'extra': torch.zeros(1), 'module.0.weight': torch.zeros(1)}))
sd = {'module.' + k: v for k, v in net.state_dict().items()}
t(lambda: net.load_state_dict(sd))
t(lambda: net.load_state_dict(sd, strict=False))
t(lambda: nn.Linear(3, 4).load_state_dict({'weight': torch.zeros(4, 3, dtype=torch.float64), 'bias': torch.zeros(4)}))
m = nn.Linear(3, 4); m.load_state_dict({'weight': torch.ones(4, 3, dtype=torch.float64), 'bias': torch.zeros(4)}); print(m.weight.dtype)
t(lambda: nn.Linear(3, 4).load_state_dict({'weight': torch.zeros(4, 3), 'bias': [0, 0, 0, 0]}))
t(lambda: nn.Linear(3, 4).load_state_dict({'weight': torch.zeros(4, 3), 'bias': torch.zeros(4)}, assign=True))
with torch.no_grad():
    t(lambda: net[0].weight.copy_(torch.zeros(4, 4)))
    t(lambda: net[0].weight.copy_(torch.zeros(3)))
    t(lambda: net[0].bias.copy_(torch.ones(1)))
    t(lambda: net[0].bias.copy_(torch.arange(4)))
    t(lambda: net[0].bias.copy_(np.ones(4)))
    t(lambda: net[0].bias.copy_(torch.ones(4), non_blocking=True))
    t(lambda: net[0].bias.data.copy_(torch.ones(4, 1)))
    t(lambda: net[2].weight.mul_(torch.ones(4)))
    t(lambda: net[2].weight.mul_(torch.ones(2, 1)))
    t(lambda: net[2].weight.mul_(torch.ones(3, 1)))
    t(lambda: net[2].weight.add_(torch.ones(2, 4, dtype=torch.float64)))
    t(lambda: net[2].weight.add_(torch.ones(1, 2, 4)))
t(lambda: net[0].bias.copy_(torch.ones(4)))
t(lambda: nn.Linear(3, 4).load_state_dict(nn.Linear(3, 4)))
''',
    'numpy_ints': r'''
nn = torch.nn; F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
n = np.int64(3); k = np.int32(2); fl = np.float32(1.5); f64 = np.float64(0.25)
t(lambda: nn.Linear(4, n))
t(lambda: nn.Linear(4, n)(torch.ones(1, 4)).shape)
t(lambda: nn.Linear(np.int32(4), 2).weight.shape)
t(lambda: nn.Embedding(n, k).weight.shape)
t(lambda: nn.Conv2d(n, 4, np.int64(3)).weight.shape)
t(lambda: nn.LSTM(n, k).weight_ih_l0.shape)
t(lambda: nn.Linear(4, np.float64(3.0)))
t(lambda: nn.Linear(4, 3.0))
t(lambda: nn.Dropout(f64))
t(lambda: nn.LeakyReLU(fl)(torch.tensor([-1.0])))
t(lambda: nn.Softmax(dim=np.int64(-1))(torch.ones(2)))
t(lambda: torch.arange(n))
t(lambda: torch.arange(fl))
t(lambda: torch.linspace(0, 1, n))
t(lambda: torch.ones(n, k).shape)
t(lambda: torch.randint(0, n, (3,)))
t(lambda: torch.randint(n, (k,)))
t(lambda: torch.full((k,), fl))
t(lambda: torch.full((k,), f64))
t(lambda: torch.full((k,), np.int64(7)))
t(lambda: torch.full((k,), np.bool_(True)))
t(lambda: torch.zeros(3, dtype=np.float32))
t(lambda: torch.zeros(3).to(np.float32))
t(lambda: torch.zeros(3).to(dtype=np.float64))
t(lambda: torch.as_tensor([1, 2], dtype=np.float32))
t(lambda: torch.zeros(3).type(np.float32))
t(lambda: torch.zeros(3).type('torch.DoubleTensor'))
t(lambda: torch.zeros(3).type(torch.float64))
t(lambda: torch.zeros(3).type())
x = torch.arange(6.)
t(lambda: x.repeat(k))
t(lambda: x[np.int64(1):np.int64(3)])
t(lambda: x.view(-1, k).shape)
t(lambda: x.sum(dim=np.int64(0)))
t(lambda: x.reshape(2, 3).sum(np.int32(1)))
t(lambda: torch.cat([x, x], dim=np.int64(0)).shape)
t(lambda: F.one_hot(torch.tensor([0, 2]), n))
t(lambda: torch.multinomial(torch.ones(4), np.int64(2)))
t(lambda: x.topk(k))
t(lambda: x.unsqueeze(np.int64(0)).shape)
t(lambda: x.clamp(min=fl, max=np.float64(4.5)))
t(lambda: x.clamp(np.int64(1), np.int64(3)))
t(lambda: torch.clamp(x, min=torch.tensor(1.), max=4.))
t(lambda: x.narrow(0, np.int64(1), k))
t(lambda: x.roll(k))
t(lambda: x.split(k))
t(lambda: x.chunk(n))
t(lambda: x.flip(np.int64(0)))
t(lambda: x.gather(0, torch.tensor([1, 2])))
t(lambda: x.pow(k))
t(lambda: x * fl)
t(lambda: (x * fl).dtype)
t(lambda: (x * f64).dtype)
t(lambda: (torch.arange(3) * fl).dtype)
t(lambda: (torch.arange(3) * np.int64(2)).dtype)
t(lambda: (torch.arange(3, dtype=torch.int32) * np.int64(2)).dtype)
t(lambda: (torch.arange(3, dtype=torch.uint8) + np.int64(300)))
t(lambda: (torch.ones(2, dtype=torch.float16) * f64).dtype)
t(lambda: torch.tensor(1.5) ** np.float64(2))
t(lambda: np.float64(2) ** torch.tensor(1.5))
t(lambda: torch.tensor(f64).dtype)
t(lambda: torch.tensor([f64, 1.0]).dtype)
t(lambda: torch.tensor([fl, 1.0]).dtype)
t(lambda: torch.tensor([fl, f64]).dtype)
t(lambda: torch.tensor([1, np.int32(2)]).dtype)
t(lambda: torch.tensor([np.int8(1), np.uint8(2)]).dtype)
t(lambda: torch.tensor([np.float16(1), 2.0]).dtype)
t(lambda: F.pad(x.view(1, 6), (k, k)))
t(lambda: F.max_pool1d(x.view(1, 1, 6), k))
t(lambda: F.interpolate(x.view(1, 1, 6), scale_factor=f64 * 8))
t(lambda: F.dropout(x, f64, training=False))
t(lambda: torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=f64).param_groups[0]['lr'])
t(lambda: torch.optim.Adam([torch.zeros(1, requires_grad=True)], lr=fl, betas=(np.float64(0.9), 0.999)))
''',
    'np_int_pools': r'''
F = torch.nn.functional; nn = torch.nn
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
x = torch.arange(12.).view(1, 1, 12)
x2 = torch.arange(24.).view(1, 1, 4, 6)
x3 = torch.arange(48.).view(1, 1, 2, 4, 6)
i2, i1 = np.int64(2), np.int32(1)
t(lambda: F.max_pool1d(x, i2))
t(lambda: F.max_pool1d(x, i2, i1, np.int64(0)))
t(lambda: F.max_pool1d(x, i2, return_indices=True))
t(lambda: F.avg_pool1d(x, i2))
t(lambda: F.avg_pool1d(x, 3, i2, i1))
t(lambda: F.max_pool2d(x2, i2))
t(lambda: F.max_pool2d(x2, (i2, i2), stride=i1))
t(lambda: F.avg_pool2d(x2, i2, i2))
t(lambda: F.max_pool3d(x3, i2))
t(lambda: F.avg_pool3d(x3, i2))
t(lambda: F.adaptive_avg_pool1d(x, i2))
t(lambda: F.adaptive_max_pool1d(x, i2))
t(lambda: F.adaptive_avg_pool2d(x2, i2))
t(lambda: F.adaptive_avg_pool2d(x2, (i2, None)))
t(lambda: F.adaptive_max_pool2d(x2, i1))
t(lambda: F.adaptive_avg_pool3d(x3, i1))
t(lambda: F.lp_pool1d(x, 2, i2))
t(lambda: F.lp_pool2d(x2, 2, i2))
t(lambda: F.conv1d(x, torch.ones(1, 1, 3), stride=i2, padding=i1, dilation=i1))
t(lambda: F.conv2d(x2, torch.ones(1, 1, 2, 2), stride=i2))
t(lambda: F.conv2d(x2, torch.ones(1, 1, 2, 2), padding=(i1, i1)))
t(lambda: F.conv_transpose2d(x2, torch.ones(1, 1, 2, 2), stride=i2))
t(lambda: F.conv_transpose1d(x, torch.ones(1, 1, 2), stride=i2, output_padding=i1))
t(lambda: nn.Conv2d(1, 2, i2, stride=i2)(x2).shape)
t(lambda: nn.MaxPool2d(i2)(x2).shape)
t(lambda: nn.AdaptiveAvgPool2d(i1)(x2).shape)
t(lambda: F.unfold(x2, i2))
t(lambda: F.fold(torch.ones(1, 4, 6), (4, 6), i2, stride=i2).shape)
t(lambda: F.interpolate(x2, size=(i2, i2)))
t(lambda: F.pixel_shuffle(torch.ones(1, 4, 2, 2), i2).shape)
t(lambda: F.fractional_max_pool2d(x2, i2, output_size=i1, _random_samples=torch.full((1, 1, 2), 0.5)))
t(lambda: F.max_pool1d(x, np.float64(2.0)))
t(lambda: F.max_pool2d(x2, True))
t(lambda: F.avg_pool1d(x, torch.tensor(2)))
''',
    'numpy_scalars': r'''
nn = torch.nn; F = torch.nn.functional; D = torch.distributions
def t(f):
    try:
        r = f(); print(r, getattr(r, 'dtype', ''))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
i2, i3 = np.int64(2), np.int32(3); f32, f64 = np.float32(0.5), np.float64(0.25); b = np.bool_(True)
x = torch.arange(6.); xi = torch.arange(6)
t(lambda: torch.Size([i2, 3]))
t(lambda: x.new_full((i2,), f32))
t(lambda: torch.full_like(x, f64))
t(lambda: torch.full((2,), f32))
t(lambda: torch.full((2,), b))
t(lambda: x.new_tensor(f32))
t(lambda: torch.tril(x.view(2, 3), i2 - 2))
t(lambda: torch.eye(i3))
t(lambda: torch.eye(i2, i3))
t(lambda: torch.arange(0, f32, 0.25))
t(lambda: torch.arange(0, 1, f64))
t(lambda: torch.logspace(0, 1, i3))
t(lambda: x.expand(i2, -1))
t(lambda: x.view(1, 6).expand(i2, 6))
t(lambda: x.unfold(0, i2, 1))
t(lambda: torch.split(x, [i2, np.int64(4)]))
t(lambda: torch.tensor_split(x, i3))
t(lambda: x.index_fill(0, torch.tensor([0]), i3))
t(lambda: xi.index_fill(0, torch.tensor([0]), f32))
t(lambda: x.masked_fill(x > 2, np.float32(-np.inf)))
t(lambda: xi.masked_fill(xi > 2, f64))
t(lambda: x.clone().fill_(f64))
t(lambda: xi.clone().fill_(f32))
y = x.clone(); y[y > 3] = f32; print(y)
yi = xi.clone(); yi[yi > 3] = f32; print(yi)
yi[0] = np.float64(7.9); print(yi)
t(lambda: torch.where(x > 2, f32, x))
t(lambda: torch.where(x > 2, f64, 0.0))
t(lambda: torch.where(x > 2, i2, xi))
t(lambda: torch.where(xi > 2, np.float32(1.5), np.float32(0)))
t(lambda: torch.clamp(x, min=f32, max=i3))
t(lambda: torch.clamp(xi, min=f32))
t(lambda: xi.clamp(max=np.int64(3)))
t(lambda: x ** np.float32(2))
t(lambda: xi ** np.float32(2))
t(lambda: xi ** np.int64(2))
t(lambda: xi.pow(f64))
t(lambda: f32 ** xi)
t(lambda: np.float32(2) * xi)
t(lambda: xi / np.int64(2))
t(lambda: xi // np.float64(2))
t(lambda: xi % np.float32(4))
t(lambda: xi & np.int64(3))
t(lambda: xi << np.int64(1))
t(lambda: xi == np.float64(2))
t(lambda: x.norm(p=i2))
t(lambda: F.normalize(x.view(2, 3), p=np.float64(2), dim=np.int64(1)))
t(lambda: torch.quantile(x, f64))
t(lambda: x.quantile(torch.tensor([f64, f32])))
t(lambda: F.leaky_relu(x - 3, negative_slope=f32))
t(lambda: F.elu(x - 3, alpha=f64))
t(lambda: F.hardtanh(x, np.float32(1), np.float64(2)))
t(lambda: F.softmax(x.view(2, 3), dim=np.int64(1)))
t(lambda: F.dropout(x, p=f64, training=False))
t(lambda: F.embedding(torch.tensor([1]), torch.ones(3, 2) * 3, max_norm=f32))
t(lambda: nn.Embedding(3, 2, padding_idx=np.int64(0)).padding_idx)
t(lambda: D.Binomial(total_count=np.int64(10), probs=torch.tensor(0.5)).mean)
t(lambda: D.Categorical(logits=torch.zeros(3)).sample((i2,)))
t(lambda: D.Normal(f32, f64).sample())
t(lambda: D.Normal(f32, f64).log_prob(torch.tensor(0.)))
t(lambda: D.Normal(torch.tensor(0.), 1.).log_prob(np.float32(0.5)))
t(lambda: D.Uniform(np.float32(0), np.float32(1)).sample((2,)))
t(lambda: D.Bernoulli(probs=f64).sample((3,)))
t(lambda: torch.optim.lr_scheduler.StepLR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1), step_size=np.int64(2), gamma=np.float64(0.5)).get_last_lr())
t(lambda: nn.utils.clip_grad_norm_([torch.ones(2, requires_grad=True)], max_norm=f32))
t(lambda: torch.randint(0, 5, (i2,), dtype=torch.int32))
t(lambda: torch.randn(i2, i3).shape)
t(lambda: torch.multinomial(torch.ones(3), i2, replacement=b))
t(lambda: x.sum(keepdim=b))
t(lambda: x.view(2, 3).sum(1, keepdim=np.bool_(True)))
t(lambda: x.argmax(keepdim=np.bool_(False)))
t(lambda: x.view(2, 3).max(np.int64(1), keepdim=np.bool_(True)))
t(lambda: torch.sort(x, descending=np.bool_(True)))
t(lambda: torch.tensor([1.0], requires_grad=np.bool_(True)))
t(lambda: x.requires_grad_(np.bool_(True)).requires_grad)
t(lambda: F.gumbel_softmax(torch.zeros(3), tau=f64, hard=np.bool_(True)).sum())
t(lambda: torch.topk(x, i2, largest=np.bool_(False)))
t(lambda: torch.cumsum(x, np.int64(0)))
t(lambda: torch.flip(x, (np.int64(0),)))
t(lambda: x.transpose(np.int64(0), np.int32(0)))
t(lambda: x.view(2, 3).permute(np.int64(1), 0).shape)
t(lambda: x.view(2, 3)[:, np.int64(1)])
t(lambda: x[[np.int64(1), np.int64(2)]])
t(lambda: x[np.array([1, 2])])
t(lambda: x[np.bool_(True)])
t(lambda: x.view(2, 3)[np.int64(1), np.int32(2)])
''',
    'dist_repr': r'''
D = torch.distributions
torch.manual_seed(0)
for d in [D.Normal(0., 1.), D.Normal(torch.tensor(0.), 1.), D.Normal(torch.zeros(2), torch.ones(2)), D.Categorical(logits=torch.zeros(3)), D.Categorical(probs=torch.ones(3) / 3),
          D.Bernoulli(0.3), D.Bernoulli(logits=torch.zeros(2)), D.Beta(2., 3.), D.Uniform(0., 1.), D.MultivariateNormal(torch.zeros(2), torch.eye(2)), D.Independent(D.Normal(torch.zeros(3), 1.), 1),
          D.OneHotCategorical(logits=torch.zeros(3)), D.Gamma(1., 1.), D.Dirichlet(torch.ones(3)), D.Laplace(0., 1.), D.Poisson(2.), D.Binomial(5, torch.tensor(0.5)),
          D.TransformedDistribution(D.Normal(0., 1.), [D.transforms.TanhTransform()]), D.RelaxedOneHotCategorical(torch.tensor(1.), logits=torch.zeros(2)), D.LogNormal(0., 1.), D.Exponential(1.), D.MixtureSameFamily(D.Categorical(torch.ones(2)), D.Normal(torch.zeros(2), 1.))]:
    print(d)
    print(d.batch_shape, d.event_shape, d.has_rsample)
print(D.transforms.TanhTransform(), D.transforms.AffineTransform(0., 2.), D.transforms.ComposeTransform([D.transforms.TanhTransform(), D.transforms.ExpTransform()]))
print(D.constraints.simplex, D.constraints.real, D.constraints.interval(0, 1), D.constraints.positive, D.constraints.integer_interval(0, 3), D.constraints.greater_than(2.))
print(D.Normal(0., 1.).mean, D.Normal(0., 1.).stddev, D.Categorical(logits=torch.zeros(3)).probs)
''',
    'losses2': r'''
F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
lp = F.log_softmax(torch.randn(4, 3), -1); tp = F.softmax(torch.randn(4, 3), -1)
t(lambda: F.kl_div(lp, tp))
t(lambda: F.kl_div(lp, tp, reduction='batchmean'))
t(lambda: F.kl_div(lp, tp.log(), reduction='sum', log_target=True))
t(lambda: F.kl_div(lp, tp, reduction='none').sum(1))
t(lambda: torch.nn.KLDivLoss(reduction='batchmean')(lp, tp))
t(lambda: F.cross_entropy(torch.randn(4, 3), tp))
t(lambda: F.cross_entropy(torch.randn(4, 3), tp, label_smoothing=0.1))
t(lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0, -100, 2, 1])))
t(lambda: F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 2, 1]), weight=torch.tensor([1., 2., 3.])))
t(lambda: F.cross_entropy(torch.randn(4, 3), tp.double()))
t(lambda: F.cross_entropy(torch.randn(4, 3), tp[:, :2]))
t(lambda: F.nll_loss(lp, torch.tensor([0, 1, 2, 3])))
t(lambda: F.nll_loss(lp, torch.tensor([0, 1, 2, 1]), ignore_index=1))
t(lambda: F.binary_cross_entropy_with_logits(torch.randn(4), torch.tensor([1., 0., 1., 0.]), pos_weight=torch.tensor(2.)))
t(lambda: F.binary_cross_entropy(torch.tensor([0., 1.]), torch.tensor([0., 1.])))
t(lambda: F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0., 1.])))
t(lambda: F.cosine_similarity(torch.randn(4, 3), torch.randn(1, 3)))
t(lambda: F.cosine_similarity(torch.zeros(2, 3), torch.randn(2, 3)))
t(lambda: F.pairwise_distance(torch.randn(4, 3), torch.randn(4, 3)))
emb = torch.randn(10, 4); q = torch.randn(2, 4)
d = torch.cdist(q, emb); print(d.shape, d.topk(3, largest=False).indices)
d2 = ((q[:, None] - emb[None]) ** 2).sum(-1); print(d2.topk(3, largest=False).indices, d2.sqrt().sub(d).abs().max() < 1e-5)
t(lambda: F.mse_loss(torch.randn(3, 1), torch.randn(3)))
t(lambda: F.l1_loss(torch.randn(3, 1), torch.randn(3)))
t(lambda: F.smooth_l1_loss(torch.randn(3, 1), torch.randn(3)))
t(lambda: F.huber_loss(torch.randn(3, 1), torch.randn(3)))
t(lambda: F.binary_cross_entropy(torch.rand(3, 1), torch.rand(3)))
t(lambda: F.mse_loss(torch.randn(3), torch.randn(3, requires_grad=True)).grad_fn)
t(lambda: F.poisson_nll_loss(torch.randn(3), torch.rand(3)))
t(lambda: F.gaussian_nll_loss(torch.randn(3), torch.randn(3), torch.rand(3)))
t(lambda: F.gaussian_nll_loss(torch.randn(3, 2), torch.randn(3, 2), torch.rand(3, 1)))
t(lambda: F.gaussian_nll_loss(torch.randn(3, 2), torch.randn(3, 2), -torch.rand(3, 2)))
''',
    'legacy': r'''
def t(f):
    try:
        r = f(); print(r, r.dtype, r.shape)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
x = torch.tensor([1.5, 2.5]); xl = torch.tensor([1, 2]); xb = torch.tensor([True, False])
t(lambda: torch.FloatTensor(np.array([1.5, 2.0])))
t(lambda: torch.LongTensor(np.array([1.5, 2.7])))
t(lambda: torch.FloatTensor([]))
t(lambda: torch.FloatTensor(()))
t(lambda: torch.Tensor(x, device='cpu'))
t(lambda: torch.FloatTensor(x, device='cpu'))
t(lambda: torch.Tensor([1, 2], device='cpu'))
t(lambda: torch.Tensor([1, 2], dtype=torch.float64))
t(lambda: torch.ByteTensor(xb))
t(lambda: torch.BoolTensor(xb))
t(lambda: torch.BoolTensor([1, 0]))
t(lambda: torch.LongTensor(xl))
t(lambda: torch.IntTensor(xl))
t(lambda: torch.DoubleTensor(x.double()))
t(lambda: torch.FloatTensor(torch.tensor(3)))
t(lambda: torch.FloatTensor(x[0]))
t(lambda: torch.Tensor(x[0]))
t(lambda: torch.Tensor(xl[0]))
t(lambda: x.new(x))
t(lambda: x.new(xl))
t(lambda: x.new([1, 2]))
t(lambda: x.new(2, 3).shape and x.new(2, 3).fill_(1))
t(lambda: x.new())
t(lambda: xl.new([1.5]))
a = torch.tensor([1., 2.]); b = torch.Tensor(a); b[0] = 9; print(a, b._base is a, a._version, b._version)
c = torch.FloatTensor(a); c.add_(1); print(a)
w = torch.ones(2, requires_grad=True)
t(lambda: torch.Tensor(w).add_(1))
v = torch.Tensor(w); print(v.grad_fn.name(), v.requires_grad, v.is_leaf)
(v * 3).sum().backward(); print(w.grad)
''',
    'api_mistakes': r'''
nn = torch.nn; F = torch.nn.functional
def t(f):
    try:
        r = f(); print(r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
torch.manual_seed(0)
model = nn.Linear(4, 2)
t(lambda: torch.optim.Adam(model))
t(lambda: torch.optim.Adam(model.parameters))
t(lambda: torch.optim.Adam({'params': model.parameters()}))
t(lambda: torch.optim.Adam(model.state_dict()))
t(lambda: torch.optim.Adam(model.named_parameters()))
t(lambda: torch.optim.Adam([]))
t(lambda: torch.optim.SGD(lr=0.1))
t(lambda: torch.optim.Adam([{'params': model.weight}, {'lr': 0.1}]))
t(lambda: torch.optim.Adam([{'params': model.weight, 'foo': 1}]).param_groups[0]['foo'])
t(lambda: torch.optim.Adam(model.parameters(), lr='0.1'))
t(lambda: torch.optim.Adam(model.parameters(), weight_decay=-1))
t(lambda: torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True))
t(lambda: torch.optim.RMSprop(model.parameters(), alpha=-1))
t(lambda: nn.Sequential([nn.Linear(2, 2), nn.ReLU()]))
t(lambda: nn.Sequential(nn.Linear(2, 2), F.relu))
t(lambda: nn.ModuleList(nn.Linear(2, 2)))
t(lambda: nn.ModuleList([nn.Linear(2, 2), lambda x: x]))
t(lambda: nn.ModuleDict({'a': 1}))
t(lambda: nn.ParameterList([torch.zeros(2)])[0])
t(lambda: model(torch.randn(3, 5)))
t(lambda: model(torch.randn(5, 3).T.T))
t(lambda: model(torch.randn(4)))
t(lambda: model(torch.randn(2, 3, 4)).shape)
t(lambda: model(torch.randn(0, 4)))
t(lambda: model())
t(lambda: model(torch.randn(1, 4), torch.randn(1, 4)))
t(lambda: nn.Linear(4)(torch.randn(1, 4)))
t(lambda: nn.Linear(4, 2, 3))
t(lambda: nn.Linear(-1, 2))
t(lambda: nn.Linear(4, 0)(torch.randn(1, 4)))
t(lambda: nn.Conv2d(3, 16, 3)(torch.randn(3, 32, 32)).shape)
t(lambda: nn.Conv2d(3, 16, 3)(torch.randn(1, 32, 32, 3)))
t(lambda: nn.Conv2d(3, 16, 8, stride=4)(torch.randn(1, 3, 4, 4)))
t(lambda: nn.BatchNorm1d(4)(torch.randn(1, 4)))
t(lambda: nn.BatchNorm1d(4).eval()(torch.randn(1, 4)))
t(lambda: nn.LayerNorm(5)(torch.randn(2, 4)))
t(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
t(lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
t(lambda: nn.LSTM(4, 8)(torch.randn(3, 4)).__class__)
t(lambda: nn.LSTM(4, 8)(torch.randn(3, 2, 5)))
t(lambda: nn.MSELoss()(torch.randn(3), torch.randn(4)))
t(lambda: nn.CrossEntropyLoss()(torch.randn(3, 4), torch.tensor([0, 1, 4])))
t(lambda: nn.CrossEntropyLoss()(torch.randn(3, 4), torch.tensor([0, 1])))
t(lambda: nn.CrossEntropyLoss()(torch.randn(4), torch.tensor(1)))
t(lambda: nn.CrossEntropyLoss()(torch.randn(3, 4), torch.tensor([[0], [1], [2]])))
t(lambda: F.softmax(torch.randn(3), dim=1))
t(lambda: torch.randn(3).view(2, 2))
t(lambda: torch.randn(2, 3).t().view(-1))
t(lambda: torch.randn(2, 3) @ torch.randn(2, 3))
t(lambda: torch.randn(3) @ torch.randn(4))
t(lambda: torch.mm(torch.randn(3), torch.randn(3)))
t(lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(2, 3, 4)))
t(lambda: torch.randn(2, 3) + torch.randn(3, 2))
t(lambda: torch.randn(2, 3).expand(4, 3))
t(lambda: torch.randn(2, 3).squeeze(5))
t(lambda: torch.randn(2, 3).unsqueeze(3))
t(lambda: torch.randn(2, 3).transpose(0, 2))
t(lambda: torch.randn(2, 3).permute(1, 0, 2))
t(lambda: torch.randn(2, 3)[2])
t(lambda: torch.randn(2, 3)[:, 3])
t(lambda: torch.randn(2, 3)[0, 0, 0])
''',
    'np_sharing': r'''
import warnings
def t(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f(); print(r)
        except Exception as e:
            print(type(e).__name__, str(e).split("\n")[0][:300])
    for m in w: print("  W", str(m.message).split(" (Triggered")[0][:80])
buf = np.zeros((4, 3), dtype=np.float32)
a = torch.as_tensor(buf); buf[0, 0] = 5; print(a[0, 0], a.dtype)
b = torch.as_tensor(buf, dtype=torch.float64); buf[0, 1] = 6; print(b[0, 1])
c = torch.from_numpy(buf[[0, 2]]); buf[0, 2] = 7; print(c[0, 2])
d = torch.from_numpy(buf[1:3]); buf[1, 0] = 8; print(d[0, 0], d.storage_offset(), d.is_contiguous())
e = torch.from_numpy(buf[:, 1]); print(e.stride(), e.is_contiguous())
ro = np.broadcast_to(np.arange(3.0), (2, 3))
t(lambda: torch.as_tensor(ro))
t(lambda: torch.from_numpy(ro))
t(lambda: torch.tensor(ro))
fb = np.frombuffer(b'\x00' * 16, dtype=np.float32)
t(lambda: torch.from_numpy(fb))
t(lambda: torch.as_tensor(fb))
t(lambda: torch.as_tensor(buf.T).stride())
t(lambda: torch.from_numpy(buf.T).is_contiguous())
t(lambda: torch.as_tensor(buf[::2]).stride())
t(lambda: torch.from_numpy(buf[::-1]))
t(lambda: torch.as_tensor(buf[::-1]))
t(lambda: torch.as_tensor(buf[::-1]).stride())
t(lambda: torch.tensor(buf[::-1])[0])
t(lambda: torch.from_numpy(np.zeros(3, dtype='>f4')))
t(lambda: torch.as_tensor(np.zeros(3, dtype='>f4')))
t(lambda: torch.tensor(np.zeros(3, dtype='>f4')))
x = torch.zeros(3); n = x.numpy(); n[0] = 1; print(x)
y = torch.ones(2, requires_grad=True)
t(lambda: y.numpy())
t(lambda: y.detach().numpy().flags.writeable)
t(lambda: y.numpy(force=True))
z = torch.arange(6.).view(2, 3).t(); print(z.numpy().strides, z.numpy().flags.c_contiguous)
print(torch.arange(3).numpy().dtype, torch.tensor([True]).numpy().dtype, torch.tensor([1.], dtype=torch.float16).numpy().dtype)
t(lambda: torch.tensor([1.], dtype=torch.bfloat16).numpy())
''',
    'action_bounds': r'''
def t(f):
    try:
        r = f(); print(r, r.dtype)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
low = np.array([-1.0, -2.0]); high = np.array([1.0, 2.0]); low32 = low.astype(np.float32)
a = torch.tensor([[1.5, -3.0], [0.2, 0.1]])
t(lambda: torch.clamp(a, torch.tensor(low), torch.tensor(high)))
t(lambda: torch.clamp(a, torch.from_numpy(low32), torch.from_numpy(high.astype(np.float32))))
t(lambda: a.clamp(min=torch.tensor(low)))
t(lambda: a.clamp(torch.tensor(-1.0, dtype=torch.float64), 1.0))
t(lambda: a.clamp(low, high))
t(lambda: a.clamp_(torch.tensor(low), torch.tensor(high)))
t(lambda: torch.clamp(a.long(), torch.tensor(low), torch.tensor(high)))
t(lambda: torch.clamp(a.long(), min=0.5))
t(lambda: torch.clamp(a.long(), min=torch.tensor(0.5)))
t(lambda: torch.clip(a, -1, torch.tensor(1.0)))
t(lambda: torch.max(a, torch.tensor(low)))
t(lambda: torch.maximum(a, torch.tensor(low)))
t(lambda: torch.minimum(a.long(), torch.tensor(high)))
t(lambda: torch.where(a > 0, a, torch.tensor(low)))
t(lambda: torch.where(a > 0, a, torch.tensor(0.0, dtype=torch.float64)))
t(lambda: torch.where(a > 0, a, torch.tensor([0.0], dtype=torch.float64)))
t(lambda: torch.where(a > 0, a.long(), 0.5))
t(lambda: low + (a + 1.0) * 0.5 * (high - low))
t(lambda: torch.tensor(low) + (a + 1.0) * 0.5 * torch.tensor(high - low))
t(lambda: torch.as_tensor(low, dtype=torch.float32) + (a + 1.0) * 0.5 * torch.as_tensor(high - low, dtype=torch.float32))
t(lambda: (a * torch.tensor(2.0, dtype=torch.float64)))
t(lambda: (a * torch.tensor([2.0], dtype=torch.float64)))
t(lambda: (a.half() * torch.tensor(2.0)))
t(lambda: (a.long() * torch.tensor(2.5, dtype=torch.float64)))
t(lambda: a.add_(torch.tensor([1.0], dtype=torch.float64)))
t(lambda: a.long().add_(torch.tensor([1.0])))
t(lambda: a.long().add_(1.5))
t(lambda: a.long().mul_(torch.tensor(2)))
t(lambda: a.bool().add_(1))
t(lambda: a.int().div_(2))
t(lambda: a.int().div_(2, rounding_mode='floor'))
t(lambda: a.int() // 2)
''',
    'type_conv': r'''
def t(f):
    try:
        r = f(); print(r, getattr(r, 'dtype', ''))
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:300])
acts = np.array([1, 0, 2], dtype=np.int32)
t(lambda: torch.LongTensor(acts))
t(lambda: torch.from_numpy(acts).long())
t(lambda: torch.tensor(acts).type(torch.LongTensor))
t(lambda: torch.tensor(acts).type(torch.FloatTensor))
t(lambda: torch.tensor(acts).type('torch.FloatTensor'))
t(lambda: torch.tensor(acts).to(torch.LongTensor))
t(lambda: torch.tensor(acts).type(torch.int64))
t(lambda: torch.tensor(acts).type())
t(lambda: isinstance(torch.tensor(acts), torch.IntTensor))
t(lambda: isinstance(torch.tensor(acts).long(), torch.LongTensor))
t(lambda: isinstance(torch.zeros(1), torch.Tensor))
t(lambda: torch.is_tensor(acts))
t(lambda: torch.is_floating_point(torch.tensor(acts)))
t(lambda: torch.tensor(acts).is_floating_point())
t(lambda: torch.numel(torch.tensor(acts)))
t(lambda: torch.ByteTensor([300]))
t(lambda: torch.ByteTensor([-1]))
t(lambda: torch.CharTensor([200]))
t(lambda: torch.ShortTensor([1.7]))
t(lambda: torch.HalfTensor([1e5]))
t(lambda: torch.BFloat16Tensor([1.1]))
t(lambda: torch.cuda.FloatTensor([1.0]))
t(lambda: torch.FloatTensor([[1, 2], [3]]))
t(lambda: torch.FloatTensor('abc'))
t(lambda: torch.FloatTensor(None))
t(lambda: torch.FloatTensor([None]))
t(lambda: torch.FloatTensor(2.5))
t(lambda: torch.FloatTensor(True))
t(lambda: torch.FloatTensor(-1))
''',
    'reinforce': r'''
nn = torch.nn; F = torch.nn.functional
Categorical = torch.distributions.Categorical
torch.manual_seed(0); np.random.seed(0)
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 16)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []
    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)
policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
eps = np.finfo(np.float32).eps.item()
def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()
def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + 0.99 * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    print(policy_loss, returns.dtype, returns[:3])
    del policy.rewards[:]
    del policy.saved_log_probs[:]
rng = np.random.RandomState(0)
for ep in range(3):
    state = rng.randn(4)
    for t in range(10):
        a = select_action(state)
        state = state + 0.1 * (a - 0.5) + rng.randn(4) * 0.01
        policy.rewards.append(1.0 if abs(state[0]) < 1 else 0.0)
    finish_episode()
print(policy.affine2.weight)
''',
    'actor_critic': r'''
nn = torch.nn; F = torch.nn.functional
Categorical = torch.distributions.Categorical
from collections import namedtuple
torch.manual_seed(1)
SavedAction = namedtuple('SavedAction', ['log_prob', 'value'])
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 32)
        self.action_head = nn.Linear(32, 2)
        self.value_head = nn.Linear(32, 1)
        self.saved_actions = []; self.rewards = []
    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values
model = Policy()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-2)
eps = np.finfo(np.float32).eps.item()
def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()
def finish_episode():
    R = 0; saved_actions = model.saved_actions
    policy_losses = []; value_losses = []; returns = []
    for r in model.rewards[::-1]:
        R = r + 0.99 * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    print(loss, loss.grad_fn, torch.stack(value_losses).shape)
    del model.rewards[:]; del model.saved_actions[:]
state = np.zeros(4)
for ep in range(3):
    for t in range(8):
        a = select_action(state)
        state = np.clip(state + (a - 0.5) * 0.3, -1, 1)
        model.rewards.append(float(state.sum()))
    finish_episode()
print(model.value_head.bias, model.action_head.weight.grad)
''',
    'dqn': r'''
import random
from collections import deque, namedtuple
nn = torch.nn; F = torch.nn.functional
random.seed(0); torch.manual_seed(0); np.random.seed(0)
Transition = namedtuple('Transition', ('state', 'action', 'next_state', 'reward'))
class ReplayMemory:
    def __init__(self, capacity): self.memory = deque([], maxlen=capacity)
    def push(self, *args): self.memory.append(Transition(*args))
    def sample(self, batch_size): return random.sample(self.memory, batch_size)
    def __len__(self): return len(self.memory)
class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, n_actions)
    def forward(self, x):
        x = F.relu(self.layer1(x)); x = F.relu(self.layer2(x)); return self.layer3(x)
policy_net = DQN(4, 2); target_net = DQN(4, 2)
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-4, amsgrad=True)
memory = ReplayMemory(1000)
steps_done = 0
def select_action(state):
    global steps_done
    sample = random.random()
    eps_threshold = 0.05 + (0.9 - 0.05) * np.exp(-1. * steps_done / 1000)
    steps_done += 1
    if sample > eps_threshold:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    else:
        return torch.tensor([[random.randrange(2)]], dtype=torch.long)
def optimize_model():
    if len(memory) < 16: return
    transitions = memory.sample(16)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state); action_batch = torch.cat(batch.action); reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(16)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * 0.99) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad(); loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss
for ep in range(3):
    state = torch.tensor(np.random.randn(4), dtype=torch.float32).unsqueeze(0)
    for t in range(12):
        action = select_action(state)
        obs = np.random.randn(4); reward = torch.tensor([float(action.item())])
        next_state = None if t == 11 else torch.tensor(obs, dtype=torch.float32).unsqueeze(0)
        memory.push(state, action, next_state, reward)
        state = next_state
        loss = optimize_model()
        target_net_state_dict = target_net.state_dict(); policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key]*0.005 + target_net_state_dict[key]*(1-0.005)
        target_net.load_state_dict(target_net_state_dict)
        if loss is not None and t % 4 == 0: print(ep, t, round(loss.item(), 4), loss)
print(target_net.layer3.bias)
''',
    'ppo': r'''
nn = torch.nn
Categorical = torch.distributions.Categorical; Normal = torch.distributions.Normal
torch.manual_seed(0)
class AC(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 4))
        self.critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None: action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)
agent = AC(); opt = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)
T, N = 8, 2
obs = torch.zeros((T, N, 3)); actions = torch.zeros((T, N)); logprobs = torch.zeros((T, N))
rewards = torch.zeros((T, N)); dones = torch.zeros((T, N)); values = torch.zeros((T, N))
next_obs = torch.randn(N, 3); next_done = torch.zeros(N)
for step in range(T):
    obs[step] = next_obs; dones[step] = next_done
    with torch.no_grad():
        action, logprob, _, value = agent.get_action_and_value(next_obs)
        values[step] = value.flatten()
    actions[step] = action; logprobs[step] = logprob
    rewards[step] = torch.tensor(np.array([1.0, -0.5]) * (action.numpy() - 1.5)).view(-1)
    next_obs = torch.randn(N, 3); next_done = torch.Tensor(np.array([step == 5, False]).astype(np.float32))
with torch.no_grad():
    next_value = agent.critic(next_obs).reshape(1, -1)
    advantages = torch.zeros_like(rewards); lastgaelam = 0
    for t in reversed(range(T)):
        if t == T - 1:
            nextnonterminal = 1.0 - next_done; nextvalues = next_value
        else:
            nextnonterminal = 1.0 - dones[t + 1]; nextvalues = values[t + 1]
        delta = rewards[t] + 0.99 * nextvalues * nextnonterminal - values[t]
        advantages[t] = lastgaelam = delta + 0.99 * 0.95 * nextnonterminal * lastgaelam
    returns = advantages + values
print(advantages, returns.dtype, lastgaelam.shape)
b_obs = obs.reshape((-1, 3)); b_logprobs = logprobs.reshape(-1); b_actions = actions.reshape(-1)
b_adv = advantages.reshape(-1); b_ret = returns.reshape(-1); b_values = values.reshape(-1)
b_inds = np.arange(T * N)
clipfracs = []
for epoch in range(2):
    np.random.seed(epoch); np.random.shuffle(b_inds)
    for start in range(0, T * N, 8):
        mb = b_inds[start:start + 8]
        _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions.long()[mb])
        logratio = newlogprob - b_logprobs[mb]; ratio = logratio.exp()
        with torch.no_grad():
            old_approx_kl = (-logratio).mean(); approx_kl = ((ratio - 1) - logratio).mean()
            clipfracs += [((ratio - 1.0).abs() > 0.2).float().mean().item()]
        mb_adv = b_adv[mb]; mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
        pg_loss1 = -mb_adv * ratio; pg_loss2 = -mb_adv * torch.clamp(ratio, 1 - 0.2, 1 + 0.2)
        pg_loss = torch.max(pg_loss1, pg_loss2).mean()
        newvalue = newvalue.view(-1)
        v_loss_unclipped = (newvalue - b_ret[mb]) ** 2
        v_clipped = b_values[mb] + torch.clamp(newvalue - b_values[mb], -0.2, 0.2)
        v_loss_clipped = (v_clipped - b_ret[mb]) ** 2
        v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
        loss = pg_loss - 0.01 * entropy.mean() + v_loss * 0.5
        opt.zero_grad(); loss.backward()
        gn = nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        opt.step()
        print(f"{loss.item():.4f} {pg_loss.item():.4f} {v_loss.item():.4f} {approx_kl.item():.3e} {old_approx_kl:.4f}", gn)
y_pred, y_true = b_values.numpy(), b_ret.numpy()
var_y = np.var(y_true); print(round(float(1 - np.var(y_true - y_pred) / var_y), 4), clipfracs)
''',
    'normal': r'''
nn = torch.nn
Normal = torch.distributions.Normal; Independent = torch.distributions.Independent; MultivariateNormal = torch.distributions.MultivariateNormal
torch.manual_seed(3)
mu = nn.Linear(3, 2); log_std = nn.Parameter(torch.zeros(2) - 0.5)
x = torch.randn(5, 3)
dist = Normal(mu(x), log_std.exp())
a = dist.sample(); print(a, a.requires_grad)
lp = dist.log_prob(a); print(lp, lp.sum(-1), lp.sum(axis=-1))
print(dist.entropy(), dist.entropy().sum(-1).mean())
r = dist.rsample(); print(r.grad_fn)
ind = Independent(dist, 1); print(ind.log_prob(a), ind.entropy(), ind.batch_shape, ind.event_shape)
print(dist)
print(ind)
# tanh squash (SAC)
u = dist.rsample(); act = torch.tanh(u)
logp = dist.log_prob(u).sum(-1) - (2 * (np.log(2) - u - nn.functional.softplus(-2 * u))).sum(-1)
print(logp)
logp2 = dist.log_prob(u) - torch.log(1 - act.pow(2) + 1e-6)
print(logp2.sum(1, keepdim=True))
cov = torch.diag(torch.full((2,), 0.25))
mvn = MultivariateNormal(mu(x), cov); s = mvn.sample(); print(s, mvn.log_prob(s), mvn.entropy())
print(mvn)
loss = -(lp.sum(-1) * torch.randn(5)).mean(); loss.backward(); print(log_std.grad, mu.weight.grad)
print(Normal(0., 1.).log_prob(torch.tensor(0.5)), Normal(torch.tensor(0.), 1.).cdf(torch.tensor([0., 1.])))
print(Normal(torch.zeros(2), torch.ones(2)).sample((3,)).shape)
''',
    'gridworld': r'''
torch.manual_seed(0)
class GridWorld:
    def __init__(self, n=4):
        self.n = n; self.reset()
    def reset(self):
        self.pos = (0, 0); return self._obs()
    def _obs(self):
        s = np.zeros(self.n * self.n, dtype=np.float32); s[self.pos[0] * self.n + self.pos[1]] = 1; return s
    def step(self, a):
        dr, dc = [(-1, 0), (1, 0), (0, -1), (0, 1)][a]
        r = min(max(self.pos[0] + dr, 0), self.n - 1); c = min(max(self.pos[1] + dc, 0), self.n - 1)
        self.pos = (r, c); done = self.pos == (self.n - 1, self.n - 1)
        return self._obs(), (1.0 if done else -0.01), done, {}
env = GridWorld()
Q = torch.zeros(16, 4)
eps = 0.3; alpha = 0.5; gamma = 0.9
for ep in range(20):
    s = env.reset(); si = int(np.argmax(s)); done = False; steps = 0
    while not done and steps < 50:
        if torch.rand(1).item() < eps: a = torch.randint(0, 4, (1,)).item()
        else: a = Q[si].argmax().item()
        s2, r, done, _ = env.step(a); s2i = int(s2.argmax())
        target = r + gamma * Q[s2i].max() * (not done)
        Q[si, a] += alpha * (target - Q[si, a])
        si = s2i; steps += 1
    if ep % 5 == 0: print(ep, steps)
print(Q.max(1)); print(Q.argmax(dim=1).view(4, 4))
print(torch.max(Q, 1)[0].reshape(4, 4))
print(Q.max(dim=1, keepdim=True)[1].shape)
print(torch.tensor(env.step(3)[0]).dtype, torch.as_tensor(env.step(1)[0]).nonzero())
''',
    'bandit': r'''
torch.manual_seed(42)
k = 5
true_means = torch.randn(k)
est = torch.zeros(k); counts = torch.zeros(k, dtype=torch.long)
total = 0.
for t in range(200):
    if torch.rand(()) < 0.1:
        a = torch.randint(k, ()).item()
    else:
        a = torch.argmax(est).item()
    r = true_means[a] + torch.randn(())
    counts[a] += 1
    est[a] += (r - est[a]) / counts[a]
    total += r
print(est, counts, total)
# UCB
est2 = torch.zeros(k); n2 = torch.zeros(k)
for t in range(1, 100):
    ucb = est2 + torch.sqrt(2 * torch.log(torch.tensor(float(t))) / (n2 + 1e-5))
    a = int(ucb.argmax())
    r = (true_means[a] + torch.randn(1)).item()
    n2[a] += 1; est2[a] += (r - est2[a]) / n2[a]
print(est2, n2)
# softmax / gradient bandit
H = torch.zeros(k, requires_grad=True); opt = torch.optim.SGD([H], lr=0.1); baseline = 0
for t in range(50):
    pi = torch.softmax(H, 0); a = torch.multinomial(pi, 1).item()
    r = true_means[a].item() + torch.randn(1).item(); baseline += (r - baseline) / (t + 1)
    loss = -(r - baseline) * torch.log(pi[a]); opt.zero_grad(); loss.backward(); opt.step()
print(H, torch.softmax(H, 0))
# thompson
alpha = torch.ones(k); beta = torch.ones(k)
for t in range(50):
    theta = torch.distributions.Beta(alpha, beta).sample(); a = theta.argmax()
    win = torch.bernoulli(torch.sigmoid(true_means[a]))
    alpha[a] += win; beta[a] += 1 - win
print(alpha, beta)
''',
    'cleanrl_init': r'''
nn = torch.nn
def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer
torch.manual_seed(1)
actor = nn.Sequential(layer_init(nn.Linear(4, 8)), nn.Tanh(), layer_init(nn.Linear(8, 8)), nn.Tanh(), layer_init(nn.Linear(8, 2), std=0.01))
print(actor[0].weight)
print(actor[4].weight)
print(actor[0].weight @ actor[0].weight.T)
w = torch.empty(3, 5); nn.init.orthogonal_(w); print(w)
w = torch.empty(2, 2, 3); nn.init.orthogonal_(w, gain=2.); print(w)
nn.init.uniform_(actor[4].weight, -3e-3, 3e-3); print(actor[4].weight)
nn.init.xavier_uniform_(actor[2].weight); print(actor[2].weight[0])
nn.init.kaiming_normal_(actor[2].weight, nonlinearity='relu'); print(actor[2].weight[0])
nn.init.normal_(actor[2].bias, std=0.1); print(actor[2].bias)
nn.init.zeros_(actor[2].bias); print(actor[2].bias)
print(nn.init.calculate_gain('tanh'), nn.init.calculate_gain('leaky_relu', 0.2))
def fanin_init(size, fanin=None):
    fanin = fanin or size[0]
    v = 1. / np.sqrt(fanin)
    return torch.Tensor(size).uniform_(-v, v)
print(fanin_init((2, 3)))
print(torch.Tensor(2, 3).uniform_(-0.1, 0.1).shape)
''',
    'dueling': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class Dueling(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(4, 16), nn.ReLU())
        self.v = nn.Linear(16, 1); self.a = nn.Linear(16, 3)
    def forward(self, x):
        h = self.feat(x); a = self.a(h)
        return self.v(h) + a - a.mean(dim=1, keepdim=True)
net = Dueling(); tgt = Dueling(); tgt.load_state_dict(net.state_dict()); tgt.eval()
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
s = torch.randn(8, 4); a = torch.randint(0, 3, (8,)); r = torch.randn(8); s2 = torch.randn(8, 4); d = (torch.rand(8) < 0.2).float()
w = torch.rand(8)
for it in range(3):
    q = net(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        a2 = net(s2).argmax(1, keepdim=True)
        q2 = tgt(s2).gather(1, a2).squeeze(1)
        y = r + 0.99 * q2 * (1 - d)
    td = y - q
    loss = (w * F.smooth_l1_loss(q, y, reduction='none')).mean()
    opt.zero_grad(); loss.backward(); nn.utils.clip_grad_norm_(net.parameters(), 10.); opt.step()
    prios = td.abs().detach().numpy() + 1e-6
    print(f"{loss.item():.5f}", np.round(prios, 4), prios.dtype)
print(net.v.weight.grad.norm(), tgt.training, net.training)
# n-step returns
rews = [1.0, 0.0, 0.5, -1.0]
G = sum([(0.9 ** i) * rews[i] for i in range(len(rews))]); print(G)
print(torch.tensor(rews) @ (0.9 ** torch.arange(4.)))
print((torch.tensor(rews) * torch.pow(0.9, torch.arange(4))).sum())
print(torch.pow(0.9, torch.arange(4)), 0.9 ** torch.arange(4), torch.tensor(0.9) ** torch.arange(4))
disc = torch.cumprod(torch.full((4,), 0.9), 0) / 0.9; print(disc)
''',
    'c51': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
N_ATOMS, VMIN, VMAX = 11, -5., 5.
support = torch.linspace(VMIN, VMAX, N_ATOMS); dz = (VMAX - VMIN) / (N_ATOMS - 1)
print(support, dz)
B, A = 4, 2
logits = torch.randn(B, A, N_ATOMS, requires_grad=True)
probs = F.softmax(logits, dim=2)
q = (probs * support).sum(2); print(q)
act = q.argmax(1)
next_probs = F.softmax(torch.randn(B, A, N_ATOMS), 2)
next_a = (next_probs * support).sum(2).argmax(1)
next_dist = next_probs[range(B), next_a]
rew = torch.tensor([1., -1., 0.5, 2.]); done = torch.tensor([0., 1., 0., 0.])
Tz = rew.unsqueeze(1) + (1 - done).unsqueeze(1) * 0.99 * support.unsqueeze(0)
Tz = Tz.clamp(VMIN, VMAX)
b = (Tz - VMIN) / dz
l = b.floor().long(); u = b.ceil().long()
l[(u > 0) * (l == u)] -= 1
u[(l < (N_ATOMS - 1)) * (l == u)] += 1
proj = torch.zeros(B, N_ATOMS)
offset = torch.linspace(0, (B - 1) * N_ATOMS, B).long().unsqueeze(1).expand(B, N_ATOMS)
proj.view(-1).index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
proj.view(-1).index_add_(0, (u + offset).view(-1), (next_dist * (b - l.float())).view(-1))
print(proj.sum(1), proj)
log_p = F.log_softmax(logits[range(B), act], 1)
loss = -(proj * log_p).sum(1).mean(); loss.backward()
print(loss, logits.grad[0, :, :3])
m = torch.zeros(B, N_ATOMS)
m.scatter_add_(1, l, next_dist * (u.float() - b)); m.scatter_add_(1, u, next_dist * (b - l.float()))
print(torch.allclose(m, proj), (m - proj).abs().max())
print(l.dtype, offset.dtype, offset[1])
''',
    'recurrent': r'''
nn = torch.nn; F = torch.nn.functional
Categorical = torch.distributions.Categorical
torch.manual_seed(0)
class RecPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 8); self.lstm = nn.LSTM(8, 8); self.pi = nn.Linear(8, 2); self.v = nn.Linear(8, 1)
        for name, param in self.lstm.named_parameters():
            if "bias" in name: nn.init.constant_(param, 0)
            elif "weight" in name: nn.init.orthogonal_(param, 1.0)
    def get_states(self, x, lstm_state, done):
        hidden = F.relu(self.enc(x))
        batch_size = lstm_state[0].shape[1]
        hidden = hidden.reshape((-1, batch_size, self.lstm.input_size))
        done = done.reshape((-1, batch_size))
        new_hidden = []
        for h, d in zip(hidden, done):
            h, lstm_state = self.lstm(h.unsqueeze(0), ((1.0 - d).view(1, -1, 1) * lstm_state[0], (1.0 - d).view(1, -1, 1) * lstm_state[1]))
            new_hidden += [h]
        new_hidden = torch.flatten(torch.cat(new_hidden), 0, 1)
        return new_hidden, lstm_state
pol = RecPolicy()
state = (torch.zeros(1, 2, 8), torch.zeros(1, 2, 8))
x = torch.randn(6, 3); done = torch.tensor([0., 0., 1., 0., 0., 1.])
h, st = pol.get_states(x, state, done)
print(h.shape, st[0].shape, h[:, :3])
dist = Categorical(logits=pol.pi(h)); a = dist.sample(); print(a, dist.log_prob(a))
gru = nn.GRU(3, 4, batch_first=True)
out, hn = gru(torch.randn(2, 5, 3)); print(out.shape, hn.shape, hn)
cell = nn.GRUCell(3, 4); hx = torch.zeros(2, 4)
for t in range(3): hx = cell(torch.randn(2, 3), hx)
print(hx)
lc = nn.LSTMCell(3, 4); hx, cx = lc(torch.randn(2, 3)); print(hx.shape, cx)
seqs = [torch.randn(3, 2), torch.randn(1, 2), torch.randn(2, 2)]
padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True); print(padded.shape, padded[1])
lengths = torch.tensor([3, 1, 2])
packed = nn.utils.rnn.pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
o, (hn, cn) = nn.LSTM(2, 3, batch_first=True)(packed)
un, ls = nn.utils.rnn.pad_packed_sequence(o, batch_first=True); print(un.shape, ls, hn.shape)
try:
    nn.utils.rnn.pack_padded_sequence(padded, lengths, batch_first=True)
except RuntimeError as e: print(e)
try:
    nn.LSTM(2, 3)(torch.randn(4, 2, 2), torch.zeros(1, 2, 3))
except Exception as e: print(type(e).__name__, e)
try:
    nn.LSTM(2, 3)(torch.randn(4, 2, 2), (torch.zeros(1, 3, 3), torch.zeros(1, 2, 3)))
except Exception as e: print(type(e).__name__, e)
try:
    nn.GRU(2, 3)(torch.randn(4, 2, 3))
except Exception as e: print(type(e).__name__, e)
''',
    'td3': r'''
import copy
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0); np.random.seed(0)
class Actor(nn.Module):
    def __init__(self, sd, ad, max_action):
        super().__init__()
        self.l1 = nn.Linear(sd, 32); self.l2 = nn.Linear(32, 32); self.l3 = nn.Linear(32, ad); self.max_action = max_action
    def forward(self, s):
        a = F.relu(self.l1(s)); a = F.relu(self.l2(a)); return self.max_action * torch.tanh(self.l3(a))
class Critic(nn.Module):
    def __init__(self, sd, ad):
        super().__init__()
        self.l1 = nn.Linear(sd + ad, 32); self.l2 = nn.Linear(32, 1)
        self.l4 = nn.Linear(sd + ad, 32); self.l5 = nn.Linear(32, 1)
    def forward(self, s, a):
        sa = torch.cat([s, a], 1)
        return self.l2(F.relu(self.l1(sa))), self.l5(F.relu(self.l4(sa)))
    def Q1(self, s, a):
        return self.l2(F.relu(self.l1(torch.cat([s, a], 1))))
actor = Actor(3, 2, 2.0); actor_t = copy.deepcopy(actor); critic = Critic(3, 2); critic_t = copy.deepcopy(critic)
ao = torch.optim.Adam(actor.parameters(), lr=3e-4); co = torch.optim.Adam(critic.parameters(), lr=3e-4)
class Buffer:
    def __init__(self, n, sd, ad):
        self.s = np.zeros((n, sd)); self.a = np.zeros((n, ad)); self.r = np.zeros((n, 1)); self.s2 = np.zeros((n, sd)); self.nd = np.zeros((n, 1)); self.ptr = 0; self.size = 0; self.n = n
    def add(self, s, a, s2, r, d):
        self.s[self.ptr] = s; self.a[self.ptr] = a; self.s2[self.ptr] = s2; self.r[self.ptr] = r; self.nd[self.ptr] = 1. - d
        self.ptr = (self.ptr + 1) % self.n; self.size = min(self.size + 1, self.n)
    def sample(self, b):
        ind = np.random.randint(0, self.size, size=b)
        return (torch.FloatTensor(self.s[ind]), torch.FloatTensor(self.a[ind]), torch.FloatTensor(self.s2[ind]), torch.FloatTensor(self.r[ind]), torch.FloatTensor(self.nd[ind]))
buf = Buffer(100, 3, 2)
s = np.random.randn(3)
for t in range(40):
    a = (actor(torch.FloatTensor(s.reshape(1, -1))).cpu().data.numpy().flatten() + np.random.normal(0, 0.2, size=2)).clip(-2, 2)
    s2 = np.random.randn(3); r = -float(np.sum(a ** 2)); d = float(t % 10 == 9)
    buf.add(s, a, s2, r, d); s = s2
print(buf.s.dtype, buf.size, buf.ptr)
for it in range(4):
    st, ac, nx, rw, nd = buf.sample(8)
    with torch.no_grad():
        noise = (torch.randn_like(ac) * 0.2).clamp(-0.5, 0.5)
        na = (actor_t(nx) + noise).clamp(-2.0, 2.0)
        tq1, tq2 = critic_t(nx, na); tq = torch.min(tq1, tq2); tq = rw + nd * 0.99 * tq
    cq1, cq2 = critic(st, ac)
    closs = F.mse_loss(cq1, tq) + F.mse_loss(cq2, tq)
    co.zero_grad(); closs.backward(); co.step()
    if it % 2 == 0:
        aloss = -critic.Q1(st, actor(st)).mean()
        ao.zero_grad(); aloss.backward(); ao.step()
        for p, tp in zip(critic.parameters(), critic_t.parameters()): tp.data.copy_(0.005 * p.data + 0.995 * tp.data)
        for p, tp in zip(actor.parameters(), actor_t.parameters()): tp.data.copy_(0.005 * p.data + 0.995 * tp.data)
        print(it, f"{closs.item():.4f} {aloss.item():.4f}", tq.shape, noise.abs().max() <= 0.5)
print(actor_t.l3.bias, ac.dtype, nd[:3])
''',
    'sac': r'''
nn = torch.nn; F = torch.nn.functional; Normal = torch.distributions.Normal
torch.manual_seed(2)
LOG_STD_MIN, LOG_STD_MAX = -5, 2
class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 16); self.mean = nn.Linear(16, 2); self.logstd = nn.Linear(16, 2)
        self.register_buffer("action_scale", torch.tensor((np.array([1.0, 2.0]) - np.array([-1.0, -2.0])) / 2.0, dtype=torch.float32))
        self.register_buffer("action_bias", torch.tensor((np.array([1.0, 2.0]) + np.array([-1.0, -2.0])) / 2.0, dtype=torch.float32))
    def forward(self, x):
        x = F.relu(self.fc(x)); mean = self.mean(x); log_std = torch.tanh(self.logstd(x))
        log_std = LOG_STD_MIN + 0.5 * (LOG_STD_MAX - LOG_STD_MIN) * (log_std + 1)
        return mean, log_std
    def get_action(self, x):
        mean, log_std = self(x); std = log_std.exp(); normal = Normal(mean, std)
        x_t = normal.rsample(); y_t = torch.tanh(x_t)
        action = y_t * self.action_scale + self.action_bias
        log_prob = normal.log_prob(x_t)
        log_prob -= torch.log(self.action_scale * (1 - y_t.pow(2)) + 1e-6)
        log_prob = log_prob.sum(1, keepdim=True)
        mean = torch.tanh(mean) * self.action_scale + self.action_bias
        return action, log_prob, mean
actor = Actor()
print(actor.action_scale, actor.action_bias, list(actor.state_dict().keys()))
target_entropy = -torch.prod(torch.Tensor((2,)).to("cpu")).item()
log_alpha = torch.zeros(1, requires_grad=True); alpha = log_alpha.exp().item()
a_optimizer = torch.optim.Adam([log_alpha], lr=1e-3)
opt = torch.optim.Adam(list(actor.parameters()), lr=3e-4)
obs = torch.randn(6, 3)
for i in range(3):
    pi, log_pi, _ = actor.get_action(obs)
    qf_pi = -(pi ** 2).sum(1, keepdim=True)
    actor_loss = ((alpha * log_pi) - qf_pi).mean()
    opt.zero_grad(); actor_loss.backward(); opt.step()
    with torch.no_grad():
        _, log_pi, _ = actor.get_action(obs)
    alpha_loss = (-log_alpha.exp() * (log_pi + target_entropy)).mean()
    a_optimizer.zero_grad(); alpha_loss.backward(); a_optimizer.step(); alpha = log_alpha.exp().item()
    print(f"{actor_loss.item():.4f} {alpha_loss.item():.4f} {alpha:.6f}", log_pi.shape)
a, lp, m = actor.get_action(obs[:2]); print(a, lp, m)
print(actor.action_scale.requires_grad, [n for n, _ in actor.named_buffers()])
''',
    'masking': r'''
nn = torch.nn; F = torch.nn.functional; D = torch.distributions
torch.manual_seed(0)
logits = torch.randn(3, 5, requires_grad=True)
mask = torch.tensor([[1, 1, 0, 0, 1], [0, 1, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
masked = torch.where(mask, logits, torch.tensor(-1e8))
dist = D.Categorical(logits=masked)
a = dist.sample(); print(a, dist.log_prob(a), dist.entropy())
print(dist.probs)
masked2 = logits.masked_fill(~mask, float('-inf')); d2 = D.Categorical(logits=masked2)
print(d2.probs, d2.logits)
ent = d2.entropy(); print(ent)
p_log_p = d2.logits * d2.probs
p_log_p = torch.where(mask, p_log_p, torch.tensor(0.)); print(-p_log_p.sum(-1))
(-d2.log_prob(torch.tensor([0, 1, 4])).sum() - 0.01 * (-p_log_p.sum(-1)).mean()).backward()
print(logits.grad)
m3 = logits.detach().masked_fill(~mask, torch.finfo(torch.float32).min); print(D.Categorical(logits=m3).entropy())
probs = F.softmax(masked, -1); print(probs.argmax(-1), torch.multinomial(probs, 1).squeeze(-1))
inv = mask.logical_not(); print(inv.sum(1), inv.any(1), inv.all(), mask.float().mean(1))
legal = mask.nonzero(as_tuple=False); print(legal)
print(mask.nonzero(as_tuple=True))
idx = torch.nonzero(mask[1]).squeeze(); print(idx, idx.shape, idx.dim())
print(torch.argwhere(mask[0]).flatten())
''',
    'prioritized': r'''
import random
random.seed(0); np.random.seed(0); torch.manual_seed(0)
class SumTree:
    def __init__(self, capacity):
        self.capacity = capacity; self.tree = np.zeros(2 * capacity - 1); self.data = np.zeros(capacity, dtype=object); self.write = 0; self.n = 0
    def _propagate(self, idx, change):
        parent = (idx - 1) // 2; self.tree[parent] += change
        if parent != 0: self._propagate(parent, change)
    def _retrieve(self, idx, s):
        left = 2 * idx + 1; right = left + 1
        if left >= len(self.tree): return idx
        if s <= self.tree[left]: return self._retrieve(left, s)
        return self._retrieve(right, s - self.tree[left])
    def total(self): return self.tree[0]
    def add(self, p, data):
        idx = self.write + self.capacity - 1; self.data[self.write] = data; self.update(idx, p)
        self.write = (self.write + 1) % self.capacity; self.n = min(self.n + 1, self.capacity)
    def update(self, idx, p):
        change = p - self.tree[idx]; self.tree[idx] = p; self._propagate(idx, change)
    def get(self, s):
        idx = self._retrieve(0, s); return idx, self.tree[idx], self.data[idx - self.capacity + 1]
tree = SumTree(8)
for i in range(8):
    tree.add((abs(np.random.randn()) + 0.01) ** 0.6, (np.random.randn(2).astype(np.float32), i % 3, float(i), i == 7))
batch, idxs, prios = [], [], []
seg = tree.total() / 4
for i in range(4):
    s = random.uniform(seg * i, seg * (i + 1)); idx, p, data = tree.get(s)
    batch.append(data); idxs.append(idx); prios.append(p)
probs = np.array(prios) / tree.total()
w = (tree.n * probs) ** (-0.4); w /= w.max()
weights = torch.FloatTensor(w); print(weights, weights.dtype)
weights2 = torch.tensor(w, dtype=torch.float32); print(torch.equal(weights, weights2))
states = torch.tensor(np.array([b[0] for b in batch])); actions = torch.tensor([b[1] for b in batch]).unsqueeze(1)
rewards = torch.tensor([b[2] for b in batch]); dones = torch.tensor([b[3] for b in batch], dtype=torch.float32)
print(states.dtype, actions.dtype, rewards.dtype, dones, states.shape)
q = torch.nn.Linear(2, 3)(states).gather(1, actions).squeeze(1)
td = rewards - q
loss = (weights * td.pow(2)).mean(); loss.backward()
new_p = (td.abs().detach().numpy() + 1e-5) ** 0.6
for i, p in zip(idxs, new_p): tree.update(i, p)
print(round(tree.total(), 4), new_p.dtype, type(new_p[0]).__name__, loss.grad_fn.name())
print(weights.numpy().dtype, torch.from_numpy(w).dtype, torch.from_numpy(w).float().dtype)
''',
    'trpo': r'''
nn = torch.nn; F = torch.nn.functional; D = torch.distributions
torch.manual_seed(0)
pol = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
s = torch.randn(32, 4); a = torch.randint(0, 3, (32,)); adv = torch.randn(32)
with torch.no_grad():
    old_logits = pol(s); old_logp = D.Categorical(logits=old_logits).log_prob(a)
def flat_grad(y, params, **kw):
    g = torch.autograd.grad(y, params, **kw)
    return torch.cat([t.reshape(-1) for t in g])
def surrogate():
    logp = D.Categorical(logits=pol(s)).log_prob(a)
    return (torch.exp(logp - old_logp) * adv).mean()
def kl():
    return D.kl_divergence(D.Categorical(logits=old_logits), D.Categorical(logits=pol(s))).mean()
params = list(pol.parameters())
L = surrogate(); g = flat_grad(L, params, retain_graph=True)
print(L, g.shape, g.norm())
d_kl = flat_grad(kl(), params, create_graph=True)
print(d_kl.norm() < 1e-6, d_kl.grad_fn)
def Fvp(v):
    return flat_grad((d_kl * v).sum(), params, retain_graph=True) + 0.1 * v
def cg(Avp, b, iters=10, tol=1e-10):
    x = torch.zeros_like(b); r = b.clone(); p = b.clone(); rr = torch.dot(r, r)
    for i in range(iters):
        Ap = Avp(p); alpha = rr / torch.dot(p, Ap)
        x += alpha * p; r -= alpha * Ap; new_rr = torch.dot(r, r)
        if new_rr < tol: break
        p = r + (new_rr / rr) * p; rr = new_rr
    return x
step = cg(Fvp, g, iters=5)
shs = 0.5 * (step * Fvp(step)).sum(0, keepdim=True)
lm = torch.sqrt(shs / 0.01); full = step / lm[0]
print(f"{shs.item():.4f} {lm.item():.4f} {full.norm().item():.4f}")
old = torch.nn.utils.parameters_to_vector(params).clone()
for frac in 0.5 ** np.arange(4):
    torch.nn.utils.vector_to_parameters(old + frac * full, params)
    with torch.no_grad():
        newL = surrogate(); k = kl()
    print(f"{frac:.3f} {newL.item():.4f} {k.item():.5f}")
    if k <= 0.01 and newL > L: break
print(torch.autograd.functional.jacobian(lambda x: torch.tanh(x) * 2, torch.tensor([0.5, -1.0])))
print(torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.vjp(lambda x: x.exp(), torch.tensor([0., 1.]), torch.tensor([1., 1.])))
print(torch.autograd.functional.hvp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])))
''',
    'discounted_return_by_dot': r'''
torch.manual_seed(0)
r = torch.randn(64)[:16] * 3
disc = torch.tensor([0.99 ** i for i in range(16)])
print(torch.dot(disc, r).item(), (disc @ r).item())
''',
}

BUGS = {
    'signed_zero_ties': (
        "which of +0 and -0 a max/min/amax/maximum returns follows torch's kernels (the "
        "scalar std::max keeps the first, a vector max the second lane's, so the answer "
        "depends on lengths and lanes); ember's NumPy kernels choose otherwise",
        r'''
t = torch.tensor([0.0, -0.0])
print(t.max(), t.amax(), torch.maximum(t[0], t[1]), t.median())
print(torch.tensor([0.0, -0.0], dtype=torch.float16).amax(), t.double().amin())
'''),
    'torch_cartpole_mkl_math': (
        "torch's float32 sin/cos/sqrt/tan/exp2/atan2 (MKL's vector functions in its x86 build) "
        "are not correctly rounded and ember's are (README, known differences): a vectorised "
        "CartPole written in torch drifts in the 4th digit after 60 steps",
        r'''
import math
torch.manual_seed(0)
class VecCartPole:
    def __init__(self, n):
        self.n = n; self.gravity = 9.8; self.masscart = 1.0; self.masspole = 0.1; self.total_mass = 1.1; self.length = 0.5
        self.polemass_length = 0.05; self.force_mag = 10.0; self.tau = 0.02; self.theta_threshold = 12 * 2 * math.pi / 360; self.x_threshold = 2.4
        self.state = torch.empty(n, 4).uniform_(-0.05, 0.05)
    def step(self, action):
        x, x_dot, theta, theta_dot = self.state.unbind(1)
        force = torch.where(action == 1, self.force_mag, -self.force_mag)
        costheta = torch.cos(theta); sintheta = torch.sin(theta)
        temp = (force + self.polemass_length * theta_dot ** 2 * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (self.length * (4.0 / 3.0 - self.masspole * costheta ** 2 / self.total_mass))
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass
        x = x + self.tau * x_dot; x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot; theta_dot = theta_dot + self.tau * thetaacc
        self.state = torch.stack((x, x_dot, theta, theta_dot), dim=1)
        done = (x < -self.x_threshold) | (x > self.x_threshold) | (theta < -self.theta_threshold) | (theta > self.theta_threshold)
        reward = torch.ones(self.n)
        if done.any():
            self.state[done] = torch.empty(int(done.sum()), 4).uniform_(-0.05, 0.05)
        return self.state.clone(), reward, done
env = VecCartPole(16)
total = torch.zeros(16); dones = 0
for t in range(60):
    a = (env.state[:, 2] + 0.1 * env.state[:, 3] > 0).long()
    if t % 7 == 0: a = torch.randint(0, 2, (16,))
    s, r, d = env.step(a); total += r; dones += int(d.sum())
print(env.state, dones, total.sum())
print(env.state.tolist()[0])
v = torch.linspace(-10, 10, 257)
for f in [torch.sin, torch.cos, torch.tan, torch.atan, torch.exp, torch.log1p, torch.sigmoid, torch.tanh, torch.sqrt, torch.rsqrt, torch.erf, torch.asinh, torch.sinh, torch.cosh, torch.log2, torch.exp2]:
    y = f(v.abs() + 0.01 if f in (torch.sqrt, torch.rsqrt, torch.log2) else v)
    print(f.__name__, y.sum().item(), y[::37].tolist())
print(torch.atan2(v, v.flip(0)).sum().item(), torch.pow(v.abs(), 1.7).sum().item(), torch.pow(1.3, v).sum().item(), (v.abs() ** 0.5).sum().item())
'''),
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, BUGS,
                                                                            at_least=20)
