"""DLPack exchange against real torch: memory sharing, strides, dtypes and error texts."""
import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def outcome(lib, f):
    """(result summary) or (exception type name, text) of f(lib)."""
    try:
        r = f(lib)
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return type(e).__name__, str(e)
    if isinstance(r, np.ndarray):
        return "ndarray", str(r.dtype), r.shape, r.strides, r.tolist()
    return "tensor", str(r.dtype), tuple(r.shape), tuple(r.stride()), r.tolist()


CASES = {
    "capsule": lambda L: L.utils.dlpack.from_dlpack(L.utils.dlpack.to_dlpack(
        L.arange(6.).reshape(2, 3).t())),
    "numpy_view": lambda L: np.from_dlpack(L.arange(6).reshape(2, 3)[:, ::2]),
    "bool": lambda L: np.from_dlpack(L.tensor([True, False])),
    "expand": lambda L: L.from_dlpack(L.utils.dlpack.to_dlpack(L.arange(3.).expand(2, 3))),
    "requires_grad": lambda L: np.from_dlpack(L.ones(2, requires_grad=True)),
    "requires_grad_from": lambda L: L.from_dlpack(L.ones(2, requires_grad=True)),
    "grad_to_dlpack": lambda L: L.from_dlpack(L.to_dlpack(L.ones(2, requires_grad=True))),
    "reuse": lambda L: [L.from_dlpack(c) for c in [L.to_dlpack(L.ones(1))] * 2],
    "not_a_capsule": lambda L: L.from_dlpack([1, 2]),
    "to_dlpack_array": lambda L: L.utils.dlpack.to_dlpack(np.arange(3)),
    "stream": lambda L: L.ones(2).__dlpack__(stream=1),
    "capsule_copy": lambda L: L.from_dlpack(L.to_dlpack(L.ones(2)), copy=True),
    "from_numpy": lambda L: L.from_dlpack(np.arange(4, dtype=np.int16)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome(name):
    import ember.utils.dlpack  # noqa: F401
    import torch.utils.dlpack  # noqa: F401
    assert outcome(ember, CASES[name]) == outcome(torch, CASES[name])


@pytest.mark.parametrize("lib", ["torch", "ember"])
def test_capsule_and_numpy_share_memory(lib):
    L = torch if lib == "torch" else ember
    t = L.arange(4.)
    u = L.from_dlpack(L.to_dlpack(t))
    a = np.from_dlpack(t)
    u[0] = 9
    a[1] = -1
    assert t.tolist() == [9., -1., 2., 3.] and u.data_ptr() == t.data_ptr()


def test_dlpack_device_is_the_same():
    assert ember.ones(1).__dlpack_device__() == torch.ones(1).__dlpack_device__()
    assert repr(ember.ones(1).__dlpack_device__()[0]) == repr(torch.ones(1).__dlpack_device__()[0])
