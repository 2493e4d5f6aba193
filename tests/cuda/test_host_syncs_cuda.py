"""Host syncs of a CUDA training step, counted on the fake CuPy: a sync (a copy to the host, a
Python value of a device array, a result sized by the data) makes the host wait for the GPU's
queue, and torch's training step makes none. benchmarks/count_cuda_step.py prints the counts."""

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F


def _step(layers, shape, batch):
    ember.manual_seed(0)
    model = nn.Sequential(*layers).to("cuda")
    optimizer = ember.optim.SGD(model.parameters(), lr=0.01)
    rng = np.random.default_rng(0)
    x = ember.from_numpy(rng.standard_normal((batch,) + shape).astype(np.float32)).to("cuda")
    y = ember.from_numpy(rng.integers(0, 10, batch)).to("cuda")

    def step():
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss
    return step


def _counts(fake, step, steps=2):
    step()                              # (lazy state made on the first step)
    fake.reset_counters()
    for _ in range(steps):
        step()
    return {k: v / steps for k, v in fake.counters.items()}


def test_the_counter_sees_a_sync(fake_cuda):
    t = ember.ones(3, device="cuda")
    fake_cuda.reset_counters()
    t.sum().item()
    assert fake_cuda.counters["syncs"] == 1


def test_mlp_training_step_makes_one_host_sync(fake_cuda):
    step = _step([nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                  nn.Linear(128, 10)], (784,), 128)
    counts = _counts(fake_cuda, step)
    # the loss's target check (NOTE [ nll_loss target range on CUDA ]) and nothing else
    assert counts.get("syncs", 0) == 1, dict(fake_cuda.sync_sites)
    assert 0 < counts["calls"] <= 85          # 73 at the time of writing (102 before)


def test_cnn_training_step_makes_one_host_sync(fake_cuda):
    step = _step([nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3),
                  nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 5 * 5, 10)],
                 (1, 28, 28), 64)
    counts = _counts(fake_cuda, step)
    assert counts.get("syncs", 0) == 1, dict(fake_cuda.sync_sites)


def test_nll_loss_out_of_range_target_on_cuda_raises(fake_cuda):
    # NOTE [ nll_loss target range on CUDA ] (ember/nn/_nll_ops.py): torch asserts on the
    # device; ember reads the check back (one sync) and raises torch's CPU error.
    x = ember.randn(4, 3, device="cuda", requires_grad=True)
    for bad in (3, -2):
        with pytest.raises(IndexError, match=f"^Target {bad} is out of bounds.$"):
            F.cross_entropy(x, ember.tensor([0, 1, bad, 2], device="cuda"))
    assert F.cross_entropy(x, ember.tensor([0, 1, -100, 2], device="cuda")).isfinite().item()


def test_nll_loss_out_of_range_target_on_cpu_still_raises():
    with pytest.raises(IndexError, match="Target 3 is out of bounds"):
        F.cross_entropy(ember.randn(2, 3), ember.tensor([0, 3]))


@pytest.mark.parametrize("bias", [True, False])
def test_linear_on_cuda_takes_the_fast_path_with_cpu_results(fake_cuda, bias):
    ember.manual_seed(0)
    layer = nn.Linear(5, 3, bias=bias)
    x = ember.randn(4, 5, requires_grad=True)
    layer_cuda = nn.Linear(5, 3, bias=bias).to("cuda")
    layer_cuda.load_state_dict(layer.state_dict())
    xc = x.detach().to("cuda").requires_grad_()
    fake_cuda.reset_counters()
    out = layer_cuda(xc)
    assert fake_cuda.counters["calls"] <= 2       # one matmul, one add of the bias
    ref = layer(x)
    assert out.grad_fn.name() == ref.grad_fn.name()
    np.testing.assert_allclose(out.detach().cpu().numpy(), ref.detach().numpy(), rtol=1e-6)
    g = ember.randn(4, 3)
    ref.backward(g)
    out.backward(g.to("cuda"))
    for p, pc in [(x, xc), *zip(layer.parameters(), layer_cuda.parameters())]:
        np.testing.assert_allclose(pc.grad.cpu().numpy(), p.grad.numpy(), rtol=1e-6)
        assert pc.grad.stride() == p.grad.stride()



@pytest.mark.parametrize("args", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                  dict(kernel_size=2, dilation=2, ceil_mode=True)])
def test_max_pool_tables_kept_per_device_give_cpu_results(fake_cuda, args):
    # (the index tables of a pooling geometry are made once per GPU and then only read)
    x = ember.randn(2, 3, 9, 9)
    x[0, 0, 1, 1] = float("nan")
    g = ember.randn_like(F.max_pool2d(x, **args))
    xs = x.clone().requires_grad_()
    ref, ref_index = F.max_pool2d(xs, return_indices=True, **args)
    ref.backward(g)
    for index in (0, 1, 0):
        device = f"cuda:{index}"
        xc = x.to(device).requires_grad_()
        fake_cuda.reset_counters()
        with ember.cuda.device(index):
            out, index = F.max_pool2d(xc, return_indices=True, **args)
            out.backward(g.to(device))
        assert fake_cuda.counters.get("syncs", 0) == 0
        assert out.device == xc.grad.device == ember.device(device)
        np.testing.assert_array_equal(out.detach().cpu().numpy(), ref.detach().numpy())
        np.testing.assert_array_equal(index.cpu().numpy(), ref_index.numpy())
        np.testing.assert_array_equal(xc.grad.cpu().numpy(), xs.grad.numpy())
