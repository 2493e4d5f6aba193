"""torch's state_dict protocol: each module's `_save_to_state_dict` / `_load_from_state_dict`
(torch's signatures, so subclasses written for torch work), the state-dict and load hooks,
`_metadata` versions, forward hooks with always_call. Expected values recorded from torch 2.13
running the same code."""
import warnings

import pytest

import ember
from ember import nn


class Renamed(nn.Module):
    """A module that reads an older checkpoint layout, as torch code does it."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(ember.zeros(2))
        self.seen = []

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        if prefix + "old_w" in state_dict:
            state_dict[prefix + "w"] = state_dict.pop(prefix + "old_w")
        self.seen.append(dict(local_metadata))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "extra"] = ember.ones(1)


def test_overriding_save_and_load_with_torchs_signatures():
    m = nn.Sequential(Renamed())
    result = m.load_state_dict({"0.old_w": ember.tensor([1., 2.])}, strict=False)
    assert m[0].w.tolist() == [1.0, 2.0]
    assert repr(result) == "<All keys matched successfully>"
    assert m[0].seen == [{}]            # a plain dict has no _metadata
    sd = m.state_dict()
    assert list(sd) == ["0.w", "0.extra"]
    assert list(sd._metadata.items()) == [("", {"version": 1}), ("0", {"version": 1})]
    m2 = nn.Sequential(Renamed())
    m2.load_state_dict({"0.w": ember.ones(2), "0.extra": ember.ones(1)}, strict=False)
    # the saved metadata reaches the loading module, with assign's flag when asked
    m2[0].seen.clear()
    m2.load_state_dict(sd, strict=False, assign=True)
    assert m2[0].seen == [{"version": 1, "assign_to_params_buffers": True}]


def test_state_dict_pre_and_post_hooks():
    calls = []
    lin = nn.Linear(2, 2)
    lin.register_state_dict_pre_hook(lambda mod, prefix, keep_vars:
                                     calls.append(("pre", prefix, keep_vars)))
    lin.register_state_dict_post_hook(lambda mod, sd, prefix, meta:
                                      calls.append(("post", prefix, list(sd), dict(meta))))
    nn.Sequential(lin).state_dict(keep_vars=True)
    assert calls == [("pre", "0.", True), ("post", "0.", ["0.weight", "0.bias"],
                                           {"version": 1})]
    lin2 = nn.Linear(2, 2)
    lin2.register_state_dict_post_hook(lambda *a: {})
    with pytest.raises(RuntimeError, match="^state_dict post-hook must return None$"):
        lin2.state_dict()
    lin3 = nn.Linear(2, 2)
    lin3._register_state_dict_hook(lambda mod, sd, prefix, meta: {"x": 1})
    assert lin3.state_dict() == {"x": 1}        # the older private hook may replace it


def test_load_state_dict_hooks():
    seen = []
    lin = nn.Linear(2, 2)
    lin.register_load_state_dict_pre_hook(
        lambda mod, sd, prefix, meta, strict, mk, uk, em:
        seen.append((type(mod).__name__, sorted(sd), prefix, strict)))

    def post(mod, keys):
        seen.append(("post", list(keys.missing_keys), list(keys.unexpected_keys)))
        keys.missing_keys.clear()
        keys.unexpected_keys.clear()
    lin.register_load_state_dict_post_hook(post)
    result = lin.load_state_dict({"weight": ember.zeros(2, 2), "junk.x": ember.zeros(1),
                                  "weight.y": ember.zeros(1)})
    assert seen == [("Linear", ["junk.x", "weight", "weight.y"], "", True),
                    ("post", ["bias"], ["junk.x", "weight.y"])]
    assert result.unexpected_keys == [] and result.missing_keys == []
    lin2 = nn.Linear(2, 2)
    lin2.register_load_state_dict_post_hook(lambda m, k: 1)
    with pytest.raises(AssertionError, match="are not expected to return new values, if "
                       "incompatible_keys need to be modified, it should be done inplace."):
        lin2.load_state_dict(lin2.state_dict())


def test_one_element_checkpoint_loads_into_a_scalar():
    class Scalar(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("s", ember.tensor(0.))
    sc = Scalar()
    sc.load_state_dict({"s": ember.tensor([5.])})
    assert sc.s.item() == 5.0 and sc.s.shape == ()


def test_always_call_forward_hooks_run_when_forward_raises():
    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")
    b, called = Boom(), []
    b.register_forward_hook(lambda m, a, o: called.append(("always", o)), always_call=True)
    b.register_forward_hook(lambda m, a, o: called.append(("normal", o)))
    b.register_forward_hook(lambda m, a, k, o: called.append(("kw", k, o)), always_call=True,
                            with_kwargs=True)
    with pytest.raises(ValueError, match="boom"):
        b(1)
    assert called == [("always", None), ("kw", {}, None)]


def test_positional_state_dict_arguments_warn():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sd = nn.Linear(2, 2).state_dict(None, "p.")
    assert list(sd) == ["p.weight", "p.bias"]
    assert [(w.category, str(w.message)) for w in caught] == [(
        FutureWarning, "Positional args are being deprecated, use kwargs instead. Refer to "
        "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
        "#torch.nn.Module.state_dict for details.")]
