"""The ONNX graph being built: values, nodes named by module scope as torch names them
("/layer1/layer1.0/conv1/Conv", its output "/layer1/layer1.0/conv1/Conv_output_0"), constants,
initializers, and the few ops whose form depends on the opset version.

NOTE [ Values and folded values ]
The exporter runs the traced graph once on the example inputs (_trace.py), so every fx node
carries its example result. A node's translation is either a `Value` (an ONNX tensor, with its
example so that rank and dtype are known) or plain Python data (ints, tuples, ...) when it is
known at export time. Sizes (`x.size(0)`, `x.shape[1:]`) are folded to Python ints unless the
export has dynamic axes; then they become Shape/Gather values, so that `x.view(x.size(0), -1)`
follows the batch size at run time, as in torch's export. A call none of whose inputs is a
Value (`torch.zeros(n, 3)` with n folded) is folded too: Constants of the tensors it gave.
Without dynamic axes, what a program reads out of a tensor's data (`.item()`, `.tolist()`) is
baked in, as torch's tracer bakes it.
"""
import numpy as np

__all__ = ["Value", "GraphBuilder"]


class Value:
    """An ONNX tensor of the graph: its name and the example (an ember tensor, a Size or a
    Python number) it had when the model ran on the example inputs."""

    def __init__(self, name, example):
        self.name = name
        self.example = example

    @property
    def rank(self):
        ex = self.example
        return ex.dim() if hasattr(ex, "dim") else (1 if isinstance(ex, tuple) else 0)

    @property
    def np_dtype(self):
        """The NumPy dtype of the ONNX tensor (sizes and Python ints are int64)."""
        return np_dtype_of(self.example)

    def __repr__(self):
        return f"Value({self.name!r})"


def np_dtype_of(example):
    """The NumPy dtype an example value has as an ONNX tensor."""
    if hasattr(example, "numpy"):
        return example.detach().cpu().numpy().dtype
    if isinstance(example, (bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(example, (int, tuple)):
        return np.dtype(np.int64)
    return np.dtype(np.float32)


def to_numpy(t):
    """An ember tensor (or number) as a NumPy array."""
    if hasattr(t, "numpy"):
        return np.array(t.detach().cpu().numpy())
    return np.asarray(t)


def scope_name(qualified_name):
    """The name a module's scope has in node names, as torch writes it: its attribute name,
    with the container's name before an index ("layer1.0" for the block in layer1,
    "conv1" for that block's conv1)."""
    parts = qualified_name.split(".")
    named = [i for i, p in enumerate(parts) if not p.isdigit()]
    return ".".join(parts[named[-1]:] if named else parts)


class GraphBuilder:
    """Collects the nodes, constants and initializers of one export; `op` adds a node."""

    def __init__(self, onnx, opset, dynamic):
        self.onnx = onnx
        self.opset = opset
        self.dynamic = dynamic      # sizes become graph values (NOTE [ Values and folded values ])
        self.nodes = []
        self.initializers = {}      # name -> (ONNX TensorProto, the Value)
        self.scope = ()             # the scope names of the modules the fx node is in
        self.example = None         # that node's example result
        self._used_names = {}
        self._value_count = 0

    # -- names ----------------------------------------------------------------------------
    def _node_name(self, op_type):
        base = "".join("/" + part for part in self.scope if part) + "/" + op_type
        n = self._used_names.get(base, 0)
        self._used_names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def fresh_number(self):
        """A new numbered name, as torch names unnamed outputs ("23")."""
        self._value_count += 1
        return str(self._value_count)

    # -- nodes ----------------------------------------------------------------------------
    def op(self, op_type, inputs, example=None, n_outputs=1, **attrs):
        """Add node `op_type` on `inputs` (Values or "" for an omitted optional input) and give
        its output Value (a tuple when n_outputs > 1); `example` defaults to the fx node's."""
        name = self._node_name(op_type)
        outs = [f"{name}_output_{i}" for i in range(n_outputs)]
        ins = [i if isinstance(i, str) else self.value(i).name for i in inputs]
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(self.onnx.helper.make_node(op_type, ins, outs, name=name, **attrs))
        self._value_count += n_outputs
        ex = self.example if example is None else example
        if n_outputs == 1:
            return Value(outs[0], ex)
        return tuple(Value(o, ex) for o in outs)

    def const(self, array, dtype=None):
        """A Constant node holding `array` (NumPy data or a Python number/list)."""
        arr = np.asarray(array, dtype=dtype)
        if arr.dtype == np.float64 and dtype is None:
            arr = arr.astype(np.float32)
        tensor = self.onnx.numpy_helper.from_array(arr)
        return self.op("Constant", [], example=_NumpyExample(arr), value=tensor)

    def ints(self, values):
        """A 1-D int64 tensor of `values`, each a Python int or a 0-d int64 Value: a Constant
        when all are known, else a Concat of their 1-element forms (a shape being built)."""
        if all(not isinstance(v, Value) for v in values):
            return self.const(np.array([int(v) for v in values], dtype=np.int64))
        parts = [self.unsqueeze(v, [0]) if isinstance(v, Value) and v.rank == 0
                 else (v if isinstance(v, Value) else self.const([int(v)], np.int64))
                 for v in values]
        if len(parts) == 1:
            return parts[0]
        return self.op("Concat", parts, example=tuple(0 for _ in values), axis=0)

    def reshape(self, x, shape):
        """Reshape `x` to the 1-D int64 `shape` (0 copies the input's size, as torch writes
        it: allowzero=0 from opset 14)."""
        return self.op("Reshape", [x, shape], allowzero=0 if self.opset >= 14 else None)

    def value(self, x):
        """`x` as a Value: Values pass through, tensors become Constants of their dtype,
        Python numbers Constants of int64 or float32 (callers cast them as the op needs)."""
        if isinstance(x, Value):
            return x
        if hasattr(x, "numpy"):
            arr = to_numpy(x)
            return self.const(arr, arr.dtype)
        return self.const(x)

    def cast(self, v, np_dtype):
        """`v` in `np_dtype` (a Cast node when it differs)."""
        if not isinstance(v, Value):
            return self.const(v, np_dtype)
        if v.np_dtype == np.dtype(np_dtype):
            return v
        to = self.onnx.helper.np_dtype_to_tensor_dtype(np.dtype(np_dtype))
        return self.op("Cast", [v], example=stand_in(shape_of(v.example), np_dtype), to=to)

    def initializer(self, name, tensor):
        """The initializer `name` holding a parameter or buffer (one per name)."""
        if name not in self.initializers:
            arr = to_numpy(tensor)
            proto = self.onnx.numpy_helper.from_array(arr, name)
            self.initializers[name] = (proto, Value(name, tensor.detach()))
        return self.initializers[name][1]

    def folded(self, array, op_type):
        """A new initializer of weights the exporter computed (regrouped gates, ...), named as
        torch names the ones its constant folding makes ("onnx::LSTM_123")."""
        self._value_count += 1
        name = f"onnx::{op_type}_{self._value_count}"
        proto = self.onnx.numpy_helper.from_array(np.asarray(array), name)
        self.initializers[name] = (proto, Value(name, _NumpyExample(np.asarray(array))))
        return self.initializers[name][1]

    def require(self, name, version):
        """Raise torch's UnsupportedOperatorError for `name` (a torch op, "aten::cumsum")
        when the opset is older than `version`, the first that can express it."""
        if self.opset < version:
            from .errors import UnsupportedOperatorError
            raise UnsupportedOperatorError(name, self.opset, version)

    # -- ops whose form changed with the opset ------------------------------------------------
    def _axes(self, axes, op_type):
        """The axes input of Unsqueeze/Squeeze: a Constant outside any scope, named as torch's
        symbolic helpers name theirs ("Constant_9", its output "onnx::Unsqueeze_18")."""
        self._value_count += 1
        tensor = self.onnx.numpy_helper.from_array(np.array(axes, dtype=np.int64))
        out = f"onnx::{op_type}_{self._value_count}"
        self.nodes.append(self.onnx.helper.make_node(
            "Constant", [], [out], name=f"Constant_{len(self.nodes)}", value=tensor))
        return out

    def unsqueeze(self, x, axes):
        shape = list(shape_of(x.example))
        for a in sorted(axes):
            shape.insert(a, 1)
        ex = stand_in(shape, x.np_dtype)
        if self.opset >= 13:
            return self.op("Unsqueeze", [x, self._axes(axes, "Unsqueeze")], example=ex)
        return self.op("Unsqueeze", [x], example=ex, axes=list(axes))

    def squeeze(self, x, axes):
        ex = stand_in([n for d, n in enumerate(shape_of(x.example)) if d not in axes],
                      x.np_dtype)
        if self.opset >= 13:
            return self.op("Squeeze", [x, self._axes(axes, "Squeeze")], example=ex)
        return self.op("Squeeze", [x], example=ex, axes=list(axes))

    def reduce(self, op_type, x, axes, keepdims, example=None):
        """ReduceSum/Mean/Max/... over `axes` (None: all)."""
        takes_input = self.opset >= (13 if op_type == "ReduceSum" else 18)
        if axes is None:
            return self.op(op_type, [x], example, keepdims=int(keepdims))
        if takes_input:
            return self.op(op_type, [x, self.ints(axes)], example, keepdims=int(keepdims))
        return self.op(op_type, [x], example, axes=list(axes), keepdims=int(keepdims))


class _NumpyExample:
    """The example of a value made by the exporter itself (a constant, a cast)."""

    def __init__(self, arr):
        self.arr = arr

    @property
    def shape(self):
        return self.arr.shape

    def dim(self):
        return self.arr.ndim

    def detach(self):
        return self

    def cpu(self):
        return self

    def numpy(self):
        return self.arr


def stand_in(shape, dtype):
    """A stand-in example of the given shape and dtype (no memory: a broadcast zero)."""
    return _NumpyExample(np.broadcast_to(np.zeros((), dtype), tuple(shape)))


def shape_of(example):
    """The shape of an example as an ONNX tensor (a size is a 0-d, a Size a 1-d tensor)."""
    if hasattr(example, "shape"):
        return tuple(example.shape)
    return (len(example),) if isinstance(example, tuple) else ()
