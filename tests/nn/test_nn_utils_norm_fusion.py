"""The hook-based nn.utils.weight_norm / spectral_norm, conv/linear + batch-norm fusion,
convert_conv2d_weight_memory_format, skip_init, the deprecated clip_grad_norm, and nn.init's
sparse_, dirac_ groups and deprecated names: NumPy references and hand-worked numbers."""
import math
import warnings

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import init
from ember.nn import utils as U


def _warns(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [(w.category, str(w.message)) for w in caught]


# -- hook-based weight_norm ----------------------------------------------------------------------

def test_weight_norm_hook():
    m = nn.Linear(4, 3).double()
    w = m.weight.detach().numpy().copy()
    m, caught = _warns(lambda: U.weight_norm(m))
    assert caught == [(FutureWarning, "`torch.nn.utils.weight_norm` is deprecated in favor of "
                                      "`torch.nn.utils.parametrizations.weight_norm`.")]
    assert list(m.state_dict()) == ["bias", "weight_g", "weight_v"]
    np.testing.assert_allclose(m.weight_g.detach().numpy(),
                               np.linalg.norm(w, axis=1, keepdims=True))
    with ember.no_grad():
        m.weight_g.copy_(ember.tensor([[1.0], [2.0], [3.0]]))
    x = np.random.default_rng(0).standard_normal((2, 4))
    out = m(ember.tensor(x))            # the pre-hook recomputes the weight
    unit = w / np.linalg.norm(w, axis=1, keepdims=True)
    want_w = unit * np.array([[1.0], [2.0], [3.0]])
    np.testing.assert_allclose(m.weight.detach().numpy(), want_w)
    np.testing.assert_allclose(out.detach().numpy(), x @ want_w.T + m.bias.detach().numpy())
    out.sum().backward()
    # d out / d g_i = sum_b x_b . unit_i
    np.testing.assert_allclose(m.weight_g.grad.numpy()[:, 0], unit @ x.sum(0))
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks on the same "
                                           "parameter weight"):
        _warns(lambda: U.weight_norm(m))
    U.remove_weight_norm(m)
    assert list(m.state_dict()) == ["bias", "weight"] and isinstance(m.weight, nn.Parameter)
    np.testing.assert_allclose(m.weight.detach().numpy(), want_w)
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found in Linear"):
        U.remove_weight_norm(m)


def test_weight_norm_hook_dim_none():
    m, _ = _warns(lambda: U.weight_norm(nn.Conv1d(2, 3, 2), dim=None))
    v = m.weight_v.detach().numpy()
    assert m.weight_g.shape == ()
    np.testing.assert_allclose(m.weight_g.item(), np.linalg.norm(v), rtol=1e-6)


# -- hook-based spectral_norm --------------------------------------------------------------------

def test_spectral_norm_hook():
    m = U.spectral_norm(nn.Linear(3, 2).double())
    assert list(m.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    w = np.array([[1.0, 2, 0], [0, 1, 3]])
    with ember.no_grad():
        m.weight_orig.copy_(ember.tensor(w))
    u0 = m.weight_u.numpy().copy()
    m(ember.ones(1, 3, dtype=ember.float64))
    v = w.T @ u0
    v /= np.linalg.norm(v)
    u = w @ v
    u /= np.linalg.norm(u)
    np.testing.assert_allclose(m.weight_v.numpy(), v)
    np.testing.assert_allclose(m.weight_u.numpy(), u)
    np.testing.assert_allclose(m.weight.detach().numpy(), w / (u @ w @ v))
    before = m.weight_u.numpy().copy()
    m.eval()
    m(ember.ones(1, 3, dtype=ember.float64))
    np.testing.assert_array_equal(m.weight_u.numpy(), before)     # no power iteration
    for _ in range(30):
        m.train()(ember.ones(1, 3, dtype=ember.float64))
    sigma = np.linalg.svd(w, compute_uv=False)[0]
    U.remove_spectral_norm(m)
    assert list(m.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(m.weight.detach().numpy(), w / sigma, rtol=1e-10)
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found"):
        U.remove_spectral_norm(m)


def test_spectral_norm_hook_conv_transpose_dim_and_errors():
    m = U.spectral_norm(nn.ConvTranspose1d(3, 4, 2))
    assert m.weight_u.shape == (4,) and m.weight_v.shape == (6,)
    with pytest.raises(RuntimeError, match="Cannot register two spectral_norm hooks"):
        U.spectral_norm(m)
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive"):
        U.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
    with pytest.raises(ValueError, match="`SpectralNorm` cannot be applied as parameter "
                                         "`bias` is None"):
        U.spectral_norm(nn.Linear(2, 2, bias=False), "bias")


# -- fusion --------------------------------------------------------------------------------------

def _eval_bn(bn):
    rng = np.random.default_rng(5)
    n = bn.num_features
    with ember.no_grad():
        bn.running_mean.copy_(ember.tensor(rng.uniform(-1, 1, n)))
        bn.running_var.copy_(ember.tensor(rng.uniform(0.5, 2, n)))
        bn.weight.copy_(ember.tensor(rng.uniform(0.5, 1.5, n)))
        bn.bias.copy_(ember.tensor(rng.uniform(-1, 1, n)))
    return bn.eval()


def test_fuse_conv_bn():
    conv = nn.Conv2d(3, 4, 3).double().eval()
    bn = _eval_bn(nn.BatchNorm2d(4).double())
    fused = U.fuse_conv_bn_eval(conv, bn)
    assert fused is not conv and isinstance(fused.weight, nn.Parameter)
    x = ember.randn(2, 3, 5, 5, dtype=ember.float64)
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(conv(x)).detach().numpy(),
                               atol=1e-12)
    scale = bn.weight.detach().numpy() / np.sqrt(bn.running_var.numpy() + bn.eps)
    np.testing.assert_allclose(fused.weight.detach().numpy(),
                               conv.weight.detach().numpy() * scale[:, None, None, None])
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        U.fuse_conv_bn_eval(conv.train(), bn)


def test_fuse_conv_transpose_bn_and_missing_affine():
    conv = nn.ConvTranspose2d(4, 3, 2, bias=False).double().eval()
    bn = _eval_bn(nn.BatchNorm2d(3).double())
    fused = U.fuse_conv_bn_eval(conv, bn, transpose=True)
    x = ember.randn(1, 4, 3, 3, dtype=ember.float64)
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(conv(x)).detach().numpy(),
                               atol=1e-12)
    rm, rv = ember.tensor([1.0, 2.0]), ember.tensor([3.0, 8.0])
    w, b = U.fuse_conv_bn_weights(ember.ones(2, 1, 1, requires_grad=True), None, rm, rv, 1.0,
                                  None, None)
    np.testing.assert_allclose(w.detach().numpy()[:, 0, 0], [0.5, 1 / 3])
    np.testing.assert_allclose(b.detach().numpy(), [-0.5, -2 / 3])
    assert w.requires_grad and not b.requires_grad


def test_fuse_linear_bn():
    lin = nn.Linear(4, 3).double().eval()
    bn = _eval_bn(nn.BatchNorm1d(3).double())
    fused = U.fuse_linear_bn_eval(lin, bn)
    x = ember.randn(5, 4, dtype=ember.float64)
    np.testing.assert_allclose(fused(x).detach().numpy(), bn(lin(x)).detach().numpy(),
                               atol=1e-12)
    with pytest.raises(AssertionError, match="linear.out_features=3 and bn.num_features=5"):
        U.fuse_linear_bn_eval(lin, nn.BatchNorm1d(5).eval())


# -- memory format, skip_init, clip_grad_norm ----------------------------------------------------

def test_convert_conv2d_weight_memory_format():
    net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Sequential(nn.ConvTranspose2d(4, 2, 2)),
                        nn.Conv3d(1, 1, 1))
    w0 = net[0].weight
    before = w0.detach().numpy().copy()
    assert U.convert_conv2d_weight_memory_format(net, ember.channels_last) is net
    assert net[0].weight is w0 and net[0].weight.stride() == (27, 1, 9, 3)
    assert net[1][0].weight.stride() == (8, 1, 4, 2)
    assert net[2].weight.stride() == (1, 1, 1, 1, 1)
    np.testing.assert_array_equal(net[0].weight.detach().numpy(), before)
    U.convert_conv2d_weight_memory_format(net, ember.contiguous_format)
    assert net[0].weight.stride() == (27, 9, 3, 1)
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last"):
        U.convert_conv3d_weight_memory_format(net, ember.channels_last)


def test_skip_init_leaves_the_random_stream_alone():
    ember.manual_seed(4)
    want = ember.rand(3)
    ember.manual_seed(4)
    m = U.skip_init(nn.Linear, 5, 2, bias=False)
    assert type(m) is nn.Linear and m.weight.shape == (2, 5) and m.bias is None
    assert m.weight.requires_grad
    np.testing.assert_array_equal(ember.rand(3).numpy(), want.numpy())
    with pytest.raises(RuntimeError, match="Module must support a 'device' arg"):
        U.skip_init(nn.Sequential)
    with pytest.raises(RuntimeError, match="Expected a Module; got <class 'int'>"):
        U.skip_init(int)


def test_clip_grad_norm_deprecated():
    p = nn.Parameter(ember.tensor([3.0, 4.0]))
    p.grad = ember.tensor([3.0, 4.0])
    total, caught = _warns(lambda: U.clip_grad_norm([p], 1.0))
    assert total.item() == 5.0
    np.testing.assert_allclose(p.grad.numpy(), [0.6, 0.8], rtol=1e-6)
    assert caught == [(FutureWarning, "`torch.nn.utils.clip_grad_norm` is now deprecated in "
                                      "favor of `torch.nn.utils.clip_grad_norm_`.")]


# -- nn.init -------------------------------------------------------------------------------------

def test_sparse_init():
    w = init.sparse_(ember.empty(10, 6), sparsity=0.25, std=2.0)
    a = w.numpy()
    assert ((a == 0).sum(axis=0) == math.ceil(0.25 * 10)).all()
    assert 1.0 < a[a != 0].std() < 3.5
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.sparse_(ember.empty(3), 0.1)


def test_dirac_groups():
    a = init.dirac_(ember.empty(6, 2, 3, 3), groups=3).numpy()
    want = np.zeros((6, 2, 3, 3))
    for g in range(3):
        for d in range(2):
            want[2 * g + d, d, 1, 1] = 1
    np.testing.assert_array_equal(a, want)
    with pytest.raises(ValueError, match="dim 0 must be divisible by groups"):
        init.dirac_(ember.empty(3, 3, 3), 2)


@pytest.mark.parametrize("name,args", [
    ("uniform", ()), ("normal", ()), ("constant", (0.5,)), ("eye", ()), ("dirac", ()),
    ("xavier_uniform", ()), ("xavier_normal", ()), ("kaiming_uniform", ()),
    ("kaiming_normal", ()), ("orthogonal", ()), ("sparse", (0.3,))])
def test_deprecated_init_names(name, args):
    shape = (3, 4, 3) if name == "dirac" else (3, 4)
    ember.manual_seed(1)
    old, caught = _warns(lambda: getattr(init, name)(ember.empty(*shape), *args))
    ember.manual_seed(1)
    new = getattr(init, name + "_")(ember.empty(*shape), *args)
    np.testing.assert_array_equal(old.numpy(), new.numpy())
    assert caught == [(FutureWarning, f"`nn.init.{name}` is now deprecated in favor of "
                                      f"`nn.init.{name}_`.")]
    assert name in init.__all__ and name + "_" in init.__all__
