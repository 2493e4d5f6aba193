"""More sparse tensors, run under real torch and under ember (`import ember as torch`): what
each snippet prints, including an exception's type and first line, must be identical.

The compressed layouts (CSR, CSC, BSR, BSC): their factories and invariant checks, the
conversions between them, dense and COO tensors, accessors and the *_copy functions, printing,
element-wise ops, sums, products and autograd. COO tensors: select and integer indexing,
index_select, cat, stack, unsqueeze, sparse_mask, the sparse_resize family, the legacy
products (smm, hspmm, sspaddmm, saddmm, dsmm, spmm) and the gradients of sparse @ dense.
Then other top-level names: torch.quasirandom.SobolEngine (plain and scrambled draws, their
state), torch.cond, torch.while_loop and torch.from_file.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = (
    'import warnings\n'
    'warnings.simplefilter("ignore")\n'
    'x = torch.tensor([[0., 1, 0, 2], [3, 0, 0, 0], [0, 0, 4, 5]])\n'
    'r = x.to_sparse_csr(); c = x.to_sparse_csc()\n'
    'b = torch.arange(16.).reshape(4, 4).to_sparse_bsr((2, 2))\n'
    'bc = torch.arange(16.).reshape(4, 4).to_sparse_bsc((2, 2))\n'
    'I = torch.tensor([[0, 1, 1], [2, 0, 2]]); V = torch.tensor([3., 4., 5.])\n'
    's = torch.sparse_coo_tensor(I, V, (2, 3))\n'
    'def E(f):\n'
    '    try:\n'
    '        print(f())\n'
    '    except Exception as e:\n'
    '        print(type(e).__name__, str(e).splitlines()[0])\n'
)

SNIPPETS = [SETUP + s for s in [
    # printing and accessors
    'E(lambda: c)', 'E(lambda: b)', 'E(lambda: bc)', 'E(lambda: r)',
    'E(lambda: x.to_sparse_bsr((1, 2)))', 'E(lambda: x.to_sparse_bsc((3, 1)))',
    'E(lambda: x.to_sparse_bsc((1, 4)))', 'E(lambda: x.to_sparse_bsr((3, 2)))',
    'E(lambda: (c.ccol_indices(), c.row_indices(), c.values()))',
    'E(lambda: (b.crow_indices(), b.col_indices(), b.values().shape))',
    'E(lambda: (bc.ccol_indices(), bc.row_indices()))',
    'print(c.layout, b.layout, bc.layout, r.layout, c.is_sparse, c.is_sparse_csr, b.is_sparse_csr, r.is_sparse_csr)',
    'print(c.shape, c.dtype, c.dim(), c._nnz(), c.numel(), len(c), c.device, c.size(1))',
    'print(c.sparse_dim(), c.dense_dim(), b.sparse_dim(), b.dense_dim())',
    'E(lambda: c.crow_indices())', 'E(lambda: c.col_indices())', 'E(lambda: b.ccol_indices())',
    'E(lambda: bc.crow_indices())', 'E(lambda: x.ccol_indices())', 'E(lambda: x.row_indices())',
    'E(lambda: s.row_indices())', 'E(lambda: s.crow_indices())', 'E(lambda: r.indices())',
    'E(lambda: c.coalesce())', 'E(lambda: c.is_coalesced())', 'E(lambda: x.values())',
    'E(lambda: x.indices())', 'E(lambda: c.values().is_leaf)',
    # conversions
    'E(lambda: c.to_dense())', 'E(lambda: b.to_dense())', 'E(lambda: bc.to_dense())',
    'E(lambda: c.to_sparse_csr())', 'E(lambda: r.to_sparse_csc())', 'E(lambda: b.to_sparse_bsc((2, 2)))',
    'E(lambda: bc.to_sparse_bsr((2, 2)))', 'E(lambda: b.to_sparse_bsr((2, 2)) is b)',
    'E(lambda: b.to_sparse_bsr((1, 1)))', 'E(lambda: b.to_sparse_csr())', 'E(lambda: bc.to_sparse_csc())',
    'E(lambda: r.to_sparse_bsr((1, 2)))', 'E(lambda: r.to_sparse_bsc((1, 2)))', 'E(lambda: c.to_sparse_bsr((1, 2)))',
    'E(lambda: c.to_sparse())', 'E(lambda: r.to_sparse())', 'E(lambda: b.to_sparse())', 'E(lambda: bc.to_sparse())',
    'E(lambda: c.to_sparse().is_coalesced())', 'E(lambda: r.to_sparse().is_coalesced())',
    'E(lambda: b.to_sparse().is_coalesced())', 'E(lambda: r.to_sparse_coo())',
    'E(lambda: r.to_sparse(layout=torch.sparse_coo))', 'E(lambda: r.to_sparse_csr() is r)',
    'E(lambda: x.to_sparse().to_sparse_csc())', 'E(lambda: x.to_sparse().to_sparse_csr())',
    'E(lambda: x.to_sparse().to_sparse_bsr((1, 2)))', 'E(lambda: s.to_sparse_csc())',
    'E(lambda: x.to_sparse(layout=torch.sparse_csc))', 'E(lambda: x.to_sparse(layout=torch.sparse_bsr, blocksize=(1, 2)))',
    'E(lambda: x.to_sparse(layout=torch.sparse_bsc, blocksize=(3, 2)))',
    'E(lambda: x.to_sparse(layout=torch.sparse_bsr))', 'E(lambda: x.to_sparse(layout=torch.sparse_bsc))',
    'E(lambda: x.to_sparse_bsr((2, 2)))', 'E(lambda: x.to_sparse_bsr(2))', 'E(lambda: x.to_sparse_bsr(1))',
    'E(lambda: x.to_sparse_bsr())', 'E(lambda: x.to_sparse_bsc())', 'E(lambda: x.to_sparse_bsr((2,)))',
    'E(lambda: x.to_sparse_bsr([1, 2]))', 'E(lambda: x.to_sparse_csc(dense_dim=1))',
    'E(lambda: x.to_sparse_csr(dense_dim=1))', 'E(lambda: x.to_sparse_bsc((3, 1), dense_dim=1))',
    'E(lambda: torch.ones(2, 2, 2).to_sparse_csr(dense_dim=1))', 'E(lambda: torch.ones(2, 2, 2).to_sparse_csc(dense_dim=1))',
    'E(lambda: torch.ones(2, 2, 2).to_sparse_csr(dense_dim=1).to_dense())',
    'E(lambda: torch.tensor([[1, 0], [0, 2]]).to_sparse_bsr((1, 1)))',
    'E(lambda: torch.tensor([[True, False], [False, True]]).to_sparse_csc())',
    'E(lambda: torch.tensor([[1, 0], [0, 2]], dtype=torch.int32).to_sparse_csr())',
    'E(lambda: torch.zeros(3, 4).to_sparse_csc())', 'E(lambda: torch.zeros(4, 4).to_sparse_bsr((2, 2)))',
    'E(lambda: torch.zeros(3, 0).to_sparse_csr())', 'E(lambda: torch.zeros(0, 3).to_sparse_csc())',
    'E(lambda: torch.zeros(3).to_sparse_csc())',
    'E(lambda: torch.eye(4).to_sparse_bsr((2, 2)).to_dense())', 'E(lambda: torch.eye(4).to_sparse_bsc((2, 1)))',
    'E(lambda: torch.eye(3, dtype=torch.float64).to_sparse_csc())',
    # factories
    'E(lambda: torch.sparse_csc_tensor([0, 1, 2], [0, 1], [1., 2]))',
    'E(lambda: torch.sparse_compressed_tensor([0, 1, 2], [0, 1], [1., 2], layout=torch.sparse_csc))',
    'E(lambda: torch.sparse_compressed_tensor([0, 1, 2], [0, 1], [1., 2], (2, 3), layout=torch.sparse_csr))',
    'E(lambda: torch.sparse_compressed_tensor([0, 1, 2], [0, 1], [1., 2], (2, 2)))',
    'E(lambda: torch.sparse_compressed_tensor([0, 1, 2], [0, 1], [1., 2], (2, 2), layout=torch.sparse_coo))',
    'E(lambda: torch.sparse_compressed_tensor([0, 1, 2], [0, 1], [1., 2], (2, 2), layout=torch.strided))',
    'E(lambda: torch.sparse_bsr_tensor([0, 1, 2], [0, 1], torch.ones(2, 2, 2)))',
    'E(lambda: torch.sparse_bsc_tensor([0, 1, 2], [0, 1], torch.ones(2, 2, 2), size=(4, 4)))',
    'E(lambda: torch.sparse_bsc_tensor([0, 1, 2], [0, 1], torch.ones(2, 2, 2)).to_dense())',
    'E(lambda: torch.sparse_bsr_tensor([0, 1, 2], [0, 1], torch.arange(12.).reshape(2, 2, 3)))',
    'E(lambda: torch.sparse_bsr_tensor([0, 1, 2], [0, 1], torch.arange(12.).reshape(2, 2, 3)).to_dense())',
    'E(lambda: torch.sparse_bsr_tensor([0, 1, 2], [0, 1], torch.ones(2, 2)))',
    'E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 1], torch.ones(2, 2)))',
    'E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 1], torch.ones(2, 2)).to_dense())',
    'E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 1], [1., 2], dtype=torch.float64, requires_grad=True))',
    'E(lambda: torch.sparse_csc_tensor([0, 1, 2], [0, 1], [1., 2], (2, 2), dtype=torch.int32))',
    'E(lambda: torch.sparse_csc_tensor([0, 1, 2], [0, 1], [1, 2]))',
    'E(lambda: torch.sparse_csc_tensor(torch.tensor([0, 1, 2], dtype=torch.int32), torch.tensor([0, 1], dtype=torch.int32), [1, 2]))',
    'E(lambda: torch.sparse_csc_tensor(torch.tensor([0, 1, 2], dtype=torch.int32), torch.tensor([0, 1]), [1, 2]))',
    'E(lambda: torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([0, 1], dtype=torch.int32), [1, 2]))',
    'E(lambda: torch.sparse_csc_tensor([0, 1, 2], [0, 1], [1., 2], (3,)))',
    'E(lambda: torch.sparse_csc_tensor([0, 1, 2], [0, 1], [1., 2, 3]))',
    'E(lambda: torch.sparse_csc_tensor([0, 1, 3], [0, 1], [1., 2]))',
    'E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 5], [1., 2], (2, 2)))',
    'E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 5], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csr_tensor([1, 1, 2], [0, 1], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csr_tensor([0, 2, 1], [0, 1], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 1], [1., 2], (3, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csr_tensor([0, 2, 2], [1, 0], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csr_tensor([0, 2, 2], [1, 1], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 1], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csc_tensor([0, 2, 2], [1, 0], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csc_tensor([0, 1, 2], [0, 3], [1., 2], (2, 2), check_invariants=True))',
    'E(lambda: torch.sparse_csc_tensor([0, 1, 2], [0, 1], [1., 2], (2, 2), check_invariants=True).ccol_indices())',
    'E(lambda: torch.sparse_bsr_tensor([0, 1, 2], [0, 1], torch.ones(2, 2, 2), (4, 5)))',
    'E(lambda: torch.sparse_bsr_tensor([0, 1, 2], [0, 1], torch.ones(2, 2, 2), (4, 4), check_invariants=True))',
    'with torch.sparse.check_sparse_tensor_invariants():\n    E(lambda: torch.sparse_csr_tensor([0, 1, 2], [0, 5], [1., 2], (2, 2)))',
    'v = torch.tensor([1., 2.], requires_grad=True)\nt = torch.sparse_csr_tensor([0, 1, 2], [0, 1], v)\nprint(t.grad_fn.name(), t.requires_grad)',
    'v = torch.tensor([1., 2.], requires_grad=True)\nt = torch.sparse_csr_tensor([0, 1, 2], [0, 1], v)\nE(lambda: t.to_dense().sum().backward())',
    # copies
    'E(lambda: torch.crow_indices_copy(r))', 'E(lambda: torch.col_indices_copy(r))',
    'E(lambda: torch.ccol_indices_copy(c))', 'E(lambda: torch.row_indices_copy(c))',
    'E(lambda: torch.values_copy(c))', 'E(lambda: torch.col_indices_copy(b))', 'E(lambda: torch.values_copy(b).shape)',
    'E(lambda: torch.crow_indices_copy(c))', 'E(lambda: torch.crow_indices_copy(x))', 'E(lambda: torch.ccol_indices_copy(r))',
    'E(lambda: torch.indices_copy(s))', 'E(lambda: torch.values_copy(s))', 'E(lambda: torch.indices_copy(x))',
    'E(lambda: torch.indices_copy(r))', 'E(lambda: torch.values_copy(x))', 'E(lambda: torch.values_copy(r).requires_grad)',
    'k = torch.crow_indices_copy(r); k[0] = 7; print(r.crow_indices())',
    'k = torch.values_copy(r); k[0] = 7; print(r.values())',
    # operators
    'E(lambda: c.t())', 'E(lambda: b.t())', 'E(lambda: r.t())', 'E(lambda: r.transpose(0, 1))', 'E(lambda: b.transpose(0, 1))',
    'E(lambda: c.t().layout)',
    'E(lambda: c.to_dense(dtype=torch.float64))', 'E(lambda: c.double())', 'E(lambda: c.to(torch.float64))',
    'E(lambda: r.int())', 'E(lambda: r.to(torch.int64))', 'E(lambda: r.float() is r)',
    'E(lambda: c + c)', 'E(lambda: r + r)', 'E(lambda: c - c)', 'E(lambda: r + x.t().contiguous().t().to_sparse_csr() * 0)',
    'E(lambda: c + r)', 'E(lambda: r + c)', 'E(lambda: b + b)', 'E(lambda: b * 2)', 'E(lambda: r * r)', 'E(lambda: c * 2)',
    'E(lambda: 2 * r)', 'E(lambda: r.mul(torch.tensor(2.)))', 'E(lambda: r * x)', 'E(lambda: -c)', 'E(lambda: -b)',
    'E(lambda: c.abs())', 'E(lambda: c.sin())', 'E(lambda: r.sqrt())', 'E(lambda: r.relu())', 'E(lambda: r.tanh())',
    'E(lambda: r.exp())', 'E(lambda: b.exp())', 'E(lambda: r.cos())', 'E(lambda: r / 2)', 'E(lambda: r.sigmoid())',
    'E(lambda: c.sum())', 'E(lambda: b.sum())', 'E(lambda: r.sum(0))', 'E(lambda: r.sum(1))', 'E(lambda: c.sum(0))',
    'E(lambda: r.sum(-1, keepdim=True))', 'E(lambda: r.sum(0, keepdim=True))',
    'E(lambda: c.clone())', 'E(lambda: c.detach())', 'E(lambda: r.requires_grad_())', 'E(lambda: c.is_contiguous())',
    'E(lambda: b.is_contiguous())', 'E(lambda: c.numpy())', 'E(lambda: b.numpy())', 'E(lambda: c.tolist())',
    'E(lambda: torch.zeros_like(c))', 'E(lambda: torch.zeros_like(b))', 'E(lambda: torch.ones_like(r))',
    'E(lambda: torch.empty_like(r).shape)', 'E(lambda: torch.full_like(r, 2.))',
    'E(lambda: c @ torch.ones(4, 2))', 'E(lambda: b @ torch.ones(4, 2))', 'E(lambda: bc @ torch.ones(4, 1))',
    'E(lambda: torch.ones(2, 3) @ c)', 'E(lambda: torch.ones(1, 3) @ r)', 'E(lambda: r.matmul(torch.ones(4)))',
    'E(lambda: torch.mm(r, torch.ones(4, 1)))', 'E(lambda: r @ torch.ones(3, 2))',
    'E(lambda: torch.addmm(torch.zeros(3, 1), r, torch.ones(4, 1)))',
    'r.mul_(2); print(r)', 'c.abs_(); print(c)', 'r.neg_(); print(r.values())', 'r.zero_(); print(r)',
    'b.zero_(); print(b)', 'r.add_(r); print(r.values())',
    # autograd
    'xg = x.clone().requires_grad_()\nE(lambda: xg.to_sparse_csr())',
    'xg = x.clone().requires_grad_()\nE(lambda: xg.to_sparse_csc())',
    'xg = x.clone().requires_grad_()\nE(lambda: xg.to_sparse_csr().to_dense())',
    'xg = x.clone().requires_grad_()\ny = xg.to_sparse_csr(); y.to_dense().sum().backward(); print(xg.grad)',
    'xg = x.clone().requires_grad_()\ny = xg.to_sparse_csc(); (y.to_dense() * torch.arange(12.).reshape(3, 4)).sum().backward(); print(xg.grad)',
    'xg = x.clone().requires_grad_()\ny = xg.to_sparse_bsr((1, 2)); (y.to_dense() * torch.arange(12.).reshape(3, 4)).sum().backward(); print(xg.grad)',
    'm = torch.sparse_csr_tensor([0, 1, 2], [0, 1], torch.tensor([1., 2.]), requires_grad=True)\nout = m @ torch.ones(2, 3); print(out, out.grad_fn.name())\nout.sum().backward(); print(m.grad)',
    'm = torch.tensor([[1., 0], [0, 2]]).to_sparse_csr().requires_grad_()\nout = torch.mm(m, torch.ones(2, 3)); print(out.grad_fn.name())\nout.sum().backward(); print(m.grad)',
    'd = torch.ones(4, 2, requires_grad=True)\nout = r @ d; out.sum().backward(); print(d.grad)',
    'm = x.to_sparse_csr().requires_grad_()\nE(lambda: m.values())',
    'm = x.to_sparse_csr().requires_grad_()\nE(lambda: m.to_dense())',
    'm = x.to_sparse_csr().requires_grad_()\nm.to_dense().sum().backward(); print(m.grad)',
    'E(lambda: torch.sparse.mm(r, torch.ones(4, 2)))',
    'E(lambda: torch.sparse.addmm(torch.zeros(3, 2), r, torch.ones(4, 2)))',
    'E(lambda: torch.sparse.addmm(torch.ones(3, 2), r, torch.ones(4, 2), beta=2, alpha=0.5))',
    'E(lambda: torch.sparse.mm(c, torch.ones(4, 1)))',
    'E(lambda: torch.sparse.sum(r))',
    'E(lambda: torch.sparse.sum(c, 0))',
    'E(lambda: r.half())',
    'E(lambda: r.cpu() is r)',
    'E(lambda: r.to("cpu") is r)',
    'E(lambda: r.is_floating_point())',
    'E(lambda: r.element_size())',
    'E(lambda: r.ndimension())',
    'E(lambda: (r.grad, r.is_leaf, str(r.dtype)))',
    'E(lambda: torch.stack([r, r]))',
    'E(lambda: torch.cat([r, r]))',
    'E(lambda: torch.cat([b, b]))',
    'E(lambda: r.unsqueeze(0))',
    'E(lambda: c.unsqueeze(1))',
    'E(lambda: r[0])',
    'E(lambda: r.select(0, 1))',
    'E(lambda: r[2])',
    'E(lambda: r.select(1, 3))',
    'E(lambda: c[1])',
]]

BUGS = [(reason, SETUP + s) for reason, s in [
    ('torch.sparse.softmax of a CSR tensor: torch names aten::_sparse_softmax, ember aten::coalesce',
     'E(lambda: torch.sparse.softmax(r, 1))'),
    ('new_zeros of a CSR tensor: torch refuses a non-batched size',
     'E(lambda: r.new_zeros(2))'),
    ("nbytes of a CSR tensor: torch gives numel * element_size, ember COO's error",
     'E(lambda: r.nbytes)'),
    ('type() of a CSR tensor: torch says Unimplemented backend SparseCsrCPU',
     'E(lambda: r.type())'),
    ("to_sparse_csr of a 1-D tensor: torch's error is a select() IndexError",
     'E(lambda: torch.zeros(3).to_sparse_csr())'),
    ("to_sparse_csr of a 0-D tensor: torch's error is a select() IndexError",
     'E(lambda: torch.tensor(1.).to_sparse_csr())'),
    ("r.T of a compressed tensor: torch's error names aten::as_strided",
     'E(lambda: r.T)'),
    ("CSR @ CSR: torch's result leaves each row's columns unsorted; ember's are sorted",
     'E(lambda: r @ r.t())'),
    ('batched compressed tensors are not supported',
     'E(lambda: torch.zeros(2, 3, 4).to_sparse_csc())'),
    ('batched compressed tensors are not supported',
     'E(lambda: torch.ones(2, 2, 2).to_sparse_csr())'),
    ('stride() of a compressed tensor gives zeros instead of torch\'s error',
     'E(lambda: c.stride())'),
    ('pow(2) of a compressed tensor is computed instead of torch\'s unsupported-layout error',
     'E(lambda: r.pow(2))'),
    ('mean of a compressed tensor names aten::mean, not aten::mean.out',
     'E(lambda: r.mean())'),
]]


# -- COO: select and indexing, index_select, cat, stack, unsqueeze, sparse_mask, resizes,
# the legacy products, torch.sparse's functions over dims, gradients of the products

COO_SETUP = (
    'import warnings\n'
    'warnings.simplefilter("ignore")\n'
    'I = torch.tensor([[0, 1, 1], [2, 0, 2]]); V = torch.tensor([3., 4., 5.])\n'
    's = torch.sparse_coo_tensor(I, V, (2, 3))\n'
    'u = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1], [0, 2, 0]]), torch.tensor([1., 2., 3.]), (2, 3))\n'
    'h = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.tensor([[1., 2.], [3., 4.]]), (3, 2))\n'
    'def E(f):\n'
    '    try:\n'
    '        print(f())\n'
    '    except Exception as e:\n'
    '        print(type(e).__name__, str(e).splitlines()[0])\n'
)

SNIPPETS += [COO_SETUP + s for s in [
    'E(lambda: s[0])', 'E(lambda: s[1])', 'E(lambda: s[-1])', 'E(lambda: u[1])', 'E(lambda: s[:, 0])',
    'E(lambda: s[:, 2])', 'E(lambda: s[..., 1])', 'E(lambda: s[0, 2])', 'E(lambda: s[1, 1])', 'E(lambda: s[None])',
    'E(lambda: s[None, 1])', 'E(lambda: s[5])', 'E(lambda: s[0].is_coalesced())',
    'E(lambda: s.select(1, 2))', 'E(lambda: s.select(0, 5))', 'E(lambda: s.select(2, 0))', 'E(lambda: s.select(0, -1))',
    'E(lambda: h[2])', 'E(lambda: h[1])', 'E(lambda: h.select(1, 0))', 'E(lambda: h[:, 1])', 'E(lambda: h[0, 1])',
    'E(lambda: torch.select(s, 1, 0))', 'E(lambda: s.coalesce().select(0, 1).is_coalesced())',
    'E(lambda: s.index_select(0, torch.tensor([1, 0, 1])))', 'E(lambda: s.index_select(1, torch.tensor([2])))',
    'E(lambda: u.index_select(1, torch.tensor([0, 0])))', 'E(lambda: torch.index_select(h, 0, torch.tensor([2, 1])))',
    'E(lambda: torch.index_select(h, 1, torch.tensor([1])))', 'E(lambda: s.index_select(0, torch.tensor([5])))',
    'E(lambda: s.index_select(0, torch.tensor([[0]])))', 'E(lambda: s.index_select(0, torch.tensor([-1])))',
    'E(lambda: s.index_select(0, torch.tensor([0.])))', 'E(lambda: s.index_select(1, torch.tensor([], dtype=torch.long)))',
    'E(lambda: s.index_select(0, torch.tensor([1, 0])).is_coalesced())',
    'E(lambda: torch.cat([s, u]))', 'E(lambda: torch.cat([s, u], 1))', 'E(lambda: torch.cat([s, u], -1))',
    'E(lambda: torch.cat([s, s.to_dense()]))', 'E(lambda: torch.cat([s.to_dense(), s]))', 'E(lambda: torch.cat([s, h]))',
    'E(lambda: torch.cat([s, s.double()]))', 'E(lambda: torch.cat([s, torch.sparse_coo_tensor(I, V, (2, 4))]))',
    'E(lambda: torch.cat([s, torch.sparse_coo_tensor(I, V, (2, 4))], 1))', 'E(lambda: torch.cat([h, h], 1))',
    'E(lambda: torch.cat([h, h]))', 'E(lambda: torch.cat([s]))', 'E(lambda: torch.cat((s, u, s)))',
    'E(lambda: torch.cat([s, s]).is_coalesced())', 'E(lambda: torch.concat([s, u]))',
    'E(lambda: torch.stack([s, u]))', 'E(lambda: torch.stack([s, u], 1))', 'E(lambda: torch.stack([s, u], 2))',
    'E(lambda: torch.stack([s, u], -1))', 'E(lambda: torch.stack([h, h], 1))', 'E(lambda: torch.stack([h, h], 2))',
    'E(lambda: torch.stack([s, s.to_dense()]))', 'E(lambda: torch.stack([s, torch.sparse_coo_tensor(I, V, (2, 4))]))',
    'E(lambda: s.unsqueeze(0))', 'E(lambda: s.unsqueeze(2))', 'E(lambda: s.unsqueeze(-1))', 'E(lambda: h.unsqueeze(-1))',
    'E(lambda: h.unsqueeze(1))', 'E(lambda: h.unsqueeze(0))', 'E(lambda: s.unsqueeze(3))', 'E(lambda: torch.unsqueeze(u, 1))',
    'E(lambda: s.unsqueeze(0).is_coalesced())', 'E(lambda: s.coalesce().unsqueeze(0).is_coalesced())',
    'E(lambda: s.unsqueeze(0).to_dense())',
    'E(lambda: torch.ones(2, 3).sparse_mask(s))', 'E(lambda: torch.arange(6.).reshape(2, 3).sparse_mask(u))',
    'E(lambda: torch.ones(2, 3).sparse_mask(torch.ones(2, 3)))', 'E(lambda: torch.ones(3, 3).sparse_mask(s))',
    'E(lambda: torch.ones(2, 3).sparse_mask(s).is_coalesced())', 'E(lambda: torch.ones(2, 3).sparse_mask(s.coalesce()).is_coalesced())',
    'E(lambda: torch.arange(6).reshape(2, 3).sparse_mask(s))', 'E(lambda: u.sparse_mask(s.coalesce()))',
    'E(lambda: torch.arange(6.).reshape(3, 2).sparse_mask(h))',
    'E(lambda: torch.smm(s, torch.ones(3, 2)))', 'E(lambda: torch.hspmm(s, torch.ones(3, 2)))',
    'E(lambda: torch.dsmm(s, torch.ones(3, 2)))', 'E(lambda: torch.spmm(s, torch.ones(3, 2)))',
    'E(lambda: torch.saddmm(torch.zeros(2, 2).to_sparse(), s, torch.ones(3, 2)))',
    'E(lambda: torch.sspaddmm(torch.zeros(2, 2).to_sparse(), s, torch.ones(3, 2)))',
    'E(lambda: s.smm(torch.ones(3, 2)))', 'E(lambda: s.hspmm(torch.ones(3, 2)))', 'E(lambda: s.sspaddmm(s, torch.ones(3, 3)))',
    'E(lambda: torch.smm(s, torch.ones(2, 2)))', 'E(lambda: torch.hspmm(s, torch.ones(2, 2)))',
    'E(lambda: torch.smm(s.to_dense(), torch.ones(3, 2)))', 'E(lambda: torch.hspmm(s.to_dense(), torch.ones(3, 2)))',
    'E(lambda: torch.sspaddmm(torch.zeros(2, 2).to_sparse(), s, torch.ones(3, 2), beta=2, alpha=3))',
    'E(lambda: torch.sspaddmm(s, s, torch.ones(3, 3), beta=2, alpha=3))',
    'E(lambda: torch.dsmm(s.to_dense(), torch.ones(3, 2)))', 'E(lambda: torch.spmm(s.to_dense(), torch.ones(3, 2)))',
    'E(lambda: torch.smm(s, torch.ones(3, 2)).is_coalesced())', 'E(lambda: torch.hspmm(s, torch.ones(3, 2)).is_coalesced())',
    'E(lambda: torch.sspaddmm(s, s, torch.ones(3, 3)).is_coalesced())', 'E(lambda: torch.smm(u, torch.arange(6.).reshape(3, 2)))',
    'E(lambda: torch.hspmm(u, torch.arange(6.).reshape(3, 2)))',
    't = s.clone(); E(lambda: t.resize_as_(u))', 't = s.clone(); E(lambda: t.sparse_resize_((3, 4), 2, 0))',
    't = s.clone(); E(lambda: t.sparse_resize_((1, 4), 2, 0))', 't = s.clone(); E(lambda: t.sparse_resize_and_clear_((3, 4), 2, 0))',
    't = s.clone(); E(lambda: t.resize_as_sparse_(torch.zeros(5, 5).to_sparse()))',
    't = s.clone(); E(lambda: t.sparse_resize_((3, 4, 2), 2, 1))', 't = s.clone(); E(lambda: t.sparse_resize_((3, 4), 2, 1))',
    't = s.clone(); E(lambda: t.sparse_resize_((3, 4), 1, 1))', 't = s.clone(); E(lambda: t.sparse_resize_((2, 2), 2, 0))',
    't = s.clone(); E(lambda: t.sparse_resize_((2, 3, 2), 3, 0))', 't = s.clone(); E(lambda: t.sparse_resize_and_clear_((2, 3, 2), 1, 2))',
    'E(lambda: torch.ones(2, 3).sparse_resize_((2, 3, 2), 1, 2))', 'E(lambda: torch.ones(2, 3).sparse_resize_and_clear_((2, 3), 2, 0))',
    't = torch.zeros(2, 3).to_sparse(); t.sparse_resize_((4, 5, 2), 1, 2); print(t, t.sparse_dim(), t.dense_dim())',
    't = s.clone(); t.sparse_resize_((3, 4), 2, 0); print(t.to_dense())',
    'E(lambda: torch.sparse.sum(s, 0))', 'E(lambda: torch.sparse.sum(s, (0, 1)))', 'E(lambda: torch.sparse.sum(h, 1))',
    'E(lambda: torch.sparse.sum(s, 1))', 'E(lambda: torch.sparse.sum(h, 0))', 'E(lambda: torch.sparse.sum(s))',
    'E(lambda: torch.sparse.softmax(s, 1))', 'E(lambda: torch.sparse.log_softmax(s, 0))', 'E(lambda: torch.sparse.softmax(h, 1))',
    'E(lambda: torch.sparse.softmax(u, 0))', 'E(lambda: torch.sparse.log_softmax(h, 0))',
    'a = s.clone().requires_grad_(); d = torch.ones(3, 2, requires_grad=True)\nout = a @ d; out.sum().backward(); print(a.grad, d.grad)',
    'a = s.clone().requires_grad_(); d = torch.ones(2, 2, requires_grad=True)\nout = d @ a; print(out.grad_fn.name()); out.sum().backward(); print(a.grad, d.grad)',
    'a = s.clone().requires_grad_(); d = torch.ones(3, 2, requires_grad=True)\nout = torch.sparse.mm(a, d); out.sum().backward(); print(a.grad, d.grad)',
    'a = s.clone().requires_grad_(); d = torch.arange(6.).reshape(3, 2).requires_grad_()\nout = torch.mm(a, d); (out * out).sum().backward(); print(a.grad, d.grad)',
    'a = s.clone().requires_grad_(); d = torch.arange(6.).reshape(3, 2).requires_grad_()\nout = torch.sparse.mm(a, d); (out * out).sum().backward(); print(a.grad, d.grad)',
    'a = u.clone().requires_grad_(); d = torch.arange(4.).reshape(2, 2).requires_grad_()\nout = d @ a; out.pow(2).sum().backward(); print(a.grad, d.grad)',
    'a = s.clone().requires_grad_(); d = torch.ones(2, 3, requires_grad=True)\nout = torch.sparse.addmm(d, a, torch.ones(3, 3)); out.sum().backward(); print(out.grad_fn.name(), a.grad, d.grad)',
    'g = s.clone().requires_grad_()\nE(lambda: g[0])',
    'g = s.clone().requires_grad_()\nE(lambda: g[0, 2])',
    'g = s.clone().requires_grad_()\nE(lambda: g.unsqueeze(0))',
    'g = s.clone().requires_grad_()\nE(lambda: torch.cat([g, s]))',
    'g = s.clone().requires_grad_()\nE(lambda: torch.stack([g, g]))',
    'g = s.clone().requires_grad_()\nE(lambda: g.index_select(1, torch.tensor([2])))',
    'g = s.clone().requires_grad_()\nE(lambda: torch.smm(g, torch.ones(3, 2)))',
    'g = s.clone().requires_grad_()\nE(lambda: torch.hspmm(g, torch.ones(3, 2)))',
    'g = s.clone().requires_grad_()\nE(lambda: torch.sspaddmm(g, g, torch.ones(3, 3)))',
    'd = torch.ones(2, 3, requires_grad=True)\nE(lambda: d.sparse_mask(s))',
    'g = s.clone().requires_grad_()\nout = g.unsqueeze(0); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = torch.cat([g, g]); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = torch.stack([g, g]); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = g[1]; print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = g.select(1, 2); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = g.index_select(1, torch.tensor([2, 2])); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = torch.smm(g, torch.ones(3, 2)); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = torch.hspmm(g, torch.ones(3, 2)); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = torch.sspaddmm(g, g, torch.ones(3, 3)); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'g = s.clone().requires_grad_()\nout = torch.stack([g, g.detach()], 1); print(out.grad_fn.name())\nE(lambda: out.to_dense().sum().backward())\nprint(g.grad)',
    'd = torch.ones(2, 3, requires_grad=True); m = s.coalesce()\nout = d.sparse_mask(m); print(out.grad_fn.name()); out.to_dense().sum().backward(); print(d.grad)',
    'E(lambda: s[0:1])',
]]

BUGS += [(reason, COO_SETUP + s) for reason, s in [
    ('sparse_mask with an uncoalesced mask, then to_dense: the gradient reaches a duplicated entry once in ember, once per duplicate in torch',
     'd = torch.arange(6.).reshape(2, 3).requires_grad_()\nout = d.sparse_mask(u); (out.to_dense() * 2).sum().backward(); print(d.grad)'),
    ("sspaddmm with a dense input: torch's error is an internal assert",
     'E(lambda: torch.sspaddmm(torch.zeros(2, 2), s, torch.ones(3, 2)))'),
]]


# -- torch.quasirandom.SobolEngine, torch.cond, torch.while_loop, torch.from_file

OTHER_SETUP = (
    'import warnings, os, tempfile\n'
    'warnings.simplefilter("ignore")\n'
    'SobolEngine = torch.quasirandom.SobolEngine\n'
    'x = torch.arange(4.)\n'
    'def E(f):\n'
    '    try:\n'
    '        print(f())\n'
    '    except Exception as e:\n'
    '        print(type(e).__name__, str(e).splitlines()[0])\n'
    'def F(data=bytes(range(16))):\n'
    '    d = tempfile.mkdtemp(); p = os.path.join(d, "f.bin")\n'
    '    open(p, "wb").write(data)\n'
    '    return p\n'
)

SNIPPETS += [OTHER_SETUP + s for s in [
    # SobolEngine
    'e = SobolEngine(3); print(e.draw(5))', 'e = SobolEngine(3); print(e.draw(5, dtype=torch.float64))',
    'e = SobolEngine(1); print(e.draw(8))', 'e = SobolEngine(2); print(e.draw()); print(e.draw()); print(e.draw(2))',
    'e = SobolEngine(3); e.draw(5); print(e.draw(3, dtype=torch.float64))', 'print(SobolEngine(3))',
    'print(SobolEngine(3, scramble=True, seed=4))', 'print(SobolEngine(3, scramble=True))', 'print(SobolEngine(3, seed=4))',
    'e = SobolEngine(5, scramble=True, seed=3); print(e.shift.tolist()); print(e.sobolstate[:, :4].tolist())',
    'e = SobolEngine(5, scramble=True, seed=3); print(e.draw(4))',
    'e = SobolEngine(5, scramble=True, seed=3); e.draw(4); e.fast_forward(3); print(e.draw(2)); print(e.num_generated)',
    'e = SobolEngine(5, scramble=True, seed=3); e.draw(4); e.reset(); print(e.draw(1), e.num_generated)',
    'e = SobolEngine(2, scramble=True, seed=0); print(e.draw_base2(3, dtype=torch.float64))',
    'e = SobolEngine(2, scramble=True, seed=0); e.draw_base2(3)\nE(lambda: e.draw_base2(2))',
    'e = SobolEngine(2); e.draw(3)\nE(lambda: e.draw_base2(1))', 'e = SobolEngine(2); print(e.draw_base2(0)); print(e.draw_base2(0)); print(e.draw_base2(1))',
    'e = SobolEngine(200, scramble=True, seed=12); e.draw(50); print(e.draw(10, dtype=torch.float64)[3, :5])',
    'e = SobolEngine(40); print(e.draw(64)[:, 35:].tolist()[-3:])',
    'e = SobolEngine(1111); print(e.sobolstate.sum().item(), e.sobolstate[1110, :5].tolist(), e.sobolstate[500, -3:].tolist())',
    'e = SobolEngine(1111); e.fast_forward(1000); print(e.draw(1)[0, -6:])',
    'e = SobolEngine(3); e.fast_forward(1); print(e.draw(2))', 'e = SobolEngine(3); e.fast_forward(4); print(e.quasi.tolist())',
    'e = SobolEngine(3); o = torch.empty(0); r = e.draw(2, out=o); print(o, r is o)',
    'e = SobolEngine(4); print(e.sobolstate.dtype, e.sobolstate.shape, e.quasi.dtype, e.shift, e.num_generated, e.MAXBIT, e.MAXDIM)',
    'E(lambda: SobolEngine(0))', 'E(lambda: SobolEngine(21202))', 'E(lambda: SobolEngine(-1))',
    'e = SobolEngine(6, scramble=True, seed=7); print(e._first_point)',
    'e = SobolEngine(6, scramble=True, seed=7); print(e.draw(3, dtype=torch.float64))',
    'e = SobolEngine(2); print(e.draw(4).dtype); torch.set_default_dtype(torch.float64); print(e.draw(2).dtype); torch.set_default_dtype(torch.float32)',
    'e1 = SobolEngine(3, scramble=True, seed=9); e2 = SobolEngine(3, scramble=True, seed=9); print(torch.equal(e1.draw(7), e2.draw(7)))',
    'print(torch.quasirandom.SobolEngine.__name__, SobolEngine.MAXBIT)',
    # cond and while_loop
    'E(lambda: torch.cond(x.sum() > 3, lambda t: t.sin(), lambda t: t.cos(), (x,)))',
    'E(lambda: torch.cond(x.sum() > 30, lambda t: t.sin(), lambda t: t.cos(), (x,)))',
    'E(lambda: torch.cond(False, lambda t: t + 1, lambda t: t - 1, [x]))',
    'E(lambda: torch.cond(True, lambda t: t + 1, lambda t: t - 1, x))',
    'E(lambda: torch.cond(torch.tensor([True, False]), lambda t: t + 1, lambda t: t - 1, (x,)))',
    'E(lambda: torch.cond(1, lambda t: t + 1, lambda t: t - 1, (x,)))',
    'E(lambda: torch.cond(True, lambda t: t + 1, lambda t: t - 1, (3,)))',
    'E(lambda: torch.cond(True, lambda: x + 1, lambda: x - 1))',
    'E(lambda: torch.cond(torch.tensor(0.), lambda: x + 1, lambda: x - 1))',
    'E(lambda: torch.cond(True, lambda t: (t, t * 2), lambda t: (t, t * 3), (x,)))',
    'E(lambda: torch.cond(torch.tensor([[True]]), lambda a, b: a + b, lambda a, b: a - b, (x, x)))',
    'y = torch.ones(2, requires_grad=True)\nr = torch.cond(True, lambda t: t * 2, lambda t: t * 3, (y,)); print(r, r.grad_fn.name())',
    'y = torch.ones(2, requires_grad=True)\nr = torch.cond(y.sum() > 5, lambda t: t * 2, lambda t: t * 3, (y,)); r.sum().backward(); print(y.grad)',
    'E(lambda: torch.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t * 2), (torch.tensor(0), x)))',
    'E(lambda: torch.while_loop(lambda i: i < 3, lambda i: (i + 1,), (torch.tensor(0),)))',
    'E(lambda: torch.while_loop(lambda i: i < 3, lambda i: i + 1, (torch.tensor(0),)))',
    'E(lambda: torch.while_loop(lambda i: i < 3, lambda i: (i + 1,), [torch.tensor(0)]))',
    'E(lambda: torch.while_loop(lambda i: i < 3, lambda i: (i + 1,), torch.tensor(0)))',
    'E(lambda: torch.while_loop(lambda i: i > 3, lambda i: (i + 1,), (torch.tensor(0),)))',
    # from_file
    'p = F(); E(lambda: torch.from_file(p, size=4, dtype=torch.int32))',
    'p = F(); E(lambda: torch.from_file(p, size=16, dtype=torch.uint8))',
    'p = F(); E(lambda: torch.from_file(p, size=2, dtype=torch.float64))',
    'p = F(); E(lambda: torch.from_file(p, size=3, dtype=torch.int16))',
    'p = F(); E(lambda: torch.from_file(p))', 'p = F(); E(lambda: torch.from_file(p, size=2))',
    'p = F(); E(lambda: torch.from_file(p, True, 2).dtype)',
    'p = F()\ntry:\n    torch.from_file(p, size=5, dtype=torch.int32)\nexcept RuntimeError as e:\n    print(str(e).replace(p, "P"))',
    'p = F()\ntry:\n    torch.from_file(p + "x", size=2)\nexcept RuntimeError as e:\n    print(str(e).replace(p, "P"))',
    'p = F(); E(lambda: torch.from_file(p + "x", shared=True, size=2))',
    'p = F(); t = torch.from_file(p, shared=False, size=4, dtype=torch.uint8); t[0] = 99; print(open(p, "rb").read()[:4])',
    'p = F(); t = torch.from_file(p, shared=True, size=4, dtype=torch.uint8); t[0] = 99; print(open(p, "rb").read()[:4])',
    'p = F(); t = torch.from_file(p, shared=True, size=4, dtype=torch.uint8); t[1:3] = 7; print(torch.from_file(p, shared=True, size=4, dtype=torch.uint8))',
    'p = F() + "new"; t = torch.from_file(p, shared=True, size=6, dtype=torch.uint8); print(t, os.path.getsize(p))',
    'p = F(); print(torch.from_file(p, size=2, dtype=torch.float32).is_contiguous(), torch.from_file(p, size=2).storage_offset())',
    'p = F(); t = torch.from_file(p, shared=False, size=4, dtype=torch.uint8); print(t.untyped_storage().nbytes())',
    'p = F(); E(lambda: torch.from_file(p, size=2, dtype=torch.float32, requires_grad=True))',
    'p = F(); E(lambda: torch.from_file(p, size=2, dtype=torch.bool))',
    'p = F(np.arange(3, dtype=np.float32).tobytes()); E(lambda: torch.from_file(p, size=3))',
    'p = F(np.arange(3, dtype=np.float64).tobytes()); E(lambda: torch.from_file(p, shared=True, size=3, dtype=torch.float64) * 2)',
    'p = F(); t = torch.from_file(p, shared=True, size=4, dtype=torch.uint8); t.add_(1); print(open(p, "rb").read()[:5])',
]]

BUGS += [(reason, OTHER_SETUP + s) for reason, s in [
    ("a while_loop body indexing with a carried tensor: torch compiles the loop and refuses the data-dependent index; ember runs it",
     'E(lambda: torch.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + x[i]), (torch.tensor(0), torch.tensor(0.))))'),
    ("while_loop whose cond_fn gives a number: torch's error is dynamo's UncapturedHigherOrderOpError",
     'E(lambda: torch.while_loop(lambda i: 3, lambda i: (i + 1,), (torch.tensor(0),)))'),
]]


# (known differences fixed since: now snippets)
SNIPPETS += [
    'import warnings\nwarnings.simplefilter("ignore")\nx = torch.tensor([[0., 1, 0, 2], [3, 0, 0, 0], [0, 0, 4, 5]])\nr = x.to_sparse_csr(); c = x.to_sparse_csc()\nb = torch.arange(16.).reshape(4, 4).to_sparse_bsr((2, 2))\nbc = torch.arange(16.).reshape(4, 4).to_sparse_bsc((2, 2))\nI = torch.tensor([[0, 1, 1], [2, 0, 2]]); V = torch.tensor([3., 4., 5.])\ns = torch.sparse_coo_tensor(I, V, (2, 3))\ndef E(f):\n    try:\n        print(f())\n    except Exception as e:\n        print(type(e).__name__, str(e).splitlines()[0])\nE(lambda: r.view(12))',
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=200)
