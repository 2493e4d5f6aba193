"""More of PyTorch's official tutorials as users type them, run under real torch and under ember
(`import ember as torch`): what each snippet prints, including an exception's type and first
line, must be identical.

Spatial transformer networks, adversarial examples (FGSM), the nn.Transformer language model,
knowledge distillation, word embeddings (N-gram, CBOW), LSTM part-of-speech tagging, the
BiLSTM-CRF, NLP from scratch (generating names, translation with attention), model ensembling
and per-sample gradients, Jacobians/Hessians/hvp/vhp, forward-mode AD, double backward with
custom Functions, fusing convolution and batch norm, extending PyTorch and torch.func (vmap
rules and jvp of custom Functions), parametrizations,
pruning, channels-last memory format, the optimizer and learning-rate scheduler recipes, saving
several models in one file, TorchScript as users write it (ember's trace and script give back
what they are given, which computes the same results; trace_module, freeze, the tracer's
warnings) and torch.compile with the torch._dynamo calls around it (backend="eager" keeps the
snippets fast; one uses the default backend), and details the tutorials meet along the way.
Made-up data, loops shortened to about a second per snippet. Complements
test_snippets_tutorials_oracle.py.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"


# Spatial Transformer Networks: a localisation net that regresses an affine theta, trained a few steps.
STN = [
    r"""
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 6, kernel_size=3)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(6 * 2 * 2, 10)
        self.fc2 = nn.Linear(10, 3)
        self.localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True), nn.Conv2d(4, 5, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(5 * 1 * 1, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 5 * 1 * 1)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False)
    def forward(self, x):
        x = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 6 * 2 * 2)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)
model = Net()
print(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
data = torch.rand(8, 1, 14, 14); target = torch.randint(0, 3, (8,))
for epoch in range(3):
    model.train()
    optimizer.zero_grad()
    output = model(data)
    loss = F.nll_loss(output, target)
    loss.backward()
    optimizer.step()
    print('Train Epoch: {} Loss: {:.6f}'.format(epoch, loss.item()))
model.eval()
with torch.no_grad():
    output = model(data)
    test_loss = F.nll_loss(output, target, reduction='sum').item()
    pred = output.max(1, keepdim=True)[1]
    correct = pred.eq(target.view_as(pred)).sum().item()
print('Test set: Average loss: {:.4f}, Accuracy: {}/{}'.format(test_loss / 8, correct, 8))
print(model.fc_loc[2].bias.data)
""",
    r"""
theta = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]])
grid = F.affine_grid(theta, (1, 1, 3, 3), align_corners=False)
print(grid.shape, grid[0, 0])
x = torch.arange(9.).view(1, 1, 3, 3)
print(F.grid_sample(x, grid, align_corners=False))
""",
    r"""
theta = torch.tensor([[[0., -1., 0.], [1., 0., 0.]]])
x = torch.arange(16.).view(1, 1, 4, 4)
grid = F.affine_grid(theta, x.size(), align_corners=True)
print(F.grid_sample(x, grid, align_corners=True))
""",
    r"""
theta = torch.tensor([[[2., 0., 0.], [0., 2., 0.]]])
x = torch.arange(1., 17.).view(1, 1, 4, 4)
grid = F.affine_grid(theta, x.size(), align_corners=False)
for pm in ['zeros', 'border', 'reflection']:
    print(pm, F.grid_sample(x, grid, padding_mode=pm, align_corners=False))
""",
    r"""
theta = torch.randn(2, 2, 3, requires_grad=True)
x = torch.rand(2, 3, 5, 5, requires_grad=True)
grid = F.affine_grid(theta, x.size(), align_corners=False)
out = F.grid_sample(x, grid, mode='bilinear', padding_mode='zeros', align_corners=False)
out.sum().backward()
print(out.shape, grid.grad_fn.name(), out.grad_fn.name())
print(theta.grad.round(decimals=3), x.grad.sum().round(decimals=3))
""",
    r"""
theta = torch.tensor([[[0.8, 0.1, 0.05], [-0.1, 0.9, 0.0]]], dtype=torch.float64)
x = torch.rand(1, 1, 4, 5, dtype=torch.float64)
print(F.grid_sample(x, F.affine_grid(theta, x.size(), align_corners=False), mode='nearest', align_corners=False))
""",
    r"""
try:
    F.affine_grid(torch.zeros(1, 3, 3), (1, 1, 4, 4), align_corners=False)
except ValueError as e:
    print(e)
try:
    F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 4), align_corners=False)
except (ValueError, NotImplementedError) as e:
    print(type(e).__name__, e)
""",
    r"""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    g = F.affine_grid(torch.eye(2, 3).unsqueeze(0), (1, 1, 2, 2))
    F.grid_sample(torch.ones(1, 1, 2, 2), g)
print(len(w), g)
""",
    r"""
theta = torch.eye(3, 4).unsqueeze(0)
g = F.affine_grid(theta, (1, 1, 2, 2, 3), align_corners=False)
print(g.shape, g[0, 0, 0])
x = torch.arange(12.).view(1, 1, 2, 2, 3)
print(torch.allclose(F.grid_sample(x, g, align_corners=False), x))
""",
    r"""
def convert_image_np(inp):
    inp = inp.numpy().transpose((1, 2, 0))
    mean = np.array([0.485, 0.456, 0.406])
    std = np.array([0.229, 0.224, 0.225])
    inp = std * inp + mean
    inp = np.clip(inp, 0, 1)
    return inp
img = torch.rand(3, 4, 4)
out = convert_image_np(img)
print(out.shape, out.dtype, round(float(out.max()), 4))
""",
    r"""
x = torch.rand(2, 1, 6, 6)
theta = torch.tensor([[1, 0, 0, 0, 1, 0]], dtype=torch.float).repeat(2, 1).view(-1, 2, 3)
print(theta.shape, theta.is_contiguous(), theta.stride())
grid = F.affine_grid(theta, x.size(), align_corners=False)
print(torch.allclose(F.grid_sample(x, grid, align_corners=False), x, atol=1e-6))
""",
]

# Adversarial Example Generation: FGSM on a small trained classifier.
FGSM = [
    r"""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 3)
    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
data = torch.rand(16, 1, 8, 8); target = torch.randint(0, 3, (16,))
for _ in range(5):
    opt.zero_grad(); loss = F.nll_loss(model(data), target); loss.backward(); opt.step()
print(f"{loss.item():.5f}")
model.eval()
def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    return torch.clamp(perturbed_image, 0, 1)
def test(model, epsilon):
    correct = 0
    adv_examples = []
    for i in range(16):
        d, t = data[i:i + 1].clone(), target[i:i + 1]
        d.requires_grad = True
        output = model(d)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != t.item():
            continue
        loss = F.nll_loss(output, t)
        model.zero_grad()
        loss.backward()
        data_grad = d.grad.data
        perturbed_data = fgsm_attack(d, epsilon, data_grad)
        output = model(perturbed_data)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == t.item():
            correct += 1
        elif len(adv_examples) < 2:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            adv_examples.append((init_pred.item(), final_pred.item(), adv_ex.shape))
    final_acc = correct / float(16)
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / 16 = {final_acc}")
    return final_acc, adv_examples
accuracies = []
for eps in [0, .1, .3]:
    acc, ex = test(model, eps)
    accuracies.append(acc)
    print(ex)
""",
    r"""
x = torch.tensor([0.2, 0.5, 0.95], requires_grad=True)
loss = (x * torch.tensor([1., -2., 0.])).sum()
loss.backward()
print(x.grad, x.grad.sign(), x.grad.data.sign().dtype)
adv = torch.clamp(x + 0.1 * x.grad.sign(), 0, 1)
print(adv, adv.requires_grad, adv.grad_fn.name())
""",
    r"""
x = torch.rand(1, 1, 3, 3, requires_grad=True)
y = (x ** 2).sum()
g, = torch.autograd.grad(y, x)
print(torch.equal(g, 2 * x.detach()), g.sign().unique())
print(torch.clamp(x.detach() - 0.5 * g.sign(), min=0, max=1).min() >= 0)
""",
    r"""
x = torch.tensor([-0.5, 0.0, 0.3, 1.7])
print(x.sign(), torch.sign(torch.tensor([-0.0, 0.0])), x.clamp(0, 1), x.clamp(min=0), x.clamp(max=1.0))
print(torch.clamp(x, torch.tensor(0.), torch.tensor(1.)))
print(x.clamp_(0, 1), x)
""",
    r"""
def denorm(batch, mean=[0.1307], std=[0.3081]):
    if isinstance(mean, list):
        mean = torch.tensor(mean)
    if isinstance(std, list):
        std = torch.tensor(std)
    return batch * std.view(1, -1, 1, 1) + mean.view(1, -1, 1, 1)
b = torch.zeros(2, 1, 2, 2)
print(denorm(b)[0, 0], denorm(torch.ones(1, 3, 1, 1), [0.1, 0.2, 0.3], [1., 2., 3.]).flatten())
""",
    r"""
model = nn.Sequential(nn.Linear(4, 3))
model.eval()
d = torch.rand(1, 4)
d.requires_grad = True
out = model(d)
loss = F.nll_loss(F.log_softmax(out, 1), torch.tensor([1]))
model.zero_grad()
loss.backward()
print(model[0].weight.grad is not None, d.grad.shape, d.is_leaf)
try:
    d.grad.data.sign().numpy()[0, 0] = 5
    print('ok')
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.rand(4)
try:
    x.requires_grad = 1
except Exception as e:
    print(type(e).__name__, e)
y = torch.arange(4)
try:
    y.requires_grad = True
except RuntimeError as e:
    print(e)
""",
    r"""
import matplotlib
""".replace("import matplotlib", "epsilons = [0, .05, .1]\naccuracies = [0.9, 0.6, 0.3]\nprint(np.arange(0, .35, step=0.05), list(zip(epsilons, accuracies)))"),
]

# The nn.Transformer language-model tutorial: batchify/get_batch over a made-up token stream,
# a TransformerEncoder with a positional-encoding buffer, a few training steps.
TRANSFORMER_LM = [
    r"""
def batchify(data, bsz):
    seq_len = data.size(0) // bsz
    data = data[:seq_len * bsz]
    data = data.view(bsz, seq_len).t().contiguous()
    return data
train_data = batchify(torch.arange(26), 4)
print(train_data, train_data.shape, train_data.is_contiguous())
bptt = 3
def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i+seq_len]
    target = source[i+1:i+1+seq_len].reshape(-1)
    return data, target
for i in range(0, train_data.size(0) - 1, bptt):
    d, t = get_batch(train_data, i)
    print(i, d.tolist(), t.tolist())
""",
    r"""
raw = ['the cat sat', 'on the mat', '', 'the dog']
vocab = {}
for line in raw:
    for w in line.split():
        vocab.setdefault(w, len(vocab))
def data_process(raw_text_iter):
    data = [torch.tensor([vocab[w] for w in item.split()], dtype=torch.long) for item in raw_text_iter]
    return torch.cat(tuple(filter(lambda t: t.numel() > 0, data)))
d = data_process(raw)
print(d, d.dtype, len(vocab))
print(torch.tensor([], dtype=torch.long).numel(), torch.cat([torch.tensor([1]), torch.tensor([], dtype=torch.long)]))
""",
    r"""
print(nn.Transformer.generate_square_subsequent_mask(4))
print(nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64).dtype)
m = torch.triu(torch.ones(3, 3) * float('-inf'), diagonal=1)
print(m, torch.equal(m, nn.Transformer.generate_square_subsequent_mask(3)))
""",
    r"""
mask = (torch.triu(torch.ones(4, 4)) == 1).transpose(0, 1)
print(mask)
mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
print(mask)
""",
    r"""
import math
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)
    def forward(self, x):
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)
class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.5):
        super().__init__()
        self.model_type = 'Transformer'
        self.pos_encoder = PositionalEncoding(d_model, dropout, max_len=64)
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()
    def init_weights(self):
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)
    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)
ntokens = 12
model = TransformerModel(ntokens, 8, 2, 16, 2, 0.2)
criterion = nn.CrossEntropyLoss()
lr = 5.0
optimizer = torch.optim.SGD(model.parameters(), lr=lr)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)
train_data = torch.randint(0, ntokens, (40,)).view(4, 10).t().contiguous()
bptt = 4
def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i+seq_len], source[i+1:i+1+seq_len].reshape(-1)
for epoch in range(1, 3):
    model.train()
    total_loss = 0.
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        src_mask = nn.Transformer.generate_square_subsequent_mask(data.size(0))
        output = model(data, src_mask)
        output_flat = output.view(-1, ntokens)
        loss = criterion(output_flat, targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total_loss += loss.item()
    lr = scheduler.get_last_lr()[0]
    print(f'| epoch {epoch:3d} | lr {lr:02.2f} | loss {total_loss / (batch + 1):5.2f} | ppl {math.exp(total_loss / (batch + 1)):8.2f}')
    scheduler.step()
model.eval()
total_loss = 0.
with torch.no_grad():
    for i in range(0, train_data.size(0) - 1, bptt):
        data, targets = get_batch(train_data, i)
        seq_len = data.size(0)
        output = model(data, nn.Transformer.generate_square_subsequent_mask(seq_len))
        total_loss += seq_len * criterion(output.view(-1, ntokens), targets).item()
print(f'{total_loss / (len(train_data) - 1):.4f}')
""",
    r"""
layer = nn.TransformerEncoderLayer(8, 2, 16, 0.1)
enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
print(enc)
print([n for n, _ in enc.named_parameters()][:8])
print(enc.layers[0] is layer, enc.layers[0].self_attn.in_proj_weight.shape, enc.num_layers)
""",
    r"""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2), 2)
print([str(x.message) for x in w])
""",
    r"""
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
src = torch.randn(5, 2, 8)
mask = nn.Transformer.generate_square_subsequent_mask(5)
out_causal = enc(src, mask)
out_bool = enc(src, mask=torch.triu(torch.ones(5, 5, dtype=torch.bool), 1))
out_flag = enc(src, mask, is_causal=True)
print(torch.allclose(out_causal, out_bool, atol=1e-6), torch.allclose(out_causal, out_flag, atol=1e-6))
print(torch.allclose(enc(src[:1], mask[:1, :1])[0], out_causal[0], atol=1e-5))
""",
    r"""
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=True, activation="gelu")
print(layer.norm_first, layer.activation_relu_or_gelu, layer)
src = torch.randn(3, 2, 8)
pad = torch.tensor([[False, False, True], [False, False, False]])
out = layer(src, src_key_padding_mask=pad)
print(out.shape, out[0, 0].round(decimals=4))
""",
    r"""
emb = nn.Embedding(12, 8)
import math
src = torch.randint(0, 12, (4, 2))
x = emb(src) * math.sqrt(8)
print(x.shape, x.dtype, emb.weight.shape)
try:
    emb(torch.tensor([12]))
except IndexError as e:
    print(e)
try:
    emb(torch.tensor([1.0]))
except RuntimeError as e:
    print(e)
""",
    r"""
model = nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)
lrs = []
for epoch in range(4):
    optimizer.step()
    lrs.append(scheduler.get_last_lr()[0])
    scheduler.step()
print([round(l, 5) for l in lrs], scheduler.last_epoch, scheduler.state_dict())
""",
    r"""
model = nn.Linear(3, 3)
x = torch.randn(2, 3)
model(x).pow(2).sum().mul(100).backward()
norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
total = torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters()))
print(norm > 0.5, round(total.item(), 4))
""",
    r"""
import copy, time, math
best_val_loss = float('inf')
model = nn.Linear(2, 2)
best_model = None
for epoch, val_loss in enumerate([2.0, 1.5, 1.7]):
    epoch_start_time = time.time()
    print('-' * 20)
    print(f'| end of epoch {epoch:3d} | valid loss {val_loss:5.2f} | valid ppl {math.exp(val_loss):8.2f}')
    if val_loss < best_val_loss:
        best_val_loss = val_loss
        best_model = copy.deepcopy(model)
print(best_val_loss, type(best_model).__name__, best_model is model, torch.equal(best_model.weight, model.weight))
""",
    r"""
t = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0)
src = torch.rand(5, 2, 8); tgt = torch.rand(4, 2, 8)
out = t(src, tgt, tgt_mask=t.generate_square_subsequent_mask(4))
print(out.shape, out.mean().round(decimals=4) + 0.0)  # (a mean near 0: its sign is the matmuls' last bits)
print(sum(p.numel() for p in t.parameters()), [n for n, _ in t.named_children()])
""",
    r"""
try:
    nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1)(torch.rand(5, 2, 8), torch.rand(4, 3, 8))
except RuntimeError as e:
    print(e)
try:
    nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1)(torch.rand(5, 2, 8), torch.rand(4, 2, 6))
except RuntimeError as e:
    print(e)
""",
]

# Knowledge distillation: a teacher and a student, soft targets with temperature, cosine loss on
# hidden representations, an MSE regressor on feature maps.
KD = [
    r"""
class DeepNN(nn.Module):
    def __init__(self, num_classes=3):
        super(DeepNN, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.ReLU(), nn.Conv2d(8, 4, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2))
        self.classifier = nn.Sequential(nn.Linear(4 * 2 * 2, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, num_classes))
    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)
class LightNN(nn.Module):
    def __init__(self, num_classes=3):
        super(LightNN, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2))
        self.classifier = nn.Sequential(nn.Linear(4 * 2 * 2, 8), nn.ReLU(), nn.Dropout(0.1), nn.Linear(8, num_classes))
    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)
teacher = DeepNN(); student = LightNN()
total_params_deep = "{:,}".format(sum(p.numel() for p in teacher.parameters()))
print(f"DeepNN parameters: {total_params_deep}")
print(f"LightNN parameters: {sum(p.numel() for p in student.parameters()):,}")
images = torch.rand(6, 3, 4, 4); labels = torch.randint(0, 3, (6,))
def train_knowledge_distillation(teacher, student, epochs, T, soft_target_loss_weight, ce_loss_weight):
    ce_loss = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(student.parameters(), lr=0.01)
    teacher.eval()
    student.train()
    for epoch in range(epochs):
        optimizer.zero_grad()
        with torch.no_grad():
            teacher_logits = teacher(images)
        student_logits = student(images)
        soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
        soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
        soft_targets_loss = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0] * (T**2)
        label_loss = ce_loss(student_logits, labels)
        loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
        loss.backward()
        optimizer.step()
        print(f"Epoch {epoch+1}/{epochs}, Loss: {loss.item():.6f}")
train_knowledge_distillation(teacher, student, epochs=3, T=2, soft_target_loss_weight=0.25, ce_loss_weight=0.75)
student.eval()
with torch.no_grad():
    _, predicted = torch.max(student(images).data, 1)
print(predicted, (predicted == labels).sum().item())
""",
    r"""
class ModifiedDeepNNCosine(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2))
        self.classifier = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, num_classes))
    def forward(self, x):
        x = self.features(x)
        flattened_conv_output = torch.flatten(x, 1)
        x = self.classifier(flattened_conv_output)
        flattened_conv_output_after_pooling = torch.nn.functional.avg_pool1d(flattened_conv_output, 2)
        return x, flattened_conv_output_after_pooling
class ModifiedLightNNCosine(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2))
        self.classifier = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, num_classes))
    def forward(self, x):
        x = self.features(x)
        flattened_conv_output = torch.flatten(x, 1)
        return self.classifier(flattened_conv_output), flattened_conv_output
teacher = ModifiedDeepNNCosine(); student = ModifiedLightNNCosine()
images = torch.rand(4, 3, 4, 4); labels = torch.tensor([0, 1, 2, 1])
ce_loss = nn.CrossEntropyLoss(); cosine_loss = nn.CosineEmbeddingLoss()
optimizer = torch.optim.Adam(student.parameters(), lr=0.01)
teacher.eval(); student.train()
for epoch in range(3):
    optimizer.zero_grad()
    with torch.no_grad():
        _, teacher_hidden_representation = teacher(images)
    student_logits, student_hidden_representation = student(images)
    hidden_rep_loss = cosine_loss(student_hidden_representation, teacher_hidden_representation, target=torch.ones(images.size(0)))
    label_loss = ce_loss(student_logits, labels)
    loss = 0.25 * hidden_rep_loss + 0.75 * label_loss
    loss.backward()
    optimizer.step()
    print(f"Epoch {epoch+1}, Loss: {loss.item():.6f}", teacher_hidden_representation.shape)
""",
    r"""
x = torch.arange(8.).view(1, 8)
print(F.avg_pool1d(x, 2), F.avg_pool1d(torch.arange(12.).view(2, 6), 2))
try:
    F.avg_pool1d(torch.ones(8), 2)
except RuntimeError as e:
    print(e)
""",
    r"""
a = torch.randn(3, 5); b = torch.randn(3, 5)
print(F.cosine_similarity(a, b).round(decimals=4), nn.CosineEmbeddingLoss()(a, b, torch.ones(3)).round(decimals=4))
print(nn.CosineEmbeddingLoss(margin=0.2, reduction='none')(a, b, torch.tensor([1, -1, -1])).round(decimals=4))
print(torch.allclose(nn.CosineEmbeddingLoss()(a, b, torch.ones(3)), (1 - F.cosine_similarity(a, b)).mean()))
""",
    r"""
class ModifiedDeepNNRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2))
        self.classifier = nn.Linear(16, 3)
    def forward(self, x):
        x = self.features(x)
        conv_feature_map = x
        x = torch.flatten(x, 1)
        return self.classifier(x), conv_feature_map
class ModifiedLightNNRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2))
        self.regressor = nn.Sequential(nn.Conv2d(2, 4, kernel_size=3, padding=1))
        self.classifier = nn.Linear(8, 3)
    def forward(self, x):
        x = self.features(x)
        regressor_output = self.regressor(x)
        x = torch.flatten(x, 1)
        return self.classifier(x), regressor_output
teacher = ModifiedDeepNNRegressor(); student = ModifiedLightNNRegressor()
images = torch.rand(4, 3, 4, 4); labels = torch.tensor([0, 1, 2, 1])
mse_loss = nn.MSELoss(); ce_loss = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(student.parameters(), lr=0.01)
for epoch in range(3):
    optimizer.zero_grad()
    with torch.no_grad():
        _, teacher_feature_map = teacher(images)
    student_logits, regressor_feature_map = student(images)
    hidden_rep_loss = mse_loss(regressor_feature_map, teacher_feature_map)
    loss = 0.25 * hidden_rep_loss + 0.75 * ce_loss(student_logits, labels)
    loss.backward()
    optimizer.step()
    print(f"{loss.item():.6f}", regressor_feature_map.shape == teacher_feature_map.shape)
""",
    r"""
t = torch.randn(2, 4); s = torch.randn(2, 4, requires_grad=True)
T = 4.0
kd = F.kl_div(F.log_softmax(s / T, dim=1), F.softmax(t / T, dim=1), reduction='batchmean') * T * T
kd_log = F.kl_div(F.log_softmax(s / T, dim=1), F.log_softmax(t / T, dim=1), reduction='batchmean', log_target=True) * T * T
print(f"{kd.item():.6f}", torch.allclose(kd, kd_log))
kd.backward()
print(s.grad.sum(1).abs().max() < 1e-6, s.grad.shape)
for red in ['none', 'sum', 'mean']:
    print(red, F.kl_div(F.log_softmax(s, 1), F.softmax(t, 1), reduction=red).detach().round(decimals=4))
""",
    r"""
try:
    F.kl_div(torch.randn(2, 3), torch.rand(2, 3), reduction='avg')
except ValueError as e:
    print(e)
print(nn.KLDivLoss(reduction='batchmean', log_target=True))
""",
    r"""
teacher = nn.Linear(4, 3); student = nn.Linear(4, 3)
teacher.requires_grad_(False)
print([p.requires_grad for p in teacher.parameters()], [p.requires_grad for p in student.parameters()])
x = torch.randn(5, 4)
with torch.no_grad():
    tl = teacher(x)
print(tl.requires_grad, tl.grad_fn, teacher(x).requires_grad)
""",
]

# Word Embeddings: an N-gram language model and CBOW on a made-up sentence.
WORD_EMBEDDINGS = [
    r"""
word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)
lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
hello_embed = embeds(lookup_tensor)
print(hello_embed)
""",
    r"""
CONTEXT_SIZE = 2
EMBEDDING_DIM = 6
test_sentence = "When forty winters shall besiege thy brow And dig deep trenches in thy beauty's field".split()
ngrams = [([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i]) for i in range(CONTEXT_SIZE, len(test_sentence))]
print(ngrams[:3])
vocab = set(test_sentence)
word_to_ix = {word: i for i, word in enumerate(sorted(vocab))}
class NGramLanguageModeler(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super(NGramLanguageModeler, self).__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 16)
        self.linear2 = nn.Linear(16, vocab_size)
    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs
losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
for epoch in range(3):
    total_loss = 0
    for context, target in ngrams:
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(context_idxs)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    losses.append(total_loss)
print([round(l, 4) for l in losses])
print(model.embeddings.weight[word_to_ix["beauty's"]])
""",
    r"""
CONTEXT_SIZE = 2
raw_text = "We are about to study the idea of a computational process. Computational processes are abstract beings that inhabit computers.".split()
vocab = set(raw_text)
vocab_size = len(vocab)
word_to_ix = {word: i for i, word in enumerate(sorted(vocab))}
data = []
for i in range(CONTEXT_SIZE, len(raw_text) - CONTEXT_SIZE):
    context = ([raw_text[i - j - 1] for j in range(CONTEXT_SIZE)] + [raw_text[i + j + 1] for j in range(CONTEXT_SIZE)])
    target = raw_text[i]
    data.append((context, target))
print(data[:2], vocab_size)
class CBOW(nn.Module):
    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear = nn.Linear(embedding_dim, vocab_size)
    def forward(self, inputs):
        embeds = self.embeddings(inputs).sum(dim=0, keepdim=True)
        return F.log_softmax(self.linear(embeds), dim=1)
def make_context_vector(context, word_to_ix):
    idxs = [word_to_ix[w] for w in context]
    return torch.tensor(idxs, dtype=torch.long)
print(make_context_vector(data[0][0], word_to_ix))
model = CBOW(vocab_size, 5)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    total = 0.
    for context, target in data:
        model.zero_grad()
        loss = F.nll_loss(model(make_context_vector(context, word_to_ix)), torch.tensor([word_to_ix[target]]))
        loss.backward(); opt.step(); total += loss.item()
    print(epoch, round(total, 4))
""",
    r"""
emb = nn.Embedding(5, 3, padding_idx=0)
print(emb.weight[0], emb)
out = emb(torch.tensor([[0, 2], [4, 0]]))
out.sum().backward()
print(emb.weight.grad)
""",
    r"""
emb = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.], [5., 6.]]))
print(emb, emb.weight.requires_grad, emb(torch.tensor([2, 0])))
emb2 = nn.Embedding.from_pretrained(torch.eye(3), freeze=False, max_norm=0.5)
print(emb2.weight.requires_grad, emb2(torch.tensor([1])), emb2.weight[1])
""",
    r"""
emb = nn.Embedding(4, 3, sparse=True)
emb(torch.tensor([1, 1, 3])).sum().backward()
g = emb.weight.grad
print(g.is_sparse, g.layout, g.coalesce().indices(), g.to_dense())
opt = torch.optim.SGD(emb.parameters(), lr=0.1)
before = emb.weight.detach().clone()
opt.step()
print((emb.weight - before).abs().sum(1).round(decimals=4))
""",
    r"""
word_to_ix = {'a': 0, 'b': 1}
embeds = nn.Embedding(2, 3)
try:
    embeds(torch.tensor(word_to_ix['b']))
    print(embeds(torch.tensor(word_to_ix['b'])).shape)
    embeds(word_to_ix['b'])
except TypeError as e:
    print(e)
""",
    r"""
emb = nn.Embedding(10, 4)
w = emb.weight.detach()
sims = F.cosine_similarity(w[3].unsqueeze(0), w, dim=1)
print(sims.shape, sims[3].round(decimals=4), sims.topk(3).indices)
print(torch.nn.functional.normalize(w, dim=1).norm(dim=1).round(decimals=4))
""",
]

# Sequence Models and LSTMs: an LSTM step by step, and an LSTM part-of-speech tagger.
SEQUENCE_MODELS = [
    r"""
lstm = nn.LSTM(3, 3)
inputs = [torch.randn(1, 3) for _ in range(5)]
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
for i in inputs:
    out, hidden = lstm(i.view(1, 1, -1), hidden)
print(out, hidden)
inputs = torch.cat(inputs).view(len(inputs), 1, -1)
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
out, hidden = lstm(inputs, hidden)
print(out.shape, hidden[0].shape, torch.equal(out[-1], hidden[0][0]))
""",
    r"""
def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)
training_data = [("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]), ("Everybody read that book".split(), ["NN", "V", "DET", "NN"])]
word_to_ix = {}
for sent, tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
EMBEDDING_DIM = 6
HIDDEN_DIM = 6
class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super(LSTMTagger, self).__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)
    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        tag_scores = F.log_softmax(tag_space, dim=1)
        return tag_scores
model = LSTMTagger(EMBEDDING_DIM, HIDDEN_DIM, len(word_to_ix), len(tag_to_ix))
print(model)
loss_function = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)
for epoch in range(30):
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = prepare_sequence(tags, tag_to_ix)
        tag_scores = model(sentence_in)
        loss = loss_function(tag_scores, targets)
        loss.backward()
        optimizer.step()
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores, tag_scores.argmax(1))
""",
    r"""
class CharWordTagger(nn.Module):
    def __init__(self, n_words, n_chars, n_tags):
        super().__init__()
        self.char_emb = nn.Embedding(n_chars, 3)
        self.char_lstm = nn.LSTM(3, 2)
        self.word_emb = nn.Embedding(n_words, 4)
        self.lstm = nn.LSTM(6, 5)
        self.out = nn.Linear(5, n_tags)
    def forward(self, words, chars):
        reps = []
        for c in chars:
            _, (h, _) = self.char_lstm(self.char_emb(c).view(len(c), 1, -1))
            reps.append(h.view(-1))
        x = torch.cat([self.word_emb(words), torch.stack(reps)], dim=1)
        out, _ = self.lstm(x.view(len(words), 1, -1))
        return F.log_softmax(self.out(out.view(len(words), -1)), dim=1)
m = CharWordTagger(5, 7, 3)
words = torch.tensor([0, 3, 4]); chars = [torch.tensor([1, 2]), torch.tensor([3, 4, 5]), torch.tensor([6])]
s = m(words, chars)
print(s.shape, s.exp().sum(1).round(decimals=4))
loss = F.nll_loss(s, torch.tensor([0, 1, 2])); loss.backward()
print(f"{loss.item():.5f}", m.char_emb.weight.grad.abs().sum(1).gt(0).tolist())
""",
    r"""
lstm = nn.LSTM(3, 4)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
print(lstm.weight_ih_l0.shape[0] == 4 * lstm.hidden_size, lstm.num_layers, lstm.bidirectional, lstm.batch_first)
""",
    r"""
lstm = nn.LSTM(3, 3)
try:
    lstm(torch.randn(5, 3))
    print('unbatched ok', lstm(torch.randn(5, 3))[0].shape)
    lstm(torch.randn(5, 1, 4))
except RuntimeError as e:
    print(e)
try:
    lstm(torch.randn(5, 1, 3), (torch.randn(1, 2, 3), torch.randn(1, 1, 3)))
except RuntimeError as e:
    print(e)
""",
    r"""
lstm = nn.LSTM(2, 3, num_layers=2, batch_first=True, bidirectional=True)
x = torch.randn(4, 5, 2)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(torch.allclose(out[:, -1, :3], h[2]), torch.allclose(out[:, 0, 3:], h[3]))
""",
    r"""
gru = nn.GRU(3, 4)
x = torch.randn(6, 2, 3)
out, h = gru(x)
print(out.shape, h.shape, torch.equal(out[-1], h[0]))
cell = nn.GRUCell(3, 4)
hx = torch.zeros(2, 4)
for t in range(6):
    hx = cell(x[t], hx)
print(hx.shape, cell)
""",
]

# Advanced: making dynamic decisions and the BiLSTM-CRF (log_sum_exp, the forward algorithm,
# viterbi decoding) on two made-up sentences.
BILSTM_CRF = [
    r"""
def argmax(vec):
    _, idx = torch.max(vec, 1)
    return idx.item()
def log_sum_exp(vec):
    max_score = vec[0, argmax(vec)]
    max_score_broadcast = max_score.view(1, -1).expand(1, vec.size()[1])
    return max_score + torch.log(torch.sum(torch.exp(vec - max_score_broadcast)))
v = torch.tensor([[1.0, 2.0, 3.0]])
print(argmax(v), log_sum_exp(v), torch.logsumexp(v, 1))
v = torch.tensor([[1000.0, 1000.0, -5.0]])
print(log_sum_exp(v), torch.log(torch.sum(torch.exp(v))))
""",
    r"""
START_TAG = "<START>"
STOP_TAG = "<STOP>"
EMBEDDING_DIM = 5
HIDDEN_DIM = 4
def argmax(vec):
    _, idx = torch.max(vec, 1)
    return idx.item()
def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)
def log_sum_exp(vec):
    max_score = vec[0, argmax(vec)]
    max_score_broadcast = max_score.view(1, -1).expand(1, vec.size()[1])
    return max_score + torch.log(torch.sum(torch.exp(vec - max_score_broadcast)))
class BiLSTM_CRF(nn.Module):
    def __init__(self, vocab_size, tag_to_ix, embedding_dim, hidden_dim):
        super(BiLSTM_CRF, self).__init__()
        self.embedding_dim = embedding_dim
        self.hidden_dim = hidden_dim
        self.vocab_size = vocab_size
        self.tag_to_ix = tag_to_ix
        self.tagset_size = len(tag_to_ix)
        self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2, num_layers=1, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden_dim, self.tagset_size)
        self.transitions = nn.Parameter(torch.randn(self.tagset_size, self.tagset_size))
        self.transitions.data[tag_to_ix[START_TAG], :] = -10000
        self.transitions.data[:, tag_to_ix[STOP_TAG]] = -10000
        self.hidden = self.init_hidden()
    def init_hidden(self):
        return (torch.randn(2, 1, self.hidden_dim // 2), torch.randn(2, 1, self.hidden_dim // 2))
    def _forward_alg(self, feats):
        init_alphas = torch.full((1, self.tagset_size), -10000.)
        init_alphas[0][self.tag_to_ix[START_TAG]] = 0.
        forward_var = init_alphas
        for feat in feats:
            alphas_t = []
            for next_tag in range(self.tagset_size):
                emit_score = feat[next_tag].view(1, -1).expand(1, self.tagset_size)
                trans_score = self.transitions[next_tag].view(1, -1)
                next_tag_var = forward_var + trans_score + emit_score
                alphas_t.append(log_sum_exp(next_tag_var).view(1))
            forward_var = torch.cat(alphas_t).view(1, -1)
        terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
        alpha = log_sum_exp(terminal_var)
        return alpha
    def _get_lstm_features(self, sentence):
        self.hidden = self.init_hidden()
        embeds = self.word_embeds(sentence).view(len(sentence), 1, -1)
        lstm_out, self.hidden = self.lstm(embeds, self.hidden)
        lstm_out = lstm_out.view(len(sentence), self.hidden_dim)
        lstm_feats = self.hidden2tag(lstm_out)
        return lstm_feats
    def _score_sentence(self, feats, tags):
        score = torch.zeros(1)
        tags = torch.cat([torch.tensor([self.tag_to_ix[START_TAG]], dtype=torch.long), tags])
        for i, feat in enumerate(feats):
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        score = score + self.transitions[self.tag_to_ix[STOP_TAG], tags[-1]]
        return score
    def _viterbi_decode(self, feats):
        backpointers = []
        init_vvars = torch.full((1, self.tagset_size), -10000.)
        init_vvars[0][self.tag_to_ix[START_TAG]] = 0
        forward_var = init_vvars
        for feat in feats:
            bptrs_t = []
            viterbivars_t = []
            for next_tag in range(self.tagset_size):
                next_tag_var = forward_var + self.transitions[next_tag]
                best_tag_id = argmax(next_tag_var)
                bptrs_t.append(best_tag_id)
                viterbivars_t.append(next_tag_var[0][best_tag_id].view(1))
            forward_var = (torch.cat(viterbivars_t) + feat).view(1, -1)
            backpointers.append(bptrs_t)
        terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
        best_tag_id = argmax(terminal_var)
        path_score = terminal_var[0][best_tag_id]
        best_path = [best_tag_id]
        for bptrs_t in reversed(backpointers):
            best_tag_id = bptrs_t[best_tag_id]
            best_path.append(best_tag_id)
        start = best_path.pop()
        assert start == self.tag_to_ix[START_TAG]
        best_path.reverse()
        return path_score, best_path
    def neg_log_likelihood(self, sentence, tags):
        feats = self._get_lstm_features(sentence)
        forward_score = self._forward_alg(feats)
        gold_score = self._score_sentence(feats, tags)
        return forward_score - gold_score
    def forward(self, sentence):
        lstm_feats = self._get_lstm_features(sentence)
        score, tag_seq = self._viterbi_decode(lstm_feats)
        return score, tag_seq
training_data = [("the wall street journal reported today that apple corporation made money".split(), "B I I I O O O B I O O".split()), ("georgia tech is a university in georgia".split(), "B I O O O O B".split())]
word_to_ix = {}
for sentence, tags in training_data:
    for word in sentence:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
tag_to_ix = {"B": 0, "I": 1, "O": 2, START_TAG: 3, STOP_TAG: 4}
model = BiLSTM_CRF(len(word_to_ix), tag_to_ix, EMBEDDING_DIM, HIDDEN_DIM)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-4)
with torch.no_grad():
    precheck_sent = prepare_sequence(training_data[0][0], word_to_ix)
    precheck_tags = torch.tensor([tag_to_ix[t] for t in training_data[0][1]], dtype=torch.long)
    print(model(precheck_sent))
for epoch in range(3):
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = torch.tensor([tag_to_ix[t] for t in tags], dtype=torch.long)
        loss = model.neg_log_likelihood(sentence_in, targets)
        loss.backward()
        optimizer.step()
    print(epoch, loss)
with torch.no_grad():
    precheck_sent = prepare_sequence(training_data[0][0], word_to_ix)
    print(model(precheck_sent))
""",
    r"""
transitions = torch.randn(4, 4)
tags = torch.tensor([3, 0, 1, 2])
score = torch.zeros(1)
for i in range(3):
    score = score + transitions[tags[i + 1], tags[i]]
print(score, transitions[tags[1], tags[0]].shape, transitions[tags[1:], tags[:-1]].sum())
""",
    r"""
init_alphas = torch.full((1, 5), -10000.)
init_alphas[0][3] = 0.
print(init_alphas, init_alphas[0][3].item(), init_alphas.dtype)
print(torch.full((2,), 7).dtype, torch.full((2,), True).dtype, torch.full((1, 2), -1.5, dtype=torch.float64))
""",
    r"""
fv = torch.tensor([[0.5, -1.0, 2.0]])
trans = torch.tensor([[0.1, 0.2, 0.3], [0.0, -0.5, 1.0], [2.0, 0.0, -1.0]])
feat = torch.tensor([1.0, 0.0, -1.0])
alphas = torch.stack([torch.logsumexp(fv + trans[j] + feat[j], dim=1) for j in range(3)]).view(1, -1)
vec = (fv.unsqueeze(1) + trans.unsqueeze(0)).squeeze(0)
print(alphas, torch.logsumexp(fv + trans + feat.view(-1, 1), dim=1))
best = (fv + trans).max(dim=1)
print(best.values, best.indices, (best.values + feat).view(1, -1))
""",
    r"""
path = [2, 0, 1, 1]
bp = [[0, 1, 2], [2, 2, 0], [1, 1, 1]]
best = 1
best_path = [best]
for b in reversed(bp):
    best = b[best]
    best_path.append(best)
best_path.reverse()
print(best_path, torch.tensor(best_path), torch.tensor(bp)[torch.arange(3), torch.tensor([0, 1, 2])])
""",
    r"""
x = torch.tensor([[1., 5., 5., 2.]])
print(torch.max(x, 1), x.argmax(1), torch.argmax(x), torch.max(x))
print(torch.max(torch.tensor([[3, 3], [1, 4]]), dim=0))
""",
]

# NLP from scratch: generating names with a char-level RNN (category + input + hidden), sampling
# under a seed; translation with an attention decoder (a few training steps on made-up pairs).
NLP_GENERATION = [
    r"""
import string
all_letters = string.ascii_letters + " .,;'-"
n_letters = len(all_letters) + 1
all_categories = ['English', 'French', 'Greek']
n_categories = len(all_categories)
category_lines = {'English': ['Abbot', 'Baker', 'Cole'], 'French': ['Abel', 'Babin'], 'Greek': ['Adamos', 'Bakos']}
class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(n_categories + input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(n_categories + input_size + hidden_size, output_size)
        self.o2o = nn.Linear(hidden_size + output_size, output_size)
        self.dropout = nn.Dropout(0.1)
        self.softmax = nn.LogSoftmax(dim=1)
    def forward(self, category, input, hidden):
        input_combined = torch.cat((category, input, hidden), 1)
        hidden = self.i2h(input_combined)
        output = self.i2o(input_combined)
        output_combined = torch.cat((hidden, output), 1)
        output = self.o2o(output_combined)
        output = self.dropout(output)
        output = self.softmax(output)
        return output, hidden
    def initHidden(self):
        return torch.zeros(1, self.hidden_size)
def categoryTensor(category):
    li = all_categories.index(category)
    tensor = torch.zeros(1, n_categories)
    tensor[0][li] = 1
    return tensor
def inputTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li in range(len(line)):
        letter = line[li]
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor
def targetTensor(line):
    letter_indexes = [all_letters.find(line[li]) for li in range(1, len(line))]
    letter_indexes.append(n_letters - 1)
    return torch.LongTensor(letter_indexes)
print(targetTensor('Abel'), inputTensor('ab').nonzero())
rnn = RNN(n_letters, 16, n_letters)
criterion = nn.NLLLoss()
learning_rate = 0.0005
def train(category_tensor, input_line_tensor, target_line_tensor):
    target_line_tensor.unsqueeze_(-1)
    hidden = rnn.initHidden()
    rnn.zero_grad()
    loss = torch.Tensor([0])
    for i in range(input_line_tensor.size(0)):
        output, hidden = rnn(category_tensor, input_line_tensor[i], hidden)
        l = criterion(output, target_line_tensor[i])
        loss += l
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item() / input_line_tensor.size(0)
for cat in all_categories:
    for line in category_lines[cat]:
        output, loss = train(categoryTensor(cat), inputTensor(line), targetTensor(line))
        print(cat, line, round(loss, 5))
max_length = 6
def sample(category, start_letter='A'):
    with torch.no_grad():
        category_tensor = categoryTensor(category)
        input = inputTensor(start_letter)
        hidden = rnn.initHidden()
        output_name = start_letter
        for i in range(max_length):
            output, hidden = rnn(category_tensor, input[0], hidden)
            topv, topi = output.topk(1)
            topi = topi[0][0]
            if topi == n_letters - 1:
                break
            else:
                letter = all_letters[topi]
                output_name += letter
            input = inputTensor(letter)
        return output_name
rnn.eval()
print(sample('English', 'A'), sample('Greek', 'B'))
""",
    r"""
probs = torch.tensor([0.1, 0.2, 0.7])
g = torch.Generator().manual_seed(3)
print(torch.multinomial(probs, 5, replacement=True, generator=g))
torch.manual_seed(1)
print(torch.multinomial(probs, 2), torch.multinomial(torch.tensor([[0.5, 0.5], [0.0, 1.0]]), 1))
""",
    r"""
logits = torch.tensor([[1.0, 2.0, 0.5, -1.0]])
for temperature in [0.5, 1.0, 2.0]:
    torch.manual_seed(0)
    p = F.softmax(logits / temperature, dim=1)
    print(temperature, p.round(decimals=4), torch.multinomial(p, 6, replacement=True).tolist())
""",
    r"""
torch.manual_seed(7)
d = torch.distributions.Categorical(logits=torch.tensor([0.2, 1.0, -0.5]))
s = d.sample((6,))
print(s, d.log_prob(s).round(decimals=4), d.entropy().round(decimals=4))
""",
    r"""
out = torch.log_softmax(torch.tensor([[0.1, 0.9, 0.3]]), dim=1)
topv, topi = out.topk(1)
print(topv, topi, topi[0][0], type(topi[0][0].item()), 'abc'[topi[0][0]])
print(topi.squeeze().detach(), out.topk(2, largest=False))
""",
    r"""
try:
    torch.multinomial(torch.tensor([0.0, 0.0]), 1)
except RuntimeError as e:
    print(e)
try:
    torch.multinomial(torch.tensor([0.5, 0.5]), 3)
except RuntimeError as e:
    print(e)
try:
    torch.multinomial(torch.tensor([-0.5, 1.5]), 1)
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.Tensor([0])
print(x, x.dtype, torch.LongTensor([1, 2]).dtype, torch.Tensor(2, 3).shape, torch.FloatTensor([[1]]).shape)
x += torch.tensor(2.5)
print(x)
t = torch.LongTensor([4, 5])
t.unsqueeze_(-1)
print(t, t.shape)
""",
]

NLP_TRANSLATION = [
    r"""
SOS_token = 0
EOS_token = 1
class Lang:
    def __init__(self, name):
        self.name = name
        self.word2index = {}
        self.word2count = {}
        self.index2word = {0: "SOS", 1: "EOS"}
        self.n_words = 2
    def addSentence(self, sentence):
        for word in sentence.split(' '):
            self.addWord(word)
    def addWord(self, word):
        if word not in self.word2index:
            self.word2index[word] = self.n_words
            self.word2count[word] = 1
            self.index2word[self.n_words] = word
            self.n_words += 1
        else:
            self.word2count[word] += 1
pairs = [["je suis grand", "i am tall"], ["tu es petit", "you are small"], ["il est grand", "he is tall"]]
input_lang = Lang('fra'); output_lang = Lang('eng')
for p in pairs:
    input_lang.addSentence(p[0]); output_lang.addSentence(p[1])
print(input_lang.n_words, output_lang.n_words, output_lang.word2count)
MAX_LENGTH = 5
def indexesFromSentence(lang, sentence):
    return [lang.word2index[word] for word in sentence.split(' ')]
def tensorFromSentence(lang, sentence):
    indexes = indexesFromSentence(lang, sentence)
    indexes.append(EOS_token)
    return torch.tensor(indexes, dtype=torch.long).view(1, -1)
n = len(pairs)
input_ids = np.zeros((n, MAX_LENGTH), dtype=np.int32)
target_ids = np.zeros((n, MAX_LENGTH), dtype=np.int32)
for idx, (inp, tgt) in enumerate(pairs):
    inp_ids = indexesFromSentence(input_lang, inp); tgt_ids = indexesFromSentence(output_lang, tgt)
    inp_ids.append(EOS_token); tgt_ids.append(EOS_token)
    input_ids[idx, :len(inp_ids)] = inp_ids
    target_ids[idx, :len(tgt_ids)] = tgt_ids
train_data = torch.utils.data.TensorDataset(torch.LongTensor(input_ids), torch.LongTensor(target_ids))
train_dataloader = torch.utils.data.DataLoader(train_data, sampler=torch.utils.data.RandomSampler(train_data), batch_size=2)
print(tensorFromSentence(input_lang, 'tu es grand'), train_data[0])
for a, b in train_dataloader:
    print(a.dtype, a.shape, b.shape)
""",
    r"""
SOS_token = 0
MAX_LENGTH = 4
class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)
    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        output, hidden = self.gru(embedded)
        return output, hidden
class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super(BahdanauAttention, self).__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)
    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights
class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1):
        super(AttnDecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)
    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs = []
        attentions = []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(decoder_input, decoder_hidden, encoder_outputs)
            decoder_outputs.append(decoder_output)
            attentions.append(attn_weights)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        attentions = torch.cat(attentions, dim=1)
        return decoder_outputs, decoder_hidden, attentions
    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        input_gru = torch.cat((embedded, context), dim=2)
        output, hidden = self.gru(input_gru, hidden)
        output = self.out(output)
        return output, hidden, attn_weights
encoder = EncoderRNN(7, 8); decoder = AttnDecoderRNN(8, 6)
input_tensor = torch.tensor([[2, 3, 4, 1], [5, 6, 1, 0], [2, 6, 4, 1]])
target_tensor = torch.tensor([[2, 3, 4, 1], [5, 3, 1, 0], [2, 3, 4, 1]])
encoder_optimizer = torch.optim.Adam(encoder.parameters(), lr=0.01)
decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss()
for epoch in range(4):
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    encoder_outputs, encoder_hidden = encoder(input_tensor)
    decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)
    loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), target_tensor.view(-1))
    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
    print(epoch, f"{loss.item():.5f}")
encoder.eval(); decoder.eval()
with torch.no_grad():
    encoder_outputs, encoder_hidden = encoder(input_tensor[:1])
    decoder_outputs, decoder_hidden, decoder_attn = decoder(encoder_outputs, encoder_hidden)
    _, topi = decoder_outputs.topk(1)
    decoded_ids = topi.squeeze()
print(decoded_ids, decoder_attn.shape, decoder_attn.sum(-1).round(decimals=4))
""",
    r"""
import time, math
def asMinutes(s):
    m = math.floor(s / 60)
    s -= m * 60
    return '%dm %ds' % (m, s)
def timeSince(since, percent):
    now = since + 130
    s = now - since
    es = s / (percent)
    rs = es - s
    return '%s (- %s)' % (asMinutes(s), asMinutes(rs))
print(timeSince(1000.0, 0.25))
print_loss_total = torch.tensor(3.5).item() + 2.25
print('%s (%d %d%%) %.4f' % (timeSince(0, 0.5), 5, 5 / 10 * 100, print_loss_total / 2))
""",
    r"""
import unicodedata, re
def unicodeToAscii(s):
    return ''.join(c for c in unicodedata.normalize('NFD', s) if unicodedata.category(c) != 'Mn')
def normalizeString(s):
    s = unicodeToAscii(s.lower().strip())
    s = re.sub(r"([.!?])", r" \1", s)
    s = re.sub(r"[^a-zA-Z!?]+", r" ", s)
    return s.strip()
print(normalizeString("Je suis très fatigué!"))
lengths = torch.tensor([len(normalizeString(x).split(' ')) for x in ["Il est là.", "Ça va?"]])
print(lengths, lengths.max(), lengths.float().mean())
""",
    r"""
q = torch.randn(2, 1, 4); keys = torch.randn(2, 3, 4)
Wa = nn.Linear(4, 4); Ua = nn.Linear(4, 4); Va = nn.Linear(4, 1)
s = Va(torch.tanh(Wa(q) + Ua(keys)))
print(s.shape, s.squeeze(2).unsqueeze(1).shape)
w = F.softmax(s.squeeze(2).unsqueeze(1), dim=-1)
ctx = torch.bmm(w, keys)
print(ctx.shape, torch.allclose(ctx, (w.transpose(1, 2) * keys).sum(1, keepdim=True), atol=1e-6))
try:
    torch.bmm(w, keys.transpose(1, 2))
except RuntimeError as e:
    print(e)
""",
    r"""
h = torch.randn(1, 3, 5)
print(h.permute(1, 0, 2).shape, h.permute(1, 0, 2).is_contiguous(), h.permute(1, 0, 2).stride())
try:
    h.permute(1, 0)
except RuntimeError as e:
    print(e)
print(torch.empty(3, 1, dtype=torch.long).fill_(0), torch.empty(2, 1, dtype=torch.long).fill_(5).squeeze(-1))
""",
    r"""
decoder_outputs = torch.randn(2, 3, 5).log_softmax(-1)
target = torch.tensor([[1, 2, 0], [4, 0, 0]])
print(F.nll_loss(decoder_outputs.view(-1, 5), target.view(-1)))
print(F.nll_loss(decoder_outputs.view(-1, 5), target.view(-1), ignore_index=0))
print(F.nll_loss(decoder_outputs.transpose(1, 2), target, reduction='none').shape)
try:
    F.nll_loss(decoder_outputs, target)
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
""",
]

# Model ensembling and per-sample gradients with torch.func.
FUNC_ENSEMBLE = [
    r"""
class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 4)
        self.fc3 = nn.Linear(4, 3)
    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        return self.fc3(x)
num_models = 4
data = torch.randn(5, 4, 6)
targets = torch.randint(3, (24,))
models = [SimpleMLP() for _ in range(num_models)]
minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]
params, buffers = torch.func.stack_module_state(models)
print({k: v.shape for k, v in params.items()}, buffers)
print(params['fc1.weight'].requires_grad, params['fc1.weight'].is_leaf)
import copy
base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')
def fmodel(params, buffers, x):
    return torch.func.functional_call(base_model, (params, buffers), (x,))
print([p.size(0) for p in params.values()])
predictions1_vmap = torch.func.vmap(fmodel)(params, buffers, minibatches)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5))
predictions2_vmap = torch.func.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5))
print(predictions2_vmap.shape, predictions2_vmap.requires_grad)
""",
    r"""
models = [nn.Linear(2, 2) for _ in range(2)]
params, buffers = torch.func.stack_module_state(models)
loss = params['weight'].sum()
loss.backward()
print(params['weight'].grad, models[0].weight.grad)
""",
    r"""
try:
    torch.func.stack_module_state([nn.Linear(2, 2), nn.Linear(2, 3)])
except Exception as e:
    print(type(e).__name__, str(e)[:80])
try:
    torch.func.stack_module_state([])
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.func.stack_module_state([nn.Linear(2, 2), nn.Conv1d(2, 2, 1)])
except Exception as e:
    print(type(e).__name__, e)
""",
    r"""
m = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3))
models = [copy_m for copy_m in [m, nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3))]]
params, buffers = torch.func.stack_module_state(models)
print(sorted(buffers), buffers['1.running_var'].shape, buffers['1.num_batches_tracked'])
""",
    r"""
class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 2, 3, 1)
        self.fc1 = nn.Linear(2 * 2 * 2, 3)
    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        output = F.log_softmax(x, dim=1)
        return output
def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)
batch_size = 4
data = torch.randn(batch_size, 1, 6, 6)
targets = torch.randint(3, (batch_size,))
model = SimpleCNN()
def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))
def compute_sample_grads(data, targets):
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    sample_grads = [torch.stack(shards) for shards in sample_grads]
    return sample_grads
per_sample_grads = compute_sample_grads(data, targets)
print(per_sample_grads[1].shape)
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = torch.func.functional_call(model, (params, buffers), (batch,))
    return loss_fn(predictions, targets)
ft_compute_grad = torch.func.grad(compute_loss)
ft_compute_sample_grad = torch.func.vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)
print(list(ft_per_sample_grads), [tuple(g.shape) for g in ft_per_sample_grads.values()])
print(torch.allclose(torch.stack(per_sample_grads[0:1])[0].mean(0), torch.autograd.grad(loss_fn(model(data), targets), model.conv1.weight)[0], atol=1e-5))
""",
    r"""
model = nn.Linear(3, 1)
params = dict(model.named_parameters())
x = torch.randn(3)
out = torch.func.functional_call(model, params, (x,))
print(out.shape, torch.equal(out, model(x)))
new = {'weight': torch.ones(1, 3), 'bias': torch.zeros(1)}
print(torch.func.functional_call(model, new, x), model.weight.shape)
try:
    torch.func.functional_call(model, {'weight': torch.ones(1, 3), 'bogus': torch.zeros(1)}, (x,), strict=True)
except RuntimeError as e:
    print(str(e).splitlines()[0])
""",
    r"""
def f(x):
    return (x ** 2).sum()
x = torch.randn(4, 3)
print(torch.func.vmap(torch.func.grad(f))(x).shape, torch.allclose(torch.func.vmap(torch.func.grad(f))(x), 2 * x))
gv = torch.func.grad_and_value(f)(x[0])
print(type(gv).__name__, len(gv), torch.allclose(gv[1], f(x[0])))
""",
    r"""
def loss_with_aux(w, x):
    y = x @ w
    return y.sum(), {'y': y}
w = torch.ones(3); x = torch.randn(2, 3)
g, aux = torch.func.grad(loss_with_aux, has_aux=True)(w, x)
print(torch.allclose(g, x.sum(0)), aux['y'].shape)
try:
    torch.func.grad(lambda w: w * 2)(w)
except RuntimeError as e:
    print(e)
""",
    r"""
try:
    torch.func.vmap(lambda x: x.sum())(torch.ones(3), torch.ones(3))
except TypeError as e:
    print(e)
try:
    torch.func.vmap(lambda x, y: x + y)(torch.ones(3), torch.ones(4))
except ValueError as e:
    print(e)
""",
    r"""
x = torch.randn(3, 4)
print(torch.func.vmap(lambda r: r.dot(r))(x).shape, torch.func.vmap(torch.outer)(x, x).shape)
print(torch.func.vmap(torch.func.vmap(lambda a: a * 2))(x).shape)
print(torch.func.vmap(lambda a: a.unsqueeze(0), out_dims=1)(x).shape)
""",
    r"""
model = nn.Sequential(nn.Linear(2, 4), nn.Dropout(0.5), nn.Linear(4, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
def f(params, x):
    return torch.func.functional_call(model, params, (x,)).sum()
try:
    torch.func.vmap(torch.func.grad(f), in_dims=(None, 0))(params, torch.randn(3, 2))
except RuntimeError as e:
    print(str(e)[:120])
print(torch.func.vmap(torch.func.grad(f), in_dims=(None, 0), randomness='different')(params, torch.randn(3, 2))['0.weight'].shape)
model.eval()
print(torch.func.vmap(torch.func.grad(f), in_dims=(None, 0))(params, torch.randn(3, 2))['2.bias'].shape)
""",
]

# Jacobians, Hessians, hvp, vhp: torch.func and torch.autograd.functional.
JACOBIANS = [
    r"""
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)
jacobian = compute_jac(xp)
print(jacobian.shape, jacobian[0])
ft_jacobian = torch.func.jacrev(predict, argnums=2)(weight, bias, x)
print(torch.allclose(ft_jacobian, jacobian))
import functools
_, vjp_fn = torch.func.vjp(functools.partial(predict, weight, bias), x)
ft_jacobian2, = torch.func.vmap(vjp_fn)(unit_vectors)
print(torch.allclose(ft_jacobian2, jacobian))
""",
    r"""
import functools
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
weight = torch.randn(3, 2); bias = torch.randn(3); x = torch.randn(2)
_, vjp_fn = torch.func.vjp(functools.partial(predict, weight, bias), x)
print(vjp_fn(torch.ones(3))[0].shape)
jf = torch.func.jacfwd(predict, argnums=2)(weight, bias, x)
jr = torch.func.jacrev(predict, argnums=2)(weight, bias, x)
print(jf.shape, torch.allclose(jf, jr, atol=1e-6))
print(callable(vjp_fn), type(vjp_fn).__name__)
""",
    r"""
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
Din, Dout = 3, 5
weight = torch.randn(Dout, Din); bias = torch.randn(Dout); x = torch.randn(Din)
print(torch.func.jacfwd(predict, argnums=2)(weight, bias, x).shape)
jw, jb = torch.func.jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(jw.shape, jb.shape, torch.allclose(jb, torch.diag(1 - predict(weight, bias, x) ** 2), atol=1e-6))
""",
    r"""
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
weight = torch.randn(3, 3); bias = torch.randn(3); x = torch.randn(3)
hess_api = torch.func.hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = torch.func.jacfwd(torch.func.jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = torch.func.jacrev(torch.func.jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd, atol=1e-6), torch.allclose(hess_api, hess_revrev, atol=1e-6))
""",
    r"""
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
batch_size = 4
weight = torch.randn(3, 2); bias = torch.randn(3)
x = torch.randn(batch_size, 2)
compute_batch_jacobian = torch.func.vmap(torch.func.jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)
print(batch_jacobian0.shape)
def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)
batch_jacobian1 = torch.func.jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print(torch.allclose(batch_jacobian0, batch_jacobian1, atol=1e-6))
compute_batch_hessian = torch.func.vmap(torch.func.hessian(predict, argnums=2), in_dims=(None, None, 0))
print(compute_batch_hessian(weight, bias, x).shape)
""",
    r"""
def hvp(f, primals, tangents):
    return torch.func.jvp(torch.func.grad(f), primals, tangents)[1]
def f(x):
    return x.sin().sum()
x = torch.randn(4)
tangent = torch.randn(4)
result = hvp(f, (x,), (tangent,))
print(torch.allclose(result, -x.sin() * tangent, atol=1e-6))
""",
    r"""
def f(x):
    return (x ** 3).sum()
x = torch.tensor([1., 2., 3.])
v = torch.tensor([1., 0., 1.])
out, hv = torch.autograd.functional.hvp(f, x, v)
out2, vh = torch.autograd.functional.vhp(f, x, v)
print(out, hv, vh)
print(torch.autograd.functional.hessian(f, x))
""",
    r"""
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(torch.autograd.functional.jacobian(exp_reducer, inputs))
print(torch.autograd.functional.jacobian(exp_reducer, inputs, create_graph=True).requires_grad)
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
print(torch.autograd.functional.jacobian(exp_adder, (torch.rand(2), torch.rand(2))))
""",
    r"""
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(torch.autograd.functional.hessian(pow_reducer, inputs).shape)
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
h = torch.autograd.functional.hessian(pow_adder_reducer, (torch.rand(2), torch.rand(2)))
print(type(h).__name__, len(h), h[0][0], h[1][1], h[0][1])
""",
    r"""
def f(x):
    return x ** 2
x = torch.tensor([1., 2.])
out, vjp = torch.autograd.functional.vjp(f, x, torch.ones(2))
out2, jvp = torch.autograd.functional.jvp(f, x, torch.tensor([1., 0.]))
print(out, vjp, jvp)
try:
    torch.autograd.functional.vjp(f, x)
except RuntimeError as e:
    print(e)
""",
    r"""
def f(x):
    return torch.ones(2)
try:
    torch.autograd.functional.jacobian(f, torch.ones(2), strict=True)
except RuntimeError as e:
    print(e)
print(torch.autograd.functional.jacobian(f, torch.ones(2)))
""",
    r"""
def f(x, y):
    return x * y.sin()
x = torch.randn(3); y = torch.randn(3)
j1 = torch.autograd.functional.jacobian(f, (x, y), vectorize=True)
j2 = torch.autograd.functional.jacobian(f, (x, y))
print(all(torch.allclose(a, b) for a, b in zip(j1, j2)))
j3 = torch.autograd.functional.jacobian(f, (x, y), vectorize=True, strategy='forward-mode')
print(all(torch.allclose(a, b) for a, b in zip(j1, j3)))
""",
    r"""
f = lambda x: x.sin()
x = torch.randn(3)
print(torch.allclose(torch.func.jacrev(torch.func.jacrev(f))(x), torch.func.hessian(f)(x)))
print(torch.func.hessian(f)(x).shape, torch.func.jacrev(f, has_aux=False)(x).shape)
def g(x):
    return x.sin(), {'c': x.cos()}
j, aux = torch.func.jacrev(g, has_aux=True)(x)
print(j.shape, sorted(aux))
""",
    r"""
x = torch.randn(2, 3)
j = torch.func.jacrev(lambda t: t.sum(1))(x)
print(j.shape, j)
print(torch.func.jacfwd(lambda t: {'a': t * 2})(torch.ones(2)))
try:
    torch.func.jacrev(lambda t: t, argnums=1)(x)
except RuntimeError as e:
    print(e)
""",
    r"""
def f(x):
    return x.sum()
try:
    torch.func.jacrev(f)(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
try:
    torch.func.grad(f)(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.randn(3, requires_grad=True)
y = (x ** 2).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
H = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)])
print(H)
v = torch.tensor([1., 2., 3.])
hv, = torch.autograd.grad(g, x, v)
print(hv)
""",
]

# vmap refuses data-dependent Python on mapped tensors, as torch (both were known gaps)
FUNC_REFUSALS = [
    r"""
try:
    torch.func.vmap(lambda x: x.item())(torch.ones(3))
except RuntimeError as e:
    print(str(e)[:120])
""",
    r"""
def f(x):
    if x.sum() > 0:
        return x
    return -x
try:
    torch.func.vmap(f)(torch.randn(3, 2))
except RuntimeError as e:
    print(str(e)[:150])
""",
]

FUNC_GAPS = []

# Forward-mode AD: dual numbers, unpack_dual, custom Functions with jvp, modules through
# functional_call, and torch.func.jvp.
FORWARD_AD = [
    r"""
fwAD = torch.autograd.forward_ad
primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(3, 3)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(torch.allclose(jvp, 2 * primal * tangent), fwAD.unpack_dual(dual_output).primal.shape)
print(fwAD.unpack_dual(dual_output).tangent is None, type(fwAD.unpack_dual(dual_output)).__name__)
""",
    r"""
fwAD = torch.autograd.forward_ad
primal = torch.randn(2)
tangent = torch.randn(2)
with fwAD.dual_level():
    d = fwAD.make_dual(primal, tangent)
    p, t = fwAD.unpack_dual(d)
    print(p is primal, t is tangent, torch.equal(p, primal))
    print(fwAD.unpack_dual(d)._fields if hasattr(fwAD.unpack_dual(d), '_fields') else None)
out = fwAD.unpack_dual(d)
print(out.tangent)
""",
    r"""
fwAD = torch.autograd.forward_ad
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp.shape, torch.allclose(jvp, input @ tangents['weight'].T + tangents['bias'], atol=1e-5))
""",
    r"""
fwAD = torch.autograd.forward_ad
model = nn.Linear(5, 5)
input = torch.randn(4, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = torch.func.functional_call(model, dual_params, input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp.shape, torch.allclose(jvp, input @ tangents['weight'].T + tangents['bias'], atol=1e-5))
""",
    r"""
fwAD = torch.autograd.forward_ad
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result
    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO
fn = Fn.apply
primal = torch.randn(4, dtype=torch.double, requires_grad=True)
tangent = torch.randn(4, dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(torch.allclose(jvp, tangent * primal.exp()))
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
""",
    r"""
primal = torch.randn(3)
tangent = torch.randn(3)
def fn(x, y):
    return x ** 2 + y ** 2
y = torch.randn(3)
primal_out, tangent_out = torch.func.jvp(lambda x: fn(x, y), (primal,), (tangent,))
print(torch.allclose(primal_out, fn(primal, y)), torch.allclose(tangent_out, 2 * primal * tangent))
""",
    r"""
model = nn.Linear(5, 5)
input = torch.randn(4, 5)
func, params = torch.func.functional_call, dict(model.named_parameters())
def func_params_only(p):
    return func(model, p, input)
params = {k: v.detach() for k, v in params.items()}
tangents = {k: torch.ones_like(v) for k, v in params.items()}
model_output, jvp_out = torch.func.jvp(func_params_only, (params,), (tangents,))
print(model_output.shape, jvp_out[0], torch.allclose(jvp_out, input.sum(1, keepdim=True).expand(4, 5) + 1, atol=1e-5))
""",
    r"""
fwAD = torch.autograd.forward_ad
x = torch.tensor([1., 2.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 0.]))
    print(d)
    y = d.sin()
    print(fwAD.unpack_dual(y).tangent, y.grad_fn)
""",
    r"""
fwAD = torch.autograd.forward_ad
try:
    fwAD.make_dual(torch.ones(2), torch.ones(2))
except RuntimeError as e:
    print(e)
with fwAD.dual_level():
    try:
        fwAD.make_dual(torch.ones(2), torch.ones(3))
    except RuntimeError as e:
        print(e)
    try:
        fwAD.make_dual(torch.ones(2), torch.ones(2, dtype=torch.float64))
        print('ok')
    except RuntimeError as e:
        print(e)
    try:
        fwAD.make_dual(torch.arange(2), torch.arange(2))
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
""",
    r"""
fwAD = torch.autograd.forward_ad
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(3), torch.full((3,), 2.0))
    e = d * d
    d2 = d.clone()
    print(fwAD.unpack_dual(e).tangent, fwAD.unpack_dual(d2).tangent)
    print(fwAD.unpack_dual(d.detach()).tangent, fwAD.unpack_dual(torch.ones(1)).tangent)
    print(fwAD.unpack_dual(d.sum()).tangent, fwAD.unpack_dual(d.view(3, 1)).tangent.shape)
""",
    r"""
fwAD = torch.autograd.forward_ad
x = torch.randn(3, requires_grad=True)
t = torch.randn(3)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    y = (d ** 2).sum()
    jvp = fwAD.unpack_dual(y).tangent
    y.backward()
print(torch.allclose(jvp, (2 * x * t).sum()), torch.allclose(x.grad, 2 * x))
""",
    r"""
def f(x):
    return x.exp().sum(), x.sin()
x = torch.randn(3); t = torch.ones(3)
(o1, o2), (t1, t2) = torch.func.jvp(f, (x,), (t,))
print(torch.allclose(t1, x.exp().sum()), torch.allclose(t2, x.cos()))
out, jvp_fn = torch.func.linearize(torch.sin, x)
print(torch.allclose(jvp_fn(t), x.cos()))
try:
    torch.func.jvp(torch.sin, x, t)
except RuntimeError as e:
    print(e)
try:
    torch.func.jvp(torch.sin, (x,), (torch.ones(4),))
except RuntimeError as e:
    print(e)
""",
]

# Double backward with custom Functions: save_for_backward of inputs and of outputs, saving
# intermediate results, gradcheck/gradgradcheck.
DOUBLE_BACKWARD = [
    r"""
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x), torch.autograd.gradgradcheck(Square.apply, x))
y = Square.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g.grad_fn is not None, torch.allclose(torch.autograd.grad(g.sum(), x)[0], torch.full((3, 3), 2., dtype=torch.double)))
""",
    r"""
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out
x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
y = Exp.apply(x)
print(y.grad_fn.name(), [type(n[0]).__name__ for n in y.grad_fn.next_functions])
""",
    r"""
class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx
    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input
def sinh(x):
    return Sinh.apply(x)[0]
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))
""",
    r"""
class SinhBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2
    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(SinhBad.apply, x))
try:
    torch.autograd.gradgradcheck(SinhBad.apply, x)
except RuntimeError as e:
    print(str(e).splitlines()[0])
print(torch.autograd.gradgradcheck(SinhBad.apply, x, raise_exception=False))
""",
    r"""
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)
class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return grad_out * 3 * x ** 2
    @staticmethod
    def backward(ctx, grad_out):
        x, grad_out_prev = ctx.saved_tensors
        dx = grad_out * grad_out_prev * 6 * x
        dgrad_out = grad_out * 3 * x ** 2
        return dgrad_out, dx
x = torch.tensor(2., requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Cube.apply, x), torch.autograd.gradgradcheck(Cube.apply, x))
y = Cube.apply(x)
g, = torch.autograd.grad(y, x, create_graph=True)
gg, = torch.autograd.grad(g, x)
print(g, gg, g.grad_fn.name())
""",
    r"""
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
x = torch.tensor([3.], requires_grad=True)
g, = torch.autograd.grad(Square.apply(x), x, create_graph=True)
print(g, g.requires_grad)
try:
    g.backward()
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.tensor([1.5], requires_grad=True)
y = x.pow(3)
print(y.grad_fn, y.grad_fn._saved_self is x if hasattr(y.grad_fn, '_saved_self') else None)
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn.name())
gg, = torch.autograd.grad(g, x)
print(gg)
y = x.exp()
print(y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y)
""",
    r"""
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 3
x = torch.randn(3, dtype=torch.double, requires_grad=True)
try:
    torch.autograd.gradcheck(Bad.apply, x)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(torch.autograd.gradcheck(Bad.apply, x, raise_exception=False))
try:
    torch.autograd.gradcheck(Bad.apply, x.float().detach().requires_grad_())
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:90])
""",
]

# Fusing convolution and batch norm with a custom Function (saving memory in training).
FUSED_CONV_BN = [
    r"""
def convolution_backward(grad_out, X, weight):
    grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
    grad_X = torch.nn.functional.conv_transpose2d(grad_out, weight)
    return grad_X, grad_input
class Conv2D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, weight):
        ctx.save_for_backward(X, weight)
        return F.conv2d(X, weight)
    @staticmethod
    def backward(ctx, grad_out):
        X, weight = ctx.saved_tensors
        return convolution_backward(grad_out, X, weight)
weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(10, 3, 7, 7, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Conv2D.apply, (X, weight)))
""",
    r"""
def unsqueeze_all(t):
    return t[None, :, None, None]
def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
    tmp = ((X - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
    tmp *= -1
    d_denom = tmp / (sqrt_var + eps)**2
    d_var = d_denom / (2 * sqrt_var)
    d_var *= 2 / (N - 1)
    d_var = unsqueeze_all(d_var)
    d_mean_dx = grad_out / unsqueeze_all(sqrt_var + eps)
    d_mean_dx = unsqueeze_all(-d_mean_dx.sum(dim=(0, 2, 3)) / N)
    grad_input = X * d_var
    grad_input += d_mean_dx
    grad_input *= 2
    grad_input += -d_var * unsqueeze_all(sum) * 2 / N + grad_out / unsqueeze_all(sqrt_var + eps)
    return grad_input
class BatchNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, eps=1e-3):
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.save_for_backward(X)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out
    @staticmethod
    def backward(ctx, grad_out):
        X, = ctx.saved_tensors
        return batch_norm_backward(grad_out, X, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps)
a = torch.rand(1, 2, 3, 4, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(BatchNorm.apply, (a,), fast_mode=False))
print(BatchNorm.apply(a).mean(dim=(0, 2, 3)).abs().max() < 1e-12)
""",
    r"""
import math
def unsqueeze_all(t):
    return t[None, :, None, None]
class FusedConvBN2DFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, conv_weight, eps=1e-3):
        assert X.ndim == 4
        ctx.save_for_backward(X, conv_weight)
        X = F.conv2d(X, conv_weight)
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out
    @staticmethod
    def backward(ctx, grad_out):
        X, conv_weight, = ctx.saved_tensors
        X_conv_out = F.conv2d(X, conv_weight)
        sum, sqrt_var, N, eps = ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps
        tmp = ((X_conv_out - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
        d_var = unsqueeze_all(-tmp / (sqrt_var + eps) ** 2 / (2 * sqrt_var) * 2 / (N - 1))
        d_mean_dx = unsqueeze_all(-(grad_out / unsqueeze_all(sqrt_var + eps)).sum(dim=(0, 2, 3)) / N)
        grad_out = (X_conv_out * d_var + d_mean_dx) * 2 - d_var * unsqueeze_all(sum) * 2 / N + grad_out / unsqueeze_all(sqrt_var + eps)
        grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
        grad_X = F.conv_transpose2d(grad_out, conv_weight)
        return grad_X, grad_input, None, None, None, None, None
class FusedConvBN(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, exp_avg_factor=0.1, eps=1e-3, device=None, dtype=None):
        super(FusedConvBN, self).__init__()
        factory_kwargs = {'device': device, 'dtype': dtype}
        weight_shape = (out_channels, in_channels, kernel_size, kernel_size)
        self.conv_weight = nn.Parameter(torch.empty(*weight_shape, **factory_kwargs))
        self.eps = eps
        self.reset_parameters()
    def forward(self, X):
        return FusedConvBN2DFunction.apply(X, self.conv_weight, self.eps)
    def reset_parameters(self) -> None:
        torch.nn.init.kaiming_uniform_(self.conv_weight, a=math.sqrt(5))
weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(2, 3, 4, 4, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(FusedConvBN2DFunction.apply, (X, weight)))
m = FusedConvBN(3, 4, 3, dtype=torch.double)
print(m, m.conv_weight.shape, m.conv_weight.dtype)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad(); out = m(X); loss = out.pow(3).mean(); loss.backward(); opt.step()
    print(f"{loss.item():.6f}")
""",
    r"""
x = torch.rand(2, 3, 5, 5, dtype=torch.double)
w = torch.rand(4, 3, 3, 3, dtype=torch.double)
go = torch.rand(2, 4, 3, 3, dtype=torch.double)
gw = F.conv2d(x.transpose(0, 1), go.transpose(0, 1)).transpose(0, 1)
gx = F.conv_transpose2d(go, w)
xr = x.clone().requires_grad_(); wr = w.clone().requires_grad_()
F.conv2d(xr, wr).backward(go)
print(gw.shape, gx.shape, torch.allclose(gw, wr.grad), torch.allclose(gx, xr.grad))
print(torch.nn.grad.conv2d_weight(x, w.shape, go).shape, torch.allclose(torch.nn.grad.conv2d_input(x.shape, w, go), gx))
""",
    r"""
x = torch.rand(2, 3, 4, 4)
print(x.var(unbiased=True, dim=(0, 2, 3)).shape, torch.allclose(x.var(dim=(0, 2, 3), correction=0), x.var(unbiased=False, dim=(0, 2, 3))))
print(x[None, :, None, None].shape if x.dim() == 1 else x.sum(dim=(0, 2, 3))[None, :, None, None].shape)
print(x.numel() / x.size(1), type(x.numel() / x.size(1)).__name__)
""",
    r"""
conv = nn.Conv2d(3, 4, 3, bias=False); bn = nn.BatchNorm2d(4)
x = torch.randn(2, 3, 6, 6)
bn.train(); bn(conv(x))
conv.eval(); bn.eval()
fused = torch.nn.utils.fuse_conv_bn_eval(conv, bn)
print(fused, fused.bias is not None, torch.allclose(fused(x), bn(conv(x)), atol=1e-5))
w, b = torch.nn.utils.fuse_conv_bn_weights(conv.weight, conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
print(type(w).__name__, w.shape, b.shape)
""",
]

# Extending PyTorch: custom Functions with ctx.save_for_backward, mark_dirty,
# mark_non_differentiable, set_materialize_grads, once_differentiable, and Tensor subclasses
# with __torch_function__.
EXTENDING_MORE = [
    r"""
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input
x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
y = MyReLU.apply(x)
y.backward(torch.ones(3))
print(y, x.grad, y.grad_fn)
""".replace("y.grad_fn)", "type(y.grad_fn).__name__)"),
    r"""
class AddOne_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = AddOne_.apply(b)
print(c is b, c, b._version, type(c.grad_fn).__name__)
c.sum().backward()
print(a.grad)
try:
    AddOne_.apply(a)
except RuntimeError as e:
    print(e)
""",
    r"""
class NoDirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
a = torch.tensor([1., 2.], requires_grad=True)
try:
    NoDirty.apply(a.clone()).sum().backward()
    print(a.grad)
except RuntimeError as e:
    print(e)
""",
    r"""
class Sort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return vals, idx
    @staticmethod
    def backward(ctx, g1, g2):
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = Sort.apply(x)
print(v.requires_grad, i.requires_grad, i)
(v * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
""",
    r"""
class SimpleFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('g2 is None:', g2 is None)
        x = torch.zeros(2)
        if g1 is not None:
            x = x + g1
        if g2 is not None:
            x = x + g2
        return x
a = torch.ones(2, requires_grad=True)
out1, out2 = SimpleFunc.apply(a)
out1.sum().backward()
print(a.grad)
""",
    r"""
class Mat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print(g2)
        return g1 + g2
a = torch.ones(2, requires_grad=True)
o1, o2 = Mat.apply(a)
o1.sum().backward()
print(a.grad)
""",
    r"""
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
x = torch.ones(2, requires_grad=True)
MulConstant.apply(x, 4).sum().backward()
print(x.grad)
class WrongCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output
try:
    WrongCount.apply(torch.ones(2, requires_grad=True), 3.0).sum().backward()
    print('accepted')
except RuntimeError as e:
    print(e)
""",
    r"""
class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
try:
    TooMany.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print(e)
class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
try:
    WrongShape.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print(e)
""",
    r"""
class F1(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2
x = torch.ones(2, requires_grad=True)
y = F1.apply(x)
y.sum().backward(retain_graph=False)
try:
    y.sum().backward()
except RuntimeError as e:
    print(str(e)[:110])
try:
    F1()
    F1.forward(None, x)
except Exception as e:
    print(type(e).__name__, e)
""",
    r"""
class Legacy(torch.autograd.Function):
    def forward(self, x):
        return x * 2
try:
    Legacy.apply(torch.ones(1, requires_grad=True))
except RuntimeError as e:
    print(e)
try:
    Legacy()(torch.ones(1))
except RuntimeError as e:
    print(str(e)[:100])
""",
    r"""
class Noisy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2)
y = Noisy.apply(x)
print(y.requires_grad, y.grad_fn)
with torch.no_grad():
    z = Noisy.apply(torch.ones(2, requires_grad=True))
print(z.requires_grad)
""",
    r"""
class ScaledTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func is torch.add:
            print('add intercepted')
        return super().__torch_function__(func, types, args, kwargs)
t = torch.ones(2).as_subclass(ScaledTensor)
r = torch.add(t, 1)
print(type(r).__name__, r)
print(type(t.sum()).__name__, type(t[0]).__name__, type(torch.ones(2) + t).__name__)
print(isinstance(t, torch.Tensor), type(t.detach()).__name__, type(t.clone()).__name__)
""",
    r"""
class Tagged(torch.Tensor):
    @staticmethod
    def __new__(cls, data, tag=None):
        t = torch.Tensor._make_subclass(cls, data)
        t.tag = tag
        return t
t = Tagged(torch.ones(2), tag='x')
print(type(t).__name__, t.tag, t.requires_grad)
u = t * 2
print(type(u).__name__, getattr(u, 'tag', 'missing'))
print(repr(t))
""",
    r"""
class NoSubclassResults(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        with torch._C.DisableTorchFunctionSubclass():
            return func(*args, **(kwargs or {}))
t = torch.ones(2).as_subclass(NoSubclassResults)
print(type(t + 1).__name__, type(t.sum()).__name__)
with torch._C.DisableTorchFunctionSubclass():
    print(type(t + 1).__name__)
print(type(torch.Tensor._disable_torch_function_impl) if hasattr(torch.Tensor, '_disable_torch_function_impl') else None)
""",
    r"""
import functools
HANDLED_FUNCTIONS = {}
def implements(torch_function):
    def decorator(func):
        functools.update_wrapper(func, torch_function)
        HANDLED_FUNCTIONS[torch_function] = func
        return func
    return decorator
class DiagonalTensor(object):
    def __init__(self, N, value):
        self._N = N
        self._i = value
    def __repr__(self):
        return "DiagonalTensor(N={}, value={})".format(self._N, self._i)
    def tensor(self):
        return self._i * torch.eye(self._N)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS:
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)
@implements(torch.sum)
def diag_sum(input):
    return input._N * input._i
d = DiagonalTensor(3, 2)
print(d, d.tensor())
print(HANDLED_FUNCTIONS[torch.sum](d))
""",
    r"""
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        print(ctx.needs_input_grad)
        return g * y, g * x
x = torch.ones(2, requires_grad=True); y = torch.full((2,), 3.)
MyFunc.apply(x, y).sum().backward()
print(x.grad, y.grad)
""",
    r"""
class SaveNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, n = ctx.saved_tensors
        print(n)
        return g * 2
x = torch.ones(2, requires_grad=True)
SaveNonTensor.apply(x).sum().backward()
print(x.grad)
class SaveInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
try:
    SaveInt.apply(x)
except TypeError as e:
    print(e)
""",
    r"""
class ModifiedAfterSave(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
a = torch.ones(2, requires_grad=True)
b = a * 1
y = ModifiedAfterSave.apply(b)
b.add_(1)
try:
    y.sum().backward()
except RuntimeError as e:
    print(str(e)[:160])
""",
]

# Parametrizations: a custom parametrization (symmetric, with right_inverse), orthogonal,
# weight_norm and spectral_norm in the parametrize form, caching and removal.
PARAMETRIZATIONS = [
    r"""
P = torch.nn.utils.parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.dist(A, A.T), A.shape)
print(layer)
print(layer.parametrizations.weight.original.shape, [n for n, _ in layer.named_parameters()])
""",
    r"""
P = torch.nn.utils.parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
print(P.is_parametrized(layer), P.is_parametrized(layer, "weight"), P.is_parametrized(layer, "bias"))
print(type(layer).__name__, type(layer).__mro__[1].__name__, layer.__class__.__name__)
print(list(layer.state_dict()))
print(layer.parametrizations)
""",
    r"""
P = torch.nn.utils.parametrize
class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)
class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)
layer_orthogonal = nn.Linear(3, 3)
P.register_parametrization(layer_orthogonal, "weight", Skew())
P.register_parametrization(layer_orthogonal, "weight", MatrixExponential())
X = layer_orthogonal.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5, len(layer_orthogonal.parametrizations.weight))
print(layer_orthogonal.parametrizations.weight)
""",
    r"""
P = torch.nn.utils.parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(4, 4)
P.register_parametrization(layer, "weight", Symmetric())
with P.cached():
    foo = layer.weight
    bar = layer.weight
    print(foo is bar)
print(layer.weight is layer.weight)
""",
    r"""
P = torch.nn.utils.parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
X = torch.rand(3, 3)
X = X + X.T
try:
    layer.weight = X
except NotImplementedError as e:
    print(e)
""",
    r"""
P = torch.nn.utils.parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
    def right_inverse(self, A):
        return A.triu()
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
X = torch.rand(3, 3)
X = X + X.T
layer.weight = X
print(torch.dist(layer.weight, X) < 1e-6, torch.equal(layer.parametrizations.weight.original, X.triu()))
""",
    r"""
P = torch.nn.utils.parametrize
class NoisyParametrization(nn.Module):
    def forward(self, X):
        return X
    def right_inverse(self, A):
        print("right_inverse called")
        return A
m = nn.Linear(2, 2)
P.register_parametrization(m, "weight", NoisyParametrization())
P.register_parametrization(m, "weight", NoisyParametrization(), unsafe=True)
print(len(m.parametrizations.weight))
""",
    r"""
P = torch.nn.utils.parametrize
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
print(type(layer).__name__)
P.remove_parametrizations(layer, "weight")
print(type(layer).__name__, [n for n, _ in layer.named_parameters()], torch.equal(layer.weight, layer.weight.T))
layer2 = nn.Linear(3, 3)
w0 = layer2.weight.detach().clone()
P.register_parametrization(layer2, "weight", Symmetric())
P.remove_parametrizations(layer2, "weight", leave_parametrized=False)
print(torch.equal(layer2.weight, w0))
try:
    P.remove_parametrizations(layer2, "weight")
except ValueError as e:
    print(e)
""",
    r"""
P = torch.nn.utils.parametrize
class PruningParametrization(nn.Module):
    def __init__(self, X, p_drop=0.2):
        super().__init__()
        mask = torch.full_like(X, 1.0 - p_drop)
        self.mask = torch.bernoulli(mask)
    def forward(self, X):
        return X * self.mask
    def right_inverse(self, A):
        return A
layer = nn.Linear(3, 4)
X = layer.weight
print(layer.weight)
P.register_parametrization(layer, "weight", PruningParametrization(X, p_drop=0.5))
print(layer.weight)
""",
    r"""
P = torch.nn.utils.parametrize
class MatrixSplit(nn.Module):
    def forward(self, A, B):
        return A + B
    def right_inverse(self, X):
        return X / 2, X / 2
m = nn.Linear(2, 2)
w = m.weight.detach().clone()
P.register_parametrization(m, "weight", MatrixSplit())
print(sorted(n for n, _ in m.named_parameters()), torch.allclose(m.weight, w))
print(m.parametrizations.weight.original0.shape, m.parametrizations.weight.ntensors)
""",
    r"""
orth = torch.nn.utils.parametrizations.orthogonal
m = orth(nn.Linear(4, 3))
W = m.weight
print(W.shape, torch.allclose(W @ W.T, torch.eye(3), atol=1e-5))
print([n for n, _ in m.named_parameters()], m.parametrizations.weight[0])
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.randn(2, 4)).sum().backward(); opt.step()
print(torch.allclose(m.weight @ m.weight.T, torch.eye(3), atol=1e-5))
""",
    r"""
orth = torch.nn.utils.parametrizations.orthogonal
for mp in ['matrix_exp', 'cayley', 'householder']:
    m = orth(nn.Linear(3, 3), orthogonal_map=mp)
    W = m.weight
    print(mp, torch.allclose(W.T @ W, torch.eye(3), atol=1e-5), m.parametrizations.weight[0].orthogonal_map)
try:
    orth(nn.Linear(3, 3), orthogonal_map='bogus')
except ValueError as e:
    print(e)
""",
    r"""
wn = torch.nn.utils.parametrizations.weight_norm
m = wn(nn.Linear(5, 3), name='weight')
print(m)
print([(n, tuple(p.shape)) for n, p in m.named_parameters()])
print(torch.allclose(m.parametrizations.weight.original0.squeeze(), m.weight.norm(dim=1)))
m2 = wn(nn.Linear(5, 3), dim=None)
print(m2.parametrizations.weight.original0.shape)
""",
    r"""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    m = torch.nn.utils.weight_norm(nn.Linear(5, 3))
print([str(x.message)[:70] for x in w])
print(sorted(n for n, _ in m.named_parameters()), m.weight_g.shape, m.weight_v.shape)
torch.nn.utils.remove_weight_norm(m)
print(sorted(n for n, _ in m.named_parameters()))
""",
    r"""
sn = torch.nn.utils.parametrizations.spectral_norm
m = sn(nn.Linear(4, 3))
print(m.parametrizations.weight[0], sorted(n for n, _ in m.named_buffers()))
for _ in range(20):
    m(torch.randn(2, 4))
print(round(torch.linalg.matrix_norm(m.weight, 2).item(), 3))
m.eval()
w1 = m.weight; w2 = m.weight
print(torch.equal(w1, w2))
""",
    r"""
P = torch.nn.utils.parametrize
class Double(nn.Module):
    def forward(self, X):
        return X * 2
m = nn.Linear(2, 2)
P.register_parametrization(m, "bias", Double())
sd = m.state_dict()
print(list(sd))
m2 = nn.Linear(2, 2)
P.register_parametrization(m2, "bias", Double())
m2.load_state_dict(sd)
print(torch.equal(m2.bias, m.bias))
try:
    nn.Linear(2, 2).load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0], len(str(e).splitlines()))
""",
    r"""
P = torch.nn.utils.parametrize
class Shape(nn.Module):
    def forward(self, X):
        return X.sum(0)
m = nn.Linear(2, 2)
try:
    P.register_parametrization(m, "weight", Shape())
except ValueError as e:
    print(str(e).splitlines()[0])
try:
    P.register_parametrization(m, "nonexistent", Shape())
except ValueError as e:
    print(e)
""",
    r"""
P = torch.nn.utils.parametrize
import copy
class Double(nn.Module):
    def forward(self, X):
        return X * 2
m = nn.Linear(2, 2)
P.register_parametrization(m, "weight", Double())
m2 = copy.deepcopy(m)
print(type(m2).__name__, torch.equal(m2.weight, m.weight), m2.parametrizations.weight.original is m.parametrizations.weight.original)
""",
]

# Pruning: l1_unstructured / random_structured / global_unstructured, the mask buffers and the
# forward pre-hooks, iterative pruning, remove, a custom pruning method and state_dict keys.
PRUNING = [
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
class LeNet(nn.Module):
    def __init__(self):
        super(LeNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(4 * 5 * 5, 12)
        self.fc2 = nn.Linear(12, 8)
        self.fc3 = nn.Linear(8, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
model = LeNet()
module = model.conv1
print(list(module.named_parameters()))
print(list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print(list(module.named_parameters())[0][0], list(module.named_buffers())[0][0])
print(module.weight)
print(module._forward_pre_hooks)
""".replace("print(module._forward_pre_hooks)", "print(len(module._forward_pre_hooks), model(torch.rand(1, 1, 26, 26)).shape)"),
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
module = nn.Conv2d(1, 3, 3)
prune.l1_unstructured(module, name="bias", amount=3)
print(list(module.named_parameters())[1][0] if len(list(module.named_parameters())) > 1 else list(module.named_parameters()))
print(module.bias_mask, module.bias)
print(list(module._forward_pre_hooks.values())[0].__class__.__name__, list(module._forward_pre_hooks.values())[0]._tensor_name)
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
module = nn.Conv2d(2, 4, 3)
prune.random_unstructured(module, name="weight", amount=0.3)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight.abs().sum(dim=(1, 2, 3)).eq(0).sum())
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print([type(h).__name__ for h in hook])
print([type(h).__name__ for h in hook._pruning_methods], hook.__class__.__name__)
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.fc1 = nn.Linear(4, 3)
model = LeNet()
print(model.state_dict().keys())
prune.l1_unstructured(model.conv1, name="weight", amount=0.5)
print(model.state_dict().keys())
prune.remove(model.conv1, 'weight')
print(model.state_dict().keys(), list(model.conv1._forward_pre_hooks))
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
new_model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.Linear(4, 3))
for name, module in new_model.named_modules():
    if isinstance(module, torch.nn.Conv2d):
        prune.l1_unstructured(module, name='weight', amount=0.2)
    elif isinstance(module, torch.nn.Linear):
        prune.l1_unstructured(module, name='weight', amount=0.4)
print(dict(new_model.named_buffers()).keys())
print(int(new_model[1].weight_mask.sum()), int(new_model[0].weight_mask.sum()))
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
model = nn.Sequential(nn.Conv2d(1, 3, 3), nn.Conv2d(3, 2, 3), nn.Linear(6, 4), nn.Linear(4, 2))
parameters_to_prune = ((model[0], 'weight'), (model[1], 'weight'), (model[2], 'weight'), (model[3], 'weight'))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for i in range(4):
    print("Sparsity in [{}].weight: {:.2f}%".format(i, 100. * float(torch.sum(model[i].weight == 0)) / float(model[i].weight.nelement())))
total = sum(float(torch.sum(m.weight == 0)) for m, _ in parameters_to_prune)
n = sum(float(m.weight.nelement()) for m, _ in parameters_to_prune)
print("Global sparsity: {:.2f}%".format(100. * total / n))
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
class FooBarPruningMethod(prune.BasePruningMethod):
    PRUNING_TYPE = 'unstructured'
    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask
def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module
model = nn.Linear(3, 2)
foobar_unstructured(model, name='bias')
print(model.bias_mask, model.bias)
foobar_unstructured(model, name='weight')
print(model.weight_mask)
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
m = nn.Linear(4, 3)
prune.identity(m, 'weight')
print(m.weight_mask, prune.is_pruned(m), prune.is_pruned(nn.Linear(2, 2)))
prune.random_structured(m, 'weight', amount=1, dim=1)
print(m.weight_mask.sum(0))
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
m = nn.Linear(4, 3)
try:
    prune.l1_unstructured(m, 'weight', amount=1.5)
except ValueError as e:
    print(e)
try:
    prune.l1_unstructured(m, 'weight', amount=20)
except ValueError as e:
    print(e)
try:
    prune.l1_unstructured(m, 'weight', amount=-1)
except ValueError as e:
    print(e)
try:
    prune.remove(m, 'weight')
except ValueError as e:
    print(e)
try:
    prune.l1_unstructured(m, 'nope', amount=0.5)
except AttributeError as e:
    print(e)
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
m = nn.Linear(4, 3)
prune.l1_unstructured(m, 'weight', amount=0.5)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.randn(2, 4)).sum().backward()
print(m.weight_orig.grad * (1 - m.weight_mask))
opt.step()
print((m.weight == 0).sum().item(), m.weight.grad_fn.name() if m.weight.grad_fn else None)
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
m = nn.Linear(5, 2)
prune.l1_unstructured(m, 'weight', amount=0.2)
prune.l1_unstructured(m, 'weight', amount=0.2)
print(int((m.weight_mask == 0).sum()), m.weight.numel())
prune.l1_unstructured(m, 'weight', amount=2)
print(int((m.weight_mask == 0).sum()))
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
m = nn.Linear(3, 2)
prune.random_unstructured(m, 'weight', amount=0.5)
import io
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(sorted(sd))
m2 = nn.Linear(3, 2)
try:
    m2.load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0])
prune.identity(m2, 'weight')
m2.load_state_dict(sd)
print(torch.equal(m2.weight, m.weight))
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
m = nn.Linear(3, 4)
prune.ln_structured(m, 'weight', amount=0.5, n=float('inf'), dim=0)
print(m.weight_mask.sum(1))
prune.ln_structured(m, 'bias', amount=1, n=1, dim=-1)
print(m.bias_mask)
try:
    prune.ln_structured(nn.Linear(2, 2), 'weight', amount=0.5, n=2, dim=3)
except IndexError as e:
    print(e)
""",
    r"""
import importlib; prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
c = prune.PruningContainer()
print(type(c).__name__, len(c._pruning_methods))
u = prune.L1Unstructured(amount=0.5)
t = torch.tensor([0.1, -3., 0.2, 4.])
print(u.compute_mask(t, torch.ones(4)), u.prune(t))
r = prune.RandomStructured(amount=1, dim=0)
print(r.compute_mask(torch.ones(3, 2), torch.ones(3, 2)).sum(1))
""",
]

# Channels Last memory format: strides, contiguity checks, conversions and a model in NHWC.
CHANNELS_LAST = [
    'N, C, H, W = 10, 3, 32, 32\nx = torch.empty(N, C, H, W)\nprint(x.stride())\nx = x.to(memory_format=torch.channels_last)\nprint(x.shape, x.stride())\nx = x.to(memory_format=torch.contiguous_format)\nprint(x.stride())',
    'x = torch.empty(10, 3, 32, 32); x = x.contiguous(memory_format=torch.channels_last); print(x.stride(), x.is_contiguous(), x.is_contiguous(memory_format=torch.channels_last))',
    'x = torch.empty(10, 3, 32, 32); x = x.permute(0, 2, 3, 1); print(x.stride(), x.is_contiguous())',
    'x = torch.empty(10, 3, 32, 32); x = x.to(memory_format=torch.channels_last); print(x.is_contiguous(memory_format=torch.channels_last))',
    'x = torch.empty(10, 3, 32, 32, memory_format=torch.channels_last); print(x.stride())',
    'x = torch.empty(10, 3, 32, 32, memory_format=torch.channels_last); y = x.clone(); z = x.clone(memory_format=torch.contiguous_format); print(y.stride(), z.stride())',
    'x = torch.empty(10, 3, 32, 32, memory_format=torch.channels_last); print(x.to(memory_format=torch.preserve_format).stride(), x.float().stride(), (x + 1).stride(), torch.empty_like(x).stride())',
    'x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last); print(x.relu().stride(), x.abs().stride(), (x * 2).is_contiguous(memory_format=torch.channels_last))',
    'special_x = torch.empty(4, 1, 4, 4)\nprint(special_x.is_contiguous(memory_format=torch.channels_last), special_x.is_contiguous(memory_format=torch.contiguous_format))',
    'x = torch.empty(4, 3, 1, 1)\nprint(x.is_contiguous(memory_format=torch.channels_last), x.is_contiguous())\ny = torch.empty(4, 3, 4, 4).to(memory_format=torch.channels_last)\nprint(y.is_contiguous())',
    'x = torch.randn(2, 3, 4, 4); y = x.contiguous(memory_format=torch.channels_last); print(torch.equal(x, y), y.view(2, 3, 16).shape if y.is_contiguous() else y.reshape(2, 3, 16).stride())',
    'y = torch.randn(2, 3, 4, 4).contiguous(memory_format=torch.channels_last)\ntry:\n    y.view(2, 48)\nexcept RuntimeError as e:\n    print(e)',
    'model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())\nmodel = model.to(memory_format=torch.channels_last)\nprint(model[0].weight.stride(), model[1].weight.stride(), model[0].weight.is_contiguous(memory_format=torch.channels_last))\ninput = torch.randn(2, 3, 8, 8).to(memory_format=torch.channels_last)\nout = model(input)\nprint(out.shape, out.is_contiguous(memory_format=torch.channels_last))',
    'conv = nn.Conv2d(3, 4, 3)\nx = torch.randn(2, 3, 6, 6)\nref = conv(x)\nconv = conv.to(memory_format=torch.channels_last)\nout = conv(x.to(memory_format=torch.channels_last))\nprint(torch.allclose(ref, out, atol=1e-6), out.stride())',
    'x = torch.randn(2, 3, 4, 5, 6)\ntry:\n    x.to(memory_format=torch.channels_last)\nexcept RuntimeError as e:\n    print(e)\nprint(x.to(memory_format=torch.channels_last_3d).stride())',
    'x = torch.randn(3, 4, 5)\ntry:\n    x.contiguous(memory_format=torch.channels_last)\nexcept RuntimeError as e:\n    print(e)',
    'print(torch.channels_last, torch.contiguous_format, torch.preserve_format, torch.channels_last_3d, type(torch.channels_last).__name__)',
    'x = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)\nm = nn.MaxPool2d(2)\nprint(m(x).stride(), F.avg_pool2d(x, 2).stride(), F.interpolate(x, scale_factor=2).stride())',
    'x = torch.randn(1, 2, 3, 3).to(memory_format=torch.channels_last)\nprint(x.numpy().strides, x.contiguous().stride(), x.reshape(1, 2, 9).stride())',
    'x = torch.randn(2, 3, 4, 4, requires_grad=True)\ny = x.to(memory_format=torch.channels_last)\ny.sum().backward()\nprint(y.grad_fn.name(), x.grad.stride(), x.grad.shape)',
    'model = nn.Linear(3, 3)\nprint(model.to(memory_format=torch.channels_last).weight.stride())\nm2 = nn.Conv1d(2, 2, 3)\ntry:\n    m2.to(memory_format=torch.channels_last)\nexcept RuntimeError as e:\n    print(e)',
    'x = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)\nprint(torch.cat([x, x], 1).stride(), torch.stack([x, x]).shape, x.permute(0, 2, 3, 1).is_contiguous())',
    'import copy\nx = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)\nprint(copy.deepcopy(x).stride(), torch.zeros_like(x).stride(), torch.randn_like(x).stride(), torch.ones_like(x, memory_format=torch.contiguous_format).stride())',
    'x = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)\nbn = nn.BatchNorm2d(3)\nout = bn(x)\nprint(out.stride(), torch.allclose(out, bn(x.contiguous()), atol=1e-6))',
]

# Optimizer and learning-rate scheduler recipes: param groups, per-layer learning rates,
# add_param_group, state_dict round trips, schedulers chained and sequential.
OPTIM_RECIPES = [
    r"""
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
optimizer = torch.optim.SGD([{'params': model[0].parameters()}, {'params': model[2].parameters(), 'lr': 1e-3}], lr=1e-2, momentum=0.9)
print(optimizer)
print([g['lr'] for g in optimizer.param_groups], [len(g['params']) for g in optimizer.param_groups])
""",
    r"""
model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
opt = torch.optim.Adam(model[0].parameters(), lr=0.1)
opt.add_param_group({'params': model[1].parameters(), 'lr': 0.01, 'betas': (0.5, 0.9)})
print(len(opt.param_groups), opt.param_groups[1]['lr'], opt.param_groups[1]['betas'], opt.param_groups[1]['eps'])
try:
    opt.add_param_group({'params': model[1].parameters()})
except ValueError as e:
    print(e)
""",
    r"""
model = nn.Linear(3, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(2):
    opt.zero_grad(); model(torch.randn(4, 3)).pow(2).mean().backward(); opt.step()
sd = opt.state_dict()
print(sorted(sd), sd['param_groups'])
print(sorted(sd['state']), sorted(sd['state'][0]), sd['state'][0]['step'])
""",
    r"""
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(4, 3)
for _ in range(2):
    opt.zero_grad(); model(x).pow(2).mean().backward(); opt.step()
import copy
sd = copy.deepcopy(opt.state_dict())
model2 = copy.deepcopy(model)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]['lr'], opt2.param_groups[0]['momentum'])
for o, m in [(opt, model), (opt2, model2)]:
    o.zero_grad(); m(x).pow(2).mean().backward(); o.step()
print(torch.equal(model.weight, model2.weight))
""",
    r"""
opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)
bad = {'state': {}, 'param_groups': [{'lr': 0.1, 'params': [0]}]}
try:
    opt.load_state_dict(bad)
except ValueError as e:
    print(e)
opt2 = torch.optim.SGD([{'params': nn.Linear(2, 2).parameters()}, {'params': nn.Linear(2, 2).parameters()}], lr=0.1)
try:
    opt2.load_state_dict(opt.state_dict())
except ValueError as e:
    print(e)
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
for g in opt.param_groups:
    g['lr'] = 0.05
print(opt.param_groups[0]['lr'], opt.defaults['lr'])
sch = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
print(sch.base_lrs, opt.param_groups[0]['initial_lr'])
for _ in range(3):
    opt.step(); sch.step()
print([round(l, 6) for l in sch.get_last_lr()])
""",
    r"""
model = nn.Linear(2, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
scheduler1 = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
scheduler2 = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[3, 5], gamma=0.1)
lrs = []
for epoch in range(7):
    optimizer.step()
    scheduler1.step()
    scheduler2.step()
    lrs.append(round(optimizer.param_groups[0]['lr'], 8))
print(lrs)
""",
    r"""
model = nn.Linear(2, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
s1 = torch.optim.lr_scheduler.ConstantLR(optimizer, factor=0.1, total_iters=2)
s2 = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, schedulers=[s1, s2], milestones=[2])
lrs = []
for epoch in range(6):
    lrs.append(round(scheduler.get_last_lr()[0], 6))
    optimizer.step()
    scheduler.step()
print(lrs)
""",
    r"""
model = nn.Linear(2, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
s1 = torch.optim.lr_scheduler.ConstantLR(optimizer, factor=0.1, total_iters=2)
s2 = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
scheduler = torch.optim.lr_scheduler.ChainedScheduler([s1, s2])
lrs = []
for epoch in range(5):
    lrs.append(round(optimizer.param_groups[0]['lr'], 6))
    optimizer.step()
    scheduler.step()
print(lrs)
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
lambda1 = lambda epoch: 0.65 ** epoch
scheduler = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda1)
lrs = []
for _ in range(4):
    opt.step(); scheduler.step(); lrs.append(round(scheduler.get_last_lr()[0], 6))
print(lrs, sorted(scheduler.state_dict()))
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=4)
print([round(x, 6) for x in sch.get_last_lr()])
for _ in range(5):
    opt.step(); sch.step()
print([round(x, 6) for x in sch.get_last_lr()])
sd = sch.state_dict()
print(sorted(sd), sd['last_epoch'], sd['_step_count'])
""",
    r"""
import warnings
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    sch.step()
    opt.step()
print([str(x.message)[:60] for x in w])
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for _ in range(3):
    opt.step(); sch.step()
sd = sch.state_dict()
opt2 = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)
sch2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5)
sch2.load_state_dict(sd)
print(sch2.last_epoch, sch2.get_last_lr(), opt2.param_groups[0]['lr'])
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)
lrs = []
for epoch in range(10):
    opt.step(); sch.step(); lrs.append(round(sch.get_last_lr()[0], 6))
print(lrs)
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2)
lrs = []
for _ in range(6):
    opt.step(); sch.step(); lrs.append(round(sch.get_last_lr()[0], 6))
print(lrs, opt.param_groups[0]['momentum'])
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
lrs = []
for _ in range(5):
    opt.step(); sch.step(); lrs.append(round(sch.get_last_lr()[0], 6))
print(lrs)
sch = torch.optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=lambda e: 0.95)
opt.step(); sch.step()
print(round(sch.get_last_lr()[0], 8))
""",
    r"""
model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
base_params = [p for n, p in model.named_parameters() if not n.startswith('1.')]
opt = torch.optim.SGD([{'params': base_params}, {'params': model[1].parameters(), 'lr': 0.1}], lr=0.01)
sch = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.1)
opt.step(); sch.step()
print([round(l, 8) for l in sch.get_last_lr()], [g['initial_lr'] for g in opt.param_groups])
""",
    r"""
model = nn.Linear(3, 1)
no_decay = ['bias']
grouped = [{'params': [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], 'weight_decay': 0.01},
           {'params': [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], 'weight_decay': 0.0}]
opt = torch.optim.AdamW(grouped, lr=0.1)
print(opt)
model(torch.randn(2, 3)).sum().backward(); opt.step()
print(model.bias.shape, [g['weight_decay'] for g in opt.param_groups])
""",
    r"""
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=-1)
except ValueError as e:
    print(e)
try:
    torch.optim.Adam(nn.Linear(2, 2).parameters(), betas=(1.5, 0.9))
except ValueError as e:
    print(e)
p = nn.Parameter(torch.ones(1))
try:
    torch.optim.SGD([p, p], lr=0.1)
except Exception as e:
    print(type(e).__name__, e)
""",
    r"""
try:
    torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1)
except TypeError as e:
    print(e)
try:
    torch.optim.SGD([torch.ones(2)], lr=0.1).step()
    print('ok')
    torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1)
except ValueError as e:
    print(e)
""",
    r"""
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(1, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
print(model.weight.grad)
model(torch.ones(1, 2)).sum().backward()
opt.zero_grad()
print(model.weight.grad)
""",
    r"""
model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
hits = []
h1 = opt.register_step_pre_hook(lambda o, a, k: hits.append('pre'))
h2 = opt.register_step_post_hook(lambda o, a, k: hits.append('post'))
model(torch.ones(1, 2)).sum().backward()
opt.step()
h1.remove()
opt.step()
print(hits)
""",
    r"""
model = nn.Linear(2, 1)
x = torch.randn(5, 2); y = torch.randn(5, 1)
results = {}
for name, cls, kw in [('SGD', torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True)), ('Adam', torch.optim.Adam, dict(lr=0.1, amsgrad=True)), ('RMSprop', torch.optim.RMSprop, dict(lr=0.01, centered=True)), ('Adagrad', torch.optim.Adagrad, dict(lr=0.1)), ('Adadelta', torch.optim.Adadelta, dict()), ('NAdam', torch.optim.NAdam, dict(lr=0.1)), ('RAdam', torch.optim.RAdam, dict(lr=0.1)), ('Adamax', torch.optim.Adamax, dict(lr=0.1)), ('ASGD', torch.optim.ASGD, dict(lr=0.1)), ('Rprop', torch.optim.Rprop, dict(lr=0.1))]:
    torch.manual_seed(0)
    m = nn.Linear(2, 1)
    opt = cls(m.parameters(), **kw)
    for _ in range(3):
        opt.zero_grad(); loss = F.mse_loss(m(x), y); loss.backward(); opt.step()
    results[name] = round(F.mse_loss(m(x), y).item(), 5)
print(results)
""",
    r"""
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sch = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='max', factor=0.5, patience=0, threshold=0.1)
for acc in [0.5, 0.52, 0.7, 0.71]:
    sch.step(acc)
    print(acc, opt.param_groups[0]['lr'], sch.best, sch.num_bad_epochs)
print(sorted(sch.state_dict())[:5])
""",
]

# Saving and loading several models (and optimizers) in one file.
SAVE_MULTIPLE = [
    r"""
import io
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 2, 3)
        self.fc1 = nn.Linear(8, 3)
    def forward(self, x):
        return self.fc1(torch.flatten(F.relu(self.conv1(x)), 1))
netA = Net(); netB = Net()
optimizerA = torch.optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = torch.optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)
x = torch.rand(2, 3, 4, 4)
for net, opt in [(netA, optimizerA), (netB, optimizerB)]:
    opt.zero_grad(); net(x).sum().backward(); opt.step()
buf = io.BytesIO()
torch.save({'modelA_state_dict': netA.state_dict(), 'modelB_state_dict': netB.state_dict(), 'optimizerA_state_dict': optimizerA.state_dict(), 'optimizerB_state_dict': optimizerB.state_dict()}, buf)
buf.seek(0)
modelA = Net(); modelB = Net()
optimModelA = torch.optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimModelB = torch.optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(buf, weights_only=True)
print(sorted(checkpoint))
print(modelA.load_state_dict(checkpoint['modelA_state_dict']))
modelB.load_state_dict(checkpoint['modelB_state_dict'])
optimModelA.load_state_dict(checkpoint['optimizerA_state_dict'])
optimModelB.load_state_dict(checkpoint['optimizerB_state_dict'])
modelA.eval(); modelB.train()
print(torch.equal(modelA(x), netA(x)), torch.equal(modelB.fc1.bias, netB.fc1.bias))
print(sorted(optimModelA.state_dict()['state'][0]), torch.equal(optimModelA.state_dict()['state'][0]['momentum_buffer'], optimizerA.state_dict()['state'][0]['momentum_buffer']))
""",
    r"""
import io
nets = nn.ModuleDict({'a': nn.Linear(2, 2), 'b': nn.Linear(2, 3)})
buf = io.BytesIO()
torch.save({k: m.state_dict() for k, m in nets.items()}, buf)
buf.seek(0)
ck = torch.load(buf)
print({k: list(v) for k, v in ck.items()}, type(ck['a']).__name__)
print(nets['b'].load_state_dict(ck['b'], strict=True))
try:
    nets['a'].load_state_dict(ck['b'])
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print(str(e).splitlines()[1].strip()[:90])
""",
    r"""
import io
m = nn.Linear(2, 2)
buf = io.BytesIO()
torch.save({'model': m.state_dict(), 'epoch': 5, 'loss': torch.tensor(0.25), 'name': 'run1', 'hist': [1.0, 0.5]}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(ck['epoch'], ck['loss'], ck['name'], ck['hist'], type(ck['model']).__name__)
""",
    r"""
import io
class Custom:
    pass
buf = io.BytesIO()
torch.save({'obj': Custom()}, buf)
buf.seek(0)
try:
    torch.load(buf, weights_only=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:60])
buf.seek(0)
print(type(torch.load(buf, weights_only=False)['obj']).__name__)
""",
    r"""
import io
a = nn.Linear(2, 2); b = nn.Linear(2, 2)
b.weight = a.weight
buf = io.BytesIO()
torch.save({'a': a.state_dict(), 'b': b.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck['a']['weight'] is ck['b']['weight'], ck['a']['weight'].data_ptr() == ck['b']['weight'].data_ptr())
""",
    r"""
import io
m = nn.Linear(3, 2)
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, map_location=torch.device('cpu'))
print(sd['weight'].device, sd['weight'].requires_grad, type(sd).__name__)
buf.seek(0)
sd = torch.load(buf, map_location='cpu', mmap=False)
print(list(sd))
""",
    r"""
import io
m1 = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
m2 = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1), nn.Linear(1, 1))
r = m2.load_state_dict(m1.state_dict(), strict=False)
print(r.missing_keys, r.unexpected_keys)
try:
    m2.load_state_dict(m1.state_dict())
except RuntimeError as e:
    print(str(e).splitlines()[0])
""",
]

# TorchScript introduction as users write it: trace and script small modules. ember has no
# TorchScript: trace and script give back the module or function itself, which computes the
# same results (its repr, .graph and .code differ and are not compared here).
TORCHSCRIPT = [
    r"""
class MyCell(torch.nn.Module):
    def __init__(self):
        super(MyCell, self).__init__()
        self.linear = torch.nn.Linear(4, 4)
    def forward(self, x, h):
        new_h = torch.tanh(self.linear(x) + h)
        return new_h, new_h
my_cell = MyCell()
x, h = torch.rand(3, 4), torch.rand(3, 4)
traced_cell = torch.jit.trace(my_cell, (x, h))
out = traced_cell(x, h)
print(out[0].shape, torch.equal(out[0], my_cell(x, h)[0]))
print(traced_cell.linear.weight.shape)
""",
    r"""
m = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
t = torch.jit.trace(m, torch.randn(1, 3))
x = torch.randn(4, 3)
print(torch.equal(t(x), m(x)), t(x).shape, [n for n, _ in t.named_parameters()])
print(list(t.state_dict()))
""",
    r"""
m = nn.Linear(2, 2)
s = torch.jit.script(m)
s.eval()
print(s.training, s.weight.shape, isinstance(s, nn.Module))
opt = torch.optim.SGD(s.parameters(), lr=0.1)
s(torch.ones(1, 2)).sum().backward(); opt.step()
print(m.weight.grad is not None or s.weight.grad is not None)
""",
    r"""
print(torch.jit.is_scripting(), torch.jit.is_tracing())
x = torch.jit.annotate(list, [])
print(x, type(x).__name__)
def f(x):
    return torch.jit.is_scripting()
print(f(torch.ones(1)))
""",
    r"""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.jit.script(nn.Linear(2, 2))
print(sorted(set(x.category.__name__ for x in w)))
""",
    r"""
import io
m = nn.Linear(2, 2)
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
m2 = nn.Linear(2, 2)
m2.load_state_dict(torch.load(buf))
traced = torch.jit.trace(m2, torch.ones(1, 2))
print(torch.equal(traced(torch.ones(1, 2)), m(torch.ones(1, 2))))
""",
    r"""
def f(x):
    return x.sum()
try:
    torch.jit.trace(f, None)
except Exception as e:
    print(type(e).__name__, e)
""",
    r"""
class Loop(nn.Module):
    def forward(self, x):
        for i in range(x.size(0)):
            x = x * 2
        return x
t = torch.jit.trace(Loop(), torch.ones(2))
print(t(torch.ones(2)))
""",
    r"""
x = torch.ones(3)
fut = torch.jit.fork(torch.add, x, 1)
print(torch.jit.wait(fut))
print(torch.jit.Future if hasattr(torch.jit, 'Future') else None) if False else print(type(fut).__name__ in ('Future',))
""",
    r"""
m = nn.Sequential(nn.Conv2d(1, 2, 3), nn.Flatten(), nn.Linear(2 * 2 * 2, 1))
traced = torch.jit.trace(m, torch.rand(1, 1, 4, 4))
frozen = traced.eval()
print(frozen(torch.rand(3, 1, 4, 4)).shape, frozen.training)
""",
]

# torch.compile's introduction as users write it: a compiled function and module must give the
# same results as eager (backend="eager" keeps each snippet fast).
COMPILE = [
    r"""
def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b
opt_foo1 = torch.compile(foo, backend="eager")
x, y = torch.randn(10, 10), torch.randn(10, 10)
print(torch.allclose(opt_foo1(x, y), foo(x, y)))
""",
    r"""
@torch.compile(backend="eager")
def opt_foo2(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b
x = torch.tensor([0., 1.]); y = torch.tensor([0., 2.])
print(opt_foo2(x, y), opt_foo2.__name__)
""",
    r"""
class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(100, 10)
    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))
mod = MyModule()
opt_mod = torch.compile(mod, backend="eager")
t = torch.randn(10, 100)
print(torch.equal(opt_mod(t), mod(t)), type(opt_mod).__name__)
print(list(opt_mod.state_dict())[:2], opt_mod._orig_mod is mod, opt_mod.lin is mod.lin)
""",
    r"""
mod = nn.Linear(3, 2)
mod.compile(backend="eager")
print(type(mod).__name__, list(mod.state_dict()), mod(torch.ones(1, 3)).shape)
""",
    r"""
def f1(x):
    if x.sum() > 0:
        return x.cos()
    return x.sin()
cf = torch.compile(f1, backend="eager")
print(cf(torch.ones(2)), cf(-torch.ones(2)))
""",
    r"""
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
cm = torch.compile(model, backend="eager")
x = torch.randn(6, 4); y = torch.randint(0, 2, (6,))
for i in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(cm(x), y)
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.5f}")
print(list(cm.state_dict())[0], list(model.state_dict())[0])
""",
    r"""
try:
    torch.compile(5)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.compile(lambda x: x, mode="fastest")
except Exception as e:
    print(type(e).__name__, str(e)[:80])
""",
    r"""
torch._dynamo.reset() if hasattr(torch, '_dynamo') else None
def f(x):
    return x * 2
print(torch.compile(f, backend='eager', fullgraph=True, dynamic=False)(torch.arange(3)))
print(torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling())
""".replace("torch._dynamo.reset() if hasattr(torch, '_dynamo') else None\n", ""),
    r"""
@torch.compile(backend="eager")
def g(x, n: int):
    for _ in range(n):
        x = x + 1
    return x
print(g(torch.zeros(2), 3), g(torch.zeros(2, dtype=torch.int64), 1))
""",
    r"""
@torch.compiler.disable
def not_compiled(x):
    return x - 1
@torch.compile(backend="eager")
def h(x):
    return not_compiled(x) * 2
print(h(torch.ones(2)))
""",
    r"""
def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b
opt_foo1 = torch.compile(foo)
x, y = torch.randn(4, 4), torch.randn(4, 4)
print(torch.allclose(opt_foo1(x, y), foo(x, y), atol=1e-6))
""",
    r"""
mod = nn.Sequential(nn.Linear(3, 3), nn.GELU())
opt_mod = torch.compile(mod, mode="reduce-overhead", backend="eager")
x = torch.randn(2, 3)
print(torch.allclose(opt_mod(x), mod(x)), opt_mod.training, opt_mod.eval().training, mod.training)
""",
    r"""
x = torch.randn(3, requires_grad=True)
f = torch.compile(lambda t: (t ** 2).sum(), backend="eager")
y = f(x)
y.backward()
print(torch.allclose(x.grad, 2 * x), y.grad_fn is not None)
""",
]

# Details the tutorials above meet along the way: grid sampling arguments and errors, clamp and
# sign, attention modules, the KD losses, embeddings, recurrent layers and sampling.
TUTORIAL_DETAILS = [
    # STN / grid
    'print(F.affine_grid(torch.eye(2, 3).unsqueeze(0).double(), (1, 1, 2, 2), align_corners=True))',
    'try:\n    F.affine_grid(torch.eye(2, 3).unsqueeze(0), (2, 1, 2, 2), align_corners=False)\nexcept ValueError as e:\n    print(e)',
    'try:\n    F.affine_grid(torch.eye(2, 3).unsqueeze(0).int(), (1, 1, 2, 2), align_corners=False)\nexcept Exception as e:\n    print(type(e).__name__, e)',
    'try:\n    F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 3), align_corners=False)\nexcept RuntimeError as e:\n    print(e)',
    'try:\n    F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(2, 2, 2, 2), align_corners=False)\nexcept RuntimeError as e:\n    print(e)',
    'try:\n    F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), mode="cubic", align_corners=False)\nexcept ValueError as e:\n    print(e)',
    'try:\n    F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), padding_mode="wrap", align_corners=False)\nexcept ValueError as e:\n    print(e)',
    'g = torch.zeros(1, 2, 2, 2, requires_grad=True); out = F.grid_sample(torch.arange(4.).view(1, 1, 2, 2), g, align_corners=False); out.sum().backward(); print(out, g.grad)',
    'print(F.grid_sample(torch.arange(4.).view(1, 1, 2, 2), torch.tensor([[[[-1., -1.], [1., 1.]]]]), mode="bicubic", align_corners=True))',
    'x = torch.arange(4.).view(1, 1, 2, 2); print(F.grid_sample(x, torch.tensor([[[[1.5, 0.], [-3., 0.2]]]]), padding_mode="reflection", align_corners=False))',
    'x = torch.arange(4.).view(1, 1, 2, 2).half(); print(F.grid_sample(x.float(), torch.zeros(1, 1, 1, 2), align_corners=False).dtype)',
    'theta = torch.zeros(1, 2, 3, requires_grad=True); g = F.affine_grid(theta, (1, 1, 2, 2), align_corners=False); g.sum().backward(); print(theta.grad, g.grad_fn.name())',
    # FGSM
    'x = torch.tensor([0.5, 1.2, -0.3]); print(torch.clamp(x, 0, 1).grad_fn, x.clamp(min=torch.tensor([0., 1., 0.])), torch.clip(x, 0, 1))',
    'try:\n    torch.clamp(torch.ones(2))\nexcept RuntimeError as e:\n    print(e)',
    'x = torch.tensor([1, 5, -3]); print(torch.clamp(x, 0, 1.5), torch.clamp(x, 0, 1.5).dtype, x.clamp(0.5).dtype)',
    'x = torch.tensor([0.5, float("nan")]); print(x.sign(), x.clamp(0, 0.2), torch.sgn(torch.tensor([3+4j])))',
    'x = torch.ones(2, requires_grad=True); y = (x * 2).sum(); y.backward(); print(x.grad.data.sign(), x.data.requires_grad, x.grad.requires_grad)',
    'x = torch.tensor([0.5, 0.2], requires_grad=True); y = x.clamp(0.3, 1); y.sum().backward(); print(x.grad)',
    'x = torch.tensor([0.3, 1.0], requires_grad=True); y = x.clamp(0.3, 1); y.sum().backward(); print(x.grad)',
    # Transformer LM
    'print(nn.Transformer.generate_square_subsequent_mask(0), nn.Transformer.generate_square_subsequent_mask(1))',
    'print(nn.Transformer.generate_square_subsequent_mask(2, device="cpu", dtype=torch.float16))',
    'l = nn.TransformerEncoderLayer(4, 2, 8, 0.0); print(l.self_attn, l.linear1, l.dropout, l.activation)',
    'l = nn.TransformerDecoderLayer(4, 2, 8, 0.0); print(l)',
    'm = nn.MultiheadAttention(4, 2); print([n for n, _ in m.named_parameters()], m.out_proj)',
    'm = nn.MultiheadAttention(4, 2, kdim=3, vdim=5); print([(n, tuple(p.shape)) for n, p in m.named_parameters()])',
    'try:\n    nn.MultiheadAttention(5, 2)\nexcept AssertionError as e:\n    print(e)',
    'm = nn.MultiheadAttention(4, 2, batch_first=True); q = torch.randn(1, 3, 4); o, w = m(q, q, q, need_weights=False); print(o.shape, w)',
    'm = nn.MultiheadAttention(4, 2); q = torch.randn(3, 1, 4); o, w = m(q, q, q, average_attn_weights=False); print(o.shape, w.shape)',
    'm = nn.MultiheadAttention(4, 2); q = torch.randn(3, 1, 4)\ntry:\n    m(q, q, q, attn_mask=torch.zeros(2, 2))\nexcept RuntimeError as e:\n    print(e)',
    'm = nn.MultiheadAttention(4, 1); q = torch.randn(3, 4); o, w = m(q, q, q); print(o.shape, w.shape)',
    'enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, 0.0), 2, norm=nn.LayerNorm(4), enable_nested_tensor=False); print(enc.norm, enc(torch.randn(3, 2, 4)).shape)',
    'l = nn.TransformerEncoderLayer(4, 2, 8, 0.0, batch_first=True); x = torch.randn(2, 3, 4); m = torch.zeros(3, 3, dtype=torch.bool); print(torch.allclose(l(x, src_mask=m), l(x), atol=1e-6))',
    'l = nn.TransformerEncoderLayer(4, 2, 8, 0.0)\ntry:\n    l(torch.randn(3, 2, 5))\nexcept (RuntimeError, AssertionError) as e:\n    print(type(e).__name__, e)',
    'print(F.scaled_dot_product_attention(torch.ones(1, 2, 4), torch.ones(1, 2, 4), torch.arange(8.).view(1, 2, 4), is_causal=True))',
    'import math\nd_model = 6\ndiv_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model)); print(div_term, torch.arange(0, d_model, 2).dtype)',
    'pe = torch.zeros(3, 1, 4); pe[:, 0, 0::2] = torch.ones(3, 2); pe[:, 0, 1::2] = 2 * torch.ones(3, 2); print(pe.squeeze(1))',
    'try:\n    pe = torch.zeros(3, 1, 4); pe[:, 0, 0::2] = torch.ones(3, 3)\nexcept RuntimeError as e:\n    print(e)',
    'src = torch.randint(0, 5, (3, 2)); e = nn.Embedding(5, 4); print(e(src).shape, e(src).dtype, e(src.int()).shape)',
    'x = torch.arange(10); print(x[:10 // 3 * 3].view(3, -1).t().contiguous(), x.narrow(0, 2, 3))',
    # KD
    'print(F.softmax(torch.tensor([[1., 2., 3.]]) / 2.0, dim=-1), F.log_softmax(torch.tensor([[1., 2., 3.]]), -1).exp().sum())',
    'print(nn.KLDivLoss(reduction="batchmean")(torch.zeros(2, 2), torch.full((2, 2), 0.5)))',
    'print(F.kl_div(torch.tensor([-1.0]), torch.tensor([0.0])), F.kl_div(torch.tensor([-1.0]), torch.tensor([-2.0]), log_target=True))',
    'print(F.cosine_similarity(torch.zeros(1, 3), torch.ones(1, 3)), F.cosine_similarity(torch.ones(3), torch.ones(3), dim=0))',
    'try:\n    nn.CosineEmbeddingLoss()(torch.randn(2, 3), torch.randn(2, 3), torch.ones(3))\nexcept RuntimeError as e:\n    print(e)',
    'print(nn.MSELoss()(torch.ones(2, 3), torch.zeros(2, 3)), nn.MSELoss(reduction="sum")(torch.ones(2), torch.zeros(2)))',
    'import warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    nn.MSELoss()(torch.ones(2, 1), torch.zeros(2))\nprint([str(x.message) for x in w])',
    'print(F.avg_pool1d(torch.arange(6.).view(1, 1, 6), 3, stride=2, padding=1), F.avg_pool1d(torch.arange(6.).view(1, 1, 6), 3, ceil_mode=True, count_include_pad=False))',
    # word embeddings
    'e = nn.Embedding(3, 2, max_norm=1.0); w0 = e.weight.detach().clone(); e(torch.tensor([0])); print(e.weight.norm(dim=1).round(decimals=4), torch.equal(e.weight[1], w0[1]))',
    'e = nn.Embedding(4, 2, scale_grad_by_freq=True); e(torch.tensor([1, 1, 2])).sum().backward(); print(e.weight.grad)',
    'try:\n    nn.Embedding(4, 2, padding_idx=5)\nexcept AssertionError as e:\n    print(e)',
    'print(nn.Embedding(4, 2, padding_idx=-1).padding_idx, nn.Embedding(4, 2, max_norm=2, sparse=True))',
    'try:\n    nn.Embedding.from_pretrained(torch.ones(3))\nexcept AssertionError as e:\n    print(e)',
    'print(F.embedding(torch.tensor([1, 0]), torch.arange(6.).view(3, 2)), F.one_hot(torch.tensor([1, 0]), 3))',
    'print(F.one_hot(torch.tensor([[0, 2]])), F.one_hot(torch.tensor([1]), num_classes=-1).dtype)\ntry:\n    F.one_hot(torch.tensor([3]), 2)\nexcept RuntimeError as e:\n    print(e)',
    'e = nn.EmbeddingBag(5, 2, mode="mean"); print(e(torch.tensor([[0, 1], [2, 3]])).shape, e(torch.tensor([0, 1, 2]), torch.tensor([0, 2]), per_sample_weights=None).shape)',
    # LSTM tagger
    'lstm = nn.LSTM(3, 2, proj_size=1); print(lstm, [tuple(p.shape) for p in lstm.parameters()])',
    'lstm = nn.LSTM(3, 2, dropout=0.5, num_layers=1)',
    'import warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    nn.LSTM(3, 2, dropout=0.5, num_layers=1)\nprint([str(x.message) for x in w])',
    'rnn = nn.RNN(2, 3, nonlinearity="relu"); print(rnn, rnn(torch.randn(4, 1, 2))[1].shape)',
    'try:\n    nn.RNN(2, 3, nonlinearity="gelu")\nexcept ValueError as e:\n    print(e)',
    'cell = nn.LSTMCell(3, 2); h, c = cell(torch.randn(4, 3)); print(h.shape, c.shape, cell)',
    'cell = nn.LSTMCell(3, 2)\ntry:\n    cell(torch.randn(4, 3), (torch.zeros(3, 2), torch.zeros(4, 2)))\nexcept RuntimeError as e:\n    print(e)',
    'lstm = nn.LSTM(3, 2); print(lstm.all_weights[0][0].shape, lstm._flat_weights_names)',
    'lstm = nn.LSTM(2, 2)\nseqs = [torch.randn(3, 2), torch.randn(1, 2)]\npacked = nn.utils.rnn.pack_sequence(seqs)\nout, (h, c) = lstm(packed)\nprint(type(out).__name__, out.batch_sizes, h.shape)\nunpacked, lens = nn.utils.rnn.pad_packed_sequence(out)\nprint(unpacked.shape, lens)',
    'lstm = nn.LSTM(2, 3, batch_first=True)\ntry:\n    lstm(torch.randn(2, 3, 2), torch.zeros(1, 2, 3))\nexcept (RuntimeError, ValueError, TypeError) as e:\n    print(type(e).__name__, e)',
    # BiLSTM-CRF bits
    'v = torch.tensor([[-10000., -10000., 0.]]); print(torch.logsumexp(v, 1), v.max(1))',
    't = torch.randn(3, 3); tags = torch.tensor([0, 2, 1]); print(t[tags[1], tags[0]], t[tags[1:], tags[:-1]])',
    'x = torch.zeros(1); x = x + torch.tensor(2.5); print(x, x.shape, torch.cat([torch.tensor([3]), torch.tensor([1, 2])]))',
    'v = torch.tensor([[1., 3., 3.]]); print(torch.max(v, 1)[1].item(), v.argmax(), v[0, v.argmax()])',
    'l = [torch.tensor([1.]).view(1), torch.tensor(2.).view(1)]; print(torch.cat(l).view(1, -1), torch.stack(l).shape)',
    'p = nn.Parameter(torch.zeros(3, 3)); p.data[1, :] = -10000; p.data[:, 2] = -10000; print(p)',
    # NLP generation
    'import string\nall_letters = string.ascii_letters + " .,;\'"\nprint(len(all_letters), all_letters.find("z"), all_letters.find("\\u00e9"))',
    't = torch.zeros(2, 1, 5); t[1][0][3] = 1; print(t.nonzero(), t.argmax(2).squeeze())',
    'try:\n    torch.multinomial(torch.tensor([0.2, 0.8]), 1, replacement=True, generator=5)\nexcept TypeError as e:\n    print(e)',
    'torch.manual_seed(2); p = torch.softmax(torch.randn(5), 0); print(torch.multinomial(p, 3), torch.multinomial(p, 10, replacement=True))',
    'torch.manual_seed(2); print(torch.multinomial(torch.tensor([[0.1, 0.9], [0.9, 0.1]]), 4, replacement=True))',
    'torch.manual_seed(2); print(torch.distributions.Categorical(probs=torch.tensor([0.3, 0.7])).sample((5,)), torch.bernoulli(torch.full((4,), 0.5)))',
    'hidden = torch.zeros(1, 4); print(torch.cat((torch.zeros(1, 2), torch.ones(1, 3), hidden), 1).shape)\ntry:\n    torch.cat((torch.zeros(1, 2), torch.ones(2, 3)), 1)\nexcept RuntimeError as e:\n    print(e)',
    # translation
    'print(torch.LongTensor(np.zeros((2, 3), dtype=np.int32)).dtype, torch.LongTensor([[1, 2]]).shape)',
    'print(torch.tensor(np.zeros((2, 3), dtype=np.int32)).dtype, torch.from_numpy(np.zeros(2, dtype=np.int32)).long().dtype)',
    'ds = torch.utils.data.TensorDataset(torch.arange(4), torch.arange(4) * 2); s = torch.utils.data.RandomSampler(ds, generator=torch.Generator().manual_seed(0)); print(list(s), len(s))',
    'ds = torch.utils.data.TensorDataset(torch.arange(4))\ntry:\n    torch.utils.data.TensorDataset(torch.arange(4), torch.arange(3))\nexcept AssertionError as e:\n    print(e)',
    'gru = nn.GRU(4, 4, batch_first=True); x = torch.randn(2, 3, 4); out, h = gru(x); print(out.shape, h.shape, torch.allclose(out[:, -1], h[0]))',
    'd = torch.randn(2, 1, 5); topv, topi = d.topk(1); print(topi.shape, topi.squeeze(-1).shape, topi.squeeze(-1).detach().requires_grad)',
    'x = torch.randn(2, 3, 4); print(x.view(-1, x.size(-1)).shape)\ntry:\n    x.transpose(0, 1).view(-1, 4)\nexcept RuntimeError as e:\n    print(e)',
]

# Recipe details: benchmark timers, optimizer state_dict hooks, SWA and EMA averaging, scheduler
# arguments and errors, optimizer reprs and param groups.
RECIPE_DETAILS = [
    'import importlib\nTimer = importlib.import_module(torch.__name__ + ".utils.benchmark").Timer\nt = Timer(stmt="x * 2", globals={"x": torch.ones(3)})\nm = t.timeit(5)\nprint(type(m).__name__, len(m.times) > 0, m.number_per_run if hasattr(m, "number_per_run") else None)',
    'import importlib\nTimer = importlib.import_module(torch.__name__ + ".utils.benchmark").Timer\nt = Timer(stmt="f(x)", setup="y = 1", globals={"f": torch.sin, "x": torch.ones(3)}, label="sin", description="d")\nm = t.timeit(3)\nprint(m.stmt, m.label, m.description, type(m.mean).__name__, type(m.median).__name__)',
    'print(type(torch._dynamo).__name__)\ntorch._dynamo.reset()\nprint("reset ok")',
    'torch.compiler.reset(); print("ok")',
    'f = torch.compile(lambda x: x + 1, backend="eager"); print(f(torch.ones(1)))\nprint(torch._dynamo.config.cache_size_limit > 0 if hasattr(torch._dynamo, "config") else None)',
    'print(torch.compiler.list_backends()[:3] if hasattr(torch.compiler, "list_backends") else None)',
    'm = nn.Linear(2, 2)\nt = torch.jit.trace_module(m, {"forward": torch.ones(1, 2)})\nprint(torch.equal(t(torch.ones(1, 2)), m(torch.ones(1, 2))))',
    # optimizer state_dict hooks recipe
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ndef post(optimizer, sd):\n    sd["extra"] = 1\n    return sd\nopt.register_state_dict_post_hook(post)\nprint(sorted(opt.state_dict()))',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ndef pre(optimizer, sd):\n    sd = dict(sd); sd["param_groups"][0]["lr"] = 0.5\n    return sd\nopt.register_load_state_dict_pre_hook(pre)\nopt.load_state_dict(opt.state_dict())\nprint(opt.param_groups[0]["lr"])',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\nseen = []\nopt.register_load_state_dict_post_hook(lambda o: seen.append(type(o).__name__))\nopt.register_state_dict_pre_hook(lambda o: seen.append("pre"))\nopt.load_state_dict(opt.state_dict())\nprint(seen)',
    # swa utils
    'model = nn.Linear(2, 1)\nswa = torch.optim.swa_utils.AveragedModel(model)\nprint(swa, swa.n_averaged)\nfor _ in range(3):\n    with torch.no_grad():\n        model.weight.add_(1)\n    swa.update_parameters(model)\nprint(swa.module.weight, swa.n_averaged)',
    'model = nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.5)\nsch = torch.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3)\nlrs = []\nfor _ in range(5):\n    opt.step(); sch.step(); lrs.append(round(opt.param_groups[0]["lr"], 6))\nprint(lrs)',
    'model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))\nswa = torch.optim.swa_utils.AveragedModel(model)\nloader = torch.utils.data.DataLoader(torch.randn(8, 2), batch_size=4)\ntorch.optim.swa_utils.update_bn(loader, swa)\nprint(swa.module[1].running_mean.shape, swa.module[1].num_batches_tracked)',
    'ema = torch.optim.swa_utils.AveragedModel(nn.Linear(2, 1), multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9))\nprint(type(ema).__name__, ema.n_averaged)',
    # scheduler details
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\nsch = torch.optim.lr_scheduler.StepLR(opt, step_size=1)\nprint(type(sch).__mro__[1].__name__, sch.get_last_lr(), sch.last_epoch, sch._step_count)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ntry:\n    torch.optim.lr_scheduler.StepLR(opt, step_size=1, last_epoch=3)\nexcept KeyError as e:\n    print(e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ntry:\n    torch.optim.lr_scheduler.StepLR(opt, 1, verbose=True)\n    print("ok")\nexcept TypeError as e:\n    print(e)',
    'try:\n    torch.optim.lr_scheduler.StepLR(nn.Linear(2, 2), 1)\nexcept TypeError as e:\n    print(e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 2, 4], gamma=0.5)\nl = []\nfor _ in range(5):\n    opt.step(); s.step(); l.append(round(s.get_last_lr()[0], 6))\nprint(l, s.milestones)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1, momentum=0.9)\ns = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, steps_per_epoch=2, epochs=2, anneal_strategy="linear")\nl = []\nfor _ in range(4):\n    opt.step(); s.step(); l.append((round(s.get_last_lr()[0], 5), round(opt.param_groups[0]["momentum"], 5)))\nprint(l)',
    'opt = torch.optim.Adam(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=3)\nprint(opt.param_groups[0]["betas"], round(opt.param_groups[0]["lr"], 6))',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=2)\ntry:\n    for _ in range(4):\n        opt.step(); s.step()\nexcept ValueError as e:\n    print(e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ntry:\n    torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, mode="weird")\nexcept ValueError as e:\n    print(e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)\nprint(s.mode, s.factor, s.patience, s.threshold, s.threshold_mode, s.cooldown, s.min_lrs, s.eps)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ntry:\n    torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)\nexcept ValueError as e:\n    print(e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns1 = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=1)\ntry:\n    torch.optim.lr_scheduler.SequentialLR(opt, [s1], milestones=[1])\nexcept ValueError as e:\n    print(e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.ConstantLR(opt)\nprint(s.factor, s.total_iters, s.get_last_lr())\ntry:\n    torch.optim.lr_scheduler.ConstantLR(opt, factor=2)\nexcept ValueError as e:\n    print(e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.5])\nprint(s.get_last_lr())\ntry:\n    torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1, lambda e: 2])\nexcept ValueError as e:\n    print(e)',
    'opt = torch.optim.SGD([{"params": [nn.Parameter(torch.ones(1))]}, {"params": [nn.Parameter(torch.ones(1))], "lr": 1.0}], lr=0.1)\ns = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.5 ** e, lambda e: 1.0 / (e + 1)])\nfor _ in range(2):\n    opt.step(); s.step()\nprint(s.get_last_lr(), s.state_dict()["lr_lambdas"])',
    # optimizer printing / param groups
    'opt = torch.optim.Adam([{"params": [nn.Parameter(torch.ones(1))]}, {"params": [nn.Parameter(torch.ones(2))], "lr": 0.5, "weight_decay": 0.1}], lr=0.01)\nprint(opt)',
    'opt = torch.optim.AdamW(nn.Linear(2, 2).parameters())\nprint(opt.defaults)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\nprint(opt.state, type(opt.state).__name__, len(opt.param_groups[0]["params"]))',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([p], lr=torch.tensor(0.1))\nprint(opt.param_groups[0]["lr"])\np.grad = torch.ones(2); opt.step(); print(p)',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.Adam([p], lr=0.1, foreach=False, maximize=True)\np.grad = torch.ones(2); opt.step(); print(p, opt.state[p]["step"])',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([p], lr=0.1)\ntry:\n    opt.add_param_group({"params": [p]})\nexcept ValueError as e:\n    print(e)\ntry:\n    opt.add_param_group([p])\nexcept TypeError as e:\n    print(e)',
    'p = nn.Parameter(torch.ones(2)); q = nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([{"params": p}, {"params": q, "lr": 0.5}], lr=0.1)\nprint([len(g["params"]) for g in opt.param_groups], opt.state_dict()["param_groups"])',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([p], lr=0.1, momentum=0.9)\np.grad = torch.ones(2)\nopt.step(); opt.step()\nsd = opt.state_dict()\nprint(sd["state"][0]["momentum_buffer"], sd["param_groups"][0]["params"])',
    'named = list(nn.Linear(2, 1).named_parameters())\nopt = torch.optim.SGD(named, lr=0.1)\nprint(opt.param_groups[0].get("param_names"), opt.state_dict()["param_groups"][0].get("param_names"))',
    'p = nn.Parameter(torch.ones(1))\nopt = torch.optim.LBFGS([p], lr=1)\ndef closure():\n    opt.zero_grad(); l = ((p - 3) ** 2).sum(); l.backward(); return l\nfor _ in range(2):\n    print(opt.step(closure))\nprint(p)',
]

# (TorchScript compiles from source: a snippet's module is compiled under a file name that
# linecache knows, in a namespace with a module name, so that torch finds the source.)
JIT_LOAD = r'''
import linecache, hashlib
def load(src):
    name = 'tut_' + hashlib.md5(src.encode()).hexdigest()[:10]
    fn = '<' + name + '>'
    linecache.cache[fn] = (len(src), None, src.splitlines(True), fn)
    g = {'torch': torch, 'nn': torch.nn, 'F': torch.nn.functional, '__name__': name}
    exec(compile(src, fn, 'exec'), g)
    return g
'''
TORCHSCRIPT_SRC = [
    r"""
g = load('''
class MyDecisionGate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        else:
            return -x
class MyCell(torch.nn.Module):
    def __init__(self, dg):
        super(MyCell, self).__init__()
        self.dg = dg
        self.linear = torch.nn.Linear(4, 4)
    def forward(self, x, h):
        new_h = torch.tanh(self.dg(self.linear(x)) + h)
        return new_h, new_h
''')
scripted_gate = torch.jit.script(g['MyDecisionGate']())
my_cell = g['MyCell'](scripted_gate)
scripted_cell = torch.jit.script(my_cell)
x, h = torch.rand(3, 4), torch.rand(3, 4)
print(torch.equal(scripted_cell(x, h)[0], my_cell(x, h)[0]), scripted_gate(-torch.ones(2)), scripted_gate(torch.ones(2)))
print(scripted_cell(x, h)[0].detach())
""",
    r"""
g = load('''
@torch.jit.script
def foo(x, y):
    if x.max() > y.max():
        r = x
    else:
        r = y
    return r
''')
foo = g['foo']
print(foo(torch.ones(2), torch.zeros(2)), foo(torch.zeros(2), torch.full((2,), 3.)))
""",
    r"""
g = load('''
def bar(x):
    return x * 2 + 1
''')
traced_bar = torch.jit.trace(g['bar'], torch.rand(3))
print(traced_bar(torch.tensor([1., 2.])))
print(torch.jit.trace(g['bar'], (torch.rand(3),))(torch.ones(1)))
""",
    r"""
g = load('''
class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)
    @torch.jit.export
    def helper(self, x):
        return x + 1
    @torch.jit.ignore
    def python_only(self, x):
        return x.numpy().sum()
    def forward(self, x):
        return self.helper(self.l(x))
''')
m = torch.jit.script(g['MyModule']())
print(m(torch.zeros(1, 2)).shape, m.helper(torch.zeros(1)), m.python_only(torch.ones(2)))
""",
    r"""
g = load('''
class MyRNNLoop(torch.nn.Module):
    def __init__(self):
        super(MyRNNLoop, self).__init__()
        self.cell = torch.nn.Linear(4, 4)
    def forward(self, xs):
        h, y = torch.zeros(3, 4), torch.zeros(3, 4)
        for i in range(xs.size(0)):
            y = torch.tanh(self.cell(xs[i]) + h)
            h = y
        return y, h
class WrapRNN(torch.nn.Module):
    def __init__(self):
        super(WrapRNN, self).__init__()
        self.loop = torch.jit.script(MyRNNLoop())
    def forward(self, xs):
        y, h = self.loop(xs)
        return torch.relu(y)
''')
xs = torch.rand(5, 3, 4)
m = g['WrapRNN']()
traced = torch.jit.trace(m, (xs,))
print(torch.equal(traced(xs), m(xs)), traced(xs).shape, traced(torch.rand(2, 3, 4)).shape)
""",
    r"""
g = load('''
def f(x: torch.Tensor, n: int) -> torch.Tensor:
    for _ in range(n):
        x = x * 2
    return x
''')
s = torch.jit.script(g['f'])
print(s(torch.ones(2), 3), s(torch.ones(1), 0))
""",
    r"""
g = load('''
from typing import List
def total(xs: List[torch.Tensor]) -> torch.Tensor:
    out = torch.zeros(1)
    for x in xs:
        out = out + x.sum()
    return out
''')
s = torch.jit.script(g['total'])
print(s([torch.ones(2), torch.ones(3)]))
""",
    r"""
g = load('''
class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
''')
x = torch.ones(2)
import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    traced = torch.jit.trace(g['Gate'](), (x,))
print(traced(x))
""",
]

# torch.jit.trace's recorded branch, the printed traced module, its .code and a scripted
# module's jit.save/load round trip (ember's own archive).
TORCHSCRIPT_TRACED = [
    r"""
g = load('''
class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
''')
import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    traced = torch.jit.trace(g['Gate'](), (torch.ones(2),))
print(traced(-torch.ones(2)))
""",
    r"""
g = load('''
class MyCell(torch.nn.Module):
    def __init__(self):
        super(MyCell, self).__init__()
        self.linear = torch.nn.Linear(4, 4)
    def forward(self, x, h):
        new_h = torch.tanh(self.linear(x) + h)
        return new_h, new_h
''')
traced_cell = torch.jit.trace(g['MyCell'](), (torch.rand(3, 4), torch.rand(3, 4)))
print(traced_cell)
""",
    r"""
g = load('''
class MyCell(torch.nn.Module):
    def __init__(self):
        super(MyCell, self).__init__()
        self.linear = torch.nn.Linear(4, 4)
    def forward(self, x, h):
        new_h = torch.tanh(self.linear(x) + h)
        return new_h, new_h
''')
traced_cell = torch.jit.trace(g['MyCell'](), (torch.rand(3, 4), torch.rand(3, 4)))
print(type(traced_cell.code).__name__, 'tanh' in traced_cell.code)
""",
    r"""
import io
m = torch.jit.script(nn.Linear(2, 2))
buf = io.BytesIO()
torch.jit.save(m, buf)
buf.seek(0)
m2 = torch.jit.load(buf)
print(torch.equal(m2(torch.ones(1, 2)), m(torch.ones(1, 2))))
""",
]

# TorchScript results that ember cannot reproduce.
TORCHSCRIPT_GAPS = [
    ("torch.jit.script refuses code TorchScript cannot type (here a numpy call); ember "
     "returns the function, which runs",
     r"""
g = load('''
def f(x):
    return torch.tensor(x.numpy().sum())
''')
try:
    torch.jit.script(g['f'])
    print('scripted')
except Exception as e:
    print(type(e).__name__)
"""),
]

# TorchScript's other entry points (trace_module, freeze, optimize_for_inference, the
# ScriptModule and ScriptFunction types) and the tracer's warnings.
JIT_MORE = [
    'import warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    m = nn.Linear(2, 2)\n    t = torch.jit.trace_module(m, {"forward": torch.ones(1, 2)})\nprint(torch.equal(t(torch.ones(1, 2)), m(torch.ones(1, 2))), [str(x.message) for x in w])',
    'import warnings\nwarnings.simplefilter("ignore")\nm = nn.Linear(2, 2)\ntry:\n    torch.jit.trace_module(m, torch.ones(1, 2))\nexcept AttributeError as e:\n    print(e)\ntry:\n    torch.jit.trace_module(lambda x: x, {"forward": torch.ones(1, 2)})\nexcept AttributeError as e:\n    print(e)\ntry:\n    torch.jit.trace_module(m, {"nope": torch.ones(1, 2)})\nexcept AttributeError as e:\n    print(e)',
    'print(issubclass(torch.jit.ScriptModule, nn.Module), torch.jit.ScriptModule.__name__, torch.jit.ScriptFunction.__name__)\nprint(isinstance(torch.jit.script(nn.Linear(2, 2)), torch.jit.ScriptModule), isinstance(nn.Linear(2, 2), torch.jit.ScriptModule))\nprint(isinstance(torch.jit.trace(nn.Linear(2, 2), torch.ones(1, 2)), torch.jit.ScriptModule), isinstance(torch.ones(1), torch.jit.ScriptFunction))',
    'print(torch.jit.TracerWarning.__name__, issubclass(torch.jit.TracerWarning, Warning), torch.jit.TracerWarning.__mro__[1].__name__)',
    'm = nn.Linear(2, 2)\nfrozen = torch.jit.freeze(torch.jit.script(m).eval())\nprint(torch.equal(frozen(torch.ones(1, 2)), m(torch.ones(1, 2))))',
    'm = nn.Linear(2, 2)\ntry:\n    torch.jit.freeze(m)\nexcept RuntimeError as e:\n    print(e)\ntry:\n    torch.jit.freeze(torch.jit.script(nn.Linear(2, 2)))\nexcept RuntimeError as e:\n    print(e)',
    'm = torch.jit.optimize_for_inference(torch.jit.script(nn.Linear(2, 2)))\nprint(m(torch.ones(1, 2)).shape)\ntry:\n    torch.jit.optimize_for_inference(nn.Linear(2, 2))\nexcept RuntimeError as e:\n    print(e)',
    'm = torch.jit.script(nn.Linear(2, 2))\nprint(hasattr(m, "code"), hasattr(m, "graph"), hasattr(m, "save"))'.replace('print(hasattr(m, "code"), hasattr(m, "graph"), hasattr(m, "save"))', 'print(hasattr(m, "weight"), hasattr(m, "forward"), hasattr(m, "bogus"))'),
    'class Gate(nn.Module):\n    def forward(self, x):\n        if x.sum() > 0:\n            return x\n        return -x\nimport warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    torch.jit.trace(Gate(), torch.ones(2))\nprint(sorted(set((x.category.__name__, str(x.message)) for x in w)))',
    'class Scale(nn.Module):\n    def forward(self, x):\n        return x * x.sum().item() * int(x.max()) * float(x.min()) + len(x.tolist()) + x.numpy().sum()\nimport warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    t = torch.jit.trace(Scale(), torch.ones(2))\nprint(sorted(set(str(x.message)[:45] for x in w if x.category is torch.jit.TracerWarning)))\nprint(t(torch.ones(2)))',
    'import warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    m = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5), nn.LayerNorm(3), nn.MultiheadAttention(3, 1) if False else nn.ReLU())\n    torch.jit.trace(m.eval(), torch.ones(2, 3))\nprint([x.category.__name__ for x in w])',
    'class Gate(nn.Module):\n    def forward(self, x):\n        return x if x.sum() > 0 else -x\nx = torch.ones(2)\nprint(bool(x.sum() > 0), x.sum().item(), int(x.sum()))\nimport warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter("ignore")\n    torch.jit.trace(Gate(), x)\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    print(bool(x.sum() > 0), x.tolist(), float(x[0]))\nprint(len(w))',
    r"""
from typing import List, Dict, Tuple, Optional, Union
import warnings
J = torch.jit
a = J.Attribute(3, int); print(repr(a), a.value, a.type, isinstance(a, tuple))
for t in [list, dict, tuple, List, Dict, Tuple, Optional]:
    try: print(J.isinstance([], t))
    except Exception as e: print(type(e).__name__, e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(J.isinstance([], List[int]), J.isinstance((1, 2, 3), Tuple[int, ...]), J.isinstance({}, Dict[str, int]))
    print(J.isinstance((1, 2), Tuple[int]), J.isinstance(1, Union[int, str]), J.isinstance('a', Optional[int]), J.isinstance([[1]], List[List[int]]), J.isinstance(True, int), J.isinstance(1, float))
    print(J.isinstance([1], list[int]), J.isinstance({'a': 1}, dict[str, int]), J.isinstance(None, type(None)), J.isinstance(None, Optional[int]))
    print(J.isinstance(torch.ones(1), torch.Tensor), J.isinstance([torch.ones(1)], List[torch.Tensor]), J.isinstance({'a': [1]}, Dict[str, List[int]]))
    print(J.onednn_fusion_enabled()); J.enable_onednn_fusion(True); print(J.onednn_fusion_enabled()); J.enable_onednn_fusion(False)
    print(J.set_fusion_strategy([('STATIC', 3)])); print(J.set_fusion_strategy([('STATIC', 2), ('DYNAMIC', 10)]))
    try: J.set_fusion_strategy([('BAD', 1)])
    except ValueError as e: print(e)
    with J.strict_fusion(): print('in strict')
    with J.optimized_execution(False): print('opt exec')
    f = J.script_if_tracing(lambda x: x + 1); print(f(1), type(f).__name__)
print(sorted(set((x.category.__name__, str(x.message)[:60]) for x in w)))
print(issubclass(J.Error, Exception), issubclass(J.Error, RuntimeError))
""",
]
# torch._dynamo as the compile tutorial and its users call it; compile's check of the backend.
DYNAMO = [
    'torch._dynamo.reset(); print("reset ok", torch._dynamo.is_compiling(), torch._dynamo.list_backends())',
    'print(torch._dynamo.config.cache_size_limit, torch._dynamo.config.recompile_limit, torch._dynamo.config.suppress_errors, torch._dynamo.config.verbose)\ntorch._dynamo.config.cache_size_limit = 3\nprint(torch._dynamo.config.recompile_limit, torch.compiler.config.recompile_limit)\ntorch._dynamo.config.cache_size_limit = 8\nprint(torch.compiler.config.recompile_limit)',
    'try:\n    torch._dynamo.config.bogus = 1\nexcept AttributeError as e:\n    print(e)\ntry:\n    torch._dynamo.config.bogus\nexcept AttributeError as e:\n    print(e)',
    'torch._dynamo.config.suppress_errors = True\nprint(torch._dynamo.config.suppress_errors)\ntorch._dynamo.config.suppress_errors = False\nprint(torch._dynamo.config.specialize_int, torch._dynamo.config.optimize_ddp, torch._dynamo.config.guard_nn_modules)',
    't = torch.ones(4, 3)\ntorch._dynamo.mark_dynamic(t, 0)\ntorch._dynamo.mark_dynamic(t, [1])\nprint(t._dynamo_dynamic_indices)\ntry:\n    torch._dynamo.mark_dynamic(5, 0)\nexcept AttributeError as e:\n    print(e)\nf = torch.compile(lambda x: x.sum(0), backend="eager")\nprint(f(t))',
    'x = torch.ones(2)\ntorch._dynamo.mark_static(x, 0)\ntorch._dynamo.maybe_mark_dynamic(x, 0)\nprint(x._dynamo_static_indices, x._dynamo_weak_dynamic_indices)',
    '@torch.compile(backend="eager")\ndef f(x):\n    x = x + 1\n    torch._dynamo.graph_break()\n    return x * 2\nprint(f(torch.ones(2)))',
    '@torch._dynamo.disable\ndef g(x):\n    return x - 1\nprint(g(torch.ones(2)), torch.compile(lambda x: g(x) * 3, backend="eager")(torch.ones(2)))',
    'try:\n    torch.compile(lambda x: x, backend="nonexistent")\nexcept RuntimeError as e:\n    print(type(e).__name__, e)\ntry:\n    torch.compile(5, backend="nonexistent")\nexcept RuntimeError as e:\n    print(type(e).__name__, e)\ntry:\n    nn.Linear(2, 2).compile(backend="nope")\nexcept RuntimeError as e:\n    print(type(e).__name__, e)',
    'print(issubclass(torch._dynamo.exc.InvalidBackend, RuntimeError), torch._dynamo.exc.TorchDynamoException.__mro__[1].__name__)\nd = torch.compile(backend="nonexistent")\nprint(callable(d))',
    'for b in ["eager", "aot_eager", "inductor"]:\n    print(b, torch.compile(lambda x: x.sin().sum(), backend=b)(torch.zeros(3)))',
    'torch._dynamo.reset()\nm = nn.Linear(3, 2)\ncm = torch.compile(m, backend="eager")\nprint(isinstance(cm, torch._dynamo.OptimizedModule), type(cm).__name__, cm._orig_mod is m)',
    'f = torch._dynamo.optimize("eager")(lambda x: x + 1)\nprint(f(torch.ones(2)))\nm = torch._dynamo.optimize("eager", nopython=True)(nn.Linear(1, 1))\nprint(type(m).__name__, list(m.state_dict()))\ntry:\n    torch._dynamo.optimize("nope")\nexcept RuntimeError as e:\n    print(type(e).__name__, e)',
]

# (the old ScriptModule subclassing API and scripted functions, compiled from source as above)
JIT_MORE_SRC = [
    r"""
g = load('''
class Old(torch.jit.ScriptModule):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)
    @torch.jit.script_method
    def forward(self, x):
        return self.l(x)
''')
m = g['Old']()
print(m(torch.ones(1, 2)).shape, isinstance(m, torch.jit.ScriptModule), isinstance(m, nn.Module), [n for n, _ in m.named_parameters()])
""",
    r"""
g = load('''
def f(x):
    return x * 2
''')
s = torch.jit.script(g['f'])
t = torch.jit.trace(g['f'], torch.ones(2))
print(isinstance(s, torch.jit.ScriptFunction), isinstance(t, torch.jit.ScriptFunction), isinstance(g['f'], torch.jit.ScriptModule))
print(s(torch.ones(2)), t(torch.arange(3.)))
""",
]

# Forward-mode AD and Hessian-vector products through many ops, as the forward-AD and
# Jacobians tutorials apply them to their own functions (float64; -0.0 printed as 0.0).
OP_TANGENTS = [
    r"""
fs = [
    lambda x: torch.sin(x),
    lambda x: torch.tanh(x),
    lambda x: torch.sigmoid(x),
    lambda x: F.softplus(x),
    lambda x: F.gelu(x),
    lambda x: F.gelu(x, approximate='tanh'),
    lambda x: F.silu(x),
    lambda x: F.mish(x),
    lambda x: F.elu(x),
    lambda x: F.selu(x),
    lambda x: F.celu(x),
    lambda x: F.leaky_relu(x, 0.1),
    lambda x: F.logsigmoid(x),
    lambda x: F.softsign(x),
    lambda x: F.hardswish(x),
    lambda x: F.hardsigmoid(x),
    lambda x: F.relu6(x),
    lambda x: F.hardtanh(x),
    lambda x: torch.erf(x),
    lambda x: torch.erfc(x),
]
x0 = torch.randn(2, 4, dtype=torch.float64); t = torch.randn(2, 4, dtype=torch.float64)
fw = torch.autograd.forward_ad
for f in fs:
    _, j = torch.func.jvp(f, (x0,), (t,))
    with fw.dual_level():
        d = fw.unpack_dual(f(fw.make_dual(x0, t))).tangent
    print((j.round(decimals=6) + 0.0).tolist(), torch.allclose(d, j))
""",
    r"""
fs = [
    lambda x: torch.exp2(x),
    lambda x: torch.expm1(x),
    lambda x: torch.log1p(x.abs()),
    lambda x: torch.log(x.abs() + 1),
    lambda x: torch.sqrt(x.abs() + 1),
    lambda x: torch.rsqrt(x.abs() + 1),
    lambda x: torch.reciprocal(x + 3),
    lambda x: torch.atan(x),
    lambda x: torch.asinh(x),
    lambda x: torch.sinh(x),
    lambda x: torch.cosh(x),
    lambda x: torch.lgamma(x.abs() + 1),
    lambda x: torch.digamma(x.abs() + 1),
    lambda x: torch.special.i0(x),
    lambda x: torch.special.erfinv(x.tanh() * 0.5),
    lambda x: torch.logit(torch.sigmoid(x)),
    lambda x: x.pow(3),
    lambda x: x.abs().pow(2.5),
    lambda x: torch.pow(2.0, x),
    lambda x: x.softmax(-1),
]
x0 = torch.randn(2, 4, dtype=torch.float64); t = torch.randn(2, 4, dtype=torch.float64)
fw = torch.autograd.forward_ad
for f in fs:
    _, j = torch.func.jvp(f, (x0,), (t,))
    with fw.dual_level():
        d = fw.unpack_dual(f(fw.make_dual(x0, t))).tangent
    print((j.round(decimals=6) + 0.0).tolist(), torch.allclose(d, j))
""",
    r"""
fs = [
    lambda x: x.log_softmax(-1),
    lambda x: x.logsumexp(-1),
    lambda x: x.norm(),
    lambda x: x.norm(p=3),
    lambda x: torch.linalg.vector_norm(x, 1.5),
    lambda x: x.std(),
    lambda x: x.var(-1),
    lambda x: x.prod(),
    lambda x: x.cumsum(-1),
    lambda x: x.cumprod(-1),
    lambda x: x.max(),
    lambda x: x.amax(-1),
    lambda x: x.sort(-1).values,
    lambda x: x.topk(2, -1).values,
    lambda x: x.clamp(-0.5, 0.5),
    lambda x: torch.where(x > 0, x ** 2, -x),
    lambda x: x.mean(-1, keepdim=True),
    lambda x: torch.outer(x.flatten()[:3], x.flatten()[:3]),
    lambda x: x @ x.mT,
    lambda x: torch.linalg.det(x @ x.mT + torch.eye(x.shape[-2])),
]
x0 = torch.randn(2, 4, dtype=torch.float64); t = torch.randn(2, 4, dtype=torch.float64)
fw = torch.autograd.forward_ad
for f in fs:
    _, j = torch.func.jvp(f, (x0,), (t,))
    with fw.dual_level():
        d = fw.unpack_dual(f(fw.make_dual(x0, t))).tangent
    print((j.round(decimals=6) + 0.0).tolist(), torch.allclose(d, j))
""",
    r"""
fs = [
    lambda x: torch.linalg.inv(x @ x.mT + torch.eye(x.shape[-2])),
    lambda x: torch.logdet(x @ x.mT + torch.eye(x.shape[-2])),
    lambda x: torch.linalg.slogdet(x @ x.mT + torch.eye(x.shape[-2])).logabsdet,
    lambda x: torch.trace(x @ x.mT),
    lambda x: torch.linalg.matrix_norm(x),
    lambda x: torch.linalg.cholesky(x @ x.mT + torch.eye(x.shape[-2])),
    lambda x: torch.linalg.eigvalsh(x @ x.mT),
    lambda x: torch.linalg.svdvals(x),
    lambda x: torch.linalg.solve(x @ x.mT + torch.eye(x.shape[-2]), x),
    lambda x: torch.linalg.pinv(x),
    lambda x: torch.matrix_exp(x @ x.mT * 0.1),
    lambda x: F.normalize(x, dim=-1),
    lambda x: F.layer_norm(x, x.shape[-1:]),
    lambda x: F.group_norm(x.unsqueeze(0), 1),
    lambda x: F.instance_norm(x.unsqueeze(0)),
    lambda x: F.batch_norm(x, None, None, training=True),
    lambda x: F.cosine_similarity(x, x.flip(-1), dim=-1),
    lambda x: F.pairwise_distance(x, x.flip(-1)),
    lambda x: F.mse_loss(x, x.flip(-1).detach()),
    lambda x: F.smooth_l1_loss(x, torch.zeros_like(x)),
]
x0 = torch.randn(2, 4, dtype=torch.float64); t = torch.randn(2, 4, dtype=torch.float64)
fw = torch.autograd.forward_ad
for f in fs:
    _, j = torch.func.jvp(f, (x0,), (t,))
    with fw.dual_level():
        d = fw.unpack_dual(f(fw.make_dual(x0, t))).tangent
    print((j.round(decimals=6) + 0.0).tolist(), torch.allclose(d, j))
""",
    r"""
fs = [
    lambda x: F.huber_loss(x, torch.zeros_like(x)),
    lambda x: F.cross_entropy(x, torch.tensor([0, 2])),
    lambda x: F.nll_loss(x.log_softmax(-1), torch.tensor([1, 0])),
    lambda x: F.kl_div(x.log_softmax(-1), x.flip(-1).softmax(-1).detach(), reduction='batchmean'),
    lambda x: F.binary_cross_entropy(torch.sigmoid(x), torch.full_like(x, 0.3)),
    lambda x: F.binary_cross_entropy_with_logits(x, torch.full_like(x, 0.3)),
    lambda x: F.soft_margin_loss(x, torch.ones_like(x)),
    lambda x: F.conv1d(x.unsqueeze(0), x[:1, :2].unsqueeze(0).expand(2, 2, 2).contiguous()),
    lambda x: F.max_pool1d(x.unsqueeze(0), 2),
    lambda x: F.avg_pool1d(x.unsqueeze(0), 2),
    lambda x: F.interpolate(x.unsqueeze(0), scale_factor=2, mode='linear'),
    lambda x: F.pad(x, (1, 1), mode='reflect'),
    lambda x: F.glu(x, -1) if x.shape[-1] % 2 == 0 else x,
    lambda x: torch.atan2(x, x.flip(-1) + 2),
    lambda x: torch.hypot(x, x.flip(-1)),
    lambda x: torch.lerp(x, x.flip(-1), 0.3),
    lambda x: torch.addcmul(x, x, x, value=0.5),
    lambda x: torch.addcdiv(x, x, x.abs() + 1),
    lambda x: torch.fmod(x, 0.7),
    lambda x: torch.remainder(x, 0.7),
]
x0 = torch.randn(2, 4, dtype=torch.float64); t = torch.randn(2, 4, dtype=torch.float64)
fw = torch.autograd.forward_ad
for f in fs:
    _, j = torch.func.jvp(f, (x0,), (t,))
    with fw.dual_level():
        d = fw.unpack_dual(f(fw.make_dual(x0, t))).tangent
    print((j.round(decimals=6) + 0.0).tolist(), torch.allclose(d, j))
""",
    r"""
fs = [
    lambda x: torch.maximum(x, x.flip(-1)),
    lambda x: torch.xlogy(x.abs() + 0.1, x.abs() + 2),
    lambda x: torch.special.xlog1py(x.abs(), x.abs()),
    lambda x: torch.polygamma(1, x.abs() + 1),
    lambda x: torch.sinc(x),
    lambda x: torch.deg2rad(x),
    lambda x: torch.nan_to_num(x),
    lambda x: torch.diff(x, dim=-1),
    lambda x: torch.trapezoid(x, dim=-1),
    lambda x: torch.logcumsumexp(x, -1),
    lambda x: torch.cummax(x, -1).values,
    lambda x: torch.kron(x, x),
    lambda x: torch.tril(x @ x.mT),
    lambda x: torch.diag_embed(x),
    lambda x: torch.einsum('ij,kj->ik', x, x),
    lambda x: torch.tensordot(x, x, dims=([1], [1])),
    lambda x: torch.fft.fft(x).abs(),
    lambda x: torch.fft.rfft(x).real,
    lambda x: torch.stft(x.flatten(), 4, return_complex=True, window=torch.ones(4)).abs(),
]
x0 = torch.randn(2, 4, dtype=torch.float64); t = torch.randn(2, 4, dtype=torch.float64)
fw = torch.autograd.forward_ad
for f in fs:
    _, j = torch.func.jvp(f, (x0,), (t,))
    with fw.dual_level():
        d = fw.unpack_dual(f(fw.make_dual(x0, t))).tangent
    print((j.round(decimals=6) + 0.0).tolist(), torch.allclose(d, j))
""",
    r"""
fs = [
    lambda x: torch.sin(x),
    lambda x: torch.tanh(x),
    lambda x: torch.sigmoid(x),
    lambda x: F.softplus(x),
    lambda x: F.gelu(x),
    lambda x: F.gelu(x, approximate='tanh'),
    lambda x: F.silu(x),
    lambda x: F.mish(x),
    lambda x: F.elu(x),
    lambda x: F.selu(x),
    lambda x: F.celu(x),
    lambda x: F.leaky_relu(x, 0.1),
    lambda x: F.logsigmoid(x),
    lambda x: F.softsign(x),
    lambda x: F.hardswish(x),
    lambda x: F.relu6(x),
    lambda x: F.hardtanh(x),
    lambda x: torch.erf(x),
    lambda x: torch.erfc(x),
    lambda x: torch.exp2(x),
]
x0 = torch.randn(2, 4, dtype=torch.float64); v = torch.randn(2, 4, dtype=torch.float64)
for f in fs:
    x = x0.clone().requires_grad_()
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * v).sum(), x, allow_unused=True)
    print(h if h is None else (h.round(decimals=6) + 0.0).tolist())
""",
    r"""
fs = [
    lambda x: torch.expm1(x),
    lambda x: torch.log1p(x.abs()),
    lambda x: torch.log(x.abs() + 1),
    lambda x: torch.sqrt(x.abs() + 1),
    lambda x: torch.rsqrt(x.abs() + 1),
    lambda x: torch.reciprocal(x + 3),
    lambda x: torch.atan(x),
    lambda x: torch.asinh(x),
    lambda x: torch.sinh(x),
    lambda x: torch.cosh(x),
    lambda x: torch.lgamma(x.abs() + 1),
    lambda x: torch.digamma(x.abs() + 1),
    lambda x: torch.special.i0(x),
    lambda x: torch.special.erfinv(x.tanh() * 0.5),
    lambda x: torch.logit(torch.sigmoid(x)),
    lambda x: x.pow(3),
    lambda x: x.abs().pow(2.5),
    lambda x: torch.pow(2.0, x),
    lambda x: x.softmax(-1),
    lambda x: x.log_softmax(-1),
]
x0 = torch.randn(2, 4, dtype=torch.float64); v = torch.randn(2, 4, dtype=torch.float64)
for f in fs:
    x = x0.clone().requires_grad_()
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * v).sum(), x, allow_unused=True)
    print(h if h is None else (h.round(decimals=6) + 0.0).tolist())
""",
    r"""
fs = [
    lambda x: x.logsumexp(-1),
    lambda x: x.norm(),
    lambda x: x.norm(p=3),
    lambda x: torch.linalg.vector_norm(x, 1.5),
    lambda x: x.std(),
    lambda x: x.var(-1),
    lambda x: x.prod(),
    lambda x: x.cumsum(-1),
    lambda x: x.cumprod(-1),
    lambda x: x.max(),
    lambda x: x.amax(-1),
    lambda x: x.sort(-1).values,
    lambda x: x.topk(2, -1).values,
    lambda x: x.clamp(-0.5, 0.5),
    lambda x: torch.where(x > 0, x ** 2, -x),
    lambda x: x.mean(-1, keepdim=True),
    lambda x: torch.outer(x.flatten()[:3], x.flatten()[:3]),
    lambda x: x @ x.mT,
    lambda x: torch.linalg.det(x @ x.mT + torch.eye(x.shape[-2])),
    lambda x: torch.linalg.inv(x @ x.mT + torch.eye(x.shape[-2])),
]
x0 = torch.randn(2, 4, dtype=torch.float64); v = torch.randn(2, 4, dtype=torch.float64)
for f in fs:
    x = x0.clone().requires_grad_()
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * v).sum(), x, allow_unused=True)
    print(h if h is None else (h.round(decimals=6) + 0.0).tolist())
""",
    r"""
fs = [
    lambda x: torch.logdet(x @ x.mT + torch.eye(x.shape[-2])),
    lambda x: torch.linalg.slogdet(x @ x.mT + torch.eye(x.shape[-2])).logabsdet,
    lambda x: torch.trace(x @ x.mT),
    lambda x: torch.linalg.matrix_norm(x),
    lambda x: torch.linalg.cholesky(x @ x.mT + torch.eye(x.shape[-2])),
    lambda x: torch.linalg.eigvalsh(x @ x.mT),
    lambda x: torch.linalg.svdvals(x),
    lambda x: torch.linalg.solve(x @ x.mT + torch.eye(x.shape[-2]), x),
    lambda x: torch.linalg.pinv(x),
    lambda x: torch.matrix_exp(x @ x.mT * 0.1),
    lambda x: F.normalize(x, dim=-1),
    lambda x: F.layer_norm(x, x.shape[-1:]),
    lambda x: F.group_norm(x.unsqueeze(0), 1),
    lambda x: F.instance_norm(x.unsqueeze(0)),
    lambda x: F.batch_norm(x, None, None, training=True),
    lambda x: F.cosine_similarity(x, x.flip(-1), dim=-1),
    lambda x: F.pairwise_distance(x, x.flip(-1)),
    lambda x: F.mse_loss(x, x.flip(-1).detach()),
    lambda x: F.smooth_l1_loss(x, torch.zeros_like(x)),
    lambda x: F.huber_loss(x, torch.zeros_like(x)),
]
x0 = torch.randn(2, 4, dtype=torch.float64); v = torch.randn(2, 4, dtype=torch.float64)
for f in fs:
    x = x0.clone().requires_grad_()
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * v).sum(), x, allow_unused=True)
    print(h if h is None else (h.round(decimals=6) + 0.0).tolist())
""",
    r"""
fs = [
    lambda x: F.cross_entropy(x, torch.tensor([0, 2])),
    lambda x: F.nll_loss(x.log_softmax(-1), torch.tensor([1, 0])),
    lambda x: F.kl_div(x.log_softmax(-1), x.flip(-1).softmax(-1).detach(), reduction='batchmean'),
    lambda x: F.binary_cross_entropy(torch.sigmoid(x), torch.full_like(x, 0.3)),
    lambda x: F.binary_cross_entropy_with_logits(x, torch.full_like(x, 0.3)),
    lambda x: F.soft_margin_loss(x, torch.ones_like(x)),
    lambda x: F.conv1d(x.unsqueeze(0), x[:1, :2].unsqueeze(0).expand(2, 2, 2).contiguous()),
    lambda x: F.interpolate(x.unsqueeze(0), scale_factor=2, mode='linear'),
    lambda x: F.pad(x, (1, 1), mode='reflect'),
    lambda x: F.glu(x, -1) if x.shape[-1] % 2 == 0 else x,
    lambda x: torch.atan2(x, x.flip(-1) + 2),
    lambda x: torch.hypot(x, x.flip(-1)),
    lambda x: torch.lerp(x, x.flip(-1), 0.3),
    lambda x: torch.addcmul(x, x, x, value=0.5),
    lambda x: torch.addcdiv(x, x, x.abs() + 1),
    lambda x: torch.fmod(x, 0.7),
    lambda x: torch.remainder(x, 0.7),
    lambda x: torch.maximum(x, x.flip(-1)),
    lambda x: torch.xlogy(x.abs() + 0.1, x.abs() + 2),
    lambda x: torch.special.xlog1py(x.abs(), x.abs()),
]
x0 = torch.randn(2, 4, dtype=torch.float64); v = torch.randn(2, 4, dtype=torch.float64)
for f in fs:
    x = x0.clone().requires_grad_()
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * v).sum(), x, allow_unused=True)
    print(h if h is None else (h.round(decimals=6) + 0.0).tolist())
""",
    r"""
fs = [
    lambda x: torch.polygamma(1, x.abs() + 1),
    lambda x: torch.sinc(x),
    lambda x: torch.deg2rad(x),
    lambda x: torch.nan_to_num(x),
    lambda x: torch.diff(x, dim=-1),
    lambda x: torch.trapezoid(x, dim=-1),
    lambda x: torch.logcumsumexp(x, -1),
    lambda x: torch.cummax(x, -1).values,
    lambda x: torch.kron(x, x),
    lambda x: torch.tril(x @ x.mT),
    lambda x: torch.diag_embed(x),
    lambda x: torch.einsum('ij,kj->ik', x, x),
    lambda x: torch.tensordot(x, x, dims=([1], [1])),
    lambda x: torch.fft.fft(x).abs(),
    lambda x: torch.fft.rfft(x).real,
    lambda x: torch.stft(x.flatten(), 4, return_complex=True, window=torch.ones(4)).abs(),
]
x0 = torch.randn(2, 4, dtype=torch.float64); v = torch.randn(2, 4, dtype=torch.float64)
for f in fs:
    x = x0.clone().requires_grad_()
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * v).sum(), x, allow_unused=True)
    print(h if h is None else (h.round(decimals=6) + 0.0).tolist())
""",
]

# Double backward through ops whose gradient does not depend on the input: torch records the
# pooling gradients over their input too (zeros), and hardsigmoid's as a NotImplemented node.
OP_TANGENTS_SECOND = [
    r"""
x = torch.randn(1, 2, 4, dtype=torch.float64, requires_grad=True)
for f in [lambda x: F.max_pool1d(x, 2), lambda x: F.avg_pool1d(x, 2)]:
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    print(g.requires_grad, torch.autograd.grad(g.sum(), x, allow_unused=True))
""",
    r"""
x = torch.randn(1, 1, 4, 4, dtype=torch.float64, requires_grad=True)
for f in [lambda x: F.max_pool2d(x, 2), lambda x: F.avg_pool2d(x, 2),
          lambda x: F.adaptive_avg_pool2d(x, 3), lambda x: F.adaptive_max_pool2d(x, 3),
          lambda x: F.max_pool2d(x, 3, 1, 1)]:
    y = f(x)
    v = torch.randn_like(y, requires_grad=True)
    g, = torch.autograd.grad(y, x, v, create_graph=True)
    print(g.grad_fn.name(), [(n.name() if n else None, i) for n, i in g.grad_fn.next_functions])
    h = torch.autograd.grad((g * g).sum(), [x, v], allow_unused=True)
    print([t if t is None else round(t.sum().item(), 6) for t in h])
""",
    r"""
x = torch.randn(4, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
print(g.grad_fn, g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions])
try:
    torch.autograd.grad(g.sum(), x)
except RuntimeError as e:
    print(e)
""",
]

# What the tutorials print: optimizers, parametrized and pruned models, attention and recurrent
# layers, losses, autograd nodes, channels-last tensors.
REPRS = [
    'p = [nn.Parameter(torch.ones(1))]\nfor cls in [torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.Adagrad]:\n    print(cls(p, lr=0.01))',
    'p = [nn.Parameter(torch.ones(1))]\nfor cls in [torch.optim.Adadelta, torch.optim.Adamax, torch.optim.NAdam, torch.optim.RAdam, torch.optim.ASGD, torch.optim.Rprop]:\n    print(cls(p))',
    'p = [nn.Parameter(torch.ones(1))]\nprint(torch.optim.LBFGS(p))\nprint(torch.optim.SparseAdam([nn.Parameter(torch.ones(1))]))',
    'p = [nn.Parameter(torch.ones(1))]\nopt = torch.optim.SGD(p, lr=0.1)\nprint(repr(torch.optim.lr_scheduler.StepLR(opt, 2))[:40].split(" object")[0].split(".")[-1])',
    'P = torch.nn.utils.parametrize\nm = nn.Sequential(nn.Linear(2, 2))\ntorch.nn.utils.parametrizations.orthogonal(m[0])\nprint(m)\nprint(P.type_before_parametrizations(m[0]).__name__)',
    'm = torch.nn.utils.parametrizations.weight_norm(nn.Conv1d(2, 3, 2))\nprint(m)\nprint(m.parametrizations.weight.original0.shape, m.parametrizations.weight.original1.shape)',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Sequential(nn.Linear(2, 2))\nprune.l1_unstructured(m[0], "weight", 0.5)\nprint(m, [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])',
    'm = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8)\nprint(m)',
    'print(nn.MultiheadAttention(4, 2, dropout=0.1, bias=False, add_bias_kv=True))\nprint(nn.TransformerEncoderLayer(4, 2, 8, 0.1, activation=F.gelu, batch_first=True, norm_first=True, layer_norm_eps=1e-6))',
    'print(nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True, dropout=0.2), nn.GRU(3, 4, bias=False), nn.RNN(3, 4, nonlinearity="relu"))',
    'print(nn.Embedding(10, 3, padding_idx=0, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True), nn.EmbeddingBag(10, 3, mode="sum", include_last_offset=True, padding_idx=2))',
    'print(nn.KLDivLoss(reduction="batchmean"), nn.CosineEmbeddingLoss(margin=0.5), nn.NLLLoss(ignore_index=0), nn.CrossEntropyLoss(label_smoothing=0.1, weight=torch.ones(3)))',
    'print(nn.Dropout2d(0.3), nn.Dropout(0.5, inplace=True), nn.ReLU(True), nn.LogSoftmax(dim=1), nn.Softmax(-1), nn.Flatten(0, -1), nn.Unflatten(1, (2, 2)))',
    'print(nn.MaxPool2d(2, stride=2), nn.AvgPool1d(3, padding=1), nn.AdaptiveAvgPool2d((1, None)), nn.Conv2d(1, 4, kernel_size=5, padding="same", bias=False, padding_mode="reflect"))',
    'print(nn.BatchNorm2d(4, momentum=None), nn.LayerNorm([3, 4], elementwise_affine=False), nn.GroupNorm(2, 4, eps=1e-3), nn.InstanceNorm1d(3, track_running_stats=True))',
    'x = torch.randn(2, 3, requires_grad=True)\ny = torch.func.functional_call(nn.Linear(3, 1), {}, (x,))\nprint(y.grad_fn.name(), y.shape)',
    'f = torch.func.grad(lambda x: x.sum())\nprint(callable(f), f.__name__ if hasattr(f, "__name__") else None)\nv = torch.func.vmap(torch.sin)\nprint(v.__name__ if hasattr(v, "__name__") else None)',
    'fw = torch.autograd.forward_ad\nwith fw.dual_level():\n    d = fw.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 0.5]))\n    print(repr(fw.unpack_dual(d)))',
    'x = torch.tensor([1.0], requires_grad=True)\nclass Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x ** 2\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return 2 * x * g\ny = Sq.apply(x)\nprint(y, y.grad_fn.name(), type(y.grad_fn).__name__, y.grad_fn.next_functions[0][0].__class__.__name__)',
    'x = torch.ones(2, requires_grad=True)\ny = x * 2\nprint(y.grad_fn, y.grad_fn.next_functions, y.grad_fn.name(), y.is_leaf, x.is_leaf, y.requires_grad)'.replace("print(y.grad_fn, y.grad_fn.next_functions", "print(y.grad_fn.next_functions[0][0].name()"),
    'x = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)\nprint(x.is_contiguous(memory_format=torch.channels_last), x.data_ptr() == x.contiguous().data_ptr(), x.contiguous().is_contiguous(memory_format=torch.channels_last))',
    'x = torch.randn(1, 3, 2, 2).to(memory_format=torch.channels_last)\nprint(x)\nprint(x.flatten(), x.view(-1) if x.is_contiguous() else x.reshape(-1))',
]

# Saving and loading: whole models and weights_only, nested containers, shared storage,
# state_dict metadata, load_state_dict strict/assign.
SAVE_MORE = [
    'import io\nm = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\nbuf = io.BytesIO()\ntorch.save(m, buf)\nbuf.seek(0)\ntry:\n    torch.load(buf)\nexcept Exception as e:\n    print(type(e).__name__, str(e).splitlines()[0][:120])\nbuf.seek(0)\nm2 = torch.load(buf, weights_only=False)\nprint(m2, torch.equal(m2[0].weight, m[0].weight))',
    'import io\nbuf = io.BytesIO()\nopt = torch.optim.Adam(nn.Linear(2, 2).parameters())\ntorch.save({"opt": opt.state_dict(), "sched": torch.optim.lr_scheduler.StepLR(opt, 2).state_dict()}, buf)\nbuf.seek(0)\nck = torch.load(buf)\nprint(sorted(ck["sched"]), ck["opt"]["param_groups"][0]["lr"])',
    'import io\nbuf = io.BytesIO()\ntorch.save([torch.ones(2), {"a": (torch.zeros(1), 3)}], buf)\nbuf.seek(0)\nprint(torch.load(buf))',
    'import io\nx = torch.arange(10.)\nbuf = io.BytesIO()\ntorch.save({"view": x[2:5], "base": x}, buf)\nbuf.seek(0)\nck = torch.load(buf)\nck["base"][3] = 100\nprint(ck["view"], ck["view"].storage_offset())',
    'import io\nbuf = io.BytesIO()\ntorch.save(torch.ones(2, dtype=torch.float16), buf)\nbuf.seek(0)\nprint(torch.load(buf).dtype)\nbuf2 = io.BytesIO()\ntorch.save(nn.Parameter(torch.ones(2)), buf2)\nbuf2.seek(0)\np = torch.load(buf2)\nprint(type(p).__name__, p.requires_grad)',
    'import io\nm = nn.Linear(2, 2)\nsd = m.state_dict()\nprint(type(sd).__name__, sd._metadata if hasattr(sd, "_metadata") else None)\nbuf = io.BytesIO()\ntorch.save(sd, buf)\nbuf.seek(0)\nsd2 = torch.load(buf)\nprint(type(sd2).__name__, getattr(sd2, "_metadata", None))',
    'import io\nm = nn.Linear(2, 2)\nbuf = io.BytesIO()\ntorch.save(m.state_dict(), buf)\nprint(buf.getvalue()[:2], len(buf.getvalue()) > 100)\nbuf.seek(0)\nimport zipfile\nprint(sorted(n.split("/", 1)[1] for n in zipfile.ZipFile(buf).namelist()))',
    'import io\nbuf = io.BytesIO()\ntry:\n    torch.load(buf)\nexcept Exception as e:\n    print(type(e).__name__, str(e)[:80])',
    'import io\nbuf = io.BytesIO(b"not a checkpoint")\ntry:\n    torch.load(buf)\nexcept Exception as e:\n    print(type(e).__name__, str(e).splitlines()[0][:80])',
    'import io, copy\nm = nn.Linear(2, 2)\nsd = copy.deepcopy(m.state_dict())\nwith torch.no_grad():\n    m.weight.add_(1)\nprint(torch.equal(sd["weight"] + 1, m.weight))\nsd2 = m.state_dict(keep_vars=True)\nprint(type(sd2["weight"]).__name__, sd2["weight"] is m.weight, m.state_dict()["weight"].requires_grad)',
    'm = nn.Linear(2, 2)\nsd = m.state_dict()\nsd["weight"] = torch.ones(3, 3)\ntry:\n    m.load_state_dict(sd)\nexcept RuntimeError as e:\n    print(str(e).splitlines()[0])\n    print(str(e).splitlines()[1].strip())',
    'm = nn.Linear(2, 2)\nr = m.load_state_dict({"weight": torch.ones(2, 2)}, strict=False)\nprint(r, type(r).__name__, r.missing_keys)\nprint(m.weight)',
    'm = nn.Linear(2, 2)\nr = m.load_state_dict({"weight": torch.ones(2, 2), "bias": torch.zeros(2)}, assign=True)\nprint(r, m.weight.requires_grad, type(m.weight).__name__)',
]

# torch.func and autograd.functional details: torch.vmap, functional_call with tied weights and
# strictness, grad argnums and has_aux, vjp, jacrev/jacfwd/hessian options, hvp/vhp checks.
FUNC_MORE = [
    'print(torch.vmap is torch.func.vmap, torch.vmap(torch.sum)(torch.ones(2, 3)))',
    'm = nn.Linear(2, 2)\nm2 = nn.Sequential(m, m)\np = {k: v.detach() for k, v in m2.named_parameters()}\nprint(list(p))\nprint(torch.func.functional_call(m2, p, torch.ones(1, 2)).shape)\nm3 = nn.Linear(2, 2)\nprint(torch.func.functional_call(nn.Sequential(m3, m3), {"0.weight": torch.zeros(2, 2)}, torch.ones(1, 2)))',
    'm = nn.Linear(2, 2)\nm2 = nn.Sequential(m, m)\nprint(torch.func.functional_call(m2, {"0.weight": torch.zeros(2, 2), "0.bias": torch.zeros(2)}, torch.ones(1, 2), tie_weights=False))',
    'm = nn.Linear(2, 2)\ntry:\n    torch.func.functional_call(m, ({"weight": torch.ones(2, 2)}, {"weight": torch.zeros(2, 2)}), torch.ones(1, 2))\nexcept ValueError as e:\n    print(e)',
    'm = nn.BatchNorm1d(2)\nout = torch.func.functional_call(m, {"running_mean": torch.ones(2)}, torch.randn(4, 2))\nprint(m.running_mean, m.num_batches_tracked)',
    'm = nn.Linear(2, 1)\nprint(torch.func.functional_call(m, {}, (torch.ones(1, 2),), {}).shape)\ntry:\n    torch.func.functional_call(m, {"weight": torch.ones(1, 2)}, torch.ones(1, 2), strict=True)\nexcept RuntimeError as e:\n    print(str(e).splitlines()[0])',
    'def f(x, y):\n    return (x * y).sum()\nx, y = torch.randn(3), torch.randn(3)\ngx, gy = torch.func.grad(f, argnums=(0, 1))(x, y)\nprint(torch.allclose(gx, y), torch.allclose(gy, x))\ntry:\n    torch.func.grad(f, argnums=2)(x, y)\nexcept RuntimeError as e:\n    print(e)',
    'def f(x):\n    return x.sum(), x.mean()\ntry:\n    torch.func.grad(f)(torch.ones(2))\nexcept RuntimeError as e:\n    print(e)\ntry:\n    torch.func.grad(lambda x: x.sum(), has_aux=True)(torch.ones(2))\nexcept RuntimeError as e:\n    print(e)',
    'f = lambda x: x.sin().sum()\nx = torch.randn(3)\nprint(torch.allclose(torch.func.grad(torch.func.grad(lambda x: f(x)), argnums=0)(x) if False else torch.func.grad(f)(x), x.cos()))\nprint(torch.allclose(torch.func.vmap(torch.func.grad(torch.sin))(x), x.cos()))',
    'x = torch.randn(3, requires_grad=True)\ng = torch.func.grad(lambda t: (t ** 2).sum())(x)\nprint(g.requires_grad, g.grad_fn is not None)\ng.sum().backward()\nprint(x.grad)',
    'def f(x):\n    return x ** 2\nprint(torch.func.vjp(f, torch.tensor([1., 2.]))[1](torch.ones(2)))\nout, fn = torch.func.vjp(lambda a, b: a * b, torch.ones(2), torch.full((2,), 3.))\nprint(fn(torch.ones(2)))',
    'out, fn, aux = torch.func.vjp(lambda x: (x.exp(), {"n": 1}), torch.zeros(2), has_aux=True)\nprint(out, fn(torch.ones(2)), aux)',
    'print(torch.func.jacrev(lambda x, y: x * y, argnums=(0, 1))(torch.ones(2), torch.full((2,), 2.)))',
    'print(torch.func.jacfwd(lambda x: x.cumsum(0), randomness="same")(torch.ones(3)))\ntry:\n    torch.func.jacfwd(lambda x: x + torch.randn(3))(torch.ones(3))\nexcept RuntimeError as e:\n    print(str(e)[:100])',
    'print(torch.func.hessian(lambda x: (x ** 3).sum())(torch.tensor([1., 2.])))\nprint(torch.func.hessian(lambda x, y: (x * y ** 2).sum(), argnums=1)(torch.ones(2), torch.ones(2)))',
    'print(torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]), create_graph=True, outer_jacobian_strategy="forward-mode", vectorize=True))',
    'print(torch.autograd.functional.vhp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]), torch.ones(2), create_graph=True))\ntry:\n    torch.autograd.functional.vhp(lambda x: x ** 3, torch.tensor([1., 2.]), torch.ones(2))\nexcept RuntimeError as e:\n    print(e)',
    'try:\n    torch.autograd.functional.hvp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]), torch.ones(3))\nexcept RuntimeError as e:\n    print(e)\nprint(torch.autograd.functional.hvp(lambda x, y: (x * y).sum(), (torch.ones(2), torch.ones(2)), (torch.ones(2), torch.zeros(2))))',
    'print(torch.autograd.functional.jvp(lambda x: x.sum(), torch.ones(3), torch.ones(3)))\nprint(torch.autograd.functional.jacobian(lambda x: (x, x * 2), torch.ones(2)))',
]

# Per-sample gradients (vmap of grad through functional_call) of models made of the layers the
# tutorials use, checked against one autograd.grad per sample.
PER_SAMPLE_LAYERS = [
    r"""
model = nn.Linear(4, 3)
x = torch.randn(5, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Linear(4, 3), nn.LayerNorm(3))
x = torch.randn(5, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Conv1d(2, 3, 2)
x = torch.randn(5, 2, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Conv2d(1, 2, 2), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
x = torch.randn(5, 1, 5, 5)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Conv2d(1, 2, 2), nn.GroupNorm(1, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten())
x = torch.randn(5, 1, 4, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Embedding(6, 3), nn.Flatten())
x = torch.randint(0, 6, (5, 2))
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4).eval())
x = torch.randn(5, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.LSTM(3, 2, batch_first=True)
x = torch.randn(5, 4, 3)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.MultiheadAttention(4, 2, batch_first=True)
x = torch.randn(5, 3, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.TransformerEncoderLayer(4, 2, 8, 0.0, batch_first=True)
x = torch.randn(5, 3, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Dropout(0.0), nn.Linear(4, 2))
x = torch.randn(5, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.ConvTranspose2d(1, 2, 2), nn.Flatten())
x = torch.randn(5, 1, 2, 2)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Bilinear(3, 3, 2)
x = torch.randn(5, 3)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Linear(4, 4), nn.PReLU())
x = torch.randn(5, 4)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.InstanceNorm2d(2, affine=True), nn.Flatten())
x = torch.randn(5, 1, 3, 3)
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
    r"""
model = nn.EmbeddingBag(6, 3, mode='mean')
x = torch.randint(0, 6, (5, 3))
def out_of(o):
    return o[0] if isinstance(o, tuple) else o
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
n_args = 3 if isinstance(model, nn.MultiheadAttention) else 2 if isinstance(model, nn.Bilinear) else 1
def loss(params, buffers, sample):
    return out_of(torch.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),) * n_args)).pow(2).sum()
g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, None, 0))(params, buffers, x)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 2))
ref = [torch.autograd.grad(loss(dict(model.named_parameters()), buffers, x[i]), list(model.parameters())) for i in range(x.shape[0])]
print(all(torch.allclose(torch.stack([r[j] for r in ref]), v, atol=1e-5) for j, v in enumerate(g.values())))
""",
]

# Channels-last tensors through the ops a converted model runs: the strides and contiguity
# of each result (torch's memory-format propagation rules).
CHANNELS_LAST_OPS = [
    r"""
fs = [
    lambda x: x + 1,
    lambda x: x * x,
    lambda x: x + x.contiguous(),
    lambda x: x.contiguous() + x,
    lambda x: x + torch.ones(1, 3, 1, 1),
    lambda x: x + torch.ones(4),
    lambda x: torch.ones(1, 3, 1, 1) * x,
    lambda x: x.relu(),
    lambda x: torch.sigmoid(x),
    lambda x: x.exp(),
    lambda x: x.clamp(0, 1),
    lambda x: x.float(),
    lambda x: x.double(),
    lambda x: x.half(),
    lambda x: x.to(torch.int32),
    lambda x: x.clone(),
]
for shape in [(2, 3, 4, 4), (2, 3, 1, 4), (1, 3, 4, 4)]:
    for f in fs:
        x = torch.randn(shape).to(memory_format=torch.channels_last)
        try:
            y = f(x)
            print(y if isinstance(y, torch.Size) else (tuple(y.shape), y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last)))
        except Exception as e:
            print(type(e).__name__, str(e)[:100])
""",
    r"""
fs = [
    lambda x: x.detach(),
    lambda x: torch.empty_like(x),
    lambda x: torch.zeros_like(x),
    lambda x: torch.rand_like(x),
    lambda x: x.new_zeros(x.shape),
    lambda x: x.new_empty(x.shape),
    lambda x: torch.where(x > 0, x, 0.),
    lambda x: torch.where(x > 0, x, x.contiguous()),
    lambda x: x.masked_fill(x > 0, 1.),
    lambda x: x.sum(1, keepdim=True),
    lambda x: x.mean((2, 3), keepdim=True),
    lambda x: x.softmax(1),
    lambda x: x.log_softmax(-1),
    lambda x: x.cumsum(1),
    lambda x: x.abs_(),
    lambda x: x.mul_(2),
]
for shape in [(2, 3, 4, 4), (2, 3, 1, 4), (1, 3, 4, 4)]:
    for f in fs:
        x = torch.randn(shape).to(memory_format=torch.channels_last)
        try:
            y = f(x)
            print(y if isinstance(y, torch.Size) else (tuple(y.shape), y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last)))
        except Exception as e:
            print(type(e).__name__, str(e)[:100])
""",
    r"""
fs = [
    lambda x: F.conv2d(x, torch.randn(5, 3, 1, 1)),
    lambda x: F.conv2d(x, torch.randn(5, 3, 3, 3), padding=1),
    lambda x: F.conv2d(x, torch.randn(3, 1, 3, 3), groups=3),
    lambda x: F.conv2d(x.contiguous(), torch.randn(5, 3, 1, 1).to(memory_format=torch.channels_last)),
    lambda x: F.conv_transpose2d(x, torch.randn(3, 2, 2, 2), stride=2),
    lambda x: F.max_pool2d(x, 2),
    lambda x: F.avg_pool2d(x, 2),
    lambda x: F.adaptive_avg_pool2d(x, 1),
    lambda x: F.adaptive_avg_pool2d(x, (2, 2)),
    lambda x: F.adaptive_max_pool2d(x, 2),
    lambda x: F.interpolate(x, scale_factor=2, mode='nearest'),
    lambda x: F.interpolate(x, scale_factor=2, mode='bilinear'),
    lambda x: F.interpolate(x, size=(3, 3), mode='bicubic'),
    lambda x: F.batch_norm(x, None, None, training=True),
    lambda x: F.group_norm(x, 1),
    lambda x: F.instance_norm(x),
]
for shape in [(2, 3, 4, 4), (2, 3, 1, 4), (1, 3, 4, 4)]:
    for f in fs:
        x = torch.randn(shape).to(memory_format=torch.channels_last)
        try:
            y = f(x)
            print(y if isinstance(y, torch.Size) else (tuple(y.shape), y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last)))
        except Exception as e:
            print(type(e).__name__, str(e)[:100])
""",
    r"""
fs = [
    lambda x: F.layer_norm(x, (4,)),
    lambda x: F.dropout(x, 0.0),
    lambda x: F.pad(x, (1, 1, 1, 1)),
    lambda x: F.pad(x, (1, 1, 1, 1), mode='reflect'),
    lambda x: F.pixel_shuffle(torch.cat([x, x, x, x], 1)[:, :4], 2),
    lambda x: F.pixel_unshuffle(x, 2),
    lambda x: torch.cat([x, x], 1),
    lambda x: torch.cat([x, x], 0),
    lambda x: torch.cat([x, x.contiguous()], 1),
    lambda x: torch.stack([x, x]),
    lambda x: x.permute(0, 2, 3, 1),
    lambda x: x.transpose(1, 2),
    lambda x: x[:, :2],
    lambda x: x[..., 1:],
    lambda x: x.flip(1),
    lambda x: x.roll(1, 1),
]
for shape in [(2, 3, 4, 4), (2, 3, 1, 4), (1, 3, 4, 4)]:
    for f in fs:
        x = torch.randn(shape).to(memory_format=torch.channels_last)
        try:
            y = f(x)
            print(y if isinstance(y, torch.Size) else (tuple(y.shape), y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last)))
        except Exception as e:
            print(type(e).__name__, str(e)[:100])
""",
    r"""
fs = [
    lambda x: x.repeat(1, 2, 1, 1),
    lambda x: x.expand(2, 3, 4, 4),
    lambda x: x.unsqueeze(0).squeeze(0),
    lambda x: torch.nn.functional.hardswish(x),
    lambda x: F.gelu(x),
    lambda x: x.sign(),
    lambda x: torch.addcmul(x, x, x),
    lambda x: x.lerp(x.contiguous(), 0.5),
    lambda x: torch.maximum(x, x.contiguous()),
    lambda x: x.index_select(1, torch.tensor([0, 2])),
    lambda x: x.narrow(1, 0, 2),
    lambda x: x.sort(1).values,
    lambda x: x.topk(2, 1).values,
    lambda x: x.max(1, keepdim=True).values,
    lambda x: x.argmax(1, keepdim=True),
    lambda x: x.nan_to_num(),
]
for shape in [(2, 3, 4, 4), (2, 3, 1, 4), (1, 3, 4, 4)]:
    for f in fs:
        x = torch.randn(shape).to(memory_format=torch.channels_last)
        try:
            y = f(x)
            print(y if isinstance(y, torch.Size) else (tuple(y.shape), y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last)))
        except Exception as e:
            print(type(e).__name__, str(e)[:100])
""",
    r"""
fs = [
    lambda x: x.pow(2),
    lambda x: x > 0,
    lambda x: ~(x > 0),
    lambda x: (x > 0).float(),
    lambda x: torch.nn.functional.embedding(torch.zeros(2, dtype=torch.long), torch.ones(3, 4)),
    lambda x: F.grid_sample(x, torch.zeros(2, 2, 2, 2), align_corners=False),
    lambda x: F.unfold(x, 2).shape,
    lambda x: torch.matmul(x, torch.ones(4, 4)),
    lambda x: x @ x,
    lambda x: torch.einsum('nchw->nchw', x),
    lambda x: x.bernoulli(),
    lambda x: x.to(memory_format=torch.preserve_format),
    lambda x: x.type(torch.float64),
    lambda x: x.contiguous(memory_format=torch.preserve_format),
]
for shape in [(2, 3, 4, 4), (2, 3, 1, 4), (1, 3, 4, 4)]:
    for f in fs:
        x = torch.randn(shape).to(memory_format=torch.channels_last)
        try:
            y = f(x)
            print(y if isinstance(y, torch.Size) else (tuple(y.shape), y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last)))
        except Exception as e:
            print(type(e).__name__, str(e)[:100])
""",
]

# Extending torch.func with autograd.Function: setup_context, generate_vmap_rule, a vmap
# staticmethod, jvp under func.jvp, and functions nested in grad/vmap.
FUNC_FUNCTIONS = [
    r"""
class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = x.cpu().numpy()
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (torch.tensor(result, device=device), torch.tensor(ind, device=device), torch.tensor(ind_inv, device=device))
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None
class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = x.cpu().numpy()
        ind = ind.cpu().numpy()
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None
def numpy_sort(x, dim=-1):
    result, _, _ = NumpySort.apply(x, dim)
    return result
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])
grad_x = torch.func.grad(lambda x: numpy_sort(x).sum())(x)
print(grad_x)
print(torch.func.grad(lambda x: (numpy_sort(x) * torch.tensor([1., 2., 3.])).sum())(x))
""",
    r"""
class MyCube(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_output * dx + grad_dx * 6 * x
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result
x = torch.randn(3)
print(torch.allclose(torch.func.vmap(my_cube)(x), x ** 3))
print(torch.allclose(torch.func.vmap(torch.func.grad(my_cube))(x), 3 * x ** 2))
print(torch.allclose(torch.func.grad(torch.func.grad(my_cube))(torch.tensor(2.)), torch.tensor(12.)))
""",
    r"""
class NumpyTakeV(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, dim):
        return torch.tensor(np.take_along_axis(x.numpy(), ind.numpy(), dim))
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return None, None, None
    @staticmethod
    def vmap(info, in_dims, x, ind, dim):
        x_bdim, ind_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x.dim() - 1
        dim = dim if dim >= 0 else dim + logical_dim
        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)
        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        return NumpyTakeV.apply(x, ind, dim + 1), 0
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])
ind = torch.tensor([[2, 0, 1], [1, 2, 0]])
print(torch.func.vmap(NumpyTakeV.apply, in_dims=(0, 0, None))(x, ind, 0))
print(torch.func.vmap(NumpyTakeV.apply, in_dims=(None, 0, None))(x[0], ind, 0))
""",
    r"""
class NoRule(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
try:
    torch.func.vmap(NoRule.apply)(torch.ones(3))
except RuntimeError as e:
    print(str(e)[:150])
print(torch.func.grad(lambda x: NoRule.apply(x).sum())(torch.ones(2)))
class OldStyle(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
try:
    torch.func.grad(lambda x: OldStyle.apply(x).sum())(torch.ones(2))
except RuntimeError as e:
    print(str(e)[:150])
""",
    r"""
class ExpJ(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(output)
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * out
    @staticmethod
    def jvp(ctx, t):
        out, = ctx.saved_tensors
        return t * out
x = torch.tensor([0., 1.])
print(torch.func.jvp(ExpJ.apply, (x,), (torch.ones(2),)))
print(torch.func.jacfwd(ExpJ.apply)(x))
print(torch.func.jacrev(ExpJ.apply)(x))
""",
    r"""
class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 3
try:
    Both.apply(torch.ones(1))
except Exception as e:
    print(type(e).__name__, str(e)[:120])
""",
]

FUNC_FUNCTION_GAPS = [
    ("ember's vmap runs the function once per element, so a Function's vmap staticmethod runs "
     "once per element with info.batch_size 1 (results are the same)",
     r"""
class NumpyTakeV(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, dim):
        return torch.tensor(np.take_along_axis(x.numpy(), ind.numpy(), dim))
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return None, None, None
    @staticmethod
    def vmap(info, in_dims, x, ind, dim):
        x_bdim, ind_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x.dim() - 1
        dim = dim if dim >= 0 else dim + logical_dim
        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)
        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        print('vmap rule, randomness', info.randomness, type(info).__name__)
        print('vmap rule, batch', info.batch_size)
        return NumpyTakeV.apply(x, ind, dim + 1), 0
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])
ind = torch.tensor([[2, 0, 1], [1, 2, 0]])
print(torch.func.vmap(NumpyTakeV.apply, in_dims=(0, 0, None))(x, ind, 0))
print(torch.func.vmap(NumpyTakeV.apply, in_dims=(None, 0, None))(x[0], ind, 0))
"""),
]

# More of the pruning and parametrization tutorials' API: custom masks, importance scores,
# structured pruning along other dims, parametrizations on buffers, caching and transfers.
PRUNE_PARAM_MORE = [
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Linear(3, 2)\nprune.custom_from_mask(m, "weight", mask=torch.tensor([[0, 1, 1], [1, 0, 1]]))\nprint(m.weight_mask, (m.weight == 0).sum().item(), m.weight_mask.dtype)',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Linear(4, 2)\nscores = torch.arange(8.).view(2, 4)\nprune.l1_unstructured(m, "weight", amount=3, importance_scores=scores)\nprint(m.weight_mask)',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\na, b = nn.Linear(2, 2), nn.Linear(2, 2)\nprune.global_unstructured([(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, importance_scores={(a, "weight"): torch.ones(2, 2), (b, "weight"): torch.arange(4.).view(2, 2)}, amount=3)\nprint(a.weight_mask, b.weight_mask)',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Conv2d(2, 4, 2)\nprune.ln_structured(m, "weight", amount=1, n=1, dim=1)\nprint(m.weight_mask.sum(dim=(0, 2, 3)))\nprune.random_structured(m, "weight", amount=0.5, dim=0)\nprint(m.weight_mask.sum(dim=(1, 2, 3)))',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Linear(3, 2)\ntry:\n    prune.global_unstructured([(m, "weight")], pruning_method=prune.RandomStructured, amount=0.5)\nexcept TypeError as e:\n    print(str(e).split(" <class")[0], str(e).split(".")[-1])\ntry:\n    prune.global_unstructured((m, "weight"), pruning_method=prune.L1Unstructured, amount=0.5)\nexcept Exception as e:\n    print(type(e).__name__, e)',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Linear(3, 2)\nprune.l1_unstructured(m, "weight", amount=0.5)\nimport copy\nm2 = copy.deepcopy(m)\nprint([n for n, _ in m2.named_buffers()], torch.equal(m2.weight, m.weight), len(m2._forward_pre_hooks))\nm2(torch.ones(1, 3)).sum().backward()\nprint(m2.weight_orig.grad is not None)',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.BatchNorm1d(3)\nprune.l1_unstructured(m, "running_mean", amount=1) if False else prune.l1_unstructured(m, "weight", amount=1)\nprint([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])',
    'P = torch.nn.utils.parametrize\nclass Pos(nn.Module):\n    def forward(self, X):\n        return X.abs()\nm = nn.BatchNorm1d(2)\nP.register_parametrization(m, "running_var", Pos())\nprint([n for n, _ in m.named_buffers()], [n for n, _ in m.named_parameters()])\nprint(m.running_var, list(m.state_dict()))',
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 2)\nP.register_parametrization(m, "weight", Double())\nm2 = nn.Linear(2, 2)\nP.transfer_parametrizations_and_params(m, m2)\nprint(torch.equal(m2.weight, m.weight), P.is_parametrized(m2, "weight"), type(m2).__name__)',
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 2)\nP.register_parametrization(m, "weight", Double())\nwith P.cached():\n    a = m.weight\n    with P.cached():\n        b = m.weight\n    print(a is b)\nprint(m.weight is m.weight)',
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 2)\nP.register_parametrization(m, "weight", Double())\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\nm(torch.ones(1, 2)).sum().backward()\nprint(m.parametrizations.weight.original.grad)\nopt.step()\nprint(m.weight)',
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 2)\nP.register_parametrization(m, "weight", Double())\ntry:\n    m.weight.add_(1)\n    print("ok")\nexcept RuntimeError as e:\n    print(str(e)[:100])\nwith torch.no_grad():\n    m.weight.add_(1)\nprint(m.parametrizations.weight.original)',
    'sn = torch.nn.utils.parametrizations.spectral_norm\nm = sn(nn.Conv2d(2, 3, 2), n_power_iterations=3)\nprint(sorted(n for n, _ in m.named_buffers()), m.parametrizations.weight[0].n_power_iterations, m.parametrizations.weight[0].dim)\nm = sn(nn.ConvTranspose2d(2, 3, 2))\nprint(m.parametrizations.weight[0].dim)',
    'import warnings\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    m = torch.nn.utils.spectral_norm(nn.Linear(3, 2))\nprint(sorted(n for n, _ in m.named_parameters()), sorted(n for n, _ in m.named_buffers()), len(w))\nm(torch.ones(1, 3))\nprint(m.weight.shape)\ntorch.nn.utils.remove_spectral_norm(m)\nprint(sorted(n for n, _ in m.named_parameters()))',
    'orth = torch.nn.utils.parametrizations.orthogonal\nm = orth(nn.Linear(3, 5))\nW = m.weight\nprint(W.shape, torch.allclose(W.T @ W, torch.eye(3), atol=1e-5))\nm.weight = torch.linalg.qr(torch.randn(5, 3)).Q\nprint(torch.allclose(m.weight.T @ m.weight, torch.eye(3), atol=1e-5))',
    'orth = torch.nn.utils.parametrizations.orthogonal\nm = orth(nn.Linear(3, 3), use_trivialization=False)\nprint(torch.allclose(m.weight.T @ m.weight, torch.eye(3), atol=1e-5), [n for n, _ in m.named_parameters()])\ntry:\n    orth(nn.Linear(3, 3), "bias")\nexcept ValueError as e:\n    print(e)',
]

# Optimizer flags (foreach, fused, capturable, differentiable), get_lr's warning, step counts
# and LBFGS options, as the optimizer recipes set them.
OPTIM_FLAGS = [
    'import warnings\nopt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.StepLR(opt, 1)\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    print(s.get_lr())\nprint([str(x.message)[:80] for x in w])',
    'x = torch.randn(4, 2); y = torch.randn(4, 1)\nfor kw in [dict(foreach=True), dict(foreach=False), dict(fused=True)]:\n    torch.manual_seed(0)\n    m = nn.Linear(2, 1)\n    opt = torch.optim.Adam(m.parameters(), lr=0.1, **kw)\n    for _ in range(3):\n        opt.zero_grad(); F.mse_loss(m(x), y).backward(); opt.step()\n    print(kw, m.weight.detach().round(decimals=5), opt.state[m.weight]["step"])',
    'x = torch.randn(4, 2); y = torch.randn(4, 1)\nfor kw in [dict(fused=True), dict(foreach=True)]:\n    torch.manual_seed(0)\n    m = nn.Linear(2, 1)\n    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, **kw)\n    for _ in range(3):\n        opt.zero_grad(); F.mse_loss(m(x), y).backward(); opt.step()\n    print(kw, m.weight.detach().round(decimals=5))',
    'try:\n    torch.optim.Adam(nn.Linear(2, 2).parameters(), fused=True, foreach=True)\nexcept RuntimeError as e:\n    print(e)\ntry:\n    torch.optim.Adam(nn.Linear(2, 2).parameters(), fused=True, differentiable=True)\nexcept RuntimeError as e:\n    print(e)',
    'try:\n    torch.optim.RMSprop(nn.Linear(2, 2).parameters(), fused=True)\nexcept Exception as e:\n    print(type(e).__name__, e)',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.Adam([p], lr=0.1, capturable=False)\np.grad = torch.ones(2)\nopt.step()\nprint(opt.state[p]["step"], opt.state[p]["step"].dtype, opt.state[p]["exp_avg"])',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.Adam([p], lr=torch.tensor(0.01))\np.grad = torch.ones(2)\nopt.step()\nprint(p, opt.param_groups[0]["lr"])',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([p], lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)\nfor _ in range(3):\n    p.grad = torch.ones(2)\n    opt.step()\nprint(p, opt.state[p]["momentum_buffer"])',
    'p = nn.Parameter(torch.ones(2))\ntry:\n    torch.optim.SGD([p], lr=0.1, nesterov=True)\nexcept ValueError as e:\n    print(e)',
    'p = nn.Parameter(torch.ones(3))\nopt = torch.optim.LBFGS([p], lr=0.5, max_iter=5, history_size=3, line_search_fn="strong_wolfe")\ndef closure():\n    opt.zero_grad()\n    l = ((p - torch.tensor([1., 2., 3.])) ** 2).sum()\n    l.backward()\n    return l\nprint(opt.step(closure))\nprint(p.detach().round(decimals=4), opt.state[opt._params[0]]["n_iter"], opt.state[opt._params[0]]["func_evals"])',
    'p = nn.Parameter(torch.ones(1))\ntry:\n    torch.optim.LBFGS([p], line_search_fn="armijo")\nexcept Exception as e:\n    print(type(e).__name__, e)\nopt = torch.optim.LBFGS([p])\ntry:\n    opt.step()\nexcept TypeError as e:\n    print(e)',
    'p = nn.Parameter(torch.ones(2))\nopt = torch.optim.Adam([p])\nprint(opt.param_groups[0].keys())',
    'p = nn.Parameter(torch.ones(2))\nfor cls in [torch.optim.SGD, torch.optim.Adagrad, torch.optim.RMSprop, torch.optim.AdamW, torch.optim.NAdam, torch.optim.RAdam, torch.optim.Adamax, torch.optim.ASGD, torch.optim.Rprop, torch.optim.Adadelta]:\n    opt = cls([p], lr=0.1)\n    p.grad = torch.ones(2)\n    opt.step()\n    print(cls.__name__, sorted(opt.state[p]))',
]

# torch.compile as training scripts use it: state_dict prefixes, loading into the plain model,
# train/eval, hooks, parameters, repr, pickling, optimizers over the compiled module.
COMPILE_MORE = [
    'import copy\nm = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))\ncm = torch.compile(m, backend="eager")\nprint(cm.training, len(cm), list(cm._modules))\nm.eval()\nprint(cm.training)\ncm.extra = nn.Linear(1, 1)\nprint(list(m._modules), list(cm.state_dict())[-1], "extra" in dir(cm))\ndel cm.extra\nprint(hasattr(m, "extra"), len(copy.deepcopy(cm)))\ntry:\n    len(torch.compile(nn.Linear(1, 1), backend="eager"))\nexcept TypeError as e:\n    print(e)',
    'm = nn.Linear(2, 2)\ncm = torch.compile(m, backend="eager")\nprint(list(cm.state_dict()), [n for n, _ in cm.named_parameters()], len(list(cm.parameters())))\ntry:\n    nn.Linear(2, 2).load_state_dict(cm.state_dict())\nexcept RuntimeError as e:\n    print(str(e).splitlines()[0])\n    print(str(e).splitlines()[1].strip())',
    'm = nn.Linear(2, 2)\ncm = torch.compile(m, backend="eager")\nsd = {k.removeprefix("_orig_mod."): v for k, v in cm.state_dict().items()}\nprint(nn.Linear(2, 2).load_state_dict(sd))\nprint(cm.load_state_dict(cm.state_dict()), cm.load_state_dict({"_orig_mod." + k: v for k, v in m.state_dict().items()}))',
    'm = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))\ncm = torch.compile(m, backend="eager")\ncm.eval()\nprint(cm.training, m.training, m[1].training)\ncm.train()\nprint(cm.training, m.training)',
    'm = nn.Linear(2, 2)\ncm = torch.compile(m, backend="eager")\nprint(cm)',
    'm = nn.Linear(2, 2)\ncm = torch.compile(m, backend="eager")\nseen = []\nm.register_forward_hook(lambda mod, i, o: seen.append("inner"))\ncm.register_forward_hook(lambda mod, i, o: seen.append("outer"))\ncm(torch.ones(1, 2))\nprint(seen)',
    'm = nn.Linear(2, 2)\ncm = torch.compile(m, backend="eager")\nprint(cm.weight is m.weight, cm.in_features, hasattr(cm, "bogus"))\ncm.foo = 3\nprint(hasattr(m, "foo"), cm.foo)',
    'import copy\nm = nn.Linear(2, 2)\ncm = torch.compile(m, backend="eager")\nc2 = copy.deepcopy(cm)\nprint(type(c2).__name__, torch.equal(c2(torch.ones(1, 2)), cm(torch.ones(1, 2))), c2._orig_mod is m)',
    'm = nn.Linear(2, 1)\ncm = torch.compile(m, backend="eager")\nopt = torch.optim.SGD(cm.parameters(), lr=0.1)\ncm(torch.ones(1, 2)).sum().backward()\nopt.step()\nprint(m.weight, m.weight.grad)',
    'm = nn.Linear(2, 1)\ncm = torch.compile(m, backend="eager")\nprint(isinstance(cm, nn.Module), isinstance(cm, nn.Linear), type(cm).__mro__[1].__name__, cm._get_name() if hasattr(cm, "_get_name") else None)',
    'def f(x, *, scale=2):\n    return x * scale\ncf = torch.compile(f, backend="eager")\nprint(cf(torch.ones(2)), cf(torch.ones(2), scale=3), cf.__name__, cf.__wrapped__ is f if hasattr(cf, "__wrapped__") else None)',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.l = nn.Linear(2, 2)\n    def forward(self, x):\n        return self.l(x)\n    def other(self, x):\n        return x * 2\ncm = torch.compile(M(), backend="eager")\nprint(cm.other(torch.ones(1)), list(cm.named_modules())[0][0] == "", [n for n, _ in cm.named_modules()])',
    'x = torch.randn(3)\n@torch.compile(backend="eager", dynamic=True)\ndef f(t):\n    return t.cumsum(0) * t.shape[0]\nprint(f(torch.ones(3)), f(torch.ones(5)))\ntry:\n    torch.compile(f, mode="max-autotune", options={"a": 1})\nexcept RuntimeError as e:\n    print(e)',
]

# Errors and warnings users of the Transformer tutorials meet: mask shapes and dtypes, padding
# masks, batch_first mix-ups, the fast path's conditions.
TRANSFORMER_ERRORS = [
    'l = nn.TransformerEncoderLayer(4, 2, 8, 0.0)\ntry:\n    l(torch.randn(5, 2, 4), src_mask=torch.zeros(3, 3))\nexcept RuntimeError as e:\n    print(e)',
    'l = nn.TransformerEncoderLayer(4, 2, 8, 0.0)\ntry:\n    l(torch.randn(5, 2, 4), src_mask=torch.zeros(2, 5, 5))\nexcept RuntimeError as e:\n    print(e)',
    'l = nn.TransformerEncoderLayer(4, 2, 8, 0.0)\nprint(l(torch.randn(5, 2, 4), src_mask=torch.zeros(4, 5, 5)).shape)',
    'l = nn.TransformerEncoderLayer(4, 2, 8, 0.0)\ntry:\n    l(torch.randn(5, 2, 4), src_key_padding_mask=torch.zeros(5, 2, dtype=torch.bool))\nexcept (RuntimeError, AssertionError) as e:\n    print(type(e).__name__, e)',
    'import warnings\nl = nn.TransformerEncoderLayer(4, 2, 8, 0.0)\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    out = l(torch.randn(3, 2, 4), src_mask=torch.zeros(3, 3), src_key_padding_mask=torch.zeros(2, 3, dtype=torch.bool))\nprint(out.shape, [str(x.message)[:90] for x in w])',
    'mha = nn.MultiheadAttention(4, 2)\nq = torch.randn(3, 2, 4)\ntry:\n    mha(q, q, q, attn_mask=torch.zeros(3, 3, dtype=torch.int64))\nexcept (RuntimeError, AssertionError) as e:\n    print(type(e).__name__, e)',
    'mha = nn.MultiheadAttention(4, 2)\nq = torch.randn(3, 2, 4)\ntry:\n    mha(q, torch.randn(5, 2, 4), torch.randn(4, 2, 4))\nexcept (RuntimeError, AssertionError) as e:\n    print(type(e).__name__, e)',
    'mha = nn.MultiheadAttention(4, 2)\nq = torch.randn(3, 2, 4)\ntry:\n    mha(q, q, q, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))\nexcept (RuntimeError, AssertionError) as e:\n    print(type(e).__name__, e)',
    'mha = nn.MultiheadAttention(4, 2)\nq = torch.randn(3, 2, 4)\ntry:\n    mha(q, q, q, is_causal=True)\nexcept (RuntimeError, AssertionError) as e:\n    print(type(e).__name__, e)\nprint(mha(q, q, q, attn_mask=nn.Transformer.generate_square_subsequent_mask(3), is_causal=True)[0].shape)',
    'mha = nn.MultiheadAttention(4, 2, batch_first=True)\nq = torch.randn(2, 3, 4)\nmask = torch.tensor([[False, False, True], [False, False, False]])\no, w = mha(q, q, q, key_padding_mask=mask)\nprint(w[0, :, 2], w.sum(-1))',
    'mha = nn.MultiheadAttention(4, 2, batch_first=True)\nq = torch.randn(1, 3, 4)\nmask = torch.tensor([[True, True, True]])\no, w = mha(q, q, q, key_padding_mask=mask)\nprint(o.isnan().all(), w.isnan().all())',
    'l = nn.TransformerDecoderLayer(4, 2, 8, 0.0)\ntgt = torch.randn(3, 2, 4); mem = torch.randn(5, 2, 4)\nout = l(tgt, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3), memory_key_padding_mask=torch.zeros(2, 5, dtype=torch.bool))\nprint(out.shape, out[0, 0].round(decimals=4))\ntry:\n    l(tgt, torch.randn(5, 3, 4))\nexcept RuntimeError as e:\n    print(e)',
    't = nn.Transformer(4, 2, 1, 1, 8, 0.0)\nsrc = torch.randn(5, 2, 4); tgt = torch.randn(3, 2, 4)\nprint(t(src, tgt, tgt_is_causal=True, tgt_mask=t.generate_square_subsequent_mask(3)).shape)\ntry:\n    t(src, tgt, src_mask=torch.zeros(3, 3))\nexcept RuntimeError as e:\n    print(e)',
    'try:\n    nn.Transformer(5, 2)\nexcept AssertionError as e:\n    print(e)\ntry:\n    nn.TransformerEncoderLayer(4, 2, activation="swish")\nexcept RuntimeError as e:\n    print(e)',
    'enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, 0.0, batch_first=True), 1)\nx = torch.randn(2, 3, 4)\nprint(enc(x, mask=nn.Transformer.generate_square_subsequent_mask(3), is_causal=True).shape)\ntry:\n    enc(x, is_causal=True)\nexcept Exception as e:\n    print(type(e).__name__, e)',
]

# Ensembling caveats: BatchNorm under vmap, replace_all_batch_norm_modules_, functional_call
# of stacked buffers, randomness modes with dropout.
ENSEMBLE_CAVEATS = [
    'models = [nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)) for _ in range(2)]\nparams, buffers = torch.func.stack_module_state(models)\nbase = models[0]\ndef f(p, b, x):\n    return torch.func.functional_call(base, (p, b), (x,))\ntry:\n    out = torch.func.vmap(f, in_dims=(0, 0, None))(params, buffers, torch.randn(4, 3))\n    print(out.shape, buffers["1.running_mean"])\nexcept (RuntimeError, ValueError) as e:\n    print(type(e).__name__, str(e)[:150])',
    'm = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Sequential(nn.BatchNorm1d(3)))\nr = torch.func.replace_all_batch_norm_modules_(m)\nprint(r is m, m[1].running_mean, m[1].running_var, m[1].track_running_stats, m[2][0].num_batches_tracked)\nprint(m(torch.randn(4, 3)).shape, [n for n, _ in m.named_buffers()])',
    'models = [nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)) for _ in range(2)]\nfor mm in models:\n    torch.func.replace_all_batch_norm_modules_(mm)\nparams, buffers = torch.func.stack_module_state(models)\nbase = models[0]\ndef f(p, b, x):\n    return torch.func.functional_call(base, (p, b), (x,))\nout = torch.func.vmap(f, in_dims=(0, 0, None))(params, buffers, torch.randn(4, 3))\nprint(out.shape, out.mean(1).abs().max() < 1e-5, sorted(buffers))',
    'models = [nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5)) for _ in range(3)]\nparams, buffers = torch.func.stack_module_state(models)\nbase = models[0]\ndef f(p, b, x):\n    return torch.func.functional_call(base, (p, b), (x,))\nx = torch.ones(2, 3)\nfor r in ["error", "same", "different"]:\n    try:\n        out = torch.func.vmap(f, in_dims=(0, 0, None), randomness=r)(params, buffers, x)\n        print(r, out.shape, (out == 0).sum().item() > 0)\n    except RuntimeError as e:\n        print(r, str(e)[:120])',
    'models = [nn.Linear(2, 2) for _ in range(3)]\nparams, buffers = torch.func.stack_module_state(models)\nbase = models[0]\nout = torch.func.vmap(lambda p, x: torch.func.functional_call(base, p, (x,)))(params, torch.randn(3, 5, 2))\nprint(out.shape)\ntry:\n    torch.func.vmap(lambda p, x: torch.func.functional_call(base, p, (x,)))(params, torch.randn(4, 5, 2))\nexcept ValueError as e:\n    print(e)',
]

# Tensor subclasses with a logging __torch_function__ (the Extending PyTorch note's
# LoggingTensor): the function each operator, method and property passes to the handler.
SUBCLASS_FUNCS = [
    r"""
class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is not torch.Tensor.__repr__:
            log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})
log = []
for f in [
    lambda t: t + 1,
    lambda t: 1 + t,
    lambda t: t * t,
    lambda t: t - 1,
    lambda t: 2 - t,
    lambda t: t / 2,
    lambda t: t @ t,
    lambda t: -t,
    lambda t: abs(t),
    lambda t: t ** 2,
    lambda t: 2 ** t,
    lambda t: t > 0,
    lambda t: t == t,
    lambda t: t[0],
    lambda t: t[t > 0],
    lambda t: t.sum(),
    lambda t: t.mean(),
    lambda t: torch.add(t, 1),
    lambda t: torch.sum(t),
    lambda t: torch.exp(t),
    lambda t: t.exp(),
    lambda t: t.view(-1),
    lambda t: t.reshape(1, -1),
]:
    t = torch.tensor([[1., -2.], [3., 4.]]).as_subclass(LoggingTensor)
    log.clear()
    try:
        r = f(t)
        print(type(r).__name__, log)
    except Exception as ex:
        print(type(ex).__name__, str(ex)[:100], log)
""",
    r"""
class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is not torch.Tensor.__repr__:
            log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})
log = []
for f in [
    lambda t: t.T,
    lambda t: t.shape,
    lambda t: t.dtype,
    lambda t: t.float(),
    lambda t: t.to(torch.float64),
    lambda t: t.clone(),
    lambda t: t.detach(),
    lambda t: t.numpy(),
    lambda t: t.tolist(),
    lambda t: len(t),
    lambda t: t.size(0),
    lambda t: t.dim(),
    lambda t: torch.cat([t, t]),
    lambda t: torch.stack([t, t]),
    lambda t: F.relu(t),
    lambda t: F.linear(t, torch.eye(2)),
    lambda t: t.softmax(-1),
    lambda t: t.max(),
    lambda t: t.argmax(),
    lambda t: t.unsqueeze(0),
    lambda t: t.requires_grad_(),
    lambda t: t.add_(1),
    lambda t: t.mul_(2),
]:
    t = torch.tensor([[1., -2.], [3., 4.]]).as_subclass(LoggingTensor)
    log.clear()
    try:
        r = f(t)
        print(type(r).__name__, log)
    except Exception as ex:
        print(type(ex).__name__, str(ex)[:100], log)
""",
    r"""
class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is not torch.Tensor.__repr__:
            log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})
log = []
for f in [
    lambda t: t.new_zeros(2),
    lambda t: torch.zeros_like(t),
    lambda t: t.data,
    lambda t: t.grad,
    lambda t: t.is_leaf,
    lambda t: t.norm(),
    lambda t: t.split(1),
    lambda t: t.chunk(2),
    lambda t: torch.where(t > 0, t, 0.),
    lambda t: t.clamp(0, 1),
    lambda t: t.masked_fill(t > 0, 0.),
    lambda t: iter(t).__next__(),
    lambda t: t.__repr__(),
    lambda t: bool(t.sum()),
    lambda t: float(t.sum()),
    lambda t: t.new_tensor([1.]),
    lambda t: t.type(torch.float64),
    lambda t: t.cpu(),
    lambda t: t.contiguous(),
    lambda t: t.flatten(),
    lambda t: t.permute(1, 0),
    lambda t: t.expand(2, 2),
    lambda t: t.abs(),
]:
    t = torch.tensor([[1., -2.], [3., 4.]]).as_subclass(LoggingTensor)
    log.clear()
    try:
        r = f(t)
        print(type(r).__name__, log)
    except Exception as ex:
        print(type(ex).__name__, str(ex)[:100], log)
""",
    r"""
class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is not torch.Tensor.__repr__:
            log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})
log = []
for f in [
    lambda t: torch.nn.functional.mse_loss(t, t),
    lambda t: t.__ipow__(2),
    lambda t: +t,
    lambda t: t.__itruediv__(2),
    lambda t: 2 / t,
    lambda t: t.__rtruediv__(2),
    lambda t: t.__rdiv__(2),
    lambda t: t.__rpow__(2),
    lambda t: t.__matmul__(t),
    lambda t: t.__rmatmul__(t),
    lambda t: ~(t > 0),
    lambda t: t.__rsub__(1),
    lambda t: 1 - t,
    lambda t: t % 2,
    lambda t: t // 2,
    lambda t: 1. in t,
    lambda t: t.__setitem__(0, 1.),
    lambda t: t.__getitem__(0),
    lambda t: t.__len__(),
    lambda t: t.__format__(''),
    lambda t: t.__array__().shape,
    lambda t: t.__reversed__(),
    lambda t: list(t),
]:
    t = torch.tensor([[1., -2.], [3., 4.]]).as_subclass(LoggingTensor)
    log.clear()
    try:
        r = f(t)
        print(type(r).__name__, log)
    except Exception as ex:
        print(type(ex).__name__, str(ex)[:100], log)
""",
]

# The torch.func tutorials' neural tangent kernel: jacrev of functional_call per sample, then
# the kernel by einsum (full, trace, diagonal) and by vjp/jvp products.
NTK = [
    r"""
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, (3, 3))
        self.conv2 = nn.Conv2d(2, 2, (3, 3))
        self.fc = nn.Linear(2, 3)
    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = x.mean(dim=(-2, -1))
        return self.fc(x)
net = CNN()
x_train = torch.randn(4, 1, 6, 6)
x_test = torch.randn(2, 1, 6, 6)
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return torch.func.functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute='full'):
    jac1 = torch.func.vmap(torch.func.jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = torch.func.vmap(torch.func.jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    einsum_expr = None
    if compute == 'full':
        einsum_expr = 'Naf,Mbf->NMab'
    elif compute == 'trace':
        einsum_expr = 'Naf,Maf->NM'
    elif compute == 'diagonal':
        einsum_expr = 'Naf,Maf->NMa'
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)
for c in ['full', 'trace', 'diagonal']:
    r = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, c)
    print(c, r.shape, round(r.abs().sum().item(), 3))
def empirical_ntk_ntk_vps(func, params, x1, x2, compute='full'):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)
        def func_x2(params):
            return func(params, x2)
        output, vjp_fn = torch.func.vjp(func_x1, params)
        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = torch.func.jvp(func_x2, (params,), vjps)
            return jvps
        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return torch.func.vmap(get_ntk_slice)(basis)
    result = torch.func.vmap(torch.func.vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == 'full':
        return result
    if compute == 'trace':
        return torch.einsum('NMKK->NM', result)
    if compute == 'diagonal':
        return torch.einsum('NMKK->NMK', result)
r1 = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'full')
r2 = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, 'full')
print(r2.shape, torch.allclose(r1, r2, atol=1e-5))
""",
    r"""
print(torch.einsum('NMKK->NM', torch.arange(16.).view(1, 1, 4, 4)), torch.einsum('NMKK->NMK', torch.arange(16.).view(1, 1, 4, 4)))
print(torch.einsum('Naf,Mbf->NMab', torch.ones(2, 3, 4), torch.ones(1, 2, 4)).shape, torch.einsum('ii', torch.eye(3)))
try:
    torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(2, 3))
except RuntimeError as e:
    print(e)
""",
]

# What a logging subclass sees where ember's Tensor protocol differs from torch's.
SUBCLASS_GAPS = [
    ("ember does not dispatch __reduce_ex__ (pickling) through __torch_function__: the handler "
     "sees the stride() it asks instead of '__reduce_ex__'",
     r"""
class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})
log = []
t = torch.ones(2).as_subclass(LoggingTensor)
log.clear()
t.__reduce_ex__(2)
print(log)
"""),
    ("torch's default __deepcopy__ of a non-wrapper subclass whose handler is dispatched refuses "
     "(its new_empty comes back a plain Tensor); ember's copies it",
     r"""
import copy
class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})
t = torch.ones(2).as_subclass(LoggingTensor)
try:
    print(type(copy.deepcopy(t)).__name__)
except RuntimeError as e:
    print(str(e)[:80])
"""),
]

# Parametrized and pruned modules through torch.func: functional_call with the original
# tensors, grads of them, and stacking parametrized ensembles.
PARAM_FUNC = [
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 2)\nP.register_parametrization(m, "weight", Double())\nprint([n for n, _ in m.named_parameters()])\np = {k: v.detach() for k, v in m.named_parameters()}\nprint(torch.allclose(torch.func.functional_call(m, p, torch.ones(1, 2)), m(torch.ones(1, 2))))\nout = torch.func.functional_call(m, {"parametrizations.weight.original": torch.ones(2, 2)}, torch.ones(1, 2))\nprint(out - m.bias)',
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 1)\nP.register_parametrization(m, "weight", Double())\np = {k: v.detach() for k, v in m.named_parameters()}\ng = torch.func.grad(lambda p, x: torch.func.functional_call(m, p, (x,)).sum())(p, torch.ones(3, 2))\nprint({k: v for k, v in g.items()})',
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 2)\nP.register_parametrization(m, "weight", Double())\ntry:\n    print(torch.func.functional_call(m, {"weight": torch.ones(2, 2)}, torch.ones(1, 2)) - m.bias)\nexcept Exception as e:\n    print(type(e).__name__, str(e)[:120])',
    'models = [torch.nn.utils.parametrizations.weight_norm(nn.Linear(2, 2)) for _ in range(2)]\nparams, buffers = torch.func.stack_module_state(models)\nprint({k: tuple(v.shape) for k, v in params.items()})\nout = torch.func.vmap(lambda p, x: torch.func.functional_call(models[0], p, (x,)), in_dims=(0, None))(params, torch.ones(3, 2))\nprint(out.shape, torch.allclose(out[1], models[1](torch.ones(3, 2)), atol=1e-6))',
    'import importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Linear(3, 2)\nprune.l1_unstructured(m, "weight", amount=0.5)\np = {k: v.detach() for k, v in m.named_parameters()}\nb = {k: v.detach() for k, v in m.named_buffers()}\nprint(sorted(p), sorted(b))\nprint(torch.allclose(torch.func.functional_call(m, (p, b), torch.ones(1, 3)), m(torch.ones(1, 3))))\nout = torch.func.functional_call(m, {"weight_mask": torch.ones(2, 3)}, torch.ones(1, 3))\nprint(torch.allclose(out, torch.ones(1, 3) @ m.weight_orig.T + m.bias))',
]
PARAM_FUNC += [
    'P = torch.nn.utils.parametrize\nclass Symmetric(nn.Module):\n    def forward(self, X):\n        return X.triu() + X.triu(1).transpose(-1, -2)\n    def right_inverse(self, A):\n        return A.triu()\nm = nn.Linear(2, 2, bias=False)\nP.register_parametrization(m, "weight", Symmetric())\nw0 = m.weight.detach().clone(); o0 = m.parametrizations.weight.original.detach().clone()\nX = torch.tensor([[1., 2.], [3., 4.]])\nprint(torch.func.functional_call(m, {"weight": X}, torch.eye(2)))\nprint(torch.equal(m.weight, w0), torch.equal(m.parametrizations.weight.original, o0))',
    'm = torch.nn.utils.parametrizations.weight_norm(nn.Linear(2, 2, bias=False))\nw = torch.tensor([[1., 0.], [0., 2.]])\nprint(torch.func.functional_call(m, {"weight": w}, torch.eye(2)))\nprint(torch.allclose(m(torch.eye(2)), m.weight.T))',
    'm = nn.Linear(2, 2)\nm.extra = torch.ones(1)\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.scale = torch.ones(1)\n        self.flag = True\n    def forward(self, x):\n        return x * self.scale\nmm = M()\nprint(torch.func.functional_call(mm, {"scale": torch.full((1,), 3.)}, torch.ones(2)), mm.scale)\nprint(torch.func.functional_call(mm, {"missing": torch.ones(1)}, torch.ones(2)), hasattr(mm, "missing"))\ntry:\n    torch.func.functional_call(mm, {"flag": torch.ones(1)}, torch.ones(2))\nexcept TypeError as e:\n    print(e)',
]

# Combinations the tutorials' users put together: compiled parametrized or pruned models,
# forward AD through a parametrization, channels-last models under torch.func, deepcopies.
COMBINATIONS = [
    'm = torch.nn.utils.parametrizations.orthogonal(nn.Linear(3, 3))\ncm = torch.compile(m, backend="eager")\nprint(list(cm.state_dict())[:3], cm(torch.eye(3)).shape, torch.allclose(cm.weight @ cm.weight.T, torch.eye(3), atol=1e-5))',
    'import copy, importlib\nprune = importlib.import_module(torch.__name__ + ".nn.utils.prune")\nm = nn.Linear(3, 2)\nprune.l1_unstructured(m, "weight", 0.5)\ncm = torch.compile(m, backend="eager")\nprint(sorted(cm.state_dict()), (cm.weight == 0).sum().item())\nc2 = copy.deepcopy(cm)\nprint(torch.equal(c2(torch.ones(1, 3)), cm(torch.ones(1, 3))))',
    'fw = torch.autograd.forward_ad\nP = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 1, bias=False)\nP.register_parametrization(m, "weight", Double())\nt = torch.ones(1, 2)\nwith fw.dual_level():\n    out = torch.func.functional_call(m, {"parametrizations.weight.original": fw.make_dual(m.parametrizations.weight.original.detach(), t)}, torch.ones(3, 2))\n    print(fw.unpack_dual(out).tangent)',
    'P = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 1, bias=False)\nP.register_parametrization(m, "weight", Double())\np = m.parametrizations.weight.original.detach()\nout, jvp = torch.func.jvp(lambda w: torch.func.functional_call(m, {"parametrizations.weight.original": w}, torch.ones(3, 2)), (p,), (torch.ones(1, 2),))\nprint(jvp, torch.func.jacrev(lambda w: torch.func.functional_call(m, {"parametrizations.weight.original": w}, torch.ones(1, 2)))(p))',
    'm = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2)).to(memory_format=torch.channels_last)\nx = torch.randn(3, 3, 5, 5).to(memory_format=torch.channels_last)\np = {k: v.detach() for k, v in m.named_parameters()}\ng = torch.func.vmap(torch.func.grad(lambda p, xi: torch.func.functional_call(m, p, (xi.unsqueeze(0),)).sum()), in_dims=(None, 0))(p, x)\nprint(g["0.weight"].shape, g["0.weight"].stride(), round(g["0.weight"].abs().sum().item(), 2))',
    'import copy\nP = torch.nn.utils.parametrize\nclass Double(nn.Module):\n    def forward(self, X):\n        return X * 2\nm = nn.Linear(2, 2)\nP.register_parametrization(m, "weight", Double())\nmodels = [copy.deepcopy(m) for _ in range(2)]\nparams, buffers = torch.func.stack_module_state(models)\nprint(sorted(params))\nout = torch.func.vmap(lambda p, x: torch.func.functional_call(m, p, (x,)), in_dims=(0, None))(params, torch.ones(1, 2))\nprint(out.shape, torch.allclose(out[0], m(torch.ones(1, 2))))',
    'sd_model = torch.nn.utils.parametrizations.weight_norm(nn.Linear(2, 2))\nimport io\nbuf = io.BytesIO()\ntorch.save(sd_model.state_dict(), buf)\nbuf.seek(0)\nm2 = torch.nn.utils.parametrizations.weight_norm(nn.Linear(2, 2))\nprint(m2.load_state_dict(torch.load(buf)), torch.equal(m2.weight, sd_model.weight))\nplain = nn.Linear(2, 2)\ntry:\n    plain.load_state_dict(sd_model.state_dict())\nexcept RuntimeError as e:\n    print(str(e).splitlines()[0])',
]

# Scheduler usages the recipes warn about: step(epoch), schedulers built on the same optimizer,
# ReduceLROnPlateau in sequences, last_epoch resumption.
SCHEDULER_USAGE = [
    'import warnings\nopt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter("always")\n    opt.step()\n    s.step(3)\nprint(s.get_last_lr(), s.last_epoch, [str(x.message)[:70] for x in w])',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\np = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)\ntry:\n    torch.optim.lr_scheduler.SequentialLR(opt, [p], milestones=[])\nexcept (ValueError, TypeError) as e:\n    print(type(e).__name__, e)\ntry:\n    torch.optim.lr_scheduler.ChainedScheduler([p])\n    print("ok")\nexcept (ValueError, TypeError) as e:\n    print(type(e).__name__, e)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)\nfor _ in range(3):\n    opt.step(); s.step()\nopt2 = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\nfor g in opt2.param_groups:\n    g["initial_lr"] = 0.1\ns2 = torch.optim.lr_scheduler.StepLR(opt2, 1, gamma=0.5, last_epoch=2)\nprint(s2.get_last_lr(), s2.last_epoch, opt2.param_groups[0]["lr"])\nopt2.step(); s2.step()\nprint(s2.get_last_lr())',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns1 = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)\ns2 = torch.optim.lr_scheduler.ExponentialLR(opt, 0.9)\nfor _ in range(2):\n    opt.step(); s1.step(); s2.step()\nprint([round(x, 6) for x in s1.get_last_lr()], [round(x, 6) for x in s2.get_last_lr()], round(opt.param_groups[0]["lr"], 6))',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2, eta_min=0.01)\nl = []\nfor _ in range(6):\n    opt.step(); s.step(); l.append(round(s.get_last_lr()[0], 6))\nprint(l)',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=5, three_phase=True, div_factor=5, final_div_factor=10)\nl = []\nfor _ in range(5):\n    l.append(round(s.get_last_lr()[0], 6)); opt.step(); s.step()\nprint(l)',
    'opt = torch.optim.Adam(nn.Linear(2, 2).parameters(), lr=0.1)\ns = torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9)\nl = []\nfor _ in range(5):\n    opt.step(); s.step(); l.append((round(s.get_last_lr()[0], 6), opt.param_groups[0]["betas"]))\nprint(l)',
]

# functional_call with stateful modules: batch norm updating the buffers passed in, hooks,
# num_batches_tracked, and module state after the call.
FUNCTIONAL_STATE = [
    'bn = nn.BatchNorm1d(2)\nb = {"running_mean": torch.zeros(2), "running_var": torch.ones(2), "num_batches_tracked": torch.tensor(0)}\nx = torch.tensor([[1., 2.], [3., 6.]])\nout = torch.func.functional_call(bn, b, x)\nprint(b["running_mean"], b["running_var"], b["num_batches_tracked"], bn.running_mean, bn.num_batches_tracked)',
    'm = nn.Linear(2, 2)\nseen = []\nm.register_forward_pre_hook(lambda mod, a: seen.append("pre"))\nm.register_forward_hook(lambda mod, a, o: seen.append(("post", o.shape)))\ntorch.func.functional_call(m, {"weight": torch.eye(2)}, torch.ones(1, 2))\nprint(seen)',
    'm = nn.Linear(2, 2)\nw = m.weight\nout = torch.func.functional_call(m, {"weight": torch.eye(2, requires_grad=True)}, torch.ones(1, 2))\nprint(m.weight is w, type(m.weight).__name__, out.grad_fn.name())\ntry:\n    torch.func.functional_call(m, {"weight": torch.eye(2)}, torch.ones(1, 2), kwargs={"bogus": 1})\nexcept TypeError as e:\n    print(e)',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.l = nn.Linear(2, 2)\n    def forward(self, x, scale=1.0):\n        return self.l(x) * scale\nm = M()\nprint(torch.func.functional_call(m, {"l.weight": torch.eye(2), "l.bias": torch.zeros(2)}, (torch.ones(1, 2),), {"scale": 3.0}))\nprint(torch.func.functional_call(m, {"l.weight": torch.eye(2), "l.bias": torch.zeros(2)}, torch.ones(1, 2)))',
    'm = nn.Linear(2, 2)\ntry:\n    torch.func.functional_call(m, {"weight": [[1., 0.], [0., 1.]]}, torch.ones(1, 2))\nexcept TypeError as e:\n    print(e)\ntry:\n    torch.func.functional_call(m, [{"weight": torch.eye(2)}], torch.ones(1, 2))\nexcept Exception as e:\n    print(type(e).__name__, str(e)[:100])',
    'bn = nn.BatchNorm1d(2)\nbn.eval()\nb = {"running_mean": torch.ones(2), "running_var": torch.full((2,), 4.)}\nprint(torch.func.functional_call(bn, b, torch.tensor([[3., 5.]])), bn.running_mean)',
]

# Forward AD through whole models: batch norm in training, dropout with a seed, recurrent and
# attention layers, compared with the double-backward jvp.
FWAD_MODELS = [
    'fw = torch.autograd.forward_ad\nm = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 2))\nx = torch.randn(5, 3); t = torch.randn(5, 3)\nwith fw.dual_level():\n    out = m(fw.make_dual(x, t))\n    j = fw.unpack_dual(out).tangent\nprint(j.shape, m[1].num_batches_tracked)\nm.eval()\n_, j2 = torch.func.jvp(m, (x,), (t,))\nprint(j2.shape, round(j2.abs().sum().item(), 3))',
    'fw = torch.autograd.forward_ad\nm = nn.MultiheadAttention(4, 2, batch_first=True)\nx = torch.randn(2, 3, 4); t = torch.randn(2, 3, 4)\nwith fw.dual_level():\n    d = fw.make_dual(x, t)\n    out, w = m(d, d, d)\n    j = fw.unpack_dual(out).tangent\n    jw = fw.unpack_dual(w).tangent\nprint(j.shape, jw.shape, round(jw.sum().item(), 4))',
    'fw = torch.autograd.forward_ad\nm = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8, 2))\nx = torch.randn(1, 1, 4, 4); t = torch.randn(1, 1, 4, 4)\nwith fw.dual_level():\n    j = fw.unpack_dual(m(fw.make_dual(x, t))).tangent\n_, j2 = torch.func.jvp(m, (x,), (t,))\nprint(torch.allclose(j, j2, atol=1e-5), j.shape)',
    'fw = torch.autograd.forward_ad\ntorch.manual_seed(3)\nm = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))\nx = torch.ones(2, 4); t = torch.ones(2, 4)\ntorch.manual_seed(5)\nwith fw.dual_level():\n    d = fw.make_dual(x, t)\n    out = m(d)\n    p, j = fw.unpack_dual(out)\nprint(((p == 0) == (j == 0)).all(), (p == 0).sum().item())',
]

# Loading checkpoints across devices as the save/load recipes do: map_location as a string,
# a device, a dict and a function; saving to a file path and reading it back.
LOAD_DEVICES = [
    'import io\nm = nn.Linear(2, 2)\nbuf = io.BytesIO()\ntorch.save({"a": m.state_dict()}, buf)\nfor ml in ["cpu", torch.device("cpu"), {"cpu": "cpu"}, lambda storage, loc: storage]:\n    buf.seek(0)\n    ck = torch.load(buf, map_location=ml)\n    print(type(ml).__name__, ck["a"]["weight"].device, torch.equal(ck["a"]["weight"], m.weight))',
    'import io\nbuf = io.BytesIO()\ntorch.save(torch.ones(2), buf)\nbuf.seek(0)\nseen = []\ndef ml(storage, loc):\n    seen.append((isinstance(storage, torch.UntypedStorage), storage.nbytes(), loc))\n    return storage\nprint(torch.load(buf, map_location=ml), seen)',
    'import os, tempfile\nm = nn.Linear(2, 2)\nd = tempfile.mkdtemp()\nPATH = os.path.join(d, "model.pt")\ntorch.save({"modelA_state_dict": m.state_dict(), "epoch": 3}, PATH)\nck = torch.load(PATH, weights_only=True)\nprint(sorted(ck), ck["epoch"], os.path.getsize(PATH) > 0)\nos.remove(PATH); os.rmdir(d)',
    'import io\nbuf = io.BytesIO()\ntry:\n    torch.load(buf, map_location="cuda:0") if False else torch.device("cuda:0")\n    print("device ok")\nexcept RuntimeError as e:\n    print(e)\ntorch.save(torch.ones(1), buf)\nbuf.seek(0)\ntry:\n    torch.load(buf, map_location="meta")\n    print("meta ok")\nexcept Exception as e:\n    print(type(e).__name__, str(e)[:80])',
]

# Custom schedulers and optimizers as users write them: an LRScheduler subclass with warmup,
# an Optimizer subclass with its own step and state.
CUSTOM_SCHED_OPT = [
    r"""
class WarmupLR(torch.optim.lr_scheduler.LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        scale = min(1.0, (self.last_epoch + 1) / self.warmup)
        return [base * scale for base in self.base_lrs]
opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1)
s = WarmupLR(opt, 4)
lrs = []
for _ in range(6):
    lrs.append(round(opt.param_groups[0]["lr"], 6)); opt.step(); s.step()
print(lrs, s.last_epoch, sorted(s.state_dict()))
""",
    r"""
class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "buf" not in state:
                    state["buf"] = torch.zeros_like(p)
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                p.add_(buf, alpha=-group["lr"])
        return loss
m = nn.Linear(2, 1)
opt = MySGD(m.parameters(), lr=0.1, momentum=0.9)
print(opt)
x = torch.randn(4, 2); y = torch.randn(4, 1)
for _ in range(3):
    def closure():
        opt.zero_grad()
        l = F.mse_loss(m(x), y)
        l.backward()
        return l
    print(round(opt.step(closure).item(), 5))
sd = opt.state_dict()
print(sorted(sd["state"][0]), sd["param_groups"])
opt2 = MySGD(nn.Linear(2, 1).parameters())
opt2.load_state_dict(sd)
print(opt2.param_groups[0]["lr"], torch.equal(opt2.state[opt2.param_groups[0]["params"][0]]["buf"], opt.state[m.weight]["buf"]))
s = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5)
opt.step(); s.step()
print(s.get_last_lr())
try:
    MySGD(m.parameters(), lr=-1)
except ValueError as e:
    print(e)
""",
    r"""
class Poly(torch.optim.lr_scheduler.LRScheduler):
    def __init__(self, optimizer, total, power=2.0, last_epoch=-1):
        self.total, self.power = total, power
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        if self.last_epoch == 0 or self.last_epoch > self.total:
            return [group["lr"] for group in self.optimizer.param_groups]
        decay = ((1.0 - self.last_epoch / self.total) / (1.0 - (self.last_epoch - 1) / self.total)) ** self.power
        return [group["lr"] * decay for group in self.optimizer.param_groups]
opt = torch.optim.SGD([{"params": [nn.Parameter(torch.ones(1))]}, {"params": [nn.Parameter(torch.ones(1))], "lr": 1.0}], lr=0.1)
s = Poly(opt, 4)
out = []
for _ in range(5):
    opt.step(); s.step(); out.append([round(x, 6) for x in s.get_last_lr()])
print(out)
""",
]

SNIPPETS = [SETUP + s for s in (STN + FGSM + TRANSFORMER_LM + KD + WORD_EMBEDDINGS
                                + SEQUENCE_MODELS + BILSTM_CRF + NLP_GENERATION
                                + NLP_TRANSLATION + FUNC_ENSEMBLE + JACOBIANS + FORWARD_AD
                                + DOUBLE_BACKWARD + FUSED_CONV_BN + EXTENDING_MORE
                                + PARAMETRIZATIONS + PRUNING + CHANNELS_LAST + OPTIM_RECIPES
                                + SAVE_MULTIPLE + TORCHSCRIPT + COMPILE + TUTORIAL_DETAILS
                                + RECIPE_DETAILS + JIT_MORE + DYNAMO + OP_TANGENTS + REPRS
                                + SAVE_MORE + FUNC_MORE + PER_SAMPLE_LAYERS
                                + CHANNELS_LAST_OPS + FUNC_FUNCTIONS + PRUNE_PARAM_MORE
                                + OPTIM_FLAGS + COMPILE_MORE + TRANSFORMER_ERRORS
                                + ENSEMBLE_CAVEATS + SUBCLASS_FUNCS + NTK + PARAM_FUNC
                                + COMBINATIONS + SCHEDULER_USAGE + FUNCTIONAL_STATE
                                + FWAD_MODELS + LOAD_DEVICES + CUSTOM_SCHED_OPT
                                + OP_TANGENTS_SECOND + FUNC_REFUSALS)]
SNIPPETS += [SETUP + JIT_LOAD + s for s in TORCHSCRIPT_SRC + JIT_MORE_SRC + TORCHSCRIPT_TRACED]

BUGS = [(reason, SETUP + s)
        for reason, s in FUNC_GAPS + FUNC_FUNCTION_GAPS + SUBCLASS_GAPS]
BUGS += [(reason, SETUP + JIT_LOAD + s) for reason, s in TORCHSCRIPT_GAPS]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=250)
