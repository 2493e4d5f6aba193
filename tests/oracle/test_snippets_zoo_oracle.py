"""Classic and modern ML algorithms as research code and course homework write them in plain
PyTorch, run under real torch and under ember (`import ember as torch`): what they print must
be identical. k-means(++), PCA/whitening/LDA, LBFGS logistic and softmax regression, ridge,
Gaussian-mixture EM with torch.distributions, VAEs, RealNVP flows, GANs (gradient penalty,
spectral norm), neural ODEs, physics-informed nets (torch.func), style transfer, adversarial
examples, distillation, contrastive and metric losses, RL (REINFORCE, DQN, PPO/GAE), GNNs (dense
and sparse adjacency, spdiags, sampled_addmm), recommenders (EmbeddingBag), time series, Bayesian
regression, mixup, weight EMA, checkpointing, Hessian-vector products, and the errors such code
hits.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PRELUDE = "import math\nnn = torch.nn; F = torch.nn.functional\n"

PROGRAMS = {
    'kmeans': PRELUDE + r'''
torch.manual_seed(0)
X = torch.cat([torch.randn(20, 2) + torch.tensor([3., 3.]), torch.randn(20, 2) - 2, torch.randn(20, 2) * 0.5 + torch.tensor([3., -3.])])
K = 3
def kmeanspp(X, K):
    idx = torch.randint(0, X.shape[0], (1,)).item()
    C = X[idx:idx+1].clone()
    for _ in range(1, K):
        d = torch.cdist(X, C).min(dim=1).values ** 2
        p = d / d.sum()
        i = torch.multinomial(p, 1)
        C = torch.cat([C, X[i]], 0)
    return C
C = kmeanspp(X, K)
print(C.shape, C.dtype)
for it in range(10):
    D = torch.cdist(X, C)
    a = D.argmin(dim=1)
    counts = torch.bincount(a, minlength=K)
    S = torch.zeros(K, 2).index_add_(0, a, X)
    S2 = torch.zeros(K, 2).scatter_add_(0, a.unsqueeze(1).expand(-1, 2), X)
    assert torch.allclose(S, S2)
    Cn = S / counts.unsqueeze(1).clamp(min=1)
    shift = (Cn - C).norm()
    C = Cn
    if shift < 1e-6: break
print(it, counts, counts.dtype)
print(C.round(decimals=3))
inertia = ((X - C[a]) ** 2).sum()
print(round(inertia.item(), 3))
print(torch.cdist(X[:3], C, p=1).round(decimals=3))
print(torch.cdist(X[:3], C, p=float('inf')).round(decimals=3))
print(torch.cdist(X[:2].double(), C.double()).dtype)
print(a.unique(return_counts=True))
print(torch.bincount(a, weights=X[:, 0]).round(decimals=3))
try:
    torch.bincount(torch.tensor([-1, 2]))
except RuntimeError as e: print(e)
try:
    torch.bincount(torch.tensor([[1, 2]]))
except RuntimeError as e: print(e)
try:
    torch.cdist(X, C[:, :1])
except RuntimeError as e: print(e)
try:
    torch.cdist(X[0], C)
except RuntimeError as e: print(e)
print(torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([1,1]), minlength=0))
sr = torch.zeros(K, 2).scatter_reduce(0, a.unsqueeze(1).expand(-1, 2), X, reduce='mean', include_self=False)
print(sr.round(decimals=3))
print(torch.zeros(K, 2).scatter_reduce(0, a.unsqueeze(1).expand(-1, 2), X, reduce='amax').round(decimals=3))
''',
    'pca': PRELUDE + r'''
torch.manual_seed(0)
X = torch.randn(50, 4) @ torch.tensor([[2., 0, 0, 0], [0.5, 1, 0, 0], [0, 0, 0.3, 0], [0, 0, 0, 0.1]])
Xc = X - X.mean(0, keepdim=True)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
print(U.shape, S.shape, Vh.shape, S.round(decimals=3))
ev = S ** 2 / (X.shape[0] - 1)
print((ev / ev.sum()).round(decimals=4))
cov = Xc.T @ Xc / (X.shape[0] - 1)
print(torch.allclose(cov, torch.cov(X.T), atol=1e-5))
L, V = torch.linalg.eigh(cov)
print(L.flip(0).round(decimals=3), torch.allclose(L.flip(0), ev, atol=1e-4))
Z = Xc @ Vh[:2].T
print(Z.shape, Z.var(0).round(decimals=3))
torch.manual_seed(1)
U2, S2, V2 = torch.pca_lowrank(X, q=2)
print(U2.shape, S2.shape, V2.shape, S2.round(decimals=2))
W = V @ torch.diag(1 / L.sqrt()) @ V.T
Xw = Xc @ W
print(torch.cov(Xw.T).round(decimals=3).abs())
print(torch.linalg.svdvals(Xc).round(decimals=3))
print(torch.corrcoef(X.T).round(decimals=3))
# LDA
torch.manual_seed(2)
X1 = torch.randn(30, 2) + torch.tensor([2., 0.]); X2 = torch.randn(30, 2) - torch.tensor([2., 0.])
m1, m2 = X1.mean(0), X2.mean(0)
Sw = (X1 - m1).T @ (X1 - m1) + (X2 - m2).T @ (X2 - m2)
w = torch.linalg.solve(Sw, m1 - m2)
print((w / w.norm()).round(decimals=4))
print(torch.linalg.inv(Sw).round(decimals=5))
print(torch.linalg.eigvalsh(Sw).round(decimals=3))
ev2, evec2 = torch.linalg.eig(torch.linalg.inv(Sw) @ torch.outer(m1 - m2, m1 - m2))
print(ev2.dtype, evec2.dtype, ev2.real.abs().max().round(decimals=4))
print(torch.cov(X.T, correction=0).round(decimals=3))
print(torch.cov(X.T, aweights=torch.ones(50)).round(decimals=3)[0])
try:
    torch.linalg.eigh(torch.randn(2, 3))
except RuntimeError as e: print(e)
try:
    torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))
except RuntimeError as e: print(type(e).__name__, e)
print(Xc.mean(0).abs().max() < 1e-6)
print(torch.linalg.matrix_rank(Xc), torch.linalg.cond(cov).round(decimals=2))
''',
    'lbfgs': PRELUDE + r'''
torch.manual_seed(0)
X = torch.randn(40, 3); w_true = torch.tensor([1.5, -2., 0.5])
y = (X @ w_true + 0.3 * torch.randn(40) > 0).float()
model = nn.Linear(3, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=20, line_search_fn="strong_wolfe")
lossf = nn.BCEWithLogitsLoss()
def closure():
    opt.zero_grad()
    loss = lossf(model(X).squeeze(1), y) + 1e-2 * model.weight.pow(2).sum()
    loss.backward()
    return loss
for i in range(3):
    l = opt.step(closure)
    print(i, type(l).__name__, round(l.item(), 4))
print(model.weight.data.round(decimals=3), model.bias.data.round(decimals=3))
st = opt.state[opt._params[0]]
print(sorted(opt.state_dict()['state'][0].keys()))
print(st['func_evals'] > 0, st['n_iter'] > 0)
# softmax regression, no line search
torch.manual_seed(1)
Xs = torch.randn(60, 4); ys = torch.randint(0, 3, (60,))
W = torch.zeros(4, 3, requires_grad=True); b = torch.zeros(3, requires_grad=True)
opt2 = torch.optim.LBFGS([W, b], lr=0.5, max_iter=10, history_size=5)
def c2():
    opt2.zero_grad()
    loss = F.cross_entropy(Xs @ W + b, ys)
    loss.backward()
    return loss
for i in range(2):
    print(round(opt2.step(c2).item(), 4))
print((Xs @ W + b).argmax(1).eq(ys).float().mean())
try:
    opt2.step()
except Exception as e: print(type(e).__name__, e)
print(opt2)
# ridge
lam = 0.1
A = Xs.T @ Xs + lam * torch.eye(4)
wr = torch.linalg.solve(A, Xs.T @ Xs[:, 0])
print(wr.round(decimals=4))
sol = torch.linalg.lstsq(Xs, Xs[:, :1] * 2 + 1)
print(type(sol).__name__, sol.solution.shape, sol.solution.round(decimals=4).T, sol.residuals, sol.rank, sol.singular_values)
Xa = torch.cat([Xs, torch.ones(60, 1)], 1)
sol2 = torch.linalg.lstsq(Xa, (Xs[:, :1] * 2 + 1), driver='gelsd')
print(sol2.solution.round(decimals=3).T + 0.0, sol2.rank, sol2.residuals.shape, sol2.singular_values.shape)
print(torch.linalg.pinv(Xa).shape, (torch.linalg.pinv(Xa) @ (Xs[:, 0] * 2 + 1)).round(decimals=3) + 0.0)
print(torch.linalg.lstsq(Xa.double(), Xs[:, 0].double().unsqueeze(1)).solution.dtype)
try:
    torch.linalg.lstsq(Xa, torch.ones(59, 1))
except RuntimeError as e: print(e)
print(torch.linalg.cholesky(A).round(decimals=3))
print(torch.cholesky_solve((Xs.T @ Xs[:, :1]), torch.linalg.cholesky(A)).round(decimals=4).T)
''',
    'gmm': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
X = torch.cat([torch.randn(30, 2) * 0.5 + 2, torch.randn(30, 2) * 0.7 - 2])
K = 2
pi = torch.full((K,), 1.0 / K)
mu = X[torch.randperm(60)[:K]].clone()
cov = torch.eye(2).repeat(K, 1, 1)
print(mu.shape, cov.shape)
for it in range(15):
    comp = D.MultivariateNormal(mu, covariance_matrix=cov)
    lp = comp.log_prob(X.unsqueeze(1)) + pi.log()
    print(lp.shape) if it == 0 else None
    ll = torch.logsumexp(lp, dim=1)
    r = (lp - ll.unsqueeze(1)).exp()
    Nk = r.sum(0)
    pi = Nk / Nk.sum()
    mu = (r.T @ X) / Nk.unsqueeze(1)
    diff = X.unsqueeze(1) - mu
    cov = torch.einsum('nk,nki,nkj->kij', r, diff, diff) / Nk.view(-1, 1, 1) + 1e-6 * torch.eye(2)
print(round(ll.mean().item(), 4), pi.round(decimals=3), mu.round(decimals=3))
mix = D.MixtureSameFamily(D.Categorical(probs=pi), D.MultivariateNormal(mu, cov))
print(mix.batch_shape, mix.event_shape)
print(mix.log_prob(X[:3]).round(decimals=4))
s = mix.sample((4,)); print(s.shape)
s2 = mix.sample((2, 3)); print(s2.shape)
print(mix.mean.round(decimals=3), mix.variance.round(decimals=3))
print(mix)
cat = D.Categorical(logits=torch.tensor([0.1, 0.5, -1.]))
print(cat.probs.round(decimals=4), cat.entropy().round(decimals=4), cat.sample((5,)), cat.log_prob(torch.tensor([0, 2])))
print(cat.enumerate_support(), cat.param_shape, cat.logits.round(decimals=4))
mvn = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1., 0.], [0.5, 2.]]))
print(mvn.covariance_matrix, mvn.precision_matrix.round(decimals=4), mvn.entropy().round(decimals=4))
x = mvn.rsample((3,)); print(x.shape, x.requires_grad)
mu_p = torch.zeros(2, requires_grad=True)
m2 = D.MultivariateNormal(mu_p, torch.eye(2)); y = m2.rsample((5,)); print(y.requires_grad, y.grad_fn is not None)
print(D.kl_divergence(mvn, D.MultivariateNormal(torch.ones(2), torch.eye(2))).round(decimals=4))
print(D.kl_divergence(cat, D.Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))).round(decimals=4))
try:
    D.MultivariateNormal(torch.zeros(2), torch.tensor([[1., 2.], [2., 1.]]))
except ValueError as e: print(e)
try:
    D.Categorical(probs=torch.tensor([0.2, -0.1]))
except ValueError as e: print(e)
try:
    mvn.log_prob(torch.zeros(3))
except (ValueError, RuntimeError) as e: print(type(e).__name__, e)
print(D.MultivariateNormal(torch.zeros(3, 2), torch.eye(2)).log_prob(torch.zeros(2)).shape)
print(mvn.lower_tril if hasattr(mvn, 'lower_tril') else mvn.scale_tril)
lr = D.LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2))
print(lr.covariance_matrix, lr.log_prob(torch.ones(2)).round(decimals=4), lr.entropy().round(decimals=4))
''',
    'vae': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self, d=8, h=16, z=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, h), nn.ReLU())
        self.mu = nn.Linear(h, z); self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))
    def forward(self, x):
        h = self.enc(x); mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar); eps = torch.randn_like(std)
        z = mu + eps * std
        return self.dec(z), mu, logvar
m = VAE()
x = (torch.rand(16, 8) > 0.5).float()
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
for step in range(5):
    logits, mu, logvar = m(x)
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction='sum')
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (rec + kld) / x.shape[0]
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, round(loss.item(), 4), round(kld.item(), 4))
print(F.binary_cross_entropy(torch.sigmoid(logits), x, reduction='sum').round(decimals=2))
q = D.Normal(mu, torch.exp(0.5 * logvar))
p = D.Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl = D.kl_divergence(q, p).sum(-1)
print(kl.shape, torch.allclose(kl.sum(), kld, atol=1e-4))
qi = D.Independent(q, 1)
print(qi.batch_shape, qi.event_shape, D.kl_divergence(qi, D.Independent(p, 1)).shape)
print(qi)
z = qi.rsample(); print(z.shape, z.grad_fn.__class__.__name__)
lik = D.Independent(D.Bernoulli(logits=logits), 1)
print(lik.log_prob(x).shape, lik.log_prob(x)[:3].round(decimals=3))
print(D.Bernoulli(logits=logits).entropy().shape)
nl = D.Independent(D.Normal(logits, 1.0), 1).log_prob(x)
print(nl[:2].round(decimals=3))
try:
    D.Bernoulli(logits=logits).log_prob(torch.full((16, 8), 0.5))
except ValueError as e: print(e)
try:
    D.Normal(torch.zeros(2), torch.tensor([1., -1.]))
except ValueError as e: print(e)
try:
    D.Independent(q, 3)
except ValueError as e: print(e)
b = D.Bernoulli(probs=torch.tensor([0.3, 0.9]))
print(b.sample((3,)), b.mean, b.variance, b.logits.round(decimals=4))
try:
    b.rsample()
except NotImplementedError as e: print(e)
print(D.Normal(0., 1.).cdf(torch.tensor([0., 1.96])).round(decimals=4), D.Normal(0., 1.).icdf(torch.tensor(0.975)).round(decimals=4))
print(D.Normal(torch.tensor(0.), torch.tensor(1.)).sample().shape, D.Normal(0., 1.).batch_shape)
print(D.Normal(0, 1).loc.dtype)
cb = D.ContinuousBernoulli(logits=torch.tensor([0.5, -1.]))
print(cb.log_prob(torch.tensor([0.3, 0.7])).round(decimals=4), cb.mean.round(decimals=4))
''',
    'flow': PRELUDE + r'''
D = torch.distributions; T = D.transforms
torch.manual_seed(0)
class Coupling(nn.Module):
    def __init__(self, d, mask):
        super().__init__()
        self.register_buffer('mask', mask)
        self.s = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, d))
        self.t = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, d))
    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask); t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(1)
    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask); t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * torch.exp(-s))
masks = [torch.tensor([1., 0.]), torch.tensor([0., 1.])] * 2
flows = nn.ModuleList([Coupling(2, m) for m in masks])
base = D.MultivariateNormal(torch.zeros(2), torch.eye(2))
x = torch.randn(64, 2) * torch.tensor([2., 0.5]) + 1
opt = torch.optim.Adam(flows.parameters(), lr=1e-2)
for step in range(5):
    z, ld = x, torch.zeros(64)
    for f in flows:
        z, l = f(z); ld = ld + l
    loss = -(base.log_prob(z) + ld).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, round(loss.item(), 4))
y = z
for f in reversed(flows): y = f.inverse(y)
print(torch.allclose(y, x, atol=1e-5))
J = torch.autograd.functional.jacobian(lambda v: flows[0](v.unsqueeze(0))[0].squeeze(0), x[0])
sign, lad = torch.linalg.slogdet(J)
print(J.shape, sign, torch.allclose(lad, flows[0](x[:1])[1][0], atol=1e-5))
print(torch.linalg.slogdet(torch.tensor([[2., 1.], [1., -3.]])))
print(torch.logdet(torch.tensor([[2., 1.], [1., -3.]])), torch.det(torch.eye(3) * 2))
tr = T.ComposeTransform([T.AffineTransform(loc=1., scale=2.), T.SigmoidTransform()])
td = D.TransformedDistribution(D.Normal(0., 1.), [T.AffineTransform(1., 2.), T.SigmoidTransform()])
v = torch.tensor([0.2, 0.5, 0.9])
print(td.log_prob(v).round(decimals=4), td.sample((3,)).shape)
print(tr(torch.tensor([0., 1.])).round(decimals=4), tr.inv(torch.tensor([0.3])).round(decimals=4))
print(tr.log_abs_det_jacobian(torch.tensor([0.]), tr(torch.tensor([0.]))).round(decimals=4))
ln = D.LogNormal(0., 1.); print(ln.log_prob(torch.tensor(2.)).round(decimals=4), ln.mean.round(decimals=4))
print(td, T.ExpTransform().inv, T.SigmoidTransform().domain, T.AffineTransform(0., 1.).codomain)
print(T.TanhTransform()(torch.tensor([0.5])).round(decimals=4), T.TanhTransform().log_abs_det_jacobian(torch.tensor([0.5]), torch.tensor([0.4621])).round(decimals=4))
td2 = D.TransformedDistribution(D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 1), T.AffineTransform(torch.zeros(2), torch.tensor([1., 2.]), event_dim=1))
print(td2.event_shape, td2.log_prob(torch.ones(2)).round(decimals=4), td2.rsample((2,)).shape)
print(T.SoftmaxTransform()(torch.tensor([1., 2., 3.])).round(decimals=4), T.StickBreakingTransform()(torch.zeros(2)).round(decimals=4))
print(T.PowerTransform(2.)(torch.tensor([3.])), T.AbsTransform()(torch.tensor([-2.])))
print(T.ExpTransform() == T.ExpTransform(), T.ExpTransform().sign, T.AffineTransform(0., -2.).sign)
''',
    'gan': PRELUDE + r'''
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
Dn = nn.Sequential(nn.utils.spectral_norm(nn.Linear(1, 16)), nn.LeakyReLU(0.2), nn.utils.spectral_norm(nn.Linear(16, 1)))
print(Dn)
print(sorted(n for n, _ in Dn.named_parameters()), sorted(n for n, _ in Dn.named_buffers()))
oG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999)); oD = torch.optim.Adam(Dn.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
for step in range(4):
    real = torch.randn(32, 1) * 0.5 + 3
    z = torch.randn(32, 2); fake = G(z)
    dl = crit(Dn(real), torch.ones(32, 1)) + crit(Dn(fake.detach()), torch.zeros(32, 1))
    oD.zero_grad(); dl.backward(); oD.step()
    gl = crit(Dn(fake), torch.ones(32, 1))
    oG.zero_grad(); gl.backward(); oG.step()
    print(step, round(dl.item(), 4), round(gl.item(), 4))
w = Dn[0].weight
print(torch.linalg.matrix_norm(w, 2).round(decimals=3), Dn[0].weight_u.shape, Dn[0].weight_orig.shape)
# WGAN-GP
def gp(D, real, fake):
    a = torch.rand(real.size(0), 1)
    xh = (a * real + (1 - a) * fake).requires_grad_(True)
    out = D(xh)
    g, = torch.autograd.grad(out, xh, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)
    return ((g.norm(2, dim=1) - 1) ** 2).mean()
Dc = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
p = gp(Dc, real, fake.detach()); print(p.grad_fn.name(), round(p.item(), 5))
p.backward(); print(Dc[0].weight.grad.abs().sum().round(decimals=5))
try:
    torch.autograd.grad(Dc(real).sum(), real)
except RuntimeError as e: print(e)
try:
    torch.autograd.grad(Dc(real), Dc[0].weight)
except RuntimeError as e: print(e)
print(torch.autograd.grad(Dc(real).sum(), [Dc[0].weight, Dc[2].bias], allow_unused=True)[1])
# tiny DCGAN
netG = nn.Sequential(nn.ConvTranspose2d(4, 8, 4, 1, 0, bias=False), nn.BatchNorm2d(8), nn.ReLU(True), nn.ConvTranspose2d(8, 1, 4, 2, 1, bias=False), nn.Tanh())
netD = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True), nn.Conv2d(8, 1, 4, 1, 0, bias=False), nn.Flatten())
def winit(m):
    cn = m.__class__.__name__
    if cn.find('Conv') != -1: nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif cn.find('BatchNorm') != -1: nn.init.normal_(m.weight.data, 1.0, 0.02); nn.init.constant_(m.bias.data, 0)
netG.apply(winit); netD.apply(winit)
noise = torch.randn(3, 4, 1, 1)
img = netG(noise); print(img.shape, img.grad_fn.name())
o = netD(img); print(o.shape, o.view(-1).round(decimals=4))
print(F.binary_cross_entropy_with_logits(o.view(-1), torch.full((3,), 1.)).round(decimals=4))
print(crit(o, torch.ones(3)) if False else None)
try:
    crit(o, torch.ones(3))
except ValueError as e: print(e)
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 4))
print(sn, sn.parametrizations.weight.original.shape)
nn.utils.remove_spectral_norm(Dn[0]); print(sorted(n for n, _ in Dn[0].named_parameters()))
''',
    'ode': PRELUDE + r'''
torch.manual_seed(0)
class ODEF(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    def forward(self, t, y): return self.net(y)
def euler(f, y0, ts):
    ys = [y0]; y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        y = y + (t1 - t0) * f(t0, y); ys.append(y)
    return torch.stack(ys)
def rk4(f, y0, ts):
    ys = [y0]; y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        h = t1 - t0
        k1 = f(t0, y); k2 = f(t0 + h / 2, y + h * k1 / 2); k3 = f(t0 + h / 2, y + h * k2 / 2); k4 = f(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4); ys.append(y)
    return torch.stack(ys)
A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
ts = torch.linspace(0., 2., 21)
true = rk4(lambda t, y: y @ A.T, torch.tensor([[2., 0.]]), ts)
print(true.shape, true[-1].round(decimals=4))
e = euler(lambda t, y: y @ A.T, torch.tensor([[2., 0.]]), ts)
print(e[-1].round(decimals=4), (e - true).abs().max().round(decimals=4))
f = ODEF(); opt = torch.optim.RMSprop(f.parameters(), lr=1e-2)
for it in range(5):
    pred = rk4(f, true[0], ts)
    loss = (pred - true).abs().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, round(loss.item(), 5))
print(pred.grad_fn.name(), ts[1] - ts[0], (ts[1] - ts[0]).dtype)
dt = ts[1:] - ts[:-1]; print(dt.round(decimals=4)[:3], torch.diff(ts)[:2])
print(torch.trapezoid(true[:, 0, 0], ts).round(decimals=4), torch.cumulative_trapezoid(torch.ones(4)), torch.trapezoid(torch.tensor([1., 2., 3.]), dx=0.5))
print(opt)
''',
    'pinn': PRELUDE + r'''
hessian, jacrev, vmap, grad, functional_call, jacfwd = torch.func.hessian, torch.func.jacrev, torch.func.vmap, torch.func.grad, torch.func.functional_call, torch.func.jacfwd
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
x = torch.linspace(0, 1, 10).unsqueeze(1).requires_grad_(True)
u = net(x)
ux = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]
uxx = torch.autograd.grad(ux, x, torch.ones_like(ux), create_graph=True)[0]
print(ux.shape, uxx.shape, uxx.grad_fn.name())
res = uxx + (math.pi ** 2) * torch.sin(math.pi * x)
bc = net(torch.tensor([[0.], [1.]]))
loss = res.pow(2).mean() + bc.pow(2).mean()
loss.backward()
print(round(loss.item(), 5), net[0].weight.grad.norm().round(decimals=4))
params = {k: v.detach() for k, v in net.named_parameters()}
def f(p, xi):
    return functional_call(net, p, (xi.unsqueeze(0),)).squeeze()
d2 = vmap(hessian(f, argnums=1), in_dims=(None, 0))(params, x.detach())
print(d2.shape, torch.allclose(d2.reshape(-1, 1), uxx.detach(), atol=1e-5))
d1 = vmap(jacrev(f, argnums=1), in_dims=(None, 0))(params, x.detach())
print(d1.shape, torch.allclose(d1, ux.detach(), atol=1e-5))
g = grad(lambda p: f(p, x[0].detach()))(params)
print(sorted(g.keys()), g['0.weight'].shape)
u2 = lambda xy: torch.sin(xy[0]) * torch.cos(xy[1]) * xy[0]
H = hessian(u2)(torch.tensor([0.5, 0.3])); print(H.round(decimals=4))
print(jacfwd(jacrev(u2))(torch.tensor([0.5, 0.3])).round(decimals=4))
print(torch.autograd.functional.hessian(u2, torch.tensor([0.5, 0.3])).round(decimals=4))
lap = vmap(lambda p: torch.trace(hessian(u2)(p)))(torch.rand(4, 2)); print(lap.shape)
J = jacrev(lambda v: v ** 2 + v.sum())(torch.arange(3.)); print(J)
jv = vmap(jacrev(torch.sin))(torch.arange(6.).view(2, 3)); print(jv.shape)
print(vmap(grad(lambda v: (v ** 3).sum()))(torch.arange(4.).view(2, 2)))
try:
    grad(lambda v: v ** 2)(torch.arange(3.))
except RuntimeError as e: print(e)
try:
    vmap(lambda v: v.item())(torch.arange(3.))
except RuntimeError as e: print(e)
try:
    vmap(torch.sum, in_dims=1)(torch.arange(3.))
except ValueError as e: print(e)
gx = torch.tensor(2., requires_grad=True)
y = gx ** 3
g1, = torch.autograd.grad(y, gx, create_graph=True)
g2, = torch.autograd.grad(g1, gx)
print(g1, g2)
try:
    torch.autograd.grad(g2, gx)
except RuntimeError as e: print(e)
''',
    'style': PRELUDE + r'''
torch.manual_seed(0)
def gram(f):
    b, c, h, w = f.size()
    feats = f.view(b * c, h * w)
    G = torch.mm(feats, feats.t())
    return G.div(b * c * h * w)
feat = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 8, 3, padding=1), nn.ReLU())
for p in feat.parameters(): p.requires_grad_(False)
content = torch.rand(1, 3, 8, 8); style = torch.rand(1, 3, 8, 8)
tc = feat(content).detach(); ts = gram(feat(style)).detach()
inp = content.clone().requires_grad_(True)
opt = torch.optim.LBFGS([inp])
print(opt.param_groups[0]['lr'], opt.param_groups[0]['max_iter'], opt.param_groups[0]['line_search_fn'])
run = [0]
while run[0] <= 20:
    def closure():
        with torch.no_grad():
            inp.clamp_(0, 1)
        opt.zero_grad()
        f = feat(inp)
        sl = F.mse_loss(gram(f), ts) * 1e4; cl = F.mse_loss(f, tc)
        loss = sl + cl
        loss.backward()
        run[0] += 1
        if run[0] % 10 == 0: print(run[0], round(sl.item(), 4), round(cl.item(), 4))
        return sl + cl
    opt.step(closure)
with torch.no_grad(): inp.clamp_(0, 1)
print(inp.min() >= 0, inp.max() <= 1, inp.requires_grad, inp.is_leaf)
x2 = torch.rand(1, 3, 8, 8, requires_grad=True)
o2 = torch.optim.Adam([x2], lr=0.05)
for i in range(3):
    o2.zero_grad(); l = F.mse_loss(gram(feat(x2)), ts); l.backward(); o2.step()
    x2.data.clamp_(0, 1)
print(round(l.item(), 8))
try:
    x2.clamp_(0, 1)
except RuntimeError as e: print(e)
print(gram(tc).shape, gram(tc).grad_fn)
tv = (inp[:, :, 1:, :] - inp[:, :, :-1, :]).abs().mean() + (inp[:, :, :, 1:] - inp[:, :, :, :-1]).abs().mean()
print(tv.grad_fn.name())
mean = torch.tensor([0.485, 0.456, 0.406]).view(-1, 1, 1); std = torch.tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
print(((content - mean) / std).shape, ((content - mean) / std)[0, :, 0, 0].round(decimals=4))
print(torch.einsum('bchw,bdhw->bcd', tc, tc).shape)
''',
    'adv': PRELUDE + r'''
torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
x = torch.rand(5, 1, 4, 4); y = torch.tensor([0, 1, 2, 1, 0])
def fgsm(model, x, y, eps):
    x = x.clone().detach().requires_grad_(True)
    loss = F.cross_entropy(model(x), y)
    model.zero_grad(); loss.backward()
    return (x + eps * x.grad.sign()).clamp(0, 1).detach()
xa = fgsm(model, x, y, 0.1)
print((xa - x).abs().max().round(decimals=4), xa.requires_grad, model[1].weight.grad is not None)
def pgd(model, x, y, eps=0.1, alpha=0.02, steps=5):
    xa = x.clone().detach() + torch.empty_like(x).uniform_(-eps, eps)
    xa = torch.clamp(xa, 0, 1).detach()
    for _ in range(steps):
        xa.requires_grad_()
        with torch.enable_grad():
            loss = F.cross_entropy(model(xa), y)
        g = torch.autograd.grad(loss, [xa])[0]
        xa = xa.detach() + alpha * torch.sign(g.detach())
        xa = torch.min(torch.max(xa, x - eps), x + eps).clamp(0.0, 1.0)
    return xa
xp = pgd(model, x, y)
print((xp - x).abs().max() <= 0.1 + 1e-6, F.cross_entropy(model(xp), y) > F.cross_entropy(model(x), y))
print(model(xp).argmax(1), model(x).argmax(1))
delta = torch.zeros_like(x, requires_grad=True)
for _ in range(3):
    loss = F.cross_entropy(model(x + delta), y)
    loss.backward()
    delta.data = (delta + 0.01 * delta.grad.detach().sign()).clamp(-0.03, 0.03)
    delta.grad.zero_()
print(delta.abs().max(), delta.grad.abs().sum())
x.requires_grad_()
try:
    x.requires_grad_(False) if False else x.detach().requires_grad_(True).requires_grad_(False)
    nonleaf = x * 2; nonleaf.requires_grad_(False)
except RuntimeError as e: print(e)
try:
    x.grad.sign()
except AttributeError as e: print(e)
print(x.grad)
out = model(x); out.sum().backward(); print(x.grad.shape, x.grad.sign().unique())
with torch.no_grad():
    xx = x + 0.1
print(xx.requires_grad, xx.grad_fn)
z = torch.clamp(torch.tensor([0.5, 1.5, -0.2]), min=torch.tensor([0., 0., 0.]), max=torch.tensor([1., 1., 1.])); print(z)
print(torch.clamp(torch.tensor([1, 5]), 0.5, 2.5), torch.clamp(torch.tensor([1, 5]), max=3).dtype)
try:
    torch.clamp(torch.tensor([1.]))
except RuntimeError as e: print(e)
print(torch.tensor([1., -2., 0., -0.]).sign(), torch.sgn(torch.tensor([3+4j])))
''',
    'kd': PRELUDE + r'''
torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4)); student = nn.Linear(8, 4)
x = torch.randn(16, 8); y = torch.randint(0, 4, (16,))
T = 4.0; alpha = 0.7
with torch.no_grad(): tl = teacher(x)
sl = student(x)
kd = F.kl_div(F.log_softmax(sl / T, dim=1), F.softmax(tl / T, dim=1), reduction='batchmean') * T * T
ce = F.cross_entropy(sl, y)
loss = alpha * kd + (1 - alpha) * ce
print(round(kd.item(), 6), round(ce.item(), 6), loss.grad_fn.name())
loss.backward(); print(student.weight.grad.norm().round(decimals=5))
for red in ['sum', 'mean', 'none', 'batchmean']:
    v = F.kl_div(F.log_softmax(sl / T, 1), F.softmax(tl / T, 1), reduction=red)
    print(red, v.shape, v.sum().round(decimals=5))
print(F.kl_div(F.log_softmax(sl, 1), F.log_softmax(tl, 1), reduction='batchmean', log_target=True).round(decimals=5))
print(nn.KLDivLoss(reduction='batchmean')(F.log_softmax(sl, 1), F.softmax(tl, 1)).round(decimals=5))
print(nn.KLDivLoss())
print(F.kl_div(torch.tensor([[-1., -2.]]), torch.tensor([[0., 1.]]), reduction='sum'))
# Label smoothing
eps = 0.1
logp = F.log_softmax(sl, -1)
nll = -logp.gather(1, y.unsqueeze(1)).squeeze(1)
smooth = -logp.mean(-1)
manual = ((1 - eps) * nll + eps * smooth).mean()
builtin = F.cross_entropy(sl, y, label_smoothing=eps)
print(round(manual.item(), 6), round(builtin.item(), 6))
print(nn.CrossEntropyLoss(label_smoothing=0.2, weight=torch.tensor([1., 2., 1., 0.5]))(sl, y).round(decimals=5))
print(F.cross_entropy(sl, y, label_smoothing=0.1, reduction='none')[:3].round(decimals=5))
print(F.cross_entropy(sl, F.one_hot(y, 4).float(), label_smoothing=0.1).round(decimals=5))
print(F.cross_entropy(sl, torch.where(y == 0, -100, y), label_smoothing=0.1).round(decimals=5))
try:
    F.cross_entropy(sl, y, label_smoothing=1.5)
except RuntimeError as e: print(e)
print(nn.CrossEntropyLoss(label_smoothing=0.1))
# focal loss
def focal(logits, t, gamma=2.0, alpha=0.25):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, t, reduction='none')
    pt = p * t + (1 - p) * (1 - t)
    a = alpha * t + (1 - alpha) * (1 - t)
    return (a * (1 - pt) ** gamma * ce).mean()
t = F.one_hot(y, 4).float()
print(focal(sl, t).round(decimals=6))
def focal_mc(logits, y, gamma=2.):
    logpt = F.log_softmax(logits, 1).gather(1, y[:, None]).squeeze(1)
    return (-(1 - logpt.exp()) ** gamma * logpt).mean()
print(focal_mc(sl, y).round(decimals=6))
print(F.nll_loss(F.log_softmax(sl, 1), y, reduction='sum').round(decimals=4))
''',
    'simclr': PRELUDE + r'''
torch.manual_seed(0)
def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2], 0), dim=1)
    n = z1.shape[0]
    sim = z @ z.T / tau
    mask = torch.eye(2 * n, dtype=torch.bool)
    sim = sim.masked_fill(mask, float('-inf'))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)
z1 = torch.randn(4, 8, requires_grad=True); z2 = torch.randn(4, 8)
l = nt_xent(z1, z2); print(round(l.item(), 6), l.grad_fn.name())
l.backward(); print(z1.grad.norm().round(decimals=5))
def nt_xent2(z1, z2, tau=0.5):
    z1, z2 = F.normalize(z1, dim=-1), F.normalize(z2, dim=-1)
    z = torch.cat([z1, z2]); n = z.shape[0]
    sim = torch.exp(z @ z.t() / tau)
    mask = ~torch.eye(n, device=z.device).bool()
    neg = sim.masked_select(mask).view(n, -1).sum(dim=-1)
    pos = torch.exp(torch.sum(z1 * z2, dim=-1) / tau); pos = torch.cat([pos, pos])
    return (-torch.log(pos / neg)).mean()
print(round(nt_xent2(z1, z2).item(), 6))
sim = F.cosine_similarity(z1.unsqueeze(1), z2.unsqueeze(0), dim=-1); print(sim.shape, sim.diag().round(decimals=4))
logits = sim / 0.1
lse = torch.logsumexp(logits, dim=1); print(lse.round(decimals=4), (lse - logits.diag()).mean().round(decimals=4))
print(torch.logsumexp(torch.tensor([[float('-inf'), float('-inf')]]), 1), torch.logsumexp(torch.tensor([float('inf'), 1.]), 0))
print(F.normalize(torch.zeros(2, 3), dim=1), F.normalize(torch.tensor([[3., 4.]]), p=1, dim=1))
print(F.normalize(torch.tensor([3., 4.]), dim=0, eps=10.))
s = z1 @ z2.T
s.fill_diagonal_(0); print(s.diag())
m = torch.ones(4, 4).triu(1).bool(); print(s[m].shape)
print(torch.logsumexp(torch.randn(2, 3, 4), dim=(1, 2)).shape, torch.logsumexp(torch.tensor([]), 0))
print(torch.logsumexp(torch.tensor([1, 2, 3]), 0))
try:
    F.cosine_similarity(z1, z2[:3])
except RuntimeError as e: print(e)
print(F.pairwise_distance(z1, z2).shape, F.pdist(z1).shape, torch.cdist(z1, z2).shape)
# InfoNCE / CLIP
img = F.normalize(torch.randn(3, 5), dim=-1); txt = F.normalize(torch.randn(3, 5), dim=-1)
ls = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))
lg = ls.exp() * img @ txt.t()
lab = torch.arange(3)
print(((F.cross_entropy(lg, lab) + F.cross_entropy(lg.t(), lab)) / 2).round(decimals=5), ls.shape, ls)
''',
    'metric': PRELUDE + r'''
torch.manual_seed(0)
emb = torch.randn(8, 4, requires_grad=True); labels = torch.tensor([0, 0, 1, 1, 2, 2, 0, 1])
def batch_hard(emb, labels, margin=0.3):
    d = torch.cdist(emb, emb)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos = same & ~eye
    hardest_pos = (d * pos.float()).max(1)[0]
    max_d = d.max(1, keepdim=True)[0]
    hardest_neg = (d + max_d * same.float()).min(1)[0]
    return F.relu(hardest_pos - hardest_neg + margin).mean()
l = batch_hard(emb, labels); print(round(l.item(), 5))
l.backward(); print(emb.grad.abs().sum().round(decimals=4))
a, p, n = emb[:3], emb[3:6], emb[5:8]
tl = nn.TripletMarginLoss(margin=1.0, p=2)
print(tl(a, p, n).round(decimals=5), F.triplet_margin_loss(a, p, n, swap=True).round(decimals=5))
print(nn.TripletMarginLoss(reduction='none')(a, p, n).round(decimals=5))
print(nn.TripletMarginWithDistanceLoss(distance_function=lambda x, y: 1 - F.cosine_similarity(x, y))(a, p, n).round(decimals=5))
ce = nn.CosineEmbeddingLoss(margin=0.2)
tgt = torch.tensor([1, -1, 1])
print(ce(a, p, tgt).round(decimals=5), F.cosine_embedding_loss(a, p, tgt.float(), reduction='none').round(decimals=5))
try:
    ce(a, p, torch.tensor([1, -1]))
except RuntimeError as e: print(e)
print(nn.MarginRankingLoss(0.1)(a[:, 0], p[:, 0], tgt).round(decimals=5))
print(nn.HingeEmbeddingLoss()(a, torch.tensor([[1, -1, 1, -1]] * 3).float()).round(decimals=5))
print(nn.SoftMarginLoss()(a, torch.ones(3, 4)).round(decimals=5))
print(nn.MultiMarginLoss()(emb[:4], labels[:4]).round(decimals=5))
print(nn.MultiLabelMarginLoss()(emb[:2], torch.tensor([[0, 2, -1, 0], [1, -1, 0, 0]])).round(decimals=5))
print(tl)
try:
    tl(a, p, n[:2])
except RuntimeError as e: print(e)
try:
    tl(a[0], p, n)
except RuntimeError as e: print(e)
cos = F.cosine_similarity(emb.unsqueeze(1), emb.unsqueeze(0), dim=2)
print(cos.shape, torch.diagonal(cos).round(decimals=4))
mask_pos = (labels[:, None] == labels[None]).float() - torch.eye(8)
lp = F.log_softmax(cos / 0.1 - torch.eye(8) * 1e9, 1)
print(((mask_pos * lp).sum(1) / mask_pos.sum(1)).round(decimals=4))
print(torch.triu_indices(3, 3, 1), torch.combinations(torch.arange(3)))
''',
    'rl': PRELUDE + r'''
import random, collections
D = torch.distributions
torch.manual_seed(0); random.seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
states = torch.randn(6, 4)
logps, rewards = [], []
for s in states:
    probs = F.softmax(policy(s), dim=-1)
    m = D.Categorical(probs)
    a = m.sample()
    logps.append(m.log_prob(a)); rewards.append(float(a.item() == 1))
print(a, a.dtype, a.shape, logps[0])
R = 0; returns = []
for r in rewards[::-1]:
    R = r + 0.99 * R; returns.insert(0, R)
returns = torch.tensor(returns)
print(returns.round(decimals=4))
returns = (returns - returns.mean()) / (returns.std() + 1e-9)
loss = torch.cat([-lp.unsqueeze(0) * r for lp, r in zip(logps, returns)]).sum()
print(round(loss.item(), 5), loss.grad_fn.name())
opt.zero_grad(); loss.backward(); opt.step()
loss2 = -(torch.stack(logps) * returns).sum(); print(torch.stack(logps).shape, loss2.grad_fn.name())
# DQN
Transition = collections.namedtuple('Transition', ('state', 'action', 'next_state', 'reward', 'done'))
buf = collections.deque(maxlen=100)
for i in range(20):
    buf.append(Transition(torch.randn(4), torch.tensor([random.randrange(2)]), torch.randn(4), torch.tensor([1.0]), torch.tensor([float(i % 7 == 0)])))
q = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)); tq = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
tq.load_state_dict(q.state_dict()); tq.eval()
print(tq.load_state_dict(q.state_dict()))
batch = Transition(*zip(*random.sample(list(buf), 8)))
S = torch.stack(batch.state); A = torch.cat(batch.action); Sn = torch.stack(batch.next_state); Rw = torch.cat(batch.reward); Dn = torch.cat(batch.done)
qsa = q(S).gather(1, A.unsqueeze(1)).squeeze(1)
with torch.no_grad():
    target = Rw + 0.99 * tq(Sn).max(1)[0] * (1 - Dn)
    dd = Rw + 0.99 * tq(Sn).gather(1, q(Sn).argmax(1, keepdim=True)).squeeze(1) * (1 - Dn)
l = F.smooth_l1_loss(qsa, target); print(round(l.item(), 5), A.dtype, qsa.shape)
print(F.huber_loss(qsa, target, delta=0.5).round(decimals=5), nn.SmoothL1Loss(beta=0.5)(qsa, dd).round(decimals=5))
qo = torch.optim.Adam(q.parameters(), lr=1e-3); qo.zero_grad(); l.backward()
print(nn.utils.clip_grad_norm_(q.parameters(), 1.0).round(decimals=4))
torch.nn.utils.clip_grad_value_(q.parameters(), 0.1); qo.step()
tau = 0.005
for tp, p in zip(tq.parameters(), q.parameters()): tp.data.copy_(tau * p.data + (1 - tau) * tp.data)
sd = tq.state_dict()
for k in sd: sd[k] = sd[k] * 0.5
tq.load_state_dict(sd); print(tq[0].bias[:3].round(decimals=4))
try:
    q(S).gather(1, A)
except RuntimeError as e: print(e)
try:
    q(S).gather(1, A.unsqueeze(1).float())
except RuntimeError as e: print(e)
eps_greedy = [q(s).argmax().item() if random.random() > 0.1 else random.randrange(2) for s in S]; print(eps_greedy)
try:
    tq.load_state_dict({'0.weight': torch.zeros(16, 4)})
except RuntimeError as e: print(str(e)[:300])
print(tq.load_state_dict({'0.weight': torch.zeros(16, 4)}, strict=False))
try:
    tq.load_state_dict({**q.state_dict(), '0.weight': torch.zeros(3, 4)})
except RuntimeError as e: print(e)
''',
    'ppo': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
T, N = 5, 3
actor = nn.Linear(4, 2); critic = nn.Linear(4, 1)
obs = torch.randn(T, N, 4)
rewards = torch.rand(T, N); dones = torch.zeros(T, N); dones[2, 1] = 1
with torch.no_grad():
    dist = D.Categorical(logits=actor(obs)); actions = dist.sample(); old_logp = dist.log_prob(actions)
    values = critic(obs).squeeze(-1); next_value = critic(torch.randn(N, 4)).squeeze(-1)
print(actions.shape, old_logp.shape, values.shape)
gamma, lam = 0.99, 0.95
adv = torch.zeros_like(rewards); lastgaelam = 0
for t in reversed(range(T)):
    nnt = 1.0 - dones[t]
    nv = next_value if t == T - 1 else values[t + 1]
    delta = rewards[t] + gamma * nv * nnt - values[t]
    adv[t] = lastgaelam = delta + gamma * lam * nnt * lastgaelam
ret = adv + values
print(adv.round(decimals=4))
b_obs = obs.reshape(-1, 4); b_act = actions.reshape(-1); b_lp = old_logp.reshape(-1); b_adv = adv.reshape(-1); b_ret = ret.reshape(-1)
b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
opt = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=3e-4, eps=1e-5)
for epoch in range(2):
    for mb in torch.randperm(T * N).split(5):
        nd = D.Categorical(logits=actor(b_obs[mb])); lp = nd.log_prob(b_act[mb]); ent = nd.entropy()
        logratio = lp - b_lp[mb]; ratio = logratio.exp()
        with torch.no_grad():
            approx_kl = ((ratio - 1) - logratio).mean(); clipfrac = ((ratio - 1.0).abs() > 0.2).float().mean()
        pg = torch.max(-b_adv[mb] * ratio, -b_adv[mb] * torch.clamp(ratio, 0.8, 1.2)).mean()
        vl = 0.5 * ((critic(b_obs[mb]).squeeze() - b_ret[mb]) ** 2).mean()
        loss = pg - 0.01 * ent.mean() + 0.5 * vl
        opt.zero_grad(); loss.backward(); nn.utils.clip_grad_norm_(opt.param_groups[0]['params'], 0.5); opt.step()
    print(epoch, round(loss.item(), 5), round(approx_kl.item(), 5), clipfrac)
# continuous
mu = torch.zeros(3, 2, requires_grad=True); log_std = nn.Parameter(torch.zeros(2))
nd = D.Normal(mu, log_std.exp()); a = nd.sample()
print(nd.log_prob(a).sum(-1).shape, nd.entropy().sum(-1), nd.stddev)
tanh_d = D.TransformedDistribution(nd, [D.transforms.TanhTransform(cache_size=1)])
ac = tanh_d.rsample(); print(ac.shape, tanh_d.log_prob(ac).shape, ac.abs().max() < 1)
var = torch.explained_variance if hasattr(torch, 'explained_variance') else None
y_pred, y_true = values.reshape(-1), b_ret
print((1 - torch.var(y_true - y_pred) / torch.var(y_true)).round(decimals=4))
print(D.Categorical(logits=torch.zeros(2, 3)).entropy(), D.Categorical(probs=torch.tensor([[1., 0.]])).entropy())
try:
    D.Categorical(logits=actor(obs)).log_prob(torch.tensor([5]))
except ValueError as e: print(e)
print(D.Categorical(logits=actor(obs)).log_prob(actions[0]).shape)
print(torch.distributions.Categorical(torch.tensor([0.25, 0.75])).sample((2, 2)).shape)
''',
    'gnn': PRELUDE + r'''
torch.manual_seed(0)
edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 4], [1, 0, 2, 1, 3, 2, 4, 3]])
N = 5; X = torch.randn(N, 3)
A = torch.zeros(N, N); A[edge_index[0], edge_index[1]] = 1
Ah = A + torch.eye(N); deg = Ah.sum(1); Dm = torch.diag(deg.pow(-0.5))
An = Dm @ Ah @ Dm
print(An.round(decimals=4))
W = nn.Linear(3, 2, bias=False)
H = F.relu(An @ W(X)); print(H.round(decimals=4))
# sparse
ei = torch.cat([edge_index, torch.arange(N).repeat(2, 1)], 1)
vals = torch.ones(ei.shape[1])
S = torch.sparse_coo_tensor(ei, vals, (N, N))
print(S)
d = torch.sparse.sum(S, dim=1).to_dense(); print(d)
dinv = d.pow(-0.5)
nv = dinv[ei[0]] * vals * dinv[ei[1]]
Sn = torch.sparse_coo_tensor(ei, nv, (N, N)).coalesce()
print(Sn.indices().shape, Sn.is_coalesced(), torch.allclose(Sn.to_dense(), An))
Hs = F.relu(torch.sparse.mm(Sn, W(X))); print(torch.allclose(Hs, H, atol=1e-6), Hs.grad_fn.name())
Hs.sum().backward(); print(W.weight.grad.round(decimals=4))
print(torch.sparse.mm(Sn, X).shape, (Sn @ X).shape)
# message passing
src, dst = edge_index
msg = X[src]
agg = torch.zeros(N, 3).index_add_(0, dst, msg); print(agg.round(decimals=4))
cnt = torch.bincount(dst, minlength=N).clamp(min=1).unsqueeze(1)
print((agg / cnt).round(decimals=4))
mx = torch.zeros(N, 3).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 3), msg, reduce='amax', include_self=False); print(mx.round(decimals=4))
mn = torch.full((N, 3), float('inf')).scatter_reduce(0, dst.view(-1, 1).expand_as(msg), msg, reduce='amin'); print(mn.round(decimals=4))
me = torch.zeros(N, 3).scatter_reduce(0, dst.view(-1, 1).expand_as(msg), msg, reduce='mean'); print(me.round(decimals=4))
pr = torch.ones(N, 3).scatter_reduce(0, dst.view(-1, 1).expand_as(msg), msg, reduce='prod', include_self=True); print(pr.round(decimals=4))
# GAT
Wg = nn.Linear(3, 4, bias=False); a_src = torch.randn(4); a_dst = torch.randn(4)
h = Wg(X)
e = F.leaky_relu((h[src] * a_src).sum(-1) + (h[dst] * a_dst).sum(-1), 0.2)
emax = torch.zeros(N).scatter_reduce(0, dst, e, reduce='amax', include_self=False)
ex = (e - emax[dst]).exp()
den = torch.zeros(N).index_add(0, dst, ex)
alpha = ex / den[dst]
print(alpha.round(decimals=4), alpha.grad_fn.name())
out = torch.zeros(N, 4).index_add(0, dst, alpha.unsqueeze(1) * h[src])
print(out.round(decimals=4))
# dense GAT
sc = (h @ a_src).unsqueeze(1) + (h @ a_dst).unsqueeze(0)
sc = F.leaky_relu(sc, 0.2).masked_fill(Ah == 0, float('-inf'))
att = torch.softmax(sc, dim=1); print(att[0].round(decimals=4))
out.sum().backward(); print(Wg.weight.grad.round(decimals=3))
try:
    torch.sparse.mm(Sn, torch.randn(4, 2))
except RuntimeError as e: print(e)
try:
    torch.zeros(N, 3).index_add_(0, dst, msg[:, :2])
except RuntimeError as e: print(e)
try:
    torch.zeros(N).scatter_reduce(0, dst, e, reduce='max')
except RuntimeError as e: print(e)
print(torch.sparse_coo_tensor(ei, vals, (N, N)).coalesce().values().sum(), S.is_sparse, S.layout, S._nnz())
print(S.to_dense().to_sparse().indices().shape, torch.sparse.softmax(Sn, 1).to_dense()[0].round(decimals=4))
print(torch.sparse_coo_tensor(ei, vals).shape)
''',
    'recsys': PRELUDE + r'''
torch.manual_seed(0)
class MF(nn.Module):
    def __init__(self, nu, ni, k=4):
        super().__init__()
        self.U = nn.Embedding(nu, k); self.I = nn.Embedding(ni, k)
        self.ub = nn.Embedding(nu, 1); self.ib = nn.Embedding(ni, 1)
        nn.init.normal_(self.U.weight, std=0.1); nn.init.normal_(self.I.weight, std=0.1)
        nn.init.zeros_(self.ub.weight); nn.init.zeros_(self.ib.weight)
    def forward(self, u, i):
        return (self.U(u) * self.I(i)).sum(1) + self.ub(u).squeeze(1) + self.ib(i).squeeze(1)
m = MF(5, 7)
u = torch.randint(0, 5, (20,)); i = torch.randint(0, 7, (20,)); r = torch.randint(1, 6, (20,)).float()
opt = torch.optim.SGD(m.parameters(), lr=0.5, weight_decay=1e-4)
for ep in range(3):
    loss = F.mse_loss(m(u, i), r); opt.zero_grad(); loss.backward(); opt.step(); print(ep, round(loss.item(), 5))
print(m)
# BPR
pos = torch.randint(0, 7, (20,)); neg = torch.randint(0, 7, (20,))
xuij = (m.U(u) * (m.I(pos) - m.I(neg))).sum(-1)
bpr = -F.logsigmoid(xuij).mean(); print(round(bpr.item(), 6), bpr.grad_fn.name())
print(-torch.log(torch.sigmoid(xuij)).mean().round(decimals=6))
sp = nn.Embedding(7, 3, sparse=True); o = sp(torch.tensor([1, 1, 2])).sum(); o.backward()
print(sp.weight.grad.is_sparse, sp.weight.grad.coalesce().indices(), sp.weight.grad.coalesce().values())
so = torch.optim.SparseAdam(sp.parameters(), lr=0.1); so.step(); print(sp.weight[0:3].round(decimals=4))
# EmbeddingBag
bag = nn.EmbeddingBag(10, 3, mode='sum')
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]); offsets = torch.tensor([0, 4])
print(bag(inp, offsets).round(decimals=4))
psw = torch.rand(8)
print(bag(inp, offsets, per_sample_weights=psw).round(decimals=4))
bm = nn.EmbeddingBag(10, 3, mode='mean'); print(bm(inp.view(2, 4)).round(decimals=4))
bx = nn.EmbeddingBag(10, 3, mode='max'); print(bx(inp, offsets).round(decimals=4))
print(bm(inp, torch.tensor([0, 4, 8])).round(decimals=4))
b2 = nn.EmbeddingBag(10, 3, mode='sum', include_last_offset=True); print(b2(inp, torch.tensor([0, 3, 8])).shape)
pb = nn.EmbeddingBag(10, 3, mode='sum', padding_idx=2); print(pb(inp, offsets).round(decimals=4))
try:
    bm(inp, offsets, per_sample_weights=psw)
except (NotImplementedError, ValueError, RuntimeError) as e: print(type(e).__name__, e)
try:
    bag(inp.view(2, 4), offsets)
except ValueError as e: print(e)
try:
    bag(inp, torch.tensor([1, 4]))
except (ValueError, RuntimeError) as e: print(type(e).__name__, e)
print(F.embedding_bag(inp, bag.weight, offsets, mode='sum').round(decimals=4))
print(bag)
eb = nn.EmbeddingBag.from_pretrained(torch.arange(12.).view(4, 3), mode='sum'); print(eb(torch.tensor([[0, 3]])), eb.weight.requires_grad)
e = nn.Embedding(5, 2, max_norm=1.0); w0 = e.weight.clone(); e(torch.tensor([0, 1])); print(e.weight.norm(dim=1)[:2].le(1.0 + 1e-6), torch.equal(e.weight[2:], w0[2:]))
e2 = nn.Embedding(4, 2, padding_idx=0); print(e2.weight[0], e2)
try:
    e2(torch.tensor([4]))
except IndexError as ex: print(ex)
try:
    e2(torch.tensor([1.]))
except RuntimeError as ex: print(ex)
topk = torch.topk(m.U.weight @ m.I.weight.T, 3, dim=1); print(topk.indices)
''',
    'ts': PRELUDE + r'''
torch.manual_seed(0)
t = torch.arange(0, 40, dtype=torch.float32)
series = torch.sin(0.3 * t) + 0.1 * torch.randn(40)
W = 6
win = series.unfold(0, W + 1, 1); print(win.shape, win.stride(), win.is_contiguous())
X, Y = win[:, :W].unsqueeze(-1), win[:, W:]
print(X.shape, Y.shape)
class Fc(nn.Module):
    def __init__(self):
        super().__init__(); self.lstm = nn.LSTM(1, 8, batch_first=True); self.head = nn.Linear(8, 1)
    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.head(out[:, -1])
m = Fc(); opt = torch.optim.Adam(m.parameters(), lr=1e-2)
for ep in range(3):
    loss = F.mse_loss(m(X), Y); opt.zero_grad(); loss.backward(); opt.step(); print(ep, round(loss.item(), 5))
out, (h, c) = m.lstm(X); print(out.shape, h.shape, c.shape, torch.allclose(out[:, -1], h[0]))
x2 = torch.randn(3, 10, 2)
u = x2.unfold(1, 4, 2); print(u.shape)
u2 = F.unfold(torch.randn(1, 1, 4, 4), kernel_size=2, stride=2); print(u2.shape)
print(torch.arange(10.).unfold(0, 3, 3))
try:
    series.unfold(0, 50, 1)
except RuntimeError as e: print(e)
try:
    series.unfold(0, 3, 0)
except RuntimeError as e: print(e)
# fft features
fr = torch.fft.rfft(series); print(fr.shape, fr.dtype, fr.abs()[:4].round(decimals=3))
freqs = torch.fft.rfftfreq(40, d=1.0); print(freqs[:4], freqs.dtype)
dom = freqs[fr.abs()[1:].argmax() + 1]; print(dom.round(decimals=4))
print(torch.fft.irfft(fr, n=40).sub(series).abs().max() < 1e-5)
psd = fr.abs() ** 2 / 40; print(psd[:3].round(decimals=3))
print(torch.fft.fft(torch.tensor([1., 0., -1., 0.])), torch.fft.fftshift(torch.arange(5)))
print(torch.fft.rfft(torch.randn(2, 8), dim=-1, norm='ortho').shape, torch.fft.rfft(torch.arange(4)).dtype)
print(torch.stft(series, n_fft=8, hop_length=4, return_complex=True, window=torch.hann_window(8)).shape)
print(torch.hann_window(4), torch.hann_window(4, periodic=False))
try:
    torch.stft(series, n_fft=8)
except RuntimeError as e: print(e)
roll = series.unfold(0, 5, 1).mean(1); print(roll[:3].round(decimals=4))
ema = torch.zeros_like(series); ema[0] = series[0]
for k in range(1, 40): ema[k] = 0.9 * ema[k - 1] + 0.1 * series[k]
print(ema[-1].round(decimals=4))
print(F.avg_pool1d(series.view(1, 1, -1), 5, 1).shape, series.diff(n=2).shape, torch.cumsum(series, 0)[-1].round(decimals=3))
gru = nn.GRU(1, 4, num_layers=2, batch_first=True, dropout=0.0); o, hh = gru(X); print(o.shape, hh.shape)
print(nn.LSTM(1, 4, proj_size=2)(X.transpose(0, 1))[1][0].shape)
try:
    m.lstm(X.squeeze(-1))
except RuntimeError as e: print(e)
try:
    m.lstm(X, (torch.zeros(1, 34, 8),))
except (RuntimeError, ValueError, TypeError) as e: print(type(e).__name__, e)
''',
    'bayes': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
X = torch.randn(30, 2); w = torch.tensor([1.0, -0.5]); y = X @ w + 0.2 * torch.randn(30)
alpha, beta = 1.0, 25.0
Sn_inv = alpha * torch.eye(2) + beta * X.T @ X
Sn = torch.linalg.inv(Sn_inv); mn = beta * Sn @ X.T @ y
print(mn.round(decimals=4), Sn.round(decimals=5))
post = D.MultivariateNormal(mn, covariance_matrix=Sn)
ws = post.sample((1000,)); print(ws.shape, ws.mean(0).round(decimals=2))
xs = torch.tensor([[1., 1.]]); pv = 1 / beta + (xs @ Sn @ xs.T); print(pv.round(decimals=4))
print(torch.linalg.solve(Sn_inv, beta * X.T @ y).round(decimals=4))
lml = D.MultivariateNormal(torch.zeros(30), (1 / alpha) * X @ X.T + (1 / beta) * torch.eye(30)).log_prob(y); print(lml.round(decimals=3))
# MC dropout
net = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 1))
net.eval()
def enable_dropout(m):
    for mod in m.modules():
        if isinstance(mod, nn.Dropout): mod.train()
enable_dropout(net)
print([mm.training for mm in net.modules()])
with torch.no_grad():
    preds = torch.stack([net(xs) for _ in range(50)])
print(preds.shape, preds.mean(0).round(decimals=4), preds.std(0).round(decimals=4))
print(F.dropout(torch.ones(8), 0.5, training=True), F.dropout(torch.ones(3), 0.5, training=False))
print(F.dropout(torch.ones(2, 4), p=1.0), torch.ones(4).bernoulli_(0.5))
try:
    F.dropout(torch.ones(3), p=1.5)
except ValueError as e: print(e)
print(nn.Dropout(p=0.2, inplace=True), nn.AlphaDropout(0.2)(torch.ones(4)).shape)
print(F.dropout1d(torch.ones(2, 3, 4), 0.5).sum(-1), F.dropout2d(torch.ones(1, 4, 2, 2), 0.5)[0, :, 0, 0])
# Bayes by backprop
mu = torch.zeros(3, requires_grad=True); rho = torch.full((3,), -3., requires_grad=True)
sigma = F.softplus(rho); eps = torch.randn(3); wsamp = mu + sigma * eps
kl = D.kl_divergence(D.Normal(mu, sigma), D.Normal(0., 1.)).sum()
print(kl.round(decimals=4), F.softplus(torch.tensor([-3., 0., 30.]), beta=2, threshold=10))
lp = D.Normal(0., 1.).log_prob(wsamp).sum() - D.Normal(mu, sigma).log_prob(wsamp).sum(); (-lp).backward(); print(mu.grad.round(decimals=4), rho.grad.round(decimals=4))
g = D.Gamma(torch.tensor([2.]), torch.tensor([3.])); print(g.sample((2,)).shape, g.mean, g.log_prob(torch.tensor([0.5])).round(decimals=4))

ig = D.InverseGamma(torch.tensor(3.), torch.tensor(2.)); print(ig.mean, ig.log_prob(torch.tensor(1.)).round(decimals=4))
print(D.StudentT(3.).log_prob(torch.tensor(0.5)).round(decimals=4), D.Laplace(0., 1.).entropy().round(decimals=4))
hn = D.HalfNormal(1.); print(hn.log_prob(torch.tensor([-1., 1.])) if not D.Distribution._validate_args else None)
try:
    hn.log_prob(torch.tensor([-1., 1.]))
except ValueError as e: print(e)
print(D.Normal(0., 1.).log_prob(torch.tensor([1], dtype=torch.long)) if False else D.Normal(0., 1.).log_prob(1.))
''',
    'mixup': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
x = torch.rand(4, 3, 8, 8); y = torch.tensor([0, 1, 2, 1])
beta = D.Beta(torch.tensor([0.4]), torch.tensor([0.4]))
lam = beta.sample().item(); print(round(lam, 5))
idx = torch.randperm(4); print(idx)
xm = lam * x + (1 - lam) * x[idx]
yo = F.one_hot(y, 3).float(); ym = lam * yo + (1 - lam) * yo[idx]; print(ym.round(decimals=4))
logits = torch.randn(4, 3, requires_grad=True)
l1 = lam * F.cross_entropy(logits, y) + (1 - lam) * F.cross_entropy(logits, y[idx])
l2 = F.cross_entropy(logits, ym); print(round(l1.item(), 5), round(l2.item(), 5))
print(D.Beta(1., 1.).sample((2,)).shape, D.Beta(torch.tensor(2.), torch.tensor(3.)).mean, D.Beta(2., 3.).log_prob(torch.tensor(0.3)).round(decimals=4))
print(D.Beta(0.4, 0.4).rsample().requires_grad, D.Beta(torch.tensor(0.4, requires_grad=True), torch.tensor(0.4)).rsample().requires_grad)
# cutmix
lam = float(torch.distributions.Beta(1., 1.).sample())
H = W = 8
cut = math.sqrt(1. - lam); cw, ch = int(W * cut), int(H * cut)
cx, cy = torch.randint(W, (1,)).item(), torch.randint(H, (1,)).item()
x1, y1 = max(cx - cw // 2, 0), max(cy - ch // 2, 0); x2, y2 = min(cx + cw // 2, W), min(cy + ch // 2, H)
xc = x.clone(); xc[:, :, y1:y2, x1:x2] = x[idx, :, y1:y2, x1:x2]
lam2 = 1 - ((x2 - x1) * (y2 - y1) / (W * H)); print(round(lam2, 5), (xc != x).any().item())
bbx1 = torch.clamp(torch.tensor(cx - cw // 2), 0, W); print(bbx1, bbx1.dtype, type(int(bbx1)))
print(np.random.beta(1., 1.) >= 0)
d = D.Dirichlet(torch.tensor([0.5, 0.5, 0.5])); s = d.sample((2,)); print(s.shape, s.sum(-1).round(decimals=4))
print(D.Uniform(0., 2.).sample((3,)).shape, D.Uniform(torch.zeros(2), torch.ones(2)).entropy())
try:
    D.Beta(torch.tensor([0.]), torch.tensor([1.]))
except ValueError as e: print(e)
print(torch.randperm(5, dtype=torch.int32), torch.randperm(0), torch.randperm(3, generator=torch.Generator().manual_seed(1)))
try:
    torch.randperm(-1)
except RuntimeError as e: print(e)
print(x.flip(3)[0, 0, 0, :2], torch.roll(x, 1, dims=0).shape)
''',
    'ema': PRELUDE + r'''
import copy
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
ema = copy.deepcopy(model); [p.requires_grad_(False) for p in ema.parameters()]
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
decay = 0.9
x = torch.randn(16, 4); y = torch.randint(0, 2, (16,))
accum = 4
for step in range(8):
    xb, yb = x[(step % accum) * 4:(step % accum + 1) * 4], y[(step % accum) * 4:(step % accum + 1) * 4]
    loss = F.cross_entropy(model(xb), yb) / accum
    loss.backward()
    if (step + 1) % accum == 0:
        opt.step(); opt.zero_grad(set_to_none=True)
        with torch.no_grad():
            ep = list(ema.parameters()); mp = list(model.parameters())
            torch._foreach_mul_(ep, decay)
            torch._foreach_add_(ep, mp, alpha=1 - decay)
            for eb, mb in zip(ema.buffers(), model.buffers()): eb.copy_(mb)
        print(step, round(loss.item() * accum, 5))
print(ema[0].weight[0].round(decimals=4), model[0].weight.grad)
with torch.no_grad():
    for e, m in zip(ema.parameters(), model.parameters()): e.lerp_(m, 0.5)
print(ema[3].bias.round(decimals=4))
a = [torch.ones(2), torch.zeros(3)]; b = [torch.full((2,), 3.), torch.ones(3)]
torch._foreach_lerp_(a, b, 0.25); print(a)
torch._foreach_lerp_(a, b, [torch.tensor(0.5), torch.tensor(1.)]) if False else None
print(torch._foreach_mul(a, 2.), torch._foreach_add(a, b), torch._foreach_norm(a))
print(torch._foreach_sub(a, b, alpha=2), torch._foreach_addcmul(a, b, b, value=0.5))
torch._foreach_mul_(a, [2., 3.]); print(a)
torch._foreach_div_(a, torch.tensor(2.)); print(a)
try:
    torch._foreach_add_(a, b[:1])
except RuntimeError as e: print(e)
try:
    torch._foreach_mul_([torch.ones(2, dtype=torch.long)], 0.5)
except RuntimeError as e: print(e)
print(torch._foreach_maximum(a, b), torch._foreach_sqrt(b), torch._foreach_neg(a), torch._foreach_abs([torch.tensor([-1.])]))
print(torch.lerp(torch.zeros(3), torch.ones(3), torch.tensor([0., 0.5, 1.])), torch.ones(2).lerp(torch.zeros(2), 2.))
sw = torch.optim.swa_utils.AveragedModel(model); sw.update_parameters(model); sw.update_parameters(ema)
print(sw.n_averaged, sw.module[0].bias[:2].round(decimals=4))
emaf = torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)); emaf.update_parameters(model); print(emaf.n_averaged)
print(opt.state_dict()['param_groups'][0]['nesterov'], list(opt.state_dict()['state'][0].keys()))
try:
    torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True)
except ValueError as e: print(e)
''',
    'ckpt': PRELUDE + r'''
checkpoint = torch.utils.checkpoint.checkpoint; checkpoint_sequential = torch.utils.checkpoint.checkpoint_sequential
torch.manual_seed(0)
blocks = nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.GELU()) for _ in range(3)])
x = torch.randn(2, 4, requires_grad=True)
h = x
for b in blocks: h = checkpoint(b, h, use_reentrant=False)
print(h.grad_fn.name() if h.grad_fn else None)
h.sum().backward(); g1 = x.grad.clone(); x.grad = None
h2 = x
for b in blocks: h2 = b(h2)
h2.sum().backward(); print(torch.allclose(g1, x.grad), g1.round(decimals=4))
x.grad = None
h3 = x
for b in blocks: h3 = checkpoint(b, h3, use_reentrant=True)
h3.sum().backward(); print(torch.allclose(g1, x.grad), h3.grad_fn.name())
seq = nn.Sequential(*[nn.Linear(4, 4) for _ in range(4)])
o = checkpoint_sequential(seq, 2, x, use_reentrant=False); print(o.shape, o.grad_fn is not None)
d = nn.Dropout(0.5)
torch.manual_seed(1); yd = checkpoint(lambda t: d(t) * 2, torch.ones(8, requires_grad=True), use_reentrant=False); print(yd)
yd.sum().backward()
nog = torch.randn(2, 4)
r = checkpoint(blocks[0], nog, use_reentrant=False); print(r.requires_grad)
def f(a, b, scale=1.0): return (a * b).sum() * scale
print(checkpoint(f, x, x, scale=2.0, use_reentrant=False).round(decimals=4))
try:
    checkpoint(f, x, x, scale=2.0, use_reentrant=True)
except ValueError as e: print(e)
print(checkpoint(f, x, x, use_reentrant=True, preserve_rng_state=False).round(decimals=4))
with torch.no_grad():
    print(checkpoint(blocks[0], x, use_reentrant=False).requires_grad)
r2 = checkpoint(lambda t: (t * 2, t.detach() * 3), x, use_reentrant=False); print([t.requires_grad for t in r2])
''',
    'hvp': PRELUDE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True); X = torch.randn(10, 3); y = torch.randn(10)
def loss_fn(w): return ((X @ w - y) ** 2).mean() + 0.1 * (w ** 4).sum()
v = torch.tensor([1., 0., -1.])
l = loss_fn(w); g, = torch.autograd.grad(l, w, create_graph=True)
hv, = torch.autograd.grad(g @ v, w, retain_graph=True); print(hv.round(decimals=4))
H = torch.autograd.functional.hessian(loss_fn, w.detach()); print(torch.allclose(H @ v, hv, atol=1e-5))
print(torch.autograd.functional.hvp(loss_fn, w.detach(), v)[1].round(decimals=4))
print(torch.autograd.functional.vhp(loss_fn, w.detach(), v)[1].round(decimals=4))
_, jv = torch.autograd.functional.jvp(lambda t: t ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.])); print(jv)
print(torch.autograd.functional.vjp(lambda t: t ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.])))
print(torch.func.jvp(torch.func.grad(loss_fn), (w.detach(),), (v,))[1].round(decimals=4))
_, vjp_fn = torch.func.vjp(torch.func.grad(loss_fn), w.detach()); print(vjp_fn(v)[0].round(decimals=4))
print(torch.autograd.functional.jacobian(lambda a, b: a * b, (torch.ones(2), torch.arange(2.))))
print(torch.autograd.functional.hessian(lambda a: (a ** 3).sum(), torch.tensor([1., 2.]), create_graph=False).shape)
# power iteration for top eigenvalue
vv = torch.randn(3); vv /= vv.norm()
for _ in range(20):
    hvv, = torch.autograd.grad(g, w, grad_outputs=vv, retain_graph=True)
    lam = (hvv @ vv).item(); vv = hvv / hvv.norm()
print(round(lam, 3), torch.linalg.eigvalsh(H).max().round(decimals=3))
# Hutchinson trace
est = []
for _ in range(100):
    z = torch.randint_like(w, 2) * 2 - 1
    hz, = torch.autograd.grad(g, w, grad_outputs=z, retain_graph=True); est.append((hz * z).sum())
print(torch.stack(est).mean().round(decimals=2), torch.trace(H).round(decimals=2))
print(torch.randint_like(w, 2).dtype, torch.randint_like(w, 1, 3).unique())
try:
    torch.autograd.grad(g.sum(), w); torch.autograd.grad(g.sum(), w)
except RuntimeError as e: print(e)
net = nn.Linear(3, 1); ps = list(net.parameters())
out = net(X).pow(2).mean(); gs = torch.autograd.grad(out, ps, create_graph=True)
vs = [torch.ones_like(p) for p in ps]
hvs = torch.autograd.grad(gs, ps, grad_outputs=vs); print([h.shape for h in hvs], hvs[1].round(decimals=4))
print(sum((a * b).sum() for a, b in zip(gs, vs)).grad_fn.name())
try:
    torch.autograd.functional.hvp(loss_fn, w.detach(), torch.ones(2))
except RuntimeError as e: print(e)
''',
    'dist2': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
comp = D.Independent(D.Normal(torch.randn(3, 2), torch.rand(3, 2) + 0.5), 1)
mix = D.MixtureSameFamily(D.Categorical(torch.ones(3)), comp)
print(mix.batch_shape, mix.event_shape, mix.log_prob(torch.zeros(4, 2)).shape)
print(mix)
try:
    mix.rsample()
except NotImplementedError as e: print(repr(e))
m1 = D.MixtureSameFamily(D.Categorical(torch.ones(2)), D.Normal(torch.tensor([-1., 1.]), torch.tensor([0.5, 0.5])))
print(m1.cdf(torch.tensor([0., 1.])).round(decimals=4), m1.log_prob(torch.tensor(0.)).round(decimals=4))
try:
    D.MixtureSameFamily(D.Categorical(torch.ones(3)), D.Normal(torch.zeros(2), 1.))
except ValueError as e: print(e)
try:
    D.MixtureSameFamily(torch.ones(3), comp)
except ValueError as e: print(e)
print(D.Normal(torch.zeros(2), 1.), D.Categorical(torch.ones(3)), D.Bernoulli(0.3), D.Beta(1., 2.))
print(D.MultivariateNormal(torch.zeros(2), torch.eye(2)), D.Independent(D.Normal(torch.zeros(2), 1.), 1))
print(D.Normal(0., 1.).expand((3,)).batch_shape, D.Independent(D.Normal(torch.zeros(2), 1.), 1).expand((4,)).batch_shape)
try:
    D.kl_divergence(D.Beta(1., 1.), D.Poisson(1.))
except NotImplementedError as e: print(repr(e))
g = D.Gumbel(0., 1.); print(g.mean.round(decimals=4), g.log_prob(torch.tensor(0.5)).round(decimals=4))
print(F.gumbel_softmax(torch.zeros(2, 3), tau=0.5, hard=True).sum(1), F.gumbel_softmax(torch.zeros(2, 3), tau=0.5).shape)
rc = D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.zeros(3)); s = rc.rsample(); print(s.shape, s.sum().round(decimals=4))
rb = D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3, 0.6])); print(rb.rsample((2,)).shape)
oh = D.OneHotCategorical(probs=torch.tensor([0.2, 0.8])); print(oh.sample((3,)).shape, oh.log_prob(torch.tensor([0., 1.])).round(decimals=4), oh.entropy().round(decimals=4))
st = D.OneHotCategoricalStraightThrough(logits=torch.zeros(3, requires_grad=True)); print(st.rsample().requires_grad)
print(D.Binomial(10, torch.tensor(0.3)).log_prob(torch.tensor(3.)).round(decimals=4), D.Binomial(10, 0.3).mean, D.Binomial(10, 0.3).variance)
print(D.NegativeBinomial(5., probs=torch.tensor(0.4)).log_prob(torch.tensor(2.)).round(decimals=4), D.NegativeBinomial(5., 0.4).mean)
print(D.Poisson(torch.tensor([2.])).log_prob(torch.tensor([3.])).round(decimals=4), D.Geometric(0.3).log_prob(torch.tensor(2.)).round(decimals=4), D.Geometric(0.3).mean.round(decimals=4))
print(D.Multinomial(5, torch.tensor([0.2, 0.3, 0.5])).log_prob(torch.tensor([1., 1., 3.])).round(decimals=4), D.Multinomial(5, probs=torch.ones(3)).sample().sum())
try:
    D.Multinomial(5, torch.ones(3)).log_prob(torch.tensor([1., 1., 1.]))
except ValueError as e: print(e)
print(D.Weibull(1., 2.).mean.round(decimals=4), D.Pareto(1., 2.).mean, D.Kumaraswamy(2., 3.).mean.round(decimals=4), D.VonMises(0., 1.).log_prob(torch.tensor(0.5)).round(decimals=4))
print(D.Chi2(3.).mean, D.FisherSnedecor(3., 5.).mean.round(decimals=4), D.HalfCauchy(1.).log_prob(torch.tensor(1.)).round(decimals=4), D.Cauchy(0., 1.).cdf(torch.tensor(1.)))
print(D.LogisticNormal(torch.zeros(2), torch.ones(2)).sample().shape, D.Exponential(2.).entropy().round(decimals=4), D.Exponential(2.).icdf(torch.tensor(0.5)).round(decimals=4))
w = D.Wishart(df=torch.tensor(4.), covariance_matrix=torch.eye(2)); print(w.sample().shape, w.mean, w.log_prob(torch.eye(2) * 2).round(decimals=4))
lkj = D.LKJCholesky(3, 0.5); L = lkj.sample(); print(L.shape, (L @ L.T).diag().round(decimals=4), lkj.log_prob(torch.eye(3)).round(decimals=4))
print(D.utils.logits_to_probs(torch.tensor([0., 1.])).round(decimals=4), D.utils.probs_to_logits(torch.tensor([0.25, 0.75])).round(decimals=4), D.utils.probs_to_logits(torch.tensor([0.25]), is_binary=True).round(decimals=4))
print(D.constraints.positive.check(torch.tensor([-1., 1.])), D.constraints.simplex, D.constraints.interval(0, 1), D.constraints.real_vector.event_dim)
t = D.biject_to(D.constraints.positive); print(t, t(torch.tensor([0.])))
print(D.transform_to(D.constraints.simplex)(torch.zeros(2)).round(decimals=4), D.biject_to(D.constraints.interval(-1., 1.))(torch.tensor([0.])))
print(D.transform_to(D.constraints.lower_cholesky)(torch.zeros(2, 2)), D.transform_to(D.constraints.corr_cholesky)(torch.zeros(3)).round(decimals=4))
print(D.Normal(0., 1.).support, D.Categorical(torch.ones(3)).support, D.Beta(1., 1.).arg_constraints)
print(D.Normal(0., 1.).has_rsample, D.Categorical(torch.ones(2)).has_enumerate_support, D.Bernoulli(0.5).enumerate_support(expand=False))
print(D.Normal(torch.zeros(2, 3), 1.).sample((4,)).shape, D.Normal(0., 1.).perplexity().round(decimals=4))
print(D.Categorical(torch.ones(2, 3)).enumerate_support().shape, D.Categorical(torch.ones(2, 3)).enumerate_support(expand=False).shape)
print(D.Laplace(0., 1.).cdf(torch.tensor([-1., 1.])).round(decimals=4), D.Uniform(0., 1.).log_prob(torch.tensor(0.5)))
try:
    D.Uniform(0., 1.).log_prob(torch.tensor(1.5))
except ValueError as e: print(e)
D.Distribution.set_default_validate_args(False)
print(D.Uniform(0., 1.).log_prob(torch.tensor(1.5)), D.Normal(0., -1.).scale)
D.Distribution.set_default_validate_args(True)
print(D.Normal(0., 1., validate_args=False).log_prob(torch.tensor(float('nan'))))
''',
    'errs': PRELUDE + r'''
torch.manual_seed(0)
def t(f):
    try:
        r = f(); print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e)[:400])
w = torch.randn(3, 1, requires_grad=True); X = torch.randn(5, 3)
def f1():
    w -= 0.1 * torch.ones(3, 1)
t(lambda: w.sub_(1))
t(lambda: w.numpy())
t(lambda: X.double() @ w)
t(lambda: torch.mm(X, w.double()))
t(lambda: (X @ w).backward())
def f2():
    h = X @ w; s = h.sigmoid(); s.mul_(2); s.sum().backward()
t(f2)
def f3():
    h = X @ w; e = h.exp(); e += 1; e.sum().backward()
t(f3)
def f4():
    a = w.t(); y = (a * a).sum(); a.mul_(1) if False else None; w2 = w.clone(); z = w2.pow(2); w2.add_(1); z.sum().backward()
t(f4)
def f5():
    y = torch.tanh(X @ w); y[0] = 0; y.sum().backward()
t(f5)
t(lambda: F.binary_cross_entropy(torch.sigmoid(X[:, 0]), torch.tensor([1, 0, 1, 0, 1])))
t(lambda: F.binary_cross_entropy_with_logits(X[:, 0], torch.tensor([1, 0, 1, 0, 1])))
t(lambda: F.cross_entropy(X, torch.tensor([0., 1., 2., 0., 1.])))
t(lambda: F.cross_entropy(X, torch.tensor([0, 1, 3, 0, 1])))
t(lambda: F.nll_loss(X, torch.tensor([0, 1, 2, 0])))
t(lambda: F.cross_entropy(X, torch.tensor([[0], [1], [2], [0], [1]])))
t(lambda: F.mse_loss(X[:, :1], X[:, 0]).shape)
t(lambda: torch.optim.SGD([], lr=0.1))
t(lambda: torch.optim.SGD([X @ w], lr=0.1))
t(lambda: torch.optim.Adam([w], lr=-1))
t(lambda: torch.optim.Adam([w], betas=(1.0, 0.9)))
t(lambda: bool(torch.tensor([1, 2])))
t(lambda: float(torch.ones(2)))
t(lambda: torch.ones(2, 3).view(-1, 4))
t(lambda: torch.ones(2, 3).t().view(6))
t(lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
t(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
t(lambda: nn.Linear(3, 2)(torch.ones(4, 2)))
t(lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)))
t(lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 3, 2, 2)))
t(lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)))
t(lambda: nn.MaxPool2d(2)(torch.ones(1, 1, 1, 1)))
t(lambda: torch.ones(3)[3])
t(lambda: torch.ones(3)[torch.tensor([3])])
t(lambda: torch.ones(2, 2) + torch.ones(3))
t(lambda: torch.ones(2, dtype=torch.long).mean())
t(lambda: torch.ones(2).long().sqrt().dtype)
t(lambda: torch.arange(3).float().requires_grad_().long().requires_grad_())
t(lambda: torch.tensor([1, 2], requires_grad=True))
t(lambda: X.grad.zero_())
t(lambda: w.grad)
def f6():
    y = (X @ w).sum(); y.backward(); y.backward()
t(f6)
t(lambda: torch.autograd.grad((X @ w).sum(), X))
t(lambda: torch.ones(2).item())
t(lambda: torch.tensor([[1., 2.]]).tolist())
t(lambda: nn.functional.one_hot(torch.tensor([1., 2.])))
t(lambda: nn.functional.one_hot(torch.tensor([1, 5]), 3))
t(lambda: nn.functional.one_hot(torch.tensor([-1, 1])))
t(lambda: torch.multinomial(torch.tensor([1., 1.]), 3))
t(lambda: torch.randint(5, (2, 2)).float().mean(dtype=torch.long))
t(lambda: torch.zeros(3).index_add_(0, torch.tensor([0, 1]), torch.ones(2, dtype=torch.float64)))
t(lambda: torch.zeros(3).scatter_add_(0, torch.tensor([0, 1]).int(), torch.ones(2)))
t(lambda: torch.zeros(3).index_add_(0, torch.tensor([0., 1.]), torch.ones(2)))
t(lambda: torch.zeros(3, 2)[torch.tensor([True, False])])
t(lambda: torch.zeros(3).masked_fill(torch.tensor([1, 0, 1]), 1.))
t(lambda: torch.where(torch.tensor([True, False]), torch.ones(2), torch.zeros(2, dtype=torch.long)))
t(lambda: torch.gather(torch.ones(2, 3), 1, torch.tensor([[3]])))
''',
    'func2': PRELUDE + r'''
fn = torch.func
torch.manual_seed(0)
models = [nn.Linear(3, 2) for _ in range(4)]
params, buffers = fn.stack_module_state(models)
print({k: v.shape for k, v in params.items()}, buffers)
import copy
base = copy.deepcopy(models[0]).to('meta')
print(base.weight.device, base)
def fm(p, b, x): return fn.functional_call(base, (p, b), (x,))
x = torch.randn(5, 3)
out = fn.vmap(fm, in_dims=(0, 0, None))(params, buffers, x); print(out.shape, torch.allclose(out[1], models[1](x)))
out2 = fn.vmap(fm)(params, buffers, x.expand(4, 5, 3)); print(out2.shape)
def loss(p, xb, yb): return F.mse_loss(fn.functional_call(models[0], p, (xb,)), yb)
p0 = {k: v.detach() for k, v in models[0].named_parameters()}
y = torch.randn(5, 2)
psg = fn.vmap(fn.grad(loss), in_dims=(None, 0, 0))(p0, x.unsqueeze(1), y.unsqueeze(1)); print({k: v.shape for k, v in psg.items()})
g, l = fn.grad_and_value(loss)(p0, x, y); print(round(l.item(), 5), g['bias'].round(decimals=4))
def with_aux(p, xb): o = fn.functional_call(models[0], p, (xb,)); return o.sum(), o.detach()
(gg, aux) = fn.grad(with_aux, has_aux=True)(p0, x); print(aux.shape, gg['weight'].shape)
j, a2 = fn.jacrev(lambda v: (v.sin(), v.cos()), has_aux=True)(torch.arange(3.)); print(j.shape, a2.round(decimals=4))
jj = fn.jacrev(lambda a, b: a * b, argnums=(0, 1))(torch.ones(2), torch.arange(2.)); print(type(jj).__name__, jj[1])
print(fn.jacrev(torch.sin, chunk_size=1)(torch.arange(3.)).diag().round(decimals=4))
jf = fn.jacfwd(lambda v: v ** 2, randomness='same')(torch.arange(3.)); print(jf)
o, jvp_fn = fn.linearize(torch.sin, torch.arange(3.)); print(jvp_fn(torch.ones(3)).round(decimals=4))
dr = nn.Dropout(0.5)
print(fn.vmap(lambda v: dr(v), randomness='different')(torch.ones(3, 4)).shape)
print(fn.vmap(lambda v: dr(v), randomness='same')(torch.ones(3, 4)).eq(0).float().std(0).sum())
try:
    fn.vmap(lambda v: dr(v))(torch.ones(3, 4))
except RuntimeError as e: print(e)
try:
    fn.vmap(lambda v: torch.rand(2) + v)(torch.ones(3, 2))
except RuntimeError as e: print(e)
print(fn.vmap(torch.outer)(torch.ones(2, 3), torch.ones(2, 2)).shape, fn.vmap(fn.vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)))
print(fn.vmap(lambda a: a.sum(0), in_dims=1, out_dims=0)(torch.arange(6.).view(2, 3)))
print(fn.vmap(lambda d: d['a'] + d['b'])({'a': torch.ones(2, 2), 'b': torch.arange(2.)}))
try:
    fn.vmap(torch.add, in_dims=(0, 0))(torch.ones(2), torch.ones(3))
except ValueError as e: print(e)
try:
    fn.functional_call(models[0], {'weight': torch.ones(2, 3), 'foo': torch.ones(1)}, (x,), strict=True)
except RuntimeError as e: print(e)
print(fn.functional_call(models[0], {'weight': torch.zeros(2, 3)}, x)[0])
print(fn.hessian(lambda d: (d['a'] ** 2 * d['b']).sum())({'a': torch.tensor([1., 2.]), 'b': torch.tensor(3.)})['a']['b'])
''',
    'gradlin': PRELUDE + r'''
torch.manual_seed(0)
A = torch.randn(4, 3, requires_grad=True)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
S.sum().backward(); print(A.grad.round(decimals=3)); A.grad = None
print(U.grad_fn.name(), S.grad_fn.name())
U, S, Vh = torch.linalg.svd(A, full_matrices=False); (U[:, 0].abs().sum() + Vh.abs().sum()).backward(); print(A.grad.abs().sum().round(decimals=3)); A.grad = None
try:
    U, S, Vh = torch.linalg.svd(A); (U.sum()).backward()
except RuntimeError as e: print(e)
A.grad = None
Cf = lambda: A.T @ A
L, V = torch.linalg.eigh(Cf()); (L.sum() + (V ** 2)[:, 0].sum()).backward(); print(A.grad.round(decimals=3)); A.grad = None
try:
    L, V = torch.linalg.eigh(Cf()); V.sum().backward()
except RuntimeError as e: print(e)
A.grad = None
s, ld = torch.linalg.slogdet(Cf()); ld.backward(); print(s, A.grad.round(decimals=3)); A.grad = None
torch.logdet(Cf()).backward(); print(A.grad.round(decimals=3)); A.grad = None
torch.det(Cf()).backward(); print(A.grad.round(decimals=2)); A.grad = None
b = torch.randn(4, requires_grad=True)
sol = torch.linalg.lstsq(A, b.unsqueeze(1)).solution; sol.sum().backward(); print(sol.grad_fn.name(), A.grad.round(decimals=3), b.grad.round(decimals=3)); A.grad = None
x = torch.linalg.solve(Cf() + torch.eye(3), torch.ones(3)); x.sum().backward(); print(A.grad.round(decimals=3)); A.grad = None
Lc = torch.linalg.cholesky(Cf() + torch.eye(3)); Lc.diagonal().log().sum().backward(); print(A.grad.round(decimals=3)); A.grad = None
torch.linalg.inv(Cf() + torch.eye(3)).trace().backward(); print(A.grad.round(decimals=3)); A.grad = None
torch.linalg.matrix_norm(A, 'nuc').backward(); print(A.grad.round(decimals=3)); A.grad = None
torch.linalg.matrix_norm(A, 2).backward(); print(A.grad.round(decimals=3)); A.grad = None
torch.linalg.pinv(A).sum().backward(); print(A.grad.round(decimals=3)); A.grad = None
torch.linalg.svdvals(A).max().backward(); print(A.grad.round(decimals=3)); A.grad = None
Q, R = torch.linalg.qr(A); (Q.sum() + R.diagonal().sum()).backward(); print(A.grad.round(decimals=3)); A.grad = None
E = torch.linalg.matrix_exp(Cf() * 0.1); E.sum().backward(); print(A.grad.round(decimals=3)); A.grad = None
ev = torch.linalg.eigvals(Cf() + 0j); print(ev.dtype, ev.real.sort().values.round(decimals=3))
X = torch.randn(6, 2, requires_grad=True); Y = torch.randn(4, 2)
for p in [1., 2., 3., float('inf')]:
    X.grad = None; torch.cdist(X, Y, p=p).sum().backward(); print(p, X.grad.abs().sum().round(decimals=3))
X.grad = None; torch.cdist(X, Y, compute_mode='use_mm_for_euclid_dist').sum().backward(); print(X.grad.abs().sum().round(decimals=3))
print(torch.cdist(X, X)[0, 0], torch.cdist(X, X, compute_mode='use_mm_for_euclid_dist').diag().abs().max() < 1e-3)
X.grad = None; torch.cdist(X, X).sum().backward(); print(X.grad.isnan().any())
Z = torch.zeros(2, 2, requires_grad=True); torch.cdist(Z, Z).sum().backward(); print(Z.grad)
Z.grad = None; torch.pdist(Z + torch.tensor([[0., 0.], [1., 1.]])).sum().backward(); print(Z.grad)
Z.grad = None; Z.norm().backward(); print(Z.grad)
Z.grad = None; (Z ** 2).sum().sqrt().backward(); print(Z.grad)
Z.grad = None; torch.linalg.vector_norm(Z, ord=1).backward(); print(Z.grad)
Z.grad = None; torch.linalg.vector_norm(Z, ord=float('inf')).backward(); print(Z.grad)
''',
    'sparse2': PRELUDE + r'''
torch.manual_seed(0)
i = torch.tensor([[0, 1, 1, 2, 0], [1, 0, 2, 1, 1]])
v = torch.tensor([1., 2., 3., 4., 5.], requires_grad=True)
S = torch.sparse_coo_tensor(i, v, (3, 3))
print(S, S.requires_grad, S.is_coalesced())
Sc = S.coalesce(); print(Sc.values(), Sc.indices())
X = torch.randn(3, 2, requires_grad=True)
Y = torch.sparse.mm(S, X); print(Y.grad_fn.name())
Y.sum().backward(); print(v.grad, X.grad)
v.grad = None
W = torch.sparse.mm(S, X); print(W.shape)
S2 = torch.sparse_coo_tensor(i, v, (3, 3)); out = torch.sparse.sum(S2); out.backward(); print(out, v.grad)
v.grad = None
ss = torch.sparse.sum(S2, dim=0); print(ss, ss.grad_fn.name() if ss.grad_fn else None)
S2 = torch.sparse_coo_tensor(i, v, (3, 3)); ds = S2.to_dense(); ds.sum().backward(); print(v.grad, ds.grad_fn.name())
v.grad = None
S2 = torch.sparse_coo_tensor(i, v, (3, 3))
sm = torch.sparse.softmax(S2.coalesce(), dim=1); print(sm)
sm.values().sum().backward() if False else None
lsm = torch.sparse.log_softmax(S2.coalesce(), 1).to_dense(); print(lsm.round(decimals=4))
print(torch.sparse.addmm(torch.zeros(3, 2), S2, X).shape, (S2 * 2).to_dense()[0], (S2 + S2).coalesce().values())
print(torch.mm(S2, X).grad_fn.name(), torch.matmul(S2, X).shape)
try:
    torch.sparse.mm(S2, torch.ones(2, 2))
except RuntimeError as e: print(e)
try:
    S2.view(9)
except RuntimeError as e: print(str(e).split(chr(10))[0])
print(S2.t().coalesce().indices(), S2.transpose(0, 1).shape)
csr = S2.detach().to_sparse_csr(); print(csr.crow_indices(), csr.col_indices(), csr.values(), csr.layout)
print(csr @ X.detach())
print(torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([0, 1]), torch.tensor([1., 2.]), (2, 2)).to_dense())
h = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.ones(2, 3), (4, 3)); print(h.sparse_dim(), h.dense_dim(), h.to_dense().sum(1))
print(torch.sparse_coo_tensor(i, v.detach(), (3, 3)).coalesce() * torch.ones(3, 3))
eye = torch.sparse.spdiags(torch.ones(1, 3), torch.tensor([0]), (3, 3)); print(eye.to_dense())
print(torch.sparse_coo_tensor(size=(2, 2)), torch.zeros(2, 2).to_sparse()._nnz())
m = torch.tensor([[0., 1.], [2., 0.]]).to_sparse(); print(m.to_dense(), m.indices(), torch.sparse.mm(m, m).to_dense())
print(m.values().dtype, m.dtype, m.size(), m.shape, m.dim(), m.is_sparse)
try:
    m.values()[0] = 7; print(m.to_dense())
except RuntimeError as e: print(e)
print(torch.smm(m, torch.eye(2)).to_dense() if hasattr(torch, 'smm') else None)
print(torch.sspaddmm(m, m, torch.eye(2)).to_dense())
print(m.mul(torch.tensor([[1., 2.], [3., 4.]])).to_dense(), torch.sparse.sampled_addmm(torch.eye(2).to_sparse_csr(), torch.ones(2, 2), torch.ones(2, 2)).to_dense())
''',
    'csrgrad': PRELUDE + r'''
v = torch.ones(2, requires_grad=True)
for f in (torch.sparse_csr_tensor, torch.sparse_csc_tensor):
    c = f(torch.tensor([0,1,2]), torch.tensor([0,1]), v * 2, (2,2))
    print(c.grad_fn.name(), c)
    try:
        c.to_dense().sum().backward(); print(v.grad); v.grad = None
    except Exception as e: print(type(e).__name__, e)
    try:
        c.values().sum().backward(); print(v.grad); v.grad = None
    except Exception as e: print(type(e).__name__, e)
c = torch.sparse_bsr_tensor(torch.tensor([0,1]), torch.tensor([0]), torch.ones(1, 2, 2, requires_grad=True), (2,2))
print(c.grad_fn.name())
c = torch.sparse_compressed_tensor(torch.tensor([0,1,2]), torch.tensor([0,1]), v, (2,2), layout=torch.sparse_csr)
print(c.grad_fn.name())
y = torch.sparse.spdiags(torch.ones(2,3, requires_grad=True), torch.tensor([0, 1]), (3,3))
print(y.grad_fn.name(), y.grad_fn, y)
try:
    y.to_dense().sum().backward()
except RuntimeError as e: print(e)
t = torch.sparse_csr_tensor([0, 1, 2], [0, 1], v)
print(t.grad_fn, type(t.grad_fn).__name__, t.grad_fn.name())
try: t.to_dense().sum().backward(); print(v.grad)
except Exception as e: print(e)
w = torch.ones(1, 2, 2, requires_grad=True)
c = torch.sparse_bsr_tensor(torch.tensor([0, 1]), torch.tensor([1]), w * torch.arange(4.).view(1, 2, 2), (2, 4))
(c.to_dense() * torch.arange(8.).view(2, 4)).sum().backward(); print(w.grad)
''',
    'spdiags': PRELUDE + r'''
def t(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])
sp = torch.sparse.spdiags
S = sp(torch.arange(1., 10.).view(3,3), torch.tensor([0,1,-1]), (3,3))
print(S, S.is_coalesced(), S.dtype, S._indices().dtype, S.to_dense())
print(sp(torch.arange(1., 9.).view(2,4), torch.tensor([0,-2]), (5,4)).to_dense())
print(sp(torch.arange(1., 9.).view(2,4), torch.tensor([0,2]), (3,5), layout=torch.sparse_csr))
print(sp(torch.arange(1., 10.).view(3,3), torch.tensor([0,1,-1]), (3,3), layout=torch.sparse_csc))
print(sp(torch.arange(1, 10).view(3,3), torch.tensor([0,1,-1]), (2,3)))
t(lambda: sp(torch.arange(1., 4.), torch.tensor(0), (3,3)))
t(lambda: sp(torch.ones(1,2), torch.tensor([5]), (3,3)))
t(lambda: sp(torch.ones(2,2), torch.tensor([0, 5]), (3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0,0]), (3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0]), (3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0., 1.]), (3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 1]), (3,3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 1]), (3,3), layout=torch.strided))
t(lambda: sp(torch.ones(2,3), torch.tensor([[0, 1]]), (3,3)))
t(lambda: sp(torch.ones(2,3,1), torch.tensor([0, 1]), (3,3)))
t(lambda: sp(torch.ones(2,2), torch.tensor([0, 1]), (3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 1]), (4,4)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 1]), (3,3), layout=torch.sparse_bsr))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 1]).int(), (3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 1]), (3,)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 1]), [2, 3]))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, -3]), (3, 3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([-1, 1]), (3, 3)).coalesce())
t(lambda: sp(torch.ones(2,3), [0, 1], (3, 3)))
t(lambda: sp(torch.ones(2,3, dtype=torch.bool), torch.tensor([0, 1]), (3, 3)))
t(lambda: sp(torch.ones(2,5), torch.tensor([-3, 3]), (3,3)))
t(lambda: sp(torch.ones(0,3), torch.tensor([], dtype=torch.long), (3,3)))
t(lambda: sp(torch.ones(1,3), torch.tensor([0]), (0,3)))
t(lambda: sp(torch.ones(1,3), torch.tensor([0]), (0,3)).is_coalesced())
t(lambda: sp(torch.ones(1,3), torch.tensor([0]), (3,3), layout=torch.sparse_csr).values().is_contiguous())
t(lambda: sp(torch.ones(1,3), torch.tensor([0]), torch.Size([3,3])))
t(lambda: sp(torch.ones(1,3), torch.tensor([0]), (3.,3)))
t(lambda: sp(torch.ones(1,3), torch.tensor([0]), (3,3), torch.sparse_coo))
t(lambda: sp(diagonals=torch.ones(1,3), offsets=torch.tensor([0]), shape=(3,3), layout=None))
t(lambda: sp(torch.ones(3), torch.tensor(1), (3,3), 'coo'))
t(lambda: sp(torch.ones(3), torch.tensor(1), 3))
t(lambda: sp([1., 2.], torch.tensor(1), (3,3)))
t(lambda: sp(torch.ones(3,3), torch.tensor([0, 0]).float(), (3,3)))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 0]), (3,3), layout=torch.strided))
t(lambda: sp(torch.ones(2,3), torch.tensor([0, 0]).float(), (3,3), layout=torch.strided))
t(lambda: sp(torch.ones(1,3, dtype=torch.complex64), torch.tensor([0]), (3,3)).to_dense())
x = torch.ones(2,3, requires_grad=True); y = sp(x, torch.tensor([0, 1]), (3, 3)); print(y.grad_fn.name(), y)
try: y.to_dense().sum().backward()
except RuntimeError as e: print(e)
y = sp(x, torch.tensor([0, 1]), (3, 3), layout=torch.sparse_csr); print(y.grad_fn.name(), y.requires_grad)
with torch.no_grad(): print(sp(x, torch.tensor([0, 1]), (3, 3)).requires_grad)
# a tridiagonal Laplacian, as in a finite-difference PDE solve
n = 5
L = sp(torch.tensor([[-1.] * n, [2.] * n, [-1.] * n]), torch.tensor([-1, 0, 1]), (n, n))
print(L.to_dense(), torch.sparse.mm(L, torch.ones(n, 1)).T)
print(torch.linalg.solve(L.to_dense(), torch.ones(n)))
''',
    'sampled': PRELUDE + r'''
def t(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])
ssa = torch.sparse.sampled_addmm
M = torch.tensor([[1., 0., 2.], [0., 3., 0.]]).to_sparse_csr()
A = torch.arange(8.).view(2, 4); B = torch.arange(12.).view(4, 3) / 10
print(ssa(M, A, B))
print(ssa(M, A, B, beta=0.5, alpha=2.))
print(ssa(M, A, B, beta=0.))
t(lambda: ssa(M.to_dense(), A, B))
t(lambda: ssa(M.to_sparse(), A, B).shape)
t(lambda: ssa(M, A, B[:3]))
t(lambda: ssa(M, A.double(), B))
t(lambda: ssa(M, A, B.t()))
t(lambda: ssa(M, A[0], B))
t(lambda: ssa(M, A.long(), B.long()))
t(lambda: ssa(M.to_sparse_csc(), A, B))



Mb = torch.tensor([[1., 0.], [0., 3.]]).to_sparse_csr()
print(ssa(Mb, torch.ones(2, 2), torch.ones(2, 2), beta=2, alpha=3).values())
t(lambda: ssa(M.to_sparse_csc(), A[0], B.double()))
t(lambda: ssa(M, A[0], B.double()))
t(lambda: ssa(M, A, B[0]))
t(lambda: ssa(M, A.double(), B[:3]))
t(lambda: ssa(M, A.double(), B.double()))
t(lambda: ssa(M, A[:1], B[:3]))
t(lambda: ssa(M, A[:1], B))
t(lambda: ssa(M, A, B[:, :2]))
t(lambda: ssa(M, A.long(), B))
t(lambda: ssa(M, A.to_sparse(), B))
t(lambda: ssa(M, A, B, out=torch.empty(2,3)))
t(lambda: ssa(M.to(torch.float16), A.half(), B.half()))
print(ssa(M, A, B).values().is_contiguous(), ssa(M, A, B).crow_indices() is M.crow_indices())
r = ssa(M, A, B); r.values()[0] = 100; print(M.values())
x = torch.arange(8.).view(2, 4).requires_grad_()
b = B.clone().requires_grad_()
m = torch.tensor([[1., 0., 2.], [0., 3., 0.]]).to_sparse_csr().requires_grad_()
r = torch.sparse.sampled_addmm(m, x, b, beta=0.5, alpha=2.)
r.to_dense().sum().backward(); print(x.grad, b.grad, m.grad)
x.grad = None
r = torch.sparse.sampled_addmm(M, x, B)
r.values().sum().backward(); print(x.grad)
print(r.grad_fn.next_functions[0], len(r.grad_fn.next_functions))
print(ssa(M.double(), A.double(), B.double(), alpha=0.5).values())
print(ssa(torch.zeros(2, 3).to_sparse_csr(), A, B))
''',
    'coo_size': PRELUDE + r'''
def t(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e).split(chr(10))[0][:300])
t(lambda: torch.sparse_coo_tensor(size=(2, 2)))
t(lambda: torch.sparse_coo_tensor((2, 3)))
t(lambda: torch.sparse_coo_tensor([2, 3], dtype=torch.float64))
t(lambda: torch.sparse_coo_tensor(torch.Size([2, 3]), requires_grad=True))
t(lambda: torch.sparse_coo_tensor(size=(2, 2), dtype=torch.long).dtype)
t(lambda: torch.sparse_coo_tensor(torch.tensor([[0], [1]])))
t(lambda: torch.sparse_coo_tensor(size=(2, 2)).is_coalesced())
t(lambda: torch.sparse_coo_tensor(size=(2, 2)).sparse_dim())
t(lambda: torch.sparse_coo_tensor(size=(2, 2)).coalesce().indices())
t(lambda: torch.sparse_coo_tensor(size=(2, 2)).to_dense())
t(lambda: torch.sparse_coo_tensor(size=(3, 2)) + torch.sparse_coo_tensor(torch.tensor([[0], [1]]), torch.tensor([2.]), (3, 2)))
t(lambda: torch.sparse.mm(torch.sparse_coo_tensor(size=(3, 2)), torch.ones(2, 4)))
t(lambda: torch.sparse_coo_tensor(size=()))
t(lambda: torch.sparse_coo_tensor(size=(2, 2))._values().shape)
''',
    'trpo': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
pol = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2))
obs = torch.randn(10, 3); acts = torch.randint(0, 2, (10,)); adv = torch.randn(10)
with torch.no_grad(): old_logits = pol(obs)
def surrogate():
    d = D.Categorical(logits=pol(obs))
    return (torch.exp(d.log_prob(acts) - D.Categorical(logits=old_logits).log_prob(acts)) * adv).mean()
def kl():
    return D.kl_divergence(D.Categorical(logits=old_logits), D.Categorical(logits=pol(obs))).mean()
params = list(pol.parameters())
flat = nn.utils.parameters_to_vector(params); print(flat.shape, flat.requires_grad, flat.grad_fn.name())
g = torch.autograd.grad(surrogate(), params); gflat = torch.cat([x.reshape(-1) for x in g]); print(gflat.norm().round(decimals=4))
def Fvp(v, damping=0.1):
    k = kl(); gk = torch.autograd.grad(k, params, create_graph=True)
    fg = torch.cat([x.reshape(-1) for x in gk])
    hv = torch.autograd.grad(fg @ v, params)
    return torch.cat([x.contiguous().view(-1) for x in hv]) + damping * v
def cg(Avp, b, iters=10, tol=1e-10):
    x = torch.zeros_like(b); r = b.clone(); p = b.clone(); rr = r @ r
    for i in range(iters):
        Ap = Avp(p); alpha = rr / (p @ Ap); x += alpha * p; r -= alpha * Ap
        nrr = r @ r
        if nrr < tol: break
        p = r + nrr / rr * p; rr = nrr
    return x, i
step, its = cg(Fvp, gflat); print(step.norm().round(decimals=3), its)
shs = 0.5 * step @ Fvp(step); lm = torch.sqrt(shs / 0.01); full = step / lm
print(round(shs.item(), 5), full.norm().round(decimals=4))
new = flat.detach() + full
nn.utils.vector_to_parameters(new, params); print(torch.allclose(nn.utils.parameters_to_vector(params), new), round(kl().item(), 6))
try:
    nn.utils.vector_to_parameters(new[:-1], params)
except RuntimeError as e: print(e)
try:
    nn.utils.vector_to_parameters([1., 2.], params)
except TypeError as e: print(e)
try:
    nn.utils.parameters_to_vector(torch.ones(3))
except Exception as e: print(type(e).__name__, e)
# batched grads
x = torch.randn(4, requires_grad=True); y = x ** 2
jac = torch.autograd.grad(y, x, torch.eye(4), is_grads_batched=True)[0]; print(jac)
w = torch.randn(3, 2, requires_grad=True); out = (torch.ones(5, 3) @ w).tanh()
vs = torch.eye(2).unsqueeze(1).expand(2, 5, 2)
jg = torch.autograd.grad(out, w, vs, is_grads_batched=True)[0]; print(jg.shape, jg[0].round(decimals=4))
''',
    'stn': PRELUDE + r'''
torch.manual_seed(0)
img = torch.arange(16.).view(1, 1, 4, 4)
theta = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]])
grid = F.affine_grid(theta, img.size(), align_corners=False); print(grid.shape, grid[0, 0, :2])
out = F.grid_sample(img, grid, align_corners=False); print(torch.allclose(out, img))
rot = torch.tensor([[[0., -1., 0.], [1., 0., 0.]]])
print(F.grid_sample(img, F.affine_grid(rot, img.size(), align_corners=False), align_corners=False))
sc = torch.tensor([[[0.5, 0., 0.2], [0., 0.5, -0.1]]], requires_grad=True)
g2 = F.affine_grid(sc, (1, 1, 3, 3), align_corners=True)
o2 = F.grid_sample(img, g2, mode='bilinear', padding_mode='border', align_corners=True); print(o2.round(decimals=4))
o2.sum().backward(); print(sc.grad.round(decimals=4))
print(F.grid_sample(img, g2.detach(), mode='nearest', align_corners=True))
print(F.grid_sample(img, g2.detach() * 3, padding_mode='zeros', align_corners=False).round(decimals=4))
print(F.grid_sample(img, g2.detach() * 3, padding_mode='reflection', align_corners=False).round(decimals=4))
print(F.grid_sample(img, g2.detach(), mode='bicubic', align_corners=True).round(decimals=3))
class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc = nn.Sequential(nn.Flatten(), nn.Linear(16, 6))
        self.loc[1].weight.data.zero_(); self.loc[1].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
    def forward(self, x):
        th = self.loc(x).view(-1, 2, 3)
        return F.grid_sample(x, F.affine_grid(th, x.size(), align_corners=False), align_corners=False)
s = STN(); x = torch.randn(2, 1, 4, 4, requires_grad=True); y = s(x); print(torch.allclose(y, x, atol=1e-6), y.grad_fn.name())
y.pow(2).sum().backward(); print(s.loc[1].bias.grad.round(decimals=3))
try:
    F.affine_grid(theta, (1, 1, 4))
except (ValueError, RuntimeError) as e: print(type(e).__name__, e)
try:
    F.affine_grid(theta[0], img.size())
except (ValueError, RuntimeError) as e: print(type(e).__name__, e)
try:
    F.grid_sample(img, grid[..., :1])
except RuntimeError as e: print(e)
try:
    F.grid_sample(img, grid, mode='cubic')
except ValueError as e: print(e)
print(F.affine_grid(torch.eye(3, 4).unsqueeze(0), (1, 1, 2, 2, 2), align_corners=True).shape)
img = torch.arange(16.).view(1, 1, 4, 4)
sc = torch.tensor([[[0.5, 0., 0.2], [0., 0.5, -0.1]]], requires_grad=True)
g2 = F.affine_grid(sc, (1, 1, 3, 3), align_corners=True); g2.retain_grad()
o2 = F.grid_sample(img, g2, mode='bilinear', padding_mode='border', align_corners=True)
o2.sum().backward(); print(g2.grad, sc.grad)
g = g2.detach().requires_grad_()
F.grid_sample(img, g, mode='bilinear', padding_mode='zeros', align_corners=True).sum().backward(); print(g.grad)
th = sc.detach().requires_grad_()
gg = F.affine_grid(th, (1, 1, 3, 3), align_corners=True); gg.backward(torch.ones_like(gg) * torch.tensor([1., -0.])); print(th.grad)
th.grad = None
gg = F.affine_grid(th, (1, 1, 3, 3), align_corners=True); gg.backward(torch.zeros_like(gg)); print(th.grad)
th.grad = None
gg = F.affine_grid(th, (1, 1, 3, 3), align_corners=True); gg.backward(-torch.zeros_like(gg)); print(th.grad)
''',
    'vq': PRELUDE + r'''
torch.manual_seed(0)
K, Dm = 6, 3
codebook = nn.Embedding(K, Dm); codebook.weight.data.uniform_(-1 / K, 1 / K)
z_e = torch.randn(2, Dm, 2, 2, requires_grad=True)
z = z_e.permute(0, 2, 3, 1).contiguous(); flat = z.view(-1, Dm)
d = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ codebook.weight.t() + codebook.weight.pow(2).sum(1)
idx = d.argmin(1); print(idx, torch.equal(idx, torch.cdist(flat, codebook.weight).argmin(1)))
enc = F.one_hot(idx, K).float(); q = (enc @ codebook.weight).view(z.shape)
commit = F.mse_loss(q.detach(), z); cb = F.mse_loss(q, z.detach())
q_st = z + (q - z).detach()
loss = cb + 0.25 * commit + q_st.pow(2).mean()
loss.backward(); print(round(loss.item(), 5), z_e.grad.abs().sum().round(decimals=4), codebook.weight.grad.abs().sum().round(decimals=4))
avg = enc.mean(0); perp = torch.exp(-(avg * torch.log(avg + 1e-10)).sum()); print(perp.round(decimals=4))
print(q_st.permute(0, 3, 1, 2).shape, q_st.grad_fn.name())
# EMA codebook update
N = torch.zeros(K); ema_w = codebook.weight.data.clone()
N = 0.99 * N + 0.01 * enc.sum(0)
n = N.sum(); N = (N + 1e-5) / (n + K * 1e-5) * n
dw = enc.t() @ flat.detach(); ema_w = 0.99 * ema_w + 0.01 * dw
print((ema_w / N.unsqueeze(1)).shape, N.round(decimals=4))
# straight-through rounding / sign
x = torch.randn(5, requires_grad=True)
yr = x + (x.round() - x).detach(); yr.sum().backward(); print(yr, x.grad)
x.grad = None; ys = (x.sign() - torch.tanh(x)).detach() + torch.tanh(x); ys.sum().backward(); print(x.grad.round(decimals=4))
print(torch.bucketize(torch.tensor([0.1, 0.5, 0.9]), torch.tensor([0.25, 0.5, 0.75])), torch.bucketize(torch.tensor([0.5]), torch.tensor([0.25, 0.5, 0.75]), right=True))
print(torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([[3, 6], [0, 9]])), torch.searchsorted(torch.tensor([1., 3.]), 2.))
print(torch.histc(torch.tensor([1., 2, 1, 4]), bins=4, min=0, max=4), torch.histogram(torch.tensor([1., 2, 1]), bins=2))
print(torch.quantile(torch.arange(10.), torch.tensor([0.1, 0.5, 0.9])), torch.quantile(torch.arange(10.), 0.3, interpolation='nearest'), torch.nanquantile(torch.tensor([1., float('nan'), 3.]), 0.5))
''',
    'lbfgs2': PRELUDE + r'''
torch.manual_seed(0)
x0 = torch.tensor([-1.5, 2.0], requires_grad=True)
def rosen(x): return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
opt = torch.optim.LBFGS([x0], lr=1, max_iter=50, history_size=10, line_search_fn='strong_wolfe', tolerance_grad=1e-9, tolerance_change=1e-12)
calls = [0]
def closure():
    opt.zero_grad(); l = rosen(x0); l.backward(); calls[0] += 1; return l
for k in range(3):
    l = opt.step(closure)
    st = opt.state[x0]
    print(k, round(l.item(), 6), x0.data.round(decimals=4), st['n_iter'], st['func_evals'], calls[0])
print(sorted(st.keys()), len(st['old_dirs']), st['d'].shape, type(st['t']).__name__, st['H_diag'].shape if hasattr(st['H_diag'], 'shape') else st['H_diag'])
x1 = torch.tensor([-1.5, 2.0], requires_grad=True)
o1 = torch.optim.LBFGS([x1], lr=0.1, max_iter=5, max_eval=7)
def c1():
    o1.zero_grad(); l = rosen(x1); l.backward(); return l
print(round(o1.step(c1).item(), 4), o1.state[x1]['func_evals'], o1.state[x1]['n_iter'], x1.data.round(decimals=4))
try:
    torch.optim.LBFGS([{'params': [x1]}, {'params': [torch.zeros(1, requires_grad=True)]}])
except ValueError as e: print(e)
try:
    torch.optim.LBFGS([x1], line_search_fn='armijo').step(c1)
except (RuntimeError, ValueError) as e: print(type(e).__name__, e)
print(o1.defaults)
sd = o1.state_dict(); print(list(sd['state'].keys()), sd['param_groups'])
o2 = torch.optim.LBFGS([x1]); o2.load_state_dict(sd); print(o2.state[x1]['n_iter'])
x3 = torch.zeros(2, requires_grad=True)
o3 = torch.optim.LBFGS([x3], tolerance_grad=1e-3)
def c3():
    o3.zero_grad(); l = (x3 ** 2).sum(); l.backward(); return l
print(o3.step(c3), o3.state[x3]['func_evals'], o3.state[x3].get('n_iter'))
w = torch.zeros(3, requires_grad=True); X = torch.randn(20, 3); y = X @ torch.tensor([1., -2., 0.5])
o4 = torch.optim.LBFGS([w], line_search_fn='strong_wolfe')
def c4():
    o4.zero_grad(); l = F.mse_loss(X @ w, y); l.backward(); return l
print(round(o4.step(c4).item(), 6), w.data.round(decimals=4), o4.state[w]['func_evals'])
try:
    o4.step()
except TypeError as e: print(e)
''',
    'param': PRELUDE + r'''
P = nn.utils.parametrize
torch.manual_seed(0)
class Symmetric(nn.Module):
    def forward(self, X): return X.triu() + X.triu(1).transpose(-1, -2)
lin = nn.Linear(3, 3)
P.register_parametrization(lin, "weight", Symmetric())
print(lin)
print(torch.allclose(lin.weight, lin.weight.T), P.is_parametrized(lin), P.is_parametrized(lin, 'bias'))
print(sorted(n for n, _ in lin.named_parameters()), type(lin).__name__, type(lin.parametrizations).__name__)
print(lin.parametrizations.weight.original.shape, list(lin.state_dict().keys()))
with P.cached():
    a = lin.weight; b = lin.weight; print(a is b)
print(lin.weight is lin.weight)
P.remove_parametrizations(lin, 'weight', leave_parametrized=True); print(sorted(n for n, _ in lin.named_parameters()), type(lin).__name__)
try:
    P.remove_parametrizations(lin, 'weight')
except ValueError as e: print(e)
o = nn.utils.parametrizations.orthogonal(nn.Linear(4, 4))
Q = o.weight; print(torch.allclose(Q @ Q.T, torch.eye(4), atol=1e-5), o.parametrizations.weight[0].__class__.__name__)
opt = torch.optim.SGD(o.parameters(), lr=0.1)
(o(torch.randn(2, 4)) ** 2).sum().backward(); opt.step(); print(torch.allclose(o.weight @ o.weight.T, torch.eye(4), atol=1e-5))
o2 = nn.utils.parametrizations.orthogonal(nn.Linear(5, 3), orthogonal_map='cayley'); print(torch.allclose(o2.weight @ o2.weight.T, torch.eye(3), atol=1e-5))
o3 = nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), orthogonal_map='householder'); print(torch.allclose(o3.weight.T @ o3.weight, torch.eye(3), atol=1e-5))
wn = nn.utils.parametrizations.weight_norm(nn.Linear(4, 2)); print(sorted(n for n, _ in wn.named_parameters()))
print(wn.parametrizations.weight.original0.shape, wn.parametrizations.weight.original1.shape)
print(torch.allclose(wn.weight.norm(dim=1, keepdim=True), wn.parametrizations.weight.original0))
wn2 = nn.utils.weight_norm(nn.Linear(4, 2), dim=None); print(sorted(n for n, _ in wn2.named_parameters()), wn2.weight_g.shape)
nn.utils.remove_weight_norm(wn2); print(sorted(n for n, _ in wn2.named_parameters()))
class Pos(nn.Module):
    def forward(self, x): return x.exp()
    def right_inverse(self, x): return x.log()
m = nn.Linear(2, 2); m.weight.data = torch.rand(2, 2) + 0.1
P.register_parametrization(m, 'weight', Pos()); m.weight = torch.full((2, 2), 2.)
print(m.parametrizations.weight.original.round(decimals=4), m.weight)
try:
    P.register_parametrization(m, 'bias', nn.Linear(2, 3))
except ValueError as e: print(str(e)[:200])
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(5, 4)); print(torch.linalg.matrix_norm(sn.weight, 2).round(decimals=3))
sn.eval(); print(torch.linalg.matrix_norm(sn.weight, 2).round(decimals=3))
''',
    'warns': PRELUDE + r'''
import warnings
torch.manual_seed(0)
torch.set_warn_always(True)   # (torch's warn-once warnings, whatever ran before)
def w(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = f()
        except Exception as e:
            r = f"{type(e).__name__}: {str(e)[:160]}"
    for x in ws:
        print("W", x.category.__name__, str(x.message).split(" (Triggered internally")[0][:200])
    print("->", r if not hasattr(r, 'shape') else tuple(r.shape))
x = torch.randn(4, 3)
w(lambda: F.mse_loss(torch.randn(4, 1), torch.randn(4)))
w(lambda: F.l1_loss(torch.randn(4), torch.randn(4, 1)))
w(lambda: F.softmax(x))
w(lambda: F.log_softmax(torch.randn(2, 3, 4)))
w(lambda: torch.tensor(x))
w(lambda: F.kl_div(x.log_softmax(1), x.softmax(1)))
w(lambda: torch.randn(2, 3, 4).T)
y = x.clone().requires_grad_() * 2
w(lambda: y.grad)
w(lambda: nn.utils.clip_grad_norm(nn.Linear(2, 2).parameters(), 1.0))
w(lambda: nn.init.xavier_uniform(torch.empty(2, 2)))
w(lambda: torch.range(0, 3))
w(lambda: torch.cholesky(torch.eye(2)))
w(lambda: torch.qr(torch.eye(2)))
w(lambda: torch.lu(torch.eye(2)))
w(lambda: torch.symeig(torch.eye(2)))
w(lambda: torch.solve(torch.eye(2), torch.eye(2)))
w(lambda: torch.lstsq(torch.eye(2), torch.eye(2)))
w(lambda: torch.matrix_rank(torch.eye(2)))
w(lambda: torch.eig(torch.eye(2)))
w(lambda: torch.chain_matmul(torch.eye(2), torch.eye(2)))
w(lambda: torch.norm(x, p='fro', dim=1))
m = nn.Linear(3, 1); opt = torch.optim.SGD(m.parameters(), lr=0.1); sch = torch.optim.lr_scheduler.StepLR(opt, 1)
w(lambda: sch.step())
w(lambda: nn.Dropout2d(0.5)(torch.randn(3, 4)))
w(lambda: F.dropout2d(torch.randn(2, 3, 4), 0.5))
w(lambda: torch.nn.functional.upsample(torch.randn(1, 1, 2, 2), scale_factor=2))
w(lambda: F.upsample_bilinear(torch.randn(1, 1, 2, 2), scale_factor=2))
w(lambda: torch.meshgrid(torch.arange(2), torch.arange(3)))
w(lambda: x.resize(2, 6))
w(lambda: torch.nn.functional.sigmoid(x))
w(lambda: F.nll_loss(x.log_softmax(1), torch.tensor([0, 1, 2, 0]), size_average=False))
w(lambda: nn.MSELoss(reduce=False))
w(lambda: torch.autograd.Variable(x))
w(lambda: torch.distributions.Categorical(torch.tensor([0.2, 0.3])).probs)
w(lambda: torch.full((2,), 1).dtype)
w(lambda: torch.std(torch.tensor([1.])))
w(lambda: torch.var(torch.ones(1, 3), dim=0))
w(lambda: x.sum(dim=1, keepdim=True).expand(4, 3).add_(1))
w(lambda: torch.tensor([1., 2.]).requires_grad_().numpy())
w(lambda: torch.from_numpy(np.ones(3)).requires_grad_().numpy())
w(lambda: float(torch.tensor(1., requires_grad=True)))
w(lambda: torch.load)
torch.set_warn_always(False)
''',
    'legacy_solve': PRELUDE + r'''
torch.set_warn_always(True)
import warnings
def t(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try: r = f(); r = [tuple(x.shape) for x in r] if isinstance(r, tuple) else tuple(r.shape)
        except Exception as e: r = f"{type(e).__name__}: {str(e)[:150]}"
    print(r, [str(w.message).split("\n")[0][:60] for w in ws])
for a, b in [(torch.eye(2), torch.ones(2)), (torch.ones(2), torch.eye(2)), (torch.ones(2), torch.ones(2)), (torch.ones(2,3), torch.ones(3,3)), (torch.ones(3,2), torch.ones(2,3)), (torch.ones(2,2).double(), torch.eye(2)), (torch.ones(2, 2).long(), torch.eye(2).long()), (torch.ones(2, 3), torch.eye(2).triu())]:
    t(lambda: torch.triangular_solve(a, b))
    t(lambda: torch.cholesky_solve(a, b))
A = torch.tensor([[2., 0.], [1., 3.]]); B = torch.tensor([[2.], [5.]])
print(torch.triangular_solve(B, A, upper=False), torch.cholesky_solve(B, A), torch.linalg.solve_triangular(A, B, upper=False))
t(lambda: torch.qr(A)); t(lambda: A.qr())
for f in (torch.cholesky_solve, torch.triangular_solve):
    t(lambda: f(torch.ones(2).long(), torch.eye(2).long()))
    t(lambda: f(torch.ones(2, 2).long(), torch.ones(2, 3).long()))
    t(lambda: f(torch.ones(2, 2).long(), torch.eye(2)))
    t(lambda: f(torch.ones(2, 2).half(), torch.eye(2).half()))
torch.set_warn_always(False)
''',
    'gp': PRELUDE + r'''
torch.manual_seed(0)
X = torch.linspace(0, 5, 12).unsqueeze(1); y = torch.sin(X).squeeze() + 0.1 * torch.randn(12)
Xs = torch.linspace(0, 5, 4).unsqueeze(1)
log_ls = torch.zeros(1, requires_grad=True); log_sf = torch.zeros(1, requires_grad=True); log_sn = torch.tensor([-2.], requires_grad=True)
def rbf(A, B): return log_sf.exp() ** 2 * torch.exp(-0.5 * torch.cdist(A, B) ** 2 / log_ls.exp() ** 2)
opt = torch.optim.Adam([log_ls, log_sf, log_sn], lr=0.05)
for it in range(4):
    K = rbf(X, X) + (log_sn.exp() ** 2 + 1e-6) * torch.eye(12)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    nll = 0.5 * y @ alpha.squeeze() + L.diagonal().log().sum() + 6 * math.log(2 * math.pi)
    opt.zero_grad(); nll.backward(); opt.step()
    print(it, round(nll.item(), 3), log_ls.item().__round__(3))
with torch.no_grad():
    K = rbf(X, X) + log_sn.exp() ** 2 * torch.eye(12); L = torch.linalg.cholesky(K)
    Ks = rbf(Xs, X); mu = Ks @ torch.cholesky_solve(y.unsqueeze(1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = rbf(Xs, Xs).diag() - (v ** 2).sum(0)
print(mu.squeeze().round(decimals=3), var.round(decimals=4))
print(torch.cholesky_inverse(L).shape, torch.allclose(torch.cholesky_inverse(L) @ K, torch.eye(12), atol=1e-3))
Lx, info = torch.linalg.cholesky_ex(torch.tensor([[1., 2.], [2., 1.]])); print(info, Lx)
try:
    torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 1.]]))
except Exception as e: print(type(e).__name__, e)
D = torch.distributions
mvn = D.MultivariateNormal(torch.zeros(12), scale_tril=L); print(round(-mvn.log_prob(y).item(), 3))
print(D.MultivariateNormal(torch.zeros(12), covariance_matrix=K).log_prob(y).round(decimals=3))
''',
    'hmm': PRELUDE + r'''
torch.manual_seed(0)
S, O, T = 3, 4, 6
log_pi = torch.log_softmax(torch.randn(S), 0); log_A = torch.log_softmax(torch.randn(S, S), 1); log_B = torch.log_softmax(torch.randn(S, O), 1)
obs = torch.randint(0, O, (T,)); print(obs)
alpha = log_pi + log_B[:, obs[0]]
for t in range(1, T):
    alpha = torch.logsumexp(alpha.unsqueeze(1) + log_A, dim=0) + log_B[:, obs[t]]
print(torch.logsumexp(alpha, 0).round(decimals=4))
delta = log_pi + log_B[:, obs[0]]; back = []
for t in range(1, T):
    sc = delta.unsqueeze(1) + log_A
    best, arg = sc.max(0); back.append(arg); delta = best + log_B[:, obs[t]]
path = [delta.argmax().item()]
for bp in reversed(back): path.append(bp[path[-1]].item())
print(path[::-1], delta.max().round(decimals=4))
beta = torch.zeros(S)
for t in range(T - 2, -1, -1):
    beta = torch.logsumexp(log_A + (log_B[:, obs[t + 1]] + beta).unsqueeze(0), dim=1)
print(torch.logsumexp(log_pi + log_B[:, obs[0]] + beta, 0).round(decimals=4))
# batched forward with gather
obs_b = torch.randint(0, O, (2, T))
em = log_B.T[obs_b]; print(em.shape)
a = log_pi + em[:, 0]
for t in range(1, T): a = torch.logsumexp(a.unsqueeze(2) + log_A, 1) + em[:, t]
print(a.logsumexp(-1).round(decimals=4))
# PageRank power iteration (sparse)
edges = torch.tensor([[0, 1, 2, 2, 3], [1, 2, 0, 3, 0]])
n = 4; outdeg = torch.bincount(edges[0], minlength=n).float()
M = torch.sparse_coo_tensor(torch.stack([edges[1], edges[0]]), 1 / outdeg[edges[0]], (n, n))
r = torch.full((n, 1), 1 / n)
for _ in range(30): r = 0.85 * torch.sparse.mm(M, r) + 0.15 / n
print(r.squeeze().round(decimals=4), r.sum().round(decimals=4))
# naive bayes
X = torch.randint(0, 3, (20, 5)); yb = torch.randint(0, 2, (20,))
prior = torch.bincount(yb, minlength=2).float() / 20
counts = torch.zeros(2, 5, 3).index_put_((yb.repeat_interleave(5), torch.arange(5).repeat(20), X.flatten()), torch.ones(100), accumulate=True)
lik = (counts + 1) / (counts.sum(-1, keepdim=True) + 3)
lp = prior.log() + lik.log()[:, torch.arange(5), X].sum(-1).T
print(lp.argmax(1), counts.sum())
# word2vec negative sampling
V, Dm = 10, 4
emb_in = nn.Embedding(V, Dm); emb_out = nn.Embedding(V, Dm)
freq = torch.rand(V) ** 0.75
neg = torch.multinomial(freq / freq.sum(), 3 * 5, replacement=True).view(5, 3)
c = torch.randint(0, V, (5,)); ctx = torch.randint(0, V, (5,))
vc = emb_in(c); pos = F.logsigmoid((vc * emb_out(ctx)).sum(-1))
negs = F.logsigmoid(-torch.bmm(emb_out(neg), vc.unsqueeze(2)).squeeze(2)).sum(1)
loss = -(pos + negs).mean(); print(round(loss.item(), 5), neg.shape)
loss.backward(); print(emb_in.weight.grad.abs().sum().round(decimals=4))
''',
    'chol_ex': PRELUDE + r'''
A = torch.tensor([[4., 2., 1., 0.5], [2., 1., 3., 1.], [1., 3., 5., 2.], [0.5, 1., 2., 6.]])
print(torch.linalg.cholesky_ex(A))
B = torch.tensor([[4., 2., 1., 0.5], [2., 5., 3., 1.], [1., 3., 1., 2.], [0.5, 1., 2., 6.]])
print(torch.linalg.cholesky_ex(B))
print(torch.linalg.cholesky_ex(B, upper=True))
print(torch.linalg.cholesky_ex(torch.stack([A, torch.eye(4), B])))
print(torch.linalg.cholesky_ex(-torch.eye(2)))
print(torch.linalg.cholesky_ex(torch.tensor([[float('nan'), 0.], [0., 1.]])))
print(torch.linalg.cholesky_ex(torch.tensor([[1., 2.], [2., 1.]])))
print(torch.linalg.cholesky_ex(B.double()).L.dtype)
C = torch.tensor([[2., 1j], [-1j, 0.25]], dtype=torch.complex64); print(torch.linalg.cholesky_ex(C))
try:
    torch.linalg.cholesky(torch.stack([torch.eye(4), B]))
except Exception as e: print(type(e).__name__, e)
print(torch.linalg.cholesky_ex(torch.tensor([[1., float('nan')], [float('nan'), 1.]])))
print(torch.linalg.cholesky_ex(torch.tensor([[1., 0.], [float('nan'), 4.]])))
try:
    torch.linalg.cholesky(torch.tensor([[float('nan'), 0.], [0., 1.]]))
except Exception as e: print(type(e).__name__, e)
print(torch.linalg.cholesky_ex(torch.zeros(0, 3, 3)).info, torch.linalg.cholesky_ex(torch.zeros(2, 0, 0)).info)
print(torch.cholesky(torch.tensor([[4., 2.], [2., 5.]]), upper=True), torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 5.]]).double()))
''',
    'classic2': PRELUDE + r'''
torch.manual_seed(0)
X = torch.cat([torch.randn(10, 2) + 2, torch.randn(10, 2) - 2]); y = torch.cat([torch.ones(10), -torch.ones(10)])
# linear SVM by subgradient
w = torch.zeros(2, requires_grad=True); b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
for ep in range(5):
    margin = y * (X @ w + b)
    loss = torch.clamp(1 - margin, min=0).mean() + 0.01 * w.dot(w)
    opt.zero_grad(); loss.backward(); opt.step()
print(round(loss.item(), 5), w.data.round(decimals=4), (torch.sign(X @ w + b) == y).float().mean())
print(F.relu(1 - margin).sum().round(decimals=4), F.hinge_embedding_loss(X @ w.detach(), y).round(decimals=4), F.multi_margin_loss(torch.stack([-(X @ w.detach()), X @ w.detach()], 1), (y > 0).long()).round(decimals=4))
# perceptron
wp = torch.zeros(3); Xa = torch.cat([X, torch.ones(20, 1)], 1)
for ep in range(3):
    errs = 0
    for xi, yi in zip(Xa, y):
        if yi * (wp @ xi) <= 0:
            wp += yi * xi; errs += 1
    print(ep, errs, wp.round(decimals=3))
# kernel PCA / spectral clustering
D2 = torch.cdist(X, X) ** 2
Kx = torch.exp(-D2 / 2)
n = Kx.shape[0]; one = torch.full((n, n), 1 / n)
Kc = Kx - one @ Kx - Kx @ one + one @ Kx @ one
ev, evec = torch.linalg.eigh(Kc)
print(ev[-2:].round(decimals=3), evec[:, -1].abs().sum().round(decimals=3))
W = Kx.clone(); W.fill_diagonal_(0)
deg = W.sum(1); Lsym = torch.eye(n) - torch.diag(deg.rsqrt()) @ W @ torch.diag(deg.rsqrt())
vals, vecs = torch.linalg.eigh(Lsym)
fied = vecs[:, 1]; print(vals[:3].round(decimals=4), ((fied > 0) == (y > 0)).all() or ((fied < 0) == (y > 0)).all())
print(torch.topk(vals, 2, largest=False).values.round(decimals=4), torch.kthvalue(vals, 2).values.round(decimals=4))
# t-SNE affinities (binary search on beta)
def hbeta(d, beta):
    P = torch.exp(-d * beta); sP = P.sum()
    H = torch.log(sP) + beta * (d * P).sum() / sP
    return H, P / sP
logU = math.log(5.0); Pm = torch.zeros(n, n)
for i in range(n):
    beta, lo, hi = 1.0, -math.inf, math.inf
    di = torch.cat([D2[i, :i], D2[i, i + 1:]])
    for _ in range(30):
        H, thisP = hbeta(di, beta)
        diff = H - logU
        if abs(diff) < 1e-5: break
        if diff > 0:
            lo = beta; beta = beta * 2 if hi == math.inf else (beta + hi) / 2
        else:
            hi = beta; beta = beta / 2 if lo == -math.inf else (beta + lo) / 2
    Pm[i, torch.arange(n) != i] = thisP
P = (Pm + Pm.T) / (2 * n); print(P.sum().round(decimals=4), P.max().round(decimals=4))
Yt = torch.randn(n, 2) * 1e-2
num = 1 / (1 + torch.cdist(Yt, Yt) ** 2); num.fill_diagonal_(0); Q = num / num.sum()
kl = (P * torch.log((P + 1e-12) / (Q + 1e-12))).sum(); print(kl.round(decimals=3))
# decision stump
feat = X[:, 0]; order = torch.argsort(feat); fs, ys = feat[order], y[order]
cum = torch.cumsum(ys, 0); best = torch.argmax(cum.abs()); print(best, fs[best].round(decimals=4), cum[best])
wts = torch.full((20,), 1 / 20); pred = torch.where(feat > fs[best], 1., -1.)
err = (wts * (pred != y).float()).sum(); alpha = 0.5 * torch.log((1 - err) / err.clamp_min(1e-10)); print(err, alpha.round(decimals=4))
wts = wts * torch.exp(-alpha * y * pred); wts /= wts.sum(); print(wts.max().round(decimals=4))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 1]]), dim=0, return_inverse=True, return_counts=True))
print(torch.mode(torch.tensor([1, 2, 2, 3, 3])), torch.median(torch.tensor([[1., 5.], [3., 2.]]), dim=0))
''',
    'sac': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
class Actor(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(3, 32), nn.ReLU()); self.mu = nn.Linear(32, 2); self.ls = nn.Linear(32, 2)
    def forward(self, s, deterministic=False):
        h = self.net(s); mu = self.mu(h); log_std = torch.clamp(self.ls(h), -20, 2); std = log_std.exp()
        dist = D.Normal(mu, std)
        u = mu if deterministic else dist.rsample()
        a = torch.tanh(u)
        logp = dist.log_prob(u).sum(-1) - (2 * (math.log(2) - u - F.softplus(-2 * u))).sum(-1)
        return a, logp
actor = Actor(); q1 = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1)); q1_t = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
q1_t.load_state_dict(q1.state_dict())
for p in q1_t.parameters(): p.requires_grad = False
log_alpha = torch.zeros(1, requires_grad=True); target_entropy = -2.0
s = torch.randn(8, 3); a_b = torch.rand(8, 2) * 2 - 1; r = torch.randn(8); s2 = torch.randn(8, 3); d = torch.zeros(8)
with torch.no_grad():
    a2, lp2 = actor(s2)
    tq = r + 0.99 * (1 - d) * (q1_t(torch.cat([s2, a2], 1)).squeeze(-1) - log_alpha.exp() * lp2)
ql = F.mse_loss(q1(torch.cat([s, a_b], 1)).squeeze(-1), tq); print(round(ql.item(), 5))
a, lp = actor(s); print(a.shape, lp.shape, a.abs().max() < 1)
pl = (log_alpha.exp().detach() * lp - q1(torch.cat([s, a], 1)).squeeze(-1)).mean(); pl.backward(); print(round(pl.item(), 5))
al = -(log_alpha * (lp + target_entropy).detach()).mean(); al.backward(); print(log_alpha.grad.round(decimals=4))
td = D.TransformedDistribution(D.Normal(torch.zeros(2), torch.ones(2)), [D.transforms.TanhTransform(cache_size=1)])
x = td.rsample((4,)); print(td.log_prob(x).shape, torch.isfinite(td.log_prob(x)).all())
print(D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 1).entropy().round(decimals=4))
tau = 0.005
with torch.no_grad():
    for tp, p in zip(q1_t.parameters(), q1.parameters()): tp.mul_(1 - tau).add_(tau * p)
    torch._foreach_lerp_(list(q1_t.parameters()), list(q1.parameters()), tau)
print(q1_t[0].bias[:3].round(decimals=4))
# OU noise
class OU:
    def __init__(self, n, mu=0., theta=0.15, sigma=0.2): self.mu, self.theta, self.sigma = mu * torch.ones(n), theta, sigma; self.x = self.mu.clone()
    def __call__(self):
        self.x += self.theta * (self.mu - self.x) + self.sigma * torch.randn_like(self.x); return self.x
ou = OU(2); print([ou().round(decimals=4) for _ in range(2)])
# clipped double-Q with target policy smoothing (TD3)
noise = (torch.randn_like(a_b) * 0.2).clamp(-0.5, 0.5); a_s = (a_b + noise).clamp(-1, 1)
print(a_s.shape, torch.min(torch.randn(8), torch.randn(8)).shape)
m = D.Normal(torch.zeros(2), torch.ones(2)); v = m.sample((3,)); print(m.log_prob(v).sum(-1).shape, m.cdf(torch.zeros(2)))
print(D.Normal(torch.zeros(2), torch.tensor([1., 0.])) if False else D.Normal(torch.zeros(2), torch.tensor([1., 1e-8])).log_prob(torch.zeros(2)).round(decimals=2))
try:
    D.Normal(torch.zeros(2), torch.tensor([1., 0.]))
except ValueError as e: print(str(e)[:200])
''',
    'attn': PRELUDE + r'''
torch.manual_seed(0)
T, B, E = 6, 2, 8
mha = nn.MultiheadAttention(E, 2, batch_first=True)
x = torch.randn(B, T, E)
causal = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
out, w = mha(x, x, x, attn_mask=causal); print(out.shape, w.shape, w[0, 0].round(decimals=4))
out2, w2 = mha(x, x, x, attn_mask=causal, average_attn_weights=False); print(w2.shape)
kpm = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
out3, _ = mha(x, x, x, key_padding_mask=kpm, need_weights=False); print(out3.shape, _)
mask_f = torch.zeros(T, T).masked_fill(causal, float('-inf'))
out4, _ = mha(x, x, x, attn_mask=mask_f); print(torch.allclose(out4, out, atol=1e-6))
print(nn.Transformer.generate_square_subsequent_mask(4))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, 2, 16, dropout=0.0, batch_first=True), 2, enable_nested_tensor=False)
h = enc(x, mask=nn.Transformer.generate_square_subsequent_mask(T), is_causal=True); print(h.shape, h.grad_fn.name())
print(F.scaled_dot_product_attention(x, x, x, is_causal=True).shape)
try:
    mha(x, x, x, attn_mask=torch.ones(3, 3, dtype=torch.bool))
except RuntimeError as e: print(e)
try:
    nn.MultiheadAttention(7, 2)
except AssertionError as e: print(e)
pe = torch.zeros(T, E); pos = torch.arange(T).unsqueeze(1); div = torch.exp(torch.arange(0, E, 2) * (-math.log(10000.0) / E))
pe[:, 0::2] = torch.sin(pos * div); pe[:, 1::2] = torch.cos(pos * div); print(pe[1].round(decimals=4))
head = nn.Linear(E, 1); yhat = head(h[:, -1]); print(yhat.shape)
seqs = [torch.randn(5, 3), torch.randn(2, 3), torch.randn(4, 3)]
lens = torch.tensor([len(s) for s in seqs])
padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True); print(padded.shape)
packed = nn.utils.rnn.pack_padded_sequence(padded, lens, batch_first=True, enforce_sorted=False)
rnn = nn.GRU(3, 4, batch_first=True); po, hn = rnn(packed)
un, ul = nn.utils.rnn.pad_packed_sequence(po, batch_first=True); print(un.shape, ul, hn.shape, packed.batch_sizes, packed.sorted_indices)
print(torch.allclose(hn[0, 1], un[1, 1]), un[1, 2:].abs().sum())
try:
    nn.utils.rnn.pack_padded_sequence(padded, lens, batch_first=True)
except RuntimeError as e: print(e)
''',
    'em_misc': PRELUDE + r'''
D = torch.distributions
torch.manual_seed(0)
# Bernoulli mixture EM (binary data), with scatter-based M-step
X = (torch.rand(30, 6) > 0.5).float(); K = 2
pi = torch.ones(K) / K; mu = torch.rand(K, 6) * 0.5 + 0.25
for it in range(5):
    lp = D.Independent(D.Bernoulli(probs=mu.unsqueeze(0)), 1).log_prob(X.unsqueeze(1)) + pi.log()
    r = torch.softmax(lp, 1); Nk = r.sum(0); pi = Nk / 30; mu = (r.T @ X) / Nk[:, None]
    mu = mu.clamp(1e-3, 1 - 1e-3)
print(pi.round(decimals=4), lp.logsumexp(1).mean().round(decimals=4))
# hard-EM via argmax + one_hot
z = lp.argmax(1); oh = F.one_hot(z, K).float(); print(oh.sum(0), z.bincount(minlength=K))
# Poisson regression with LBFGS-free Newton steps
Xp = torch.randn(40, 2); yp = torch.poisson(torch.exp(Xp @ torch.tensor([0.5, -0.3]) + 0.2))
Xa = torch.cat([Xp, torch.ones(40, 1)], 1); beta = torch.zeros(3)
for it in range(6):
    mu_ = torch.exp(Xa @ beta); g = Xa.T @ (yp - mu_); H = Xa.T @ (mu_[:, None] * Xa)
    beta = beta + torch.linalg.solve(H, g)
print(beta.round(decimals=3), F.poisson_nll_loss(Xa @ beta, yp).round(decimals=4), F.poisson_nll_loss(torch.exp(Xa @ beta), yp, log_input=False, full=True).round(decimals=4))
print(D.Poisson(torch.exp(Xa @ beta)).log_prob(yp).sum().round(decimals=3), nn.PoissonNLLLoss(log_input=True, full=True)(Xa @ beta, yp).round(decimals=4))
print(F.gaussian_nll_loss(torch.zeros(4), torch.ones(4), torch.full((4,), 0.5)).round(decimals=4), F.gaussian_nll_loss(torch.zeros(4, 2), torch.ones(4, 2), torch.ones(4, 1), full=True).round(decimals=4))
try:
    F.gaussian_nll_loss(torch.zeros(4), torch.ones(4), -torch.ones(4))
except ValueError as e: print(e)
# Dirichlet-multinomial / LDA-ish Gibbs update shapes
alpha = torch.full((3,), 0.5); theta = D.Dirichlet(alpha).sample((4,)); print(theta.shape, theta.sum(1).round(decimals=4))
wcount = torch.zeros(3, 5).index_put_((torch.tensor([0, 1, 1, 2]), torch.tensor([4, 0, 0, 3])), torch.ones(4), accumulate=True); print(wcount)
print(torch.distributions.Multinomial(10, probs=theta[0]).sample().sum(), D.Categorical(theta).sample().shape)
print(torch.lgamma(torch.tensor([0.5, 1., 10.])).round(decimals=4), torch.digamma(torch.tensor([0.5, 1.])).round(decimals=4), torch.special.gammaln(torch.tensor(3.)))
print(torch.mvlgamma(torch.tensor([2.5]), p=2).round(decimals=4), torch.polygamma(1, torch.tensor([1.])).round(decimals=4), torch.special.multigammaln(torch.tensor(3.), 3).round(decimals=4))
print(torch.special.logit(torch.tensor([0.25]), eps=1e-6).round(decimals=4), torch.special.expit(torch.tensor(0.)), torch.special.xlogy(torch.tensor([0., 2.]), torch.tensor([0., 3.])).round(decimals=4))
print(torch.special.entr(torch.tensor([0., 0.5, -1.])), torch.special.log_ndtr(torch.tensor([-3., 0.])).round(decimals=4), torch.special.ndtri(torch.tensor([0.975])).round(decimals=4))
print(torch.special.i0(torch.tensor(1.)).round(decimals=4), torch.special.i1e(torch.tensor(1.)).round(decimals=4), torch.special.erfcx(torch.tensor(2.)).round(decimals=4), torch.special.sinc(torch.tensor([0., 0.5])).round(decimals=4))
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
