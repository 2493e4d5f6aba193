"""VonMises(loc, concentration): the circular normal, density exp(k cos(x - loc)) /
(2 pi I0(k)) on [-pi, pi)."""
import math

import ember

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, lazy_property

__all__ = ["VonMises"]


def _log_i0(x):
    """log I0(x) = log(i0e(x)) + x (the exponentially scaled Bessel function keeps it finite
    for large x)."""
    return ember.log(ember.special.i0e(x)) + x


def _rejection_sample(loc, concentration, proposal_r, x):
    """Best and Fisher's (1979) wrapped-Cauchy rejection sampler, vectorised as torch does it:
    each round draws three uniforms per element (one `rand` of shape (3,) + x.shape), and
    elements accepted in this round take f = cos(theta) with a random sign; rounds repeat
    until every element is accepted. The result is wrapped into [-pi, pi)."""
    done = ember.zeros(x.shape, dtype=ember.bool, device=loc.device)
    while not bool(done.all()):
        u = ember.rand((3,) + tuple(x.shape), dtype=loc.dtype, device=loc.device)
        u1, u2, u3 = u.unbind()
        z = ember.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if bool(accept.any()):
            x = ember.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """A von Mises distribution with mean direction `loc` and concentration `concentration`.
    It has no rsample; `sample` runs the rejection sampler in float64.

        >>> VonMises(torch.tensor([1.0]), torch.tensor([1.0])).sample()
    """
    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        batch_shape = self.loc.shape
        event_shape = ember.Size()
        super().__init__(batch_shape, event_shape, validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * ember.cos(value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_i0(self.concentration)

    @lazy_property
    def _loc(self):
        return self.loc.to(ember.double)

    @lazy_property
    def _concentration(self):
        return self.concentration.to(ember.double)

    @lazy_property
    def _proposal_r(self):
        """r = (1 + rho^2) / (2 rho), rho = (tau - sqrt(2 tau)) / (2k), tau = 1 + sqrt(1 +
        4k^2); 1/k + k (its expansion) for k < 1e-5."""
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa ** 2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        proposal_r = (1 + rho ** 2) / (2 * rho)
        proposal_r_taylor = 1 / kappa + kappa
        return ember.where(kappa < 1e-5, proposal_r_taylor, proposal_r)

    def sample(self, sample_shape=ember.Size()):
        with ember.no_grad():
            shape = self._extended_shape(sample_shape)
            x = ember.zeros(shape, dtype=self._loc.dtype, device=self.loc.device)
            return _rejection_sample(self._loc, self._concentration, self._proposal_r,
                                     x).to(self.loc.dtype)

    def expand(self, batch_shape, _instance=None):
        """A new VonMises on the expanded parameters (validated as this one is)."""
        batch_shape = ember.Size(batch_shape)
        return type(self)(self.loc.expand(batch_shape), self.concentration.expand(batch_shape),
                          validate_args=self.__dict__.get("_validate_args"))

    @property
    def mean(self):
        """The circular mean, loc."""
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        """The circular variance 1 - I1(k) / I0(k)."""
        k = self.concentration
        return 1 - ember.special.i1e(k) / ember.special.i0e(k)
