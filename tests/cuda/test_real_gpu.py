"""ember on a real NVIDIA GPU through real CuPy: device queries, memory statistics and
out-of-memory, streams and events, zero-copy exchange with CuPy and torch, host-device
transfers, training against the CPU, checkpoints, autocast and the CUDA generator.

Every expectation is torch's behaviour on a CUDA build. The whole module is skipped unless
CuPy is installed and sees a GPU (CI has none; tests/cuda/test_cuda_paths.py runs the same
code paths on the fake CuPy). The tests are small and independent, so that a missing feature
fails one test and hides nothing else.
"""
import gc

import numpy as np
import pytest

import ember
from ember import cuda, nn


def _real_cupy():
    """CuPy when it is installed, imported as `cupy`, and sees at least one GPU; else None."""
    from ember.cuda import _backend
    cp = _backend.cupy_or_none()
    if cp is None or getattr(cp, "__name__", None) != "cupy" or not cuda.is_available():
        return None
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception:
        return None
    return cp if count > 0 else None


cupy = _real_cupy()
if cupy is None:
    pytest.skip("needs an NVIDIA GPU and CuPy", allow_module_level=True)

SAME_DEVICE = ("Expected all tensors to be on the same device, but found at least two devices, "
               "cuda:0 and cpu!")
MiB = 2**20


def _torch_cuda():
    """torch, when it is installed with a usable GPU (for the exchange tests); else skip."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no GPU")
    return torch


# -- device queries ----------------------------------------------------------------------------

def test_device_queries():
    assert cuda.is_available() is True
    assert cuda.device_count() >= 1
    assert cuda.current_device() == 0
    name = cuda.get_device_name()
    assert isinstance(name, str) and name
    assert "NVIDIA" in name or "H1" in name or "H2" in name, name
    assert cuda.get_device_name(0) == name == cuda.get_device_name("cuda:0")


def test_device_properties():
    props = cuda.get_device_properties(0)
    assert props.name == cuda.get_device_name(0)
    assert isinstance(props.total_memory, int) and props.total_memory > 2**30
    assert isinstance(props.major, int) and isinstance(props.minor, int)
    assert isinstance(props.multi_processor_count, int) and props.multi_processor_count > 0
    capability = cuda.get_device_capability()
    assert isinstance(capability, tuple) and len(capability) == 2
    assert all(isinstance(v, int) for v in capability)
    assert capability >= (7, 0) and capability == (props.major, props.minor)


def test_printing_shows_the_device():
    x = ember.tensor([1., 2.5], device="cuda")
    assert repr(x) == "tensor([1.0000, 2.5000], device='cuda:0')"
    assert str(ember.tensor([0, 1, 2]).cuda()) == "tensor([0, 1, 2], device='cuda:0')"


def test_numpy_of_a_cuda_tensor_raises():
    x = ember.ones(3, device="cuda")
    with pytest.raises(TypeError, match=r"^can't convert cuda:0 device type tensor to numpy\. "
                                        r"Use Tensor\.cpu\(\) to copy the tensor to host memory "
                                        r"first\.$"):
        x.numpy()
    assert x.cpu().numpy().tolist() == [1., 1., 1.]


def test_mixing_devices_raises():
    a, b = ember.ones(3, device="cuda"), ember.ones(3)
    with pytest.raises(RuntimeError) as info:
        a + b
    assert SAME_DEVICE in str(info.value)
    with pytest.raises(RuntimeError) as info:
        ember.matmul(a, b)
    assert "Expected all tensors to be on the same device" in str(info.value)


def test_placement_and_arithmetic():
    x = ember.arange(6., device="cuda").reshape(2, 3)
    assert x.is_cuda and x.device == ember.device("cuda", 0) and x.get_device() == 0
    y = (x * 2 + 1).sum(0)
    assert y.is_cuda and y.cpu().tolist() == [8., 12., 16.]
    assert (x @ x.T).cpu().tolist() == [[5., 14.], [14., 50.]]


# -- memory --------------------------------------------------------------------------------------

def test_memory_allocated_follows_a_tensor():
    x = ember.zeros(1, device="cuda")      # CUDA started before the first figure
    gc.collect()
    before = cuda.memory_allocated()
    t = ember.empty(2**20, device="cuda")  # 4 MiB of float32
    during = cuda.memory_allocated()
    assert during - before >= t.numel() * t.element_size() == 4 * MiB
    del t
    gc.collect()
    assert cuda.memory_allocated() == before
    assert x.cpu().item() == 0.


def test_peak_memory_and_reset():
    gc.collect()
    cuda.reset_peak_memory_stats()
    base = cuda.memory_allocated()
    assert cuda.max_memory_allocated() == base
    t = ember.ones(2 * 2**20, device="cuda")   # 8 MiB
    del t
    gc.collect()
    assert cuda.memory_allocated() == base
    assert cuda.max_memory_allocated() >= base + 8 * MiB
    cuda.reset_peak_memory_stats()
    assert cuda.max_memory_allocated() == base


def test_reserved_memory_and_empty_cache():
    t = ember.ones(4 * 2**20, device="cuda")   # 16 MiB
    assert cuda.memory_reserved() >= cuda.memory_allocated() >= 16 * MiB
    assert cuda.max_memory_reserved() >= cuda.memory_reserved()
    del t
    gc.collect()
    cached = cuda.memory_reserved()
    assert cached >= cuda.memory_allocated() + 16 * MiB    # freed blocks stay cached
    cuda.empty_cache()
    assert cuda.memory_reserved() <= cached - 16 * MiB
    assert cuda.memory_reserved() >= cuda.memory_allocated()


def test_mem_get_info():
    free, total = cuda.mem_get_info()
    assert isinstance(free, int) and isinstance(total, int)
    assert 0 < free <= total
    assert total == cuda.get_device_properties(0).total_memory
    assert cuda.mem_get_info(0)[1] == cuda.mem_get_info("cuda:0")[1] == total


def test_mem_get_info_sees_a_new_allocation():
    gc.collect()
    cuda.empty_cache()
    free_before, _ = cuda.mem_get_info()
    t = ember.empty(2**28, device="cuda")      # 1 GiB, not from the cache
    free_after, _ = cuda.mem_get_info()
    assert free_after <= free_before - 512 * MiB
    del t


def test_out_of_memory():
    assert ember.OutOfMemoryError is cuda.OutOfMemoryError
    assert issubclass(cuda.OutOfMemoryError, RuntimeError)
    with pytest.raises(cuda.OutOfMemoryError) as info:
        ember.empty(2**45, device="cuda")        # 128 TiB of float32
    assert isinstance(info.value, RuntimeError)
    assert str(info.value).startswith("CUDA out of memory. Tried to allocate "), str(info.value)
    assert cuda.memory_stats()["num_ooms"] >= 1
    # the device is still usable afterwards
    assert ember.ones(4, device="cuda").sum().item() == 4.


# -- streams and events --------------------------------------------------------------------------

def test_event_timing_of_a_matmul():
    n = 4096
    a = ember.ones(n, n, device="cuda")
    start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        c = a @ a
    end.record()
    end.synchronize()
    assert end.query()
    elapsed = start.elapsed_time(end)
    assert isinstance(elapsed, float) and 0. < elapsed < 60_000.
    assert c[0, 0].item() == float(n) and c[-1, -1].item() == float(n)


def test_work_runs_on_the_stream_it_is_queued_on():
    default = cuda.current_stream()
    assert default == cuda.default_stream()
    s = cuda.Stream()
    assert s != default and s.cuda_stream != 0 and s.device == ember.device("cuda", 0)
    x = ember.arange(1024., device="cuda")
    cuda.synchronize()
    with cuda.stream(s):
        assert cuda.current_stream() == s
        assert cupy.cuda.get_current_stream().ptr == s.cuda_stream
        y = x * 3
    assert cuda.current_stream() == default
    s.synchronize()
    assert s.query()
    np.testing.assert_array_equal(y.cpu().numpy(), np.arange(1024.) * 3)


def test_wait_stream_orders_work():
    s = cuda.Stream()
    x = ember.zeros(2**22, device="cuda")
    with cuda.stream(s):
        s.wait_stream(cuda.default_stream())
        x.add_(1)
    cuda.current_stream().wait_stream(s)
    total = x.sum().item()
    assert total == 2**22


def test_synchronize():
    x = ember.ones(2**20, device="cuda")
    y = x * 2
    cuda.synchronize()
    cuda.synchronize(0)
    cuda.synchronize("cuda:0")
    assert y.sum().item() == 2. * 2**20


# -- exchange with CuPy and torch ----------------------------------------------------------------

def test_cuda_array_interface():
    t = ember.arange(6., device="cuda")
    interface = t.__cuda_array_interface__
    assert interface["shape"] == (6,) and interface["typestr"] == "<f4"
    assert interface["data"] == (t.data_ptr(), False)
    assert interface["strides"] is None and interface["version"] >= 2
    view = ember.arange(12., device="cuda").reshape(3, 4).t()
    assert view.__cuda_array_interface__["strides"] == (4, 16)


def test_cuda_array_interface_refuses_tensors_that_require_grad():
    t = ember.ones(2, device="cuda", requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't get __cuda_array_interface__ on Variable that "
                                           "requires grad"):
        t.__cuda_array_interface__
    assert t.detach().__cuda_array_interface__["shape"] == (2,)


def test_cupy_asarray_shares_memory():
    t = ember.arange(6., device="cuda")
    c = cupy.asarray(t)
    assert c.data.ptr == t.data_ptr() and c.shape == (6,) and c.dtype == np.float32
    c[0] = 42.
    cupy.cuda.Device(0).synchronize()
    assert t.cpu().tolist() == [42., 1., 2., 3., 4., 5.]
    t.mul_(2)
    cuda.synchronize()
    assert cupy.asnumpy(c).tolist() == [84., 2., 4., 6., 8., 10.]


def test_cupy_from_dlpack_shares_memory():
    t = ember.arange(6., device="cuda")
    c = cupy.from_dlpack(t)
    assert c.data.ptr == t.data_ptr() and c.shape == (6,) and c.dtype == np.float32
    c[1] = -7.
    cupy.cuda.Device(0).synchronize()
    assert t.cpu().tolist() == [0., -7., 2., 3., 4., 5.]
    t.add_(1)
    cuda.synchronize()
    assert cupy.asnumpy(c).tolist() == [1., -6., 3., 4., 5., 6.]


def test_cupy_from_dlpack_of_a_transposed_view():
    t = ember.arange(12., device="cuda").reshape(3, 4).t()
    c = cupy.from_dlpack(t)
    assert c.shape == (4, 3) and c.strides == (4, 16) and c.data.ptr == t.data_ptr()
    np.testing.assert_array_equal(cupy.asnumpy(c), np.arange(12.).reshape(3, 4).T)


def test_ember_from_dlpack_of_cupy_shares_memory():
    a = cupy.arange(6, dtype=cupy.float32)
    t = ember.from_dlpack(a)
    assert t.device == ember.device("cuda", 0) and t.dtype == ember.float32
    assert t.data_ptr() == a.data.ptr and t.shape == (6,)
    t[0] = 100.
    cuda.synchronize()
    assert cupy.asnumpy(a).tolist() == [100., 1., 2., 3., 4., 5.]
    a[5] = -1.
    cupy.cuda.Device(0).synchronize()
    assert t.cpu().tolist() == [100., 1., 2., 3., 4., -1.]


def test_ember_from_dlpack_of_a_strided_cupy_array():
    a = cupy.arange(12, dtype=cupy.int64).reshape(3, 4).T
    t = ember.from_dlpack(a)
    assert t.shape == (4, 3) and t.stride() == (1, 4) and t.data_ptr() == a.data.ptr
    assert t.cpu().tolist() == np.arange(12).reshape(3, 4).T.tolist()


def test_utils_dlpack_capsule_round_trip():
    from ember.utils import dlpack
    t = ember.arange(4, dtype=ember.int32, device="cuda")
    capsule = dlpack.to_dlpack(t)
    u = dlpack.from_dlpack(capsule)
    assert u.device == t.device and u.dtype == ember.int32 and u.data_ptr() == t.data_ptr()
    u[2] = 9
    assert t.cpu().tolist() == [0, 1, 9, 3]
    c = cupy.from_dlpack(dlpack.to_dlpack(t))
    assert c.data.ptr == t.data_ptr() and cupy.asnumpy(c).tolist() == [0, 1, 9, 3]


def test_dlpack_device():
    from ember.utils.dlpack import DLDeviceType
    assert ember.ones(1, device="cuda").__dlpack_device__() == (DLDeviceType.kDLCUDA, 0)


def test_torch_from_dlpack_of_ember_shares_memory():
    torch = _torch_cuda()
    t = ember.arange(6., device="cuda")
    pt = torch.from_dlpack(t)
    assert pt.device == torch.device("cuda", 0) and pt.dtype == torch.float32
    assert pt.data_ptr() == t.data_ptr()
    pt[0] = 42.
    torch.cuda.synchronize()
    assert t.cpu().tolist() == [42., 1., 2., 3., 4., 5.]
    t.mul_(-1)
    cuda.synchronize()
    assert pt.cpu().tolist() == [-42., -1., -2., -3., -4., -5.]


def test_torch_from_dlpack_of_a_transposed_ember_view():
    torch = _torch_cuda()
    t = ember.arange(12., device="cuda").reshape(3, 4).t()
    pt = torch.from_dlpack(t)
    assert tuple(pt.shape) == (4, 3) and pt.stride() == (1, 4) == t.stride()
    assert pt.data_ptr() == t.data_ptr()
    assert pt.cpu().tolist() == t.cpu().tolist()
    pt[3, 0] = -1.          # element (0, 3) of the base
    torch.cuda.synchronize()
    assert t.cpu()[3, 0].item() == -1.


def test_ember_from_dlpack_of_torch_shares_memory():
    torch = _torch_cuda()
    pt = torch.arange(6., device="cuda")
    t = ember.from_dlpack(pt)
    assert t.device == ember.device("cuda", 0) and t.dtype == ember.float32
    assert t.data_ptr() == pt.data_ptr()
    t[5] = 50.
    cuda.synchronize()
    assert pt.cpu().tolist() == [0., 1., 2., 3., 4., 50.]
    pt.add_(1)
    torch.cuda.synchronize()
    assert t.cpu().tolist() == [1., 2., 3., 4., 5., 51.]


def test_ember_from_dlpack_of_a_transposed_torch_view():
    torch = _torch_cuda()
    pt = torch.arange(12., device="cuda").reshape(3, 4).t()
    t = ember.from_dlpack(pt)
    assert tuple(t.shape) == (4, 3) and t.stride() == (1, 4) == pt.stride()
    assert t.data_ptr() == pt.data_ptr()
    assert t.cpu().tolist() == pt.cpu().tolist()


# -- transfers ------------------------------------------------------------------------------------

def test_pin_memory_gives_a_pinned_tensor():
    x = ember.arange(8.)
    assert not x.is_pinned()
    p = x.pin_memory()
    assert p.is_pinned() and p.device == ember.device("cpu")
    assert p.tolist() == x.tolist()


def test_non_blocking_transfer_from_pinned_memory():
    p = ember.ones(2**20).mul_(3).pin_memory()
    y = p.to("cuda", non_blocking=True)
    assert y.is_cuda
    cuda.synchronize()
    assert y.sum().item() == 3. * 2**20
    z = y.to("cpu", non_blocking=True)
    cuda.synchronize()
    assert z.device == ember.device("cpu") and z.sum().item() == 3. * 2**20
    w = p.cuda(non_blocking=True)
    cuda.synchronize()
    assert (w == 3.).all().item()


_ROUND_TRIP = [
    (ember.float16, [0., 1.5, -2.25, 65504.]),
    (ember.float32, [0., 1.5, -2.25, 3.0e38, 1e-30]),
    (ember.float64, [0., 1.5, -2.25, 1e300, 1e-300]),
    (ember.int8, [-128, 0, 127]),
    (ember.int16, [-2**15, 0, 2**15 - 1]),
    (ember.int32, [-2**31, 0, 2**31 - 1]),
    (ember.int64, [-2**63, 0, 2**63 - 1]),
    (ember.uint8, [0, 1, 255]),
    (ember.bool, [True, False, True]),
    (ember.complex64, [1 + 2j, -0.5j, 3.]),
    (ember.complex128, [1 + 2j, -0.5j, 1e300]),
    (ember.bfloat16, [0., 1.5, -2.25, 256.]),
]


@pytest.mark.parametrize("dtype, values", _ROUND_TRIP, ids=[str(d) for d, _ in _ROUND_TRIP])
def test_cpu_round_trip_keeps_values(dtype, values):
    x = ember.tensor(values, dtype=dtype)
    y = x.to("cuda")
    assert y.is_cuda and y.dtype == dtype
    back = y.cpu()
    assert back.device == ember.device("cpu") and back.dtype == dtype
    assert back.tolist() == x.tolist()
    direct = ember.tensor(values, dtype=dtype, device="cuda")
    assert direct.dtype == dtype and direct.cpu().tolist() == x.tolist()


def test_data_loader_pins_batches():
    from ember.utils.data import DataLoader, TensorDataset
    data = TensorDataset(ember.arange(8.), ember.arange(8))
    batches = list(DataLoader(data, batch_size=4, pin_memory=True))
    assert len(batches) == 2
    for i, (x, y) in enumerate(batches):
        assert x.is_pinned() and y.is_pinned()
        assert x.tolist() == [4. * i + k for k in range(4)]
        assert y.tolist() == [4 * i + k for k in range(4)]


# -- training against the CPU ---------------------------------------------------------------------

def _regression_data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((256, 8)).astype(np.float32)
    w = rng.standard_normal((8, 1)).astype(np.float32)
    y = (x @ w + 0.1 * np.sin(3 * x[:, :1])).astype(np.float32)
    return ember.tensor(x), ember.tensor(y)


def _train(device, state, x, y):
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    model.load_state_dict(state)
    model.to(device)
    x, y = x.to(device), y.to(device)
    opt = ember.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(50):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return model, loss.item()


def test_training_on_cuda_agrees_with_the_cpu():
    ember.manual_seed(0)
    init = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    state = {k: v.clone() for k, v in init.state_dict().items()}
    x, y = _regression_data()
    initial_loss = nn.functional.mse_loss(init(x), y).item()
    gpu_model, gpu_loss = _train("cuda", state, x, y)
    cpu_model, cpu_loss = _train("cpu", state, x, y)
    assert all(p.is_cuda for p in gpu_model.parameters())
    assert gpu_loss < 0.15 < 0.1 * initial_loss, (initial_loss, gpu_loss)   # CPU: 5.36 -> 0.078
    assert abs(gpu_loss - cpu_loss) <= 1e-3 * (1 + cpu_loss)
    gpu_state, cpu_state = gpu_model.state_dict(), cpu_model.state_dict()
    for name, value in cpu_state.items():
        np.testing.assert_allclose(gpu_state[name].detach().cpu().numpy(), value.numpy(),
                                   rtol=1e-3, atol=1e-3, err_msg=name)


def test_conv_batchnorm_maxpool_agree_with_the_cpu():
    ember.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.MaxPool2d(2))
    state = {k: v.clone() for k, v in model.state_dict().items()}
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((4, 3, 16, 16)).astype(np.float32)
    weights = ember.tensor(rng.standard_normal((4, 8, 8, 8)).astype(np.float32))
    results = {}
    for dev in ("cpu", "cuda"):
        m = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.MaxPool2d(2))
        m.load_state_dict(state)
        m.to(dev)
        x = ember.tensor(x_np, device=dev, requires_grad=True)
        out = m(x)
        assert out.device.type == dev and tuple(out.shape) == (4, 8, 8, 8)
        (out * weights.to(dev)).sum().backward()
        results[dev] = [out.detach(), x.grad, m[0].weight.grad, m[0].bias.grad, m[1].weight.grad,
                        m[1].bias.grad, m[1].running_mean, m[1].running_var]
    for got, want in zip(results["cuda"], results["cpu"]):
        assert got.is_cuda
        np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-3, atol=1e-3)


def test_save_and_load_a_cuda_state_dict(tmp_path):
    ember.manual_seed(0)
    model = nn.Linear(4, 3).to("cuda")
    path = tmp_path / "model.pt"
    ember.save(model.state_dict(), path)
    want = {k: v.cpu().tolist() for k, v in model.state_dict().items()}
    on_cpu = ember.load(path, map_location="cpu")
    assert {k: v.device for k, v in on_cpu.items()} == {k: ember.device("cpu") for k in want}
    assert {k: v.tolist() for k, v in on_cpu.items()} == want
    on_gpu = ember.load(path, map_location="cuda:0")
    assert all(v.device == ember.device("cuda", 0) for v in on_gpu.values())
    assert {k: v.cpu().tolist() for k, v in on_gpu.items()} == want
    restored = ember.load(path)                    # back where it was saved
    assert all(v.device == ember.device("cuda", 0) for v in restored.values())
    fresh = nn.Linear(4, 3).to("cuda")
    fresh.load_state_dict(on_cpu)                  # copies into the CUDA parameters
    assert fresh.weight.is_cuda and fresh.weight.cpu().tolist() == want["weight"]


def test_autocast_gives_a_float16_matmul():
    rng = np.random.default_rng(0)
    a_np, b_np = rng.standard_normal((2, 64, 32)), rng.standard_normal((32, 16))
    a = ember.tensor(a_np, dtype=ember.float32, device="cuda")
    b = ember.tensor(b_np, dtype=ember.float32, device="cuda")
    with ember.autocast("cuda", dtype=ember.float16):
        c = a @ b
        d = ember.nn.functional.linear(a, b.t())
    assert c.dtype == ember.float16 and c.is_cuda and d.dtype == ember.float16
    assert (a @ b).dtype == ember.float32
    np.testing.assert_allclose(c.float().cpu().numpy(), a_np @ b_np, rtol=1e-2, atol=3e-2)


# -- the CUDA generator --------------------------------------------------------------------------

def test_cuda_manual_seed_replays():
    cuda.manual_seed(0)
    a = ember.rand(5, device="cuda")
    cuda.manual_seed(0)
    b = ember.rand(5, device="cuda")
    assert a.is_cuda and a.cpu().tolist() == b.cpu().tolist()
    values = a.cpu().numpy()
    assert ((values >= 0) & (values < 1)).all() and len(set(values.tolist())) == 5
    c = ember.rand(5, device="cuda")
    assert c.cpu().tolist() != a.cpu().tolist()


def test_cuda_draws_leave_the_cpu_generator_alone():
    ember.manual_seed(3)
    want = ember.rand(3).tolist()
    ember.manual_seed(3)
    ember.rand(5, device="cuda")
    ember.randn(5, device="cuda")
    assert ember.rand(3).tolist() == want


def test_cpu_seed_does_not_fix_cuda_draws_alone():
    # torch: the CUDA generator is its own; seeding it differently changes CUDA draws even
    # though the CPU generator is seeded the same.
    ember.manual_seed(0)
    cuda.manual_seed(1)
    a = ember.rand(5, device="cuda").cpu().tolist()
    ember.manual_seed(0)
    cuda.manual_seed(2)
    b = ember.rand(5, device="cuda").cpu().tolist()
    assert a != b


def test_cuda_rng_state_replays():
    cuda.manual_seed(123)
    ember.rand(7, device="cuda")
    state = cuda.get_rng_state()
    assert state.dtype == ember.uint8 and state.device == ember.device("cpu")
    first = ember.rand(5, device="cuda").cpu().tolist()
    second = ember.randn(4, device="cuda").cpu().tolist()
    cuda.set_rng_state(state)
    assert ember.rand(5, device="cuda").cpu().tolist() == first
    assert ember.randn(4, device="cuda").cpu().tolist() == second
