"""CUDA streams and events: torch.cuda's `Stream`, `Event`, `current_stream`, `default_stream`,
`stream` (a context manager) and `set_stream`, over CuPy's streams and events."""
from .._device import device as _device
from ._backend import cupy_or_none
from ._utils import device_index, is_available, lazy_init, require

__all__ = ["Stream", "Event", "StreamContext", "current_stream", "default_stream", "stream",
           "set_stream"]


class Stream:
    """A queue of GPU work on one device; work on different streams may overlap.
    `Stream(device=None, priority=0)`; lower priority numbers run first."""

    def __init__(self, device=None, priority=0, *, _wrap=None, _index=None):
        if _wrap is not None:
            self._cp, self._index = _wrap, _index
            return
        if not is_available():
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        cp = lazy_init()
        self._index = device_index(device, optional=True)
        with cp.cuda.Device(self._index):
            self._cp = cp.cuda.Stream(non_blocking=False, priority=priority or None)

    @property
    def device(self):
        return _device("cuda", self._index)

    @property
    def cuda_stream(self):
        """The raw `cudaStream_t` (0 for the default stream)."""
        return self._cp.ptr

    def query(self):
        """Whether all work queued on this stream has finished."""
        return bool(self._cp.done)

    def synchronize(self):
        """Wait until all work queued on this stream has finished."""
        self._cp.synchronize()

    def wait_event(self, event):
        """Make later work on this stream wait for `event`."""
        self._cp.wait_event(event._event())

    def wait_stream(self, stream):
        """Make later work on this stream wait for all work queued on `stream` now."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        """Record `event` (a new one if None) on this stream and return it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def __eq__(self, other):
        if not isinstance(other, Stream):
            return NotImplemented
        return self.cuda_stream == other.cuda_stream and self._index == other._index

    def __hash__(self):
        return hash((self.cuda_stream, self._index))

    def __enter__(self):
        self._context = StreamContext(self)
        return self._context.__enter__()

    def __exit__(self, *exc):
        self._context.__exit__(*exc)

    def __repr__(self):
        return f"<torch.cuda.Stream device={self.device} cuda_stream={hex(self.cuda_stream)}>"


class Event:
    """A marker in a stream: record it, wait on it, and time the work between two of them
    (`Event(enable_timing=True)`, then `start.elapsed_time(end)` in milliseconds). The CUDA
    event is created on first use, as torch's."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        if not is_available():
            raise RuntimeError("Tried to instantiate dummy base class Event")
        self.enable_timing, self.blocking = enable_timing, blocking
        self.interprocess = interprocess
        self._cp = None
        self._recorded = False

    def _event(self):
        if self._cp is None:
            cp = lazy_init()
            self._cp = cp.cuda.Event(block=self.blocking, disable_timing=not self.enable_timing,
                                     interprocess=self.interprocess)
        return self._cp

    def record(self, stream=None):
        """Mark the current point of `stream` (default: the current stream)."""
        stream = current_stream() if stream is None else stream
        self._event().record(stream._cp)
        self._recorded = True

    def wait(self, stream=None):
        """Make later work on `stream` (default: the current stream) wait for this event."""
        stream = current_stream() if stream is None else stream
        stream.wait_event(self)

    def query(self):
        """Whether the work before this event has finished (True if never recorded)."""
        return True if self._cp is None else bool(self._cp.done)

    def synchronize(self):
        """Wait until the work before this event has finished."""
        if self._cp is not None:
            self._cp.synchronize()

    def elapsed_time(self, end_event):
        """Milliseconds from this event to `end_event` (both recorded and finished)."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if not (self._recorded and end_event._recorded):
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        cp = cupy_or_none()
        return float(cp.cuda.get_elapsed_time(self._cp, end_event._cp))

    def __repr__(self):
        if self._cp is None:
            return "<torch.cuda.Event uninitialized>"
        return f"<torch.cuda.Event {hex(self._cp.ptr)}>"


def _wrap(cp_stream, index):
    return Stream(_wrap=cp_stream, _index=index)


def current_stream(device=None):
    """The stream work is queued on now, for `device` (default: the current device)."""
    cp = lazy_init()
    index = device_index(device, optional=True)
    with cp.cuda.Device(index):
        return _wrap(cp.cuda.get_current_stream(), index)


def default_stream(device=None):
    """The default (null) stream of `device`."""
    cp = lazy_init()
    return _wrap(cp.cuda.Stream.null, device_index(device, optional=True))


def set_stream(stream):
    """Make `stream` the current stream (None: do nothing); prefer the `stream` context."""
    if stream is not None:
        require()
        stream._cp.use()


class StreamContext:
    """Within `with ember.cuda.stream(s):` work is queued on `s` (None: a no-op)."""

    def __init__(self, stream):
        self.stream = stream
        self._previous = None

    def __enter__(self):
        if self.stream is None:
            return None
        cp = lazy_init()
        with cp.cuda.Device(self.stream._index):     # (the stream's device's current one)
            self._previous = cp.cuda.get_current_stream()
        self.stream._cp.use()
        return self.stream

    def __exit__(self, type, value, traceback):
        if self.stream is not None and self._previous is not None:
            self._previous.use()


def stream(stream):
    """Context manager that queues the work inside it on `stream` (None: a no-op)."""
    return StreamContext(stream)
