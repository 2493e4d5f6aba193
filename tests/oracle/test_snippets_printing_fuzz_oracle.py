"""Tensor printing under random inputs, run under real torch and under ember (`import ember as
torch`): what each snippet prints, including an exception's type and first line, must be
identical.

The snippets are minimized cases of a printing fuzzer (every dtype, shapes with empty and
summarized dims, values near the dtype limits, nan/inf/-0. mixes, subnormals, views,
Parameters, subclasses, grad_fn suffixes, random print options), kept here because each once
printed differently or sits at a rule's edge. Every snippet that changes print options or the
default dtype restores them before it ends.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

_RESET = "torch.set_printoptions(profile='default', sci_mode=None); " \
         "torch.set_default_dtype(torch.float32)"
_SUB = "class MyT(torch.Tensor): pass\n"


def _opts(options, body):
    """`body` printed under `set_printoptions(options)`, the defaults restored afterwards."""
    return f"torch.set_printoptions({options})\ntry:\n    {body}\nfinally:\n    {_RESET}"


SNIPPETS = [
    # reshape of a strided tensor that can be viewed records _reshape_alias
    "t = torch.tensor([-1e4, 1e-8, 1e10, 1e3, 1e12, 1e8], dtype=torch.bfloat16)[::2]"
    ".requires_grad_()\nprint(t.reshape(-1))",
    "t = torch.arange(6.)[::2].requires_grad_(); print(t.reshape(3, 1)); print(t.reshape(1, 3).reshape(-1))",
    "t = torch.arange(6.).reshape(2, 3).t().requires_grad_(); print(t.reshape(3, 1, 2).grad_fn.name(), t.reshape(-1).grad_fn.name())",
    "t = torch.arange(6.).requires_grad_(); print(t.reshape(2, 3)); print(t[::2].view(3))",
    "t = torch.arange(12.).reshape(3, 4)[:, :2].requires_grad_(); print(t.flatten().grad_fn.name(), t.reshape(6).grad_fn.name(), t.reshape(3, 2, 1).grad_fn.name())",
    "t = torch.arange(6.)[::2].requires_grad_(); t.reshape(3, 1).sum().backward(); print(t.grad)",
    # Parameter of a tensor subclass keeps the class and prints wrapped in Parameter(...)
    _SUB + "t = torch.tensor([4.0, -7239960.0, -41086349.0, -87730.0, -28971.0, -681982.0, "
    "4619710.0], dtype=torch.float64).as_subclass(MyT)\nprint(torch.nn.Parameter(t))",
    _SUB + "t = torch.tensor([1+1222.39j, 1-9.7e-10j, 1+2.7e8j, 1+1352.2j], dtype=torch.complex64)"
    ".reshape(2, 2).as_subclass(MyT)\np = torch.nn.Parameter(t, requires_grad=False)\n"
    "print(p); print(p.flatten()[:1]); print(type(p).__name__, isinstance(p, torch.nn.Parameter))",
    _SUB + "p = torch.nn.Parameter(torch.ones(2, 2).as_subclass(MyT))\nprint([p]); print(str(p)); "
    "print(p.grad_fn, p.is_leaf, p._is_param)",
    _SUB + "p = torch.nn.Parameter(torch.ones(3).as_subclass(MyT))\n"
    "try:\n    print(f'{p:.3f}')\nexcept TypeError as e: print(e)",
    _SUB + "p = torch.nn.Parameter(torch.ones(2).as_subclass(MyT))\nm = torch.nn.Module(); m.w = p\n"
    "print(list(dict(m.named_parameters())), isinstance(torch.ones(1), torch.nn.Parameter))",
    _SUB + "print(torch.nn.Parameter(torch.tensor([[float('nan')], [1.5]]).as_subclass(MyT)"
    ".to(torch.float16), requires_grad=False))",
    _SUB + "try:\n    torch.nn.Parameter(torch.ones(2, dtype=torch.long).as_subclass(MyT))\n"
    "except RuntimeError as e: print(e)",
    "class P(torch.nn.Parameter): pass\nprint(P(torch.ones(2))); print(repr(P(torch.zeros(1, 2), requires_grad=False)))",
    "class P(torch.nn.Parameter): pass\ntry:\n    torch.nn.Parameter(P(torch.ones(2)))\n"
    "except RuntimeError as e: print(e)",
    "class LongNameTensorSubclass(torch.Tensor): pass\n"
    "t = torch.tensor([[1e4], [0.1], [-1e-2], [1e8]], dtype=torch.float64)"
    ".as_subclass(LongNameTensorSubclass)\nprint(torch.nn.Parameter(t, requires_grad=False))",
    # fuzz cases at the edges of the layout rules
    "print(torch.tensor([-3176509310.9355044, 1960.49], dtype=torch.float16))",
    "print(torch.tensor([[float('nan')], [float('nan')]], dtype=torch.float16).requires_grad_()"
    ".contiguous())",
    "print(torch.tensor([0.0, 6.1e-05, 65504.0, 2048.0], dtype=torch.float16))",
    "print(torch.tensor([5e-324, -1e-323, 0.0], dtype=torch.float64))",
    "print(torch.tensor([1e-45, 3e-45], dtype=torch.float32), torch.tensor([1e-40], dtype=torch.bfloat16))",
    "print(torch.tensor([6e-8, -1.2e-7], dtype=torch.float16))",
    "print(torch.tensor([3.4e38, -3.4e38, 1.0], dtype=torch.float32))",
    "print(torch.tensor([1.7e308, -1.7e308], dtype=torch.float64))",
    "print(torch.tensor([0.0001 - 0j, -1.7e308 + 0j, -0j, 1e-4 + 0j], dtype=torch.complex128))",
    "print(torch.tensor([complex('nan-1e-6j'), complex('nan+1e10j')], dtype=torch.complex128))",
    "print(torch.tensor([10000 + 1.5e-323j, 0.1 + 1e-323j, -1e-12 - 1e-323j], dtype=torch.complex128))",
    "print(torch.tensor([2**64 - 1, 0], dtype=torch.uint64), torch.tensor([2**63 - 1, -2**63]))",
    "print(torch.tensor([4294967295, 0, 7], dtype=torch.uint32).reshape(3, 1))",
    "print(torch.tensor([[True, False]] * 3).t())",
    "print(torch.tensor([-128, 127], dtype=torch.int8).expand(2, 2))",
    "print(torch.tensor([float('nan')] * 7, dtype=torch.bfloat16))",
    "print(torch.tensor([-0.0, 0.0]), torch.tensor([-0.0]), torch.tensor(-0.0, dtype=torch.float16))",
    "print(torch.tensor([float('inf'), -float('inf'), -0.0], dtype=torch.bfloat16))",
    "print(torch.tensor([1e8, 1e-4], dtype=torch.float64), torch.tensor([1e8, 1.0]))",
    "print(torch.tensor([123456789.0, 1.0]), torch.tensor([99999999.0, 1.0], dtype=torch.float64))",
    "t = torch.tensor([0.5, 1e-5]).requires_grad_(); print(t * 2, t.exp(), t[0], t[::2])",
    "t = torch.tensor([[1.5, 2.5], [3.5, 4.5]], requires_grad=True); print(t.T, t.t(), t.permute(1, 0), t.flip(0), t.diagonal(), t.movedim(0, -1))",
    "t = torch.tensor([1.5, -2.5], dtype=torch.complex64, requires_grad=True); print(t.conj(), t.real, t.abs(), t.neg())",
    "print(torch.arange(1001.) * 1e-3)",
    "print(torch.arange(1600.).reshape(40, 40))",
    "print(torch.arange(2 * 600).reshape(2, 600) - 600)",
    "print(torch.arange(11 ** 3, dtype=torch.int16).reshape(11, 11, 11))",
    "print(torch.linspace(-1e6, 1e6, 1200, dtype=torch.float64))",
    "print(torch.zeros(2, 0, 4, dtype=torch.float16), torch.ones(0, 3, dtype=torch.uint16), torch.zeros(1, 0, dtype=torch.bool))",
    "print(torch.zeros(0, 3, requires_grad=True), torch.zeros(0, dtype=torch.complex64))",
    "print(torch.tensor([[[[7.25]]]], dtype=torch.float16), torch.tensor([[[[7]]]], dtype=torch.uint8))",
    "print(torch.tensor(2.5, dtype=torch.bfloat16).item(), torch.tensor([0.1]).tolist(), torch.tensor([0.1], dtype=torch.float16).tolist())",
    "print(torch.tensor([1 + 2j], dtype=torch.complex64).tolist(), torch.tensor([[1, 2]], dtype=torch.uint64).tolist())",
    "t = torch.tensor(0.123456, dtype=torch.float64); print(f'{t:.3f}|{t:.2e}|{t:10.4f}|{t:>12}|{t:.1%}|{t:g}|{t:+.2f}|{t}')",
    "t = torch.tensor(255, dtype=torch.uint8); print(f'{t:d}|{t:x}|{t:>6}|{t}')",
    "t = torch.tensor([1.5]);\ntry:\n    print(f'{t:.3f}')\nexcept TypeError as e: print(e)",
    "t = torch.tensor([1, 2]); print(f'{t}', '%s | %r' % (t, t), '{!r}'.format(t))",
    "t = torch.tensor([1.5, 2.5]); print([t, t], (t,), {'a': t})",
    _opts("precision=15, edgeitems=1, sci_mode=False", "print(torch.tensor([-3176509310.9355044, 1960.49], dtype=torch.float16))"),
    _opts("precision=17, threshold=5", "print(torch.tensor([0.0, 6.1e-05, 3.4e38, -3.4e38, 1e8, 1.0]).reshape(2, 3))"),
    _opts("sci_mode=True", "print(torch.tensor([1., 2., 3.]), torch.tensor([0.0, -0.0]), torch.tensor([float('nan')]))"),
    _opts("sci_mode=False", "print(torch.tensor([1e-10, 1e10]), torch.tensor([1e20, 1.0]))"),
    _opts("precision=0", "print(torch.tensor([0.5, 1.5, 2.5, -0.4]), torch.tensor([1e-5, 1.0]))"),
    _opts("precision=30", "print(torch.tensor([0.1, 1.0 / 3]))"),
    _opts("threshold=0, edgeitems=0", "print(torch.arange(4.), torch.arange(6).reshape(2, 3), torch.tensor(5.))"),
    _opts("threshold=-1", "print(torch.arange(3.), torch.ones(0))"),
    _opts("threshold=3.5, edgeitems=1", "print(torch.arange(8).reshape(2, 4))"),
    _opts("threshold=float('inf')", "print(torch.arange(1100).reshape(2, 550)[:, :4])"),
    _opts("edgeitems=600", "print(torch.arange(1001) % 7)"),
    _opts("edgeitems=100, threshold=10", "print(torch.arange(30).reshape(5, 6))"),
    _opts("linewidth=0", "print(torch.arange(5.), torch.arange(3).requires_grad_(False))"),
    _opts("linewidth=-3", "print(torch.tensor([1.5, 2.5], dtype=torch.float64, requires_grad=True))"),
    _opts("linewidth=1", "print(torch.ones(2, 2, dtype=torch.int8))"),
    _opts("linewidth=37", "print(torch.arange(20.) / 7, torch.ones(3, dtype=torch.bfloat16, requires_grad=True) * 2)"),
    _opts("profile='short', linewidth=40", "print(torch.randn(3, 5, generator=torch.Generator().manual_seed(0)))"),
    _opts("profile='full'", "print(torch.arange(1002).reshape(2, 501)[:, -3:], torch.arange(1002)[-2:])"),
    _opts("precision=10", "print(torch.tensor([1.1], dtype=torch.float16), torch.tensor([1.1], dtype=torch.bfloat16), torch.tensor([1.1]))"),
    "torch.set_default_dtype(torch.float64)\ntry:\n    print(torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float32), torch.tensor([1j]), torch.tensor([1j], dtype=torch.complex64), torch.zeros(0, dtype=torch.float32))\nfinally:\n    " + _RESET,
    _SUB + "print(torch.arange(1200.).as_subclass(MyT), torch.ones(0, 2).as_subclass(MyT))",
    "print(torch.nn.Buffer(torch.tensor([1.5, 2.5])), torch.nn.Parameter(torch.zeros(2, dtype=torch.float16)))",
    "p = torch.nn.ParameterList([torch.nn.Parameter(torch.tensor([1e-5, 3.0]))]); print(p); print(p[0])",
    "print(torch.tensor([1.5, float('nan')]).storage()); print(torch.tensor([1, 2], dtype=torch.int16).untyped_storage())",
    "print(torch.tensor([3.0, -1.5], dtype=torch.float16).numpy(), torch.tensor([2**64 - 1], dtype=torch.uint64).numpy())",
    # sparse tensors of the default complex dtype do not name it
    "t = torch.tensor([[1.5 + 0j, 0], [0, -2j]], dtype=torch.complex64); print(t.to_sparse()); print(t.conj().to_sparse_csr())",
    "t = torch.tensor([[1j, 0]], dtype=torch.complex128); print(t.to_sparse(1))\n"
    "torch.set_default_dtype(torch.float64)\ntry:\n    print(t.to_sparse(), t.to(torch.complex64).to_sparse())\nfinally:\n    " + _RESET,
    # the result tuples' errors say torch.return_types.<name>
    "r = torch.max(torch.tensor([[1., 2.]]), 1)\ntry:\n    r.flatten()\nexcept AttributeError as e: print(e)",
    "r = torch.sort(torch.tensor([3, 1, 2]), 0)\ntry:\n    print(r.tolist())\nexcept AttributeError as e: print(e)",
    "r = torch.max(torch.tensor([[1., 2.]]), 1)\ntry:\n    print(f'{r:>5}')\nexcept TypeError as e: print(e)",
    "r = torch.topk(torch.tensor([3., 1.]), 1)\ntry:\n    r.values = 1\nexcept AttributeError as e: print(e)",
    "r = torch.max(torch.tensor([[1., 2.]]), 1)\ntry:\n    r.foo = 1\nexcept AttributeError as e: print(e)",
    "r = torch.min(torch.tensor([[1., 2.]]), 1)\nfor f in (lambda: -r, lambda: r(), lambda: float(r), lambda: r < 3):\n"
    "    try:\n        f()\n    except TypeError as e: print(e)",
    "r = torch.max(torch.tensor([[1., 2.]]), 1); print(type(r).__name__, type(r).__qualname__, f'{r}', getattr(r, 'x', 5), hasattr(r, 'numpy'))",
    "import pickle\nr = pickle.loads(pickle.dumps(torch.max(torch.tensor([[1., 2.]]), 1))); print(type(r).__name__, r)",
    # float8 conversions of a 0-dim tensor
    "print(torch.tensor(2950336673, dtype=torch.uint32).to(torch.float8_e4m3fn))",
    "print(torch.tensor(3.).to(torch.float8_e8m0fnu), torch.tensor(-0.3).to(torch.float8_e5m2), torch.tensor(7, dtype=torch.int16).to(torch.float8_e4m3fnuz))",
    "print(torch.tensor([[1.5, -600.]]).to(torch.float8_e4m3fn).t(), torch.tensor(float('nan')).to(torch.float8_e5m2fnuz))",
    # to_sparse's overloads name two nodes
    "x = torch.tensor([[1., 0.], [0., 2.]], requires_grad=True)\nprint(x.to_sparse(1)); print(x.to_sparse()); print(x.to_sparse(layout=torch.sparse_csc))",
    "x = torch.tensor([[1., 0.], [0., 2.]], requires_grad=True)\nprint(x.to_sparse(layout=torch.sparse_bsr, blocksize=(1, 1)).grad_fn.name(), x.to_sparse_csr().to_sparse(2).grad_fn.name(), x.to_sparse().to_sparse(layout=torch.sparse_csr).grad_fn.name())",
    "x = torch.tensor([[1., 0.], [0., 2.]], requires_grad=True)\n(x.to_sparse(layout=torch.sparse_csr).to_dense() * torch.tensor([[1., 2.], [3., 4.]])).sum().backward(); print(x.grad)",
    # flip without a kernel where nothing moves (torch has none for uint16/32/64)
    "t = torch.tensor([[3892629897], [622808430]], dtype=torch.uint32); print(t.flip(-1), t.t().flip(0), torch.ones(0, 2, dtype=torch.uint64).flip(1))",
    "for d in (torch.uint16, torch.uint64):\n    try:\n        print(torch.tensor([[1], [2]], dtype=d).flip(0, 1))\n    except NotImplementedError as e: print(e)",
    # sparse conversions have no complex derivative
    "x = torch.tensor([[1j, 0]], requires_grad=True)\nfor f in (lambda: x.to_sparse(), lambda: x.to_sparse(1), lambda: x.to_sparse_csr(), lambda: x.to_sparse(layout=torch.sparse_csc)):\n"
    "    try:\n        print(f())\n    except RuntimeError as e: print(e)\nwith torch.no_grad():\n    print(x.to_sparse())",
    # sparse conversions of the dtypes without torch's kernels
    "for d in (torch.uint16, torch.uint32, torch.uint64, torch.float8_e5m2):\n    t = torch.tensor([[0., 7.]]).to(d)\n"
    "    for f in (lambda: t.to_sparse(), lambda: t.to_sparse_csr(), lambda: t.to_sparse(layout=torch.sparse_csc), lambda: t.to_sparse_bsr((1, 1))):\n"
    "        try:\n            print(f().layout)\n        except NotImplementedError as e: print(e)",
    # torch._tensor_str and repr's tensor_contents
    "print(torch._tensor_str.PRINT_OPTS, torch._tensor_str.get_printoptions())",
    "with torch._tensor_str.printoptions(precision=2):\n    print(torch.tensor([1/3]))\nprint(torch.tensor([1/3]))",
    "torch._tensor_str.PRINT_OPTS.precision = 2\ntry:\n    print(torch.tensor([1/3]))\nfinally:\n    " + _RESET,
    "print(torch.tensor([1.5, 2.5]).__repr__(tensor_contents='xyz'), torch.zeros(0, 3).__repr__(tensor_contents='E'))",
    "print(torch._tensor_str._str(torch.nn.Parameter(torch.ones(1))), torch._tensor_str._str(torch.ones(2, 2), tensor_contents='...'))",
    # max/min along a dim give the element at the index (the first of -0. and 0.)
    "print(torch.max(torch.tensor([0., -0., 0.]), 0), torch.max(torch.tensor([-0., 0.]), 0), torch.max(torch.tensor([[-0., 0.]]), 1, keepdim=True))",
    "print(torch.tensor([[0., -0.], [-0., 0.]]).max(0), torch.tensor([[0., -0.], [-0., 0.]], dtype=torch.float16).min(1))",
    "print(torch.tensor([-0., 0.], dtype=torch.bfloat16).min(0), torch.tensor([0., -0.]).max(-1).values)",
]

BUGS = [
    ("torch's vectorized complex neg gives +0. imaginary parts (0 - x), its scalar tail -0.; "
     "ember negates every element",
     "print(-torch.tensor([50.5 + 0j] * 18, dtype=torch.complex64))"),
    ("torch's vectorized float32 -> bfloat16 cast turns a NaN into 0xFFFF; ember keeps the "
     "quiet NaN 0x7FC0",
     "print(torch.tensor([float('nan')] * 8).to(torch.bfloat16).untyped_storage()[:4])"),
    ("torch's amax keeps the first of -0. and 0., its full max (vectorized) the +0.; ember "
     "gives NumPy's",
     "print(torch.tensor([-0., 0.]).amax(), torch.tensor([0., -0.]).amax(), torch.max(torch.tensor([-0., 0.])))"),
    ("torch's clone and element-wise results keep a permuted size-1 dim's stride; ember "
     "gives it the contiguous one",
     "t = torch.zeros(1, 2).t(); print((t * 1).stride(), t.clone().stride())"),
    ("torch.from_numpy of an empty array has stride 0; ember keeps NumPy's",
     "print(torch.from_numpy(np.array([], dtype=np.uint64)).stride())"),
]


# (known differences fixed since: now snippets)
SNIPPETS += [
    't = torch.tensor([[0., 7.]]).to_sparse()\ntry:\n    print(t.flatten())\nexcept RuntimeError as e: print(e)',
    # (printing a view reads its grad_fn, re-derived after a write: NOTE [ Views follow their
    # base ])
    _SUB + "u = torch.ones(3).as_subclass(MyT).requires_grad_() * 1\nu[0] = 2\nprint(u)",
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=70)
