"""F.pad and the padding layers against real torch: printed results, node names, gradients and
error texts over every mode, batched and unbatched shapes, positive, negative and too-large
pads. Skipped when torch is not installed."""
import itertools

import pytest

torch = pytest.importorskip("torch")

from differential import compare  # noqa: E402

SHAPES = [(5,), (3, 5), (2, 3, 5), (2, 3, 4, 5), (1, 2, 3, 4, 5), (2, 1, 2, 3, 4, 5)]
PADS = [(1,), (1, 2), (-1, 2), (2, -1), (0, 0), (4, 4), (5, 0), (-3, -3), (-5, 0), (6, 0),
        (1, 1, 2, 2), (1, -1, -2, 2), (3, 3, 3, 3), (1, 1, 1, 1, 1, 1), (2, 0, 0, 1, 1, 0),
        (1, 1, 1, 1, 1, 1, 1, 1), (-6, 1), (-1, -1, -2, -2), (-5, 0, 0, -3),
        (-5, 0, -4, 0, -3, -1), (0, 0, -3, 0)]
MODES = ["constant", "reflect", "replicate", "circular"]


def _pad_snippet(shape, pad, mode):
    return (f"x = torch.arange(float(np.prod({shape}))).reshape({shape}).double()"
            f".requires_grad_()\n"
            f"y = torch.nn.functional.pad(x, {pad}, mode='{mode}')\n"
            f"print(y.shape, y.grad_fn.name() if y.grad_fn is not None else None)\nprint(y)\n"
            f"y.backward(torch.arange(float(y.numel())).reshape(y.shape).to(y.dtype))\n"
            f"print(x.grad)")


def _pad_cases():
    for mode, shape, pad in itertools.product(MODES, SHAPES, PADS):
        # NOTE: circular (1, -1, -2, 2) of a (2, 3, 5) input copies between overlapping slices;
        # torch refuses or not depending on the memory layout, ember always refuses.
        if not (mode == "circular" and shape == (2, 3, 5) and pad == (1, -1, -2, 2)):
            yield _pad_snippet(shape, pad, mode)


EXTRA = [
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1, 1), mode='bogus'))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1, 1, 1), mode='reflect'))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1.0, 1)))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1, 1.0)))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), [True, False]))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), 1))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), None))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (np.int64(1), 1)))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), torch.Size([1, 2])))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1, 1), value=1 + 2j))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1, 1), 'reflect', 0))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1, 1), 'circular', 2.0))",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (), mode='reflect'))",
    "print(torch.nn.functional.pad(torch.ones(()), ()))",
    "print(torch.nn.functional.pad(torch.ones(2, 3).t(), (1, 1)).stride())",
    "print(torch.nn.functional.pad(torch.ones(2, 3), (1, 1), value=float('nan')))",
]
for dtype, value in [("uint8", -1), ("uint8", 255.9), ("uint8", -0.5), ("int32", 2 ** 40),
                     ("int32", 7.9), ("int64", float("inf")), ("int16", -40000),
                     ("float32", 1e300), ("float32", float("inf")), ("float16", 1e6),
                     ("bool", 5), ("complex64", 2), ("int32", float("nan"))]:
    EXTRA.append(f"print(torch.nn.functional.pad(torch.zeros(1, 3, dtype=torch.{dtype}), "
                 f"(1, 1), value={value!r}))".replace("inf)", "float('inf'))")
                 .replace("nan)", "float('nan'))"))
for dtype, mode in itertools.product(["bool", "int64", "float16", "bfloat16", "complex64"],
                                     MODES[1:]):
    EXTRA.append(f"print(torch.nn.functional.pad(torch.ones(1, 3, dtype=torch.{dtype}), (1, 2),"
                 f" mode='{mode}'))")
for mode, shape, pad in itertools.product(
        ["reflect", "replicate", "circular"],
        [(2, 0), (0, 3), (2, 0, 5), (0, 3, 5), (0, 2, 3, 5), (2, 0, 3, 5), (1, 2, 0, 3, 5)],
        [(1, 1), (1, 1, 1, 1), (1, 1, 1, 1, 1, 1), (-5, 0)]):
    EXTRA.append(f"print(torch.nn.functional.pad(torch.zeros({shape}), {pad}, mode='{mode}')"
                 f".shape)")
for mode, shape, pad in itertools.product(
        ["reflect", "replicate"], [(2, 3, 5), (2, 3, 4, 5)],
        [(5, -11), (5, 0, 3, 0), (0, 0, 3, 0, 2, 0), (-6, 5), (5, -6), (-6, 0, 0, 0),
         (-6, -6, -3, -3), (7, 0, -3, 0), (-5, 0, -4, 0, -3, 5), (-5, 0, -4, 0, -3, 0)]):
    EXTRA.append(f"print(torch.nn.functional.pad(torch.zeros({shape}), {pad}, mode='{mode}')"
                 f".shape)")

LAYERS = [f"{kind}Pad{d}d" for kind in ("Zero", "Constant", "Reflection", "Replication",
                                        "Circular") for d in (1, 2, 3)]


def _layer_cases():
    for name in LAYERS:
        extra = ", 1.5" if name.startswith("Constant") else ""
        for arg in ["2", "(1, 2)", "(1, 2, 3, 0)", "(1, 0, 2, 1, 0, 1)", "[1, -1]"]:
            yield (f"m = torch.nn.{name}({arg}{extra})\n"
                   f"print(m, m.padding, type(m.padding).__name__, getattr(m, 'value', None))\n"
                   f"print([c.__name__ for c in type(m).__mro__], m.state_dict())")
            for shape in [(3, 4), (2, 3, 4), (2, 3, 4, 5), (1, 2, 3, 4, 5), (4,)]:
                yield (f"m = torch.nn.{name}({arg}{extra})\n"
                       f"x = torch.arange(float(np.prod({shape}))).reshape({shape}).double()"
                       f".requires_grad_()\ny = m(x)\n"
                       f"print(y.shape, y.grad_fn.name() if y.grad_fn is not None else None)\n"
                       f"print(y)\ny.backward(torch.ones_like(y))\nprint(x.grad)")
    yield "print(torch.nn.ConstantPad1d(2))"
    yield "print(torch.nn.ZeroPad1d(2, 1))"
    yield ("print(torch.nn.Sequential(torch.nn.ReflectionPad2d(1), "
           "torch.nn.ZeroPad2d((1, 2, 0, 0))))")


WRONG_INPUTS = [f"print(torch.nn.{layer}({tensor}))"
                for layer in ["ZeroPad2d(1)", "ConstantPad1d(1, 2)", "ReflectionPad2d(1)",
                              "ReplicationPad3d(1)", "CircularPad1d(1)"]
                for tensor in ["torch.ones(2, 3, 4, dtype=torch.int64)", "torch.ones(())",
                               "torch.ones(2, 3, 4, dtype=torch.float16)",
                               "torch.ones(2, 3, 4, 5, dtype=torch.bool)",
                               "torch.ones(2, 3, 4, dtype=torch.complex64)"]]


@pytest.mark.parametrize("snippet", list(_pad_cases()) + EXTRA + list(_layer_cases())
                         + WRONG_INPUTS)
def test_padding_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet


def test_double_backward_against_torch():
    snippet = ("x = torch.tensor(np.linspace(-1, 1, 24).reshape(2, 3, 4), requires_grad=True)\n"
               "for mode in ['constant', 'reflect', 'replicate', 'circular']:\n"
               "    y = torch.nn.functional.pad(x, (2, 1, 1, 0), mode=mode).pow(3).sum()\n"
               "    (g,) = torch.autograd.grad(y, x, create_graph=True)\n"
               "    (h,) = torch.autograd.grad(g.sin().sum(), x)\n"
               "    print(mode, round(g.sum().item(), 10), h)")
    expected, got = compare(snippet)
    assert got == expected
