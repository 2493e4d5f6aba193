"""What runs inside a DataLoader worker process: its seeding, `get_worker_info()`, the loop
that turns index lists from the main process into batches, and the wrapper that carries a
worker's exception (type and traceback) back. The protocol is NOTE [ Worker protocol ] in
`dataloader.py`."""
import random
import select
import signal
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Optional

import ember
from ember.multiprocessing import _channel

from .fetch import make_fetcher


@dataclass(frozen=True)
class WorkerInfo:
    """The current worker's id, the number of workers, its seed and its copy of the dataset."""

    id: int
    num_workers: int
    seed: int
    dataset: Any
    rng: Optional[Any] = None
    worker_method: Optional[str] = "multiprocessing"


_worker_info = None


def get_worker_info():
    """In a DataLoader worker process, its `WorkerInfo` (`id`, `num_workers`, `seed`,
    `dataset`); in the main process, None. Use it in `IterableDataset.__iter__` to shard."""
    return _worker_info


class KeyErrorMessage(str):
    """A KeyError's message printed as is (KeyError would print the repr, newlines escaped)."""

    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception with its formatted traceback, to re-raise in another process."""

    def __init__(self, exc_info=None, where="in background"):
        exc_info = exc_info or sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


_MASK32 = 0xFFFFFFFF


def _generate_state(base_seed, worker_id):
    """The four 32-bit words torch seeds NumPy's global generator with in a worker: a small
    hash of (worker_id, base_seed) in the manner of NumPy's SeedSequence."""
    entropy = [worker_id, base_seed & _MASK32, base_seed >> 32, 0]
    hash_const = 0x43B0D7E5

    def hashed(value):
        nonlocal hash_const
        value = (value ^ hash_const) & _MASK32
        hash_const = (hash_const * 0x931E8875) & _MASK32
        value = (value * hash_const) & _MASK32
        return value ^ (value >> 16)

    def mix(x, y):
        r = ((0xCA01F9DD * x) - (0x4973F715 * y)) & _MASK32
        return r ^ (r >> 16)

    pool = [hashed(e) for e in entropy]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashed(pool[src]))
    const_b, state = 0x8B51F9DD, []
    for value in pool:
        value = (value ^ const_b) & _MASK32
        const_b = (const_b * 0x58F38DED) & _MASK32
        value = (value * const_b) & _MASK32
        state.append(value ^ (value >> 16))
    return state


def _seed_worker(base_seed, worker_id):
    """Seed `random`, ember and NumPy as torch does: base_seed + worker_id."""
    seed = base_seed + worker_id
    random.seed(seed)
    ember.manual_seed(seed)
    import numpy as np
    np.random.seed(_generate_state(base_seed, worker_id))
    return seed


def _parent_alive(parent_pid):
    import os
    return os.getppid() == parent_pid


def worker_loop(is_iterable, dataset, sock, auto_collation, collate_fn, drop_last, base_seed,
                init_fn, worker_id, num_workers, parent_pid):
    """Serve ("task", epoch, idx, index) requests until None, EOF or the parent's death;
    each answer is (epoch, idx, kind, payload), kind "data", "error" or "stop"."""
    global _worker_info
    # NOTE: Ctrl-C reaches the whole process group; only the main process should react (it
    # then shuts the workers down), or it would see its workers die before its own interrupt.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ember.set_num_threads(1)
        seed = _seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                                  dataset=dataset)
        where = f"in DataLoader worker process {worker_id}"
        init_error, fetcher = None, None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = make_fetcher(is_iterable, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(where=where)
        while True:
            ready, _, _ = select.select([sock], [], [], 1.0)
            if not ready:
                if not _parent_alive(parent_pid):
                    return
                continue
            try:
                message = _channel.recv(sock)
            except (EOFError, OSError):
                return
            if message is None:
                return
            if message[0] == "resume":
                if init_error is None:
                    fetcher = make_fetcher(is_iterable, dataset, auto_collation, collate_fn,
                                           drop_last)
                continue
            _, epoch, idx, index = message
            answer = _answer(fetcher, init_error, index, is_iterable, where)
            try:
                _channel.send(sock, (epoch, idx) + answer)
            except (BrokenPipeError, ConnectionResetError):
                return
            except Exception:        # the batch could not be pickled
                _channel.send(sock, (epoch, idx, "error", ExceptionWrapper(where=where)))
            del answer
    except KeyboardInterrupt:
        pass


def _answer(fetcher, init_error, index, is_iterable, where):
    if init_error is not None:
        return ("error", init_error)
    try:
        return ("data", fetcher.fetch(index))
    except StopIteration:
        if is_iterable:
            return ("stop", None)
        return ("error", ExceptionWrapper(where=where))
    except Exception:
        return ("error", ExceptionWrapper(where=where))
