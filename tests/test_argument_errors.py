"""torch's argument-parser TypeErrors (ember/_ops/argument_errors.py): the texts torch 2.x
raises for calls whose arguments fit none of an operator's signatures, written out by hand."""
import numpy as np
import pytest

import ember


def _x():
    return ember.arange(6.).view(2, 3)


def _error(call):
    with pytest.raises(TypeError) as info:
        call()
    return str(info.value)


SUM_SIGNATURES = ("\n * (*, torch.dtype dtype = None)"
                  "\n * (tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)\n")


def test_no_plausible_or_several_signatures_list_them():
    head = "sum() received an invalid combination of arguments - got "
    assert _error(lambda: _x().sum("a")) == head + "(str), but expected one of:" + SUM_SIGNATURES
    assert _error(lambda: _x().sum(dim=1.0)) == \
        head + "(dim=float, ), but expected one of:" + SUM_SIGNATURES
    # a bool is not an int to torch's parser
    assert _error(lambda: _x().sum(True)) == head + "(bool), but expected one of:" + SUM_SIGNATURES
    assert _error(lambda: _x().prod((0, 1))).startswith(
        "prod() received an invalid combination of arguments - got (tuple), but expected one of:"
        "\n * (*, torch.dtype dtype = None)\n * (int dim, bool keepdim = False, *,")
    assert _error(lambda: _x().view(2.0, 3)) == (
        "view() received an invalid combination of arguments - got (float, int), but expected "
        "one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n")


def test_signatures_without_defaults_say_why_they_did_not_match():
    assert _error(lambda: _x().view("a")) == (
        "view() received an invalid combination of arguments - got (str), but expected one of:"
        "\n * (torch.dtype dtype)"
        "\n      didn't match because some of the arguments have invalid types: (!str!)"
        "\n * (tuple of ints size)"
        "\n      didn't match because some of the arguments have invalid types: (!str!)\n")
    assert _error(lambda: _x().max(foo=1)) == (
        "max() received an invalid combination of arguments - got (foo=int, ), but expected one "
        "of:\n * ()\n      didn't match because some of the keywords were incorrect: foo"
        "\n * (Tensor other)\n      didn't match because some of the keywords were incorrect: "
        "foo\n * (int dim, bool keepdim = False)\n")


def test_one_plausible_signature_names_the_argument():
    assert _error(lambda: _x().sum(0, 1)) == \
        "sum(): argument 'keepdim' (position 2) must be bool, not int"
    assert _error(lambda: _x().max(dim=0, keepdim=1)) == \
        "max(): argument 'keepdim' must be bool, not int"
    assert _error(lambda: _x().sum(0, keepdim=np.bool_(True))) == \
        "sum(): argument 'keepdim' must be bool, not numpy.bool"
    assert _error(lambda: _x().argmax(dim=(0, 1))) == \
        "argmax(): argument 'dim' must be int, not tuple"
    assert _error(lambda: _x().cumsum("a")) == \
        "cumsum(): argument 'dim' (position 1) must be int, not str"
    assert _error(lambda: _x().softmax(dim=1.0)) == \
        "softmax(): argument 'dim' must be int, not float"
    assert _error(lambda: _x().index_select(1, [0, 1])) == \
        "index_select(): argument 'index' (position 2) must be Tensor, not list"


def test_positions_count_input_in_the_function_form():
    assert _error(lambda: _x().index_select(1, "a")) == \
        "index_select(): argument 'index' (position 2) must be Tensor, not str"
    assert _error(lambda: ember.index_select(_x(), 1, "a")) == \
        "index_select(): argument 'index' (position 3) must be Tensor, not str"
    assert _error(lambda: ember.sum(_x(), dim=1.0)) == (
        "sum() received an invalid combination of arguments - got (Tensor, dim=float), but "
        "expected one of:\n * (Tensor input, *, torch.dtype dtype = None)"
        "\n * (Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = "
        "None, Tensor out = None)\n")


def test_missing_and_too_many_arguments():
    # torch's own plural: "arguments" for one missing argument, "argument" for several
    assert _error(lambda: _x().cumsum()) == \
        'cumsum() missing 1 required positional arguments: "dim"'
    assert _error(lambda: _x().index_select()) == \
        'index_select() missing 2 required positional argument: "dim", "index"'
    assert _error(lambda: _x().softmax()) == \
        'softmax() missing 1 required positional arguments: "dim"'
    assert _error(lambda: _x().sum(0, True, ember.float64)) == \
        "sum() takes from 1 to 2 positional arguments but 3 were given"
    assert _error(lambda: _x().cumsum(1, 2)) == \
        "cumsum() takes 1 positional argument but 2 were given"
    assert _error(lambda: _x().argmax(1, False, 3)) == \
        "argmax() takes from 0 to 2 positional arguments but 3 were given"


def test_an_unknown_keyword():
    assert _error(lambda: _x().cumsum(0, foo=1)) == \
        "cumsum() got an unexpected keyword argument 'foo'"
    assert _error(lambda: _x().view(shape=(6,))).startswith(
        "view() received an invalid combination of arguments - got (shape=tuple, ), but "
        "expected one of:\n * (torch.dtype dtype)\n      didn't match because some of the "
        "keywords were incorrect: shape\n")


def test_valid_calls_and_other_errors_are_unchanged():
    x = _x()
    assert x.sum(0, True).shape == (1, 3)
    assert x.sum(None, True).shape == (1, 1)
    assert x.sum(np.int64(1)).tolist() == [3., 12.]
    assert x.max(0, False).values.tolist() == [3., 4., 5.]
    assert x.view(ember.tensor(3), 2).shape == (3, 2)
    # an error that is not about the arguments' types keeps its own text
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.sum(2)
    with pytest.raises(RuntimeError, match="invalid for input of size 6"):
        x.view(4, 2)


@pytest.mark.parametrize("value, shown", [(3, "int"), ([1, 2], "list"), (None, "NoneType"),
                                          (2.5, "float")])
@pytest.mark.parametrize("call", [
    lambda v: ember.exp(v), lambda v: ember.sqrt(v), lambda v: ember.relu(v),
    lambda v: ember.sum(v), lambda v: ember.max(v), lambda v: ember.argmax(v),
    lambda v: ember.softmax(v, 0), lambda v: ember.flatten(v), lambda v: ember.t(v),
    lambda v: ember.clone(v), lambda v: ember.tril(v),
], ids=["exp", "sqrt", "relu", "sum", "max", "argmax", "softmax", "flatten", "t", "clone",
        "tril"])
def test_a_function_given_no_tensor_says_so_as_torch(call, value, shown):
    # torch's parser: "<fn>(): argument 'input' (position 1) must be Tensor, not <type>", where
    # ember's code would meet an AttributeError
    with pytest.raises(TypeError, match=r"^\w+\(\): argument 'input' \(position 1\) must be "
                                        rf"Tensor, not {shown}$"):
        call(value)


@pytest.mark.parametrize("call", [lambda a: ember.exp(a), lambda a: ember.sum(a),
                                  lambda a: ember.softmax(a, 0), lambda a: ember.t(a),
                                  lambda a: ember.add(a, 1), lambda a: ember.where(a > 0, a, 0)])
def test_functions_refuse_numpy_arrays_as_torch(call):
    # only the Python operators take a NumPy array (`t + a`); torch's functions refuse it
    with pytest.raises(TypeError, match="must be Tensor, not numpy.ndarray"):
        call(np.ones(2))


M, V, B = ember.ones(2, 2), ember.ones(2), ember.ones(1, 2, 2)


@pytest.mark.parametrize("call, text", [
    # torch numbers the argument by its place in the call: self is not counted in a method
    (lambda: ember.mm(M, 3), "mm(): argument 'mat2' (position 2) must be Tensor, not int"),
    (lambda: M.mm(3), "mm(): argument 'mat2' (position 1) must be Tensor, not int"),
    (lambda: ember.mm(M, mat2=None), "mm(): argument 'mat2' must be Tensor, not NoneType"),
    (lambda: ember.matmul(3, V), "matmul(): argument 'input' (position 1) must be Tensor, not int"),
    (lambda: ember.bmm(B, 2), "bmm(): argument 'mat2' (position 2) must be Tensor, not int"),
    (lambda: ember.mv(M, [1]), "mv(): argument 'vec' (position 2) must be Tensor, not list"),
    (lambda: V.dot(2), "dot(): argument 'tensor' (position 1) must be Tensor, not int"),
    (lambda: ember.outer(V, 2), "outer(): argument 'vec2' (position 2) must be Tensor, not int"),
    (lambda: V.kron(2), "kron(): argument 'other' (position 1) must be Tensor, not int"),
    # the add-product family checks its operands before touching them
    (lambda: ember.addmm(M, 1, M), "addmm(): argument 'mat1' (position 2) must be Tensor, not int"),
    (lambda: M.addmm(M, 1), "addmm(): argument 'mat2' (position 2) must be Tensor, not int"),
    (lambda: M.addmm_(1, M), "addmm_(): argument 'mat1' (position 1) must be Tensor, not int"),
    (lambda: ember.addmv(V, M, 1), "addmv(): argument 'vec' (position 3) must be Tensor, not int"),
    (lambda: M.addr(V, 1), "addr(): argument 'vec2' (position 2) must be Tensor, not int"),
    (lambda: M.addbmm(1, B), "addbmm(): argument 'batch1' (position 1) must be Tensor, not int"),
    (lambda: ember.baddbmm(B, B, 1),
     "baddbmm(): argument 'batch2' (position 3) must be Tensor, not int"),
    (lambda: ember.linalg.matmul(M, 1),
     "linalg_matmul(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: ember.linalg.vecdot(V, 1),
     "linalg_vecdot(): argument 'y' (position 2) must be Tensor, not int"),
    (lambda: ember.chain_matmul(M, 1), "expected Tensor as element 1 in argument 0, but got int"),
])
def test_products_name_a_non_tensor_operand_as_torch(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == text


@pytest.mark.parametrize("call, text", [
    (lambda: ember.isclose(ember.ones(2)),
     'isclose() missing 1 required positional arguments: "other"'),
    (lambda: ember.allclose(ember.ones(2)),
     'allclose() missing 1 required positional arguments: "other"'),
    (lambda: ember.equal(ember.ones(2)),
     'equal() missing 1 required positional arguments: "other"'),
    (lambda: ember.clamp(np.ones(2), 0, 1), "clamp() received an invalid combination of arguments - "
                                            "got (numpy.ndarray, int, int), but expected one of:"),
    (lambda: ember.clamp([1.0], 0, 1), "clamp() received an invalid combination of arguments - got "
                                       "(list, int, int), but expected one of:"),
])
def test_operators_with_keyword_catchalls_and_non_tensor_inputs(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).split("\n")[0] == text


ISIN_SIGNATURES = "".join(
    f"\n * ({a}, {b}, *, bool assume_unique = False, bool invert = False, Tensor out = None)"
    for a, b in (("Tensor elements", "Tensor test_elements"),
                 ("Number element", "Tensor test_elements"),
                 ("Tensor elements", "Number test_element"))) + "\n"


def test_isin_lists_its_three_signatures():
    head = "isin() received an invalid combination of arguments - got "
    t = ember.tensor([1, 2])
    assert _error(lambda: ember.isin(t, [1])) == \
        head + "(Tensor, list), but expected one of:" + ISIN_SIGNATURES
    assert _error(lambda: ember.isin(t, t, invert=1)) == \
        head + "(Tensor, Tensor, invert=int), but expected one of:" + ISIN_SIGNATURES
    assert ember.isin(t, 2).tolist() == [False, True]
    assert ember.isin(1, t).item() is True


_CLAMP_METHOD = ("(Tensor min = None, Tensor max = None)\n * (Number min = None, Number max = "
                 "None)\n")
_CLAMP_FUNCTION = ("(Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)"
                   "\n * (Tensor input, Number min = None, Number max = None, *, Tensor out = "
                   "None)\n")


@pytest.mark.parametrize("call, text", [
    # an action clipped to a gym Box's bounds, given as NumPy arrays
    (lambda a: a.clamp(np.zeros(2), np.ones(2)),
     "clamp() received an invalid combination of arguments - got (numpy.ndarray, "
     "numpy.ndarray), but expected one of:\n * (Tensor min = None, Tensor max = None)\n      "
     "didn't match because some of the arguments have invalid types: (!numpy.ndarray!, "
     "!numpy.ndarray!)\n * (Number min = None, Number max = None)\n      didn't match because "
     "some of the arguments have invalid types: (!numpy.ndarray!, !numpy.ndarray!)\n"),
    (lambda a: a.clamp("x"), "clamp() received an invalid combination of arguments - got "
     "(str), but expected one of:\n * " + _CLAMP_METHOD),
    (lambda a: a.clamp_(np.zeros(2)), "clamp_() received an invalid combination of arguments "
     "- got (numpy.ndarray), but expected one of:\n * " + _CLAMP_METHOD),
    (lambda a: a.clip([0, 1]), "clip() received an invalid combination of arguments - got "
     "(list), but expected one of:\n * " + _CLAMP_METHOD),
    (lambda a: ember.clip(a, [0, 1]), "clip() received an invalid combination of arguments - "
     "got (Tensor, list), but expected one of:\n * " + _CLAMP_FUNCTION),
    (lambda a: ember.clamp(a, np.zeros(2)), "clamp() received an invalid combination of "
     "arguments - got (Tensor, numpy.ndarray), but expected one of:\n * " + _CLAMP_FUNCTION),
])
def test_clamp_bounds_that_are_neither_tensors_nor_numbers(call, text):
    with pytest.raises(TypeError) as info:
        call(ember.zeros(2))
    assert str(info.value) == text


def test_clip_still_clips():
    a = ember.tensor([-2., 0.5, 3.])
    assert ember.clip(a, -1, 1).tolist() == [-1., 0.5, 1.]
    assert a.clip(max=1).tolist() == [-2., 0.5, 1.]
    assert ember.clip(a, ember.tensor(0.), ember.tensor(0.75)).tolist() == [0., 0.5, 0.75]
    assert a.clip_(0, 1) is a and a.tolist() == [0., 0.5, 1.]
