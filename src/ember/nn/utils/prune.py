"""torch.nn.utils.prune: zeroing parts of a parameter through a mask.

Pruning `module.<name>` moves the parameter to `<name>_orig`, adds the 0/1 buffer `<name>_mask`
and makes `module.<name>` the product of the two, a plain tensor that the pruning method (a
forward pre-hook of the module) recomputes before each forward. Pruning the same parameter
again combines the methods in a `PruningContainer`: each new mask only prunes among the
entries (or channels) the earlier ones kept. `remove` makes the pruning permanent.

    prune.l1_unstructured(model.fc, name="weight", amount=0.3)   # the 30% smallest |w|
    prune.remove(model.fc, "weight")                             # fc.weight: a Parameter again

Which entries go follows torch exactly: the selections are topk's index sets (ties broken as
torch's CPU kernel breaks them, see _ops/_libstdcxx_select.py) and the random methods draw
from the generator as torch does, so a seeded program prunes the same entries.
"""
import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

from ... import _creation
from ..._memory_format import contiguous_format
from ..._ops.order_statistics import kthvalue
from ..._ops.sampling import rand, rand_like
from .convert_parameters import parameters_to_vector
from ..._ops._libstdcxx_select import topk_positions

__all__ = ["BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured",
           "L1Unstructured", "RandomStructured", "LnStructured", "CustomFromMask", "identity",
           "random_unstructured", "l1_unstructured", "random_structured", "ln_structured",
           "global_unstructured", "custom_from_mask", "remove", "is_pruned"]


class BasePruningMethod(ABC):
    """A way of computing a pruning mask. An instance attached to a module is the forward
    pre-hook that sets `module.<_tensor_name>` to `<name>_orig * <name>_mask`. Subclasses set
    `PRUNING_TYPE` ("unstructured", "structured" with a `dim`, or "global") and define
    `compute_mask`."""

    _tensor_name: str

    def __call__(self, module, inputs):
        """The forward pre-hook: recompute the pruned tensor from the current `_orig`."""
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The new mask for tensor `t`, given the mask `default_mask` of earlier pruning."""

    def apply_mask(self, module):
        """`<name>_orig` times `<name>_mask` (the mask cast to the parameter's dtype)."""
        assert self._tensor_name is not None, f"Module {module} has to be pruned"
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune `module.<name>` with `cls(*args, **kwargs)` (combined with the method already
        pruning it, if any); the mask is computed from `importance_scores` (default: the
        parameter itself). Returns the method now attached as the module's hook."""
        method = _composite_method(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is not None:
            assert importance_scores.shape == orig.shape, (
                f"importance_scores should have the same shape as parameter {name} of "
                f"{module}, got {importance_scores.shape} vs {orig.shape}")
        else:
            importance_scores = orig
        first = not isinstance(method, PruningContainer)
        if first:
            module.register_parameter(name + "_orig", orig)
            default_mask = _creation.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone(
                memory_format=contiguous_format)
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            delattr(module, name)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:       # the parameter goes back to its name (torch restores only this)
                module.register_parameter(name, getattr(module, name + "_orig"))
                delattr(module, name + "_orig")
            raise
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """`t` times the mask this method computes (from `importance_scores` when given, on top
        of `default_mask`, all ones by default); no module involved."""
        if importance_scores is not None:
            assert importance_scores.shape == t.shape, (
                f"importance_scores should have the same shape as tensor t, got "
                f"{importance_scores.shape} vs {t.shape}")
        else:
            importance_scores = t
        if default_mask is None:
            default_mask = _creation.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module):
        """Make the pruning permanent: `<name>` becomes a parameter holding the pruned values
        (the `_orig` parameter object itself) and `_orig` and `_mask` go. The caller removes
        the hook."""
        assert self._tensor_name is not None, (
            f"Module {module} has to be pruned before pruning can be removed")
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _composite_method(cls, module, name, *args, **kwargs):
    """A new `cls(*args, **kwargs)` for `name`; when a method already prunes `name` its hook
    is taken off and the two are chained in a PruningContainer (the existing one, if so)."""
    keys = [key for key, hook in module._forward_pre_hooks.items()
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    assert len(keys) <= 1, (f"Avoid adding multiple pruning hooks to the same tensor {name} "
                            f"of module {module}. Use a PruningContainer.")
    old = module._forward_pre_hooks[keys[0]] if keys else None
    for key in keys:
        del module._forward_pre_hooks[key]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if isinstance(old, PruningContainer):
        old.add_pruning_method(method)
        return old
    if isinstance(old, BasePruningMethod):
        container = PruningContainer(old)
        container.add_pruning_method(method)
        return container
    return method


class PruningContainer(BasePruningMethod):
    """The pruning methods applied, in order, to one parameter. Its mask is the last method's
    mask computed only over what the earlier masks kept: the unpruned entries (unstructured),
    the channels along `dim` not entirely pruned (structured) or everything (global)."""

    def __init__(self, *args):
        self._pruning_methods = tuple()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:       # with several methods, torch sets no _tensor_name: adding one then fails
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method):
        """Append `method` (it must prune the container's parameter; None is appended as is)."""
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(f"Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        """`default_mask` with the last method's mask written over the part it still keeps."""
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        kept = _kept_part(method, t, default_mask)
        partial = method.compute_mask(t[kept], default_mask=default_mask[kept])
        new_mask[kept] = partial.to(dtype=new_mask.dtype)
        return new_mask


def _kept_part(method, t, mask):
    """The index of the part of `t` that `method` prunes within, given the mask so far."""
    kind = method.PRUNING_TYPE
    if kind == "unstructured":
        return mask == 1
    if kind == "structured":
        if not hasattr(method, "dim"):
            raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have '
                                 "the attribute `dim` defined.")
        ndim = t.dim()
        dim = method.dim + ndim if method.dim < 0 else method.dim
        if dim < 0:
            raise IndexError(f"Index is out of bounds for tensor with dimensions {ndim}")
        keep_channel = mask.sum(dim=[d for d in range(ndim) if d != dim]) != 0
        index = [slice(None)] * ndim
        index[dim] = keep_channel       # a dim past the last: Python's IndexError, as in torch
        return tuple(index)
    if kind == "global":
        return (slice(None),) * len(t.shape)
    raise ValueError(f"Unrecognized PRUNING_TYPE {kind}")


# -- the methods ------------------------------------------------------------------------------

class Identity(BasePruningMethod):
    """Prunes nothing: the mask stays as it is (all ones on a fresh parameter)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class _Unstructured(BasePruningMethod):
    """Prunes `amount` entries (a count, or a fraction of the entries): those a score ranks
    first (`_scores(t)`, computed only when something is pruned; `_largest`: which end)."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _validate_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        size = t.nelement()
        nprune = _nparams_to_prune(self.amount, size)
        _validate_amount(nprune, size)
        mask = default_mask.clone(memory_format=contiguous_format)
        if nprune != 0:
            mask.view(-1)[_topk_index(self._scores(t).view(-1), nprune, self._largest)] = 0
        return mask


class RandomUnstructured(_Unstructured):
    """Prunes `amount` entries (a count, or a fraction of the entries) chosen at random: those
    with the largest `rand_like(t)` draws."""

    _largest = True

    def _scores(self, t):
        return rand_like(t)

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prunes the `amount` entries (a count, or a fraction) of smallest absolute value."""

    _largest = False

    def _scores(self, t):
        return t.abs()

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes `amount` channels (slices along `dim`, a count or a fraction) at random: those
    whose `rand(channels)` draw is at most the `amount`-th smallest."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1):
        _validate_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured(t)
        _validate_dim(t, self.dim)
        channels = t.shape[self.dim]
        nprune = _nparams_to_prune(self.amount, channels)
        _validate_amount(nprune, channels)
        if nprune == 0:
            mask = default_mask
        else:
            prob = rand(channels)
            if isinstance(nprune, bool):
                raise TypeError("kthvalue(): argument 'k' must be int, not bool")
            threshold = kthvalue(prob, k=nprune).values
            mask = _channel_mask(t, self.dim, prob > threshold)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the `amount` channels along `dim` (a count or a fraction) of smallest `n`-norm
    (`n` as `torch.norm`'s `p`: a number, inf, -inf or "fro"), keeping topk's largest."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1):
        _validate_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured(t)
        _validate_dim(t, self.dim)
        channels = t.shape[self.dim]
        nprune = _nparams_to_prune(self.amount, channels)
        nkeep = channels - nprune
        _validate_amount(nprune, channels)
        dims = list(range(t.dim()))
        del dims[self.dim]
        keep = _topk_index(t.norm(p=self.n, dim=dims), nkeep, True)
        if nprune == 0:
            mask = default_mask
        else:
            mask = _channel_mask(t, self.dim, keep)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where the given `mask` is 0 (on top of earlier pruning)."""

    PRUNING_TYPE = "global"

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        assert default_mask.shape == self.mask.shape, (
            f"default_mask shape {default_mask.shape} must match self.mask shape "
            f"{self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


# -- helpers ----------------------------------------------------------------------------------

def _topk_index(values, k, largest):
    """The indices (a tensor) `topk(values, k, largest=largest)` returns for a 1-D tensor, as
    a set: torch's choice among ties included."""
    if isinstance(k, bool):
        raise TypeError("topk(): argument 'k' must be int, not bool")
    data = values.detach().cpu().numpy()
    if not 0 <= k <= data.shape[0]:
        raise RuntimeError("selected index k out of range")
    return _creation.tensor(topk_positions(data, k, largest), device=values.device)


def _channel_mask(t, dim, channels):
    """Zeros shaped like `t` with ones in the channels along `dim` that `channels` (a boolean
    mask or indices) picks."""
    mask = _creation.zeros_like(t)
    mask[tuple(channels if d == dim % t.dim() else slice(None) for d in range(t.dim()))] = 1
    return mask


def _validate_amount_init(amount):
    """`amount` must be a real number: a non-negative integer or a fraction in [0, 1]."""
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (amount < 0 if isinstance(amount, numbers.Integral)
            else float(amount) > 1.0 or float(amount) < 0.0):     # NaN passes, as in torch
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         f"non-negative integer")


def _validate_amount(amount, tensor_size):
    """An integer amount cannot exceed the number of entries (or channels)."""
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to "
                         f"prune={tensor_size}")


def _nparams_to_prune(amount, tensor_size):
    """An integer amount as is, a fraction of `tensor_size` rounded (half to even)."""
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_structured(t):
    if len(t.shape) <= 1:
        raise ValueError(f"Structured pruning can only be applied to multidimensional tensors. "
                         f"Found tensor of shape {t.shape} with {len(t.shape)} dims")


def _validate_dim(t, dim):
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


# -- the functional forms -----------------------------------------------------------------------

def identity(module, name):
    """Attach pruning to `module.<name>` without pruning anything (mask of ones)."""
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    """Prune `amount` random entries of `module.<name>` (a count or a fraction)."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    """Prune the `amount` entries of `module.<name>` of smallest |value| (of
    `importance_scores` when given)."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    """Prune `amount` random channels of `module.<name>` along `dim`."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    """Prune the `amount` channels of `module.<name>` along `dim` of smallest `n`-norm."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """Prune the (module, name) pairs of `parameters` together: `pruning_method(**kwargs)`
    (an unstructured method, e.g. L1Unstructured with amount=) picks among all their entries
    as one vector; each then gets its part through `custom_from_mask`. `importance_scores`
    maps (module, name) to the scores to use instead of the parameter."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    scores = parameters_to_vector([importance_scores.get((module, name), getattr(module, name))
                                   for module, name in parameters])
    default_mask = parameters_to_vector([
        getattr(module, name + "_mask", _creation.ones_like(getattr(module, name)))
        for module, name in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(f'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    final_mask = container.compute_mask(scores, default_mask)
    start = 0
    for module, name in parameters:
        param = getattr(module, name)
        count = param.numel()
        custom_from_mask(module, name, mask=final_mask[start:start + count].view_as(param))
        start += count


def custom_from_mask(module, name, mask):
    """Prune `module.<name>` where `mask` (same shape) is 0."""
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    """Make the pruning of `module.<name>` permanent and take its hook off: `<name>` is a
    parameter again (holding the pruned values), `<name>_orig` and `<name>_mask` are gone."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     f"can be removed")


def is_pruned(module):
    """Whether `module` or any module inside it has a pruning hook."""
    return any(isinstance(hook, BasePruningMethod)
               for _, sub in module.named_modules() for hook in sub._forward_pre_hooks.values())
