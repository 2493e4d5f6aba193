"""torch's functional recurrent layers and cells (`torch.lstm`, `torch.gru`, `torch.rnn_tanh`,
`torch.rnn_relu`, `torch.lstm_cell`, ...), which nn.LSTM and friends call in torch and
scripted or exported models call directly. They run ember's layer kernels (`_rnn_ops`), as
the modules do.

The layers take their weights as one flat list `params`, per layer and direction
w_ih, w_hh[, b_ih, b_hh][, w_hr] (biases with `has_biases`; an LSTM has projections w_hr when
its hidden state is narrower than its cell state). Each has two forms, told apart by the
third argument: (input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
batch_first) for a padded (T, B, F) input (B, T, F with batch_first), and (data, batch_sizes,
hx, params, ..., bidirectional) for a packed sequence's data and batch sizes. LSTMs return
(output, h_n, c_n), the others (output, h_n).
"""
from .._tensor import Tensor
from .._ops.joining import cat, stack
from . import _rnn_ops

__all__ = ["lstm", "gru", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "rnn_tanh_cell",
           "rnn_relu_cell"]


def _layers(mode, x, batch_sizes, hx, cx, params, has_biases, num_layers, dropout, train,
            bidirectional):
    """Run the stack of layers over `x` ((T, B, F) or packed rows): (output, h_n, c_n)."""
    from .functional import dropout as _dropout
    directions = 2 if bidirectional else 1
    params = list(params)
    projected = cx is not None and hx.shape[-1] != cx.shape[-1]
    per = (4 if has_biases else 2) + (1 if projected else 0)
    if len(params) % per:       # (torch's words: it cuts the list into rows of `per`)
        raise RuntimeError(f"MatrixRef: ArrayRef size {len(params)} not divisible by stride "
                           f"{per}")
    if len(params) != per * num_layers * directions:
        raise RuntimeError(f"{mode.lower()}: expected {per * num_layers * directions} "
                           f"parameters, got {len(params)}")
    packed = batch_sizes is not None
    sizes = [int(b) for b in batch_sizes.tolist()] if packed else None
    h_last, c_last = [], []
    for layer in range(num_layers):
        outs = []
        for direction in range(directions):
            k = layer * directions + direction
            w = params[k * per:(k + 1) * per]
            b_ih, b_hh = (w[2], w[3]) if has_biases else (None, None)
            w_hr = w[-1] if projected else None
            out, h, c = _rnn_ops.run_layer(mode, x, hx[k], None if cx is None else cx[k],
                                           (w[0], w[1], b_ih, b_hh, w_hr), sizes,
                                           direction == 1, packed)
            outs.append(out)
            h_last.append(h)
            c_last.append(c)
        x = outs[0] if directions == 1 else cat(outs, -1)
        if dropout and train and layer < num_layers - 1:
            x = _dropout(x, dropout, True)
    return x, stack(h_last, 0), (stack(c_last, 0) if cx is not None else None)


def _recurrent(mode, args):
    """The two forms of a functional layer; `args` are the positional arguments."""
    is_lstm = mode == "LSTM"
    if isinstance(args[2], Tensor) or (is_lstm and isinstance(args[2], (tuple, list))
                                       and isinstance(args[1], Tensor)):
        # packed: (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
        # bidirectional)
        data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bi = args
        first = False
    else:
        data, hx, params, has_biases, num_layers, dropout, train, bi, first = args
        batch_sizes = None
    h0, c0 = (hx[0], hx[1]) if is_lstm else (hx, None)
    x = data.transpose(0, 1) if first else data
    out, h, c = _layers(mode, x, batch_sizes, h0, c0, params, has_biases, num_layers,
                        dropout, train, bi)
    if first:
        out = _rnn_ops.batch_major(out, is_lstm)
    return (out, h, c) if is_lstm else (out, h)


def lstm(*args):
    """LSTM layers: lstm(input, (h0, c0), params, has_biases, num_layers, dropout, train,
    bidirectional, batch_first) or lstm(data, batch_sizes, (h0, c0), params, ...,
    bidirectional); returns (output, h_n, c_n)."""
    return _recurrent("LSTM", args)


def gru(*args):
    """GRU layers: gru(input, h0, params, has_biases, num_layers, dropout, train,
    bidirectional, batch_first) or gru(data, batch_sizes, h0, params, ..., bidirectional);
    returns (output, h_n)."""
    return _recurrent("GRU", args)


def rnn_tanh(*args):
    """Elman layers with tanh, in gru's two forms; returns (output, h_n)."""
    return _recurrent("RNN_TANH", args)


def rnn_relu(*args):
    """Elman layers with relu, in gru's two forms; returns (output, h_n)."""
    return _recurrent("RNN_RELU", args)


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step of a (B, F) input from hx = (h, c): returns (h', c')."""
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    return _rnn_ops.lstm_cell(input, hx[0], hx[1], w_ih, w_hh, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step: h'."""
    return _rnn_ops.gru_cell(input, hx, w_ih, w_hh, b_ih, b_hh)


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman step: tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)."""
    return _rnn_ops.rnn_cell(input, hx, w_ih, w_hh, b_ih, b_hh)


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman step with relu."""
    return _rnn_ops.rnn_cell(input, hx, w_ih, w_hh, b_ih, b_hh, relu=True)
