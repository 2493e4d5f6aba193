"""Short snippets on complex tensors, run under real torch and under ember
(`import ember as torch`): what they print, including an exception's type and first line,
must be identical.

Construction and printing, real/imag/abs/angle/conj views, view_as_real/complex, polar,
arithmetic and promotion with Python complex numbers, reductions, linalg (eig, norms, vdot),
element-wise functions, comparisons' errors, complex autograd, seeded complex draws, and
linspace/logspace with complex ends. `tests/oracle/differential.py` runs each snippet.
"""
import pytest

pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SNIPPETS = [
    'z = torch.tensor([1+2j, -3+0.5j, 0-1j])',
    'print(z, z.dtype)',
    'print(z.real, z.imag, z.abs(), z.angle())',
    'print(torch.view_as_real(z))',
    'print(torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]])))',
    'print(z.conj(), z.conj().is_conj())',
    'print(z.conj_physical())',
    'print(torch.polar(torch.tensor([1., 2.]), torch.tensor([0., 3.14159/2])))',
    'print(torch.complex(torch.tensor([1., 2.]), torch.tensor([3., 4.])))',
    'print(z * 2, z + 1, z / (1+1j))',
    'print(z.sum(), z.mean(), z.prod())',
    'print(torch.exp(z), torch.log(z))',
    'print(torch.sqrt(z))',
    'print(z.dtype.is_complex, torch.is_complex(z))',
    'print(torch.zeros(2, dtype=torch.complex128))',
    'print(z.to(torch.complex128))',
    'print(z.abs().dtype)',
    'print((z == z.conj()))',
    'print(z @ z)',
    'print(torch.tensor([[1+1j, 2], [3, 4j]]) @ torch.tensor([[1, 0], [0, 1j]]))',
    'print(z.real.stride(), z.imag.stride())',
    'z.real[0] = 10; print(z)',
    'print(torch.tensor(1+1j).item())',
    'print(torch.tensor([1+1j]).tolist())',
    'print(torch.linalg.norm(z))',
    'print(torch.vdot(z, z))',
    'print(torch.dot(z, z))',
    'print(z.sgn())',
    'print(torch.sign(z))',
    'print(z < z)',
    'print(z.max())',
    'print(torch.sort(z))',
    'print(z.float())',
    'print(torch.tensor([1.5, 2.5]).to(torch.complex64))',
    'print(torch.tensor([1, 2]) + 1j)',
    'print(torch.tensor([True]) * 1j)',
    'print(z.reciprocal())',
    'print(z ** 2, z ** 0.5)',
    'print(2 ** z)',
    'print(torch.isfinite(z), torch.isnan(z))',
    "print(torch.tensor([complex('nan'), complex('inf')]))",
    'print(torch.fft.fft(torch.tensor([1., 2., 3., 4.])))',
    'print(torch.real(torch.tensor([1., 2.])))',
    'print(torch.imag(torch.tensor([1., 2.])))',
    'print(torch.angle(torch.tensor([-1., 2.])))',
    'print(torch.abs(torch.tensor([-1+0j])).dtype)',
    'x = torch.tensor([1+1j, 2-1j], requires_grad=True)\ny = (x * x.conj()).real.sum(); y.backward(); print(x.grad)',
    'x = torch.tensor([1+1j, 2-1j], requires_grad=True)\n(x.abs() ** 2).sum().backward(); print(x.grad)',
    'x = torch.tensor([1+1j], requires_grad=True)\ntry:\n    (x * 2).backward()\nexcept Exception as e: print(type(e).__name__, e)',
    'x = torch.tensor([1+1j], requires_grad=True)\n(x * 2).sum().abs().backward(); print(x.grad)',
    'print(torch.tensor([[1+1j, 2]]).T)',
    'print(torch.tensor([[1+1j, 2]]).mH)',
    'print(torch.tensor([[1+1j, 2]]).H)',
    'print(torch.cat([z, torch.tensor([1.0])]))',
    'print(torch.stack([z, z]).shape)',
    'print(torch.where(z.real > 0, z, torch.tensor(0j)))',
    'print(torch.tensor(3+4j).abs())',
    'print(z.clone().resolve_conj())',
    'print(torch.tensor([1+2j]).numpy())',
    'print(torch.from_numpy(np.array([1+2j])).dtype)',
    'print(torch.linalg.eigvals(torch.tensor([[0., -1.], [1., 0.]])))',
    'print(torch.linalg.eig(torch.tensor([[2., 0.], [0., 3.]])))',
    'print(torch.tensor([1j]).double())',
    'print(torch.tensor([1+1j]).to(torch.int64))',
    'print(torch.tensor([1+1j]).bool())',
    'print(torch.ones(2, dtype=torch.complex64).mean())',
    'print(torch.tensor([3+4j]).norm())',
    'print(torch.std(torch.tensor([1+1j, 2+2j, 3+3j])))',
    'print(torch.var(torch.tensor([1+1j, 2+2j, 3+3j])))',
    'print(torch.cumsum(z, 0))',
    'print(torch.diff(z))',
    'print(torch.allclose(z, z))',
    'print(torch.isclose(z, z + 1e-9))',
    'print(torch.tensor([1+1j]).masked_fill(torch.tensor([True]), 5))',
    'print(torch.full((2,), 1+1j))',
    'print(torch.arange(3) * (1+1j))',
    'print(torch.linspace(0, 1+1j, 3))',
    'print(torch.tensor([1+1j], dtype=torch.complex64).element_size())',
    'print(torch.tensor([1+1j]).is_floating_point())',
    'print(torch.tensor([0j]).sigmoid())',
    'print(torch.tensor([1+1j]).tanh())',
    'print(torch.tensor([1+1j]).sin())',
    'print(torch.tensor([2+0j]).log10())',
    'print(torch.tensor([2+0j]).log2())',
    'print(torch.tensor([1+1j]).rsqrt())',
    'print(torch.tensor([1+1j]).square())',
    'print(torch.tensor([1+1j]).neg())',
    'print(torch.tensor([1+1j]).exp2())',
    'torch.manual_seed(0); print(torch.randn(2, 2, dtype=torch.complex64))',
    'torch.manual_seed(0); print(torch.randn(3, dtype=torch.complex128))',
    'torch.manual_seed(0); print(torch.randn(5, dtype=torch.cfloat))',
    'torch.manual_seed(0); print(torch.rand(3, dtype=torch.complex64))',
    'torch.manual_seed(0); print(torch.randn(20, dtype=torch.complex64)[-3:])',
    'torch.manual_seed(0); print(torch.randn(9, dtype=torch.complex64)[-3:])',
    'torch.manual_seed(0); x = torch.empty(3, dtype=torch.complex64).normal_(); print(x)',
    'print(torch.linspace(1j, 2, 4))',
    'print(torch.logspace(0, 1j, 3))',
    'print(torch.linspace(0, 1, 3, dtype=torch.complex64))',
    'print(torch.tensor([0j, 1+0j]).sigmoid())',
    'print(torch.tensor([0j]).exp())',
    'print(torch.tensor([0j]).tanh())',
    'print(torch.randn(3, dtype=torch.cfloat).dtype)',
]

BUGS = [
    ('no complex32: float16 with a complex number gives complex64',
     'print(torch.tensor([1.0], dtype=torch.float16) + 1j)'),
]


@pytest.mark.parametrize("snippet", cases(SNIPPETS, BUGS))
def test_snippet_prints_like_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected


def test_there_are_many_snippets():
    assert len(SNIPPETS) >= 100
    assert len(set(SNIPPETS)) == len(SNIPPETS)
