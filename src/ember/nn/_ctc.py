"""The connectionist temporal classification loss (ctc_loss): the forward (alpha) recursion over
each target with blanks interleaved, and the gradient from the backward (beta) recursion, in
log space on arrays."""
import numpy as np

from .. import _dtype
from .._device import backend_of
from .._foreach import _bad_arguments
from .._tensor import Tensor, wrap
from .._ops._op import Op
from .._ops.activations import apply
from ..autograd.grad_mode import _state as _grad_state
from ._loss_ops import check_reduction

__all__ = ["ctc_loss"]

_NEG_INF = -np.inf


class CtcLoss(Op):
    """Per-sample -log p(target | log_probs). As torch's kernel does, the gradient given for
    log_probs[t, n, c] is exp(log_probs) - (posterior of c at t) for t < input_length (the
    gradient with respect to the logits of a log_softmax, which passes through log_softmax's
    backward unchanged); 0 beyond. It is computed when backward runs, once differentiable."""
    node_name = "CtcLossBackward0"
    inputs = ("log_probs", "targets")
    saves = {"log_probs": ("log_probs",)}

    def backward(ctx, grad):
        pattern = wrap(_gradient(ctx))
        if _grad_state.enabled:             # create_graph: record a node that refuses
            (log_probs,) = ctx.saved_tensors
            pattern = apply(_CtcLossBackward, (log_probs,), pattern._data, None)
        return pattern * grad.reshape(1, -1, 1), None


class _CtcLossBackward(Op):
    """The gradient as a function of log_probs: torch has no derivative for it."""
    node_name = "CtcLossBackwardBackward0"
    inputs = ("log_probs",)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


def _lengths(value, name, batch):
    if isinstance(value, Tensor):
        if value.is_floating_point() or value.is_complex():
            raise RuntimeError(f"{name} must be integral")
        values = [int(v) for v in value.reshape(-1).tolist()]
    elif isinstance(value, (list, tuple)):
        values = [int(v) for v in value]
    else:
        values = [int(value)]
    if len(values) != batch:
        raise RuntimeError(f"{name} must be of size batch_size")
    return values


def _extended_labels(targets, target_lengths):
    """(N, 2 S + 1) labels with a blank (-1 here) before, between and after each target's
    labels, and the (N,) lengths 2 L + 1."""
    n = len(target_lengths)
    width = 2 * max(target_lengths, default=0) + 1
    labels = np.full((n, width), -1, dtype=np.int64)
    for i, seq in enumerate(targets):
        labels[i, 1:2 * len(seq):2] = seq
    return labels, np.array([2 * k + 1 for k in target_lengths], dtype=np.int64)


def _skip_allowed(labels):
    """Whether position s may be reached from s - 2: a label differing from the one before."""
    allowed = np.zeros(labels.shape, dtype=bool)
    allowed[:, 2:] = (labels[:, 2:] >= 0) & (labels[:, 2:] != labels[:, :-2])
    return allowed


def _emissions(lp, labels, blank):
    """lp[t, n, label of s] for each (t, n, s): (T, N, S)."""
    index = np.where(labels < 0, blank, labels)
    return np.take_along_axis(lp, np.broadcast_to(index[None], (lp.shape[0],) + index.shape),
                              axis=2)


def _shift(a, k):
    out = np.full(a.shape, _NEG_INF)
    if k > 0:
        out[:, k:] = a[:, :-k]
    else:
        out[:, :k] = a[:, -k:]
    return out


def _alphas(emit, labels, ext_lengths, input_lengths):
    t_max, n, s = emit.shape
    inside = np.arange(s)[None, :] < ext_lengths[:, None]
    skip = _skip_allowed(labels)
    alpha = np.full((t_max, n, s), _NEG_INF)
    if t_max == 0:
        return alpha
    alpha[0, :, 0] = emit[0, :, 0]
    alpha[0, :, 1:2] = np.where(ext_lengths[:, None] > 1, emit[0, :, 1:2], _NEG_INF)
    for t in range(1, t_max):
        prev = alpha[t - 1]
        total = np.logaddexp(prev, _shift(prev, 1))
        total = np.where(skip, np.logaddexp(total, _shift(prev, 2)), total)
        alpha[t] = np.where(inside, total + emit[t], _NEG_INF)
    return alpha


def _betas(emit, labels, ext_lengths, input_lengths):
    t_max, n, s = emit.shape
    inside = np.arange(s)[None, :] < ext_lengths[:, None]
    skip_next = np.zeros(labels.shape, dtype=bool)    # s + 2 may be reached from s
    skip_next[:, :-2] = _skip_allowed(labels)[:, 2:]
    beta = np.full((t_max, n, s), _NEG_INF)
    last = np.arange(s)[None, :] >= ext_lengths[:, None] - 2
    for t in range(t_max - 1, -1, -1):
        start = (input_lengths == t + 1)[:, None] & last & inside
        if t + 1 < t_max:
            nxt = beta[t + 1]
            total = np.logaddexp(nxt, _shift(nxt, -1))
            total = np.where(skip_next, np.logaddexp(total, _shift(nxt, -2)), total)
            total = np.where(inside, total + emit[t], _NEG_INF)
        else:
            total = np.full((n, s), _NEG_INF)
        beta[t] = np.where(start, emit[t], total)
    return beta


def _gradient(ctx):
    lp, labels, blank = ctx.lp, ctx.labels, ctx.blank
    emit = _emissions(lp, labels, blank)
    beta = _betas(emit, labels, ctx.ext_lengths, ctx.input_lengths)
    ab = ctx.alpha + beta                                   # (T, N, S)
    top = ab.max(axis=2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    classes = np.where(labels < 0, blank, labels)
    onehot = (classes[:, :, None] == np.arange(lp.shape[2])).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lcab = np.log(np.einsum("tns,nsc->tnc", np.exp(ab - top), onehot)) + top
        grad = np.exp(lp) - np.exp(lcab + ctx.nll[None, :, None] - lp)
    live = np.arange(lp.shape[0])[:, None] < ctx.input_lengths[None, :]
    grad = np.where(live[:, :, None], grad, 0.0)
    if ctx.zero_infinity:
        grad = np.where(np.isinf(ctx.nll)[None, :, None], 0.0, grad)
    xp = ctx.xp
    return xp.asarray(grad.astype(ctx.dtype))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """The CTC loss of log-probabilities (T, N, C) (or (T, C)) against targets, padded (N, S) or
    concatenated (sum(target_lengths),); 'mean' divides each loss by its target length before
    averaging over the batch."""
    if not (isinstance(input_lengths, Tensor) and isinstance(target_lengths, Tensor)
            or isinstance(input_lengths, (list, tuple))
            and isinstance(target_lengths, (list, tuple))):
        # torch.ctc_loss has two overloads: both lengths tensors, or both sequences of ints
        raise _bad_arguments("ctc_loss", (log_probs, targets, input_lengths, target_lengths,
                                          blank, 0, zero_infinity))
    check_reduction(reduction)
    unbatched = log_probs.ndim != 3
    if unbatched:       # NOTE: torch unsqueezes any other dims, then checks for three
        # (the targets stay as given: a batch of one, concatenated (S,) or padded (1, S))
        log_probs = log_probs.unsqueeze(1)
        if isinstance(input_lengths, Tensor):
            input_lengths = input_lengths.unsqueeze(0)
        if isinstance(target_lengths, Tensor):
            target_lengths = target_lengths.unsqueeze(0)
    if log_probs.ndim != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.ndim}-dimensional "
                           f"tensor for argument #1 'log_probs' (while checking arguments for "
                           f"ctc_loss_allocate_outputs)")
    if log_probs.numel() == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    if log_probs.dtype not in (_dtype.float32, _dtype.float64):
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for "
                                  f"'{log_probs.dtype._scalar_name}'")
    # torch's checks, in its order
    where = "while checking arguments for ctc_loss_allocate_outputs"
    if not 1 <= targets.ndim <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional "
                           f"tensor for argument #2 'targets' ({where})")
    t_max, n, c = log_probs.shape
    if not 0 <= blank < c:
        raise RuntimeError("blank must be in label range")
    in_lens = _lengths(input_lengths, "input_lengths", n)
    tg_lens = _lengths(target_lengths, "target_lengths", n)
    for length in tg_lens:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got "
                               f"value {length} ({where})")
    tg = targets._data.get() if hasattr(targets._data, "get") else targets._data
    if targets.ndim == 1:
        if tg.shape[0] != sum(tg_lens):
            raise RuntimeError(f"Expected tensor to have size {sum(tg_lens)} at dimension 0, but "
                               f"got size {tg.shape[0]} for argument #2 'targets' ({where})")
        bounds = np.cumsum([0] + tg_lens)
        seqs = [np.asarray(tg[bounds[i]:bounds[i + 1]]) for i in range(n)]
    else:
        if tg.shape[0] != n:
            raise RuntimeError(f"Expected tensor to have size {n} at dimension 0, but got size "
                               f"{tg.shape[0]} for argument #2 'targets' ({where})")
        if tg_lens and tg.shape[1] < max(tg_lens):
            raise RuntimeError(f"Expected tensor to have size at least {max(tg_lens)} at "
                               f"dimension 1, but got size {tg.shape[1]} for argument #2 "
                               f"'targets' ({where})")
        seqs = [np.asarray(tg[i, :tg_lens[i]]) for i in range(n)]
    for length in in_lens:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got "
                               f"value {length} ({where})")
        if length > t_max:
            raise RuntimeError(f"Expected input_lengths to have value at most {t_max}, but got "
                               f"value {length} ({where})")
    xp = backend_of(log_probs._data).xp
    lp = np.asarray(log_probs._data.get() if hasattr(log_probs._data, "get")
                    else log_probs._data, dtype=np.float64)
    labels, ext_lengths = _extended_labels(seqs, tg_lens)
    in_arr = np.array(in_lens, dtype=np.int64)
    emit = _emissions(lp, labels, blank)
    alpha = _alphas(emit, labels, ext_lengths, in_arr)
    rows = np.arange(n)
    final = alpha[np.maximum(in_arr - 1, 0), rows]                   # (N, S)
    last = np.take_along_axis(final, (ext_lengths - 1)[:, None], 1)[:, 0]
    before = np.take_along_axis(final, np.maximum(ext_lengths - 2, 0)[:, None], 1)[:, 0]
    before = np.where(ext_lengths > 1, before, _NEG_INF)
    nll = -np.logaddexp(last, before)
    # no input: probability 1 for an empty target (torch's loss is -log 1, -0.0), else 0
    nll = np.where(in_arr == 0, np.where(ext_lengths == 1, -0.0, np.inf), nll)
    dtype = log_probs._data.dtype
    losses = np.where(np.isinf(nll), 0.0, nll) if zero_infinity else nll
    result = apply(CtcLoss, (log_probs, targets), xp.asarray(losses.astype(dtype)),
                   {"lp": lp, "labels": labels, "blank": blank, "alpha": alpha, "nll": nll,
                    "ext_lengths": ext_lengths, "input_lengths": in_arr,
                    "zero_infinity": zero_infinity, "dtype": dtype, "xp": xp})
    if zero_infinity and result.requires_grad:
        from .._ops.compare import where as _where
        result = _where(wrap(xp.asarray(np.isinf(nll))), 0.0, result)
    if reduction == "mean":
        lengths = wrap(xp.asarray(np.maximum(tg_lens, 1), dtype=dtype))
        return (result / lengths).mean()
    if reduction == "sum":
        return result.sum()
    return result.squeeze(0) if unbatched else result
