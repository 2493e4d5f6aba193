"""Batched marks: which tensors inside a vmap call derive from its mapped inputs, and the
operators torch's vmap refuses on them (see NOTE [ vmap runs the function once per batch
element ])."""
import functools
import weakref

from .. import _patch_ops
from ..autograd import _engine
from ._captures import NOT_WRITES

_marks = {}             # id(tensor) -> weak reference to it: the batched tensors of this call


class _State:
    running = 0         # vmap calls running (nested ones included)
    busy = False        # inside an operator given a batched tensor: its own calls pass
    transforms = []     # per running vmap: the depth of grad-like transforms when it began
    sizes = []          # per running vmap: its batch size


_state = _State()


def is_batched(x):
    entry = _marks.get(id(x))
    return entry is not None and entry() is x


def mark(value):
    """Mark the tensors in `value` (nested in tuples and lists) as batched."""
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        _marks[id(value)] = weakref.ref(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            mark(v)


def _any_batched(values):
    for v in values:
        if v.__class__ is list or v.__class__ is tuple:
            if _any_batched(v):
                return True
        elif is_batched(v):
            return True
    return False


def enter(size):
    """A vmap call over a batch of `size` begins: the wrappers go in with the outermost one."""
    from .eager_transforms import _depth
    _state.transforms.append(_depth[0])
    _state.sizes.append(size)
    _state.running += 1
    if _state.running == 1:
        _patch_ops.activate(_layer)


class below_vmap:
    """A context in which operators pass unchecked and unmarked: a custom Function's `vmap`
    staticmethod runs below the vmap's level, on plain tensors, as in torch."""

    def __enter__(self):
        self._busy, _state.busy = _state.busy, True

    def __exit__(self, *exc):
        _state.busy = self._busy


def leave():
    _state.running -= 1
    _state.transforms.pop()
    _state.sizes.pop()
    if _state.running == 0:
        _marks.clear()
        _patch_ops.deactivate(_layer)


# -- torch's refusals ---------------------------------------------------------------------

_ISSUES = "https://github.com/pytorch/pytorch/issues"
_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
         f"flow. We don't support that yet, please file an issue at {_ISSUES} .")
_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
         "calling .item() on a Tensor, please try to rewrite what you're doing with other "
         "operations. If error is occurring somewhere inside PyTorch internals, please file a "
         "bug report.")
# ... either of them on a tensor that a grad-like transform inside the vmap also wraps
_ITEM_OR_FLOW = (
    "vmap: It looks like you're either (1) calling .item() on a Tensor or (2) attempting to "
    "use a Tensor in some data-dependent control flow or (3) encountering this error in "
    "PyTorch internals. For (1): we don't support vmap over calling .item() on a Tensor, "
    "please try to rewrite what you're doing with other operations. For (2): we don't support "
    f"data-dependent control flow in vmap yet, please file an issue at {_ISSUES} . For (3): "
    "please file an issue.")
_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
_MASK = ("vmap: We do not support batching operators that can support dynamic shape. "
         "Attempting to batch over indexing with a boolean mask.")


def _dynamic(op):
    return (f"vmap: We do not support batching operators that can output dynamic shape. "
            f"Attempted to vmap over aten::{op}. Please file an issue at {_ISSUES} if you "
            f"need this feature.")


def _scalar(message):
    def check(args, kwargs):
        from .eager_transforms import _depth
        if is_batched(args[0]):
            raise RuntimeError(_ITEM_OR_FLOW if _depth[0] > _state.transforms[-1] else message)
    return check


def _format(args, kwargs):
    if args[0].dim() == 0:          # torch formats a 0-dim tensor as its item()
        _scalar(_ITEM)(args, kwargs)


def _data(args, kwargs):
    from .eager_transforms import _depth
    if is_batched(args[0]) and _depth[0] == _state.transforms[-1]:    # (not under grad)
        raise RuntimeError("accessing `data` under vmap transform is not allowed")


def _raise(message):
    def check(args, kwargs):
        if _any_batched((*args, *kwargs.values())):
            raise RuntimeError(message)
    return check


def _nonzero(args, kwargs):
    if _any_batched(args[:1]):
        raise RuntimeError(
            "Batching rule not implemented for aten::nonzero_numpy. We could not generate a "
            "fallback." if kwargs.get("as_tuple") else _dynamic("nonzero"))


def _unique(args, kwargs):
    if _any_batched(args[:1]):
        raise RuntimeError(_dynamic("_unique2" if kwargs.get("dim") is None else "unique_dim"))


def _where(args, kwargs):
    if len(args) + len(kwargs) == 1 and _any_batched((*args, *kwargs.values())):
        raise RuntimeError(_dynamic("where"))


def _masked_select(args, kwargs):
    mask = args[1] if len(args) > 1 else kwargs.get("mask")
    if is_batched(mask):
        raise RuntimeError(
            "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
            "support this because for each batch this would return a differently shaped "
            f"Tensor. Please file an issue at {_ISSUES} if you need this feature.")


def _mask_index(args, kwargs):
    import ember
    index = args[1] if len(args) > 1 else kwargs.get("indices")
    for i in index if isinstance(index, (tuple, list)) else (index,):
        if is_batched(i) and i.dtype in (ember.bool, ember.uint8):
            raise RuntimeError(_MASK)


_NORM_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which "
    "will be updated in place, were not batched.\nIf you are using a module and do not need "
    "eval mode, please set `track_running_stats` to be False.If you are using a prebuilt "
    "module and do not need eval mode, please see the functorch website for resources on how "
    "to patch your module to work with vmap")


def _norm_stats(names):
    """batch_norm/instance_norm (parameters `names`, the last one the flag for batch
    statistics): torch refuses to compute the statistics of a batched input when running
    statistics that would be updated in place are not batched."""
    def check(args, kwargs):
        bound = dict(zip(names, args), **kwargs)
        if not bound.get(names[-1], names[-1] == "use_input_stats") \
                or not is_batched(bound.get("input")):
            return
        if any(t is not None and not is_batched(t)
               for t in (bound.get("running_mean"), bound.get("running_var"))):
            raise RuntimeError(_NORM_STATS)
    return check


_F_NORM = ("input", "running_mean", "running_var", "weight", "bias")
_TOP_NORM = ("input", "weight", "bias", "running_mean", "running_var")

# (owner, name) -> check(args, kwargs), raising torch's error; "Tensor" is the Tensor class
_REFUSED = {
    **{("Tensor", n): _scalar(_FLOW) for n in ("__bool__", "is_nonzero")},
    **{("Tensor", n): _scalar(_ITEM) for n in ("item", "__float__", "__int__", "__complex__")},
    ("Tensor", "__format__"): _format,
    ("Tensor", "data"): _data,
    **{("Tensor", n): _raise(_STORAGE) for n in ("tolist", "numpy", "data_ptr", "__array__")},
    **{(o, "nonzero"): _nonzero for o in ("Tensor", "ember")},
    **{(o, "unique"): _unique for o in ("Tensor", "ember")},
    **{(o, "unique_consecutive"): _raise(_dynamic("unique_consecutive"))
       for o in ("Tensor", "ember")},
    ("ember", "where"): _where,
    **{(o, "masked_select"): _masked_select for o in ("Tensor", "ember")},
    **{("Tensor", n): _mask_index for n in ("__getitem__", "__setitem__", "index_put_",
                                             "index_put")},
    **{(o, "allclose"): _raise(f"vmap over torch.allclose isn't supported yet. Please file an "
                               f"issue at {_ISSUES} if you need this feature.")
       for o in ("Tensor", "ember")},
    **{(o, "equal"): _raise("Batching rule not implemented for aten::equal. We could not "
                            "generate a fallback.") for o in ("Tensor", "ember")},
    ("ember.nn.functional", "batch_norm"): _norm_stats(_F_NORM + ("training",)),
    ("ember", "batch_norm"): _norm_stats(_TOP_NORM + ("training",)),
    ("ember.nn.functional", "instance_norm"): _norm_stats(_F_NORM + ("use_input_stats",)),
    ("ember", "instance_norm"): _norm_stats(_TOP_NORM + ("use_input_stats",)),
}

_INPLACE_RANDOM = ("vmap: Cannot ask for different inplace randomness on an unbatched tensor. "
                   "This will appear like same randomness. If this is necessary for your "
                   "usage, please file an issue with functorch.")


def _inplace_random(args, kwargs):
    """An in-place sampler on a tensor not batched, under randomness="different"."""
    from ..autograd.function import _Transforms
    if _Transforms.vmaps and _Transforms.vmaps[-1][0] == "different" and args \
            and not is_batched(args[0]):
        raise RuntimeError(_INPLACE_RANDOM)


# -- an in-place write of a batched value into a tensor that is not batched ----------------------
# torch refuses it (its batched self would need more elements), in words that depend on how the
# op's batching rule is written: add_'s checks the broadcast shape, the arithmetic ones and a
# few others name themselves, the others go through the fallback, which names the vmap level.

_INPLACE = ("vmap: {op}(self, *extra_args) is not possible because there exists a Tensor "
            "`other` in extra_args that has more elements than `self`. This happened due to "
            "`other` being vmapped over but `self` not being vmapped over {where}. Please try "
            "to use out-of-place operators instead of {op}. If said operator is being called "
            "inside the PyTorch framework, please file a bug report instead.")
_ARITHMETIC = frozenset(("mul_", "sub_", "div_", "copy_", "multiply_", "subtract_", "divide_",
                         "true_divide_", "__imul__", "__isub__", "__itruediv__"))
_OWN_RULES = frozenset(("fill_", "index_add_", "index_put_"))


def _is_inplace(name):
    return name in ("__iadd__", "__setitem__") or name in _ARITHMETIC or \
        name.endswith("_") and not name.startswith("_") and name not in NOT_WRITES


def _into_unbatched(name, also=None):
    """The check of the in-place method `name` (and `also`, the method's own)."""
    def check(args, kwargs):
        from .._tensor import Tensor
        if also is not None:
            also(args, kwargs)
        target = args[0] if args else None
        if not isinstance(target, Tensor) or is_batched(target):
            return
        op = name
        if name in ("add_", "__iadd__"):
            from .._geometry import broadcast_shapes
            other = args[1] if len(args) > 1 else kwargs.get("other")
            shape = broadcast_shapes(tuple(target.shape), tuple(getattr(other, "shape", ())))
            raise RuntimeError(f"output with shape {list(target.shape)} doesn't match the "
                               f"broadcast shape {[_state.sizes[-1], *shape]}")
        if name == "__setitem__":
            key = args[1] if len(args) > 1 else None
            keys = key if isinstance(key, tuple) else (key,)
            op = "index_put_" if any(isinstance(k, (Tensor, list)) for k in keys) else "copy_"
        if op in _ARITHMETIC:
            text = _INPLACE.format(op="inplace arithmetic", where="in a vmap")
        elif op in _OWN_RULES:
            text = _INPLACE.format(op=op, where="in a vmap")
        else:
            from ..autograd.function import _Transforms
            text = _INPLACE.format(op=f"aten::{op}", where=f"at level {_Transforms.active}")
        raise RuntimeError(text)
    return check


# checks made on calls given no batched tensor too
_REFUSED_UNBATCHED = {("Tensor", n): _inplace_random for n in (
    "uniform_", "normal_", "bernoulli_", "exponential_", "random_", "cauchy_", "log_normal_",
    "geometric_")}

# Public functions that run user code: they pass through (their own operators are seen).
_NOT_WRAPPED = frozenset(("vmap", "cond", "while_loop", "compile"))


def _wrapped(fn, check, unbatched_check=None):
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if _state.busy or not _any_batched((*args, *kwargs.values()) if kwargs else args):
            if unbatched_check is not None and not _state.busy and not _engine._running:
                unbatched_check(args, kwargs)
            return fn(*args, **kwargs)
        if check is not None and not _engine._running:    # (a backward formula is ember's)
            check(args, kwargs)
        _state.busy = True
        try:
            result = fn(*args, **kwargs)
        finally:
            _state.busy = False
        mark(result)
        return result
    return op


class _Layer(_patch_ops.Layer):
    """vmap's wrappers (NOTE [ Patching the public operators ]): every public operator marks
    its results batched when given a batched tensor, or raises torch's error for it."""

    priority = 5        # inside __torch_function__'s wrappers, outside forward AD's

    def wants(self, owner, name, original):
        from ..autograd.function import Function
        from .._tensor import Tensor
        if owner is Function:
            return False            # a custom Function's forward is user code, seen op by op
        if owner is Tensor:
            return not (name.startswith("__") and name in _NOT_DISPATCHED) or \
                ("Tensor", name) in _REFUSED
        return name not in _NOT_WRAPPED

    def wrap(self, owner, name, inner):
        from .._tensor import Tensor
        key = ("Tensor" if owner is Tensor else owner.__name__, name)
        check = _REFUSED.get(key)
        if owner is Tensor and _is_inplace(name):
            check = _into_unbatched(name, check)
        if isinstance(inner, property):
            return property(_wrapped(inner.fget, check),
                            inner.fset and _wrapped(inner.fset, None), inner.fdel,
                            inner.__doc__)
        return _wrapped(inner, check, _REFUSED_UNBATCHED.get(key))


# Tensor dunders that are no operators on values (`__repr__` prints the element)
_NOT_DISPATCHED = frozenset((
    "__init__", "__new__", "__repr__", "__str__", "__hash__", "__len__", "__iter__",
    "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__copy__", "__deepcopy__",
    "__dir__", "__sizeof__", "__getattr__", "__setattr__", "__delattr__", "__init_subclass__",
    "__class_getitem__", "__dlpack__", "__dlpack_device__", "__array_wrap__"))

_layer = _Layer()
