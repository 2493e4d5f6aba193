"""Grad mode: whether ops record the backward graph. Thread-local, as in torch.

`no_grad`, `enable_grad` and `set_grad_enabled` work as context managers and as decorators;
`inference_mode` behaves like `no_grad` here.
"""
import functools
import inspect
import threading


class _GradState(threading.local):
    def __init__(self):
        self.enabled = True
        self.inference = False


_state = _GradState()


def is_grad_enabled():
    """Whether new ops record the graph in this thread."""
    return _state.enabled


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
        self._prev = _state.enabled
        _state.enabled = self._mode

    def __exit__(self, *exc):
        _state.enabled = self._prev


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


class enable_grad(_NoParamDecorator):
    """Context manager and decorator: ops inside record the graph, even within `no_grad`."""
    _mode = True


class set_grad_enabled(_GradModeContext):
    """Turn graph recording on or off: as a function call, a context manager, or a decorator."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'mode' must be bool, not "
                            f"{type(mode).__name__}")
        self._prev = _state.enabled
        self._mode = mode
        _state.enabled = mode

    def clone(self):
        return set_grad_enabled(self._mode)

    def __call__(self, fn):
        # Used as a decorator, the mode set by __init__ applies only inside `fn`.
        _state.enabled = self._prev
        return super().__call__(fn)

    def __enter__(self):
        _state.enabled = self._mode

    def __exit__(self, *exc):
        _state.enabled = self._prev


class inference_mode(_GradModeContext):
    """Like `no_grad` (ember keeps no separate inference tensors)."""

    def __init__(self, mode=True):
        self._mode = not mode
        self._inference = mode

    def clone(self):
        return inference_mode(self._inference)

    def __enter__(self):
        super().__enter__()
        self._prev_inference = _state.inference
        _state.inference = self._inference

    def __exit__(self, *exc):
        super().__exit__(*exc)
        _state.inference = self._prev_inference


def is_inference_mode_enabled():
    """Whether code runs inside `inference_mode()`."""
    return _state.inference
