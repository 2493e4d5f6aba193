"""Custom differentiable operations: `Function` with static `forward` and `backward`.

    class Exp(ember.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    y = Exp.apply(x)            # y.grad_fn is an ExpBackward node, and is also `ctx`

As in torch, the context a Function's forward fills in *is* its backward node: each Function
subclass gets a node class named `<ClassName>Backward`.
"""
import functools

from .graph import CUSTOM_FUNCTION_VIEW, MULTI_OUTPUT_VIEW, Node, _Extras, gradient_edge, \
    on_record, watch
from . import forward_ad as _forward_ad
from .grad_mode import _state as _grad_state, no_grad

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable",
           "InplaceFunction"]


def _tensor_class():
    from .._tensor import Tensor
    return Tensor


class FunctionCtx:
    """What `forward` (or `setup_context`) records for `backward`."""

    def save_for_backward(self, *tensors):
        """Keep these tensors (or None) for backward; read them back with `saved_tensors`."""
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        """Declare the inputs that forward modified in place (they are returned as outputs)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        """Declare outputs that carry no gradient (such as indices)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        """Whether backward receives zeros (True, the default) or None for outputs that got no
        gradient."""
        self._materialize_grads = value

    # NOTE: class defaults, so a context costs nothing for what it does not use
    # (`dirty_tensors` and `non_differentiable` exist only once marked, as in torch).
    to_save = None
    _materialize_grads = True


class BackwardCFunction(Node, FunctionCtx):
    """The backward node of a custom Function (base of every `<ClassName>Backward`)."""

    _forward_cls = None

    def __init__(self):
        super().__init__()
        self.next_functions = ()
        self._input_meta = None
        self._tensor_positions = ()

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<ember.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    def __call__(self, *grads):
        raise TypeError(f"'{type(self).__name__}' object is not callable")   # as torch

    _jvp_saved = None       # while `jvp` runs: what save_for_forward kept

    @property
    def saved_tensors(self):
        """The tensors given to `save_for_backward`, checked for in-place changes."""
        if self._jvp_saved is not None:
            return self._jvp_saved
        if self._saved is None:
            if self.to_save is not None:    # still inside forward, or nothing required grad
                return tuple(self.to_save)
            return ()
        values = self._unpack()
        if not _grad_state.enabled:
            # NOTE: ops re-attach a saved output to its node only under create_graph (nobody
            # sees it otherwise); a Function's backward can look, so it always gets one.
            values = tuple(v if info is None or info[1] is None else
                           v._attached_to(self, info[1])
                           for v, info in zip(values, self._saved_info))
        return values

    @property
    def saved_variables(self):
        return self.saved_tensors

    def apply(self, grad_outputs):
        cls = self._forward_cls
        grads = list(grad_outputs)
        if self._materialize_grads:
            from .._creation import zeros
            from .. import _dtype
            for i, (g, meta) in enumerate(zip(grads, self._fn_output_meta)):
                if g is None and meta is not None:
                    grads[i] = zeros(meta[0], dtype=_dtype._FROM_NUMPY[meta[1]], device=meta[2])
        result = cls._backward_fn(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        expected = self._num_inputs
        if len(result) != expected:
            if len(result) > expected and all(r is None for r in result[expected:]):
                result = result[:expected]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                                   f"gradients (expected {expected}, got {len(result)})")
        Tensor = _tensor_class()
        if len(self._tensor_positions) != expected:
            for pos, g in enumerate(result):
                if g is not None and pos not in self._tensor_positions:
                    raise RuntimeError(f"function {self.name()} returned a gradient different "
                                       f"than None at position {pos + 1}, but the "
                                       f"corresponding forward input was not a Variable")
        out = []
        for pos, meta in zip(self._tensor_positions, self._input_meta):
            g = result[pos]
            if g is not None:
                if not isinstance(g, Tensor):
                    raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
                if meta is not None and g._data.dtype.kind == "c" and meta[1].kind != "c":
                    # (torch casts a gradient to its input's dtype, but not complex to real)
                    raise RuntimeError("Expected isFloatingType(grad.scalar_type()) || "
                                       "(input_is_complex == grad_is_complex) to be true, but "
                                       "got false.  (Could this error message be improved?  "
                                       "If so, please report an enhancement request to "
                                       "PyTorch.)")
            out.append(g)
        return tuple(out)


def _plain(fn):
    return fn.__func__ if isinstance(fn, staticmethod) else fn


def _both_defined(ctx, *grads):
    raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not "
                       "allowed. You should only implement one of them.")


class _FunctionMeta(type):
    """Gives each Function subclass its backward node class, `<ClassName>Backward`."""

    def __init__(cls, name, bases, attrs):
        if attrs.get("backward") is not None and attrs.get("vjp") is not None and \
                attrs["backward"] is not attrs["vjp"]:
            cls._backward_fn = _both_defined
        elif "vjp" in attrs and "backward" not in attrs:
            cls._backward_fn = _plain(attrs["vjp"])
        elif "backward" in attrs:
            cls._backward_fn = _plain(attrs["backward"])
        backward_fn = type(f"{name}Backward", (BackwardCFunction,), {"_forward_cls": cls})
        backward_fn.__module__ = __name__     # torch names them torch.autograd.function.*
        cls._backward_cls = backward_fn
        super().__init__(name, bases, attrs)


class _Transforms:
    """The torch.func transforms running now, for the rules torch sets a Function called under
    them (see `_under_transforms`): any transform at all, forward-mode ones (jvp, jacfwd), and
    one `VmapInfo` per vmap (or jacfwd, which torch builds on vmap) running."""
    active = 0
    forward = 0
    vmaps = []


class VmapInfo(tuple):
    """What a Function's `vmap` staticmethod is told: `batch_size` and `randomness`."""

    def __new__(cls, batch_size, randomness):
        return tuple.__new__(cls, (batch_size, randomness))

    batch_size = property(lambda self: self[0])
    randomness = property(lambda self: self[1])

    def __repr__(self):
        return f"VmapInfo(batch_size={self[0]}, randomness='{self[1]}')"


_FUNC_NOTES = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def _under_transforms(cls, args):
    """torch's checks for a Function called under torch.func transforms; returns the output
    of its `vmap` staticmethod when that is what runs (else None: `forward` runs).

    NOTE: ember's vmap calls the function once per batch element (NOTE [ vmap runs the
    function once per batch element ]), so the `vmap` staticmethod is given a batch of one:
    each tensor argument with a leading dim of size 1 (in_dims 0; None for arguments that
    are not mapped, and for non-tensors), and `info.batch_size` is 1."""
    if not cls._is_setup_context_defined():
        raise RuntimeError("In order to use an autograd.Function with functorch transforms "
                           "(vmap, grad, jvp, jacrev, ...), it must override the setup_context "
                           f"staticmethod. {_FUNC_NOTES}")
    result = None
    if _Transforms.vmaps:
        has_rule = cls.vmap is not Function.vmap
        name = cls.__name__
        if cls.generate_vmap_rule and has_rule:
            raise RuntimeError(f"You tried to vmap over {name}, but it has both "
                               f"generate_vmap_rule=True and an overridden vmap staticmethod. "
                               f"Please set generate_vmap_rule=False or delete the overridden "
                               f"vmap staticmethod to avoid ambiguity. {_FUNC_NOTES}")
        if not cls.generate_vmap_rule and not has_rule:
            raise RuntimeError(f"You tried to vmap over {name}, but it does not have vmap "
                               f"support. Please override and implement the vmap staticmethod "
                               f"or set generate_vmap_rule=True. {_FUNC_NOTES}")
        if has_rule:
            result = _run_vmap_rule(cls, args)
    if _Transforms.forward and cls.jvp is Function.jvp:
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")
    return result


def _run_vmap_rule(cls, args):
    Tensor = _tensor_class()
    unmapped = _Transforms.vmaps[-1][1]
    in_dims = tuple(0 if isinstance(a, Tensor) and id(a) not in unmapped else None
                    for a in args)
    batched = [a.unsqueeze(0) if d == 0 else a for a, d in zip(args, in_dims)]
    # The rule runs below this vmap's level, as in torch: what it calls (the Function's own
    # apply, typically) sees only the transforms outside this vmap.
    level = _Transforms.vmaps.pop()
    _Transforms.active -= 1
    try:
        from ..func._batched import below_vmap
        with below_vmap():
            result = cls.vmap(VmapInfo(1, level[0]), in_dims, *batched)
    finally:
        _Transforms.active += 1
        _Transforms.vmaps.append(level)
    if not isinstance(result, tuple):
        raise RuntimeError(f"Expected the vmap staticmethod to have two returns, an output and "
                           f"out_dims with pytree structure compatible with the output. Got a "
                           f"{type(result)} instead")
    if len(result) != 2:
        raise RuntimeError(f"Expected the vmap staticmethod to have two returns, an output and "
                           f"out_dims with pytree structure compatible with the output. Got "
                           f"{len(result)} returns instead")
    output, out_dims = result
    single = not isinstance(output, tuple)
    outs = (output,) if single else output
    dims = (out_dims,) * len(outs) if not isinstance(out_dims, tuple) else out_dims
    outs = tuple(o.select(d, 0) if isinstance(o, Tensor) and d is not None else o
                 for o, d in zip(outs, dims))
    from ..func._batched import mark
    mark(outs)              # (this vmap's results again)
    return outs[0] if single else outs


class Function(metaclass=_FunctionMeta):
    """Base class for custom differentiable operations (see the module docstring).

    Define `forward(ctx, *args)` (or `forward(*args)` plus `setup_context(ctx, inputs,
    output)`) and `backward(ctx, *grad_outputs)` as static methods, then call `apply`.
    """

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode "
                                  "AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    # Under torch.func.vmap a Function needs a `vmap(info, in_dims, *args)` staticmethod
    # returning (output, out_dims), or generate_vmap_rule = True (vmap runs forward itself).
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("To use autograd.Function with vmap, you must either override "
                                  "the vmap staticmethod or set generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run `forward` without recording, then make its outputs part of the graph."""
        if _forward_ad._tangents:       # (forward AD is on: see custom_apply)
            return _forward_ad.custom_apply(cls, args, kwargs)
        return _apply(cls, args, kwargs)[0]

    @classmethod
    def _is_setup_context_defined(cls):
        return cls.setup_context is not Function.setup_context


def _apply(cls, args, kwargs):
    """Function.apply: (its result, the context, the arguments as forward got them)."""
    Tensor = _tensor_class()
    ctx = cls._backward_cls()
    custom_setup = cls.setup_context is not Function.setup_context
    if custom_setup or kwargs:
        args, kwargs = _bound_args(cls.forward, ctx, args, kwargs, custom_setup)
    positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
    record = _grad_state.enabled and any(args[i]._requires_grad for i in positions)
    # (as torch's, it follows requires_grad alone: under no_grad it still says True)
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
    ctx._num_inputs = len(args)
    with no_grad():
        ruled = _under_transforms(cls, args) if _Transforms.active else None
        if custom_setup:
            output = cls.forward(*args, **kwargs) if ruled is None else ruled
            cls.setup_context(ctx, args, output)
        else:
            output = cls.forward(ctx, *args, **kwargs)
    single = not isinstance(output, tuple)
    outputs = (output,) if single else output
    if record:
        outputs = _attach(ctx, args, positions, outputs)
    return (outputs[0] if single else outputs), ctx, args


def _bound_args(forward, ctx, args, kwargs, custom_setup):
    """`apply`'s arguments as torch passes them on to `forward`: keywords go to their
    parameters' places (one that cannot be positional is refused, in torch's words), and with
    setup_context the defaults are filled in (its `inputs` include them). With setup_context,
    arguments that do not fit are refused by the binding, in its words, as torch binds them
    itself then; without it, they are left as they are, for `forward` itself to refuse."""
    import inspect
    signature = inspect.signature(forward)
    params = signature.parameters
    first = args if custom_setup else (ctx,) + args
    try:
        bound = signature.bind(*first, **kwargs)
    except TypeError:
        if custom_setup:
            raise
        bound = None
    unexpected = [k for k in kwargs if k not in params or bound is not None and k in bound.kwargs]
    if unexpected:
        raise TypeError(f"forward() got an unexpected keyword argument '{unexpected[0]}'")
    if bound is None:
        return args, kwargs
    if custom_setup:
        bound.apply_defaults()
    return (bound.args if custom_setup else bound.args[1:]), {}


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


def _attach(ctx, args, positions, outputs):
    """Link `ctx` to the inputs and make it the grad_fn of the differentiable outputs."""
    from .._tensor import alias
    from .._view_follow import views_follow
    Tensor = _tensor_class()
    edges = []
    metas = []
    for i in positions:
        t = args[i]
        if t._requires_grad:
            edges.append(gradient_edge(t))
            metas.append((t._data.shape, t._data.dtype))
        else:
            edges.append((None, 0))
            metas.append(None)
    ctx.next_functions = tuple(edges)
    ctx._input_meta = tuple(metas)
    ctx._tensor_positions = positions
    dirty = getattr(ctx, "dirty_tensors", ())
    non_diff = getattr(ctx, "non_differentiable", ())
    if dirty and not all(any(d is o for o in outputs) for d in dirty):
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")
    result = []
    for nr, out in enumerate(outputs):
        if not isinstance(out, Tensor):
            result.append(out)
            continue
        if any(out is d for d in dirty):
            if out._requires_grad and out._grad_fn is None and out._base is None:
                raise RuntimeError("a leaf Variable that requires grad has been used in an "
                                   "in-place operation.")
            out._bump_version()         # torch counts marking dirty as a write
        elif any(out is a for a in args):
            # NOTE: an input returned unchanged comes back as a view of it, so that the
            # input's own history is left alone, as in torch.
            out = alias(out, out._data, out._offset)
        if any(out is n for n in non_diff) or not _differentiable_dtype(out):
            # (an integer or bool output carries no gradient, as if marked non-differentiable)
            out._requires_grad = False
        else:
            had = out._requires_grad
            out._grad_fn = ctx
            out._output_nr = nr
            out._requires_grad = True
            if out._base is not None and dirty and len(outputs) == 1 \
                    and args[positions[0]] is out:
                _rebase_dirty_view(ctx, out)
            elif not had and out._meta is not None and out._meta.views:
                views_follow(out)       # (a dirty input: NOTE [ Views follow their base ])
        result.append(out)
    ctx.num_outputs = len(result)
    _ban_views(ctx, result, dirty, non_diff)
    # NOTE: not `_output_meta`, which would make the engine fill in zeros itself.
    ctx._fn_output_meta = tuple(
        (o._data.shape, o._data.dtype, o.device) if isinstance(o, Tensor) else None
        for o in result)
    _save(ctx, outputs, result)
    if _Extras.on:
        on_record(ctx)
    return tuple(result)


def _rebase_dirty_view(ctx, view):
    """A view written in place by the Function (marked dirty) changes its base: as for an
    in-place op on a view (NOTE [ In-place ops on views ] in _ops/inplace.py), the base's
    node becomes a CopySlices running `ctx`'s backward on the view's region, and the view is
    re-derived from the base. (Done for a Function of one output whose first tensor input is
    the view; in other cases the view alone carries `ctx`.)"""
    from .._ops.inplace import CopySlices, rederive_view
    from .._view_follow import views_follow
    base = view._base
    base._grad_fn = CopySlices(base, view, ctx)
    base._output_nr = 0
    if not base._requires_grad:
        base._requires_grad = True
        views_follow(base)      # NOTE [ Views follow their base ] (_view_follow.py)
    rederive_view(view)


def _differentiable_dtype(t):
    dtype = t.dtype
    return dtype.is_floating_point or dtype.is_complex


def _ban_views(ctx, result, dirty, non_diff):
    """Outputs that are views (an input returned as-is included) may not be written in place:
    torch gives a Function of several outputs the multiple-views reason, else its own."""
    Tensor = _tensor_class()
    for out in result:
        if isinstance(out, Tensor) and out._base is not None and out._grad_fn is ctx \
                and not any(out is d for d in dirty):
            ctx._view_ban = MULTI_OUTPUT_VIEW if len(result) > 1 else CUSTOM_FUNCTION_VIEW
            ctx._view_version = out._version     # a later write through the base is caught
            return


def _save(ctx, original, result):
    """Keep what `save_for_backward` named, as ops do (NOTE [ Saved tensors and freeing ] in
    graph.py): an output as a detached alias re-attached when unpacked, avoiding a cycle."""
    to_save = ctx.to_save
    if to_save is None:
        return
    Tensor = _tensor_class()
    stored = []
    info = []
    for t in to_save:
        if t is None:
            stored.append(None)
            info.append(None)
            continue
        if not isinstance(t, Tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument "
                            f"{len(stored)} is of type {type(t).__name__}")
        out_nr = next((nr for nr, o in enumerate(original) if o is t), None)
        if out_nr is not None and result[out_nr]._grad_fn is ctx:
            value = result[out_nr]._detached_alias()
        else:
            value, out_nr = t, None
        info.append((watch(value), out_nr))
        stored.append(value)
    ctx._saved = tuple(stored)
    ctx._saved_info = tuple(info)
    ctx.to_save = None


def once_differentiable(fn):
    """Decorate a Function's `backward` that cannot itself be differentiated: it runs without
    recording, and differentiating its result raises torch's error."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        Tensor = _tensor_class()
        if not (_grad_state.enabled and any(isinstance(a, Tensor) and a._requires_grad
                                            for a in args)):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        # NOTE: as torch, the error node hangs off fresh leaves (detached copies of the
        # outputs), not off the inputs: differentiating through it reaches no input, so
        # autograd.grad of an input finds it unused, while backward() runs it and raises.
        edges = [gradient_edge(o.detach().requires_grad_()) for o in outs
                 if isinstance(o, Tensor)]
        node = Error("trying to differentiate twice a function that was marked with "
                     "@once_differentiable", edges)
        wrapped = []
        for nr, o in enumerate(outs):
            if isinstance(o, Tensor):
                o = o.detach()
                o._grad_fn, o._output_nr, o._requires_grad = node, nr, True
            wrapped.append(o)
        return wrapped[0] if single else tuple(wrapped)
    return wrapper


class Error(Node):
    """A node whose backward raises: the result of a once-differentiable backward (torch's
    DelayedError node, whose class is named Error)."""

    def __init__(self, message, edges):
        super().__init__()
        self.message = message
        self.next_functions = tuple(edges)
        self._input_meta = None

    def name(self):
        return "torch::autograd::Error"

    def apply(self, grad_outputs):
        raise RuntimeError(self.message)

