"""The tuples that ops with several results return, as torch's `torch.return_types.max` & co.

torch makes them with CPython's "struct sequence" (the kind of `os.stat_result`): a tuple
subclass whose items also have names (`r.values`, `r.indices`), built from one sequence
(`torch.return_types.max((v, i))`), with `n_fields` on the class and none of namedtuple's
`_fields`/`_asdict`/`_make`. Code that tells a namedtuple by `_fields` (default_collate)
therefore treats them as plain tuples, in ember as in torch; the pytree utilities know each
class as a node type of its own (utils/_pytree.py), as torch registers them.
"""
import operator as _operator


class _StructSeqType(type):
    """NOTE: CPython's own errors name a type by its C name ("'torch.return_types.max' object
    has no attribute 'numpy'", "unsupported format string passed to
    torch.return_types.max.__format__"), which for torch's struct sequences is the dotted
    name, while `__name__` is its last part. The classes below are made under the dotted name
    (which their errors then read) and this metaclass answers `__name__` with the last part."""

    @property
    def __name__(cls):
        return type.__dict__["__name__"].__get__(cls).rpartition(".")[2]


class _Field(property):
    """An item read by name; assigning to it is torch's error (a struct sequence's fields are
    read-only members)."""
    __slots__ = ()

    def __set__(self, instance, value):
        raise AttributeError("readonly attribute")

    __delete__ = __set__


class _StructSeq(tuple, metaclass=_StructSeqType):
    """Base of the result types below: `fields` names the items."""
    __slots__ = ()
    _field_names = ()

    def __new__(cls, *args, **kwargs):
        if not args and "sequence" not in kwargs:
            raise TypeError("structseq() missing required argument 'sequence' (pos 1)")
        items = tuple(args[0] if args else kwargs["sequence"])
        if len(items) != cls.n_sequence_fields:
            raise TypeError(f"torch.return_types.{cls.__name__}() takes a "
                            f"{cls.n_sequence_fields}-sequence ({len(items)}-sequence given)")
        return super().__new__(cls, items)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._field_names, self))
        return f"torch.return_types.{type(self).__name__}(\n{body})"

    __str__ = __repr__

    def __reduce__(self):
        return type(self), (tuple(self),)


def is_structseq(value):
    """Whether `value` is one of these result tuples."""
    return isinstance(value, _StructSeq)


def _structseq(name, fields):
    namespace = {"__slots__": (), "__module__": __name__, "__qualname__": name,
                 "_field_names": fields, "__match_args__": fields, "n_fields": len(fields),
                 "n_sequence_fields": len(fields), "n_unnamed_fields": 0}
    for i, field in enumerate(fields):
        namespace[field] = _Field(_operator.itemgetter(i), doc=f"Item {i}")
    return _StructSeqType(f"torch.return_types.{name}", (_StructSeq,), namespace)


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
nanmedian = _structseq("nanmedian", ("values", "indices"))
# what the same ops return when given `out=`: the same fields under another name
max_out = _structseq("max_out", ("values", "indices"))
min_out = _structseq("min_out", ("values", "indices"))
aminmax_out = _structseq("aminmax_out", ("min", "max"))
sort_out = _structseq("sort_out", ("values", "indices"))
topk_out = _structseq("topk_out", ("values", "indices"))
kthvalue_out = _structseq("kthvalue_out", ("values", "indices"))
median_out = _structseq("median_out", ("values", "indices"))
mode_out = _structseq("mode_out", ("values", "indices"))
cummax_out = _structseq("cummax_out", ("values", "indices"))
cummin_out = _structseq("cummin_out", ("values", "indices"))
nanmedian_out = _structseq("nanmedian_out", ("values", "indices"))
frexp = _structseq("frexp", ("mantissa", "exponent"))
histogram = _structseq("histogram", ("hist", "bin_edges"))
slogdet = _structseq("slogdet", ("sign", "logabsdet"))
qr = _structseq("qr", ("Q", "R"))
svd = _structseq("svd", ("U", "S", "V"))
triangular_solve = _structseq("triangular_solve", ("solution", "cloned_coefficient"))
histogramdd = _structseq("histogramdd", ("hist", "bin_edges"))
linalg_slogdet = _structseq("linalg_slogdet", ("sign", "logabsdet"))
linalg_qr = _structseq("linalg_qr", ("Q", "R"))
linalg_eigh = _structseq("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_eig = _structseq("linalg_eig", ("eigenvalues", "eigenvectors"))
linalg_svd = _structseq("linalg_svd", ("U", "S", "Vh"))
linalg_lstsq = _structseq("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
linalg_inv_ex = _structseq("linalg_inv_ex", ("inverse", "info"))
linalg_cholesky_ex = _structseq("linalg_cholesky_ex", ("L", "info"))
linalg_solve_ex = _structseq("linalg_solve_ex", ("result", "info"))
linalg_lu = _structseq("linalg_lu", ("P", "L", "U"))
linalg_lu_factor = _structseq("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _structseq("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_ldl_factor = _structseq("linalg_ldl_factor", ("LD", "pivots"))
linalg_ldl_factor_ex = _structseq("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
lu_unpack = _structseq("lu_unpack", ("P", "L", "U"))
_lu_with_info = _structseq("_lu_with_info", ("LU", "pivots", "info"))
geqrf = _structseq("geqrf", ("a", "tau"))
