"""`DynamicQuantizedLSTM` (torch.ao.nn.quantized.dynamic.LSTM): an LSTM whose weights are
quantized (qint8) and whose two products per step run as dynamically quantized linear layers
(NOTE [ Dynamic quantized linear ]); the gates are computed in float32 as torch's quantized
LSTM does: `gates = (W_hh h + b_hh) + (W_ih x + b_ih)`, then sigmoid, tanh, and
`c' = f * c + i * g`, `h' = o * tanh(c')`.

NOTE: torch applies the input-to-hidden product to the whole sequence at once (one set of
dynamic parameters from the min and max of every step) and the hidden-to-hidden one step by
step; so does this. torch keeps the weights as opaque C++ cell objects whose state_dict
entries (`_all_weight_values.0.param`) are ScriptObjects; ember keeps the quantized tensors
(`get_weight()`, `get_bias()` give them as torch's do) and saves no such entries.
"""
from ...... import _qdtype
from ......nn.modules.module import Module
from ......nn.modules.rnn import RNNBase
from ..._linear_dynamic import linear_dynamic
from ...modules.utils import quantize_weight

__all__ = ["LSTM"]


class LSTM(Module):
    """A dynamically quantized LSTM, made by `quantize_dynamic` (or `LSTM.from_float`)."""

    _FLOAT_MODULE_NAME = "LSTM"

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, dtype=_qdtype.qint8):
        super().__init__()
        self.mode = "LSTM"
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.dtype = bidirectional, dtype
        self.version = 2
        self._weights = {}          # name -> quantized weight
        self._biases = {}           # name -> float bias (or None)
        self._placeholder_weights()

    def _placeholder_weights(self):
        """Random weights (quantized with scale 0.1), drawn as torch's constructor draws them,
        so that making the layer consumes the default generator as torch's does."""
        from ...... import quantize_per_tensor, randn
        directions = 2 if self.bidirectional else 1
        gate_size = 4 * self.hidden_size
        for layer in range(self.num_layers):
            for suffix in _suffixes(self.bidirectional):
                width = self.input_size if layer == 0 else self.hidden_size * directions
                name = f"_l{layer}{suffix}"
                for kind, shape in (("ih", (gate_size, width)),
                                    ("hh", (gate_size, self.hidden_size))):
                    self._weights[f"weight_{kind}{name}"] = quantize_per_tensor(
                        randn(*shape), 0.1, 0, self.dtype)
                for kind in ("ih", "hh"):
                    self._biases[f"bias_{kind}{name}"] = randn(gate_size)

    def _get_name(self):
        return "DynamicQuantizedLSTM"

    proj_size = 0                   # (no projections: the float LSTM's text without them)
    extra_repr = RNNBase.extra_repr

    def get_weight(self):
        return dict(self._weights)

    def get_bias(self):
        return dict(self._biases)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        """The quantized twin of float LSTM `mod`: each weight quantized by a fresh weight
        observer of its qconfig (default: per-tensor symmetric MinMax, qint8)."""
        from .....quantization.qconfig import default_dynamic_qconfig
        if not mod.bias:
            raise AssertionError("mod.bias must be True")
        if getattr(mod, "proj_size", 0):
            raise RuntimeError("ember: dynamic quantized LSTM with proj_size is not "
                               "implemented")
        qconfig = getattr(mod, "qconfig", None) or default_dynamic_qconfig
        qlstm = cls(mod.input_size, mod.hidden_size, mod.num_layers, mod.bias,
                    mod.batch_first, mod.dropout, mod.bidirectional)
        for layer in range(mod.num_layers):
            for suffix in _suffixes(mod.bidirectional):
                for kind in ("ih", "hh"):
                    name = f"_l{layer}{suffix}"
                    weight = getattr(mod, f"weight_{kind}{name}")
                    observer = qconfig.weight()
                    if observer.dtype is not _qdtype.qint8:
                        raise RuntimeError("ember: dynamic quantized LSTM supports qint8 "
                                           "weights only")
                    observer(weight)
                    qlstm._weights[f"weight_{kind}{name}"] = quantize_weight(weight.float(),
                                                                             observer)
                    qlstm._biases[f"bias_{kind}{name}"] = getattr(mod, f"bias_{kind}{name}",
                                                                  None)
        return qlstm

    def forward(self, input, hx=None):
        from ...... import stack, zeros, cat
        from ......nn.utils.rnn import PackedSequence
        if isinstance(input, PackedSequence):
            raise NotImplementedError("ember: packed sequences through a dynamic quantized "
                                      "LSTM are not implemented")
        if input.ndim != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.ndim}")
        x = input
        if self.batch_first:
            x = x.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        if hx is None:
            h0 = zeros(self.num_layers * directions, x.shape[1], self.hidden_size)
            hx = (h0, h0)
        expected = (self.num_layers * directions, x.shape[1], self.hidden_size)
        for k, state in enumerate(hx):
            if tuple(state.shape) != expected:
                raise RuntimeError(f"Expected hidden[{k}] size {expected}, got "
                                   f"{list(state.shape)}")
        hs, cs = [], []
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(_suffixes(self.bidirectional)):
                k = layer * directions + d
                out, h, c = self._run_direction(x, hx[0][k], hx[1][k], f"_l{layer}{suffix}",
                                                reverse=d == 1)
                outputs.append(out)
                hs.append(h)
                cs.append(c)
            x = outputs[0] if directions == 1 else cat(outputs, 2)
        h_n, c_n = stack(hs), stack(cs)
        if self.batch_first:
            x = x.transpose(0, 1)
        return x, (h_n, c_n)

    def _run_direction(self, x, h, c, name, reverse):
        from ...... import stack
        w_ih, w_hh = self._weights["weight_ih" + name], self._weights["weight_hh" + name]
        b_ih, b_hh = self._biases["bias_ih" + name], self._biases["bias_hh" + name]
        projected = linear_dynamic(x, w_ih, b_ih)       # (every step at once: see the NOTE)
        steps = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
        outputs = [None] * x.shape[0]
        for t in steps:
            gates = linear_dynamic(h, w_hh, b_hh) + projected[t]
            i, f, g, o = gates.chunk(4, 1)
            c = f.sigmoid() * c + i.sigmoid() * g.tanh()
            h = o.sigmoid() * c.tanh()
            outputs[t] = h
        return stack(outputs), h, c


def _suffixes(bidirectional):
    return ("", "_reverse") if bidirectional else ("",)
