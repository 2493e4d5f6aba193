"""ember.distributed: torch.distributed's process groups, collectives, point-to-point
transfers and stores, with the "gloo" backend built on the standard library's sockets.

Where things are: the rendezvous and `init_process_group` (`_rendezvous.py`), the stores
(`_store.py`), the debug level (`_debug.py`), the sockets between processes
(`_transport.py`, with NOTE [ Distributed protocol ]; over MPI: `_transport_mpi.py`), groups
and their questions (`_group.py`), the collectives (`_collectives.py`, reductions in
`_reduce_op.py`), point-to-point (`_p2p.py`), Python objects (`_objects.py`), the launcher
(`run.py`). DistributedDataParallel is `ember/nn/parallel/distributed.py`.

>>> dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29500", rank=r, world_size=2)
>>> t = ember.ones(2) * (r + 1); dist.all_reduce(t)        # tensor([3., 3.]) on both ranks
"""
from datetime import timedelta

from ._collectives import (all_gather, all_gather_into_tensor, all_gather_single, all_reduce,
                           all_to_all, all_to_all_single, barrier, broadcast, gather,
                           monitored_barrier, reduce, reduce_scatter, reduce_scatter_single,
                           reduce_scatter_tensor, scatter)
from ._debug import DebugLevel, get_debug_level, set_debug_level, set_debug_level_from_env
from ._errors import DistBackendError, DistError, DistNetworkError, DistStoreError
from ._group import (Backend, GroupMember, ProcessGroup, destroy_process_group,
                     get_backend, get_global_rank, get_group_rank, get_pg_count,
                     get_process_group_ranks, get_rank, get_world_size, group,
                     is_initialized, new_group)
from ._objects import (all_gather_object, broadcast_object_list, gather_object,
                       recv_object_list, scatter_object_list, send_object_list)
from ._p2p import P2POp, batch_isend_irecv, irecv, isend, recv, send
from ._reduce_op import ReduceOp
from ._rendezvous import (default_pg_timeout, get_default_backend_for_device,
                          get_node_local_rank, init_process_group, is_available,
                          is_backend_available, is_gloo_available, is_mpi_available,
                          is_nccl_available, is_torchelastic_launched, is_ucc_available,
                          is_xccl_available)
from ._store import FileStore, HashStore, PrefixStore, Store, TCPStore
from ._work import Work

__all__ = [
    "init_process_group", "destroy_process_group", "is_available", "is_initialized",
    "is_gloo_available", "is_nccl_available", "is_mpi_available", "is_ucc_available",
    "is_xccl_available", "is_backend_available", "is_torchelastic_launched", "get_rank",
    "get_world_size", "get_backend",
    "get_global_rank", "get_group_rank", "get_process_group_ranks", "new_group", "group",
    "GroupMember", "Backend", "ProcessGroup", "ReduceOp", "Work", "default_pg_timeout",
    "all_reduce", "broadcast", "reduce", "all_gather", "all_gather_into_tensor", "gather",
    "scatter", "reduce_scatter", "reduce_scatter_tensor", "all_to_all", "all_to_all_single",
    "barrier", "monitored_barrier", "send", "recv", "isend", "irecv", "P2POp",
    "batch_isend_irecv", "all_gather_object", "broadcast_object_list", "gather_object",
    "scatter_object_list", "send_object_list", "recv_object_list", "Store", "HashStore",
    "FileStore", "TCPStore", "PrefixStore", "DistError", "DistBackendError",
    "DistNetworkError", "DistStoreError", "timedelta", "DebugLevel", "get_debug_level",
    "set_debug_level", "set_debug_level_from_env", "all_gather_single",
    "reduce_scatter_single", "get_pg_count", "get_node_local_rank",
    "get_default_backend_for_device"]

from . import algorithms  # noqa: E402  (torch.distributed.algorithms: Join, for uneven inputs)
