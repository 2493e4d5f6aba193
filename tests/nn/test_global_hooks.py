"""Global module hooks (ember.nn.modules.module.register_module_*): they run for every
module call, before the module's own hooks of the same kind, and may replace what they are
given; registration hooks may replace what gets registered. Orders and numbers worked by hand
(tests/oracle/test_global_hooks_oracle.py compares a longer log with torch)."""
import warnings

import numpy as np
import pytest

import ember as torch
from ember import nn
from ember.nn.modules import module as gm


class Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x, bias=0.0):
        return x * self.k + bias


@pytest.fixture
def hooks():
    """Register through `hooks.add(fn, ...)`; every handle is removed afterwards, and the
    process-wide kind of global backward hooks (full or not) is put back."""
    handles = []
    kind = gm._global_is_full_backward_hook

    def add(register, *args, **kwargs):
        handles.append(register(*args, **kwargs))
        return handles[-1]
    yield type("Hooks", (), {"add": staticmethod(add)})
    for h in handles:
        h.remove()
    gm._global_is_full_backward_hook = kind
    assert not gm._global_call_hooks


def values(t):
    return t.detach().numpy().tolist()


def test_names_live_in_nn_modules_module_only():
    names = sorted(n for n in dir(gm) if n.startswith("register_module_"))
    assert names == ["register_module_backward_hook", "register_module_buffer_registration_hook",
                     "register_module_forward_hook", "register_module_forward_pre_hook",
                     "register_module_full_backward_hook",
                     "register_module_full_backward_pre_hook",
                     "register_module_module_registration_hook",
                     "register_module_parameter_registration_hook"]
    assert sorted(gm.__all__) == ["Module"] + names
    assert not any(n.startswith("register_module_") for n in dir(nn.modules))


def test_forward_hook_order_and_replacements(hooks):
    log = []
    m = Scale(2.0)
    x = torch.tensor([1.0, 2.0])

    def rec(name, ret=None):
        def hook(mod, *a):
            log.append((name, [values(t) if isinstance(t, torch.Tensor) else t
                               for t in a[0]]))
            return ret
        return hook
    hooks.add(m.register_forward_pre_hook, rec("m_pre"))
    hooks.add(gm.register_module_forward_pre_hook, rec("g_pre1"))
    hooks.add(gm.register_module_forward_pre_hook, rec("g_pre2", x + 1))   # not a tuple
    hooks.add(m.register_forward_pre_hook, rec("m_pre_first"), prepend=True)
    hooks.add(m.register_forward_hook, rec("m_post"))
    hooks.add(gm.register_module_forward_hook, rec("g_post", x * 0 - 1))
    kw_seen = []
    hooks.add(gm.register_module_forward_hook,
              lambda mod, args, kwargs, out: kw_seen.append((dict(kwargs), values(out))),
              with_kwargs=True)
    out = m(x, bias=0.5)
    assert [name for name, _ in log] == ["g_pre1", "g_pre2", "m_pre_first", "m_pre",
                                         "g_post", "m_post"]
    assert log[2][1] == [[2.0, 3.0]]            # g_pre2's value, wrapped in a tuple
    assert values(out) == [-1.0, -1.0]          # g_post's replacement reaches the caller
    assert kw_seen == [({"bias": 0.5}, [-1.0, -1.0])]


def test_global_hooks_run_for_every_module_and_stop_when_removed(hooks):
    log = []
    model = nn.Sequential(Scale(2.0), nn.Sequential(Scale(3.0)))
    pre = hooks.add(gm.register_module_forward_pre_hook,
                    lambda mod, args: log.append(("pre", type(mod).__name__)))
    post = hooks.add(gm.register_module_forward_hook,
                     lambda mod, args, out: log.append(("post", type(mod).__name__)))
    assert values(model(torch.tensor([1.0]))) == [6.0]
    assert log == [("pre", "Sequential"), ("pre", "Scale"), ("post", "Scale"),
                   ("pre", "Sequential"), ("pre", "Scale"), ("post", "Scale"),
                   ("post", "Sequential"), ("post", "Sequential")]
    pre.remove()
    assert gm._global_call_hooks
    post.remove()
    assert not gm._global_call_hooks
    model(torch.tensor([1.0]))
    assert len(log) == 8


def test_no_hooks_keep_the_fast_path(monkeypatch):
    def fail(*a):
        raise AssertionError("hook machinery used without hooks")
    monkeypatch.setattr(nn.Module, "_call_with_hooks", fail)
    assert values(Scale(2.0)(torch.tensor([1.5]))) == [3.0]


def test_always_call_hooks_when_forward_raises(hooks):
    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")
    seen = []
    b = Boom()
    hooks.add(gm.register_module_forward_hook, lambda mod, a, out: seen.append(("plain", out)))
    hooks.add(gm.register_module_forward_hook,
              lambda mod, a, out: seen.append(("g_always", out)) or 5, always_call=True)
    # torch calls a global always-called hook with (module, args, result) on this path,
    # even one registered with kwargs: the missing argument becomes a warning
    hooks.add(gm.register_module_forward_hook, lambda mod, a, kw, out: None, with_kwargs=True,
              always_call=True)
    hooks.add(b.register_forward_hook, lambda mod, a, out: seen.append(("m_always", out)),
              always_call=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="boom"):
            b(torch.ones(1))
    assert seen == [("g_always", None), ("m_always", 5)]
    assert len(caught) == 1
    assert str(caught[0].message).startswith(
        "global module forward hook with ``always_call=True`` raised an exception that was "
        "silenced as another error was raised in forward: ")


def test_always_call_hooks_when_a_hook_raises(hooks):
    seen = []
    m = Scale(2.0)

    def raising(mod, args, out):
        raise KeyError("post")
    hooks.add(gm.register_module_forward_hook,
              lambda mod, a, out: seen.append(("g_always", values(out))) or out * 0 + 9,
              always_call=True)
    hooks.add(m.register_forward_hook, raising)
    hooks.add(m.register_forward_hook,
              lambda mod, a, out: seen.append(("m_always", values(out))), always_call=True)
    with pytest.raises(KeyError):
        m(torch.tensor([1.0, 2.0]))
    # the global hook ran once, before the error; the module's one runs after it, on 9s
    assert seen == [("g_always", [2.0, 4.0]), ("m_always", [9.0, 9.0])]


def test_full_backward_hook_order_and_values(hooks):
    log = []
    m = Scale(2.0)

    def bpre(name, scale=None):
        def hook(mod, grad_output):
            log.append((name, values(grad_output[0])))
            return None if scale is None else (grad_output[0] * scale,)
        return hook

    def bhook(name, scale=None):
        def hook(mod, grad_input, grad_output):
            log.append((name, values(grad_input[0]), values(grad_output[0])))
            return None if scale is None else (grad_input[0] * scale,)
        return hook
    hooks.add(m.register_full_backward_pre_hook, bpre("m_bpre"))
    hooks.add(gm.register_module_full_backward_pre_hook, bpre("g_bpre", 10.0))
    hooks.add(m.register_full_backward_hook, bhook("m_bhook"))
    hooks.add(gm.register_module_full_backward_hook, bhook("g_bhook", 0.5))
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    out = m(x)
    assert type(out.grad_fn).__name__ == "BackwardHookFunctionBackward"
    out.sum().backward()
    # grad_output 1 -> 10 (g_bpre); grad_input 2 * 10 = 20 -> 10 (g_bhook)
    assert log == [("g_bpre", [1.0, 1.0]), ("m_bpre", [10.0, 10.0]),
                   ("g_bhook", [20.0, 20.0], [10.0, 10.0]),
                   ("m_bhook", [10.0, 10.0], [10.0, 10.0])]
    assert values(x.grad) == [10.0, 10.0]


def test_backward_hooks_see_a_forward_hooks_replacement(hooks):
    seen = []
    m = Scale(2.0)
    hooks.add(gm.register_module_full_backward_pre_hook,
              lambda mod, g: seen.append(values(g[0])))
    hooks.add(m.register_forward_hook, lambda mod, a, out: out * 3)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    m(x).sum().backward()
    # the pre-hook is on the replaced output (x * 2 * 3), so its grad_output is ones
    assert seen == [[1.0, 1.0]]
    assert values(x.grad) == [6.0, 6.0]


def test_full_backward_hook_when_no_input_requires_grad(hooks):
    seen = []
    lin = nn.Linear(2, 1)
    hooks.add(gm.register_module_full_backward_hook,
              lambda mod, gi, go: seen.append((gi, values(go[0]))))
    with pytest.warns(UserWarning, match="Full backward hook is firing when gradients are "
                                         "computed with respect to module outputs"):
        lin(torch.tensor([1.0, 2.0])).sum().backward()
    assert seen == [((None,), [1.0])]
    np.testing.assert_array_equal(lin.weight.grad.numpy(), [[1.0, 2.0]])


def test_full_and_non_full_global_backward_hooks_exclude_each_other(hooks):
    gm._global_is_full_backward_hook = None
    hooks.add(gm.register_module_full_backward_hook, lambda m, gi, go: None)
    message = ("Cannot use both regular backward hooks and full backward hooks as a global "
               "Module hook. Please use only one of them.")
    with pytest.raises(RuntimeError, match=message):
        gm.register_module_backward_hook(lambda m, gi, go: None)
    gm._global_is_full_backward_hook = None
    hooks.add(gm.register_module_backward_hook, lambda m, gi, go: None)
    with pytest.raises(RuntimeError, match=message):
        gm.register_module_full_backward_hook(lambda m, gi, go: None)


def test_non_full_backward_hook_is_on_the_outputs_grad_fn(hooks):
    gm._global_is_full_backward_hook = None
    seen = []
    hooks.add(gm.register_module_backward_hook,
              lambda mod, gi, go: seen.append((type(mod).__name__, values(gi[0]),
                                               values(go[0]))) or (gi[0] * 2,))
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    with pytest.warns(FutureWarning, match="forward contains multiple autograd Nodes"):
        out = nn.Tanh()(x)
    assert type(out.grad_fn).__name__ == "TanhBackward0"
    out.sum().backward()
    expected = 1 - np.tanh(np.array([0.5, -1.0], dtype=np.float32)) ** 2
    assert seen[0][0] == "Tanh" and seen[0][2] == [1.0, 1.0]
    np.testing.assert_allclose(seen[0][1], expected, rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), 2 * expected, rtol=1e-6)


def test_registration_hooks_see_and_replace_values(hooks):
    log = []

    def rec(kind):
        return lambda mod, name, value: log.append((kind, type(mod).__name__, name,
                                                    type(value).__name__))
    hooks.add(gm.register_module_parameter_registration_hook, rec("param"))
    hooks.add(gm.register_module_buffer_registration_hook, rec("buffer"))
    hooks.add(gm.register_module_module_registration_hook, rec("module"))
    nn.Linear(2, 1)
    holder = nn.Module()
    holder.w = nn.Parameter(torch.ones(1))
    holder.w = None                          # a None parameter runs no hook
    holder.register_buffer("b", None)        # a None buffer does
    holder.child = Scale(1.0)
    holder.child = None
    holder.add_module("c2", Scale(1.0))
    assert log == [("param", "Linear", "weight", "Parameter"),
                   ("param", "Linear", "bias", "Parameter"),
                   ("param", "Module", "w", "Parameter"),
                   ("buffer", "Module", "b", "NoneType"),
                   ("module", "Module", "child", "Scale"),
                   ("module", "Module", "child", "NoneType"),
                   ("module", "Module", "c2", "Scale")]


def test_registration_hooks_replacements_are_registered(hooks):
    after = []
    hooks.add(gm.register_module_parameter_registration_hook,
              lambda mod, name, p: nn.Parameter(p.detach() * 5))
    hooks.add(gm.register_module_parameter_registration_hook,
              lambda mod, name, p: after.append(values(p)))
    hooks.add(gm.register_module_buffer_registration_hook,
              lambda mod, name, b: torch.full((1,), 4.0))
    hooks.add(gm.register_module_module_registration_hook, lambda mod, name, sub: Scale(9.0))
    holder = nn.Module()
    holder.w = nn.Parameter(torch.ones(2))
    holder.register_buffer("b", torch.zeros(3))
    holder.sub = nn.Identity()
    holder.add_module("sub2", nn.Identity())
    assert after == [[5.0, 5.0]]
    assert values(holder.w) == [5.0, 5.0] and isinstance(holder.w, nn.Parameter)
    assert values(holder.b) == [4.0]
    assert holder.sub.k == 9.0 and holder.sub2.k == 9.0
