"""L-BFGS: a quasi-Newton method from a short history of steps and gradient changes, with an
optional strong-Wolfe line search."""
import numpy as np

from .._device import backend_of
from .._ops._fused import fma
from .._tensor import wrap
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, check_lr_tensor, to_scalar

__all__ = ["LBFGS"]


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """Minimiser of the cubic through (x1, f1, slope g1) and (x2, f2, slope g2), clipped to
    `bounds` (default: between x1 and x2); the bounds' midpoint when the cubic has none."""
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square < 0:
        return (xmin_bound + xmax_bound) / 2.0
    d2 = d2_square ** 0.5
    if x1 <= x2:
        min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(min_pos, xmin_bound), xmax_bound)


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """Line search along `d` from step `t` for a point satisfying the strong Wolfe conditions:
    first bracket an interval containing one, then zoom into it by cubic interpolation.

    `obj_func(x, t, d)` returns (loss, flat gradient) at x + t d. Returns the new loss,
    gradient, step and the number of evaluations made.
    """
    d_norm = abs(d).max()
    g = g.copy()
    f_new, g_new = obj_func(x, t, d)
    evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    # Bracketing phase.
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        # Extrapolate to a longer step.
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        t_prev, t = t, _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                          bounds=(min_step, max_step))
        f_prev, g_prev, gtd_prev = f_new, g_new.copy(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # Zoom phase: shrink the bracket until a point satisfies the conditions.
    insuf_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0],
                               bracket[1], bracket_f[1], bracket_gtd[1])
        # NOTE: a point too close to an end of the bracket makes little progress; after two
        # such points in a row (or one outside the bracket), move it 10% of the width inside.
        hi, lo = max(bracket), min(bracket)
        eps = 0.1 * (hi - lo)
        if min(hi - t, t - lo) < eps:
            if insuf_progress or t >= hi or t <= lo:
                t = hi - eps if abs(t - hi) < abs(t - lo) else lo + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = t, f_new
            bracket_g[high], bracket_gtd[high] = g_new.copy(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = t, f_new
            bracket_g[low], bracket_gtd[low] = g_new.copy(), gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


def _data(value):
    """The array behind a state tensor (state holds tensors, as torch's does)."""
    return None if value is None else value._data


class LBFGS(Optimizer):
    """torch.optim.LBFGS. `step(closure)` runs up to `max_iter` iterations; `closure` must
    clear the gradients, compute the loss, call backward and return the loss.

    One parameter group only; the parameters are treated as one flat vector.
    """

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                        tolerance_grad=tolerance_grad, tolerance_change=tolerance_change,
                        history_size=history_size, line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    # -- the parameters as one flat vector -------------------------------------------------

    def _gather_flat_grad(self):
        parts = []
        for p in self._params:
            grad = p.grad
            if grad is None:
                xp = backend_of(p._data).xp
                parts.append(xp.zeros(p._data.size, p._data.dtype))
            else:
                parts.append(grad._data.reshape(-1))
        return backend_of(parts[0]).xp.concatenate(parts)

    def _add_grad(self, step_size, update):
        offset = 0
        for p in self._params:
            n = p._data.size
            p._data[...] = fma(update[offset:offset + n].reshape(p._data.shape), step_size,
                               p._data)
            p._bump_version()
            offset += n

    def _clone_param(self):
        return [p._data.copy() for p in self._params]

    def _set_param(self, arrays):
        for p, array in zip(self._params, arrays):
            p._data[...] = array
            p._bump_version()

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        loss = _to_float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def step(self, closure):
        """Perform up to `max_iter` L-BFGS iterations; returns the closure's first loss."""
        if closure is None:
            raise AssertionError("LBFGS requires a closure")
        group = self.param_groups[0]
        lr, max_iter, max_eval = to_scalar(group["lr"]), group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]

        def evaluate():
            return self._eval_closure(closure)

        # All state lives on the first parameter, as in torch.
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = evaluate()
        loss = _to_float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if abs(flat_grad).max() <= tolerance_grad:
            return orig_loss

        d, t = _data(state.get("d")), state.get("t")
        t = _data(t) if hasattr(t, "_data") else t
        old_dirs = [_data(v) for v in state.get("old_dirs") or []]
        old_stps = [_data(v) for v in state.get("old_stps") or []]
        ro = [_data(v) for v in state.get("ro") or []]
        H_diag = state.get("H_diag")
        H_diag = _data(H_diag) if hasattr(H_diag, "_data") else H_diag
        prev_flat_grad, prev_loss = _data(state.get("prev_flat_grad")), state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            # Search direction: steepest descent first, then the two-loop recursion.
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = y.dot(s)
                if ys > 1e-10:                  # keep the pair only if curvature is positive
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)
                if "al" not in state:
                    state["al"] = [None] * history_size
                al = [None] * history_size
                q = -flat_grad
                # (torch adds `alpha * other` with one fused multiply-add: _fused.fma)
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q = fma(old_dirs[i], -al[i], q)
                d = r = q * H_diag
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r = fma(old_stps[i], al[i] - be_i, r)
                d = r
                state["al"] = [None if a is None else _as_tensor(a) for a in al]

            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            # Step length: scaled down on the very first iteration.
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / _l1_norm(flat_grad)) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:         # not a descent direction
                break

            evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = self._clone_param()

                def obj_func(x, t, d):
                    return self._directional_evaluate(evaluate, x, t, d)

                loss, flat_grad, t, evals = _strong_wolfe(obj_func, x_init, t, d, loss,
                                                          flat_grad, gtd)
                self._add_grad(t, d)
                opt_cond = abs(flat_grad).max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                opt_cond = False
                if n_iter != max_iter:
                    # NOTE: no re-evaluation after the last iteration: the next step's first
                    # closure call provides it.
                    loss = _to_float(evaluate())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = abs(flat_grad).max() <= tolerance_grad
                    evals = 1
            current_evals += evals
            state["func_evals"] += evals

            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if abs(d * t).max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break

        state["d"] = wrap(d)
        state["t"] = _as_state_scalar(t)
        state["old_dirs"] = [wrap(v) for v in old_dirs]
        state["old_stps"] = [wrap(v) for v in old_stps]
        state["ro"] = [_as_tensor(v) for v in ro]
        state["H_diag"] = _as_state_scalar(H_diag)
        state["prev_flat_grad"] = wrap(prev_flat_grad)
        state["prev_loss"] = prev_loss
        return orig_loss


def _l1_norm(flat):
    """The sum of |flat|, added in torch's order where ember knows it (_cascade_sum)."""
    magnitudes = abs(flat)
    if magnitudes.__class__ is np.ndarray and magnitudes.dtype in (np.float32, np.float64):
        from .._ops._cascade_sum import sum_all
        return sum_all(magnitudes)[()]
    return magnitudes.sum()


def _as_tensor(value):
    """A 0-dim tensor of a NumPy scalar or a (NumPy or CuPy) 0-dim array, on its device."""
    if isinstance(value, np.generic):
        return wrap(np.asarray(value))
    return wrap(backend_of(value).xp.asarray(value))


def _as_state_scalar(value):
    """Python numbers stay numbers; arrays and NumPy scalars become 0-dim tensors (as torch's
    would be)."""
    if isinstance(value, (np.generic, np.ndarray)) or hasattr(value, "__cuda_array_interface__"):
        return _as_tensor(value)
    return value


def _to_float(loss):
    """float(loss), as torch takes it inside its step's no_grad (so without the warning of a
    float() of a tensor that requires grad)."""
    with no_grad():
        return float(loss)
