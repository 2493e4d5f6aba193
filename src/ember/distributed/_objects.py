"""Collectives of picklable Python objects: `all_gather_object`, `broadcast_object_list`,
`gather_object`, `scatter_object_list`, `send_object_list`/`recv_object_list`. An object
travels as its pickle, a message of bytes under the group's next collective key."""
import pickle

import numpy as np

from ._collectives import check_root_list, root
from ._group import _World, not_member, resolve
from ._p2p import _peer

__all__ = ["all_gather_object", "broadcast_object_list", "gather_object",
           "scatter_object_list", "send_object_list", "recv_object_list"]


def _send(rank, key, obj):
    _World.mesh.send(rank, key, "object", np.frombuffer(pickle.dumps(obj), np.uint8))


def _recv(pg, rank, key):
    _, meta, payload = _World.mesh.recv([rank], key, pg._timeout_s)
    if meta != "object":
        raise RuntimeError(f"rank {rank} sent a tensor where this rank expects an object: "
                           f"the processes called different collectives")
    return pickle.loads(payload)


def _begin(pg):
    key = pg._next_key()
    pg._drain()
    return key


def all_gather_object(object_list, obj, group=None):
    """Every member's `obj`, in group rank order, into `object_list` (one slot per member).

    >>> out = [None, None]; dist.all_gather_object(out, {"rank": rank})
    """
    if not_member(group, "all_gather_object"):
        return None
    pg = resolve(group)
    key = _begin(pg)
    me = pg.rank()
    for j, rank in enumerate(pg._ranks):
        if j != me:
            _send(rank, key, obj)
    for j, rank in enumerate(pg._ranks):
        object_list[j] = obj if j == me else _recv(pg, rank, key)
    return None


def broadcast_object_list(object_list, src=None, group=None, device=None, group_src=None):
    """`src`'s objects into every member's `object_list` (of the same length)."""
    if not_member(group, "broadcast_object_list"):
        return None
    pg = resolve(group)
    src = root(pg, src, group_src, "broadcast")
    key = _begin(pg)
    if pg.rank() == src:
        for j, rank in enumerate(pg._ranks):
            if j != src:
                _send(rank, key, list(object_list))
        return None
    object_list[:] = _recv(pg, pg._ranks[src], key)[:len(object_list)]
    return None


def gather_object(obj, object_gather_list=None, dst=None, group=None, group_dst=None):
    """Every member's `obj`, in group rank order, into `dst`'s `object_gather_list`."""
    if not_member(group, "gather_object"):
        return None
    pg = resolve(group)
    dst = root(pg, dst, group_dst, "gather")
    me = pg.rank()
    check_root_list(me == dst, object_gather_list is not None, "gather_list", "destination")
    key = _begin(pg)
    if me != dst:
        _send(pg._ranks[dst], key, obj)
        return None
    for j, rank in enumerate(pg._ranks):
        object_gather_list[j] = obj if j == dst else _recv(pg, rank, key)
    return None


def scatter_object_list(scatter_object_output_list, scatter_object_input_list=None, src=None,
                        group=None, group_src=None):
    """`src`'s `scatter_object_input_list[j]` into member j's
    `scatter_object_output_list[0]`."""
    if not_member(group, "scatter_object_list"):
        return None
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise ValueError("Expected argument scatter_object_output_list to be a list of size "
                         "at least 1.")
    pg = resolve(group)
    src = root(pg, src, group_src, "scatter")
    key = _begin(pg)
    if pg.rank() != src:
        scatter_object_output_list[0] = _recv(pg, pg._ranks[src], key)
        return None
    for j, rank in enumerate(pg._ranks):
        if j == src:
            scatter_object_output_list[0] = scatter_object_input_list[j]
        else:
            _send(rank, key, scatter_object_input_list[j])
    return None


def send_object_list(object_list, dst=None, group=None, device=None, group_dst=None):
    """Send the objects of `object_list` to `dst`."""
    if not_member(group, "send_object_list"):
        return None
    pg = resolve(group)
    _send(_peer(pg, dst, group_dst, "destination"), ("p2p-object", pg._name), list(object_list))
    return None


def recv_object_list(object_list, src=None, group=None, device=None, group_src=None):
    """Receive objects sent by `send_object_list` into `object_list`; the sender's rank."""
    if not_member(group, "recv_object_list"):
        return -1
    pg = resolve(group)
    src = _peer(pg, src, group_src, "source")
    peers = [r for r in pg._ranks if r != _World.mesh.rank] if src is None else [src]
    sender, _, payload = _World.mesh.recv(peers, ("p2p-object", pg._name), pg._timeout_s)
    object_list[:] = pickle.loads(payload)[:len(object_list)]
    return sender
