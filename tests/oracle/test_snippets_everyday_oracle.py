"""Everyday API calls of training scripts, run under real torch and under ember
(`import ember as torch`): what each snippet prints, including an exception's type and first
line, must be identical.

jit/compile pass-throughs, version checks, flags and settings, dtype and device objects,
legacy tensor types, printing of common results (max/sort/topk namedtuples, optimizers,
schedulers, losses), autograd helpers. `tests/oracle/differential.py` runs each snippet.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = "torch.manual_seed(0); nn = torch.nn\n"

SNIPPETS = [SETUP + s for s in [
    'm = nn.Linear(2, 1); s = torch.jit.script(m); print(s(torch.ones(1, 2)))',
    'm = nn.Linear(2, 1); t = torch.jit.trace(m, torch.ones(1, 2)); print(t(torch.ones(3, 2)).shape)',
    'print(torch.jit.is_scripting(), torch.jit.is_tracing())',
    'f = torch.compile(lambda x: x.sin() + 1); print(f(torch.zeros(2)))',
    '@torch.compile\ndef g(x):\n    return x.relu()\nprint(g(torch.tensor([-1., 2.])))',
    '@torch.no_grad()\ndef f(x):\n    return x * 2\nprint(f(torch.ones(1, requires_grad=True)).requires_grad)',
    "print(torch.__version__ >= '2.0', type(torch.__version__).__name__)",
    'print(torch.cuda.is_available(), torch.backends.mps.is_available())',
    'print(torch.get_num_threads() >= 1)',
    'torch.set_printoptions(precision=2); print(torch.tensor([1.23456])); torch.set_printoptions(precision=4)',
    'print(torch.finfo(torch.float32).eps, torch.iinfo(torch.int8).max)',
    'print(torch.finfo().tiny, torch.finfo(torch.bfloat16))',
    'print(torch.get_default_dtype())',
    'x = torch.tensor([1., 2.]); print(torch.is_tensor(x), torch.is_storage(x), torch.numel(x))',
    "print(torch.device('cuda:1'), torch.device('cpu').type, torch.device('cuda', 0).index)",
    'print(torch.empty(2, 3).shape, torch.Size([2, 3]) == (2, 3), torch.Size([2, 3]).numel())',
    'print(torch.tensor(3).dim(), torch.tensor([]).shape, torch.tensor([[]]).shape)',
    'x = torch.arange(6).view(2, 3); print(x.tolist(), x.numpy().tolist())',
    'print(torch.tensor([1, 2]).type(), torch.tensor([1.]).type(), torch.tensor([1.]).double().type())',
    'print(torch.FloatTensor([1, 2]), torch.LongTensor([1]).dtype, torch.BoolTensor([1, 0]))',
    'print(torch.Tensor([1, 2]).dtype, torch.Tensor(2, 3).shape)',
    "print(torch.tensor([1.5]).cuda if False else 'ok')",
    'x = torch.randn(3, requires_grad=True); print(x.data.requires_grad, x.detach().requires_grad)',
    'x = torch.ones(2, requires_grad=True); y = x * 2; print(y.is_leaf, x.is_leaf, y.grad_fn.next_functions)',
    'with torch.autograd.set_detect_anomaly(True):\n    x = torch.ones(1, requires_grad=True); (x * 2).backward(); print(x.grad)',
    'print(torch.autograd.grad(torch.ones(1, requires_grad=True).exp().sum(), [torch.ones(1, requires_grad=True)], allow_unused=True))',
    'x = torch.tensor([1., 2.], requires_grad=True)\nprint(torch.autograd.functional.jacobian(lambda t: t ** 2, x))',
    'print(torch.utils.data.get_worker_info())',
    'print(torch.utils.checkpoint.checkpoint(lambda x: x * 2, torch.ones(2, requires_grad=True), use_reentrant=False))',
    'print(torch.Generator().device, torch.default_generator.initial_seed())',
    'print(torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark)',
    'torch.backends.cudnn.deterministic = True; print(torch.backends.cudnn.deterministic)',
    'torch.use_deterministic_algorithms(True); print(torch.are_deterministic_algorithms_enabled()); torch.use_deterministic_algorithms(False)',
    "print(torch.set_float32_matmul_precision('high'), torch.get_float32_matmul_precision())",
    'print(torch.nn.functional.relu(torch.tensor([-1.])), torch.relu(torch.tensor([1.])))',
    'print(torch.nn.Module().training, nn.Linear(1, 1).eval().training)',
    'print(torch.tensor([1, 2, 3]).float().mean(), torch.tensor([1, 2, 3]).sum().item())',
    'print(torch.zeros(3).new_ones(2), torch.ones(2).new_tensor([5, 6]))',
    'print(torch.as_tensor([1, 2]), torch.as_tensor(np.array([1., 2.])).dtype)',
    'x = torch.tensor([[1, 2], [3, 4]]); print(x.max(dim=1), x.argmax(), x.max(1).values)',
    'x = torch.tensor([[1., 2.], [3., 4.]]); v, i = x.max(0); print(v, i)',
    'print(torch.topk(torch.tensor([1., 5., 3.]), 2))',
    'print(torch.sort(torch.tensor([3, 1, 2]), descending=True))',
    "print(torch.tensor([1., 2.]).to('cpu'), torch.tensor([1]).to(torch.float16))",
    'print(torch.nn.functional.one_hot(torch.tensor([0, 2]), 3))',
    'print(torch.nn.functional.softmax(torch.tensor([1., 2.]), dim=0))',
    'print(torch.nn.functional.softmax(torch.tensor([1., 2.])))',
    'print(torch.clamp(torch.tensor([-2., 0.5, 3.]), min=0, max=1))',
    'print(repr(torch.float32), str(torch.int64), torch.float32.is_floating_point, torch.complex64.to_real())',
    'print(torch.uint8.is_signed, torch.bfloat16.itemsize)',
    'print(torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float32, torch.int32))',
    'print(nn.CrossEntropyLoss()(torch.tensor([[1., 2.]]), torch.tensor([1])))',
    'print(nn.MSELoss()(torch.tensor([1.]), torch.tensor([3.])))',
    'print(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1))',
    'print(torch.optim.Adam([torch.zeros(1, requires_grad=True)]))',
    'print(torch.optim.lr_scheduler.StepLR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1), 2).get_last_lr())',
    'x = torch.tensor(2.0, requires_grad=True); y = x ** 3; y.backward(); print(x.grad, y)',
    'x = torch.tensor(2.0, requires_grad=True); y = x ** 3\nprint(torch.autograd.grad(y, x, create_graph=True))',
    'print(torch.tensor([[1, 2], [3, 4]]) * torch.tensor([1, 2]))',
    'print(torch.mm(torch.ones(2, 3), torch.ones(3, 2)), torch.bmm(torch.ones(1, 2, 2), torch.ones(1, 2, 2)))',
    "print(torch.einsum('ij,jk->ik', torch.eye(2), torch.ones(2, 2)))",
    "print(torch.tensor([1., float('nan')]).nan_to_num(), torch.nansum(torch.tensor([1., float('nan')])))",
    'print(torch.cat((torch.ones(1), torch.zeros(2))), torch.vstack([torch.ones(2), torch.zeros(2)]))',
    'print(torch.squeeze(torch.ones(1, 2, 1)).shape, torch.unsqueeze(torch.ones(2), 0).shape)',
    'print(torch.flatten(torch.ones(2, 3, 4), 1).shape, torch.ones(2, 3).T.shape)',
    'print(torch.tensor([1, 2, 3])[torch.tensor([True, False, True])])',
    'print(torch.nonzero(torch.tensor([0, 1, 1])), torch.where(torch.tensor([0, 1]) > 0))',
    'print(torch.linalg.inv(torch.tensor([[2., 0.], [0., 4.]])), torch.det(torch.eye(2)))',
    'print(torch.allclose(torch.ones(2), torch.ones(2) + 1e-9), torch.equal(torch.ones(2), torch.ones(2)))',
    'print(torch.std(torch.tensor([1., 2., 3., 4.])), torch.var(torch.tensor([1., 2.]), unbiased=False))',
    'print(torch.numel(torch.ones(2, 3)), torch.ones(2, 3).size(1), torch.ones(2, 3).size(-1))',
    'print(torch.chunk(torch.arange(5), 2), torch.split(torch.arange(5), 2))',
]]

BUGS = [(reason, SETUP + s) for reason, s in [
    ("torch.compile's module output records CompiledFunctionBackward; ember runs eagerly",
     'm = torch.compile(nn.Linear(2, 1)); print(m(torch.ones(1, 2)))'),
]]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=70)
