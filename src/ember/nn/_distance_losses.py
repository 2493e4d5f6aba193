"""F.triplet_margin_with_distance_loss: the triplet loss over any distance function, composed
of ember ops as torch composes it (so its graph shows the distance's and clamp_min's nodes)."""
from .._ops.registry import FUNCTIONS as _FUNCTIONS
from ._distance import pairwise_distance


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """max(d(anchor, positive) - d(anchor, negative) + margin, 0), reduced; `d` defaults to
    pairwise_distance. With `swap`, d(anchor, negative) is replaced by d(positive, negative)
    where that is smaller.

        >>> a, p, n = torch.zeros(1, 2), torch.ones(1, 2), torch.full((1, 2), 3.)
        >>> F.triplet_margin_with_distance_loss(a, p, n, margin=2.0)
        tensor(0.)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if len(set(dims)) != 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {dims[0]}D, positive "
                           f"{dims[1]}D, and negative {dims[2]}D inputs")
    distance = pairwise_distance if distance_function is None else distance_function
    positive_distance = distance(anchor, positive)
    negative_distance = distance(anchor, negative)
    if swap:
        # NOTE: the "distance swap" of Balntas et al.: the positive serves as the anchor where
        # it is closer to the negative than the anchor is.
        negative_distance = _FUNCTIONS["minimum"](negative_distance,
                                                  distance(positive, negative))
    loss = _FUNCTIONS["clamp_min"](margin + positive_distance - negative_distance, 0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss
