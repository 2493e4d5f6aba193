"""Messages over a Unix socket, each carrying its shared-memory descriptors with it (SCM_RIGHTS),
so a message stands alone: no live sender is needed to read it, and a message never read
releases its memory when the socket closes. Used by DataLoader workers."""
import os
import socket
import struct

from .reductions import dumps_with_fds, loads_with_fds

_HEADER = struct.Struct("<QI")        # payload bytes, descriptor count
_MAX_FDS = 253


def send(sock, obj):
    payload, fds, keep_open = dumps_with_fds(obj)
    message = _HEADER.pack(len(payload), len(fds)) + payload     # one write, one wake-up
    sent = socket.send_fds(sock, [message], fds) if fds else 0
    sock.sendall(memoryview(message)[sent:])
    del keep_open


def _read_exactly(sock, n):
    buf = bytearray(n)
    view, got = memoryview(buf), 0
    while got < n:
        k = sock.recv_into(view[got:])
        if k == 0:
            raise EOFError("the sender closed the connection")
        got += k
    return bytes(buf)


def recv(sock):
    """The next message; EOFError when the peer closed (or died) before a whole one."""
    head, fds, _, _ = socket.recv_fds(sock, _HEADER.size, _MAX_FDS)
    try:
        if not head:
            raise EOFError("the sender closed the connection")
        if len(head) < _HEADER.size:
            head += _read_exactly(sock, _HEADER.size - len(head))
        size, count = _HEADER.unpack(head)
        payload = _read_exactly(sock, size)
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return loads_with_fds(payload, fds)
