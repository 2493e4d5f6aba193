"""ember's CUDA code paths: placement and transfers, printing, torch's device errors, autograd
and nn on 'cuda', memory statistics and out-of-memory, streams and events, device contexts,
generator states, ember.accelerator.

Tests taking `gpu` run on a real GPU where there is one and on the fake CuPy
(tests/cuda/fake_cupy.py) elsewhere; those taking `fake_cuda` check the fake's own numbers (two
devices, its memory pool) and run only on it. Parts that need a second GPU check
`cuda.device_count()`."""
import time

import numpy as np

import pytest

import ember
from ember import cuda

SAME_DEVICE = "Expected all tensors to be on the same device, but found at least two devices, "


def _two_gpus():
    return cuda.device_count() >= 2


def _tol(gpu, fake):
    """float64 tolerance between CPU and GPU results: the fake runs NumPy's own code, a real
    GPU's kernels round differently (summation order, their own exp/tanh)."""
    return fake if gpu.__name__.endswith("fake_cupy") else max(fake, 1e-7)


def test_placement_and_transfers(gpu):
    x = ember.arange(6.).reshape(2, 3)
    for y in (x.cuda(), x.to("cuda"), x.to(ember.device("cuda", 0)), x.cuda(0)):
        assert not isinstance(y._data, np.ndarray) and isinstance(y._data, gpu.ndarray)
        assert y.device == ember.device("cuda", 0) and y.is_cuda and not y.is_cpu
        assert y.get_device() == 0 and x.get_device() == -1
        np.testing.assert_array_equal(y.cpu().numpy(), x.numpy())
    y = x.cuda()
    assert y.cuda() is y and y.to("cuda:0") is y
    if _two_gpus():
        z = x.to("cuda:1")
        assert z.device == ember.device("cuda:1") and z._data.device.id == 1
        assert x.cuda(1).get_device() == 1 and x.to(z).device == z.device
        assert z.cuda(0).get_device() == 0 and z.to(y).device == y.device
    w = ember.tensor([1.5, 2.5], device="cuda")
    assert w.is_cuda and w.cpu().tolist() == [1.5, 2.5]
    assert w.cpu().device == ember.device("cpu")


def test_printing(gpu):
    x = ember.tensor([1., 2.5]).cuda()
    assert repr(x) == "tensor([1.0000, 2.5000], device='cuda:0')"
    assert repr(ember.tensor([0, 1, 2]).cuda()) == "tensor([0, 1, 2], device='cuda:0')"
    if _two_gpus():
        assert repr(ember.tensor([0, 1, 2]).cuda(1)) == "tensor([0, 1, 2], device='cuda:1')"
    assert repr(x.requires_grad_()) == \
        "tensor([1.0000, 2.5000], device='cuda:0', requires_grad=True)"


def test_device_errors(gpu):
    a, b = ember.ones(3).cuda(), ember.ones(3)
    for f in (lambda: a + b, lambda: b * a, lambda: ember.matmul(a, b)):
        with pytest.raises(RuntimeError, match=SAME_DEVICE + "cuda:0 and cpu!"):
            f()
    if _two_gpus():
        with pytest.raises(RuntimeError, match=SAME_DEVICE + "cuda:0 and cuda:1!"):
            a + ember.ones(3).cuda(1)
    assert (a + ember.tensor(2.)).cpu().tolist() == [3., 3., 3.]   # CPU 0-dim tensors mix
    with pytest.raises(TypeError, match=r"^can't convert cuda:0 device type tensor to numpy\. "
                                        r"Use Tensor\.cpu\(\) to copy the tensor to host memory "
                                        r"first\.$"):
        a.numpy()
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array"):
        np.asarray(a._data)           # CuPy (and the fake) refuse to convert implicitly


def test_math_and_autograd_agree_with_cpu(gpu):
    rng = np.random.default_rng(0)
    a_np, b_np = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    results = {}
    for dev in ("cpu", "cuda"):
        a = ember.tensor(a_np, device=dev, requires_grad=True)
        b = ember.tensor(b_np, device=dev, requires_grad=True)
        loss = (ember.tanh(a @ b) ** 2).sum() + a.exp().mean()
        loss.backward()
        assert a.grad.device.type == dev and b.grad.device.type == dev
        results[dev] = (loss.item(), a.grad.cpu().numpy(), b.grad.cpu().numpy())
    for got, want in zip(results["cuda"], results["cpu"]):
        np.testing.assert_allclose(got, want, rtol=_tol(gpu, 1e-12))
    # against a NumPy reference for the loss
    want = (np.tanh(a_np @ b_np) ** 2).sum() + np.exp(a_np).mean()
    assert abs(results["cuda"][0] - want) < _tol(gpu, 1e-12)


def test_module_and_optimizer_on_cuda(gpu):
    ember.manual_seed(0)
    model = ember.nn.Linear(3, 2)
    cpu_model = ember.nn.Linear(3, 2)
    cpu_model.load_state_dict(model.state_dict())
    model.to("cuda")
    assert all(p.is_cuda for p in model.parameters())
    x = ember.arange(6.).reshape(2, 3)
    for m, inp in ((model, x.cuda()), (cpu_model, x)):
        opt = ember.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
        for _ in range(2):
            opt.zero_grad()
            ember.nn.functional.mse_loss(m(inp), ember.ones(2, 2, device=inp.device)).backward()
            opt.step()
    np.testing.assert_allclose(model.weight.detach().cpu().numpy(),
                               cpu_model.weight.detach().numpy(), rtol=1e-5)


def test_peaks_sample_the_pool_only_when_a_new_peak_is_possible(fake_cuda, monkeypatch):
    # NOTE [ Peaks without sampling every allocation ] in ember/cuda/memory.py: CuPy's
    # used_bytes() walks every live block, so it must not run at each allocation
    keep = [ember.zeros(2**18, device="cuda") for _ in range(4)]      # 4 MiB, the peak so far
    cuda.reset_peak_memory_stats()
    base = cuda.memory_allocated()
    del keep[:3]                                    # 3 MiB below the peak
    ember.ones(100, device="cuda")                  # (samples: the bound was at the peak)
    pool = fake_cuda.get_default_memory_pool()
    calls = []
    real = pool.used_bytes
    monkeypatch.setattr(pool, "used_bytes", lambda: calls.append(1) or real())
    for _ in range(50):                             # 50 small tensors made and freed
        ember.ones(100, device="cuda") + 1
    assert calls == []                              # no new peak was possible: no sample
    grown = [ember.zeros(2**18, device="cuda") for _ in range(5)]   # 5 MiB: a new peak
    assert calls                                    # sampled once the bound passed the peak
    peak = base - 3 * 2**20 + 5 * 2**20
    assert cuda.max_memory_allocated() == peak
    del grown
    assert cuda.max_memory_allocated() == peak      # kept after the frees
    for _ in range(3):                              # 2 MiB made and freed: below the peak
        ember.zeros(2**19, device="cuda")
    assert cuda.max_memory_allocated() == peak
    big = ember.zeros(3 * 2**19, device="cuda")     # 6 MiB on top of 1 MiB: a new peak
    del big
    assert cuda.max_memory_allocated() == base - 3 * 2**20 + 6 * 2**20


def test_memory_statistics(fake_cuda):
    assert not cuda.is_initialized() and cuda.memory_stats() == {}
    assert cuda.memory_allocated() == 0
    x = ember.zeros(1000, device="cuda")          # 4000 bytes: one 4096-byte block
    assert cuda.is_initialized()
    base = cuda.memory_allocated()
    y = ember.zeros(2**18, device="cuda")         # 1 MiB
    assert cuda.memory_allocated() == base + 2**20
    assert cuda.memory_allocated("cuda:0") == cuda.memory_allocated(0) == base + 2**20
    del y
    assert cuda.memory_allocated() == base
    assert cuda.max_memory_allocated() >= base + 2**20
    assert cuda.memory_reserved() >= base + 2**20       # the freed block is cached
    cuda.empty_cache()
    assert cuda.memory_reserved() == base
    assert cuda.max_memory_reserved() >= base + 2**20
    cuda.reset_peak_memory_stats()
    assert cuda.max_memory_allocated() == base and cuda.max_memory_reserved() == base
    stats = cuda.memory_stats()
    assert list(stats) == sorted(stats)
    assert stats["allocated_bytes.all.current"] == base
    assert stats["allocated_bytes.all.allocated"] - stats["allocated_bytes.all.freed"] == base
    assert stats["num_ooms"] == 0
    assert cuda.memory_allocated(1) == 0
    on_1 = ember.ones(10).cuda(1)
    assert cuda.memory_allocated(1) == 512 and cuda.max_memory_allocated(1) == 512
    assert cuda.memory_allocated(0) == base
    del on_1
    free, total = cuda.mem_get_info()
    with fake_cuda.cuda.Device(0):      # (CuPy's own current device is where ember last worked)
        reserved = fake_cuda.get_default_memory_pool().total_bytes()
    assert total == 16 * 2**30 and free == total - reserved
    del x
    with pytest.raises(ValueError, match="Expected a cuda device, but got: cpu"):
        cuda.memory_allocated("cpu")


def test_out_of_memory(fake_cuda):
    held = ember.zeros(1, device="cuda")
    fake_cuda.get_default_memory_pool().set_limit(size=4 * 2**20)
    with pytest.raises(ember.OutOfMemoryError) as info:
        ember.zeros(2**21, device="cuda")          # 8 MiB
    assert isinstance(info.value, RuntimeError)
    assert str(info.value).startswith(
        "CUDA out of memory. Tried to allocate 8.00 MiB. GPU 0 has a total capacity of "
        "16.00 GiB of which ")
    assert "Of the allocated memory 512 bytes is allocated by PyTorch" in str(info.value)
    assert cuda.memory_stats()["num_ooms"] == 1 and held.cpu().item() == 0.0


def test_streams_and_events(gpu):
    default = cuda.default_stream()
    assert default.cuda_stream == 0 and cuda.current_stream() == default
    s = cuda.Stream()
    assert s.device == ember.device("cuda", 0) and s.cuda_stream != 0 and s != default
    assert repr(s) == f"<torch.cuda.Stream device=cuda:0 cuda_stream={hex(s.cuda_stream)}>"
    with cuda.stream(s):
        assert cuda.current_stream() == s
        y = ember.ones(4, device="cuda") * 3
    assert cuda.current_stream() == default
    s.synchronize()           # (on a real GPU, s's work may still run until then)
    assert s.query() and y.sum().item() == 12.0
    start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
    assert repr(start) == "<torch.cuda.Event uninitialized>" and start.query()
    start.record()
    time.sleep(0.02)
    end.record(s)
    end.synchronize()
    assert end.query() and repr(end).startswith("<torch.cuda.Event 0x")
    assert 15.0 <= start.elapsed_time(end) < 2000.0
    plain = cuda.Event()
    plain.record()
    with pytest.raises(RuntimeError, match="^Both events must be created with argument "
                                           "'enable_timing=True'.$"):
        plain.elapsed_time(end)
    with pytest.raises(RuntimeError, match="^Both events must be recorded before calculating "
                                           "elapsed time.$"):
        start.elapsed_time(cuda.Event(enable_timing=True))
    ev = s.record_event()
    assert isinstance(ev, cuda.Event) and ev.query()
    default.wait_event(ev)
    default.wait_stream(s)
    ev.wait()
    cuda.set_stream(s)
    assert cuda.current_stream() == s
    cuda.set_stream(default)
    if _two_gpus():
        assert cuda.Stream(device=1).device == ember.device("cuda", 1)


def test_device_contexts_and_queries(fake_cuda):
    assert not cuda.is_initialized()
    cuda.init()
    assert cuda.is_initialized()
    assert cuda.is_available() and cuda.device_count() == 2 and cuda.current_device() == 0
    with cuda.device(1):
        assert cuda.current_device() == 1
        assert ember.ones(2).cuda().device == ember.device("cuda", 1)
        with cuda.device(-1):
            assert cuda.current_device() == 1
    assert cuda.current_device() == 0
    t = ember.ones(1).cuda(1)
    with cuda.device_of(t):
        assert cuda.current_device() == 1
    with cuda.device("cuda:1"):
        assert cuda.current_device() == 1
    cuda.set_device(1)
    assert cuda.current_device() == 1
    cuda.set_device("cuda:0")
    assert cuda.current_device() == 0
    assert cuda.get_device_name() == "Fake GPU" and cuda.get_device_capability(1) == (9, 0)
    props = cuda.get_device_properties("cuda:0")
    assert props.total_memory == 16 * 2**30 and props.multi_processor_count == 132
    assert cuda.get_arch_list() == ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"]
    assert cuda.ipc_collect() is None and cuda.synchronize() is None
    acc = ember.accelerator
    assert acc.is_available() and acc.device_count() == 2
    assert acc.current_accelerator() == ember.device("cuda")
    assert acc.current_accelerator(check_available=True) == ember.device("cuda")
    assert acc.current_device_index() == 0


def test_generator_states(fake_cuda):
    assert cuda.initial_seed() == 67280421310721          # torch's default CUDA seed
    cuda.manual_seed(7)
    assert cuda.initial_seed() == 7
    cuda.manual_seed_all(11)
    cuda.set_device(1)
    assert cuda.initial_seed() == 11
    cuda.set_device(0)
    state = cuda.get_rng_state()
    assert state.dtype == ember.uint8 and state.shape == (16,) and not state.is_cuda
    assert np.frombuffer(state.numpy().tobytes(), "<u8").tolist() == [11, 1]
    after = ember.rand(4, device="cuda").cpu().tolist()   # what draws after the snapshot give
    cuda.manual_seed(99)
    cuda.set_rng_state(state)
    assert ember.rand(4, device="cuda").cpu().tolist() == after and cuda.initial_seed() == 11
    assert len(cuda.get_rng_state_all()) == 2
    cuda.seed()
    assert cuda.initial_seed() != 11


CUDA1 = ember.device("cuda", 1)


def test_work_stays_on_a_second_device(fake_cuda):
    """torch's device guard: every op computes and allocates on its first CUDA operand's
    device (factories on the asked one), whatever device is current; the current device
    stays the user's."""
    x = ember.arange(6.).reshape(2, 3)
    y = x.cuda(1)
    checks = [
        x.to("cuda:1", ember.float64), ember.zeros(2, device="cuda:1"),
        ember.arange(3, device="cuda:1"), ember.ones(2, 2, device="cuda:1"),
        ember.full((2,), 3., device="cuda:1"), ember.tensor([1., 2.], device="cuda:1"),
        ember.rand(3, device="cuda:1"), ember.randn(3, device="cuda:1"),
        ember.randint(0, 5, (3,), device="cuda:1"), ember.empty(2, device="cuda:1"),
        y * 2, y + y, y.exp(), y.sum(), y.mean(1), y.max(), y @ y.t(), ember.matmul(y, y.t()),
        y.clone(), y.t().contiguous(), y[1], y[:, [0, 2]], y[y > 2], y.to(ember.float32),
        ember.zeros_like(y), ember.rand_like(y), ember.cat([y, y]), y.argmax(1),
        ember.where(y > 2, y, 0.), y.softmax(1),
    ]
    assert [str(t.device) for t in checks] == ["cuda:1"] * len(checks)
    # (the fake allocates on CuPy's current device: every array is really on device 1)
    assert [t._data.device.id for t in checks] == [1] * len(checks)
    assert ember.cuda.current_device() == 0
    assert ember.zeros(1, device="cuda").device == ember.device("cuda", 0)
    with ember.cuda.device(1):
        assert ember.zeros(1, device="cuda").device == CUDA1
        assert (ember.zeros(2).cuda(0) + 1).device == ember.device("cuda", 0)
    assert ember.cuda.current_device() == 0


def test_random_draws_on_a_second_device_use_its_generator(fake_cuda):
    ember.cuda.manual_seed_all(0)
    a = ember.rand(4, device="cuda:1")
    ember.cuda.manual_seed_all(0)
    with ember.cuda.device(1):
        b = ember.rand(4, device="cuda")
    assert a.device == b.device == CUDA1 and a.cpu().tolist() == b.cpu().tolist()
    # the draw came from cuda:1's generator: cuda:0's draws as if untouched
    ember.cuda.manual_seed_all(0)
    first = ember.rand(4, device="cuda:0")
    ember.cuda.manual_seed_all(0)
    ember.rand(4, device="cuda:1")
    assert ember.rand(4, device="cuda:0").cpu().tolist() == first.cpu().tolist()


def test_training_stays_on_a_second_device(fake_cuda):
    """Forward, backward and an optimizer step of a small CNN on cuda:1 with cuda:0 current:
    outputs, gradients and updated parameters all on device 1."""
    ember.manual_seed(0)
    net = ember.nn.Sequential(ember.nn.Conv2d(2, 3, 3, padding=1), ember.nn.ReLU(),
                              ember.nn.MaxPool2d(2), ember.nn.Flatten(),
                              ember.nn.Linear(12, 4)).to("cuda:1")
    opt = ember.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    x = ember.randn(5, 2, 4, 4, device="cuda:1", requires_grad=True)
    target = ember.randint(0, 4, (5,), device="cuda:1")
    pooled = ember.nn.functional.max_pool2d(x, 2)
    loss = ember.nn.functional.cross_entropy(net(x), target) + pooled.sum()
    assert loss.device == CUDA1 and pooled.device == CUDA1
    loss.backward()
    opt.step()
    tensors = [x.grad] + [p for p in net.parameters()] + [p.grad for p in net.parameters()] \
        + [s for state in opt.state.values() for s in state.values()
           if isinstance(s, ember.Tensor)]
    assert [t._data.device.id for t in tensors] == [1] * len(tensors)
    assert ember.cuda.current_device() == 0


def test_mixed_devices_raise_torchs_error(fake_cuda):
    a, b = ember.ones(2, 2, device="cuda:0"), ember.ones(2, 2, device="cuda:1")
    text = r"Expected all tensors to be on the same device, but found at least two devices, " \
        r"cuda:(0 and cuda:1|1 and cuda:0)!"
    linear = ember.nn.Linear(2, 2).to("cuda:1")
    for fn in (lambda: a + b, lambda: a @ b, lambda: ember.matmul(a, b), lambda: linear(a),
               lambda: ember.nn.functional.linear(a, b), lambda: a.mul_(b)):
        with pytest.raises(RuntimeError, match=text):
            fn()


def test_save_and_load_with_map_location(gpu, tmp_path):
    x = ember.arange(6.).reshape(2, 3).cuda()
    ember.save({"x": x, "view": x[1]}, tmp_path / "t.pt")
    places = [(None, "cuda:0"), ("cpu", "cpu"), ({"cuda:0": "cpu"}, "cpu"), ("cuda", "cuda:0")]
    for loc, want in places + [("cuda:1", "cuda:1")] * _two_gpus():
        loaded = ember.load(tmp_path / "t.pt", map_location=loc)
        assert str(loaded["x"].device) == want and str(loaded["view"].device) == want
        assert loaded["x"].cpu().tolist() == [[0., 1., 2.], [3., 4., 5.]]
        assert loaded["view"].cpu().tolist() == [3., 4., 5.]


def _grads_of(module, x, device):
    """(outputs, input and parameter gradients) of `module` on `device`, as NumPy arrays."""
    module = module.to(device)
    x = x.detach().to(device).requires_grad_()
    out = module(x)
    out = out[0] if isinstance(out, tuple) else out
    out = out.data if isinstance(out, ember.nn.utils.rnn.PackedSequence) else out
    rng = np.random.default_rng(0)
    grad = ember.tensor(rng.standard_normal(tuple(out.shape)), dtype=out.dtype, device=device)
    params = list(module.parameters())
    got = ember.autograd.grad([out], [x] + params, [grad])
    assert all(g.device == x.device for g in got)
    return [out.detach().cpu().numpy()] + [g.cpu().numpy() for g in got]


def _same_on_cuda(gpu, module, x):
    want = _grads_of(module, x, "cpu")
    got = _grads_of(module, x, "cuda")
    tol = _tol(gpu, 1e-9)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 1e-3)


@pytest.mark.parametrize("make", [
    lambda: ember.nn.Conv2d(2, 3, 3),                                   # full-rows columns
    lambda: ember.nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2),   # exact columns
    lambda: ember.nn.Conv1d(2, 3, 2, dilation=2),
    lambda: ember.nn.ConvTranspose2d(2, 3, 3, stride=2),
], ids=["conv2d", "conv2d-strided-groups", "conv1d", "conv-transpose2d"])
def test_conv_on_cuda(gpu, make):
    ember.manual_seed(0)
    module = make().double()
    x = ember.randn((1, 2, 7, 6) if "2d" in type(module).__name__ else (2, 2, 9),
                    dtype=ember.float64)
    _same_on_cuda(gpu, module, x)


def test_conv2d_on_cuda(gpu):
    ember.manual_seed(0)
    conv, x = ember.nn.Conv2d(2, 3, 3), ember.randn(1, 2, 5, 5)
    want = conv(x).detach().numpy()
    got = conv.cuda()(x.cuda())
    np.testing.assert_allclose(got.detach().cpu().numpy(), want, rtol=1e-5, atol=1e-6)


def test_lstm_on_cuda(gpu):
    ember.manual_seed(0)
    lstm, x = ember.nn.LSTM(3, 4), ember.randn(5, 2, 3)
    want = lstm(x)[0].detach().numpy()
    got = lstm.cuda()(x.cuda())[0]
    np.testing.assert_allclose(got.detach().cpu().numpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda: ember.nn.LSTM(3, 4, num_layers=2, bidirectional=True),
    lambda: ember.nn.LSTM(3, 4, proj_size=2),
    lambda: ember.nn.GRU(3, 4, bidirectional=True),
    lambda: ember.nn.RNN(3, 4, nonlinearity="relu"),
    lambda: ember.nn.RNN(3, 4, bias=False),
], ids=["lstm-2-layers-bidirectional", "lstm-proj", "gru-bidirectional", "rnn-relu",
        "rnn-tanh-no-bias"])
def test_recurrent_layers_on_cuda(gpu, make):
    ember.manual_seed(0)
    _same_on_cuda(gpu, make().double(), ember.randn(5, 2, 3, dtype=ember.float64))


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_packed_recurrence_on_cuda(gpu, mode):
    ember.manual_seed(0)
    module = getattr(ember.nn, mode)(3, 4, bidirectional=True).double()
    pack = ember.nn.utils.rnn.pack_padded_sequence
    results = []
    for device in ("cpu", "cuda"):
        module = module.to(device)
        x = ember.randn(5, 3, 3, dtype=ember.float64, generator=ember.Generator().manual_seed(1))
        x = x.to(device).requires_grad_()
        out, _ = module(pack(x, [5, 3, 2]))
        (out.data * out.data).sum().backward()
        results.append([out.data.detach().cpu().numpy(), x.grad.cpu().numpy()]
                       + [p.grad.cpu().numpy() for p in module.parameters()])
        module.zero_grad()
    tol = _tol(gpu, 1e-9)
    for g, w in zip(*reversed(results)):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 1e-3)


def test_lstm_double_backward_on_cuda(gpu):
    ember.manual_seed(0)
    lstm = ember.nn.LSTM(3, 2).double()
    results = []
    for device in ("cpu", "cuda"):
        lstm = lstm.to(device)
        x = ember.linspace(-1, 1, 12, dtype=ember.float64).reshape(2, 2, 3).to(device)
        x.requires_grad_()
        (g,) = ember.autograd.grad(lstm(x)[0].sum(), [x], create_graph=True)
        (gg,) = ember.autograd.grad((g * g).sum(), [x])
        assert gg.device == x.device
        results.append(gg.cpu().numpy())
    tol = _tol(gpu, 1e-9)
    np.testing.assert_allclose(results[1], results[0], rtol=tol, atol=tol * 1e-3)
