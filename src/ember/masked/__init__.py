"""ember.masked: torch.masked's reductions and normalizations over the elements a boolean
`mask` keeps (`MaskedTensor` is not there).

    >>> x = ember.tensor([[1., 2., 3.], [4., 5., 6.]])
    >>> ember.masked.sum(x, 1, mask=ember.tensor([True, False, True]))
    tensor([ 4., 10.])
"""
from ._ops import (amax, amin, argmax, argmin, cumprod, cumsum, log_softmax,  # noqa: F401
                   logaddexp, logsumexp, mean, median, norm, normalize, prod, softmax,
                   softmin, std, sum, var)

__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp",
           "logsumexp", "mean", "median", "norm", "normalize", "prod", "softmax", "softmin",
           "std", "sum", "var"]
