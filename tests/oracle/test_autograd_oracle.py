"""ember.autograd's tools against real torch: custom Functions, autograd.functional,
gradcheck, saved-tensor hooks, anomaly mode, checkpoint and the profiler's names. Skipped
when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def both(array):
    return (ember.tensor(array, requires_grad=True), torch.tensor(array, requires_grad=True))


def same(e, t, rtol=1e-12, atol=1e-12):
    np.testing.assert_allclose(np.array(e.detach().tolist()), t.detach().numpy(), rtol=rtol,
                               atol=atol)


def error_text(fn):
    try:
        fn()
    except Exception as exc:        # the message is what is compared
        return type(exc).__name__, str(exc)
    return None


def make_functions(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, y):
            ctx.save_for_backward(x, y)
            ctx.k = k
            return x * y * k, (x * 2).argmax()

        @staticmethod
        def setup_context(ctx, inputs, output):     # unused: forward takes ctx
            raise AssertionError

        @staticmethod
        def backward(ctx, g, g_index):
            x, y = ctx.saved_tensors
            return g * y * ctx.k, None, g * x * ctx.k

    class Scale2(lib.autograd.Function):
        @staticmethod
        def forward(x, k, y):
            return x * y * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, k, y = inputs
            ctx.save_for_backward(x, y, output)
            ctx.k = k

        @staticmethod
        def backward(ctx, g):
            x, y, out = ctx.saved_tensors
            return g * y * ctx.k + out * 0, None, g * x * ctx.k

    class Bad(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g
    del Scale.setup_context
    return Scale, Scale2, Bad


def test_custom_function_matches_torch():
    (es, es2, ebad), (ts, ts2, tbad) = make_functions(ember), make_functions(torch)
    a, b = RNG.standard_normal(4), RNG.standard_normal(4)
    ex, tx = both(a)
    ey, ty = both(b)
    for efn, tfn in ((es, ts), (es2, ts2)):
        eo, to = efn.apply(ex, 1.5, ey), tfn.apply(tx, 1.5, ty)
        eo = eo[0] if isinstance(eo, tuple) else eo
        to = to[0] if isinstance(to, tuple) else to
        assert type(eo.grad_fn).__name__ == type(to.grad_fn).__name__
        assert len(eo.grad_fn.next_functions) == len(to.grad_fn.next_functions)
        same(eo, to)
        eg = ember.autograd.grad(eo.sum(), (ex, ey))
        tg = torch.autograd.grad(to.sum(), (tx, ty))
        for e, t in zip(eg, tg):
            same(e, t)
    assert error_text(lambda: ebad.apply(ex).sum().backward()) == \
        error_text(lambda: tbad.apply(tx).sum().backward())


FUNCTIONAL = [
    ("jacobian", lambda lib, x: lib.autograd.functional.jacobian(lambda a: a.sin() * a.sum(), x)),
    ("hessian", lambda lib, x: lib.autograd.functional.hessian(lambda a: (a ** 3).prod(), x)),
    ("vjp", lambda lib, x: lib.autograd.functional.vjp(lambda a: a.exp() * a, x,
                                                        x.detach() * 0 + 1)[1]),
    ("jvp", lambda lib, x: lib.autograd.functional.jvp(lambda a: a.cumsum(0) ** 2, x,
                                                        x.detach() * 0 + 1)[1]),
    ("hvp", lambda lib, x: lib.autograd.functional.hvp(lambda a: (a.sin() * a).sum(), x,
                                                        x.detach() + 1)[1]),
    ("vhp", lambda lib, x: lib.autograd.functional.vhp(lambda a: (a.exp() * a).sum(), x,
                                                        x.detach() - 1)[1]),
]


@pytest.mark.parametrize("name,fn", FUNCTIONAL, ids=[n for n, _ in FUNCTIONAL])
def test_functional_matches_torch(name, fn):
    a = RNG.standard_normal(3)
    same(fn(ember, ember.tensor(a)), fn(torch, torch.tensor(a)))


def test_functional_errors_match_torch():
    for fn in (lambda lib: lib.autograd.functional.vjp(lambda a: a * 2, lib.ones(3)),
               lambda lib: lib.autograd.functional.jacobian(
                   lambda a, b: a * 2, (lib.ones(2), lib.ones(2)), strict=True),
               lambda lib: lib.autograd.functional.hessian(lambda a: a * 2, lib.ones(2))):
        assert error_text(lambda: fn(ember)) == error_text(lambda: fn(torch))


def test_gradcheck_messages_match_torch():
    def bad(lib):
        class BadExp(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x.exp()

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * x.exp() * 1.1
        return BadExp.apply

    a = np.array([0.5, 1.0])
    ex, tx = both(a)
    assert error_text(lambda: ember.autograd.gradcheck(bad(ember), (ex,))) == \
        error_text(lambda: torch.autograd.gradcheck(bad(torch), (tx,)))
    assert error_text(lambda: ember.autograd.gradcheck(ember.sin, (ex.detach(),))) == \
        error_text(lambda: torch.autograd.gradcheck(torch.sin, (tx.detach(),)))


def test_anomaly_mode_matches_torch():
    a = np.array([-1.0, 4.0])
    results = []
    for lib, x in zip((ember, torch), both(a)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with lib.autograd.detect_anomaly():
                y = x.sqrt()
                trace = y.grad_fn.metadata["traceback_"]
                err = error_text(lambda: y.sum().backward())
        report = [str(w.message) for w in caught if "Error detected" in str(w.message)]
        results.append((err, trace[-1].splitlines()[-1].strip(), len(report),
                        report[0].split("\n")[0] if report else None))
    assert results[0] == results[1]


def test_backward_inputs_errors_match_torch():
    def run(lib, inputs):
        x = lib.tensor([1., 2.], requires_grad=True)
        y = (x * 2).sum()
        return error_text(lambda: y.backward(inputs=inputs(lib, x)))
    for inputs in (lambda lib, x: lib.ones(2), lambda lib, x: [], lambda lib, x: (x, 3)):
        assert run(ember, inputs) == run(torch, inputs)


def test_saved_tensor_hooks_see_the_same_saves():
    counts = []
    for lib, x in zip((ember, torch), both(RNG.standard_normal(3))):
        log = []
        with lib.autograd.graph.saved_tensors_hooks(lambda t: log.append("p") or t,
                                                    lambda t: log.append("u") or t):
            y = (x.exp() * x).tanh().sum()
        y.backward()
        counts.append((log.count("p"), log.count("u")))
        if lib is ember:
            eg = x.grad
        else:
            same(eg, x.grad)
    assert counts[0] == counts[1]


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint_matches_torch(use_reentrant):
    a = RNG.standard_normal((4, 3))
    w = RNG.standard_normal((3, 3))
    out = []
    for lib in (ember, torch):
        x = lib.tensor(a, requires_grad=True)
        wt = lib.tensor(w, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda h: (h @ wt).tanh() @ wt, x,
                                            use_reentrant=use_reentrant)
        y.sum().backward()
        out.append((type(y.grad_fn).__name__, x.grad, wt.grad))
    assert out[0][0] == out[1][0]
    same(out[0][1], out[1][1])
    same(out[0][2], out[1][2])


def test_profiler_names_match_torch():
    names = []
    headers = []
    for lib in (ember, torch):
        x = lib.randn(8, 8, requires_grad=True)
        with lib.profiler.profile() as prof:
            with lib.profiler.record_function("block"):
                y = (x @ x).relu().sum()
            y.backward()
        names.append({e.key for e in prof.key_averages()})
        lines = prof.key_averages().table().splitlines()
        headers.append((lines[1], lines[-1].split(":")[0]))
    wanted = {"block", "aten::matmul", "aten::relu", "aten::sum",
              "autograd::engine::evaluate_function: MmBackward0", "MmBackward0",
              "autograd::engine::evaluate_function: ReluBackward0", "ReluBackward0"}
    assert wanted <= names[0] and wanted <= names[1]
    assert headers[0][1] == headers[1][1] == "Self CPU time total"
    assert headers[0][0].split() == headers[1][0].split()
