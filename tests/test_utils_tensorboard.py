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


def test_add_graph_is_not_supported(tmp_path):
    with SummaryWriter(str(tmp_path)) as w:
        with pytest.raises(NotImplementedError, match="ember cannot trace"):
            w.add_graph(ember.nn.Linear(2, 2), ember.ones(1, 2))
