"""Seeded random draws, run under real torch and under ember (`import ember as torch`): after
`manual_seed(0)` every snippet must print the same numbers, or the same exception.

randint/normal/rand*_like forms and dtypes, multinomial, bernoulli and the in-place samplers
(uniform_, normal_, exponential_, geometric_, log_normal_, cauchy_, random_ per dtype), poisson,
dropout variants, nn.init functions and layers' default initialisations, randperm, generators
and RNG state, shuffled DataLoaders, random_split and samplers, distributions' samples,
gumbel_softmax. `tests/oracle/differential.py` runs each snippet.
"""
import pytest

pytest.importorskip("torch")

from differential import cases, compare, one_torch_thread  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SEED = "torch.manual_seed(0); "

SNIPPETS = [SEED + s for s in [
    'print(torch.randint(10, (5,)))',
    'print(torch.randint(3, 10, (2, 3)))',
    'print(torch.randint(-5, 5, (4,), dtype=torch.int32))',
    'print(torch.randint(0, 2**40, (3,)))',
    'print(torch.randint(10, (3,), dtype=torch.float32))',
    'print(torch.randint(0, 256, (4,), dtype=torch.uint8))',
    'print(torch.randint_like(torch.zeros(3), 5))',
    'print(torch.randint_like(torch.zeros(3), 2, 5))',
    'print(torch.normal(torch.zeros(3), torch.ones(3)))',
    'print(torch.normal(2.0, 3.0, size=(3,)))',
    'print(torch.normal(torch.arange(4.), 1.0))',
    'print(torch.normal(0.0, torch.arange(1., 4.)))',
    'print(torch.rand_like(torch.zeros(2, 2, dtype=torch.float64)))',
    'print(torch.randn_like(torch.zeros(3)))',
    'print(torch.rand(3, dtype=torch.float16))',
    'print(torch.randn(3, dtype=torch.bfloat16))',
    'print(torch.rand(2, 3).t().contiguous())',
    'print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 5, replacement=True))',
    'print(torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.4]), 3))',
    'print(torch.multinomial(torch.tensor([[0.5, 0.5], [0.9, 0.1]]), 4, replacement=True))',
    'print(torch.bernoulli(torch.full((6,), 0.5)))',
    'print(torch.zeros(6).bernoulli_(0.3))',
    'print(torch.empty(4).uniform_(-2, 2))',
    'print(torch.empty(4).normal_(5, 0.1))',
    'print(torch.empty(4).exponential_(2.0))',
    'print(torch.empty(4).geometric_(0.3))',
    'print(torch.empty(4).log_normal_(0, 0.5))',
    'print(torch.empty(4).cauchy_())',
    'print(torch.empty(4).random_(0, 10))',
    'print(torch.empty(4).random_(7))',
    'print(torch.empty(3, dtype=torch.int64).random_())',
    'print(torch.poisson(torch.tensor([1.0, 5.0, 10.0])))',
    'print(torch.nn.functional.dropout(torch.ones(8), 0.5))',
    'print(torch.nn.Dropout(0.25)(torch.ones(2, 6)))',
    'print(torch.nn.functional.dropout2d(torch.ones(1, 4, 2, 2), 0.5).sum((2, 3)))',
    'print(torch.nn.functional.alpha_dropout(torch.ones(6), 0.5))',
    'print(torch.nn.functional.feature_alpha_dropout(torch.ones(1, 3, 2), 0.5))',
    'w = torch.empty(3, 4); torch.nn.init.kaiming_uniform_(w); print(w)',
    "w = torch.empty(3, 4); torch.nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'); print(w)",
    'w = torch.empty(3, 4); torch.nn.init.xavier_uniform_(w, gain=2.0); print(w)',
    'w = torch.empty(3, 4); torch.nn.init.xavier_normal_(w); print(w)',
    'w = torch.empty(3, 4); torch.nn.init.trunc_normal_(w, std=0.02); print(w)',
    'w = torch.empty(3, 4); torch.nn.init.orthogonal_(w); print(w)',
    'w = torch.empty(3, 4); torch.nn.init.sparse_(w, 0.5); print(w)',
    'w = torch.empty(2, 3, 3, 3); torch.nn.init.dirac_(w); print(w.sum())',
    'w = torch.empty(3, 4); torch.nn.init.uniform_(w, -1, 1); print(w)',
    'w = torch.empty(3, 4); torch.nn.init.normal_(w, 0, 2); print(w)',
    'print(torch.nn.Linear(3, 2).weight)',
    'print(torch.nn.Conv2d(1, 2, 2).weight)',
    'print(torch.nn.Embedding(4, 3).weight)',
    'print(torch.nn.LSTM(2, 3).weight_hh_l0[:2])',
    'print(torch.nn.GRU(2, 3).bias_ih_l0)',
    'print(torch.nn.MultiheadAttention(4, 2).in_proj_weight[:2])',
    'print(torch.nn.Bilinear(2, 2, 1).weight)',
    'print(torch.nn.PReLU().weight)',
    'print(torch.nn.BatchNorm1d(3).weight)',
    'print(torch.nn.TransformerEncoderLayer(4, 2, 8).linear1.weight[:1])',
    'print(torch.nn.ConvTranspose2d(2, 1, 2).weight)',
    'print(torch.randperm(10))',
    'print(torch.randperm(100000)[:5])',
    'print(torch.randperm(5, dtype=torch.float32))',
    'g = torch.Generator().manual_seed(3); print(torch.rand(3, generator=g))',
    'g = torch.Generator(); g.manual_seed(42); print(torch.randn(2, generator=g), g.initial_seed())',
    'g = torch.Generator().manual_seed(1); s = g.get_state(); a = torch.rand(2, generator=g); g.set_state(s); print(a == torch.rand(2, generator=g))',
    's = torch.get_rng_state(); a = torch.rand(2); torch.set_rng_state(s); print(torch.equal(a, torch.rand(2)))',
    'print(torch.initial_seed())',
    'print(torch.seed() > 0)',
    'ds = torch.utils.data.TensorDataset(torch.arange(10)); print([b[0].tolist() for b in torch.utils.data.DataLoader(ds, batch_size=3, shuffle=True)])',
    'print([list(s) for s in torch.utils.data.random_split(range(10), [3, 7])])',
    'print([list(s) for s in torch.utils.data.random_split(range(10), [0.5, 0.5], generator=torch.Generator().manual_seed(1))])',
    'print(list(torch.utils.data.WeightedRandomSampler([1, 2, 3], 5)))',
    'print(list(torch.utils.data.SubsetRandomSampler([5, 6, 7])))',
    'x = torch.rand(3); y = torch.randn(3); z = torch.randint(5, (3,)); print(x, y, z)',
    'print(torch.rand(0), torch.randn(2, 0))',
    'print(torch.distributions.Normal(0, 1).sample((3,)))',
    'print(torch.distributions.Categorical(torch.tensor([0.2, 0.8])).sample((5,)))',
    'print(torch.distributions.Uniform(0, 2).sample((3,)))',
    'print(torch.distributions.Bernoulli(0.3).sample((5,)))',
    'print(torch.distributions.Beta(2.0, 3.0).sample((2,)))',
    'print(torch.distributions.Gamma(2.0, 1.0).sample((2,)))',
    'print(torch.distributions.Dirichlet(torch.ones(3)).sample())',
    'print(torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2)).sample((2,)))',
    'print(torch.distributions.Poisson(3.0).sample((4,)))',
    'print(torch.distributions.Exponential(1.0).rsample((3,)))',
    'print(torch.distributions.Binomial(10, 0.3).sample((3,)))',
    'print(torch.distributions.Laplace(0., 1.).sample((3,)))',
    'print(torch.distributions.StudentT(3.0).sample((2,)))',
    'print(torch.distributions.OneHotCategorical(torch.tensor([0.5, 0.5])).sample((2,)))',
    'print(torch.distributions.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3])).rsample())',
    'print(torch.distributions.Geometric(0.3).sample((4,)))',
    'print(torch.distributions.LogNormal(0., 1.).sample((2,)))',
    'print(torch.distributions.Cauchy(0., 1.).sample((2,)))',
    'print(torch.distributions.Gumbel(0., 1.).sample((2,)))',
    'print(torch.nn.functional.gumbel_softmax(torch.zeros(4), tau=1.0))',
    'print(torch.nn.functional.gumbel_softmax(torch.zeros(4), hard=True))',
    "print(torch.rand(3, device='cpu', requires_grad=True))",
    'print(torch.randn(2, 2).uniform_().dtype)',
    'x = torch.ones(5); x[torch.randperm(5)[:2]] = 0; print(x)',
    'print(torch.rand(2, 2, 2)[torch.randint(0, 2, (3,))].shape)',
    'print(torch.randn(4).multinomial(2, replacement=True) if False else torch.randn(4).softmax(0).multinomial(2))',
    'print(torch.empty(3).uniform_(0, 1).dtype, torch.empty(3, dtype=torch.float64).uniform_(0, 1))',
    'print(torch.empty(2, dtype=torch.float16).normal_())',
    'print(torch.empty(3, dtype=torch.int32).random_(-3, 3))',
    'print(torch.empty(3, dtype=torch.bool).random_())',
    'print(torch.empty(3, dtype=torch.uint8).random_())',
    'print(torch.empty(3, dtype=torch.float64).random_())',
    'print(torch.empty(3, dtype=torch.float32).random_())',
    'print(torch.empty(2, dtype=torch.float16).random_())',
]]


@pytest.mark.parametrize("snippet", cases(SNIPPETS))
def test_snippet_prints_like_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected


def test_there_are_many_snippets():
    assert len(SNIPPETS) >= 100
    assert len(set(SNIPPETS)) == len(SNIPPETS)
