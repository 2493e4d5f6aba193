"""Save/load fuzzing against real torch, both directions: deterministic random objects
(tensors of every dtype, 0-dim and empty, views of one storage, Parameters, nested
containers, module and optimizer state_dicts, Size/dtype/device) built alike in both
libraries, written by one (zip format or the legacy format) and read by the other, compared
by a printed description (values, dtype, shape, strides, offset, requires_grad, storage size,
type names) and by storage sharing after load. Then snippets (each library saving and
loading its own files) for error texts and printing. Skipped without torch."""
import collections
import io
import random

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
          "float8_e4m3fn", "float8_e5m2"]
# torch's legacy loader cannot read its own files for the dtypes that have no storage class
LEGACY_UNREADABLE = {"uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2"}


def _tensor(lib, rng, shape=None, dtypes=DTYPES):
    name = rng.choice(dtypes)
    if shape is None:
        shape = tuple(rng.choice([0, 1, 2, 3]) for _ in range(rng.randint(0, 3)))
    values = (np.arange(int(np.prod(shape))) * 7 % 11 - 4).reshape(shape)
    if name == "bool":
        values = values % 2 == 0
    elif name.startswith("uint"):
        values = np.abs(values)
    elif name.startswith("complex"):
        values = values + 1j * values[::-1] if shape else values + 1j
    elif name.startswith(("float", "bfloat")):
        values = values * 0.5
    if name.startswith("float8"):
        return lib.tensor(np.asarray(values, np.float32).tolist()).to(getattr(lib, name))
    return lib.tensor(np.asarray(values).tolist(), dtype=getattr(lib, name))


def _build(lib, seed, dtypes=DTYPES):
    """The object that recipe `seed` makes, with `lib` (torch or ember)."""
    rng = random.Random(seed)
    kind = seed % 7
    if kind == 0:
        return [_tensor(lib, rng, dtypes=dtypes) for _ in range(3)]
    if kind == 1:
        base = _tensor(lib, rng, (4, 6), dtypes)
        return {"base": base, "t": base.t(), "step": base[1:, ::2], "exp": base[0].expand(3, 6),
                "row": base[2], "diag": base.diagonal(), "narrow": base.narrow(1, 1, 3),
                "cl": _tensor(lib, rng, (2, 3, 2, 2), dtypes).contiguous(
                    memory_format=lib.channels_last)}
    if kind == 2:
        return {"p": lib.nn.Parameter(lib.tensor([1.0, 2.0])),
                "frozen": lib.nn.Parameter(lib.tensor([3.0]), requires_grad=False),
                "leaf": lib.tensor([0.5], requires_grad=True)}
    if kind == 3:
        return {"a": [_tensor(lib, rng, dtypes=dtypes), (1, 2.5, "s", None, b"by", True)],
                "od": collections.OrderedDict(x=_tensor(lib, rng, dtypes=dtypes)),
                "meta": [lib.Size([2, 3]), lib.Size([]), lib.float16, lib.device("cpu"),
                         lib.strided], "num": [1 + 2j, 2 ** 70, -3, float("inf")]}
    lib.manual_seed(seed)
    if kind == 4:
        model = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.BatchNorm1d(2))
        model(lib.ones(4, 3))
        return model.state_dict()
    model = lib.nn.Linear(3, 2)
    name = ["SGD", "Adam", "RMSprop"][kind - 5 if kind < 7 else 0]
    opt = getattr(lib.optim, name)(model.parameters(), lr=0.1,
                                   **({"momentum": 0.9} if name == "SGD" else {}))
    model(lib.ones(1, 3)).sum().backward()
    opt.step()
    return opt.state_dict()


def _describe(obj):
    if isinstance(obj, (torch.Tensor, ember.Tensor)):
        t = obj.detach()
        if t.is_meta:
            values = "meta"
        elif str(t.dtype).startswith(("torch.bfloat16", "torch.float8")):
            values = t.float().tolist()
        else:
            values = t.tolist()
        # (torch's legacy loader gives each meta tensor its own storage, sized to fit it)
        nbytes = None if t.is_meta else t.untyped_storage().nbytes()
        return (f"{type(obj).__name__}({values}, {t.dtype}, {tuple(t.shape)}, {t.stride()}, "
                f"{t.storage_offset()}, {obj.requires_grad}, {nbytes})")
    if isinstance(obj, dict):
        return (type(obj).__name__ + "{" +
                ", ".join(f"{k!r}: {_describe(v)}" for k, v in obj.items()) + "}")
    if isinstance(obj, (list, tuple)) and not isinstance(obj, (torch.Size, ember.Size)):
        return type(obj).__name__ + "[" + ", ".join(_describe(v) for v in obj) + "]"
    return f"{type(obj).__name__}:{obj!r}"


def _tensors(obj):
    if isinstance(obj, dict):
        obj = list(obj.values())
    if isinstance(obj, (list, tuple)) and not isinstance(obj, (torch.Size, ember.Size)):
        return [t for item in obj for t in _tensors(item)]
    return [obj] if isinstance(obj, (torch.Tensor, ember.Tensor)) else []


def _sharing(obj):
    """Which loaded tensors share memory, as groups of their positions (empty ones apart)."""
    groups = collections.defaultdict(list)
    for i, t in enumerate(_tensors(obj)):
        storage = t.untyped_storage()
        groups[storage.data_ptr() if storage.nbytes() else -i].append(i)
    return sorted(g for g in groups.values())


def _round_trip(seed, src, dst, weights_only, legacy=False, map_location=None):
    dtypes = [d for d in DTYPES if d not in LEGACY_UNREADABLE] if legacy else DTYPES
    buf = io.BytesIO()
    src.save(_build(src, seed, dtypes), buf, _use_new_zipfile_serialization=not legacy)
    kwargs = {"weights_only": weights_only, "map_location": map_location}
    got = dst.load(io.BytesIO(buf.getvalue()), **kwargs)
    own = src.load(io.BytesIO(buf.getvalue()), **kwargs)
    norm = {"torch": "lib", "ember": "lib"}
    text = _describe(got)
    for name, to in norm.items():
        text = text.replace(name + ".", to + ".")
    want = _describe(own)
    for name, to in norm.items():
        want = want.replace(name + ".", to + ".")
    assert text == want
    if map_location != "meta":      # (torch's legacy loader does not share meta storages)
        assert _sharing(got) == _sharing(own)
    return got


@pytest.mark.parametrize("legacy", [False, True], ids=["zip", "legacy"])
@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("seed", range(14))
def test_torch_file_loads_in_ember(seed, weights_only, legacy):
    _round_trip(seed, torch, ember, weights_only, legacy)


@pytest.mark.parametrize("legacy", [False, True], ids=["zip", "legacy"])
@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("seed", range(14))
def test_ember_file_loads_in_torch(seed, weights_only, legacy):
    _round_trip(seed, ember, torch, weights_only, legacy)


@pytest.mark.parametrize("seed", [1, 3])
def test_views_still_share_after_a_legacy_load(seed):
    for src, dst in ((torch, ember), (ember, torch)):
        got = _round_trip(seed, src, dst, True, legacy=True)
        if seed == 1:
            got["base"][1, 2] = 0
            assert got["step"][0, 1].item() == 0 and got["t"][2, 1].item() == 0


@pytest.mark.parametrize("map_location", ["meta", "cpu", {"cpu": "cpu"}])
@pytest.mark.parametrize("seed", [1, 3])
def test_legacy_map_location(seed, map_location):
    _round_trip(seed, torch, ember, True, legacy=True, map_location=map_location)
    _round_trip(seed, ember, torch, True, legacy=True, map_location=map_location)


SETUP = ("import io, collections\n"
         "def rt(obj, **kw):\n"
         "    b = io.BytesIO(); torch.save(obj, b, **kw); return io.BytesIO(b.getvalue())\n")

SNIPPETS = [SETUP + s for s in [
    # the legacy format, each library reading its own files
    "x = torch.arange(6.).reshape(2, 3); d = torch.load(rt({'x': x, 't': x.t()}, _use_new_zipfile_serialization=False)); print(d, d['t'].stride())",
    "d = torch.load(rt([torch.tensor(True), torch.zeros(0, 2), torch.tensor(2.5, dtype=torch.float64)], _use_new_zipfile_serialization=False)); print(d)",
    "p = torch.nn.Parameter(torch.ones(2)); d = torch.load(rt(p, _use_new_zipfile_serialization=False), weights_only=False); print(d, type(d).__name__)",
    "d = torch.load(rt(torch.arange(4.), _use_new_zipfile_serialization=False), map_location='meta'); print(d.device, d.shape)",
    "d = torch.load(rt(torch.ones(2, requires_grad=True), _use_new_zipfile_serialization=False)); print(d, d.is_leaf)",
    "m = torch.nn.Linear(2, 1); torch.nn.init.constant_(m.weight, 0.5); torch.nn.init.constant_(m.bias, -1.0); d = torch.load(rt(m.state_dict(), _use_new_zipfile_serialization=False)); print(d)",
    "b = rt(torch.ones(2), _use_new_zipfile_serialization=False)\ntry:\n    torch.load(b, mmap=True)\nexcept RuntimeError as e: print(str(e)[:60])",
    "import fractions\nb = rt({'f': fractions.Fraction(1, 3)}, _use_new_zipfile_serialization=False)\ntry:\n    torch.load(b)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[-3][:100])\nb.seek(0)\nwith torch.serialization.safe_globals([fractions.Fraction]):\n    print(torch.load(b))",
    "print(torch.load(rt(torch.tensor([[0., 1.], [2., 0.]]).to_sparse(), _use_new_zipfile_serialization=False)))",
    "p = torch.nn.Parameter(torch.ones(2)); d = torch.load(rt([p, p, p.data[1:]], _use_new_zipfile_serialization=False)); d[2][0] = 5; print(d[0] is d[1], type(d[0]).__name__, d[0])",
    "print(torch.load(rt(torch.ones(2), _use_new_zipfile_serialization=False), map_location={'cpu': 'meta'}).device)",
    "print(torch.load(rt(torch.ones(2, device='meta'), _use_new_zipfile_serialization=False)))",
    "m = torch.nn.Linear(2, 1).eval(); m2 = torch.load(rt(m, _use_new_zipfile_serialization=False), weights_only=False); print(m2, m2.training)",
    "print(torch.load(rt({'a': torch.ones(2)}, _use_new_zipfile_serialization=False, pickle_protocol=1), weights_only=False))",
    "print(torch.load(rt(torch.arange(6.).bfloat16()[1::2], _use_new_zipfile_serialization=False)))",
    # objects torch.save refuses
    "try:\n    torch.save(torch.channels_last, io.BytesIO())\nexcept TypeError as e: print(e)",
    "try:\n    torch.save([torch.contiguous_format], io.BytesIO())\nexcept TypeError as e: print(e)",
    "try:\n    torch.save({'f': torch.finfo(torch.float32)}, io.BytesIO())\nexcept TypeError as e: print(e)",
    "try:\n    torch.save(torch.iinfo(torch.int8), io.BytesIO())\nexcept TypeError as e: print(e)",
    # printing what comes back
    "x = torch.arange(6.).reshape(2, 3).t().requires_grad_(); print(torch.load(rt({'x': x, 's': torch.Size([1, 2]), 'd': torch.float16, 'dev': torch.device('cpu')})))",
    "print(torch.load(rt(torch.nn.Parameter(torch.ones(2)))))",
    "print(torch.load(rt([torch.float8_e4m3fn, torch.uint16, torch.sparse_coo, torch.strided])))",
    "print(torch.load(rt(torch.arange(6, dtype=torch.uint16).reshape(2, 3)[:, 1:])))",
    "print(torch.load(rt(torch.tensor([1.5, -2.0]).to(torch.float8_e5m2))))",
    "print(torch.load(rt(torch.tensor([1 + 2j, 3j], dtype=torch.complex64))))",
    "x = torch.ones(2, requires_grad=True); y = x * 2; d = torch.load(rt(y)); print(d, d.grad_fn, d.is_leaf)",
    "x = torch.zeros(3); d = torch.load(rt([x, x[1:], x])); d[0][1] = 5; print(d, d[0] is d[2])",
    "x = torch.arange(4.).expand(3, 4); d = torch.load(rt(x)); print(d.stride(), d.untyped_storage().nbytes())",
    "x = torch.arange(24.).reshape(1, 2, 3, 4).contiguous(memory_format=torch.channels_last); d = torch.load(rt(x)); print(d.stride(), d.is_contiguous(memory_format=torch.channels_last))",
    # protocols and file objects
    "print(torch.load(rt({'a': torch.ones(2)}, pickle_protocol=4), weights_only=False))",
    "print(torch.load(rt({'a': torch.ones(2)}, pickle_protocol=1), weights_only=False))",
    "b = rt(torch.ones(1)); b.seek(0); data = b.read(); print(torch.load(io.BytesIO(data), map_location=lambda s, loc: s))",
    # weights_only refusals
    "NT = collections.namedtuple('NT', 'a b')\ntry:\n    torch.load(rt(NT(1, 2)))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[-3][:90])",
    "try:\n    torch.load(rt({'r': range(3)}))\nexcept Exception as e: print(type(e).__name__, 'range' in str(e))",
    "try:\n    torch.load(rt(slice(1, 2)))\nexcept Exception as e: print(type(e).__name__, 'slice' in str(e))",
    "print(torch.load(rt(slice(1, 2)), weights_only=False), torch.load(rt(range(3)), weights_only=False))",
    # truncated and corrupt files
    "data = rt(torch.arange(8.)).getvalue()\nfor cut in (0, 10, 100, len(data) - 1):\n    try:\n        torch.load(io.BytesIO(data[:cut]))\n    except Exception as e: print(cut > 0, type(e).__name__, str(e)[:70])",
    "data = rt({'a': torch.arange(8.)}, _use_new_zipfile_serialization=False).getvalue()\nfor cut in (len(data) - 8, len(data) - 40):\n    try:\n        torch.load(io.BytesIO(data[:cut]))\n    except RuntimeError as e: print(e)",
]]

BUGS = [
    ("a damaged zip64 end locator: miniz refuses the archive (not a ZIP archive), Python's "
     "zipfile ignores the locator and reads the file",
     SETUP + "data = bytearray(rt(torch.arange(8.)).getvalue()); data[-30] ^= 255\ntry:\n"
             "    print(torch.load(io.BytesIO(bytes(data))))\nexcept Exception as e: "
             "print(type(e).__name__, str(e)[:60])"),
    ("torch's weights-only unpickler lets SETITEM(S) fill only dict, OrderedDict and Counter; "
     "ember's fills an allowlisted dict subclass",
     SETUP + "d = collections.defaultdict(list); d['a'].append(1); b = rt(d)\n"
             "with torch.serialization.safe_globals([collections.defaultdict, list]):\n    try:\n"
             "        print(torch.load(b))\n    except Exception as e: print(type(e).__name__)"),
    ("a legacy file cut inside its pickles: torch's unpickler lets an IndexError through, "
     "ember says the checkpoint ends early",
     SETUP + "data = rt({'a': torch.arange(8.)}, _use_new_zipfile_serialization=False).getvalue()"
             "\ntry:\n    torch.load(io.BytesIO(data[:300]))\n"
             "except Exception as e: print(type(e).__name__)"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS,
                                                                             at_least=25)
