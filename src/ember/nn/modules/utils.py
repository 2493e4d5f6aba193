"""torch.nn.modules.utils: the argument helpers that custom layers written for torch import
(`_pair(3)` is `(3, 3)`), and `consume_prefix_in_state_dict_if_present`."""
import collections
from itertools import repeat

__all__ = ["consume_prefix_in_state_dict_if_present"]


def _ntuple(n, name="parse"):
    """A function making an n-tuple of a number (repeated) or of an iterable (as a tuple)."""
    def parse(x):
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(repeat(x, n))
    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n):
    """Each element of `t`, last first, repeated `n` times: (1, 2), 2 -> (2, 2, 1, 1)
    (the order F.pad wants for a conv's padding)."""
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size, defaults):
    """`out_size` with each None replaced by the matching trailing entry of `defaults`."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d
            for v, d in zip(out_size, defaults[-len(out_size):])]


def consume_prefix_in_state_dict_if_present(state_dict, prefix):
    """Strip `prefix` from the keys of `state_dict` (and of its `_metadata`) in place, as for
    loading a `DataParallel` checkpoint (`prefix="module."`) into the bare model."""
    keys = list(state_dict.keys())
    for key in keys:
        if key.startswith(prefix):
            state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is not None:
        for key in list(metadata.keys()):
            # the empty key stands for the top-level module, "module" for "module." itself
            if len(key) == 0:
                continue
            if key == prefix.replace(".", "") or key.startswith(prefix):
                metadata[key[len(prefix):] if key.startswith(prefix) else ""] = \
                    metadata.pop(key)
