"""ember.nn.functional: embedding lookups (embedding, embedding_bag). one_hot lives in
functional.py."""
import numpy as np

from .. import _dtype
from .._device import backend_of
from .._dtype import promote_types
from .._printing import cpp_type_name
from .._tensor import INFERENCE_SAVED, Tensor, wrap
from ._argument_types import attribute_error, check_int, tensors
from .._ops._fused import fma
from .._ops._op import Op
from .._ops.activations import apply
from ..autograd.grad_mode import is_grad_enabled, no_grad

__all__ = ["embedding", "embedding_bag"]


class Embedding(Op):
    """Rows of `weight` picked by integer indices. The weight's gradient adds each output
    row's gradient into the row it came from (none into `padding_idx`), divided by the
    index's count in the batch when `scale_grad_by_freq`."""
    inputs = ("weight",)
    frees = True                # (torch saves the indices)

    sparse = False
    shows = {"indices": "indices", "padding_idx": "padding_idx",
             "scale_grad_by_freq": "scale_grad_by_freq", "sparse": "sparse",
             "weight_sym_argsize_0": "num_weights"}

    def backward(ctx, grad):
        from .._creation import zeros
        idx = ctx.indices.reshape(-1)
        rows = grad.reshape(-1, grad.shape[-1])
        if ctx.sparse:
            return _sparse_embedding_grad(ctx, idx, rows)
        if ctx.padding_idx >= 0:
            rows = rows * (idx != ctx.padding_idx).unsqueeze(1).to(rows.dtype)
        if ctx.scale_grad_by_freq:
            counts = idx.bincount(minlength=ctx.num_weights)[idx]
            rows = rows / counts.unsqueeze(1).to(rows.dtype)
        grad_weight = zeros((ctx.num_weights, rows.shape[-1]), dtype=grad.dtype,
                            device=grad.device)
        return grad_weight.index_add(0, idx, rows)


def _sparse_embedding_grad(ctx, idx, rows):
    """The weight's gradient as torch gives it for sparse=True: a sparse COO tensor with one
    entry per looked-up index (none for padding_idx), uncoalesced."""
    from ..sparse._tensor_api import rows_gradient
    if ctx.scale_grad_by_freq:
        raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse "
                           "gradients")
    keep = idx._data != ctx.padding_idx if ctx.padding_idx >= 0 else None
    return rows_gradient(idx._data, rows._data, ctx.num_weights, keep)


def _check_indices(input, fn, position=1):
    if not isinstance(input, Tensor) or input.dtype._name not in ("int64", "int32"):
        name = cpp_type_name(input) if isinstance(input, Tensor) else type(input).__name__
        raise RuntimeError(f"Expected tensor for argument #{position} 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {name} instead (while "
                           f"checking arguments for {fn})")


def _host(t):
    return backend_of(t._data).to_numpy(t._data)


def _padding_index(padding_idx, num_weights, text="Padding_idx must be within num_embeddings"):
    """padding_idx counted from 0 (-1 for None), checked in torch's order of comparisons."""
    if padding_idx is None:
        return -1
    if padding_idx > 0:
        if not padding_idx < num_weights:
            raise AssertionError(text)
    elif padding_idx < 0:
        if not padding_idx >= -num_weights:
            raise AssertionError(text)
        return padding_idx + num_weights
    return padding_idx


def _renorm_(weight, indices, max_norm, norm_type):
    """Scale, in place, the rows of `weight` that `indices` use whose norm exceeds max_norm
    (to max_norm / (norm + 1e-7)), as torch.embedding_renorm_ does."""
    xp = backend_of(weight._data).xp
    rows = xp.unique(indices._data.reshape(-1))
    if rows.size and (rows.min() < 0 or rows.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    with no_grad():
        picked = weight[wrap(rows)]
        norms = picked.norm(p=norm_type, dim=1, keepdim=True)
        # NOTE: only rows above max_norm: a row already renormed sits just below it, and
        # max_norm / (norm + 1e-7) would shrink it again on every call. torch reads each
        # norm as a double: the comparison and the scale are float64 (2 + 1e-7 is 2 in
        # float32, and a row of norm 2 would come out at exactly max_norm 1), and the scale
        # is rounded to the weight's dtype for the product.
        norms = norms._data.astype(np.float64)
        scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight[wrap(rows)] = picked * wrap(scale.astype(picked._data.dtype))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """weight[input]: one row of `weight` (num_embeddings, embedding_dim) per index.

    The `padding_idx` row gets no gradient; with `max_norm`, the rows used are first rescaled
    in place to at most that norm.
    """
    if not isinstance(weight, Tensor):
        if padding_idx:         # (torch's Python compares it with weight.size(0) first)
            raise attribute_error(weight, "size")
        # (torch's F.embedding calls torch.embedding(weight, input, ...))
        tensors("embedding", (1, "weight", weight, False), (2, "indices", input, False))
    num = weight.shape[0] if weight.ndim else 0
    padding = _padding_index(padding_idx, num)
    if padding_idx.__class__ is not int and padding_idx is not None:
        check_int("embedding", "padding_idx", 3, padding_idx)
    if max_norm is not None:
        _check_indices(input, "embedding_renorm_", 2)
        _renorm_(weight, input, max_norm, norm_type)
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if not isinstance(input, Tensor):
        from .._ops.argument_errors import type_name
        raise TypeError(f"embedding(): argument 'indices' (position 2) must be Tensor, not "
                        f"{type_name(input)}")
    _check_indices(input, "embedding")
    _refuse_inference_indices(weight, input)
    idx = input._data
    if idx.size and not (input.is_meta or weight.is_meta) and (idx.min() < 0 or idx.max() >= num):
        if not num:     # torch's index_select refuses an empty table before the range check
            raise RuntimeError("index_select(): self indexing axis dim should be positive")
        raise IndexError("index out of range in self")
    xp = backend_of(weight._data).xp
    result = xp.take(weight._data, idx.reshape(-1) % max(num, 1), axis=0)
    result = result.reshape(idx.shape + (weight.shape[1],))
    params = {"indices": wrap(xp.asarray(idx % max(num, 1))), "padding_idx": padding,
              "num_weights": num, "scale_grad_by_freq": scale_grad_by_freq}
    if sparse:
        params["sparse"] = True
    return apply(Embedding, (weight,), result, params)


def _refuse_inference_indices(weight, *indices):
    """torch's embedding nodes save the indices (offsets, per-sample weights): one made in
    inference mode is refused where the weight's gradient is recorded (NOTE [ Inference
    tensors ] in _tensor.py)."""
    if not (weight.requires_grad and is_grad_enabled()):
        return
    for t in indices:
        if t is not None and t._storage is not None and t._storage.inference:
            raise RuntimeError(INFERENCE_SAVED)


_MODES = ("sum", "mean", "max")
_BAG_WEIGHTS = (_dtype.float16, _dtype.bfloat16, _dtype.float32, _dtype.float64)


class EmbeddingBag(Op):
    """Bags of rows of `weight`, each reduced to one row (sum, mean or max). Every element
    of a bag adds `scale` times its bag's gradient into its row (max: only the maximal
    elements, per column); per_sample_weights get the dot product of row and gradient."""
    inputs = ("weight", "per_sample_weights")
    saves = {"per_sample_weights": ("weight",)}
    frees = True                # (torch saves the indices and offsets)
    sparse = False

    def backward(ctx, grad):
        from .._creation import zeros
        need_weight, need_psw = ctx.needs_input_grad
        bag, idx = wrap(ctx.bag), wrap(ctx.idx)
        gw = gp = None
        if grad.shape[0] == 0:              # no bags: nothing flows back
            grad = zeros((1, grad.shape[1]), dtype=grad.dtype, device=grad.device)
        if need_weight:
            num, dim = ctx.weight_shape
            gw = zeros((num, dim), dtype=grad.dtype, device=grad.device)
            if ctx.mode == "max":
                # NOTE: the flat position (row * dim + column) of each bag's maximum
                pos, src = wrap(ctx.max_pos), wrap(ctx.max_bag_pos)
                gw = gw.reshape(-1).index_add(0, pos, grad.reshape(-1)[src]).reshape(num, dim)
            else:
                rows = grad[bag] * wrap(ctx.scale).unsqueeze(1)
                if ctx.sparse:
                    from ..sparse._tensor_api import rows_gradient
                    gw = rows_gradient(idx._data, rows._data, num, ctx.sparse_keep)
                else:
                    gw = gw.index_add(0, idx, rows)
        if need_psw:
            (weight,) = ctx.saved_tensors
            gp = (grad[bag] * weight[idx]).sum(1) * wrap(ctx.keep)
        return gw, gp


def _type_text(value):
    """str(type(value)), with ember's Tensor named as torch names its own."""
    return "<class 'torch.Tensor'>" if type(value) is Tensor else str(type(value))


def _offsets_type(input, offsets):
    """The type torch's offsets have after it meets indices and offsets in one integer type."""
    both_int = input.dtype._name == "int32" and offsets.dtype._name == "int32"
    return "torch.IntTensor" if both_int else "torch.LongTensor"


def _add_weighted_rows(out, bags, rows, weights):
    """out[bag] += weight * row for each (bag, row, weight) in order, each a fused
    multiply-add rounded once, as torch's kernel (fbgemm's) sums a bag with
    per_sample_weights: the k-th rows of all bags in the k-th round."""
    if not len(bags):
        return
    starts = np.flatnonzero(np.r_[True, bags[1:] != bags[:-1]])    # (a bag's rows are
    sizes = np.diff(np.r_[starts, len(bags)])                      # consecutive)
    rank = np.arange(len(bags)) - np.repeat(starts, sizes)
    for k in range(int(sizes.max())):
        picked = np.flatnonzero(rank == k)
        at = bags[picked]
        out[at] = fma(weights[picked, None], rows[picked], out[at])


def _bags(input, offsets, include_last_offset, per_sample_weights, extend_last=False):
    """(flat indices, bag of each element, number of bags, flat per-sample weights).
    `extend_last`: with include_last_offset, the last bag runs to the end of the input
    (torch's generic kernels: with a padding_idx, for max, for float64) rather than to the
    last offset."""
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {_type_text(offsets)}")
        b, n = input.shape
        if n == 0:      # (torch's offsets are arange(0, numel, n))
            raise RuntimeError("step must be nonzero")
        psw = None if per_sample_weights is None else per_sample_weights.reshape(-1)
        return input.reshape(-1), np.repeat(np.arange(b), n), b, psw
    if input.ndim != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.ndim}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if offsets.ndim != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    if offsets.is_floating_point() or offsets.is_complex():
        _check_indices(offsets, "embedding_bag")    # torch's text: it calls them 'indices'
    if input.dtype is not offsets.dtype:
        # torch casts indices and offsets to their promoted type before it checks the
        # indices: int8 (or bool) indices with int64 offsets are int64 indices
        input = input.to(promote_types(input.dtype, offsets.dtype))
    starts = [int(v) for v in offsets.tolist()]
    length = input.shape[0]
    if starts and starts[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {starts[0]}\n"
                           f"[ {_offsets_type(input, offsets)}{{}} ]")   # offsets[0], 0-d
    if starts and starts[-1] > length:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {length} but "
                           f"got offsets[-1] of {starts[-1]}")
    if include_last_offset:
        end = length if extend_last else (starts[-1] if starts else 0)
        starts = starts[:-1]
    else:
        end = length
    marks = np.zeros(length, dtype=np.int64)
    for s in starts[1:]:
        if s < length:
            marks[s] += 1
    bag = np.cumsum(marks)
    bag[end:] = -1                              # elements past the last bag
    return input, bag, len(starts), per_sample_weights


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
                  scale_grad_by_freq=False, mode="mean", sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """Sums, means or maxima of bags of embedding rows, without building the rows. `input` is
    (B, N) (B bags of N) or 1-D with `offsets` (where each bag starts); the `padding_idx`
    entries are left out of every bag."""
    if not isinstance(weight, Tensor):      # (torch's Python reads weight.dtype first)
        raise attribute_error(weight, "dtype")
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         f"not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if sparse and mode == "max":
        raise ValueError("max mode does not support sparse weights")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' "
                                  f"(got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    # NOTE: torch's fast kernels (fbgemm's: float32 and half weights, no padding_idx, sum or
    # mean) stop the last bag at the last offset and add weighted rows with fused
    # multiply-adds; its generic ones run the last bag to the end of the input
    fast = padding_idx is None and mode != "max" and weight.dtype is not _dtype.float64
    flat, bag, count, psw = _bags(input, offsets, include_last_offset, per_sample_weights,
                                  extend_last=not fast)
    _check_indices(flat, "embedding_bag")
    if weight.dtype not in _BAG_WEIGHTS:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have one of the "
                           f"following scalar types: Half, BFloat16, Float, Double; but got "
                           f"{cpp_type_name(weight)} instead (while checking arguments for "
                           f"embedding_bag)")
    _refuse_inference_indices(weight, input, offsets, per_sample_weights)
    if psw is not None and psw.dtype != weight.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as "
                           f"tensor for argument #1 'per_sample_weights'; but type "
                           f"{weight.type()} does not equal {psw.type()} (while checking "
                           f"arguments for embedding_bag)")
    num, dim = weight.shape
    # NOTE: the bags are reduced in host memory (np.add/maximum.at); the results go back to
    # the weight's device.
    idx = _host(flat).astype(np.int64)
    bad = np.nonzero((idx < 0) | (idx >= num))[0]
    if bad.size:
        raise RuntimeError(f"Index {bad[0]} of input takes value {idx[bad[0]]} which is not in "
                           f"the valid range [0, {num})")
    if max_norm is not None:
        _renorm_(weight, flat, max_norm, norm_type)
    if padding_idx is not None and not -num <= padding_idx < num:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num} "
                           f"through {num - 1}, but got {padding_idx}")
    padding = _padding_index(padding_idx, num)
    keep = (bag >= 0) & (idx != padding)
    xp = backend_of(weight._data).xp
    w = _host(weight)
    rows = w[idx]
    scale = keep.astype(w.dtype)
    if psw is not None:
        scale = scale * _host(psw).astype(w.dtype)
    sizes = np.bincount(bag[keep], minlength=count)[:count]
    params = {"mode": mode, "weight_shape": (num, dim), "keep": xp.asarray(keep.astype(w.dtype))}
    if mode == "max":
        out = np.full((count, dim), -np.inf, dtype=w.dtype)
        np.maximum.at(out, bag[keep], rows[keep])
        # the first element reaching each maximum takes its gradient
        first = np.full((count, dim), len(idx), dtype=np.int64)
        hit = keep[:, None] & (rows == out[np.where(keep, bag, 0)]) if count else \
            np.zeros(rows.shape, dtype=bool)
        elements, cols = np.nonzero(hit)
        np.minimum.at(first, (bag[elements], cols), elements)
        filled = first < len(idx)
        bags_, cols_ = np.nonzero(filled)
        params["max_pos"] = xp.asarray(idx[first[filled]] * dim + cols_)
        params["max_bag_pos"] = xp.asarray(bags_ * dim + cols_)
        out[sizes == 0] = 0
    else:
        out = np.zeros((count, dim), dtype=w.dtype)
        if psw is not None and fast and w.dtype == np.float32:
            _add_weighted_rows(out, bag[keep], rows[keep], scale[keep])
        else:
            np.add.at(out, bag[keep], rows[keep] * scale[keep, None])
        if mode == "mean":
            # NOTE: with include_last_offset, torch counts the indices after the last offset
            # into the last bag's size (its divisor) though it does not sum them.
            # Its backward then gives those indices the last bag's gradient share too.
            trailing = (bag < 0) & (idx != padding) if count and include_last_offset else \
                np.zeros(len(idx), dtype=bool)
            divisor = sizes.copy()
            if trailing.any():
                divisor[count - 1] += np.count_nonzero(trailing)
                keep, bag = keep | trailing, np.where(trailing, count - 1, bag)
                scale = keep.astype(w.dtype)
            out /= np.maximum(divisor, 1)[:, None]
            scale = scale / np.maximum(divisor, 1)[np.where(keep, bag, 0)] if count else scale
        if scale_grad_by_freq:
            scale = scale / np.bincount(idx, minlength=num)[idx]
    params.update(bag=xp.asarray(np.where(keep, bag, 0)), idx=xp.asarray(idx),
                  scale=xp.asarray(scale.astype(w.dtype)))
    if sparse:      # (the sparse gradient leaves padding_idx's entries out)
        params["sparse"] = True
        params["sparse_keep"] = idx != padding
    return apply(EmbeddingBag, (weight, psw), xp.asarray(out), params)
