"""The mm family refuses operands of different dtypes with torch's texts (recorded from torch
2.13), which name the arguments in torch's order of checking."""
import pytest

import ember

D = ember.ones(2, 2, dtype=ember.float64)
F = ember.ones(2, 2)
FB = ember.ones(1, 2, 2)
DB = FB.double()

CASES = [
    (lambda: ember.addmm(D, F, F), "self and mat2 must have the same dtype, but got Double and "
                                   "Float"),
    (lambda: ember.addmm(F, D, F), "mat1 and mat2 must have the same dtype, but got Double and "
                                   "Float"),
    (lambda: ember.addmm(F, F, D), "self and mat2 must have the same dtype, but got Float and "
                                   "Double"),
    (lambda: ember.addbmm(D, FB, FB), "self and mat2 must have the same dtype, but got Double "
                                      "and Float"),
    (lambda: ember.addbmm(F, DB, FB), "mat1 and mat2 must have the same dtype, but got Double "
                                      "and Float"),
    (lambda: ember.baddbmm(D, FB, FB), "Input dtypes must be the same, got: input double, "
                                       "batch1: float, batch2: float"),
    (lambda: ember.baddbmm(FB, DB, FB), "Input dtypes must be the same, got: input float, "
                                        "batch1: double, batch2: float"),
    (lambda: ember.baddbmm(FB, FB, DB), "expected scalar type Float but found Double"),
    (lambda: ember.bmm(DB, FB), "expected scalar type Double but found Float"),
    (lambda: ember.addmv(D[0], F, F[0]), "addmv input tensors must have the same dtype, but got "
                                         "Double, Float, and Float"),
    (lambda: ember.mv(D, F[0]), "addmv input tensors must have the same dtype, but got Float, "
                                "Double, and Float"),
    (lambda: ember.mm(D, F), "expected m1 and m2 to have the same dtype, but got: double != "
                             "float"),
]


@pytest.mark.parametrize("call,text", CASES)
def test_mixed_dtypes_are_refused_with_torchs_text(call, text):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == text


def _ones(shape, dtype=ember.float32):
    return ember.ones(shape, dtype=dtype)


f, d = ember.float32, ember.float64

# matmul checks as the product it makes: 1-D @ 2-D is a (1, k) mm, a batched left operand with
# a 1-D/2-D right one is folded into one mv/mm, anything else is a bmm over the broadcast
# batch; each checks shapes before dtypes (texts recorded from torch 2.13).
MATMUL_CASES = [
    ((4,), (2, 3), f, f, "mat1 and mat2 shapes cannot be multiplied (1x4 and 2x3)"),
    ((4,), (2, 3), f, d, "mat1 and mat2 shapes cannot be multiplied (1x4 and 2x3)"),
    ((3,), (3, 2), f, d, "expected m1 and m2 to have the same dtype, but got: float != double"),
    ((2, 4, 3), (2, 4, 2), f, d, "Expected size for first two dimensions of batch2 tensor to "
                                 "be: [2, 3] but got: [2, 4]."),
    ((2, 4, 3), (2, 3, 2), f, d, "expected scalar type Float but found Double"),
    ((2, 4, 3), (4, 2), f, d, "mat1 and mat2 shapes cannot be multiplied (8x3 and 4x2)"),
    ((2, 4, 3), (3, 2), f, d, "expected m1 and m2 to have the same dtype, but got: float != "
                              "double"),
    ((4, 3), (2, 4, 2), f, f, "Expected size for first two dimensions of batch2 tensor to be: "
                              "[2, 3] but got: [2, 4]."),
    ((2, 1, 4, 3), (3, 4, 2), f, f, "Expected size for first two dimensions of batch2 tensor "
                                    "to be: [6, 3] but got: [6, 4]."),
    ((2, 4, 3), (4,), f, f, "size mismatch, got input (8), mat (8x3), vec (4)"),
    ((2, 4, 3), (3,), f, d, "addmv input tensors must have the same dtype, but got Double, "
                            "Float, and Double"),
    ((3,), (2, 3, 2), f, d, "expected scalar type Float but found Double"),
    ((3,), (4,), f, d, "dot : expected both vectors to have same dtype, but found Float and "
                       "Double"),
    ((2, 4, 3), (2, 3, 2), ember.long, f, "expected scalar type Long but found Float"),
]


@pytest.mark.parametrize("a,b,da,db,text", MATMUL_CASES)
def test_matmul_errors_follow_torchs_products(a, b, da, db, text):
    with pytest.raises(RuntimeError) as info:
        _ones(a, da) @ _ones(b, db)
    assert str(info.value) == text


def test_matmul_bool_batches_are_refused_by_bmm():
    with pytest.raises(NotImplementedError) as info:
        _ones((2, 4, 3), ember.bool) @ _ones((2, 3, 2), ember.bool)
    assert str(info.value) == "\"bmm\" not implemented for 'Bool'"


@pytest.mark.parametrize("call,text", [
    (lambda: ember.einsum("ij,jk->ik", _ones((2, 3)), _ones((4, 5))),
     "einsum(): subscript j has size 4 for operand 1 which does not broadcast with previously "
     "seen size 3"),
    (lambda: ember.einsum("ii,jk->ik", _ones((2, 3)), _ones((4, 5), d)),
     "einsum(): subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
    (lambda: ember.einsum("...ii->i", _ones((5, 2, 3))),
     "einsum(): subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
    (lambda: ember.einsum("ij,jk->ik", _ones((2, 3)), _ones((3, 5), d)),
     "expected scalar type Float but found Double"),
    (lambda: ember.tensordot(_ones((2, 3)), _ones((4, 5)), dims=1),
     "contracted dimensions need to match, but first has size 3 in dim -1 and second has size "
     "4 in dim 0"),
    (lambda: ember.tensordot(_ones((2, 3)), _ones((4, 5)), dims=([-1], [-2])),
     "contracted dimensions need to match, but first has size 3 in dim -1 and second has size "
     "4 in dim -2"),
    (lambda: ember.tensordot(_ones((2, 3)), _ones((4, 5)), dims=([1], [0])),
     "contracted dimensions need to match, but first has size 3 in dim 1 and second has size "
     "4 in dim 0"),
])
def test_einsum_and_tensordot_size_errors(call, text):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == text


@pytest.mark.parametrize("call, kernel", [
    (lambda b, B: ember.inner(b, b), "dot"), (lambda b, B: ember.inner(B, B), "addmm_impl_cpu_"),
    (lambda b, B: ember.inner(b, B), "addmm_impl_cpu_"), (lambda b, B: ember.vdot(b, b), "dot"),
    (lambda b, B: ember.linalg.cross(b, b), "cross"),
    (lambda b, B: ember.addmv(b[:2], B, b), "addmv_impl_cpu"),
    (lambda b, B: ember.baddbmm(B[None, :, :2], B[None], B.T[None]), "baddbmm"),
])
def test_bool_products_have_no_kernel(call, kernel):
    # torch's CPU kernels refuse bool with a NotImplementedError naming the kernel
    b, B = ember.ones(3, dtype=ember.bool), ember.ones(2, 3, dtype=ember.bool)
    with pytest.raises(NotImplementedError) as info:
        call(b, B)
    assert str(info.value) == f"\"{kernel}\" not implemented for 'Bool'"
    assert ember.outer(b, b).all() and ember.kron(b, b).shape == (9,)     # (elementwise)
