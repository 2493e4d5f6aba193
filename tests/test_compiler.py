"""ember.compiler: torch.compiler's API, accepted and run eagerly (values from torch 2.13)."""
import numpy as np
import pytest

import ember
from ember import compiler as c


def f(x):
    return x + 1


def test_disable_wraps_and_runs_the_function():
    g = c.disable(f)
    assert g(1) == 2 and g is not f and g.__name__ == "f" and g.__wrapped__ is f
    assert c.disable(recursive=False)(f)(2) == 3
    assert c.disable(reason="slow")(f)(3) == 4
    with pytest.raises(AssertionError, match="^fn must be callable$"):
        c.disable(3)
    m = c.disable(ember.nn.Linear(2, 2))
    assert type(m).__name__ == "OptimizedModule" and list(m.state_dict())[0] == "_orig_mod.weight"


def test_queries_and_no_op_settings():
    assert (c.is_compiling(), c.is_dynamo_compiling(), c.is_exporting()) == (False,) * 3
    assert c.reset() is None and c.cudagraph_mark_step_begin() is None
    assert c.save_cache_artifacts() is None and c.load_cache_artifacts(b"") is None
    assert c.get_default_backend() == "inductor"
    c.set_default_backend("eager")
    assert c.get_default_backend() == "eager"
    c.set_default_backend(None)
    assert c.get_default_backend() == "inductor"
    assert c.set_enable_guard_collectives(True) is False
    assert c.set_enable_guard_collectives(False) is True


def test_list_backends_filters_by_tag():
    assert c.list_backends() == ["cudagraphs", "inductor", "openxla", "tvm"]
    assert c.list_backends(exclude_tags=("debug",)) == \
        ["cudagraphs", "inductor", "openxla", "openxla_eval", "tvm"]
    everything = c.list_backends(exclude_tags=())
    assert everything == c.list_backends(exclude_tags=None) == sorted(everything)
    assert len(everything) == 23 and "eager" in everything and "ts" in everything
    assert "openxla_eval" not in c.list_backends(("experimental",))


def test_markers_return_the_function():
    assert c.allow_in_graph(f) is f and c.allow_in_graph((f, f)) == [f, f]
    with pytest.raises(AssertionError, match="^allow_in_graph expects a callable$"):
        c.allow_in_graph(3)

    def g(x):
        return x
    assert c.assume_constant_result(g) is g and g._dynamo_marked_constant is True
    with pytest.raises(AttributeError, match="'int' object has no attribute"):
        c.assume_constant_result(3)
    region = c.nested_compile_region(f)
    assert region(2) == 3 and region.__name__ == "inner"
    assert c.nested_compile_region(max_reuse_entries=2)(f)(4) == 5


def test_substitute_in_graph_calls_the_original():
    stand_in = c.substitute_in_graph(len)(lambda obj, /: 0)
    assert stand_in([1, 2, 3]) == 3
    with pytest.raises(TypeError, match="^substitute_in_graph expects a function but got "
                                        "<class 'int'>$"):
        c.substitute_in_graph(3)


def test_set_stance_as_context_and_decorator():
    with c.set_stance("force_eager") as s:
        assert s is None

    @c.set_stance("eager_on_recompile")
    def g(x):
        return x * 2
    assert g(3) == 6 and g.__name__ == "g"
    with pytest.raises(RuntimeError, match="^non-default stance cannot have force_backend set$"):
        c.set_stance("force_eager", force_backend="eager")
    with c.set_stance(force_backend="eager"):
        pass


def test_wrap_numpy_converts_tensors_both_ways():
    seen = []

    def g(a, b):
        seen.append((type(a), type(b[0])))
        return [a + b[0], {"k": a * 2}, 7]
    out = c.wrap_numpy(g)(ember.ones(2), [ember.arange(2.)])
    assert seen == [(np.ndarray, np.ndarray)]
    assert isinstance(out[0], ember.Tensor) and out[0].tolist() == [1.0, 2.0]
    assert out[1]["k"].tolist() == [2.0, 2.0] and out[2] == 7
    assert c.wrap_numpy(lambda x: x * 2)(3) == 6


def test_config_holds_torchs_settings_only():
    assert c.config.job_id is None and c.config.recompile_limit == 8
    c.config.cache_key_tag = "run1"
    assert c.config.cache_key_tag == "run1"
    c.config.cache_key_tag = ""
    with pytest.raises(AttributeError, match=r"^torch.compiler.config.nope does not exist$"):
        c.config.nope
    with pytest.raises(AttributeError, match=r"^torch.compiler.config.nope does not exist$"):
        c.config.nope = 1


def test_compile_is_ember_compile():
    assert c.compile(f)(1) == 2
    with pytest.raises(RuntimeError, match="^Unrecognized mode=fast"):
        c.compile(f, mode="fast")
