"""Programs run under real torch and under ember (`import ember as torch`): what they print must
be identical. Layer norm's weight and bias gradients summed over the rows by torch's threads
(NOTE [ torch's layer norm backward ]): each program sets the thread count of both libraries,
so the bits are compared at one, two and three threads.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

_LN = r'''
torch.set_num_threads({threads})
torch.manual_seed(0)
for shape, normalized in [((3, 10), 10), ((4, 5, 16), 16), ((2, 3, 4, 6), (4, 6)),
                          ((40, 1), 1), ((7, 37), 37)]:
    ln = torch.nn.LayerNorm(normalized)
    with torch.no_grad():
        ln.weight.normal_()
        ln.bias.normal_()
    x = (torch.randn(shape) * 3 + 1).requires_grad_()
    ln(x).backward(torch.randn(shape))
    print(shape, [float(v) for v in ln.weight.grad.flatten()[:6]])
    print(ln.bias.grad.view(torch.int32).sum().item(), ln.weight.grad.view(torch.int32).sum().item())
    print(x.grad.view(torch.int32).sum().item())
ln = torch.nn.LayerNorm(8, bias=False)
x = torch.randn(5, 8, requires_grad=True)
torch.nn.functional.mse_loss(ln(x), torch.zeros(5, 8)).backward()
print([float(v) for v in ln.weight.grad])
torch.set_num_threads(1)
'''

PROGRAMS = {f'layer_norm_parameter_gradients_{n}_threads': _LN.replace('{threads}', str(n))
            for n in (1, 2, 3)}
PROGRAMS['transformer_layer_norm_gradients'] = r'''
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
                                         batch_first=True)
x = torch.randn(2, 3, 8)
layer(x).pow(2).mean().backward()
print([round(float(v), 4) for v in layer.norm1.weight.grad])
print([round(float(v), 4) for v in layer.norm2.bias.grad])
'''

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
