"""Programs run under real torch and under ember (`import ember as torch`): what they print must
be identical. Layer norm's weight and bias gradients summed over the rows by torch's threads
(NOTE [ torch's layer norm backward ]): each program sets the thread count of both libraries,
so the bits are compared at one, two and three threads. The float32 dot product of two
vectors in MKL's sdot order (NOTE [ MKL's sdot ]).
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
PROGRAMS['dot_products_in_mkl_order'] = r'''
torch.manual_seed(0)
for n in (2, 4, 7, 9, 16, 23, 31, 64, 257, 3000):
    a, b = torch.randn(n), torch.randn(n)
    print(n, torch.dot(a, b).item(), (a @ b).item(), torch.inner(a, b).item(),
          torch.vdot(a, b).item(), torch.tensordot(a, b, 1).item())
m = torch.randn(3, 5, requires_grad=True)
w = torch.randn(3, 5)
out = torch.tensordot(m, w, 2)
out.backward()
print(out.item(), out.grad_fn.name(), out.grad_fn.next_functions[0][0].name(), m.grad.equal(w))
big = torch.randn(40)
print(torch.dot(big[4:36], big[8:40]).item(), torch.dot(big[:33], big[:33]).item())
x = torch.randn(6, requires_grad=True)
y = torch.dot(x, x)
y.backward()
print(y.item(), x.grad.equal(2 * x))
'''
PROGRAMS['long_dot'] = r'''
torch.manual_seed(0)
a, b = torch.randn(2000), torch.randn(2000)
print((a @ b).item())
'''
PROGRAMS['tensordot_of_everything_is_a_dot'] = r'''
x = torch.ones(2, 3, requires_grad=True)
r = torch.tensordot(x, x.sin(), dims=2)
print([type(f).__name__ for f, _ in r.grad_fn.next_functions])
dot = r.grad_fn.next_functions[0][0]
print(dot._saved_self.shape, dot._saved_tensor.shape)
'''
PROGRAMS['ignore_index_of_one_element_tensors'] = r'''
torch.manual_seed(0)
x = torch.randn(4, 3); t = torch.tensor([0, 1, 2, 1])
for ii in (torch.tensor(1), torch.tensor([1]), torch.tensor([[1]]), torch.tensor([1], dtype=torch.uint8), torch.tensor([1, 2]), torch.tensor(1.0), 1.0, True, -100):
    for f in (lambda: torch.nn.functional.cross_entropy(x, t, ignore_index=ii), lambda: torch.nn.functional.nll_loss(x, t, ignore_index=ii), lambda: torch.nn.CrossEntropyLoss(ignore_index=ii)(x, t), lambda: torch.nn.functional.cross_entropy(x.unsqueeze(-1), t.unsqueeze(-1), ignore_index=ii, reduction='none')):
        try: print(f())
        except Exception as e: print(type(e).__name__, e)
'''
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
