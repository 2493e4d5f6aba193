"""The generic join context manager: training on inputs of uneven length across processes.

NOTE [ Joining ]
Each process runs its loop inside `with Join([joinables]):`. While it still has inputs, the
first joinable calls `Join.notify_join_context(joinable)` at the start of every iteration,
before its own collectives: an all-reduce of a one, so that the group counts the processes
still running (and, with `throw_on_early_termination`, a second all-reduce that says whether
one has run out). A process that leaves the loop early enters `__exit__` and, for every
iteration the others still run, answers that count with a zero and then runs each joinable's
`JoinHook.main_hook()`, which makes the collectives the running processes make in one
iteration (with values that change nothing, such as zero gradients). When the count comes back
zero, every process has joined: each runs `post_hook(is_last_joiner)`, `is_last_joiner` being
True for the processes that joined in the last round (they hold the most trained state).
Every process makes the same collectives in the same order, so none waits forever.
"""
import warnings
from abc import ABC, abstractmethod
from typing import NamedTuple

from .. import _group
from .._collectives import all_reduce
from .._reduce_op import ReduceOp

__all__ = ["JoinHook", "Joinable", "Join"]

_SKEW_WARNING_AFTER = 1000      # rounds a joined process shadows before warning of the skew


class JoinHook:
    """What a joinable does once its process has joined: `main_hook()` while some process is
    still running (it shadows one training iteration's collectives), then `post_hook()` once
    all have joined. Subclass it and override either."""

    def main_hook(self):
        """Make the collectives of one training iteration (forward, backward, optimizer
        step) of the processes still running."""

    def post_hook(self, is_last_joiner):
        """Run once every process has joined; `is_last_joiner` is True for the processes
        that joined in the last round."""


class _JoinConfig(NamedTuple):
    enable: bool
    throw_on_early_termination: bool
    is_first_joinable: bool

    @staticmethod
    def construct_disabled_join_config():
        return _JoinConfig(enable=False, throw_on_early_termination=False,
                           is_first_joinable=False)


class Joinable(ABC):
    """A class whose objects take part in a `Join`: it gives a `join_hook()`, the
    `join_device` and `join_process_group` the context's own all-reduces use, and it calls
    `Join.notify_join_context(self)` once per iteration before its collectives."""

    @abstractmethod
    def __init__(self):
        super().__init__()
        self._join_config = _JoinConfig.construct_disabled_join_config()

    @abstractmethod
    def join_hook(self, **kwargs):
        """The JoinHook that shadows this object's collectives; `kwargs` are the Join's."""

    @property
    @abstractmethod
    def join_device(self):
        """The device of the context's all-reduces."""

    @property
    @abstractmethod
    def join_process_group(self):
        """The process group of this object's collectives."""


class Join:
    """Context manager for uneven inputs (NOTE [ Joining ]).

    >>> with Join([model]):             # model: a Joinable, such as DistributedDataParallel
    ...     for x in my_share_of_batches:   # a different count on each process
    ...         model(x).sum().backward()
    """

    def __init__(self, joinables, enable=True, throw_on_early_termination=False, **kwargs):
        if len(joinables) == 0:
            raise ValueError("The join context manager requires at least one joinable")
        self._joinables = joinables
        self._join_hooks = [joinable.join_hook(**kwargs) for joinable in joinables]
        self._enable = enable
        self._throw_on_early_termination = throw_on_early_termination
        for i, joinable in enumerate(joinables):
            joinable._join_config = _JoinConfig(
                enable=enable, throw_on_early_termination=throw_on_early_termination,
                is_first_joinable=i == 0)
        self._process_group, self._device = self._dist_info()
        self._rank = _group.get_rank(self._process_group)

    def _dist_info(self):
        group = device = None
        for joinable in self._joinables:
            if group is None:
                group = joinable.join_process_group
            elif group != joinable.join_process_group:
                raise ValueError("Using join context manager with multiple process groups")
            if device is None:
                device = joinable.join_device
        return group, device

    def __enter__(self):
        ...

    def __exit__(self, type, value, traceback):
        if not self._enable or type is not None:
            return      # (an exception in the loop goes on as it is)
        all_joined, is_last_joiner, rounds = False, True, 0
        while not all_joined:
            if rounds > _SKEW_WARNING_AFTER:
                warnings.warn(
                    f"Detected uneven input skew of greater than {_SKEW_WARNING_AFTER}. This "
                    f"means that rank {self._rank} has at least {_SKEW_WARNING_AFTER} fewer "
                    f"inputs than other currently-active ranks. This level of skew could lead "
                    f"to performance degradation during training.")
            if self._count(0) == 0:
                all_joined = True
                continue
            if self._throw_on_early_termination:
                self._count(1)          # (answers the running processes' second all-reduce)
                raise RuntimeError(f"Rank {self._rank} exhausted all inputs.")
            for hook in self._join_hooks:
                hook.main_hook()
            is_last_joiner = False
            rounds += 1
        for hook in self._join_hooks:
            hook.post_hook(is_last_joiner)

    def _count(self, value):
        return reduced_number(value, self._process_group, self._device)

    @staticmethod
    def notify_join_context(joinable):
        """Say that this process has not joined yet, before `joinable`'s collectives of this
        iteration (only the first joinable of a context speaks; the others get None). With
        `throw_on_early_termination`, raise if some process has run out of inputs. Returns
        the work of the all-reduce that counts the running processes."""
        if not hasattr(joinable, "_join_config"):
            raise AssertionError(f"Check that the {type(joinable)} constructor calls the "
                                 f"``Joinable`` constructor")
        config = joinable._join_config
        if not (config.is_first_joinable and config.enable):
            return None
        from ..._creation import ones
        device, group = joinable.join_device, joinable.join_process_group
        work = all_reduce(ones(1, device=device), group=group, async_op=True)
        if config.throw_on_early_termination and reduced_number(0, group, device):
            raise RuntimeError("Detected at least one rank that exhausted inputs. Throwing "
                               "across all ranks.")
        return work


def reduced_number(value, group, device=None, op=ReduceOp.SUM):
    """Every process's number `value` reduced over the group with `op` (default: summed), as
    a Python number (the joined and the running processes' small agreements)."""
    from ..._creation import full
    flag = full((1,), float(value), device=device)
    all_reduce(flag, op=op, group=group)
    return flag.item()
