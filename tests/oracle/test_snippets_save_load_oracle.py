"""ember.save / ember.load round trips, run under real torch and under ember (`import ember as
torch`): each snippet saves and loads with the same library (into an io.BytesIO or a temporary
path) and prints what comes back; the output, including an exception's type and first line,
must be identical. test_serialization_oracle.py covers files crossing between the libraries.

Every dtype, 0-dim and empty tensors, Python objects and containers, views sharing storage,
requires_grad and Parameters, state_dicts and load_state_dict, optimizer state and resuming,
weights_only refusals and safe globals, map_location forms, mmap, corrupt files, endianness.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

# Every snippet starts with this: `rt(obj, **load_kwargs)` saves obj into a buffer and loads it.
_PRELUDE = ('import io, os, tempfile, collections\n'
            'def rt(o, **k):\n'
            '    b = io.BytesIO(); torch.save(o, b); b.seek(0); return torch.load(b, **k)\n')


def s(body):
    return _PRELUDE + body


SNIPPETS = []
BUGS = []
A = SNIPPETS.append


def B(reason, body):
    BUGS.append((reason, s(body)))


STOR = "map_location is given ember's _LoadedStorage, not torch's UntypedStorage"

# dtypes
for dt in ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64',
           'bool', 'complex64', 'complex128']:
    A(s(f"t = torch.arange(6).reshape(2, 3).to(torch.{dt}); u = rt(t); print(u, u.dtype, u.shape, u.stride(), torch.equal(t, u))"))
    A(s(f"u = rt(torch.tensor(3, dtype=torch.{dt})); print(u, u.dim(), u.dtype)"))
    A(s(f"u = rt(torch.empty(0, 2, dtype=torch.{dt})); print(u, u.shape, u.dtype, u.storage_offset())"))
# scalars / containers
for o in ['1', '2.5', "'abc'", 'None', 'True', '[1, 2, 3]', '(1, (2, 3))', "{'a': 1, 'b': [2, 3]}",
          '{1: 2, (3, 4): 5}', "b'xyz'", '1 + 2j', 'set()', '{1, 2}', 'frozenset({3})', 'range(3)',
          'slice(1, 2)', 'float("inf")', '[]', '()', '{}', "collections.OrderedDict(a=1, b=2)",
          "[torch.ones(2), {'x': (torch.zeros(1), 3)}]", "bytearray(b'ab')", '10**30', '-0.0',
          "torch.float32", "torch.int64", "torch.Size([2, 3])", "torch.device('cpu')",
          "torch.strided"]:
    A(s(f"u = rt({o}); print(type(u).__name__, u)"))
    A(s(f"u = rt({o}, weights_only=False); print(type(u).__name__, u)"))
A(s("u = rt(collections.OrderedDict(a=torch.ones(1))); print(type(u).__name__, list(u))"))
A(s("d = collections.defaultdict(list); d['a'].append(1)\ntry:\n    print(rt(d))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("d = collections.defaultdict(list); d['a'].append(1); u = rt(d, weights_only=False); print(type(u).__name__, dict(u), u.default_factory)"))
A(s("import fractions\ntry:\n    print(rt(fractions.Fraction(1, 3)))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("class Foo:\n    pass\ntry:\n    rt(Foo())\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("import datetime\ntry:\n    print(rt(datetime.date(2020, 1, 2)))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("import datetime\nprint(rt(datetime.date(2020, 1, 2), weights_only=False))"))
A(s("print(rt(np.float64(1.5), weights_only=False), type(rt(np.float64(1.5), weights_only=False)).__name__)"))
A(s("u = rt(np.arange(3), weights_only=False); print(type(u).__name__, u)"))
A(s("try:\n    print(rt(np.arange(3)))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    print(rt(np.float64(2.0)))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
# views and sharing
A(s("t = torch.arange(10.); a, b = rt([t[2:5], t[4:]]); a[2] = 100; print(a, b, a.data_ptr() + 8 == b.data_ptr())"))
A(s("t = torch.arange(12.).reshape(3, 4); u = rt(t.t()); print(u, u.stride(), u.is_contiguous(), u.storage_offset())"))
A(s("t = torch.arange(12.).reshape(3, 4); u = rt(t[:, 1]); print(u, u.stride(), u.storage_offset(), len(u.untyped_storage()))"))
A(s("t = torch.arange(12.).reshape(3, 4); u = rt(t[::2, ::3]); print(u, u.stride(), u.storage_offset(), u.untyped_storage().nbytes())"))
A(s("t = torch.arange(12.); x, y = rt((t, t)); print(x is y, x.data_ptr() == y.data_ptr())"))
A(s("t = torch.arange(12.); d = rt({'a': t, 'b': t.view(3, 4)}); d['a'][0] = -1; print(d['b'][0], d['b'].stride())"))
A(s("t = torch.arange(4.); u = rt(t.expand(3, 4) if False else t.unsqueeze(0).expand(3, 4)); print(u, u.stride())"))
A(s("t = torch.arange(6.); u = rt(t[1:3]); print(u.untyped_storage().size(), u.storage_offset())"))
A(s("t = torch.arange(6.).reshape(2, 3)\nu = rt(t.clone()[1:]); print(u.untyped_storage().nbytes(), u.storage_offset())"))
A(s("t = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last); u = rt(t); print(u.stride(), u.is_contiguous(memory_format=torch.channels_last))"))
A(s("t = torch.arange(4, dtype=torch.int32)\ntry:\n    rt([t, t.view(torch.float32)])\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("t = torch.arange(4.); u = rt(t.as_strided((2, 2), (1, 1))); print(u, u.stride())"))
A(s("t = torch.tensor([1+2j, 3-4j]); u = rt(t.real); print(u, u.stride(), u.dtype)"))
A(s("t = torch.tensor([1+2j, 3-4j]); u = rt(t.conj()); print(u, u.dtype)"))
A(s("t = torch.tensor([1., -2.]); u = rt(t.neg()); print(u)"))
A(s("t = torch.tensor([1., 2.]); a, b = rt([t, t.storage() if False else t.untyped_storage()]); print(type(b).__name__, b.nbytes(), len(b))"))
A(s("st = torch.arange(3.).untyped_storage(); u = rt(st); print(type(u).__name__, u.nbytes(), list(u)[:4])"))
A(s("st = torch.tensor([1, 2], dtype=torch.int16).untyped_storage(); u = rt(st); print(type(u).__name__, u.nbytes(), u.device)"))
# requires_grad / Parameter / grad
A(s("t = torch.ones(2, requires_grad=True); u = rt(t); print(u.requires_grad, u.is_leaf, u.grad, type(u).__name__)"))
A(s("t = torch.ones(2, requires_grad=True); (t * 2).sum().backward(); u = rt(t); print(u.grad, t.grad)"))
A(s("t = torch.ones(2, requires_grad=True)\ntry:\n    u = rt(t * 2); print(u, u.requires_grad, u.grad_fn)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("p = torch.nn.Parameter(torch.ones(2)); u = rt(p); print(type(u).__name__, u.requires_grad, u)"))
A(s("p = torch.nn.Parameter(torch.ones(2), requires_grad=False); u = rt(p); print(type(u).__name__, u.requires_grad)"))
A(s("p = torch.nn.Parameter(torch.arange(4.)); a, b = rt([p, p[1:]]); a.data[1] = 9; print(b, b.requires_grad)"))
A(s("p = torch.nn.Parameter(torch.ones(2)); u = rt({'p': p}, weights_only=False); print(type(u['p']).__name__, u['p'].is_leaf)"))
A(s("t = torch.ones(2); t.foo = 3; u = rt(t, weights_only=False); print(getattr(u, 'foo', None))"))
A(s("t = torch.ones(2); t.foo = 3; u = rt(t); print(getattr(u, 'foo', None))"))
A(s("t = torch.ones(2, requires_grad=True).detach(); u = rt(t); print(u.requires_grad)"))
A(s("t = torch.ones(2, dtype=torch.float64, requires_grad=True); u = rt([t, t]); print(u[0] is u[1], u[0].requires_grad)"))
# modules
A(s("torch.manual_seed(0); m = torch.nn.Linear(3, 2); sd = rt(m.state_dict()); print(type(sd).__name__, list(sd), [v.shape for v in sd.values()], [v.requires_grad for v in sd.values()])"))
A(s("m = torch.nn.Linear(3, 2); sd = rt(m.state_dict()); m2 = torch.nn.Linear(3, 2); r = m2.load_state_dict(sd); print(r, torch.equal(m.weight, m2.weight))"))
A(s("m = torch.nn.Linear(3, 2); sd = rt(m.state_dict()); del sd['bias']; sd['extra'] = torch.ones(1); m2 = torch.nn.Linear(3, 2); r = m2.load_state_dict(sd, strict=False); print(r, r.missing_keys, r.unexpected_keys)"))
A(s("m = torch.nn.Linear(3, 2); sd = rt(m.state_dict()); del sd['bias']\ntry:\n    torch.nn.Linear(3, 2).load_state_dict(sd)\nexcept Exception as e: print(type(e).__name__, e)"))
A(s("m = torch.nn.Linear(3, 2); sd = rt(m.state_dict()); sd['x'] = torch.ones(1)\ntry:\n    torch.nn.Linear(3, 2).load_state_dict(sd)\nexcept Exception as e: print(type(e).__name__, e)"))
A(s("sd = rt(torch.nn.Linear(3, 2).state_dict())\ntry:\n    torch.nn.Linear(4, 2).load_state_dict(sd)\nexcept Exception as e: print(type(e).__name__, e)"))
A(s("sd = rt(torch.nn.Linear(3, 2).state_dict())\ntry:\n    torch.nn.Linear(4, 2).load_state_dict(sd, strict=False)\nexcept Exception as e: print(type(e).__name__, e)"))
A(s("m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2)); sd = rt(m.state_dict()); print(list(sd), sd['1.num_batches_tracked'], sd['1.num_batches_tracked'].dtype)"))
A(s("m = torch.nn.BatchNorm1d(2); m(torch.randn(4, 2)); sd = rt(m.state_dict()); m2 = torch.nn.BatchNorm1d(2); print(m2.load_state_dict(sd), m2.num_batches_tracked, torch.allclose(m2.running_mean, m.running_mean))"))
A(s("m = torch.nn.Linear(3, 2); sd = rt(m.state_dict()); print(sd._metadata if hasattr(sd, '_metadata') else 'none')"))
A(s("m = torch.nn.Linear(3, 2); m2 = rt(m, weights_only=False); print(type(m2).__name__, m2, torch.equal(m.weight, m2.weight), type(m2.weight).__name__)"))
A(s("m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU()); m2 = rt(m, weights_only=False); x = torch.ones(1, 3); print(m2, torch.equal(m(x), m2(x)))"))
A(s("m = torch.nn.Linear(3, 2)\ntry:\n    rt(m)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("m = torch.nn.Linear(3, 2); m2 = rt(m, weights_only=False); print(m2.training, m2.weight.requires_grad, m2.weight.grad)"))
A(s("m = torch.nn.Linear(3, 2); m.eval(); m2 = rt(m, weights_only=False); print(m2.training)"))
A(s("m = torch.nn.Linear(2, 2); m.register_buffer('b', torch.ones(2), persistent=False); print(list(rt(m.state_dict())))"))
A(s("m = torch.nn.Linear(2, 2); m.register_buffer('b', torch.ones(2)); print(list(rt(m.state_dict())))"))
A(s("m = torch.nn.Linear(2, 2); sd = rt(m.state_dict(keep_vars=True)); print([type(v).__name__ for v in sd.values()], [v.requires_grad for v in sd.values()])"))
A(s("m = torch.nn.Linear(2, 2); sd = m.state_dict(); sd2 = rt(sd); sd2['weight'][0, 0] = 42; print(m.weight[0, 0].item() == 42)"))
A(s("m = torch.nn.Linear(2, 2); sd = rt(m.state_dict()); m2 = torch.nn.Linear(2, 2); m2.load_state_dict(sd, assign=True); print(m2.weight.data_ptr() == sd['weight'].data_ptr(), type(m2.weight).__name__)"))
A(s("m = torch.nn.Linear(2, 2); sd = rt(m.state_dict()); m2 = torch.nn.Linear(2, 2); m2.load_state_dict(sd); print(m2.weight.data_ptr() == sd['weight'].data_ptr())"))
A(s("m = torch.nn.Linear(2, 2, dtype=torch.float64); sd = rt(m.state_dict()); m2 = torch.nn.Linear(2, 2); m2.load_state_dict(sd); print(m2.weight.dtype, torch.allclose(m2.weight.double(), m.weight))"))
A(s("m = torch.nn.Embedding(4, 3); sd = rt(m.state_dict()); print(list(sd), sd['weight'].shape)"))
A(s("m = torch.nn.LSTM(2, 3); print(list(rt(m.state_dict())))"))
A(s("m = torch.nn.Conv2d(1, 2, 3); sd = rt(m.state_dict()); print({k: tuple(v.shape) for k, v in sd.items()})"))
A(s("m = torch.nn.ModuleDict({'a': torch.nn.Linear(1, 1)}); print(list(rt(m.state_dict())))"))
A(s("m = torch.nn.Linear(2, 2); sd = rt(m.state_dict()); sd['weight'] = sd['weight'][:, :1]\ntry:\n    m.load_state_dict(sd)\nexcept RuntimeError as e: print(e)"))
A(s("m = torch.nn.Linear(2, 2); sd = rt(m.state_dict()); print(m.load_state_dict(sd).__class__.__name__, m.load_state_dict(sd) == ([], []))"))
# optimizers
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9); m(torch.ones(1, 2)).sum().backward(); o.step(); sd = rt(o.state_dict()); print(sorted(sd), sd['param_groups'], sorted(sd['state']), sorted(sd['state'][0]))"))
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters(), lr=0.1); m(torch.ones(1, 2)).sum().backward(); o.step(); sd = rt(o.state_dict()); print(sd['param_groups'][0]['lr'], sorted(sd['state'][0]), sd['state'][0]['step'], sd['state'][0]['step'].dtype)"))
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.AdamW(m.parameters()); sd = rt(o.state_dict()); print(sd)"))
A(s("""torch.manual_seed(0)
def run(steps, resume=False):
    m = torch.nn.Linear(3, 1); o = torch.optim.Adam(m.parameters(), lr=0.05)
    x = torch.arange(6.).reshape(2, 3)
    for i in range(steps):
        if resume and i == 2:
            b = io.BytesIO(); torch.save({'m': m.state_dict(), 'o': o.state_dict()}, b); b.seek(0)
            ck = torch.load(b)
            m = torch.nn.Linear(3, 1); o = torch.optim.Adam(m.parameters(), lr=0.05)
            m.load_state_dict(ck['m']); o.load_state_dict(ck['o'])
        o.zero_grad(); m(x).pow(2).sum().backward(); o.step()
    return m.weight
torch.manual_seed(0); a = run(4)
torch.manual_seed(0); b = run(4, True)
print(torch.allclose(a, b))"""))
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.SGD(m.parameters(), lr=0.1); sd = rt(o.state_dict()); sd['param_groups'][0]['lr'] = 0.5; o.load_state_dict(sd); print(o.param_groups[0]['lr'])"))
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.SGD(m.parameters(), lr=0.1); sd = rt(o.state_dict()); o2 = torch.optim.SGD([m.weight], lr=0.1)\ntry:\n    o2.load_state_dict(sd)\nexcept ValueError as e: print(e)"))
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.SGD(m.parameters(), lr=0.1); s = torch.optim.lr_scheduler.StepLR(o, 2); o.step(); s.step(); sd = rt(s.state_dict()); print(sorted(sd), sd['last_epoch'], sd['_last_lr'])"))
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters()); m(torch.ones(1, 2)).sum().backward(); o.step(); sd = rt(o.state_dict()); o2 = torch.optim.Adam(m.parameters()); o2.load_state_dict(sd); print(o2.state[m.weight]['step'], torch.equal(o2.state[m.weight]['exp_avg'], o.state[m.weight]['exp_avg']))"))
A(s("m = torch.nn.Linear(2, 1); o = torch.optim.Adam(m.parameters()); m(torch.ones(1, 2)).sum().backward(); o.step(); sd = rt(o.state_dict()); m2 = torch.nn.Linear(2, 1).double(); o2 = torch.optim.Adam(m2.parameters()); o2.load_state_dict(sd); print(o2.state[m2.weight]['exp_avg'].dtype, o2.state[m2.weight]['step'].dtype)"))
# weights_only errors and safe globals
A(s("class Foo:\n    pass\nb = io.BytesIO(); torch.save(Foo(), b); b.seek(0)\ntry:\n    torch.load(b, weights_only=True)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("import pickle\nprint(issubclass(getattr(torch.serialization, 'pickle', pickle).UnpicklingError, Exception))"))
A(s("import pickle\nclass Foo:\n    pass\nb = io.BytesIO(); torch.save(Foo(), b); b.seek(0)\ntry:\n    torch.load(b)\nexcept pickle.UnpicklingError as e: print('unpickling', 'weights_only' in str(e))"))
A(s("import fractions\nb = io.BytesIO(); torch.save(fractions.Fraction(1, 3), b); b.seek(0)\nwith torch.serialization.safe_globals([fractions.Fraction]):\n    print(torch.load(b))"))
A(s("import fractions\nb = io.BytesIO(); torch.save(fractions.Fraction(1, 3), b)\ntorch.serialization.add_safe_globals([fractions.Fraction])\nb.seek(0); print(torch.load(b)); print(fractions.Fraction in torch.serialization.get_safe_globals())\ntorch.serialization.clear_safe_globals(); print(torch.serialization.get_safe_globals())"))
A(s("import datetime\nb = io.BytesIO(); torch.save(datetime.timedelta(1), b); b.seek(0)\nwith torch.serialization.safe_globals([datetime.timedelta]):\n    print(torch.load(b))\nb.seek(0)\ntry:\n    torch.load(b)\nexcept Exception as e: print(type(e).__name__)"))
A(s("print(type(torch.serialization.get_safe_globals()).__name__)"))
A(s("print(hasattr(torch.serialization, 'get_unsafe_globals_in_checkpoint'))"))
A(s("import fractions\nb = io.BytesIO(); torch.save({'f': fractions.Fraction(1, 2), 't': torch.ones(1)}, b); b.seek(0)\nprint(torch.serialization.get_unsafe_globals_in_checkpoint(b))"))
A(s("print(hasattr(torch.serialization, 'get_default_load_endianness'), torch.serialization.get_default_load_endianness())"))
A(s("print(hasattr(torch.serialization, 'LoadEndianness'), list(torch.serialization.LoadEndianness))"))
B('skip_data and set_default_mmap_options are missing', "print(hasattr(torch.serialization, 'skip_data'), hasattr(torch.serialization, 'set_default_mmap_options'))")
A(s("print(torch.serialization.DEFAULT_PROTOCOL)"))
# map_location
for ml in ["'cpu'", "torch.device('cpu')", "{'cpu': 'cpu'}", "lambda s, loc: s", "None", "'cpu:0'" ]:
    A(s(f"u = rt({{'a': torch.arange(3.), 'b': torch.ones(2, dtype=torch.int64)}}, map_location={ml}); print(u, u['a'].device)"))
B(STOR, "locs = []\ndef f(s, loc):\n    locs.append((loc, type(s).__name__)); return s\nu = rt(torch.arange(3.), map_location=f); print(u, locs)")
A(s("def f(s, loc):\n    return None\nu = rt(torch.arange(3.), map_location=f); print(u)"))
A(s("try:\n    rt(torch.ones(1), map_location='meta')\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("u = rt(torch.ones(2), map_location='meta'); print(u.device, u.shape)"))
A(s("try:\n    rt(torch.ones(1), map_location='cuda')\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    rt(torch.ones(1), map_location='bogus')\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    rt(torch.ones(1), map_location=3)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
# paths
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); torch.save({'a': torch.arange(4.)}, p); print(torch.load(p)); os.remove(p)"))
A(s("import pathlib\nd = tempfile.mkdtemp(); p = pathlib.Path(d) / 'x.pt'; torch.save([torch.ones(2)], p); print(torch.load(p)); print(torch.load(str(p)))"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); t = torch.arange(6.).reshape(2, 3); torch.save([t, t[1]], p); a, b = torch.load(p, mmap=True); print(a, b, b.data_ptr() == a.data_ptr() + 12)"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); torch.save(torch.arange(4.), p); u = torch.load(p, mmap=True); u[0] = 7; print(u, torch.load(p))"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); torch.save(torch.arange(4.), p); u = torch.load(p, mmap=True, map_location='cpu'); print(u)"))
A(s("b = io.BytesIO(); torch.save(torch.ones(2), b); b.seek(0)\ntry:\n    torch.load(b, mmap=True)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt')\ntry:\n    torch.load(p)\nexcept Exception as e: print(type(e).__name__)"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); f = open(p, 'wb'); torch.save([1, torch.ones(1)], f); f.close(); f = open(p, 'rb'); print(torch.load(f)); f.close()"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); torch.save(torch.ones(2), p, _use_new_zipfile_serialization=False); print(torch.load(p))"))
A(s("b = io.BytesIO(); torch.save(torch.arange(3), b, _use_new_zipfile_serialization=False); b.seek(0); print(torch.load(b))"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); torch.save(torch.ones(2), p)\nimport zipfile\nprint(zipfile.is_zipfile(p), sorted(n.split('/', 1)[1] for n in zipfile.ZipFile(p).namelist()))"))
A(s("b = io.BytesIO(); torch.save({'a': torch.ones(2), 'b': torch.ones(3)}, b)\nimport zipfile\nprint(sorted(n.split('/', 1)[1] for n in zipfile.ZipFile(b).namelist()))"))
A(s("b = io.BytesIO(); torch.save(torch.ones(2), b)\nimport zipfile\nz = zipfile.ZipFile(b); n = [x for x in z.namelist() if x.endswith('/version')][0]; print(z.read(n), n.split('/')[0])"))
A(s("b = io.BytesIO(); torch.save(torch.ones(2), b)\nimport zipfile\nz = zipfile.ZipFile(b); print(sorted({x.split('/')[0] for x in z.namelist()}))"))
# truncated / corrupted
A(s("b = io.BytesIO(); torch.save(torch.ones(100), b); data = b.getvalue()\ntry:\n    torch.load(io.BytesIO(data[:len(data)//2]))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    torch.load(io.BytesIO(b''))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    torch.load(io.BytesIO(b'hello world'))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    torch.load(io.BytesIO(b'hello world'), weights_only=False)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("b = io.BytesIO(); torch.save(torch.ones(100), b); data = b.getvalue()\ntry:\n    torch.load(io.BytesIO(data[:10]))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("b = io.BytesIO(); torch.save(torch.ones(2), b); b.seek(0, 2)\ntry:\n    torch.load(b)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("import pickle\nb = io.BytesIO(pickle.dumps([1, 2]))\ntry:\n    print(torch.load(b))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("import pickle\nb = io.BytesIO(pickle.dumps([1, 2]))\ntry:\n    print(torch.load(b, weights_only=False))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
# pickle_protocol
for pp in [2, 3]:
    A(s(f"b = io.BytesIO(); torch.save({{'a': torch.arange(3), 'b': [1.5, 'x']}}, b, pickle_protocol={pp}); b.seek(0); print(torch.load(b))"))
A(s("b = io.BytesIO(); torch.save(torch.arange(3), b, pickle_protocol=2, _use_new_zipfile_serialization=False); b.seek(0); print(torch.load(b))"))
A(s("b = io.BytesIO()\ntry:\n    torch.save(torch.ones(1), b, pickle_protocol=99)\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
for pp in [4, 5]:       # (torch's weights_only unpickler refuses protocol 4/5's FRAME; so does ember's)
    A(s(f"b = io.BytesIO(); torch.save({{'a': torch.arange(3), 'b': [1.5, 'x']}}, b, pickle_protocol={pp}); b.seek(0); print(torch.load(b))"))
A(s("b = io.BytesIO(); torch.save({'a': torch.arange(3), 'b': [1.5, 'x']}, b, pickle_protocol=4); b.seek(0); print(torch.load(b, weights_only=False))"))
# misc
A(s("print(rt(torch.tensor([float('nan'), float('inf'), -0.0])))"))
A(s("print(rt(torch.tensor([1e-45, 3.4e38])), rt(torch.tensor([65504.], dtype=torch.float16)))"))
A(s("t = torch.randn(3, 4); print(torch.equal(rt(t), t), torch.equal(rt(t.bfloat16()), t.bfloat16()))"))
A(s("t = torch.ones(1000000, dtype=torch.uint8); u = rt(t); print(u.sum(), u.shape)"))
A(s("print(rt([torch.ones(0)]*3))"))
A(s("x = []; x.append(x)\ntry:\n    u = rt(x, weights_only=False); print(u[0] is u)\nexcept Exception as e: print(type(e).__name__)"))
A(s("l = [1]; u = rt([l, l]); print(u[0] is u[1])"))
A(s("u = rt(torch.arange(6).view(2, 3).t()[1:]); print(u, u.stride(), u.storage_offset())"))
A(s("u = rt(torch.tensor([[True, False]]).t()); print(u, u.stride(), u.dtype)"))
A(s("t = torch.zeros(3, 0, 2); u = rt(t); print(u.shape, u.numel(), u.untyped_storage().nbytes())"))
A(s("t = torch.ones(2).to(torch.float64).as_strided((2, 2), (0, 1)); u = rt(t); print(u, u.stride())"))
A(s("t = torch.arange(8.)[::-1] if False else torch.arange(8.).flip(0); u = rt(t); print(u, u.stride())"))
A(s("b = io.BytesIO(); r = torch.save(torch.ones(1), b); print(r, b.tell() > 0)"))
B('torch reads the first of two checkpoints saved one after the other into a buffer; ember, the last', "b = io.BytesIO(); torch.save(1, b); torch.save(2, b); b.seek(0); print(torch.load(b))")
A(s("b = io.BytesIO(); b.write(b'xx'); torch.save(torch.arange(3), b); b.seek(2); print(torch.load(b))"))
A(s("b = io.BytesIO(); torch.save(torch.arange(3), b); b.seek(0); x = torch.load(b); print(b.tell() == len(b.getvalue()))"))
A(s("try:\n    torch.save(torch.ones(1), 12)\nexcept Exception as e: print(type(e).__name__)"))
A(s("try:\n    torch.load(12)\nexcept Exception as e: print(type(e).__name__)"))
A(s("try:\n    torch.save(lambda x: x, io.BytesIO())\nexcept Exception as e: print(type(e).__name__)"))
A(s("print(torch.load.__name__, torch.save.__name__)"))
A(s("import inspect\nprint(list(inspect.signature(torch.load).parameters))"))
A(s("import inspect\nprint(list(inspect.signature(torch.save).parameters))"))
A(s("t = torch.ones(3); u = rt({'x': t}, weights_only=True, map_location='cpu', mmap=None); print(u)"))
A(s("b = io.BytesIO(); torch.save(torch.ones(2), b); b.seek(0)\nwith torch.serialization.safe_globals([]):\n    print(torch.load(b))"))
A(s("print(rt(torch.tensor(-3, dtype=torch.int8)).item(), rt(torch.tensor(255, dtype=torch.uint8)).item())"))
A(s("print(rt(torch.tensor(1.5, dtype=torch.bfloat16)).item(), rt(torch.tensor(2+3j)).item())"))
A(s("t = torch.arange(4.).reshape(2, 2); u = rt(torch.nn.Parameter(t[1])); print(type(u).__name__, u, u.stride(), u.storage_offset())"))
A(s("p = torch.nn.Parameter(torch.ones(2)); p.grad = torch.ones(2); u = rt(p); print(u.grad)"))
A(s("p = torch.nn.Parameter(torch.ones(2)); u = rt([p, p]); print(u[0] is u[1])"))
A(s("m = torch.nn.Linear(2, 2); u = rt(list(m.parameters())); print([type(x).__name__ for x in u], [x.requires_grad for x in u])"))
A(s("m = torch.nn.Linear(2, 2); u = rt(dict(m.named_parameters())); print(list(u), type(u['weight']).__name__)"))
A(s("sd = rt(torch.nn.Linear(2, 2).state_dict()); torch.nn.Linear(2, 2).load_state_dict(sd); print(sd['weight'].requires_grad, sd['weight'].is_leaf)"))
A(s("m = torch.nn.Linear(2, 2); m.weight.requires_grad_(False); m2 = rt(m, weights_only=False); print(m2.weight.requires_grad, m2.bias.requires_grad)"))
A(s("m = torch.nn.Linear(2, 2); m2 = rt(m, weights_only=False); print(list(m2.state_dict()), m2.in_features, m2.out_features)"))
A(s("m = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2)); m2 = rt(m, weights_only=False); print(m2)"))
A(s("print(rt(torch.tensor([1, 2], dtype=torch.int16)).element_size(), rt(torch.tensor([1.], dtype=torch.bfloat16)).element_size())"))
A(s("t = torch.tensor([1., 2.]); t2 = rt(t); print(t2.is_contiguous(), t2.device, t2.layout, t2.requires_grad)"))
A(s("print(rt(torch.Size([])), rt(torch.Size([0, 3])), type(rt(torch.Size([2]))).__name__)"))
A(s("print(rt(torch.finfo(torch.float32).eps), rt(torch.tensor(1.).item()))"))
A(s("print(rt(torch.int64) is torch.int64, rt(torch.device('cpu')) == torch.device('cpu'))"))
A(s("print(rt(torch.device('cuda', 1)))"))
A(s("print(rt(torch.device('meta')))"))
A(s("print(rt(torch.bfloat16), rt(torch.complex64), rt(torch.bool), rt(torch.float16))"))
A(s("print(rt(torch.preserve_format), rt(torch.sparse_coo))"))
A(s("u = rt(torch.contiguous_format); print(type(u).__name__, u)"))
A(s("u = rt(torch.channels_last, weights_only=False); print(type(u).__name__, u)"))
A(s("E = torch.serialization.LoadEndianness; torch.serialization.set_default_load_endianness(E.LITTLE); print(torch.serialization.get_default_load_endianness()); print(rt(torch.arange(3))); torch.serialization.set_default_load_endianness(None); print(torch.serialization.get_default_load_endianness())"))
A(s("try:\n    torch.serialization.set_default_load_endianness('little')\nexcept TypeError as e: print(e)"))
A(s("print(torch.serialization.LoadEndianness.BIG, torch.serialization.LoadEndianness.NATIVE.value)"))
A(s("d = tempfile.mkdtemp(); p = os.path.join(d, 'x.pt'); torch.save({'a': torch.arange(3)}, p, _disable_byteorder_record=True); print(torch.load(p))"))
A(s("try:\n    rt(torch.ones(1), map_location='cuda:0')\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    rt(torch.ones(1), map_location={'cpu': 'xla'})\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("try:\n    rt(torch.ones(1), map_location=torch.device('cpu', 0))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("print(rt(torch.ones(1), map_location={'cuda:0': 'cpu'}))"))
B('torch refuses a bytes map_location (TypeError); ember takes it', "print(rt(torch.ones(1), map_location=b'cpu'))")
A(s("try:\n    torch.load(io.BytesIO(b'PK\\x03\\x04garbage'))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
B('torch ignores a corrupted end-of-central-directory size; ember fails', "b = io.BytesIO(); torch.save(torch.ones(4), b); data = bytearray(b.getvalue()); data[-10] ^= 0xff\ntry:\n    torch.load(io.BytesIO(bytes(data)))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])")
A(s("b = io.BytesIO(); torch.save(torch.ones(4), b); data = b.getvalue()\ntry:\n    torch.load(io.BytesIO(data[:-1]))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])"))
A(s("import warnings\nb = io.BytesIO(); torch.save([1], b); b.seek(0)\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always'); print(torch.load(b, weights_only=False), len(w))"))
A(s("import pickle\nb = io.BytesIO(); torch.save([1], b); b.seek(0)\ntry:\n    torch.load(b, pickle_module=pickle, weights_only=True)\nexcept Exception as e: print(type(e).__name__, e)"))
A(s("import pickle\nb = io.BytesIO(); torch.save([1, torch.ones(1)], b, pickle_module=pickle); b.seek(0); print(torch.load(b, pickle_module=pickle))"))
A(s("t = torch.arange(6.).reshape(2, 3); u = rt({'t': t, 'row': t[1], 'col': t[:, 2]}); u['t'].mul_(10); print(u['row'], u['col'])"))
A(s("t = torch.zeros(4, dtype=torch.bfloat16); a, b = rt([t, t[2:]]); b.fill_(1.5); print(a)"))
A(s("t = torch.zeros(4, dtype=torch.bool); a, b = rt([t, t[::2]]); b.fill_(True); print(a)"))
A(s("t = torch.zeros(4, dtype=torch.complex64); a, b = rt([t[:2], t[1:]]); a[1] = 1j; print(b)"))
A(s("t = torch.arange(4.); u, v = rt([t, t.view(2, 2)]); print(u.untyped_storage().data_ptr() == v.untyped_storage().data_ptr())"))
A(s("t = torch.arange(4.); u, v = rt([t, t.clone()]); print(u.data_ptr() == v.data_ptr())"))
A(s("t = torch.arange(4.); print(rt(t).data_ptr() == t.data_ptr())"))
A(s("p = torch.nn.Parameter(torch.ones(3)); m = rt({'p': p, 'v': p.data[1:]}); m['v'][0] = 5; print(m['p'])"))
A(s("t = torch.ones(2, requires_grad=True); u = rt(t); y = (u * 3).sum(); y.backward(); print(u.grad)"))
A(s("t = torch.tensor([1, 2], dtype=torch.int64); u = rt({'a': t}); print(u['a'].requires_grad, u['a'].dtype)"))
A(s("m = torch.nn.Linear(2, 2); sd = rt(m.state_dict()); m2 = torch.nn.Linear(2, 2); m2.load_state_dict(sd); print(m2.weight.requires_grad, type(m2.weight).__name__, m2.weight.is_leaf)"))
A(s("m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(3, 1)); sd = rt(m.state_dict()); m2 = torch.nn.Sequential(torch.nn.Linear(2, 3)); r = m2.load_state_dict(sd, strict=False); print(r)"))
A(s("m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(3, 1)); sd = rt(m.state_dict()); m2 = torch.nn.Sequential(torch.nn.Linear(2, 3))\ntry:\n    m2.load_state_dict(sd)\nexcept RuntimeError as e: print(e)"))
A(s("m = torch.nn.Linear(2, 2); sd = rt({'model': m.state_dict(), 'epoch': 3, 'loss': 0.25}); print(sd['epoch'], sd['loss'], list(sd['model']))"))
A(s("m = torch.nn.Linear(2, 2); m2 = rt([m, m], weights_only=False); print(m2[0] is m2[1])"))
A(s("m = torch.nn.Linear(2, 2); m2, w = rt([m, m.weight], weights_only=False); print(w is m2.weight)"))
A(s("m = torch.nn.Linear(2, 2); m2 = rt(m, weights_only=False); print(m2.weight is m.weight, m2.weight.data_ptr() == m.weight.data_ptr())"))
A(s("m = torch.nn.GRU(2, 3, batch_first=True); m2 = rt(m, weights_only=False); print(m2, m2.batch_first)"))
A(s("m = torch.nn.Dropout(0.3); m2 = rt(m, weights_only=False); print(m2, m2.p)"))
A(s("o = torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1); sd = rt(o.state_dict()); print(sd['param_groups'][0]['params'], sorted(sd['param_groups'][0]))"))
A(s("o = torch.optim.Adam([torch.nn.Parameter(torch.ones(2))], lr=0.1); sd = rt(o.state_dict()); print(sorted(sd['param_groups'][0]))"))

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=250)
