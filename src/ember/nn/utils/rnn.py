"""Variable-length sequences for recurrent layers: PackedSequence, packing and padding.

A packed batch stores the sequences (sorted longest first) time step by time step: `data`
holds the rows of step 0 for every sequence, then those of step 1 for the sequences still
running, and so on; `batch_sizes[t]` is how many sequences step t has.
"""
from collections import namedtuple
from collections.abc import Iterable

import numpy as np

from ..._device import backend_of

from ... import _creation, _dtype
from ..._geometry import broadcast_shapes
from ..._tensor import Tensor, wrap
from ..._ops._op import Op
from ..._ops.activations import apply

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "unpad_sequence", "pack_sequence",
           "unpack_sequence"]

PackedSequence_ = namedtuple("PackedSequence_",
                             ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


class PackedSequence(PackedSequence_):
    """(data, batch_sizes, sorted_indices, unsorted_indices) of a packed batch; made by
    pack_padded_sequence and pack_sequence, not by hand."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        elif batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never "
                "be created manually. They should be instantiated by functions like "
                "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """Convert `data` (as Tensor.to); indices follow it to its device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        move = (lambda t: None if t is None else t.to(data.device))
        return type(self)(data, self.batch_sizes, move(self.sorted_indices),
                          move(self.unsorted_indices))

    def cuda(self, *args, **kwargs):
        return self.to(*(args or ("cuda",)), **kwargs)

    def cpu(self, *args, **kwargs):
        return self.to("cpu", *args, **kwargs)

    def pin_memory(self):
        """`data` and the indices in pinned memory (torch keeps batch_sizes as it is)."""
        pin = (lambda t: None if t is None else t.pin_memory())
        return type(self)(self.data.pin_memory(), self.batch_sizes, pin(self.sorted_indices),
                          pin(self.unsorted_indices))

    def double(self):
        return self.to(dtype=_dtype.float64)

    def float(self):
        return self.to(dtype=_dtype.float32)

    def half(self):
        return self.to(dtype=_dtype.float16)

    def long(self):
        return self.to(dtype=_dtype.int64)

    def int(self):
        return self.to(dtype=_dtype.int32)

    def short(self):
        return self.to(dtype=_dtype.int16)

    def char(self):
        return self.to(dtype=_dtype.int8)

    def byte(self):
        return self.to(dtype=_dtype.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def invert_permutation(permutation):
    """The inverse of a permutation given as a 1-D index tensor (None stays None)."""
    if permutation is None:
        return None
    data = permutation._data
    xp = backend_of(data).xp                   # on the permutation's device
    inverse = xp.empty_like(data)
    inverse[data] = xp.arange(data.size, dtype=data.dtype)
    return wrap(inverse)


def _lengths_list(lengths):
    if isinstance(lengths, Tensor):
        if lengths.dim() != 1:
            raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                               f"{lengths.dim()}D {lengths.device.type} "
                               f"{lengths.to(_dtype.int64).type().split('.')[-1][:-6]} "
                               "tensor")
        return [int(v) for v in lengths.tolist()]
    return [int(v) for v in lengths]


def _batch_sizes(lengths):
    """Sequences still running at each step, for lengths sorted longest first."""
    counts = np.bincount(np.asarray(lengths, dtype=np.int64), minlength=lengths[0] + 1)
    return (len(lengths) - np.cumsum(counts)[:-1]).astype(np.int64)


class PackPaddedSequence(Op):
    """Gather the running rows of each step of a padded (T, B, *) input."""
    inputs = ("input",)

    def backward(ctx, grad):
        return _padded_from_rows(grad, ctx.batch_sizes, ctx.total_length, 0.0)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch (T, B, *) (or (B, T, *) with batch_first) of sequences with the
    given lengths. With enforce_sorted=False the lengths may come in any order."""
    lengths = _lengths_list(lengths)
    sorted_indices = None
    if not enforce_sorted:
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
        lengths = [lengths[i] for i in order]
        # NOTE: as in torch, the permutations live on the input's device; batch_sizes
        # and the lengths stay on the CPU.
        sorted_indices = wrap(np.asarray(order, dtype=np.int64)).to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if batch_first:
        input = input.transpose(0, 1)
    if len(lengths) != input.size(1):
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(lengths)} (batch_size={input.size(1)})")
    if lengths and lengths[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if any(a < b for a, b in zip(lengths, lengths[1:])):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
            "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
            "pack_sequence to sidestep this requirement if you do not need ONNX "
            "exportability.")
    if lengths[0] > input.size(0):
        # NOTE: torch reads past the end of the input here; ember refuses.
        raise RuntimeError(f"pack_padded_sequence: a length ({lengths[0]}) exceeds the "
                           f"sequence length of the input ({input.size(0)})")
    sizes = _batch_sizes(lengths)
    x = input._data
    xp = backend_of(x).xp
    data = xp.concatenate([x[t, :bs] for t, bs in enumerate(sizes.tolist())])
    packed = apply(PackPaddedSequence, (input,), data,
                   {"batch_sizes": sizes.tolist(), "total_length": input.size(0)})
    return PackedSequence(packed, wrap(sizes), sorted_indices, None)


def _padded_from_rows(rows, batch_sizes, total_length, padding_value):
    """(T, B, *) from packed rows, one slice assignment per step (ember's ops)."""
    batch = batch_sizes[0] if batch_sizes else 0
    out = _creation.full((total_length, batch) + tuple(rows.shape[1:]), padding_value,
                         dtype=rows.dtype, device=rows.device)
    start = 0
    for t, bs in enumerate(batch_sizes):
        out[t, :bs] = rows[start:start + bs]
        start += bs
    return out


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo pack_padded_sequence: (padded, lengths), in the batch's original order."""
    sizes = [int(b) for b in sequence.batch_sizes.tolist()]
    max_len = len(sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {max_len}")
        max_len = total_length
    padded = _padded_from_rows(sequence.data, sizes, max_len, padding_value)
    lengths = np.zeros(sizes[0] if sizes else 0, dtype=np.int64)
    for bs in sizes:
        lengths[:bs] += 1
    if batch_first:
        padded = padded.transpose(0, 1)
    lengths = wrap(lengths)
    unsorted = sequence.unsorted_indices
    if unsorted is not None:
        padded = padded.index_select(0 if batch_first else 1, unsorted)
        lengths = wrap(lengths._data[backend_of(unsorted._data).to_numpy(unsorted._data)])
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack sequences of shapes (L_i, *) into (T, B, *) (or (B, T, *)), padding the short
    ones on the right (or left) with padding_value."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg "
                           f"of type: {type(sequences)}")
    sequences = tuple(sequences)
    if padding_side not in ("left", "right"):
        raise RuntimeError("Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    for i, seq in enumerate(sequences):
        if not isinstance(seq, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(seq).__name__}")
    first = sequences[0]
    if first.dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    max_len = max(s.size(0) for s in sequences)
    shape = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = _creation.full(shape + tuple(first.shape[1:]), padding_value, dtype=first.dtype,
                         device=first.device)
    for i, seq in enumerate(sequences):
        n = seq.size(0)
        steps = slice(0, n) if padding_side == "right" else slice(max_len - n, max_len)
        # torch copies each sequence into its slot, broadcasting: sizes must agree, and the
        # broadcast shape must be the slot's
        slot = (n,) + tuple(first.shape[1:])
        shape = tuple(broadcast_shapes(slot, tuple(seq.shape)))
        if shape != slot:
            raise RuntimeError(f"output with shape {list(slot)} doesn't match the broadcast "
                               f"shape {list(shape)}")
        if batch_first:
            out[i, steps] = seq
        else:
            out[steps, i] = seq
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """Split a padded batch back into its sequences (a list of (L_i, *) tensors)."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    result = []
    for seq, length in zip(padded_sequences, lengths):
        index = _creation.arange(int(length), device=seq.device)
        result.append(seq[index])
    return result


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of (L_i, *) tensors (longest first, unless enforce_sorted=False)."""
    lengths = [s.size(0) for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """Undo pack_sequence: a list of (L_i, *) tensors in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
