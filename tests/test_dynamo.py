"""ember._dynamo: the torch._dynamo functions and settings programs call around torch.compile,
compile's check of a backend's name, and the OptimizedModule wrapper standing for its module
(values and texts from torch 2.13)."""
import copy

import pytest

import ember
from ember import _dynamo


def test_reset_and_queries():
    assert ember._dynamo is _dynamo
    assert _dynamo.reset() is None and _dynamo.is_compiling() is False
    assert _dynamo.list_backends() == ["cudagraphs", "inductor", "openxla", "tvm"]
    assert _dynamo.graph_break() is None
    assert _dynamo.OptimizedModule is type(ember.compile(ember.nn.Linear(1, 1)))


def test_config_shares_compiler_settings_and_refuses_unknown_names():
    c = _dynamo.config
    assert (c.cache_size_limit, c.recompile_limit, c.accumulated_cache_size_limit) == (8, 8, 256)
    assert (c.suppress_errors, c.verbose, c.specialize_int, c.optimize_ddp) == \
        (False, False, False, True)
    try:
        c.cache_size_limit = 3
        assert c.recompile_limit == 3 and ember.compiler.config.recompile_limit == 3
        c.suppress_errors = True
        assert c.suppress_errors is True
    finally:
        c.cache_size_limit = 8
        c.suppress_errors = False
    assert ember.compiler.config.recompile_limit == 8
    with pytest.raises(AttributeError, match=r"^torch._dynamo.config.bogus does not exist$"):
        c.bogus = 1
    with pytest.raises(AttributeError, match=r"^torch._dynamo.config.bogus does not exist$"):
        c.bogus


def test_marks_are_kept_on_the_tensor():
    t = ember.ones(4, 3)
    _dynamo.mark_dynamic(t, 0)
    _dynamo.mark_dynamic(t, [1])
    assert t._dynamo_dynamic_indices == {0, 1}
    _dynamo.maybe_mark_dynamic(t, (1,))
    _dynamo.mark_static(t, 0)
    assert t._dynamo_weak_dynamic_indices == {1} and t._dynamo_static_indices == {0}
    with pytest.raises(AttributeError, match="^'int' object has no attribute "
                                             "'_dynamo_dynamic_indices'$"):
        _dynamo.mark_dynamic(5, 0)


def test_compile_refuses_an_unknown_backend_name_first():
    text = (r"^Invalid backend: 'nope', see `torch._dynamo.list_backends\(\)` for available "
            r"backends.$")
    with pytest.raises(_dynamo.exc.InvalidBackend, match=text):
        ember.compile(lambda x: x, backend="nope")
    with pytest.raises(_dynamo.exc.InvalidBackend, match=text):
        ember.compile(5, backend="nope")           # before the callable check, as torch
    with pytest.raises(_dynamo.exc.InvalidBackend, match=text):
        ember.nn.Linear(2, 2).compile(backend="nope")
    assert issubclass(_dynamo.exc.InvalidBackend, RuntimeError)
    for name in ("eager", "aot_eager", "inductor"):
        assert ember.compile(lambda x: x + 1, backend=name)(1) == 2
    assert ember.compile(lambda x: x, backend=lambda gm, inputs: gm)(3) == 3


def test_optimized_module_stands_for_the_original():
    nn = ember.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
    cm = ember.compile(m)
    assert list(cm._modules) == ["_orig_mod"] and "_orig_mod" not in cm.__dict__
    assert cm.training and len(cm) == 2
    cm.eval()
    assert not cm.training and not m.training and not m[1].training
    m.train()
    assert cm.training                       # training is the original's
    cm.foo = 3                               # attributes set and deleted on the original
    assert m.foo == 3 and "foo" not in cm.__dict__
    del cm.foo
    assert not hasattr(m, "foo")
    cm.extra = nn.Linear(1, 1)
    assert list(m._modules) == ["0", "1", "extra"] and "extra" in dir(cm)
    assert list(cm.state_dict())[-1] == "_orig_mod.extra.bias"
    c2 = copy.deepcopy(cm)
    assert type(c2) is type(cm) and c2._orig_mod is not m and len(c2) == 3
    with pytest.raises(TypeError, match="^Linear does not support len\\(\\)$"):
        len(ember.compile(nn.Linear(1, 1)))


def test_optimize_compiles_and_explain_says_there_is_nothing_to_explain():
    f = _dynamo.optimize("eager")(lambda x: x + 1)
    assert f(1) == 2
    m = _dynamo.optimize("eager", nopython=True)(ember.nn.Linear(1, 1))
    assert type(m) is _dynamo.OptimizedModule
    with pytest.raises(_dynamo.exc.InvalidBackend, match="^Invalid backend: 'nope'"):
        _dynamo.optimize("nope")
    with pytest.raises(NotImplementedError, match="^ember has no compiler"):
        _dynamo.explain(lambda x: x)(1)
