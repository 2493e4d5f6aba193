"""Tensor creation, run under real torch and under ember (`import ember as torch`): what each
snippet prints, including an exception's type and first line, must be identical.

zeros/ones/full/empty and their _like/new_ forms, eye, arange/linspace/logspace edges,
`tensor`/`as_tensor`/`asarray`/`from_numpy`/`frombuffer` inference, copying and sharing,
strided factories, index factories, printing of extreme values and reduced floats.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SNIPPETS = [
    'print(torch.zeros(2, 3, dtype=torch.int32), torch.ones((2,), dtype=torch.bool))',
    'print(torch.full((2, 2), 7), torch.full((2,), 1.5), torch.full((2,), True), torch.full((1,), 2 + 1j))',
    'print(torch.full((2,), 3, dtype=torch.float16))',
    'print(torch.empty(0, 3).shape, torch.zeros([]).shape, torch.zeros(()).dim())',
    'print(torch.eye(3, 2), torch.eye(2, dtype=torch.int64))',
    'print(torch.arange(0, 1, 0.25), torch.arange(5, 0, -2), torch.arange(1, 2.5, 0.5, dtype=torch.float64))',
    'print(torch.arange(10, dtype=torch.int8)[-1], torch.arange(0.0, 1.0, 0.1).shape)',
    'print(torch.arange(-1.5, 1.5))',
    'try:\n    torch.arange(0, 10, 0)\nexcept RuntimeError as e: print(e)',
    'try:\n    torch.arange(0, -10, 1)\nexcept RuntimeError as e: print(e)',
    'print(torch.linspace(0, 10, 5, dtype=torch.int64), torch.linspace(0, 1, 1), torch.linspace(0, 1, 0))',
    'print(torch.logspace(0, 2, 3), torch.logspace(0, 2, 3, base=2))',
    'print(torch.tensor([[1, 2], [3, 4]], dtype=torch.float64), torch.tensor([1, 2.5]), torch.tensor([True, 1]))',
    'print(torch.tensor([1, 2]).dtype, torch.tensor([1., 2]).dtype, torch.tensor([1j]).dtype, torch.tensor(3.0).dtype)',
    'try:\n    torch.tensor([[1, 2], [3]])\nexcept ValueError as e: print(e)',
    "try:\n    torch.tensor([1, 'a'])\nexcept Exception as e: print(type(e).__name__, e)",
    'print(torch.tensor([]), torch.tensor([[]]).shape, torch.tensor([[], []]).shape)',
    'print(torch.tensor(np.float32(2.5)), torch.tensor(np.int16(3)).dtype, torch.tensor(np.bool_(True)))',
    'print(torch.tensor([np.float32(1), np.float32(2)]).dtype)',
    'print(torch.tensor([torch.tensor(1.), torch.tensor(2.)]))',
    'print(torch.tensor(range(4)), torch.tensor((1, 2, 3)))',
    'print(torch.zeros_like(torch.ones(2, 3), dtype=torch.int64), torch.ones_like(torch.ones(2)), torch.full_like(torch.ones(2), 9))',
    'print(torch.empty_like(torch.ones(2, 3)).shape, torch.rand_like(torch.ones(2)).shape)',
    'print(torch.empty_strided((2, 3), (1, 2)).stride(), torch.as_strided(torch.arange(6.), (2, 2), (1, 2)))',
    'print(torch.as_strided(torch.arange(9), (2, 2), (3, 1), 4))',
    'print(torch.scalar_tensor(3), torch.scalar_tensor(3, dtype=torch.int64))',
    'print(torch.tril_indices(3, 3), torch.triu_indices(3, 3, 1), torch.tril_indices(2, 3, -1))',
    "print(torch.frombuffer(bytearray(b'\\x01\\x02\\x03\\x04'), dtype=torch.uint8))",
    'print(torch.frombuffer(bytearray(8), dtype=torch.float32).shape)',
    'print(torch.from_numpy(np.arange(6).reshape(2, 3)[:, ::2]))',
    "try:\n    torch.from_numpy(np.array(['a']))\nexcept TypeError as e: print(e)",
    'print(torch.heaviside(torch.tensor([-1., 0., 2.]), torch.tensor(0.5)))',
    'print(torch.zeros(2, 3).new_zeros(4), torch.zeros(2, dtype=torch.int8).new_full((2,), 5), torch.ones(1).new_empty(3).shape)',
    'print(torch.zeros(size=(2, 3)).shape, torch.ones(size=[2]).shape)',
    'try:\n    torch.zeros(-1)\nexcept RuntimeError as e: print(e)',
    'try:\n    torch.ones(2, 3.0)\nexcept TypeError as e: print(e)',
    'try:\n    torch.full((2,), None)\nexcept TypeError as e: print(e)',
    'print(torch.zeros(torch.Size([2, 2])), torch.ones(torch.tensor(3)).shape)',
    'print(torch.randn(torch.Size([2])).shape, torch.rand((2, 1)).shape)',
    'print(torch.tensor([1, 2], dtype=torch.float32, requires_grad=True))',
    'try:\n    torch.tensor([1, 2], requires_grad=True)\nexcept RuntimeError as e: print(e)',
    'print(torch.complex(torch.tensor([1.]), torch.tensor([2.])).dtype, torch.polar(torch.tensor([1.], dtype=torch.float64), torch.tensor([0.], dtype=torch.float64)).dtype)',
    'print(torch.eye(0), torch.eye(1, 0))',
    'print(torch.zeros(2, 0, 3), torch.ones(0))',
    "print(torch.tensor(float('inf')), torch.tensor([float('nan'), -float('inf')]))",
    'print(torch.tensor([1e20, 1e-20]), torch.tensor([100000.0, 1.0]), torch.tensor([123456789.0]))',
    'print(torch.tensor([1, 2], dtype=torch.uint8) - 3)',
    'print(torch.tensor(2**63 - 1), torch.tensor(-2**63))',
    'try:\n    torch.tensor(2**64)\nexcept Exception as e: print(type(e).__name__, e)',
    'print(torch.tensor([0.1, 0.2], dtype=torch.bfloat16), torch.tensor([0.1], dtype=torch.float16))',
    'print(torch.tensor([[0.1, 2000.0], [3.0, 4.0]]))',
    'print(torch.arange(12).reshape(3, 4).float() / 3)',
    'print(torch.tensor([1.0, 2.0]).numpy().dtype, torch.tensor([1, 2]).numpy().dtype)',
    'print(torch.asarray([1, 2]), torch.asarray(np.ones(2), dtype=torch.float32), torch.asarray(3.0))',
    'a = np.ones(3); t = torch.asarray(a); a[0] = 5; print(t)',
    'a = np.ones(3); t = torch.tensor(a); a[0] = 5; print(t)',
    'a = np.ones(3); t = torch.as_tensor(a); a[0] = 5; print(t)',
    'a = torch.ones(3); t = torch.as_tensor(a, dtype=torch.int64); print(t, t is a)',
    "print(torch.range(0, 3) if hasattr(torch, 'range') else None)",
    "print(torch.empty(2, 2, dtype=torch.float64).dtype, torch.empty((3,), device='cpu').device)",
    'print(torch.ones(2, 2).to(memory_format=torch.channels_last).is_contiguous() if False else torch.ones(1, 2, 3, 3).to(memory_format=torch.channels_last).stride())',
    'print(torch.zeros_like(torch.ones(1, 2, 3, 3).to(memory_format=torch.channels_last)).stride())',
    'print(torch.diag_embed(torch.tensor([1, 2])), torch.vander(torch.tensor([1, 2, 3]), N=2))',
    'print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))',
    'print(torch.block_diag(torch.ones(1, 2), torch.eye(2)))',
    "print(torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing='xy')[0])",
    "print(torch.tensor(np.array([1, 2], dtype=np.uint16)).dtype if hasattr(torch, 'uint16') else 0)",
]

# only integers wrap into unsigned types: a negative floating number overflows
SNIPPETS += [
    "for v in (-0.5, -1.0, -0.0, -1, 255.5, -255):\n"
    "    try:\n        print(torch.full((2,), v, dtype=torch.uint8))\n"
    "    except RuntimeError as e:\n        print(e)",
    "x = torch.zeros(3, dtype=torch.uint8)\n"
    "for f in (lambda: x.fill_(-0.5), lambda: x.masked_fill_(x == 0, -2.0), "
    "lambda: x.__setitem__(0, -1.0), lambda: torch.full_like(x, -1.0)):\n"
    "    try:\n        print(f())\n    except RuntimeError as e:\n        print(e)",
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, at_least=60)
