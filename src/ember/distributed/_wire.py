"""Messages over a stream socket: a small pickled header, then raw payload bytes.

A frame is `header length, payload length` (two unsigned 64-bit big-endian integers), the
pickled header, then the payload. The stores and the process groups' transport both use it.
"""
import pickle
import socket
import struct

_LENGTHS = struct.Struct(">QQ")


def send_frame(sock, header, payload=b""):
    """Write one frame: `header` (any picklable value) and `payload` (a bytes-like object)."""
    head = pickle.dumps(header)
    payload = memoryview(payload).cast("B")
    sock.sendall(_LENGTHS.pack(len(head), payload.nbytes) + head)
    if payload.nbytes:
        sock.sendall(payload)


def recv_frame(sock):
    """Read one frame: (header, payload as a bytearray). Raises EOFError at a clean end."""
    head_len, payload_len = _LENGTHS.unpack(_recv_exact(sock, _LENGTHS.size))
    header = pickle.loads(_recv_exact(sock, head_len))
    return header, _recv_exact(sock, payload_len)


def _recv_exact(sock, n):
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:])
        if k == 0:
            raise EOFError("connection closed")
        got += k
    return buf


def connect(host, port, deadline_s):
    """A socket connected to (host, port), retrying refused connections until `deadline_s`
    (time.monotonic()) passes: the listening side may not be up yet."""
    import time
    while True:
        try:
            sock = socket.create_connection((host, port), timeout=max(0.1, deadline_s -
                                                                       time.monotonic()))
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except OSError:
            if time.monotonic() >= deadline_s:
                raise
            time.sleep(0.05)
