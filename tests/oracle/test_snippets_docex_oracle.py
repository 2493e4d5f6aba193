"""Programs on the behaviours that running the examples of torch's own docstrings under ember
turned up (a sweep over `torch`, `torch.Tensor`, `torch.nn`, `torch.linalg`, `torch.fft`,
`torch.special`, `torch.distributions`, `torch.optim`, `torch.autograd`, `torch.func`, ...):
each is a short program of its own on one such behaviour, run under real torch and under
ember (`import ember as torch`); what they print must be identical.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PRELUDE = "import warnings\nnn = torch.nn; F = torch.nn.functional\n"


def _warnings(body):
    """A program whose warnings are printed (the harness ignores them otherwise)."""
    indented = "\n".join("    " + line for line in body.strip().splitlines())
    return PRELUDE + ("with warnings.catch_warnings(record=True) as caught:\n"
                      "    warnings.simplefilter('always')\n" + indented + "\n"
                      "for w in caught:\n"
                      "    print(w.category.__name__, str(w.message).split(' (Triggered')[0])\n")


PROGRAMS = {
    'post_accumulate_hook_results': PRELUDE + r'''
results = [("leaf itself", lambda p: p), ("in-place step", lambda p: p.sub_(p.grad, alpha=0.5)),
           ("None", lambda p: None), ("detached", lambda p: p.detach()),
           ("number", lambda p: 3), ("other size", lambda p: torch.zeros(4)),
           ("other dtype", lambda p: torch.zeros(2, dtype=torch.float64))]
for name, hook in results:
    w = torch.tensor([1., 2.], requires_grad=True)
    w.register_post_accumulate_grad_hook(hook)
    try:
        (w * w).sum().backward()
        print(name, w, w.grad)
    except (RuntimeError, TypeError) as e:
        print(name, type(e).__name__, e)
''',
    'asarray_requires_grad': PRELUDE + r'''
leaf = torch.tensor([1., 2., 3.], requires_grad=True)
mid = leaf * 2
for kwargs in [dict(requires_grad=False), dict(requires_grad=True), dict(copy=True),
               dict(copy=True, requires_grad=False), dict(dtype=torch.float64),
               dict(dtype=torch.float64, requires_grad=False), dict(copy=False)]:
    out = torch.asarray(mid, **kwargs)
    print(kwargs, out, out.requires_grad, out.is_leaf, out.data_ptr() == mid.data_ptr())
w = torch.tensor([1., 2.], requires_grad=True)
same = torch.asarray(w, requires_grad=False)
print(same is w, w.requires_grad)
with torch.no_grad():
    c = torch.asarray(mid, dtype=torch.float64, requires_grad=True)
print(c.grad_fn, c.requires_grad, c.is_leaf)
try:
    torch.asarray(torch.tensor([1, 2]), copy=True, requires_grad=True)
except RuntimeError as e:
    print(e)
''',
    'asarray_unspecified_requires_grad_warns': _warnings(r'''
w = torch.tensor([1., 2.], requires_grad=True)
print(torch.asarray(w + 1))
print(torch.asarray(w.detach() + 1), torch.asarray([1., 2.]))
'''),
    'round_to_negative_decimals': PRELUDE + r'''
x = torch.tensor([1200.1234567, -2550.5, 0.125, 7.0e6, 1.5e-3, 449.99])
for d in (-4, -3, -2, -1, 1, 2, 3):
    print(d, torch.round(x, decimals=d).tolist(), x.round(decimals=d).dtype)
for dt in (torch.float16, torch.bfloat16, torch.float64):
    print(dt, torch.round(x.to(dt), decimals=-2), torch.round(x.to(dt), decimals=1))
''',
    'ldexp_broadcast_warning': _warnings(r'''
print(torch.ldexp(torch.tensor([1.]), torch.tensor([1, 2, 3])))
print(torch.ldexp(torch.tensor([[1.], [2.]]), torch.tensor([1, 2])))
print(torch.ldexp(torch.tensor([1., 2.]), torch.tensor([1.5])))
print(torch.ldexp(torch.tensor([1]), torch.tensor([1, 2])))
print(torch.ldexp(torch.tensor([1j]), torch.tensor([1, 2])))
print(torch.tensor([3.], dtype=torch.bfloat16).ldexp(torch.tensor([0, 1])))
'''),
    'triangular_solve_deprecation': _warnings(r'''
A = torch.tensor([[2., 1.], [0., 4.]])
b = torch.tensor([[1., 2.], [3., 4.]])
print(torch.triangular_solve(b, A))
'''),
    'dim_order_ambiguity_check': PRELUDE + r'''
def orders(t):
    out = []
    for check in (False, True, [torch.contiguous_format, torch.channels_last],
                  [torch.channels_last], [], [torch.contiguous_format]):
        try:
            out.append(t.dim_order(ambiguity_check=check))
        except RuntimeError as e:
            out.append(str(e)[:60])
    return out
base = torch.zeros(64)
for t in [torch.zeros(2, 3, 4, 5), torch.zeros(1, 3, 4, 5), torch.zeros(2, 3, 4, 5).permute(0, 2, 1, 3),
          torch.zeros(2, 3, 4, 5).to(memory_format=torch.channels_last),
          torch.zeros(3, 1, 4, 5).to(memory_format=torch.channels_last),
          base.as_strided((2, 2, 2), (1, 4, 1)), base.as_strided((2, 2, 2), (4, 1, 1)),
          torch.zeros(3).expand(2, 3), torch.zeros(()), torch.zeros(1)]:
    print(tuple(t.shape), t.stride(), orders(t))
for bad in ("yes", (torch.channels_last,), [torch.channels_last, 1], None):
    try:
        torch.zeros(2).dim_order(ambiguity_check=bad)
    except TypeError as e:
        print(e)
try:
    torch.zeros(2).dim_order(True)
except TypeError as e:
    print(e)
''',
    'max_pool_with_indices_names_its_kernel': PRELUDE + r'''
for call in [lambda: F.max_pool2d("x", 2, return_indices=True), lambda: F.max_pool2d("x", 2),
             lambda: nn.MaxPool2d(2, return_indices=True)([[1.]]), lambda: nn.MaxPool2d(2)(None),
             lambda: F.max_pool1d(None, 2, return_indices=True)]:
    try:
        call()
    except TypeError as e:
        print(e)
x = torch.arange(16.).view(1, 1, 4, 4)
print(nn.MaxPool2d(2, return_indices=True)(x))
''',
    'to_sparse_layout_blocksize_errors': PRELUDE + r'''
d = torch.tensor([[0, 5], [0, 0], [7, 8]])
sources = {"dense": d, "coo": d.to_sparse(), "csr": d.to_sparse_csr()}
for name, src in sources.items():
    for layout, blocksize in [(torch.sparse_bsr, (2, 1)), (torch.sparse_bsc, (1, 3)),
                              (torch.sparse_csr, (1, 1)), (torch.sparse_csc, (1, 1)),
                              (torch.sparse_coo, (1, 1)), (None, (1, 1)), (torch.sparse_bsr, (2,)),
                              (torch.sparse_bsr, (3, 1))]:
        try:
            out = src.to_sparse(layout=layout, blocksize=blocksize)
            print(name, layout, out.layout, out.values().shape)
        except RuntimeError as e:
            print(name, layout, e)
for f in [lambda: d.to_sparse_bsr((2, 1)), lambda: d.to_sparse().to_sparse_bsr((2, 1)),
          lambda: d.to_sparse_csr().to_sparse_bsc((1, 3))]:
    try:
        f()
    except RuntimeError as e:
        print(e)
''',
    'assert_close_zero_tolerances_and_subclasses': PRELUDE + r'''
def check(*args, **kwargs):
    try:
        torch.testing.assert_close(*args, **kwargs)
        print("ok")
    except AssertionError as e:
        print(e)
    except TypeError as e:
        print("TypeError")
check(1e-9, 1e-10, rtol=0, atol=0)
check(3.0, 0.0, rtol=0, atol=0)
check(3.0, 0.0, rtol=0, atol=1e-3)
check(torch.tensor([1., 2., 4.]), torch.tensor([1., 2.5, 4.]), rtol=0, atol=0)
check(torch.tensor(1.), torch.tensor(1.5), rtol=0, atol=0)
check(torch.tensor([1, 2]), torch.tensor([1, 3]))
e = torch.tensor([1., 2.])
check(nn.Parameter(e.clone()), e)
check(nn.Parameter(e.clone()), e, allow_subclasses=False)
check(e, nn.Parameter(e.clone()), allow_subclasses=False)
check(nn.Parameter(e.clone()), nn.Parameter(e.clone()), allow_subclasses=False)
check({"w": nn.Parameter(e.clone())}, {"w": e}, allow_subclasses=False)
check([1.0, 2.0], (1.0, 2.5), rtol=0, atol=0)
''',
    'second_backward_through_index_nodes': PRELUDE + r'''
torch.manual_seed(0)
emb = nn.Embedding(6, 3)
ids = torch.tensor([1, 4])
x = torch.randn(4, 5, requires_grad=True)
picks = {"embedding": lambda: emb(ids), "embedding_bag": lambda: F.embedding_bag(ids, emb.weight, torch.tensor([0])),
         "index": lambda: x[[0, 2]], "mask": lambda: x[x > 0], "max_dim": lambda: x.max(dim=1).values,
         "min_dim": lambda: x.min(1)[0], "sort": lambda: x.sort(1).values, "topk": lambda: x.topk(2).values,
         "kthvalue": lambda: x.kthvalue(2, 1).values, "median": lambda: x.median(1).values,
         "nanmedian": lambda: x.nanmedian(1).values, "mode": lambda: x.mode(1).values,
         "slice": lambda: x[1:3], "sum": lambda: x.sum(1), "amax": lambda: x.amax(1)}
for name, pick in picks.items():
    out = pick()
    out.sum().backward()
    try:
        out.sum().backward()
        print(name, "twice")
    except RuntimeError as e:
        print(name, str(e)[:50])
# kept with retain_graph, freed by the last backward
anchor = emb(ids)
anchor.pow(2).sum().backward(retain_graph=True)
anchor.sum().backward()
print(emb.weight.grad)
try:
    anchor.sum().backward()
except RuntimeError as e:
    print(str(e)[:50])
''',
    'sparse_mm_reduce': PRELUDE + r'''
torch.manual_seed(0)
dense = torch.randn(5, 4) * (torch.rand(5, 4) > 0.5)
dense[2] = 0                                   # a row without entries
a = dense.to_sparse_csr()
b = torch.randn(4, 3)
for reduce in ["sum", "mean", "amax", "amin", "max", "min"]:
    x = a.clone().requires_grad_()
    y = b.clone().requires_grad_()
    out = torch.sparse.mm(x, y, reduce)
    print(reduce, out.round(decimals=4), out.grad_fn.name())
    (out * torch.arange(15.).view(5, 3)).sum().backward()
    print(x.grad.values().round(decimals=4), x.grad.layout, y.grad.round(decimals=4))
ties = torch.tensor([[1., 2.], [0., 0.]]).to_sparse_csr()
w = torch.tensor([[2., 1.], [1., 0.5]], requires_grad=True)
out = torch.sparse.mm(ties, w, "amax")
out.sum().backward()
print(out, w.grad)
for bad in [lambda: torch.sparse.mm(dense.to_sparse(), b, "sum"), lambda: torch.sparse.mm(dense, b, "sum"),
            lambda: torch.sparse.mm(a, b.to_sparse_csr(), "sum"), lambda: torch.sparse.mm(a, b, "prod"),
            lambda: torch.sparse.mm(a, b, "Sum"), lambda: torch.sparse.mm(a, b.double(), "sum"),
            lambda: torch.sparse.mm(a, b[:2], "sum"), lambda: torch.sparse.mm(a, b[:, 0], "sum"),
            lambda: torch.sparse.mm(a, b, None)]:
    try:
        bad()
    except (RuntimeError, TypeError, NotImplementedError) as e:
        print(type(e).__name__, str(e)[:120])
print(torch.sparse.mm(dense.to_sparse(), b).round(decimals=4))
''',
    'sparse_spdiags': PRELUDE + r'''
d = torch.arange(1., 11.).reshape(2, 5)
for offs in ([0, 2], [0, -2], [2, 0], [-4, 4], [1, -1]):
    for layout in (None, torch.sparse_csr, torch.sparse_csc):
        s = torch.sparse.spdiags(d, torch.tensor(offs), (5, 5), layout=layout)
        print(offs, s)
    print(s.to_dense())
print(torch.sparse.spdiags(torch.arange(6).view(2, 3), torch.tensor([0, -1]), (3, 3)))
print(torch.sparse.spdiags(torch.tensor([1., 2.]), torch.tensor(1), (2, 2)))
print(torch.sparse.spdiags(d.clone().requires_grad_(), torch.tensor([0, 1]), (5, 5)).grad_fn.name())
for bad in [lambda: torch.sparse.spdiags(d, torch.tensor([0, 0]), (5, 5)),
            lambda: torch.sparse.spdiags(d, torch.tensor([0]), (5, 5)),
            lambda: torch.sparse.spdiags(d, torch.tensor([0, 1]), (5, 5, 5)),
            lambda: torch.sparse.spdiags(d, torch.tensor([0., 1.]), (5, 5)),
            lambda: torch.sparse.spdiags(d, torch.tensor([0, 1]), (5, 5), layout=torch.sparse_bsr),
            lambda: torch.sparse.spdiags(d, [0, 1], (5, 5)),
            lambda: torch.sparse.spdiags(d[None], torch.tensor([0, 1]), (5, 5)),
            lambda: torch.sparse.spdiags(d, torch.tensor([[0, 1]]), (5, 5))]:
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
''',
    'masked_reductions': PRELUDE + r'''
x = torch.tensor([[-3., -2., -1., 7.], [0., 1., 2., 3.], [4., 5., 6., -8.]])
m = torch.tensor([[True, False, True, True], [False, False, False, False], [True, True, False, True]])
M = torch.masked
for name in ["sum", "prod", "mean", "amax", "amin", "argmax", "argmin", "logsumexp", "median"]:
    f = getattr(M, name)
    print(name, f(x, 1, mask=m), f(x, 0, keepdim=True, mask=m))
for name in ["sum", "mean", "amax", "prod", "logsumexp"]:
    print(name, getattr(M, name)(x, mask=m), getattr(M, name)(x, (0, 1), mask=m))
for name in ["cumsum", "cumprod", "softmax", "log_softmax", "softmin"]:
    print(name, getattr(M, name)(x, 1, mask=m).round(decimals=4))
for p in (1.0, 2.0, float("inf"), -float("inf"), 0.0):
    print(p, M.norm(x, p, 1, mask=m), M.normalize(x, p, 1, mask=m).round(decimals=4))
print(M.var(x, 1, mask=m), M.var(x, 1, False, mask=m), M.std(x, 1, correction=2, mask=m),
      M.std(x, mask=m, keepdim=True))
print(M.sum(x, 1, mask=torch.tensor([True, False, True, False])))     # a broadcast mask
print(M.logaddexp(x[0], x[2], input_mask=m[0], other_mask=m[2]))
ints = x.long()
print(M.sum(ints, 1, mask=m), M.amax(ints, 1, mask=m), M.argmax(ints, 1, mask=m),
      M.logsumexp(ints, 1, mask=m), M.var(ints, 1, mask=m), M.mean(ints, 1, mask=m, dtype=torch.float64))
for bad in [lambda: M.mean(ints, 1, mask=m), lambda: M.softmax(ints, 1, mask=m),
            lambda: M.median(ints, 1, mask=m), lambda: M.norm(ints, -float("inf"), 1, mask=m),
            lambda: M.logaddexp(ints, ints)]:
    try:
        bad()
    except (ValueError, RuntimeError, NotImplementedError, AssertionError) as e:
        print(type(e).__name__, e)
w = x.clone().requires_grad_()
out = M.mean(w, 1, mask=m)
out.nan_to_num().sum().backward()
print(out.grad_fn, w.grad)
w.grad = None
M.softmax(w, 1, mask=m).nan_to_num()[:, 0].sum().backward()
print(w.grad.round(decimals=4))
''',
    'as_subclass_is_not_dispatched': PRELUDE + r'''
seen = []
class Logged(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        seen.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})
x = torch.arange(3.).as_subclass(Logged)
plain = x.as_subclass(torch.Tensor)
print(type(plain).__name__, seen, plain)
print(type(x * 2).__name__, seen)
class Recorder(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        seen.append("mode:" + getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))
seen.clear()
with Recorder():
    y = torch.ones(2).as_subclass(Logged)
    z = y.as_subclass(torch.Tensor)
print(seen, type(z).__name__)
ignored = torch.overrides.get_ignored_functions()
print([f in ignored for f in (torch.Tensor.as_subclass, torch.Tensor.new_zeros, torch.Tensor.new_full,
                              torch.Tensor.stride, torch.Tensor.unflatten, torch.Tensor.to_sparse_csr,
                              torch.add, torch.Tensor.add, torch.Tensor.__hash__)])
''',
    'cov_of_integers_in_the_default_dtype': PRELUDE + r'''
x = torch.tensor([[0, 1, 2, 5], [2, 1, 0, -1]])
for default in (torch.float32, torch.float64, torch.float16):
    torch.set_default_dtype(default)
    print(default, torch.cov(x), torch.corrcoef(x), torch.cov(x[0]),
          torch.cov(x, aweights=torch.tensor([1., 2, 3, 1], dtype=torch.float32)).dtype,
          torch.cov(x, fweights=torch.tensor([1, 2, 3, 1])).dtype)
torch.set_default_dtype(torch.float32)
''',
    'quantize_per_channel_of_other_floats': PRELUDE + r'''
a = torch.tensor([[0.5, -1.25], [2.0, 0.75]], dtype=torch.float64)
for f in [lambda: torch.quantize_per_channel(a, torch.tensor([0.1, 0.01]), torch.tensor([10, 0]), 5, torch.quint8),
          lambda: torch.quantize_per_channel(a, torch.tensor([0.1, 0.01]), torch.tensor([10, 0]), 0, torch.float32),
          lambda: torch.quantize_per_channel(a.half(), torch.tensor([0.1, 0.01]), torch.tensor([10, 0]), 0, torch.quint8),
          lambda: torch.quantize_per_tensor(a, 0.1, 10, torch.quint8)]:
    try:
        print(f())
    except RuntimeError as e:
        print(e)
print(torch.quantize_per_channel(a.float(), torch.tensor([0.1, 0.01]), torch.tensor([10, 0]), 0, torch.quint8))
''',
    'enforce_grad_layout_policy': PRELUDE + r'''
p = torch.ones(2, 3, 4).permute(2, 0, 1).requires_grad_()
with torch.autograd.enforce_grad_layout_policy(False):
    (p * 2).sum().backward()
print(p.grad.stride(), p.stride(), p.grad.sum())
p.grad = None
(p * 2).sum().backward()
print(p.grad.stride())
w = torch.ones(3, 4).t().requires_grad_()
torch.autograd.enforce_grad_layout_policy(False)
(w * torch.arange(12.).view(4, 3)).sum().backward()
print(w.grad.stride(), w.grad)
torch.autograd.enforce_grad_layout_policy(True)
w.grad = None
(w * torch.ones(4, 3)).sum().backward()
print(w.grad.stride())
try:
    torch.autograd.enforce_grad_layout_policy(1)
except TypeError as e:
    print(e)
''',
    'forward_gradcheck_with_a_dispatching_subclass': PRELUDE + r'''
class Dispatching(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})
x = torch.tensor([0.5, 1., 2.], dtype=torch.float64, requires_grad=True)
for f in (torch.sin, torch.exp, torch.nn.functional.softplus):
    print(torch.autograd.gradcheck(f, (x,), check_forward_ad=True))
print(type(torch.ones(2).as_subclass(Dispatching) * 2).__name__)
''',
}

# Differences the sweep found and left (strict xfails: a fix shows up as XPASS).
BUGS = {
    'lazy_conjugate_bit': ("ember has no lazy conjugate/negative bit: conj() copies", PRELUDE + r'''
z = torch.tensor([1 + 2j, -3j])
c = z.conj()
print(c.is_conj(), c.resolve_conj().is_conj(), torch._neg_view(z).is_neg())
'''),
    'aten_operator_namespace': ("torch.ops.aten holds only operators registered through torch.library",
                                PRELUDE + r'''
print(torch.ops.aten.mm.default(torch.eye(2), torch.ones(2, 2)))
'''),
    'func_rearrange': ("torch.func.rearrange (einops-style) is missing", PRELUDE + r'''
print(torch.func.rearrange(torch.arange(6).view(2, 3), "a b -> b a"))
'''),
    'nested_tensors': ("torch.nested is missing", PRELUDE + r'''
nt = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)])
print(nt.is_nested, torch.nested.to_padded_tensor(nt, 0.0))
'''),
    'testing_overrides': ("overrides.get_testing_overrides is missing", PRELUDE + r'''
import inspect
print(inspect.signature(torch.overrides.get_testing_overrides()[torch.add]))
'''),
    'flush_denormal': ("set_flush_denormal cannot make NumPy flush denormals", PRELUDE + r'''
print(torch.set_flush_denormal(True), torch.tensor([1e-323], dtype=torch.float64))
torch.set_flush_denormal(False)
'''),
    'stolen_gradient_layout': ("a gradient passed through a node unchanged is copied in the leaf's "
                               "layout even under enforce_grad_layout_policy(False): ember does not "
                               "know that nothing else holds it", PRELUDE + r'''
w = torch.ones(3, 4).t().requires_grad_()
with torch.autograd.enforce_grad_layout_policy(False):
    (w.contiguous() * 3).sum().backward()
print(w.grad.stride())
'''),
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, BUGS)
