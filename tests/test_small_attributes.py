"""Small attributes that torch's objects have (found by comparing their public names):
dtype.abbr, Generator.clone_state / get_offset / set_offset / graphsafe_*_state,
Tensor.grad_dtype, Tensor.name and the is_<backend> flags, the xpu/ipu/mtia moves,
no_grad().prev and Optimizer's hook aliases and profile_hook_step."""
import pytest

import ember


@pytest.mark.parametrize("dtype,abbr", [
    (ember.float32, "f32"), (ember.float64, "f64"), (ember.float16, "f16"),
    (ember.bfloat16, "bf16"), (ember.int8, "i8"), (ember.int64, "i64"), (ember.uint8, "u8"),
    (ember.uint64, "u64"), (ember.bool, "b8"), (ember.complex64, "c64"),
    (ember.complex128, "c128"), (ember.float8_e4m3fn, "f8e4m3fn"),
    (ember.float8_e5m2fnuz, "f8e5m2fnuz"), (ember.float8_e8m0fnu, "f8e8m0fnu")])
def test_dtype_abbr(dtype, abbr):
    assert dtype.abbr == abbr


def test_generator_clone_state_and_offsets():
    g = ember.Generator().manual_seed(3)
    twin = g.clone_state()
    assert twin is not g and twin.initial_seed() == 3
    a = ember.rand(3, generator=g)
    assert ember.equal(ember.rand(3, generator=twin), a)
    with pytest.raises(RuntimeError, match="^CPU Generator does not use offset$"):
        g.get_offset()
    with pytest.raises(RuntimeError, match="^CPU Generator does not use offset$"):
        g.set_offset(1)
    with pytest.raises(NotImplementedError, match="^graphsafe_get_state is not supported"):
        g.graphsafe_get_state()
    with pytest.raises(NotImplementedError, match="^graphsafe_set_state is not supported"):
        g.graphsafe_set_state(twin)
    with pytest.raises(TypeError, match="^expected a Generator, but got int$"):
        g.graphsafe_set_state(3)


def test_grad_dtype_defaults_to_the_dtype_and_checks_assigned_grads():
    x = ember.ones(2, requires_grad=True)
    assert x.grad_dtype is ember.float32 and ember.ones(2, dtype=ember.int64).grad_dtype is \
        ember.int64
    with pytest.raises(RuntimeError, match="with grad_dtype 'Float'"):
        x.grad = ember.zeros(2, dtype=ember.float64)
    x.grad_dtype = ember.float64
    x.grad = ember.zeros(2, dtype=ember.float64)
    assert x.grad.dtype is ember.float64 and x.detach().grad_dtype is ember.float32
    with pytest.raises(RuntimeError, match="dtype 'float' to a tensor with grad_dtype "
                                           "'Double'"):
        x.grad = ember.zeros(2)
    with pytest.raises(RuntimeError, match="^Cannot set grad_dtype to 'Half' because there is "
                                           "already a gradient with dtype 'double'"):
        x.grad_dtype = ember.float16
    x.grad = None
    x.grad_dtype = None
    x.grad = ember.zeros(2, dtype=ember.float16)          # None: any dtype
    assert x.grad_dtype is None
    with pytest.raises(RuntimeError, match="^grad_dtype must be a torch.dtype or None, but "
                                           "got int$"):
        x.grad_dtype = 3
    y = x * 2
    with pytest.raises(RuntimeError, match="^grad_dtype can only be accessed on leaf"):
        y.grad_dtype
    with pytest.raises(RuntimeError, match="^grad_dtype can only be set on leaf"):
        y.grad_dtype = None


def test_tensor_name_and_backend_flags():
    x = ember.ones(2)
    assert x.name is None
    assert not any((x.is_xpu, x.is_ipu, x.is_mps, x.is_mtia, x.is_maia, x.is_vulkan, x.is_xla))
    with pytest.raises(AssertionError, match="^Torch not compiled with XPU enabled$"):
        x.xpu()
    with pytest.raises(RuntimeError, match="^PyTorch is not linked with support for ipu"):
        x.ipu()
    with pytest.raises(AssertionError, match="^Torch not compiled with MTIA enabled"):
        x.mtia()


def test_grad_mode_prev():
    m = ember.no_grad()
    assert m.prev is False
    with m:
        assert m.prev is True and not ember.is_grad_enabled()
    assert ember.is_grad_enabled()
    assert ember.set_grad_enabled(True).prev is True
    with pytest.raises(AttributeError):
        ember.enable_grad().prev            # (set on entering, as torch's)


def test_optimizer_hook_aliases_and_profile_hook_step():
    assert str(ember.optim.Optimizer.OptimizerPostHook).endswith("typing.Any]], None]")
    assert str(ember.optim.Optimizer.OptimizerPreHook).startswith("collections.abc.Callable[")
    seen = []
    opt = ember.optim.SGD([ember.nn.Parameter(ember.ones(1))], lr=0.1)
    opt.register_step_pre_hook(lambda o, args, kwargs: seen.append("pre"))

    def step(self):
        seen.append("step")
    wrapped = ember.optim.Optimizer.profile_hook_step(step)
    wrapped(opt)
    assert seen == ["pre", "step"]
