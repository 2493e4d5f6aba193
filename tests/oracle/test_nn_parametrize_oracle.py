"""nn.utils parametrizations, weight/spectral norm, fusion, memory formats, skip_init and the
deprecated nn.init names against real torch: each scenario runs the same code on torch and on
ember (same seed, so the same random numbers) and every recorded value, printed form, key list,
warning and error text must agree. Skipped when torch is not installed."""
import importlib
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")


def _plain(value):
    """A comparable form: arrays for tensors, tuples for sizes, the rest as is."""
    if isinstance(value, (torch.Tensor, ember.Tensor)):
        return np.array(value.detach().cpu().numpy())
    if isinstance(value, (list, tuple)) and not isinstance(value, (torch.Size, ember.Size)):
        return [_plain(v) for v in value]
    if isinstance(value, (torch.Size, ember.Size)):
        return tuple(value)
    if isinstance(value, (torch.dtype, ember.dtype)):
        return str(value)
    return value


def _same(got, want, where):
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), where
        assert got.shape == want.shape and got.dtype == want.dtype, where
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6, err_msg=where)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=2e-5, abs=2e-6), where
    else:
        assert got == want, where


class _Log:
    """What a scenario records: values, and the type and text of errors and warnings."""

    def __init__(self):
        self.items = []

    def __call__(self, *values):
        self.items.append([_plain(v) for v in values])

    def error(self, fn):
        try:
            fn()
        except Exception as e:      # noqa: BLE001 - the type and text are what is compared
            self.items.append(("error", type(e).__name__, str(e)))
        else:
            self.items.append(("no error",))

    def warnings(self, fn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = fn()
        self.items.append([(w.category.__name__, str(w.message)) for w in caught])
        return result


def _compare(scenario):
    logs = []
    for lib in (torch, ember):
        log = _Log()
        lib.manual_seed(0)
        scenario(lib, log)
        logs.append(log.items)
    want, got = logs
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        _same(g, w, f"record {i}")


def _utils(lib):
    return (importlib.import_module(lib.__name__ + ".nn.utils.parametrize"),
            importlib.import_module(lib.__name__ + ".nn.utils.parametrizations"))


def _modules(lib):
    nn = lib.nn

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT

    class Skew(nn.Module):
        def forward(self, X):
            A = X.triu(1)
            return A - A.mT

        def right_inverse(self, A):
            return A.triu(1)

    class Scale(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.c = c

        def forward(self, X):
            return X * self.c

        def right_inverse(self, Y):
            return Y / self.c

    class Split(nn.Module):
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X / 2, X / 2

    class Double(nn.Module):
        def forward(self, X):
            return X.double()

    return Symmetric, Skew, Scale, Split, Double


def test_register_remove_and_printing():
    def scenario(lib, log):
        nn = lib.nn
        P, _ = _utils(lib)
        Symmetric, Skew, Scale, _, _ = _modules(lib)
        m = nn.Linear(3, 3)
        w0 = m.weight
        P.register_parametrization(m, "weight", Symmetric())
        P.register_parametrization(m, "weight", Scale(2.0))
        log(repr(m), list(m.state_dict()), [c.__name__ for c in type(m).__mro__])
        log(type(m).__module__.split(".", 1)[1], P.is_parametrized(m),
            P.is_parametrized(m, "weight"), P.is_parametrized(m, "bias"),
            P.type_before_parametrizations(m).__name__, isinstance(m, nn.Linear))
        log(m.weight, m.weight.grad_fn.name(), m.parametrizations.weight.original is w0)
        x = lib.randn(4, 3)
        m(x).pow(2).sum().backward()
        log(w0.grad, m.bias.grad)
        log.error(lambda: setattr(m, "weight", lib.zeros(3, 3)))
        P.remove_parametrizations(m, "weight")
        log(repr(m), type(m).__name__, list(m.state_dict()), m.weight is w0, m.weight,
            type(m.weight).__name__, hasattr(m, "parametrizations"))
        log.error(lambda: P.remove_parametrizations(m, "weight"))
        log.error(lambda: P.register_parametrization(m, "nothing", Symmetric()))

        s = nn.Linear(3, 3)
        P.register_parametrization(s, "weight", Skew())
        s.weight = lib.arange(9.0).reshape(3, 3)
        log(s.parametrizations.weight.original, s.weight)
        P.remove_parametrizations(s, "weight", leave_parametrized=False)
        log(s.weight, type(s).__name__)

        b = nn.BatchNorm1d(3)
        P.register_parametrization(b, "running_mean", Scale(3.0))
        log(repr(b), list(b.state_dict()), b.running_mean, list(dict(b.named_buffers())))
    _compare(scenario)


def test_checks_and_errors():
    def scenario(lib, log):
        nn = lib.nn
        P, _ = _utils(lib)
        Symmetric, _, Scale, Split, Double = _modules(lib)

        class Shrink(nn.Module):
            def forward(self, X):
                return X[:2]

        class NotTensor(nn.Module):
            def forward(self, X):
                return 1

        log.error(lambda: P.register_parametrization(nn.Linear(3, 3), "weight", Double()))
        log.error(lambda: P.register_parametrization(nn.Linear(3, 3), "weight", Shrink()))
        log.error(lambda: P.register_parametrization(nn.Linear(3, 3), "weight", NotTensor()))
        m = P.register_parametrization(nn.Linear(3, 3), "weight", Double(), unsafe=True)
        log(m.weight.dtype, m.parametrizations.weight.unsafe)
        m = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
        log.error(lambda: P.register_parametrization(m, "weight", Double()))
        log.error(lambda: P.register_parametrization(m, "weight", Shrink()))
        log.error(lambda: setattr(m, "weight", lib.ones(3, 3)))
        log.error(lambda: setattr(m, "weight", nn.Parameter(lib.ones(3, 3))))
        log.error(lambda: P.ParametrizationList([], lib.ones(2)))
        m = P.register_parametrization(nn.Linear(2, 2), "weight", Split())
        log(list(m.state_dict()), m.parametrizations.weight.ntensors, m.weight)
        log.error(lambda: P.remove_parametrizations(m, "weight", leave_parametrized=False))
        m.weight = lib.ones(2, 2)
        log(m.parametrizations.weight.original0, m.parametrizations.weight.original1)
        P.remove_parametrizations(m, "weight")
        log(type(m.weight).__name__, m.weight, list(m.state_dict()))
    _compare(scenario)


def test_cached_and_transfer():
    def scenario(lib, log):
        nn = lib.nn
        P, _ = _utils(lib)
        calls = []

        class Counted(nn.Module):
            def forward(self, X):
                calls.append(1)
                return X * 2

        m = P.register_parametrization(nn.Linear(3, 2), "weight", Counted())
        x = lib.randn(5, 3)
        with P.cached():
            for _ in range(3):
                m(x)
            with P.cached():
                m(x)
            m(x)
        m(x)
        log(len(calls))
        other = nn.Linear(3, 2)
        P.transfer_parametrizations_and_params(m, other)
        log(repr(other), other.weight, other.parametrizations.weight.original is
            m.parametrizations.weight.original)
        log(P.transfer_parametrizations_and_params(nn.Linear(1, 1), nn.Linear(1, 1)).weight)
    _compare(scenario)


def test_spectral_norm_parametrization():
    def scenario(lib, log):
        nn = lib.nn
        _, PS = _utils(lib)
        m = PS.spectral_norm(nn.Linear(5, 4))
        sn = m.parametrizations.weight[0]
        u = sn._u
        log(repr(m), list(m.state_dict()), sn._u, sn._v, m.weight)
        opt = lib.optim.SGD(m.parameters(), lr=0.1)
        x = lib.randn(6, 5)
        for _ in range(3):
            opt.zero_grad()
            m(x).pow(2).mean().backward()
            opt.step()
        log(sn._u is u, sn._u, sn._v, m.parametrizations.weight.original, m.bias)
        m.eval()
        before = sn._u.clone()
        log(m(x), lib.equal(before, sn._u))
        c = PS.spectral_norm(nn.ConvTranspose2d(3, 2, 3), n_power_iterations=3, eps=1e-6)
        log(c.parametrizations.weight[0].dim, c.parametrizations.weight[0]._u.shape, c.weight)
        c = PS.spectral_norm(nn.Conv2d(3, 2, 3), dim=-1)
        log(c.parametrizations.weight[0].dim, c.parametrizations.weight[0]._v.shape, c.weight)
        b = PS.spectral_norm(nn.BatchNorm1d(4), "weight")
        log(list(b.state_dict()), b.weight)
        log.error(lambda: PS.spectral_norm(nn.Linear(2, 2), dim=2))
        log.error(lambda: PS.spectral_norm(nn.Linear(2, 2), n_power_iterations=0))
        log.error(lambda: PS.spectral_norm(nn.Linear(2, 2), "nothing"))
    _compare(scenario)


def test_weight_norm_parametrization():
    def scenario(lib, log):
        nn = lib.nn
        _, PS = _utils(lib)
        m = PS.weight_norm(nn.Linear(4, 3))
        log(repr(m), list(m.state_dict()), m.weight, m.weight.grad_fn.name())
        x = lib.randn(2, 4)
        m(x).pow(2).sum().backward()
        log(m.parametrizations.weight.original0.grad, m.parametrizations.weight.original1.grad)
        old = {"weight_g": lib.full((3, 1), 2.0), "weight_v": lib.ones(3, 4),
               "bias": lib.zeros(3)}
        log(repr(m.load_state_dict(old)), m.weight)
        for dim in (None, 1, 2, -1):
            c = PS.weight_norm(nn.Conv1d(2, 3, 2), dim=dim)
            log(c.parametrizations.weight.original0, c.weight, c.weight.grad_fn.name())
    _compare(scenario)


def test_orthogonal():
    def scenario(lib, log):
        nn = lib.nn
        _, PS = _utils(lib)
        for orthogonal_map in (None, "matrix_exp", "cayley", "householder"):
            for out_f, in_f in ((4, 3), (3, 3), (3, 5)):
                m = PS.orthogonal(nn.Linear(in_f, out_f), orthogonal_map=orthogonal_map)
                orth = m.parametrizations.weight[0]
                log(orth.orthogonal_map.name, list(m.state_dict()), m.weight, orth.base)
                m(lib.randn(2, in_f)).pow(2).sum().backward()
                log(m.parametrizations.weight.original.grad)
                m.weight = lib.eye(out_f, in_f)
                log(m.weight, m.parametrizations.weight.original)
        m = PS.orthogonal(nn.Linear(3, 4), use_trivialization=False)
        log(repr(m), list(m.state_dict()), m.weight, m.parametrizations.weight.original)
        m = PS.orthogonal(nn.Linear(5, 3), orthogonal_map="householder",
                          use_trivialization=False)
        log(m.weight, m.parametrizations.weight.original)
        m = PS.orthogonal(nn.Linear(3, 3), use_trivialization=False)
        log.error(lambda: setattr(m, "weight", lib.eye(3)))
        log.error(lambda: PS.orthogonal(nn.Linear(3, 3), orthogonal_map="qr"))
        log.error(lambda: PS.orthogonal(nn.BatchNorm1d(3)))
        log.error(lambda: PS.orthogonal(nn.Linear(3, 3), "nothing"))
        m = PS.orthogonal(nn.Linear(3, 3))
        log.error(lambda: setattr(m, "weight", lib.eye(4)))
    _compare(scenario)


def test_orthogonal_batched_and_complex():
    def scenario(lib, log):
        nn = lib.nn
        _, PS = _utils(lib)

        class Holder(nn.Module):
            def __init__(self, shape, dtype=None):
                super().__init__()
                self.w = nn.Parameter(lib.randn(*shape, dtype=dtype))

        for shape in ((2, 3, 3), (2, 4, 3), (2, 3, 5)):
            for orthogonal_map in ("matrix_exp", "cayley", "householder"):
                m = PS.orthogonal(Holder(shape), "w", orthogonal_map=orthogonal_map)
                m.w.pow(3).sum().backward()
                log(m.w, m.parametrizations.w.original.grad)
            m = PS.orthogonal(Holder(shape), "w", orthogonal_map="householder",
                              use_trivialization=False)
            log(m.w, m.parametrizations.w.original)
        log.error(lambda: PS.orthogonal(Holder((3, 2), lib.complex64), "w",
                                        orthogonal_map="householder"))
    _compare(scenario)


def test_hook_based_weight_norm_and_spectral_norm():
    def scenario(lib, log):
        nn, U = lib.nn, lib.nn.utils
        m = log.warnings(lambda: U.weight_norm(nn.Linear(4, 3)))
        log(repr(m), list(m.state_dict()), m.weight_g, m.weight, m.weight.grad_fn.name())
        x = lib.randn(2, 4)
        m(x).pow(2).sum().backward()
        log(m.weight_g.grad, m.weight_v.grad)
        log.error(lambda: U.weight_norm(m))
        U.remove_weight_norm(m)
        log(list(m.state_dict()), m.weight)
        log.error(lambda: U.remove_weight_norm(m))
        c = log.warnings(lambda: U.weight_norm(nn.Conv2d(2, 3, 2), dim=None))
        log(c.weight_g, c.weight.grad_fn.name())

        s = U.spectral_norm(nn.Linear(5, 4))
        log(repr(s), list(s.state_dict()), s.weight_u, s.weight_v, s.weight)
        opt = lib.optim.SGD(s.parameters(), lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            s(lib.randn(3, 5)).pow(2).sum().backward()
            opt.step()
        log(s.weight_u, s.weight_v, s.weight_orig, s.weight.grad_fn.name())
        s.eval()
        u = s.weight_u.clone()
        log(s(x[:, :1].expand(2, 5)), lib.equal(u, s.weight_u))
        log.error(lambda: U.spectral_norm(s))
        U.remove_spectral_norm(s)
        log(list(s.state_dict()), s.weight, type(s.weight).__name__)
        log.error(lambda: U.remove_spectral_norm(s))
        t = U.spectral_norm(nn.ConvTranspose1d(3, 4, 2), n_power_iterations=2)
        log(t.weight_u.shape, t.weight_v.shape, t.weight)
    _compare(scenario)


def test_fusion_memory_format_skip_init_and_deprecations():
    def scenario(lib, log):
        nn, U = lib.nn, lib.nn.utils
        conv, bn = nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4)
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        fused = U.fuse_conv_bn_eval(conv.eval(), bn.eval())
        log(repr(fused), fused.weight, fused.bias, type(fused.weight).__name__)
        tconv, tbn = nn.ConvTranspose2d(4, 3, 2), nn.BatchNorm2d(3)
        tbn.running_var.fill_(2.0)
        log(U.fuse_conv_bn_eval(tconv.eval(), tbn.eval(), transpose=True).weight)
        log.error(lambda: U.fuse_conv_bn_eval(conv.train(), bn))
        lin, bn1 = nn.Linear(4, 3), nn.BatchNorm1d(3)
        bn1.running_mean.fill_(0.25)
        log(U.fuse_linear_bn_eval(lin.eval(), bn1.eval()).bias)
        log.error(lambda: U.fuse_linear_bn_eval(lin, nn.BatchNorm1d(5).eval()))
        log(U.fuse_conv_bn_weights(conv.weight, None, bn.running_mean, bn.running_var, 1e-3,
                                   None, None))
        log(U.fuse_linear_bn_weights(lin.weight, None, bn1.running_mean, bn1.running_var,
                                     1e-5, bn1.weight, bn1.bias))

        net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Sequential(nn.ConvTranspose2d(4, 2, 2)))
        before = net[0].weight.clone()
        U.convert_conv2d_weight_memory_format(net, lib.channels_last)
        log(net[0].weight.stride(), net[1][0].weight.stride(), net[0].weight, before)
        U.convert_conv2d_weight_memory_format(net, lib.contiguous_format)
        log(net[0].weight.stride())
        log.error(lambda: U.convert_conv3d_weight_memory_format(nn.Conv3d(1, 1, 1),
                                                                lib.channels_last))

        m = U.skip_init(nn.Linear, 5, 2, bias=False)
        log(type(m).__name__, m.weight.shape, m.bias, lib.rand(2))
        log.error(lambda: U.skip_init(nn.Sequential))
        log.error(lambda: U.skip_init(int))

        p = nn.Parameter(lib.tensor([3.0, 4.0]))
        p.grad = lib.tensor([3.0, 4.0])
        log(log.warnings(lambda: U.clip_grad_norm([p], 1.0)), p.grad)

        init = nn.init
        for name, args in (("uniform", ()), ("normal", ()), ("constant", (0.5,)), ("eye", ()),
                           ("xavier_uniform", ()), ("xavier_normal", ()),
                           ("kaiming_uniform", ()), ("kaiming_normal", ()),
                           ("orthogonal", ()), ("sparse", (0.3,))):
            log(log.warnings(lambda: getattr(init, name)(lib.empty(3, 4), *args)))
        log(log.warnings(lambda: init.dirac(lib.empty(6, 2, 3), 2)))
        log(init.sparse_(lib.empty(5, 4), 0.4), init.sparse_(lib.empty(6, 3), 0.5, std=2.0))
        for groups in (1, 2, 3):
            log(init.dirac_(lib.empty(6, 2, 3, 3), groups).nonzero())
        log(init.dirac_(lib.empty(4, 3, 3, 3, 3)).nonzero())
        log.error(lambda: init.sparse_(lib.empty(3), 0.1))
    _compare(scenario)


def test_training_a_parametrized_model_matches():
    def scenario(lib, log):
        nn = lib.nn
        P, PS = _utils(lib)
        Symmetric = _modules(lib)[0]
        model = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 6), nn.ReLU(),
                              nn.Linear(6, 3))
        P.register_parametrization(model[0], "weight", Symmetric())
        PS.orthogonal(model[2])
        PS.spectral_norm(model[4])
        PS.weight_norm(model[4], "bias", dim=None)
        log(list(model.state_dict()))
        opt = lib.optim.Adam(model.parameters(), lr=0.05)
        x, y = lib.randn(8, 4), lib.randn(8, 3)
        for _ in range(5):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            log(loss)
        log([v for v in model.state_dict().values()])
    _compare(scenario)
