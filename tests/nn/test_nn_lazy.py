"""Lazy modules: UninitializedParameter/UninitializedBuffer, LazyModuleMixin and the lazy
Linear, convolution and norm layers (shapes from the first input, then the ordinary class with
its ordinary initialisation)."""
import copy
import io
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F
from ember.nn.modules.lazy import LazyModuleMixin
from ember.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy

from nn_checks import check_gradients

USE_TEXT = ("Attempted to use an uninitialized parameter in {}. This error happens when you are "
            "using a `LazyModule` or explicitly manipulating `torch.nn.parameter.{}` objects. "
            "When using LazyModules Call `forward` with a dummy batch to initialize the "
            "parameters before calling torch functions")
SHAPE_TEXT = ("Can't access the shape of an uninitialized parameter or buffer. This error usually "
              "happens in `load_state_dict` when trying to load an uninitialized parameter into "
              "an initialized one. Call `forward` to initialize the parameters before accessing "
              "their attributes.")


def _method(name):
    return f"<method '{name}' of 'torch._C.TensorBase' objects>"


# -- UninitializedParameter and UninitializedBuffer -------------------------------------------

def test_uninitialized_parameter_what_it_allows():
    p = UninitializedParameter()
    assert repr(p) == str(p) == "<UninitializedParameter>"
    assert isinstance(p, nn.Parameter) and isinstance(p, ember.Tensor) and is_lazy(p)
    assert nn.UninitializedParameter is UninitializedParameter
    assert p.dtype == ember.float32 and p.device == ember.device("cpu")
    assert p.requires_grad and p.is_leaf and p.grad is None and p.grad_fn is None
    assert p.size() == ember.Size([0]) and p.is_floating_point() and not p.is_complex()
    assert p.get_device() == -1
    assert UninitializedParameter(requires_grad=False).requires_grad is False
    assert UninitializedParameter(dtype=ember.float64).dtype == ember.float64
    assert not is_lazy(ember.zeros(1)) and not is_lazy(nn.Parameter(ember.zeros(1)))


def test_uninitialized_parameter_refuses_data_access():
    p = UninitializedParameter()
    with pytest.raises(RuntimeError) as e:
        p.shape
    assert str(e.value) == SHAPE_TEXT
    for call, name in [(p.numel, "numel"), (p.nelement, "numel"), (p.dim, "dim"),
                       (p.sum, "sum"), (p.detach, "detach"), (p.clone, "clone"),
                       (lambda: p + 1, "add"), (lambda: 2 * p, "mul"), (lambda: -p, "neg"),
                       (lambda: p[0], None), (lambda: p.requires_grad_(False), "requires_grad_"),
                       (lambda: p.view(-1), "view"), (p.tolist, "tolist"), (p.bool, "bool")]:
        with pytest.raises(ValueError) as e:
            call()
        if name is not None:
            assert str(e.value) == USE_TEXT.format(_method(name), "UninitializedParameter")
    with pytest.raises(ValueError, match=r"in <function Tensor.__len__ at 0x"):
        len(p)
    with pytest.raises(ValueError, match=r"in <slot wrapper '__getitem__' of"):
        p[0]


@pytest.mark.parametrize("call", [
    lambda p: ember.sum(p), lambda p: F.linear(ember.zeros(2, 3), p),
    lambda p: ember.zeros(2, 3) @ p, lambda p: ember.zeros(2) + p, lambda p: ember.empty_like(p),
    lambda p: ember.zeros(0).copy_(p), lambda p: nn.Parameter(p), lambda p: ember.exp(p)])
def test_functions_given_an_uninitialized_parameter_raise(call):
    # NOTE: never a result computed on the empty placeholder (torch.sum would give 0).
    with pytest.raises(ValueError, match="Attempted to use an uninitialized parameter"):
        call(UninitializedParameter())


def test_constructor_errors():
    with pytest.raises(TypeError) as e:
        UninitializedParameter(3)
    assert str(e.value) == ("_make_subclass(): argument 'require_grad' (position 3) must be "
                            "bool, not int")
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype"):
        UninitializedParameter(True, None, ember.int64)
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype"):
        nn.Parameter(ember.zeros(2, dtype=ember.long))
    for data, name in (([1.0, 2.0], "list"), (3, "int")):     # torch detaches non-tensors
        with pytest.raises(AttributeError) as e:
            nn.Parameter(data)
        assert str(e.value) == f"'{name}' object has no attribute 'detach'"
    assert UninitializedParameter(False, None, ember.int64).dtype == ember.int64


def test_conversions_follow_torch():
    p = UninitializedParameter()
    assert p.float() is p and p.cpu() is p and p.to("cpu") is p and p.to(ember.float32) is p
    d = p.to(ember.float64)
    assert type(d) is ember.Tensor and d.dtype == ember.float64 and d.shape == (0,)
    assert d.grad_fn.name() == "ToCopyBackward0"
    assert p.double().dtype == ember.float64 and p.long().dtype == ember.int64
    assert UninitializedParameter(requires_grad=False).double().grad_fn is None
    b = UninitializedBuffer()
    assert b.float() is b
    b64 = b.to(ember.float64)
    assert type(b64) is UninitializedBuffer and b64.dtype == ember.float64
    assert b.half().dtype == ember.float16


def test_copy_pickle_and_deepcopy():
    p = UninitializedParameter(requires_grad=False, dtype=ember.float64)
    for q in (copy.copy(p), copy.deepcopy(p)):
        assert type(q) is UninitializedParameter and q is not p
        assert q.dtype == ember.float64 and q.requires_grad is False
    assert p.__reduce_ex__(2) == (UninitializedParameter, (False,))
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is UninitializedParameter and q.requires_grad is False
    with pytest.raises(ValueError, match=r"in <function Tensor.__deepcopy__ at 0x.*"
                                         r"`torch.nn.parameter.UninitializedBuffer` objects"):
        copy.deepcopy(UninitializedBuffer())
    with pytest.raises(RuntimeError, match="Can't share memory on an uninitialized parameter"):
        p.share_memory_()


def test_materialize():
    p = UninitializedParameter(dtype=ember.float64)
    p.materialize((2, 3))
    assert type(p) is nn.Parameter and p.shape == (2, 3) and p.dtype == ember.float64
    assert p.requires_grad and not is_lazy(p)
    q = UninitializedParameter()
    q.materialize(4, dtype=ember.float16)
    assert type(q) is nn.Parameter and q.shape == (4,) and q.dtype == ember.float16
    r = UninitializedParameter()
    with pytest.raises(RuntimeError) as e:
        r.materialize((2,), dtype=ember.int64)
    assert str(e.value) == ("data set to a tensor that requires gradients must be floating "
                            "point or complex dtype")
    assert type(r) is UninitializedParameter         # unchanged by the failed attempt
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        r.materialize(-1)
    b = UninitializedBuffer(persistent=False)
    assert isinstance(b, nn.Buffer) and not b.requires_grad and b.persistent is False
    b.materialize((3,))
    assert type(b) is ember.Tensor and b.shape == (3,) and not b.requires_grad
    assert b.persistent is False and isinstance(b, nn.Buffer)


# -- LazyModuleMixin and LazyLinear ------------------------------------------------------------

def test_lazy_linear_becomes_linear():
    m = nn.LazyLinear(4)
    assert repr(m) == "LazyLinear(in_features=0, out_features=4, bias=True)"
    assert m.has_uninitialized_params() and m.cls_to_become is nn.Linear
    assert [type(p) for p in m.parameters()] == [UninitializedParameter] * 2
    y = m(ember.ones(2, 3))
    assert type(m) is nn.Linear and repr(m) == "Linear(in_features=3, out_features=4, bias=True)"
    assert m.in_features == 3 and m.weight.shape == (4, 3) and m.bias.shape == (4,)
    assert y.shape == (2, 4) and y.grad_fn.name() == "AddmmBackward0"
    assert not m._forward_pre_hooks and not hasattr(m, "has_uninitialized_params")
    assert nn.LazyLinear(3, bias=False)(ember.ones(5, 2)).shape == (5, 3)
    assert nn.LazyLinear(3)(ember.ones(2)).shape == (3,)
    assert nn.LazyLinear(3)(ember.ones(2, 7, 6)).shape == (2, 7, 3)
    assert nn.LazyLinear(3)(input=ember.ones(2, 2)).shape == (2, 3)


def test_lazy_linear_initialises_as_linear_and_as_torch():
    ember.manual_seed(1)
    lin = nn.Linear(3, 4)
    ember.manual_seed(0)
    lazy = nn.LazyLinear(4)          # draws nothing: the numbers come at the first call
    ember.manual_seed(1)
    y = lazy(ember.ones(2, 3))
    assert ember.equal(lazy.weight, lin.weight) and ember.equal(lazy.bias, lin.bias)
    # torch 2.13: manual_seed(1); LazyLinear(4)(torch.ones(2, 3)) (after manual_seed(0)).
    np.testing.assert_allclose(y.detach().numpy()[0], [0.1416, -0.1513, 0.2131, 0.0659],
                               atol=1e-4)


def test_lazy_linear_gradients_after_materialization():
    m = nn.LazyLinear(3, dtype=ember.float64)
    m(ember.ones(1, 4, dtype=ember.float64))
    w, b = m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()
    x = np.random.default_rng(0).standard_normal((2, 4))
    check_gradients(lambda x, w, b: F.linear(x, w, b), x, w, b)
    xt = ember.tensor(x, requires_grad=True)
    m(xt).sum().backward()
    np.testing.assert_allclose(m.weight.grad.numpy(), np.tile(x.sum(0), (3, 1)))
    np.testing.assert_allclose(m.bias.grad.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(xt.grad.numpy(), np.tile(w.sum(0), (2, 1)))


def test_optimizer_takes_uninitialized_parameters():
    m = nn.LazyLinear(2)
    opt = ember.optim.SGD(m.parameters(), lr=0.5)
    opt.step()                                        # nothing to do yet
    m(ember.ones(1, 3)).sum().backward()
    before = m.weight.detach().clone()
    opt.step()
    np.testing.assert_allclose(m.weight.detach().numpy(), before.numpy() - 0.5)


class Placeholder:
    def __repr__(self):
        return "<UninitializedParameter>"


def test_lazy_state_dict_holds_the_uninitialized_parameters():
    m = nn.LazyLinear(4)
    sd = m.state_dict()
    assert list(sd) == ["weight", "bias"] and sd["weight"] is m.weight
    assert sd._metadata[""] == {"version": 1}
    # Python's own OrderedDict repr (its form changed in 3.12), holding torch's parameter repr
    assert repr(sd) == repr(OrderedDict([("weight", Placeholder()), ("bias", Placeholder())]))
    other = nn.LazyLinear(4)
    assert repr(other.load_state_dict(sd)) == "<All keys matched successfully>"
    assert type(other.weight) is UninitializedParameter
    with pytest.raises(RuntimeError) as e:
        nn.Linear(3, 4).load_state_dict(sd)
    assert str(e.value) == SHAPE_TEXT
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "bias"'):
        nn.LazyLinear(3).load_state_dict({"weight": ember.zeros(3, 2)})


def test_loading_real_values_materializes():
    src = nn.Linear(2, 3)
    m = nn.LazyLinear(3)
    assert repr(m.load_state_dict(src.state_dict())) == "<All keys matched successfully>"
    assert type(m) is nn.LazyLinear and type(m.weight) is nn.Parameter
    assert ember.equal(m.weight, src.weight) and m.in_features == 0
    assert ember.allclose(m(ember.ones(1, 2)), src(ember.ones(1, 2)))
    assert type(m) is nn.Linear and m.in_features == 2
    # A float64 checkpoint goes into the parameter's own dtype.
    m = nn.LazyLinear(3)
    m.load_state_dict({"weight": ember.zeros(3, 2, dtype=ember.float64), "bias": ember.zeros(3)})
    assert m.weight.dtype == ember.float32
    # An input that disagrees with the loaded weight.
    m = nn.LazyLinear(3)
    m.load_state_dict(src.state_dict())
    with pytest.raises(AssertionError) as e:
        m(ember.ones(1, 5))
    assert str(e.value) == ("The in_features inferred from input: 5 is not equal to "
                            "in_features from self.weight: 2")
    assert type(m) is nn.LazyLinear and m.in_features == 0
    # assign=True takes the given tensors.
    m = nn.LazyLinear(3)
    m.load_state_dict(src.state_dict(), assign=True)
    assert type(m.weight) is nn.Parameter and m(ember.ones(1, 2)).shape == (1, 3)


def test_partially_loaded_lazy_module_fails_as_torch():
    src = nn.Linear(2, 3)
    sd = src.state_dict()
    del sd["bias"]
    m = nn.LazyLinear(3)
    keys = m.load_state_dict(sd, strict=False)
    assert keys.missing_keys == ["bias"] and keys.unexpected_keys == []
    assert type(m.weight) is nn.Parameter and type(m.bias) is UninitializedParameter
    with pytest.raises(AttributeError, match="'Parameter' object has no attribute 'materialize'"):
        m(ember.ones(1, 2))
    assert type(m) is nn.LazyLinear


def test_mixin_errors():
    class NoInit(LazyModuleMixin, nn.Module):
        def __init__(self):
            super().__init__()
            self.w = UninitializedParameter()

        def forward(self, x):
            return x

    class Incomplete(NoInit):
        def initialize_parameters(self, x):
            pass

    with pytest.raises(NotImplementedError) as e:
        NoInit()(ember.zeros(1))
    assert str(e.value) == "initialize_parameters is not implemented for NoInit"
    with pytest.raises(RuntimeError) as e:
        Incomplete()(ember.zeros(1))
    assert str(e.value) == "module Incomplete has not been fully initialized"
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'input'"):
        nn.LazyLinear(3)()


def test_lazy_modules_in_a_sequential():
    net = nn.Sequential(nn.LazyLinear(3), nn.ReLU(), nn.LazyLinear(2))
    assert "(0): LazyLinear(in_features=0, out_features=3, bias=True)" in repr(net)
    assert net(ember.ones(4, 5)).shape == (4, 2)
    assert repr(net) == ("Sequential(\n  (0): Linear(in_features=5, out_features=3, bias=True)\n"
                         "  (1): ReLU()\n  (2): Linear(in_features=3, out_features=2, bias=True)"
                         "\n)")


def test_deepcopy_and_pickle_of_a_lazy_module():
    m = nn.LazyLinear(4)
    twin = copy.deepcopy(m)
    assert type(twin) is nn.LazyLinear and twin.weight is not m.weight
    twin(ember.ones(1, 3))
    assert type(twin) is nn.Linear and type(m) is nn.LazyLinear
    assert m(ember.ones(1, 5)).shape == (1, 4) and m.in_features == 5  # its own hook survived
    again = pickle.loads(pickle.dumps(nn.LazyLinear(2)))
    assert again(ember.ones(1, 5)).shape == (1, 2) and type(again) is nn.Linear


def test_save_and_load_lazy_state():
    buf = io.BytesIO()
    ember.save(nn.LazyLinear(3).state_dict(), buf)
    buf.seek(0)
    sd = ember.load(buf, weights_only=False)
    assert [type(v) for v in sd.values()] == [UninitializedParameter] * 2
    buf.seek(0)
    with pytest.raises(Exception, match="UninitializedParameter"):
        ember.load(buf)                                # not in the weights_only allowlist


def test_module_conversions_keep_parameters_uninitialized():
    m = nn.LazyLinear(3).double()
    assert type(m.weight) is UninitializedParameter and m.weight.dtype == ember.float64
    assert m(ember.ones(1, 2, dtype=ember.float64)).dtype == ember.float64
    m = nn.LazyLinear(3).float()
    assert type(m.weight) is UninitializedParameter
    bn = nn.LazyBatchNorm1d().to(ember.float64)
    assert type(bn.running_mean) is UninitializedBuffer and bn.running_mean.dtype == ember.float64
    bn(ember.ones(2, 2, dtype=ember.float64))
    assert bn.running_mean.dtype == ember.float64
    with pytest.raises(RuntimeError, match="Can't share memory on an uninitialized"):
        nn.LazyLinear(3).share_memory()
    with pytest.raises(ValueError, match=r"in <method 'requires_grad_' of"):
        nn.LazyLinear(3).requires_grad_(False)
    with pytest.raises(ValueError, match=r"in <method 'numel' of"):
        sum(p.numel() for p in nn.LazyLinear(3).parameters())


# -- convolutions ------------------------------------------------------------------------------

CONVS = [
    (nn.LazyConv1d, nn.Conv1d, (4, 3), {}, (2, 3, 7)),
    (nn.LazyConv2d, nn.Conv2d, (4, 3), {"groups": 2, "padding": 1}, (2, 4, 5, 5)),
    (nn.LazyConv3d, nn.Conv3d, (2, 2), {"bias": False}, (1, 2, 3, 3, 3)),
    (nn.LazyConvTranspose1d, nn.ConvTranspose1d, (4, 3), {}, (2, 3, 7)),
    (nn.LazyConvTranspose2d, nn.ConvTranspose2d, (4, 3), {"stride": 2, "groups": 2},
     (2, 2, 3, 3)),
    (nn.LazyConvTranspose3d, nn.ConvTranspose3d, (2, 2), {}, (1, 2, 2, 2, 2)),
]


@pytest.mark.parametrize("lazy_cls, cls, args, kwargs, shape", CONVS,
                         ids=[c[0].__name__ for c in CONVS])
def test_lazy_convolutions_match_the_ordinary_ones(lazy_cls, cls, args, kwargs, shape):
    x = ember.randn(*shape)
    m = lazy_cls(*args, **kwargs)
    plain = repr(cls(shape[1], *args, **kwargs))
    assert repr(m) == "Lazy" + plain.replace(f"({shape[1]}, ", "(0, ", 1)
    assert m.cls_to_become is cls and m.has_uninitialized_params()
    ember.manual_seed(3)
    ref = cls(shape[1], *args, **kwargs)
    ember.manual_seed(3)
    y = m(x)
    assert type(m) is cls and repr(m) == repr(ref) and m.in_channels == shape[1]
    assert m.weight.shape == ref.weight.shape and ember.equal(m.weight, ref.weight)
    assert (m.bias is None) == (ref.bias is None)
    if m.bias is not None:
        assert ember.equal(m.bias, ref.bias)
    assert ember.equal(y, ref(x)) and y.grad_fn.name() == "ConvolutionBackward0"
    # unbatched input
    assert lazy_cls(*args, **kwargs)(x[0]).shape == y.shape[1:]


def test_lazy_convolution_errors():
    with pytest.raises(RuntimeError) as e:
        nn.LazyConv2d(8, 3)(ember.randn(5, 5))
    assert str(e.value) == ("Expected 3D (unbatched) or 4D (batched) input to LazyConv2d, but "
                            "got input of size: torch.Size([5, 5])")
    m = nn.LazyConv2d(8, 3, groups=2)
    with pytest.raises(ValueError, match="^in_channels must be divisible by groups$"):
        m(ember.randn(1, 3, 5, 5))
    assert repr(m) == "LazyConv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), groups=2)"
    with pytest.raises(ValueError, match="^groups must be a positive integer$"):
        nn.LazyConv2d(8, 3, groups=0)
    with pytest.raises(ValueError) as e:
        nn.LazyConvTranspose2d(8, 3, padding_mode="reflect")
    assert str(e.value) == 'Only "zeros" padding mode is supported for LazyConvTranspose2d'
    assert repr(nn.LazyConv2d(8, 3, padding_mode="reflect", padding=1)) == (
        "LazyConv2d(0, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), "
        "padding_mode=reflect)")


def test_lazy_conv_transpose_passes_output_size():
    m = nn.LazyConvTranspose2d(4, 3, stride=2)
    assert m(ember.randn(1, 2, 5, 5), output_size=(12, 12)).shape == (1, 4, 12, 12)


def test_lazy_conv_loaded_from_state_dict():
    src = nn.Conv2d(2, 4, 3)
    m = nn.LazyConv2d(4, 3)
    m.load_state_dict(src.state_dict())
    x = ember.randn(1, 2, 5, 5)
    assert ember.equal(m(x), src(x))
    # NOTE: as torch, in_channels stays 0 when the shapes came from a state_dict.
    assert repr(m) == "Conv2d(0, 4, kernel_size=(3, 3), stride=(1, 1))"


# -- batch and instance norm -------------------------------------------------------------------

NORMS = [
    (nn.LazyBatchNorm1d, nn.BatchNorm1d, {}, (4, 3)),
    (nn.LazyBatchNorm2d, nn.BatchNorm2d, {"bias": False}, (2, 3, 2, 2)),
    (nn.LazyBatchNorm3d, nn.BatchNorm3d, {"momentum": None, "eps": 1e-3}, (2, 3, 2, 2, 2)),
    (nn.LazyInstanceNorm1d, nn.InstanceNorm1d, {}, (2, 3, 4)),
    (nn.LazyInstanceNorm2d, nn.InstanceNorm2d, {"track_running_stats": False}, (2, 3, 4, 4)),
    (nn.LazyInstanceNorm3d, nn.InstanceNorm3d, {"affine": False}, (2, 3, 2, 2, 2)),
]


@pytest.mark.parametrize("lazy_cls, cls, kwargs, shape", NORMS, ids=[n[0].__name__ for n in NORMS])
def test_lazy_norms_match_the_ordinary_ones(lazy_cls, cls, kwargs, shape):
    # NOTE: the lazy instance norms default to affine=True, track_running_stats=True (torch's).
    full = {"affine": True, "track_running_stats": True, **kwargs}
    m = lazy_cls(**kwargs)
    ref = cls(shape[1], **full)
    assert repr(m) == "Lazy" + repr(ref).replace(f"({shape[1]}, ", "(0, ", 1)
    sd = m.state_dict()
    assert list(sd) == list(ref.state_dict())
    kinds = {k: type(v).__name__ for k, v in sd.items()}
    assert {kinds[k] for k in ("weight", "bias") if k in kinds} <= {"UninitializedParameter"}
    if full["track_running_stats"]:
        assert kinds["running_mean"] == kinds["running_var"] == "UninitializedBuffer"
        assert sd["num_batches_tracked"].item() == 0
    x = ember.randn(*shape)
    y = m(x)
    assert type(m) is cls and repr(m) == repr(ref) and m.num_features == shape[1]
    assert ember.allclose(y, ref(x), atol=1e-6)
    for key, value in ref.state_dict().items():
        assert ember.allclose(m.state_dict()[key], value), key


def test_lazy_norm_without_parameters_skips_inference():
    m = nn.LazyBatchNorm1d(affine=False, track_running_stats=False)
    assert not m.has_uninitialized_params()
    assert m(ember.randn(2, 3)).shape == (2, 3)
    assert repr(m) == ("BatchNorm1d(0, eps=1e-05, momentum=0.1, affine=False, bias=False, "
                       "track_running_stats=False)")


def test_lazy_norm_errors_after_materializing():
    m = nn.LazyBatchNorm1d()
    with pytest.raises(ValueError, match=r"^expected 2D or 3D input \(got 4D input\)$"):
        m(ember.randn(2, 3, 4, 4))
    assert type(m) is nn.BatchNorm1d and m.num_features == 3
    m = nn.LazyInstanceNorm2d()
    with pytest.raises(ValueError) as e:
        m(ember.randn(3, 4, 4))                      # unbatched: dim 1 is taken as features
    assert str(e.value) == ("expected input's size at dim=0 to match num_features (4), but "
                            "got: 3.")
    with pytest.raises(IndexError):
        nn.LazyBatchNorm1d()(ember.randn(3))


def test_lazy_batchnorm_trains_and_evaluates():
    m = nn.LazyBatchNorm2d()
    x = ember.randn(4, 3, 2, 2, dtype=ember.float64)
    m = m.double()
    y = m(x)
    mean = x.numpy().mean(axis=(0, 2, 3))
    np.testing.assert_allclose(m.running_mean.numpy(), 0.1 * mean, rtol=1e-10)
    assert m.num_batches_tracked.item() == 1
    xn = x.numpy()
    ref = (xn - mean[None, :, None, None]) / np.sqrt(xn.var(axis=(0, 2, 3))[None, :, None, None]
                                                      + 1e-5)
    np.testing.assert_allclose(y.detach().numpy(), ref, rtol=1e-8, atol=1e-10)
    m.eval()
    e = nn.LazyBatchNorm2d().eval()
    assert ember.allclose(e(ember.ones(1, 3, 1, 1)), ember.ones(1, 3, 1, 1) / (1 + 1e-5) ** 0.5)
    assert e.running_mean.tolist() == [0.0, 0.0, 0.0]


def test_lazy_norm_state_dict_round_trip():
    src = nn.LazyBatchNorm1d()
    src(ember.randn(5, 4))
    m = nn.LazyBatchNorm1d()
    m.load_state_dict(src.state_dict())
    for key, value in src.state_dict().items():
        assert ember.equal(m.state_dict()[key], value)
    with pytest.raises(RuntimeError, match="running_mean should contain 5 elements not 4"):
        m(ember.randn(2, 5))
    with pytest.raises(ValueError, match="__deepcopy__"):
        copy.deepcopy(nn.LazyBatchNorm2d())
    assert type(copy.deepcopy(nn.LazyBatchNorm2d(track_running_stats=False))) is \
        nn.LazyBatchNorm2d
