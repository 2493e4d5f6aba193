"""torch's parser takes a tensor list or a size only as a list or a tuple: a deque of
frames, a generator, a range or a dict view is refused with its type's name (RL code keeps
frames and transitions in deques). One size may be any integer with `__index__` as torch
reads it, a one-element integer tensor included."""
from collections import deque

import numpy as np
import pytest

import ember


def _raises(message, fn):
    with pytest.raises(TypeError) as info:
        fn()
    assert str(info.value).split("\n")[0] == message


@pytest.mark.parametrize("name", ["stack", "cat", "concat", "concatenate", "hstack", "vstack",
                                  "row_stack", "dstack", "column_stack"])
@pytest.mark.parametrize("make, shown", [
    (lambda ts: deque(ts), "collections.deque"),
    (lambda ts: (t for t in ts), "generator"),
    (lambda ts: dict(enumerate(ts)).values(), "dict_values"),
    (lambda ts: map(lambda t: t, ts), "map"),
    (lambda ts: np.array([1.0, 2.0]), "numpy.ndarray"),
    (lambda ts: None, "NoneType"),
])
def test_a_tensor_list_must_be_a_list_or_tuple(name, make, shown):
    ts = [ember.zeros(2), ember.ones(2)]
    _raises(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not {shown}",
            lambda: getattr(ember, name)(make(ts)))


def test_list_and_tuple_subclasses_are_tensor_lists():
    class Frames(list):
        pass
    ts = [ember.zeros(2), ember.ones(2)]
    assert ember.stack(Frames(ts)).tolist() == [[0.0, 0.0], [1.0, 1.0]]
    assert ember.cat(tuple(ts)).tolist() == [0.0, 0.0, 1.0, 1.0]
    assert ember.stack(list(deque(ts, maxlen=2)), 1).shape == (2, 2)


@pytest.mark.parametrize("make, shown", [
    (lambda: deque([2, 3]), "collections.deque"), (lambda: range(2, 4), "range"),
    (lambda: (s for s in [2, 3]), "generator"), (lambda: {2, 3}, "set"),
    (lambda: ember.tensor([2, 3]), "Tensor"), (lambda: np.array([2, 3]), "numpy.ndarray")])
@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "rand", "randn"])
def test_a_size_must_be_a_list_or_tuple(name, make, shown):
    _raises(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {shown}",
            lambda: getattr(ember, name)(make()))
    _raises(f"full(): argument 'size' (position 1) must be tuple of ints, not {shown}",
            lambda: ember.full(make(), 1.0))
    _raises(f"randint(): argument 'size' (position 2) must be tuple of ints, not {shown}",
            lambda: ember.randint(5, make()))
    _raises(f"new_zeros(): argument 'size' (position 1) must be tuple of ints, not {shown}",
            lambda: ember.zeros(1).new_zeros(make()))


def test_randint_refuses_a_size_of_floats_and_words_three_numbers_as_a_combination():
    _raises("randint(): argument 'size' (position 2) must be tuple of ints, but found element "
            "of type float at pos 0", lambda: ember.randint(5, [2.0]))
    _raises("randint() received an invalid combination of arguments - got (int, int, "
            "collections.deque), but expected one of:", lambda: ember.randint(0, 5, deque([2])))


def test_view_refuses_other_iterables():
    x = ember.arange(6.0)
    for size, shown in [(deque([6]), "collections.deque"), (range(6, 7), "range"),
                        (ember.tensor([2, 3]), "Tensor")]:
        _raises(f"view() received an invalid combination of arguments - got ({shown}), but "
                f"expected one of:", lambda: x.view(size))


def test_one_element_integer_tensors_and_numpy_integers_are_sizes():
    x = ember.arange(6.0)
    six = ember.tensor([6])
    assert x.view(ember.tensor(6)).shape == (6,)
    assert x.view(np.array(6)).shape == (6,)
    assert x.view(six).shape == (6,)
    assert ember.zeros(six).shape == (6,)
    assert ember.zeros(six, 1).shape == (6, 1)
    assert ember.rand([ember.tensor([2]), 3]).shape == (2, 3)
    assert ember.randint(3, [ember.tensor([2]), np.int64(3)]).shape == (2, 3)
    assert x.new_ones(six).tolist() == [1.0] * 6
    assert x.reshape(six).shape == (6,) and x.reshape(np.array(6)).shape == (6,)
    assert ember.zeros(1).expand(six).shape == (6,)
    # a float tensor is no size, and `full` takes no single int at all
    _raises("zeros(): argument 'size' (position 1) must be tuple of ints, but found element "
            "of type Tensor at pos 0", lambda: ember.zeros([ember.tensor([6.0])]))
    _raises("full(): argument 'size' (position 1) must be tuple of ints, not Tensor",
            lambda: ember.full(six, 1.0))
