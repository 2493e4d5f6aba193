"""ember.multiprocessing: the standard `multiprocessing` module, with tensors sent through
shared memory (`reductions.py`; lifetimes in NOTE [ Shared-memory lifetime ] of
`ember/_shared_memory.py`) and `spawn` with error propagation (`spawn.py`).

>>> import ember.multiprocessing as mp
>>> q = mp.Queue(); t = ember.zeros(3); q.put(t)   # the receiver's tensor shares t's memory
"""
import multiprocessing
from multiprocessing import *  # noqa: F401,F403

from .._shared_memory import (get_all_sharing_strategies, get_sharing_strategy,
                              set_sharing_strategy)
from .reductions import init_reductions
from .spawn import (ProcessContext, ProcessException, ProcessExitedException,
                    ProcessRaisedException, spawn, start_processes)

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies",
           "spawn", "start_processes", "ProcessContext", "ProcessException",
           "ProcessRaisedException", "ProcessExitedException"] + multiprocessing.__all__

init_reductions()
