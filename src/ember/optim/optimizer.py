"""The `Optimizer` base: parameter groups, per-parameter state, hooks and (de)serialisation.

Each algorithm (sgd.py, adam.py, ...) only writes its update rule in `step`. Updates run on
the parameters' arrays (`p._data`) in place, then bump the version counter, so a step costs a
few array calls per parameter and records no graph.
"""
import typing
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from copy import deepcopy
from itertools import chain

import numpy as np

from .. import _dtype
from .._device import backend_of
from .._tensor import Tensor, wrap
from .._tensor_types import typename
from ..autograd.grad_mode import enable_grad
from ..autograd.graph import add_hook, new_hook_dict
from .. import _warn

_GRAD = Tensor.grad     # the property (a subclass may have its own)

__all__ = ["Optimizer", "required", "register_optimizer_step_pre_hook",
           "register_optimizer_step_post_hook"]


class _RequiredParameter:
    """Singleton marking a default that every parameter group must set (torch's `required`)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()

_global_pre_hooks = new_hook_dict()
_global_post_hooks = new_hook_dict()


def register_optimizer_step_pre_hook(hook):
    """Run `hook(optimizer, args, kwargs)` before every optimizer's `step`."""
    return add_hook(_global_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    """Run `hook(optimizer, args, kwargs)` after every optimizer's `step`."""
    return add_hook(_global_post_hooks, hook)


def _with_step_hooks(step):
    """Wrap a subclass's `step` so that the step pre- and post-hooks run around it.

    NOTE: a subclass's step calling `super().step()` runs the hooks once, for the outer call.
    """
    def wrapper(self, *args, **kwargs):
        if self.__dict__.get("_in_step"):
            return step(self, *args, **kwargs)
        self._in_step = True
        # NOTE: as in torch, the hooks' `args` are step's positional arguments, self first.
        args = (self,) + args
        try:
            pre = self._optimizer_step_pre_hooks
            if pre or _global_pre_hooks:
                for hook in chain(list(_global_pre_hooks.values()), list(pre.values())):
                    result = hook(self, args, kwargs)
                    if result is not None:
                        if isinstance(result, tuple) and len(result) == 2:
                            args, kwargs = result
                        else:
                            raise RuntimeError(f"{step} must return None or a tuple of "
                                               f"(new_args, new_kwargs), but got {result}.")
            out = step(*args, **kwargs)
            post = self._optimizer_step_post_hooks
            if post or _global_post_hooks:
                for hook in chain(list(post.values()), list(_global_post_hooks.values())):
                    hook(self, args, kwargs)
        finally:
            self._in_step = False
        return out
    wrapper.__name__ = step.__name__
    wrapper.__qualname__ = step.__qualname__
    wrapper.__doc__ = step.__doc__
    wrapper.__wrapped__ = step
    wrapper._runs_step_hooks = True
    return wrapper


def check_fused(fused, foreach):
    """torch's refusal of fused=True with foreach=True (SGD, Adam, AdamW, Adagrad), checked
    after the groups are built; ember runs the same update whatever `fused` says.
    (differentiable=True is refused before, by Optimizer.__init__, with fused=True in torch's
    words.)"""
    if fused and foreach:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def check_capturable(optimizer, group):
    """torch's capturable=True keeps the step counters on the accelerator, and its step refuses
    parameters (with a gradient) elsewhere with an AssertionError naming the devices that
    support it. foreach=None means the per-tensor loop on the CPU, whose list names 'xla' for
    most optimizers; each class says its wording and lists in `_capturable_text`:
    (what, xla in the loop, what with foreach, xla with foreach)."""
    if all(p.grad is None or p.device.type == "cuda" for p in group["params"]):
        return
    what, xla, what_foreach, xla_foreach = optimizer._capturable_text
    if group.get("foreach"):
        what, xla = what_foreach, xla_foreach
    devices = ["cuda", "xpu", "hpu", "privateuseone"] + (["xla"] if xla else [])
    raise AssertionError(f"If capturable=True, {what} must be on supported devices: {devices}.")


def check_lr_tensor(lr):
    """torch accepts a one-element tensor as learning rate."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def to_scalar(value):
    """A hyper-parameter as a Python number (a tensor learning rate is read with `.item()`)."""
    return value.item() if isinstance(value, Tensor) else value


def as_number(value):
    """A learning rate or beta as a number. torch keeps a tensor one as a 0-dim tensor, so
    the step's arithmetic on it rounds in its dtype: it is read as a NumPy scalar of that
    dtype, whose arithmetic with Python numbers rounds the same way."""
    if isinstance(value, Tensor):
        return value._data.dtype.type(value.item())
    return value


def scalar_dtype():
    """The dtype of the `step` counters: float64 when that is the default dtype, else float32."""
    return np.float64 if _dtype.get_default_dtype() is _dtype.float64 else np.float32


def zero_step():
    """A fresh `step` counter: `tensor(0.)` of the scalar dtype, as torch stores it."""
    return wrap(np.zeros((), scalar_dtype()))


def step_counter(state):
    """The array of a parameter's `step` counter. torch refuses a state whose `step` is not a
    tensor (set by hand; old state dicts' int steps are converted on loading)."""
    step = state["step"]
    if not isinstance(step, Tensor):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of "
                           "singleton tensors")
    return step._data


def zeros_state(p, fill=0):
    """A state buffer shaped and laid out like parameter `p`, filled with `fill`."""
    data = p._data
    xp = backend_of(data).xp
    buf = xp.zeros_like(data) if fill == 0 else xp.full_like(data, fill)
    return wrap(buf)


def refuse_sparse(p, name):
    """torch's error for a sparse gradient (nn.Embedding(sparse=True)) given to an optimizer
    with no sparse update rule."""
    if getattr(type(p.grad._data), "layout", None):
        raise RuntimeError(f"{name} does not support sparse gradients")


def as_real(array):
    """A real view of a complex array (torch's `view_as_real`, flattened into the last axis);
    real arrays pass through. Adaptive methods treat real and imaginary parts apart."""
    if array.dtype.kind != "c":
        return array
    return array.view(array.real.dtype)


class Optimizer:
    """Base class of all optimizers.

    `params` is an iterable of tensors, or of dicts (parameter groups) each holding `'params'`
    and any options that override `defaults`. `state` maps each parameter to its dict of
    buffers, created lazily by the first `step`.
    """

    # torch's type aliases of the step hooks: hook(optimizer, args, kwargs)
    _Args, _Kwargs = tuple[typing.Any, ...], dict[str, typing.Any]
    _Self = getattr(typing, "Self", None) or typing.TypeVar("Self")     # (Python 3.10)
    OptimizerPreHook = Callable[[_Self, _Args, _Kwargs], tuple[_Args, _Kwargs] | None]
    OptimizerPostHook = Callable[[_Self, _Args, _Kwargs], None]
    del _Args, _Kwargs, _Self

    _group_defaults = {}    # option -> default, for groups of optimizers pickled before it
    # per-parameter numbers kept as 0-dim tensors (state dicts from before torch 1.12 hold
    # plain numbers; loading turns them into tensors)
    _scalar_state = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # NOTE: every subclass's own `step` is wrapped once, at class creation, so that the
        # step hooks run around it (torch patches the class on first construction instead).
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_runs_step_hooks", False):
            cls.step = _with_step_hooks(step)

    @staticmethod
    def profile_hook_step(func):
        """Wrap a `step` function so that the step pre- and post-hooks run around it (what
        every subclass's own `step` gets, see __init_subclass__)."""
        return _with_step_hooks(func)

    def __init__(self, params, defaults):
        if defaults.get("differentiable"):
            if defaults.get("fused"):       # (torch's own refusal comes first)
                raise RuntimeError("`fused` does not support `differentiable`")
            # NOTE: steps update the arrays directly, so no graph could flow through them;
            # failing beats silently returning wrong gradients.
            raise NotImplementedError("ember.optim does not support differentiable=True")
        self.defaults = defaults
        self._optimizer_step_pre_hooks = new_hook_dict()
        self._optimizer_step_post_hooks = new_hook_dict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + params.type())
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, new_hook_dict())
        for name in ("_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for key, value in self._group_defaults.items():
                group.setdefault(key, value)
            for p in group["params"]:
                p_state = self.state.get(p)
                for key in self._scalar_state if p_state else ():
                    if key in p_state and not isinstance(p_state[key], Tensor):
                        p_state[key] = wrap(np.array(float(p_state[key]), scalar_dtype()))

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    # -- parameter groups ------------------------------------------------------------------

    def add_param_group(self, param_group):
        """Add a group of parameters (a dict with 'params'), filling options from defaults."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            params = list(params)
        tensors, names = [], []
        for param in params:
            if isinstance(param, tuple):       # (name, tensor) from named_parameters()
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError("all optimizer params should be with/without names. Some "
                                 "param names are missing")
            param_group["param_names"] = names

        for param in tensors:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)

        if len(tensors) != len(set(tensors)):
            _warn.warn("optimizer contains a parameter group with duplicate parameters; in "
                       "future, this will cause an error; see "
                       "github.com/pytorch/pytorch/issues/40967 for more information",
                       stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError(f"all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not seen.isdisjoint(tensors):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Reset every parameter's gradient: to None (default), or to zeros in place."""
        for group in self.param_groups:
            for p in group["params"]:
                if set_to_none and p.__class__.grad is _GRAD:
                    # p.grad = None where it is set, without the property's checks
                    meta = p._meta
                    if meta is not None:
                        meta.grad = None
                    continue
                grad = p.grad
                if grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if grad.grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    def step(self, closure=None):
        """Perform one optimization step; `closure` re-evaluates the model and returns the loss."""
        raise NotImplementedError

    def _eval_closure(self, closure):
        # NOTE: steps record no graph (they work on arrays), but the closure must: it runs
        # the forward and backward passes, even when `step` is called under no_grad.
        if closure is None:
            return None
        with enable_grad():
            return closure()

    # -- hooks -----------------------------------------------------------------------------

    def register_step_pre_hook(self, hook):
        """`hook(optimizer, args, kwargs)` runs before `step`; it may return new (args, kwargs)."""
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """`hook(optimizer, args, kwargs)` runs after `step`."""
        return add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        return _add_ordered_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        return _add_ordered_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        return _add_ordered_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        return _add_ordered_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # -- serialisation ---------------------------------------------------------------------

    def state_dict(self):
        """{'state': {index: buffers}, 'param_groups': [options with 'params' as indices]}.

        Parameters are numbered in order across groups. As in torch, the state dicts and their
        tensors are the optimizer's own objects, not copies.
        """
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        index_of = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                if id(p) not in index_of:
                    index_of[id(p)] = len(index_of)
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {(index_of[id(k)] if isinstance(k, Tensor) else k): v
                 for k, v in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict):
        """Load `state_dict()` output: options per group, and state cast to each parameter's
        dtype (floating parameters) and device; `step` counters keep their dtype."""
        state_dict = state_dict.copy()
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        param_of = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                            chain.from_iterable(g["params"] for g in groups)))
        state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in param_of:
                param = param_of[key]
                state[param] = _cast_state(param, value)
            else:
                state[key] = value
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)


def _cast_state(param, value, key=None):
    """A parameter's loaded state: tensors moved to its device and, unless they are the
    `step` counter, cast to its dtype when it is floating. Containers are rebuilt."""
    if isinstance(value, Tensor):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast_state(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_state(param, v) for v in value)
    return value


def _add_ordered_hook(hooks, hook, prepend):
    handle = add_hook(hooks, hook)
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle
