"""Generative and representation-learning programs written as tutorials and papers' reference
code writes them (VAE and conditional VAE, DCGAN, WGAN-GP, RealNVP and planar flows, a DDPM toy,
a VQ-VAE quantiser, SimCLR/InfoNCE/MoCo/CLIP losses, tied-weight autoencoders, energy-based and
score-matching toys), run under real torch and under ember (`import ember as torch`): what they
print must be identical. Values that pass through a matmul or convolution after a step, torch's
float32 sqrt/cos (MKL's vector functions, not correctly rounded) or torch.exp's rare MKL last
bit are printed rounded; the optimizers' update arithmetic is compared bit for bit.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    'vae': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self, d=12, h=8, z=2):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.fc21 = nn.Linear(h, z)
        self.fc22 = nn.Linear(h, z)
        self.fc3 = nn.Linear(z, h)
        self.fc4 = nn.Linear(h, d)
    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std
    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 12))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 12), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD, BCE, KLD
model = VAE()
print(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
print(opt)
data = torch.rand(16, 12)
for epoch in range(3):
    model.train()
    opt.zero_grad()
    recon, mu, logvar = model(data)
    loss, bce, kld = loss_function(recon, data, mu, logvar)
    loss.backward()
    print(epoch, loss.item(), bce.item(), round(kld.item(), 5), loss.item() / len(data))  # (KLD's exp: MKL's last bit)
    print(loss.grad_fn, bce.grad_fn, kld.grad_fn, recon.grad_fn)
    opt.step()
print(mu.shape, logvar.dtype, recon[0])
model.eval()
with torch.no_grad():
    z = torch.randn(4, 2)
    sample = model.decode(z)
    print(sample.shape, sample.requires_grad)
    print(sample.round(decimals=4))
print(list(model.state_dict().keys()))
print(opt.state_dict()['param_groups'])
print(opt.state_dict()['state'][0]['step'])
# MSE variant
recon, mu, logvar = model(data)
mse = F.mse_loss(recon, data, reduction='sum')
print(mse.item(), mse)
# common mistake: BCE with targets out of range
try:
    F.binary_cross_entropy(recon, data * 2)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.binary_cross_entropy(recon, data.view(-1))
except Exception as e:
    print(type(e).__name__, e)
try:
    model(torch.rand(3, 10))
except Exception as e:
    print(type(e).__name__, e)
# log-likelihood style
px = torch.distributions.Bernoulli(probs=recon)
try:
    print(px.log_prob(data).sum().item())
except ValueError as e:
    print(str(e)[:200])
print(px.log_prob(data.round()).sum().item())
print(px)
qz = torch.distributions.Normal(mu, torch.exp(0.5 * logvar))
print(qz)
pz = torch.distributions.Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl = torch.distributions.kl_divergence(qz, pz).sum()
print(round(kl.item(), 5), kl.grad_fn)
print(qz.rsample().shape, qz.batch_shape, qz.event_shape)
ind = torch.distributions.Independent(qz, 1)
print(ind, ind.batch_shape, ind.event_shape)
print(ind.log_prob(torch.zeros(16, 2))[:3])
''',
    'cvae': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(1)
class CVAE(nn.Module):
    def __init__(self, x_dim=10, c_dim=3, h=16, z=4):
        super().__init__()
        self.c_dim = c_dim
        self.enc = nn.Sequential(nn.Linear(x_dim + c_dim, h), nn.ReLU())
        self.mu = nn.Linear(h, z); self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z + c_dim, h), nn.ReLU(), nn.Linear(h, x_dim))
    def forward(self, x, y):
        c = F.one_hot(y, self.c_dim).float()
        h = self.enc(torch.cat([x, c], dim=1))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(torch.cat((z, c), 1)), mu, logvar
m = CVAE()
print(m)
x = torch.randn(8, 10); y = torch.randint(0, 3, (8,))
print(y, F.one_hot(y, 3), F.one_hot(y).dtype, F.one_hot(y).shape)
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
for step in range(4):
    out, mu, logvar = m(x, y)
    rec = F.mse_loss(out, x, reduction='sum') / x.size(0)
    kl = torch.mean(-0.5 * torch.sum(1 + logvar - mu ** 2 - logvar.exp(), dim=1), dim=0)
    loss = rec + 0.1 * kl
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, round(rec.item(), 4), round(kl.item(), 4), kl.shape, loss.grad_fn.name())
print(m.mu.weight.grad.shape, m.mu.weight.grad.abs().sum() > 0)
# generation for each class
with torch.no_grad():
    z = torch.randn(3, 4)
    c = torch.eye(3)
    gen = m.dec(torch.cat([z, c], 1))
    print(gen.shape, gen.requires_grad, gen.grad_fn)
for bad in (torch.tensor([0, 3]), torch.tensor([-1, 0]), torch.tensor([0.0, 1.0])):
    try:
        print(F.one_hot(bad, 3))
    except Exception as e:
        print(type(e).__name__, e)
try:
    torch.cat([x, F.one_hot(y, 3)], dim=1).dtype
    print(torch.cat([x, F.one_hot(y, 3)], dim=1).dtype)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.cat([x, F.one_hot(y[:4], 3).float()], dim=1)
except Exception as e:
    print(type(e).__name__, e)
try:
    m.dec(torch.cat([torch.randn(2, 4), torch.eye(3)], 1))
except Exception as e:
    print(type(e).__name__, e)
emb = nn.Embedding(3, 4)
print(emb, emb(y).shape, emb.weight.grad)
print(F.one_hot(torch.tensor(2), 4), F.one_hot(torch.tensor([[0, 1], [2, 0]])), F.one_hot(torch.tensor([], dtype=torch.long), 2))
''',
    'dcgan': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
nz, ngf, ndf, nc = 8, 4, 4, 1
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh())
    def forward(self, input):
        return self.main(input)
class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid())
    def forward(self, input):
        return self.main(input)
netG = Generator(); netG.apply(weights_init); print(netG)
netD = Discriminator(); netD.apply(weights_init); print(netD)
criterion = nn.BCELoss()
print(criterion)
fixed_noise = torch.randn(4, nz, 1, 1)
real_label, fake_label = 1., 0.
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
print(optimizerD)
real = torch.rand(4, nc, 16, 16) * 2 - 1
for it in range(2):
    netD.zero_grad()
    b_size = real.size(0)
    label = torch.full((b_size,), real_label, dtype=torch.float)
    output = netD(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    noise = torch.randn(b_size, nz, 1, 1)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optimizerG.step()
    print('[%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f' % (it, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
    print(fake.shape, fake.grad_fn, output.grad_fn, errD.grad_fn)
with torch.no_grad():
    f = netG(fixed_noise).detach().cpu()
print(f.shape, f.dtype, f.min() >= -1, f.max() <= 1)
print(netG.main[1].running_mean, netG.main[1].num_batches_tracked)
print([k for k in netD.state_dict()])
print(label, label.dtype)
print(torch.full((2,), 1), torch.full((2, 2), 0.9).dtype, torch.full((3,), True))
# mistakes
try:
    criterion(output, torch.full((b_size,), 1))
except Exception as e:
    print(type(e).__name__, e)
try:
    criterion(netD(real), label)
except Exception as e:
    print(type(e).__name__, e)
try:
    netG(torch.randn(4, nz))
except Exception as e:
    print(type(e).__name__, e)
try:
    netD(torch.rand(4, 3, 16, 16))
except Exception as e:
    print(type(e).__name__, e)
''',
    'wgangp': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
D = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 4))
def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1)
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1, requires_grad=False)
    gradients = torch.autograd.grad(outputs=d_interpolates, inputs=interpolates,
        grad_outputs=fake, create_graph=True, retain_graph=True, only_inputs=True)[0]
    print(type(gradients).__name__, gradients.grad_fn, gradients.shape, interpolates.is_leaf)
    gradients = gradients.view(gradients.size(0), -1)
    gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
    return gradient_penalty
optD = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
optG = torch.optim.RMSprop(G.parameters(), lr=5e-4)
print(optG)
real = torch.randn(8, 4) + 2
for i in range(3):
    z = torch.randn(8, 2)
    fake = G(z)
    optD.zero_grad()
    gp = compute_gradient_penalty(D, real, fake.detach())
    d_loss = -torch.mean(D(real)) + torch.mean(D(fake.detach())) + 10 * gp
    d_loss.backward()
    optD.step()
    print(i, d_loss.item(), gp.item(), gp.grad_fn)
    if i % 2 == 0:
        optG.zero_grad()
        g_loss = -torch.mean(D(G(z)))
        g_loss.backward()
        optG.step()
        print('g', round(g_loss.item(), 5))
# other styles of gradient penalty
x = real.clone().requires_grad_()
out = D(x)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g.grad_fn, g.requires_grad)
gp2 = (g.pow(2).sum(1).sqrt() - 1).pow(2).mean()
gp3 = ((g.norm(2, dim=1) - 1) ** 2).mean()
gp4 = torch.mean((torch.linalg.norm(g, dim=1) - 1) ** 2)
print(round(gp2.item(), 5), gp2.item() == gp3.item(), round(gp4.item(), 5))
gp2.backward()
print(round(D[0].weight.grad.sum().item(), 4), x.grad is not None)
# errors
try:
    torch.autograd.grad(D(real), real)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.autograd.grad(D(x), x)
except Exception as e:
    print(type(e).__name__, e)
try:
    o = D(x).sum(); torch.autograd.grad(o, x); torch.autograd.grad(o, x)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.autograd.grad(D(x).sum(), [x, torch.ones(2, requires_grad=True)])
except Exception as e:
    print(type(e).__name__, e)
print(torch.autograd.grad(D(x).sum(), [x, torch.ones(2, requires_grad=True)], allow_unused=True)[1])
print(torch.autograd.grad(D(x).sum(), [x, torch.ones(2, requires_grad=True)], allow_unused=True, materialize_grads=True)[1])
# weight clipping WGAN
for p in D.parameters():
    p.data.clamp_(-0.01, 0.01)
print(D[0].weight.abs().max().item(), D[2].bias)
alpha = torch.rand(8, 1, 1, 1); print(alpha.expand(8, 3, 2, 2).shape, alpha.expand_as(torch.zeros(8, 3, 2, 2)).stride())
''',
    'flows': r'''
import math
nn = torch.nn; F = torch.nn.functional
D = torch.distributions
torch.manual_seed(0)
class Coupling(nn.Module):
    def __init__(self, dim, mask, hidden=8):
        super().__init__()
        self.register_buffer('mask', mask)
        self.s = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, dim))
        self.t = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, dim))
    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask)
        t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)
    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask)
        t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * (y - t) * torch.exp(-s)
class RealNVP(nn.Module):
    def __init__(self, dim=2, n=4):
        super().__init__()
        masks = [torch.tensor([i % 2, (i + 1) % 2], dtype=torch.float32) for i in range(n)]
        self.layers = nn.ModuleList([Coupling(dim, m) for m in masks])
        self.prior = D.MultivariateNormal(torch.zeros(dim), torch.eye(dim))
    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        for l in self.layers:
            x, ld = l(x)
            logdet = logdet + ld
        return x, logdet
    def log_prob(self, x):
        z, logdet = self(x)
        return self.prior.log_prob(z) + logdet
    def sample(self, n):
        z = self.prior.sample((n,))
        for l in reversed(self.layers):
            z = l.inverse(z)
        return z
flow = RealNVP()
print(flow.prior, flow.prior.loc, flow.prior.covariance_matrix, flow.prior.batch_shape, flow.prior.event_shape)
print([k for k in flow.state_dict()][:6], flow.layers[0].mask)
x = torch.randn(16, 2) * torch.tensor([1.0, 0.3]) + torch.tensor([0.5, -1.0])
opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
for i in range(3):
    loss = -flow.log_prob(x).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, round(loss.item(), 4), loss.grad_fn)
with torch.no_grad():
    s = flow.sample(5)
    print(s.shape, s.round(decimals=3))
    z, ld = flow(s)
    print(z.shape, ld.shape)
    print(torch.allclose(flow.layers[0].inverse(flow.layers[0](s)[0]), s, atol=1e-5))
n = D.Normal(torch.tensor(0.), torch.tensor(1.))
print(n, n.log_prob(torch.tensor([0., 1., -2.])), n.cdf(torch.tensor(0.5)), n.icdf(torch.tensor(0.975)), n.entropy())
print(n.mean, n.stddev, n.variance, n.sample((2,)).shape, n.support, n.arg_constraints)
mvn = D.MultivariateNormal(torch.tensor([1., 2.]), covariance_matrix=torch.tensor([[2., 0.5], [0.5, 1.]]))
print(mvn, mvn.log_prob(torch.tensor([[0., 0.], [1., 2.]])), mvn.entropy(), mvn.scale_tril, mvn.precision_matrix)
print(mvn.rsample((3,)).shape, mvn.variance, mvn.mean)
mvn2 = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1., 0.], [0.3, 0.5]]))
print(mvn2.covariance_matrix, D.kl_divergence(mvn, mvn2))
for bad in [lambda: D.MultivariateNormal(torch.zeros(2), torch.tensor([[1., 2.], [2., 1.]])),
            lambda: D.MultivariateNormal(torch.zeros(2)),
            lambda: D.MultivariateNormal(torch.zeros(3), torch.eye(2)),
            lambda: D.Normal(torch.tensor(0.), torch.tensor(-1.)),
            lambda: mvn.log_prob(torch.zeros(3)),
            lambda: D.MultivariateNormal(torch.zeros(2), torch.eye(2), scale_tril=torch.eye(2))]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
# planar flow
class Planar(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.u = nn.Parameter(torch.randn(1, d) * 0.1)
        self.w = nn.Parameter(torch.randn(1, d) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))
    def forward(self, z):
        lin = z @ self.w.t() + self.b
        f = z + self.u * torch.tanh(lin)
        psi = (1 - torch.tanh(lin) ** 2) * self.w
        ld = torch.log(torch.abs(1 + psi @ self.u.t()) + 1e-8).squeeze(-1)
        return f, ld
p = Planar(2)
print(p)
f, ld = p(torch.randn(4, 2))
print(f.shape, ld.shape, ld.grad_fn)
base = D.Normal(torch.zeros(2), torch.ones(2))
print(base.log_prob(f).sum(-1).shape, D.Independent(base, 1).log_prob(f).shape)
tr = D.TransformedDistribution(base, [D.transforms.AffineTransform(loc=1., scale=2.), D.transforms.ExpTransform()])
print(tr, tr.log_prob(torch.tensor([1., 3.])), tr.sample().shape)
print(D.transforms.AffineTransform(loc=1., scale=2.), D.transforms.ExpTransform(), D.transforms.SigmoidTransform().inv)
print(torch.logdet(torch.tensor([[2., 1.], [1., 3.]])), torch.slogdet(torch.tensor([[2., 1.], [1., -3.]])))
''',
    'ddpm': r'''
import math
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
T = 50
def linear_beta_schedule(timesteps):
    beta_start, beta_end = 0.0001, 0.02
    return torch.linspace(beta_start, beta_end, timesteps)
def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * torch.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999)
betas = linear_beta_schedule(T)
cb = cosine_beta_schedule(T)
print(betas[:5], betas.dtype, cb[:4], cb[-3:])
alphas = 1. - betas
alphas_cumprod = torch.cumprod(alphas, axis=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1. - alphas_cumprod)
posterior_variance = betas * (1. - alphas_cumprod_prev) / (1. - alphas_cumprod)
print(alphas_cumprod[-3:].tolist(), alphas_cumprod_prev[:3], posterior_variance[:3])
def extract(a, t, x_shape):
    batch_size = t.shape[0]
    out = a.gather(-1, t.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)
def q_sample(x_start, t, noise=None):
    if noise is None:
        noise = torch.randn_like(x_start)
    return extract(sqrt_alphas_cumprod, t, x_start.shape) * x_start + extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise
class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
    def forward(self, time):
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=time.device) * -embeddings)
        embeddings = time[:, None] * embeddings[None, :]
        return torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)
emb = SinusoidalPositionEmbeddings(8)
te = emb(torch.tensor([0, 1, 10, 49]))
print(te.shape, te.dtype, te.round(decimals=4))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.temb = nn.Sequential(SinusoidalPositionEmbeddings(8), nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 16))
        self.inp = nn.Linear(2, 16)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(16, 2))
    def forward(self, x, t):
        return self.out(self.inp(x) + self.temb(t))
model = Net()
print(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x0 = torch.randn(32, 2) * 0.5 + 1
for step in range(3):
    t = torch.randint(0, T, (x0.shape[0],), device=x0.device).long()
    noise = torch.randn_like(x0)
    x_noisy = q_sample(x0, t, noise)
    pred = model(x_noisy, t)
    loss = F.mse_loss(noise, pred)
    l1 = F.l1_loss(noise, pred); hub = F.smooth_l1_loss(noise, pred)
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, t[:6], round(loss.item(), 5), round(l1.item(), 5), round(hub.item(), 5))
print(extract(alphas_cumprod, torch.tensor([0, 5, 49]), (3, 2)).shape)
@torch.no_grad()
def p_sample(model, x, t, t_index):
    betas_t = extract(betas, t, x.shape)
    sqrt_one_minus_alphas_cumprod_t = extract(sqrt_one_minus_alphas_cumprod, t, x.shape)
    sqrt_recip_alphas_t = extract(sqrt_recip_alphas, t, x.shape)
    model_mean = sqrt_recip_alphas_t * (x - betas_t * model(x, t) / sqrt_one_minus_alphas_cumprod_t)
    if t_index == 0:
        return model_mean
    posterior_variance_t = extract(posterior_variance, t, x.shape)
    noise = torch.randn_like(x)
    return model_mean + torch.sqrt(posterior_variance_t) * noise
x = torch.randn(4, 2)
imgs = []
for i in reversed(range(0, T)):
    x = p_sample(model, x, torch.full((4,), i, dtype=torch.long), i)
    imgs.append(x.cpu().numpy())
print(len(imgs), x.requires_grad, x.round(decimals=2), imgs[-1].dtype, imgs[-1].shape)
try:
    extract(alphas_cumprod, torch.tensor([0, 50]), (2, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    extract(alphas_cumprod, torch.tensor([0., 5.]), (2, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    alphas_cumprod[torch.tensor([0, 60])]
except Exception as e:
    print(type(e).__name__, e)
print(torch.cumprod(torch.tensor([0.5, 0.5, 2.0]), dim=0), torch.cumprod(torch.tensor([1, 2, 3]), 0).dtype)
print(torch.linspace(0, 1, 5), torch.linspace(1e-4, 0.02, 4, dtype=torch.float64))
''',
    'vqvae': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class VectorQuantizer(nn.Module):
    def __init__(self, num_embeddings=8, embedding_dim=4, commitment_cost=0.25):
        super().__init__()
        self._embedding_dim = embedding_dim
        self._num_embeddings = num_embeddings
        self._embedding = nn.Embedding(self._num_embeddings, self._embedding_dim)
        self._embedding.weight.data.uniform_(-1 / self._num_embeddings, 1 / self._num_embeddings)
        self._commitment_cost = commitment_cost
    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        flat_input = inputs.view(-1, self._embedding_dim)
        distances = (torch.sum(flat_input ** 2, dim=1, keepdim=True)
                    + torch.sum(self._embedding.weight ** 2, dim=1)
                    - 2 * torch.matmul(flat_input, self._embedding.weight.t()))
        encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self._num_embeddings, device=inputs.device)
        encodings.scatter_(1, encoding_indices, 1)
        quantized = torch.matmul(encodings, self._embedding.weight).view(input_shape)
        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        q_latent_loss = F.mse_loss(quantized, inputs.detach())
        loss = q_latent_loss + self._commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        avg_probs = torch.mean(encodings, dim=0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity, encodings, encoding_indices
vq = VectorQuantizer()
print(vq)
x = torch.randn(2, 4, 3, 3, requires_grad=True)
loss, q, perp, enc, idx = vq(x)
print(loss.item(), perp.item(), q.shape, q.grad_fn, enc.sum(0), idx.view(-1))
(loss + q.sum()).backward()
print(x.grad.shape, x.grad[0, 0], vq._embedding.weight.grad.abs().sum().item())
# cdist style
flat = x.detach().permute(0, 2, 3, 1).reshape(-1, 4)
d = torch.cdist(flat, vq._embedding.weight)
print(d.shape, d.grad_fn, torch.argmin(d, dim=1), torch.equal(torch.argmin(d, 1), idx.view(-1)))
d2 = torch.cdist(flat.unsqueeze(0), vq._embedding.weight.detach().unsqueeze(0), p=2.0)
print(d2.shape, torch.cdist(flat, flat, p=1).shape, torch.cdist(flat, flat, p=0)[0, :4], torch.cdist(flat, flat, p=float('inf'))[0, :4].round(decimals=4))
print(torch.bincount(idx.view(-1), minlength=8), torch.bincount(idx.view(-1)).dtype)
oh = F.one_hot(idx.view(-1), num_classes=8).float()
print(oh.shape, oh.mean(0), oh.sum(0))
codebook_usage = (torch.bincount(idx.view(-1), minlength=8) > 0).float().mean()
print(codebook_usage, codebook_usage.item())
e = vq._embedding(idx.view(-1))
print(e.shape, e.grad_fn)
z = torch.randn(5, 4, requires_grad=True)
zq = vq._embedding.weight[torch.argmin(torch.cdist(z, vq._embedding.weight), dim=1)]
st = z + (zq - z).detach()
print(st.grad_fn, st.requires_grad, torch.allclose(st, zq))
st.sum().backward(); print(z.grad)
commit = F.mse_loss(z, zq.detach(), reduction='none').mean(-1)
print(commit.shape, commit.grad_fn)
try:
    torch.cdist(flat, vq._embedding.weight[:, :3])
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([-1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([[1, 2]]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([1.0, 2.0]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.cdist(flat, vq._embedding.weight, p=-1)
except Exception as e:
    print(type(e).__name__, e)
print(torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1., 2.])), torch.bincount(torch.tensor([], dtype=torch.long)))
# EMA codebook update
decay = 0.99
ema_cluster_size = torch.zeros(8)
ema_cluster_size = ema_cluster_size * decay + (1 - decay) * torch.sum(enc, 0)
n = torch.sum(ema_cluster_size)
ema_cluster_size = ((ema_cluster_size + 1e-5) / (n + 8 * 1e-5) * n)
dw = torch.matmul(enc.t(), flat)
print(ema_cluster_size, dw.shape)
''',
    'simclr': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
def nt_xent(z1, z2, temperature=0.5):
    batch_size = z1.shape[0]
    z = torch.cat([z1, z2], dim=0)
    z = F.normalize(z, dim=1)
    sim = torch.mm(z, z.t()) / temperature
    mask = torch.eye(2 * batch_size, dtype=torch.bool)
    sim = sim.masked_fill(mask, -9e15)
    targets = torch.cat([torch.arange(batch_size, 2 * batch_size), torch.arange(0, batch_size)])
    return F.cross_entropy(sim, targets), sim, targets
enc = nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 4))
print(enc)
x = torch.randn(4, 6)
x1 = x + 0.1 * torch.randn_like(x); x2 = x + 0.1 * torch.randn_like(x)
opt = torch.optim.SGD(enc.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
for step in range(3):
    loss, sim, targets = nt_xent(enc(x1), enc(x2))
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, round(loss.item(), 5), sim.grad_fn, targets)
print(sim.diag())
# alt: masked_fill with -inf and logsumexp
z = F.normalize(torch.randn(6, 4), dim=-1)
s = z @ z.T
s.fill_diagonal_(float('-inf'))
print(s.diag(), torch.logsumexp(s / 0.1, dim=1).shape)
s2 = (z @ z.T).masked_fill(torch.eye(6, dtype=torch.bool), float('-inf'))
print(F.log_softmax(s2 / 0.2, dim=1)[0])
# InfoNCE with labels = arange
q = F.normalize(torch.randn(5, 3), dim=1); k = F.normalize(torch.randn(5, 3), dim=1)
logits = q @ k.t() / 0.07
labels = torch.arange(logits.shape[0])
print(round(F.cross_entropy(logits, labels).item(), 4), logits.argmax(1), (logits.argmax(1) == labels).float().mean())
# MoCo-style
l_pos = torch.einsum('nc,nc->n', [q, k]).unsqueeze(-1)
queue = F.normalize(torch.randn(3, 10), dim=0)
l_neg = torch.einsum('nc,ck->nk', [q, queue])
logits = torch.cat([l_pos, l_neg], dim=1) / 0.07
labels = torch.zeros(logits.shape[0], dtype=torch.long)
print(logits.shape, round(F.cross_entropy(logits, labels).item(), 4))
# CLIP-style symmetric
img = F.normalize(torch.randn(4, 3), dim=-1); txt = F.normalize(torch.randn(4, 3), dim=-1)
logit_scale = nn.Parameter(torch.ones([]) * torch.log(torch.tensor(1 / 0.07)))
print(logit_scale, logit_scale.exp().item())
lpi = logit_scale.exp() * img @ txt.t()
gt = torch.arange(4)
cl = (F.cross_entropy(lpi, gt) + F.cross_entropy(lpi.t(), gt)) / 2
print(round(cl.item(), 5), cl.grad_fn)
cl.backward(); print(logit_scale.grad.round(decimals=4))
print(F.normalize(torch.zeros(2, 3), dim=1), F.normalize(torch.tensor([[3., 4.]]), p=1, dim=1))
print(F.cosine_similarity(q[:, None, :], k[None, :, :], dim=-1).shape, F.cosine_similarity(q, k).round(decimals=4))
try:
    torch.mm(z, z)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits, labels.float())
except Exception as e:
    print(type(e).__name__, e)
try:
    s.masked_fill(torch.eye(6), 0.)
except Exception as e:
    print(type(e).__name__, e)
try:
    s.masked_fill(torch.eye(5, dtype=torch.bool), 0.)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits, torch.tensor([0, 1, 2, 11, 0]))
except Exception as e:
    print(type(e).__name__, e)
''',
    'tiedae': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class TiedAE(nn.Module):
    def __init__(self, d=6, h=3):
        super().__init__()
        self.W = nn.Parameter(torch.randn(h, d) * 0.1)
        self.b_enc = nn.Parameter(torch.zeros(h))
        self.b_dec = nn.Parameter(torch.zeros(d))
    def forward(self, x):
        h = torch.sigmoid(F.linear(x, self.W, self.b_enc))
        return F.linear(h, self.W.t(), self.b_dec), h
ae = TiedAE()
print(ae, [n for n, _ in ae.named_parameters()])
x = torch.rand(5, 6)
opt = torch.optim.SGD(ae.parameters(), lr=0.5)
for i in range(3):
    r, h = ae(x)
    loss = F.mse_loss(r, x)
    sparsity = h.mean(0)
    rho = 0.05
    kl = (rho * torch.log(rho / sparsity) + (1 - rho) * torch.log((1 - rho) / (1 - sparsity))).sum()
    total = loss + 0.1 * kl
    opt.zero_grad(); total.backward()
    print(i, round(loss.item(), 6), round(kl.item(), 5), ae.W.grad.shape, ae.W.grad.norm().item() > 0)
    opt.step()
# weight sharing between modules
enc = nn.Linear(6, 3); dec = nn.Linear(3, 6)
dec.weight = nn.Parameter(enc.weight.t())
print(dec.weight.shape, dec.weight.is_leaf, dec.weight.data_ptr() == enc.weight.data_ptr())
m = nn.Sequential(enc, nn.ReLU(), dec)
print(len(list(m.parameters())), sum(p.numel() for p in m.parameters()))
try:
    dec.weight = enc.weight.t()
except Exception as e:
    print(type(e).__name__, e)
class Tied2(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 2, bias=False)
        self.dec = nn.Linear(2, 4, bias=False)
        self.dec.weight = self.enc.weight
m2 = Tied2()
print(m2.dec.weight is m2.enc.weight, len(list(m2.parameters())), list(m2.state_dict().keys()))
print([n for n, _ in m2.named_parameters()], [n for n, _ in m2.named_parameters(remove_duplicate=False)])
try:
    m2.dec(torch.randn(3, 2))
except Exception as e:
    print(type(e).__name__, e)
sd = m2.state_dict()
print(sd['enc.weight'].data_ptr() == sd['dec.weight'].data_ptr())
m3 = Tied2(); print(m3.load_state_dict(sd))
# denoising AE with dropout noise
torch.manual_seed(1)
drop = nn.Dropout(0.3)
print(drop, drop(torch.ones(2, 5)), drop.training)
noisy = x + 0.1 * torch.randn_like(x)
print(noisy.clamp(0, 1).shape, torch.clamp(noisy, min=0.).min() >= 0)
# contractive penalty via jacobian
h = torch.sigmoid(F.linear(x, ae.W, ae.b_enc))
dh = h * (1 - h)
contractive = torch.sum(dh ** 2 @ (ae.W ** 2).sum(1, keepdim=True).t().t())
print(contractive.shape, contractive.grad_fn)
print(torch.autograd.functional.jacobian(lambda v: torch.sigmoid(F.linear(v, ae.W.detach(), ae.b_enc.detach())), x[0]).shape)
''',
    'ebm': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
energy = nn.Sequential(nn.Linear(2, 16), nn.SiLU(), nn.Linear(16, 16), nn.Softplus(), nn.Linear(16, 1))
print(energy)
def langevin(x, steps=5, step_size=0.01, noise=0.005):
    x = x.clone().detach().requires_grad_(True)
    for _ in range(steps):
        e = energy(x).sum()
        g, = torch.autograd.grad(e, x)
        x = x - step_size * g + noise * torch.randn_like(x)
        x = x.detach().requires_grad_(True)
    return x.detach()
data = torch.randn(8, 2) * 0.5
opt = torch.optim.Adam(energy.parameters(), lr=1e-3)
for it in range(2):
    neg = langevin(torch.rand(8, 2) * 2 - 1)
    e_pos = energy(data).mean(); e_neg = energy(neg).mean()
    reg = (energy(data) ** 2).mean() + (energy(neg) ** 2).mean()
    loss = e_pos - e_neg + 0.1 * reg
    opt.zero_grad(); loss.backward(); opt.step()
    print(it, round(loss.item(), 5), neg.shape, neg.requires_grad, round(e_pos.item(), 5))
# denoising score matching
score = nn.Sequential(nn.Linear(2, 16), nn.ELU(), nn.Linear(16, 2))
sigma = 0.1
x = torch.randn(16, 2)
xt = x + sigma * torch.randn_like(x)
target = -(xt - x) / sigma ** 2
l = 0.5 * ((score(xt) - target) ** 2).sum(dim=-1).mean()
print(round(l.item(), 3), l.grad_fn)
# sliced score matching with jacobian-vector trick
xs = torch.randn(4, 2, requires_grad=True)
s = score(xs)
v = torch.randn_like(xs)
sv = (s * v).sum()
gsv, = torch.autograd.grad(sv, xs, create_graph=True)
loss1 = (gsv * v).sum(-1) + 0.5 * (s * v).sum(-1) ** 2
print(loss1.shape, loss1.grad_fn, gsv.grad_fn)
loss1.mean().backward()
print(score[0].weight.grad.shape, xs.grad.shape)
# exact trace of Jacobian for 2-D (score matching)
xs2 = torch.randn(3, 2, requires_grad=True)
s2 = score(xs2)
tr = 0
for i in range(2):
    tr = tr + torch.autograd.grad(s2[:, i].sum(), xs2, create_graph=True)[0][:, i]
print(tr.shape, tr.grad_fn)
J = torch.autograd.functional.jacobian(lambda z: score(z).sum(0), xs2)
print(J.shape)
hv = torch.autograd.functional.hvp(lambda z: energy(z).sum(), xs2.detach(), torch.ones(3, 2))
print(type(hv), len(hv), hv[1].shape)
print(torch.func.grad(lambda z: energy(z).sum())(torch.zeros(1, 2)).shape)
try:
    torch.autograd.grad(energy(xs2).sum(), xs2)[0].backward()
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.autograd.grad(energy(xs2), xs2)
except Exception as e:
    print(type(e).__name__, e)
try:
    langevin(torch.rand(2, 3))
except Exception as e:
    print(type(e).__name__, e)
# torch.distributions for EBMs / MCMC
n = torch.distributions.Normal(0., 1.)
print(n, n.log_prob(torch.tensor(0.5)), torch.distributions.Uniform(-1., 1.), torch.distributions.Uniform(-1., 1.).sample((2,)))
print(torch.distributions.Categorical(logits=torch.tensor([0., 1., 2.])), torch.distributions.Categorical(probs=torch.tensor([0.2, 0.8])).entropy())
print(torch.distributions.Bernoulli(logits=torch.tensor([0.3])), torch.distributions.Laplace(0., 1.), torch.distributions.MixtureSameFamily(torch.distributions.Categorical(torch.ones(2)), torch.distributions.Normal(torch.tensor([-1., 1.]), torch.tensor([0.5, 0.5]))))
''',
    'gan2': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 8 * 2 * 2), nn.Unflatten(1, (8, 2, 2)),
                  nn.Upsample(scale_factor=2, mode='nearest'), nn.Conv2d(8, 4, 3, padding=1),
                  nn.BatchNorm2d(4, momentum=0.8), nn.LeakyReLU(0.2, inplace=True),
                  nn.ConvTranspose2d(4, 1, 4, stride=2, padding=1), nn.Tanh())
D = nn.Sequential(nn.utils.spectral_norm(nn.Conv2d(1, 4, 3, 2, 1)), nn.LeakyReLU(0.2),
                  nn.Dropout2d(0.25), nn.Flatten(), nn.Linear(4 * 4 * 4, 1))
print(G); print(D)
print([k for k in D.state_dict()])
adv = nn.BCEWithLogitsLoss()
print(adv, nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.])), nn.MSELoss(reduction='sum'), nn.BCELoss(weight=torch.ones(2)))
z = torch.randn(4, 4)
imgs = torch.rand(4, 1, 8, 8) * 2 - 1
valid = torch.ones(4, 1, requires_grad=False); fake_t = torch.zeros(4, 1)
valid_smooth = torch.full((4, 1), 0.9)
optG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
for step in range(2):
    optG.zero_grad()
    gen = G(z)
    g_loss = adv(D(gen), valid)
    g_loss.backward(); optG.step()
    optD.zero_grad()
    real_loss = adv(D(imgs), valid_smooth)
    fake_loss = adv(D(gen.detach()), fake_t)
    d_loss = (real_loss + fake_loss) / 2
    d_loss.backward(); optD.step()
    print(step, round(g_loss.item(), 4), round(d_loss.item(), 4), gen.shape, d_loss.grad_fn)
print(D[0].weight_u.shape, D[0].weight_orig.shape, hasattr(D[0], 'weight'))
print(torch.ones_like(D(imgs)), torch.zeros_like(imgs[:, :1, 0, 0]).shape)
# hinge loss & non-saturating
d_real, d_fake = D(imgs), D(gen.detach())
print(round((F.relu(1. - d_real).mean() + F.relu(1. + d_fake).mean()).item(), 4))
print(round(F.softplus(-d_fake).mean().item(), 4), round((-torch.log(torch.sigmoid(d_fake) + 1e-8)).mean().item(), 4))
# gen.detach vs no detach
print(gen.detach().requires_grad, gen.requires_grad, gen.detach().grad_fn)
try:
    adv(D(gen), torch.ones(4))
except Exception as e:
    print(type(e).__name__, e)
try:
    nn.BCELoss()(D(gen), valid)
except Exception as e:
    print(type(e).__name__, e)
try:
    adv(D(gen), torch.ones(4, 1, dtype=torch.long))
except Exception as e:
    print(type(e).__name__, e)
try:
    G(torch.randn(4, 5))
except Exception as e:
    print(type(e).__name__, e)
try:
    G(torch.randn(1, 4))
except Exception as e:
    print(type(e).__name__, e)
G.eval(); print(G(torch.randn(1, 4)).shape)
ct = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1)
print(ct(torch.randn(1, 4, 5, 5)).shape, ct(torch.randn(1, 4, 5, 5), output_size=[10, 10]).shape)
try:
    ct(torch.randn(1, 4, 5, 5), output_size=[12, 12])
except Exception as e:
    print(type(e).__name__, e)
print(ct, nn.ConvTranspose2d(4, 2, 4, 2, 1, output_padding=1, bias=False, dilation=1))
try:
    nn.ConvTranspose2d(4, 2, 3, stride=1, output_padding=1)(torch.randn(1, 4, 3, 3))
except Exception as e:
    print(type(e).__name__, e)
''',
    'optexact': r'''
import hashlib
def h(t):
    return hashlib.md5(t.detach().numpy().tobytes()).hexdigest()[:10]
for name, mk in [('SGD', lambda p: torch.optim.SGD(p, lr=0.1)),
                 ('SGDm', lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)),
                 ('SGDd', lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1, maximize=True)),
                 ('Adam', lambda p: torch.optim.Adam(p, lr=1e-3)),
                 ('AdamW', lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.1)),
                 ('Adam_ams_wd', lambda p: torch.optim.Adam(p, lr=1e-2, amsgrad=True, maximize=True)),
                 ('RMSprop', lambda p: torch.optim.RMSprop(p, lr=5e-4, weight_decay=0.01)),
                 ('RMSprop_c', lambda p: torch.optim.RMSprop(p, lr=5e-4, centered=True, momentum=0.9)),
                 ('Adagrad', lambda p: torch.optim.Adagrad(p, lr=0.1)),
                 ('Adadelta', lambda p: torch.optim.Adadelta(p)),
                 ('Adamax', lambda p: torch.optim.Adamax(p, weight_decay=0.01)),
                 ('NAdam', lambda p: torch.optim.NAdam(p)),
                 ('RAdam', lambda p: torch.optim.RAdam(p, weight_decay=0.01)),
                 ('ASGD', lambda p: torch.optim.ASGD(p, weight_decay=0.01))]:
    torch.manual_seed(0)
    w = torch.randn(400, requires_grad=True)
    opt = mk([w])
    grads = [torch.randn(400) * 0.01 for i in range(6)]
    for g in grads:
        w.grad = g.clone()
        opt.step()
    # (the states that do not go through a sqrt: torch's float32 sqrt is MKL's)
    print(name, [(k, h(v)) for k, v in opt.state[w].items() if torch.is_tensor(v) and k not in ('momentum_buffer', 'acc_delta')])
    if name in ('SGD', 'SGDm', 'SGDd', 'Adamax', 'RAdam', 'ASGD'):
        print(h(w), w[:3].tolist())
''',
    'misc1': r'''
nn = torch.nn; F = torch.nn.functional
D = torch.distributions
torch.manual_seed(0)
# Gumbel-softmax quantiser (DALL-E style)
logits = torch.randn(3, 5, requires_grad=True)
y_soft = F.gumbel_softmax(logits, tau=0.5, hard=False)
y_hard = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(y_soft.sum(-1), y_hard, y_hard.grad_fn, y_soft.grad_fn)
y_hard.sum().backward(); print(logits.grad.shape)
print(F.gumbel_softmax(torch.randn(2, 3), dim=0, hard=True))
rc = D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.randn(4))
print(rc, rc.rsample().shape, rc.temperature)
rb = D.RelaxedBernoulli(torch.tensor(0.3), probs=torch.tensor([0.2, 0.9]))
print(rb, rb.sample().shape)
# beta-VAE / KL annealing
for epoch in range(4):
    beta = min(1.0, epoch / 2)
    print(epoch, beta, torch.sigmoid(torch.tensor((epoch - 2) * 1.0)).item())
# PixelCNN masked conv
class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_buffer('mask', self.weight.data.clone())
        _, _, kH, kW = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kH // 2, kW // 2 + (mask_type == 'B'):] = 0
        self.mask[:, :, kH // 2 + 1:] = 0
    def forward(self, x):
        self.weight.data *= self.mask
        return super().forward(x)
mc = MaskedConv2d('A', 1, 2, 3, 1, 1, bias=False)
print(mc, mc.mask[0, 0], list(mc.state_dict()))
print(mc(torch.ones(1, 1, 3, 3)).shape)
mcb = MaskedConv2d('B', 2, 2, 3, padding=1)
print(mcb.mask[0, 0], mcb.extra_repr())
# init functions commonly used in GAN/VAE code
l = nn.Linear(4, 3)
nn.init.xavier_uniform_(l.weight); nn.init.zeros_(l.bias)
print(l.weight.std().item() > 0, l.bias)
nn.init.kaiming_normal_(l.weight, a=0.2, mode='fan_out', nonlinearity='leaky_relu')
print(nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('tanh'), nn.init.calculate_gain('selu'))
nn.init.orthogonal_(l.weight)
print(torch.allclose(l.weight @ l.weight.t(), torch.eye(3), atol=1e-5))
try:
    nn.init.xavier_uniform_(torch.empty(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    nn.init.calculate_gain('foo')
except Exception as e:
    print(type(e).__name__, e)
print(nn.init.trunc_normal_(torch.empty(5), std=0.02).abs().max() < 0.04)
# Distributions printing
dists = [D.Normal(torch.zeros(2), torch.ones(2)), D.Bernoulli(probs=torch.tensor([0.3, 0.7])),
         D.Categorical(probs=torch.ones(3) / 3), D.Beta(torch.tensor([2.]), torch.tensor([3.])),
         D.Gamma(torch.tensor(2.), torch.tensor(1.)), D.Dirichlet(torch.ones(3)),
         D.LogNormal(0., 1.), D.Exponential(torch.tensor([1.5])), D.Poisson(torch.tensor(3.)),
         D.OneHotCategorical(logits=torch.zeros(4)), D.Binomial(10, torch.tensor(0.3)),
         D.Multinomial(5, probs=torch.tensor([0.2, 0.8])), D.StudentT(3.),
         D.Gumbel(0., 1.), D.HalfNormal(1.), D.Cauchy(0., 1.), D.VonMises(torch.tensor(0.), torch.tensor(1.)),
         D.ContinuousBernoulli(probs=torch.tensor([0.3])), D.LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)),
         D.Independent(D.Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1), D.Geometric(probs=torch.tensor(0.3)),
         D.Kumaraswamy(torch.tensor(1.), torch.tensor(2.)), D.Weibull(torch.tensor(1.), torch.tensor(2.)),
         D.Chi2(torch.tensor(3.)), D.FisherSnedecor(torch.tensor(2.), torch.tensor(3.)), D.Pareto(1., 2.),
         D.NegativeBinomial(3., probs=torch.tensor(0.4)), D.LKJCholesky(3, 0.5), D.Wishart(torch.tensor(4.), torch.eye(2))]
for d in dists:
    print(d, d.batch_shape, d.event_shape)
print(D.Normal(0., 1.).has_rsample, D.Bernoulli(0.3).has_rsample, D.Beta(1., 1.).has_rsample, D.Categorical(torch.ones(2)).has_enumerate_support)
print(D.Categorical(probs=torch.tensor([0.25, 0.75])).enumerate_support(), D.Bernoulli(torch.tensor([0.5, 0.5])).enumerate_support().shape)
''',
    'bcel': r'''
F = torch.nn.functional
torch.manual_seed(0)
for n in (2, 7, 1000):
    x = torch.randn(n) * 3; t = torch.rand(n)
    print(F.binary_cross_entropy_with_logits(x, t, reduction='none').sum().item(), F.binary_cross_entropy_with_logits(x, t).item())
    print(F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor(2.5), reduction='none')[:5].tolist())
    print(F.binary_cross_entropy_with_logits(x, t, weight=torch.rand(n), pos_weight=torch.rand(n), reduction='sum').item())
for dx, dt in [(torch.float64, torch.float32), (torch.float32, torch.float64), (torch.float16, torch.float16), (torch.bfloat16, torch.float32), (torch.float32, torch.bfloat16)]:
    x = torch.randn(9).to(dx); t = torch.rand(9).to(dt)
    r = F.binary_cross_entropy_with_logits(x, t, reduction='none')
    print(dx, dt, r.dtype, r.tolist())
    r = F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.full((9,), 3.0, dtype=dt), weight=torch.rand(9, dtype=torch.float64), reduction='none')
    print(r.dtype, r.tolist())
x = torch.randn(5, requires_grad=True); t = torch.rand(5)
l = F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor(2.))
l.backward(); print(l, x.grad)
p = torch.tensor([0.3, 0.7, 0.1]); print(torch.distributions.Bernoulli(probs=p).entropy().tolist())
print(torch.nn.BCEWithLogitsLoss()(torch.tensor([[100., -100.]]), torch.tensor([[1., 0.]])), F.binary_cross_entropy_with_logits(torch.tensor([float('inf'), -float('inf'), float('nan')]), torch.tensor([1., 0., 0.5]), reduction='none'))
''',
    'dirichlet': r'''
D = torch.distributions
torch.manual_seed(0)
# Dirichlet / Beta / Gamma latent variables (Dirichlet-VAE, Beta-VAE priors): entropies and
# KL terms go through digamma, which torch computes in float32 steps
a = torch.tensor([[0.5, 1.5, 3.0], [2.0, 2.0, 2.0]], requires_grad=True)
q = D.Dirichlet(a); p = D.Dirichlet(torch.ones(3))
print(q.entropy().tolist(), p.entropy().tolist())
kl = D.kl_divergence(q, p)
print(kl.tolist(), kl.grad_fn)
kl.sum().backward(); print(a.grad.round(decimals=4))
b1 = D.Beta(torch.tensor([0.7, 2.0, 5.0]), torch.tensor([1.3, 3.0, 0.4])); b2 = D.Beta(torch.tensor(1.), torch.tensor(1.))
print(b1.entropy().tolist(), D.kl_divergence(b1, b2).tolist())
g1 = D.Gamma(torch.tensor([0.3, 2.0, 7.5]), torch.tensor([1.0, 0.5, 2.0])); g2 = D.Gamma(torch.tensor(1.), torch.tensor(1.))
print(g1.entropy().tolist(), D.kl_divergence(g1, g2).tolist())
print(D.Chi2(torch.tensor([3.0, 0.7])).entropy().tolist(), D.StudentT(torch.tensor([3.0, 1.5])).entropy().tolist())
x = torch.tensor([0.01, 0.3, 1.0, 2.5, 9.99, 10.0, 10.5, 123.0, 1e6, -0.5, -2.25, 0.0, -3.0])
print(torch.digamma(x).tolist())
print(torch.special.digamma(x.double()).tolist())
print(torch.special.psi(x.half()).tolist(), torch.digamma(x.bfloat16()).tolist())
print(torch.polygamma(0, x).tolist() == torch.digamma(x).tolist(), x.digamma().dtype, torch.digamma(torch.tensor([1, 2])).tolist())
''',
    'rng': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
print(torch.normal(torch.zeros(3), torch.ones(3)), torch.normal(0., 1., size=(2,)), torch.normal(torch.zeros(2, 2), 0.5))
print(torch.bernoulli(torch.full((5,), 0.3)), torch.rand(3).bernoulli_(0.5), torch.empty(4).bernoulli_(torch.tensor([0.1, 0.9, 0.5, 0.5])))
print(torch.empty(3).normal_(2., 0.1), torch.empty(3).uniform_(-1, 1), torch.empty(3).exponential_(), torch.empty(3).log_normal_(), torch.empty(2).cauchy_(), torch.empty(3).geometric_(0.3))
print(torch.randn_like(torch.zeros(2, 2, dtype=torch.float64)), torch.rand_like(torch.zeros(2), dtype=torch.float16), torch.randint_like(torch.zeros(3), 10))
print(torch.randperm(7), torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 5, replacement=True), torch.poisson(torch.tensor([1., 4.])))
g = torch.Generator().manual_seed(123)
print(torch.randn(2, generator=g), torch.rand(2, generator=g), g.initial_seed(), torch.randint(0, 5, (3,), generator=g))
print(torch.normal(torch.zeros(3), torch.ones(3), generator=g), torch.empty(2).normal_(generator=g))
state = torch.get_rng_state(); a = torch.randn(2); torch.set_rng_state(state); b = torch.randn(2); print(torch.equal(a, b), state.dtype, state.shape)
# noise injection, dropout masks, random crops/flips as data augmentation in SimCLR
x = torch.arange(16.).view(1, 1, 4, 4)
if torch.rand(1) < 0.5:
    x = torch.flip(x, dims=[3])
print(x)
i, j = torch.randint(0, 2, (2,)).tolist(); print(i, j, x[..., i:i + 2, j:j + 2])
print(F.dropout(torch.ones(8), 0.5), F.dropout2d(torch.ones(1, 4, 2, 2), 0.5)[0, :, 0, 0], F.alpha_dropout(torch.ones(4), 0.2, training=True))
perm = torch.randperm(6); print(perm, torch.arange(6)[perm].argsort())
theta = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]])
grid = F.affine_grid(theta, (1, 1, 3, 3), align_corners=False)
print(grid.shape, grid[0, 0], F.grid_sample(torch.arange(9.).view(1, 1, 3, 3), grid, align_corners=False))
emb = nn.Embedding.from_pretrained(torch.eye(3) * 2, freeze=True, max_norm=1.0)
print(emb, emb(torch.tensor([0, 2])), emb.weight.requires_grad)
print(torch.quasirandom.SobolEngine(2, scramble=True, seed=0).draw(3))
with torch.inference_mode():
    s = torch.randn(2) * 2
print(s.is_inference(), s.requires_grad)
try:
    torch.normal(torch.zeros(2), -torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.bernoulli(torch.tensor([1.5]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.multinomial(torch.tensor([0., 0.]), 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.randint(5, (2,), dtype=torch.float32).dtype; print(torch.randint(5, (2,), dtype=torch.float32))
except Exception as e:
    print(type(e).__name__, e)
''',
    'embnorm': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
emb = nn.Embedding.from_pretrained(torch.eye(3) * 2, freeze=True, max_norm=1.0)
print(emb, emb(torch.tensor([0, 2])), emb.weight.requires_grad)
print(emb.weight.tolist())
e2 = nn.Embedding(5, 4, max_norm=0.5, norm_type=1.0)
out = e2(torch.tensor([[0, 1], [1, 4]]))
print(out.tolist(), e2.weight.norm(p=1, dim=1).tolist())
print(e2(torch.tensor([0])).tolist())
w = torch.randn(4, 3) * 3
print(F.embedding(torch.tensor([3, 3, 0]), w, max_norm=0.1).tolist(), w.norm(dim=1).tolist())
w2 = torch.full((2, 4), 0.05); print(F.embedding(torch.tensor([0]), w2, max_norm=0.1).tolist())
v = torch.randn(6, 5, dtype=torch.float64) * 2
print(torch.embedding_renorm_(v, torch.tensor([1, 5]), 1.5, 2.0).norm(dim=1).tolist())
''',
    'ganerr': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 3))
D = nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2, inplace=True), nn.Linear(4, 1))
optG = torch.optim.Adam(G.parameters(), lr=1e-3); optD = torch.optim.Adam(D.parameters(), lr=1e-3)
crit = nn.BCEWithLogitsLoss()
z = torch.randn(4, 2); real = torch.randn(4, 3)
fake = G(z)
# mistake 1: backward twice through the generator graph
d_loss = crit(D(real), torch.ones(4, 1)) + crit(D(fake), torch.zeros(4, 1))
d_loss.backward()
try:
    g_loss = crit(D(fake), torch.ones(4, 1))
    g_loss.backward()
except Exception as e:
    print(type(e).__name__, e)
# mistake 2: optimizer step (in-place on D's weights) between forward and backward
fake = G(z)
out = D(fake)
g_loss = crit(out, torch.ones(4, 1))
d_loss = crit(D(fake.detach()), torch.zeros(4, 1))
d_loss.backward(); optD.step()
try:
    g_loss.backward()
except Exception as e:
    print(type(e).__name__, e)
# mistake 3: in-place op on a leaf that requires grad
w = torch.randn(3, requires_grad=True)
try:
    w.clamp_(-1, 1)
except Exception as e:
    print(type(e).__name__, e)
try:
    w += 1
except Exception as e:
    print(type(e).__name__, e)
with torch.no_grad():
    w.clamp_(-0.5, 0.5)
print(w)
# mistake 4: in-place op on output needed by sigmoid backward
x = torch.randn(3, requires_grad=True)
y = torch.sigmoid(x)
y.mul_(2)
try:
    y.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
x = torch.randn(3, requires_grad=True)
y = torch.exp(x); y += 1
try:
    y.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
x = torch.randn(3, requires_grad=True)
y = torch.tanh(x); y[0] = 0
try:
    y.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
# mistake 5: .item() on multi-element, .numpy() on requires_grad
try:
    G(z).item()
except Exception as e:
    print(type(e).__name__, e)
try:
    G(z).numpy()
except Exception as e:
    print(type(e).__name__, e)
print(G(z).detach().numpy().shape, G(z).data.numpy().dtype)
# mistake 6: backward on non-scalar
try:
    G(z).backward()
except Exception as e:
    print(type(e).__name__, e)
# mistake 7: label shape mismatch with BCEWithLogits
try:
    crit(D(real), torch.ones(4))
except Exception as e:
    print(type(e).__name__, e)
# mistake 8: zero_grad(set_to_none) semantics
optG.zero_grad()
print([p.grad for p in G.parameters()][:1])
optG.zero_grad(set_to_none=False)
print(G[0].bias.grad)
# mistake 9: requires_grad_ on non-leaf / grad of non-leaf
h = G[0](z)
print(h.is_leaf, h.grad_fn.name(), h.requires_grad)
h.sum().backward()
print(h.grad)
try:
    G[0].weight.requires_grad_(False); print(G[0].weight.requires_grad); G[0].weight.requires_grad_(True)
    h.requires_grad_(False)
except Exception as e:
    print(type(e).__name__, e)
# mistake 10: detach vs data vs clone
a = torch.ones(2, requires_grad=True)
b = a.detach(); b.zero_()
print(a, a._version, b._version)
c = a.clone(); print(c.grad_fn, c.requires_grad)
for p in D.parameters():
    p.requires_grad = False
print(sum(p.requires_grad for p in D.parameters()), D(real).requires_grad, D(G(z)).requires_grad)
''',
    'sched': r'''
nn = torch.nn
torch.manual_seed(0)
G = nn.Linear(2, 2)
opt = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
def lambda_rule(epoch):
    return 1.0 - max(0, epoch + 1 - 3) / float(5 + 1)
sch = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda_rule)
print(type(sch).__name__, isinstance(sch, torch.optim.lr_scheduler.LRScheduler))
for ep in range(6):
    G(torch.randn(3, 2)).sum().backward(); opt.step(); opt.zero_grad()
    sch.step()
    print(ep, sch.get_last_lr(), opt.param_groups[0]['lr'])
sd = opt.state_dict()
print(sd['state'][0]['exp_avg'].shape, sd['state'][0]['step'], sd['param_groups'][0]['initial_lr'])
print({k: v for k, v in sch.state_dict().items() if k != 'lr_lambdas'})
s2 = torch.optim.lr_scheduler.StepLR(torch.optim.SGD(G.parameters(), lr=0.1), step_size=2, gamma=0.5)
for i in range(5):
    s2.optimizer.step(); s2.step()
print(s2.get_last_lr(), s2.last_epoch, s2.state_dict())
s3 = torch.optim.lr_scheduler.CosineAnnealingLR(torch.optim.SGD(G.parameters(), lr=0.1), T_max=10, eta_min=1e-4)
lrs = []
for i in range(12):
    s3.optimizer.step(); s3.step(); lrs.append(s3.get_last_lr()[0])
print(lrs)
s4 = torch.optim.lr_scheduler.ExponentialLR(torch.optim.Adam(G.parameters(), lr=1e-3), gamma=0.99)
for i in range(3):
    s4.optimizer.step(); s4.step()
print(s4.get_last_lr(), s4.optimizer)
s5 = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD(G.parameters(), lr=1.0), milestones=[2, 4], gamma=0.1)
for i in range(5):
    s5.optimizer.step(); s5.step()
print(s5.get_last_lr(), s5.milestones)
s6 = torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD(G.parameters(), lr=1.0), patience=1, factor=0.5)
for v in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5]:
    s6.step(v)
print(s6.optimizer.param_groups[0]['lr'], s6.num_bad_epochs, s6.best, s6.get_last_lr())
s7 = torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD(G.parameters(), lr=0.1, momentum=0.9), max_lr=0.1, total_steps=10)
mm = []
for i in range(10):
    s7.optimizer.step(); s7.step(); mm.append((s7.get_last_lr()[0], s7.optimizer.param_groups[0]['momentum']))
print(mm)
try:
    s7.step()
except Exception as e:
    print(type(e).__name__, e)
sw = torch.optim.lr_scheduler.LinearLR(torch.optim.SGD(G.parameters(), lr=0.1), start_factor=0.1, total_iters=4)
print([round(x, 6) for x in [sw.get_last_lr()[0]] + [(sw.optimizer.step(), sw.step(), sw.get_last_lr()[0])[2] for _ in range(5)]])
''',
    'glow': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
class ActNorm(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, c, 1, 1))
        self.logs = nn.Parameter(torch.zeros(1, c, 1, 1))
        self.register_buffer('initialized', torch.tensor(0, dtype=torch.uint8))
    def forward(self, x):
        if self.initialized.item() == 0:
            with torch.no_grad():
                mean = x.mean(dim=(0, 2, 3), keepdim=True)
                std = x.std(dim=(0, 2, 3), keepdim=True)
                self.loc.data.copy_(-mean)
                self.logs.data.copy_(torch.log(1 / (std + 1e-6)))
                self.initialized.fill_(1)
        h, w = x.shape[2:]
        return (x + self.loc) * torch.exp(self.logs), h * w * torch.sum(self.logs)
def squeeze2d(x, factor=2):
    B, C, H, W = x.size()
    x = x.view(B, C, H // factor, factor, W // factor, factor)
    x = x.permute(0, 1, 3, 5, 2, 4).contiguous()
    return x.view(B, C * factor * factor, H // factor, W // factor)
def unsqueeze2d(x, factor=2):
    B, C, H, W = x.size()
    x = x.view(B, C // factor ** 2, factor, factor, H, W)
    x = x.permute(0, 1, 4, 2, 5, 3).contiguous()
    return x.view(B, C // factor ** 2, H * factor, W * factor)
x = torch.randn(2, 1, 4, 4)
s = squeeze2d(x)
print(s.shape, torch.equal(unsqueeze2d(s), x), s[0, :, 0, 0])
print(torch.equal(F.pixel_unshuffle(x, 2), s), F.pixel_shuffle(s, 2).shape)
an = ActNorm(4)
y, ld = an(s)
print(an.initialized, y.mean(dim=(0, 2, 3)).abs().max() < 1e-5, ld.grad_fn, round(ld.item(), 4))
print(list(an.state_dict().keys()), an.initialized.dtype)
class InvConv(nn.Module):
    def __init__(self, c):
        super().__init__()
        w = torch.linalg.qr(torch.randn(c, c))[0]
        self.weight = nn.Parameter(w)
    def forward(self, x):
        h, w = x.shape[2:]
        logdet = torch.slogdet(self.weight)[1] * h * w
        return F.conv2d(x, self.weight.view(*self.weight.shape, 1, 1)), logdet
ic = InvConv(4)
z, ld2 = ic(y)
print(z.shape, round(ld2.item(), 4), ld2.grad_fn)
print(torch.linalg.slogdet(torch.tensor([[2., 1.], [1., 3.]])), torch.slogdet(torch.eye(3) * -1))
P, L, U = torch.linalg.lu(torch.tensor([[1., 2.], [3., 4.]]))
print(P, L, U)
lu, piv = torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]]))
print(lu, piv, piv.dtype)
P2, L2, U2 = torch.lu_unpack(lu, piv)
print(torch.allclose(P2 @ L2 @ U2, torch.tensor([[1., 2.], [3., 4.]])))
print(torch.triu(torch.ones(3, 3), diagonal=1), torch.tril(torch.ones(3, 3), -1), torch.diag(torch.tensor([1., 2.])))
sgn = torch.sign(torch.tensor([-2., 0., 3.])); print(sgn, torch.log(torch.abs(torch.tensor([-2., 0.5]))))
# split prior
z1, z2 = z.chunk(2, dim=1)
print(z1.shape, z2.shape, torch.cat([z1, z2], 1).shape)
h = nn.Conv2d(2, 4, 3, padding=1)
nn.init.zeros_(h.weight); nn.init.zeros_(h.bias)
mean, logs = h(z1).chunk(2, 1)
logp = -0.5 * (math_log2pi := 1.8378770664093453) - logs - 0.5 * (z2 - mean) ** 2 / torch.exp(2 * logs)
print(logp.shape, round(logp.sum(dim=[1, 2, 3]).mean().item(), 3))
try:
    squeeze2d(torch.randn(1, 1, 3, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    F.pixel_unshuffle(torch.randn(1, 1, 3, 3), 2)
except Exception as e:
    print(type(e).__name__, e)
''',
    'disterr': r'''
D = torch.distributions
torch.manual_seed(0)
cases = [lambda: D.Normal(torch.zeros(2), torch.tensor([1., 0.])),
         lambda: D.Normal(torch.zeros(2), torch.tensor([1., float('nan')])),
         lambda: D.Bernoulli(probs=torch.tensor([1.2])),
         lambda: D.Bernoulli(probs=torch.tensor([0.3]), logits=torch.tensor([0.1])),
         lambda: D.Bernoulli(),
         lambda: D.Categorical(probs=torch.tensor([[0.2, -0.1]])),
         lambda: D.Categorical(logits=torch.tensor(1.)),
         lambda: D.Beta(torch.tensor([0.]), torch.tensor([1.])),
         lambda: D.Dirichlet(torch.tensor([1.])[0]),
         lambda: D.Normal(0., 1.).log_prob(torch.tensor([1, 2])),
         lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor([2])),
         lambda: D.Categorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor([0.5])),
         lambda: D.Bernoulli(0.5).log_prob(torch.tensor(0.5)),
         lambda: D.Beta(2., 2.).log_prob(torch.tensor(1.5)),
         lambda: D.Uniform(0., 1.).log_prob(torch.tensor(2.)),
         lambda: D.Uniform(1., 0.),
         lambda: D.MultivariateNormal(torch.zeros(2), torch.eye(3)),
         lambda: D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 2),
         lambda: D.Normal(torch.zeros(2), torch.ones(3)),
         lambda: D.kl_divergence(D.Normal(0., 1.), D.Bernoulli(0.5)),
         lambda: D.Normal(0., 1.).sample(3),
         lambda: D.Normal(0., 1.).cdf(torch.tensor([0.])).dtype,
         lambda: D.Exponential(torch.tensor([-1.])),
         lambda: D.OneHotCategorical(probs=torch.tensor([0.5, 0.5])).log_prob(torch.tensor([1., 1.])),
         lambda: D.Poisson(torch.tensor([2.])).log_prob(torch.tensor([1.5])),
         lambda: D.Gamma(torch.tensor([1.]), torch.tensor([1.])).log_prob(torch.tensor([-1.])),
         lambda: D.Normal(torch.zeros(2), torch.ones(2), validate_args=False).log_prob(torch.tensor([1.])),
         lambda: D.Categorical(logits=torch.zeros(3)).sample((2, 2)).shape,
         lambda: D.Normal(0., 1.).rsample().requires_grad,
         lambda: D.Bernoulli(0.5).rsample()]
for c in cases:
    try:
        print(c())
    except Exception as e:
        print(type(e).__name__, str(e)[:400])
''',
    'prints': r'''
nn = torch.nn
torch.manual_seed(0)
enc = nn.Sequential(nn.Conv2d(1, 2, 3, 2, 1), nn.GELU(), nn.Flatten(), nn.Linear(8, 4))
dec = nn.Sequential(nn.Linear(2, 8), nn.Unflatten(1, (2, 2, 2)), nn.ConvTranspose2d(2, 1, 4, 2, 1), nn.Sigmoid())
opt = torch.optim.Adam([{'params': enc.parameters()}, {'params': dec.parameters(), 'lr': 1e-4, 'betas': (0.5, 0.9)}], lr=1e-3, weight_decay=1e-5)
print(opt)
x = torch.rand(2, 1, 4, 4)
h = enc(x); mu, logvar = h.chunk(2, dim=1)
z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
r = dec(z)
loss = nn.functional.binary_cross_entropy(r, x, reduction='sum')
opt.zero_grad(); loss.backward(); opt.step()
print(opt.state_dict())
print(dec.state_dict())
print(nn.ModuleDict({'enc': enc, 'dec': dec}))
print(nn.ParameterList([nn.Parameter(torch.zeros(2)), nn.Parameter(torch.ones(1))]))
print(nn.ParameterDict({'a': nn.Parameter(torch.zeros(2, 2))}))
print(sum(p.numel() for p in enc.parameters() if p.requires_grad), {n: tuple(p.shape) for n, p in dec.named_parameters()})
print(enc[0].weight.grad.shape, r.grad_fn, h.grad_fn, z.grad_fn, mu.grad_fn, logvar.is_contiguous(), mu.stride())
print(repr(torch.finfo(torch.float32)), torch.iinfo(torch.int64))
print(torch.tensor([1e-8, 1.0, 1e8]), torch.tensor([0.1, float('nan'), float('inf')]), torch.tensor([[1e-5, 2.5], [3.0, 4.0]]))
torch.set_printoptions(precision=2, sci_mode=False)
print(torch.tensor([1e-8, 1.23456, 1e3]))
torch.set_printoptions(profile='default')
print(torch.randn(2, 3).numpy().dtype, torch.randn(3).tolist().__class__)
''',
    'selu': r'''
nn = torch.nn; F = torch.nn.functional
torch.manual_seed(0)
# self-normalizing encoder (SELU + AlphaDropout + lecun init), as in SNN-style VAEs
x = torch.randn(6, 5)
print(F.selu(x).tolist())
print(F.celu(x, alpha=1.3).tolist(), F.elu(x, alpha=0.7).tolist())
enc = nn.Sequential(nn.Linear(5, 8), nn.SELU(), nn.AlphaDropout(0.1), nn.Linear(8, 4), nn.CELU(0.5))
for m in enc:
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity='linear'); nn.init.zeros_(m.bias)
enc.eval()
print(enc, enc(x).shape)
print(F.selu(torch.tensor([-0., 0., -1e-30, -100., 3.])), F.selu(x.double())[0].tolist(), F.selu(x.half())[0])
y = x.clone().requires_grad_(); F.selu(y).sum().backward(); print(y.grad[0])
''',
}

BUGS = {
    'mkl_sqrt': ("torch's float32 sqrt (and cos) over arrays is MKL's vector function, about "
                 "0.75 ulp: one value in ten differs from ember's correctly rounded one, and so "
                 "do Adam's, RMSprop's and Adagrad's parameters after a step", r'''
import hashlib
def h(t):
    return hashlib.md5(t.detach().numpy().tobytes()).hexdigest()[:10]
for name, mk in [('Adam', lambda p: torch.optim.Adam(p, lr=1e-3)),
                 ('RMSprop', lambda p: torch.optim.RMSprop(p, lr=5e-4)),
                 ('Adagrad', lambda p: torch.optim.Adagrad(p, lr=0.1))]:
    torch.manual_seed(0)
    w = torch.randn(400, requires_grad=True)
    opt = mk([w])
    for i in range(3):
        w.grad = torch.randn(400) * 0.01
        opt.step()
    print(name, h(w))
x = torch.rand(1000) * 1e-4
print(h(x.sqrt()), h(torch.cos(x * 1e4)))
'''),
    'bn_channels_last_kernel': (
        "torch reduces a float32 (N, C) batch norm input (and a channels-last one) as channels-"
        "last rows: float32 sums down the rows, mean = sum / count in float64, the squares' sum "
        "one fused multiply-add per row (found against torch 2.13); ember follows the "
        "contiguous kernel's arithmetic only", r'''
import hashlib
nn = torch.nn
def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:8]
torch.manual_seed(0)
# BatchNorm1d on (N, C) (a GAN's MLP discriminator) and float64 running variance
bn = nn.BatchNorm1d(7)
for step in range(3):
    y = bn(torch.randn(16, 7) * 2 + 0.5)
    print(h(y), h(bn.running_mean), h(bn.running_var))
bn64 = nn.BatchNorm2d(5).double()
bn64(torch.randn(6, 5, 4, 4, dtype=torch.float64))
print(h(bn64.running_var))
x = torch.randn(4, 6, 5, 5).to(memory_format=torch.channels_last)
print(h(nn.BatchNorm2d(6)(x)))
'''),
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, BUGS,
                                                                             at_least=23)
