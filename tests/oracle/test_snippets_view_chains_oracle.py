"""Chains of view ops, run under real torch and under ember (`import ember as torch`): what
each snippet prints, including an exception's type and first line, must be identical.

A tensor (arange, reshaped, sometimes transposed, sliced or channels-last) goes through views
(view/reshape with size-1 and inferred dims, flatten/unflatten, squeeze/unsqueeze, permute,
transpose, narrow, select, slicing, expand, unfold, diagonal, as_strided, movedim, split,
real/imag/view_as_real/view_as_complex, view(dtype)) and copies (contiguous, clone, advanced
indexing); `show` prints each result's shape, strides, storage offset, contiguity, whether its
_base is the root, where it starts in the root's storage and its values; some programs then
write through the last view and print the root. Most programs were found by a random
fuzzer; the first ones are the differences it found, minimized.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = """def show(t):
    same = t.numel() > 0 and root.numel() > 0 and t.untyped_storage().data_ptr() == root.untyped_storage().data_ptr()
    print(tuple(t.shape), t.stride(), t.storage_offset(), t.is_contiguous(), t.dtype, t._base is root, t._base is None)
    if t.dim() == 4: print(t.is_contiguous(memory_format=torch.channels_last))
    if same: print('off', (t.data_ptr() - root.data_ptr()) // t.element_size())
    print(t.tolist())
root = None
"""

# The differences the fuzzer found, fixed (each also has a core test in tests/test_view_chains.py).
FOUND = [
    # view of a "contiguous" tensor whose size-1 dims have other strides: torch's rule
    'root = torch.arange(4.); show(root[::2][:1].view(1, 1)); show(root[::2][:1].view(()).view(1, 1))',
    'root = torch.arange(4.).to(torch.complex64); x = root.view(1, 1, 2, 2, 1).transpose(0, -1); show(x.view(-1, 2, 1)); show(x.reshape(2, 2, 1))',
    'root = torch.arange(8.); x = root.view(2, 4).as_strided((1, 1, 3), (2, 2, 1), 1); show(x.unflatten(0, (-1,))); show(x.view(1, 1, 3))',
    'root = torch.arange(6.); x = root.view(2, 1, 3).as_strided((2, 1, 3), (3, 7, 1)); show(x.view(2, 1, 3)); show(x.view(1, 2, 3)); show(x.view(2, 3))',
    'root = torch.arange(2); x = root[::2]; show(x.unflatten(-1, (1, 1, 1))); show(x.view_as(torch.empty(1, 1)))',
    'root = torch.arange(3.); x = root.view(3, 1).mT.expand(1, -1).contiguous(); show(x.unflatten(0, (1,)))',
    # preserve-format copies keep the strides of a dense tensor, size-1 dims included
    'root = torch.arange(2.); x = root[::2]; show(x.clone()); show(torch.empty_like(x).fill_(1)); show(x.double()); show(x.to(torch.int32))',
    'root = torch.arange(12.); x = root.view(2, 1, 6).as_strided((2, 1, 6), (6, 20, 1)); show(x.clone()); show(x.float()); show(x.to(torch.float64)); show(x.flip(0)); show(torch.zeros_like(x))',
    'root = torch.arange(3.).to(torch.float64); x = root.view(3, 1)[::2][:1, None, ...].adjoint()[2:5, None, 3:4:2, ::1]; show(x); show(x.clone(memory_format=torch.preserve_format))',
    'root = torch.arange(0).to(torch.int64); x = root.view(0, 2, 4, 2, 3).reshape(-1, 3).t(); show(x.clone())',
    # advanced indexing lays its result out like the source
    'root = torch.arange(18).to(torch.int32); show(root.view(3, 2, 3)[:, torch.tensor([-1])])',
    'root = torch.arange(1); show(root.view(1, 1, 1, 1)[:, torch.tensor([0, 0])])',
    'root = torch.arange(16.); x = root.view(2, 1, 2, 1, 4).mT.split(1, 2)[1]; show(x[:, torch.tensor([0, 0])])',
    'root = torch.arange(192.); x = root.view(3, 4, 4, 4).transpose(0, -1).mT.mT.expand(2, 4, -1, -1, 3); show(x[:, torch.tensor([-3])])',
    'root = torch.arange(12.).to(torch.float64); x = root.view(3, 1, 4).transpose(0, -1); show(x[torch.tensor([0])])',
    'root = torch.arange(8.); x = root.view(4, 2).t(); show(x[:, torch.tensor([-1])])',
    'root = torch.arange(24.); x = root.view(2, 3, 4).permute(2, 0, 1); show(x[torch.tensor([0, 2]), :, torch.tensor([1, 0])]); show(x[:, torch.tensor([[0], [1]]), torch.tensor([1, 0, 2])])',
    'root = torch.arange(24.); x = root.view(2, 3, 4); i = torch.tensor([[0, 1], [1, 0], [0, 0]]).t(); show(x[i]); show(x[:, i])',
    'root = torch.arange(24.); x = root.view(2, 3, 4).transpose(1, 2); show(x[x.sum(-1) > 10]); show(x[1, torch.tensor([2, 0])]); show(x[torch.tensor([2, 0]), None, 1])',
    'root = torch.arange(6.); x = root.view(2, 3).t().unsqueeze(1); show(x[torch.tensor([1, 2])])',
    # an index into a dim of size 0 is refused even where nothing is selected
    'root = torch.zeros(0, 3, 0, 2); root.index_put_((torch.tensor([0]),), torch.tensor(3.))',
    'root = torch.zeros(0, 3, 0, 2); root[:, :, torch.tensor([1, 2])]',
    'root = torch.zeros(0, 3); root[[0, 1]] = 1',
    'root = torch.zeros(2, 3, 0, 2); show(root[:, :, torch.tensor([], dtype=torch.long)])',
    # 0-dim tensors
    'root = torch.tensor(1.); root[:]',
    'root = torch.tensor(1.); root[::2] = 3',
    'root = torch.tensor(1.); root[(slice(None),)]',
    'root = torch.tensor(1.); show(root.movedim(-1, -1)); show(root.movedim(0, 0)); show(root.movedim((0,), (-1,)))',
    'root = torch.tensor(1.); root.movedim(0, 2)',
    # views that reinterpret the elements
    'root = torch.zeros(2, 1); show(torch.view_as_complex(root.t()))',
    'root = torch.arange(18.); show(torch.view_as_complex(root.view(3, 3, 2, 1).transpose(3, 2).swapaxes(-3, 0)))',
    'root = torch.zeros(8); torch.view_as_complex(root.as_strided((0, 2), (3, 1)))',
    'root = torch.zeros(3, 3); root[:, :2].view(torch.complex64)',
    'root = torch.zeros(4, 1); root.t().view(torch.complex64)',
    'root = torch.zeros(2, 1, 3, 0); root.view(torch.complex64)',
    'root = torch.zeros(5); root[1:].view(torch.complex64)',
    'root = torch.zeros(3, 4); show(root[:, :2].view(torch.complex64)); show(root[:2, :2].view(torch.float16))',
    # error texts
    'root = torch.zeros(2, 2); root.split((1, 2), -1)',
    'root = torch.zeros(3, 2); root.split((2, 0), -2)',
    'root = torch.zeros(2, 3); root.unflatten(-2, (3, 3))',
    'root = torch.tensor(1.); root.unflatten(-1, (1, 2))',
    'root = torch.zeros(3, 0); root.unflatten(1, (0, -1))',
    'root = torch.zeros(3, 2); root.unflatten(1, (-1, -1))',
    # channels-last copies of empty tensors multiply the sizes as they are
    'root = torch.zeros(1, 0, 2, 4).contiguous(memory_format=torch.channels_last); show(root); show(root.contiguous())',
    'root = torch.zeros(4, 0, 1, 3).contiguous(memory_format=torch.channels_last); show(root.transpose(2, -3)); show(root.movedim(-2, -3))',
    'root = torch.zeros(0, 2, 2, 2)[::2]; show(root.contiguous(memory_format=torch.channels_last))',
    'root = torch.zeros(2, 3, 0, 3); show(root.to(memory_format=torch.channels_last)); show(torch.empty(2, 3, 0, 3, memory_format=torch.channels_last))',
    'root = torch.zeros(0, 3, 4, 3, dtype=torch.complex64).contiguous(memory_format=torch.channels_last); show(torch.view_as_real(root)); show(root.real)',
    'root = torch.zeros(2, 3, 1, 3, 0).contiguous(memory_format=torch.channels_last_3d); show(root)',
    # view(dtype): torch's order of checks
    'root = torch.arange(2).to(torch.int32); root.view(1, 2, 1).transpose(0, -1).view(torch.float64)',
    'root = torch.zeros(9); root[1::2].view(torch.float64)',
    'root = torch.zeros(3, 7); root[:, :4:2].view(torch.float64)',
    # index_put_, index_fill_ and masked_fill_ write into an expanded tensor's memory
    'root = torch.arange(6.).view(2, 3); root.expand(2, 2, 3).index_put_((torch.tensor([0]),), torch.tensor(3.)); print(root)',
    'root = torch.zeros(1); root.expand(3, 3).index_put_((torch.tensor([0, 0]),), torch.tensor(1.), accumulate=True); print(root)',
    'root = torch.arange(3); root.expand(2, 3).index_put_((torch.tensor([0, 1]), torch.tensor([0, 0])), torch.tensor([5, 7]), accumulate=True); print(root)',
    'root = torch.arange(3.); root.expand(2, 3).index_put_((torch.tensor([True, False]),), torch.tensor(9.)); print(root)',
    'root = torch.arange(3.); y = root.expand(2, 3); y.index_fill_(0, torch.tensor([0]), -1.); print(root, y._version)',
    'root = torch.arange(3.); root.expand(2, 3).masked_fill_(torch.tensor([[True, False, False], [False, True, False]]), -1.); print(root)',
    'root = torch.arange(3.); root.expand(2, 3).masked_fill_(torch.tensor([True, False, True]), torch.tensor(4.)); print(root)',
    'leaf = torch.arange(3.).requires_grad_(); root = leaf * 1; y = root.expand(2, 3); y.index_put_((torch.tensor([0]),), torch.tensor(9.)); print(root, y.grad_fn.name())',
    'root = torch.arange(3.); root.expand(2, 3).index_put_((torch.tensor([0]),), torch.tensor([1., 2.]))',
    # as_strided of a view of another dtype measures the storage in its own elements
    'root = torch.arange(12).to(torch.complex64); show(root.real.as_strided((3,), (8,), 4)); root.real.as_strided((3,), (8,), 20)',
    'root = torch.arange(12).to(torch.complex64); show(torch.view_as_real(root).as_strided((2, 2), (1, 2), 19))',
    # empty advanced-indexing results
    'root = torch.arange(8.); show(root.view(2, 4, 1, 1)[torch.tensor([], dtype=torch.long)])',
    'root = torch.arange(48.); show(root.view(3, 2, 4, 2).transpose(0, -1)[torch.tensor([], dtype=torch.long)])',
    'root = torch.zeros(2, 0, 4); show(root.transpose(0, -1)[:, torch.tensor([], dtype=torch.long)])',
    'root = torch.zeros(2, 4); show(root[torch.tensor([], dtype=torch.long)]); show(root[:, torch.tensor([], dtype=torch.long)])',
    # the graph of views: slices skipped only where their bounds as written cover the dim,
    # movedim of a 0-dim tensor an alias, views replayed by a dtype-changing last op
    "root = torch.zeros(3, 2, requires_grad=True) * 1; print([eval('root' + i).grad_fn.name() for i in ['[:, :]', '[:, 0:]', '[..., :2]', '[:, 0:100]', '[..., -3::1]', '[..., -2:]', '[:, -5:5]', '[1, -7:]', '[..., None, 0, -3::1]', '[:, 0:2:2]']])",
    'root = torch.zeros(6, requires_grad=True) * 1; print(root[0].movedim(0, 0).grad_fn.name(), root.movedim(0, 0).grad_fn.name(), root[0].permute(()).grad_fn.name())',
    'leaf = torch.zeros(3, dtype=torch.complex64, requires_grad=True); root = leaf * 1; y = torch.view_as_real(root); y.mul_(2); print(y.grad_fn.name(), root.grad_fn.name()); y.mul_(2); print(y.grad_fn.name())',
    'leaf = torch.zeros(3, dtype=torch.complex64, requires_grad=True); root = leaf * 1; y = torch.view_as_complex(torch.view_as_real(root)); y.mul_(2); print(y.grad_fn.name())',
    'leaf = torch.zeros(3, dtype=torch.complex64, requires_grad=True); root = leaf * 1; y = torch.view_as_real(root)[:, 0]; y.mul_(2); z = root.real; z.add_(1); print(y.grad_fn.name(), z.grad_fn.name())',
    'leaf = torch.zeros(6, requires_grad=True); root = leaf * 1; y = torch.view_as_complex(root.view(3, 2)); y.mul_(2); root.add_(1); print(y.grad_fn.name())',
    'leaf = torch.arange(3., requires_grad=True); root = leaf.to(torch.complex64) * 1; y = torch.view_as_real(root); y.mul_(torch.tensor([2., 3.])); (y * torch.tensor([1., 10.])).sum().backward(); print(leaf.grad)',
    'leaf = torch.arange(4.).requires_grad_(); root = leaf * 1; root.split(3)[0].squeeze(0).mul_(2)',
    'leaf = torch.arange(4.).requires_grad_(); root = leaf * 1; root.split(3)[0].squeeze(()).mul_(2)',
    # .real / .imag of an empty complex tensor keep torch's strides
    'root = torch.zeros(0, dtype=torch.complex64); show(root.real); show(root.imag)',
    'root = torch.zeros(2, 0, 3, dtype=torch.complex64); show(root.transpose(0, 2).real)',
    # as_strided over an expanded input shares each storage element's gradient among the
    # places that read it (torch's as_strided_backward), also when differentiated twice
    'leaf = torch.arange(16).to(torch.complex64).requires_grad_(); root = leaf * 1; y = root.view(4, 2, 2).imag.expand(2, 4, -1, 2).as_strided((3, 3, 3), (3, 3, 0))[1::2]; (y * (torch.arange(y.numel()).reshape(y.shape) + 1)).sum().backward(); print(leaf.grad)',
    'leaf = torch.arange(12.).to(torch.float64).requires_grad_(); root = leaf * 1; y = root.view(1, 3, 4).transpose(0, -1).expand(4, 3, 2).mT.squeeze((0, 2)).as_strided((3, 4, 1), (0, 1, 1), 1); (y * (torch.arange(12.).reshape(3, 4, 1) + 1)).sum().backward(); print(leaf.grad)',
    'leaf = torch.arange(3.).requires_grad_(); root = leaf; root.expand(4, 3).as_strided((2, 2), (1, 1)).sum().backward(); print(leaf.grad)',
    'leaf = torch.arange(6.).requires_grad_(); root = leaf; g, = torch.autograd.grad(leaf.expand(2, 6).as_strided((3,), (2,)).pow(2).sum(), leaf, create_graph=True); print(g, torch.autograd.grad(g.sum(), leaf))',
    # as_strided and set_: torch's refusals of a geometry, set_ growing the storage
    'root = torch.zeros(2, 3); root.as_strided((-2, 2), (1, 1))',
    'root = torch.zeros(2, 3); root.as_strided((2, -1), (1, 1))',
    'root = torch.arange(6.); y = torch.empty(0); y.set_(root.untyped_storage(), 5, (2,), (1,)); print(y.shape, y[0].item(), root.tolist(), y.untyped_storage().nbytes())',
    'root = torch.arange(6, dtype=torch.int16); y = torch.empty(0, dtype=torch.int16); y.set_(root.untyped_storage(), 5, (3,), (1,)); print(y[0].item(), y.untyped_storage().nbytes())',
    'root = torch.arange(6.); torch.empty(0).set_(root.untyped_storage(), -1, (2, 2), (1,))',
    'root = torch.arange(6.); torch.empty(0).set_(root.untyped_storage(), -1, (2,), (-1,))',
    'root = torch.arange(6.); torch.empty(0).set_(root.untyped_storage(), 0, (-2,), (-1,))',
    'root = torch.arange(6.); torch.empty(0).set_(root.untyped_storage(), 0, (2,), (-1,))',
    'root = torch.arange(6.); y = root.view(2, 3); y.set_(root.untyped_storage(), 0, (7,)); print(y.shape, y._base is root, y._is_view(), y[:6].tolist())',
    'root = torch.arange(6.); y = root.view(2, 3); y.set_(); show(y)',
    # copies of empty tensors keep their strides; assigning a value of the target's shape
    'root = torch.arange(54.); y = root.view(3, 3, 3, 2, 1).unfold(-2, 0, 2); show(y.clone()); show(torch.empty_like(y)); show(y.double())',
    'root = torch.arange(9); y = root.view(3, 3).tensor_split((0, 1), 1)[0]; show(y.clone())',
    'root = torch.zeros(2, 0, 3); show(root.transpose(0, 2).clone())',
    'leaf = torch.arange(3.).requires_grad_(); root = leaf * 1; y = root.sum(); y[...] = 2; print(y.grad_fn.name()); y[()] = torch.tensor(3.); print(y.grad_fn.name()); root[...] = torch.tensor(1.); print(root.grad_fn.name())',
]

# Programs of the fuzzer that printed the same under both (kept as regression tests).
FUZZED = [
'root = torch.arange(12).to(torch.int64); x = root.view((4, 3, 1)); y0 = x.view(torch.int16); show(y0); y1 = y0.view(-1, 2, 24); show(y1); y = y1',
'root = torch.arange(2).to(torch.float32); x = root.view((2,)); y0 = x.view(torch.complex64); show(y0); y = y0',
'root = torch.arange(4).to(torch.int64); x = root.view((4,)); y0 = x.view_as(torch.empty((4,))); show(y0); y1 = y0.expand_as(torch.empty((1, 3, 4))); show(y1); y = y1',
'root = torch.arange(8).to(torch.float32); x = root.view((1, 2, 2, 2)); y0 = x.reshape_as(torch.empty((1, 2, 4))); show(y0); y1 = y0.view((2, 1, 2, 2)); show(y1); y2 = y1.unbind(-4)[1]; show(y2); y = y2',
'root = torch.arange(2).to(torch.float32); x = root.view((2, 1)); x = x[::2]; y0 = x.swapaxes(-2, 0); show(y0); y1 = y0.view(1, 1, 1, 1); show(y1); y2 = y1.expand((1, 3, 2, 3, 0, 1)); show(y2); y = y2',
'root = torch.arange(2).to(torch.float64); x = root.view((1, 2, 1)); x = x.transpose(0, -1); y0 = x.contiguous(); show(y0); y = y0; y.index_put_((torch.tensor([0]),), torch.tensor(3).to(y.dtype)); print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.float32); x = root.view(()); y0 = x.movedim(-1, -1); show(y0); y = y0',
'root = torch.arange(54).to(torch.float32); x = root.view((3, 2, 3, 3)); x = x.transpose(0, -1); y0 = x.squeeze(); show(y0); y1 = y0.transpose(-3, -1); show(y1); y = y1; y[...] = 5; print(root.tolist()); show(y)',
'root = torch.arange(9).to(torch.float32).reshape((1, 3, 3, 1)).contiguous(memory_format=torch.channels_last); x = root; y0 = x.squeeze(); show(y0); y1 = y0.narrow(-2, 1, 1); show(y1); y2 = y1[:, torch.tensor([2], dtype=torch.long)]; show(y2); y3 = y2.narrow(0, -1, 0); show(y3); y = y3; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(3).to(torch.complex64); x = root.view((1, 1, 3)); y0 = x.unflatten(-1, (1, -1, 3)); show(y0); y1 = y0.select(2, -1); show(y1); y2 = y1.squeeze(-4); show(y2); y = y2; y.zero_(); print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.float32); x = root.view((1,)); y0 = x.expand((2, 2)); show(y0); y1 = y0.unfold(-1, 1, 1); show(y1); y2 = y1.diagonal(offset=1); show(y2); y = y2; y.fill_(7); print(root.tolist()); show(y)',
'root = torch.arange(24).to(torch.complex64); x = root.view((3, 1, 1, 4, 2)); y0 = x.imag; show(y0); y1 = y0.as_strided((), ()); show(y1); y2 = y1.squeeze(); show(y2); y3 = y2.squeeze((0,)); show(y3); y4 = y3[...]; show(y4); y = y4; y.mul_(2); print(root.tolist()); show(y)',
'root = torch.arange(48).to(torch.int64); x = root.view((4, 4, 3, 1, 1)); y0 = x.chunk(3, -5)[-1]; show(y0); y1 = y0.expand_as(torch.empty((2, 4, 3, 2, 0))); show(y1); y = y1; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.int32); x = root.view((1, 1)); y0 = x.mT; show(y0); y = y0; y.zero_(); print(root.tolist()); show(y)',
'root = torch.arange(12).to(torch.float32); x = root.view((4, 3)); y0 = x[:0:3, ..., :2:3]; show(y0); y1 = y0.mT; show(y1); y2 = y1.as_strided((0, 1, 1), (0, 1, 1)); show(y2); y3 = y2.chunk(1, -2)[0]; show(y3); y = y3',
'root = torch.arange(4).to(torch.float32); x = root.view((2, 2)); y0 = x.reshape_as(torch.empty((4,))); show(y0); y1 = y0.swapaxes(-1, -1); show(y1); y2 = y1[..., ::3]; show(y2); y3 = y2.view(2); show(y3); y4 = y3.reshape_as(torch.empty((2,))); show(y4); y = y4; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(9).to(torch.float64); x = root.view((1, 1, 3, 3)); y0 = x.contiguous(); show(y0); y1 = y0.chunk(1, -3)[-1]; show(y1); y = y1',
'root = torch.arange(6).to(torch.float32); x = root.view((1, 3, 2)); y0 = x.expand_as(torch.empty((3, 2, 3, 2))); show(y0); y1 = y0.contiguous(); show(y1); y2 = y1.narrow(-4, -2, 1); show(y2); y3 = y2.unfold(-1, 2, 1); show(y3); y4 = y3[5:-2:3, ..., None, 4::2, :-4, 0]; show(y4); y = y4; y.mul_(2); print(root.tolist()); show(y)',
'root = torch.arange(24).to(torch.float32); x = root.view((3, 1, 4, 2, 1)); x = x.transpose(0, -1); y0 = x.select(4, 1); show(y0); y1 = y0.clone(); show(y1); y2 = torch.view_as_complex(y1); show(y2); y3 = y2.imag; show(y3); y4 = y3.squeeze(1); show(y4); y = y4; y.mul_(2); print(root.tolist()); show(y)',
'root = torch.arange(36).to(torch.complex64); x = root.view((2, 2, 1, 3, 3)); y0 = torch.view_as_real(x); show(y0); y = y0; y.zero_(); print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.float32); x = root.view(()); y0 = x.reshape_as(torch.empty((1,))); show(y0); y1 = y0.unsqueeze(-2); show(y1); y2 = y1.tensor_split(2, -1)[1]; show(y2); y3 = y2.view_as(torch.empty((0,))); show(y3); y = y3; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(18).to(torch.int64); x = root.view((3, 3, 1, 2)); x = x.transpose(0, -1); y0 = x.swapaxes(-4, -1); show(y0); y1 = y0.contiguous(memory_format=torch.channels_last); show(y1); y = y1; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(8).to(torch.float32); x = root.view((2, 2, 2)); y0 = x.T; show(y0); y1 = y0.transpose(-2, -1); show(y1); y = y1',
'root = torch.arange(24).to(torch.float64); x = root.view((2, 4, 3, 1)); y0 = x.view_as(torch.empty((24,))); show(y0); y = y0; y[...] = 5; print(root.tolist()); show(y)',
'root = torch.arange(4).to(torch.float32); x = root.view((2, 2)); y0 = x.view_as(torch.empty((4,))); show(y0); y = y0',
'root = torch.arange(1).to(torch.complex64); x = root.view(()); y0 = x.unsqueeze(-1); show(y0); y1 = y0.expand(3); show(y1); y2 = y1.squeeze(0); show(y2); y = y2; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.int32); x = root.view((1,)); y0 = x.movedim(0, -1); show(y0); y = y0; y.index_put_((torch.tensor([0]),), torch.tensor(3).to(y.dtype)); print(root.tolist()); show(y)',
'root = torch.arange(3).to(torch.float32); x = root.view((3, 1)); x = x.transpose(0, -1); y0 = x.clone(memory_format=torch.preserve_format); show(y0); y1 = y0.view((1, 3, 1, 1)); show(y1); y2 = y1[::1, 2, ..., 0:5:2, ::2]; show(y2); y3 = y2.contiguous(); show(y3); y4 = y3.reshape_as(torch.empty((1,))); show(y4); y5 = y4[-1]; show(y5); y = y5',
'root = torch.arange(1).to(torch.complex64); x = root.view(()); y0 = x.expand_as(torch.empty((2, 1))); show(y0); y1 = y0.unfold(1, 1, 2); show(y1); y2 = y1.reshape((1, -1, 2)); show(y2); y3 = y2.chunk(2, 1)[-1]; show(y3); y = y3',
'root = torch.arange(36).to(torch.float32); x = root.view((3, 1, 3, 4)); y0 = x.split(2, 1)[0]; show(y0); y1 = y0.view_as(torch.empty((2, 18, 1))); show(y1); y = y1',
'root = torch.arange(2).to(torch.float32); x = root.view((2,)); x = x[::2]; y0 = x.chunk(2, 0)[0]; show(y0); y = y0; y.zero_(); print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.float32); x = root.view((1,)); y0 = x.unflatten(0, (1, 1)); show(y0); y1 = y0.chunk(2, -2)[0]; show(y1); y = y1',
'root = torch.arange(4).to(torch.float32); x = root.view((2, 1, 2)); y0 = x.contiguous(); show(y0); y1 = torch.view_as_complex(y0); show(y1); y = y1',
'root = torch.arange(2).to(torch.float32); x = root.view((1, 2)); y0 = x.expand_as(torch.empty((1, 2, 2, 2))); show(y0); y = y0',
'root = torch.arange(3).to(torch.float32); x = root.view((3,)); y0 = x.T; show(y0); y1 = y0[torch.tensor([-2], dtype=torch.long)]; show(y1); y2 = y1.transpose(0, -1); show(y2); y3 = y2.select(-1, 0); show(y3); y = y3',
'root = torch.arange(24).to(torch.int32); x = root.view((1, 1, 4, 2, 3)); y0 = x.squeeze(1); show(y0); y = y0',
'root = torch.arange(9).to(torch.float32); x = root.view((1, 3, 3)); x = x.transpose(0, -1); y0 = x.contiguous(); show(y0); y = y0; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(36).to(torch.int32); x = root.view((3, 4, 3, 1)); y0 = x.contiguous(); show(y0); y1 = y0[2:, ...]; show(y1); y2 = y1.unbind(0)[0]; show(y2); y3 = y2.squeeze(2); show(y3); y4 = y3.unsqueeze(2); show(y4); y = y4',
'root = torch.arange(8).to(torch.complex64).reshape((1, 1, 2, 4)).contiguous(memory_format=torch.channels_last); x = root; y0 = x.imag; show(y0); y1 = y0.unsqueeze(2); show(y1); y2 = y1.transpose(2, 2); show(y2); y3 = y2[-1]; show(y3); y = y3',
'root = torch.arange(1).to(torch.float32); x = root.view(()); y0 = x.reshape(()); show(y0); y1 = y0.t(); show(y1); y2 = y1.view_as(torch.empty((1, 1, 1))); show(y2); y = y2; y.fill_(7); print(root.tolist()); show(y)',
'root = torch.arange(12).to(torch.int32); x = root.view((4, 1, 3)); y0 = x.contiguous(); show(y0); y1 = y0.diagonal(offset=-1); show(y1); y2 = y1.mT; show(y2); y = y2; y.zero_(); print(root.tolist()); show(y)',
'root = torch.arange(12).to(torch.float64); x = root.view((1, 2, 3, 2, 1)); y0 = x.as_strided((3, 2), (0, 1), 1); show(y0); y = y0',
'root = torch.arange(72).to(torch.int32); x = root.view((1, 2, 4, 3, 3)); x = x.transpose(0, -1); y0 = x.unfold(4, 0, 2); show(y0); y1 = y0.reshape((-1,)); show(y1); y2 = y1.swapaxes(-1, 0); show(y2); y = y2',
'root = torch.arange(48).to(torch.float64); x = root.view((4, 1, 3, 4)); y0 = x.contiguous(); show(y0); y1 = y0[2:-3, 2:1:3, -1::1, ..., :]; show(y1); y = y1',
'root = torch.arange(24).to(torch.float32); x = root.view((4, 3, 2)); y0 = x.view(torch.float64); show(y0); y1 = y0.view(torch.float16); show(y1); y2 = y1.select(-1, 3); show(y2); y3 = y2.t(); show(y3); y4 = y3.tensor_split((2, 2), 1)[1]; show(y4); y = y4',
'root = torch.arange(1).to(torch.complex64); x = root.view(()); y0 = torch.view_as_real(x); show(y0); y1 = y0.expand(3, 2); show(y1); y2 = y1.flatten(); show(y2); y3 = y2.squeeze((0,)); show(y3); y4 = y3.flatten(-1, -1); show(y4); y5 = y4.select(-1, 3); show(y5); y = y5; y.fill_(7); print(root.tolist()); show(y)',
'root = torch.arange(12).to(torch.int64); x = root.view((3, 4)); y0 = x[-3:-2, None, ...]; show(y0); y = y0; y[:1] = 9; print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.float32); x = root.view(()); y0 = x.view(-1); show(y0); y1 = y0.clone(memory_format=torch.preserve_format); show(y1); y2 = y1.chunk(1, 0)[0]; show(y2); y = y2; y.zero_(); print(root.tolist()); show(y)',
'root = torch.arange(8).to(torch.float32); x = root.view((4, 1, 2)); x = x.transpose(0, -1); y0 = x.T; show(y0); y1 = y0.unflatten(-2, (1, 1)); show(y1); y2 = y1.unsqueeze(2); show(y2); y = y2',
'root = torch.arange(4).to(torch.int64); x = root.view((4,)); x = x[::2]; y0 = x.t(); show(y0); y = y0; y.mul_(2); print(root.tolist()); show(y)',
'root = torch.arange(2).to(torch.float64); x = root.view((2,)); y0 = x.tensor_split((0, 3), 0)[1]; show(y0); y1 = y0.movedim(0, 0); show(y1); y2 = y1.movedim(0, 0); show(y2); y = y2',
'root = torch.arange(3).to(torch.float64); x = root.view((3, 1)); y0 = x.t(); show(y0); y1 = y0.expand_as(torch.empty((3, 1, 3))); show(y1); y2 = y1.unbind(-2)[0]; show(y2); y3 = y2.unbind(-1)[0]; show(y3); y4 = y3[-3]; show(y4); y5 = y4.expand_as(torch.empty((2,))); show(y5); y = y5',
'root = torch.arange(54).to(torch.float32); x = root.view((3, 3, 2, 3)); y0 = x.unsqueeze(-5); show(y0); y1 = y0.swapaxes(2, -3); show(y1); y = y1; y.zero_(); print(root.tolist()); show(y)',
'root = torch.arange(1).to(torch.complex64); x = root.view(()); y0 = x.clone(); show(y0); y = y0',
'root = torch.arange(1).to(torch.float32); x = root.view(()); y0 = x.reshape_as(torch.empty((1,))); show(y0); y1 = y0[torch.tensor([], dtype=torch.long)]; show(y1); y2 = y1.reshape((-1,)); show(y2); y = y2',
'root = torch.arange(12).to(torch.complex64); x = root.view((2, 1, 2, 3)); y0 = x[-4:2:3, -2::3, None, ::1, 1]; show(y0); y = y0',
'root = torch.arange(36).to(torch.float32); x = root.view((4, 3, 3, 1)); y0 = x[:-1:3, ..., 1:-3, -3::3, :]; show(y0); y1 = y0.mT; show(y1); y = y1; y.index_put_((torch.tensor([0]),), torch.tensor(3).to(y.dtype)); print(root.tolist()); show(y)',
'root = torch.arange(8).to(torch.int32); x = root.view((1, 4, 1, 1, 2)); x = x.transpose(0, -1); y0 = x.unflatten(-4, (2, 1, -1)); show(y0); y = y0',
'root = torch.arange(16).to(torch.int32); x = root.view((2, 1, 2, 4)); x = x[::2]; y0 = x.reshape_as(torch.empty((8,))); show(y0); y1 = y0[:5:3]; show(y1); y2 = y1.movedim(-1, 0); show(y2); y3 = y2.as_strided((3, 3, 0), (1, 3, 2)); show(y3); y = y3',
'root = torch.arange(2).to(torch.float64); x = root.view((2, 1)); y0 = x.expand((-1, 3)); show(y0); y1 = y0.unflatten(-2, (2,)); show(y1); y = y1',
'root = torch.arange(36).to(torch.float64); x = root.view((3, 3, 2, 2)); y0 = torch.view_as_complex(x); show(y0); y = y0; y.add_(1); print(root.tolist()); show(y)',
'root = torch.arange(4).to(torch.float32); x = root.view((1, 4)); x = x[::2]; y0 = x.view(torch.float64); show(y0); y1 = y0.unbind(-2)[0]; show(y1); y = y1',
'root = torch.arange(2).to(torch.float32); x = root.view((2, 1, 1)); x = x.transpose(0, -1); y0 = x.expand((2, 2, 2, -1)); show(y0); y1 = y0.permute(-1, -2, 0, -3); show(y1); y2 = y1.expand_as(torch.empty((2, 2, 2, 2))); show(y2); y = y2; y[:1] = 9; print(root.tolist()); show(y)',
'root = torch.arange(12).to(torch.float64); x = root.view((2, 3, 2)); y0 = torch.view_as_complex(x); show(y0); y1 = y0.view((6, 1, 1, 1)); show(y1); y2 = y1.real; show(y2); y3 = y2[..., 5:, 0]; show(y3); y = y3; y[...] = 5; print(root.tolist()); show(y)',
'root = torch.arange(108).to(torch.complex64); x = root.view((3, 4, 3, 3)); y0 = x.reshape_as(torch.empty((108,))); show(y0); y1 = torch.view_as_real(y0); show(y1); y2 = y1.T; show(y2); y = y2; y.fill_(7); print(root.tolist()); show(y)',
'root = torch.arange(6).to(torch.int64); x = root.view((1, 1, 2, 3)); y0 = x.permute((2, -4, -1, -3)); show(y0); y = y0; y[...] = 5; print(root.tolist()); show(y)',
'root = torch.arange(2).to(torch.float64); x = root.view((2,)); y0 = x.unsqueeze(0); show(y0); y1 = torch.view_as_complex(y0); show(y1); y2 = y1.squeeze(()); show(y2); y3 = y2.select(-1, -1); show(y3); y = y3; y.copy_(torch.arange(1).reshape(()) + 100); print(root.tolist()); show(y)',
'root = torch.arange(6).to(torch.int32); x = root.view((3, 2)); x = x.transpose(0, -1); y0 = x.t(); show(y0); y1 = y0.unbind(0)[1]; show(y1); y = y1; y[...] = 5; print(root.tolist()); show(y)',
'root = torch.arange(2).to(torch.int32); x = root.view((2, 1, 1)); x = x.transpose(0, -1); y0 = x.chunk(1, 2)[0]; show(y0); y = y0',
'root = torch.arange(24).to(torch.float32); x = root.view((2, 4, 3)); y0 = x.unsqueeze(3); show(y0); y1 = y0.transpose(-2, -1); show(y1); y2 = y1.view(24); show(y2); y = y2; y.index_put_((torch.tensor([0]),), torch.tensor(3).to(y.dtype)); print(root.tolist()); show(y)',
    # (an in-place op whose operand partly overlaps it: torch checks the overlap first)
    'root = torch.arange(6.); y = root.view(3, 2).mT; y.add_(y.t())',
]

SNIPPETS = [SETUP + s for s in FOUND + FUZZED]

BUGS = [
    ("conj() of a complex tensor is a copy in ember, not a lazily conjugated view: mH, H and "
     "adjoint() of a complex tensor have no _base and their own strides",
     SETUP + 'root = torch.arange(6).to(torch.complex64); x = root.view(2, 3); show(x.mH); show(x.adjoint())'),
    ("NumPy gives every empty array zero strides, which Tensor.stride reads as row-major; an "
     "expanded empty view, whose torch strides are all 0, reads the same",
     SETUP + 'root = torch.arange(2); show(root.view(2, 1)[:1].expand(1, 0, 3)); show(root[:1].expand(0))'),
    ("the same: torch's strides of a view over zero elements are all 0 after as_strided too",
     SETUP + 'root = torch.arange(3.); show(root.as_strided((2, 0), (0, 0)))'),
]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=100)
