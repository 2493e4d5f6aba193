"""matmul's graph (NOTE [ matmul's graph ] in _ops/matmul_graph.py): the nodes torch records
for each case of its composition (squeeze of a batch of one, the fold into mm/mv, the bmm over
the broadcast batch), their saved sizes and strides, gradients against NumPy references, and
forward values equal to NumPy's product."""
import numpy as np
import pytest

import ember

RNG = np.random.default_rng(0)


def chain(fn):
    """The graph under `fn` as nested names: 'Name(child,child)', leaves 'L', no edge '-'."""
    if fn is None:
        return "-"
    name = type(fn).__name__.replace("Backward", "B")
    if name == "AccumulateGrad":
        return "L"
    return f"{name}({','.join(chain(f) for f, _ in fn.next_functions)})"


def leaf(shape, requires_grad=True, transposed=False):
    """A float64 leaf of `shape`, and the operand made of it (its mT view if `transposed`)."""
    if transposed:
        base = ember.tensor(RNG.standard_normal(shape[:-2] + shape[:-3:-1]),
                            requires_grad=requires_grad)
        return base, base.mT
    base = ember.tensor(RNG.standard_normal(shape), requires_grad=requires_grad)
    return base, base


# (a's shape, b's shape, a requires grad, b requires grad): the graph torch records
GRAPHS = [
    ((5, 2, 3), (3, 4), True, True, "UnsafeViewB0(MmB0(ViewB0(L),L))"),
    ((5, 2, 3), (3,), True, False, "UnsafeViewB0(MvB0(ViewB0(L),-))"),
    ((5, 2, 3), (5, 3, 4), True, True,
     "UnsafeViewB0(BmmB0(ViewB0(ExpandB0(L)),ViewB0(ExpandB0(L))))"),
    ((5, 2, 3), (5, 3, 4), False, True, "UnsafeViewB0(BmmB0(-,ViewB0(ExpandB0(L))))"),
    ((2, 3), (5, 3, 4), True, True,
     "CloneB0(TransposeB0(UnsafeViewB0(MmB0(UnsafeViewB0(CloneB0(TransposeB0(L))),TB0(L)))))"),
    ((2, 3), (5, 3, 4), False, True, "UnsafeViewB0(BmmB0(-,ViewB0(ExpandB0(L))))"),
    ((3,), (5, 3, 4), True, True,
     "UnsafeViewB0(MvB0(UnsafeViewB0(CloneB0(TransposeB0(L))),L))"),
    ((3,), (5, 3, 4), False, True, "UnsafeViewB0(BmmB0(-,ViewB0(ExpandB0(L))))"),
    ((1, 5, 2, 3), (6, 1, 3, 4), True, True,
     "UnsafeViewB0(BmmB0(UnsafeViewB0(CloneB0(ExpandB0(L))),"
     "UnsafeViewB0(CloneB0(ExpandB0(L)))))"),
    ((1, 1, 2, 3), (5, 3, 4), True, False,
     "UnsafeViewB0(BmmB0(ReshapeAliasB0(ExpandB0(L)),-))"),
    ((5, 2, 3), (1, 3, 4), True, True, "UnsafeViewB0(MmB0(ViewB0(L),SqueezeB1(L)))"),
    ((5, 2, 3), (1, 3, 4), True, False, "UnsafeViewB0(BmmB0(ViewB0(ExpandB0(L)),-))"),
    ((1, 2, 3), (5, 3, 4), False, True, "UnsafeViewB0(BmmB0(-,ViewB0(ExpandB0(L))))"),
    ((1, 2, 3), (1, 3, 4), True, True,
     "UnsafeViewB0(BmmB0(ViewB0(ExpandB0(L)),ViewB0(ExpandB0(L))))"),
    ((1, 3), (5, 3, 4), True, False, "TransposeB0(UnsafeViewB0(MmB0(-,TB0(L))))"),
    ((3,), (3, 4), True, True, "SqueezeB4(MmB0(UnsqueezeB0(L),L))"),
    ((2, 3), (3, 4), True, True, "MmB0(L,L)"),
    ((2, 3), (3,), True, True, "MvB0(L,L)"),
    ((3,), (3,), True, True, "DotB0(L,L)"),
]


@pytest.mark.parametrize("sa, sb, ra, rb, expected", GRAPHS)
def test_graph_is_torchs_composition(sa, sb, ra, rb, expected):
    _, a = leaf(sa, ra)
    _, b = leaf(sb, rb)
    y = a @ b
    assert chain(y.grad_fn) == expected
    # (small batched products add in torch's bmm order, not BLAS's: NOTE [ Small batched
    # products ] in _ops/linalg.py; the graph does not change the value)
    np.testing.assert_allclose(y.detach().numpy(), np.matmul(a.detach().numpy(),
                                                             b.detach().numpy()),
                               rtol=1e-12, atol=1e-12)
    with ember.no_grad():
        np.testing.assert_array_equal(y.detach().numpy(), (a @ b).numpy())


def test_noncontiguous_operands_reshape_as_torch():
    _, a = leaf((5, 2, 3), transposed=True)
    _, b = leaf((5, 3, 4))
    assert chain((a @ b).grad_fn) == \
        "UnsafeViewB0(BmmB0(ReshapeAliasB0(ExpandB0(TransposeB0(L))),ViewB0(ExpandB0(L))))"
    # a permuted batch cannot be flattened without a copy: the fold clones it
    base = ember.tensor(RNG.standard_normal((2, 5, 3)), requires_grad=True)
    w = ember.tensor(RNG.standard_normal((3, 4)), requires_grad=True)
    assert chain((base.transpose(0, 1) @ w).grad_fn) == \
        "UnsafeViewB0(MmB0(UnsafeViewB0(CloneB0(TransposeB0(L))),L))"
    # ... and without a grad-requiring weight it is no fold but a bmm (the expanded view
    # reshaped without a copy: ReshapeAliasBackward0)
    w.requires_grad_(False)
    assert chain((base.transpose(0, 1) @ w).grad_fn) == \
        "UnsafeViewB0(BmmB0(ReshapeAliasB0(ExpandB0(TransposeB0(L))),-))"


def test_saved_values():
    _, a = leaf((5, 2, 3))
    _, w = leaf((4, 3))
    y = a @ w.t()
    mm = y.grad_fn.next_functions[0][0]
    assert y.grad_fn._saved_self_sym_sizes == (10, 4)
    assert mm._saved_self_sym_sizes == (10, 3) and mm._saved_self_sym_strides == (3, 1)
    assert mm._saved_mat2_sym_sizes == (3, 4) and mm._saved_mat2_sym_strides == (1, 3)
    assert tuple(mm._saved_self.shape) == (10, 3)
    assert mm.next_functions[0][0]._saved_self_sym_sizes == (5, 2, 3)
    # the transposes of a matrix on the left: dims -2 and -1, as torch saves them (unsigned)
    m, _ = leaf((2, 3))
    _, b = leaf((5, 3, 4))
    y = m @ b
    assert type(y.grad_fn).__name__ == "CloneBackward0"
    transpose = y.grad_fn.next_functions[0][0]
    assert (transpose._saved_dim0, transpose._saved_dim1) == (2 ** 64 - 2, 2 ** 64 - 1)
    assert transpose.next_functions[0][0]._saved_self_sym_sizes == (20, 2)
    assert y.stride() == (8, 4, 1)
    # a row on the left of a batch: the transposed-back output is already contiguous
    r, _ = leaf((1, 3))
    y = r @ b.detach()
    assert y.stride() == (4, 1, 1) and y._is_view()


def test_vector_on_the_right_of_a_bmm_is_squeezed_first():
    base = ember.tensor(RNG.standard_normal((2, 5, 3)), requires_grad=True)
    v = ember.tensor(RNG.standard_normal(3))
    y = base.transpose(0, 1) @ v
    assert chain(y.grad_fn) == \
        "UnsafeViewB0(SqueezeB1(BmmB0(ReshapeAliasB0(ExpandB0(TransposeB0(L))),-)))"
    assert y.grad_fn._saved_self_sym_sizes == (5, 2)
    assert y.grad_fn.next_functions[0][0]._saved_dim == 2 ** 64 - 1


CASES = [((3,), (5, 3, 4)), ((5, 2, 3), (3,)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
         ((5, 2, 3), (5, 3, 4)), ((1, 5, 2, 3), (6, 1, 3, 4)), ((5, 2, 3), (1, 3, 4)),
         ((1, 2, 3), (5, 3, 4)), ((6, 5, 2, 3), (5, 3, 4)), ((1, 3), (5, 3, 4)),
         ((5, 2, 1), (1, 4)), ((0, 2, 3), (3, 4))]


def _reference_grads(a, b, g):
    """NumPy's gradients of sum(g * (a @ b)), summed back over broadcast batch dims."""
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    g2 = g
    if a.ndim == 1:
        g2 = np.expand_dims(g2, -2)
    if b.ndim == 1:
        g2 = np.expand_dims(g2, -1)
    ga = np.matmul(g2, np.swapaxes(b2, -1, -2))
    gb = np.matmul(np.swapaxes(a2, -1, -2), g2)
    ga = ga.reshape((-1,) + a2.shape).sum(0) if ga.ndim > a2.ndim else ga
    gb = gb.reshape((-1,) + b2.shape).sum(0) if gb.ndim > b2.ndim else gb

    def fit(grad, shape):       # (sum over the dims where the operand had size 1)
        grad = grad.reshape(grad.shape[grad.ndim - len(shape):]) if grad.ndim > len(shape) \
            else grad
        for d, n in enumerate(shape):
            if n == 1 and grad.shape[d] != 1:
                grad = grad.sum(d, keepdims=True)
        return grad
    lead_a = ga.shape[:ga.ndim - a2.ndim]
    lead_b = gb.shape[:gb.ndim - b2.ndim]
    ga = ga.sum(tuple(range(len(lead_a)))) if lead_a else ga
    gb = gb.sum(tuple(range(len(lead_b)))) if lead_b else gb
    return fit(ga, a2.shape).reshape(a.shape), fit(gb, b2.shape).reshape(b.shape)


@pytest.mark.parametrize("sa, sb", CASES)
@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("transposed", [False, True])
def test_gradients_match_numpy(sa, sb, needs, transposed):
    base_a, a = leaf(sa, needs[0], transposed and len(sa) >= 2)
    base_b, b = leaf(sb, needs[1])
    y = a @ b
    g = RNG.standard_normal(tuple(y.shape))
    y.backward(ember.tensor(g))
    ga, gb = _reference_grads(a.detach().numpy(), b.detach().numpy(), g)
    if transposed and len(sa) >= 2:
        ga = np.swapaxes(ga, -1, -2)
    for base, need, expected in ((base_a, needs[0], ga), (base_b, needs[1], gb)):
        if need:
            np.testing.assert_allclose(base.grad.numpy(), expected, rtol=1e-10, atol=1e-12)
        else:
            assert base.grad is None


@pytest.mark.parametrize("sa, sb", [((3,), (2, 3, 4)), ((2, 2, 3), (3, 2)), ((2, 3), (2, 3, 4)),
                                    ((1, 2, 3), (2, 3, 2)), ((2, 1, 2, 3), (1, 2, 3, 2))])
def test_gradcheck_and_second_order(sa, sb):
    a = ember.tensor(RNG.standard_normal(sa), requires_grad=True)
    b = ember.tensor(RNG.standard_normal(sb), requires_grad=True)
    assert ember.autograd.gradcheck(lambda x, y: x @ y, (a, b))
    assert ember.autograd.gradgradcheck(lambda x, y: x @ y, (a, b))


def test_no_grad_and_out_record_nothing():
    a = ember.tensor(RNG.standard_normal((5, 2, 3)), requires_grad=True)
    b = ember.tensor(RNG.standard_normal((5, 3, 4)))
    with ember.no_grad():
        y = a @ b
    assert y.grad_fn is None and not y.requires_grad
    np.testing.assert_allclose(y.numpy(), np.matmul(a.detach().numpy(), b.numpy()),
                               rtol=1e-12, atol=1e-12)     # (torch's small-bmm order)
    out = ember.empty(5, 2, 4, dtype=ember.float64)
    ember.matmul(a.detach(), b, out=out)
    np.testing.assert_array_equal(out.numpy(), y.numpy())
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        ember.matmul(a, b, out=out)


def test_half_products_round_once_through_the_graph():
    a = ember.tensor(RNG.standard_normal((3, 2, 5)), dtype=ember.float16, requires_grad=True)
    w = ember.tensor(RNG.standard_normal((5, 4)), dtype=ember.float16, requires_grad=True)
    y = a @ w
    expected = np.matmul(a.detach().numpy().astype(np.float32),
                         w.detach().numpy().astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(y.detach().numpy(), expected)
    y.sum().backward()
    assert a.grad.dtype == ember.float16 and tuple(w.grad.shape) == (5, 4)


def test_squeeze_inplace_node_shows_its_dim():
    x = ember.ones(1, 3, requires_grad=True).clone()
    x.squeeze_(-2)
    assert type(x.grad_fn).__name__ == "SqueezeBackward4"
    assert x.grad_fn._saved_dim == 2 ** 64 - 2 and x.grad_fn._saved_self_sym_sizes == (1, 3)
    y = ember.ones(1, 3, requires_grad=True).clone()
    y.squeeze_((0,))
    assert y.grad_fn._saved_dim == (0,)


def test_empty_operand_strides_are_tensor_strides():
    a = ember.zeros(2, 0, requires_grad=True)
    b = ember.zeros(0, 3, requires_grad=True)
    node = (a @ b).grad_fn
    assert node._saved_self_sym_strides == a.stride() == (1, 1)
    assert node._saved_mat2_sym_strides == b.stride() == (3, 1)


def test_linear_of_a_non_contiguous_input_is_a_matmul_and_an_add():
    x = ember.tensor(RNG.standard_normal((3, 2, 4)), requires_grad=True)
    w = ember.tensor(RNG.standard_normal((5, 4)), requires_grad=True)
    bias = ember.tensor(RNG.standard_normal(5), requires_grad=True)
    y = ember.nn.functional.linear(x.transpose(0, 1), w, bias)
    assert chain(y.grad_fn) == \
        "AddB0(UnsafeViewB0(MmB0(UnsafeViewB0(CloneB0(TransposeB0(L))),TB0(L))),L)"
    expected = np.swapaxes(x.detach().numpy(), 0, 1) @ w.detach().numpy().T + \
        bias.detach().numpy()
    np.testing.assert_allclose(y.detach().numpy(), expected, rtol=1e-12)
    y.sum().backward()
    np.testing.assert_allclose(bias.grad.numpy(), np.full(5, 6.0))
    np.testing.assert_allclose(w.grad.numpy(), np.tile(
        np.swapaxes(x.detach().numpy(), 0, 1).reshape(6, 4).sum(0), (5, 1)))
    # a contiguous input keeps torch's one addmm over the flattened rows
    z = ember.nn.functional.linear(x, w, bias)
    assert chain(z.grad_fn) == "ViewB0(AddmmB0(L,ViewB0(L),TB0(L)))"


def test_tensordot_permutes_by_the_dims_as_given():
    a = ember.tensor(RNG.standard_normal((2, 3, 4)), requires_grad=True)
    b = ember.tensor(RNG.standard_normal((5, 4)), requires_grad=True)
    y = ember.inner(a, b)
    mm = y.grad_fn.next_functions[0][0]
    left = mm.next_functions[0][0].next_functions[0][0]
    right = mm.next_functions[1][0].next_functions[0][0]
    assert left._saved_dims == (0, 1, 2 ** 64 - 1) and right._saved_dims == (2 ** 64 - 1, 0)
    np.testing.assert_allclose(y.detach().numpy(), np.inner(a.detach().numpy(),
                                                            b.detach().numpy()), rtol=1e-12)
