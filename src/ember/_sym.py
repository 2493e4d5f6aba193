"""torch's `sym_*` helpers: arithmetic that works alike on plain Python numbers and on the
symbolic sizes (SymInt, SymFloat, SymBool) torch.compile traces with. ember traces nothing, so
every value is concrete and each helper is its Python counterpart, with torch's rules for the
result's type and torch's assertion texts for the arguments it refuses."""
import builtins
import math

import numpy as np

__all__ = ["sym_int", "sym_float", "sym_max", "sym_min", "sym_not", "sym_sqrt", "sym_sum",
           "sym_ite", "SymInt", "SymFloat", "SymBool"]

_NUMBER_TYPES = (np.integer, np.floating, int, float)


def _type_text(value):
    """str(type(value)), with ember's Tensor named as torch names its own."""
    from ._tensor import Tensor
    return "<class 'torch.Tensor'>" if type(value) is Tensor else str(type(value))


def _check_number(value):
    if not isinstance(value, _NUMBER_TYPES):
        raise AssertionError(f"expected {_NUMBER_TYPES}, got {_type_text(value)}")


def sym_int(a):
    """int(a): floats truncate toward zero."""
    return builtins.int(a)


def sym_float(a):
    """float(a)."""
    return builtins.float(a)


def sym_max(a, b):
    """max(a, b); a float on either side makes the result a float."""
    return _extreme(builtins.max, a, b)


def sym_min(a, b):
    """min(a, b); a float on either side makes the result a float."""
    return _extreme(builtins.min, a, b)


def _extreme(pick, a, b):
    _check_number(a)
    _check_number(b)
    result = pick(a, b)
    return builtins.float(result) if isinstance(a, (float, np.floating)) or \
        isinstance(b, (float, np.floating)) else result


def sym_not(a):
    """not a."""
    return not a


def sym_sqrt(a):
    """math.sqrt(a): a float (math's ValueError below zero)."""
    return math.sqrt(a)


sym_sqrt.__name__ = sym_sqrt.__qualname__ = "_sym_sqrt"      # (torch's name for it)


def sym_sum(*args):
    """sum of the numbers, starting from the int 0: sym_sum([a, b, c]) or sym_sum(a, b, c)."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    return builtins.sum(args)


def sym_ite(b, t, f):
    """`t if b else f`: b must be a bool, t and f of one type."""
    if not isinstance(b, builtins.bool):
        raise AssertionError(f"expected SymBool or bool, got {_type_text(b)}")
    if type(t) is not type(f):
        raise AssertionError(f"type mismatch: {_type_text(t)} vs {_type_text(f)}")
    return t if b else f


class _Symbolic:
    """A symbolic number as torch.compile traces with: a wrapper of a node of its graph. ember
    traces nothing, so no value it makes is one; the classes exist for the code that asks
    (`isinstance(n, torch.SymInt)`, type annotations, torch.types)."""

    def __init__(self, node):
        self.node = node


class SymInt(_Symbolic):
    """torch.SymInt: a symbolic int (never made by ember)."""


class SymFloat(_Symbolic):
    """torch.SymFloat: a symbolic float (never made by ember)."""


class SymBool(_Symbolic):
    """torch.SymBool: a symbolic bool (never made by ember)."""
