"""The view-copy functions, the unsafe splits, gradient, range, fill, resize, frobenius_norm,
igamma, nonzero_static, empty_permuted, histogramdd, poisson, binomial, Tensor.storage() and
typename against real torch: values, dtypes, strides, node names, printed forms, error texts and
the numbers drawn for a seed. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _both(fn):
    """fn(lib) under ember and torch: ('ok', result) or ('error', type name, text)."""
    out = []
    for lib in (ember, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out.append(("ok", fn(lib)))
            except Exception as e:          # noqa: BLE001 - compared below
                out.append(("error", type(e).__name__, str(e)))
    return out


def _flat(result):
    if isinstance(result, (tuple, list)):
        return [x for r in result for x in _flat(r)]
    return [result]


def _same(fn, exact=True, grad_fn=True):
    mine, theirs = _both(fn)
    assert mine[0] == theirs[0], (mine, theirs)
    if mine[0] == "error":
        assert mine[1:] == theirs[1:]
        return
    a, b = _flat(mine[1]), _flat(theirs[1])
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if not hasattr(y, "detach"):
            assert x == y
            continue
        assert str(x.dtype) == str(y.dtype) and tuple(x.shape) == tuple(y.shape)
        assert tuple(x.stride()) == tuple(y.stride()) or x.numel() <= 1
        xs, ys = x.detach().numpy(), y.detach().numpy()
        if exact:
            np.testing.assert_array_equal(xs, ys)
        else:
            np.testing.assert_allclose(xs, ys, rtol=1e-6, atol=1e-6)
        if grad_fn:
            assert type(x.grad_fn).__name__ == type(y.grad_fn).__name__


def _t(lib, array, grad=False):
    t = lib.from_numpy(array.copy())
    return t.requires_grad_() if grad else t


A = RNG.standard_normal((3, 4)).astype(np.float32)
C = RNG.standard_normal((3, 2)).astype(np.float32)

COPIES = {
    "view_copy": lambda lib, a: lib.view_copy(a, [4, 3]),
    "view_copy_t": lambda lib, a: lib.view_copy(a.t(), [12]),
    "view_copy_dtype": lambda lib, a: lib.view_copy(a.detach(), lib.int32),
    "permute_copy": lambda lib, a: lib.permute_copy(a, (1, 0)),
    "t_copy": lambda lib, a: lib.t_copy(a),
    "t_copy_1d": lambda lib, a: lib.t_copy(a[0]),
    "transpose_copy": lambda lib, a: lib.transpose_copy(a, 0, 1),
    "expand_copy": lambda lib, a: lib.expand_copy(a[:1], (2, 4)),
    "squeeze_copy": lambda lib, a: lib.squeeze_copy(a[:1]),
    "squeeze_copy_dim": lambda lib, a: lib.squeeze_copy(a[:1], 0),
    "squeeze_copy_dims": lambda lib, a: lib.squeeze_copy(a[:1], (0, 1)),
    "unsqueeze_copy": lambda lib, a: lib.unsqueeze_copy(a, 1),
    "diagonal_copy": lambda lib, a: lib.diagonal_copy(a, 1),
    "select_copy": lambda lib, a: lib.select_copy(a, 1, 2),
    "slice_copy": lambda lib, a: lib.slice_copy(a, 1, 1, 3),
    "slice_copy_default": lambda lib, a: lib.slice_copy(a),
    "slice_copy_step": lambda lib, a: lib.slice_copy(a, 1, None, None, 2),
    "slice_copy_clamped": lambda lib, a: lib.slice_copy(a, 0, -2, 100),
    "split_copy": lambda lib, a: lib.split_copy(a, 2),
    "split_with_sizes_copy": lambda lib, a: lib.split_with_sizes_copy(a, [1, 2]),
    "unbind_copy": lambda lib, a: lib.unbind_copy(a, 1),
    "unfold_copy": lambda lib, a: lib.unfold_copy(a, 1, 2, 1),
    "narrow_copy": lambda lib, a: lib.narrow_copy(a, 1, 1, 2),
    "narrow_copy_method": lambda lib, a: a.narrow_copy(0, 1, 2),
    "alias_copy": lambda lib, a: lib.alias_copy(a),
    "detach_copy": lambda lib, a: lib.detach_copy(a),
    "detach": lambda lib, a: lib.detach(a),
    "as_strided_copy": lambda lib, a: lib.as_strided_copy(a, (2, 2), (1, 2), 1),
    "unsafe_chunk": lambda lib, a: lib.unsafe_chunk(a, 2, 1),
    "unsafe_split": lambda lib, a: lib.unsafe_split(a, 2),
    "unsafe_split_with_sizes": lambda lib, a: a.unsafe_split_with_sizes([2, 1]),
    "fill": lambda lib, a: lib.fill(a, 3),
    "fill_tensor": lambda lib, a: lib.fill(a, lib.tensor(2.5)),
    "split_copy_list": lambda lib, a: lib.split_copy(a, [1, 2]),
    "narrow_copy_bad": lambda lib, a: lib.narrow_copy(a, 0, 2, 2),
    "slice_copy_step0": lambda lib, a: lib.slice_copy(a, 0, 0, 3, 0),
}


@pytest.mark.parametrize("name", COPIES)
def test_copies(name):
    _same(lambda lib: COPIES[name](lib, _t(lib, A, grad=True) * 1))


def test_complex_view_copies():
    _same(lambda lib: lib.view_as_real_copy(lib.view_as_complex(_t(lib, C, grad=True))))
    _same(lambda lib: lib.view_as_complex_copy(_t(lib, C)))
    _same(lambda lib: lib.view_as_complex_copy(_t(lib, C, grad=True)))


@pytest.mark.parametrize("name", ["permute_copy", "unfold_copy", "as_strided_copy",
                                  "split_copy", "unsafe_chunk", "diagonal_copy", "fill_tensor"])
def test_copy_gradients(name):
    def grads(lib):
        a = _t(lib, A.astype(np.float64), grad=True)
        outs = _flat(COPIES[name](lib, a * 1))
        w = [lib.from_numpy(np.arange(o.numel(), dtype=np.float64).reshape(tuple(o.shape)))
             for o in outs]
        total = sum((o * x).sum() for o, x in zip(outs, w))
        return lib.autograd.grad(total, a)
    _same(grads, grad_fn=False)


GRADIENT = {
    "default": lambda lib, x: lib.gradient(x),
    "edge2": lambda lib, x: lib.gradient(x, edge_order=2),
    "scalar": lambda lib, x: lib.gradient(x, spacing=0.7),
    "list": lambda lib, x: lib.gradient(x, spacing=[0.7, 3], edge_order=2),
    "dim": lambda lib, x: lib.gradient(x, dim=-1, spacing=2.),
    "coords": lambda lib, x: lib.gradient(
        x, spacing=[lib.tensor([0., 1., 3., 4.5, 7.]), lib.tensor([0., 2., 2.5, 6.])]),
    "coords2": lambda lib, x: lib.gradient(
        x, spacing=[lib.tensor([0., 1., 3., 4.5, 7.])], dim=0, edge_order=2),
    "coords64": lambda lib, x: lib.gradient(
        x, spacing=[lib.tensor([0., 2., 2.5, 6.], dtype=lib.float64)], dim=1),
    "int": lambda lib, x: lib.gradient((x * 10).long(), edge_order=2),
    "int_coords": lambda lib, x: lib.gradient((x * 10).int(), spacing=[lib.tensor([0, 1, 3, 4, 9])],
                                              dim=0),
    "bool_coords2": lambda lib, x: lib.gradient(
        x > 0, spacing=[lib.tensor([0., 1., 3., 4.5, 7.])], dim=0, edge_order=2),
    "complex": lambda lib, x: lib.gradient(lib.complex(x, x.flip(0)), edge_order=2),
    "0d": lambda lib, x: lib.gradient(x[0, 0]),
    "bool": lambda lib, x: lib.gradient(x > 0),
    "uint8": lambda lib, x: lib.gradient(x.abs().to(lib.uint8)),
    "too_short": lambda lib, x: lib.gradient(x[:2], edge_order=2),
    "bad_order": lambda lib, x: lib.gradient(x, edge_order=3),
    "bad_list": lambda lib, x: lib.gradient(x, spacing=[1., 2., 3.]),
    "bad_dim_list": lambda lib, x: lib.gradient(x, dim=0, spacing=[1., 2.]),
    "0d_coords": lambda lib, x: lib.gradient(x, spacing=[lib.tensor(1.), lib.tensor(2.)]),
    "dup": lambda lib, x: lib.gradient(x, dim=(0, -2)),
    "range": lambda lib, x: lib.gradient(x, dim=2),
}


@pytest.mark.parametrize("name", GRADIENT)
def test_gradient(name):
    x = RNG.standard_normal((5, 4)).astype(np.float32)
    _same(lambda lib: GRADIENT[name](lib, _t(lib, x, grad=True)), exact=name != "complex")


def test_gradient_float64_exact():
    x = RNG.standard_normal((6, 3))
    coords = np.sort(RNG.uniform(0, 5, 6))
    other = np.array([0., 0.5, 2.])
    _same(lambda lib: lib.gradient(_t(lib, x), spacing=[_t(lib, coords), _t(lib, other)],
                                   edge_order=2))
    _same(lambda lib: lib.gradient(_t(lib, x), spacing=[_t(lib, coords), 0.5]))
    _same(lambda lib: lib.gradient(_t(lib, x), spacing=[0.5, "a"]))


@pytest.mark.parametrize("args", [(1, 4), (0, 1, 0.3), (4, 1, -1), (1, 4, 0), (4, 1), (5,),
                                  (-1.5, 2.5, 0.5), (0.5, 3, 1), (-1.7, 3, 1), (1, 4, 1.5)])
def test_range(args):
    _same(lambda lib: lib.range(*args))
    _same(lambda lib: lib.range(*args, dtype=lib.float64))
    if not (len(args) == 3 and 0 < abs(args[2]) < 1):      # torch's kernel would divide by 0
        _same(lambda lib: lib.range(*args, dtype=lib.int64))


def test_resize_and_misc():
    _same(lambda lib: (_t(lib, A, grad=True) * 1).resize(2, 6))
    _same(lambda lib: (_t(lib, A, grad=True) * 1).resize(2, 2))
    _same(lambda lib: (_t(lib, A, grad=True) * 1).resize((12,)))
    _same(lambda lib: (_t(lib, A, grad=True) * 1).t().resize_as(lib.zeros(12)))
    _same(lambda lib: lib.frobenius_norm(_t(lib, A, grad=True), (0, 1)), exact=False)
    _same(lambda lib: lib.frobenius_norm(_t(lib, A, grad=True), [1], keepdim=True), exact=False)
    _same(lambda lib: lib.frobenius_norm(_t(lib, A), (0, 1, 0)))
    v = np.array([[0, 1], [2, 0], [3, 3]])
    for size, fill in [(3, -1), (1, -1), (6, 9), (0, -1)]:
        _same(lambda lib: lib.nonzero_static(_t(lib, v), size=size, fill_value=fill))
    _same(lambda lib: lib.nonzero_static(_t(lib, v), size=-1))
    _same(lambda lib: lib.empty_permuted((2, 3, 5), (0, 2, 1)).zero_())
    _same(lambda lib: lib.empty_permuted((2, 3), (0, 2)))
    _same(lambda lib: lib.empty_permuted((2, 3), (1, 1)))


def test_igamma():
    a = RNG.uniform(0.1, 6, (4, 5)).astype(np.float32)
    x = RNG.uniform(0.0, 8, (4, 5)).astype(np.float32)
    _same(lambda lib: lib.igamma(_t(lib, a), _t(lib, x, grad=True)), exact=False)
    _same(lambda lib: lib.igammac(_t(lib, a), _t(lib, x, grad=True)), exact=False)
    _same(lambda lib: _t(lib, a).igammac_(_t(lib, x)), exact=False, grad_fn=False)
    inf, nan = float("inf"), float("nan")
    edge_a = np.array([-1., 0., 1., inf, nan, 0., inf, 5.], np.float32)
    edge_x = np.array([1., 1., 0., 1., 1., 0., inf, inf], np.float32)
    _same(lambda lib: lib.igamma(_t(lib, edge_a), _t(lib, edge_x)))
    _same(lambda lib: lib.igammac(_t(lib, edge_a), _t(lib, edge_x)))

    def grad_of_x(lib):
        aa, xx = _t(lib, a.astype(np.float64)), _t(lib, x.astype(np.float64) + 0.1, grad=True)
        return lib.autograd.grad(lib.igammac(aa, xx).sum(), xx)
    _same(grad_of_x, exact=False, grad_fn=False)


def test_histogramdd():
    x = RNG.uniform(0, 3, (50, 3)).astype(np.float32)
    w = RNG.uniform(0.5, 2, 50).astype(np.float32)
    _same(lambda lib: tuple(lib.histogramdd(_t(lib, x), bins=4)), exact=False)
    _same(lambda lib: tuple(lib.histogramdd(_t(lib, x), bins=[2, 3, 4],
                                            range=[0., 3., 1., 2., 0., 1.5])), exact=False)
    _same(lambda lib: tuple(lib.histogramdd(_t(lib, x.astype(np.float64)), bins=3,
                                            weight=_t(lib, w.astype(np.float64)),
                                            density=True)), exact=False)
    edges = [np.array([0., 1., 3.], np.float32), np.array([-1., 0.5, 1., 4.], np.float32),
             np.array([0., 3.], np.float32)]
    _same(lambda lib: tuple(lib.histogramdd(_t(lib, x), bins=[_t(lib, e) for e in edges])),
          exact=False)
    _same(lambda lib: tuple(lib.histogramdd(_t(lib, x, grad=True), bins=3)), exact=False)
    _same(lambda lib: tuple(lib.histogramdd(_t(lib, x, grad=True),
                                            bins=[_t(lib, e) for e in edges])), exact=False)
    _same(lambda lib: tuple(lib.histogramdd(_t(lib, x), bins=2, weight=_t(lib, w, grad=True))),
          exact=False)


def test_poisson_and_binomial_seeds():
    rates = np.concatenate([RNG.uniform(0, 10, 40), RNG.uniform(10, 300, 40), [0.0]])
    for dtype in (np.float32, np.float64):
        def poisson(lib):
            lib.manual_seed(11)
            return lib.poisson(_t(lib, rates.astype(dtype))), lib.rand(2)
        _same(poisson, grad_fn=False)
    n = np.floor(RNG.uniform(0, 400, 60))
    p = RNG.uniform(0, 1, 60)
    p[:5] = [0.0, 1.0, 0.5, 0.01, 0.99]
    for dtype in (np.float32, np.float64):
        def binomial(lib):
            lib.manual_seed(12)
            return lib.binomial(_t(lib, n.astype(dtype)), _t(lib, p.astype(dtype))), lib.rand(2)
        _same(binomial, grad_fn=False)

    def generator(lib):
        g = lib.Generator().manual_seed(5)
        return lib.poisson(_t(lib, rates.astype(np.float32)), generator=g)
    _same(generator, grad_fn=False)


def test_storage_and_typename():
    arrays = [np.array([1., 2.5, 3.], np.float32), np.array([1, 2], np.int64),
              np.array([True, False]), np.array([1 + 2j], np.complex64), np.zeros(0, np.float32),
              np.array([0.1, 1e10], np.float32), np.array([1.5], np.float16)]
    for a in arrays:
        mine, theirs = _both(lambda lib: repr(_t(lib, a).storage()))
        assert mine == theirs
        mine, theirs = _both(lambda lib: (_t(lib, a).storage().tolist(),
                                          _t(lib, a).storage().size(),
                                          _t(lib, a).storage().type(),
                                          lib.typename(_t(lib, a).storage())))
        assert mine == theirs
    _same(lambda lib: lib.tensor([]).set_(_t(lib, arrays[0]).storage(), 1, (2,), (1,)))
    _same(lambda lib: lib.tensor([]).set_(_t(lib, arrays[0]).untyped_storage()))
    _same(lambda lib: lib.tensor([], dtype=lib.float64).set_(_t(lib, arrays[0]).storage()))
    for obj in ("x", 3, "Linear", "LinearModule", "Tensor", "Parameter"):
        def name(lib):
            target = {"Linear": lib.nn.Linear, "LinearModule": lib.nn.Linear(1, 1),
                      "Tensor": lib.zeros(2, dtype=lib.int32),
                      "Parameter": lib.nn.Parameter(lib.zeros(1))}.get(obj, obj)
            return lib.typename(target)
        mine, theirs = _both(name)
        assert mine == theirs
