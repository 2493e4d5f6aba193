"""torch's exceptions and messages for the shaping and joining ops (flip, roll, rot90, repeat,
tile, repeat_interleave, tril/triu, diagonals, hstack..., tensor_split, block_diag, grids),
and the behaviours the operator table cannot express (warnings, returning the input itself).
The texts were read off torch 2.13."""
import re
import warnings

import numpy as np
import pytest

import ember


def _raises(exc, text, fn, *args, **kwargs):
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        fn(*args, **kwargs)


X = ember.arange(12.).reshape(3, 4)
V = ember.arange(4.)
S = ember.tensor(2.)
RANGE_2D = "Dimension out of range (expected to be in range of [-2, 1], but got {})"


@pytest.mark.parametrize("call,exc,text", [
    (lambda: X.flip(0, 0), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    (lambda: X.flip((1, -1)), RuntimeError, "dim 1 appears multiple times in the list of dims"),
    (lambda: X.flip(2), IndexError, RANGE_2D.format(2)),
    (lambda: ember.flip(X, 0), TypeError,
     "flip(): argument 'dims' (position 2) must be tuple of ints, not int"),
    (lambda: V.fliplr(), RuntimeError, "Input must be >= 2-d."),
    (lambda: S.flipud(), RuntimeError, "Input must be >= 1-d."),
    (lambda: X.roll((1, 2)), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:0"),
    (lambda: X.roll((1, 2), (0,)), RuntimeError,
     "shifts and dimensions must align. shifts: 2, dims:1"),
    (lambda: X.roll(1, (0, 1)), RuntimeError,
     "shifts and dimensions must align. shifts: 1, dims:2"),
    (lambda: X.roll((), ()), RuntimeError, "`shifts` required"),
    (lambda: V.rot90(), RuntimeError, "expected total dims >= 2, but got total dims = 1"),
    (lambda: X.rot90(1, [0, 1, 0]), RuntimeError,
     "expected total rotation dims == 2, but got dims = 3"),
    (lambda: X.rot90(1, [0, 0]), RuntimeError,
     "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0"),
    (lambda: X.rot90(1, [0, -2]), RuntimeError,
     "expected rotation dims to be different, but got dim0 = 0 and dim1 = -2"),
    (lambda: X.rot90(1, [0, 2]), IndexError, RANGE_2D.format(2)),
    (lambda: X.repeat(2), RuntimeError, "Number of dimensions of repeat dims can not be smaller "
                                        "than number of dimensions of tensor"),
    (lambda: X.repeat(-1, 2), RuntimeError,
     "Trying to create tensor with negative dimension -3: [-3, 8]"),
    (lambda: X.tile(-1), RuntimeError, "Trying to create tensor with negative dimension -4: "
                                       "[3, -4]"),
])
def test_rearranging_errors(call, exc, text):
    _raises(exc, text, call)


@pytest.mark.parametrize("call,exc,text", [
    (lambda: V.repeat_interleave(-1), RuntimeError, "Repeats must be non-negative"),
    (lambda: V.repeat_interleave(2, dim=1), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: X.repeat_interleave(ember.tensor([1, 2]), dim=0), RuntimeError,
     "repeats must have the same size as input along dim, but got repeats.size(0) = 2 and "
     "input.size(0) = 3"),
    (lambda: X.repeat_interleave(ember.tensor([1, -1, 2]), dim=0), RuntimeError,
     "repeats can not be negative"),
    (lambda: X.repeat_interleave(ember.tensor([1., 1, 2]), dim=0), NotImplementedError,
     "\"repeat_interleave_cpu\" not implemented for 'Float'"),
    (lambda: X.repeat_interleave(ember.tensor([[1, 1, 2]]), dim=0), RuntimeError,
     "repeats must be 0-dim or 1-dim tensor"),
    (lambda: X.repeat_interleave(ember.tensor([1, 1, 2]), dim=0, output_size=5), RuntimeError,
     "allocated size does not match required size"),
    (lambda: X.repeat_interleave(2, dim=0, output_size=5), RuntimeError,
     "repeat_interleave: Invalid output_size, expected 6 but got 5"),
    (lambda: ember.repeat_interleave(ember.tensor(3)), RuntimeError,
     "repeat_interleave only accept 1D vector as repeat"),
    (lambda: ember.repeat_interleave(ember.tensor([1, 2], dtype=ember.int16)),
     NotImplementedError, "\"repeat_interleave_cpu\" not implemented for 'Short'"),
])
def test_repeat_interleave_errors(call, exc, text):
    _raises(exc, text, call)


@pytest.mark.parametrize("call", [
    lambda: ember.tensor([1, 2]).repeat_interleave(), lambda: X.flip(), lambda: X.repeat(),
    lambda: X.tile(), lambda: X.tensor_split()])
def test_missing_arguments(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("call,exc,text", [
    (lambda: V.tril(), RuntimeError, "tril: input tensor must have at least 2 dimensions"),
    (lambda: S.triu(), RuntimeError, "triu: input tensor must have at least 2 dimensions"),
    (lambda: V.clone().tril_(), RuntimeError,
     "tril: input tensor must have at least 2 dimensions"),
    (lambda: ember.tril_indices(3, 3, dtype=ember.float32), NotImplementedError,
     "\"tril_indices\" not implemented for 'Float'"),
    (lambda: ember.triu_indices(3, 3, dtype=ember.bool), NotImplementedError,
     "\"triu_indices\" not implemented for 'Bool'"),
    (lambda: ember.tril_indices(-1, 3), RuntimeError, "row must be non-negative, got-1"),
    (lambda: S.diag(), RuntimeError, "diag(): Supports 1D or 2D tensors. Got 0D"),
    (lambda: ember.ones(2, 2, 2).diag(), RuntimeError,
     "diag(): Supports 1D or 2D tensors. Got 3D"),
    (lambda: S.diag_embed(), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got -2)"),
    (lambda: X.diag_embed(0, 0, 0), RuntimeError, "diagonal dimensions cannot be identical 0, 0"),
    (lambda: X.diag_embed(0, 0, 3), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
])
def test_triangle_and_diagonal_errors(call, exc, text):
    _raises(exc, text, call)


def test_tril_indices_needs_col():
    with pytest.raises(TypeError):
        ember.tril_indices(3)


@pytest.mark.parametrize("call,exc,text", [
    (lambda: ember.hstack([]), RuntimeError, "hstack expects a non-empty TensorList"),
    (lambda: ember.vstack([]), RuntimeError, "vstack expects a non-empty TensorList"),
    (lambda: ember.dstack([]), RuntimeError, "dstack expects a non-empty TensorList"),
    (lambda: ember.column_stack([]), RuntimeError,
     "column_stack expects a non-empty TensorList"),
    (lambda: ember.hstack(X), TypeError,
     "hstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    (lambda: ember.vstack([V, X[:, :3]]), RuntimeError,
     "Sizes of tensors must match except in dimension 0. Expected size 4 but got size 3 for "
     "tensor number 1 in the list."),
    (lambda: X.tensor_split(0), RuntimeError, "number of sections must be larger than 0, got 0"),
    (lambda: X.tensor_split(ember.tensor([1.])), RuntimeError,
     "tensor_split expected tensor_indices_or_sections to have dtype of long, but got Float"),
    (lambda: X.tensor_split(ember.tensor([1], dtype=ember.int32)), RuntimeError,
     "tensor_split expected tensor_indices_or_sections to have dtype of long, but got Int"),
    (lambda: X.tensor_split(ember.tensor([[1]])), RuntimeError,
     "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
     "one-dimensional tensor, but got a tensor with 2 dims"),
    (lambda: S.tensor_split(2), RuntimeError,
     "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"),
    (lambda: ember.block_diag(ember.ones(1, 1, 1)), RuntimeError,
     "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 0 has 3 "
     "dimensions"),
    (lambda: ember.block_diag([V]), TypeError,
     "expected Tensor as element 0 in argument 0, but got list"),
])
def test_joining_errors(call, exc, text):
    _raises(exc, text, call)


@pytest.mark.parametrize("call,exc,text", [
    (lambda: ember.cartesian_prod(V[:2], ember.arange(3)), RuntimeError,
     "meshgrid expects all tensors to have the same dtype"),
    (lambda: ember.cartesian_prod(), RuntimeError, "meshgrid expects a non-empty TensorList"),
    (lambda: ember.cartesian_prod(X, V), RuntimeError, "Expect a 1D vector, but got shape [3, 4]"),
    (lambda: ember.cartesian_prod(X), RuntimeError, "Expect a 1D vector, but got shape [3, 4]"),
    (lambda: ember.combinations(S), RuntimeError, "Expect a 1D vector, but got shape []"),
    (lambda: ember.combinations(V, -1), RuntimeError, "Expect a non-negative number, but got -1"),
    (lambda: ember.broadcast_tensors(X, ember.arange(3)), RuntimeError,
     "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1"),
    (lambda: ember.broadcast_shapes((3,), (4,)), RuntimeError,
     "Attempting to broadcast a dimension of length 4 at -1! Mismatching argument at index 1 "
     "had (4,); but expected shape should be broadcastable to [3]"),
    (lambda: ember.broadcast_shapes((2, 3), (1, 1), (4, 1)), RuntimeError,
     "Attempting to broadcast a dimension of length 4 at -2! Mismatching argument at index 2 "
     "had (4, 1); but expected shape should be broadcastable to [2, 3]"),
    (lambda: ember.broadcast_shapes((-1,), (4,)), ValueError,
     "Attempting to broadcast a dimension with negative length!"),
    (lambda: ember.meshgrid(V, V, indexing="foo"), RuntimeError,
     'torch.meshgrid: indexing must be one of "xy" or "ij", but received: foo'),
    (lambda: ember.meshgrid(indexing="ij"), RuntimeError,
     "meshgrid expects a non-empty TensorList"),
    (lambda: ember.meshgrid(V, ember.arange(3), indexing="ij"), RuntimeError,
     "meshgrid expects all tensors to have the same dtype"),
])
def test_grid_errors(call, exc, text):
    _raises(exc, text, call)


def test_meshgrid_of_a_matrix_is_refused():
    with pytest.raises(RuntimeError, match="^torch.meshgrid: Expected 0D or 1D tensor in the "
                                           "tensor list but got"):
        ember.meshgrid(X, V, indexing="ij")


def test_meshgrid_warns_without_indexing_once():
    from ember import _config
    _config._warned.clear()         # (torch warns once per process)
    with pytest.warns(UserWarning, match="^torch.meshgrid: in an upcoming release, it will be "
                                         "required to pass the indexing argument."):
        grids = ember.meshgrid(V, V[:3])
    assert [tuple(g.shape) for g in grids] == [(4, 3), (4, 3)]        # 'ij'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ember.meshgrid(V, V[:3])        # (the second time: no warning)
        a = ember.ones(2, 3)
    with pytest.warns(UserWarning, match="^Using torch.cross without specifying the dim"):
        ember.cross(a, a)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ember.cross(a, a)
    _config._warned.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ember.meshgrid(V, V[:3], indexing="xy")


def test_inputs_returned_as_they_are():
    """torch returns the input itself where nothing needs changing."""
    assert ember.atleast_1d(V) is V
    assert ember.atleast_2d(X) is X
    assert ember.cartesian_prod(V) is V
    assert ember.broadcast_tensors(X, V)[0] is X


def test_views_and_copies():
    grids = ember.meshgrid(V, V[:3], indexing="ij")
    assert [g.stride() for g in grids] == [(1, 0), (0, 1)]
    assert all(g.untyped_storage().data_ptr() == V.untyped_storage().data_ptr() for g in grids)
    assert ember.broadcast_tensors(X, V)[1].stride() == (0, 1)
    for piece in X.tensor_split(2):
        assert piece.untyped_storage().data_ptr() == X.untyped_storage().data_ptr()
    for copy in (X.flip((0,)), X.roll(1), X.rot90(), X.repeat(1, 1), X.tile(()), X.tril()):
        assert copy.untyped_storage().data_ptr() != X.untyped_storage().data_ptr()


def test_small_results():
    assert ember.block_diag().shape == (1, 0)
    assert ember.atleast_1d() == ()
    assert ember.broadcast_tensors() == ()
    assert ember.broadcast_shapes() == ()
    assert ember.combinations(V, 0).shape == (0,)
    assert not ember.combinations(V.requires_grad_(False).clone().requires_grad_(), 0) \
        .requires_grad


def test_double_backward_through_repeat_interleave_by_tensor():
    x = ember.tensor(np.arange(6.).reshape(3, 2), requires_grad=True)
    y = x.repeat_interleave(ember.tensor([2, 0, 1]), dim=0)
    assert type(y.grad_fn).__name__ == "IndexSelectBackward0"
    (g,) = ember.autograd.grad((y * y).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [[0, 4], [0, 0], [8, 10]])
    (gg,) = ember.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(gg.numpy(), [[4, 4], [0, 0], [2, 2]])


# -- sizes that were never given ---------------------------------------------------------------

def test_shape_methods_without_a_size_are_torchs_type_errors():
    x = ember.ones(2, 3)
    cases = [(lambda: x.reshape(), 'reshape() missing 1 required positional arguments: "shape"'),
             (lambda: ember.reshape(x), 'reshape() missing 1 required positional arguments: '
                                        '"shape"'),
             (lambda: x.view(), "view() received an invalid combination of arguments - got (), "
                                "but expected one of:"),
             (lambda: x.resize_(), 'resize_() missing 1 required positional arguments: "size"'),
             (lambda: x.sum_to_size(), 'sum_to_size() missing 1 required positional arguments: '
                                       '"size"'),
             (lambda: x.split(), "Tensor.split() missing 1 required positional argument: "
                                 "'split_size'"),
             (lambda: ember.split(x), "split() missing 1 required positional argument: "
                                      "'split_size_or_sections'"),
             (lambda: x.split(split_size_or_sections=1), "Tensor.split() got an unexpected "
                                                         "keyword argument"),
             (lambda: ember.split(x, split_size=1), "split() got an unexpected keyword "
                                                    "argument 'split_size'")]
    for call, text in cases:
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value).splitlines()[0] == text or str(info.value).startswith(text)
    assert x.shape == (2, 3)                    # (resize_() had made it 0-dim)
    s = ember.tensor(2.0)
    # an empty tuple is a size: the 0-dim shape
    assert s.view(()).shape == () and s.reshape(()).shape == () and s.sum_to_size(()).shape == ()
    assert [p.tolist() for p in x.split(split_size=2, dim=1)] == [[[1., 1.], [1., 1.]],
                                                                  [[1.], [1.]]]
    with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
        with pytest.raises(TypeError, match=r"view\(\) received an invalid combination"):
            s.resize()
