"""ember.compile (eager: results unchanged, torch's OptimizedModule wrapper) and the global
switches (matmul precision, deterministic algorithms, warn-always), with torch's texts."""
import warnings

import pytest

import ember
from ember import nn


def test_compile_wraps_a_module_like_torch():
    m = nn.Linear(2, 3)
    c = ember.compile(m)
    assert type(c).__name__ == "OptimizedModule" and isinstance(c, nn.Module)
    assert str(c) == ("OptimizedModule(\n  (_orig_mod): Linear(in_features=2, out_features=3, "
                      "bias=True)\n)")
    assert list(c.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]
    assert c._orig_mod is m and c.weight is m.weight and c.in_features == 2
    c.eval()
    assert not m.training
    x = ember.randn(4, 2)
    assert ember.equal(c(x), m(x))


def test_compile_functions_and_decorators():
    def f(x):
        return x + 1
    g = ember.compile(f)
    assert g.__name__ == "f" and g.__wrapped__ is f and g(ember.ones(1)).tolist() == [2.0]

    @ember.compile(mode="max-autotune", fullgraph=True)
    def h(x):
        return x * 2
    assert h.__name__ == "h" and h(ember.ones(1)).tolist() == [2.0]
    with pytest.raises(RuntimeError, match="Unrecognized mode=bad, should be one of: default, "
                                           "lite, reduce-overhead"):
        ember.compile(f, mode="bad")
    with pytest.raises(AssertionError, match="A callable function is expected, but <class "
                                             "'int'> is provided."):
        ember.compile(3)
    with pytest.raises(RuntimeError, match="Either mode or options can be specified, but "
                                           "both can't be specified at the same time."):
        ember.compile(f, mode="default", options={})
    # the compiler's newer options are accepted (nothing to tune in eager ember)
    k = ember.compile(f, name="f", recompile_limit=3, isolate_recompiles=True)
    assert k(ember.ones(1)).tolist() == [2.0]


def test_deterministic_switches():
    try:
        with pytest.raises(TypeError, match="argument 'mode' \\(position 1\\) must be bool, "
                                            "not str"):
            ember.use_deterministic_algorithms("x")
        ember.use_deterministic_algorithms(True, warn_only=True)
        assert ember.are_deterministic_algorithms_enabled()
        assert ember.is_deterministic_algorithms_warn_only_enabled()
        assert ember.get_deterministic_debug_mode() == 1
        ember.set_deterministic_debug_mode("error")
        assert ember.get_deterministic_debug_mode() == 2
        with pytest.raises(RuntimeError, match="invalid value of debug_mode, expected one of "
                                               "`default`, `warn`, `error`, but got zz"):
            ember.set_deterministic_debug_mode("zz")
    finally:
        ember.set_deterministic_debug_mode(0)
    assert not ember.are_deterministic_algorithms_enabled()


def test_matmul_precision_and_warn_always():
    assert ember.get_float32_matmul_precision() == "highest"
    try:
        ember.set_float32_matmul_precision("high")
        assert ember.get_float32_matmul_precision() == "high"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ember.set_float32_matmul_precision("bad")
        assert "bad is not one of 'highest', 'high', or 'medium'" in str(caught[0].message)
        assert ember.get_float32_matmul_precision() == "high"
    finally:
        ember.set_float32_matmul_precision("highest")
    try:
        ember.set_warn_always(True)
        assert ember.is_warn_always_enabled()
    finally:
        ember.set_warn_always(False)


def test_backends_flags_are_recorded_and_read_back():
    b = ember.backends
    gpu = ember.cuda.is_available()
    assert (b.cudnn.is_available(), b.cudnn.version(), b.mps.is_available(),
            b.mps.is_built(), b.cuda.is_built()) == (False, None, False, False, gpu)
    assert (b.cudnn.enabled, b.cudnn.benchmark, b.cudnn.deterministic) == (True, False, False)
    b.cudnn.benchmark = True
    assert ember.backends.cudnn.benchmark is True
    b.cudnn.benchmark = False
    with b.cudnn.flags(enabled=False, deterministic=True):
        assert (b.cudnn.enabled, b.cudnn.deterministic) == (False, True)
    assert (b.cudnn.enabled, b.cudnn.deterministic) == (True, False)
    assert (ember.version.cuda is None) is not gpu      # '13.0' with a GPU
    assert ember.version.__version__ == ember.__version__


def test_backends_cuda_matmul_allow_tf32_is_the_matmul_precision():
    matmul = ember.backends.cuda.matmul
    assert ember.get_float32_matmul_precision() == "highest" and matmul.allow_tf32 is False
    matmul.allow_tf32 = True
    try:
        assert ember.get_float32_matmul_precision() == "high" and matmul.allow_tf32 is True
    finally:
        matmul.allow_tf32 = False
    assert ember.get_float32_matmul_precision() == "highest"
    with pytest.raises(AttributeError, match="^Unknown attribute foo$"):
        matmul.foo = 1
    with pytest.raises(AttributeError, match="^Unknown attribute foo$"):
        matmul.foo


def test_compiler_namespace_reports_eager_execution():
    c = ember.compiler
    assert (c.is_compiling(), c.is_dynamo_compiling(), c.is_exporting()) == (False,) * 3
    assert c.compile is ember.compile
    assert c.reset() is None and c.cudagraph_mark_step_begin() is None
    assert "inductor" in c.list_backends()

    def f(x):
        return x * 2
    assert c.disable(f)(1) == 2 and c.disable(recursive=False)(f).__wrapped__ is f
    assert c.allow_in_graph(f) is f

    @c.set_stance("force_eager")
    def g(x):
        return x + 1
    assert g(1) == 2
    with c.set_stance("eager_on_recompile"):
        assert not c.is_compiling()
