"""Joining, splitting and shape ops, run under real torch and under ember (`import ember as
torch`): what each snippet prints, including an exception's type and first line, must be
identical.

Minimized from a fuzzer of random programs (random shapes with size-0 and size-1 dims, 0-dim
and non-contiguous inputs, every dtype): cat/stack and the NumPy-style stacks (empty 1-D
tensors, dtype promotion, out=), split/chunk/tensor_split and narrow (the order of torch's
checks), flip/roll/rot90 (layouts), repeat/tile/repeat_interleave, expand and broadcasting,
reshape/view/flatten/unflatten, squeeze/permute/movedim, transposes, tril/triu and diagonals,
kron, cdist, meshgrid (torch's C++ printing of a wrong tensor), combinations, block_diag and
einsum. Each prints values, shapes, strides, dtypes and grad_fn names.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SNIPPETS = [
    # -- cat, stack and the NumPy-style stacks --------------------------------------------------
    "y = torch.cat([torch.zeros(0), torch.zeros(0, dtype=torch.int64)], -2); print(y, y.dtype)",
    "y = torch.concatenate([torch.zeros(0)], dim=1); print(y.shape, y.stride())",
    "y = torch.cat([torch.zeros(0), torch.ones(2, 3), torch.zeros(0, dtype=torch.float64)]); print(y.dtype, y.shape)",
    "x = torch.ones(2, 3, requires_grad=True)\ntorch.cat([torch.ones(()), x], out=torch.empty(0, dtype=torch.int8))",
    "x = torch.ones(2, requires_grad=True)\ntorch.stack([x, x], out=torch.empty(0, dtype=torch.int8))",
    "x = torch.ones(3, requires_grad=True)\ntorch.column_stack([x, x], out=torch.empty(0, dtype=torch.int16))",
    "x = torch.ones((), requires_grad=True)\ntorch.vstack([x], out=torch.empty(0, dtype=torch.bool))",
    "with torch.no_grad():\n    torch.cat([torch.ones(2, requires_grad=True)], out=torch.empty(0, dtype=torch.int8))",
    "a = torch.zeros(0, 1).t(); b = (torch.arange(2) * (1+2j)).to(torch.complex64).reshape(2, 1).t()\ny = torch.cat([a, b], -1); print(y, y.stride())",
    "a = torch.zeros(0, 3).t(); b = torch.arange(3.).reshape(1, 3).t()\ny = torch.column_stack((a, b)); print(y, y.stride())",
    "a = torch.zeros(1, 0); b = torch.arange(2.).reshape(2, 1).t()\ny = torch.hstack((a, b)); print(y, y.stride())",
    "ts = [torch.arange(4.).reshape(2, 2).t(), torch.ones(2, 2, dtype=torch.int32)]\ny = torch.stack(ts, -1); print(y, y.stride(), y.dtype)",
    "y = torch.dstack([torch.tensor(1.), torch.tensor(2, dtype=torch.int64)]); print(y, y.shape)",
    "torch.cat([torch.ones(2, 3), torch.ones(2, 4)])",
    "torch.cat([torch.ones(2, 3), torch.ones(3)], 1)",
    "torch.stack([torch.ones(2, 3), torch.ones(3, 2)], 3)",
    # -- split, chunk, tensor_split, unbind, narrow ---------------------------------------------
    "torch.tensor(1.).split(1, dim=1)",
    "torch.tensor(1).split_with_sizes([2, 1], 1)",
    "torch.split(torch.zeros(0, 2), -1, -3)",
    "torch.split(torch.zeros(3, 4), [1, 2], 1)",
    "print([t.shape for t in torch.split(torch.zeros(0, 2), [0, 0], 0)])",
    "torch.tensor_split(torch.zeros(0, dtype=torch.uint8), torch.tensor([[1, 2]]), dim=-2)",
    "torch.tensor_split(torch.zeros(2), 0, dim=1)",
    "torch.tensor_split(torch.zeros(2), 0, dim=0)",
    "torch.tensor_split(torch.zeros(2), torch.tensor([1.]), dim=0)",
    "print([t.tolist() for t in torch.tensor_split(torch.arange(7), torch.tensor([5, 1, 9]))])",
    "print([t.stride() for t in torch.tensor_split(torch.arange(12).reshape(3, 4).t(), 3, 1)])",
    "print(torch.chunk(torch.arange(5), 3)); torch.chunk(torch.tensor(1), 2)",
    "torch.narrow(torch.tensor(1), 1, 0, 1)",
    "torch.narrow(torch.zeros(1, 3, 3), 3, 2, -1)",
    "torch.narrow(torch.zeros(2, 3), 0, torch.tensor(1.5), 1)",
    "print(torch.narrow(torch.arange(6).reshape(2, 3), 0, torch.tensor(-1), 1))",
    "torch.narrow_copy(torch.zeros(4, 0), -1, -1, -1)",
    "torch.narrow_copy(torch.zeros(1, 4), 1, 4, -1)",
    "torch.narrow_copy(torch.zeros(2, 3), 2, 0, 1)",
    "torch.narrow_copy(torch.zeros(2, 3), -3, 0, 1)",
    "print(torch.narrow_copy(torch.arange(6).reshape(2, 3), 1, torch.tensor(1), 2))",
    "print([t.stride() for t in torch.arange(6).reshape(2, 3).t().unbind(1)])",
    # -- flip, roll, rot90 ----------------------------------------------------------------------
    "x = torch.arange(8, dtype=torch.int16).reshape(2, 4); y = x.rot90(-1); print(y, y.stride(), y.is_contiguous())",
    "x = torch.arange(24.).reshape(2, 3, 4); y = torch.rot90(x, 3, [0, 2]); print(y.stride(), y.is_contiguous())",
    "x = torch.arange(24.).reshape(2, 3, 4); print(torch.rot90(x, 2, [0, 2]).stride(), torch.rot90(x, 4, [0, 2]).stride())",
    "x = torch.arange(216, dtype=torch.float16).reshape(3, 3, 3, 8)[..., ::2]\ny = torch.rot90(x, 3, [3, -3]); print(y.shape, y.stride())",
    "x = torch.zeros(0, 3, requires_grad=True); y = x.rot90(5); print(y.stride(), y.grad_fn)",
    "x = torch.arange(6.).reshape(2, 3).requires_grad_(); y = torch.rot90(x); (y * torch.arange(6.).reshape(3, 2)).sum().backward(); print(x.grad)",
    "x = torch.zeros(2, 4, 0).transpose(0, -1); y = x.roll(shifts=[2, -2], dims=[-2, 3]); print(y.shape, y.stride())",
    "x = torch.zeros(3, 0).t(); print(torch.roll(x, (3, -3), (0, 1)).stride(), torch.roll(x, 1).stride())",
    "torch.tensor(1.).roll(shifts=[2, -2], dims=[1, 0])",
    "torch.tensor(1.).roll(shifts=[2, -2, 3], dims=[0, 1, 0])",
    "print(torch.roll(torch.tensor(3.), 2))",
    "x = torch.arange(6.).reshape(2, 3).t(); print(torch.flip(x, [0]).stride(), torch.fliplr(x).stride())",
    "torch.tensor(1.).flip(-1, 0, 1)",
    "torch.ones(2, 3).flip((0, 0, 5))",
    "torch.ones(2, 3).flip((0, 5, 0))",
    "torch.ones(2, 3, 4).flip((0, 1, 1.5))",
    "torch.flip(torch.ones(2, 3, 4), [0, 1, None])",
    "torch.ones(2, 3, 4).flip(dims=[1.5, 0])",
    "torch.ones(2, 3, 4).flip(dims=[0, 1.5])",
    # -- repeat, tile, repeat_interleave --------------------------------------------------------
    "x = torch.zeros(0, 0, requires_grad=True); y = x.repeat((2, 0, 2, -1)); print(y.shape, y.stride(), y.grad_fn)\ny.sum().backward(); print(x.grad.shape)",
    "torch.zeros(2, 3).repeat(-2, 0, 1)",
    "print(torch.arange(6).reshape(2, 3).t().tile((2,)).stride())",
    "torch.repeat_interleave(torch.tensor(1.), torch.tensor([], dtype=torch.int64), dim=0)",
    "torch.repeat_interleave(torch.tensor(1.), torch.tensor(2), dim=5)",
    "torch.repeat_interleave(torch.tensor(1.), torch.tensor([[2]]), dim=5)",
    "torch.repeat_interleave(torch.tensor(1, dtype=torch.int16), 3, dim=-1, output_size=7)",
    "torch.repeat_interleave(torch.tensor(1.), -2, dim=0)",
    "torch.repeat_interleave(torch.ones(3), torch.tensor([1, 2]), dim=-1)",
    "torch.repeat_interleave(torch.ones(2, 3), torch.tensor([1, 1], dtype=torch.int16), dim=1)",
    "torch.repeat_interleave(torch.arange(3), torch.tensor([-1, 3, 0]), dim=-1, output_size=3)",
    "torch.repeat_interleave(torch.tensor([1, -1, 2]), output_size=2)",
    "torch.repeat_interleave(torch.ones(2, 2), torch.tensor([-1]), dim=None, output_size=-1)",
    "print(torch.repeat_interleave(torch.tensor([], dtype=torch.int32), output_size=4))",
    "y = torch.repeat_interleave(torch.zeros(4, 0)[..., ::2], torch.tensor([], dtype=torch.int64), dim=-1, output_size=1); print(y.shape)",
    "x = torch.arange(4.).reshape(2, 2).requires_grad_(); y = torch.repeat_interleave(x, torch.tensor([1, 3]), dim=0)\ny.sum().backward(); print(y, x.grad)",
    # -- expand, broadcasting -------------------------------------------------------------------
    "torch.tensor(1.).expand(-1, 2)",
    "torch.broadcast_to(torch.tensor(1, dtype=torch.int16), (-1,))",
    "torch.ones(1).expand(-1, 2)",
    "x = torch.ones(1); print(x.expand(0, 1).stride(), x.expand(2, 3, 1).stride())",
    "print(torch.broadcast_shapes((2, 1), (0,), 1)); torch.broadcast_shapes((2, 3), (4, 1, 2))",
    # -- reshape, view, flatten, unflatten, squeeze, permute ------------------------------------
    "torch.zeros(3, 2, 2).unflatten(3, [])",
    "torch.unflatten(torch.zeros(3, 2, 2), 3, [])",
    "torch.zeros(3, 2, 2).unflatten(1, [3, -1])",
    "torch.arange(6).reshape(2, 3).t().view(6)",
    "torch.zeros(0, 3).view(-1, 0)",
    "print(torch.zeros(4, 1).t().reshape(4).stride(), torch.zeros(2, 3).t().flatten().stride())",
    "print(torch.zeros(1, 1, 2)[..., ::2].squeeze().stride(), torch.zeros(2, 1, 1).squeeze((0, 2)).shape)",
    "torch.tensor(1.).squeeze((0, 0, 1))",
    "x = torch.ones(1, 2, 1); print(x.squeeze((0, -1)).shape, x.squeeze([2, 1]).shape); x.squeeze((0, 5, 0))",
    "torch.zeros(2, 3).permute(0, 0)",
    "torch.movedim(torch.zeros(2, 3), (0, 1), (1,))",
    "print(torch.moveaxis(torch.zeros(2, 3, 4), (0, -1), (2, 0)).stride())",
    "torch.zeros(2, 3, 4).t()",
    "torch.zeros(3).mT",
    "print(torch.tensor(2.).mT, torch.zeros(3).T.shape)",
    # -- triangles, diagonals -------------------------------------------------------------------
    "x = (torch.arange(12) % 3).to(torch.bool).reshape(1, 3, 4).transpose(0, -1); y = torch.tril(x, -2); print(y.stride())",
    "x = torch.arange(24.).reshape(2, 3, 4).transpose(1, 2); o = torch.empty(0); torch.triu(x, out=o); print(o.stride(), o)",
    "x = torch.arange(24.).reshape(1, 2, 3, 4).to(memory_format=torch.channels_last); print(torch.tril(x).stride())",
    "print(torch.diag_embed(torch.arange(6.).reshape(2, 3), 1, 0, 2).shape, torch.diagflat(torch.arange(4).reshape(2, 2), -1))",
    "torch.diagonal(torch.zeros(2, 3), 0, 1, -1)",
    "torch.tril(torch.arange(8.).reshape(2, 4), out=torch.empty(0, dtype=torch.complex64))",
    "torch.triu(torch.arange(8).reshape(2, 4), out=torch.empty(0, dtype=torch.int16))",
    "torch.triu(torch.arange(8.).reshape(2, 4), out=torch.empty(0, dtype=torch.uint8))",
    "torch.triu(torch.arange(8.).reshape(2, 4).requires_grad_(), out=torch.empty(0, dtype=torch.int16))",
    "torch.triu(torch.arange(8.), out=torch.empty(0, dtype=torch.int16))",
    # -- kron, cdist, meshgrid, combinations ----------------------------------------------------
    "a = torch.arange(6.).reshape(2, 3).t(); b = torch.arange(4).reshape(2, 2).t(); y = torch.kron(a, b); print(y, y.stride())",
    "torch.kron(torch.ones(2, 3).t(), torch.ones(2, 2))",
    "x = torch.arange(2, dtype=torch.float16).reshape(1, 1, 2).transpose(0, -1); y = torch.kron(x, (torch.arange(9) % 3).bool().reshape(3, 3).t()); print(y.stride(), y.dtype)",
    "a = torch.arange(6.).reshape(2, 3).requires_grad_(); b = torch.arange(4.).reshape(2, 2).t().requires_grad_()\ny = torch.kron(a, b); y.sum().backward(); print(y.grad_fn.name(), a.grad, b.grad)",
    "torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64), p=1)",
    "torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64), compute_mode='use_mm_for_euclid_dist')",
    "torch.cdist(torch.ones(1, 2, 3), torch.ones(1, 2, 3, dtype=torch.float64), compute_mode='use_mm_for_euclid_dist')",
    "torch.cdist(torch.ones(2, 3), torch.ones(30, 3, dtype=torch.float64))",
    "torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.int64))",
    "h = torch.ones(2, 3, dtype=torch.float16); torch.cdist(h, h)",
    "print(torch.cdist(torch.ones(2, 0, dtype=torch.float16), torch.ones(3, 0, dtype=torch.float64)))",
    "print(torch.cdist(torch.ones(2, 1, 3), torch.ones(2, 1, 0, 3, dtype=torch.float64), p=1).shape)",
    "torch.cdist(torch.ones(3, 2, 3), torch.ones(2, 0, 3, dtype=torch.float64))",
    "x = torch.arange(6.).reshape(2, 3).double().requires_grad_(); y = torch.cdist(x, torch.arange(9.).reshape(3, 3).double().t(), p=0.5)\ny.sum().backward(); print(x.grad)",
    "x = torch.zeros(2, 3, requires_grad=True); torch.cdist(x, torch.zeros(2, 3), p=0.5).sum().backward(); print(x.grad)",
    "x = torch.arange(6.).reshape(3, 2).t().requires_grad_(); y = torch.cdist(x, torch.ones(4, 3)); print(y.stride(), y.grad_fn.name())",
    "torch.meshgrid(torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.float64), indexing='ij')",
    "torch.meshgrid(torch.zeros(2), torch.zeros(2, 3), indexing='foo')",
    "torch.meshgrid(torch.zeros(2), torch.arange(6.).reshape(2, 3) / 7, torch.zeros(2, 2), indexing='xy')",
    "torch.meshgrid([torch.zeros(2, 0, dtype=torch.int64)], indexing='ij')",
    "torch.meshgrid(torch.arange(6).reshape(2, 3), indexing='ij')",
    "torch.meshgrid(torch.arange(6.).reshape(2, 3) * 1e-3, indexing='ij')",
    "torch.meshgrid(torch.arange(6.).reshape(2, 3) * -1e5 + 0.5, indexing='ij')",
    "torch.meshgrid(torch.arange(6.).reshape(2, 3) * 1e7, indexing='ij')",
    "torch.meshgrid(torch.arange(60.).reshape(2, 30), indexing='ij')",
    "torch.meshgrid(torch.tensor([[1., float('nan'), float('inf'), -float('inf')]]), indexing='ij')",
    "torch.meshgrid(torch.tensor([[True, False]]), indexing='ij')",
    "torch.meshgrid(torch.arange(24.).reshape(2, 2, 3, 2) / 7, indexing='ij')",
    "g = torch.meshgrid(torch.arange(3), torch.arange(2), indexing='xy'); print(g[0], g[0].stride(), g[1].stride())",
    "print(torch.combinations(torch.arange(4), r=3), torch.combinations(torch.arange(3), r=0))",
    "print(torch.cartesian_prod(torch.arange(2), torch.arange(3)).shape)",
    # -- block_diag, atleast --------------------------------------------------------------------
    "y = torch.block_diag(torch.arange(12, dtype=torch.uint8).reshape(3, 4), torch.tensor(7, dtype=torch.int16)); print(y, y.dtype)",
    "print(torch.block_diag(torch.ones(1, dtype=torch.uint8), torch.tensor(2.)).dtype, torch.block_diag().shape)",
    "print(torch.atleast_3d(torch.arange(3)).stride(), torch.atleast_2d([torch.tensor(1), torch.zeros(2)]))",
    # -- einsum ---------------------------------------------------------------------------------
    "torch.einsum('i->i')",
    "torch.einsum('ij', [])",
    "torch.einsum('a.b', torch.ones(1, 1), torch.ones(2))",
    "torch.einsum('..i->i', torch.ones(1))",
    "torch.einsum('i...j...->', torch.ones(()))",
    "torch.einsum('i1', torch.ones(3, 1), torch.ones(3))",
    "torch.einsum('ij->i->j', torch.ones(2, 2))",
    "torch.einsum('ij->i..', torch.ones(2, 2))",
    "torch.einsum('...ij->......', torch.ones(2, 2))",
    "torch.einsum('ij->jj', torch.ones(2, 2))",
    "torch.einsum('ij->k', torch.ones(2, 2))",
    "torch.einsum('i,j', torch.ones(2))",
    "torch.einsum('i', torch.ones(2), torch.ones(2))",
    "torch.einsum('ii->i', torch.ones(2, 3))",
    "torch.einsum('ij,ij->i', torch.ones(2, 3), torch.ones(3, 3))",
    "print(torch.einsum('i j -> j', torch.arange(4.).reshape(2, 2)), torch.einsum('...ij,...jk', torch.ones(3, 2, 2), torch.ones(2, 2)).shape)",
    "print(torch.einsum('bij,bjk->bik', torch.ones(2, 2, 3), torch.ones(1, 3, 2)).shape)",
    "print(torch.einsum('i,j->ij', torch.ones(2), torch.arange(3, dtype=torch.float64)))",
    "torch.einsum('i,i->', torch.ones(3), torch.ones(3, dtype=torch.float64))",
    "torch.einsum('i,i,i->', torch.ones(3), torch.ones(3, dtype=torch.float64), torch.ones(3))",
    "print(torch.einsum('i...,i...->...', torch.ones(1, dtype=torch.bool), torch.arange(24.).reshape(3, 4, 2).double()))",
    "torch.einsum('i...,i...->...', torch.ones(3, dtype=torch.bool), torch.ones(3, 4, 2, dtype=torch.float64))",
    "torch.einsum('ij,jk', torch.ones(2, 3, dtype=torch.bool), torch.ones(3, 2, dtype=torch.bool))",
    "print(torch.einsum('ij,ij->ij', torch.ones(2, 3), torch.ones(2, 3, dtype=torch.int64)).dtype, torch.einsum('ij,j->i', torch.ones(1, 3), torch.ones(1, dtype=torch.float64)))",
    "a = torch.ones(2, requires_grad=True); b = torch.arange(3., dtype=torch.float64, requires_grad=True)\ny = torch.einsum('i,j->ij', a, b); y.sum().backward(); print(y.grad_fn.name(), a.grad, b.grad)",
]

BUGS = [
    ("ember's stride() reads NumPy's all-zero strides of an empty array as row-major: a "
     "tensor expanded to a size-0 dim shows stride 1 where torch has 0",
     "x = torch.tensor(1.); print(x.expand(0).stride(), x.expand(2, 0).stride(), torch.broadcast_to(torch.ones(1), (3, 0)).stride())"),
    ("ember's conj() is a copy, not torch's lazy conjugate bit: mH, adjoint and H of a "
     "complex tensor are laid out afresh instead of keeping the transposed strides",
     "x = (torch.arange(12) * (1+2j)).to(torch.complex64).reshape(3, 4)[..., ::2]; print(x.H.stride(), x.mH.stride(), x.adjoint().stride())"),
    ("ember casts mixed-dtype operands of an element-wise product before the product picks "
     "its layout: kron of a transposed half tensor with a uint8 one is not refused",
     "torch.kron(torch.arange(2, dtype=torch.float16).reshape(1, 2).t(), torch.arange(2, dtype=torch.uint8).reshape(2, 1))"),
    ("ember's element-wise product lays out operands with size-1 dims otherwise than torch's "
     "TensorIterator, so kron (a view of such a product) gets other strides",
     "a = torch.arange(4.).reshape(1, 4); b = torch.arange(2.).reshape(1, 2).t(); print(torch.kron(a, b).stride(), (a.reshape(1, 1, 4, 1) * b.reshape(1, 2, 1, 1)).stride())"),
    ("ember's einsum of complex operands loses torch's negative zeros (torch's bmm sums "
     "products (-0 from 0 * negative values) that ember's contraction adds as +0)",
     "print(torch.einsum('b,e,a', (torch.arange(2) * (1+2j)).to(torch.complex128), (torch.arange(3) * (1+2j)).to(torch.complex128), torch.zeros(1, dtype=torch.complex128)).tolist())"),
    ("torch's AccumulateGrad keeps a fresh gradient that is a view (cat's and squeeze's "
     "backward give views of the output's gradient) when its strides agree off size-1 dims; "
     "ember copies every view into the leaf's layout",
     "ts = [torch.arange(2.).reshape(1, 1, 2).requires_grad_() for _ in range(2)]\n(torch.cat(ts, dim=2) * torch.arange(4.)).sum().backward(); print(ts[0].grad.stride())"),
]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=130)
