"""Point-to-point transfers: `send`/`recv`, `isend`/`irecv` and `batch_isend_irecv`.
A message goes straight to its receiver's mailbox under ("p2p", group, tag), so sends never
wait (NOTE [ Distributed protocol ] in `_transport.py`); a receive takes the oldest one."""
from ._collectives import check_tensor, host, recv as _recv_from, send as _send_to, write
from ._group import _World, not_member, resolve
from ._work import Work

__all__ = ["send", "recv", "isend", "irecv", "P2POp", "batch_isend_irecv"]


def _peer(pg, rank, group_rank, what):
    """The global rank of a peer given as a global `rank` or as a `group_rank`."""
    if group_rank is not None:
        return pg._ranks[group_rank]
    if rank is None:
        return None
    if rank not in pg._ranks:
        raise ValueError(f"Global rank {rank} is not part of group {pg}")
    if rank == _World.mesh.rank:
        raise ValueError(f"Invalid {what} rank: {what} rank should not be the same as the "
                         f"rank of the current process.")
    return rank


def send(tensor, dst=None, group=None, tag=0, group_dst=None):
    """Send `tensor` to the process `dst` (a global rank), under `tag`."""
    check_tensor(tensor, "tensor")
    if not_member(group, "send"):
        return None
    pg = resolve(group)
    dst = _peer(pg, dst, group_dst, "destination")
    _send_to(pg, dst, ("p2p", pg._name, tag), host(tensor))
    return None


def _receiver(tensor, src, group, tag, group_src):
    """(function doing the receive and giving the sender, function asking if it is here)."""
    pg = resolve(group)
    src = _peer(pg, src, group_src, "source")
    peers = [r for r in pg._ranks if r != _World.mesh.rank] if src is None else [src]
    key = ("p2p", pg._name, tag)

    def receive():
        sender, array = _recv_from(pg, peers, key, host(tensor), "recv")
        write(tensor, array)
        return sender

    def ready():
        return any(_World.mesh.ready(p, key) for p in peers)
    return receive, ready


def recv(tensor, src=None, group=None, tag=0, group_src=None):
    """Receive into `tensor` from `src` (any member with None); returns the sender's rank."""
    check_tensor(tensor, "tensor")
    if not_member(group, "recv"):
        return -1
    return _receiver(tensor, src, group, tag, group_src)[0]()


def isend(tensor, dst=None, group=None, tag=0, group_dst=None):
    """`send`, returning a Work (the message is on its way when it returns)."""
    check_tensor(tensor, "tensor")
    if not_member(group, "isend"):
        return None
    send(tensor, dst, group, tag, group_dst)
    return Work(result=[tensor])


def irecv(tensor, src=None, group=None, tag=0, group_src=None):
    """A Work whose `wait()` receives into `tensor` (`is_completed()`: whether the message
    has arrived)."""
    check_tensor(tensor, "tensor")
    if not_member(group, "irecv"):
        return None
    receive, ready = _receiver(tensor, src, group, tag, group_src)
    return Work(run=receive, ready=ready, result=[tensor])


class P2POp:
    """One transfer for `batch_isend_irecv`: `P2POp(dist.isend, tensor, peer)`."""

    def __init__(self, op, tensor, peer=None, group=None, tag=0, group_peer=None):
        if op not in (isend, irecv, send, recv):
            raise ValueError("Invalid ``op``. Expected ``op`` to be of type ``torch.distributed"
                             ".isend`` or ``torch.distributed.irecv``.")
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag
        self.group_peer = group_peer


def batch_isend_irecv(p2p_op_list):
    """Start every transfer of the list; their Works, in order."""
    if not isinstance(p2p_op_list, list) or not all(isinstance(p, P2POp)
                                                    for p in p2p_op_list):
        raise ValueError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                         "``torch.distributed.P2POp``.")
    works = []
    for p in p2p_op_list:
        op = isend if p.op in (isend, send) else irecv
        works.append(op(p.tensor, p.peer, p.group, p.tag, p.group_peer))
    return works
