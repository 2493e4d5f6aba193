"""torch's repr of a sparse tensor: its indices and values as tensors, then size, nnz, dtype
and layout, the first of them on a new line."""
from .. import _dtype
from .._printing import _add_suffixes, _shows_dtype, format_values, wrap_suffixes


def _body(array, dtype, indent):
    if array.size == 0:
        return f"[], size={tuple(array.shape)}"
    return format_values(array, dtype, indent)


def sparse_repr(t, prefix="tensor("):
    rec = t._data
    indent = len(prefix)
    if rec.layout == "sparse_coo":
        parts = [("indices", rec.indices, _dtype.int64), ("values", rec.values, t.dtype)]
    else:
        parts = [(rec.names[0], rec.compressed, _dtype._FROM_NUMPY[rec.compressed.dtype]),
                 (rec.names[1], rec.plain, _dtype._FROM_NUMPY[rec.plain.dtype]),
                 ("values", rec.values, t.dtype)]
    lines = []
    for name, array, dtype in parts:
        head = f"{name}=tensor("
        lines.append(head + _body(array, dtype, indent + len(head)) + ")")
    text = prefix + (",\n" + " " * indent).join(lines)
    suffixes = [f"size={tuple(rec.shape)}", f"nnz={rec.nnz}"]
    if _shows_dtype(t.dtype):      # (the default complex dtype is implied too)
        suffixes.append(f"dtype=torch.{t.dtype._name}")
    if t.device.type != "cpu":
        suffixes.insert(0, f"device='{t.device}'")
    suffixes.append(f"layout=torch.{rec.layout}")
    if t._grad_fn is not None:
        # (a node torch names "torch::autograd::NotImplemented" prints as <NotImplemented>)
        suffixes.append(f"grad_fn=<{type(t._grad_fn).__name__.rsplit('::', 1)[-1]}>")
    elif t._requires_grad:
        suffixes.append("requires_grad=True")
    if rec.layout != "sparse_coo":      # (only COO starts its suffixes on a new line)
        return _add_suffixes(text, suffixes, indent)
    first = ",\n" + " " * indent + suffixes[0]
    return text + first + wrap_suffixes(suffixes[1:], indent, indent + len(suffixes[0]))
