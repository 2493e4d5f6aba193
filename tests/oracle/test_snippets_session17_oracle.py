"""Programs run under real torch and under ember (`import ember as torch`): what they print must
be identical. torch's float32 GELU kernels (NOTE [ torch's GELU kernels ]): oneDNN's gelu_erf
for a contiguous input, forward and backward, and ATen's vector kernel for a transposed one,
printed bit for bit; sums over merged runs of dims (x.mean((2, 3)), x.sum((0, 2, 3))) and
batch norm's arithmetic (NOTE [ torch's batch norm arithmetic ]) in torch's order.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    'gelu_bits_contiguous_and_gradient': r'''
torch.manual_seed(0)
x = (torch.randn(2000) * 3).requires_grad_()
y = torch.nn.functional.gelu(x)
print(y.view(torch.int32).sum().item(), y.sum().item())
print([float(v) for v in y[:8]])
y.backward(torch.randn(2000))
print(x.grad.view(torch.int32).sum().item(), x.grad.sum().item())
print(torch.nn.functional.gelu(torch.tensor([-30.0, -13.0, -0.0, 0.0, 1e-30, 20.0])))
''',
    'gelu_bits_transposed_and_tails': r'''
torch.manual_seed(1)
m = torch.randn(48, 40) * 2
for name, t in [("t", m.t()), ("rows of 32", m[:, :32]), ("17", m[0, :17]), ("one", m[:1, :1])]:
    y = torch.nn.functional.gelu(t)
    print(name, y.stride(), [float(v) for v in y.flatten()[:5]], y.double().sum().item())
''',
    'gelu_tanh_values_and_gradient': r'''
torch.manual_seed(3)
x = (torch.randn(3000) * 2).requires_grad_()
y = torch.nn.functional.gelu(x, approximate='tanh')
y.backward(torch.ones(3000))
print([float(v) for v in y[:6]], [float(v) for v in x.grad[:6]])
print(torch.nn.GELU(approximate='tanh')(torch.tensor([-3.0, -0.5, 0.0, 0.7, 2.5])))
''',
    'reductions_over_merged_dims': r'''
torch.manual_seed(4)
x = torch.randn(16, 32, 8, 8)
for name, v in [("mean(2,3)", x.mean((2, 3))), ("sum(-1,-2)", x.sum((-1, -2))),
                ("sum(0,2,3)", x.sum((0, 2, 3))), ("mean(0,2,3)", x.mean((0, 2, 3), keepdim=True)),
                ("sum(1,2)", x.sum((1, 2))), ("pool", torch.nn.functional.adaptive_avg_pool2d(x, 1)),
                ("pool module", torch.nn.AdaptiveAvgPool2d((1, 1))(x)), ("sum(1,2,3)", x.sum((1, 2, 3)))]:
    print(name, tuple(v.shape), v.view(torch.int32).sum().item(), float(v.flatten()[0]))
''',
    'batch_norm_bits': r'''
torch.manual_seed(5)
for shape in [(16, 8, 6, 6), (7, 3, 9, 11), (4, 6, 10)]:
    x = torch.randn(*shape) * 2 + 0.3
    bn = (torch.nn.BatchNorm2d if len(shape) == 4 else torch.nn.BatchNorm1d)(shape[1])
    with torch.no_grad():
        bn.weight.normal_(1, 0.1); bn.bias.normal_(0, 0.1)
    for step in range(3):
        y = bn(x * (step + 1))
        print(shape, step, y.view(torch.int32).sum().item(), bn.running_mean.tolist()[:2],
              bn.running_var.tolist()[:2])
    print(" eval", bn.eval()(x).view(torch.int32).sum().item())
    cumulative = (torch.nn.BatchNorm2d if len(shape) == 4 else torch.nn.BatchNorm1d)(
        shape[1], affine=False, momentum=None)
    for step in range(3):
        y = cumulative(x + step)
    print(" cumulative", y.view(torch.int32).sum().item(), cumulative.running_var.tolist()[:2])
print(torch.nn.BatchNorm2d(2)(torch.arange(18.).reshape(1, 2, 3, 3)))
''',
    'softmax_gradients_along_other_dims': r'''
torch.manual_seed(6)
for shape, dim in [((64, 32), 0), ((8, 10, 5, 5), 1), ((4, 7, 33), 1), ((6, 5, 3, 7), -3)]:
    x = torch.randn(*shape, requires_grad=True)
    y = torch.softmax(x, dim)
    y.backward(torch.randn(*shape))
    print(shape, y.view(torch.int32).sum().item(), x.grad.view(torch.int32).sum().item())
''',
    'layer_norm_bits': r'''
torch.manual_seed(7)
for shape, ns in [((4, 10), (10,)), ((2, 5, 768), (768,)), ((3, 4, 6), (4, 6)), ((7, 37), (37,)),
                  ((5, 300), (300,)), ((2, 3, 1000), (1000,))]:
    x = torch.randn(*shape) * 3 + 0.5
    ln = torch.nn.LayerNorm(ns)
    with torch.no_grad():
        ln.weight.normal_(1, 0.2); ln.bias.normal_(0, 0.2)
    y, mean, rstd = torch.native_layer_norm(x, ns, None, None, 1e-5)
    print(shape, ln(x).view(torch.int32).sum().item(), y.view(torch.int32).sum().item(),
          mean.view(-1)[:2].tolist(), rstd.view(-1)[:2].tolist(),
          torch.nn.functional.layer_norm(x, ns, bias=ln.bias).view(torch.int32).sum().item())
print(torch.nn.LayerNorm(3)(torch.tensor([[1., 2., 3.], [2., 4., 8.]])))
''',
    'group_norm_bits': r'''
torch.manual_seed(8)
for shape, G in [((4, 8, 6, 6), 4), ((2, 6, 10), 3), ((3, 32, 4, 4), 8), ((2, 4, 3, 3), 1)]:
    x = torch.randn(*shape) * 2 + 0.5
    gn = torch.nn.GroupNorm(G, shape[1])
    with torch.no_grad():
        gn.weight.normal_(1, 0.2); gn.bias.normal_(0, 0.2)
    o, m, r = torch.native_group_norm(x, None, None, shape[0], shape[1], x[0, 0].numel(), G, 1e-5)
    print(shape, G, gn(x).view(torch.int32).sum().item(), o.view(torch.int32).sum().item(),
          torch.nn.functional.group_norm(x, G, bias=gn.bias).view(torch.int32).sum().item(),
          m.view(-1)[:2].tolist(), r.view(-1)[:2].tolist(),
          torch.nn.functional.instance_norm(x).view(torch.int32).sum().item())
''',
    'layer_norm_gradients': r'''
torch.manual_seed(9)
for shape, ns in [((4, 10), (10,)), ((2, 5, 64), (64,)), ((3, 4, 6), (4, 6)), ((7, 37), (37,)),
                  ((6, 5), (5,)), ((9, 256), (256,))]:
    for affine in (True, False):
        x = (torch.randn(*shape) * 3 + 0.5).requires_grad_()
        ln = torch.nn.LayerNorm(ns, elementwise_affine=affine)
        if affine:
            with torch.no_grad():
                ln.weight.normal_(1, 0.2); ln.bias.normal_(0, 0.2)
        ln(x).backward(torch.randn(*shape))
        print(shape, affine, x.grad.view(torch.int32).sum().item(),
              ln.bias.grad.view(torch.int32).sum().item() if affine else None)
''',
    'batch_norm_gradients': r'''
torch.manual_seed(10)
for shape in [(16, 8, 6, 6), (32, 16, 5, 5), (7, 3, 9, 11), (4, 6, 10), (5, 3, 2, 2)]:
    for affine in (True, False):
        x = (torch.randn(*shape) * 2 + 0.3).requires_grad_()
        bn = (torch.nn.BatchNorm2d if len(shape) == 4 else torch.nn.BatchNorm1d)(shape[1],
                                                                             affine=affine)
        if affine:
            with torch.no_grad():
                bn.weight.normal_(1, 0.1); bn.bias.normal_(0, 0.1)
        bn(x).backward(torch.randn(*shape))
        print(shape, affine, x.grad.view(torch.int32).sum().item(),
              bn.weight.grad.tolist()[:2] if affine else None,
              bn.bias.grad.tolist()[:2] if affine else None)
''',
    'batch_norm_1d_rows': r'''
torch.manual_seed(11)
for N, C in [(16, 7), (64, 10), (5, 3), (128, 33)]:
    bn = torch.nn.BatchNorm1d(C)
    with torch.no_grad():
        bn.weight.normal_(1, 0.1); bn.bias.normal_(0, 0.1)
    for step in range(3):
        y = bn(torch.randn(N, C) * 2 + 0.5)
        print(N, C, y.view(torch.int32).sum().item(), bn.running_mean.tolist()[:2],
              bn.running_var.tolist()[:2])
    print(" eval", bn.eval()(torch.randn(N, C)).view(torch.int32).sum().item())
''',
    'adaptive_avg_pool_order': r'''
torch.manual_seed(12)
for shape, osz in [((2, 3, 9, 9), (2, 2)), ((2, 3, 9, 9), (3, 4)), ((4, 8, 14, 14), (7, 7)),
                   ((3, 5, 7), 3), ((2, 4, 6, 6, 6), (2, 3, 4))]:
    x = torch.randn(*shape, requires_grad=True)
    f = {4: torch.nn.functional.adaptive_avg_pool2d, 3: torch.nn.functional.adaptive_avg_pool1d,
         5: torch.nn.functional.adaptive_avg_pool3d}[len(shape)]
    y = f(x, osz)
    y.backward(torch.randn(*y.shape))
    print(shape, osz, y.view(torch.int32).sum().item(), x.grad.view(torch.int32).sum().item())
''',
    'avg_pool_gradients': r'''
torch.manual_seed(13)
for (k, s, p, cip, ceil) in [(3, 1, 1, True, False), (3, 2, 0, True, False), (3, 1, 1, False, False),
                             (2, 2, 0, True, False), (3, 2, 1, True, True), (3, 2, 1, False, True)]:
    x = torch.randn(2, 3, 9, 9, requires_grad=True)
    y = torch.nn.functional.avg_pool2d(x, k, s, p, ceil_mode=ceil, count_include_pad=cip)
    y.backward(torch.randn(*y.shape))
    print((k, s, p, cip), y.view(torch.int32).sum().item(), x.grad.view(torch.int32).sum().item())
''',
    'nearest_upsample_gradients': r'''
torch.manual_seed(14)
F = torch.nn.functional
for shape, kw in [((2, 3, 5, 5), dict(scale_factor=2)), ((2, 3, 5, 7), dict(scale_factor=3)),
                  ((2, 3, 5, 5), dict(size=(7, 9))), ((2, 3, 8), dict(scale_factor=2)),
                  ((1, 2, 3, 4, 5), dict(scale_factor=2)), ((2, 3, 9, 9), dict(size=(4, 5)))]:
    x = torch.randn(*shape, requires_grad=True)
    y = F.interpolate(x, mode='nearest', **kw)
    y.backward(torch.randn(*y.shape))
    print(shape, tuple(y.shape), x.grad.view(torch.int32).sum().item())
''',
    'gelu_mlp_training': r'''
torch.manual_seed(2)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = torch.randn(64, 8), torch.randn(64, 1)
for step in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
