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
