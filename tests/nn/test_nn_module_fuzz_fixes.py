"""nn.Module API corners found by a fuzzer of random module programs against torch (the
oracle twin is tests/oracle/test_snippets_module_fuzz_oracle.py); expected values here are
torch's, written out."""
import pytest

import ember as torch
from ember import nn


def test_container_errors_name_classes_by_torch_path():
    s = nn.Sequential(nn.ReLU())
    with pytest.raises(ValueError, match=r"^Non-positive multiplication factor 0 for "
                       r"<class 'torch\.nn\.modules\.container\.Sequential'>$"):
        s * 0
    with pytest.raises(TypeError, match=r"for \*: <class 'torch\.nn\.modules\.container\."
                       r"Sequential'> and <class 'float'>$"):
        s * 1.5
    with pytest.raises(ValueError, match=r"but <class 'torch\.nn\.modules\.container\."
                       r"ModuleList'> is given\.$"):
        s + nn.ModuleList()
    with pytest.raises(AssertionError, match=r"^module should be of type: "
                       r"<class 'torch\.nn\.modules\.module\.Module'>$"):
        s.insert(0, 3)


def test_load_state_dict_names_the_type_of_a_non_tensor_value():
    m = nn.Linear(1, 1)
    with pytest.raises(RuntimeError, match=r"received <class 'list'>"):
        m.load_state_dict({"weight": [[1.0]], "bias": torch.ones(1)})


def test_module_attributes_are_created_in_torchs_order():
    assert list(vars(nn.Identity())) == [
        "training", "_parameters", "_buffers", "_non_persistent_buffers_set",
        "_backward_pre_hooks", "_backward_hooks", "_is_full_backward_hook", "_forward_hooks",
        "_forward_hooks_with_kwargs", "_forward_hooks_always_called", "_forward_pre_hooks",
        "_forward_pre_hooks_with_kwargs", "_state_dict_hooks", "_state_dict_pre_hooks",
        "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks", "_modules"]


def test_parameter_dict_popitem_of_an_empty_dict():
    with pytest.raises(KeyError, match="popitem"):
        nn.ParameterDict().popitem()
    d = nn.ParameterDict({"a": torch.ones(1), "b": torch.zeros(2)})
    key, value = d.popitem()
    assert key == "b" and value.shape == (2,) and list(d.keys()) == ["a"]


class _Lines(nn.Module):
    def extra_repr(self):
        return "line1\n"


def test_blank_extra_repr_lines_stay_empty_in_a_module_but_are_padded_in_a_module_list():
    assert repr(nn.Sequential(_Lines())) == "Sequential(\n  (0): _Lines(\n    line1\n\n  )\n)"
    assert repr(nn.ModuleList([_Lines()])) == \
        "ModuleList(\n  (0): _Lines(\n    line1\n    \n  )\n)"


@pytest.mark.parametrize("args, kwargs", [(("cpu",), {"copy": True}), ((), {"copy": False}),
                                          ((torch.float64, False, False), {}),
                                          (("cpu", torch.float64, False, True), {}),
                                          ((float, False, True), {})])
def test_module_to_refuses_a_copy_argument(args, kwargs):
    with pytest.raises(RuntimeError, match=r"^\.to\(\) does not accept copy argument$"):
        nn.Linear(1, 1).to(*args, **kwargs)


def test_module_to_keeps_its_other_positional_forms():
    m = nn.Linear(1, 1).to("cpu", torch.float64, False)
    assert m.weight.dtype == torch.float64
    assert nn.Linear(1, 1).to(torch.float64, False).weight.dtype == torch.float64


def test_moving_a_meta_module_points_to_to_empty():
    m = nn.Linear(1, 1).to("meta")
    with pytest.raises(NotImplementedError, match=r"no data! Please use "
                       r"torch\.nn\.Module\.to_empty\(\) instead"):
        m.to("cpu")


def test_sequential_imul_copies_by_numbered_names():
    s = nn.Sequential(nn.ReLU(), nn.Tanh())
    s *= 3
    assert list(s._modules) == [str(i) for i in range(6)] and s[4] is s[0]
    s = nn.Sequential()
    s *= 3
    assert len(s) == 0
    s = nn.Sequential(nn.ReLU())
    s.add_module("x", nn.Tanh())
    with pytest.raises(KeyError, match="'1'"):
        s *= 2


def test_bfloat16_goes_through_the_tensor_method():
    m = nn.LazyLinear(2)
    with pytest.raises(ValueError, match="uninitialized parameter"):
        m.bfloat16()
    m = nn.LazyLinear(2).double()
    m(torch.ones(1, 3, dtype=torch.float64))
    assert m.weight.dtype == torch.float64
    m = nn.Linear(2, 2)
    m.register_buffer("i", torch.ones(2, dtype=torch.int64))
    m.bfloat16()
    assert (m.weight.dtype, m.i.dtype) == (torch.bfloat16, torch.int64)


def test_spectral_norm_records_its_version_in_the_metadata():
    m = nn.utils.spectral_norm(nn.Linear(2, 3))
    assert m.state_dict()._metadata[""] == {"version": 1, "spectral_norm": {"weight.version": 1}}
    s = nn.Sequential(m)
    assert s.state_dict()._metadata["0"]["spectral_norm"] == {"weight.version": 1}
    assert str(s.load_state_dict(s.state_dict())) == "<All keys matched successfully>"


def test_spectral_norm_reads_a_state_dict_of_before_version_1():
    torch.manual_seed(0)
    m = nn.utils.spectral_norm(nn.Linear(2, 3))
    m.eval()
    weight = m(torch.eye(2)).t() - m.bias[:, None]         # the normalized weight
    sd = dict(m.state_dict())
    v = sd.pop("weight_v")
    sd["weight"] = weight.detach()
    m.load_state_dict(sd)
    # v solved back from weight_orig, u and sigma = mean(weight_orig / weight)
    assert torch.allclose(m.weight_v, v, atol=1e-4)
    del sd["weight_u"]
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "weight_u"'):
        m.load_state_dict(sd)


def test_remove_spectral_norm_leaves_the_load_hook_as_torch_does():
    m = nn.utils.remove_spectral_norm(nn.utils.spectral_norm(nn.Linear(2, 3)))
    assert "spectral_norm" not in m.state_dict()._metadata[""]
    with pytest.raises(RuntimeError, match='"weight_orig", "weight_u"'):
        m.load_state_dict(m.state_dict())


def test_load_state_dict_assign_gives_a_loaded_parameter_the_modules_requires_grad():
    m = nn.Linear(2, 2)
    w = nn.Parameter(torch.zeros(2, 2), requires_grad=False)
    m.load_state_dict({"weight": w, "bias": torch.zeros(2)}, assign=True)
    assert m.weight is w and w.requires_grad
    m.weight.requires_grad_(False)
    w2 = nn.Parameter(torch.ones(2, 2))
    m.load_state_dict({"weight": w2, "bias": torch.zeros(2)}, assign=True)
    assert m.weight is w2 and not w2.requires_grad


def test_load_state_dict_of_a_tensor_names_torchs_tensor_class():
    with pytest.raises(TypeError, match=r"^Expected state_dict to be dict-like, got "
                       r"<class 'torch\.Tensor'>\.$"):
        nn.Linear(1, 1).load_state_dict(torch.ones(2))


def test_other_accelerator_moves_exist_and_fail_as_the_tensors_do():
    m = nn.ReLU()
    assert m.ipu() is m and m.xpu() is m and m.mtia() is m      # nothing to move
    with pytest.raises(RuntimeError, match="not linked with support for ipu"):
        nn.Linear(1, 1).ipu()
    with pytest.raises(AssertionError, match="not compiled with XPU"):
        nn.Linear(1, 1).xpu()


def test_dir_keeps_an_instance_attribute_that_shadows_a_method_twice():
    m = nn.Linear(1, 1)
    m.forward = lambda x: x
    assert [k for k in dir(m) if k == "forward"] == ["forward", "forward"]
    assert "weight" in dir(m) and "in_features" in dir(m)


class _Mul(nn.Module):
    def forward(self, a, b):
        return a * b


@pytest.mark.parametrize("result, error", [
    (lambda gi: (torch.zeros(3), None), "hook 'hook' has changed the size of value"),
    (lambda gi: (torch.zeros(2, dtype=torch.float64), None),
     r"hook 'hook' has changed the type of value \(was torch\.FloatTensor got "
     r"torch\.DoubleTensor\)"),
    (lambda gi: (gi[0], torch.zeros(3)), "changed the size"),     # b needs no grad: checked too
])
def test_full_backward_hook_results_are_checked(result, error):
    m = _Mul()
    m.register_full_backward_hook(lambda mod, gi, go: result(gi))
    a = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=error):
        m(a, torch.ones(2)).sum().backward()


def test_full_backward_hook_results_for_non_tensor_arguments_are_ignored():
    m = _Mul()
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 2, torch.zeros(1)))
    a = torch.ones(2, requires_grad=True)
    m(a, 3).sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]
    m = _Mul()
    m.register_full_backward_hook(lambda mod, gi, go: (5, None))
    with pytest.raises(TypeError, match="expected Variable, but hook returned 'int'"):
        m(torch.ones(2, requires_grad=True), torch.ones(2)).sum().backward()


def test_full_backward_pre_hook_results_are_checked_but_may_fill_a_missing_gradient():
    m = _Mul()
    m.register_full_backward_pre_hook(lambda mod, go: (torch.zeros(3),))
    with pytest.raises(RuntimeError, match="hook 'hook' has changed the size of value"):
        m(torch.ones(2, requires_grad=True), torch.ones(2)).sum().backward()

    class Two(nn.Module):
        def forward(self, a):
            return a * 2, a * 3
    m = Two()
    m.register_full_backward_pre_hook(lambda mod, go: (go[0], torch.ones(2)))
    a = torch.ones(2, requires_grad=True)
    m(a)[0].sum().backward()            # the second output got no gradient; the hook gives one
    assert a.grad.tolist() == [5.0, 5.0]


def test_backward_hook_results_are_checked_once_all_hooks_ran():
    m = _Mul()
    m.register_full_backward_hook(lambda mod, gi, go: (torch.zeros(3), None))
    m.register_full_backward_hook(lambda mod, gi, go: (torch.zeros(2), None))
    a = torch.ones(2, requires_grad=True)
    m(a, torch.ones(2)).sum().backward()        # the second hook mends the first's result
    assert a.grad.tolist() == [0.0, 0.0]
    m = _Mul()
    m.register_full_backward_hook(lambda mod, gi, go: (None, None))
    m.register_full_backward_hook(lambda mod, gi, go: (torch.zeros(3), None))
    with pytest.raises(RuntimeError, match="changed the size"):   # against the first gradient
        m(torch.ones(2, requires_grad=True), torch.ones(2)).sum().backward()


def test_embedding_padding_idx_checks():
    with pytest.raises(AssertionError, match="^Padding_idx must be within num_embeddings$"):
        nn.Embedding(4, 3, padding_idx=4)
    with pytest.raises(AssertionError, match="^padding_idx must be within num_embeddings$"):
        nn.EmbeddingBag(4, 3, padding_idx=-5)
    assert nn.EmbeddingBag(4, 3, padding_idx=-4).padding_idx == 0
    with pytest.raises(TypeError, match="'>' not supported"):       # compared with 0 first
        nn.Embedding(4, 3, padding_idx="3")
    with pytest.raises(RuntimeError, match="^padding_idx must be within the number of "
                       "embeddings, -4 through 3, but got 9$"):
        nn.functional.embedding_bag(torch.tensor([[0, 1]]), torch.ones(4, 3), padding_idx=9)


@pytest.mark.parametrize("dropout", [None, []])
def test_rnn_dropout_is_converted_to_float_first(dropout):
    with pytest.raises(TypeError, match=r"^float\(\) argument must be"):
        nn.GRU(3, 4, dropout=dropout)


def test_equal_names_a_non_tensor_input_first():
    with pytest.raises(TypeError, match=r"^equal\(\): argument 'input' \(position 1\) must be "
                       r"Tensor, not NoneType$"):
        torch.equal(None, None)


class _ToDouble(nn.Module):
    def forward(self, x):
        return x.double()


def test_remove_parametrizations_that_changed_a_parameters_dtype():
    P = nn.utils.parametrize
    m = nn.Linear(2, 2)
    P.register_parametrization(m, "weight", _ToDouble(), unsafe=True)
    with pytest.raises(RuntimeError, match="^Calling remove_parametrizations\\(\\) with "
                       "leave_parametrized=True for a parameter that is an instance of a "
                       "tensor subclass"):
        P.remove_parametrizations(m, "weight")
    m = nn.Linear(2, 2)
    m.register_buffer("b", torch.ones(2))
    P.register_parametrization(m, "b", _ToDouble(), unsafe=True)
    with pytest.raises(RuntimeError, match="^Could not set tensor of type double"):
        P.remove_parametrizations(m, "b")       # a plain tensor: set_'s own error


@pytest.mark.parametrize("make, name", [
    (lambda: nn.Conv2d(1), "Conv2d.__init__() missing 2 required positional arguments"),
    (lambda: nn.LazyConvTranspose1d(), "LazyConvTranspose1d.__init__() missing"),
    (lambda: nn.ReLU(True, 2), "ReLU.__init__() takes from 1 to 2 positional arguments"),
    (lambda: nn.CELU(bogus=1), "CELU.__init__() got an unexpected keyword argument 'bogus'"),
    (lambda: nn.BatchNorm2d(), "_BatchNorm.__init__() missing 1 required positional"),
    (lambda: nn.ReflectionPad2d(), "ReflectionPad2d.__init__() missing"),
    (lambda: nn.Softmin(1, 2), "Softmin.__init__() takes"),
    (lambda: nn.MaxUnpool3d(), "MaxUnpool3d.__init__() missing"),
])
def test_argument_errors_name_the_layers_own_init(make, name):
    with pytest.raises(TypeError, match="^" + name.replace("(", r"\(").replace(")", r"\)")):
        make()


def test_a_named_init_copy_still_builds_the_layer():
    m = nn.Conv2d(2, 4, 3, padding=1, bias=False)
    assert m.weight.shape == (4, 2, 3, 3) and m.bias is None and m.padding == (1, 1)
    assert nn.ReLU(inplace=True).inplace and nn.BatchNorm1d(3, affine=False).weight is None
    assert nn.Softmax(dim=1).dim == 1


def test_getstate_is_a_copy_of_the_instance_dict():
    m = nn.Linear(2, 2)
    state = m.__getstate__()
    assert state is not m.__dict__ and state == m.__dict__
    state["x"] = 1
    assert "x" not in m.__dict__


def test_layer_norm_eps_is_parsed_as_a_float_first():
    with pytest.raises(TypeError, match=r"^layer_norm\(\): argument 'eps' \(position 5\) must "
                       r"be float, not NoneType$"):
        nn.LayerNorm(3, eps=None)(torch.randn(2, 3))
    with pytest.raises(TypeError, match="must be float, not NoneType"):    # before the shapes
        nn.functional.layer_norm(torch.ones(2, 3), (4,), eps=None)
    with pytest.raises(TypeError, match="must be float, not Tensor"):
        nn.functional.layer_norm(torch.ones(2, 3), (3,), eps=torch.tensor([0.5]))
    x = torch.tensor([[0.0, 1.0, 2.0]])
    out = nn.functional.layer_norm(x, (3,), eps=torch.tensor(0.5))       # var 2/3, + 0.5
    expected = (x - 1) / (2 / 3 + 0.5) ** 0.5
    assert torch.allclose(out, expected)
