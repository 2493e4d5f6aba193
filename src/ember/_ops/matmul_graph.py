"""The graph of a batched matmul: the nodes torch records for `a @ b` when an operand has more
than two dims and one requires grad (NOTE [ matmul's graph ]).

The product itself is computed once, from the operands as given (`linalg.matmul`), so its
values do not depend on the graph; this module only records the nodes around it.
"""
from .._device import backend_of
from .._geometry import broadcast_shapes
from .._tensor import alias, wrap
from ._op import record
from .copies import Clone
from .linalg import Bmm, Mm, Mv, matrix_geometry
from .views import Expand, ReshapeAlias, UnsafeView, View, expand, record_view, reshape, \
    squeeze, unsqueeze
from .views_transpose import t, transpose

# NOTE [ matmul's graph ]
# torch's matmul is a composition, and its graph shows it. With `a` and `b` its operands:
#   1. Two 3-D operands where one has a batch of one and requires grad, the other a batch of
#      more: that one is squeezed to a matrix (SqueezeBackward1), so that its gradient is one
#      mm rather than a sum over the other's batch.
#   2. A batch of matrices against a matrix or a vector (either way round) is folded into one
#      mm/mv when the smaller operand requires grad, or when the larger one's batch dims can
#      be flattened without a copy (never for a matrix on the left: its product would need a
#      transpose and a copy). The larger one, transposed (`mT`) when it is on the right, is
#      reshaped to (rows, k) (ViewBackward0, or CloneBackward0 + UnsafeViewBackward0 when that
#      copies), the product is viewed back (UnsafeViewBackward0) and, for a matrix on the left,
#      transposed back and made contiguous (TransposeBackward0, CloneBackward0).
#   3. Anything else is a bmm (BmmBackward0) of both operands expanded to the broadcast batch
#      and reshaped to 3-D (ExpandBackward0 then ViewBackward0 / ReshapeAliasBackward0, or
#      CloneBackward0 + UnsafeViewBackward0), then viewed as the output (UnsafeViewBackward0;
#      a vector on the right is a column, squeezed out first: SqueezeBackward1).
# Each node saves what torch's does (sizes, strides, the folded operands), and the gradients
# are those of mm, mv and bmm through the views.


def matmul_graph(input, other, result):
    """`result`, the product `input @ other` (an array of the output's shape), as the output
    of torch's composition, with its nodes recorded (grad mode is on, and an operand
    requires grad)."""
    a, b = input, other
    if a._data.ndim == 3 and b._data.ndim == 3:
        a_batch, b_batch = a._data.shape[0], b._data.shape[0]
        if a_batch == 1 and b_batch != 1 and a._requires_grad:
            a = squeeze(a, 0)
        elif b_batch == 1 and a_batch != 1 and b._requires_grad:
            b = squeeze(b, 0)
    if _folds(a, b):
        return _folded(a, b, result)
    return _batched(a, b, result)


def _folds(a, b):
    """Whether torch folds the larger operand's batch into one mm/mv (step 2 of the NOTE)."""
    a_dims, b_dims = a._data.ndim, b._data.ndim
    if a_dims >= b_dims:
        large, small, shape, strides = a, b, a._data.shape, a.stride()
    else:                   # (b transposed: its last two dims swapped)
        large, small, shape, strides = b, a, b._data.shape, b.stride()
        shape = shape[:-2] + (shape[-1], shape[-2])
        strides = strides[:-2] + (strides[-1], strides[-2])
    if len(shape) < 3 or small._data.ndim > 2:
        return False
    if small._requires_grad:
        return True
    if a_dims == 2:
        return False
    if large._data.size == 0:
        return True
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _folded(a, b, result):
    """Step 2 of NOTE [ matmul's graph ]: one mm (or mv) of the larger operand folded."""
    transposed = b._data.ndim > a._data.ndim
    if transposed:
        big, small = transpose(b, -2, -1), (t(a) if a._data.ndim == 2 else a)
    else:
        big, small = a, b
    kept = big._data.shape[:-1]
    rows = 1
    for n in kept:
        rows *= n
    folded = reshape(big, (rows, big._data.shape[-1]))
    if small._data.ndim == 2:
        p = small._data.shape[-1]
        geometry = {"geometry": matrix_geometry(folded._data, small._data)}
        if not transposed:
            product = _recorded(Mm, folded, small, result.reshape((rows, p)), geometry)
            return _unsafe_view(product, kept + (p,), result)
        # torch's product is the output transposed, row-major, then transposed back and
        # made contiguous: a copy, whose values are `result` (so the product's own values
        # are written only where the transposed-back view is contiguous already)
        xp = backend_of(result).xp
        product = _recorded(Mm, folded, small, xp.empty((rows, p), result.dtype), geometry)
        back = transpose(_unsafe_view(product, kept + (p,)), -2, -1)
        if back._data.flags.c_contiguous:
            back._data[...] = result
            return back
        out = wrap(xp.ascontiguousarray(result))
        if back._requires_grad:
            record(Clone, (back,), (out,), {})
        return out
    product = _recorded(Mv, folded, small, result.reshape((rows,)), {})
    return _unsafe_view(product, kept, result)


def _batched(a, b, result):
    """Step 3 of NOTE [ matmul's graph ]: one bmm over the broadcast batch."""
    a_shape, b_shape = a._data.shape, b._data.shape
    n = a_shape[-2] if len(a_shape) > 1 else 1
    k = a_shape[-1]
    p = b_shape[-1] if len(b_shape) > 1 else 1
    batch = a_shape[:-2] if a_shape[:-2] == b_shape[:-2] else \
        broadcast_shapes(a_shape[:-2], b_shape[:-2])
    count = 1
    for s in batch:
        count *= s
    left = _batch_of(a, batch, (n, k), count)
    right = _batch_of(b if len(b_shape) > 1 else unsqueeze(b, -1), batch, (k, p), count)
    product = _recorded(Bmm, left, right, result.reshape((count, n, p)), {})
    if len(b_shape) == 1:   # (torch drops the column's dim first; a row's goes in the view)
        product = squeeze(product, -1)
    shape = batch + ((n,) if len(a_shape) > 1 else ()) + ((p,) if len(b_shape) > 1 else ())
    return _unsafe_view(product, shape, result)


def _batch_of(operand, batch, matrix, count):
    """`operand` expanded to `batch` + `matrix` and reshaped to (count,) + `matrix`, as bmm
    takes it. (When neither changes its shape, the views are aliases made here directly:
    expand and reshape would build the same ones, and an operand that needs no grad is
    taken as it is.)"""
    data = operand._data
    full, flat = batch + matrix, (count,) + matrix
    if data.shape != full:
        operand = expand(operand, full)
    elif operand._requires_grad:
        operand = record_view(Expand, operand, alias(operand, data, operand._offset),
                              {"self_size": full})
    data = operand._data
    if full != flat or 1 in full or 0 in full:     # (torch's view restrides size-1 dims)
        return reshape(operand, flat)
    if not operand._requires_grad:
        return operand
    op = View if data.flags.c_contiguous else ReshapeAlias
    return record_view(op, operand, alias(operand, data, operand._offset), {"self_size": full})


def _recorded(op, first, second, data, params):
    """`data` (computed already) as the output of the product `op` of `first` and `second`."""
    out = wrap(data)
    if first._requires_grad or second._requires_grad:
        record(op, (first, second), (out,), params)
    return out


def _unsafe_view(input, shape, result=None):
    """torch's `_unsafe_view`: a reshape of a fresh (contiguous) tensor, recorded as
    UnsafeViewBackward0, whose output is no view of it. `result`: matmul's own array, which
    the output is when it has that shape (NOTE: not a reshape of the product's view of it,
    whose strides of size-1 dims could differ, and with them the kernels NumPy picks later)."""
    if result is not None and result.shape == shape:
        out = wrap(result)
    else:
        out = wrap(input._data.reshape(shape))
    if input._requires_grad:
        record(UnsafeView, (input,), (out,), {"self_size": input._data.shape})
    return out
