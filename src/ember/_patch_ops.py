"""Swap every public operator for a wrapper while some feature needs to see every call.

NOTE [ Patching the public operators ]
Some features must intercept every operator call: forward AD (tangents ride along) and
`__torch_function__` (Tensor subclasses and TorchFunctionModes). Checking for them inside every
operator would slow down every call of every program, so instead, while such a feature is
active, the public operators themselves are replaced by wrappers, and the originals are put
back when no feature needs them any more. Ordinary programs pay nothing.

A feature is a `Layer`: it says which operators it wants (`wants`) and how to wrap one
(`wrap`, given what it wraps: the original, or the wrapper of a layer below it). Layers stack
by `priority`, the highest outermost (`__torch_function__` runs before forward AD sees the
call, as in torch). The operators are, as `points` (owner, name, original):
- the public functions of `ember`, `ember.nn.functional`, `ember.linalg`, `ember.special`,
  `ember.fft`, the RNN functions, `ember.autograd` (`grad`, `backward`) and its forward_ad
  (`make_dual`, `unpack_dual`);
- the attributes of `Tensor` not private (methods, operators, dunders, properties);
- `autograd.Function.apply`.
What a set of layers installs is worked out once and remembered, and so is what changes
between two sets: turning a layer on or off writes only the attributes that change (a
module's in one `dict.update`), which vmap does around every call.

Copies of a patched function kept elsewhere (an nn module's class attribute
`Conv2d._function = F.conv2d`, a module global `cat`, or the function an autocast wrapper
wraps) get the same installed value as the function itself.
"""
import sys
import types

_points = None          # [(owner, name, original)]
_aliases = None         # [(owner, name, original, index of the point it copies)]
_active = []            # the active layers, lowest priority first
_cache = {}             # (id(layer), index, id(inner)) -> (inner, wrapper)
_originals = {}         # id(installed wrapper) -> (wrapper, the original it stands for)
_installed = {}         # id(original) -> (original, the wrapper installed for it now)


class Layer:
    """A feature that wraps operators while active (see the module's NOTE)."""

    priority = 0

    def wants(self, owner, name, original):
        """Whether to wrap `owner.name` (`original` is the unpatched attribute)."""
        raise NotImplementedError

    def wrap(self, owner, name, inner):
        """The value to install as `owner.name` in place of `inner` (a function, or a
        property or classmethod for such attributes)."""
        raise NotImplementedError


def activate(layer):
    """Start wrapping the operators `layer` wants (a no-op when it is active already)."""
    if layer not in _active:
        _active.append(layer)
        _active.sort(key=lambda l: l.priority)
        _install()


def deactivate(layer):
    """Stop wrapping for `layer`; with no layer left, every original is back."""
    if layer in _active:
        _active.remove(layer)
        _install()


def is_active(layer):
    return layer in _active


def original(value):
    """The original public operator that `value` (an installed wrapper) stands for, or `value`
    itself (torch.fx names and compares targets by the originals)."""
    entry = _originals.get(id(value))
    return entry[1] if entry is not None and entry[0] is value else value


_publics = None         # id(a function a public operator wraps) -> that operator


def public(fn):
    """The public operator (`ember.cat`, `Tensor.add`) whose original is `fn` or wraps it
    (through `__wrapped__`: registry and autocast wrappers); `fn` itself if none does."""
    global _publics
    if _publics is None:
        table = {}
        for _, _, original in _build()[0]:
            inner = original
            while inner is not None:
                table.setdefault(id(inner), (inner, original))
                inner = getattr(inner, "__wrapped__", None)
        _publics = table
    entry = _publics.get(id(fn))
    return entry[1] if entry is not None and entry[0] is fn else fn


def installed(value):
    """What stands for the public operator `value` now: its installed wrapper, or itself.
    `value` may be a wrapper installed earlier (`f = torch.sin` taken while a subclass's
    `__torch_function__` was on, called under forward AD): what stands for its original."""
    value = original(value)
    entry = _installed.get(id(value))
    return entry[1] if entry is not None and entry[0] is value else value


_installing = False     # _install is running
_again = False          # ... and a layer came or went meanwhile (from a GC callback)


def _install():
    global _installing, _again
    if _installing:
        _again = True
        return
    _installing = True
    try:
        _again = True
        while _again:
            _again = False
            _install_layers(tuple(_active))
    finally:
        _installing = False


_snapshots = {}         # the active layers -> (what each point and alias holds, _installed)
_changes = {}           # (layers before, layers after) -> [(owner, name, value)] that differ
_now = ()               # the layers installed now


def _install_layers(layers):
    """Put in place what `layers` install, writing only the attributes that differ from what
    the layers installed now put there (remembered per pair: vmap turns its layer on and off
    around every call)."""
    global _now, _installed
    change = _changes.get((_now, layers))
    if change is None:
        before, after = _snapshot(_now), _snapshot(layers)
        points, aliases = _build()
        owners = points + [(owner, name, None) for owner, name, _, _ in aliases]
        change = {}         # owner -> {name: value}
        for k, value in enumerate(after[0]):
            if before[0][k] is not value:
                change.setdefault(owners[k][0], {})[owners[k][1]] = value
        change = _changes[(_now, layers)] = list(change.items())
    for owner, values in change:
        if isinstance(owner, types.ModuleType):
            vars(owner).update(values)          # (one call for a module's functions)
        else:
            for name, value in values.items():
                setattr(owner, name, value)
    _now = layers
    _installed = _snapshot(layers)[1]


def _snapshot(layers):
    snapshot = _snapshots.get(layers)
    if snapshot is None:
        points, aliases = _build()
        snapshot = _snapshots[layers] = _assignment(layers, points, aliases)
    return snapshot


def _assignment(layers, points, aliases):
    """What each point, then each alias, holds while `layers` are active, and the
    `_installed` table for it."""
    values, table = [], {}
    for i, (owner, name, original) in enumerate(points):
        value = original
        for layer in layers:
            if layer.wants(owner, name, original):
                key = (id(layer), i, id(value))
                entry = _cache.get(key)
                if entry is None or entry[0] is not value:
                    entry = _cache[key] = (value, layer.wrap(owner, name, value))
                value = entry[1]
                _originals[id(value)] = (value, original)    # (for the layers above)
        values.append(value)
        if value is not original:
            table.setdefault(id(original), (original, value))   # (torch.<fn> first)
    for owner, name, original, i in aliases:
        value = values[i]
        if value is points[i][2]:
            value = original            # unpatched
        elif isinstance(original, staticmethod):
            entry = _cache.get(id(value))
            if entry is None or entry[0] is not value:
                entry = _cache[id(value)] = (value, staticmethod(value))
            value = entry[1]
        values.append(value)
    return values, table


def _build():
    global _points, _aliases
    if _points is not None:
        return _points, _aliases
    import ember
    from . import autograd, fft, linalg, special
    from ._tensor import Tensor
    from .autograd import forward_ad
    from .autograd.function import Function
    from .nn import _rnn_ops, functional
    points, seen, copies = [], {}, []
    for module in (ember, functional, linalg, special, fft, _rnn_ops):
        for name, obj in vars(module).items():
            if not name.startswith("_") and isinstance(obj, types.FunctionType):
                if id(obj) in seen:         # `F.conv_tbc is ember.conv_tbc` stays true
                    copies.append((module, name, obj, seen[id(obj)]))
                else:
                    seen[id(obj)] = len(points)
                    points.append((module, name, obj))
    points += [(autograd, "grad", autograd.grad), (autograd, "backward", autograd.backward),
               (forward_ad, "make_dual", forward_ad.make_dual),
               (forward_ad, "unpack_dual", forward_ad.unpack_dual)]
    for name, obj in vars(Tensor).items():
        if not (name.startswith("_") and not name.startswith("__")) and \
                isinstance(obj, (types.FunctionType, property)):
            points.append((Tensor, name, obj))
    points.append((Function, "apply", Function.__dict__["apply"]))
    _points = points
    _aliases = copies + _find_aliases(points)
    return _points, _aliases


def _find_aliases(points):
    """Copies of the patched functions that ember's nn modules call (see the module's NOTE)."""
    index = {}
    for i, (_, _, original) in enumerate(points):
        while isinstance(original, types.FunctionType):
            index.setdefault(id(original), i)
            original = getattr(original, "__wrapped__", None)
    from . import nn
    aliases = []
    # ... as a global of their module (rnn.py's `cat`)
    for name, module in list(sys.modules.items()):
        if name.startswith("ember.nn.modules.") and module is not None:
            for key, obj in vars(module).items():
                i = index.get(id(obj)) if isinstance(obj, types.FunctionType) else None
                if i is not None:
                    aliases.append((module, key, obj, i))
    # ... or as a class attribute (Conv2d._function = F.conv2d)
    seen = set()
    for module_class in vars(nn).values():
        if not (isinstance(module_class, type) and issubclass(module_class, nn.Module)):
            continue
        for cls in module_class.__mro__:
            if cls in seen or not cls.__module__.startswith("ember."):
                continue
            seen.add(cls)
            for name, obj in vars(cls).items():
                inner = obj.__func__ if isinstance(obj, staticmethod) else obj
                i = index.get(id(inner)) if isinstance(inner, types.FunctionType) else None
                if i is not None:
                    aliases.append((cls, name, obj, i))
    return aliases
