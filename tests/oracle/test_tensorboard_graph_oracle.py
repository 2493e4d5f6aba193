"""SummaryWriter.add_graph against real torch: the GraphDef ember writes and the one torch's
writer builds (torch.utils.tensorboard's `_pytorch_graph.graph`) for the same models have
the same inputs, operators, module scopes, edges between operators and output shapes, once
the documented differences (NOTE [ A trace as a TensorBoard graph ]) are set aside. torch's
module needs the `tensorboard` package only for its protobuf classes: where it is missing,
tensorboardX's (the same messages) stand in for them. Skipped without torch or tensorboardX."""
import importlib
import os
import re
import sys
import types
import warnings

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tensorboardX")

import ember  # noqa: E402
from ember.utils.tensorboard import _graph  # noqa: E402

pytestmark = pytest.mark.oracle

# torch's operators that ember records under the public function's name
_SAME_OP = {"aten::_convolution": "aten::conv2d"}
# the nodes of torch's size plumbing (a size as a tensor and back), which ember has not
_PLUMBING = {"prim::NumToTensor", "aten::Int"}


@pytest.fixture(scope="module")
def torch_graph():
    """torch's `_pytorch_graph.graph`, imported without running torch.utils.tensorboard's
    __init__ (which needs TensorBoard itself); the modules added are removed after."""
    before = set(sys.modules)
    try:
        import tensorboard  # noqa: F401
    except ImportError:
        from tensorboardX.proto import (attr_value_pb2, graph_pb2, node_def_pb2,
                                        tensor_shape_pb2, versions_pb2)

        class Message:          # (RunMetadata and its step stats: only built, never read)
            def __init__(self, **fields):
                self.fields = fields
        protos = dict(graph_pb2=graph_pb2, node_def_pb2=node_def_pb2,
                      attr_value_pb2=attr_value_pb2, tensor_shape_pb2=tensor_shape_pb2,
                      versions_pb2=versions_pb2,
                      config_pb2=types.SimpleNamespace(RunMetadata=Message),
                      step_stats_pb2=types.SimpleNamespace(StepStats=Message,
                                                           DeviceStepStats=Message))
        for name in ("tensorboard", "tensorboard.compat", "tensorboard.compat.proto"):
            sys.modules[name] = types.ModuleType(name)
        for name, module in protos.items():
            sys.modules[f"tensorboard.compat.proto.{name}"] = module
    import torch.utils
    package = types.ModuleType("torch.utils.tensorboard")
    package.__path__ = [os.path.join(os.path.dirname(torch.utils.__file__), "tensorboard")]
    sys.modules["torch.utils.tensorboard"] = package
    try:
        yield importlib.import_module("torch.utils.tensorboard._pytorch_graph").graph
    finally:
        for name in set(sys.modules) - before:
            del sys.modules[name]


def _models(lib):
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 2, 3)
            self.fc = nn.Linear(8, 3)
            self.seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU())

        def forward(self, x):
            x = F.relu(self.conv1(x))
            x = x.view(x.size(0), -1)
            return self.seq(self.fc(x)) * 2

    class Pair(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.block = nn.Sequential(nn.Tanh(), nn.Sequential(nn.Linear(2, 5)))

        def forward(self, x, y):
            a, b = self.lin(x).chunk(2, 1)
            return self.block(a + y), b

    return {"net": (Net(), (lib.randn(1, 1, 4, 4),)),
            "pair": (Pair(), (lib.randn(3, 4), lib.randn(3, 2))),
            "mlp": (nn.Sequential(nn.Linear(2, 4), nn.Sigmoid()), (lib.randn(6, 2),))}


def _summary(graph):
    """What both graphs share: the inputs' names and shapes, then each operator's (scope,
    op, shapes, the inputs and operators feeding it, by position), the parameters read (scope,
    name), and the output's feeding operators."""
    nodes = {n.name: n for n in graph.node}

    def shapes(node):
        if "_output_shapes" not in node.attr:
            return None
        return [[d.size for d in s.dim] for s in node.attr["_output_shapes"].list.shape]
    ops = [n for n in graph.node if n.op.startswith("aten::") and n.op not in _PLUMBING]
    inputs = [n for n in graph.node if n.name.startswith("input/")]
    position = {n.name: f"op{i}" for i, n in enumerate(ops)}
    position.update({n.name: re.sub(r"\.\d+$", "", n.name) for n in inputs})

    def feeding(name, seen):
        if name in position:
            return [position[name]]
        if name in seen or name not in nodes:
            return []
        seen.add(name)
        return [f for i in nodes[name].input for f in feeding(i, seen)]
    return ([(position[n.name], shapes(n)) for n in inputs],
            [(n.name.rsplit("/", 1)[0], _SAME_OP.get(n.op, n.op), shapes(n),
              [f for i in n.input for f in feeding(i, set())]) for n in ops],
            sorted(n.name.rsplit("/", 1)[0] for n in graph.node if n.op == "prim::GetAttr"),
            feeding("output/output.1", set()))


@pytest.mark.parametrize("name", ["net", "pair", "mlp"])
def test_add_graph_matches_torch(torch_graph, name):
    torch.manual_seed(0)
    model, args = _models(torch)[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected, _ = torch_graph(model, args)
        mine, mine_args = _models(ember)[name]
        traced = ember.jit.trace(mine.eval(), mine_args)
    got = _graph.graph_def(traced, type(mine).__name__, mine_args)
    assert _summary(got) == _summary(expected)
    assert got.versions.producer == expected.versions.producer
