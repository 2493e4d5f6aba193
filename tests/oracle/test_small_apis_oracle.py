"""as_strided_scatter, Tensor.map2_, nn.CrossMapLRN2d, conv_tbc and linear_cross_entropy (with
LinearCrossEntropyLoss and LinearCrossEntropyOptions) against real torch: values, dtypes,
gradients, node names, printed forms, warnings and error texts. Skipped when torch is not
installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _run(fn):
    """fn(lib) under ember and torch: ('ok', result) or ('error', type name, text) each."""
    out = []
    for lib in (ember, torch):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                result = ("ok", fn(lib))
            except Exception as e:          # noqa: BLE001 - compared below
                result = ("error", type(e).__name__, str(e))
        out.append((result, [str(w.message) for w in seen]))
    return out


def _plain(value):
    """Tensors as (dtype name, shape, values, grad_fn node name); containers recursively."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "dtype"):
        node = type(value.grad_fn).__name__ if value.grad_fn is not None else None
        return (str(value.dtype), tuple(value.shape), value.detach().numpy(), node)
    return value


def _same(fn, rtol=1e-6, atol=1e-6):
    (mine, my_warnings), (theirs, their_warnings) = _run(fn)
    assert my_warnings == their_warnings
    assert mine[0] == theirs[0], (mine, theirs)
    if mine[0] == "error":
        assert mine == theirs
        return
    a, b = _plain(mine[1]), _plain(theirs[1])
    _compare(a, b, rtol, atol)


def _compare(a, b, rtol, atol):
    if isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _compare(x, y, rtol, atol)
    elif isinstance(a, tuple) and len(a) == 4 and isinstance(a[2], np.ndarray):
        assert a[:2] == b[:2] and a[3] == b[3], (a, b)
        np.testing.assert_allclose(a[2], b[2], rtol=rtol, atol=atol)
    else:
        assert a == b


RNG = np.random.default_rng(0)


def _t(lib, array, grad=False):
    return lib.tensor(array, requires_grad=grad)


# -- as_strided_scatter and map2_ ----------------------------------------------------------------

X = RNG.standard_normal((3, 4))
S2 = RNG.standard_normal((2, 2))

SCATTERS = {
    "diagonal": lambda lib: lib.as_strided_scatter(_t(lib, X), _t(lib, X[0, :3]), (3,), (5,)),
    "offset": lambda lib: lib.as_strided_scatter(_t(lib, X), _t(lib, S2), (2, 2), (4, 1), 1),
    "overlap": lambda lib: lib.as_strided_scatter(_t(lib, X), _t(lib, S2), (2, 2), (1, 1), 1),
    "method_int": lambda lib: lib.arange(12).reshape(3, 4).as_strided_scatter(
        _t(lib, S2), (2, 2), (3, 1)),
    "sliced": lambda lib: lib.as_strided_scatter(_t(lib, X).reshape(-1)[2:], _t(lib, S2[0]),
                                                 (2,), (1,), 1),
    "transposed": lambda lib: lib.as_strided_scatter(_t(lib, X).t(), _t(lib, S2[0]), (2,), (1,),
                                                     1),
    "every_other": lambda lib: lib.as_strided_scatter(_t(lib, X).reshape(-1)[::2],
                                                      _t(lib, S2[0]), (2,), (1,), 1),
    "bad_size": lambda lib: lib.as_strided_scatter(_t(lib, X), _t(lib, S2), (3,), (1,)),
    "out_of_bounds": lambda lib: lib.as_strided_scatter(_t(lib, X), _t(lib, S2[0]), (2,), (1,),
                                                        11),
    "bad_stride": lambda lib: lib.as_strided_scatter(_t(lib, X), _t(lib, S2[0]), (2,), (1, 1)),
    "not_tensor": lambda lib: lib.as_strided_scatter(_t(lib, X), 2.0, (2,), (1,)),
    "grad_noncontig": lambda lib: lib.as_strided_scatter(_t(lib, X, True).t(), _t(lib, S2[0]),
                                                         (2,), (1,)),
}


@pytest.mark.parametrize("name", sorted(SCATTERS))
def test_as_strided_scatter(name):
    _same(SCATTERS[name])


@pytest.mark.parametrize("args", [((3,), (5,), None), ((2, 2), (4, 1), 1),
                                  ((2, 2), (1, 1), 1), ((2,), (1,), 3)])
def test_as_strided_scatter_gradients(args):
    size, stride, offset = args
    src = RNG.standard_normal(size)
    gout = RNG.standard_normal((3, 4))

    def fn(lib):
        x, s = _t(lib, X, True), _t(lib, src, True)
        y = lib.as_strided_scatter(x, s, size, stride, offset)
        gx, gs = lib.autograd.grad(y, (x, s), _t(lib, gout), create_graph=True)
        ggx = lib.autograd.grad((gs * gs).sum() + (gx * gx).sum(), x, allow_unused=True)[0]
        return [y, gx, gs, type(y.grad_fn).__name__, repr(y.detach()), ggx is None]
    _same(fn)


def _plus(a, b, c):
    return a * b - c


MAP2 = {
    "float": lambda lib: lib.zeros(2, 3).map2_(_t(lib, X[0, :3]).float(),
                                              lib.arange(2.0).reshape(2, 1), _plus),
    "int": lambda lib: lib.ones(3, dtype=lib.int32).map2_(
        lib.arange(3, dtype=lib.int32), lib.full((3,), 2, dtype=lib.int32),
        lambda a, b, c: a + b / c),
    "bool": lambda lib: lib.tensor([True, False]).map2_(lib.tensor([True, True]),
                                                       lib.tensor([False, True]),
                                                       lambda a, b, c: a and b and c),
    "dtype_x": lambda lib: lib.zeros(3).map2_(lib.ones(3, dtype=lib.int64), lib.ones(3), _plus),
    "dtype_y": lambda lib: lib.zeros(3).map2_(lib.ones(3), lib.ones(3, dtype=lib.int64), _plus),
    "not_tensor": lambda lib: lib.zeros(3).map2_(lib.ones(3), 2, _plus),
    "requires_grad": lambda lib: lib.zeros(3, requires_grad=True).map2_(lib.ones(3), lib.ones(3),
                                                                        _plus),
    "other_requires_grad": lambda lib: lib.zeros(3).map2_(lib.ones(3),
                                                          lib.ones(3, requires_grad=True), _plus),
    "map_other_requires_grad": lambda lib: lib.zeros(3).map_(lib.ones(3, requires_grad=True),
                                                             lambda a, b: a),
    "broadcast_error": lambda lib: lib.zeros(1).map2_(lib.ones(3), lib.ones(3), _plus),
}


@pytest.mark.parametrize("name", sorted(MAP2))
def test_map2_(name):
    _same(MAP2[name])


# -- nn.CrossMapLRN2d ------------------------------------------------------------------------------

LRN = {
    "default": (lambda nn: nn.CrossMapLRN2d(5), (2, 7, 3, 2)),
    "size3": (lambda nn: nn.CrossMapLRN2d(3, alpha=0.5, beta=0.75, k=1), (2, 5, 2, 2)),
    "size2": (lambda nn: nn.CrossMapLRN2d(2, alpha=2.0, beta=0.5, k=2.0), (1, 4, 3, 3)),
    "wide": (lambda nn: nn.CrossMapLRN2d(6, alpha=1.0, beta=1.5, k=0.5), (2, 3, 2, 1)),
    "one_channel": (lambda nn: nn.CrossMapLRN2d(3, alpha=1.0), (2, 1, 2, 2)),
}


@pytest.mark.parametrize("name", sorted(LRN))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cross_map_lrn2d(name, dtype):
    make, shape = LRN[name]
    x = RNG.standard_normal(shape).astype(dtype) * 2
    gout = RNG.standard_normal(shape).astype(dtype)

    def fn(lib):
        m = make(lib.nn)
        xt = _t(lib, x, True)
        y = m(xt)
        (g,) = lib.autograd.grad(y, xt, _t(lib, gout))
        return [y, g, repr(m), type(y.grad_fn).__name__, list(m.state_dict())]
    _same(fn, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(5, 2, 2), (1, 2, 3, 4, 5), (3,)])
def test_cross_map_lrn2d_wants_4d(shape):
    _same(lambda lib: lib.nn.CrossMapLRN2d(3)(lib.ones(shape)))


def test_cross_map_lrn2d_refuses_create_graph():
    def fn(lib):
        x = lib.ones(1, 3, 1, 1, requires_grad=True)
        return lib.autograd.grad(lib.nn.CrossMapLRN2d(3)(x).sum(), x, create_graph=True)
    _same(fn)


# -- conv_tbc ----------------------------------------------------------------------------------

@pytest.mark.parametrize("shapes,pad", [(((6, 2, 3), (3, 3, 4), (4,)), 0),
                                        (((6, 2, 3), (3, 3, 4), (4,)), 2),
                                        (((5, 1, 2), (4, 2, 3), (3,)), -1),
                                        (((2, 3, 1), (5, 1, 2), (2,)), 1),
                                        (((3, 2, 2), (1, 2, 2), (2,)), 4)])
@pytest.mark.parametrize("functional", [False, True])
def test_conv_tbc(shapes, pad, functional):
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    gout_shape = (shapes[0][0] + 2 * pad - shapes[1][0] + 1, shapes[0][1], shapes[1][2])
    gout = RNG.standard_normal(gout_shape).astype(np.float32)

    def fn(lib):
        x, w, b = (_t(lib, a, True) for a in arrays)
        conv = lib.nn.functional.conv_tbc if functional else lib.conv_tbc
        y = conv(x, w, b, pad)
        grads = lib.autograd.grad(y, (x, w, b), _t(lib, gout))
        return [y, list(grads), type(y.grad_fn).__name__]
    _same(fn, rtol=1e-5, atol=1e-5)


CONV_TBC_CASES = {
    "float64": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3, dtype=lib.float64),
                                        lib.ones(2, 3, 1, dtype=lib.float64), lib.ones(1), 1),
    "int64": lambda lib: lib.conv_tbc(lib.arange(24).reshape(4, 2, 3),
                                      lib.arange(6).reshape(2, 3, 1), lib.tensor([0.7])),
    "keywords": lambda lib: lib.nn.functional.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 3, 1),
                                                       bias=lib.ones(1), pad=2),
    "bool": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3, dtype=lib.bool),
                                     lib.ones(2, 3, 1, dtype=lib.bool), lib.ones(1)),
    "input_dims": lambda lib: lib.conv_tbc(lib.ones(4, 2), lib.ones(2, 3, 1), lib.ones(1)),
    "weight_dims": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 3), lib.ones(1)),
    "bias_dims": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 3, 1), lib.tensor(1.)),
    "channels": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 2, 1), lib.ones(1)),
    "bias_size": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 3, 1), lib.ones(2)),
    "negative": lambda lib: lib.conv_tbc(lib.ones(2, 2, 3), lib.ones(5, 3, 4), lib.ones(4)),
    "dtypes": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 3, 1).double(),
                                       lib.ones(1)),
    "no_bias": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 3, 1), None),
    "float_pad": lambda lib: lib.conv_tbc(lib.ones(4, 2, 3), lib.ones(2, 3, 1), lib.ones(1), 1.5),
}


@pytest.mark.parametrize("name", sorted(CONV_TBC_CASES))
def test_conv_tbc_cases(name):
    _same(CONV_TBC_CASES[name])


# -- linear_cross_entropy and LinearCrossEntropyLoss -------------------------------------------

XL = RNG.standard_normal((4, 3)).astype(np.float32)
WL = RNG.standard_normal((5, 3)).astype(np.float32)
WK = RNG.standard_normal((5, 2, 3)).astype(np.float32)
BL = RNG.standard_normal(5).astype(np.float32)
PROBS = RNG.dirichlet(np.ones(5), 4).astype(np.float32)
TARGET = np.array([0, 4, -100, 2])
TARGET_K = np.array([[0, 4], [1, 1], [3, -100], [2, 0]])


def _lce(*, x=XL, w=WL, target=TARGET, chunked=False, **given):
    """The loss and its gradients; `chunked`: torch takes its chunked path, whose node ember
    does not have (ember computes the reference way), so only values are compared."""
    def fn(lib):
        kwargs = dict(given)
        xt, wt = _t(lib, x, True), _t(lib, w, True)
        for key in ("linear_bias", "weight"):
            if key in kwargs:
                kwargs[key] = _t(lib, kwargs[key], key == "linear_bias")
        if "options" in kwargs:
            kwargs["options"] = lib.nn.LinearCrossEntropyOptions(**kwargs["options"])
        y = lib.nn.functional.linear_cross_entropy(xt, wt, _t(lib, target), **kwargs)
        grads = lib.autograd.grad(y.sum(), (xt, wt))
        return [y.detach() if chunked else y, list(grads)]
    return fn


LCE = {
    "mean": _lce(),
    "sum_bias": _lce(reduction="sum", linear_bias=BL),
    "none_weight": _lce(reduction="none", weight=np.arange(1, 6, dtype=np.float32)),
    "ignore_index": _lce(ignore_index=4, target=np.array([0, 4, 1, 2])),
    "smoothing": _lce(label_smoothing=0.2, weight=np.arange(1, 6, dtype=np.float32)),
    "probabilities": _lce(target=PROBS),
    "probabilities_ignore": _lce(target=PROBS, ignore_index=-100),
    "unbatched": _lce(x=XL[0], target=np.array(3)),
    "k_dim": _lce(w=WK, target=TARGET_K, linear_bias=BL[:, None] * np.ones((5, 2), np.float32)),
    "options": _lce(options={}, chunked=True),
    "options_none": _lce(options={}, chunked=True, reduction="none", linear_bias=BL),
    "options_smoothing": _lce(options={}, label_smoothing=0.1),
    "options_k_dim": _lce(options={"batch_chunk_size": 2}, w=WK, target=TARGET_K),
    "options_probabilities": _lce(options={}, target=PROBS),
    "options_conflict": _lce(options={"batch_chunk_size": 3, "chunking_method": "aspect_ratio"}),
    "options_agree": _lce(options={"batch_chunk_size": 2, "chunking_method": "aspect_ratio"},
                          chunked=True),
    "bad_input": _lce(x=XL[None]),
    "bad_weight": _lce(w=WL[0]),
    "bad_features": _lce(w=WL[:, :2]),
    "bad_bias": _lce(linear_bias=BL[:4]),
    "k_dim_unbatched": _lce(x=XL[0], w=WK, target=TARGET_K[0]),
    "bad_reduction": _lce(reduction="avg"),
}


@pytest.mark.parametrize("name", sorted(LCE))
def test_linear_cross_entropy(name):
    _same(LCE[name], rtol=1e-5, atol=1e-6)


OPTIONS = {
    "repr": lambda lib: repr(lib.nn.LinearCrossEntropyOptions(acc_policy="accurate",
                                                              acc_dtype=lib.float32)),
    "equal": lambda lib: lib.nn.LinearCrossEntropyOptions() == lib.nn.LinearCrossEntropyOptions(),
    "bad_policy": lambda lib: lib.nn.LinearCrossEntropyOptions(acc_policy="x"),
    "bad_method": lambda lib: lib.nn.LinearCrossEntropyOptions(chunking_method="aspect:2"),
    "bad_size": lambda lib: lib.nn.LinearCrossEntropyOptions(batch_chunk_size=0),
    "bad_dtype": lambda lib: lib.nn.LinearCrossEntropyOptions(acc_dtype=lib.int64),
}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_linear_cross_entropy_options(name):
    _same(OPTIONS[name])


@pytest.mark.parametrize("kwargs", [{}, {"bias": True, "out_features": (2,)},
                                    {"reduction": "sum", "label_smoothing": 0.1,
                                     "ignore_index": 1},
                                    {"dtype": "float64", "out_features": (2, 1)}])
def test_linear_cross_entropy_loss_module(kwargs):
    out_features = kwargs.get("out_features", ())

    def fn(lib):
        options = dict(kwargs)
        if "dtype" in options:
            options["dtype"] = getattr(lib, options["dtype"])
        lib.manual_seed(3)
        m = lib.nn.LinearCrossEntropyLoss(3, 5, **options)
        x = lib.randn(4, 3, dtype=m.linear.weight.dtype)
        target = lib.randint(0, 5, (4,) + out_features)
        y = m(x, target)
        y.backward()
        state = [(k, v.detach().numpy().tolist()) for k, v in m.state_dict().items()]
        return [y, repr(m), state, m.linear.weight.grad]
    _same(fn)


@pytest.mark.parametrize("kwargs", [{"weight": np.ones(4, np.float32)},
                                    {"label_smoothing": 1.5}])
def test_linear_cross_entropy_loss_module_errors(kwargs):
    def fn(lib):
        args = {k: _t(lib, v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        return lib.nn.LinearCrossEntropyLoss(3, 5, **args)
    _same(fn)
