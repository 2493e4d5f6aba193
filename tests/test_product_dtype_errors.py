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
