"""Edge cases of the random samplers, as torch handles them (no torch needed): what an empty
tensor skips, the order of the checks, degenerate dropout, and the C library's functions in
the double-precision samplers."""
import math

import pytest

import ember
from ember import _random


def _state():
    return ember.get_rng_state().tolist()


@pytest.mark.parametrize("dtype", ["int8", "int64", "bool", "uint8", "uint16", "complex64",
                                   "float8_e4m3fn"])
@pytest.mark.parametrize("call", [
    lambda t: t.normal_(), lambda t: t.exponential_(), lambda t: t.log_normal_(),
    lambda t: t.geometric_(0.5), lambda t: t.bernoulli_(0.5), lambda t: t.random_(),
    lambda t: t.bernoulli_(ember.full((3,), 0.5)),
    lambda t: t.bernoulli_(ember.zeros(0, dtype=ember.int64)),
])
def test_an_empty_tensor_of_any_dtype_is_returned_without_a_draw(dtype, call):
    ember.manual_seed(0)
    before = _state()
    t = ember.empty(0, dtype=getattr(ember, dtype))
    assert call(t) is t
    assert _state() == before


@pytest.mark.parametrize("make", [
    lambda: ember.randn(0, dtype=ember.int64), lambda: ember.randn(2, 0, dtype=ember.bool),
    lambda: ember.normal(0.0, 1.0, (0,), dtype=ember.int64),
    lambda: ember.randn_like(ember.zeros(0, dtype=ember.int64)),
    lambda: ember.normal(ember.zeros(0, dtype=ember.int64), 1.0),
    lambda: ember.bernoulli(ember.empty(0, dtype=ember.int64)),
    lambda: ember.empty(0, dtype=ember.complex64).uniform_(3, 1),
])
def test_empty_normal_and_bernoulli_results_of_any_dtype(make):
    assert make().numel() == 0


def test_non_empty_tensors_still_check_the_dtype():
    with pytest.raises(NotImplementedError, match='"normal_kernel_cpu" not implemented for '
                                                  "'Long'"):
        ember.randn(2, dtype=ember.int64)
    with pytest.raises(NotImplementedError, match="\"log_normal_cpu\" not implemented for 'Char'"):
        ember.empty(2, dtype=ember.int8).log_normal_()
    with pytest.raises(NotImplementedError, match="\"geometric_cpu\" not implemented for 'Bool'"):
        ember.empty(2, dtype=ember.bool).geometric_(0.5)
    with pytest.raises(NotImplementedError, match="\"geometric_cpu\" not implemented for "
                                                  "'ComplexFloat'"):
        ember.empty(2, dtype=ember.complex64).geometric_(0.5)
    with pytest.raises(NotImplementedError, match="\"bernoulli_scalar_cpu_\" not implemented "
                                                  "for 'ComplexFloat'"):
        ember.empty(2, dtype=ember.complex64).bernoulli_(0.5)
    with pytest.raises(NotImplementedError, match="\"cauchy_cpu\" not implemented for "
                                                  "'Float8_e5m2'"):
        ember.empty(2, dtype=ember.float8_e5m2).cauchy_()
    with pytest.raises(NotImplementedError, match="\"exponential_cpu\" not implemented for "
                                                  "'Float8_e5m2'"):
        ember.empty(2, dtype=ember.float8_e5m2).exponential_()
    with pytest.raises(NotImplementedError, match="\"random_kernel_cpu\" not implemented for "
                                                  "'Float8_e5m2'"):
        ember.empty(2, dtype=ember.float8_e5m2).random_()
    # cauchy_ checks for a float dtype even before it returns for an empty tensor
    with pytest.raises(RuntimeError, match="Cauchy distribution is a continuous"):
        ember.empty(0, dtype=ember.int8).cauchy_()


@pytest.mark.parametrize("dtype", ["int8", "bool", "complex64", "uint16"])
def test_parameters_are_checked_before_the_dtype(dtype):
    t = ember.empty(2, dtype=getattr(ember, dtype))
    with pytest.raises(RuntimeError, match=r"cauchy_ expects sigma > 0.0, but found sigma=-1$"):
        t.cauchy_(0, -1)
    with pytest.raises(RuntimeError, match=r"log_normal_ expects std > 0.0, but found std=-1$"):
        t.log_normal_(0, -1)
    with pytest.raises(RuntimeError, match=r"bernoulli_ expects p to be in \[0, 1\], but got "
                                           r"p=1.5"):
        t.bernoulli_(1.5)
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to', but "
                                           "got from=3 >= to=3"):
        t.random_(3, 3)


def test_numbers_in_messages_print_as_cpp_doubles():
    with pytest.raises(RuntimeError, match=r"but got p=1$"):
        ember.empty(2).geometric_(1.0)
    with pytest.raises(RuntimeError, match=r"but found std -1$"):
        ember.normal(0.0, -1.0, (2,))
    with pytest.raises(RuntimeError, match=r"but found std -1$"):
        ember.empty(2).normal_(0.0, -1.0)


def test_bernoulli_probabilities_must_expand_to_the_result():
    with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(2\) must match "
                                           r"the existing size \(3\) at non-singleton dimension "
                                           r"0.  Target sizes: \[2, 3\].  Tensor sizes: \[3, 1\]"):
        ember.empty(2, 3).bernoulli_(ember.rand(3, 1))
    # the shapes are checked before p's dtype
    with pytest.raises(RuntimeError, match="The expanded size"):
        ember.empty(2).bernoulli_(ember.zeros(3, dtype=ember.int64))
    with pytest.raises(NotImplementedError, match="bernoulli_tensor_cpu_p_"):
        ember.empty(2).bernoulli_(ember.zeros(2, dtype=ember.int64))


@pytest.mark.parametrize("fn", [
    lambda x: ember.nn.functional.alpha_dropout(x, 1.0, training=True),
    lambda x: ember.nn.functional.feature_alpha_dropout(x, 1.0, training=True),
    lambda x: ember.nn.functional.dropout2d(x, 1.0, training=True),
    lambda x: ember.nn.functional.dropout(x, 1.0, training=True),
    lambda x: ember.alpha_dropout(x, 1.0, True),
    lambda x: ember.feature_dropout(x, 1.0, True),
])
@pytest.mark.parametrize("shape", [(8,), (2, 3), (2, 3, 4)])
@pytest.mark.filterwarnings("ignore:dropout2d")
def test_dropout_of_everything_is_zeros_and_draws_nothing(fn, shape):
    ember.manual_seed(0)
    before = _state()
    x = ember.ones(shape, requires_grad=True)
    y = fn(x)
    assert y.tolist() == ember.zeros(shape).tolist()
    assert type(y.grad_fn).__name__ == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == ember.zeros(shape).tolist()
    assert _state() == before


def test_alpha_dropout_of_everything_in_place():
    x = ember.ones(2, 3)
    ember.nn.functional.alpha_dropout(x, 1.0, training=True, inplace=True)
    assert x.tolist() == [[0.0] * 3] * 2


@pytest.mark.filterwarnings("ignore:dropout2d")
def test_feature_dropout_still_needs_two_dims_below_p_1():
    with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"):
        ember.nn.functional.dropout2d(ember.ones(8), 0.5, training=True)


def _uniforms(seed, n):
    """The 53-bit uniforms the double samplers draw after manual_seed(seed)."""
    return _random._uniform53(ember.Generator().manual_seed(seed), n).tolist()


def test_cauchy_uses_the_c_library_tan_and_one_rounding():
    # NOTE: NumPy's SIMD tan differs from the C library's in the last bit for some inputs;
    # torch's double kernel calls the C library's, and computes median + sigma * t with one
    # fused multiply-add (exact arithmetic rounded once: a Fraction converted to float)
    from fractions import Fraction
    n = 3000
    ember.manual_seed(3)
    got = ember.empty(n, dtype=ember.float64).cauchy_(-2.5, 3.0).tolist()
    want = [float(Fraction(3.0) * Fraction(math.tan(math.pi * (u - 0.5))) + Fraction(-2.5))
            for u in _uniforms(3, n)]
    assert got == want


def test_log_normal_uses_the_c_library_exp():
    n = 5001       # odd: the last element's Box-Muller partner stays cached
    ember.manual_seed(5)
    got = ember.empty(n, dtype=ember.float64).log_normal_(0.0, 1.0).tolist()
    # the normals of log_normal_ are the element-wise Box-Muller ones (non-contiguous normal_)
    ember.manual_seed(5)
    normals = ember.empty(n, 2, dtype=ember.float64)[:, 0].normal_(0.0, 1.0).tolist()
    assert got == [math.exp(z) for z in normals]


def test_geometric_uses_the_c_library_log():
    n, p = 5000, 0.3
    ember.manual_seed(7)
    got = ember.empty(n, dtype=ember.float64).geometric_(p).tolist()
    want = [float(math.ceil(math.log(u) / math.log1p(-p))) for u in _uniforms(7, n)]
    assert got == want


def test_rrelu_draws_its_slopes_between_float_bounds():
    # NOTE: torch's float kernel casts lower and upper to float before it draws each slope
    # as a double uniform between them: 1/3 becomes 0.3333333432674408.
    import numpy as np
    ember.manual_seed(0)
    x = ember.randn(1000)
    state = ember.get_rng_state()
    y = ember.nn.functional.rrelu(x, training=True)
    xs = np.array(x.tolist(), np.float32)
    negative = xs <= 0
    u = _random._uniform53(ember.Generator().set_state(state), int(negative.sum()))
    lower, upper = float(np.float32(1 / 8)), float(np.float32(1 / 3))
    want = xs.copy()
    want[negative] = xs[negative] * (u * (upper - lower) + lower).astype(np.float32)
    assert y.tolist() == want.tolist()


def test_bernoulli_with_tensor_p_draws_in_the_memory_order_of_self():
    p = ember.linspace(0, 1, 20).view(4, 5)
    ember.manual_seed(0)
    got = ember.empty(4, 5).t().bernoulli_(p.t())
    ember.manual_seed(0)
    want = ember.empty(4, 5).bernoulli_(p).t()
    assert got.tolist() == want.tolist()
    assert got.stride() == (1, 5)


def test_multinomial_draws_its_keys_in_the_memory_order_of_the_probabilities():
    # without replacement torch draws q = empty_like(probs).exponential_() and takes the
    # largest probs / q: for transposed probabilities, q is filled column by column
    import numpy as np
    p = ember.linspace(0.1, 1.0, 24).view(4, 6)
    ember.manual_seed(0)
    q = ember.empty(4, 6).exponential_().t()
    keys = np.array((p.t() / q).tolist())
    want = np.argsort(-keys, axis=1, kind="stable")[:, :3]
    ember.manual_seed(0)
    assert ember.multinomial(p.t(), 3).tolist() == want.tolist()


def test_multinomial_results_have_contiguous_strides():
    assert ember.multinomial(ember.ones(6, 1), 1).stride() == (1, 1)
    assert ember.multinomial(ember.ones(1, 6), 2).stride() == (2, 1)


def test_random_factories_fill_an_out_of_their_shape_in_place():
    for make in (lambda b: ember.rand(4, out=b), lambda b: ember.randn(4, out=b),
                 lambda b: ember.normal(0.0, 1.0, (4,), out=b),
                 lambda b: ember.normal(ember.zeros(4), 1.0, out=b),
                 lambda b: ember.bernoulli(ember.full((4,), 0.5), out=b)):
        b = ember.zeros(4)
        view = b[:2]
        assert make(b) is b
        assert view.tolist() == b[:2].tolist()
    b = ember.zeros(4, dtype=ember.int64)
    view = b[:2]
    ember.randint(1, 5, (4,), out=b)
    assert view.tolist() == b[:2].tolist() and 0 not in b.tolist()
    ember.randperm(4, out=b)
    assert view.tolist() == b[:2].tolist() and sorted(b.tolist()) == [0, 1, 2, 3]
    ember.multinomial(ember.ones(4), 4, out=b)
    assert view.tolist() == b[:2].tolist() and sorted(b.tolist()) == [0, 1, 2, 3]


def test_random_factories_draw_in_the_memory_order_of_out():
    ember.manual_seed(0)
    b = ember.zeros(4, 20).t()
    ember.randn(20, 4, out=b)
    after = ember.rand(2).tolist()
    ember.manual_seed(0)
    want = ember.empty(4, 20).t().normal_()     # not contiguous: the element-wise normals
    assert b.stride() == (1, 20)
    assert b.tolist() == want.tolist()
    assert ember.rand(2).tolist() == after
    ember.manual_seed(0)
    b = ember.zeros(4, 5, dtype=ember.int64).t()
    ember.randint(0, 9, (5, 4), out=b)
    ember.manual_seed(0)
    assert b.tolist() == ember.randint(0, 9, (4, 5)).t().tolist()


def test_private_gamma_samplers():
    x = ember.full((5,), 2.0)
    ember.manual_seed(1)
    want = ember._standard_gamma(x).tolist()
    assert ember._standard_gamma(x, generator=ember.Generator().manual_seed(1)).tolist() == want
    tiny = float(ember.finfo(ember.float32).tiny)
    odd = ember._standard_gamma(ember.tensor([-1.0, 0.0, float("nan"), float("inf")]))
    assert odd.tolist() == [tiny, tiny, tiny, float("inf")]
    d = ember._sample_dirichlet(ember.full((3, 4), 0.5, dtype=ember.float64))
    assert d.dtype is ember.float64 and d.shape == (3, 4)
    assert all(abs(s - 1) < 1e-12 for s in d.sum(-1).tolist())
    assert ember._sample_dirichlet(ember.zeros(2)).tolist() == [0.5, 0.5]
    for fn, kernel in ((ember._standard_gamma, "gamma_cpu"), (ember._sample_dirichlet, "dirichlet")):
        with pytest.raises(NotImplementedError, match=f"\"{kernel}\" not implemented for 'Half'"):
            fn(ember.ones(2, dtype=ember.float16))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_half_precision_rrelu_rounds_the_float_product_once(dtype):
    import ml_dtypes
    import numpy as np
    np_dtype = {"bfloat16": ml_dtypes.bfloat16, "float16": np.float16}[dtype]
    ember.manual_seed(0)
    x = ember.randn(1000).to(getattr(ember, dtype))
    xs = np.array(x.float().tolist(), np.float32)
    mid = np.float32((1 / 8 + 1 / 3) / 2)
    want = (xs * np.where(xs > 0, np.float32(1), mid)).astype(np_dtype).astype(np.float32)
    assert ember.nn.functional.rrelu(x).float().tolist() == want.tolist()
    if dtype == "bfloat16":         # (torch has no float16 rrelu training kernel)
        state = ember.get_rng_state()
        y = ember.nn.functional.rrelu(x, training=True)
        negative = xs <= 0
        u = _random._uniform53(ember.Generator().set_state(state), int(negative.sum()))
        lower, upper = float(np.float32(1 / 8)), float(np.float32(1 / 3))
        factor = np.ones_like(xs)
        factor[negative] = (u * (upper - lower) + lower).astype(np.float32)
        want = (xs * factor).astype(np_dtype).astype(np.float32)
        assert y.float().tolist() == want.tolist()


def test_samples_of_tensor_parameters_have_zero_gradients():
    m = ember.zeros(2, 1, requires_grad=True)
    s = ember.ones(3, requires_grad=True)
    y = ember.normal(m, s)
    assert y.grad_fn.name() == "NormalBackward3"
    y.sum().backward()
    assert m.grad.tolist() == [[0.0], [0.0]] and s.grad.tolist() == [0.0, 0.0, 0.0]
    x = ember.randn(3, requires_grad=True)
    assert ember.normal(x, 1.0).grad_fn.name() == "NormalBackward1"
    assert ember.normal(1.0, x.exp()).grad_fn.name() == "NormalBackward2"
    p = ember.rand(3, requires_grad=True)
    b = ember.bernoulli(p)
    assert b.grad_fn.name() == "BernoulliBackward0"
    (b * 2).sum().backward()
    assert p.grad.tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match="derivative for aten::bernoulli is not implemented"):
        ember.bernoulli(p, 0.5).sum().backward()
    with ember.no_grad():
        assert not ember.normal(x, 1.0).requires_grad
