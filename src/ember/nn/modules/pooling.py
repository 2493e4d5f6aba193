"""Pooling layers: max, average, adaptive, unpooling, power-average and fractional max
pools."""
from .. import functional as F
from .module import Module
from ._named_init import own_init

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
           "MaxUnpool3d", "LPPool1d", "LPPool2d", "LPPool3d", "FractionalMaxPool2d",
           "FractionalMaxPool3d"]


# NOTE: each layer names its functional form (`_pool = "max_pool2d"`) and looks it up on each
# call, rather than binding the function when the class is made, so that the autocast hook
# wrapped around `F.max_pool3d` & co. applies to the layers as well.


def _ntuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        pool = getattr(F, self._pool)
        return pool(input, self.kernel_size, self.stride, self.padding, self.dilation,
                    ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}, dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """Max over windows of (N, C, L) or (C, L)."""
    _pool = "max_pool1d"


class MaxPool2d(_MaxPoolNd):
    """Max over windows of (N, C, H, W) or (C, H, W).

        >>> nn.MaxPool2d(2)
        MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """
    _pool = "max_pool2d"


class MaxPool3d(_MaxPoolNd):
    """Max over windows of (N, C, D, H, W) or (C, D, H, W)."""
    _pool = "max_pool3d"


class AvgPool1d(Module):
    """Averages over windows of (N, C, L) or (C, L)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        pool = getattr(F, self._pool)
        return pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                    self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolNd):
    """Averages over windows of (N, C, H, W) or (C, H, W)."""
    _pool = "avg_pool2d"


class AvgPool3d(_AvgPoolNd):
    """Averages over windows of (N, C, D, H, W) or (C, D, H, W)."""
    _pool = "avg_pool3d"


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return getattr(F, self._pool)(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class _AdaptiveMaxPoolNd(_AdaptiveAvgPoolNd):
    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input):
        return getattr(F, self._pool)(input, self.output_size, self.return_indices)


def _adaptive(name, pool, with_indices, doc):
    base = _AdaptiveMaxPoolNd if with_indices else _AdaptiveAvgPoolNd
    return type(name, (base,), {"_pool": pool, "__doc__": doc, "__module__": __name__})


AdaptiveAvgPool1d = _adaptive("AdaptiveAvgPool1d", "adaptive_avg_pool1d", False,
                              "Averages over output_size adaptive windows of L.")
AdaptiveAvgPool2d = _adaptive("AdaptiveAvgPool2d", "adaptive_avg_pool2d", False,
                              "Averages over adaptive windows to an (h, w) output; None keeps "
                              "that size.")
AdaptiveAvgPool3d = _adaptive("AdaptiveAvgPool3d", "adaptive_avg_pool3d", False,
                              "Averages over adaptive windows to a (d, h, w) output.")
AdaptiveMaxPool1d = _adaptive("AdaptiveMaxPool1d", "adaptive_max_pool1d", True,
                              "Maxima over output_size adaptive windows of L.")
AdaptiveMaxPool2d = _adaptive("AdaptiveMaxPool2d", "adaptive_max_pool2d", True,
                              "Maxima over adaptive windows to an (h, w) output.")
AdaptiveMaxPool3d = _adaptive("AdaptiveMaxPool3d", "adaptive_max_pool3d", True,
                              "Maxima over adaptive windows to a (d, h, w) output.")


class _MaxUnpoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        n = self._dims
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride if stride is not None else kernel_size, n)
        self.padding = _ntuple(padding, n)

    def forward(self, input, indices, output_size=None):
        unpool = getattr(F, self._unpool)
        return unpool(input, indices, self.kernel_size, self.stride, self.padding,
                      output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Puts MaxPool1d's values back at their indices, zeros elsewhere."""
    _dims = 1
    _unpool = "max_unpool1d"


class MaxUnpool2d(_MaxUnpoolNd):
    """Puts MaxPool2d's values back at their indices, zeros elsewhere."""
    _dims = 2
    _unpool = "max_unpool2d"


class MaxUnpool3d(_MaxUnpoolNd):
    """Puts MaxPool3d's values back at their indices, zeros elsewhere."""
    _dims = 3
    _unpool = "max_unpool3d"


class _LPPoolNd(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        pool = getattr(F, self._pool)
        return pool(input, float(self.norm_type), self.kernel_size, self.stride,
                    self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """(sum over each window of x ** p) ** (1 / p) over (N, C, L) or (C, L)."""
    _pool = "lp_pool1d"


class LPPool2d(_LPPoolNd):
    """(sum over each window of x ** p) ** (1 / p) over (N, C, H, W) or (C, H, W)."""
    _pool = "lp_pool2d"


class LPPool3d(_LPPoolNd):
    """(sum over each window of x ** p) ** (1 / p) over (N, C, D, H, W)."""
    _pool = "lp_pool3d"


class _FractionalMaxPoolNd(Module):
    """kernel_size, and exactly one of output_size or output_ratio (each in (0, 1)); a given
    _random_samples tensor is kept as a buffer and fixes the windows. No extra_repr, as torch:
    the layer prints as `FractionalMaxPool2d()`."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        n = self._dims
        self.kernel_size = _ntuple(kernel_size, n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, n) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{type(self).__name__} requires specifying either an output "
                             f"size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        ratio = self.output_ratio
        if ratio is not None and not all(0 < ratio[d] < 1 for d in range(n)):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        pool = getattr(F, self._pool)
        return pool(input, self.kernel_size, self.output_size, self.output_ratio,
                    self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Max over kernel_size windows of (N, C, H, W) or (C, H, W) whose starts advance by
    pseudo-random steps (Graham, 2014), to output_size or output_ratio of the input's size.

        >>> nn.FractionalMaxPool2d(3, output_ratio=0.5)(torch.randn(1, 2, 10, 9)).shape
        torch.Size([1, 2, 5, 4])
    """
    _dims = 2
    _pool = "fractional_max_pool2d"


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling of (N, C, T, H, W) or (C, T, H, W)."""
    _dims = 3
    _pool = "fractional_max_pool3d"

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        if (isinstance(kernel_size, int) and kernel_size <= 0) or (
                isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size)):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        super().__init__(kernel_size, output_size, output_ratio, return_indices,
                         _random_samples)


# (argument errors name each layer's own __init__, as torch's: see _named_init.py)
own_init(AvgPool2d, AvgPool3d, FractionalMaxPool2d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d)
