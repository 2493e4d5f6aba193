"""ember.utils.tensorboard: torch.utils.tensorboard's `SummaryWriter`, for ember tensors.

The event files are written by the tensorboardX package (the `tensorboard` extra:
`pip install 'ember[tensorboard]'`); this module gives it torch's API: torch's argument names,
directory layout (`add_scalars`, `add_hparams`), and ember tensors wherever torch accepts
tensors (moved to the CPU as NumPy arrays, single values as Python numbers). `add_graph`
draws ember.jit's trace of a model (`_graph`).
"""
import contextlib
import os
import time

try:
    import tensorboardX as _tbx
    from tensorboardX import summary as _summary
except ImportError as error:
    raise ImportError(
        "ember.utils.tensorboard writes TensorBoard logs with the tensorboardX package, which "
        "could not be imported. Install it with: pip install 'ember[tensorboard]' "
        "(or: pip install tensorboardX)") from error

from ._convert import as_numpy, as_scalar

__all__ = ["SummaryWriter"]


class SummaryWriter:
    """Writes TensorBoard event files into `log_dir` (default `runs/<date>_<host><comment>`),
    as torch.utils.tensorboard.SummaryWriter does: events are queued (`max_queue`) and
    written every `flush_secs` seconds, on `flush()` and on `close()`; `purge_step` hides
    the events of an earlier crashed run from that step on."""

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10,
                 flush_secs=120, filename_suffix=""):
        if not log_dir:
            import socket
            from datetime import datetime
            current_time = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", current_time + "_" + socket.gethostname() + comment)
        self.log_dir = log_dir
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self._writer = _tbx.SummaryWriter(logdir=log_dir, purge_step=purge_step,
                                          max_queue=max_queue, flush_secs=flush_secs,
                                          filename_suffix=filename_suffix)
        self._scalars_writers = {}

    def get_logdir(self):
        """The directory the event files are written to."""
        return self.log_dir

    def _file_writer(self):
        return self._writer._get_file_writer()

    # -- scalars --------------------------------------------------------------------------

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False):
        """One value of the curve `tag` (a number, or a one-element tensor or array).
        `new_style` stores it as a tensor (float32, or float64 with `double_precision`)."""
        value = as_scalar(scalar_value)
        if not new_style:
            self._writer.add_scalar(tag, value, global_step, walltime)
            return
        self._file_writer().add_summary(_tensor_scalar(tag, value, double_precision),
                                        global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        """Several curves on one chart: as in torch, each value goes, under the tag
        `main_tag`, into its own run directory `<log_dir>/<main_tag>_<tag>` ("/" in main_tag
        becoming "_")."""
        walltime = time.time() if walltime is None else walltime
        logdir = self._file_writer().get_logdir()
        for tag, scalar_value in tag_scalar_dict.items():
            fw_tag = logdir + "/" + main_tag.replace("/", "_") + "_" + tag
            writer = self._scalars_writers.get(fw_tag)
            if writer is None:
                writer = _tbx.FileWriter(fw_tag, self.max_queue, self.flush_secs,
                                         self.filename_suffix)
                self._scalars_writers[fw_tag] = writer
            writer.add_summary(_summary.scalar(main_tag, as_scalar(scalar_value)),
                               global_step, walltime)

    def add_hparams(self, hparam_dict, metric_dict, hparam_domain_discrete=None,
                    run_name=None, global_step=None):
        """Hyperparameters and their metrics for TensorBoard's HPARAMS tab, written (as in
        torch) into the run directory `<log_dir>/<run_name>` (default: the current time);
        `hparam_domain_discrete` lists the values each hyperparameter can take."""
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        hparam_dict = {k: as_scalar(v) for k, v in hparam_dict.items()}
        metric_dict = {k: as_scalar(v) for k, v in metric_dict.items()}
        _check_domains(hparam_dict, hparam_domain_discrete)
        exp, ssi, sei = _summary.hparams(hparam_dict, metric_dict)
        if hparam_domain_discrete:
            exp = _with_domains(exp, hparam_domain_discrete)
        if not run_name:
            run_name = str(time.time())
        logdir = os.path.join(self._file_writer().get_logdir(), run_name)
        with SummaryWriter(log_dir=logdir) as w_hp:
            for summary in (exp, ssi, sei):
                w_hp._file_writer().add_summary(summary, global_step)
            for k, v in metric_dict.items():
                w_hp.add_scalar(k, v, global_step)

    # -- distributions, images, media -----------------------------------------------------

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None,
                      max_bins=None):
        """A histogram of `values`; `bins` as for np.histogram, or "tensorflow"."""
        self._writer.add_histogram(tag, as_numpy(values), global_step, as_numpy(bins),
                                   walltime, max_bins)

    def add_histogram_raw(self, tag, min, max, num, sum, sum_squares, bucket_limits,
                          bucket_counts, global_step=None, walltime=None):
        """A histogram from precomputed statistics and buckets."""
        self._writer.add_histogram_raw(
            tag, as_scalar(min), as_scalar(max), as_scalar(num), as_scalar(sum),
            as_scalar(sum_squares), as_numpy(bucket_limits), as_numpy(bucket_counts),
            global_step, walltime)

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW"):
        """One image (float in [0, 1] or uint8 in [0, 255]), laid out as `dataformats`."""
        self._writer.add_image(tag, as_numpy(img_tensor), global_step, walltime, dataformats)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None,
                   dataformats="NCHW"):
        """A batch of images, shown as one grid."""
        self._writer.add_images(tag, as_numpy(img_tensor), global_step, walltime, dataformats)

    def add_image_with_boxes(self, tag, img_tensor, box_tensor, global_step=None,
                             walltime=None, rescale=1, dataformats="CHW", labels=None):
        """An image with boxes (rows of x_min, y_min, x_max, y_max) drawn on it."""
        self._writer.add_image_with_boxes(tag, as_numpy(img_tensor), as_numpy(box_tensor),
                                          global_step, walltime, dataformats, labels,
                                          rescale=rescale)

    def add_figure(self, tag, figure, global_step=None, close=True, walltime=None):
        """A matplotlib figure (or a list of them), rendered to an image."""
        self._writer.add_figure(tag, figure, global_step, close, walltime)

    def add_video(self, tag, vid_tensor, global_step=None, fps=4, walltime=None):
        """A video from an (N, T, C, H, W) tensor (needs moviepy, as in torch)."""
        self._writer.add_video(tag, as_numpy(vid_tensor), global_step, fps, walltime)

    def add_audio(self, tag, snd_tensor, global_step=None, sample_rate=44100, walltime=None):
        """A sound clip from a (1, L) tensor of values in [-1, 1]."""
        self._writer.add_audio(tag, as_numpy(snd_tensor), global_step, sample_rate, walltime)

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        """Text (markdown) shown in the TEXT tab."""
        self._writer.add_text(tag, text_string, global_step, walltime)

    def add_embedding(self, mat, metadata=None, label_img=None, global_step=None,
                      tag="default", metadata_header=None):
        """Points (the rows of `mat`) for the projector, with optional labels (`metadata`)
        and thumbnails (`label_img`, N x C x H x W); each label is written as str(label)."""
        self._writer.add_embedding(as_numpy(mat), metadata,
                                   as_numpy(label_img), global_step, tag, metadata_header)

    def add_pr_curve(self, tag, labels, predictions, global_step=None, num_thresholds=127,
                     weights=None, walltime=None):
        """A precision-recall curve of `predictions` (probabilities) against 0/1 `labels`."""
        self._writer.add_pr_curve(tag, as_numpy(labels), as_numpy(predictions), global_step,
                                  num_thresholds, as_numpy(weights), walltime)

    def add_pr_curve_raw(self, tag, true_positive_counts, false_positive_counts,
                         true_negative_counts, false_negative_counts, precision, recall,
                         global_step=None, num_thresholds=127, weights=None, walltime=None):
        """A precision-recall curve from precomputed counts."""
        self._writer.add_pr_curve_raw(
            tag, as_numpy(true_positive_counts), as_numpy(false_positive_counts),
            as_numpy(true_negative_counts), as_numpy(false_negative_counts),
            as_numpy(precision), as_numpy(recall), global_step, num_thresholds,
            as_numpy(weights), walltime)

    def add_mesh(self, tag, vertices, colors=None, faces=None, config_dict=None,
                 global_step=None, walltime=None):
        """A 3D point cloud or mesh."""
        self._writer.add_mesh(tag, as_numpy(vertices), as_numpy(colors), as_numpy(faces),
                              config_dict, global_step, walltime)

    def add_custom_scalars(self, layout):
        """A custom scalars layout: {category: {chart: ["Multiline" or "Margin", tags]}}."""
        self._writer.add_custom_scalars(layout)

    def add_custom_scalars_multilinechart(self, tags, category="default", title="untitled"):
        """A custom-scalars chart of several tags."""
        self._writer.add_custom_scalars_multilinechart(tags, category, title)

    def add_custom_scalars_marginchart(self, tags, category="default", title="untitled"):
        """A custom-scalars chart of a value and its lower and upper bounds."""
        self._writer.add_custom_scalars_marginchart(tags, category, title)

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True):
        """The graph of `model` (a module) for TensorBoard's GRAPHS tab, as torch draws it:
        `ember.jit.trace(model, input_to_model, strict=use_strict_trace)` run in eval mode,
        its record inlined into TensorBoard's GraphDef (NOTE [ A trace as a TensorBoard
        graph ] in `_graph`); `verbose` prints the traced graph. A RuntimeError of the trace
        is printed with "Error occurs, No graph saved" and raised, as in torch."""
        from ... import jit
        from ...jit._trace import _arguments
        from ._graph import class_name, graph_def, run_metadata
        from tensorboardX.proto.event_pb2 import Event, TaggedRunMetadata
        with _eval_mode(model):
            try:
                traced = jit.trace(model, input_to_model, strict=use_strict_trace)
            except RuntimeError as e:
                print(e)
                print("Error occurs, No graph saved")
                raise e
            if verbose:
                print(traced.graph)
            args, _ = _arguments(input_to_model, False)     # (as trace reads it)
            graph = graph_def(traced, class_name(model), args)
        writer = self._file_writer()
        writer.add_event(Event(graph_def=graph.SerializeToString()))
        writer.add_event(Event(tagged_run_metadata=TaggedRunMetadata(
            tag="step1", run_metadata=run_metadata())))

    # -- lifetime -------------------------------------------------------------------------

    def flush(self):
        """Write every pending event to disk before returning, as torch does."""
        writers = list((self._writer.all_writers or {}).values())
        for writer in writers + list(self._scalars_writers.values()):
            _drain(writer)
        self._writer.flush()
        for writer in self._scalars_writers.values():
            writer.flush()

    def close(self):
        """Flush and close the event files; a later add_* opens new ones, as in torch."""
        self._writer.close()
        for writer in self._scalars_writers.values():
            writer.close()
        self._scalars_writers = {}

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()


@contextlib.contextmanager
def _eval_mode(model):
    """`model` in eval mode inside (its mode restored after), as torch's add_graph traces it;
    a ScriptFunction has no mode."""
    from ...jit import ScriptFunction
    if isinstance(model, ScriptFunction):
        yield
        return
    training = model.training
    model.train(False)
    try:
        yield
    finally:
        model.train(training)


def _drain(file_writer):
    """Wait until the events queued in a tensorboardX FileWriter are written. Its flush()
    only flushes the file, while a worker thread may still hold queued events; torch's flush
    returns once they are on disk. Stopping the worker (it writes every event queued before
    its stop signal) and starting a fresh one gives that guarantee."""
    from tensorboardX.event_file_writer import _EventLoggerThread
    events = getattr(file_writer, "event_writer", None)
    worker = getattr(events, "_worker", None)
    if worker is None or getattr(events, "_closed", True):
        return
    worker.stop()
    events._worker = _EventLoggerThread(events._event_queue, events._ev_writer,
                                        events._flush_secs)
    events._worker.start()


def _tensor_scalar(tag, value, double_precision):
    """torch's new-style scalar: a one-value tensor for the "scalars" plugin."""
    from tensorboardX.proto.summary_pb2 import Summary, SummaryMetadata
    from tensorboardX.proto.tensor_pb2 import TensorProto
    value = float(value)
    if double_precision:
        proto = TensorProto(double_val=[value], dtype="DT_DOUBLE")
    else:
        proto = TensorProto(float_val=[value], dtype="DT_FLOAT")
    metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="scalars"))
    return Summary(value=[Summary.Value(tag=tag, tensor=proto, metadata=metadata)])


def _check_domains(hparam_dict, domains):
    """torch's checks of `hparam_domain_discrete`: a dict of lists whose values have the
    type of the hyperparameter."""
    if domains is None:
        return
    if not isinstance(domains, dict):
        raise TypeError("parameter: hparam_domain_discrete should be a dictionary, nothing "
                        "logged.")
    for k, v in domains.items():
        if (k not in hparam_dict or not isinstance(v, list)
                or not all(isinstance(d, type(hparam_dict[k])) for d in v)):
            raise TypeError(f"parameter: hparam_domain_discrete[{k}] should be a list of same "
                            f"type as hparam_dict[{k}].")


def _with_domains(exp, domains):
    """The experiment summary with each hyperparameter's discrete domain filled in."""
    from tensorboardX.proto.plugin_hparams_pb2 import HParamsPluginData
    plugin_data = exp.value[0].metadata.plugin_data
    content = HParamsPluginData.FromString(plugin_data.content)
    for info in content.experiment.hparam_infos:
        if info.name in domains:
            info.domain_discrete.extend(domains[info.name])
    plugin_data.content = content.SerializeToString()
    return exp
