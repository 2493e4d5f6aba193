"""Programs written the way "Dive into Deep Learning" (d2l.ai, PyTorch edition) writes them,
chapter by chapter, self-contained (small seeded synthetic data, no d2l package), run under real
torch and under ember (`import ember as torch`): what they print must be identical.
Preliminaries, linear and softmax regression from scratch, MLPs, dropout, weight decay,
parameter management and lazy layers, custom layers, saving and loading, convolutions by hand,
the classic CNNs at tiny sizes, sequence models, text preprocessing, RNNs from scratch and
concise, encoder-decoders, attention and Transformers, the optimisation chapter's algorithms
and schedules, word2vec/GloVe/BERT pieces, recommenders, GANs, Gaussian processes.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PRELUDE = "import math\nnn = torch.nn; F = torch.nn.functional\n"

PROGRAMS = {
    'c02_autograd': PRELUDE + r'''
x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)
x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c
torch.manual_seed(0)
a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
x = torch.arange(4.0, requires_grad=True)
y = x * x
try:
    y.backward()
except RuntimeError as e:
    print(e)
y = 2 * torch.dot(x, x)
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print(e)
print(y, y.grad_fn, x.grad)
''',
    'c02_linalg': PRELUDE + r'''
x = torch.tensor(3.0)
y = torch.tensor(2.0)
print(x + y, x * y, x / y, x**y)
x = torch.arange(3)
print(x, x[2], len(x), x.shape)
A = torch.arange(6).reshape(3, 2)
print(A, A.T)
A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)
print(torch.arange(24).reshape(2, 3, 4))
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()
print(A, A + B)
print(A * B)
a = 2
X = torch.arange(24).reshape(2, 3, 4)
print(a + X, (a * X).shape)
x = torch.arange(3, dtype=torch.float32)
print(x, x.sum())
print(A.shape, A.sum())
print(A.shape, A.sum(axis=0).shape)
print(A.shape, A.sum(axis=1).shape)
print(A.sum(axis=[0, 1]) == A.sum())
print(A.mean(), A.sum() / A.numel())
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A, sum_A.shape)
print(A / sum_A)
print(A.cumsum(axis=0))
y = torch.ones(3, dtype = torch.float32)
print(x, y, torch.dot(x, y))
print(torch.sum(x * y))
print(A.shape, x.shape, torch.mv(A, x), A@x)
B = torch.ones(3, 4)
print(torch.mm(A, B), A@B)
u = torch.tensor([3.0, -4.0])
print(torch.norm(u))
print(torch.abs(u).sum())
print(torch.norm(torch.ones((4, 9))))
try:
    torch.mv(A, torch.ones(4))
except RuntimeError as e:
    print(e)
try:
    torch.dot(x, torch.arange(3))
except RuntimeError as e:
    print(e)
print(len(torch.arange(24).reshape(2,3,4)))
try:
    print(A / A.sum(axis=1))
except RuntimeError as e:
    print(e)
''',
    'c02_ndarray': PRELUDE + r'''
x = torch.arange(12, dtype=torch.float32)
print(x, x.numel(), x.shape)
X = x.reshape(3, 4)
print(X)
print(torch.zeros((2, 3, 4)))
print(torch.ones((2, 3, 4)))
torch.manual_seed(0)
print(torch.randn(3, 4))
print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
print(X[-1], X[1:3])
X[1, 2] = 17
print(X)
X[:2, :] = 12
print(X)
print(torch.exp(x))
x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)
X = torch.arange(12, dtype=torch.float32).reshape((3,4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1))
print(X == Y)
print(X.sum())
a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b)
print(a + b)
before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
print('id(Z):', id(Z) == id(Z))
Z[:] = X + Y
before = id(X)
X += Y
print(id(X) == before)
A = X.numpy()
B = torch.from_numpy(A)
print(type(A), type(B).__name__)
a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))
print(X < Y, X > Y)
''',
    'c02_prob': PRELUDE + r'''
import random
Multinomial = torch.distributions.multinomial.Multinomial
torch.manual_seed(0)
fair_probs = torch.ones(6) / 6
print(Multinomial(1, fair_probs).sample())
print(Multinomial(10, fair_probs).sample())
counts = Multinomial(1000, fair_probs).sample()
print(counts / 1000)
fair_probs = torch.tensor([0.5, 0.5])
counts = Multinomial(100, fair_probs).sample()
print(counts / 100)
counts = Multinomial(1, fair_probs).sample((10,))
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
estimates = estimates.numpy()
print(estimates[-1], estimates.dtype)
m = Multinomial(10, torch.tensor([0.2, 0.3, 0.5]))
print(m, m.mean, m.variance)
print(m.log_prob(torch.tensor([2., 3., 5.])))
print(torch.distributions.Normal(0, 1).cdf(torch.tensor([0., 1.96])))
''',
    'c03_concise': PRELUDE + r'''
data = torch.utils.data
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))
torch.manual_seed(1)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 100)
def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)
batch_size = 10
data_iter = load_array((features, labels), batch_size)
print(next(iter(data_iter)))
net = nn.Sequential(nn.Linear(2, 1))
print(net[0].weight.data.normal_(0, 0.01))
print(net[0].bias.data.fill_(0))
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
print(trainer)
num_epochs = 3
for epoch in range(num_epochs):
    for X, y in data_iter:
        l = loss(net(X) ,y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')
w = net[0].weight.data
print('w的估计误差：', true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print('b的估计误差：', true_b - b)
print(net[0].weight.grad, net[0].bias.grad)
print(net.state_dict())
h = nn.HuberLoss()
print(h(net(features), labels))
print(loss, h, nn.MSELoss(reduction='sum'))
print(data_iter.dataset[0], len(data_iter), len(data_iter.dataset))
''',
    'c03_dataloader': PRELUDE + r'''
data = torch.utils.data
torch.manual_seed(0)
X = torch.arange(40, dtype=torch.float32).reshape(20, 2); y = torch.arange(20) % 3
ds = data.TensorDataset(X, y)
def get_dataloader_workers():
    return 2
it = data.DataLoader(ds, batch_size=6, shuffle=True, num_workers=get_dataloader_workers())
for Xb, yb in it:
    print(Xb.shape, yb.tolist())
print(len(it), it.batch_size, it.num_workers, type(it.sampler).__name__)
it2 = data.DataLoader(ds, batch_size=6, shuffle=False, drop_last=True)
print([b[1].tolist() for b in it2], len(it2))
tr, va = data.random_split(ds, [15, 5], generator=torch.Generator().manual_seed(42))
print(len(tr), len(va), tr.indices[:5], va.indices, type(tr).__name__)
print(data.random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(1))[1].indices)
sub = data.Subset(ds, [0, 5, 7])
print(sub[1], len(sub))
class ArrDS(data.Dataset):
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i): return {'x': torch.tensor([i, i * 2.]), 'y': i % 2, 'name': f'item{i}'}
batch = next(iter(data.DataLoader(ArrDS(5), batch_size=3)))
print(batch)
print(next(iter(data.DataLoader(ArrDS(5), batch_size=2, collate_fn=lambda b: [d['y'] for d in b]))))
print(next(iter(data.DataLoader([(1, 2.5), (3, 4.5)], batch_size=2))))
print(next(iter(data.DataLoader([torch.ones(2), torch.zeros(2)], batch_size=2))).dtype)
try:
    next(iter(data.DataLoader([torch.ones(2), torch.zeros(3)], batch_size=2)))
except RuntimeError as e:
    print(e)
g = torch.Generator(); g.manual_seed(3)
print(list(data.RandomSampler(range(6), generator=g)), list(data.BatchSampler(range(7), 3, False)))
print(list(data.WeightedRandomSampler([0.1, 0.9, 0.5], 5, generator=torch.Generator().manual_seed(0))))
''',
    'c03_linreg': PRELUDE + r'''
import random
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))
torch.manual_seed(0); random.seed(0)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 100)
print('features:', features[0],'\nlabel:', labels[0])
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]
batch_size = 10
for X, y in data_iter(batch_size, features, labels):
    print(X[:2], '\n', y[:2])
    break
w = torch.normal(0, 0.01, size=(2,1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
def linreg(X, w, b):
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'w的估计误差: {true_w - w.reshape(true_w.shape)}')
print(f'b的估计误差: {true_b - b}')
print(w, b)
''',
    'c03_softmax': PRELUDE + r'''
X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))
def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition
torch.manual_seed(0)
X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))
num_inputs = 20; num_outputs = 4
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)
y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])
def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])
print(cross_entropy(y_hat, y))
def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())
print(accuracy(y_hat, y) / len(y))
class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n
    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]
    def reset(self):
        self.data = [0.0] * len(self.data)
    def __getitem__(self, idx):
        return self.data[idx]
Xs = torch.randn(64, 4, 5)
ys = torch.randint(0, 4, (64,))
def updater(batch_size, lr=0.1):
    with torch.no_grad():
        for param in [W, b]:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
for epoch in range(3):
    metric = Accumulator(3)
    for i in range(0, 64, 16):
        X, yb = Xs[i:i+16], ys[i:i+16]
        y_hat = net(X)
        l = cross_entropy(y_hat, yb)
        l.sum().backward()
        updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, yb), yb.numel())
    print(f'epoch {epoch + 1}, loss {metric[0] / metric[2]:.3f}, train acc {metric[1] / metric[2]:.3f}')
print(W.grad.abs().sum(), b)
# concise
net2 = nn.Sequential(nn.Flatten(), nn.Linear(20, 4))
def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
net2.apply(init_weights)
print(net2)
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net2.parameters(), lr=0.1)
for epoch in range(3):
    for i in range(0, 64, 16):
        l = loss(net2(Xs[i:i+16]), ys[i:i+16])
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
    print(f'{l.mean():.3f}', l)
print(softmax(torch.tensor([[100., 1000.]])))
print(torch.log(torch.tensor([0.0, 1e-45])))
''',
    'c04_dropout': PRELUDE + r'''
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)
torch.manual_seed(0)
X= torch.arange(16, dtype = torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))
num_inputs, num_outputs, num_hiddens1, num_hiddens2 = 12, 3, 16, 16
dropout1, dropout2 = 0.2, 0.5
class Net(nn.Module):
    def __init__(self, num_inputs, num_outputs, num_hiddens1, num_hiddens2,
                 is_training = True):
        super(Net, self).__init__()
        self.num_inputs = num_inputs
        self.training = is_training
        self.lin1 = nn.Linear(num_inputs, num_hiddens1)
        self.lin2 = nn.Linear(num_hiddens1, num_hiddens2)
        self.lin3 = nn.Linear(num_hiddens2, num_outputs)
        self.relu = nn.ReLU()
    def forward(self, X):
        H1 = self.relu(self.lin1(X.reshape((-1, self.num_inputs))))
        if self.training == True:
            H1 = dropout_layer(H1, dropout1)
        H2 = self.relu(self.lin2(H1))
        if self.training == True:
            H2 = dropout_layer(H2, dropout2)
        out = self.lin3(H2)
        return out
net = Net(num_inputs, num_outputs, num_hiddens1, num_hiddens2)
print(net)
Xs = torch.randn(20, 12); ys = torch.randint(0, 3, (20,))
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
loss = nn.CrossEntropyLoss(reduction='none')
for epoch in range(3):
    l = loss(net(Xs), ys); trainer.zero_grad(); l.mean().backward(); trainer.step()
    print(f'{l.mean():.3f}')
net = nn.Sequential(nn.Flatten(),
        nn.Linear(12, 16), nn.ReLU(), nn.Dropout(dropout1),
        nn.Linear(16, 16), nn.ReLU(), nn.Dropout(dropout2),
        nn.Linear(16, 3))
def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
net.apply(init_weights)
print(net)
out = net(Xs)
print(out[:2])
net.eval()
print(net(Xs)[:2], net.training, net[3].training)
print(nn.Dropout(0.5)(torch.ones(10)))
try:
    nn.Dropout(1.5)
except ValueError as e:
    print(e)
''',
    'c04_mlp': PRELUDE + r'''
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[75:85], y[75:85])
y = torch.sigmoid(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad[::20])
y = torch.tanh(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad[::20])
print(x.detach()[:3], x.shape, x[-1])
def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)
torch.manual_seed(0)
num_inputs, num_outputs, num_hiddens = 16, 4, 8
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]
print(W1.shape, b1, W1.is_leaf, W1.grad_fn)
def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X@W1 + b1)
    return (H@W2 + b2)
loss = nn.CrossEntropyLoss(reduction='none')
updater = torch.optim.SGD(params, lr=0.1)
X = torch.randn(32, 4, 4); y = torch.randint(0, 4, (32,))
for epoch in range(5):
    l = loss(net(X), y)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    print(f'epoch {epoch+1}, loss {l.mean():.3f}')
print(relu(torch.tensor([-1., 0., 2.])), torch.max(torch.tensor([-1., 0.]), torch.tensor(0.)))
M = torch.normal(0, 1, size=(4,4))
print('一个矩阵 \n',M)
for i in range(3):
    M = torch.mm(M,torch.normal(0, 1, size=(4, 4)))
print('乘以3个矩阵后\n', M)
print(torch.sigmoid(torch.tensor([-100., 100.])), torch.tanh(torch.tensor([20.])))
''',
    'c04_poly_kfold': PRELUDE + r'''
import numpy as np
data = torch.utils.data
max_degree = 20
n_train, n_test = 20, 20
true_w = np.zeros(max_degree)
true_w[0:4] = np.array([5, 1.2, -3.4, 5.6])
rng = np.random.RandomState(0)
features = rng.normal(size=(n_train + n_test, 1))
rng.shuffle(features)
poly_features = np.power(features, np.arange(max_degree).reshape(1, -1))
for i in range(max_degree):
    poly_features[:, i] /= math.gamma(i + 1)
labels = np.dot(poly_features, true_w)
labels += rng.normal(scale=0.1, size=labels.shape)
true_w, features, poly_features, labels = [torch.tensor(x, dtype=torch.float32) for x in [true_w, features, poly_features, labels]]
print(features[:2], poly_features[:2, :4], labels[:2])
def evaluate_loss(net, data_iter, loss):
    tot, n = 0.0, 0
    for X, y in data_iter:
        out = net(X)
        y = y.reshape(out.shape)
        l = loss(out, y)
        tot += l.sum(); n += l.numel()
    return tot / n
def train(train_features, test_features, train_labels, test_labels, num_epochs=40):
    torch.manual_seed(0)
    loss = nn.MSELoss(reduction='none')
    input_shape = train_features.shape[-1]
    net = nn.Sequential(nn.Linear(input_shape, 1, bias=False))
    batch_size = min(10, train_labels.shape[0])
    g = torch.Generator().manual_seed(1)
    train_iter = data.DataLoader(data.TensorDataset(train_features, train_labels.reshape(-1, 1)), batch_size, shuffle=True, generator=g)
    test_iter = data.DataLoader(data.TensorDataset(test_features, test_labels.reshape(-1, 1)), batch_size, shuffle=False)
    trainer = torch.optim.SGD(net.parameters(), lr=0.01)
    for epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad(); l = loss(net(X), y); l.mean().backward(); trainer.step()
        if epoch == 0 or (epoch + 1) % 20 == 0:
            print(epoch + 1, f'{evaluate_loss(net, train_iter, loss):.4f}', f'{evaluate_loss(net, test_iter, loss):.4f}')
    print('weight:', net[0].weight.data.numpy().round(2))
train(poly_features[:n_train, :4], poly_features[n_train:, :4], labels[:n_train], labels[n_train:])
train(poly_features[:n_train, :2], poly_features[n_train:, :2], labels[:n_train], labels[n_train:])
loss = nn.MSELoss()
def log_rmse(net, features, labels):
    clipped_preds = torch.clamp(net(features), 1, float('inf'))
    rmse = torch.sqrt(loss(torch.log(clipped_preds), torch.log(labels)))
    return rmse.item()
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
torch.manual_seed(0)
X = torch.randn(25, 3); y = (X @ torch.tensor([[1.], [2.], [3.]]) + 10).clamp(min=1)
for i in range(5):
    Xt, yt, Xv, yv = get_k_fold_data(5, i, X, y)
    net = nn.Sequential(nn.Linear(3, 1))
    opt = torch.optim.Adam(net.parameters(), lr=0.5, weight_decay=0)
    for _ in range(10):
        opt.zero_grad(); l = loss(net(Xt), yt); l.backward(); opt.step()
    print(f'折{i + 1}，训练log rmse{log_rmse(net, Xt, yt):f}, 验证log rmse{log_rmse(net, Xv, yv):f}', Xt.shape, Xv.shape)
print(torch.clamp(torch.tensor([0.5, 2.]), 1, float('inf')), torch.tensor([float('inf')]).clamp(max=3))
''',
    'c04_weight_decay': PRELUDE + r'''
data = torch.utils.data
n_train, n_test, num_inputs, batch_size = 20, 100, 50, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))
torch.manual_seed(0)
train_data = synthetic_data(true_w, true_b, n_train)
print(train_data[1].shape)
train_iter = data.DataLoader(data.TensorDataset(*train_data), batch_size, shuffle=True)
def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]
def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2
def linreg(X, w, b):
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
def train(lambd):
    w, b = init_params()
    net, loss = lambda X: linreg(X, w, b), squared_loss
    num_epochs, lr = 5, 0.003
    for epoch in range(num_epochs):
        for X, y in train_iter:
            l = loss(net(X), y) + lambd * l2_penalty(w)
            l.sum().backward()
            sgd([w, b], lr, batch_size)
        print(f'{squared_loss(net(train_data[0]), train_data[1]).mean().item():.3f}')
    print('w的L2范数是：', f'{torch.norm(w).item():.4f}')
train(lambd=0)
train(lambd=3)
def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction='none')
    num_epochs, lr = 5, 0.003
    trainer = torch.optim.SGD([
        {"params":net[0].weight,'weight_decay': wd},
        {"params":net[0].bias}], lr=lr)
    print(trainer)
    for epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print('w的L2范数：', f'{net[0].weight.norm().item():.4f}')
train_concise(0)
train_concise(3)
''',
    'c05_custom_layer': PRELUDE + r'''
torch.manual_seed(0)
class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, X):
        return X - X.mean()
layer = CenteredLayer()
print(layer(torch.FloatTensor([1, 2, 3, 4, 5])))
net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())
Y = net(torch.rand(4, 8))
print(round(Y.mean().item(), 6))
print(Y.mean().abs() < 1e-6)
class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))
    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)
linear = MyLinear(5, 3)
print(linear.weight)
print(linear(torch.rand(2, 5)))
net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))
print(net(torch.rand(2, 64)))
print(net)
print(linear.state_dict())
print(torch.FloatTensor(2, 3).shape, torch.FloatTensor([[1, 2]]).dtype, torch.LongTensor([1, 2]))
class ReduceLayer(nn.Module):
    def __init__(self, i, j, k):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(k, i, j))
    def forward(self, X):
        return torch.einsum('bi,kij,bj->bk', X, self.weight, X)
r = ReduceLayer(3, 3, 2)
print(r(torch.ones(2, 3)).shape, r)
class HalfFFT(nn.Module):
    def forward(self, X):
        return torch.fft.fft(X)[..., :round(X.shape[-1] / 2)]
print(HalfFFT()(torch.tensor([[1., 2., 3., 4.]])))
''',
    'c05_gpu': PRELUDE + r'''
print(torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1'))
print(repr(torch.device('cpu')), repr(torch.device('cuda', 1)))
print(torch.cuda.device_count(), torch.cuda.is_available())
def try_gpu(i=0):
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f'cuda:{i}')
    return torch.device('cpu')
def try_all_gpus():
    devices = [torch.device(f'cuda:{i}') for i in range(torch.cuda.device_count())]
    return devices if devices else [torch.device('cpu')]
print(try_gpu(), try_gpu(10), try_all_gpus())
x = torch.tensor([1, 2, 3])
print(x.device)
X = torch.ones(2, 3, device=try_gpu())
print(X)
try:
    Y = torch.rand(2, 3, device=torch.device('cuda:1'))
except Exception as e:
    print(type(e).__name__, str(e) if not str(e).startswith('Torch not compiled') else 'not compiled')
try:
    X.cuda(1)
except Exception as e:
    print(type(e).__name__, str(e) if not str(e).startswith('Torch not compiled') else 'not compiled')
net = nn.Sequential(nn.Linear(3, 1))
net = net.to(device=try_gpu())
print(net[0].weight.data.device, next(net.parameters()).device.type)
print(X.to('cpu') is X, X.cpu() is X, X.to(torch.float64).dtype)
print(torch.device('cpu') == torch.device('cpu', None), torch.device('cpu').index, torch.device('cuda:0').index)
try:
    torch.device('gpu')
except RuntimeError as e:
    print(str(e)[:100])
import numpy as np
y = torch.tensor(3.5, requires_grad=True)
try:
    (y * 2).numpy()
except RuntimeError as e:
    print(e)
print((y * 2).detach().numpy(), type((y*2).item()))
''',
    'c05_io': PRELUDE + r'''
import io, os, tempfile
d = tempfile.mkdtemp()
x = torch.arange(4)
torch.save(x, os.path.join(d, 'x-file'))
x2 = torch.load(os.path.join(d, 'x-file'))
print(x2)
y = torch.zeros(4)
torch.save([x, y], os.path.join(d, 'x-files'))
x2, y2 = torch.load(os.path.join(d, 'x-files'))
print((x2, y2))
mydict = {'x': x, 'y': y}
torch.save(mydict, os.path.join(d, 'mydict'))
mydict2 = torch.load(os.path.join(d, 'mydict'))
print(mydict2)
torch.manual_seed(0)
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)
    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))
net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)
torch.save(net.state_dict(), os.path.join(d, 'mlp.params'))
clone = MLP()
print(clone.load_state_dict(torch.load(os.path.join(d, 'mlp.params'))))
print(clone.eval())
Y_clone = clone(X)
print(Y_clone == Y)
buf = io.BytesIO(); torch.save({'a': (1, 2.5, 'x'), 't': torch.tensor([1.5])}, buf); buf.seek(0)
print(torch.load(buf))
sd = torch.load(os.path.join(d, 'mlp.params'))
print(list(sd.keys()), type(sd).__name__, sd['output.bias'].shape)
sd['extra'] = torch.ones(1)
try:
    clone.load_state_dict(sd)
except RuntimeError as e:
    print(e)
print(clone.load_state_dict(sd, strict=False))
del sd['extra']; del sd['output.bias']
print(clone.load_state_dict(sd, strict=False))
sd['output.weight'] = torch.ones(3, 3)
try:
    clone.load_state_dict(sd, strict=False)
except RuntimeError as e:
    print(e)
''',
    'c05_lazy': PRELUDE + r'''
torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))
print(net[0].weight)
print(net)
X = torch.rand(2, 20)
net(X)
print(net[0].weight.shape)
print(net)
def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
net.apply(init_weights)
print(net[2].weight.shape, type(net[0]).__name__)
net2 = nn.Sequential(nn.LazyLinear(4))
print(net2[0].bias, net2[0].in_features, net2.state_dict())
try:
    print(net2[0].weight.shape)
except Exception as e:
    print(type(e).__name__, e)
net2(torch.ones(3, 5))
print(net2[0].in_features, net2[0].weight.shape, net2)
net3 = nn.Sequential(nn.LazyConv2d(6, kernel_size=5, padding=2), nn.Sigmoid(), nn.LazyBatchNorm2d(), nn.Flatten(), nn.LazyLinear(3))
net3(torch.randn(2, 1, 8, 8))
for layer in net3:
    print(layer.__class__.__name__, [p.shape for p in layer.parameters()])
print(net3)
net4 = nn.Sequential(nn.LazyLinear(3))
try:
    net4.apply(lambda m: nn.init.xavier_uniform_(m.weight) if isinstance(m, nn.LazyLinear) or type(m) == nn.Linear else None)
except ValueError as e:
    print(type(e).__name__, e)
try:
    sum(p.numel() for p in nn.LazyLinear(3).parameters())
except ValueError as e:
    print(e)
''',
    'c05_model_construction': PRELUDE + r'''
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10))
X = torch.rand(2, 20)
print(net(X).shape)
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.out = nn.Linear(256, 10)
    def forward(self, X):
        return self.out(F.relu(self.hidden(X)))
net = MLP()
print(net(X).shape, net)
class MySequential(nn.Module):
    def __init__(self, *args):
        super().__init__()
        for idx, module in enumerate(args):
            self._modules[str(idx)] = module
    def forward(self, X):
        for block in self._modules.values():
            X = block(X)
        return X
net = MySequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10))
print(net(X).shape)
print(net)
class FixedHiddenMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.rand_weight = torch.rand((20, 20), requires_grad=False)
        self.linear = nn.Linear(20, 20)
    def forward(self, X):
        X = self.linear(X)
        X = F.relu(torch.mm(X, self.rand_weight) + 1)
        X = self.linear(X)
        while X.abs().sum() > 1:
            X /= 2
        return X.sum()
net = FixedHiddenMLP()
print(net(X))
class NestMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(),
                                 nn.Linear(64, 32), nn.ReLU())
        self.linear = nn.Linear(32, 16)
    def forward(self, X):
        return self.linear(self.net(X))
chimera = nn.Sequential(NestMLP(), nn.Linear(16, 20), FixedHiddenMLP())
print(chimera(X))
print(chimera)
class MLP2(nn.Module):
    def __init__(self):
        self.hidden = nn.Linear(20, 256)
try:
    MLP2()
except AttributeError as e:
    print(e)
class MLP3(nn.Module):
    def __init__(self):
        super().__init__()
try:
    MLP3()(X)
except NotImplementedError as e:
    print(type(e).__name__, e)
net = nn.Sequential()
net.add_module('l1', nn.Linear(4, 3)); net.append(nn.ReLU())
print(net, len(net), net[-1], net[0:1])
''',
    'c05_parameters': PRELUDE + r'''
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
X = torch.rand(size=(2, 4))
print(net(X))
print(net[2].state_dict())
print(type(net[2].bias).__name__)
print(net[2].bias)
print(net[2].bias.data)
print(net[2].weight.grad == None)
print(*[(name, param.shape) for name, param in net[0].named_parameters()])
print(*[(name, param.shape) for name, param in net.named_parameters()])
print(net.state_dict()['2.bias'].data)
def block1():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(),
                         nn.Linear(8, 4), nn.ReLU())
def block2():
    net = nn.Sequential()
    for i in range(4):
        net.add_module(f'block {i}', block1())
    return net
rgnet = nn.Sequential(block2(), nn.Linear(4, 1))
print(rgnet(X))
print(rgnet)
print(rgnet[0][1][0].bias.data)
def init_normal(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, mean=0, std=0.01)
        nn.init.zeros_(m.bias)
net.apply(init_normal)
print(net[0].weight.data[0], net[0].bias.data[0])
def init_constant(m):
    if type(m) == nn.Linear:
        nn.init.constant_(m.weight, 1)
        nn.init.zeros_(m.bias)
net.apply(init_constant)
print(net[0].weight.data[0], net[0].bias.data[0])
def init_xavier(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
def init_42(m):
    if type(m) == nn.Linear:
        nn.init.constant_(m.weight, 42)
net[0].apply(init_xavier)
net[2].apply(init_42)
print(net[0].weight.data[0])
print(net[2].weight.data)
def my_init(m):
    if type(m) == nn.Linear:
        print("Init", *[(name, param.shape)
                        for name, param in m.named_parameters()][0])
        nn.init.uniform_(m.weight, -10, 10)
        m.weight.data *= m.weight.data.abs() >= 5
net.apply(my_init)
print(net[0].weight[:2])
net[0].weight.data[:] += 1
net[0].weight.data[0, 0] = 42
print(net[0].weight.data[0])
shared = nn.Linear(8, 8)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(),
                    shared, nn.ReLU(),
                    shared, nn.ReLU(),
                    nn.Linear(8, 1))
net(X)
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])
print(len(list(net.parameters())), len(net.state_dict()), list(net.state_dict().keys()))
net(X).sum().backward()
print(net[2].weight.grad.shape, net[2].weight.grad is net[4].weight.grad)
print(net[2].state_dict().keys(), net[2].bias.requires_grad)
print(rgnet[0][1].state_dict()['0.bias'])
print(net[0].weight.grad_fn, net[0].weight.is_leaf, net[0].weight.data.requires_grad)
''',
    'c06_channels': PRELUDE + r'''
def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y
def corr2d_multi_in(X, K):
    return sum(corr2d(x, k) for x, k in zip(X, K))
X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
               [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
print(corr2d_multi_in(X, K))
def corr2d_multi_in_out(X, K):
    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)
K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape)
print(corr2d_multi_in_out(X, K))
def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = X.reshape((c_i, h * w))
    K = K.reshape((c_o, c_i))
    Y = torch.matmul(K, X)
    return Y.reshape((c_o, h, w))
torch.manual_seed(0)
X = torch.normal(0, 1, (3, 3, 3))
K = torch.normal(0, 1, (2, 3, 1, 1))
Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = corr2d_multi_in_out(X, K)
assert float(torch.abs(Y1 - Y2).sum()) < 1e-6
print(Y1.shape, Y2.shape)
print(F.conv2d(X.unsqueeze(0), K).shape, torch.allclose(F.conv2d(X.unsqueeze(0), K)[0], Y1, atol=1e-6))
def pool2d(X, pool_size, mode='max'):
    p_h, p_w = pool_size
    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == 'max':
                Y[i, j] = X[i: i + p_h, j: j + p_w].max()
            elif mode == 'avg':
                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()
    return Y
X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
print(pool2d(X, (2, 2)))
print(pool2d(X, (2, 2), 'avg'))
X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
print(X)
pool2d = nn.MaxPool2d(3)
print(pool2d(X))
pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))
pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))
print(pool2d(X))
X = torch.cat((X, X + 1), 1)
print(X)
pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))
print(nn.AvgPool2d(3, padding=1, stride=2)(X))
print(nn.AvgPool2d(3, padding=1, stride=2, count_include_pad=False)(X))
print(nn.MaxPool2d(3, padding=1, stride=2), nn.AvgPool2d(2))
try:
    nn.MaxPool2d(3, padding=2)(X)
except RuntimeError as e:
    print(e)
print(nn.MaxPool2d(3, stride=2, ceil_mode=True)(X).shape)
''',
    'c06_conv': PRELUDE + r'''
def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y
X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))
class Conv2D(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(kernel_size))
        self.bias = nn.Parameter(torch.zeros(1))
    def forward(self, x):
        return corr2d(x, self.weight) + self.bias
X = torch.ones((6, 8))
X[:, 2:6] = 0
print(X)
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y)
print(corr2d(X.t(), K))
torch.manual_seed(0)
conv2d = nn.Conv2d(1,1, kernel_size=(1, 2), bias=False)
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2
for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f'epoch {i+1}, loss {l.sum():.3f}')
print(conv2d.weight.data.reshape((1, 2)))
c = Conv2D((1, 2))
print(c(torch.ones(3, 3)), c.weight.shape)
l = c(torch.ones(3, 3)).sum(); l.backward(); print(c.weight.grad, c.bias.grad)
def comp_conv2d(conv2d, X):
    X = X.reshape((1, 1) + X.shape)
    Y = conv2d(X)
    return Y.reshape(Y.shape[2:])
conv2d = nn.Conv2d(1, 1, kernel_size=3, padding=1)
X = torch.rand(size=(8, 8))
print(comp_conv2d(conv2d, X).shape)
conv2d = nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1))
print(comp_conv2d(conv2d, X).shape)
conv2d = nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=2)
print(comp_conv2d(conv2d, X).shape)
conv2d = nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))
print(comp_conv2d(conv2d, X).shape)
print(conv2d)
try:
    comp_conv2d(nn.Conv2d(1, 1, kernel_size=10), X)
except RuntimeError as e:
    print(e)
print(X.shape + (1,), (1, 1) + X.shape, type((1, 1) + X.shape).__name__)
''',
    'c07_alexnet_vgg': PRELUDE + r'''
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=11, stride=4, padding=1), nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2),
    nn.Conv2d(8, 16, kernel_size=5, padding=2), nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2),
    nn.Conv2d(16, 24, kernel_size=3, padding=1), nn.ReLU(),
    nn.Conv2d(24, 24, kernel_size=3, padding=1), nn.ReLU(),
    nn.Conv2d(24, 16, kernel_size=3, padding=1), nn.ReLU(),
    nn.MaxPool2d(kernel_size=3, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 1 * 1, 32), nn.ReLU(),
    nn.Dropout(p=0.5),
    nn.Linear(32, 32), nn.ReLU(),
    nn.Dropout(p=0.5),
    nn.Linear(32, 10))
X = torch.randn(1, 1, 96, 96)
for layer in net:
    X=layer(X)
    print(layer.__class__.__name__,'output shape:\t',X.shape)
def vgg_block(num_convs, in_channels, out_channels):
    layers = []
    for _ in range(num_convs):
        layers.append(nn.Conv2d(in_channels, out_channels,
                                kernel_size=3, padding=1))
        layers.append(nn.ReLU())
        in_channels = out_channels
    layers.append(nn.MaxPool2d(kernel_size=2,stride=2))
    return nn.Sequential(*layers)
conv_arch = ((1, 4), (1, 8), (2, 16), (2, 32), (2, 32))
def vgg(conv_arch):
    conv_blks = []
    in_channels = 1
    for (num_convs, out_channels) in conv_arch:
        conv_blks.append(vgg_block(num_convs, in_channels, out_channels))
        in_channels = out_channels
    return nn.Sequential(
        *conv_blks, nn.Flatten(),
        nn.Linear(out_channels * 1 * 1, 16), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(16, 16), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(16, 10))
net = vgg(conv_arch)
X = torch.randn(size=(1, 1, 32, 32))
for blk in net:
    X = blk(X)
    print(blk.__class__.__name__,'output shape:\t',X.shape)
print(net[0])
print(net)
''',
    'c07_batchnorm': PRELUDE + r'''
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
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), BatchNorm(6, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), BatchNorm(16, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(16*4*4, 120), BatchNorm(120, num_dims=2), nn.Sigmoid(),
    nn.Linear(120, 84), BatchNorm(84, num_dims=2), nn.Sigmoid(),
    nn.Linear(84, 10))
Xs = torch.randn(8, 1, 28, 28); ys = torch.randint(0, 10, (8,))
opt = torch.optim.SGD(net.parameters(), lr=1.0)
for epoch in range(3):
    l = F.cross_entropy(net(Xs), ys)
    opt.zero_grad(); l.backward(); opt.step()
    print(f'loss {l:.3f}')
print(net[1].gamma.reshape((-1,)), net[1].beta.reshape((-1,)))
print(net[1].moving_mean.reshape(-1), net[1].moving_var.reshape(-1))
with torch.no_grad():
    print(net(Xs[:2]).argmax(1))
net2 = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), nn.BatchNorm2d(6), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.BatchNorm2d(16), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(256, 120), nn.BatchNorm1d(120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.BatchNorm1d(84), nn.Sigmoid(),
    nn.Linear(84, 10))
opt = torch.optim.SGD(net2.parameters(), lr=1.0)
for epoch in range(3):
    l = F.cross_entropy(net2(Xs), ys)
    opt.zero_grad(); l.backward(); opt.step()
    print(f'loss {l:.3f}')
print(net2[1], net2[1].running_mean, net2[1].num_batches_tracked)
print(net2[1].state_dict().keys())
net2.eval(); print(net2(Xs[:2]).shape, net2[9])
bn = nn.BatchNorm1d(3)
try:
    bn(torch.ones(1, 3))
except ValueError as e:
    print(e)
print(nn.LazyBatchNorm2d())
''',
    'c07_lenet': PRELUDE + r'''
torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__,'output shape: \t',X.shape)
def init_weights(m):
    if type(m) == nn.Linear or type(m) == nn.Conv2d:
        nn.init.xavier_uniform_(m.weight)
net.apply(init_weights)
optimizer = torch.optim.SGD(net.parameters(), lr=0.9)
loss = nn.CrossEntropyLoss()
Xs = torch.randn(16, 1, 28, 28); ys = torch.randint(0, 10, (16,))
def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())
for epoch in range(3):
    net.train()
    optimizer.zero_grad()
    y_hat = net(Xs)
    l = loss(y_hat, ys)
    l.backward()
    optimizer.step()
    with torch.no_grad():
        print(f'loss {l * Xs.shape[0] / 16:.3f}, train acc {accuracy(y_hat, ys) / 16:.3f}')
print(isinstance(net, nn.Module), next(iter(net.parameters())).device)
print(sum(p.numel() for p in net.parameters()))
''',
    'c07_nin_googlenet': PRELUDE + r'''
torch.manual_seed(0)
def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding),
        nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU())
net = nn.Sequential(
    nin_block(1, 8, kernel_size=11, strides=4, padding=0),
    nn.MaxPool2d(3, stride=2),
    nin_block(8, 16, kernel_size=5, strides=1, padding=2),
    nn.MaxPool2d(3, stride=2),
    nin_block(16, 24, kernel_size=3, strides=1, padding=1),
    nn.MaxPool2d(3, stride=2),
    nn.Dropout(0.5),
    nin_block(24, 10, kernel_size=3, strides=1, padding=1),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten())
X = torch.rand(size=(1, 1, 96, 96))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__,'output shape:\t', X.shape)
print(net[0])
class Inception(nn.Module):
    def __init__(self, in_channels, c1, c2, c3, c4, **kwargs):
        super(Inception, self).__init__(**kwargs)
        self.p1_1 = nn.Conv2d(in_channels, c1, kernel_size=1)
        self.p2_1 = nn.Conv2d(in_channels, c2[0], kernel_size=1)
        self.p2_2 = nn.Conv2d(c2[0], c2[1], kernel_size=3, padding=1)
        self.p3_1 = nn.Conv2d(in_channels, c3[0], kernel_size=1)
        self.p3_2 = nn.Conv2d(c3[0], c3[1], kernel_size=5, padding=2)
        self.p4_1 = nn.MaxPool2d(kernel_size=3, stride=1, padding=1)
        self.p4_2 = nn.Conv2d(in_channels, c4, kernel_size=1)
    def forward(self, x):
        p1 = F.relu(self.p1_1(x))
        p2 = F.relu(self.p2_2(F.relu(self.p2_1(x))))
        p3 = F.relu(self.p3_2(F.relu(self.p3_1(x))))
        p4 = F.relu(self.p4_2(self.p4_1(x)))
        return torch.cat((p1, p2, p3, p4), dim=1)
b1 = nn.Sequential(nn.Conv2d(1, 8, kernel_size=7, stride=2, padding=3),
                   nn.ReLU(),
                   nn.MaxPool2d(kernel_size=3, stride=2, padding=1))
b2 = nn.Sequential(nn.Conv2d(8, 8, kernel_size=1),
                   nn.ReLU(),
                   nn.Conv2d(8, 24, kernel_size=3, padding=1),
                   nn.ReLU(),
                   nn.MaxPool2d(kernel_size=3, stride=2, padding=1))
b3 = nn.Sequential(Inception(24, 8, (12, 16), (2, 4), 4),
                   Inception(32, 16, (16, 24), (4, 12), 8),
                   nn.MaxPool2d(kernel_size=3, stride=2, padding=1))
b5 = nn.Sequential(nn.AdaptiveAvgPool2d((1,1)), nn.Flatten())
net = nn.Sequential(b1, b2, b3, b5, nn.Linear(60, 10))
X = torch.rand(size=(1, 1, 96, 96))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__,'output shape:\t', X.shape)
print(b3[0])
print(sum(p.numel() for p in net.parameters()))
''',
    'c07_resnet_densenet': PRELUDE + r'''
torch.manual_seed(0)
class Residual(nn.Module):
    def __init__(self, input_channels, num_channels,
                 use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = nn.Conv2d(input_channels, num_channels,
                               kernel_size=3, padding=1, stride=strides)
        self.conv2 = nn.Conv2d(num_channels, num_channels,
                               kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.Conv2d(input_channels, num_channels,
                                   kernel_size=1, stride=strides)
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
blk = Residual(3,3)
X = torch.rand(4, 3, 6, 6)
Y = blk(X)
print(Y.shape)
blk = Residual(3,6, use_1x1conv=True, strides=2)
print(blk(X).shape)
print(blk)
b1 = nn.Sequential(nn.Conv2d(1, 8, kernel_size=7, stride=2, padding=3),
                   nn.BatchNorm2d(8), nn.ReLU(),
                   nn.MaxPool2d(kernel_size=3, stride=2, padding=1))
def resnet_block(input_channels, num_channels, num_residuals,
                 first_block=False):
    blk = []
    for i in range(num_residuals):
        if i == 0 and not first_block:
            blk.append(Residual(input_channels, num_channels,
                                use_1x1conv=True, strides=2))
        else:
            blk.append(Residual(num_channels, num_channels))
    return blk
b2 = nn.Sequential(*resnet_block(8, 8, 2, first_block=True))
b3 = nn.Sequential(*resnet_block(8, 16, 2))
net = nn.Sequential(b1, b2, b3,
                    nn.AdaptiveAvgPool2d((1,1)),
                    nn.Flatten(), nn.Linear(16, 10))
X = torch.rand(size=(1, 1, 32, 32))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__,'output shape:\t', X.shape)
def conv_block(input_channels, num_channels):
    return nn.Sequential(
        nn.BatchNorm2d(input_channels), nn.ReLU(),
        nn.Conv2d(input_channels, num_channels, kernel_size=3, padding=1))
class DenseBlock(nn.Module):
    def __init__(self, num_convs, input_channels, num_channels):
        super(DenseBlock, self).__init__()
        layer = []
        for i in range(num_convs):
            layer.append(conv_block(
                num_channels * i + input_channels, num_channels))
        self.net = nn.Sequential(*layer)
    def forward(self, X):
        for blk in self.net:
            Y = blk(X)
            X = torch.cat((X, Y), dim=1)
        return X
blk = DenseBlock(2, 3, 10)
X = torch.randn(4, 3, 8, 8)
Y = blk(X)
print(Y.shape)
def transition_block(input_channels, num_channels):
    return nn.Sequential(
        nn.BatchNorm2d(input_channels), nn.ReLU(),
        nn.Conv2d(input_channels, num_channels, kernel_size=1),
        nn.AvgPool2d(kernel_size=2, stride=2))
blk = transition_block(23, 10)
print(blk(Y).shape)
print(blk)
l = net(torch.rand(2, 1, 32, 32)).sum(); l.backward()
print(net[1][0].bn1.weight.grad.shape, net[2][0].conv3.weight.grad.shape)
print([n for n, _ in net[2][0].named_children()])
print(len(net.state_dict()), list(net[1][0].state_dict().keys())[:6])
''',
    'c08_rnn_concise': PRELUDE + r'''
torch.manual_seed(0)
vocab_size, num_hiddens = 28, 16
rnn_layer = nn.RNN(vocab_size, num_hiddens)
state = torch.zeros((1, 4, num_hiddens))
print(state.shape, rnn_layer)
X = torch.rand(size=(5, 4, vocab_size))
Y, state_new = rnn_layer(X, state)
print(Y.shape, state_new.shape, Y.grad_fn, state_new.grad_fn)
class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size, **kwargs):
        super(RNNModel, self).__init__(**kwargs)
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        if not self.rnn.bidirectional:
            self.num_directions = 1
            self.linear = nn.Linear(self.num_hiddens, self.vocab_size)
        else:
            self.num_directions = 2
            self.linear = nn.Linear(self.num_hiddens * 2, self.vocab_size)
    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state
    def begin_state(self, device, batch_size=1):
        if not isinstance(self.rnn, nn.LSTM):
            return  torch.zeros((self.num_directions * self.rnn.num_layers,
                                 batch_size, self.num_hiddens),
                                device=device)
        else:
            return (torch.zeros((
                self.num_directions * self.rnn.num_layers,
                batch_size, self.num_hiddens), device=device),
                    torch.zeros((
                        self.num_directions * self.rnn.num_layers,
                        batch_size, self.num_hiddens), device=device))
device = torch.device('cpu')
inputs = torch.randint(0, vocab_size, (4, 6))
targets = torch.randint(0, vocab_size, (4, 6))
for layer in [nn.RNN(vocab_size, num_hiddens), nn.GRU(vocab_size, num_hiddens), nn.LSTM(vocab_size, num_hiddens),
              nn.LSTM(vocab_size, num_hiddens, num_layers=2), nn.LSTM(vocab_size, num_hiddens, num_layers=2, bidirectional=True),
              nn.GRU(vocab_size, num_hiddens, bidirectional=True)]:
    net = RNNModel(layer, vocab_size=vocab_size)
    net = net.to(device)
    print(net)
    updater = torch.optim.SGD(net.parameters(), 1)
    state = net.begin_state(batch_size=4, device=device)
    for step in range(3):
        if isinstance(state, tuple):
            state = tuple(s.detach() for s in state)
        else:
            state.detach_()
        y_hat, state = net(inputs, state)
        l = F.cross_entropy(y_hat, targets.T.reshape(-1))
        updater.zero_grad(); l.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1)
        updater.step()
        print(f'perplexity {math.exp(l.item()):.3f}')
    print([(n, tuple(p.shape)) for n, p in net.rnn.named_parameters()][:4])
    print(state[0].shape if isinstance(state, tuple) else state.shape)
''',
    'c08_rnn_scratch': PRELUDE + r'''
import random
torch.manual_seed(0); random.seed(0)
vocab_size = 28
corpus = [random.randint(1, 27) for _ in range(400)]
def seq_data_iter_sequential(corpus, batch_size, num_steps):
    offset = random.randint(0, num_steps)
    num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = torch.tensor(corpus[offset: offset + num_tokens])
    Ys = torch.tensor(corpus[offset + 1: offset + 1 + num_tokens])
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i: i + num_steps], Ys[:, i: i + num_steps]
print(F.one_hot(torch.tensor([0, 2]), vocab_size))
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape)
def get_params(vocab_size, num_hiddens, device):
    num_inputs = num_outputs = vocab_size
    def normal(shape):
        return torch.randn(size=shape, device=device) * 0.01
    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens, device=device)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs, device=device)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params
def init_rnn_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device), )
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
    def __init__(self, vocab_size, num_hiddens, device,
                 get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens, device)
        self.init_state, self.forward_fn = init_state, forward_fn
    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)
    def begin_state(self, batch_size, device):
        return self.init_state(batch_size, self.num_hiddens, device)
num_hiddens = 32
device = torch.device('cpu')
net = RNNModelScratch(vocab_size, num_hiddens, device, get_params, init_rnn_state, rnn)
state = net.begin_state(X.shape[0], device)
Y, new_state = net(X, state)
print(Y.shape, len(new_state), new_state[0].shape)
def predict_ch8(prefix, num_preds, net, device):
    state = net.begin_state(batch_size=1, device=device)
    outputs = [prefix[0]]
    get_input = lambda: torch.tensor([outputs[-1]], device=device).reshape((1, 1))
    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(y)
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return outputs
print(predict_ch8([3, 5, 7], 10, net, device))
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
loss = nn.CrossEntropyLoss()
for epoch in range(4):
    state = None
    tot, n = 0.0, 0
    for X, Y in seq_data_iter_sequential(corpus, 4, 8):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0], device=device)
        else:
            for s in state:
                s.detach_()
        y = Y.T.reshape(-1)
        y_hat, state = net(X, state)
        l = loss(y_hat, y.long()).mean()
        l.backward()
        norm = grad_clipping(net, 1)
        sgd(net.params, 1, batch_size=1)
        tot += l * y.numel(); n += y.numel()
    print(f'epoch {epoch}, perplexity {math.exp(tot / n):.1f}, norm {norm:.3f}', type(tot).__name__)
print(predict_ch8([3, 5], 6, net, device))
print(state[0].requires_grad, state[0].grad_fn, new_state[0].grad_fn)
''',
    'c08_sequence': PRELUDE + r'''
data = torch.utils.data
torch.manual_seed(0)
T = 200
time = torch.arange(1, T + 1, dtype=torch.float32)
x = torch.sin(0.01 * time) + torch.normal(0, 0.2, (T,))
print(time[:3], x[:5])
tau = 4
features = torch.zeros((T - tau, tau))
for i in range(tau):
    features[:, i] = x[i: T - tau + i]
labels = x[tau:].reshape((-1, 1))
print(features.shape, labels.shape, features[0], labels[0])
batch_size, n_train = 16, 120
train_iter = data.DataLoader(data.TensorDataset(features[:n_train], labels[:n_train]), batch_size, shuffle=True)
def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
def get_net():
    net = nn.Sequential(nn.Linear(4, 10),
                        nn.ReLU(),
                        nn.Linear(10, 1))
    net.apply(init_weights)
    return net
loss = nn.MSELoss(reduction='none')
def evaluate_loss(net, data_iter, loss):
    tot, n = 0.0, 0
    for X, y in data_iter:
        out = net(X)
        l = loss(out, y.reshape(out.shape))
        tot += l.sum().item(); n += l.numel()
    return tot / n
def train(net, train_iter, loss, epochs, lr):
    trainer = torch.optim.Adam(net.parameters(), lr)
    for epoch in range(epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.sum().backward()
            trainer.step()
        print(f'epoch {epoch + 1}, '
              f'loss: {evaluate_loss(net, train_iter, loss):f}')
net = get_net()
train(net, train_iter, loss, 5, 0.01)
onestep_preds = net(features)
print(onestep_preds[:3].detach())
multistep_preds = torch.zeros(T)
multistep_preds[: n_train + tau] = x[: n_train + tau]
for i in range(n_train + tau, T):
    multistep_preds[i] = net(
        multistep_preds[i - tau:i].reshape((1, -1)))
print(multistep_preds[-3:].detach(), multistep_preds.grad_fn)
max_steps = 16
features = torch.zeros((T - tau - max_steps + 1, tau + max_steps))
for i in range(tau):
    features[:, i] = x[i: i + T - tau - max_steps + 1]
for i in range(tau, tau + max_steps):
    features[:, i] = net(features[:, i - tau:i]).reshape(-1)
print(features[:2, -2:].detach())
steps = (1, 4, 16)
print([features[:3, tau + i - 1].detach() for i in steps])
''',
    'c08_text': PRELUDE + r'''
import collections, re, random
lines = ['The Time Machine, by H. G. Wells [1898]', '', 'I', 'The Time Traveller (for so it will be convenient to speak of him)',
         'was expounding a recondite matter to us. His grey eyes shone and', 'twinkled, and his usually pale face was flushed and animated. The',
         'fire burned brightly, and the soft radiance of the incandescent', 'lights in the lilies of silver caught the bubbles that flashed and',
         'passed in our glasses.'] * 3
lines = [re.sub('[^A-Za-z]+', ' ', line).strip().lower() for line in lines]
print(f'# 文本总行数: {len(lines)}')
print(lines[0]); print(lines[3])
def tokenize(lines, token='word'):
    if token == 'word':
        return [line.split() for line in lines]
    elif token == 'char':
        return [list(line) for line in lines]
tokens = tokenize(lines)
for i in range(4):
    print(tokens[i])
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
    def to_tokens(self, indices):
        if not isinstance(indices, (list, tuple)):
            return self.idx_to_token[indices]
        return [self.idx_to_token[index] for index in indices]
    @property
    def unk(self):
        return 0
    @property
    def token_freqs(self):
        return self._token_freqs
def count_corpus(tokens):
    if len(tokens) == 0 or isinstance(tokens[0], list):
        tokens = [token for line in tokens for token in line]
    return collections.Counter(tokens)
vocab = Vocab(tokens)
print(list(vocab.token_to_idx.items())[:10])
for i in [0, 3]:
    print('文本:', tokens[i])
    print('索引:', vocab[tokens[i]])
corpus = [vocab[token] for line in tokens for token in line]
print(len(corpus), len(vocab))
cvocab = Vocab(tokenize(lines, 'char'))
ccorpus = [cvocab[t] for line in tokenize(lines, 'char') for t in line]
print(len(ccorpus), len(cvocab), cvocab.idx_to_token[:10])
t = torch.tensor(corpus[:10]); print(t, cvocab.to_tokens([1, 2, 3]))
freqs = [freq for token, freq in vocab.token_freqs]
print(freqs[:10])
bigram_tokens = [pair for pair in zip(corpus[:-1], corpus[1:])]
bigram_vocab = Vocab(bigram_tokens)
print(bigram_vocab.token_freqs[:5])
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
my_seq = list(range(35))
for X, Y in seq_data_iter_random(my_seq, batch_size=2, num_steps=5):
    print('X: ', X, '\nY:', Y)
for X, Y in seq_data_iter_sequential(my_seq, batch_size=2, num_steps=5):
    print('X: ', X, '\nY:', Y, X.is_contiguous(), X.stride())
''',
    'c09_deep_bi': PRELUDE + r'''
torch.manual_seed(0)
vocab_size, num_hiddens, num_layers = 12, 8, 2
num_inputs = vocab_size
lstm_layer = nn.LSTM(num_inputs, num_hiddens, num_layers)
print(lstm_layer, lstm_layer.num_layers, lstm_layer.bidirectional)
print([n for n, _ in lstm_layer.named_parameters()])
X = torch.randn(5, 3, num_inputs)
Y, (H, C) = lstm_layer(X)
print(Y.shape, H.shape, C.shape, Y[-1, 0, :3], H[-1, 0, :3])
bi = nn.LSTM(num_inputs, num_hiddens, num_layers, bidirectional=True)
Y, (H, C) = bi(X)
print(Y.shape, H.shape, torch.allclose(Y[-1, :, :num_hiddens], H[-2]), torch.allclose(Y[0, :, num_hiddens:], H[-1]))
print(bi)
print(sorted(k for k in bi.state_dict().keys())[:6])
gru = nn.GRU(num_inputs, num_hiddens, num_layers, dropout=0.5)
print(gru, gru.dropout)
gru.eval()
Y, H = gru(X)
print(Y.shape, H.shape, round(Y.sum().item(), 4))
try:
    nn.LSTM(num_inputs, num_hiddens, 1, dropout=0.5)
except Exception as e:
    print(type(e).__name__, e)
rnn = nn.RNN(num_inputs, num_hiddens, batch_first=True, nonlinearity='relu')
Y, H = rnn(X.transpose(0, 1))
print(rnn, Y.shape, H.shape)
try:
    rnn(X, torch.zeros(2, 5, num_hiddens))
except RuntimeError as e:
    print(e)
try:
    lstm_layer(X, torch.zeros(2, 3, num_hiddens))
except Exception as e:
    print(type(e).__name__, e)
Y, (H, C) = nn.LSTM(num_inputs, num_hiddens, proj_size=4)(X)
print(Y.shape, H.shape, C.shape)
''',
    'c09_gru_lstm_scratch': PRELUDE + r'''
torch.manual_seed(0)
vocab_size, num_hiddens = 10, 8
def get_params(vocab_size, num_hiddens, device):
    num_inputs = num_outputs = vocab_size
    def normal(shape):
        return torch.randn(size=shape, device=device)*0.01
    def three():
        return (normal((num_inputs, num_hiddens)),
                normal((num_hiddens, num_hiddens)),
                torch.zeros(num_hiddens, device=device))
    W_xz, W_hz, b_z = three()
    W_xr, W_hr, b_r = three()
    W_xh, W_hh, b_h = three()
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs, device=device)
    params = [W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params
def init_gru_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device), )
def gru(inputs, state, params):
    W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        Z = torch.sigmoid((X @ W_xz) + (H @ W_hz) + b_z)
        R = torch.sigmoid((X @ W_xr) + (H @ W_hr) + b_r)
        H_tilda = torch.tanh((X @ W_xh) + ((R * H) @ W_hh) + b_h)
        H = Z * H + (1 - Z) * H_tilda
        Y = H @ W_hq + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)
def get_lstm_params(vocab_size, num_hiddens, device):
    num_inputs = num_outputs = vocab_size
    def normal(shape):
        return torch.randn(size=shape, device=device)*0.01
    def three():
        return (normal((num_inputs, num_hiddens)),
                normal((num_hiddens, num_hiddens)),
                torch.zeros(num_hiddens, device=device))
    W_xi, W_hi, b_i = three()
    W_xf, W_hf, b_f = three()
    W_xo, W_ho, b_o = three()
    W_xc, W_hc, b_c = three()
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs, device=device)
    params = [W_xi, W_hi, b_i, W_xf, W_hf, b_f, W_xo, W_ho, b_o, W_xc, W_hc,
              b_c, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params
def init_lstm_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device),
            torch.zeros((batch_size, num_hiddens), device=device))
def lstm(inputs, state, params):
    [W_xi, W_hi, b_i, W_xf, W_hf, b_f, W_xo, W_ho, b_o, W_xc, W_hc, b_c,
     W_hq, b_q] = params
    (H, C) = state
    outputs = []
    for X in inputs:
        I = torch.sigmoid((X @ W_xi) + (H @ W_hi) + b_i)
        F_ = torch.sigmoid((X @ W_xf) + (H @ W_hf) + b_f)
        O = torch.sigmoid((X @ W_xo) + (H @ W_ho) + b_o)
        C_tilda = torch.tanh((X @ W_xc) + (H @ W_hc) + b_c)
        C = F_ * C + I * C_tilda
        H = O * torch.tanh(C)
        Y = (H @ W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H, C)
X = torch.randint(0, vocab_size, (3, 5))
for gp, init, fn in [(get_params, init_gru_state, gru), (get_lstm_params, init_lstm_state, lstm)]:
    params = gp(vocab_size, num_hiddens, 'cpu')
    state = init(3, num_hiddens, 'cpu')
    for step in range(3):
        inp = F.one_hot(X.T, vocab_size).type(torch.float32)
        Y, state = fn(inp, state, params)
        l = F.cross_entropy(Y, X.T.reshape(-1))
        l.backward()
        with torch.no_grad():
            norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
            for p in params:
                p -= 10 * p.grad
                p.grad.zero_()
        state = tuple(s.detach() for s in state)
        print(f'{l.item():.4f} {norm.item():.6f}', Y.shape, [s.shape for s in state])
print(params[0].device, type(params[0].device).__name__, str(params[0].device))
print(torch.zeros(2, device='cpu').device == torch.device('cpu'), torch.device('cpu', 0) if False else torch.device('cpu'))
''',
    'c09_seq2seq': PRELUDE + r'''
import collections, warnings
torch.manual_seed(0)
raw_text = "Go.\tVa !\nHi.\tSalut !\nRun!\tCours !\nRun!\tCourez !\nWho?\tQui ?\nWow!\tÇa alors !\nI lost.\tJ'ai perdu.\nHe ran.\tIl a couru."
def preprocess_nmt(text):
    def no_space(char, prev_char):
        return char in set(',.!?') and prev_char != ' '
    text = text.replace('\u202f', ' ').replace('\xa0', ' ').lower()
    out = [' ' + char if i > 0 and no_space(char, text[i - 1]) else char
           for i, char in enumerate(text)]
    return ''.join(out)
text = preprocess_nmt(raw_text)
print(text[:80])
def tokenize_nmt(text, num_examples=None):
    source, target = [], []
    for i, line in enumerate(text.split('\n')):
        if num_examples and i > num_examples:
            break
        parts = line.split('\t')
        if len(parts) == 2:
            source.append(parts[0].split(' '))
            target.append(parts[1].split(' '))
    return source, target
source, target = tokenize_nmt(text)
print(source[:6], target[:6])
class Vocab:
    def __init__(self, tokens, min_freq=0, reserved_tokens=[]):
        counter = collections.Counter([t for line in tokens for t in line])
        self._token_freqs = sorted(counter.items(), key=lambda x: x[1], reverse=True)
        self.idx_to_token = ['<unk>'] + reserved_tokens
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}
        for token, freq in self._token_freqs:
            if freq >= min_freq and token not in self.token_to_idx:
                self.idx_to_token.append(token)
                self.token_to_idx[token] = len(self.idx_to_token) - 1
    def __len__(self):
        return len(self.idx_to_token)
    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            return self.token_to_idx.get(tokens, 0)
        return [self.__getitem__(t) for t in tokens]
src_vocab = Vocab(source, reserved_tokens=['<pad>', '<bos>', '<eos>'])
tgt_vocab = Vocab(target, reserved_tokens=['<pad>', '<bos>', '<eos>'])
print(len(src_vocab), len(tgt_vocab))
def truncate_pad(line, num_steps, padding_token):
    if len(line) > num_steps:
        return line[:num_steps]
    return line + [padding_token] * (num_steps - len(line))
print(truncate_pad(src_vocab[source[0]], 10, src_vocab['<pad>']))
def build_array_nmt(lines, vocab, num_steps):
    lines = [vocab[l] for l in lines]
    lines = [l + [vocab['<eos>']] for l in lines]
    array = torch.tensor([truncate_pad(
        l, num_steps, vocab['<pad>']) for l in lines])
    valid_len = (array != vocab['<pad>']).type(torch.int32).sum(1)
    return array, valid_len
src_array, src_valid_len = build_array_nmt(source, src_vocab, 6)
tgt_array, tgt_valid_len = build_array_nmt(target, tgt_vocab, 6)
print(src_array, src_valid_len, src_valid_len.dtype)
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
encoder = Seq2SeqEncoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
encoder.eval()
X = torch.zeros((4, 7), dtype=torch.long)
output, state = encoder(X)
print(output.shape, state.shape)
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
decoder = Seq2SeqDecoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
decoder.eval()
state = decoder.init_state(encoder(X))
output, state = decoder(X, state)
print(output.shape, state.shape)
def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X
X = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(sequence_mask(X, torch.tensor([1, 2])))
X = torch.ones(2, 3, 4)
print(sequence_mask(X, torch.tensor([1, 2]), value=-1))
class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
    def forward(self, pred, label, valid_len):
        weights = torch.ones_like(label)
        weights = sequence_mask(weights, valid_len)
        self.reduction='none'
        unweighted_loss = super(MaskedSoftmaxCELoss, self).forward(pred.permute(0, 2, 1), label)
        weighted_loss = (unweighted_loss * weights).mean(dim=1)
        return weighted_loss
loss = MaskedSoftmaxCELoss()
print(loss(torch.ones(3, 4, 10), torch.ones((3, 4), dtype=torch.long), torch.tensor([4, 2, 0])))
print(loss)
class EncoderDecoder(nn.Module):
    def __init__(self, encoder, decoder, **kwargs):
        super(EncoderDecoder, self).__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_outputs, *args)
        return self.decoder(dec_X, dec_state)
encoder = Seq2SeqEncoder(len(src_vocab), 8, 16, 2, 0.1)
decoder = Seq2SeqDecoder(len(tgt_vocab), 8, 16, 2, 0.1)
net = EncoderDecoder(encoder, decoder)
def xavier_init_weights(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
    if type(m) == nn.GRU:
        for param in m._flat_weights_names:
            if "weight" in param:
                nn.init.xavier_uniform_(m._parameters[param])
net.apply(xavier_init_weights)
optimizer = torch.optim.Adam(net.parameters(), lr=0.005)
net.train()
for epoch in range(5):
    X, X_valid_len, Y, Y_valid_len = src_array, src_valid_len, tgt_array, tgt_valid_len
    bos = torch.tensor([tgt_vocab['<bos>']] * Y.shape[0]).reshape(-1, 1)
    dec_input = torch.cat([bos, Y[:, :-1]], 1)
    Y_hat, _ = net(X, dec_input, X_valid_len)
    l = loss(Y_hat, Y, Y_valid_len)
    optimizer.zero_grad()
    l.sum().backward()
    nn.utils.clip_grad_norm_(net.parameters(), 1)
    optimizer.step()
    num_tokens = Y_valid_len.sum()
    print(f'loss {l.sum() / num_tokens:.3f}', num_tokens)
print(net.encoder.rnn._flat_weights_names)
net.eval()
def predict_seq2seq(net, src_sentence, src_vocab, tgt_vocab, num_steps):
    src_tokens = src_vocab[src_sentence.lower().split(' ')] + [src_vocab['<eos>']]
    enc_valid_len = torch.tensor([len(src_tokens)])
    src_tokens = truncate_pad(src_tokens, num_steps, src_vocab['<pad>'])
    enc_X = torch.unsqueeze(torch.tensor(src_tokens, dtype=torch.long), dim=0)
    enc_outputs = net.encoder(enc_X, enc_valid_len)
    dec_state = net.decoder.init_state(enc_outputs, enc_valid_len)
    dec_X = torch.unsqueeze(torch.tensor([tgt_vocab['<bos>']], dtype=torch.long), dim=0)
    output_seq = []
    for _ in range(num_steps):
        Y, dec_state = net.decoder(dec_X, dec_state)
        dec_X = Y.argmax(dim=2)
        pred = dec_X.squeeze(dim=0).type(torch.int32).item()
        if pred == tgt_vocab['<eos>']:
            break
        output_seq.append(pred)
    return output_seq
print(predict_seq2seq(net, 'go .', src_vocab, tgt_vocab, 6))
def bleu(pred_seq, label_seq, k):
    pred_tokens, label_tokens = pred_seq.split(' '), label_seq.split(' ')
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    score = math.exp(min(0, 1 - len_label / len_pred))
    for n in range(1, k + 1):
        num_matches, label_subs = 0, collections.defaultdict(int)
        for i in range(len_label - n + 1):
            label_subs[' '.join(label_tokens[i: i + n])] += 1
        for i in range(len_pred - n + 1):
            if label_subs[' '.join(pred_tokens[i: i + n])] > 0:
                num_matches += 1
                label_subs[' '.join(pred_tokens[i: i + n])] -= 1
        score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
    return score
print(f'{bleu("il a couru .", "il a couru .", 2):.3f}', f'{bleu("il court .", "il a couru .", 2):.3f}')
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    g = nn.GRU(4, 4, 1, dropout=0.1)
    print([str(x.message) for x in w])
''',
    'c10_attention_scoring': PRELUDE + r'''
torch.manual_seed(0)
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
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])))
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
queries, keys = torch.normal(0, 1, (2, 1, 20)), torch.ones((2, 10, 2))
values = torch.arange(40, dtype=torch.float32).reshape(1, 10, 4).repeat(2, 1, 1)
valid_lens = torch.tensor([2, 6])
attention = AdditiveAttention(key_size=2, query_size=20, num_hiddens=8, dropout=0.1)
attention.eval()
print(attention(queries, keys, values, valid_lens))
print(attention.attention_weights.reshape((1, 1, 2, 10)))
class DotProductAttention(nn.Module):
    def __init__(self, dropout, **kwargs):
        super(DotProductAttention, self).__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1,2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)
queries = torch.normal(0, 1, (2, 1, 2))
attention = DotProductAttention(dropout=0.5)
attention.eval()
print(attention(queries, keys, values, valid_lens))
print(attention.attention_weights)
print(F.scaled_dot_product_attention(queries, keys, values).shape)
m = torch.arange(10)[None, :] < valid_lens[:, None]
print(F.scaled_dot_product_attention(queries, keys, values, attn_mask=m.unsqueeze(1)))
''',
    'c10_multihead': PRELUDE + r'''
torch.manual_seed(0)
def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X
def masked_softmax(X, valid_lens):
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)
class DotProductAttention(nn.Module):
    def __init__(self, dropout, **kwargs):
        super().__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1,2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)
class MultiHeadAttention(nn.Module):
    def __init__(self, key_size, query_size, value_size, num_hiddens,
                 num_heads, dropout, bias=False, **kwargs):
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
def transpose_qkv(X, num_heads):
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
    X = X.permute(0, 2, 1, 3)
    return X.reshape(-1, X.shape[2], X.shape[3])
def transpose_output(X, num_heads):
    X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
    X = X.permute(0, 2, 1, 3)
    return X.reshape(X.shape[0], X.shape[1], -1)
num_hiddens, num_heads = 20, 5
attention = MultiHeadAttention(num_hiddens, num_hiddens, num_hiddens, num_hiddens, num_heads, 0.5)
print(attention.eval())
batch_size, num_queries = 2, 4
num_kvpairs, valid_lens =  6, torch.tensor([3, 2])
X = torch.ones((batch_size, num_queries, num_hiddens))
Y = torch.ones((batch_size, num_kvpairs, num_hiddens))
out = attention(X, Y, Y, valid_lens)
print(out.shape, out[0, 0, :4])
print(attention.attention.attention_weights.shape, attention.attention.attention_weights[0])
class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(dropout)
        self.P = torch.zeros((1, max_len, num_hiddens))
        X = torch.arange(max_len, dtype=torch.float32).reshape(
            -1, 1) / torch.pow(10000, torch.arange(
            0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X)
    def forward(self, X):
        X = X + self.P[:, :X.shape[1], :].to(X.device)
        return self.dropout(X)
encoding_dim, num_steps = 32, 60
pos_encoding = PositionalEncoding(encoding_dim, 0)
pos_encoding.eval()
X = pos_encoding(torch.zeros((1, num_steps, encoding_dim)))
P = pos_encoding.P[:, :X.shape[1], :]
print(P[0, :3, 4:8])
print(P[0, 59, ::5])
print(X.shape, P.sum())
for i in range(8):
    print(f'{i}的二进制是：{i:>03b}')
print(torch.pow(10000, torch.arange(0, 8, 2, dtype=torch.float32) / 8))
x = torch.randn(2, 4, 20)
print(transpose_output(transpose_qkv(x, 5), 5).equal(x))
mha = nn.MultiheadAttention(20, 5, batch_first=True)
o, w = mha(X[:, :4, :20], X[:, :6, :20], X[:, :6, :20])
print(o.shape, w.shape, mha)
''',
    'c10_nadaraya': PRELUDE + r'''
torch.manual_seed(0)
n_train = 50
x_train, _ = torch.sort(torch.rand(n_train) * 5)
def f(x):
    return 2 * torch.sin(x) + x**0.8
y_train = f(x_train) + torch.normal(0.0, 0.5, (n_train,))
x_test = torch.arange(0, 5, 0.1)
y_truth = f(x_test)
n_test = len(x_test)
print(n_test, x_test[-3:], y_truth[:3])
y_hat = torch.repeat_interleave(y_train.mean(), n_test)
print(y_hat[:3])
X_repeat = x_test.repeat_interleave(n_train).reshape((-1, n_train))
attention_weights = nn.functional.softmax(-(X_repeat - x_train)**2 / 2, dim=1)
y_hat = torch.matmul(attention_weights, y_train)
print(y_hat[:5], attention_weights.shape, attention_weights[0, :4])
X = torch.ones((2, 1, 4))
Y = torch.ones((2, 4, 6))
print(torch.bmm(X, Y).shape)
weights = torch.ones((2, 10)) * 0.1
values = torch.arange(20.0).reshape((2, 10))
print(torch.bmm(weights.unsqueeze(1), values.unsqueeze(-1)))
class NWKernelRegression(nn.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = nn.Parameter(torch.rand((1,), requires_grad=True))
    def forward(self, queries, keys, values):
        queries = queries.repeat_interleave(keys.shape[1]).reshape((-1, keys.shape[1]))
        self.attention_weights = nn.functional.softmax(
            -((queries - keys) * self.w)**2 / 2, dim=1)
        return torch.bmm(self.attention_weights.unsqueeze(1),
                         values.unsqueeze(-1)).reshape(-1)
X_tile = x_train.repeat((n_train, 1))
Y_tile = y_train.repeat((n_train, 1))
keys = X_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))
values = Y_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))
print(keys.shape, values.shape)
net = NWKernelRegression()
loss = nn.MSELoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
for epoch in range(5):
    trainer.zero_grad()
    l = loss(net(x_train, keys, values), y_train)
    l.sum().backward()
    trainer.step()
    print(f'epoch {epoch + 1}, loss {float(l.sum()):.6f}')
keys = x_train.repeat((n_test, 1))
values = y_train.repeat((n_test, 1))
y_hat = net(x_test, keys, values).unsqueeze(1).detach()
print(y_hat[:4], net.w)
print(net.attention_weights.unsqueeze(0).unsqueeze(0).shape)
print((1 - torch.eye(3)).type(torch.bool), (1 - torch.eye(3)).dtype)
print(torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 3])), torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2, dim=0))
''',
    'c10_transformer': PRELUDE + r'''
torch.manual_seed(0)
class PositionWiseFFN(nn.Module):
    def __init__(self, ffn_num_input, ffn_num_hiddens, ffn_num_outputs, **kwargs):
        super(PositionWiseFFN, self).__init__(**kwargs)
        self.dense1 = nn.Linear(ffn_num_input, ffn_num_hiddens)
        self.relu = nn.ReLU()
        self.dense2 = nn.Linear(ffn_num_hiddens, ffn_num_outputs)
    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))
ffn = PositionWiseFFN(4, 4, 8)
ffn.eval()
print(ffn(torch.ones((2, 3, 4)))[0])
ln = nn.LayerNorm(2)
bn = nn.BatchNorm1d(2)
X = torch.tensor([[1, 2], [2, 3]], dtype=torch.float32)
print('layer norm:', ln(X), '\nbatch norm:', bn(X))
class AddNorm(nn.Module):
    def __init__(self, normalized_shape, dropout, **kwargs):
        super(AddNorm, self).__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)
        self.ln = nn.LayerNorm(normalized_shape)
    def forward(self, X, Y):
        return self.ln(self.dropout(Y) + X)
add_norm = AddNorm([3, 4], 0.5)
add_norm.eval()
print(add_norm(torch.ones((2, 3, 4)), torch.ones((2, 3, 4))).shape)
print(add_norm)
enc = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
x = torch.randn(2, 5, 8)
y = enc(x)
print(y.shape, y[0, 0])
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
dec = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
z = dec(x, y, tgt_mask=mask)
print(z.shape, z[1, -1])
pad = torch.tensor([[False, False, False, True, True], [False] * 5])
y2 = enc(x, src_key_padding_mask=pad)
print(y2[0, :3, :3])
class PatchEmbedding(nn.Module):
    def __init__(self, img_size=16, patch_size=4, num_hiddens=8):
        super().__init__()
        def _make_tuple(x):
            if not isinstance(x, (list, tuple)):
                return (x, x)
            return x
        img_size, patch_size = _make_tuple(img_size), _make_tuple(patch_size)
        self.num_patches = (img_size[0] // patch_size[0]) * (img_size[1] // patch_size[1])
        self.conv = nn.LazyConv2d(num_hiddens, kernel_size=patch_size, stride=patch_size)
    def forward(self, X):
        return self.conv(X).flatten(2).transpose(1, 2)
img_size, patch_size, num_hiddens, batch_size = 16, 4, 8, 2
patch_emb = PatchEmbedding(img_size, patch_size, num_hiddens)
X = torch.zeros(batch_size, 3, img_size, img_size)
out = patch_emb(X)
print(out.shape, patch_emb.num_patches)
cls_token = nn.Parameter(torch.zeros(1, 1, num_hiddens))
pos_embedding = nn.Parameter(torch.randn(1, patch_emb.num_patches + 1, num_hiddens) * 0.02)
Z = torch.cat((cls_token.expand(out.shape[0], -1, -1), out), 1)
print(Z.shape, (Z + pos_embedding).shape, (Z + pos_embedding).grad_fn)
class ViTMLP(nn.Module):
    def __init__(self, mlp_num_hiddens, mlp_num_outputs, dropout=0.5):
        super().__init__()
        self.dense1 = nn.LazyLinear(mlp_num_hiddens)
        self.gelu = nn.GELU()
        self.dropout1 = nn.Dropout(dropout)
        self.dense2 = nn.LazyLinear(mlp_num_outputs)
        self.dropout2 = nn.Dropout(dropout)
    def forward(self, x):
        return self.dropout2(self.dense2(self.dropout1(self.gelu(self.dense1(x)))))
m = ViTMLP(16, 8); m.eval()
print(m(Z).shape, m)
''',
    'c10_transformer_train': PRELUDE + r'''
torch.manual_seed(0)
def masked_softmax(X, valid_lens):
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)
class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)
class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads, dropout, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_k = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_v = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_o = nn.LazyLinear(num_hiddens, bias=bias)
    def transpose_qkv(self, X):
        X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)
        X = X.permute(0, 2, 1, 3)
        return X.reshape(-1, X.shape[2], X.shape[3])
    def transpose_output(self, X):
        X = X.reshape(-1, self.num_heads, X.shape[1], X.shape[2])
        X = X.permute(0, 2, 1, 3)
        return X.reshape(X.shape[0], X.shape[1], -1)
    def forward(self, queries, keys, values, valid_lens):
        queries = self.transpose_qkv(self.W_q(queries))
        keys = self.transpose_qkv(self.W_k(keys))
        values = self.transpose_qkv(self.W_v(values))
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        return self.W_o(self.transpose_output(output))
class PositionWiseFFN(nn.Module):
    def __init__(self, ffn_num_hiddens, ffn_num_outputs):
        super().__init__()
        self.dense1 = nn.LazyLinear(ffn_num_hiddens)
        self.relu = nn.ReLU()
        self.dense2 = nn.LazyLinear(ffn_num_outputs)
    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))
class AddNorm(nn.Module):
    def __init__(self, norm_shape, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.ln = nn.LayerNorm(norm_shape)
    def forward(self, X, Y):
        return self.ln(self.dropout(Y) + X)
class TransformerEncoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias=False):
        super().__init__()
        self.attention = MultiHeadAttention(num_hiddens, num_heads, dropout, use_bias)
        self.addnorm1 = AddNorm(num_hiddens, dropout)
        self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
        self.addnorm2 = AddNorm(num_hiddens, dropout)
    def forward(self, X, valid_lens):
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))
class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.P = torch.zeros((1, max_len, num_hiddens))
        X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X)
    def forward(self, X):
        X = X + self.P[:, :X.shape[1], :].to(X.device)
        return self.dropout(X)
class TransformerEncoder(nn.Module):
    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout, use_bias=False):
        super().__init__()
        self.num_hiddens = num_hiddens
        self.embedding = nn.Embedding(vocab_size, num_hiddens)
        self.pos_encoding = PositionalEncoding(num_hiddens, dropout, max_len=50)
        self.blks = nn.Sequential()
        for i in range(num_blks):
            self.blks.add_module("block"+str(i), TransformerEncoderBlock(num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias))
    def forward(self, X, valid_lens):
        X = self.pos_encoding(self.embedding(X) * math.sqrt(self.num_hiddens))
        self.attention_weights = [None] * len(self.blks)
        for i, blk in enumerate(self.blks):
            X = blk(X, valid_lens)
            self.attention_weights[i] = blk.attention.attention.attention_weights
        return X
X = torch.ones((2, 100, 24))
valid_lens = torch.tensor([3, 2])
encoder_blk = TransformerEncoderBlock(24, 48, 8, 0.5)
encoder_blk.eval()
print(encoder_blk(X, valid_lens).shape)
encoder = TransformerEncoder(200, 24, 48, 8, 2, 0.0)
print(encoder(torch.ones((2, 40), dtype=torch.long), valid_lens).shape)
enc = TransformerEncoder(20, 16, 32, 4, 2, 0.0)
head = nn.LazyLinear(20)
tokens = torch.randint(1, 20, (4, 10)); lens = torch.tensor([10, 7, 5, 9])
enc(tokens, lens); head(torch.zeros(1, 16))
opt = torch.optim.Adam(list(enc.parameters()) + list(head.parameters()), lr=0.005)
for step in range(4):
    out = head(enc(tokens, lens))
    l = F.cross_entropy(out.reshape(-1, 20), tokens.reshape(-1), reduction='none').reshape(4, 10)
    mask = torch.arange(10)[None, :] < lens[:, None]
    loss = (l * mask).sum() / mask.sum()
    opt.zero_grad(); loss.backward()
    nn.utils.clip_grad_norm_(enc.parameters(), 1)
    opt.step()
    print(f'loss {loss:.3f}')
print(enc.attention_weights[0].shape, round(enc.attention_weights[1][0, 0].sum().item(), 5))
''',
    'c11_gd': PRELUDE + r'''
import numpy as np
def f(x):
    return x ** 2
def f_grad(x):
    return 2 * x
def gd(eta, f_grad):
    x = 10.0
    results = [x]
    for i in range(10):
        x -= eta * f_grad(x)
        results.append(float(x))
    print(f'epoch 10, x: {x:.4f}')
    return results
results = gd(0.2, f_grad)
print(gd(0.05, f_grad)[-1], gd(1.1, f_grad)[-1])
c = torch.tensor(0.15 * np.pi)
def f(x):
    return x * torch.cos(c * x)
def f_grad(x):
    return torch.cos(c * x) - c * x * torch.sin(c * x)
print([round(v, 3) for v in gd(2, f_grad)[-3:]])
def train_2d(trainer, steps=20, f_grad=None):
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results
def f_2d(x1, x2):
    return x1 ** 2 + 2 * x2 ** 2
def f_2d_grad(x1, x2):
    return (2 * x1, 4 * x2)
def gd_2d(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    return (x1 - eta * g1, x2 - eta * g2, 0, 0)
eta = 0.1
r = train_2d(gd_2d, f_grad=f_2d_grad)
c = torch.tensor(0.5)
def f(x):
    return torch.cosh(c * x)
def f_grad(x):
    return c * torch.sinh(c * x)
def f_hess(x):
    return c**2 * torch.cosh(c * x)
def newton(eta=1):
    x = 10.0
    results = [x]
    for i in range(10):
        x -= eta * f_grad(x) / f_hess(x)
        results.append(float(x))
    print('epoch 10, x:', f'{x:.4f}' if isinstance(x, float) else x.round(decimals=4))
    return results
print(newton()[-3:])
c = torch.tensor(0.15 * np.pi)
def f(x):
    return x * torch.cos(c * x)
def f_grad(x):
    return torch.cos(c * x) - c * x * torch.sin(c * x)
def f_hess(x):
    return - 2 * c * torch.sin(c * x) - x * c**2 * torch.cos(c * x)
print([round(v, 4) for v in newton()[-3:]])
print([round(v, 4) for v in newton(0.5)[-3:]])
def f_grad2(x1, x2):
    g1 = 2 * x1 + torch.normal(0.0, 1, (1,)).item()
    g2 = 4 * x2 + torch.normal(0.0, 1, (1,)).item()
    return g1, g2
def sgd(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    eta_t = eta * lr()
    return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)
def constant_lr():
    return 1
torch.manual_seed(0)
eta = 0.1
lr = constant_lr
r = train_2d(sgd, steps=50, f_grad=f_grad2)
def exponential_lr():
    global t
    t += 1
    return math.exp(-0.1 * t)
t = 1
lr = exponential_lr
r = train_2d(sgd, steps=100, f_grad=f_grad2)
def polynomial_lr():
    global t
    t += 1
    return (1 + 0.1 * t) ** (-0.5)
t = 1
lr = polynomial_lr
r = train_2d(sgd, steps=50, f_grad=f_grad2)
print(torch.cosh(torch.tensor([0.0, 1.0, 10.0])), torch.sinh(torch.tensor(2.5)))
''',
    'c11_optimizers': PRELUDE + r'''
torch.manual_seed(0)
def get_data(n=64):
    X = torch.randn(n, 5)
    y = X @ torch.tensor([1., -2., 0.5, 3., 0.]) + 0.1 * torch.randn(n)
    return X, y.reshape(-1, 1)
X, y = get_data()
def init_params():
    w = torch.normal(mean=0.0, std=0.01, size=(5, 1), requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    return w, b
def loss_fn(w, b):
    return ((X @ w + b - y) ** 2 / 2).mean()
def init_momentum_states(feature_dim):
    v_w = torch.zeros((feature_dim, 1))
    v_b = torch.zeros(1)
    return (v_w, v_b)
def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams['momentum'] * v + p.grad
            p[:] -= hyperparams['lr'] * v
        p.grad.data.zero_()
def init_adagrad_states(feature_dim):
    return (torch.zeros((feature_dim, 1)), torch.zeros(1))
def adagrad(params, states, hyperparams):
    eps = 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] += torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()
def init_rmsprop_states(feature_dim):
    return (torch.zeros((feature_dim, 1)), torch.zeros(1))
def rmsprop(params, states, hyperparams):
    gamma, eps = hyperparams['gamma'], 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()
def init_adadelta_states(feature_dim):
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    delta_w, delta_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((s_w, delta_w), (s_b, delta_b))
def adadelta(params, states, hyperparams):
    rho, eps = hyperparams['rho'], 1e-5
    for p, (s, delta) in zip(params, states):
        with torch.no_grad():
            s[:] = rho * s + (1 - rho) * torch.square(p.grad)
            g = (torch.sqrt(delta + eps) / torch.sqrt(s + eps)) * p.grad
            p[:] -= g
            delta[:] = rho * delta + (1 - rho) * g * g
        p.grad.data.zero_()
def init_adam_states(feature_dim):
    v_w, v_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((v_w, s_w), (v_b, s_b))
def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1
def yogi(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-3
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = s + (1 - beta2) * torch.sign(torch.square(p.grad) - s) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1
def train_ch11(trainer_fn, states, hyperparams, num_epochs=3):
    w, b = init_params()
    for epoch in range(num_epochs):
        for i in range(0, 64, 16):
            l = ((X[i:i+16] @ w + b - y[i:i+16]) ** 2 / 2).mean()
            l.backward()
            trainer_fn([w, b], states, hyperparams)
        print(f'loss: {loss_fn(w, b):.3f}')
    return w
for fn, init, hp in [(sgd_momentum, init_momentum_states, {'lr': 0.02, 'momentum': 0.5}),
                     (adagrad, init_adagrad_states, {'lr': 0.1}),
                     (rmsprop, init_rmsprop_states, {'lr': 0.01, 'gamma': 0.9}),
                     (adadelta, init_adadelta_states, {'rho': 0.9}),
                     (adam, init_adam_states, {'lr': 0.01, 't': 1}),
                     (yogi, init_adam_states, {'lr': 0.01, 't': 1})]:
    print(fn.__name__)
    w = train_ch11(fn, init(5), hp)
def train_concise_ch11(trainer_fn, hyperparams, num_epochs=3):
    net = nn.Sequential(nn.Linear(5, 1))
    def init_weights(m):
        if type(m) == nn.Linear:
            torch.nn.init.normal_(m.weight, std=0.01)
    net.apply(init_weights)
    optimizer = trainer_fn(net.parameters(), **hyperparams)
    loss = nn.MSELoss(reduction='none')
    for _ in range(num_epochs):
        for i in range(0, 64, 16):
            optimizer.zero_grad()
            out = net(X[i:i+16])
            l = loss(out, y[i:i+16])
            l.mean().backward()
            optimizer.step()
        print(f'loss: {loss(net(X), y).mean().item() / 2:.3f}')
    print(optimizer.state_dict()['param_groups'][0])
for opt, hp in [(torch.optim.SGD, {'lr': 0.01, 'momentum': 0.9}), (torch.optim.Adagrad, {'lr': 0.1}),
                (torch.optim.RMSprop, {'lr': 0.01, 'alpha': 0.9}), (torch.optim.Adadelta, {'rho': 0.9}),
                (torch.optim.Adam, {'lr': 0.01})]:
    train_concise_ch11(opt, hp)
''',
    'c11_schedulers': PRELUDE + r'''
torch.manual_seed(0)
lr_scheduler = torch.optim.lr_scheduler
class SquareRootScheduler:
    def __init__(self, lr=0.1):
        self.lr = lr
    def __call__(self, num_update):
        return self.lr * pow(num_update + 1.0, -0.5)
scheduler = SquareRootScheduler(lr=0.1)
print([round(scheduler(t), 5) for t in range(0, 30, 5)])
class FactorScheduler:
    def __init__(self, factor=1, stop_factor_lr=1e-7, base_lr=0.1):
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.base_lr = base_lr
    def __call__(self, num_update):
        self.base_lr = max(self.stop_factor_lr, self.base_lr * self.factor)
        return self.base_lr
scheduler = FactorScheduler(factor=0.9, stop_factor_lr=1e-2, base_lr=2.0)
print([round(scheduler(t), 5) for t in range(50)][::7])
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
scheduler = lr_scheduler.MultiStepLR(trainer, milestones=[15, 30], gamma=0.5)
def get_lr(trainer, scheduler):
    lr = scheduler.get_last_lr()[0]
    trainer.step()
    scheduler.step()
    return lr
print([get_lr(trainer, scheduler) for t in range(40)][::5])
print(scheduler.state_dict())
class CosineScheduler:
    def __init__(self, max_update, base_lr=0.01, final_lr=0,
               warmup_steps=0, warmup_begin_lr=0):
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.warmup_steps = warmup_steps
        self.warmup_begin_lr = warmup_begin_lr
        self.max_steps = self.max_update - self.warmup_steps
    def get_warmup_lr(self, epoch):
        increase = (self.base_lr_orig - self.warmup_begin_lr) \
                       * float(epoch) / float(self.warmup_steps)
        return self.warmup_begin_lr + increase
    def __call__(self, epoch):
        if epoch < self.warmup_steps:
            return self.get_warmup_lr(epoch)
        if epoch <= self.max_update:
            self.base_lr = self.final_lr + (
                self.base_lr_orig - self.final_lr) * (1 + math.cos(
                math.pi * (epoch - self.warmup_steps) / self.max_steps)) / 2
        return self.base_lr
scheduler = CosineScheduler(max_update=20, base_lr=0.3, final_lr=0.01)
print([round(scheduler(t), 4) for t in range(0, 30, 3)])
scheduler = CosineScheduler(20, warmup_steps=5, base_lr=0.3, final_lr=0.01)
print([round(scheduler(t), 4) for t in range(0, 30, 3)])
X = torch.randn(32, 4); y = torch.randn(32, 1)
loss = nn.MSELoss()
for sched_fn in [lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=10, eta_min=0.01),
                 lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5),
                 lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9),
                 lambda o: lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1)),
                 lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=12),
                 lambda o: lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=4),
                 lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3), lr_scheduler.CosineAnnealingLR(o, T_max=7)], milestones=[3]),
                 lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3),
                 lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=4)]:
    net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
    trainer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    scheduler = sched_fn(trainer)
    lrs = []
    for epoch in range(10):
        trainer.zero_grad()
        l = loss(net(X), y)
        l.backward()
        trainer.step()
        scheduler.step()
        lrs.append(trainer.param_groups[0]['lr'])
    print(type(scheduler).__name__, [f'{v:.5f}' for v in lrs], f'{l.item():.4f}')
    print(scheduler.get_last_lr(), scheduler.last_epoch)
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
s = lr_scheduler.ReduceLROnPlateau(trainer, mode='min', factor=0.5, patience=1)
for v in [1.0, 0.9, 0.95, 0.96, 0.97, 0.8, 0.85, 0.86]:
    s.step(v)
    print(trainer.param_groups[0]['lr'], end=' ')
print()
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    trainer = torch.optim.SGD(net.parameters(), lr=0.1)
    sc = lr_scheduler.StepLR(trainer, 2)
    sc.step()
    trainer.step()
    print([str(x.message)[:80] for x in w])
''',
    'c13_multi_device': PRELUDE + r'''
torch.manual_seed(0)
def try_all_gpus():
    devices = [torch.device(f'cuda:{i}') for i in range(torch.cuda.device_count())]
    return devices if devices else [torch.device('cpu')]
devices = try_all_gpus()
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
try:
    pnet = nn.DataParallel(net, device_ids=devices)
    print(type(pnet).__name__, pnet.module is net)
    out = pnet(torch.randn(3, 4))
    print(out.shape)
except Exception as e:
    print(type(e).__name__, str(e)[:100])
pnet2 = nn.DataParallel(net)
print(pnet2(torch.randn(5, 4)).shape, pnet2.device_ids, list(pnet2.state_dict().keys())[:2])
def get_params(params, device):
    new_params = [p.to(device) for p in params]
    for p in new_params:
        p.requires_grad_()
    return new_params
params = [torch.randn(2, 2), torch.zeros(2)]
new_params = get_params(params, devices[0])
print('b1 权重:', new_params[1])
print('b1 梯度:', new_params[1].grad)
def allreduce(data):
    for i in range(1, len(data)):
        data[0][:] += data[i].to(data[0].device)
    for i in range(1, len(data)):
        data[i][:] = data[0].to(data[i].device)
data = [torch.ones((1, 2), device=devices[0]) * (i + 1) for i in range(2)]
print('allreduce之前：\n', data[0], '\n', data[1])
allreduce(data)
print('allreduce之后：\n', data[0], '\n', data[1])
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(4, 10)
    def forward(self, x):
        return self.fc(self.features(x))
finetune_net = Net()
finetune_net.fc = nn.Linear(finetune_net.fc.in_features, 2)
nn.init.xavier_uniform_(finetune_net.fc.weight)
learning_rate = 5e-5
params_1x = [param for name, param in finetune_net.named_parameters() if name not in ["fc.weight", "fc.bias"]]
trainer = torch.optim.SGD([{'params': params_1x}, {'params': finetune_net.fc.parameters(), 'lr': learning_rate * 10}], lr=learning_rate, weight_decay=0.001)
print(trainer)
X = torch.randn(4, 3, 8, 8); y = torch.tensor([0, 1, 1, 0])
loss = nn.CrossEntropyLoss(reduction="none")
for i in range(2):
    trainer.zero_grad(); l = loss(finetune_net(X), y); l.sum().backward(); trainer.step()
    print(f'{l.sum().item():.5f}', [g['lr'] for g in trainer.param_groups])
print(finetune_net.fc, len(params_1x))
scatter = nn.parallel.scatter
try:
    print([t.shape for t in scatter(torch.arange(8).reshape(4, 2), devices)])
except Exception as e:
    print(type(e).__name__, str(e)[:100])
''',
    'c14_anchors': PRELUDE + r'''
torch.set_printoptions(2)
def box_corner_to_center(boxes):
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    cx = (x1 + x2) / 2
    cy = (y1 + y2) / 2
    w = x2 - x1
    h = y2 - y1
    boxes = torch.stack((cx, cy, w, h), axis=-1)
    return boxes
def box_center_to_corner(boxes):
    cx, cy, w, h = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    x1 = cx - 0.5 * w
    y1 = cy - 0.5 * h
    x2 = cx + 0.5 * w
    y2 = cy + 0.5 * h
    boxes = torch.stack((x1, y1, x2, y2), axis=-1)
    return boxes
dog_bbox, cat_bbox = [60.0, 45.0, 378.0, 516.0], [400.0, 112.0, 655.0, 493.0]
boxes = torch.tensor((dog_bbox, cat_bbox))
print(box_center_to_corner(box_corner_to_center(boxes)) == boxes)
def multibox_prior(data, sizes, ratios):
    in_height, in_width = data.shape[-2:]
    device, num_sizes, num_ratios = data.device, len(sizes), len(ratios)
    boxes_per_pixel = (num_sizes + num_ratios - 1)
    size_tensor = torch.tensor(sizes, device=device)
    ratio_tensor = torch.tensor(ratios, device=device)
    offset_h, offset_w = 0.5, 0.5
    steps_h = 1.0 / in_height
    steps_w = 1.0 / in_width
    center_h = (torch.arange(in_height, device=device) + offset_h) * steps_h
    center_w = (torch.arange(in_width, device=device) + offset_w) * steps_w
    shift_y, shift_x = torch.meshgrid(center_h, center_w, indexing='ij')
    shift_y, shift_x = shift_y.reshape(-1), shift_x.reshape(-1)
    w = torch.cat((size_tensor * torch.sqrt(ratio_tensor[0]),
                   sizes[0] * torch.sqrt(ratio_tensor[1:])))\
                   * in_height / in_width
    h = torch.cat((size_tensor / torch.sqrt(ratio_tensor[0]),
                   sizes[0] / torch.sqrt(ratio_tensor[1:])))
    anchor_manipulations = torch.stack((-w, -h, w, h)).T.repeat(
                                        in_height * in_width, 1) / 2
    out_grid = torch.stack([shift_x, shift_y, shift_x, shift_y],
                dim=1).repeat_interleave(boxes_per_pixel, dim=0)
    output = out_grid + anchor_manipulations
    return output.unsqueeze(0)
h, w = 6, 8
X = torch.rand(size=(1, 3, h, w))
Y = multibox_prior(X, sizes=[0.75, 0.5, 0.25], ratios=[1, 2, 0.5])
print(Y.shape)
boxes = Y.reshape(h, w, 5, 4)
print(boxes[2, 3, 0, :], boxes[5, 7, 4])
def box_iou(boxes1, boxes2):
    box_area = lambda boxes: ((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))
    areas1 = box_area(boxes1)
    areas2 = box_area(boxes2)
    inter_upperlefts = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    inter_lowerrights = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    inters = (inter_lowerrights - inter_upperlefts).clamp(min=0)
    inter_areas = inters[:, :, 0] * inters[:, :, 1]
    union_areas = areas1[:, None] + areas2 - inter_areas
    return inter_areas / union_areas
def assign_anchor_to_bbox(ground_truth, anchors, device, iou_threshold=0.5):
    num_anchors, num_gt_boxes = anchors.shape[0], ground_truth.shape[0]
    jaccard = box_iou(anchors, ground_truth)
    anchors_bbox_map = torch.full((num_anchors,), -1, dtype=torch.long, device=device)
    max_ious, indices = torch.max(jaccard, dim=1)
    anc_i = torch.nonzero(max_ious >= iou_threshold).reshape(-1)
    box_j = indices[max_ious >= iou_threshold]
    anchors_bbox_map[anc_i] = box_j
    col_discard = torch.full((num_anchors,), -1)
    row_discard = torch.full((num_gt_boxes,), -1)
    for _ in range(num_gt_boxes):
        max_idx = torch.argmax(jaccard)
        box_idx = (max_idx % num_gt_boxes).long()
        anc_idx = (max_idx / num_gt_boxes).long()
        anchors_bbox_map[anc_idx] = box_idx
        jaccard[:, box_idx] = col_discard
        jaccard[anc_idx, :] = row_discard
    return anchors_bbox_map
def offset_boxes(anchors, assigned_bb, eps=1e-6):
    c_anc = box_corner_to_center(anchors)
    c_assigned_bb = box_corner_to_center(assigned_bb)
    offset_xy = 10 * (c_assigned_bb[:, :2] - c_anc[:, :2]) / c_anc[:, 2:]
    offset_wh = 5 * torch.log(eps + c_assigned_bb[:, 2:] / c_anc[:, 2:])
    offset = torch.cat([offset_xy, offset_wh], axis=1)
    return offset
def multibox_target(anchors, labels):
    batch_size, anchors = labels.shape[0], anchors.squeeze(0)
    batch_offset, batch_mask, batch_class_labels = [], [], []
    device, num_anchors = anchors.device, anchors.shape[0]
    for i in range(batch_size):
        label = labels[i, :, :]
        anchors_bbox_map = assign_anchor_to_bbox(label[:, 1:], anchors, device)
        bbox_mask = ((anchors_bbox_map >= 0).float().unsqueeze(-1)).repeat(1, 4)
        class_labels = torch.zeros(num_anchors, dtype=torch.long, device=device)
        assigned_bb = torch.zeros((num_anchors, 4), dtype=torch.float32, device=device)
        indices_true = torch.nonzero(anchors_bbox_map >= 0)
        bb_idx = anchors_bbox_map[indices_true]
        class_labels[indices_true] = label[bb_idx, 0].long() + 1
        assigned_bb[indices_true] = label[bb_idx, 1:]
        offset = offset_boxes(anchors, assigned_bb) * bbox_mask
        batch_offset.append(offset.reshape(-1))
        batch_mask.append(bbox_mask.reshape(-1))
        batch_class_labels.append(class_labels)
    bbox_offset = torch.stack(batch_offset)
    bbox_mask = torch.stack(batch_mask)
    class_labels = torch.stack(batch_class_labels)
    return (bbox_offset, bbox_mask, class_labels)
ground_truth = torch.tensor([[0, 0.1, 0.08, 0.52, 0.92], [1, 0.55, 0.2, 0.9, 0.88]])
anchors = torch.tensor([[0, 0.1, 0.2, 0.3], [0.15, 0.2, 0.4, 0.4], [0.63, 0.05, 0.88, 0.98], [0.66, 0.45, 0.8, 0.8], [0.57, 0.3, 0.92, 0.9]])
labels = multibox_target(anchors.unsqueeze(dim=0), ground_truth.unsqueeze(dim=0))
print(labels[2])
print(labels[1])
print(labels[0])
def offset_inverse(anchors, offset_preds):
    anc = box_corner_to_center(anchors)
    pred_bbox_xy = (offset_preds[:, :2] * anc[:, 2:] / 10) + anc[:, :2]
    pred_bbox_wh = torch.exp(offset_preds[:, 2:] / 5) * anc[:, 2:]
    pred_bbox = torch.cat((pred_bbox_xy, pred_bbox_wh), axis=1)
    predicted_bbox = box_center_to_corner(pred_bbox)
    return predicted_bbox
def nms(boxes, scores, iou_threshold):
    B = torch.argsort(scores, dim=-1, descending=True)
    keep = []
    while B.numel() > 0:
        i = B[0]
        keep.append(i)
        if B.numel() == 1: break
        iou = box_iou(boxes[i, :].reshape(-1, 4), boxes[B[1:], :].reshape(-1, 4)).reshape(-1)
        inds = torch.nonzero(iou <= iou_threshold).reshape(-1)
        B = B[inds + 1]
    return torch.tensor(keep, device=boxes.device)
def multibox_detection(cls_probs, offset_preds, anchors, nms_threshold=0.5, pos_threshold=0.009999999):
    device, batch_size = cls_probs.device, cls_probs.shape[0]
    anchors = anchors.squeeze(0)
    num_classes, num_anchors = cls_probs.shape[1], cls_probs.shape[2]
    out = []
    for i in range(batch_size):
        cls_prob, offset_pred = cls_probs[i], offset_preds[i].reshape(-1, 4)
        conf, class_id = torch.max(cls_prob[1:], 0)
        predicted_bb = offset_inverse(anchors, offset_pred)
        keep = nms(predicted_bb, conf, nms_threshold)
        all_idx = torch.arange(num_anchors, dtype=torch.long, device=device)
        combined = torch.cat((keep, all_idx))
        uniques, counts = combined.unique(return_counts=True)
        non_keep = uniques[counts == 1]
        all_id_sorted = torch.cat((keep, non_keep))
        class_id[non_keep] = -1
        class_id = class_id[all_id_sorted]
        conf, predicted_bb = conf[all_id_sorted], predicted_bb[all_id_sorted]
        below_min_idx = (conf < pos_threshold)
        class_id[below_min_idx] = -1
        conf[below_min_idx] = 1 - conf[below_min_idx]
        pred_info = torch.cat((class_id.unsqueeze(1), conf.unsqueeze(1), predicted_bb), dim=1)
        out.append(pred_info)
    return torch.stack(out)
anchors = torch.tensor([[0.1, 0.08, 0.52, 0.92], [0.08, 0.2, 0.56, 0.95], [0.15, 0.3, 0.62, 0.91], [0.55, 0.2, 0.9, 0.88]])
offset_preds = torch.tensor([0] * anchors.numel())
cls_probs = torch.tensor([[0] * 4, [0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.9]])
output = multibox_detection(cls_probs.unsqueeze(dim=0), offset_preds.unsqueeze(dim=0), anchors.unsqueeze(dim=0), nms_threshold=0.5)
print(output)
for i in output[0].detach().numpy():
    if i[0] == -1:
        continue
    label = ('dog=', 'cat=')[int(i[0])] + str(i[1])
    print(label)
print(torch.get_default_dtype(), offset_preds.dtype)
torch.set_printoptions(profile='default')
''',
    'c14_seg_text': PRELUDE + r'''
torch.manual_seed(0)
def bilinear_kernel(in_channels, out_channels, kernel_size):
    factor = (kernel_size + 1) // 2
    if kernel_size % 2 == 1:
        center = factor - 1
    else:
        center = factor - 0.5
    og = (torch.arange(kernel_size).reshape(-1, 1), torch.arange(kernel_size).reshape(1, -1))
    filt = (1 - torch.abs(og[0] - center) / factor) * (1 - torch.abs(og[1] - center) / factor)
    weight = torch.zeros((in_channels, out_channels, kernel_size, kernel_size))
    weight[range(in_channels), range(out_channels), :, :] = filt
    return weight
conv_trans = nn.ConvTranspose2d(3, 3, kernel_size=4, padding=1, stride=2, bias=False)
conv_trans.weight.data.copy_(bilinear_kernel(3, 3, 4))
print(bilinear_kernel(1, 1, 4))
img = torch.arange(48, dtype=torch.float32).reshape(1, 3, 4, 4) / 47
Y = conv_trans(img)
print('input image shape:', img.permute(0, 2, 3, 1).shape, 'output image shape:', Y.shape)
print(Y[0, 0, :3, :4].detach())
X = torch.rand(size=(1, 3, 64, 64))
net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 8, 3, padding=1), nn.MaxPool2d(2))
num_classes = 5
net.add_module('final_conv', nn.Conv2d(8, num_classes, kernel_size=1))
net.add_module('transpose_conv', nn.ConvTranspose2d(num_classes, num_classes, kernel_size=8, padding=2, stride=4))
print(net(X).shape)
def loss(inputs, targets):
    return F.cross_entropy(inputs, targets, reduction='none').mean(1).mean(1)
print(loss(net(X), torch.randint(0, 5, (1, 64, 64))).shape)
def corr1d(X, K):
    w = K.shape[0]
    Y = torch.zeros((X.shape[0] - w + 1))
    for i in range(Y.shape[0]):
        Y[i] = (X[i: i + w] * K).sum()
    return Y
X, K = torch.tensor([0, 1, 2, 3, 4, 5, 6]), torch.tensor([1, 2])
print(corr1d(X, K))
def corr1d_multi_in(X, K):
    return sum(corr1d(x, k) for x, k in zip(X, K))
X = torch.tensor([[0, 1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 8]])
K = torch.tensor([[1, 2], [3, 4], [-1, -3]])
print(corr1d_multi_in(X, K))
class TextCNN(nn.Module):
    def __init__(self, vocab_size, embed_size, kernel_sizes, num_channels, **kwargs):
        super(TextCNN, self).__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.constant_embedding = nn.Embedding(vocab_size, embed_size)
        self.dropout = nn.Dropout(0.5)
        self.decoder = nn.Linear(sum(num_channels), 2)
        self.pool = nn.AdaptiveAvgPool1d(1)
        self.relu = nn.ReLU()
        self.convs = nn.ModuleList()
        for c, k in zip(num_channels, kernel_sizes):
            self.convs.append(nn.Conv1d(2 * embed_size, c, k))
    def forward(self, inputs):
        embeddings = torch.cat((self.embedding(inputs), self.constant_embedding(inputs)), dim=2)
        embeddings = embeddings.permute(0, 2, 1)
        encoding = torch.cat([torch.squeeze(self.relu(self.pool(conv(embeddings))), dim=-1) for conv in self.convs], dim=1)
        outputs = self.decoder(self.dropout(encoding))
        return outputs
net = TextCNN(30, 6, [3, 4, 5], [4, 4, 4])
def init_weights(m):
    if type(m) in (nn.Linear, nn.Conv1d):
        nn.init.xavier_uniform_(m.weight)
net.apply(init_weights)
net.constant_embedding.weight.requires_grad = False
print(net)
tokens = torch.randint(0, 30, (4, 12)); labels = torch.randint(0, 2, (4,))
trainer = torch.optim.Adam([p for p in net.parameters() if p.requires_grad], lr=0.01)
for epoch in range(3):
    trainer.zero_grad(); l = F.cross_entropy(net(tokens), labels); l.backward(); trainer.step()
    print(f'{l.item():.4f}', net.constant_embedding.weight.grad)
class BiRNN(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, **kwargs):
        super(BiRNN, self).__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.encoder = nn.LSTM(embed_size, num_hiddens, num_layers=num_layers, bidirectional=True)
        self.decoder = nn.Linear(4 * num_hiddens, 2)
    def forward(self, inputs):
        embeddings = self.embedding(inputs.T)
        self.encoder.flatten_parameters()
        outputs, _ = self.encoder(embeddings)
        encoding = torch.cat((outputs[0], outputs[-1]), dim=1)
        outs = self.decoder(encoding)
        return outs
bi = BiRNN(30, 6, 5, 2)
def init_weights2(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
    if type(m) == nn.LSTM:
        for param in m._flat_weights_names:
            if "weight" in param:
                nn.init.xavier_uniform_(m._parameters[param])
bi.apply(init_weights2)
print(bi(tokens).shape, bi)
def gram(X):
    num_channels, n = X.shape[1], X.numel() // X.shape[1]
    X = X.reshape((num_channels, n))
    return torch.matmul(X, X.T) / (num_channels * n)
def tv_loss(Y_hat):
    return 0.5 * (torch.abs(Y_hat[:, :, 1:, :] - Y_hat[:, :, :-1, :]).mean() + torch.abs(Y_hat[:, :, :, 1:] - Y_hat[:, :, :, :-1]).mean())
Y = torch.arange(2 * 3 * 3, dtype=torch.float32).reshape(1, 2, 3, 3)
print(gram(Y), tv_loss(Y))
class SynthesizedImage(nn.Module):
    def __init__(self, img_shape, **kwargs):
        super(SynthesizedImage, self).__init__(**kwargs)
        self.weight = nn.Parameter(torch.rand(*img_shape))
    def forward(self):
        return self.weight
gen_img = SynthesizedImage((1, 3, 4, 4))
gen_img.weight.data.copy_(torch.ones(1, 3, 4, 4))
trainer = torch.optim.Adam(gen_img.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(trainer, 2, 0.8)
for i in range(3):
    trainer.zero_grad(); l = tv_loss(gen_img() * torch.arange(16.).reshape(4, 4)); l.backward(); trainer.step(); scheduler.step()
    print(f'{l.item():.4f}', trainer.param_groups[0]['lr'])
''',
    'c15_bpe_glove_bert': PRELUDE + r'''
import collections
torch.manual_seed(0)
symbols = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', '_', '[UNK]']
raw_token_freqs = {'fast_': 4, 'faster_': 3, 'tall_': 5, 'taller_': 4}
token_freqs = {}
for token, freq in raw_token_freqs.items():
    token_freqs[' '.join(list(token))] = raw_token_freqs[token]
print(token_freqs)
def get_max_freq_pair(token_freqs):
    pairs = collections.defaultdict(int)
    for token, freq in token_freqs.items():
        symbols = token.split()
        for i in range(len(symbols) - 1):
            pairs[symbols[i], symbols[i + 1]] += freq
    return max(pairs, key=pairs.get)
def merge_symbols(max_freq_pair, token_freqs, symbols):
    symbols.append(''.join(max_freq_pair))
    new_token_freqs = dict()
    for token, freq in token_freqs.items():
        new_token = token.replace(' '.join(max_freq_pair), ''.join(max_freq_pair))
        new_token_freqs[new_token] = token_freqs[token]
    return new_token_freqs
num_merges = 10
for i in range(num_merges):
    max_freq_pair = get_max_freq_pair(token_freqs)
    token_freqs = merge_symbols(max_freq_pair, token_freqs, symbols)
    print(f'合并# {i+1}:',max_freq_pair)
print(symbols)
print(list(token_freqs.keys()))
def segment_BPE(tokens, symbols):
    outputs = []
    for token in tokens:
        start, end = 0, len(token)
        cur_output = []
        while start < len(token) and start < end:
            if token[start: end] in symbols:
                cur_output.append(token[start: end])
                start = end
                end = len(token)
            else:
                end -= 1
        if start < len(token):
            cur_output.append('[UNK]')
        outputs.append(' '.join(cur_output))
    return outputs
print(segment_BPE(['tallest_', 'fatter_'], symbols))
idx_to_token = ['<unk>', 'chip', 'intel', 'baby', 'babies', 'boy', 'beautiful', 'lovely', 'do', 'go']
token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
vecs = torch.randn(len(idx_to_token), 6)
vecs[2] = vecs[1] + 0.1 * torch.randn(6); vecs[4] = vecs[3] + 0.2 * torch.randn(6); vecs[7] = vecs[6] * 1.5
def knn(W, x, k):
    cos = torch.mv(W, x.reshape(-1,)) / (
        torch.sqrt(torch.sum(W * W, axis=1) + 1e-9) *
        torch.sqrt((x * x).sum()))
    _, topk = torch.topk(cos, k=k)
    return topk, [cos[int(i)] for i in topk]
def get_similar_tokens(query_token, k):
    topk, cos = knn(vecs, vecs[token_to_idx[query_token]], k + 1)
    for i, c in zip(topk[1:], cos[1:]):
        print(f'{idx_to_token[int(i)]}：cosine相似度={float(c):.3f}')
get_similar_tokens('chip', 3)
get_similar_tokens('baby', 3)
def get_analogy(token_a, token_b, token_c):
    vecs_ = vecs[[token_to_idx[t] for t in (token_a, token_b, token_c)]]
    x = vecs_[1] - vecs_[0] + vecs_[2]
    topk, cos = knn(vecs, x, 1)
    return idx_to_token[int(topk[0])]
print(get_analogy('baby', 'babies', 'boy'), knn(vecs, vecs[0], 2))
def get_tokens_and_segments(tokens_a, tokens_b=None):
    tokens = ['<cls>'] + tokens_a + ['<sep>']
    segments = [0] * (len(tokens_a) + 2)
    if tokens_b is not None:
        tokens += tokens_b + ['<sep>']
        segments += [1] * (len(tokens_b) + 1)
    return tokens, segments
print(get_tokens_and_segments(['a', 'b'], ['c']))
class BERTEncoder(nn.Module):
    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, dropout, max_len=1000, **kwargs):
        super(BERTEncoder, self).__init__(**kwargs)
        self.token_embedding = nn.Embedding(vocab_size, num_hiddens)
        self.segment_embedding = nn.Embedding(2, num_hiddens)
        self.blks = nn.Sequential()
        for i in range(num_blks):
            self.blks.add_module(f"{i}", nn.TransformerEncoderLayer(num_hiddens, num_heads, ffn_num_hiddens, dropout, batch_first=True))
        self.pos_embedding = nn.Parameter(torch.randn(1, max_len, num_hiddens))
    def forward(self, tokens, segments, valid_lens):
        X = self.token_embedding(tokens) + self.segment_embedding(segments)
        X = X + self.pos_embedding[:, :X.shape[1], :]
        mask = torch.arange(X.shape[1])[None, :] >= valid_lens[:, None]
        for blk in self.blks:
            X = blk(X, src_key_padding_mask=mask)
        return X
vocab_size, num_hiddens, ffn_num_hiddens, num_heads = 100, 8, 16, 2
encoder = BERTEncoder(vocab_size, num_hiddens, ffn_num_hiddens, num_heads, 2, 0.0, max_len=20)
encoder.eval()
tokens = torch.randint(0, vocab_size, (2, 8))
segments = torch.tensor([[0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]])
encoded_X = encoder(tokens, segments, torch.tensor([8, 6]))
print(encoded_X.shape)
class MaskLM(nn.Module):
    def __init__(self, vocab_size, num_hiddens, **kwargs):
        super(MaskLM, self).__init__(**kwargs)
        self.mlp = nn.Sequential(nn.LazyLinear(num_hiddens), nn.ReLU(), nn.LayerNorm(num_hiddens), nn.LazyLinear(vocab_size))
    def forward(self, X, pred_positions):
        num_pred_positions = pred_positions.shape[1]
        pred_positions = pred_positions.reshape(-1)
        batch_size = X.shape[0]
        batch_idx = torch.arange(0, batch_size)
        batch_idx = torch.repeat_interleave(batch_idx, num_pred_positions)
        masked_X = X[batch_idx, pred_positions]
        masked_X = masked_X.reshape((batch_size, num_pred_positions, -1))
        mlm_Y_hat = self.mlp(masked_X)
        return mlm_Y_hat
mlm = MaskLM(vocab_size, num_hiddens)
mlm_positions = torch.tensor([[1, 5, 2], [6, 1, 5]])
mlm_Y_hat = mlm(encoded_X, mlm_positions)
print(mlm_Y_hat.shape)
mlm_Y = torch.tensor([[7, 8, 9], [10, 20, 30]])
loss = nn.CrossEntropyLoss(reduction='none')
mlm_l = loss(mlm_Y_hat.reshape((-1, vocab_size)), mlm_Y.reshape(-1))
print(mlm_l.shape, mlm_l.grad_fn)
class NextSentencePred(nn.Module):
    def __init__(self, **kwargs):
        super(NextSentencePred, self).__init__(**kwargs)
        self.output = nn.LazyLinear(2)
    def forward(self, X):
        return self.output(X)
encoded_X = torch.flatten(encoded_X, start_dim=1)
nsp = NextSentencePred()
nsp_Y_hat = nsp(encoded_X)
print(nsp_Y_hat.shape)
nsp_y = torch.tensor([0, 1])
nsp_l = loss(nsp_Y_hat, nsp_y)
print(nsp_l.shape, nsp)
''',
    'c15_word2vec': PRELUDE + r'''
import random, collections
random.seed(0); torch.manual_seed(0)
sentences = [[random.choice('abcdefghij') for _ in range(random.randint(3, 9))] for _ in range(30)]
counter = collections.Counter([t for line in sentences for t in line])
idx_to_token = ['<unk>'] + [t for t, _ in sorted(counter.items(), key=lambda x: (-x[1], x[0]))]
token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
corpus = [[token_to_idx[t] for t in line] for line in sentences]
print(len(idx_to_token), corpus[:2])
def get_centers_and_contexts(corpus, max_window_size):
    centers, contexts = [], []
    for line in corpus:
        if len(line) < 2:
            continue
        centers += line
        for i in range(len(line)):
            window_size = random.randint(1, max_window_size)
            indices = list(range(max(0, i - window_size), min(len(line), i + 1 + window_size)))
            indices.remove(i)
            contexts.append([line[idx] for idx in indices])
    return centers, contexts
tiny_dataset = [list(range(7)), list(range(7, 10))]
print('数据集', tiny_dataset)
for center, context in zip(*get_centers_and_contexts(tiny_dataset, 2)):
    print('中心词', center, '的上下文词是', context)
all_centers, all_contexts = get_centers_and_contexts(corpus, 2)
class RandomGenerator:
    def __init__(self, sampling_weights):
        self.population = list(range(1, len(sampling_weights) + 1))
        self.sampling_weights = sampling_weights
        self.candidates = []
        self.i = 0
    def draw(self):
        if self.i == len(self.candidates):
            self.candidates = random.choices(self.population, self.sampling_weights, k=10000)
            self.i = 0
        self.i += 1
        return self.candidates[self.i - 1]
generator = RandomGenerator([2, 3, 4])
print([generator.draw() for _ in range(10)])
def get_negatives(all_contexts, num_noise_words):
    sampling_weights = [counter[idx_to_token[i]]**0.75 for i in range(1, len(idx_to_token))]
    all_negatives, generator = [], RandomGenerator(sampling_weights)
    for contexts in all_contexts:
        negatives = []
        while len(negatives) < len(contexts) * num_noise_words:
            neg = generator.draw()
            if neg not in contexts:
                negatives.append(neg)
        all_negatives.append(negatives)
    return all_negatives
all_negatives = get_negatives(all_contexts, 2)
def batchify(data):
    max_len = max(len(c) + len(n) for _, c, n in data)
    centers, contexts_negatives, masks, labels = [], [], [], []
    for center, context, negative in data:
        cur_len = len(context) + len(negative)
        centers += [center]
        contexts_negatives += [context + negative + [0] * (max_len - cur_len)]
        masks += [[1] * cur_len + [0] * (max_len - cur_len)]
        labels += [[1] * len(context) + [0] * (max_len - len(context))]
    return (torch.tensor(centers).reshape((-1, 1)), torch.tensor(contexts_negatives), torch.tensor(masks), torch.tensor(labels))
x_1 = (1, [2, 2], [3, 3, 3, 3])
x_2 = (1, [2, 2, 2], [3, 3])
batch = batchify((x_1, x_2))
names = ['centers', 'contexts_negatives', 'masks', 'labels']
for name, data in zip(names, batch):
    print(name, '=', data)
embed = nn.Embedding(num_embeddings=20, embedding_dim=4)
print(f'Parameter embedding_weight ({embed.weight.shape}, dtype={embed.weight.dtype})')
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(embed(x).shape)
def skip_gram(center, contexts_and_negatives, embed_v, embed_u):
    v = embed_v(center)
    u = embed_u(contexts_and_negatives)
    pred = torch.bmm(v, u.permute(0, 2, 1))
    return pred
print(skip_gram(torch.ones((2, 1), dtype=torch.long), torch.ones((2, 4), dtype=torch.long), embed, embed).shape)
class SigmoidBCELoss(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, inputs, target, mask=None):
        out = nn.functional.binary_cross_entropy_with_logits(inputs, target, weight=mask, reduction="none")
        return out.mean(dim=1)
loss = SigmoidBCELoss()
pred = torch.tensor([[1.1, -2.2, 3.3, -4.4]] * 2)
label = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
print(loss(pred, label, mask) * mask.shape[1] / mask.sum(axis=1))
def sigmd(x):
    return -math.log(1 / (1 + math.exp(-x)))
print(f'{(sigmd(1.1) + sigmd(2.2) + sigmd(-3.3) + sigmd(4.4)) / 4:.4f}')
print(f'{(sigmd(-1.1) + sigmd(-2.2)) / 2:.4f}')
embed_size = 8
net = nn.Sequential(nn.Embedding(num_embeddings=len(idx_to_token), embedding_dim=embed_size),
                    nn.Embedding(num_embeddings=len(idx_to_token), embedding_dim=embed_size))
def init_weights(m):
    if type(m) == nn.Embedding:
        nn.init.xavier_uniform_(m.weight)
net.apply(init_weights)
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
data = list(zip(all_centers, all_contexts, all_negatives))
for epoch in range(3):
    tot, n = 0.0, 0
    for i in range(0, len(data), 32):
        center, context_negative, mask, label = batchify(data[i:i + 32])
        optimizer.zero_grad()
        pred = skip_gram(center, context_negative, net[0], net[1])
        l = (loss(pred.reshape(label.shape).float(), label.float(), mask) / mask.sum(axis=1) * mask.shape[1])
        l.sum().backward()
        optimizer.step()
        tot += l.sum(); n += l.numel()
    print(f'loss {tot / n:.3f}')
def get_similar_tokens(query_token, k, embed):
    W = embed.weight.data
    x = W[token_to_idx[query_token]]
    cos = torch.mv(W, x) / torch.sqrt(torch.sum(W * W, dim=1) * torch.sum(x * x) + 1e-9)
    topk = torch.topk(cos, k=k+1)[1].cpu().numpy().astype('int32')
    for i in topk[1:]:
        print(f'cosine sim={float(cos[i]):.3f}: {idx_to_token[i]}')
get_similar_tokens('a', 3, net[0])
''',
    'c17_recsys': PRELUDE + r'''
torch.manual_seed(0)
num_users, num_items = 12, 15
users = torch.randint(0, num_users, (80,)); items = torch.randint(0, num_items, (80,))
scores = torch.randint(1, 6, (80,)).float()
sparsity = 1 - len(set(zip(users.tolist(), items.tolist()))) / (num_users * num_items)
print(f'matrix sparsity: {sparsity:f}')
class MF(nn.Module):
    def __init__(self, num_factors, num_users, num_items, **kwargs):
        super(MF, self).__init__(**kwargs)
        self.P = nn.Embedding(num_embeddings=num_users, embedding_dim=num_factors)
        self.Q = nn.Embedding(num_embeddings=num_items, embedding_dim=num_factors)
        self.user_bias = nn.Embedding(num_users, 1)
        self.item_bias = nn.Embedding(num_items, 1)
    def forward(self, user_id, item_id):
        P_u = self.P(user_id)
        Q_i = self.Q(item_id)
        b_u = self.user_bias(user_id)
        b_i = self.item_bias(item_id)
        outputs = (P_u * Q_i).sum(axis=1) + torch.squeeze(b_u) + torch.squeeze(b_i)
        return outputs.flatten()
net = MF(4, num_users, num_items)
for p in net.parameters():
    nn.init.normal_(p, std=0.01)
opt = torch.optim.Adam(net.parameters(), lr=0.02, weight_decay=1e-5)
loss = nn.MSELoss()
for epoch in range(5):
    for i in range(0, 80, 20):
        opt.zero_grad()
        l = loss(net(users[i:i+20], items[i:i+20]), scores[i:i+20])
        l.backward(); opt.step()
    with torch.no_grad():
        rmse = torch.sqrt(loss(net(users, items), scores))
    print(f'epoch {epoch + 1}, train loss {l.item():.3f}, rmse {rmse:.3f}')
print(net(torch.tensor([2]), torch.tensor([3])).shape)
class AutoRec(nn.Module):
    def __init__(self, num_hidden, num_users, dropout=0.05):
        super(AutoRec, self).__init__()
        self.encoder = nn.Linear(num_users, num_hidden)
        self.decoder = nn.Linear(num_hidden, num_users)
        self.dropout = nn.Dropout(dropout)
    def forward(self, input):
        hidden = self.dropout(torch.sigmoid(self.encoder(input)))
        pred = self.decoder(hidden)
        if self.training:
            return pred * torch.sign(input)
        else:
            return pred
R = torch.zeros(num_items, num_users)
R[items, users] = scores
print(R.sum(), (R > 0).sum())
ar = AutoRec(6, num_users)
opt = torch.optim.Adam(ar.parameters(), lr=0.01)
for epoch in range(5):
    ar.train(); opt.zero_grad()
    l = ((ar(R) - R) ** 2).sum() / 2
    l.backward(); opt.step()
    ar.eval()
    with torch.no_grad():
        pred = ar(R)
        rmse = torch.sqrt(torch.sum(torch.square(R - torch.sign(R) * pred)) / torch.sum(torch.sign(R)))
    print(f'{l.item():.3f} {rmse.item():.3f}')
class NeuMF(nn.Module):
    def __init__(self, num_factors, num_users, num_items, nums_hiddens, **kwargs):
        super(NeuMF, self).__init__(**kwargs)
        self.P = nn.Embedding(num_users, num_factors)
        self.Q = nn.Embedding(num_items, num_factors)
        self.U = nn.Embedding(num_users, num_factors)
        self.V = nn.Embedding(num_items, num_factors)
        layers = []
        in_f = num_factors * 2
        for num_hiddens in nums_hiddens:
            layers += [nn.Linear(in_f, num_hiddens), nn.ReLU()]
            in_f = num_hiddens
        self.mlp = nn.Sequential(*layers)
        self.prediction_layer = nn.Linear(in_f + num_factors, 1, bias=False)
    def forward(self, user_id, item_id):
        p_mf = self.P(user_id)
        q_mf = self.Q(item_id)
        gmf = p_mf * q_mf
        p_mlp = self.U(user_id)
        q_mlp = self.V(item_id)
        mlp = self.mlp(torch.cat([p_mlp, q_mlp], dim=1))
        con_res = torch.cat([gmf, mlp], dim=1)
        return torch.sigmoid(self.prediction_layer(con_res))
nm = NeuMF(4, num_users, num_items, [8, 8, 8])
print(nm)
def bpr_loss(positive, negative):
    return -torch.sum(torch.log(torch.sigmoid(positive - negative)))
neg_items = torch.randint(0, num_items, (80,))
opt = torch.optim.Adam(nm.parameters(), lr=0.01)
for epoch in range(4):
    opt.zero_grad()
    p = nm(users, items); n = nm(users, neg_items)
    l = bpr_loss(p, n)
    l.backward(); opt.step()
    print(f'{l.item():.4f}', p.shape)
class HingeLossbRec(nn.Module):
    def forward(self, positive, negative, margin=1):
        return torch.sum(torch.relu(negative - positive + margin))
print(HingeLossbRec()(torch.tensor([0.5, 2.0]), torch.tensor([1.0, 0.2])))
''',
    'c18_gp': PRELUDE + r'''
import numpy as np
torch.manual_seed(0)
def rbfkernel(x1, x2, ls=4.):
    dist = torch.cdist(x1.reshape(-1, 1), x2.reshape(-1, 1)) ** 2
    return torch.exp(-(1. / ls / 2) * dist)
x_points = torch.linspace(0, 5, 12)
meanvec = torch.zeros(len(x_points))
covmat = rbfkernel(x_points, x_points, 1)
print(covmat.shape, covmat[0, :4])
def data_maker1(x, sig):
    return torch.sin(x) + 0.5 * torch.sin(4 * x) + torch.randn(x.shape) * sig
sig = 0.25
train_x, test_x = torch.linspace(0, 5, 10), torch.linspace(0, 5, 30)
train_y, test_y = data_maker1(train_x, sig=sig), data_maker1(test_x, sig=0.)
ell_est, post_sig_est = 0.4, 0.25
K_x_xstar = rbfkernel(train_x, test_x, ell_est)
K_x_x = rbfkernel(train_x, train_x, ell_est)
K_xstar_xstar = rbfkernel(test_x, test_x, ell_est)
A = K_x_x + post_sig_est ** 2 * torch.eye(train_x.shape[0])
post_mean = K_x_xstar.T @ torch.linalg.solve(A, train_y)
post_cov = K_xstar_xstar - K_x_xstar.T @ torch.linalg.solve(A, K_x_xstar)
print(post_mean.shape, post_cov.shape, torch.allclose(post_cov, post_cov.T, atol=1e-5))
lw_bd = post_mean - 2 * torch.sqrt(torch.clamp(torch.diag(post_cov), min=0))
print(lw_bd.shape)
L = torch.linalg.cholesky(A)
alpha = torch.cholesky_solve(train_y.reshape(-1, 1), L)
print(L.shape, torch.allclose(L @ L.T, A, atol=1e-5), torch.allclose(alpha.reshape(-1), torch.linalg.solve(A, train_y), atol=1e-4))
print(torch.allclose(K_x_xstar.T @ alpha.reshape(-1), post_mean, atol=1e-4))
logdet = 2 * torch.log(torch.diagonal(L)).sum()
print(torch.allclose(logdet, torch.logdet(A), atol=1e-4))
try:
    torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 1.]]))
except Exception as e:
    print(type(e).__name__, e)
class RBF(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_ls = nn.Parameter(torch.tensor(0.))
        self.log_sig = nn.Parameter(torch.tensor(-1.))
    def nll(self, x, y):
        K = rbfkernel(x, x, torch.exp(self.log_ls)) + torch.exp(self.log_sig) ** 2 * torch.eye(len(x))
        L = torch.linalg.cholesky(K)
        a = torch.cholesky_solve(y.reshape(-1, 1), L)
        return 0.5 * (y.reshape(1, -1) @ a).squeeze() + torch.log(torch.diagonal(L)).sum() + 0.5 * len(x) * math.log(2 * math.pi)
m = RBF()
opt = torch.optim.Adam(m.parameters(), lr=0.1)
for i in range(5):
    opt.zero_grad(); l = m.nll(train_x.double().float(), train_y); l.backward(); opt.step()
    print(f'{l.item():.3f}', f'{m.log_ls.item():.3f}', f'{m.log_sig.item():.3f}')
print(torch.distributions.MultivariateNormal(torch.zeros(3), scale_tril=torch.linalg.cholesky(covmat[:3, :3] + 1e-4 * torch.eye(3))).batch_shape)
''',
    'c19_hpo': PRELUDE + r'''
import random
random.seed(0); torch.manual_seed(0)
X = torch.randn(80, 4); y = (X @ torch.tensor([1., -1., 2., 0.5]) > 0).long()
def objective(learning_rate, batch_size, max_epochs=3):
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    opt = torch.optim.SGD(net.parameters(), lr=learning_rate)
    for _ in range(max_epochs):
        for i in range(0, 60, batch_size):
            opt.zero_grad()
            F.cross_entropy(net(X[i:i+batch_size]), y[i:i+batch_size]).backward()
            opt.step()
    with torch.no_grad():
        return 1 - (net(X[60:]).argmax(1) == y[60:]).float().mean().item()
class HPOSearcher:
    def sample_configuration(self):
        raise NotImplementedError
class RandomSearcher(HPOSearcher):
    def __init__(self, config_space, initial_config=None):
        self.config_space = config_space
        self.initial_config = initial_config
    def sample_configuration(self):
        if self.initial_config is not None:
            result = self.initial_config
            self.initial_config = None
        else:
            result = {name: domain() for name, domain in self.config_space.items()}
        return result
config_space = {"learning_rate": lambda: 10 ** random.uniform(-2, 0), "batch_size": lambda: random.randint(8, 32)}
searcher = RandomSearcher(config_space, initial_config={"learning_rate": 0.1, "batch_size": 16})
incumbent, incumbent_error, records = None, None, []
for t in range(6):
    config = searcher.sample_configuration()
    error = objective(**config)
    if incumbent is None or incumbent_error > error:
        incumbent, incumbent_error = config, error
    records.append(error)
    print(f'trial {t}: lr {config["learning_rate"]:.4f} bs {config["batch_size"]} error {error:.3f}')
print(incumbent_error, len(records))
class SuccessiveHalving:
    def __init__(self, min_r, max_r, eta):
        self.eta = eta
        self.K = int(math.log(max_r / min_r, eta))
        self.rung_levels = [min_r * eta ** k for k in range(self.K + 1)]
print(SuccessiveHalving(1, 9, 3).rung_levels)
try:
    HPOSearcher().sample_configuration()
except NotImplementedError as e:
    print('NotImplementedError', repr(e))
''',
    'c20_gan': PRELUDE + r'''
torch.manual_seed(0)
X = torch.normal(0.0, 1, (200, 2))
A = torch.tensor([[1, 2], [-0.1, 0.5]])
b = torch.tensor([1, 2])
data = torch.matmul(X, A) + b
print(f'The covariance matrix is\n{torch.matmul(A.T, A)}')
print(data[:3])
batch_size = 20
net_G = nn.Sequential(nn.Linear(2, 2))
net_D = nn.Sequential(
    nn.Linear(2, 5), nn.Tanh(),
    nn.Linear(5, 3), nn.Tanh(),
    nn.Linear(3, 1))
def update_D(X, Z, net_D, net_G, loss, trainer_D):
    batch_size = X.shape[0]
    ones = torch.ones((batch_size,), device=X.device)
    zeros = torch.zeros((batch_size,), device=X.device)
    trainer_D.zero_grad()
    real_Y = net_D(X)
    fake_X = net_G(Z)
    fake_Y = net_D(fake_X.detach())
    loss_D = (loss(real_Y, ones.reshape(real_Y.shape)) +
              loss(fake_Y, zeros.reshape(fake_Y.shape))) / 2
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
for epoch in range(4):
    tot_D = tot_G = 0.0
    for i in range(0, 200, batch_size):
        X = data[i:i+batch_size]
        Z = torch.normal(0, 1, size=(X.shape[0], 2))
        tot_D += update_D(X, Z, net_D, net_G, loss, trainer_D)
        tot_G += update_G(Z, net_D, net_G, loss, trainer_G)
    loss_D, loss_G = tot_D / 200, tot_G / 200
    print(f'loss_D {loss_D:.3f}, loss_G {loss_G:.3f}')
class G_block(nn.Module):
    def __init__(self, out_channels, in_channels=3, kernel_size=4, strides=2, padding=1, **kwargs):
        super(G_block, self).__init__(**kwargs)
        self.conv2d_trans = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, strides, padding, bias=False)
        self.batch_norm = nn.BatchNorm2d(out_channels)
        self.activation = nn.ReLU()
    def forward(self, X):
        return self.activation(self.batch_norm(self.conv2d_trans(X)))
x = torch.zeros((2, 3, 16, 16))
g_blk = G_block(20)
print(g_blk(x).shape)
x = torch.zeros((2, 3, 1, 1))
g_blk = G_block(20, strides=1, padding=0)
print(g_blk(x).shape)
n_G = 8
net_G = nn.Sequential(
    G_block(in_channels=10, out_channels=n_G*4, strides=1, padding=0),
    G_block(in_channels=n_G*4, out_channels=n_G*2),
    G_block(in_channels=n_G*2, out_channels=n_G),
    nn.ConvTranspose2d(in_channels=n_G, out_channels=3, kernel_size=4, stride=2, padding=1, bias=False),
    nn.Tanh())
x = torch.zeros((1, 10, 1, 1))
print(net_G(x).shape)
alphas = [0, .2, .4, .6, .8, 1]
x = torch.arange(-2, 1, 0.1)
Y = [nn.LeakyReLU(alpha)(x).detach().numpy() for alpha in alphas]
print([float(y[3]) for y in Y])
class D_block(nn.Module):
    def __init__(self, out_channels, in_channels=3, kernel_size=4, strides=2, padding=1, alpha=0.2, **kwargs):
        super(D_block, self).__init__(**kwargs)
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding, bias=False)
        self.batch_norm = nn.BatchNorm2d(out_channels)
        self.activation = nn.LeakyReLU(alpha, inplace=True)
    def forward(self, X):
        return self.activation(self.batch_norm(self.conv2d(X)))
x = torch.zeros((2, 3, 16, 16))
d_blk = D_block(20)
print(d_blk(x).shape)
print(d_blk)
''',
    'c22_math_appendix': PRELUDE + r'''
import numpy as np
torch.manual_seed(0)
A = torch.tensor([[2, 1], [2, 3]], dtype=torch.float64)
eigvals, eigvecs = torch.linalg.eig(A)
print(eigvals.real.sort().values, eigvecs.dtype, eigvals.dtype)
B = torch.tensor([[2., 1], [1, 3]], dtype=torch.float64)
w, V = torch.linalg.eigh(B)
print(w, V.abs())
print(torch.linalg.eigvalsh(B), torch.linalg.svdvals(B))
v = torch.tensor([1, 2], dtype=torch.float64)
print(torch.dot(v, v), torch.linalg.norm(v), torch.acos(torch.dot(v, torch.tensor([2., 1], dtype=torch.float64)) / 5))
def angle(v, w):
    return torch.acos(v.dot(w) / (torch.norm(v) * torch.norm(w)))
print(angle(torch.tensor([0, 1, 2], dtype=torch.float32), torch.tensor([2.0, 3, 4])))
M = torch.tensor([[1, 2], [3, 4]], dtype=torch.float32)
M_inv = torch.tensor([[-2, 1], [1.5, -0.5]])
print(M_inv @ M, torch.det(M), torch.linalg.inv(M))
a = torch.tensor([[1, 2], [3, 4]]); b = torch.tensor([[5, 6], [7, 8]])
print(torch.einsum("ij, j -> i", a, torch.tensor([1, 1])), torch.einsum("ij,jk->ik", a, b))
print(torch.einsum("ijk, il, j -> kl", torch.ones(2, 3, 4), torch.ones(2, 5), torch.ones(3)).shape)
def nansum(x):
    return x[~torch.isnan(x)].sum()
def entropy(p):
    ent = - p * torch.log2(p)
    out = nansum(ent)
    return out
print(entropy(torch.tensor([0.1, 0.5, 0.1, 0.3])))
def joint_entropy(p_xy):
    joint_ent = -p_xy * torch.log2(p_xy)
    out = nansum(joint_ent)
    return out
print(joint_entropy(torch.tensor([[0.1, 0.5], [0.1, 0.3]])))
def kl_divergence(p, q):
    kl = p * torch.log2(p / q)
    out = nansum(kl)
    return out.abs().item()
print(round(kl_divergence(torch.tensor([0.1, 0.9]), torch.tensor([0.5, 0.5])), 4))
print(entropy(torch.tensor([0.0, 1.0])), torch.nansum(torch.tensor([float('nan'), 1.])))
def cross_entropy(y_hat, y):
    ce = -torch.log(y_hat[range(len(y_hat)), y])
    return ce.mean()
labels = torch.tensor([0, 2])
preds = torch.tensor([[0.3, 0.6, 0.1], [0.2, 0.3, 0.5]])
print(cross_entropy(preds, labels))
nll_loss = nn.NLLLoss()
loss = nll_loss(torch.log(preds), labels)
print(loss)
x = torch.arange(-2, 2, 0.01)
f = torch.exp(-x**2)
print(f'{torch.sum(0.01 * f).item():.4f}', x.shape)
epsilon = 0.1
random_walk = torch.normal(0, 1, (10, 3)).cumsum(0)
print(random_walk[-1])
samples = torch.normal(0, 1, (1000,))
print(f'{samples.mean():.3f} {samples.std():.3f} {torch.var(samples, unbiased=False):.3f}')
print(torch.distributions.Bernoulli(0.3).sample((6,)), torch.distributions.Normal(torch.tensor([0.]), torch.tensor([1.])).log_prob(torch.tensor([0.5])))
print(torch.distributions.Binomial(10, torch.tensor(0.2)).log_prob(torch.tensor(3.)), torch.distributions.Poisson(torch.tensor(2.)).log_prob(torch.tensor(1.)))
print(torch.lgamma(torch.tensor([5., 0.5])), torch.special.gammaln(torch.tensor(3.)))
def naive_bayes_like(X, P_y, P_xy):
    p_xy = P_xy * X + (1 - P_xy) * (1 - X)
    return p_xy.reshape(10, -1).prod(dim=1) * P_y
P_y = torch.ones(10) / 10; P_xy = torch.rand(10, 16)
X = (torch.rand(16) > 0.5).float()
p = naive_bayes_like(X, P_y, P_xy)
print(p.argmax(), torch.log(p).argmax())
''',
    'c99_warnings': PRELUDE + r'''
import warnings
def show(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            r = fn()
            out = r.shape if hasattr(r, 'shape') else r
        except Exception as e:
            out = f'{type(e).__name__}: {str(e).splitlines()[0]}'
    print(out, [(x.category.__name__, str(x.message).splitlines()[0].split(' (Triggered internally')[0][:120]) for x in w])
x3 = torch.ones(2, 3, 4)
show(lambda: x3.T)
show(lambda: torch.meshgrid(torch.arange(2), torch.arange(3)))
show(lambda: F.softmax(torch.ones(2, 3)))
show(lambda: F.log_softmax(torch.ones(2, 3)))
show(lambda: nn.Softmax()(torch.ones(2, 3)))
show(lambda: torch.tensor(torch.ones(2)))
show(lambda: nn.MSELoss(size_average=False)(torch.ones(2), torch.zeros(2)))
show(lambda: nn.MSELoss()(torch.ones(2, 1), torch.zeros(2)))
show(lambda: nn.utils.clip_grad_norm(nn.Linear(2, 2).parameters(), 1.0))
show(lambda: F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2))
show(lambda: F.sigmoid(torch.ones(2)))
show(lambda: F.tanh(torch.ones(2)))
show(lambda: nn.init.normal(torch.ones(2)))
show(lambda: nn.init.xavier_uniform(torch.ones(2, 2)))
show(lambda: torch.ones(2).cpu().numpy().shape)
show(lambda: nn.GRU(4, 4, 1, dropout=0.3))
show(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, batch_first=False), 2))
show(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, norm_first=True, batch_first=True), 2))
show(lambda: torch.load.__name__)
show(lambda: torch.arange(5).float().sum(0, keepdim=True).mean(0, True))
show(lambda: torch.nn.functional.dropout(torch.ones(3), p=0.5, training=False))
show(lambda: nn.Dropout2d()(torch.ones(2, 3)))
show(lambda: nn.Dropout1d()(torch.ones(2, 3, 4)).shape)
show(lambda: torch.std(torch.ones(1)))
show(lambda: torch.var(torch.ones(1), dim=0))
show(lambda: nn.BatchNorm1d(3, momentum=None))
show(lambda: nn.CrossEntropyLoss(reduce=False))
show(lambda: torch.nn.utils.weight_norm(nn.Linear(2, 2)))
show(lambda: nn.LazyLinear(3))
show(lambda: nn.Flatten()(torch.ones(2)))
show(lambda: nn.Linear(3, 2)(torch.ones(3, dtype=torch.float64)))
show(lambda: nn.Embedding(4, 2)(torch.tensor([4])))
show(lambda: nn.Embedding(4, 2)(torch.tensor([1.0])))
show(lambda: F.one_hot(torch.tensor([1.0])))
show(lambda: F.one_hot(torch.tensor([3]), 3))
show(lambda: torch.cat([torch.ones(2), torch.ones(2, 1)]))
show(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
show(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
show(lambda: torch.bmm(torch.ones(2, 3), torch.ones(2, 3)))
show(lambda: torch.ones(2, 3).view(4))
show(lambda: torch.ones(2, 3).t().view(6))
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
