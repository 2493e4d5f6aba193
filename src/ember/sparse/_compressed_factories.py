"""The compressed sparse factories: sparse_compressed_tensor and its CSR/CSC/BSR/BSC forms,
with torch's invariant checks (the records themselves are in _compressed.py)."""
import numpy as np

from .._tensor import Tensor
from .._ops._op import Op
from ._compressed import LAYOUT_NAMES, RECORDS
from ._tensor_api import run, wrap
from ._warnings import invariants_implicitly_off


# -- factories ------------------------------------------------------------------------------

def _as_array(x, dtype=None):
    from .._creation import tensor
    return x._data if isinstance(x, Tensor) else tensor(x, dtype=dtype)._data


def sparse_compressed_tensor(compressed_indices, plain_indices, values, size=None, *,
                             dtype=None, layout=None, device=None, pin_memory=False,
                             requires_grad=False, check_invariants=None):
    """A sparse compressed tensor of `layout` from its three arrays (see the module's
    docstring); `size` defaults to the smallest that holds the entries."""
    if check_invariants is None and not _invariants_checked():
        invariants_implicitly_off()
    name = getattr(layout, "name", None)
    if name not in RECORDS:
        got = "none" if layout is None else LAYOUT_NAMES[name]
        raise RuntimeError(f"sparse_compressed_tensor expected sparse compressed tensor layout "
                           f"but got {got}")
    cls = RECORDS[name]
    compressed, plain = _as_array(compressed_indices), _as_array(plain_indices)
    source = values
    vals = _as_array(values, dtype)
    if dtype is not None:
        vals = vals.astype(dtype._np)
    if compressed.dtype != plain.dtype:         # (torch makes both int64)
        compressed, plain = compressed.astype(np.int64), plain.astype(np.int64)
    if cls.blocked and vals.ndim < 3:
        raise RuntimeError(f"values must have dimensionality > sum of batch and block "
                           f"dimensionalities (=0 + 2) but got {vals.ndim}")
    if compressed.ndim != 1:
        raise NotImplementedError("ember: batched sparse compressed tensors are not supported")
    size_given = size is not None
    if size is None:
        block = tuple(vals.shape[1:3]) if cls.blocked else (1, 1)
        lines = compressed.shape[0] - 1
        others = int(plain.max()) + 1 if plain.size else 0
        major, minor = (lines, others) if cls.by_rows else (others, lines)
        size = (major * block[0], minor * block[1]) + tuple(vals.shape[1 + 2 * cls.blocked:])
    shape = tuple(int(n) for n in size)
    if check_invariants or (check_invariants is None and _invariants_checked()):
        _check_invariants(cls, compressed, plain, shape, vals)

    record = cls(compressed, plain, vals.copy(), shape)
    if isinstance(source, Tensor) and source._requires_grad:
        # (torch differentiates the factory given a size; the one that infers it has no
        # derivative)
        node = SparseCompressedTensor if size_given else ValuesCompressedFactory
        result = run(node, (source,), record, {"pattern": record})
    else:
        result = wrap(record)
    if requires_grad:
        result.requires_grad_()
    return result


class SparseCompressedTensor(Op):
    """A compressed tensor made of values that require grad: the values' gradient is the
    incoming gradient at the tensor's entries."""
    node_name = "SparseCompressedTensorBackward0"
    inputs = ("values",)

    def backward(ctx, grad):
        g = grad._data
        pattern = ctx.pattern
        if type(g) is type(pattern) and g.plain is pattern.plain:    # already its entries
            return wrap(g.values)
        dense = g.to_dense() if hasattr(g, "to_dense") else g
        return wrap(pattern.gathered(dense).values)


class ValuesCompressedFactory(Op):
    """The factory that infers the size: recorded, with no derivative."""
    node_name = "NotImplemented"
    inputs = ("values",)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::sparse_compressed_tensor is not implemented")


def _invariants_checked():
    from ._functions import check_sparse_tensor_invariants
    return check_sparse_tensor_invariants.is_enabled()


def _check_invariants(cls, compressed, plain, shape, values):
    """torch's invariant checks of a compressed tensor's arrays, in its order."""
    cname, pname = cls.names
    bh, bw = tuple(values.shape[1:3]) if cls.blocked else (1, 1)
    lines, others = ((shape[0] // bh, shape[1] // bw) if cls.by_rows else
                     (shape[1] // bw, shape[0] // bh))
    if len(shape) < 2:
        return
    what, other_what = ("rows", "ncols") if cls.by_rows else ("columns", "nrows")
    lines_what = "nrows" if cls.by_rows else "ncols"
    if compressed.shape[-1] != lines + 1:
        raise RuntimeError(f"{cname}.shape[-1] must be equal to the number of {what} + 1 "
                           f"(={lines + 1}), but got {compressed.shape[-1]}")
    nnz = plain.shape[-1]
    if compressed[0] != 0:
        raise RuntimeError(f"`{cname}[..., 0] == 0` is not satisfied.")
    if compressed[-1] != nnz:
        raise RuntimeError(f"`{cname}[..., -1] == nnz` is not satisfied.")
    steps = np.diff(compressed)
    if (steps < 0).any() or (steps > others).any():
        raise RuntimeError(f"`0 <= {cname}[..., 1:] - {cname}[..., :-1] <= {other_what}` is "
                           f"not satisfied.")
    if nnz and (plain.min() < 0 or plain.max() >= others):
        raise RuntimeError(f"`0 <= {pname} < {other_what}` is not satisfied.")
    for k in range(lines):
        run_ = plain[compressed[k]:compressed[k + 1]]
        if (np.diff(run_) <= 0).any():
            raise RuntimeError(
                f"`{pname}[..., {cname}[..., i - 1]:{cname}[..., i]] for all i = 1, ..., "
                f"{lines_what} are sorted and distinct along the last dimension values` "
                f"is not satisfied.")


def _factory(layout):
    def factory(compressed_indices, plain_indices, values, size=None, *, dtype=None,
                device=None, pin_memory=False, requires_grad=False, check_invariants=None):
        import ember
        return sparse_compressed_tensor(
            compressed_indices, plain_indices, values, size, dtype=dtype,
            layout=getattr(ember, layout), device=device, requires_grad=requires_grad,
            check_invariants=check_invariants)
    name = f"{layout}_tensor"
    factory.__name__ = factory.__qualname__ = name
    short = layout[7:].upper()
    factory.__doc__ = f"A sparse {short} tensor (see sparse_compressed_tensor)."
    return factory


sparse_csr_tensor = _factory("sparse_csr")
sparse_csc_tensor = _factory("sparse_csc")
sparse_bsr_tensor = _factory("sparse_bsr")
sparse_bsc_tensor = _factory("sparse_bsc")
