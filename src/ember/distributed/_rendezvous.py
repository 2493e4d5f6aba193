"""`init_process_group`: the processes find each other through a store (made from
`init_method`: "env://", "tcp://host:port", "file:///path", or given as `store`) and connect
into the world's transport (`_transport.py`)."""
import os
from datetime import timedelta

from ._group import Backend, ProcessGroup, _World
from ._store import FileStore, PrefixStore, TCPStore
from ._transport import Mesh
from ._transport_mpi import MpiMesh, mpi_available

__all__ = ["init_process_group", "is_available", "is_gloo_available", "is_nccl_available",
           "is_mpi_available", "is_ucc_available", "is_xccl_available", "is_backend_available",
           "is_torchelastic_launched", "get_node_local_rank",
           "get_default_backend_for_device"]

default_pg_timeout = timedelta(minutes=30)


def is_available():
    """Whether the distributed package is there: True (backend "gloo")."""
    return True


def is_gloo_available():
    return True


def is_nccl_available():
    return False


def is_mpi_available():
    """Whether the "mpi" backend can run: mpi4py (the optional extra `mpi`) loads."""
    return mpi_available()


def is_ucc_available():
    return False


def is_xccl_available():
    return False


def get_node_local_rank(fallback_rank=None):
    """This process's rank on its machine: LOCAL_RANK (set by the launcher), else
    `fallback_rank`."""
    if "LOCAL_RANK" in os.environ:
        return int(os.environ["LOCAL_RANK"])
    if fallback_rank is not None:
        return int(fallback_rank)
    raise RuntimeError("LOCAL_RANK is not in the environment. Consider passing fallback_rank "
                       "to allow `get_node_local_rank` to work, assuming you are not running "
                       "in a multi-device context and want the code to run locally instead.")


_DEVICE_BACKENDS = {"cpu": "gloo", "cuda": "nccl", "xpu": "xccl"}


def get_default_backend_for_device(device):
    """torch's backend for a device type: "gloo" for the CPU, "nccl" for CUDA."""
    from .._device import device as as_device
    kind = as_device(device).type
    if kind not in _DEVICE_BACKENDS:
        raise ValueError(f"Default backend not registered for device : {kind}")
    return _DEVICE_BACKENDS[kind]


def is_torchelastic_launched():
    """Whether this process was started by a launcher (torchrun, `ember.distributed.run`):
    the launcher's run id is in the environment (TORCHELASTIC_RUN_ID)."""
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def is_backend_available(backend):
    return Backend(backend) == Backend.GLOO or (Backend(backend) == Backend.MPI and
                                                 mpi_available())


def _backend_name(backend):
    """The backend ember runs for `backend`: "gloo" (also for None and "cpu:gloo,cuda:gloo")
    or "mpi"."""
    if backend is None:
        return Backend.GLOO
    names = {part.split(":")[-1].strip().lower() for part in str(backend).split(",")}
    for name in names:
        if name == Backend.NCCL:
            raise RuntimeError("Distributed package doesn't have NCCL built in")
        if name == Backend.MPI:
            if not mpi_available():
                raise RuntimeError("Distributed package doesn't have MPI built in")
            return Backend.MPI
        if name == Backend.UCC:
            raise RuntimeError("Distributed package doesn't have UCC built in")
        if name != Backend.GLOO:
            raise ValueError(f"Invalid backend: '{name}'")
    return Backend.GLOO


def _env(name, scheme):
    value = os.environ.get(name)
    if value is None:
        raise ValueError(f"Error initializing torch.distributed using {scheme} rendezvous: "
                         f"environment variable {name} expected, but not set")
    return value


def _store_from(init_method, rank, world_size, timeout):
    """(store, rank, world_size) for `init_method`, filling rank and world size from the
    URL's query or the environment."""
    from urllib.parse import parse_qs, urlparse     # (only when processes meet)
    url = urlparse(init_method)
    query = {k: v[-1] for k, v in parse_qs(url.query).items()}
    scheme = f"{url.scheme}://"
    if rank == -1:
        rank = int(query.get("rank", os.environ.get("RANK", -1)))
    if world_size == -1:
        world_size = int(query.get("world_size", os.environ.get("WORLD_SIZE", -1)))
    if url.scheme == "env":
        rank = int(_env("RANK", scheme)) if rank == -1 else rank
        world_size = int(_env("WORLD_SIZE", scheme)) if world_size == -1 else world_size
        host, port = _env("MASTER_ADDR", scheme), int(_env("MASTER_PORT", scheme))
    elif url.scheme == "tcp":
        host, port = url.hostname, url.port
    elif url.scheme != "file":
        raise RuntimeError(f"No rendezvous handler for {scheme}")
    if rank == -1:
        raise ValueError(f"Error initializing torch.distributed using {scheme} rendezvous: "
                         f"rank parameter missing")
    if world_size == -1:
        raise ValueError(f"Error initializing torch.distributed using {scheme} rendezvous: "
                         f"world size parameter missing")
    if url.scheme == "file":
        store = FileStore(url.path, world_size)
        store.set_timeout(timeout)
        return store, rank, world_size
    store = TCPStore(host, port, world_size, is_master=rank == 0, timeout=timeout,
                     wait_for_workers=False)
    return store, rank, world_size


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None, device_id=None):
    """Join this process to the world of `world_size` processes as `rank` and make the
    default group (backend "gloo", through sockets: NOTE [ Distributed protocol ]; or "mpi"
    in a world started by mpiexec, with mpi4py).

    >>> os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29500")
    >>> dist.init_process_group("gloo", rank=rank, world_size=2)
    """
    if _World.default is not None:
        raise ValueError("trying to initialize the default process group twice!")
    name = _backend_name(backend)
    timeout = default_pg_timeout if timeout is None else timeout
    if not isinstance(timeout, timedelta):
        raise TypeError(f"Expected timeout argument to be of type datetime.timedelta, got "
                        f"{type(timeout)}")
    if name == Backend.MPI:
        mesh = MpiMesh()                     # rank and world size are MPI's (as in torch)
        rank, world_size = mesh.rank, mesh.world_size
        store = None
    elif store is not None:
        if init_method is not None:
            raise ValueError("Cannot specify both init_method and store.")
        if world_size <= 0:
            raise ValueError("world_size must be positive if using store")
        if rank < 0:
            raise ValueError("rank must be non-negative if using store")
    else:
        store, rank, world_size = _store_from(init_method or "env://", rank, world_size,
                                              timeout)
    if not 0 <= rank < world_size:
        raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, "
                         f"{world_size - 1}]")
    if name != Backend.MPI:
        mesh = Mesh(PrefixStore("default_pg", store), rank, world_size,
                    timeout.total_seconds())
    _World.mesh, _World.store = mesh, store
    _World.default = ProcessGroup(_World, range(world_size), "0", name,
                                  timeout.total_seconds())
    _World.groups = {"0": _World.default}
    _World.created = 0
    from ._collectives import barrier
    barrier()           # every connection is made before any process may go on and leave
