"""Assembling the ModelProto: the graph's inputs (named, with their dynamic axes), the
translated nodes, the outputs (renamed as asked), the initializers, the opset and IR version.

Default names (torch's TorchScript exporter names values after its IR, so its defaults vary
from model to model): an input is named after the forward parameter it is given for (torch's
name too when the parameter is used as it is), an output by a number ("23"), as torch's are.
"""
import warnings

from ..fx.node import map_aggregate
from ._fold import fold_weights
from ._graph import GraphBuilder, Value
from ._trace import capture
from ._translate import is_leaf, translate
from .errors import OnnxExporterError

__all__ = ["build_model"]


def build_model(onnx, model, args, kwargs, opset, input_names, output_names, dynamic_axes,
                export_params, keep_initializers_as_inputs, do_constant_folding):
    """The checked ModelProto of `model` run on `args`/`kwargs` (see export's arguments)."""
    from .. import __version__
    gm, result = capture(model, args, kwargs, is_leaf)
    g = GraphBuilder(onnx, opset, dynamic=bool(dynamic_axes))
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    state_names = list(model.state_dict())
    inputs, graph_inputs = _inputs(g, placeholders, input_names, len(state_names))
    out = translate(gm, g, inputs)
    extra_names = list(input_names or [])[len(graph_inputs):]
    _rename_initializers(g, dict(zip(state_names, extra_names)))
    outputs = _outputs(g, out, output_names)
    if do_constant_folding and export_params and not keep_initializers_as_inputs:
        fold_weights(g, onnx, set(outputs))
    for name in dynamic_axes:
        if name not in graph_inputs and name not in outputs:
            warnings.warn(f"Provided key {name} for dynamic axes is not a valid input/output "
                          "name")
    helper = onnx.helper
    inits = [proto for proto, _ in g.initializers.values()]
    in_infos = [_info(helper, name, v.example, dynamic_axes.get(name)) for name, v in
                graph_inputs.items()]
    param_infos = [_info(helper, name, v.example, None) for name, (_, v) in
                   g.initializers.items()]
    if not export_params:
        in_infos, inits = in_infos + param_infos, []
    elif keep_initializers_as_inputs:
        in_infos = in_infos + param_infos
    out_infos = [_info(helper, name, v.example, dynamic_axes.get(name), shaped=not g.dynamic)
                 for name, v in outputs.items()]
    graph = helper.make_graph(g.nodes, "main_graph", in_infos, out_infos, initializer=inits)
    opsets = [helper.make_opsetid("", opset)]
    proto = helper.make_model(graph, opset_imports=opsets, producer_name="ember",
                              producer_version=__version__,
                              ir_version=helper.find_min_ir_version_for(opsets))
    if g.dynamic:
        _infer_output_shapes(onnx, proto, dynamic_axes)
    try:
        onnx.checker.check_model(proto)
    except onnx.checker.ValidationError as e:
        raise OnnxExporterError(f"the exported model is not valid ONNX: {e}") from e
    return proto


def _inputs(g, placeholders, input_names, n_state):
    """Each placeholder's translation and the graph inputs by name: every tensor given, also
    inside tuples and lists (`lstm(x, (h, c))`), is a graph input; other arguments are
    folded values."""
    from .._tensor import Tensor
    leaves = []
    for n in placeholders:
        map_aggregate(n.meta.get("example"), leaves.append)
    count = sum(isinstance(leaf, Tensor) for leaf in leaves)
    names = list(input_names or [])
    if len(names) > count + n_state:
        raise RuntimeError(f"number of input names provided ({len(names)}) exceeded number of "
                           f"inputs ({count + n_state})")
    inputs, graph_inputs = {}, {}

    def graph_input(example, default):
        if not isinstance(example, Tensor):
            return example
        i = len(graph_inputs)
        name = names[i] if i < len(names) else default
        graph_inputs[name] = Value(name, example)
        return graph_inputs[name]

    for n in placeholders:
        example, name = n.meta.get("example"), n.target.lstrip("*")
        if isinstance(example, (tuple, list)):
            parts = [graph_input(e, f"{name}.{k}") for k, e in enumerate(example)]
            inputs[n.name] = type(example)(parts)
        else:
            inputs[n.name] = graph_input(example, name)
    return inputs, graph_inputs


def _rename_initializers(g, renames):
    """Input names beyond the inputs name the parameters and buffers, in state_dict order
    (torch's TorchScript exporter counts them as inputs)."""
    renamed = {}
    for name, (proto, value) in g.initializers.items():
        new = renames.get(name, name)
        if new != name:
            proto.name = value.name = new
            for node in g.nodes:
                for i, used in enumerate(node.input):
                    if used == name:
                        node.input[i] = new
        renamed[new] = (proto, value)
    g.initializers = renamed


def _outputs(g, out, output_names):
    """The graph outputs by name: each leaf of the model's result, renamed as asked."""
    leaves = []
    map_aggregate(out, leaves.append)
    names = list(output_names or [])
    g.scope, taken, outputs = (), set(), {}
    produced = {o: node for node in g.nodes for o in node.output}
    for i, v in enumerate(leaves):
        if not isinstance(v, Value):
            g.example = v
            v = g.value(v)
        name = names[i] if i < len(names) else g.fresh_number()
        node = produced.get(v.name)
        if node is None or v.name in taken:
            g.example = v.example
            v = g.op("Identity", [v])
            node = g.nodes[-1]
        _rename(g, node, v.name, name)
        taken.add(v.name)
        outputs[name] = Value(name, v.example)
    return outputs


def _rename(g, producer, old, new):
    """Value `old` (made by `producer`) named `new` everywhere."""
    for i, o in enumerate(producer.output):
        if o == old:
            producer.output[i] = new
    for node in g.nodes:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new


def _info(helper, name, example, axes, shaped=True):
    """The ValueInfo of a graph input or output: its element type and shape, the dynamic
    axes named (`axes`: {axis: name} or [axes], named "<value>_dynamic_axes_<k>")."""
    from ._graph import np_dtype_of
    elem = helper.np_dtype_to_tensor_dtype(np_dtype_of(example))
    if not shaped:
        return helper.make_tensor_value_info(name, elem, None)
    shape = list(example.shape)
    for axis, dim_name in _axis_names(name, axes).items():
        shape[axis] = dim_name
    return helper.make_tensor_value_info(name, elem, shape)


def _axis_names(name, axes):
    if axes is None:
        return {}
    if isinstance(axes, dict):
        return {int(a): str(n) for a, n in axes.items()}
    return {int(a): f"{name}_dynamic_axes_{k + 1}" for k, a in enumerate(axes)}


def _infer_output_shapes(onnx, proto, dynamic_axes):
    """Output shapes by ONNX's shape inference (so the batch size's name follows through),
    with the named dynamic axes of the outputs put in."""
    inferred = onnx.shape_inference.infer_shapes(proto)
    for out, found in zip(proto.graph.output, inferred.graph.output):
        if found.type.tensor_type.HasField("shape"):
            out.type.tensor_type.shape.CopyFrom(found.type.tensor_type.shape)
        names = _axis_names(out.name, dynamic_axes.get(out.name))
        dims = out.type.tensor_type.shape.dim
        if names and not dims:
            continue
        for axis, dim_name in names.items():
            dims[axis].dim_param = dim_name
