"""The losses torch records as their own nodes (MseLossBackward0, BinaryCrossEntropyBackward0,
...), plus vector norms (NormBackward1): forward on arrays, backward with ember's ops. nll_loss
and cross_entropy's common case are in _nll_ops.py."""
import numpy as _np

from .. import _dtype
from .._device import backend_of
from .._memory_format import iterator_layout
from .._tensor import wrap
from .._ops import _cascade_sum, _rounded
from .._ops._blocked import select
from .._ops._norm_order import sum_of_squares
from .._ops._op import Op
from .._ops.elementwise import Elementwise, call
from .._ops import activations as _act
from .._ops.activations import apply
from .._ops._xp_compat import ufunc_at

_REDUCTIONS = ("none", "mean", "sum")


def check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce(xp, losses, reduction):
    if reduction == "none":
        return losses
    # (half-precision losses are summed in float32 and rounded once, as torch's reductions)
    acc = losses.astype(_np.float32) if losses.dtype.itemsize == 2 and \
        losses.dtype.kind in "fV" else losses
    # (in torch's order where it is known, NOTE [ Summation order ]; a mean is the sum
    # divided by the count, as torch's)
    total = _cascade_sum.sum_all(acc) if acc.__class__ is _np.ndarray and acc.size and \
        acc.dtype in _cascade_sum.LANES else None
    if total is None:
        total = acc.mean() if reduction == "mean" else acc.sum()
    elif reduction == "mean":
        total = _np.true_divide(total, acc.dtype.type(acc.size))
    return xp.asarray(total).astype(losses.dtype)


def _spread(grad, shape, reduction, count):
    """The gradient of a reduction, spread back over the per-element losses."""
    if reduction == "none":
        return grad
    grad = grad.expand(shape)
    return grad / count if reduction == "mean" else grad


def _kernel_error(kernel, dtype):
    """torch's refusal of a dtype its kernel has no version for."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{dtype._scalar_name}\'')


def _cast_error(result, output):
    """torch's refusal to write a `result`-typed value into an `output`-typed tensor."""
    return RuntimeError(f"result type {result._scalar_name} can't be cast to the desired "
                        f"output type {output._scalar_name}")


def _shape_text(shape):
    return f"[{', '.join(map(str, shape))}]"


def _promoted(input, target, kernel):
    """The dtype torch's two-tensor loss kernels compute in: input's and target's promoted
    type, which must be floating (an integer input with a floating target is promoted)."""
    dtype = input.dtype
    if target.dtype is not dtype:
        dtype = _dtype.promote_types(dtype, target.dtype)
    if not dtype.is_floating_point:
        raise _kernel_error(kernel, dtype)
    return dtype


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def reduction_enum(node):
    """A loss node's reduction as torch saves it: its enum's number (none 0, mean 1, sum 2)."""
    return _REDUCTIONS[node.reduction]


class _PointwiseLoss(Op):
    """A loss of (input, target) pairs, element by element; `slope` is d loss / d input.
    `like_input`: torch allocates the result like the input (so its dtype is the input's)
    rather than in the promoted dtype."""
    abstract = True
    like_input = False
    inputs = ("self", "target")
    saves = {"self": ("self", "target"), "target": ("self", "target")}
    shows = {"reduction": reduction_enum}

    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        if t.dtype is not x.dtype:
            if ctx.like_input:      # (huber's backward kernel takes one dtype)
                raise RuntimeError(f"Found dtype {t.dtype._scalar_name} but expected "
                                   f"{x.dtype._scalar_name}")
            if t.dtype is _dtype.bool:  # (torch's kernel promotes it; `-` refuses bool)
                t = t.to(x.dtype)
        need_x, need_t = ctx.needs_input_grad
        # the target's gradient is the slope at t - x (torch's backward with the two swapped),
        # not minus the input's: equal values give +0, as in torch, not -0
        return (_scaled(ctx, ctx.slope(x - t), grad) if need_x else None,
                _scaled(ctx, ctx.slope(t - x), grad) if need_t else None)


def _scaled(ctx, slope, grad):
    """slope * d(loss)/d(loss element), in torch's order: for a mean, (slope * (1 / count))
    * grad, the count's reciprocal taken in the slope's dtype (a scaled loss's gradient
    differed in the last bit in more than half of its elements as slope * (grad / count))."""
    if ctx.reduction == "mean":
        return slope * (1 / slope.numel()) * grad.expand(slope.shape)
    return slope * _spread(grad, slope.shape, ctx.reduction, slope.numel())


def pointwise_loss(op, input, target, reduction, params=None):
    """The loss of same-shaped `input` and `target`, computed in their promoted dtype (see
    `_promoted`); a `like_input` op answers in the input's dtype, which must hold it."""
    dtype = _promoted(input, target, op.kernel_name)
    x, t = input._data, target._data
    if dtype is not input.dtype or dtype is not target.dtype:
        if op.like_input and not _dtype.can_cast(dtype, input.dtype):
            raise _cast_error(dtype, input.dtype)
        x, t = x.astype(dtype._np, copy=False), t.astype(dtype._np, copy=False)
    xp = backend_of(x).xp
    d = xp.asarray(x - t)
    if d.ndim > 1 and not (x.flags.c_contiguous and t.flags.c_contiguous):
        d = iterator_layout(xp, d, (x, t))      # torch's TensorIterator layout
    losses = op.losses(xp, d, **(params or {})).astype(d.dtype)
    result = _reduce(xp, losses, reduction)
    if op.like_input:
        result = result.astype(input._data.dtype, copy=False)
    params = dict(params or {}, reduction=reduction)
    return apply(op, (input, target), result, params)


class MseLoss(_PointwiseLoss):
    """(input - target) ** 2."""
    kernel_name = "mse_cpu"

    def losses(xp, d):
        return d * d

    def slope(ctx, d):
        return 2 * d


class SmoothL1Loss(_PointwiseLoss):
    """0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta."""
    shows = {"beta": lambda node: float(node.beta), "reduction": reduction_enum}
    kernel_name = "smooth_l1_cpu"

    def losses(xp, d, beta):
        a = xp.abs(d)
        if beta == 0:
            return a
        return select(xp, a < beta, 0.5 * d * d / beta, a - 0.5 * beta)

    def slope(ctx, d):
        if ctx.beta == 0:
            return d.sign()
        return (d / ctx.beta).clamp(-1, 1)


class HuberLoss(_PointwiseLoss):
    """0.5 d**2 where |d| < delta, else delta (|d| - 0.5 delta)."""
    shows = {"delta": lambda node: float(node.delta), "reduction": reduction_enum}
    kernel_name = "huber_cpu"
    like_input = True

    def losses(xp, d, delta):
        a = xp.abs(d)
        return select(xp, a < delta, 0.5 * d * d, delta * (a - 0.5 * delta))

    def slope(ctx, d):
        return d.clamp(-ctx.delta, ctx.delta)


class SoftMarginLoss(Op):
    """log(1 + exp(-target * input))."""
    inputs = ("self", "target")
    saves = {"self": ("self", "target"), "target": ("self", "target")}

    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        if t.dtype is _dtype.bool:
            -t      # (torch's backward negates the target first: its bool error)
        g = _spread(grad, x.shape, ctx.reduction, x.numel()) * (-(t * x)).sigmoid()
        need_x, need_t = ctx.needs_input_grad
        return (-g * t if need_x else None), (-g * x if need_t else None)


def _check_soft_margin(input, target):
    """torch computes the loss in place in a tensor like the input (-input, times target,
    exp, log1p): the target must broadcast to the input's shape, and an integer input can't
    hold the floats (the product's, or exp's of the default float dtype)."""
    if input.dtype is _dtype.bool:
        -input      # (torch negates the input first: its bool error, before any other)
    shape, target_shape = tuple(input.shape), tuple(target.shape)
    if target_shape != shape:
        from .._geometry import broadcast_shapes
        if broadcast_shapes(shape, target_shape) != shape:      # (or torch's size error)
            raise RuntimeError(f"output with shape {_shape_text(shape)} doesn't match the "
                               f"broadcast shape "
                               f"{_shape_text(broadcast_shapes(shape, target_shape))}")
    dtype = input.dtype
    if not dtype.is_floating_point:
        product = _dtype.promote_types(dtype, target.dtype)
        if not _dtype.can_cast(product, dtype):
            raise _cast_error(product, dtype)
        raise _cast_error(_dtype.get_default_dtype(), dtype)


def soft_margin_loss(input, target, reduction):
    _check_soft_margin(input, target)
    xp = backend_of(input._data).xp
    x, t = input._data, target._data
    z = xp.asarray(-(t * x))
    if z.ndim > 1 and not (x.flags.c_contiguous and t.flags.c_contiguous):
        z = iterator_layout(xp, z, (x, t))      # torch's -input * target
    losses = (xp.maximum(z, 0) + _rounded.log1p(xp, _rounded.exp(xp, -xp.abs(z)))).astype(
        input._data.dtype)
    return apply(SoftMarginLoss, (input, target), _reduce(xp, losses, reduction),
                 {"reduction": reduction})


class BinaryCrossEntropy(Op):
    """-w (t log x + (1 - t) log(1 - x)), each log clamped at -100 (as torch does)."""
    inputs = ("self", "target")
    saves = {"self": ("self", "target"), "target": ("self", "target")}
    shows = {"reduction": reduction_enum, "weight": "weight"}

    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        g = _spread(grad, x.shape, ctx.reduction, x.numel())
        if ctx.weight is not None:
            g = g * ctx.weight
        need_x, need_t = ctx.needs_input_grad
        gx = gt = None
        if need_x:
            gx = g * (x - t) / ((1 - x) * x).clamp(min=1e-12)
        if need_t:
            # torch's target gradient is -logit(x), unclamped: infinite at x = 0 or 1
            gt = g * x.logit().neg()
        return gx, gt


def binary_cross_entropy(input, target, weight, reduction):
    """torch's kernel takes a target of the input's dtype only (a weight of any)."""
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype._scalar_name} but expected "
                           f"{input.dtype._scalar_name}")
    if not input.dtype.is_floating_point:
        raise _kernel_error("binary_cross_entropy", input.dtype)
    x, t = input._data, target._data
    xp = backend_of(x).xp
    # (NaN is out of range too: torch's kernel checks 0 <= v <= 1, input first)
    if x.size and not ((x >= 0) & (x <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    if t.size and not ((t >= 0) & (t <= 1)).all():
        raise RuntimeError("all elements of target should be between 0 and 1")
    log_x = xp.maximum(_rounded.log(xp, x), -100)
    log_1mx = xp.maximum(_rounded.log1p(xp, -x), -100)
    losses = (t - 1) * log_1mx - t * log_x      # (torch's kernel's arithmetic)
    if weight is not None:
        weight = weight.detach().to(input.dtype)
        losses = losses * weight._data
    losses = losses.astype(x.dtype)
    return apply(BinaryCrossEntropy, (input, target), _reduce(xp, losses, reduction),
                 {"reduction": reduction, "weight": weight})


class BinaryCrossEntropyWithLogits(Op):
    """(1 - t) x + (1 + (pw - 1) t) softplus(-x), times the weight."""
    inputs = ("self", "target")
    saves = {"self": ("self", "target"), "target": ("self", "target")}
    shows = {"pos_weight": "pos_weight", "reduction": reduction_enum, "weight": "weight"}

    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        pw = ctx.pos_weight
        need_x, need_t = ctx.needs_input_grad
        gx = gt = None
        if need_x:
            # (torch's order: ((pw t + 1) - t) sigmoid(x) - pw t, then times grad, the weight
            # and over the count, as for the target's)
            if pw is None:
                gx = x.sigmoid() - t
            else:
                tw = pw * t
                gx = (tw + 1 - t) * x.sigmoid() - tw
            gx = ctx.scaled(gx, grad, x)
        if need_t:
            if pw is None:
                gt = -x
            else:
                from .functional import logsigmoid
                gt = logsigmoid(-x) - logsigmoid(x) * pw
            gt = ctx.scaled(gt, grad, x)
        return gx, gt

    def scaled(ctx, g, grad, x):
        """g times the incoming gradient, times the weight, over the count for a mean."""
        g = g * grad
        if ctx.weight is not None:
            g = g * ctx.weight
        if ctx.reduction == "mean":
            return g / x.numel()
        return g if g.shape == x.shape else g.expand(x.shape)


def _logits_loss_dtype(input, target):
    """torch computes log_sigmoid(input), then the loss in place in (1 - target): the input
    must be floating, and the result takes the target's dtype, which must be floating too."""
    if not input.dtype.is_floating_point:
        raise _kernel_error("log_sigmoid_cpu", input.dtype)
    out = target.dtype
    if not out.is_floating_point:
        if out is _dtype.bool:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        raise _cast_error(_dtype.promote_types(input.dtype, out), out)
    return out


def binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction):
    """torch's arithmetic, in its order: log_sigmoid(input) (times (pos_weight - 1) * target
    + 1, in place), then (1 - target) * input - that, in place in (1 - target): each step
    rounded to its in-place operand's dtype (the input's, then the target's)."""
    out = _logits_loss_dtype(input, target)
    x, t = input._data, target._data
    xp = backend_of(x).xp
    log_sigmoid = call(_act.LogSigmoid, (wrap(x),), {}, None, "log_sigmoid")._data
    # (the weights in their own dtypes here; the backward takes them in the loss's)
    if pos_weight is not None:
        log_weight = (pos_weight._data - 1) * t + 1
        log_sigmoid = (log_sigmoid * log_weight).astype(x.dtype, copy=False)
        pos_weight = pos_weight.detach().to(_dtype.promote_types(input.dtype, out))
    losses = ((1 - t) * x).astype(out._np, copy=False)
    losses = xp.asarray(losses - log_sigmoid).astype(out._np, copy=False)
    if weight is not None:
        losses = (losses * weight._data).astype(out._np, copy=False)
        weight = weight.detach().to(_dtype.promote_types(input.dtype, out))
    return apply(BinaryCrossEntropyWithLogits, (input, target),
                 _reduce(xp, losses, reduction),
                 {"reduction": reduction, "weight": weight, "pos_weight": pos_weight})


class DivScalar(Elementwise):
    """tensor / number, recorded as torch's C++ losses record it (DivBackward1)."""
    node_name = "DivBackward1"

    def forward(xp, a, divisor):
        return a / divisor if divisor else a * float("nan")

    def backward(ctx, grad):
        return grad / ctx.divisor


def divide_by_number(t, divisor):
    return call(DivScalar, (t,), {"divisor": divisor}, None, "div")


class MulScalar(Elementwise):
    """tensor * number, recorded as torch's C++ losses record it (MulBackward1)."""
    node_name = "MulBackward1"

    def forward(xp, a, factor):
        return a * factor

    def backward(ctx, grad):
        return grad * ctx.factor


def multiply_by_number(t, factor):
    return call(MulScalar, (t,), {"factor": factor}, None, "mul")


class AddScalar(Elementwise):
    """tensor + number, recorded as torch's C++ records it (AddBackward1)."""
    node_name = "AddBackward1"

    def forward(xp, a, number):
        return a + number

    def backward(ctx, grad):
        return grad


def add_number(t, number):
    """t + number as torch's C++ composites add a double to a float tensor (AddBackward1);
    other dtypes take Python's operator (its promotion rules)."""
    if not t.is_floating_point():
        return t + number
    return call(AddScalar, (t,), {"number": number}, None, "add")


# -- norms ---------------------------------------------------------------------------------------

class Norm(Op):
    """The p-norm over `dims`; its gradient is 0 where the norm is 0 (as in torch)."""
    node_name = "NormBackward1"
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        x, norm = ctx.saved_tensors
        if not ctx.keepdim and ctx.dims is not None:
            for d in sorted(ctx.dims):
                grad, norm = grad.unsqueeze(d), norm.unsqueeze(d)
        p = ctx.p
        if p == 0:      # (torch's norm backward gives no gradient at all: x.grad stays None)
            return None
        if p == float("inf"):
            hits = (x.abs() == norm)
            slope = x.sign() * hits / (hits.sum(ctx.dims, keepdim=True) if ctx.dims else hits.sum())
        elif p == 1:
            slope = x.sign()
        elif p == 2:
            slope = x / _nonzero(norm)
        elif p < 1:
            # NOTE: torch zeroes |x|^(p-1) where x == 0 (no 0 * inf = nan)
            from .._ops.compare import where
            powered = where(x == 0, 0.0, x.abs().pow(p - 1))
            slope = x.sign() * powered * norm.pow(1 - p)
        else:
            slope = x.sign() * x.abs().pow(p - 1) / _nonzero(norm.pow(p - 1))
        return grad * slope


def _nonzero(t):
    from .._ops.compare import where
    return where(t == 0, 1.0, t)


def vector_norm(input, p, dims, keepdim=False):
    """The p-norm of `input` over `dims` (a tuple of non-negative dims)."""
    x = input._data
    xp = backend_of(x).xp
    a = xp.abs(x)
    if a.dtype.itemsize == 2 and a.dtype.kind in "fV":
        a = a.astype(_np.float32)   # half precision: computed in float32, rounded once
    if p == float("inf"):
        result = a.max(axis=dims, keepdims=keepdim) if x.size else a.sum(dims, keepdims=keepdim)
    elif p == 0:
        result = (a != 0).sum(axis=dims, keepdims=keepdim).astype(x.dtype)
    elif p == 1:
        result = a.sum(axis=dims, keepdims=keepdim)
    elif p == 2 and x.dtype.kind == "f" and x.dtype.itemsize >= 4:  # (NOTE [ The 2-norm's
        # sum order ])
        result = xp.sqrt(sum_of_squares(a, dims, keepdim))
    elif p == 2:
        result = xp.sqrt((a * a).sum(axis=dims, keepdims=keepdim))
    else:
        result = (a ** p).sum(axis=dims, keepdims=keepdim) ** (1.0 / p)
    return apply(Norm, (input,), xp.asarray(result).astype(x.dtype),
                 {"p": p, "dims": dims, "keepdim": keepdim})


# -- multi-class margin losses -------------------------------------------------------------------

_HALF_TYPES = (_dtype.float16, _dtype.bfloat16)


def _check_margin_input(input):
    """torch's first check: a vector or matrix of classes (the batch may be empty, not the
    classes)."""
    shape = input.shape
    if input.ndim > 2 or (input.ndim and not shape[-1]):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, "
                           f"but got: {_shape_text(shape)}")


def _check_margin_dtypes(input, target, kernel):
    """torch's kernel checks (after the size checks): a float type it has a version for (none
    for half types on the CPU), and Long targets."""
    dtype = input.dtype
    if not dtype.is_floating_point or (dtype in _HALF_TYPES and input.device.type == "cpu"):
        raise _kernel_error(kernel, dtype)
    if target.dtype._name != "int64":
        raise RuntimeError(f"expected scalar type Long but found {target.dtype._scalar_name}")


class MultiMarginLoss(Op):
    """sum over i != y of weight[y] * max(0, margin - x[y] + x[i]) ** p, over the classes."""
    inputs = ("self", "target")
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        rows = x if x.ndim == 2 else x.unsqueeze(0)
        others, chosen = wrap(ctx.others), wrap(ctx.chosen)
        z = ctx.margin - (rows * chosen).sum(1, keepdim=True) + rows
        slope = (z > 0).to(z.dtype) if ctx.p == 1 else 2 * z.relu()
        g = grad.reshape(-1, 1)
        if ctx.reduction == "mean":
            g = g / rows.shape[0]
        slope = slope * others * wrap(ctx.scale) * g
        gx = slope - chosen * slope.sum(1, keepdim=True)
        return gx.reshape(x.shape), None


def multi_margin_loss(input, target, p, margin, weight, reduction):
    _check_margin_input(input)
    x = input._data if input.ndim == 2 else input._data.reshape(1, -1)
    t = target._data.reshape(-1)
    n, c = x.shape
    if target.ndim > 1 or t.shape[0] != n:      # (a 0-d target serves a batch of one)
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to "
                           f"the number of input samples (batch size). Expected target size "
                           f"[{n}], but got [{', '.join(map(str, target.shape))}]. Input has "
                           f"shape [{', '.join(map(str, input.shape))}].")
    if weight is not None:
        if weight.numel() != c:
            raise RuntimeError(f"inconsistent weight size, expected {c} but got "
                               f"[{', '.join(map(str, weight.shape))}]")
    _check_margin_dtypes(input, target, "multi_margin_loss_cpu_kernel")
    if weight is not None:
        if weight.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found "
                               f"{weight.dtype._scalar_name}")
    if t.size and (t.min() < 0 or t.max() >= c):
        raise RuntimeError("target out of range")
    xp = backend_of(x).xp
    chosen = (xp.arange(c) == t[:, None]).astype(x.dtype)
    others = 1 - chosen
    z = margin - x[xp.arange(n), t][:, None] + x
    h = xp.maximum(z, 0) * others
    h = h if p == 1 else h * h
    w = xp.ones(n, x.dtype) if weight is None else weight.detach()._data.reshape(-1)[t]
    scale = (w / c).astype(x.dtype)[:, None]
    losses = _margin_sums(xp, x, t, others, p, margin, None if weight is None else w, c)
    if input.ndim < 2 and reduction == "none":
        losses = losses.reshape(())
    if reduction != "none":
        # (torch's kernel adds the rows' losses one by one in its accumulation type, float64
        # for float32, and divides that by the row count)
        total = xp.add.accumulate(losses.astype(_np.float64 if x.dtype == _np.float32
                                                else x.dtype), axis=0)[-1] if n else 0.0
        losses = xp.asarray(total / n if reduction == "mean" else total, x.dtype) if n else \
            _reduce(xp, losses, reduction)
    return apply(MultiMarginLoss, (input, target), losses,
                 {"p": p, "margin": margin, "reduction": reduction, "others": others,
                  "chosen": chosen, "scale": scale})


def _margin_sums(xp, x, t, others, p, margin, w, c):
    """Each row's multi-margin loss as torch's kernel adds it, in the input's dtype: the
    classes' terms (times the weight) one after another, then over the class count."""
    z = x.dtype.type(margin) - x[xp.arange(x.shape[0]), t][:, None] + x
    h = xp.maximum(z, 0) * others
    h = h if p == 1 else h * h
    if w is not None:
        h = h * w.astype(x.dtype)[:, None]
    # (an accumulation adds one after another)
    return (xp.add.accumulate(h, axis=1)[:, -1] / x.dtype.type(c)).astype(x.dtype)


class MultilabelMarginLoss(Op):
    """sum over targets j and non-targets i of max(0, 1 - (x[j] - x[i])), over the classes.
    The gradient is grad times a constant pattern (the loss is piecewise linear)."""
    inputs = ("self", "target")

    def backward(ctx, grad):
        g = grad.reshape(-1, 1)
        if ctx.reduction == "mean":
            g = g / ctx.pattern.shape[0]
        return (wrap(ctx.pattern) * g).reshape(ctx.shape), None


def multilabel_margin_loss(input, target, reduction):
    _check_margin_input(input)
    # (a 0-d or 1-D input takes a 0-d or 1-D target of as many entries)
    if (tuple(target.shape) != tuple(input.shape) if input.ndim == 2 else
            target.ndim > 1 or target.numel() != max(input.numel(), 1)):
        raise RuntimeError(f"inconsistent target size: [{', '.join(map(str, target.shape))}] "
                           f"for input of size: [{', '.join(map(str, input.shape))}]")
    x = input._data if input.ndim == 2 else input._data.reshape(1, -1)
    t = target._data.reshape(x.shape)
    n, c = x.shape
    xp = backend_of(x).xp
    if t.size and (t.min() < -1 or t.max() >= c):
        raise RuntimeError("argument #2 'target' is out of range")
    _check_margin_dtypes(input, target, "multilabel_margin_loss_forward_out_frame")
    # NOTE: each row's targets are its entries before the first -1; a repeated target counts
    # once per repetition, as in torch.
    valid = xp.cumprod(t >= 0, axis=1).astype(bool)
    counts = xp.zeros((n, c), x.dtype)
    rows = xp.broadcast_to(xp.arange(n)[:, None], t.shape)
    ufunc_at(xp, "add", counts, (rows[valid], t[valid]), 1)
    non_target = (counts == 0).astype(x.dtype)
    z = 1 - x[:, :, None] + x[:, None, :]           # z[n, j, i]: target j against class i
    active = (z > 0) * counts[:, :, None] * non_target[:, None, :]
    losses = ((z * active).sum((1, 2)) / c).astype(x.dtype)
    pattern = ((active.sum(1) - active.sum(2)) / c).astype(x.dtype)
    if input.ndim < 2 and reduction == "none":
        losses = losses.reshape(())
    return apply(MultilabelMarginLoss, (input, target), _reduce(xp, losses, reduction),
                 {"reduction": reduction, "pattern": pattern, "shape": tuple(input.shape)})
