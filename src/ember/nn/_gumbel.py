"""F.gumbel_softmax: samples from the Gumbel-softmax (concrete) distribution, soft or one-hot
with the straight-through gradient; composed of ember ops as torch composes it, drawing the
same random numbers for the same seed."""
from .. import _warn


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + g) / tau) along `dim`, g drawn from Gumbel(0, 1) as -log(Exp(1)).

    With `hard`, the result is the one-hot of its argmax, while the gradient is that of the
    soft sample (straight-through: y_hard - y_soft.detach() + y_soft). `eps` is deprecated and
    has no effect.

        >>> F.gumbel_softmax(torch.zeros(2, 3), hard=True).sum(-1)
        tensor([1., 1.])
    """
    from .._creation import empty, zeros
    if eps != 1e-10:
        _warn.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    # NOTE: a fresh contiguous tensor, so the draws land in the same order as torch's.
    noise = empty(tuple(logits.shape), dtype=logits.dtype, device=logits.device)
    gumbels = -noise.exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros(tuple(logits.shape), dtype=logits.dtype, device=logits.device)
    y_hard.scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
