"""ember.amp: autocast regions (dtypes per op list, nesting, threads, the decorator, warnings)
and GradScaler (scaling, unscaling, skipped steps, the scale schedule, state, errors)."""
import threading
import warnings

import ml_dtypes
import numpy as np
import pytest

import ember
import ember.nn.functional as F

BF16 = ml_dtypes.bfloat16


def _x(*shape, seed=0):
    return ember.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def test_lower_precision_ops_run_in_bfloat16_with_bfloat16_values():
    a, b = _x(3, 4), _x(4, 5, seed=1)
    want = (a.numpy().astype(BF16).astype(np.float32) @ b.numpy().astype(BF16).astype(np.float32))
    with ember.autocast("cpu"):
        for y in (a @ b, ember.mm(a, b), ember.matmul(a, b), a.mm(b),
                  F.linear(a, b.t().contiguous())):
            assert y.dtype == ember.bfloat16
            np.testing.assert_allclose(y.float().numpy(), want, rtol=1e-2, atol=1e-2)
        assert ember.bmm(a[None], b[None]).dtype == ember.bfloat16
        assert ember.addmm(_x(3, 5), a, b).dtype == ember.bfloat16
        assert ember.baddbmm(_x(1, 3, 5), a[None], b[None]).dtype == ember.bfloat16
        assert F.conv2d(_x(1, 1, 5, 5), _x(2, 1, 3, 3)).dtype == ember.bfloat16
        assert ember.nn.Conv1d(2, 3, 2)(_x(1, 2, 6)).dtype == ember.bfloat16
    assert (a @ b).dtype == ember.float32           # nothing left behind


def test_recurrent_layers_follow_torchs_cpu_lists():
    x = _x(2, 5, 3)
    with ember.autocast("cpu"):
        out, (h, c) = ember.nn.LSTM(3, 4, batch_first=True)(x)
        assert (out.dtype, h.dtype, c.dtype) == (ember.bfloat16,) * 3
        assert ember.nn.RNN(3, 4)(x)[0].dtype == ember.bfloat16
        assert ember.nn.GRU(3, 4)(x)[0].dtype == ember.float32       # its state is float32
        assert ember.nn.RNNCell(3, 4)(x[0]).dtype == ember.bfloat16


def test_float16_autocast_and_float64_is_not_eligible():
    a = _x(2, 2)
    with ember.autocast("cpu", dtype=ember.float16):
        assert (a @ a).dtype == ember.float16
        assert (a.double() @ a.double()).dtype == ember.float64
        np.testing.assert_allclose((a @ a).numpy().astype(np.float32),
                                   a.numpy().astype(np.float16).astype(np.float32)
                                   @ a.numpy().astype(np.float16).astype(np.float32), rtol=2e-3)


def test_fp32_ops_and_unlisted_ops():
    a = _x(4, 3).bfloat16()
    t = ember.tensor([0, 1, 2, 0])
    with ember.autocast("cpu"):
        assert F.mse_loss(a, a * 2).dtype == ember.float32
        assert F.cross_entropy(a, t).dtype == ember.float32
        assert a.prod().dtype == ember.float32
        assert ember.kl_div(a, a).dtype == ember.float32              # top-level spelling
        assert ember.conv1d(_x(1, 2, 5), _x(3, 2, 2)).dtype == ember.bfloat16
        ref = np.mean((a.float().numpy() - 2 * a.float().numpy()) ** 2)
        assert abs(F.mse_loss(a, a * 2).item() - ref) < 1e-5
        # not on any list: runs in the input dtype
        assert a.exp().dtype == ember.bfloat16
        assert a.softmax(-1).dtype == ember.bfloat16
        assert (a + 1).dtype == ember.bfloat16


def test_promote_ops_use_the_widest_dtype():
    a, b = _x(2, 2).bfloat16(), _x(2, 2)
    with ember.autocast("cpu"):
        assert ember.cat([a, b]).dtype == ember.float32
        assert ember.stack([a, a]).dtype == ember.bfloat16
        assert ember.cat([a, b.double()]).dtype == ember.float64
    with ember.autocast("cpu", dtype=ember.float16):
        assert ember.cat([b, a, b.half()]).dtype == ember.float32   # float32 seen first
        assert ember.cat([b.half(), b.double()]).dtype == ember.float64  # (not eligible)


@pytest.mark.parametrize("region, tensors", [
    ("bfloat16", ("float16",)), ("bfloat16", ("bfloat16", "float16")),
    ("bfloat16", ("float16", "float32")), ("float16", ("bfloat16", "float16")),
    ("bfloat16", ("float64", "float16"))])
def test_promote_ops_refuse_the_other_16_bit_dtype_before_float32(region, tensors):
    # torch's prioritize: from the region's dtype, only float32 (or the same dtype) may follow
    x = _x(2, 2)
    with ember.autocast("cpu", dtype=getattr(ember, region)):
        with pytest.raises(RuntimeError, match="Unexpected floating ScalarType in "
                                               "at::autocast::prioritize"):
            ember.cat([x.to(getattr(ember, t)) for t in tensors])


def test_gradients_flow_back_in_float32_through_the_casts():
    w = ember.tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 4, requires_grad=True)
    x = _x(4, 3)
    with ember.autocast("cpu"):
        y = F.linear(x, w)
        assert type(y.grad_fn).__name__ == "MmBackward0"
        assert type(y.grad_fn.next_functions[1][0].next_functions[0][0]).__name__ == \
            "ToCopyBackward0"
        loss = y.float().sum()
    loss.backward()
    assert w.grad.dtype == ember.float32
    want = np.broadcast_to(x.numpy().astype(BF16).astype(np.float32).sum(0), (2, 3))
    np.testing.assert_allclose(w.grad.numpy(), want, rtol=1e-2)


def test_cast_cache_reuses_one_copy_of_a_parameter_per_region():
    w = ember.ones(2, 2, requires_grad=True)
    x = ember.ones(2, 2)
    with ember.autocast("cpu"):
        y1, y2 = ember.mm(x, w), ember.mm(x, w)
        assert y1.grad_fn.next_functions[1][0] is y2.grad_fn.next_functions[1][0]
    with ember.autocast("cpu", cache_enabled=False):
        y1, y2 = ember.mm(x, w), ember.mm(x, w)
        assert y1.grad_fn.next_functions[1][0] is not y2.grad_fn.next_functions[1][0]
    assert ember.amp._policy.state.cache == {}


def test_state_functions_nesting_and_decorator():
    assert not ember.is_autocast_enabled("cpu")
    assert ember.get_autocast_dtype("cpu") == ember.bfloat16
    assert ember.get_autocast_dtype("cuda") == ember.float16
    with ember.autocast("cpu", dtype=ember.float16):
        assert ember.is_autocast_enabled("cpu") and not ember.is_autocast_enabled()
        assert ember.get_autocast_dtype("cpu") == ember.float16
        with ember.autocast("cpu", enabled=False):
            assert not ember.is_autocast_enabled("cpu")
            assert (_x(2, 2) @ _x(2, 2)).dtype == ember.float32
        assert ember.is_autocast_enabled("cpu")
    assert ember.get_autocast_dtype("cpu") == ember.bfloat16

    @ember.autocast("cpu")
    def f(a):
        return a @ a
    assert f(_x(2, 2)).dtype == ember.bfloat16 and f.__name__ == "f"
    assert not ember.is_autocast_enabled("cpu")
    ember.set_autocast_enabled("cpu", True)
    try:
        assert (_x(2, 2) @ _x(2, 2)).dtype == ember.bfloat16
    finally:
        ember.set_autocast_enabled("cpu", False)
    with pytest.raises(TypeError, match=r"set_autocast_enabled\(\): argument 'enabled' "
                                        r"\(position 2\) must be bool, not int"):
        ember.set_autocast_enabled("cpu", 1)


def test_state_is_per_thread():
    seen = []
    with ember.autocast("cpu"):
        t = threading.Thread(target=lambda: seen.append(
            (ember.is_autocast_enabled("cpu"), (_x(2, 2) @ _x(2, 2)).dtype)))
        t.start()
        t.join()
    assert seen == [(False, ember.float32)]


def test_errors_and_warnings():
    with pytest.raises(ValueError, match=r"Expected `device_type` of type `str`, got: "
                                         r"`<class 'torch.device'>`"):
        ember.autocast(ember.device("cpu"))
    with pytest.raises(RuntimeError, match="device type at start of device string: xyz"):
        ember.autocast("xyz")
    with pytest.warns(UserWarning, match="In CPU autocast, but the target dtype is not "
                                         "supported. Disabling autocast.\nCPU Autocast only "
                                         "supports dtypes of torch.bfloat16, torch.float16"):
        ac = ember.autocast("cpu", dtype=ember.float32)
    with ac:
        assert not ember.is_autocast_enabled("cpu")
    with pytest.raises(TypeError, match=r"autocast\(\)\(func\) requires a callable, but got "
                                        r"int"):
        ember.autocast("cpu")(3)
    with pytest.warns(FutureWarning, match=r"`torch.cpu.amp.autocast\(args...\)` is deprecated. "
                                           r"Please use `torch.amp.autocast\('cpu', args...\)`"):
        with ember.cpu.amp.autocast():
            assert (_x(2, 2) @ _x(2, 2)).dtype == ember.bfloat16
    with pytest.warns(DeprecationWarning, match=r"is_autocast_cpu_enabled\(\) is deprecated"):
        assert ember.is_autocast_cpu_enabled() is False


@pytest.mark.skipif(ember.cuda.is_available(), reason="checks the no-GPU behaviour")
def test_cuda_without_a_gpu_warns_and_does_nothing():
    with pytest.warns(UserWarning, match="CUDA is not available or torch_xla is imported. "
                                         "Disabling autocast."):
        with ember.autocast("cuda"):
            assert (_x(2, 2) @ _x(2, 2)).dtype == ember.float32
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        s = ember.cuda.amp.GradScaler()
    assert [str(r.message) for r in rec] == [
        "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
        "`torch.amp.GradScaler('cuda', args...)` instead.",
        "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."]
    assert not s.is_enabled() and s.get_scale() == 1.0 and s.state_dict() == {}
    x = ember.ones(2)
    assert s.scale(x) is x


def _problem(grad_scale=1.0):
    w = ember.nn.Parameter(ember.tensor([1.0, -2.0]))
    opt = ember.optim.SGD([w], lr=0.1)
    loss = (w * ember.tensor([3.0, grad_scale])).sum()
    return w, opt, loss


def test_grad_scaler_scales_unscales_and_steps():
    s = ember.amp.GradScaler("cpu", init_scale=8.0, growth_interval=2)
    w, opt, loss = _problem()
    scaled = s.scale(loss)
    assert scaled.item() == 8.0 * loss.item()
    scaled.backward()
    np.testing.assert_array_equal(w.grad.numpy(), [24.0, 8.0])
    s.unscale_(opt)
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 1.0])
    with pytest.raises(RuntimeError, match=r"unscale_\(\) has already been called on this "
                                           r"optimizer since the last update\(\)."):
        s.unscale_(opt)
    s.step(opt)
    np.testing.assert_allclose(w.detach().numpy(), [0.7, -2.1], rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"step\(\) has already been called since the last "
                                           r"update\(\)."):
        s.step(opt)
    s.update()
    assert s.get_scale() == 8.0 and s._get_growth_tracker() == 1
    for _ in range(1):          # a second clean step reaches growth_interval=2
        opt.zero_grad()
        s.scale((w * 1.0).sum()).backward()
        s.step(opt)
        s.update()
    assert s.get_scale() == 16.0 and s._get_growth_tracker() == 0
    assert s.scale([loss, (loss,)])[1][0].item() == 16.0 * loss.item()


def test_grad_scaler_skips_the_step_on_inf_and_backs_off():
    s = ember.amp.GradScaler("cpu", init_scale=4.0)
    w, opt, loss = _problem(grad_scale=float("inf"))
    s.scale(loss).backward()
    assert s.step(opt) is None
    np.testing.assert_array_equal(w.detach().numpy(), [1.0, -2.0])      # unchanged
    s.update()
    assert s.get_scale() == 2.0
    assert s.state_dict() == {"scale": 2.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                              "growth_interval": 2000, "_growth_tracker": 0}
    s.update(0.25)
    assert s.get_scale() == 0.25


def test_grad_scaler_state_and_errors():
    s = ember.amp.GradScaler("cpu")
    w, opt, _ = _problem()
    assert s.is_enabled() and s.get_scale() == 65536.0
    for name, call in (("update", s.update), ("unscale_", lambda: s.unscale_(opt)),
                       ("step", lambda: s.step(opt))):
        with pytest.raises(AssertionError, match=rf"Attempted {name} but _scale is None."):
            call()
    with pytest.raises(ValueError, match="outputs must be a Tensor or an iterable of Tensors"):
        s.scale(3.0)
    with pytest.raises(AssertionError, match=r"The growth factor must be > 1.0."):
        ember.amp.GradScaler("cpu", growth_factor=0.5)
    with pytest.raises(AssertionError, match=r"The backoff factor must be < 1.0."):
        ember.amp.GradScaler("cpu", backoff_factor=1.5)
    with pytest.raises(RuntimeError, match="The source state dict is empty"):
        s.load_state_dict({})
    t = ember.amp.GradScaler("cpu")
    t.load_state_dict({"scale": 3.0, "growth_factor": 4.0, "backoff_factor": 0.25,
                       "growth_interval": 7, "_growth_tracker": 5})
    assert (t.get_scale(), t.get_growth_factor(), t.get_backoff_factor(),
            t.get_growth_interval(), t._get_growth_tracker()) == (3.0, 4.0, 0.25, 7, 5)
    d = ember.amp.GradScaler("cpu", enabled=False)
    w, opt, loss = _problem()
    d.scale(loss).backward()
    d.step(opt)
    np.testing.assert_allclose(w.detach().numpy(), [0.7, -2.1], rtol=1e-6)
    h = ember.amp.GradScaler("cpu")
    p = ember.nn.Parameter(ember.ones(2, dtype=ember.float16))
    opt16 = ember.optim.SGD([p], lr=0.1)
    h.scale(p.sum()).backward()
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients."):
        h.unscale_(opt16)


def test_layers_with_lower_precision_inputs_are_cast_like_their_functions():
    # Conv and pooling layers reach the autocast-wrapped functional forms on each call: a
    # bfloat16 input with float32 weights is cast (not refused), and the float32-listed pools
    # run in float32.
    x2, x3 = _x(1, 2, 4, 4).bfloat16(), _x(1, 2, 4, 4, 4).bfloat16()
    nn = ember.nn
    with ember.autocast("cpu"):
        assert nn.Conv2d(2, 3, 1)(x2).dtype == ember.bfloat16
        assert nn.ConvTranspose2d(2, 3, 2)(x2).dtype == ember.bfloat16
        for pool in (nn.MaxPool3d(2), nn.AvgPool3d(2), nn.AdaptiveAvgPool3d(2),
                     nn.AdaptiveMaxPool3d(2), nn.FractionalMaxPool2d(2, output_size=2)):
            assert pool(x3 if "3d" in type(pool).__name__ else x2).dtype == ember.float32
        out, idx = nn.MaxPool2d(2, return_indices=True)(x2)
        assert out.dtype == ember.bfloat16
        assert nn.MaxUnpool2d(2)(out, idx).dtype == ember.float32
    # outside autocast the layers keep refusing mixed dtypes
    with pytest.raises(RuntimeError, match="should be the same"):
        nn.Conv2d(2, 3, 1)(x2)


def test_recurrent_layers_take_lower_precision_inputs_under_autocast():
    nn, x = ember.nn, _x(5, 3)
    with ember.autocast("cpu"):
        assert nn.LSTM(3, 4)(x.bfloat16())[0].dtype == ember.bfloat16
        assert nn.RNN(3, 4)(x.bfloat16())[0].dtype == ember.bfloat16
        assert nn.LSTM(3, 4, proj_size=2)(x)[0].dtype == ember.bfloat16
        # a GRU's new state mixes the (lower precision) gates with the old state
        assert nn.GRU(3, 4)(x.bfloat16())[0].dtype == ember.bfloat16
        assert nn.GRU(3, 4)(x.bfloat16(), _x(1, 4))[0].dtype == ember.float32
        assert nn.GRU(3, 4)(x, _x(1, 4).bfloat16())[0].dtype == ember.bfloat16
        assert nn.GRUCell(3, 4)(x.bfloat16()).dtype == ember.bfloat16
        assert nn.LSTMCell(3, 4)(x.bfloat16())[0].dtype == ember.bfloat16
    with pytest.raises(ValueError, match="does not match weight dtype"):
        nn.LSTM(3, 4)(x.bfloat16())
    with pytest.raises(RuntimeError, match="same dtype"):
        nn.GRUCell(3, 4)(x.bfloat16())


@pytest.mark.parametrize("mode, pad, dtype", [
    ("reflect", (1, 1), "float32"), ("reflect", (1, 1, 1, 1), "float32"),
    ("reflect", (1, 1, 1, 1, 1, 1), "bfloat16"), ("replicate", (1, 1), "float32"),
    ("replicate", (1, 1, 1, 1, 1, 1), "float32"), ("circular", (1, 1), "bfloat16"),
    ("constant", (1, 1), "bfloat16")])
def test_cpu_autocast_runs_reflection_and_replication_pads_in_float32(mode, pad, dtype):
    # torch's CPU float32 list holds reflection_pad1d/2d and replication_pad1d/2d/3d
    x = _x(*(1, 2, 3, 4, 4)[:len(pad) // 2 + 2]).bfloat16()
    with ember.autocast("cpu", dtype=ember.bfloat16):
        out = F.pad(x, pad, mode=mode)
    assert out.dtype is getattr(ember, dtype)
    np.testing.assert_array_equal(out.float().numpy(), F.pad(x.float(), pad, mode=mode).numpy())
