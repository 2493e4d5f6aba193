"""torch's functions that take quantized tensors as their methods do: `torch.flatten(q, 1)`,
`torch.reshape(q, ...)`, `torch.chunk(q, 2)`, ... keep the quantizer, and `torch.cat`/`torch.stack`
join per-tensor quantized tensors into one with the first one's parameters (requantizing the
others), as torch's quantized CPU kernels do.

ember's operators are shared by the function and the method; the quantized tensor's class
overrides the methods (`_quantized_tensor.py`), so these functions hand a quantized first
argument to its method, and any other call to the operator unchanged (one frame more).
"""
import functools

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


def function_forms(namespace):
    """Replacements for the functions of `namespace` (ember's) named above."""
    out = {}
    for name in _FUNCTIONS:
        if name in namespace:
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
