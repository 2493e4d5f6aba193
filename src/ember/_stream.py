"""`ember.Stream` and `ember.Event`: torch's device-generic stream and event.

On the CPU (and the meta device) work is done when a call returns, so a stream is a name for
"in order" (`query()` is True, `synchronize()` returns at once) and events cannot be recorded,
as in torch. A CUDA device (when ember can use one) gives `ember.cuda.Stream` / `Event`.
"""
from ._device import device as _device

# torch's DeviceType numbers (`Stream.device_type`) of the devices ember knows.
_DEVICE_TYPE_CODES = {"cpu": 0, "cuda": 1, "meta": 14}


def _resolve(device, where):
    """The ember.device a Stream or Event is made for; torch's errors for other arguments."""
    from . import cuda
    if device is None:
        return _device("cuda") if cuda.is_available() else _device("cpu")
    if isinstance(device, int) and not isinstance(device, bool):     # an accelerator index
        if not cuda.is_available():
            raise RuntimeError("Cannot access accelerator device when none is available.")
        return _device("cuda", device)
    if not isinstance(device, (str, _device)):
        raise TypeError(f"{where}(): argument 'device' must be torch.device, not "
                        f"{type(device).__name__}")
    device = _device(device)
    if device.type == "cuda" and not cuda.is_available():
        raise RuntimeError("PyTorch is not linked with support for cuda devices")
    return device


def _plain(device):
    # A CPU or meta stream's index is -1 (torch drops 'cpu:0''s index too).
    return _device(device.type)


class Stream:
    """`Stream(device=None, *, priority=0)`: a queue of work on `device` (default: the
    accelerator if there is one, else the CPU). A CUDA device gives an `ember.cuda.Stream`."""

    def __new__(cls, device=None, *, priority=0):
        device = _resolve(device, "Stream")
        if device.type == "cuda":
            from .cuda import Stream as CudaStream
            return CudaStream(device, priority=priority)
        self = super().__new__(cls)
        self.device = _plain(device)
        return self

    @property
    def device_type(self):
        return _DEVICE_TYPE_CODES[self.device.type]

    @property
    def device_index(self):
        return -1

    @property
    def stream_id(self):
        return 0

    @property
    def native_handle(self):
        raise RuntimeError("Backend doesn't support getting stream native handle.")

    def query(self):
        """Whether all work queued on this stream has finished: always, off an accelerator."""
        return True

    def synchronize(self):
        """Wait for the stream's work: nothing to wait for."""

    def is_capturing(self):
        return False

    def wait_event(self, event):
        """Make later work wait for `event`: nothing to wait for."""

    def record_event(self, event=None):
        raise RuntimeError(f"{self.device.type} backend doesn't support events.")

    def wait_stream(self, stream):
        self.record_event()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        return False

    def __eq__(self, other):
        if not isinstance(other, Stream):
            return NotImplemented
        return self.device == other.device

    def __hash__(self):
        return hash((self.device_type, self.device_index, self.stream_id))

    def __repr__(self):
        return (f"torch.Stream device_type={self.device.type}, device_index=-1, "
                f"stream_id={self.stream_id}")


class Event:
    """`Event(device=None, *, enable_timing=False, blocking=False, interprocess=False)`: a
    marker in a stream. Off an accelerator an event cannot be recorded (torch's error); a CUDA
    device gives an `ember.cuda.Event`."""

    def __new__(cls, device=None, *, enable_timing=False, blocking=False, interprocess=False):
        device = _resolve(device, "Event")
        if device.type == "cuda":
            from .cuda import Event as CudaEvent
            return CudaEvent(enable_timing, blocking, interprocess)
        self = super().__new__(cls)
        self.device = _plain(device)
        self.enable_timing = enable_timing
        return self

    @property
    def event_id(self):
        return 0

    def record(self, stream=None):
        raise RuntimeError(f"{self.device.type} backend doesn't support events.")

    def wait(self, stream=None):
        """Make `stream`'s later work wait for this event: nothing to wait for."""

    def query(self):
        return True

    def synchronize(self):
        """Wait for the work before this event: nothing to wait for."""

    def elapsed_time(self, end_event):
        if not isinstance(end_event, Event):
            raise RuntimeError("expected other to be a torch.Event object")
        if not (self.enable_timing and end_event.enable_timing):
            raise ValueError("Both events must be created with argument 'enable_timing=True'.")
        raise ValueError("Both events must be recorded before calculating elapsed time.")

    def ipc_handle(self):
        raise NotImplementedError("torch.Event ipc is not supported yet, please open an issue "
                                  "if you need this!")

    @classmethod
    def from_ipc_handle(cls, device, ipc_handle):
        raise NotImplementedError("torch.Event ipc is not supported yet, please open an issue "
                                  "if you need this!")

    def __repr__(self):
        return (f"torch.Event device_type={self.device.type}, device_index=-1, "
                f"event_flag={int(self.enable_timing)}, event_id={self.event_id}")


Stream.__module__ = Event.__module__ = "ember"
