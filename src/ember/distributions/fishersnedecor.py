"""FisherSnedecor(df1, df2): the F-distribution, (X1 / df1) / (X2 / df2) for chi-squares X1, X2
with df1, df2 degrees of freedom."""
from numbers import Number

import ember

from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import broadcast_all

__all__ = ["FisherSnedecor"]


class FisherSnedecor(Distribution):
    """A Fisher-Snedecor (F) distribution with degrees of freedom `df1` and `df2`. Samples are
    the ratio of two reparameterised Gamma(df / 2, df) draws (the df1 one first).

        >>> FisherSnedecor(torch.tensor([1.0]), torch.tensor([2.0])).sample()
    """
    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        if isinstance(df1, Number) and isinstance(df2, Number):
            batch_shape = ember.Size()
        else:
            batch_shape = self.df1.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(FisherSnedecor, _instance)
        batch_shape = ember.Size(batch_shape)
        new.df1 = self.df1.expand(batch_shape)
        new.df2 = self.df2.expand(batch_shape)
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        super(FisherSnedecor, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """df2 / (df2 - 2); NaN where df2 <= 2."""
        df2 = self.df2.clone()
        df2[df2 <= 2] = float("nan")
        return df2 / (df2 - 2)

    @property
    def mode(self):
        """(df1 - 2) / df1 * df2 / (df2 + 2); NaN where df1 <= 2."""
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = float("nan")
        return mode

    @property
    def variance(self):
        """2 df2^2 (df1 + df2 - 2) / (df1 (df2 - 2)^2 (df2 - 4)); NaN where df2 <= 4."""
        df2 = self.df2.clone()
        df2[df2 <= 4] = float("nan")
        return (2 * df2.pow(2) * (self.df1 + df2 - 2)
                / (self.df1 * (df2 - 2).pow(2) * (df2 - 4)))

    def rsample(self, sample_shape=ember.Size()):
        shape = self._extended_shape(sample_shape)
        # NOTE: X1 ~ Gamma(df1/2, df1) = chi2(df1)/df1, likewise X2; both kept above tiny so
        # the ratio is finite and positive.
        X1 = self._gamma1.rsample(sample_shape).view(shape)
        X2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = ember.finfo(X2.dtype).tiny
        X2.detach().clamp_(min=tiny)
        Y = X1 / X2
        Y.detach().clamp_(min=tiny)
        return Y

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        ct1 = self.df1 * 0.5
        ct2 = self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * ember.log(value)
        t3 = (ct1 + ct2) * ember.log1p(ct3 * value)
        return t1 + t2 - t3
