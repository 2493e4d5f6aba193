"""DataLoader: batches from a dataset, in this process (`num_workers=0`) or from worker
processes whose batches arrive through shared memory.

NOTE [ Worker protocol ]
Each worker has one Unix socket pair with the main process. Main -> worker: ("task", epoch,
idx, indices), ("resume", epoch) at the start of a new epoch of persistent workers, and None to
stop. Worker -> main: (epoch, idx, kind, payload), kind "data", "error" (an ExceptionWrapper)
or "stop" (its IterableDataset is exhausted). A message carries the descriptors of the shared
memory its tensors live in (`ember.multiprocessing._channel`), so a batch needs no live sender
to be read and a batch never read is freed by the kernel with the socket: shutting down at any
moment leaks nothing.
At most `prefetch_factor * num_workers` tasks are out at once, handed round-robin to the
workers that have not stopped; results wait in `_results` until their turn (`in_order`).
The main process waits on the sockets and the workers' process sentinels together, so a dead
worker (any cause, SIGKILL included) is seen at once, in the thread that called `next()`, and
becomes one RuntimeError there; nothing is raised asynchronously (no SIGCHLD handler).
Shutdown (end of epoch, `break` and garbage collection, an error, a dead worker, interpreter
exit): send None, close our sockets (a worker blocked sending gets EPIPE), join with a deadline,
then SIGTERM and SIGKILL whatever is left. Workers also exit when the main process dies: they
poll their parent's pid once a second.
"""
import atexit
import itertools
import math
import multiprocessing
import multiprocessing.connection
import os
import socket
import threading
import weakref
from typing import Generic, TypeVar

import ember
from ember.multiprocessing import _channel

from . import _utils
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler
from ... import _warn

__all__ = ["DataLoader", "get_worker_info", "default_collate", "default_convert"]

T_co = TypeVar("T_co", covariant=True)

get_worker_info = _utils.worker.get_worker_info
default_collate = _utils.collate.default_collate
default_convert = _utils.collate.default_convert

_SHUTDOWN_DEADLINE = 5.0          # seconds workers get to exit before SIGTERM


class _DatasetKind:
    Map = 0
    Iterable = 1


class _InfiniteConstantSampler(Sampler):
    """None forever: the 'indices' of an IterableDataset, which only count items."""

    def __iter__(self):
        while True:
            yield None


class DataLoader(Generic[T_co]):
    """Iterate over `dataset` in batches.

    >>> loader = DataLoader(TensorDataset(ember.arange(10.)), batch_size=4)
    >>> [len(x) for (x,) in loader]
    [4, 4, 2]

    `shuffle`, `sampler` or `batch_sampler` choose the order; `collate_fn` merges samples
    (`default_collate`); `num_workers > 0` loads in worker processes (`prefetch_factor`
    batches each ahead, `persistent_workers` kept between epochs, `timeout` seconds per
    batch, `worker_init_fn(worker_id)`, `multiprocessing_context`, `in_order=False` to yield
    batches as they come). `pin_memory` puts batches in page-locked memory where there is a
    GPU (a warning and no effect without one).
    """

    _DataLoader__initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in (False, None):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")

        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        if context is not None:
            if self.num_workers <= 0:
                raise ValueError("multiprocessing_context can only be used with multi-process "
                                 f"loading (num_workers > 0), but got num_workers="
                                 f"{self.num_workers}")
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError("multiprocessing_context option should specify a valid "
                                     f"start method in {methods!r}, but got "
                                     f"multiprocessing_context={context!r}")
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context "
                                "object or a string specifying the start method, but got "
                                f"multiprocessing_context={context}")
        self.__multiprocessing_context = context

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler",
                                           "drop_last", "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else \
                    math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        """Warn when more workers are asked for than this process may use CPUs."""
        if not self.num_workers:
            return
        cpuset = hasattr(os, "sched_getaffinity")
        suggest = len(os.sched_getaffinity(0)) if cpuset else os.cpu_count()
        if suggest is None or self.num_workers <= suggest:
            return
        _warn.warn(
            f"This DataLoader will create {self.num_workers} worker processes in total. Our "
            f"suggested max number of worker in current system is {suggest}"
            f"{'' if cpuset else ' (`cpuset` is not taken into account)'}, which is smaller "
            "than what this DataLoader is going to create. Please be aware that excessive "
            "worker creation might get DataLoader running slow or even freeze, lower the "
            "worker number to avoid potential slowness/freeze if necessary.", stacklevel=2)


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._in_order = loader.in_order
        if loader.pin_memory and loader.pin_memory_device:
            _warn.warn("pin_memory_device is deprecated, the current accelerator will be used "
                       f"as the device,ignore pin_memory_device='{loader.pin_memory_device}'.",
                       stacklevel=3)
        if loader.pin_memory and not ember.cuda.is_available():
            _warn.warn("'pin_memory' argument is set as true but no accelerator is found, "
                       "then device pinned memory won't be used.", stacklevel=3)
        # batches are pinned only where there is a GPU to copy them to (_utils/pin_memory.py),
        # for the current accelerator whatever pin_memory_device says (as torch 2.13)
        self._pin_memory = loader.pin_memory and ember.cuda.is_available()
        self._pin_memory_device = "cuda" if self._pin_memory else None
        self._sampler_iter = iter(self._index_sampler)
        # NOTE: drawn after the sampler's iterator is made but before it draws, as torch does,
        # so that one seeded generator gives torch's worker seeds and torch's order.
        self._base_seed = int(ember.empty((), dtype=ember.int64)
                              .random_(generator=loader.generator).item())
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        if self._pin_memory:
            data = _utils.pin_memory.pin_memory(data, self._pin_memory_device)
        self._num_yielded += 1
        promised = self._IterableDataset_len_called
        if self._dataset_kind == _DatasetKind.Iterable and promised is not None \
                and self._num_yielded > promised:
            msg = (f"Length of IterableDataset {self._dataset} was reported to be {promised}"
                   f"(when accessing len(dataloader)), but {self._num_yielded} samples have "
                   "been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not "
                        "properly configuring the IterableDataset replica at each worker. "
                        "Please see https://pytorch.org/docs/stable/data.html#torch.utils.data."
                        "IterableDataset for examples.")
            _warn.warn(msg, stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        if self._timeout != 0:      # (torch checks it here, each epoch, after the seed draw)
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._fetcher = _utils.fetch.make_fetcher(
            self._dataset_kind == _DatasetKind.Iterable, self._dataset, self._auto_collation,
            self._collate_fn, self._drop_last)

    def _next_data(self):
        return self._fetcher.fetch(self._next_index())


_live_iterators = weakref.WeakSet()


@atexit.register
def _shutdown_all():
    for it in list(_live_iterators):
        it._shutdown_workers()


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Batches from worker processes; see NOTE [ Worker protocol ]."""

    def __init__(self, loader):
        super().__init__(loader)
        if self._prefetch_factor <= 0:      # (accepted by DataLoader, refused here as torch does)
            raise AssertionError("prefetch_factor must be greater than 0 for "
                                 "MultiProcessingDataLoaderIter")
        self._shutdown = True                   # until the workers exist
        ctx = loader.multiprocessing_context or multiprocessing.get_context()
        self._workers, self._socks = [], []
        self._lock = threading.Lock()
        try:
            for worker_id in range(self._num_workers):
                self._start_worker(ctx, loader, worker_id)
        except BaseException:
            self._shutdown = False
            self._shutdown_workers()
            raise
        self._shutdown = False
        _live_iterators.add(self)
        self._epoch = 0
        self._reset(loader, first_iter=True)

    def _start_worker(self, ctx, loader, worker_id):
        mine, theirs = socket.socketpair()
        inherited = [s.fileno() for s in self._socks] if ctx.get_start_method() == "fork" \
            else []
        process = ctx.Process(target=_worker_main, daemon=True, args=(
            inherited, self._dataset_kind == _DatasetKind.Iterable, self._dataset, theirs,
            self._auto_collation, self._collate_fn, self._drop_last, self._base_seed,
            loader.worker_init_fn, worker_id, self._num_workers, os.getpid()))
        self._socks.append(mine)
        self._workers.append(process)
        process.start()
        theirs.close()

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._epoch += 1
        self._send_idx = 0
        self._task_info = {}          # idx -> worker id: sent, not yet yielded
        self._results = {}            # idx -> (kind, payload): received, not yet yielded
        self._active = [True] * self._num_workers
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        self._sampler_done = False
        if not first_iter:
            for worker_id in range(self._num_workers):
                self._send(worker_id, ("resume", self._epoch))
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _send(self, worker_id, message):
        try:
            _channel.send(self._socks[worker_id], message)
        except OSError:
            self._raise_if_dead(suspect=self._workers[worker_id])
            raise

    def _try_put_index(self):
        limit = self._prefetch_factor * self._num_workers
        if self._sampler_done or len(self._task_info) >= limit or not any(self._active):
            return
        try:
            index = self._next_index()
        except StopIteration:
            self._sampler_done = True
            return
        worker_id = next(self._worker_cycle)
        while not self._active[worker_id]:
            worker_id = next(self._worker_cycle)
        self._send(worker_id, ("task", self._epoch, self._send_idx, index))
        self._task_info[self._send_idx] = worker_id
        self._send_idx += 1

    def _take_ready(self):
        """The next result to hand out (in order, or any with `in_order=False`), or None."""
        if not self._results:
            return None
        idx = min(self._task_info) if self._in_order else next(iter(self._results))
        if idx not in self._results:
            return None
        kind, payload = self._results.pop(idx)
        worker_id = self._task_info.pop(idx)
        return worker_id, kind, payload

    def _next_data(self):
        while True:
            if self._shutdown:
                raise StopIteration
            ready = self._take_ready()
            if ready is None:
                if not self._task_info:
                    if not self._persistent_workers:
                        self._shutdown_workers()
                    raise StopIteration
                self._receive()
                continue
            worker_id, kind, payload = ready
            if kind == "stop":
                self._active[worker_id] = False
                self._try_put_index()
                continue
            self._try_put_index()
            if kind == "error":
                payload.reraise()
            return payload

    def _receive(self):
        """Wait for one message from any worker, watching for deaths and the timeout."""
        sentinels = [w.sentinel for w in self._workers]
        timeout = self._timeout if self._timeout > 0 else None
        ready = multiprocessing.connection.wait(self._socks + sentinels, timeout)
        if not ready:
            self._shutdown_workers()
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
        for worker_id, sock in enumerate(self._socks):
            if sock not in ready:
                continue
            try:
                epoch, idx, kind, payload = _channel.recv(sock)
            except (EOFError, OSError):
                # NOTE: only an exiting worker closes its socket, and it may do so a moment
                # before its exit status can be read.
                self._raise_if_dead(suspect=self._workers[worker_id])
                raise
            if epoch == self._epoch:
                self._results[idx] = (kind, payload)
        if any(s in ready for s in sentinels):
            self._raise_if_dead()

    def _raise_if_dead(self, suspect=None):
        """Raise the worker-death error if some worker has exited (or `suspect` is exiting),
        after shutting down the rest."""
        exited = multiprocessing.connection.wait([w.sentinel for w in self._workers], 0)
        dead = [w for w in self._workers if w.sentinel in exited or w is suspect]
        if dead:
            pids = ", ".join(str(w.pid) for w in dead)
            self._shutdown_workers()
            raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly")

    def _shutdown_workers(self):
        with self._lock:
            if self._shutdown:
                return
            self._shutdown = True
        _live_iterators.discard(self)
        for sock in self._socks:
            try:
                sock.setblocking(False)
                _channel.send(sock, None)
            except OSError:
                pass
            sock.close()
        multiprocessing.connection.wait([w.sentinel for w in self._workers],
                                        _SHUTDOWN_DEADLINE)
        for stop in ("terminate", "kill"):
            alive = [w for w in self._workers if w.is_alive()]
            for w in alive:
                getattr(w, stop)()
            if alive:
                multiprocessing.connection.wait([w.sentinel for w in alive], 1.0)
        for w in self._workers:
            w.join(0.1)
            if w.exitcode is not None:
                w.close()

    def __del__(self):
        if getattr(self, "_shutdown", True) is False:
            self._shutdown_workers()


def _worker_main(inherited, *args):
    # NOTE: a forked worker closes its copies of the main process's ends of the other
    # workers' sockets, so that each socket has exactly one reader and one writer.
    for fd in inherited:
        try:
            os.close(fd)
        except OSError:
            pass
    _utils.worker.worker_loop(*args)
