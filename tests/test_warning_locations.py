"""Warnings name the user's line, as torch's do, whichever of ember's wrappers ran between
(NOTE [ Where warnings point ] in ember/_warn.py)."""
import inspect
import warnings

import pytest

import ember
from ember import _warn

F = ember.nn.functional


def _caught(call):
    """The warnings `call` gives, and the line number of the call inside it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = call()
    return caught, line


def _here():
    return inspect.currentframe().f_back.f_lineno


CASES = {
    # nn.functional behind the tensor-like and autocast wrappers
    "softmax without dim": lambda x: (F.softmax(x), _here())[1],
    "mse_loss of other shapes": lambda x: (F.mse_loss(x[0], x[:, :1]), _here())[1],
    "upsample": lambda x: (F.upsample(x[None, None], scale_factor=2), _here())[1],
    # a module's call, then nn.functional
    "Softmax module without dim": lambda x: (ember.nn.Softmax()(x), _here())[1],
    # a torch function behind the registry's argument checks
    "tensor of a tensor": lambda x: (ember.tensor(x), _here())[1],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_warning_names_the_callers_line(name):
    x = ember.ones(3, 4)
    caught, line = _caught(lambda: CASES[name](x))
    assert caught, name
    assert caught[0].filename == __file__ and caught[0].lineno == line, \
        (caught[0].filename, caught[0].lineno, line)


def test_warn_counts_stacklevel_as_warnings_warn_outside_ember():
    def library_function():
        _warn.warn("a warning for the caller", stacklevel=2)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        library_function(); line = _here()
    # (this file is not ember's: its frames count as warnings.warn counts them)
    assert caught[0].filename == __file__ and caught[0].lineno == line


def test_a_warning_once_names_the_users_line_too():
    ember._config._warned.discard("a test's once-only warning")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ember._config.warn_once("a test's once-only warning"); line = _here()
        ember._config.warn_once("a test's once-only warning")
    assert len(caught) == 1 and caught[0].filename == __file__ and caught[0].lineno == line
