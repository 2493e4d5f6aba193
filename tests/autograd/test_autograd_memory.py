"""Memory of the autograd tools: custom Functions, saved-tensor hooks, checkpointing and
anomaly mode free what they saved after backward and make no reference cycles (checked with
the garbage collector disabled, as tests/test_memory.py does for ops)."""
import gc
import weakref

import pytest

import ember as torch
from ember.autograd.graph import saved_tensors_hooks
from ember.utils.checkpoint import checkpoint


@pytest.fixture
def no_gc():
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def alive(refs):
    return [r for r in refs if r() is not None]


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y


def test_function_frees_saved_tensors_after_backward(no_gc):
    x = torch.linspace(0., 1., 4, requires_grad=True)
    h = x * 2
    y = Exp.apply(h)
    saved = [weakref.ref(t._data) for t in y.grad_fn._saved]
    refs = [weakref.ref(h._data)]
    loss = (y * 3).sum()
    del h, y
    assert len(alive(saved)) == 2
    loss.backward()
    assert alive(saved) == [] and alive(refs) == []


def test_packed_saves_are_freed(no_gc):
    x = torch.linspace(0., 1., 4, requires_grad=True)
    packed = []

    def pack(t):
        copy = t.detach().clone()
        packed.append(weakref.ref(copy._data))
        return copy

    with saved_tensors_hooks(pack, lambda t: t):
        loss = (x.exp() * x).sin().sum()
    assert len(alive(packed)) == len(packed) > 0
    loss.backward()
    assert alive(packed) == []


def _function():
    x = torch.randn(3, requires_grad=True)
    y = Exp.apply(x * 1)
    y.sum().backward()
    return [x, y, y.grad_fn, x.grad]


def _checkpoint_non_reentrant():
    x = torch.randn(3, requires_grad=True)
    w = torch.randn(3, requires_grad=True)
    y = checkpoint(lambda a: (a * w).exp().sin(), x, use_reentrant=False)
    y.sum().backward()
    return [x, w, y, y.grad_fn]


def _checkpoint_reentrant():
    x = torch.randn(3, requires_grad=True)
    y = checkpoint(lambda a: a.exp().sin(), x, use_reentrant=True)
    y.sum().backward()
    return [x, y, y.grad_fn]


def _anomaly():
    torch.autograd.set_detect_anomaly(True)
    try:
        x = torch.randn(3, requires_grad=True)
        y = x.exp().sin()
        y.sum().backward()
    finally:
        torch.autograd.set_detect_anomaly(False)
    return [x, y, y.grad_fn]


SCENARIOS = [_function, _checkpoint_non_reentrant, _checkpoint_reentrant, _anomaly]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__[1:] for s in SCENARIOS])
def test_no_reference_cycles(no_gc, scenario):
    objects = scenario()
    refs = [weakref.ref(o) for o in objects]
    refs += [weakref.ref(o._data) for o in objects if isinstance(o, torch.Tensor)]
    del objects
    assert alive(refs) == []
