"""Quantization-aware training of convolutions (and Linear) with their BatchNorm
(fuse_modules_qat of [conv, bn(, relu)], prepare_qat's torch.ao.nn.intrinsic.qat.ConvBn*/
ConvBnReLU*/LinearBn1d, training steps, freeze_bn_stats, convert) against real torch:
printed models, parameter and state_dict names, losses, outputs and the converted layers.
Skipped without torch."""
import pytest

torch = pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# The tutorial's pattern: conv, bn, relu fused for QAT, trained, frozen, converted.
_MODEL = """nn = torch.nn
torch.manual_seed({seed})
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.conv = nn.Conv{d}d(2, 4, 3{conv_args}); self.bn = nn.BatchNorm{d}d(4)
        self.relu = nn.ReLU()
        self.fc = nn.Linear({features}, 5)
        self.dequant = torch.ao.quantization.DeQuantStub()
    def forward(self, x):
        x = self.quant(x)
        x = {body}
        x = x.reshape(x.shape[0], -1)
        return self.dequant(self.fc(x))
m = M().train()
m.qconfig = torch.ao.quantization.get_default_qat_qconfig("{backend}")
mf = torch.ao.quantization.fuse_modules_qat(m, [{names}])
print(mf)
mp = torch.ao.quantization.prepare_qat(mf)
print(mp.conv)
print([n for n, _ in mp.named_parameters()])
print(list(mp.state_dict()))
opt = torch.optim.SGD(mp.parameters(), lr=0.05, momentum=0.9)
x = torch.randn(6, 2, {shape}); y = torch.randint(0, 5, (6,))
for i in range(4):
    if i == 3:
        mp.apply(torch.ao.quantization.disable_observer)
        mp.apply(torch.ao.nn.intrinsic.qat.freeze_bn_stats)
    loss = nn.functional.cross_entropy(mp(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, round(loss.item(), 4), mp.conv.freeze_bn, mp.conv.bn.training)
print(mp.conv.bn.running_mean.add(1), mp.conv.bn.running_var, mp.conv.bn.num_batches_tracked)
print(mp.conv.weight_fake_quant.scale)
print(mp.conv.bn.weight.grad, mp.conv.weight.grad.sum())
mp.eval()
print(mp.conv.training, mp.conv.bn.training, mp.conv.weight_fake_quant.training)
print(mp(x)[:2])
"""

_CONVERT = """mq = torch.ao.quantization.convert(mp)
import re
print(re.sub(r"scale=([0-9.e-]+),", lambda g: f"scale={float(g.group(1)):.6g},", str(mq)))
print(mq.conv.weight(), [round(b, 4) for b in mq.conv.bias().tolist()])
print(mq(x)[:2])
"""


def _program(d=2, relu=True, bias=True, backend="fbgemm", seed=0, convert=True):
    """The program for a d-dimensional conv (with bn, and relu if `relu`)."""
    names = '["conv", "bn", "relu"]' if relu else '["conv", "bn"]'
    body = "self.relu(self.bn(self.conv(x)))" if relu else "self.bn(self.conv(x))"
    shape = {1: "9", 2: "7, 7", 3: "4, 5, 4"}[d]
    features = {1: 4 * 7, 2: 4 * 25, 3: 4 * 2 * 3 * 2}[d]
    conv_args = "" if bias else ", bias=False"
    text = _MODEL.format(d=d, seed=seed, conv_args=conv_args, features=features, body=body,
                         backend=backend, names=names, shape=shape)
    return text + (_CONVERT if convert else "")


PROGRAMS = {
    "conv_bn_relu_2d": _program(),
    "conv_bn_2d": _program(relu=False),
    "conv_bn_relu_2d_no_bias": _program(bias=False, seed=3),
    "conv_bn_2d_x86": _program(relu=False, backend="x86", seed=1),
    "conv_bn_relu_1d": _program(d=1),
    "conv_bn_1d": _program(d=1, relu=False, bias=False, seed=2),
    "conv_bn_relu_3d": _program(d=3, seed=5),
    "conv_bn_3d": _program(d=3, relu=False, seed=6),
}

MODULES = {
    "linear_bn": """L = torch.ao.nn.intrinsic.qat.LinearBn1d
qc = torch.ao.quantization.get_default_qat_qconfig('fbgemm')
torch.manual_seed(0)
m = L(3, 2, bias=False, qconfig=qc); print(m); print([n for n,_ in m.named_parameters()], list(m.state_dict()), m.freeze_bn, m.bn.training)
print(torch.rand(1), m.bn.weight)
m.freeze_bn_stats(); m.train(); print(m.bn.training); m.eval(); m.train(); print(m.bn.training)
m.update_bn_stats(); print(m.bn.training)
torch.ao.nn.intrinsic.qat.freeze_bn_stats(m); print(m.freeze_bn)
try: L.from_float(torch.nn.Linear(1,1))
except Exception as e: print(e)
torch.manual_seed(1)
s = torch.nn.Sequential(torch.ao.quantization.QuantStub(), torch.nn.Linear(6,4), torch.nn.BatchNorm1d(4), torch.nn.ReLU(), torch.nn.Linear(4, 3), torch.ao.quantization.DeQuantStub()).train(); s.qconfig=qc
p = torch.ao.quantization.prepare_qat(torch.ao.quantization.fuse_modules_qat(s, [['1','2']]))
print(p[1])
opt = torch.optim.SGD(p.parameters(), lr=0.1)
x = torch.randn(8, 6); y = torch.randint(0, 3, (8,))
for i in range(4):
    if i == 3: p[1].freeze_bn_stats(); p.apply(torch.ao.quantization.disable_observer)
    loss = torch.nn.functional.cross_entropy(p(x), y); opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 4), p[1].bn.training)
print(p[1].bn.running_mean, p[1].bn.running_var, p[1].bn.weight.grad, p[1].weight.grad.sum())
p.eval(); print(p(x)[:2])
print(p[1].to_float())
q = torch.ao.quantization.convert(p)
print(type(q[1]).__name__, q[1].weight().int_repr(), [round(b, 4) for b in q[1].bias().tolist()], q[1].zero_point, round(q[1].scale, 6))
print(q(x)[:2])""",
    "static_conv3d": """torch.manual_seed(0)
nn = torch.nn
for engine in ("fbgemm", "qnnpack"):
    m = nn.Sequential(torch.ao.quantization.QuantStub(), nn.Conv3d(2, 4, 3, padding=1), nn.ReLU(),
                      nn.Conv3d(4, 2, (1, 2, 2), stride=(1, 2, 1), groups=2, dilation=(2, 1, 1)),
                      torch.ao.quantization.DeQuantStub()).eval()
    m.qconfig = torch.ao.quantization.get_default_qconfig(engine)
    p = torch.ao.quantization.prepare(torch.ao.quantization.fuse_modules(m, [["1", "2"]]))
    x = torch.randn(3, 2, 4, 5, 4) * 4
    p(x)
    q = torch.ao.quantization.convert(p)
    print(q[1].weight().int_repr()[0, 0], q[1].weight().qscheme(), q[1].bias())
    print(type(q[1]).__name__, type(q[3]).__name__, q[3].zero_point, round(q[3].scale, 6))
    print(q[1].zero_point, round(q[1].scale, 6), q(x)[0, 0], q(x).sum(), list(q[1].state_dict()))
print(torch.ao.nn.quantized.Conv3d(2, 4, (1, 2, 3), padding=(0, 1, 0), dilation=2, bias=False))
print(torch.ao.nn.intrinsic.quantized.ConvReLU3d(2, 4, 3))
try: q[1](torch.quantize_per_tensor(x, 0.05, 64, torch.quint8)[0])
except Exception as e: print(type(e).__name__, e)""",
    "qat_conv_1d_3d_and_conv_relu": """qc = torch.ao.quantization.get_default_qat_qconfig("fbgemm")
print(torch.ao.nn.qat.Conv1d(2, 3, 2, qconfig=qc))
print(torch.ao.nn.intrinsic.qat.ConvReLU3d(2, 3, 2, qconfig=qc))
for f in (lambda: torch.ao.nn.qat.Conv1d.from_float(torch.nn.Conv2d(1, 1, 1)),
          lambda: torch.ao.nn.intrinsic.qat.ConvReLU1d.from_float(torch.nn.Conv1d(1, 1, 1))):
    try: f()
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Conv3d(1, 2, 2), torch.nn.ReLU(), torch.nn.Conv3d(2, 2, 1),
                        torch.nn.Conv1d(1, 2, 1), torch.nn.Conv1d(1, 2, 1), torch.nn.ReLU())
m.train().qconfig = qc
p = torch.ao.quantization.prepare_qat(torch.ao.quantization.fuse_modules_qat(m, [["0", "1"], ["4", "5"]]))
print(p)
x = torch.randn(2, 1, 3, 3, 3)
y = p[:3](x); print(y.sum(), p[0].weight_fake_quant.scale, p[2].weight_fake_quant.scale)
y.sum().backward(); print(p[0].weight.grad.sum())""",
    "static_conv1d": """torch.manual_seed(0)
nn = torch.nn
for engine in ("fbgemm", "qnnpack"):
    m = nn.Sequential(torch.ao.quantization.QuantStub(), nn.Conv1d(6, 4, 3, padding=1), nn.ReLU(),
                      nn.Conv1d(4, 2, 2, stride=2, groups=2, bias=False),
                      torch.ao.quantization.DeQuantStub()).eval()
    m.qconfig = torch.ao.quantization.get_default_qconfig(engine)
    p = torch.ao.quantization.prepare(torch.ao.quantization.fuse_modules(m, [["1", "2"]]))
    x = torch.randn(5, 6, 11) * 4
    p(x)
    q = torch.ao.quantization.convert(p)
    print(q[1].weight().int_repr(), q[1].weight().qscheme(), q[1].bias())
    print(type(q[1]).__name__, type(q[3]).__name__, q[3].zero_point, round(q[3].scale, 6))
    print(q(x), list(q[1].state_dict()))
print(torch.ao.nn.quantized.Conv1d(2, 4, 3, padding=1, stride=2, dilation=2, groups=2, bias=False))
print(torch.ao.nn.intrinsic.quantized.ConvReLU1d(2, 4, 3))
try: q[1](torch.quantize_per_tensor(x, 0.05, 64, torch.quint8)[0])
except Exception as e: print(type(e).__name__, e)""",
    "construct_and_modes": """qc = torch.ao.quantization.get_default_qat_qconfig("fbgemm")
torch.manual_seed(0)
for cls in (torch.ao.nn.intrinsic.qat.ConvBn1d, torch.ao.nn.intrinsic.qat.ConvBnReLU2d,
            torch.ao.nn.intrinsic.qat.ConvBn3d):
    m = cls(2, 3, 3, bias=True, padding=1, qconfig=qc)
    print(m); print([n for n, _ in m.named_parameters()], m.freeze_bn, m.bn.training)
    print(m.weight.sum(), m.bias, m.bn.weight)
print(torch.rand(2))
m = torch.ao.nn.intrinsic.qat.ConvBn2d(2, 3, 1, freeze_bn=True, qconfig=qc)
print(m.freeze_bn, m.bn.training)
m.train(); print(m.training, m.bn.training, m.weight_fake_quant.training)
m.eval(); print(m.training, m.bn.training, m.weight_fake_quant.training)
m.update_bn_stats(); print(m.freeze_bn, m.bn.training)
m.eval(); print(m.training, m.bn.training, m.weight_fake_quant.training)
m.train(); m.freeze_bn_stats(); print(m.freeze_bn, m.bn.training)
try: torch.ao.nn.intrinsic.qat.ConvBn2d(2, 3, 1)
except Exception as e: print(type(e).__name__, e)""",
    "forward_eval_and_to_float": """qc = torch.ao.quantization.get_default_qat_qconfig("fbgemm")
torch.manual_seed(1)
m = torch.ao.nn.intrinsic.qat.ConvBnReLU2d(3, 4, 3, stride=2, padding=1, bias=True, qconfig=qc)
x = torch.randn(4, 3, 9, 9)
print(m(x).sum(), m.bn.running_mean, m.weight_fake_quant.scale)
m.bn.running_var.fill_(2.0)
m.eval(); y = m(x); print(y.sum(), y[0, 0, 0])
f = m.to_float(); print(f); print(f[0].weight.sum(), f[0].bias)
print((f(x) - y).abs().max() < 0.1)
m2 = torch.ao.nn.intrinsic.qat.ConvBn1d(3, 4, 3, qconfig=qc)
print(m2.to_float())""",
    "grad_through_fake_quant": """qc = torch.ao.quantization.get_default_qat_qconfig("fbgemm")
torch.manual_seed(2)
m = torch.ao.nn.intrinsic.qat.ConvBn2d(2, 3, 2, bias=True, qconfig=qc)
x = torch.randn(3, 2, 4, 4, requires_grad=True)
g = torch.linspace(-1, 2, 3 * 3 * 3 * 3).reshape(3, 3, 3, 3)
(m(x) * g).sum().backward()
print(m.weight.grad, m.bn.weight.grad, m.bn.bias.grad, x.grad[0, 0])
print(m.bias.grad.abs().max() < 1e-5)   # (a bias before batch statistics cancels)
m.apply(torch.ao.quantization.disable_fake_quant); m.zero_grad(); m.eval()
(m(x) * g).sum().backward(); print(m.weight.grad.sum(), m.bn.weight.grad, m.bias.grad)
m.apply(torch.ao.quantization.enable_fake_quant); print(m.weight_fake_quant.fake_quant_enabled)""",
    "fuse_modules_qat_errors": """nn = torch.nn
s = nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.ReLU())
print(torch.ao.quantization.fuse_modules_qat(s, [["0", "1", "2"]]))
print(torch.ao.quantization.fuse_modules_qat(nn.Sequential(nn.Conv3d(1, 2, 1), nn.BatchNorm3d(2)), ["0", "1"]))
print(torch.ao.quantization.fuse_modules(s.eval(), [["0", "1", "2"]]))
for bad in (nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(4)),
            nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3, affine=False))):
    try: torch.ao.quantization.fuse_modules_qat(bad, ["0", "1"])
    except Exception as e: print(type(e).__name__, e)
try: torch.ao.nn.intrinsic.qat.ConvBn2d.from_float(nn.Conv2d(1, 1, 1))
except Exception as e: print(type(e).__name__, e)""",
}


@pytest.mark.parametrize("snippet", cases(PROGRAMS))
def test_qat_conv_bn_programs_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet


@pytest.mark.parametrize("snippet", cases(MODULES))
def test_qat_conv_bn_modules_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet
