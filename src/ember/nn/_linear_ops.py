"""F.linear's common case in one kernel: a float 2-D input, a 2-D weight, a 1-D bias or none.

The graph is torch's (AddmmBackward0 with the bias, MmBackward0 without, over TBackward0 of the
weight); only the work is cut: the forward writes the bias into the product's fresh array, and
the backward, when no graph of the gradients is wanted, runs one matmul per needed gradient and
one sum for the bias. With create_graph=True the backward is the general one (ember tensor ops).
"""
import numpy as np

from .. import _device
from .._tensor import Tensor, alias, wrap
from ..cuda import _backend
from .._ops._dispatch import finish
from .._ops.linalg import Mm, matrix_geometry
from .._ops.products import Addmm
from .._ops.views import record_view
from .._ops.views_transpose import T
from ..autograd.grad_mode import _state as _grad_state

_FLOATS = (np.dtype("float32"), np.dtype("float64"))
_amp = None     # ember.amp._policy, once linear_2d has run
_NO_PARAMS = {}     # TBackward0's params (record copies them: one dict serves every call)


def _array_module(*arrays):
    """NumPy or CuPy where all `arrays` are that module's arrays (CuPy's on one device), else
    None. NOTE: the CPU and GPU paths run the same kernels (matmul, an in-place add, a sum),
    so CuPy arrays take this path too: on a GPU, the general path's dispatch is host time."""
    cls = arrays[0].__class__
    for a in arrays:
        if a.__class__ is not cls:
            return None
    if cls is np.ndarray:
        return np
    cp = _backend._cupy
    if cp is None or cls is not cp.ndarray:
        return None
    device = arrays[0].device.id
    if not all(a.device.id == device for a in arrays[1:]):
        return None
    _device.backend_of(arrays[0])       # the device guard (NOTE [ Device guard ])
    return cp


def _operands_module(grad, a, b):
    """_array_module of the gradient and the saved operands (None where not saved), NumPy's
    asked first: it is every CPU step's case."""
    if grad._data.__class__ is np.ndarray and (a is None or a._data.__class__ is np.ndarray) \
            and (b is None or b._data.__class__ is np.ndarray):
        return np
    return _array_module(grad._data, *[t._data for t in (a, b) if t is not None])


def _weight_grad(a, g, column_major, xp=np):
    """a.T @ g, the gradient of mat2, laid out as mat2 is (`column_major`: as `weight.t()`).

    NOTE: as torch's mm backward does, a transposed (column-major) mat2 (`weight.t()`) gets
    its gradient computed as (g.T @ a).T, so that after TBackward0 the weight's gradient is
    row-major like the weight (no strided copy, and `weight.grad.stride()` as in torch).
    """
    if column_major:
        return xp.matmul(g.T, a).T
    return xp.matmul(a.T, g)


class LinearAddmm(Addmm):
    """addmm(bias, input, weight.t()) as F.linear records it."""
    node_name = "AddmmBackward0"

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        xp = None if _grad_state.enabled else _operands_module(grad, a, b)
        if xp is None:
            return Addmm.backward(ctx, grad)
        need_self, need_a, need_b = ctx.needs_input_grad
        g = grad._data
        # (the bias's gradient in NumPy's order, not torch's (NOTE [ Summation order ]): a
        # Python-level cascade would cost a training step of a small MLP about a tenth, and the
        # gradient reaching a Linear layer has a matmul's last bits anyway)
        return (wrap(xp.add.reduce(g, axis=0) if xp is np else g.sum(axis=0))
                if need_self else None,
                wrap(xp.matmul(g, b._data.T)) if need_a else None,
                wrap(_weight_grad(a._data, g, ctx.column_major, xp)) if need_b else None)


class LinearMm(Mm):
    """mm(input, weight.t()) as F.linear records it without a bias."""
    node_name = "MmBackward0"

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        xp = None if _grad_state.enabled else _operands_module(grad, a, b)
        if xp is None:
            return Mm.backward(ctx, grad)
        need_a, need_b = ctx.needs_input_grad
        g = grad._data
        return (wrap(xp.matmul(g, b._data.T)) if need_a else None,
                wrap(_weight_grad(a._data, g, ctx.column_major, xp)) if need_b else None)


def linear_2d(input, weight, bias):
    """F.linear of a 2-D input, or None where the general path must run (other dtypes or
    devices, mismatched shapes whose errors that path words, autocast)."""
    global _amp
    if _amp is None:
        from ..amp import _policy as _amp   # (not at import: ember.amp wraps nn's functions)
    if _amp._ACTIVE or not (isinstance(input, Tensor) and isinstance(weight, Tensor)):
        return None
    x, w = input._data, weight._data
    if x.ndim != 2 or w.ndim != 2 or x.dtype not in _FLOATS or w.dtype != x.dtype \
            or x.shape[1] != w.shape[1]:
        return None
    if bias is None:
        xp = np if x.__class__ is np.ndarray and w.__class__ is np.ndarray else \
            _array_module(x, w)
    else:
        if not isinstance(bias, Tensor):
            return None
        c = bias._data
        if c.dtype != x.dtype or c.shape != (w.shape[0],):
            return None
        xp = np if x.__class__ is np.ndarray and w.__class__ is np.ndarray and \
            c.__class__ is np.ndarray else _array_module(x, w, c)
    if xp is None:
        return None
    # weight.t(), without the dispatch: the view over the array's transpose, TBackward0
    wt = record_view(T, weight, alias(weight, w.T, weight._offset), _NO_PARAMS)
    out = xp.matmul(x, w.T)
    flags = w.flags
    column_major = bool(flags.c_contiguous and not flags.f_contiguous)
    if bias is None:
        inputs, op, params = (input, wt), LinearMm, {"column_major": column_major,
                                                     "geometry": matrix_geometry(x, w.T)}
        requires_grad = input._requires_grad or weight._requires_grad
    else:
        xp.add(out, c, out=out)
        inputs, op = (bias, input, wt), LinearAddmm
        params = {"beta": 1, "alpha": 1, "batch": x.shape[0], "column_major": column_major,
                  "geometry": matrix_geometry(x, w.T)}
        requires_grad = input._requires_grad or weight._requires_grad or bias._requires_grad
    return finish(op, inputs, out, params, None, requires_grad)
