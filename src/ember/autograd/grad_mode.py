"""Grad mode: whether ops record the backward graph. Thread-local, as in torch.

`no_grad`, `enable_grad` and `set_grad_enabled` work as context managers and as decorators,
and so does `inference_mode`, under which new tensors are inference tensors (NOTE [ Inference
tensors ] in _tensor.py).
"""
import functools
import inspect
import threading


class _GradState(threading.local):
    def __init__(self):
        self.enabled = True         # whether ops record the graph (what the hot paths read)
        self.inference = False      # inside inference_mode(): no graph whatever the grad mode
        self.grad = False           # the grad mode set inside inference_mode (enabled is False)
        self.layout_enforced = True     # enforce_grad_layout_policy: .grad laid out like
        #                                 its leaf, even when the incoming gradient is not


_state = _GradState()


def is_grad_enabled():
    """Whether grad mode is on in this thread (inside `inference_mode`, ops record no graph
    even when it is)."""
    return _state.grad if _state.inference else _state.enabled


def _set_grad_mode(mode):
    if _state.inference:
        _state.grad = mode
    else:
        _state.enabled = mode


class _GradModeContext:
    """Base for grad-mode context managers that also decorate functions and generators."""

    def __call__(self, fn):
        if inspect.isclass(fn):
            raise RuntimeError("grad mode decorators cannot decorate classes")
        if inspect.isgeneratorfunction(fn):
            return self._wrap_generator(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            gen = fn(*args, **kwargs)
            try:
                with self.clone():
                    request = gen.send(None)
                while True:
                    try:
                        response = yield request
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException as exc:
                        with self.clone():
                            request = gen.throw(exc)
                    else:
                        with self.clone():
                            request = gen.send(response)
            except StopIteration as stop:
                return stop.value
        return wrapper

    def clone(self):
        return type(self)()

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_mode(self._mode)

    def __exit__(self, *exc):
        _set_grad_mode(self.prev)


class _NoParamDecorator(_GradModeContext):
    """Also usable as a bare decorator: `@no_grad` as well as `@no_grad()`."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecorator):
    """Context manager and decorator: ops inside record no graph.

    >>> with ember.no_grad():
    ...     y = x * 2          # y.requires_grad is False
    """
    _mode = False

    def __init__(self, orig_func=None):
        self.prev = False           # (torch's: the mode before entering, False until then)


class enable_grad(_NoParamDecorator):
    """Context manager and decorator: ops inside record the graph, even within `no_grad`."""
    _mode = True


class set_grad_enabled(_GradModeContext):
    """Turn graph recording on or off: as a function call, a context manager, or a decorator."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type(mode).__name__}")
        self.prev = is_grad_enabled()
        self._mode = mode
        _set_grad_mode(mode)

    def clone(self):
        return set_grad_enabled(self._mode)

    def __call__(self, fn):
        # Used as a decorator, the mode set by __init__ applies only inside `fn`.
        _set_grad_mode(self.prev)
        return super().__call__(fn)

    def __enter__(self):
        _set_grad_mode(self._mode)

    def __exit__(self, *exc):
        _set_grad_mode(self.prev)


class inference_mode(_GradModeContext):
    """Context manager and decorator (`@inference_mode`, `@inference_mode()`): no graph is
    recorded inside, even under `enable_grad`, and the tensors made inside are inference
    tensors (`is_inference()`): they never require grad outside it, cannot be saved for
    backward, and are not to be written in place outside it. `inference_mode(False)` turns it
    off again inside (grad mode on, normal tensors)."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)          # a bare decorator: `mode` is the function

    def __init__(self, mode=True):
        self.mode = mode

    def clone(self):
        return inference_mode(self.mode)

    def __enter__(self):
        self._prev = (_state.enabled, _state.inference, _state.grad)
        if self.mode:
            _state.enabled = _state.grad = False
            _inference_entered(1)
        else:
            _state.enabled = True
        _state.inference = self.mode

    def __exit__(self, *exc):
        _state.enabled, _state.inference, _state.grad = self._prev
        if self.mode:
            _inference_entered(-1)


_inference_lock = threading.Lock()
_inference_depth = 0        # inference_mode() blocks open, in all threads together
_inference_listeners = []   # told whether any is open (_tensor.py's flag for `_init`)


def _inference_entered(step):
    """Count an inference_mode() block entered (1) or left (-1); while any is open, new
    tensors ask whether their thread is in inference mode (NOTE [ Inference tensors ])."""
    global _inference_depth
    with _inference_lock:
        _inference_depth += step
        for listener in _inference_listeners:
            listener(_inference_depth > 0)


def is_inference_mode_enabled():
    """Whether code runs inside `inference_mode()`."""
    return _state.inference


class enforce_grad_layout_policy:
    """Whether a leaf's new `.grad` must be laid out like the leaf (True, the default), or
    may be a fresh incoming gradient as it is, whatever its strides (False). A function call
    that sets it, or a context manager that restores it on exit (per thread).

        >>> with ember.autograd.enforce_grad_layout_policy(False):
        ...     (w.contiguous() * 2).sum().backward()     # w.grad keeps the row-major strides
    """

    def __init__(self, enable=True):
        if not isinstance(enable, bool):
            raise TypeError(f"set_grad_layout_enforcement_enabled(): argument 'enabled' "
                            f"(position 1) must be bool, not {type(enable).__name__}")
        self.prev = _state.layout_enforced
        _state.layout_enforced = enable

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _state.layout_enforced = self.prev
