"""torch.nn.grad (convolution gradients with respect to input and weight), run under real torch
and under ember (`import ember as torch`): what each snippet prints must be identical."""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("torch.manual_seed(0)\n"
         "x = torch.randn(1, 2, 5, 5, dtype=torch.float64)\n"
         "w = torch.randn(3, 2, 3, 3, dtype=torch.float64)\n"
         "go = torch.randn(1, 3, 3, 3, dtype=torch.float64)\n")

SNIPPETS = [SETUP + s for s in [
    "g = torch.nn.grad.conv2d_input(x.shape, w, go); print(g.shape, g.grad_fn, g.round(decimals=6))",
    "g = torch.nn.grad.conv2d_weight(x, w.shape, go); print(g.shape, g.round(decimals=6))",
    "go2 = torch.randn(1, 3, 2, 5, dtype=torch.float64)\n"
    "print(torch.nn.grad.conv2d_input(x.shape, w, go2, stride=(2, 1), padding=(0, 1))"
    ".round(decimals=6))",
    "x1 = torch.randn(2, 4, 9); w1 = torch.randn(6, 2, 3)\n"
    "go1 = torch.randn(2, 6, 5)\n"
    "print(torch.nn.grad.conv1d_weight(x1, w1.shape, go1, 2, 1, 1, 2).round(decimals=4))",
    "x3 = torch.randn(1, 2, 4, 4, 4); w3 = torch.randn(2, 2, 2, 2, 2)\n"
    "go3 = torch.randn(1, 2, 3, 3, 3)\n"
    "print(torch.nn.grad.conv3d_input(x3.shape, w3, go3).sum().round(decimals=3))",
    "print(torch.nn.functional.grad is torch.nn.grad)",
    "try:\n    torch.nn.grad.conv2d_input((1, 2, 5), w, go)\n"
    "except Exception as e:\n    print(type(e).__name__, e)",
    "try:\n    torch.nn.grad.conv2d_weight(x[0], w.shape, go)\n"
    "except Exception as e:\n    print(type(e).__name__, e)",
]]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, (), at_least=8)
