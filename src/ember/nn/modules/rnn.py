"""Recurrent layers: RNN, LSTM and GRU over whole sequences (padded or packed), and their
single-step cells RNNCell, LSTMCell and GRUCell."""
import math
import numbers

from ... import _creation, _dtype
from ..._tensor import Tensor
from ..._ops.joining import cat, stack
from .. import functional as F, init
from .. import _rnn_ops
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module
from ... import _warn

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class RNNBase(Module):
    """The base of RNN, LSTM and GRU: parameters per layer and direction, named
    weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k} (and weight_hr_l{k} with
    projections), with a `_reverse` suffix for the backward direction."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        _check_args(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                    proj_size)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else real_hidden * directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [("weight_ih", (gate_size, layer_input)),
                          ("weight_hh", (gate_size, real_hidden))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr", (proj_size, hidden_size))]
                names = []
                for stem, shape in shapes:
                    name = f"{stem}_l{layer}{suffix}"
                    setattr(self, name, Parameter(_creation.empty(shape, device=device,
                                                                  dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """A no-op: ember's weights need no contiguous flat buffer."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        weight = self._flat_weights[0]
        # (torch lets autocast reconcile the dtypes: its layer op casts inputs and weights)
        if input.dtype != weight.dtype and not _any_autocast():
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype "
                f"({weight.dtype}). Convert input: input.to({weight.dtype}), or convert "
                f"model: model.to({input.dtype})")
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size,
                          msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # -- running the layers --------------------------------------------------------------

    def _prepare(self, input, hx, is_lstm):
        """Validate and normalise the arguments of forward: (data, batch_sizes, sorted and
        unsorted indices, hx, cx, whether the input was batched)."""
        name = type(self).__name__ if type(self).__name__ in ("LSTM", "GRU") else "RNN"
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            sizes = [int(b) for b in batch_sizes.tolist()]
            batched = True
        else:
            data, sizes, sorted_indices, unsorted_indices = input, None, None, None
            if input.dim() not in (2, 3):
                tail = " tensor instead" if name == "RNN" else " instead"
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got "
                                 f"{input.dim()}D{tail}")
            batched = input.dim() == 3
        cx = None
        if hx is not None and is_lstm:
            hx, cx = hx[0], hx[1]       # a tensor here fails as in torch (IndexError)
        if sizes is None:
            batch_dim = 0 if self.batch_first else 1
            if not batched:
                data = data.unsqueeze(batch_dim)
                if hx is not None:
                    if is_lstm and (hx.dim() != 2 or cx.dim() != 2):
                        raise RuntimeError(
                            "For unbatched 2-D input, hx and cx should also be 2-D but got "
                            f"({hx.dim()}-D, {cx.dim()}-D) tensors")
                    if hx.dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, hx should also be 2-D "
                                           f"but got {hx.dim()}-D tensor")
                    hx = hx.unsqueeze(1)
                    cx = cx.unsqueeze(1) if cx is not None else None
            elif hx is not None:
                if is_lstm and (hx.dim() != 3 or cx.dim() != 3):
                    raise RuntimeError(
                        "For batched 3-D input, hx and cx should also be 3-D but got "
                        f"({hx.dim()}-D, {cx.dim()}-D) tensors")
                if hx.dim() != 3:
                    raise RuntimeError("For batched 3-D input, hx should also be 3-D but got "
                                       f"{hx.dim()}-D tensor")
        if hx is not None and sorted_indices is not None:
            # torch puts a packed batch's states in sorted order before it checks them (a
            # state of the wrong batch size fails in that index_select)
            hx = self.permute_hidden(hx, sorted_indices)
            cx = self.permute_hidden(cx, sorted_indices) if cx is not None else None
        self.check_input(data, sizes)
        expected = self.get_expected_hidden_size(data, sizes)
        if hx is not None:
            if is_lstm:
                self.check_hidden_size(hx, expected, "Expected hidden[0] size {}, got {}")
                cell = (expected[0], expected[1], self.hidden_size)
                self.check_hidden_size(cx, cell, "Expected hidden[1] size {}, got {}")
            else:
                self.check_hidden_size(hx, expected)
            self._check_state_dtypes(hx, cx)
        return data, sizes, sorted_indices, unsorted_indices, hx, cx, batched

    def _check_state_dtypes(self, hx, cx):
        weight = self._flat_weights[0]
        if hx.dtype == weight.dtype and (cx is None or cx.dtype == weight.dtype):
            return
        if _any_autocast():         # the layer op casts under autocast
            return
        if self.mode == "LSTM" and self.proj_size == 0 and weight.dtype == _dtype.float32:
            # torch's float32 LSTM runs through oneDNN, which names no tensor
            if hx.dtype != weight.dtype or cx.dtype != weight.dtype:
                raise RuntimeError("get_mkldnn_dtype: unsupported data type")
        _rnn_ops.check_matmul_dtype(hx, weight)

    def _run(self, input, hx, is_lstm):
        data, sizes, sorted_indices, unsorted_indices, hx, cx, batched = self._prepare(
            input, hx, is_lstm)
        packed = sizes is not None
        x = data.transpose(0, 1) if (self.batch_first and not packed) else data
        if not packed and x.size(0) == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        directions = 2 if self.bidirectional else 1
        weights = self._flat_weights
        per = len(weights) // (self.num_layers * directions)
        h_last, c_last = [], []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(directions):
                k = layer * directions + direction
                w = weights[k * per:(k + 1) * per]
                w_ih, w_hh = w[0], w[1]
                b_ih, b_hh = (w[2], w[3]) if self.bias else (None, None)
                w_hr = w[-1] if self.proj_size > 0 else None
                out, h, c = _rnn_ops.run_layer(
                    self.mode, x, None if hx is None else hx[k],
                    None if cx is None else cx[k], (w_ih, w_hh, b_ih, b_hh, w_hr),
                    sizes, direction == 1, packed)
                outs.append(out)
                h_last.append(h)
                c_last.append(c)
            x = outs[0] if directions == 1 else cat(outs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        output = x
        h_n = stack(h_last, 0)
        c_n = stack(c_last, 0) if is_lstm else None
        if packed:
            output = PackedSequence(output, input.batch_sizes, sorted_indices,
                                    unsorted_indices)
            h_n = self.permute_hidden(h_n, unsorted_indices)
            if is_lstm:
                c_n = self.permute_hidden(c_n, unsorted_indices)
        else:
            if self.batch_first:
                output = _rnn_ops.batch_major(output, is_lstm)
            if not batched:
                output = output.squeeze(0 if self.batch_first else 1)
                h_n = h_n.squeeze(1)
                c_n = c_n.squeeze(1) if is_lstm else None
        return output, ((h_n, c_n) if is_lstm else h_n)


def _any_autocast():
    from ...amp._policy import any_enabled
    return any_enabled()


def _check_args(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size):
    float(dropout)      # (torch converts it first: None or a list is float()'s TypeError)
    if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or \
            not 0 <= dropout <= 1:
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        _warn.warn("dropout option adds dropout after all but last recurrent layer, so "
                   "non-zero dropout expects num_layers greater than 1, but got "
                   f"dropout={dropout} and num_layers={num_layers}", stacklevel=3)
    for name, value in (("bias", bias), ("batch_first", batch_first)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
        if not isinstance(value, int):
            raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable "
                         "projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu).

    RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None);
    returns (output, h_n).
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' "
                             "or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    # each class has its own forward, as in torch (RNNBase has none): errors name RNN.forward
    def forward(self, input, hx=None):
        return self._run(input, hx, False)


class LSTM(RNNBase):
    """Long short-term memory: gates i, f, g, o; c_t = f c_{t-1} + i g; h_t = o tanh(c_t)
    (times weight_hr^T with proj_size > 0). Returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        size = self.get_expected_hidden_size(input, batch_sizes)
        return (size[0], size[1], self.hidden_size)

    def permute_hidden(self, hx, permutation):
        if permutation is None or not isinstance(hx, tuple):
            return RNNBase.permute_hidden(self, hx, permutation)
        return (hx[0].index_select(1, permutation), hx[1].index_select(1, permutation))

    def forward(self, input, hx=None):
        return self._run(input, hx, True)


class GRU(RNNBase):
    """Gated recurrent unit: r, z sigmoid gates, n = tanh(W_in x + b_in + r (W_hn h + b_hn)),
    h_t = (1 - z) n + z h_{t-1}. Returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._run(input, hx, False)


# -- cells ------------------------------------------------------------------------------------

class RNNCellBase(Module):
    """Parameters weight_ih (chunks * hidden, input), weight_hh (chunks * hidden, hidden),
    bias_ih, bias_hh, each U(-1/sqrt(hidden), 1/sqrt(hidden))."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        kw = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(_creation.empty((num_chunks * hidden_size, input_size),
                                                   **kw))
        self.weight_hh = Parameter(_creation.empty((num_chunks * hidden_size, hidden_size),
                                                   **kw))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, **kw))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, **kw))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, hx, name, hidden_word="hidden"):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {hidden_word} to be 1D or 2D, got "
                             f"{hx.dim()}D instead")
        return input.dim() == 2

    def _check(self, input, hx, which):
        if input.size(1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} "
                               f"expected {self.input_size}")
        if input.size(0) != hx.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{which}"
                               f" batch size {hx.size(0)}")
        if hx.size(1) != self.hidden_size:
            raise RuntimeError(f"hidden{which} has inconsistent hidden_size: got "
                               f"{hx.size(1)}, expected {self.hidden_size}")

    def _check_dtypes(self, input, hx):
        if input.dtype == self.weight_ih.dtype and hx.dtype == self.weight_hh.dtype:
            return
        if _any_autocast():         # the cell's linear maps cast under autocast
            return
        _rnn_ops.check_matmul_dtype(input, self.weight_ih, self.bias)
        _rnn_ops.check_matmul_dtype(hx, self.weight_hh, self.bias)

    def _zeros(self, input):
        return _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype,
                               device=input.device)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device,
                         dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        batched = self._batched(input, hx, "RNNCell")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = self._zeros(input)
        elif not batched:
            hx = hx.unsqueeze(0)
        self._check(input, hx, 0)
        self._check_dtypes(input, hx)
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        out = _rnn_ops.rnn_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                                self.bias_hh, self.nonlinearity == "relu")
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: returns (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None:
            if isinstance(hx, Tensor) and input.dim() == 2:
                raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of "
                                "Tensors, not Tensor")
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got "
                                     f"{value.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not batched else tuple(hx)
            if len(hx) != 2:    # (torch's kernel counts a batched input's states)
                raise RuntimeError("lstm_cell expects two hidden states")
        self._check(input, hx[0], 0)
        self._check(input, hx[1], 1)
        self._check_dtypes(input, hx[0])
        h, c = _rnn_ops.lstm_cell(input, hx[0], hx[1], self.weight_ih, self.weight_hh,
                                  self.bias_ih, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: returns h'."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        batched = self._batched(input, hx, "GRUCell")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = self._zeros(input)
        elif not batched:
            hx = hx.unsqueeze(0)
        self._check(input, hx, 0)
        self._check_dtypes(input, hx)
        out = _rnn_ops.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih,
                                self.bias_hh)
        return out if batched else out.squeeze(0)
