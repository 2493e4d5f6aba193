"""torch.backends, torch.version, torch.jit, torch.distributed and the small top-level helpers
against real torch 2.13's CPU build: values, types, printed forms and error texts.

Where ember answers for its own build (cudnn/mkl/mkldnn/openmp availability,
set_flush_denormal, version strings), the answers differ from torch's on purpose and are
checked by hand in tests/test_namespaces.py instead (torch.distributed itself:
test_distributed_oracle.py). Skipped when torch is not installed.
"""
import pytest

pytest.importorskip("torch")
from differential import compare  # noqa: E402

pytestmark = pytest.mark.oracle

SNIPPETS = [
    # cudnn: torch's defaults, bool-only setters, flags() and its all-defaults block
    "c = torch.backends.cudnn\nprint(c.enabled, c.benchmark, c.deterministic, c.allow_tf32,"
    " c.benchmark_limit, c.version())",
    "c = torch.backends.cudnn\nc.benchmark = True\nprint(c.benchmark)\nc.benchmark = False\n"
    "print(c.benchmark)",
    "c = torch.backends.cudnn\nc.deterministic = True\nprint(c.deterministic)\n"
    "c.deterministic = False",
    "torch.backends.cudnn.benchmark = 1",
    "torch.backends.cudnn.enabled = 'yes'",
    "torch.backends.cudnn.deterministic = None",
    "torch.backends.cudnn.allow_tf32 = 0",
    "c = torch.backends.cudnn\nwith c.flags(enabled=False, benchmark=True, deterministic=True,"
    " allow_tf32=False):\n    print(c.enabled, c.benchmark, c.deterministic, c.allow_tf32)\n"
    "print(c.enabled, c.benchmark, c.deterministic, c.allow_tf32)",
    "c = torch.backends.cudnn\nwith c.flags():\n    print(c.enabled, c.benchmark)\n"
    "print(c.enabled)",
    "with torch.backends.cudnn.flags(enabled=1):\n    pass",
    "print(torch.backends.cudnn.is_acceptable(torch.zeros(2)))",
    # cuda: matmul (tied to set_float32_matmul_precision), sdp switches, linalg library
    "m = torch.backends.cuda.matmul\nprint(m.allow_tf32, "
    "m.allow_fp16_reduced_precision_reduction, m.allow_bf16_reduced_precision_reduction)",
    "m = torch.backends.cuda.matmul\nm.allow_tf32 = True\n"
    "print(m.allow_tf32, torch.get_float32_matmul_precision())\nm.allow_tf32 = False\n"
    "print(m.allow_tf32, torch.get_float32_matmul_precision())",
    "m = torch.backends.cuda.matmul\ntorch.set_float32_matmul_precision('medium')\n"
    "print(m.allow_tf32)\ntorch.set_float32_matmul_precision('highest')\nprint(m.allow_tf32)",
    "torch.backends.cuda.matmul.allow_tf32 = 1",
    "m = torch.backends.cuda.matmul\nm.allow_fp16_reduced_precision_reduction = False\n"
    "print(m.allow_fp16_reduced_precision_reduction)\n"
    "m.allow_fp16_reduced_precision_reduction = True",
    "m = torch.backends.cuda.matmul\nm.allow_bf16_reduced_precision_reduction = (False, False)"
    "\nprint(m.allow_bf16_reduced_precision_reduction, "
    "m.allow_bf16_reduced_precision_reduction_split_k)\n"
    "m.allow_bf16_reduced_precision_reduction = True\n"
    "print(m.allow_bf16_reduced_precision_reduction_split_k)",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = 1",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = ()",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = (True, 1)",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = (True, True, True)",
    "print(torch.backends.cuda.matmul.no_such_flag)",
    "torch.backends.cuda.matmul.no_such_flag = True",
    "cu = torch.backends.cuda\nprint(cu.flash_sdp_enabled(), cu.mem_efficient_sdp_enabled(),"
    " cu.math_sdp_enabled(), cu.cudnn_sdp_enabled())",
    "cu = torch.backends.cuda\nprint(cu.enable_flash_sdp(False))\nprint(cu.flash_sdp_enabled())"
    "\ncu.enable_flash_sdp(True)\nprint(cu.flash_sdp_enabled())",
    "cu = torch.backends.cuda\ncu.enable_mem_efficient_sdp(False)\n"
    "print(cu.mem_efficient_sdp_enabled())\ncu.enable_mem_efficient_sdp(True)",
    "cu = torch.backends.cuda\ncu.enable_math_sdp(False)\nprint(cu.math_sdp_enabled())\n"
    "cu.enable_math_sdp(True)",
    "torch.backends.cuda.enable_flash_sdp(1)",
    "torch.backends.cuda.enable_mem_efficient_sdp(None)",
    "torch.backends.cuda.enable_math_sdp('x')",
    "torch.backends.cuda.enable_cudnn_sdp(1)",
    "print(torch.backends.cuda.is_built(), torch.backends.cuda.is_flash_attention_available())",
    "b = torch.backends.cuda.preferred_linalg_library()\nprint(b, repr(b), type(b).__name__)",
    "torch.backends.cuda.preferred_linalg_library('lapack')",
    "torch.backends.cuda.preferred_linalg_library(3)",
    # ember adds how to enable CUDA after torch's text; compare torch's part
    "try:\n    torch.backends.cuda.cufft_plan_cache.max_size\nexcept AssertionError as e:\n"
    "    print(str(e)[:36])",
    "print(torch.backends.cuda.cufft_plan_cache[0])",
    # mps, mkldnn's flag, opt_einsum without the package, cpu capability
    "print(torch.backends.mps.is_available(), torch.backends.mps.is_built())",
    "d = torch.backends.mkldnn\nprint(d.enabled)\nd.enabled = False\nprint(d.enabled)\n"
    "d.enabled = True",
    "torch.backends.mkldnn.enabled = 1",
    "d = torch.backends.mkldnn\nprint(d.deterministic)\nd.deterministic = True\n"
    "with d.flags():\n    print(d.enabled, d.deterministic)\nprint(d.deterministic)\n"
    "d.deterministic = False",
    "torch.backends.mkldnn.deterministic = 1",
    "m = torch.backends.cuda.matmul\nprint(m.allow_fp16_accumulation)\n"
    "m.allow_fp16_accumulation = True\nprint(m.allow_fp16_accumulation)\n"
    "m.allow_fp16_accumulation = False",
    "torch.backends.cuda.matmul.allow_fp16_accumulation = 1",
    "o = torch.backends.opt_einsum\nprint(o.is_available(), o.enabled, o.strategy,"
    " o.get_opt_einsum())",
    "with torch.backends.opt_einsum.flags(enabled=True):\n    pass",
    "with torch.backends.opt_einsum.flags(strategy='greedy'):\n    pass",
    "print(torch.backends.cpu.get_cpu_capability())",
    # version: the attributes torch has, with torch's values where they are not build facts
    "v = torch.version\nprint(v.cuda, v.debug, v.hip, v.rocm, v.xpu, type(v.__version__))",
    # jit pass-throughs
    "j = torch.jit\nprint(j.is_scripting(), j.is_tracing(), j.annotate(int, 3), j.Final)",
    "def g():\n    return 3\nj = torch.jit\nprint(j.ignore(g) is g, j.unused(g) is g,"
    " j.export(g) is g, g(), g._torchscript_modifier)",
    "def g():\n    return 3\nprint(torch.jit.ignore(drop=False)(g)(), g._torchscript_modifier)",
    "torch.jit.ignore(5)",
    "def f(x):\n    return x * 2\nfut = torch.jit.fork(f, torch.ones(2))\n"
    "print(torch.jit.wait(fut), fut.wait(), fut.done())",
    "def bad():\n    raise ValueError('boom')\ntorch.jit.fork(bad)",
    "torch.jit.trace(lambda x: x)",
    # distributed and the top-level helpers
    "print(torch.distributed.is_initialized())",
    "print(torch.get_device(torch.zeros(2)))",
    "torch.get_device(3)",
    "torch.get_device([1.0])",
    "torch.set_flush_denormal(1)",
    "print(torch.multiprocessing.get_sharing_strategy() in"
    " torch.multiprocessing.get_all_sharing_strategies())",
    "print(torch.Storage.__name__, torch.storage.TypedStorage is torch.TypedStorage,"
    " torch.storage.UntypedStorage is torch.UntypedStorage)",
]


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_same_as_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected


def test_jit_warnings_match():
    """script, trace, fork and wait warn DeprecationWarning with torch's texts."""
    import warnings

    import ember
    import torch

    def messages(lib):
        def f(x):
            return x + 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.jit.script(f)
            lib.jit.trace(f, lib.ones(2))
            lib.jit.wait(lib.jit.fork(f, lib.ones(2)))
            lib.jit.ignore(drop=True)(f)
        return [(w.category.__name__, str(w.message)) for w in caught]
    assert messages(ember) == messages(torch)
