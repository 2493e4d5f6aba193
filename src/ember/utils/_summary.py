"""`ember.utils.summary(model, input_size=...)`: a model's layers, output shapes, parameter
counts, mult-adds and memory estimate, in torchinfo's table format.

It runs one forward pass (under no_grad, in eval mode, training mode restored afterwards) with
hooks on every submodule, so the rows are the modules in the order they ran.
"""
import math

from .. import _dtype
from .._ops.sampling import rand
from ..autograd.grad_mode import no_grad

_NAME_WIDTH, _COL_WIDTH = 40, 25
_HEADERS = {"input_size": "Input Shape", "output_size": "Output Shape",
            "num_params": "Param #", "kernel_size": "Kernel Shape", "mult_adds": "Mult-Adds",
            "trainable": "Trainable"}


class _Call:
    """One module call: its place in the tree and what went in and out."""

    def __init__(self, module, depth, index, inputs, recursive):
        self.module, self.depth, self.index, self.recursive = module, depth, index, recursive
        self.input_shape = _shape_of(inputs)
        self.output = None
        self.output_shape = None
        self.shows_children = False      # its children appear as rows below it
        self.inner = []                  # the calls made inside this one, at any depth

    @property
    def direct_params(self):
        return [p for p in self.module._parameters.values() if p is not None]


def _first_tensor(value):
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (list, tuple)):
        for v in value:
            found = _first_tensor(v)
            if found is not None:
                return found
    if isinstance(value, dict):
        return _first_tensor(list(value.values()))
    return None


def _shape_of(value):
    t = _first_tensor(value)
    return list(t.shape) if t is not None else None


def _macs(call):
    """Multiply-adds of one call, torchinfo's way: each parameter element is used once per
    batch element (and per output spatial position for convolutions)."""
    out = call.output_shape
    if not out:
        return 0
    total = 0
    for p in call.direct_params:
        if "Conv" in type(call.module).__name__:
            total += p.numel() * math.prod(out[2:]) * out[0] if len(out) > 2 else 0
        else:
            total += p.numel() * out[0]
    return total


class ModelSummary:
    """What `summary` found; `str()` of it is the table."""

    def __init__(self, model, calls, inputs, col_names, depth):
        self.calls, self.col_names, self.depth = calls, col_names, depth
        self.model_name = type(model).__name__
        unique = list(dict.fromkeys(model.parameters()))
        self.total_params = sum(p.numel() for p in unique)
        self.trainable_params = sum(p.numel() for p in unique if p.requires_grad)
        self.total_mult_adds = sum(_macs(c) for c in calls)
        self.total_input = sum(t.numel() * t.element_size() for t in inputs)
        self.total_output_bytes = 2 * sum(        # outputs and their gradients
            _first_tensor(c.output).numel() * _first_tensor(c.output).element_size()
            for c in calls if c.direct_params and _first_tensor(c.output) is not None)
        self.total_param_bytes = sum(p.numel() * p.element_size() for p in unique)

    # -- the table ------------------------------------------------------------------------------

    def _cell(self, call, column):
        if column == "input_size":
            return str(call.input_shape) if call.input_shape is not None else "--"
        if column == "output_size":
            return str(call.output_shape) if call.output_shape is not None else "--"
        if column == "num_params":
            if call.recursive:
                return "(recursive)"
            params = call.direct_params if call.shows_children else \
                list(dict.fromkeys(call.module.parameters()))
            count = sum(p.numel() for p in params)
            return f"{count:,}" if count else "--"
        if column == "kernel_size":
            kernel = getattr(call.module, "kernel_size", None)
            if kernel is None:
                return "--"
            return str(list(kernel) if isinstance(kernel, (tuple, list)) else kernel)
        if column == "mult_adds":
            macs = _macs(call) + (0 if call.shows_children else
                                  sum(_macs(c) for c in call.inner))
            return f"{macs:,}" if macs else "--"
        if column == "trainable":
            params = list(call.module.parameters())
            if not params:
                return "--"
            flags = {p.requires_grad for p in params}
            return "Partial" if len(flags) == 2 else str(flags.pop())
        raise ValueError(f"Column {column!r} is not a supported column")

    def _row(self, first, cells):
        # each cell is padded to its width plus one space (the rule is the widths' sum)
        text = f"{first:<{_NAME_WIDTH}} " + "".join(f"{c:<{_COL_WIDTH}} " for c in cells)
        return text.rstrip()

    def __str__(self):
        rule = "=" * (_NAME_WIDTH + _COL_WIDTH * len(self.col_names))
        lines = [rule, self._row("Layer (type:depth-idx)",
                                 [_HEADERS[c] for c in self.col_names]), rule]
        for call in self.calls:
            if call.depth > self.depth:
                continue
            name = type(call.module).__name__
            if call.depth == 0:
                label = name
            elif call.depth == 1:
                label = f"├─{name}: 1-{call.index}"
            else:
                label = "│    " * (call.depth - 1) + f"└─{name}: {call.depth}-{call.index}"
            lines.append(self._row(label, [self._cell(call, c) for c in self.col_names]))
        macs = self.total_mult_adds
        total = self.total_input + self.total_output_bytes + self.total_param_bytes
        unit, scale = ("T", 1e12) if macs >= 1e12 else ("G", 1e9) if macs >= 1e9 else ("M", 1e6)
        lines += [rule,
                  f"Total params: {self.total_params:,}",
                  f"Trainable params: {self.trainable_params:,}",
                  f"Non-trainable params: {self.total_params - self.trainable_params:,}",
                  f"Total mult-adds ({unit}): {macs / scale:0.2f}",
                  rule,
                  f"Input size (MB): {self.total_input / 1e6:0.2f}",
                  f"Forward/backward pass size (MB): {self.total_output_bytes / 1e6:0.2f}",
                  f"Params size (MB): {self.total_param_bytes / 1e6:0.2f}",
                  f"Estimated Total Size (MB): {total / 1e6:0.2f}",
                  rule]
        return "\n".join(lines)

    __repr__ = __str__


def _make_inputs(input_size, input_data, dtypes, device):
    if input_data is not None:
        data = input_data if isinstance(input_data, (list, tuple)) else [input_data]
        return list(data)
    if input_size is None:
        raise ValueError("You must pass input_data or input_size.")
    sizes = [input_size] if all(isinstance(n, int) for n in input_size) else list(input_size)
    dtypes = list(dtypes) if dtypes is not None else [_dtype.float32] * len(sizes)
    return [rand(*size, dtype=dt, device=device) for size, dt in zip(sizes, dtypes)]


def summary(model, input_size=None, input_data=None, *, col_names=("output_size", "num_params"),
            depth=3, dtypes=None, device=None, verbose=1, **kwargs):
    """Print and return a table of `model`'s layers as torchinfo's `summary` does.

    >>> summary(nn.Sequential(nn.Linear(4, 3), nn.ReLU()), input_size=(2, 4))
    """
    for column in col_names:
        if column not in _HEADERS:
            raise ValueError(f"Column {column!r} is not a supported column")
    inputs = _make_inputs(input_size, input_data, dtypes, device)
    calls, stack, seen, counters, handles = [], [], set(), {}, []

    def before(module, args):
        depth = len(stack)
        counters[depth] = counters.get(depth, 0) + 1
        if stack:
            stack[-1].shows_children = depth <= summary_depth
        call = _Call(module, depth, counters[depth], args, id(module) in seen)
        for outer in stack:
            outer.inner.append(call)
        seen.add(id(module))
        calls.append(call)
        stack.append(call)

    def after(module, args, output):
        call = stack.pop()
        call.output = output
        call.output_shape = _shape_of(output)

    summary_depth = depth
    for module in model.modules():
        handles.append(module.register_forward_pre_hook(before))
        handles.append(module.register_forward_hook(after))
    training = model.training
    model.eval()
    try:
        with no_grad():
            model(*inputs, **kwargs)
    except Exception as exc:
        ran = [f"{type(c.module).__name__}: {c.depth}" for c in calls]
        raise RuntimeError("Failed to run ember.utils.summary. See above stack traces for more "
                           f"details. Executed layers up to: {ran}") from exc
    finally:
        for h in handles:
            h.remove()
        model.train(training)
    result = ModelSummary(model, calls, inputs, tuple(col_names), depth)
    if verbose:
        print(result)
    return result
