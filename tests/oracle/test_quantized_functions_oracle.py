"""torch's functions given quantized tensors (torch.flatten(q, 1), reshape, chunk, unbind, ...,
cat and stack requantizing to the first input's parameters, and their refusals) against real
torch. Skipped without torch."""
import pytest

torch = pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = pytest.mark.usefixtures("one_torch_thread")

_Q = ("import warnings; warnings.simplefilter('ignore')\n"
      "q = torch.quantize_per_tensor(torch.arange(24.).reshape(2, 3, 4) / 7 - 1, 0.1, 10, "
      "torch.quint8)\n")

SNIPPETS = [_Q + f"""r = {call}
for t in (r if isinstance(r, tuple) else (r,)):
    print(t.dtype, t.shape, t.q_scale(), t.q_zero_point(), t.int_repr().flatten().tolist())"""
            for call in ("torch.flatten(q, 1)", "torch.reshape(q, (6, 4))", "torch.squeeze(q)",
                         "torch.unsqueeze(q, 0)", "torch.transpose(q, 0, 1)",
                         "torch.permute(q, (2, 0, 1))", "torch.narrow(q, 1, 0, 2)",
                         "torch.select(q, 0, 1)", "torch.flip(q, (0,))",
                         "torch.movedim(q, 0, 1)", "torch.moveaxis(q, 0, 2)",
                         "torch.swapaxes(q, 0, 1)", "torch.swapdims(q, 1, 2)",
                         "torch.clone(q)", "torch.detach(q)", "torch.chunk(q, 2, 2)",
                         "torch.split(q, 2, 2)", "torch.unbind(q, 1)",
                         "torch.tensor_split(q, 2, 1)", "torch.unflatten(q, 2, (2, 2))",
                         "q.chunk(3, 1)", "q.swapdims(0, 2)", "q.moveaxis(0, 1)")] + [
    """import warnings; warnings.simplefilter('ignore')
a = torch.quantize_per_tensor(torch.tensor([1.0, 2.0, -0.7]), 0.1, 10, torch.quint8)
b = torch.quantize_per_tensor(torch.tensor([3.0, 4.0, 0.33]), 0.2, 5, torch.quint8)
c = torch.cat([a, b]); print(c); print(c.int_repr())
print(torch.stack([a, b], 1).int_repr(), torch.concat((b, a)).int_repr())
print(torch.cat([a.reshape(1, 3), b.reshape(1, 3)], dim=1))
d = torch.quantize_per_tensor(torch.tensor([3.0]), 0.2, 5, torch.qint8)
pc = torch.quantize_per_channel(torch.randn(2, 3), torch.tensor([0.1, 0.2]),
                                torch.tensor([0, 0]), 0, torch.qint8)
for f in (lambda: torch.cat([a, d]), lambda: torch.cat([a, torch.tensor([1.0])]),
          lambda: torch.cat([torch.tensor([1.0]), a]), lambda: torch.cat([pc, pc]),
          lambda: torch.stack([a, torch.ones(3)])):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])
print(torch.cat([torch.ones(2), torch.zeros(1)]), torch.flatten(torch.ones(2, 2), 0))
print(torch.moveaxis.__name__, torch.functional.split is torch.split)""",
    """import warnings; warnings.simplefilter('ignore')
nn = torch.nn
torch.manual_seed(0)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.conv = nn.Conv2d(1, 4, 3)
        self.relu = nn.ReLU()
        self.fc = nn.Linear(4 * 6 * 6, 5)
        self.dequant = torch.ao.quantization.DeQuantStub()
    def forward(self, x):
        x = self.relu(self.conv(self.quant(x)))
        x = torch.flatten(x, 1)
        return self.dequant(self.fc(x))
m = M().eval()
m.qconfig = torch.ao.quantization.get_default_qconfig("fbgemm")
mp = torch.ao.quantization.prepare(m)
x = torch.randn(4, 1, 8, 8)
mp(x)
mq = torch.ao.quantization.convert(mp)
print(mq(x).round(decimals=3))""",
] + [_Q + f"""F = torch.nn.functional
r = {call}
print(r.dtype, r.shape, r.q_scale(), r.q_zero_point(), r.int_repr().flatten().tolist())"""
     for call in ("torch.relu(q)", "F.relu(q)", "torch.max(q)", "torch.mean(q)",
                  "F.pixel_shuffle(q.reshape(1, 4, 3, 2), 2)",
                  "F.pixel_unshuffle(q.reshape(1, 1, 4, 6), 2)",
                  "F.channel_shuffle(q.reshape(1, 2, 3, 4), 2)",
                  "F.interpolate(q.reshape(1, 2, 3, 4), scale_factor=2)",
                  "F.interpolate(q.reshape(1, 2, 3, 4), size=(5, 3), mode='nearest')",
                  "torch.sigmoid(q)", "F.tanh(q)", "torch.special.expit(q)",
                  "torch.clamp(q, -0.5, 0.7)", "q.clip(min=0.33)", "F.hardtanh(q, -0.5, 0.52)",
                  "torch.sort(q.flatten(), descending=True).values",
                  "q.flatten().topk(5).values",
                  "torch.sigmoid(torch.quantize_per_tensor(torch.linspace(-3, 3, 9), 0.05, 0, "
                  "torch.qint8))",
                  "torch.tanh(torch.quantize_per_tensor(torch.linspace(-3, 3, 9), 0.05, 0, "
                  "torch.qint8))")] + [
    # (operators torch's quantized build has no kernel for refuse, instead of running on the
    # integers; the exception's first line is compared)
    _Q + f"r = {call}" for call in (
        "torch.add(q, q)", "torch.mul(q, q)", "torch.sum(q)", "torch.exp(q)", "torch.cos(q)",
        "torch.minimum(q, q)", "torch.sub(q, 1.0)", "1.0 - q", "q + 1", "2 * q",
        "torch.nn.functional.interpolate(q, scale_factor=2)")]


@pytest.mark.parametrize("snippet", cases(SNIPPETS))
def test_quantized_tensors_through_torchs_functions(snippet):
    expected, got = compare(snippet)
    assert got == expected, snippet
