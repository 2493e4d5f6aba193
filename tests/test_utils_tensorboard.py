"""ember.utils.tensorboard.SummaryWriter: events written through tensorboardX and read back.

Skipped when tensorboardX (the `tensorboard` extra) is not installed."""
import glob
import os
import struct

import numpy as np
import pytest

import ember

pytest.importorskip("tensorboardX")
from tensorboardX.proto.event_pb2 import Event  # noqa: E402
from tensorboardX.proto.plugin_hparams_pb2 import HParamsPluginData  # noqa: E402

from ember.utils.tensorboard import SummaryWriter  # noqa: E402


def read_events(directory):
    """Every Event of the event files directly in `directory` (TFRecord: a little-endian
    uint64 length, its 4-byte CRC, the record, the record's 4-byte CRC)."""
    events = []
    for path in sorted(glob.glob(os.path.join(directory, "events.out.tfevents.*"))):
        data = open(path, "rb").read()
        pos = 0
        while pos < len(data):
            (length,) = struct.unpack("<Q", data[pos:pos + 8])
            events.append(Event.FromString(data[pos + 12:pos + 12 + length]))
            pos += 12 + length + 4
    return events


def values(directory):
    """(tag, step, value) of each summary value, in order."""
    return [(v.tag, e.step, v) for e in read_events(directory) if e.HasField("summary")
            for v in e.summary.value]


def test_scalars_from_tensors_and_numbers(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        w.add_scalar("loss", ember.tensor(1.5), 3)
        w.add_scalar("loss", 0.25, 4)
        w.add_scalar("acc", ember.tensor([0.75], requires_grad=True) * 1, 4)
        assert w.log_dir == str(tmp_path) and w.get_logdir() == str(tmp_path)
    got = [(tag, step, v.simple_value) for tag, step, v in values(str(tmp_path))]
    assert got == [("loss", 3, 1.5), ("loss", 4, 0.25), ("acc", 4, 0.75)]


def test_new_style_scalar_is_a_tensor(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        w.add_scalar("x", ember.tensor(2.5, dtype=ember.float64), 1, new_style=True,
                     double_precision=True)
        w.add_scalar("y", 0.5, 2, new_style=True)
    (_, s1, x), (_, s2, y) = values(str(tmp_path))
    assert (s1, list(x.tensor.double_val), x.metadata.plugin_data.plugin_name) == \
        (1, [2.5], "scalars")
    assert (s2, list(y.tensor.float_val)) == (2, [0.5])


def test_a_many_valued_tensor_is_not_a_scalar(tmp_path):
    with SummaryWriter(str(tmp_path)) as w, pytest.raises(AssertionError):
        w.add_scalar("x", ember.ones(2), 0)


def test_add_scalars_writes_one_run_per_tag_as_torch(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        w.add_scalars("run/a", {"sin": ember.tensor(0.5), "cos": 2.0}, 7)
    for sub, value in (("run_a_sin", 0.5), ("run_a_cos", 2.0)):
        got = [(tag, step, v.simple_value) for tag, step, v in values(str(tmp_path / sub))]
        assert got == [("run/a", 7, value)]


def test_histogram_of_a_tensor(tmp_path):
    x = ember.tensor([0., 1., 1., 2., 5.])
    with SummaryWriter(str(tmp_path)) as w:
        w.add_histogram("h", x, 2, bins=4)
    ((tag, step, v),) = values(str(tmp_path))
    h = v.histo
    assert (tag, step, h.min, h.max, h.num, h.sum, h.sum_squares) == ("h", 2, 0., 5., 5, 9., 31.)
    counts, _ = np.histogram(x.numpy(), bins=4)
    assert sum(h.bucket) == counts.sum() and sorted(b for b in h.bucket if b) == \
        sorted(c for c in counts.tolist() if c)


def test_images_keep_their_size(tmp_path):
    pytest.importorskip("PIL")              # tensorboardX encodes images with Pillow, as torch's
    with SummaryWriter(str(tmp_path)) as w:
        w.add_image("one", ember.rand(3, 6, 5), 0)
        w.add_image("hwc", (ember.rand(4, 7, 3) * 255).to(ember.uint8), 1, dataformats="HWC")
        w.add_images("batch", ember.rand(2, 3, 4, 4), 2)
    got = {tag: (step, v.image.height, v.image.width, v.image.colorspace)
           for tag, step, v in values(str(tmp_path))}
    assert got["one"] == (0, 6, 5, 3) and got["hwc"] == (1, 4, 7, 3)
    step, height, width, _ = got["batch"]
    assert step == 2 and height == 4 and width == 8      # two images side by side


def test_text_and_figure(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure = plt.figure(figsize=(2, 1), dpi=50)
    with SummaryWriter(str(tmp_path)) as w:
        w.add_text("note", "hello *world*", 5)
        w.add_figure("fig", figure, 6)
    got = {tag: (step, v) for tag, step, v in values(str(tmp_path))}
    assert got["note/text_summary"][0] == 5 and got["note/text_summary"][1].tensor.string_val == [b"hello *world*"]
    assert got["fig"][0] == 6 and (got["fig"][1].image.width, got["fig"][1].image.height) == \
        (100, 50)


def test_hparams_run_directory_and_discrete_domain(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        w.add_hparams({"lr": 0.1, "opt": "sgd"}, {"acc": ember.tensor(0.5)},
                      hparam_domain_discrete={"opt": ["sgd", "adam"]}, run_name="trial",
                      global_step=3)
    found = values(str(tmp_path / "trial"))
    tags = [tag for tag, _, _ in found]
    assert tags == ["_hparams_/experiment", "_hparams_/session_start_info",
                    "_hparams_/session_end_info", "acc"]
    experiment = HParamsPluginData.FromString(found[0][2].metadata.plugin_data.content)
    infos = {i.name: i for i in experiment.experiment.hparam_infos}
    assert [x.string_value for x in infos["opt"].domain_discrete.values] == ["sgd", "adam"]
    start = HParamsPluginData.FromString(found[1][2].metadata.plugin_data.content)
    assert start.session_start_info.hparams["lr"].number_value == 0.1
    assert (found[3][1], found[3][2].simple_value) == (3, 0.5)
    with pytest.raises(TypeError, match=r"hparam_domain_discrete\[lr\] should be a list"):
        SummaryWriter(str(tmp_path)).add_hparams({"lr": 0.1}, {}, {"lr": [1]})


def test_embedding_files(tmp_path):
    mat = ember.arange(6.).reshape(3, 2)
    with SummaryWriter(str(tmp_path)) as w:
        w.add_embedding(mat, metadata=["a", "b", "c"], global_step=4, tag="pts")
    folder = tmp_path / "00004" / "pts"
    assert (folder / "metadata.tsv").read_text().split() == ["a", "b", "c"]
    rows = [[float(x) for x in line.split("\t")]
            for line in (folder / "tensors.tsv").read_text().strip().split("\n")]
    assert rows == mat.tolist()
    assert "pts" in (tmp_path / "projector_config.pbtxt").read_text()


def test_pr_curve_counts(tmp_path):
    labels = ember.tensor([0, 1, 1, 0])
    predictions = ember.tensor([0.1, 0.9, 0.6, 0.7])
    with SummaryWriter(str(tmp_path)) as w:
        w.add_pr_curve("pr", labels, predictions, 1, num_thresholds=3)
    ((tag, step, v),) = values(str(tmp_path))
    data = np.array(v.tensor.float_val).reshape(6, 3)
    # thresholds 0, 0.5, 1: true positives 2, 2, 0; false positives 2, 1, 0
    assert (tag, step) == ("pr", 1)
    assert data[0].tolist() == [2, 2, 0] and data[1].tolist() == [2, 1, 0]


def test_default_log_dir_has_the_comment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    w = SummaryWriter(comment="_lr0.1", filename_suffix=".x")
    w.close()
    assert w.log_dir.startswith("runs" + os.sep) and w.log_dir.endswith("_lr0.1")
    assert glob.glob(os.path.join(w.log_dir, "events.out.tfevents.*.x"))


def test_purge_step_and_reopening_after_close(tmp_path):
    w = SummaryWriter(str(tmp_path / "one"), purge_step=5, max_queue=1, flush_secs=1)
    w.add_scalar("a", 1.0, 5)
    w.close()
    events = read_events(str(tmp_path / "one"))
    assert any(e.session_log.status == e.session_log.START and e.step == 5 for e in events)
    assert [(t, s, v.simple_value) for t, s, v in values(str(tmp_path / "one"))] == \
        [("a", 5, 1.0)]
    w = SummaryWriter(str(tmp_path / "two"))
    w.close()
    w.add_scalar("b", 2.0, 6)      # a closed writer opens a new file, as in torch
    w.flush()
    assert ("b", 6, 2.0) in [(t, s, v.simple_value) for t, s, v in values(str(tmp_path / "two"))]
    w.close()


# -- add_graph ----------------------------------------------------------------------------

class Net(ember.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = ember.nn.Conv2d(1, 2, 3)
        self.fc = ember.nn.Linear(8, 3)
        self.seq = ember.nn.Sequential(ember.nn.Linear(3, 3), ember.nn.ReLU())

    def forward(self, x):
        x = ember.nn.functional.relu(self.conv1(x))
        x = x.view(x.size(0), -1)
        return self.seq(self.fc(x)) * 2


def graph_events(directory):
    """(the GraphDef, the run metadata's (tag, bytes)) written to `directory`."""
    from tensorboardX.proto.graph_pb2 import GraphDef
    events = read_events(directory)
    graphs = [GraphDef.FromString(e.graph_def) for e in events if e.HasField("graph_def")]
    metadata = [(e.tagged_run_metadata.tag, e.tagged_run_metadata.run_metadata)
                for e in events if e.HasField("tagged_run_metadata")]
    return graphs, metadata


def shapes(node):
    if "_output_shapes" not in node.attr:
        return None
    return [[d.size for d in s.dim] for s in node.attr["_output_shapes"].list.shape]


def fields(message):
    """The (field number, bytes) pairs of a protobuf message of length-delimited fields."""
    out, pos = [], 0
    while pos < len(message):
        key, length = message[pos], message[pos + 1]
        assert key & 7 == 2 and length < 128
        out.append((key >> 3, message[pos + 2:pos + 2 + length]))
        pos += 2 + length
    return out


def test_add_graph_writes_the_scoped_graph(tmp_path):
    model = Net()
    x = ember.randn(1, 1, 4, 4)
    with SummaryWriter(str(tmp_path)) as w:
        w.add_graph(model, x)
    (graph,), [(tag, run_metadata)] = graph_events(str(tmp_path))
    nodes = {n.name: n for n in graph.node}
    assert graph.versions.producer == 22 and len(nodes) == len(graph.node)
    ops = [(n.name.rsplit("/", 1)[0], n.op) for n in graph.node
           if n.op.startswith("aten::") or n.op == "IO Node"]
    assert ops == [("input", "IO Node"), ("Net/Conv2d[conv1]", "aten::conv2d"),
                   ("Net", "aten::relu"), ("Net", "aten::size"), ("Net", "aten::view"),
                   ("Net/Linear[fc]", "aten::linear"),
                   ("Net/Sequential[seq]/Linear[0]", "aten::linear"),
                   ("Net/Sequential[seq]/ReLU[1]", "aten::relu"), ("Net", "aten::mul"),
                   ("output", "IO Node")]
    by_op = {}
    for n in graph.node:
        by_op.setdefault(n.op, []).append(n)
    conv, = by_op["aten::conv2d"]
    assert conv.input[0] == "input/x" == by_op["IO Node"][0].name
    assert list(conv.input[1:3]) == ["Net/Conv2d[conv1]/weight/weight",
                                     "Net/Conv2d[conv1]/bias/bias"]
    assert nodes["Net/Conv2d[conv1]/weight/weight"].attr["attr"].s == b"{ name :  weight }"
    # each edge is an earlier node; the chain conv -> relu -> view -> fc -> seq -> mul -> out
    seen = set()
    for n in graph.node:
        assert all(i in seen for i in n.input), n.name
        seen.add(n.name)
    relu, relu2 = by_op["aten::relu"]
    view, = by_op["aten::view"]
    fc, lin0 = by_op["aten::linear"]
    mul, = by_op["aten::mul"]
    out = nodes["output/output.1"]
    assert relu.input[0] == conv.name and view.input[0] == relu.name
    assert fc.input[0] == view.name
    assert lin0.input[0] == fc.name and relu2.input[0] == lin0.name
    assert mul.input[0] == relu2.name and list(out.input) == [mul.name]
    assert nodes[mul.input[1]].op == "prim::Constant" and \
        nodes[mul.input[1]].attr["attr"].s == b"{ value : 2}"
    # shapes: the model's own intermediate results
    y1 = model.conv1(x)
    assert shapes(nodes["input/x"]) == [list(x.shape)]
    assert shapes(conv) == shapes(relu) == [list(y1.shape)]
    assert shapes(view) == [[1, int(np.prod(y1.shape[1:]))]] and shapes(out) == [[1, 3]]
    assert shapes(by_op["aten::size"][0]) is None
    # torch's RunMetadata: step_stats { dev_stats { device: "/device:CPU:0" } }
    assert tag == "step1"
    [(field, step_stats)] = fields(run_metadata)
    [(field2, dev_stats)] = fields(step_stats)
    assert (field, field2, fields(dev_stats)) == (1, 1, [(1, b"/device:CPU:0")])


class Pair(ember.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = ember.nn.Linear(4, 4)

    def forward(self, x, y):
        a, b = self.lin(x).chunk(2, 1)
        return a + y, b


def test_add_graph_tuple_inputs_and_outputs(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        w.add_graph(Pair(), (ember.randn(5, 4), ember.randn(5, 2)))
    (graph,), _ = graph_events(str(tmp_path))
    nodes = {n.name: n for n in graph.node}
    assert shapes(nodes["input/x"]) == [[5, 4]] and shapes(nodes["input/y"]) == [[5, 2]]
    chunk, = [n for n in graph.node if n.op == "aten::chunk"]
    unpacks = [n for n in graph.node if n.op == "prim::ListUnpack"]
    assert [list(n.input) for n in unpacks] == [[chunk.name]] * 2
    assert [shapes(n) for n in unpacks] == [[[5, 2]]] * 2
    add, = [n for n in graph.node if n.op == "aten::add"]
    assert list(add.input) == [unpacks[0].name, "input/y"]
    (out_input,) = nodes["output/output.1"].input
    assert nodes[out_input].op == "prim::TupleConstruct"
    assert list(nodes[out_input].input) == [add.name, unpacks[1].name]


class _ModeShows(ember.nn.Module):
    def forward(self, x):
        return x * 2 if self.training else x + 1


def test_add_graph_traces_in_eval_mode_and_prints(tmp_path, capsys):
    model = _ModeShows()
    with SummaryWriter(str(tmp_path)) as w:
        w.add_graph(model, ember.ones(3), verbose=True)
    assert model.training
    (graph,), _ = graph_events(str(tmp_path))
    assert [n.op for n in graph.node if n.op.startswith("aten::")] == ["aten::add"]
    printed = capsys.readouterr().out
    assert printed.startswith("graph(") and "aten::add" in printed


@pytest.mark.parametrize("example, error", [
    ((ember.ones(2, 3),), "mat1 and mat2 shapes cannot be multiplied"),
    ((), "example_kwarg_inputs should be a dict")])
def test_add_graph_failing_trace_saves_nothing(tmp_path, capsys, example, error):
    model = ember.nn.Linear(2, 2)
    with SummaryWriter(str(tmp_path)) as w:
        with pytest.raises(RuntimeError, match=error):
            w.add_graph(model, *example)
    printed = capsys.readouterr().out
    assert printed.startswith(error) and printed.endswith("\nError occurs, No graph saved\n")
    assert graph_events(str(tmp_path)) == ([], []) and model.training


def test_add_graph_takes_a_list_as_the_arguments(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        w.add_graph(ember.nn.Linear(2, 4), [ember.ones(3, 2)])
    (graph,), _ = graph_events(str(tmp_path))
    assert [(n.name, n.op, shapes(n)) for n in graph.node if n.op != "prim::GetAttr"] == [
        ("input/input", "IO Node", [[3, 2]]), ("Linear/1", "aten::linear", [[3, 4]]),
        ("output/output.1", "IO Node", [[3, 4]])]
