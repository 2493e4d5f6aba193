"""The graph of a batched matmul: the nodes torch records for `a @ b` when an operand has more
than two dims and one requires grad (NOTE [ matmul's graph ]).

The product itself is computed once, from the operands as given (`linalg.matmul`), so its
values do not depend on the graph; this module only records the nodes around it.
"""
from .._geometry import broadcast_shapes
from .._tensor import wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import record
from .copies import contiguous
from .linalg import Bmm, Mm, Mv, matrix_geometry
from .views import UnsafeView, expand, reshape, squeeze, unsqueeze
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
    of torch's composition, with its nodes recorded."""
    a, b = input, other
    if a.ndim == 3 and b.ndim == 3:
        if a.shape[0] == 1 and b.shape[0] != 1 and a._requires_grad:
            a = squeeze(a, 0)
        elif b.shape[0] == 1 and a.shape[0] != 1 and b._requires_grad:
            b = squeeze(b, 0)
    if _folds(a, b):
        return _folded(a, b, result)
    return _batched(a, b, result)


def _folds(a, b):
    """Whether torch folds the larger operand's batch into one mm/mv (step 2 of the NOTE)."""
    if a.ndim >= b.ndim:
        large, small, large_shape, large_strides = a, b, a.shape, a.stride()
    else:
        large, small = b, a
        large_shape = b.shape[:-2] + (b.shape[-1], b.shape[-2])
        strides = b.stride()
        large_strides = strides[:-2] + (strides[-1], strides[-2])
    if large.ndim < 3 or small.ndim > 2:
        return False
    if small._requires_grad:
        return True
    if a.ndim == 2:
        return False
    if large._data.size == 0:
        return True
    return all(large_strides[i] == large_strides[i + 1] * large_shape[i + 1]
               for i in range(large.ndim - 2))


def _folded(a, b, result):
    """Step 2 of NOTE [ matmul's graph ]: one mm (or mv) of the larger operand folded."""
    transposed = b.ndim > a.ndim
    if transposed:
        big, small = transpose(b, -2, -1), (t(a) if a.ndim == 2 else a)
    else:
        big, small = a, b
    rows = 1
    for n in big.shape[:-1]:
        rows *= n
    folded = reshape(big, (rows, big.shape[-1]))
    if small.ndim == 2:
        shape = big.shape[:-1] + (small.shape[-1],)
        if transposed:      # torch's product: the transposed output, row-major
            data = result.swapaxes(-1, -2).copy().reshape((rows, small.shape[-1]))
        else:
            data = result.reshape((rows, small.shape[-1]))
        product = _recorded(Mm, folded, small, data,
                            {"geometry": matrix_geometry(folded._data, small._data)})
    else:
        shape = big.shape[:-1]
        product = _recorded(Mv, folded, small, result.reshape((rows,)), {})
    out = _unsafe_view(product, shape)
    if transposed and small.ndim == 2:
        out = contiguous(transpose(out, -2, -1))
    return out


def _batched(a, b, result):
    """Step 3 of NOTE [ matmul's graph ]: one bmm over the broadcast batch."""
    n = a.shape[-2] if a.ndim > 1 else 1
    k = a.shape[-1]
    p = b.shape[-1] if b.ndim > 1 else 1
    batch = broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    count = 1
    for s in batch:
        count *= s
    left = reshape(expand(a, batch + (n, k)), (count, n, k))
    column = b if b.ndim > 1 else unsqueeze(b, -1)
    right = reshape(expand(column, batch + (k, p)), (count, k, p))
    product = _recorded(Bmm, left, right, result.reshape((count, n, p)), {})
    if b.ndim == 1:         # (torch drops the column's dim first; a row's goes in the view)
        product = squeeze(product, -1)
    shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return _unsafe_view(product, shape)


def _recorded(op, first, second, data, params):
    """`data` (computed already) as the output of the product `op` of `first` and `second`."""
    out = wrap(data)
    if (first._requires_grad or second._requires_grad) and _grad_state.enabled:
        record(op, (first, second), (out,), params)
    return out


def _unsafe_view(input, shape):
    """torch's `_unsafe_view`: a reshape of a fresh (contiguous) tensor, recorded as
    UnsafeViewBackward0, whose output is no view of it."""
    out = wrap(input._data.reshape(shape))
    if input._requires_grad and _grad_state.enabled:
        record(UnsafeView, (input,), (out,), {"self_size": input._data.shape})
    return out
