"""Seeded random programs under real torch and under ember (`import ember as torch`), from a
fuzzer over every consumer of the CPU generator: factories (rand, randn, randint, the `_like`
forms, randperm, normal in all its overloads), in-place samplers and their bounds per dtype,
bernoulli, multinomial, poisson, nn.init, layers' default initialisation, dropout, gumbel
softmax, data samplers, distributions, generator states and fork_rng. Each program prints the
values it drew (rounded) and then `torch.rand(3)`, so that a call drawing another count of
numbers shows up after it; then the argument forms and errors the fuzzer found.
`tests/oracle/differential.py` runs each snippet.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

# a value's digest: dtype, shape, the first values and the hash of all (rounded to 5 digits)
_SHOW = """def show(x):
    if isinstance(x, torch.Tensor):
        v = x.detach().flatten().tolist()
        if x.is_complex():
            v = [c for z in v for c in (z.real, z.imag)]
        r = [float('%.5g' % a) if isinstance(a, float) else a for a in v]
        print(x.dtype, tuple(x.shape), r[:6], hash(tuple(r)))
    elif isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x)); [show(e) for e in x]
    else:
        print(repr(x))
"""


def _program(seed, gen_seed, calls):
    lines = [_SHOW + f"torch.manual_seed({seed})"]
    if gen_seed is not None:
        lines.append(f"G = torch.Generator().manual_seed({gen_seed})")
    for c in calls:
        lines.append(f"try:\n    show({c})\nexcept Exception as e:\n"
                     f"    print(type(e).__name__, str(e).splitlines()[0])")
    lines.append("show(torch.rand(3))")
    if gen_seed is not None:
        lines.append("show(torch.rand(2, generator=G))")
    return "\n".join(lines)


# (seed of the default generator, seed of a Generator G or None, the calls)
_PROGRAMS = [
    (458233, 879, [
        'torch.randint(0, 3, (17, ), dtype=torch.int32, generator=G)',
        'torch.distributions.Kumaraswamy(2.0, 3.0).rsample((2, 17))',
        'torch.bernoulli(torch.rand((2, 3, 5, ), dtype=torch.bfloat16))',
        'torch.empty((64, ), dtype=torch.bfloat16).geometric_(0.01, generator=G)',
    ]),
    (336174, None, [
        'torch.distributions.Bernoulli(probs=torch.full((1000, ), 0.5, dtype=torch.float64)).sample()',
        'torch.nn.functional.gumbel_softmax(torch.randn(3, 4, dtype=torch.float32), hard=True)',
        'torch.randint(-2147483648, -1073741824, (3, 4, ))',
    ]),
    (9223372036854775819, 676, [
        'torch.empty((16, ), dtype=torch.int32).bernoulli_(torch.rand((16, ), dtype=torch.float32))',
        'torch.randn((1000, ), dtype=torch.float64, generator=G)',
        'torch.randn_like(torch.empty((17, ), dtype=torch.float64))',
    ]),
    (1, 200, [
        'torch.nn.Dropout3d(0.2)(torch.randn((2, 3, 2, 2, 2), dtype=torch.float32))',
        'torch.get_rng_state().dtype, torch.get_rng_state().shape',
        'torch.empty((33, ), dtype=torch.int8).normal_()',
        'torch.distributions.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3])).rsample((16,))',
    ]),
    (1, None, [
        '(lambda g: (g.seed() > 0, g.initial_seed() == g.initial_seed()))(torch.Generator())',
        'torch.distributions.Uniform(torch.zeros((15, ), dtype=torch.float32), 1.0).rsample((2,))',
        '(lambda st: (torch.normal(0.0, 1.0, (1,)), torch.set_rng_state(st), torch.normal(torch.zeros(3), 1.0)))((torch.normal(0.0, 1.0, (1,)), torch.get_rng_state())[1])',
    ]),
    (0, None, [
        'torch.empty((), dtype=torch.float32).cauchy_(-1, 0.1)',
        'torch.randn((33, ), dtype=torch.bfloat16, generator=torch.Generator().manual_seed(-1))',
        'torch.rand((2, 16, ), dtype=torch.float32)',
    ]),
    (42, None, [
        'torch.randint_like(torch.empty((15, ), dtype=torch.bfloat16), high=5, dtype=torch.float64)',
        'torch.nn.Dropout(0.3)(torch.randn((5, 7), dtype=torch.float64))',
        'torch.normal(torch.full((257, ), -2.0, dtype=torch.float16), torch.full((257, ), 0.5, dtype=torch.float16))',
        'torch.empty(10, dtype=torch.bool).random_()',
    ]),
    (223980, None, [
        'torch.distributions.StudentT(4.0).rsample(())',
        'torch.normal(torch.zeros(6), torch.ones(2, 3))',
        'torch.rrelu(torch.randn((0, ), dtype=torch.int8), training=True)',
    ]),
    (4294967299, None, [
        'torch.normal(torch.zeros(3), torch.ones(4))',
        'torch.randn((64, ), dtype=torch.complex64)',
        'torch.nn.RReLU()(torch.randn(4, 5, dtype=torch.float32))',
        'torch.empty(10, dtype=torch.bool).random_()',
    ]),
    (42, None, [
        'torch.randint_like(torch.empty(4, 5).t(), 10).stride()',
        'torch.multinomial(torch.ones(0, 3), 2)',
        '(lambda st: (torch.randn(1), torch.set_rng_state(st), torch.randn(2), torch.randn(1))[::2])((torch.randn(1), torch.get_rng_state())[1])',
        'torch.nn.init.normal_(torch.empty(3, dtype=torch.bool))',
    ]),
    (9223372036854775819, None, [
        '(torch.randn(3, generator=torch.default_generator), torch.randn(3))',
        'torch.empty((2, 0, 3, ), dtype=torch.int64).log_normal_(0, 1)',
        'torch.nn.functional.gumbel_softmax(torch.randn((17,)), tau=1.0, hard=False, dim=0)',
        'torch.rand((17, ), dtype=torch.int16)',
    ]),
    (42, None, [
        'torch.rand((2, 0, 3, ), dtype=torch.float16)',
        '[p.detach() for p in torch.nn.ConvTranspose2d(3, 2, 3).parameters()]',
        'torch.empty((0, ), dtype=torch.int32).bernoulli_(torch.rand((0, ), dtype=torch.float32))',
        '(lambda o: (torch.normal(torch.zeros((17, ), dtype=torch.float64), 1.0, out=o), o)[1])(torch.empty((17, ), dtype=torch.float64))',
    ]),
    (42, 907, [
        'torch.poisson(torch.rand((1, 1, ), dtype=torch.float32) * 5)',
        'torch.distributions.Categorical(torch.tensor([[0.5, 0.5], [0.1, 0.9]])).sample(())',
        'torch.empty((5, 7, ), dtype=torch.int64).random_(257, generator=G)',
    ]),
    (42, None, [
        'torch.randint(5, (100, ), dtype=torch.int16)',
        'torch.empty((257, ), dtype=torch.float64).normal_(3, 0.5)',
        'torch.multinomial(torch.rand(4, 6).t(), 2)',
        'torch.normal(2.0, torch.ones(3, dtype=torch.int8))',
    ]),
    (1, None, [
        '[p.detach() for p in torch.nn.ConvTranspose1d(2, 4, 2, groups=2).parameters()]',
        'torch.empty((15, ), dtype=torch.bfloat16).uniform_(-1, 1)',
        'torch.rand(2, generator=5)',
        'torch.empty((257, ), dtype=torch.uint8).random_(-10, 20)',
    ]),
    (1, None, [
        'torch.empty((1, ), dtype=torch.float32).cauchy_(-1, 0.1)',
        'torch.nn.functional.dropout(torch.ones((1, 1, ), dtype=torch.float32), 0.1, training=True)',
        '(lambda g: (g.seed() > 0, g.initial_seed() == g.initial_seed()))(torch.Generator())',
        'torch.normal(0.0, 0.5, size=(8, 9, ))',
    ]),
    (1234, None, [
        'torch.rrelu(torch.randn((2, 0, 3, )), training=True)',
        'torch.normal(torch.zeros(3, dtype=torch.int64), 1.0)',
        'torch.rand(1)',
    ]),
    (-7, None, [
        'torch.distributions.OneHotCategorical(torch.tensor([0.2, 0.3, 0.5])).sample((16,))',
        'torch.normal(torch.full((2, 3, 5, ), -2.0, dtype=torch.bfloat16), torch.full((2, 3, 5, ), 1.0, dtype=torch.bfloat16))',
        'torch.normal(torch.zeros((5, 7, )), torch.full((5, 7, ), -1.0))',
    ]),
    (0, 695, [
        'torch.bernoulli(torch.empty((257, ), dtype=torch.float32), 0.5, generator=G)',
        'torch.randint(3, 5, (64, ), generator=G)',
        'torch.randn_like(torch.empty((1000, ), dtype=torch.bfloat16))',
        '(lambda: (lambda f: (f.__enter__(), torch.randn(3), f.__exit__(None, None, None))[1])(torch.random.fork_rng()))()',
    ]),
    (-7, None, [
        '(lambda: (torch.randn(1), torch.get_rng_state()[-40:]))()',
        'torch.normal(0.0, torch.full((257, ), 1.0, dtype=torch.float32))',
        'torch.empty((1000, ), dtype=torch.bfloat16).normal_()',
        'torch.initial_seed()',
    ]),
    (1, 824, [
        'torch.nn.Dropout2d(0.5)(torch.randn((2, 3, 4, 4), dtype=torch.float64))',
        'torch.bernoulli(torch.rand((33, ), dtype=torch.float32), generator=G)',
        'torch.default_generator.initial_seed()',
    ]),
    (4294967299, None, [
        'torch.normal(3, 0.0, size=(100, ))',
        '(lambda: (lambda f: (f.__enter__(), torch.randn(3), f.__exit__(None, None, None))[1])(torch.random.fork_rng()))()',
        'torch.empty((100, ), dtype=torch.float16).uniform_()',
        'torch.normal(-2.0, torch.full((), 1.0, dtype=torch.float32))',
    ]),
    (4294967299, 735, [
        '(lambda o: (torch.randperm(20, out=o, generator=G), o)[1])(torch.empty(2, dtype=torch.float32))',
        '(lambda w: (torch.nn.init.kaiming_uniform_(w), w)[1])(torch.empty((40, 30), dtype=torch.float32))',
        'torch.randn((2, 3, 5, ), dtype=torch.float64)',
    ]),
    (42, 666, [
        '(lambda w: (torch.nn.init.trunc_normal_(w, 0.5, 2.0, -1, 1), w)[1])(torch.empty((5, 3, 2, 2), dtype=torch.float64))',
        'torch.poisson(torch.ones((1, ), dtype=torch.uint8), generator=G)',
        'torch.distributions.Geometric(torch.tensor([0.3, 0.7])).rsample(())',
        'torch.normal(torch.zeros(3, dtype=torch.float16), 1.0)',
    ]),
    (4294967299, None, [
        'torch.rand([])',
        'torch.rand(2, 3, generator=None)',
        'torch.binomial(torch.full((100, ), 100.0), torch.full((100, ), 0.5))',
    ]),
    (1, None, [
        'torch.empty((257, ), dtype=torch.float32).random_()',
        "torch.Generator(device='cpu').device",
        'torch.empty((1000, ), dtype=torch.float32).random_(-9223372036854775808, 9223372036854775807)',
        'torch.empty(5, 17, dtype=torch.float32)[:, ::2].uniform_()',
    ]),
    (1234, None, [
        'list(torch.utils.data.BatchSampler(torch.utils.data.RandomSampler(range(11)), 3, False))',
        'torch.normal(2.0, torch.ones(3, dtype=torch.bool))',
        'torch.randint_like(torch.empty((), dtype=torch.float64), 100)',
    ]),
    (42, None, [
        'torch.randn(2, generator=torch.Generator().manual_seed(3), dtype=torch.int64)',
        'torch.poisson(torch.rand((33, ), dtype=torch.float32) * 200)',
        '[p.detach() for p in torch.nn.PReLU().parameters()]',
        '(lambda w: (torch.nn.init.uniform_(w, -2, 2), w)[1])(torch.empty((2, 3, 4), dtype=torch.float32))',
    ]),
    (42, None, [
        '(lambda st: (torch.randn(1), torch.set_rng_state(st), torch.randn(2), torch.randn(1))[::2])((torch.randn(1), torch.get_rng_state())[1])',
        'torch.rand((257, ), dtype=torch.complex64)',
        'torch.nn.functional.dropout2d(torch.ones((2, 3, 4, 5)), 0.5, training=True)',
        'torch.empty((1, ), dtype=torch.bfloat16).t_() if False else torch.empty((1, ), dtype=torch.bfloat16).transpose(0, -1).normal_()',
    ]),
    (0, None, [
        'torch.empty((33, ), dtype=torch.float32).exponential_()',
        'torch.randint_like(torch.empty((16, ), dtype=torch.int16), -3, 5)',
        'torch.rand(4, 6).multinomial(3)',
        'torch.distributions.Normal(torch.zeros((2, 3, 5, ), dtype=torch.float64), 1.0).sample()',
    ]),
    (0, None, [
        'torch.randint(2, 9, size=(16, ), dtype=torch.bfloat16)',
        'torch.nn.functional.gumbel_softmax(torch.randn((17,)), tau=1.0, hard=False, dim=0)',
        'torch.empty((31, ), dtype=torch.float64).t_() if False else torch.empty((31, ), dtype=torch.float64).transpose(0, -1).normal_()',
        '(torch.randn(1), torch.get_rng_state()[-32:-16].tolist(), torch.randn(1))',
    ]),
    (-7, 709, [
        'torch.randn(17, 3, dtype=torch.bfloat16).t().contiguous() if False else torch.empty(3, 17, dtype=torch.bfloat16).t().normal_()',
        'torch.empty((), dtype=torch.int16).random_(250, None)',
        'torch.empty((2, 16, ), dtype=torch.float64).normal_(generator=torch.Generator().manual_seed(67))',
        'torch.nn.functional.dropout(torch.ones((257, ), dtype=torch.bfloat16), 0.5, training=True)',
    ]),
    (42, 885, [
        'torch.empty(40, dtype=torch.bfloat16)[::2].normal_()',
        '[b[0].tolist() for b in torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(33)), batch_size=3, shuffle=True, drop_last=True)]',
        'torch.empty((0, )).normal_()',
    ]),
    (4294967299, None, [
        'torch.bernoulli(torch.rand((), dtype=torch.float32))',
        'torch.empty((2, 0, 3, ), dtype=torch.float32).uniform_(-1, 1)',
        'torch.normal(torch.zeros(3), torch.ones(4))',
        'torch.randint(1099511627776, (2, 16, ), dtype=torch.float16)',
    ]),
    (405022, None, [
        'torch.poisson(torch.tensor([-1.0, 2.0]))',
        'torch.nn.functional.dropout1d(torch.ones(3, 4, 5), 0.5) if False else torch.nn.functional.alpha_dropout(torch.ones((64, )), 0.3, training=True)',
        'torch.randint(-2147483648, 6442450944, (1, ))',
    ]),
    (38437, 483, [
        'torch.empty((16, ), dtype=torch.float16).bernoulli_(0.0)',
        'torch.normal(torch.full((15, ), 0.0, dtype=torch.bfloat16), torch.full((15, ), 0.0, dtype=torch.bfloat16), generator=G)',
        'torch.randn((2, 3, 5, ), dtype=torch.complex64, generator=G)',
    ]),
    (4294967299, 804, [
        'torch.randn((2, 0, 3, ), dtype=torch.complex128)',
        'torch.Generator().manual_seed(np.int64(3)).initial_seed()',
        'torch.multinomial(torch.rand(4, 6).t(), 2, generator=G)',
        '[p.detach() for p in torch.nn.GRU(3, 4, bidirectional=True).parameters()]',
    ]),
    (42, 770, [
        '(lambda o: (torch.randn(5, out=o), o)[1])(torch.empty(5, dtype=torch.int8))',
        'torch.rrelu(torch.randn(()), training=True)',
        'torch.randn((33, ), dtype=torch.int64, generator=G)',
    ]),
    (65973, None, [
        'torch.rand_like(torch.empty((2, 16, ), dtype=torch.bfloat16))',
        'torch.poisson(torch.rand((100, ), dtype=torch.float32) * 200)',
        'torch.normal(torch.zeros(2, 16, dtype=torch.float32), torch.ones(2, 16, dtype=torch.float32))',
        "torch.empty((33, ), dtype=torch.complex64).exponential_(float('inf'))",
    ]),
    (-7, None, [
        'torch.bernoulli(torch.rand((100, )), p=torch.rand((100, )))',
        '(lambda o: (torch.rand(2, 3, out=o), o)[1])(torch.empty(6, dtype=torch.complex128))',
        'torch.randn((8, 9, ), dtype=torch.complex64)',
        'torch.empty((15, ), dtype=torch.bool).random_(-9223372036854775808, None)',
    ]),
    (-7, None, [
        'torch.randint_like(torch.empty((2, 16, ), dtype=torch.uint8), 1, 2**40)',
        'torch.empty((3, 4, ), dtype=torch.float16).random_(0, to=None)',
        'torch.bernoulli(torch.full((1, ), 0.0, dtype=torch.uint8))',
        'torch.randn_like(torch.empty((16, ), dtype=torch.float32))',
    ]),
    (42, None, [
        'torch.rand(4, 6).multinomial(3)',
        'list(torch.utils.data.RandomSampler(range(3), replacement=True, num_samples=1))',
        'torch.rand((), dtype=torch.bfloat16)',
        'torch.rand((2, 3, 5, ), dtype=torch.int64)',
    ]),
    (9223372036854775819, None, [
        'torch.empty((5, 7, ), dtype=torch.uint8).bernoulli_(torch.rand((5, 7, ), dtype=torch.bfloat16))',
        'torch.normal(3, torch.full((1, 1, ), 2.0, dtype=torch.float32))',
        'torch.nn.functional.gumbel_softmax(torch.zeros(0, 3))',
    ]),
    (0, None, [
        'torch.normal(torch.tensor([0.0, 10.0]), torch.tensor(2.0))',
        'torch.empty((100, ), dtype=torch.bfloat16).random_()',
        '[p.detach() for p in torch.nn.Conv2d(2, 5, (3, 2)).parameters()]',
        'torch.empty((17, ), dtype=torch.int16).geometric_(0.3)',
    ]),
    (0, 589, [
        'torch.Generator().manual_seed(torch.tensor(3)).initial_seed()',
        '(torch.randn(1), torch.get_rng_state()[-32:-16].tolist(), torch.randn(1))',
        'torch.randint(0, 3, (16, ), dtype=torch.float64, generator=G)',
        '(lambda st: (torch.rand(5, generator=G), G.set_state(st), torch.rand(5, generator=G))[::2])(G.get_state())',
    ]),
    (914350, 421, [
        'torch.nn.init.uniform_(torch.empty(3, dtype=torch.float64))',
        'torch.distributions.Gamma(torch.full((17, ), 0.5, dtype=torch.float32), 1.0).sample()',
        'torch.empty(20, dtype=torch.bool).random_(0, 2)',
    ]),
    (9223372036854775819, None, [
        'torch.rrelu(torch.randn((8, 9, )), training=True)',
        'torch.randperm(300, dtype=torch.int32)',
        '(lambda f: (f.__enter__(), torch.manual_seed(5), torch.randn(2), f.__exit__(None, None, None), torch.randn(2))[2::2])(torch.random.fork_rng())',
    ]),
    (4294967299, None, [
        'torch.randint(-100, -99, (1000, ))',
        'torch.randn(17, 3, dtype=torch.float32).t().contiguous() if False else torch.empty(3, 17, dtype=torch.float32).t().normal_()',
        'torch.normal(-2.0, 0.0, size=(31, ))',
    ]),
    (-7, None, [
        '(lambda o: (torch.randint(10, (4,), out=o), o)[1])(torch.empty(4, dtype=torch.int16))',
        '[p.detach() for p in torch.nn.LSTMCell(2, 5).parameters()]',
        'torch.randperm(100)',
        'torch.normal(torch.zeros(6), torch.ones(2, 3))',
    ]),
    (1234, None, [
        'torch.nn.init.dirac_(torch.empty(2, 3, 4))',
        'torch.empty((3, 4, ), dtype=torch.float64).cauchy_(-1, 0.1)',
        'torch.nn.functional.rrelu(torch.randn((), dtype=torch.float16), 0.1, 0.3, training=True)',
        'torch.bernoulli(torch.rand((), dtype=torch.float32))',
    ]),
    (-7, None, [
        'torch.bernoulli(torch.empty((), dtype=torch.float16), 0.2)',
        'torch.bernoulli(torch.empty((2, 16, ), dtype=torch.float32), 0.2)',
        'torch.normal(3, torch.full((2, 3, 5, ), 2.0, dtype=torch.bfloat16))',
    ]),
    (0, 692, [
        '[p.detach() for p in torch.nn.TransformerDecoderLayer(8, 2, dim_feedforward=12).parameters()]',
        'torch.distributions.Wishart(torch.tensor(4.0), torch.eye(2)).sample((2, 17))',
        'torch.nn.init.dirac_(torch.empty(5))',
        'torch.normal(torch.zeros(2, 16, dtype=torch.bfloat16), torch.ones(2, 16, dtype=torch.bfloat16))',
    ]),
    (1234, None, [
        'torch.randint(10, [0, 2])',
        'torch.randn((1, 1, ), dtype=torch.float16)',
        'torch.empty((2, 3, 5, ), dtype=torch.int16).random_(-10, 20)',
    ]),
    (0, 870, [
        'torch.empty((2, 0, 3, ), dtype=torch.int32).normal_(0, 0, generator=G)',
        'torch.randint(100, (2, 0, 3, ), dtype=torch.bfloat16, generator=G)',
        'torch.rand((1, 1, ), dtype=torch.complex64, generator=G)',
        'G.get_state()[-24:]',
    ]),
    (771321, None, [
        'torch.multinomial(torch.rand((1, 100), dtype=torch.bfloat16), 3, replacement=True)',
        '[p.detach() for p in torch.nn.Conv3d(1, 2, 2).parameters()]',
        'torch.randint_like(torch.empty((33, ), dtype=torch.bfloat16), 0, 9)',
        'torch.bernoulli(torch.rand((1, 1, )), p=torch.rand((1, 1, )))',
    ]),
    (42, None, [
        'torch.randn_like(torch.empty((2, 0, 3, ), dtype=torch.float32))',
        'torch.empty((2, 0, 3, ), dtype=torch.complex128).geometric_(0)',
        'torch.randint(-2, 2, (257, ), dtype=torch.int32)',
        '(lambda o: (torch.randn(5, out=o), o)[1])(torch.empty(5, dtype=torch.float64))',
    ]),
    (42, None, [
        'torch.rand_like(torch.empty((1, ), dtype=torch.float16))',
        'torch.rand((100, ), dtype=torch.float16)',
        'torch.empty((3, 4, ), dtype=torch.int64).bernoulli_(torch.rand((3, 4, ), dtype=torch.float16))',
    ]),
    (9223372036854775819, None, [
        'torch.nn.functional.dropout(torch.ones((), dtype=torch.float32), 1.0, training=True)',
        'torch.multinomial(torch.ones(3, dtype=torch.int32), 2)',
        'torch.rand((64, ), requires_grad=True).requires_grad',
        'torch.rand(4, 6).multinomial(6)',
    ]),
    (1234, 207, [
        'torch.rand([], generator=G)',
        '[b[0].tolist() for b in torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(33)), batch_size=3, shuffle=True)]',
        'torch.normal(torch.tensor(0.0), torch.tensor(1.0), generator=G)',
        'torch.empty((15, ), dtype=torch.complex64).random_(128, generator=G)',
    ]),
    (-7, 863, [
        'torch.normal(0.0, -1.0, size=(100, ))',
        'torch.nn.functional.rrelu(torch.randn((2, 16, ), dtype=torch.float64), 0.1, 0.3, training=True)',
        'torch.nn.init.trunc_normal_(torch.empty(50, dtype=torch.bfloat16), 0, 1, -0.5, 3)',
    ]),
    (1, None, [
        'torch.empty((5, 7, ), dtype=torch.bfloat16).normal_(1.5, 1.0)',
        'torch.distributions.Gamma(torch.full((100, ), 1.0, dtype=torch.float64), 1.0).sample()',
        '(lambda f: (f.__enter__(), torch.rand(2), f.__exit__(None, None, None), torch.rand(2))[1::2])(torch.random.fork_rng(enabled=True))',
        'torch.rrelu(torch.randn((257, )), training=True)',
    ]),
    (42, None, [
        'torch.poisson(torch.rand((15, ), dtype=torch.float32) * 30)',
        'torch.empty((100, ), dtype=torch.float64).log_normal_(0.0, 0.5)',
        'torch.multinomial(torch.tensor([0.0, 0.0]), 3, True)',
        'torch.empty((1, 1, ), dtype=torch.complex128).cauchy_()',
    ]),
    (-7, None, [
        'torch.nn.Dropout1d(0.5)(torch.randn((2, 5, 3), dtype=torch.float64))',
        '[p.detach() for p in torch.nn.Linear(17, 33).parameters()]',
        'torch.nn.functional.rrelu(torch.randn((257, ), dtype=torch.float64), 0.1, 0.3, training=True)',
        '(lambda st: (torch.randn(1), torch.set_rng_state(st), torch.randn(2), torch.randn(1))[::2])((torch.randn(1), torch.get_rng_state())[1])',
    ]),
    (446745, None, [
        'torch.randint_like(torch.empty((2, 0, 3, ), dtype=torch.uint8), 100)',
        'torch.set_rng_state(torch.get_rng_state().to(torch.int64))',
        'torch.randint(2, 9, size=(8, 9, ), dtype=torch.bool)',
    ]),
    (1, 636, [
        'torch.rand((1000, ), dtype=torch.float64, generator=G)',
        'torch.normal(1.5, 0.0, (1000, ), dtype=torch.float32)',
        'torch.multinomial(torch.tensor([]), 0, True)',
        'torch.poisson(torch.ones((31, ), dtype=torch.float32), generator=G)',
    ]),
    (61892, None, [
        '[p.detach() for p in torch.nn.GRUCell(3, 3).parameters()]',
        'torch.empty((1, 1, ), dtype=torch.int64).geometric_(0.01)',
        '[list(s) for s in torch.utils.data.random_split(range(10), [1.0])]',
    ]),
    (623872, 10, [
        'torch.empty((8, 9, ), dtype=torch.bool).random_()',
        'torch.empty((33, ), dtype=torch.uint8).exponential_()',
        '[p.detach() for p in torch.nn.LSTM(3, 4, proj_size=2).parameters()]',
        'torch.normal(torch.zeros(3, dtype=torch.float64), 1.0, generator=G)',
    ]),
    (42, None, [
        'torch.randn_like(torch.empty((), dtype=torch.float16))',
        '(lambda st: (torch.rand(5), torch.set_rng_state(st), torch.rand(5))[::2])(torch.get_rng_state())',
        'torch.empty((8, 9, ), dtype=torch.float16).exponential_()',
    ]),
    (1, None, [
        'torch.distributions.Exponential(torch.ones((1, 1, ), dtype=torch.bfloat16)).sample()',
        'torch.randn((), dtype=torch.complex128)',
        'torch.randperm(16, dtype=torch.int32)',
        '[p.detach() for p in torch.nn.BatchNorm1d(4).parameters()]',
    ]),
    (1, 920, [
        'torch.multinomial(torch.rand((17,), dtype=torch.float32), 17, replacement=True, generator=G)',
        'torch.nn.RReLU()(torch.randn(4, 5, dtype=torch.bfloat16))',
        'torch.normal(torch.zeros((100, )), torch.full((100, ), -1.0))',
        'torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))',
    ]),
    (1234, None, [
        'torch.nn.functional.feature_alpha_dropout(torch.ones((2, 3)), 0.0, training=True)',
        'torch.randint(200, 2147483649, (2, 16, ), dtype=torch.float16)',
        'torch.empty((2, 16, ), dtype=torch.uint8).geometric_(1.0)',
        'torch.empty(5, 17, dtype=torch.float32)[:, ::2].uniform_()',
    ]),
    (575212, None, [
        'torch.empty(40, dtype=torch.bfloat16)[::2].normal_()',
        'torch.empty((33, ), dtype=torch.int16).random_(127)',
        'torch.multinomial(torch.rand(3, 5), 3, replacement=True, out=torch.empty(3, 3, dtype=torch.int64))',
        'torch.random.initial_seed() == torch.initial_seed()',
    ]),
    (-7, None, [
        'torch.normal(-2.0, 0.5, (16, ), dtype=torch.float16)',
        'torch.multinomial(torch.tensor([0.0, 0.0, 0.5, 0.5]), 4, True)',
        'torch.multinomial(torch.tensor([1.0, {NAN}]), 3, False)',
        'torch.empty((), dtype=torch.float32).random_()',
    ]),
    (1234, None, [
        'torch.nn.RReLU()(torch.randn(4, 5, dtype=torch.float16))',
        'torch.empty((5, 7, ), dtype=torch.bool).bernoulli_(torch.rand((5, 7, ), dtype=torch.float32))',
        'torch.empty((31, ), dtype=torch.bool).geometric_(0.5)',
        'torch.nn.functional.alpha_dropout(torch.ones((1, 1, ), dtype=torch.bfloat16), 0.0, training=True)',
    ]),
    (601508, 318, [
        'torch.rand((5, 7, ), requires_grad=True).requires_grad',
        'torch.empty((3, 4, ), dtype=torch.float16).t_() if False else torch.empty((3, 4, ), dtype=torch.float16).transpose(0, -1).normal_()',
        'torch.normal(torch.full((1, 1, ), 3, dtype=torch.float16), torch.full((1, 1, ), 1.0, dtype=torch.float16))',
        'torch.randn_like(torch.empty((1000, ), dtype=torch.bfloat16))',
    ]),
    (-7, 743, [
        'torch.randn(2, generator=torch.Generator().manual_seed(3), dtype=torch.int64)',
        'torch.nn.FeatureAlphaDropout(0.4)(torch.randn((2, 6, 3), dtype=torch.float32))',
        'torch.randint(2147483648, 256, (1000, ), dtype=torch.complex128)',
        'torch.empty(40, dtype=torch.float16)[::2].normal_()',
    ]),
    (42, 469, [
        'torch.rand_like(torch.empty((), dtype=torch.complex128))',
        'torch.empty((8, 9, ), dtype=torch.bool).cauchy_(generator=G)',
        'torch.empty((1000, ), dtype=torch.bfloat16).log_normal_(1.0, 2.0)',
        'torch.distributions.Bernoulli(torch.tensor([0.1, 0.9])).sample((16,))',
    ]),
    (0, None, [
        'list(torch.utils.data.RandomSampler(range(10), replacement=True, num_samples=5))',
        '(lambda o: (torch.randperm(20, out=o), o)[1])(torch.empty(2, dtype=torch.int32))',
        'list(torch.utils.data.SubsetRandomSampler(list(range(20))))',
        'torch.normal(-2.0, 0.5, (0, ), dtype=torch.bfloat16)',
    ]),
    (0, None, [
        'torch.binomial(torch.full((1, 1, ), 20.0), torch.full((1, 1, ), 0.5))',
        'torch.empty((2, 16, ), dtype=torch.float32).bernoulli_(torch.rand((2, 16, ), dtype=torch.float64))',
        "torch.Generator('cpu').manual_seed(3).get_state().shape",
    ]),
    (888860, 404, [
        'torch.randn_like(torch.empty(4, 5).t())',
        'torch.randint(5, (257, ), dtype=torch.int32, generator=G)',
        'torch.normal(2.0, torch.ones(3, dtype=torch.int16))',
        'torch.normal(torch.full((2, 0, 3, ), 1.5, dtype=torch.float64), 0.5, generator=G)',
    ]),
    (1234, 20, [
        'torch.binomial(torch.full((2, 0, 3, ), 100.0), torch.full((2, 0, 3, ), 0.9), generator=G)',
        'torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2)).sample((16,))',
        'torch.empty(40, dtype=torch.bfloat16)[::2].normal_()',
        'torch.empty(5, 17, dtype=torch.bfloat16)[:, ::2].uniform_()',
    ]),
    (-7, None, [
        'torch.normal(2.0, torch.ones(3, dtype=torch.complex128))',
        'torch.rand_like(torch.empty((2, 0, 3, ), dtype=torch.bfloat16), dtype=torch.int32)',
        'torch.distributions.Cauchy(0.0, 1.0).sample(())',
        'torch.empty((100, ), dtype=torch.bfloat16).log_normal_(0.0, 0.5)',
    ]),
    (4294967299, None, [
        'torch.empty((17, ), dtype=torch.int8).random_(-128, 256)',
        'torch.empty((), dtype=torch.float32).bernoulli_(1.0)',
        'torch.distributions.Beta(2.0, 3.0).rsample(())',
        'torch.randn_like(torch.empty((3, 4, ), dtype=torch.int64))',
    ]),
    (-7, None, [
        'torch.poisson(torch.tensor([-1.0, 2.0]))',
        'torch.empty((8, 9, ), dtype=torch.bfloat16).cauchy_(1.0, 2.0)',
        'torch.empty((5, 7, ), dtype=torch.bool).log_normal_(0, -1)',
        'torch.normal(torch.zeros(2, 3), torch.ones(3))',
    ]),
    (-7, None, [
        'torch.get_rng_state().sum()',
        'torch.Tensor.random_(torch.empty(4, dtype=torch.int8), 3)',
        'torch.poisson(torch.ones((8, 9, ), dtype=torch.complex128))',
    ]),
    (1234, None, [
        '(lambda w: (torch.nn.init.normal_(w, 1, 3), w)[1])(torch.empty((17, 9), dtype=torch.float64))',
        'torch.randperm(0, dtype=torch.float64)',
        'torch.randn((3, 4, ), dtype=torch.float32)',
        'torch.nn.init.sparse_(torch.empty())',
    ]),
    (1234, 556, [
        'torch.empty((1, 1, ), dtype=torch.bfloat16).bernoulli_(torch.rand((1, 1, ), dtype=torch.bfloat16), generator=G)',
        'torch.randint_like(torch.empty((15, ), dtype=torch.float16), high=9, dtype=torch.complex64)',
        'torch.Generator().manual_seed(2**64).initial_seed()',
        '[p.detach() for p in torch.nn.RNNCell(3, 4).parameters()]',
    ]),
    (9223372036854775819, None, [
        'torch.multinomial(torch.tensor([[0.2, 0.8], [1.0, 0.0]]), 3, True)',
        'torch.randn((1000, ), dtype=torch.bool)',
        "torch.nn.init.kaiming_uniform_(torch.empty(4, 3), nonlinearity='leaky_relu')",
    ]),
    (4294967299, 6, [
        'torch.randint(-2, 2, (2, 0, 3, ), dtype=torch.float32, generator=G)',
        'torch.distributions.Chi2(3.0).rsample(())',
        'torch.empty((1000, ), dtype=torch.complex128).geometric_(1.5, generator=G)',
        'torch.multinomial(torch.tensor([1e-30, 1.0]), 3, True)',
    ]),
    (42, 520, [
        'torch.empty((), dtype=torch.bool).random_(2)',
        '(lambda o: (torch.randn(5, out=o, generator=G), o)[1])(torch.empty(5, dtype=torch.uint8))',
        'torch.randn(17, 3, dtype=torch.float16).t().contiguous() if False else torch.empty(3, 17, dtype=torch.float16).t().normal_()',
        'torch.randn((2, 0, 3, ), dtype=torch.float64, generator=torch.Generator().manual_seed(4294967301))',
    ]),
    (-7, None, [
        '[p.detach() for p in torch.nn.Embedding(10, 3).parameters()]',
        '[p.detach() for p in torch.nn.Conv2d(4, 4, 3, groups=2).parameters()]',
        'torch.empty((2, 0, 3, ), dtype=torch.uint8).bernoulli_(torch.full((2, 0, 3, ), 1.5, dtype=torch.uint8))',
    ]),
    (4294967299, None, [
        'torch.empty((1, 1, ), dtype=torch.float32).log_normal_()',
        'torch.normal(0.0, -1.0, size=(3, 4, ))',
        'torch.randint(0, 3, (16, ), dtype=torch.int64)',
    ]),
    (1, None, [
        'torch.nn.functional.dropout3d(torch.ones((2, 3, 2, 2, 2)), 0.5, training=True)',
        'torch.empty((2, 0, 3, ), dtype=torch.int32).geometric_(0.5)',
        'torch.multinomial(torch.tensor([1.0, {INF}]), 0, False)',
        'torch.rand(3, generator=torch.default_generator)',
    ]),
    (1234, 289, [
        'torch.bernoulli(torch.empty((15, ), dtype=torch.float32), 0.2, generator=G)',
        'torch.distributions.HalfCauchy(1.0).rsample((2, 17))',
        '[p.detach() for p in torch.nn.RNN(3, 5).parameters()]',
        'torch.distributions.GeneralizedPareto(0.0, 1.0, 0.5).rsample((2, 17))',
    ]),
    (42, None, [
        'torch.nn.AlphaDropout(0.2)(torch.randn((4, 17), dtype=torch.float64))',
        'torch.empty((257, ), dtype=torch.int64).exponential_(1e-30)',
        'torch.empty((8, 9, ), dtype=torch.float16).t_() if False else torch.empty((8, 9, ), dtype=torch.float16).transpose(0, -1).normal_()',
        '[p.detach() for p in torch.nn.Bilinear(3, 4, 2).parameters()]',
    ]),
    (-7, 302, [
        'list(torch.utils.data.WeightedRandomSampler([0.1, 0.9, 0.4], 5, replacement=False))',
        'torch.empty((2, 0, 3, ), dtype=torch.bfloat16).normal_(generator=torch.Generator().manual_seed(63))',
        'torch.bernoulli(torch.rand((2, 16, ), dtype=torch.float32))',
        'torch.nn.Dropout1d(0.5)(torch.randn((2, 5, 3), dtype=torch.float64))',
    ]),
    (-7, None, [
        'torch.distributions.HalfNormal(1.0).rsample((2, 17))',
        'torch.distributions.NegativeBinomial(3.0, torch.tensor([0.4])).rsample((2, 17))',
        'torch.nn.functional.dropout1d(torch.ones((2, 3, 4)), 0.5, training=True)',
        'torch.manual_seed(True).initial_seed()',
    ]),
    (0, None, [
        'torch.randint(high=10, size=(15, ))',
        'torch.randn((100, ), dtype=torch.float16)',
        'torch.randint(5, (16, ), dtype=torch.float64)',
        'torch.rand_like(torch.empty((2, 0, 3, ), dtype=torch.bfloat16))',
    ]),
    (1, 717, [
        'torch.nn.init.orthogonal_(torch.empty(3, 0))',
        'torch.randint(-129, 9223372036854775808, (257, ), dtype=torch.bfloat16, generator=G)',
        'torch.randint(0, -1, (33, ), generator=G)',
    ]),
    (0, 721, [
        'torch.empty((64, ), dtype=torch.bfloat16).bernoulli_(torch.rand((64, ), dtype=torch.float64), generator=G)',
        'torch.empty((2, 3, 5, ), dtype=torch.complex64).random_()',
        '(lambda o: (torch.randint(10, (4,), out=o, generator=G), o)[1])(torch.empty(4, dtype=torch.bfloat16))',
        '[p.detach() for p in torch.nn.LayerNorm(5).parameters()]',
    ]),
    (62409, None, [
        'torch.empty((257, ), dtype=torch.int32).cauchy_()',
        'torch.empty((), dtype=torch.complex128).bernoulli_(torch.full((), 0.5, dtype=torch.complex128))',
        'torch.empty((), dtype=torch.int8).uniform_(-3e38, 3e38)',
    ]),
    (1, None, [
        'torch.poisson(torch.tensor([1e6, 50.0]))',
        'torch.nn.init.dirac_(torch.empty(0, 3))',
        'torch.multinomial(torch.ones(3, dtype=torch.float64), 2)',
        'torch.empty((3, 4, ), dtype=torch.bfloat16).uniform_()',
    ]),
    (-7, 721, [
        'torch.normal(torch.full((), -2.0, dtype=torch.float32), torch.full((), 1.0, dtype=torch.float32))',
        'torch.normal(-2.0, 0.0, size=(2, 3, 5, ), generator=G)',
        'torch.empty((33, ), dtype=torch.bool).random_(-1, generator=G)',
        'torch.randint(-2, 2, (2, 16, ), dtype=torch.float64, generator=G)',
    ]),
    (771673, 147, [
        'torch.randn((2, 16, ), dtype=torch.float16, generator=torch.Generator().manual_seed(4294967301))',
        'torch.distributions.LogNormal(0.0, 1.0).rsample((3,))',
        'torch.nn.functional.dropout2d(torch.ones((2, 3, 4)), 0.5, training=True)',
        'torch.distributions.Binomial(torch.tensor([100.0]), torch.tensor(0.3)).sample()',
    ]),
    (4294967299, None, [
        'torch.empty((), dtype=torch.int16).bernoulli_(0.0)',
        'torch.randint(5, 5, (2, 3, 5, ))',
        "torch.Generator().manual_seed('3').initial_seed()",
    ]),
    (1, None, [
        'torch.distributions.Exponential(torch.tensor([1.0, 0.5])).sample((2, 17))',
        'torch.empty((5, 7, ), dtype=torch.bfloat16).geometric_(-0.1)',
        'torch.rand(2, 3, generator=None)',
        '[p.detach() for p in torch.nn.LSTM(4, 3, num_layers=2).parameters()]',
    ]),
    (9223372036854775819, None, [
        'torch.empty((), dtype=torch.float32).t_() if False else torch.empty((), dtype=torch.float32).transpose(0, -1).normal_()',
        'torch.normal(-2.0, 2.0, (16, ), dtype=torch.bfloat16)',
        'torch.poisson(torch.rand((2, 0, 3, ), dtype=torch.float64) * 1)',
        'torch.empty((1, 1, ), dtype=torch.bfloat16).random_(0)',
    ]),
    (1234, None, [
        'torch.randint(0, 1000, ())',
        '[p.detach() for p in torch.nn.MultiheadAttention(6, 3, kdim=4, vdim=5).parameters()]',
        'torch.distributions.Dirichlet(torch.tensor([1.0, 2.0, 3.0])).rsample(())',
    ]),
    (-7, 110, [
        'torch.randint(-5, -4, (2, 16, ), generator=G)',
        '(lambda o: (torch.rand(2, 3, out=o, generator=G), o)[1])(torch.empty(6, dtype=torch.complex64))',
        'torch.normal(torch.full((5, 7, ), 3, dtype=torch.float16), torch.full((5, 7, ), 0.5, dtype=torch.float16))',
        'torch.empty((3, 4, ), dtype=torch.int16).cauchy_()',
    ]),
    (1234, 427, [
        'torch.empty((64, ), dtype=torch.uint8).normal_()',
        'torch.empty((5, 7, ), dtype=torch.uint8).random_(65536, generator=G)',
        'torch.poisson(torch.rand((1000, ), dtype=torch.float32) * 1)',
        'torch.normal(torch.zeros(3, dtype=torch.uint8), 1.0, generator=G)',
    ]),
    (4294967299, None, [
        'torch.rand((8, 9, ), dtype=torch.float64).bernoulli()',
        'torch.empty((1, 1, ), dtype=torch.int16).uniform_(-inf, 0)',
        'torch.randint(-2, 2, (0, ), dtype=torch.uint8)',
    ]),
    (9223372036854775819, None, [
        'torch.rand((), dtype=torch.complex128)',
        'torch.rrelu(torch.randn((2, 0, 3, )), training=True)',
        'torch.normal(torch.zeros(()), torch.full((), -1.0))',
        'torch.Generator().manual_seed(2**64 - 1).initial_seed()',
    ]),
    (1234, 845, [
        'torch.randint(3, (1, ), dtype=torch.bool)',
        '(lambda s: (type(s), s == torch.initial_seed(), torch.manual_seed(5).initial_seed()))(torch.seed())',
        'torch.distributions.LKJCholesky(3, 0.5).sample((2, 17))',
        'torch.multinomial(torch.rand((0, 5), dtype=torch.float32), 6, replacement=True, generator=G)',
    ]),
    (1, None, [
        'torch.empty((), dtype=torch.uint8).random_()',
        'torch.empty((17, ), dtype=torch.uint8).geometric_(0.01)',
        'torch.Generator().manual_seed(2**64 - 1).initial_seed()',
        'torch.rand((3, 4, ), dtype=torch.complex128)',
    ]),
    (1, 452, [
        'torch.rand_like(torch.empty(4, 5)[:, ::2]).stride()',
        'torch.normal(-2.0, 0.0, (3, 4, ), dtype=torch.float32)',
        'torch.empty((16, ), dtype=torch.float32).geometric_(0.3)',
        'list(torch.utils.data.WeightedRandomSampler(torch.rand(50, dtype=torch.float64), 1, replacement=False, generator=G))',
    ]),
    (1234, 474, [
        '(lambda o: (torch.normal(torch.zeros((2, 3, 5, ), dtype=torch.float16), 1.0, out=o), o)[1])(torch.empty((2, 3, 5, ), dtype=torch.float16))',
        'torch.rand((33, ), dtype=torch.complex64, generator=G)',
        '(lambda s: (s.__setitem__(slice(8, 12), 0), torch.set_rng_state(s)))(torch.get_rng_state())',
        'torch.randn((), dtype=torch.float64)',
    ]),
    (105832, None, [
        'torch.empty((1, 1, ), dtype=torch.float16).uniform_()',
        'torch.poisson(torch.rand((), dtype=torch.float32) * 1)',
        'torch.empty((15, ), dtype=torch.uint8).bernoulli_(torch.full((15, ), 1.5, dtype=torch.uint8))',
        'torch.normal(torch.full((15, ), 0.0, dtype=torch.float16), 2.0)',
    ]),
    (1234, None, [
        'torch.distributions.Normal(0.0, 1.0).sample((16,))',
        'torch.randint(-2, 2, (), dtype=torch.bool)',
        'torch.normal(-2.0, 2.0, size=(33, ))',
        'torch.empty((17, ), dtype=torch.bfloat16).cauchy_(-1, 0.1)',
    ]),
    (9223372036854775819, 479, [
        'torch.randn((1, 1, ), dtype=torch.complex128, generator=G)',
        'torch.normal(torch.zeros((8, 9, )), torch.full((8, 9, ), -1.0), generator=G)',
        'torch.normal(1.5, 0.5, size=(64, ), generator=G)',
        'torch.randn(size=(2, 16, ), dtype=torch.float64)',
    ]),
    (-7, 410, [
        'torch.bernoulli(torch.full((257, ), -0.5, dtype=torch.int16), generator=G)',
        'torch.randint(-1, -1, (31, ), generator=G)',
        'torch.distributions.RelaxedOneHotCategorical(torch.tensor(0.5), probs=torch.tensor([0.3, 0.7])).rsample((2, 17))',
    ]),
    (0, 781, [
        'torch.distributions.Weibull(1.0, 2.0).rsample((2, 17))',
        'torch.bernoulli(torch.empty((2, 0, 3, ), dtype=torch.bfloat16), 0.2, generator=G)',
        'torch.randint(5, (), dtype=torch.int16)',
        '(lambda st: (torch.rand(5), torch.set_rng_state(st), torch.rand(5))[::2])(torch.get_rng_state())',
    ]),
    (0, None, [
        'torch.distributions.Gumbel(0.0, 1.0).rsample((16,))',
        'torch.normal(-2.0, torch.full((8, 9, ), 0.5, dtype=torch.float16))',
        'torch.randint(high=10, size=(5, 7, ))',
    ]),
    (1234, None, [
        'torch.distributions.Gumbel(0.0, 1.0).sample((3,))',
        'torch.randint(5, (2, 16, ), dtype=torch.int64)',
        'torch.empty((16, ), dtype=torch.float16).geometric_(0.5)',
        'torch.rand((2, 3, 5, ), dtype=torch.float16).bernoulli(0.3)',
    ]),
    (1234, 126, [
        'torch.randint(high=10, size=(1, ), generator=G)',
        'torch.randint(10, [2, 2], generator=G)',
        'torch.rrelu(torch.randn((1, 1, ), dtype=torch.float16), training=True)',
    ]),
    (-7, None, [
        'torch.distributions.Gumbel(0.0, 1.0).sample((2, 17))',
        'torch.manual_seed(-2**63 - 1).initial_seed()',
        'torch.randn((100, ), dtype=torch.bfloat16)',
        'torch.randint(5, 0, (64, ))',
    ]),
    (0, 947, [
        'torch.empty((17, ), dtype=torch.float32).random_(-9223372036854775808, to=None)',
        'torch.distributions.Binomial(10, torch.tensor([0.2, 0.8])).sample((16,))',
        'torch.randint(2, (33, ), dtype=torch.float32, generator=G)',
        'torch.normal(-2.0, torch.full((33, ), 0.0, dtype=torch.bfloat16), generator=G)',
    ]),
    (0, 470, [
        'torch.randperm(5, dtype=torch.uint8)',
        'torch.normal(0.0, 0.0, size=(2, 0, 3, ))',
        'torch.empty((8, 9, ), dtype=torch.bool).geometric_(0.3)',
        'torch.normal(-2.0, 0.0, (1000, ), dtype=torch.float16)',
    ]),
    (4294967299, None, [
        'torch.randn(size=(1, ), dtype=torch.float16)',
        'torch.empty((33, ), dtype=torch.float64).random_(250, 127)',
        'torch.rand((1, 1, ), dtype=torch.bfloat16)',
        'torch.randint(256, (3, 4, ), dtype=torch.uint8)',
    ]),
    (1, 774, [
        'torch.distributions.StudentT(4.0).sample(())',
        'torch.empty((100, ), dtype=torch.complex128).normal_()',
        'torch.normal(torch.full((1, 1, ), 3, dtype=torch.bfloat16), torch.full((1, 1, ), 1.0, dtype=torch.bfloat16))',
        'torch.randperm(0, dtype=torch.uint8, generator=G)',
    ]),
    (42, 488, [
        'torch.rand_like(torch.empty(4, 5)[:, ::2]).stride()',
        '(lambda w: (torch.nn.init.uniform_(w, generator=G), w)[1])(torch.empty((5, 3, 2, 2), dtype=torch.float64))',
        'torch.normal(1.5, 1.0, (16, ), dtype=torch.bfloat16)',
        'torch.empty((5, 7, ), dtype=torch.int8).log_normal_(0, 0)',
    ]),
    (1, 661, [
        'torch.nn.Dropout3d(0.2)(torch.randn((2, 3, 2, 2, 2), dtype=torch.float32))',
        'torch.normal(-2.0, torch.full((2, 3, 5, ), 0.0, dtype=torch.float64), generator=G)',
        'torch.bernoulli(torch.full((3, 4, ), 1.0, dtype=torch.float32))',
        'torch.randn((), dtype=torch.float16, generator=G)',
    ]),
    (921439, 396, [
        'torch.randint(2, (1000, ), dtype=torch.float32, generator=G)',
        'torch.Generator().manual_seed(1.5).initial_seed()',
        'torch.distributions.Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 3.0])).rsample((3,))',
        'torch.randn((2, 0, 3, ), dtype=torch.int16)',
    ]),
    (-7, 791, [
        'torch.rand((1, ), dtype=torch.bfloat16, generator=G)',
        'torch.randn((1000, ), dtype=torch.complex64, generator=G)',
        '(lambda: (torch.randn(3, generator=G), torch.Generator().set_state(G.get_state()).initial_seed()))()',
    ]),
    (919612, 723, [
        'torch.distributions.LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)).sample((2, 17))',
        "torch.empty((1, ), dtype=torch.bool).exponential_(float('inf'))",
        'torch.normal(2.0, torch.ones(3, dtype=torch.bool), generator=G)',
        'torch.randint(200, 9223372036854775808, (1, 1, ), dtype=torch.complex128)',
    ]),
    (42, 911, [
        'torch.empty((31, ), dtype=torch.float32).t_() if False else torch.empty((31, ), dtype=torch.float32).transpose(0, -1).normal_()',
        'G.initial_seed()',
        'torch.normal(torch.zeros(3, dtype=torch.bfloat16), 1.0, generator=G)',
        'torch.rand((2, 0, 3, ), dtype=torch.complex64, generator=G)',
    ]),
    (1234, None, [
        'torch.normal(0.0, -1.0, size=(2, 3, 5, ))',
        "(lambda w: (torch.nn.init.kaiming_normal_(w, nonlinearity='relu', mode='fan_out'), w)[1])(torch.empty((40, 30), dtype=torch.float64))",
        'torch.randn((1, 1, ), dtype=torch.bfloat16)',
        'torch.empty((), dtype=torch.float64).bernoulli_(0.5)',
    ]),
    (1, None, [
        'torch.empty(20, dtype=torch.bool).random_(0, 2)',
        'torch.empty((33, ), dtype=torch.bool).bernoulli_(1.0)',
        'torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 4, True)',
        'torch.bernoulli(torch.full((2, 3, 5, ), 0.5, dtype=torch.int16))',
    ]),
    (42, None, [
        'torch.bernoulli(torch.rand((15, ), dtype=torch.bfloat16), out=torch.empty((15, ), dtype=torch.bfloat16))',
        'torch.multinomial(torch.tensor([[[1.0]]]), 0, False)',
        'torch.randint(2147483648, 2147483649, (2, 0, 3, ), dtype=torch.complex128)',
        'torch.poisson(torch.tensor([0.0, 1e-3]))',
    ]),
    (-7, None, [
        'torch.poisson(torch.ones((2, 3, 5, ), dtype=torch.int8))',
        'torch.randint(3, (2, 3, 5, ), dtype=torch.float64)',
        'torch.randn_like(torch.empty(4, 5).t())',
        'torch.empty((), dtype=torch.bfloat16).bernoulli_(torch.rand((), dtype=torch.float32))',
    ]),
    (9223372036854775819, 643, [
        'torch.randint(2, 9, size=(2, 3, 5, ), dtype=torch.complex128, generator=G)',
        'torch.empty((15, ), dtype=torch.float64).normal_(-2.0, 2.0, generator=G)',
        'torch.rand((), dtype=torch.float64, generator=G)',
        'torch.empty((3, 4, ), dtype=torch.float64).geometric_(0)',
    ]),
    (-7, None, [
        'torch.normal(2.0, torch.ones(3, dtype=torch.float64))',
        'torch.empty((17, ), dtype=torch.uint8).log_normal_(0, 1)',
        'torch.normal(1.5, 2.0, (2, 3, 5, ), dtype=torch.float32)',
        'torch.nn.functional.gumbel_softmax(torch.randn((17,)), tau=0.5, hard=False)',
    ]),
    (1234, 157, [
        'torch.normal(torch.full((31, ), 3, dtype=torch.bfloat16), 2.0, generator=G)',
        'torch.distributions.Normal(0.0, 1.0).rsample((16,))',
        '(lambda w: (torch.nn.init.xavier_uniform_(w), w)[1])(torch.empty((5, 3, 2, 2), dtype=torch.float64))',
        'torch.distributions.MixtureSameFamily(torch.distributions.Categorical(torch.tensor([0.3, 0.7])), torch.distributions.Normal(torch.tensor([0.0, 5.0]), torch.tensor([1.0, 1.0]))).rsample(())',
    ]),
    (4294967299, 27, [
        'torch.distributions.Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0])).sample((2, 17))',
        'torch.empty((2, 16, ), dtype=torch.int32).geometric_(0.9, generator=G)',
        'torch.empty((2, 16, ), dtype=torch.int64).exponential_(0)',
        'torch.empty((64, ), dtype=torch.int64).uniform_(-3e38, 3e38, generator=G)',
    ]),
    (42, None, [
        'torch.randint(0, -1, (31, ))',
        'torch.rand((15, ), dtype=torch.bfloat16)',
        'torch.empty((5, 7, ), dtype=torch.bfloat16).t_() if False else torch.empty((5, 7, ), dtype=torch.bfloat16).transpose(0, -1).normal_()',
        '(lambda o: (torch.randperm(3, out=o), o)[1])(torch.empty(2, dtype=torch.float64))',
    ]),
    (1234, 548, [
        'torch.empty((2, 3, 5, ), dtype=torch.float16).exponential_(3.0, generator=G)',
        "torch.manual_seed('3').initial_seed()",
        'torch.randint(2147483648, (2, 0, 3, ), dtype=torch.uint8, generator=G)',
        'torch.distributions.LogisticNormal(torch.zeros(2), torch.ones(2)).rsample(())',
    ]),
    (550719, 793, [
        'torch.rand(4, 6).multinomial(6, generator=G)',
        'torch.distributions.Independent(torch.distributions.Normal(torch.zeros(3), torch.ones(3)), 1).rsample(())',
        'torch.randperm(17, dtype=torch.bfloat16)',
    ]),
    (312694, 300, [
        '(lambda w: (torch.nn.init.zeros_(w), w)[1])(torch.empty((5, 3, 2, 2), dtype=torch.float32))',
        'torch.normal(1.5, 0.0, size=())',
        'torch.randn((2, 3, 5, ), dtype=torch.int16, generator=G)',
        'torch.rand((17, ), dtype=torch.float32).bernoulli()',
    ]),
    (0, 818, [
        '(lambda w: (torch.nn.init.uniform_(w), w)[1])(torch.empty((2, 3, 4), dtype=torch.float32))',
        'torch.randint(-2147483648, 6442450944, (2, 16, ))',
        'torch.empty((3, 4, ), dtype=torch.int16).normal_(1e30, 1e30)',
        'torch.multinomial(torch.tensor([[0.2, 0.8], [1.0, 0.0]]), 1, False)',
    ]),
    (1234, 47, [
        'torch.poisson(torch.rand((17, ), dtype=torch.float32) * 200)',
        '(lambda w: (torch.nn.init.sparse_(w, 0.5), w)[1])(torch.empty((17, 9), dtype=torch.float64))',
        'torch.poisson(torch.tensor([10.0, 10.0, 10.0]))',
        'torch.randn(size=(2, 16, ), dtype=torch.bfloat16)',
    ]),
    (-7, 684, [
        'torch.randn(size=(2, 3, 5, ), dtype=torch.float16, generator=G)',
        'torch.empty((), dtype=torch.complex64).random_()',
        'torch.distributions.Chi2(3.0).rsample((16,))',
        'torch.distributions.Categorical(torch.tensor([[0.5, 0.5], [0.1, 0.9]])).sample(())',
    ]),
    (42, 233, [
        'torch.randperm(16, generator=G)',
        'torch.distributions.Gamma(torch.full((3, 4, ), 1.0, dtype=torch.float64), 1.0).sample()',
        'torch.normal(torch.full((8, 9, ), -2.0, dtype=torch.float64), 0.0, generator=G)',
    ]),
    (9223372036854775819, 10, [
        'torch.empty((1, 1, ), dtype=torch.bfloat16).exponential_(0.5, generator=G)',
        'G.initial_seed()',
        'torch.empty((1, 1, ), dtype=torch.bfloat16).log_normal_(, generator=G)',
        'torch.distributions.Multinomial(5, torch.tensor([0.2, 0.3, 0.5])).sample((3,))',
    ]),
    (-7, None, [
        'torch.randn((64, ), dtype=torch.uint8)',
        'torch.poisson(torch.rand((8, 9, ), dtype=torch.float64) * 200)',
        'torch.randint(5, 0, (1, 1, ))',
        'torch.randn(size=(257, ), dtype=torch.bfloat16)',
    ]),
    (4294967299, 618, [
        'torch.distributions.Normal(torch.tensor([0.0, 1.0], dtype=torch.float64), 1.0).sample((2, 17))',
        'torch.Generator().manual_seed(-2**63 - 1).initial_seed()',
        'torch.empty((33, ), dtype=torch.int32).log_normal_(0, 0, generator=G)',
    ]),
    (1, None, [
        '(lambda o: (torch.randn(5, out=o), o)[1])(torch.empty(5, dtype=torch.float32))',
        'torch.randperm(256, dtype=torch.complex128)',
        'torch.empty((), dtype=torch.float64).normal_(generator=torch.Generator().manual_seed(11))',
        '[p.detach() for p in torch.nn.EmbeddingBag(6, 3).parameters()]',
    ]),
    (1, 990, [
        'torch.nn.functional.feature_alpha_dropout(torch.ones((2, 3, 4)), 0.0, training=True)',
        'torch.randint(high=10, size=(1, 1, ), generator=G)',
        'torch.multinomial(torch.ones(0, 3), 2, generator=G)',
        'torch.randint(5, 5, (1, 1, ), generator=G)',
    ]),
    (-7, 112, [
        'torch.empty((1, ), dtype=torch.bool).normal_(generator=G)',
        'torch.rand((2, 16, ), dtype=torch.float32, generator=G)',
        'torch.randint(1099511627776, (64, ), dtype=torch.bfloat16)',
    ])
]

# state programs: draws of odd sizes on the default generator and on G, states saved and
# restored across both (a CPU state given to G, G's to the default), clones, reseeds, forks;
# then multinomial with ties, zeros and half-precision weights
_STATE_PROGRAMS = [
    '\ntorch.manual_seed(42)\nG = torch.Generator().manual_seed(3)\nS = {}\nGS = {}\nGS[0] = G.get_state()\nGS[1] = G.get_state()\nGS[2] = G.get_state()\nG.set_state(GS[1])\nshow(torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 3))\ntorch.manual_seed(6)\nshow(torch.empty(3, dtype=torch.float64).normal_())\nS[0] = torch.get_rng_state()\nshow(torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 4, True, generator=G))\ntorch.set_rng_state(S[0])\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(42)\nG = torch.Generator().manual_seed(20)\nS = {}\nGS = {}\ntorch.manual_seed(5)\nS[0] = torch.get_rng_state()\nshow(torch.empty(3).exponential_())\ntorch.set_rng_state(S[0])\nshow(torch.poisson(torch.full((3,), 2.0)))\nshow(torch.randn(15, dtype=torch.float16))\nGS[0] = G.get_state()\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(42)\nG = torch.Generator().manual_seed(0)\nS = {}\nGS = {}\nshow(torch.randint(0, 1099511627776, (1,)))\nshow(torch.randint(0, 1099511627776, (5,)))\nGS[0] = G.get_state()\nshow(torch.empty(3).exponential_())\nS[0] = torch.get_rng_state()\ntorch.set_rng_state(S[0])\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(1)\nG = torch.Generator().manual_seed(29)\nS = {}\nGS = {}\nG = G.clone_state()\nGS[0] = G.get_state()\ntorch.set_rng_state(GS[0])\nshow(torch.get_rng_state()[-40:])\nwith torch.random.fork_rng():\n    show(torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 2))\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(0)\nG = torch.Generator().manual_seed(67)\nS = {}\nGS = {}\nshow(torch.randint(0, 3, (5,), generator=G))\nshow(torch.normal(torch.zeros(1, dtype=torch.float64), 1.0))\nGS[0] = G.get_state()\nG.set_state(GS[0])\nG = G.clone_state()\nG.set_state(GS[0])\ntorch.set_rng_state(GS[0])\nshow(torch.rand(3, dtype=torch.float64, generator=G))\nshow(torch.empty(3).exponential_())\nGS[1] = G.get_state()\nshow(torch.poisson(torch.full((3,), 2.0)))\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(872679)\nG = torch.Generator().manual_seed(86)\nS = {}\nGS = {}\nS[0] = torch.get_rng_state()\nshow(torch.randint(0, 1073741824, (3,)))\nshow(torch.poisson(torch.full((3,), 20.0)))\nGS[0] = G.get_state()\nG = G.clone_state()\nshow(torch.get_rng_state()[-40:])\nshow(torch.get_rng_state()[-40:])\nshow(torch.randint(0, 1073741824, (3,), generator=G))\nshow(torch.empty(1, dtype=torch.float64).normal_())\ntorch.set_rng_state(S[0])\nshow(torch.empty(16, dtype=torch.float32).normal_())\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(0)\nG = torch.Generator().manual_seed(6)\nS = {}\nGS = {}\nGS[0] = G.get_state()\nshow(torch.normal(torch.zeros(3, dtype=torch.float64), 1.0))\nG.set_state(GS[0])\nshow(torch.empty(3, dtype=torch.float64).normal_())\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(42)\nG = torch.Generator().manual_seed(14)\nS = {}\nGS = {}\nshow(torch.randn(15, dtype=torch.float64, generator=G))\nshow(torch.empty(3).exponential_())\nshow(torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 1, True))\nshow(torch.randn(1, dtype=torch.complex64, generator=G))\nwith torch.random.fork_rng():\n    show(torch.poisson(torch.full((3,), 20.0)))\nS[0] = torch.get_rng_state()\nGS[0] = G.get_state()\nG.set_state(GS[0])\ntorch.set_rng_state(GS[0])\nshow(torch.randint(0, 1073741824, (1,)))\nshow(torch.randint(0, 3, (3,)))\nS[1] = torch.get_rng_state()\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(0)\nG = torch.Generator().manual_seed(45)\nS = {}\nGS = {}\nshow(torch.poisson(torch.full((3,), 2.0)))\nshow(torch.poisson(torch.full((3,), 20.0)))\nG = G.clone_state()\nGS[0] = G.get_state()\nG.set_state(GS[0])\nshow(torch.get_rng_state()[-40:])\nshow(torch.randn(33, dtype=torch.float64))\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(1)\nG = torch.Generator().manual_seed(34)\nS = {}\nGS = {}\ntorch.manual_seed(2)\nwith torch.random.fork_rng():\n    show(torch.randint(0, 3, (3,)))\nGS[0] = G.get_state()\nGS[1] = G.get_state()\nS[0] = torch.get_rng_state()\ntorch.set_rng_state(S[0])\nshow(torch.rand(17, dtype=torch.float32, generator=G))\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(42)\nG = torch.Generator().manual_seed(11)\nS = {}\nGS = {}\nGS[0] = G.get_state()\nGS[1] = G.get_state()\nshow(torch.randn(17, dtype=torch.float32, generator=G))\nS[0] = torch.get_rng_state()\nGS[2] = G.get_state()\nG.set_state(S[0])\nG = G.clone_state()\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(42)\nG = torch.Generator().manual_seed(2)\nS = {}\nGS = {}\nshow(torch.get_rng_state()[-40:])\nG = G.clone_state()\nG = G.clone_state()\nshow(torch.normal(torch.zeros(3, dtype=torch.float64), 1.0))\nshow(torch.bernoulli(torch.full((5,), 0.5)))\nS[0] = torch.get_rng_state()\ntorch.set_rng_state(S[0])\nshow(torch.rand(3, dtype=torch.float64))\ntorch.manual_seed(5)\nshow(torch.normal(0.0, 1.0, (2,), generator=G))\nshow(torch.rand(3))\nshow(torch.rand(2, generator=G))\nshow(torch.get_rng_state()[-40:])',
    '\ntorch.manual_seed(0)\ntry:\n    show(torch.multinomial(torch.full((300,), 1e-30, dtype=torch.float64), 2, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((1, 40)) > 0.3).to(torch.float32), 1, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((1, 17)) * 4).floor().to(torch.float16), 18, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.ones((2, 40), dtype=torch.float64), 20, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(0)\ntry:\n    show(torch.multinomial(torch.rand((2, 17), dtype=torch.float16) * (torch.arange(17) % 2 == 0), 8, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((1, 100)) * 4).floor().to(torch.float32), 100, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.ones((1, 3), dtype=torch.float32), 2, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.rand((1, 3), dtype=torch.float16), 4, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(0)\ntry:\n    show(torch.multinomial((torch.rand((5, 5)) > 0.3).to(torch.bfloat16), 6, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.full((1, 300), 1e-30, dtype=torch.float64), 150, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.ones((5, 2), dtype=torch.float64), 3, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(52689)\ntry:\n    show(torch.multinomial((torch.rand((300,)) > 0.3).to(torch.float32), 150, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.ones((300,), dtype=torch.bfloat16), 301, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.rand((1, 17), dtype=torch.float64), 2, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(42)\ntry:\n    show(torch.multinomial((torch.rand((2,)) * 4).floor().to(torch.float64), 2, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.rand((5, 300), dtype=torch.bfloat16), 600, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.full((1, 2), 1e-30, dtype=torch.float64), 4, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(1)\ntry:\n    show(torch.multinomial((torch.rand((2, 300)) > 0.3).to(torch.bfloat16), 300, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((300,)) ** 8).to(torch.float32), 1, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.rand((1, 300), dtype=torch.float16), 3, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(0)\ntry:\n    show(torch.multinomial(torch.rand((1, 8), dtype=torch.float64), 4, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial(torch.ones((2, 100), dtype=torch.float32), 100, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((3,)) > 0.7).to(torch.bfloat16), 2, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(1)\ntry:\n    show(torch.multinomial(torch.ones((1, 3), dtype=torch.float32), 3, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((2, 40)) * 4).floor().to(torch.float32), 20, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((1, 300)) * 4).floor().to(torch.float16), 300, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(42)\ntry:\n    show(torch.multinomial((torch.rand((2, 40)) * 4).floor().to(torch.bfloat16), 1, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((2, 100)) > 0.7).to(torch.float32), 200, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((1, 300)) * 4).floor().to(torch.float64), 1, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
    '\ntorch.manual_seed(483992)\ntry:\n    show(torch.multinomial(torch.ones((1, 300), dtype=torch.float32), 1, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((5, 2)) * 4).floor().to(torch.float32), 3, True))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\ntry:\n    show(torch.multinomial((torch.rand((5, 300)) > 0.95).to(torch.float16), 300, False))\nexcept Exception as e:\n    print(type(e).__name__, str(e).split(chr(10))[0][:200])\nshow(torch.rand(3))',
]

SEED = "torch.manual_seed(0); "

# the argument forms and errors the fuzzer found
_FOUND = [
    # random_(from, None) draws from `from` to the dtype's largest integer (another overload
    # than random_(to)); None elsewhere fits no overload
    SEED + "print(torch.empty(5, dtype=torch.float32).random_(0, None))",
    SEED + "print(torch.empty(3, dtype=torch.int8).random_(**{'from': 3, 'to': None}))",
    SEED + "print(torch.Tensor.random_(torch.empty(3, dtype=torch.int8), 2, None))",
    SEED + "print(torch.empty(4, dtype=torch.int64).random_(-2**63, None))",
    SEED + "print(torch.empty(4, dtype=torch.uint8).random_(-1, None))",
    SEED + "x = torch.zeros(3, requires_grad=True).clone(); print(x.random_(3, None).grad_fn.name(), x.random_(to=3).grad_fn.name(), x.random_(2).grad_fn.name(), x.random_().grad_fn.name())",
    "torch.empty(3, dtype=torch.int8).random_(to=None)",
    "torch.empty(3, dtype=torch.int8).random_(None)",
    "torch.empty(3, dtype=torch.int8).random_(**{'from': 3})",
    "torch.empty(3, dtype=torch.int8).random_(None, 5)",
    "torch.empty(3, dtype=torch.int8).random_(3, 9, None)",
    "torch.rand(3).random_(1.5)",
    "torch.rand(3).random_(1, 2.5)",
    "torch.rand(3).random_(3, foo=3)",
    "torch.rand(3).random_(3, generator=3)",
    SEED + "print(torch.empty(3, dtype=torch.int8).random_(torch.tensor(2), torch.tensor(9)))",
    "torch.empty(3, dtype=torch.complex64).random_(1, None)",
    "torch.empty(3, dtype=torch.complex64).random_(-2**63, None)",
    "print(torch.empty(0, dtype=torch.complex64).random_(-2**63, None))",
    # bernoulli's p is a float (a 0-dim tensor passes); its p form takes no out=
    "torch.bernoulli(torch.rand(3), p=torch.rand(3))",
    "torch.bernoulli(torch.rand(3), torch.rand(3))",
    "torch.rand(3).bernoulli(torch.rand(3))",
    "torch.rand(3).bernoulli(p=torch.rand(3))",
    "torch.rand(3).bernoulli(torch.rand(3), generator=None)",
    "torch.bernoulli(torch.rand(3), 0.5, out=torch.empty(3))",
    "torch.bernoulli(torch.rand(3), 'a')",
    SEED + "print(torch.bernoulli(torch.rand(3), torch.tensor(0.5)), torch.rand(3).bernoulli(np.float64(0.5)))",
    SEED + "print(torch.bernoulli(torch.rand(3), out=torch.empty(3)), torch.rand(3).bernoulli_(torch.tensor(0.5)))",
    # normal: shapes that do not broadcast, complex std
    "torch.normal(torch.zeros(6), torch.ones(2, 3))",
    "torch.normal(torch.zeros(0), torch.ones(3))",
    "torch.normal(torch.zeros(3), torch.ones(4), out=torch.empty(4))",
    SEED + "print(torch.normal(torch.zeros(2, 1), torch.ones(3)))",
    "torch.normal(torch.zeros(3), torch.ones(3, dtype=torch.complex64))",
    "torch.normal(1.0, torch.ones(3, dtype=torch.complex64))",
    SEED + "print(torch.normal(torch.zeros(3, dtype=torch.complex64), torch.ones(3)))",
    # randperm checks n before its dtype
    "torch.randperm(-1, dtype=torch.complex64)",
    "torch.randperm(-1, dtype=torch.bool)",
    # generator states are tensors
    "torch.set_rng_state([1, 2])",
    "torch.set_rng_state(torch.get_rng_state().numpy())",
    "g = torch.Generator(); g.set_state(np.zeros(5056, np.uint8))",
    "g = torch.Generator(); g.set_state(torch.get_rng_state().tolist())",
    "torch.set_rng_state(torch.zeros(3))",
    # a generator prints as torch's C type
    "print(torch.manual_seed(0)); print(torch.Generator())",
    # geometric_ of narrow integers past their range: C's cast through int32
    SEED + "print(torch.empty(8, dtype=torch.int16).geometric_(1e-9), torch.empty(8, dtype=torch.int8).geometric_(1e-9), torch.empty(8, dtype=torch.uint8).geometric_(1e-9))",
    SEED + "print(torch.empty(8, dtype=torch.int32).geometric_(1e-12), torch.empty(8, dtype=torch.int16).geometric_(1e-18))",
    SEED + "print(torch.empty(1000, dtype=torch.int16).geometric_(1e-6).sum(), torch.empty(1000, dtype=torch.uint8).geometric_(1e-7).sum())",
    # a scrambled SobolEngine without a seed draws from the default generator
    "torch.manual_seed(1); print(torch.quasirandom.SobolEngine(3, scramble=True).draw(4), torch.rand(3))",
    "torch.manual_seed(1); print(torch.quasirandom.SobolEngine(1, scramble=True).draw(2), torch.quasirandom.SobolEngine(2, scramble=True, seed=5).draw(2), torch.rand(3))",
    # sizes as varargs fail in the unpacking; randint's low by keyword comes first
    "torch.rand(2, None)",
    "torch.randn(2, 3, None)",
    "torch.randn(2, (3,))",
    "torch.rand(2, torch.tensor(3.0))",
    "torch.rand(2, [3])",
    "torch.rand(2, None, generator=torch.Generator())",
    "torch.rand(2, 3.0, out=torch.empty(2))",
    "torch.rand(None, 2)",
    "torch.randint(2, size=(3,), low=1)",
    "torch.randint(low=2, size=(3,))",
    "torch.randint(low=1, high=5)",
    "torch.full(fill_value=1)",
    "torch.rand(3).index_select(index=torch.tensor([0]))",
    "torch.randint(2, 5, size=(3,), low=1)",
    SEED + "print(torch.randint(1, high=5, size=(3,)), torch.randint(low=1, high=5, size=(3,)), torch.randint(high=5, size=(3,)))",
    # the in-place samplers' keywords and argument errors
    SEED + "print(torch.empty(3).uniform_(**{'from': 1, 'to': 2}), torch.empty(3).normal_(mean=1, std=2), torch.empty(3).exponential_(lambd=2), torch.empty(3).geometric_(p=0.5), torch.empty(3).cauchy_(median=1, sigma=2), torch.empty(3).log_normal_(mean=1, std=0.5), torch.empty(3).bernoulli_(p=0.3))",
    "torch.empty(3).uniform_(a=1)",
    "torch.empty(3).normal_(1, 2, 3)",
    "torch.empty(3).normal_(mu=1)",
    "torch.empty(3).geometric_()",
    "torch.empty(3).cauchy_(1, 2, 3)",
    "torch.empty(3).bernoulli_(0.5, 1)",
    "torch.empty(3).uniform_('a')",
    "torch.empty(3).normal_(torch.ones(3))",
    "torch.empty(3).exponential_(torch.tensor([1.0, 2.0]))",
    "torch.empty(3).normal_(1+2j)",
    "torch.empty(3).uniform_(generator=3)",
    "torch.empty(3).bernoulli_(generator=3)",
    "torch.empty(3).bernoulli_('a')",
    "torch.empty(3).log_normal_(1, 2, generator=None, foo=3)",
    "torch.empty(3).uniform_(None)",
    SEED + "print(torch.empty(3).normal_(torch.tensor(1.0), torch.tensor(2.0)), torch.empty(3).bernoulli_(torch.tensor(0.5)), torch.empty(3).bernoulli_(), torch.empty(3).bernoulli_(p=torch.rand(3)))",
    SEED + "x = torch.zeros(3, requires_grad=True).clone(); print(x.uniform_().grad_fn.name(), x.normal_().grad_fn.name(), x.exponential_().grad_fn.name(), x.bernoulli_(0.5).grad_fn.name(), x.bernoulli_(torch.rand(3)).grad_fn.name())",
    # dropout's train is a bool (torch's parser names the function F.dropout calls)
    "torch.nn.functional.dropout(torch.ones(3), p=0.5, training=1)",
    "torch.nn.functional.dropout(torch.ones(3), p=0.5, training=np.bool_(True))",
    "torch.nn.functional.dropout(torch.ones(3), p=0.5, training='', inplace=True)",
    "torch.nn.functional.dropout2d(torch.ones(3, 3), p=0.5, training='yes', inplace=True)",
    "torch.nn.functional.dropout1d(torch.ones(3, 3), p=0.5, training='yes')",
    "torch.nn.functional.alpha_dropout(torch.ones(3, 3), p=0.5, training='yes')",
    "torch.nn.functional.feature_alpha_dropout(torch.ones(3, 3), p=0.5, training='yes', inplace=True)",
    "torch.nn.functional.dropout(torch.ones(0), p=0.5, training=None)",
    "torch.nn.functional.dropout(torch.ones(3), p=2.0, training=None)",
    "torch.dropout_(torch.ones(3), 0.5, 'yes')",
    "m = torch.nn.Dropout(); m.training = 1; print(m(torch.ones(3)))",
    # out= of the samplers: its dtype, its shape with a tensor mean, requires_grad
    "torch.manual_seed(0); o = torch.empty(3, dtype=torch.float32)\ntry:\n    torch.multinomial(torch.rand(4), 3, out=o)\nexcept Exception as e:\n    print(e)\nprint(torch.rand(1))",
    SEED + "o = torch.empty(5); print(torch.normal(torch.zeros(3), torch.ones(3), out=o), torch.rand(1))",
    SEED + "o = torch.empty(2, 3); print(torch.normal(torch.zeros(3), 1.0, out=o), torch.rand(1))",
    SEED + "o = torch.empty(0); print(torch.normal(torch.zeros(3), 1.0, out=o), torch.rand(1))",
    SEED + "o = torch.empty(5); print(torch.normal(torch.zeros(3), 1.0, out=o), torch.rand(1))",
    SEED + "o = torch.empty(1); print(torch.normal(torch.zeros(3), 1.0, out=o), torch.rand(1))",
    SEED + "o = torch.empty(3, 1); print(torch.normal(torch.zeros(1, 2), 2.0, out=o), torch.rand(1))",
    SEED + "o = torch.empty(2, 3).t(); print(torch.normal(torch.arange(2.0), 1.0, out=o), o.stride(), torch.rand(1))",
    SEED + "o = torch.empty(3); print(torch.randn(3, out=o, requires_grad=True), torch.randperm(3, out=torch.empty(3), requires_grad=True))",
    SEED + "o = torch.empty(3, dtype=torch.int64); print(torch.randint(3, (3,), out=o, requires_grad=True))",
    SEED + "o = torch.empty(3); print(torch.normal(0., 1., (3,), out=o, requires_grad=True), torch.rand(3, out=torch.empty(2), requires_grad=True))",
    # nn.init of every float dtype; orthogonal_ draws, then torch's QR and sign refuse
    SEED + "print([f(torch.empty(3, 4, dtype=torch.float16)) for f in (torch.nn.init.uniform_, torch.nn.init.normal_, torch.nn.init.xavier_uniform_, torch.nn.init.xavier_normal_, torch.nn.init.kaiming_uniform_, torch.nn.init.kaiming_normal_, torch.nn.init.trunc_normal_)], torch.rand(1))",
    SEED + "print([f(torch.empty(3, 4, dtype=torch.bfloat16)) for f in (torch.nn.init.uniform_, torch.nn.init.normal_, torch.nn.init.xavier_uniform_, torch.nn.init.xavier_normal_, torch.nn.init.kaiming_uniform_, torch.nn.init.kaiming_normal_, torch.nn.init.trunc_normal_)], torch.rand(1))",
    SEED + "print(torch.nn.init.normal_(torch.empty(3, 4, dtype=torch.complex64)), torch.nn.init.uniform_(torch.empty(2, dtype=torch.complex64)), torch.nn.init.xavier_normal_(torch.empty(3, 4, dtype=torch.complex64)), torch.rand(1))",
    SEED + "print(torch.nn.init.sparse_(torch.empty(4, 3, dtype=torch.float16), 0.5), torch.rand(1))",
    SEED + "print(torch.nn.init.trunc_normal_(torch.empty(40, dtype=torch.float32), mean=10.0, std=1.0, a=-2, b=2), torch.rand(1))",
    SEED + "print(torch.nn.init.orthogonal_(torch.empty(3, 4, dtype=torch.float64)), torch.rand(1))",
    "torch.manual_seed(0); w = torch.empty(3, 4, dtype=torch.bfloat16)\ntry:\n    torch.nn.init.orthogonal_(w)\nexcept Exception as e:\n    print(e)\nprint(torch.rand(1))",
    "torch.manual_seed(0); w = torch.empty(3, 4, dtype=torch.float16)\ntry:\n    torch.nn.init.orthogonal_(w)\nexcept Exception as e:\n    print(e)\nprint(torch.rand(1))",
    "torch.manual_seed(0); w = torch.empty(3, 4, dtype=torch.complex64)\ntry:\n    torch.nn.init.orthogonal_(w)\nexcept Exception as e:\n    print(type(e).__name__, e)\nprint(torch.rand(1))",
    # generators: devices, copies, fresh states, forks
    "torch.Generator('mps')",
    "torch.Generator('xpu')",
    "torch.Generator('foo')",
    "torch.Generator(torch.device('meta'))",
    "torch.Generator(0)",
    "torch.Generator(1.5)",
    "torch.Generator(True)",
    "torch.Generator(device='cpu', foo=1)",
    "print(torch.Generator(None).device, torch.Generator('cpu:0').device, torch.Generator(torch.device('cpu')).device)",
    "g = torch.Generator().manual_seed(3); torch.rand(3, generator=g); h = __import__('copy').deepcopy(g); print(torch.rand(2, generator=g), torch.rand(2, generator=h), h.initial_seed())",
    "g = torch.Generator().manual_seed(3); torch.randn(3, generator=g, dtype=torch.float64); h = __import__('pickle').loads(__import__('pickle').dumps(g)); print(torch.randn(2, generator=g, dtype=torch.float64), torch.randn(2, generator=h, dtype=torch.float64))",
    "g = torch.Generator(); s = g.get_state(); print(s[:24].tolist(), g.initial_seed()); h = torch.Generator().manual_seed(1); h.set_state(s); print(torch.rand(2, generator=h))",
    "torch.manual_seed(0); torch.randn(1); s = torch.get_rng_state(); g = torch.Generator(); g.set_state(s); print(torch.randn(1, generator=g), torch.randn(1, generator=g), torch.randn(1), torch.randn(1))",
    "torch.manual_seed(0); torch.randn(17, dtype=torch.float64); torch.normal(0.0, 1.0, (1,)); print(torch.get_rng_state()[-40:].tolist())",
    "torch.manual_seed(0)\nwith torch.random.fork_rng(devices=[]):\n    torch.rand(3)\nprint(torch.rand(2))",
    "torch.manual_seed(0); s = list(torch.utils.data.DistributedSampler(list(range(10)), num_replicas=3, rank=1, shuffle=True, seed=4)); print(s, torch.rand(2))",
    "torch.manual_seed(0); g = torch.Generator().manual_seed(1); print(torch.nn.init.normal_(torch.empty(3), generator=g), torch.nn.init.xavier_uniform_(torch.empty(2, 2), generator=g), torch.rand(1, generator=g))",
    "torch.manual_seed(0); print(torch.nn.init.sparse_(torch.empty(4, 2), 0.5, generator=torch.Generator().manual_seed(1)), torch.rand(2))",
    # distributions: a batch of no matrices, the constraints' checks of empty batches
    "torch.manual_seed(0); d = torch.distributions.Wishart(torch.tensor(5.0), torch.eye(3)); print(d.sample((0,)).shape, torch.rand(2))",
    "torch.manual_seed(0); d = torch.distributions.Wishart(torch.tensor([5.0, 3.0]), torch.eye(2)); print(d.sample((0, 2)).shape, d.sample((2,)), torch.rand(2))",
    "c = torch.distributions.constraints; print(c.positive_definite.check(torch.zeros(0, 2, 2)), c.positive_semidefinite.check(torch.zeros(0, 2, 2)), c.symmetric.check(torch.zeros(0, 2, 2)), c.square.check(torch.zeros(0, 2, 2)), c.symmetric.check(torch.zeros(2, 3)))",
    "c = torch.distributions.constraints; print(c.lower_triangular.check(torch.zeros(0, 3, 3)))",
    "c = torch.distributions.constraints; print(c.lower_cholesky.check(torch.zeros(2, 0, 3, 3)))",
    "c = torch.distributions.constraints; print(c.corr_cholesky.check(torch.zeros(0, 2, 2)))",
    # no gamma, dirichlet nor Sobol kernels of half dtypes (the default dtype included)
    "torch.manual_seed(0); print(torch.distributions.Dirichlet(torch.ones(3, dtype=torch.float16)).sample())",
    "torch.manual_seed(0); print(torch.distributions.Beta(torch.ones(3, dtype=torch.bfloat16), 2.0).sample())",
    "torch.manual_seed(0); print(torch.distributions.StudentT(torch.ones(3, dtype=torch.float16)).sample())",
    "torch.manual_seed(0); print(torch.distributions.Chi2(torch.ones(3, dtype=torch.bfloat16)).rsample())",
    "torch.manual_seed(0); print(torch.distributions.InverseGamma(torch.ones(2, dtype=torch.float16), 2.0).sample())",
    "torch.manual_seed(0); print(torch.distributions.Dirichlet(torch.ones(3, dtype=torch.float64)).sample(), torch.distributions.Beta(torch.ones(3), 2.0).rsample())",
    "torch.set_default_dtype(torch.float16)\ntry:\n    torch.manual_seed(0); print(torch.distributions.NegativeBinomial(torch.tensor([2.0, 10.0]), torch.tensor([0.3, 0.8])).sample((3,)))\nfinally:\n    torch.set_default_dtype(torch.float32)",
    "torch.set_default_dtype(torch.bfloat16)\ntry:\n    e = torch.quasirandom.SobolEngine(2); print(e.draw(1)); print(e.draw(2))\nfinally:\n    torch.set_default_dtype(torch.float32)",
    "e = torch.quasirandom.SobolEngine(2); print(e.draw(3, dtype=torch.int64))",
    "e = torch.quasirandom.SobolEngine(2); print(e.draw(0))",
    "e = torch.quasirandom.SobolEngine(2); e.draw(2); print(e.draw(0), e.draw(-1))",
    "e = torch.quasirandom.SobolEngine(2); print(e.draw(-2))",
    "e = torch.quasirandom.SobolEngine(2); print(e.draw(3, dtype=torch.float64), e.draw_base2(0, dtype=torch.float32))",
    # randperm's argument errors are the parser's (a generator of another type too)
    "torch.randperm()",
    "torch.randperm(dtype=torch.int64)",
    "torch.randperm(generator=torch.Generator(), dtype=torch.int64)",
    "torch.randperm(generator=3)",
    "torch.randperm(out=torch.empty(3))",
    "print(torch.utils.data.random_split(range(4), [2, 2], generator=3))",
    "torch.randperm(5, generator='a', dtype=torch.int64)",
    "torch.randperm(2.5, generator=torch.Generator())",
    "torch.randperm(3.0, dtype=torch.int64, device=torch.device('cpu'))",
    "torch.randperm('3', layout=torch.strided, pin_memory=True, requires_grad=True)",
    "torch.randperm(torch.tensor(3.0))",
    "torch.randperm(5, 6)",
    "torch.rand(None, generator=torch.Generator(), device=torch.device('cpu'))",
    SEED + "print(torch.randperm(5, generator=torch.Generator().manual_seed(2)), torch.randperm(n=3, dtype=torch.float64), torch.randperm(np.int64(4)), torch.randperm(torch.tensor(3)))",
    # the other samplers' generator and flags, and the data samplers that call them
    "torch.poisson(torch.ones(3), generator=3)",
    "torch.multinomial(torch.ones(3), 2, generator=3)",
    "torch.binomial(torch.ones(3), torch.rand(3), generator=3)",
    "torch._standard_gamma(torch.ones(3), generator=3)",
    "torch._sample_dirichlet(torch.ones(3), generator=3)",
    "torch.rand(3).multinomial(2, generator=3)",
    "torch.poisson(torch.ones(3), 3)",
    "torch.poisson(torch.ones(3), torch.Generator(), 3)",
    "torch.multinomial(torch.ones(3), 2, 1)",
    "torch.multinomial(torch.ones(3), 2, np.bool_(True))",
    "torch.rand(3).multinomial(2, replacement=None)",
    "torch.binomial(torch.ones(3), 0.5)",
    "torch.binomial(torch.ones(3))",
    SEED + "print(torch.poisson(torch.ones(3), torch.Generator().manual_seed(1)), torch.binomial(torch.ones(3) * 5, torch.full((3,), 0.5), None), torch.multinomial(torch.ones(3), 2, True, generator=None), torch.rand(3).multinomial(num_samples=1))",
    "list(torch.utils.data.RandomSampler(range(3), generator=3))",
    "list(torch.utils.data.RandomSampler(range(3), generator='g', replacement=True))",
    "list(torch.utils.data.SubsetRandomSampler([1, 2], generator=3))",
    "list(torch.utils.data.WeightedRandomSampler([1.0, 2.0], 2, generator=3))",
    "list(torch.utils.data.DataLoader(range(3), shuffle=True, generator=3))",
    SEED + "g = torch.Generator().manual_seed(3); print(list(torch.utils.data.RandomSampler(range(30), replacement=True, num_samples=33, generator=g)), torch.rand(1, generator=g), torch.rand(1))",
    # samplers of meta tensors: no values, no draws
    SEED + "x = torch.empty(3, device='meta'); print(torch.bernoulli(x), torch.multinomial(x, 2), torch.poisson(x), torch.normal(x, 1.0), torch.normal(x, x), x.geometric_(0.5), x.cauchy_(), x.log_normal_(), torch.rand(1))",
    SEED + "x = torch.empty(2, 3, device='meta'); print(torch.multinomial(x, 5, True), torch.multinomial(x, 4), torch.normal(x, torch.ones(3, device='meta')), torch.normal(1.0, x), torch.bernoulli(x, 0.5), torch.bernoulli(x, out=torch.empty(2, 3, device='meta')))",
    SEED + "x = torch.empty(3, device='meta', dtype=torch.int64); print(torch.bernoulli(x), torch.poisson(x), torch.multinomial(x, 2))",
    SEED + "x = torch.empty(2, 3, device='meta', requires_grad=True); y = torch.normal(x, 1.0); z = torch.bernoulli(x); print(y.requires_grad, z.requires_grad, y.grad_fn.name(), z.grad_fn.name(), torch.normal(1.0, x).grad_fn.name())",
    # Generator's methods are C methods; fork_rng of other device types
    "g = torch.Generator(); g.manual_seed()",
    "g = torch.Generator(); g.manual_seed(1, 2)",
    "g = torch.Generator(); g.manual_seed(seed=3)",
    "g = torch.Generator(); g.seed(1)",
    "g = torch.Generator(); g.seed(x=1)",
    "g = torch.Generator(); g.initial_seed(1)",
    "g = torch.Generator(); g.get_state(1)",
    "g = torch.Generator(); g.set_state()",
    "g = torch.Generator(); g.set_state(new_state=g.get_state())",
    "g = torch.Generator(); g.clone_state(1)",
    "g = torch.Generator(); print(g.manual_seed(3).initial_seed(), g.set_state(g.get_state()).initial_seed(), g.clone_state().initial_seed(), type(g.seed()))",
    "torch.manual_seed(0)\nwith torch.random.fork_rng(device_type='meta'):\n    torch.rand(3)\nprint(torch.rand(1))",
    "torch.manual_seed(0)\nwith torch.random.fork_rng(foo=1):\n    torch.rand(3)\nprint(torch.rand(1))",
    "torch.manual_seed(0)\nwith torch.random.fork_rng(devices=[], device_type='cuda'):\n    torch.rand(3)\nprint(torch.rand(1))",
    "torch.manual_seed(0)\nwith torch.random.fork_rng(enabled=False, device_type='foo'):\n    torch.rand(3)\nprint(torch.rand(1))",
    "torch.manual_seed(0)\ntry:\n    with torch.random.fork_rng():\n        torch.rand(3); raise ValueError('x')\nexcept ValueError:\n    pass\nprint(torch.rand(1))",
    # dropout inside layers and attention draws torch's masks
    SEED + "y = torch.nn.functional.scaled_dot_product_attention(torch.randn(2, 3, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 4), dropout_p=0.3); print([round(v, 3) for v in y.flatten().tolist()], torch.rand(2))",
    SEED + "y = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)(torch.randn(3, 2, 8)); print([round(v, 3) for v in y.flatten().tolist()], torch.rand(2))",
    SEED + "y = torch.nn.MultiheadAttention(8, 2, dropout=0.5)(torch.randn(3, 2, 8), torch.randn(4, 2, 8), torch.randn(4, 2, 8)); print([round(v, 3) for v in y[0].flatten().tolist()], [round(v, 3) for v in y[1].flatten().tolist()], torch.rand(2))",
    SEED + "y = torch.nn.LSTM(3, 4, num_layers=2, dropout=0.5)(torch.randn(5, 2, 3))[0]; print([round(v, 3) for v in y.flatten().tolist()], torch.rand(2))",
]

SNIPPETS = [_program(*row) for row in _PROGRAMS] + [_SHOW + p for p in _STATE_PROGRAMS] + _FOUND

# (reason, snippet): differences left alone
BUGS = [
    ("float32 pow differs from torch's vectorised one in the last bits (Kumaraswamy's "
     "transforms), not the stream",
     "torch.manual_seed(-7); x = torch.distributions.Kumaraswamy(2.0, 3.0).rsample((16,)); "
     "print(hash(tuple(x.tolist())))"),
    ("LKJCholesky's float32 arithmetic differs from torch's in the last bits for some "
     "samples, not the stream",
     "torch.manual_seed(0); x = torch.distributions.LKJCholesky(3, 0.5).sample((1000,)); "
     "print(hash(tuple(x.flatten().tolist())))"),
    ("ContinuousBernoulli's float32 icdf (log1p, log) differs from torch's vectorised "
     "functions in the last bits, not the stream",
     "torch.manual_seed(0); x = torch.distributions.ContinuousBernoulli(torch.rand(3) * 0.9 + 0.05)"
     ".sample((300,)); print(hash(tuple(x.flatten().tolist())))"),
    ("float32 log differs from torch's vectorised one in the last bits "
     "(gumbel_softmax's -log(exponential)), not the stream",
     "torch.manual_seed(0); x = torch.nn.functional.gumbel_softmax(torch.zeros(1000)); "
     "print(hash(tuple(x.tolist())))"),
]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=100)
