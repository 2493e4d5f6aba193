"""torch.hub, svd_lowrank, pca_lowrank and lobpcg, run under real torch and under ember
(`import ember as torch`): what each snippet prints must be identical.

Hub snippets work in fresh temporary directories only (the hub cache is set per snippet, and
environment variables they set are restored): the cache directory rules, hubconf.py loading
from a local directory and from a prepared cache entry (no network: a cached 'owner/name:ref'
is used as is), dependency and entrypoint errors, downloads of file:// URLs with hash checks,
and load_state_dict_from_url's cache and legacy-zip handling. Printed temporary paths are
replaced by a fixed name.

The low-rank and LOBPCG results are random (torch's and ember's draws agree, their LAPACK
rounding not quite), so snippets print what is exact: rounded singular values and eigenvalues
of exactly low-rank or known-spectrum matrices, shapes, dtypes, reconstruction and
orthogonality checks, gradients of sign-independent functions, and errors.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

HUB = '''\
import contextlib, io, os, shutil, tempfile, zipfile, hashlib
H = torch.hub
D = tempfile.mkdtemp()
H.set_dir(os.path.join(D, 'hub'))
def clean(text):
    return text.replace(D, 'D')
def run(f, *args, **kwargs):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            result = f(*args, **kwargs)
    finally:
        print(clean(out.getvalue()), end='')
    return result
@contextlib.contextmanager
def env(**values):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None: os.environ.pop(k, None)
            else: os.environ[k] = v
def repo(path, text):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, 'hubconf.py'), 'w') as f: f.write(text)
    return path
CONF = "dependencies = ['os']\\ndef linear(t, n=2, bias=True):\\n    'A linear layer.'\\n    return t.nn.Linear(n, 3, bias=bias)\\ndef _private(): pass\\nvalue = 3\\n"
'''

HUB_SNIPPETS = [HUB + s for s in [
    # the cache directory
    "H._hub_dir = None\nwith env(TORCH_HOME=os.path.join(D, 'th')): print(clean(H.get_dir()))",
    "H._hub_dir = None\nos.environ.pop('TORCH_HOME', None)\nwith env(XDG_CACHE_HOME=os.path.join(D, 'xdg')): print(clean(H.get_dir()))",
    "H._hub_dir = None\nwith env(TORCH_HOME=os.path.join(D, 'th'), XDG_CACHE_HOME=os.path.join(D, 'xdg')): print(clean(H.get_dir()))",
    "H._hub_dir = None\nwith env(TORCH_HOME='~/th'): print(H.get_dir() == os.path.expanduser('~/th/hub'))",
    "H._hub_dir = None\nos.environ.pop('TORCH_HOME', None); os.environ.pop('XDG_CACHE_HOME', None)\nprint(H.get_dir() == os.path.expanduser('~/.cache/torch/hub'))",
    "H.set_dir(os.path.join(D, 'x')); print(clean(H.get_dir()))",
    "H.set_dir('~/somewhere'); print(H.get_dir() == os.path.expanduser('~/somewhere'))",
    "import pathlib\nH.set_dir(pathlib.Path(D) / 'p'); print(type(H.get_dir()).__name__, clean(str(H.get_dir())))",
    "with env(TORCH_HOME=os.path.join(D, 'th')): H.set_dir(os.path.join(D, 'mine')); print(clean(H.get_dir()))",
    "import warnings\nwith env(TORCH_HUB='old'), warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always'); H.get_dir()\nprint([str(x.message) for x in w])",
    "print(sorted(H.__all__))",
    # hubconf.py in a local directory
    "d = repo(os.path.join(D, 'r'), CONF); print(H.load(d, 'linear', torch, source='local'))",
    "d = repo(os.path.join(D, 'r'), CONF); m = H.load(d, 'linear', torch, source='local', n=5, bias=False); print(m, m.bias)",
    "d = repo(os.path.join(D, 'r'), CONF); print(H.load(d, 'linear', torch, 4, source='LOCAL').in_features)",
    "d = repo(os.path.join(D, 'r'), CONF.replace(\"['os']\", \"['os', 'no_such_module_abc', 'no_such_module_def']\"))\ntry:\n    H.load(d, 'linear', torch, source='local')\nexcept RuntimeError as e: print(e)",
    "d = repo(os.path.join(D, 'r'), CONF)\ntry:\n    H.load(d, 'missing', source='local')\nexcept RuntimeError as e: print(e)",
    "d = repo(os.path.join(D, 'r'), CONF)\ntry:\n    H.load(d, 'value', source='local')\nexcept RuntimeError as e: print(e)",
    "d = repo(os.path.join(D, 'r'), CONF)\ntry:\n    H.load(d, None, source='local')\nexcept ValueError as e: print(e)",
    "d = repo(os.path.join(D, 'r'), CONF)\ntry:\n    H.load(d, 'linear', source='svn')\nexcept ValueError as e: print(e)",
    "d = repo(os.path.join(D, 'r'), 'import helper_mod_xyz\\ndef get(): return helper_mod_xyz.VALUE\\n')\nopen(os.path.join(d, 'helper_mod_xyz.py'), 'w').write('VALUE = 42\\n')\nprint(H.load(d, 'get', source='local'), d in __import__('sys').path)",
    "d = repo(os.path.join(D, 'r'), 'def f(*a, **k): return a, sorted(k)\\n'); print(H.load(d, 'f', 1, 2, source='local', trust_repo=False, force_reload=True, verbose=False, skip_validation=True, z=0, a=1))",
    "d = repo(os.path.join(D, 'r'), 'dependencies = None\\ndef f(): return 7\\n'); print(H.load(d, 'f', source='local'))",
    # a prepared cache entry of a GitHub repo: owner_name_ref under get_dir()
    "repo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); print(run(H.list, 'someone/proj:v1'))",
    "repo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); print(run(H.help, 'someone/proj:v1', 'linear'))",
    "repo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); print(run(H.load, 'someone/proj:v1', 'linear', torch, n=6).weight.shape)",
    "repo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); print(run(H.list, 'someone/proj:v1', verbose=False))",
    "repo(os.path.join(H.get_dir(), 'someone_proj_feature_x'), CONF); print(run(H.list, 'someone/proj:feature/x'))",
    "repo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); run(H.list, 'someone/proj:v1'); print(repr(open(os.path.join(H.get_dir(), 'trusted_list')).read()))",
    "import builtins\nrepo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); builtins.input, saved = (lambda prompt: print(prompt) or 'no'), builtins.input\ntry:\n    run(H.list, 'someone/proj:v1', trust_repo=False)\nexcept Exception as e: print(type(e).__name__, e)\nfinally: builtins.input = saved",
    "import builtins\nrepo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); builtins.input, saved = (lambda prompt: 'yes'), builtins.input\ntry:\n    print(run(H.list, 'someone/proj:v1', trust_repo=False))\nfinally: builtins.input = saved",
    "import builtins\nrepo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF); builtins.input, saved = (lambda prompt: 'maybe'), builtins.input\ntry:\n    run(H.list, 'someone/proj:v1', trust_repo=False)\nexcept ValueError as e: print(e)\nfinally: builtins.input = saved",
    "repo(os.path.join(H.get_dir(), 'someone_proj_v1'), CONF)\ntry:\n    run(H.help, 'someone/proj:v1', 'nothing')\nexcept RuntimeError as e: print(e)",
    "try:\n    H.list('not-a-repo-spec:v1')\nexcept ValueError as e: print(e)",
    # downloads of file:// URLs
    "src = os.path.join(D, 'blob.bin'); open(src, 'wb').write(b'hello hub' * 1000)\ndst = os.path.join(D, 'out.bin'); print(H.download_url_to_file('file://' + src, dst, progress=False)); print(open(dst, 'rb').read() == b'hello hub' * 1000)",
    "src = os.path.join(D, 'blob.bin'); open(src, 'wb').write(b'abc')\ndst = os.path.join(D, 'out.bin'); H.download_url_to_file('file://' + src, dst, hash_prefix=hashlib.sha256(b'abc').hexdigest()[:10], progress=False); print(open(dst, 'rb').read())",
    "src = os.path.join(D, 'blob.bin'); open(src, 'wb').write(b'abc')\ntry:\n    H.download_url_to_file('file://' + src, os.path.join(D, 'out.bin'), hash_prefix='0000', progress=False)\nexcept RuntimeError as e: print(e)\nprint(sorted(os.listdir(D)))",
    "src = os.path.join(D, 'blob.bin'); open(src, 'wb').write(b'')\ndst = os.path.join(D, 'out.bin'); H.download_url_to_file('file://' + src, dst, progress=False); print(os.path.getsize(dst), sorted(os.listdir(D)))",
    "src = os.path.join(D, 'blob.bin'); open(src, 'wb').write(b'xy' * 100)\ndst = os.path.join(D, 'out.bin'); err = io.StringIO()\nwith contextlib.redirect_stderr(err): H.download_url_to_file('file://' + src, dst)\nprint(os.path.getsize(dst), '100%' in err.getvalue())",
    "try:\n    H.download_url_to_file('file://' + os.path.join(D, 'absent.bin'), os.path.join(D, 'o'), progress=False)\nexcept Exception as e: print(type(e).__name__, sorted(os.listdir(D)))",
    # load_state_dict_from_url
    "p = os.path.join(D, 'weights.pt'); torch.save({'w': torch.arange(3.)}, p)\nprint(run(H.load_state_dict_from_url, 'file://' + p, progress=False)); print(sorted(os.listdir(os.path.join(H.get_dir(), 'checkpoints'))))",
    "p = os.path.join(D, 'weights.pt'); torch.save({'w': torch.arange(3.)}, p)\nrun(H.load_state_dict_from_url, 'file://' + p, progress=False); os.remove(p)\nprint(run(H.load_state_dict_from_url, 'file://' + p, progress=False))",
    "p = os.path.join(D, 'weights.pt'); torch.save([torch.ones(2)], p)\nprint(run(H.load_state_dict_from_url, 'file://' + p, model_dir=os.path.join(D, 'md'), file_name='renamed.pth', progress=False, weights_only=True)); print(os.listdir(os.path.join(D, 'md')))",
    "p = os.path.join(D, 'weights.pt'); torch.save({'a': 1}, p); h = hashlib.sha256(open(p, 'rb').read()).hexdigest()\nq = os.path.join(D, 'net-' + h[:8] + '.pt'); shutil.copy(p, q)\nwith contextlib.redirect_stdout(io.StringIO()): print(H.load_state_dict_from_url('file://' + q, check_hash=True, progress=False) == {'a': 1}, file=__import__('sys').stderr)\nprint(os.listdir(os.path.join(H.get_dir(), 'checkpoints')) == [os.path.basename(q)])",
    "p = os.path.join(D, 'net-deadbeef.pt'); torch.save({'a': 1}, p)\ntry:\n    run(H.load_state_dict_from_url, 'file://' + p, check_hash=True, progress=False)\nexcept RuntimeError as e: print(str(e)[:38])\nprint(os.listdir(os.path.join(H.get_dir(), 'checkpoints')))",
    "p = os.path.join(D, 'net-nothex.pt'); torch.save({'a': 1}, p)\nprint(run(H.load_state_dict_from_url, 'file://' + p, check_hash=True, progress=False))",
    "p = os.path.join(D, 'inner.pt'); torch.save({'z': torch.zeros(2)}, p)\nzp = os.path.join(D, 'old.zip')\nwith zipfile.ZipFile(zp, 'w') as z: z.write(p, 'inner.pt')\nprint(run(H.load_state_dict_from_url, 'file://' + zp, model_dir=os.path.join(D, 'md'), progress=False)); print(sorted(os.listdir(os.path.join(D, 'md'))))",
    "import warnings\np = os.path.join(D, 'inner.pt'); torch.save({'z': 1}, p)\nzp = os.path.join(D, 'old.zip')\nwith zipfile.ZipFile(zp, 'w') as z: z.write(p, 'inner.pt')\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always'); run(H.load_state_dict_from_url, 'file://' + zp, progress=False)\nprint([(x.category.__name__, str(x.message)[:40]) for x in w])",
    "p = os.path.join(D, 'x.pt'); torch.save({'t': torch.ones(1)}, p)\nprint(run(H.load_state_dict_from_url, 'file://' + p, map_location='cpu', progress=False)['t'].device)",
    "p = os.path.join(D, 'x.pt'); torch.save({'t': torch.nn.Linear(1, 1)}, p)\ntry:\n    run(H.load_state_dict_from_url, 'file://' + p, progress=False, weights_only=True)\nexcept Exception as e: print(type(e).__name__)",
    "p = os.path.join(D, 'x.pt'); torch.save({'t': 1}, p)\nimport warnings\nwith env(TORCH_MODEL_ZOO='1'), warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always'); run(H.load_state_dict_from_url, 'file://' + p, progress=False)\nprint([str(x.message) for x in w])",
]]

LOWRANK = '''\
torch.manual_seed(0)
def lowrank(m, n, r, dtype=torch.float64):
    a = (torch.arange(m * r, dtype=dtype).reshape(m, r) ** 2 % 7) - 3   # integer factors of rank r
    b = ((torch.arange(r * n, dtype=dtype).reshape(r, n) + 1) ** 3 % 11) - 5
    return a @ b
def sv(x, r, d=6):
    return [round(v, d) for v in x[:r].tolist()]
'''

LOWRANK_SNIPPETS = [LOWRANK + s for s in [
    "A = lowrank(10, 7, 3); U, S, V = torch.svd_lowrank(A, q=5); print(U.shape, S.shape, V.shape, U.dtype)",
    "A = lowrank(10, 7, 3); U, S, V = torch.svd_lowrank(A, q=5); print(sv(S, 3), sv(torch.linalg.svdvals(A), 3))",
    "A = lowrank(10, 7, 3); U, S, V = torch.svd_lowrank(A, q=4); print(torch.allclose(U @ torch.diag(S) @ V.mT, A, atol=1e-10))",
    "A = lowrank(7, 12, 2); U, S, V = torch.svd_lowrank(A, q=4); print(U.shape, V.shape, sv(S, 2), torch.allclose(U @ torch.diag(S) @ V.mT, A, atol=1e-10))",
    "A = lowrank(9, 9, 4); U, S, V = torch.svd_lowrank(A); print(S.shape, sv(S, 4), torch.allclose(U.mT @ U, torch.eye(6, dtype=A.dtype), atol=1e-10))",
    "A = lowrank(20, 8, 2).float(); U, S, V = torch.svd_lowrank(A, q=3); print(U.dtype, S.dtype, sv(S, 2, 3))",
    "A = lowrank(8, 6, 2); U, S, V = torch.svd_lowrank(A, q=3, niter=0); print(sv(S, 2))",
    "A = lowrank(8, 6, 2); U, S, V = torch.svd_lowrank(A, q=3, niter=None); print(sv(S, 2))",
    "A = lowrank(8, 6, 2); U, S, V = torch.svd_lowrank(A, q=None); print(S.shape)",
    "A = lowrank(8, 6, 2); r = torch.svd_lowrank(A, 3); print(type(r).__name__, len(r))",
    "A = torch.stack([lowrank(8, 5, 2), 2 * lowrank(8, 5, 2)]); U, S, V = torch.svd_lowrank(A, q=3); print(U.shape, S.shape, V.shape, [sv(s, 2) for s in S])",
    "A = lowrank(8, 6, 2); M = torch.ones(8, 6, dtype=A.dtype); U, S, V = torch.svd_lowrank(A + M, q=3, M=M); print(sv(S, 2), torch.allclose(U @ torch.diag(S) @ V.mT, A, atol=1e-10))",
    "A = lowrank(8, 6, 2); M = torch.ones(6, dtype=A.dtype); U, S, V = torch.svd_lowrank(A + M, q=3, M=M); print(sv(S, 2))",
    "A = lowrank(6, 8, 2); M = torch.full((6, 1), 2., dtype=A.dtype); U, S, V = torch.svd_lowrank(A + M, q=3, M=M); print(sv(S, 2), U.shape, V.shape)",
    "A = lowrank(6, 4, 4); U, S, V = torch.svd_lowrank(A, q=4); print(sv(S, 4), torch.allclose(U @ torch.diag(S) @ V.mT, A, atol=1e-10))",
    "A = lowrank(6, 4, 4).requires_grad_(); U, S, V = torch.svd_lowrank(A, q=4); S.sum().backward(); u, s, vh = torch.linalg.svd(A.detach(), full_matrices=False); print(torch.allclose(A.grad, u @ vh, atol=1e-8))",
    "A = lowrank(6, 4, 4).requires_grad_(); U, S, V = torch.svd_lowrank(A, q=4); print(S.requires_grad, U.grad_fn is not None)",
    "A = lowrank(6, 4, 4).requires_grad_(); U, S, V = torch.svd_lowrank(A, q=4); (U @ torch.diag(S) @ V.mT).pow(2).sum().backward(); print(torch.allclose(A.grad, 2 * A.detach(), atol=1e-8))",
    "A = (torch.arange(12).reshape(4, 3) % 5)\ntry:\n    torch.svd_lowrank(A, q=2)\nexcept RuntimeError as e: print(e)",
    "try:\n    torch.svd_lowrank(torch.ones(5), q=2)\nexcept ValueError as e: print(e)",
    "A = lowrank(8, 6, 2).to(torch.complex128) * (1 + 1j); U, S, V = torch.svd_lowrank(A, q=3); print(U.dtype, S.dtype, V.dtype, sv(S, 2))",
    # pca_lowrank
    "A = lowrank(10, 5, 2); U, S, V = torch.pca_lowrank(A); print(U.shape, S.shape, V.shape)",
    "A = lowrank(10, 5, 2); U, S, V = torch.pca_lowrank(A, q=3); C = A - A.mean(0); print(sv(S, 2), sv(torch.linalg.svdvals(C), 2))",
    "A = lowrank(10, 5, 2); U, S, V = torch.pca_lowrank(A, q=3, center=False); print(sv(S, 2), sv(torch.linalg.svdvals(A), 2))",
    "A = lowrank(4, 3, 2); U, S, V = torch.pca_lowrank(A); print(S.shape)",
    "A = lowrank(10, 5, 2)\ntry:\n    torch.pca_lowrank(A, q=6)\nexcept ValueError as e: print(e)",
    "A = lowrank(10, 5, 2)\ntry:\n    torch.pca_lowrank(A, q=-1)\nexcept ValueError as e: print(e)",
    "A = lowrank(10, 5, 2)\ntry:\n    torch.pca_lowrank(A, niter=-1)\nexcept ValueError as e: print(e)",
    "A = lowrank(10, 5, 2); U, S, V = torch.pca_lowrank(A, q=0); print(U.shape, S.shape, V.shape)",
    "A = torch.stack([lowrank(9, 5, 2), lowrank(9, 5, 1)]); U, S, V = torch.pca_lowrank(A, q=3); print(S.shape, sv(S[0], 2), sv(S[1], 1))",
    "A = lowrank(10, 5, 2).requires_grad_(); U, S, V = torch.pca_lowrank(A, q=2); S.sum().backward(); u, s, vh = torch.linalg.svd(A.detach() - A.detach().mean(0), full_matrices=False); print(A.grad.shape, torch.allclose(A.grad, u[:, :2] @ vh[:2], atol=1e-8))",
]]

LOBPCG = '''\
torch.manual_seed(0)
Q = torch.linalg.qr(torch.randn(24, 24, dtype=torch.float64)).Q
ev = torch.arange(1., 25., dtype=torch.float64)
A = Q @ torch.diag(ev) @ Q.mT
A = (A + A.mT) / 2
def r(x, d=5):
    return [round(v, d) for v in x.tolist()]
'''

LOBPCG_SNIPPETS = [LOBPCG + s for s in [
    "E, X = torch.lobpcg(A, k=3); print(r(E), X.shape, X.dtype)",
    "E, X = torch.lobpcg(A, k=3, largest=True); print(torch.allclose(A @ X, X * E, atol=1e-5))",
    "E, X = torch.lobpcg(A, k=2, largest=False); print(r(E))",
    "E, X = torch.lobpcg(A); print(r(E), X.shape)",
    "E, X = torch.lobpcg(A, 2, n=4); print(r(E), X.shape)",
    "E, X = torch.lobpcg(A, X=torch.randn(24, 3, dtype=torch.float64)); print(r(E), X.shape)",
    "E, X = torch.lobpcg(A, k=2, B=2 * torch.eye(24, dtype=torch.float64)); print(r(E))",
    "E, X = torch.lobpcg(A.float(), k=2); print(r(E, 2), E.dtype, X.dtype)",
    "E, X = torch.lobpcg(torch.stack([A, 3 * A]), k=2); print(E.shape, X.shape, r(E.flatten()))",
    "E, X = torch.lobpcg(A, k=2, method='basic'); print(r(E))",
    "E, X = torch.lobpcg(A, k=2, tol=1e-10, niter=200); print(r(E, 8))",
    "E, X = torch.lobpcg(A, k=2); print(torch.allclose(X.mT @ X, torch.eye(2, dtype=X.dtype), atol=1e-6))",
    "A1 = A.clone().requires_grad_(); E, X = torch.lobpcg(A1, k=2); E.sum().backward(); print(A1.grad.round(decimals=5)[:3, :3])",
    "A1 = A.clone().requires_grad_(); E, X = torch.lobpcg(A1, k=2); w = torch.arange(24., dtype=A.dtype); (X.pow(2) * w[:, None]).sum().backward(); print(A1.grad.round(decimals=4)[:3, :4])",
    "A1 = A.clone().requires_grad_(); E, X = torch.lobpcg(A1, k=2); print(E.grad_fn is not None, torch.allclose(A1.grad if A1.grad is not None else A1.detach(), A1.detach()))",
    "A1 = A.clone().requires_grad_(); E, X = torch.lobpcg(A1, k=2, B=torch.eye(24, dtype=A.dtype))\ntry:\n    E.sum().backward()\nexcept ValueError as e: print(e)",
    "try:\n    torch.lobpcg(torch.ones(5, 6), k=1)\nexcept AssertionError as e: print(e)",
    "try:\n    torch.lobpcg(A, k=9)\nexcept ValueError as e: print(e)",
    "try:\n    torch.lobpcg(A, k=2, B=torch.eye(23, dtype=A.dtype))\nexcept AssertionError as e: print(e)",
    "try:\n    torch.lobpcg(A, k=2, X=torch.randn(24, dtype=A.dtype))\nexcept ValueError as e: print(e)",
    "try:\n    torch.lobpcg(A, k=2, X=torch.randn(20, 2, dtype=A.dtype))\nexcept AssertionError as e: print(e)",
]]

SNIPPETS = HUB_SNIPPETS + LOWRANK_SNIPPETS + LOBPCG_SNIPPETS

BUGS = []

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS,
                                                                             at_least=90)
