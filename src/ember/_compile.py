"""`ember.compile`: accepted so that code written for `torch.compile` runs unchanged.

ember executes eagerly; there is no graph capture and no code generation. A compiled module is
an `OptimizedModule` wrapping the original, as torch returns (state_dict keys gain the
`_orig_mod.` prefix, attribute reads reach the original); a compiled function is a thin
wrapper around it. Results are exactly those of the uncompiled model.
"""
import functools

from .nn import Module

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


class OptimizedModule(Module):
    """What `compile(module)` returns: the module, run as it is. As torch's wrapper, it
    stands for the original: attributes read, set and deleted on it are the original's (but
    its own few and its class's), `training` is the original's, and `len` is its length."""

    # names kept on the wrapper itself (torch's list)
    _opt_mod_attributes = frozenset({"_orig_mod", "dynamo_ctx", "_torchdynamo_orig_callable",
                                     "_torchdynamo_wrapper_id", "get_compiler_config",
                                     "forward", "_forward", "__dict__", "named_children_walk",
                                     "_super_module_initialized"})

    def __init__(self, mod):
        # (first, as torch: Module.__init__ already goes through `training` below)
        object.__setattr__(self, "_orig_mod", mod)
        self._super_module_initialized = False
        super().__init__()
        self._super_module_initialized = True
        self._orig_mod = mod        # registers it as the child module

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    @property
    def training(self):
        return self._orig_mod.training

    @training.setter
    def training(self, value):
        if self._super_module_initialized:     # (Module.__init__'s default is not mirrored)
            self._orig_mod.training = value

    def __len__(self):
        if hasattr(self._orig_mod, "__len__"):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name == "_orig_mod":
                raise
            return getattr(self._orig_mod, name)

    def __setattr__(self, name, value):
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__setattr__(name, value)
        return setattr(self._orig_mod, name, value)

    def __delattr__(self, name):
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__delattr__(name)
        return delattr(self._orig_mod, name)

    def __dir__(self):
        own = self._orig_mod.__dir__()
        return own + [name for name in super().__dir__() if name not in own]


def compile(model=None, *, fullgraph=False, dynamic=None, backend=None, mode=None,
            options=None, name=None, disable=False, recompile_limit=None,
            isolate_recompiles=False, shapes_spec=None):
    """`torch.compile`: returns `model` ready to run (eagerly, in ember). Used bare, with
    arguments, or as a decorator (`@ember.compile` / `@ember.compile(mode=...)`). The
    compiler's options are accepted and have nothing to tune."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if model is None:
        return functools.partial(compile, fullgraph=fullgraph, dynamic=dynamic,
                                 backend=backend, mode=mode, options=options, name=name,
                                 disable=disable, recompile_limit=recompile_limit,
                                 isolate_recompiles=isolate_recompiles,
                                 shapes_spec=shapes_spec)
    if isinstance(backend, str):
        from .compiler import _BACKENDS
        if backend not in _BACKENDS:
            from ._dynamo.exc import InvalidBackend
            raise InvalidBackend(backend)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if isinstance(model, Module):
        return OptimizedModule(model)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)
    return compiled
