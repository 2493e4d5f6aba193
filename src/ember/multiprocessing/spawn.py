"""`spawn`/`start_processes`: run `fn(i, *args)` in `nprocs` processes and re-raise, in the
parent, the first failure (with the child's traceback) after stopping the others."""
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import tempfile
import traceback
from .. import _warn

__all__ = ["spawn", "start_processes", "ProcessContext", "ProcessException",
           "ProcessRaisedException", "ProcessExitedException"]


class ProcessException(Exception):
    def __init__(self, msg, error_index, error_pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = error_pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A process failed because its function raised."""


class ProcessExitedException(ProcessException):
    """A process failed by a signal or a non-zero exit code."""

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code,
                            self.signal_name)


def _wrap(fn, i, args, error_file):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass                                  # the parent is stopping us
    except Exception:
        with open(error_file, "wb") as f:
            pickle.dump(traceback.format_exc(), f)
        raise SystemExit(1)


class ProcessContext:
    """The started processes; `join()` waits and raises the first failure."""

    def __init__(self, processes, error_files):
        self.processes = processes
        self.error_files = error_files
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self):
        return [p.pid for p in self.processes]

    def _join_all(self, timeout):
        multiprocessing.connection.wait([p.sentinel for p in self.processes
                                         if p.is_alive()], timeout=timeout)

    def join(self, timeout=None, grace_period=None):
        """Wait (up to `timeout` seconds) for processes to end. Returns True when all have
        ended well, False when some still run; raises when one failed, after terminating the
        rest (SIGTERM, then SIGKILL after a grace period)."""
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(list(self.sentinels), timeout=timeout)
        failed = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            self.processes[index].join()
            if self.processes[index].exitcode != 0:
                failed = index
                break
        if failed is None:
            return not self.sentinels
        self._stop_others(grace_period)
        self._cleanup_files(keep=failed)
        self._raise_for(failed)

    def _stop_others(self, grace_period):
        if grace_period is not None:
            self._join_all(grace_period)
        for p in self.processes:
            if p.is_alive():
                p.terminate()
        self._join_all(30 if grace_period is None else grace_period)
        for p in self.processes:
            if p.is_alive():
                p.kill()
            p.join()

    def _cleanup_files(self, keep=None):
        for i, name in enumerate(self.error_files):
            if i != keep and os.path.exists(name):
                os.unlink(name)

    def _raise_for(self, index):
        process, path = self.processes[index], self.error_files[index]
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            code = process.exitcode
            if os.path.exists(path):
                os.unlink(path)
            if code < 0:
                try:
                    name = signal.Signals(-code).name
                except ValueError:
                    name = f"<Unknown signal {-code}>"
                raise ProcessExitedException(
                    f"process {index:d} terminated with signal {name}", error_index=index,
                    error_pid=process.pid, exit_code=code, signal_name=name)
            raise ProcessExitedException(
                f"process {index:d} terminated with exit code {code:d}", error_index=index,
                error_pid=process.pid, exit_code=code)
        with open(path, "rb") as f:
            trace = pickle.load(f)
        os.unlink(path)
        msg = f"\n\n-- Process {index:d} terminated with the following error:\n{trace}"
        raise ProcessRaisedException(msg, index, process.pid)


class SpawnContext(ProcessContext):
    pass


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Start `nprocs` processes running `fn(i, *args)` with the given start method; with
    `join`, wait for all and re-raise a failure, else return the `ProcessContext`."""
    ctx = multiprocessing.get_context(start_method)
    processes, error_files = [], []
    for i in range(nprocs):
        fd, name = tempfile.mkstemp(prefix="ember_spawn_")
        os.close(fd)
        os.unlink(name)            # the child creates it only to report an error
        process = ctx.Process(target=_wrap, args=(fn, i, args, name), daemon=daemon)
        process.start()
        processes.append(process)
        error_files.append(name)
    context = ProcessContext(processes, error_files)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """`start_processes` with the "spawn" start method.

    >>> def work(i, q): q.put(i)
    >>> spawn(work, args=(queue,), nprocs=2)    # runs work(0, queue) and work(1, queue)
    """
    if start_method != "spawn":
        _warn.warn(f"This method only supports start_method=spawn (got: {start_method}).\n"
                   "To use a different start_method use:\n\t\t "
                   "torch.multiprocessing.start_processes(...)", FutureWarning, stacklevel=2)
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
