"""`default_collate` (a list of samples -> one batch, stacking along a new first dim) and
`default_convert` (NumPy arrays -> tensors, one sample at a time), with torch's type rules:
tensors stack, NumPy arrays and scalars become tensors, floats float64, ints int64, strings stay,
mappings / namedtuples / sequences are collated field by field."""
import collections.abc
import copy
import math
import re

import numpy as np

import ember
from ember._shared_memory import new_shared_array
from ember._tensor import wrap

from . import worker

_NP_STR_OBJ = re.compile(r"[SaUO]")       # NumPy dtypes of strings and objects: not tensors

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
    "found {}")


def _rebuild_like(data, items, convert):
    """`data` (a mapping or sequence) rebuilt with converted items, in `data`'s own type where
    that type allows, else as a plain dict or list (as torch does)."""
    if isinstance(data, collections.abc.Mapping):
        # (key by key, in order: a field's error comes before a later key is looked up)
        converted = {k: convert(v) for k, v in items}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update(converted)
                return clone
            return type(data)(converted)
        except TypeError:
            return converted
    try:
        if isinstance(data, collections.abc.MutableSequence):
            clone = copy.copy(data)
            for i, v in enumerate(items):
                clone[i] = convert(v)
            return clone
        return type(data)([convert(v) for v in items])
    except TypeError:
        return [convert(v) for v in items]


def default_convert(data):
    """NumPy arrays and scalars inside `data` become tensors; everything else is kept.

    >>> default_convert([np.array([0, 1]), 2])
    [tensor([0, 1]), 2]
    """
    cls = type(data)
    if isinstance(data, ember.Tensor):
        return data
    if cls.__module__ == "numpy" and cls.__name__ not in ("str_", "string_"):
        if cls.__name__ == "ndarray" and _NP_STR_OBJ.search(data.dtype.str):
            return data
        return ember.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_like(data, [(k, data[k]) for k in data], default_convert)
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return cls(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_like(data, list(data), default_convert)
    return data


def collate_tensor_fn(batch, *, collate_fn_map=None):
    """Stack tensors along a new dim 0; inside a worker the result is made in shared memory,
    so that sending it to the main process copies nothing."""
    elem = batch[0]
    # A tensor given as the batch itself goes to stack too, which rejects it as torch's does.
    if isinstance(batch, ember.Tensor) or not _same_plain_cpu(batch):
        _check_strided(elem)
        if isinstance(batch, ember.Tensor) or worker.get_worker_info() is None:
            return ember.stack(batch, 0)     # grad, mixed dtypes or shapes, CUDA: the full op
        # NOTE: in a worker torch stacks into a result of the first sample's dtype (`out=`),
        # so that a batch that needs a graph or another dtype is refused there, in stack's
        # words ("functions with out=... arguments don't support automatic differentiation",
        # "input types can't be cast to the desired output type Long").
        shape = (len(batch),) + tuple(elem.shape)
        out = wrap(batch_array(shape, elem._data.dtype)) if isinstance(elem._data, np.ndarray) \
            else ember.empty(shape, dtype=elem.dtype, device=elem.device)
        return ember.stack(batch, 0, out=out)
    # NOTE: NumPy stacks directly when no graph is needed and nothing needs promoting, into
    # a C-contiguous result as torch's (shared memory in a worker: sending it copies nothing).
    out = batch_array((len(batch),) + elem._data.shape, elem._data.dtype)
    return wrap(np.stack([t._data for t in batch], out=out))


def _check_strided(elem):
    """torch's refusal of a batch whose first tensor is nested or sparse."""
    if not isinstance(elem, ember.Tensor):
        return
    if elem.is_nested:
        kind = "nested"
    elif elem.layout is not ember.strided:
        kind = "sparse"
    else:
        return
    raise RuntimeError(f"Batches of {kind} tensors are not currently supported by the default "
                       "collate_fn; please provide a custom collate_fn to handle them "
                       "appropriately.")


def batch_array(shape, dtype):
    """An empty C-contiguous array for a batch: in shared memory inside a worker."""
    if worker.get_worker_info() is not None:
        return new_shared_array(dtype, math.prod(shape)).reshape(shape)
    return np.empty(shape, dtype)


def _same_plain_cpu(batch):
    """All CPU tensors outside autograd, of one dtype and shape."""
    first = batch[0]._data
    if not isinstance(first, np.ndarray):
        return False
    for t in batch:
        if not isinstance(t, ember.Tensor) or t._requires_grad:
            return False
        data = t._data
        if not isinstance(data, np.ndarray) or data.dtype != first.dtype \
                or data.shape != first.shape:
            return False
    return True


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    if _NP_STR_OBJ.search(batch[0].dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(batch[0].dtype))
    return collate([ember.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return ember.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    return ember.tensor(batch, dtype=ember.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return ember.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {
    ember.Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def collate(batch, *, collate_fn_map=None):
    """Collate `batch` with per-type functions from `collate_fn_map` (exact type first, then
    isinstance), recursing through mappings, namedtuples and sequences."""
    elem = batch[0]
    cls = type(elem)
    if collate_fn_map is not None:
        if cls in collate_fn_map:
            return collate_fn_map[cls](batch, collate_fn_map=collate_fn_map)
        for key, fn in collate_fn_map.items():
            if isinstance(elem, key):
                return fn(batch, collate_fn_map=collate_fn_map)

    def again(samples):
        return collate(samples, collate_fn_map=collate_fn_map)

    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_like(elem, ((k, [d[k] for d in batch]) for k in elem), again)
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return cls(*(again(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))       # tuples: strings come back as tuples
        if isinstance(elem, tuple):
            return [again(samples) for samples in transposed]
        return _rebuild_like(elem, transposed, again)
    raise TypeError(default_collate_err_msg_format.format(cls))


def default_collate(batch):
    """Merge a list of samples into a batch: tensors stack along a new dim 0, NumPy arrays
    and numbers become tensors (Python floats float64), strings stay a list, and mappings,
    namedtuples and sequences are collated field by field (tuples become lists).

    >>> default_collate([(ember.tensor([1.]), 0), (ember.tensor([2.]), 1)])
    [tensor([[1.],
            [2.]]), tensor([0, 1])]
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)
