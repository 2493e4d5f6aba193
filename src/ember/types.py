"""ember.types (torch.types): the names type annotations use for torch's argument kinds.

Nothing here runs: these are aliases for annotating code (`def f(x: Number)`), and the tuple
`_Number` for `isinstance` checks. The underscore names stand for builtins and ember types that
ember's own top-level names shadow (`ember.int`... do not exist, but `ember.device`, `ember.dtype`
and `ember.Size` are classes, not the builtins an annotation may mean).
"""
import os
from builtins import bool as _bool, bytes as _bytes, complex as _complex, float as _float  # noqa: F401
from builtins import int as _int, str as _str  # noqa: F401
from collections.abc import Sequence
from typing import IO

from ._device import device as _device
from ._dtype import dtype as _dtype  # noqa: F401
from ._size import Size
from ._sym import SymBool, SymFloat, SymInt
from ._tensor import Tensor
from . import layout as _layout  # noqa: F401

__all__ = ["Number", "Device", "FileLike", "Storage"]

_TensorOrTensors = Tensor | Sequence[Tensor]
_TensorOrOptionalTensors = Tensor | Sequence[Tensor | None]
_size = Size | list[int] | tuple[int, ...]
_symsize = Size | Sequence[int | SymInt]

IntLikeType = int | SymInt
FloatLikeType = float | SymFloat
BoolLikeType = bool | SymBool
py_sym_types = (SymInt, SymFloat, SymBool)
PySymType = SymInt | SymFloat | SymBool

Number = int | float | bool
_Number = (int, float, bool)        # for isinstance(x, _Number)

FileLike = str | os.PathLike[str] | IO[bytes]

Device = _device | str | int | None     # anything a `device=` argument accepts


class Storage:
    """The protocol of storage classes, for annotations (ember's storages are
    `ember.UntypedStorage` and `ember.TypedStorage`)."""
    device: _device
    dtype: _dtype
