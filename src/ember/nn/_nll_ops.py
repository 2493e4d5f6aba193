"""nll_loss (NllLossBackward0, NllLoss2DBackward0) and cross_entropy's common case, which
records torch's two nodes (LogSoftmaxBackward0 under NllLossBackward0) without their dispatch.
"""
import numpy as _np

from .._device import backend_of
from .._tensor import Tensor, wrap
from .._ops import _rounded
from .._ops._lane_sum import row_sums
from .._ops._op import Op, record
from .._ops.activations import apply
from .._ops.dim_activations import LogSoftmax, softmax_exp
from ..autograd.grad_mode import _state as _grad_state
from ._nll_sum import cascade_sum, nll_sums
from ._loss_ops import _kernel_error, _shape_text, reduction_enum


class NllLoss(Op):
    """-weight[t] * input[n, t] per sample. The gradient is grad times a constant pattern
    (-weight[t] at each target class, 0 elsewhere), built only when backward runs."""
    inputs = ("self",)      # (the target is not differentiable: torch lists no edge for it)
    # torch's saved values (packed by saved-tensor hooks, `_saved_target`, ...); backward
    # unpacks them first, so that a target or input written in place since raises torch's
    # error instead of giving the gradient of other targets
    saves = {"self": ("self", "target", "total_weight", "weight")}
    packs = ("self", "target", "weight", "total_weight")
    shows = {"ignore_index": "ignore_index", "reduction": reduction_enum}
    plain_2d = False        # made by _nll_loss_2d
    counted = None          # which targets are not ignore_index (None: all of them)
    weights = None          # each sample's weight (None: all one, a plain_2d node)

    def backward(ctx, grad):
        ctx.saved_tensors       # (the version checks)
        if ctx.plain_2d and not _grad_state.enabled and grad._data.__class__ is _np.ndarray:
            # NOTE: the common case (2-D input, no weight, every target counted, a reduced
            # loss) with no graph of the gradients: the same arithmetic on the arrays.
            # every weight is one: -grad at each sample's class, zeros elsewhere (as torch's)
            # (on NumPy scalars: the same float32/float64 arithmetic as on 0-d arrays)
            g = grad._data[()]
            total = ctx.total_weight._data
            if ctx.reduction == "mean":
                g = g / total[()]
            classes = ctx.classes
            n = len(classes)
            result = _np.zeros((n, ctx.n_classes), total.dtype)
            result[_rows(n), classes] = -g
            return wrap(result)
        if ctx.reduction == "none":
            grad = grad.unsqueeze(ctx.class_dim)
        weights = ctx.weights
        if weights is None:     # (a plain_2d node: every weight is one)
            weights = _np.ones(len(ctx.classes), ctx.total_weight._data.dtype)
        xp = backend_of(weights).xp
        # torch writes -weight * grad (/ total_weight for 'mean') at each counted target and
        # leaves zeros elsewhere: an ignored target gets +0 (not -0), and a batch whose
        # targets are all ignore_index (total weight 0) gets zeros, not 0/0
        keep = xp.arange(ctx.n_classes) == ctx.classes[..., None]
        if ctx.counted is not None:
            keep &= ctx.counted[..., None]
        pattern = -weights[..., None]
        if ctx.reduction == "mean":
            # torch's order: weight * -(grad / total_weight); a zero total weight (every
            # target ignored) divides the pattern instead, which is zero where not counted
            # (no branch on the total: on a GPU that would wait for it)
            total = ctx.total_weight._data
            zero = total == 0
            with _np.errstate(divide="ignore", invalid="ignore"):
                pattern = pattern / xp.where(zero, total, 1).astype(pattern.dtype)
            grad = grad / wrap(xp.where(zero, 1, total).astype(total.dtype))
        pattern = xp.where(keep, pattern, 0)
        # (row-major, as torch's gradient: a sum of it adds in torch's order)
        pattern = xp.ascontiguousarray(xp.moveaxis(pattern, -1, ctx.class_dim),
                                       dtype=weights.dtype)
        return grad * wrap(pattern)


class NllLoss2d(NllLoss):
    node_name = "NllLoss2DBackward0"


def _check_nll_shapes(input, target, weight):
    """torch's checks, in its order: nll_loss's for 1-D and 2-D inputs; nll_loss2d's for 4-D
    ones, which other inputs of more dims are reshaped to after their target's check."""
    x, t = input._data, target._data
    ndim = x.ndim
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    if ndim > 1 and (t.shape[0] if t.ndim else 0) != x.shape[0]:   # (a 0-d target: size 0)
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target "
                         f"batch_size ({t.shape[0] if t.ndim else 0}).")
    if ndim <= 2 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if ndim == 4:
        _check_nll_2d_target(x, t)
    elif ndim > 2:
        expected = x.shape[:1] + x.shape[2:]
        if t.shape != expected:
            raise RuntimeError(f"Expected target size {_shape_text(expected)}, got "
                               f"{_shape_text(t.shape)}")
    if t.dtype.name not in ("int64", "uint8"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{target.dtype._scalar_name}")
    if ndim > 1 and not t.ndim:     # (an empty batch: torch then asks for the size(0))
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if ndim == 1 and t.ndim == 1 and t.shape[0] != 1:     # (checked after the dtype)
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{t.shape[0]}")
    n_classes = x.shape[0 if ndim == 1 else 1]
    if weight is not None and weight.numel() != n_classes:
        if ndim > 2:
            raise RuntimeError("weight tensor should be defined either for all or no classes")
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes "
                           f"or no classes but got weight tensor of shape: "
                           f"{_shape_text(weight.shape)}")
    if ndim > 2 and t.dtype.name == "uint8" and t.size:  # (the 4-D kernel reads it as int64)
        raise RuntimeError("expected scalar type Long but found Byte")
    return n_classes


def _check_nll_2d_target(x, t):
    """nll_loss2d's target checks (a 4-D input: (N, C, H, W) against an (N, H, W) target)."""
    if t.ndim != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {t.ndim}")
    if t.shape != x.shape[:1] + x.shape[2:]:
        raise RuntimeError(f"size mismatch (got input: {_shape_text(x.shape)} , target: "
                           f"{_shape_text(t.shape)}")


def _check_nll_dtypes(input, weight):
    """The kernel's dtypes (after the shape checks): a floating input, a weight of its dtype."""
    if not input.dtype.is_floating_point:
        raise _kernel_error("nll_loss_out_frame" if input.ndim <= 2
                            else "nll_loss2d_forward_out_frame", input.dtype)
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found "
                           f"{weight.dtype._scalar_name}")


def nll_loss(input, target, weight, ignore_index, reduction):
    """The negative log likelihood of class-index targets (input: (N, C, ...) or (C,))."""
    n_classes = _check_nll_shapes(input, target, weight)
    x, t = input._data, target._data
    if weight is None and input.ndim == 2 and x.__class__ is _np.ndarray and t.dtype == _INT64 \
            and t.ndim == 1 and reduction != "none" and x.dtype in _FLOATS and x.shape[0] \
            and not 0 <= ignore_index < n_classes \
            and t.view(_np.uint64).max() < n_classes:
        return _nll_loss_2d(input, target, x, t, n_classes, ignore_index, reduction)
    _check_nll_dtypes(input, weight)
    if input.ndim == 3 or input.ndim > 4:
        return _nll_loss_nd(input, target, weight, ignore_index, reduction)
    xp = backend_of(x).xp
    class_dim = 0 if input.ndim == 1 else 1
    if input.ndim == 1:
        t = t.reshape(())       # (a target of one class index, 0-d or of size 1)
    valid = t != ignore_index
    classes = xp.where(valid, t, 0)
    bad = valid & ((t < 0) | (t >= n_classes))
    # NOTE [ nll_loss target range on CUDA ]: torch's CUDA kernel checks the targets with a
    # device-side assert (an asynchronous "device-side assert triggered" error). ember has no
    # device-side assert, so on a GPU this check reads one bool back: the host waits for the
    # GPU once per loss (the one host sync of a CUDA training step; tests/cuda count them),
    # which buys torch's clear error instead of a silently wrong or NaN loss.
    if not input.is_meta and bad.any():
        raise IndexError(f"Target {int(t[bad].reshape(-1)[0])} is out of bounds.")
    if input.ndim == 2:
        picked = x[xp.arange(x.shape[0]), classes]
    else:
        last = xp.moveaxis(x, class_dim, -1)
        picked = xp.take_along_axis(last, classes[..., None], -1)[..., 0]
    w = (weight.detach()._data.astype(x.dtype)[classes] if weight is not None
         else xp.ones(classes.shape, x.dtype)) * valid
    # (torch's kernel for a 1-D input accumulates from zero: 0 - x*w, so +0 where x*w is 0)
    losses = 0 - picked * w if input.ndim == 1 else -picked * w
    if input.ndim in (2, 4) and xp is _np and reduction != "none" and losses.size:
        # (torch's order of the sums, over the rows or the positions in order: NOTE [
        # nll_loss's cascade sum ])
        loss_sum, total = nll_sums(losses.reshape(-1), None if weight is None else
                                   w.reshape(-1), None if valid.all() else valid.reshape(-1))
    else:
        loss_sum, total = losses.sum(), w.sum()
    if reduction == "none":     # (an ignored target's loss is +0, not -0 * 0)
        result = xp.where(valid, losses, 0).astype(x.dtype)
    elif reduction == "sum":
        result = xp.asarray(loss_sum, dtype=x.dtype)
    else:
        with _np.errstate(invalid="ignore"):    # every target ignored: 0 / 0, quietly NaN
            result = xp.asarray(xp.asarray(loss_sum, x.dtype) / xp.asarray(total, x.dtype),
                                dtype=x.dtype)
    op = NllLoss2d if input.ndim > 2 else NllLoss
    return apply(op, (input,), result,
                 {"reduction": reduction, "ignore_index": ignore_index,
                  "class_dim": class_dim, "n_classes": n_classes,
                  "classes": xp.asarray(classes), "weights": xp.asarray(w, dtype=x.dtype),
                  "counted": valid, "total_weight": wrap(xp.asarray(total, dtype=x.dtype)),
                  "target": target, "weight": weight})


def _nll_loss_nd(input, target, weight, ignore_index, reduction):
    """A 3-D or 5-D-and-up input, as torch takes it: viewed as (N, C, 1, -1) (the target as
    (N, 1, -1)) for the 4-D kernel, and an unreduced loss viewed back to the target's shape
    (so the graph holds ViewBackward0 on both sides of NllLoss2DBackward0)."""
    n, c = input.shape[0], input.shape[1]
    flat = (n, c, 1, -1) if input.numel() else (n, c, 0, 0)
    flat_target = (n, 1, -1) if target.numel() else (n, 0, 0)
    out = nll_loss(input.contiguous().view(flat), target.contiguous().view(flat_target),
                   weight, ignore_index, reduction)
    return out.view(tuple(target.shape)) if reduction == "none" else out


def _nll_loss_2d(input, target, x, t, n_classes, ignore_index, reduction):
    """nll_loss of a 2-D float input, every target in range and counted, no weight: the
    general path's arithmetic (weights of one, their count as the total) without its masks."""
    n = x.shape[0]
    total = x.dtype.type(n)
    # (negated before the sum, as torch, in torch's order: NOTE [ nll_loss's cascade sum ])
    losses = cascade_sum(0 - x[_rows(n), t], None, n)
    out = wrap(_np.asarray(losses if reduction == "sum" else losses / total))
    if input._requires_grad and _grad_state.enabled:
        record(NllLoss, (input,), (out,),
               {"reduction": reduction, "ignore_index": ignore_index, "class_dim": 1,
                "n_classes": n_classes, "classes": t, "target": target, "weight": None,
                "total_weight": wrap(_np.asarray(total)),
                "plain_2d": True})
    return out


_ROWS = {}      # n -> arange(n), read-only: the row indices of a batch of n


def _rows(n):
    rows = _ROWS.get(n)
    if rows is None:
        if len(_ROWS) >= 64:
            _ROWS.clear()
        rows = _ROWS[n] = _np.arange(n)
        rows.flags.writeable = False
    return rows


_INT64 = _np.dtype("int64")
_UINT64 = _np.dtype("uint64")
_MAX = _np.maximum.reduce
_FLOATS = (_np.dtype("float32"), _np.dtype("float64"))
_amp = None     # ember.amp._policy, once cross_entropy_2d has run
_DIM_1 = {"dim": 1}     # (record copies params into the node: one dict serves every call)


def cross_entropy_2d(input, target, ignore_index, reduction):
    """cross_entropy's common case, or None: a float (N, C) input, N class indices all in range
    and counted, no weight, no label smoothing, a reduced loss. The graph is the general
    path's (NllLossBackward0 over LogSoftmaxBackward0) and so are the numbers (log_softmax's
    and _nll_loss_2d's arithmetic); only the checks and dispatch of two ops are skipped."""
    global _amp
    if _amp is None:
        from ..amp import _policy as _amp   # (not at import: ember.amp wraps nn's functions)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        return None
    x, t = input._data, target._data
    if x.__class__ is not _np.ndarray or t.__class__ is not _np.ndarray or x.ndim != 2 \
            or t.ndim != 1 or x.dtype not in _FLOATS or t.dtype != _INT64 or _amp._ACTIVE \
            or reduction == "none" or not x.shape[0] or x.shape[0] != t.shape[0]:
        return None
    n_classes = x.shape[1]
    if 0 <= ignore_index < n_classes or not n_classes or _MAX(t.view(_UINT64)) >= n_classes:
        return None
    shifted = x - _MAX(x, axis=1, keepdims=True)
    # (log_softmax's arithmetic, its sums in torch's order: NOTE [ Softmax's row sums ])
    logp = wrap(shifted - _rounded.np_log(row_sums(softmax_exp(shifted, 1))))
    if input._requires_grad and _grad_state.enabled:
        record(LogSoftmax, (input,), (logp,), _DIM_1)
    return _nll_loss_2d(logp, target, logp._data, t, n_classes, ignore_index, reduction)
