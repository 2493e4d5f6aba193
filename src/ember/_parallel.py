"""Splitting one large CPU kernel over threads (torch's `get_num_threads`/`set_num_threads`).

NumPy releases the GIL inside its loops, so a kernel cut into independent parts (row blocks of
a reduction, tiles of a copy, slices of an element-wise op) runs on several cores from plain
Python threads. Only kernels that NumPy runs on one core use this; everything else is a single
NumPy call, and every split kernel computes exactly what the single call would.

NOTE [ The worker pool ]
The helper threads are started once, on the first split, and then wait on a queue; the calling
thread works on the parts too. Handing a part to a waiting thread still costs 15-60 us on this
project's 2-core build machine (a sleeping core must be woken; torch's OpenMP threads spin
instead), and two cores share the memory bandwidth, so only kernels of a few hundred
microseconds gain: element-wise kernels split from 2^21 elements (`_ops/_blocked.py`; an
`a + b` of 2^19 float32 elements took 52 us alone and 130 us split). A forked process (a
DataLoader worker) has none of its parent's threads, so it forgets the pool and makes its own
if it ever splits a kernel. Helper threads never wait on other helpers: a split requested
from inside a part runs in that thread, so splits can nest without deadlock.
"""
import os
import queue
import threading

_num_threads = max(1, min(os.cpu_count() or 1, 8))


def get_num_threads():
    """How many threads ember's parallel CPU kernels use."""
    return _num_threads


def set_num_threads(n):
    """Use `n` threads in ember's parallel CPU kernels (1: no extra threads), and in the BLAS
    behind NumPy's matrix products where threadpoolctl is installed (NOTE [ BLAS threads ])."""
    global _num_threads
    n = int(n)
    if n < 1:
        raise RuntimeError("set_num_threads expects a positive integer")
    _num_threads = n
    _limit_blas(n)


def _limit_blas(n):
    """NOTE [ BLAS threads ]
    torch.set_num_threads bounds every intra-op thread pool, its BLAS's included: after
    `set_num_threads(1)` a matrix product runs on the calling thread (torch's DataLoader
    workers rely on it, calling it in each worker). NumPy's BLAS (OpenBLAS in NumPy's wheels)
    keeps its own pool, sized by OPENBLAS_NUM_THREADS when NumPy was imported, and threads any
    product from 262144 multiply-adds (a 32x64 by 64x128 one), where waking its workers costs
    more than it gains on a busy machine. Changing that pool at run time needs the library's
    own call, found among the loaded libraries: threadpoolctl does that for every BLAS NumPy
    may be built with, so ember uses it where it is installed (scikit-learn, among others,
    depends on it) and otherwise leaves the BLAS alone."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(limits=n, user_api="blas")


class _Pool:
    """Daemon threads that run the callables put on `tasks`."""

    def __init__(self):
        self.tasks = queue.SimpleQueue()
        self.size = 0

    def grow(self, n):
        while self.size < n:
            threading.Thread(target=self._serve, daemon=True, name="ember-worker").start()
            self.size += 1

    def _serve(self):
        _local.in_pool = True
        from . import _numpy_errors     # (NumPy's error handling is per thread)
        _numpy_errors.install()
        while True:
            self.tasks.get()()


_pool = None
_pool_lock = threading.Lock()
_local = threading.local()


def _forget_pool():
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _helpers(n):
    """The pool, with at least `n` helper threads."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = _Pool()
        _pool.grow(n)
        return _pool


def in_part():
    """Whether this thread is running a part of a split kernel (a split here runs inline)."""
    return getattr(_local, "in_pool", False)


def run_parts(fn, count):
    """Call `fn(i)` for i in range(count), spread over up to `get_num_threads()` threads."""
    helpers = min(_num_threads, count) - 1
    if helpers <= 0 or in_part():
        for i in range(count):
            fn(i)
        return
    pool = _helpers(helpers)
    # NOTE: parts are handed out one at a time rather than dealt in advance, so that a thread
    # that starts late takes fewer parts instead of finishing last.
    parts = iter(range(count))
    lock = threading.Lock()
    errors = []
    finished = queue.SimpleQueue()

    def work():
        try:
            while True:
                with lock:
                    i = next(parts, None)
                if i is None or errors:
                    return
                fn(i)
        except BaseException as exc:        # re-raised in the calling thread
            errors.append(exc)

    def helper():
        try:
            work()
        finally:
            finished.put(None)

    for _ in range(helpers):
        pool.tasks.put(helper)
    _local.in_pool = True           # (a split inside a part runs in this thread)
    try:
        work()
    finally:
        _local.in_pool = False
        for _ in range(helpers):
            finished.get()
    if errors:
        raise errors[0]
