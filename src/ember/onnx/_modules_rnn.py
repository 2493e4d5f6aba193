"""Translations of nn.RNN, nn.LSTM and nn.GRU: one ONNX RNN/LSTM/GRU node per layer (both
directions in one node), the weights regrouped into ONNX's gate order as new initializers,
as torch's exporter folds them.

torch's gates (the row blocks of weight_ih_l{k}) and ONNX's:
    LSTM  i f g o  ->  i o f c          GRU  r z n  ->  z r h   (linear_before_reset=1)
"""
import numpy as np

from .. import nn
from ._graph import to_numpy
from ._registry import translates_module
from .errors import SymbolicValueError

_ORDER = {"LSTM": [0, 3, 1, 2], "GRU": [1, 0, 2], "RNN_TANH": [0], "RNN_RELU": [0]}
_OP = {"LSTM": "LSTM", "GRU": "GRU", "RNN_TANH": "RNN", "RNN_RELU": "RNN"}


def _regrouped(m, attribute, mode):
    """A torch weight or bias with its gate blocks in ONNX's order (zeros for no bias)."""
    blocks = len(_ORDER[mode])
    rows = blocks * m.hidden_size
    value = getattr(m, attribute, None)
    if value is None:
        return np.zeros(rows, np.dtype(m.weight_ih_l0.dtype._np))
    arr = to_numpy(value)
    parts = np.split(arr, blocks, axis=0)
    return np.concatenate([parts[i] for i in _ORDER[mode]], axis=0)


def _layer_weights(g, m, layer, mode):
    """W, R and B of one layer, both directions stacked, as folded initializers."""
    suffixes = [""] + (["_reverse"] if m.bidirectional else [])
    w = np.stack([_regrouped(m, f"weight_ih_l{layer}{s}", mode) for s in suffixes])
    r = np.stack([_regrouped(m, f"weight_hh_l{layer}{s}", mode) for s in suffixes])
    b = np.stack([np.concatenate([_regrouped(m, f"bias_ih_l{layer}{s}", mode),
                                  _regrouped(m, f"bias_hh_l{layer}{s}", mode)])
                  for s in suffixes])
    return [g.folded(a, _OP[mode]) for a in (w, r, b)]


def _states(g, hx, layer, directions, unbatched):
    """The initial state of `layer` (rows layer*directions ...) from h0 (L * D, N, H)."""
    if hx is None:
        return ""
    if unbatched:
        hx = g.unsqueeze(hx, [1])
    start = layer * directions
    return g.op("Slice", [hx, g.ints([start]), g.ints([start + directions]), g.ints([0])])


@translates_module(nn.RNN, nn.LSTM, nn.GRU)
def recurrent(g, m, name, input, hx=None):
    mode = m.mode
    if getattr(m, "proj_size", 0):
        raise SymbolicValueError("LSTM with proj_size is not supported by the exporter")
    unbatched = input.rank == 2
    x = g.unsqueeze(input, [1]) if unbatched else input
    x = g.op("Transpose", [x], perm=[1, 0, 2]) if m.batch_first and not unbatched else x
    h0, c0 = (hx if mode == "LSTM" else (hx, None)) if hx is not None else (None, None)
    directions = 2 if m.bidirectional else 1
    attrs = dict(hidden_size=m.hidden_size,
                 direction="bidirectional" if m.bidirectional else "forward")
    if mode == "GRU":
        attrs["linear_before_reset"] = 1
    if mode == "RNN_RELU":
        attrs["activations"] = ["Relu"] * directions
    finals_h, finals_c = [], []
    for layer in range(m.num_layers):
        w, r, b = _layer_weights(g, m, layer, mode)
        inputs = [x, w, r, b, "", _states(g, h0, layer, directions, unbatched)]
        if mode == "LSTM":
            inputs.append(_states(g, c0, layer, directions, unbatched))
        outs = g.op(_OP[mode], inputs, n_outputs=3 if mode == "LSTM" else 2, **attrs)
        y = g.op("Transpose", [outs[0]], perm=[0, 2, 1, 3])        # (L, N, D, H)
        x = g.reshape(y, g.ints([0, 0, -1]))
        finals_h.append(outs[1])
        if mode == "LSTM":
            finals_c.append(outs[2])
    output = g.op("Transpose", [x], perm=[1, 0, 2]) if m.batch_first and not unbatched else x
    state = [_joined(g, finals_h, unbatched)]
    if mode == "LSTM":
        state.append(_joined(g, finals_c, unbatched))
    output = g.squeeze(output, [1]) if unbatched else output
    return output, tuple(state) if mode == "LSTM" else state[0]


def _joined(g, finals, unbatched):
    """The final states of every layer, (num_layers * directions, N, H)."""
    out = finals[0] if len(finals) == 1 else g.op("Concat", finals, axis=0)
    return g.squeeze(out, [1]) if unbatched else out

