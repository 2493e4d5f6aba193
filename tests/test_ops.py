"""The generic operator suite: every entry of `op_table.TABLE` is checked the same way.

Per entry: forward values against the NumPy reference in every dtype (and the error for the
dtypes torch refuses), the result dtype by torch's promotion rules, broadcasting, strided and
transposed inputs, the in-place `op_` form, `out=`, the Tensor-method form, views sharing
storage, and gradients (and a few second derivatives) against central finite differences in
float64. A test fails when a registered operator has no entry.

Known ember bugs are strict xfails, listed once each in `op_table.BUGS`.
"""
import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import ember
from ember._ops.registry import FUNCTIONS, METHODS

import op_table as T
from op_table import TABLE, Maker, Sample


def _param(name, *rest, check):
    """A pytest param for (entry, ...), a strict xfail where op_table.BUGS lists this check."""
    bugs = TABLE[name].xfail
    key = f"{check}:{rest[0]}" if rest else check
    reason = bugs.get(key)
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(name, *rest, marks=marks, id="-".join((name,) + tuple(map(str, rest))))


def _entries(predicate=lambda e: True):
    return [name for name, e in TABLE.items() if predicate(e)]


def _available(entry):
    return not entry.needs_cuda or ember.cuda.is_available()


def _check_dtypes(entry):
    """The main dtype, and int64 too when the entry takes both."""
    main = _main_dtype(entry)
    return [main] + (["int64"] if "int64" in entry.dtypes and main != "int64" else [])


def _main_dtype(entry):
    """The dtype most checks run in: float64 when the entry takes it."""
    for name in ("float64", "float32", "int64"):
        if name in entry.dtypes:
            return name
    return entry.dtypes[0]


_samples = T.samples_of


# -- running and comparing --------------------------------------------------------------------

def _run(entry, sample, layout="contiguous", method=False, **extra):
    args = tuple(T.tensor_of(a, ember, layout) if isinstance(a, np.ndarray) else
                 T.convert(a, ember) for a in sample.args)
    kwargs = T.convert(dict(sample.kwargs, **extra), ember)
    return args, kwargs, entry.run(ember, args, kwargs, method=method)


def _is_empty(sample):
    return any(a.size == 0 for a in T.arrays_in((sample.args, sample.kwargs)).values())


def _dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def _check_value(actual, expected, name, entry, where=""):
    """One output against its reference: type, dtype, shape and values."""
    if name is None:
        assert not isinstance(actual, ember.Tensor), where
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"
        return
    assert isinstance(actual, ember.Tensor), f"{where}: got {type(actual).__name__}"
    assert _dtype_name(actual) == name, f"{where}: dtype {actual.dtype}, expected {name}"
    expected = np.asarray(expected)
    assert tuple(actual.shape) == expected.shape, \
        f"{where}: shape {tuple(actual.shape)}, expected {expected.shape}"
    T.assert_values(T.to_numpy(actual), T.as_expected(expected, name), name,
                    entry.tol.get(name), where)


def _check_result(entry, sample, result, where):
    names = entry.result_dtype(sample.args, sample.kwargs)
    if entry.random:
        shapes = T.outputs_of(entry.ref(*sample.args, **sample.kwargs))
        assert tuple(result.shape) == shapes[0].shape, where
        assert _dtype_name(result) == names, f"{where}: dtype {result.dtype}"
        return
    expected = T.reference(entry, sample)
    if isinstance(expected, (tuple, list)):
        outputs = T.outputs_of(result)
        assert isinstance(result, (tuple, list)), f"{where}: expected a tuple"
        assert len(outputs) == len(expected), f"{where}: {len(outputs)} outputs"
        names = names if isinstance(names, tuple) else (names,) * len(expected)
        for i, (a, e, n) in enumerate(zip(outputs, expected, names)):
            _check_value(a, e, n, entry, f"{where} output {i}")
    else:
        _check_value(result, expected, names, entry, where)


def _storage(t):
    return t.untyped_storage().data_ptr()


def _check_aliasing(entry, args, result, where):
    """Views share the input's storage; copies do not; `returns_input` ops return it."""
    if entry.returns_input or entry.mutates:
        assert result is args[0], f"{where}: expected the input itself"
    if entry.view is None or not isinstance(args[0], ember.Tensor) or args[0].numel() == 0:
        return
    if entry.view == "contiguous" and not args[0].is_contiguous():
        return
    for out in T.outputs_of(result):
        if isinstance(out, ember.Tensor) and out.numel():
            shares = _storage(out) == _storage(args[0])
            assert shares == bool(entry.view), f"{where}: shares storage: {shares}"


# -- the registry is covered -----------------------------------------------------------------

def _inplace_variants():
    """`op_` methods that are the in-place form of a registered `op`."""
    return {n for n in METHODS if n.endswith("_") and n[:-1] in METHODS and
            n not in TABLE}


def test_every_registered_operator_has_an_entry():
    public = set(FUNCTIONS) | {n for n in METHODS if not n.startswith("__")}
    missing = sorted(n for n in public - _inplace_variants()
                     if n not in TABLE and n not in T.EXCLUDED)
    assert not missing, f"operators without a table entry: {missing}"


def test_every_inplace_variant_is_declared():
    declared = {name + "_" for name, e in TABLE.items() if e.inplace}
    assert sorted(_inplace_variants() - declared) == []
    assert sorted(declared - set(METHODS)) == []


def _submodule_functions():
    """'linalg.inv', ...: the public functions of ember's operator namespaces."""
    names = set()
    for sub in T.SUBMODULES:
        module = getattr(ember, sub)
        names |= {f"{sub}.{n}" for n, fn in vars(module).items()
                  if not n.startswith("_") and callable(fn) and not isinstance(fn, type)
                  and getattr(fn, "__module__", "").startswith("ember.")}
    return names


def test_every_submodule_function_has_an_entry():
    missing = sorted(_submodule_functions() - set(TABLE))
    assert not missing, f"functions without a table entry: {missing}"


def test_entries_name_registered_operators():
    for name, entry in TABLE.items():
        assert name not in T.EXCLUDED, name
        if "." in name:
            assert name in _submodule_functions(), f"{name} is not a public function"
            continue
        registry = FUNCTIONS if entry.form == "function" else METHODS
        assert name in registry, f"{name} is not a registered {entry.form}"


def test_out_is_accepted_where_declared():
    for name, entry in TABLE.items():
        if entry.out:
            fn = FUNCTIONS.get(name) or METHODS.get(name) or T.lookup(ember, name)
            assert "out" in inspect.signature(fn).parameters, name


def test_exclusions_are_few_and_registered():
    assert len(T.EXCLUDED) <= 8
    assert set(T.EXCLUDED) <= set(METHODS) | set(FUNCTIONS)


# -- forward values, result dtypes, refused dtypes --------------------------------------------

FORWARD = [_param(name, dtype, check="forward")
           for name in _entries() for dtype in T.ALL
           if not TABLE[name].random or dtype in TABLE[name].dtypes]


@pytest.mark.parametrize("name,dtype", FORWARD)
def test_forward(name, dtype):
    """Every sample in `dtype` (including broadcasting, 0-dim, empty and mixed-dtype ones)
    matches the reference in dtype and values, or raises where torch refuses the dtype."""
    entry = TABLE[name]
    if not _available(entry):
        pytest.skip("needs CUDA")
    for sample in _samples(entry, dtype):
        where = f"{name}{sample}"
        if not entry.is_supported(sample.args, sample.kwargs):
            if not _is_empty(sample):        # torch checks dtypes only where it computes
                with pytest.raises(RuntimeError):
                    _run(entry, sample)
            continue
        args, kwargs, result = _run(entry, sample)
        _check_result(entry, sample, result, where)
        _check_aliasing(entry, args, result, where)
        if entry.check is not None:
            assert entry.check(result, args, kwargs), f"{where}: property check failed"


NONCONTIG = [_param(name, layout, check="noncontig") for name in _entries(
    lambda e: e.noncontig and not e.random and not e.needs_cuda) for layout in T.LAYOUTS[1:]]


@pytest.mark.parametrize("name,layout", NONCONTIG)
def test_noncontiguous_inputs(name, layout):
    """Inputs that are strided views (with a storage offset) or transposed give the same
    values as contiguous ones."""
    entry = TABLE[name]
    for dtype in _check_dtypes(entry):
        for sample in _samples(entry, dtype):
            if sample.variants and entry.is_supported(sample.args, sample.kwargs):
                args, kwargs, result = _run(entry, sample, layout)
                _check_result(entry, sample, result, f"{name}{sample} [{layout}]")


METHOD_FORMS = [_param(name, check="method") for name in _entries(
    lambda e: e.form == "function" and not e.random)
    if name in METHODS]


@pytest.mark.parametrize("name", METHOD_FORMS)
def test_method_form(name):
    """`x.op(*rest)` agrees with `ember.op(x, *rest)`."""
    entry = TABLE[name]
    dtype = _main_dtype(entry)
    for sample in _samples(entry, dtype):
        if not sample.variants or not isinstance(sample.args[0], np.ndarray) or \
                not entry.is_supported(sample.args, sample.kwargs):
            continue
        args, kwargs, result = _run(entry, sample, method=True)
        if result is T.SKIP:
            continue
        _check_result(entry, sample, result, f"{name}{sample} (method)")


# -- in-place and out= --------------------------------------------------------------------

def _broadcast_shape(sample):
    shapes = [a.shape for a in T.arrays_in((sample.args, sample.kwargs)).values()]
    return np.broadcast_shapes(*shapes)


INPLACE = [_param(name, check="inplace") for name in _entries(lambda e: e.inplace)]


@pytest.mark.parametrize("name", INPLACE)
def test_inplace(name):
    """`x.op_(*rest)` writes op(x, *rest) into x (same storage, same dtype) and returns x;
    it raises when the result would need another shape or a dtype x cannot hold."""
    entry = TABLE[name]
    for dtype in entry.dtypes:
        for sample in _samples(entry, dtype):
            # dtypes torch refuses are test_forward's business
            if not sample.variants or not isinstance(sample.args[0], np.ndarray) or \
                    not entry.is_supported(sample.args, sample.kwargs):
                continue
            x_dtype = T.dtype_name(sample.args[0].dtype)
            result_dtype = entry.result_dtype(sample.args, sample.kwargs)
            where = f"{name}_{sample}"
            # a layout-dependent op (noncontig=False) is checked on contiguous inputs only
            for layout in ("contiguous", "strided") if entry.noncontig else ("contiguous",):
                x = T.tensor_of(sample.args[0], ember, layout)
                rest = T.convert(sample.args[1:], ember)
                kwargs = T.convert(sample.kwargs, ember)
                fn = getattr(x, name + "_")
                if not T.can_cast(result_dtype, x_dtype) or \
                        _broadcast_shape(sample) != x.shape or x_dtype in entry.inplace_refuses:
                    with pytest.raises(RuntimeError):
                        fn(*rest, **kwargs)
                    continue
                ptr, version = x.data_ptr(), x._version
                result = fn(*rest, **kwargs)
                assert result is x, f"{where}: did not return self"
                assert x.data_ptr() == ptr and x._version > version, where
                _check_value(x, T.reference(entry, sample), x_dtype, entry, f"{where} {layout}")
                out_of_place = T.to_numpy(_run(entry, sample)[2].to(x.dtype))
                T.assert_values(T.to_numpy(x), T.as_expected(out_of_place, x_dtype), x_dtype,
                                entry.tol.get(x_dtype), f"{where}: differs from {name}()")
                if layout == "strided":
                    junk = T.to_numpy(x._base.select(-1, 0))
                    np.testing.assert_array_equal(
                        junk, T.to_numpy(T.tensor_of(T.junk_like(sample.args[0]), ember)),
                        err_msg=f"{where}: wrote outside the view")


OUT = [_param(name, check="out") for name in _entries(lambda e: e.out)]


def _empty_like_outputs(result, shape_of=lambda t: (0,), permuted=False):
    outs = []
    for t in T.outputs_of(result):
        shape = shape_of(t)
        if permuted and len(shape) >= 2:
            o = ember.empty(tuple(reversed(shape)), dtype=t.dtype).permute(
                *reversed(range(len(shape))))
        else:
            o = ember.empty(shape, dtype=t.dtype)
        outs.append(o)
    return tuple(outs) if isinstance(result, (tuple, list)) else outs[0]


@pytest.mark.parametrize("name", OUT)
def test_out(name):
    """`op(..., out=t)` writes the result into t and returns t: empty t is resized, a t of
    the right shape keeps its storage (even when non-contiguous), and a t whose dtype cannot
    hold the result is refused."""
    entry = TABLE[name]
    for dtype in _check_dtypes(entry):
        for sample in _samples(entry, dtype):
            if not sample.variants or not sample.out or \
                    not entry.is_supported(sample.args, sample.kwargs):
                continue
            where = f"{name}{sample} out="
            _, _, result = _run(entry, sample)
            outs = [_empty_like_outputs(result),
                    _empty_like_outputs(result, lambda t: tuple(t.shape)),
                    _empty_like_outputs(result, lambda t: tuple(t.shape), permuted=True)]
            copies = entry.out == "copy_"       # writes as Tensor.copy_: no resize, any dtype
            for out in outs[1:] if copies else outs:
                before = [(o.data_ptr(), o.numel()) for o in T.outputs_of(out)]
                _, _, returned = _run(entry, sample, out=out)
                if returned is None and isinstance(out, tuple):
                    returned = out              # torch's out= lists are filled; None returned
                for r, o, (ptr, n), expected in zip(T.outputs_of(returned), T.outputs_of(out),
                                                    before, T.outputs_of(result)):
                    assert r is o, f"{where}: did not return out"
                    if n and n == expected.numel():
                        assert o.data_ptr() == ptr, f"{where}: storage replaced"
                _check_result(entry, sample, returned, where)
            first = T.outputs_of(result)[0]
            if first.dtype.is_floating_point and entry.out is True:
                bad = ember.empty(tuple(first.shape), dtype=ember.int64)
                out = (bad,) + tuple(T.outputs_of(_empty_like_outputs(result))[1:]) \
                    if isinstance(result, (tuple, list)) else bad
                with pytest.raises(entry.out_error):
                    _run(entry, sample, out=out)


# -- gradients ------------------------------------------------------------------------------

def _float_outputs(result):
    return [t for t in T.outputs_of(result)
            if isinstance(t, ember.Tensor) and t.dtype.is_floating_point]


def _evaluate(entry, sample, arrays):
    """The op's floating outputs (as float64 arrays) with `arrays` replacing the sample's."""
    def make(arr, path):
        return T.tensor_of(arrays.get(path, arr), ember)
    with ember.no_grad():
        args = T.convert(sample.args, ember, make, ("a",))
        kwargs = T.convert(sample.kwargs, ember, make, ("k",))
        return [T.to_numpy(t) for t in _float_outputs(entry.run(ember, args, kwargs))]


def _grad_leaves(entry, sample):
    """The float64 arrays of a sample, by path; None when it has other floating arrays."""
    found = T.arrays_in(sample.args, ("a",))
    found.update(T.arrays_in(sample.kwargs, ("k",)))
    leaves = {}
    for path, arr in found.items():
        name = T.dtype_name(arr.dtype)
        if name == "float64":
            leaves[path] = arr
        elif name in T.FLOATS or name in T.COMPLEX:
            return None
    return leaves


def _build(entry, sample, leaves, requires_grad):
    """Tensors for a sample: the chosen leaves require grad (mutated inputs are cloned)."""
    tensors = {p: ember.tensor(a, requires_grad=requires_grad.get(p, False))
               for p, a in leaves.items()}

    def make(arr, path):
        if path in tensors:
            t = tensors[path]
            return t.clone() if entry.mutates and path == ("a", 0) else t
        return T.tensor_of(arr, ember)
    args = T.convert(sample.args, ember, make, ("a",))
    kwargs = T.convert(sample.kwargs, ember, make, ("k",))
    return tensors, entry.run(ember, args, kwargs)


def _numerical(entry, sample, leaves, gouts, eps):
    """d/dx of sum(gout * f(x)) by central differences, for every element of every leaf."""
    grads = {}
    for path, arr in leaves.items():
        g = np.zeros(arr.shape)
        for i in np.ndindex(arr.shape):
            values = []
            for sign in (1, -1):
                moved = arr.copy()
                moved[i] += sign * eps
                outs = _evaluate(entry, sample, {path: moved})
                values.append(sum(float(np.sum(o * go)) for o, go in zip(outs, gouts)))
            g[i] = (values[0] - values[1]) / (2 * eps)
        grads[path] = g
    return grads


def _grad_samples(entry):
    for sample in _samples(entry, "float64"):
        if not sample.grad or not entry.is_supported(sample.args, sample.kwargs):
            continue
        leaves = _grad_leaves(entry, sample)
        if leaves and sum(a.size for a in leaves.values()) <= 60:
            yield sample, leaves


GRAD = [_param(name, check="grad") for name in _entries(
    lambda e: e.grad is not None and "float64" in e.dtypes and _available(e))]


@pytest.mark.parametrize("name", GRAD)
def test_gradients(name):
    """Gradients of every float64 input (broadcast ones summed back to their shape) against
    central finite differences of sum(gout * output), for all inputs together and each alone;
    non-differentiable ops record no graph; under no_grad nothing records one."""
    entry = TABLE[name]
    eps = entry.fd.get("eps", 1e-6)
    rtol, atol = entry.fd.get("rtol", 1e-5), entry.fd.get("atol", 1e-6)
    checked = outputs_seen = 0
    for sample, leaves in _grad_samples(entry):
        where = f"{name}{sample}"
        paths = list(leaves)
        tensors, result = _build(entry, sample, leaves, {p: True for p in paths})
        with ember.no_grad():
            _, plain = _build(entry, sample, leaves, {p: True for p in paths})
        assert all(t.grad_fn is None for t in T.outputs_of(plain)
                   if isinstance(t, ember.Tensor)), f"{where}: recorded under no_grad"
        if any(isinstance(t, ember.Tensor) and t.is_complex() for t in T.outputs_of(result)):
            continue            # complex results are beyond this real finite-difference check
        outs = _float_outputs(result)
        outputs_seen += bool(outs)
        if entry.grad is False or not outs:
            for t in T.outputs_of(result):
                if isinstance(t, ember.Tensor):
                    assert not t.requires_grad and t.grad_fn is None, f"{where}: has a graph"
            continue
        rng = np.random.default_rng(len(where))
        # torch casts each grad_output to its output's dtype; round them the same way here so
        # that the finite differences use the values autograd sees.
        gouts = [T.to_numpy(ember.tensor(rng.standard_normal(tuple(o.shape))).to(o.dtype))
                 .astype(np.float64) for o in outs]
        inputs = [tensors[p] for p in paths]
        if entry.grad == "raises":
            with pytest.raises(RuntimeError):
                ember.autograd.grad(outs, inputs, [ember.tensor(g) for g in gouts])
            continue
        analytic = ember.autograd.grad(outs, inputs, [ember.tensor(g) for g in gouts],
                                       allow_unused=True)
        numeric = _numerical(entry, sample, leaves, gouts, eps)
        for p, g in zip(paths, analytic):
            expected = numeric[p]
            if g is None:
                g = ember.zeros(leaves[p].shape, dtype=ember.float64)
            assert tuple(g.shape) == leaves[p].shape, f"{where}: grad shape {tuple(g.shape)}"
            assert g.dtype == ember.float64, f"{where}: grad dtype {g.dtype}"
            np.testing.assert_allclose(T.to_numpy(g), expected, rtol=rtol, atol=atol,
                                       err_msg=f"{where}: gradient of input {p}")
        if len(paths) > 1:
            for p in paths:
                tensors, result = _build(entry, sample, leaves, {p: True})
                outs = _float_outputs(result)
                if any(o.requires_grad for o in outs):
                    alone = ember.autograd.grad(outs, [tensors[p]],
                                                [ember.tensor(g) for g in gouts],
                                                allow_unused=True)[0]
                else:           # no output depends on this input
                    alone = None
                got = T.to_numpy(alone) if alone is not None else 0 * numeric[p]
                np.testing.assert_allclose(got, numeric[p], rtol=rtol, atol=atol,
                                           err_msg=f"{where}: only input {p} requiring grad")
        checked += 1
    if entry.grad is True and outputs_seen:
        assert checked, f"{name}: no sample was gradient-checked"


GRADGRAD = [_param(name, check="gradgrad") for name in _entries(lambda e: e.gradgrad)]


@pytest.mark.parametrize("name", GRADGRAD)
def test_second_derivatives(name):
    """With create_graph=True the gradient is itself differentiable: d/dx <grad(x), v>
    against central differences of the first derivative."""
    entry = TABLE[name]
    done = 0
    for sample, leaves in _grad_samples(entry):
        if done == 3 or sum(a.size for a in leaves.values()) > 24:
            continue
        where = f"{name}{sample}"
        paths = list(leaves)
        rng = np.random.default_rng(7)

        def first(arrays, create_graph=False):
            merged = {p: arrays.get(p, a) for p, a in leaves.items()}
            tensors, result = _build(entry, sample, merged, {p: True for p in paths})
            outs = _float_outputs(result)
            grads = ember.autograd.grad(outs, [tensors[p] for p in paths],
                                        [ember.tensor(g) for g in gouts],
                                        create_graph=create_graph, allow_unused=True)
            return tensors, grads

        _, result = _build(entry, sample, leaves, {})
        gouts = [rng.standard_normal(tuple(o.shape)) for o in _float_outputs(result)]
        vs = [rng.standard_normal(a.shape) for a in leaves.values()]
        tensors, grads = first({}, create_graph=True)
        total = sum(((g * ember.tensor(v)).sum() for g, v in zip(grads, vs) if g is not None),
                    ember.zeros((), dtype=ember.float64))
        inputs = [tensors[p] for p in paths]
        if total.requires_grad:
            analytic = ember.autograd.grad(total, inputs, allow_unused=True)
        else:
            analytic = [None] * len(inputs)
        for p, g in zip(paths, analytic):
            numeric = np.zeros(leaves[p].shape)
            for i in np.ndindex(leaves[p].shape):
                values = []
                for sign in (1, -1):
                    moved = leaves[p].copy()
                    moved[i] += sign * 1e-6
                    _, gs = first({p: moved})
                    values.append(sum(float(np.sum(T.to_numpy(gi) * v))
                                      for gi, v in zip(gs, vs) if gi is not None))
                numeric[i] = (values[0] - values[1]) / 2e-6
            got = np.zeros(leaves[p].shape) if g is None else T.to_numpy(g)
            np.testing.assert_allclose(got, numeric, rtol=1e-4, atol=1e-5,
                                       err_msg=f"{where}: second derivative wrt {p}")
        done += 1
    assert done, f"{name}: no sample was checked"


# -- random ops: reproducible under a seed ------------------------------------------------------

RANDOM = [_param(name, check="seed") for name in _entries(lambda e: e.random)]


@pytest.mark.parametrize("name", RANDOM)
def test_random_reproducible(name):
    """The same seed gives the same values."""
    entry = TABLE[name]
    for sample in _samples(entry, entry.dtypes[0]):
        runs = []
        for _ in range(2):
            ember.manual_seed(1234)
            runs.append(T.to_numpy(_run(entry, sample)[2]))
        np.testing.assert_array_equal(runs[0], runs[1], err_msg=f"{name}{sample}")


# -- hypothesis: broadcasting shapes and strided layouts ------------------------------------

def _domain_entries(arity):
    return [_param(name, check="hypothesis") for name, e in TABLE.items()
            if len(getattr(e.samples, "domain", ())) == arity and e.call is None
            and _available(e)]


def _draw(m, shape, domain):
    low, high, avoid = domain
    return m(shape, low, high, avoid=avoid)


@pytest.mark.parametrize("name", _domain_entries(2))
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3,
                                                 max_side=3), seed=st.integers(0, 2 ** 16))
def test_broadcasting_hypothesis(name, shapes, seed):
    """Binary element-wise ops broadcast any compatible pair of shapes like NumPy."""
    entry = TABLE[name]
    m = Maker(_main_dtype(entry), seed=seed)
    sample = Sample(*(_draw(m, s, d) for s, d in zip(shapes.input_shapes,
                                                      entry.samples.domain)))
    _, _, result = _run(entry, sample)
    _check_result(entry, sample, result, f"{name}{sample}")


@st.composite
def _strided_view(draw):
    """(base shape, index, permutation): a view with steps, offsets and permuted dims."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    index = tuple(slice(draw(st.integers(0, n - 1)), None, draw(st.integers(1, 3)))
                  for n in shape)
    order = draw(st.permutations(range(len(shape))))
    return shape, index, tuple(order)


@pytest.mark.parametrize("name", _domain_entries(1))
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(view=_strided_view(), seed=st.integers(0, 2 ** 16))
def test_strided_hypothesis(name, view, seed):
    """Unary element-wise ops on arbitrary strided views (steps, offsets, permutations)."""
    entry = TABLE[name]
    shape, index, order = view
    m = Maker(_main_dtype(entry), seed=seed)
    base = _draw(m, shape, entry.samples.domain[0])
    x = T.tensor_of(base, ember)[index].permute(order)
    sample = Sample(np.ascontiguousarray(base[index].transpose(order)))
    result = entry.run(ember, (x,), {})
    _check_result(entry, sample, result, f"{name} on a view {index} permuted {order}")


def test_view_of_strided():
    """`view` works on non-contiguous tensors exactly when the strides allow it."""
    x = ember.tensor(np.arange(24.0).reshape(2, 3, 4))
    assert x[:, :, ::2].view(2, 6).tolist() == np.arange(24.0).reshape(2, 3, 4)[:, :, ::2] \
        .reshape(2, 6).tolist()
    with pytest.raises(RuntimeError):
        x.transpose(0, 2).view(24)
    assert x.transpose(0, 1)[0].view(2, 2, 2).shape == (2, 2, 2)
    with pytest.raises(RuntimeError):
        x.transpose(0, 1)[0].view(4, 2)


def test_contiguous_returns_self():
    x = ember.tensor(np.arange(6.0).reshape(2, 3))
    assert x.contiguous() is x
    y = x.t().contiguous()
    assert y is not x and y.is_contiguous() and _storage(y) != _storage(x)


def test_number_floor_divided_by_a_tensor():
    # `number // tensor` (the reflected operator) runs with the number in the tensor's dtype
    assert (-7 // ember.tensor([2, -3])).tolist() == [-4, 2]
    assert (7.5 // ember.tensor([2.0, -0.5])).tolist() == [3.0, -15.0]
    assert (7 // ember.tensor([2.0])).dtype is ember.float32
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        -7 // ember.tensor([0])


def test_float_remainder_zero_keeps_the_dividends_sign():
    # torch's kernel is fmod moved by the divisor: an exact multiple leaves fmod's zero, signed
    # like the dividend (NumPy's remainder signs it like the divisor)
    a = ember.tensor([3.0, -3.0, 0.0, -0.0, 2.5, -2.5])
    for out in (a % -0.5, a % 0.5, ember.remainder(a, ember.full((6,), -0.5))):
        assert list(np.signbit(out.numpy())) == [False, True, False, True, False, True]
        assert out.abs().tolist() == [0.0] * 6
    x = a.clone()
    x %= -0.5
    assert list(np.signbit(x.numpy())) == [False, True, False, True, False, True]
    assert list(np.signbit((3.0 % ember.tensor([-0.5, 1.0])).numpy())) == [False, False]
    assert (ember.tensor([-1.0, 1.0]) % 0.75).tolist() == [0.5, 0.25]     # moved by b
