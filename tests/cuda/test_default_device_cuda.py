"""set_default_device('cuda') on the GPU (the real one where there is one, else the fake CuPy):
factory functions create on the GPU when given no device, and an explicit device still wins;
Tensor.storage() of a CUDA tensor."""
import numpy as np

import ember


def test_factories_follow_the_default_device(gpu):
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


def test_typed_storage_of_a_cuda_tensor(gpu):
    import warnings
    x = ember.tensor([1., 2., 3.]).cuda()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = x.storage()
        assert s.size() == 3 and s.tolist() == [1., 2., 3.] and s[2] == 3.
        assert s.is_cuda and s.device == ember.device("cuda", 0)
        assert s.type() == "torch.cuda.FloatStorage" and s.data_ptr() == x.data_ptr()
