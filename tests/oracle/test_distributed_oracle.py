"""ember.distributed against torch.distributed (gloo, CPU build): the same programs run in
a world of processes under each (tests/oracle/distributed_world.py), and every rank must
print the same thing: values, dtypes, printed forms, error types and texts.
Skipped when torch is not installed."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")

HERE = pathlib.Path(__file__).resolve().parent
SRC = str(HERE.parents[1] / "src")


def _run(module, world, program, tmp_path):
    rdv = tmp_path / module
    rdv.mkdir()
    path = tmp_path / f"{module}.py"
    path.write_text(textwrap.dedent(program))
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, str(HERE / "distributed_world.py"), module,
                           str(world), str(path), str(rdv)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _compare(world, program, tmp_path):
    want = _run("torch", world, program, tmp_path)
    got = _run("ember", world, program, tmp_path)
    for rank, (w, g) in enumerate(zip(want, got)):
        assert g == w, f"rank {rank}:\n--- torch:\n{w}\n--- ember:\n{g}"


COLLECTIVES = """
dtypes = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.uint8,
          torch.int8, torch.int16, torch.int32, torch.int64, torch.complex64, torch.bool]
for dtype in dtypes:
    for op in ("SUM", "PRODUCT", "MIN", "MAX", "AVG", "BAND", "BOR", "BXOR"):
        t = torch.tensor([rank + 1, 3, rank * 5], dtype=dtype) if dtype != torch.bool \\
            else torch.tensor([rank == 0, True, False])
        catch(lambda: dist.all_reduce(t, op=getattr(dist.ReduceOp, op)))
        print(dtype, op, t)
x = torch.zeros(3, 2).t()
x.copy_(torch.arange(6.).reshape(2, 3) + rank)
dist.all_reduce(x); print(x, x.stride(), x.is_contiguous())
t = torch.arange(4.) * (rank + 1); dist.broadcast(t, src=1); print(t)
t = torch.tensor([rank + 2.]); dist.reduce(t, dst=0, op=dist.ReduceOp.PRODUCT); print(t)
parts = [torch.zeros(2, dtype=torch.int32) for _ in range(world)]
dist.all_gather(parts, torch.tensor([rank, -rank], dtype=torch.int32)); print(parts)
catch(lambda: dist.all_gather(parts, torch.tensor([rank, -rank], dtype=torch.int16)))
out = torch.zeros(2 * world); dist.all_gather_into_tensor(out, torch.tensor([rank, 9.]))
print(out)
catch(lambda: dist.all_gather_into_tensor(torch.zeros(world, 2), torch.tensor([rank, 9.])))
g = [torch.zeros(1) for _ in range(world)] if rank == 1 else None
dist.gather(torch.tensor([rank * 3.]), g, dst=1); print(g)
t = torch.zeros(2)
dist.scatter(t, [torch.tensor([j, 10. * j]) for j in range(world)] if rank == 0 else None,
             src=0); print(t)
t = torch.zeros(1)
dist.reduce_scatter(t, [torch.tensor([rank * 10. + j]) for j in range(world)]); print(t)
t = torch.zeros(2); dist.reduce_scatter_tensor(t, torch.arange(4.) + rank); print(t)
outs = [torch.zeros(1, dtype=torch.int64) for _ in range(world)]
dist.all_to_all(outs, [torch.tensor([rank * 10 + j]) for j in range(world)]); print(outs)
o = torch.zeros(4); dist.all_to_all_single(o, torch.arange(4.) + 100 * rank); print(o)
w = dist.all_reduce(t, async_op=True); print(w.wait(), w.is_completed(), t)
dist.barrier()
objs = [None] * world; dist.all_gather_object(objs, {"rank": rank, "t": (rank, "x")})
print(objs)
objs = [rank, None]; dist.broadcast_object_list(objs, src=1); print(objs)
got = [None]
dist.scatter_object_list(got, [[j] * j for j in range(world)] if rank == 0 else None, src=0)
print(got)
"""


def test_collectives(tmp_path):
    _compare(2, COLLECTIVES, tmp_path)


POINT_TO_POINT = """
other = 1 - rank
req = dist.irecv(t := torch.zeros(3), src=other)
dist.send(torch.tensor([rank, 1., 2.]), dst=other)
print(req.wait(), t, req.is_completed())
if rank == 0:
    dist.send(torch.tensor([5]), 1, tag=7)
    dist.send(torch.tensor([6]), 1, tag=8)
else:
    a, b = torch.zeros(1, dtype=torch.int64), torch.zeros(1, dtype=torch.int64)
    print(dist.recv(a, tag=7), dist.recv(b, 0, tag=8), a, b)
ops = [dist.P2POp(dist.isend, torch.tensor([rank * 2.]), other),
       dist.P2POp(dist.irecv, r := torch.zeros(1), other)]
for w in dist.batch_isend_irecv(ops):
    w.wait()
print(r)
"""


def test_point_to_point(tmp_path):
    _compare(2, POINT_TO_POINT, tmp_path)


ERRORS = """
print(dist.is_initialized(), dist.get_rank(), dist.get_world_size(), dist.get_backend())
catch(lambda: dist.all_reduce(torch.ones(2), op=dist.ReduceOp.BAND))
catch(lambda: dist.all_reduce(torch.ones(2, dtype=torch.complex64), op=dist.ReduceOp.MAX))
catch(lambda: dist.all_reduce([torch.ones(2)]))
catch(lambda: dist.all_gather([torch.zeros(2)], torch.zeros(2)))
catch(lambda: dist.all_gather([torch.zeros(2, 3)] * world, torch.zeros(3, 2)))
catch(lambda: dist.send(torch.ones(2), rank))
catch(lambda: dist.gather(torch.ones(1), dst=rank))
catch(lambda: dist.gather(torch.ones(1), [torch.ones(1)] * world, dst=1 - rank))
catch(lambda: dist.scatter(torch.ones(1), src=rank))
catch(lambda: dist.broadcast(torch.ones(1), src=world))
catch(lambda: dist.init_process_group("gloo"))
catch(lambda: dist.new_group([0, 1, 2]))
print(dist.group.WORLD.size(), dist.get_process_group_ranks(dist.group.WORLD))
"""


def test_errors(tmp_path):
    _compare(2, ERRORS, tmp_path)


GROUPS = """
g = dist.new_group([0, 2])
print(dist.get_rank(g), dist.get_world_size(g), g == dist.GroupMember.NON_GROUP_MEMBER)
t = torch.tensor([rank + 1.])
dist.all_reduce(t, group=g); print(t)
if rank != 1:
    print(dist.get_global_rank(g, 1), dist.get_group_rank(g, 2),
          dist.get_process_group_ranks(g))
    t = torch.tensor([rank * 1.]); dist.broadcast(t, src=2, group=g); print(t)
    objs = [None, None]; dist.all_gather_object(objs, rank, group=g); print(objs)
    try:
        dist.broadcast(t, src=1, group=g)
    except ValueError as e:                 # (the group's repr differs)
        print(str(e).split(" group ")[0])
everyone = dist.new_group()
t = torch.tensor([rank]); dist.all_reduce(t, group=everyone); print(t)
dist.barrier()
"""


def test_groups(tmp_path):
    _compare(3, GROUPS, tmp_path)


DDP = """
DDP = torch.nn.parallel.DistributedDataParallel
torch.manual_seed(rank)
model = DDP(torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)))
g = torch.Generator().manual_seed(1)
x, y = torch.randn(8, 3, generator=g), torch.randn(8, 1, generator=g)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x.chunk(2)[rank]), y.chunk(2)[rank])
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print([name for name, _ in model.named_parameters()])
for p in model.parameters():
    print(p.detach().mul(1e4).round().div(1e4))
with model.no_sync():
    model(x).sum().backward()
print(model.module[0].bias.grad.mul(1e4).round().div(1e4))
sampler = torch.utils.data.DistributedSampler(range(5), shuffle=False)
print(list(sampler), len(sampler))


class Branchy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(2, 1), torch.nn.Linear(2, 1)

    def forward(self, x, use_b):
        return self.a(x) + self.b(x) if use_b else self.a(x)


torch.manual_seed(0)
m = DDP(Branchy(), find_unused_parameters=True)
m(torch.ones(1, 2), rank == 0).sum().backward()
print(m.module.a.weight.grad, m.module.b.weight.grad)
m = DDP(Branchy())
m(torch.ones(1, 2), False).sum().backward()
catch(lambda: m(torch.ones(1, 2), False))
"""


def test_distributed_data_parallel(tmp_path):
    _compare(2, DDP, tmp_path)


JOIN = """
DDP = torch.nn.parallel.DistributedDataParallel
Join = torch.distributed.algorithms.Join
for divide, throw in ((True, False), (False, False), (True, True)):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3),
                              torch.nn.Linear(3, 1))
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    try:
        with model.join(divide_by_initial_world_size=divide, throw_on_early_termination=throw):
            for i in range(2 + 2 * rank):
                opt.zero_grad()
                model(torch.randn(4, 2, generator=g)).pow(2).sum().backward()
                print(i, net[2].weight.grad)
                opt.step()
    except RuntimeError as e:
        print("RuntimeError", e)
    print(net[2].weight, net[1].running_mean)
catch(lambda: Join([]))
print(isinstance(model, torch.distributed.algorithms.Joinable), model.join_process_group
      is dist.group.WORLD, model.join_device)
"""


def test_join(tmp_path):
    _compare(2, JOIN, tmp_path)
