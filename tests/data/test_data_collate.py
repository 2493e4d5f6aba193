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
    assert out["b"][0].tolist() == [1., 2.] and out["b"][1] == ["x", "y"]
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
