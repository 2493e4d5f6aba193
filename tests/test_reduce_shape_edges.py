"""Edges of the reductions and shape/joining operators found by the reduce/shape oracle sweep
(tests/oracle/test_snippets_reduce_shape_oracle.py), checked here without torch: values worked
out by hand and torch's texts as read off torch 2.13."""
import re

import numpy as np
import pytest

import ember


def _raises(exc, text, fn, *args, **kwargs):
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        fn(*args, **kwargs)


X = ember.arange(24.).reshape(2, 3, 4)
M = ember.tensor([[1., 0.], [2., 3.]])


# -- all / any over an empty dim list: each element's truth, nothing reduced ------------------

def test_all_any_over_no_dims_reduce_nothing():
    for fn in (ember.all, ember.any):
        for dims in ((), []):
            r = fn(M, dims)
            assert r.dtype is ember.bool and r.shape == (2, 2)
            assert r.tolist() == [[True, False], [True, True]]
    u = ember.tensor([[1, 0, 7]], dtype=ember.uint8).any(())
    assert u.dtype is ember.uint8 and u.tolist() == [[1, 0, 1]]
    assert ember.tensor(float("nan")).all(()).item() is True
    assert M.sum(()).item() == 6.0         # while sum's empty list reduces every dim


# -- topk, split, chunk, roll of 0-dim tensors --------------------------------------------------

def test_topk_zero_of_a_0dim_tensor_is_its_element():
    values, indices = ember.tensor(3.).topk(0)
    assert values.shape == () and values.item() == 3.0 and indices.item() == 0
    _raises(RuntimeError, "selected index k out of range", ember.tensor(3.).topk, 2)


@pytest.mark.parametrize("call,text", [
    (lambda t: t.split(1), "split expects at least a 1-dimensional tensor"),
    (lambda t: t.split([1]), "split expects at least a 1-dimensional tensor"),
    (lambda t: t.chunk(2), "chunk expects at least a 1-dimensional tensor"),
])
def test_split_and_chunk_refuse_0dim(call, text):
    _raises(RuntimeError, text, call, ember.tensor(1))


def test_chunk_out_of_range_dim_is_still_an_index_error():
    _raises(IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
            X.chunk, 2, 3)


def test_split_sizes_must_not_be_negative_even_when_they_add_up():
    x = ember.arange(10)
    for sizes in ([2, -1, 9], [2, -1]):
        _raises(RuntimeError, "split_with_sizes expects split_sizes have only non-negative "
                f"entries, but got split_sizes={sizes}".replace("'", ""), x.split, sizes)
    _raises(RuntimeError, "split_with_sizes expects split_sizes to sum exactly to 10 (input "
            "tensor's size at dimension 0), but got split_sizes=[]", x.split, [])
    assert [t.tolist() for t in x.split([3, 0, 7])][:2] == [[0, 1, 2], []]


def test_roll_of_0dim_with_dims_has_no_dimension():
    s = ember.tensor(3)
    assert s.roll(1).item() == 3
    _raises(IndexError, "Dimension specified as 0 but tensor has no dimensions", s.roll, 1, 0)
    _raises(IndexError, "Dimension specified as -1 but tensor has no dimensions", s.roll, 1, -1)


# -- cat's other names, broadcast_to's sizes, expand's negative sizes -------------------------

def test_concatenate_takes_dim_and_axis_and_names_itself():
    a = ember.ones(2, 2)
    assert ember.concatenate([a, a], dim=1).shape == (2, 4)
    assert ember.concatenate([a, a], axis=0).shape == (4, 2)
    assert ember.concat([a, a], 1).shape == (2, 4)
    _raises(TypeError, "concatenate(): argument 'tensors' (position 1) must be tuple of Tensors, "
            "not Tensor", ember.concatenate, a)


def test_tensor_broadcast_to_takes_sizes_one_by_one():
    x = ember.tensor([1., 2.])
    assert x.broadcast_to(3, 2).shape == (3, 2)
    assert x.broadcast_to((3, 2)).stride() == (0, 1)
    assert x.broadcast_to(size=(2, 2)).shape == (2, 2)


@pytest.mark.parametrize("shape,sizes", [((2, 1), (2, -2)), ((1,), (-5,)), ((2,), (-3, 2))])
def test_expand_to_a_size_below_minus_one_overflows_counting(shape, sizes):
    _raises(RuntimeError, "numel: integer multiplication overflow",
            ember.ones(*shape).expand, *sizes)


def test_expand_reports_a_mismatch_before_a_negative_size():
    _raises(RuntimeError, "The expanded size of the tensor (0) must match the existing size (2) "
            "at non-singleton dimension 0.  Target sizes: [0, -5].  Tensor sizes: [2, 1]",
            ember.ones(2, 1).expand, 0, -5)


# -- norm, tensordot ------------------------------------------------------------------------------

def test_frobenius_norm_over_more_than_two_dims_is_a_matrix_norm_error():
    _raises(RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 -1",
            X.norm, dim=[0, 1, -1])
    _raises(RuntimeError, "linalg.matrix_norm: Expected a floating point or complex tensor as "
            "input. Got Long", ember.ones(2, 3, dtype=ember.int64).norm, dim=(0, 1, 2))
    ones = ember.ones(2, 3, 4)
    assert ones.norm(p=2, dim=(0, 1, 2)).item() == pytest.approx(np.sqrt(24))
    assert ones.norm(p=1, dim=(0, 1, 2)).item() == 24.0


def test_tensordot_checks_dims_then_dtypes():
    a = ember.ones(2, 3)
    for b, dims in ((ember.ones(2, 3), 3), (ember.ones(3), 2)):
        _raises(RuntimeError, f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}",
                ember.tensordot, a, b, dims)
    _raises(RuntimeError, "both inputs should have same dtype",
            ember.tensordot, a.long(), ember.ones(2, 3), 1)
    assert ember.tensordot(a, ember.ones(3), ([1], [0])).tolist() == [3.0, 3.0]


# -- atleast_nd of a non-tensor -------------------------------------------------------------------

def test_atleast_of_a_number_lists_both_signatures():
    why = "      didn't match because some of the arguments have invalid types: (!int!)"
    _raises(TypeError, "atleast_1d() received an invalid combination of arguments - got (int), "
            f"but expected one of:\n * (Tensor input)\n{why}\n * (tuple of Tensors tensors)\n"
            f"{why}\n", ember.atleast_1d, 1)
    _raises(TypeError, "expected Tensor as element 1 in argument 0, but got int",
            ember.atleast_1d, ember.ones(1), 2)


# -- torch's argument-parser texts for reductions, sorting and squeeze --------------------------

@pytest.mark.parametrize("call,text", [
    (lambda: X.amax(1.0), "amax(): argument 'dim' (position 1) must be tuple of ints, not float"),
    (lambda: X.median((0, 1)), "median(): argument 'dim' (position 1) must be int, not tuple"),
    (lambda: X.unsqueeze(1.0), "unsqueeze(): argument 'dim' (position 1) must be int, not float"),
    (lambda: X.mode(1.5), "mode(): argument 'dim' (position 1) must be int, not float"),
    (lambda: X.kthvalue(1, 1.5), "kthvalue(): argument 'dim' (position 2) must be int, not float"),
    (lambda: ember.cummax(X, 1.5), "cummax(): argument 'dim' (position 2) must be int, not float"),
    (lambda: ember.cat([X, X], 1.5), "cat(): argument 'dim' (position 2) must be int, not float"),
    (lambda: ember.cat([X, X], dim="x"), "cat(): argument 'dim' must be int, not str"),
    (lambda: ember.stack([X, X], "a"), "stack(): argument 'dim' (position 2) must be int, not str"),
])
def test_one_signature_errors_name_the_argument(call, text):
    _raises(TypeError, text, call)


def test_invalid_combination_explains_signatures_with_as_many_parts_as_arguments():
    # torch splits each listed signature at ", ": "()" counts as one part, "*" as one
    _raises(TypeError, "squeeze() received an invalid combination of arguments - got (float), "
            "but expected one of:\n"
            " * ()\n      didn't match because some of the arguments have invalid types: "
            "(!float!)\n"
            " * (int dim)\n      didn't match because some of the arguments have invalid types: "
            "(!float!)\n"
            " * (tuple of ints dim)\n      didn't match because some of the arguments have "
            "invalid types: (!float!)\n", X.squeeze, 1.0)
    _raises(TypeError, "std_mean() received an invalid combination of arguments - got (Tensor, "
            "float), but expected one of:\n"
            " * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
            " * (Tensor input, tuple of ints dim = None, *, Number correction = None, "
            "bool keepdim = False)\n"
            " * (Tensor input, bool unbiased = True)\n"
            "      didn't match because some of the arguments have invalid types: "
            "(Tensor, !float!)\n", ember.std_mean, X, 1.5)
    _raises(TypeError, "count_nonzero() received an invalid combination of arguments - got "
            "(float), but expected one of:\n"
            " * (int dim = None)\n      didn't match because some of the arguments have invalid "
            "types: (!float!)\n"
            " * (tuple of ints dim)\n      didn't match because some of the arguments have "
            "invalid types: (!float!)\n", X.count_nonzero, 1.5)
    _raises(TypeError, "sort() received an invalid combination of arguments - got (float), but "
            "expected one of:\n"
            " * (*, bool stable, int dim = -1, bool descending = False)\n"
            " * (int dim = -1, bool descending = False)\n", X.sort, 1.0)


def test_std_with_both_unbiased_and_correction_lists_the_signatures():
    _raises(TypeError, "std() received an invalid combination of arguments - got (correction="
            "int, unbiased=bool, ), but expected one of:\n"
            " * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
            " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
            " * (bool unbiased = True)\n", ember.tensor([1., 2.]).std, unbiased=False,
            correction=1)


def test_quantile_of_a_list_of_qs_lists_the_signatures():
    sig = ('q, int dim = None, bool keepdim = False, *, str interpolation = "linear", '
           'Tensor out = None)')
    _raises(TypeError, "quantile() received an invalid combination of arguments - got (Tensor, "
            f"list), but expected one of:\n * (Tensor input, Tensor {sig}\n"
            f" * (Tensor input, float {sig}\n", ember.quantile, ember.ones(3), [0.2, 0.4])
    assert ember.quantile(ember.tensor([1., 2., 3., 4.]), 0.5).item() == 2.5
    assert ember.sort(X, stable=None).values.shape == X.shape


# -- bool arguments: torch's parser takes no int for keepdim, unbiased, descending, ... ---------

Y = ember.tensor([[1., 5., 3.], [4., 2., 6.]])


@pytest.mark.parametrize("call,text", [
    (lambda: Y.amin(1, 1), "amin(): argument 'keepdim' (position 2) must be bool, not int"),
    (lambda: Y.amax(1, keepdim=0), "amax(): argument 'keepdim' must be bool, not int"),
    (lambda: Y.argmax(1, 1), "argmax(): argument 'keepdim' (position 2) must be bool, not int"),
    (lambda: Y.median(1, 1), "median(): argument 'keepdim' (position 2) must be bool, not int"),
    (lambda: Y.nanmedian(1, np.bool_(True)),
     "nanmedian(): argument 'keepdim' (position 2) must be bool, not numpy.bool"),
    (lambda: Y.mode(1, 1), "mode(): argument 'keepdim' (position 2) must be bool, not int"),
    (lambda: Y.kthvalue(1, 1, 1),
     "kthvalue(): argument 'keepdim' (position 3) must be bool, not int"),
    (lambda: Y.logsumexp(1, 1),
     "logsumexp(): argument 'keepdim' (position 2) must be bool, not int"),
    (lambda: Y.nansum(1, 1), "nansum(): argument 'keepdim' (position 2) must be bool, not int"),
    (lambda: Y.nanmean(1, 1), "nanmean(): argument 'keepdim' (position 2) must be bool, not int"),
    (lambda: Y.aminmax(dim=1, keepdim=1), "aminmax(): argument 'keepdim' must be bool, not int"),
    (lambda: Y.topk(1, 1, 1), "topk(): argument 'largest' (position 3) must be bool, not int"),
    (lambda: Y.topk(1, 1, True, 1),
     "topk(): argument 'sorted' (position 4) must be bool, not int"),
    (lambda: Y.norm(2, 1, 1),
     "linalg_vector_norm(): argument 'keepdim' (position 4) must be bool, not int"),
])
def test_an_int_is_no_bool(call, text):
    _raises(TypeError, text, call)


STD_SIGS = (" * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n{}"
            " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
            " * (bool unbiased = True)\n")


def test_std_var_with_an_int_as_unbiased_or_keepdim_list_their_signatures():
    head = "{}() received an invalid combination of arguments - got {}, but expected one of:\n"
    _raises(TypeError, head.format("std", "(int, int)") + STD_SIGS.format(""), Y.std, 1, 1)
    _raises(TypeError, head.format("var", "(int, bool, int)") + STD_SIGS.format(
        "      didn't match because some of the arguments have invalid types: "
        "(!int!, !bool!, !int!)\n"), Y.var, 1, True, 1)
    # keywords come newest first (torch's unordered_map); a part with a default has the
    # default for its name, so no keyword matches it
    _raises(TypeError, head.format("var", "(int, keepdim=int, correction=int)") +
            STD_SIGS.format("      didn't match because some of the keywords were incorrect: "
                            "keepdim, correction\n"), Y.var, 1, correction=1, keepdim=1)


def test_all_with_an_int_keepdim_explains_per_part():
    _raises(TypeError, "all() received an invalid combination of arguments - got (int, int), "
            "but expected one of:\n * ()\n * (tuple of ints dim = None, bool keepdim = False)\n"
            "      didn't match because some of the arguments have invalid types: "
            "(!int!, !int!)\n * (int dim, bool keepdim = False)\n"
            "      didn't match because some of the arguments have invalid types: "
            "(int, !int!)\n", Y.all, 1, 1)


def test_sort_with_an_int_descending():
    _raises(TypeError, "argsort() received an invalid combination of arguments - got (int, int), "
            "but expected one of:\n * (*, bool stable, int dim = -1, bool descending = False)\n"
            " * (int dim = -1, bool descending = False)\n      didn't match because some of "
            "the arguments have invalid types: (!int!, !int!)\n", Y.argsort, 1, 1)


def test_amax_takes_a_numpy_int_dim():
    assert Y.amax(np.int64(1)).tolist() == [5.0, 6.0]
    assert Y.amin([np.int64(0)]).tolist() == [1.0, 2.0, 3.0]


def test_count_nonzero_takes_dims_one_by_one():
    z = ember.tensor([[0, 1, 2], [0, 0, 3]])
    assert z.count_nonzero(0, 1).item() == 3
    _raises(RuntimeError, "dim 1 appears multiple times in the list of dims",
            z.count_nonzero, 1, 1)


# -- flip's dims that are no tuple of ints ------------------------------------------------------

F = ember.arange(6).reshape(2, 3)


@pytest.mark.parametrize("call,text", [
    (lambda: F.flip(1.0), "flip(): argument 'dims' (position 1) must be tuple of ints, not float"),
    (lambda: F.flip(None),
     "flip(): argument 'dims' (position 1) must be tuple of ints, not NoneType"),
    (lambda: ember.flip(F, "a"),
     "flip(): argument 'dims' (position 2) must be tuple of ints, not str"),
    (lambda: F.flip([1.0]), "flip(): argument 'dims' (position 1) must be tuple of ints, but "
     "found element of type float at pos 0"),
    (lambda: ember.flip(F, (0, 1.0)), "flip(): argument 'dims' failed to unpack the object at "
     "pos 2 with error \"type must be tuple of ints,but got float\""),      # (torch 2.13's text)
    (lambda: F.flip(0, 1.0), "flip(): argument 'dims' failed to unpack the object at pos 2 with "
     "error \"type must be tuple of ints,but got float\""),
    (lambda: F.flip(dims=1.0), "flip(): argument 'dims' must be tuple of ints, not float"),
])
def test_flip_dims_type_errors(call, text):
    _raises(TypeError, text, call)


def test_flip_takes_a_0dim_integer_tensor_as_a_dim():
    assert F.flip(ember.tensor(1)).tolist() == [[2, 1, 0], [5, 4, 3]]


# -- out= of reductions, scans and joins ----------------------------------------------------------

XO = ember.tensor([[1.5, 2.], [3., 4.]])


def _long():
    return ember.empty(0, dtype=ember.long)


def test_sum_prod_cumsum_cast_the_input_to_outs_dtype_first():
    assert ember.sum(XO, 0, out=_long()).tolist() == [4, 6]
    assert ember.prod(XO, 0, out=_long()).tolist() == [3, 8]         # 1 * 3, 2 * 4
    assert ember.cumsum(XO, 0, out=_long()).tolist() == [[1, 2], [4, 6]]
    _raises(RuntimeError, "Expected out tensor to have dtype double, but got long int instead",
            ember.sum, XO, 0, dtype=ember.float64, out=_long())
    _raises(NotImplementedError, "\"cumsum_out_cpu\" not implemented for 'Bool'",
            ember.cumsum, XO, 1, out=ember.empty(0, dtype=ember.bool))


def test_prod_lists_its_out_in_its_signatures():
    text = ("prod() received an invalid combination of arguments - got (Tensor, str), but "
            "expected one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, "
            "int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n")
    _raises(TypeError, text, ember.prod, XO, "a")


@pytest.mark.parametrize("call,exc,text", [
    (lambda: ember.amax(XO, 0, out=_long()), RuntimeError, "Expected the dtype for input and out "
     "to match, but got Float for input's dtype and Long for out's dtype."),
    (lambda: ember.argmax(XO, 0, out=ember.empty(0)), RuntimeError,
     "Expected out tensor to have dtype long int, but got float instead"),
    (lambda: ember.all(XO, 0, out=ember.empty(0)), RuntimeError,
     "all only supports bool tensor for result, got: Float"),
    (lambda: ember.logsumexp(XO, 0, out=_long()), RuntimeError,
     "logsumexp(): Expected floating point type for result tensor, but got: Long"),
    (lambda: ember.norm(XO, dim=0, out=_long()), RuntimeError,
     "Expected out tensor to have dtype float, but got long int instead"),
    (lambda: ember.cat([XO, XO], out=_long()), TypeError,
     "torch.cat(): input types can't be cast to the desired output type Long"),
    (lambda: ember.stack([XO, XO], out=_long()), TypeError,
     "torch.cat(): input types can't be cast to the desired output type Long"),
])
def test_out_dtype_errors(call, exc, text):
    _raises(exc, text, call)


def test_any_writes_a_uint8_out():
    assert ember.any(XO, out=ember.empty(0, dtype=ember.uint8)).tolist() == 1


def test_two_result_ops_with_out_return_the_out_named_tuples():
    v, i = ember.empty(0), _long()
    r = ember.max(XO, 1, out=(v, i))
    assert type(r).__name__ == "max_out" and repr(r).startswith("torch.return_types.max_out(")
    assert r.values is v and r.indices.tolist() == [1, 1]
    assert type(ember.sort(XO, out=(v, i))).__name__ == "sort_out"
    assert type(ember.topk(XO, 1, out=(v, i))).__name__ == "topk_out"
    assert type(ember.median(XO, 1, out=(v, i))).__name__ == "median_out"
    assert type(ember.cummax(XO, 1, out=(v, i))).__name__ == "cummax_out"
    lo = ember.aminmax(XO, out=(ember.empty(0), ember.empty(0)))
    assert type(lo).__name__ == "aminmax_out" and lo.max.item() == 4.0
    assert type(ember.max(XO, 1)).__name__ == "max"


# -- texts and small behaviours ---------------------------------------------------------------------

def test_scans_refuse_a_bool_dtype():
    _raises(NotImplementedError, "\"cumprod_out_cpu\" not implemented for 'Bool'",
            ember.tensor([1, 2]).cumprod, 0, dtype=ember.bool)


def test_mean_names_which_dtype_is_not_floating():
    _raises(RuntimeError, "mean(): could not infer output dtype. Optional dtype must be either a "
            "floating point or complex dtype. Got: Long", XO.mean, dtype=ember.int64)
    _raises(RuntimeError, "mean(): could not infer output dtype. Input dtype must be either a "
            "floating point or complex dtype. Got: Long", ember.tensor([1]).mean)


def test_topk_and_sort_of_complex_texts_start_with_a_space():
    z = ember.tensor([1 + 1j, 2])
    _raises(RuntimeError, " topk does not support complex dtypes on CPU", z.topk, 1)
    _raises(RuntimeError, " Sort does not support complex dtypes on CPU", z.sort)


def test_histc_prints_a_given_nan_bound_as_nan():
    x = ember.tensor([3., 1., 2.])
    _raises(RuntimeError, "torch.histc: range of [nan, 0] is not finite",
            ember.histc, x, bins=3, min=float("nan"))
    _raises(RuntimeError, "torch.histc: range of [-nan, -nan] is not finite",
            ember.histc, ember.tensor([1., float("nan")]), bins=4)


def test_split_by_a_0dim_tensor_and_refusing_other_sizes():
    x = ember.arange(6).reshape(3, 2)
    assert [t.shape[0] for t in x.split(ember.tensor(1))] == [1, 1, 1]
    assert [t.shape[0] for t in x.split(ember.tensor(2.))] == [2, 1]
    for value, name in ((2.5, "float"), (np.int64(2), "numpy.int64"), (range(1, 3), "range"),
                        (ember.tensor([1, 2]), "Tensor")):
        _raises(TypeError, "split_with_sizes(): argument 'split_sizes' (position 2) must be "
                f"tuple of ints, not {name}", x.split, value)


def test_empty_reduction_messages_name_the_dim_as_given():
    x = ember.ones(3, 0)
    # amax/amin print the dim as the caller wrote it, before looking for a repeated dim
    with pytest.raises(IndexError, match=r"^amax\(\): Expected reduction dim -1 to have "
                                         r"non-zero size\.$"):
        x.amax(-1)
    with pytest.raises(IndexError, match=r"^amin\(\): Expected reduction dim 0 to have"):
        ember.ones(0, 3).amin((0, 0))
    with pytest.raises(RuntimeError, match=r"^amax\(\): Expected reduction dim to be "
                                           r"specified for input.numel\(\) == 0"):
        x.amax(())
    # nanmedian's message is median's, its dim wrapped
    with pytest.raises(IndexError, match=r"^median\(\): Expected reduction dim 1 to have"):
        x.nanmedian(-1)
    # a number q is checked before the input's emptiness
    with pytest.raises(RuntimeError, match=r"^quantile\(\) q must be in the range \[0, 1\] "
                                           r"but got -1$"):
        ember.ones(0).quantile(-1)
    assert ember.ones(2, 3).amax((0, -1)).item() == 1.0


def test_tensordot_sums_a_dim_contracted_with_one_of_size_1():
    # torch broadcasts a contracted dim of size 1: the other operand's dim is summed
    a = ember.tensor(np.arange(6.).reshape(2, 3), dtype=ember.float32, requires_grad=True)
    b = ember.tensor([[1., 2., 3., 4.]], requires_grad=True)                 # (1, 4)
    out = ember.tensordot(a, b, dims=([0], [0]))
    np.testing.assert_array_equal(out.detach().numpy(),
                                  np.outer(np.arange(6.).reshape(2, 3).sum(0), [1, 2, 3, 4]))
    out.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.full((2, 3), 10.))
    np.testing.assert_array_equal(b.grad.numpy(), np.full((1, 4), 15.))
    c = ember.tensordot(ember.ones(3, 1), ember.arange(10.).reshape(2, 5), dims=([1], [0]))
    assert c.tolist() == [[5., 7., 9., 11., 13.]] * 3
    ints = ember.tensordot(ember.arange(6).reshape(2, 3), ember.ones(1, 2, dtype=ember.int64),
                           dims=([0], [0]))
    assert ints.dtype is ember.int64 and ints.tolist() == [[3, 3], [5, 5], [7, 7]]
    with pytest.raises(RuntimeError, match="first has size 4 in dim -1 and second has size 2 "
                                           "in dim 1"):
        ember.tensordot(ember.ones(1, 2, 4, 4), ember.ones(1, 2, 4, 4), 2)
