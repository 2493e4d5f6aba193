"""Weight normalization: w = g * v / ||v||. The hook-based `weight_norm` / `remove_weight_norm`
(deprecated in torch in favour of `parametrizations.weight_norm`), and the `_weight_norm` and
`norm_except_dim` functions both forms compute with."""

from ..._device import backend_of
from ..._ops._op import Op
from ..._ops.activations import apply
from ...autograd.grad_mode import no_grad
from ..parameter import Parameter, UninitializedParameter
from ... import _warn

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def _other_dims(ndim, dim):
    return tuple(d for d in range(ndim) if d != dim)


def norm_except_dim(v, pow=2, dim=0):
    """The `pow`-norm of `v` over every dim but `dim`, keeping those dims as size 1; `dim=-1`
    means over all of `v` (a 0-dim result)."""
    if dim == -1:
        return v.norm(pow)
    dim = dim % v.dim()
    return v.norm(pow, _other_dims(v.dim(), dim), keepdim=True)


class WeightNormInterface(Op):
    """v * (g / ||v||), the norm over every dim but `dim` (torch's fused kernel, used when
    `dim` is the first or the last dim)."""
    inputs = ("v", "g")
    saves = {"v": ("v", "g"), "g": ("v", "g")}

    def backward(ctx, grad):
        v, g = ctx.saved_tensors
        dims = _other_dims(v.dim(), ctx.dim)
        norm = (v * v).sum(dims, keepdim=True).sqrt()
        grad_dot_v = (grad * v).sum(dims, keepdim=True)
        need_v, need_g = ctx.needs_input_grad
        grad_v = grad_g = None
        if need_v:
            grad_v = (g / norm) * (grad - v * (grad_dot_v / (norm * norm)))
        if need_g:
            grad_g = (grad_dot_v / norm).reshape(g.shape)
        return grad_v, grad_g


def _weight_norm(v, g, dim=0):
    """torch._weight_norm: v * (g / norm_except_dim(v, 2, dim))."""
    if g.dtype != v.dtype:
        raise RuntimeError(f"expected scalar type {v.dtype._scalar_name} but found "
                           f"{g.dtype._scalar_name}")
    if dim != 0 and dim != v.dim() - 1:
        return v * (g / norm_except_dim(v, 2, dim))
    xp = backend_of(v._data).xp
    data = xp.asarray(v._data)
    norm = xp.sqrt((data * data).sum(axis=_other_dims(data.ndim, dim), keepdims=True))
    result = (data * (xp.asarray(g._data).reshape(norm.shape) / norm)).astype(data.dtype)
    return apply(WeightNormInterface, (v, g), result, {"dim": dim})


class WeightNorm:
    """The forward pre-hook that recomputes `module.<name>` from `<name>_g` and `<name>_v`."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        _warn.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                   "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                   stacklevel=2)   # NOTE: as torch's, it names the line in weight_norm()
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same "
                                   f"parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `WeightNorm` can't have uninitialized "
                             "parameters. Make sure to run the dummy forward before applying "
                             "weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2,
                                                                         fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Deprecated: replace `module.<name>` by `<name>_g * <name>_v / ||<name>_v||`, recomputed
    before each forward; the norm is over every dim but `dim` (all dims when None).

        m = nn.utils.weight_norm(nn.Linear(20, 40))   # m.weight_g: (40, 1), m.weight_v
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """Undo `weight_norm`: `module.<name>` becomes a plain parameter again."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            with no_grad():
                hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
