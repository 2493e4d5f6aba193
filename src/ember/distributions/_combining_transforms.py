"""The transforms made of other transforms or distributions: `CatTransform` and
`StackTransform` (one transform per slice of a dim) and `CumulativeDistributionTransform` (a
distribution's cdf)."""
import operator
from functools import reduce

import ember

from . import constraints
from .transforms import Transform
from .utils import _sum_rightmost, lazy_property


class CatTransform(Transform):
    """Transforms `tseq[i]` applied to consecutive chunks of `lengths[i]` (default 1) along
    `dim`, concatenated back (the functional counterpart of `constraints.cat`).

        >>> t = CatTransform([ExpTransform(), identity_transform], dim=0, lengths=[2, 3])
    """

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        assert all(isinstance(t, Transform) for t in tseq)
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        if lengths is None:
            lengths = [1] * len(self.transforms)
        self.lengths = list(lengths)
        assert len(self.lengths) == len(self.transforms)
        self.dim = dim

    @lazy_property
    def event_dim(self):
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self):
        return sum(self.lengths)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _check(self, x):
        assert -x.dim() <= self.dim < x.dim()
        assert x.size(self.dim) == self.length

    def _map(self, x, inverse):
        self._check(x)
        slices, start = [], 0
        for trans, length in zip(self.transforms, self.lengths):
            piece = x.narrow(self.dim, start, length)
            slices.append(trans.inv(piece) if inverse else trans(piece))
            start = start + length
        return ember.cat(slices, dim=self.dim)

    def _call(self, x):
        return self._map(x, inverse=False)

    def _inverse(self, y):
        return self._map(y, inverse=True)

    def log_abs_det_jacobian(self, x, y):
        """The chunks' terms (each summed up to this transform's event_dim), concatenated
        along `dim` where that dim is still a batch dim, else added."""
        self._check(x)
        assert -y.dim() <= self.dim < y.dim()
        assert y.size(self.dim) == self.length
        logdetjacs, start = [], 0
        for trans, length in zip(self.transforms, self.lengths):
            xslice = x.narrow(self.dim, start, length)
            yslice = y.narrow(self.dim, start, length)
            logdetjac = trans.log_abs_det_jacobian(xslice, yslice)
            if trans.event_dim < self.event_dim:
                logdetjac = _sum_rightmost(logdetjac, self.event_dim - trans.event_dim)
            logdetjacs.append(logdetjac)
            start = start + length
        dim = self.dim
        if dim >= 0:
            dim = dim - x.dim()
        dim = dim + self.event_dim
        if dim < 0:
            return ember.cat(logdetjacs, dim=dim)
        return reduce(operator.add, logdetjacs)

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(Transform):
    """Transforms `tseq[i]` applied to `x.select(dim, i)`, stacked back along `dim` (the
    functional counterpart of `constraints.stack`).

        >>> t = StackTransform([ExpTransform(), identity_transform], dim=1)
    """

    def __init__(self, tseq, dim=0, cache_size=0):
        assert all(isinstance(t, Transform) for t in tseq)
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z):
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _check(self, x):
        assert -x.dim() <= self.dim < x.dim()
        assert x.size(self.dim) == len(self.transforms)

    def _call(self, x):
        self._check(x)
        return ember.stack([trans(xslice) for xslice, trans
                            in zip(self._slice(x), self.transforms)], dim=self.dim)

    def _inverse(self, y):
        self._check(y)
        return ember.stack([trans.inv(yslice) for yslice, trans
                            in zip(self._slice(y), self.transforms)], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x)
        self._check(y)
        terms = [trans.log_abs_det_jacobian(xslice, yslice) for xslice, yslice, trans
                 in zip(self._slice(x), self._slice(y), self.transforms)]
        return ember.stack(terms, dim=self.dim)

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)


class CumulativeDistributionTransform(Transform):
    """x -> distribution.cdf(x), onto the unit interval; the Jacobian term is the density
    (log_prob). Useful for copulas.

        >>> CumulativeDistributionTransform(Normal(0., 1.))(torch.tensor(0.))
    """
    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size=1):
        return type(self)(self.distribution, cache_size=cache_size)
