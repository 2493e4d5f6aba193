"""Recurrent layers as graph nodes: one node per layer and direction for a whole sequence
(kernels in `_lstm_kernels.py` and `_rnn_kernels.py`), the stacking of layers and directions, and the single-step
cells written with ember's ops (what RNNCell, LSTMCell and GRUCell run).

The nodes carry torch's names for the node a user sees on the output: a float32 LSTM layer
on the CPU is `MkldnnRnnLayerBackward0` (torch runs it through oneDNN); RNN, GRU, float64 and
projected LSTM outputs are stacked steps (`StackBackward0`); packed outputs are concatenated
steps (`CatBackward0`).
"""
import numpy as np

from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state, no_grad
from .._ops._op import Op, record
from . import _lstm_kernels, _rnn_kernels as kernels

# torch's order for mkldnn_rnn_layer (input, weights, hx, cx), then the projection
_INPUTS = ("input", "weight_ih", "weight_hh", "bias_ih", "bias_hh", "hx", "cx", "weight_hr")


class _Layer(Op):
    """One layer, one direction, all steps: outputs (output, h_n, c_n)."""
    abstract = True
    inputs = _INPUTS
    # NOTE: the output is saved too (its rows are the previous states of the backward pass),
    # so modifying it in place before backward raises torch's error.
    saves = {name: _INPUTS + ("result",) for name in _INPUTS}
    num_outputs = 3

    def backward(ctx, grad_out, grad_h, grad_c=None):
        saved = ctx.saved_tensors       # checks the versions of inputs and weights
        cache = ctx.cache
        if cache is None:
            raise RuntimeError("rnn: the saved values of this layer were freed")
        if _grad_state.enabled:
            return _differentiable_backward(ctx, saved, grad_out, grad_h, grad_c)
        mode = ctx.mode
        out_size = cache["x"].shape[0]
        g_out = _rows(grad_out, out_size)
        g_c = grad_c._data if grad_c is not None and mode == "LSTM" else None
        if mode == "LSTM" and g_c is None:
            g_c = kernels.xp_of(g_out).zeros((grad_h.shape[0], cache["hidden"]), g_out.dtype)
        w_ih, w_hh = saved[1]._data, saved[2]._data
        need = ctx.needs_input_grad
        count = len(need)
        need = need + (False,) * (len(_INPUTS) - count)
        grads = _kernels(mode).backward(mode, cache, g_out, grad_h._data, g_c, w_ih, w_hh, need)
        result = []
        for k, (g, t) in enumerate(zip(grads[:count], saved)):
            if not need[k] or g is None:
                result.append(None)
            elif k == 0:
                xp = kernels.xp_of(g)
                result.append(wrap(xp.ascontiguousarray(g).reshape(t._data.shape)))
            else:
                result.append(wrap(g))
        return tuple(result)

    def release(self):
        super().release()
        cache = self.__dict__.get("cache")
        if cache is not None:
            self.cache = None
            kernels.release(cache)      # see NOTE [ Workspace reuse ] in _rnn_kernels.py


def _kernels(mode):
    """The module holding the recurrence of `mode` ("LSTM", "GRU", "RNN_TANH", "RNN_RELU")."""
    return _lstm_kernels if mode == "LSTM" else kernels


def _rows(grad, n):
    data = grad._data           # any strides: an expanded gradient stays a view
    return data.reshape(n, data.shape[-1])


class LstmLayer(_Layer):
    node_name = "MkldnnRnnLayerBackward0"
    inputs = _INPUTS[:7]                # no projection on this path, as in torch
    saves = {name: _INPUTS[:7] + ("result",) for name in _INPUTS[:7]}


class StackedSteps(_Layer):
    node_name = "StackBackward0"


class CatSteps(_Layer):
    node_name = "CatBackward0"


def _differentiable_backward(ctx, saved, grad_out, grad_h, grad_c):
    """Under create_graph, rerun the layer step by step with ember's ops and differentiate
    that, so gradients of gradients work (slow, but only double backward pays for it)."""
    from ..autograd import grad as autograd_grad
    from ..autograd.grad_mode import enable_grad
    with enable_grad():
        count = len(ctx.needs_input_grad)
        # the inputs themselves, so that the new graph reaches them
        leaves = list(saved[:count]) + [None] * (len(_INPUTS) - count)
        batch_sizes = [bs for _, bs in ctx.cache["steps"]]
        out, h, c = reference_layer(ctx.mode, leaves, batch_sizes, ctx.cache["reverse"])
        outs, grads = [out, h], [grad_out.reshape(out.shape), grad_h]
        if c is not None:
            outs.append(c)
            grads.append(grad_c)
        wanted = [k for k, t in enumerate(leaves) if t is not None and ctx.needs_input_grad[k]
                  and t.requires_grad]
        got = autograd_grad(outs, [leaves[k] for k in wanted], grads, create_graph=True,
                            allow_unused=True)
    result = [None] * count
    for k, g in zip(wanted, got):
        result[k] = g
    return tuple(result)


def reference_layer(mode, tensors, batch_sizes, reverse):
    """One layer with ember's ops, step by step: (output rows, h_n, c_n)."""
    from .. import _creation
    from .._ops.joining import cat
    x, w_ih, w_hh, b_ih, b_hh, hx, cx, w_hr = tensors
    batch = batch_sizes[0]
    x = x.reshape(-1, x.shape[-1])
    out_size = w_hh.shape[1]
    hidden = w_hh.shape[0] // {"LSTM": 4, "GRU": 3}.get(mode, 1)
    h = hx if hx is not None else _creation.zeros(batch, out_size, dtype=x.dtype,
                                                  device=x.device)
    c = cx if cx is not None else _creation.zeros(batch, hidden, dtype=x.dtype, device=x.device)
    starts = np.concatenate([[0], np.cumsum(batch_sizes)]).tolist()
    outputs = [None] * len(batch_sizes)
    order = range(len(batch_sizes) - 1, -1, -1) if reverse else range(len(batch_sizes))
    for t in order:
        bs = batch_sizes[t]
        xt = x[starts[t]:starts[t] + bs]
        hp, cp = h[:bs], c[:bs]
        if mode == "LSTM":
            h_new, c_new = lstm_cell(xt, hp, cp, w_ih, w_hh, b_ih, b_hh)
            if w_hr is not None:
                h_new = h_new.matmul(w_hr.t())
            c = cat([c_new, c[bs:]]) if bs < batch else c_new
        elif mode == "GRU":
            h_new = gru_cell(xt, hp, w_ih, w_hh, b_ih, b_hh)
        else:
            h_new = rnn_cell(xt, hp, w_ih, w_hh, b_ih, b_hh, mode == "RNN_RELU")
        h = cat([h_new, h[bs:]]) if bs < batch else h_new
        outputs[t] = h_new
    return cat(outputs), h, (c if mode == "LSTM" else None)


def run_layer(mode, x, hx, cx, weights, batch_sizes, reverse, packed):
    """One layer and direction over `x` ((T, B, F) padded, or packed rows (N, F)): returns
    (output, h_n, c_n) tensors, recording one node when grad is needed."""
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    data = x._data
    rows = kernels.xp_of(data).ascontiguousarray(data).reshape(-1, data.shape[-1])
    if packed:
        steps, uniform = kernels.steps_of(batch_sizes, batch_sizes[0])
    else:
        steps, uniform = kernels.steps_of([data.shape[1]] * data.shape[0], data.shape[1])
    args = (x, w_ih, w_hh, b_ih, b_hh, hx, cx, w_hr)
    needs = _grad_state.enabled and any(
        isinstance(t, Tensor) and t._requires_grad for t in args)
    out, h, c, cache = _kernels(mode).forward(
        mode, rows, steps, uniform, _raw(hx), _raw(cx), w_ih._data, w_hh._data, _raw(b_ih),
        _raw(b_hh), _raw(w_hr), reverse, needs)
    if data.dtype.itemsize == 2 and data.dtype.kind in "fV":
        # NOTE [ 16-bit recurrent layers ]: torch runs a float16/bfloat16 layer as its cells,
        # step by step, each op rounding to the dtype (the kernels keep the gates in one
        # array and fold the biases together); its values are the cells' (the kernel's cache
        # still serves the backward).
        sizes = batch_sizes if packed else [data.shape[1]] * data.shape[0]
        with no_grad():
            ref = reference_layer(mode, (wrap(rows),) + args[1:], list(sizes), reverse)
        out, h = ref[0]._data, ref[1]._data
        c = None if ref[2] is None else ref[2]._data
    if not packed:
        out = out.reshape(data.shape[0], data.shape[1], out.shape[-1])
    outputs = (wrap(out), wrap(h), wrap(c) if c is not None else None)
    if needs:
        if packed:
            op = CatSteps
        elif mode == "LSTM" and w_hr is None and out.dtype == np.float32:
            op = LstmLayer
        else:
            op = StackedSteps
        count = 3 if c is not None else 2
        record(op, args, outputs[:count], {"mode": mode, "cache": cache}, count)
    return outputs


def batch_major(output, is_lstm):
    """A (T, B, H) output seen as (B, T, H), recorded as torch records it."""
    if is_lstm:
        return output.transpose(0, 1)           # torch: a view (TransposeBackward0)
    # NOTE: torch's RNN and GRU kernels transpose their fresh result in place
    # (TransposeBackward1). The layer node here saves its output, so an in-place op would
    # spoil its version check: a view recorded under the in-place node's name instead.
    from .. import _geometry as geo
    from .._ops import views, views_inplace
    shape, strides = geo.transpose(tuple(output.shape), output.stride(), 0, 1)
    return views._view_op(views_inplace.TransposeInplace, output, shape, strides,
                          output._offset, {"dim0": 0, "dim1": 1})


def check_matmul_dtype(a, w, bias=True):
    """torch's error when a state (or a cell's input) meets weights of another dtype (in
    matmul's words for a cell without biases, addmm's otherwise)."""
    if a.dtype != w.dtype and not bias:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{a.dtype._cpp_name} != {w.dtype._cpp_name}")
    if a.dtype != w.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{a.dtype._scalar_name} and {w.dtype._scalar_name}")


def _raw(t):
    return None if t is None else t._data


# -- single steps with ember's ops (the cells) --------------------------------------------

def _linear(x, w, b):
    from .functional import linear
    return linear(x, w, b)


def rnn_cell(x, h, w_ih, w_hh, b_ih, b_hh, relu=False):
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act tanh or relu."""
    pre = _linear(x, w_ih, b_ih) + _linear(h, w_hh, b_hh)
    return pre.relu() if relu else pre.tanh()


def lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh):
    """(h', c'): gates i, f, g, o from x and h; c' = f c + i g; h' = o tanh(c')."""
    gates = _linear(x, w_ih, b_ih) + _linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, 1)
    c_new = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c_new.tanh(), c_new


def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """r, z = sigmoid gates; n = tanh(x W_in + b_in + r (h W_hn + b_hn)); h' = n + z (h - n)."""
    i_r, i_z, i_n = _linear(x, w_ih, b_ih).chunk(3, 1)
    h_r, h_z, h_n = _linear(h, w_hh, b_hh).chunk(3, 1)
    r = (i_r + h_r).sigmoid()
    z = (i_z + h_z).sigmoid()
    n = (i_n + r * h_n).tanh()
    return n + z * (h - n)
