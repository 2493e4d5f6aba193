"""set_default_device('cuda') on the fake CuPy: factory functions create on the GPU when given
no device, and an explicit device still wins."""
import numpy as np

import ember


def test_factories_follow_the_default_device(fake_cuda):
    try:
        ember.set_default_device("cuda")
        assert ember.get_default_device() == ember.device("cuda", 0)
        for t in (ember.zeros(2), ember.ones(2, 3), ember.arange(4), ember.tensor([1., 2.]),
                  ember.rand(3), ember.empty_permuted((2, 3), (1, 0))):
            assert t.is_cuda and not isinstance(t._data, np.ndarray)
        assert ember.zeros(2, device="cpu").is_cpu
        assert ember.zeros_like(ember.zeros(2, device="cpu")).is_cpu   # follows its input
    finally:
        ember.set_default_device(None)
    assert ember.zeros(2).is_cpu
