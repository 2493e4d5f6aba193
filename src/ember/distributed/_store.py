"""Key-value stores, as torch.distributed's: `HashStore` (one process), `FileStore` (a file
shared by processes), `TCPStore` (a server in one process, clients in all) and `PrefixStore`
(a namespace in another store). Process groups meet through one (`_rendezvous.py`).

Values are bytes (`set` takes str or bytes); `add` keeps a counter as its decimal digits;
`get` and `wait` block until the keys exist or the store's timeout passes (DistStoreError).
"""
import errno
import fcntl
import io
import os
import pickle
import socket
import threading
import time
from datetime import timedelta

from ._errors import DistNetworkError, DistStoreError
from ._wire import connect, recv_frame, send_frame

__all__ = ["Store", "HashStore", "FileStore", "TCPStore", "PrefixStore"]

_DEFAULT_TIMEOUT = timedelta(seconds=300)


def _as_bytes(value, method):
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    raise TypeError(f"{method}(): incompatible function arguments: the value must be str or "
                    f"bytes, not {type(value).__name__}")


def _seconds(timeout):
    return timeout.total_seconds() if isinstance(timeout, timedelta) else float(timeout)


class _Table:
    """The state of a store: a dict of bytes, and a condition to wait on for keys."""

    def __init__(self, data=None):
        self.data = {} if data is None else data
        self.changed = threading.Condition()

    def set(self, key, value):
        with self.changed:
            self.data[key] = value
            self.changed.notify_all()

    def add(self, key, amount):
        with self.changed:
            old = self.data.get(key, b"0")
            try:
                value = int(old) + int(amount)
            except ValueError:
                raise ValueError("stoll") from None
            self.data[key] = str(value).encode()
            self.changed.notify_all()
            return value

    def append(self, key, value):
        with self.changed:
            self.data[key] = self.data.get(key, b"") + value
            self.changed.notify_all()

    def compare_set(self, key, expected, desired):
        with self.changed:
            current = self.data.get(key)
            if (current is None and expected == b"") or current == expected:
                self.data[key] = desired
                self.changed.notify_all()
                return desired
            return expected if current is None else current

    def delete_key(self, key):
        with self.changed:
            return self.data.pop(key, None) is not None

    def num_keys(self):
        with self.changed:
            return len(self.data)

    def check(self, keys):
        with self.changed:
            return all(k in self.data for k in keys)

    def wait(self, keys, timeout_s):
        with self.changed:
            if not self.changed.wait_for(lambda: all(k in self.data for k in keys),
                                         timeout=timeout_s):
                raise DistStoreError("Wait timeout")

    def get(self, key, timeout_s):
        self.wait([key], timeout_s)
        with self.changed:
            return self.data[key]


class Store:
    """The common interface; subclasses give `_call(method, *args)`, which runs one of
    `_Table`'s methods on the store's state (`get`/`wait` with a timeout in seconds)."""

    def __init__(self, timeout=_DEFAULT_TIMEOUT):
        self._timeout = timeout

    @property
    def timeout(self):
        """How long `get` and `wait` wait for a key (a timedelta)."""
        return self._timeout

    def set_timeout(self, timeout):
        self._timeout = timeout

    def set(self, key, value):
        """Store `value` (str or bytes) under `key`."""
        self._call("set", key, _as_bytes(value, "set"))

    def get(self, key):
        """The bytes under `key`, waiting for it up to the store's timeout."""
        return self._call("get", key, _seconds(self.timeout))

    def add(self, key, amount):
        """Add `amount` to the counter `key` (missing: 0) and return the new value."""
        return self._call("add", key, int(amount))

    def append(self, key, value):
        """Append `value` to the bytes under `key` (missing: empty)."""
        self._call("append", key, _as_bytes(value, "append"))

    def compare_set(self, key, expected_value, desired_value):
        """Set `key` to `desired_value` if it holds `expected_value` (or is missing and
        `expected_value` is empty); return the value it holds afterwards (for a missing key
        left alone, `expected_value`)."""
        return self._call("compare_set", key, _as_bytes(expected_value, "compare_set"),
                          _as_bytes(desired_value, "compare_set"))

    def delete_key(self, key):
        """Remove `key`; whether it was there."""
        return self._call("delete_key", key)

    def num_keys(self):
        """How many keys the store holds."""
        return self._call("num_keys")

    def check(self, keys):
        """Whether every key in `keys` is set (without waiting)."""
        return self._call("check", list(keys))

    def wait(self, keys, timeout=None):
        """Wait until every key in `keys` is set, up to `timeout` (default: the store's)."""
        self._call("wait", list(keys), _seconds(self.timeout if timeout is None else timeout))

    def multi_get(self, keys):
        return [self.get(k) for k in keys]

    def multi_set(self, keys, values):
        for k, v in zip(keys, values):
            self.set(k, v)

    def has_extended_api(self):
        return True


class HashStore(Store):
    """A store in this process's memory (threads share it)."""

    def __init__(self):
        super().__init__()
        self._table = _Table()

    def _call(self, method, *args):
        return getattr(self._table, method)(*args)


class FileStore(Store):
    """A store kept in a file that processes (on one machine or a shared file system) open
    by name: each change is appended as a record under an exclusive lock, and each access
    replays the records. `world_size` is accepted; torch's removal of the file once every
    user has closed it is not done."""

    def __init__(self, file_name, world_size=-1):
        super().__init__()
        self.path = file_name
        self.world_size = world_size
        open(file_name, "ab").close()

    def _call(self, method, *args):
        if method in ("get", "wait"):
            *args, timeout_s = args
            keys = [args[0]] if method == "get" else args[0]
            deadline = time.monotonic() + timeout_s
            while not self._run("check", keys):
                if time.monotonic() > deadline:
                    raise DistStoreError("Wait timeout")
                time.sleep(0.01)
            return self._run("get", args[0], 0) if method == "get" else None
        return self._run(method, *args)

    def _run(self, method, *args):
        with open(self.path, "a+b") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                f.seek(0)
                table = _Table(self._replay(f.read()))
                before = dict(table.data)
                result = getattr(table, method)(*args)
                records = [("set", k, v) for k, v in table.data.items() if before.get(k) != v]
                records += [("del", k, None) for k in before if k not in table.data]
                for record in records:
                    f.write(pickle.dumps(record))
                f.flush()
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)
        return result

    @staticmethod
    def _replay(raw):
        data, records = {}, io.BytesIO(raw)
        while records.tell() < len(raw):
            op, key, value = pickle.load(records)
            if op == "set":
                data[key] = value
            else:
                data.pop(key, None)
        return data


class TCPStore(Store):
    """A store served over TCP by the process with `is_master=True` (on `port`; 0 picks a
    free one, see `.port`) to clients that connect to (`host_name`, `port`). With
    `wait_for_workers` and a `world_size`, the master waits until that many clients (itself
    included) have connected."""

    def __init__(self, host_name, port, world_size=None, is_master=False,
                 timeout=_DEFAULT_TIMEOUT, wait_for_workers=True, multi_tenant=False,
                 master_listen_fd=None, use_libuv=True):
        super().__init__(timeout)
        self.host = host_name
        self._server = _StoreServer(port) if is_master else None
        self.port = self._server.port if is_master else port
        deadline = time.monotonic() + _seconds(timeout)
        try:
            self._sock = connect(host_name, self.port, deadline)
        except OSError:
            raise DistNetworkError(f"The client socket has timed out after "
                                   f"{round(_seconds(timeout) * 1000)}ms while trying to "
                                   f"connect to ({host_name}, {self.port}).") from None
        self._lock = threading.Lock()
        self._local_host = self._sock.getsockname()[0]
        if is_master and wait_for_workers and world_size:
            self._server.wait_for_clients(world_size, deadline)

    @property
    def libuvBackend(self):
        return False

    def _call(self, method, *args):
        with self._lock:
            send_frame(self._sock, (method, args))
            (status, value), _ = recv_frame(self._sock)
        if status == "err":
            if isinstance(value, DistStoreError) and method in ("get", "wait"):
                keys = [args[0]] if method == "get" else args[0]
                raise DistStoreError(f"wait timeout after {round(args[-1] * 1000)}ms, keys: "
                                     + ", ".join("/" + k for k in keys))
            raise value
        return value

    def _close(self):
        """Close the connection (and, in the master, stop serving)."""
        sock = getattr(self, "_sock", None)
        if sock is not None:
            sock.close()
        if getattr(self, "_server", None) is not None:
            self._server.close()

    __del__ = _close


class _StoreServer:
    """The master's side of a TCPStore: a thread accepting clients and a thread per client
    running its requests on one `_Table`."""

    def __init__(self, port):
        self.table = _Table()
        try:
            self.listener = socket.create_server(("", port), backlog=128)
        except OSError as e:
            raise DistNetworkError(
                f"The server socket has failed to listen on any local network address. port: "
                f"{port}, useIpv6: false, code: -{e.errno}, name: "
                f"{errno.errorcode.get(e.errno, '?')}, message: {os.strerror(e.errno).lower()}") from None
        self.port = self.listener.getsockname()[1]
        self.clients = 0
        self.joined = threading.Condition()
        threading.Thread(target=self._accept, daemon=True, name="ember-store").start()

    def _accept(self):
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return                                  # closed
            with self.joined:
                self.clients += 1
                self.joined.notify_all()
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    def _serve(self, sock):
        with sock:
            while True:
                try:
                    (method, args), _ = recv_frame(sock)
                except (EOFError, OSError):
                    return
                try:
                    reply = ("ok", getattr(self.table, method)(*args))
                except Exception as e:                  # sent back to the client
                    reply = ("err", e)
                try:
                    send_frame(sock, reply)
                except OSError:
                    return

    def wait_for_clients(self, n, deadline):
        with self.joined:
            if not self.joined.wait_for(lambda: self.clients >= n,
                                        timeout=max(0.0, deadline - time.monotonic())):
                raise DistStoreError(f"Timed out after waiting for {n} workers to join the "
                                     f"store ({self.clients} joined)")

    def close(self):
        self.listener.close()


class PrefixStore(Store):
    """Every key of `store` under `prefix + "/"`."""

    def __init__(self, prefix, store):
        super().__init__(store.timeout)
        self.prefix = prefix
        self.underlying_store = store

    def _key(self, key):
        return f"{self.prefix}/{key}"

    @property
    def timeout(self):
        return self.underlying_store.timeout

    def set_timeout(self, timeout):
        self.underlying_store.set_timeout(timeout)

    def _call(self, method, *args):
        if method in ("check", "wait"):
            args = ([self._key(k) for k in args[0]],) + args[1:]
        elif method != "num_keys":
            args = (self._key(args[0]),) + args[1:]
        return self.underlying_store._call(method, *args)
