"""Tensor subclasses and __torch_function__, run under real torch and under ember (`import
ember as torch`): what each snippet prints, including an exception's type and first line, must
be identical.

Results of functions, methods, operators, indexing and views on a subclass instance keep the
subclass (nn.Parameter's and _disabled_torch_function_impl's do not); a user
`__torch_function__` sees every call with torch's public function as `func` and may answer
anything; super() runs the default; DisableTorchFunction(Subclass); torch.overrides
(has_torch_function, handle_torch_function, is_tensor_like, get_default_nowrap_functions,
TorchFunctionMode, BaseTorchFunctionMode); together with forward AD. Snippets share a process:
once one defines a subclass, ember's dispatch stays installed for later ones (and other files'
snippets), which must then print the same.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = """
class M(torch.Tensor):
    pass
class Log(torch.Tensor):
    calls = []
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.calls.append(func.__name__)
        return super().__torch_function__(func, types, args, kwargs)
m = torch.arange(6.).reshape(2, 3).as_subclass(M)
"""

SNIPPETS = [SETUP + s for s in [
    "print(type(m).__name__, m)",
    "print(type(m + 1).__name__, type(1 + m).__name__, type(m * m).__name__, type(-m).__name__)",
    "print(type(m - 1).__name__, type(2 - m).__name__, type(m / 2).__name__, type(2 / (m + 1)).__name__, type(m // 2).__name__, type(m % 2).__name__)",
    "print(type(m ** 2).__name__, type(2 ** m).__name__, type(m @ m.T).__name__, type(torch.ones(3, 2) @ m).__name__)",
    "print(type(m > 1).__name__, (m > 1).dtype, type(m == 1).__name__, type(m != 1).__name__)",
    "print(type(abs(m)).__name__, type(+m).__name__)",
    "print(type(torch.add(m, 1)).__name__, type(torch.exp(m)).__name__, type(torch.sum(m)).__name__)",
    "print(type(m.sum()).__name__, type(m.mean(0)).__name__, type(m.exp()).__name__, type(m.clone()).__name__)",
    "print(type(m[0]).__name__, type(m[:, 1:]).__name__, type(m[m > 2]).__name__)",
    "print(type(m.view(3, 2)).__name__, type(m.T).__name__, type(m.mT).__name__, type(m.reshape(-1)).__name__, type(m.transpose(0, 1)).__name__)",
    "print([type(t).__name__ for t in m.split(1)], [type(t).__name__ for t in m.unbind()])",
    "r = m.max(1); print(type(r).__name__, type(r.values).__name__, type(r.indices).__name__, r.indices)",
    "r = torch.sort(m, descending=True); print(type(r.values).__name__, r.values)",
    "print(type(torch.stack([m, m])).__name__, type(torch.cat([torch.zeros(1, 3), m])).__name__)",
    "print(type(torch.where(m > 2, m, torch.zeros(2, 3))).__name__)",
    "print(type(torch.nn.functional.relu(m)).__name__, type(torch.nn.functional.softmax(m, dim=1)).__name__)",
    "lin = torch.nn.Linear(3, 2); print(type(lin(m)).__name__, type(lin.weight).__name__)",
    "print(type(m.to(torch.float64)).__name__, m.to(torch.float64).dtype, type(m.float()).__name__, type(m.detach()).__name__)",
    "print(m.shape, m.dtype, m.ndim, m.device, m.is_leaf, m.requires_grad, m.numel(), m.dim(), m.stride())",
    "print(m.tolist(), m[0, 1].item(), float(m[0, 1]), int(m[1, 2]), bool(m[0, 1]))",
    "print(len(m), [type(r).__name__ for r in m])",
    "x = m.clone(); x += 1; print(type(x).__name__, x)",
    "x = m.clone(); x.mul_(2); x[0] = 7; print(type(x).__name__, x)",
    "x = torch.ones(2).as_subclass(M).requires_grad_(); y = (x * 3).sum(); y.backward(); print(type(y).__name__, y.grad_fn.name(), type(x.grad).__name__, x.grad)",
    "x = torch.ones(2, requires_grad=True).as_subclass(M); print(x.grad_fn.name(), x.is_leaf, type(x * 2).__name__, (x * 2).grad_fn.name())",
    "p = torch.nn.Parameter(torch.ones(2)); print(type(p * 2).__name__, type(p[0]).__name__, type(p.sum()).__name__, type(p.detach()).__name__)",
    "class P(torch.nn.Parameter):\n    pass\np = P(torch.ones(2)); print(type(p).__name__, type(p + 1).__name__)",
    "class N(M):\n    pass\nn = torch.ones(2).as_subclass(N); print(type(n + m[0, :2]).__name__, type(m[0, :2] + n).__name__)",
    "x = Log(torch.ones(2)) if False else torch.ones(2).as_subclass(Log); Log.calls.clear(); y = x + 1; print(Log.calls, type(y).__name__)",
    "x = torch.ones(2, 2).as_subclass(Log); Log.calls.clear(); x.sum(); x.shape; x[0]; torch.mul(x, 2); print(Log.calls)",
    "x = torch.ones(2, 2).as_subclass(Log); Log.calls.clear(); x * 2; 2 * x; x - 1; x / 2; x @ x; x < 1; x == 1; -x; print(Log.calls)",
    "x = torch.ones(2, 2).as_subclass(Log); Log.calls.clear(); torch.nn.functional.relu(x); torch.stack([x, x]); torch.cat([x, x]); print(Log.calls)",
    "x = torch.ones(2, 2).as_subclass(Log); Log.calls.clear(); x.dtype; x.T; x.requires_grad; x.grad; x.data; print(Log.calls)",
    "x = torch.ones(2, 2).as_subclass(Log); Log.calls.clear(); x.add_(1); x[0] = 3; x.view(4); x.clone(); x.detach(); print(Log.calls)",
    "x = torch.ones(2).as_subclass(Log); Log.calls.clear(); torch.nn.functional.linear(x, torch.ones(3, 2)); print(Log.calls)",
    "x = torch.ones(2).as_subclass(Log); Log.calls.clear(); repr(x); print(Log.calls)",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.add:
            return 'added'
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2).as_subclass(C)
print(torch.add(c, 1), type(c.add(1)).__name__, type(torch.mul(c, 1)).__name__)""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print(func is torch.Tensor.add, func is torch.Tensor.__add__, func is torch.add, func.__name__)
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2).as_subclass(C)
c + 1
c.add(1)
torch.add(c, 1)""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print(func == torch.Tensor.shape.__get__, func in torch.overrides.get_default_nowrap_functions(), len(args))
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2).as_subclass(C)
c.shape""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print(func == torch.Tensor.grad.__get__, func in torch.overrides.get_default_nowrap_functions())
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2).as_subclass(C).requires_grad_()
(torch.Tensor.__mul__(c, 2)).sum().backward() if False else None
print(c.grad)""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print([t.__name__ for t in types], [type(a).__name__ for a in args])
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2).as_subclass(C)
torch.add(torch.zeros(2), c)
torch.stack([torch.zeros(2), c])""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        with torch._C.DisableTorchFunctionSubclass():
            return func(*args, **(kwargs or {}))
c = torch.ones(2).as_subclass(C)
print(type(c + 1).__name__, type(c.sum()).__name__, type(c[0]).__name__)""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented
c = torch.ones(2).as_subclass(C)
try:
    torch.add(c, 1)
except TypeError as e:
    print(str(e)[:60])""",
    """class A(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print('A', [t.__name__ for t in types])
        return super().__torch_function__(func, types, args, kwargs)
class B(A):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print('B', [t.__name__ for t in types])
        return super().__torch_function__(func, types, args, kwargs)
a = torch.ones(1).as_subclass(A); b = torch.ones(1).as_subclass(B)
print(type(torch.add(a, b)).__name__)""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.Tensor.__repr__:
            return 'C!'
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2).as_subclass(C)
print(repr(c)); print(c)""",
    """class C(torch.Tensor):
    __torch_function__ = torch._C._disabled_torch_function_impl
c = torch.ones(2).as_subclass(C)
print(type(c + 1).__name__, type(c[0]).__name__, type(c.view(2)).__name__)""",
    "print(torch.nn.Parameter.__torch_function__ is torch._C._disabled_torch_function_impl)",
    "print(torch.overrides.has_torch_function((torch.ones(1),)), torch.overrides.has_torch_function((m,)), torch.overrides.has_torch_function((1, 'a')))",
    "print(torch.overrides.has_torch_function_unary(m), torch.overrides.has_torch_function_variadic(torch.ones(1), m), torch.overrides.has_torch_function((torch.nn.Parameter(torch.ones(1)),)))",
    "print(torch.overrides.is_tensor_like(m), torch.overrides.is_tensor_like(torch.ones(1)), torch.overrides.is_tensor_like(1), torch.overrides.is_tensor_like([1]))",
    """class TL:
    def __init__(self, v): self.v = v
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return ('TL', func.__name__, len(args))
def f(x):
    if torch.overrides.has_torch_function((x,)):
        return torch.overrides.handle_torch_function(f, (x,), x)
    return 'plain'
print(f(TL(1)), f(torch.ones(1)), torch.overrides.is_tensor_like(TL(1)))""",
    """def f(x, y=2):
    if torch.overrides.has_torch_function_unary(x):
        return torch.overrides.handle_torch_function(f, (x,), x, y=y)
    return x * y
print(type(f(m)).__name__, f(torch.ones(1)))""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__)
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with Mode():
    y = x + 1
    z = torch.exp(x)
    w = x.sum()
print(y, z, w)""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__)
        return func(*args, **(kwargs or {}))
lin = torch.nn.Linear(2, 2)
x = torch.ones(1, 2)
with Mode():
    lin(x); torch.nn.functional.relu(x); torch.nn.functional.mse_loss(x, x)""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is torch.add:
            return 'intercepted'
        return func(*args, **(kwargs or {}))
with Mode():
    print(torch.add(torch.ones(1), 1), torch.mul(torch.ones(1), 3))
print(torch.add(torch.ones(1), 1))""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__)
        return func(*args, **(kwargs or {}))
with Mode():
    a = torch.ones(2); b = torch.zeros(2, 2); c = torch.arange(3); t = torch.tensor([1.])""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__)
        return func(*args, **(kwargs or {}))
x = torch.ones(2, requires_grad=True)
with Mode():
    (x * 2).sum().backward()
print(x.grad)""",
    """class Outer(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('outer', func.__name__)
        return func(*args, **(kwargs or {}))
class Inner(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('inner', func.__name__)
        return func(*args, **(kwargs or {}))
with Outer(), Inner():
    torch.neg(torch.ones(1))""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__, [t.__name__ for t in types])
        return func(*args, **(kwargs or {}))
with Mode():
    r = torch.add(m, 1)
print(type(r).__name__)""",
    """class Mode(torch.overrides.BaseTorchFunctionMode):
    pass
with Mode():
    print(torch.ones(2) + 1)""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__)
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with Mode():
    with torch._C.DisableTorchFunction():
        y = x + 1
    z = x * 2
print(y, z)""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__)
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with Mode():
    with torch._C.DisableTorchFunctionSubclass():
        y = x + 1
print(y)""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))
print(torch._C._is_torch_function_mode_enabled())
with Mode():
    print(torch._C._is_torch_function_mode_enabled(), torch._C._len_torch_function_stack())
print(torch._C._is_torch_function_mode_enabled())""",
    """print(torch._C._is_torch_function_enabled())
with torch._C.DisableTorchFunctionSubclass():
    print(torch._C._is_torch_function_enabled(), type(m + 1).__name__)
print(type(m + 1).__name__)""",
    """with torch._C.DisableTorchFunction():
    print(type(m + 1).__name__, type(m[0]).__name__)""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise RuntimeError('no ' + func.__name__)
try:
    with Mode():
        torch.ones(1)
except RuntimeError as e:
    print(e)
print(torch.ones(1))""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        r = super().__torch_function__(func, types, args, kwargs)
        if func is torch.Tensor.sum:
            return r * 0 + 100
        return r
c = torch.ones(3).as_subclass(C)
print(c.sum(), torch.sum(c))""",
    """class Tagged(torch.Tensor):
    pass
t = torch.ones(2).as_subclass(Tagged)
t.tag = 'hello'
u = t + 1
print(type(u).__name__, hasattr(u, 'tag'), t.tag)""",
    """class C(torch.Tensor):
    def double(self):
        return self * 2
c = torch.ones(2).as_subclass(C)
print(type(c.double().double()).__name__, c.double().double())""",
    """class C(torch.Tensor):
    @staticmethod
    def __new__(cls, data):
        return torch.Tensor._make_subclass(cls, data)
c = C(torch.ones(2))
print(type(c).__name__, type(c * 2).__name__, type(c.view(2)).__name__)""",
    "x = m.clone(); print(type(x.zero_()).__name__, type(torch.zeros_like(m)).__name__, type(m.new_ones(2)).__name__)",
    "print(type(torch.tensor(m.tolist())).__name__, type(torch.as_tensor(m)).__name__, torch.is_tensor(m), isinstance(m, torch.Tensor))",
    "print(type(m.numpy()).__name__, m.numpy().sum())",
    "x = m.clone(); y = x.flatten(); print(type(y).__name__, y._base is x)",
    "print(type(m.real).__name__, type(m.abs().neg()).__name__, type(torch.nn.functional.dropout(m, 0.0)).__name__)",
    "print(type(m.argmax()).__name__, m.argmax().dtype, type(m.any()).__name__)",
    "print(type(m.unsqueeze(0)).__name__, type(m.expand(2, 2, 3)).__name__, type(m.permute(1, 0)).__name__, type(m.contiguous()).__name__)",
    "print(type(torch.einsum('ij,kj->ik', m, m)).__name__, type(torch.matmul(m, m.T)).__name__)",
    "print(type(m.chunk(2, 1)[0]).__name__, type(torch.nn.functional.pad(m, (1, 1))).__name__)",
    "print(m)\nprint(repr(m.sum()))\nprint(torch.ones(2, requires_grad=True).as_subclass(M) * 2)",
    "x = m.clone().requires_grad_(); opt = torch.optim.SGD([x], lr=0.1); (x * x).sum().backward(); opt.step(); print(type(x).__name__, x)",
    "x = torch.ones(2).as_subclass(M); x.requires_grad = True; print(x.requires_grad, type(x).__name__)",
    "x = torch.ones(2).as_subclass(M); x.data = torch.zeros(2); print(type(x).__name__, x, type(x.data).__name__)",
    "print(type(torch.autograd.grad((torch.ones(2).as_subclass(M).requires_grad_() * 2).sum(), [])) if False else 0)",
    """import copy
x = torch.ones(2).as_subclass(M)
print(type(copy.copy(x)).__name__)""",
    "x = torch.ones(3).as_subclass(M); print(type(reversed(x)).__name__, reversed(x))",
    "print(reversed(torch.arange(3)), reversed(torch.tensor(5)))",
    "print(2 in m, 9 in m, type(m).__mro__[1].__name__)",
    "x = torch.ones(2).as_subclass(M); print(format(x.sum().item(), '.1f'), f'{x[0].item():.2f}')",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented
c = torch.ones(2).as_subclass(C)
for f in (lambda: torch.add(c, 1), lambda: c.add(1), lambda: c + 1, lambda: c.shape, lambda: torch.nn.functional.relu(c)):
    try:
        f()
    except TypeError as e:
        print(e)""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print(func.__name__, [type(a).__name__ for a in args])
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2, 2).as_subclass(C)
c + 1; 1 + c; c * 2; 2 * c; c - 1; 1 - c; c / 2; c % 2; c @ c; torch.ones(2, 2) @ c; c < 1; c >= 1; c != 1; c == 1; -c; abs(c)""",
    """class C(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print(func.__name__, [type(a).__name__ for a in args])
        return super().__torch_function__(func, types, args, kwargs)
c = torch.ones(2, 2).as_subclass(C)
x = c.clone(); x += 1; x *= 2; x -= 1; x /= 2; x[0]; x[0] = 1; x[0, 0].item(); len(x); x.numpy(); x.tolist()""",
    """x = torch.ones(2).as_subclass(M)
with torch.autograd.forward_ad.dual_level():
    d = torch.autograd.forward_ad.make_dual(torch.ones(2), torch.ones(2) * 3)
    y = x * d
    p, t = torch.autograd.forward_ad.unpack_dual(y)
    print(type(y).__name__, t)
print(type(x * 2).__name__)""",
    """with torch.autograd.forward_ad.dual_level():
    d = torch.autograd.forward_ad.make_dual(torch.ones(2).as_subclass(M), torch.ones(2))
    y = (d * d).sum()
    print(type(d).__name__, type(y).__name__, torch.autograd.forward_ad.unpack_dual(y).tangent)""",
    """class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print('mode', func.__name__)
        return func(*args, **(kwargs or {}))
with torch.autograd.forward_ad.dual_level():
    d = torch.autograd.forward_ad.make_dual(torch.ones(2), torch.ones(2))
    with Mode():
        y = d.sin()
    print(torch.autograd.forward_ad.unpack_dual(y).tangent)""",
]]

BUGS = [
    ("copy.deepcopy of a non-wrapper subclass: torch refuses it unless new_empty() returns the "
     "subclass; ember copies it",
     SETUP + "import copy\nx = torch.ones(2).as_subclass(M)\ntry:\n    print(type(copy.deepcopy(x)).__name__)\nexcept RuntimeError as e:\n    print(str(e)[:60])"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=90)
