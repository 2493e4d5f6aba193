"""Splitting one large CPU kernel over threads (torch's `get_num_threads`/`set_num_threads`).

NumPy releases the GIL inside its loops, so a kernel cut into independent parts (row blocks of
a reduction, tiles of a copy) runs on several cores from plain Python threads. Only kernels
that NumPy runs slowly or on one core use this; everything else is a single NumPy call.

NOTE: threads are started per call rather than kept in a pool. A call that is worth splitting
runs for milliseconds, so starting a thread (tens of microseconds) costs little, and nothing
survives into a forked DataLoader worker, where a pool's threads would not exist.
"""
import os
import threading

_num_threads = max(1, min(os.cpu_count() or 1, 8))


def get_num_threads():
    """How many threads ember's parallel CPU kernels use."""
    return _num_threads


def set_num_threads(n):
    """Use `n` threads in ember's parallel CPU kernels (1: no extra threads)."""
    global _num_threads
    n = int(n)
    if n < 1:
        raise RuntimeError("set_num_threads expects a positive integer")
    _num_threads = n


def run_parts(fn, count):
    """Call `fn(i)` for i in range(count), spread over up to `get_num_threads()` threads."""
    workers = min(_num_threads, count)
    if workers <= 1:
        for i in range(count):
            fn(i)
        return
    errors = []
    # NOTE: parts are handed out one at a time rather than dealt in advance, so that a thread
    # that starts late (tens of microseconds) takes fewer parts instead of finishing last.
    parts = iter(range(count))
    lock = threading.Lock()

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

    threads = [threading.Thread(target=work, daemon=True) for _ in range(1, workers)]
    for t in threads:
        t.start()
    work()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
