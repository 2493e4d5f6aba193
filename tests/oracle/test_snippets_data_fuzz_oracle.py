"""torch.utils.data under random use, minimized from a fuzzer's programs: run under real torch
and under ember (`import ember as torch`), each snippet must print the same (values, dtypes,
shapes, warnings and exceptions).

Families: default_collate / default_convert of mixed and odd samples (what torch.tensor makes of
them, and its errors), DataLoader arguments that are accepted but refused by the iterator
(timeout without workers, prefetch_factor=0), warnings (pin_memory without an accelerator, an
IterableDataset's wrong length), worker seeding and sharding, samplers and random_split.
`tests/oracle/differential.py` runs each snippet (with `torch` and `np` bound); `W(f)` calls `f`
and prints the warnings it raised and its exception's first line, if any (`E(f)`: the
exception only, where torch's C++ side warns on its own).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

HEAD = ("import collections, random, warnings\nD = torch.utils.data\n"
        "P = collections.namedtuple('P', ['x', 'y'])\n"
        "def W(f):\n"
        "    with warnings.catch_warnings(record=True) as ws:\n"
        "        warnings.simplefilter('always')\n"
        "        try:\n"
        "            r = f()\n"
        "        except Exception as e:\n"
        "            r = '!! %s: %s' % (type(e).__name__, str(e).split(chr(10))[0])\n"
        "    for w in ws: print('W', w.category.__name__, str(w.message)[:200])\n"
        "    return r\n"
        "def E(f):\n"
        "    try:\n"
        "        return f()\n"
        "    except Exception as e:\n"
        "        return '!! %s: %s' % (type(e).__name__, str(e).split(chr(10))[0])\n"
        "def S(b):\n"
        "    if isinstance(b, torch.Tensor): return (str(b.dtype), tuple(b.shape), b.tolist())\n"
        "    if isinstance(b, dict): return (type(b).__name__, {k: S(v) for k, v in b.items()})\n"
        "    if isinstance(b, (list, tuple)): return (type(b).__name__, [S(v) for v in b])\n"
        "    return b\n")

STREAM = ("class It(D.IterableDataset):\n"
          "    def __init__(self, n, ln=None): self.n, self.ln = n, ln\n"
          "    def __iter__(self):\n"
          "        w = D.get_worker_info()\n"
          "        if w is None: return iter(range(self.n))\n"
          "        return iter(range(w.id, self.n, w.num_workers))\n"
          "    def __len__(self):\n"
          "        if self.ln is None: raise TypeError('no len')\n"
          "        return self.ln\n")


def snippets(*bodies):
    return [HEAD + b for b in bodies]


# default_collate and default_convert hand odd samples to torch.tensor: its inference of every
# leaf comes before its copying errors, and it names types as CPython does
COLLATE = snippets(*[f"print(E(lambda: D.default_collate({b})))" for b in [
    "[np.ones(2), collections.OrderedDict(b=6, a=2.0)]",
    "[np.ones(2), collections.defaultdict(int)]",
    "[2**64, -1.25]", "[-1.25, 2**70]", "[2**63, 1]", "[2**64, 1]", "[1, 2**63]",
    "[False, np.ones(2, dtype=np.uint8)]", "[7, np.ones(0, dtype=np.uint8)]", "[1.5, np.ones(2)]",
    "[torch.sparse_coo_tensor([[0]], [1.], (2,))] * 2", "[torch.ones(2, 2).to_sparse_csr()] * 2",
    "[float('nan'), 'bc']", "[False, (np.float32(0),)]", "[np.int64(3), []]",
    "[np.int32(3), ()]", "[2, (None, 1)]", "[np.int32(0), [{'k0': [2, 5, None]}, 1]]",
    "[1, [2]]", "[1.5, [2]]", "[True, [2]]", "[2.0, b'xy']", "[1, b'xy']",
    "[np.ones(0, dtype=bool), (np.array(['a', 'b']), 0.5)]",
    "[np.ones(2), P(torch.arange(6.)[::2], np.bytes_(b'z'))]",
    "[np.bytes_(b'a'), np.bytes_(b'b')]", "[np.str_('a'), np.str_('b')]",
    "[np.datetime64('2020'), np.datetime64('2021')]",
    "[np.array([np.datetime64('2020')])] * 2", "[np.array(['a'])] * 2",
    "[np.array([1, 2], dtype=object)] * 2", "[np.ones(2, dtype='>f4')] * 2",
    "[np.ones(4)[::-1], np.ones(4)]", "[np.uint64(2**63)] * 2", "[np.ones(2, dtype=np.uint16)] * 2",
    "[torch.ones(2, dtype=torch.int8), torch.ones(2, dtype=torch.uint8)]",
    "[torch.ones(()), torch.ones(1)]", "[torch.ones(0), torch.ones(0)]",
    "[{'a': 1}, {'a': 1, 'b': 2}]", "[{'a': 1, 'b': 2}, {'a': 1}]", "[P(1, 2), P(1, [2])]",
    "[{'k0': collections.OrderedDict(b=None), 'k1': -1.25}, {'k0': collections.OrderedDict(b=None), 'k2': 1.0}]",
    "[{'a': 1, 'b': 2.5}, {'a': 3, 'b': 0.5, 'c': 'extra'}]",
    "[{'k0': float('nan'), 'k1': []}, {'k0': None}]", "[1, None]", "[1.5, object()]",
    "[0.5, collections.OrderedDict(b=0.5)]", "[1, collections.defaultdict(int)]",
    "[P(1, 2), {'x': 1}]", "[(1, 2), P(3, 4)]", "[[1, 2], 'ab']", "['ab', [1, 2]]",
    "[b'ab', [1, 2]]", "[{'a': 1}, 'ab']", "[1j, 2j]", "[1, 2j]", "[np.bool_(True), 1]",
    "[1, np.bool_(True)]", "[1.5, True]", "[None]", "[[None, 1]]", "range(3)", "'ab'",
    "np.arange(3)", "{'a': 1}",
]])


CONVERT = snippets(*[f"print(E(lambda: D.default_convert({d})))" for d in [
    "np.bytes_(b'z')", "np.str_('q')", "np.datetime64('2020-01-01')", "np.array(['a'])",
    "[np.str_('a'), np.bytes_(b'b')]", "np.ones(2, dtype='>f4')", "np.ones(4)[::-1]",
    "np.ones(2, dtype=[('a', 'f4')])", "collections.OrderedDict(b=np.bytes_(b'z'), a=5)",
    "P(collections.OrderedDict(b=np.bytes_(b'z')), [1])", "collections.defaultdict(list, a=np.ones(1))",
    "{'a': (np.ones(1), 'x')}", "P(1, np.ones(1))",
]])

# what torch.tensor itself says of the same data (the collate functions call it)
TENSOR = snippets(*[f"print(E(lambda: torch.tensor({d})))" for d in [
    "collections.OrderedDict()", "collections.Counter()", "[1, collections.defaultdict(int)]",
    "np.bytes_(b'z')", "[np.bytes_(b'z')]", "[1, np.str_('a')]", "[np.str_('a')]",
    "[np.array(['a'])]", "[1, np.array(['a'])]", "np.datetime64('2020-01-01')",
    "[2**70, 1.5]", "[2**64, 1j]", "[2**64, True]", "[1.5, [2, None]]", "[b'ab', 1]",
    "[np.bool_(2), torch.ones(0, dtype=torch.int32)]", "[np.float32(1), torch.ones(2)]",
    "[torch.ones(0, dtype=torch.int32), np.bool_(2)]", "[np.int64(1), torch.ones(2)]",
    "[True, np.ones(2, dtype=bool)]", "[1, np.ones(1)]",
]] + [f"print(E(lambda: torch.tensor({d}, dtype=torch.{t})))" for d, t in [
    ("[2**70]", "bool"), ("[2**70]", "float32"), ("[-2**70]", "complex64"), ("2**70", "float64"),
    ("[2**63]", "float32"), ("[-2**63 - 1, 1.5]", "float64"), ("[2**64, 1.5]", "int32"),
    ("[1.5, [2]]", "int32"), ("[1, (1.5,)]", "float32"), ("[1.5, [2, None]]", "float32"),
    ("[2.0, b'xy']", "float64"),
    ("[1.5, None]", "float32"), ("[1, {}]", "int64"), ("[[None]]", "bool"), ("[1, set()]", "complex64"),
]])

LOADER = snippets(
    # accepted by DataLoader, refused by each epoch's iterator (after the base seed's draw)
    "l = D.DataLoader(range(3), timeout=2.5)\nprint(l.timeout, len(l))\nprint(W(lambda: list(l)))\nprint(W(lambda: list(l)))",
    "torch.manual_seed(0)\nl = D.DataLoader(range(3), timeout=5, shuffle=True)\nprint(W(lambda: iter(l)))\nprint(torch.randint(0, 100, (3,)))",
    "l = D.DataLoader(range(2), timeout=1, pin_memory=True)\nprint(W(lambda: next(iter(l))))",
    "l = D.DataLoader(range(3), num_workers=1, prefetch_factor=0)\nprint(l.prefetch_factor, len(l))\nprint(W(lambda: list(l)))",
    STREAM + "l = D.DataLoader(It(7, 7), num_workers=1, prefetch_factor=0, batch_size=3)\nprint(W(lambda: len(l)), W(lambda: list(l)))",
    "print(W(lambda: D.DataLoader(range(3), prefetch_factor=0)))",
    "print(W(lambda: D.DataLoader(range(3), num_workers=1, prefetch_factor=-1)))",
    "print(W(lambda: D.DataLoader(range(3), timeout=-1)))",
    # pin_memory without an accelerator: a warning, plain batches
    "l = D.DataLoader(D.StackDataset(a=range(2), b=torch.arange(2)), pin_memory=True, batch_size=2)\nb = W(lambda: next(iter(l)))\nprint(b, b['b'].is_pinned())",
    "l = D.DataLoader(range(4), pin_memory=True, num_workers=1, batch_size=2)\nprint(W(lambda: list(l)))",
    # an IterableDataset's length: len(loader), then a warning once more items come
    STREAM + "l = D.DataLoader(It(5, 3), batch_size=None)\nprint(W(lambda: len(l)), l._IterableDataset_len_called)\nprint(W(lambda: list(l)))",
    STREAM + "l = D.DataLoader(It(5, 3), batch_size=2)\nprint(W(lambda: len(l)), l._IterableDataset_len_called)\nprint(W(lambda: [b.tolist() for b in l]))",
    STREAM + "l = D.DataLoader(It(5, 1), batch_size=2, drop_last=True)\nprint(W(lambda: len(l)))\nprint(W(lambda: [b.tolist() for b in l]))",
    STREAM + "l = D.DataLoader(It(5, 5), batch_size=2)\nprint(W(lambda: [b.tolist() for b in l]), l._IterableDataset_len_called)",
    STREAM + "l = D.DataLoader(It(4, 2), batch_size=None, num_workers=2)\nprint(W(lambda: len(l)))\nprint(W(lambda: sorted(b.item() for b in l)))",
    STREAM + "l = D.DataLoader(It(4), batch_size=None)\nprint(W(lambda: len(l)), l._IterableDataset_len_called)",
    # iterating twice, worker sharding, persistent workers
    STREAM + "l = D.DataLoader(It(7), batch_size=2, num_workers=2)\nfor _ in range(2): print([b.tolist() for b in l])",
    STREAM + "l = D.DataLoader(It(7), batch_size=3, num_workers=2, drop_last=True, persistent_workers=True)\nfor _ in range(2): print([b.tolist() for b in l])",
    STREAM + "l = D.DataLoader(D.ChainDataset([It(3), It(2)]), batch_size=2, num_workers=2)\nprint([b.tolist() for b in l])",
    "l = D.DataLoader(range(7), batch_size=2, num_workers=2, persistent_workers=True, prefetch_factor=1)\nit = iter(l)\nprint(it is iter(l), [b.tolist() for b in it], [b.tolist() for b in l])",
    "g = torch.Generator().manual_seed(4)\nl = D.DataLoader(range(6), batch_size=4, shuffle=True, generator=g, num_workers=1)\nfor _ in range(2): print([b.tolist() for b in l])",
    # the worker's seeds: base seed (from the loader's generator or the global one) + id
    "class M(D.Dataset):\n    def __len__(self): return 4\n    def __getitem__(self, i):\n        w = D.get_worker_info()\n        return (i, w.id, w.seed, torch.initial_seed(), torch.rand(1).item(), random.random(), float(np.random.rand()))\ntorch.manual_seed(7)\nl = D.DataLoader(M(), batch_size=None, num_workers=2)\nfor b in l: print(b)\nprint(torch.rand(1).item())",
    "class M(D.Dataset):\n    def __len__(self): return 2\n    def __getitem__(self, i):\n        w = D.get_worker_info()\n        return (w.seed, torch.rand(1).item())\nl = D.DataLoader(M(), num_workers=1, generator=torch.Generator().manual_seed(3), persistent_workers=True)\nfor _ in range(2): print([[x.tolist() for x in b] for b in l])",
    # worker errors keep their type; the first line names the worker
    "class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i):\n        if i == 1: raise KeyError('k')\n        return i\nprint(W(lambda: list(D.DataLoader(M(), num_workers=1))))",
    "class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i):\n        if i == 2: raise ValueError('bad\\nline')\n        return i\nprint(W(lambda: list(D.DataLoader(M(), num_workers=2, batch_size=2))))",
    "def init(i):\n    raise RuntimeError('init %d' % i)\nprint(W(lambda: list(D.DataLoader(range(2), num_workers=1, worker_init_fn=init))))",
    # a worker stacks into the first sample's dtype (stack's out=): the error's last line
    *["class M(D.Dataset):\n    def __len__(self): return 2\n"
      f"    def __getitem__(self, i): return [{pair}][i]\n"
      "try:\n    b = next(iter(D.DataLoader(M(), batch_size=2, num_workers=1)))\n"
      "    print(b.dtype, b.stride(), b.requires_grad, b.tolist())\n"
      "except Exception as e:\n"
      "    print(type(e).__name__, [x for x in str(e).split(chr(10)) if x and x[0] != ' '][-1])"
      for pair in ["torch.tensor([1]), torch.tensor([2.5])", "torch.tensor([1.5]), torch.tensor([2])",
                   "torch.ones(2, requires_grad=True), torch.ones(2)",
                   "torch.ones(2), torch.ones(2, requires_grad=True)",
                   "torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.uint8)",
                   "torch.ones(2, dtype=torch.float64), torch.ones(2)", "torch.ones(2), torch.ones(3)",
                   "torch.ones(2, 3).t(), torch.ones(3, 2)"]],
    # batch samplers of odd indices on the gathered TensorDataset path
    "print(W(lambda: list(D.DataLoader(D.TensorDataset(torch.arange(3)), batch_sampler=[[0, 5]]))))",
    "print(W(lambda: list(D.DataLoader(D.TensorDataset(torch.arange(3)), batch_sampler=[[-1, 0]]))))",
    "print(W(lambda: list(D.DataLoader(D.TensorDataset(torch.arange(3)), batch_sampler=[[0.5]]))))",
    "print(W(lambda: list(D.DataLoader(D.TensorDataset(torch.arange(3)), batch_sampler=[[]]))))",
    "print(W(lambda: list(D.DataLoader(D.TensorDataset(torch.arange(3)), batch_sampler=[[True, False]]))))",
    "print(W(lambda: list(D.DataLoader(D.TensorDataset(torch.arange(3)), batch_sampler=[np.array([0, 1])]))))",
    "print(W(lambda: list(D.DataLoader(D.TensorDataset(torch.arange(3)), batch_sampler=[torch.tensor([0, 1])]))))",
    "print(W(lambda: list(D.DataLoader(D.Subset(D.TensorDataset(torch.arange(3)), [2, 1]), batch_sampler=[[0, 5]]))))",
    "print(W(lambda: [b[0].stride() for b in D.DataLoader(D.TensorDataset(torch.ones(4, 3).t()), batch_size=2)]))",
    "x = torch.arange(4.)\nb = next(iter(D.DataLoader(D.TensorDataset(x), batch_size=2)))[0]\nb[0] = 100\nprint(x)",
    "x = torch.arange(4.)\nb = next(iter(D.DataLoader(D.TensorDataset(x), batch_size=None)))[0]\nb += 100\nprint(x)",
    "x = np.arange(4.)\nb = next(iter(D.DataLoader([x], batch_size=None)))\nb += 100\nprint(x, type(b).__name__)",
    "l = D.DataLoader(range(5), batch_size=2)\nit = iter(l)\nprint(len(it), next(it), len(it))",
    "l = D.DataLoader(range(3))\nprint(W(lambda: setattr(l, 'drop_last', True)), W(lambda: setattr(l, 'persistent_workers', True)), W(lambda: setattr(l, 'num_workers', 2)), l.num_workers)",
    "print(W(lambda: D.DataLoader(range(3), sampler=D.SequentialSampler(range(3)), batch_sampler=D.BatchSampler(range(3), 1, False))))",
    "print(W(lambda: list(D.DataLoader(range(3), batch_size=2.5))))",
    "print(W(lambda: D.DataLoader(range(3), batch_size='2')))",
    "print(W(lambda: list(D.DataLoader(5))))",
    "print(W(lambda: list(D.DataLoader(range(3), sampler=[5], batch_size=None))))",
    "print(W(lambda: list(D.DataLoader(range(3), shuffle=True, generator=3))))",
    "print(W(lambda: D.random_split(range(4), [2, 2], generator=3)))",
)

# a grid of datasets and loader arguments (what the fuzzer drew most): each epoch's batches
_DATASETS = ["range(5)", "D.TensorDataset(torch.arange(5.), torch.arange(5) * 2)",
             "[{'x': i, 'y': float(i), 's': str(i)} for i in range(5)]",
             "D.Subset(range(10, 20), [4, 3, 2, 1, 0])", "D.ConcatDataset([range(3), range(100, 102)])",
             "D.StackDataset(a=range(5), b=torch.arange(5))",
             "[np.full(2, i, dtype=np.float32) for i in range(5)]"]
_ARGS = ["batch_size=2", "batch_size=None", "batch_size=3, drop_last=True",
         "batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(1)",
         "batch_size=2, collate_fn=D.default_convert", "sampler=[4, 0, 2], batch_size=2",
         "batch_sampler=[[0, 1], [4]]", "batch_size=2, num_workers=1, worker_init_fn=lambda i: None"]
GRID = snippets(*[f"l = W(lambda: D.DataLoader({d}, {a}))\n"
                  "print(len(l), S(list(l)))\nprint(S(list(l)))"
                  for i, d in enumerate(_DATASETS) for j, a in enumerate(_ARGS)
                  if "num_workers" not in a or (i + j) % 3 == 0])

SAMPLERS = snippets(
    "g = torch.Generator().manual_seed(2)\ns = D.RandomSampler(range(4), replacement=True, num_samples=40, generator=g)\nprint(list(s), len(s))",
    "torch.manual_seed(5)\ns = D.RandomSampler(range(3), num_samples=7)\nprint(list(s), list(s))",
    "print(W(lambda: D.RandomSampler(range(3), replacement=None)))",
    "print(W(lambda: len(D.RandomSampler(range(3), num_samples=True))))",
    "print(W(lambda: list(D.RandomSampler([], replacement=True, num_samples=2))))",
    "g = torch.Generator().manual_seed(1)\ns = D.SubsetRandomSampler(np.array([1, 2, 9]), generator=g)\nprint(list(s), list(s))",
    "print(W(lambda: list(D.WeightedRandomSampler([0., 0.], 2))))",
    "print(W(lambda: list(D.WeightedRandomSampler([-1., 2.], 2))))",
    "print(W(lambda: list(D.WeightedRandomSampler([1., float('inf')], 2))))",
    "print(W(lambda: list(D.WeightedRandomSampler([[1., 2.]], 2))))",
    "print(W(lambda: list(D.WeightedRandomSampler([], 2))))",
    "print(W(lambda: D.WeightedRandomSampler([1., 2.], np.int64(2))))",
    "print(W(lambda: D.WeightedRandomSampler([1., 2.], True)))",
    "print(W(lambda: D.BatchSampler(range(3), np.int64(2), False)))",
    "print(W(lambda: D.BatchSampler(range(3), 2, 1)))",
    "g = torch.Generator().manual_seed(3)\nb = D.BatchSampler(D.RandomSampler(range(5), generator=g), 2, True)\nprint(list(b), len(b), list(b))",
    "print(W(lambda: list(D.Sampler())))",
)

SPLITS = snippets(
    *[f"g = torch.Generator().manual_seed({s})\nparts = W(lambda: D.random_split({ds}, {lens}, generator=g))\nprint(parts if isinstance(parts, str) else [p.indices for p in parts])"
      for s, ds, lens in [
          (0, "range(7)", "[0.3, 0.3, 0.4]"), (1, "range(11)", "[1/3, 1/3, 1/3]"),
          (2, "range(3)", "[0.1, 0.1, 0.8]"), (3, "torch.arange(5)", "(0.5, 0.5)"),
          (4, "range(4)", "[0.5, 0.5, 0.0]"), (5, "range(6)", "torch.tensor([2, 4])"),
          (6, "range(6)", "np.array([3, 3])"), (7, "range(5)", "[0.7, 0.2]"),
          (8, "range(5)", "[]"), (9, "range(4)", "[2.0, 2.0]"), (0, "range(0)", "[0, 0]"),
          (1, "range(0)", "[0.5, 0.5]"), (2, "list('abcde')", "[0.2, 0.8]"),
          (3, "range(10)", "[0.25, 0.25, 0.25, 0.25]"),
      ]],
    "print(W(lambda: D.random_split(range(4), 2)))",
)

DATASETS = snippets(
    "print(W(lambda: D.TensorDataset(torch.tensor(1))))",
    "print(W(lambda: D.TensorDataset(torch.arange(2), torch.zeros(3, 2))))",
    "t = D.TensorDataset(torch.arange(3), torch.zeros(3, 2))\nprint(W(lambda: t[torch.tensor(1)]), W(lambda: t[np.int64(0)]), W(lambda: t[True]))",
    "c = D.ConcatDataset([range(2), range(3)])\nprint(W(lambda: c[torch.tensor(1)]), W(lambda: c[np.int64(3)]), W(lambda: c[1.0]), W(lambda: c[slice(0, 2)]))",
    "print(W(lambda: D.ConcatDataset(range(3))), W(lambda: D.ConcatDataset([[1], 5])))",
    "s = D.Subset(list('abcde'), torch.tensor([1, 2, 0]))\nprint(len(s), s[0], W(lambda: s[[0, 1]]), W(lambda: s.__getitems__([0, 2])))",
    "s = D.Subset(list('abcde'), np.array([0, 2, 1]))\nprint(W(lambda: s[slice(0, 2)]), W(lambda: s[3]))",
    "print(W(lambda: D.StackDataset([1], 2)), W(lambda: len(D.StackDataset(a=[]))))",
    "s = D.StackDataset(torch.arange(3), torch.zeros(3, 2))\nprint(s[1], s.__getitems__([0, 2]))",
    STREAM + "print(W(lambda: list(D.ChainDataset([It(1), range(2)]))), W(lambda: len(D.ChainDataset([It(2, 2), It(3, 3)]))))",
    STREAM + "print(W(lambda: type(It(2) + range(3)).__name__), W(lambda: list(D.ChainDataset([]))))",
    "print(W(lambda: D.Dataset() + D.Dataset()), W(lambda: len(D.TensorDataset(torch.arange(2)) + [1, 2, 3])))",
)

# worker info seen in a worker, the fetch paths of __getitems__, the draws each sampler
# and split makes from the global generator, fraction splits, errors of iterable datasets
_INFO = ("class M(D.Dataset):\n    def __len__(self): return 2\n"
         "    def __getitem__(self, i):\n        w = D.get_worker_info()\n        return {}\n"
         "torch.manual_seed(1)\n"
         "print(list(D.DataLoader(M(), num_workers=1, batch_size=None, collate_fn=lambda x: x)))")
MORE = snippets(*[_INFO.format(e) for e in [
    "repr(w).replace(str(w.seed), 'SEED').split('dataset=')[0]",
    "sorted(k for k in dir(w) if not k.startswith('__'))",
    'str(type(w).__name__)',
    "W(lambda: setattr(w, 'id', 3))",
    '(w.id, w.num_workers)',
    'w.seed - torch.initial_seed()',
    'D.get_worker_info() is w',
    'type(w.dataset).__name__',
    "getattr(w, 'rng', 'none')",
    "getattr(w, 'worker_method', 'none')",
]], *[
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return i\n    def __getitems__(self, idx): return [1]\nprint(W(lambda: list(D.DataLoader(M(), batch_size=2))))',
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return i\n    def __getitems__(self, idx): return [1]\nprint(W(lambda: D.StackDataset(M(), M()).__getitems__([0, 1])))',
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return i\n    def __getitems__(self, idx): return [i * 10 for i in idx]\nprint(W(lambda: D.StackDataset(a=M(), b=range(3)).__getitems__([0, 2])))',
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return i\n    def __getitems__(self, idx): return [i * 10 for i in idx]\nprint(W(lambda: list(D.DataLoader(D.Subset(M(), [2, 1]), batch_size=2))))',
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return i\n    def __getitems__(self, idx): return [i * 10 for i in idx]\nprint(W(lambda: list(D.DataLoader(D.ConcatDataset([M(), M()]), batch_size=4))))',
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return i\n    def __getitems__(self, idx): return [i * 10 for i in idx]\nprint(W(lambda: list(D.DataLoader(M(), batch_size=None))))',
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): return i\n    __getitems__ = None\nprint(W(lambda: list(D.DataLoader(M(), batch_size=2))))',
    'class S(D.Subset):\n    def __getitem__(self, i): return 0\nprint(W(lambda: S(range(3), [0])))',
    'class S(D.Subset):\n    def __getitem__(self, i): return 0\n    def __getitems__(self, idx): return [0] * len(idx)\nprint(W(lambda: list(D.DataLoader(S(range(3), [0, 1]), batch_size=2))))',
    'class T(D.TensorDataset):\n    def __getitem__(self, i): return (self.tensors[0][i] * 10,)\nprint(W(lambda: list(D.DataLoader(T(torch.arange(3)), batch_size=2))))',
    'print(W(lambda: D.Subset(range(3), [0, 1]).__getitems__([1, 0])))',
    'print(W(lambda: D.Subset(D.TensorDataset(torch.arange(5)), [4, 3]).__getitems__([1, 0])))',
    'print(W(lambda: D.ConcatDataset([range(2), range(3)]).__getitems__([1, 0])))',
    "print(W(lambda: hasattr(D.ConcatDataset([range(2)]), '__getitems__'), hasattr(D.Subset(range(2), [0]), '__getitems__'), hasattr(D.TensorDataset(torch.ones(1)), '__getitems__'), hasattr(D.StackDataset([1]), '__getitems__')))",
    'print(W(lambda: D.ConcatDataset([range(2), range(3)]).cummulative_sizes))',
    'print(W(lambda: D.ConcatDataset.cumsum([range(2), [1, 2, 3]])))',
    'print(W(lambda: D.ConcatDataset([range(2), range(3)])[torch.tensor(-1)]))',
    'print(W(lambda: D.ConcatDataset([range(2), range(3)])[np.int64(-5)]))',
    'print(W(lambda: D.ConcatDataset([[], []])[0]))',
    'print(W(lambda: D.ConcatDataset([[], []])[-1]))',
    'print(W(lambda: len(D.ConcatDataset([[], []]))))',
    'g = torch.Generator().manual_seed(0)\ns = D.RandomSampler(range(3), generator=g)\nit = iter(s)\nprint(next(it), list(s), list(it))',
    'g = torch.Generator().manual_seed(0)\ns = D.RandomSampler(range(40), replacement=True, num_samples=70, generator=g)\nit = iter(s)\nprint(next(it), list(s)[:5], len(list(it)))',
    'torch.manual_seed(0)\ns = D.RandomSampler(range(3))\nit = iter(s)\nprint(torch.rand(1).item(), list(it), torch.rand(1).item())',
    'torch.manual_seed(0)\nl = D.DataLoader(range(6), shuffle=True, batch_size=2)\nit = iter(l)\nprint(torch.rand(1).item(), [b.tolist() for b in it], torch.rand(1).item())',
    'torch.manual_seed(0)\nl = D.DataLoader(range(6), batch_size=2)\nit = iter(l)\nprint(torch.rand(1).item())',
    'torch.manual_seed(0)\nl = D.DataLoader(range(6), sampler=D.RandomSampler(range(6), replacement=True), batch_size=4)\nprint([b.tolist() for b in l], torch.rand(1).item())',
    'torch.manual_seed(0)\nl = D.DataLoader(range(6), sampler=D.SubsetRandomSampler([1, 3, 5]), batch_size=2)\nprint([b.tolist() for b in l], torch.rand(1).item())',
    'torch.manual_seed(0)\nl = D.DataLoader(range(6), sampler=D.WeightedRandomSampler([1.] * 6, 5), batch_size=2)\nprint([b.tolist() for b in l], torch.rand(1).item())',
    'torch.manual_seed(0)\nparts = D.random_split(range(5), [2, 3])\nprint([p.indices for p in parts], torch.rand(1).item())',
    'torch.manual_seed(0)\nb = D.BatchSampler(D.RandomSampler(range(7)), 3, False)\nit = iter(b)\nprint(next(it), torch.rand(1).item(), list(it))',
    'torch.manual_seed(0)\nb = D.BatchSampler(D.RandomSampler(range(7)), 3, False)\nprint(list(b), list(b), torch.rand(1).item())',
    'g = torch.Generator().manual_seed(0)\nb = D.BatchSampler(D.RandomSampler(range(7), generator=g), 3, True)\nit = iter(b)\nprint(next(it), g.initial_seed(), list(it), list(b))',
    's = D.SequentialSampler(range(3))\nb = D.BatchSampler(s, 2, False)\nit = iter(b)\nprint(next(it), list(b), list(it))',
    'print(W(lambda: D.BatchSampler(D.SequentialSampler(range(3)), 2, False).sampler.data_source))',
    'print(W(lambda: list(D.BatchSampler(iter(range(5)), 2, False))))',
    'print(W(lambda: len(D.BatchSampler(iter(range(5)), 2, False))))',
    'print(W(lambda: list(D.SubsetRandomSampler(torch.tensor([5, 6]), generator=torch.Generator().manual_seed(0)))))',
    'print(W(lambda: [type(x).__name__ for x in D.SubsetRandomSampler(torch.tensor([5, 6]))]))',
    'print(W(lambda: [type(x).__name__ for x in D.SubsetRandomSampler(np.array([5, 6]))]))',
    'print(W(lambda: [type(x).__name__ for x in D.RandomSampler(range(2))]))',
    'print(W(lambda: [type(x).__name__ for x in D.WeightedRandomSampler([1., 1.], 2)]))',
    'print(W(lambda: [type(x).__name__ for x in D.Subset(range(3), torch.tensor([0, 1]))]))',
    'print(W(lambda: D.Subset(range(3), torch.tensor([0, 1])).__getitems__([0])))',
    'print(W(lambda: [p.indices for p in D.random_split(range(4), [0.5, 0.5], generator=torch.Generator().manual_seed(0))]))',
    'print(W(lambda: [type(p.indices).__name__ for p in D.random_split(range(4), [2, 2])]))',
    'print(W(lambda: [type(p.indices[0]).__name__ for p in D.random_split(range(4), [2, 2])]))',
    'print(W(lambda: D.random_split(range(4), [2, 2], generator=torch.Generator().manual_seed(0))[0].dataset))',
    'print(W(lambda: D.random_split(range(4), [0.5, 0.5000001])))',
    'print(W(lambda: D.random_split(range(4), [0.5, 0.4999999])))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [0.5, 0.49999999999])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [1, 0.0, 3])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [True, 3])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [1.0])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [4.0])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [np.float64(0.5), 0.5])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [torch.tensor(0.5), 0.5])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(4), [-1, 5])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(10), [0.1] * 10)]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(7), [0.1] * 10)]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(7), [0.3, 0.3, 0.3, 0.1])]))',
    'print(W(lambda: [len(p) for p in D.random_split(range(3), [0.9, 0.05, 0.05])]))',
    'print(W(lambda: [len(p) for p in D.random_split([1, 2, 3], [1.5, -0.5])]))',
    'print(W(lambda: D.DataLoader(range(3), batch_size=1).__len__()))',
    'class M(D.Dataset):\n    def __getitem__(self, i): return i\nprint(W(lambda: len(D.DataLoader(M()))), W(lambda: list(D.DataLoader(M()))))',
    'class M(D.Dataset):\n    def __getitem__(self, i):\n        if i > 2: raise IndexError\n        return i\nprint(W(lambda: list(D.DataLoader(M(), sampler=[0, 1]))))',
    'class M(D.Dataset):\n    def __len__(self): return 2\n    def __getitem__(self, i): return torch.ones(2, requires_grad=True) * i\nb = next(iter(D.DataLoader(M(), batch_size=2)))\nprint(b.requires_grad, b.grad_fn.name())',
    'class M(D.Dataset):\n    def __len__(self): return 2\n    def __getitem__(self, i): return torch.ones(2, requires_grad=True)\nprint(W(lambda: next(iter(D.DataLoader(M(), batch_size=None, num_workers=1))).requires_grad))',
    'class M(D.Dataset):\n    def __len__(self): return 2\n    def __getitem__(self, i): return torch.ones(2).t()\nb = next(iter(D.DataLoader(M(), batch_size=2, num_workers=1)))\nprint(b.is_shared(), b.stride(), b.dtype)',
    'b = next(iter(D.DataLoader(D.TensorDataset(torch.ones(4, 3)), batch_size=2, num_workers=1)))\nprint(b[0].is_shared(), b[0].stride())',
    'b = next(iter(D.DataLoader(D.TensorDataset(torch.ones(4, 3)), batch_size=2)))\nprint(b[0].is_shared(), b[0].stride())',
    'b = next(iter(D.DataLoader(range(4), batch_size=None, num_workers=1)))\nprint(type(b).__name__, b)',
    "b = next(iter(D.DataLoader(['a', 'b'], batch_size=2, num_workers=1)))\nprint(type(b).__name__, b)",
    'b = next(iter(D.DataLoader([np.ones(2)], batch_size=None, num_workers=1)))\nprint(type(b).__name__, b.is_shared(), b.dtype)',
    'b = next(iter(D.DataLoader([np.ones(2)], batch_size=None)))\nprint(type(b).__name__, b.is_shared(), b.dtype)',
    "b = next(iter(D.DataLoader([{'a': torch.ones(2)}], batch_size=1, num_workers=1)))\nprint(type(b).__name__, b['a'].is_shared())",
    'class M(D.Dataset):\n    def __len__(self): return 2\n    def __getitem__(self, i): return object()\nprint(W(lambda: [type(x).__name__ for x in D.DataLoader(M(), batch_size=None, num_workers=1)]))',
    'print(W(lambda: list(D.DataLoader(range(3), num_workers=1, timeout=5))))',
    'print(W(lambda: list(D.DataLoader(range(3), num_workers=1, in_order=False, batch_size=2))))',
    'print(W(lambda: list(D.DataLoader(range(3), in_order=False, batch_size=2))))',
    "print(W(lambda: list(D.DataLoader(range(3), pin_memory_device='cuda', pin_memory=True))))",
    "print(W(lambda: list(D.DataLoader(range(3), pin_memory_device='cuda'))))",
    "class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i):\n        if i == 1: raise KeyError('k')\n        return i\ntry:\n    list(D.DataLoader(M(), num_workers=1))\nexcept KeyError as e:\n    print(str(e).split(chr(10))[:2], str(e).split(chr(10))[-2:])",
    "class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i):\n        if i == 1: raise ValueError('v')\n        return i\ntry:\n    list(D.DataLoader(M(), num_workers=1))\nexcept ValueError as e:\n    print(str(e).split(chr(10))[:2], str(e).split(chr(10))[-2:], e.args[0][:30])",
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): raise StopIteration\nprint(W(lambda: list(D.DataLoader(M(), num_workers=1))))',
    'class M(D.Dataset):\n    def __len__(self): return 3\n    def __getitem__(self, i): raise StopIteration\nprint(W(lambda: list(D.DataLoader(M()))))',
    "class It(D.IterableDataset):\n    def __iter__(self): raise ValueError('it')\nprint(W(lambda: list(D.DataLoader(It(), num_workers=1))))",
    "class It(D.IterableDataset):\n    def __iter__(self): raise ValueError('it')\nprint(W(lambda: list(D.DataLoader(It()))))",
    'class It(D.IterableDataset):\n    def __iter__(self): return 5\nprint(W(lambda: list(D.DataLoader(It()))))',
    'class It(D.IterableDataset):\n    def __iter__(self): return iter([1, 2, 3])\nl = D.DataLoader(It(), batch_size=2, num_workers=2)\nprint(W(lambda: [b.tolist() for b in l]))',
    'class It(D.IterableDataset):\n    def __iter__(self): return iter([1, 2, 3])\nl = D.DataLoader(It(), batch_size=2, num_workers=2, drop_last=True)\nprint(W(lambda: [b.tolist() for b in l]))',
    'class It(D.IterableDataset):\n    def __iter__(self): return iter([1, 2, 3])\n    def __len__(self): return 3\nl = D.DataLoader(It(), batch_size=2, num_workers=2)\nprint(W(lambda: len(l)), W(lambda: [b.tolist() for b in l]))',
    'class It(D.IterableDataset):\n    def __iter__(self): return iter([1, 2, 3])\n    def __len__(self): return 3\nl = D.DataLoader(It(), batch_size=None, num_workers=2)\nprint(W(lambda: len(l)), W(lambda: [b.tolist() for b in l]))',
    'class It(D.IterableDataset):\n    def __iter__(self): return iter([1, 2, 3])\nprint(W(lambda: list(D.DataLoader(It(), batch_size=2, collate_fn=lambda b: b))))',
    'class It(D.IterableDataset):\n    def __iter__(self): return iter([])\nprint(W(lambda: list(D.DataLoader(It(), batch_size=2))))',
    "class It(D.IterableDataset):\n    def __iter__(self):\n        yield 1\n        raise RuntimeError('mid')\nprint(W(lambda: list(D.DataLoader(It(), batch_size=None))))",
    "class It(D.IterableDataset):\n    def __iter__(self):\n        yield 1\n        raise RuntimeError('mid')\nprint(W(lambda: list(D.DataLoader(It(), batch_size=None, num_workers=1))))",
])


# more collate and convert of container types, DistributedSampler, batch_size=None paths
MORE2 = snippets(
    's = D.DistributedSampler(range(10), num_replicas=3, rank=1, shuffle=False)\nprint(list(s), len(s), s.total_size, s.num_samples)',
    's = D.DistributedSampler(range(10), num_replicas=3, rank=2, shuffle=True, seed=4)\nprint(list(s))\ns.set_epoch(1)\nprint(list(s))',
    's = D.DistributedSampler(range(10), num_replicas=3, rank=0, drop_last=True)\nprint(list(s), len(s))',
    'print(W(lambda: D.DistributedSampler(range(10), num_replicas=3, rank=3)))',
    'print(W(lambda: D.DistributedSampler(range(10), num_replicas=3, rank=-1)))',
    'print(W(lambda: D.DistributedSampler(range(10))))',
    'print(W(lambda: D.DistributedSampler(range(10), num_replicas=2)))',
    'print(W(lambda: list(D.DistributedSampler(range(2), num_replicas=4, rank=3, shuffle=False))))',
    'l = D.DataLoader(range(10), batch_size=2, sampler=D.DistributedSampler(range(10), num_replicas=2, rank=1, seed=1))\nprint([b.tolist() for b in l])',
    'print(W(lambda: D.DataLoader(range(3), sampler=D.RandomSampler(range(3)), shuffle=False).sampler.__class__.__name__))',
    'print(W(lambda: D.DataLoader(range(3), sampler=None, shuffle=None).sampler.__class__.__name__))',
    'print(W(lambda: D.DataLoader(range(3), batch_sampler=None, batch_size=None).batch_sampler))',
    'print(W(lambda: D.DataLoader(range(3), batch_size=None, shuffle=True, generator=torch.Generator().manual_seed(0)).sampler.__class__.__name__))',
    'g = torch.Generator().manual_seed(0)\nprint(W(lambda: list(D.DataLoader(range(5), batch_size=None, shuffle=True, generator=g))))',
    'print(W(lambda: list(D.DataLoader(range(5), batch_size=None, sampler=[3, 1]))))',
    'print(W(lambda: list(D.DataLoader(range(5), batch_size=None, sampler=[[3, 1]]))))',
    'print(W(lambda: list(D.DataLoader([[1, 2], [3, 4]], batch_size=None))))',
    'print(W(lambda: list(D.DataLoader([(1, 2), (3, 4)], batch_size=None))))',
    "print(W(lambda: list(D.DataLoader([{'a': np.ones(1)}], batch_size=None))))",
    "print(W(lambda: list(D.DataLoader([P(np.ones(1), 's')], batch_size=None))))",
    "print(W(lambda: list(D.DataLoader([P(np.ones(1), 's')] * 2, batch_size=2))))",
    'print(W(lambda: D.default_convert(range(3))))',
    'print(W(lambda: D.default_convert((np.ones(1), np.ones(1)))))',
    'print(W(lambda: type(D.default_convert((1, 2))).__name__))',
    'print(W(lambda: type(D.default_collate([(1, 2)])).__name__))',
    'class L(list): pass\nprint(W(lambda: type(D.default_convert(L([np.ones(1)]))).__name__))',
    'class T(tuple): pass\nprint(W(lambda: type(D.default_convert(T([np.ones(1)]))).__name__))',
    'class T(tuple): pass\nprint(W(lambda: type(D.default_collate([T([1]), T([2])])).__name__))',
    'class Dd(dict): pass\nprint(W(lambda: type(D.default_convert(Dd(a=np.ones(1)))).__name__))',
    "class Dd(dict):\n    def __init__(self, x): super().__init__(x)\nprint(W(lambda: type(D.default_collate([Dd({'a': 1})])).__name__))",
    "import types\nprint(W(lambda: D.default_collate([types.MappingProxyType({'a': 1})] * 2)))",
    "import types\nprint(W(lambda: D.default_convert(types.MappingProxyType({'a': np.ones(1)}))))",
    'print(W(lambda: D.default_collate([collections.deque([1, 2])] * 2)))',
    'print(W(lambda: D.default_convert(collections.deque([np.ones(1)]))))',
    'print(W(lambda: D.default_collate([collections.Counter(a=1)] * 2)))',
    "print(W(lambda: D.default_collate([collections.ChainMap({'a': 1})] * 2)))",
    'print(W(lambda: D.default_collate([collections.UserList([1, 2])] * 2)))',
    'print(W(lambda: D.default_collate([collections.UserDict(a=1)] * 2)))',
    'print(W(lambda: D.default_collate([np.float64(1.5)] * 2).dtype))',
    'print(W(lambda: D.default_collate([np.float16(1.5)] * 2).dtype))',
    'print(W(lambda: D.default_collate([np.longlong(1)] * 2).dtype))',
    'print(W(lambda: D.default_collate([np.uint32(1)] * 2).dtype))',
    'print(W(lambda: D.default_collate([np.array(1.5, dtype=np.float32)] * 2)))',
    'print(W(lambda: D.default_collate([np.array([[1]], dtype=np.int8)] * 2)))',
    'print(W(lambda: D.default_collate([[np.array(1), np.array(2)]] * 2)))',
    'print(W(lambda: D.default_collate([torch.tensor(1, dtype=torch.float16)] * 2)))',
    'print(W(lambda: D.default_collate([torch.zeros(2, 0)] * 3).shape))',
    'print(W(lambda: D.default_collate([torch.ones(2)[0]] * 3)))',
    'print(W(lambda: D.default_collate([torch.ones(3)[::2]] * 2).stride()))',
    'print(W(lambda: D.default_collate([torch.ones(1, 2).expand(3, 2)] * 2).stride()))',
    'x = torch.ones(2)\nb = D.default_collate([x, x])\nb[0, 0] = 5\nprint(x)',
    'x = torch.ones(2)\nb = D.default_convert(x)\nprint(b is x)',
    'x = np.ones(2)\nb = D.default_collate([x])\nb[0, 0] = 5\nprint(x)',
    'print(W(lambda: D.default_collate([torch.ones(2, dtype=torch.complex64)] * 2)))',
    'print(W(lambda: D.default_collate([[torch.ones(1)], [torch.ones(1), torch.ones(1)]])))',
    'print(W(lambda: D.default_collate([(torch.ones(1),), (torch.ones(1), 2)])))',
    'print(W(lambda: D.default_collate([P(torch.ones(1), 1), P(torch.ones(2), 2)])))',
    "print(W(lambda: D.default_collate([{'a': torch.ones(1)}, {'a': torch.ones(2)}])))",
    "print(W(lambda: D.default_collate([{'a': torch.ones(1)}, {'b': torch.ones(1)}])))",
    'print(W(lambda: D.default_collate([{1: 2}, {1: 3}])))',
    "print(W(lambda: D.default_collate([{(1, 2): 'x'}, {(1, 2): 'y'}])))",
    'print(W(lambda: D.default_collate([[], []])))',
    'print(W(lambda: D.default_collate([(), ()])))',
    'print(W(lambda: D.default_collate([{}, {}])))',
    'print(W(lambda: D.default_collate([P([], ()), P([], ())])))',
    'print(W(lambda: D.default_collate([np.array([]), np.array([])])))',
    'print(W(lambda: D.default_collate([np.empty((0, 3), dtype=np.int16)] * 2)))',
)

SNIPPETS = [*COLLATE, *CONVERT, *TENSOR, *LOADER, *GRID, *SAMPLERS, *SPLITS, *DATASETS, *MORE, *MORE2]

# Where ember differs from torch today: (reason, minimal reproduction), strict xfails.
BUGS = [
    ("ember's TensorDataset has a __getitems__ (one gather for a batch); torch's has none",
     HEAD + "print(W(lambda: D.TensorDataset(torch.arange(5)).__getitems__([1, 0])))"),
    ("bytes given with a dtype are a sequence of ints to torch",
     HEAD + "print(E(lambda: torch.tensor([b'a'], dtype=torch.float32)))"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=200)
