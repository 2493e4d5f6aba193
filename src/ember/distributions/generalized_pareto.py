"""GeneralizedPareto(loc, scale, concentration): the limit law of threshold exceedances, with
survival function (1 + c z)^(-1/c), z = (x - loc) / scale (exp(-z) at c = 0)."""
import math
from numbers import Number

import ember

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """A generalized Pareto distribution. A concentration `isclose` to 0 is treated as exactly
    0 (the exponential tail), as torch does. Samples are the inverse cdf of uniforms.

        >>> GeneralizedPareto(torch.tensor([0.0]), torch.tensor([1.0]),
        ...                   torch.tensor([0.5])).sample()
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        if (isinstance(loc, Number) and isinstance(scale, Number)
                and isinstance(concentration, Number)):
            batch_shape = ember.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = ember.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        super(GeneralizedPareto, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _z(self, x):
        return (x - self.loc) / self.scale

    def _zero_and_safe(self):
        """Where the concentration counts as 0, and the concentration with those entries set
        to 1 (so the c != 0 branch stays finite and its gradient is not NaN)."""
        eq_zero = ember.isclose(self.concentration, ember.zeros_like(self.concentration))
        safe = ember.where(eq_zero, ember.ones_like(self.concentration), self.concentration)
        return eq_zero, safe

    def rsample(self, sample_shape=ember.Size()):
        shape = self._extended_shape(sample_shape)
        u = ember.rand(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._zero_and_safe()
        tail = ember.where(eq_zero, z, (1.0 / safe + 1.0) * ember.log1p(safe * z))
        return -ember.log(self.scale) - tail

    def log_survival_function(self, value):
        """log P(X > value): -log1p(c z) / c, or -z at c = 0."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._zero_and_safe()
        return ember.where(eq_zero, -z, -ember.log1p(safe * z) / safe)

    def log_cdf(self, value):
        """log P(X <= value) = log(1 - survival)."""
        return ember.log1p(-ember.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return ember.exp(self.log_cdf(value))

    def icdf(self, value):
        """loc + scale * ((1 - u)^(-c) - 1) / c, or loc - scale * log(1 - u) at c = 0."""
        eq_zero, safe = self._zero_and_safe()
        log1mu = ember.log1p(-value)
        z = ember.where(eq_zero, -log1mu, ember.expm1(-safe * log1mu) / safe)
        return self.loc + self.scale * z

    @property
    def mean(self):
        """loc + scale / (1 - c) for c < 1, else NaN."""
        concentration = self.concentration
        valid = concentration < 1
        safe = ember.where(valid, concentration, ember.zeros_like(concentration))
        result = self.loc + self.scale / (1 - safe)
        return ember.where(valid, result, ember.full_like(result, math.nan))

    @property
    def variance(self):
        """scale^2 / ((1 - c)^2 (1 - 2c)) for c < 1/2, else NaN."""
        concentration = self.concentration
        valid = concentration < 0.5
        safe = ember.where(valid, concentration, ember.zeros_like(concentration))
        result = self.scale ** 2 / ((1 - safe) ** 2 * (1 - 2 * safe))
        return ember.where(valid, result, ember.full_like(result, math.nan))

    @property
    def mode(self):
        return self.loc

    def entropy(self):
        return ember.log(self.scale) + self.concentration + 1

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        """[loc, loc - scale / c] for c < 0, else [loc, inf]."""
        lower = self.loc
        negative = self.concentration < 0
        safe = ember.where(negative, self.concentration, -ember.ones_like(self.concentration))
        upper = ember.where(negative, self.loc - self.scale / safe,
                            ember.full_like(self.loc, math.inf))
        return constraints.interval(lower, upper)
