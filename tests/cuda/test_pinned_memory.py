"""Pinned host memory (Tensor.pin_memory/is_pinned, factories' pin_memory=, DataLoader's
pin_memory=True), non_blocking copies, and the CUDA Array Interface (Tensor's
`__cuda_array_interface__`, tensors made from other libraries' GPU arrays).

Tests taking `gpu` run on a real GPU where there is one and on the fake CuPy elsewhere; those
taking `fake_cuda` look inside the fake (its pinned allocations, which copy it was asked for).
"""
import collections

import numpy as np
import pytest

import ember
from ember import _pinned, cuda
from ember.utils.data import DataLoader, TensorDataset
from ember.utils.data._utils.pin_memory import pin_memory as pin_batch


# -- Tensor.pin_memory / is_pinned ----------------------------------------------------------------

def test_pin_memory_copies_into_pinned_memory(fake_cuda):
    x = ember.arange(8.)
    before = len(fake_cuda._pinned_allocations)
    p = x.pin_memory()
    assert len(fake_cuda._pinned_allocations) == before + 1
    assert p.is_pinned() and not x.is_pinned() and p.device == ember.device("cpu")
    assert p.tolist() == x.tolist() and p.dtype == x.dtype
    assert p.data_ptr() != x.data_ptr()
    p[0] = 5.                                   # a copy: x is untouched
    assert x[0].item() == 0.


def test_views_of_pinned_memory_are_pinned(gpu):
    p = ember.arange(12.).pin_memory()
    for view in (p[2:], p.reshape(3, 4), p.reshape(3, 4).t(), p.view(ember.int32), p[::2],
                 p.detach(), ember.from_numpy(p.numpy())):
        assert view.is_pinned()
    assert not p.clone().is_pinned() and not (p + 1).is_pinned()


def test_pin_memory_of_a_pinned_tensor_is_itself(gpu):
    p = ember.ones(3).pin_memory()
    assert p.pin_memory() is p
    view = p[1:]
    assert view.pin_memory() is view


def test_pin_memory_keeps_the_layout(gpu):
    x = ember.arange(6.).reshape(2, 3).t()
    p = x.pin_memory()
    assert p.stride() == x.stride() == (1, 3) and p.tolist() == x.tolist()
    for dtype in (ember.bool, ember.uint8, ember.int64, ember.float16, ember.bfloat16,
                  ember.complex64):
        y = ember.tensor([1, 0, 1], dtype=dtype)
        q = y.pin_memory()
        assert q.is_pinned() and q.dtype == dtype and q.tolist() == y.tolist()
    empty = ember.empty(0, 3).pin_memory()
    assert empty.is_pinned() and tuple(empty.shape) == (0, 3)
    scalar = ember.tensor(2.5).pin_memory()
    assert scalar.is_pinned() and scalar.item() == 2.5


def test_pin_memory_refuses_cuda_tensors(gpu):
    x = ember.ones(2, device="cuda")
    with pytest.raises(RuntimeError, match=r"cannot pin 'torch\.cuda\.FloatTensor' only dense "
                                           r"CPU tensors can be pinned"):
        x.pin_memory()
    assert x.is_pinned() is False


def test_pin_memory_passes_gradients_through(gpu):
    x = ember.tensor([1., 2.], requires_grad=True)
    p = x.pin_memory()
    assert p.is_pinned() and p.requires_grad and type(p.grad_fn).__name__ == "PinMemoryBackward0"
    (p * ember.tensor([3., 4.])).sum().backward()
    assert x.grad.tolist() == [3., 4.]
    with ember.no_grad():
        assert x.pin_memory().grad_fn is None


def test_memory_pinned_by_cupy_itself_counts(fake_cuda):
    memory = fake_cuda.cuda.alloc_pinned_memory(16)
    array = np.frombuffer(memory, np.float32, count=4)
    assert ember.from_numpy(array).is_pinned()
    assert not ember.from_numpy(np.frombuffer(bytearray(16), np.float32)).is_pinned()


def test_without_a_gpu_pinning_raises_as_torch_does():
    if cuda.is_available():
        pytest.skip("a GPU is available")
    x = ember.ones(2)
    assert x.is_pinned() is False
    with pytest.raises(RuntimeError, match="Cannot access accelerator device when none is "
                                           "available."):
        x.pin_memory()
    for make in (lambda: ember.zeros(2, pin_memory=True),
                 lambda: ember.tensor([1.], pin_memory=True),
                 lambda: ember.empty_strided((2,), (1,), pin_memory=True),
                 lambda: ember.zeros_like(x, pin_memory=True)):
        with pytest.raises(RuntimeError, match="pin_memory=True requires a CUDA or other "
                                               "accelerator backend"):
            make()
    assert not ember.zeros(2, pin_memory=False).is_pinned()


# -- factories' pin_memory= -----------------------------------------------------------------------

_FACTORIES = {
    "zeros": lambda **kw: ember.zeros(2, 3, **kw),
    "ones": lambda **kw: ember.ones(2, 3, **kw),
    "empty": lambda **kw: ember.empty(2, 3, **kw),
    "full": lambda **kw: ember.full((2, 3), 1.5, **kw),
    "tensor": lambda **kw: ember.tensor([[1., 2., 3.], [4., 5., 6.]], **kw),
    "arange": lambda **kw: ember.arange(6., **kw),
    "linspace": lambda **kw: ember.linspace(0., 1., 5, **kw),
    "logspace": lambda **kw: ember.logspace(0., 1., 5, **kw),
    "eye": lambda **kw: ember.eye(3, **kw),
    "empty_strided": lambda **kw: ember.empty_strided((2, 3), (1, 2), **kw),
    "zeros_like": lambda **kw: ember.zeros_like(ember.ones(2, 3), **kw),
    "ones_like": lambda **kw: ember.ones_like(ember.ones(2, 3), **kw),
    "empty_like": lambda **kw: ember.empty_like(ember.ones(2, 3), **kw),
    "full_like": lambda **kw: ember.full_like(ember.ones(2, 3), 7., **kw),
    "new_zeros": lambda **kw: ember.ones(1).new_zeros(2, 3, **kw),
    "new_ones": lambda **kw: ember.ones(1).new_ones(2, 3, **kw),
    "new_empty": lambda **kw: ember.ones(1).new_empty(2, 3, **kw),
    "new_full": lambda **kw: ember.ones(1).new_full((2, 3), 2., **kw),
    "new_tensor": lambda **kw: ember.ones(1).new_tensor([1., 2.], **kw),
    "rand": lambda **kw: ember.rand(2, 3, generator=ember.Generator().manual_seed(0), **kw),
    "randn": lambda **kw: ember.randn(2, 3, generator=ember.Generator().manual_seed(0), **kw),
    "normal": lambda **kw: ember.normal(1., 2., (2, 3), generator=ember.Generator().manual_seed(0),
                                        **kw),
    "randint": lambda **kw: ember.randint(5, (2, 3), generator=ember.Generator().manual_seed(0),
                                          **kw),
    "randperm": lambda **kw: ember.randperm(6, generator=ember.Generator().manual_seed(0), **kw),
}


@pytest.mark.parametrize("name", list(_FACTORIES))
def test_factories_pin_on_request(gpu, name):
    make = _FACTORIES[name]
    plain = make()
    pinned = make(pin_memory=True)
    assert pinned.is_pinned() and not plain.is_pinned()
    assert pinned.device == ember.device("cpu") and pinned.dtype == plain.dtype
    assert pinned.shape == plain.shape and pinned.stride() == plain.stride()
    if name not in ("empty", "empty_strided", "empty_like", "new_empty"):
        assert pinned.tolist() == plain.tolist()
    if pinned.dtype.is_floating_point:
        leaf = make(pin_memory=True, requires_grad=True)
        assert leaf.is_pinned() and leaf.requires_grad and leaf.is_leaf


@pytest.mark.parametrize("name", ["zeros", "tensor", "arange", "empty_strided", "zeros_like",
                                  "randn"])
def test_factories_refuse_to_pin_cuda_tensors(gpu, name):
    make = (lambda **kw: ember.randn(2, **kw)) if name == "randn" else _FACTORIES[name]
    with pytest.raises(RuntimeError, match="Only dense CPU tensors can be pinned"):
        make(pin_memory=True, device="cuda")


# -- DataLoader(pin_memory=True) ------------------------------------------------------------------

def test_data_loader_pins_its_batches(gpu):
    data = TensorDataset(ember.arange(8.), ember.arange(8))
    batches = list(DataLoader(data, batch_size=4, pin_memory=True))
    assert len(batches) == 2
    for i, (x, y) in enumerate(batches):
        assert x.is_pinned() and y.is_pinned()
        assert x.tolist() == [4. * i + k for k in range(4)]
        assert y.tolist() == [4 * i + k for k in range(4)]
    assert not any(x.is_pinned() for x, _ in DataLoader(data, batch_size=4))


Pair = collections.namedtuple("Pair", "a b")


def test_pinning_walks_the_batch(gpu):
    t = ember.ones(2)
    batch = {"x": t, "rest": [t, (t, "name")], "pair": Pair(t, 3), "s": "text", "n": None,
             "ordered": collections.OrderedDict(y=t)}
    out = pin_batch(batch)
    assert out["x"].is_pinned() and out["rest"][0].is_pinned()
    assert isinstance(out["rest"][1], tuple) and out["rest"][1][0].is_pinned()
    assert out["rest"][1][1] == "name" and out["s"] == "text" and out["n"] is None
    assert isinstance(out["pair"], Pair) and out["pair"].a.is_pinned() and out["pair"].b == 3
    assert isinstance(out["ordered"], collections.OrderedDict) and out["ordered"]["y"].is_pinned()
    assert not t.is_pinned()

    class Custom:
        def pin_memory(self):
            return "pinned"
    assert pin_batch([Custom()]) == ["pinned"]


def test_data_loader_pins_dict_batches(gpu):
    samples = [{"x": ember.tensor([float(i)]), "label": i} for i in range(4)]
    for batch in DataLoader(samples, batch_size=2, pin_memory=True):
        assert batch["x"].is_pinned() and batch["label"].is_pinned()


# -- non_blocking copies --------------------------------------------------------------------------

def _spy(monkeypatch, owner, name):
    calls = []
    original = getattr(owner, name)

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, spy)
    return calls


def test_non_blocking_upload_from_pinned_memory_is_queued(fake_cuda, monkeypatch):
    sets = _spy(monkeypatch, fake_cuda.ndarray, "set")
    p = ember.arange(6.).reshape(2, 3).pin_memory()
    y = p.to("cuda", non_blocking=True)
    assert len(sets) == 1 and sets[0]["stream"] is fake_cuda.cuda.get_current_stream()
    cuda.synchronize()
    assert y.is_cuda and y.cpu().tolist() == p.tolist()
    w = p.cuda(non_blocking=True)
    assert len(sets) == 2 and w.is_cuda
    cuda.synchronize()
    assert w.cpu().tolist() == p.tolist()
    with cuda.stream(cuda.Stream()) as s:
        p.to("cuda", non_blocking=True)
        assert sets[-1]["stream"].ptr == s.cuda_stream


def test_non_blocking_without_pinned_memory_is_a_plain_copy(fake_cuda, monkeypatch):
    sets = _spy(monkeypatch, fake_cuda.ndarray, "set")
    x = ember.arange(6.)
    assert x.to("cuda", non_blocking=True).cpu().tolist() == x.tolist()
    p = ember.arange(6.).reshape(2, 3).pin_memory().t()          # pinned but strided
    assert p.to("cuda", non_blocking=True).cpu().tolist() == p.tolist()
    q = ember.arange(3).pin_memory()                           # pinned, but a dtype change
    assert q.to("cuda", ember.float32, non_blocking=True).cpu().tolist() == [0., 1., 2.]
    assert sets == []
    assert x.to("cuda", non_blocking=False).cpu().tolist() == x.tolist()


def test_non_blocking_download_lands_in_pinned_memory(gpu):
    y = ember.arange(2**10, dtype=ember.float32, device="cuda").mul_(3)
    z = y.to("cpu", non_blocking=True)
    cuda.synchronize()
    assert z.device == ember.device("cpu") and z.is_pinned()
    assert z.tolist() == [3. * k for k in range(2**10)]
    plain = y.to("cpu")
    assert not plain.is_pinned() and plain.tolist() == z.tolist()
    strided = y.reshape(32, 32).t().to("cpu", non_blocking=True)      # a plain copy
    cuda.synchronize()
    assert strided.tolist() == plain.reshape(32, 32).t().tolist()
    cast = y.to("cpu", ember.float64, non_blocking=True)
    cuda.synchronize()
    assert cast.dtype == ember.float64 and cast.tolist() == plain.tolist()


def test_non_blocking_copies_hold_their_arrays_until_done(fake_cuda):
    p = ember.ones(4).pin_memory()
    y = p.to("cuda", non_blocking=True)
    assert any(p._data is a or y._data is b for _, (a, b) in _pinned._in_flight)
    p.to("cuda", non_blocking=True)             # the fake's events are done at once: purged
    assert len(_pinned._in_flight) == 1


def test_to_reads_non_blocking_and_copy_positionally():
    x = ember.ones(2)
    assert x.to(ember.float32, True) is x                    # (dtype, non_blocking)
    assert x.to(ember.float32, False, True) is not x         # (dtype, non_blocking, copy)
    assert x.to("cpu", ember.float32, True) is x
    assert x.to("cpu", ember.float32, True, True) is not x
    other = ember.zeros(1)
    assert x.to(other, True) is x and x.to(other, True, True) is not x


# -- __cuda_array_interface__ ---------------------------------------------------------------------

def test_cuda_array_interface_describes_the_memory(gpu):
    t = ember.arange(6., device="cuda")
    info = t.__cuda_array_interface__
    assert info == {"typestr": "<f4", "shape": (6,), "strides": None,
                    "data": (t.data_ptr(), False), "version": 2}
    view = ember.arange(12., device="cuda").reshape(3, 4).t()
    assert view.__cuda_array_interface__["strides"] == (4, 16)
    assert view.__cuda_array_interface__["shape"] == (4, 3)
    part = ember.arange(12, device="cuda")[3:]
    assert part.__cuda_array_interface__["data"][0] == part.data_ptr()
    assert part.__cuda_array_interface__["typestr"] == "<i8"
    assert ember.ones(2, dtype=ember.bool, device="cuda").__cuda_array_interface__[
        "typestr"] == "|b1"
    assert ember.ones(0, device="cuda").__cuda_array_interface__["data"] == (0, False)


def test_cuda_array_interface_refusals(gpu):
    t = ember.ones(2, device="cuda", requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't get __cuda_array_interface__ on Variable that "
                                           "requires grad. If gradients aren't required, use "
                                           r"var.detach\(\)"):
        t.__cuda_array_interface__
    assert t.detach().__cuda_array_interface__["shape"] == (2,)
    cpu = ember.ones(2)
    with pytest.raises(AttributeError, match=r"Can't get __cuda_array_interface__ on non-CUDA "
                                             r"tensor type: torch\.FloatTensor If CUDA data is "
                                             r"required use tensor\.cuda\(\) to copy tensor to "
                                             r"device memory\."):
        cpu.__cuda_array_interface__
    assert not hasattr(cpu, "__cuda_array_interface__")
    assert hasattr(cpu.cuda(), "__cuda_array_interface__")


def test_cupy_views_a_tensor_through_the_interface(gpu):
    t = ember.arange(6., device="cuda")
    c = gpu.asarray(t)
    assert c.data.ptr == t.data_ptr() and c.shape == (6,) and c.dtype == np.float32
    c[0] = 42.
    cuda.synchronize()
    assert t.cpu().tolist() == [42., 1., 2., 3., 4., 5.]


def test_as_tensor_shares_a_cupy_arrays_memory(gpu):
    c = gpu.arange(6, dtype=np.float32)
    t = ember.as_tensor(c)
    assert t.is_cuda and t.data_ptr() == c.data.ptr and t.dtype == ember.float32
    t.mul_(2)
    cuda.synchronize()
    assert gpu.asnumpy(c).tolist() == [0., 2., 4., 6., 8., 10.]
    strided = gpu.arange(12, dtype=np.float32).reshape(3, 4).T
    s = ember.as_tensor(strided)
    assert s.stride() == (1, 4) and s.data_ptr() == strided.data.ptr
    assert ember.asarray(c).data_ptr() == c.data.ptr
    moved = ember.as_tensor(c, dtype=ember.float64)
    assert moved.dtype == ember.float64 and moved.tolist() == [0., 2., 4., 6., 8., 10.]
    on_cpu = ember.as_tensor(c, device="cpu")
    assert on_cpu.device == ember.device("cpu") and on_cpu.tolist() == moved.tolist()


class _Exporter:
    """Another library's GPU array: only the interface (as Numba's device arrays give)."""

    def __init__(self, array):
        self._array = array
        self.__cuda_array_interface__ = array.__cuda_array_interface__


def test_as_tensor_and_tensor_take_any_exporter(gpu):
    c = gpu.arange(4, dtype=np.int32)
    shared = ember.as_tensor(_Exporter(c))
    assert shared.is_cuda and shared.data_ptr() == c.data.ptr and shared.dtype == ember.int32
    copied = ember.tensor(_Exporter(c))
    assert copied.is_cuda and copied.data_ptr() != c.data.ptr and copied.tolist() == [0, 1, 2, 3]
    f = ember.tensor(c, dtype=ember.float32, requires_grad=True)
    assert f.is_cuda and f.requires_grad and f.is_leaf and f.tolist() == [0., 1., 2., 3.]
    host = ember.tensor(c, device="cpu")
    assert host.device == ember.device("cpu") and host.tolist() == [0, 1, 2, 3]
    pinned = ember.tensor(c, device="cpu", pin_memory=True)
    assert pinned.is_pinned() and pinned.tolist() == [0, 1, 2, 3]
