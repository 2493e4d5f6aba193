"""Factories called with arguments that fit none of torch's signatures raise torch's
argument-parser TypeError (texts as torch 2.13 words them), never a result."""
import pytest

import ember

COMBINATION = "{}() received an invalid combination of arguments - got (), but expected one of:"


@pytest.mark.parametrize("name", ["rand", "randn", "randint", "randperm", "arange", "eye",
                                  "linspace", "logspace", "rand_like", "randn_like",
                                  "randint_like"])
def test_no_arguments_lists_the_signatures(name):
    with pytest.raises(TypeError) as info:
        getattr(ember, name)()
    lines = str(info.value).split("\n")
    assert lines[0] == COMBINATION.format(name)
    assert all(line.startswith(" * (") for line in lines[1:-1]) and lines[-1] == ""


def test_arange_without_bounds_is_an_error_not_an_empty_tensor():
    with pytest.raises(TypeError, match=r"^arange\(\) received an invalid combination"):
        ember.arange()
    assert ember.arange(end=3).tolist() == [0, 1, 2]
    assert ember.arange(1, 4).tolist() == [1, 2, 3]


def test_rand_signatures_in_torch_order():
    with pytest.raises(TypeError) as info:
        ember.rand()
    lines = str(info.value).split("\n")
    assert lines[1] == (" * (tuple of ints size, *, torch.Generator generator, Tensor out = None, "
                        "torch.dtype dtype = None, torch.layout layout = None, torch.device "
                        "device = None, bool pin_memory = False, bool requires_grad = False)")
    assert lines[2].startswith(" * (tuple of ints size, *, Tensor out = None, ")
    assert len(lines) == 4


@pytest.mark.parametrize("call, text", [
    (lambda: ember.full(), 'full() missing 2 required positional argument: "size", "fill_value"'),
    (lambda: ember.full((2,)), 'full() missing 1 required positional arguments: "fill_value"'),
    (lambda: ember.zeros_like(), 'zeros_like() missing 1 required positional arguments: "input"'),
    (lambda: ember.ones_like(), 'ones_like() missing 1 required positional arguments: "input"'),
    (lambda: ember.empty_like(), 'empty_like() missing 1 required positional arguments: "input"'),
    (lambda: ember.full_like(), 'full_like() missing 2 required positional argument: "input", '
                                '"fill_value"'),
    (lambda: ember.empty_strided(), 'empty_strided() missing 2 required positional argument: '
                                    '"size", "stride"'),
    (lambda: ember.tensor(), 'tensor() missing 1 required positional arguments: "data"'),
    (lambda: ember.as_tensor(), 'as_tensor() missing 1 required positional arguments: "data"'),
    (lambda: ember.as_tensor([1], ember.float64),
     "as_tensor() takes 1 positional argument but 2 were given"),
    (lambda: ember.rand(size=None), "rand(): argument 'size' must be tuple of ints, not NoneType"),
    (lambda: ember.randint(1.5, (2,)),
     "randint(): argument 'high' (position 1) must be int, not float"),
])
def test_single_signature_texts(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).split("\n")[0] == text


def test_two_plausible_signatures_list_both():
    with pytest.raises(TypeError) as info:
        ember.randn((2, 3), 4)
    assert str(info.value).startswith("randn() received an invalid combination of arguments - "
                                      "got (tuple, int), but expected one of:")


def test_valid_calls_unchanged():
    assert ember.randint_like(ember.ones(3), 5).shape == (3,)
    assert ember.randint_like(ember.ones(3), high=2).max().item() < 2
    assert ember.randint_like(ember.ones(3), 2, 4).min().item() >= 2
    assert ember.as_tensor([1, 2], dtype=ember.float64).dtype == ember.float64
    assert ember.full((2,), 3).tolist() == [3, 3]
    assert ember.randperm(n=3).shape == (3,)
    assert ember.randint(ember.tensor(5), (2,)).shape == (2,)
