"""Fixes found by fuzzing tensor printing against torch (tests/oracle/
test_snippets_printing_fuzz_oracle.py holds the snippets): the expected texts follow torch's
rules, worked out by hand."""
import gc

import numpy as np
import pytest

import ember
from ember import nn

MyT = None


@pytest.fixture(scope="module", autouse=True)
def _subclass():
    """A live Tensor subclass keeps ember's operators wrapped for __torch_function__: MyT lives
    only while this module's tests run (later modules check the plain operators)."""
    global MyT

    class MyT(ember.Tensor):
        pass

    yield
    MyT = None
    gc.collect()


# -- reshape's node: view for a contiguous tensor, _reshape_alias for a strided one ------------

def test_reshape_of_a_contiguous_tensor_records_a_view():
    x = ember.ones(6, requires_grad=True)
    assert type(x.reshape(2, 3).grad_fn).__name__ == "ViewBackward0"


@pytest.mark.parametrize("shape", [(-1,), (3, 1), (1, 3)])
def test_reshape_that_views_a_strided_tensor_records_reshape_alias(shape):
    x = ember.arange(6.)[::2].requires_grad_()
    y = x.reshape(*shape)
    assert type(y.grad_fn).__name__ == "ReshapeAliasBackward0"
    y.backward(ember.tensor([1., 2., 3.]).reshape(shape))
    np.testing.assert_array_equal(x.grad.numpy(), [1., 2., 3.])


def test_reshape_that_must_copy_still_records_unsafe_view():
    x = ember.arange(6.).reshape(2, 3).t().requires_grad_()
    assert type(x.reshape(-1).grad_fn).__name__ == "UnsafeViewBackward0"
    assert type(x.reshape(3, 1, 2).grad_fn).__name__ == "ReshapeAliasBackward0"


def test_view_of_a_strided_tensor_is_still_a_view_node():
    x = ember.arange(6.)[::2].requires_grad_()
    assert type(x.view(3).grad_fn).__name__ == "ViewBackward0"


# -- Parameter of a tensor subclass -------------------------------------------------------------

def test_parameter_of_a_subclass_instance_keeps_the_class_and_is_a_parameter():
    t = ember.ones(2, 2).as_subclass(MyT)
    p = nn.Parameter(t)
    assert type(p) is MyT and p._is_param and p.requires_grad and p.is_leaf
    assert isinstance(p, nn.Parameter) and not isinstance(t, nn.Parameter)
    assert not isinstance(ember.ones(1), nn.Parameter)
    m = nn.Module()
    m.w = p
    assert [name for name, _ in m.named_parameters()] == ["w"]


def test_parameter_of_a_subclass_instance_prints_wrapped():
    # torch's repr: the subclass's own text (indent len("MyT(")) inside "Parameter(...)".
    p = nn.Parameter(ember.ones(2, 2).as_subclass(MyT))
    assert repr(p) == ("Parameter(MyT([[1., 1.],\n"
                       "     [1., 1.]], requires_grad=True))")
    q = nn.Parameter(ember.ones(2, dtype=ember.float64).as_subclass(MyT), requires_grad=False)
    assert str(q) == "Parameter(MyT([1., 1.], dtype=torch.float64))"


def test_an_instance_of_a_parameter_subclass_prints_both_headers():
    class P(nn.Parameter):
        pass
    assert repr(P(ember.ones(2))) == ("Parameter containing:\n"
                                      "Parameter(P([1., 1.], requires_grad=True))")
    assert repr(nn.Parameter(ember.ones(2))) == ("Parameter containing:\n"
                                                 "tensor([1., 1.], requires_grad=True)")


def test_parameter_of_a_parameter_subclass_instance_refuses_the_plain_detach():
    class P(nn.Parameter):
        pass
    with pytest.raises(RuntimeError, match="Creating a Parameter from an instance of type P "
                       "requires that detach.. returns an instance of the same type, but "
                       "return type Tensor was found instead"):
        nn.Parameter(P(ember.ones(2)))


def test_parameter_of_an_integer_subclass_instance_cannot_require_grad():
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require "
                                           "gradients"):
        nn.Parameter(ember.ones(2, dtype=ember.long).as_subclass(MyT))


# -- sparse tensors of the default complex dtype do not name it ----------------------------------

def test_sparse_of_the_default_complex_dtype_prints_no_dtype():
    # torch names the dtype only when it is not implied (float32, complex64, int64, bool).
    z = ember.tensor([[1j, 0], [0, 2]], dtype=ember.complex64)
    assert repr(z.to_sparse()).endswith("size=(2, 2), nnz=2, layout=torch.sparse_coo)")
    assert "dtype=" not in repr(z.to_sparse_csr())
    assert "dtype=torch.complex128" in repr(z.to(ember.complex128).to_sparse())


# -- the result tuples' errors name them torch.return_types.<name> -------------------------------

def test_return_types_errors_use_the_dotted_name():
    r = ember.max(ember.tensor([[1., 2.]]), 1)
    assert type(r).__name__ == "max" and type(r).__qualname__ == "max"
    with pytest.raises(AttributeError, match="^'torch.return_types.max' object has no "
                                             "attribute 'flatten'$"):
        r.flatten()
    with pytest.raises(TypeError, match="^unsupported format string passed to "
                                        "torch.return_types.max.__format__$"):
        f"{r:>5}"
    with pytest.raises(AttributeError, match="^readonly attribute$"):
        r.values = 1
    with pytest.raises(TypeError, match="'torch.return_types.sort' object is not callable"):
        ember.sort(ember.tensor([2, 1]))()
    assert r.values.tolist() == [2.] and f"{r}".startswith("torch.return_types.max(\nvalues=")


def test_return_types_still_pickle():
    import pickle
    r = pickle.loads(pickle.dumps(ember.max(ember.tensor([[1., 2.]]), 1)))
    assert type(r).__name__ == "max" and r.indices.tolist() == [1]


# -- float8 of a 0-dim tensor is a tensor -------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e8m0fnu", "float8_e5m2"])
def test_0dim_conversion_to_float8_prints(dtype):
    # 2950336673 saturates to e4m3fn's 448; 3. rounds up to e8m0's 4 and fits e5m2's 3.
    value = 2950336673 if dtype == "float8_e4m3fn" else 3
    t = ember.tensor(value, dtype=ember.uint32).to(getattr(ember, dtype))
    expected = {"float8_e4m3fn": "448.", "float8_e8m0fnu": "4.", "float8_e5m2": "3."}[dtype]
    assert repr(t) == f"tensor({expected}, dtype=torch.{dtype})"


# -- to_sparse's two overloads name two nodes ---------------------------------------------------

@pytest.mark.parametrize("call, node", [
    (lambda x: x.to_sparse(), "ToSparseBackward1"),
    (lambda x: x.to_sparse(1), "ToSparseBackward0"),
    (lambda x: x.to_sparse(sparse_dim=2), "ToSparseBackward0"),
    (lambda x: x.to_sparse(layout=ember.sparse_csr), "ToSparseBackward1"),
    (lambda x: x.to_sparse(layout=ember.sparse_bsr, blocksize=(1, 1)), "ToSparseBackward1"),
    (lambda x: x.to_sparse_csr().to_sparse(2), "ToSparseBackward0"),
    (lambda x: x.to_sparse_csr(), "ToSparseCsrBackward0"),
])
def test_to_sparse_node_names(call, node):
    x = ember.tensor([[1., 0.], [0., 2.]], requires_grad=True)
    y = call(x)
    assert type(y.grad_fn).__name__ == node
    (y.to_dense() * ember.tensor([[1., 2.], [3., 4.]])).sum().backward()
    # the gradient is dense, masked to the stored entries where the layout keeps them
    assert x.grad.layout == ember.strided
    assert x.grad.tolist() in ([[1., 0.], [0., 4.]], [[1., 2.], [3., 4.]])


# -- max/min along a dim give the element at the index ----------------------------------------

def test_max_and_min_along_a_dim_keep_the_sign_of_the_zero_they_point_at():
    def signs(t):
        return np.signbit(t.numpy()).tolist()
    r = ember.max(ember.tensor([-0., 0.]), 0)
    assert r.indices.item() == 0 and signs(r.values) is True
    assert signs(ember.max(ember.tensor([0., -0.]), 0).values) is False
    assert signs(ember.tensor([[0., -0.], [-0., 0.]]).max(0).values) == [False, True]
    assert signs(ember.tensor([[-0., 0.]], dtype=ember.float16).min(1, keepdim=True).values) \
        == [[True]]
    assert repr(ember.min(ember.tensor([-0., 0.]), 0).values) == "tensor(-0.)"


# -- flip of the limited unsigned dtypes -----------------------------------------------------

def test_flip_where_nothing_moves_needs_no_kernel():
    # torch has no flip kernel for uint16/32/64 but copies without one when every flipped dim
    # has at most one element (or the tensor is empty)
    t = ember.tensor([[3892629897], [622808430]], dtype=ember.uint32)
    assert repr(t.flip(-1)) == ("tensor([[3892629897],\n        [ 622808430]], "
                                "dtype=torch.uint32)")
    assert ember.ones(0, 2, dtype=ember.uint64).flip(1).shape == (0, 2)
    with pytest.raises(NotImplementedError, match="\"flip_cpu\" not implemented for 'UInt16'"):
        ember.tensor([[1], [2]], dtype=ember.uint16).flip(0, 1)


def test_flip_of_a_0dim_tensor_and_max_of_a_meta_tensor():
    assert repr(ember.tensor(3, dtype=ember.uint32).flip(0)) == "tensor(3, dtype=torch.uint32)"
    v, i = ember.empty(2, 3, device="meta").max(1)
    assert v.shape == (2,) and i.dtype == ember.int64 and v.is_meta


# -- sparse conversions of a complex tensor that requires grad ---------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda x: x.to_sparse(), "_to_sparse"),
    (lambda x: x.to_sparse(1), "_to_sparse"),
    (lambda x: x.to_sparse(layout=ember.sparse_csr), "_to_sparse"),
    (lambda x: x.to_sparse_csr(), "_to_sparse_csr"),
    (lambda x: x.to_sparse_bsr((1, 1)), "_to_sparse_bsr"),
])
def test_sparse_conversion_of_a_complex_tensor_that_requires_grad_is_refused(call, name):
    x = ember.tensor([[1j, 0]], requires_grad=True)
    with pytest.raises(RuntimeError, match=f"^{name} does not support automatic "
                                           "differentiation for outputs with complex dtype.$"):
        call(x)
    with ember.no_grad():
        assert call(x).layout != ember.strided
    assert call(x.detach()).layout != ember.strided


# -- sparse conversions of the limited dtypes -------------------------------------------------

@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64", "float8_e4m3fn"])
def test_sparse_conversions_of_dtypes_without_the_kernels(dtype):
    # dense -> COO counts the nonzeros (no kernel for uint16/32/64 nor float8); dense -> CSR/CSC
    # gathers with index_select (none for uint16/32/64); BSR/BSC need neither
    name = {"uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
            "float8_e4m3fn": "Float8_e4m3fn"}[dtype]
    x = ember.tensor([[0., 1.]]).to(getattr(ember, dtype))
    for call in (lambda: x.to_sparse(), lambda: x.to_sparse(1), lambda: x[:, :0].to_sparse()):
        with pytest.raises(NotImplementedError,
                           match=f"^\"nonzero_count_cpu\" not implemented for '{name}'$"):
            call()
    if dtype.startswith("uint"):
        for call in (lambda: x.to_sparse_csr(), lambda: x.to_sparse(layout=ember.sparse_csc)):
            with pytest.raises(NotImplementedError,
                               match=f"^\"index_select\" not implemented for '{name}'$"):
                call()
    else:
        assert x.to_sparse_csr().values().tolist() == [1.]
    assert x.to_sparse_bsr((1, 1)).layout == ember.sparse_bsr


# -- torch._tensor_str and repr's tensor_contents ---------------------------------------------

def test_tensor_str_module_holds_the_print_options():
    ts = ember._tensor_str
    assert ts.PRINT_OPTS is ember._printing.PRINT_OPTS
    assert repr(ts.PRINT_OPTS) == ("__PrinterOptions(precision=4, threshold=1000, edgeitems=3, "
                                   "linewidth=80, sci_mode=None)")
    with ts.printoptions(precision=2):
        assert repr(ember.tensor([1 / 3])) == "tensor([0.33])"
    assert repr(ember.tensor([1 / 3])) == "tensor([0.3333])"
    ts.PRINT_OPTS.precision = 1
    try:
        assert repr(ember.tensor([1 / 3])) == "tensor([0.3])"
    finally:
        ts.set_printoptions(profile="default")
    assert ts.get_printoptions()["precision"] == 4


def test_repr_takes_tensor_contents():
    assert ember.tensor([1.5, 2.5]).__repr__(tensor_contents="xyz") == "tensor(xyz)"
    assert ember.zeros(0, 3).__repr__(tensor_contents="E") == "tensor(E, size=(0, 3))"
    assert ember._tensor_str._str(ember.ones(2, requires_grad=True), tensor_contents="...") \
        == "tensor(..., requires_grad=True)"
    assert ember._tensor_str._str(nn.Parameter(ember.ones(1))) == \
        "tensor([1.], requires_grad=True)"
