"""nn.DataParallel with (fake) GPUs: the module and inputs go to device_ids[0], the result to
output_device; the placement check has torch's text."""
import numpy as np
import pytest

import ember
from ember import nn


def _model():
    ember.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def test_on_fake_gpus(fake_cuda):
    model = _model()
    x = ember.randn(5, 3)
    expected = model(x).detach().numpy()
    dp = nn.DataParallel(model, device_ids=[0])
    assert dp.device_ids == [0] and dp.output_device == 0
    assert model[0].weight.device == ember.device("cuda", 0)     # moved there, as torch
    out = dp(x)
    assert out.device == ember.device("cuda", 0)
    np.testing.assert_allclose(out.detach().cpu().numpy(), expected, rtol=1e-6)
    two = nn.DataParallel(model, device_ids=[0, 1], output_device=1)
    assert two(x).device == ember.device("cuda", 1)
    np.testing.assert_allclose(nn.parallel.data_parallel(model, x, output_device=-1)
                               .detach().numpy(), expected, rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"^module must have its parameters and buffers on "
                       r"device cuda:1 \(device_ids\[0\]\) but found one of them on device: "
                       r"cuda:0$"):
        nn.DataParallel(model, device_ids=[1, 0])(x)
