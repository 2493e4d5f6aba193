"""ember.nn's recurrent layers and cells, and ember.nn.utils.rnn: values against a NumPy
reference written from the equations in torch's documentation, one LSTM step worked out by
hand, gradients against finite differences in float64, packed batches against running each
sequence alone, and torch's parameter names, reprs, node names and error texts (recorded
from torch 2.13)."""
import warnings

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn.utils import rnn as R

from nn_checks import check_second_derivatives

RNG = np.random.default_rng(0)


# -- a NumPy reference --------------------------------------------------------------------

def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def np_step(mode, x, h, c, p):
    """One step of torch's equations; p holds w_ih, w_hh, b_ih, b_hh, w_hr (arrays/None)."""
    gi = x @ p["w_ih"].T + (p["b_ih"] if p["b_ih"] is not None else 0)
    gh = h @ p["w_hh"].T + (p["b_hh"] if p["b_hh"] is not None else 0)
    if mode == "LSTM":
        i, f, g, o = np.split(gi + gh, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        if p["w_hr"] is not None:
            h = h @ p["w_hr"].T
        return h, c
    if mode == "GRU":
        ir, iz, inn = np.split(gi, 3, axis=1)
        hr, hz, hn = np.split(gh, 3, axis=1)
        r, z = _sigmoid(ir + hr), _sigmoid(iz + hz)
        n = np.tanh(inn + r * hn)
        return (1 - z) * n + z * h, None
    pre = gi + gh
    return (np.tanh(pre) if mode == "RNN_TANH" else np.maximum(pre, 0)), None


def np_rnn(module, x, h0=None, c0=None):
    """The whole module on a (T, B, F) array (batch_first handled by the caller)."""
    mode, dirs = module.mode, 2 if module.bidirectional else 1
    T, B = x.shape[:2]
    out_size = module.proj_size or module.hidden_size
    if h0 is None:
        h0 = np.zeros((module.num_layers * dirs, B, out_size))
    if c0 is None:
        c0 = np.zeros((module.num_layers * dirs, B, module.hidden_size))
    hs, cs = [], []
    layer_in = x
    for layer in range(module.num_layers):
        outs = []
        for d in range(dirs):
            sfx = f"_l{layer}" + ("_reverse" if d else "")
            p = {k: getattr(module, n + sfx, None) for k, n in (
                ("w_ih", "weight_ih"), ("w_hh", "weight_hh"), ("b_ih", "bias_ih"),
                ("b_hh", "bias_hh"), ("w_hr", "weight_hr"))}
            p = {k: None if v is None else v.detach().numpy() for k, v in p.items()}
            h, c = h0[layer * dirs + d], c0[layer * dirs + d]
            out = [None] * T
            for t in (range(T - 1, -1, -1) if d else range(T)):
                h, c = np_step(mode, layer_in[t], h, c, p)
                out[t] = h
            outs.append(np.stack(out))
            hs.append(h)
            cs.append(c)
        layer_in = np.concatenate(outs, axis=-1)
    return layer_in, np.stack(hs), (np.stack(cs) if mode == "LSTM" else None)


CONFIGS = {
    "rnn": lambda: nn.RNN(3, 4),
    "rnn_relu_2": lambda: nn.RNN(3, 4, num_layers=2, nonlinearity="relu"),
    "rnn_bidir_nobias": lambda: nn.RNN(3, 4, bias=False, bidirectional=True),
    "lstm": lambda: nn.LSTM(3, 4),
    "lstm_2_bidir": lambda: nn.LSTM(3, 4, num_layers=2, bidirectional=True),
    "lstm_proj": lambda: nn.LSTM(3, 5, proj_size=2, num_layers=2),
    "lstm_proj_bidir": lambda: nn.LSTM(2, 4, proj_size=3, bidirectional=True),
    "gru": lambda: nn.GRU(3, 4),
    "gru_2_bidir": lambda: nn.GRU(3, 4, num_layers=2, bidirectional=True),
    "gru_nobias": lambda: nn.GRU(3, 4, bias=False),
}


def _make(name, dtype=ember.float64):
    ember.manual_seed(3)
    return CONFIGS[name]().to(dtype)


def _initial(m, batch, rng=RNG):
    dirs = 2 if m.bidirectional else 1
    h0 = rng.standard_normal((m.num_layers * dirs, batch, m.proj_size or m.hidden_size))
    c0 = rng.standard_normal((m.num_layers * dirs, batch, m.hidden_size))
    return h0, (c0 if m.mode == "LSTM" else None)


def _call(m, x, h0, c0):
    hx = ember.tensor(h0) if c0 is None else (ember.tensor(h0), ember.tensor(c0))
    out, state = m(ember.tensor(x), hx)
    h, c = state if c0 is not None else (state, None)
    return out, h, c


# -- values -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_layer_matches_numpy_reference(name):
    m = _make(name)
    x = RNG.standard_normal((5, 2, m.input_size))
    h0, c0 = _initial(m, 2)
    out, h, c = _call(m, x, h0, c0)
    ref_out, ref_h, ref_c = np_rnn(m, x, h0, c0)
    np.testing.assert_allclose(out.detach().numpy(), ref_out, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(h.detach().numpy(), ref_h, rtol=1e-12, atol=1e-12)
    if c0 is not None:
        np.testing.assert_allclose(c.detach().numpy(), ref_c, rtol=1e-12, atol=1e-12)
    # no initial state means zeros
    out0, state0 = m(ember.tensor(x))
    np.testing.assert_allclose(out0.detach().numpy(), np_rnn(m, x)[0], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["lstm", "gru", "rnn"])
def test_float32_close_to_float64_reference(name):
    m = _make(name, ember.float32)
    x = RNG.standard_normal((6, 3, 3)).astype(np.float32)
    out, state = m(ember.from_numpy(x))
    assert out.dtype == ember.float32
    np.testing.assert_allclose(out.detach().numpy(), np_rnn(m, x.astype(np.float64))[0],
                               rtol=1e-5, atol=1e-6)


def test_one_lstm_step_by_hand():
    # input_size 1, hidden_size 1, every weight and bias set by hand; NumPy scalars below.
    m = nn.LSTMCell(1, 1).double()
    with ember.no_grad():
        m.weight_ih.copy_(ember.tensor([[0.5], [-1.0], [2.0], [0.25]], dtype=ember.float64))
        m.weight_hh.copy_(ember.tensor([[1.0], [0.5], [-0.5], [1.5]], dtype=ember.float64))
        m.bias_ih.copy_(ember.tensor([0.1, 0.2, 0.3, 0.4], dtype=ember.float64))
        m.bias_hh.copy_(ember.tensor([0.0, -0.1, 0.1, 0.0], dtype=ember.float64))
    x, h, c = 2.0, -0.5, 0.75
    pre_i = 0.5 * x + 1.0 * h + 0.1 + 0.0        # 0.6
    pre_f = -1.0 * x + 0.5 * h + 0.2 - 0.1       # -2.15
    pre_g = 2.0 * x - 0.5 * h + 0.3 + 0.1        # 4.65
    pre_o = 0.25 * x + 1.5 * h + 0.4 + 0.0       # 0.15
    assert np.allclose([pre_i, pre_f, pre_g, pre_o], [0.6, -2.15, 4.65, 0.15])
    i, f, o = 1 / (1 + np.exp(-pre_i)), 1 / (1 + np.exp(-pre_f)), 1 / (1 + np.exp(-pre_o))
    g = np.tanh(pre_g)
    c_new = f * c + i * g
    h_new = o * np.tanh(c_new)
    # i = 0.645656, f = 0.104331, g = 0.999817, o = 0.537430
    # c' = 0.104331 * 0.75 + 0.645656 * 0.999817 = 0.723787; h' = 0.537430 * tanh(c')
    assert abs(c_new - 0.723787) < 1e-6 and abs(h_new - 0.332803) < 1e-6
    h_t, c_t = m(ember.tensor([[x]], dtype=ember.float64),
                 (ember.tensor([[h]], dtype=ember.float64),
                  ember.tensor([[c]], dtype=ember.float64)))
    assert abs(h_t.item() - h_new) < 1e-12 and abs(c_t.item() - c_new) < 1e-12
    # the same step through the layer (its fused kernel), with the same weights
    layer = nn.LSTM(1, 1).double()
    with ember.no_grad():
        for a, b in (("weight_ih_l0", "weight_ih"), ("weight_hh_l0", "weight_hh"),
                     ("bias_ih_l0", "bias_ih"), ("bias_hh_l0", "bias_hh")):
            getattr(layer, a).copy_(getattr(m, b))
    out, (hn, cn) = layer(ember.tensor([[[x]]], dtype=ember.float64),
                          (ember.tensor([[[h]]], dtype=ember.float64),
                           ember.tensor([[[c]]], dtype=ember.float64)))
    assert abs(out.item() - h_new) < 1e-12 and abs(cn.item() - c_new) < 1e-12
    with ember.no_grad():
        layer.float()
    out32, _ = layer(ember.tensor([[[x]]]), (ember.tensor([[[h]]]), ember.tensor([[[c]]])))
    assert abs(out32.item() - h_new) < 1e-6


@pytest.mark.parametrize("cell", ["RNNCell", "RNNCell_relu", "LSTMCell", "GRUCell"])
def test_cells_match_reference(cell):
    ember.manual_seed(1)
    m = {"RNNCell": lambda: nn.RNNCell(3, 4), "RNNCell_relu":
         lambda: nn.RNNCell(3, 4, nonlinearity="relu"), "LSTMCell": lambda: nn.LSTMCell(3, 4),
         "GRUCell": lambda: nn.GRUCell(3, 4)}[cell]().double()
    mode = {"RNNCell": "RNN_TANH", "RNNCell_relu": "RNN_RELU", "LSTMCell": "LSTM",
            "GRUCell": "GRU"}[cell]
    p = {"w_ih": m.weight_ih.detach().numpy(), "w_hh": m.weight_hh.detach().numpy(),
         "b_ih": m.bias_ih.detach().numpy(), "b_hh": m.bias_hh.detach().numpy(), "w_hr": None}
    x, h, c = (RNG.standard_normal(s) for s in ((2, 3), (2, 4), (2, 4)))
    ref_h, ref_c = np_step(mode, x, h, c, p)
    if mode == "LSTM":
        got_h, got_c = m(ember.tensor(x), (ember.tensor(h), ember.tensor(c)))
        np.testing.assert_allclose(got_c.detach().numpy(), ref_c, rtol=1e-12)
        unb_h, unb_c = m(ember.tensor(x[0]), (ember.tensor(h[0]), ember.tensor(c[0])))
        assert tuple(unb_h.shape) == (4,) and tuple(unb_c.shape) == (4,)
        np.testing.assert_allclose(unb_c.detach().numpy(), ref_c[0], rtol=1e-12)
        zero_h, _ = m(ember.tensor(x))
        np.testing.assert_allclose(zero_h.detach().numpy(),
                                   np_step(mode, x, 0 * h, 0 * c, p)[0], rtol=1e-12)
    else:
        got_h = m(ember.tensor(x), ember.tensor(h))
        unb_h = m(ember.tensor(x[0]), ember.tensor(h[0]))
        assert tuple(unb_h.shape) == (4,)
        zero_h = m(ember.tensor(x))
        np.testing.assert_allclose(zero_h.detach().numpy(),
                                   np_step(mode, x, 0 * h, None, p)[0], rtol=1e-12)
    np.testing.assert_allclose(got_h.detach().numpy(), ref_h, rtol=1e-12)
    np.testing.assert_allclose(unb_h.detach().numpy(), ref_h[0], rtol=1e-12)


def test_batch_first_and_unbatched():
    m = _make("lstm_2_bidir")
    x = RNG.standard_normal((4, 2, 3))
    out, (h, c) = m(ember.tensor(x))
    mb = _make("lstm_2_bidir")
    mb.batch_first = True
    out_b, (h_b, c_b) = mb(ember.tensor(x.transpose(1, 0, 2).copy()))
    np.testing.assert_allclose(out_b.detach().numpy(), out.detach().numpy().transpose(1, 0, 2),
                               rtol=1e-12)
    np.testing.assert_allclose(h_b.detach().numpy(), h.detach().numpy(), rtol=1e-12)
    # unbatched (T, F) input equals a batch of one
    out_u, (h_u, c_u) = m(ember.tensor(x[:, 0]))
    out_1, (h_1, c_1) = m(ember.tensor(x[:, :1]))
    assert tuple(out_u.shape) == (4, 8) and tuple(h_u.shape) == (4, 4)
    np.testing.assert_allclose(out_u.detach().numpy(), out_1.detach().numpy()[:, 0], rtol=1e-12)
    np.testing.assert_allclose(c_u.detach().numpy(), c_1.detach().numpy()[:, 0], rtol=1e-12)
    g = _make("gru")
    h0 = RNG.standard_normal((1, 4))
    out_u, h_u = g(ember.tensor(x[:, 0]), ember.tensor(h0))
    ref = np_rnn(g, x[:, :1], h0[:, None])
    np.testing.assert_allclose(out_u.detach().numpy(), ref[0][:, 0], rtol=1e-12)
    np.testing.assert_allclose(h_u.detach().numpy(), ref[1][:, 0], rtol=1e-12)


# -- gradients ----------------------------------------------------------------------------

def _loss_weights(m, T, B, rng):
    dirs = 2 if m.bidirectional else 1
    out_size = (m.proj_size or m.hidden_size) * dirs
    return (rng.standard_normal((T, B, out_size)), rng.standard_normal(
        (m.num_layers * dirs, B, m.proj_size or m.hidden_size)),
        rng.standard_normal((m.num_layers * dirs, B, m.hidden_size)))


def _loss(m, x, h0, c0, w, lengths=None):
    xt = x if lengths is None else R.pack_padded_sequence(x, lengths, enforce_sorted=False)
    out, state = m(xt, h0 if c0 is None else (h0, c0))
    if lengths is not None:
        out, _ = R.pad_packed_sequence(out, total_length=x.shape[0])
    h, c = state if c0 is not None else (state, None)
    loss = (out * ember.tensor(w[0])).sum() + (h * ember.tensor(w[1])).sum()
    if c is not None:
        loss = loss + (c * ember.tensor(w[2])).sum()
    return loss


def _check_module_gradients(m, x, h0, c0, lengths=None, eps=1e-6):
    rng = np.random.default_rng(11)
    w = _loss_weights(m, x.shape[0], x.shape[1], rng)
    inputs = {"x": x, "h0": h0} if c0 is None else {"x": x, "h0": h0, "c0": c0}
    tensors = {k: ember.tensor(v, requires_grad=True) for k, v in inputs.items()}
    _loss(m, tensors["x"], tensors["h0"], tensors.get("c0"), w, lengths).backward()

    def value():
        with ember.no_grad():
            return _loss(m, *(ember.tensor(inputs[k]) if k in inputs else None
                              for k in ("x", "h0", "c0")), w, lengths).item()

    targets = [(k, inputs[k], tensors[k].grad.numpy()) for k in inputs]
    targets += [(n, p.data.numpy(), p.grad.numpy()) for n, p in m.named_parameters()]
    for name, array, analytic in targets:
        numeric = np.zeros(array.shape)
        for i in np.ndindex(array.shape):
            old = array[i]
            array[i] = old + eps
            up = value()
            array[i] = old - eps
            down = value()
            array[i] = old
            numeric[i] = (up - down) / (2 * eps)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-7, err_msg=name)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_layer_gradients_finite_differences(name):
    m = _make(name)
    x = RNG.standard_normal((3, 2, m.input_size))
    h0, c0 = _initial(m, 2)
    _check_module_gradients(m, x, h0, c0)


@pytest.mark.parametrize("name", ["lstm_2_bidir", "gru_2_bidir", "rnn_bidir_nobias",
                                  "lstm_proj"])
def test_packed_gradients_finite_differences(name):
    m = _make(name)
    x = RNG.standard_normal((3, 3, m.input_size))
    h0, c0 = _initial(m, 3)
    _check_module_gradients(m, x, h0, c0, lengths=[2, 3, 1])


@pytest.mark.parametrize("cell", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cell_gradients_finite_differences(cell):
    from nn_checks import check_gradients
    ember.manual_seed(2)
    m = getattr(nn, cell)(3, 2).double()
    params = [m.weight_ih, m.weight_hh, m.bias_ih, m.bias_hh]

    def run(x, h):
        out = m(x, (h, h * 0.5) if cell == "LSTMCell" else h)
        return ember.cat(out, 1) if isinstance(out, tuple) else out

    x, h = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 2))
    check_gradients(run, x, h)
    m.zero_grad()
    # parameter gradients: compare with finite differences on the parameters directly
    out = m(ember.tensor(x), (ember.tensor(h), ember.tensor(h * 0.5))
            if cell == "LSTMCell" else ember.tensor(h))
    out = ember.cat(out, 1) if isinstance(out, tuple) else out
    w = np.random.default_rng(1).standard_normal(tuple(out.shape))
    (out * ember.tensor(w)).sum().backward()
    for p in params:
        data = p.data.numpy()
        numeric = np.zeros(data.shape)
        for i in np.ndindex(data.shape):
            vals = []
            for sign in (1, -1):
                data[i] += sign * 1e-6
                with ember.no_grad():
                    o = m(ember.tensor(x), (ember.tensor(h), ember.tensor(h * 0.5))
                          if cell == "LSTMCell" else ember.tensor(h))
                    o = ember.cat(o, 1) if isinstance(o, tuple) else o
                vals.append(float((o.numpy() * w).sum()))
                data[i] -= sign * 1e-6
            numeric[i] = (vals[0] - vals[1]) / 2e-6
        np.testing.assert_allclose(p.grad.numpy(), numeric, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("name", ["lstm", "gru", "rnn"])
def test_double_backward_through_layer(name):
    m = _make(name)

    def fn(x):
        out, _ = m(x)
        return out

    check_second_derivatives(fn, RNG.standard_normal((3, 2, 3)))


def test_saved_values_freed_and_inplace_checked():
    m = _make("lstm")
    x = ember.tensor(RNG.standard_normal((3, 2, 3)), requires_grad=True)
    out, _ = m(x)
    node = out.grad_fn
    out.sum().backward()
    assert node.cache is None
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        out.sum().backward()
    out, _ = m(x)
    x.grad = None
    out.sum().backward(retain_graph=True)
    first = x.grad.clone()
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first.numpy(), rtol=1e-12)
    out, _ = m(x)
    loss = out.sum()
    with ember.no_grad():
        m.weight_hh_l0.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


# -- packed sequences ---------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_packed_equals_each_sequence_alone(name):
    m = _make(name)
    lengths = [3, 5, 1, 4]
    seqs = [RNG.standard_normal((n, m.input_size)) for n in lengths]
    h0, c0 = _initial(m, len(lengths))
    hx = ember.tensor(h0) if c0 is None else (ember.tensor(h0), ember.tensor(c0))
    tensors = [ember.tensor(s, requires_grad=True) for s in seqs]
    packed = R.pack_sequence(tensors, enforce_sorted=False)
    out, state = m(packed, hx)
    assert isinstance(out, R.PackedSequence)
    assert out.batch_sizes.tolist() == [4, 3, 3, 2, 1]
    h, c = state if c0 is not None else (state, None)
    padded, got_lengths = R.pad_packed_sequence(out)
    assert got_lengths.tolist() == lengths
    (padded.sum() + h.sum()).backward()
    for b, s in enumerate(seqs):
        alone = ember.tensor(s[:, None], requires_grad=True)
        hb = ember.tensor(h0[:, b:b + 1]) if c0 is None else (
            ember.tensor(h0[:, b:b + 1]), ember.tensor(c0[:, b:b + 1]))
        out_b, state_b = m(alone, hb)
        h_b, c_b = state_b if c0 is not None else (state_b, None)
        np.testing.assert_allclose(padded.detach().numpy()[:len(s), b],
                                   out_b.detach().numpy()[:, 0], rtol=1e-12, atol=1e-14)
        assert np.all(padded.detach().numpy()[len(s):, b] == 0)
        np.testing.assert_allclose(h.detach().numpy()[:, b], h_b.detach().numpy()[:, 0],
                                   rtol=1e-12, atol=1e-14)
        if c0 is not None:
            np.testing.assert_allclose(c.detach().numpy()[:, b], c_b.detach().numpy()[:, 0],
                                       rtol=1e-12, atol=1e-14)
        (out_b.sum() + h_b.sum()).backward()
        np.testing.assert_allclose(tensors[b].grad.numpy(), alone.grad.numpy()[:, 0],
                                   rtol=1e-10, atol=1e-12)


# -- dropout, parameters, printing ---------------------------------------------------------

def test_dropout_between_layers_only_in_training():
    ember.manual_seed(0)
    m = nn.GRU(3, 4, num_layers=2, dropout=1.0).double()
    x = RNG.standard_normal((3, 2, 3))
    m.eval()
    out_eval, _ = m(ember.tensor(x))
    np.testing.assert_allclose(out_eval.detach().numpy(), np_rnn(m, x)[0], rtol=1e-12)
    m.train()
    out_train, h = m(ember.tensor(x))
    # p = 1 zeroes the whole first-layer output: layer 2 sees zeros
    layer2 = nn.GRU(8 // 2, 4).double()
    with ember.no_grad():
        for stem in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(layer2, stem + "_l0").copy_(getattr(m, stem + "_l1"))
    ref, _ = layer2(ember.zeros(3, 2, 4, dtype=ember.float64))
    np.testing.assert_allclose(out_train.detach().numpy(), ref.detach().numpy(), rtol=1e-12)
    m2 = nn.LSTM(3, 4, num_layers=2, dropout=0.5).double()
    ember.manual_seed(5)
    a, _ = m2(ember.tensor(x))
    ember.manual_seed(5)
    b, _ = m2(ember.tensor(x))
    np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    m2.eval()
    c, _ = m2(ember.tensor(x))
    assert not np.allclose(a.detach().numpy(), c.detach().numpy())


def test_dropout_warning_with_one_layer():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.LSTM(3, 4, dropout=0.2)
        nn.LSTM(3, 4, num_layers=2, dropout=0.2)
    assert [str(w.message) for w in caught] == [
        "dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
        "expects num_layers greater than 1, but got dropout=0.2 and num_layers=1"]
    assert caught[0].category is UserWarning


def test_parameters_names_shapes_and_init():
    m = nn.LSTM(3, 4, proj_size=2, num_layers=2, bidirectional=True)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [
        ("weight_ih_l0", (16, 3)), ("weight_hh_l0", (16, 2)), ("bias_ih_l0", (16,)),
        ("bias_hh_l0", (16,)), ("weight_hr_l0", (2, 4)), ("weight_ih_l0_reverse", (16, 3)),
        ("weight_hh_l0_reverse", (16, 2)), ("bias_ih_l0_reverse", (16,)),
        ("bias_hh_l0_reverse", (16,)), ("weight_hr_l0_reverse", (2, 4)),
        ("weight_ih_l1", (16, 4)), ("weight_hh_l1", (16, 2)), ("bias_ih_l1", (16,)),
        ("bias_hh_l1", (16,)), ("weight_hr_l1", (2, 4)), ("weight_ih_l1_reverse", (16, 4)),
        ("weight_hh_l1_reverse", (16, 2)), ("bias_ih_l1_reverse", (16,)),
        ("bias_hh_l1_reverse", (16,)), ("weight_hr_l1_reverse", (2, 4))]
    assert m._flat_weights_names[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0",
                                         "bias_hh_l0", "weight_hr_l0"]
    assert len(m.all_weights) == 4 and m.all_weights[1][0] is m.weight_ih_l0_reverse
    g = nn.GRU(5, 100, bias=False)
    assert [n for n, _ in g.named_parameters()] == ["weight_ih_l0", "weight_hh_l0"]
    values = np.concatenate([p.detach().numpy().ravel() for p in g.parameters()])
    assert np.abs(values).max() <= 0.1 and np.abs(values).max() > 0.099
    assert abs(values.mean()) < 0.005
    c = nn.GRUCell(3, 25)
    assert [(n, tuple(p.shape)) for n, p in c.named_parameters()] == [
        ("weight_ih", (75, 3)), ("weight_hh", (75, 25)), ("bias_ih", (75,)),
        ("bias_hh", (75,))]
    assert max(np.abs(p.detach().numpy()).max() for p in c.parameters()) <= 0.2
    assert m.weight_ih_l0.dtype == ember.float32
    assert nn.RNN(2, 3, dtype=ember.float64).weight_hh_l0.dtype == ember.float64


def test_reprs():
    assert repr(nn.LSTM(32, 64, num_layers=2, batch_first=True)) == \
        "LSTM(32, 64, num_layers=2, batch_first=True)"
    assert repr(nn.GRUCell(10, 20)) == "GRUCell(10, 20)"
    assert repr(nn.LSTM(3, 4, proj_size=2, num_layers=2, bias=False, batch_first=True,
                        dropout=0.1, bidirectional=True)) == (
        "LSTM(3, 4, proj_size=2, num_layers=2, bias=False, batch_first=True, dropout=0.1, "
        "bidirectional=True)")
    assert repr(nn.RNN(3, 4, 2, "relu")) == "RNN(3, 4, num_layers=2)"
    assert repr(nn.RNNCell(3, 4, bias=False, nonlinearity="relu")) == \
        "RNNCell(3, 4, bias=False, nonlinearity=relu)"
    assert repr(nn.LSTMCell(3, 4, bias=False)) == "LSTMCell(3, 4, bias=False)"
    r = nn.RNN(3, 4, 2, "relu")
    assert r.nonlinearity == "relu" and r.mode == "RNN_RELU"


def _names(*tensors):
    return [type(t.grad_fn).__name__ for t in tensors]


def test_node_names():
    x64 = ember.randn(3, 2, 4, dtype=ember.float64)
    x32 = ember.randn(3, 2, 4)
    # recorded from torch 2.13 on the CPU
    o, h = nn.RNN(4, 5)(x32)
    assert _names(o, h) == ["StackBackward0", "StackBackward0"]
    o, (h, c) = nn.LSTM(4, 5)(x32)
    assert _names(o, h, c) == ["MkldnnRnnLayerBackward0", "StackBackward0", "StackBackward0"]
    o, (h, c) = nn.LSTM(4, 5).double()(x64)
    assert _names(o) == ["StackBackward0"]
    o, _ = nn.LSTM(4, 5, proj_size=3)(x32)
    assert _names(o) == ["StackBackward0"]
    o, h = nn.GRU(4, 5, bidirectional=True)(x32)
    assert _names(o, h) == ["CatBackward0", "StackBackward0"]
    o, (h, c) = nn.LSTM(4, 5)(x32[:, 0])
    assert _names(o, h, c) == ["SqueezeBackward1"] * 3
    o, h = nn.GRU(4, 5)(R.pack_padded_sequence(x32, [3, 2]))
    assert _names(o.data, h) == ["CatBackward0", "StackBackward0"]
    assert _names(nn.RNNCell(4, 5)(x32[0])) == ["TanhBackward0"]
    assert _names(nn.RNNCell(4, 5, nonlinearity="relu")(x32[0])) == ["ReluBackward0"]
    assert _names(*nn.LSTMCell(4, 5)(x32[0])) == ["MulBackward0", "AddBackward0"]
    assert _names(nn.GRUCell(4, 5)(x32[0])) == ["AddBackward0"]
    assert _names(nn.GRUCell(4, 5)(x32[0, 0])) == ["SqueezeBackward1"]
    with ember.no_grad():
        o, _ = nn.LSTM(4, 5)(x32)
    assert o.grad_fn is None and not o.requires_grad


# -- errors (texts recorded from torch 2.13) ------------------------------------------------

ERRORS = [
    (lambda: nn.LSTM(32, 64)(ember.randn(5, 3, 16)), RuntimeError,
     "input.size(-1) must be equal to input_size. Expected 32, got 16"),
    (lambda: nn.GRU(32, 64)(ember.randn(5, 3, 32), ember.randn(1, 3, 32)), RuntimeError,
     "Expected hidden size (1, 3, 64), got [1, 3, 32]"),
    (lambda: nn.LSTM(32, 64)(ember.randn(5, 3, 32), (ember.randn(1, 3, 64),
                                                      ember.randn(1, 3, 32))), RuntimeError,
     "Expected hidden[1] size (1, 3, 64), got [1, 3, 32]"),
    (lambda: nn.LSTM(32, 64, proj_size=8)(ember.randn(5, 3, 32), (ember.randn(1, 3, 64),
                                                                  ember.randn(1, 3, 64))),
     RuntimeError, "Expected hidden[0] size (1, 3, 8), got [1, 3, 64]"),
    (lambda: nn.RNN(32, 64)(ember.randn(2, 5, 3, 32)), ValueError,
     "RNN: Expected input to be 2D or 3D, got 4D tensor instead"),
    (lambda: nn.GRU(32, 64)(ember.randn(32)), ValueError,
     "GRU: Expected input to be 2D or 3D, got 1D instead"),
    (lambda: nn.LSTM(32, 64)(ember.randn(2, 5, 3, 32)), ValueError,
     "LSTM: Expected input to be 2D or 3D, got 4D instead"),
    (lambda: nn.RNN(32, 64)(ember.randn(5, 32), ember.randn(1, 2, 64)), RuntimeError,
     "For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"),
    (lambda: nn.RNN(32, 64)(ember.randn(5, 3, 32), ember.randn(1, 64)), RuntimeError,
     "For batched 3-D input, hx should also be 3-D but got 2-D tensor"),
    (lambda: nn.LSTM(32, 64)(ember.randn(5, 32), (ember.randn(1, 2, 64), ember.randn(1, 64))),
     RuntimeError,
     "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 2-D) tensors"),
    (lambda: nn.RNN(32, 64)(ember.randn(5, 3, 32, dtype=ember.float64)), ValueError,
     "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert "
     "input: input.to(torch.float32), or convert model: model.to(torch.float64)"),
    (lambda: nn.GRU(3, 4)(ember.randn(0, 3, 3)), RuntimeError,
     "Expected sequence length to be larger than 0 in RNN"),
    (lambda: nn.GRU(3, 4)(ember.randn(5, 2, 3), ember.randn(1, 2, 4, dtype=ember.float64)),
     RuntimeError, "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda: nn.RNNCell(3, 4)(ember.randn(2, 3, dtype=ember.float64)), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda: nn.RNN(32, 64, nonlinearity="sigmoid"), ValueError,
     "Unknown nonlinearity 'sigmoid'. Select from 'tanh' or 'relu'."),
    (lambda: nn.GRU(32, 64, proj_size=3), ValueError,
     "proj_size argument is only supported for LSTM, not RNN or GRU"),
    (lambda: nn.LSTM(32, 64, proj_size=64), ValueError,
     "proj_size has to be smaller than hidden_size"),
    (lambda: nn.LSTM(32, 64, proj_size=-1), ValueError,
     "proj_size should be a positive integer or zero to disable projections"),
    (lambda: nn.LSTM(32, 0), ValueError, "hidden_size must be greater than zero"),
    (lambda: nn.LSTM(32, 4.0), TypeError, "hidden_size should be of type int, got: float"),
    (lambda: nn.LSTM(32, 4, num_layers=0), ValueError, "num_layers must be greater than zero"),
    (lambda: nn.LSTM(32, 4, dropout=1.5), ValueError,
     "dropout should be a number in range [0, 1] representing the probability of an element "
     "being zeroed"),
    (lambda: nn.GRU(3, 4, batch_first=1), TypeError,
     "batch_first should be of type bool, got: int"),
    (lambda: nn.RNNCell(3, 4)(ember.randn(2, 5)), RuntimeError,
     "input has inconsistent input_size: got 5 expected 3"),
    (lambda: nn.RNNCell(3, 4)(ember.randn(2, 3), ember.randn(2, 5)), RuntimeError,
     "hidden0 has inconsistent hidden_size: got 5, expected 4"),
    (lambda: nn.RNNCell(3, 4)(ember.randn(2, 3), ember.randn(3, 4)), RuntimeError,
     "Input batch size 2 doesn't match hidden0 batch size 3"),
    (lambda: nn.LSTMCell(3, 4)(ember.randn(2, 3), (ember.randn(2, 4), ember.randn(2, 5))),
     RuntimeError, "hidden1 has inconsistent hidden_size: got 5, expected 4"),
    (lambda: nn.LSTMCell(3, 4)(ember.randn(2, 3), ember.randn(2, 4)), TypeError,
     "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not Tensor"),
    (lambda: nn.GRUCell(3, 4)(ember.randn(2, 2, 3)), ValueError,
     "GRUCell: Expected input to be 1D or 2D, got 3D instead"),
    (lambda: nn.RNNCell(3, 4)(ember.randn(2, 3), ember.randn(1, 2, 4)), ValueError,
     "RNNCell: Expected hidden to be 1D or 2D, got 3D instead"),
    (lambda: nn.RNNCell(3, 4, nonlinearity="foo")(ember.randn(2, 3)), RuntimeError,
     "Unknown nonlinearity: foo"),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_errors(k):
    fn, kind, text = ERRORS[k]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(kind) as info:
            fn()
    assert str(info.value) == text


# -- ember.nn.utils.rnn ---------------------------------------------------------------------

def test_pack_padded_sequence_layout():
    x = ember.arange(24.).reshape(4, 3, 2).requires_grad_()
    p = R.pack_padded_sequence(x, [4, 2, 1])
    assert p.batch_sizes.tolist() == [3, 2, 1, 1] and p.batch_sizes.dtype == ember.int64
    assert p.data[:, 0].tolist() == [0., 2., 4., 6., 8., 12., 18.]
    assert p.sorted_indices is None and p.unsorted_indices is None
    assert type(p.data.grad_fn).__name__ == "PackPaddedSequenceBackward0"
    p.data.sum().backward()
    assert x.grad[..., 0].tolist() == [[1, 1, 1], [1, 1, 0], [1, 0, 0], [1, 0, 0]]
    q = R.pack_padded_sequence(x, ember.tensor([2, 4, 1]), enforce_sorted=False)
    assert q.sorted_indices.tolist() == [1, 0, 2] and q.unsorted_indices.tolist() == [1, 0, 2]
    assert q.data[:, 0].tolist() == [2., 0., 4., 8., 6., 14., 20.]
    bf = R.pack_padded_sequence(ember.ones(2, 3, 4), ember.tensor([3, 1]), batch_first=True)
    assert bf.batch_sizes.tolist() == [2, 1, 1] and tuple(bf.data.shape) == (4, 4)
    for lengths, text in (([2, 4, 1], "`lengths` array must be sorted in decreasing order"),
                          ([4, 2, 0], "Length of all samples has to be greater than 0"),
                          ([4, 2], "Expected `len(lengths)` to be equal to batch_size, but "
                                   "got 2 (batch_size=3)")):
        with pytest.raises(RuntimeError, match=text.replace("(", r"\(").replace(")", r"\)")):
            R.pack_padded_sequence(x, lengths)


def test_pad_packed_sequence():
    x = ember.arange(24.).reshape(4, 3, 2)
    p = R.pack_padded_sequence(x, [4, 2, 1])
    out, lengths = R.pad_packed_sequence(p)
    assert lengths.tolist() == [4, 2, 1] and lengths.dtype == ember.int64
    mask = np.array([[1, 1, 1], [1, 1, 0], [1, 0, 0], [1, 0, 0]])[..., None]
    np.testing.assert_array_equal(out.numpy(), x.numpy() * mask)
    out, _ = R.pad_packed_sequence(p, batch_first=True, padding_value=-1, total_length=6)
    assert out[..., 0].tolist() == [[0, 6, 12, 18, -1, -1], [2, 8, -1, -1, -1, -1],
                                    [4, -1, -1, -1, -1, -1]]
    with pytest.raises(ValueError, match="total_length=2 and max sequence length being 4"):
        R.pad_packed_sequence(p, total_length=2)
    q = R.pack_padded_sequence(x, [2, 4, 1], enforce_sorted=False)
    out, lengths = R.pad_packed_sequence(q)
    assert lengths.tolist() == [2, 4, 1]
    np.testing.assert_array_equal(out.numpy()[:2, 0], x.numpy()[:2, 0])
    np.testing.assert_array_equal(out.numpy()[2:, 0], 0)


def test_pad_sequence_refuses_mismatched_feature_sizes():
    with pytest.raises(RuntimeError) as info:
        R.pad_sequence([ember.ones(2, 3), ember.ones(3, 4)])
    assert str(info.value) == ("The size of tensor a (3) must match the size of tensor b (4) at "
                               "non-singleton dimension 1")
    out = R.pad_sequence([ember.ones(2, 3), ember.full((1, 1), 2.0)], batch_first=True)
    assert out.tolist() == [[[1.0] * 3, [1.0] * 3], [[2.0] * 3, [0.0] * 3]]   # (1, 1) broadcasts


def test_pad_sequence_and_friends():
    a = ember.ones(3, 2, requires_grad=True)
    b = ember.ones(1, 2) * 2
    c = ember.ones(2, 2) * 3
    s = R.pad_sequence([a, b, c])
    assert s[..., 0].tolist() == [[1, 2, 3], [1, 0, 3], [1, 0, 0]]
    assert type(s.grad_fn).__name__ == "CopySlices"
    s = R.pad_sequence([a, b, c], batch_first=True, padding_value=9, padding_side="left")
    assert s[..., 0].tolist() == [[1, 1, 1], [9, 9, 2], [9, 3, 3]]
    with pytest.raises(RuntimeError, match="Expected padding_side to be one of left or right, "
                                           "but got middle."):
        R.pad_sequence([a], padding_side="middle")
    with pytest.raises(RuntimeError, match="received an empty list of sequences"):
        R.pad_sequence([])
    with pytest.raises(RuntimeError, match="Expected iterable for input sequences"):
        R.pad_sequence(5)
    padded = R.pad_sequence([a, b, c], batch_first=True)
    parts = R.unpad_sequence(padded, ember.tensor([3, 1, 2]), batch_first=True)
    assert [p.tolist() for p in parts] == [a.tolist(), b.tolist(), c.tolist()]
    assert type(parts[0].grad_fn).__name__ == "IndexBackward0"
    packed = R.pack_sequence([c, a, b], enforce_sorted=False)
    assert packed.batch_sizes.tolist() == [3, 2, 1]
    assert packed.data[:, 0].tolist() == [1., 3., 2., 1., 3., 1.]
    back = R.unpack_sequence(packed)
    assert [p.tolist() for p in back] == [c.tolist(), a.tolist(), b.tolist()]
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order"):
        R.pack_sequence([c, a, b])
    sum(p.sum() for p in back).backward()
    assert a.grad.tolist() == [[1, 1]] * 3


def test_packed_sequence_object():
    p = R.PackedSequence(ember.ones(3), ember.tensor([2, 1]))
    assert p._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    assert R.PackedSequence((ember.ones(3), ember.tensor([2, 1]))).batch_sizes.tolist() == [2, 1]
    with pytest.raises(AssertionError, match="Expected data to be a list or tuple of length 2"):
        R.PackedSequence(ember.ones(3))
    d = p.double()
    assert d.data.dtype == ember.float64 and d.batch_sizes.dtype == ember.int64
    assert p.to(ember.float64).data.dtype == ember.float64 and not p.is_cuda
    assert p.long().data.dtype == ember.int64
    assert R.invert_permutation(ember.tensor([2, 0, 1])).tolist() == [1, 2, 0]
    assert R.invert_permutation(None) is None
    s = R.PackedSequence(ember.ones(3), ember.tensor([2, 1]), ember.tensor([1, 0]))
    assert s.unsorted_indices.tolist() == [1, 0]
    assert repr(p) == ("PackedSequence(data=tensor([1., 1., 1.]), batch_sizes=tensor([2, 1]), "
                       "sorted_indices=None, unsorted_indices=None)")


@pytest.mark.parametrize("name", ["lstm", "gru", "rnn", "lstm_proj"])
def test_interleaved_graphs_keep_their_values(name):
    # scratch arrays are reused between calls (NOTE [ Workspace reuse ]): graphs that are
    # alive at the same time must not share them
    m = _make(name)
    xs = [RNG.standard_normal((4, 2, m.input_size)) for _ in range(3)]

    def grads(k):
        x = ember.tensor(xs[k], requires_grad=True)
        out, _ = m(x)
        (out * out).sum().backward()
        return x.grad.numpy().copy()

    expected = [grads(k) for k in range(3)]
    t = [ember.tensor(x, requires_grad=True) for x in xs]
    out0, _ = m(t[0])
    out1, _ = m(t[1])
    (out0 * out0).sum().backward()
    out2, _ = m(t[2])
    with ember.no_grad():
        m(ember.tensor(xs[0]))
    (out1 * out1).sum().backward()
    (out2 * out2).sum().backward()
    for k in range(3):
        np.testing.assert_allclose(t[k].grad.numpy(), expected[k], rtol=1e-12)
    np.testing.assert_allclose(out1.detach().numpy(), np_rnn(m, xs[1])[0], rtol=1e-12)


@pytest.mark.parametrize("mode", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_16_bit_layers_give_the_values_of_their_cells_step_by_step(mode, dtype):
    # NOTE [ 16-bit recurrent layers ]: each cell op rounds to the dtype, as in torch
    dt = getattr(ember, dtype)
    ember.manual_seed(0)
    layer = getattr(nn, mode)(6, 3).to(dt)
    cell = getattr(nn, mode + "Cell")(6, 3).to(dt)
    with ember.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(cell, name).copy_(getattr(layer, name + "_l0"))
    x = ember.randn(5, 2, 6).to(dt)
    out, _ = layer(x)
    state, rows = None, []
    for t in range(5):
        state = cell(x[t]) if state is None else cell(x[t], state)
        rows.append(state[0] if isinstance(state, tuple) else state)
    assert out.dtype is dt
    np.testing.assert_array_equal(out.detach().float().numpy(),
                                  ember.stack(rows).detach().float().numpy())
    out.float().sum().backward()                 # (the backward still runs)
    assert layer.weight_hh_l0.grad.dtype is dt
