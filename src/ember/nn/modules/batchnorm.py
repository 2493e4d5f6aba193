"""BatchNorm1d/2d/3d: per-channel normalization over the batch, with running statistics
(buffers running_mean, running_var, num_batches_tracked) used in eval mode; their lazy forms."""
from ..._creation import empty, ones, tensor, zeros
from ... import _dtype
from .. import functional as F, init
from ...autograd.grad_mode import no_grad
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module
from ._named_init import own_init

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LazyBatchNorm1d",
           "LazyBatchNorm2d", "LazyBatchNorm3d"]


class _NormBase(Module):
    """Parameters, buffers and printed form shared by batch and instance norm."""

    _version = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(empty(num_features, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(num_features, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked",
                                 tensor(0, dtype=_dtype.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        # NOTE: num_batches_tracked came with version 2: entries saved before it (or a plain
        # dict without metadata) load with the module's own count, as in torch.
        version = local_metadata.get("version")
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats \
                and key not in state_dict:
            state_dict[key] = self.num_batches_tracked if self.num_batches_tracked is not None \
                else tensor(0, dtype=_dtype.int64)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def reset_running_stats(self):
        """Zero the running mean and count; running variance back to ones."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            # NOTE: momentum None means a cumulative moving average: the k-th batch weighs 1/k.
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        # Eval mode uses the running statistics, or the batch's when none are tracked.
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if keep else None,
                            self.running_var if keep else None, self.weight, self.bias,
                            use_batch, factor, self.eps)


def _expect(input, dims, text):
    if input.dim() not in dims:
        raise ValueError(f"expected {text} input (got {input.dim()}D input)")


class BatchNorm1d(_BatchNorm):
    """Batch norm of (N, C) or (N, C, L) input.

        >>> ember.nn.BatchNorm1d(16)
        BatchNorm1d(16, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, input):
        _expect(input, (2, 3), "2D or 3D")


class BatchNorm2d(_BatchNorm):
    """Batch norm of (N, C, H, W) input (each channel over N, H and W)."""

    def _check_input_dim(self, input):
        _expect(input, (4,), "4D")


class BatchNorm3d(_BatchNorm):
    """Batch norm of (N, C, D, H, W) input."""

    def _check_input_dim(self, input):
        _expect(input, (5,), "5D")


class SyncBatchNorm(_BatchNorm):
    """Batch norm of any (N, C, ...) input whose statistics torch shares across the processes
    of a group. ember shares none: without a process group (or in eval mode) this is
    BatchNorm; with one, training on a CPU input is refused as torch refuses it (torch syncs
    only GPU inputs)."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, device=None, dtype=None, *,
                 bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def forward(self, input):
        from ... import distributed
        self._check_input_dim(input)
        if input.shape[1] == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        if self.training and input.device.type != "cuda" and distributed.is_initialized():
            # (torch has counted the batch by then)
            if self.track_running_stats and self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
            raise ValueError("SyncBatchNorm expected input tensor to be on GPU or XPU or "
                             "privateuseone")
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """`module` with every BatchNorm*d inside replaced by a SyncBatchNorm sharing its
        parameters and buffers (a new module when `module` itself is one)."""
        converted = module
        if isinstance(module, _BatchNorm):
            converted = cls(module.num_features, module.eps, module.momentum, module.affine,
                            module.track_running_stats, process_group)
            if module.affine:
                converted.weight = module.weight
                converted.bias = module.bias
            converted.running_mean = module.running_mean
            converted.running_var = module.running_var
            converted.num_batches_tracked = module.num_batches_tracked
            converted.training = module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted



# -- lazy forms: num_features inferred from the first input (batch and instance norm) ----------

class _LazyNormBase(LazyModuleMixin, _NormBase):
    """Uninitialized weight, bias and running statistics until the first input gives
    num_features (its dim 1); then the norm's own initialisation."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        # NOTE: built without parameters or statistics (0 features), which come below.
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = tensor(0, dtype=_dtype.int64, device=device)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        shape = (self.num_features,)
        with no_grad():
            for value in (self.weight, self.bias, self.running_mean, self.running_var):
                if value is not None:
                    value.materialize(shape)
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """A BatchNorm1d whose num_features is inferred from its first input."""
    cls_to_become = BatchNorm1d
    _check_input_dim = BatchNorm1d._check_input_dim


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """A BatchNorm2d whose num_features is inferred from its first input.

        >>> ember.nn.LazyBatchNorm2d(affine=False)(ember.ones(2, 3, 1, 1)).shape
        torch.Size([2, 3, 1, 1])
    """
    cls_to_become = BatchNorm2d
    _check_input_dim = BatchNorm2d._check_input_dim


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """A BatchNorm3d whose num_features is inferred from its first input."""
    cls_to_become = BatchNorm3d
    _check_input_dim = BatchNorm3d._check_input_dim


# (argument errors name each layer's own __init__, as torch's: see _named_init.py)
own_init(BatchNorm1d, BatchNorm2d, BatchNorm3d, owner="_BatchNorm")
