"""PyTorch's official tutorials and recipes as users type them, run under real torch and under
ember (`import ember as torch`): what each snippet prints, including an exception's type and
first line, must be identical.

Learn the Basics (tensors, a custom Dataset with plain-function transforms, DataLoader, building
a model, autograd, the optimization loop, saving and loading), the 60 Minute Blitz, "What is
torch.nn really?", "Learning PyTorch with Examples" (numpy to tensors to autograd to a custom
Function to nn, optim, a custom Module and dynamic control flow), the recipes (state_dict,
saving for inference, checkpoints, zeroing gradients, warmstarting, defining a network, devices,
tensor basics, shapes, CPU autocast, default device), the autograd, broadcasting,
reproducibility and numerical-accuracy notes, a char-RNN name classifier, seq2seq attention
shapes, DCGAN blocks, transfer-learning fine-tuning and "Training a classifier" on random data.
Loops are shortened so that each snippet runs in about a second. Snippets reach submodules
through `torch.` (a `from torch... import` would bind real torch in both runs).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = "torch.manual_seed(0); nn = torch.nn; F = torch.nn.functional\n"

# Learn the Basics: tensors.
BASICS_TENSORS = [
    'data = [[1, 2], [3, 4]]; x_data = torch.tensor(data); print(x_data, x_data.dtype)',
    'np_array = np.array([[1, 2], [3, 4]]); x_np = torch.from_numpy(np_array); print(x_np, x_np.dtype)',
    'x_data = torch.tensor([[1, 2], [3, 4]]); x_ones = torch.ones_like(x_data); print(f"Ones Tensor: \\n {x_ones} \\n")',
    'x_data = torch.tensor([[1, 2], [3, 4]]); x_rand = torch.rand_like(x_data, dtype=torch.float); print(f"Random Tensor: \\n {x_rand} \\n")',
    'x_data = torch.tensor([[1, 2], [3, 4]])\ntry:\n    torch.rand_like(x_data)\nexcept RuntimeError as e: print(e)',
    'shape = (2, 3,); print(f"Random Tensor: \\n {torch.rand(shape)} \\n"); print(f"Ones Tensor: \\n {torch.ones(shape)} \\n"); print(f"Zeros Tensor: \\n {torch.zeros(shape)}")',
    'tensor = torch.rand(3, 4); print(f"Shape of tensor: {tensor.shape}"); print(f"Datatype of tensor: {tensor.dtype}"); print(f"Device tensor is stored on: {tensor.device}")',
    'print(torch.accelerator.is_available(), torch.cuda.is_available())',
    'tensor = torch.ones(4, 4); print(f"First row: {tensor[0]}"); print(f"First column: {tensor[:, 0]}"); print(f"Last column: {tensor[..., -1]}"); tensor[:, 1] = 0; print(tensor)',
    'tensor = torch.ones(4, 4); tensor[:, 1] = 0; t1 = torch.cat([tensor, tensor, tensor], dim=1); print(t1, t1.shape)',
    'tensor = torch.ones(4, 4); print(torch.stack([tensor, tensor]).shape, torch.cat([tensor, tensor]).shape)',
    'tensor = torch.ones(4, 4); tensor[:, 1] = 0; y1 = tensor @ tensor.T; y2 = tensor.matmul(tensor.T); y3 = torch.rand_like(y1); r = torch.matmul(tensor, tensor.T, out=y3); print(y1, torch.equal(y1, y2), torch.equal(y1, y3), r is y3)',
    'tensor = torch.ones(4, 4); tensor[:, 1] = 0; z1 = tensor * tensor; z2 = tensor.mul(tensor); z3 = torch.rand_like(tensor); torch.mul(tensor, tensor, out=z3); print(z1, torch.equal(z2, z3))',
    'tensor = torch.ones(4, 4); tensor[:, 1] = 0; agg = tensor.sum(); agg_item = agg.item(); print(agg_item, type(agg_item))',
    'tensor = torch.ones(4, 4); tensor[:, 1] = 0; print(f"{tensor} \\n"); tensor.add_(5); print(tensor)',
    't = torch.ones(5); print(f"t: {t}"); n = t.numpy(); print(f"n: {n}"); t.add_(1); print(f"t: {t}"); print(f"n: {n}")',
    'n = np.ones(5); t = torch.from_numpy(n); np.add(n, 1, out=n); print(f"t: {t}"); print(f"n: {n}")',
    'x = torch.tensor([[1, 2], [3, 4]]); print(x.sum().item(), type(x.sum().item()), x.float().mean().item())',
    'x = torch.tensor([[1, 2], [3, 4]])\ntry:\n    x.mean()\nexcept RuntimeError as e: print(e)',
    'x = torch.ones(2, 3)\ntry:\n    x.item()\nexcept RuntimeError as e: print(e)',
    'tensor = torch.ones(4, 4)\ntry:\n    torch.cat([tensor, torch.ones(3, 3)], dim=1)\nexcept RuntimeError as e: print(e)',
    'tensor = torch.ones(4, 4)\ntry:\n    tensor @ torch.ones(3, 3)\nexcept RuntimeError as e: print(e)',
    'tensor = torch.ones(4, 4); print(tensor.T.is_contiguous(), tensor.T.stride(), tensor.mT.shape)',
    't = torch.ones(5, requires_grad=True)\ntry:\n    t.numpy()\nexcept RuntimeError as e: print(e)',
    't = torch.ones(5, requires_grad=True); print(t.detach().numpy())',
]

# Learn the Basics: datasets and dataloaders with a custom Dataset and plain-function transforms.
BASICS_DATA = [
    r'''
class CustomImageDataset(torch.utils.data.Dataset):
    def __init__(self, n, transform=None, target_transform=None):
        self.images = torch.rand(n, 1, 4, 4)
        self.labels = torch.arange(n) % 3
        self.transform = transform
        self.target_transform = target_transform
    def __len__(self):
        return len(self.labels)
    def __getitem__(self, idx):
        image = self.images[idx]
        label = int(self.labels[idx])
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label
ds = CustomImageDataset(10)
print(len(ds)); img, label = ds[3]; print(img.shape, label, type(label))
dl = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True)
train_features, train_labels = next(iter(dl))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
print(train_labels)
''',
    r'''
def to_one_hot(y):
    return torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1)
print(to_one_hot(3))
class DS(torch.utils.data.Dataset):
    def __len__(self): return 6
    def __getitem__(self, i): return torch.full((2,), float(i)), to_one_hot(i)
for X, y in torch.utils.data.DataLoader(DS(), batch_size=4):
    print(X, y.shape, y.dtype)
''',
    r'''
def scale(img):
    return img.float() / 255
def to_tensor(arr):
    return scale(torch.from_numpy(arr)).unsqueeze(0)
arr = np.arange(16, dtype=np.uint8).reshape(4, 4) * 16
t = to_tensor(arr); print(t.shape, t.dtype, t.max())
''',
    r'''
class DS(torch.utils.data.Dataset):
    def __init__(self): self.x = torch.arange(10.)
    def __len__(self): return len(self.x)
    def __getitem__(self, i): return {"x": self.x[i], "y": int(i) % 2, "name": f"s{i}"}
b = next(iter(torch.utils.data.DataLoader(DS(), batch_size=3)))
print(b)
''',
    r'''
class DS(torch.utils.data.Dataset):
    def __len__(self): return 5
    def __getitem__(self, i): return np.array([i, i * 2]), i
for xb, yb in torch.utils.data.DataLoader(DS(), batch_size=2):
    print(xb, xb.dtype, yb)
''',
    r'''
class DS(torch.utils.data.Dataset):
    def __len__(self): return 5
    def __getitem__(self, i): return torch.ones(i + 1)
try:
    next(iter(torch.utils.data.DataLoader(DS(), batch_size=3)))
except RuntimeError as e:
    print(e)
''',
    r'''
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(10.), torch.arange(10) % 2), batch_size=4, shuffle=True)
print(len(dl), len(dl.dataset))
for i, (X, y) in enumerate(dl): print(i, X, y)
''',
    r'''
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(10.)), batch_size=4, drop_last=True)
print(len(dl), [b[0].tolist() for b in dl])
''',
    r'''
labels_map = {0: "T-Shirt", 1: "Trouser", 2: "Pullover"}
ds = torch.utils.data.TensorDataset(torch.rand(9, 1, 2, 2), torch.arange(9) % 3)
for i in range(1, 4):
    sample_idx = torch.randint(len(ds), size=(1,)).item()
    img, label = ds[sample_idx]
    print(sample_idx, labels_map[label.item()], img.squeeze().shape)
''',
    r'''
class DS(torch.utils.data.Dataset):
    def __len__(self): return 4
    def __getitem__(self, i): return i
print(list(torch.utils.data.DataLoader(DS(), batch_size=None)))
print(list(torch.utils.data.DataLoader(DS(), batch_size=3)))
''',
    r'''
class DS(torch.utils.data.Dataset):
    def __getitem__(self, i): return i
try:
    len(torch.utils.data.DataLoader(DS(), batch_size=2))
except TypeError as e:
    print(e)
''',
    r'''
try:
    torch.utils.data.DataLoader(torch.arange(10), batch_size=2, shuffle=True, sampler=torch.utils.data.SequentialSampler(range(10)))
except ValueError as e:
    print(e)
''',
]

# Learn the Basics: building the model.
BASICS_MODEL = [
    r'''
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )
    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits
model = NeuralNetwork().to("cpu")
print(model)
X = torch.rand(1, 28, 28, device="cpu")
logits = model(X)
pred_probab = nn.Softmax(dim=1)(pred_probab if False else logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
print(logits.shape, pred_probab.sum().round(decimals=3))
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2, :3] if param.dim() == 2 else param[:2]} \n")
''',
    'input_image = torch.rand(3, 28, 28); print(input_image.size()); flatten = nn.Flatten(); flat_image = flatten(input_image); print(flat_image.size()); layer1 = nn.Linear(in_features=28*28, out_features=20); hidden1 = layer1(flat_image); print(hidden1.size())',
    'hidden1 = nn.Linear(8, 5)(torch.rand(3, 8)); print(f"Before ReLU: {hidden1}\\n\\n"); hidden1 = nn.ReLU()(hidden1); print(f"After ReLU: {hidden1}")',
    'flatten = nn.Flatten(); layer1 = nn.Linear(28*28, 20); seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10)); input_image = torch.rand(3, 28, 28); logits = seq_modules(input_image); softmax = nn.Softmax(dim=1); pred_probab = softmax(logits); print(pred_probab.shape, pred_probab.sum(1))',
    'm = nn.Flatten(); print(m, m(torch.ones(2, 3, 4)).shape, nn.Flatten(0, 1)(torch.ones(2, 3, 4)).shape, nn.Unflatten(1, (2, 2))(torch.ones(3, 4)).shape)',
    'print(nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 10)))',
    'model = nn.Sequential(nn.Flatten(), nn.Linear(4, 3)); print(model(torch.ones(2, 2, 2)).shape)\ntry:\n    model(torch.ones(2, 3, 3))\nexcept RuntimeError as e: print(e)',
    'print(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")',
    'model = nn.Linear(2, 2); print(next(model.parameters()).device, model.to(torch.device("cpu")) is model)',
    'sm = nn.Softmax(); print(sm, sm(torch.tensor([[1., 2.], [3., 5.]])))',
    'print(nn.Softmax(dim=1)(torch.tensor([[1., 2., 3.]])), nn.LogSoftmax(dim=1)(torch.tensor([[1., 2., 3.]])))',
]

# Learn the Basics: automatic differentiation.
BASICS_AUTOGRAD = [
    r'''
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
loss.backward()
print(w.grad)
print(b.grad)
print(loss)
''',
    r'''
x = torch.ones(5); w = torch.randn(5, 3, requires_grad=True); b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)
''',
    r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
''',
    r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
try:
    out.backward()
except RuntimeError as e:
    print(e)
''',
    r'''
x = torch.ones(5); w = torch.randn(5, 3, requires_grad=True)
loss = (x @ w).sum()
loss.backward()
try:
    loss.backward()
except RuntimeError as e:
    print(str(e)[:120])
''',
    r'''
w = torch.randn(5, 3, requires_grad=True)
z = (torch.ones(5) @ w).sum()
z.backward()
print(z.grad_fn, z.grad_fn.next_functions)
print(w.grad_fn, w.is_leaf, z.is_leaf)
print(z.grad)
''',
    r'''
x = torch.ones(5); y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True); b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = F.binary_cross_entropy_with_logits(z, y)
print(loss.grad_fn.next_functions)
print(z.grad_fn.next_functions[0][0].next_functions)
''',
    r'''
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
''',
    r'''
x = torch.rand(5, 5); y = torch.rand(5, 5); z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
''',
    r'''
w = torch.randn(3, requires_grad=True)
try:
    w += 1
except RuntimeError as e:
    print(e)
with torch.no_grad():
    w += 1
print(w.requires_grad, w.grad_fn)
''',
]

# Learn the Basics: the optimization loop, and save & load.
BASICS_OPTIM = [
    r'''
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))
X = torch.rand(40, 4, 4); Y = torch.randint(0, 3, (40,))
train_dataloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[:32], Y[:32]), batch_size=8, shuffle=True)
test_dataloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[32:], Y[32:]), batch_size=8)
model = NeuralNetwork()
learning_rate = 1e-1; batch_size = 8; epochs = 2
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
''',
    r'''
import io
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
model2 = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
print(model2.load_state_dict(torch.load(buf, weights_only=True)))
print(model2.eval())
x = torch.rand(2, 4)
print(torch.equal(model(x), model2(x)))
''',
    r'''
import io
model = nn.Sequential(nn.Linear(4, 3), nn.Dropout(0.5))
buf = io.BytesIO(); torch.save(model, buf); buf.seek(0)
m = torch.load(buf, weights_only=False)
print(m, m.training)
''',
    r'''
import io
model = nn.Sequential(nn.Linear(4, 3))
buf = io.BytesIO(); torch.save(model, buf); buf.seek(0)
try:
    torch.load(buf, weights_only=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
''',
    r'''
import tempfile, os
model = nn.Linear(3, 1)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "model_weights.pth")
    torch.save(model.state_dict(), path)
    sd = torch.load(path, weights_only=True)
print(type(sd).__name__, list(sd.keys()), sd["weight"].shape)
''',
    r'''
loss_fn = nn.CrossEntropyLoss()
pred = torch.randn(4, 3); y = torch.tensor([0, 2, 1, 1])
print(loss_fn(pred, y), (pred.argmax(1) == y).type(torch.float).sum().item())
try:
    loss_fn(pred, y.float())
except RuntimeError as e:
    print(e)
''',
    r'''
loss_fn = nn.CrossEntropyLoss()
try:
    loss_fn(torch.randn(4, 3), torch.tensor([0, 3, 1, 1]))
except IndexError as e:
    print(e)
''',
    r'''
model = nn.Linear(3, 2); opt = torch.optim.SGD(model.parameters(), lr=1e-3)
print(opt)
model(torch.ones(1, 3)).sum().backward()
opt.step(); opt.zero_grad()
print(model.weight.grad, [p.grad for p in model.parameters()])
''',
]

# Deep Learning with PyTorch: A 60 Minute Blitz.
BLITZ = [
    'x = torch.empty(5, 3); print(x.shape, x.dtype)',
    'x = torch.zeros(5, 3, dtype=torch.long); print(x)',
    'x = torch.tensor([5.5, 3]); print(x); x = x.new_ones(5, 3, dtype=torch.double); print(x); x = torch.randn_like(x, dtype=torch.float); print(x); print(x.size())',
    'x = torch.randn(5, 3); y = torch.rand(5, 3); print(x + y); print(torch.add(x, y)); result = torch.empty(5, 3); torch.add(x, y, out=result); print(result); y.add_(x); print(y)',
    'x = torch.randn(5, 3); print(x[:, 1])',
    'x = torch.randn(4, 4); y = x.view(16); z = x.view(-1, 8); print(x.size(), y.size(), z.size())',
    'x = torch.randn(1); print(x); print(x.item())',
    'a = torch.ones(5); print(a); b = a.numpy(); print(b); a.add_(1); print(a); print(b)',
    'a = np.ones(5); b = torch.from_numpy(a); np.add(a, 1, out=a); print(a); print(b)',
    'x = torch.ones(2, 2, requires_grad=True); print(x); y = x + 2; print(y); print(y.grad_fn); z = y * y * 3; out = z.mean(); print(z, out)',
    'a = torch.randn(2, 2); a = ((a * 3) / (a - 1)); print(a.requires_grad); a.requires_grad_(True); print(a.requires_grad); b = (a * a).sum(); print(b.grad_fn)',
    'x = torch.ones(2, 2, requires_grad=True); out = ((x + 2) * (x + 2) * 3).mean(); out.backward(); print(x.grad)',
    r'''
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
''',
    r'''
x = torch.randn(3, requires_grad=True)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())
''',
    r'''
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output
net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
print(params[0].grad.shape, params[1].grad)
''',
    r'''
net = nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
output = net(torch.randn(1, 1, 32, 32))
target = torch.randn(10)
target = target.view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad()
print('conv1.bias.grad before backward')
print(net[0].bias.grad)
loss.backward()
print('conv1.bias.grad after backward')
print(net[0].bias.grad)
''',
    r'''
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
loss = nn.MSELoss()(net(torch.randn(1, 4)), torch.randn(1, 2))
loss.backward()
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
print(net[0].weight)
''',
    r'''
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
input = torch.randn(3, 4); target = torch.randn(3, 2); criterion = nn.MSELoss()
for i in range(3):
    optimizer.zero_grad()
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    print(i, loss.item())
''',
    r'''
net = nn.Conv2d(1, 6, 5)
try:
    net(torch.randn(1, 32, 32, 32))
except RuntimeError as e:
    print(e)
''',
    r'''
net = nn.Conv2d(1, 6, 5)
print(net(torch.randn(1, 32, 32)).shape)
try:
    net(torch.randn(32, 32))
except RuntimeError as e:
    print(e)
''',
    'input = torch.randn(1, 1, 32, 32); print(input.unsqueeze(0).shape, input.squeeze().shape, input[0].shape)',
    r'''
criterion = nn.MSELoss()
try:
    criterion(torch.randn(1, 10), torch.randn(10, 1)).shape
except Exception as e:
    print(type(e).__name__, e)
print(criterion(torch.randn(1, 10), torch.randn(10)))
''',
]

# "What is torch.nn really?": from raw tensors to nn.Module, optim, Dataset and DataLoader.
MNIST_DATA = ("import math\n"
              "x_train = torch.rand(64, 784); y_train = torch.randint(0, 10, (64,))\n"
              "x_valid = torch.rand(32, 784); y_valid = torch.randint(0, 10, (32,))\n"
              "n, c = x_train.shape; bs = 16; lr = 0.05\n")
NN_REALLY = [MNIST_DATA + s for s in [
    'print(x_train, y_train); print(x_train.shape); print(y_train.min(), y_train.max())',
    r"""
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)
def nll(input, target):
    return -input[range(target.shape[0]), target].mean()
loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()
print(accuracy(preds, yb))
""",
    r"""
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
def model(xb):
    return (xb @ weights + bias).log_softmax(-1)
def loss_func(input, target):
    return -input[range(target.shape[0]), target].mean()
epochs = 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(x_train[:bs]), y_train[:bs]), bias)
""",
    r"""
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
loss_func = F.cross_entropy
def model(xb):
    return xb @ weights + bias
xb = x_train[0:bs]; yb = y_train[0:bs]
print(loss_func(model(xb), yb), (torch.argmax(model(xb), dim=1) == yb).float().mean())
""",
    r"""
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
        self.bias = nn.Parameter(torch.zeros(10))
    def forward(self, xb):
        return xb @ self.weights + self.bias
model = Mnist_Logistic()
print(model)
print([(k, v.shape) for k, v in model.named_parameters()])
loss_func = F.cross_entropy
print(loss_func(model(x_train[:bs]), y_train[:bs]))
def fit():
    for epoch in range(2):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()
fit()
print(loss_func(model(x_train[:bs]), y_train[:bs]))
""",
    r"""
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)
    def forward(self, xb):
        return self.lin(xb)
model = Mnist_Logistic()
opt = torch.optim.SGD(model.parameters(), lr=lr)
print(model, F.cross_entropy(model(x_train[:bs]), y_train[:bs]))
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb = x_train[i * bs: i * bs + bs]
        yb = y_train[i * bs: i * bs + bs]
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
print(F.cross_entropy(model(x_train[:bs]), y_train[:bs]))
""",
    r"""
train_ds = torch.utils.data.TensorDataset(x_train, y_train)
xb, yb = train_ds[0:bs]
print(xb.shape, yb.shape, len(train_ds))
train_dl = torch.utils.data.DataLoader(train_ds, batch_size=bs)
model = nn.Linear(784, 10); opt = torch.optim.SGD(model.parameters(), lr=lr)
for epoch in range(2):
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
print(F.cross_entropy(model(xb), yb))
""",
    r"""
train_ds = torch.utils.data.TensorDataset(x_train, y_train)
train_dl = torch.utils.data.DataLoader(train_ds, batch_size=bs, shuffle=True)
valid_ds = torch.utils.data.TensorDataset(x_valid, y_valid)
valid_dl = torch.utils.data.DataLoader(valid_ds, batch_size=bs * 2)
model = nn.Linear(784, 10); opt = torch.optim.SGD(model.parameters(), lr=lr)
loss_func = F.cross_entropy
for epoch in range(2):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(epoch, valid_loss / len(valid_dl))
""",
    r"""
def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)
def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.4f}")
def get_data(train_ds, valid_ds, bs):
    return (torch.utils.data.DataLoader(train_ds, batch_size=bs, shuffle=True),
            torch.utils.data.DataLoader(valid_ds, batch_size=bs * 2))
def get_model():
    model = nn.Linear(784, 10)
    return model, torch.optim.SGD(model.parameters(), lr=lr)
train_dl, valid_dl = get_data(torch.utils.data.TensorDataset(x_train, y_train), torch.utils.data.TensorDataset(x_valid, y_valid), bs)
model, opt = get_model()
fit(2, model, F.cross_entropy, opt, train_dl, valid_dl)
""",
    r"""
class Mnist_CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1)
    def forward(self, xb):
        xb = xb.view(-1, 1, 28, 28)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.relu(self.conv3(xb))
        xb = F.avg_pool2d(xb, 4)
        return xb.view(-1, xb.size(1))
model = Mnist_CNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for xb, yb in torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x_train, y_train), batch_size=bs):
    loss = F.cross_entropy(model(xb), yb)
    loss.backward(); opt.step(); opt.zero_grad()
    print(round(loss.item(), 4))
print(model(x_valid[:2]).shape)
""",
    r"""
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
def preprocess(x):
    return x.view(-1, 1, 28, 28)
model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AvgPool2d(4),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
print(model(x_train[:3]))
""",
    r"""
def preprocess(x, y):
    return x.view(-1, 1, 28, 28), y
class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func
    def __len__(self):
        return len(self.dl)
    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))
train_dl = WrappedDataLoader(torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x_train, y_train), batch_size=bs), preprocess)
model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for xb, yb in train_dl:
    loss = F.cross_entropy(model(xb), yb); loss.backward(); opt.step(); opt.zero_grad()
print(len(train_dl), loss, model[-2])
""",
    r"""
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
loss = (x_train[:bs] @ weights).sum()
loss.backward()
try:
    weights -= weights.grad * lr
except RuntimeError as e:
    print(e)
""",
    r"""
weights = torch.randn(784, 10, requires_grad=True)
w = weights / math.sqrt(784)
print(w.is_leaf, w.grad_fn)
(x_train[:2] @ w).sum().backward()
print(w.grad)
""",
    r"""
preds = torch.randn(4, 10).log_softmax(-1); yb = torch.tensor([1, 2, 3, 4])
print(-preds[range(yb.shape[0]), yb].mean(), F.nll_loss(preds, yb))
print(preds[range(2), [0, 1]], preds[[0, 1], [2, 3]])
""",
]]

# "Learning PyTorch with Examples": a cubic fit to sin(x), from NumPy to a custom Module.
SINE = ("import math\n"
        "x = torch.linspace(-math.pi, math.pi, 2000); y = torch.sin(x)\n"
        "learning_rate = 1e-6\n")
EXAMPLES = [
    r"""
import math
x = np.linspace(-math.pi, math.pi, 2000)
y = np.sin(x)
rng = np.random.default_rng(0)
a, b, c, d = rng.standard_normal(4)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = np.square(y_pred - y).sum()
    if t % 100 == 99:
        print(t, round(loss, 4))
    grad_y_pred = 2.0 * (y_pred - y)
    a -= learning_rate * grad_y_pred.sum()
    b -= learning_rate * (grad_y_pred * x).sum()
    c -= learning_rate * (grad_y_pred * x ** 2).sum()
    d -= learning_rate * (grad_y_pred * x ** 3).sum()
t = torch.from_numpy(np.array([a, b, c, d]))
print(t.dtype, t.round(decimals=4))
""",
    SINE + r"""
dtype = torch.float
device = torch.device("cpu")
a = torch.randn((), device=device, dtype=dtype)
b = torch.randn((), device=device, dtype=dtype)
c = torch.randn((), device=device, dtype=dtype)
d = torch.randn((), device=device, dtype=dtype)
print(a, a.shape, a.dim())
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, f"{loss:.5g}")
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3')
""",
    SINE + r"""
dtype = torch.float
a = torch.randn((), dtype=dtype, requires_grad=True)
b = torch.randn((), dtype=dtype, requires_grad=True)
c = torch.randn((), dtype=dtype, requires_grad=True)
d = torch.randn((), dtype=dtype, requires_grad=True)
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, f"{loss.item():.5g}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3')
print(loss.grad_fn, a.grad)
""",
    SINE + r"""
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
dtype = torch.float
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(300):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, f"{loss.item():.5g}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {round(a.item(), 3) + 0.0} + {b.item():.4f} * P3({round(c.item(), 3) + 0.0} + {d.item():.4f} x)')
print([type(n).__name__ for n, _ in y_pred.grad_fn.next_functions[1][0].next_functions])
""",
    r"""
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = LegendrePolynomial3.apply(x)
print(y, type(y.grad_fn).__name__, y.grad_fn.name())
y.sum().backward()
print(x.grad)
x64 = torch.tensor([0.3], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(LegendrePolynomial3.apply, (x64,)))
""",
    r"""
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output
x = torch.tensor([0.5], requires_grad=True)
try:
    LegendrePolynomial3.apply(x).backward()
except ValueError as e:
    print(e)
""",
    r"""
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return 0.5 * (5 * input ** 3 - 3 * input)
try:
    LegendrePolynomial3()(torch.ones(1))
except RuntimeError as e:
    print(str(e)[:90])
""",
    r"""
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return 0.5 * (5 * input ** 3 - 3 * input)
x = torch.tensor([0.5], requires_grad=True)
try:
    LegendrePolynomial3.apply(x).backward()
except NotImplementedError as e:
    print(e)
""",
    SINE + r"""
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype, xx[:2])
model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
loss_fn = torch.nn.MSELoss(reduction='sum')
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.5g}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3')
""",
    SINE + r"""
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.5g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + {linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3')
print(optimizer.state_dict()['param_groups'])
print(sorted(optimizer.state_dict()['state'][0]))
""",
    SINE + r"""
class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
    def string(self):
        return f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3'
model = Polynomial3()
print(model)
print(list(model.parameters()))
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(300):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.5g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
""",
    SINE + r"""
import random
random.seed(0)
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))
    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y
    def string(self):
        return f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3 + {self.e.item():.4f} x^4 ? + {self.e.item():.4f} x^5 ?'
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(300):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.5g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print({k: f'{v.item():.5g}' for k, v in optimizer.state_dict()['state'][0].items()})
""",
    SINE + 'print(x[:3], x[-1], x.dtype, y[1000], torch.linspace(0, 1, 5), torch.linspace(-1, 1, steps=4, dtype=torch.float64))',
    SINE + 'a = torch.randn(()); print(a.shape, a.ndim, a.numel(), (a + x).shape, torch.randn(()).item() != 0)',
    SINE + 'p = torch.tensor([1, 2, 3]); print(x.unsqueeze(-1).shape, x.unsqueeze(-1).pow(p).dtype, x[:2].unsqueeze(-1) ** p)',
    SINE + 'model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)); print(model, model(torch.ones(5, 3)).shape)',
    SINE + 'model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))\ntry:\n    model(x)\nexcept RuntimeError as e: print(e)',
    SINE + 'loss_fn = torch.nn.MSELoss(reduction="sum"); print(loss_fn, loss_fn(torch.zeros(3), torch.ones(3)), loss_fn.reduction)',
    r"""
a = torch.randn((), requires_grad=True)
y = a * torch.ones(3)
y.sum().backward()
print(a.grad)
try:
    a -= 0.1 * a.grad
except RuntimeError as e:
    print(e)
""",
    r"""
a = torch.randn((), requires_grad=True)
(a * 2).backward()
with torch.no_grad():
    a -= 0.1 * a.grad
a.grad.zero_()
print(a.grad, a.requires_grad, a.is_leaf)
(a * 3).backward()
print(a.grad)
""",
]

# Recipes: state_dict, saving and loading (inference, checkpoints, several models, warmstarting,
# devices), zeroing gradients, defining a network.
NET = r"""
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x
import io, copy
net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
"""
RECIPES = [NET + s for s in [
    r"""
print(net)
print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())
print()
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])
""",
    r"""
sd = net.state_dict()
print(type(sd).__name__, len(sd), sd['conv1.bias'], sd['conv1.bias'].requires_grad, sd['conv1.bias'].grad_fn)
print(sd._metadata[''] if hasattr(sd, '_metadata') else None, sorted(sd._metadata)[:3])
""",
    r"""
net(torch.randn(2, 3, 32, 32)).sum().backward(); optimizer.step()
sd = optimizer.state_dict()
print(sd['param_groups'])
print(len(sd['state']), list(sd['state'][0]), sd['state'][9]['momentum_buffer'])
""",
    r"""
buf = io.BytesIO()
torch.save(net.state_dict(), buf); buf.seek(0)
model = Net()
print(model.load_state_dict(torch.load(buf, weights_only=True)))
model.eval()
x = torch.randn(1, 3, 32, 32)
print(torch.equal(model(x), net(x)), model.training, model.fc1.training)
""",
    r"""
buf = io.BytesIO()
torch.save(net, buf); buf.seek(0)
model = torch.load(buf, weights_only=False)
model.eval()
print(type(model).__name__, model.fc3)
""",
    r"""
buf = io.BytesIO()
epoch, loss = 5, 0.4
net(torch.randn(2, 3, 32, 32)).sum().backward(); optimizer.step()
torch.save({
    'epoch': epoch,
    'model_state_dict': net.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
}, buf)
buf.seek(0)
model = Net()
opt2 = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(buf, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
opt2.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']
model.train()
print(epoch, loss, sorted(checkpoint))
print(opt2.state_dict()['state'][1]['momentum_buffer'])
print(torch.equal(opt2.state[model.fc3.bias]['momentum_buffer'], optimizer.state[net.fc3.bias]['momentum_buffer']))
""",
    r"""
buf = io.BytesIO()
netA = Net(); netB = Net()
optimizerA = torch.optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = torch.optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)
torch.save({
    'modelA_state_dict': netA.state_dict(),
    'modelB_state_dict': netB.state_dict(),
    'optimizerA_state_dict': optimizerA.state_dict(),
    'optimizerB_state_dict': optimizerB.state_dict(),
}, buf)
buf.seek(0)
modelA = Net(); modelB = Net()
checkpoint = torch.load(buf, weights_only=True)
print(modelA.load_state_dict(checkpoint['modelA_state_dict']))
print(modelB.load_state_dict(checkpoint['modelB_state_dict']))
modelA.eval(); modelB.train()
print(torch.equal(modelA.fc1.weight, netA.fc1.weight), torch.equal(modelB.fc1.weight, netA.fc1.weight))
print(checkpoint['optimizerB_state_dict'])
""",
    r"""
class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc4 = nn.Linear(84, 2)
netB = NetB()
buf = io.BytesIO(); torch.save(net.state_dict(), buf); buf.seek(0)
print(netB.load_state_dict(torch.load(buf, weights_only=True), strict=False))
print(torch.equal(netB.conv2.weight, net.conv2.weight))
""",
    r"""
class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc4 = nn.Linear(84, 2)
netB = NetB()
try:
    netB.load_state_dict(net.state_dict())
except RuntimeError as e:
    print(e)
""",
    r"""
class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 5)
        self.fc3 = nn.Linear(84, 10)
netB = NetB()
try:
    netB.load_state_dict(net.state_dict(), strict=False)
except RuntimeError as e:
    print(e)
""",
    r"""
sd = net.state_dict()
renamed = {k.replace('conv', 'features.conv'): v for k, v in sd.items()}
try:
    net.load_state_dict(renamed)
except RuntimeError as e:
    print(e)
res = net.load_state_dict(renamed, strict=False)
print(res.missing_keys, res.unexpected_keys)
""",
    r"""
buf = io.BytesIO()
torch.save(net.state_dict(), buf); buf.seek(0)
device = torch.device('cpu')
model = Net()
model.load_state_dict(torch.load(buf, map_location=device, weights_only=True))
print(next(model.parameters()).device)
buf.seek(0)
sd = torch.load(buf, map_location='cpu', weights_only=True)
print(sd['fc3.bias'].device)
buf.seek(0)
sd = torch.load(buf, map_location=lambda storage, loc: storage, weights_only=True)
print(sd['fc3.bias'].device, len(sd))
""",
    r"""
buf = io.BytesIO()
torch.save(net.state_dict(), buf); buf.seek(0)
sd = torch.load(buf, map_location={'cpu': 'cpu'}, weights_only=True)
model = Net().to(torch.device('cpu'))
model.load_state_dict(sd)
print(model.fc2.weight.device, model.fc2.weight.dtype)
""",
    r"""
net.zero_grad()
print(net.conv1.bias.grad)
net(torch.randn(1, 3, 32, 32)).sum().backward()
print(net.conv1.bias.grad.shape)
optimizer.zero_grad()
print(net.conv1.bias.grad)
net(torch.randn(1, 3, 32, 32)).sum().backward()
optimizer.zero_grad(set_to_none=False)
print(net.conv1.bias.grad)
""",
    r"""
criterion = nn.CrossEntropyLoss()
inputs = torch.randn(4, 3, 32, 32); labels = torch.tensor([1, 0, 3, 9])
for epoch in range(2):
    running_loss = 0.0
    for i in range(3):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / (i + 1):.3f}')
print('Finished Training')
""",
    r"""
for p in net.parameters():
    p.grad = torch.ones_like(p)
net.zero_grad(set_to_none=False)
print(net.fc3.bias.grad)
net.zero_grad()
print(net.fc3.bias.grad)
""",
    r"""
m = copy.deepcopy(net)
print(m.fc3.weight is net.fc3.weight, torch.equal(m.fc3.weight, net.fc3.weight), m.fc3.weight.requires_grad)
sd = copy.deepcopy(net.state_dict())
net.fc3.bias.data.fill_(1.)
print(sd['fc3.bias'][:3], net.state_dict()['fc3.bias'][:3])
""",
    r"""
sd = net.state_dict()
net.fc3.bias.data.fill_(2.)
print(sd['fc3.bias'][:3])
sd = net.state_dict(keep_vars=True)
print(type(sd['fc3.bias']).__name__, sd['fc3.bias'].requires_grad)
""",
    r"""
print(optimizer.state_dict()['state'])
optimizer.add_param_group({'params': nn.Linear(2, 2).parameters(), 'lr': 0.1})
print([len(g['params']) for g in optimizer.param_groups], optimizer.state_dict()['param_groups'][1])
""",
    r"""
opt2 = torch.optim.SGD(Net().parameters(), lr=0.001, momentum=0.9)
sd = optimizer.state_dict()
sd['param_groups'][0]['params'] = sd['param_groups'][0]['params'][:3]
try:
    opt2.load_state_dict(sd)
except ValueError as e:
    print(e)
""",
    r"""
opt2 = torch.optim.Adam(net.parameters(), lr=0.001)
try:
    opt2.load_state_dict({'state': {}})
except Exception as e:
    print(type(e).__name__, e)
""",
    r"""
ts = torch.jit.script if False else None
net.eval()
with torch.no_grad():
    out = net(torch.randn(3, 3, 32, 32))
print(out.requires_grad, out.shape, torch.max(out, 1).indices.shape)
with torch.inference_mode():
    out = net(torch.randn(1, 3, 32, 32))
print(out.requires_grad, out.is_inference())
""",
]]

DEFINE_NET = [
    r"""
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)
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
my_nn = Net()
print(my_nn)
random_data = torch.rand((1, 1, 28, 28))
result = my_nn(random_data)
print(result)
""",
    r"""
d = nn.Dropout2d(0.5)
print(d, d(torch.ones(1, 4, 2, 2)))
""",
    r"""
d = nn.Dropout2d(0.5)
print(d(torch.ones(4, 3)))
""",
    'print(nn.Dropout2d(0.25)(torch.ones(2, 4, 3)).shape)',
    r"""
try:
    nn.Dropout2d(1.5)
except ValueError as e:
    print(e)
""",
    'x = torch.rand(1, 1, 28, 28); c = nn.Conv2d(1, 32, 3, 1); print(c, c(x).shape, c.weight.shape, c.bias.shape, c.stride, c.padding)',
    'x = torch.rand(2, 64, 24, 24); print(F.max_pool2d(x, 2).shape, torch.flatten(F.max_pool2d(x, 2), 1).shape)',
]

# Recipes and "Introduction to PyTorch Tensors": tensor basics.
TENSOR_BASICS = [
    'x = torch.empty(3, 4); print(type(x).__name__, isinstance(x, torch.Tensor)); print(x.shape, x.dtype)',
    'zeros = torch.zeros(2, 3); print(zeros); ones = torch.ones(2, 3); print(ones); torch.manual_seed(1729); random = torch.rand(2, 3); print(random)',
    'torch.manual_seed(1729); random1 = torch.rand(2, 3); print(random1); random2 = torch.rand(2, 3); print(random2); torch.manual_seed(1729); random3 = torch.rand(2, 3); print(random3); print(torch.equal(random1, random3))',
    'x = torch.empty(2, 2, 3); print(x.shape); empty_like_x = torch.empty_like(x); print(empty_like_x.shape); zeros_like_x = torch.zeros_like(x); print(zeros_like_x); ones_like_x = torch.ones_like(x); print(ones_like_x); rand_like_x = torch.rand_like(x); print(rand_like_x)',
    'some_constants = torch.tensor([[3.1415926, 2.71828], [1.61803, 0.0072897]]); print(some_constants); some_integers = torch.tensor((2, 3, 5, 7, 11, 13, 17, 19)); print(some_integers); more_integers = torch.tensor(((2, 4, 6), [3, 6, 9])); print(more_integers)',
    'a = torch.ones((2, 3), dtype=torch.int16); print(a); b = torch.rand((2, 3), dtype=torch.float64) * 20.; print(b); c = b.to(torch.int32); print(c)',
    'ones = torch.zeros(2, 2) + 1; twos = torch.ones(2, 2) * 2; threes = (torch.ones(2, 2) * 7 - 1) / 2; fours = twos ** 2; sqrt2s = twos ** 0.5; print(ones); print(twos); print(threes); print(fours); print(sqrt2s)',
    'twos = torch.ones(2, 2) * 2; powers2 = twos ** torch.tensor([[1, 2], [3, 4]]); print(powers2); fives = torch.ones(2, 2) * 5; dozens = torch.ones(2, 2) * 3 * 4; print(fives * dozens)',
    'a = torch.rand(2, 3); b = torch.rand(3, 2)\ntry:\n    print(a * b)\nexcept RuntimeError as e: print(e)',
    'rand = torch.rand(2, 4); doubled = rand * (torch.ones(1, 4) * 2); print(rand); print(doubled)',
    'a = torch.ones(4, 3, 2); b = a * torch.rand(3, 2); print(b); c = a * torch.rand(3, 1); print(c); d = a * torch.rand(1, 2); print(d)',
    'a = torch.ones(4, 3, 2)\ntry:\n    b = a * torch.rand(4, 3)\nexcept RuntimeError as e: print(e)',
    'a = torch.ones(4, 3, 2)\ntry:\n    c = a * torch.rand(2, 3)\nexcept RuntimeError as e: print(e)',
    'a = torch.ones(4, 3, 2)\ntry:\n    d = a * torch.rand((0, ))\nexcept RuntimeError as e: print(e)',
    'a = torch.rand(2, 4) * 2 - 1; print("Common functions:"); print(torch.abs(a)); print(torch.ceil(a)); print(torch.floor(a)); print(torch.clamp(a, -0.5, 0.5))',
    'import math; angles = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4]); sines = torch.sin(angles); inverses = torch.asin(sines); print("\\nSine and arcsine:"); print(angles); print(sines); print(inverses)',
    'b = torch.tensor([1, 5, 11]); c = torch.tensor([2, 7, 10]); print("\\nBitwise XOR:"); print(torch.bitwise_xor(b, c))',
    'd = torch.tensor([[1., 2.], [3., 4.]]); e = torch.ones(1, 2); print("\\nBroadcasted, element-wise equality comparison:"); print(torch.eq(d, e))',
    'd = torch.tensor([[1., 2.], [3., 4.]]); print("\\nReduction ops:"); print(torch.max(d)); print(torch.max(d).item()); print(torch.mean(d)); print(torch.std(d)); print(torch.prod(d)); print(torch.unique(torch.tensor([1, 2, 1, 2, 1, 2])))',
    'v1 = torch.tensor([1., 0., 0.]); v2 = torch.tensor([0., 1., 0.]); m1 = torch.rand(2, 2); m2 = torch.tensor([[3., 0.], [0., 3.]]); print("\\nVectors & Matrices:"); print(torch.linalg.cross(v2, v1)); print(m1); m3 = torch.linalg.matmul(m1, m2); print(m3); print(torch.linalg.svd(m3))',
    'print(torch.cross(torch.tensor([[1., 0., 0.]]), torch.tensor([[0., 1., 0.]]), dim=1))',
    'import math; a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4]); print("a:"); print(a); print(torch.sin(a)); print(a); b = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4]); print("\\nb:"); print(b); print(torch.sin_(b)); print(b)',
    'a = torch.ones(2, 2); b = torch.rand(2, 2); print("Before:"); print(a); print(b); print("\\nAfter adding:"); print(a.add_(b)); print(a); print(b); print("\\nAfter multiplying"); print(b.mul_(b)); print(b)',
    'a = torch.rand(2, 2); b = torch.rand(2, 2); c = torch.zeros(2, 2); old_id = id(c); print(c); d = torch.matmul(a, b, out=c); print(c); assert c is d; assert id(c) == old_id; torch.rand(2, 2, out=c); print(c); assert id(c) == old_id',
    'a = torch.ones(2, 2); b = a; a[0][1] = 561; print(b)',
    'a = torch.ones(2, 2); b = a.clone(); assert b is not a; print(torch.eq(a, b)); a[0][1] = 561; print(b)',
    'a = torch.rand(2, 2, requires_grad=True); print(a); b = a.clone(); print(b); c = a.detach().clone(); print(c); print(a)',
    'a = torch.rand(3, 226, 226); b = a.unsqueeze(0); print(a.shape); print(b.shape)',
    'c = torch.rand(1, 1, 1, 1, 1); print(c)',
    'a = torch.rand(1, 20); print(a.shape); print(a); b = a.squeeze(0); print(b.shape); print(b); c = torch.rand(2, 2); print(c.shape); d = c.squeeze(0); print(d.shape)',
    'a = torch.ones(4, 3, 2); c = a * torch.rand(3, 1); print(c.shape); a = torch.ones(4, 3, 2); b = torch.rand(3); print(b.shape); c = b.unsqueeze(1); print(c.shape); print(a * c)',
    'batch_me = torch.rand(3, 226, 226); print(batch_me.shape); batch_me.unsqueeze_(0); print(batch_me.shape)',
    'output3d = torch.rand(6, 20, 20); print(output3d.shape); input1d = output3d.reshape(6 * 20 * 20); print(input1d.shape); print(torch.reshape(output3d, (6 * 20 * 20,)).shape)',
    'output3d = torch.rand(6, 20, 20); print(output3d.reshape(-1).is_contiguous(), output3d.transpose(0, 1).reshape(-1).data_ptr() == output3d.data_ptr())',
    'output3d = torch.rand(6, 20, 20)\ntry:\n    output3d.transpose(0, 1).view(-1)\nexcept RuntimeError as e: print(e)',
    'a = torch.rand(2, 3)\ntry:\n    a.view(4, 2)\nexcept RuntimeError as e: print(e)',
    'a = torch.rand(2, 3)\ntry:\n    a.reshape(-1, -1)\nexcept RuntimeError as e: print(e)',
    'a = torch.rand(2, 3)\ntry:\n    a.squeeze(2)\nexcept IndexError as e: print(e)',
    'numpy_array = np.ones((2, 3)); print(numpy_array); pytorch_tensor = torch.from_numpy(numpy_array); print(pytorch_tensor)',
    'pytorch_rand = torch.rand(2, 3); print(pytorch_rand); numpy_rand = pytorch_rand.numpy(); print(numpy_rand)',
    'numpy_array = np.ones((2, 3)); pytorch_tensor = torch.from_numpy(numpy_array); numpy_array[1, 1] = 23; print(pytorch_tensor); pytorch_rand = torch.rand(2, 3); numpy_rand = pytorch_rand.numpy(); pytorch_rand[1, 1] = 17; print(numpy_rand)',
    'x = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32); print(x.dtype, x.float().dtype, x.to(torch.float16), x.half().dtype, x.type(torch.float64))',
    'print(torch.zeros(2, 1) + torch.zeros(1, 3), torch.tensor(2) + torch.tensor([1, 2]), torch.tensor(2.5) * torch.tensor([1, 2]))',
    'x = torch.arange(12).reshape(3, 4); print(x[1:, ::2], x[:, -1], x[x > 5], x[[0, 2]], x.t().contiguous().view(-1))',
    'print(torch.tensor([[1, 2]], dtype=torch.float32).dtype, torch.tensor([1.5, 2]).dtype, torch.tensor([True, False]).dtype, torch.tensor([1, 2]).dtype, torch.tensor(3 + 4j).dtype)',
    'print(torch.zeros(2, 3).size(), torch.zeros(2, 3).size(1), torch.zeros(2, 3).ndim, torch.zeros(2, 3).numel(), torch.zeros(2, 3).element_size(), torch.zeros(2, 3).nbytes)',
    'x = torch.tensor([[1., -1.], [1., -1.]]); print(x); print(torch.tensor(np.array([[1, 2, 3], [4, 5, 6]])))',
    'print(torch.arange(5), torch.arange(1, 4), torch.arange(1, 2.5, 0.5), torch.eye(3), torch.full((2, 3), 3.141592))',
    'x = torch.tensor([[1, 2, 3], [4, 5, 6]]); print(x[1][2]); x[0][1] = 8; print(x)',
]

# Notes: broadcasting semantics.
BROADCASTING = [
    'x = torch.empty(5, 7, 3); y = torch.empty(5, 7, 3); print((x + y).size())',
    'x = torch.empty((0,)); y = torch.empty(2, 2)\ntry:\n    (x + y)\nexcept RuntimeError as e: print(e)',
    'x = torch.empty(5, 3, 4, 1); y = torch.empty(3, 1, 1); print((x + y).size())',
    'x = torch.empty(5, 2, 4, 1); y = torch.empty(3, 1, 1)\ntry:\n    (x + y).size()\nexcept RuntimeError as e: print(e)',
    'x = torch.empty(5, 1, 4, 1); y = torch.empty(3, 1, 1); print((x + y).size())',
    'x = torch.empty(1); y = torch.empty(3, 1, 7); print((x + y).size())',
    'x = torch.empty(5, 3, 4, 1); y = torch.empty(3, 1, 1); print((x.add_(y)).size())',
    'x = torch.empty(1, 3, 1); y = torch.empty(3, 1, 7)\ntry:\n    (x.add_(y)).size()\nexcept RuntimeError as e: print(e)',
    'print(torch.add(torch.ones(4, 1), torch.randn(4)).size())',
    'print(torch.broadcast_shapes((5, 1, 4, 1), (3, 1, 1)), torch.broadcast_tensors(torch.ones(2, 1), torch.ones(3))[0].shape)',
    'try:\n    torch.broadcast_shapes((5, 2), (3,))\nexcept RuntimeError as e: print(e)',
    'x = torch.ones(3, 1); print(x.expand(3, 4).stride(), x.expand(3, 4).is_contiguous(), x.expand(-1, 2))',
    'x = torch.ones(3, 1)\ntry:\n    x.expand(2, 4)\nexcept RuntimeError as e: print(e)',
    'x = torch.ones(2, 3, requires_grad=True); y = torch.ones(3, requires_grad=True); (x * y).sum().backward(); print(x.grad, y.grad)',
    'x = torch.ones(1, 3, requires_grad=True); y = torch.arange(6.).reshape(2, 3); (x * y).sum().backward(); print(x.grad)',
    'x = torch.empty(5, 1, 4, 1); y = torch.empty(3, 1, 1)\ntry:\n    x.mul_(y)\nexcept RuntimeError as e: print(e)',
    'x = torch.zeros(3); y = torch.ones(2, 3)\ntry:\n    x += y\nexcept RuntimeError as e: print(e)',
    'x = torch.zeros(2, 3); x += torch.ones(3); x -= torch.tensor(0.5); print(x)',
    'print(torch.zeros(2, 3).expand_as(torch.zeros(4, 2, 3)).shape, torch.ones(3).expand(2, -1))',
    'print(torch.where(torch.tensor([True, False]), torch.ones(3, 1), 0.).shape)',
]

# Notes: autograd mechanics.
AUTOGRAD_NOTES = [
    'x = torch.randn(5, 5); y = torch.randn(5, 5); z = torch.randn((5, 5), requires_grad=True); a = x + y; print(a.requires_grad); b = a + z; print(b.requires_grad)',
    r"""
model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 6 * 6, 10))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(4 * 6 * 6, 3)
optimizer = torch.optim.SGD(model[2].parameters(), lr=1e-2, momentum=0.9)
out = model(torch.randn(2, 3, 8, 8))
out.sum().backward()
print(out.grad_fn, model[0].weight.grad, model[2].bias.grad)
print([p.requires_grad for p in model.parameters()])
""",
    r"""
model = nn.Linear(3, 2)
model.requires_grad_(False)
print([p.requires_grad for p in model.parameters()])
out = model(torch.ones(1, 3))
print(out.requires_grad, out.grad_fn)
try:
    out.sum().backward()
except RuntimeError as e:
    print(e)
""",
    'x = torch.randn(5, requires_grad=True); y = x.pow(2); print(x.equal(y.grad_fn._saved_self)); print(x is y.grad_fn._saved_self)',
    'x = torch.randn(5, requires_grad=True); y = x.exp(); print(y.equal(y.grad_fn._saved_result)); print(y is y.grad_fn._saved_result)',
    r"""
x = torch.randn(5, requires_grad=True)
y = x.exp()
y.sum().backward()
try:
    y.grad_fn._saved_result
except RuntimeError as e:
    print(str(e)[:140])
""",
    r"""
a = torch.randn(3, requires_grad=True)
b = a.exp()
b.add_(1)
try:
    b.sum().backward()
except RuntimeError as e:
    print(str(e)[:260])
""",
    r"""
a = torch.randn(3, requires_grad=True)
b = a.sigmoid()
c = b * 2
b.mul_(3)
try:
    c.sum().backward()
    print(a.grad is not None)
except RuntimeError as e:
    print(e)
""",
    r"""
a = torch.ones(3, requires_grad=True)
b = a * 1
b[0] = 5
print(b.grad_fn.name(), b._version)
b.sum().backward()
print(a.grad)
""",
    r"""
x = torch.ones(3, requires_grad=True)
try:
    x.add_(1)
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.ones(3, requires_grad=True)
y = x[:2]
try:
    y.mul_(2)
except RuntimeError as e:
    print(e)
""",
    r"""
def pack_hook(x):
    print("Packing", x)
    return x
def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
""",
    r"""
def pack_hook(x):
    return x.shape
def unpack_hook(shape):
    return torch.zeros(shape)
x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
y.sum().backward()
print(x.grad)
""",
    r"""
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t.shape, lambda s: torch.ones(s))
y.sum().backward()
print(x.grad)
""",
    r"""
x = torch.tensor([1., 2.], requires_grad=True)
h = x.register_hook(lambda grad: grad * 2)
(x * 3).sum().backward()
print(x.grad)
h.remove()
x.grad = None
(x * 3).sum().backward()
print(x.grad)
""",
    r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: print("hook", g))
y.sum().backward()
print(y.grad, x.grad)
""",
    r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.sum().backward()
print(y.grad)
""",
    r"""
with torch.no_grad():
    a = torch.ones(2, requires_grad=True) * 2
print(a.requires_grad)
with torch.enable_grad():
    b = torch.ones(2, requires_grad=True) * 2
print(b.requires_grad)
torch.set_grad_enabled(False)
c = torch.ones(2, requires_grad=True) * 2
torch.set_grad_enabled(True)
print(c.requires_grad, torch.is_grad_enabled())
""",
    r"""
with torch.inference_mode():
    x = torch.ones(2)
print(x.is_inference(), x.requires_grad)
try:
    x.requires_grad_(True)
    (x * 2).sum().backward()
except RuntimeError as e:
    print(e)
""",
    r"""
with torch.inference_mode():
    x = torch.ones(2)
y = torch.ones(2, requires_grad=True)
try:
    x.add_(1)
    print("in-place outside inference mode:", x)
except RuntimeError as e:
    print(e)
""",
    r"""
z = torch.zeros(3, dtype=torch.complex64, requires_grad=True)
w = (z * (1 + 2j)).abs().sum()
print(w)
x = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
(x.abs() ** 2).sum().backward()
print(x.grad)
""",
    r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
g.sum().backward()
print(x.grad)
""",
    r"""
model = nn.Linear(2, 2)
model.eval()
print(model.training, all(p.requires_grad for p in model.parameters()))
out = model(torch.ones(1, 2))
print(out.requires_grad)
""",
    r"""
x = torch.tensor([1., 2.], requires_grad=True)
try:
    torch.autograd.grad((x * 2).sum(), [x, torch.ones(2)])
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.ones(2, requires_grad=True); w = torch.ones(2, requires_grad=True)
try:
    torch.autograd.grad((x * 2).sum(), [x, w])
except RuntimeError as e:
    print(e)
print(torch.autograd.grad((x * 2).sum(), [x, w], allow_unused=True))
""",
]

# Notes: reproducibility and numerical accuracy; recipes: CPU autocast, the default device,
# reasoning about shapes.
NOTES = [
    r"""
import random
torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
a = torch.rand(3)
torch.manual_seed(0)
print(torch.equal(a, torch.rand(3)), torch.initial_seed())
""",
    r"""
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(True, warn_only=True)
print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
""",
    r"""
torch.backends.cudnn.benchmark = False
torch.backends.cudnn.deterministic = True
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)
torch.backends.cudnn.deterministic = False
""",
    r"""
import random
def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)
g = torch.Generator()
g.manual_seed(0)
dl = torch.utils.data.DataLoader(torch.arange(10), batch_size=3, shuffle=True, worker_init_fn=seed_worker, generator=g)
print([b.tolist() for b in dl])
g.manual_seed(0)
print([b.tolist() for b in dl])
""",
    r"""
g = torch.Generator().manual_seed(42)
print(torch.rand(2, generator=g), torch.randn(2, generator=g), g.initial_seed())
s = g.get_state()
a = torch.rand(2, generator=g)
g.set_state(s)
print(torch.equal(a, torch.rand(2, generator=g)), s.dtype, s.shape)
""",
    r"""
try:
    torch.use_deterministic_algorithms("yes")
except TypeError as e:
    print(e)
""",
    r"""
state = torch.get_rng_state()
a = torch.randn(3)
torch.set_rng_state(state)
print(torch.equal(a, torch.randn(3)), state.dtype)
print(torch.random.initial_seed(), torch.seed() != 0)
""",
    r"""
a = torch.rand(10000, dtype=torch.float64)
print(torch.allclose(a.sum(), a.flip(0).sum()), (a.sum() - a.flip(0).sum()).abs() < 1e-9)
""",
    r"""
print(torch.finfo(torch.float32))
print(torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).eps, torch.iinfo(torch.int32).max)
print(torch.finfo(torch.float32).tiny, torch.finfo(torch.float64).resolution, torch.finfo().dtype)
""",
    r"""
a = torch.tensor([1e20], dtype=torch.float32)
print(a, a.half(), a.bfloat16())
print(torch.exp(torch.tensor([100.])), torch.exp(torch.tensor([100.], dtype=torch.float64)))
print(torch.tensor([1e-45, 1e-46]), torch.tensor(65504.).half() * 2)
""",
    r"""
x = torch.tensor([1e8], dtype=torch.float32)
print(x + 1 - x, x.double() + 1 - x.double())
print(torch.tensor(0.1) + torch.tensor(0.2) == torch.tensor(0.3), torch.tensor(0.1, dtype=torch.float64) + 0.2)
""",
    r"""
print(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('high')
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('highest')
print(torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction, torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction)
""",
    r"""
try:
    torch.set_float32_matmul_precision('low')
except RuntimeError as e:
    print(e)
""",
    r"""
A = torch.randn(8, 5, dtype=torch.float64); B = torch.randn(5, 4, dtype=torch.float64)
full = A @ B
print(torch.allclose(full[:3], A[:3] @ B), (A.unsqueeze(0) @ B).shape)
print(torch.allclose(torch.stack([a @ B for a in A.view(2, 4, 5)]).view(8, 4), full))
""",
    r"""
a = torch.tensor([1., float('nan'), float('inf'), -float('inf')])
print(a, torch.isnan(a), torch.isinf(a), torch.isfinite(a), torch.nan_to_num(a))
print(a.sum(), a[2:].sum(), torch.nansum(a[:2]))
""",
    r"""
x = torch.tensor([1e-3, 1., 1e3], dtype=torch.float16)
print(x * x, (x.float() * x.float()).half(), x.sum(), x.dtype)
""",
    r"""
print(torch.tensor(16777217, dtype=torch.float32).long(), torch.tensor(16777217, dtype=torch.float64).long())
print(torch.tensor([2**24 + 1.0]) == 2**24, torch.tensor([0.1]).item(), torch.tensor([0.1], dtype=torch.float64).item())
""",
    r"""
model = nn.Linear(4, 3)
x = torch.randn(2, 4)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    y = model(x)
    z = torch.mm(x, x.t())
    s = y.float().sum()
print(y.dtype, z.dtype, s.dtype, x.dtype, model.weight.dtype)
print(y.grad_fn.name(), torch.is_autocast_enabled("cpu"))
""",
    r"""
model = nn.Linear(4, 3)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 4); t = torch.randint(0, 3, (8,))
for epoch in range(3):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        output = model(x)
        loss = F.cross_entropy(output, t)
    print(output.dtype, loss.dtype)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
print(model.weight.dtype, model.weight.grad)
""",
    r"""
with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=False):
    y = nn.Linear(2, 2)(torch.ones(1, 2))
print(y.dtype)
with torch.autocast(device_type="cpu"):
    print(torch.get_autocast_dtype("cpu"), torch.is_autocast_enabled("cpu"))
    y = torch.ones(2, 2) @ torch.ones(2, 2)
    with torch.autocast(device_type="cpu", enabled=False):
        w = torch.ones(2, 2) @ torch.ones(2, 2)
print(y.dtype, w.dtype)
""",
    r"""
scaler = torch.amp.GradScaler("cpu")
model = nn.Linear(3, 1); opt = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    loss = model(torch.ones(2, 3)).float().pow(2).mean()
scaler.scale(loss).backward()
scaler.step(opt)
scaler.update()
print(scaler.get_scale(), model.bias)
print(sorted(scaler.state_dict()))
""",
    r"""
with torch.autocast(device_type="cpu", dtype=torch.float16):
    y = nn.Linear(2, 2)(torch.ones(1, 2))
print(y.dtype)
""",
    r"""
try:
    with torch.autocast(device_type="cpu", dtype=torch.float32):
        pass
except Exception as e:
    print(type(e).__name__, e)
""",
    r"""
torch.set_default_device('cpu')
print(torch.get_default_device(), torch.ones(2).device)
with torch.device('cpu'):
    mod = torch.nn.Linear(20, 30)
    print(mod.weight.device)
    print(mod(torch.randn(128, 20)).device)
torch.set_default_device(None)
print(torch.get_default_device())
""",
    r"""
dev = torch.device('cpu')
print(dev, repr(dev), dev.type, dev.index, torch.device('cpu', 0), torch.device('cuda:1').index)
print(torch.ones(2, device=dev).device == dev, torch.device('cpu') == torch.device('cpu:0'))
""",
    r"""
try:
    torch.device('gpu')
except RuntimeError as e:
    print(e)
""",
    r"""
t = torch.ones(2)
print(t.to('cpu') is t, t.cpu() is t, t.to('cpu', copy=True) is t, t.to(torch.float64).dtype)
model = nn.Linear(2, 2)
print(model.to('cpu') is model, model.cpu().weight.device, model.double().weight.dtype)
""",
    r"""
try:
    torch.ones(2).cuda()
except (AssertionError, RuntimeError) as e:
    print(type(e).__name__, str(e).startswith("Torch not compiled with CUDA enabled"))
""",
    r"""
device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else torch.device("cpu")
print(device, torch.cuda.device_count(), torch.backends.mps.is_available())
""",
    r"""
def conv_out(size, k, s=1, p=0, d=1):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1
x = torch.rand(10, 3, 224, 224)
conv = nn.Conv2d(3, 5, 3, stride=2, padding=1)
print(conv(x[:1]).shape, conv_out(224, 3, 2, 1))
print(nn.MaxPool2d(2)(conv(x[:1])).shape)
""",
    r"""
m = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 4, 3, padding=1), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(4, 2))
x = torch.randn(2, 3, 16, 16)
for layer in m:
    x = layer(x)
    print(type(layer).__name__, tuple(x.shape))
""",
    r"""
def fw_hook(module, input, output):
    print(f"Shape of output to {module} is {output.shape}.")
m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 2))
for _, layer in m.named_modules():
    layer.register_forward_hook(fw_hook)
out = m(torch.randn(1, 3, 8, 8))
""",
    r"""
m = nn.Conv2d(3, 4, 3)
try:
    m(torch.randn(1, 3, 2, 2))
except RuntimeError as e:
    print(e)
""",
    r"""
m = nn.Linear(10, 2)
try:
    m(torch.randn(3, 20))
except RuntimeError as e:
    print(e)
""",
    r"""
m = nn.MaxPool2d(4)
try:
    m(torch.randn(1, 1, 3, 3))
except RuntimeError as e:
    print(e)
""",
]

# NLP from scratch: a char-RNN classifying made-up names by language.
CHAR_RNN_DATA = r"""
import string, unicodedata, time, math
all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
def unicodeToAscii(s):
    return ''.join(c for c in unicodedata.normalize('NFD', s)
                   if unicodedata.category(c) != 'Mn' and c in all_letters)
category_lines = {'English': ['Smith', 'Brown', 'Taylor', 'Walker'],
                  'French': ['Dubois', 'Lefevre', 'Moreau', 'Rousseau'],
                  'Italian': ['Rossi', 'Bianchi', 'Ricci', 'Esposito']}
all_categories = list(category_lines)
n_categories = len(all_categories)
def letterToIndex(letter):
    return all_letters.find(letter)
def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][letterToIndex(letter)] = 1
    return tensor
def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor
class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)
    def forward(self, input, hidden):
        hidden = F.tanh(self.i2h(input) + self.h2h(hidden))
        output = self.h2o(hidden)
        output = self.softmax(output)
        return output, hidden
    def initHidden(self):
        return torch.zeros(1, self.hidden_size)
n_hidden = 16
rnn = RNN(n_letters, n_hidden, n_categories)
def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i
"""
CHAR_RNN = [CHAR_RNN_DATA + s for s in [
    "print(unicodeToAscii('Ślusàrski'), n_letters, letterToIndex('J'))\nprint(letterToTensor('J'))\nprint(lineToTensor('Jones').size())",
    "print(rnn)\nprint(sum(p.numel() for p in rnn.parameters()))",
    r"""
input = letterToTensor('A')
hidden = torch.zeros(1, n_hidden)
output, next_hidden = rnn(input, hidden)
print(output, next_hidden.shape)
input = lineToTensor('Albert')
output, next_hidden = rnn(input[0], hidden)
print(output)
print(categoryFromOutput(output))
""",
    r"""
import random
random.seed(1)
def randomChoice(l):
    return l[random.randint(0, len(l) - 1)]
def randomTrainingExample():
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    line_tensor = lineToTensor(line)
    return category, line, category_tensor, line_tensor
for i in range(4):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    print('category =', category, '/ line =', line, category_tensor, line_tensor.shape)
""",
    r"""
import random
random.seed(2)
criterion = nn.NLLLoss()
learning_rate = 0.005
def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()
current_loss = 0
all_losses = []
for iter in range(1, 61):
    category = random.choice(all_categories)
    line = random.choice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    output, loss = train(category_tensor, lineToTensor(line))
    current_loss += loss
    if iter % 20 == 0:
        guess, guess_i = categoryFromOutput(output)
        correct = '✓' if guess == category else '✗ (%s)' % category
        print('%d %d%% %.4f %s / %s %s' % (iter, iter / 60 * 100, loss, line, guess, correct))
        all_losses.append(current_loss / 20)
        current_loss = 0
print([round(l, 3) for l in all_losses])
""",
    r"""
confusion = torch.zeros(n_categories, n_categories)
def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output
for category in all_categories:
    for line in category_lines[category]:
        output = evaluate(lineToTensor(line))
        guess, guess_i = categoryFromOutput(output)
        confusion[all_categories.index(category)][guess_i] += 1
for i in range(n_categories):
    confusion[i] = confusion[i] / confusion[i].sum()
print(confusion)
""",
    r"""
def predict(input_line, n_predictions=2):
    print('\n> %s' % input_line)
    with torch.no_grad():
        hidden = rnn.initHidden()
        line_tensor = lineToTensor(input_line)
        for i in range(line_tensor.size()[0]):
            output, hidden = rnn(line_tensor[i], hidden)
        topv, topi = output.topk(n_predictions, 1, True)
        for i in range(n_predictions):
            value = topv[0][i].item()
            category_index = topi[0][i].item()
            print('(%.2f) %s' % (value, all_categories[category_index]))
predict('Dovesky')
predict('Jackson')
""",
    r"""
class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(CharRNN, self).__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)
    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)
        return output
model = CharRNN(n_letters, 16, n_categories)
print(model)
print(model(lineToTensor('Albert')))
""",
    r"""
class NamesDataset(torch.utils.data.Dataset):
    def __init__(self):
        self.data = []; self.data_tensors = []; self.labels = []; self.labels_tensors = []
        self.labels_uniq = sorted(category_lines)
        for label, names in category_lines.items():
            for name in names:
                self.data.append(name)
                self.data_tensors.append(lineToTensor(name))
                self.labels.append(label)
        for idx in range(len(self.labels)):
            self.labels_tensors.append(torch.tensor([self.labels_uniq.index(self.labels[idx])], dtype=torch.long))
    def __len__(self):
        return len(self.data)
    def __getitem__(self, idx):
        return self.labels_tensors[idx], self.data_tensors[idx], self.labels[idx], self.data[idx]
alldata = NamesDataset()
print(f"loaded {len(alldata)} items of data")
print(f"example = {alldata[0]}"[:120])
train_set, test_set = torch.utils.data.random_split(alldata, [.85, .15], generator=torch.Generator(device='cpu').manual_seed(2024))
print(f"train examples = {len(train_set)}, validation examples = {len(test_set)}")
print(train_set.indices, test_set.indices)
""",
    r"""
import random
random.seed(0)
class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)
    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        return self.softmax(self.h2o(hidden[0]))
model = CharRNN(n_letters, 16, n_categories)
data = [(torch.tensor([i]), lineToTensor(n)) for i, c in enumerate(all_categories) for n in category_lines[c]]
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.15)
model.train()
for epoch in range(1, 4):
    model.zero_grad()
    current_loss = 0
    batches = list(range(len(data)))
    random.shuffle(batches)
    batches = np.array_split(batches, 3)
    for idx, batch in enumerate(batches):
        batch_loss = 0
        for i in batch:
            label_tensor, text_tensor = data[i]
            output = model.forward(text_tensor)
            loss = criterion(output, label_tensor)
            batch_loss += loss
        batch_loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 3)
        optimizer.step()
        optimizer.zero_grad()
        current_loss += batch_loss.item() / len(batch)
    print(f"{epoch} ({epoch / 3:.0%}): \t average batch loss = {current_loss / len(batches):.4f}")
""",
]]

# Seq2seq with attention: encoder, Bahdanau attention and the attention decoder's shapes.
SEQ2SEQ_MODELS = r"""
SOS_token = 0; EOS_token = 1; MAX_LENGTH = 5
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
encoder = EncoderRNN(10, 8)
decoder = AttnDecoderRNN(8, 12)
input_tensor = torch.tensor([[2, 3, 4, 1, 0], [5, 6, 1, 0, 0]])
target_tensor = torch.tensor([[3, 4, 5, 1, 0], [7, 1, 0, 0, 0]])
"""
SEQ2SEQ = [SEQ2SEQ_MODELS + s for s in [
    "print(encoder); print(decoder)",
    r"""
encoder.eval(); decoder.eval()
encoder_outputs, encoder_hidden = encoder(input_tensor)
print(encoder_outputs.shape, encoder_hidden.shape)
decoder_outputs, decoder_hidden, attentions = decoder(encoder_outputs, encoder_hidden)
print(decoder_outputs.shape, decoder_hidden.shape, attentions.shape)
print(attentions[0].sum(-1))
_, topi = decoder_outputs.topk(1)
decoded_ids = topi.squeeze()
print(decoded_ids)
""",
    r"""
encoder_optimizer = torch.optim.Adam(encoder.parameters(), lr=0.001)
decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=0.001)
criterion = nn.NLLLoss()
for epoch in range(3):
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    encoder_outputs, encoder_hidden = encoder(input_tensor)
    decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)
    loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), target_tensor.view(-1))
    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
    print(epoch, f"{loss.item():.4f}")
""",
    r"""
att = BahdanauAttention(8)
query = torch.randn(2, 1, 8); keys = torch.randn(2, 5, 8)
context, weights = att(query, keys)
print(context.shape, weights.shape, weights.sum(-1))
print(weights.grad_fn, context.grad_fn)
""",
    r"""
emb = nn.Embedding(10, 4)
print(emb, emb(torch.tensor([[1, 2], [3, 9]])).shape)
try:
    emb(torch.tensor([10]))
except IndexError as e:
    print(e)
""",
    r"""
emb = nn.Embedding(10, 4)
try:
    emb(torch.tensor([1.0]))
except RuntimeError as e:
    print(e)
""",
    r"""
gru = nn.GRU(8, 8, batch_first=True)
out, h = gru(torch.randn(2, 5, 8))
print(out.shape, h.shape, torch.allclose(out[:, -1], h[0]))
try:
    gru(torch.randn(2, 5, 7))
except RuntimeError as e:
    print(e)
""",
    r"""
gru = nn.GRU(8, 8, batch_first=True)
try:
    gru(torch.randn(2, 5, 8), torch.zeros(2, 1, 8))
except RuntimeError as e:
    print(e)
""",
    r"""
decoder_input = torch.empty(2, 1, dtype=torch.long).fill_(SOS_token)
print(decoder_input, torch.tensor([[0.1, 0.7, 0.2]]).topk(1))
print(torch.cat([torch.zeros(2, 1, 3), torch.ones(2, 1, 3)], dim=1).shape)
""",
    r"""
def indexesFromSentence(word2index, sentence):
    return [word2index[word] for word in sentence.split(' ')]
word2index = {"je": 2, "suis": 3, "froid": 4}
indexes = indexesFromSentence(word2index, "je suis froid")
indexes.append(EOS_token)
t = torch.tensor(indexes, dtype=torch.long, device="cpu").view(1, -1)
print(t, t.shape)
input_ids = np.zeros((2, MAX_LENGTH), dtype=np.int32)
input_ids[0, :len(indexes)] = indexes
data = torch.utils.data.TensorDataset(torch.LongTensor(input_ids), torch.LongTensor(input_ids))
print(data[0], torch.utils.data.RandomSampler(data, generator=torch.Generator().manual_seed(0)).__iter__().__next__())
""",
]]

# DCGAN on tiny images: generator and discriminator blocks, weights_init, one training step.
DCGAN_MODELS = r"""
nc = 3; nz = 8; ngf = 4; ndf = 4
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
class Generator(nn.Module):
    def __init__(self, ngpu):
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
    def __init__(self, ngpu):
        super(Discriminator, self).__init__()
        self.ngpu = ngpu
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
        return self.main(input)
netG = Generator(0)
netG.apply(weights_init)
netD = Discriminator(0)
netD.apply(weights_init)
"""
DCGAN = [DCGAN_MODELS + s for s in [
    "print(netG)\nprint(netD)",
    r"""
fixed_noise = torch.randn(4, nz, 1, 1)
fake = netG(fixed_noise)
print(fake.shape, fake.min() >= -1, fake.max() <= 1)
out = netD(fake).view(-1)
print(out.shape, out)
print(netG.main[1].weight[:3], netG.main[1].bias[:3], netG.main[0].weight.std() < 0.05)
""",
    r"""
criterion = nn.BCELoss()
real_label = 1.
fake_label = 0.
lr = 0.0002; beta1 = 0.5
optimizerD = torch.optim.Adam(netD.parameters(), lr=lr, betas=(beta1, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=lr, betas=(beta1, 0.999))
G_losses = []; D_losses = []
real_batch = torch.rand(4, nc, 16, 16) * 2 - 1
for i in range(3):
    netD.zero_grad()
    real_cpu = real_batch
    b_size = real_cpu.size(0)
    label = torch.full((b_size,), real_label, dtype=torch.float)
    output = netD(real_cpu).view(-1)
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
    print('[%d/%d]\tLoss_D: %.4f\tLoss_G: %.4f\tD(x): %.4f\tD(G(z)): %.4f / %.4f'
          % (i, 3, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
    G_losses.append(errG.item())
    D_losses.append(errD.item())
print(len(G_losses), netD.main[3].running_mean[:3], netD.main[3].num_batches_tracked)
""",
    r"""
label = torch.full((4,), 1., dtype=torch.float)
print(label, label.dtype, torch.full((2,), 1).dtype)
criterion = nn.BCELoss()
try:
    criterion(torch.tensor([0.5, 1.5]), torch.tensor([1., 0.]))
except RuntimeError as e:
    print(e)
""",
    r"""
criterion = nn.BCELoss()
try:
    criterion(torch.tensor([0.5, 0.5]), torch.tensor([1, 0]))
except RuntimeError as e:
    print(e)
""",
    r"""
criterion = nn.BCELoss()
try:
    criterion(torch.rand(4, 1), torch.ones(4))
except ValueError as e:
    print(e)
""",
    r"""
t = nn.ConvTranspose2d(nz, 6, 4, 1, 0, bias=False)
print(t, t.weight.shape, t(torch.randn(2, nz, 1, 1)).shape)
t2 = nn.ConvTranspose2d(6, 3, 4, 2, 1)
print(t2(torch.randn(1, 6, 4, 4)).shape, t2(torch.randn(1, 6, 4, 4), output_size=[9, 9]).shape)
""",
    r"""
act = nn.LeakyReLU(0.2, inplace=True)
x = torch.tensor([-1., 2.])
y = act(x)
print(act, y, x, y is x)
print(nn.ReLU(True), nn.Tanh(), nn.Sigmoid())
""",
    r"""
print(sum(p.numel() for p in netG.parameters()), sum(p.numel() for p in netD.parameters() if p.requires_grad))
print([n for n, b in netD.named_buffers()])
""",
    r"""
nn.init.normal_(netG.main[0].weight.data, 0.0, 0.02)
print(netG.main[0].weight.data.mean().abs() < 0.01)
w = torch.empty(3, 5)
print(nn.init.constant_(w, 0.3)[0], nn.init.zeros_(w).sum(), nn.init.ones_(torch.empty(2)))
print(nn.init.xavier_uniform_(torch.empty(2, 3)), nn.init.kaiming_normal_(torch.empty(2, 3), mode='fan_out', nonlinearity='relu'))
""",
    r"""
from_fixed = torch.randn(2, nz, 1, 1)
with torch.no_grad():
    fake = netG(from_fixed).detach().cpu()
print(fake.requires_grad, fake.shape, fake.mean().abs() < 1)
grid = torch.cat([fake[0], fake[1]], dim=2)
print(grid.shape, np.transpose(grid.numpy(), (1, 2, 0)).shape)
""",
]]

# Transfer learning: freeze a "pretrained" backbone, replace its head, fine-tune.
BACKBONE = r"""
import copy, io
class TinyResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = nn.Sequential(nn.Conv2d(4, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(4, num_classes)
    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer1(x)
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)
pretrained = TinyResNet()
inputs = torch.randn(6, 3, 8, 8); labels = torch.tensor([0, 1, 1, 0, 1, 0])
"""
TRANSFER = [BACKBONE + s for s in [
    r"""
model_ft = copy.deepcopy(pretrained)
num_ftrs = model_ft.fc.in_features
model_ft.fc = nn.Linear(num_ftrs, 2)
print(model_ft.fc, num_ftrs)
criterion = nn.CrossEntropyLoss()
optimizer_ft = torch.optim.SGD(model_ft.parameters(), lr=0.001, momentum=0.9)
exp_lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer_ft, step_size=2, gamma=0.1)
for epoch in range(4):
    model_ft.train()
    optimizer_ft.zero_grad()
    with torch.set_grad_enabled(True):
        outputs = model_ft(inputs)
        _, preds = torch.max(outputs, 1)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer_ft.step()
    exp_lr_scheduler.step()
    running_corrects = torch.sum(preds == labels.data)
    epoch_acc = running_corrects.double() / len(labels)
    print(f'{epoch} Loss: {loss.item():.4f} Acc: {epoch_acc:.4f}', exp_lr_scheduler.get_last_lr())
""",
    r"""
model_conv = copy.deepcopy(pretrained)
for param in model_conv.parameters():
    param.requires_grad = False
num_ftrs = model_conv.fc.in_features
model_conv.fc = nn.Linear(num_ftrs, 2)
print([n for n, p in model_conv.named_parameters() if p.requires_grad])
optimizer_conv = torch.optim.SGD(model_conv.fc.parameters(), lr=0.001, momentum=0.9)
criterion = nn.CrossEntropyLoss()
for phase in ['train', 'val']:
    if phase == 'train':
        model_conv.train()
    else:
        model_conv.eval()
    optimizer_conv.zero_grad()
    with torch.set_grad_enabled(phase == 'train'):
        outputs = model_conv(inputs)
        _, preds = torch.max(outputs, 1)
        loss = criterion(outputs, labels)
        if phase == 'train':
            loss.backward()
            optimizer_conv.step()
    print(phase, loss.requires_grad, f"{loss.item():.4f}", preds)
print(model_conv.conv1.weight.grad, model_conv.fc.bias.grad is not None)
""",
    r"""
model = copy.deepcopy(pretrained)
best_model_params = io.BytesIO()
torch.save(model.state_dict(), best_model_params)
best_acc = 0.0
best_model_wts = copy.deepcopy(model.state_dict())
with torch.no_grad():
    model.fc.weight.fill_(0)
best_model_params.seek(0)
model.load_state_dict(torch.load(best_model_params, weights_only=True))
print(torch.equal(model.fc.weight, pretrained.fc.weight), torch.equal(best_model_wts['fc.weight'], pretrained.fc.weight))
""",
    r"""
model = copy.deepcopy(pretrained)
model.requires_grad_(False)
model.fc = nn.Linear(model.fc.in_features, 3)
try:
    torch.optim.SGD(model.parameters(), lr=0.1).step()
    print("ok")
except Exception as e:
    print(type(e).__name__, e)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(len(opt.param_groups[0]['params']))
""",
    r"""
model = copy.deepcopy(pretrained)
for name, child in model.named_children():
    print(name, type(child).__name__)
model.eval()
x = torch.randn(1, 3, 8, 8)
with torch.no_grad():
    outputs = model(x)
    _, preds = torch.max(outputs, 1)
print(outputs.shape, preds)
""",
    r"""
model = copy.deepcopy(pretrained)
sd = model.state_dict()
print(list(sd)[:8])
print(sd['bn1.running_var'], sd['bn1.num_batches_tracked'])
model.train(); model(inputs); model(inputs)
print(model.bn1.num_batches_tracked, model.bn1.running_mean.shape)
""",
    r"""
model = copy.deepcopy(pretrained)
head = nn.Sequential(nn.Dropout(0.5), nn.Linear(4, 2))
model.fc = head
print(model.fc)
params = [{'params': model.fc.parameters(), 'lr': 1e-2}, {'params': [p for n, p in model.named_parameters() if not n.startswith('fc')]}]
opt = torch.optim.SGD(params, lr=1e-4, momentum=0.9)
print([g['lr'] for g in opt.param_groups], [len(g['params']) for g in opt.param_groups])
""",
    r"""
new = TinyResNet(num_classes=2)
sd = {k: v for k, v in pretrained.state_dict().items() if not k.startswith('fc.')}
print(new.load_state_dict(sd, strict=False))
try:
    new.load_state_dict(pretrained.state_dict())
except RuntimeError as e:
    print(e)
""",
    r"""
scheduler = torch.optim.lr_scheduler.StepLR(torch.optim.SGD(pretrained.parameters(), lr=0.1), step_size=7, gamma=0.1)
lrs = []
for epoch in range(16):
    scheduler.optimizer.step()
    scheduler.step()
    lrs.append(round(scheduler.get_last_lr()[0], 6))
print(lrs)
print(scheduler.state_dict())
""",
]]

# Training a classifier: CIFAR-like random images.
CIFAR = r"""
classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x
net = Net()
images_all = torch.rand(16, 3, 32, 32) * 2 - 1
labels_all = torch.randint(0, 10, (16,))
trainset = torch.utils.data.TensorDataset(images_all, labels_all)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=True)
testloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=False)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
"""
CLASSIFIER = [CIFAR + s for s in [
    r"""
dataiter = iter(trainloader)
images, labels = next(dataiter)
print(images.shape, ' '.join(f'{classes[labels[j]]:5s}' for j in range(4)))
img = images[0] / 2 + 0.5
npimg = img.numpy()
print(np.transpose(npimg, (1, 2, 0)).shape, npimg.dtype)
""",
    r"""
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 2 == 1:
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 2:.3f}')
            running_loss = 0.0
print('Finished Training')
""",
    r"""
import io
PATH = io.BytesIO()
torch.save(net.state_dict(), PATH)
PATH.seek(0)
net2 = Net()
net2.load_state_dict(torch.load(PATH, weights_only=True))
images, labels = next(iter(testloader))
outputs = net2(images)
_, predicted = torch.max(outputs, 1)
print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))
print('GroundTruth: ', ' '.join(f'{classes[labels[j]]:5s}' for j in range(4)))
""",
    r"""
correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
print(f'Accuracy of the network on the {total} test images: {100 * correct // total} %')
""",
    r"""
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predictions = torch.max(outputs, 1)
        for label, prediction in zip(labels, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    if total_pred[classname]:
        accuracy = 100 * float(correct_count) / total_pred[classname]
        print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')
""",
    r"""
device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
print(device)
net.to(device)
inputs, labels = next(iter(testloader))
inputs, labels = inputs.to(device), labels.to(device)
print(inputs.device, net(inputs).shape)
""",
    r"""
outputs = net(images_all[:4])
print(torch.max(outputs, 1))
values, indices = outputs.max(dim=1)
print(values.grad_fn, indices.dtype, outputs.argmax(1))
print(classes[indices[0]], labels_all[0] == indices[0])
""",
    r"""
try:
    net(torch.rand(4, 3, 28, 28))
except RuntimeError as e:
    print(e)
""",
    r"""
try:
    net(torch.rand(4, 1, 32, 32))
except RuntimeError as e:
    print(e)
""",
    r"""
try:
    criterion(net(images_all[:4]), labels_all[:3])
except ValueError as e:
    print(e)
""",
    r"""
n = 0
for data in trainloader:
    n += 1
print(n, len(trainloader), len(trainloader.sampler), type(trainloader.sampler).__name__, type(testloader.sampler).__name__)
""",
]]

# Errors and warnings that users of the tutorials meet, and what they print along the way.
MISTAKES = [
    r"""
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print(e)
""",
    r"""
class Net(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)
try:
    Net()
except AttributeError as e:
    print(e)
""",
    r"""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
net = Net()
try:
    net(torch.ones(2))
except NotImplementedError as e:
    print(e)
""",
    r"""
model = nn.Linear(2, 2)
params = model.parameters()
print(len(list(params)), len(list(params)))
""",
    r"""
model = nn.Linear(2, 2)
try:
    torch.optim.SGD(model.parameters())
except TypeError as e:
    print(e)
""",
    r"""
x = torch.autograd.Variable(torch.ones(2), requires_grad=True)
y = (x * 3).sum()
y.backward()
print(x.grad, x.data, type(x).__name__, y.data)
""",
    r"""
print(torch.FloatTensor(2, 3).shape, torch.LongTensor([1, 2]), torch.Tensor([1, 2]).dtype, torch.FloatTensor([[1, 2]]))
print(torch.Tensor(2).dtype, torch.DoubleTensor([1]).dtype, torch.IntTensor([1]).dtype, torch.ByteTensor([1]).dtype)
""",
    r"""
x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x.data, x.detach(), x.numpy() if not x.requires_grad else x.detach().numpy())
x.data.mul_(2)
print(x, x.grad_fn, x._version)
""",
    r"""
out = torch.randn(3, 5).log_softmax(1)
try:
    F.nll_loss(out, torch.tensor([1, 0]))
except ValueError as e:
    print(e)
""",
    r"""
try:
    F.nll_loss(torch.randn(5), torch.tensor(1))
except Exception as e:
    print(type(e).__name__, e)
""",
    r"""
try:
    F.cross_entropy(torch.randn(3, 5), torch.randn(3, 4))
except RuntimeError as e:
    print(e)
""",
    r"""
print(F.cross_entropy(torch.randn(3, 5), torch.randn(3, 5).softmax(1)))
print(F.cross_entropy(torch.randn(3, 5), torch.tensor([1, 0, 4]), label_smoothing=0.1))
print(F.cross_entropy(torch.randn(3, 5), torch.tensor([1, -100, 4])))
""",
    r"""
@torch.no_grad()
def evaluate(model, x):
    return model(x)
model = nn.Linear(2, 1)
y = evaluate(model, torch.ones(1, 2))
print(y.requires_grad, torch.is_grad_enabled())
""",
    r"""
class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.fc = nn.Linear(n, n)
    def extra_repr(self):
        return f"n={self.n}"
print(Net(3))
print(nn.ModuleList([nn.Linear(1, 1), nn.ReLU()]), nn.ModuleDict({'a': nn.Tanh()}))
""",
    r"""
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(model.state_dict())
""",
    r"""
opt = torch.optim.Adam(nn.Linear(2, 2).parameters(), lr=1e-3)
print(opt)
opt2 = torch.optim.AdamW(nn.Linear(2, 2).parameters())
print(opt2.defaults['weight_decay'], opt2.defaults['betas'])
""",
    r"""
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.5]), torch.tensor([1e-5, 1e5]))
torch.set_printoptions(profile="default")
print(torch.tensor([1.23456, 2.5]), torch.tensor([1e-5, 1e5]), torch.tensor([1e-5, 1.]))
""",
    r"""
print(torch.arange(2000.).reshape(2, 1000))
print(torch.tensor([[123456.7, 0.001]]), torch.tensor([1., 2.], dtype=torch.float64) * 1e10)
""",
    r"""
x = torch.ones(2, 3)
try:
    x.view(3, -1, 2)
except RuntimeError as e:
    print(e)
try:
    x.permute(1, 0, 2)
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.ones(2, 3)
try:
    x[2]
except IndexError as e:
    print(e)
try:
    x[:, 3]
except IndexError as e:
    print(e)
""",
    r"""
x = torch.ones(2, 3)
try:
    torch.stack([x, torch.ones(3, 2)])
except RuntimeError as e:
    print(e)
try:
    x + torch.ones(2)
except RuntimeError as e:
    print(e)
""",
    r"""
try:
    torch.tensor([[1, 2], [3]])
except ValueError as e:
    print(e)
try:
    torch.tensor([1, 'a'])
except TypeError as e:
    print(e)
""",
    r"""
x = torch.tensor([1, 2, 3])
try:
    x.requires_grad_(True)
except RuntimeError as e:
    print(e)
y = torch.tensor([1, 2, 3]) / 2
print(y, y.dtype, torch.tensor([1, 2, 3]) // 2, torch.tensor([3]) / torch.tensor([2]))
""",
    r"""
a = torch.tensor([1, 2], dtype=torch.int32)
try:
    a.add_(0.5)
except RuntimeError as e:
    print(e)
print(a + 0.5, (a * 1.5).dtype, a.float().mean())
""",
    r"""
model = nn.Linear(3, 2)
x = torch.ones(1, 3, dtype=torch.float64)
try:
    model(x)
except RuntimeError as e:
    print(e)
print(model.double()(x).dtype)
""",
    r"""
model = nn.Linear(3, 2)
try:
    model(torch.ones(1, 3, dtype=torch.long))
except RuntimeError as e:
    print(e)
""",
    r"""
x = torch.tensor([0.5, 0.2], requires_grad=True)
loss = x.sum()
loss.backward()
opt = torch.optim.SGD([x], lr=1.0)
opt.step()
print(x, x.grad)
opt.zero_grad()
print(x.grad)
""",
    r"""
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
for _ in range(3):
    opt.step()
    sched.step()
print(sched.get_last_lr(), opt.param_groups[0]['lr'], sched.last_epoch)
""",
    r"""
import warnings
model = nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    sched.step()
print([str(x.message)[:80] for x in w])
""",
    r"""
x = torch.randn(4, 3)
m = nn.BatchNorm1d(3)
print(m(x).mean(0).abs().max() < 1e-6, m.running_mean, m.num_batches_tracked)
m.eval()
print(m(x)[0])
try:
    nn.BatchNorm1d(3)(torch.randn(1, 3))
except ValueError as e:
    print(e)
""",
    r"""
d = nn.Dropout(0.5)
x = torch.ones(8)
print(d(x), d.training)
d.eval()
print(d(x))
""",
    r"""
x = torch.ones(2, 2, requires_grad=True)
y = x * 2
print(y.is_leaf, x.is_leaf, y.requires_grad)
y.backward(torch.ones_like(y))
print(x.grad)
z = y.detach().requires_grad_()
print(z.is_leaf, z.grad_fn)
""",
    r"""
x = torch.ones(2, requires_grad=True)
y = x.sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print(str(e)[:94])
""",
    r"""
x = torch.ones(2, requires_grad=True)
print(x.grad)
(x * x).sum().backward()
(x * x).sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
""",
    r"""
print(torch.__version__ >= "2", type(torch.__version__).__name__)
print(torch.get_default_dtype(), torch.is_tensor(torch.ones(1)), torch.numel(torch.ones(2, 3)))
""",
]

# More tutorials: text classification (EmbeddingBag), the Transformer language model, spatial
# transformers, style transfer (Gram matrices, LBFGS), FGSM, DQN, per-sample gradients and
# ensembling with torch.func, knowledge distillation, pruning.
MORE_TUTORIALS = [
    r"""
class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super(TextClassificationModel, self).__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()
    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()
    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)
model = TextClassificationModel(20, 8, 4)
print(model)
text = torch.tensor([1, 5, 7, 2, 9, 3, 3, 11]); offsets = torch.tensor([0, 3, 5])
out = model(text, offsets)
print(out.shape, out)
label = torch.tensor([0, 3, 1])
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
for epoch in range(2):
    optimizer.zero_grad()
    loss = nn.CrossEntropyLoss()(model(text, offsets), label)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    optimizer.step()
    print(epoch, f"{loss.item():.4f}", (model(text, offsets).argmax(1) == label).sum().item())
    scheduler.step()
""",
    r"""
def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(_label)
        processed_text = torch.tensor(_text, dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets
data = [(1, [4, 5, 6]), (0, [1, 2]), (2, [7]), (1, [8, 9, 10, 11])]
dl = torch.utils.data.DataLoader(data, batch_size=3, shuffle=False, collate_fn=collate_batch)
for labels, text, offsets in dl:
    print(labels, text, offsets)
""",
    r"""
bag = nn.EmbeddingBag(10, 3, mode='sum')
print(bag, bag(torch.tensor([[1, 2], [3, 4]])).shape)
print(nn.EmbeddingBag(10, 3, mode='max')(torch.tensor([1, 2, 4]), torch.tensor([0, 1])).shape)
try:
    bag(torch.tensor([1, 2]))
except ValueError as e:
    print(e)
""",
    r"""
import math
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=50):
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
pe = PositionalEncoding(8)
print(pe, [n for n, _ in pe.named_buffers()], list(pe.state_dict()))
print(pe.pe[1, 0], pe.pe.shape)
print(pe.eval()(torch.zeros(3, 2, 8))[2, 1])
""",
    r"""
import math
class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.5):
        super().__init__()
        self.model_type = 'Transformer'
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
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)
model = TransformerModel(20, 8, 2, 16, 2, 0.2)
print(model)
src = torch.randint(0, 20, (5, 3))
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
model.eval()
out = model(src, mask)
print(out.shape, out[0, 0])
""",
    r"""
model = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
src = torch.rand(2, 4, 8)
out = model(src)
print(out.shape, out[0, 0])
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = out.pow(2).mean(); loss.backward(); opt.step()
print(f"{loss.item():.5f}", sum(p.numel() for p in model.parameters()))
""",
    r"""
try:
    nn.TransformerEncoderLayer(d_model=9, nhead=2)
except AssertionError as e:
    print(e)
print(nn.MultiheadAttention(8, 2))
mha = nn.MultiheadAttention(8, 2, batch_first=True)
q = torch.randn(2, 3, 8)
o, w = mha(q, q, q)
print(o.shape, w.shape, w.sum(-1).round(decimals=3))
""",
    r"""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=5), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(4 * 4 * 4, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 4 * 4 * 4)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return x
    def forward(self, x):
        return self.stn(x)
net = Net()
x = torch.rand(2, 1, 12, 12)
y = net(x)
print(y.shape, torch.allclose(y, x, atol=1e-5))
y.sum().backward()
print(net.fc_loc[2].weight.grad.shape, net.fc_loc[2].bias.grad)
""",
    r"""
theta = torch.tensor([[[0.5, 0., 0.1], [0., 0.5, -0.1]]])
grid = F.affine_grid(theta, (1, 1, 2, 3), align_corners=False)
print(grid)
img = torch.arange(12.).view(1, 1, 3, 4)
print(F.grid_sample(img, grid, align_corners=False))
print(F.grid_sample(img, grid, mode='nearest', padding_mode='border', align_corners=True))
""",
    r"""
def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)
class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super(StyleLoss, self).__init__()
        self.target = gram_matrix(target_feature).detach()
    def forward(self, input):
        G = gram_matrix(input)
        self.loss = F.mse_loss(G, self.target)
        return input
class ContentLoss(nn.Module):
    def __init__(self, target):
        super(ContentLoss, self).__init__()
        self.target = target.detach()
    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input
cnn = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(inplace=False), nn.Conv2d(4, 4, 3, padding=1))
style_img = torch.rand(1, 3, 8, 8); content_img = torch.rand(1, 3, 8, 8)
sl = StyleLoss(cnn(style_img)); cl = ContentLoss(cnn(content_img))
model = nn.Sequential(cnn, sl, cl)
model.eval(); model.requires_grad_(False)
input_img = content_img.clone()
input_img.requires_grad_(True)
optimizer = torch.optim.LBFGS([input_img])
run = [0]
while run[0] <= 4:
    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        loss = sl.loss * 1e6 + cl.loss
        loss.backward()
        run[0] += 1
        return sl.loss * 1e6 + cl.loss
    optimizer.step(closure)
with torch.no_grad():
    input_img.clamp_(0, 1)
print(run[0], f"{sl.loss.item():.5f}", f"{cl.loss.item():.5f}", input_img.min() >= 0)
print(sorted(optimizer.state_dict()['state'][0]))
""",
    r"""
class Normalization(nn.Module):
    def __init__(self, mean, std):
        super(Normalization, self).__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)
    def forward(self, img):
        return (img - self.mean) / self.std
norm = Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
print(norm(torch.ones(1, 3, 2, 2))[0, :, 0, 0])
model = nn.Sequential(norm)
i = 0
for layer in [nn.Conv2d(3, 3, 1), nn.ReLU(inplace=True), nn.MaxPool2d(2)]:
    if isinstance(layer, nn.Conv2d):
        i += 1
        name = 'conv_{}'.format(i)
    elif isinstance(layer, nn.ReLU):
        name = 'relu_{}'.format(i)
        layer = nn.ReLU(inplace=False)
    else:
        name = 'pool_{}'.format(i)
    model.add_module(name, layer)
print(model)
for i in range(len(model) - 1, -1, -1):
    if isinstance(model[i], nn.ReLU):
        break
print(i, model[:(i + 1)])
""",
    r"""
def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image
def denorm(batch, mean=[0.1307], std=[0.3081]):
    if isinstance(mean, list):
        mean = torch.tensor(mean)
    if isinstance(std, list):
        std = torch.tensor(std)
    return batch * std.view(1, -1, 1, 1) + mean.view(1, -1, 1, 1)
model = nn.Sequential(nn.Flatten(), nn.Linear(16, 3))
model.eval()
data = torch.rand(1, 1, 4, 4); target = torch.tensor([2])
data.requires_grad = True
output = model(data)
init_pred = output.max(1, keepdim=True)[1]
loss = F.nll_loss(F.log_softmax(output, dim=1), target)
model.zero_grad()
loss.backward()
data_grad = data.grad.data
data_denorm = denorm(data)
perturbed_data = fgsm_attack(data_denorm, 0.1, data_grad)
perturbed_data_normalized = (perturbed_data - 0.1307) / 0.3081
output = model(perturbed_data_normalized)
final_pred = output.max(1, keepdim=True)[1]
print(init_pred, final_pred, init_pred.item() == target.item())
adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
print(adv_ex.shape, float(adv_ex.max()) <= 1)
""",
    r"""
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
policy_net = DQN(4, 2); target_net = DQN(4, 2)
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-4, amsgrad=True)
memory = ReplayMemory(100)
for i in range(8):
    state = torch.randn(1, 4)
    action = torch.tensor([[i % 2]], dtype=torch.long)
    next_state = None if i == 3 else torch.randn(1, 4)
    memory.push(state, action, next_state, torch.tensor([1.0]))
BATCH_SIZE = 4; GAMMA = 0.99; TAU = 0.005
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
print(non_final_mask, state_action_values.shape, f"{loss.item():.5f}")
target_net_state_dict = target_net.state_dict()
policy_net_state_dict = policy_net.state_dict()
for key in policy_net_state_dict:
    target_net_state_dict[key] = policy_net_state_dict[key]*TAU + target_net_state_dict[key]*(1-TAU)
target_net.load_state_dict(target_net_state_dict)
print(torch.allclose(target_net.layer3.bias, policy_net.layer3.bias, atol=1e-3))
with torch.no_grad():
    print(policy_net(torch.randn(1, 4)).max(1).indices.view(1, 1))
""",
    r"""
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = torch.func.functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)
ft_compute_grad = torch.func.grad(compute_loss)
ft_compute_sample_grad = torch.func.vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
data = torch.randn(5, 3); targets = torch.tensor([0, 1, 1, 0, 1])
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
print({k: tuple(v.shape) for k, v in ft_per_sample_grads.items()})
def compute_grad(sample, target):
    loss = F.cross_entropy(model(sample.unsqueeze(0)), target.unsqueeze(0))
    return torch.autograd.grad(loss, list(model.parameters()))
per_sample_grads = [compute_grad(data[i], targets[i]) for i in range(5)]
per_sample_grads = list(zip(*per_sample_grads))
per_sample_grads = [torch.stack(shards) for shards in per_sample_grads]
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    print(torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5))
""",
    r"""
models = [nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)) for _ in range(3)]
minibatch = torch.randn(6, 3)
predictions_diff_minibatch_loop = [model(minibatch) for model in models]
params, buffers = torch.func.stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
import copy
base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')
print(base_model[0].weight.device, base_model[0].weight.shape)
def fmodel(params, buffers, x):
    return torch.func.functional_call(base_model, (params, buffers), (x,))
predictions2_vmap = torch.func.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(predictions2_vmap.shape, torch.allclose(predictions2_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-6))
""",
    r"""
def softmax_kd_loss(student_logits, teacher_logits, T=2):
    soft_targets = F.softmax(teacher_logits / T, dim=-1)
    soft_prob = F.log_softmax(student_logits / T, dim=-1)
    return torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0] * (T**2)
student = torch.randn(4, 5, requires_grad=True); teacher = torch.randn(4, 5)
l1 = softmax_kd_loss(student, teacher)
l2 = nn.KLDivLoss(reduction="batchmean")(F.log_softmax(student / 2, dim=-1), F.softmax(teacher / 2, dim=-1)) * 4
print(torch.allclose(l1, l2), f"{l1.item():.5f}")
l1.backward()
print(student.grad.shape)
cos = nn.CosineEmbeddingLoss()
print(cos(torch.randn(3, 4), torch.randn(3, 4), torch.ones(3)))
""",
    r"""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    l = nn.KLDivLoss()(torch.randn(2, 3).log_softmax(-1), torch.rand(2, 3))
print(l, [str(x.message)[:60] for x in w])
""",
    r"""
import importlib
prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
class LeNet(nn.Module):
    def __init__(self):
        super(LeNet, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
model = LeNet()
module = model.conv1
print(list(module.named_parameters())[1][0], list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print(list(module.named_parameters())[0][0], [n for n, _ in module.named_buffers()])
print(module.weight.shape, type(module._forward_pre_hooks).__name__, [type(h).__name__ for h in module._forward_pre_hooks.values()])
prune.l1_unstructured(module, name="bias", amount=3)
print(module.bias, module.bias_mask)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight_mask.sum(dim=(1, 2, 3)))
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print([type(h).__name__ for h in hook], type(hook).__name__)
prune.remove(module, 'weight')
print([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()])
""",
    r"""
import importlib
prune = importlib.import_module(torch.__name__ + '.nn.utils.prune')
model = nn.Sequential(nn.Linear(10, 8), nn.Linear(8, 4))
parameters_to_prune = ((model[0], 'weight'), (model[1], 'weight'))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
print("Sparsity in [0].weight: {:.2f}%".format(100. * float(torch.sum(model[0].weight == 0)) / float(model[0].weight.nelement())))
print("Global sparsity: {:.2f}%".format(100. * float(torch.sum(model[0].weight == 0) + torch.sum(model[1].weight == 0)) / float(model[0].weight.nelement() + model[1].weight.nelement())))
print(dict(model.named_buffers()).keys())
""",
    r"""
def jvp_example():
    primal = torch.randn(3, dtype=torch.float64)
    tangent = torch.randn(3, dtype=torch.float64)
    def fn(x, y):
        return x ** 2 + y ** 2
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        dual_input = fwAD.make_dual(primal, tangent)
        dual_output = fn(dual_input, primal)
        jvp = fwAD.unpack_dual(dual_output).tangent
    print(torch.allclose(jvp, 2 * primal * tangent), fwAD.unpack_dual(dual_output).primal.shape)
jvp_example()
x = torch.randn(3); t = torch.ones(3)
out, jvp = torch.func.jvp(torch.sin, (x,), (t,))
print(torch.allclose(jvp, torch.cos(x)))
""",
    r"""
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
D = 4
weight = torch.randn(D, D); bias = torch.randn(D); x = torch.randn(D)
jacobian = torch.func.jacrev(predict, argnums=2)(weight, bias, x)
print(jacobian.shape)
jac2 = torch.func.jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jacobian, jac2, atol=1e-6))
ft_jac_weight, ft_jac_bias = torch.func.jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
hess = torch.func.hessian(predict, argnums=2)(weight, bias, x)
print(hess.shape)
batch_jacobian = torch.func.vmap(torch.func.jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, torch.randn(3, D))
print(batch_jacobian.shape)
""",
]

# Tensors in Python's formatting and built-ins, as training loops print and collect losses.
FORMATTING = [
    'loss = torch.tensor(0.123456789); print(f"loss: {loss:>7f}", f"{loss:.3f}", "{:.2e}".format(loss), "%.4f" % loss)',
    'loss = torch.tensor(0.5, requires_grad=True) * 2; print(f"{loss:.3f}", f"{loss}", str(loss), repr(loss))',
    'print(f"{torch.tensor(3):d}", f"{torch.tensor(3):>5}", f"{torch.tensor(True)}", f"{torch.tensor(2.5, dtype=torch.float64):.1f}")',
    'print(f"{torch.tensor([1., 2.])}", format(torch.tensor([1, 2])), "{}".format(torch.zeros(2, 2)))',
    't = torch.tensor([1., 2.])\ntry:\n    print(f"{t:.2f}")\nexcept TypeError as e: print(e)',
    'print(round(torch.tensor(1.26).item(), 1), int(torch.tensor(3.7)), float(torch.tensor([2.])), bool(torch.tensor([0])), complex(torch.tensor(1.5)))',
    'import math; print(math.sqrt(torch.tensor(4.)), math.isclose(torch.tensor(0.1), 0.1, rel_tol=1e-6), math.floor(torch.tensor(2.7)))',
    'print(round(torch.tensor(1.26), 1), round(torch.tensor(2.5)), abs(torch.tensor(-1.5)), -torch.tensor(2), divmod(7, 2))',
    'losses = [torch.tensor(1.), torch.tensor(2.5)]; print(sum(losses), sum(losses) / len(losses), max(losses), min(losses), sorted(losses))',
    'losses = [torch.tensor(1.), torch.tensor(2.5)]; print(torch.tensor(losses), torch.stack(losses).mean(), np.mean([l.item() for l in losses]), np.array(losses))',
    'x = torch.tensor([1, 3, 2]); print(max(x), list(x), [int(v) for v in x], x.tolist(), tuple(x.shape), len(x), 3 in x, 5 in x)',
    'x = torch.tensor([[1, 2], [3, 4]]); print(list(x), [r.sum().item() for r in x], x.numpy().tolist(), np.asarray(x).dtype)',
    'x = torch.ones(2, 3)\ntry:\n    int(x)\nexcept (RuntimeError, TypeError, ValueError) as e: print(type(e).__name__, e)',
    'x = torch.ones(2)\ntry:\n    if x > 0: print("yes")\nexcept RuntimeError as e: print(e)',
    'x = torch.tensor([2.])\nif x > 1: print("greater", x > 1, bool(x > 1))',
    'print(torch.tensor(1.) == 1, torch.tensor(1.) == 1.0, 1 == torch.tensor(1), torch.tensor([1, 2]) == torch.tensor([1, 3]), torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2])))',
    'd = {torch.tensor(1).item(): "a"}; t = torch.tensor(1); print(d[t.item()], hash(t) == hash(t), t in {t}, torch.tensor(1) in {t})',
    'print(torch.tensor(7) // 2, torch.tensor(7) % 3, torch.tensor(-7) // 2, torch.tensor(-7) % 3, torch.tensor(7.5) // 2, 2 ** torch.tensor([1, 2]), torch.tensor([2., 3.]) ** -1)',
    'correct = 0; pred = torch.tensor([1, 0, 2]); y = torch.tensor([1, 1, 2]); correct += (pred == y).type(torch.float).sum().item(); print(correct, type(correct).__name__, (pred == y).sum(), (pred == y).float().mean().item())',
    'running_corrects = 0; running_corrects += torch.sum(torch.tensor([1, 0, 1]) == torch.tensor([1, 1, 1])); print(running_corrects, running_corrects.double() / 3, running_corrects / 3, (running_corrects.double() / 3).item())',
    'running_loss = 0.0; running_loss += torch.tensor(0.5).item() * 4; print(running_loss / 8, f"{running_loss / 8:.4f}")',
    'acc = torch.tensor(0.8333333); print(f"Acc: {acc:.4f}", f"{100 * acc:>0.1f}%", f"{acc.item():.2%}")',
]

# Modules, parameters and printing as the recipes use them (DataParallel on the CPU, printing
# options, Sequential's editing methods).
MODULE_RECIPES = [
    'm = nn.DataParallel(nn.Linear(2, 2)); print(m); print(list(m.state_dict())); print(list(m.module.state_dict())); print(m(torch.ones(1, 2)).shape)',
    'm = nn.DataParallel(nn.Linear(2, 2)); sd = m.state_dict(); torch.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd, "module."); print(list(sd), type(sd).__name__)',
    'torch.set_printoptions(sci_mode=False); print(torch.tensor([1e-5, 1e5])); torch.set_printoptions(sci_mode=None); print(torch.tensor([1e-5, 1e5]))',
    'torch.set_printoptions(linewidth=40); print(torch.arange(20.)); torch.set_printoptions(profile="default"); print(torch.arange(20.))',
    'torch.set_printoptions(threshold=5, edgeitems=1); print(torch.arange(10)); torch.set_printoptions(profile="default")',
    'with torch.autograd.set_detect_anomaly(True):\n    x = torch.tensor([-1.], requires_grad=True)\n    y = x.sqrt()\n    try:\n        y.backward()\n    except RuntimeError as e: print(str(e)[:200])',
    'x = torch.tensor([0.], requires_grad=True); y = (x.sqrt() * 0).sum(); y.backward(); print(x.grad)',
    'x = torch.tensor([1., 2.], requires_grad=True)\nwith torch.autograd.profiler.record_function("fwd"):\n    y = x * 2\nprint(y)',
    'print(torch.nn.utils.parameters_to_vector(nn.Linear(2, 1).parameters()))',
    'm = nn.Linear(3, 2); print(m.weight.T.shape, m.weight.t().is_contiguous(), m.weight.data_ptr() == m.weight.detach().data_ptr())',
    'print(torch.ones(2, 3).new_zeros(2), torch.ones(2, dtype=torch.int8).new_full((3,), 4), torch.zeros(1).new_tensor([1, 2]), torch.zeros(1).new_empty(0).shape)',
    'print(nn.Linear(2, 3).weight.grad, nn.Linear(2, 3).bias.requires_grad, nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(2), requires_grad=False))',
    'p = nn.Parameter(torch.ones(2)); print(p * 2, (p * 2).__class__.__name__, p.data.__class__.__name__, p.detach().__class__.__name__, p.clone().__class__.__name__)',
    'class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = torch.ones(2)\n        self.p = nn.Parameter(torch.ones(2))\nm = M(); print(list(m.state_dict()), [n for n, _ in m.named_parameters()], m)',
    'm = nn.Linear(2, 2); m.weight = nn.Parameter(torch.zeros(2, 2)); print(m.weight)\ntry:\n    m.weight = torch.zeros(2, 2)\nexcept TypeError as e: print(e)',
    'm = nn.Sequential(nn.Linear(2, 2), nn.ReLU()); print(m[0], m[-1], len(m), m[:1], list(m.children())[1], [type(x).__name__ for x in m.modules()])',
    'm = nn.Sequential(nn.Linear(2, 2))\ntry:\n    m[3]\nexcept IndexError as e: print(e)',
    'm = nn.Sequential(); m.append(nn.Linear(2, 2)); m.add_module("act", nn.ReLU()); print(m); m.insert(1, nn.Dropout()); print(m)',
    'print(torch.nn.functional.one_hot(torch.tensor([0, 2]), num_classes=3), torch.nn.functional.one_hot(torch.arange(3) % 2))',
    'print(torch.nn.functional.pad(torch.ones(1, 2), (1, 2)), torch.nn.functional.normalize(torch.tensor([[3., 4.]])), torch.nn.functional.softmax(torch.tensor([1., 2.]), dim=0))',
    'm = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Tanh()); m.insert(1, nn.Dropout()); print(m); m.insert(-1, nn.Sigmoid()); print(m); m.insert(5, nn.ELU()); print(m, list(m.state_dict()))',
    'import collections\nm = nn.Sequential(collections.OrderedDict(a=nn.ReLU(), b=nn.Tanh())); m.insert(2, nn.ELU()); print(m)',
    'm = nn.Sequential(nn.ReLU())\ntry:\n    m.insert(3, nn.ReLU())\nexcept IndexError as e: print(e)',
    'm = nn.Sequential(nn.ReLU()); m.insert(0, nn.Tanh()); print(m, m(torch.tensor([-1.])))',
]

# The "Extending PyTorch" note: custom Functions with setup_context, a custom Module,
# Tensor subclasses and tensor-likes with __torch_function__.
EXTENDING = [
    r"""
class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
linear = LinearFunction.apply
input = (torch.randn(20, 20, dtype=torch.double, requires_grad=True), torch.randn(30, 20, dtype=torch.double, requires_grad=True))
test = torch.autograd.gradcheck(linear, input + (None,), eps=1e-6, atol=1e-4)
print(test)
class MyLinear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)
    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)
    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(self.input_features, self.output_features, self.bias is not None)
m = MyLinear(3, 2)
print(m)
y = m(torch.ones(4, 3)); y.sum().backward(); print(y.grad_fn.name(), m.weight.grad, m.bias.grad)
""",
    r"""
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
x = torch.ones(3, requires_grad=True)
y = MulConstant.apply(x, 5.0)
y.sum().backward()
print(x.grad, type(y.grad_fn).__name__)
""",
    r"""
class MyCube(torch.autograd.Function):
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
        result = grad_output * dx + grad_dx * 6 * x
        return result
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result
x = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.grad(my_cube(x).sum(), x, create_graph=True))
print(torch.func.grad(lambda x: my_cube(x).sum())(torch.tensor([1., 2.])))
""",
    r"""
class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is not torch.Tensor.__repr__:
            print(f"func: {func.__name__}")
        if kwargs is None:
            kwargs = {}
        return super().__torch_function__(func, types, args, kwargs)
t = torch.tensor([1., 2.]).as_subclass(LoggingTensor)
u = t + 1
print(type(u).__name__)
v = torch.exp(t)
w = t.sum()
""",
    r"""
class MetadataTensor(object):
    def __init__(self, data, metadata=None, **kwargs):
        self._t = torch.as_tensor(data, **kwargs)
        self._metadata = metadata
    def __repr__(self):
        return "Metadata:\n{}\n\ndata:\n{}".format(self._metadata, self._t)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        metadatas = tuple(a._metadata for a in args if hasattr(a, '_metadata'))
        args = [getattr(a, '_t', a) for a in args]
        assert len(metadatas) > 0
        ret = func(*args, **kwargs)
        return MetadataTensor(ret, metadata=metadatas[0])
metadata = {'owner': 'Ministry of Silly Walks'}
m = MetadataTensor([[1, 2], [3, 4]], metadata=metadata)
t = torch.tensor([[1, 2], [1, 2]])
print(torch.add(t, m))
print(torch.mul(t, m)._metadata)
""",
]

# Data utilities, initialisation and schedules as the tutorials set them up.
DATA_AND_SCHEDULES = [
    'ds = torch.utils.data.TensorDataset(torch.arange(10.)); a, b = torch.utils.data.random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42)); print(len(a), len(b), a.indices, type(a).__name__)',
    'ds = torch.utils.data.TensorDataset(torch.arange(10.)); sub = torch.utils.data.Subset(ds, [1, 3]); print(len(sub), sub[1], list(torch.utils.data.DataLoader(sub, batch_size=2)))',
    's = torch.utils.data.WeightedRandomSampler([0.1, 0.9, 0.4], num_samples=5, replacement=True); print(list(s))',
    'dl = torch.utils.data.DataLoader(range(10), batch_size=4, sampler=torch.utils.data.SubsetRandomSampler([1, 5, 7])); print(list(dl))',
    'print(F.interpolate(torch.arange(4.).view(1, 1, 2, 2), scale_factor=2, mode="nearest"))',
    'print(F.interpolate(torch.arange(4.).view(1, 1, 2, 2), size=(3, 3), mode="bilinear", align_corners=False))',
    'ds = torch.utils.data.ConcatDataset([torch.utils.data.TensorDataset(torch.arange(3.)), torch.utils.data.TensorDataset(torch.arange(2.))]); print(len(ds), ds[4], ds.cumulative_sizes)',
    'class It(torch.utils.data.IterableDataset):\n    def __iter__(self):\n        return iter(range(5))\nprint(list(torch.utils.data.DataLoader(It(), batch_size=2)))',
    'dl = torch.utils.data.DataLoader(torch.arange(6), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(1)); print([b.tolist() for b in dl], [b.tolist() for b in dl])',
    'print(torch.utils.data.default_collate([(1, 2.0), (3, 4.0)]), torch.utils.data.default_collate([{"a": np.array([1])}, {"a": np.array([2])}]))',
    'x = torch.randn(3, 4); print(x.max(dim=1), x.argmax(), x.topk(2, dim=1).indices, x.sort(dim=0).values[0])',
    'print(torch.randn(2, 3).softmax(-1).sum(-1), torch.randint(0, 5, (2, 3)), torch.randperm(6), torch.normal(0., 1., (2,)))',
    'm = nn.Linear(4, 2); torch.nn.init.xavier_normal_(m.weight); torch.nn.init.zeros_(m.bias); print(m.weight, m.bias)',
    'm = nn.Conv2d(2, 3, 3); nn.init.kaiming_uniform_(m.weight, a=0, mode="fan_in", nonlinearity="relu"); print(m.weight.std() > 0, nn.init.calculate_gain("leaky_relu", 0.2))',
    'opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4); print(opt)',
    'sch = torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1), patience=1, factor=0.5)\nfor l in [1, 1, 1, 1, 1]:\n    sch.step(l)\nprint(sch.get_last_lr(), sch.num_bad_epochs)',
    'sch = torch.optim.lr_scheduler.CosineAnnealingLR(torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1), T_max=4)\nlrs = []\nfor _ in range(5):\n    sch.optimizer.step(); sch.step(); lrs.append(round(sch.get_last_lr()[0], 6))\nprint(lrs)',
    'sch = torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1), max_lr=1.0, total_steps=6)\nlrs = []\nfor _ in range(6):\n    sch.optimizer.step(); sch.step(); lrs.append(round(sch.get_last_lr()[0], 5))\nprint(lrs)',
]

SNIPPETS = [SETUP + s for s in (BASICS_TENSORS + BASICS_DATA + BASICS_MODEL + BASICS_AUTOGRAD
                                + BASICS_OPTIM + BLITZ + NN_REALLY
                                + EXAMPLES + RECIPES + DEFINE_NET + TENSOR_BASICS
                                + BROADCASTING + AUTOGRAD_NOTES + NOTES + CHAR_RNN
                                + SEQ2SEQ + DCGAN + TRANSFER + CLASSIFIER + MISTAKES
                                + MORE_TUTORIALS + FORMATTING
                                + MODULE_RECIPES + EXTENDING
                                + DATA_AND_SCHEDULES)]

BUGS = [
    ("ember's classes carry ember's module name: a custom Function's backward node prints as "
     "<ember.autograd.function.NameBackward object>, torch's as <torch.autograd.function...>",
     SETUP + 'class P3(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x): return x * 2\n    @staticmethod\n    def backward(ctx, g): return g * 2\nprint(P3.apply(torch.ones(1, requires_grad=True)).grad_fn)'),
    ("ember's classes carry ember's module name: type(t) prints <class 'ember.Tensor'>",
     SETUP + 'x = torch.empty(3, 4); print(type(x))'),
]

# a batched matmul records torch's composition (NOTE [ matmul's graph ])
SNIPPETS += [SETUP + 'x = torch.randn(2, 3, 4, requires_grad=True); y = x @ torch.randn(4, 5); print(y.grad_fn, y.grad_fn.next_functions)']

# The Extending PyTorch note's ScalarTensor, and torch.overrides' tables (NOTE [ Tensor-likes ]).
SNIPPETS += [
    SETUP + r"""
import gc
gc.collect()
class ScalarTensor(object):
    def __init__(self, N, value):
        self._N = N
        self._value = value
    def __repr__(self):
        return "ScalarTensor(N={}, value={})".format(self._N, self._value)
    def tensor(self):
        return self._value * torch.eye(self._N)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(issubclass(t, (torch.Tensor, ScalarTensor)) for t in types):
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)
HANDLED_FUNCTIONS = {}
import functools
def implements(torch_function):
    def decorator(func):
        functools.update_wrapper(func, torch_function)
        HANDLED_FUNCTIONS[torch_function] = func
        return func
    return decorator
@implements(torch.mean)
def mean(input):
    return float(input._value) / input._N
d = ScalarTensor(5, 2)
print(d)
print(d.tensor())
print(torch.mean(d))
try:
    torch.add(d, 1)
except TypeError as e:
    print(str(e)[:100])
@implements(torch.add)
def add(input, other):
    try:
        if input._N == other._N:
            return ScalarTensor(input._N, input._value + other._value)
        else:
            raise ValueError("Shape mismatch!")
    except AttributeError:
        return torch.add(input.tensor(), other)
s = ScalarTensor(2, 2)
print(torch.add(s, s))
t = torch.tensor([[1, 1,], [1, 1]])
print(torch.add(s, t))
print(mean.__name__, mean.__doc__ == torch.mean.__doc__)
""",
    SETUP + 'print(torch.overrides.has_torch_function((torch.ones(1),)), torch.overrides.is_tensor_like(torch.ones(1)))\nprint(len(torch.overrides.get_ignored_functions()) > 10, torch.add in torch.overrides.get_overridable_functions()[torch])',
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=300)
