"""Small namespaces torch code uses, run under real torch and under ember (`import ember as
torch`): what each snippet prints, including an exception's type and first line, must be
identical.

torch.compiler (accepted, run eagerly), torch.Stream / torch.Event / get_device_module /
GradScaler at the top level, torch.functional (with svd_lowrank, pca_lowrank),
Tensor.as_subclass, torch.signal.windows; and torch.cuda's extras (nvtx, memory summaries, deprecated names, NVML figures, ...) as a build
without CUDA answers them (those snippets are skipped where ember has a GPU). Snippets reach
submodules by attribute (a `from torch import` inside a snippet would bind real torch in both
runs); none leaves torch's global compiler state changed.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

C = "c = torch.compiler\ndef f(x): return x + 1\n"
W = "w = torch.signal.windows\n"
SUB = "class M(torch.Tensor): pass\n"
ERR = "def err(fn, *a, **k):\n    try: print(fn(*a, **k))\n    except Exception as e: print(type(e).__name__, e)\n"

SNIPPETS = [
    # torch.compiler
    C + "print(c.disable(f)(1), c.disable(f).__name__, c.disable(f) is f, c.disable(f).__wrapped__ is f)",
    C + "d = c.disable(recursive=False); print(d(f)(2), d(f).__name__)",
    C + "print(c.disable(reason='slow')(f)(3))",
    C + "@c.disable\ndef g(x): return x * 2\nprint(g(torch.ones(2)), g.__name__)",
    C + "@c.disable()\ndef g(x): return x * 3\nprint(g(2))",
    C + "try:\n    c.disable(3)\nexcept AssertionError as e: print(e)",
    C + "m = c.disable(torch.nn.Linear(2, 2)); print(type(m).__name__, sorted(m.state_dict()))",
    C + "print(c.list_backends())",
    C + "print(c.list_backends(exclude_tags=()))",
    C + "print(c.list_backends(exclude_tags=None) == c.list_backends(exclude_tags=()))",
    C + "print(c.list_backends(exclude_tags=('debug',)))",
    C + "print(c.list_backends(('experimental',)))",
    C + "print(c.is_compiling(), c.is_dynamo_compiling(), c.is_exporting())",
    C + "print(c.cudagraph_mark_step_begin(), c.reset())",
    C + "print(c.allow_in_graph(f) is f, c.allow_in_graph([f, f]) == [f, f], c.allow_in_graph((f,)))",
    C + "try:\n    c.allow_in_graph(3)\nexcept AssertionError as e: print(e)",
    C + "print(c.assume_constant_result(f) is f, c.assume_constant_result(f)(1), f._dynamo_marked_constant)",
    C + "try:\n    c.assume_constant_result(3)\nexcept AttributeError as e: print(e)",
    C + "print(c.get_default_backend())",
    C + "c.set_default_backend('eager'); print(c.get_default_backend()); c.set_default_backend(None); print(c.get_default_backend())",
    C + "with c.set_stance('force_eager'):\n    print(f(torch.ones(1)))",
    C + "@c.set_stance('force_eager')\ndef g(x): return x * 2\nprint(g(3), g.__name__)",
    C + "with c.set_stance('default', skip_guard_eval_unsafe=True) as s: print(s)",
    C + "try:\n    c.set_stance('force_eager', force_backend='eager')\nexcept RuntimeError as e: print(e)",
    C + "with c.set_stance(force_backend='eager'): print('ok')",
    C + "print(c.compile(f)(1), type(c.compile(torch.nn.Linear(2, 2))).__name__)",
    C + "try:\n    c.compile(f, mode='fast')\nexcept RuntimeError as e: print(e)",
    C + "print(c.nested_compile_region(f)(2), c.nested_compile_region()(f)(3), c.nested_compile_region(f).__name__)",
    C + "def g(a): return a.sum() * 2\nprint(c.wrap_numpy(g)(torch.ones(2, 3)))",
    C + "def g(a): return a * 2\nprint(c.wrap_numpy(g)(torch.arange(3)), c.wrap_numpy(g)(3))",
    C + "def g(a, b): return [a + b[0], {'k': b[0]}]\nprint(c.wrap_numpy(g)(torch.ones(2), [torch.ones(2)]))",
    C + "print(c.set_enable_guard_collectives(False), c.set_enable_guard_collectives(False))",
    # (not len: a substitute for len stays registered in torch's compiler and makes later
    # compiles in the process, torch.cond's among them, fail)
    C + "import operator\nprint(c.substitute_in_graph(operator.length_hint)("
        "lambda obj, default=0, /: 0)([1, 2]))",
    C + "try:\n    c.substitute_in_graph(3)\nexcept TypeError as e: print(e)",
    C + "print(c.config.job_id, c.config.cache_key_tag == '', c.config.recompile_limit, c.config.dynamic_shapes)",
    C + "try:\n    c.config.no_such_option\nexcept AttributeError as e: print(e)",
    C + "try:\n    c.config.no_such_option = 1\nexcept AttributeError as e: print(e)",
    C + "c.config.force_disable_caches = True; print(c.config.force_disable_caches); c.config.force_disable_caches = False",
    C + "print(c.reset.__module__ == c.__name__, 'compile' in c.__all__, 'disable' in dir(c))",
    # torch.Stream / torch.Event / get_device_module / GradScaler
    "print(torch.Stream(), torch.Stream('cpu'), torch.Stream(device=torch.device('cpu')))",
    "s = torch.Stream(); print(s.device, s.device_index, s.device_type, s.stream_id, s.query(), s.synchronize())",
    "s = torch.Stream(); print(s == torch.Stream(), hash(s) == hash(torch.Stream()), s.is_capturing())",
    "s = torch.Stream(priority=-1); print(s)",
    "s = torch.Stream('cpu:0'); print(s, s.device)",
    "with torch.Stream() as s: print(s)",
    "s = torch.Stream()\ntry:\n    s.record_event()\nexcept RuntimeError as e: print(e)",
    "s = torch.Stream()\ntry:\n    s.wait_stream(torch.Stream())\nexcept RuntimeError as e: print(e)",
    "s = torch.Stream()\ntry:\n    s.native_handle\nexcept RuntimeError as e: print(e)",
    "print(torch.Stream().wait_event(torch.Event()))",
    "print(torch.Event(), torch.Event(enable_timing=True), torch.Event('cpu', blocking=True, interprocess=True))",
    "e = torch.Event(); print(e.device, e.event_id, e.query(), e.synchronize(), e.wait(), e.wait(torch.Stream()))",
    "e = torch.Event()\ntry:\n    e.record()\nexcept RuntimeError as x: print(x)",
    "try:\n    torch.Event().elapsed_time(torch.Event())\nexcept ValueError as x: print(x)",
    "try:\n    torch.Event(enable_timing=True).elapsed_time(torch.Event(enable_timing=True))\nexcept ValueError as x: print(x)",
    "try:\n    torch.Event().elapsed_time(3)\nexcept RuntimeError as x: print(x)",
    "try:\n    torch.Event().ipc_handle()\nexcept NotImplementedError as x: print(x)",
    "try:\n    torch.Stream(device='foo')\nexcept RuntimeError as x: print(x)",
    "try:\n    torch.Stream(device=2.0)\nexcept TypeError as x: print(x)",
    "try:\n    torch.Event(device=2.0)\nexcept TypeError as x: print(x)",
    "print(torch.get_device_module().__name__.split('.')[-1], torch.get_device_module('cpu').__name__.split('.')[-1])",
    "print(torch.get_device_module('cuda') is torch.cuda, torch.get_device_module('cuda:1') is torch.cuda, torch.get_device_module(torch.device('cpu')) is torch.cpu)",
    "try:\n    torch.get_device_module(3)\nexcept RuntimeError as x: print(x)",
    "try:\n    torch.get_device_module('foo')\nexcept RuntimeError as x: print(x)",
    "try:\n    torch.get_device_module('meta')\nexcept RuntimeError as x: print(x)",
    "try:\n    torch.get_device_module('cuda:x')\nexcept RuntimeError as x: print(x)",
    "print(torch.GradScaler is torch.amp.GradScaler, torch.GradScaler(enabled=False).is_enabled())",
    # torch.cpu's stand-ins for device-generic code
    "m = torch.get_device_module('cpu'); print(m.current_stream() is m.current_stream(), m.is_initialized(), m.set_device('cpu'), m.synchronize(), m.current_device())",
    "s = torch.cpu.Stream(priority=0); print(s.wait_stream(torch.cpu.current_stream()), s.record_event(), s.wait_event(torch.cpu.Event()), isinstance(s, torch.Stream))",
    "e = torch.cpu.Event(); print(e.query(), e.record(), e.wait(), e.synchronize())",
    "with torch.cpu.stream(torch.cpu.Stream()) as s: print(s)\nwith torch.cpu.StreamContext(None) as s: print(s)",
    "try:\n    torch.cpu.Stream().query()\nexcept AttributeError as e: print(e)",
    # torch.functional
    "F = torch.functional; print(F.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(3, 2)))",
    "F = torch.functional; print(F.split(torch.arange(5), 2), F.broadcast_tensors(torch.ones(2, 1), torch.zeros(3))[0].shape)",
    "F = torch.functional; print(F.meshgrid(torch.arange(2), torch.arange(3), indexing='ij'))",
    "F = torch.functional; print(F.norm(torch.tensor([3., 4.])), F.tensordot(torch.ones(2, 3), torch.ones(3, 2), dims=1))",
    "F = torch.functional; print(F.unique(torch.tensor([3, 1, 3, 2]), return_counts=True), F.unique_consecutive(torch.tensor([1, 1, 2, 1])))",
    "F = torch.functional; print(F.cdist(torch.zeros(1, 2), torch.tensor([[3., 4.]])), F.chain_matmul(torch.eye(2), torch.ones(2, 2)))",
    "F = torch.functional; print(F.atleast_1d(torch.tensor(1.)), F.atleast_2d(torch.ones(2)).shape, F.atleast_3d(torch.ones(2)).shape)",
    "F = torch.functional; print(F.block_diag(torch.ones(1, 1), 2 * torch.ones(2, 1)), F.cartesian_prod(torch.arange(2), torch.arange(2)))",
    "F = torch.functional; print(F.unravel_index(torch.tensor(5), (2, 3)), F.broadcast_shapes((2, 1), (3,)))",
    "F = torch.functional; lu, piv = F.lu(torch.tensor([[2., 1.], [4., 3.]])); print(lu, piv)",
    "F = torch.functional; print(F.stft(torch.ones(8), 4, window=torch.hann_window(4), return_complex=True).shape)",
    "print(torch.functional.einsum is torch.einsum, torch.functional.split is torch.split)",
    "print(sorted(torch.functional.__all__), torch.functional.svd_lowrank is torch.svd_lowrank)",
    # svd_lowrank / pca_lowrank (random: the same draws as torch's)
    "torch.manual_seed(0); A = torch.randn(6, 4); U, S, V = torch.svd_lowrank(A, q=3); print(U, S, V)",
    "torch.manual_seed(0); A = torch.randn(3, 7); U, S, V = torch.svd_lowrank(A, q=2, niter=1); print(U.shape, S, V.shape)",
    "torch.manual_seed(0); A = torch.randn(2, 5, 4, dtype=torch.float64); U, S, V = torch.pca_lowrank(A); print(U.shape, S, V.shape)",
    "torch.manual_seed(0); A = torch.randn(5, 4); U, S, V = torch.pca_lowrank(A, q=2, center=False); print(S)",
    "torch.manual_seed(0); A = torch.randn(5, 4); M = torch.randn(4); U, S, V = torch.svd_lowrank(A, q=2, M=M); print(S)",
    "A = torch.randn(5, 4)\ntry:\n    torch.pca_lowrank(A, q=5)\nexcept ValueError as e: print(e)",
    "A = torch.randn(5, 4)\ntry:\n    torch.pca_lowrank(A, niter=-1)\nexcept ValueError as e: print(e)",
    "torch.manual_seed(0); A = torch.randn(6, 4, requires_grad=True); U, S, V = torch.svd_lowrank(A, q=2); S.sum().backward(); print(A.grad.shape, S.grad_fn.name())",
    # Tensor.as_subclass
    SUB + "y = torch.arange(3.).as_subclass(M); print(type(y + 1).__name__, type(y.sum()).__name__, type(y.clone()).__name__)",
    SUB + "x = torch.arange(3.); y = x.as_subclass(M); print(type(y).__name__, y, y.requires_grad, y.data_ptr() == x.data_ptr())",
    SUB + "x = torch.arange(6.).reshape(2, 3); print(x.as_subclass(M))",
    SUB + "a = torch.ones(2, requires_grad=True); b = a.as_subclass(M); print(b, b.is_leaf, b.grad_fn.name())",
    SUB + "a = torch.ones(2, requires_grad=True); b = (a * 2).as_subclass(M); b.sum().backward(); print(a.grad)",
    SUB + "x = torch.zeros(3); y = x.as_subclass(M); y[0] = 5; print(x, y._base is x, y._is_view())",
    SUB + "x = torch.zeros(2)\ntry:\n    x.as_subclass(int)\nexcept TypeError as e: print(e)",
    SUB + "x = torch.zeros(2)\ntry:\n    x.as_subclass(3)\nexcept TypeError as e: print(e)",
    SUB + "print(type(torch.zeros(2).as_subclass(torch.Tensor)).__name__, type(torch.nn.Parameter(torch.ones(2)).as_subclass(torch.Tensor)).__name__)",
    SUB + "y = torch.arange(3.).as_subclass(M); print(isinstance(y, torch.Tensor), y.shape, y.dtype, y.sum().item())",
    "class S(torch.Tensor):\n    __slots__ = ('q',)\nprint(type(torch.zeros(1).as_subclass(S)).__name__)",
    "p = torch.nn.Parameter(torch.ones(2)).as_subclass(torch.Tensor); print(p, p.grad_fn.name())",
    "print(repr(torch.arange(3.).as_subclass(torch.nn.Parameter)))",
    # torch.signal.windows
    W + "print(w.hann(5), w.hann(5, sym=False))",
    W + "print(w.hann(0), w.hann(1), w.hann(2), w.hann(True))",
    W + "print(w.hamming(6), w.hamming(6, sym=False))",
    W + "print(w.blackman(5), w.blackman(6, sym=False))",
    W + "print(w.bartlett(5), w.bartlett(6), w.bartlett(6, sym=False), w.bartlett(1))",
    W + "print(w.cosine(5), w.cosine(4, sym=False), w.cosine(1))",
    W + "print(w.exponential(5), w.exponential(5, sym=False, center=1.0), w.exponential(4, tau=2.0))",
    W + "print(w.gaussian(5), w.gaussian(6, std=2.0, sym=False))",
    W + "print(w.kaiser(5), w.kaiser(5, beta=2.0), w.kaiser(6, beta=4.0, sym=False), w.kaiser(1))",
    W + "print(w.general_cosine(5, a=[0.5, 0.5]), w.general_cosine(6, a=(0.46, 0.23, 0.31), sym=False))",
    W + "print(w.general_hamming(5), w.general_hamming(5, alpha=0.6), w.nuttall(5), w.nuttall(6, sym=False))",
    W + "print(w.hann(5, dtype=torch.float64), w.kaiser(4, dtype=torch.float64))",
    W + "torch.set_default_dtype(torch.float64); print(w.gaussian(3).dtype); torch.set_default_dtype(torch.float32)",
    W + "print(w.hann(5, requires_grad=True), w.kaiser(3, requires_grad=True))",
    W + "print(w.exponential(3, requires_grad=True).grad_fn.name(), w.gaussian(3, requires_grad=True).grad_fn.name(), w.cosine(3, requires_grad=True).grad_fn.name(), w.bartlett(3, requires_grad=True).grad_fn.name())",
    W + "print(w.hann(0, requires_grad=True), w.hann(1, requires_grad=True), w.kaiser(0, dtype=torch.float64))",
    W + "print(w.hann(5, layout=torch.strided), w.hann(3, device='cpu'), w.hann(torch.tensor(3)))",
    W + "\n".join("try:\n    %s\nexcept Exception as e: print(type(e).__name__, e)" % s for s in [
        "w.hann(-1)", "w.hann(5, dtype=torch.int64)", "w.hann(5, dtype=torch.float16)",
        "w.blackman(3, dtype=torch.bfloat16)", "w.kaiser(5, dtype=torch.float16)",
        "w.kaiser(5, beta=-1.0)", "w.gaussian(5, std=0.0)", "w.exponential(5, tau=0.0)",
        "w.exponential(5, center=1.0)", "w.general_cosine(5)", "w.general_cosine(5, a=0.5)",
        "w.general_cosine(5, a=[])", "w.hann(5, 3)", "w.bartlett(-2)", "w.cosine(3, dtype=torch.complex64)",
        "w.nuttall(4, layout=None)", "w.gaussian(-1, std=-1.0)"]),
    W + "print(sorted(w.__all__))",
    W + "x = w.hann(4, requires_grad=True); x.sum().backward(); print(x.grad_fn.name())",
]

BUGS = []

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=100)


# torch.cuda without CUDA: torch here is a CPU build, so these hold only where ember has no GPU.
NO_CUDA = "import warnings\n"
NO_CUDA_SNIPPETS = [NO_CUDA + s for s in [
    "print(torch.cuda.is_bf16_supported(), torch.cuda.is_bf16_supported(including_emulation=False), torch.cuda.is_tf32_supported(), repr(torch.cuda.get_gencode_flags()))",
    "try:\n    torch.cuda.memory_summary()\nexcept KeyError as e: print(repr(e))",
    "print(torch.cuda.memory_stats_as_nested_dict(), dict(torch.cuda.memory_stats()))",
    "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n    print(torch.cuda.memory_cached(), torch.cuda.max_memory_cached())\nprint([(x.category.__name__, str(x.message)) for x in w])",
    "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n    try:\n        torch.cuda.reset_max_memory_cached()\n    except Exception: pass\nprint([(x.category.__name__, str(x.message)) for x in w])",
    "for f in (torch.cuda.nvtx.range_push, torch.cuda.nvtx.mark):\n    try:\n        f('step')\n    except RuntimeError as e: print(e)",
    "try:\n    torch.cuda.nvtx.range_pop()\nexcept RuntimeError as e: print(e)",
    "try:\n    with torch.cuda.nvtx.range('step {}', 1): print('inside')\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.cuda.nvtx.range_start('a')\nexcept AttributeError as e: print(e)",
    "try:\n    torch.cuda.nvtx.range_end(0)\nexcept AttributeError as e: print(e)",
    "print(torch.cuda.list_gpu_processes())",
    "for f in (torch.cuda.utilization, torch.cuda.memory_usage, torch.cuda.temperature, torch.cuda.power_draw, torch.cuda.clock_rate, torch.cuda.device_memory_used):\n    try:\n        f()\n    except ModuleNotFoundError as e: print(e)",
    "for f, a in ((torch.cuda.get_per_process_memory_fraction, ()), (torch.cuda.set_per_process_memory_fraction, (0.5,)), (torch.cuda.can_device_access_peer, (0, 1)), (torch.cuda.get_sync_debug_mode, ()), (torch.cuda.set_sync_debug_mode, ('warn',)), (torch.cuda.caching_allocator_alloc, (16,))):\n    try:\n        f(*a)\n    except AssertionError as e: print(f.__name__, str(e)[:36])",
    "try:\n    torch.cuda.is_current_stream_capturing()\nexcept RuntimeError as e: print(e)",
    "print(torch.cuda.default_generators)",
    "try:\n    torch.Stream(device='cuda')\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.Event(device='cuda:1')\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.Stream(0)\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.Event(1)\nexcept RuntimeError as e: print(e)",
    "print(torch.get_device_module() is torch.cpu, torch.get_device_module(None) is torch.cpu)",
]]

NO_CUDA_BUGS = [
    ("torch's CPU build fails inside its C bindings (AttributeError naming torch._C); ember raises its AssertionError without CUDA",
     "try:\n    torch.cuda.reset_accumulated_memory_stats()\nexcept Exception as e: print(type(e).__name__)"),
    ("torch's CPU build fails inside its C bindings (AttributeError naming torch._C); ember raises its AssertionError without CUDA",
     "try:\n    torch.cuda.caching_allocator_delete(0)\nexcept Exception as e: print(type(e).__name__)"),
]


def _ember_has_gpu():
    import ember
    return ember.cuda.is_available()


_without_gpu = pytest.mark.skipif(_ember_has_gpu(), reason="torch here has no CUDA; ember has")
_cuda_prints, test_there_are_many_snippets_without_cuda = snippet_tests(
    NO_CUDA_SNIPPETS, NO_CUDA_BUGS, at_least=20)
test_without_cuda_prints_like_torch = _without_gpu(_cuda_prints)
