"""`Work`: the handle an `async_op=True` call or `isend`/`irecv` returns."""

__all__ = ["Work"]


class Work:
    """A pending (or finished) operation: `wait()` blocks until it is done (and raises its
    error), `is_completed()` asks without waiting, `result()` gives its tensors.

    It is backed by a future of the group's worker thread (asynchronous collectives), by a
    deferred receive (`irecv`: the message is taken at `wait()`), or by nothing (done)."""

    def __init__(self, future=None, run=None, ready=None, result=()):
        self._future = future
        self._run = run
        self._ready = ready
        self._result = list(result)
        self._error = None

    def wait(self, timeout=None):
        if self._future is not None:
            self._future.result()
        elif self._run is not None:
            run, self._run = self._run, None
            try:
                run()
            except Exception as e:
                self._error = e
                raise
        elif self._error is not None:
            raise self._error
        return True

    def is_completed(self):
        if self._future is not None:
            return self._future.done()
        if self._run is not None:
            return False if self._ready is None else self._ready()
        return True

    def is_success(self):
        if self._future is not None:
            return self._future.done() and self._future.exception() is None
        return self._run is None and self._error is None

    def exception(self):
        if self._future is not None and self._future.done():
            return self._future.exception()
        return self._error

    def result(self):
        return self._result

    def synchronize(self):
        self.wait()
