"""The gloo backend's transport: a socket between every two processes of the world, a reader
thread per socket, and a mailbox where received messages wait for their receiver.

NOTE [ Distributed protocol ]
At `init_process_group`, each rank listens on a free port and publishes `host:port` in the
store under `addr/<rank>`; it connects to every lower rank (sending its own rank first) and
accepts a connection from every higher one, so the world is a full mesh of TCP sockets. A
message is one frame (`_wire.py`): a header `(key, meta)` and raw bytes. A reader thread per
socket reads frames as they come and files them in the mailbox under (sender, key), first in
first out, so sending never waits for the receiver: a process writes to a socket while its
peer's reader drains it, and two processes sending to each other at once cannot deadlock.

Keys say what a message belongs to: ("p2p", group, tag) for `send`/`recv`, and
("c", group, n) for the n-th collective a group has run (every member counts its calls in
the same order, as torch requires them to be made in the same order). A collective is a set
of direct sends and receives (`_collectives.py`): all_reduce sends each member's tensor to
every other member and each member combines the tensors in group rank order, so every rank
computes the same operations on the same bytes and holds bit-identical results, the same
from run to run. The `meta` of a tensor message is its dtype and shape, checked against the
receiving tensor before its bytes are used. A receive waits for the group's timeout;
`destroy_process_group` half-closes each socket (no more sends) and a socket is closed once
its reader has seen the peer's end, so no unread data can reset a connection early.
"""
import socket
import struct
import threading
import time
from collections import deque

from ._wire import connect, recv_frame, send_frame

_RANK = struct.Struct(">Q")


def _advertised_host(store):
    """The address other processes reach this one at: the one it reaches the TCPStore from;
    the loopback for stores on one machine."""
    while hasattr(store, "underlying_store"):
        store = store.underlying_store
    return getattr(store, "_local_host", "127.0.0.1")


class Mailbox:
    """Received messages by (sender, key), first in first out, and the receives that wait
    for them; a transport's reader threads `deliver` into it."""

    def __init__(self):
        self.mailbox = {}                     # (peer, key) -> deque of (meta, payload)
        self.ended = set()                    # peers whose connection has closed
        self.arrived = threading.Condition()

    def deliver(self, peer, key, meta, payload):
        with self.arrived:
            self.mailbox.setdefault((peer, key), deque()).append((meta, payload))
            self.arrived.notify_all()

    def ready(self, peer, key):
        """Whether a message from `peer` under `key` has arrived."""
        with self.arrived:
            return bool(self.mailbox.get((peer, key)))

    def recv(self, peers, key, timeout_s):
        """The first message under `key` from any of `peers` (tried in the order given):
        (peer, meta, payload). Raises RuntimeError after `timeout_s` or when a peer's
        connection closed with nothing left for us."""
        def found():
            return next((p for p in peers if self.mailbox.get((p, key))), None)
        with self.arrived:
            got = self.arrived.wait_for(
                lambda: found() is not None or any(p in self.ended for p in peers),
                timeout=timeout_s)
            peer = found()
            if peer is not None:
                queue = self.mailbox[(peer, key)]
                meta, payload = queue.popleft()
                if not queue:
                    del self.mailbox[(peer, key)]
                return peer, meta, payload
            if got:
                gone = next(p for p in peers if p in self.ended)
                raise RuntimeError(f"Connection closed by peer [rank {gone}]")
            raise RuntimeError(f"Timed out waiting {round(timeout_s * 1000)}ms for recv "
                               f"operation to complete")


class Mesh(Mailbox):
    """Connected sockets to every other rank of the world, and the mailbox they fill."""

    def __init__(self, store, rank, world_size, timeout_s):
        super().__init__()
        self.rank = rank
        self.world_size = world_size
        self.socks = {}
        self.send_locks = {}
        self.closing = False
        deadline = time.monotonic() + timeout_s
        listener = socket.create_server(("", 0), backlog=max(world_size, 1))
        with listener:
            host = _advertised_host(store)
            store.set(f"addr/{rank}", f"{host}:{listener.getsockname()[1]}")
            for peer in range(rank):
                peer_host, port = store.get(f"addr/{peer}").decode().rsplit(":", 1)
                sock = connect(peer_host, int(port), deadline)
                sock.sendall(_RANK.pack(rank))
                self._add(peer, sock)
            for _ in range(rank + 1, world_size):
                listener.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    sock, _ = listener.accept()
                except socket.timeout:
                    raise RuntimeError(f"Timed out initializing process group: rank {rank} "
                                       f"waited {timeout_s:g} s for the higher ranks to "
                                       f"connect") from None
                sock.settimeout(None)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                peer = _RANK.unpack(_recv_rank(sock))[0]
                self._add(peer, sock)

    def _add(self, peer, sock):
        self.socks[peer] = sock
        self.send_locks[peer] = threading.Lock()
        threading.Thread(target=self._read, args=(peer, sock), daemon=True,
                         name=f"ember-dist-reader-{peer}").start()

    def _read(self, peer, sock):
        try:
            while True:
                (key, meta), payload = recv_frame(sock)
                self.deliver(peer, key, meta, payload)
        except (EOFError, OSError):
            pass
        with self.arrived:
            self.ended.add(peer)
            if self.closing:
                sock.close()
            self.arrived.notify_all()

    def send(self, peer, key, meta, payload=b""):
        """Send one message to `peer` (it never waits for the receiver)."""
        try:
            with self.send_locks[peer]:
                send_frame(self.socks[peer], (key, meta), payload)
        except OSError:
            raise RuntimeError(f"Connection closed by peer [rank {peer}]") from None

    def close(self):
        """Stop sending; each socket closes once its peer has stopped too."""
        with self.arrived:
            self.closing = True
            for peer, sock in self.socks.items():
                try:
                    sock.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                if peer in self.ended:
                    sock.close()


def _recv_rank(sock):
    buf = b""
    while len(buf) < _RANK.size:
        chunk = sock.recv(_RANK.size - len(buf))
        if not chunk:
            raise RuntimeError("a connecting process closed before saying its rank")
        buf += chunk
    return buf
