"""ember.types (torch.types): annotation aliases and the symbolic number classes."""
import typing

import ember
from ember import types


def test_number_alias_and_tuple():
    assert typing.get_args(types.Number) == (int, float, bool)
    assert all(isinstance(v, types._Number) for v in (1, 2.5, True))
    assert not isinstance(ember.tensor(1.0), types._Number)


def test_device_alias_accepts_what_device_arguments_take():
    args = typing.get_args(types.Device)
    assert ember.device in args and str in args and int in args and type(None) in args


def test_aliases_resolve_in_annotations():
    def f(x: types._TensorOrTensors, size: types._size, n: types.IntLikeType) -> types.Number:
        return 0
    hints = typing.get_type_hints(f)
    assert typing.get_args(hints["x"])[0] is ember.Tensor
    assert ember.Size in typing.get_args(hints["size"])
    assert ember.SymInt in typing.get_args(hints["n"])


def test_symbolic_classes_hold_no_concrete_value():
    assert types.py_sym_types == (ember.SymInt, ember.SymFloat, ember.SymBool)
    assert not any(isinstance(v, types.py_sym_types) for v in (3, 2.0, True))
    assert ember.SymInt("node").node == "node"
    assert types.__all__ == ["Number", "Device", "FileLike", "Storage"]
