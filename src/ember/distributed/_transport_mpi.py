"""The "mpi" backend's transport (with the optional extra `mpi`: mpi4py and an MPI library):
the same messages and mailbox as the sockets of `_transport.py` (NOTE [ Distributed
protocol ]), carried by MPI point-to-point calls on a duplicate of MPI_COMM_WORLD. The world
is the one `mpiexec` started: rank and size come from MPI, no store is needed.

A message is two MPI messages from one sender, in order (MPI never reorders messages between
two processes on one communicator and tag): the pickled (key, meta, payload size), then the
payload's bytes. A reader thread (MPI_THREAD_MULTIPLE) receives every message and files it in
the mailbox, so sends, even large ones, always find their receive posted.
"""
import atexit
import threading

import numpy as np

from ._transport import Mailbox

_HEADER, _PAYLOAD = 1, 2


def mpi_available():
    """Whether mpi4py imports (and with it an MPI library)."""
    try:
        from mpi4py import MPI  # noqa: F401
    except Exception:  # noqa: BLE001 - any failure to load MPI means no MPI backend
        return False
    return True


class MpiMesh(Mailbox):
    """Every rank of MPI_COMM_WORLD, reached through MPI sends, and the mailbox they fill."""

    def __init__(self):
        super().__init__()
        from mpi4py import MPI
        if MPI.Query_thread() < MPI.THREAD_MULTIPLE:
            raise RuntimeError("the mpi backend needs an MPI library initialised with "
                               "MPI_THREAD_MULTIPLE")
        self.MPI = MPI
        self.comm = MPI.COMM_WORLD.Dup()
        self.rank = self.comm.Get_rank()
        self.world_size = self.comm.Get_size()
        self.send_lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True, name="ember-dist-mpi")
        self.reader.start()
        atexit.register(self.close)           # before mpi4py's own MPI_Finalize

    def _read(self):
        status = self.MPI.Status()
        while True:
            key, meta, size = self.comm.recv(source=self.MPI.ANY_SOURCE, tag=_HEADER,
                                             status=status)
            peer = status.Get_source()
            if key is None:                   # close() from this process
                return
            payload = bytearray(size)
            if size:
                self.comm.Recv([payload, self.MPI.BYTE], source=peer, tag=_PAYLOAD)
            self.deliver(peer, key, meta, payload)

    def send(self, peer, key, meta, payload=b""):
        """Send one message to `peer`."""
        data = np.frombuffer(memoryview(payload).cast("B"), np.uint8)
        with self.send_lock:
            self.comm.send((key, meta, data.nbytes), dest=peer, tag=_HEADER)
            if data.nbytes:
                self.comm.Send([data, self.MPI.BYTE], dest=peer, tag=_PAYLOAD)

    def close(self):
        """Stop the reader (a message to itself) and free the communicator."""
        if self.reader is None:
            return
        self.comm.send((None, None, 0), dest=self.rank, tag=_HEADER)
        self.reader.join()
        self.reader = None
        self.comm.Free()


