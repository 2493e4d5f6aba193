"""ember.futures (torch.futures): a `Future` holds a value or an error that another thread (a
collective, a remote call, a data loader) provides later.

`wait()` blocks until the future is completed, then returns its value or raises its error;
`then(callback)` gives a new future completed with `callback(this)` once this one completes;
`add_done_callback` runs a callback without making a future. A future is completed exactly
once (`set_result` or `set_exception`). Callbacks run in the thread that completes the future,
or at once in the caller's thread when it is already completed.
"""
import threading
import traceback
from typing import Generic, TypeVar

__all__ = ["Future", "collect_all", "wait_all"]

T = TypeVar("T")


class Future(Generic[T]):
    """An eventually available value (torch.futures.Future)."""

    def __init__(self, *, devices=None):
        if devices:
            from ._device import device
            for d in devices:
                d = device(d)
                if d.index is None:
                    raise ValueError(f"Expected devices to have indices, got {d}")
        self._devices = list(devices or ())
        self._lock = threading.Condition()
        self._completed = False
        self._value = None
        self._error = None
        self._callbacks = []

    def done(self):
        """Whether the future is completed (with a value or an error)."""
        return self._completed

    def wait(self):
        """Block until completed; return the value, or raise the error it was completed with."""
        with self._lock:
            while not self._completed:
                self._lock.wait()
        if self._error is not None:
            raise self._error
        return self._value

    def value(self):
        """The value of a completed future (its error, raised, if it failed)."""
        if not self._completed:
            raise RuntimeError("completed() INTERNAL ASSERT FAILED: value() of a Future that "
                               "is not completed; call wait() to block until it is")
        if self._error is not None:
            raise self._error
        return self._value

    def then(self, callback):
        """A new future completed with `callback(self)` when this one completes (with the
        callback's error, wrapped in a RuntimeError, if it raises)."""
        child = Future(devices=self._devices)

        def run(fut):
            try:
                result = callback(fut)
            except Exception as exc:  # noqa: BLE001 - the child carries the error
                where = "".join(traceback.format_tb(exc.__traceback__))
                child.set_exception(RuntimeError(
                    f"Got the following error when running the callback: "
                    f"{type(exc).__name__}: {exc}\n\nAt:\n{where}"))
            else:
                child.set_result(result)
        self.add_done_callback(run)
        return child

    def add_done_callback(self, callback):
        """Run `callback(self)` when the future completes (now, if it has)."""
        with self._lock:
            if not self._completed:
                self._callbacks.append(callback)
                return
        callback(self)

    def set_result(self, result):
        """Complete the future with `result`, waking its waiters and running its callbacks."""
        self._complete(result, None)

    def set_exception(self, result):
        """Complete the future with the error `result`: wait() and value() raise it."""
        if not isinstance(result, BaseException):
            raise AssertionError(f"{result} is of type {type(result)}, not an Exception.")
        self._complete(None, result)

    def _complete(self, value, error):
        with self._lock:
            if self._completed:
                raise RuntimeError("Attempting to mark a completed Future as complete again. "
                                   "Note that a Future can only be marked completed once.")
            self._value, self._error, self._completed = value, error, True
            callbacks, self._callbacks = self._callbacks, []
            self._lock.notify_all()
        for callback in callbacks:
            callback(self)


def collect_all(futures):
    """A future completed, with the list `futures`, once every one of them is completed."""
    combined = Future()
    futures = list(futures)
    remaining = [len(futures)]
    lock = threading.Lock()

    def one_done(_):
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            combined.set_result(futures)
    if not futures:
        combined.set_result([])
    for fut in futures:
        fut.add_done_callback(one_done)
    return combined


def wait_all(futures):
    """The values of `futures`, waiting for each in turn; the first error is raised."""
    return [fut.wait() for fut in futures]
