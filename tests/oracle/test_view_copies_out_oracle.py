"""out= of the view copies and range, and half-precision histograms, against real torch: the
same calls through both libraries give the same values, dtypes, requires_grad and node names,
or the same error type and text. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle


def _calls(lib):
    x = lib.arange(12.).reshape(3, 4)
    xg = x.clone().requires_grad_()
    z = x.to(lib.complex64)[:1]
    e = lib.empty
    calls = []
    for name, args in [("view_copy", ((12,),)), ("t_copy", ()), ("permute_copy", ((1, 0),)),
                       ("alias_copy", ()), ("detach_copy", ()), ("unfold_copy", (1, 2, 2)),
                       ("narrow_copy", (0, 1, 1)), ("slice_copy", (1, 1, 3)),
                       ("select_copy", (0, 1)), ("diagonal_copy", ()),
                       ("expand_copy", ((2, 3, 4),)), ("squeeze_copy", ()),
                       ("unsqueeze_copy", (0,)), ("transpose_copy", (0, 1)),
                       ("as_strided_copy", ((2, 2), (1, 2)))]:
        fn = getattr(lib, name)
        for dtype in (lib.int64, lib.float32, lib.float64, lib.float16, lib.bool):
            calls.append(lambda fn=fn, a=args, d=dtype: fn(x, *a, out=e(0, dtype=d)))
        calls.append(lambda fn=fn, a=args: fn(x, *a, out=e(2)))
        calls.append(lambda fn=fn, a=args: fn(x, *a, out=e(0, requires_grad=True)))
        calls.append(lambda fn=fn, a=args: fn(xg, *a, out=e(0)))
    calls += [
        lambda: lib.view_as_real_copy(z, out=e(0)),
        lambda: lib.view_as_real_copy(z, out=e(0, dtype=lib.complex64)),
        lambda: lib.view_as_complex_copy(lib.ones(3, 2), out=e(0, dtype=lib.complex64)),
        lambda: lib.view_as_complex_copy(lib.ones(3, 2), out=e(0, dtype=lib.complex128)),
        lambda: lib.t_copy(lib.arange(6).reshape(2, 3), out=e(0, dtype=lib.int32)),
    ]
    for outs in ([e(2, 4), e(1, 4)], [e(0), e(0)], [e(2, 4)] * 3,
                 [e(2, 4, dtype=lib.int64), e(1, 4)], [e(2, 4), e(3, 4)], [e(4), e(4)],
                 [e(2, 4, requires_grad=True), e(1, 4)]):
        calls.append(lambda o=outs: (lib.split_copy(x + 0.5, 2, out=o), o))
        calls.append(lambda o=outs: (lib.split_copy(xg, 2, out=o), o))
    for outs in ([e(0), e(0)], [e(1, 4), e(2, 4, dtype=lib.int64)], [e(1, 4)],
                 [e(0, requires_grad=True), e(0)], [e(3), e(2, 4)]):
        calls.append(lambda o=outs: (lib.split_with_sizes_copy(x, [1, 2], out=o), o))
    for outs in ([e(0) for _ in range(3)], [e(4) for _ in range(2)],
                 [e(4, dtype=lib.int32) for _ in range(3)],
                 [e(0, requires_grad=True) for _ in range(3)]):
        calls.append(lambda o=outs: (lib.unbind_copy(x, out=o), o))
        calls.append(lambda o=outs: (lib.unbind_copy(xg, out=o), o))
    for kwargs in (dict(out=e(0)), dict(out=e(0, dtype=lib.int64)), dict(out=e(7)),
                   dict(out=e(0), dtype=lib.float64), dict(out=e(0, dtype=lib.float16)),
                   dict(out=e(0, dtype=lib.bool)), dict(out=e(0, requires_grad=True)),
                   dict(out=e(0), requires_grad=True)):
        calls.append(lambda k=kwargs: lib.range(0.5, 3.7, 1.2, **k))   # int: step 1
    for dtype in (lib.float16, lib.bfloat16):
        p = (lib.arange(12.).reshape(6, 2) / 4).to(dtype)
        edges = lib.tensor([0., 1., 3.], dtype=dtype)
        calls += [
            lambda p=p: lib.histogramdd(p, 3),
            lambda p=p: lib.histogramdd(p, [2, 4], range=[0., 3., 0., 3.]),
            lambda p=p, d=dtype: lib.histogramdd(p, 2, weight=lib.ones(6, dtype=d)),
            lambda p=p, b=edges: lib.histogramdd(p, [b, b], density=True),
            lambda d=dtype: lib.histogramdd(lib.ones(0, 2, dtype=d), 3),
            lambda p=p: lib.histogramdd(p, [lib.tensor([0., 1.])] * 2),
            lambda p=p: lib.histogram(p.flatten(), 7, range=(0., 3.)),
            lambda p=p: lib.histogram(p.flatten(), 3),
            lambda d=dtype: lib.histogram(lib.ones(0, dtype=d), 5),
        ]
    g = lib.tensor([0.1, 0.7, 0.2, 0.9], dtype=lib.float64, requires_grad=True)
    bins = lib.tensor([0., 0.5, 1.], dtype=lib.float64, requires_grad=True)
    calls += [lambda: lib.histogram(g, 3), lambda: lib.histogram(g.detach(), bins),
              lambda: lib.histogramdd(g.detach().reshape(2, 2), [bins, bins.detach()])]
    return calls


def _summary(lib, result):
    """Values, dtypes, requires_grad and node names of a result, comparable across libraries."""
    if isinstance(result, lib.Tensor):
        node = type(result.grad_fn).__name__ if result.grad_fn is not None else None
        return (str(result.dtype).split(".")[-1], tuple(result.shape), result.requires_grad,
                node, result.detach().to(lib.float64).numpy().tolist())
    if isinstance(result, (tuple, list)):
        return [_summary(lib, r) for r in result]
    return result


@pytest.mark.parametrize("case", range(len(_calls(torch))))
def test_out_and_half_histograms_match_torch(case):
    results = []
    for lib in (torch, ember):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                results.append(_summary(lib, _calls(lib)[case]()))
            except Exception as exc:        # noqa: BLE001 - comparing what each library raises
                results.append((type(exc).__name__, str(exc)))
    assert results[1] == results[0]


def test_grad_fns_raise_torchs_texts():
    texts = []
    for lib in (torch, ember):
        x = lib.arange(6.).requires_grad_()
        out = lib.empty(0)
        lib.t_copy(x.reshape(2, 3), out=out)
        h = lib.histogram(x, 3)
        texts.append([])
        for y in (out, h.hist):
            with pytest.raises(RuntimeError) as info:
                y.sum().backward()
            texts[-1].append(str(info.value))
    assert texts[1] == texts[0]
    assert np.array_equal(ember.range(0, 1, 0.25).numpy(), torch.range(0, 1, 0.25).numpy())
