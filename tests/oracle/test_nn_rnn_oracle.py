"""ember's recurrent layers against real torch: the same weights (copied through NumPy) give
the same outputs, final states and gradients of every input and parameter; same default
initialisation for the same seed; same printed forms, node names and error texts. Skipped
when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

LAYERS = {
    "rnn_tanh": lambda nn: nn.RNN(3, 5),
    "rnn_relu_2layer": lambda nn: nn.RNN(3, 5, num_layers=2, nonlinearity="relu"),
    "rnn_bidir_nobias": lambda nn: nn.RNN(3, 4, bias=False, bidirectional=True),
    "lstm": lambda nn: nn.LSTM(3, 5),
    "lstm_2layer_bidir": lambda nn: nn.LSTM(3, 4, num_layers=2, bidirectional=True),
    "lstm_proj": lambda nn: nn.LSTM(3, 6, proj_size=2, num_layers=2),
    "lstm_proj_bidir": lambda nn: nn.LSTM(3, 6, proj_size=4, bidirectional=True),
    "lstm_batch_first": lambda nn: nn.LSTM(3, 5, batch_first=True),
    "gru": lambda nn: nn.GRU(3, 5),
    "gru_3layer_bidir": lambda nn: nn.GRU(3, 4, num_layers=3, bidirectional=True),
    "gru_nobias_batch_first": lambda nn: nn.GRU(3, 4, bias=False, batch_first=True),
}

CELLS = {
    "rnn_cell": lambda nn: nn.RNNCell(3, 5),
    "rnn_cell_relu": lambda nn: nn.RNNCell(3, 5, nonlinearity="relu"),
    "lstm_cell": lambda nn: nn.LSTMCell(3, 5),
    "gru_cell": lambda nn: nn.GRUCell(3, 5, bias=False),
}


def _pair(factory, dtype=np.float64):
    torch.manual_seed(0)
    t = factory(torch.nn).to(getattr(torch, np.dtype(dtype).name))
    e = factory(ember.nn).to(getattr(ember, np.dtype(dtype).name))
    e.load_state_dict({k: ember.tensor(v.detach().numpy()) for k, v in
                       t.state_dict().items()})
    return t, e


def _states(module, batch, rng):
    """Random initial states of the right shapes (None when the module takes none)."""
    d = 2 if module.bidirectional else 1
    size = module.proj_size if getattr(module, "proj_size", 0) else module.hidden_size
    h = rng.standard_normal((module.num_layers * d, batch, size))
    if module.mode == "LSTM":
        return h, rng.standard_normal((module.num_layers * d, batch, module.hidden_size))
    return h, None


def _run(lib, module, x, h, c, lengths=None):
    xt = lib.tensor(x, requires_grad=True)
    ht = lib.tensor(h, requires_grad=True)
    ct = None if c is None else lib.tensor(c, requires_grad=True)
    inp = xt
    if lengths is not None:
        inp = lib.nn.utils.rnn.pack_padded_sequence(xt, lengths, batch_first=module.batch_first,
                                                    enforce_sorted=False)
    out, state = module(inp, ht if ct is None else (ht, ct))
    if lengths is not None:
        out, _ = lib.nn.utils.rnn.pad_packed_sequence(out, batch_first=module.batch_first)
    states = state if isinstance(state, tuple) else (state,)
    rng = np.random.default_rng(5)
    loss = (out * lib.tensor(rng.standard_normal(tuple(out.shape)))).sum()
    for s in states:
        loss = loss + (s * lib.tensor(rng.standard_normal(tuple(s.shape)))).sum()
    loss.backward()
    values = [out.detach().numpy()] + [s.detach().numpy() for s in states]
    grads = [xt.grad.numpy(), ht.grad.numpy()] + ([ct.grad.numpy()] if ct is not None else [])
    params = {n: p.grad.numpy() for n, p in module.named_parameters()}
    return values, grads, params, out


def _compare(t, e, x, h, c, lengths=None, rtol=1e-9, atol=1e-10):
    tv, tg, tp, tout = _run(torch, t, x, h, c, lengths)
    ev, eg, ep, eout = _run(ember, e, x, h, c, lengths)
    for a, b in zip(ev + eg, tv + tg):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    assert set(ep) == set(tp)
    for name in tp:
        np.testing.assert_allclose(ep[name], tp[name], rtol=rtol, atol=atol, err_msg=name)
    return tout, eout


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_values_and_gradients(name):
    t, e = _pair(LAYERS[name])
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 4, 3) if t.batch_first else (4, 2, 3))
    h, c = _states(t, 2, rng)
    tout, eout = _compare(t, e, x, h, c)
    if not t.batch_first:
        assert type(eout.grad_fn).__name__ == type(tout.grad_fn).__name__


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_packed_unequal_lengths(name):
    t, e = _pair(LAYERS[name])
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 5, 3) if t.batch_first else (5, 3, 3))
    h, c = _states(t, 3, rng)
    _compare(t, e, x, h, c, lengths=[3, 5, 1])


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_float32_no_initial_state(name):
    t, e = _pair(LAYERS[name], np.float32)
    x = np.random.default_rng(3).standard_normal((3, 2, 3)).astype(np.float32)
    to, ts = t(torch.from_numpy(x))
    eo, es = e(ember.from_numpy(x))
    names = type(eo.grad_fn).__name__, type(to.grad_fn).__name__
    # NOTE: torch transposes batch-first RNN/GRU outputs in place (TransposeBackward1);
    # ember has no in-place transpose and records TransposeBackward0.
    assert names[0] == names[1] or names == ("TransposeBackward0", "TransposeBackward1")
    np.testing.assert_allclose(eo.detach().numpy(), to.detach().numpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(es if isinstance(es, tuple) else (es,), ts if isinstance(ts, tuple)
                    else (ts,)):
        assert a.dtype == ember.float32
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5,
                                   atol=1e-6)


@pytest.mark.parametrize("name", sorted(CELLS))
def test_cells(name):
    t, e = _pair(CELLS[name])
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3))
    states = [rng.standard_normal((2, 5))]
    if "lstm" in name:
        states.append(rng.standard_normal((2, 5)))
    results = []
    for lib, m in ((torch, t), (ember, e)):
        xt = lib.tensor(x, requires_grad=True)
        st = [lib.tensor(s, requires_grad=True) for s in states]
        out = m(xt, tuple(st) if len(st) == 2 else st[0])
        outs = out if isinstance(out, tuple) else (out,)
        sum(o.sum() * (k + 1) for k, o in enumerate(outs)).backward()
        results.append(([o.detach().numpy() for o in outs], [type(o.grad_fn).__name__
                                                            for o in outs],
                        [xt.grad.numpy()] + [s.grad.numpy() for s in st],
                        {n: p.grad.numpy() for n, p in m.named_parameters()}))
    (tv, tn, tg, tp), (ev, en, eg, ep) = results
    assert en == tn
    for a, b in zip(ev + eg, tv + tg):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-10)
    for n in tp:
        np.testing.assert_allclose(ep[n], tp[n], rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("name", sorted(LAYERS) + sorted(CELLS))
def test_default_init_and_repr(name):
    factory = {**LAYERS, **CELLS}[name]
    torch.manual_seed(7)
    t = factory(torch.nn)
    ember.manual_seed(7)
    e = factory(ember.nn)
    assert repr(e) == repr(t)
    assert [(n, tuple(p.shape)) for n, p in e.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in t.named_parameters()]
    for (n, p), (_, q) in zip(e.named_parameters(), t.named_parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy(), err_msg=n)


def test_unbatched_node_names_and_values():
    t, e = _pair(lambda nn: nn.LSTM(3, 4, num_layers=2))
    x = np.random.default_rng(6).standard_normal((5, 3))
    to, (th, tc) = t(torch.tensor(x, requires_grad=True))
    eo, (eh, ec) = e(ember.tensor(x, requires_grad=True))
    for a, b in ((eo, to), (eh, th), (ec, tc)):
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-9)


def _error(fn, lib):
    try:
        fn(lib)
    except Exception as exc:        # noqa: BLE001 - the type is what is compared
        return type(exc), str(exc)
    return None


ERRORS = [
    lambda lib: lib.nn.LSTM(32, 64)(lib.randn(5, 3, 16)),
    lambda lib: lib.nn.GRU(32, 64)(lib.randn(5, 3, 32), lib.randn(1, 3, 32)),
    lambda lib: lib.nn.LSTM(32, 64)(lib.randn(5, 3, 32), (lib.randn(1, 3, 32),
                                                           lib.randn(1, 3, 64))),
    lambda lib: lib.nn.LSTM(32, 64)(lib.randn(5, 3, 32), (lib.randn(1, 3, 64),
                                                           lib.randn(1, 3, 32))),
    lambda lib: lib.nn.LSTM(32, 64)(lib.randn(5, 3, 32), lib.randn(1, 3, 64)),
    lambda lib: lib.nn.RNN(32, 64)(lib.randn(2, 5, 3, 32)),
    lambda lib: lib.nn.GRU(32, 64)(lib.randn(32)),
    lambda lib: lib.nn.LSTM(32, 64)(lib.randn(2, 5, 3, 32)),
    lambda lib: lib.nn.RNN(32, 64)(lib.randn(5, 32), lib.randn(1, 2, 64)),
    lambda lib: lib.nn.RNN(32, 64)(lib.randn(5, 3, 32), lib.randn(1, 64)),
    lambda lib: lib.nn.LSTM(32, 64)(lib.randn(5, 3, 32), (lib.randn(1, 64),
                                                           lib.randn(1, 64))),
    lambda lib: lib.nn.RNN(32, 64)(lib.randn(5, 3, 32, dtype=lib.float64)),
    lambda lib: lib.nn.GRU(3, 4)(lib.randn(0, 3, 3)),
    lambda lib: lib.nn.RNN(3, 4)(lib.randn(5, 2, 3), lib.randn(1, 2, 4).double()),
    lambda lib: lib.nn.LSTM(3, 4)(lib.randn(5, 2, 3), (lib.randn(1, 2, 4),
                                                       lib.randn(1, 2, 4).double())),
    lambda lib: lib.nn.LSTM(3, 4, proj_size=2).double()(
        lib.randn(5, 2, 3).double(), (lib.randn(1, 2, 2), lib.randn(1, 2, 4).double())),
    lambda lib: lib.nn.GRUCell(3, 4)(lib.randn(2, 3).double()),
    lambda lib: lib.nn.GRUCell(3, 4)(lib.randn(2, 3), lib.randn(2, 4).double()),
    lambda lib: lib.nn.LSTMCell(3, 4)(lib.randn(2, 3), (lib.randn(2, 4).double(),
                                                        lib.randn(2, 4))),
    lambda lib: lib.nn.RNN(32, 64, nonlinearity="sigmoid"),
    lambda lib: lib.nn.GRU(32, 64, proj_size=3),
    lambda lib: lib.nn.LSTM(32, 64, proj_size=64),
    lambda lib: lib.nn.LSTM(32, 64, proj_size=-1),
    lambda lib: lib.nn.LSTM(32, 0),
    lambda lib: lib.nn.LSTM(32, 4.0),
    lambda lib: lib.nn.LSTM(32, 4, num_layers=0),
    lambda lib: lib.nn.LSTM(32, 4, dropout=1.5),
    lambda lib: lib.nn.GRU(3, 4, batch_first=1),
    lambda lib: lib.nn.RNNCell(3, 4)(lib.randn(2, 5)),
    lambda lib: lib.nn.RNNCell(3, 4)(lib.randn(2, 3), lib.randn(2, 5)),
    lambda lib: lib.nn.RNNCell(3, 4)(lib.randn(2, 3), lib.randn(3, 4)),
    lambda lib: lib.nn.LSTMCell(3, 4)(lib.randn(2, 3), (lib.randn(2, 4), lib.randn(2, 5))),
    lambda lib: lib.nn.LSTMCell(3, 4)(lib.randn(2, 3), lib.randn(2, 4)),
    lambda lib: lib.nn.GRUCell(3, 4)(lib.randn(2, 2, 3)),
    lambda lib: lib.nn.RNNCell(3, 4)(lib.randn(2, 3), lib.randn(1, 2, 4)),
    lambda lib: lib.nn.RNNCell(3, 4, nonlinearity="foo")(lib.randn(2, 3)),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.randn(4, 3, 2), [2, 4, 1]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.randn(4, 3, 2), [4, 2, 0]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.randn(4, 3, 2), [4, 2]),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(
        lib.nn.utils.rnn.pack_padded_sequence(lib.randn(4, 3, 2), [4, 2, 1]), total_length=2),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.ones(2)], padding_side="middle"),
    lambda lib: lib.nn.utils.rnn.pad_sequence([]),
    lambda lib: lib.nn.utils.rnn.pad_sequence(5),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_errors(k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _error(ERRORS[k], ember) == _error(ERRORS[k], torch)


def test_dropout_warning():
    texts = []
    for lib in (torch, ember):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.GRU(3, 4, dropout=0.25)
        texts.append([(w.category, str(w.message)) for w in caught])
    assert texts[0] == texts[1] and len(texts[0]) == 1


def test_packing_utilities():
    rng = np.random.default_rng(8)
    seqs = [rng.standard_normal((n, 2)) for n in (2, 4, 1)]
    results = []
    for lib in (torch, ember):
        R = lib.nn.utils.rnn
        ts = [lib.tensor(s, requires_grad=True) for s in seqs]
        packed = R.pack_sequence(ts, enforce_sorted=False)
        padded, lengths = R.pad_packed_sequence(packed, batch_first=True, padding_value=-1.0,
                                                total_length=5)
        left = R.pad_sequence(ts, padding_side="left", padding_value=3.0)
        back = R.unpack_sequence(packed)
        (padded.sum() * 2 + (left * left).sum() + sum(b.sum() for b in back)).backward()
        results.append((packed.data.detach().numpy(), packed.batch_sizes.tolist(),
                        packed.sorted_indices.tolist(), packed.unsorted_indices.tolist(),
                        padded.detach().numpy(), lengths.tolist(), left.detach().numpy(),
                        [b.detach().numpy() for b in back], [t.grad.numpy() for t in ts],
                        type(packed.data.grad_fn).__name__, type(left.grad_fn).__name__))
    for a, b in zip(*results):
        if isinstance(a, np.ndarray):
            np.testing.assert_allclose(a, b)
        elif isinstance(a, list) and a and isinstance(a[0], np.ndarray):
            for x, y in zip(a, b):
                np.testing.assert_allclose(x, y)
        else:
            assert a == b


def test_lstm_layer_node_inputs():
    """The float32 LSTM node lists (input, weights, hx, cx) as torch's does."""
    names = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        m = lib.nn.LSTM(3, 4)
        out, _ = m(lib.randn(2, 1, 3, requires_grad=True))
        names.append([None if fn is None else type(fn).__name__
                      for fn, _ in out.grad_fn.next_functions])
    assert names[0] == names[1]
