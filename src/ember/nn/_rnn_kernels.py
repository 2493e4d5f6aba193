"""The recurrences of RNN and GRU layers on raw arrays: one layer, one direction, every time
step, forward and backward; and what LSTM layers (`_lstm_kernels.py`) share with them: the
step layout, the workspace pool, the weights in kernel order.

NOTE [ Recurrence layout ]
A layer's input is a 2-D array of rows (N, input_size) plus a list of steps, each (first row,
batch size): a padded (T, B, F) input is N = T*B rows with T steps of B rows, and a packed
sequence is its `data` with its `batch_sizes` (non-increasing, so the active sequences of a
step are always the first rows of the state). The forward direction walks the steps in order,
the reverse one backwards; rows of the state past a step's batch size keep their value, which
is how shorter sequences keep their last state (forward) or their initial state (reverse).

The input projection of all steps is one matmul before the loop; each step then costs one
matmul with weight_hh and a few in-place element-wise calls. Sigmoid gates use
sigmoid(z) = 0.5 * tanh(z / 2) + 0.5 with their weight rows pre-scaled by 1/2 (exact in
floating point), so one tanh call activates every gate of a step. LSTM gates run internally
in the order (o, i, f, g): the sigmoid gates are contiguous for the forward pass and the gates
driven by the cell's gradient (i, f, g) for the backward one; gradients are put back into
torch's order (i, f, g, o). The backward pass computes every activation derivative for all
steps at once, leaving a handful of calls per step. (LSTM steps keep their gates transposed,
gate-major: NOTE [ Gate-major steps ] in `_lstm_kernels.py`.)
"""
import functools

import numpy as np

from .._device import backend_of

_LSTM_ORDER = (3, 0, 1, 2)      # torch's (i, f, g, o) -> ours (o, i, f, g), by gate blocks


# NOTE [ Workspace reuse ]
# A layer's step-by-step values (gates, cell states) and the backward pass's scratch arrays are
# large (N rows each) and short-lived: fresh memory for them on every call costs more, in page
# faults, than the arithmetic. They come from a small pool instead and go back to it once the
# backward pass (or, without grad, the forward pass) is done with them. Nothing handed to a
# caller (outputs, states, gradients) ever comes from the pool.
_POOL = {}
_POOL_PER_SHAPE = 4
_POOL_BYTES = 64 << 20
_pooled_bytes = [0]


def _take(shape, dtype, xp=np):
    """An uninitialised scratch array, from the pool when one of that shape is free (NumPy
    only: CuPy has its own memory pool)."""
    if xp is not np:
        return xp.empty(shape, dtype)
    bucket = _POOL.get((shape, dtype))
    if bucket:
        try:
            array = bucket.pop()
        except IndexError:      # taken meanwhile by another thread
            return np.empty(shape, dtype)
        _pooled_bytes[0] -= array.nbytes
        return array
    return np.empty(shape, dtype)


def _give(*arrays):
    """Return scratch arrays to the pool (None entries are skipped)."""
    for array in arrays:
        if array is None or array.__class__ is not np.ndarray \
                or _pooled_bytes[0] + array.nbytes > _POOL_BYTES:
            continue
        bucket = _POOL.setdefault((array.shape, array.dtype), [])
        if len(bucket) < _POOL_PER_SHAPE:
            bucket.append(array)
            _pooled_bytes[0] += array.nbytes


def xp_of(array):
    """The array module of `array`: NumPy on the CPU, CuPy on a GPU."""
    return np if array.__class__ is np.ndarray else backend_of(array).xp


_SCRATCH = ("gates", "c_all", "tanh_c", "hpre", "hh", "hprev", "cprev")


def release(cache):
    """Give a forward cache's arrays back to the pool; the cache must not be used again."""
    _give(*(cache.pop(name, None) for name in _SCRATCH))


def steps_of(batch_sizes, total_batch):
    """(first row, batch size) of each step, and whether every step has the full batch."""
    steps = []
    row = 0
    for bs in batch_sizes:
        steps.append((row, bs))
        row += bs
    return steps, all(bs == total_batch for bs in batch_sizes)


@functools.lru_cache(maxsize=64)
def _gate_rows(gates, hidden):
    """Row indices that put LSTM gate blocks in our order, and the inverse permutation
    (read-only arrays, shared between calls)."""
    rows = np.concatenate([np.arange(g * hidden, (g + 1) * hidden) for g in gates])
    undo = np.empty_like(rows)
    undo[rows] = np.arange(rows.size)
    rows.flags.writeable = undo.flags.writeable = False
    return rows, undo


def _device_rows(xp, rows):
    """Gate row indices as an index array of `xp`."""
    return rows if xp is np else xp.asarray(rows)


def _prepared(mode, w_ih, w_hh, b_ih, b_hh, hidden):
    """Weights in kernel order, sigmoid rows halved; `bias` is added to the input projection,
    `bias_hh` (GRU only) to the recurrent one."""
    dtype = w_ih.dtype
    xp = xp_of(w_ih)
    if mode == "LSTM":
        rows = _device_rows(xp, _gate_rows(_LSTM_ORDER, hidden)[0])
        scale = xp.ones(4 * hidden, dtype)
        scale[:3 * hidden] = 0.5
    elif mode == "GRU":
        rows = None
        scale = xp.ones(3 * hidden, dtype)
        scale[:2 * hidden] = 0.5
    else:
        rows, scale = None, None
    if rows is not None:
        w_ih, w_hh = w_ih[rows], w_hh[rows]
        b_ih = None if b_ih is None else b_ih[rows]
        b_hh = None if b_hh is None else b_hh[rows]
    if scale is not None:
        w_ih = w_ih * scale[:, None]
        w_hh = w_hh * scale[:, None]
        b_ih = None if b_ih is None else b_ih * scale
        b_hh = None if b_hh is None else b_hh * scale
    if mode == "GRU":
        return w_ih, w_hh, b_ih, b_hh
    bias = None
    if b_ih is not None:
        bias = b_ih + b_hh
    return w_ih, w_hh, bias, None


def forward(mode, x, steps, uniform, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, reverse, keep):
    """Run one RNN or GRU layer. Returns (output rows, last h, None, cache for backward).

    `x` is (N, input_size); `h0` is a (B, hidden) array or None (zeros); `c0` and `w_hr` are
    None (the signature is the LSTM's, `_lstm_kernels.forward`).
    """
    hidden = out_size = w_hh.shape[1]
    batch = steps[0][1]                 # the first step has the most sequences
    dtype = x.dtype
    xp = xp_of(x)
    wi, wh, bias, bias_hh = _prepared(mode, w_ih, w_hh, b_ih, b_hh, hidden)
    n = x.shape[0]
    gates = xp.matmul(x, wi.T, out=_take((n, wi.shape[0]), dtype, xp))
    if bias is not None:
        gates += bias
    h = _state(xp, h0, batch, out_size, dtype, uniform)
    out = xp.empty((n, out_size), dtype)
    # NOTE: with every step at full batch the previous states are the outputs shifted by
    # one step (backward rebuilds them); packed steps keep copies as they go.
    copies = keep and not uniform
    hprev = _take((n, out_size), dtype, xp) if copies else None
    cache = {"x": x, "gates": gates, "out": out, "hprev": hprev, "h0": h0, "c0": c0,
             "steps": steps, "uniform": uniform, "reverse": reverse, "w_hr": w_hr,
             "hidden": hidden}
    order = reversed(steps) if reverse else steps
    whT = xp.ascontiguousarray(wh.T)
    if mode == "GRU":
        hh_all = _take((n, 3 * hidden), dtype, xp)
        s2 = 2 * hidden
        for row, bs in order:
            rows = slice(row, row + bs)
            hp = h[:bs] if bs != batch else h
            if copies:
                hprev[rows] = hp
            hh = xp.matmul(hp, whT, out=hh_all[rows])
            if bias_hh is not None:
                hh += bias_hh
            g = gates[rows]
            rz = g[:, :s2]
            rz += hh[:, :s2]
            xp.tanh(rz, out=rz)
            rz *= 0.5
            rz += 0.5
            nn_ = g[:, s2:]
            nn_ += g[:, :hidden] * hh[:, s2:]
            xp.tanh(nn_, out=nn_)
            h_new = xp.subtract(hp, nn_, out=out[rows])
            h_new *= g[:, hidden:s2]
            h_new += nn_
            if uniform:
                h = h_new
            else:
                h[:bs] = h_new
        cache["hh"] = hh_all
        return _finish(out, xp.array(h, copy=uniform), None, cache, keep)
    relu = mode == "RNN_RELU"
    for row, bs in order:
        rows = slice(row, row + bs)
        hp = h[:bs] if bs != batch else h
        if copies:
            hprev[rows] = hp
        g = gates[rows]
        g += hp @ whT
        if relu:
            xp.maximum(g, 0, out=g)
        else:
            xp.tanh(g, out=g)
        if uniform:
            h = g
        else:
            h[:bs] = g
    out[...] = gates
    return _finish(out, xp.array(h, copy=uniform), None, cache, keep)


def _finish(out, h, c, cache, keep):
    if not keep:
        release(cache)
        cache = None
    return out, h, c, cache


def _state(xp, initial, batch, size, dtype, uniform):
    """The running state: the initial one (zeros when None), copied when rows are written."""
    if initial is None:
        return xp.zeros((batch, size), dtype)
    return xp.array(initial, dtype, copy=not uniform)


def _times_previous_h(cache, d):
    """d^T @ (the hidden state before each step), as two products when the previous states
    are the outputs shifted by one step."""
    kept = cache["hprev"]
    if kept is not None:
        return d.T @ kept
    out, initial = cache["out"], cache["h0"]
    batch = cache["steps"][0][1]
    n = out.shape[0]
    if cache["reverse"]:
        first, rest, shifted = slice(n - batch, n), slice(0, n - batch), slice(batch, n)
    else:
        first, rest, shifted = slice(0, batch), slice(batch, n), slice(0, n - batch)
    result = d[rest].T @ out[shifted]
    if initial is not None:
        result += d[first].T @ initial
    return result


def previous(cache, name, states, initial):
    """The state before each step (N, size): kept copies, or the per-step `states` shifted
    by one step with the initial state in front (see NOTE in forward)."""
    kept = cache[name]
    if kept is not None:
        return kept
    batch = cache["steps"][0][1]
    xp = xp_of(states)
    if initial is None:
        initial = xp.zeros((batch, states.shape[1]), states.dtype)
    if cache["reverse"]:
        return xp.concatenate([states[batch:], initial])
    return xp.concatenate([initial, states[:states.shape[0] - batch]])


def backward(mode, cache, grad_out, grad_h, grad_c, w_ih, w_hh, need):
    """Gradients (input, w_ih, w_hh, b_ih, b_hh, h0, c0, w_hr) of one RNN or GRU layer (the
    last two None), as arrays in torch's layout (None where `need`, in that order, says no), from the forward's cache and
    the gradients of its three outputs."""
    steps, uniform, reverse = cache["steps"], cache["uniform"], cache["reverse"]
    hidden = cache["hidden"]
    order = steps if reverse else reversed(steps)
    batch = grad_h.shape[0]
    xp = xp_of(grad_h)
    dh_state = xp.array(grad_h, copy=True)
    if mode == "GRU":
        d_in, d_rec, d_h0 = _gru_backward(cache, grad_out, dh_state, order, batch, uniform,
                                          hidden, w_hh)
    else:
        d_in, d_h0 = _elman_backward(cache, grad_out, dh_state, order, batch, uniform,
                                     hidden, w_hh, mode)
        d_rec = d_in
    x = cache["x"]
    d_x = d_in @ w_ih if need[0] else None
    dw_ih = d_in.T @ x if need[1] else None
    dw_hh = _times_previous_h(cache, d_rec) if need[2] else None
    db_ih = d_in.sum(0) if need[3] else None
    db_hh = d_rec.sum(0) if need[4] else None
    _give(d_in, d_rec if d_rec is not d_in else None)
    return d_x, dw_ih, dw_hh, db_ih, db_hh, d_h0, None, None


def _elman_backward(cache, grad_out, dh_state, order, batch, uniform, hidden, w_hh, mode):
    xp = xp_of(grad_out)
    act = cache["gates"]
    slope = _take(act.shape, act.dtype, xp)
    if mode == "RNN_TANH":
        xp.multiply(act, act, out=slope)
        xp.subtract(1, slope, out=slope)
    else:
        xp.greater(act, 0, out=slope)
    d_pre = _take((act.shape[0], hidden), act.dtype, xp)
    for row, bs in order:
        rows = slice(row, row + bs)
        dh = grad_out[rows] + (dh_state[:bs] if bs != batch else dh_state)
        dz = xp.multiply(dh, slope[rows], out=d_pre[rows])
        if uniform:
            dh_state = dz @ w_hh
        else:
            dh_state[:bs] = dz @ w_hh
    _give(slope)
    return d_pre, dh_state


def _gru_backward(cache, grad_out, dh_state, order, batch, uniform, hidden, w_hh):
    """d(loss)/d(input projection) and d(loss)/d(recurrent projection), each (N, 3H), and
    the gradient of h0."""
    xp = xp_of(grad_out)
    gates, hh = cache["gates"], cache["hh"]
    hprev = previous(cache, "hprev", cache["out"], cache["h0"])
    H = hidden
    r, z, nn_ = gates[:, :H], gates[:, H:2 * H], gates[:, 2 * H:]
    coef_n = (1 - z) * (1 - nn_ * nn_)
    coef_z = (hprev - nn_) * (z * (1 - z))
    coef_r = hh[:, 2 * H:] * (r * (1 - r))
    n = gates.shape[0]
    d_hh = _take(gates.shape, gates.dtype, xp)     # d(loss)/d(W_hh h + b_hh), per gate
    d_n = _take((n, H), gates.dtype, xp)           # d(loss)/d(W_in x + b_in + r * hn)
    for row, bs in order:
        rows = slice(row, row + bs)
        full = bs == batch
        dh = grad_out[rows] + (dh_state if full else dh_state[:bs])
        dn = xp.multiply(dh, coef_n[rows], out=d_n[rows])
        dg = d_hh[rows]
        xp.multiply(dn, coef_r[rows], out=dg[:, :H])
        xp.multiply(dh, coef_z[rows], out=dg[:, H:2 * H])
        xp.multiply(dn, r[rows], out=dg[:, 2 * H:])
        dh_new = dg @ w_hh
        dh_new += dh * z[rows]
        if uniform:
            dh_state = dh_new
        else:
            dh_state[:bs] = dh_new
    d_pre = xp.concatenate([d_hh[:, :2 * H], d_n], axis=1)
    _give(d_n)
    return d_pre, d_hh, dh_state
