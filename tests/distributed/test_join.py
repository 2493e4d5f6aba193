"""Join (torch.distributed.algorithms) and DistributedDataParallel.join() in a world of 2
processes with inputs of uneven length: rank 0 has 2 batches, rank 1 has 4 (one world for
the file), checked against one process doing the same arithmetic."""
import pytest

import ember
import ember.distributed as dist
from ember.distributed.algorithms import Join, Joinable, JoinHook
from ember.nn.parallel import DistributedDataParallel as DDP
from dist_runner import run_world

W = 2
STEPS = (2, 4)          # batches per rank


def _model():
    ember.manual_seed(0)
    return ember.nn.Sequential(ember.nn.Linear(2, 3), ember.nn.Tanh(), ember.nn.Linear(3, 1))


def _batches(rank):
    g = ember.Generator().manual_seed(rank)
    return [ember.randn(4, 2, generator=g) for _ in range(STEPS[rank])]


def _loss(model, x):
    return model(x).pow(2).mean()


def _params(model):
    return [p.tolist() for p in model.parameters()]


class _Counter(Joinable):
    """A joinable that all-reduces a one each iteration; its hook answers with a zero."""

    def __init__(self):
        super().__init__()
        self.sums, self.last = [], None

    def step(self):
        Join.notify_join_context(self)
        t = ember.ones(1)
        dist.all_reduce(t)
        self.sums.append(t.item())

    def join_hook(self, **kwargs):
        counter = self

        class Hook(JoinHook):
            def main_hook(self):
                dist.all_reduce(ember.zeros(1))

            def post_hook(self, is_last_joiner):
                counter.last = is_last_joiner
        return Hook()

    @property
    def join_device(self):
        return ember.device("cpu")

    @property
    def join_process_group(self):
        return dist.group.WORLD


def _train(rank, **join_args):
    model = DDP(_model())
    opt = ember.optim.SGD(model.parameters(), lr=0.5)
    grads = []
    with model.join(**join_args):
        for x in _batches(rank):
            opt.zero_grad()
            _loss(model, x).backward()
            grads.append([p.grad.tolist() for p in model.parameters()])
            opt.step()
    return grads, _params(model.module)


def _program(rank, world_size):
    out = {"default": _train(rank), "running": _train(rank, divide_by_initial_world_size=False)}
    model = DDP(_model())
    try:
        with model.join(throw_on_early_termination=True):
            for x in _batches(rank):
                _loss(model, x).backward()
        out["throw"] = None
    except RuntimeError as e:
        out["throw"] = str(e)

    bn = ember.nn.BatchNorm1d(1)
    model = DDP(bn)
    with model.join():
        for i in range(STEPS[rank]):
            x = ember.full((2, 1), float(10 * rank + i)) + ember.tensor([[0.], [1.]])
            model(x).sum().backward()
    out["running_mean"] = bn.running_mean.item()

    counter = _Counter()
    with Join([counter]):
        for _ in range(STEPS[rank]):
            counter.step()
    out["counter"] = (counter.sums, counter.last)
    return out


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    return run_world(_program, W, tmp_path_factory.mktemp("world"))


def _reference(divide_by_initial_world_size):
    """One process: average the running ranks' gradients, divided by W or by their count."""
    model = _model()
    opt = ember.optim.SGD(model.parameters(), lr=0.5)
    batches = [_batches(r) for r in range(W)]
    grads = []
    for i in range(max(STEPS)):
        running = [b[i] for b in batches if i < len(b)]
        total = [ember.zeros_like(p) for p in model.parameters()]
        for x in running:
            model.zero_grad()
            _loss(model, x).backward()
            total = [t + p.grad for t, p in zip(total, model.parameters())]
        n = W if divide_by_initial_world_size else len(running)
        for p, t in zip(model.parameters(), total):
            p.grad = t / n
        grads.append([p.grad for p in model.parameters()])
        opt.step()
    return grads, _params(model)


@pytest.mark.parametrize("key, divide", [("default", True), ("running", False)])
def test_uneven_inputs_train_as_the_running_ranks_together(seen, key, divide):
    want_grads, want_params = _reference(divide)
    for rank, s in enumerate(seen):
        grads, params = s[key]
        assert len(grads) == STEPS[rank]
        for got, want in zip(grads, want_grads):
            for g, w in zip(got, want):
                assert ember.allclose(ember.tensor(g), w, atol=1e-6)
        for got, want in zip(params, want_params):        # the last joiner's, on every rank
            assert ember.allclose(ember.tensor(got), ember.tensor(want), atol=1e-6)
    assert seen[0][key][1] == seen[1][key][1]


def test_throw_on_early_termination(seen):
    assert seen[0]["throw"] == "Rank 0 exhausted all inputs."
    assert seen[1]["throw"] == ("Detected at least one rank that exhausted inputs. Throwing "
                                "across all ranks.")


def test_buffers_come_from_the_highest_running_rank(seen):
    # each forward starts from rank 1's buffers; rank 1's batches have means 10.5 .. 13.5;
    # at the end every rank takes the last joiner's (rank 1's)
    mean = 0.
    for i in range(STEPS[1]):
        mean = 0.9 * mean + 0.1 * (10 + i + 0.5)
    assert [s["running_mean"] for s in seen] == [pytest.approx(mean)] * W


def test_generic_join_counts_running_processes(seen):
    assert seen[0]["counter"] == ([2., 2.], False)
    assert seen[1]["counter"] == ([2., 2., 1., 1.], True)


def test_join_needs_a_joinable():
    with pytest.raises(ValueError, match="^The join context manager requires at least one "
                                         "joinable$"):
        Join([])


def test_notify_checks_the_joinable_constructor():
    class Forgetful(_Counter):
        def __init__(self):
            pass            # never runs Joinable.__init__
    with pytest.raises(AssertionError, match="constructor calls the ``Joinable`` constructor"):
        Join.notify_join_context(Forgetful())
