"""ember.utils.hooks: torch.utils.hooks' public helpers."""
import warnings

import pytest

import ember
from ember.autograd.graph import RemovableHandle as GraphHandle
from ember.utils import hooks


def test_removable_handle_is_the_one_hooks_return():
    x = ember.ones(2, requires_grad=True)
    handle = x.register_hook(lambda g: g * 2)
    assert hooks.RemovableHandle is GraphHandle and isinstance(handle, hooks.RemovableHandle)
    x.sum().backward()
    assert x.grad.tolist() == [2., 2.]
    handle.remove()
    x.grad = None
    x.sum().backward()
    assert x.grad.tolist() == [1., 1.]


def test_handle_made_by_hand_removes_its_entry():
    from collections import OrderedDict
    store = OrderedDict()
    handle = hooks.RemovableHandle(store)
    store[handle.id] = print
    with handle:
        assert list(store) == [handle.id]
    assert store == {}


def hook(grad):
    return grad


@pytest.mark.parametrize("leaf", [True, False])
def test_warn_if_has_hooks(leaf):
    x = ember.ones(2, requires_grad=True)
    t = x if leaf else x * 2
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        hooks.warn_if_has_hooks(t)
        assert seen == []
        t.register_hook(hook)
        t.register_hook(hooks.unserializable_hook(lambda g: g))
        hooks.warn_if_has_hooks(t)
    assert len(seen) == 1 and seen[0].category is UserWarning
    assert str(seen[0].message) == (
        f"backward hook {hook!r} on tensor will not be serialized.  If this is expected, you "
        "can decorate the function with @torch.utils.hooks.unserializable_hook to suppress "
        "this warning")


def test_unserializable_hook_marks_and_returns():
    def f(g):
        return g
    assert hooks.unserializable_hook(f) is f and f.__torch_unserializable__ is True


def test_hooks_of_another_output_are_not_reported():
    x = ember.ones(2, requires_grad=True)
    a, b = x.unbind(0)
    a.register_hook(hook)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        hooks.warn_if_has_hooks(b)
    assert seen == []
