"""Programs written the way the official pytorch/examples repository and the PyTorch code of
Dive into Deep Learning (d2l.ai) write them, scaled down to tiny seeded synthetic data, run
under real torch and under ember (`import ember as torch`): what each snippet prints,
including an exception's type and first line, must be identical.

pytorch/examples: word_language_model (RNN/LSTM/GRU with tied weights, repackage_hidden,
batchify/get_batch, clip_grad_norm_ and the manual `p.data.add_` update, perplexity,
generation with multinomial, the Transformer LM and its PositionalEncoding buffer), dcgan
(weights_init by class name, BCELoss with torch.full labels, Adam betas), reinforce and
actor-critic (Categorical, returns normalised with float32 eps, smooth_l1_loss),
super_resolution (PixelShuffle, orthogonal_ with calculate_gain), fast_neural_style (gram
matrix, InstanceNorm2d, ReflectionPad2d, Upsample), siamese_network, time_sequence_prediction
(LSTMCell in double with LBFGS), regression, mnist (StepLR, the test loop), mnist_rnn, vae,
forward-forward, GCN (spmm) and GAT, a vision transformer (patch embedding, cls token,
trunc_normal_), the translation Transformer (masks, greedy decoding) and imagenet's meters and
top-k accuracy; a DQN step and PPO with GAE, WGAN-GP's gradient penalty, a spatial
transformer (affine_grid, grid_sample); common mistakes in such programs (shapes, dtypes,
state_dict keys, optimizer arguments), containers, freezing, data loading, lr schedules and
what such programs print (state_dicts, optimizer states, long tensors).
d2l: linear regression from scratch and concise, softmax regression with Accumulator and
accuracy, layers and parameters, save/load, corr2d and pool2d, LeNet/AlexNet/VGG/NiN/
GoogLeNet/ResNet/DenseNet shape loops, batch norm from scratch, attention (masked_softmax,
additive, dot-product, multi-head, positional encoding), RNN from scratch with one_hot and
grad_clipping, seq2seq with a masked softmax cross-entropy loss, the preliminaries (ndarray,
linear algebra, autograd, probability), house prices with k-fold data, text preprocessing
(Vocab, sequence iterators, truncate_pad), word2vec, BERT's masked LM, anchor boxes, IoU and
NMS, optimizers written by hand, transposed convolutions with a bilinear kernel, style
transfer's losses, SSD's heads and loss, the GAN chapters, TextCNN and decomposable attention.

Floats from training loops are printed rounded (float32 sums in another order differ in the
last digits). Snippets reach submodules through `torch.` (a `from torch... import` would bind
real torch in both runs).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional; init = torch.nn.init; "
         "import math\n")


WLM_MODEL = r'''
class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)

def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)

def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data

bptt = 5
def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i+seq_len]
    target = source[i+1:i+1+seq_len].view(-1)
    return data, target
'''

WLM = [WLM_MODEL + s for s in [
    "data = torch.arange(23); b = batchify(data, 4); print(b, b.shape, b.is_contiguous(), b.stride())",
    "data = torch.arange(23); b = batchify(data, 4); d, t = get_batch(b, 0); print(d, t)",
    "data = torch.arange(23); b = batchify(data, 4); print([get_batch(b, i)[0].shape for i in range(0, b.size(0) - 1, bptt)])",
    "data = torch.arange(23); b = batchify(data, 4); d, t = get_batch(b, 4); print(d.shape, t, t.is_contiguous())",
    "data = torch.arange(10); print(data.narrow(0, 2, 5), data.narrow(0, -3, 2))",
    "data = torch.arange(10)\ntry:\n    data.narrow(0, 8, 5)\nexcept RuntimeError as e: print(e)",
    "m = RNNModel('LSTM', 20, 8, 8, 2, tie_weights=True); print(m); print(m.decoder.weight is m.encoder.weight)",
    "m = RNNModel('LSTM', 20, 8, 8, 2, tie_weights=True); print([n for n, p in m.named_parameters()]); print(len(list(m.parameters())), len(m.state_dict()))",
    "m = RNNModel('GRU', 20, 8, 8, 2, tie_weights=True); print(list(m.state_dict().keys()))",
    "m = RNNModel('RNN_TANH', 20, 8, 8, 1); print(m.rnn); print(m.rnn.nonlinearity)",
    "m = RNNModel('RNN_RELU', 20, 8, 8, 2); print(m.rnn)",
    "try:\n    RNNModel('LSTM', 20, 8, 6, 2, tie_weights=True)\nexcept ValueError as e: print(e)",
    "m = RNNModel('LSTM', 20, 8, 8, 2); h = m.init_hidden(3); print(type(h).__name__, [x.shape for x in h], h[0].dtype, h[0].requires_grad)",
    "m = RNNModel('GRU', 20, 8, 8, 2); h = m.init_hidden(3); print(h.shape, h.sum())",
    "m = RNNModel('LSTM', 20, 8, 8, 2, dropout=0.2); m.eval(); h = m.init_hidden(4); x = torch.randint(0, 20, (5, 4)); out, h = m(x, h); print(out.shape, h[0].shape, out.grad_fn.name()); print(round(out.exp().sum(1).mean().item(), 4))",
    "m = RNNModel('LSTM', 20, 8, 8, 2); h = m.init_hidden(4); x = torch.randint(0, 20, (5, 4)); out, h = m(x, h); h2 = repackage_hidden(h); print(h[0].grad_fn is not None, [t.grad_fn for t in h2], [t.requires_grad for t in h2])",
    "h = (torch.zeros(2, requires_grad=True) * 2, (torch.ones(1, requires_grad=True) + 1, torch.ones(1)))\nprint(repackage_hidden(h))",
    """m = RNNModel('LSTM', 20, 8, 8, 2, dropout=0.0, tie_weights=True)
criterion = nn.NLLLoss()
data = batchify(torch.randint(0, 20, (41,)), 4)
lr = 20; clip = 0.25
m.train(); hidden = m.init_hidden(4); total = 0.
for batch, i in enumerate(range(0, data.size(0) - 1, bptt)):
    d, targets = get_batch(data, i)
    m.zero_grad()
    hidden = repackage_hidden(hidden)
    output, hidden = m(d, hidden)
    loss = criterion(output, targets)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(m.parameters(), clip)
    for p in m.parameters():
        p.data.add_(p.grad, alpha=-lr)
    total += loss.item()
    print(batch, round(loss.item(), 4), round(gn.item(), 3), round(math.exp(loss.item()), 2))
print('{:5.2f} | ppl {:8.2f}'.format(total / (batch + 1), math.exp(total / (batch + 1))))""",
    """m = RNNModel('GRU', 20, 8, 8, 1, dropout=0.0)
criterion = nn.NLLLoss()
data = batchify(torch.randint(0, 20, (30,)), 3)
def evaluate(data_source):
    m.eval(); total_loss = 0.; hidden = m.init_hidden(3)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            d, targets = get_batch(data_source, i)
            output, hidden = m(d, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(d) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)
v = evaluate(data); print(round(v, 4), round(math.exp(v), 2), m.training)""",
    """m = RNNModel('LSTM', 20, 8, 8, 2, dropout=0.0); m.eval()
hidden = m.init_hidden(1)
input = torch.randint(20, (1, 1), dtype=torch.long)
words = []
with torch.no_grad():
    for i in range(6):
        output, hidden = m(input, hidden)
        word_weights = output.squeeze().div(0.8).exp().cpu()
        word_idx = torch.multinomial(word_weights, 1)[0]
        input.fill_(word_idx)
        words.append(word_idx.item())
print(words, input, word_idx.dtype, word_weights.shape)""",
    "w = torch.tensor([0.1, 0.0, 5.0, 1.0]); print(torch.multinomial(w, 1), torch.multinomial(w, 3), torch.multinomial(w, 6, replacement=True))",
    "w = torch.tensor([0.1, 0.0, 5.0, 1.0])\ntry:\n    torch.multinomial(w, 4)\nexcept RuntimeError as e: print(e)",
    "w = torch.tensor([[0.1, 0.0, 5.0], [1., 1., 1.]]); print(torch.multinomial(w, 2))",
    "try:\n    torch.multinomial(torch.tensor([1., -1.]), 1)\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.multinomial(torch.tensor([0., 0.]), 1)\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.multinomial(torch.tensor([1, 2]), 1)\nexcept RuntimeError as e: print(e)",
    "o = torch.randn(1, 1, 6); print(o.squeeze().div(1.0).exp().shape, torch.multinomial(o.squeeze().exp(), 1).shape)",
    "print(math.exp(torch.tensor(2.5).item()), '{:8.2f}'.format(math.exp(5.3)), '{:5.2f}'.format(torch.tensor(1.23456).item()))",
    "print('| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | ms/batch {:5.2f} | loss {:5.2f} | ppl {:8.2f}'.format(1, 200, 2983, 20, 12.345, torch.tensor(6.1).item(), math.exp(6.1)))",
    "x = torch.tensor(5.0)\nprint('{:5.2f}'.format(x))",
    "x = torch.tensor([5.0])\ntry:\n    print('{:5.2f}'.format(x))\nexcept TypeError as e: print(e)",
    "x = torch.tensor(3)\nprint(f'{x:4d}', f'{x}', '{:>6}'.format(torch.tensor(2.5).item()))",
]]

TRANSFORMER_LM = r'''
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)

class TransformerModel(nn.Transformer):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers)
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        return torch.log(torch.tril(torch.ones(sz, sz)))

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            device = src.device
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = self._generate_square_subsequent_mask(len(src)).to(device)
                self.src_mask = mask
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)
'''

TLM = [TRANSFORMER_LM + s for s in [
    "pe = PositionalEncoding(6, max_len=10); print(pe.pe.shape, list(pe.state_dict().keys())); print(pe.pe[:3, 0])",
    "pe = PositionalEncoding(6, dropout=0.0, max_len=10); x = torch.zeros(4, 2, 6); print(pe(x)[:, 0, :2])",
    "m = TransformerModel(12, 8, 2, 16, 1); print(m._generate_square_subsequent_mask(3))",
    "m = TransformerModel(12, 8, 2, 16, 1); print(type(m).__mro__[1].__name__, m.model_type); print(sorted(k for k in m.state_dict() if not k.startswith('encoder') and not k.startswith('decoder.layers')))",
    "m = TransformerModel(12, 8, 2, 16, 1); print(len(m.state_dict()), sum(p.numel() for p in m.parameters()))",
    "m = TransformerModel(12, 8, 2, 16, 1, dropout=0.0); m.eval(); src = torch.randint(0, 12, (5, 2)); out = m(src); print(out.shape, out.grad_fn.name(), torch.allclose(out.exp().sum(-1), torch.ones(5, 2)))",
    "m = TransformerModel(12, 8, 2, 16, 1, dropout=0.0); m.eval(); src = torch.randint(0, 12, (5, 2)); a = m(src); b = m(torch.cat([src[:3], torch.randint(0, 12, (2, 2))])); print(torch.allclose(a[:3], b[:3], atol=1e-5))",
    "m = TransformerModel(12, 8, 2, 16, 1, dropout=0.0); src = torch.randint(0, 12, (5, 2)); out = m(src, has_mask=False); loss = F.nll_loss(out.view(-1, 12), torch.randint(0, 12, (10,))); loss.backward(); print(m.decoder.bias.grad.shape, m.input_emb.weight.grad.abs().sum() > 0)",
    "print(nn.Transformer.generate_square_subsequent_mask(4))",
    "print(torch.log(torch.tril(torch.ones(3, 3))).dtype, torch.triu(torch.full((3, 3), float('-inf')), diagonal=1))",
]]


DCGAN_MODEL = r'''
nz, ngf, ndf, nc = 4, 4, 4, 3
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        torch.nn.init.normal_(m.weight, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        torch.nn.init.normal_(m.weight, 1.0, 0.02)
        torch.nn.init.zeros_(m.bias)

class Generator(nn.Module):
    def __init__(self, ngpu=1):
        super(Generator, self).__init__()
        self.ngpu = ngpu
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False),
            nn.Tanh()
        )
    def forward(self, input):
        return self.main(input)

class Discriminator(nn.Module):
    def __init__(self, ngpu=1):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid()
        )
    def forward(self, input):
        output = self.main(input)
        return output.view(-1, 1).squeeze(1)
'''

DCGAN = [DCGAN_MODEL + s for s in [
    "netG = Generator(); netG.apply(weights_init); print(netG)",
    "netD = Discriminator(); print(netD.apply(weights_init) is netD); print(netD)",
    "netG = Generator(); netG.apply(weights_init); print(round(netG.main[0].weight.std().item(), 3), netG.main[1].bias.sum().item(), netG.main[0].weight.shape)",
    "netG = Generator(); noise = torch.randn(2, nz, 1, 1); out = netG(noise); print(out.shape, out.grad_fn.name(), out.abs().max().item() <= 1)",
    "netD = Discriminator(); x = torch.randn(2, nc, 16, 16); out = netD(x); print(out.shape, out.grad_fn.name())",
    "print([m.__class__.__name__ for m in Generator().modules()])",
    "print(nn.ConvTranspose2d.__name__.find('Conv'), 'BatchNorm2d'.find('Conv'))",
    """netG = Generator(); netD = Discriminator(); netG.apply(weights_init); netD.apply(weights_init)
criterion = nn.BCELoss()
fixed_noise = torch.randn(2, nz, 1, 1)
real_label, fake_label = 1, 0
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
real_cpu = torch.rand(2, nc, 16, 16) * 2 - 1
for i in range(2):
    netD.zero_grad()
    batch_size = real_cpu.size(0)
    label = torch.full((batch_size,), real_label, dtype=real_cpu.dtype)
    output = netD(real_cpu)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    noise = torch.randn(batch_size, nz, 1, 1)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optimizerG.step()
    print('[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f' % (0, 1, i, 2, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
print(label, label.dtype, errD.grad_fn.name())""",
    "print(torch.full((3,), 1, dtype=torch.float32), torch.full((2,), 1).dtype, torch.full((2,), 1.0).dtype, torch.full((2,), True).dtype)",
    "label = torch.full((3,), 1.); label.fill_(0); print(label); print(label.fill_(torch.tensor(2.5)))",
    "label = torch.full((3,), 1.)\ntry:\n    label.fill_(torch.tensor([1., 2.]))\nexcept RuntimeError as e: print(e)",
    "print(nn.BCELoss()(torch.tensor([0.5, 0.9]), torch.full((2,), 1)))",
    "try:\n    nn.BCELoss()(torch.tensor([0.5, 1.2]), torch.ones(2))\nexcept RuntimeError as e: print(e)",
    "try:\n    nn.BCELoss()(torch.tensor([0.5, 0.2]), torch.ones(3))\nexcept ValueError as e: print(e)",
    "print(nn.BCELoss()(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])), nn.BCELoss(reduction='none')(torch.tensor([0.0, 1.0]), torch.tensor([0.0, 1.0])))",
    "x = torch.tensor([0.0, 0.3], requires_grad=True); l = nn.BCELoss()(x, torch.tensor([1., 0.])); l.backward(); print(l, x.grad, l.grad_fn)",
    "m = nn.ConvTranspose2d(2, 3, 4, 2, 1, bias=False); print(m, m.weight.shape, m.bias, m(torch.randn(1, 2, 5, 5)).shape)",
    "m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1); print(m, m(torch.randn(1, 2, 4, 4)).shape)",
    "m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1); print(m(torch.randn(1, 2, 4, 4), output_size=[8, 8]).shape)",
    "m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)\ntry:\n    m(torch.randn(1, 2, 4, 4), output_size=[10, 10])\nexcept ValueError as e: print(e)",
    "m = nn.LeakyReLU(0.2, inplace=True); x = torch.tensor([-1., 2.]); y = m(x); print(m, y is x, x)",
    "vutils_like = torch.randn(4, 3, 2, 2); x = vutils_like.clamp(-1, 1).add(1).div(2); print(x.min() >= 0, x.max() <= 1, x.shape)",
]]

RL = [s for s in [
    r'''
Categorical = torch.distributions.Categorical
class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
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
gamma = 0.99
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
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss
rng = np.random.RandomState(0)
for ep in range(3):
    for t in range(5):
        a = select_action(rng.randn(4))
        policy.rewards.append(float(a) + 0.5)
    print(len(policy.saved_log_probs), policy.saved_log_probs[0].shape, policy.saved_log_probs[0].grad_fn.name())
    l = finish_episode()
    print(ep, round(l.item(), 4), l.grad_fn.name(), len(policy.rewards))
print(eps, type(eps))
''',
    r'''
Categorical = torch.distributions.Categorical
from collections import namedtuple
SavedAction = namedtuple('SavedAction', ['log_prob', 'value'])
class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.action_head = nn.Linear(16, 2)
        self.value_head = nn.Linear(16, 1)
        self.saved_actions = []
        self.rewards = []
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
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
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
    del model.rewards[:]
    del model.saved_actions[:]
    return loss, policy_losses, value_losses
rng = np.random.RandomState(1)
for ep in range(2):
    for t in range(4):
        a = select_action(rng.randn(4))
        model.rewards.append(1.0 if a else 0.0)
    loss, pl, vl = finish_episode()
    print(ep, round(loss.item(), 4), loss.grad_fn.name(), pl[0].shape, vl[0].shape, vl[0].grad_fn.name(), pl[0].dtype)
''',
    "C = torch.distributions.Categorical(torch.tensor([0.2, 0.8])); a = C.sample(); print(a, a.dtype, a.shape, C.log_prob(a), C.entropy(), C.probs, C.logits)",
    "C = torch.distributions.Categorical(probs=torch.tensor([[0.2, 0.8], [0.5, 0.5]])); a = C.sample(); print(a, C.log_prob(a), C.batch_shape, C.event_shape, C.sample((3,)).shape)",
    "C = torch.distributions.Categorical(logits=torch.tensor([1., 2., 3.])); print(C.probs, C.sample((4,)), C.log_prob(torch.tensor(2)))",
    "C = torch.distributions.Categorical(torch.tensor([2., 6.])); print(C.probs, C)",
    "try:\n    torch.distributions.Categorical(torch.tensor([0.2, -0.8]))\nexcept ValueError as e: print(e)",
    "C = torch.distributions.Categorical(torch.tensor([0.2, 0.8]))\ntry:\n    C.log_prob(torch.tensor(2))\nexcept ValueError as e: print(e)",
    "p = torch.tensor([0.3, 0.7], requires_grad=True); C = torch.distributions.Categorical(p); lp = C.log_prob(torch.tensor(1)); lp.backward(); print(lp, p.grad)",
    "returns = torch.tensor([3., 2., 1.]); eps = np.finfo(np.float32).eps.item(); print((returns - returns.mean()) / (returns.std() + eps))",
    "print(np.finfo(np.float32).eps, torch.finfo(torch.float32).eps, torch.finfo(torch.float32).tiny, torch.finfo(torch.float16))",
    "r = torch.tensor([1.0]); print((r - r.mean()) / (r.std() + 1e-7), r.std())",
    "print(F.smooth_l1_loss(torch.tensor([0.5]), torch.tensor([2.0])), F.smooth_l1_loss(torch.tensor([0.5, 1.]), torch.tensor([0.7, 1.5]), beta=0.5))",
    "v = torch.tensor([0.3], requires_grad=True); l = F.smooth_l1_loss(v, torch.tensor([1.2])); l.backward(); print(l, l.grad_fn.name(), v.grad)",
    "print(F.smooth_l1_loss(torch.tensor([[0.5]]), torch.tensor([1.5])))",
    "print(nn.SmoothL1Loss(beta=0.0)(torch.tensor([0.5, 3.]), torch.tensor([0., 0.])), nn.HuberLoss(delta=2.0)(torch.tensor([0.5, 3.]), torch.tensor([0., 0.])))",
    "lps = [torch.tensor([-0.5], requires_grad=True), torch.tensor([-1.5], requires_grad=True)]; R = torch.tensor([1., -1.]); l = torch.cat([-lp * r for lp, r in zip(lps, R)]).sum(); print(l, l.grad_fn.name())",
    "lps = [torch.tensor(-0.5, requires_grad=True), torch.tensor(-1.5)]\ntry:\n    torch.cat(lps)\nexcept RuntimeError as e: print(e)",
    "lps = [torch.tensor(-0.5, requires_grad=True), torch.tensor(-1.5)]; s = torch.stack(lps); print(s, s.grad_fn.name())",
    "state = np.array([0.1, -0.2, 0.3, 0.0]); s = torch.from_numpy(state).float().unsqueeze(0); print(s, s.dtype, s.shape)",
    "N = torch.distributions.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])); a = N.sample(); print(a, N.log_prob(a).sum(), N.entropy())",
]]


SR = [s for s in [
    r'''
init = torch.nn.init
class Net(nn.Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(8, 4, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(4, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()
    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x
    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv2.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv3.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv4.weight)
model = Net(upscale_factor=3)
print(model)
x = torch.rand(2, 1, 4, 4)
out = model(x)
print(out.shape, out.grad_fn.name())
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
target = torch.rand(2, 1, 12, 12)
for it in range(3):
    optimizer.zero_grad()
    loss = criterion(model(x), target)
    loss.backward()
    optimizer.step()
    mse = loss.item()
    psnr = 10 * math.log10(1 / mse)
    print("===> Epoch[{}]: Loss: {:.4f} PSNR {:.2f} dB".format(it, mse, psnr))
''',
    "print(init.calculate_gain('relu'), init.calculate_gain('tanh'), init.calculate_gain('leaky_relu', 0.2), init.calculate_gain('selu'), init.calculate_gain('conv2d'), init.calculate_gain('sigmoid'))",
    "print(init.calculate_gain('leaky_relu'), init.calculate_gain('linear'))",
    "try:\n    init.calculate_gain('gelu')\nexcept ValueError as e: print(e)",
    "try:\n    init.calculate_gain('leaky_relu', 'a')\nexcept ValueError as e: print(e)",
    "w = torch.empty(4, 6); init.orthogonal_(w); print(torch.allclose(w @ w.T, torch.eye(4), atol=1e-5))",
    "w = torch.empty(6, 2, 3, 3); init.orthogonal_(w, gain=2.0); f = w.view(6, -1); print(torch.allclose(f @ f.T, 4 * torch.eye(6), atol=1e-4))",
    "w = torch.empty(5)\ntry:\n    init.orthogonal_(w)\nexcept ValueError as e: print(e)",
    "ps = nn.PixelShuffle(2); x = torch.arange(16.).view(1, 4, 2, 2); print(ps, ps(x))",
    "pu = nn.PixelUnshuffle(2); x = torch.arange(16.).view(1, 1, 4, 4); print(pu, pu(x).shape, torch.equal(nn.PixelShuffle(2)(pu(x)), x))",
    "try:\n    nn.PixelShuffle(2)(torch.randn(1, 3, 2, 2))\nexcept RuntimeError as e: print(e)",
    "x = torch.randn(1, 4, 2, 2, requires_grad=True); y = F.pixel_shuffle(x, 2); print(y.grad_fn.name(), y.is_contiguous())",
    "print(10 * math.log10(1 / torch.tensor(0.01).item()), 10 * torch.log10(1 / torch.tensor(0.01)))",
]]

FNS = [s for s in [
    r'''
def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    gram = features.bmm(features_t) / (ch * h * w)
    return gram
y = torch.randn(2, 3, 4, 4)
g = gram_matrix(y)
print(g.shape, torch.allclose(g, g.transpose(1, 2)), round(g[0, 0, 0].item(), 4))
''',
    r'''
class ConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)
    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out
class ResidualBlock(torch.nn.Module):
    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.relu = torch.nn.ReLU()
    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out
class UpsampleConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)
    def forward(self, x):
        x_in = x
        if self.upsample:
            x_in = torch.nn.functional.interpolate(x_in, mode='nearest', scale_factor=self.upsample)
        out = self.reflection_pad(x_in)
        out = self.conv2d(out)
        return out
class TransformerNet(torch.nn.Module):
    def __init__(self):
        super(TransformerNet, self).__init__()
        self.conv1 = ConvLayer(3, 4, kernel_size=9, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(4, affine=True)
        self.conv2 = ConvLayer(4, 8, kernel_size=3, stride=2)
        self.in2 = torch.nn.InstanceNorm2d(8, affine=True)
        self.res1 = ResidualBlock(8)
        self.deconv1 = UpsampleConvLayer(8, 4, kernel_size=3, stride=1, upsample=2)
        self.in4 = torch.nn.InstanceNorm2d(4, affine=True)
        self.deconv3 = ConvLayer(4, 3, kernel_size=9, stride=1)
        self.relu = torch.nn.ReLU()
    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.res1(y)
        y = self.relu(self.in4(self.deconv1(y)))
        y = self.deconv3(y)
        return y
net = TransformerNet()
print(net.res1)
x = torch.rand(1, 3, 8, 8) * 255
y = net(x)
print(y.shape, y.grad_fn.name())
print(sorted(k for k in net.state_dict() if 'in1' in k))
sd = net.state_dict()
print(len(sd), [k for k in sd if k.endswith('running_mean')])
opt = torch.optim.Adam(net.parameters(), 1e-3)
loss = F.mse_loss(y, x)
loss.backward(); opt.step()
print(round(loss.item(), 2) > 0, net.in1.weight.grad.shape)
''',
    "m = nn.InstanceNorm2d(3, affine=True); print(m, m.weight, m.running_mean, list(m.state_dict()))",
    "m = nn.InstanceNorm2d(3, track_running_stats=True); print(m, list(m.state_dict())); m(torch.randn(2, 3, 4, 4)); print(m.running_mean.shape, m.num_batches_tracked)",
    "m = nn.InstanceNorm2d(2); x = torch.arange(32.).view(1, 2, 4, 4); print(m(x)[0, 0, 0])",
    "m = nn.InstanceNorm2d(2)\ntry:\n    m(torch.randn(2, 2, 1, 1))\nexcept ValueError as e: print(e)",
    "m = nn.InstanceNorm1d(3); print(m(torch.randn(2, 3, 5)).shape)",
    "m = nn.ReflectionPad2d(1); x = torch.arange(9.).view(1, 1, 3, 3); print(m, m(x))",
    "m = nn.ReflectionPad2d((1, 0, 2, 0)); x = torch.arange(9.).view(1, 1, 3, 3); print(m, m(x))",
    "m = nn.ReflectionPad2d(3)\ntry:\n    m(torch.randn(1, 1, 3, 3))\nexcept RuntimeError as e: print(e)",
    "m = nn.Upsample(scale_factor=2, mode='nearest'); x = torch.arange(4.).view(1, 1, 2, 2); print(m, m(x))",
    "m = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False); x = torch.arange(4.).view(1, 1, 2, 2); print(m, m(x))",
    "m = nn.Upsample(size=(3, 5), mode='bilinear', align_corners=True); x = torch.arange(4.).view(1, 1, 2, 2); print(m, m(x))",
    "print(F.interpolate(torch.arange(4.).view(1, 1, 4), scale_factor=1.5, mode='linear'))",
    "print(F.interpolate(torch.arange(4.).view(1, 1, 2, 2), scale_factor=2))",
    "try:\n    F.interpolate(torch.arange(4.).view(1, 1, 2, 2), scale_factor=2, mode='linear')\nexcept NotImplementedError as e: print(e)",
    "try:\n    F.interpolate(torch.arange(4.).view(1, 1, 2, 2), size=3, scale_factor=2)\nexcept ValueError as e: print(e)",
    "x = torch.rand(1, 3, 2, 2); mean = torch.tensor([0.485, 0.456, 0.406]).view(-1, 1, 1); std = torch.tensor([0.229, 0.224, 0.225]).view(-1, 1, 1); y = x.div_(255.0); print(((y - mean) / std).shape, mean.shape)",
    "img = torch.rand(3, 2, 2) * 300; img = img.clone().clamp(0, 255).numpy(); img = img.transpose(1, 2, 0).astype('uint8'); print(img.shape, img.dtype)",
    "x = torch.randn(2, 3, 4, 4); b = x.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1); print(b.dtype, (x - b).shape)",
]]

SIAMESE = [r'''
class SiameseNetwork(nn.Module):
    def __init__(self):
        super(SiameseNetwork, self).__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d((2, 2)), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(16, 8), nn.ReLU(inplace=True), nn.Linear(8, 1))
        self.sigmoid = nn.Sigmoid()
        self.cnn.apply(self.init_weights)
        self.fc.apply(self.init_weights)
    def init_weights(self, m):
        if isinstance(m, nn.Linear):
            torch.nn.init.xavier_uniform_(m.weight)
            m.bias.data.fill_(0.01)
    def forward_once(self, x):
        output = self.cnn(x)
        output = output.view(output.size()[0], -1)
        return output
    def forward(self, input1, input2):
        output1 = self.forward_once(input1)
        output2 = self.forward_once(input2)
        output = torch.abs(output1 - output2)
        output = self.fc(output)
        output = self.sigmoid(output)
        return output
model = SiameseNetwork()
print(model.fc[0].bias[:3])
criterion = nn.BCELoss()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
a, b = torch.randn(4, 1, 6, 6), torch.randn(4, 1, 6, 6)
targets = torch.tensor([1, 0, 1, 0])
for epoch in range(2):
    optimizer.zero_grad()
    outputs = model(a, b).squeeze()
    loss = criterion(outputs, targets.float())
    loss.backward()
    optimizer.step()
    scheduler.step()
    pred = torch.where(outputs > 0.5, 1, 0)
    correct = pred.eq(targets.view_as(pred)).sum().item()
    print(epoch, round(loss.item(), 4), correct, scheduler.get_last_lr(), pred.dtype)
''',
    "o = torch.tensor([0.2, 0.7]); print(torch.where(o > 0.5, 1, 0), torch.where(o > 0.5, 1.0, 0), torch.where(o > 0.5, o, 0).dtype, torch.where(o > 0.5, torch.tensor(1), 0).dtype)",
    "print(torch.where(torch.tensor([True, False]), 1.5, torch.tensor([1, 2])), torch.where(torch.tensor([True, False]), torch.tensor(1.5, dtype=torch.float64), torch.tensor([1., 2.])).dtype)",
]

TSP = [r'''
class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, 6)
        self.lstm2 = nn.LSTMCell(6, 6)
        self.linear = nn.Linear(6, 1)
    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 6, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 6, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 6, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 6, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs
np.random.seed(2)
T, L, N = 20, 12, 5
x = np.empty((N, L), 'int64')
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype('float64')
input = torch.from_numpy(data[2:, :-1])
target = torch.from_numpy(data[2:, 1:])
test_input = torch.from_numpy(data[:2, :-1])
test_target = torch.from_numpy(data[:2, 1:])
seq = Sequence()
seq.double()
print(seq.lstm1.weight_ih.dtype, input.dtype, input.shape)
criterion = nn.MSELoss()
optimizer = torch.optim.LBFGS(seq.parameters(), lr=0.8)
for i in range(2):
    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print('loss:', round(loss.item(), 6))
        loss.backward()
        return loss
    r = optimizer.step(closure)
    print('step', i, type(r).__name__, round(r.item(), 6))
    with torch.no_grad():
        future = 3
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print('test loss:', round(loss.item(), 6))
        y = pred.detach().numpy()
print(y.shape, y.dtype, len(optimizer.state_dict()['state']), sorted(optimizer.state_dict()['state'][0].keys()))
''',
    "c = nn.LSTMCell(2, 3); print(c, c.weight_ih.shape, c.bias_hh.shape); h, cc = c(torch.randn(4, 2)); print(h.shape, h.grad_fn.name())",
    "c = nn.LSTMCell(2, 3); h, cc = c(torch.randn(2)); print(h.shape, cc.shape)",
    "c = nn.GRUCell(2, 3, bias=False); print(c, c.bias_ih); print(c(torch.randn(4, 2), torch.zeros(4, 3)).shape)",
    "c = nn.RNNCell(2, 3, nonlinearity='relu'); print(c); print(c(torch.randn(4, 2)).min() >= 0)",
    "c = nn.LSTMCell(2, 3)\ntry:\n    c(torch.randn(4, 5))\nexcept RuntimeError as e: print(e)",
    "c = nn.LSTMCell(2, 3)\ntry:\n    c(torch.randn(4, 2), (torch.zeros(3, 3), torch.zeros(4, 3)))\nexcept RuntimeError as e: print(e)",
    "c = nn.LSTMCell(2, 3).double()\ntry:\n    c(torch.randn(4, 2))\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(12.).view(2, 6); print([t.shape for t in x.split(1, dim=1)][:2], len(x.split(4, 1)), x.split([2, 4], 1)[1])",
    "x = torch.arange(12.).view(2, 6)\ntry:\n    x.split([2, 3], 1)\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(12.).view(2, 6); print(x.chunk(4, 1)[-1].shape, len(x.chunk(4, 1)), x.tensor_split(4, 1)[-1].shape, len(x.unbind(1)))",
]

REGRESSION = [r'''
POLY_DEGREE = 4
W_target = torch.randn(POLY_DEGREE, 1) * 5
b_target = torch.randn(1) * 5
def make_features(x):
    x = x.unsqueeze(1)
    return torch.cat([x ** i for i in range(1, POLY_DEGREE+1)], 1)
def f(x):
    return x.mm(W_target) + b_target.item()
def poly_desc(W, b):
    result = 'y = '
    for i, w in enumerate(W):
        result += '{:+.2f} x^{} '.format(w, i + 1)
    result += '{:+.2f}'.format(b[0])
    return result
def get_batch(batch_size=32):
    random = torch.randn(batch_size)
    x = make_features(random)
    y = f(x)
    return x, y
fc = torch.nn.Linear(W_target.size(0), 1)
for batch_idx in range(1, 4):
    batch_x, batch_y = get_batch()
    fc.zero_grad()
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()
    output.backward()
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)
    print('{:.4f}'.format(loss))
print('Loss: {:.4f} after {} batches'.format(loss, batch_idx))
print('==> Learned function:\t' + poly_desc(fc.weight.view(-1), fc.bias))
print('==> Actual function:\t' + poly_desc(W_target.view(-1), b_target))
''',
    "w = torch.tensor([1.5, -2.25]); print(['{:+.2f}'.format(v) for v in w], '{:.3e}'.format(torch.tensor(12345.678)), '{:g}'.format(torch.tensor(0.5)))",
    "print('{:+.2f}'.format(torch.tensor(3, dtype=torch.int32)), '{:d}'.format(torch.tensor(7)), '{:.1%}'.format(torch.tensor(0.256)))",
    "x = torch.tensor(2.5, requires_grad=True)\nprint('{:.2f}'.format(x), format(x, '.3f'), f'{x * 2:.1f}')",
    "try:\n    print('{:d}'.format(torch.tensor(2.5)))\nexcept ValueError as e: print(e)",
    "x = torch.randn(3); print(torch.cat([x.unsqueeze(1) ** i for i in range(1, 4)], 1).shape)",
    "x = torch.randn(3, 2); p = nn.Parameter(torch.zeros(2, 1)); y = x.mm(p) + torch.tensor([1.]).item(); print(y.shape, y.grad_fn.name())",
    "try:\n    torch.randn(3, 2).mm(torch.randn(3, 1))\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.randn(3).mm(torch.randn(3, 1))\nexcept RuntimeError as e: print(e)",
    "fc = nn.Linear(2, 1); fc(torch.randn(4, 2)).sum().backward()\nfor param in fc.parameters():\n    param.data.add_(-0.1 * param.grad)\nprint(fc.bias.grad, fc.weight.requires_grad, fc.weight.grad_fn)",
    "fc = nn.Linear(2, 1)\nfor param in fc.parameters():\n    try:\n        param.add_(1.0)\n    except RuntimeError as e: print(e)",
]


MNIST_NET = r'''
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(8 * 5 * 5, 16)
        self.fc2 = nn.Linear(16, 10)
    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output
data = torch.randn(12, 1, 14, 14); labels = torch.randint(0, 10, (12,))
ds = torch.utils.data.TensorDataset(data, labels)
train_loader = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True)
test_loader = torch.utils.data.DataLoader(ds, batch_size=5)
'''

MNIST = [MNIST_NET + s for s in [
    "model = Net(); print(model); print(sum(p.numel() for p in model.parameters()))",
    """model = Net()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
def train(model, train_loader, optimizer, epoch, log_interval=1):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\\tLoss: {:.4f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item()))
def test(model, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    print('\\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\\n'.format(
        test_loss, correct, len(test_loader.dataset),
        100. * correct / len(test_loader.dataset)))
for epoch in range(1, 3):
    train(model, train_loader, optimizer, epoch)
    test(model, test_loader)
    scheduler.step()
print(scheduler.get_last_lr(), optimizer.param_groups[0]['lr'])
print(sorted(optimizer.state_dict()['state'][0].keys()), optimizer.state_dict()['param_groups'][0]['rho'])""",
    "model = Net(); model.eval(); out = model(data[:2]); pred = out.argmax(dim=1, keepdim=True); print(pred.shape, pred.dtype, labels[:2].view_as(pred).shape, pred.eq(labels[:2].view_as(pred)))",
    "model = Net(); out = model(data[:3]); print(F.nll_loss(out, labels[:3], reduction='sum').grad_fn.name(), F.nll_loss(out, labels[:3]).grad_fn.name(), out.grad_fn.name())",
    "print(len(train_loader), len(test_loader), len(train_loader.dataset), [b[0].shape for b in test_loader])",
    "model = Net(); import io; torch.save(model.state_dict(), io.BytesIO()); print(list(model.state_dict().keys()))",
    "opt = torch.optim.Adadelta(Net().parameters(), lr=1.0); print(opt)",
    "opt = torch.optim.SGD(Net().parameters(), lr=0.1); s = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)\nfor i in range(5):\n    opt.step(); s.step(); print(i, s.get_last_lr(), s.last_epoch)",
    "x = torch.randn(2, 3, 5, 5); print(torch.flatten(x, 1).shape, torch.flatten(x).shape, torch.flatten(x, 1, 2).shape, x.flatten(start_dim=-2).shape)",
    "try:\n    torch.flatten(torch.randn(2, 3), 2)\nexcept IndexError as e: print(e)",
    "try:\n    torch.flatten(torch.randn(2, 3, 4), 2, 1)\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(16.).view(1, 1, 4, 4); print(F.max_pool2d(x, 2), F.max_pool2d(x, 3, 1).shape, F.max_pool2d(x, 2, return_indices=True)[1])",
    "x = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.5, 0.0]]); print(x.argmax(dim=1, keepdim=True), x.argmax(1), x.argmax(), x.max(1))",
    "t = torch.tensor([3, 1]); p = torch.tensor([[3], [2]]); c = p.eq(t.view_as(p)).sum(); print(c, c.item(), type(c.item()))",
    "t = torch.tensor([3, 1, 2])\ntry:\n    t.view_as(torch.zeros(2, 2))\nexcept RuntimeError as e: print(e)",
    "print(F.nll_loss(torch.log_softmax(torch.randn(3, 4), 1), torch.tensor([0, 3, 1]), reduction='sum'), F.nll_loss(torch.log_softmax(torch.randn(3, 4), 1), torch.tensor([0, 3, -100])))",
    "try:\n    F.nll_loss(torch.randn(3, 4), torch.tensor([0, 4, 1]))\nexcept IndexError as e: print(e)",
    "try:\n    F.nll_loss(torch.randn(3, 4), torch.tensor([0., 1., 1.]))\nexcept RuntimeError as e: print(e)",
    "try:\n    F.nll_loss(torch.randn(3, 4), torch.tensor([0, 1]))\nexcept ValueError as e: print(e)",
    "print(F.nll_loss(torch.randn(2, 3).log_softmax(1), torch.tensor([1, 2]), weight=torch.tensor([1., 2., 3.])))",
    "d = nn.Dropout(0.5); x = torch.ones(8); print(d(x), d.eval()(x), d)",
    "print(F.dropout(torch.ones(6), 0.5, training=False), F.dropout(torch.ones(6), p=0.5), F.dropout(torch.ones(4), 1.0), F.dropout(torch.ones(4), 0.0))",
    "try:\n    nn.Dropout(1.5)\nexcept ValueError as e: print(e)",
]]

FF = [r'''
def overlay_y_on_x(x, y):
    x_ = x.clone()
    x_[:, :10] *= 0.0
    x_[range(x.shape[0]), y] = x.max()
    return x_
class Layer(nn.Linear):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias, device, dtype)
        self.relu = torch.nn.ReLU()
        self.opt = torch.optim.Adam(self.parameters(), lr=0.03)
        self.threshold = 2.0
        self.num_epochs = 3
    def forward(self, x):
        x_direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
        return self.relu(torch.mm(x_direction, self.weight.T) + self.bias.unsqueeze(0))
    def train(self, x_pos, x_neg):
        for i in range(self.num_epochs):
            g_pos = self.forward(x_pos).pow(2).mean(1)
            g_neg = self.forward(x_neg).pow(2).mean(1)
            loss = torch.log(1 + torch.exp(torch.cat([-g_pos + self.threshold, g_neg - self.threshold]))).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return self.forward(x_pos).detach(), self.forward(x_neg).detach()
class Net(torch.nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = []
        for d in range(len(dims) - 1):
            self.layers += [Layer(dims[d], dims[d + 1])]
    def predict(self, x):
        goodness_per_label = []
        for label in range(10):
            h = overlay_y_on_x(x, label)
            goodness = []
            for layer in self.layers:
                h = layer(h)
                goodness += [h.pow(2).mean(1)]
            goodness_per_label += [sum(goodness).unsqueeze(1)]
        goodness_per_label = torch.cat(goodness_per_label, 1)
        return goodness_per_label.argmax(1)
    def train(self, x_pos, x_neg):
        h_pos, h_neg = x_pos, x_neg
        for i, layer in enumerate(self.layers):
            h_pos, h_neg = layer.train(h_pos, h_neg)
x = torch.rand(6, 20); y = torch.randint(0, 10, (6,))
x_pos = overlay_y_on_x(x, y)
rnd = torch.randperm(x.size(0))
x_neg = overlay_y_on_x(x, y[rnd])
print(x_pos[:, :10])
net = Net([20, 8, 8])
print(list(net.parameters()), len(net.layers))
net.train(x_pos, x_neg)
p = net.predict(x)
print(p.shape, p.dtype, round(1.0 - p.eq(y).float().mean().item(), 4))
print(net.layers[0])
''',
    "x = torch.rand(3, 12); y = torch.tensor([1, 5, 9]); x_ = x.clone(); x_[:, :10] *= 0.0; x_[range(3), y] = x.max(); print((x_[:, :10] > 0).int(), torch.equal(x_[:, 10:], x[:, 10:]))",
    "x = torch.zeros(3, 4); x[range(3), 2] = 5.; x[[0, 2], [1, 3]] = torch.tensor([7., 8.]); print(x)",
    "x = torch.zeros(3, 4); x[range(1, 3)] = 1; print(x, x[range(2)].shape)",
    "x = torch.randn(4, 3); print(x.norm(2, 1, keepdim=True).shape, torch.allclose((x / x.norm(2, 1, keepdim=True)).norm(dim=1), torch.ones(4)))",
    "x = torch.tensor([[3., 4.], [0., 0.]]); print(x.norm(2, 1, keepdim=True), x.norm(p=1), x.norm(dim=1, p=float('inf')), x.norm('fro'))",
    "print(sum([torch.tensor([1., 2.]), torch.tensor([3., 4.])]), sum([torch.tensor(1.), torch.tensor(2.)], torch.tensor(10.)))",
]

GCN = [r'''
class GraphConv(nn.Module):
    def __init__(self, input_dim, output_dim, use_bias=False):
        super(GraphConv, self).__init__()
        self.kernel = nn.Parameter(torch.Tensor(input_dim, output_dim))
        nn.init.xavier_normal_(self.kernel)
        self.bias = None
        if use_bias:
            self.bias = nn.Parameter(torch.Tensor(output_dim))
            nn.init.zeros_(self.bias)
    def forward(self, input_tensor, adj_mat):
        support = torch.mm(input_tensor, self.kernel)
        output = torch.spmm(adj_mat, support)
        if self.bias is not None:
            output = output + self.bias
        return output
class GCN(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, use_bias=True, dropout_p=0.1):
        super(GCN, self).__init__()
        self.gc1 = GraphConv(input_dim, hidden_dim, use_bias=use_bias)
        self.gc2 = GraphConv(hidden_dim, output_dim, use_bias=use_bias)
        self.dropout = nn.Dropout(dropout_p)
    def forward(self, input_tensor, adj_mat):
        x = self.gc1(input_tensor, adj_mat)
        x = F.relu(x)
        x = self.dropout(x)
        x = self.gc2(x, adj_mat)
        return F.log_softmax(x, dim=1)
edges = torch.tensor([[0, 1, 1, 2, 3, 4, 2], [1, 0, 2, 1, 4, 3, 0]])
N = 5
adj = torch.sparse_coo_tensor(edges, torch.ones(edges.size(1)), (N, N))
adj = adj + torch.eye(N).to_sparse()
deg = torch.sparse.sum(adj, dim=1).to_dense()
d_inv_sqrt = deg.pow(-0.5)
d_inv_sqrt[torch.isinf(d_inv_sqrt)] = 0.
D = torch.diag(d_inv_sqrt)
adj_norm = (D @ adj.to_dense() @ D).to_sparse()
print(deg, adj_norm.is_sparse, adj_norm._nnz(), adj_norm.layout)
features = torch.randn(N, 6); labels = torch.tensor([0, 1, 0, 1, 1])
model = GCN(6, 8, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(3):
    model.train(); optimizer.zero_grad()
    output = model(features, adj_norm)
    loss = F.nll_loss(output[:3], labels[:3])
    loss.backward(); optimizer.step()
    acc = (output.argmax(1)[:3] == labels[:3]).float().mean()
    print(epoch, round(loss.item(), 4), acc.item(), output.grad_fn.name())
print([n for n, _ in model.named_parameters()], model.gc1.kernel.grad.shape)
''',
    r'''
class GraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, n_heads, concat=False, dropout=0.4, leaky_relu_slope=0.2):
        super(GraphAttentionLayer, self).__init__()
        self.n_heads = n_heads
        self.concat = concat
        self.dropout = dropout
        if concat:
            self.out_features = out_features
            assert out_features % n_heads == 0
            self.n_hidden = out_features // n_heads
        else:
            self.n_hidden = out_features
        self.W = nn.Parameter(torch.empty(size=(in_features, self.n_hidden * n_heads)))
        self.a = nn.Parameter(torch.empty(size=(n_heads, 2 * self.n_hidden, 1)))
        self.leakyrelu = nn.LeakyReLU(leaky_relu_slope)
        self.softmax = nn.Softmax(dim=1)
        nn.init.xavier_normal_(self.W)
        nn.init.xavier_normal_(self.a)
    def _get_attention_scores(self, h_transformed):
        source_scores = torch.matmul(h_transformed, self.a[:, :self.n_hidden, :])
        target_scores = torch.matmul(h_transformed, self.a[:, self.n_hidden:, :])
        e = source_scores + target_scores.mT
        return self.leakyrelu(e)
    def forward(self, h, adj_mat):
        n_nodes = h.shape[0]
        h_transformed = torch.mm(h, self.W)
        h_transformed = F.dropout(h_transformed, self.dropout, training=self.training)
        h_transformed = h_transformed.view(n_nodes, self.n_heads, self.n_hidden).permute(1, 0, 2)
        e = self._get_attention_scores(h_transformed)
        connectivity_mask = -9e16 * torch.ones_like(e)
        e = torch.where(adj_mat > 0, e, connectivity_mask)
        attention = F.softmax(e, dim=-1)
        attention = F.dropout(attention, self.dropout, training=self.training)
        h_prime = torch.matmul(attention, h_transformed)
        if self.concat:
            h_prime = h_prime.permute(1, 0, 2).contiguous().view(n_nodes, self.out_features)
        else:
            h_prime = h_prime.mean(dim=0)
        return h_prime
adj = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]])
h = torch.randn(4, 5)
l1 = GraphAttentionLayer(5, 6, 2, concat=True)
l2 = GraphAttentionLayer(6, 3, 1, concat=False)
l1.eval(); l2.eval()
o1 = F.elu(l1(h, adj))
o2 = l2(o1, adj)
print(o1.shape, o2.shape, o2.grad_fn.name(), l1.a.shape)
e = l1._get_attention_scores(torch.mm(h, l1.W).view(4, 2, 3).permute(1, 0, 2))
print(e.shape, e.grad_fn.name())
att = F.softmax(torch.where(adj > 0, e, -9e16 * torch.ones_like(e)), dim=-1)
print((att[0] > 0).int(), torch.allclose(att.sum(-1), torch.ones(2, 4)))
l1.train(); print(l1(h, adj).shape)
F.log_softmax(o2, 1)[[0, 1], [0, 2]].sum().backward(); print(l1.W.grad.shape)
''',
    "x = torch.zeros(5); idx = torch.tensor([0, 1, 0, 3]); src = torch.tensor([1., 2., 3., 4.]); print(x.scatter_add_(0, idx, src), x.scatter_add(0, idx, src))",
    "x = torch.zeros(3, 2); idx = torch.tensor([[0, 1], [2, 0], [0, 0]]); print(x.scatter_add_(0, idx, torch.ones(3, 2)))",
    "edge_index = torch.tensor([[0, 1, 2, 2], [1, 2, 0, 1]]); h = torch.arange(6.).view(3, 2); msg = h.index_select(0, edge_index[0]); out = torch.zeros(3, 2).index_add_(0, edge_index[1], msg); print(msg, out)",
    "edge_index = torch.tensor([[0, 1, 2, 2], [1, 2, 0, 1]]); h = torch.arange(6.).view(3, 2); out = torch.zeros(3, 2).scatter_add_(0, edge_index[1].unsqueeze(-1).expand(-1, 2), h[edge_index[0]]); print(out)",
    "deg = torch.zeros(3).scatter_add_(0, torch.tensor([0, 0, 2]), torch.ones(3)); print(deg, deg.pow(-0.5), deg.pow(-0.5).masked_fill(deg == 0, 0))",
    "try:\n    torch.zeros(3).scatter_add_(0, torch.tensor([0, 5]), torch.ones(2))\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.zeros(3).scatter_add_(0, torch.tensor([0., 1.]), torch.ones(2))\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.zeros(3).index_select(0, torch.tensor([0, 3]))\nexcept IndexError as e: print(e)",
    "try:\n    torch.zeros(3).index_select(0, torch.tensor([[0, 1]]))\nexcept IndexError as e: print(e)",
    "h = torch.randn(3, 2, requires_grad=True); out = torch.zeros(3, 2).scatter_add(0, torch.tensor([[0, 0], [0, 0], [1, 1]]), h); out.sum().backward(); print(out.grad_fn.name(), h.grad)",
    "e = torch.tensor([[1., 2., 3.], [0.5, -1., 0.]]); mask = torch.tensor([[True, False, True], [False, False, True]]); print(F.softmax(e.masked_fill(~mask, float('-inf')), dim=1))",
    "e = torch.tensor([[1., 2.], [0.5, -1.]]); print(F.softmax(e.masked_fill(torch.ones(2, 2, dtype=torch.bool), float('-inf')), dim=1))",
    "e = torch.tensor([1., 2., -3.]); print(F.leaky_relu(e, 0.2), nn.LeakyReLU(0.2)(e), nn.LeakyReLU(), nn.LeakyReLU(0.1, inplace=True), F.elu(e))",
    "i = torch.tensor([[0, 1, 1], [2, 0, 2]]); v = torch.tensor([3., 4., 5.]); s = torch.sparse_coo_tensor(i, v, (2, 3)); print(s); print(s.to_dense(), torch.sparse.mm(s, torch.ones(3, 1)))",
    "i = torch.tensor([[0, 1, 1], [2, 0, 2]]); s = torch.sparse_coo_tensor(i, torch.tensor([3., 4., 5.]), (2, 3)); print(torch.spmm(s, torch.eye(3)), (s @ torch.ones(3, 2)).shape)",
    "i = torch.tensor([[0, 0], [1, 1]]); s = torch.sparse_coo_tensor(i, torch.tensor([1., 2.]), (2, 2)); print(s.is_coalesced(), s.coalesce(), s.coalesce().indices(), s.coalesce().values())",
    "s = torch.eye(3).to_sparse(); print(torch.sparse.sum(s, dim=1), torch.sparse.sum(s), s.to_dense().sum(1))",
]

VIT = [r'''
class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, embed_dim=12):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)
class ViT(nn.Module):
    def __init__(self, img_size=8, patch_size=4, num_classes=5, dim=12, depth=1, heads=2):
        super().__init__()
        self.patch_embed = PatchEmbed(img_size, patch_size, 3, dim)
        n = self.patch_embed.num_patches
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, n + 1, dim))
        nn.init.trunc_normal_(self.pos_embed, std=.02)
        nn.init.trunc_normal_(self.cls_token, std=.02)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.0, batch_first=True, norm_first=True, activation='gelu')
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)
        self.apply(self._init_weights)
    def _init_weights(self, m):
        if isinstance(m, nn.Linear):
            nn.init.trunc_normal_(m.weight, std=.02)
            if m.bias is not None:
                nn.init.constant_(m.bias, 0)
        elif isinstance(m, nn.LayerNorm):
            nn.init.constant_(m.bias, 0)
            nn.init.constant_(m.weight, 1.0)
    def forward(self, x):
        B = x.shape[0]
        x = self.patch_embed(x)
        cls_tokens = self.cls_token.expand(B, -1, -1)
        x = torch.cat((cls_tokens, x), dim=1)
        x = x + self.pos_embed
        x = self.encoder(x)
        x = self.norm(x)
        return self.head(x[:, 0])
model = ViT()
'''
] + [s for s in [
    "print(model.patch_embed.num_patches, model.cls_token.shape, model.pos_embed.shape, model.pos_embed.abs().max().item() <= 0.04)",
    "x = torch.randn(2, 3, 8, 8); out = model(x); print(out.shape, out.grad_fn.name())",
    "x = torch.randn(2, 3, 8, 8); p = model.patch_embed(x); print(p.shape, p.is_contiguous(), p.stride())",
    "print([n for n, _ in model.named_parameters()][:6], len(model.state_dict()))",
    "print(model.encoder.layers[0])",
    "x = torch.randn(2, 3, 8, 8); loss = F.cross_entropy(model(x), torch.tensor([1, 4])); loss.backward(); print(model.cls_token.grad.shape, model.pos_embed.grad.abs().sum() > 0, loss.grad_fn.name())",
    "x = torch.randn(2, 3, 8, 8); u = F.unfold(x, kernel_size=4, stride=4); print(u.shape); print(u.transpose(1, 2).shape)",
    "x = torch.arange(16.).view(1, 1, 4, 4); print(F.unfold(x, kernel_size=2, stride=2)); print(nn.Unfold(2, stride=2))",
    "x = torch.arange(16.).view(1, 1, 4, 4); u = F.unfold(x, 2, stride=2); print(torch.equal(F.fold(u, (4, 4), 2, stride=2), x), nn.Fold((4, 4), 2))",
    "x = torch.arange(16.).view(1, 1, 4, 4); p = x.unfold(2, 2, 2).unfold(3, 2, 2); print(p.shape, p[0, 0, 1, 0])",
    "x = torch.arange(24.).view(1, 2, 3, 4); print(x.unfold(3, 2, 1).shape, x.unfold(-1, 4, 4).shape)",
    "try:\n    torch.arange(4.).unfold(0, 5, 1)\nexcept RuntimeError as e: print(e)",
    "w = torch.empty(3, 1000); nn.init.trunc_normal_(w, std=0.02); print(w.abs().max().item() <= 0.04, round(w.std().item(), 2))",
    "w = torch.empty(1000); nn.init.trunc_normal_(w, mean=0., std=1., a=-0.5, b=0.5); print(w.min().item() >= -0.5, w.max().item() <= 0.5)",
    "p = nn.Parameter(torch.zeros(1, 1, 4)); print(p, p.expand(3, -1, -1).shape, p.expand(3, -1, -1).grad_fn.name())",
    "p = nn.Parameter(torch.zeros(1, 1, 4))\ntry:\n    p.expand(3, 2, -1)\nexcept RuntimeError as e: print(e)",
    "print(nn.Parameter(torch.zeros(2)).requires_grad, nn.Parameter(torch.zeros(2), requires_grad=False), repr(nn.Parameter(torch.tensor(1.))))",
    "print(nn.GELU(), nn.GELU(approximate='tanh'), F.gelu(torch.tensor([-1., 0., 1.])), F.gelu(torch.tensor([-1., 1.]), approximate='tanh'))",
]]


D2L_LINREG = r'''
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 20)
import random
random.seed(0)
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]
def linreg(X, w, b):
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
'''

D2L = [D2L_LINREG + s for s in [
    "print('features:', features[0], '\\nlabel:', labels[0]); print(features.shape, labels.shape, labels.dtype)",
    "for X, y in data_iter(8, features, labels):\n    print(X.shape, '\\n', y.shape)\n",
    """w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.03; num_epochs = 3; net = linreg; loss = squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(5, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, 5)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):.4f}')
print(f'w的估计误差: {true_w - w.reshape(true_w.shape)}')
print(f'b的估计误差: {true_b - b}')
print(w.grad, b.grad, w.requires_grad, w.is_leaf)""",
    "w = torch.ones(2, 1, requires_grad=True); (w * 2).sum().backward()\ntry:\n    w -= 0.1 * w.grad\nexcept RuntimeError as e: print(e)",
    "w = torch.ones(2, 1, requires_grad=True)\nwith torch.no_grad():\n    w -= 0.5\n    w *= 2\nprint(w, w.grad_fn, w._version)",
    "w = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    w = w - 0.5\nprint(w, w.requires_grad, w.is_leaf)",
    "w = torch.ones(2, requires_grad=True); (w * 3).sum().backward(); w.grad.zero_(); print(w.grad); w.grad = None; print(w.grad)",
    "w = torch.ones(2, requires_grad=True)\ntry:\n    w.grad.zero_()\nexcept AttributeError as e: print(e)",
    "print(torch.normal(0, 1, (2, 3)).shape, torch.normal(0, 0.01, size=(2,)), torch.normal(torch.zeros(2), 1.), torch.normal(2., torch.ones(2)), torch.normal(torch.zeros(2), torch.ones(2)))",
    "try:\n    torch.normal(0, -1, (2,))\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.normal(0, 1)\nexcept TypeError as e: print(str(e).splitlines()[0])",
    "print(torch.normal(0, 1, (2, 2), dtype=torch.float64).dtype, torch.normal(mean=torch.arange(1., 4.), std=torch.arange(1, 0, -0.25)[:3]))",
    "X, y = synthetic_data(torch.tensor([1.0]), 0.5, 3); print(X.shape, y.shape, y.grad_fn)",
    "dataset = torch.utils.data.TensorDataset(features, labels); it = torch.utils.data.DataLoader(dataset, 10, shuffle=True); X, y = next(iter(it)); print(X.shape, y.shape, len(it))",
    """net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
data_iter2 = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(features, labels), 5, shuffle=True)
for epoch in range(3):
    for X, y in data_iter2:
        l = loss(net(X), y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:.4f}')
w = net[0].weight.data
print('w的估计误差：', (true_w - w.reshape(true_w.shape)).shape)
b = net[0].bias.data
print(b.requires_grad, type(b).__name__, net[0].weight.grad.shape)""",
    "net = nn.Sequential(nn.Linear(2, 1)); print(net[0].weight.data.normal_(0, 0.01) is net[0].weight.data, net[0].bias.data.fill_(0), net[0].bias)",
    "net = nn.Sequential(nn.Linear(2, 1)); print(net[0].state_dict()); print(type(net[0].bias).__name__, net[0].bias.data, net[0].weight.grad == None)",
    "net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)); print(*[(name, param.shape) for name, param in net[0].named_parameters()]); print(*[(name, param.shape) for name, param in net.named_parameters()])",
    "net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)); print(net.state_dict()['2.bias'].data, net[2].bias.grad)",
    "def block1():\n    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4), nn.ReLU())\ndef block2():\n    net = nn.Sequential()\n    for i in range(2):\n        net.add_module(f'block {i}', block1())\n    return net\nrgnet = nn.Sequential(block2(), nn.Linear(4, 1)); print(rgnet); print(rgnet[0][1][0].bias.data.shape)",
    "def init_normal(m):\n    if type(m) == nn.Linear:\n        nn.init.normal_(m.weight, mean=0, std=0.01)\n        nn.init.zeros_(m.bias)\nnet = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)); net.apply(init_normal); print(net[0].bias.data[0], net[0].weight.data[0].shape)",
    "def init_constant(m):\n    if type(m) == nn.Linear:\n        nn.init.constant_(m.weight, 1)\n        nn.init.zeros_(m.bias)\nnet = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)); net.apply(init_constant); print(net[0].weight.data[0], net[0].bias.data[0])",
    "def init_xavier(m):\n    if type(m) == nn.Linear:\n        nn.init.xavier_uniform_(m.weight)\ndef init_42(m):\n    if type(m) == nn.Linear:\n        nn.init.constant_(m.weight, 42)\nnet = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)); net[0].apply(init_xavier); net[2].apply(init_42); print(net[0].weight.data[0].shape, net[2].weight.data)",
    "def my_init(m):\n    if type(m) == nn.Linear:\n        print('Init', *[(name, param.shape) for name, param in m.named_parameters()][0])\n        nn.init.uniform_(m.weight, -10, 10)\n        m.weight.data *= m.weight.data.abs() >= 5\nnet = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)); net.apply(my_init); print(net[0].weight[:2])",
    "net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)); net[0].weight.data[:] += 1; net[0].weight.data[0, 0] = 42; print(net[0].weight.data[0])",
    "shared = nn.Linear(8, 8); net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1)); net(torch.rand(2, 4)); print(net[2].weight.data[0] == net[4].weight.data[0]); net[2].weight.data[0, 0] = 100; print(net[2].weight.data[0] == net[4].weight.data[0]); print(len(list(net.parameters())), len(net.state_dict()))",
    "net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1)); print(net[0].weight); net(torch.rand(2, 20)); print(net[0].weight.shape, net[0])",
    "class CenteredLayer(nn.Module):\n    def __init__(self):\n        super().__init__()\n    def forward(self, X):\n        return X - X.mean()\nlayer = CenteredLayer(); print(layer(torch.FloatTensor([1, 2, 3, 4, 5]))); net = nn.Sequential(nn.Linear(8, 128), CenteredLayer()); Y = net(torch.rand(4, 8)); print(Y.mean().abs() < 1e-6)",
    "class MyLinear(nn.Module):\n    def __init__(self, in_units, units):\n        super().__init__()\n        self.weight = nn.Parameter(torch.randn(in_units, units))\n        self.bias = nn.Parameter(torch.randn(units,))\n    def forward(self, X):\n        linear = torch.matmul(X, self.weight.data) + self.bias.data\n        return F.relu(linear)\nlinear = MyLinear(5, 3); print(linear.weight); print(linear(torch.rand(2, 5))); net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1)); print(net(torch.rand(2, 64)))",
    "print(torch.FloatTensor([1, 2]), torch.FloatTensor(2, 3).shape, torch.LongTensor([1, 2]).dtype, torch.IntTensor(2).dtype, torch.DoubleTensor([1]).dtype, torch.BoolTensor([1, 0]))",
    "try:\n    torch.FloatTensor([1, 2], dtype=torch.float64)\nexcept TypeError as e: print(e)",
    "import os, tempfile; tmp = tempfile.mkdtemp()\nx = torch.arange(4); torch.save(x, os.path.join(tmp, 'x-file')); x2 = torch.load(os.path.join(tmp, 'x-file')); print(x2)\nimport shutil; shutil.rmtree(tmp)",
    "import os, tempfile; tmp = tempfile.mkdtemp()\ny = torch.zeros(4); torch.save([torch.arange(4), y], os.path.join(tmp, 'x-files')); x2, y2 = torch.load(os.path.join(tmp, 'x-files')); print((x2, y2))\nimport shutil; shutil.rmtree(tmp)",
    "import os, tempfile; tmp = tempfile.mkdtemp()\nmydict = {'x': torch.arange(4), 'y': torch.zeros(4)}; torch.save(mydict, os.path.join(tmp, 'mydict')); print(torch.load(os.path.join(tmp, 'mydict')))\nimport shutil; shutil.rmtree(tmp)",
    "import os, tempfile; tmp = tempfile.mkdtemp()\nclass MLP(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.hidden = nn.Linear(20, 256)\n        self.output = nn.Linear(256, 10)\n    def forward(self, x):\n        return self.output(F.relu(self.hidden(x)))\nnet = MLP(); X = torch.randn(size=(2, 20)); Y = net(X); torch.save(net.state_dict(), os.path.join(tmp, 'mlp.params')); clone = MLP(); print(clone.load_state_dict(torch.load(os.path.join(tmp, 'mlp.params')))); print(clone.eval()); print(clone(X) == Y)\nimport shutil; shutil.rmtree(tmp)",
    "class MySequential(nn.Module):\n    def __init__(self, *args):\n        super().__init__()\n        for idx, module in enumerate(args):\n            self._modules[str(idx)] = module\n    def forward(self, X):\n        for block in self._modules.values():\n            X = block(X)\n        return X\nnet = MySequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10)); print(net(torch.rand(2, 20)).shape); print(net); print(len(list(net.parameters())))",
    "class FixedHiddenMLP(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rand_weight = torch.rand((20, 20), requires_grad=False)\n        self.linear = nn.Linear(20, 20)\n    def forward(self, X):\n        X = self.linear(X)\n        X = F.relu(torch.mm(X, self.rand_weight) + 1)\n        X = self.linear(X)\n        while X.abs().sum() > 1:\n            X /= 2\n        return X.sum()\nnet = FixedHiddenMLP(); print(net(torch.rand(2, 20))); print(list(net.state_dict()))",
]]

D2L_SOFTMAX = r'''
def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition
def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])
def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())
class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n
    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]
    def reset(self):
        self.data = [0.0] * len(self.data)
    def __getitem__(self, idx):
        return self.data[idx]
X = torch.randn(12, 1, 4, 4); Y = torch.randint(0, 3, (12,))
train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, Y), batch_size=4)
def evaluate_accuracy(net, data_iter):
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]
'''

SOFTMAX = [D2L_SOFTMAX + s for s in [
    "X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))",
    "X = torch.normal(0, 1, (2, 5)); X_prob = softmax(X); print(X_prob.sum(1), X_prob.shape)",
    "y = torch.tensor([0, 2]); y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]]); print(y_hat[[0, 1], y]); print(cross_entropy(y_hat, y)); print(accuracy(y_hat, y) / len(y))",
    "y = torch.tensor([0, 2]); y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]]); print(y_hat.argmax(axis=1), y_hat.argmax(axis=1).type(y.dtype) == y, (y_hat.argmax(axis=1) == y).type(torch.float32))",
    "y = torch.tensor([0, 2]); print(y.type(torch.float32), y.type(), y.type('torch.DoubleTensor').dtype, y.float().type())",
    "try:\n    torch.tensor([1]).type('torch.FooTensor')\nexcept ValueError as e: print(e)",
    "print(torch.tensor([1.5]).type(torch.int32), torch.tensor([True]).type(torch.float16), torch.ones(2).type(torch.IntTensor))",
    "m = Accumulator(3); m.add(1, torch.tensor(2.5), 3); m.add(torch.tensor(1), 2, np.float32(0.5)); print(m.data, m[1])",
    """num_inputs, num_outputs = 16, 3
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)
print(round(evaluate_accuracy(net, train_iter), 4))
def updater(batch_size):
    with torch.no_grad():
        for param in [W, b]:
            param -= 0.1 * param.grad / batch_size
            param.grad.zero_()
for epoch in range(2):
    metric = Accumulator(3)
    for Xb, yb in train_iter:
        y_hat = net(Xb)
        l = cross_entropy(y_hat, yb)
        l.sum().backward()
        updater(Xb.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, yb), yb.numel())
    print(epoch, round(metric[0] / metric[2], 4), round(metric[1] / metric[2], 4))
print(W.grad.abs().sum(), b.grad)""",
    """net = nn.Sequential(nn.Flatten(), nn.Linear(16, 3))
def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
net.apply(init_weights)
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(2):
    if isinstance(net, torch.nn.Module):
        net.train()
    metric = Accumulator(3)
    for Xb, yb in train_iter:
        y_hat = net(Xb)
        l = loss(y_hat, yb)
        if isinstance(trainer, torch.optim.Optimizer):
            trainer.zero_grad()
            l.mean().backward()
            trainer.step()
        metric.add(float(l.sum()), accuracy(y_hat, yb), yb.numel())
    print(epoch, round(metric[0] / metric[2], 4), metric[1] / metric[2], round(evaluate_accuracy(net, train_iter), 4))
print(net, l.shape, l.grad_fn.name())""",
    "print(nn.Flatten()(torch.randn(2, 3, 4)).shape, nn.Flatten(0)(torch.randn(2, 3)).shape, nn.Flatten(), nn.Unflatten(1, (2, 2))(torch.randn(3, 4)).shape)",
    "net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2), nn.Linear(256, 10)); print(net); print([type(m).__name__ for m in net])",
    "def dropout_layer(X, dropout):\n    assert 0 <= dropout <= 1\n    if dropout == 1:\n        return torch.zeros_like(X)\n    if dropout == 0:\n        return X\n    mask = (torch.rand(X.shape) > dropout).float()\n    return mask * X / (1.0 - dropout)\nX = torch.arange(16, dtype=torch.float32).reshape((2, 8)); print(X); print(dropout_layer(X, 0.)); print(dropout_layer(X, 0.5)); print(dropout_layer(X, 1.))",
    "def relu(X):\n    a = torch.zeros_like(X)\n    return torch.max(X, a)\nprint(relu(torch.tensor([-1., 2.])), torch.max(torch.tensor([1, 5]), torch.tensor([3., 2.])))",
    "x = torch.arange(-2.0, 2.0, 0.5, requires_grad=True); y = torch.relu(x); y.backward(torch.ones_like(x), retain_graph=True); print(x.grad); x.grad.data.zero_(); torch.sigmoid(x).backward(torch.ones_like(x), retain_graph=True); print(x.grad); x.grad.data.zero_(); torch.tanh(x).backward(torch.ones_like(x)); print(x.grad)",
    "x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True); print(x.shape, x[-1], x.detach().numpy().shape, x.dtype)",
    "x = torch.arange(0, 1, 0.1); print(x, x.shape, torch.arange(1, 2.5, 0.5), torch.arange(0, 3, 0.3).shape)",
    "def l2_penalty(w):\n    return torch.sum(w.pow(2)) / 2\nw = torch.normal(0, 1, size=(3, 1), requires_grad=True); print(l2_penalty(w).grad_fn.name(), l2_penalty(w).shape)",
    "net = nn.Sequential(nn.Linear(3, 1)); trainer = torch.optim.SGD([{'params': net[0].weight, 'weight_decay': 3}, {'params': net[0].bias}], lr=0.1); print(trainer); print([g['weight_decay'] for g in trainer.param_groups])",
]]


CNN = [
    "def corr2d(X, K):\n    h, w = K.shape\n    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))\n    for i in range(Y.shape[0]):\n        for j in range(Y.shape[1]):\n            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()\n    return Y\nX = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]); K = torch.tensor([[0.0, 1.0], [2.0, 3.0]]); print(corr2d(X, K))",
    "def corr2d(X, K):\n    h, w = K.shape\n    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))\n    for i in range(Y.shape[0]):\n        for j in range(Y.shape[1]):\n            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()\n    return Y\nX = torch.ones((6, 8)); X[:, 2:6] = 0; print(X); K = torch.tensor([[1.0, -1.0]]); Y = corr2d(X, K); print(Y); print(corr2d(X.t(), K))",
    "X = torch.ones((6, 8)); X[:, 2:6] = 0; Y = torch.zeros(6, 7); Y[:, 1] = 1; Y[:, 5] = -1\nconv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)\nX = X.reshape((1, 1, 6, 8)); Y = Y.reshape((1, 1, 6, 7)); lr = 3e-2\nfor i in range(10):\n    Y_hat = conv2d(X)\n    l = (Y_hat - Y) ** 2\n    conv2d.zero_grad()\n    l.sum().backward()\n    conv2d.weight.data[:] -= lr * conv2d.weight.grad\n    if (i + 1) % 2 == 0:\n        print(f'epoch {i+1}, loss {l.sum():.3f}')\nprint(conv2d.weight.data.reshape((1, 2)).round(decimals=3))",
    "def comp_conv2d(conv2d, X):\n    X = X.reshape((1, 1) + X.shape)\n    Y = conv2d(X)\n    return Y.reshape(Y.shape[2:])\nX = torch.rand(size=(8, 8)); print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=3, padding=1), X).shape, comp_conv2d(nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1)), X).shape, comp_conv2d(nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=2), X).shape, comp_conv2d(nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4)), X).shape)",
    "X = torch.rand(8, 8); print((1, 1) + X.shape, type((1, 1) + X.shape).__name__, X.shape + (2,), type(X.shape + (2,)).__name__, X.shape[2:], X.reshape((1, 1) + X.shape).shape)",
    "print(torch.Size([2, 3]) + torch.Size([4]), torch.Size([2]) * 2, (2,) + torch.Size([3]), type((2,) + torch.Size([3])).__name__)",
    "def corr2d(X, K):\n    h, w = K.shape\n    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))\n    for i in range(Y.shape[0]):\n        for j in range(Y.shape[1]):\n            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()\n    return Y\ndef corr2d_multi_in(X, K):\n    return sum(corr2d(x, k) for x, k in zip(X, K))\ndef corr2d_multi_in_out(X, K):\n    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)\ndef corr2d_multi_in_out_1x1(X, K):\n    c_i, h, w = X.shape\n    c_o = K.shape[0]\n    X = X.reshape((c_i, h * w))\n    K = K.reshape((c_o, c_i))\n    Y = torch.matmul(K, X)\n    return Y.reshape((c_o, h, w))\nX = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]); K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])\nprint(corr2d_multi_in(X, K)); K = torch.stack((K, K + 1, K + 2), 0); print(K.shape); print(corr2d_multi_in_out(X, K))\nX = torch.normal(0, 1, (3, 3, 3)); K = torch.normal(0, 1, (2, 3, 1, 1)); Y1 = corr2d_multi_in_out_1x1(X, K); Y2 = corr2d_multi_in_out(X, K); print(float(torch.abs(Y1 - Y2).sum()) < 1e-6)",
    "def pool2d(X, pool_size, mode='max'):\n    p_h, p_w = pool_size\n    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))\n    for i in range(Y.shape[0]):\n        for j in range(Y.shape[1]):\n            if mode == 'max':\n                Y[i, j] = X[i: i + p_h, j: j + p_w].max()\n            elif mode == 'avg':\n                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()\n    return Y\nX = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]); print(pool2d(X, (2, 2)), pool2d(X, (2, 2), 'avg'))",
    "X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4)); print(X); pool2d = nn.MaxPool2d(3); print(pool2d(X)); pool2d = nn.MaxPool2d(3, padding=1, stride=2); print(pool2d(X)); pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1)); print(pool2d(X))",
    "X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4)); X = torch.cat((X, X + 1), 1); pool2d = nn.MaxPool2d(3, padding=1, stride=2); print(pool2d(X)); print(nn.AvgPool2d(3, padding=1, stride=2)(X)); print(pool2d, nn.AvgPool2d(2))",
    "try:\n    nn.MaxPool2d(3, padding=2)(torch.zeros(1, 1, 4, 4))\nexcept RuntimeError as e: print(e)",
    "try:\n    nn.MaxPool2d(5)(torch.zeros(1, 1, 4, 4))\nexcept RuntimeError as e: print(e)",
    "print(nn.AvgPool2d(2, ceil_mode=True)(torch.arange(9.).view(1, 1, 3, 3)), nn.MaxPool2d(2, ceil_mode=True)(torch.arange(9.).view(1, 1, 3, 3)), nn.AvgPool2d(3, 1, 1, count_include_pad=False)(torch.ones(1, 1, 2, 2)))",
]

LENET = r'''
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
'''

SHAPES = [
    LENET + "X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)\nfor layer in net:\n    X = layer(X)\n    print(layer.__class__.__name__, 'output shape: \\t', X.shape)",
    LENET + "def init_weights(m):\n    if type(m) == nn.Linear or type(m) == nn.Conv2d:\n        nn.init.xavier_uniform_(m.weight)\nnet.apply(init_weights)\nX = torch.rand(4, 1, 28, 28); y = torch.randint(0, 10, (4,))\noptimizer = torch.optim.SGD(net.parameters(), lr=0.9); loss = nn.CrossEntropyLoss()\nfor i in range(2):\n    optimizer.zero_grad(); y_hat = net(X); l = loss(y_hat, y); l.backward(); optimizer.step()\n    with torch.no_grad():\n        print(f'{l.item():.4f}', round(float((y_hat.argmax(1) == y).sum()) / 4, 2))\nprint(next(iter(net.parameters())).device)",
    "net = nn.Sequential(nn.Conv2d(1, 8, kernel_size=11, stride=4, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=3, stride=2), nn.Conv2d(8, 16, kernel_size=5, padding=2), nn.ReLU(), nn.MaxPool2d(kernel_size=3, stride=2), nn.Conv2d(16, 16, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=3, stride=2), nn.Flatten(), nn.Linear(16 * 5 * 5, 32), nn.ReLU(), nn.Dropout(p=0.5), nn.Linear(32, 10))\nX = torch.randn(1, 1, 224, 224)\nfor layer in net:\n    X = layer(X)\n    print(layer.__class__.__name__, 'output shape:\\t', X.shape)",
    "def vgg_block(num_convs, in_channels, out_channels):\n    layers = []\n    for _ in range(num_convs):\n        layers.append(nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1))\n        layers.append(nn.ReLU())\n        in_channels = out_channels\n    layers.append(nn.MaxPool2d(kernel_size=2, stride=2))\n    return nn.Sequential(*layers)\nconv_arch = ((1, 4), (1, 8), (2, 8))\ndef vgg(conv_arch):\n    conv_blks = []\n    in_channels = 1\n    for (num_convs, out_channels) in conv_arch:\n        conv_blks.append(vgg_block(num_convs, in_channels, out_channels))\n        in_channels = out_channels\n    return nn.Sequential(*conv_blks, nn.Flatten(), nn.Linear(out_channels * 4 * 4, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 10))\nnet = vgg(conv_arch)\nX = torch.randn(size=(1, 1, 32, 32))\nfor blk in net:\n    X = blk(X)\n    print(blk.__class__.__name__, 'output shape:\\t', X.shape)\nprint(net[2])",
    "def nin_block(in_channels, out_channels, kernel_size, strides, padding):\n    return nn.Sequential(nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding), nn.ReLU(), nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(), nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU())\nnet = nn.Sequential(nin_block(1, 8, kernel_size=11, strides=4, padding=0), nn.MaxPool2d(3, stride=2), nin_block(8, 16, kernel_size=5, strides=1, padding=2), nn.MaxPool2d(3, stride=2), nn.Dropout(0.5), nin_block(16, 10, kernel_size=3, strides=1, padding=1), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())\nX = torch.rand(size=(1, 1, 96, 96))\nfor layer in net:\n    X = layer(X)\n    print(layer.__class__.__name__, 'output shape:\\t', X.shape)",
    "class Inception(nn.Module):\n    def __init__(self, in_channels, c1, c2, c3, c4, **kwargs):\n        super(Inception, self).__init__(**kwargs)\n        self.p1_1 = nn.Conv2d(in_channels, c1, kernel_size=1)\n        self.p2_1 = nn.Conv2d(in_channels, c2[0], kernel_size=1)\n        self.p2_2 = nn.Conv2d(c2[0], c2[1], kernel_size=3, padding=1)\n        self.p3_1 = nn.Conv2d(in_channels, c3[0], kernel_size=1)\n        self.p3_2 = nn.Conv2d(c3[0], c3[1], kernel_size=5, padding=2)\n        self.p4_1 = nn.MaxPool2d(kernel_size=3, stride=1, padding=1)\n        self.p4_2 = nn.Conv2d(in_channels, c4, kernel_size=1)\n    def forward(self, x):\n        p1 = F.relu(self.p1_1(x))\n        p2 = F.relu(self.p2_2(F.relu(self.p2_1(x))))\n        p3 = F.relu(self.p3_2(F.relu(self.p3_1(x))))\n        p4 = F.relu(self.p4_2(self.p4_1(x)))\n        return torch.cat((p1, p2, p3, p4), dim=1)\nb = Inception(4, 2, (2, 4), (1, 2), 2); y = b(torch.rand(1, 4, 6, 6)); print(y.shape, y.grad_fn.name()); print(b)",
    "class Inception(nn.Module):\n    def __init__(self, **kwargs):\n        super(Inception, self).__init__(**kwargs)\ntry:\n    Inception(foo=1)\nexcept TypeError as e: print(e)",
    "def conv_block(input_channels, num_channels):\n    return nn.Sequential(nn.BatchNorm2d(input_channels), nn.ReLU(), nn.Conv2d(input_channels, num_channels, kernel_size=3, padding=1))\nclass DenseBlock(nn.Module):\n    def __init__(self, num_convs, input_channels, num_channels):\n        super(DenseBlock, self).__init__()\n        layer = []\n        for i in range(num_convs):\n            layer.append(conv_block(num_channels * i + input_channels, num_channels))\n        self.net = nn.Sequential(*layer)\n    def forward(self, X):\n        for blk in self.net:\n            Y = blk(X)\n            X = torch.cat((X, Y), dim=1)\n        return X\ndef transition_block(input_channels, num_channels):\n    return nn.Sequential(nn.BatchNorm2d(input_channels), nn.ReLU(), nn.Conv2d(input_channels, num_channels, kernel_size=1), nn.AvgPool2d(kernel_size=2, stride=2))\nblk = DenseBlock(2, 3, 10); X = torch.randn(4, 3, 8, 8); Y = blk(X); print(Y.shape); blk2 = transition_block(23, 10); print(blk2(Y).shape); print(blk2)\nnum_channels, growth_rate = 8, 4; num_convs_in_dense_blocks = [2, 2]; blks = []\nfor i, num_convs in enumerate(num_convs_in_dense_blocks):\n    blks.append(DenseBlock(num_convs, num_channels, growth_rate))\n    num_channels += num_convs * growth_rate\n    if i != len(num_convs_in_dense_blocks) - 1:\n        blks.append(transition_block(num_channels, num_channels // 2))\n        num_channels = num_channels // 2\nnet = nn.Sequential(nn.Conv2d(1, 8, kernel_size=7, stride=2, padding=3), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(kernel_size=3, stride=2, padding=1), *blks, nn.BatchNorm2d(num_channels), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(num_channels, 10))\nX = torch.rand(2, 1, 32, 32)\nfor layer in net:\n    X = layer(X)\n    print(layer.__class__.__name__, 'output shape:\\t', X.shape)",
]

RESNET = r'''
class Residual(nn.Module):
    def __init__(self, input_channels, num_channels, use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = nn.Conv2d(input_channels, num_channels, kernel_size=3, padding=1, stride=strides)
        self.conv2 = nn.Conv2d(num_channels, num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.Conv2d(input_channels, num_channels, kernel_size=1, stride=strides)
        else:
            self.conv3 = None
        self.bn1 = nn.BatchNorm2d(num_channels)
        self.bn2 = nn.BatchNorm2d(num_channels)
    def forward(self, X):
        Y = F.relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        Y += X
        return F.relu(Y)
def resnet_block(input_channels, num_channels, num_residuals, first_block=False):
    blk = []
    for i in range(num_residuals):
        if i == 0 and not first_block:
            blk.append(Residual(input_channels, num_channels, use_1x1conv=True, strides=2))
        else:
            blk.append(Residual(num_channels, num_channels))
    return blk
'''

RES = [RESNET + s for s in [
    "blk = Residual(3, 3); X = torch.rand(4, 3, 6, 6); Y = blk(X); print(Y.shape, Y.grad_fn.name()); blk = Residual(3, 6, use_1x1conv=True, strides=2); print(blk(X).shape); print(blk)",
    "b1 = nn.Sequential(nn.Conv2d(1, 8, kernel_size=7, stride=2, padding=3), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(kernel_size=3, stride=2, padding=1))\nb2 = nn.Sequential(*resnet_block(8, 8, 2, first_block=True))\nb3 = nn.Sequential(*resnet_block(8, 16, 2))\nnet = nn.Sequential(b1, b2, b3, nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(16, 10))\nX = torch.rand(size=(1, 1, 64, 64))\nfor layer in net:\n    X = layer(X)\n    print(layer.__class__.__name__, 'output shape:\\t', X.shape)\nprint(len(net.state_dict()), [k for k in net.state_dict() if 'num_batches' in k][:3])",
    "blk = Residual(3, 3); X = torch.rand(4, 3, 6, 6); blk(X).sum().backward(); print(blk.bn1.weight.grad.shape, blk.bn1.num_batches_tracked, blk.bn1.running_mean.shape, blk.conv3)",
    "blk = Residual(3, 3); blk.eval(); X = torch.rand(1, 3, 4, 4); print(torch.equal(blk(X), blk(X)), blk.training, blk.bn1.training)",
    "blk = Residual(2, 2); X = torch.rand(1, 2, 4, 4, requires_grad=True)\ntry:\n    Y = X * 1\n    Y += X\n    print(Y.grad_fn.name())\nexcept RuntimeError as e: print(e)",
    "X = torch.rand(2, 3, requires_grad=True)\ntry:\n    X += 1\nexcept RuntimeError as e: print(e)",
    "X = torch.rand(2, 3, requires_grad=True); Y = F.relu(X); Y += 1; Y.sum().backward(); print(X.grad.shape, Y.grad_fn.name())",
    "X = torch.rand(2, 3, requires_grad=True); Y = torch.sigmoid(X); Y += 1\ntry:\n    Y.sum().backward()\nexcept RuntimeError as e: print(str(e)[:150])",
]]

BN = [r'''
def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = momentum * moving_mean + (1.0 - momentum) * mean
        moving_var = momentum * moving_var + (1.0 - momentum) * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data
class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)
    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.9)
        return Y
''']
BNS = [BN[0] + s for s in [
    "bn = BatchNorm(3, 4); X = torch.arange(24.).view(2, 3, 2, 2); Y = bn(X); print(Y[0, 0], bn.moving_mean.flatten(), bn.moving_var.flatten().round(decimals=3)); print(list(bn.state_dict()), bn)",
    "bn = BatchNorm(3, 2); X = torch.arange(6.).view(2, 3); Y = bn(X); Y.sum().backward(); print(Y, bn.gamma.grad, bn.beta.grad, bn.moving_mean)\nwith torch.no_grad():\n    print(bn(X))",
    "net = nn.Sequential(nn.Conv2d(1, 6, kernel_size=5), BatchNorm(6, num_dims=4), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(), nn.Linear(6 * 4 * 4, 10)); y = net(torch.rand(2, 1, 12, 12)); print(y.shape, net[1].gamma.reshape((-1,)), net[1].moving_mean.shape)",
    "net = nn.Sequential(nn.Conv2d(1, 6, kernel_size=5), nn.BatchNorm2d(6), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(), nn.LazyLinear(10)); y = net(torch.rand(2, 1, 12, 12)); print(y.shape, net); print(net[1].weight.reshape((-1,)), net[1].running_var.round(decimals=3))",
    "print(torch.is_grad_enabled())\nwith torch.no_grad():\n    print(torch.is_grad_enabled())\nwith torch.enable_grad():\n    print(torch.is_grad_enabled())\ntorch.set_grad_enabled(False); print(torch.is_grad_enabled()); torch.set_grad_enabled(True)",
    "X = torch.arange(24.).view(2, 3, 2, 2); print(X.mean(dim=(0, 2, 3), keepdim=True).shape, X.var(dim=(0, 2, 3), unbiased=False), ((X - X.mean(dim=(0, 2, 3), keepdim=True)) ** 2).mean(dim=(0, 2, 3)))",
    "m = nn.BatchNorm1d(3); x = torch.arange(12.).view(4, 3); m(x); print(m.running_mean, m.running_var, m.num_batches_tracked); m.eval(); print(m(x)[0])",
    "m = nn.BatchNorm1d(3, momentum=None); x = torch.arange(12.).view(4, 3); m(x); m(x * 2); print(m.running_mean, m.num_batches_tracked)",
    "m = nn.BatchNorm1d(3)\ntry:\n    m(torch.randn(1, 3))\nexcept ValueError as e: print(e)",
    "m = nn.BatchNorm2d(3)\ntry:\n    m(torch.randn(2, 3, 4))\nexcept ValueError as e: print(e)",
    "m = nn.BatchNorm2d(3)\ntry:\n    m(torch.randn(2, 4, 2, 2))\nexcept RuntimeError as e: print(e)",
    "m = nn.LayerNorm(3); x = torch.arange(6.).view(2, 3); print(m(x), m, m.weight.shape); print(nn.LayerNorm([2, 3], elementwise_affine=False)(x))",
]]


ATT_BASE = r'''
def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X
def masked_softmax(X, valid_lens):
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)
class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens, dropout, **kwargs):
        super(AdditiveAttention, self).__init__(**kwargs)
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)
        self.dropout = nn.Dropout(dropout)
    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)
class DotProductAttention(nn.Module):
    def __init__(self, dropout, **kwargs):
        super(DotProductAttention, self).__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)
def transpose_qkv(X, num_heads):
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
    X = X.permute(0, 2, 1, 3)
    return X.reshape(-1, X.shape[2], X.shape[3])
def transpose_output(X, num_heads):
    X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
    X = X.permute(0, 2, 1, 3)
    return X.reshape(X.shape[0], X.shape[1], -1)
class MultiHeadAttention(nn.Module):
    def __init__(self, key_size, query_size, value_size, num_hiddens, num_heads, dropout, bias=False, **kwargs):
        super(MultiHeadAttention, self).__init__(**kwargs)
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=bias)
        self.W_k = nn.Linear(key_size, num_hiddens, bias=bias)
        self.W_v = nn.Linear(value_size, num_hiddens, bias=bias)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=bias)
    def forward(self, queries, keys, values, valid_lens):
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        output_concat = transpose_output(output, self.num_heads)
        return self.W_o(output_concat)
class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(dropout)
        self.P = torch.zeros((1, max_len, num_hiddens))
        X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X)
    def forward(self, X):
        X = X + self.P[:, :X.shape[1], :].to(X.device)
        return self.dropout(X)
'''

ATT = [ATT_BASE + s for s in [
    "X = torch.tensor([[1, 2, 3], [4, 5, 6]]); print(sequence_mask(X, torch.tensor([1, 2])))",
    "X = torch.ones(2, 3, 4); print(sequence_mask(X, torch.tensor([1, 2]), value=-1))",
    "print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))",
    "print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])))",
    "print(masked_softmax(torch.rand(2, 2, 4), None).sum(-1).round(decimals=4))",
    "print(torch.repeat_interleave(torch.tensor([2, 3]), 2), torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), repeats=2, dim=0), torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1, 3])), torch.tensor([1, 2]).repeat_interleave(2))",
    "try:\n    torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1, 2, 3]))\nexcept RuntimeError as e: print(e)",
    "print(torch.repeat_interleave(torch.tensor([2, 1])), torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2))",
    "queries, keys = torch.normal(0, 1, (2, 1, 20)), torch.ones((2, 10, 2)); values = torch.arange(40, dtype=torch.float32).reshape(1, 10, 4).repeat(2, 1, 1); valid_lens = torch.tensor([2, 6])\nattention = AdditiveAttention(key_size=2, query_size=20, num_hiddens=8, dropout=0.1); attention.eval(); print(attention(queries, keys, values, valid_lens)); print(attention.attention_weights.shape, attention.attention_weights[0, 0, :3])",
    "queries = torch.normal(0, 1, (2, 1, 2)); keys = torch.ones((2, 10, 2)); values = torch.arange(40, dtype=torch.float32).reshape(1, 10, 4).repeat(2, 1, 1); valid_lens = torch.tensor([2, 6])\nattention = DotProductAttention(dropout=0.5); attention.eval(); print(attention(queries, keys, values, valid_lens)); print(attention.attention_weights.reshape(2, 10))",
    "num_hiddens, num_heads = 8, 2\nattention = MultiHeadAttention(num_hiddens, num_hiddens, num_hiddens, num_hiddens, num_heads, 0.5); attention.eval(); print(attention)\nbatch_size, num_queries = 2, 4; num_kvpairs, valid_lens = 6, torch.tensor([3, 2]); X = torch.ones((batch_size, num_queries, num_hiddens)); Y = torch.ones((batch_size, num_kvpairs, num_hiddens))\nout = attention(X, Y, Y, valid_lens); print(out.shape, out.grad_fn.name(), attention.attention.attention_weights.shape)",
    "X = torch.arange(48.).reshape(2, 3, 8); t = transpose_qkv(X, 2); print(t.shape, t.is_contiguous(), t[1, 0]); o = transpose_output(t, 2); print(torch.equal(o, X))",
    "X = torch.arange(24.).reshape(2, 3, 4); print(X.permute(0, 2, 1).shape, X.permute(0, 2, 1).stride(), X.permute(2, 0, 1).is_contiguous(), X.permute(0, 2, 1).reshape(-1, 3).shape)",
    "X = torch.arange(24.).reshape(2, 3, 4)\ntry:\n    X.permute(0, 1)\nexcept RuntimeError as e: print(e)",
    "X = torch.arange(24.).reshape(2, 3, 4)\ntry:\n    X.permute(0, 1, 1)\nexcept RuntimeError as e: print(e)",
    "X = torch.arange(24.).reshape(2, 3, 4)\ntry:\n    X.permute(0, 2, 1).view(-1, 3)\nexcept RuntimeError as e: print(e)",
    "pe = PositionalEncoding(8, 0); pe.eval(); X = pe(torch.zeros((1, 6, 8))); P = pe.P[:, :X.shape[1], :]; print(P[0, :, 6:8].T); print(P.shape, list(pe.state_dict()))",
    "print(torch.pow(10000, torch.arange(0, 8, 2, dtype=torch.float32) / 8), torch.pow(2, torch.arange(4)), torch.pow(2.5, torch.tensor([1, 2])), torch.pow(torch.tensor([2, 3]), 2.0).dtype)",
    "print(torch.arange(4, dtype=torch.float32).reshape(-1, 1) / torch.pow(10000, torch.arange(0, 4, 2, dtype=torch.float32) / 4))",
    "for i in range(8):\n    print(f'{i} in binary is {i:>03b}')",
    "scores = torch.tensor([[1., 2., 3.]]); print(F.softmax(scores, dim=-1), nn.functional.softmax(scores.double(), -1).dtype, scores.softmax(0), F.softmax(scores, dim=-1, dtype=torch.float64))",
    "try:\n    F.softmax(torch.tensor([1, 2]), dim=0)\nexcept RuntimeError as e: print(e)",
    "X = torch.ones(2, 3); mask = torch.tensor([[True, False, True], [False, False, True]]); X[~mask] = -1e6; print(X, X[mask], X[mask].shape, (~mask).int())",
    "X = torch.ones(2, 3); X[torch.tensor([[1, 0, 1], [0, 0, 1]]).bool()] = 0; print(X); X[X == 1] = torch.tensor(5.); print(X)",
    "X = torch.ones(2, 3)\ntry:\n    X[torch.tensor([True, False])] = torch.tensor([1., 2.])\nexcept RuntimeError as e: print(e)",
    "X = torch.ones(2, 3)\ntry:\n    X[torch.tensor([[True, False], [True, True]])] = 0\nexcept IndexError as e: print(e)",
    "mha = nn.MultiheadAttention(8, 2, batch_first=True); q = torch.randn(2, 4, 8); out, w = mha(q, q, q, key_padding_mask=torch.tensor([[False, False, True, True], [False, False, False, True]])); print(out.shape, w.shape, w[0, 0]); print(mha)",
    "mha = nn.MultiheadAttention(8, 2); q = torch.randn(4, 2, 8); out, w = mha(q, q, q, need_weights=False); print(out.shape, w); out, w = mha(q, q, q, average_attn_weights=False); print(w.shape)",
    "mha = nn.MultiheadAttention(8, 2, batch_first=True); q = torch.randn(2, 4, 8); m = nn.Transformer.generate_square_subsequent_mask(4); out, w = mha(q, q, q, attn_mask=m); print(w[0, 0], w[1, 3].sum())",
    "try:\n    nn.MultiheadAttention(8, 3)\nexcept AssertionError as e: print(e)",
]]

RNN = [r'''
def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size
    def normal(shape):
        return torch.randn(size=shape) * 0.01
    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params
def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)), )
def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)
class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens)
        self.init_state, self.forward_fn = init_state, forward_fn
    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)
    def begin_state(self, batch_size):
        return self.init_state(batch_size, self.num_hiddens)
def grad_clipping(net, theta):
    if isinstance(net, nn.Module):
        params = [p for p in net.parameters() if p.requires_grad]
    else:
        params = net.params
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
vocab_size, num_hiddens = 7, 16
net = RNNModelScratch(vocab_size, num_hiddens, get_params, init_rnn_state, rnn)
''']
RNNS = [RNN[0] + s for s in [
    "print(F.one_hot(torch.tensor([0, 2]), 5)); X = torch.arange(10).reshape((2, 5)); print(F.one_hot(X.T, 28).shape, F.one_hot(X.T, 28).dtype)",
    "print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor(3), 4))",
    "try:\n    F.one_hot(torch.tensor([0, 5]), 3)\nexcept RuntimeError as e: print(e)",
    "try:\n    F.one_hot(torch.tensor([0., 1.]), 3)\nexcept RuntimeError as e: print(e)",
    "try:\n    F.one_hot(torch.tensor([-1, 1]), 3)\nexcept RuntimeError as e: print(e)",
    "X = torch.arange(10).reshape((2, 5)) % vocab_size; state = net.begin_state(X.shape[0]); Y, new_state = net(X, state); print(Y.shape, len(new_state), new_state[0].shape, Y.grad_fn.name())",
    """X = torch.randint(0, vocab_size, (3, 5)); Yt = torch.randint(0, vocab_size, (3, 5))
loss = nn.CrossEntropyLoss()
state = None
for epoch in range(3):
    if state is None:
        state = net.begin_state(batch_size=X.shape[0])
    else:
        for s in state:
            s.detach_()
    y = Yt.T.reshape(-1)
    y_hat, state = net(X, state)
    l = loss(y_hat, y.long()).mean()
    l.backward()
    n = grad_clipping(net, 1)
    sgd(net.params, 1, batch_size=1)
    print(epoch, f'{math.exp(l.item()):.3f}', round(float(n), 4), type(n).__name__, n.shape)""",
    """def predict_ch8(prefix, num_preds, net, idx):
    state = net.begin_state(batch_size=1)
    outputs = [idx[prefix[0]]]
    get_input = lambda: torch.tensor([outputs[-1]]).reshape((1, 1))
    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(idx[y])
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return outputs
print(predict_ch8('abc', 5, net, {'a': 0, 'b': 1, 'c': 2}))""",
    "print(int(torch.tensor([[3]]).reshape(1)), int(torch.tensor(2.7)), float(torch.tensor([1.5])), bool(torch.tensor([0])))",
    "try:\n    int(torch.tensor([1, 2]))\nexcept (TypeError, ValueError, RuntimeError) as e: print(type(e).__name__, e)",
    "h = torch.zeros(2, 3, requires_grad=True) * 2; h.detach_(); print(h.requires_grad, h.grad_fn, h.is_leaf)",
    "h = torch.zeros(2, 3, requires_grad=True); v = h[0]\ntry:\n    v.detach_()\nexcept RuntimeError as e: print(e)",
    "p = torch.ones(3, requires_grad=True); (p * 2).sum().backward(); p.grad[:] *= 0.5; print(p.grad); n = torch.sqrt(sum(torch.sum(g ** 2) for g in [p.grad, p.grad])); print(n, n > 1, float(n))",
    "rnn_layer = nn.RNN(7, 16); state = torch.zeros((1, 3, 16)); X = torch.rand(size=(5, 3, 7)); Y, state_new = rnn_layer(X, state); print(Y.shape, state_new.shape, Y.grad_fn.name(), state_new.grad_fn.name())",
    "class RNNModel(nn.Module):\n    def __init__(self, rnn_layer, vocab_size, **kwargs):\n        super(RNNModel, self).__init__(**kwargs)\n        self.rnn = rnn_layer\n        self.vocab_size = vocab_size\n        self.num_hiddens = self.rnn.hidden_size\n        if not self.rnn.bidirectional:\n            self.num_directions = 1\n            self.linear = nn.Linear(self.num_hiddens, self.vocab_size)\n        else:\n            self.num_directions = 2\n            self.linear = nn.Linear(self.num_hiddens * 2, self.vocab_size)\n    def forward(self, inputs, state):\n        X = F.one_hot(inputs.T.long(), self.vocab_size)\n        X = X.to(torch.float32)\n        Y, state = self.rnn(X, state)\n        output = self.linear(Y.reshape((-1, Y.shape[-1])))\n        return output, state\n    def begin_state(self, batch_size=1):\n        if not isinstance(self.rnn, nn.LSTM):\n            return torch.zeros((self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens))\n        else:\n            return (torch.zeros((self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)), torch.zeros((self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)))\nfor layer in [nn.RNN(7, 8), nn.GRU(7, 8, num_layers=2), nn.LSTM(7, 8, bidirectional=True)]:\n    net2 = RNNModel(layer, 7); out, st = net2(torch.randint(0, 7, (2, 5)), net2.begin_state(2)); print(type(layer).__name__, out.shape, [s.shape for s in st] if isinstance(st, tuple) else st.shape)",
    "lstm = nn.LSTM(4, 6, num_layers=2, dropout=0.0, batch_first=True); x = torch.randn(3, 5, 4); out, (h, c) = lstm(x); print(out.shape, h.shape, c.shape, torch.allclose(out[:, -1], h[-1]))",
    "gru = nn.GRU(4, 6, bidirectional=True); x = torch.randn(5, 3, 4); out, h = gru(x); print(out.shape, h.shape, torch.allclose(out[-1, :, :6], h[0]), torch.allclose(out[0, :, 6:], h[1]))",
    "lstm = nn.LSTM(4, 6)\ntry:\n    lstm(torch.randn(5, 3, 4), torch.zeros(1, 3, 6))\nexcept (RuntimeError, ValueError, TypeError) as e: print(type(e).__name__, e)",
    "lstm = nn.LSTM(4, 6)\ntry:\n    lstm(torch.randn(5, 3, 4), (torch.zeros(1, 2, 6), torch.zeros(1, 3, 6)))\nexcept RuntimeError as e: print(e)",
    "gru = nn.GRU(4, 6)\ntry:\n    gru(torch.randn(5, 3, 5))\nexcept RuntimeError as e: print(e)",
    "print(nn.LSTM(4, 6, proj_size=3), nn.GRU(4, 6, batch_first=True, bias=False), nn.RNN(2, 3, 2, nonlinearity='relu', bidirectional=True))",
]]

SEQ2SEQ = [r'''
class Seq2SeqEncoder(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0, **kwargs):
        super(Seq2SeqEncoder, self).__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout)
    def forward(self, X, *args):
        X = self.embedding(X)
        X = X.permute(1, 0, 2)
        output, state = self.rnn(X)
        return output, state
class Seq2SeqDecoder(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0, **kwargs):
        super(Seq2SeqDecoder, self).__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers, dropout=dropout)
        self.dense = nn.Linear(num_hiddens, vocab_size)
    def init_state(self, enc_outputs, *args):
        return enc_outputs[1]
    def forward(self, X, state):
        X = self.embedding(X).permute(1, 0, 2)
        context = state[-1].repeat(X.shape[0], 1, 1)
        X_and_context = torch.cat((X, context), 2)
        output, state = self.rnn(X_and_context, state)
        output = self.dense(output).permute(1, 0, 2)
        return output, state
def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X
class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
    def forward(self, pred, label, valid_len):
        weights = torch.ones_like(label)
        weights = sequence_mask(weights, valid_len)
        self.reduction = 'none'
        unweighted_loss = super(MaskedSoftmaxCELoss, self).forward(pred.permute(0, 2, 1), label)
        weighted_loss = (unweighted_loss * weights).mean(dim=1)
        return weighted_loss
encoder = Seq2SeqEncoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
decoder = Seq2SeqDecoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
encoder.eval(); decoder.eval()
X = torch.zeros((4, 7), dtype=torch.long)
''']
S2S = [SEQ2SEQ[0] + s for s in [
    "output, state = encoder(X); print(output.shape, state.shape)",
    "state = decoder.init_state(encoder(X)); output, state = decoder(X, state); print(output.shape, state.shape)",
    "loss = MaskedSoftmaxCELoss(); print(loss(torch.ones(3, 4, 10), torch.ones((3, 4), dtype=torch.long), torch.tensor([4, 2, 0])))",
    "loss = MaskedSoftmaxCELoss(); print(loss, loss.reduction); l = loss(torch.randn(3, 4, 10, requires_grad=True), torch.ones((3, 4), dtype=torch.long), torch.tensor([4, 2, 0])); print(l.grad_fn.name(), l.shape, loss.reduction)",
    "print(torch.ones(2, 3).repeat(2, 1, 1).shape, torch.arange(3).repeat(2), torch.arange(3).repeat(2, 2))",
    "try:\n    torch.ones(2, 3).repeat(2)\nexcept RuntimeError as e: print(e)",
    "def xavier_init_weights(m):\n    if type(m) == nn.Linear:\n        nn.init.xavier_uniform_(m.weight)\n    if type(m) == nn.GRU:\n        for param in m._flat_weights_names:\n            if 'weight' in param:\n                nn.init.xavier_uniform_(m._parameters[param])\nencoder.apply(xavier_init_weights); print(encoder.rnn._flat_weights_names)",
    "def bleu_like(pred_tokens, label_tokens, k):\n    import collections\n    len_pred, len_label = len(pred_tokens), len(label_tokens)\n    score = math.exp(min(0, 1 - len_label / len_pred))\n    for n in range(1, k + 1):\n        num_matches, label_subs = 0, collections.defaultdict(int)\n        for i in range(len_label - n + 1):\n            label_subs[' '.join(label_tokens[i: i + n])] += 1\n        for i in range(len_pred - n + 1):\n            if label_subs[' '.join(pred_tokens[i: i + n])] > 0:\n                num_matches += 1\n                label_subs[' '.join(pred_tokens[i: i + n])] -= 1\n        score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))\n    return score\nprint(f'{bleu_like(\"a b c d\".split(), \"a b c e\".split(), 2):.3f}')",
    "emb = nn.Embedding(10, 3, padding_idx=0); print(emb, emb.weight[0]); x = emb(torch.tensor([[0, 2], [1, 0]])); x.sum().backward(); print(emb.weight.grad[0], x.shape)",
    "emb = nn.Embedding(10, 3)\ntry:\n    emb(torch.tensor([10]))\nexcept IndexError as e: print(e)",
    "emb = nn.Embedding(10, 3)\ntry:\n    emb(torch.tensor([1.0]))\nexcept RuntimeError as e: print(e)",
    "emb = nn.Embedding.from_pretrained(torch.arange(6.).view(3, 2)); print(emb, emb.weight.requires_grad, emb(torch.tensor([2, 0])))",
]]


VAE = [r'''
class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(16, 8)
        self.fc21 = nn.Linear(8, 2)
        self.fc22 = nn.Linear(8, 2)
        self.fc3 = nn.Linear(2, 8)
        self.fc4 = nn.Linear(8, 16)
    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5*logvar)
        eps = torch.randn_like(std)
        return mu + eps*std
    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 16))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 16), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.rand(6, 1, 4, 4)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data, torch.zeros(6)), batch_size=3, shuffle=True)
for epoch in range(1, 3):
    model.train()
    train_loss = 0
    for batch_idx, (d, _) in enumerate(loader):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(d)
        loss = loss_function(recon_batch, d, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.4f}'.format(epoch, batch_idx * len(d), len(loader.dataset), 100. * batch_idx / len(loader), loss.item() / len(d)))
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / len(loader.dataset)))
with torch.no_grad():
    sample = torch.randn(4, 2)
    sample = model.decode(sample)
    print(sample.view(4, 1, 4, 4).shape, sample.requires_grad)
    n = min(d.size(0), 2)
    comparison = torch.cat([d[:n], recon_batch.view(3, 1, 4, 4)[:n]])
    print(comparison.shape)
print(loss.grad_fn.name(), mu.shape, logvar.grad_fn.name())
''',
    "x = torch.tensor([0.2, 0.9]); print(F.binary_cross_entropy(x, torch.tensor([0., 1.]), reduction='sum'), F.binary_cross_entropy(x, torch.tensor([0.5, 0.5]), weight=torch.tensor([1., 2.])))",
    "try:\n    F.binary_cross_entropy(torch.tensor([0.2, 0.9]), torch.tensor([0., 1.]), reduction='total')\nexcept ValueError as e: print(e)",
    "print(F.binary_cross_entropy_with_logits(torch.tensor([0.2, -3.]), torch.tensor([0., 1.]), pos_weight=torch.tensor([2.])), nn.BCEWithLogitsLoss(reduction='none')(torch.tensor([5., -5.]), torch.tensor([1., 1.])))",
    "std = torch.ones(3); print(torch.randn_like(std).shape, torch.randn_like(torch.zeros(2, dtype=torch.float64)).dtype, torch.rand_like(torch.ones(2, 2)).shape)",
    "try:\n    torch.randn_like(torch.zeros(2, dtype=torch.int64))\nexcept RuntimeError as e: print(e)",
]

MNIST_RNN = [r'''
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.rnn = nn.LSTM(input_size=8, hidden_size=16, batch_first=True)
        self.batchnorm = nn.BatchNorm1d(16)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(16, 12)
        self.fc2 = nn.Linear(12, 10)
    def forward(self, input):
        input = input.reshape(-1, 8, 8)
        output, hidden = self.rnn(input)
        output = output[:, -1, :]
        output = self.batchnorm(output)
        output = self.dropout1(output)
        output = self.fc1(output)
        output = F.relu(output)
        output = self.dropout2(output)
        output = self.fc2(output)
        output = F.log_softmax(output, dim=1)
        return output
model = Net()
print(model)
model.eval()
out = model(torch.randn(3, 1, 8, 8))
print(out.shape, out.grad_fn.name())
model.train()
opt = torch.optim.Adadelta(model.parameters(), lr=0.1)
loss = F.nll_loss(model(torch.randn(4, 1, 8, 8)), torch.tensor([1, 2, 3, 4]))
loss.backward(); opt.step()
print(model.batchnorm.num_batches_tracked, model.rnn.weight_hh_l0.grad.shape)
''',
    "d = nn.Dropout2d(0.5); x = torch.ones(2, 3, 2, 2); y = d(x); print(y.shape, sorted(set(y.flatten().tolist())), (y[:, :, 0, 0] == y[:, :, 1, 1]).all())",
    "d = nn.Dropout2d(0.5); x = torch.ones(4, 3); y = d(x); print(y.shape, sorted(set(y.flatten().tolist())))",
    "print(nn.Dropout2d(0.25), nn.Dropout1d(), nn.AlphaDropout(0.2), nn.Dropout3d(0.1, inplace=True))",
]

TRANSLATION = [r'''
PAD_IDX, BOS_IDX, EOS_IDX = 1, 2, 3
def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones((sz, sz))) == 1).transpose(0, 1)
    mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
    return mask
def create_mask(src, tgt):
    src_seq_len = src.shape[0]
    tgt_seq_len = tgt.shape[0]
    tgt_mask = generate_square_subsequent_mask(tgt_seq_len)
    src_mask = torch.zeros((src_seq_len, src_seq_len)).type(torch.bool)
    src_padding_mask = (src == PAD_IDX).transpose(0, 1)
    tgt_padding_mask = (tgt == PAD_IDX).transpose(0, 1)
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask
class PositionalEncoding(nn.Module):
    def __init__(self, emb_size, dropout, maxlen=50):
        super(PositionalEncoding, self).__init__()
        den = torch.exp(- torch.arange(0, emb_size, 2) * math.log(10000) / emb_size)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pos_embedding = torch.zeros((maxlen, emb_size))
        pos_embedding[:, 0::2] = torch.sin(pos * den)
        pos_embedding[:, 1::2] = torch.cos(pos * den)
        pos_embedding = pos_embedding.unsqueeze(-2)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer('pos_embedding', pos_embedding)
    def forward(self, token_embedding):
        return self.dropout(token_embedding + self.pos_embedding[:token_embedding.size(0), :])
class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size, emb_size):
        super(TokenEmbedding, self).__init__()
        self.embedding = nn.Embedding(vocab_size, emb_size)
        self.emb_size = emb_size
    def forward(self, tokens):
        return self.embedding(tokens.long()) * math.sqrt(self.emb_size)
class Seq2SeqTransformer(nn.Module):
    def __init__(self, num_encoder_layers, num_decoder_layers, emb_size, nhead, src_vocab_size, tgt_vocab_size, dim_feedforward=16, dropout=0.0):
        super(Seq2SeqTransformer, self).__init__()
        self.transformer = nn.Transformer(d_model=emb_size, nhead=nhead, num_encoder_layers=num_encoder_layers, num_decoder_layers=num_decoder_layers, dim_feedforward=dim_feedforward, dropout=dropout)
        self.generator = nn.Linear(emb_size, tgt_vocab_size)
        self.src_tok_emb = TokenEmbedding(src_vocab_size, emb_size)
        self.tgt_tok_emb = TokenEmbedding(tgt_vocab_size, emb_size)
        self.positional_encoding = PositionalEncoding(emb_size, dropout=dropout)
    def forward(self, src, trg, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, memory_key_padding_mask):
        src_emb = self.positional_encoding(self.src_tok_emb(src))
        tgt_emb = self.positional_encoding(self.tgt_tok_emb(trg))
        outs = self.transformer(src_emb, tgt_emb, src_mask, tgt_mask, None, src_padding_mask, tgt_padding_mask, memory_key_padding_mask)
        return self.generator(outs)
    def encode(self, src, src_mask):
        return self.transformer.encoder(self.positional_encoding(self.src_tok_emb(src)), src_mask)
    def decode(self, tgt, memory, tgt_mask):
        return self.transformer.decoder(self.positional_encoding(self.tgt_tok_emb(tgt)), memory, tgt_mask)
model = Seq2SeqTransformer(1, 1, 8, 2, 12, 12)
for p in model.parameters():
    if p.dim() > 1:
        nn.init.xavier_uniform_(p)
src = torch.tensor([[2, 2], [5, 6], [7, 3], [3, 1]])
tgt = torch.tensor([[2, 2], [4, 9], [3, 3]])
''']
TRS = [TRANSLATION[0] + s for s in [
    "print(generate_square_subsequent_mask(3)); m = create_mask(src, tgt[:-1]); print([x.shape for x in m], m[0].dtype, m[2])",
    "src_mask, tgt_mask, spm, tpm = create_mask(src, tgt[:-1]); logits = model(src, tgt[:-1], src_mask, tgt_mask, spm, tpm, spm); print(logits.shape, logits.grad_fn.name())",
    """src_mask, tgt_mask, spm, tpm = create_mask(src, tgt[:-1])
loss_fn = torch.nn.CrossEntropyLoss(ignore_index=PAD_IDX)
optimizer = torch.optim.Adam(model.parameters(), lr=0.0001, betas=(0.9, 0.98), eps=1e-9)
model.train()
for i in range(2):
    logits = model(src, tgt[:-1], src_mask, tgt_mask, spm, tpm, spm)
    optimizer.zero_grad()
    tgt_out = tgt[1:, :]
    loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
    loss.backward()
    optimizer.step()
    print(i, round(loss.item(), 4))""",
    """model.eval()
def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = torch.ones(1, 1).fill_(start_symbol).type(torch.long)
    for i in range(max_len-1):
        tgt_mask = (generate_square_subsequent_mask(ys.size(0)).type(torch.bool))
        out = model.decode(ys, memory, tgt_mask)
        out = out.transpose(0, 1)
        prob = model.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.item()
        ys = torch.cat([ys, torch.ones(1, 1).type_as(src.data).fill_(next_word)], dim=0)
        if next_word == EOS_IDX:
            break
    return ys
s = src[:, :1]
print(greedy_decode(model, s, torch.zeros(4, 4).type(torch.bool), 5, BOS_IDX).flatten())""",
    "print(torch.ones(1, 1).fill_(2).type(torch.long), torch.ones(2).type_as(torch.tensor([1])), torch.ones(1, 1).type_as(torch.tensor([1.], dtype=torch.float64)).dtype)",
    "print(model.transformer.encoder.layers[0].self_attn.batch_first, model.transformer.d_model, model.transformer.nhead, type(model.transformer.decoder.norm).__name__)",
    "print((torch.triu(torch.ones((3, 3))) == 1).transpose(0, 1).float().masked_fill(torch.eye(3) == 0, float('-inf')))",
]]

D2L_PRE = [
    "x = torch.arange(12); print(x, x.shape, x.numel()); X = x.reshape(3, 4); print(X, X.reshape(-1, 4).shape, X.reshape(3, -1).shape)",
    "print(torch.zeros((2, 3, 4)).shape, torch.ones((2, 3, 4)).sum(), torch.randn(3, 4).shape, torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))",
    "x = torch.tensor([1.0, 2, 4, 8]); y = torch.tensor([2, 2, 2, 2]); print(x + y, x - y, x * y, x / y, x ** y); print(torch.exp(x))",
    "X = torch.arange(12, dtype=torch.float32).reshape((3, 4)); Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]); print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1)); print(X == Y); print(X.sum())",
    "a = torch.arange(3).reshape((3, 1)); b = torch.arange(2).reshape((1, 2)); print(a, b, a + b)",
    "X = torch.arange(12, dtype=torch.float32).reshape((3, 4)); print(X[-1], X[1:3]); X[1, 2] = 9; X[0:2, :] = 12; print(X)",
    "X = torch.arange(12, dtype=torch.float32).reshape((3, 4)); Y = torch.ones(3, 4); before = id(Y); Y = Y + X; print(id(Y) == before); Z = torch.zeros_like(Y); print('id(Z):', id(Z) == id(Z)); before = id(Z); Z[:] = X + Y; print(id(Z) == before); before = id(X); X += Y; print(id(X) == before)",
    "X = torch.arange(12, dtype=torch.float32).reshape((3, 4)); A = X.numpy(); B = torch.tensor(A); print(type(A), type(B).__name__); a = torch.tensor([3.5]); print(a, a.item(), float(a), int(a))",
    "A = torch.arange(20, dtype=torch.float32).reshape(5, 4); B = A.clone(); print(A, A + B, A * B); a = 2; X = torch.arange(24).reshape(2, 3, 4); print(a + X, (a * X).shape)",
    "A = torch.arange(20, dtype=torch.float32).reshape(5, 4); print(A.sum(axis=0), A.sum(axis=1), A.sum(axis=[0, 1]), A.mean(), A.sum() / A.numel(), A.mean(axis=0), A.sum(axis=0) / A.shape[0])",
    "A = torch.arange(20, dtype=torch.float32).reshape(5, 4); sum_A = A.sum(axis=1, keepdims=True); print(sum_A, A / sum_A, A.cumsum(axis=0))",
    "x = torch.arange(4, dtype=torch.float32); y = torch.ones(4, dtype=torch.float32); print(x, y, torch.dot(x, y), torch.sum(x * y))",
    "A = torch.arange(20, dtype=torch.float32).reshape(5, 4); x = torch.arange(4, dtype=torch.float32); print(A.shape, x.shape, torch.mv(A, x)); B = torch.ones(4, 3); print(torch.mm(A, B))",
    "u = torch.tensor([3.0, -4.0]); print(torch.norm(u), torch.abs(u).sum(), torch.norm(torch.ones((4, 9))))",
    "try:\n    torch.dot(torch.arange(4), torch.ones(4))\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.dot(torch.ones(3), torch.ones(4))\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.mv(torch.ones(5, 4), torch.ones(3))\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(4.0); x.requires_grad_(True); print(x.grad); y = 2 * torch.dot(x, x); print(y); y.backward(); print(x.grad, x.grad == 4 * x); x.grad.zero_(); y = x.sum(); y.backward(); print(x.grad)",
    "x = torch.arange(4.0, requires_grad=True); y = x * x; y.sum().backward(); print(x.grad); x.grad.zero_(); y = x * x; u = y.detach(); z = u * x; z.sum().backward(); print(x.grad == u); x.grad.zero_(); y.sum().backward(); print(x.grad == 2 * x)",
    "x = torch.arange(4.0, requires_grad=True); y = x * x\ntry:\n    y.backward()\nexcept RuntimeError as e: print(e)",
    "def f(a):\n    b = a * 2\n    while b.norm() < 1000:\n        b = b * 2\n    if b.sum() > 0:\n        c = b\n    else:\n        c = 100 * b\n    return c\na = torch.randn(size=(), requires_grad=True); d = f(a); d.backward(); print(a.grad == d / a, d.grad_fn.name())",
    "x = torch.arange(4.0, requires_grad=True); y = x * x; y.backward(gradient=torch.ones(len(y))); print(x.grad)",
    "fair_probs = torch.ones([6]) / 6; print(torch.distributions.multinomial.Multinomial(1, fair_probs).sample(), torch.distributions.multinomial.Multinomial(10, fair_probs).sample(), torch.distributions.multinomial.Multinomial(1000, fair_probs).sample() / 1000)",
    "fair_probs = torch.ones([6]) / 6; counts = torch.distributions.multinomial.Multinomial(10, fair_probs).sample((500,)); cum_counts = counts.cumsum(dim=0); estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True); print(counts.shape, estimates[-1].round(decimals=2), estimates.shape)",
    "M = torch.distributions.Multinomial(5, torch.tensor([0.2, 0.3, 0.5])); s = M.sample(); print(s.sum(), M.log_prob(torch.tensor([1., 1., 3.])), M.mean, M.variance, M)",
    "print(dir(torch.distributions)[:5], 'Normal' in dir(torch.distributions))",
    "help_text = torch.ones.__doc__; print(type(help_text).__name__, len(help_text) > 10)",
]

HOUSE = [r'''
n_train = 12
train_features = torch.randn(n_train, 5) * 3 + 10
train_labels = (train_features.sum(1, keepdim=True) * 1000).abs()
mean, std = train_features.mean(0), train_features.std(0)
train_features = (train_features - mean) / std
loss = nn.MSELoss()
in_features = train_features.shape[1]
def get_net():
    net = nn.Sequential(nn.Linear(in_features, 1))
    return net
def log_rmse(net, features, labels):
    clipped_preds = torch.clamp(net(features), 1, float('inf'))
    rmse = torch.sqrt(loss(torch.log(clipped_preds), torch.log(labels)))
    return rmse.item()
def load_array(data_arrays, batch_size, is_train=True):
    dataset = torch.utils.data.TensorDataset(*data_arrays)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)
def train(net, train_features, train_labels, num_epochs, learning_rate, weight_decay, batch_size):
    train_ls = []
    train_iter = load_array((train_features, train_labels), batch_size)
    optimizer = torch.optim.Adam(net.parameters(), lr=learning_rate, weight_decay=weight_decay)
    for epoch in range(num_epochs):
        for X, y in train_iter:
            optimizer.zero_grad()
            l = loss(net(X), y)
            l.backward()
            optimizer.step()
        train_ls.append(log_rmse(net, train_features, train_labels))
    return train_ls
def get_k_fold_data(k, i, X, y):
    assert k > 1
    fold_size = X.shape[0] // k
    X_train, y_train = None, None
    for j in range(k):
        idx = slice(j * fold_size, (j + 1) * fold_size)
        X_part, y_part = X[idx, :], y[idx]
        if j == i:
            X_valid, y_valid = X_part, y_part
        elif X_train is None:
            X_train, y_train = X_part, y_part
        else:
            X_train = torch.cat([X_train, X_part], 0)
            y_train = torch.cat([y_train, y_part], 0)
    return X_train, y_train, X_valid, y_valid
''']
HOUSES = [HOUSE[0] + s for s in [
    "print(train_features.mean(0).abs().max() < 1e-5, train_features.std(0).round(decimals=4), train_labels.shape)",
    "Xt, yt, Xv, yv = get_k_fold_data(3, 1, train_features, train_labels); print(Xt.shape, yt.shape, Xv.shape, yv.shape)",
    "net = get_net(); ls = train(net, train_features, train_labels, 3, 5, 0, 4); print([round(v, 3) for v in ls])",
    "net = get_net(); print(round(log_rmse(net, train_features, train_labels), 3)); print(torch.clamp(torch.tensor([-1., 0.5, 3.]), 1, float('inf')), torch.clamp(torch.tensor([1, 5]), max=3), torch.clamp(torch.tensor([1., 5.]), min=torch.tensor([2., 2.])))",
    "try:\n    torch.clamp(torch.tensor([1., 2.]))\nexcept RuntimeError as e: print(e)",
    "print(slice(0, 4), torch.arange(10)[slice(2, 8, 3)], torch.arange(12).view(3, 4)[slice(0, 2), :])",
    "import pickle; t = torch.tensor([1., 2.]); print(pickle.loads(pickle.dumps(t)), pickle.loads(pickle.dumps(nn.Linear(2, 1))).weight.shape)",
]]


MISTAKES = [
    "net = nn.Sequential(nn.Flatten(), nn.Linear(16, 3))\ntry:\n    net(torch.randn(2, 1, 5, 5))\nexcept RuntimeError as e: print(e)",
    "conv = nn.Conv2d(3, 4, 3)\ntry:\n    conv(torch.randn(2, 1, 5, 5))\nexcept RuntimeError as e: print(e)",
    "conv = nn.Conv2d(1, 4, 7)\ntry:\n    conv(torch.randn(2, 1, 5, 5))\nexcept RuntimeError as e: print(e)",
    "conv = nn.Conv2d(1, 4, 3)\ntry:\n    conv(torch.randn(5, 5))\nexcept RuntimeError as e: print(e)",
    "conv = nn.Conv2d(1, 4, 3); print(conv(torch.randn(1, 5, 5)).shape)",
    "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\ntry:\n    net[5]\nexcept IndexError as e: print(e)",
    "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU()); print(net[-1], net[0:1], type(net[0:1]).__name__, len(net))",
    "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\ntry:\n    net.load_state_dict({'0.weight': torch.zeros(2, 2)})\nexcept RuntimeError as e: print(e)",
    "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU()); r = net.load_state_dict({'0.weight': torch.zeros(2, 2), 'extra': torch.ones(1)}, strict=False); print(r); print(r.missing_keys, r.unexpected_keys)",
    "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\ntry:\n    net.load_state_dict({'0.weight': torch.zeros(3, 2), '0.bias': torch.zeros(2)})\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.optim.SGD([], lr=0.1)\nexcept ValueError as e: print(e)",
    "try:\n    torch.optim.Adam(nn.Linear(2, 2).parameters(), lr=-1)\nexcept ValueError as e: print(e)",
    "try:\n    torch.optim.Adam(nn.Linear(2, 2).parameters(), betas=(0.9, 1.0))\nexcept ValueError as e: print(e)",
    "try:\n    torch.optim.SGD(nn.Linear(2, 2).parameters())\nexcept TypeError as e: print(e)",
    "try:\n    torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.ones(3)), batch_size=0)\nexcept ValueError as e: print(e)",
    "try:\n    torch.cat([torch.ones(2, 3), torch.ones(3, 2)])\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.cat([torch.ones(2, 3), torch.ones(2, 3)], dim=2)\nexcept IndexError as e: print(e)",
    "try:\n    torch.stack([torch.ones(2, 3), torch.ones(3, 2)])\nexcept RuntimeError as e: print(e)",
    "x = torch.ones(2, 3, requires_grad=True)\ntry:\n    (x * 2).backward()\nexcept RuntimeError as e: print(e)",
    "x = torch.ones(2, 3)\ntry:\n    (x * 2).sum().backward()\nexcept RuntimeError as e: print(e)",
    "x = torch.ones(3, requires_grad=True)\ntry:\n    x.numpy()\nexcept RuntimeError as e: print(e)",
    "x = torch.ones(3, requires_grad=True); print(x.detach().numpy(), x.data.numpy().dtype)",
    "try:\n    F.cross_entropy(torch.randn(3, 4), torch.tensor([[0, 1, 2]]))\nexcept RuntimeError as e: print(e)",
    "try:\n    F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1]))\nexcept ValueError as e: print(e)",
    "try:\n    F.cross_entropy(torch.randn(3, 4), torch.tensor([0., 1., 2.]))\nexcept RuntimeError as e: print(e)",
    "try:\n    F.mse_loss(torch.randn(3, 1), torch.randn(3, 2))\nexcept RuntimeError as e: print(e)",
    "print(F.mse_loss(torch.ones(3, 1), torch.zeros(3)))",
    "print(F.cross_entropy(torch.tensor([[1., 2., 3.]]), torch.tensor([2]), label_smoothing=0.1), F.cross_entropy(torch.tensor([[1., 2., 3.]]), torch.tensor([[0.1, 0.2, 0.7]])))",
    "print(F.cross_entropy(torch.randn(2, 3, 4), torch.tensor([[0, 1, 2, 0], [1, 1, 1, -100]])).shape, F.cross_entropy(torch.randn(2, 3, 4), torch.randint(0, 3, (2, 4)), reduction='none').shape)",
    "x = torch.ones(2, 2)\ntry:\n    x.view(-1, -1)\nexcept RuntimeError as e: print(e)",
    "x = torch.ones(2, 2)\ntry:\n    x.reshape(3, -1)\nexcept RuntimeError as e: print(e)",
    "m = nn.Linear(2, 2)\ntry:\n    m.weight = torch.zeros(2, 2)\nexcept TypeError as e: print(e)",
    "m = nn.Linear(2, 2); m.weight = nn.Parameter(torch.zeros(2, 2)); print(m.weight.sum(), [n for n, _ in m.named_parameters()])",
    "m = nn.Linear(2, 2)\ntry:\n    m.foo\nexcept AttributeError as e: print(e)",
    "m = nn.Sequential(nn.Linear(2, 2))\ntry:\n    m.add_module('a.b', nn.ReLU())\nexcept KeyError as e: print(e)",
]

MODULES = [
    "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])\n        self.heads = nn.ModuleDict({'a': nn.Linear(2, 1), 'b': nn.Linear(2, 3)})\n        self.scales = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])\n    def forward(self, x):\n        for l in self.layers:\n            x = l(x)\n        return {k: h(x) for k, h in self.heads.items()}\nnet = Net(); print(net); print({k: v.shape for k, v in net(torch.randn(4, 2)).items()}); print([n for n, _ in net.named_parameters()])",
    "net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Sequential(nn.Linear(2, 2), nn.Dropout()))\nprint([n for n, _ in net.named_modules()]); print([type(m).__name__ for m in net.children()]); print(sum(1 for _ in net.modules()))",
    "net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))\nfor p in net[0].parameters():\n    p.requires_grad = False\nopt = torch.optim.SGD(filter(lambda p: p.requires_grad, net.parameters()), lr=0.1); print(len(opt.param_groups[0]['params'])); net(torch.randn(2, 4)).sum().backward(); print(net[0].weight.grad, net[2].weight.grad.shape)",
    "net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)); net.requires_grad_(False); print([p.requires_grad for p in net.parameters()]); net[2].requires_grad_(); print([p.requires_grad for p in net.parameters()])",
    "net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)); net[2] = nn.Linear(3, 5); print(net); del net[1]; print(net); net.append(nn.Softmax(dim=1)); print(net[-1], len(net))",
    "net = nn.Sequential(nn.Linear(4, 3)); net.insert(0, nn.Flatten()); net.extend([nn.ReLU(), nn.Identity()]); print(net)",
    "from collections import OrderedDict\nnet = nn.Sequential(OrderedDict([('conv1', nn.Conv2d(1, 20, 5)), ('relu1', nn.ReLU()), ('conv2', nn.Conv2d(20, 64, 5)), ('relu2', nn.ReLU())])); print(net); print(net.conv1, list(net.state_dict())[:2])",
    "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n    def extra_repr(self):\n        return 'custom=1'\nprint(Model())",
    "@torch.no_grad()\ndef evaluate(x):\n    return x * 2\nx = torch.ones(2, requires_grad=True); y = evaluate(x); print(y.requires_grad, evaluate.__name__)",
    "@torch.inference_mode()\ndef evaluate(x):\n    return x * 2\nx = torch.ones(2, requires_grad=True); y = evaluate(x); print(y.requires_grad, y.is_inference())",
    "with torch.inference_mode():\n    y = torch.ones(2) * 2\ntry:\n    y.add_(1)\nexcept RuntimeError as e: print(e)",
    "with torch.inference_mode():\n    y = torch.ones(2) * 2\nx = torch.ones(2, requires_grad=True)\ntry:\n    (x * y).sum().backward(); print(x.grad)\nexcept RuntimeError as e: print(e)",
    "ds = torch.utils.data.TensorDataset(torch.arange(10.)); g = torch.Generator().manual_seed(42); a, b = torch.utils.data.random_split(ds, [0.8, 0.2], generator=g); print(len(a), len(b), a.indices, b.indices)",
    "ds = torch.utils.data.TensorDataset(torch.arange(10.)); a, b = torch.utils.data.random_split(ds, [7, 3], generator=torch.Generator().manual_seed(0)); print(type(a).__name__, a[0], len(b))",
    "ds = torch.utils.data.TensorDataset(torch.arange(10.))\ntry:\n    torch.utils.data.random_split(ds, [7, 4])\nexcept ValueError as e: print(e)",
    "class DS(torch.utils.data.Dataset):\n    def __len__(self):\n        return 5\n    def __getitem__(self, i):\n        return {'x': torch.tensor([i, i + 1.]), 'y': i, 'name': f'item{i}'}\nfor b in torch.utils.data.DataLoader(DS(), batch_size=2):\n    print(b)",
    "from collections import namedtuple\nP = namedtuple('P', ['a', 'b'])\nprint(torch.utils.data.default_collate([P(1, torch.ones(2)), P(2, torch.zeros(2))]))",
    "print(torch.utils.data.default_collate([(1.5, np.array([1, 2])), (2.5, np.array([3, 4]))]))",
    "dl = torch.utils.data.DataLoader(list(range(7)), batch_size=3, drop_last=True); print(list(dl), len(dl))",
    "dl = torch.utils.data.DataLoader(torch.arange(6.), batch_size=4, sampler=torch.utils.data.SubsetRandomSampler([0, 2, 4], generator=torch.Generator().manual_seed(0))); print(list(dl))",
    "w = torch.tensor([0.1, 0.9]); s = torch.utils.data.WeightedRandomSampler(w, 6, generator=torch.Generator().manual_seed(0)); print(list(s))",
]

SCHED = [
    "opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1); s = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.95 ** epoch)\nfor i in range(3):\n    opt.step(); s.step(); print(s.get_last_lr())",
    "opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1); s = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)\nfor i in range(5):\n    opt.step(); s.step(); print([round(v, 6) for v in s.get_last_lr()])",
    "opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9); s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=5)\nfor i in range(4):\n    opt.step(); s.step(); print([round(v, 6) for v in s.get_last_lr()], round(opt.param_groups[0]['momentum'], 4))",
    "opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1); s = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.1)\nfor i in range(4):\n    opt.step(); s.step(); print(s.get_last_lr())\nprint(s.state_dict())",
    "opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1); s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)\nfor loss in [1.0, 1.0, 1.0, 1.0, 0.5]:\n    s.step(loss); print(opt.param_groups[0]['lr'], s.num_bad_epochs)",
    "opt = torch.optim.Adam(nn.Linear(2, 1).parameters(), lr=1e-3, weight_decay=1e-4); print(opt); print(opt.state_dict()['param_groups'])",
    "opt = torch.optim.AdamW(nn.Linear(2, 1).parameters()); print(opt.defaults['weight_decay'], opt.defaults['betas'], opt.defaults['eps'])",
    "lin = nn.Linear(2, 1); opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9, nesterov=True); lin(torch.ones(1, 2)).sum().backward(); opt.step(); print(lin.weight.grad, sorted(opt.state[lin.weight].keys()))",
    "lin = nn.Linear(2, 1); opt = torch.optim.RMSprop(lin.parameters(), lr=0.01, alpha=0.9); lin(torch.ones(1, 2)).sum().backward(); opt.step(); print(sorted(opt.state[lin.weight].keys()), opt.state[lin.weight]['step'])",
]


IMAGENET = [r'''
class AverageMeter(object):
    def __init__(self, name, fmt=':f'):
        self.name = name
        self.fmt = fmt
        self.reset()
    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0
    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count
    def __str__(self):
        fmtstr = '{name} {val' + self.fmt + '} ({avg' + self.fmt + '})'
        return fmtstr.format(**self.__dict__)
class ProgressMeter(object):
    def __init__(self, num_batches, meters, prefix=""):
        self.batch_fmtstr = self._get_batch_fmtstr(num_batches)
        self.meters = meters
        self.prefix = prefix
    def display(self, batch):
        entries = [self.prefix + self.batch_fmtstr.format(batch)]
        entries += [str(meter) for meter in self.meters]
        print('\t'.join(entries))
    def _get_batch_fmtstr(self, num_batches):
        num_digits = len(str(num_batches // 1))
        fmt = '{:' + str(num_digits) + 'd}'
        return '[' + fmt + '/' + fmt.format(num_batches) + ']'
def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res
''']
IMN = [IMAGENET[0] + s for s in [
    "output = torch.randn(8, 10); target = torch.randint(0, 10, (8,)); acc1, acc5 = accuracy(output, target, topk=(1, 5)); print(acc1, acc5, acc1.shape, acc1[0].item())",
    "losses = AverageMeter('Loss', ':.4e'); top1 = AverageMeter('Acc@1', ':6.2f'); progress = ProgressMeter(25, [losses, top1], prefix='Epoch: [{}]'.format(0))\nfor i in range(3):\n    loss = torch.tensor(2.5 / (i + 1)); acc = torch.tensor([62.5 + i])\n    losses.update(loss.item(), 8); top1.update(acc[0], 8)\n    progress.display(i + 1)\nprint(type(top1.avg).__name__, top1.avg)",
    "m = AverageMeter('Time', ':6.3f'); m.update(torch.tensor(0.25)); m.update(torch.tensor(0.5), 3); print(m, m.avg)",
    "x = torch.tensor([[0.1, 0.5, 0.3, 0.05], [0.7, 0.1, 0.15, 0.05]]); v, i = x.topk(2, 1, True, True); print(v, i); print(x.topk(3, dim=1, largest=False)); print(torch.topk(x, 1).indices.t())",
    "x = torch.tensor([1., 3., 3., 2.]); print(x.topk(2), x.topk(2, sorted=True).values)",
    "try:\n    torch.tensor([1., 2.]).topk(3)\nexcept RuntimeError as e: print(e)",
    "pred = torch.tensor([[1, 2], [3, 1]]).t(); target = torch.tensor([1, 3]); c = pred.eq(target.view(1, -1).expand_as(pred)); print(c, c[:1].reshape(-1).float().sum(0, keepdim=True).mul_(100.0 / 2))",
    "try:\n    torch.tensor([[1, 2], [3, 1]]).t().view(-1)\nexcept RuntimeError as e: print(e)",
    "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu'); print(device, device.type, device.index, str(device)); print(torch.backends.mps.is_available(), torch.cuda.device_count())",
    "print(torch.device('cpu'), torch.device('cuda:1'), torch.device('cuda', 0), repr(torch.device('cpu')), torch.device('cpu') == 'cpu')",
    "try:\n    torch.device('gpu')\nexcept RuntimeError as e: print(e)",
    "torch.backends.cudnn.benchmark = True; print(torch.backends.cudnn.benchmark); torch.backends.cudnn.benchmark = False; torch.backends.cudnn.deterministic = True; print(torch.backends.cudnn.deterministic)",
    "def try_gpu(i=0):\n    if torch.cuda.device_count() >= i + 1:\n        return torch.device(f'cuda:{i}')\n    return torch.device('cpu')\ndef try_all_gpus():\n    devices = [torch.device(f'cuda:{i}') for i in range(torch.cuda.device_count())]\n    return devices if devices else [torch.device('cpu')]\nprint(try_gpu(), try_gpu(10), try_all_gpus()); X = torch.ones(2, 3, device=try_gpu()); print(X, X.device)",
    "net = nn.Sequential(nn.Linear(3, 1)); net = net.to(device='cpu'); print(net[0].weight.data.device, next(net.parameters()).is_cuda)",
    "m = nn.Linear(2, 2); print(m.share_memory() is m, m.weight.is_shared())",
    "torch.manual_seed(1); torch.cuda.manual_seed(1); torch.cuda.manual_seed_all(1); print(torch.initial_seed(), torch.randn(2))",
    "print(torch.get_rng_state().shape, torch.get_rng_state().dtype); s = torch.get_rng_state(); a = torch.randn(2); torch.set_rng_state(s); print(torch.equal(a, torch.randn(2)))",
]]

TEXT = [r'''
import collections, random
lines = ['the time machine by h g wells', 'i', 'the time traveller for so it will be convenient to speak of him', 'was expounding a recondite matter to us']
def tokenize(lines, token='word'):
    if token == 'word':
        return [line.split() for line in lines]
    elif token == 'char':
        return [list(line) for line in lines]
def count_corpus(tokens):
    if len(tokens) == 0 or isinstance(tokens[0], list):
        tokens = [token for line in tokens for token in line]
    return collections.Counter(tokens)
class Vocab:
    def __init__(self, tokens=None, min_freq=0, reserved_tokens=None):
        if tokens is None:
            tokens = []
        if reserved_tokens is None:
            reserved_tokens = []
        counter = count_corpus(tokens)
        self._token_freqs = sorted(counter.items(), key=lambda x: x[1], reverse=True)
        self.idx_to_token = ['<unk>'] + reserved_tokens
        self.token_to_idx = {token: idx for idx, token in enumerate(self.idx_to_token)}
        for token, freq in self._token_freqs:
            if freq < min_freq:
                break
            if token not in self.token_to_idx:
                self.idx_to_token.append(token)
                self.token_to_idx[token] = len(self.idx_to_token) - 1
    def __len__(self):
        return len(self.idx_to_token)
    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            return self.token_to_idx.get(tokens, self.unk)
        return [self.__getitem__(token) for token in tokens]
    @property
    def unk(self):
        return 0
tokens = tokenize(lines, 'char')
vocab = Vocab(tokens)
corpus = [vocab[token] for line in tokens for token in line]
def seq_data_iter_random(corpus, batch_size, num_steps):
    corpus = corpus[random.randint(0, num_steps - 1):]
    num_subseqs = (len(corpus) - 1) // num_steps
    initial_indices = list(range(0, num_subseqs * num_steps, num_steps))
    random.shuffle(initial_indices)
    def data(pos):
        return corpus[pos: pos + num_steps]
    num_batches = num_subseqs // batch_size
    for i in range(0, batch_size * num_batches, batch_size):
        initial_indices_per_batch = initial_indices[i: i + batch_size]
        X = [data(j) for j in initial_indices_per_batch]
        Y = [data(j + 1) for j in initial_indices_per_batch]
        yield torch.tensor(X), torch.tensor(Y)
def seq_data_iter_sequential(corpus, batch_size, num_steps):
    offset = random.randint(0, num_steps)
    num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = torch.tensor(corpus[offset: offset + num_tokens])
    Ys = torch.tensor(corpus[offset + 1: offset + 1 + num_tokens])
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        X = Xs[:, i: i + num_steps]
        Y = Ys[:, i: i + num_steps]
        yield X, Y
random.seed(0)
''']
TXT = [TEXT[0] + s for s in [
    "print(len(vocab), vocab.idx_to_token[:6], len(corpus), corpus[:10])",
    "my_seq = list(range(35))\nfor X, Y in seq_data_iter_random(my_seq, batch_size=2, num_steps=5):\n    print('X: ', X, '\\nY:', Y)",
    "my_seq = list(range(35))\nfor X, Y in seq_data_iter_sequential(my_seq, batch_size=2, num_steps=5):\n    print('X: ', X, '\\nY:', Y)",
    "def truncate_pad(line, num_steps, padding_token):\n    if len(line) > num_steps:\n        return line[:num_steps]\n    return line + [padding_token] * (num_steps - len(line))\nsrc = [vocab[list(l)] + [1] for l in lines]\narray = torch.tensor([truncate_pad(l, 10, 2) for l in src])\nvalid_len = (array != 2).type(torch.int32).sum(1)\nprint(array, valid_len, valid_len.dtype)",
    "print(torch.tensor([]).shape, torch.tensor([[]]).shape, torch.tensor([[], []]).dtype)",
    "try:\n    torch.tensor([[1, 2], [3]])\nexcept ValueError as e: print(e)",
    "try:\n    torch.tensor([1, 'a'])\nexcept (TypeError, ValueError) as e: print(type(e).__name__, e)",
]]

W2V = [
    "embed = nn.Embedding(num_embeddings=20, embedding_dim=4); print(f'Parameter embedding_weight ({embed.weight.shape}, dtype={embed.weight.dtype})'); x = torch.tensor([[1, 2, 3], [4, 5, 6]]); print(embed(x).shape)",
    "def skip_gram(center, contexts_and_negatives, embed_v, embed_u):\n    v = embed_v(center)\n    u = embed_u(contexts_and_negatives)\n    pred = torch.bmm(v, u.permute(0, 2, 1))\n    return pred\nprint(skip_gram(torch.ones((2, 1), dtype=torch.long), torch.ones((2, 4), dtype=torch.long), nn.Embedding(20, 4), nn.Embedding(20, 4)).shape)",
    "class SigmoidBCELoss(nn.Module):\n    def __init__(self):\n        super().__init__()\n    def forward(self, inputs, target, mask=None):\n        out = nn.functional.binary_cross_entropy_with_logits(inputs, target, weight=mask, reduction='none')\n        return out.mean(dim=1)\nloss = SigmoidBCELoss()\npred = torch.tensor([[1.1, -2.2, 3.3, -4.4]] * 2)\nlabel = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])\nmask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])\nprint(loss(pred, label, mask) * mask.shape[1] / mask.sum(axis=1))\ndef sigmd(x):\n    return -math.log(1 / (1 + math.exp(-x)))\nprint(f'{(sigmd(1.1) + sigmd(2.2) + sigmd(-3.3) + sigmd(4.4)) / 4:.4f}')",
    "W = torch.randn(10, 4); x = W[3]; cos = torch.mv(W, x) / torch.sqrt(torch.sum(W * W, dim=1) * torch.sum(x * x) + 1e-9); topk = torch.topk(cos, k=3)[1].cpu().numpy().astype('int32'); print(topk, topk.dtype, cos[topk[0]].round(decimals=4))",
    "print(F.cosine_similarity(torch.tensor([[1., 0.], [1., 1.]]), torch.tensor([[1., 0.], [-1., 1.]])), nn.CosineSimilarity(dim=0)(torch.ones(3), torch.ones(3)))",
]

BERT = [
    "def get_tokens_and_segments(tokens_a, tokens_b=None):\n    tokens = ['<cls>'] + tokens_a + ['<sep>']\n    segments = [0] * (len(tokens_a) + 2)\n    if tokens_b is not None:\n        tokens += tokens_b + ['<sep>']\n        segments += [1] * (len(tokens_b) + 1)\n    return tokens, segments\nprint(get_tokens_and_segments(['a', 'b'], ['c']))",
    "class MaskLM(nn.Module):\n    def __init__(self, vocab_size, num_hiddens, num_inputs=8, **kwargs):\n        super(MaskLM, self).__init__(**kwargs)\n        self.mlp = nn.Sequential(nn.Linear(num_inputs, num_hiddens), nn.ReLU(), nn.LayerNorm(num_hiddens), nn.Linear(num_hiddens, vocab_size))\n    def forward(self, X, pred_positions):\n        num_pred_positions = pred_positions.shape[1]\n        pred_positions = pred_positions.reshape(-1)\n        batch_size = X.shape[0]\n        batch_idx = torch.arange(0, batch_size)\n        batch_idx = torch.repeat_interleave(batch_idx, num_pred_positions)\n        masked_X = X[batch_idx, pred_positions]\n        masked_X = masked_X.reshape((batch_size, num_pred_positions, -1))\n        mlm_Y_hat = self.mlp(masked_X)\n        return mlm_Y_hat\nmlm = MaskLM(20, 8); encoded_X = torch.randn(2, 8, 8); mlm_positions = torch.tensor([[1, 5, 2], [6, 1, 5]]); mlm_Y_hat = mlm(encoded_X, mlm_positions); print(mlm_Y_hat.shape)\nmlm_Y = torch.tensor([[7, 8, 9], [10, 11, 12]]); loss = nn.CrossEntropyLoss(reduction='none'); mlm_l = loss(mlm_Y_hat.reshape((-1, 20)), mlm_Y.reshape(-1)); print(mlm_l.shape, mlm_l.grad_fn.name())",
    "pos = nn.Parameter(torch.randn(1, 10, 4)); X = torch.zeros(2, 6, 4); X = X + pos.data[:, :X.shape[1], :]; print(X.shape, X.requires_grad); Y = torch.zeros(2, 6, 4) + pos[:, :6, :]; print(Y.grad_fn.name())",
    "X = torch.arange(24).reshape(2, 3, 4); print(X[torch.tensor([0, 0, 1]), torch.tensor([2, 0, 1])], X[[0, 1], :, [3, 0]].shape, X[:, [0, 2]].shape, X[..., [1]].shape)",
    "X = torch.arange(24).reshape(2, 3, 4)\ntry:\n    X[torch.tensor([0, 2])]\nexcept IndexError as e: print(e)",
    "X = torch.arange(24).reshape(2, 3, 4)\ntry:\n    X[torch.tensor([0, 1]), torch.tensor([0, 1, 2])]\nexcept IndexError as e: print(e)",
]

DETECT = [
    "def multibox_prior(data, sizes, ratios):\n    in_height, in_width = data.shape[-2:]\n    device, num_sizes, num_ratios = data.device, len(sizes), len(ratios)\n    boxes_per_pixel = (num_sizes + num_ratios - 1)\n    size_tensor = torch.tensor(sizes, device=device)\n    ratio_tensor = torch.tensor(ratios, device=device)\n    offset_h, offset_w = 0.5, 0.5\n    steps_h = 1.0 / in_height\n    steps_w = 1.0 / in_width\n    center_h = (torch.arange(in_height, device=device) + offset_h) * steps_h\n    center_w = (torch.arange(in_width, device=device) + offset_w) * steps_w\n    shift_y, shift_x = torch.meshgrid(center_h, center_w, indexing='ij')\n    shift_y, shift_x = shift_y.reshape(-1), shift_x.reshape(-1)\n    w = torch.cat((size_tensor * torch.sqrt(ratio_tensor[0]), sizes[0] * torch.sqrt(ratio_tensor[1:]))) * in_height / in_width\n    h = torch.cat((size_tensor / torch.sqrt(ratio_tensor[0]), sizes[0] / torch.sqrt(ratio_tensor[1:])))\n    anchor_manipulations = torch.stack((-w, -h, w, h)).T.repeat(in_height * in_width, 1) / 2\n    out_grid = torch.stack([shift_x, shift_y, shift_x, shift_y], dim=1).repeat_interleave(boxes_per_pixel, dim=0)\n    output = out_grid + anchor_manipulations\n    return output.unsqueeze(0)\nX = torch.rand(size=(1, 3, 4, 6)); Y = multibox_prior(X, sizes=[0.75, 0.5, 0.25], ratios=[1, 2, 0.5]); print(Y.shape); boxes = Y.reshape(4, 6, 5, 4); print(boxes[2, 2, 0, :])",
    "def box_iou(boxes1, boxes2):\n    box_area = lambda boxes: ((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))\n    areas1 = box_area(boxes1)\n    areas2 = box_area(boxes2)\n    inter_upperlefts = torch.max(boxes1[:, None, :2], boxes2[:, :2])\n    inter_lowerrights = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])\n    inters = (inter_lowerrights - inter_upperlefts).clamp(min=0)\n    inter_areas = inters[:, :, 0] * inters[:, :, 1]\n    union_areas = areas1[:, None] + areas2 - inter_areas\n    return inter_areas / union_areas\nb1 = torch.tensor([[0., 0., 2., 2.], [1., 1., 3., 3.]]); b2 = torch.tensor([[1., 1., 2., 2.], [0., 0., 1., 1.], [5., 5., 6., 6.]]); iou = box_iou(b1, b2); print(iou); max_ious, indices = torch.max(iou, dim=1); print(max_ious, indices); anc_i = torch.nonzero(max_ious >= 0.2).reshape(-1); print(anc_i)",
    "def nms(boxes, scores, iou_threshold, box_iou):\n    B = torch.argsort(scores, dim=-1, descending=True)\n    keep = []\n    while B.numel() > 0:\n        i = B[0]\n        keep.append(i)\n        if B.numel() == 1: break\n        iou = box_iou(boxes[i, :].reshape(-1, 4), boxes[B[1:], :].reshape(-1, 4)).reshape(-1)\n        inds = torch.nonzero(iou <= iou_threshold).reshape(-1)\n        B = B[inds + 1]\n    return torch.tensor(keep, device=boxes.device)\ndef box_iou(boxes1, boxes2):\n    area = lambda b: (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])\n    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2]); rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])\n    inter = (rb - lt).clamp(min=0).prod(2)\n    return inter / (area(boxes1)[:, None] + area(boxes2) - inter)\nboxes = torch.tensor([[0.1, 0.08, 0.52, 0.92], [0.08, 0.2, 0.56, 0.95], [0.15, 0.3, 0.62, 0.91], [0.55, 0.2, 0.9, 0.88]]); scores = torch.tensor([0.9, 0.8, 0.7, 0.9]); print(nms(boxes, scores, 0.5, box_iou))",
    "print(torch.tensor([torch.tensor(3), torch.tensor(1)]), torch.tensor([torch.tensor(1.5)]).dtype)",
    "try:\n    torch.tensor([torch.tensor([1, 2]), torch.tensor([3, 4])])\nexcept (ValueError, TypeError, RuntimeError) as e: print(type(e).__name__, e)",
    "x = torch.tensor([0.2, 0.5, 0.1, 0.5]); print(torch.argsort(x, descending=True), torch.argsort(x, descending=True, stable=True), x.argsort(), torch.sort(x, descending=True))",
    "x = torch.tensor([[0, 1], [2, 0]]); print(torch.nonzero(x), torch.nonzero(x, as_tuple=True), x.nonzero().shape, torch.argwhere(x))",
    "a, b = torch.meshgrid(torch.arange(3), torch.arange(2), indexing='ij'); print(a, b); c, d = torch.meshgrid(torch.arange(3), torch.arange(2), indexing='xy'); print(c.shape)",
    "x = torch.tensor([[2., 1., 4., 3.]]); print(x.T, x.mT.shape, torch.tensor([1., 2.]).T)",
]

OPTIM = [
    "def f_2d(x1, x2):\n    return 0.1 * x1 ** 2 + 2 * x2 ** 2\ndef gd_2d(x1, x2, s1, s2, eta=0.4):\n    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)\nx1, x2, s1, s2 = -5, -2, 0, 0\nfor i in range(5):\n    x1, x2, s1, s2 = gd_2d(x1, x2, s1, s2)\nprint(f'epoch 5, x1: {x1:f}, x2: {x2:f}')\nx1g, x2g = torch.meshgrid(torch.arange(-5.5, 1.0, 0.5), torch.arange(-3.0, 1.0, 0.5), indexing='ij'); print(x1g.shape, f_2d(x1g, x2g).max())",
    "def init_momentum_states(feature_dim):\n    v_w = torch.zeros((feature_dim, 1))\n    v_b = torch.zeros(1)\n    return (v_w, v_b)\ndef sgd_momentum(params, states, hyperparams):\n    for p, v in zip(params, states):\n        with torch.no_grad():\n            v[:] = hyperparams['momentum'] * v + p.grad\n            p[:] -= hyperparams['lr'] * v\n        p.grad.data.zero_()\nw = torch.ones(3, 1, requires_grad=True); b = torch.zeros(1, requires_grad=True); states = init_momentum_states(3)\nfor i in range(3):\n    l = ((torch.ones(4, 3) @ w + b - 1) ** 2).mean(); l.backward(); sgd_momentum([w, b], states, {'lr': 0.05, 'momentum': 0.5}); print(round(l.item(), 4), states[1])",
    "def adagrad(params, states, hyperparams):\n    eps = 1e-6\n    for p, s in zip(params, states):\n        with torch.no_grad():\n            s[:] += torch.square(p.grad)\n            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)\n        p.grad.data.zero_()\nw = torch.ones(2, requires_grad=True); s = [torch.zeros(2)]\nfor i in range(3):\n    (w * torch.tensor([1., 2.])).sum().backward(); adagrad([w], s, {'lr': 0.1}); print(w, s[0])",
    "def adam(params, states, hyperparams):\n    beta1, beta2, eps = 0.9, 0.999, 1e-6\n    for p, (v, s) in zip(params, states):\n        with torch.no_grad():\n            v[:] = beta1 * v + (1 - beta1) * p.grad\n            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)\n            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])\n            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])\n            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)\n        p.grad.data.zero_()\n    hyperparams['t'] += 1\nw = torch.ones(2, requires_grad=True); st = [(torch.zeros(2), torch.zeros(2))]; hp = {'lr': 0.01, 't': 1}\nfor i in range(3):\n    (w ** 2).sum().backward(); adam([w], st, hp)\nprint(w, hp['t'])",
    "w = torch.ones(2, requires_grad=True)\ntry:\n    w[:] -= 0.1\nexcept RuntimeError as e: print(e)",
    "w = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    w[:] -= 0.1\nprint(w, w.grad_fn, w.is_leaf, w._version)",
    "print(torch.square(torch.tensor([1, -2])), torch.square(torch.tensor([1.5])), torch.tensor([2]).square().dtype)",
    "lr_sched = lambda t: 0.1 * (t + 1) ** (-0.5); print([round(lr_sched(t), 4) for t in range(3)])",
]


MORE = [
    "x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True); y = torch.sigmoid(x); y.backward(torch.ones_like(x)); print(x.grad[::20], x.grad.max())",
    "M = torch.normal(0, 1, size=(4, 4)); print('一个矩阵 \\n', M)\nfor i in range(100):\n    M = torch.mm(M, torch.normal(0, 1, size=(4, 4)))\nprint('乘以100个矩阵后\\n', M)",
    "M = torch.normal(0, 1, size=(4, 4))\nfor i in range(30):\n    M = torch.mm(M, torch.normal(0, 1, size=(4, 4)))\nprint((M / M.abs().max()).round(decimals=3))",
    "def bilinear_kernel(in_channels, out_channels, kernel_size):\n    factor = (kernel_size + 1) // 2\n    if kernel_size % 2 == 1:\n        center = factor - 1\n    else:\n        center = factor - 0.5\n    og = (torch.arange(kernel_size).reshape(-1, 1), torch.arange(kernel_size).reshape(1, -1))\n    filt = (1 - torch.abs(og[0] - center) / factor) * (1 - torch.abs(og[1] - center) / factor)\n    weight = torch.zeros((in_channels, out_channels, kernel_size, kernel_size))\n    weight[range(in_channels), range(out_channels), :, :] = filt\n    return weight\nconv_trans = nn.ConvTranspose2d(3, 3, kernel_size=4, padding=1, stride=2, bias=False); conv_trans.weight.data.copy_(bilinear_kernel(3, 3, 4)); print(conv_trans.weight[0, 0]); X = torch.arange(12.).reshape(1, 3, 2, 2); Y = conv_trans(X); print(Y.shape, Y[0, 0])",
    "X = torch.rand(size=(1, 10, 16, 16)); conv = nn.Conv2d(10, 20, kernel_size=5, padding=2, stride=3); tconv = nn.ConvTranspose2d(20, 10, kernel_size=5, padding=2, stride=3); print(tconv(conv(X)).shape == X.shape, tconv(conv(X)).shape)",
    "X = torch.arange(9.0).reshape(3, 3); K = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\ndef kernel2matrix(K):\n    k, W = torch.zeros(5), torch.zeros((4, 9))\n    k[:2], k[3:5] = K[0, :], K[1, :]\n    W[0, :5], W[1, 1:6], W[2, 3:8], W[3, 4:] = k, k, k, k\n    return W\nW = kernel2matrix(K); print(W); print(torch.matmul(W, X.reshape(-1)).reshape(2, 2))",
    "X = torch.arange(9.0).reshape(1, 1, 3, 3); K = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]); tconv = nn.ConvTranspose2d(1, 1, kernel_size=2, bias=False); tconv.weight.data = K; print(tconv(X)); print(F.conv_transpose2d(X, K, stride=2)); print(F.conv2d(X, K, padding=1))",
    "def tv_loss(Y_hat):\n    return 0.5 * (torch.abs(Y_hat[:, :, 1:, :] - Y_hat[:, :, :-1, :]).mean() + torch.abs(Y_hat[:, :, :, 1:] - Y_hat[:, :, :, :-1]).mean())\nY = torch.arange(18.).reshape(1, 2, 3, 3); print(tv_loss(Y))",
    "def gram(X):\n    num_channels, n = X.shape[1], X.numel() // X.shape[1]\n    X = X.reshape((num_channels, n))\n    return torch.matmul(X, X.T) / (num_channels * n)\nprint(gram(torch.arange(12.).reshape(1, 3, 2, 2)))",
    "class SynthesizedImage(nn.Module):\n    def __init__(self, img_shape, **kwargs):\n        super(SynthesizedImage, self).__init__(**kwargs)\n        self.weight = nn.Parameter(torch.rand(*img_shape))\n    def forward(self):\n        return self.weight\ngen_img = SynthesizedImage((1, 3, 2, 2)); gen_img.weight.data.copy_(torch.zeros(1, 3, 2, 2)); trainer = torch.optim.Adam(gen_img.parameters(), lr=0.5); l = (gen_img() - 1).pow(2).sum(); l.backward(); trainer.step(); print(gen_img.weight[0, 0])",
    "def cls_predictor(num_inputs, num_anchors, num_classes):\n    return nn.Conv2d(num_inputs, num_anchors * (num_classes + 1), kernel_size=3, padding=1)\ndef forward(x, block):\n    return block(x)\nY1 = forward(torch.zeros((2, 8, 20, 20)), cls_predictor(8, 5, 10)); Y2 = forward(torch.zeros((2, 16, 10, 10)), cls_predictor(16, 3, 10)); print(Y1.shape, Y2.shape)\ndef flatten_pred(pred):\n    return torch.flatten(pred.permute(0, 2, 3, 1), start_dim=1)\ndef concat_preds(preds):\n    return torch.cat([flatten_pred(p) for p in preds], dim=1)\nprint(concat_preds([Y1, Y2]).shape)",
    "def down_sample_blk(in_channels, out_channels):\n    blk = []\n    for _ in range(2):\n        blk.append(nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1))\n        blk.append(nn.BatchNorm2d(out_channels))\n        blk.append(nn.ReLU())\n        in_channels = out_channels\n    blk.append(nn.MaxPool2d(2))\n    return nn.Sequential(*blk)\nprint(down_sample_blk(3, 10)(torch.zeros((2, 3, 20, 20))).shape)",
    "cls_loss = nn.CrossEntropyLoss(reduction='none'); bbox_loss = nn.L1Loss(reduction='none')\ndef calc_loss(cls_preds, cls_labels, bbox_preds, bbox_labels, bbox_masks):\n    batch_size, num_classes = cls_preds.shape[0], cls_preds.shape[2]\n    cls = cls_loss(cls_preds.reshape(-1, num_classes), cls_labels.reshape(-1)).reshape(batch_size, -1).mean(dim=1)\n    bbox = bbox_loss(bbox_preds * bbox_masks, bbox_labels * bbox_masks).mean(dim=1)\n    return cls + bbox\ncp = torch.randn(2, 5, 3); cl = torch.randint(0, 3, (2, 5)); bp = torch.randn(2, 20); bl = torch.randn(2, 20); bm = (torch.rand(2, 20) > 0.5).float(); l = calc_loss(cp, cl, bp, bl, bm); print(l.shape, l.round(decimals=4))\ndef cls_eval(cls_preds, cls_labels):\n    return float((cls_preds.argmax(dim=-1).type(cls_labels.dtype) == cls_labels).sum())\nprint(cls_eval(cp, cl))",
    "X = torch.normal(0.0, 1, (100, 2)); A = torch.tensor([[1, 2], [-0.1, 0.5]]); b = torch.tensor([1, 2]); data = torch.matmul(X, A) + b; print(data.shape, data.dtype, f'The covariance matrix is\\n{torch.matmul(A.T, A)}')",
    """net_G = nn.Sequential(nn.Linear(2, 2)); net_D = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 3), nn.Tanh(), nn.Linear(3, 1))
def update_D(X, Z, net_D, net_G, loss, trainer_D):
    batch_size = X.shape[0]
    ones = torch.ones((batch_size,), device=X.device)
    zeros = torch.zeros((batch_size,), device=X.device)
    trainer_D.zero_grad()
    real_Y = net_D(X)
    fake_X = net_G(Z)
    fake_Y = net_D(fake_X.detach())
    loss_D = (loss(real_Y, ones.reshape(real_Y.shape)) + loss(fake_Y, zeros.reshape(fake_Y.shape))) / 2
    loss_D.backward()
    trainer_D.step()
    return loss_D
def update_G(Z, net_D, net_G, loss, trainer_G):
    batch_size = Z.shape[0]
    ones = torch.ones((batch_size,), device=Z.device)
    trainer_G.zero_grad()
    fake_X = net_G(Z)
    fake_Y = net_D(fake_X)
    loss_G = loss(fake_Y, ones.reshape(fake_Y.shape))
    loss_G.backward()
    trainer_G.step()
    return loss_G
loss = nn.BCEWithLogitsLoss(reduction='sum')
for w in net_D.parameters():
    nn.init.normal_(w, 0, 0.02)
for w in net_G.parameters():
    nn.init.normal_(w, 0, 0.02)
trainer_D = torch.optim.Adam(net_D.parameters(), lr=0.05)
trainer_G = torch.optim.Adam(net_G.parameters(), lr=0.005)
X = torch.normal(0.0, 1, (8, 2))
for epoch in range(3):
    Z = torch.normal(0, 1, size=(8, 2))
    ld = update_D(X, Z, net_D, net_G, loss, trainer_D)
    lg = update_G(Z, net_D, net_G, loss, trainer_G)
    print(f'loss_D {ld.item() / 8:.4f}, loss_G {lg.item() / 8:.4f}')
Z = torch.normal(0, 1, size=(3, 2)); fake_X = net_G(Z).detach().numpy(); print(fake_X.shape, fake_X.dtype)""",
    "class G_block(nn.Module):\n    def __init__(self, out_channels, in_channels=3, kernel_size=4, strides=2, padding=1, **kwargs):\n        super(G_block, self).__init__(**kwargs)\n        self.conv2d_trans = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, strides, padding, bias=False)\n        self.batch_norm = nn.BatchNorm2d(out_channels)\n        self.activation = nn.ReLU()\n    def forward(self, X):\n        return self.activation(self.batch_norm(self.conv2d_trans(X)))\nx = torch.zeros((2, 3, 16, 16)); g_blk = G_block(20); print(g_blk(x).shape); x = torch.zeros((2, 3, 1, 1)); g_blk = G_block(20, strides=1, padding=0); print(g_blk(x).shape); print(g_blk)",
    "alphas = [0, .2, .4, .6, .8, 1]; x = torch.arange(-2, 1, 0.1); Y = [nn.LeakyReLU(alpha)(x).detach().numpy() for alpha in alphas]; print(len(Y), Y[1][:3], Y[1].dtype)",
    "def corr1d(X, K):\n    w = K.shape[0]\n    Y = torch.zeros((X.shape[0] - w + 1))\n    for i in range(Y.shape[0]):\n        Y[i] = (X[i: i + w] * K).sum()\n    return Y\nX, K = torch.tensor([0, 1, 2, 3, 4, 5, 6]), torch.tensor([1, 2]); print(corr1d(X, K))\ndef corr1d_multi_in(X, K):\n    return sum(corr1d(x, k) for x, k in zip(X, K))\nX = torch.tensor([[0, 1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 8]]); K = torch.tensor([[1, 2], [3, 4], [-1, -3]]); print(corr1d_multi_in(X, K))",
    "class TextCNN(nn.Module):\n    def __init__(self, vocab_size, embed_size, kernel_sizes, num_channels, **kwargs):\n        super(TextCNN, self).__init__(**kwargs)\n        self.embedding = nn.Embedding(vocab_size, embed_size)\n        self.constant_embedding = nn.Embedding(vocab_size, embed_size)\n        self.dropout = nn.Dropout(0.5)\n        self.decoder = nn.Linear(sum(num_channels), 2)\n        self.pool = nn.AdaptiveAvgPool1d(1)\n        self.relu = nn.ReLU()\n        self.convs = nn.ModuleList()\n        for c, k in zip(num_channels, kernel_sizes):\n            self.convs.append(nn.Conv1d(2 * embed_size, c, k))\n    def forward(self, inputs):\n        embeddings = torch.cat((self.embedding(inputs), self.constant_embedding(inputs)), dim=2)\n        embeddings = embeddings.permute(0, 2, 1)\n        encoding = torch.cat([torch.squeeze(self.relu(self.pool(conv(embeddings))), dim=-1) for conv in self.convs], dim=1)\n        outputs = self.decoder(self.dropout(encoding))\n        return outputs\nnet = TextCNN(20, 4, [3, 4, 5], [6, 6, 6])\ndef init_weights(module):\n    if type(module) in (nn.Linear, nn.Conv1d):\n        nn.init.xavier_uniform_(module.weight)\nnet.apply(init_weights); net.constant_embedding.weight.requires_grad = False; net.eval(); out = net(torch.randint(0, 20, (2, 9))); print(out.shape, out.grad_fn.name()); print(net)",
    "def mlp(num_inputs, num_hiddens, flatten):\n    net = []\n    net.append(nn.Dropout(0.2))\n    net.append(nn.Linear(num_inputs, num_hiddens))\n    net.append(nn.ReLU())\n    if flatten:\n        net.append(nn.Flatten(start_dim=1))\n    net.append(nn.Dropout(0.2))\n    net.append(nn.Linear(num_hiddens, num_hiddens))\n    net.append(nn.ReLU())\n    if flatten:\n        net.append(nn.Flatten(start_dim=1))\n    return nn.Sequential(*net)\nclass Attend(nn.Module):\n    def __init__(self, num_inputs, num_hiddens, **kwargs):\n        super(Attend, self).__init__(**kwargs)\n        self.f = mlp(num_inputs, num_hiddens, flatten=False)\n    def forward(self, A, B):\n        f_A = self.f(A)\n        f_B = self.f(B)\n        e = torch.bmm(f_A, f_B.permute(0, 2, 1))\n        beta = torch.bmm(F.softmax(e, dim=-1), B)\n        alpha = torch.bmm(F.softmax(e.permute(0, 2, 1), dim=-1), A)\n        return beta, alpha\nat = Attend(4, 8); at.eval(); beta, alpha = at(torch.randn(2, 3, 4), torch.randn(2, 5, 4)); print(beta.shape, alpha.shape, beta.grad_fn.name())",
    "x = torch.randn(2, 3, 1); print(torch.squeeze(x, dim=-1).shape, x.squeeze(0).shape, x.squeeze((0, 2)).shape, torch.squeeze(torch.zeros(1, 1)).shape)",
    "print(nn.AdaptiveAvgPool1d(1)(torch.arange(6.).view(1, 2, 3)), nn.AdaptiveMaxPool1d(2)(torch.arange(6.).view(1, 2, 3)), nn.AdaptiveAvgPool2d((None, 1))(torch.arange(8.).view(1, 1, 2, 4)))",
    "print(nn.Conv1d(8, 6, 3), nn.Conv1d(8, 6, 3)(torch.randn(2, 8, 9)).shape, nn.Conv1d(4, 4, 3, groups=2, padding='same', bias=False))",
    "try:\n    nn.Conv1d(4, 4, 3, stride=2, padding='same')\nexcept ValueError as e: print(e)",
    "try:\n    nn.Conv2d(4, 6, 3, groups=4)\nexcept ValueError as e: print(e)",
    "print(nn.Conv2d(2, 4, 3, padding='valid'), nn.Conv2d(2, 4, (3, 5), stride=(2, 1), dilation=2, padding_mode='reflect', padding=2), nn.Conv2d(2, 4, 3, padding='same', padding_mode='circular'))",
]


PRINTS = [
    "net = nn.Sequential(nn.Linear(20, 30), nn.BatchNorm1d(30)); print(net.state_dict())",
    "net = nn.Linear(300, 4); print(net.weight); print(net.bias)",
    "print(torch.randn(1001)); print(torch.arange(2000).reshape(2, 1000))",
    "print(torch.randn(3, 200, 3)[:, :4])",
    "lin = nn.Linear(2, 2); opt = torch.optim.Adam(lin.parameters(), lr=0.1); lin(torch.ones(1, 2)).sum().backward(); opt.step(); print(opt.state_dict())",
    "lin = nn.Linear(2, 2); opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9); lin(torch.ones(1, 2)).sum().backward(); opt.step(); print(opt.state_dict())",
    "opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1); s = torch.optim.lr_scheduler.StepLR(opt, 2); opt.step(); s.step(); print(s.state_dict())",
    "opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1); s = torch.optim.lr_scheduler.CosineAnnealingLR(opt, 10); print(s.state_dict())",
    "torch.set_printoptions(precision=2); print(torch.tensor([1.23456, 2.5])); torch.set_printoptions(sci_mode=False); print(torch.tensor([1e-8, 1e8])); torch.set_printoptions(profile='default'); print(torch.tensor([1e-8, 1e8]))",
    "torch.set_printoptions(linewidth=40); print(torch.arange(20.)); torch.set_printoptions(profile='default')",
    "torch.set_printoptions(threshold=5, edgeitems=2); print(torch.arange(10)); torch.set_printoptions(profile='default'); print(torch.arange(10))",
    "print(torch.tensor([1e-5, 1.0]), torch.tensor([1e10, 1.]), torch.tensor([0.1, 100000.]), torch.tensor([float('nan'), 1.5, float('inf')]), torch.tensor([1e-3, 1.0]))",
    "print(torch.tensor([123456789.]), torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1.5], dtype=torch.float16), torch.tensor([2.], dtype=torch.bfloat16))",
    "x = torch.randn(2, 3, requires_grad=True); print(x * 2); print((x * 2).sum()); print(x.mean(dim=0, keepdim=True))",
    "print(torch.zeros(2, 0), torch.ones(0, 3, dtype=torch.int64), torch.empty(0).shape)",
    "p = nn.Parameter(torch.ones(2, 2)); print(p); print([p]); print({'w': p})",
    "m = nn.BatchNorm2d(2); print(m.state_dict()); print(dict(m.named_buffers()))",
    "print(torch.tensor(3.), torch.tensor(-0.), torch.tensor(1e20), torch.tensor(True), torch.tensor(3), torch.tensor(2 + 3j))",
    "print(torch.tensor([[1.5, -2.25], [1000.0, 0.001]])); print(torch.tensor([[1, -2], [1000, 0]]))",
    "print(repr(torch.tensor([1., 2.])), str(torch.tensor([1., 2.])), f'{torch.tensor([1., 2.])}', '%s' % torch.tensor(1.))",
    "x = torch.ones(2); print(x.__repr__() == repr(x), x.shape, x.size(), x.size(0), x.dim(), x.ndimension(), x.nelement())",
]


RL2 = [
    r'''
from collections import namedtuple, deque
import random
random.seed(0)
Transition = namedtuple('Transition', ('state', 'action', 'next_state', 'reward'))
class ReplayMemory(object):
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)
    def push(self, *args):
        self.memory.append(Transition(*args))
    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)
    def __len__(self):
        return len(self.memory)
class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super(DQN, self).__init__()
        self.layer1 = nn.Linear(n_observations, 16)
        self.layer2 = nn.Linear(16, 16)
        self.layer3 = nn.Linear(16, n_actions)
    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)
policy_net = DQN(4, 2)
target_net = DQN(4, 2)
print(target_net.load_state_dict(policy_net.state_dict()))
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-4, amsgrad=True)
memory = ReplayMemory(100)
GAMMA, TAU, BATCH_SIZE = 0.99, 0.005, 4
for i in range(6):
    state = torch.randn(1, 4)
    with torch.no_grad():
        action = policy_net(state).max(1).indices.view(1, 1)
    next_state = None if i == 3 else torch.randn(1, 4)
    memory.push(state, action, next_state, torch.tensor([1.0]))
print(action, action.dtype, len(memory))
transitions = memory.sample(BATCH_SIZE)
batch = Transition(*zip(*transitions))
non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool)
non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
state_batch = torch.cat(batch.state)
action_batch = torch.cat(batch.action)
reward_batch = torch.cat(batch.reward)
state_action_values = policy_net(state_batch).gather(1, action_batch)
next_state_values = torch.zeros(BATCH_SIZE)
with torch.no_grad():
    next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
expected_state_action_values = (next_state_values * GAMMA) + reward_batch
criterion = nn.SmoothL1Loss()
loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
optimizer.zero_grad()
loss.backward()
torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
optimizer.step()
print(non_final_mask, state_action_values.shape, state_action_values.grad_fn.name(), round(loss.item(), 4))
target_net_state_dict = target_net.state_dict()
policy_net_state_dict = policy_net.state_dict()
for key in policy_net_state_dict:
    target_net_state_dict[key] = policy_net_state_dict[key]*TAU + target_net_state_dict[key]*(1-TAU)
print(target_net.load_state_dict(target_net_state_dict))
print(sorted(optimizer.state_dict()['state'][0].keys()))
''',
    r'''
Normal = torch.distributions.Normal
class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = nn.Linear(3, 2)
        self.log_std = nn.Parameter(torch.zeros(2))
    def forward(self, s):
        return Normal(self.mu(s), self.log_std.exp())
actor = Actor(); critic = nn.Linear(3, 1)
opt = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=3e-4)
states = torch.randn(5, 3)
with torch.no_grad():
    dist = actor(states)
    actions = dist.sample()
    old_log_probs = dist.log_prob(actions).sum(-1)
    values = critic(states).squeeze(-1)
rewards = torch.tensor([1., 0., 1., 1., 0.]); dones = torch.tensor([0., 0., 0., 1., 0.])
gamma, lam = 0.99, 0.95
advantages = torch.zeros(5); last = 0.
next_values = torch.cat([values[1:], torch.zeros(1)])
for t in reversed(range(5)):
    delta = rewards[t] + gamma * next_values[t] * (1 - dones[t]) - values[t]
    last = delta + gamma * lam * (1 - dones[t]) * last
    advantages[t] = last
returns = advantages + values
advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
for epoch in range(2):
    dist = actor(states)
    log_probs = dist.log_prob(actions).sum(-1)
    ratio = (log_probs - old_log_probs).exp()
    surr1 = ratio * advantages
    surr2 = torch.clamp(ratio, 1 - 0.2, 1 + 0.2) * advantages
    policy_loss = -torch.min(surr1, surr2).mean()
    value_loss = F.mse_loss(critic(states).squeeze(-1), returns)
    entropy = dist.entropy().sum(-1).mean()
    loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
    opt.zero_grad(); loss.backward(); nn.utils.clip_grad_norm_(actor.parameters(), 0.5); opt.step()
    print(epoch, round(policy_loss.item(), 4) + 0.0, round(value_loss.item(), 4), round(entropy.item(), 4), ratio.grad_fn.name())
print(advantages.round(decimals=3), dist.batch_shape, dist.event_shape)
''',
    "N = torch.distributions.Normal(torch.zeros(2), torch.ones(2)); x = N.rsample(); print(x.requires_grad, N.has_rsample, N.log_prob(torch.zeros(2)), N.cdf(torch.tensor([0., 1.])), N.stddev, N.mean)",
    "mu = torch.zeros(2, requires_grad=True); N = torch.distributions.Normal(mu, 1.); x = N.rsample(); x.sum().backward(); print(mu.grad, x.grad_fn.name())",
    "N = torch.distributions.Independent(torch.distributions.Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1); print(N, N.batch_shape, N.event_shape, N.log_prob(torch.zeros(3, 2)))",
    "base = torch.distributions.Normal(torch.zeros(2), torch.ones(2)); T = torch.distributions.TransformedDistribution(base, [torch.distributions.transforms.TanhTransform(cache_size=1)]); a = T.rsample(); print(a.abs().max() < 1, T.log_prob(a).shape)",
    "p = torch.distributions.Normal(0., 1.); q = torch.distributions.Normal(1., 2.); print(torch.distributions.kl_divergence(p, q), torch.distributions.kl.kl_divergence(q, p))",
    "C = torch.distributions.Categorical(logits=torch.tensor([[1., 2.], [0., 0.]])); print(C.entropy().mean(), C.log_prob(torch.tensor([1, 0])), C.sample((2,)), C.mode if hasattr(C, 'mode') else '')",
    "B = torch.distributions.Bernoulli(probs=torch.tensor([0.3, 0.9])); s = B.sample(); print(s, s.dtype, B.log_prob(torch.tensor([1., 0.])), B.entropy())",
    "x = torch.tensor([[1., 5.], [3., 2.]]); print(x.max(1), x.max(1).indices.view(2, 1), x.max(1)[0], x.max(dim=1, keepdim=True).values.shape)",
    "q = torch.tensor([[1., 5.], [3., 2.]]); a = torch.tensor([[1], [0]]); print(q.gather(1, a), torch.gather(q, 0, torch.tensor([[1, 0]])))",
    "q = torch.tensor([[1., 5.], [3., 2.]])\ntry:\n    q.gather(1, torch.tensor([1, 0]))\nexcept RuntimeError as e: print(e)",
    "q = torch.tensor([[1., 5.], [3., 2.]])\ntry:\n    q.gather(1, torch.tensor([[2], [0]]))\nexcept RuntimeError as e: print(e)",
    "v = torch.zeros(4); m = torch.tensor([True, False, True, True]); v[m] = torch.tensor([1., 2., 3.]); print(v)",
    "v = torch.zeros(4); m = torch.tensor([True, False, True, True])\ntry:\n    v[m] = torch.tensor([1., 2.])\nexcept RuntimeError as e: print(e)",
    "from collections import deque\nd = deque([torch.tensor(1.), torch.tensor(2.)], maxlen=2); d.append(torch.tensor(3.)); print(list(d), torch.stack(list(d)).mean())",
    "print(torch.tensor(tuple(map(lambda s: s is not None, [1, None, 2])), dtype=torch.bool), torch.tensor((True, False)), torch.tensor([None is None]))",
    "p = nn.Linear(2, 2); q = nn.Linear(2, 2)\nfor tp, pp in zip(q.parameters(), p.parameters()):\n    tp.data.copy_(0.9 * tp.data + 0.1 * pp.data)\nprint(q.weight.requires_grad, q.weight.grad_fn)",
    "p = nn.Linear(2, 2); q = nn.Linear(2, 2)\nwith torch.no_grad():\n    for tp, pp in zip(q.parameters(), p.parameters()):\n        tp.mul_(0.9).add_(pp, alpha=0.1)\nprint(q.weight._version > 0, q.weight.is_leaf)",
    "p = nn.Linear(2, 2)\ntry:\n    p.weight.mul_(0.5)\nexcept RuntimeError as e: print(e)",
]


MISC = [
    "ds = torch.utils.data.TensorDataset(torch.arange(8.), torch.arange(8)); kwargs = {'batch_size': 3, 'num_workers': 1, 'pin_memory': True, 'shuffle': True}; dl = torch.utils.data.DataLoader(ds, **kwargs); print([b[1].tolist() for b in dl], dl.pin_memory)",
    "ds = torch.utils.data.TensorDataset(torch.arange(8.), torch.arange(8)); dl = torch.utils.data.DataLoader(ds, batch_size=3, num_workers=2); print([b[1].tolist() for b in dl])",
    "m = torch.compile(nn.Linear(2, 2)); print(m(torch.ones(1, 2)).shape, type(m).__name__)",
    "m = torch.jit.script(nn.Linear(2, 2)); print(m(torch.ones(1, 2)).shape)",
    "f = torch.jit.trace(nn.Linear(2, 2), torch.ones(1, 2)); print(f(torch.ones(3, 2)).shape)",
    "x = torch.ones(2, 3); print(x.cuda() if torch.cuda.is_available() else x.cpu(), x.to('cpu', torch.float64).dtype, x.to(torch.device('cpu')).device)",
    "print(torch.__version__ >= '2', hasattr(torch, 'version'), type(torch.__version__).__name__)",
    "print(torch.get_default_dtype(), torch.float, torch.double, torch.long, torch.half, torch.int, torch.short, torch.cfloat)",
    "torch.set_default_dtype(torch.float64); print(torch.tensor([1.5]).dtype, nn.Linear(2, 2).weight.dtype, torch.randn(2).dtype); torch.set_default_dtype(torch.float32)",
    "print(torch.get_num_threads() > 0, torch.is_tensor(torch.ones(1)), torch.is_tensor([1]), torch.is_floating_point(torch.ones(1)), torch.numel(torch.ones(2, 3)))",
    "x = torch.arange(6).view(2, 3); print(x.tolist(), x.numpy().tolist(), x[0].tolist(), x[0, 0].tolist(), type(x[0, 0].item()).__name__)",
    "x = torch.tensor([[1, 2], [3, 4]]); print(np.array(x), np.asarray(x).dtype, torch.as_tensor(np.array([1., 2.])), torch.from_numpy(np.zeros(2, dtype=np.float32)).dtype)",
    "a = np.ones(3); t = torch.from_numpy(a); np.add(a, 1, out=a); print(t); t.add_(1); print(a)",
    "print(torch.Tensor.__name__, torch.nn.Module.__name__, isinstance(nn.Linear(1, 1), nn.Module), issubclass(nn.Parameter, torch.Tensor), isinstance(nn.Parameter(torch.ones(1)), torch.Tensor))",
]


GANS = [
    r'''
D = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
real = torch.randn(3, 4); fake = torch.randn(3, 4)
alpha = torch.rand(3, 1)
interpolates = (alpha * real + ((1 - alpha) * fake)).requires_grad_(True)
d_interpolates = D(interpolates)
grad_out = torch.ones(real.shape[0], 1, requires_grad=False)
gradients = torch.autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=grad_out, create_graph=True, retain_graph=True, only_inputs=True)[0]
gradients = gradients.view(gradients.size(0), -1)
gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
print(gradients.shape, gradient_penalty.grad_fn.name(), round(gradient_penalty.item(), 4))
loss = -D(real).mean() + D(fake).mean() + 10 * gradient_penalty
loss.backward()
print(D[0].weight.grad.shape, interpolates.grad is None, interpolates.is_leaf)
for p in D.parameters():
    p.data.clamp_(-0.01, 0.01)
print(D[0].weight.abs().max().item() <= 0.01)
''',
    "x = torch.ones(2, requires_grad=True); y = (x ** 2).sum()\ntry:\n    torch.autograd.grad(y, x, only_inputs=False)\nexcept Exception as e: print(type(e).__name__, e)",
    "x = torch.ones(2, requires_grad=True); y = x * 2\ntry:\n    torch.autograd.grad(y, x)\nexcept RuntimeError as e: print(e)",
    "x = torch.ones(2, requires_grad=True); z = torch.ones(2, requires_grad=True); y = (x * 2).sum()\ntry:\n    torch.autograd.grad(y, [x, z])\nexcept RuntimeError as e: print(e)",
    "x = torch.ones(2, requires_grad=True); z = torch.ones(2, requires_grad=True); y = (x * 2).sum(); print(torch.autograd.grad(y, [x, z], allow_unused=True))",
    "x = torch.tensor([1., 2.], requires_grad=True); y = (x ** 3).sum(); g, = torch.autograd.grad(y, x, create_graph=True); h = torch.autograd.grad(g.sum(), x); print(g, h)",
]

STN = [
    r'''
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(4 * 3 * 3, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 4 * 3 * 3)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return x
    def forward(self, x):
        return self.stn(x)
net = Net()
x = torch.arange(64.).view(1, 1, 8, 8)
y = net(x)
print(y.shape, torch.allclose(y, x, atol=1e-4), y.grad_fn.name())
y.sum().backward()
print(net.fc_loc[2].weight.grad.shape, net.fc_loc[2].bias.grad.round(decimals=2))
''',
    "theta = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]]); g = F.affine_grid(theta, (1, 1, 2, 3), align_corners=False); print(g)",
    "theta = torch.tensor([[[0., -1., 0.], [1., 0., 0.]]]); x = torch.arange(9.).view(1, 1, 3, 3); g = F.affine_grid(theta, x.size(), align_corners=True); print(F.grid_sample(x, g, align_corners=True).round(decimals=4))",
    "x = torch.arange(16.).view(1, 1, 4, 4); g = torch.tensor([[[[-1., -1.], [0.5, 0.2]], [[1.2, 0.], [0., 0.]]]]); print(F.grid_sample(x, g, mode='bilinear', padding_mode='zeros', align_corners=False), F.grid_sample(x, g, mode='nearest', padding_mode='border', align_corners=False))",
    "try:\n    F.affine_grid(torch.zeros(1, 3, 3), (1, 1, 2, 2), align_corners=False)\nexcept ValueError as e: print(e)",
    "q = torch.randn(2, 2, 4, 8); k = torch.randn(2, 2, 5, 8); s = torch.einsum('bhqd,bhkd->bhqk', q, k) / math.sqrt(8); print(s.shape, torch.allclose(s, q @ k.transpose(-2, -1) / math.sqrt(8), atol=1e-5))",
    "print(torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(3, 2)), torch.einsum('ii', torch.eye(3)), torch.einsum('i,j->ij', torch.arange(2.), torch.arange(3.)), torch.einsum('bij->bji', torch.zeros(1, 2, 3)).shape)",
    "try:\n    torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(2, 2))\nexcept RuntimeError as e: print(e)",
    "q = torch.randn(1, 2, 3, 4); out = F.scaled_dot_product_attention(q, q, q, is_causal=True); print(out.shape); m = torch.ones(3, 3, dtype=torch.bool).tril(); print(torch.allclose(out, F.scaled_dot_product_attention(q, q, q, attn_mask=m), atol=1e-6))",
    "print(F.normalize(torch.tensor([[3., 4.], [0., 0.]]), dim=1), F.normalize(torch.tensor([1., 1.]), p=1, dim=0))",
    "x = torch.arange(6.).view(1, 2, 3); print(F.pad(x, (1, 2)), F.pad(x, (1, 1, 1, 0), value=-1).shape, F.pad(x, (1, 1), mode='reflect'), F.pad(x, (2, 0), mode='replicate'), F.pad(x, (1, 1), mode='circular'))",
    "try:\n    F.pad(torch.ones(1, 2, 3), (3, 3), mode='reflect')\nexcept RuntimeError as e: print(e)",
    "print(torch.cdist(torch.tensor([[0., 0.], [1., 1.]]), torch.tensor([[1., 0.]])), torch.bucketize(torch.tensor([0.5, 2.5]), torch.tensor([1., 2., 3.])), torch.histc(torch.tensor([1., 2., 1.]), bins=4, min=0, max=3))",
]


PY = [
    "x = torch.ones(2); print(np.float64(2.0) * x, (np.float64(2.0) * x).dtype, x * np.float64(2), (x * np.float64(2)).dtype, (x + np.int64(1)).dtype, type(np.float32(0.5) * x).__name__)",
    "x = torch.tensor([1., 4.]); r = np.sqrt(x); print(type(r).__name__, r)",
    "print(torch.tensor(np.float64(1.5)).dtype, torch.tensor(np.float32(1.5)).dtype, torch.tensor(np.int32(3)).dtype, torch.tensor([np.float32(1.5), 2]).dtype, torch.tensor(np.bool_(True)))",
    "print(torch.FloatTensor(np.array([1, 2])), torch.from_numpy(np.random.RandomState(0).rand(2, 2)).float().dtype)",
    "try:\n    len(torch.tensor(3.))\nexcept TypeError as e: print(e)",
    "try:\n    for v in torch.tensor(3.):\n        pass\nexcept TypeError as e: print(e)",
    "try:\n    bool(torch.tensor([1, 2]))\nexcept RuntimeError as e: print(e)",
    "print(bool(torch.tensor([0.])), bool(torch.tensor(2)), not torch.tensor(0), torch.tensor(1.) < 2, type(torch.tensor(1.) < 2).__name__)",
    "x = torch.tensor([[1, 2], [3, 4]]); print(sum(x), max(torch.tensor([3, 1, 5])), sorted(torch.tensor([3, 1, 2])), list(torch.tensor([1., 2.])), min(torch.tensor([2., -1.])).item())",
    "print(round(torch.tensor(2.567), 2), round(torch.tensor(2.5)), math.exp(torch.tensor(1.)), math.sqrt(torch.tensor([4.])), math.floor(torch.tensor(2.7)), math.isclose(torch.tensor(0.1), 0.1))",
    "x = torch.tensor([-3, 5]); print(abs(x), -x, x ** 2, 2 ** x.float(), 1 / x, x // 2, x % 3, divmod(x, 2) if hasattr(x, '__divmod__') else 'no divmod', x / 2)",
    "x = torch.tensor([-3., 5.5]); print(x // 2, x % 3, torch.fmod(x, 3), torch.remainder(x, -3), x ** 0.5)",
    "print(torch.tensor(5) / 2, torch.tensor(5) // 2, (torch.tensor(5) // 2).dtype, torch.tensor(5) * 1.0, torch.tensor([5]) * True, torch.tensor(True) + True)",
    "x = torch.tensor([1, 2])\ntry:\n    x += 0.5\nexcept RuntimeError as e: print(e)",
    "x = torch.tensor([1, 2])\ntry:\n    x.mul_(1.5)\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(5)\ntry:\n    x.mean()\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(5)\ntry:\n    x.std()\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(5)\ntry:\n    torch.var(x)\nexcept RuntimeError as e: print(e)",
    "print(torch.arange(5).float().mean(), torch.arange(5).mean(dtype=torch.float32), torch.arange(5).sum().dtype, torch.arange(5).prod(), torch.arange(1, 5).cumprod(0))",
    "x = torch.arange(5)\ntry:\n    x.norm()\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(5)\ntry:\n    torch.exp(x).dtype; print(torch.exp(x).dtype, torch.sqrt(x).dtype, torch.sigmoid(x).dtype, (x / 2).dtype, x.true_divide(2).dtype)\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(5)\ntry:\n    F.softmax(x, dim=0)\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(5)\ntry:\n    nn.Linear(5, 2)(x)\nexcept RuntimeError as e: print(e)",
    "x = torch.arange(6).view(2, 3)\ntry:\n    nn.Linear(3, 2)(x.double())\nexcept RuntimeError as e: print(e)",
    "x = torch.randn(2, 3)\ntry:\n    nn.Conv2d(1, 1, 2)(x.view(1, 1, 2, 3).double())\nexcept RuntimeError as e: print(e)",
    "x = torch.randn(2, 3)\ntry:\n    torch.mm(x, torch.randn(3, 2, dtype=torch.float64))\nexcept RuntimeError as e: print(e)",
    "x = torch.randn(2, 3)\ntry:\n    x @ torch.randn(3, 2).long()\nexcept RuntimeError as e: print(e)",
    "print(torch.zeros(3).long() / 2, torch.ones(2, dtype=torch.int32) * 2.5, torch.ones(2, dtype=torch.uint8) - 3, torch.tensor([200], dtype=torch.uint8) + 100)",
    "x = torch.tensor([1, 2, 3]); print(x == torch.tensor([1., 2., 4.]), x.eq(2), x.ne(2).sum(), (x > 1) & (x < 3), (x > 1) | (x < 2), ~(x > 1), (x > 1).any(), (x > 0).all())",
    "try:\n    torch.tensor([1, 2]) & torch.tensor([1., 0.])\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.tensor([1, 2]) == torch.tensor([1, 2, 3])\nexcept RuntimeError as e: print(e)",
    "print(torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.])), torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.0001])), torch.isclose(torch.tensor([1., float('nan')]), torch.tensor([1., float('nan')]), equal_nan=True))",
    "x = torch.tensor([0.1, 0.2, 0.3]); print(x.sum() == 0.6, (x.sum() - 0.6).abs() < 1e-6, x.sum().item() == 0.6000000238418579)",
    "x = torch.tensor([3., 1., 2.]); x.sort(); print(x); v, i = x.sort(); print(v, i); print(x.sort(descending=True).values)",
    "x = torch.arange(6.).view(2, 3); x.t_(); print(x.shape, x.is_contiguous()); x.unsqueeze_(0); print(x.shape); x.squeeze_(); print(x.shape); x.resize_(6); print(x)",
    "x = torch.zeros(2, 3); x.fill_(2).add_(1).mul_(2).sub_(1).div_(5).clamp_(0, 1).neg_(); print(x, x._version)",
    "x = torch.zeros(3); y = x.clone(); y[0] = 1; z = x.detach(); z[1] = 2; w = x.data; w[2] = 3; print(x, y)",
    "a = torch.ones(2); b = a; b += 1; c = a + 0; c += 1; print(a, b, c, a is b)",
]


NUMPY_ON_TENSORS = [
    "x = torch.tensor([1., 4.])\ntry:\n    print(np.mean(x))\nexcept TypeError as e: print(e)",
    "x = torch.tensor([1., 4.])\ntry:\n    print(np.max(x))\nexcept TypeError as e: print(e)",
    "x = torch.tensor([1., 4.])\ntry:\n    print(x.mean(0, out=None))\nexcept TypeError as e: print(e)",
    "x = torch.tensor([[1., 4.], [2., 3.]])\nfor f in (np.sum, np.min, np.prod, np.any, np.all, np.argmax, np.cumsum, np.median):\n    try:\n        print(f.__name__, f(x))\n    except TypeError as e: print(f.__name__, e)",
    "x = torch.tensor([[1., 4.], [2., 3.]])\nfor call in ('x.sum(axis=0, foo=1)', 'x.sum(foo=1, axis=0)', 'x.sum(0, axis=1)', 'x.max(axis=0, foo=1)', 'torch.sum(x, axis=0, foo=1)', 'x.sum(axis=\"a\")'):\n    try:\n        print(eval(call))\n    except TypeError as e: print(str(e).splitlines()[0])",
    "x = torch.tensor([[1., 4.], [2., 3.]]); print(x.sum(axis=0, keepdims=True), torch.sum(x, axis=0, out=None), np.mean([torch.tensor(1.), torch.tensor(2.)]))",
]


SNIPPETS = [SETUP + s for s in
            WLM + TLM + DCGAN + RL + SR + FNS + SIAMESE + TSP + REGRESSION + MNIST + FF + GCN
            + [VIT[0] + s for s in VIT[1:]] + D2L + SOFTMAX + CNN + SHAPES + RES + BNS + ATT
            + RNNS + S2S + VAE + MNIST_RNN + TRS + D2L_PRE + HOUSES + MISTAKES + MODULES + SCHED
            + IMN + TXT + W2V + BERT + DETECT + OPTIM + MORE + PRINTS + RL2 + MISC + GANS + STN
            + PY + NUMPY_ON_TENSORS]

BUGS = [
    ("np.std(x) and np.var(x): torch lists the keywords in its hash map's order "
     "(ddof, dtype, out, axis), ember newest first (ddof, out, dtype, axis)",
     SETUP + "x = torch.tensor([1., 4.])\ntry:\n    print(np.std(x))\nexcept TypeError as e: print(str(e).splitlines()[0])"),
    ("a tensor of several elements beside a list in torch.tensor's data: torch fails converting "
     "the tensor (an index), ember on the list's place first",
     SETUP + "try:\n    torch.tensor([torch.tensor([1, 2]), [1, 2]])\nexcept TypeError as e: print(e)"),
]

# (float32 softmax takes SLEEF's exp, as torch's kernel: NOTE [ SLEEF's exp ])
SNIPPETS.append(SETUP + "print(F.softmax(torch.rand(2, 2, 4), dim=-1).sum(-1))")

# (float32 sums add in torch's order: NOTE [ Summation order ])
SNIPPETS.append(SETUP + "x = torch.randn(20) * 10\nprint(f'{x.mean().item():.8f}')")

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=500)
