"""ember.library (torch.library) and ember.ops: custom_op with schema inference, autograd
registration, kernels by device, Library define/impl, argument checks and opcheck (texts as
torch 2.13 prints them)."""
import itertools
import re
import typing

import pytest

import ember as torch
from ember import library as L

T = torch.Tensor
_names = itertools.count()


def fresh():
    return f"core_lib{next(_names)}"


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}$")


def test_custom_op_call_and_ops_namespace():
    ns = fresh()

    @L.custom_op(f"{ns}::sin", mutates_args=())
    def mysin(x: T) -> T:
        return x.sin()
    assert repr(mysin) == f"<CustomOpDef({ns}::sin)>"
    x = torch.tensor([0., 1.])
    packet = getattr(torch.ops, ns).sin
    assert packet(x).tolist() == x.sin().tolist()
    assert packet.default(x).tolist() == mysin(x).tolist()
    assert repr(packet) == f"{ns}.sin" and repr(packet.default) == f"{ns}.sin.default"
    assert packet.overloads() == ["default"] and packet.default.name() == f"{ns}::sin"
    assert str(packet.default._schema) == f"{ns}::sin(Tensor x) -> Tensor"
    with raises(AttributeError, f"'_OpNamespace' '{ns}' object has no attribute 'cos'"):
        getattr(torch.ops, ns).cos
    with raises(AttributeError, f"The underlying op of '{ns}.sin' has no overload name 'Tensor'"):
        packet.Tensor


def test_schema_inference():
    ns = fresh()

    @L.custom_op(f"{ns}::f", mutates_args=())
    def f(x: T, n: int = 2, s: float = 2.0, eps: float = 1e-05,
          l: typing.Optional[list[int]] = None, o: typing.Optional[T] = None, m: str = "a",
          *, flag: bool = False, d: torch.dtype = torch.float32) -> tuple[T, T]:
        return x * n, x * s
    assert str(getattr(torch.ops, ns).f.default._schema) == (
        f'{ns}::f(Tensor x, SymInt n=2, float s=2., float eps=1.0000000000000001e-05, '
        f'SymInt[]? l=None, Tensor? o=None, str m="a", *, bool flag=False, ScalarType d=6) '
        f'-> (Tensor, Tensor)')
    a, b = f(torch.ones(2), 3)
    assert a.tolist() == [3., 3.] and b.tolist() == [2., 2.]


def test_schema_inference_errors():
    ns = fresh()
    with raises(ValueError, "infer_schema(func): Parameter x must have a type annotation. Got "
                "func with signature (x))"):
        L.custom_op(f"{ns}::a", mutates_args=())(lambda x: x)

    def no_return(x: T):
        return x
    with pytest.raises(ValueError, match=r"^infer_schema\(func\): No return type annotation"):
        L.custom_op(f"{ns}::b", mutates_args=())(no_return)

    def varargs(*xs: T) -> T:
        return xs[0]
    with pytest.raises(ValueError, match="We do not support positional-only args, varargs"):
        L.custom_op(f"{ns}::c", mutates_args=())(varargs)

    def plain(x: T) -> T:
        return x.clone()
    with pytest.raises(ValueError, match=re.escape("{'y'} in mutates_args were not found")):
        L.custom_op(f"{ns}::d", mutates_args=("y",))(plain)
    with pytest.raises(TypeError):
        L.custom_op(f"{ns}::e")(plain)


def test_argument_checks():
    ns = fresh()

    @L.custom_op(f"{ns}::g", mutates_args=())
    def g(x: T, n: int, *, k: float = 2.0) -> T:
        return x * n * k
    decl = f"{ns}::g(Tensor x, SymInt n, *, float k=2.) -> Tensor"
    with raises(RuntimeError, f"{ns}::g() is missing value for argument 'n'. Declaration: {decl}"):
        g(torch.ones(1))
    with raises(RuntimeError, f"{ns}::g() takes 2 positional argument(s) but 3 was/were given.  "
                f"Declaration: {decl}"):
        g(torch.ones(1), 1, 2.0)
    with raises(RuntimeError, f"Unknown keyword argument 'q' for operator '{ns}::g'. Schema: "
                f"{decl}"):
        g(torch.ones(1), 1, q=1)
    with raises(RuntimeError, f"{ns}::g() Expected a value of type 'int' for argument 'n' but "
                f"instead found type 'float'.\nPosition: 1\nValue: 2.5\nDeclaration: {decl}\n"
                f"Cast error details: Unable to cast Python instance of type <class 'float'> to "
                f"C++ type '?' (#define PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug "
                f"mode for details)"):
        g(torch.ones(1), 2.5)
    assert g(torch.ones(1), True, k=3).tolist() == [3.]


def test_autograd_registration_and_missing_formula():
    ns = fresh()

    @L.custom_op(f"{ns}::mul", mutates_args=())
    def mul(x: T, y: T) -> T:
        return x * y
    a = torch.tensor([2.], requires_grad=True)
    b = torch.tensor([3.], requires_grad=True)
    out = mul(a, b)
    assert out.grad_fn.name() == f"GeneratedBackwardFor_{ns}_mul_defaultBackward"
    with raises(RuntimeError, f"Trying to backward through {ns}.mul.default but no autograd "
                f"formula was registered. Please use register_autograd to add one."):
        out.backward()

    def setup(ctx, inputs, output):
        ctx.x, ctx.y = inputs

    def backward(ctx, g):
        assert ctx.needs_input_grad == (True, True)
        return g * ctx.y, g * ctx.x
    mul.register_autograd(backward, setup_context=setup)
    mul(a, b).backward()
    assert a.grad.tolist() == [3.] and b.grad.tolist() == [2.]
    # one gradient short: torch counts its metadata argument too
    mul.register_autograd(lambda ctx, g: g)
    with raises(RuntimeError, f"function GeneratedBackwardFor_{ns}_mul_defaultBackward returned "
                f"an incorrect number of gradients (expected 3, got 2)"):
        mul(a, b).backward()
    mul.register_autograd(lambda ctx, g: (g, g, g))
    with raises(RuntimeError, f"function GeneratedBackwardFor_{ns}_mul_defaultBackward returned "
                f"a gradient different than None at position 3, but the corresponding forward "
                f"input was not a Variable"):
        mul(a, b).backward()


def test_kernel_does_not_record_and_outputs_must_be_new():
    ns = fresh()

    @L.custom_op(f"{ns}::twice", mutates_args=())
    def twice(x: T) -> T:
        return x * 2
    y = twice(torch.ones(2))
    assert y.grad_fn is None

    @L.custom_op(f"{ns}::same", mutates_args=())
    def same(x: T) -> T:
        return x.view(-1)
    with pytest.raises(RuntimeError, match=r"The output of this custom operator \(1\) must not "
                       r"also be an input"):
        same(torch.ones(2))


def test_mutated_arguments_count_a_write():
    ns = fresh()

    @L.custom_op(f"{ns}::inc", mutates_args={"x"})
    def inc(x: T) -> None:
        x.add_(1)
    a = torch.zeros(2)
    assert inc(a) is None
    assert a.tolist() == [1., 1.] and a._version == 2
    assert str(getattr(torch.ops, ns).inc.default._schema) == f"{ns}::inc(Tensor(a0!) x) -> ()"


def test_kernels_by_device_and_register_kernel():
    ns = fresh()

    @L.custom_op(f"{ns}::k", mutates_args=(), device_types="cpu")
    def k(x: T) -> T:
        return x + 1
    assert k(torch.zeros(1)).tolist() == [1.]
    k.register_kernel("cpu")(lambda x: x + 5)
    assert k(torch.zeros(1)).tolist() == [5.]
    L.register_kernel(f"{ns}::k", "cpu", lambda x: x + 6)
    assert k(torch.zeros(1)).tolist() == [6.]


def test_library_define_and_impl():
    ns = fresh()
    lib = L.Library(ns, "DEF")
    assert repr(lib) == f"Library(kind=DEF, ns={ns}, dispatch_key=)>"
    assert lib.define("foo(Tensor x, float a=1.5) -> Tensor") == "foo"
    op = getattr(torch.ops, ns).foo
    assert str(op.default._schema) == f"{ns}::foo(Tensor x, float a=1.5) -> Tensor"
    with pytest.raises(NotImplementedError, match=f"^Could not run '{ns}::foo' with arguments "
                       f"from the 'CPU' backend"):
        op(torch.ones(1))
    lib.impl("foo", lambda x, a: x * a, "CPU")
    assert op(torch.ones(1), 2.0).tolist() == [2.]
    # a plain kernel runs with autograd as usual
    x = torch.ones(1, requires_grad=True)
    assert op(x).grad_fn.name() == "MulBackward0"
    with pytest.raises(RuntimeError, match="Tried to register an operator"):
        lib.define("foo(Tensor x) -> Tensor")
    with pytest.raises(RuntimeError, match=f"^Only a single TORCH_LIBRARY can be used to "
                       f"register the namespace {ns};"):
        L.Library(ns, "DEF")
    with raises(ValueError, "Unsupported kind: XYZ"):
        L.Library(ns, "XYZ")
    with raises(RuntimeError, "expected eof but found 'ident' here:\nbad schema\n    ~~~~~~ "
                "<--- HERE\n"):
        lib.define("bad schema")


def test_define_and_impl_functions():
    ns = fresh()
    L.define(f"{ns}::d", "(Tensor x, *, int k=1) -> Tensor")

    @L.impl(f"{ns}::d", "cpu")
    def d(x, *, k=1):
        return x + k
    assert d is None            # as torch's decorator
    assert getattr(torch.ops, ns).d(torch.zeros(1), k=4).tolist() == [4.]


def test_opcheck():
    ns = fresh()

    @L.custom_op(f"{ns}::c", mutates_args=())
    def c(x: T) -> T:
        return x.clone()
    with raises(L.OpCheckError, f"opcheck(op, ...): test_faketensor failed with There was no "
                f"fake impl registered for <CustomOpDef({ns}::c)>. This is necessary for "
                f"torch.compile/export/fx tracing to work. Please use `c.register_fake` to add "
                f"an fake impl. (scroll up for stack trace)"):
        L.opcheck(c, (torch.ones(1),))

    @c.register_fake
    def _(x):
        return torch.empty(2)
    with pytest.raises(L.OpCheckError, match=re.escape("found mismatched tensor metadata: Shapes "
                                                       "torch.Size([1]) and torch.Size([2]) are "
                                                       "not equal!")):
        L.opcheck(c, (torch.ones(1),), test_utils="test_faketensor")
    c.register_fake(lambda x: torch.empty_like(x))
    assert L.opcheck(c, (torch.ones(3),)) == {
        "test_schema": "SUCCESS", "test_autograd_registration": "SUCCESS",
        "test_faketensor": "SUCCESS", "test_aot_dispatch_dynamic": "SUCCESS"}

    @L.custom_op(f"{ns}::sneaky", mutates_args=())
    def sneaky(x: T) -> T:
        x.add_(1)
        return x.clone()
    with raises(L.OpCheckError, "opcheck(op, ...): test_schema failed with Argument x is not "
                "defined as mutable but was mutated (scroll up for stack trace)"):
        L.opcheck(sneaky, (torch.ones(1),), test_utils="test_schema")
    with pytest.raises(ValueError, match="expected test_utils to be subset of"):
        L.opcheck(c, (torch.ones(1),), test_utils="bogus")


def test_transforms_refuse_custom_ops_with_autograd():
    ns = fresh()

    @L.custom_op(f"{ns}::s", mutates_args=())
    def s(x: T) -> T:
        return x.sin()
    s.register_autograd(lambda ctx, g: g * ctx.c,
                        setup_context=lambda ctx, inputs, output: setattr(ctx, "c",
                                                                          inputs[0].cos()))
    with pytest.raises(RuntimeError, match="it must override the setup_context staticmethod"):
        torch.func.grad(lambda x: s(x).sum())(torch.tensor([0., 1.]))


def test_lists_of_tensors_get_their_gradients():
    ns = fresh()

    @L.custom_op(f"{ns}::wsum", mutates_args=())
    def wsum(xs: list[T], w: T) -> T:
        return (torch.stack(xs) * w).sum(0)

    def setup(ctx, inputs, output):
        xs, w = inputs
        assert isinstance(xs, list) and len(xs) == 2
        ctx.save_for_backward(w, *xs)

    def backward(ctx, g):
        w, *xs = ctx.saved_tensors
        return [g * w for _ in xs], sum(g * x for x in xs)
    wsum.register_autograd(backward, setup_context=setup)
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    w = torch.tensor([2., 2.], requires_grad=True)
    wsum([a, b], w).sum().backward()
    assert a.grad.tolist() == [2., 2.] and b.grad.tolist() == [2., 2.]
    assert w.grad.tolist() == [4., 6.]


def test_alias_sets_are_numbered_by_position():
    def f(x: T, y: T) -> tuple[T, T]:
        return x, y
    assert str(L.infer_schema(f, mutates_args={"y"}, op_name="myop")) == \
        "myop(Tensor x, Tensor(a1!) y) -> (Tensor, Tensor)"


def test_library_operators_count_only_their_own_writes_and_keep_return_names():
    ns = fresh()
    lib = L.Library(ns, "DEF")
    lib.define("inc(Tensor(a!) x) -> ()")
    lib.impl("inc", lambda x: x.add_(1) and None, "CPU")
    a = torch.zeros(1)
    assert getattr(torch.ops, ns).inc(a) is None
    assert a._version == 1
    lib.define("two(Tensor x) -> (Tensor a, Tensor b)")
    assert str(getattr(torch.ops, ns).two.default._schema) == \
        f"{ns}::two(Tensor x) -> (Tensor a, Tensor b)"


def test_impl_library_cannot_define():
    ns = fresh()
    lib = L.Library(ns, "IMPL")
    with pytest.raises(RuntimeError, match=r'^def\("foo"\): Cannot define an operator inside of '
                       r'a TORCH_LIBRARY_IMPL block.  All def\(\)s should be placed in the '
                       r'\(unique\) TORCH_LIBRARY block for their namespace.  \(Error occurred '
                       r'while processing TORCH_LIBRARY_IMPL block at .*test_library.py:\d+\)$'):
        lib.define("foo(Tensor x) -> Tensor")


def test_aot_dispatch_check_needs_a_fake():
    ns = fresh()

    @L.custom_op(f"{ns}::d", mutates_args=())
    def d(x: T) -> T:
        return x * 2
    with pytest.raises(L.OpCheckError, match=r"^opcheck\(op, ...\): test_aot_dispatch_static "
                       r"failed with There was no fake impl registered"):
        L.opcheck(d, (torch.ones(2),), test_utils=["test_aot_dispatch_static"])
    d.register_fake(lambda x: torch.empty_like(x))
    # with an input that requires grad it differentiates too (and so needs a formula)
    with pytest.raises(L.OpCheckError, match=r"^opcheck\(op, ...\): test_aot_dispatch_dynamic "
                       r"failed with Trying to backward through"):
        L.opcheck(d, (torch.ones(2, requires_grad=True),), test_utils="test_aot_dispatch_dynamic")
    d.register_autograd(lambda ctx, g: g * 2)
    assert L.opcheck(d, (torch.ones(2, requires_grad=True),),
                     test_utils="test_aot_dispatch_dynamic") == {
        "test_aot_dispatch_dynamic": "SUCCESS"}


def test_overloads():
    ns = fresh()
    lib = L.Library(ns, "DEF")
    assert lib.define("foo.Tensor(Tensor x, Tensor y) -> Tensor") == "foo"
    lib.define("foo.Scalar(Tensor x, float y) -> Tensor")
    lib.impl("foo.Tensor", lambda x, y: x + y, "CPU")
    lib.impl("foo.Scalar", lambda x, y: x * y, "CPU")
    packet = getattr(torch.ops, ns).foo
    assert packet.overloads() == ["Tensor", "Scalar"]
    assert repr(packet.Tensor) == f"{ns}.foo.Tensor" and packet.Tensor.name() == f"{ns}::foo.Tensor"
    assert str(packet.Scalar._schema) == f"{ns}::foo.Scalar(Tensor x, float y) -> Tensor"
    # the packet picks the first overload whose schema fits
    assert packet(torch.ones(1), torch.ones(1)).tolist() == [2.]
    assert packet(torch.ones(1), 3.0).tolist() == [3.]
    with raises(AttributeError, f"The underlying op of '{ns}.foo' has no overload name "
                f"'default'"):
        packet.default
    with pytest.raises(RuntimeError, match=f"^Overloaded torch operator invoked from Python "
                       f"failed to match any schema:\n{ns}::foo\\(\\) Expected a value of type "
                       f"'Tensor' for argument 'y'"):
        packet(torch.ones(1), "a")
    lib.define("bar(Tensor x) -> Tensor")
    lib.define("bar.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)")
    bar = getattr(torch.ops, ns).bar
    assert bar.overloads() == ["default", "out"]
    assert str(bar.out._schema) == f"{ns}::bar.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)"
