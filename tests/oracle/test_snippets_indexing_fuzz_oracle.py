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

SNIPPETS = GETS + SETS + GATHER_SCATTER

BUGS = []

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS,
                                                                            at_least=60)
