"""Putting a batch into pinned memory (`DataLoader(pin_memory=True)` on a machine with a GPU):
every tensor inside it, through mappings, named tuples, tuples and other sequences, as torch's
DataLoader walks a batch. Objects with a `pin_memory` method of their own are asked to pin
themselves; anything else passes through unchanged.
"""
import collections.abc
import copy
import inspect

import ember


def _call_own_pin_memory(data, device):
    fn = data.pin_memory
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return fn()
    accepts_device = "device" in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    return fn(device=device) if accepts_device else fn()


def pin_memory(data, device=None):
    """`data` with its tensors in pinned memory."""
    if isinstance(data, ember.Tensor):
        return data.pin_memory()
    if hasattr(data, "pin_memory"):
        return _call_own_pin_memory(data, device)
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        pinned = {key: pin_memory(value, device) for key, value in data.items()}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                # a copy keeps whatever else the mapping type carries (an OrderedDict's
                # order, a defaultdict's factory)
                clone = copy.copy(data)
                clone.update(pinned)
                return clone
            return type(data)(pinned)
        except TypeError:
            return pinned
    if isinstance(data, tuple):
        if hasattr(data, "_fields"):                    # a named tuple
            return type(data)(*(pin_memory(item, device) for item in data))
        return type(data)(pin_memory(item, device) for item in data)
    if isinstance(data, collections.abc.Sequence):
        pinned = [pin_memory(item, device) for item in data]
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, item in enumerate(pinned):
                    clone[i] = item
                return clone
            return type(data)(pinned)
        except TypeError:
            return pinned
    return data
