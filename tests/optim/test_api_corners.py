"""Corners of the optimizer and scheduler APIs where ember follows torch's rules (found by
tests/oracle/test_snippets_optim_api_oracle.py)."""
import pytest

import ember
from ember.optim import lr_scheduler as L


def _param():
    p = ember.nn.Parameter(ember.tensor([1.0, 2.0]))
    p.grad = ember.tensor([0.5, -1.0])
    return p


def test_deprecated_lrscheduler_name_is_a_subclass_not_an_alias():
    opt = ember.optim.SGD([_param()], lr=0.1)
    s = L.StepLR(opt, 2)
    assert L._LRScheduler is not L.LRScheduler
    assert issubclass(L._LRScheduler, L.LRScheduler)
    assert isinstance(s, L.LRScheduler) and not isinstance(s, L._LRScheduler)


@pytest.mark.parametrize("cls", [ember.optim.Adam, ember.optim.AdamW])
def test_adam_betas_are_stored_as_a_tuple(cls):
    opt = cls([_param()], betas=[0.8, 0.9])
    assert opt.param_groups[0]["betas"] == (0.8, 0.9)
    assert isinstance(opt.param_groups[0]["betas"], tuple)


@pytest.mark.parametrize("kwargs,message", [
    (dict(betas=(0, 0.99)), "betas must be either both floats or both Tensors"),
    (dict(betas=(ember.tensor(0.9), 0.99)), "betas must be either both floats or both Tensors"),
    (dict(betas=(ember.tensor(0.9), ember.tensor(0.99)), foreach=True),
     "betas[0] as a Tensor is not supported for capturable=False and foreach=True"),
    (dict(lr=ember.tensor(0.1), foreach=True),
     "lr as a Tensor is not supported for capturable=False and foreach=True"),
])
@pytest.mark.parametrize("cls", [ember.optim.Adam, ember.optim.AdamW])
def test_adam_refuses_mixed_or_unsupported_tensor_hyperparameters(cls, kwargs, message):
    with pytest.raises(ValueError) as info:
        cls([_param()], **kwargs)
    assert str(info.value) == message


def test_adam_with_tensor_betas_steps_like_float_betas():
    a, b = _param(), _param()
    ember.optim.Adam([a], lr=0.1, betas=(ember.tensor([0.5]), ember.tensor(0.9))).step()
    ember.optim.Adam([b], lr=0.1, betas=(0.5, 0.9)).step()
    assert a.tolist() == b.tolist()
    # capturable lets foreach take tensor betas
    opt = ember.optim.Adam([a], betas=(ember.tensor(0.5), ember.tensor(0.9)), foreach=True,
                           capturable=True)
    assert opt.param_groups[0]["betas"][0].shape == ()


def test_adam_reads_the_moments_before_the_step_counter():
    p = _param()
    opt = ember.optim.Adam([p], lr=0.1)
    opt.state[p]["custom"] = 1          # a state filled by hand, without the moments
    with pytest.raises(KeyError, match="exp_avg"):
        opt.step()


@pytest.mark.parametrize("name", ["Adadelta", "Adagrad", "Adam", "Adamax", "NAdam", "RAdam",
                                  "RMSprop", "Rprop"])
def test_a_step_counter_set_to_a_number_is_refused_with_torchs_text(name):
    p = _param()
    opt = getattr(ember.optim, name)([p])
    opt.step()
    opt.state[p]["step"] = 5
    with pytest.raises(RuntimeError, match="^API has changed, `state_steps` argument must "
                                           "contain a list of singleton tensors$"):
        opt.step()


@pytest.mark.parametrize("name,keys", [
    ("Adadelta", ["step"]), ("Adagrad", ["step"]), ("Adam", ["step"]), ("AdamW", ["step"]),
    ("Adamax", ["step"]), ("NAdam", ["step", "mu_product"]), ("RAdam", ["step"]),
    ("RMSprop", ["step"]), ("Rprop", ["step"]), ("ASGD", ["step", "eta", "mu"]),
    ("Adafactor", ["step"])])
def test_loading_plain_number_counters_turns_them_into_tensors(name, keys):
    """State dicts saved before torch 1.12 hold the step (and ASGD's eta and mu, NAdam's
    mu_product) as Python numbers; loading makes 0-dim float32 tensors of them."""
    p = _param()
    opt = getattr(ember.optim, name)([p])
    opt.step()
    sd = opt.state_dict()
    expected = {}
    for key in keys:
        expected[key] = sd["state"][0][key].item()
        sd["state"][0][key] = expected[key] if key != "step" else int(expected[key])
    opt.load_state_dict(sd)
    for key in keys:
        value = opt.state[p][key]
        assert isinstance(value, ember.Tensor) and value.shape == () and \
            value.dtype == ember.float32 and value.item() == expected[key]
    opt.step()
    assert opt.state[p]["step"].item() == 2


def test_a_plain_step_of_an_optimizer_without_counters_is_left_alone():
    p = _param()
    opt = ember.optim.SGD([p], lr=0.1, momentum=0.9)
    opt.step()
    sd = opt.state_dict()
    sd["state"][0]["step"] = 3
    opt.load_state_dict(sd)
    assert opt.state[p]["step"] == 3
