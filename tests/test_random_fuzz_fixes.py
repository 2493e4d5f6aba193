"""Random streams and their argument forms, as a fuzzer over torch's samplers found them to
differ: expected values come from NumPy's legacy Mersenne Twister (whose 32-bit words torch's
CPU generator draws), the bounds of each dtype, and torch's documented texts."""
import numpy as np
import pytest

import ember


def words(seed, n):
    """The first `n` 32-bit words of torch's CPU generator after manual_seed(seed): NumPy's
    legacy-seeded MT19937 (a full-range uint32 randint returns its raw words)."""
    return np.random.RandomState(seed).randint(0, 2 ** 32, n, dtype=np.uint32).astype(np.uint64)


# -- random_(from, None): from `from` up to the dtype's largest integer ---------------------------

@pytest.mark.parametrize("dtype,top", [("int8", 127), ("uint8", 255), ("int16", 32767),
                                       ("float32", 2 ** 24), ("float16", 2 ** 11)])
def test_random_from_to_none_draws_up_to_the_dtypes_largest_integer(dtype, top):
    ember.manual_seed(3)
    x = ember.empty(50, dtype=getattr(ember, dtype)).random_(5, None)
    span = top - 5 + 1                      # [from, top], one word per value (span < 2**28)
    assert x.tolist() == (words(3, 50) % np.uint64(span) + 5).tolist()
    ember.manual_seed(3)                    # the keyword form is the same overload
    y = ember.empty(50, dtype=getattr(ember, dtype)).random_(**{"from": 5, "to": None})
    assert ember.equal(x, y)


def test_random_one_argument_is_to_and_the_nodes_follow_the_overloads():
    ember.manual_seed(0)
    assert ember.empty(20, dtype=ember.int64).random_(7).tolist() == (words(0, 20) % 7).tolist()
    base = ember.zeros(3, requires_grad=True).clone()
    names = [base.clone().random_(3, None).grad_fn.name(), base.clone().random_(3).grad_fn.name(),
             base.clone().random_(to=3).grad_fn.name(), base.clone().random_().grad_fn.name()]
    assert names == ["RandomBackward0", "RandomBackward1", "RandomBackward1", "RandomBackward2"]


def test_random_full_64_bit_range_with_to_none():
    ember.manual_seed(1)
    x = ember.empty(4, dtype=ember.int64).random_(-2 ** 63, None)
    w = words(1, 8)
    expected = ((w[0::2] << np.uint64(32)) | w[1::2]).view(np.int64)   # high word first
    assert x.tolist() == expected.tolist()


RANDOM_HEADER = "random_() received an invalid combination of arguments - got "


@pytest.mark.parametrize("call,got", [
    (lambda x: x.random_(None), "(NoneType)"),
    (lambda x: x.random_(to=None), "(to=NoneType, )"),
    (lambda x: x.random_(**{"from": 3}), "(from=int, )"),
    (lambda x: x.random_(1.5), "(float)"),
    (lambda x: x.random_(None, 5), "(NoneType, int)"),
])
def test_random_arguments_that_fit_no_overload(call, got):
    with pytest.raises(TypeError) as info:
        call(ember.empty(3))
    lines = str(info.value).splitlines()
    assert lines[0] == RANDOM_HEADER + got + ", but expected one of:"
    assert " * (int from, int to, *, torch.Generator generator = None)" in lines


def test_random_errors_of_complex_dtypes_name_torchs_checks():
    x = ember.empty(3, dtype=ember.complex64)
    with pytest.raises(RuntimeError, match="^random_from_to_impl handles only integral"):
        x.random_(1, None)
    with pytest.raises(RuntimeError, match="^check_random_bounds handles only integral"):
        x.random_(1, 5)
    with pytest.raises(NotImplementedError, match="\"random_full_64_bits_range_kernel_cpu\" "
                                                  "not implemented for 'ComplexFloat'"):
        x.random_(-2 ** 63, None)
    assert ember.empty(0, dtype=ember.complex64).random_(-2 ** 63, None).shape == (0,)


# -- bernoulli: p is a float (a 0-dim tensor passes as one) ----------------------------------------

def test_bernoulli_refuses_a_tensor_p_and_out_with_p():
    x = ember.rand(3)
    with pytest.raises(TypeError, match=r"^bernoulli\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, p=Tensor\), but"):
        ember.bernoulli(x, p=ember.rand(3))
    with pytest.raises(TypeError, match=r"got \(Tensor\), but expected one of:\n"
                                        r" \* \(\*, torch.Generator generator = None\)"):
        x.bernoulli(ember.rand(3))
    with pytest.raises(TypeError, match=r"got \(Tensor, float, out=Tensor\)"):
        ember.bernoulli(x, 0.5, out=ember.empty(3))
    ember.manual_seed(4)
    a = ember.bernoulli(x, ember.tensor(0.25))
    ember.manual_seed(4)
    assert ember.equal(a, ember.bernoulli(x, 0.25))


# -- normal, randperm, generator states ------------------------------------------------------------

def test_normal_of_shapes_that_do_not_broadcast_says_so_as_torch():
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(6\) must match the size of "
                                           r"tensor b \(3\) at non-singleton dimension 1$"):
        ember.normal(ember.zeros(6), ember.ones(2, 3))
    assert ember.normal(ember.zeros(2, 1), ember.ones(3)).shape == (2, 3)


def test_normal_refuses_a_complex_std_but_takes_a_complex_mean():
    for call in (lambda: ember.normal(ember.zeros(3), ember.ones(3, dtype=ember.complex64)),
                 lambda: ember.normal(1.0, ember.ones(3, dtype=ember.complex64))):
        with pytest.raises(RuntimeError, match="^normal expects standard deviation to be "
                                               "non-complex$"):
            call()
    assert ember.normal(ember.zeros(3, dtype=ember.complex64), ember.ones(3)).is_complex()


def test_randperm_checks_a_negative_n_before_its_dtype():
    for dtype in (ember.complex64, ember.bool):
        with pytest.raises(RuntimeError, match=r"^Trying to create tensor with negative "
                                               r"dimension -1: \[-1\]$"):
            ember.randperm(-1, dtype=dtype)


def test_set_state_takes_only_a_tensor():
    g = ember.Generator().manual_seed(2)
    state = g.get_state()
    first = ember.rand(3, generator=g)
    with pytest.raises(TypeError, match="^expected a torch.ByteTensor, but got list$"):
        g.set_state(state.tolist())
    with pytest.raises(TypeError, match="^expected a torch.ByteTensor, but got numpy.ndarray$"):
        ember.set_rng_state(state.numpy())
    assert ember.equal(ember.rand(3, generator=g.set_state(state)), first)


def test_geometric_of_narrow_integers_keeps_the_low_bits_of_the_int32_value():
    # values past the dtype's range: C's cast goes through int32 (then keeps the low bits)
    ember.manual_seed(0)
    wide = np.array(ember.empty(64, dtype=ember.int32).geometric_(1e-9).tolist(), np.int64)
    assert (wide > 2 ** 24).any()           # (past float32's integers)
    for dtype in ("int16", "int8", "uint8"):
        ember.manual_seed(0)
        narrow = ember.empty(64, dtype=getattr(ember, dtype)).geometric_(1e-9)
        assert narrow.tolist() == wide.astype(np.int32).astype(dtype).tolist()
    ember.manual_seed(0)                    # past int32 too: INT_MIN, whose low bits are 0
    assert ember.empty(8, dtype=ember.int16).geometric_(1e-18).tolist() == [0] * 8


def test_a_generator_prints_as_torchs():
    assert repr(ember.manual_seed(0)).startswith("<torch._C.Generator object at 0x")


# -- consumers and argument forms ---------------------------------------------------------------

def test_sobol_scrambled_without_a_seed_draws_from_the_default_generator():
    ember.manual_seed(5)
    ember.quasirandom.SobolEngine(3, scramble=True)
    after = ember.rand(2)
    ember.manual_seed(5)                    # torch.randint(2, (3, 30)), then (3, 30, 30)
    ember.randint(2, (3, 30))
    ember.randint(2, (3, 30, 30))
    assert ember.equal(after, ember.rand(2))
    ember.manual_seed(5)
    a = ember.quasirandom.SobolEngine(3, scramble=True).draw(4)
    ember.manual_seed(5)
    assert ember.equal(a, ember.quasirandom.SobolEngine(3, scramble=True).draw(4))
    ember.manual_seed(5)                    # with a seed, a generator of its own
    ember.quasirandom.SobolEngine(3, scramble=True, seed=1)
    first = ember.rand(2)
    ember.manual_seed(5)
    assert ember.equal(first, ember.rand(2))


@pytest.mark.parametrize("call,pos,got", [
    (lambda: ember.rand(2, None), 2, "NoneType"),
    (lambda: ember.randn(2, 3, None), 3, "NoneType"),
    (lambda: ember.randn(2, (3,)), 2, "tuple"),
    (lambda: ember.rand(2, ember.tensor(3.0)), 2, "Tensor"),
    (lambda: ember.rand(2, 3.0, generator=ember.Generator()), 2, "float"),
])
def test_sampler_sizes_as_varargs_fail_in_the_unpacking(call, pos, got):
    with pytest.raises(TypeError, match=f"argument 'size' failed to unpack the object at pos "
                                        f"{pos} with error \"type must be tuple of ints,but got "
                                        f"{got}\"$"):
        call()


def test_randint_low_by_keyword_takes_no_positional_argument_before_it():
    with pytest.raises(TypeError, match=r"^randint\(\) received an invalid combination of "
                                        r"arguments - got \(int, low=int, size=tuple\)"):
        ember.randint(2, size=(3,), low=1)
    ember.manual_seed(0)
    a = ember.randint(1, high=5, size=(30,))
    ember.manual_seed(0)
    assert ember.equal(a, ember.randint(low=1, high=5, size=(30,)))
    assert a.tolist() == (words(0, 30) % 4 + 1).tolist()


@pytest.mark.parametrize("device,error,text", [
    ("meta", RuntimeError, "META device type not an accelerator."),
    ("mps", RuntimeError, r"Cannot execute getNewGenerator\(\) without MPS backend."),
    ("xpu", RuntimeError, "Cannot get XPU generator without ATen_xpu library."),
    (1.5, TypeError, r"Generator\(\): argument 'device' \(position 1\) must be torch.device, "
                     r"not float"),
])
def test_generator_devices_without_a_generator_here(device, error, text):
    with pytest.raises(error, match=f"^{text}$"):
        ember.Generator(device)


def test_generator_of_the_cpu_by_any_name():
    for device in (None, "cpu", "cpu:0", ember.device("cpu")):
        assert ember.Generator(device).device == ember.device("cpu")
    with pytest.raises(TypeError, match=r"^Generator\(\) got an unexpected keyword argument "
                                        r"'foo'$"):
        ember.Generator(device="cpu", foo=1)


def test_wishart_samples_a_batch_of_no_matrices_without_drawing():
    ember.manual_seed(0)
    d = ember.distributions.Wishart(ember.tensor(5.0), ember.eye(3))
    assert d.sample((0,)).shape == (0, 3, 3)
    # nothing drawn: the next floats are the generator's first words' 24 low bits
    expected = (words(0, 2) & np.uint64(0xFFFFFF)).astype(np.float64) * 2.0 ** -24
    assert ember.rand(2).tolist() == expected.tolist()
    c = ember.distributions.constraints
    assert c.symmetric.check(ember.zeros(0, 2, 2)).shape == (0,)
    with pytest.raises(RuntimeError, match=r"^cannot reshape tensor of 0 elements into shape "
                                           r"\[0, -1\]"):       # (as torch's, a view)
        c.lower_triangular.check(ember.zeros(0, 3, 3))


@pytest.mark.parametrize("make,kernel", [
    (lambda c: ember.distributions.Gamma(c, 2.0), "gamma_cpu"),
    (lambda c: ember.distributions.StudentT(c), "gamma_cpu"),
    (lambda c: ember.distributions.Dirichlet(c), "dirichlet"),
    (lambda c: ember.distributions.Beta(c, 2.0), "dirichlet"),
])
@pytest.mark.parametrize("dtype,name", [("float16", "Half"), ("bfloat16", "BFloat16")])
def test_gamma_samplers_have_no_half_kernels(make, kernel, dtype, name):
    ember.manual_seed(0)
    d = make(ember.ones(3, dtype=getattr(ember, dtype)))
    with pytest.raises(NotImplementedError, match=f"^\"{kernel}\" not implemented for '{name}'$"):
        d.sample()


def test_sobol_draws_float32_and_float64_only_and_counts_negative_sizes():
    e = ember.quasirandom.SobolEngine(2)
    assert e.draw(1, dtype=ember.float16).tolist() == [[0.0, 0.0]]     # the first point: a cast
    with pytest.raises(NotImplementedError, match="^\"_sobol_engine_draw\" not implemented for "
                                                  "'Half'$"):
        e.draw(2, dtype=ember.float16)
    with pytest.raises(RuntimeError, match=r"^Trying to create tensor with negative dimension "
                                           r"-1: \[-1, 2\]$"):
        ember.quasirandom.SobolEngine(2).draw(0)       # (n - 1 points after the first)
    assert e.draw(2, dtype=ember.float64).tolist() == [[0.5, 0.5], [0.75, 0.25]]


def test_missing_arguments_are_listed_from_the_first_missing_one_keywords_included():
    # torch's parser names every required parameter from the first one missing on, even those
    # given by keyword ("argument" for several is torch's text)
    with pytest.raises(TypeError, match=r'^randint\(\) missing 2 required positional argument: '
                                        r'"high", "size"$'):
        ember.randint(low=2, size=(3,))
    with pytest.raises(TypeError, match=r'^randint\(\) missing 1 required positional arguments: '
                                        r'"size"$'):
        ember.randint(low=1, high=5)


@pytest.mark.parametrize("call,text", [
    (lambda x: x.uniform_(a=1), r"^uniform_\(\) got an unexpected keyword argument 'a'$"),
    (lambda x: x.normal_(1, 2, 3),
     r"^normal_\(\) takes from 0 to 2 positional arguments but 3 were given$"),
    (lambda x: x.geometric_(), r'^geometric_\(\) missing 1 required positional arguments: "p"$'),
    (lambda x: x.normal_(ember.ones(3)),
     r"^normal_\(\): argument 'mean' \(position 1\) must be float, not Tensor$"),
    (lambda x: x.uniform_(generator=3),
     r"^uniform_\(\): argument 'generator' must be torch.Generator, not int$"),
    (lambda x: x.bernoulli_(0.5, 1), r"^bernoulli_\(\) received an invalid combination of "
                                     r"arguments - got \(float, int\), but expected one of:"),
])
def test_in_place_samplers_argument_errors_are_torchs(call, text):
    with pytest.raises(TypeError, match=text):
        call(ember.empty(3))


def test_in_place_samplers_take_torchs_keywords():
    ember.manual_seed(0)
    x = ember.empty(3).uniform_(**{"from": 1, "to": 2})
    assert x.tolist() == (1 + (words(0, 3) & np.uint64(0xFFFFFF)).astype(np.float64)
                          * 2.0 ** -24).astype(np.float32).tolist()
    for fill in (lambda t: t.normal_(mean=1, std=2), lambda t: t.exponential_(lambd=2),
                 lambda t: t.geometric_(p=0.5), lambda t: t.cauchy_(median=1, sigma=2),
                 lambda t: t.log_normal_(mean=1, std=0.5), lambda t: t.bernoulli_(p=0.3)):
        assert fill(ember.empty(3)).shape == (3,)


@pytest.mark.parametrize("call,text", [
    (lambda x: ember.nn.functional.dropout(x, 0.5, training=1),
     "dropout(): argument 'train' (position 3) must be bool, not int"),
    (lambda x: ember.nn.functional.dropout(x, 0.5, None, True),
     "dropout_(): argument 'train' (position 3) must be bool, not NoneType"),
    (lambda x: ember.nn.functional.dropout2d(x, 0.5, "yes"),
     "feature_dropout(): argument 'train' (position 3) must be bool, not str"),
    (lambda x: ember.nn.functional.feature_alpha_dropout(x, 0.5, np.bool_(True)),
     "feature_alpha_dropout(): argument 'train' (position 3) must be bool, not numpy.bool"),
])
def test_dropout_takes_only_a_bool_train(call, text):
    with pytest.raises(TypeError) as info:
        call(ember.ones(3, 3))
    assert str(info.value) == text
    ember.manual_seed(0)            # and nothing was drawn
    assert ember.rand(1).item() == float(words(0, 1)[0] & np.uint64(0xFFFFFF)) * 2.0 ** -24


def test_factories_make_their_out_require_grad_when_asked():
    ember.manual_seed(0)
    for out in (ember.empty(3), ember.empty(2)):        # filled in place, or resized
        assert ember.rand(3, out=out, requires_grad=True).requires_grad and out.requires_grad
    assert ember.randn(3, out=ember.empty(3), requires_grad=True).requires_grad
    assert ember.normal(0., 1., (3,), out=ember.empty(3), requires_grad=True).requires_grad
    assert ember.randperm(3, out=ember.empty(3), requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype "
                                           "can require gradients$"):
        ember.randint(3, (3,), out=ember.empty(3, dtype=ember.int64), requires_grad=True)
    assert not ember.rand(3, out=ember.empty(3)).requires_grad


def test_normal_of_a_tensor_mean_and_a_number_std_broadcasts_mean_with_out():
    ember.manual_seed(0)
    z = ember.randn(2, 3)
    ember.manual_seed(0)
    out = ember.empty(2, 3)
    ember.normal(ember.tensor([10.0, 20.0, 30.0]), 1.0, out=out)      # six draws, not three
    assert ember.allclose(out, z + ember.tensor([10.0, 20.0, 30.0]))
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of "
                                           r"tensor b \(5\) at non-singleton dimension 0$"):
        ember.normal(ember.zeros(3), 1.0, out=ember.empty(5))
    with pytest.raises(RuntimeError, match="^multinomial expects Long tensor out, got: Float$"):
        ember.multinomial(ember.rand(4), 3, out=ember.empty(3))


@pytest.mark.parametrize("dtype,error,text", [
    ("float16", NotImplementedError, "\"geqrf_cpu\" not implemented for 'Half'"),
    ("bfloat16", NotImplementedError, "\"geqrf_cpu\" not implemented for 'BFloat16'"),
    ("complex64", NotImplementedError, "Unlike NumPy, torch.sign is not intended to support "
                                       "complex numbers. Please use torch.sgn instead."),
])
def test_orthogonal_init_refuses_what_torchs_qr_and_sign_refuse_after_drawing(dtype, error, text):
    ember.manual_seed(0)
    with pytest.raises(error) as info:
        ember.nn.init.orthogonal_(ember.empty(3, 4, dtype=getattr(ember, dtype)))
    assert str(info.value) == text
    after = ember.rand(1)                   # the normal sample was drawn first
    ember.manual_seed(0)
    ember.empty(3, 4, dtype=getattr(ember, dtype)).normal_()
    assert ember.equal(after, ember.rand(1))
    ember.manual_seed(0)
    assert not ember.equal(after, ember.rand(1))


@pytest.mark.parametrize("call,text", [
    (lambda g: g.manual_seed(), "Generator.manual_seed() takes exactly one argument (0 given)"),
    (lambda g: g.manual_seed(seed=3), "Generator.manual_seed() takes no keyword arguments"),
    (lambda g: g.seed(1), "Generator.seed() takes no arguments (1 given)"),
    (lambda g: g.set_state(new_state=g.get_state()),
     "Generator.set_state() takes no keyword arguments"),
    (lambda g: g.clone_state(1), "Generator.clone_state() takes no arguments (1 given)"),
])
def test_generator_methods_take_arguments_as_torchs_c_methods(call, text):
    with pytest.raises(TypeError) as info:
        call(ember.Generator())
    assert str(info.value) == text


def test_fork_rng_of_device_types():
    ember.manual_seed(0)
    with ember.random.fork_rng(device_type="meta"):     # forks nothing, as torch
        ember.rand(3)
    assert ember.rand(1).item() == float(words(0, 4)[3] & np.uint64(0xFFFFFF)) * 2.0 ** -24
    with pytest.raises(AttributeError, match="get_rng_state"):     # (torch.cpu has none)
        with ember.random.fork_rng(device_type="cpu"):
            pass
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        with ember.random.fork_rng(foo=1):
            pass


def test_randperm_refuses_a_generator_of_another_type_in_the_parsers_words():
    with pytest.raises(TypeError, match=r"^randperm\(\) received an invalid combination of "
                                        r"arguments - got \(int, generator=int\), but"):
        ember.randperm(5, generator=3)
    with pytest.raises(TypeError, match=r"^randperm\(\) missing 1 required positional "
                                        r"arguments: \"n\"$"):
        ember.randperm(dtype=ember.int64)
    with pytest.raises(TypeError, match=r"got \(float, generator=torch._C.Generator\)"):
        ember.randperm(2.5, generator=ember.Generator())


@pytest.mark.parametrize("call,text", [
    (lambda: ember.poisson(ember.ones(3), generator=3),
     "poisson(): argument 'generator' must be torch.Generator, not int"),
    (lambda: ember.multinomial(ember.ones(3), 2, generator=3),
     "multinomial(): argument 'generator' must be torch.Generator, not int"),
    (lambda: ember.binomial(ember.ones(3), ember.rand(3), generator=3),
     "binomial(): argument 'generator' must be torch.Generator, not int"),
    (lambda: ember._standard_gamma(ember.ones(3), generator=3),
     "_standard_gamma(): argument 'generator' must be torch.Generator, not int"),
    (lambda: ember.multinomial(ember.ones(3), 2, 1),
     "multinomial(): argument 'replacement' (position 3) must be bool, not int"),
    (lambda: list(ember.utils.data.WeightedRandomSampler([1.0, 2.0], 2, generator=3)),
     "multinomial(): argument 'generator' must be torch.Generator, not int"),
])
def test_samplers_refuse_a_generator_of_another_type_in_the_parsers_words(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == text


def test_random_sampler_given_a_wrong_generator_fails_in_randperm():
    with pytest.raises(TypeError, match=r"^randperm\(\) received an invalid combination of "
                                        r"arguments - got \(int, generator=int\)"):
        list(ember.utils.data.RandomSampler(range(3), generator=3))
    with pytest.raises(TypeError, match=r"^randint\(\) received an invalid combination of "
                                        r"arguments - got \(generator=str, dtype=torch.dtype, "
                                        r"size=tuple, high=int, \)"):
        list(ember.utils.data.RandomSampler(range(3), generator="g", replacement=True))


def test_samplers_of_meta_tensors_draw_nothing():
    ember.manual_seed(0)
    x = ember.empty(2, 3, device="meta")
    results = [ember.bernoulli(x), ember.multinomial(x, 5, True), ember.poisson(x),
               ember.normal(x, 1.0), ember.normal(1.0, x), x.geometric_(0.5), x.cauchy_(),
               x.log_normal_()]
    assert all(r.is_meta for r in results)
    assert [tuple(r.shape) for r in results[:2]] == [(2, 3), (2, 5)]
    assert results[1].dtype == ember.int64
    assert ember.rand(1).item() == float(words(0, 1)[0] & np.uint64(0xFFFFFF)) * 2.0 ** -24
    y = ember.empty(3, device="meta", requires_grad=True)
    assert ember.normal(y, 1.0).grad_fn.name() == "NormalBackward1"
