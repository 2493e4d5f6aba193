"""Eager-mode static quantization against real torch: QuantStub/DeQuantStub, fuse_modules,
qconfigs, prepare (observers), calibration with HistogramObserver, convert, the quantized
layers' printed forms and state_dicts, and their outputs to the bit (`int_repr().tolist()`)
on the same models and data. Skipped without torch.

torch's x86 engine runs these layers with FBGEMM on CPUs without AVX512-VNNI (oneDNN for some
convolutions with it); ember computes as FBGEMM does. Inputs of the kernel checks stay below
128, as activations observed with `reduce_range` (the x86 default) do (NOTE [ Static
quantized kernels ]). The end-to-end programs use weights and inputs on coarse binary grids,
so that the float layers calibration runs are exact in both libraries."""
import pytest

torch = pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = pytest.mark.usefixtures("one_torch_thread")

_QUIET = "import warnings\nwarnings.simplefilter('ignore')\n"
_ERR = "except Exception as e: print(type(e).__name__, e)\n"

SNIPPETS = {
    "module_reprs": """nnq = torch.ao.nn.quantized
print(nnq.Conv2d(2, 3, 3), nnq.Conv2d(2, 4, (3, 1), stride=2, padding=1, dilation=2, groups=2, bias=False))
l = nnq.Linear(3, 2)
print(l, nnq.Quantize(0.1, 3, torch.quint8), nnq.DeQuantize(), nnq.QFunctional(), nnq.FloatFunctional())
print(l.bias(), l.weight().dtype, l.weight().qscheme(), l.scale, l.zero_point)
print(torch.ao.nn.intrinsic.quantized.ConvReLU2d(1, 2, 3), torch.ao.nn.intrinsic.quantized.LinearReLU(3, 2))
print(torch.nn.quantized.Conv2d is nnq.Conv2d, torch.nn.quantized.FloatFunctional is nnq.FloatFunctional)
old_nniq = __import__(torch.__name__ + '.nn.intrinsic.quantized', fromlist=['LinearReLU'])
print(torch.nn.intrinsic.ConvReLU2d is torch.ao.nn.intrinsic.ConvReLU2d, torch.nn.qat.Linear is torch.ao.nn.qat.Linear,
      old_nniq.LinearReLU is torch.ao.nn.intrinsic.quantized.LinearReLU)
print(sorted(nnq.Quantize(0.1, 3, torch.quint8).state_dict().items()))
print(list(nnq.Conv2d(1, 1, 1).state_dict()), list(l.state_dict()), nnq.QFunctional().state_dict())
try: nnq.FloatFunctional()(torch.ones(1))
""" + _ERR + """q = torch.quantize_per_tensor(torch.ones(2, 3), 0.1, 2, torch.quint8)
nniq = torch.ao.nn.intrinsic.quantized
for bad in (lambda: l(torch.ones(2, 3)), lambda: nnq.Conv2d(1, 1, 1)(torch.ones(1, 1, 2, 2)),
            lambda: nniq.ConvReLU2d(1, 1, 1)(torch.ones(1, 1, 2, 2)), lambda: nniq.LinearReLU(3, 1)(torch.ones(2, 3)),
            lambda: nnq.QFunctional().add(q, torch.ones(2, 3)), lambda: nnq.QFunctional().add_relu(torch.ones(2, 3), q),
            lambda: nnq.QFunctional().mul(q, torch.ones(2, 3)), lambda: nnq.QFunctional().mul(torch.ones(2, 3), q),
            lambda: nnq.QFunctional().cat([q, torch.ones(2, 3)]), lambda: nnq.Hardswish(0.1, 2)(torch.ones(2))):
    try: bad()
    except Exception as e: print(type(e).__name__, str(e).splitlines()[0])  # (torch adds its build's paths)
""",
    "stubs_and_fused": """tq = torch.ao.quantization
print(tq.QuantStub(), tq.DeQuantStub(), tq.QuantWrapper(torch.nn.Linear(2, 3)))
nni = torch.ao.nn.intrinsic
print(nni.ConvReLU2d(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU()))
print(nni.LinearReLU(torch.nn.Linear(1, 2), torch.nn.ReLU()))
print(nni.ConvBnReLU2d(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.ReLU()))
print(isinstance(nni.ConvReLU2d(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU()), torch.nn.Sequential))
try: nni.ConvReLU2d(torch.nn.Linear(1, 2), torch.nn.ReLU())
""" + _ERR,
    "qconfigs": """tq = torch.ao.quantization
for b in ('x86', 'fbgemm', 'qnnpack'):
    print(str(tq.get_default_qconfig(b)).replace('ember.', 'torch.'))
print(str(tq.default_per_channel_qconfig).replace('ember.', 'torch.'))
print(tq.get_default_qconfig('x86').activation(), tq.HistogramObserver(bins=16, reduce_range=True).quant_max)
for name in ('default_histogram_observer', 'default_histogram_fake_quant', 'default_qat_qconfig_v2',
             'default_weight_only_qconfig', 'default_activation_only_qconfig', 'default_qat_qconfig',
             'default_fused_act_fake_quant', 'default_per_channel_weight_fake_quant'):
    print(name, str(getattr(tq, name)).replace('ember.', 'torch.'))
print(tq.default_histogram_observer(), tq.default_histogram_fake_quant())
for b in ('x86', 'qnnpack'):
    print(str(tq.get_default_qat_qconfig(b, 0)).replace('ember.', 'torch.'))
try: tq.get_default_qconfig('cuda')
""" + _ERR + """try: tq.HistogramObserver(qscheme=torch.per_channel_affine)
""" + _ERR,
    "fuse": """tq = torch.ao.quantization
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3), torch.nn.BatchNorm2d(3), torch.nn.ReLU(),
                        torch.nn.Conv2d(3, 3, 1), torch.nn.ReLU(), torch.nn.Flatten(),
                        torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2), torch.nn.ReLU())
m[1].running_mean.uniform_(-1, 1); m[1].running_var.uniform_(0.5, 2); m[7].running_var.fill_(4.)
try: tq.fuse_modules(m, [['0', '1', '2']])
""" + _ERR + """m.eval()
f = tq.fuse_modules(m, [['0', '1', '2'], ['3', '4'], ['6', '7'], ['8', '9']])
print(f, m[0].weight.shape)
print(f[0][0].weight.tolist(), f[0][0].bias.tolist(), f[6].weight.tolist(), f[6].bias.tolist())
print(f[1].training, type(f[1]).__name__)
tq.fuse_modules(m, ['3', '4'], inplace=True); print(m[3], m[4])
for bad in (['0', '5'], []):
    try: tq.fuse_modules(m, [bad])
    except Exception as e: print(type(e).__name__, str(e).replace('ember.', 'torch.'))
q = tq.fuse_modules_qat(torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2)), [['0', '1']])
print(q)""",
    "prepare_convert_structure": """tq = torch.ao.quantization
torch.manual_seed(0)
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.conv = torch.nn.Conv2d(1, 2, 3)
        self.relu = torch.nn.ReLU()
        self.pool = torch.nn.MaxPool2d(2)
        self.drop = torch.nn.Dropout(0.5)
        self.seq = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
        self.ff = torch.ao.nn.quantized.FloatFunctional()
m = M().eval()
m.qconfig = tq.default_qconfig
m.seq[1].qconfig = None
p = tq.prepare(m)
print(p, m)
print([k for k in p.state_dict()], len(p.conv._forward_hooks))
print(p.seq[1].qconfig, p.seq[0].qconfig.activation().quant_max, type(p.ff.activation_post_process).__name__)
c = tq.convert(p, mapping={tq.QuantStub: torch.ao.nn.quantized.Quantize, torch.nn.Conv2d: torch.ao.nn.quantized.Conv2d})
print(c, hasattr(c, 'qconfig'), len(c.seq[0]._forward_hooks), hasattr(c.seq[0], 'activation_post_process'))
p2 = tq.prepare(torch.nn.Sequential(torch.nn.Linear(2, 2)))
print(p2)""",
    "histogram_observer": """torch.manual_seed(0)
o = torch.ao.quantization.HistogramObserver(reduce_range=True)
print(o, list(o.state_dict()), o.histogram.shape, o.dst_nbins, o.upsample_rate)
for x in (torch.randn(100), torch.randn(50) * 3, torch.rand(30), torch.randn(200) * 0.1 + 5):
    o(x)
    h = o.histogram
    print(o, h.sum().item(), h.nonzero().reshape(-1)[:12].tolist(), h[h > 0][:12].tolist())
    print(o.calculate_qparams())
s = torch.ao.quantization.HistogramObserver(bins=64, qscheme=torch.per_tensor_symmetric, dtype=torch.qint8)
s(torch.full((5,), 2.0)); print(s.histogram.tolist(), s.calculate_qparams())
s(torch.tensor([-1.0, 3.0])); print(s.histogram.tolist(), s, s.calculate_qparams())
e = torch.ao.quantization.HistogramObserver()
print(e.calculate_qparams())
e(torch.tensor([1.0, float('inf'), -2.0])); print(e, e.calculate_qparams())""",
}

SNIPPETS = {k: _QUIET + v for k, v in SNIPPETS.items()}


@pytest.mark.parametrize("snippet", cases(SNIPPETS))
def test_static_quantization_prints_like_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, f"torch printed:\n{expected}\nember printed:\n{got}"


def _layer_snippet(seed):
    """One quantized Conv2d/ConvReLU2d and Linear/LinearReLU with random weights (per tensor
    or per channel), bias, input and output parameters: the output integers."""
    return _QUIET + f"""import random
random.seed({seed}); torch.manual_seed({seed})
nnq, nniq = torch.ao.nn.quantized, torch.ao.nn.intrinsic.quantized
cin, cout, k = random.randint(1, 5), random.randint(1, 19), random.randint(1, 3)
groups = random.choice([g for g in (1, 2, 3) if cin % g == 0 and cout % g == 0])
per_channel, relu = random.random() < 0.5, random.random() < 0.4
def weight(*shape):
    w = torch.randn(*shape) * 0.3
    if per_channel:
        s = torch.rand(shape[0], dtype=torch.float64) * 0.01 + 0.001
        return torch.quantize_per_channel(w, s, torch.zeros(shape[0], dtype=torch.long), 0, torch.qint8)
    return torch.quantize_per_tensor(w, random.uniform(0.001, 0.01), 0, torch.qint8)
def data(*shape):
    ints = torch.randint(0, 128, shape, dtype=torch.uint8)
    return torch._make_per_tensor_quantized_tensor(ints, random.uniform(0.005, 0.05), random.randint(0, 127))
conv = (nniq.ConvReLU2d if relu else nnq.Conv2d)(cin, cout, k, stride=random.randint(1, 2),
        padding=random.randint(0, 1), dilation=random.randint(1, 2), groups=groups, bias=random.random() < 0.8)
conv.set_weight_bias(weight(cout, cin // groups, k, k), torch.randn(cout) if conv.bias() is not None else None)
conv.scale, conv.zero_point = random.uniform(0.01, 0.3), random.randint(0, 127)
x = data(2, cin, 7, 6)
print(conv, conv(x).int_repr().tolist())
lin = (nniq.LinearReLU if relu else nnq.Linear)(cin * 3, cout)
lin.set_weight_bias(weight(cout, cin * 3), torch.randn(cout) if random.random() < 0.8 else None)
lin.scale, lin.zero_point = random.uniform(0.01, 0.3), random.randint(0, 127)
y = lin(data(4, cin * 3))
print(lin, y.int_repr().tolist(), y.q_scale(), y.q_zero_point())"""


@pytest.mark.parametrize("seed", range(12))
def test_random_quantized_layers_bits_against_torch(seed):
    expected, got = compare(_layer_snippet(seed))
    assert got == expected


_SATURATING = _QUIET + """torch.manual_seed({seed})
nnq = torch.ao.nn.quantized
cin, cout, k, groups, stride, pad, per_channel = {config}
w = torch.randint(-127, 128, (cout, cin // groups, k, k)).float()
w = w.sign() * (w.abs() // 2 + 64) * 0.01        # (large weights of either sign)
if per_channel:
    wq = torch.quantize_per_channel(w, torch.full((cout,), 0.01, dtype=torch.float64),
                                    torch.zeros(cout, dtype=torch.long), 0, torch.qint8)
else:
    wq = torch.quantize_per_tensor(w, 0.01, 0, torch.qint8)
conv = nnq.Conv2d(cin, cout, k, stride=stride, padding=pad, groups=groups)
conv.set_weight_bias(wq, torch.randn(cout))
conv.scale, conv.zero_point = 30.0, 128
def data(*shape):
    ints = torch.randint(120, 256, shape, dtype=torch.uint8)
    return torch._make_per_tensor_quantized_tensor(ints, 0.02, 40)
print(conv(data(2, cin, 7, 6)).int_repr().tolist())
lin = nnq.Linear(cin * k, cout)
lin.set_weight_bias(torch.quantize_per_tensor(w.reshape(cout, -1)[:, :cin * k].contiguous(), 0.01, 0,
                                              torch.qint8), None)
lin.scale, lin.zero_point = 30.0, 128
try: print(lin(data(3, cin * k)).int_repr().tolist())
except Exception as e: print(type(e).__name__, e)
"""


@pytest.mark.parametrize("config", [
    (3, 4, 3, 1, 1, 0, True), (5, 6, 3, 1, 2, 1, False), (8, 8, 3, 8, 1, 1, True),
    (16, 16, 3, 16, 2, 1, False), (8, 8, 3, 4, 1, 1, True), (16, 32, 3, 4, 1, 1, False),
    (6, 6, 1, 1, 1, 0, True), (7, 5, 2, 1, 1, 0, False)])
def test_saturating_activations_bits_against_torch(config):
    """Inputs above 127 with large weights: FBGEMM's saturated 16-bit pair sums (standard,
    depthwise, grouped and pointwise convolutions, linear layers)."""
    expected, got = compare(_SATURATING.format(seed=sum(config), config=config))
    assert got == expected


_HARDSWISH = _QUIET + """import random
random.seed({seed}); torch.manual_seed({seed})
h = torch.ao.nn.quantized.Hardswish(random.uniform(0.01, 0.05), random.randint(0, 60))
lr = torch.ao.nn.quantized.LeakyReLU(random.uniform(0.01, 0.05), random.randint(0, 200), random.uniform(0.01, 0.3))
print(lr, list(lr.state_dict()))
for shape in [(7,), (64,), (100,), (2, 3, 50)]:
    ints = torch.randint(0, 256, shape, dtype=torch.uint8)
    q = torch._make_per_tensor_quantized_tensor(ints, random.uniform(0.01, 0.05), random.randint(0, 255))
    print(h(q).int_repr().tolist(), h(q[..., 3:]).int_repr().tolist())
    print(lr(q).int_repr().tolist(), lr(q[..., 3:]).int_repr().tolist())
try: lr(torch.ones(2))
except Exception as e: print(type(e).__name__, str(e).splitlines()[0])
m = torch.nn.Sequential(torch.ao.quantization.QuantStub(), torch.nn.Hardswish(), torch.nn.LeakyReLU(0.1),
                        torch.ao.quantization.DeQuantStub()).eval()
m.qconfig = torch.ao.quantization.get_default_qconfig('x86')
p = torch.ao.quantization.prepare(m)
p(torch.randn(300) * 4)
c = torch.ao.quantization.convert(p)
print(c, c.state_dict(), c(torch.randn(130) * 4).tolist())
"""


@pytest.mark.parametrize("seed", range(3))
def test_quantized_hardswish_and_leaky_relu_against_torch(seed):
    expected, got = compare(_HARDSWISH.format(seed=seed))
    assert got == expected


def _functional_snippet(seed):
    """QFunctional add, add_relu, mul and cat on random per-tensor quint8 inputs (sizes
    around torch's 64-element vector steps, contiguous and sliced), and exact ties."""
    return _QUIET + f"""import random
random.seed({seed}); torch.manual_seed({seed})
f = torch.ao.nn.quantized.QFunctional()
f.scale, f.zero_point = random.uniform(0.02, 0.1), random.randint(0, 255)
def data(*shape):
    ints = torch.randint(0, 256, shape, dtype=torch.uint8)
    return torch._make_per_tensor_quantized_tensor(ints, random.uniform(0.005, 0.05), random.randint(0, 255))
for shape in [(7,), (64,), (100,), (3, 5, 50), (2, 130)]:
    a, b = data(*shape), data(*shape)
    print(f.add(a, b).int_repr().tolist(), f.add_relu(a, b).int_repr().tolist())
    print(f.mul(a, b).int_repr().tolist())
a, b = data(2, 8, 70), data(2, 4, 70)
print(f.add(a[:, :4], b).int_repr().tolist(), f.add(a[:, 2:6, 3:], b[..., 3:]).int_repr().tolist())
print(f.cat([a, b], 1).int_repr().tolist(), f.cat([a, a], 0).int_repr().tolist())
f.scale, f.zero_point = a.q_scale(), a.q_zero_point()
print(f.cat([a, a], 2).int_repr().tolist())
t = torch._make_per_tensor_quantized_tensor(torch.arange(130, dtype=torch.uint8) % 10, 0.5, 0)
z = torch._make_per_tensor_quantized_tensor(torch.zeros(130, dtype=torch.uint8), 0.25, 0)
f.scale, f.zero_point = 1.0, {seed % 4}
print(f.add(t, z).int_repr().tolist(), f.mul(t, t).int_repr().tolist())
a, b = data(3, 70), data(70)
print(f.add(a, b).int_repr().tolist(), f.add_relu(b, a[:2]).int_repr().tolist(), f.mul(a, b).int_repr().tolist())
print(f.add(data(2, 1, 80), data(3, 80)).int_repr().tolist())"""


@pytest.mark.parametrize("seed", range(6))
def test_random_qfunctional_bits_against_torch(seed):
    expected, got = compare(_functional_snippet(seed))
    assert got == expected


POOLING = _QUIET + """F = torch.nn.functional
torch.manual_seed({seed})
for shape in [(2, 3, 7, 6), (1, 5, 4, 4), (2, 16, 9, 5)]:
    q = torch._make_per_tensor_quantized_tensor(torch.randint(0, 256, shape, dtype=torch.uint8),
                                                0.1, {seed} * 20)
    print(F.max_pool2d(q, 2).int_repr().tolist(), torch.nn.MaxPool2d(3, 2, 1, ceil_mode=True)(q))
    print(F.adaptive_avg_pool2d(q, 1).int_repr().tolist(), torch.nn.AdaptiveAvgPool2d((2, 3))(q))
    print(F.adaptive_avg_pool2d(q, (3, None)).int_repr().tolist(), q.mean([2, 3]), q.mean())
    print(q.mean((1, 2, 3)).int_repr().tolist(), q.mean(-1).int_repr().tolist(), q.mean(0).q_scale())
    print(torch.nn.Flatten()(q).shape, torch.nn.Dropout().eval()(q).dtype)
    for scale in (0.1, 0.048, 0.02):
        r = torch._make_per_tensor_quantized_tensor(q.int_repr(), scale, {seed} * 3)
        print(F.relu6(r).int_repr().tolist(), torch.ao.nn.quantized.ReLU6()(r).q_scale())
m = torch.nn.Sequential(torch.ao.quantization.QuantStub(), torch.nn.Conv2d(1, 2, 2),
                        torch.nn.ReLU6(), torch.ao.quantization.DeQuantStub()).eval()
with torch.no_grad():
    for w in m.parameters():
        w.copy_((w * 8).round() / 8)
m.qconfig = torch.ao.quantization.default_qconfig
p = torch.ao.quantization.prepare(m)
p((torch.randn(2, 1, 4, 4) * 8).round() / 4)
c = torch.ao.quantization.convert(p)
print(p, c, c((torch.randn(2, 1, 4, 4) * 8).round() / 4).tolist())
"""


@pytest.mark.parametrize("seed", range(3))
def test_quantized_pooling_and_mean_against_torch(seed):
    expected, got = compare(POOLING.format(seed=seed))
    assert got == expected


_MOBILE = _QUIET + """tq = torch.ao.quantization
torch.manual_seed({seed})
def grid(t, step):
    return (t / step).round() * step
class Block(torch.nn.Module):          # (MobileNetV2's inverted residual, much smaller)
    def __init__(self, c):
        super().__init__()
        self.conv = torch.nn.Sequential(
            torch.nn.Conv2d(c, 2 * c, 1, bias=False), torch.nn.BatchNorm2d(2 * c, eps=0.0), torch.nn.ReLU(),
            torch.nn.Conv2d(2 * c, 2 * c, 3, padding=1, groups=2 * c, bias=False),
            torch.nn.BatchNorm2d(2 * c, eps=0.0), torch.nn.ReLU(),
            torch.nn.Conv2d(2 * c, c, 1, bias=False), torch.nn.BatchNorm2d(c, eps=0.0))
        self.skip_add = torch.nn.quantized.FloatFunctional()
    def forward(self, x):
        return self.skip_add.add(x, self.conv(x))
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.block = Block(2)
        self.pool = torch.nn.MaxPool2d(2)
        self.classifier = torch.nn.Sequential(torch.nn.Dropout(0.2), torch.nn.Linear(2, 3))
    def forward(self, x):
        x = self.pool(self.block(self.quant(x)))
        return self.dequant(self.classifier(x.mean([2, 3])))
m = Net()
with torch.no_grad():
    for p in m.parameters():
        p.copy_(grid(p, 1 / 4))
    for b in (m.block.conv[1], m.block.conv[4], m.block.conv[7]):
        b.running_var.fill_(0.25); b.running_mean.copy_(grid(torch.randn(b.num_features), 1 / 4))
m.eval()
tq.fuse_modules(m.block.conv, [['0', '1', '2'], ['3', '4', '5'], ['6', '7']], inplace=True)
m.qconfig = tq.get_default_qconfig('{backend}')
tq.prepare(m, inplace=True)
for _ in range(3):
    m(grid(torch.randn(2, 2, 8, 8), 1 / 4))
print(m)
tq.convert(m, inplace=True)
print(m)
x = grid(torch.randn(2, 2, 8, 8), 1 / 8)
print(m(x).tolist())
"""


@pytest.mark.parametrize("seed,backend", [(0, "x86"), (1, "qnnpack")])
def test_mobilenet_like_model_against_torch(seed, backend):
    """Fused pointwise and depthwise convolutions, a FloatFunctional skip connection, max
    pooling, a mean over the spatial dims and a Dropout before the classifier."""
    expected, got = compare(_MOBILE.format(seed=seed, backend=backend))
    assert got == expected, f"torch printed:\n{expected}\nember printed:\n{got}"


_MODEL = """
tq = torch.ao.quantization
torch.manual_seed({seed})
def grid(t, step):          # values on a binary grid, so that float layers are exact
    return (t / step).round() * step
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv = torch.nn.Conv2d(1, 4, 3)
        self.bn = torch.nn.BatchNorm2d(4, eps=0.0)
        self.relu = torch.nn.ReLU()
        self.conv2 = torch.nn.Conv2d(4, 4, 3, padding=1)
        self.relu2 = torch.nn.ReLU()
        self.fc = torch.nn.Linear(64, 6)
        self.relu3 = torch.nn.ReLU()
        self.fc2 = torch.nn.Linear(6, 3)
        self.ff = torch.ao.nn.quantized.FloatFunctional()
        self.dequant = tq.DeQuantStub()
    def forward(self, x):
        x = self.quant(x)
        x = self.relu(self.bn(self.conv(x)))
        x = self.ff.add(x, self.relu2(self.conv2(x)))
        x = self.relu3(self.fc(x.reshape(x.shape[0], -1)))
        return self.dequant(self.fc2(x))
m = Net()
with torch.no_grad():
    for p in m.parameters():
        p.copy_(grid(p, 1 / 8))
    m.bn.running_var.fill_(0.25); m.bn.running_mean.copy_(grid(torch.randn(4), 1 / 4))
    m.bn.weight.copy_(grid(torch.rand(4) + 0.5, 1 / 4))
m.eval()
m = tq.fuse_modules(m, [['conv', 'bn', 'relu'], ['conv2', 'relu2'], ['fc', 'relu3']])
m.qconfig = tq.get_default_qconfig('{backend}')
p = tq.prepare(m)
for _ in range(4):
    p(grid(torch.randn(2, 1, 6, 6) * {spread}, 1 / 4))
print(p)
q = tq.convert(p)
print(q)
x = grid(torch.randn(3, 1, 6, 6), 1 / 8)
print(q(x).tolist(), q.conv(q.quant(x)).int_repr().tolist())
sd = q.state_dict()
print(list(sd), sd['conv.weight'], sd['fc._packed_params._packed_params'][0].int_repr().tolist())
q2 = tq.convert(tq.prepare(m))
q2.load_state_dict(sd)
print(q2(x).tolist() == q(x).tolist(), q2)
"""


@pytest.mark.parametrize("seed,backend,spread", [(0, "x86", 1.0), (1, "fbgemm", 3.0),
                                                 (2, "qnnpack", 0.5), (3, "x86", 2.0)])
def test_post_training_static_quantization_against_torch(seed, backend, spread):
    expected, got = compare(_QUIET + _MODEL.format(seed=seed, backend=backend, spread=spread))
    assert got == expected, f"torch printed:\n{expected}\nember printed:\n{got}"


FAKE_QUANT = _QUIET + """tq = torch.ao.quantization
torch.manual_seed({seed})
mods = [tq.get_default_qat_qconfig('{backend}').activation(), tq.get_default_qat_qconfig('{backend}').weight(),
        tq.get_default_qat_qconfig('{backend}', 0).activation(), tq.get_default_qat_qconfig('{backend}', 0).weight(),
        tq.FakeQuantize(quant_min=-128, quant_max=127, dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)]
print(mods)
for step in range(4):
    x = (torch.randn(3, 6) * (1 + step)).requires_grad_()
    for m in mods:
        y = m(x)
        y.sum().backward()
        print(y.tolist(), x.grad.tolist(), m.scale.tolist(), m.zero_point.tolist())
        x.grad = None
print(mods[1].activation_post_process, list(mods[1].state_dict()))
mods[0].disable_observer(); mods[0].apply(tq.disable_fake_quant)
print(mods[0](torch.ones(2) * 100).tolist(), mods[0])
mods[2].load_state_dict(mods[3].state_dict()); print(mods[2].scale, mods[2].zero_point)
print(tq.MovingAverageMinMaxObserver(averaging_constant=0.5)(torch.ones(2)), tq.MovingAveragePerChannelMinMaxObserver(ch_axis=1))
"""


@pytest.mark.parametrize("seed,backend", [(0, "x86"), (1, "qnnpack"), (2, "fbgemm")])
def test_fake_quantize_modules_against_torch(seed, backend):
    """FakeQuantize and FusedMovingAvgObsFakeQuantize (per tensor and per channel): printed
    forms, outputs, straight-through gradients and the parameters over several inputs."""
    expected, got = compare(FAKE_QUANT.format(seed=seed, backend=backend))
    assert got == expected, f"torch printed:\n{expected}\nember printed:\n{got}"


QAT = _QUIET + """tq = torch.ao.quantization
torch.manual_seed({seed})
def grid(t, step):
    return (t / step).round() * step
def data(*shape):     # (0 and top/32 present: the input's fake-quant scale is 1/32)
    x = grid(torch.rand(*shape) * {top} / 32, 1 / 32)
    x.view(-1)[0], x.view(-1)[1] = 0.0, {top} / 32
    return x
m = torch.nn.Sequential(tq.QuantStub(), {layers}, tq.DeQuantStub())
with torch.no_grad():       # (each output channel's largest weight 127/128: scales 1/128)
    m[1].weight.copy_(grid(m[1].weight.clamp(-0.9, 0.9), 1 / 128))
    m[1].weight.view(m[1].weight.shape[0], -1)[:, 0] = 127 / 128
    m[1].bias.copy_(grid(m[1].bias, 1 / 8))
m = tq.fuse_modules_qat(m, [['1', '2']])
m.qconfig = tq.get_default_qat_qconfig('{backend}')
p = tq.prepare_qat(m)
print(p, list(p.state_dict()))
out = p(data({shape}))
print(out.tolist(), p[1].weight_fake_quant.scale.tolist(), p[1].activation_post_process.scale.tolist())
out.sum().backward()
print(p[1].weight.grad.tolist())
c = tq.convert(p.eval())
print(c, c(data({shape})).tolist())
for bad in (lambda: tq.prepare_qat(m.eval()), lambda: torch.ao.nn.qat.Linear(2, 3)):
    try: bad()
    except Exception as e: print(type(e).__name__, e)
"""

_CONV = "torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU()"
_LINEAR = "torch.nn.Linear(6, 3), torch.nn.ReLU()"


@pytest.mark.parametrize("seed,backend,layers,shape,top", [
    (0, "x86", _CONV, "4, 1, 4, 4", 127), (1, "qnnpack", _CONV, "3, 1, 5, 4", 255),
    (2, "x86", _LINEAR, "5, 6", 127), (3, "qnnpack", _LINEAR, "4, 6", 255)])
def test_prepare_qat_and_convert_against_torch(seed, backend, layers, shape, top):
    """fuse_modules_qat, prepare_qat (a QAT layer with its weight fake-quantizer and a
    fake-quantized output), a forward and backward pass, and convert. The input and the
    weights lie on the grids of their fake-quantizers' scales (1/32, 1/128), so the float
    layer is exact in both."""
    expected, got = compare(QAT.format(seed=seed, backend=backend, layers=layers, shape=shape,
                                       top=top))
    assert got == expected, f"torch printed:\n{expected}\nember printed:\n{got}"
