"""Small torch.nn namespaces that layer code imports: nn.attention (sdpa_kernel), nn.modules.utils
(_pair & co., consume_prefix_in_state_dict_if_present), nn.common_types; and torch.layout,
torch._assert."""
import pytest

import ember
from ember import nn
from ember.nn.attention import SDPBackend, sdpa_kernel
from ember.nn.modules import utils as U

F = nn.functional
NO_BACKEND = ("No viable backend for scaled_dot_product_attention was found. This is likely due "
              "to turning off both the math kernel and the fused kernels.")


def test_sdpa_kernel_chooses_the_kernel_and_restores_the_switches():
    q = ember.randn(1, 2, 3, 4, requires_grad=True)
    with sdpa_kernel(SDPBackend.MATH):
        assert ember.backends.cuda.math_sdp_enabled()
        assert not ember.backends.cuda.flash_sdp_enabled()
        math = F.scaled_dot_product_attention(q, q, q)
    flash = F.scaled_dot_product_attention(q, q, q)
    assert type(flash.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    assert type(math.grad_fn).__name__ != type(flash.grad_fn).__name__     # the math graph
    assert ember.allclose(math, flash, atol=1e-6)
    assert ember.backends.cuda.flash_sdp_enabled()                          # restored
    for backends in (SDPBackend.EFFICIENT_ATTENTION, [SDPBackend.CUDNN_ATTENTION], []):
        with sdpa_kernel(backends):
            with pytest.raises(RuntimeError) as info:
                F.scaled_dot_product_attention(q, q, q)
            assert str(info.value) == NO_BACKEND
    with pytest.raises(AssertionError, match="^Backend must be an instance of SDPBackend or a "
                       "list of SDPBackend instances, got str$"):
        with sdpa_kernel("math"):
            pass
    assert repr(SDPBackend.MATH) == "<SDPBackend.MATH: 0>" and int(SDPBackend.CUDNN_ATTENTION) == 3


def test_module_utils():
    assert U._pair(3) == (3, 3) and U._pair((1, 2)) == (1, 2) and U._single(2) == (2,)
    assert U._triple([1, 2, 3]) == (1, 2, 3) and U._quadruple(1) == (1, 1, 1, 1)
    assert U._reverse_repeat_tuple((1, 2), 2) == (2, 2, 1, 1)
    assert U._list_with_default([None, 3], (5, 6, 7)) == [6, 3]
    state = nn.DataParallel(nn.Linear(2, 2)).state_dict()
    U.consume_prefix_in_state_dict_if_present(state, "module.")
    assert list(state) == ["weight", "bias"] and sorted(state._metadata) == [""]
    nn.Linear(2, 2).load_state_dict(state)
    assert ember.nn.modules.utils is U


def test_layout_assert_and_common_types():
    assert isinstance(ember.strided, ember.layout) and repr(ember.strided) == "torch.strided"
    assert ember.ones(2).layout is ember.strided
    with pytest.raises(AssertionError, match="^boom$"):
        ember._assert(False, "boom")
    ember._assert(True, "fine")
    assert str(nn.common_types._size_2_t) == "typing.Union[int, tuple[int, int]]"
