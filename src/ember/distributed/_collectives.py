"""The collectives of the gloo backend: each is a few direct sends and receives between the
members of a group, keyed by the group's collective count (NOTE [ Distributed protocol ] in
`_transport.py`); reductions combine the members' tensors in group rank order
(`_reduce_op.combine`). Results are written into the caller's tensors in place."""
import numpy as np

from .. import _warn
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import no_grad
from ._group import _World, not_member, resolve
from ._reduce_op import ReduceOp, check_dtype, check_reduce_op, combine
from ._work import Work

__all__ = ["all_reduce", "broadcast", "reduce", "all_gather", "all_gather_into_tensor",
           "gather", "scatter", "reduce_scatter", "reduce_scatter_tensor", "all_to_all",
           "all_to_all_single", "barrier", "monitored_barrier"]


# -- arguments -------------------------------------------------------------------------------

def check_tensor(param, name):
    if not isinstance(param, Tensor):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type "
                        f"torch.Tensor\n             but got {type(param)} instead.")


def check_tensor_list(param, name):
    if not isinstance(param, list) or not all(isinstance(p, Tensor) for p in param):
        raise TypeError(f"Invalid function argument. Expected parameter `{name}` of type "
                        f"List[torch.Tensor]\n             but got {type(param)} instead.")


def root(pg, rank, group_rank, op_name):
    """The group rank of a root given as a global `rank` or as `group_rank` (default 0)."""
    if rank is not None and group_rank is not None:
        raise ValueError(f"Can only specify one of {op_name}'s global and group ranks")
    if group_rank is None:
        rank = 0 if rank is None else rank
        if pg is _World.default:
            group_rank = rank
        elif rank in pg._ranks:
            group_rank = pg._ranks.index(rank)
        else:
            raise ValueError(f"Global rank {rank} is not part of group {pg}")
    if not 0 <= group_rank < pg.size():
        raise RuntimeError(f"ProcessGroupGloo::{op_name}: invalid root rank: {group_rank}")
    return group_rank


def _dims(shape):
    return "(" + ", ".join(map(str, shape)) + ")"


def check_like(tensors, like, op_name, what="tensor"):
    """torch's gloo errors for a tensor in `tensors` whose dtype or size differs from `like`."""
    for i, t in enumerate(tensors):
        if t.dtype != like.dtype:
            raise RuntimeError(f"ProcessGroupGloo::{op_name}: invalid {what} type at index {i} "
                               f"(expected {like.dtype}, got {t.dtype})")
        if t.shape != like.shape:
            raise RuntimeError(f"ProcessGroupGloo::{op_name}: invalid tensor size at index {i} "
                               f"(expected {_dims(like.shape)}, got {_dims(t.shape)})")


def check_root_list(is_root, given, name, role):
    """torch's errors for a list (`gather_list`, `scatter_list`) the root must give and the
    other ranks must not; `role` is "destination" or "source"."""
    if is_root and not given:
        raise ValueError(f"Argument ``{name}`` must be specified on {role} rank.")
    if not is_root and given:
        raise ValueError(f"Argument ``{name}`` must NOT be specified on non-{role} ranks.")


def check_count(tensors, size, op_name, what):
    if len(tensors) != size:
        raise RuntimeError(f"ProcessGroupGloo::{op_name}: invalid {what} at index 0 (expected "
                           f"length {size}, got {len(tensors)})")


# -- moving arrays ---------------------------------------------------------------------------

def host(t):
    """The tensor's elements as a C-contiguous NumPy array of its shape (through host memory;
    NOTE: not `np.ascontiguousarray`, which makes a 0-dim array 1-dim)."""
    check_dtype(t.dtype)
    return np.asarray(t.detach().cpu()._data, order="C")


def write(t, array):
    """Write `array` into `t` in place (any strides, any device), outside autograd."""
    with no_grad():
        t.copy_(wrap(np.asarray(array, order="C")))


def send(pg, rank, key, array):
    """Send `array` to the process of global `rank`."""
    _World.mesh.send(rank, key, (str(array.dtype), array.shape),
                     array.reshape(-1).view(np.uint8))


def recv(pg, ranks, key, like, op_name):
    """(sender, array) for the next message under `key` from one of `ranks`, checked
    against `like` (a NumPy array of the expected dtype and shape)."""
    peer, (dtype, shape), payload = _World.mesh.recv(ranks, key, pg._timeout_s)
    if dtype != str(like.dtype) or tuple(shape) != like.shape:
        raise RuntimeError(f"ProcessGroupGloo::{op_name}: rank {peer} sent a tensor of dtype "
                           f"{dtype} and size {_dims(shape)} where this rank expects dtype "
                           f"{like.dtype} and size {_dims(like.shape)}")
    return peer, np.frombuffer(payload, like.dtype).reshape(shape)


def exchange(pg, key, outgoing, like, op_name):
    """Send `outgoing[j]` to each other member j (group ranks) and receive from each one a
    message like `like[j]`; returns the arrays by group rank (this rank's own: outgoing[me])."""
    me = pg.rank()
    for j, rank in enumerate(pg._ranks):
        if j != me:
            send(pg, rank, key, outgoing[j])
    got = []
    for j, rank in enumerate(pg._ranks):
        got.append(outgoing[me] if j == me else recv(pg, [rank], key, like[j], op_name)[1])
    return got


def run(pg, body, async_op, result=()):
    """Run `body(key)` now, or with `async_op` on the group's worker thread (a Work)."""
    key = pg._next_key()
    if async_op:
        return Work(future=pg._submit(lambda: body(key)), result=result)
    pg._drain()
    body(key)
    return None


# -- the collectives -------------------------------------------------------------------------

def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce `tensor` across the group with `op`; every member gets the result in place.

    >>> t = ember.tensor([rank + 1.]); dist.all_reduce(t)      # 3. on both of 2 ranks
    """
    check_tensor(tensor, "tensor")
    if not_member(group, "all_reduce"):
        return None
    pg = resolve(group)
    check_reduce_op(op, tensor.dtype, "all_reduce")

    def body(key):
        mine = host(tensor)
        arrays = exchange(pg, key, [mine] * pg.size(), [mine] * pg.size(), "allreduce")
        write(tensor, combine(arrays, op))
        if op is ReduceOp.AVG:
            with no_grad():
                tensor.div_(pg.size())
    return run(pg, body, async_op, [tensor])


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    """Copy `src`'s tensor into every member's `tensor`."""
    check_tensor(tensor, "tensor")
    if not_member(group, "broadcast"):
        return None
    pg = resolve(group)
    src = root(pg, src, group_src, "broadcast")

    def body(key):
        mine = host(tensor)
        if pg.rank() == src:
            for j, rank in enumerate(pg._ranks):
                if j != src:
                    send(pg, rank, key, mine)
        else:
            write(tensor, recv(pg, [pg._ranks[src]], key, mine, "broadcast")[1])
    return run(pg, body, async_op, [tensor])


def reduce(tensor, dst=None, op=ReduceOp.SUM, group=None, async_op=False, group_dst=None):
    """Reduce `tensor` across the group into `dst`'s tensor (the others are left as they
    are)."""
    check_tensor(tensor, "tensor")
    if not_member(group, "reduce"):
        return None
    pg = resolve(group)
    dst = root(pg, dst, group_dst, "reduce")
    check_reduce_op(op, tensor.dtype, "reduce")

    def body(key):
        mine = host(tensor)
        if pg.rank() != dst:
            send(pg, pg._ranks[dst], key, mine)
            return
        arrays = [mine if j == dst else recv(pg, [rank], key, mine, "reduce")[1]
                  for j, rank in enumerate(pg._ranks)]
        write(tensor, combine(arrays, op))
    return run(pg, body, async_op, [tensor])


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Every member's `tensor`, in group rank order, into every member's `tensor_list`."""
    check_tensor_list(tensor_list, "tensor_list")
    check_tensor(tensor, "tensor")
    if not_member(group, "all_gather"):
        return None
    pg = resolve(group)
    dtypes = [t.dtype for t in tensor_list + [tensor]]
    for dtype in dtypes:
        if dtype != dtypes[0]:
            raise ValueError(f"Invalid usage of tensors with different dtypesFound {dtypes[0]} "
                             f"and  {dtype}")
    check_count(tensor_list, pg.size(), "allgather", "output tensor list")
    check_like(tensor_list, tensor, "allgather")

    def body(key):
        mine = host(tensor)
        for out, array in zip(tensor_list, exchange(pg, key, [mine] * pg.size(),
                                                    [mine] * pg.size(), "allgather")):
            write(out, array)
    return run(pg, body, async_op, tensor_list)


def all_gather_single(output_tensor, input_tensor, group=None, async_op=False):
    """Every member's `input_tensor`, concatenated along dim 0 in group rank order, into
    `output_tensor` (gloo takes no stacked output, as in torch)."""
    check_tensor(output_tensor, "output_tensor")
    check_tensor(input_tensor, "input_tensor")
    if not_member(group, "all_gather_single"):
        return None
    pg = resolve(group)
    n = pg.size()
    shape, out_shape = tuple(input_tensor.shape), tuple(output_tensor.shape)
    piece = (out_shape[0] // n,) + out_shape[1:] if out_shape else ()
    if piece != shape or out_shape[0] % n:
        raise RuntimeError(f"ProcessGroupGloo::allgather: invalid tensor size at index 0 "
                           f"(expected {_dims(shape)}, got {_dims(piece)})")
    check_like([output_tensor], input_tensor.new_empty(out_shape), "allgather")

    def body(key):
        mine = host(input_tensor)
        write(output_tensor, np.concatenate(exchange(pg, key, [mine] * n, [mine] * n,
                                                     "allgather")))
    return run(pg, body, async_op, [output_tensor])


def gather(tensor, gather_list=None, dst=None, group=None, async_op=False, group_dst=None):
    """Every member's `tensor`, in group rank order, into `dst`'s `gather_list`."""
    check_tensor(tensor, "tensor")
    if gather_list:
        check_tensor_list(gather_list, "gather_list")
    if not_member(group, "gather"):
        return None
    pg = resolve(group)
    dst = root(pg, dst, group_dst, "gather")
    me = pg.rank()
    check_root_list(me == dst, gather_list, "gather_list", "destination")
    if me == dst:
        check_count(gather_list, pg.size(), "gather", "output tensor list")
        check_like(gather_list, tensor, "gather")

    def body(key):
        mine = host(tensor)
        if me != dst:
            send(pg, pg._ranks[dst], key, mine)
            return
        for j, (rank, out) in enumerate(zip(pg._ranks, gather_list)):
            write(out, mine if j == dst else recv(pg, [rank], key, mine, "gather")[1])
    return run(pg, body, async_op, gather_list or [])


def scatter(tensor, scatter_list=None, src=None, group=None, async_op=False, group_src=None):
    """`src`'s `scatter_list[j]` into member j's `tensor`."""
    check_tensor(tensor, "tensor")
    if scatter_list:
        check_tensor_list(scatter_list, "scatter_list")
    if not_member(group, "scatter"):
        return None
    pg = resolve(group)
    src = root(pg, src, group_src, "scatter")
    me = pg.rank()
    check_root_list(me == src, scatter_list, "scatter_list", "source")
    if me == src:
        check_count(scatter_list, pg.size(), "scatter", "input tensor list")
        check_like(scatter_list, tensor, "scatter")

    def body(key):
        if me != src:
            write(tensor, recv(pg, [pg._ranks[src]], key, host(tensor), "scatter")[1])
            return
        for j, (rank, part) in enumerate(zip(pg._ranks, scatter_list)):
            if j == src:
                write(tensor, host(part))
            else:
                send(pg, rank, key, host(part))
    return run(pg, body, async_op, [tensor])


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """Member j's `output` is `op` over the members' `input_list[j]`."""
    check_tensor(output, "output")
    check_tensor_list(input_list, "input_list")
    if not_member(group, "reduce_scatter"):
        return None
    pg = resolve(group)
    check_count(input_list, pg.size(), "reduce_scatter", "input tensor list")
    check_like(input_list, output, "reduce_scatter")
    check_reduce_op(op, output.dtype, "reduce_scatter")

    def body(key):
        parts = [host(t) for t in input_list]
        me = pg.rank()
        arrays = exchange(pg, key, parts, [parts[me]] * pg.size(), "reduce_scatter")
        write(output, combine(arrays, op))
    return run(pg, body, async_op, [output])


def reduce_scatter_single(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    """`reduce_scatter` of `input` cut along dim 0 into one piece per member."""
    check_tensor(output, "output")
    check_tensor(input, "input")
    if not_member(group, "reduce_scatter_single"):
        return None
    pg = resolve(group)
    n = pg.size()
    if output.dim() == 0 or input.dim() == 0 or output.shape[0] * n != input.shape[0]:
        a = (output.shape[0] if output.dim() else 1) * n
        b = input.shape[0] if input.dim() else 1
        raise RuntimeError(f"Check failed: outputShape[0] * worldSize == inputShape[0] "
                           f"({a} vs. {b})")
    return reduce_scatter(output, list(input.chunk(n)), op, group, async_op)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Member i's `input_tensor_list[j]` goes to member j's `output_tensor_list[i]`."""
    check_tensor_list(output_tensor_list, "output_tensor_list")
    check_tensor_list(input_tensor_list, "input_tensor_list")
    if not_member(group, "all_to_all"):
        return None
    pg = resolve(group)
    check_count(input_tensor_list, pg.size(), "alltoall", "input tensor list")
    check_count(output_tensor_list, pg.size(), "alltoall", "output tensor list")

    def body(key):
        parts = [host(t) for t in input_tensor_list]
        like = [host(t) for t in output_tensor_list]
        for out, array in zip(output_tensor_list, exchange(pg, key, parts, like, "alltoall")):
            write(out, array)
    return run(pg, body, async_op, output_tensor_list)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                      group=None, async_op=False):
    """`all_to_all` of `input` cut along dim 0 (equally, or by `input_split_sizes`) into
    `output` (cut by `output_split_sizes`)."""
    check_tensor(output, "output")
    check_tensor(input, "input")
    if not_member(group, "all_to_all_single"):
        return None
    pg = resolve(group)
    n = pg.size()

    def cut(t, sizes):
        if not sizes:
            if t.shape[0] % n:
                raise RuntimeError(f"Tensor's dim 0 does not divide equally across group "
                                   f"size")
            sizes = [t.shape[0] // n] * n
        return list(t.split(list(sizes)))
    outs, ins = cut(output, output_split_sizes), cut(input, input_split_sizes)
    return all_to_all(outs, ins, group, async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every member of the group has reached the barrier."""
    if not_member(group, "barrier"):
        return None
    pg = resolve(group)
    empty = np.zeros(0, np.uint8)
    return run(pg, lambda key: exchange(pg, key, [empty] * pg.size(), [empty] * pg.size(),
                                        "barrier"), async_op)


def monitored_barrier(group=None, timeout=None, wait_all_ranks=False):
    """A barrier through rank 0 that names the ranks that did not reach it in `timeout`."""
    if not_member(group, "monitored_barrier"):
        return None
    pg = resolve(group)
    timeout_s = pg._timeout_s if timeout is None else timeout.total_seconds()
    empty = np.zeros(0, np.uint8)
    key = pg._next_key()
    pg._drain()
    if pg.rank() != 0:
        send(pg, pg._ranks[0], key, empty)
        _World.mesh.recv([pg._ranks[0]], key, timeout_s)
        return None
    missing = []
    for j, rank in enumerate(pg._ranks[1:], 1):
        try:
            _World.mesh.recv([rank], key, timeout_s)
        except RuntimeError:
            if not wait_all_ranks:
                raise RuntimeError(f"Rank {j} failed to pass monitoredBarrier in "
                                   f"{round(timeout_s * 1000)} ms") from None
            missing.append(j)
    if missing:
        raise RuntimeError(f"Ranks {', '.join(map(str, missing))} failed to pass "
                           f"monitoredBarrier in {round(timeout_s * 1000)} ms")
    for rank in pg._ranks[1:]:
        send(pg, rank, key, empty)
    return None



# -- torch 2.13's deprecated names -------------------------------------------------------------

def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Deprecated: `all_gather_single`."""
    _warn.warn("`torch.distributed.all_gather_into_tensor` is deprecated. Please use "
               "`torch.distributed.all_gather_single` instead.", FutureWarning)
    return all_gather_single(output_tensor, input_tensor, group, async_op)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    """Deprecated: `reduce_scatter_single`."""
    _warn.warn("`torch.distributed.reduce_scatter_tensor` is deprecated. Please use "
               "`torch.distributed.reduce_scatter_single` instead.", FutureWarning)
    return reduce_scatter_single(output, input, op, group, async_op)
