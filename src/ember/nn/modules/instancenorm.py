"""InstanceNorm1d/2d/3d: each channel of each sample normalized over its own spatial dims
(no affine parameters and no running statistics by default), and their lazy forms."""

from .. import functional as F
from .batchnorm import _LazyNormBase, _NormBase
from ... import _warn

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LazyInstanceNorm1d",
           "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class _InstanceNorm(_NormBase):
    _no_batch_dim = None        # dims of an unbatched input (C, ...)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        # NOTE: before torch 0.4 instance norm tracked running statistics by default; a plain
        # dict (no version) that still has them gets torch's explanation, not "unexpected keys"
        found = [prefix + n for n in ("running_mean", "running_var") if prefix + n in state_dict]
        if local_metadata.get("version") is None and not self.track_running_stats and found:
            name = type(self).__name__
            listed = " and ".join(f'"{k}"' for k in found)
            error_msgs.append(
                f"Unexpected running stats buffer(s) {listed} for {name} with "
                f"track_running_stats=False. If state_dict is a checkpoint saved before 0.4.0, "
                f"this may be expected because {name} does not track running stats by default "
                f"since 0.4.0. Please remove these keys from state_dict. If the running stats "
                f"are actually needed, instead set track_running_stats=True in {name} to "
                f"enable them. See the documentation of {name} for details.")
            for key in found:
                del state_dict[key]
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def _check_input_dim(self, input):
        dims = (self._no_batch_dim, self._no_batch_dim + 1)
        if input.dim() not in dims:
            raise ValueError(f"expected {dims[0]}D or {dims[1]}D input (got {input.dim()}D "
                             f"input)")

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            _warn.warn(f"input's size at dim={feature_dim} does not match num_features. "
                       f"You can silence this warning by not passing in num_features, which "
                       f"is not used because affine=False", UserWarning, stacklevel=2)
        if input.dim() == self._no_batch_dim:
            return self._normalize(input.unsqueeze(0)).squeeze(0)
        return self._normalize(input)

    def _normalize(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)


class InstanceNorm1d(_InstanceNorm):
    """Instance norm of (N, C, L) or (C, L) input."""
    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance norm of (N, C, H, W) or (C, H, W) input."""
    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance norm of (N, C, D, H, W) or (C, D, H, W) input."""
    _no_batch_dim = 4


# NOTE: as in torch, the lazy instance norms default to affine=True and
# track_running_stats=True (the ordinary ones to False): the defaults of _LazyNormBase.

class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm1d whose num_features is inferred from its first input's dim 1."""
    cls_to_become = InstanceNorm1d
    _no_batch_dim = 2


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm2d whose num_features is inferred from its first input's dim 1."""
    cls_to_become = InstanceNorm2d
    _no_batch_dim = 3


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm3d whose num_features is inferred from its first input's dim 1."""
    cls_to_become = InstanceNorm3d
    _no_batch_dim = 4
