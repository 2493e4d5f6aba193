"""torch.nn.utils, run under real torch and under ember (`import ember as torch`): what each
snippet prints, including an exception's type and first line, must be identical.

Gradient clipping (norm types, non-finite norms, foreach, get_total_norm,
clip_grads_with_norm_), parameters_to_vector and back, weight_norm and spectral_norm (old and
parametrization forms), orthogonal, rnn padding/packing utilities, functional_call, fusion of
conv/linear with batch norm, skip_init. Snippets reach submodules by attribute (a `from torch
import` inside a snippet would bind real torch in both runs).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = "torch.manual_seed(0); nn = torch.nn; U = torch.nn.utils\n"

SNIPPETS = [SETUP + s for s in [
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.clip_grad_norm_(m.parameters(), 0.5)); print(m.weight.grad)',
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.clip_grad_norm_(m.parameters(), 0.5, norm_type=1))',
    "m = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.clip_grad_norm_(m.parameters(), 0.5, norm_type='inf'))",
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.clip_grad_norm_(m.parameters(), 100.0)); print(m.bias.grad)',
    'm = nn.Linear(3, 2); print(U.clip_grad_norm_(m.parameters(), 1.0))',
    "m = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); m.weight.grad[0, 0] = float('nan'); print(U.clip_grad_norm_(m.parameters(), 1.0))",
    "m = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); m.weight.grad[0, 0] = float('inf')\ntry:\n    U.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)\nexcept RuntimeError as e: print(e)",
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); U.clip_grad_value_(m.parameters(), 0.1); print(m.weight.grad)',
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.get_total_norm([p.grad for p in m.parameters()]))',
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); g = [p.grad for p in m.parameters()]; U.clip_grads_with_norm_(m.parameters(), 1.0, torch.tensor(4.0)); print(m.bias.grad)',
    'm = nn.Linear(3, 2); v = U.parameters_to_vector(m.parameters()); print(v.shape, v[:3])',
    'm = nn.Linear(3, 2); U.vector_to_parameters(torch.arange(8.), m.parameters()); print(m.weight, m.bias)',
    'm = nn.Linear(3, 2)\ntry:\n    U.vector_to_parameters(torch.arange(8.).reshape(2, 4), m.parameters())\nexcept TypeError as e: print(e)',
    'm = U.weight_norm(nn.Linear(3, 2)); print(sorted(n for n, _ in m.named_parameters())); print(m.weight_g.shape, m.weight_v.shape)',
    'm = U.weight_norm(nn.Linear(3, 2), dim=None); print(m.weight_g)',
    'm = U.weight_norm(nn.Linear(3, 2)); m = U.remove_weight_norm(m); print(sorted(n for n, _ in m.named_parameters()))',
    'm = U.parametrizations.weight_norm(nn.Linear(3, 2)); print(m); print(sorted(m.state_dict()))',
    'm = U.parametrizations.weight_norm(nn.Linear(3, 2)); print(m.parametrizations.weight.original0)',
    'm = U.spectral_norm(nn.Linear(3, 2)); print(sorted(n for n, _ in m.named_parameters())); print(sorted(n for n, _ in m.named_buffers()))',
    'm = U.spectral_norm(nn.Linear(4, 3)); x = torch.randn(2, 4); print(m(x))',
    'm = U.parametrizations.spectral_norm(nn.Linear(4, 3)); print(round(torch.linalg.matrix_norm(m.weight, 2).item(), 4))',
    'm = U.parametrizations.orthogonal(nn.Linear(3, 3)); w = m.weight; print(torch.allclose(w @ w.T, torch.eye(3), atol=1e-5))',
    'R = torch.nn.utils.rnn; print(R.pad_sequence([torch.ones(2), torch.ones(3) * 2, torch.ones(1)]))',
    'R = torch.nn.utils.rnn; print(R.pad_sequence([torch.ones(2), torch.ones(3) * 2], batch_first=True, padding_value=-1))',
    "R = torch.nn.utils.rnn; print(R.pad_sequence([torch.ones(2), torch.ones(3) * 2], batch_first=True, padding_side='left'))",
    'R = torch.nn.utils.rnn; p = R.pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])]); print(p)',
    'from torch.nn.utils.rnn import pack_sequence\ntry:\n    R.pack_sequence([torch.tensor([1]), torch.tensor([4, 5])])\nexcept RuntimeError as e: print(e)',
    'R = torch.nn.utils.rnn; p = R.pack_sequence([torch.tensor([1]), torch.tensor([4, 5])], enforce_sorted=False); print(p)',
    'R = torch.nn.utils.rnn; x = torch.arange(12.).reshape(3, 4, 1); p = R.pack_padded_sequence(x, [4, 2, 1], batch_first=True); print(p.batch_sizes); out, lens = R.pad_packed_sequence(p, batch_first=True, total_length=5); print(out.squeeze(-1), lens)',
    'R = torch.nn.utils.rnn; x = torch.zeros(3, 4)\ntry:\n    R.pack_padded_sequence(x, [0, 2, 1], batch_first=True, enforce_sorted=False)\nexcept RuntimeError as e: print(e)',
    'R = torch.nn.utils.rnn; x = torch.zeros(3, 4)\ntry:\n    R.pack_padded_sequence(x, [1, 2, 3], batch_first=True)\nexcept RuntimeError as e: print(e)',
    'R = torch.nn.utils.rnn; s = [torch.ones(2), torch.ones(3)]; print(R.unpad_sequence(R.pad_sequence(s, batch_first=True), torch.tensor([2, 3]), batch_first=True))',
    'R = torch.nn.utils.rnn; print(R.unpack_sequence(R.pack_sequence([torch.tensor([1, 2]), torch.tensor([3])])))',
    'R = torch.nn.utils.rnn; p = R.pack_sequence([torch.tensor([1., 2.]), torch.tensor([3.])]); print(p.data, p.sorted_indices, p.unsorted_indices, p.is_cuda)',
    'R = torch.nn.utils.rnn; p = R.pack_sequence([torch.tensor([1., 2.]), torch.tensor([3.])]); print(p.to(torch.float64).data.dtype, type(p).__name__, isinstance(p, tuple))',
    "functional_call = torch.func.functional_call; m = nn.Linear(2, 1); print(functional_call(m, {'weight': torch.ones(1, 2), 'bias': torch.zeros(1)}, (torch.tensor([[1., 2.]]),)))",
    "functional_call = torch.nn.utils.stateless.functional_call; m = nn.Linear(2, 1); print(functional_call(m, {'weight': torch.ones(1, 2)}, torch.tensor([[1., 2.]])) - m.bias)",
    'm = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2)).eval(); m[1].running_mean += 0.5; f = torch.nn.utils.fusion.fuse_conv_bn_eval(m[0], m[1]); x = torch.randn(1, 1, 5, 5); print(torch.allclose(f(x), m(x), atol=1e-6))',
    'm = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2)).eval(); f = torch.nn.utils.fusion.fuse_linear_bn_eval(m[0], m[1]); x = torch.randn(4, 3); print(torch.allclose(f(x), m(x), atol=1e-6))',
    'm = U.skip_init(nn.Linear, 3, 2); print(m.weight.shape)',
    'm = nn.Linear(3, 2); print(U.parameters_to_vector(m.parameters()).requires_grad)',
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.clip_grad_norm_(m.weight, 0.1)); print(m.weight.grad.norm())',
    'print(U.clip_grad_norm_([], 1.0))',
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.clip_grad_norm_(m.parameters(), 0.5, foreach=True))',
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); print(U.clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type=3.0))',
    "m = U.parametrize.register_parametrization(nn.Linear(2, 2), 'weight', nn.Identity()); print(type(m).__name__, U.parametrize.is_parametrized(m), U.parametrize.is_parametrized(m, 'bias'))",
    'print(torch.nn.utils.convert_conv2d_weight_memory_format(nn.Conv2d(2, 2, 3), torch.channels_last).weight.is_contiguous(memory_format=torch.channels_last))',
    'm = nn.Linear(3, 2); m(torch.randn(4, 3)).sum().backward(); U.clip_grad_value_(m.parameters(), clip_value=-1)\nprint(m.bias.grad)',
    'print(torch.nn.utils.rnn.invert_permutation(torch.tensor([2, 0, 1])))',
    'm = nn.Linear(3, 2); print(U.parametrize.type_before_parametrizations(m).__name__)',
    "m = nn.LSTM(2, 3); m = U.weight_norm(m, 'weight_hh_l0'); print(m.weight_hh_l0_g.shape)",
]]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, at_least=50)
