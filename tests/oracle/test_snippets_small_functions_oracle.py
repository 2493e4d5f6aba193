"""torch's remaining small public functions, run under real torch and under ember (`import
ember as torch`): what each snippet prints, including an exception's type and first line, must
be identical.

The ATen forms of the norms and dropout (`native_layer_norm`, `native_batch_norm`,
`native_group_norm`, `native_dropout`, `native_norm`), `constant_pad_nd`, `convolution`,
`embedding_bag`'s 4-tuple, `embedding_renorm_`, the grid samplers, `affine_grid_generator`,
`detach_` and `as_strided_`; the pieces of synchronized batch norm (CUDA-only kernels in torch:
on CPU tensors they fail alike); the functional recurrent layers and cells; the `sym_*`
helpers; build flags; `segment_reduce` and `hash_tensor`; and torch.utils.benchmark.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = "torch.manual_seed(0); F = torch.nn.functional\n"


def catch(expr):
    """A snippet printing the exception `expr` raises (type and first line)."""
    return f"try:\n    {expr}\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0][:200])"

NORM = [
    "x = torch.randn(2, 3, 4, requires_grad=True); w = torch.randn(4); b = torch.randn(4)\nfor r in torch.native_layer_norm(x, [4], w, b, 1e-5): print(r.shape, r.dtype, r.requires_grad, type(r.grad_fn).__name__)",
    "x = torch.randn(2, 3, 4); print(torch.native_layer_norm(x, [4], None, None, 1e-5))",
    "x = torch.randn(2, 3, 4); print(torch.native_layer_norm(x, (3, 4), None, None, 1e-3)[2])",
    "x = torch.randn(2, 3, dtype=torch.float64); print(torch.native_layer_norm(x, [3], None, None, 1e-5))",
    "x = torch.randn(2, 3).half(); print([r.dtype for r in torch.native_layer_norm(x, [3], None, None, 1e-5)])",
    catch("torch.native_layer_norm(torch.ones(3, 5), [4], None, None, 1e-5)"),
    catch("torch.native_layer_norm(torch.ones(3, 5), [], None, None, 1e-5)"),
    catch("torch.native_layer_norm(torch.ones(3, 5), 5, None, None, 1e-5)"),
    catch("torch.native_layer_norm(torch.ones(3, 5), [5], torch.ones(4), None, 1e-5)"),
    "x = torch.randn(2, 3, 4, requires_grad=True); o, m, r = torch.native_layer_norm(x, [4], None, None, 1e-5); (o * torch.arange(4.)).sum().backward(); print(x.grad)",
    "x = torch.randn(4, 3, 2, requires_grad=True); rm = torch.zeros(3); rv = torch.ones(3)\nout, m, s = torch.native_batch_norm(x, None, None, rm, rv, True, 0.1, 1e-5); print(out.grad_fn.name(), m, s, rm, rv)",
    "x = torch.randn(4, 3); out, m, s = torch.native_batch_norm(x, torch.ones(3) * 2, torch.zeros(3), None, None, True, 0.1, 1e-5); print(out, m, s)",
    "x = torch.randn(4, 3, requires_grad=True); r = torch.native_batch_norm(x, None, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5); print(r[0], r[1], r[2], r[1].dtype)",
    catch("torch.native_batch_norm(torch.ones(4, 3), None, None, torch.zeros(3), None, False, 0.1, 1e-5)"),
    catch("torch.native_batch_norm(torch.ones(4, 3, dtype=torch.long), None, None, None, None, True, 0.1, 1e-5)"),
    catch("torch.native_batch_norm(torch.ones(4), None, None, None, None, True, 0.1, 1e-5)"),
    "x = torch.randn(4, 3, 2).half(); print([r.dtype for r in torch.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)])",
    "x = torch.randn(2, 6, 3, requires_grad=True); r = torch.native_group_norm(x, None, None, 2, 6, 3, 3, 1e-5)\nfor t in r: print(t.shape, type(t.grad_fn).__name__)\nprint(r[1], r[2])",
    "x = torch.randn(2, 4, 3); print(torch.native_group_norm(x, torch.ones(4) * 2, torch.ones(4), 2, 4, 3, 2, 1e-5)[0])",
    "x = torch.randn(2, 4, 3, dtype=torch.float64, requires_grad=True); o, m, r = torch.native_group_norm(x, None, None, 2, 4, 3, 2, 1e-5); m.sum().backward(); print(x.grad)",
    catch("torch.native_group_norm(torch.ones(3, 5), None, None, 3, 5, 2, 1, 1e-5)"),
    catch("torch.native_group_norm(torch.ones(3, 5), None, None, 3, 5, 1, 2, 1e-5)"),
    "x = torch.randn(3, 5, requires_grad=True); o, m = torch.native_dropout(x, 0.5, True); print(o, m, o.grad_fn.name())",
    "x = torch.randn(3, 5); o, m = torch.native_dropout(x, 0.2, None); print(o, m)",
    "x = torch.randn(3, 5, requires_grad=True); o, m = torch.native_dropout(x, 0.5, False); print(o, m)",
    "x = torch.randn(3, 5, requires_grad=True); o, m = torch.native_dropout(x, 0.3, True); o.sum().backward(); print(x.grad)",
    "x = torch.randn(2, 3); print(torch.native_dropout(x, 1.0, True))",
    "x = torch.randn(2, 3); print(torch.native_dropout(x, 0.0, True))",
    catch("torch.native_dropout(torch.ones(2, 3), 1.5, True)"),
    catch("torch.native_dropout(torch.ones(2, 3, dtype=torch.long), 0.5, True)"),
    "print(torch.native_dropout(torch.tensor([1, -2, 3]), 0.5, False))",
    "torch.manual_seed(3); a = F.dropout(torch.ones(20), 0.4); torch.manual_seed(3); b, m = torch.native_dropout(torch.ones(20), 0.4, True); print(torch.equal(a, b), m.sum())",
    catch("torch.native_norm(torch.ones(3))"),
    "x = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [1, 0, 0]]), torch.tensor([3., 4., 1.]), (2, 2)); print(torch.native_norm(x), torch.native_norm(x, 1), torch.native_norm(x, float('inf')), torch.native_norm(x, 2, [0, 1], False, None), torch.native_norm(x, None, [-1, 0], False, None))",
    "x = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [1, 0, 0]]), torch.tensor([3., 4., 1.]), (2, 2))\n" + catch("torch.native_norm(x, 2, [], False, torch.float64)"),
    "x = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [1, 0, 0]]), torch.tensor([3., 4., 1.]), (2, 2))\n" + catch("torch.native_norm(x, 2, [0, 1], True, None)"),
    "x = torch.sparse_coo_tensor(torch.tensor([[0, 1, 1], [1, 0, 0]]), torch.tensor([3., 4., 1.]), (2, 2))\n" + catch("torch.native_norm(x, 2, [0], False, None)"),
    catch("torch.native_norm(torch.ones(3), 2, [0], False, None)"),
]

PAD_CONV = [
    "x = torch.arange(6.).reshape(2, 3).requires_grad_(); print(torch.constant_pad_nd(x, [1, 2]))",
    "x = torch.arange(6.).reshape(2, 3); print(torch.constant_pad_nd(x, [1, 2], 3.5))",
    "x = torch.arange(6.).reshape(2, 3); print(torch.constant_pad_nd(x, [-1, 1, 0, 1]))",
    "x = torch.arange(6).reshape(2, 3); print(torch.constant_pad_nd(x, [1, 1], 2.5))",
    "x = torch.arange(6.).reshape(2, 3); print(torch.constant_pad_nd(x, (0, 0, 2, 0), value=-1))",
    catch("torch.constant_pad_nd(torch.ones(2, 3), [1])"),
    catch("torch.constant_pad_nd(torch.ones(2, 3), [1, 1, 1, 1, 1, 1])"),
    catch("torch.constant_pad_nd(torch.ones(2, 3), 1)"),
    "x = torch.arange(6.).reshape(2, 3).requires_grad_(); y = torch.constant_pad_nd(x, [1, 1]); (y * torch.arange(5.)).sum().backward(); print(x.grad)",
    "i = torch.arange(10.).reshape(1, 1, 10); w = torch.ones(2, 1, 3); print(torch.convolution(i, w, None, [1], [0], [1], False, [0], 1))",
    "i = torch.arange(10.).reshape(1, 1, 10); w = torch.ones(2, 1, 3); print(torch.convolution(i, w, torch.tensor([1., -1.]), [2], [1], [1], False, [0], 1))",
    "i = torch.arange(10.).reshape(1, 1, 10); w = torch.ones(1, 2, 3); print(torch.convolution(i, w, None, [2], [1], [1], True, [1], 1))",
    "i = torch.randn(1, 2, 5, 5, requires_grad=True); w = torch.randn(2, 1, 3, 3); y = torch.convolution(i, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 2); print(y.shape, y.grad_fn.name())",
    "i = torch.randn(1, 2, 5, 5, requires_grad=True); w = torch.randn(2, 1, 3, 3); y = torch.convolution(i, w, None, [2, 2], [1, 1], [1, 1], True, [1, 1], 2); print(y.shape, y.grad_fn.name())",
    "i = torch.randn(1, 2, 5, 5); w = torch.randn(2, 1, 3, 3); print(torch.convolution(i, w, None, [1], [1], [1], False, [0], 2).shape)",
    "i = torch.randn(1, 2, 4, 4, 4); w = torch.randn(3, 2, 2, 2, 2); print(torch.convolution(i, w, None, [1, 1, 1], [0, 0, 0], [2, 2, 2], False, [0, 0, 0], 1).shape)",
    "i = torch.randn(1, 2, 5, 5); w = torch.randn(2, 1, 3, 3); print(torch.allclose(torch.convolution(i, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 2), F.conv2d(i, w, None, 1, 1, 1, 2)))",
    catch("torch.convolution(torch.ones(1, 1, 5), torch.ones(1, 1, 3), None, 1, [0], [1], False, [0], 1)"),
    catch("torch.convolution(torch.randn(1, 2, 5, 5), torch.randn(2, 1, 3, 3), None, [1, 1], [1, 1], [1, 1], False, [0, 0], 3)"),
    catch("torch.convolution(torch.randn(1, 2, 5, 5), torch.randn(2, 1, 3, 3), None, [1, 1], [1, 1], [1, 1], True, [2, 2], 2)"),
]

EMB = [
    "w = torch.arange(12.).reshape(6, 2).requires_grad_(); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4])\nfor mode in (0, 1, 2): print(torch.embedding_bag(w, i, o, False, mode))",
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4]); print(torch.embedding_bag(w, i, o, False, 0, False, torch.ones(5) * 2))",
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4])\nfor mode in (0, 2): print(torch.embedding_bag(w, i, o, False, mode, False, None, True))",
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4])\nfor mode in (0, 1, 2): print(torch.embedding_bag(w, i, o, False, mode, False, None, False, 2))",
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4]); print(torch.embedding_bag(w, i, o, False, 1, False, None, False, -1))",
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4]); print(torch.embedding_bag(w, i.int(), o.int(), False, 1))",
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4]); print(torch.embedding_bag(w, i, o, False, 0, False, torch.ones(5) * 2, False, 2))",
    "w = torch.arange(12.).reshape(6, 2); print(torch.embedding_bag(w, torch.tensor([1, 1, 4]), torch.tensor([0]), mode=2))",
    "w = torch.arange(12.).reshape(6, 2).requires_grad_(); out = torch.embedding_bag(w, torch.tensor([0, 2, 1]), torch.tensor([0, 1]), False, 1)[0]; out.sum().backward(); print(w.grad, [r.grad_fn is None for r in torch.embedding_bag(w, torch.tensor([0]), torch.tensor([0]))])",
    catch("torch.embedding_bag(torch.ones(6, 2), torch.tensor([0, 1]), torch.tensor([0]), False, 3)"),
    catch("torch.embedding_bag(torch.ones(6, 2), torch.tensor([0, 1]), torch.tensor([0]), False, 1, False, torch.ones(2))"),
    catch("torch.embedding_bag(torch.ones(6, 2), torch.tensor([0., 1.]), torch.tensor([0]))"),
    catch("torch.embedding_bag(torch.ones(6, 2), torch.tensor([0, 1]), torch.tensor([0, 3]))"),
    "w = torch.tensor([[3., 4.], [1., 0.], [0., 6.]]); r = torch.embedding_renorm_(w, torch.tensor([0, 2, 0]), 2.0, 2.0); print(r is w, w)",
    "w = torch.tensor([[3., 4.], [1., 0.], [0., 6.]]); print(torch.embedding_renorm_(w, torch.tensor([0, 1]), 1.0, 1.0))",
    "w = torch.tensor([[3., 4.], [1., 0.], [0., 6.]]); print(torch.embedding_renorm_(w, torch.tensor([1, 2], dtype=torch.int32), 5.0, float('inf')))",
    catch("torch.embedding_renorm_(torch.ones(3, 2, requires_grad=True), torch.tensor([0, 1]), 1.0, 1.0)"),
    catch("torch.embedding_renorm_(torch.ones(3, 2), torch.tensor([0.]), 1.0, 1.0)"),
    catch("torch.embedding_renorm_(torch.ones(3, 2), torch.tensor([5]), 1.0, 1.0)"),
]

GRID = [
    "inp = torch.arange(16.).reshape(1, 1, 4, 4).requires_grad_(); g = torch.tensor([[[[-1., -1.], [0.5, 0.2]], [[0., 0.], [1.2, 1.]]]])\nfor m in range(3):\n    for p in range(3): print(m, p, torch.grid_sampler(inp, g, m, p, False))",
    "inp = torch.arange(16.).reshape(1, 1, 4, 4); g = torch.tensor([[[[-1., -1.], [0.5, 0.2]], [[0., 0.], [1.2, 1.]]]]); print(torch.grid_sampler_2d(inp, g, 0, 1, True))",
    "i3 = torch.arange(8.).reshape(1, 1, 2, 2, 2); g3 = torch.tensor([[[[[0., 0., 0.], [0.5, -0.5, 0.25]]]]]); print(torch.grid_sampler_3d(i3, g3, 0, 0, False), torch.grid_sampler(i3, g3, 1, 2, True))",
    "inp = torch.randn(1, 2, 3, 3, requires_grad=True); g = torch.rand(1, 2, 2, 2) * 2 - 1; y = torch.grid_sampler(inp, g, 0, 0, False); y.sum().backward(); print(y.grad_fn.name(), inp.grad)",
    catch("torch.grid_sampler_3d(torch.ones(1, 1, 4, 4), torch.zeros(1, 2, 2, 2), 0, 0, False)"),
    catch("torch.grid_sampler_2d(torch.ones(1, 1, 1, 4, 4), torch.zeros(1, 2, 2, 2), 0, 0, False)"),
    catch("torch.grid_sampler_3d(torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 1, 1, 2, 3), 2, 0, False)"),
    catch("torch.grid_sampler(torch.ones(2, 1, 4, 4), torch.zeros(1, 2, 2, 2), 0, 0, False)"),
    "th = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]], requires_grad=True); g = torch.affine_grid_generator(th, [1, 1, 2, 3], False); print(g)",
    "th = torch.tensor([[[0.5, 0.2, 0.1], [0., 1., -0.3]]], requires_grad=True); g = torch.affine_grid_generator(th, [1, 1, 2, 2], True); g.sum().backward(); print(g.grad_fn.name(), th.grad)",
    "th = torch.zeros(1, 3, 4); th[0, 0, 0] = 1; print(torch.affine_grid_generator(th, [1, 1, 2, 2, 2], True).shape)",
    catch("torch.affine_grid_generator(torch.zeros(1, 2, 3), [1, 1, 2], True)"),
    catch("torch.affine_grid_generator(torch.zeros(1, 2, 3), [2, 1, 2, 3], True)"),
]

VIEWS = [
    "x = torch.arange(6.); r = torch.as_strided_(x, (2, 2), (1, 2)); print(r is x, x, x.stride())",
    "x = torch.arange(6.); torch.as_strided_(x, (2,), (2,), 1); print(x, x.storage_offset())",
    "x = torch.ones(3, requires_grad=True); print(torch.detach_(x) is x, x.requires_grad, x.grad_fn)",
    "x = torch.ones(3, requires_grad=True) * 2; torch.detach_(x); print(x, x.grad_fn, x.requires_grad)",
    catch("torch.ones(3)[:2].detach_()"),
    catch("torch.ones(3).view(3).detach_()"),
    catch("torch.detach_(torch.ones(3, requires_grad=True)[1:])"),
    catch("torch.arange(4.).unbind()[0].detach_()"),
    "w = torch.ones(3, requires_grad=True); print(w.detach().detach_())",
    catch("torch.detach_(3)"),
]

EMB += [
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4]); print(torch.embedding_bag(w, i, o, False, 1, False, None, True))",
    "w = torch.arange(12.).reshape(6, 2).requires_grad_(); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4]); r = F.embedding_bag(i, w, o, mode='mean', include_last_offset=True); r.sum().backward(); print(r, w.grad)",
    "w = torch.arange(12.).reshape(6, 2).requires_grad_(); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4])\nfor mode in ('sum', 'mean', 'max'):\n    for pad in (5, 0):\n        w.grad = None; r = F.embedding_bag(i, w, o, mode=mode, include_last_offset=True, padding_idx=pad); r.sum().backward(); print(mode, pad, r.tolist(), w.grad[:, 0].tolist())",
    "w = torch.arange(12.).reshape(6, 2).requires_grad_(); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4])\nfor mode in (0, 1, 2):\n    for pad in (5, None): print(torch.embedding_bag(w, i, o, False, mode, False, None, True, pad)[1:])",
    "w = torch.arange(12.).reshape(6, 2); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4]); print(torch.embedding_bag(w, i, o, False, 0, False, None, True, 5))",
    "w = torch.arange(12.).reshape(6, 2, dtype=torch.float64).requires_grad_(); i = torch.tensor([0, 2, 1, 5, 3]); o = torch.tensor([0, 2, 2, 4])\nwith torch.no_grad(): print(torch.embedding_bag(w, i, o)[2:])",
]

BUGS = []


SYNC = [
    catch("torch.batch_norm_stats(torch.ones(2, 3), 1e-5)"),
    catch("torch.batch_norm_elemt(torch.ones(2, 3), None, None, torch.zeros(3), torch.ones(3), 1e-5)"),
    catch("torch.batch_norm_gather_stats(torch.ones(2, 3), torch.zeros(1, 3), torch.ones(1, 3), None, None, 0.1, 1e-5, 2)"),
    catch("torch.batch_norm_gather_stats_with_counts(torch.ones(2, 3), torch.zeros(1, 3), torch.ones(1, 3), None, None, 0.1, 1e-5, torch.ones(1))"),
    catch("torch.batch_norm_backward_reduce(torch.ones(2, 3), torch.ones(2, 3), torch.zeros(3), torch.ones(3), None, True, True, True)"),
    catch("torch.batch_norm_backward_elemt(torch.ones(2, 3), torch.ones(2, 3), torch.zeros(3), torch.ones(3), None, torch.zeros(3), torch.zeros(3), torch.ones(1, dtype=torch.int32))"),
    "x = torch.arange(24.).reshape(4, 3, 2); m = torch.zeros(3); v = torch.ones(3); print(torch.batch_norm_update_stats(x, m, v, 0.5), m, v)",
    "x = torch.arange(24.).reshape(4, 3, 2).double(); print(torch.batch_norm_update_stats(x, None, None, 0.1))",
    "x = torch.tensor([[1., 10.], [3., 30.]]).half(); print(torch.batch_norm_update_stats(x, None, None, 0.1))",
    "x = torch.tensor([[1., 10.], [3., 30.]], requires_grad=True); r = torch.batch_norm_update_stats(x, None, None, 0.1); print(r[0].requires_grad, type(r[1].grad_fn).__name__)",
    "x = torch.tensor([[1., 10.], [3., 30.]], requires_grad=True); r = torch.batch_norm_update_stats(x, None, None, 0.1)\n" + catch("r[0].sum().backward()"),
    catch("torch.batch_norm_update_stats(torch.ones(3), None, None, 0.1)"),
    catch("torch.batch_norm_update_stats(torch.ones(2, 3, 0), None, None, 0.1)"),
    catch("torch.batch_norm_update_stats(torch.ones(2, 3, dtype=torch.long), None, None, 0.1)"),
]

RNN = [
    "m = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True); x = torch.randn(5, 2, 3); h = torch.zeros(4, 2, 4)\nout, hn, cn = torch.lstm(x, (h, h), m._flat_weights, True, 2, 0.0, False, True, False); ref = m(x, (h, h))\nprint(torch.allclose(out, ref[0]), torch.allclose(hn, ref[1][0]), torch.allclose(cn, ref[1][1]), out.shape, out.grad_fn.name(), hn.grad_fn.name())",
    "m = torch.nn.LSTM(3, 4); x = torch.randn(5, 2, 3); h = torch.zeros(1, 2, 4); print(torch.lstm(x, (h, h), m._flat_weights, True, 1, 0.0, False, False, False)[0])",
    "m = torch.nn.LSTM(3, 4, batch_first=True); x = torch.randn(2, 5, 3); h = torch.zeros(1, 2, 4); out = torch.lstm(x, [h, h], m._flat_weights, True, 1, 0.0, True, False, True); print(out[0].shape, out[0].grad_fn.name(), torch.allclose(out[0], m(x)[0]))",
    "g = torch.nn.GRU(3, 4, batch_first=True, bias=False); xb = torch.randn(2, 5, 3)\no, hn = torch.gru(xb, torch.zeros(1, 2, 4), g._flat_weights, False, 1, 0.0, False, False, True); print(torch.allclose(o, g(xb)[0]), o.shape, o.grad_fn.name(), hn.grad_fn.name())",
    "g = torch.nn.GRU(3, 4, num_layers=2); x = torch.randn(4, 2, 3); print(torch.gru(x, torch.zeros(2, 2, 4), g._flat_weights, True, 2, 0.0, False, False, False)[1])",
    "r = torch.nn.RNN(3, 4, nonlinearity='relu'); x = torch.randn(5, 2, 3)\no, hn = torch.rnn_relu(x, torch.zeros(1, 2, 4), r._flat_weights, True, 1, 0.0, False, False, False); print(torch.allclose(o, r(x)[0]), o.grad_fn.name())",
    "r = torch.nn.RNN(3, 4); x = torch.randn(5, 2, 3)\no, hn = torch.rnn_tanh(x, torch.zeros(1, 2, 4), r._flat_weights, True, 1, 0.0, False, False, False); print(hn)",
    "r = torch.nn.RNN(3, 4); p = torch.nn.utils.rnn.pack_sequence([torch.randn(3, 3), torch.randn(2, 3)])\no, hn = torch.rnn_tanh(p.data, p.batch_sizes, torch.zeros(1, 2, 4), r._flat_weights, True, 1, 0.0, False, False); print(torch.allclose(o, r(p)[0].data), o.shape, o.grad_fn.name())",
    "l1 = torch.nn.LSTM(3, 4); p = torch.nn.utils.rnn.pack_sequence([torch.randn(3, 3), torch.randn(2, 3)])\no, hn, cn = torch.lstm(p.data, p.batch_sizes, (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4)), l1._flat_weights, True, 1, 0.0, False, False); print(torch.allclose(o, l1(p)[0].data), o.shape, cn)",
    "g = torch.nn.GRU(3, 4, bidirectional=True); p = torch.nn.utils.rnn.pack_sequence([torch.randn(3, 3), torch.randn(1, 3)])\no, hn = torch.gru(p.data, p.batch_sizes, torch.zeros(2, 2, 4), g._flat_weights, True, 1, 0.0, False, True); print(o.shape, torch.allclose(hn, g(p)[1]))",
    "lp = torch.nn.LSTM(3, 4, proj_size=2); x = torch.randn(5, 2, 3)\no, hn, cn = torch.lstm(x, (torch.zeros(1, 2, 2), torch.zeros(1, 2, 4)), lp._flat_weights, True, 1, 0.0, False, False, False); print(torch.allclose(o, lp(x)[0]), o.shape, hn.shape, cn.shape)",
    "m = torch.nn.LSTM(3, 4); x = torch.randn(5, 2, 3, requires_grad=True); h = torch.zeros(1, 2, 4); out = torch.lstm(x, (h, h), m._flat_weights, True, 1, 0.0, False, False, False)[0]; out.sum().backward(); print(x.grad[0])",
    "m = torch.nn.LSTM(3, 4, num_layers=2); x = torch.randn(5, 2, 3); h = torch.zeros(2, 2, 4)\n" + catch("torch.lstm(x, (h, h), m._flat_weights[:-1], True, 2, 0.0, False, False, False)"),
    "cell = torch.nn.LSTMCell(3, 4); xc = torch.randn(2, 3); hc = (torch.zeros(2, 4), torch.ones(2, 4))\nh, c = torch.lstm_cell(xc, hc, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh); print(h.grad_fn.name(), c.grad_fn.name(), torch.allclose(h, cell(xc, hc)[0]), c)",
    "cell = torch.nn.LSTMCell(3, 4, bias=False); xc = torch.randn(2, 3); print(torch.lstm_cell(xc, [torch.zeros(2, 4), torch.zeros(2, 4)], cell.weight_ih, cell.weight_hh))",
    "gc = torch.nn.GRUCell(3, 4); xc = torch.randn(2, 3); y = torch.gru_cell(xc, torch.ones(2, 4), gc.weight_ih, gc.weight_hh, gc.bias_ih, gc.bias_hh); print(y, torch.allclose(y, gc(xc, torch.ones(2, 4))))",
    "gc = torch.nn.GRUCell(3, 4); xc = torch.randn(2, 3); print(torch.gru_cell(xc, torch.ones(2, 4), gc.weight_ih, gc.weight_hh).grad_fn.name())",
    "rc = torch.nn.RNNCell(3, 4); xc = torch.randn(2, 3); print(torch.rnn_tanh_cell(xc, torch.ones(2, 4), rc.weight_ih, rc.weight_hh, rc.bias_ih, rc.bias_hh))",
    "rc = torch.nn.RNNCell(3, 4); xc = torch.randn(2, 3)\nwith torch.no_grad(): print(torch.rnn_relu_cell(xc, torch.ones(2, 4), rc.weight_ih, rc.weight_hh))",
    "rc = torch.nn.RNNCell(3, 4); xc = torch.randn(2, 3); print(torch.rnn_relu_cell(xc, torch.ones(2, 4), rc.weight_ih, rc.weight_hh, rc.bias_ih).grad_fn.name())",
    "cell = torch.nn.LSTMCell(3, 4); xc = torch.randn(2, 3)\n" + catch("torch.lstm_cell(xc, (torch.zeros(2, 4),), cell.weight_ih, cell.weight_hh)"),
]


def show(expr):
    """A snippet printing what `expr` returns (repr and type) or raises."""
    return f"try:\n    r = {expr}; print(repr(r), type(r).__name__)\nexcept Exception as e: print(type(e).__name__, e)"

SYM = [show(e) for e in [
    "torch.sym_int(3.7)", "torch.sym_int(-3.7)", "torch.sym_int(True)", "torch.sym_int(torch.tensor(3.7))",
    "torch.sym_int(float('inf'))", "torch.sym_int(float('nan'))",
    "torch.sym_float(3)", "torch.sym_float(True)", "torch.sym_float(torch.tensor(3))", "torch.sym_float('x')",
    "torch.sym_max(2, 3.5)", "torch.sym_max(4, 3.5)", "torch.sym_max(4, 3)", "torch.sym_max(2, 3.0)",
    "torch.sym_min(2.5, 3)", "torch.sym_min(True, 3)", "torch.sym_max(np.int64(2), 5)", "torch.sym_min(np.float32(2.5), 1)",
    "torch.sym_max(torch.tensor(2), torch.tensor(5))", "torch.sym_min(1, 'a')",
    "torch.sym_not(True)", "torch.sym_not(0)", "torch.sym_not(torch.tensor(True))", "torch.sym_not(torch.tensor([True, False]))",
    "torch.sym_sqrt(4)", "torch.sym_sqrt(2.0)", "torch.sym_sqrt(-1)", "torch.sym_sqrt(torch.tensor(4.))", "callable(torch.sym_sqrt)",
    "torch.sym_sum([1, 2, 3])", "torch.sym_sum([1, 2.5])", "torch.sym_sum([])", "torch.sym_sum((torch.tensor(1), 2))", "torch.sym_sum(range(5))",
    "torch.sym_ite(True, 1, 2)", "torch.sym_ite(False, 'a', 'b')", "torch.sym_ite(1, 1, 2)", "torch.sym_ite(torch.tensor(True), 1, 2)", "torch.sym_ite(True, 1, 2.0)",
]]

FLAGS = [
    "print(type(torch.has_lapack).__name__, torch.has_lapack, torch.has_spectral)",
    "print(torch.has_mkl == torch.backends.mkl.is_available(), torch.has_openmp == torch.backends.openmp.is_available())",
    "print(torch.init_num_threads())",
    "print(torch.is_distributed(torch.ones(2)), torch.ones(2).is_distributed())",
    catch("torch.is_distributed(3)"),
]

SEG = [
    "d = torch.tensor([1., 2., 3., 4., 5., 6.]); L = torch.tensor([2, 0, 3, 1])\nfor r in ['sum', 'mean', 'max', 'min', 'amax', 'amin', 'prod']: print(r, torch.segment_reduce(d, r, lengths=L))",
    "d = torch.tensor([1., 2., 3., 4., 5., 6.]); L = torch.tensor([2, 0, 3, 1]); print(torch.segment_reduce(d, 'sum', lengths=L, initial=10), torch.segment_reduce(d, 'max', lengths=L, initial=0))",
    "d = torch.tensor([1., 2., 3., 4., 5., 6.]); print(torch.segment_reduce(d, 'sum', offsets=torch.tensor([0, 2, 2, 5, 6])))",
    "d = torch.arange(6.).reshape(3, 2); print(torch.segment_reduce(d, 'mean', lengths=torch.tensor([2, 1])))",
    "d = torch.arange(6.).reshape(2, 3); print(torch.segment_reduce(d, 'sum', lengths=torch.tensor([[1, 2], [3, 0]]), axis=1))",
    "d = torch.arange(8.).reshape(2, 4).double(); print(torch.segment_reduce(d, 'amax', lengths=torch.tensor([1, 3]), axis=-1))",
    "d = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True); r = torch.segment_reduce(d, 'mean', lengths=torch.tensor([2, 0, 3, 1])); r.sum().backward(); print(r.grad_fn.name(), d.grad)",
    "d = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True); r = torch.segment_reduce(d, 'max', lengths=torch.tensor([2, 0, 3, 1])); r.sum().backward(); print(d.grad)",
    "d = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True); r = torch.segment_reduce(d, 'prod', lengths=torch.tensor([2, 0, 3, 1])); (r * torch.tensor([1., 2., 3., 4.])).sum().backward(); print(d.grad)",
    "d = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True); r = torch.segment_reduce(d, 'sum', lengths=torch.tensor([4, 2])); (r * torch.tensor([1., 2.])).sum().backward(); print(d.grad)",
    catch("torch.segment_reduce(torch.ones(6), 'sum', lengths=torch.tensor([2, 2]))"),
    catch("torch.segment_reduce(torch.ones(6), 'bad', lengths=torch.tensor([6]))"),
    catch("torch.segment_reduce(torch.ones(6), 'sum')"),
    catch("torch.segment_reduce(torch.ones(6), 'sum', indices=torch.tensor([6]))"),
    catch("torch.segment_reduce(torch.ones(6, dtype=torch.long), 'sum', lengths=torch.tensor([6]))"),
    catch("torch.segment_reduce(torch.ones(6), 'sum', lengths=torch.tensor([6.]))"),
    catch("torch.segment_reduce(torch.ones(6), 'sum', lengths=torch.tensor([7, -1]))"),
    "print(torch.hash_tensor(torch.tensor([1., 2.])), torch.hash_tensor(torch.tensor([1., 2.]).half()))",
    "print(torch.hash_tensor(torch.tensor([[1., 2.], [3, 4]]), 1), torch.hash_tensor(torch.tensor([[1., 2.], [3, 4]]), [0], keepdim=True))",
    "print(torch.hash_tensor(torch.tensor([1, 2, 3])), torch.hash_tensor(torch.tensor([-1, 2, 3])), torch.hash_tensor(torch.tensor([True, False])))",
    "print(torch.hash_tensor(torch.tensor(3.5)), torch.tensor([1., 2.]).hash_tensor(), torch.hash_tensor(torch.tensor([1, 2], dtype=torch.uint8)))",
    "print(torch.hash_tensor(torch.tensor([1., 2.], requires_grad=True)).requires_grad, torch.hash_tensor(torch.ones(0, 3), 0))",
    "print(torch.hash_tensor(torch.arange(24.).reshape(2, 3, 4), (0, 2)), torch.hash_tensor(torch.arange(6).reshape(2, 3), -1, keepdim=True))",
    catch("torch.hash_tensor(torch.tensor([], dtype=torch.float32))"),
    catch("torch.hash_tensor(torch.tensor([1., 2.]), mode=1)"),
    catch("torch.hash_tensor(torch.tensor([1+2j]))"),
]

# torch.utils.benchmark: measurements built from fixed times, timers on a fake clock (each
# reading `step` seconds after the last), so that every printed number is deterministic.
BENCH_SETUP = (
    "import importlib; B = importlib.import_module(torch.__name__ + '.utils.benchmark')\n"
    "T = B.TaskSpec\n"
    "class Clock:\n"
    "    def __init__(self, step): self.t, self.step = 0.0, step\n"
    "    def __call__(self):\n"
    "        self.t += self.step\n"
    "        return self.t\n"
    "def add_results():\n"
    "    out = []\n"
    "    for sub, base in (('float', 1e-5), ('int', 2.5e-5)):\n"
    "        for n, k in (('n=1', 1), ('n=10', 7), ('n=100', 60)):\n"
    "            out.append(B.Measurement(1000, [base * k * 1000 * f for f in (1.0, 1.02, 0.99, 1.01, 1.0)], T('x + 1', 'pass', label='Add', sub_label=sub, description=n)))\n"
    "    return out\n")

BENCH = [BENCH_SETUP + s for s in [
    "m = B.Measurement(100, [1.2e-3, 1.3e-3, 1.1e-3, 1.25e-3, 1.22e-3], T('x + 1', 'x = torch.ones(3)', label='add', sub_label='float', description='n=3')); print(m)",
    "m = B.Measurement(100, [1.2e-3, 1.3e-3, 1.1e-3, 1.25e-3, 1.22e-3], T('x + 1', 'pass')); print(m.median, m.mean, m.iqr, m.times)",
    "m = B.Measurement(100, [1.2e-3, 1.3e-3, 1.1e-3, 1.25e-3, 1.22e-3], T('x + 1', 'pass', label='L', sub_label='s')); print(m.significant_figures, m.has_warnings, m.meets_confidence(), m.title, m.as_row_name, m.stmt, m.env, m.num_threads, m.label, m.description)",
    "print(B.Measurement(10, [5e-6], T('y = x.sum()\\nz = y * 2', 'pass')))",
    "print(B.Measurement(1, [1.0, 2.0, 3.0, 10.0], T('f()', 'a = 1\\nb = 2', description='desc', num_threads=4)))",
    "print(B.Measurement(1, [1.0, 1.05, 1.1, 1.3], T('g()', 'pass')))",
    "print(B.Measurement(3, [3e-9, 6e-9, 4.5e-9], T('pass', 'pass', sub_label='tiny')))",
    "print(B.Measurement(2, [250.0, 260.0, 255.0, 251.0, 249.0], T('train()', 'pass', label='epoch')))",
    "m = B.Measurement(1, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], T('f()', 'pass')); print(m.median, m.iqr, m.significant_figures)",
    "m = B.Measurement(1, [1e-4 * (1 + 0.001 * k) for k in range(50)], T('f()', 'pass')); print(m.significant_figures, m.has_warnings)",
    "print(B.select_unit(1e-6), B.select_unit(0.5), B.select_unit(3e-9), B.select_unit(20.0), B.select_unit(999e-9), B.select_unit(1e-3))",
    "print(B.unit_to_english('us'), B.unit_to_english('s'), B.trim_sigfig(3.14159, 2), B.trim_sigfig(123456.0, 3), B.trim_sigfig(0.0123456, 1), B.ordered_unique([3, 1, 3, 2]))",
    "print(T('x', 'pass') == T('x', 'pass'), hash(T('x', 'pass')) == hash(T('x', 'pass')), repr(T('x', 'pass').summarize()), repr(T('a\\nb', 's', sub_label='q').title), repr(T('a', 'b\\nc', label='L', description='D').summarize()))",
    "m = B.Measurement(10, [1e-3, 2e-3], T('f()', 'pass'), metadata={'k': 1}); print(m.metadata, m == B.Measurement(10, [1e-3, 2e-3], T('f()', 'pass'), metadata={'k': 1}))",
    "m = B.Measurement(10, [1e-3, 2e-3], T('f()', 'pass'))\ntry:\n    m.nonexistent\nexcept AttributeError as e: print(e)",
    "a = B.Measurement(100, [1e-3, 2e-3], T('f()', 'pass')); b = B.Measurement(10, [3e-4], T('f()', 'pass')); c = B.Measurement(1, [1.0], T('g()', 'pass'))\nmerged = B.Measurement.merge([a, b, c]); print(len(merged), merged[0].times, merged[0].number_per_run, merged[1].raw_times)",
    "print(B.Compare(add_results()))",
    "c = B.Compare(add_results()); c.trim_significant_figures(); print(c)",
    "c = B.Compare(add_results()); c.colorize(); print(repr(str(c)))",
    "c = B.Compare(add_results()); c.colorize(rowwise=True); print(repr(str(c)))",
    "rs = [B.Measurement(1000, [3e-3, 3.1e-3], T('x * 2', 'pass', label='Mul', sub_label='float', description='n=1', num_threads=2)), B.Measurement(1000, [1e-3, 1.5e-3, 1e-3, 2e-3], T('x * 2', 'pass', label='Mul', sub_label='float', description='n=1', num_threads=1)), B.Measurement(1000, [4e-3], T('x * 2', 'pass', label='Mul', sub_label='int', description='n=10', num_threads=1))]\nc = B.Compare(add_results() + rs); c.highlight_warnings(); print(c)",
    "c = B.Compare(add_results()[:2]); c.extend_results(add_results()[2:]); c.print()",
    "print(B.Compare([B.Measurement(1, [2.0], T('a', 'pass', env='A', description='d')), B.Measurement(1, [3.0], T('a', 'pass', env='Bee', description='d'))]))",
    "print(B.Compare([B.Measurement(1, [2e-9, 3e-9], T('pass', 'pass', description='x'))]))",
    "print(B.Compare([B.Measurement(1, [1.5e-3], T('f()', 'pass', description='a')), B.Measurement(1, [2.5e-2], T('g()', 'pass', description='b'))]))",
    "try:\n    B.Compare([1])\nexcept ValueError as e: print(e)",
    "print(B.Compare([B.Measurement(1, [2.0], T('a', 'pass'))]).__class__.__name__, B.Colorize.ROWWISE, B.Colorize.NONE.value)",
    "t = B.Timer('y = x * 2', setup='x = torch.ones(3)', timer=Clock(0.001), label='mul', sub_label='ones', description='3'); m = t.timeit(100); print(m, m.raw_times, m.number_per_run)",
    "m = B.Timer('y = x * 2', setup='x = torch.ones(3)', timer=Clock(0.5)).blocked_autorange(); print(m.number_per_run, len(m.raw_times), m.median)",
    "m = B.Timer('y = x * 2', setup='x = torch.ones(3)', timer=Clock(0.01)).blocked_autorange(min_run_time=0.005); print(m)",
    "seen = []; B.Timer('pass', timer=Clock(0.02)).blocked_autorange(callback=lambda n, s: seen.append((n, round(s, 6))), min_run_time=0.01); print(seen)",
    "m = B.Timer('pass', timer=Clock(0.1)).adaptive_autorange(); print(m.number_per_run, len(m.raw_times), m)",
    "m = B.Timer('pass', timer=Clock(0.1)).adaptive_autorange(threshold=0.2, min_run_time=0.5, max_run_time=1.0); print(len(m.raw_times))",
    "print(B.Timer('z = a + b', globals={'a': 1, 'b': 2}, timer=Clock(1e-6)).timeit(10))",
    "print(B.Timer(stmt='\\n    x = 1\\n    y = x + 1\\n', timer=Clock(2e-3)).timeit(5))",
    "print(B.Timer('pass', num_threads=2, timer=Clock(1)).timeit(1))",
    "print(B.Timer('torch.ones(2)', timer=Clock(1)).timeit(2).stmt, B.Language.PYTHON, B.Language.CPP.value)",
    "seen = []; B.Timer('seen.append(torch.get_num_threads())', globals={'seen': seen}, num_threads=2, timer=Clock(1)).timeit(3); print(sorted(set(seen)), len(seen))",
    "try:\n    B.Timer(lambda: 1)\nexcept ValueError as e: print(e)",
    "try:\n    B.Timer('pass', global_setup='int x;')\nexcept ValueError as e: print(e)",
    "try:\n    B.Timer('pass', language='fortran')\nexcept ValueError as e: print(e)",
    "try:\n    B.Timer('pass').repeat()\nexcept NotImplementedError as e: print(e)",
    "try:\n    B.Timer('pass').autorange()\nexcept NotImplementedError as e: print(e)",
    "try:\n    B.Timer('undefined_name', timer=Clock(1)).timeit(3)\nexcept NameError as e: print(e)",
    "U = torch.__name__ + '.utils.benchmark.utils.'; print(importlib.import_module(U + 'common').Measurement is B.Measurement, importlib.import_module(U + 'timer').Timer is B.Timer, importlib.import_module(U + 'compare').Compare is B.Compare, importlib.import_module(U + 'common').TaskSpec is T)",
]]


SNIPPETS = [SETUP + s for s in NORM + PAD_CONV + EMB + GRID + VIEWS + SYNC + RNN + SYM + FLAGS
            + SEG] + BENCH

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=150)
