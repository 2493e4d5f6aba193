"""NumPy re-implementations of torch.optim's update rules, written from the pseudo-code in
torch's documentation (one function per algorithm, one parameter at a time, float64).

Each `<name>_step(x, g, state, t, **hyper)` updates the array `x` in place for step number
`t` (1-based) with gradient `g`, keeping its buffers in the dict `state`.
"""
import math

import numpy as np


def sgd_step(x, g, state, t, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
             nesterov=False, maximize=False):
    g = -g if maximize else g.copy()
    if weight_decay:
        g = g + weight_decay * x
    if momentum:
        if t == 1:
            state["b"] = g.copy()
        else:
            state["b"] = momentum * state["b"] + (1 - dampening) * g
        g = g + momentum * state["b"] if nesterov else state["b"]
    x -= lr * g


def adam_step(x, g, state, t, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
              amsgrad=False, maximize=False, decoupled_weight_decay=False):
    b1, b2 = betas
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            x *= 1 - lr * weight_decay
        else:
            g = g + weight_decay * x
    m = state["m"] = b1 * state.get("m", 0) + (1 - b1) * g
    v = state["v"] = b2 * state.get("v", 0) + (1 - b2) * g * g
    m_hat = m / (1 - b1 ** t)
    if amsgrad:
        state["vmax"] = np.maximum(state.get("vmax", 0), v)
        v_hat = state["vmax"] / (1 - b2 ** t)
    else:
        v_hat = v / (1 - b2 ** t)
    x -= lr * m_hat / (np.sqrt(v_hat) + eps)


def adamw_step(x, g, state, t, weight_decay=1e-2, **hyper):
    adam_step(x, g, state, t, weight_decay=weight_decay, decoupled_weight_decay=True, **hyper)


def rmsprop_step(x, g, state, t, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, maximize=False):
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * x
    v = state["v"] = alpha * state.get("v", 0) + (1 - alpha) * g * g
    v_tilde = v
    if centered:
        ga = state["ga"] = alpha * state.get("ga", 0) + (1 - alpha) * g
        v_tilde = v - ga * ga
    if momentum > 0:
        b = state["b"] = momentum * state.get("b", 0) + g / (np.sqrt(v_tilde) + eps)
        x -= lr * b
    else:
        x -= lr * g / (np.sqrt(v_tilde) + eps)


def adagrad_step(x, g, state, t, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, maximize=False):
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * x
    clr = lr / (1 + (t - 1) * lr_decay)
    s = state["sum"] = state.get("sum", initial_accumulator_value) + g * g
    x -= clr * g / (np.sqrt(s) + eps)


def adadelta_step(x, g, state, t, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, maximize=False):
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * x
    v = state["v"] = rho * state.get("v", 0) + (1 - rho) * g * g
    dx = np.sqrt(state.get("u", 0) + eps) / np.sqrt(v + eps) * g
    state["u"] = rho * state.get("u", 0) + (1 - rho) * dx * dx
    x -= lr * dx


def adamax_step(x, g, state, t, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                maximize=False):
    b1, b2 = betas
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * x
    m = state["m"] = b1 * state.get("m", 0) + (1 - b1) * g
    u = state["u"] = np.maximum(b2 * state.get("u", 0), np.abs(g) + eps)
    x -= lr * m / ((1 - b1 ** t) * u)


def nadam_step(x, g, state, t, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
               momentum_decay=4e-3, decoupled_weight_decay=False, maximize=False):
    b1, b2 = betas
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            x *= 1 - lr * weight_decay
        else:
            g = g + weight_decay * x
    mu = b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
    mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * momentum_decay))
    # NOTE: torch keeps the running product of the mu's in a float32 scalar tensor.
    prod = state["prod"] = np.float32(state.get("prod", np.float32(1.0)) * np.float32(mu))
    prod = float(prod)
    m = state["m"] = b1 * state.get("m", 0) + (1 - b1) * g
    v = state["v"] = b2 * state.get("v", 0) + (1 - b2) * g * g
    m_hat = mu_next * m / (1 - prod * mu_next) + (1 - mu) * g / (1 - prod)
    v_hat = v / (1 - b2 ** t)
    x -= lr * m_hat / (np.sqrt(v_hat) + eps)


def radam_step(x, g, state, t, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
               decoupled_weight_decay=False, maximize=False):
    b1, b2 = betas
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            x *= 1 - lr * weight_decay
        else:
            g = g + weight_decay * x
    m = state["m"] = b1 * state.get("m", 0) + (1 - b1) * g
    v = state["v"] = b2 * state.get("v", 0) + (1 - b2) * g * g
    m_hat = m / (1 - b1 ** t)
    rho_inf = 2 / (1 - b2) - 1
    rho_t = rho_inf - 2 * t * b2 ** t / (1 - b2 ** t)
    if rho_t > 5:
        l_t = math.sqrt(1 - b2 ** t) / (np.sqrt(v) + eps)
        r_t = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                        / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
        x -= lr * m_hat * l_t * r_t
    else:
        x -= lr * m_hat


def rprop_step(x, g, state, t, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50),
               maximize=False):
    g = -g if maximize else g.copy()
    eta_minus, eta_plus = etas
    step = state.get("step", np.full_like(x, lr))
    prev = state.get("prev", np.zeros_like(x))
    product = g * prev
    step = np.where(product > 0, np.minimum(step * eta_plus, step_sizes[1]), step)
    step = np.where(product < 0, np.maximum(step * eta_minus, step_sizes[0]), step)
    g[product < 0] = 0
    state["step"], state["prev"] = step, g
    x -= step * np.sign(g)


def asgd_step(x, g, state, t, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
              maximize=False):
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * x
    # NOTE: torch keeps eta and mu in float32 scalars.
    eta, mu = float(state.get("eta", np.float32(lr))), float(state.get("mu", 1.0))
    x *= 1 - lambd * eta
    x -= eta * g
    state["ax"] = x.copy() if mu == 1 else state["ax"] + mu * (x - state["ax"])
    state["eta"] = np.float32(lr / (1 + lambd * lr * t) ** alpha)
    state["mu"] = np.float32(1 / max(1, t - t0))


def adafactor_step(x, g, state, t, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                   weight_decay=0.0, maximize=False):
    g = -g if maximize else g
    eps1 = np.finfo(x.dtype).eps if eps[0] is None else eps[0]
    beta2 = 1 - t ** beta2_decay
    rho = min(lr, 1 / math.sqrt(t))
    alpha = max(eps[1], np.sqrt(np.mean(x ** 2))) * rho
    x *= 1 - lr * weight_decay
    if g.ndim > 1:
        r = state["r"] = beta2 * state.get("r", 0) + (1 - beta2) * (g ** 2).mean(-1, keepdims=True)
        c = state["c"] = beta2 * state.get("c", 0) + (1 - beta2) * (g ** 2).mean(-2, keepdims=True)
        v = r @ c / max(r.mean(), eps1)
    else:
        v = state["v"] = beta2 * state.get("v", 0) + (1 - beta2) * g ** 2
    u = g / np.sqrt(np.maximum(v, eps1 ** 2))
    x -= alpha / max(1, np.sqrt(np.mean(u ** 2)) / d) * u


STEPS = {"SGD": sgd_step, "Adam": adam_step, "AdamW": adamw_step, "RMSprop": rmsprop_step,
         "Adagrad": adagrad_step, "Adadelta": adadelta_step, "Adamax": adamax_step,
         "NAdam": nadam_step, "RAdam": radam_step, "Rprop": rprop_step, "ASGD": asgd_step,
         "Adafactor": adafactor_step}
