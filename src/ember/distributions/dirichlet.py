"""Dirichlet(concentration): distributions over the probability simplex."""
import numpy as np

import ember
from ember.nn.functional import one_hot

from . import constraints
from ._samplers import standard_gamma
from .exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
    """A Dirichlet distribution with concentration vector(s) `concentration` (last dim).
    `rsample` normalises reparameterised gamma draws, so gradients reach the concentration.

        >>> Dirichlet(torch.tensor([0.5, 0.5])).sample()
    """
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = ember.Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape + self.event_shape)
        super(Dirichlet, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        concentration = self.concentration.expand(shape)
        if concentration.dtype not in (ember.float32, ember.float64):
            raise NotImplementedError(f'"dirichlet" not implemented for '
                                      f"'{concentration.dtype._scalar_name}'")
        # NOTE: as torch's _sample_dirichlet: the gammas are drawn and normalised in float64,
        # and the draw is kept inside (0, 1) (tiny up to the float below 1), so log_prob
        # stays finite.
        gammas = standard_gamma(concentration.double())
        samples = (gammas / gammas.sum(-1, keepdim=True)).to(concentration.dtype)
        below_one = float(np.nextafter(np.array(1.0, samples.dtype._np), 0))
        samples.detach().clamp_(min=ember.finfo(samples.dtype).tiny, max=below_one)
        return samples

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (ember.xlogy(self.concentration - 1.0, value).sum(-1)
                + ember.lgamma(self.concentration.sum(-1))
                - ember.lgamma(self.concentration).sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        if bool(mask.any()):
            hot = one_hot(concentrationm1[mask].argmax(dim=-1), concentrationm1.shape[-1])
            mode[mask] = hot.to(mode)
        return mode

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return (self.concentration * (con0 - self.concentration)
                / (con0.pow(2) * (con0 + 1)))

    def entropy(self):
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (ember.lgamma(self.concentration).sum(-1) - ember.lgamma(a0)
                - (k - a0) * ember.digamma(a0)
                - ((self.concentration - 1.0) * ember.digamma(self.concentration)).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - ember.lgamma(x.sum(-1))
