"""torch.utils.checkpoint against real torch: the recomputation's checks (CheckpointError for
other metadata, fewer or more saved tensors, with torch's texts), early stop (what a segment
prints when it is recomputed), set_checkpoint_early_stop, the reentrant variant's refusal of
autograd.grad and backward(inputs=...), and the module's helpers."""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

_VARYING = r'''
cp = torch.utils.checkpoint
def show(tag, fn):
    try:
        print(tag, "ok", fn())
    except Exception as e:
        print(tag, type(e).__name__, isinstance(e, RuntimeError), str(e))
def varying(kind):
    calls = [0]
    def fn(x):
        calls[0] += 1
        second = calls[0] == 2
        if kind == "shape" and second: x = x[:1]
        if kind == "dtype" and second: x = x.double()
        if kind == "middle":
            a = x.sin(); b = (x[:1] if second else x).cos(); c = x.exp()
            return (a + b + c).sum()
        y = x.sin()
        if (kind == "more") == second and kind in ("more", "fewer"):
            y = y.cos().tanh()
        return y.exp().sum()
    return fn
x = torch.ones(2, 3, requires_grad=True)
'''

PROGRAMS = {
    'metadata': _VARYING + r'''
for kind in ("shape", "dtype", "middle"):
    show(kind, lambda: cp.checkpoint(varying(kind), x, use_reentrant=False).backward())
show("none", lambda: cp.checkpoint(varying("dtype"), x, use_reentrant=False, determinism_check="none").backward())
show("bogus", lambda: cp.checkpoint(varying("dtype"), x, use_reentrant=False, determinism_check="bogus"))
show("bogus-reentrant", lambda: cp.checkpoint(torch.sin, x, use_reentrant=True, determinism_check="bogus").shape)
''',
    'counts': _VARYING + r'''
show("fewer", lambda: cp.checkpoint(varying("fewer"), x, use_reentrant=False).backward())
x.grad = None
show("more", lambda: cp.checkpoint(varying("more"), x, use_reentrant=False).backward())
print(x.grad)
show("more-no-early-stop", lambda: cp.checkpoint(varying("more"), x, use_reentrant=False, early_stop=False).backward())
with cp.set_checkpoint_early_stop(False):
    show("more-global", lambda: cp.checkpoint(varying("more"), x, use_reentrant=False).backward())
''',
    'early_stop': r'''
cp = torch.utils.checkpoint
def f(x):
    print("  start"); y = x.sin(); print("  mid"); z = y.cos(); print("  end"); return z * 2
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
print("default"); cp.checkpoint(f, x, use_reentrant=False).sum().backward()
print("param"); cp.checkpoint(f, x, use_reentrant=False, early_stop=False).sum().backward()
print("global wins")
with cp.set_checkpoint_early_stop(True):
    y = cp.checkpoint(f, x, use_reentrant=False, early_stop=False)
y.sum().backward()
print("read in forward")
y = cp.checkpoint(f, x, use_reentrant=False)
with cp.set_checkpoint_early_stop(False):
    y.sum().backward()
print("retain_graph")
y = cp.checkpoint(f, x, use_reentrant=False)
y.sum().backward(retain_graph=True); y.sum().backward()
print(x.grad)
print("reentrant")
cp.checkpoint(f, x, use_reentrant=True, early_stop=False).sum().backward()
''',
    'reentrant_grad': r'''
cp = torch.utils.checkpoint
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
for use_reentrant in (True, False):
    for how in ("grad", "inputs", "plain"):
        y = cp.checkpoint(lambda t: t.sin() * t, x, use_reentrant=use_reentrant)
        x.grad = None
        try:
            if how == "grad":
                print(torch.autograd.grad(y.sum(), x)[0])
            elif how == "inputs":
                y.sum().backward(inputs=[x]); print(x.grad)
            else:
                y.sum().backward(); print(x.grad)
        except RuntimeError as e:
            print(use_reentrant, how, e)
print(torch.autograd._is_checkpoint_valid())
''',
    'helpers': r'''
import warnings
cp = torch.utils.checkpoint
x = torch.ones(2, requires_grad=True)
a, b = cp.detach_variable((x, 3))
print(a, a.requires_grad, a.grad_fn, b)
try:
    cp.detach_variable([x])
except RuntimeError as e:
    print(e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    cp.check_backward_validity((x.detach(), 1)); cp.check_backward_validity((x,))
    print([str(m.message) for m in w])
print(cp.get_device_states(x), cp.DefaultDeviceType.get_device_type())
print([p.name for p in cp.CheckpointPolicy], cp.CheckpointPolicy.MUST_SAVE)
print(issubclass(cp.CheckpointError, RuntimeError), cp.CheckpointError.__name__)
with cp.set_checkpoint_debug_enabled(True):
    print(cp.checkpoint(torch.sin, x, use_reentrant=False).sum())
print(sorted(n for n in ("CheckpointError", "check_backward_validity", "detach_variable", "get_device_states",
      "set_device_states", "noop_context_fn", "set_checkpoint_early_stop", "DefaultDeviceType",
      "set_checkpoint_debug_enabled", "CheckpointPolicy") if n in cp.__all__))
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, at_least=5)
