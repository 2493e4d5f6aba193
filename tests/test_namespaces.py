"""ember.backends, ember.version, ember.jit, ember.distributed and the small top-level helpers:
values checked by hand against torch 2.13's CPU build (tests/oracle/test_namespaces_oracle.py
compares with torch itself), and the answers where ember speaks for its own build."""
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ember


@pytest.fixture
def restore_flags():
    """Put every flag back as torch's defaults have it after the test."""
    yield
    b = ember.backends
    for name in ("enabled", "benchmark", "deterministic", "allow_tf32"):
        setattr(b.cudnn, name, name in ("enabled", "allow_tf32"))
    b.mkldnn.enabled = True
    ember.set_float32_matmul_precision("highest")
    b.cuda.matmul.allow_fp16_reduced_precision_reduction = True
    for toggle in (b.cuda.enable_flash_sdp, b.cuda.enable_mem_efficient_sdp,
                   b.cuda.enable_math_sdp):
        toggle(True)


def test_backends_reachable_after_import_ember():
    code = ("import ember; print(ember.backends.cudnn.benchmark, "
            "ember.backends.cuda.matmul.allow_tf32, ember.multiprocessing.__name__, "
            "ember.jit.is_scripting(), ember.distributed.is_available())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "False False ember.multiprocessing False True\n"


def test_cudnn_defaults_and_answers():
    c = ember.backends.cudnn
    assert (c.enabled, c.benchmark, c.deterministic, c.allow_tf32) == (True, False, False, True)
    assert c.is_available() is False and c.version() is None and c.benchmark_limit is None


def test_cudnn_flags_persist_and_check_bools(restore_flags):
    c = ember.backends.cudnn
    c.benchmark = True
    c.deterministic = True
    assert c.benchmark is True and c.deterministic is True
    import ember.backends.cudnn as same
    assert same.benchmark is True
    with pytest.raises(RuntimeError, match=r"^set_benchmark_cudnn expects a bool, but got int$"):
        c.benchmark = 1
    assert c.benchmark is True


def test_cudnn_flags_context_restores(restore_flags):
    c = ember.backends.cudnn
    with c.flags(benchmark=True, allow_tf32=False):
        # every argument has a default: enabled=False inside, as in torch
        assert (c.enabled, c.benchmark, c.deterministic, c.allow_tf32) == \
            (False, True, False, False)
    assert (c.enabled, c.benchmark, c.deterministic, c.allow_tf32) == (True, False, False, True)


def test_disable_global_flags_forbids_plain_assignment(restore_flags):
    b = ember.backends
    b.disable_global_flags()
    try:
        assert b.flags_frozen()
        with pytest.raises(RuntimeError, match="not allowed to set ember.backends.cudnn flags"):
            b.cudnn.benchmark = True
        with b.cudnn.flags(enabled=True, benchmark=True):
            assert b.cudnn.benchmark is True
        assert b.cudnn.benchmark is False
    finally:
        b._allow_nonbracketed_mutation_flag = True


def test_matmul_allow_tf32_is_the_matmul_precision(restore_flags):
    m = ember.backends.cuda.matmul
    assert m.allow_tf32 is False
    m.allow_tf32 = True
    assert ember.get_float32_matmul_precision() == "high"
    ember.set_float32_matmul_precision("medium")
    assert m.allow_tf32 is True
    m.allow_tf32 = False
    assert ember.get_float32_matmul_precision() == "highest"
    with pytest.raises(AttributeError, match="^Unknown attribute allow_tf33$"):
        m.allow_tf33


def test_matmul_reduced_precision_flags(restore_flags):
    m = ember.backends.cuda.matmul
    assert m.allow_fp16_reduced_precision_reduction is True
    m.allow_fp16_reduced_precision_reduction = (False, False)
    assert m.allow_fp16_reduced_precision_reduction is False
    assert m.allow_fp16_reduced_precision_reduction_split_k is False
    with pytest.raises(TypeError, match="expects at most two boolean arguments"):
        m.allow_fp16_reduced_precision_reduction = (True, True, True)


def test_sdp_toggles(restore_flags):
    cu = ember.backends.cuda
    assert (cu.flash_sdp_enabled(), cu.mem_efficient_sdp_enabled(), cu.math_sdp_enabled()) \
        == (True, True, True)
    assert cu.enable_flash_sdp(False) is None
    cu.enable_mem_efficient_sdp(False)
    assert (cu.flash_sdp_enabled(), cu.mem_efficient_sdp_enabled(), cu.math_sdp_enabled()) \
        == (False, False, True)
    with pytest.raises(RuntimeError, match="expects a bool, but got int"):
        cu.enable_math_sdp(1)


def test_cuda_answers_follow_cuda_is_available():
    cu = ember.backends.cuda
    assert cu.is_built() is ember.cuda.is_available()
    assert str(cu.preferred_linalg_library()) == "_LinalgBackend.Default"
    if not ember.cuda.is_available():
        assert ember.version.cuda is None
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            cu.cufft_plan_cache.max_size
    else:
        major, minor = ember.version.cuda.split(".")
        assert int(major) >= 11 and minor.isdigit()


def test_build_questions_answer_for_ember(restore_flags):
    b = ember.backends
    # ember has no MKL, oneDNN, OpenMP, MPS or opt_einsum code of its own (torch's x86 wheels
    # say True for the first three)
    assert (b.mkl.is_available(), b.mkldnn.is_available(), b.openmp.is_available()) == \
        (False, False, False)
    assert (b.mps.is_available(), b.mps.is_built()) == (False, False)
    assert (b.opt_einsum.is_available(), b.opt_einsum.enabled, b.opt_einsum.strategy) == \
        (False, False, None)
    assert b.mkldnn.enabled is True
    b.mkldnn.enabled = False
    assert b.mkldnn.enabled is False
    assert b.cpu.get_cpu_capability() in ("DEFAULT", "AVX2", "AVX512")


def test_version_module():
    v = ember.version
    assert v.__version__ == ember.__version__
    assert type(v.__version__) is str       # as torch.version's; torch.__version__ compares
    assert str(ember.__version__) == f"2.13.0+ember.{v.EMBER_RELEASE}"
    assert (v.debug, v.hip, v.git_version) == (False, None, "Unknown")


def test_ember_release_is_the_package_version():
    pyproject = pathlib.Path(__file__).resolve().parent.parent / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("not run from a source checkout")
    line = next(l for l in pyproject.read_text().splitlines() if l.startswith("version = "))
    assert line == f'version = "{ember.version.EMBER_RELEASE}"'


@pytest.mark.parametrize("other, lt, eq", [
    ("2.0", False, False), ("2.13", False, False), ("2.13.0", False, False),
    ("2.13.0+ember.0.1.0", False, True), ("2.13.0+ember.0.2.0", True, False),
    ("2.13.0+ember.0.1.0.1", True, False), ("2.9", False, False), ("2.14.0a0", True, False),
    ("2.13.1.dev3", True, False), ("3", True, False), ((2, 13), False, False),
    ((2, 14, 0), True, False), ([1, 8], False, False),
])
def test_version_compares_by_pep_440(other, lt, eq):
    v = ember.__version__
    assert (v < other, v == other, v > other) == (lt, eq, not lt and not eq)
    assert (v <= other) == (lt or eq) and (v >= other) == (not lt) and (v != other) == (not eq)


def test_version_ordering_rules():
    from ember.torch_version import TorchVersion as V
    order = ["1.0.dev1", "1.0a1.dev2", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0+abc", "1.0+5",
             "1.0.post1.dev1", "1.0.post1", "1.1", "1.10", "1!0.5"]
    for a, b in zip(order, order[1:]):
        assert V(a) < b and V(b) > a and not V(a) == b, (a, b)
    assert V("2.0.0") == "2" and V("v2.0") == "2.0" and hash(V("x")) == hash("x")
    assert V("parrot") > "2.0" and V("2.0") < "parrot"      # not versions: as text
    with pytest.raises(TypeError):
        V("2.0") < 5
    assert ember.__version__.split("+")[0] == "2.13.0"
    assert type(ember.__version__).__name__ == "TorchVersion" and isinstance(
        ember.__version__, str)


def test_jit_script_returns_its_argument_and_trace_a_recording():
    lin = ember.nn.Linear(2, 1)
    calls = []

    def f(x):
        calls.append(x.requires_grad)
        return x * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert ember.jit.script(lin) is lin and ember.jit.script(f) is f
        traced = ember.jit.trace(f, ember.ones(2, requires_grad=True))
        assert isinstance(traced, ember.jit.ScriptFunction) and traced is not f
        assert traced(ember.full((3,), 4.0)).tolist() == [8.0, 8.0, 8.0]
        module = ember.jit.trace(lin, (ember.ones(3, 2),))
        assert isinstance(module, ember.jit.ScriptModule) and module.weight is lin.weight
    # the example, check_trace's second trace and its run of f to compare with; the replays do
    # not run f
    assert calls == [True, True, True]


def test_jit_decorators_fork_and_annotations():
    def g(a, b=1):
        return a + b
    assert ember.jit.ignore(g) is g and ember.jit.unused(g) is g and ember.jit.export(g) is g
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        future = ember.jit.fork(g, 2, b=3)
        assert ember.jit.wait(future) == 5 and future.done()
    assert ember.jit.annotate(list, [1]) == [1]
    assert ember.jit.is_scripting() is False and ember.jit.is_tracing() is False


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_jit_save_and_load_refuse_what_is_not_traced_or_scripted(tmp_path):
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'save'$"):
        ember.jit.save(ember.nn.Linear(1, 1), tmp_path / "m.pt")
    with pytest.raises(ValueError, match="^The provided filename .* does not exist$"):
        ember.jit.load(tmp_path / "m.pt")


def test_get_device_and_flush_denormal():
    assert ember.get_device(ember.zeros(2)) == -1
    with pytest.raises(TypeError, match=r"must be Tensor, not int$"):
        ember.get_device(3)
    tiny = np.float32(1e-40)                  # a float32 subnormal
    assert ember.set_flush_denormal(True) is False
    assert ember.tensor([tiny]).mul(1).numpy()[0] == tiny     # nothing was flushed
    with pytest.raises(RuntimeError, match="^flush_denormal expects a bool, but got int$"):
        ember.set_flush_denormal(1)


def test_storage_names():
    assert ember.Storage is ember.FloatStorage
    assert ember.storage.TypedStorage is ember.TypedStorage
