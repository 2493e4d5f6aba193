"""torch.cond and torch.while_loop, run eagerly: torch compiles them into a graph when it can,
but what they compute (and what a plain call of them returns) is a Python `if` and `while`."""
from . import _dtype
from ._tensor import Tensor

__all__ = ["cond", "while_loop"]


def cond(pred, true_fn, false_fn, operands=()):
    """`true_fn(*operands)` if `pred` (a bool or one-element tensor) holds, else
    `false_fn(*operands)`."""
    if isinstance(pred, Tensor):
        if pred.numel() != 1:
            raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got "
                               f"{pred}.")
        pred = bool(pred)
    return (true_fn if pred else false_fn)(*operands)


def while_loop(cond_fn, body_fn, carried_inputs):
    """Apply `body_fn` to the carried values while `cond_fn` of them holds; the last values
    (`carried_inputs` as a tuple if the body never ran)."""
    if isinstance(carried_inputs, Tensor) and carried_inputs.ndim == 0:
        raise AssertionError("Can't unpack scalar tensors.")
    result = args = tuple(carried_inputs)
    while _holds(cond_fn(*args)):
        result = body_fn(*args)
        args = result if isinstance(result, (tuple, list)) else (result,)
    return result


def _holds(pred):
    """A loop condition's value; torch (which compiles the loop) refuses one that is not a
    bool or a one-element bool tensor."""
    if isinstance(pred, bool):
        return pred
    if isinstance(pred, Tensor) and pred.numel() == 1 and pred.dtype is _dtype.bool:
        return bool(pred)
    raise RuntimeError(f"while_loop: cond_fn must return a bool or a one-element boolean "
                       f"tensor, but got {pred!r}")
