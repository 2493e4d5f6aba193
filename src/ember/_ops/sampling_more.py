"""More in-place samplers: cauchy_, log_normal_ and geometric_, drawn from torch's CPU streams
(each element from its own double-precision draw, in order, as torch's serial kernels do)."""
import math

import numpy as np

from .. import _random
from .registry import method
from .sampling import _fill, _sampler_node

_CauchyFill = _sampler_node("Cauchy")
_LogNormalFill = _sampler_node("LogNormal")
_GeometricFill = _sampler_node("Geometric")


def _check_float(self, name):
    if self._data.dtype.kind not in "fV":
        raise RuntimeError(f"{name} is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {self.dtype._cpp_name}")


def _cast(values, dtype):
    with np.errstate(all="ignore"):
        return values.astype(np.float32).astype(dtype) if dtype.itemsize == 2 else \
            values.astype(dtype)


@method()
def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fill with Cauchy samples: median + sigma * tan(pi (u - 1/2)), u uniform."""
    _check_float(self, "Cauchy distribution")
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    gen = _random._gen(generator)
    u = _random._uniform53(gen, self.numel())
    values = median + sigma * np.tan(math.pi * (u - 0.5))
    return _fill(self, _cast(values, self._data.dtype).reshape(tuple(self.shape)), _CauchyFill)


@method()
def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fill with exp(N(mean, std^2)) samples."""
    _check_float(self, "LogNormal distribution")
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    gen = _random._gen(generator)
    z = _random._normal_scalar(gen, self.numel(), float(mean), float(std))
    values = np.exp(z)
    return _fill(self, _cast(values, self._data.dtype).reshape(tuple(self.shape)),
                 _LogNormalFill)


@method()
def geometric_(self, p, *, generator=None):
    """Fill with the number of Bernoulli(p) trials up to the first success: ceil(log u /
    log(1 - p))."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    gen = _random._gen(generator)
    u = _random._uniform53(gen, self.numel())
    with np.errstate(all="ignore"):
        values = np.ceil(np.log(u) / math.log1p(-p))
    return _fill(self, _cast(values, self._data.dtype).reshape(tuple(self.shape)),
                 _GeometricFill)
