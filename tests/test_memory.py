"""Memory: what the graph keeps alive, and for how long.

- backward() without retain_graph frees every saved tensor (their NumPy arrays die);
- dropping a graph's output frees the graph;
- nothing ember builds is a reference cycle: the tests run with the garbage collector disabled,
  so anything in a cycle would stay alive;
- a long training-style loop does not grow resident memory.

See NOTE [ Saved tensors and freeing ] in ember/autograd/graph.py.
"""
import gc
import json
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

import ember as torch
from ember.autograd.graph import AccumulateGrad


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


def graph_nodes(root, accumulators=True):
    """Every node reachable from `root`; a leaf's AccumulateGrad only if `accumulators`."""
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        if accumulators or not isinstance(node, AccumulateGrad):
            seen.append(node)
        stack.extend(n for n, _ in node.next_functions)
    return seen


# -- saved tensors ---------------------------------------------------------------------------------

def test_backward_frees_saved_tensors(no_gc):
    x = torch.linspace(0.1, 1., 5, requires_grad=True)
    y = x.exp()             # saves its result
    z = y.sin()             # saves its input, y
    w = z * z               # saves z (twice)
    loss = w.sum()
    arrays = [weakref.ref(y._data), weakref.ref(z._data),
              weakref.ref(y.grad_fn._saved_result._data)]
    tensors = [weakref.ref(z.grad_fn._saved_self), weakref.ref(w.grad_fn._saved_self)]
    del y, z, w
    # Until backward, the graph keeps what backward needs.
    assert len(alive(arrays)) == 3 and len(alive(tensors)) == 2
    loss.backward()
    assert alive(arrays) == [] and alive(tensors) == []
    assert loss.grad_fn is not None         # the nodes themselves stay with the output
    np.testing.assert_allclose(x.grad.numpy(), _expected_grad(x), rtol=1e-5)


def _expected_grad(x):
    v = x.detach().numpy().astype(np.float64)
    return 2 * np.sin(np.exp(v)) * np.cos(np.exp(v)) * np.exp(v)


def test_retain_graph_keeps_saved_tensors_until_the_last_backward(no_gc):
    x = torch.linspace(0.1, 1., 5, requires_grad=True)
    y = x.exp()
    loss = (y * y).sum()
    ref = weakref.ref(y._data)
    del y
    loss.backward(retain_graph=True)
    assert ref() is not None
    loss.backward()
    assert ref() is None


def test_autograd_grad_frees_saved_tensors(no_gc):
    x = torch.linspace(0.1, 1., 5, requires_grad=True)
    y = x.sigmoid()
    loss = (y * 3).sum()
    ref = weakref.ref(y._data)
    del y
    torch.autograd.grad(loss, x)
    assert ref() is None


def test_no_saved_tensors_without_grad(no_gc):
    x = torch.linspace(0.1, 1., 5)
    y = x.exp()
    ref = weakref.ref(y._data)
    z = y * y
    del y
    assert ref() is None and z.grad_fn is None


def test_accumulated_grad_holds_no_graph(no_gc):
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    ref = weakref.ref(y)
    (y * 2).sum().backward()
    del y
    assert ref() is None
    assert x.grad.grad_fn is None and not x.grad.requires_grad


# -- the graph is freed with its output ----------------------------------------------------------

# NOTE: a leaf's AccumulateGrad is owned by the leaf in ember (torch keeps it only while a
# graph uses it); it refers back to the leaf weakly, so it dies with the leaf.

def test_graph_dies_with_its_output(no_gc):
    x = torch.ones(2, 3, requires_grad=True)
    loss = ((x * 2).exp()[0] @ torch.ones(3)).sum()
    nodes = [weakref.ref(n) for n in graph_nodes(loss.grad_fn, accumulators=False)]
    assert len(nodes) == 5 and len(alive(nodes)) == 5
    del loss
    assert alive(nodes) == []
    assert x.requires_grad and x.grad is None


def test_graph_dies_with_its_output_after_backward(no_gc):
    x = torch.ones(3, requires_grad=True)
    loss = (x.sin() * x.cos()).sum()
    loss.backward()
    nodes = [weakref.ref(n) for n in graph_nodes(loss.grad_fn, accumulators=False)]
    del loss
    assert alive(nodes) == []


def test_a_leaf_and_its_accumulator_make_no_cycle(no_gc):
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    assert isinstance(acc, AccumulateGrad) and acc.variable is x
    refs = [weakref.ref(x), weakref.ref(acc), weakref.ref(x._data)]
    y.sum().backward()
    del x, y, acc
    assert alive(refs) == []


# -- no reference cycles -------------------------------------------------------------------------

def _plain():
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, requires_grad=True)
    loss = (x @ w).relu().pow(2).mean()
    loss.backward()
    return [x, w, loss, loss.grad_fn, x.grad]


def _saved_output():
    x = torch.randn(5, requires_grad=True)
    y = x.exp()
    z = y.tanh().sigmoid()
    return [x, y, z, y.grad_fn, z.grad_fn, y.grad_fn._saved_result]


def _in_place_and_views():
    x = torch.randn(4, requires_grad=True)
    y = x * 1
    v = y[1:3]
    v.mul_(2)
    y.add_(1)
    b = torch.zeros(3)
    b[1] = x[0] * 3
    b[torch.tensor([0, 2])] = x[1:3]
    (y.sum() + v.sum() + b.sum()).backward()
    return [x, y, v, b, y.grad_fn, v.grad_fn, b.grad_fn]


def _retain_grad_and_hooks():
    x = torch.randn(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: g + 1)
    y.grad_fn.register_prehook(lambda go: go)
    y.grad_fn.register_hook(lambda gi, go: gi)
    x.register_post_accumulate_grad_hook(lambda t: None)
    (y * y).sum().backward()
    return [x, y, y.grad, x.grad, y.grad_fn]


def _higher_order():
    x = torch.randn(3, requires_grad=True)
    g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), x, create_graph=True)
    g2.sum().backward()
    return [x, g, g2, g.grad_fn, g2.grad_fn]


def _multi_output_and_views():
    x = torch.randn(3, 4, requires_grad=True)
    values, indices = x.max(dim=1)
    a, b, c = x.unbind(0)
    parts = x.split(2, dim=1)
    loss = values.sum() + (a * b * c).sum() + parts[1].sum() + x.t().reshape(12)[3]
    loss.backward(retain_graph=True)
    return [x, values, indices, a, parts[0], loss, loss.grad_fn]


def _detach_and_no_grad():
    x = torch.randn(3, requires_grad=True)
    y = x * 2
    d = y.detach()
    with torch.no_grad():
        z = y * 3
    y.detach_()
    return [x, y, d, z, x.data]


SCENARIOS = [_plain, _saved_output, _in_place_and_views, _retain_grad_and_hooks, _higher_order,
             _multi_output_and_views, _detach_and_no_grad]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__[1:] for s in SCENARIOS])
def test_no_reference_cycles(no_gc, scenario):
    objects = scenario()
    refs = [weakref.ref(o) for o in objects]
    refs += [weakref.ref(o._data) for o in objects if isinstance(o, torch.Tensor)]
    refs += [weakref.ref(n) for o in objects if isinstance(o, torch.Tensor) and o.grad_fn
             for n in graph_nodes(o.grad_fn)]
    del objects
    assert alive(refs) == []


def test_the_check_sees_a_cycle(no_gc):
    # The method itself: a tensor kept in a cycle survives without the garbage collector.
    x = torch.ones(2)
    box = [x]
    box.append(box)
    ref = weakref.ref(x)
    del x, box
    assert ref() is not None
    gc.collect()
    assert ref() is None


# -- resident memory of a training loop ----------------------------------------------------------

# NOTE: the loop runs in a fresh interpreter: in a long test session, memory freed by earlier
# tests would absorb a leak without any growth of the resident set.
LOOP = """
import gc, json, os, sys
import numpy as np
import ember as torch

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

gc.disable()
gen = np.random.default_rng(0)
w1 = torch.tensor(gen.normal(size=(16, 32)) * 0.1, dtype=torch.float32, requires_grad=True)
b1 = torch.zeros(32, requires_grad=True)
w2 = torch.tensor(gen.normal(size=(32, 4)) * 0.1, dtype=torch.float32, requires_grad=True)
data = torch.tensor(gen.normal(size=(32, 16)), dtype=torch.float32)
target = torch.tensor(gen.normal(size=(32, 4)), dtype=torch.float32)
params = [w1, b1, w2]
keep = [] if sys.argv[2] == "leak" else None

def step():
    hidden = (data @ w1 + b1).tanh()
    loss = ((hidden @ w2 - target) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in params:
            p.sub_(p.grad * 0.01)
    for p in params:
        p.grad.zero_()
    if keep is not None:
        keep.append(hidden)      # and, through it, its part of the graph
    return loss.item()

first = step()
for _ in range(300):             # warm up: caches, allocator pools
    step()
before = rss()
for _ in range(int(sys.argv[1])):
    last = step()
print(json.dumps({"grown": rss() - before, "first": first, "last": last}))
"""


def _run_loop(steps, mode):
    out = subprocess.run([sys.executable, "-c", LOOP, str(steps), mode], capture_output=True,
                         text=True, check=True, timeout=120)
    return json.loads(out.stdout)


needs_statm = pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                                 reason="needs /proc/self/statm")


@needs_statm
def test_training_loop_does_not_grow_memory():
    result = _run_loop(5000, "clean")
    assert result["last"] < result["first"]          # it did train
    assert result["grown"] < 5 * 2**20, \
        f"resident memory grew by {result['grown'] / 2**20:.1f} MB in 5000 steps"


@needs_statm
def test_the_loop_check_sees_a_leak():
    # The method itself: keeping each step's activations (a few KB a step) shows.
    assert _run_loop(2000, "leak")["grown"] > 5 * 2**20
