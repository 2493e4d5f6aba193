"""Stride geometry: shapes, strides and storage offsets as plain tuples of ints.

No arrays and no autograd live here. Every view op asks this module for the new
(shape, strides, offset) and for torch's verdict and error text when a view is impossible.
"Why did this view fail?" is answered in `view_strides`.
"""
from typing import Optional, Sequence, Tuple

Shape = Tuple[int, ...]
Strides = Tuple[int, ...]


def numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def contiguous_strides(shape: Sequence[int]) -> Strides:
    """Row-major strides; a dimension of size 0 counts as size 1, as in torch."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(shape[i + 1], 1)
    return tuple(strides)


def is_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Row-major dense. Strides of size-1 dimensions are ignored; empty tensors are contiguous."""
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def wrap_dim(dim: int, ndim: int) -> int:
    """Turn a possibly negative dim into an index; a 0-dim tensor accepts dims -1 and 0."""
    if dim.__class__ is not int:        # (a bool is an int to isinstance, not to torch)
        dim = _as_index(dim, "dim")
    rank = max(ndim, 1)
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-rank}, {rank - 1}], but got {dim})")
    return dim + rank if dim < 0 else dim


def wrap_dims(dims: Sequence[int], ndim: int) -> Tuple[int, ...]:
    """Wrap several dims; a repeated dim is an error, as in torch's reductions."""
    try:
        out = tuple(wrap_dim(d, ndim) for d in dims)
    except TypeError:
        out = tuple(wrap_dim(d, ndim) for d in listed_ints(dims))
    seen = set()
    for d in out:
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
    return out


def wrap_dims_in_turn(dims: Sequence[int], ndim: int) -> Tuple[int, ...]:
    """Wrap several dims as torch's dim_list_to_bitset does (flip, squeeze): each in turn, so
    that a repeat is found before a later dim out of range (reductions wrap them all first)."""
    out = []
    for d in listed_ints(dims):
        d = wrap_dim(d, ndim)
        if d in out:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        out.append(d)
    return tuple(out)


def listed_ints(values):
    """The elements of a tuple of ints as torch's parser reads them: it checks the type of the
    first only and takes a later bool for 0 or 1 (NOTE [ Elements of a tuple of ints ] in
    _ops/int_arguments.py)."""
    return tuple(int(v) if i and v.__class__ is bool else v for i, v in enumerate(values))


def _as_index(value, what):
    """A NumPy integer or 0-dim integer tensor as an int; a TypeError for anything else (an
    operator rewords it as torch's parser does: see _ops/int_arguments.py)."""
    from ._ops.int_arguments import is_int
    if not is_int(value):
        raise TypeError(f"{what} must be int, not {type(value).__name__}")
    return value.__index__()


def _shape_text(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def infer_size(shape: Sequence[int], total: int) -> Shape:
    """Resolve one -1 entry of a requested shape so that it holds `total` elements."""
    infer_at = None
    known = 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer_at is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer_at = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                               f"{_shape_text(shape)}")
        else:
            known *= s
    if infer_at is None:
        if known != total:
            raise RuntimeError(f"shape '{_shape_text(shape)}' is invalid for input of size {total}")
        return tuple(shape)
    if known == 0:
        if total == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {_shape_text(shape)} because "
                "the unspecified dimension size -1 can be any value and is ambiguous")
        raise RuntimeError(f"shape '{_shape_text(shape)}' is invalid for input of size {total}")
    if total % known:
        raise RuntimeError(f"shape '{_shape_text(shape)}' is invalid for input of size {total}")
    out = list(shape)
    out[infer_at] = total // known
    return tuple(out)


def view_strides(shape: Shape, strides: Strides, new_shape: Shape) -> Optional[Strides]:
    """Strides that let `new_shape` see the same elements in the same order, or None.

    The old dimensions are grouped into chunks that are contiguous among themselves
    (dim i-1 steps exactly over all of dim i). A view is possible when every new dimension
    falls inside one chunk; a new dimension that would span two chunks makes it impossible.
    """
    if not shape:
        return (1,) * len(new_shape)
    total = numel(shape)
    if total == 0:
        return tuple(strides) if tuple(shape) == tuple(new_shape) else contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_stride = strides[-1]       # stride of the innermost dimension of the current chunk
    chunk_numel = 1                  # elements of old dims gathered into the current chunk
    view_numel = 1                   # elements of new dims placed into the current chunk
    for d in range(len(shape) - 1, -1, -1):
        chunk_numel *= shape[d]
        chunk_ends = d == 0 or (shape[d - 1] != 1 and strides[d - 1] != chunk_numel * chunk_stride)
        if not chunk_ends:
            continue
        while view_d >= 0 and (view_numel < chunk_numel or new_shape[view_d] == 1):
            new_strides[view_d] = view_numel * chunk_stride
            view_numel *= new_shape[view_d]
            view_d -= 1
        if view_numel != chunk_numel:
            return None
        if d > 0:
            chunk_stride = strides[d - 1]
            chunk_numel = view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)


VIEW_ERROR = ("view size is not compatible with input tensor's size and stride (at least one "
              "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


def broadcast_shapes(a: Shape, b: Shape) -> Shape:
    """The shape both broadcast to, with torch's error naming tensors a and b."""
    if a == b:
        return a
    n = max(len(a), len(b))
    out = [0] * n
    for i in range(n - 1, -1, -1):       # from the last dim, so errors name the last mismatch
        da = a[i - n + len(a)] if i - n + len(a) >= 0 else 1
        db = b[i - n + len(b)] if i - n + len(b) >= 0 else 1
        if da == db or db == 1:
            out[i] = da
        elif da == 1:
            out[i] = db
        else:
            raise RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b "
                               f"({db}) at non-singleton dimension {i}")
    return tuple(out)


def broadcast_many(shapes: Sequence[Shape]) -> Shape:
    """Broadcast any number of shapes (torch.broadcast_shapes)."""
    n = max((len(s) for s in shapes), default=0)
    out = [1] * n
    for k, shape in enumerate(shapes):
        for i, size in enumerate(shape):
            j = n - len(shape) + i
            if size == out[j] or size == 1:
                continue
            if out[j] == 1:
                out[j] = size
            else:
                raise RuntimeError(f"Shape mismatch: objects cannot be broadcast to a single "
                                   f"shape.  Mismatch is between arg {_first_with(shapes, j, n)} "
                                   f"and arg {k}.")
    return tuple(out)


def _first_with(shapes, j, n):
    for k, shape in enumerate(shapes):
        i = j - (n - len(shape))
        if i >= 0 and shape[i] != 1:
            return k
    return 0


def expand(shape: Shape, strides: Strides, target: Sequence[int],
           type_name: str = "torch.FloatTensor") -> Tuple[Shape, Strides]:
    """Shape and strides of `expand(*target)`: expanded dims (new or size 1) get stride 0.
    (`type_name`, like 'torch.LongTensor', only appears in the error text.)"""
    if len(target) < len(shape):
        raise RuntimeError(f"expand({type_name}{{{_shape_text(shape)}}}, "
                           f"size={_shape_text(target)}): the number of sizes provided "
                           f"({len(target)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({len(shape)})")
    if not shape and any(want < 0 for want in target):
        # (torch gives a 0-dim tensor the sizes as they are, -1 included, then sizes them)
        raise RuntimeError("numel: integer multiplication overflow")
    lead = len(target) - len(shape)
    new_shape, new_strides = [0] * len(target), [0] * len(target)
    negative = False
    for i in range(len(target) - 1, -1, -1):   # the last mismatch is the one reported
        want = target[i]
        if i < lead:
            if want < 0:
                if want == -1:
                    raise RuntimeError(f"The expanded size of the tensor ({want}) isn't allowed "
                                       f"in a leading, non-existing dimension {i}")
                negative = True
            new_shape[i] = want
            # NOTE: as torch's inferExpandGeometry, a new dim of size 1 gets the stride of a
            # dim spanning the ones after it (a 0-d tensor's new dims all get 0)
            if want == 1 and shape and i + 1 < len(target):
                new_strides[i] = new_shape[i + 1] * new_strides[i + 1]
            continue
        size, stride = shape[i - lead], strides[i - lead]
        if want == -1:
            want = size
        if size == want:
            new_shape[i], new_strides[i] = size, stride
        elif size == 1:
            if want < 0:
                negative = True
            new_shape[i] = want
        else:
            raise RuntimeError(f"The expanded size of the tensor ({want}) must match the "
                               f"existing size ({size}) at non-singleton dimension {i}.  "
                               f"Target sizes: {_shape_text(target)}.  Tensor sizes: "
                               f"{_shape_text(shape)}")
    if negative:
        # NOTE: torch takes a size below -1 as it is and fails later, counting the elements
        raise RuntimeError("numel: integer multiplication overflow")
    return tuple(new_shape), tuple(new_strides)


def permute(shape: Shape, strides: Strides, dims: Sequence[int]) -> Tuple[Shape, Strides]:
    ndim = len(shape)
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}")
    try:
        wrapped = [wrap_dim(d, ndim) for d in dims]
    except TypeError:
        wrapped = [wrap_dim(d, ndim) for d in listed_ints(dims)]
    if len(set(wrapped)) != ndim:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return tuple(shape[d] for d in wrapped), tuple(strides[d] for d in wrapped)


def transpose(shape: Shape, strides: Strides, dim0: int, dim1: int) -> Tuple[Shape, Strides]:
    ndim = len(shape)
    if ndim == 0:
        wrap_dim(dim0, 0), wrap_dim(dim1, 0)
        return shape, strides
    d0, d1 = wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)
    s, st = list(shape), list(strides)
    s[d0], s[d1] = s[d1], s[d0]
    st[d0], st[d1] = st[d1], st[d0]
    return tuple(s), tuple(st)


def movedim(ndim: int, source: Sequence[int], destination: Sequence[int]) -> Tuple[int, ...]:
    """The permutation that moves dims `source` to positions `destination`."""
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source "
                           f"({_shape_text(source)} dims) should contain the same number of "
                           f"dims as destination ({_shape_text(destination)} dims)")
    src = [wrap_dim(d, ndim) for d in source]
    dst = [wrap_dim(d, ndim) for d in destination]
    if len(set(src)) != len(src):
        raise RuntimeError(f"movedim: repeated dim in `source` ({_shape_text(source)})")
    if len(set(dst)) != len(dst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({_shape_text(destination)})")
    if not ndim:            # (a 0-dim tensor's dim 0 or -1 wraps, and there is nothing to move)
        return ()
    order = [-1] * ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(ndim) if d not in src)
    return tuple(o if o != -1 else next(rest) for o in order)


def unsqueeze(shape: Shape, strides: Strides, dim: int) -> Tuple[Shape, Strides]:
    """Insert a size-1 dim; its stride is what the next dim would step over (torch's choice)."""
    d = wrap_dim(dim, len(shape) + 1)
    new_stride = shape[d] * strides[d] if d < len(shape) else 1
    return shape[:d] + (1,) + shape[d:], strides[:d] + (new_stride,) + strides[d:]


def squeeze(shape: Shape, strides: Strides, dims: Optional[Sequence[int]] = None):
    """Drop size-1 dims: all of them, or those among `dims` (others are left alone)."""
    if dims is None:
        keep = [i for i, s in enumerate(shape) if s != 1]
    else:
        wrapped = set(wrap_dims_in_turn(dims, len(shape)))
        keep = [i for i, s in enumerate(shape) if not (i in wrapped and s == 1)]
    return tuple(shape[i] for i in keep), tuple(strides[i] for i in keep)


def select(shape: Shape, strides: Strides, offset: int, dim: int, index: int):
    """Geometry of `select(dim, index)`; the caller turns an out-of-range index into its error."""
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, len(shape))
    size = shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{_shape_text(shape)} at dimension {d}")
    if index < 0:
        index += size
    return (shape[:d] + shape[d + 1:], strides[:d] + strides[d + 1:],
            offset + index * strides[d])


def slice_dim(shape: Shape, strides: Strides, offset: int, dim: int,
              start: Optional[int], stop: Optional[int], step: int):
    """Geometry of `x[..., start:stop:step, ...]` along `dim`, clamped as Python clamps."""
    if step <= 0:
        raise ValueError("step must be greater than zero")
    size = shape[dim]
    start = 0 if start is None else (start + size if start < 0 else start)
    stop = size if stop is None else (stop + size if stop < 0 else stop)
    start = min(max(start, 0), size)
    stop = min(max(stop, start), size)
    length = (stop - start + step - 1) // step
    new_shape = shape[:dim] + (length,) + shape[dim + 1:]
    new_strides = strides[:dim] + (strides[dim] * step,) + strides[dim + 1:]
    return new_shape, new_strides, offset + start * strides[dim]


def narrow(shape: Shape, strides: Strides, offset: int, dim: int, start: int, length: int):
    if len(shape) == 0:                 # (torch checks these two before the dim)
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    d = wrap_dim(dim, len(shape))
    size = shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_dim(shape, strides, offset, d, start, start + length, 1)


def diagonal(shape: Shape, strides: Strides, offset: int, diag: int, dim1: int, dim2: int):
    ndim = len(shape)
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if diag >= 0:
        length = max(min(shape[d1], shape[d2] - diag), 0)
        start = diag * strides[d2]
    else:
        length = max(min(shape[d1] + diag, shape[d2]), 0)
        start = -diag * strides[d1]
    if length == 0:
        start = 0
    keep = [i for i in range(ndim) if i not in (d1, d2)]
    new_shape = tuple(shape[i] for i in keep) + (length,)
    new_strides = tuple(strides[i] for i in keep) + (strides[d1] + strides[d2],)
    return new_shape, new_strides, offset + start


def unfold(shape: Shape, strides: Strides, dim: int, size: int, step: int):
    """Geometry of `Tensor.unfold`: windows of `size` every `step` along dim, as a new last dim."""
    d = wrap_dim(dim, len(shape))
    dim_size = shape[d] if shape else 1
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if size > dim_size:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {dim_size} but size is "
                           f"{size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if not shape:
        return (size,), (1,)
    count = (dim_size - size) // step + 1
    new_shape = shape[:d] + (count,) + shape[d + 1:] + (size,)
    new_strides = strides[:d] + (strides[d] * step,) + strides[d + 1:] + (strides[d],)
    return new_shape, new_strides


def storage_extent(shape: Shape, strides: Strides, offset: int) -> int:
    """How many storage elements a view needs: one past its furthest element (0 if empty)."""
    if numel(shape) == 0:
        return 0
    return offset + 1 + sum((s - 1) * st for s, st in zip(shape, strides))


def sum_to_dims(shape: Shape, target: Shape) -> Tuple[Tuple[int, ...], bool]:
    """The dims of `shape` to sum so that it reduces to `target` (un-broadcasting).

    Returns (dims, needs_reshape): leading extra dims are dropped by summing them away; dims
    where target has size 1 are summed with keepdim.
    """
    lead = len(shape) - len(target)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, t in enumerate(target) if t == 1 and shape[lead + i] != 1)
    return dims, lead > 0
