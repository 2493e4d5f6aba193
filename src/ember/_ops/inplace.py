"""In-place writes and the graph: copy_, fill_, zero_ (and fill, out of place), and how an
in-place op on a view rewrites its base's history.

NOTE [ In-place ops on views ]
Writing through a view changes its base. The base's new grad_fn is a `CopySlices` node: in
backward it takes the gradient of the whole base, runs the in-place op's own backward on the
region the view covers, writes the result back into that region, and sends the rest on to the
base's old history. The view itself (and any other view of the same base, when next asked
for its grad_fn) is re-derived from the base as an `AsStridedBackward0`, because its old node
no longer describes how its values were made. Views notice that by comparing the storage
version with the one their node was made at.
"""
import weakref

import numpy as np

from .._device import backend_of
from .._dtype import check_python_int, checked_scalar
from .._float8 import FLOAT8_NP, cast, value as float8_value
from .._geometry import broadcast_shapes
from .._creation import zeros_like
from .._tensor import Tensor, is_sparse_data, wrap
from .._view_follow import view_made, views_follow, written_view_error
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.graph import Node, gradient_edge
from ._dispatch import check_inplace, check_nodeless_view_write, finish_inplace, same_data
from ._op import Op, record
from .registry import method, register
from .. import _warn


class CopySlices(Node):
    """The base's node after an in-place op wrote through one of its views."""

    def __init__(self, base, view, fn):
        super().__init__()
        self.fn = fn
        self.base_geometry = (tuple(base._data.shape), base.stride(), base._offset)
        self.view_geometry = (tuple(view._data.shape), view.stride(), view._offset)
        # a view of another dtype (.real / .imag / view_as_real of a complex base,
        # view_as_complex of a real one) counts its geometry in elements of its own dtype
        self.view_dtype = view._data.dtype if view._data.dtype != base._data.dtype else None
        self.next_functions = (gradient_edge(base),) + tuple(fn.next_functions[1:])
        fn_meta = fn._input_meta or (None,) * len(fn.next_functions)   # None: nothing to fit
        self._input_meta = ((base._data.shape, base._data.dtype),) + tuple(fn_meta[1:])
        self.view_meta = fn_meta[0]

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grad_outputs):
        from .._creation import empty_strided
        from ..autograd._engine import fit_gradient
        if self.fn is None:
            from ..autograd.graph import FREED_ERROR
            raise RuntimeError(FREED_ERROR)
        grad = grad_outputs[0]
        shape, strides, offset = self.base_geometry
        result = empty_strided(shape, strides, dtype=grad.dtype, device=grad.device)
        result.copy_(grad)
        vshape, vstrides, voffset = self.view_geometry
        if self.view_dtype is None:
            region = result.as_strided(vshape, vstrides, voffset - offset + result._offset)
        else:
            # a view of another dtype, made of differentiable views of `result` (its real
            # numbers, or its pairs as complex ones), so that create_graph records the write
            from .elementwise_extra import view_as_complex, view_as_real
            shift = (result._offset - offset) * result._data.dtype.itemsize   # in bytes
            start = voffset + shift // self.view_dtype.itemsize     # in the view's elements
            if self.view_dtype.kind == "c":
                region = view_as_complex(result.as_strided(
                    vshape + (2,), tuple(2 * s for s in vstrides) + (1,), 2 * start))
            else:
                region = view_as_real(result).as_strided(vshape, vstrides, start)
        grads = self.fn.apply((region.clone(),))
        first = grads[0]
        if first is None:
            region.zero_()
        else:
            if self.view_meta is not None:
                first = fit_gradient(self.fn, 0, first, self.view_meta)
            region.copy_(first)
        return (result,) + tuple(grads[1:])

    def release(self):
        # torch lets go of the op's node (which a double-backward graph may still run, with
        # what it saved): running this node again is refused, and the op's first edge, to the
        # view's node from before the write, no longer keeps that node alive (see rebase_view)
        self.fn = None


class AsStridedView(Op):
    """A view re-derived from its base after an in-place change (torch's AsStridedBackward0)."""
    node_name = "AsStridedBackward0"
    parts = None        # "real": real numbers of a complex base; "complex": the reverse

    def backward(ctx, grad):
        from ._scatter import AsStridedScatter, call_scatter, run_geometry_op
        if ctx.parts is None:
            return call_scatter(AsStridedScatter, grad, ctx)
        from .elementwise_extra import view_as_complex, view_as_real
        # both geometries counted in real numbers (a complex one as its real pairs)
        shape, strides, offset = ctx.self_geometry
        view = (ctx.size, ctx.stride, ctx.storage_offset)
        if ctx.parts == "real":
            pairs = (shape + (2,), tuple(2 * s for s in strides) + (1,), 2 * offset)
            return view_as_complex(run_geometry_op(AsStridedScatter, grad, pairs, view))
        pairs = (view[0] + (2,), tuple(2 * s for s in view[1]) + (1,), 2 * view[2])
        return run_geometry_op(AsStridedScatter, view_as_real(grad.contiguous()),
                               ctx.self_geometry, pairs)


class ViewAsRealReplay(AsStridedView):
    """A view made last by view_as_real, re-derived: torch replays that op (as_strided cannot
    change the dtype), so the node is named after it. (A view made last by another op is
    re-derived by as_strided, even where an earlier op of its chain changed the dtype.)"""
    node_name = "ViewAsRealBackward0"


class ViewAsComplexReplay(AsStridedView):
    node_name = "ViewAsComplexBackward0"


_REPLAYS = {"ViewAsRealBackward0": ViewAsRealReplay,
            "ViewAsComplexBackward0": ViewAsComplexReplay}


def carry_retained(t, old, old_nr):
    """torch moves retain_grad's hook to the new node of `t` when an in-place op (or the
    re-deriving of a view) replaces its node `old` (its output `old_nr`); hooks registered
    with register_hook stay with the old node."""
    if old is not None and old._retained is not None:
        old._retained.pop(old_nr, None)
    node = t._grad_fn
    if node._retained is None:
        node._retained = {}
    node._retained[t._output_nr] = weakref.ref(t)


def rederive_view(view):
    """Give `view` a node that computes it from its base's current history."""
    base = view._base
    geometry = {"self_geometry": (tuple(base._data.shape), base.stride(), base._offset),
                "size": tuple(view._data.shape), "stride": view.stride(),
                "storage_offset": view._offset}
    if view._data.dtype != base._data.dtype:
        geometry["parts"] = "complex" if view._data.dtype.kind == "c" else "real"
    old, old_nr = view._grad_fn, view._output_nr
    # (a view with no node names the op that made it where that matters: view_as_real's)
    made_by = old.name() if old is not None else view._meta and view._meta.replay
    op = _REPLAYS.get(made_by, AsStridedView)
    node = record(op, (base,), (view,), geometry)
    node._view_version = view._get_storage().version
    if view._meta is not None:
        view._meta.through_base = False     # (it has a node of its own now)
    if view._meta is not None and view._meta.retains_grad:
        carry_retained(view, old, old_nr)


def refresh_view_grad_fn(view):
    """Called when a view's grad_fn is read: re-derive it if its base changed in place."""
    node = view._grad_fn
    made_at = getattr(node, "_view_version", None)
    if made_at is None or made_at == view._get_storage().version:
        return
    # (a view with a node is re-derived even from a base that needs no grad, as a view of a
    # leaf that is itself a view: the new node has no edge, and gradients stop there)
    if node._view_ban is not None:
        from ._dispatch import view_ban_error
        raise view_ban_error(view, "its base or another view of its base has been "
                                            "modified inplace")
    rederive_view(view)


def rebase_view(op, inputs, params, view, before):
    """After in-place `op` wrote through `view`, make the base's node a CopySlices. `before`:
    the storage version before the write."""
    base = view._base
    prior = view._grad_fn
    made = view_made(view) if prior is None and not base._requires_grad else None
    if made is not None:
        # (torch refuses it before writing; its base could not tell check_inplace)
        raise written_view_error(made)
    # (the op's output shares the view's storage, so a result it saves, tanh_'s, is checked
    # against later writes through the view or its base)
    holder = view._detached_alias()
    fn = record(op, inputs, (holder,), params)
    if prior is not None and getattr(prior, "_view_version", None) == before and \
            fn.next_functions[0][0] is not None:
        # torch links the op to the view's node from before the write (if that was up to
        # date), not to one re-derived after it: a double-backward graph runs through it
        fn.next_functions = ((prior, view._output_nr),) + fn.next_functions[1:]
    node = CopySlices(base, view, fn)
    old, old_nr = base._grad_fn, base._output_nr
    base._grad_fn = node
    base._output_nr = 0
    if base._meta is not None and base._meta.retains_grad:
        carry_retained(base, old, old_nr)
    if not base._requires_grad:
        base._requires_grad = True
        views_follow(base)          # NOTE [ Views follow their base ]
    rederive_view(view)
    # (the "modified by an inplace operation" error names the view's new node as the one that
    # made a saved result of the op while that node lives, else the op's own node)
    fn._view_node = weakref.ref(view._grad_fn)


# -- copy_, fill_, zero_ -----------------------------------------------------------------------

class CopyBackwards(Op):
    """`self.copy_(src)`: self's old values are gone; src's flow through."""
    node_name = "CopyBackwards"
    inputs = ("self", "src")

    def name(self):
        return "torch::autograd::CopyBackwards"

    def backward(ctx, grad):
        need_self, need_src = ctx.needs_input_grad
        return (zeros_like(grad) if need_self else None, grad if need_src else None)


@method(inplace=False)
def copy_(self, src, non_blocking=False):
    """Copy `src` (broadcast, converted to this dtype and device) into this tensor."""
    if not isinstance(src, Tensor):
        src = _number_as_tensor(src)
    shape = tuple(self._data.shape)
    if tuple(src._data.shape) != shape:
        out = broadcast_shapes(shape, tuple(src._data.shape))
        if out != shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, shape))}] doesn't match "
                               f"the broadcast shape [{', '.join(map(str, out))}]")
    requires_grad = src._requires_grad or self._requires_grad
    check_inplace(self, self._data.dtype, shape, None if same_data(self, src) else (src,))
    data = src._data
    if data.dtype.kind == "c" and self._data.dtype.kind != "c":
        _warn.warn("Casting complex values to real discards the imaginary part",
                   UserWarning, stacklevel=2)
        data = data.real
    src_backend, dst_backend = backend_of(data), backend_of(self._data)
    if src_backend is not dst_backend or (data.__class__ is not np.ndarray and
                                          src.device != self.device):
        data = dst_backend.from_other(data, src_backend, self.device)
    self._data[...] = cast(dst_backend.xp, data, self._data.dtype)
    return finish_inplace(CopyBackwards, (self, src), {}, self, requires_grad)


def _number_as_tensor(src):
    """copy_'s source given as a number, as the 0-dim tensor torch makes of it."""
    from numbers import Number
    from .._tensor_data import tensor
    from .argument_errors import type_name
    if not isinstance(src, Number):
        raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not "
                        f"{type_name(src)}")
    if src.__class__ is int and not -(1 << 63) <= src < 1 << 63:
        # torch reads such an int as an unsigned 64-bit one (as a float, in a float tensor)
        check_python_int(src)
        src = float(src)
    return tensor(src)


class Fill(Op):
    """`fill_(number)`: every element replaced."""
    node_name = "FillBackward2"
    saves = {}

    def backward(ctx, grad):
        return zeros_like(grad)


class FillTensor(Op):
    """`fill_(tensor)`: every element replaced by a 0-dim tensor's value."""
    node_name = "FillBackward3"
    inputs = ("self", "value")

    def backward(ctx, grad):
        need_self, need_value = ctx.needs_input_grad
        return (zeros_like(grad) if need_self else None,
                grad.sum() if need_value else None)


@method(inplace=False)
def fill_(self, value):
    """Set every element to `value` (a number or a 0-dim tensor)."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.ndim} dimensions.")
        requires_grad = self._requires_grad or value._requires_grad
        # (unlike a number, a tensor value is written element-wise: torch refuses a target
        # with internal overlap, as an expanded one; reading the value's memory is fine)
        if requires_grad and not self._requires_grad and self._base is not None \
                and _grad_state.enabled:
            check_nodeless_view_write(self, (value,))   # (torch's autograd check comes first)
        check_inplace(self, self._data.dtype, tuple(self._data.shape), ())
        self._data[...] = backend_of(value._data).to_numpy(value._data)[()] \
            if backend_of(value._data) is not backend_of(self._data) else value._data
        return finish_inplace(FillTensor, (self, value), {}, self, requires_grad)
    check_inplace(self, self._data.dtype, tuple(self._data.shape))
    value = checked_scalar(value, self.dtype, half_range=self._data.size != 1)
    self._data[...] = value if self._data.dtype not in FLOAT8_NP else \
        float8_value(value, self._data.dtype)
    return finish_inplace(Fill, (self,), {}, self, self._requires_grad)


class Zero(Fill):
    """`zero_()`: every element set to 0."""
    node_name = "ZeroBackward0"


@method(inplace=False)
def zero_(self):
    """Set every element to zero."""
    if self._data.__class__ is not np.ndarray and is_sparse_data(self._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.zero_(self)
    check_inplace(self, self._data.dtype, tuple(self._data.shape))
    self._data[...] = 0 if self._data.dtype not in FLOAT8_NP else \
        float8_value(0, self._data.dtype)
    return finish_inplace(Zero, (self,), {}, self, self._requires_grad)



# -- fill: the out-of-place form -------------------------------------------------------------

class FillNew(Fill):
    """`torch.fill(input, number)`: a new tensor of input's shape holding `number`."""
    node_name = "FillBackward0"


class FillNewTensor(FillTensor):
    """`torch.fill(input, value)` with a 0-dim tensor value."""
    node_name = "FillBackward1"


def fill(input, value):
    """A new tensor like `input` with every element `value` (a number or a 0-dim tensor)."""
    xp = backend_of(input._data).xp
    out = wrap(xp.empty_like(input._data))
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.ndim} dimensions.")
        out._data[...] = backend_of(value._data).to_numpy(value._data)[()] \
            if backend_of(value._data) is not backend_of(out._data) else value._data
        if (input._requires_grad or value._requires_grad) and _grad_state.enabled:
            record(FillNewTensor, (input, value), (out,), {})
        return out
    if out._data.dtype.kind in "iu" and isinstance(value, float):
        value = int(value)
    elif out._data.dtype.kind == "b":
        value = bool(value)
    out._data[...] = value
    if input._requires_grad and _grad_state.enabled:
        record(FillNew, (input,), (out,), {})
    return out


register("fill", fill, method=False)
register("fill_", fill_, method=False)
register("zero_", zero_, method=False)
