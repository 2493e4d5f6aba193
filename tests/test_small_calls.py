"""Short paths for ops on small tensors give what the general paths give, bit for bit: sums
of short rows against torch's summation order worked out by hand, topk/sort/argsort of short
rows, randn's few draws and unbind's views against the general paths (reached by setting the
short paths' thresholds to zero), over the forms that take them and the forms that must not."""
import warnings

import numpy as np
import pytest

import ember
from ember import _random
from ember._ops import _cascade_sum, sorting

NASTY = [-0.0, 0.0, np.nan, np.inf, -np.inf, 1e30, -1e30, 3e-39, 1.5, -2.25, 7.0, 1e-7]


def torch_order_sum(row, dtype):
    """torch's CPU sum of a short contiguous row, step by step as NOTE [ Summation order ]
    states it (rows this short fill no cascade block), in `dtype` scalars."""
    lanes = 8 if dtype == np.float32 else 4
    zero, n = dtype(0.0), len(row)
    row = [dtype(v) for v in row]
    if n < lanes:
        sums = [zero] * 4
        for i in range(n // 4):
            for k in range(4):
                sums[k] = sums[k] + row[4 * i + k]
        for v in row[n // 4 * 4:]:
            sums[0] = sums[0] + v
        return ((sums[0] + sums[1]) + sums[2]) + sums[3]
    vectors = [row[j * lanes:(j + 1) * lanes] for j in range(n // lanes)]
    sums = [[zero] * lanes for _ in range(4)]
    for i in range(len(vectors) // 4):
        for k in range(4):
            sums[k] = [s + v for s, v in zip(sums[k], vectors[4 * i + k])]
    for vec in vectors[len(vectors) // 4 * 4:]:
        sums[0] = [s + v for s, v in zip(sums[0], vec)]
    for k in (1, 2, 3):
        sums[0] = [s + v for s, v in zip(sums[0], sums[k])]
    total = zero
    for v in row[n // lanes * lanes:] + sums[0]:
        total = total + v
    return total


def sums(t):
    """Whole sums of each row, sums along the last dim, and their means, as bytes."""
    return ([r.sum().numpy().tobytes() for r in t], t.sum(-1).numpy().tobytes(),
            t.mean(-1).numpy().tobytes(), t.mean().numpy().tobytes())


def without_nan_signs(a):
    """`a` with every NaN made the positive quiet NaN: the sign of a NaN born of inf - inf
    depends on the operands' order in the machine's add, which torch's order does not fix."""
    a = np.array(a)
    a[np.isnan(a)] = np.nan
    return a.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sums_of_short_rows_add_in_torchs_order(monkeypatch, dtype):
    rng = np.random.default_rng(1)
    with np.errstate(all="ignore"):
        for n in range(1, 70):
            for trial in range(6):
                rows = (rng.standard_normal((3, n)) * 10.0 ** rng.integers(-8, 8, (3, n)))
                if trial % 2:
                    rows.reshape(-1)[rng.integers(0, 3 * n, n)] = rng.choice(NASTY, n)
                if trial == 5:
                    rows[1] = -0.0
                rows = rows.astype(dtype)
                t = ember.from_numpy(rows)
                got = sums(t)
                with monkeypatch.context() as patch:     # (the general path, for every n)
                    patch.setattr(_cascade_sum, "_SHORT_VECTORS", 0)
                    assert sums(t) == got, (n, trial)
                want = np.array([torch_order_sum(r, dtype) for r in rows], dtype)
                assert without_nan_signs(np.frombuffer(got[1], dtype)) == \
                    without_nan_signs(want), (n, trial)
                assert without_nan_signs(np.frombuffer(got[2], dtype)) == \
                    without_nan_signs(want / dtype(n))
    assert str(ember.tensor([-0.0]).sum().item()) == "0.0"          # (torch: +0.0)


def describe(pair):
    values, indices = pair
    return (values.detach()._data.tobytes(), values.dtype, tuple(values.shape),
            values.stride(), indices.numpy().tobytes(), indices.dtype, indices.stride(),
            values.grad_fn.name() if values.grad_fn is not None else None)


def rows(rng, shape, dtype, ties):
    if dtype == "bool":
        return ember.from_numpy(rng.integers(0, 2, shape).astype(bool))
    if ties == "none":
        x = rng.permutation(np.prod(shape)).reshape(shape) - 5
    elif ties == "some":
        x = rng.integers(-3, 4, shape)
    else:
        x = rng.choice(NASTY, shape)
    if dtype not in ("float16", "bfloat16", "float32", "float64"):
        return ember.from_numpy(np.asarray(x).astype(dtype))
    with np.errstate(over="ignore"):          # (1e30 is inf in float16)
        return ember.from_numpy(np.asarray(x).astype(np.float64)).to(getattr(ember, dtype))


CASES = [(shape, dtype, ties) for shape in [(1,), (5,), (10,), (17,), (64,), (65,), (3, 20)]
         for dtype in ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int8",
                       "uint8"]
         for ties in ["none", "some", "nasty"]
         if not (dtype in ("int8", "uint8") and ties == "none" and np.prod(shape) > 100)
         and not (ties == "nasty" and dtype[0] in "iu")]


def general(monkeypatch, fn):
    with monkeypatch.context() as patch:
        patch.setattr(sorting, "_SHORT_ROW", 0)
        return fn()


@pytest.mark.parametrize("shape, dtype, ties", CASES)
def test_topk_of_short_rows_is_the_general_paths(monkeypatch, shape, dtype, ties):
    rng = np.random.default_rng(len(shape) * 7 + shape[-1])
    x = rows(rng, shape, dtype, ties)
    n = shape[-1]
    for k in sorted({k for k in (1, 2, n // 2, n) if 1 <= k <= n}):
        for largest in (True, False):
            for srt in (True, False):
                args = dict(k=k, dim=-1, largest=largest, sorted=srt)
                want = describe(general(monkeypatch, lambda: x.topk(**args)))
                assert describe(x.topk(**args)) == want, (k, largest, srt)
    if len(shape) == 2:     # (along another dim: the general path)
        assert describe(x.topk(2, dim=0)) == describe(
            general(monkeypatch, lambda: x.topk(2, dim=0)))


@pytest.mark.parametrize("shape, dtype, ties", CASES)
def test_sort_and_argsort_of_short_rows_are_the_general_paths(monkeypatch, shape, dtype, ties):
    rng = np.random.default_rng(len(shape) * 5 + shape[-1])
    x = rows(rng, shape, dtype, ties)
    for descending in (False, True):
        for stable in (None, False, True):
            def call():
                if stable is None:
                    return x.sort(-1, descending)
                return x.sort(dim=-1, descending=descending, stable=stable)
            assert describe(call()) == describe(general(monkeypatch, call))
            want = general(monkeypatch, lambda: x.argsort(-1, descending))
            got = x.argsort(-1, descending)
            assert got.numpy().tobytes() == want.numpy().tobytes()
            assert got.stride() == want.stride()
    if len(shape) == 2:
        assert describe(x.sort(0)) == describe(general(monkeypatch, lambda: x.sort(0)))


def test_bool_sort_takes_the_short_row_too(monkeypatch):
    x = rows(np.random.default_rng(0), (3, 30), "bool", None)
    for descending in (False, True):
        assert describe(x.sort(descending=descending)) == describe(
            general(monkeypatch, lambda: x.sort(descending=descending)))


@pytest.mark.parametrize("largest", [True, False])
def test_topk_of_a_short_row_records_the_general_paths_node(monkeypatch, largest):
    rng = np.random.default_rng(3)
    data = rng.standard_normal((4, 9)).astype(np.float32)
    data[1, :3] = 0.5           # (a row with ties takes the general path)
    grads = []
    for patched in (False, True):
        x = ember.from_numpy(data.copy()).requires_grad_()
        values, indices = general(monkeypatch, lambda: x.topk(3, largest=largest)) if patched \
            else x.topk(3, largest=largest)
        assert values.grad_fn.name() == "TopkBackward0"
        (values * ember.arange(12.).reshape(4, 3)).sum().backward()
        grads.append(x.grad.numpy().tobytes())
    assert grads[0] == grads[1]
    got = x.topk(3, largest=largest)
    want = np.sort(data, axis=-1)[:, ::-1][:, :3] if largest else np.sort(data, axis=-1)[:, :3]
    assert got.values.detach().numpy().tobytes() == np.ascontiguousarray(want).tobytes()


def draws(monkeypatch, short, calls):
    """The values of `calls` (functions of a seeded generator) and the generator's state."""
    with monkeypatch.context() as patch:
        if not short:
            patch.setattr(_random, "_SHORT_SCALAR", -1)
        gen = ember.Generator().manual_seed(7)
        out = [call(gen)._data.tobytes() for call in calls]
        return out, gen.get_state().numpy().tobytes()


def test_randn_of_a_few_values_draws_what_the_array_path_draws(monkeypatch):
    calls = [lambda g: ember.randn(3, generator=g),           # (odd: a value is cached)
             lambda g: ember.randn(1, generator=g, dtype=ember.float64),
             lambda g: ember.randn(0, generator=g),
             lambda g: ember.randn(2, 5, generator=g, dtype=ember.float16),
             lambda g: ember.randn(15, generator=g, dtype=ember.bfloat16),
             lambda g: ember.empty(4, 7).t().normal_(2.0, 0.3, generator=g),   # (std: fma)
             lambda g: ember.empty(3, 2).t().normal_(-1.0, 4.0, generator=g),
             lambda g: ember.empty(5, 3, dtype=ember.float64).t().normal_(generator=g),
             lambda g: ember.normal(ember.zeros(5), ember.full((5,), 0.7), generator=g),
             lambda g: ember.empty(11, 3).t().normal_(generator=g),   # (33 values: arrays)
             lambda g: ember.randn(7, generator=g, dtype=ember.complex64)]
    short, general_ = draws(monkeypatch, True, calls), draws(monkeypatch, False, calls)
    assert short == general_
    assert len(set(short[0])) == len(calls)          # (each call drew afresh)


def test_rand_on_0_1_draws_what_the_general_scaling_gives(monkeypatch):
    calls = [lambda g: ember.rand(10, generator=g),
             lambda g: ember.rand(3, 4, generator=g, dtype=ember.float64),
             lambda g: ember.rand(0, generator=g),
             lambda g: ember.rand(5, generator=g, dtype=ember.float16),
             lambda g: ember.rand(5, generator=g, dtype=ember.bfloat16),
             lambda g: ember.empty(40, 30).t().uniform_(generator=g),
             lambda g: ember.empty(9).uniform_(-0.0, 1.0, generator=g),
             lambda g: ember.empty(9, dtype=ember.float64).uniform_(0.0, 2.0, generator=g),
             lambda g: ember.rand(4, generator=g, dtype=ember.complex64)]

    def draw():
        gen = ember.Generator().manual_seed(11)
        return [call(gen)._data.tobytes() for call in calls], gen.get_state()._data.tobytes()
    short = draw()
    with monkeypatch.context() as patch:
        patch.setattr(_random, "_unit_uniform", lambda gen, n, dtype: None)
        assert draw() == short
    assert len(set(short[0])) == len(calls)
    values = np.frombuffer(short[0][0], np.float32)
    assert ((values >= 0) & (values < 1)).all() and (values * 2 ** 24 % 1 == 0).all()


def view_facts(t):
    return (t.detach().numpy().tobytes(), tuple(t.shape), t.stride(), t.storage_offset(),
            t._base is not None, t.requires_grad,
            t.grad_fn.name() if t.grad_fn is not None else None)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unbind_views_are_the_general_paths(requires_grad, dim):
    base = ember.arange(60.).reshape(3, 4, 5).transpose(0, 2)[1:, ::2]    # (strided)
    x = base.clone().requires_grad_() if requires_grad else base
    pieces = x.unbind(dim)
    assert len(pieces) == x.shape[dim]
    for i, piece in enumerate(pieces):
        want = view_facts(x.select(dim, i))
        got = view_facts(piece)
        assert got[:-1] == want[:-1]
        assert got[-1] == ("UnbindBackward0" if requires_grad else None)
        assert piece.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    if requires_grad:
        sum(p.sum() * (i + 1) for i, p in enumerate(pieces)).backward()
        want = np.broadcast_to(np.arange(1, x.shape[dim] + 1, dtype=np.float32).reshape(
            [-1 if d == dim % 3 else 1 for d in range(3)]), x.shape)
        assert x.grad.numpy().tobytes() == np.ascontiguousarray(want).tobytes()
        with pytest.raises(RuntimeError, match="returns multiple views"):
            pieces[0].mul_(2)
    else:
        pieces[1].fill_(-1.0)           # (views: written through to the base)
        assert (x.select(dim, 1) == -1).all()
    empty = ember.zeros(2, 0, 3)        # (empty: the general path's strides)
    assert [p.stride() for p in empty.unbind(0)] == [(3, 1), (3, 1)]


@pytest.mark.parametrize("requires_grad", [False, True])
def test_unbind_of_a_vector_gives_0_dim_views(requires_grad):
    x = ember.tensor([1.5, -2.0, 3.0], dtype=ember.float64, requires_grad=requires_grad)
    pieces = x[::2].unbind() if not requires_grad else (x * 1)[::2].unbind()
    for i, piece in enumerate(pieces):
        assert piece._data.__class__ is np.ndarray and piece.shape == () and piece.stride() == ()
        assert piece.storage_offset() == 2 * i and piece.item() == [1.5, 3.0][i]
        assert piece.dtype is ember.float64 and piece._base is not None
    if requires_grad:
        (g,) = ember.autograd.grad(pieces[0] * 2 + pieces[1], x)
        assert g.tolist() == [2.0, 0.0, 1.0] and g._data.__class__ is np.ndarray


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_split_and_chunk_views_are_the_general_paths(requires_grad, dim):
    base = ember.arange(84.).reshape(3, 4, 7).transpose(0, 2)[:, 1:]     # (7, 3, 3), strided
    x = base.clone().requires_grad_() if requires_grad else base
    n = x.shape[dim]
    for how, pieces, sizes in [("split", x.split(2, dim), [2] * (n // 2) + [n % 2] * (n % 2)),
                               ("chunk", x.chunk(2, dim), [(n + 1) // 2, n // 2]),
                               ("sizes", x.split([1, n - 1], dim), [1, n - 1]),
                               ("empty", x.split([0, n, 0], dim), [0, n, 0])]:
        assert [p.shape[dim] for p in pieces] == [s for s in sizes if s or how == "empty"]
        start = 0
        for piece in pieces:
            want = view_facts(x.narrow(dim, start, piece.shape[dim]))
            got = view_facts(piece)
            assert got[:-1] == want[:-1], how
            name = "SplitWithSizesBackward0" if how in ("sizes", "empty") else "SplitBackward0"
            assert got[-1] == (name if requires_grad else None), how
            start += piece.shape[dim]
    if requires_grad:
        pieces = x.split(2, dim)
        sum(p.sum() * (i + 1) for i, p in enumerate(pieces)).backward()
        steps = np.arange(n) // 2 + 1.0
        want = np.broadcast_to(steps.reshape([-1 if d == dim % 3 else 1 for d in range(3)]),
                               x.shape).astype(np.float32)
        assert x.grad.numpy().tobytes() == np.ascontiguousarray(want).tobytes()
        with pytest.raises(RuntimeError, match="returns multiple views"):
            pieces[0].add_(1)
    else:
        x.chunk(3, dim)[1].zero_()
        assert (x.narrow(dim, -(-n // 3), -(-n // 3)) == 0).all()


def test_index_select_with_a_vector_index_saves_it_and_gives_back_its_gradient():
    x = ember.arange(12.).reshape(3, 4).requires_grad_()
    for index in (ember.tensor([2, 0, 2]), ember.tensor(1), ember.tensor([[1]]).int()):
        if index.ndim > 1:
            with pytest.raises(IndexError, match="Index is supposed to be a vector"):
                x.index_select(1, index)
            continue
        y = x.index_select(1, index)
        assert y.grad_fn.name() == "IndexSelectBackward0"
        ids = np.atleast_1d(index.numpy())
        assert y.detach().numpy().tobytes() == x.detach().numpy()[:, ids].tobytes()
        (g,) = ember.autograd.grad(y.sum(), x)
        want = np.zeros((3, 4), np.float32)
        np.add.at(want, (slice(None), ids), 1.0)
        assert g.numpy().tobytes() == want.tobytes()
    index = ember.tensor([1, 3])
    y = x.index_select(1, index)
    index[0] = 0                                    # (saved: backward sees the change)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")             # (where the change was made)
        y.sum().backward()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_where_of_small_arrays_is_the_bit_selects_result(monkeypatch, dtype):
    from ember._ops import _blocked
    rng = np.random.default_rng(2)
    with np.errstate(over="ignore"):
        a = np.array(NASTY * 3, dtype)
    b = rng.permutation(a)
    cond = rng.integers(0, 2, a.shape).astype(bool)
    for x, y in [(a, b), (a, dtype(-0.0)), (dtype(2.5), b), (a[:4, None], b[None, :5])]:
        c = cond[:4, None] if np.ndim(x) == 2 else cond
        small = _blocked.select(np, c, x, y)
        with monkeypatch.context() as patch:
            patch.setattr(_blocked, "_SELECT_FROM", 0)
            bits = _blocked.select(np, c, x, y)
        assert small.dtype == bits.dtype and small.shape == bits.shape
        assert small.tobytes() == bits.tobytes()
    t = ember.from_numpy(a)
    got = ember.where(ember.from_numpy(cond), t, 0.0)
    assert got.numpy().tobytes() == np.where(cond, a, dtype(0.0)).tobytes()


def test_max_and_min_along_a_dim_pick_the_first_extreme():
    x = ember.tensor([[1.0, -0.0, 0.0, 3.0, 3.0], [float("nan"), 2.0, float("nan"), -1.0, 5.0],
                      [0.0, -0.0, -2.0, -2.0, 0.0]])
    values, indices = x.max(1)
    assert indices.tolist() == [3, 0, 0] and values[:2].tolist()[0] == 3.0
    assert np.isnan(values[1].item())
    values, indices = x.min(1)
    assert indices.tolist() == [1, 0, 2] and str(values[0].item()) == "-0.0"
    values, indices = x.max(0, keepdim=True)
    assert values.shape == (1, 5) and indices.tolist() == [[1, 1, 1, 0, 1]]
    assert str(x[2].max(0).values.item()) == "0.0" and str(x[2].min().item()) == "-2.0"
    assert x.max().isnan().item() and ember.tensor([[True, False]]).max(1).indices.tolist() == [0]


@pytest.mark.parametrize("dtype", [None, ember.float32, ember.float64, ember.float16,
                                   ember.int64, ember.int32, ember.uint8])
def test_arange_from_0_by_1_is_the_general_formula(dtype):
    for args in [(10,), (0, 7), (0.0, 5.0), (-0.0, 4.0, 1.0), (0, 5, 1), (0.0, 2.5), (3,),
                 (0, 0), (1, 6), (0, 4, 2), (0.5, 4.0)]:
        got = ember.arange(*args, dtype=dtype)
        start, end, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        want_dtype = (ember.float32 if any(isinstance(v, float) for v in args) else
                      ember.int64) if dtype is None else dtype
        if want_dtype is ember.int64:         # (torch: the length of the truncated bounds)
            start, end, step = int(start), int(end), int(step)
        n = max(int(np.ceil((end - start) / step)), 0)
        if want_dtype.is_floating_point:        # (torch: start + i * step in double)
            want = (start + np.arange(n, dtype=np.float64) * step).astype(want_dtype._np)
        else:
            want = (int(start) + np.arange(n, dtype=np.int64) * int(step)).astype(want_dtype._np)
        assert got.dtype is want_dtype and got._data.tobytes() == want.tobytes(), args
        assert got.is_contiguous() and got._base is None


def test_item_of_every_dtype_is_tolists_number():
    values = [-0.0, float("nan"), 2.5, -3.0, 1e30]
    for dtype in [ember.bool, ember.uint8, ember.int8, ember.int16, ember.int32, ember.int64,
                  ember.uint16, ember.uint32, ember.uint64, ember.float16, ember.bfloat16,
                  ember.float32, ember.float64, ember.complex64, ember.complex128,
                  ember.float8_e4m3fn, ember.float8_e5m2]:
        for v in values:
            if dtype in (ember.uint16, ember.uint32, ember.uint64, ember.uint8) and v < 0:
                continue
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                x = ember.tensor([[v]], dtype=ember.float64).to(dtype)
            got, want = x.item(), x.reshape(()).tolist()
            assert type(got) is type(want), dtype
            assert repr(got) == repr(want), dtype           # (-0.0 and nan too)
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted"):
        ember.zeros(2).item()


class Seq(list):
    """A list the flat-list short path of `ember.tensor` does not take (not exactly a list)."""


def made(data, **kwargs):
    try:
        t = ember.tensor(data, **kwargs)
    except Exception as exc:            # noqa: BLE001  (the errors must be the same too)
        return type(exc), str(exc)
    return t.dtype, tuple(t.shape), t._data.tobytes(), t.requires_grad


def test_tensor_of_a_flat_list_of_numbers_is_the_general_walks():
    cases = [[1.0, -0.0, float("nan"), float("inf")], [1, 2, -3], [True, False], [True, 2],
             [1, 2.5], [True, 1.5, 2], [2 ** 63 - 1, -2 ** 63], [2 ** 63], [2 ** 64], [7],
             [0.1, 1e300], [False], [3, True, 0.5, -0.0]]
    kwargs = [{}, {"dtype": ember.float64}, {"dtype": ember.int32}, {"dtype": ember.uint8},
              {"dtype": ember.bool}, {"dtype": ember.float16}, {"requires_grad": True}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for data in cases:
            for kw in kwargs:
                for seq in (list, tuple):
                    assert made(seq(data), **kw) == made(Seq(data), **kw), (data, kw)
        previous = ember.get_default_dtype()
        ember.set_default_dtype(ember.float64)
        try:
            assert made([1, 2.5]) == made(Seq([1, 2.5])) and made([0.5])[0] is ember.float64
        finally:
            ember.set_default_dtype(previous)
    assert made([1.0, 2.0])[0] is ember.float32 and made([1, True])[0] is ember.int64


def test_stack_joins_as_numpys_stack(monkeypatch):
    from ember._ops import joining
    base = ember.arange(120.).reshape(2, 3, 4, 5)
    cases = [[ember.arange(5.)] * 3, [base[0], base[1]], [base[0].transpose(0, 2)] * 2,
             [base.contiguous(memory_format=ember.channels_last)] * 2,
             [ember.tensor(1.5), ember.tensor(-0.0)], [ember.zeros(0, 3)] * 2,
             [ember.ones(1, 4).expand(3, 4), ember.zeros(3, 4)], [base[:, :1]] * 3]
    for tensors in cases:
        for d in range(-tensors[0].ndim - 1, tensors[0].ndim + 1):
            got = ember.stack(tensors, d)
            with monkeypatch.context() as patch:
                patch.setattr(joining, "_stack", lambda xp, arrays, d: xp.stack(arrays, axis=d))
                want = ember.stack(tensors, d)
            assert got._data.tobytes() == want._data.tobytes()
            assert got.shape == want.shape and got.stride() == want.stride(), (d, got.stride())
            assert got.numpy().tobytes() == np.stack([t.numpy() for t in tensors], d).tobytes()


def test_max_of_a_sparse_tensor_is_refused_as_max_not_maximum():
    s = ember.tensor([[0, 1.], [2, 0]]).to_sparse()
    for name in ("max", "min"):
        with pytest.raises(NotImplementedError, match=f"^Could not run 'aten::{name}' with "
                                                      f"arguments from the 'SparseCPU'"):
            getattr(s, name)()


SETITEM_INDICES = [0, -1, 2, (1, 2), (-2, 0), slice(None), slice(1, 3), slice(0, 4, 2),
                   (slice(None), 1), (0, slice(1, None)), (slice(2, 1), 0), 3, (0, 5),
                   (slice(None, None, -1),), (0, 0, 0)]
SETITEM_VALUES = [1.5, -2, True, 300, -1, 1e40, float("nan"), 2 ** 63]


def _write(target, index, value):
    try:
        target[index] = value
    except Exception as exc:    # noqa: BLE001 - the error is the result
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.int64, ember.uint8,
                                   ember.int8, ember.bool])
@pytest.mark.parametrize("index", SETITEM_INDICES)
def test_setitem_of_a_number_is_the_general_paths(dtype, index):
    # the short path takes a plain tensor; a view of it (same memory) takes the general path
    for value in SETITEM_VALUES:
        short = ember.zeros(3, 4, dtype=dtype)
        general_base = ember.zeros(3, 4, dtype=dtype)
        general = general_base.view(3, 4)
        assert _write(short, index, value) == _write(general, index, value)
        assert np.array_equal(short.numpy(), general.numpy(), equal_nan=dtype.is_floating_point)
        assert short._version == general._version


def test_setitem_of_a_number_keeps_autograds_checks():
    saved = ember.ones(3)
    w = ember.ones(3, requires_grad=True)
    y = (w * saved).sum()
    saved[0] = 2.0                  # the short path still bumps the version backward checks
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    leaf = ember.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        leaf[0] = 1.0
    with ember.no_grad():
        leaf[0] = 1.0
    assert leaf.tolist() == [1.0, 0.0, 0.0] and leaf._version == 1
    with ember.inference_mode():
        t = ember.zeros(2)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        t[0] = 1.0


NESTED = [[[1, 2], [3, 4]], [[1, 2.5], [True, 4]], [[True, False]], [[[1, 2]], [[3, 4]]],
          [(1, 2), (3, 4)], [[1, 2 ** 63]], [[1.0, 2 ** 63]], [[1, 2 ** 64]],
          [[float("nan"), 2 ** 63]], [[1, -2 ** 63 - 1]], [[2 ** 63, 1.0]], [[1, 2], [3]],
          [[1, 2], 3], [[]], [[1, "a"]], [[1, None]], [[1, 1j]], [[1.5, float("inf")]]]


def _made(data, dtype):
    try:
        t = ember.tensor(data, dtype=dtype)
    except Exception as exc:    # noqa: BLE001 - the error is the result
        return type(exc), str(exc)
    return t.dtype, t.shape, t.tolist()


@pytest.mark.parametrize("data", NESTED)
@pytest.mark.parametrize("dtype", [None, ember.float64, ember.int64, ember.uint8,
                                   ember.uint64, ember.bool])
def test_tensor_of_nested_lists_of_numbers_is_the_general_walks(monkeypatch, data, dtype):
    from ember import _tensor_data
    short = _made(data, dtype)
    monkeypatch.setattr(_tensor_data, "_plain_numbers", lambda data: None)
    monkeypatch.setattr(_tensor_data, "_within_int64", lambda flat: False)
    general = _made(data, dtype)
    assert repr(short) == repr(general)     # (repr: nan == nan)


@pytest.mark.parametrize("arg", ["cpu", "cpu:0", ember.device("cpu"), ember.device("cpu", 0),
                                 ember.float32, ember.float64, ember.int64, "meta"])
def test_to_with_one_argument_is_the_general_paths(arg):
    from ember._ops import conversion
    x = ember.arange(6.0).reshape(2, 3)
    short = x.to(arg)
    dtype, device, _, _ = conversion._parse_to((arg,), {})
    general = conversion._convert(x, dtype, device)
    assert (short is x) == (general is x)
    assert short.dtype == general.dtype and short.device == general.device
