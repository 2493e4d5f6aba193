"""torch.fft and complex tensors under inputs a throwaway fuzzer drew, minimized, run under
real torch and under ember (`import ember as torch`): what each snippet prints, including an
exception's type and first line, must be identical.

The memory layout of transforms' results (transformed dims innermost, as torch's CPU kernels
leave them) and of their gradients; the order in which the transforms check dtype, s, dim and
sizes; odd/even lengths, n and s cutting or padding, norms, integer inputs, fftfreq/rfftfreq
and the shifts; complex printing, views, promotion, errors and gradients.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

# prints a result's dtype, shape, strides, node and its values rounded to 4 decimals (the
# signs of zeros are left out: they depend on the kernels' order of operations)
P = ("def p(t):\n"
     "    print(t.dtype, tuple(t.shape), t.stride(), t.grad_fn.name() if t.grad_fn else None)\n"
     "    t = t.detach().to(torch.complex128 if t.is_complex() else torch.float64)\n"
     "    r = lambda u: u.mul(1e4).round().div(1e4) + 0.0  # (+ 0.0: no -0 from rounding)\n"
     "    print(r(t.real), r(t.imag)) if t.is_complex() else print(r(t))\n"
     "torch.manual_seed(0)\n")

_ORDER_INPUTS = [
    "torch.zeros(3, 0, dtype=torch.complex64)", "torch.zeros(3, 0).half()",
    "torch.zeros(2, 3).half(), dim=(0, 0)", "torch.zeros(2, 3), dim=(0, 5)",
    "torch.zeros(2, 3, dtype=torch.complex64)", "torch.zeros(2, 3), dim=None",
    "torch.zeros(2, 3).half(), s=(2,)", "torch.zeros(2, 3), s=(1, 1, 1)",
    "torch.tensor(1.).half()", "torch.zeros(1).half()",
    "torch.zeros(4, dtype=torch.complex128), dim=None",
    "torch.zeros(2, 1, dtype=torch.complex64), s=(2, -1)",
]
_ORDER = [f"y = torch.fft.{f}({a}); print(y.dtype, y.shape)"
          for f in ["fftn", "rfftn", "ihfftn", "irfftn", "hfftn", "fft2", "rfft2", "ihfft2",
                    "hfft2"]
          for a in _ORDER_INPUTS]

_LAYOUT = [
    f"x = {x}.requires_grad_(); y = torch.fft.{f}(x, {a}); p(y); "
    "(y.abs() if y.is_complex() else y).sum().backward(); print(x.grad.stride())"
    for f, a in [("fft", "dim=0"), ("ifft", "dim=1, n=6"), ("rfft", "dim=0"),
                 ("ihfft", "dim=1"), ("irfft", "dim=0"), ("hfft", "dim=1, n=3"),
                 ("fftn", "dim=(2, 0)"), ("ifftn", "dim=(1, 0), norm='ortho'"),
                 ("rfftn", "dim=(2, 0)"), ("ihfftn", "s=(3, 5)"), ("irfftn", "s=(3, 5)"),
                 ("hfftn", "dim=(0, 2)"), ("rfft2", "s=(2, 3), norm='forward'"),
                 ("irfft2", "dim=(1, 0)"), ("hfft2", "s=(3, 5)"), ("ihfft2", "dim=(0, 2)")]
    for x in ["torch.randn(2, 3, 4)", "torch.randn(4, 3, 2).permute(2, 1, 0)"]]

SNIPPETS = [P + s for s in _ORDER + _LAYOUT + [
    "p(torch.fft.fft(torch.randn(3, 1, 4), dim=1))",
    "p(torch.fft.fft(torch.randn(2, 3, 4)[:, ::2], dim=0))",
    "p(torch.fft.ihfftn(torch.randn(3, 4), s=(-1, 3)))",
    "p(torch.fft.fft(torch.randn(2, 3, 4, dtype=torch.float64), n=2, dim=-2, norm='ortho'))",
    "p(torch.fft.hfft2(torch.randn(3, 0), s=(-1, 3), dim=(0, 1)))",
    "p(torch.fft.fft(torch.randint(-5, 5, (5,))))",
    "p(torch.fft.rfft(torch.randint(0, 2, (6,)).bool(), n=3))",
    "p(torch.fft.irfft(torch.randn(4), n=5, dim=0))",
    "p(torch.fft.hfft(torch.randn(3, dtype=torch.complex128), n=7, norm='forward'))",
    "p(torch.fft.ihfft(torch.randn(5), norm='ortho'))",
    "p(torch.fft.fft2(torch.randn(2, 5, dtype=torch.complex64), s=[2, 6]))",
    "p(torch.fft.irfftn(torch.randn(2, 3, 4, dtype=torch.complex64), s=(-1, 3)))",
    "p(torch.fft.ifftn(torch.randn(2, 3, 4), s=(1, 1), norm='forward'))",
    "p(torch.fft.fftn(torch.tensor(2.5)))",
    "p(torch.fft.fft(torch.randn(5), n=-1))",
    "p(torch.fft.fft(torch.randn(5), norm='bad'))",
    "p(torch.fft.fftfreq(5, 0.5)); p(torch.fft.rfftfreq(6, d=0.1, dtype=torch.float64))",
    "p(torch.fft.fftfreq(0)); p(torch.fft.rfftfreq(1))",
    "p(torch.fft.fftfreq(4, dtype=torch.int64))",
    "p(torch.fft.rfftfreq(4, dtype=torch.float16))",
    "x = torch.arange(5.).reshape(-1, 1) * torch.arange(3); p(torch.fft.fftshift(x, dim=0)); "
    "p(torch.fft.ifftshift(x))",
    "p(torch.fft.fftshift(torch.zeros(0, 3), dim=(0, 1)))",
    "x = torch.randn(6, requires_grad=True); y = torch.fft.rfft(x, n=4); "
    "y.abs().sum().backward(); print(x.grad)",
    "x = torch.randn(3, dtype=torch.complex64, requires_grad=True); "
    "torch.fft.irfft(x, n=6).pow(2).sum().backward(); print(x.grad)",
    # complex tensors in general
    "z = torch.tensor([[1e10+1j, 2-3e-5j], [0j, 1j]]); print(z); print(z.pow(2), z ** 0.5)",
    "z = torch.tensor([complex('inf'), complex(0, float('nan')), 1+1j]); print(z); "
    "print(z.exp(), z.log())",
    "z = torch.randn(101, dtype=torch.complex64); print(z)",
    "z = torch.randn(12, dtype=torch.complex128) * 1e6; print(z); print(z.abs(), z.angle())",
    "z = torch.tensor([1e-5+1j, 100j]); print(z, z.sgn())",
    "z = torch.tensor([0.1+0.2j], dtype=torch.complex128); z.real[...] = 7; print(z); "
    "print(torch.polar(torch.tensor([2.]), torch.tensor([0.5])))",
    "z = torch.randn(3, 4, dtype=torch.complex64); z.imag.mul_(2); print(z.imag.stride(), z)",
    "z = torch.zeros(2, 0, dtype=torch.complex64); print(z, z.real, torch.view_as_real(z).shape)",
    "print(torch.view_as_complex(torch.randn(3, 3)))",
    "print(torch.view_as_complex(torch.randn(4, 2)[::2]))",
    "print(torch.view_as_complex(torch.randn(2, 4).t()))",
    "print(torch.view_as_complex(torch.randn(4, 2, dtype=torch.float64)).dtype)",
    "z = torch.randn(3, dtype=torch.complex64); "
    "print((z + torch.ones((), dtype=torch.float64)).dtype, "
    "(z * torch.ones(1, dtype=torch.float64)).dtype)",
    "print(torch.result_type(torch.zeros(1, dtype=torch.complex64), 1.5), "
    "torch.promote_types(torch.complex64, torch.float64))",
    "print(torch.tensor([1, 2]) * 1j + 0.5)",
    "z = torch.tensor([1+2j, -3.5+0.25j]); print(z * (2-1j), (1+1j) / z, z == 1+2j)",
    "z = torch.tensor([1+2j]); print(z < z)",
    "z = torch.tensor([1+2j]); print(z.max())",
    "z = torch.tensor([1+2j]); print(torch.sort(z))",
    "z = torch.zeros(2, 0, dtype=torch.complex64); print(z.max())",
    "z = torch.zeros(2, 0, dtype=torch.complex64); print(z.min(1))",
    "z = torch.zeros(2, 0, dtype=torch.complex64); print(z.max(0))",
    "z = torch.tensor([1+2j]); print(torch.topk(z, 1))",
    "z = torch.tensor([1+2j]); print(torch.clamp(z, 0, 1))",
    "z = torch.tensor([1+2j]); print(z.floor())",
    "z = torch.tensor([1+2j]); print(torch.fmod(z, 2))",
    "print(torch.complex(torch.tensor([1.]), torch.tensor([1], dtype=torch.int64)))",
    "print(torch.polar(torch.tensor([1., 2.]), torch.tensor([0.5, 1.], dtype=torch.float64)))",
    "z = torch.randn(4, dtype=torch.complex128, requires_grad=True); "
    "(z * z.conj()).real.sum().backward(); print(z.grad)",
    "a = torch.rand(3, requires_grad=True); b = torch.randn(3, requires_grad=True); "
    "z = torch.polar(a + 0.5, b); z.sgn().real.sum().backward(); "
    "print(a.grad.mul(1e4).round() + 0.0, b.grad)",
    "a = torch.randn(3, 2, requires_grad=True); z = torch.view_as_complex(a); "
    "z.log().real.sum().backward(); print(a.grad)",
    "z = torch.tensor([1+2j, -3+0.5j, 0.5-1j], requires_grad=True); loss = z.angle().sum(); "
    "print(loss.grad_fn.name()); loss.backward(); print(z.grad)",
    "z = torch.tensor([1+2j, -3+0.5j, 0.5-1j], requires_grad=True); (z @ z).abs().backward(); "
    "print(z.grad)",
    "a = torch.randn(3, requires_grad=True); z = a * (1+2j); z.prod().real.backward(); "
    "print(a.grad)",
    # the layout of complex gradients: a real expanded gradient cast to complex is row-major
    "x = torch.randn(3, 4, 2, dtype=torch.complex64).transpose(0, -1).requires_grad_(); "
    "g, = torch.autograd.grad(x.abs().sum(), x); print(g.stride())",
    "x = torch.randn(3, 4, 2, dtype=torch.complex64).transpose(0, -1).requires_grad_(); "
    "y = torch.fft.fftn(x); g, = torch.autograd.grad(y.abs().sum(), x); print(g.stride())",
    "x = torch.randn(3, 4, 2, dtype=torch.complex64).transpose(0, -1).requires_grad_(); "
    "g, = torch.autograd.grad(x.exp().real.sum(), x); print(g.stride())",
    "b = torch.randn(2, 4, 3, dtype=torch.complex64).permute(2, 1, 0); "
    "print((torch.ones(1).expand(3, 4, 2) * b).stride(), "
    "(torch.ones(3, 4, 2)[:, ::2] + b[:, ::2]).stride())",
    # double backward through fft's cut to n (narrow): slice_backward's own node
    "x = torch.randn(4, 5, dtype=torch.complex64, requires_grad=True); "
    "y = torch.fft.ifft(x, n=3); g, = torch.autograd.grad(y.abs().sum(), x, create_graph=True); "
    "print(g.grad_fn.name()); h, = torch.autograd.grad(g.abs().sum(), x); print(h.stride())",
    "x = torch.randn(4, 5, requires_grad=True); "
    "g, = torch.autograd.grad(x[1:3, 1:].pow(2).sum(), x, create_graph=True); "
    "print(g.grad_fn.name()); print(torch.autograd.grad(g.pow(2).sum(), x)[0])",
    "x = torch.randn(4, 5, requires_grad=True); "
    "g, = torch.autograd.grad(x.select(1, 2).pow(2).sum(), x, create_graph=True); "
    "print(g.grad_fn.name()); print(torch.autograd.grad(g.pow(2).sum(), x)[0])",
    "b = torch.randn(2, 4, 3).permute(2, 1, 0); "
    "print((torch.ones(1).expand(3, 4, 2).double() * b).stride(), "
    "(b * torch.ones(3, 4, 2, dtype=torch.float64)).stride())",
]]

BUGS = [
    ("conj() is a copy (no lazy conjugate bit): view_as_real does not refuse it",
     "z = torch.tensor([0.1+0.2j]); print(torch.view_as_real(z.conj()))"),
    ("conj() is a copy: ifft of a real input gets the copy's stride for a size-1 dim",
     P + "p(torch.fft.ifft(torch.randn(3, 1, 4), dim=1))"),
    ("complex32 is missing", "print(torch.tensor(1.5, dtype=torch.float16) * 1j)"),
    ("sgn's complex gradient of a permuted input keeps its layout (torch's is row-major)",
     "x = torch.randn(3, 4, 2, dtype=torch.complex64).transpose(0, -1).requires_grad_(); "
     "g, = torch.autograd.grad(x.sgn().real.sum(), x); print(g.stride())"),
    ("a size-1 dim's stride after the cast to complex (ember's .to and conj are fresh copies)",
     "x = torch.randn(3, 4, 2)[..., ::2]; print(torch.fft.hfft(x, dim=0).stride())"),
    ("hfft2's gradient of a sliced input with create_graph: torch's comes out transposed",
     "x = torch.randn(4, 5, dtype=torch.complex128)[1:].requires_grad_(); "
     "y = torch.fft.hfft2(x, s=(5, -1)); "
     "g, = torch.autograd.grad(y.abs().sum(), x, create_graph=True); print(g.stride())"),
    ("irfft's gradient has +0 where torch's r2c kernel gives -0",
     "x = torch.randn(4, requires_grad=True); torch.fft.irfft(x, n=5).sum().backward(); "
     "print(x.grad)"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=150)
