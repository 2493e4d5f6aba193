"""torch.onnx.export: capture a model (an fx trace plus one run on the example inputs:
_trace.py), translate its nodes (_translate.py) and write the ONNX ModelProto.

NOTE [ One exporter for dynamo=True and dynamo=False ]
torch 2.13 has two exporters: the TorchScript one (`dynamo=False`) and the torch.export one
(the default). ember has one, which follows the TorchScript exporter's output: its opset (20),
node names ("/l/Gemm"), initializer names ("l.weight") and `dynamic_axes`. `dynamo=True` only
changes what comes back (an ONNXProgram rather than None) and lets `dynamic_shapes` name the
dynamic axes instead.
"""
import contextlib
import os

from ._constants import DEFAULT_OPSET, MAX_OPSET, MIN_OPSET, OperatorExportTypes, TrainingMode
from .errors import OnnxExporterError

__all__ = ["export", "is_in_onnx_export"]

_state = {"exporting": False}


def is_in_onnx_export():
    """Whether an ONNX export is running (true inside the model's forward while it is traced)."""
    return _state["exporting"]


def export(model, args=(), f=None, *, kwargs=None, verbose=None, input_names=None,
           output_names=None, opset_version=None, dynamo=True, external_data=True,
           dynamic_shapes=None, custom_translation_table=None, report=False, optimize=True,
           verify=False, profile=False, dump_exported_program=False, artifacts_dir=".",
           export_params=True, keep_initializers_as_inputs=False, dynamic_axes=None,
           training=TrainingMode.EVAL, operator_export_type=OperatorExportTypes.ONNX,
           do_constant_folding=True, custom_opsets=None, export_modules_as_functions=False,
           autograd_inlining=True):
    """Export `model` run on `args` as an ONNX model, written to `f` (a path or a binary
    file) when given. Returns an ONNXProgram when `dynamo` is true, else None.

        torch.onnx.export(model, (x,), "model.onnx", input_names=["x"],
                          output_names=["y"], dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})

    Needs the `onnx` package (ember's `onnx` extra). See NOTE [ One exporter for dynamo=True
    and dynamo=False ]; the ops it translates are those of _registry.py's table, and any other
    raises UnsupportedOperatorError naming it. `do_constant_folding` folds weights (a batch
    norm into the conv before it: _fold.py). Accepted and without effect (deprecated in
    torch 2.13, or options of its dynamo exporter's pipeline): operator_export_type, custom_opsets,
    export_modules_as_functions, autograd_inlining, external_data, report, optimize, verify,
    profile, dump_exported_program, artifacts_dir, custom_translation_table."""
    onnx = _import_onnx()
    opset = DEFAULT_OPSET if opset_version is None else opset_version
    _check_opset(opset)
    args, kwargs = _split_args(args, kwargs)
    if dynamo and dynamic_shapes is not None and dynamic_axes is None:
        dynamic_axes = _axes_of_dynamic_shapes(model, args, dynamic_shapes)
    from ._build import build_model      # (the translations load on the first export)
    with _exporting(), _training_mode(model, training):
        proto = build_model(onnx, model, args, kwargs, opset, input_names, output_names,
                            dynamic_axes or {}, export_params, keep_initializers_as_inputs,
                            do_constant_folding)
    if verbose:
        print(onnx.printer.to_text(proto))
    if f is not None:
        _write(proto, f)
    if dynamo:
        from ._onnx_program import ONNXProgram
        return ONNXProgram(proto)
    return None


def _import_onnx():
    try:
        import onnx
    except ImportError as e:
        raise OnnxExporterError("Module onnx is not installed!") from e
    return onnx


def _check_opset(opset):
    if not isinstance(opset, int) or opset > MAX_OPSET or opset < 7:
        raise RuntimeError(f"Unsupported onnx_opset_version: {opset}")
    if opset < MIN_OPSET:
        raise OnnxExporterError(f"ember exports ONNX opset versions {MIN_OPSET} to {MAX_OPSET}; "
                                f"opset_version={opset} is not supported")


def _split_args(args, kwargs):
    """`args` as a tuple, with a trailing dict taken as keyword arguments (torch's old form)."""
    from .._tensor import Tensor
    if isinstance(args, Tensor):
        args = (args,)
    args = tuple(args)
    kwargs = dict(kwargs or {})
    if args and isinstance(args[-1], dict):
        kwargs.update(args[-1])
        args = args[:-1]
    return args, kwargs


def _axes_of_dynamic_shapes(model, args, dynamic_shapes):
    """`dynamic_shapes` (by parameter name or position; each {axis: name or Dim} or a sequence
    with None for static axes) as dynamic_axes keyed by input name."""
    import inspect
    names = list(inspect.signature(model.forward).parameters)
    items = (dynamic_shapes.items() if isinstance(dynamic_shapes, dict)
             else zip(names, dynamic_shapes))
    axes = {}
    for name, spec in items:
        if spec is None:
            continue
        pairs = spec.items() if isinstance(spec, dict) else enumerate(spec)
        named = {int(a): (d if isinstance(d, str) else getattr(d, "__name__", f"{name}_dim_{a}"))
                 for a, d in pairs if d is not None}
        if named:
            axes[name] = named
    return axes


@contextlib.contextmanager
def _exporting():
    before = _state["exporting"]
    _state["exporting"] = True
    try:
        yield
    finally:
        _state["exporting"] = before


@contextlib.contextmanager
def _training_mode(model, training):
    """The model in the mode `training` asks for while it is exported, then as it was."""
    modes = {m: m.training for m in model.modules()}
    if training == TrainingMode.EVAL:
        model.train(False)
    elif training == TrainingMode.TRAINING:
        model.train(True)
    try:
        yield
    finally:
        for m, mode in modes.items():
            m.training = mode


def _write(proto, f):
    data = proto.SerializeToString()
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as out:
            out.write(data)
    else:
        f.write(data)
