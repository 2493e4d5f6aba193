"""The LSTM recurrence on raw arrays: one layer, one direction, every time step, forward and
backward. (RNN and GRU layers: `_rnn_kernels.py`, which also holds the step layout, the
workspace pool and the weight preparation shared with this file.)

NOTE [ Gate-major steps ]
A step's four gates are kept as one (4H, B) block, a gate per row band and a sequence per
column: the transpose of the (B, 4H) rows the layer's input and output use. The step's
recurrent product is then `W_hh @ h` into that block, each gate is a contiguous run of it, and
the backward pass's product `W_hh^T @ d_gates` reads it the same way. Element-wise calls on
whole contiguous arrays cost about half of those on column bands of (B, 4H) rows (which NumPy
walks row by row), and a step makes about ten of them each way; the transposes happen once per
layer: the input projection is computed as `W_ih @ x_t^T` for all steps in one batched product
(straight into the gates' array), the outputs are turned back into rows in one copy, and the
gradients of all steps are gathered into one (4H, N) array for the layer's three large
products.

States are (size, B) arrays; a packed sequence's step with b < B active sequences works on the
first b columns (views, so slower, but the same code), and its per-step arrays keep all B
columns, zero past b.
"""
from ._rnn_kernels import (_LSTM_ORDER, _device_rows, _gate_rows, _give, _prepared, _take,
                           _times_previous_h, release, xp_of)

__all__ = ["forward", "backward", "release"]


def forward(mode, x, steps, uniform, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr, reverse, keep):
    """Run one LSTM layer. Returns (output rows, last h, last c, cache for backward).

    `x` is (N, input_size) rows; `h0`/`c0` are (B, size) arrays or None (zeros); `mode` is
    "LSTM" (the signature is `_rnn_kernels.forward`'s).
    """
    hidden = w_hh.shape[1] if w_hr is None else w_hr.shape[1]
    out_size = w_hh.shape[1]
    H, H3 = hidden, 3 * hidden
    T, batch, n = len(steps), steps[0][1], x.shape[0]
    dtype = x.dtype
    xp = xp_of(x)
    wi, wh, bias, _ = _prepared("LSTM", w_ih, w_hh, b_ih, b_hh, hidden)
    h = _state(xp, h0, batch, out_size, dtype, uniform)
    c = _state(xp, c0, batch, H, dtype, uniform)
    gates = _steps_array(xp, (T, 4 * H, batch), dtype, uniform)
    _project(xp, gates, wi, bias, x, steps, uniform)    # every step's W_ih x + b
    c_all = _steps_array(xp, (T, H, batch), dtype, uniform)
    tanh_c = _steps_array(xp, (T, H, batch), dtype, uniform)
    out_t = _steps_array(xp, (T, out_size, batch), dtype, uniform)
    hpre = None if w_hr is None else _steps_array(xp, (T, H, batch), dtype, uniform)
    # NOTE: with every step at full batch the previous states are the step before's (the
    # backward pass shifts by one step); packed steps keep copies as they go.
    copies = keep and not uniform
    hprev = _take((n, out_size), dtype, xp) if copies else None
    cprev = _steps_array(xp, (T, H, batch), dtype, False) if copies else None
    order = range(T - 1, -1, -1) if reverse else range(T)
    for t in order:
        row, bs = steps[t]
        full = bs == batch
        cols = slice(0, bs)
        hp, cp = (h, c) if full else (h[:, cols], c[:, cols])
        if copies:
            hprev[row:row + bs] = hp.T
            cprev[t][:, cols] = cp
        g = gates[t] if full else gates[t][:, cols]
        g += wh @ hp
        xp.tanh(g, out=g)               # sigmoid rows were halved: see _rnn_kernels' NOTE
        sig = g[:H3]
        sig *= 0.5
        sig += 0.5
        c_new = c_all[t] if full else c_all[t][:, cols]
        xp.multiply(g[2 * H:H3], cp, out=c_new)        # f * c
        c_new += g[H:2 * H] * g[H3:]                     # + i * g
        tc = tanh_c[t] if full else tanh_c[t][:, cols]
        xp.tanh(c_new, out=tc)
        h_new = out_t[t] if full else out_t[t][:, cols]
        if w_hr is None:
            xp.multiply(g[:H], tc, out=h_new)            # o * tanh(c)
        else:
            hq = hpre[t] if full else hpre[t][:, cols]
            xp.multiply(g[:H], tc, out=hq)
            if full:
                xp.matmul(w_hr, hq, out=h_new)
            else:
                h_new[...] = w_hr @ hq
        if uniform:     # (a packed layer's state is its own array: see _state)
            h, c = h_new, c_new
        else:
            h[:, cols] = h_new
            c[:, cols] = c_new
    out = xp.empty((n, out_size), dtype)
    if uniform:
        out.reshape(T, batch, out_size)[...] = out_t.transpose(0, 2, 1)
    else:
        for t, (row, bs) in enumerate(steps):
            out[row:row + bs] = out_t[t][:, :bs].T
    h_n, c_n = xp.array(h.T, order="C"), xp.array(c.T, order="C")     # copies, row-major
    _give(out_t)
    cache = {"x": x, "gates": gates, "c_all": c_all, "tanh_c": tanh_c, "hpre": hpre,
             "hprev": hprev, "cprev": cprev, "out": out, "h0": h0, "c0": c0, "steps": steps,
             "uniform": uniform, "reverse": reverse, "w_hr": w_hr, "hidden": hidden}
    if not keep:
        release(cache)
        cache = None
    return out, h_n, c_n, cache


def _state(xp, initial, batch, size, dtype, uniform):
    """The running state as (size, B): the initial one (zeros when None), copied when its
    columns are written (packed steps)."""
    if initial is None:
        return xp.zeros((size, batch), dtype)
    return xp.array(initial.T, dtype, copy=not uniform)


def _project(xp, gates, wi, bias, x, steps, uniform):
    """gates[t] = W_ih x_t^T (+ bias) for every step t: one batched product for steps of
    full batch, a product per step for packed ones."""
    T, _, batch = gates.shape
    if uniform:
        xp.matmul(wi, x.reshape(T, batch, x.shape[1]).transpose(0, 2, 1), out=gates)
    else:
        for t, (row, bs) in enumerate(steps):
            gates[t][:, :bs] = wi @ x[row:row + bs].T
    if bias is not None:
        gates += bias[:, None]


def _steps_array(xp, shape, dtype, uniform):
    """A (T, size, B) array of per-step values; zeroed for packed steps, whose columns past
    a step's batch are never written but are read by the backward pass's whole-array
    arithmetic."""
    array = _take(shape, dtype, xp)
    if not uniform:
        array[...] = 0
    return array


def backward(mode, cache, grad_out, grad_h, grad_c, w_ih, w_hh, need):
    """Gradients (input, w_ih, w_hh, b_ih, b_hh, h0, c0, w_hr) of one LSTM layer, as arrays
    in torch's layout (None where `need`, in that order, says no), from the forward's cache
    and the gradients of its three outputs (rows (N, out), (B, out), (B, hidden))."""
    steps, uniform, reverse = cache["steps"], cache["uniform"], cache["reverse"]
    H = cache["hidden"]
    w_hr, hpre = cache["w_hr"], cache["hpre"]
    T, batch, n = len(steps), grad_h.shape[0], grad_out.shape[0]
    xp = xp_of(grad_h)
    rows, undo = (_device_rows(xp, r) for r in _gate_rows(_LSTM_ORDER, H))
    whT = xp.ascontiguousarray(w_hh[rows].T)           # (out, 4H): unscaled, our order
    coef, dc_from_h = _coefficients(cache, xp)
    f = cache["gates"][:, 2 * H:3 * H]
    d_all = _take((4 * H, n), coef.dtype, xp)          # d(loss)/d(pre-activation), by rows
    d_step = _take((4 * H, batch), coef.dtype, xp)
    dh_state = xp.array(grad_h.T, order="C")
    dc_state = xp.array(grad_c.T, order="C")
    d_hr = None if w_hr is None else xp.zeros(w_hr.shape, coef.dtype)
    order = range(T) if reverse else range(T - 1, -1, -1)
    for t in order:
        row, bs = steps[t]
        full = bs == batch
        cols = slice(0, bs)
        dh = grad_out[row:row + bs].T + (dh_state if full else dh_state[:, cols])
        if w_hr is not None:
            d_hr += dh @ (hpre[t] if full else hpre[t][:, cols]).T
            dh = w_hr.T @ dh
        ct = coef[t] if full else coef[t][:, cols]
        dc = dh * (dc_from_h[t] if full else dc_from_h[t][:, cols])
        dc += dc_state if full else dc_state[:, cols]
        dg = d_step if full else d_step[:, cols]
        xp.multiply(dh, ct[:H], out=dg[:H])
        if full:        # one call for the three gates the cell's gradient drives
            xp.multiply(dc[None], ct[H:].reshape(3, H, bs), out=dg[H:].reshape(3, H, bs))
        else:
            for k in range(1, 4):
                xp.multiply(dc, ct[k * H:(k + 1) * H], out=dg[k * H:(k + 1) * H])
        dc *= f[t] if full else f[t][:, cols]
        dh_new = whT @ dg
        d_all[:, row:row + bs] = dg
        if uniform:
            dh_state, dc_state = dh_new, dc
        else:
            dh_state[:, cols] = dh_new
            dc_state[:, cols] = dc
    _give(coef, dc_from_h, d_step)
    x = cache["x"]
    d_x = d_all.T @ w_ih[rows] if need[0] else None
    dw_ih = (d_all @ x)[undo] if need[1] else None
    dw_hh = _times_previous_h(cache, d_all.T)[undo] if need[2] else None     # (d_all.T: rows)
    db = d_all.sum(1)[undo] if need[3] or need[4] else None
    db_ih = db if need[3] else None
    db_hh = (db.copy() if need[3] else db) if need[4] else None
    _give(d_all)
    d_h0 = xp.array(dh_state.T, order="C")
    d_c0 = xp.array(dc_state.T, order="C")
    return d_x, dw_ih, dw_hh, db_ih, db_hh, d_h0, d_c0, d_hr


def _coefficients(cache, xp):
    """For all steps at once: d(pre-activation)/d(h) for the o gate and d(pre-activation)/
    d(c) for i, f, g, in a (T, 4H, B) array, and d(c)/d(h) (T, H, B)."""
    gates, tanh_c = cache["gates"], cache["tanh_c"]
    H = cache["hidden"]
    o, i, f, g = (gates[:, k * H:(k + 1) * H] for k in range(4))
    coef = _take(gates.shape, gates.dtype, xp)
    tmp = _take(tanh_c.shape, tanh_c.dtype, xp)
    for gate, factor, k in ((o, tanh_c, 0), (i, g, 1), (f, None, 2)):
        xp.subtract(1, gate, out=tmp)
        tmp *= gate
        if factor is not None:
            xp.multiply(tmp, factor, out=coef[:, k * H:(k + 1) * H])
    _times_previous_c(cache, tmp, coef[:, 2 * H:3 * H], xp)     # f(1 - f) * c_prev
    xp.multiply(g, g, out=tmp)
    xp.subtract(1, tmp, out=tmp)
    xp.multiply(tmp, i, out=coef[:, 3 * H:])
    xp.multiply(tanh_c, tanh_c, out=tmp)
    xp.subtract(1, tmp, out=tmp)
    tmp *= o
    return coef, tmp


def _times_previous_c(cache, values, out, xp):
    """out = values * (the cell state before each step), (T, H, B)."""
    kept = cache["cprev"]
    if kept is not None:
        xp.multiply(values, kept, out=out)
        return
    states, initial = cache["c_all"], cache["c0"]
    first, rest, shifted = (-1, slice(0, -1), slice(1, None)) if cache["reverse"] else \
        (0, slice(1, None), slice(0, -1))
    xp.multiply(values[rest], states[shifted], out=out[rest])
    if initial is None:
        out[first] = 0
    else:
        xp.multiply(values[first], initial.T, out=out[first])
