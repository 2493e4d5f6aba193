"""default_collate and default_convert: torch's type rules, checked against hand-made batches."""
import collections

import numpy as np
import pytest

import ember
from ember.utils.data import default_collate, default_convert

Point = collections.namedtuple("Point", ["x", "y"])


def test_collate_tensors_numbers_strings():
    out = default_collate([ember.tensor([1, 2]), ember.tensor([3, 4])])
    assert out.tolist() == [[1, 2], [3, 4]] and out.dtype == ember.int64
    floats = default_collate([1.5, 2.0])
    assert floats.dtype == ember.float64 and floats.tolist() == [1.5, 2.0]
    ints = default_collate([1, 2])
    assert ints.dtype == ember.int64 and ints.tolist() == [1, 2]
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert default_collate([b"a", b"b"]) == [b"a", b"b"]


def test_collate_numpy():
    out = default_collate([np.zeros((2,), np.float32), np.ones((2,), np.float32)])
    assert out.dtype == ember.float32 and out.tolist() == [[0, 0], [1, 1]]
    scalars = default_collate([np.float64(1.5), np.float64(2.5)])
    assert scalars.dtype == ember.float64 and scalars.tolist() == [1.5, 2.5]
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors, numpy "
                                        "arrays, numbers, dicts or lists; found <U1"):
        default_collate([np.array(["a"]), np.array(["b"])])


def test_collate_containers():
    batch = [{"a": 1, "b": (ember.tensor(1.), "x")}, {"a": 2, "b": (ember.tensor(2.), "y")}]
    out = default_collate(batch)
    assert out["a"].tolist() == [1, 2]
    assert isinstance(out["b"], list)                    # tuples become lists, as in torch
    assert out["b"][0].tolist() == [1., 2.] and out["b"][1] == ("x", "y")  # as torch
    p = default_collate([Point(1, 2.), Point(3, 4.)])
    assert isinstance(p, Point) and p.x.tolist() == [1, 3] and p.y.dtype == ember.float64
    assert [t.tolist() for t in default_collate([[1, 2], [3, 4]])] == [[1, 3], [2, 4]]
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal"):
        default_collate([[1, 2], [3]])
    with pytest.raises(TypeError, match="found <class 'object'>"):
        default_collate([object()])


def test_default_convert():
    assert default_convert(0) == 0
    out = default_convert([np.array([0, 1]), 2])
    assert isinstance(out[0], ember.Tensor) and out[0].tolist() == [0, 1] and out[1] == 2
    p = default_convert(Point(np.array(0), 1))
    assert isinstance(p, Point) and isinstance(p.x, ember.Tensor) and p.y == 1
    assert isinstance(default_convert((np.array(1),)), list)
    assert default_convert("ab") == "ab"
    strings = np.array(["a"])
    assert default_convert(strings) is strings


def test_collate_tensor_paths_agree_with_torch():
    # mixed dtypes promote, grad is recorded, unequal sizes give torch's error (recorded)
    out = default_collate([ember.tensor([1]), ember.tensor([2.5])])
    assert out.dtype == ember.float32 and out.tolist() == [[1.0], [2.5]]
    a = ember.ones(2, requires_grad=True)
    out = default_collate([a, a * 2])
    assert out.grad_fn.name() == "StackBackward0"
    out.sum().backward()
    assert a.grad.tolist() == [3., 3.]
    with pytest.raises(RuntimeError, match=r"stack expects each tensor to be equal size, but "
                                           r"got \[2\] at entry 0 and \[3\] at entry 1"):
        default_collate([ember.ones(2), ember.ones(3)])
    out = default_collate([ember.ones(2, 3).t(), ember.zeros(2, 3).t()])
    assert out.stride() == (6, 2, 1) and out.is_contiguous()
    assert out[0].tolist() == [[1., 1.], [1., 1.], [1., 1.]]


def test_tensor_dataset_getitems_matches_getitem():
    from ember.utils.data import TensorDataset
    x, y = ember.arange(12.).view(4, 3), ember.tensor([5, 6, 7, 8])
    ds = TensorDataset(x, y)
    fast = ds.__getitems__([3, 0, 3])
    slow = [ds[i] for i in [3, 0, 3]]
    assert [(a.tolist(), b.tolist(), b.shape) for a, b in fast] == \
        [(a.tolist(), b.tolist(), b.shape) for a, b in slow]
    assert default_collate(fast)[0].tolist() == [[9., 10., 11.], [0., 1., 2.], [9., 10., 11.]]
    with pytest.raises(IndexError, match="index 9 is out of bounds for dimension 0 with size 4"):
        ds.__getitems__([9])

    class Doubled(TensorDataset):
        def __getitem__(self, i):
            return tuple(t[i] * 2 for t in self.tensors)
    assert Doubled(x).__getitems__([1])[0][0].tolist() == [6., 8., 10.]
    w = ember.ones(2, 2, requires_grad=True)
    assert TensorDataset(w).__getitems__([0])[0][0].grad_fn is not None


def test_collate_of_a_tensor_and_an_array_names_the_type_as_torch_does():
    # stack's error names a non-builtin type by module and name, as CPython's tp_name does
    with pytest.raises(TypeError, match=r"^expected Tensor as element 1 in argument 0, but got "
                                        r"numpy\.ndarray$"):
        default_collate([ember.ones(2), np.ones(2)])
    with pytest.raises(TypeError, match=r"but got list$"):
        ember.stack([ember.ones(2), [1.0, 2.0]])


def test_collate_of_a_tensor_as_the_batch_is_stack_s_error():
    # torch hands the tensor itself to stack, which wants a sequence of tensors
    with pytest.raises(TypeError, match=r"^stack\(\): argument 'tensors' \(position 1\) must be "
                                        r"tuple of Tensors, not Tensor$"):
        default_collate(ember.ones(3))


def test_collate_refuses_sparse_tensors():
    sparse = ember.sparse_coo_tensor([[0]], [1.], (2,))
    for batch in ([sparse, sparse], [ember.ones(2, 2).to_sparse_csr()] * 2):
        with pytest.raises(RuntimeError, match=r"^Batches of sparse tensors are not currently "
                                               r"supported by the default collate_fn; please "
                                               r"provide a custom collate_fn to handle them "
                                               r"appropriately\.$"):
            default_collate(batch)


def test_collate_of_mappings_goes_key_by_key():
    # torch collates the first sample's keys in order: an error in an earlier field comes
    # before a later key missing from another sample
    with pytest.raises(TypeError, match=r"found <class 'NoneType'>$"):
        default_collate([{"a": {"x": None}, "b": 1}, {"a": {"x": None}, "c": 2}])
    with pytest.raises(KeyError, match="'b'"):
        default_collate([{"a": 1, "b": 2}, {"a": 3}])
    out = default_collate([{"a": 1, "b": 2.5}, {"a": 3, "b": 0.5, "c": "extra"}])
    assert list(out) == ["a", "b"] and out["a"].tolist() == [1, 3]
