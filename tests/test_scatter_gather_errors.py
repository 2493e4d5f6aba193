"""torch's exceptions (type and text) for the gather/scatter family, the cases the operator table
cannot express. Messages were read off torch 2.x."""
import re

import numpy as np
import pytest

import ember

X = ember.arange(6.0).reshape(2, 3)
XI = ember.arange(6).reshape(2, 3)
L = ember.tensor


def _raises(exc, message, fn):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        fn()


CASES = [
    # index_select
    (RuntimeError, "index_select(): Expected dtype int32 or int64 for index",
     lambda: ember.index_select(X, 0, L([0.0]))),
    (IndexError, "index_select(): Index is supposed to be a vector",
     lambda: ember.index_select(X, 0, L([[0, 1]]))),
    (IndexError, "index out of range in self", lambda: ember.index_select(X, 0, L([5]))),
    (IndexError, "index out of range in self", lambda: ember.index_select(X, 0, L([-1]))),
    # (torch's CPU kernel for dim 1, or for an empty input, has its own text)
    (RuntimeError, "INDICES element is out of DATA bounds, id=7 axis_dim=3",
     lambda: ember.index_select(X, 1, L([1, 7, -9]))),
    (RuntimeError, "INDICES element is out of DATA bounds, id=-1 axis_dim=3",
     lambda: ember.index_select(ember.zeros(4, 3, 5), -2, L([-1]))),
    (RuntimeError, "INDICES element is out of DATA bounds, id=5 axis_dim=3",
     lambda: ember.index_select(ember.zeros(3, 0), 0, L([5]))),
    (IndexError, "index out of range in self", lambda: ember.index_select(ember.zeros(2, 3, 4),
                                                                          2, L([4]))),
    (RuntimeError, "index_select(): self indexing axis dim should be positive",
     lambda: ember.index_select(ember.zeros(2, 3, 0), 2, L([0]))),
    (RuntimeError, "index_select(): Index to scalar can have only 1 value, got 2 value(s)",
     lambda: ember.index_select(L(5.0), 0, L([0, 0]))),
    # gather
    (RuntimeError, "gather(): Expected dtype int32/int64 for index",
     lambda: ember.gather(X, 0, L([[0.0]]))),
    (RuntimeError, "index 5 is out of bounds for dimension 0 with size 2",
     lambda: ember.gather(X, 0, L([[5]]))),
    (RuntimeError, "index -1 is out of bounds for dimension 0 with size 2",
     lambda: ember.gather(X, 0, L([[-1]]))),
    (RuntimeError, "Size does not match at dimension 0 expected index [3, 1] to be no larger "
                   "than self [2, 3] apart from dimension 1",
     lambda: ember.gather(X, 1, ember.zeros(3, 1, dtype=ember.int64))),
    (RuntimeError, "Index tensor must have the same number of dimensions as input tensor",
     lambda: ember.gather(X, 1, ember.zeros(3, dtype=ember.int64))),
    # scatter, scatter_add, scatter_reduce
    (RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype",
     lambda: ember.scatter(X, 0, L([[0]]), ember.ones(1, 1, dtype=ember.float64))),
    (RuntimeError, "scatter(): Expected dtype int32/int64 for index",
     lambda: ember.scatter_add(X, 0, L([[0.0]]), ember.ones(1, 1))),
    (RuntimeError, "index 5 is out of bounds for dimension 0 with size 2",
     lambda: ember.scatter(X, 0, L([[5]]), ember.ones(1, 1))),
    (RuntimeError, "Expected index [2, 3] to be no larger than self [2, 3] apart from "
                   "dimension 0 and to be no larger size than src [1, 1]",
     lambda: ember.scatter(X, 0, ember.zeros(2, 3, dtype=ember.int64), ember.ones(1, 1))),
    (RuntimeError, "Index tensor must have the same number of dimensions as self tensor",
     lambda: ember.scatter(X, 0, L([0]), ember.ones(1, 1))),
    (RuntimeError, "reduce argument must be either add or multiply.",
     lambda: ember.scatter(X, 0, L([[0]]), ember.ones(1, 1), reduce="sum")),
    (RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, got foo",
     lambda: ember.scatter_reduce(X, 0, L([[0]]), ember.ones(1, 1), "foo")),
    (RuntimeError, "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'",
     lambda: ember.scatter_reduce(L([True]), 0, L([0]), L([True]), "mean")),
    # index_add, index_copy, index_fill
    (RuntimeError, "index_add_(): self (Float) and source (Double) must have the same scalar "
                   "type",
     lambda: ember.index_add(X, 0, L([0, 0]), ember.ones(2, 3, dtype=ember.float64))),
    (RuntimeError, "index_add_(): Expected dtype int32/int64 for index but got: Float",
     lambda: ember.index_add(X, 0, L([0.0]), ember.ones(1, 3))),
    (IndexError, "index_add_(): Index is supposed to be a vector, but got dim: 2 with type: "
                 "Long and size: [1, 3]",
     lambda: ember.index_add(X, 0, L([[0, 1, 0]]), ember.ones(2, 3))),
    (RuntimeError, "index_add_(): Number of indices (2) should be equal to source.size(dim): "
                   "(3), for dim: 0",
     lambda: ember.index_add(X, 0, L([0, 0]), ember.ones(3, 3))),
    (RuntimeError, "index -1 is out of bounds for dimension 0 with size 2",
     lambda: ember.index_add(X, 0, L([-1]), ember.ones(1, 3))),
    (RuntimeError, "source tensor shape must match self tensor shape, excluding the specified "
                   "dimension. Got self.shape = [3] source.shape = []",
     lambda: ember.index_add(ember.zeros(3), 0, L(1), L(1.0))),
    (RuntimeError, "index_add_(): Indexing dim 1 is out of bounds of the source tensor with "
                   "dim 1",
     lambda: ember.index_add(ember.zeros(3, 4), 1, L([0, 1]), ember.ones(2))),
    (RuntimeError, "index_copy_(): Expected a long tensor for index, but got Int",
     lambda: ember.index_copy(X, 0, L([0], dtype=ember.int32), ember.ones(1, 3))),
    (RuntimeError, "index_copy_(): self and source expected to have the same dtype, but got "
                   "(self) Float and (source) Double",
     lambda: ember.index_copy(X, 0, L([0]), ember.ones(1, 3, dtype=ember.float64))),
    (IndexError, "index_copy_(): index 2 is out of bounds for dimension 0 with size 2",
     lambda: ember.index_copy(X, 0, L([2]), ember.ones(1, 3))),
    (RuntimeError, "index_copy_(): Source/destination tensor must have same slice shapes. "
                   "Destination slice shape: 3 at dimension 0 and source slice shape: 2 at "
                   "dimension 0.",
     lambda: ember.index_copy(X, 0, L([1]), ember.ones(1, 2))),
    (IndexError, "index_copy_(): Index should have dimension 1 or 0 (got 2)",
     lambda: ember.index_copy(X, 0, L([[0, 1]]), ember.ones(2, 3))),
    (IndexError, "index_copy_(): When source and destination are not scalars, their "
                 "dimensionality must match. Source dimensionality (1), destination "
                 "dimensionality (2)",
     lambda: ember.index_copy(X, 0, L([0]), ember.ones(3))),
    (RuntimeError, "Index has to be a vector/scalar",
     lambda: ember.index_fill(X, 0, L([[0, 1]]), 1.0)),
    (IndexError, "too many indices for tensor of dimension 2 (got 3)",
     lambda: ember.index_put(X, (L([0]), L([0]), L([0])), L(1.0))),
    (IndexError, "index_fill_(): Expected dtype int64 for index.",
     lambda: ember.index_fill(XI, 1, L([0], dtype=ember.int32), 2)),
    (IndexError, "index 3 is out of bounds for dimension 0 with size 2",
     lambda: ember.index_fill(X, 0, L([3]), 1.0)),
    (RuntimeError, "index_fill_ only supports a 0-dimensional value tensor, but got tensor "
                   "with 1 dimension(s).",
     lambda: ember.index_fill(XI, 1, L([0]), L([2]))),
    # index_put
    (RuntimeError, "Index put requires the source and destination dtypes match, got Float for "
                   "the destination and Long for the source.",
     lambda: ember.index_put(X, (L([0]),), L([1, 2, 3]))),
    (IndexError, "index 5 is out of bounds for dimension 0 with size 2",
     lambda: ember.index_put(X, (L([5]),), L(1.0))),
    (RuntimeError, "shape mismatch: value tensor of shape [3, 3] cannot be broadcast to "
                   "indexing result of shape [2, 3]",
     lambda: ember.index_put(X, (L([0, 1]),), ember.ones(3, 3))),
    (IndexError, "tensors used as indices must be long, int, byte or bool tensors",
     lambda: ember.index_put(X, (L([0.0]),), L(1.0))),
    (TypeError, "expected Tensor as element 0 in argument 1, but got NoneType",
     lambda: ember.index_put(X, (None, L([0])), L(1.0))),
    # masked_*
    (RuntimeError, "masked_fill_ only supports boolean masks, but got mask with dtype unsigned "
                   "char",
     lambda: ember.masked_fill(XI, (XI > 2).to(ember.uint8), 2)),
    (RuntimeError, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                   "with 1 dimension(s).",
     lambda: ember.masked_fill(XI, XI > 2, L([2.7]))),
    (RuntimeError, "value cannot be converted to type float without overflow",
     lambda: ember.masked_fill(X, X > 2, 1j)),
    (RuntimeError, "value cannot be converted to type uint8_t without overflow",
     lambda: ember.masked_fill(XI.to(ember.uint8), XI > 2, 300)),
    (RuntimeError, "value cannot be converted to type int8_t without overflow",
     lambda: ember.masked_fill(XI.to(ember.int8), XI > 2, L(200))),
    (RuntimeError, "value cannot be converted to type c10::Half without overflow",
     lambda: ember.masked_fill(X.half(), X > 2, 1e6)),
    (RuntimeError, "value cannot be converted to type uint8_t without overflow",
     lambda: ember.index_fill(XI.to(ember.uint8), 0, L([0]), 300)),
    (RuntimeError, "value cannot be converted to type uint8_t without overflow",
     lambda: ember.scatter(XI.to(ember.uint8), 0, L([[0]]), 300)),
    (RuntimeError, "masked_select: expected BoolTensor for mask",
     lambda: ember.masked_select(XI, (XI > 2).to(ember.uint8))),
    (RuntimeError, "Number of elements of source < number of ones in mask",
     lambda: ember.masked_scatter(XI, XI > 2, L([10]))),
    (RuntimeError, "masked_scatter: expected self and source to have same dtypes but gotLong "
                   "and Float",
     lambda: ember.masked_scatter(XI, XI > 2, L([10.0, 20, 30, 40]))),
    (RuntimeError, "masked_scatter_ only supports boolean masks, but got mask with dtype Byte",
     lambda: ember.masked_scatter(X, (X > 2).to(ember.uint8), ember.ones(6))),
    # take, take_along_dim, put
    (IndexError, "out of range: tried to access index 6 on a tensor of 6 elements.",
     lambda: ember.take(XI, L([6]))),
    (RuntimeError, "take(): Expected a long tensor for index, but got Int",
     lambda: ember.take(XI, L([1], dtype=ember.int32))),
    (RuntimeError, "torch.take_along_dim(): dtype of indices should be Long but got Int",
     lambda: ember.take_along_dim(XI, L([[0, 1]], dtype=ember.int32), 0)),
    (RuntimeError, "torch.take_along_dim(): input and indices should have the same number of "
                   "dimensions, but got 2 dimensions for input, and 1 dimensions for indices",
     lambda: ember.take_along_dim(XI, L([0, 1]), 0)),
    (RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
                   "non-singleton dimension 1",
     lambda: ember.take_along_dim(XI, L([[0, 1]]), 0)),
    (RuntimeError, "put_(): self and source expected to have the same dtype, but got "
                   "self.dtype = Long and source.dtype = Float",
     lambda: ember.put(XI, L([0, 1]), L([7.0, 8]))),
    (IndexError, "put_(): Expected source and index to have the same number of elements, but "
                 "got source.numel() = 3, index.numel() = 2",
     lambda: ember.put(XI, L([0, 1]), L([7, 8, 9]))),
    (IndexError, "out of range: tried to access index 6 on a tensor of 6 elements.",
     lambda: ember.put(X, L([6]), L([1.0]))),
    (RuntimeError, "put_(): Expected a long tensor for index, but got Int",
     lambda: ember.put(X, L([1], dtype=ember.int32), L([1.0]))),
    # the argument types torch's parser checks first
    (TypeError, "scatter_reduce(): argument 'include_self' must be bool, not int",
     lambda: X.scatter_reduce(0, L([[0]]), X, "sum", include_self=1)),
    (TypeError, "scatter_reduce_(): argument 'reduce' (position 4) must be str, not NoneType",
     lambda: X.clone().scatter_reduce_(0, L([[0]]), X, None)),
    (TypeError, "scatter_reduce(): argument 'reduce' (position 5) must be str, not NoneType",
     lambda: ember.scatter_reduce(X, 0, L([[0]]), X, None)),
    (TypeError, "index_reduce_(): argument 'include_self' must be bool, not NoneType",
     lambda: X.clone().index_reduce_(0, L([0]), X[:1], "mean", include_self=None)),
    (TypeError, "index_reduce(): argument 'reduce' (position 4) must be str, not int",
     lambda: X.index_reduce(0, L([0]), X[:1], 3)),
    (TypeError, "index_add_(): argument 'alpha' must be Number, not str",
     lambda: X.clone().index_add_(0, L([0]), X[:1], alpha="a")),
    (TypeError, "index_add(): argument 'alpha' must be Number, not NoneType",
     lambda: ember.index_add(X, 0, L([0]), X[:1], alpha=None)),
    (TypeError, "index_add() takes 4 positional arguments but 5 were given",
     lambda: ember.index_add(X, 0, L([0]), X[:1], 2)),
]


@pytest.mark.parametrize("exc,message,fn", CASES, ids=[str(i) for i in range(len(CASES))])
def test_error(exc, message, fn):
    _raises(exc, message, fn)


def test_no_out_where_torch_has_none():
    for fn in (lambda o: ember.index_fill(X, 0, L([0]), 1.0, out=o),
               lambda o: ember.masked_fill(X, X > 2, 1.0, out=o),
               lambda o: ember.put(X, L([0]), L([1.0]), out=o)):
        with pytest.raises(TypeError):
            fn(ember.empty(0))


def test_scatter_reduce_legacy_has_no_derivative():
    x = ember.zeros(3, requires_grad=True)
    with pytest.warns(UserWarning, match="reduce argument of torch.scatter"):
        y = ember.scatter(x, 0, L([0, 0]), ember.ones(2), reduce="add")
    assert type(y.grad_fn).__name__ == "NotImplemented"
    _raises(RuntimeError, "derivative for aten::scatter is not implemented",
            lambda: y.sum().backward())


def test_src_larger_than_index_has_no_gradient():
    x, src = ember.zeros(3, requires_grad=True), ember.ones(5, requires_grad=True)
    y = ember.scatter_add(x, 0, L([0, 1]), src)
    _raises(RuntimeError, "Function ScatterAddBackward0 returned an invalid gradient at index 1 "
                          "- got [2] but expected shape compatible with [5]",
            lambda: y.sum().backward())


def test_duplicates_accumulate():
    x = ember.zeros(3)
    assert ember.index_add(x, 0, L([1, 1, 1]), ember.ones(3)).tolist() == [0, 3, 0]
    assert ember.scatter_add(x, 0, L([2, 2]), ember.ones(2)).tolist() == [0, 0, 2]
    assert ember.index_put(x, (L([0, 0]),), L(2.0), accumulate=True).tolist() == [4, 0, 0]
    assert ember.put(x, L([-1, 2]), L([1.0, 2.0]), accumulate=True).tolist() == [0, 0, 3]
    assert x.tolist() == [0, 0, 0]


def test_inplace_forms_write_through_views():
    base = ember.zeros(2, 4, dtype=ember.float64, requires_grad=True)
    y = base * 1
    row = y[1]
    row.index_fill_(0, L([0, 3]), 5.0)
    assert y.tolist() == [[0, 0, 0, 0], [5, 0, 0, 5]]
    assert type(y.grad_fn).__name__ == "CopySlices"
    y.sum().backward()
    np.testing.assert_array_equal(base.grad.numpy(), [[1, 1, 1, 1], [0, 1, 1, 0]])


def test_complex_scatter_reduce_is_not_differentiable():
    x = ember.zeros(3, dtype=ember.complex64, requires_grad=True)
    _raises(RuntimeError, "scatter_reduce does not support automatic differentiation for "
                          "outputs with complex dtype.",
            lambda: ember.scatter_reduce(x, 0, L([0]), ember.ones(1, dtype=ember.complex64),
                                         "sum"))
    with ember.no_grad():
        ember.scatter_reduce(x, 0, L([0]), ember.ones(1, dtype=ember.complex64), "sum")


def test_negative_numbers_wrap_into_unsigned_tensors():
    x = ember.zeros(3, dtype=ember.uint8)
    assert x.masked_fill(L([True, False, True]), -1).tolist() == [255, 0, 255]
    assert x.scatter(0, L([1]), -255).tolist() == [0, 1, 0]


def test_scatter_reduce_mean_of_integers_floors():
    out = ember.scatter_reduce(L([1, -3, 5]), 0, L([0, 1, 1, 2]), L([2, -4, 0, 3]), "mean")
    assert out.tolist() == [1, -3, 4]


def test_masked_fill_of_a_leaf_in_place_is_refused():
    x = ember.zeros(3, requires_grad=True)
    _raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                          "operation.", lambda: x.masked_fill_(L([True, False, True]), 1.0))


def test_saved_index_is_checked_for_inplace_changes():
    x = ember.zeros(3, requires_grad=True)
    index = L([0, 2])
    y = x.gather(0, index)
    assert y.grad_fn._saved_index is index
    index.add_(0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_masked_select_broadcasts_the_mask_first():
    _raises(RuntimeError, "The size of tensor a (4) must match the size of tensor b (3) at "
                          "non-singleton dimension 1",
            lambda: X.masked_select(ember.ones(4, dtype=ember.bool)))


def test_put_source_must_be_a_tensor():
    _raises(TypeError, "put_(): argument 'source' (position 2) must be Tensor, not float",
            lambda: ember.arange(3.).put_(L([1]), 5.0))
    _raises(TypeError, "put(): argument 'source' (position 2) must be Tensor, not list",
            lambda: ember.arange(3.).put(L([1]), [5.0]))


# -- found by an indexing fuzzer -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [ember.float32, ember.int16, ember.uint8])
def test_an_empty_index_of_any_dtype_reads_and_writes_nothing(dtype):
    x = ember.arange(6.).reshape(3, 2)
    for shape in ((0,), (3, 0), (0, 5)):
        i = ember.zeros(shape, dtype=dtype)
        r = ember.gather(x, -1, i)
        assert r.shape == shape and r.dtype == ember.float32
        # (nor is the value converted)
        assert x.scatter(0, i, 1j, reduce="add").tolist() == x.tolist()
        assert ember.scatter_add(x, 1, i, x).tolist() == x.tolist()
        assert ember.scatter_reduce(x, 0, i, x, "prod", include_self=False).tolist() == \
            x.tolist()
    y = ember.arange(3.)
    assert y.scatter_(0, L([], dtype=ember.int64), L(3.), reduce="multiply") is y
    assert y.tolist() == [0., 1., 2.]
    # self's and src's dtypes are compared all the same
    _raises(RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype",
            lambda: ember.scatter(ember.zeros(3, 2, dtype=ember.float64), 0,
                                  ember.zeros(0, 2, dtype=ember.int64), ember.zeros(0, 2)))


def test_gather_and_scatter_check_dim_then_index_dtype_then_src_dtype():
    x = ember.arange(9.).reshape(3, 3)
    _raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
            lambda: ember.gather(x, 2, L([[0]], dtype=ember.int16)))
    _raises(RuntimeError, "scatter(): Expected dtype int32/int64 for index",
            lambda: ember.scatter_reduce(ember.arange(3.), -1, L([0.]), ember.arange(5), "amax"))
    _raises(RuntimeError, "scatter(): Expected dtype int32/int64 for index",
            lambda: XI.clone().scatter_(1, L([[1]], dtype=ember.int16), L(3.)))


def test_scatter_converts_its_value_at_the_first_write():
    # the first index in range: the conversion fails first; out of range: the index
    _raises(RuntimeError, "value cannot be converted to type int64_t without overflow",
            lambda: ember.scatter(ember.arange(2), -1, L([1, -1]), 1j))
    _raises(RuntimeError, "index -2 is out of bounds for dimension 0 with size 1",
            lambda: ember.scatter(ember.zeros(1, 4), 0, L([[-2]]), 1j))
    # the legacy reduce is checked before the index values
    _raises(RuntimeError, "reduce argument must be either add or multiply.",
            lambda: ember.arange(4.).scatter(0, L([3, -5]), ember.arange(2.), reduce="mean"))


def test_scatter_reduce_kernels_torch_lacks():
    b = L([True, False])
    _raises(NotImplementedError,
            "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'",
            lambda: ember.scatter_reduce(b, 0, L([0, 1]), b.clone(), "mean"))
    # an empty index still divides
    _raises(NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'",
            lambda: ember.scatter_reduce(b, 0, L([], dtype=ember.int64), b[:0], "mean"))
    c = ember.zeros((), dtype=ember.complex64)
    src = ember.zeros(3, dtype=ember.complex64)
    _raises(NotImplementedError,
            "\"scatter_gather_tensor_cpu_reduce_amax\" not implemented for 'ComplexFloat'",
            lambda: ember.scatter_reduce(c, 0, L([-2, -1]), src, "max"))
    # include_self=False scatters the identity first, which checks the index values
    _raises(RuntimeError, "index -2 is out of bounds for dimension 0 with size 1",
            lambda: ember.scatter_reduce(c, 0, L([-2, -1]), src, "max", include_self=False))
    assert ember.zeros(1, 4, dtype=ember.complex64).scatter_reduce_(
        0, ember.zeros(0, 4, dtype=ember.int64), src[:0].reshape(0, 4), "amin").shape == (1, 4)


def test_scatter_reduce_old_names_have_no_derivative():
    x = ember.arange(3.).reshape(1, 3).requires_grad_()
    r = ember.scatter_reduce(x, 1, L([[1, 2, 2]]), x.detach().clone(), "max",
                             include_self=False)
    assert r.tolist() == [[0., 0., 2.]]
    _raises(RuntimeError, "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                          "'amin' but got max.", lambda: r.sum().backward())


def test_the_in_place_legacy_reduce_names_scatter_():
    x = ember.ones(2, requires_grad=True)
    y = x.clone()
    y.scatter_(0, L([1]), 2.5, reduce="add")
    _raises(RuntimeError, "derivative for aten::scatter_ is not implemented",
            lambda: y.sum().backward())
    z = x.scatter(0, L([1]), 2.5, reduce="add")
    _raises(RuntimeError, "derivative for aten::scatter is not implemented",
            lambda: z.sum().backward())


def test_take_along_dim_takes_indices_modulo_the_size():
    a = ember.arange(6).reshape(2, 3)
    assert ember.take_along_dim(a, L([[3], [4]]), dim=1).tolist() == [[0], [4]]
    assert ember.take_along_dim(a, L([[-1], [-4]]), dim=1).tolist() == [[2], [5]]
    assert ember.take_along_dim(a, L([[-7], [5]]), dim=-1).tolist() == [[2], [5]]
    _raises(RuntimeError, "ZeroDivisionError",
            lambda: ember.take_along_dim(ember.zeros(2, 0), L([[0]]), dim=1))
    assert ember.take_along_dim(ember.zeros(2, 0), L([[]]).long(), dim=1).shape == (2, 0)
    x = ember.arange(6.).reshape(2, 3).requires_grad_()
    r = ember.take_along_dim(x, L([[-1, 4], [0, 0]]), dim=1)
    r.sum().backward()
    assert r.tolist() == [[2., 1.], [3., 3.]]
    assert x.grad.tolist() == [[0., 1., 1.], [2., 0., 0.]]


def test_take_along_dim_without_a_dim_is_gather_of_the_flat_views():
    a = ember.arange(6).reshape(2, 3)
    # int32 indices are fine, negative ones are not wrapped, floats are gather's error
    assert ember.take_along_dim(a, L([1], dtype=ember.int32)).tolist() == [1]
    _raises(RuntimeError, "index -1 is out of bounds for dimension 0 with size 6",
            lambda: ember.take_along_dim(a, L([5, -1])))
    _raises(RuntimeError, "gather(): Expected dtype int32/int64 for index",
            lambda: ember.take_along_dim(a, L([[1.]])))
    with pytest.raises(RuntimeError, match="^view size is not compatible"):
        ember.take_along_dim(a.t(), L([0]))
    # with a dim: the ranks first, then the dtype (Long only); a 0-dim input has no dim
    _raises(RuntimeError, "torch.take_along_dim(): input and indices should have the same "
                          "number of dimensions, but got 2 dimensions for input, and 1 "
                          "dimensions for indices",
            lambda: ember.take_along_dim(a, L([0], dtype=ember.int32), dim=3))
    _raises(IndexError, "Dimension specified as 0 but tensor has no dimensions",
            lambda: ember.take_along_dim(L(5.), L(0), dim=-1))


def test_index_add_checks_in_torchs_order():
    # the dim, then the index's rank, then its dtype
    _raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 3)",
            lambda: ember.zeros(3, 3).index_add(3, L([0., 1.]), ember.ones(2, 3)))
    _raises(IndexError, "index_add_(): Index is supposed to be a vector, but got dim: 2 with "
                        "type: Float and size: [0, 1]",
            lambda: ember.zeros(2).index_add(-1, ember.zeros(0, 1), ember.zeros(0).bool()))
    # a 0-dim source takes one index: torch's message reads its size
    _raises(IndexError, "Dimension specified as 0 but tensor has no dimensions",
            lambda: ember.zeros(2).index_add(0, L([1, 0]), L(2.)))


@pytest.mark.parametrize("shape,dim,src,dtype,alpha,named", [
    ((3,), 0, (2,), ember.int64, 1, False),
    ((3, 2), 0, (2, 2), ember.int64, 1, True),
    ((3, 2), 1, (3, 2), ember.int64, 1, True),
    ((2, 3, 2), 1, (2, 2, 2), ember.int64, 1, False),
    ((2, 3, 2), 2, (2, 3, 2), ember.int64, 1, True),
    ((3, 2), 0, (2, 2), ember.int32, 1, False),
    ((3, 2), 0, (2, 2), ember.int64, 2, False)])
def test_index_add_out_of_range_by_its_kernel(shape, dim, src, dtype, alpha, named):
    # torch scatter_adds a long index along the first or last dim when alpha is 1 (naming the
    # index); otherwise its loop says "index out of range in self"
    x = ember.zeros(shape)
    index = L([0, 7], dtype=dtype)
    if named:
        _raises(RuntimeError, f"index 7 is out of bounds for dimension {dim} with size "
                              f"{shape[dim]}", lambda: x.index_add(dim, index, ember.ones(src),
                                                                  alpha=alpha))
    else:
        _raises(IndexError, "index out of range in self",
                lambda: x.index_add(dim, index, ember.ones(src), alpha=alpha))


def test_index_add_and_copy_of_an_empty_self():
    assert ember.zeros(0, 4).index_add(0, L([0, 0]), ember.ones(2, 4)).shape == (0, 4)
    _raises(IndexError, "index out of range in self",
            lambda: ember.zeros(0).index_add(0, L([0, 0]), ember.ones(2)))
    _raises(RuntimeError, "setStorage: sizes [2, 4], strides [0, 1], storage offset 0, and "
                          "itemsize 4 requiring a storage size of 16 are out of bounds for "
                          "storage of size 0",
            lambda: ember.zeros(0, 4).index_copy(0, L([0, 0]), ember.ones(2, 4)))
    _raises(RuntimeError, "setStorage: sizes [2, 4], strides [0, 1], storage offset 0, and "
                          "itemsize 4 requiring a storage size of 16 are out of bounds for "
                          "storage of size 0",
            lambda: ember.zeros(0, 4).index_fill(0, L([0, 0]), 1.))
    assert ember.zeros(0, 3).index_copy(1, L([1, -4]), ember.zeros(0, 2)).shape == (0, 3)
    assert ember.zeros(2, 0, 4).index_fill_(2, L([6]), True).shape == (2, 0, 4)


def test_index_reduce_checks_and_bounds():
    x = ember.zeros(3)
    # the old name of the in-place form, whichever is called
    _raises(RuntimeError, "index_reduce_(): self (Float) and source (Half) must have the same "
                          "scalar type",
            lambda: ember.zeros(3, 2, 2).index_reduce(1, L([], dtype=ember.int64),
                                                      ember.zeros(3, 0, 2).half(), "amax"))
    _raises(RuntimeError, "index_reduce(): Expected reduce to be one of prod, mean, amax or "
                          "amin but got sum.",
            lambda: ember.zeros(2, 3).index_reduce_(-3, L([[0]]), ember.zeros(1, 3), "sum"))
    # without self the slices are first filled (negative indices in range pass that)
    for bad, include_self, message in ((5, True, "index out of range in self"),
                                       (-1, False, "index out of range in self"),
                                       (5, False, "index 5 is out of bounds for dimension 0 "
                                                  "with size 3"),
                                       (-5, False, "index -5 is out of bounds for dimension 0 "
                                                   "with size 3")):
        _raises(IndexError, message, lambda: x.index_reduce(
            0, L([0, bad]), ember.ones(2), "amax", include_self=include_self))
    assert ember.tensor(2.).index_reduce(0, L([0]), L(1.), "amax",
                                         include_self=False).tolist() == 1.


def test_index_reduce_kernels_torch_lacks():
    _raises(NotImplementedError, "\"index_func_\" not implemented for 'Bool'",
            lambda: ember.zeros(3).bool().index_reduce(0, L([0]), ember.ones(1).bool(), "amax"))
    _raises(NotImplementedError,
            "\"index_reduce_func_exclude_input_init\" not implemented for 'Bool'",
            lambda: ember.zeros(3).bool().index_reduce(0, L([0]), ember.ones(1).bool(), "amax",
                                                       include_self=False))
    # more dims take bools (but no bool mean) and complex numbers (but no amax / amin)
    r = ember.zeros(2, 4).bool().index_reduce(-1, L(3), ember.ones(2, 1).bool(), "amax")
    assert r.tolist() == [[False, False, False, True]] * 2
    _raises(NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'",
            lambda: ember.zeros(3, 4).bool().index_reduce(0, L([1, 0]),
                                                          ember.ones(2, 4).bool(), "mean"))
    _raises(NotImplementedError, "\"minimum_cpu\" not implemented for 'ComplexFloat'",
            lambda: ember.zeros(1, 1).cfloat().index_reduce(-2, L([0, 0]),
                                                            ember.ones(2, 1).cfloat(), "amin"))


def test_index_copy_checks_in_torchs_order():
    _raises(IndexError, "index_copy_(): When source is scalar, index should have one element "
                        "(got 2)", lambda: L(1).index_copy(0, L([0., 0.]), L(1)))
    _raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
            lambda: ember.zeros(1, 1).index_copy(2, L([0.]), ember.ones(1, 1)))
    # the slices, named whole, before the number of indices
    _raises(RuntimeError, "index_copy_(): Source/destination tensor must have same slice "
                          "shapes. Destination slice shape: 2 3 at dimension 1 and source "
                          "slice shape: 3 2 at dimension 0.",
            lambda: ember.zeros(2, 3, 3).index_copy(1, L([], dtype=ember.int64),
                                                    ember.zeros(3, 0, 2)))
    _raises(RuntimeError, "index_copy_(): Source/destination tensor must have same slice "
                          "shapes. Destination slice shape: 2 at dimension 0 and source slice "
                          "shape:  at dimension 0.",
            lambda: ember.zeros(3, 2).index_copy(0, L([0]), L(1.)))


def test_index_fill_checks_in_torchs_order():
    _raises(RuntimeError, "index_fill_ only supports a 0-dimensional value tensor, but got "
                          "tensor with 1 dimension(s).",
            lambda: ember.zeros(3).index_fill(0, L([0.]), L([3.])))
    for value in (1j, 0j, L(1j)):
        _raises(RuntimeError, "index_fill_(): Converting complex Scalar to non-complex type "
                              "is not supported",
                lambda: ember.zeros(2).index_fill(0, L([], dtype=ember.int64), value))
    assert ember.zeros(2).cfloat().index_fill(0, L([1]), 1j).tolist() == [0j, 1j]
    # out of place it fills a clone, which keeps a transposed layout
    x = ember.arange(12, dtype=ember.int32).reshape(3, 4).t()
    r = x.index_fill(0, L([3]), -1)
    assert r.stride() == (1, 4)
    assert r.tolist() == [[0, 4, 8], [1, 5, 9], [2, 6, 10], [-1, -1, -1]]


def test_index_select_checks_in_torchs_order():
    _raises(IndexError, "index_select(): Index is supposed to be a vector",
            lambda: ember.index_select(ember.zeros(3, 1), 0, L([[0., 1.]])))
    _raises(RuntimeError, "index_select(): Index to scalar can have only 1 value, got 2 "
                          "value(s)", lambda: ember.index_select(L(1.), 0, L([0., 0.])))


def test_nonzero_is_the_transpose_of_one_row_per_dim():
    x = ember.arange(6).reshape(3, 2).t()
    for fn in (ember.nonzero, ember.argwhere):
        r = fn(x)
        assert r.stride() == (1, 5)
        assert r.tolist() == [[0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert ember.nonzero(ember.zeros(1, 1)).stride() == (1, 0)
    assert ember.nonzero(L(3.)).shape == (1, 0)


def test_masked_scatter_checks_the_mask_dtype_last():
    _raises(RuntimeError, "masked_scatter: expected self and source to have same dtypes but "
                          "gotBool and Float",
            lambda: ember.zeros(4).bool().masked_scatter(L([1]), ember.zeros(9)))
    x = ember.arange(4, dtype=ember.int32).reshape(2, 2)
    with pytest.raises(RuntimeError, match=r"^The expanded size of the tensor \(2\) must match"):
        x.masked_scatter_(ember.ones(2, 3), ember.zeros(1, dtype=ember.int32))


def test_masked_fill_checks_in_torchs_order():
    _raises(RuntimeError, "masked_fill_ only supports a 0-dimensional value tensor, but got "
                          "tensor with 1 dimension(s).",
            lambda: ember.zeros(3).masked_fill(L([0.]), L([3.])))
    _raises(RuntimeError, "output with shape [4] doesn't match the broadcast shape [2, 4]",
            lambda: ember.zeros(4).long().masked_fill_(ember.zeros(2, 4).bool(),
                                                       float("nan")))


def test_take_and_put_of_an_empty_tensor():
    _raises(IndexError, "take(): tried to take from an empty tensor",
            lambda: ember.take(ember.zeros(0, 2), L([[0, 0]])))
    assert ember.take(ember.zeros(0, 2), L([], dtype=ember.int64)).shape == (0,)
    _raises(IndexError, "put_(): Tried to put elements into an empty tensor",
            lambda: ember.zeros(2, 0).put_(L([0, 0, 0]), ember.arange(3.)))
    # put fills a clone, which keeps a transposed layout
    r = ember.put(ember.arange(9.).reshape(3, 3).t(), L(6), L(0.))
    assert r.stride() == (1, 3) and r[2].tolist() == [0., 5., 8.]


def test_slice_scatter_of_a_0_dim_tensor():
    for dim in (0, 1):
        _raises(IndexError, "slice() cannot be applied to a 0-dim tensor.",
                lambda: ember.slice_scatter(L(1.), L(2.), dim, 0, 1, 1))


def test_index_put_checks_its_indices_in_torchs_order():
    _raises(IndexError, "too many indices for tensor of dimension 0 (got 1)",
            lambda: L(1.).index_put((L([True]),), ember.ones(3)))
    _raises(IndexError, "The shape of the mask [2, 1] at index 1 does not match the shape of "
                        "the indexed tensor [2, 2] at index 1",
            lambda: ember.zeros(2, 2).index_put((L([[0], [1]], dtype=ember.uint8),
                                                 L([-2, -2])), ember.ones(2, 1)))
    # a mask past the last dim, each of its dims in turn
    _raises(IndexError, "The shape of the mask [1, 2] at index 0 does not match the shape of "
                        "the indexed tensor [3, 1, 1, 2] at index 3",
            lambda: ember.zeros(3, 1, 1, 2).index_put(
                (L([], dtype=ember.int64), L([[False]]), L([[True, True]])), L(1.)))
    _raises(IndexError, "shape mismatch: indexing tensors could not be broadcast together with "
                        "shapes [9], [9], [3], [3]",
            lambda: ember.zeros(3, 3, 3).index_put(
                (ember.ones(3, 3).bool(), L([2, -2, -2]), L([-2, -1, 0])), ember.ones(2, 1),
                accumulate=True))
    _raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
            lambda: ember.zeros(4, 4).index_put_((ember.ones(4, 4).bool(), L(-4)),
                                                 ember.ones(2, 3)))


def test_index_put_checks_the_value_strictly_then_the_index_values():
    _raises(RuntimeError, "shape mismatch: value tensor of shape [1, 3] cannot be broadcast to "
                          "indexing result of shape [3]",
            lambda: ember.zeros(4).index_put_((L([2, -3, -1]),), ember.ones(1, 3)))
    _raises(RuntimeError, "Index put requires the source and destination dtypes match, got "
                          "Int for the destination and Long for the source.",
            lambda: ember.zeros(3, dtype=ember.int32).index_put((L([3, -1, -1]),), L(0),
                                                                accumulate=True))
    _raises(IndexError, "index 9 is out of bounds for dimension 0 with size 4",
            lambda: ember.zeros(4).index_put((L([2, 9]),), ember.ones(2)))
    # a 0-dim integer index is an advanced one (the indexed shape drops its dim)
    _raises(RuntimeError, "shape mismatch: value tensor of shape [2, 3] cannot be broadcast to "
                          "indexing result of shape [3]",
            lambda: ember.zeros(2, 3).index_put((L(-2),), ember.ones(2, 3).short()))
    _raises(RuntimeError, "shape mismatch: value tensor of shape [3] cannot be broadcast to "
                          "indexing result of shape [1]",
            lambda: ember.zeros(2, 3, dtype=ember.int64).index_put(
                (L(-4, dtype=ember.int32), L([True, False, False])), ember.ones(3)))


def test_index_put_out_of_place_keeps_a_transposed_layout():
    a = ember.arange(12.).reshape(3, 4).t()
    r = a.index_put((L([[-3], [0]], dtype=ember.int32), L([True, True, False])),
                    ember.full((2,), 9.))
    assert r.stride() == (1, 4)
    assert r.tolist() == [[9., 9., 8.], [9., 9., 9.], [2., 6., 10.], [3., 7., 11.]]


def test_masked_scatter_names_the_mask_type_as_cpp_does():
    x = ember.zeros(0, dtype=ember.int32)
    for mask, name in ((ember.zeros(2, 0), "torch.FloatTensor"),
                       (ember.zeros(2, 0).bool(), "CPUBoolType")):
        _raises(RuntimeError, f"expand({name}{{[2, 0]}}, size=[0]): the number of sizes "
                              f"provided (1) must be greater or equal to the number of "
                              f"dimensions in the tensor (2)",
                lambda: x.masked_scatter_(mask, ember.zeros(0, dtype=ember.int32)))


def test_out_takes_the_results_own_dtype():
    x = ember.arange(4.)
    _raises(RuntimeError, "take(): self and out expected to have the same dtype, but got "
                          "self.dtype = Float and out.dtype = Double",
            lambda: ember.take(x, L([0, 1]), out=ember.zeros(2, dtype=ember.float64)))
    # (before the index values)
    _raises(RuntimeError, "index_select(): self and result must have the same scalar type",
            lambda: ember.index_select(x, 0, L([0, 9]), out=ember.zeros(2, dtype=ember.uint8)))
    _raises(RuntimeError, "masked_select(): self and result must have the same scalar type",
            lambda: ember.masked_select(x, x > 1, out=ember.zeros(2, dtype=ember.bool)))
    y = ember.arange(6).reshape(2, 3)
    _raises(RuntimeError, "Expected out tensor to have dtype long int, but got c10::Half "
                          "instead",
            lambda: ember.gather(y, 1, L([[0], [1]]), out=ember.zeros(2, 1).half()))
    # (before the index's rank)
    _raises(RuntimeError, "Expected out tensor to have dtype float, but got long int instead",
            lambda: ember.gather(y.float(), 1, L([0, 1]), out=ember.zeros(2, dtype=ember.int64)))


def test_nonzero_out_is_long_and_resized_to_torchs_layout():
    _raises(RuntimeError, "nonzero: Expected out tensor to have scalar type Long but got "
                          "scalar typeFloat",
            lambda: ember.nonzero(ember.arange(4.), out=ember.zeros(2)))
    y = ember.arange(6).reshape(2, 3)
    o = ember.zeros(0, dtype=ember.int64)
    assert ember.nonzero(y, out=o) is o
    assert o.stride() == (1, 5) and o.tolist() == [[0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    # an out of the right shape keeps its own layout
    o = ember.zeros(5, 2, dtype=ember.int64)
    ember.nonzero(y, out=o)
    assert o.stride() == (2, 1) and o.tolist() == [[0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]


def test_index_reduce_into_a_dim_of_size_0_selects_its_first_slice():
    _raises(IndexError, "select(): index 0 out of range for tensor of size [2, 0, 3] at "
                        "dimension 1",
            lambda: ember.zeros(2, 0, 3).index_reduce(1, L([1, 0]), ember.ones(2, 2, 3), "mean"))
    _raises(IndexError, "index out of range in self",
            lambda: ember.zeros(0).index_reduce(0, L([0, 0]), ember.ones(2), "mean"))


def test_the_index_out_of_range_named_is_the_first_torchs_loop_meets():
    # along a dim that is not the last: each step along it over a run of the other dims
    x = ember.arange(48.).reshape(4, 4, 3)
    i = L([2, 0, 3, 3, 2, 0, 1, -2, 1, 2, 2, 1, 2, 2, 2, 1,
           -3, 1, 1, 1, 0, 2, 2, 3, 3, -3, 0, 1, 2, 0, 0, 3]).reshape(4, 4, 2)
    # (x's rows of 3 and the index's of 2 make runs of 2: -3 at [2, 0, 0] comes before -2
    # at [0, 3, 1])
    _raises(RuntimeError, "index -3 is out of bounds for dimension 0 with size 4",
            lambda: ember.gather(x, 0, i))
    y = ember.arange(48, dtype=ember.int32).reshape(4, 4, 3).transpose(0, 1)
    j = L([2, 1, -1, 1, 1, 1, 3, 3, -4, 2, 0, 0, 0, 1, 3, 0]).reshape(4, 4, 1)
    _raises(RuntimeError, "index -4 is out of bounds for dimension 1 with size 4",
            lambda: y.scatter_add_(1, j, ember.ones(4, 4, 1, dtype=ember.int32)))
    # along the last dim: the dim inside each element, in the flat order
    _raises(RuntimeError, "index 5 is out of bounds for dimension 1 with size 4",
            lambda: ember.gather(ember.zeros(3, 4), 1, L([[0, 5, 0, 0], [-1, 0, 0, 0]])))


def test_a_0_dim_src_is_named_by_its_shape():
    _raises(RuntimeError, "Expected index [5] to be no larger than self [4] apart from "
                          "dimension 0 and to be no larger size than src []",
            lambda: ember.arange(4.).scatter(0, L([0, 3, 2, 2, 0]), L(3.), reduce="multiply"))


def test_index_add_with_alpha_adds_each_slice_in_one_rounding():
    # torch adds a tensor of more than one dim slice by slice, `add_(slice, alpha=)`: one fused
    # multiply-add per element, in index order (a slice picked twice: twice, in turn)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 70)).astype(np.float32)
    s = rng.standard_normal((3, 70)).astype(np.float32)
    alpha = np.float32(0.37)
    want = x.copy()
    for row, i in enumerate([4, 0, 4]):
        want[i] = (s[row].astype(np.float64) * alpha + want[i]).astype(np.float32)
    got = ember.tensor(x).index_add(0, L([4, 0, 4]), ember.tensor(s), alpha=0.37)
    np.testing.assert_array_equal(got.numpy(), want)
    got = ember.tensor(x.T.copy()).index_add(1, L([4, 0, 4]), ember.tensor(s.T.copy()),
                                             alpha=0.37)
    np.testing.assert_array_equal(got.numpy(), want.T)
    # (the product rounded first gives other values: the test tells them apart)
    assert (x[0] + alpha * s[1] != want[0]).any()


def test_index_add_with_alpha_of_a_vector_rounds_the_product_first():
    # (a 1-d tensor takes torch's scalar loop: `self[i] += source[j] * alpha`)
    rng = np.random.default_rng(6)
    x = rng.standard_normal(400).astype(np.float32)
    s = rng.standard_normal(400).astype(np.float32)
    got = ember.tensor(x).index_add(0, ember.arange(400), ember.tensor(s), alpha=0.37)
    np.testing.assert_array_equal(got.numpy(), x + s * np.float32(0.37))
