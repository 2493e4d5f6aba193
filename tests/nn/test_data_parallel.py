"""nn.DataParallel and nn.parallel.data_parallel: on the CPU a transparent wrapper, as torch's;
with (fake) GPUs the module and inputs go to device_ids[0] and the result to output_device."""
import numpy as np
import pytest

import ember
from ember import nn


def _model():
    ember.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


NO_GPU = pytest.mark.skipif(ember.cuda.is_available(), reason="checks the wrapper without GPUs")


@NO_GPU
def test_cpu_wrapper_calls_its_module():
    model = _model()
    dp = nn.DataParallel(model)
    assert dp.module is model and dp.device_ids == []
    assert nn.parallel.DataParallel is nn.DataParallel
    x = ember.randn(5, 3)
    out = dp(x)
    np.testing.assert_array_equal(out.detach().numpy(), model(x).detach().numpy())
    out.sum().backward()
    assert model[0].weight.grad is not None
    assert list(dp.state_dict()) == ["module.0.weight", "module.0.bias", "module.2.weight",
                                     "module.2.bias"]
    assert str(dp) == ("DataParallel(\n  (module): Sequential(\n    (0): Linear(in_features=3, "
                       "out_features=4, bias=True)\n    (1): ReLU()\n    (2): Linear("
                       "in_features=4, out_features=2, bias=True)\n  )\n)")


def test_cpu_wrapper_passes_keywords_and_loads_prefixed_state():
    class Scale(nn.Module):
        def forward(self, x, factor=1.0):
            return x * factor
    dp = nn.DataParallel(Scale())
    assert dp(ember.ones(2), factor=3.0).tolist() == [3.0, 3.0]
    wrapped = nn.DataParallel(_model())
    other = nn.DataParallel(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
    other.load_state_dict(wrapped.state_dict())
    assert other.module[0].weight.tolist() == wrapped.module[0].weight.tolist()


@NO_GPU
def test_functional_form_needs_a_gpu():
    with pytest.raises(RuntimeError, match="^device type could not be determined$"):
        nn.parallel.data_parallel(_model(), ember.randn(2, 3))
