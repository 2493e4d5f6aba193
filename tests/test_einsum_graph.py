"""einsum's graph (NOTE [ einsum's graph ] in _ops/einsum_graph.py): torch's nodes for one,
two and three operands, diagonals, gradients against NumPy's einsum, and values equal to it."""
import numpy as np
import pytest

import ember
from test_matmul_graph import chain

RNG = np.random.default_rng(1)

GRAPHS = [
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)],
     "ViewB0(PermuteB0(ViewB0(BmmB0(ViewB0(PermuteB0(PermuteB0(UnsqueezeB0(L)))),"
     "ViewB0(PermuteB0(PermuteB0(UnsqueezeB0(L))))))))"),
    ("ij,kj->ik", [(3, 4), (5, 4)],
     "ViewB0(PermuteB0(ViewB0(BmmB0(ViewB0(PermuteB0(PermuteB0(UnsqueezeB0(L)))),"
     "ReshapeAliasB0(PermuteB0(PermuteB0(UnsqueezeB0(L))))))))"),
    ("i,j->ij", [(3,), (4,)], "MulB0(PermuteB0(UnsqueezeB0(L)),PermuteB0(UnsqueezeB0(L)))"),
    ("ij,j->", [(3, 4), (4,)],
     "ViewB0(PermuteB0(ViewB0(BmmB0(ViewB0(PermuteB0(SumB1(PermuteB0(L)))),"
     "ViewB0(PermuteB0(PermuteB0(UnsqueezeB0(L))))))))"),
    ("ij->ji", [(3, 4)], "PermuteB0(L)"),
    ("ij->j", [(3, 4)], "SumB1(PermuteB0(L))"),
    ("ii", [(3, 3)], "SumB1(PermuteB0(PermuteB0(DiagonalB0(L))))"),
    ("i,j,k->ijk", [(2,), (3,), (4,)],
     "MulB0(MulB0(PermuteB0(UnsqueezeB0(UnsqueezeB0(L))),PermuteB0(UnsqueezeB0(UnsqueezeB0(L)))),"
     "PermuteB0(UnsqueezeB0(UnsqueezeB0(L))))"),
]


@pytest.mark.parametrize("equation, shapes, expected", GRAPHS)
def test_graph_is_torchs_composition(equation, shapes, expected):
    ts = [ember.tensor(RNG.standard_normal(s), requires_grad=True) for s in shapes]
    y = ember.einsum(equation, *ts)
    assert chain(y.grad_fn) == expected
    np.testing.assert_array_equal(
        y.detach().numpy(), np.einsum(equation, *[t.detach().numpy() for t in ts],
                                      optimize=len(ts) > 1))


def test_saved_values_and_layout():
    a = ember.tensor(RNG.standard_normal((4, 3)), requires_grad=True)
    b = ember.tensor(RNG.standard_normal((4, 5)), requires_grad=True)
    y = ember.einsum("ji,jk->ki", a, b)
    assert tuple(y.shape) == (5, 3) and y.stride() == (3, 1)
    view = y.grad_fn
    assert view._saved_self_sym_sizes == (5, 3, 1)
    permute = view.next_functions[0][0]
    assert permute._saved_dims == (0, 2, 1)
    bmm = permute.next_functions[0][0].next_functions[0][0]
    # the product is taken transposed: b's columns come first in the output
    assert tuple(bmm._saved_self.shape) == (1, 5, 4) and tuple(bmm._saved_mat2.shape) == (1, 4, 3)


@pytest.mark.parametrize("equation, shapes", [
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ij,kj->ki", [(3, 4), (5, 4)]),
    ("ij,j->", [(3, 4), (4,)]), ("ii,i->i", [(3, 3), (3,)]), ("iij,jk->ik", [(3, 3, 4), (4, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ab,cd->", [(2, 3), (4, 2)])])
def test_gradients_match_numpy(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    ts = [ember.tensor(a, requires_grad=True) for a in arrays]
    y = ember.einsum(equation, *ts)
    g = RNG.standard_normal(tuple(y.shape))
    y.backward(ember.tensor(g))
    lhs, rhs = equation.split("->")
    terms = lhs.split(",")
    for k, (t, term) in enumerate(zip(ts, terms)):
        # d/dx_k of sum(g * einsum(...)): g contracted with the other operands (diagonals
        # of a repeated letter: through an identity, as torch's gradient scatters it)
        others = [a for j, a in enumerate(arrays) if j != k]
        other_terms = [s for j, s in enumerate(terms) if j != k]
        letters = sorted(set(term))
        alone = [c for c in letters if c not in rhs + "".join(other_terms)]
        ones = [np.ones(arrays[k].shape[term.index(c)]) for c in alone]     # (broadcast)
        dense = np.einsum(",".join([rhs] + other_terms + alone) + "->" + "".join(letters), g,
                          *others, *ones)
        expected = np.zeros(arrays[k].shape)
        for idx in np.ndindex(arrays[k].shape):
            named = dict(zip(term, idx))
            if all(named[c] == i for c, i in zip(term, idx)):
                expected[idx] = dense[tuple(named[c] for c in letters)]
        np.testing.assert_allclose(t.grad.numpy(), expected, rtol=1e-10, atol=1e-12)


def test_gradcheck_through_the_composition():
    a = ember.tensor(RNG.standard_normal((2, 3)), requires_grad=True)
    b = ember.tensor(RNG.standard_normal((3, 2, 2)), requires_grad=True)
    assert ember.autograd.gradcheck(lambda x, y: ember.einsum("ij,jkl->lik", x, y), (a, b))
    assert ember.autograd.gradgradcheck(lambda x, y: ember.einsum("ij,jkl->lik", x, y), (a, b))


def test_broadcast_operands():
    a = ember.tensor(RNG.standard_normal((3, 1)), requires_grad=True)
    b = ember.tensor(RNG.standard_normal((4, 5)), requires_grad=True)
    y = ember.einsum("ij,jk->ik", a, b)
    np.testing.assert_allclose(y.detach().numpy(), a.detach().numpy().sum(1, keepdims=True) *
                               b.detach().numpy().sum(0))
    y.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.full((3, 1), b.detach().numpy().sum()))
