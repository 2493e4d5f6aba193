"""Inference tensors: what tensors made in `inference_mode()` are and refuse (texts as torch's)."""
import copy
import pickle

import numpy as np
import pytest

import ember
from ember import nn

INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
           "a clone to get a normal tensor before doing inplace update.See "
           "https://github.com/pytorch/rfcs/pull/17 for more details.")
SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in "
         "inference mode in computation tracked by autograd. To work around this, you can make "
         "a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` "
         "instead of `torch.inference_mode()`.")
REQUIRES_GRAD = ("Setting requires_grad=True on inference tensor outside InferenceMode is not "
                 "allowed.")
VERSION = "Inference tensors do not track version counter."


def _inference(values=(1., 2., 3.)):
    with ember.inference_mode():
        return ember.tensor(list(values))


def test_tensors_made_inside_are_inference_tensors():
    x = ember.ones(3)
    w = ember.ones(3, requires_grad=True)
    with ember.inference_mode():
        a = ember.zeros(2)
        b = w * 2
        assert ember.is_inference_mode_enabled() and not ember.is_grad_enabled()
        assert a.is_inference() and ember.is_inference(a) and b.is_inference()
        assert not b.requires_grad and b.grad_fn is None
        assert not x[1:].is_inference()         # a view of a normal tensor stays normal
        assert not w.is_inference()
    assert not ember.is_inference_mode_enabled() and ember.is_grad_enabled()
    assert not x.is_inference() and not ember.ones(1).is_inference()
    with pytest.raises(TypeError, match=r"is_inference\(\): argument 'input'"):
        ember.is_inference(3)


def test_enable_grad_inside_records_no_graph():
    w = ember.ones(2, requires_grad=True)
    with ember.inference_mode():
        with ember.enable_grad():
            assert ember.is_grad_enabled()
            c = w * 3
        ember.set_grad_enabled(True)
        assert ember.is_grad_enabled() and not (w * 2).requires_grad
    assert c.is_inference() and not c.requires_grad and c.grad_fn is None
    np.testing.assert_array_equal(c.numpy(), [3., 3.])
    with ember.no_grad():
        with ember.inference_mode(False):
            assert ember.is_grad_enabled()


def test_inference_mode_false_inside_gives_normal_tensors():
    w = ember.ones(2, requires_grad=True)
    with ember.inference_mode():
        with ember.inference_mode(False):
            d = w * 2
            assert not ember.is_inference_mode_enabled() and ember.is_grad_enabled()
            assert not d.is_inference() and d.requires_grad
            assert type(d.grad_fn).__name__ == "MulBackward0"
        assert ember.ones(1).is_inference()


def test_views_and_detach_keep_mark_clone_and_new_results_do_not():
    a = _inference()
    x = ember.ones(3)
    assert a[1:].is_inference() and a.view(3, 1).is_inference() and a.reshape(3).is_inference()
    assert a.detach().is_inference() and a.data.is_inference() and a.float().is_inference()
    assert not a.clone().is_inference() and not (a + x).is_inference()
    assert not a.double().is_inference() and not ember.exp(a).is_inference()
    assert not ember.zeros_like(a).is_inference()
    np.testing.assert_array_equal(a.numpy(), [1., 2., 3.])
    assert repr(a) == "tensor([1., 2., 3.])" and str(a) == "tensor([1., 2., 3.])"
    assert a.tolist() == [1., 2., 3.] and not a.requires_grad and a.is_leaf


def test_inplace_outside_refused_after_writing_as_torch():
    a = _inference()
    for write in (lambda: a.add_(1), lambda: a.zero_(), lambda: a.fill_(7),
                  lambda: a.copy_(ember.ones(3)), lambda: a[1:].mul_(2),
                  lambda: a.unsqueeze_(0)):
        with pytest.raises(RuntimeError) as info:
            write()
        assert str(info.value) == INPLACE
    # torch writes, then refuses (its check comes with the version bump)
    np.testing.assert_array_equal(a.numpy(), [[1., 2., 2.]])
    with ember.no_grad():
        with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
            a.add_(1)
    with ember.inference_mode():
        a.mul_(5)                       # fine inside
    np.testing.assert_array_equal(a.numpy(), [[10., 15., 15.]])
    b = a.clone()
    b.add_(1)                           # a clone is a normal tensor
    assert not b.is_inference()
    x = ember.zeros(1, 3)
    x.add_(a)                           # reading one is fine
    np.testing.assert_array_equal(x.numpy(), [[10., 15., 15.]])


def test_version_counter():
    a = _inference()
    with pytest.raises(RuntimeError) as info:
        a._version
    assert str(info.value) == VERSION
    d = a.detach()                      # outside inference mode: a counter of its own
    assert d._version == 0 and d.is_inference()
    d.add_(1)
    assert d._version == 1
    np.testing.assert_array_equal(a.numpy(), [2., 3., 4.])


def test_saving_for_backward_refused():
    a = _inference()
    w = ember.ones(3, requires_grad=True)
    for use in (lambda: a * w, lambda: w * a, lambda: ember.mul(w, a)):
        with pytest.raises(RuntimeError) as info:
            use()
        assert str(info.value) == SAVED
    (a + w).sum().backward()            # add saves nothing
    np.testing.assert_array_equal(w.grad.numpy(), [1., 1., 1.])

    class Keep(ember.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(y)
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    with pytest.raises(RuntimeError) as info:
        Keep.apply(w, a)
    assert str(info.value) == SAVED


def test_requires_grad_refused_outside():
    a = _inference()
    for make in (lambda: a.requires_grad_(), lambda: setattr(a, "requires_grad", True),
                 lambda: nn.Parameter(a)):
        with pytest.raises(RuntimeError) as info:
            make()
        assert str(info.value) == REQUIRES_GRAD
    assert a.requires_grad_(False) is a
    with ember.inference_mode():
        b = ember.ones(2).requires_grad_()
    assert b.requires_grad and b.is_inference()
    (b * 2).sum().backward()            # recorded (mul saves only the scalar)
    np.testing.assert_array_equal(b.grad.numpy(), [2., 2.])


def test_view_of_normal_tensor_made_inside_modified_outside():
    w = ember.ones(3, requires_grad=True)
    with ember.inference_mode():
        v = w[:2]
    assert v.requires_grad and v.grad_fn is None and not v.is_inference()
    with pytest.raises(RuntimeError, match=r"^A view was created in inference mode and is being "
                                           r"modified inplace in normal mode\. "):
        v.add_(1)
    with ember.no_grad():
        w.add_(1)
    with pytest.raises(RuntimeError, match=r"^A view was created in inference mode and its base "
                                           r"or another view of its base has been modified "
                                           r"inplace in normal mode\. .*inference_mode block"):
        v * 2


def test_decorator_forms_and_generators():
    @ember.inference_mode
    def bare():
        return ember.ones(1).is_inference(), ember.is_inference_mode_enabled()

    @ember.inference_mode()
    def called():
        return ember.ones(1).is_inference()

    @ember.inference_mode(False)
    def off():
        return ember.ones(1).is_inference(), ember.is_grad_enabled()

    @ember.inference_mode()
    def gen():
        yield ember.ones(1).is_inference()
        yield ember.is_inference_mode_enabled()

    assert bare() == (True, True) and called() is True and off() == (False, True)
    it = gen()
    assert next(it) is True and not ember.is_inference_mode_enabled() and next(it) is True
    assert ember.inference_mode().mode is True and ember.inference_mode(False).mode is False


def test_eval_loop_dataloader_and_optimizer():
    ember.manual_seed(0)
    model = nn.Linear(3, 2).eval()
    data = ember.utils.data.TensorDataset(ember.arange(12.).reshape(4, 3), ember.arange(4))
    with ember.inference_mode():
        outs = [(model(xb), xb, yb) for xb, yb in ember.utils.data.DataLoader(data, 2)]
    for out, xb, yb in outs:
        assert out.is_inference() and xb.is_inference() and yb.is_inference()
        assert not out.requires_grad
        expected = xb.numpy() @ model.weight.detach().numpy().T + model.bias.detach().numpy()
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    assert not model.weight.is_inference()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        outs[0][0].sum().backward()
    with ember.inference_mode():
        made_inside = nn.Linear(3, 2)
    assert made_inside.weight.is_inference() and made_inside.weight.requires_grad
    made_inside.weight.grad = ember.ones(2, 3)
    opt = ember.optim.SGD(made_inside.parameters(), lr=0.1)
    with pytest.raises(RuntimeError) as info:
        opt.step()
    assert str(info.value) == INPLACE


def test_copies_made_inside_are_inference_tensors():
    x = ember.ones(2)
    with ember.inference_mode():
        assert pickle.loads(pickle.dumps(x)).is_inference()
        assert copy.deepcopy(x).is_inference()
        assert ember.empty_strided((2,), (1,)).is_inference()
    assert not pickle.loads(pickle.dumps(_inference())).is_inference()
    assert not copy.deepcopy(_inference()).is_inference()
