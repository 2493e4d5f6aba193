"""`save_file`/`load_file`: dicts of tensors in the safetensors format, through the optional
`safetensors` package (`pip install 'ember[safetensors]'`), as `safetensors.torch` does."""
import numpy as np

from . import _dtype

_CODES = {_dtype.bool: "BOOL", _dtype.uint8: "U8", _dtype.int8: "I8", _dtype.int16: "I16",
          _dtype.int32: "I32", _dtype.int64: "I64", _dtype.float16: "F16",
          _dtype.bfloat16: "BF16", _dtype.float32: "F32", _dtype.float64: "F64",
          _dtype.complex64: "C64", _dtype.uint16: "U16", _dtype.uint32: "U32",
          _dtype.uint64: "U64"}
_DTYPES = {code: d for d, code in _CODES.items()}


def _safetensors():
    try:
        import safetensors
    except ImportError as e:
        raise ImportError("ember's safetensors support needs the safetensors package: "
                          "pip install safetensors") from e
    return safetensors


def save_file(tensors, filename, metadata=None):
    """Write a dict of name -> tensor to `filename` in the safetensors format (atomically, as
    `ember.save`). Each tensor is written as its own contiguous copy: views sharing memory are
    saved as separate tensors.

        >>> ember.serialization.save_file({"w": ember.ones(2)}, "model.safetensors")
    """
    from ._atomic import atomic_write
    from ._tensor import Tensor
    safetensors = _safetensors()
    entries, arrays = {}, []
    for name, t in tensors.items():
        if not isinstance(name, str) or not isinstance(t, Tensor):
            raise TypeError(f"save_file expects a dict of str -> Tensor, got "
                            f"{type(name).__name__} -> {type(t).__name__}")
        if t.dtype not in _CODES:
            raise TypeError(f"safetensors has no dtype for {t.dtype}")
        array = np.ascontiguousarray(t.detach().cpu()._data)
        arrays.append(array)            # alive until serialize has read it
        if hasattr(safetensors, "TensorSpec"):      # safetensors >= 0.8
            entries[name] = safetensors.TensorSpec(dtype=t.dtype._name, shape=array.shape,
                                                   data_ptr=array.ctypes.data,
                                                   data_len=array.nbytes)
        else:
            entries[name] = {"dtype": _CODES[t.dtype], "shape": list(array.shape),
                             "data": array.reshape(-1).view(np.uint8).tobytes()}
    payload = safetensors.serialize(entries, metadata=metadata)
    atomic_write(str(filename), lambda file: file.write(payload))


def load_file(filename, device="cpu"):
    """Read a safetensors file into a dict of name -> tensor on `device`."""
    from ._creation import from_numpy
    safetensors = _safetensors()
    with open(filename, "rb") as f:
        entries = safetensors.deserialize(f.read())
    out = {}
    for name, entry in entries:
        d = _DTYPES.get(entry["dtype"])
        if d is None:
            raise TypeError(f"ember has no dtype for safetensors dtype {entry['dtype']}")
        array = np.frombuffer(bytearray(entry["data"]), d._np).reshape(entry["shape"])
        out[name] = from_numpy(array).to(device)
    return out
