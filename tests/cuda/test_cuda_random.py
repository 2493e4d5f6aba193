"""CUDA random numbers: draws for CUDA tensors come from the device's own generator (torch keeps
the CPU and CUDA generators apart), seeding is lazy and never starts CUDA, and a process forked
after CUDA was started seeds silently but refuses to compute on CUDA, as torch does.

The replay and independence tests take `gpu` (a real GPU where there is one, else the fake);
the lazy-seeding and fork tests need the fake's bookkeeping.
"""
import multiprocessing

import numpy as np
import pytest

import ember
from ember import cuda
from ember.cuda import random as cuda_random

FORKED = "Cannot re-initialize CUDA in forked subprocess"


def _values(t):
    return t.cpu().tolist()


# -- one generator per device, apart from the CPU's -----------------------------------------------

def test_cuda_manual_seed_replays(gpu):
    cuda.manual_seed(0)
    a = ember.rand(5, device="cuda")
    cuda.manual_seed(0)
    b = ember.rand(5, device="cuda")
    assert a.is_cuda and _values(a) == _values(b)
    assert _values(ember.rand(5, device="cuda")) != _values(a)


def test_cuda_draws_leave_the_cpu_generator_alone(gpu):
    ember.manual_seed(3)
    want = ember.rand(3).tolist()
    ember.manual_seed(3)
    ember.rand(5, device="cuda")
    ember.randn(5, device="cuda")
    ember.randint(0, 9, (4,), device="cuda")
    ember.empty(6, device="cuda").uniform_()
    ember.nn.functional.dropout(ember.ones(8, device="cuda"), 0.5)
    assert ember.rand(3).tolist() == want


def test_cpu_draws_leave_the_cuda_generator_alone(gpu):
    cuda.manual_seed(4)
    want = _values(ember.rand(3, device="cuda"))
    cuda.manual_seed(4)
    ember.rand(5)
    ember.randn(5)
    assert _values(ember.rand(3, device="cuda")) == want


def test_the_cuda_seed_decides_cuda_draws(gpu):
    ember.manual_seed(0)
    cuda.manual_seed(1)
    a = _values(ember.rand(5, device="cuda"))
    ember.manual_seed(0)
    cuda.manual_seed(2)
    assert _values(ember.rand(5, device="cuda")) != a


def test_manual_seed_seeds_both(gpu):
    ember.manual_seed(5)
    a = _values(ember.randn(6, device="cuda")), ember.randn(2).tolist()
    ember.manual_seed(5)
    b = _values(ember.randn(6, device="cuda")), ember.randn(2).tolist()
    assert a == b


def test_cuda_rng_state_replays(gpu):
    cuda.manual_seed(123)
    ember.rand(7, device="cuda")
    state = cuda.get_rng_state()
    assert state.dtype == ember.uint8 and state.shape == (16,) and not state.is_cuda
    first = _values(ember.rand(5, device="cuda"))
    second = _values(ember.randn(40, device="cuda"))
    third = _values(ember.empty(9, device="cuda").exponential_())
    cuda.set_rng_state(state)
    assert _values(ember.rand(5, device="cuda")) == first
    assert _values(ember.randn(40, device="cuda")) == second
    assert _values(ember.empty(9, device="cuda").exponential_()) == third
    with pytest.raises(RuntimeError, match="RNG state is wrong size"):
        cuda.set_rng_state(ember.zeros(5, dtype=ember.uint8))


def test_a_cuda_generator(gpu):
    g = ember.Generator(device="cuda")
    assert isinstance(g, ember.Generator) and g.device == ember.device("cuda", 0)
    g.manual_seed(8)
    assert g.initial_seed() == 8
    cuda.manual_seed(1)
    default = _values(ember.rand(4, device="cuda"))
    cuda.manual_seed(1)
    a = _values(ember.rand(4, device="cuda", generator=g))
    assert _values(ember.rand(4, device="cuda")) == default      # the default one untouched
    g.manual_seed(8)
    assert _values(ember.rand(4, device="cuda", generator=g)) == a
    state = g.get_state()
    b = _values(ember.randn(3, device="cuda", generator=g))
    g.set_state(state)
    assert _values(ember.randn(3, device="cuda", generator=g)) == b


def test_generators_of_the_wrong_device_are_refused(gpu):
    wrong = "Expected a 'cuda' device type for generator but found 'cpu'"
    with pytest.raises(RuntimeError, match=wrong):
        ember.rand(3, device="cuda", generator=ember.Generator())
    with pytest.raises(RuntimeError, match="Expected a 'cuda' device type"):
        ember.empty(3, device="cuda").normal_(generator=ember.Generator())
    wrong = "Expected a 'cpu' device type for generator but found 'cuda'"
    with pytest.raises(RuntimeError, match=wrong):
        ember.rand(3, generator=ember.Generator(device="cuda"))


# -- the distributions of CUDA draws --------------------------------------------------------------

N = 20000


def _host(t):
    assert t.is_cuda
    return t.cpu().numpy()


@pytest.mark.parametrize("dtype", [ember.float16, ember.float32, ember.float64])
def test_cuda_uniform_and_normal(gpu, dtype):
    u = _host(ember.rand(N, device="cuda", dtype=dtype)).astype(np.float64)
    assert ((u >= 0) & (u < 1)).all()
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.005
    z = _host(ember.randn(N, device="cuda", dtype=dtype)).astype(np.float64)
    assert abs(z.mean()) < 0.03 and abs(z.std() - 1) < 0.03
    x = _host(ember.empty(N, device="cuda", dtype=dtype).uniform_(-2, 3)).astype(np.float64)
    assert ((x >= -2) & (x < 3)).all() and abs(x.mean() - 0.5) < 0.05
    y = _host(ember.empty(N, device="cuda", dtype=dtype).normal_(4, 0.5)).astype(np.float64)
    assert abs(y.mean() - 4) < 0.02 and abs(y.std() - 0.5) < 0.02
    mean = ember.full((N,), -3.0, device="cuda", dtype=dtype)
    w = _host(ember.normal(mean, 2.0)).astype(np.float64)
    assert abs(w.mean() + 3) < 0.06 and abs(w.std() - 2) < 0.06


def test_cuda_integers_and_permutations(gpu):
    k = _host(ember.randint(3, 10, (N,), device="cuda"))
    assert k.dtype == np.int64 and k.min() == 3 and k.max() == 9
    assert np.allclose(np.bincount(k - 3) / N, 1 / 7, atol=0.01)
    assert sorted(_host(ember.randperm(50, device="cuda")).tolist()) == list(range(50))


def test_cuda_bernoulli_dropout_and_multinomial(gpu):
    b = _host(ember.empty(N, device="cuda").bernoulli_(0.3))
    assert set(np.unique(b).tolist()) <= {0.0, 1.0} and abs(b.mean() - 0.3) < 0.015
    p = ember.full((N,), 0.8, device="cuda")
    assert abs(_host(ember.bernoulli(p)).mean() - 0.8) < 0.015
    kept = _host(ember.nn.functional.dropout(ember.ones(N, device="cuda"), 0.25))
    assert set(np.unique(kept).tolist()) == {0.0, float(np.float32(4 / 3))}
    assert abs((kept == 0).mean() - 0.25) < 0.015
    weights = ember.tensor([1.0, 0.0, 3.0], device="cuda")
    m = _host(ember.multinomial(weights, N, replacement=True))
    assert np.allclose(np.bincount(m, minlength=3) / N, [0.25, 0, 0.75], atol=0.015)


# -- lazy seeding (the fake's bookkeeping) --------------------------------------------------------

def test_seeding_does_not_start_cuda(fake_cuda):
    ember.manual_seed(5)
    cuda.manual_seed(6)
    cuda.manual_seed_all(7)
    cuda.seed()
    cuda.seed_all()
    cuda.set_rng_state(ember.zeros(16, dtype=ember.uint8))
    assert not fake_cuda._cuda_state["started"] and not cuda.is_initialized()


def test_a_seed_waits_for_cuda(fake_cuda):
    cuda.manual_seed(21)                    # before CUDA starts: recorded, run on first use
    a = _values(ember.rand(4, device="cuda"))
    assert cuda.initial_seed() == 21
    cuda.manual_seed(21)                    # CUDA started: at once
    assert _values(ember.rand(4, device="cuda")) == a
    cuda_random._pending[0] = None


def test_seeding_all_devices_supersedes_a_waiting_seed(fake_cuda):
    cuda.manual_seed(1)
    cuda.manual_seed_all(2)
    assert cuda.initial_seed() == 2
    cuda.set_device(1)
    assert cuda.initial_seed() == 2
    cuda.set_device(0)


def test_each_device_draws_on_its_own_generator(fake_cuda):
    cuda.manual_seed_all(9)
    a = ember.rand(4, device="cuda:1")
    assert a.device == ember.device("cuda", 1)
    b = _values(ember.rand(4, device="cuda:0"))
    assert _values(a) == b                   # the same seed on each device, each untouched


# -- fork after CUDA ------------------------------------------------------------------------------

class _Squares(ember.utils.data.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return ember.tensor([float(i * i)]) + 0 * ember.rand(1)


def _child_computes_on_cuda(conn):
    try:
        seeded = ember.manual_seed(3) is not None
        conn.send((seeded, cuda.is_initialized(), repr(ember.zeros(1, device="cuda"))))
    except Exception as e:                       # noqa: BLE001 (sent back to the test)
        conn.send((type(e).__name__, str(e)))
    conn.close()


def test_a_data_loader_forked_after_cuda_seeds_its_workers(fake_cuda):
    ember.ones(2, device="cuda").sum()           # CUDA started in this process
    ember.rand(2, device="cuda")
    loader = ember.utils.data.DataLoader(_Squares(), batch_size=2, num_workers=2,
                                         multiprocessing_context="fork")
    got = [b.tolist() for b in loader]
    assert got == [[[0.0], [1.0]], [[4.0], [9.0]], [[16.0], [25.0]]]


def test_a_child_forked_after_cuda_refuses_cuda(fake_cuda):
    ember.ones(2, device="cuda").sum()
    ctx = multiprocessing.get_context("fork")
    ours, theirs = ctx.Pipe()
    child = ctx.Process(target=_child_computes_on_cuda, args=(theirs,))
    child.start()
    result = ours.recv()
    child.join(10)
    assert result[0] == "RuntimeError" and result[1].startswith(FORKED)
    assert "'spawn' start method" in result[1]
    assert cuda.is_initialized()                 # the parent keeps CUDA


def test_the_fake_refuses_cuda_in_a_forked_child(fake_cuda):
    fake_cuda.runtime.getDevice()                # CUDA started
    ctx = multiprocessing.get_context("fork")
    ours, theirs = ctx.Pipe()

    def child():
        try:
            fake_cuda.random.RandomState(1)
            theirs.send("drew")
        except fake_cuda.cuda.CUDARuntimeError as e:
            theirs.send(str(e))

    p = ctx.Process(target=child)
    p.start()
    msg = ours.recv()
    p.join(10)
    assert "cudaErrorInitializationError" in msg


# -- values made on the device (NOTE [ Device samplers ] in _ops/sampling_cuda.py) ----------------

def _device_and_host(draw_device, draw_host, seed=11):
    """A draw on the device, and the host samplers' values from the same words."""
    from ember import _random
    g = ember.Generator(device="cuda").manual_seed(seed)
    got = _values(draw_device(g))
    g.manual_seed(seed)
    return np.asarray(got), np.asarray(draw_host(_random, g))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_device_uniform_and_normal_match_the_host_formulas(gpu, dtype):
    dt = getattr(ember, dtype)
    got, want = _device_and_host(lambda g: ember.rand(1000, generator=g, dtype=dt, device="cuda"),
                                 lambda r, g: r.uniform(g, (1000,), dt._np))
    assert np.array_equal(got, want.astype(np.float64))
    got, want = _device_and_host(
        lambda g: ember.empty(37, dtype=dt, device="cuda").uniform_(-2, 6, generator=g),
        lambda r, g: r.uniform(g, (37,), dt._np, -2, 6))
    assert np.array_equal(got, want.astype(np.float64))
    got, want = _device_and_host(
        lambda g: ember.empty(1000 + 7, dtype=dt, device="cuda").normal_(1, 0.5, generator=g),
        lambda r, g: r.normal(g, (1007,), dt._np, 1, 0.5))
    if dtype == "float64":          # (the device's log/sin/cos, not the host's libm)
        assert np.allclose(got, want, rtol=1e-13, atol=0)
    else:
        assert np.array_equal(got, want.astype(np.float64))


def test_device_integers_and_bernoulli_match_the_host_formulas(gpu):
    for low, high in ((3, 10), (-2**40, 2**40)):
        got, want = _device_and_host(
            lambda g: ember.randint(low, high, (500,), generator=g, device="cuda"),
            lambda r, g: r.randint(g, (500,), np.int64, low, high))
        assert np.array_equal(got, want)
    got, want = _device_and_host(
        lambda g: ember.empty(500, device="cuda").bernoulli_(0.3, generator=g),
        lambda r, g: r.bernoulli(g, 0.3, (500,), np.float32))
    assert np.array_equal(got, want)
    p = np.linspace(0, 1, 500, dtype=np.float32)
    got, want = _device_and_host(
        lambda g: ember.bernoulli(ember.tensor(p, device="cuda"), generator=g),
        lambda r, g: r.bernoulli(g, p, (500,), np.float32))
    assert np.array_equal(got, want)
    got, want = _device_and_host(
        lambda g: ember.normal(ember.zeros(40, device="cuda"), ember.full((40,), 2.0,
                               device="cuda"), generator=g),
        lambda r, g: r.normal(g, (40,), np.float32, np.zeros(40, np.float32),
                              np.full(40, 2.0, np.float32)))
    assert np.array_equal(got, want)


def test_hot_draws_on_cuda_make_no_host_copy(fake_cuda, monkeypatch):
    copies = []
    real_get, real_asnumpy = fake_cuda.ndarray.get, fake_cuda.asnumpy

    def get(self, *args, **kwargs):
        copies.append("get")
        return real_get(self, *args, **kwargs)

    def asnumpy(*args, **kwargs):
        copies.append("asnumpy")
        return real_asnumpy(*args, **kwargs)
    x = ember.ones(64, 32, device="cuda")
    ember.rand(1, device="cuda")                     # (start CUDA and the generator first)
    monkeypatch.setattr(fake_cuda.ndarray, "get", get)
    monkeypatch.setattr(fake_cuda, "asnumpy", asnumpy)
    draws = [ember.rand(64, 32, device="cuda"), ember.randn(64, 32, device="cuda"),
             ember.rand_like(x), ember.randn_like(x), x.clone().uniform_(), x.clone().normal_(),
             ember.randint(0, 7, (100,), device="cuda"), x.clone().random_(0, 9),
             ember.bernoulli(x * 0.5), x.clone().bernoulli_(0.2),
             ember.nn.functional.dropout(x, 0.3), ember.nn.functional.dropout2d(
                 ember.ones(4, 3, 5, 5, device="cuda"), 0.5)]
    assert all(t.is_cuda for t in draws)
    assert copies == []
    ember.randperm(5, device="cuda")                 # (still on the host: the check can fail)
    assert copies


def test_default_generators_are_each_devices_generator(gpu):
    ember.cuda.manual_seed_all(5)
    ember.rand(1, device="cuda")                      # starts CUDA
    gens = ember.cuda.default_generators
    assert isinstance(gens, tuple) and len(gens) == ember.cuda.device_count()
    assert all(g.device == ember.device("cuda", i) for i, g in enumerate(gens))
    assert gens[0].initial_seed() == 5
    state = gens[0].get_state()
    a = ember.rand(3, device="cuda")
    gens[0].set_state(state)
    assert ember.rand(3, device="cuda").tolist() == a.tolist()


@pytest.mark.skipif(ember.cuda.is_available(), reason="checks the CPU-only answer")
def test_default_generators_without_cuda_is_empty():
    assert ember.cuda.default_generators == ()


def test_fork_rng_restores_the_cuda_generators_too(gpu):
    # torch's fork_rng saves and restores every device of its device_type ("cuda") as well:
    # draws inside the block change nothing after it (reading a CUDA state starts a fresh
    # offset, NOTE [ CUDA generator state ], so both runs fork)
    def run(draw_inside, devices=None):
        ember.manual_seed(4)
        cuda.manual_seed_all(4)
        with ember.random.fork_rng(devices=devices):
            if draw_inside:
                ember.rand(3)
                ember.rand(3, device="cuda")
        return ember.rand(2).tolist(), _values(ember.rand(2, device="cuda"))
    assert run(True) == run(False)
    cpu, gpu_values = run(True, devices=[])         # the CPU's generator only
    assert (cpu, gpu_values) != run(False, devices=[]) and cpu == run(False, devices=[])[0]
