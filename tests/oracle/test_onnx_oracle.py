"""torch.onnx.export (the TorchScript exporter, dynamo=False) against real torch: the graphs
written for the same models, as node names, op types, wiring, initializer names, shapes with
their dynamic axes and opset, and the export errors. Skipped without torch or onnx."""
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

_SHOW = '''
import io, onnx, re
nn = torch.nn
F = torch.nn.functional
def show(model, args, **kwargs):
    f = io.BytesIO()
    torch.onnx.export(model, args, f, dynamo=False, **kwargs)
    p = onnx.load_from_string(f.getvalue())
    named = set(kwargs.get("input_names", [])) | set(kwargs.get("output_names", []))
    def dims(v):
        return [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]
    for v in p.graph.input:
        print("in", v.name if v.name in named else "?", v.type.tensor_type.elem_type, dims(v))
    for v in p.graph.output:
        print("out", v.name if v.name in named else "?", v.type.tensor_type.elem_type, dims(v))
    weights = {i.name for i in p.graph.initializer}
    def masked(name):          # (torch's helper constants and internal values are numbered)
        if name in named or name.startswith("/") or name == "":
            return name
        if name in weights:
            return "onnx::?" if name.startswith("onnx::") else name
        return "onnx::?" if name.startswith("onnx::") else "?"
    for n in p.graph.node:
        ins = [masked(i) for i in n.input]
        name = re.sub(r"^Constant_[0-9]+$", "Constant_?", n.name)
        print(name, n.op_type, ins, [a.name for a in n.attribute])
    print(sorted(masked(i) for i in weights), p.opset_import[0].version)
torch.manual_seed(0)
'''

SNIPPETS = [_SHOW + s for s in [
    # a Sequential MLP
    '''
mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3), nn.Softmax(dim=-1))
show(mlp, (torch.randn(2, 4),), input_names=["x"], output_names=["y"])
''',
    # a CNN reading its batch size, with a dynamic batch
    '''
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 4 * 4, 5)
    def forward(self, x):
        x = self.pool(torch.relu(self.conv(x)))
        return self.fc(x.view(x.size(0), -1))
show(CNN(), (torch.randn(2, 3, 8, 8),), input_names=["x"], output_names=["logits"],
     dynamic_axes={"x": {0: "batch"}, "logits": [0]})
''',
    # the same CNN with static sizes: the size is folded
    '''
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 8 * 8, 5)
    def forward(self, x):
        x = F.leaky_relu(self.conv(x), 0.2)
        return self.fc(x.view(x.size(0), -1))
show(CNN(), (torch.randn(2, 3, 8, 8),), input_names=["x"], output_names=["y"])
''',
    # nested modules name their nodes by scope; an embedding's Gather; a keepdim mean
    '''
class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.head = nn.Sequential(nn.Sequential(nn.Linear(4, 4), nn.Tanh()), nn.Linear(4, 2))
    def forward(self, ids):
        return self.head(self.emb(ids).mean(1))
show(Bag(), (torch.tensor([[1, 2, 3]]),), input_names=["ids"], output_names=["out"],
     dynamic_axes={"ids": {0: "batch", 1: "seq"}})
''',
    # opset versions and global pooling, flatten, sigmoid
    '''
m = nn.Sequential(nn.Conv2d(2, 3, 3), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Sigmoid())
for opset in (13, 17):
    show(m, (torch.randn(1, 2, 5, 5),), input_names=["x"], output_names=["y"],
         opset_version=opset)
''',
    # scope names: containers' indices, a leaf module called again ("relu_1"), a ModuleList
    '''
class B(nn.Module):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()
        self.seq = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU()))
    def forward(self, x):
        return self.relu(self.seq(self.relu(x)))
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.b = B()
        self.r = nn.ReLU()
        self.ml = nn.ModuleList([nn.Linear(2, 2)])
    def forward(self, x):
        return self.r(self.ml[0](self.b(self.r(self.b(x)))))
show(M(), (torch.randn(1, 2),), input_names=["x"], output_names=["y"])
''',
    # batch norms folded into the convs before them, a Linear on 3-D inputs (a transposed
    # weight), a residual block reusing its ReLU
    '''
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(4)
    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += x
        return self.relu(out)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        self.layer1 = nn.Sequential(Block(), Block())
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(4, 2)
        self.proj = nn.Linear(6, 3)
    def forward(self, x, y):
        x = self.pool(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(x, 1)), self.proj(y)
net = Net()
for m in net.modules():
    if isinstance(m, nn.BatchNorm2d):
        m.running_mean.uniform_(-1, 1)
        m.running_var.uniform_(0.5, 2)
        m.weight.data.uniform_(0.5, 2)
        m.bias.data.uniform_(-1, 1)
show(net.eval(), (torch.randn(1, 3, 8, 8), torch.randn(2, 5, 6)), input_names=["x", "y"],
     output_names=["a", "b"], dynamic_axes={"x": {0: "n"}, "a": {0: "n"}})
''',
    # LayerNorm, GELU (decomposed before opset 20), attention-like matmuls and softmax
    '''
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(8)
        self.ff = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))
    def forward(self, x):
        h = self.ln(x)
        att = torch.softmax(h @ h.transpose(-2, -1) / 4.0, dim=-1)
        return x + self.ff(att @ h)
for opset in (17, 20):
    show(Block(), (torch.randn(2, 5, 8),), input_names=["x"], output_names=["y"],
         opset_version=opset)
''',
    # export errors
    '''
lin = nn.Linear(3, 2)
show(lin, (torch.randn(1, 3),), input_names=["a", "b"])  # names beyond the inputs: weights
for kwargs in ({"input_names": ["a", "b", "c", "d"]}, {"opset_version": 30}):
    try:
        torch.onnx.export(lin, (torch.randn(1, 3),), io.BytesIO(), dynamo=False, **kwargs)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
print(torch.onnx.is_in_onnx_export(), torch.onnx.TrainingMode.EVAL)
''',
]]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS,
                                                                              at_least=9)
