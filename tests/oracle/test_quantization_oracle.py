"""Quantized tensors, fake quantization, observers and dynamic quantization against real torch:
printed forms, integer representations, gradients, error texts, and the outputs (to the bit,
through `tolist()`) of dynamically quantized random models. Skipped without torch."""
import pytest

torch = pytest.importorskip("torch")

from differential import cases, compare  # noqa: E402

_ERRORS = "    except Exception as e: print(type(e).__name__, e)\n"


def _each(*calls):
    """A snippet printing each call's result, or its exception's type and text."""
    body = "".join(f"try: print({c})\n{_ERRORS}" for c in calls)
    return body


TENSORS = {
    "per_tensor": """x = torch.tensor([-1.0, 0.05, 0.15, 0.25, 1.0, 20.0])
q = torch.quantize_per_tensor(x, 0.1, 0, torch.qint8)
print(q); print(repr(q.int_repr())); print(q.dequantize())
print(q.dtype, q.is_quantized, q.qscheme(), q.q_scale(), q.q_zero_point(), q.is_floating_point())
print(q.element_size(), q.stride(), q.shape, q.type(), x.is_quantized)""",
    "tensor_qparams_and_lists": """x = torch.tensor([-1.0, 0.05, 0.15, 0.25, 1.0, 20.0])
print(torch.quantize_per_tensor(x, torch.tensor(0.1), torch.tensor(3), torch.quint8))
print(torch.quantize_per_tensor([x, x * 2], torch.tensor([0.1, 0.2]), torch.tensor([0, 1]),
                                torch.quint8))
print(torch.dequantize([torch.quantize_per_tensor(x, 0.5, 1, torch.quint8)]))""",
    "per_channel": """qc = torch.quantize_per_channel(torch.arange(6.).reshape(2, 3),
    torch.tensor([0.1, 0.5], dtype=torch.float64), torch.tensor([0, 2]), 0, torch.quint8)
print(qc); print(qc.q_per_channel_scales(), qc.q_per_channel_zero_points())
print(qc.q_per_channel_axis(), qc.qscheme(), qc.int_repr(), qc.dequantize())
qc = torch.quantize_per_channel(torch.arange(6.).reshape(2, 3) - 2.5,
    torch.tensor([0.1, 0.5, 0.25]), torch.tensor([0, 2, -3], dtype=torch.int32), 1, torch.qint8)
print(qc, qc.clone(), qc.contiguous())""",
    "dynamic": """x = torch.tensor([-1.0, 0.05, 0.15, 0.25, 1.0, 20.0])
print(torch.quantize_per_tensor_dynamic(x, torch.quint8, False))
print(torch.quantize_per_tensor_dynamic(x, torch.qint8, True))
print(torch.quantize_per_tensor_dynamic(x.abs(), torch.qint8, False))
print(torch.quantize_per_tensor_dynamic(torch.zeros(3), torch.quint8, False))
print(torch.quantize_per_tensor_dynamic(torch.full((3,), 1e-7), torch.quint8, False))""",
    "ties_and_clamping": """v = torch.tensor([0.05, 0.15, 0.25, 0.35, -0.05, -0.15, 0.45, 0.55])
for zp in (0, 1, 2, 3):
    print(torch.quantize_per_tensor(v, 0.1, zp, torch.qint8).int_repr())
print(torch.quantize_per_tensor(torch.tensor([0.1, 0.3, 0.5] * 3), 0.2, 1, torch.quint8).int_repr())
print(torch.quantize_per_tensor(torch.tensor([2.5, 3.5, -2.5, 1e9, -1e9]), 1.0, 0, torch.qint8).int_repr())
print(torch.quantize_per_tensor(torch.tensor([1e10, -1e10, 3.5]), 1.0, 0, torch.qint32).int_repr())
inf = float('inf')
print(torch.quantize_per_tensor(torch.tensor([float('nan')] * 10 + [inf, -inf]), 0.2, 1, torch.quint8).int_repr())""",
    "sub_byte": """x = torch.tensor([-1.0, 0.05, 0.15, 0.25, 1.0, 20.0])
print(torch.quantize_per_tensor(torch.tensor([1., 2.]), 0.1, 0, torch.quint4x2))
print(torch.quantize_per_tensor(x, 0.1, 2, torch.quint4x2).int_repr())
print(torch.quantize_per_tensor(x[:5], 0.1, 2, torch.quint4x2).int_repr())
print(torch.quantize_per_tensor(x, 0.1, 1, torch.quint2x4).int_repr())
print(torch.quantize_per_tensor(torch.tensor([1., 2.]), 0.1, 0, torch.qint32))
print(torch.quantize_per_tensor(torch.tensor(1.5), 0.1, 0, torch.qint8))""",
    "dtypes": """for d in (torch.qint8, torch.quint8, torch.qint32, torch.quint4x2, torch.quint2x4):
    print(d, d.is_floating_point, d.is_complex, d.itemsize)
print(torch.per_tensor_affine, torch.per_channel_affine, torch.per_tensor_symmetric,
      torch.per_channel_symmetric, torch.per_channel_affine_float_qparams)""",
    "views_and_kernels": """q = torch.quantize_per_tensor(torch.tensor([[-1.0, 0.05, 0.15], [0.25, 1.0, 20.0]]),
                              0.1, 2, torch.quint8)
print(q.view(3, 2), q[0], q[:, 1:], q.t(), q.clone(), q.relu(), q.max(), q.min())
print(q.t().contiguous().stride(), q[0, 0].item(), float(q[1, 1]), q == q, q > 0)
print(q.detach(), q.flatten(), q.permute(1, 0), q.reshape(-1), q.unsqueeze(0).squeeze(0))
print(q[0:1].expand(3, 3), q.transpose(0, 1).is_contiguous(), q.flip(0))""",
    "promotion_pickling_copies": """for f in (lambda: torch.iinfo(torch.quint8), lambda: torch.finfo(torch.qint8), lambda: torch.promote_types(torch.qint8, torch.float32), lambda: torch.promote_types(torch.float32, torch.quint8)):
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
import pickle
print(pickle.loads(pickle.dumps(torch.qint8)) is torch.qint8, pickle.loads(pickle.dumps(torch.per_channel_affine)) is torch.per_channel_affine)
import copy
q = torch.quantize_per_tensor(torch.tensor([1., 2.]), 0.1, 2, torch.quint8)
print(copy.deepcopy(q), copy.copy(q))
print(torch.quantize_per_tensor(torch.tensor([1., 2.]), 0.1, 2, torch.quint8).is_contiguous())
qc = torch.quantize_per_channel(torch.arange(6.).reshape(2, 3), torch.tensor([0.1, 0.5]), torch.tensor([0, 2]), 0, torch.quint8)
print(pickle.loads(pickle.dumps(qc)), copy.deepcopy(qc))""",
}

ERRORS = {
    "more_missing_kernels": """q = torch.quantize_per_tensor(torch.tensor([[1.,2.],[3,4]]), 0.1, 2, torch.quint8)
i = torch.tensor([0])
for f in (lambda: q.clone().clamp_(0,1), lambda: q.unique(), lambda: q.amax(), lambda: q.amin(), lambda: q.median(), lambda: q.kthvalue(1), lambda: q.cummax(0), lambda: q.cummin(0), lambda: q.roll(1), lambda: q.scatter(0, torch.zeros(1,2,dtype=torch.long), 1.), lambda: q.gather(0, torch.zeros(1,2,dtype=torch.long)), lambda: q.where(torch.ones(2,2,dtype=torch.bool), q)):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e).split("\n\n")[0])""",
    "queries_of_ordinary_tensors": """x = torch.ones(2)
q = torch.quantize_per_tensor(x, 0.5, 1, torch.quint8)
for n in ('int_repr', 'q_scale', 'q_zero_point', 'qscheme', 'q_per_channel_scales', 'q_per_channel_zero_points', 'q_per_channel_axis'):
    for f in (lambda: getattr(x, n)(), lambda: getattr(torch, n)(x), lambda: getattr(torch, n)(q)):
        try: print(f())
        except Exception as e: print(type(e).__name__, str(e).split("\n\n")[0])
print(type(torch.per_tensor_affine) is torch.qscheme)""",
    "arithmetic": "q = torch.quantize_per_tensor(torch.tensor([[1., 2.], [3., 4.]]), 0.1, 2, "
                  "torch.quint8)\n" + _each(
                      "q + q", "q + 1", "1 + q", "q - q", "q * q", "q * 2", "q / q", "-q",
                      "abs(q)", "q ** 2", "q ** q", "q @ q", "q.sum()", "q.exp()", "q.log()",
                      "q.sqrt()", "q.softmax(0)", "q.argmax()", "q.prod()", "q.cumsum(0)",
                      "q.zero_()", "q + torch.ones(2, 2)", "q.sin()", "q.var()"),
    "conversions": "q = torch.quantize_per_tensor(torch.tensor([1., 2.]), 0.1, 2, torch.quint8)\n"
                   + _each("q.float()", "q.long()", "q.to(torch.float32)", "q.to(torch.qint8)",
                           "q.requires_grad_()", "q.tolist()", "q.numpy()", "q.q_per_channel_axis()",
                           "q.q_per_channel_scales()"),
    "creation": "x = torch.ones(2, dtype=torch.float64)\nqc = torch.quantize_per_channel("
                "torch.ones(2, 2), torch.tensor([0.1, 0.2]), torch.tensor([0, 1]), 0, "
                "torch.quint8)\n" + _each(
                    "torch.quantize_per_tensor(x, 0.1, 0, torch.float32)",
                    "torch.quantize_per_tensor(x.float(), 0.1, 0, torch.float32)",
                    "torch.quantize_per_tensor(x.float(), 0.1, 0, torch.int8)",
                    "torch.quantize_per_tensor(x.float(), 0.1, 300, torch.quint8)",
                    "torch.quantize_per_tensor(x.float(), 0.1, -1, torch.quint8)",
                    "torch.quantize_per_tensor(x.half(), 0.1, 0, torch.qint8)",
                    "torch.quantize_per_tensor(torch.tensor([1, 2]), 0.1, 0, torch.qint8)",
                    "torch.quantize_per_tensor_dynamic(x.float(), torch.qint32, False)",
                    "torch.quantize_per_tensor_dynamic(x, torch.qint8, False)",
                    "torch.quantize_per_tensor_dynamic(torch.zeros(0), torch.qint8, False)",
                    "torch.quantize_per_channel(torch.ones(2, 3), torch.tensor([0.1, 0.5]), "
                    "torch.tensor([0, 2]), 1, torch.quint8)",
                    "torch.quantize_per_channel(torch.ones(2, 3), torch.tensor([0.1, 0.5]), "
                    "torch.tensor([0, 2]), 2, torch.quint8)",
                    "qc.q_scale()", "qc.q_zero_point()", "x.dequantize()",
                    "x.dequantize() is x", "x.float().dequantize() is x"),
}

FAKE = {
    "per_tensor": """x = torch.tensor([-1.0, -0.35, 0.05, 0.15, 0.25, 0.35, 1.0, 1.26, 1.24, 1.25,
                  0.45, 0.55, 0.65, -0.05, -0.15], requires_grad=True)
for zp in (1, 2, 3):
    y = torch.fake_quantize_per_tensor_affine(x, 0.1, zp, 0, 14)
    print(y); y.sum().backward(); print(x.grad); x.grad = None
y = torch.fake_quantize_per_tensor_affine(x, torch.tensor(0.1),
                                          torch.tensor(3, dtype=torch.int32), 0, 14)
print(y); y.backward(torch.arange(15.)); print(x.grad)""",
    "dtypes_and_errors": "x = torch.tensor([-1.0, -0.35, 0.05, 0.15, 0.25, 0.35, 1.0, 1.26, "
                         "1.24, 1.25])\n" + _each(
                             "torch.fake_quantize_per_tensor_affine(x, 0.1, 2, 0, 300)",
                             "torch.fake_quantize_per_tensor_affine(x, 0.1, 20, 0, 14)",
                             "torch.fake_quantize_per_tensor_affine(x.double(), 0.1, 3, 0, 14)",
                             "torch.fake_quantize_per_tensor_affine(x.half(), 0.1, 3, 0, 14)",
                             "torch.fake_quantize_per_tensor_affine(x, 0.1, 2, 5, 4)",
                             "torch.fake_quantize_per_tensor_affine(x, 0., 2, 0, 4)"),
    "per_channel": """xc = torch.tensor([[0.05, 0.15, 0.25, 2.0, 0.35, 0.45],
                   [-0.5, 0.35, 0.45, 9., 0.1, 0.3]], requires_grad=True)
z = torch.fake_quantize_per_channel_affine(xc, torch.tensor([0.1, 0.2]),
                                           torch.tensor([1, 3], dtype=torch.int32), 0, 0, 15)
print(z); z.sum().backward(); print(xc.grad)
print(torch.fake_quantize_per_channel_affine(xc, torch.tensor([0.1, 0.2]),
                                             torch.tensor([1., 3.]), 0, 0, 15))
print(torch.fake_quantize_per_channel_affine(xc.t(), torch.tensor([0.1, 0.2]),
                                             torch.tensor([1, 3], dtype=torch.int32), 1, 0, 15))
""" + _each(*(f"torch.fake_quantize_per_channel_affine(xc, {s}, {z}, 0, 0, 15).shape"
              for s in ("torch.tensor([0.1, 0.2])",
                        "torch.tensor([0.1, 0.2], dtype=torch.float64)")
              for z in ("torch.tensor([0, 1])", "torch.tensor([0., 1.])"))),
    "per_channel_errors": "xc = torch.ones(2, 6)\ns, z = torch.tensor([0.1, 0.2]), "
                          "torch.tensor([0, 1], dtype=torch.int32)\n" + _each(
                              "torch.fake_quantize_per_channel_affine(xc, s, z, 1, 0, 15)",
                              "torch.fake_quantize_per_channel_affine(xc, s, z, 2, 0, 15)",
                              "torch.fake_quantize_per_channel_affine(xc, s, z, -2, 0, 15)"),
}

OBSERVERS = {
    "minmax": """o = torch.ao.quantization.MinMaxObserver()
print(o, list(o.state_dict().items()))
o(torch.tensor([-1., 3.])); o(torch.tensor([0.5, 4.])); print(o.calculate_qparams(), o)
o = torch.ao.quantization.MinMaxObserver(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)
o(torch.tensor([-1., 3.])); print(o.calculate_qparams())
o = torch.ao.quantization.MinMaxObserver(dtype=torch.quint8, qscheme=torch.per_tensor_symmetric)
o(torch.tensor([-1., 3.])); print(o.calculate_qparams(), o.quant_min, o.quant_max)
try: torch.ao.quantization.MinMaxObserver(dtype=torch.quint8, qscheme=torch.per_tensor_symmetric,
                                         reduce_range=True)
except Exception as e: print(type(e).__name__, e)
o = torch.ao.quantization.MinMaxObserver(dtype=torch.qint8, reduce_range=True)
print(o.quant_min, o.quant_max, o.dtype, o.qscheme, o.eps)""",
    "per_channel": """o = torch.ao.quantization.PerChannelMinMaxObserver()
o(torch.tensor([[-1., 3.], [2, 5]])); print(o.calculate_qparams(), o)
o = torch.ao.quantization.PerChannelMinMaxObserver(ch_axis=1, dtype=torch.qint8,
                                                   qscheme=torch.per_channel_symmetric)
o(torch.tensor([[-1., 3.], [2, 5]])); o(torch.tensor([[-4., 1.], [0, 0]]))
print(o.calculate_qparams(), o)""",
    "qconfigs": """q = torch.ao.quantization
print(q.default_dynamic_qconfig.activation(), q.default_dynamic_qconfig.weight())
print(q.per_channel_dynamic_qconfig.weight(), q.default_qconfig.activation())
print(torch.quantization.default_dynamic_qconfig is q.default_dynamic_qconfig)
print(torch.quantization.quantize_dynamic is q.quantize_dynamic, q.QConfig._fields)
print(torch.backends.quantized.engine)
try: q.MinMaxObserver(qscheme=torch.per_channel_affine)
except Exception as e: print(type(e).__name__, e)""",
}

MODELS = {
    "printed_and_state_dict": """torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2, bias=False))
qm = torch.ao.quantization.quantize_dynamic(m, {torch.nn.Linear}, dtype=torch.qint8)
print(qm, m.training, qm.training, m is qm)
for k, v in qm.state_dict().items(): print(k, v)
print(qm[0].weight(), qm[0].bias(), qm[0]._packed_params.dtype, qm[0].scale, qm[0].zero_point)
print(qm(torch.randn(2, 4)).tolist())
print(torch.ao.nn.quantized.dynamic.Linear(4, 3))
qm2 = torch.quantization.quantize_dynamic(m)
print(qm2)""",
    "per_channel_weights": """torch.manual_seed(1)
m = torch.nn.Sequential(torch.nn.Linear(5, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
spec = {torch.nn.Linear: torch.ao.quantization.per_channel_dynamic_qconfig}
qm = torch.ao.quantization.quantize_dynamic(m, spec)
print(qm, qm[0].weight(), qm[2].weight().int_repr())
print(qm(torch.randn(3, 5) * 4).tolist())""",
    "saved_and_loaded": """import io, warnings
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
qm = torch.ao.quantization.quantize_dynamic(m, {torch.nn.Linear})
b = io.BytesIO(); torch.save(qm.state_dict(), b)
b.seek(0); sd = torch.load(b)
print(sd)
qc = torch.quantize_per_channel(torch.arange(6.).reshape(2, 3), torch.tensor([0.1, 0.5]), torch.tensor([0, 2]), 0, torch.qint8)
b = io.BytesIO(); torch.save({'c': qc, 'd': torch.quantize_per_tensor(torch.ones(3), 0.5, -3, torch.qint32)[1:]}, b)
b.seek(0); print(torch.load(b, weights_only=True))
qm2 = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2)), {torch.nn.Linear})
print(qm2.load_state_dict(sd)); print(qm2[0].weight(), qm2[2].bias())""",
    "word_language_model_tutorial": """import io
class LSTMModel(torch.nn.Module):
    '''Container module with an encoder, a recurrent module, and a decoder.'''
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.5):
        super(LSTMModel, self).__init__()
        self.drop = torch.nn.Dropout(dropout)
        self.encoder = torch.nn.Embedding(ntoken, ninp)
        self.rnn = torch.nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = torch.nn.Linear(nhid, ntoken)
        self.init_weights()
        self.nhid = nhid
        self.nlayers = nlayers
    def init_weights(self):
        initrange = 0.1
        self.encoder.weight.data.uniform_(-initrange, initrange)
        self.decoder.bias.data.zero_()
        self.decoder.weight.data.uniform_(-initrange, initrange)
    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        return decoded, hidden
    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))
torch.manual_seed(0)
model = LSTMModel(ntoken=50, ninp=12, nhid=16, nlayers=2)
model.eval()
quantized_model = torch.quantization.quantize_dynamic(model, {torch.nn.LSTM, torch.nn.Linear}, dtype=torch.qint8)
print(quantized_model)
def print_size_of_model(model):
    b = io.BytesIO(); torch.save(model.state_dict(), b)
    print('Size (KB):', len(b.getvalue()) > 0)
print_size_of_model(quantized_model)
data = torch.randint(0, 50, (7, 3))
hidden = quantized_model.init_hidden(3)
with torch.no_grad():
    out, (h, c) = quantized_model(data, hidden)
print(out.tolist())
# (the final states can differ from torch's by an ulp: ember's float32 sigmoid and tanh)
print([round(v, 5) for v in h.flatten().tolist() + c.flatten().tolist()])
criterion = torch.nn.CrossEntropyLoss()
print(round(criterion(out.view(-1, 50), torch.randint(0, 50, (21,))).item(), 5))""",
    "input_edges": """torch.manual_seed(0)
qm = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(torch.nn.Linear(4, 3)))
for x in (torch.randn(4), torch.randn(2, 3, 4), torch.zeros(2, 4), torch.randn(0, 4), torch.randn(2, 4).double(), torch.randn(2, 5), torch.full((2, 4), 1e-9), torch.full((1, 4), 5.0)):
    try: print(qm(x).tolist())
    except Exception as e: print(type(e).__name__, str(e).split("\n")[0][:200])
x = torch.randn(2, 4, requires_grad=True)""",
    "by_name_and_inplace": """torch.manual_seed(2)
m = torch.nn.Sequential(torch.nn.Linear(5, 3), torch.nn.Sequential(torch.nn.Linear(3, 3)))
qm = torch.ao.quantization.quantize_dynamic(m, {'1'})
print(qm)
qm = torch.ao.quantization.quantize_dynamic(m, inplace=True)
print(qm is m, m)""",
}


def _random_model_snippet(seed):
    return f"""rng = np.random.default_rng({seed})
i, o, b = (int(v) for v in rng.integers(1, 40, 3))
lin = torch.nn.Linear(i, o, bias={seed % 3 != 0})
with torch.no_grad():
    lin.weight.copy_(torch.tensor(rng.standard_normal((o, i)).astype(np.float32) * rng.uniform(0.01, 3)))
    if lin.bias is not None:
        lin.bias.copy_(torch.tensor(rng.standard_normal(o).astype(np.float32)))
x = (rng.standard_normal((2, b, i)) * rng.uniform(0.01, 10) + rng.uniform(-3, 3)).astype(np.float32)
spec = {{torch.nn.Linear: torch.ao.quantization.per_channel_dynamic_qconfig}} if {seed % 4 == 1} else {{torch.nn.Linear}}
qm = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(lin), spec, dtype=torch.qint8)
print(qm(torch.tensor(x)).tolist())
print(qm[0].weight().int_repr().tolist())"""


def _random_quantize_snippet(seed):
    return f"""rng = np.random.default_rng({seed})
x = torch.tensor((rng.integers(-400, 400, 300) * 0.05 + rng.standard_normal(300) * 1e-3 * {seed % 2}).astype(np.float32))
for d in (torch.quint8, torch.qint8, torch.qint32):
    scale, zp = float(rng.uniform(0.01, 0.3)), int(rng.integers(0, 50))
    print(torch.quantize_per_tensor(x, scale, zp, d).int_repr().tolist())
    print(torch.quantize_per_tensor_dynamic(x, torch.qint8 if d is torch.qint32 else d, {seed % 2 == 0}).int_repr().tolist())
scales = torch.tensor(rng.uniform(0.01, 0.3, 10))
zps = torch.tensor(rng.integers(0, 50, 10))
qc = torch.quantize_per_channel(x.reshape(10, 30), scales, zps, 0, torch.quint8)
print(qc.int_repr().tolist(), qc.dequantize().tolist())
xg = x.clone().requires_grad_()
y = torch.fake_quantize_per_tensor_affine(xg, 0.1, 3, -20, 20)
y.backward(torch.ones(300)); print(y.tolist(), xg.grad.tolist())"""


@pytest.mark.parametrize("snippet", cases({**TENSORS, **ERRORS}))
def test_quantized_tensors_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet


@pytest.mark.parametrize("snippet", cases({**FAKE, **OBSERVERS}))
def test_fake_quantize_and_observers_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet


@pytest.mark.parametrize("snippet", cases(MODELS))
def test_quantized_models_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet


@pytest.mark.parametrize("seed", range(24))
def test_random_dynamic_linear_bits_against_torch(seed):
    expected, got = compare(_random_model_snippet(seed))
    assert got == expected


@pytest.mark.parametrize("seed", range(8))
def test_random_quantization_against_torch(seed):
    expected, got = compare(_random_quantize_snippet(seed))
    assert got == expected


LSTMS = {
    "printed": """torch.manual_seed(0)
for kw in ({}, {'num_layers': 2, 'dropout': 0.5}, {'bidirectional': True, 'batch_first': True}):
    m = torch.nn.Sequential(torch.nn.LSTM(3, 4, **kw), torch.nn.Linear(4, 2))
    print(torch.ao.quantization.quantize_dynamic(m, {torch.nn.LSTM, torch.nn.Linear}))
q = torch.quantization.quantize_dynamic(torch.nn.Sequential(torch.nn.LSTM(3, 4)))
print(q[0].get_weight(), q[0].get_bias())
print(torch.nn.quantized.dynamic.LSTM is torch.ao.nn.quantized.dynamic.LSTM)
try: torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(torch.nn.LSTM(3, 4, bias=False)))
except Exception as e: print(type(e).__name__, e)""",
}


def _random_lstm_snippet(seed):
    kw = [{}, {"num_layers": 2}, {"bidirectional": True},
          {"batch_first": True, "num_layers": 2, "bidirectional": True}][seed % 4]
    return f"""torch.manual_seed({seed})
lstm = torch.nn.LSTM(3, 5, **{kw})
q = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(lstm), {{torch.nn.LSTM}})
x = torch.randn(6, 2, 3) * 3
h0 = (torch.randn({2 if kw else 1} * {2 if len(kw) > 1 else 1}, 2, 5), torch.randn({2 if kw else 1} * {2 if len(kw) > 1 else 1}, 2, 5))
out, (h, c) = q[0](x)
print(out.tolist(), h.tolist(), c.tolist())
out, (h, c) = q[0](x, h0)
print(out.tolist(), h.tolist(), c.tolist())
out, (h, c) = q[0](x[:, 0])
print(out.tolist(), h.tolist(), c.tolist())"""


@pytest.mark.parametrize("snippet", cases(LSTMS))
def test_quantized_lstm_against_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet


@pytest.mark.parametrize("seed", range(8))
def test_random_dynamic_lstm_bits_against_torch(seed):
    expected, got = compare(_random_lstm_snippet(seed))
    assert got == expected
