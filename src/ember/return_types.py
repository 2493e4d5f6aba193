"""Named tuples returned by ops with several results, printed like `torch.return_types.max`."""
import collections


def _structseq(name, fields):
    base = collections.namedtuple(name, fields)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__str__": __repr__,
                               "__module__": __name__})
    return cls


max = _structseq("max", ("values", "indices"))
min = _structseq("min", ("values", "indices"))
aminmax = _structseq("aminmax", ("min", "max"))
sort = _structseq("sort", ("values", "indices"))
topk = _structseq("topk", ("values", "indices"))
kthvalue = _structseq("kthvalue", ("values", "indices"))
median = _structseq("median", ("values", "indices"))
mode = _structseq("mode", ("values", "indices"))
cummax = _structseq("cummax", ("values", "indices"))
cummin = _structseq("cummin", ("values", "indices"))
