"""`profile` and `record_function`: time ember's operators and backward nodes.

NOTE [ How the profiler sees ops ]
ember has no dispatcher to hook, and unused features must cost nothing. So while at least one
`profile` is active, every registered operator (`_ops/registry.py`: `ember.<fn>` and
`Tensor.<method>`), the Python operators on Tensor and the public functions of
`ember.nn.functional` are replaced by timing wrappers named as torch names its ops
(`aten::add`), and the backward engine times each node it runs (as torch's
`autograd::engine::evaluate_function: MulBackward0` around `MulBackward0`). The originals
are put back when the last profile exits. Nested calls give nested events; an event's self
time is its time minus its children's.
"""
import enum
import functools
import threading
import time
import warnings

from .. import _patch_ops
from ._events import EventList, FunctionEvent
from .. import _warn

__all__ = ["profile", "record_function", "ProfilerActivity", "schedule", "ProfilerAction",
           "supported_activities", "kineto_available", "tensorboard_trace_handler"]


class ProfilerActivity(enum.Enum):
    # (torch's values and member order)
    CPU = 0
    XPU = 1
    MTIA = 4
    CUDA = 2
    HPU = 3
    PrivateUse1 = 5


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """torch.profiler.schedule: the action for each `step()` number. After `skip_first` steps,
    cycles of `wait` idle steps, `warmup` steps and `active` recorded ones (the last of which
    hands the trace over), `repeat` times (0: for ever); `skip_first_wait` skips the first
    cycle's wait."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup="
            f"{warmup} (need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        _warn.warn("Profiler won't be using warmup, this can skew profiler results",
                   stacklevel=2)

    def schedule_fn(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait:
            step += wait
        cycle = wait + warmup + active
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        mod = step % cycle
        if mod < wait:
            return ProfilerAction.NONE
        if mod < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return schedule_fn


_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
_warned = set()         # the warnings torch gives once per process


def _warn_once(message):
    if message not in _warned:
        _warned.add(message)
        _warn.warn(message, stacklevel=3)


def supported_activities():
    """The activities a profile can record: the CPU (ember times no device kernels)."""
    return {ProfilerActivity.CPU}


def kineto_available():
    """Whether torch's Kineto profiler is built in; ember's events stand in for it."""
    return True


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False,
                              use_python_export=False):
    """An `on_trace_ready` handler writing each trace as a Chrome trace into `dir_name`
    (`<worker_name>.<time in ns>.pt.trace.json`, gzipped with `use_gzip`), for TensorBoard;
    worker_name defaults to `<hostname>_<pid>`."""
    import os
    import socket

    def handler_fn(prof):
        nonlocal worker_name
        if not os.path.isdir(dir_name):
            try:
                os.makedirs(dir_name, exist_ok=True)
            except Exception as e:
                raise RuntimeError("Can't create directory: " + dir_name) from e
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker_name}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, name))
    return handler_fn


_STACK_METRICS = ["self_cpu_time_total", "self_cuda_time_total", "self_xpu_time_total",
                  "self_privateuse1_time_total"]


class _Recorder(threading.local):
    def __init__(self):
        self.stack = []


_recorder = _Recorder()
_active = []            # profiles collecting events, innermost last
_lock = threading.Lock()
_now = time.perf_counter


def _begin(name, shapes=None):
    event = FunctionEvent(name, _now() * 1e6, shapes, threading.get_ident())
    _recorder.stack.append(event)
    return event


def _end(event):
    event.end_us = _now() * 1e6
    stack = _recorder.stack
    if stack and stack[-1] is event:
        stack.pop()
    if stack:
        stack[-1].children_us += event.cpu_time_total
    for prof in _active:
        if prof._recording:
            prof._events.append(event)


def _shapes(args):
    from .._tensor import Tensor
    return [list(a.shape) if isinstance(a, Tensor) else [] for a in args]


def _timed(fn, name):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        stack = _recorder.stack
        if not _active or stack and stack[-1].name == name:   # (F.relu calling ember.relu:
            return fn(*args, **kwargs)                          # one aten::relu, as torch's)
        record = any(p.record_shapes for p in _active)
        event = _begin(name, _shapes(args) if record else None)
        try:
            return fn(*args, **kwargs)
        finally:
            _end(event)
    wrapper.__ember_profiled__ = fn
    return wrapper


_OPERATORS = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub",
    "__rsub__": "rsub", "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul",
    "__imul__": "mul_", "__truediv__": "div", "__rtruediv__": "div", "__itruediv__": "div_",
    "__floordiv__": "floor_divide", "__mod__": "remainder", "__pow__": "pow",
    "__rpow__": "pow", "__matmul__": "matmul", "__rmatmul__": "matmul", "__neg__": "neg",
    "__abs__": "abs", "__getitem__": "index", "__setitem__": "index_put_", "__lt__": "lt",
    "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__eq__": "eq", "__ne__": "ne",
    "__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor",
    "__invert__": "bitwise_not",
}

class _Layer(_patch_ops.Layer):
    """The profiler's timing wrappers (NOTE [ Patching the public operators ]): every
    registered operator, Tensor method and operator, and the functions of nn.functional,
    innermost, so that they time the operator itself."""

    priority = -10

    def wants(self, owner, name, original):
        return self._label(owner, name, original) is not None

    def wrap(self, owner, name, inner):
        return _timed(inner, self._label(owner, name, inner))

    @staticmethod
    def _label(owner, name, original):
        import ember
        from .._ops import registry
        from .._tensor import Tensor
        from ..nn import functional as F
        if owner is ember:
            return f"aten::{name}" if registry.FUNCTIONS.get(name) is original else None
        if owner is Tensor:
            if name in _OPERATORS:
                return f"aten::{_OPERATORS[name]}"
            return f"aten::{name}" if registry.METHODS.get(name) is original else None
        if owner is F and getattr(original, "__module__", "").startswith("ember.nn"):
            return f"aten::{name}"
        return None


_layer = _Layer()


def _install():
    from ..autograd.graph import _Extras
    _patch_ops.activate(_layer)
    _Extras.profiling = True
    _Extras.update()


def _uninstall():
    from ..autograd.graph import _Extras
    _patch_ops.deactivate(_layer)
    _Extras.profiling = False
    _Extras.update()


def time_node(node, grads, run):
    """Called by the backward engine while profiling: time running one node."""
    outer = _begin(f"autograd::engine::evaluate_function: {node.name()}", [])
    try:
        record = any(p.record_shapes for p in _active)
        inner = _begin(node.name(), _shapes(grads) if record else None)
        try:
            return run()
        finally:
            _end(inner)
    finally:
        _end(outer)


class profile:
    """Context manager collecting timed events of ember ops, backward nodes and
    `record_function` ranges.

    >>> with ember.profiler.profile(record_shapes=True) as prof:
    ...     model(x).sum().backward()
    >>> print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False,
                 with_flops=False, with_modules=False, experimental_config=None,
                 execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None):
        self.activities = set(activities) if activities else {ProfilerActivity.CPU}
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.experimental_config = experimental_config
        self.execution_trace_observer = execution_trace_observer
        self.acc_events = acc_events
        self.record_steps = schedule is not None    # (each step a ProfilerStep#<n> range)
        self._metadata = {}
        self._events = []
        self._recording = False
        self._traced = False        # whether a cycle's trace was begun (NOTE [ Schedule cycles ])
        self._step_range = None     # the open `ProfilerStep#<n>` range (only with a schedule)
        self.step_num = 0

    def start(self):
        with _lock:
            if not _active:
                _install()
            _active.append(self)
        self._transit(ProfilerAction.NONE, self._action())
        self._open_step_range()

    def stop(self):
        self._close_step_range()
        if self._action() in _RECORDING:
            self._trace_ready()
        self._recording = False
        with _lock:
            if self in _active:
                _active.remove(self)
            if not _active:
                _uninstall()

    def _action(self):
        return ProfilerAction.RECORD if self.schedule is None else self.schedule(self.step_num)

    @property
    def current_action(self):
        """What the schedule asks of the current step (RECORD without a schedule)."""
        return self._action()

    def add_metadata(self, key, value):
        """Add a string entry to the trace's metadata (written by export_chrome_trace)."""
        self._metadata[key] = f'"{value}"'

    def add_metadata_json(self, key, value):
        """Add an entry (a JSON text) to the trace's metadata."""
        self._metadata[key] = value

    def step(self):
        """Advance the schedule by one step."""
        self._close_step_range()
        before = self._action()
        self.step_num += 1
        self._transit(before, self._action())
        self._open_step_range()

    def _transit(self, before, after):
        """NOTE [ Schedule cycles ]: as torch, a cycle's trace begins on leaving NONE (or on
        the step after a RECORD_AND_SAVE), and the events of earlier cycles are dropped then
        unless `acc_events`; `on_trace_ready` runs after each RECORD_AND_SAVE step, and at
        `stop()` if the profile is recording; a schedule that leaves WARMUP or RECORD early
        only warns."""
        if before is ProfilerAction.RECORD_AND_SAVE:
            self._recording = False
            self._trace_ready()
        elif before is not ProfilerAction.NONE and after is not before and \
                after not in _RECORDING:
            warnings.warn(f"Incorrect schedule: {before.name} followed by {after.name}")
        if after is not ProfilerAction.NONE and before in (ProfilerAction.NONE,
                                                          ProfilerAction.RECORD_AND_SAVE):
            self._prepare_trace()
        self._recording = after in _RECORDING

    def _prepare_trace(self):
        if self._traced and not self.acc_events:
            _warn_once("Warning: Profiler clears events at the end of each cycle. Only events "
                       "from the current cycle will be reported. To keep events across "
                       "cycles, set acc_events=True.")
            self._events = []
        self._traced = True

    def _check_traced(self, doing):
        if not self._traced:        # (the schedule never left NONE)
            raise AssertionError(f"Profiler must be initialized before {doing}")

    def _trace_ready(self):
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _open_step_range(self):
        if self.record_steps:
            # (torch names the range ProfilerStep#<n> and its events "ProfilerStep*")
            self._step_range = _begin("ProfilerStep*")

    def _close_step_range(self):
        if self._step_range is not None:
            _end(self._step_range)
            self._step_range = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def events(self):
        """Every recorded event, in the order they finished."""
        self._check_traced("accessing events")
        return EventList(sorted(self._events, key=lambda e: e.start_us))

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        """Events added up per name (and per input shapes, if asked)."""
        self._check_traced("getting key averages")
        return self.events().key_averages(group_by_input_shape)

    def export_chrome_trace(self, path, use_python_export=False):
        """Write the events as a Chrome trace (open in chrome://tracing or Perfetto); a path
        ending in ".gz" is gzipped."""
        self._check_traced("exporting chrome trace")
        import gzip
        import json
        trace = [{"name": e.name, "ph": "X", "ts": e.start_us, "dur": e.cpu_time_total,
                  "pid": 0, "tid": e.thread, "cat": "cpu_op",
                  "args": {"Input Dims": e.input_shapes}} for e in self.events()]
        document = {"traceEvents": trace}
        document.update({k: json.loads(v) for k, v in self._metadata.items()})
        with (gzip.open(path, "wt") if path.endswith(".gz") else open(path, "w")) as f:
            json.dump(document, f)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """Write the recorded stacks with their `metric` (for flame graphs); ember records
        no Python stacks, so the file is empty."""
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        if metric not in _STACK_METRICS:
            raise ValueError(f"metric should be one of: {_STACK_METRICS}")
        self._check_traced("exporting stacks")
        with open(path, "w"):
            pass


class record_function:
    """Context manager and decorator: a named range in the profile (free when no profile is
    active).

    >>> with ember.profiler.record_function("model_inference"):
    ...     y = model(x)
    """

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._event = None

    def __enter__(self):
        if _active:
            self._event = _begin(self.name)
        return self

    def __exit__(self, *exc):
        if self._event is not None:
            _end(self._event)
            self._event = None

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)
        return wrapper
