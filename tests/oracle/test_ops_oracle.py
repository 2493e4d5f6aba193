"""The operator table against real torch: the same samples through torch and ember.

Two kinds of checks per entry and dtype:
- the table itself is right about torch: which dtypes torch refuses, the result dtype its
  promotion gives, that the NumPy reference agrees with torch's values, and that `out=` and
  the in-place form exist where the table says so;
- ember agrees with torch: values, result dtype, the backward node's class name
  (`type(y.grad_fn).__name__`) and the gradients.
Random ops are compared value for value after `manual_seed` (ember reproduces torch's CPU
streams).
"""
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ember  # noqa: E402
import op_table as T  # noqa: E402
from op_table import TABLE  # noqa: E402

pytestmark = pytest.mark.oracle


def _param(name, dtype, check):
    entry = TABLE[name]
    reason = entry.xfail.get(f"{check}:{dtype}")
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(name, dtype, marks=marks, id=f"{name}-{dtype}")


_samples = T.samples_of


def _call(module, entry, sample, requires_grad=False, out=None):
    """(tensor leaves by path, result) of a sample under `module`."""
    leaves = {}

    def make(arr, path):
        t = T.tensor_of(arr, module)
        if requires_grad and arr.dtype == np.float64:
            t.requires_grad_(True)
            leaves[path] = t
            if entry.mutates and path == ("a", 0):
                return t.clone()
        return t
    args = T.convert(sample.args, module, make, ("a",))
    kwargs = T.convert(sample.kwargs, module, make, ("k",))
    if out is not None:
        kwargs["out"] = out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return leaves, entry.run(module, args, kwargs)


def _values(result):
    """Comparable values: (dtype name, array) per tensor output, the object otherwise."""
    if isinstance(result, (tuple, list)):
        return [_values(r) for r in result]
    if isinstance(result, (torch.Tensor, ember.Tensor)):
        return (str(result.dtype).replace("torch.", ""), tuple(result.shape),
                T.to_numpy(result))
    return result


def _assert_same(got, want, where, tol=None):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got} vs {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_same(g, w, f"{where}[{i}]", tol)
        return
    if not isinstance(want, tuple):
        assert got == want, f"{where}: {got!r} != {want!r}"
        return
    assert isinstance(got, tuple), f"{where}: got {got!r}"
    (gd, gs, gv), (wd, ws, wv) = got, want
    assert gd == wd, f"{where}: dtype {gd}, torch gives {wd}"
    assert gs == ws, f"{where}: shape {gs}, torch gives {ws}"
    if wd == "bool" or wd in T.INTS:
        np.testing.assert_array_equal(gv, wv, err_msg=where)
    else:
        rtol, atol = tol or T.TOLERANCE[wd]
        np.testing.assert_allclose(gv, wv, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)


def _torch_raises(entry, sample):
    try:
        _call(torch, entry, sample)
    except (RuntimeError, TypeError, ValueError, IndexError):
        return True
    return False


CASES = [(name, dtype) for name, e in TABLE.items() if not e.needs_cuda
         for dtype in T.ALL if not e.random or dtype in e.dtypes]


@pytest.mark.parametrize("name,dtype", [_param(n, d, "table") for n, d in CASES])
def test_table_describes_torch(name, dtype):
    """What the table claims of torch holds: refused dtypes raise, the result dtype rule and
    the reference agree with torch, out= and op_ exist where declared."""
    entry = TABLE[name]
    for sample in _samples(entry, dtype):
        where = f"{name}{sample}"
        if not entry.is_supported(sample.args, sample.kwargs):
            if not any(a.size == 0 for a in T.arrays_in((sample.args, sample.kwargs)).values()):
                assert _torch_raises(entry, sample), f"{where}: torch accepts it"
            continue
        _, result = _call(torch, entry, sample)
        expected = entry.result_dtype(sample.args, sample.kwargs)
        outputs = T.outputs_of(result)
        names = expected if isinstance(expected, tuple) else (expected,) * len(outputs)
        for out, want in zip(outputs, names):
            got = str(out.dtype).replace("torch.", "") if isinstance(out, torch.Tensor) \
                else None
            assert got == want, f"{where}: torch's result dtype is {got}, the table says {want}"
        if not entry.random:
            reference = T.reference(entry, sample)
            refs = T.outputs_of(reference) if isinstance(reference, (tuple, list)) \
                else [reference]
            for out, ref, want in zip(outputs, refs, names):
                if want is None:
                    assert out == ref, f"{where}: torch gives {out!r}, the reference {ref!r}"
                    continue
                expected_values = T.as_expected(ref, want)
                assert tuple(out.shape) == expected_values.shape, where
                T.assert_values(T.to_numpy(out), expected_values, want, entry.tol.get(want),
                                f"{where}: reference")
    if entry.inplace:
        assert hasattr(torch.Tensor, name + "_"), f"torch has no Tensor.{name}_"


@pytest.mark.parametrize("name", [n for n, e in TABLE.items() if not e.random
                                  and not e.needs_cuda and e.form == "function"])
def test_out_declared_as_torch_accepts(name):
    """The table's `out` flag says whether torch accepts out= for the entry's samples."""
    entry = TABLE[name]
    dtype = "float64" if "float64" in entry.dtypes else entry.dtypes[0]
    accepted = False
    for sample in _samples(entry, dtype):
        if not sample.variants or not entry.is_supported(sample.args, sample.kwargs):
            continue
        _, result = _call(torch, entry, sample)
        if isinstance(result, torch.Tensor):
            out = torch.empty(0, dtype=result.dtype)
        elif isinstance(result, (tuple, list)) and result and \
                all(isinstance(r, torch.Tensor) for r in result):
            out = tuple(torch.empty(0, dtype=r.dtype) for r in result)   # (values, indices)
        else:
            continue
        try:
            _call(torch, entry, sample, out=out)
            accepted = True
            break
        except TypeError:
            pass
        except RuntimeError:
            # out= taken, but written as Tensor.copy_ writes (split_copy): it needs the shape
            sized = tuple(torch.empty(r.shape, dtype=r.dtype) for r in T.outputs_of(result))
            _call(torch, entry, sample, out=sized if isinstance(out, tuple) else sized[0])
            accepted = True
            break
    assert accepted == bool(entry.out)


@pytest.mark.parametrize("name,dtype", [_param(n, d, "oracle") for n, d in CASES])
def test_ember_matches_torch(name, dtype):
    """ember gives torch's values and dtypes, or raises where torch raises."""
    entry = TABLE[name]
    for sample in _samples(entry, dtype):
        where = f"{name}{sample}"
        if entry.random:
            ember.manual_seed(2024)
            torch.manual_seed(2024)
        try:
            _, want = _call(torch, entry, sample)
        except (RuntimeError, TypeError, ValueError, IndexError) as exc:
            # torch's NotImplementedError ("... not implemented for 'Bool'") is a RuntimeError
            expected = RuntimeError if isinstance(exc, NotImplementedError) else type(exc)
            with pytest.raises(expected):
                _call(ember, entry, sample)
            continue
        _, got = _call(ember, entry, sample)
        tol = entry.tol.get(dtype)
        _assert_same(_values(got), _values(want), where, tol)


GRAD_CASES = [n for n, e in TABLE.items() if e.grad is not None and "float64" in e.dtypes
              and not e.needs_cuda]


@pytest.mark.parametrize("name,dtype", [_param(n, "float64", "oracle-grad") for n in GRAD_CASES])
def test_graph_and_gradients_match_torch(name, dtype):
    """For float64 inputs that require grad: the same grad_fn class names and gradients."""
    entry = TABLE[name]
    for sample in _samples(entry, "float64"):
        if not entry.is_supported(sample.args, sample.kwargs):
            continue
        where = f"{name}{sample}"
        torch_leaves, want = _call(torch, entry, sample, requires_grad=True)
        ember_leaves, got = _call(ember, entry, sample, requires_grad=True)
        want_outs = [t for t in T.outputs_of(want) if isinstance(t, torch.Tensor)]
        got_outs = [t for t in T.outputs_of(got) if isinstance(t, ember.Tensor)]
        assert len(got_outs) == len(want_outs), where
        for g, w in zip(got_outs, want_outs):
            expected = type(w.grad_fn).__name__ if w.grad_fn is not None else None
            actual = type(g.grad_fn).__name__ if g.grad_fn is not None else None
            assert actual == expected, f"{where}: grad_fn {actual}, torch has {expected}"
            assert g.requires_grad == w.requires_grad, f"{where}: requires_grad"
        diff = [(g, w) for g, w in zip(got_outs, want_outs)
                if w.requires_grad and w.dtype.is_floating_point]
        if not diff or not torch_leaves:
            continue
        rng = np.random.default_rng(0)
        # grad_outputs in each output's own dtype, so that no rounding is left to the engine
        gouts = [rng.standard_normal(tuple(w.shape)).astype(T.NP[str(w.dtype)[6:]])
                 for _, w in diff]
        paths = list(torch_leaves)
        try:
            want_grads = torch.autograd.grad([w for _, w in diff],
                                             [torch_leaves[p] for p in paths],
                                             [T.tensor_of(g, torch) for g in gouts],
                                             allow_unused=True)
        except RuntimeError:
            with pytest.raises(RuntimeError):
                ember.autograd.grad([g for g, _ in diff], [ember_leaves[p] for p in paths],
                                    [T.tensor_of(g, ember) for g in gouts], allow_unused=True)
            continue
        got_grads = ember.autograd.grad([g for g, _ in diff], [ember_leaves[p] for p in paths],
                                        [T.tensor_of(g, ember) for g in gouts],
                                        allow_unused=True)
        for p, g, w in zip(paths, got_grads, want_grads):
            if w is None:
                assert g is None or not np.any(T.to_numpy(g)), f"{where}: grad of {p}"
                continue
            assert g is not None, f"{where}: no gradient for {p}, torch has one"
            np.testing.assert_allclose(T.to_numpy(g), T.to_numpy(w), rtol=1e-10, atol=1e-12,
                                       err_msg=f"{where}: gradient of {p}")
