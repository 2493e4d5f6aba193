"""Collectives, point-to-point transfers, groups and objects in a world of 3 processes
(one world for the whole file: each process runs every check and reports what it saw;
the tests compare with values worked out by hand)."""
import warnings
from datetime import timedelta

import pytest

import ember
import ember.distributed as dist
from dist_runner import run_world

W = 3
DTYPES = ["float32", "float64", "float16", "bfloat16", "uint8", "int8", "int32", "int64",
          "complex64", "complex128"]


def _seen(t):
    return (str(t.dtype), t.tolist())


def _caught(fn):
    try:
        fn()
    except Exception as e:                  # what the test expects is checked by the test
        return (type(e).__name__, str(e))
    return None


def _reductions(rank, out):
    for name in DTYPES:
        dtype = getattr(ember, name)
        ops = ["SUM", "AVG"] if dtype.is_complex else ["SUM", "PRODUCT", "MIN", "MAX"]
        ops += ["AVG"] if dtype.is_floating_point else []
        for op in ops:
            t = ember.tensor([rank + 1, 1], dtype=dtype)
            dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
            out[f"all_reduce {name} {op}"] = _seen(t)
    for op in ("SUM", "PRODUCT", "MIN", "MAX", "BOR", "BAND", "BXOR"):
        t = ember.tensor([rank == 1, False, True])
        dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
        out[f"all_reduce bool {op}"] = _seen(t)
    for op in ("BAND", "BOR", "BXOR"):
        t = ember.tensor([rank + 1, rank + 5])
        dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
        out[f"all_reduce int64 {op}"] = _seen(t)
    t = ember.tensor([rank + 1, 1])
    out["int AVG"] = (_caught(lambda: dist.all_reduce(t, op=dist.ReduceOp.AVG)), t.tolist())
    out["int16"] = _caught(lambda: dist.all_reduce(ember.ones(1, dtype=ember.int16)))
    base = ember.zeros(3, 2)
    x = base.t()                            # non-contiguous: strides (1, 2)
    x.copy_(ember.arange(6.).reshape(2, 3) + rank * 10)
    dist.all_reduce(x)
    out["non-contiguous"] = (x.tolist(), x.stride(), base.tolist())
    p = ember.ones(2, requires_grad=True)
    dist.all_reduce(p)
    out["leaf requiring grad"] = (p.tolist(), p.requires_grad, p.grad_fn is None)


def _others(rank, out):
    t = ember.arange(4.) + rank * 10
    dist.broadcast(t, src=2)
    out["broadcast"] = t.tolist()
    t = ember.tensor([rank + 1.])
    dist.reduce(t, dst=1)
    out["reduce"] = t.tolist()
    t = ember.tensor([rank + 1.])
    dist.reduce(t, dst=0, op=dist.ReduceOp.MAX)
    out["reduce max"] = t.tolist()
    parts = [ember.zeros(2, dtype=ember.int32) for _ in range(W)]
    dist.all_gather(parts, ember.tensor([rank, rank * rank], dtype=ember.int32))
    out["all_gather"] = [p.tolist() for p in parts]
    flat = ember.zeros(2 * W)
    dist.all_gather_into_tensor(flat, ember.tensor([rank, -rank], dtype=ember.float32))
    out["all_gather_into_tensor"] = flat.tolist()
    gathered = [ember.zeros(1) for _ in range(W)] if rank == 0 else None
    dist.gather(ember.tensor([rank * 2.]), gathered, dst=0)
    out["gather"] = None if gathered is None else [g.tolist() for g in gathered]
    t = ember.zeros(1)
    dist.scatter(t, [ember.tensor([10. * j + 1]) for j in range(W)] if rank == 1 else None,
                 src=1)
    out["scatter"] = t.tolist()
    t = ember.zeros(1)
    dist.reduce_scatter(t, [ember.tensor([rank * 10. + j]) for j in range(W)])
    out["reduce_scatter"] = t.tolist()
    t = ember.zeros(2)
    dist.reduce_scatter_tensor(t, ember.arange(6.) + rank * 100)
    out["reduce_scatter_tensor"] = t.tolist()
    outs = [ember.zeros(1, dtype=ember.int64) for _ in range(W)]
    dist.all_to_all(outs, [ember.tensor([rank * 10 + j]) for j in range(W)])
    out["all_to_all"] = [o.tolist() for o in outs]
    o = ember.zeros(3 * (rank + 1))
    dist.all_to_all_single(o, ember.arange(6.) + rank * 100, output_split_sizes=[rank + 1] * W,
                           input_split_sizes=[1, 2, 3])
    out["all_to_all_single"] = o.tolist()
    dist.barrier()
    dist.monitored_barrier(timeout=timedelta(seconds=20))


def _async_and_p2p(rank, out):
    t = ember.tensor([rank + 1.])
    work = dist.all_reduce(t, async_op=True)
    work.wait()
    out["async"] = (t.tolist(), work.is_completed(), work.is_success(), work.result()[0] is t)
    # a ring: each rank posts its receive before sending, as torch's tutorial does
    t = ember.zeros(2)
    req = dist.irecv(t, src=(rank - 1) % W)
    dist.isend(ember.tensor([rank, 7.]), dst=(rank + 1) % W).wait()
    req.wait()
    out["ring"] = (t.tolist(), req.is_completed())
    if rank == 0:                           # tags keep messages apart, whatever the order
        dist.send(ember.tensor([1.]), 1, tag=1)
        dist.send(ember.tensor([2.]), 1, tag=2)
        dist.send(ember.tensor([3.]), 2)
    elif rank == 1:
        a, b = ember.zeros(1), ember.zeros(1)
        dist.recv(b, 0, tag=2)
        dist.recv(a, 0, tag=1)
        out["tags"] = (a.tolist(), b.tolist())
    else:
        t = ember.zeros(1)
        out["any source"] = (dist.recv(t), t.tolist())
    # (tag 5: a tag-0 message from rank 1 could answer rank 2's any-source receive above)
    works = dist.batch_isend_irecv([dist.P2POp(dist.isend, ember.tensor([rank * 1.]),
                                               (rank + 1) % W, tag=5),
                                    dist.P2POp(dist.irecv, t := ember.zeros(1),
                                               (rank - 1) % W, tag=5)])
    for w in works:
        w.wait()
    out["batch_isend_irecv"] = t.tolist()


def _groups_and_objects(rank, out):
    g = dist.new_group([0, 2])
    out["group ranks"] = (dist.get_rank(g), dist.get_world_size(g))
    t = ember.tensor([rank + 1.])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist.all_reduce(t, group=g)
    out["group all_reduce"] = (t.tolist(), [str(w.message) for w in caught])
    if g is not dist.GroupMember.NON_GROUP_MEMBER:
        out["group maps"] = (dist.get_global_rank(g, 1), dist.get_group_rank(g, 2),
                             dist.get_process_group_ranks(g))
        t = ember.tensor([rank * 1.])
        dist.broadcast(t, src=2, group=g)
        out["group broadcast"] = t.tolist()
    objs = [None] * W
    dist.all_gather_object(objs, {"rank": rank, "sq": [rank] * rank})
    out["all_gather_object"] = objs
    objs = [rank, "x"] if rank == 1 else [None, None]
    dist.broadcast_object_list(objs, src=1)
    out["broadcast_object_list"] = objs
    objs = [None] * W if rank == 2 else None
    dist.gather_object(("r", rank), objs, dst=2)
    out["gather_object"] = objs
    got = [None]
    dist.scatter_object_list(got, [{"to": j} for j in range(W)] if rank == 0 else None, src=0)
    out["scatter_object_list"] = got[0]


def _errors(rank, out):
    out["band float"] = _caught(lambda: dist.all_reduce(ember.ones(1),
                                                        op=dist.ReduceOp.BAND))
    out["max complex"] = _caught(lambda: dist.all_reduce(ember.ones(1, dtype=ember.complex64),
                                                         op=dist.ReduceOp.MAX))
    out["list length"] = _caught(lambda: dist.all_gather([ember.zeros(1)], ember.zeros(1)))
    out["list sizes"] = _caught(lambda: dist.all_gather([ember.zeros(2, 3)] * W,
                                                        ember.zeros(3, 2)))
    out["not a tensor"] = _caught(lambda: dist.all_reduce([ember.ones(1)]))
    out["send to self"] = _caught(lambda: dist.send(ember.ones(1), rank))
    out["gather_list"] = _caught(lambda: dist.gather(ember.ones(1), dst=rank))
    out["root"] = _caught(lambda: dist.broadcast(ember.ones(1), src=W))
    if rank == 0:
        dist.send(ember.ones(3, dtype=ember.float64), 1)
    elif rank == 1:
        out["recv mismatch"] = _caught(lambda: dist.recv(ember.zeros(3), 0))
    fast = dist.new_group(timeout=timedelta(seconds=0.3))
    if rank == 2:
        out["timeout"] = _caught(lambda: dist.recv(ember.zeros(1), 0, group=fast))
    dist.barrier()


def _program(rank, world_size):
    out = {"world": (dist.get_rank(), dist.get_world_size(), dist.get_backend(),
                     dist.is_initialized(), dist.group.WORLD.size())}
    for part in (_reductions, _others, _async_and_p2p, _groups_and_objects, _errors):
        part(rank, out)
    return out


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    return run_world(_program, W, tmp_path_factory.mktemp("world"))


def _each(seen, key):
    return [s.get(key) for s in seen]


def test_world(seen):
    assert _each(seen, "world") == [(r, W, "gloo", True, W) for r in range(W)]


@pytest.mark.parametrize("name", DTYPES)
def test_all_reduce_every_dtype(seen, name):
    dtype = getattr(ember, name)
    # members hold [r + 1, 1] for r = 0, 1, 2
    want = {"SUM": [6, 3], "PRODUCT": [6, 1], "MIN": [1, 1], "MAX": [3, 1], "AVG": [2, 1]}
    for op, values in want.items():
        if (dtype.is_complex and op in ("PRODUCT", "MIN", "MAX")) or \
                (op == "AVG" and not (dtype.is_floating_point or dtype.is_complex)):
            continue
        expected = ember.tensor(values, dtype=dtype).tolist()
        assert _each(seen, f"all_reduce {name} {op}") == [(str(dtype), expected)] * W, op


def test_all_reduce_bool_and_bitwise(seen):
    # bool members: [r == 1, False, True]
    want = {"SUM": [True, False, True], "PRODUCT": [False, False, True],
            "MIN": [False, False, True], "MAX": [True, False, True],
            "BOR": [True, False, True], "BAND": [False, False, True],
            "BXOR": [True, False, True]}
    for op, values in want.items():
        assert _each(seen, f"all_reduce bool {op}") == [("torch.bool", values)] * W, op
    # int members: [r + 1, r + 5]: 1&2&3, 5&6&7 ...
    assert _each(seen, "all_reduce int64 BAND") == [("torch.int64", [0, 4])] * W
    assert _each(seen, "all_reduce int64 BOR") == [("torch.int64", [3, 7])] * W
    assert _each(seen, "all_reduce int64 BXOR") == [("torch.int64", [0, 4])] * W


def test_gloo_limits(seen):
    # AVG sums, then divides in place: an integer tensor keeps the sum and the error is
    # the in-place division's; gloo moves no int16
    assert _each(seen, "int AVG") == [(("RuntimeError", "result type Float can't be cast to "
                                        "the desired output type Long"), [6, 3])] * W
    assert _each(seen, "int16") == [("RuntimeError", "Invalid scalar type")] * W


def test_results_land_in_the_callers_tensor(seen):
    # x[i][j] = 3 i + j + 10 r, summed over r = 0, 1, 2: 3 (3 i + j) + 30
    x = [[3 * (3 * i + j) + 30. for j in range(3)] for i in range(2)]
    base = [list(col) for col in zip(*x)]
    assert _each(seen, "non-contiguous") == [(x, (1, 2), base)] * W
    assert _each(seen, "leaf requiring grad") == [([3., 3.], True, True)] * W


def test_rooted_collectives(seen):
    assert _each(seen, "broadcast") == [[20., 21., 22., 23.]] * W
    assert _each(seen, "reduce") == [[1.], [6.], [3.]]            # only dst=1 changes
    assert _each(seen, "reduce max") == [[3.], [2.], [3.]]
    assert _each(seen, "gather") == [[[0.], [2.], [4.]], None, None]
    assert _each(seen, "scatter") == [[1.], [11.], [21.]]


def test_gathers_and_scatters(seen):
    assert _each(seen, "all_gather") == [[[0, 0], [1, 1], [2, 4]]] * W
    flat = [0., 0., 1., -1., 2., -2.]
    assert _each(seen, "all_gather_into_tensor") == [flat] * W
    # rank j: sum over r of 10 r + j
    assert _each(seen, "reduce_scatter") == [[30. + 3 * j] for j in range(W)]
    # rank j: sum over r of [2j, 2j + 1] + 100 r
    assert _each(seen, "reduce_scatter_tensor") == [[6. * j + 300, 6. * j + 303]
                                                    for j in range(W)]
    assert _each(seen, "all_to_all") == [[[i * 10 + r] for i in range(W)] for r in range(W)]
    # rank i sends elements [1, 2, 3]-split of 100 i + arange(6); rank r gets piece r
    offsets = [0, 1, 3]
    want = [[100. * i + offsets[r] + k for i in range(W) for k in range(r + 1)]
            for r in range(W)]
    assert _each(seen, "all_to_all_single") == want


def test_async_and_point_to_point(seen):
    assert _each(seen, "async") == [([6.], True, True, True)] * W
    assert _each(seen, "ring") == [([(r - 1) % W, 7.], True) for r in range(W)]
    assert _each(seen, "tags")[1] == ([1.], [2.])
    assert _each(seen, "any source")[2] == (0, [3.])
    assert _each(seen, "batch_isend_irecv") == [[(r - 1) % W * 1.] for r in range(W)]


def test_groups(seen):
    assert _each(seen, "group ranks") == [(0, 2), (-1, -1), (1, 2)]
    values = [r for r, _ in _each(seen, "group all_reduce")]
    assert values == [[4.], [2.], [4.]]                          # rank 1 is outside
    warned = [w for _, w in _each(seen, "group all_reduce")]
    assert warned == [[], ["Running all_reduce on global rank 1 which does not belong to the "
                           "given group."], []]
    assert _each(seen, "group maps") == [(2, 1, [0, 2]), None, (2, 1, [0, 2])]
    assert _each(seen, "group broadcast") == [[2.], None, [2.]]


def test_objects(seen):
    everyone = [{"rank": r, "sq": [r] * r} for r in range(W)]
    assert _each(seen, "all_gather_object") == [everyone] * W
    assert _each(seen, "broadcast_object_list") == [[1, "x"]] * W
    assert _each(seen, "gather_object") == [None, None, [("r", r) for r in range(W)]]
    assert _each(seen, "scatter_object_list") == [{"to": r} for r in range(W)]


def test_errors(seen):
    assert _each(seen, "band float") == [
        ("RuntimeError", "Cannot use ReduceOp.BAND with non-integral dtype")] * W
    assert _each(seen, "max complex") == [
        ("ValueError", "all_reduce does not support RedOpType.MAX on complex tensors")] * W
    assert _each(seen, "list length") == [
        ("RuntimeError", "ProcessGroupGloo::allgather: invalid output tensor list at index 0 "
                         "(expected length 3, got 1)")] * W
    assert _each(seen, "list sizes") == [
        ("RuntimeError", "ProcessGroupGloo::allgather: invalid tensor size at index 0 "
                         "(expected (3, 2), got (2, 3))")] * W
    kind, text = _each(seen, "not a tensor")[0]
    assert kind == "TypeError" and text.startswith(
        "Invalid function argument. Expected parameter `tensor` of type torch.Tensor")
    assert _each(seen, "send to self") == [
        ("ValueError", "Invalid destination rank: destination rank should not be the same as "
                       "the rank of the current process.")] * W
    assert _each(seen, "gather_list") == [
        ("ValueError", "Argument ``gather_list`` must be specified on destination rank.")] * W
    assert _each(seen, "root") == [
        ("RuntimeError", "ProcessGroupGloo::broadcast: invalid root rank: 3")] * W
    kind, text = _each(seen, "recv mismatch")[1]
    assert kind == "RuntimeError" and "rank 0 sent a tensor of dtype float64" in text
    assert _each(seen, "timeout")[2] == (
        "RuntimeError", "Timed out waiting 300ms for recv operation to complete")
