"""Indexing, index assignment and the gather / scatter / masked families under inputs found by
a random fuzzer, run under real torch and under ember (`import ember as torch`): what each
snippet prints, including an exception's type and first line, must be identical.

Minimized from the fuzzer's differences: lone ints and slices on 0-dim tensors, 0-dim uint8
tensors (bool scalars), the strides of empty results, which index out of range is reported,
the order of an assignment's checks (value shape and dtype before the index values; a leading
mask of a one-element index_put_ before the index dtypes), the value's shape named without
its leading 1s, and a lone True.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SHOW = """def show(r, a):
    print(tuple(r.shape), r.stride(), r.dtype, r.storage_offset(),
          r.untyped_storage().data_ptr() == a.untyped_storage().data_ptr())
    print(r.tolist())
"""

GETS = [SHOW + s for s in [
    # lone ints and slices on a 0-dim tensor
    *(f"a = torch.tensor(5.)\nshow(a[{k}], a)" for k in (
        "0", "-1", "1", "5", "np.int64(0)", "np.int64(2)", "(0,)", "(1,)", "None, 0",
        "torch.tensor(3)", "::-1", "4::-4", "::0", "1:", "(slice(None, None, -1),)")),
    # a 0-dim uint8 tensor is a bool scalar
    "a = torch.arange(12.).reshape(4, 3)\nshow(a[torch.tensor(7, dtype=torch.uint8)], a)",
    "a = torch.arange(6.).reshape(2, 3)\nshow(a[None, torch.tensor(0, dtype=torch.uint8)], a)",
    "a = torch.arange(27, dtype=torch.uint8).reshape(3, 3, 3)\nshow(a[None, torch.tensor(-3, dtype=torch.uint8)], a)",
    "a = torch.arange(12.).reshape(1, 4, 3)\nshow(a[torch.tensor(0, dtype=torch.uint8), torch.tensor([False, True, False])], a)",
    "a = torch.arange(96.).reshape(3, 4, 2, 4)\nshow(a[torch.tensor([[1], [2]], dtype=torch.uint8), ..., None], a)",
    # empty results: contiguous when every other dim has size 1
    "a = torch.arange(2.).reshape(2, 1)\nshow(a[[]], a)",
    "a = torch.arange(2.).reshape(1, 2, 1).transpose(1, 0)\nshow(a[torch.tensor([], dtype=torch.int64)], a)",
    "a = torch.zeros(2, 3)\nshow(a[torch.tensor([], dtype=torch.int32), None, torch.tensor([], dtype=torch.int64)], a)",
    "a = torch.arange(6, dtype=torch.uint8).reshape(3, 1, 2)[:, :, ::4]\nshow(a[torch.tensor([[-1], [0]], dtype=torch.int32), torch.tensor([False])], a)",
    "a = torch.zeros(2, 1).bool()\nshow(a[torch.tensor([False, False])], a)",
    "a = torch.zeros(4, 0, 3).transpose(0, 2)\nfor i in ([0, 1], ([0, 1],), ([0, 1], slice(None), [1, 2])):\n    r = a[(slice(None), slice(None), i)] if isinstance(i, list) else a[i]\n    print(r.shape, r.stride())",
    "a = torch.zeros(4, 3, 2).transpose(0, 2)\nprint(a[:, []].stride(), a[:, :, torch.tensor([[]]).long()].stride())",
    "a = torch.zeros(0)\nb = torch.zeros(2, 0)\nprint(a.untyped_storage().data_ptr(), b.data_ptr(), b.t().untyped_storage().data_ptr(), a[0:].data_ptr())",
    # the first index out of range, element by element
    "a = torch.arange(36.).reshape(3, 3, 4)\nshow(a[-3:, torch.tensor([-4, 6]), [0, 3]], a)",
    "a = torch.zeros(3, 3)\nshow(a[torch.tensor([0, 9]), torch.tensor([9, 0])], a)",
    "a = torch.zeros(3, 3)\nshow(a[torch.tensor([[0], [9]]), torch.tensor([[-7, 0]])], a)",
    "a = torch.zeros(3, 3)\nshow(a[[5, -9]], a)",
]]

SETS = [s + "\nprint(a.tolist())" for s in [
    # lone ints, slices and bools
    "a = torch.tensor(5.)\na[0] = 1", "a = torch.tensor(5.)\na[1] = 1", "a = torch.tensor(5.)\na[-1] = 1",
    "a = torch.tensor(5.)\na[(0,)] = 1", "a = torch.tensor(5.)\na[::-1] = 1", "a = torch.tensor(5.)\na[::0] = 1",
    "a = torch.tensor(5.)\na[1:] = 1", "a = torch.tensor(5.).half()\na[::-3] = 1j",
    "a = torch.tensor(5, dtype=torch.int32)\na[-1:] = 1j",
    "a = torch.arange(6, dtype=torch.uint8)\na[False] = 1j", "a = torch.arange(2.)\na[False] = 1j",
    "a = torch.arange(2.)\na[False] = torch.zeros(5)",
    "a = torch.zeros(3, 4)\na[True] = torch.arange(4.)", "a = torch.zeros(3, 4)\na[True] = torch.zeros(2)",
    "a = torch.zeros(4, dtype=torch.int64)\na[True] = torch.ones(2, 3)",
    "a = torch.tensor(1)\na[True] = torch.ones(2, dtype=torch.complex64)",
    "a = torch.zeros(2, 3)\na[torch.tensor(True)] = torch.ones(3)",
    "a = torch.zeros(2, 3)\na[torch.tensor(7, dtype=torch.uint8)] = torch.ones(3)",
    # the value's shape without its leading 1s
    "a = torch.tensor(True)\na[...] = torch.ones(1, 3).bool()",
    "a = torch.zeros(3, 3)\na[:, [0]] = torch.ones(1, 2)",
    "a = torch.zeros(3, 1)\na[:, ..., torch.tensor([True])] = torch.ones(1, 2)",
    "a = torch.zeros(1, 3)\na[...] = torch.ones(1, 2)",
    "a = torch.zeros(1, 1)\na[:] = torch.ones(1, 3)",
    "a = torch.zeros(4, 3, 2, 4, dtype=torch.uint8)\na[None, torch.tensor(-3), 2] = torch.ones(1, 3, dtype=torch.uint8)",
    "a = torch.zeros(4, 3)\na[-1, ...] = torch.ones(2, 1, dtype=torch.complex64)",
    "a = torch.zeros(1, 1, dtype=torch.int32)\na[-1] = torch.ones(2, 3).bool()",
    "a = torch.zeros(1)\na[0] = torch.ones(2, 2, dtype=torch.bfloat16)",
    "a = torch.zeros(2)\na[torch.tensor([], dtype=torch.int64), None] = torch.ones(1, 2, dtype=torch.int32)",
    "a = torch.zeros(2)\na[..., torch.tensor(False)] = torch.ones(1, 2).bool()",
    "a = torch.zeros(3)\na[[0, 0]] = torch.ones(1, 1, 3)",
    "a = torch.zeros(3)\na[[0, 0]] = torch.ones(1, 1, 2)",
    # the value's shape and dtype come before the index values
    "a = torch.arange(4, dtype=torch.uint8)\na[None, [4, -3, -4]] = torch.ones(4, dtype=torch.float64)",
    "a = torch.arange(3, dtype=torch.uint8).reshape(3, 1, 1)\na[[-3, -4]] = torch.ones(2, 1, dtype=torch.uint8)",
    "a = torch.zeros(1, 2, 4)\na[0, 1, [-5]] = torch.ones(1, 1, dtype=torch.uint8)",
    "a = torch.zeros(1, 2, 4)\na[0, 1, [-5]] = 2.",
    "a = torch.zeros(3, 1).bool().t()\na[..., torch.tensor([4], dtype=torch.int32), torch.tensor(-2, dtype=torch.int32)] = torch.ones(4).bool()",
    "a = torch.zeros(3)\na[torch.tensor([5, 0])] = torch.ones(2, dtype=torch.int64)",
    "a = torch.zeros(3)\na[torch.tensor([5, 0])] = torch.ones(3)",
    # a leading mask of a one-element index_put_ is checked before the index dtypes
    "a = torch.zeros(4, 2, 1)\na[True, 3, torch.tensor([], dtype=torch.uint8), torch.tensor([[-1], [-1]], dtype=torch.int16)] = torch.ones(2)",
    "a = torch.zeros(1, 4, 1, 2, dtype=torch.int32)\na[..., torch.tensor([[True, False]]), torch.tensor([-1], dtype=torch.int8)] = torch.ones(1, 2, dtype=torch.int32)",
    "a = torch.zeros(3, 4)\na[torch.tensor([True, False]), torch.tensor([0.])] = 1.",
    "a = torch.zeros(3, 4)\na[torch.tensor([True, False]), torch.tensor([0.])] = torch.ones(2)",
    "a = torch.zeros(3, 4)\na[True, torch.tensor([True, False]), torch.tensor([0.])] = 1.",
    "a = torch.zeros(3, 4)\na.index_put_((torch.tensor([True, False]), torch.tensor([0.])), torch.tensor(1.))",
    "a = torch.zeros(3, 4)\na.index_put_((torch.tensor([True, False]), torch.tensor([0.])), torch.tensor(1.), accumulate=True)",
    # a 0-dim integer index tensor selects: one mask left is a masked_fill_
    "a = torch.arange(2.).reshape(2, 1).t()\na[torch.tensor([False]), torch.tensor(-1, dtype=torch.int16), None] = torch.ones(1, 1, dtype=torch.int64)",
    "a = torch.zeros(2, 3)\na[torch.tensor([True, False]), torch.tensor(1)] = torch.tensor(3, dtype=torch.int64)",
    # index tensors broadcasting to nothing pass a dim of size 0
    "a = torch.zeros(0, 0, 0, 0, dtype=torch.int16)\na[torch.tensor(True), torch.tensor([0]), torch.tensor([], dtype=torch.int32), False, True] = 7",
    "a = torch.zeros(0, 2)\na[torch.tensor([0])] = 7",
]]

OUT = """def out(r):
    print(tuple(r.shape), r.stride(), r.dtype, r.tolist())
"""

GATHER_SCATTER = [OUT + s for s in [
    # an empty index: any dtype, no shape or value checks, nothing written or converted
    *(f"x = torch.arange(6.).reshape(3, 2)\ni = torch.tensor([], dtype={dt}).reshape({shape})\n{call}"
      for dt in ("torch.float32", "torch.int16", "torch.uint8") for shape in ("(0,)", "(3, 0)", "(0, 5)")
      for call in ("out(torch.gather(x, -1, i))", "out(x.scatter(0, i, 1j, reduce='add'))",
                   "out(torch.scatter_add(x, 1, i, x))",
                   "out(torch.scatter_reduce(x, 0, i, x, 'prod', include_self=False))")),
    "x = torch.arange(3.)\nprint(x.scatter_(0, torch.tensor([], dtype=torch.int64), torch.tensor(3.), reduce='multiply'))",
    "x = torch.arange(4.).reshape(1, 4)\nprint(x.scatter_(-1, torch.tensor([], dtype=torch.int32), torch.zeros(0)))",
    "x = torch.zeros(1, 4, 4, dtype=torch.complex64)\nprint(x.scatter_reduce_(0, torch.zeros(0, 4, 4, dtype=torch.int64), torch.zeros(0, 4, 4, dtype=torch.complex64), 'amin').shape)",
    "x = torch.zeros(3, 4).bool()\nprint(torch.scatter_reduce(x, -2, torch.zeros(0, 2, dtype=torch.int64), x[:0, :2], 'mean'))",
    "x = torch.zeros(3, 2, dtype=torch.float64)\nprint(torch.scatter(x, 0, torch.zeros(0, 2, dtype=torch.int64), torch.zeros(0, 2, dtype=torch.float32)))",
    # the dim first, then the index dtype, then self's and src's
    "x = torch.arange(9.).reshape(3, 3)\nout(torch.gather(x, 2, torch.tensor([[0]], dtype=torch.int16)))",
    "x = torch.arange(9.).reshape(3, 3)\nout(torch.scatter(x, -3, torch.tensor([[True]]), 2))",
    "x = torch.arange(3.)\nout(torch.scatter_reduce(x, -1, torch.tensor([0.]), torch.arange(5), 'amax'))",
    "x = torch.arange(3.)\nout(torch.scatter_add(x, 0, torch.tensor([1], dtype=torch.uint8), torch.arange(2)))",
    "x = torch.arange(4).reshape(2, 2)\nout(x.scatter_(1, torch.tensor([[1]], dtype=torch.int16), torch.tensor(3.)))",
    # the value of scatter is converted at the first write
    "x = torch.arange(12).reshape(3, 4)\nx.scatter_(-1, torch.tensor([[1, 6, 0, 2]]), 1j, reduce='multiply')",
    "x = torch.arange(2)\nout(torch.scatter(x, -1, torch.tensor([1, -1]), 1j))",
    "x = torch.arange(4.).reshape(1, 4)\nout(torch.scatter(x, 0, torch.tensor([[-2]], dtype=torch.int32), 1j))",
    "x = torch.arange(4.)\nout(x.scatter(0, torch.tensor([3, -5]), torch.arange(2.), reduce='mean'))",
    # scatter_reduce: dtypes torch's kernel does not take, the old names under autograd
    "x = torch.tensor([True, False])\nout(torch.scatter_reduce(x, 0, torch.tensor([0, 1]), x, 'mean', include_self=False))",
    "x = torch.tensor(True)\nx.scatter_reduce_(-1, torch.tensor(-1), torch.tensor(True), 'mean')",
    "x = torch.tensor(True)\nx.scatter_reduce_(-1, torch.tensor(-1), torch.tensor(True), 'mean', include_self=False)",
    "x = torch.zeros((), dtype=torch.complex64)\nx.scatter_reduce_(0, torch.tensor(0), torch.zeros(1, dtype=torch.complex64), 'amin', include_self=False)",
    "x = torch.zeros((), dtype=torch.complex64)\nx.scatter_reduce_(0, torch.tensor(3), torch.zeros(1, dtype=torch.complex64), 'amin', include_self=False)",
    "x = torch.zeros((), dtype=torch.complex64)\nx.scatter_reduce_(0, torch.tensor(3), torch.zeros(1, dtype=torch.complex64), 'amin')",
    "x = torch.zeros((), dtype=torch.complex64)\nout(torch.scatter_reduce(x, 0, torch.tensor([-2, -1]), torch.zeros(3, dtype=torch.complex64), 'max'))",
    "x = torch.zeros((), dtype=torch.complex64)\nout(torch.scatter_reduce(x, 0, torch.tensor([-2, -1]), torch.zeros(3, dtype=torch.complex64), 'max', include_self=False))",
    "x = torch.arange(3.).reshape(1, 3).requires_grad_()\ns = torch.arange(3.).reshape(1, 3).requires_grad_()\nr = torch.scatter_reduce(x, 1, torch.tensor([[1, 2, 2]]), s, 'max', include_self=False)\nout(r)\nr.sum().backward()",
    "x = torch.arange(3.).requires_grad_()\nr = torch.scatter_reduce(x, 0, torch.tensor([0, 0]), x[:2], 'min')\nprint(r, r.grad_fn.name())",
    # no derivative for the in-place legacy reductions either
    "x = torch.ones(1, requires_grad=True)\ny = x.clone()\ny.scatter_(-1, torch.tensor([], dtype=torch.int32), torch.zeros(0), reduce='multiply')\ny.sum().backward()",
    "x = torch.ones(2, requires_grad=True)\ny = x.clone()\ny.scatter_(0, torch.tensor([1]), 2.5, reduce='add')\ny.sum().backward()",
    "x = torch.ones(2, requires_grad=True)\ny = x.scatter(0, torch.tensor([1]), 2.5, reduce='add')\ny.sum().backward()",
    # which index out of range is named: the order torch's loop walks them in
    "x = torch.arange(48, dtype=torch.int32).reshape(4, 4, 3).transpose(0, 1)\ni = torch.tensor([2, 1, -1, 1, 1, 1, 3, 3, -4, 2, 0, 0, 0, 1, 3, 0]).reshape(4, 4, 1)\nx.scatter_add_(1, i, torch.ones(4, 4, 1, dtype=torch.int32))",
    "x = torch.arange(48.).reshape(4, 4, 3)\ni = torch.tensor([2, 0, 3, 3, 2, 0, 1, -2, 1, 2, 2, 1, 2, 2, 2, 1, -3, 1, 1, 1, 0, 2, 2, 3, 3, -3, 0, 1, 2, 0, 0, 3]).reshape(4, 4, 2)\nout(torch.gather(x, 0, i))",
    "x = torch.arange(12.).reshape(3, 4)\nout(torch.gather(x, 0, torch.tensor([[0, 5, 0, 0], [-1, 0, 0, 0]])))",
    "x = torch.arange(12.).reshape(3, 4)\nout(torch.gather(x, 1, torch.tensor([[0, 5, 0, 0], [-1, 0, 0, 0]])))",
    "x = torch.arange(12.).reshape(4, 3).t()\nout(torch.gather(x, 0, torch.tensor([[0, 5, 0, 0], [-1, 0, 0, 0]])))",
    "x = torch.zeros(3, 4)\nout(x.scatter(0, torch.tensor([[0, 5, 0, 0], [-1, 0, 0, 0]]), torch.ones(2, 4)))",
    "x = torch.zeros(4, 3).t()\nout(x.scatter(1, torch.tensor([[0, 5, 0, 0], [-1, 0, 0, 0]]), torch.ones(2, 4)))",
    # a 0-dim src is named by its own shape
    "x = torch.arange(4.)\nout(x.scatter(0, torch.tensor([0, 3, 2, 2, 0]), torch.tensor(3.), reduce='multiply'))",
    # take_along_dim: the indices modulo the dim's size; no dim: gather over view(-1)
    *(f"a = torch.arange(6).reshape(2, 3)\nout(torch.take_along_dim(a, {i}{d}))" for i, d in (
        ("torch.tensor([[3], [4]])", ", dim=1"), ("torch.tensor([[-1], [-4]])", ", dim=1"),
        ("torch.tensor([[-7], [5]])", ", dim=-1"), ("torch.tensor([[1], [2]], dtype=torch.int32)", ", dim=1"),
        ("torch.tensor([5, -1])", ""), ("torch.tensor([7])", ""), ("torch.tensor([1], dtype=torch.int32)", ""),
        ("torch.tensor([[1.]])", ", dim=1"), ("torch.tensor([[1.]])", ""), ("torch.tensor([1], dtype=torch.int32)", ", dim=1"),
        ("torch.tensor([[1, 1]])", ", dim=5"), ("torch.tensor([[1, 1, 1, 1]])", ", dim=1"),
        ("torch.tensor([[1], [1], [1]])", ", dim=1"), ("torch.tensor([[0, 1]]).t()", ""))),
    "out(torch.take_along_dim(torch.zeros(2, 0), torch.tensor([[0]]), dim=1))",
    "out(torch.take_along_dim(torch.zeros(2, 0), torch.tensor([[]]).long(), dim=1))",
    "out(torch.take_along_dim(torch.arange(6).reshape(2, 3).t(), torch.tensor([0])))",
    "out(torch.take_along_dim(torch.tensor(5.), torch.tensor(0), dim=0))",
    "out(torch.take_along_dim(torch.tensor(5.), torch.tensor(0), dim=-1))",
    "out(torch.take_along_dim(torch.tensor(5.), torch.tensor(0, dtype=torch.int32)))",
    "x = torch.arange(6.).reshape(2, 3).requires_grad_()\nr = torch.take_along_dim(x, torch.tensor([[-1, 4], [0, 0]]), dim=1)\nout(r)\nr.sum().backward()\nprint(r.grad_fn.name(), x.grad)",
]]

INDEX_FUNCTIONS = [OUT + s for s in [
    # index_add / index_reduce: the dim, the index's rank and dtype, the dtypes, the shapes
    "x = torch.zeros(2)\nout(x.index_add(-1, torch.zeros(0, 1), torch.zeros(0).bool()))",
    "x = torch.zeros(3, 3)\nout(x.index_add(3, torch.tensor([0., 1.]), torch.ones(2, 3)))",
    "x = torch.tensor(1.)\nout(x.index_add(-1, torch.tensor([0, 0], dtype=torch.int32), torch.tensor(2.)))",
    "x = torch.zeros(2)\nout(x.index_add(0, torch.tensor([1, 0]), torch.tensor(2.)))",
    "x = torch.zeros(3, 2, 2)\nout(x.index_reduce(1, torch.tensor([], dtype=torch.int64), torch.zeros(3, 0, 2).half(), 'amax'))",
    "x = torch.zeros(4, 2).t()\nx.index_reduce_(1, torch.tensor([[0, 1]]), torch.zeros(4, 1), 'prod')",
    "x = torch.zeros(2, 3)\nx.index_reduce_(-3, torch.tensor([[0, 2, 2]], dtype=torch.int32), torch.zeros(3, 4), 'sum')",
    "x = torch.zeros(1, 2)\nout(x.index_reduce(-2, torch.tensor([1], dtype=torch.int64).reshape(()), torch.zeros(2, 2), 'amin'))",
    # index_add's out-of-range errors: by its kernel
    *(f"x = torch.zeros({shape})\nx.index_add_({d}, torch.tensor([0, {bad}]{dt}), torch.ones({src}){alpha})"
      for shape, d, src in (("3", 0, "2"), ("3, 2", 0, "2, 2"), ("3, 2", 1, "3, 2"), ("2, 3, 2", 1, "2, 2, 2"), ("2, 3, 2", 2, "2, 3, 2"))
      for bad in (-1, 7) for dt, alpha in (("", ""), (", dtype=torch.int32", ""), ("", ", alpha=2"))),
    "x = torch.zeros(0, 4)\nout(x.index_add(0, torch.tensor([0, 0]), torch.ones(2, 4)))",
    "x = torch.zeros(0)\nout(x.index_add(0, torch.tensor([0, 0]), torch.ones(2)))",
    # index_reduce: bounds by include_self, kernels torch lacks, a 0-dim self
    *(f"x = torch.zeros({shape})\nout(x.index_reduce({d}, torch.tensor([0, {bad}]), torch.ones({src}), 'amax', include_self={inc}))"
      for shape, d, src in (("3", 0, "2"), ("3, 2", 1, "3, 2")) for bad in (-1, -5, 5) for inc in (True, False)),
    "x = torch.zeros(3).bool()\nout(x.index_reduce(0, torch.tensor([0]), torch.ones(1).bool(), 'amax'))",
    "x = torch.zeros(3).cfloat()\nout(x.index_reduce(0, torch.tensor([0]), torch.ones(1).cfloat(), 'amax'))",
    "x = torch.zeros(3).bool()\nout(x.index_reduce(0, torch.tensor([0]), torch.ones(1).bool(), 'amax', include_self=False))",
    "x = torch.zeros(2, 4).bool()\nout(x.index_reduce(-1, torch.tensor(3, dtype=torch.int32), torch.ones(2, 1).bool(), 'amax'))",
    "x = torch.zeros(3, 4).bool()\nout(x.index_reduce(0, torch.tensor([1, 0]), torch.ones(2, 4).bool(), 'mean'))",
    "x = torch.zeros(1, 1).cfloat()\nout(x.index_reduce(-2, torch.tensor([0, 0]), torch.ones(2, 1).cfloat(), 'amin'))",
    "x = torch.zeros(1, 3, 2).cfloat()\nout(x.index_reduce(-3, torch.tensor([], dtype=torch.int64), torch.zeros(0, 3, 2).cfloat(), 'amax'))",
    "x = torch.tensor(2.)\nout(x.index_reduce(0, torch.tensor([0]), torch.tensor(1.), 'amax', include_self=False))",
    "x = torch.zeros(2, 0, dtype=torch.int64)\nout(x.index_reduce(-1, torch.tensor([0]), torch.ones(2, 1, dtype=torch.int64), 'prod', include_self=False))",
    *(f"x = torch.zeros{sh}\nout(x.index_reduce({d}, torch.tensor({i}), torch.ones{ss}, 'mean'))"
      for sh, d, i, ss in (((4, 0), 1, [0], (4, 1)), ((0, 2), 0, [0], (1, 2)), ((2, 0, 3), 1, [1, 0], (2, 2, 3)),
                           ((0,), 0, [0, 0], (2,)))),
    "x = torch.arange(4.).requires_grad_()\nout(x.index_reduce(0, torch.tensor([1], dtype=torch.int32), torch.ones(1), 'amin', include_self=False))",
    "x = torch.zeros(0, 2).half()\nx.index_reduce_(-2, torch.tensor([0, 0, 0, 0]), torch.zeros(4, 2).half(), 'prod', include_self=False)",
    "x = torch.arange(8.).reshape(4, 2).requires_grad_()\nout(x.index_reduce(0, torch.tensor([1, 2, 0], dtype=torch.int32), torch.ones(3, 2), 'mean', include_self=False))",
    # index_copy: the dim, the index's rank, the ranks, the dtypes, the slices, the count
    "x = torch.tensor(1)\nout(x.index_copy(0, torch.tensor([0., 0.]), torch.tensor(1)))",
    "x = torch.zeros(1, 1)\nout(x.index_copy(2, torch.tensor([0.]), torch.ones(1, 1)))",
    "x = torch.tensor(1.)\nout(x.index_copy(0, torch.tensor([], dtype=torch.int64), torch.tensor(1, dtype=torch.uint8)))",
    "x = torch.zeros(3, 4, dtype=torch.int32)\nx.index_copy_(0, torch.tensor([], dtype=torch.int64), torch.zeros(4, 0, dtype=torch.int32))",
    "x = torch.zeros(0, 3, 2)\nx.index_copy_(-3, torch.tensor([], dtype=torch.int64), torch.zeros(3, 0, 2))",
    "x = torch.zeros(2, 3, 3)\nout(x.index_copy(1, torch.tensor([], dtype=torch.int64), torch.zeros(3, 0, 2)))",
    "x = torch.zeros(3, 2)\nout(x.index_copy(0, torch.tensor([0]), torch.tensor(1.)))",
    "x = torch.zeros(0, 4)\nout(x.index_copy(0, torch.tensor([0, 0]), torch.ones(2, 4)))",
    "x = torch.zeros(0)\nout(x.index_copy(0, torch.tensor([0, 0]), torch.ones(2)))",
    "x = torch.zeros(0, 3)\nout(x.index_copy(1, torch.tensor([1, -4]), torch.zeros(0, 2)))",
    # index_fill: a value tensor's rank, the index dtype, a complex value, the dim, the rank
    "x = torch.zeros(3)\nout(x.index_fill(0, torch.tensor([0.]), torch.tensor([3.])))",
    "x = torch.zeros(2, 2)\nout(x.index_fill(-2, torch.tensor([[0, 1]]), torch.tensor([3.])))",
    "x = torch.zeros(2, 2)\nout(x.index_fill(-2, torch.tensor([[0, 1]]), 3))",
    "x = torch.zeros(3, 5)\nx.index_fill_(0, torch.tensor([5]), torch.tensor([3.]))",
    "x = torch.zeros(2, dtype=torch.int32)\nout(x.index_fill(0, torch.tensor([0]), 1j))",
    "x = torch.zeros(2)\nout(x.index_fill(0, torch.tensor([], dtype=torch.int64), 0j))",
    "x = torch.zeros(2)\nout(x.index_fill(0, torch.tensor([1]), torch.tensor(1j)))",
    "x = torch.zeros(2).cfloat()\nout(x.index_fill(0, torch.tensor([1]), 1j))",
    "x = torch.zeros(0, 4)\nout(x.index_fill(0, torch.tensor([0, 0]), 1.))",
    "x = torch.zeros(2, 0, 4)\nout(x.index_fill_(2, torch.tensor([6]), True))",
    "x = torch.zeros(1, 0).cfloat()\nout(x.index_fill_(-2, torch.tensor([1]), 2.5))",
    # index_fill keeps the layout of a transposed input (a clone)
    "x = torch.arange(12, dtype=torch.int32).reshape(3, 4).t()\nout(x.index_fill(0, torch.tensor([3]), -1))",
    "x = torch.arange(12).reshape(4, 3).t()\nout(x.index_fill(0, torch.tensor([1, 1, 0]), True))",
    # index_select: the dim, the index's rank, a 0-dim input's count, the dtype
    "x = torch.zeros(3, 1)\nout(torch.index_select(x, 0, torch.tensor([[0., 1.]])))",
    "x = torch.tensor(1.)\nout(torch.index_select(x, 0, torch.tensor([0., 0.])))",
    "x = torch.zeros(3)\nout(torch.index_select(x, 2, torch.tensor([0.])))",
]]

MASKED = [OUT + s for s in [
    # nonzero / argwhere: torch answers the transpose of one row per dim
    *(f"x = {x}\nout(torch.{fn}(x))" for fn in ("nonzero", "argwhere") for x in (
        "torch.tensor(0)", "torch.tensor(3.)", "torch.zeros(1)", "torch.arange(3)", "torch.zeros(1, 1)",
        "torch.arange(4.).reshape(2, 2)", "torch.arange(6).reshape(3, 2).t()", "torch.arange(12).reshape(1, 4, 3)",
        "torch.zeros(0, 3)", "torch.ones(2, 0, 2)")),
    "x = torch.arange(6).reshape(2, 3)\nprint([tuple(t.stride()) for t in torch.nonzero(x, as_tuple=True)])",
    # masked_scatter: the shapes, the dtypes, then the mask's dtype
    "x = torch.arange(4, dtype=torch.int32).reshape(2, 2)\nx.masked_scatter_(torch.ones(2, 3), torch.zeros(1, dtype=torch.int32))",
    "x = torch.zeros(4).bool()\nout(x.masked_scatter(torch.tensor([1]), torch.zeros(9)))",
    "x = torch.zeros(3).half()\nout(x.masked_scatter(torch.ones(2, 3, dtype=torch.int64), torch.zeros(9, dtype=torch.float64)))",
    "x = torch.zeros(3)\nout(x.masked_scatter(torch.ones(2, 4).bool(), torch.zeros(9)))",
    "x = torch.zeros(3)\nout(x.masked_scatter(torch.ones(3, dtype=torch.uint8), torch.zeros(9)))",
    "x = torch.zeros(2, 3)\nout(x.masked_scatter_(torch.tensor(True), torch.arange(9.)))",
    # masked_fill: a value tensor's rank before the mask's dtype; in place the shape first
    "x = torch.zeros(3)\nout(x.masked_fill(torch.tensor([0.]), torch.tensor([3.])))",
    "x = torch.zeros(2, 4).cfloat()\nx.masked_fill_(torch.ones(2, 4, dtype=torch.uint8), torch.tensor([3.]))",
    "x = torch.zeros(4).long()\nx.masked_fill_(torch.zeros(2, 4).bool(), float('nan'))",
    "x = torch.zeros(4).long()\nx.masked_fill_(torch.zeros(2, 4).bool(), 2)",
    "x = torch.zeros(4)\nout(x.masked_fill(torch.zeros(2, 3).bool(), 2))",
    # take / put_ of an empty tensor; put keeps a transposed input's layout
    "x = torch.zeros(0, 2)\nout(torch.take(x, torch.tensor([[0, 0], [0, 0]])))",
    "x = torch.zeros(0, 2)\nout(torch.take(x, torch.tensor([], dtype=torch.int64)))",
    "x = torch.zeros(2, 0)\nx.put_(torch.tensor([0, 0, 0]), torch.arange(3.))",
    "x = torch.zeros(2, 0)\nx.put_(torch.tensor([0, 0, 0]), torch.arange(3.), accumulate=True)",
    "x = torch.arange(9.).reshape(3, 3).t()\nout(torch.put(x, torch.tensor(6), torch.tensor(0.)))",
    # slice_scatter of a 0-dim tensor
    "x = torch.tensor(1.)\nout(torch.slice_scatter(x, torch.tensor(2.), 0, 0, 1, 1))",
    "x = torch.tensor(1.)\nout(torch.slice_scatter(x, torch.tensor(2.), 1, 0, 2, 2))",
]]

INDEX_PUT = [s + "\nprint(r.tolist(), r.dtype, r.stride())" for s in [
    # the number of index tensors, the dtypes, each mask's dims, broadcasting, the dims covered
    "a = torch.tensor(1.)\nr = a.index_put((torch.tensor([True]),), torch.ones(3))",
    "a = torch.tensor(1.)\nr = a.index_put((torch.tensor([[2], [5]], dtype=torch.int16),), torch.ones(1, 3))",
    "a = torch.zeros(2, 2)\nr = a.index_put((torch.tensor([[0], [-1]], dtype=torch.uint8), torch.tensor([-2, -2])), torch.ones(2, 1))",
    "a = torch.zeros(4, 1)\nr = a.index_put((torch.tensor([[False], [True], [False], [False], [True]]), torch.tensor([[0], [0]])), torch.tensor(9.), accumulate=True)",
    "a = torch.zeros(2, 4)\nr = a.index_put((torch.ones(3, 4).bool(), torch.tensor([False, False, False, True, True])), torch.tensor(0.))",
    "a = torch.zeros(3, 3, 3)\nr = a.index_put((torch.ones(3, 3).bool(), torch.tensor([2, -2, -2]), torch.tensor([-2, -1, 0])), torch.ones(2, 1), accumulate=True)",
    "a = torch.zeros(4, 4)\nr = a.index_put_((torch.ones(4, 4).bool(), torch.tensor(-4)), torch.ones(2, 3))",
    "a = torch.zeros(2, 2, 4)\nr = a.index_put_((torch.tensor([-2, 0]), torch.ones(2, 4).bool(), torch.tensor([], dtype=torch.float32)), torch.tensor(0.), accumulate=True)",
    "a = torch.zeros(3, 1, 1, 2).bool()\nr = a.index_put((torch.tensor([], dtype=torch.int64), torch.tensor([[False]]), torch.tensor([[True, True]])), torch.tensor(True))",
    "a = torch.zeros(3, 4)\nr = a.index_put((torch.tensor([True, False]), torch.tensor([0.])), torch.tensor(1.))",
    # the value broadcasts to the indexed shape as it is (no leading 1s dropped), before the
    # dtypes; the index values come last
    "a = torch.zeros(4)\nr = a.index_put_((torch.tensor([2, -3, -1]),), torch.ones(1, 3))",
    "a = torch.zeros(2, 3, dtype=torch.int64)\nr = torch.index_put(a, (torch.tensor([0, 1, 0], dtype=torch.int32), torch.tensor(2)), torch.ones(1, 3, dtype=torch.int64))",
    "a = torch.zeros(3, dtype=torch.int32)\nr = torch.index_put(a, (torch.tensor([3, -1, -1]),), torch.tensor(0), accumulate=True)",
    "a = torch.zeros(2, 4, 2)\nr = a.index_put_((torch.tensor([-1, -2, 1]), torch.tensor([0, 3, -5]), torch.tensor([False, True])), torch.tensor(2.5), accumulate=True)",
    "a = torch.zeros(4)\nr = a.index_put((torch.tensor([2, -3]),), torch.ones(1, 1))",
    "a = torch.zeros(4)\nr = a.index_put((torch.tensor([2, 9]),), torch.ones(2))",
    # a 0-dim integer index is an advanced index here (not a select)
    "a = torch.zeros(3, dtype=torch.int64)\nr = a.index_put((torch.tensor(-4, dtype=torch.int32), torch.tensor([True, False, False])), torch.ones(3))",
    "a = torch.zeros(2, 3)\nr = a.index_put((torch.tensor(-2),), torch.ones(2, 3).short())",
    "a = torch.zeros(4, 3)\nr = a.index_put((torch.tensor(4, dtype=torch.int32),), torch.ones(2, 3).cfloat())",
    # out of place it writes into a clone, which keeps a transposed layout
    "a = torch.arange(12.).reshape(3, 4).t()\nr = a.index_put((torch.tensor([[-3], [0]], dtype=torch.int32), torch.tensor([True, True, False])), torch.full((2,), 9.))",
    "a = torch.arange(4.).reshape(1, 4).t()\nr = a.index_put((torch.tensor([1], dtype=torch.int32), torch.tensor([True])), torch.tensor(7.))",
    "a = torch.arange(4.).reshape(2, 2).t()\nr = a.index_put((torch.tensor([True, True]),), torch.ones(1), accumulate=True)",
]]

MORE_SETS = [s + "\nprint(a.tolist())" for s in [
    # a range is an advanced index too (one mask left is no masked_fill_)
    "a = torch.arange(27).reshape(3, 3, 3)\na[[True, True, False], range(1, 3), 2::1] = torch.tensor(9j)",
    "a = torch.arange(6).reshape(2, 3)\na[[True, False], range(1, 3)] = torch.tensor(9.)",
    # an empty uint8 array is a mask (refused by the masked_fill_ path)
    "a = torch.arange(3, dtype=torch.uint8)\na[np.array([], dtype=np.uint8)] = torch.tensor(9, dtype=torch.uint8)",
    "a = torch.zeros(0, dtype=torch.uint8)\na[np.array([], dtype=np.uint8)] = torch.tensor(9, dtype=torch.uint8)",
    "a = torch.zeros(0)\na[np.array([], dtype=np.uint8)] = torch.ones(1, 1)",
    "a = torch.arange(3.)\na[np.array([], dtype=np.uint8)] = torch.ones(1, 1)",
    "a = torch.arange(3.)\na[np.array([], dtype=np.int64)] = torch.tensor(9.)",
    # masked_scatter_'s expand error names the mask's type as torch's C++ does
    "a = torch.zeros(0, dtype=torch.int32)\na.masked_scatter_(torch.zeros(2, 0), torch.zeros(0, dtype=torch.int32))",
    "a = torch.zeros(0, dtype=torch.int32)\na.masked_scatter_(torch.zeros(2, 0).bool(), torch.zeros(0, dtype=torch.int32))",
]]

OUTS = [OUT + s + "\nprint(r is o)\nout(o)" for s in [
    # out= takes the result's own dtype only, each op with its own words
    "x = torch.arange(4.)\no = torch.zeros(2, dtype=torch.float64)\nr = torch.take(x, torch.tensor([0, 1]), out=o)",
    "x = torch.arange(4.)\no = torch.zeros(2, dtype=torch.int64)\nr = torch.take(x, torch.tensor([0, 9]), out=o)",
    "x = torch.arange(4.)\no = torch.zeros(2, dtype=torch.uint8)\nr = torch.index_select(x, 0, torch.tensor([0, 9]), out=o)",
    "x = torch.arange(4.)\no = torch.zeros(2, dtype=torch.float64)\nr = torch.masked_select(x, x > 1, out=o)",
    "x = torch.arange(4.)\no = torch.zeros(2, dtype=torch.bool)\nr = torch.masked_select(x, x > 1, out=o)",
    "x = torch.arange(6).reshape(2, 3)\no = torch.zeros(2, 1).half()\nr = torch.gather(x, 1, torch.tensor([[0], [1]]), out=o)",
    "x = torch.arange(6.).reshape(2, 3)\no = torch.zeros(2, dtype=torch.int64)\nr = torch.gather(x, 1, torch.tensor([0, 1]), out=o)",
    "x = torch.arange(6.).reshape(2, 3)\no = torch.zeros(2, 1).double()\nr = torch.gather(x, 5, torch.tensor([[0], [1]]), out=o)",
    "x = torch.arange(6.).reshape(2, 3)\no = torch.zeros(2, 1).cfloat()\nr = torch.take_along_dim(x, torch.tensor([[0], [1]]), 1, out=o)",
    "x = torch.arange(6.).reshape(2, 3)\no = torch.zeros(2, 1)\nr = torch.take_along_dim(x, torch.tensor([[0], [4]]), 1, out=o)",
    # nonzero's out: Long only; resized, it takes torch's transposed layout
    "x = torch.arange(4.)\no = torch.zeros(2)\nr = torch.nonzero(x, out=o)",
    "x = torch.arange(4)\no = torch.zeros(0, dtype=torch.int64)\nr = torch.nonzero(x, out=o)",
    "x = torch.arange(6).reshape(2, 3)\no = torch.zeros(0, dtype=torch.int64)\nr = torch.nonzero(x, out=o)",
    "x = torch.arange(6).reshape(2, 3)\no = torch.zeros(5, 2, dtype=torch.int64)\nr = torch.nonzero(x, out=o)",
]]

SNIPPETS = GETS + SETS + GATHER_SCATTER + INDEX_FUNCTIONS + MASKED + INDEX_PUT + MORE_SETS + OUTS

BUGS = [
    ("an empty result of index_fill / index_add_ of a transposed or empty input: torch keeps "
     "strides of the clone that ember lays out row-major",
     OUT + "x = torch.zeros(0, 3).t()\nout(x.index_fill(-2, torch.tensor([], dtype=torch.int64), True))"),
    ("index_put_ with a 0-dim bool or uint8 index: torch's expansion of a 0-dim mask gives no "
     "index tensor at all (and a uint8 one is refused by the masked_fill_ path); ember "
     "indexes a new dim of size 1 or 0",
     "a = torch.arange(4)\nr = torch.index_put(a, (torch.tensor(3, dtype=torch.uint8),), torch.tensor(9))\nprint(r)"),
    ("out-of-place index_put of a one-element view with a stride: torch's clone keeps the "
     "stride (a single element is dense), ember's copy has stride 1",
     "a = torch.arange(4.)[::2][:1]\nr = a.index_put((torch.tensor([0]),), torch.tensor(9.))\nprint(r.stride())"),
    ("two Ellipses: torch lets each span the dims left over (the index after them lands past "
     "the last dim); ember lets the second span none",
     "a = torch.arange(12).reshape(3, 4)\nprint(a[..., ..., torch.tensor([0])])"),
    ("put_ with duplicate indices and a transposed source: torch writes in memory order (the "
     "result is unspecified for duplicates); ember in logical order",
     OUT + "x = torch.zeros(4).half()\nout(x.put_(torch.tensor([[0, 2], [2, 0]]), torch.arange(4).half().reshape(2, 2).t()))"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS,
                                                                            at_least=60)
