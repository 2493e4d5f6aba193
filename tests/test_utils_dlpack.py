"""ember.utils.dlpack and the DLPack protocol on tensors (torch.utils.dlpack's behaviour)."""
import numpy as np
import pytest

import ember
from ember.utils.dlpack import DLDeviceType, from_dlpack, to_dlpack

INVALID = ("from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
           "consumed only once, so you might have already constructed a tensor from it once.")


def test_top_level_names_are_the_utils_functions():
    assert ember.from_dlpack is from_dlpack and ember.to_dlpack is to_dlpack


def test_capsule_round_trip_shares_memory():
    t = ember.arange(4.)
    capsule = to_dlpack(t)
    assert type(capsule).__name__ == "PyCapsule" and '"dltensor"' in repr(capsule)
    u = from_dlpack(capsule)
    u[0] = 9
    assert t.tolist() == [9., 1., 2., 3.] and u.data_ptr() == t.data_ptr()
    assert u.dtype is ember.float32


def test_a_capsule_is_used_once():
    capsule = to_dlpack(ember.arange(3))
    from_dlpack(capsule)
    with pytest.raises(RuntimeError) as e:
        from_dlpack(capsule)
    assert str(e.value) == INVALID


@pytest.mark.parametrize("bad", [[1, 2], 3, "x"])
def test_from_dlpack_of_a_non_capsule(bad):
    with pytest.raises(RuntimeError) as e:
        from_dlpack(bad)
    assert str(e.value) == INVALID


def test_versioned_capsule_is_accepted():
    capsule = ember.arange(3.).__dlpack__(max_version=(1, 0))
    assert '"dltensor_versioned"' in repr(capsule)
    assert from_dlpack(capsule).tolist() == [0., 1., 2.]


def test_capsule_with_device_or_copy_is_refused():
    with pytest.raises(AssertionError, match="device and copy kwargs not supported"):
        from_dlpack(to_dlpack(ember.ones(2)), copy=True)


@pytest.mark.parametrize("make, stride", [
    (lambda: ember.arange(6.).reshape(2, 3).t(), (1, 3)),
    (lambda: ember.arange(6.)[::2], (2,)),
    (lambda: ember.arange(3.).expand(2, 3), (0, 1)),
])
def test_non_contiguous_tensors_keep_their_strides(make, stride):
    x = make()
    y = from_dlpack(to_dlpack(x))
    assert y.stride() == stride and y.tolist() == x.tolist() and y.data_ptr() == x.data_ptr()


@pytest.mark.parametrize("value", [[True, False], [1 + 2j, -3j], 3.5])
def test_dtypes_and_shapes_survive(value):
    x = ember.tensor(value)
    y = from_dlpack(to_dlpack(x))
    assert y.dtype is x.dtype and y.shape == x.shape and y.tolist() == x.tolist()
    a = np.from_dlpack(x)
    assert a.dtype == x.numpy().dtype and a.tolist() == x.tolist()


def test_numpy_from_dlpack_of_a_tensor_shares_memory():
    t = ember.arange(6, dtype=ember.int16).reshape(2, 3)
    a = np.from_dlpack(t)
    a[1, 2] = -7
    assert t[1, 2].item() == -7 and a.ctypes.data == t.data_ptr()


def test_tensor_from_numpy_shares_memory_and_copy_copies():
    a = np.arange(3)
    t = from_dlpack(a)
    t[0] = 5
    assert a[0] == 5 and t.dtype is ember.int64
    c = from_dlpack(a, copy=True)
    c[1] = 8
    assert a[1] == 1


def test_requires_grad_is_refused_by_the_protocol_not_by_to_dlpack():
    msg = "Can't export tensors that require gradient, use tensor.detach()"
    x = ember.ones(2, requires_grad=True)
    for f in (x.__dlpack__, lambda: np.from_dlpack(x), lambda: from_dlpack(x)):
        with pytest.raises(BufferError) as e:
            f()
        assert str(e.value) == msg
    assert from_dlpack(to_dlpack(x)).tolist() == [1., 1.]


def test_stream_checks():
    with pytest.raises(AssertionError, match="^stream should be None on cpu.$"):
        ember.ones(2).__dlpack__(stream=1)
    with pytest.raises(TypeError, match="^stream must be ``int`` or ``none``$"):
        ember.ones(2).__dlpack__(stream="1")
    assert from_dlpack(ember.ones(2).__dlpack__(stream=None)).tolist() == [1., 1.]


def test_dlpack_device():
    kind, index = ember.ones(1).__dlpack_device__()
    assert kind is DLDeviceType.kDLCPU and index == 0 and int(DLDeviceType.kDLCUDA) == 2


@pytest.mark.parametrize("bad, name", [(np.arange(3), "numpy.ndarray"), ([1], "list")])
def test_to_dlpack_wants_a_tensor(bad, name):
    with pytest.raises(TypeError) as e:
        to_dlpack(bad)
    assert str(e.value) == ("_to_dlpack(): argument 'data' (position 1) must be Tensor, not "
                            + name)
