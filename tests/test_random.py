"""ember's random numbers without torch: golden values, state handling, statistics, errors.

The golden values were printed by torch 2.13 (CPU) and are hard-coded, so a change in any
stream shows up here; tests/oracle/test_random_oracle.py compares against live torch.
"""
import importlib.util
import math
import pathlib
import warnings

import ml_dtypes
import numpy as np
import pytest


def _load_random():
    try:
        from ember import _random
        return _random
    except Exception:  # noqa: BLE001 - ember may be mid-build; the module stands alone
        path = pathlib.Path(__file__).parents[1] / "src/ember/_random.py"
        spec = importlib.util.spec_from_file_location("ember_random", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


R = _load_random()
f32, f64, i64 = np.float32, np.float64, np.int64


def gen(seed):
    return R.Generator().manual_seed(seed)


# -- golden values (torch 2.13, CPU) ----------------------------------------------------------

GOLDEN = {
    0: {
        "rand": [0.49625658988952637, 0.7682217955589294, 0.08847743272781372,
                 0.13203048706054688, 0.30742281675338745],
        "rand64": [0.9700530018065531, 0.707819864399788, 0.45938294312745087,
                   0.9207476841219603, 0.6450241201227648],
        "randn": [1.5409960746765137, -0.293428897857666, -2.1787893772125244,
                  0.5684312582015991, -1.0845223665237427],
        "randn20": [-1.1258398294448853, -1.152360200881958, -0.2505785822868347,
                    -0.4338788092136383, 0.5988394618034363, -1.5550950765609741,
                    -0.3413603901863098, 1.85300612449646, 0.46809640526771545,
                    -0.1577124446630478, 1.4436601400375366, 0.26604941487312317,
                    1.3893661499023438, 1.586334228515625, 0.946298360824585,
                    -0.843676745891571, 0.9318265914916992, 1.2590092420578003,
                    2.0049805641174316, 0.05373690277338028],
        "randn64": [1.5409961082440433, -0.2934289057609464, -2.1787893820745574,
                    0.5684312772806678, -1.084522342424021],
        "randint": [4, 9, 3, 0, 3],
        "randperm10": [4, 1, 7, 5, 3, 9, 0, 8, 6, 2],
        "bernoulli": [0, 0, 1, 0, 0, 0, 1, 1],
        "exponential": [3.508326292037964, 1.2303847074508667, 0.615044116973877],
        "multinomial": [2, 1],
        "multinomial_repl": [3, 3, 2, 3, 3, 3],
        "randn_half": [1.541015625, -0.29345703125, -2.1796875, 0.568359375],
        "rand_bf16": [0.49609375, 0.76953125, 0.08837890625],
    },
    42: {
        "rand": [0.8822692632675171, 0.9150039553642273, 0.38286375999450684,
                 0.9593056440353394, 0.3904482126235962],
        "rand64": [0.05815448596142969, 0.06291016742457756, 0.12358607277440903,
                   0.05258016436107704, 0.5261718968547618],
        "randn": [0.33669036626815796, 0.12880940735340118, 0.23446236550807953,
                  0.23033303022384644, -1.1228563785552979],
        "randn20": [1.9269152879714966, 1.4872840642929077, 0.9007171988487244,
                    -2.1055209636688232, -0.7581311464309692, 1.078317642211914,
                    0.8008005619049072, 1.680620551109314, 0.3558599054813385,
                    -0.6866229772567749, -0.4933563470840454, 0.2414877861738205,
                    -0.2316243201494217, 0.041759490966796875, -0.2515752911567688,
                    0.859858512878418, -0.3097267746925354, -0.3957104980945587,
                    0.8034093379974365, -0.6215953826904297],
        "randn64": [0.33669035438385886, 0.1288094051365897, 0.23446236336153173,
                    0.2303330279146119, -1.1228563767381703],
        "randint": [2, 7, 6, 4, 6],
        "randperm10": [2, 6, 1, 8, 4, 5, 0, 9, 3, 7],
        "bernoulli": [1, 1, 1, 1, 0, 1, 0, 0],
        "exponential": [0.05991401523351669, 0.06497612595558167, 0.13191677629947662],
        "multinomial": [3, 1],
        "multinomial_repl": [0, 0, 1, 0, 2, 2],
        "randn_half": [0.336669921875, 0.1287841796875, 0.2344970703125, 0.2303466796875],
        "rand_bf16": [0.8828125, 0.9140625, 0.3828125],
    },
}
PROBS = np.array([0.1, 0.2, 0.3, 0.4], np.float32)
SAMPLERS = {
    "rand": lambda g: R.uniform(g, (5,), f32),
    "rand64": lambda g: R.uniform(g, (5,), f64),
    "randn": lambda g: R.normal(g, (5,), f32),
    "randn20": lambda g: R.normal(g, (20,), f32),
    "randn64": lambda g: R.normal(g, (5,), f64),
    "randint": lambda g: R.randint(g, (5,), i64, 0, 10),
    "randperm10": lambda g: R.randperm(g, 10, i64),
    "bernoulli": lambda g: R.bernoulli(g, 0.5, (8,), f32),
    "exponential": lambda g: R.exponential(g, (3,), f32),
    "multinomial": lambda g: R.multinomial(g, PROBS, 2),
    "multinomial_repl": lambda g: R.multinomial(g, PROBS, 6, True),
    "randn_half": lambda g: R.normal(g, (4,), np.float16),
    "rand_bf16": lambda g: R.uniform(g, (3,), ml_dtypes.bfloat16),
}


@pytest.mark.parametrize("seed", GOLDEN)
@pytest.mark.parametrize("name", SAMPLERS)
def test_golden_values(seed, name):
    values = SAMPLERS[name](gen(seed))
    expected = np.array(GOLDEN[seed][name]).astype(values.dtype)
    assert np.array_equal(values, expected)


def test_golden_2d_shape_is_row_major():
    values = R.uniform(gen(0), (2, 3), f32)
    assert values.shape == (2, 3)
    assert values.ravel()[:5].tolist() == GOLDEN[0]["rand"]


def test_golden_state_after_a_cached_normal():
    g = gen(0)
    R.normal(g, (1,), f64)
    state = g._state_bytes()        # (get_state wraps these bytes in a ByteTensor)
    assert state.shape == (5056,) and state.dtype == np.uint8
    assert state[:32].tolist() == [0, 0, 0, 0, 0, 0, 0, 0, 109, 2, 0, 0, 1, 0, 0, 0,
                                   4, 0, 0, 0, 0, 0, 0, 0, 18, 13, 161, 145, 0, 0, 0, 0]
    assert state[-40:].tolist() == [0] * 8 + [234, 111, 124, 8, 138, 199, 210, 191] + \
        [0] * 8 + [1] + [0] * 15


def test_fresh_generator_uses_torchs_default_seed():
    g = R.Generator()
    assert g.initial_seed() == 67280421310721
    assert R.uniform(g, (2,), f32).tolist() == [0.267295241355896, 0.8725283145904541]
    assert str(g.device) == "cpu" and repr(g.device) == "device(type='cpu')"


# -- determinism and state --------------------------------------------------------------------

def test_same_seed_same_numbers():
    for sampler in SAMPLERS.values():
        assert np.array_equal(sampler(gen(7)), sampler(gen(7)))


def test_state_save_and_restore_includes_normal_cache():
    g = gen(3)
    R.normal(g, (3,), f64)                # odd count: second Box-Muller value is cached
    state = g.get_state()
    first = [R.normal(g, (5,), f64), R.uniform(g, (700,), f32), R.randperm(g, 50, i64)]
    g.set_state(state)
    second = [R.normal(g, (5,), f64), R.uniform(g, (700,), f32), R.randperm(g, 50, i64)]
    for a, b in zip(first, second):
        assert np.array_equal(a, b)


def test_normal_cache_carries_over_between_calls():
    one_call = R.normal(gen(0), (4,), f64)
    g = gen(0)
    pieces = np.concatenate([R.normal(g, (1,), f64), R.normal(g, (3,), f64)])
    assert np.array_equal(one_call, pieces)


def test_manual_seed_clears_normal_cache():
    g = gen(0)
    R.normal(g, (1,), f64)
    g.manual_seed(0)
    assert np.array_equal(R.normal(g, (2,), f64), GOLDEN[0]["randn64"][:2])


def test_generator_argument_isolation():
    R.manual_seed(0)
    before = R.get_rng_state()
    g = gen(0)
    R.uniform(g, (100,), f32)
    R.normal(g, (3,), f64)
    assert np.array_equal(R.get_rng_state(), before)
    assert np.array_equal(R.uniform(None, (5,), f32), GOLDEN[0]["rand"])


def test_get_state_is_a_byte_tensor_that_set_state_takes_back():
    import ember
    g = ember.Generator().manual_seed(3)
    state = g.get_state()                       # torch's type: a uint8 (Byte) tensor
    assert isinstance(state, ember.Tensor) and state.dtype == ember.uint8
    assert tuple(state.shape) == (5056,) and state[:8].tolist() == [3, 0, 0, 0, 0, 0, 0, 0]
    first = ember.rand(3, generator=g)
    g.set_state(state)
    assert ember.equal(ember.rand(3, generator=g), first)


def test_module_functions_drive_the_default_generator():
    assert R.manual_seed(42) is R.default_generator
    assert R.initial_seed() == 42
    state = R.get_rng_state()
    a = R.normal(None, (20,), f32)
    R.set_rng_state(state)
    assert np.array_equal(a, R.normal(None, (20,), f32))
    assert np.array_equal(a, np.array(GOLDEN[42]["randn20"], f32))


def test_seed_rules():
    assert gen(-1).initial_seed() == 2**64 - 1
    assert gen(2**64 - 1).initial_seed() == 2**64 - 1
    # MT19937 uses the low 32 bits only
    assert np.array_equal(R.uniform(gen(2**32 + 5), (4,), f32), R.uniform(gen(5), (4,), f32))
    assert R.manual_seed(3.9).initial_seed() == 3       # module function applies int()
    s = R.seed()
    assert 0 <= s < 2**64 and R.initial_seed() == s
    g = R.Generator()
    assert g.seed() == g.initial_seed()


@pytest.mark.parametrize("bad, exc, text", [
    (2**64, ValueError, "Overflow when unpacking long long"),
    (-2**63 - 1, ValueError, "Overflow when unpacking long long"),
    (1.5, RuntimeError, "manual_seed expected a long, but got float"),
    (True, RuntimeError, "manual_seed expected a long, but got bool"),
    (np.int64(3), TypeError, "an integer is required"),
])
def test_generator_manual_seed_errors(bad, exc, text):
    with pytest.raises(exc) as info:
        R.Generator().manual_seed(bad)
    assert str(info.value) == text


def test_set_state_errors():
    import ember
    g = R.Generator()
    with pytest.raises(RuntimeError, match="^Expected a CPUGeneratorImplState of size 5056 but "
                                           "found the input RNG state size to be 10$"):
        g.set_state(ember.zeros(10, dtype=ember.uint8))
    with pytest.raises(TypeError, match="^RNG state must be a torch.ByteTensor$"):
        g.set_state(ember.zeros(5056, dtype=ember.int64))
    with pytest.raises(RuntimeError, match="^Invalid mt19937 state$"):
        g.set_state(ember.zeros(5056, dtype=ember.uint8))
    # as torch, only a tensor: not a list, nor a NumPy array of the right bytes
    for state, name in ((g.get_state().tolist(), "list"),
                        (g.get_state().numpy(), "numpy.ndarray")):
        with pytest.raises(TypeError, match=f"^expected a torch.ByteTensor, but got {name}$"):
            g.set_state(state)
        with pytest.raises(TypeError, match=f"^expected a torch.ByteTensor, but got {name}$"):
            ember.set_rng_state(state)


# -- statistics -------------------------------------------------------------------------------

N = 200_000


@pytest.mark.parametrize("dtype", [f32, f64, np.float16, ml_dtypes.bfloat16])
def test_uniform_statistics(dtype):
    x = R.uniform(gen(1), (N,), dtype, -2.0, 3.0).astype(f64)
    assert x.min() >= -2.0 and x.max() < 3.0
    assert abs(x.mean() - 0.5) < 0.03 and abs(x.var() - 25 / 12) < 0.05


@pytest.mark.parametrize("dtype", [f32, f64, np.float16, ml_dtypes.bfloat16])
@pytest.mark.parametrize("n", [7, N])
def test_normal_statistics(dtype, n):
    g = gen(2)
    x = np.concatenate([R.normal(g, (n,), dtype, 1.5, 2.0).astype(f64)
                        for _ in range(max(1, N // n // 50))])
    five_sigma = 5 * 2.0 / math.sqrt(x.size)
    assert abs(x.mean() - 1.5) < five_sigma + 0.01
    assert abs(x.std() - 2.0) < five_sigma + 0.02


def test_randint_statistics():
    x = R.randint(gen(3), (N,), i64, -3, 4)
    assert x.min() == -3 and x.max() == 3
    counts = np.bincount(x + 3)
    assert np.all(np.abs(counts / N - 1 / 7) < 0.01)


def test_randperm_is_a_permutation():
    for n in (0, 1, 2, 1000):
        p = R.randperm(gen(n), n, i64)
        assert sorted(p.tolist()) == list(range(n))


def test_bernoulli_exponential_multinomial_statistics():
    g = gen(4)
    assert abs(R.bernoulli(g, 0.3, (N,), f32).mean() - 0.3) < 0.01
    p = np.linspace(0, 1, N)
    hits = R.bernoulli(g, p, (N,), np.bool_)
    assert abs(hits.mean() - 0.5) < 0.01 and not hits[0] and hits[-1]
    x = R.exponential(g, (N,), f64, 2.0)
    assert x.min() >= 0 and abs(x.mean() - 0.5) < 0.01
    counts = np.bincount(R.multinomial(g, PROBS, N, True), minlength=4) / N
    assert np.all(np.abs(counts - PROBS) < 0.01)
    rows = R.multinomial(g, np.tile(PROBS, (3, 1)), 4)
    assert rows.shape == (3, 4) and all(sorted(r) == [0, 1, 2, 3] for r in rows.tolist())


def test_normal_with_array_mean_and_std():
    mean = np.array([[0.0], [100.0]], f32)
    std = np.array([1.0, 0.0, 2.0], f32)
    x = R.normal(gen(5), (2, 3), f32, mean, std)
    assert x.dtype == f32 and x.shape == (2, 3)
    assert x[0, 1] == 0.0 and x[1, 1] == 100.0


def test_random_default_ranges():
    g = gen(6)
    assert R.random_(g, (1000,), np.uint8).max() > 200
    assert 0 <= R.random_(g, (1000,), np.int32).min()
    assert R.random_(g, (1000,), f32).max() <= 2**24
    assert set(R.random_(g, (100,), np.bool_).tolist()) == {False, True}


def test_randint_warns_for_float_precision():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        R.randint(gen(0), (2,), f32, 0, 2**25)
    assert [str(w.message) for w in caught] == [(
        "to - 1 is out of bounds [-(2^24), 2^24]. Due to precision limitations float can support "
        "discrete uniform distribution only within this range. This warning will become an error "
        "in version 1.7 release, please fix the code in advance")]


# -- errors (texts as torch 2.13 words them) --------------------------------------------------

@pytest.mark.parametrize("call, exc, text", [
    (lambda: R.randint(None, (2,), i64, 3, 3), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=3 >= to=3"),
    (lambda: R.randint(None, (2,), np.uint8, 0, 300), RuntimeError,
     "to - 1 is out of bounds for unsigned char"),
    (lambda: R.randint(None, (2,), np.uint8, -1, 3), RuntimeError,
     "from is out of bounds for unsigned char"),
    (lambda: R.random_(None, (2,), f32, 2**25 + 1, 2**25 + 2), RuntimeError,
     ("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
      "from=33554436 >= to=33554434")),
    (lambda: R.randperm(None, -1, i64), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1]"),
    (lambda: R.randperm(None, 257, np.uint8), RuntimeError,
     "value cannot be converted to type uint8_t without overflow"),
    (lambda: R.randperm(None, 2050, np.float16), RuntimeError,
     "n cannot be greater than 2049 for Half type."),
    (lambda: R.bernoulli(None, 1.5, (3,), f32), RuntimeError,
     "bernoulli_ expects p to be in [0, 1], but got p=1.5"),
    (lambda: R.bernoulli(None, np.array([0.5, -1.0]), (2,), f32), RuntimeError,
     ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
      "be improved?  If so, please report an enhancement request to PyTorch.)")),
    (lambda: R.exponential(None, (3,), f32, -1), RuntimeError,
     "exponential_ expects lambda > 0.0, but found lambda=-1"),
    (lambda: R.normal(None, (3,), f32, 0.0, -1.0), RuntimeError,
     "normal expects std >= 0.0, but found std -1"),
    (lambda: R.normal(None, (3,), i64), NotImplementedError,
     "\"normal_kernel_cpu\" not implemented for 'Long'"),
    (lambda: R.uniform(None, (3,), f32, 2, 1), RuntimeError,
     "uniform_ expects to return a [from, to) range, but found from=2 > to=1"),
    (lambda: R.multinomial(None, np.ones((2, 2, 2), f32), 1), RuntimeError,
     "prob_dist must be 1 or 2 dim"),
    (lambda: R.multinomial(None, np.ones(3, f32), 4), RuntimeError,
     "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    (lambda: R.multinomial(None, np.array([1.0, -1.0], f32), 1), RuntimeError,
     "probability tensor contains either `inf`, `nan` or element < 0"),
    (lambda: R.multinomial(None, np.zeros(2, f32), 2, True), RuntimeError,
     "invalid multinomial distribution (sum of probabilities <= 0)"),
])
def test_error_texts(call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == text


def test_samplers_return_new_contiguous_arrays():
    g = gen(0)
    for array in (R.uniform(g, (3, 4), f32), R.normal(g, (4, 5), f64),
                  R.normal(g, (3,), np.complex64), R.randint(g, (2, 2), np.int32, 0, 5),
                  R.randperm(g, 6, np.int16), R.bernoulli(g, 0.5, (2, 3), np.bool_),
                  R.exponential(g, (3,), f32), R.multinomial(g, np.ones((2, 3), f32), 2)):
        assert array.flags.c_contiguous and array.flags.writeable


def test_randperm_takes_only_an_integer_n():
    import ember
    assert ember.randperm(np.int64(3)).shape == (3,)
    assert ember.randperm(ember.tensor(4)).shape == (4,)
    for bad, name in ((5.0, "float"), ("a", "str"), (True, "bool")):
        with pytest.raises(TypeError, match=rf"^randperm\(\): argument 'n' \(position 1\) "
                                            rf"must be int, not {name}$"):
            ember.randperm(bad)


def test_randperm_error_with_keywords_lists_both_signatures():
    import ember
    with pytest.raises(TypeError) as info:
        ember.randperm(5.0, generator=ember.Generator(), dtype=ember.int32)
    lines = str(info.value).split("\n")
    assert lines[0] == ("randperm() received an invalid combination of arguments - got (float, "
                        "dtype=torch.dtype, generator=torch._C.Generator), but expected one of:")
    assert lines[1].startswith(" * (int n, *, torch.Generator generator, Tensor out = None")
    assert lines[2].startswith(" * (int n, *, Tensor out = None") and lines[3] == ""


def test_randperm_list_is_randperm_tolist():
    # the DataLoader's sampler draws its epoch order straight into a list: the same stream
    for n in (0, 1, 2, 1797):
        a, b = R.Generator().manual_seed(3), R.Generator().manual_seed(3)
        want = R.randperm(a, n, i64).tolist()
        got = R.randperm_list(b, n)
        assert got == want and sorted(got) == list(range(n))
        assert R.uniform(a, (3,), f32).tolist() == R.uniform(b, (3,), f32).tolist()
