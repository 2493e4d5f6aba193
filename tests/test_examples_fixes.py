"""Fixes found by running programs written like pytorch/examples and d2l.ai under ember
(tests/oracle/test_snippets_examples_oracle.py compares them with torch); checked here against
values worked out by hand or with NumPy, so that runs without torch cover them."""
import numpy as np

import ember as torch


def test_float32_log10_and_log2_are_exact_at_powers_of_their_base():
    # PSNR = 10 * log10(1 / mse) printed 20.0000 for mse 0.01: NumPy's float32 log10 of 100 is
    # 2.0000002, torch's is 2.
    powers = torch.tensor([1e-3, 0.01, 1., 10., 100., 1000., 1e5])
    assert torch.log10(powers).tolist() == [-3., -2., 0., 1., 2., 3., 5.]
    assert (10 * torch.log10(1 / torch.tensor(0.01))).item() == 20.0
    assert torch.log2(torch.tensor([0.25, 8., 1024.])).tolist() == [-2., 3., 10.]
    # any float32 input: the float64 value rounded once
    x = np.random.default_rng(0).random(1000).astype(np.float32) * 50
    for name in ("log10", "log2"):
        expected = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
        assert np.array_equal(getattr(torch, name)(torch.from_numpy(x)).numpy(), expected)
    out = torch.tensor([100., 1000.]).log10_()
    assert out.dtype == torch.float32 and out.tolist() == [2., 3.]


def test_spmm_is_mm_for_sparse_and_dense_operands():
    i = torch.tensor([[0, 1, 1], [2, 0, 2]])
    s = torch.sparse_coo_tensor(i, torch.tensor([3., 4., 5.]), (2, 3))
    assert torch.spmm(s, torch.eye(3)).tolist() == [[0., 0., 3.], [4., 0., 5.]]
    x = torch.ones(2, 2, requires_grad=True)
    y = torch.spmm(x, torch.full((2, 2), 2.))
    assert y.tolist() == [[4., 4.], [4., 4.]] and type(y.grad_fn).__name__ == "MmBackward0"
    try:
        torch.spmm(torch.ones(2, 3), torch.ones(2, 2))
    except RuntimeError as e:
        assert str(e) == "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)"
    else:
        raise AssertionError("no error")
    assert not hasattr(torch.Tensor, "spmm")


def _type_error(fn):
    try:
        fn()
    except TypeError as e:
        return str(e)
    raise AssertionError("no TypeError")


_NORMAL_FORMS = """\
 * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)
 * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)
 * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)
 * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, \
Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, \
torch.device device = None, bool pin_memory = False, bool requires_grad = False)
"""


def test_normal_argument_errors_list_torchs_signatures():
    # d2l's torch.normal(0, 1, (n, len(w))) without its size, or a size with a tensor mean
    head = "normal() received an invalid combination of arguments - got "
    for call, got in [(lambda: torch.normal(0, 1), "(int, int)"),
                      (lambda: torch.normal(0, 1, 3), "(int, int, int)"),
                      (lambda: torch.normal(0., 1., size=3), "(float, float, size=int)"),
                      (lambda: torch.normal(torch.zeros(2), 1, (3,)), "(Tensor, int, tuple)"),
                      (lambda: torch.normal(0, 1, (2,), generator=3),
                       "(int, int, tuple, generator=int)"),
                      (lambda: torch.normal(0, 1, (2,), torch.float64),
                       "(int, int, tuple, torch.dtype)")]:
        assert _type_error(call) == head + got + ", but expected one of:\n" + _NORMAL_FORMS
    assert torch.normal(0, 1, [2, 3]).shape == (2, 3)
    assert torch.normal(0, 1, torch.Size([2]), generator=None).shape == (2,)


def test_normal_writes_its_out_argument():
    out = torch.empty(3, dtype=torch.float64)
    assert torch.normal(0, 1, (2,), out=out) is out
    assert out.shape == (2,) and out.dtype == torch.float64
    out = torch.empty(0)
    assert torch.normal(torch.zeros(2), torch.ones(2), out=out) is out and out.shape == (2,)


def test_legacy_constructor_errors_list_its_forms():
    forms = [" * (*, torch.device device = None)", " * (torch.Storage storage)",
             " * (Tensor other)", " * (tuple of ints size, *, torch.device device = None)",
             " * (object data, *, torch.device device = None)"]
    keyword = "      didn't match because some of the keywords were incorrect: "
    head = "new() received an invalid combination of arguments - got "
    text = _type_error(lambda: torch.FloatTensor([1, 2], dtype=torch.float64))
    assert text.splitlines() == [head + "(list, dtype=torch.dtype), but expected one of:",
                                 forms[0], keyword + "dtype"] + forms[1:]
    text = _type_error(lambda: torch.LongTensor(2, 3, requires_grad=True))
    assert text.splitlines() == [head + "(int, int, requires_grad=bool), but expected one of:"
                                 ] + forms[:4] + [keyword + "requires_grad", forms[4],
                                                  keyword + "requires_grad"]
    text = _type_error(lambda: torch.Tensor([1], [2]))
    assert text.splitlines()[:3] == [
        head + "(list, list), but expected one of:", forms[0],
        "      didn't match because some of the arguments have invalid types: "
        "(!list of [int]!, !list of [int]!)"]
    assert torch.FloatTensor(2, device="cpu").shape == (2,)
    assert torch.Tensor([1, 2], device="cpu").tolist() == [1., 2.]


def _error(fn):
    try:
        fn()
    except Exception as e:      # noqa: BLE001 - the error is the result
        return type(e).__name__, str(e)
    raise AssertionError("no error")


def test_tensor_of_tensors_of_several_elements_fails_as_its_dtype_converts():
    # torch infers the dtype of all leaves, then converts each: an int or bool result takes
    # a tensor as an index, a float or complex one as a Python number
    index = ("TypeError", "only integer tensors of a single element can be converted to an index")
    number = ("ValueError", "only one element tensors can be converted to Python scalars")
    pair = torch.tensor([1, 2])
    assert _error(lambda: torch.tensor([pair, torch.tensor([3, 4])])) == index
    assert _error(lambda: torch.tensor([torch.tensor([True, False])])) == index
    assert _error(lambda: torch.tensor([torch.tensor([1., 2.])], dtype=torch.int64)) == index
    assert _error(lambda: torch.tensor([pair, 1.5])) == number
    assert _error(lambda: torch.tensor([pair], dtype=torch.float32)) == number
    assert _error(lambda: torch.tensor([torch.tensor([1., 2.])])) == number
    assert torch.tensor([torch.tensor(1), torch.tensor(2.5)]).tolist() == [1., 2.5]
    assert torch.tensor([torch.tensor([[3]])]).tolist() == [3]


def _unpack(name, arg, pos, kind):
    return ("TypeError", f"{name}(): argument '{arg}' failed to unpack the object at pos {pos} "
                         f"with error \"type must be tuple of ints,but got {kind}\"")


def test_float_sizes_are_refused_not_truncated():
    # x.view(-1, n / 2): Python 3's true division gives a float, which torch's parser refuses
    x = torch.arange(6.)
    y = x.view(2, 3)
    assert _error(lambda: x.view(-1, 6 / 2)) == _unpack("view", "size", 2, "float")
    assert _error(lambda: y.t().view(3, 2.0)) == _unpack("view", "size", 2, "float")
    assert _error(lambda: x.view([2, "a"])) == _unpack("view", "size", 2, "str")
    assert _error(lambda: x.reshape([2, 1.5])) == _unpack("reshape", "shape", 2, "float")
    assert _error(lambda: y.t().reshape(3, 2.5)) == _unpack("reshape", "shape", 2, "float")
    assert _error(lambda: x.reshape(2, None)) == _unpack("reshape", "shape", 2, "NoneType")
    assert _error(lambda: y.expand(2, 2, 3.0)) == _unpack("expand", "size", 3, "float")
    assert _error(lambda: y.repeat(1, 2.0)) == _unpack("repeat", "repeats", 2, "float")
    assert _error(lambda: y.tile(2, 1.5)) == _unpack("tile", "dims", 2, "float")
    assert _error(lambda: x.permute(0, 1.5)) == _unpack("permute", "dims", 2, "float")
    # a first element that is no int: no int list at all
    assert _error(lambda: y.expand(2.0, 2, 3)) == (
        "TypeError", "expand() takes 1 positional argument but 3 were given")
    assert _error(lambda: y.repeat(2.5)) == (
        "TypeError", "repeat(): argument 'repeats' (position 1) must be tuple of ints, not float")
    assert _error(lambda: y.permute((1.0, 0))) == (
        "TypeError", "permute(): argument 'dims' (position 1) must be tuple of ints, but found "
                     "element of type float at pos 0")
    assert _error(lambda: x.reshape(None)) == (
        "TypeError", "reshape(): argument 'shape' (position 1) must be tuple of ints, not NoneType")
    # NumPy ints and 0-dim integer tensors are ints
    assert y.view(np.int64(3), 2).shape == (3, 2)
    assert y.t().reshape(torch.tensor(6)).shape == (6,)
    assert y.expand(2, np.int32(2), 3).shape == (2, 2, 3)
    assert y.repeat(torch.tensor(2), 1).shape == (4, 3)
    assert y.permute(np.int64(1), 0).shape == (3, 2)


def test_split_sizes_that_are_no_ints_are_refused():
    x = torch.arange(6.)
    assert _error(lambda: x.split([2, 4.0])) == _unpack("split_with_sizes", "split_sizes", 2,
                                                        "float")
    assert _error(lambda: x.split([2.0, 4])) == (
        "TypeError", "split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of "
                     "ints, but found element of type float at pos 0")
    assert [p.tolist() for p in x.split((np.int64(2), torch.tensor(4)))] == [[0., 1.],
                                                                              [2., 3., 4., 5.]]


def test_tensor_methods_take_no_out_and_numpy_reductions_fail_as_in_torch():
    x = torch.tensor([[1., 4.], [2., 3.]])
    # NumPy's np.mean(t) calls t.mean(axis=None, dtype=None, out=None)
    assert _error(lambda: np.mean(x)) == (
        "TypeError", "mean() got an unexpected keyword argument 'axis'")
    assert _error(lambda: np.max(x)) == (
        "TypeError", "max(): argument 'dim' must be int, not NoneType")
    assert _error(lambda: x.mean(0, out=None)) == (
        "TypeError", "mean() got an unexpected keyword argument 'out'")
    # an unknown keyword beside NumPy's names: torch names the first that is no parameter's
    assert _error(lambda: x.sum(axis=0, foo=1)) == (
        "TypeError", "sum() got an unexpected keyword argument 'axis'")
    assert _error(lambda: x.sum(foo=1, axis=0)) == (
        "TypeError", "sum() got an unexpected keyword argument 'foo'")
    assert _error(lambda: x.sum(0, axis=1)) == (
        "TypeError", "sum() got an unexpected keyword argument 'axis'")
    assert x.sum(axis=0, keepdims=True).tolist() == [[3., 7.]]
    assert torch.sum(x, axis=0, out=None).tolist() == [3., 7.]
    assert np.mean([torch.tensor(1.), torch.tensor(2.)]) == 1.5
