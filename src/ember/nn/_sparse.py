"""ember.nn.functional: embedding lookups (embedding, embedding_bag). one_hot lives in
functional.py."""
from .._device import backend_of
from .._printing import legacy_type_name
from .._tensor import Tensor, wrap
from .._ops._op import Op
from .._ops.activations import apply
from ..autograd.grad_mode import _state as _grad_state, no_grad

__all__ = ["embedding", "embedding_bag"]


class Embedding(Op):
    """Rows of `weight` picked by integer indices. The weight's gradient adds each output
    row's gradient into the row it came from (none into `padding_idx`), divided by the
    index's count in the batch when `scale_grad_by_freq`."""
    inputs = ("weight",)

    def backward(ctx, grad):
        from .._creation import zeros
        idx = ctx.indices.reshape(-1)
        rows = grad.reshape(-1, grad.shape[-1])
        if ctx.padding_idx >= 0:
            rows = rows * (idx != ctx.padding_idx).unsqueeze(1).to(rows.dtype)
        if ctx.scale_grad_by_freq:
            counts = idx.bincount(minlength=ctx.num_weights)[idx]
            rows = rows / counts.unsqueeze(1).to(rows.dtype)
        grad_weight = zeros((ctx.num_weights, rows.shape[-1]), dtype=grad.dtype,
                            device=grad.device)
        return grad_weight.index_add(0, idx, rows)


def _check_indices(input, fn, position=1):
    if not isinstance(input, Tensor) or input.dtype._name not in ("int64", "int32"):
        name = legacy_type_name(input) if isinstance(input, Tensor) else type(input).__name__
        raise RuntimeError(f"Expected tensor for argument #{position} 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {name} instead (while "
                           f"checking arguments for {fn})")


def _padding_index(padding_idx, num_weights):
    if padding_idx is None:
        return -1
    if not -num_weights <= padding_idx < num_weights:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx + num_weights if padding_idx < 0 else padding_idx


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
        scale = (max_norm / (norms + 1e-7)).clamp(max=1.0)
        weight[wrap(rows)] = picked * scale.to(picked.dtype)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """weight[input]: one row of `weight` (num_embeddings, embedding_dim) per index.

    The `padding_idx` row gets no gradient; with `max_norm`, the rows used are first rescaled
    in place to at most that norm.
    """
    num = weight.shape[0] if weight.ndim else 0
    padding = _padding_index(padding_idx, num)
    if max_norm is not None:
        _check_indices(input, "embedding_renorm_", 2)
        _renorm_(weight, input, max_norm, norm_type)
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(input, "embedding")
    idx = input._data
    if idx.size and (idx.min() < -num or idx.max() >= num):
        raise IndexError("index out of range in self")
    xp = backend_of(weight._data).xp
    result = xp.take(weight._data, idx.reshape(-1) % max(num, 1), axis=0)
    result = result.reshape(idx.shape + (weight.shape[1],))
    if sparse and _grad_state.enabled and weight.requires_grad:
        raise NotImplementedError("ember has no sparse tensors: embedding with sparse=True "
                                  "cannot produce a sparse gradient; use sparse=False")
    return apply(Embedding, (weight,), result,
                 {"indices": wrap(xp.asarray(idx % max(num, 1))), "padding_idx": padding,
                  "num_weights": num, "scale_grad_by_freq": scale_grad_by_freq})


_MODES = ("sum", "mean", "max")


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
                  scale_grad_by_freq=False, mode="mean", sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """Sums, means or maxima of bags of embedding rows, without the intermediate (composed of
    embedding and segment reductions). `input` is (B, N) (fixed-size bags) or 1-D with
    `offsets` (where each bag starts)."""
    from .._creation import zeros
    from .._ops.joining import stack
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' "
                                  f"(got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {type(offsets)}")
        b, n = input.shape
        starts = list(range(0, b * n, n))
        flat = input.reshape(-1)
        psw = None if per_sample_weights is None else per_sample_weights.reshape(-1)
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.ndim != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        starts = offsets.tolist()
        if include_last_offset:
            starts = starts[:-1]
        flat, psw = input, per_sample_weights
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.ndim}")
    _check_indices(flat, "embedding_bag")
    bad = ((flat < 0) | (flat >= weight.shape[0])).nonzero()
    if bad.numel():
        k = int(bad[0, 0])
        raise RuntimeError(f"Index {k} of input takes value {int(flat[k])} which is not in the "
                           f"valid range [0, {weight.shape[0]})")
    rows = embedding(flat, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq,
                     sparse)
    if psw is not None:
        rows = rows * psw.unsqueeze(1)
    keep = None
    if padding_idx is not None:
        keep = (flat != _padding_index(padding_idx, weight.shape[0])).to(rows.dtype)
    ends = starts[1:] + [flat.shape[0] if not include_last_offset or input.ndim == 2
                         else int(offsets[-1])]
    bags = []
    for start, end in zip(starts, ends):
        part = rows[start:end]
        if keep is not None:
            mask = keep[start:end]
            if mode == "max":
                part = part[mask.bool()]
            else:
                part = part * mask.unsqueeze(1)
        count = part.shape[0] if keep is None or mode == "max" else mask.sum()
        if part.shape[0] == 0:
            bags.append(zeros(weight.shape[1], dtype=weight.dtype, device=weight.device))
        elif mode == "sum":
            bags.append(part.sum(0))
        elif mode == "mean":
            bags.append(part.sum(0) / (count.clamp(min=1) if isinstance(count, Tensor)
                                       else count))
        else:
            bags.append(part.max(0).values)
    if not bags:
        return zeros((0, weight.shape[1]), dtype=weight.dtype, device=weight.device)
    return stack(bags)
