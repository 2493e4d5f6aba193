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
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
