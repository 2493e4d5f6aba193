"""torch's functions that take quantized tensors as their methods do: `torch.flatten(q, 1)`,
`torch.reshape(q, ...)`, `torch.chunk(q, 2)`, ... keep the quantizer, and `torch.cat`/`torch.stack`
join per-tensor quantized tensors into one with the first one's parameters (requantizing the
others), as torch's quantized CPU kernels do.

ember's operators are shared by the function and the method; the quantized tensor's class
overrides the methods (`_quantized_tensor.py`), so these functions hand a quantized first
argument to its method, and any other call to the operator unchanged (one frame more). That
covers every function whose method the class overrides: its views, its kernels on the
integers (`torch.relu(q)`, `torch.max(q)`, `torch.mean(q)`) and its refusals (`torch.add(q, q)`
raises torch's NotImplementedError, where the operator would have added the integers).

NOTE [ Quantized tensors through nn.functional ]
Of nn.functional, `relu`, `sigmoid`, `tanh`, `softmax` and `log_softmax` take the methods'
way too. `pixel_shuffle`, `pixel_unshuffle`, `channel_shuffle` and nearest `interpolate` only
move elements, so they run on the integers and keep the parameters, as torch's quantized
kernels do; `hardtanh` is the quantized tensor's clamp, as torch's. The rest either run an
element-wise operator, which refuses a quantized operand (`_ops/elementwise.call`), raise
already, or handle quantized inputs (max pooling, adaptive average pooling, relu6, dropout in
eval mode).
"""
import functools
import types

from ._quantized_tensor import QuantizedTensor, _SPLITS, _VIEWS
from .sparse._backends import _TAIL

# the methods' names whose function form exists (`view`, `expand`, `__getitem__` have none)
_FUNCTIONS = tuple(n for n in _VIEWS + _SPLITS if not n.startswith("_") and n not in (
    "view", "view_as", "reshape_as", "expand", "expand_as", "contiguous"))
_JOINS = ("cat", "concat", "concatenate", "stack")

_QSCHEME_ON_CPU = (
    "Could not run 'aten::qscheme' with arguments from the 'CPU' backend. This could be because "
    "the operator doesn't exist for this backend, or was omitted during the selective/custom "
    "build process (if using custom build). If you are a Facebook employee using PyTorch on "
    "mobile, please visit https://fburl.com/ptmfixes for possible resolutions. 'aten::qscheme' "
    f"is only available for these backends: [Meta, QuantizedCPU, {_TAIL}].")


# (the class's own methods whose function's first argument is not the tensor, or that are no
# operators at all)
_NOT_FORMS = {"where", "to", "type", "numpy", "tolist", "item", "requires_grad_"}


def _overridden():
    """The names of the methods the quantized tensor's class defines itself."""
    return {n for n, v in vars(QuantizedTensor).items()
            if callable(v) and not n.startswith("_") and n not in _NOT_FORMS}


def function_forms(namespace):
    """Replacements for the functions of `namespace` (ember's) named above."""
    out = {}
    for name in set(_FUNCTIONS) | _overridden():
        if isinstance(namespace.get(name), types.FunctionType):    # (not `float`, a dtype)
            out[name] = _by_method(namespace[name], name)
    for name in _JOINS:
        if name in namespace:
            out[name] = _joining(namespace[name])
    return out


def _by_method(fn, name):
    @functools.wraps(fn)
    def function(*args, **kwargs):
        # (arguments passed on as given: a wrong call gets the operator's own error)
        if args and args[0].__class__ is QuantizedTensor:
            if "out" in kwargs and kwargs["out"] is None:   # (special.expit passes it on)
                kwargs = {k: v for k, v in kwargs.items() if k != "out"}
            return getattr(args[0], name)(*args[1:], **kwargs)
        return fn(*args, **kwargs)
    function.__name__ = function.__qualname__ = name      # (moveaxis is movedim's alias)
    return function


def _joining(fn):
    @functools.wraps(fn)
    def join(*args, **kwargs):
        tensors = args[0] if args else kwargs.get("tensors")
        if tensors.__class__ in (list, tuple):
            for t in tensors:
                if t.__class__ is QuantizedTensor:
                    rest = {k: v for k, v in kwargs.items() if k != "tensors"}
                    return _quantized_join(fn, tensors, args[1:], rest)
        return fn(*args, **kwargs)
    return join


def _quantized_join(fn, tensors, args, kwargs):
    """torch's quantized cat: every input quantized, of one dtype and per tensor; the result
    takes the first input's scale and zero point."""
    from ._quantized import quantize_per_tensor
    if not all(t.__class__ is QuantizedTensor for t in tensors):
        raise NotImplementedError(_QSCHEME_ON_CPU)
    first = tensors[0]
    if any(t.dtype is not first.dtype for t in tensors):
        raise RuntimeError("All dtypes must be the same.")
    if any(t._quantizer.per_channel for t in tensors):
        raise RuntimeError("Only per-tensor quantization is supported in 'cat'!")
    joined = fn([t.dequantize() for t in tensors], *args, **kwargs)
    return quantize_per_tensor(joined, first.q_scale(), first.q_zero_point(), first.dtype)


# -- nn.functional (NOTE [ Quantized tensors through nn.functional ]) ----------------------------

_F_METHODS = ("relu", "sigmoid", "tanh", "softmax", "log_softmax")
_F_MOVES = ("pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "interpolate", "upsample",
            "upsample_nearest")


def functional_forms(functional):
    """Replacements for nn.functional's functions named above (module `functional`)."""
    out = {}
    for name in _F_METHODS:
        out[name] = _by_method(getattr(functional, name), name)
    out["hardtanh"] = _hardtanh(functional.hardtanh)
    for name in _F_MOVES:
        out[name] = _moving(getattr(functional, name), name)
    return out


def _moving(fn, name):
    @functools.wraps(fn)
    def function(*args, **kwargs):
        q = args[0] if args else kwargs.get("input")
        if q.__class__ is not QuantizedTensor:
            return fn(*args, **kwargs)
        from ._quantized import wrap_as
        mode = kwargs.get("mode", args[3] if len(args) > 3 else "nearest")
        if name in ("interpolate", "upsample") and mode not in ("nearest", "nearest-exact"):
            raise _not_implemented(f"interpolate in {mode!r} mode")
        if name in ("interpolate", "upsample", "upsample_nearest") and q.dim() == 3:
            from ._quantized_tensor import kernel_missing_for     # (torch: 2-d and 3-d only)
            raise kernel_missing_for(f"upsample_{mode.replace('-', '_')}1d.out")
        if q._quantizer.per_channel:
            raise _not_implemented(name + " of a per-channel quantized tensor")
        rest = args[1:] if args else ()
        kwargs = {k: v for k, v in kwargs.items() if k != "input"}
        return wrap_as(fn(q._ints(), *rest, **kwargs), q._quantizer)
    return function


def _hardtanh(fn):
    @functools.wraps(fn)
    def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
        if input.__class__ is QuantizedTensor:      # (torch's quantized hardtanh: a clamp)
            if inplace:
                raise _not_implemented("in-place hardtanh")
            return input.clamp(min_val, max_val)
        return fn(input, min_val, max_val, inplace)
    return hardtanh


def _not_implemented(what):
    return NotImplementedError(f"ember: {what} of a quantized tensor is not implemented (torch "
                               "runs a quantized kernel or refuses it); dequantize() first")
