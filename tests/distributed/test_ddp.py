"""DistributedDataParallel and DistributedSampler in a world of 2 processes (one world for
the file), checked against one process doing the same work on the whole batch."""
import pytest

import ember
from ember.nn.parallel import DistributedDataParallel as DDP
from dist_runner import run_world

W = 2


def _model(seed):
    ember.manual_seed(seed)
    return ember.nn.Sequential(ember.nn.Linear(3, 4), ember.nn.Tanh(), ember.nn.Linear(4, 1))


def _data():
    g = ember.Generator().manual_seed(1)
    return ember.randn(8, 3, generator=g), ember.randn(8, 1, generator=g)


def _params(model):
    return [p.tolist() for p in model.parameters()]


def _train(model, xs, ys, steps=3):
    opt = ember.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        ember.nn.functional.mse_loss(model(xs), ys).backward()
        opt.step()


class _Branchy(ember.nn.Module):
    """`extra` is used on rank 0 only; `never` on no rank."""

    def __init__(self):
        super().__init__()
        self.main, self.extra, self.never = (ember.nn.Linear(2, 1) for _ in range(3))

    def forward(self, x, use_extra):
        y = self.main(x)
        return y + self.extra(x) if use_extra else y


def _program(rank, world_size):
    out = {}
    x, y = _data()
    xs, ys = x.chunk(W)[rank], y.chunk(W)[rank]
    model = DDP(_model(seed=10 + rank))       # each rank starts elsewhere: rank 0's wins
    out["keys"] = list(model.state_dict())[:2]
    out["start"] = _params(model.module)
    _train(model, xs, ys)
    out["trained"] = _params(model.module)

    model = DDP(_model(seed=10))
    model.zero_grad()
    halves = (xs[:2], ys[:2]), (xs[2:], ys[2:])
    with model.no_sync():
        ember.nn.functional.mse_loss(model(halves[0][0]), halves[0][1]).backward()
    out["local grad"] = model.module[0].weight.grad.tolist()
    ember.nn.functional.mse_loss(model(halves[1][0]), halves[1][1]).backward()
    out["accumulated grad"] = [p.grad.tolist() for p in model.parameters()]

    net = ember.nn.BatchNorm1d(2)
    net.running_mean.fill_(rank + 1.)
    model = DDP(net)
    out["buffer at start"] = net.running_mean.tolist()
    model(ember.full((4, 2), 3. * rank))
    out["buffer after forward"] = net.running_mean.tolist()
    model(ember.zeros(4, 2))                    # broadcast again first: rank 0's 1.2 -> 1.08
    out["buffer after second forward"] = net.running_mean.tolist()

    ember.manual_seed(0)
    model = DDP(_Branchy(), find_unused_parameters=True)
    model(ember.ones(1, 2), use_extra=rank == 0).sum().backward()
    m = model.module
    out["unused"] = (m.main.weight.grad.tolist(), m.extra.weight.grad.tolist(),
                     m.never.weight.grad)
    ember.manual_seed(0)
    model = DDP(_Branchy())
    model(ember.ones(1, 2), use_extra=True).sum().backward()
    try:
        model(ember.ones(1, 2), use_extra=True)
        out["unused error"] = None
    except RuntimeError as e:
        out["unused error"] = str(e)

    sampler = ember.utils.data.DistributedSampler(range(5), shuffle=False)
    out["sampler"] = (sampler.num_replicas, sampler.rank, list(sampler))
    return out


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    return run_world(_program, W, tmp_path_factory.mktemp("world"))


def test_construction_broadcasts_rank_0_and_prefixes_keys(seen):
    assert [s["start"] for s in seen] == [_params(_model(seed=10))] * W
    assert seen[0]["keys"] == ["module.0.weight", "module.0.bias"]


def test_two_processes_train_as_one_on_the_whole_batch(seen):
    model = _model(seed=10)
    _train(model, *_data())                     # the mean loss over all 8 rows
    assert seen[0]["trained"] == seen[1]["trained"]          # bit-identical on both ranks
    for got, want in zip(seen[0]["trained"], _params(model)):
        assert ember.allclose(ember.tensor(got), ember.tensor(want), atol=1e-6)


def test_no_sync_accumulates_then_averages(seen):
    x, y = _data()
    rows = [(x.chunk(W)[r], y.chunk(W)[r]) for r in range(W)]
    model = _model(seed=10)
    local = []
    for xs, ys in rows:
        model.zero_grad()
        ember.nn.functional.mse_loss(model(xs[:2]), ys[:2]).backward()
        local.append(model[0].weight.grad.tolist())
        ember.nn.functional.mse_loss(model(xs[2:]), ys[2:]).backward()
        local.append([p.grad.clone() for p in model.parameters()])
    assert [s["local grad"] for s in seen] == [local[0], local[2]]   # not averaged
    want = [(a + b) / 2 for a, b in zip(local[1], local[3])]
    assert seen[0]["accumulated grad"] == seen[1]["accumulated grad"]
    for got, w in zip(seen[0]["accumulated grad"], want):
        assert ember.allclose(ember.tensor(got), w, atol=1e-6)


def test_buffers_follow_rank_0(seen):
    assert [s["buffer at start"] for s in seen] == [[1., 1.]] * W
    # momentum 0.1 toward each rank's own batch mean (0 and 3) ...
    after = [0.9 * 1 + 0.1 * 3 * r for r in range(W)]
    assert [s["buffer after forward"] for s in seen] == [pytest.approx([a] * 2) for a in after]
    # ... and the next forward starts again from rank 0's (0.9), then moves toward 0
    assert [s["buffer after second forward"] for s in seen] == [pytest.approx([0.81] * 2)] * W


def test_find_unused_parameters(seen):
    ones = [[1., 1.]]
    # main: both ranks' gradient is ones; extra: rank 0's ones, rank 1's nothing -> halves
    assert [s["unused"] for s in seen] == [(ones, [[0.5, 0.5]], None)] * W


def test_unused_parameter_without_detection_raises(seen):
    # `never` is unused: its gradient never comes, so the reduction never finishes and the
    # next forward raises torch's error
    for s in seen:
        assert s["unused error"].startswith(
            "Expected to have finished reduction in the prior iteration before starting a new "
            "one. This error indicates that your module has parameters that were not used in "
            "producing loss.")


def test_distributed_sampler_reads_the_group(seen):
    assert [s["sampler"] for s in seen] == [(2, 0, [0, 2, 4]), (2, 1, [1, 3, 0])]
