"""Process groups: the default group (the world) and the groups `new_group` makes, the
questions asked of them (ranks, sizes, backends) and their ending.

A group is a list of global ranks (its members, in group rank order) over the world's one
transport (`_transport.Mesh`); its collectives are numbered by a per-group counter (NOTE
[ Distributed protocol ] in `_transport.py`). Every process calls `new_group` for every
group, members or not, in the same order, so the groups' names ("1", "2", ...) agree.
"""
import threading
import warnings

__all__ = ["Backend", "ProcessGroup", "group", "GroupMember", "is_initialized", "get_rank",
           "get_world_size", "get_backend", "new_group", "destroy_process_group",
           "get_global_rank", "get_group_rank", "get_process_group_ranks"]

_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure to "
                    "call init_process_group.")
NON_GROUP_MEMBER = -100


class Backend(str):
    """A backend's name: `Backend("GLOO") == "gloo"`; `Backend.GLOO`, `.NCCL`, `.MPI`."""
    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: "
                             f"{type(name)}")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            value = name.lower()
        return super().__new__(cls, value)


class ProcessGroup:
    """A set of processes that run collectives together: `rank()` (this process's rank in
    it), `size()`, `name()`."""

    def __init__(self, world, ranks, name, backend, timeout_s):
        self._world = world
        self._ranks = list(ranks)
        self._name = name
        self._backend = backend
        self._timeout_s = timeout_s
        self._count = 0
        self._worker = None
        self._pending = []
        self._lock = threading.Lock()

    def rank(self):
        return self._ranks.index(self._world.mesh.rank)

    def size(self):
        return len(self._ranks)

    def name(self):
        return self._backend

    @property
    def group_name(self):
        return self._name

    def __repr__(self):
        return f"<ember.distributed.ProcessGroup {self._name!r} ranks={self._ranks}>"

    def _next_key(self):
        """The key of this group's next collective (see NOTE [ Distributed protocol ])."""
        with self._lock:
            self._count += 1
            return ("c", self._name, self._count)

    def _submit(self, fn):
        """Run `fn` on the group's worker thread, after the work submitted before it."""
        if self._worker is None:
            from concurrent.futures import ThreadPoolExecutor   # (only asynchronous work)
            self._worker = ThreadPoolExecutor(1, thread_name_prefix=f"ember-pg-{self._name}")
        future = self._worker.submit(fn)
        self._pending.append(future)
        return future

    def _drain(self):
        """Wait for the asynchronous work submitted so far (it runs before what follows)."""
        pending, self._pending = self._pending, []
        for future in pending:
            future.exception()

    def _shutdown(self):
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)


class _World:
    """The state of this process's distributed world (one at a time)."""
    default = None               # the default ProcessGroup
    mesh = None
    store = None
    groups = {}                  # name -> ProcessGroup
    created = 0                  # groups made by new_group


class _WorldMeta(type):
    @property
    def WORLD(cls):
        return _World.default


class group(metaclass=_WorldMeta):
    """`group.WORLD`: the default process group (None before `init_process_group`)."""


class GroupMember(metaclass=_WorldMeta):
    """`GroupMember.WORLD` (the default group) and `GroupMember.NON_GROUP_MEMBER` (what
    `new_group` gives the processes outside the group)."""
    NON_GROUP_MEMBER = NON_GROUP_MEMBER


def default_group():
    """The default group; ValueError when there is none."""
    if _World.default is None:
        raise ValueError(_NOT_INITIALIZED)
    return _World.default


def resolve(group):
    """`group`, or the default group for None."""
    return default_group() if group is None else group


def not_member(group, op_name):
    """True (with torch's warning) when this process is outside `group`."""
    if group is None or group is not NON_GROUP_MEMBER:
        default_group()
        return False
    warnings.warn(f"Running {op_name} on global rank {_World.mesh.rank} which does not belong "
                  f"to the given group.")
    return True


def get_pg_count():
    """How many process groups exist: the default one and those `new_group` made since it
    (destroying one does not count it off; destroying the default one resets the count)."""
    return 0 if _World.default is None else 1 + _World.created


def is_initialized():
    """Whether `init_process_group` has made the default group."""
    return _World.default is not None


def get_rank(group=None):
    """This process's rank in `group` (default: the world); -1 outside the group."""
    if group is NON_GROUP_MEMBER:
        return -1
    return resolve(group).rank()


def get_world_size(group=None):
    """How many processes `group` has (default: the world); -1 outside the group."""
    if group is NON_GROUP_MEMBER:
        return -1
    return resolve(group).size()


def get_backend(group=None):
    """The backend's name ("gloo")."""
    if group is NON_GROUP_MEMBER:
        raise ValueError("Invalid process group specified")
    return Backend(resolve(group)._backend)


def get_global_rank(group, group_rank):
    """The global rank of the process at `group_rank` in `group`."""
    if group is None or group is _World.default:
        return group_rank
    if not 0 <= group_rank < group.size():
        raise ValueError(f"Group rank {group_rank} is not part of group {group}")
    return group._ranks[group_rank]


def get_group_rank(group, global_rank):
    """The rank in `group` of the process of global rank `global_rank`."""
    if group is None or group is _World.default:
        return global_rank
    if global_rank not in group._ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return group._ranks.index(global_rank)


def get_process_group_ranks(group):
    """The global ranks of `group`'s members, in group rank order."""
    return list(resolve(group)._ranks)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None, device_id=None):
    """A group of the processes of global ranks `ranks` (default: all). Every process must
    call it, in the same order; outside the group it returns `GroupMember.NON_GROUP_MEMBER`.

    >>> evens = dist.new_group([0, 2])     # dist.all_reduce(t, group=evens)
    """
    world = default_group()
    size = world.size()
    ranks = list(range(size)) if ranks is None else sorted(ranks)
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"ranks list must not contain duplicate entries, got {ranks}")
    if len(ranks) > size:
        raise ValueError("the new group's world size should be less or equal to the world "
                         "size set by init_process_group")
    for r in ranks:
        if r < 0 or r >= size:
            raise ValueError(f"Rank {r} is out of range. Valid ranks are 0 to {size - 1} "
                             f"(world_size={size})")
    _World.created += 1
    name = str(_World.created)
    timeout_s = world._timeout_s if timeout is None else timeout.total_seconds()
    pg = ProcessGroup(_World, ranks, name, world._backend, timeout_s)
    if world.rank() not in ranks:
        return NON_GROUP_MEMBER
    _World.groups[name] = pg
    return pg


def destroy_process_group(group=None):
    """End `group`, or with None every group and the connections between the processes."""
    if group is None or group is _World.default:
        if _World.default is None:
            raise AssertionError("Process group cannot be None")
        for pg in list(_World.groups.values()):
            pg._drain()
            pg._shutdown()
        _World.mesh.close()
        if hasattr(_World.store, "_close"):
            _World.store._close()
        _World.default = _World.mesh = _World.store = None
        _World.groups = {}
        _World.created = 0
        return
    if group is NON_GROUP_MEMBER:
        return
    group._drain()
    group._shutdown()
    _World.groups.pop(group._name, None)
