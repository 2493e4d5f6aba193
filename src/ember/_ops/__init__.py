"""Every operator family. Importing this package registers them all in `registry`."""
from .. import _creation
from . import (activations, binary, compare, complex_parts, conversion,  # noqa: F401
               creation_more, elementwise_extra, elementwise_more, indexing, inplace,
               integration, joining, legacy_linalg, linalg, logical, products, queries,
               reduction, sampling, scans, scatter_gather, scatter_views, shaping, sorting,
               splitting, statistics, ternary, unary, views, views_inplace,
               views_strided, views_transpose)
# (after the modules whose helpers they share)
from . import dim_activations, nonzero_indices, reduction_extremes, unary_trig  # noqa: F401
from . import binary_remainders, indexing_setitem  # noqa: F401
from . import spectral_stft, spectral_windows  # noqa: F401
from . import histograms, index_reduce, sampling_more  # noqa: F401
from . import legacy_factorizations  # noqa: F401
from . import gradient, view_copies  # noqa: F401
from . import hashing, segment_reduce  # noqa: F401
from . import inplace_functions  # noqa: F401  (after the families it forwards to)
from . import operators, registry


def install(namespace, tensor_class):
    """Export every operator as `ember.<name>` and install the Tensor methods and operators."""
    for fn in _creation.NEW_METHODS:
        registry.register(fn.__name__, fn, function=False)
    registry.install(namespace, tensor_class)
    # the factories of _creation, which the registry does not export: torch's argument-parser
    # texts for calls that fit none of their signatures (`torch.arange()`)
    for name in ("arange", "eye", "linspace", "logspace", "full", "empty_strided", "zeros_like",
                 "ones_like", "empty_like", "full_like", "tensor", "as_tensor"):
        namespace[name] = registry.parser_errors(getattr(_creation, name), name, function=True)
    operators.install(tensor_class)
    views.install_properties(tensor_class)
