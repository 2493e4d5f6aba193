"""nn.Module API corners that the module-API oracle snippets found differing from torch:
named_modules' memo, set_submodule's check, full backward hooks' gradients for inputs that
need none and outputs that got none, ParameterDict.update's order and errors, ModuleDict.update
errors, Sequential * and *=, deepcopy of a Parameter."""
import copy
from collections import OrderedDict

import pytest

import ember as torch
from ember import nn


def test_named_modules_memo_holds_modules_and_skips_them():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.Linear(2, 2))
    assert [n for n, _ in seq.named_modules(memo={lin})] == ["", "1"]
    memo = set()
    list(seq.named_modules(memo))
    assert lin in memo and seq in memo


def test_set_submodule_wants_a_module():
    seq = nn.Sequential(nn.Linear(2, 2))
    with pytest.raises(ValueError, match=r"`module` is not an nn.Module, found <class 'int'>"):
        seq.set_submodule("0", 5)
