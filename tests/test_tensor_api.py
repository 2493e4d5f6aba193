"""The Tensor's attribute and method surface where it follows torch's less obvious rules:
transposes of 0-D tensors, assignable real/imag parts, conversions of complex numbers, the
errors of type/to/type_as/view_as/isclose/new_*/apply_/map_, masked ops' broadcast errors,
reflected division, in-place dtype errors, bool powers and copy_ from numbers."""
import re
import warnings

import numpy as np
import pytest

import ember


def exact(text):
    return "^" + re.escape(text) + "$"


# -- transposes -------------------------------------------------------------------------------

def test_mT_H_mH_of_a_0d_tensor_are_itself_or_its_conjugate():
    x = ember.tensor(2., requires_grad=True)
    assert x.mT is x and x.H is x and x.mH is x
    z = ember.tensor(1 + 2j)
    assert z.mT is z
    assert z.H.item() == 1 - 2j and z.mH.item() == 1 - 2j


def test_transpose_errors_name_the_property():
    with pytest.raises(RuntimeError, match=exact(
            "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.")):
        ember.ones(3).mH
    with pytest.raises(RuntimeError, match=exact(
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")):
        ember.ones(3).mT
    with pytest.raises(RuntimeError, match=exact(
            "tensor.H is only supported on matrices (2-D tensors). Got 1-D tensor.")):
        ember.ones(3).H
    with pytest.raises(RuntimeError, match=exact(
            "tensor.H is only supported on matrices (2-D tensors). Got 3-D tensor. For batches "
            "of matrices, consider using tensor.mH")):
        ember.ones(2, 3, 4).H


def test_H_of_a_real_matrix_is_a_transpose():
    x = ember.arange(6.).reshape(2, 3).requires_grad_()
    assert x.H.grad_fn.name() == "TransposeBackward0"
    assert x.H.stride() == (1, 3) and x.H.tolist() == [[0., 3.], [1., 4.], [2., 5.]]


def test_T_warns_once_per_process_in_two_texts(monkeypatch):
    monkeypatch.setattr(ember._config, "_warned", set())     # (torch's TORCH_WARN_ONCE)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ember.ones(2, 3, 4).T
        ember.ones(3).T
        ember.tensor(1.).T
        ember.tensor(2.).T
        ember.ones(2, 3).T
    texts = [str(w.message) for w in caught]
    assert len(texts) == 2
    assert texts[0].startswith("The use of `x.T` on tensors of dimension other than 2")
    assert texts[1] == ("Tensor.T is deprecated on 0-D tensors. This function is the identity "
                        "in these cases.")


def test_T_warns_every_time_under_warn_always_without_using_up_the_once(monkeypatch):
    # (as torch's TORCH_WARN_ONCE: under warn_always it warns and the once is still unused)
    monkeypatch.setattr(ember._config, "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ember.set_warn_always(True)
        try:
            ember.ones(3).T
            ember.ones(3).T
        finally:
            ember.set_warn_always(False)
        ember.ones(3).T
        ember.ones(3).T
    assert len(caught) == 3


# -- real and imag ------------------------------------------------------------------------------

def test_real_and_imag_can_be_assigned():
    x = ember.ones(2)
    x.real = ember.tensor([3., 4.])
    assert x.tolist() == [3., 4.]
    x.real = 5
    assert x.tolist() == [5., 5.]
    z = ember.tensor([1 + 1j, 2])
    z.imag = ember.tensor([3., 4.])
    assert z.tolist() == [1 + 3j, 2 + 4j]
    z.real = 0
    assert z.tolist() == [3j, 4j]
    with pytest.raises(TypeError, match=exact("can't assign a list to a torch.FloatTensor")):
        x.real = [1, 2]
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex"):
        x.imag = ember.ones(2)


# -- conversions to Python and NumPy --------------------------------------------------------------

def test_complex_with_no_imaginary_part_converts_to_int_and_float():
    assert float(ember.tensor(2 + 0j)) == 2.0
    assert int(ember.tensor(1.5 + 0j)) == 1
    with pytest.raises(RuntimeError, match=exact(
            "value cannot be converted to type double without overflow")):
        float(ember.tensor(1 + 1e-30j))
    with pytest.raises(RuntimeError, match=exact(
            "value cannot be converted to type int64_t without overflow")):
        int(ember.tensor(1 + 2j))


def test_numpy_refuses_positional_arguments_and_bfloat16_even_forced():
    with pytest.raises(TypeError, match=exact("numpy() takes 0 positional arguments but 1 was "
                                              "given")):
        ember.ones(2).numpy(True)
    with pytest.raises(TypeError, match=exact("Got unsupported ScalarType BFloat16")):
        ember.ones(2, dtype=ember.bfloat16).numpy(force=True)
    forced = ember.ones(2, requires_grad=True).numpy(force=True)
    assert forced.tolist() == [1., 1.]


# -- type, to, type_as, view_as -------------------------------------------------------------------

def test_type_refuses_what_is_no_type_name():
    x = ember.ones(2)
    with pytest.raises(TypeError, match=exact("dtype must be a type, str, or dtype object")):
        x.type(5)
    with pytest.raises(ValueError, match=exact("invalid type: 'int'")):
        x.type(int)
    with pytest.raises(ValueError, match=exact("invalid type: 'numpy.ndarray'")):
        x.type(np.ndarray)
    with pytest.raises(ValueError, match=exact("invalid type: 'Linear'")):
        x.type(ember.nn.Linear)
    with pytest.raises(ValueError, match=exact("invalid type: 'FloatTensor'")):
        x.type("FloatTensor")
    with pytest.raises(TypeError, match=exact("type() got an unexpected keyword argument 'foo'")):
        x.type(ember.float64, foo=1)
    assert ember.ones(2, dtype=ember.long).type(ember.Tensor).dtype == ember.float32
    assert x.type("torch.DoubleTensor").dtype == ember.float64


_TO_SIGNATURES = (
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n")


@pytest.mark.parametrize("args,kwargs,got", [
    ((ember.float32, ember.float64), {}, "(torch.dtype, torch.dtype)"),
    (("cpu", "cpu"), {}, "(str, str)"),
    ((ember.float64, "cpu"), {}, "(torch.dtype, str)"),
    ((ember.ones(1), ember.float64), {}, "(Tensor, torch.dtype)"),
    ((ember.float64,), {"dtype": ember.float64}, "(torch.dtype, dtype=torch.dtype)"),
    ((), {"foo": 1}, "(foo=int, )"),
    ((ember.float64, None), {}, "(torch.dtype, NoneType)"),
])
def test_to_refuses_arguments_fitting_no_signature(args, kwargs, got):
    with pytest.raises(TypeError) as info:
        ember.ones(2).to(*args, **kwargs)
    assert str(info.value) == (f"to() received an invalid combination of arguments - got {got}, "
                               f"but expected one of:\n" + _TO_SIGNATURES)


def test_to_binds_its_three_signatures():
    x = ember.ones(2)
    assert x.to(None, ember.float64).dtype == ember.float64
    assert x.to("cpu", dtype=ember.int8).dtype == ember.int8
    assert x.to(ember.float64, False, True).dtype == ember.float64
    assert x.to(tensor=ember.ones(1, dtype=ember.int32)).dtype == ember.int32
    assert x.to(int).dtype == ember.int64
    y = x.to(copy=True)
    assert y is not x and y.data_ptr() != x.data_ptr()


@pytest.mark.parametrize("name", ["type_as", "view_as", "reshape_as", "expand_as"])
def test_as_methods_take_only_a_tensor(name):
    with pytest.raises(TypeError, match=exact(
            f"{name}(): argument 'other' (position 1) must be Tensor, not int")):
        getattr(ember.ones(2), name)(3)
    with pytest.raises(TypeError, match=exact(
            f"{name}(): argument 'other' (position 1) must be Tensor, not torch.Size")):
        getattr(ember.ones(2), name)(ember.Size([2]))


# -- closeness and equality -----------------------------------------------------------------------

def test_isclose_allclose_equal_take_only_a_tensor_other():
    x = ember.ones(2)
    with pytest.raises(TypeError, match=exact(
            "isclose(): argument 'other' (position 1) must be Tensor, not float")):
        x.isclose(1.)
    with pytest.raises(TypeError, match=exact(
            "isclose(): argument 'other' (position 2) must be Tensor, not float")):
        ember.isclose(x, 1.)
    with pytest.raises(TypeError, match=exact(
            "allclose(): argument 'other' (position 1) must be Tensor, not float")):
        x.allclose(1.)
    with pytest.raises(TypeError, match=exact(
            "equal(): argument 'other' (position 2) must be Tensor, not list")):
        ember.equal(x, [1, 1])
    with pytest.raises(TypeError, match=exact(
            "equal(): argument 'other' (position 1) must be Tensor, not NoneType")):
        x.equal(None)
    assert x.equal(ember.ones(2)) and not x.equal(ember.ones(3))


def test_isclose_refuses_negative_tolerances():
    x = ember.ones(2)
    with pytest.raises(RuntimeError, match=exact(
            "rtol must be greater than or equal to zero, but got -1.5")):
        x.allclose(x, rtol=-1.5)
    with pytest.raises(RuntimeError, match=exact(
            "atol must be greater than or equal to zero, but got -1e-09")):
        ember.isclose(x, x, atol=-1e-9)
    assert x.isclose(x, 0, 0).tolist() == [True, True]


# -- new_* and the legacy new ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["new_zeros", "new_ones", "new_empty", "new_full"])
def test_new_factories_name_themselves_in_size_errors(name):
    args = (2.5, 1) if name == "new_full" else (2.5,)
    with pytest.raises(TypeError, match=exact(
            f"{name}(): argument 'size' (position 1) must be tuple of ints, not float")):
        getattr(ember.ones(2), name)(*args)


def test_new_from_a_tensor_of_another_dtype_prints_tensor_options():
    def options(cpp):
        return (f"TensorOptions(dtype={cpp}, device=cpu, layout=Strided, requires_grad=false "
                f"(default), pinned_memory=false (default), memory_format=(nullopt))")
    with pytest.raises(TypeError) as info:
        ember.ones(2).new(ember.tensor([1, 2], dtype=ember.float16))
    assert str(info.value) == f"expected {options('float')} (got {options('c10::Half')})"


# -- apply_ and map_ ------------------------------------------------------------------------------

def test_apply_converts_results_as_torch_does():
    x = ember.tensor([1, 2])
    x.apply_(lambda v: 2.9)
    assert x.tolist() == [2, 2]
    with pytest.raises(TypeError, match=exact("'str' object cannot be interpreted as an integer")):
        x.apply_(lambda v: "a")
    f = ember.tensor([1., 2.])
    with pytest.raises(TypeError, match=exact("must be real number, not NoneType")):
        f.apply_(lambda v: None)
    with pytest.raises(TypeError, match=exact("must be real number, not str")):
        f.apply_(lambda v: "1.5")
    f.apply_(lambda v: True)
    assert f.tolist() == [1., 1.]


def test_map_expands_the_other_tensor_with_torchs_error():
    x = ember.tensor([1., 2.])
    with pytest.raises(RuntimeError, match=exact(
            "The expanded size of the tensor (2) must match the existing size (3) at "
            "non-singleton dimension 0.  Target sizes: [2].  Tensor sizes: [3]")):
        x.map_(ember.tensor([1., 2., 3.]), lambda a, b: a)


# -- masked ops' broadcast errors -----------------------------------------------------------------

def test_masked_ops_name_the_mask_first_in_broadcast_errors():
    x, mask = ember.arange(4.), ember.tensor([True, False])
    text = ("The size of tensor a (2) must match the size of tensor b (4) at non-singleton "
            "dimension 0")
    with pytest.raises(RuntimeError, match=exact(text)):
        x.masked_fill(mask, 1.)
    with pytest.raises(RuntimeError, match=exact(text)):
        x.masked_scatter(mask, ember.ones(4))
    with pytest.raises(RuntimeError, match=exact(     # in place, the input is "a"
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
            "dimension 1")):
        ember.zeros(2, 3).masked_fill_(mask, 5)
    with pytest.raises(RuntimeError, match=exact(
            "The expanded size of the tensor (4) must match the existing size (2) at "
            "non-singleton dimension 0.  Target sizes: [4].  Tensor sizes: [2]")):
        x.masked_scatter_(mask, ember.ones(4))
    with pytest.raises(RuntimeError,
                       match=re.escape("expand(CPUBoolType{[3, 2, 2]}, size=[2, 2])")):
        ember.zeros(2, 2).masked_scatter_(ember.ones(3, 2, 2, dtype=ember.bool), ember.ones(12))


# -- operators ------------------------------------------------------------------------------------

def test_rdiv_and_idiv_exist_and_rsub_is_no_method():
    assert ember.tensor([4.]).__rdiv__(2).tolist() == [0.5]
    x = ember.tensor([4.])
    assert x.__idiv__(2) is x and x.tolist() == [2.]
    assert not hasattr(ember.ones(2), "rsub")
    assert ember.rsub(ember.ones(2), 3).tolist() == [2., 2.]


@pytest.mark.parametrize("op", ["__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"])
def test_inplace_bitwise_with_a_float_is_a_cast_error(op):
    x = ember.tensor([6, 7])
    with pytest.raises(RuntimeError, match=exact(
            "result type Float can't be cast to the desired output type Long")):
        getattr(x, op)(2.5)
    with pytest.raises(RuntimeError, match=exact(
            "result type Float can't be cast to the desired output type Long")):
        getattr(x, op)(ember.tensor([1., 2.]))


def test_bitwise_out_of_another_dtype_is_a_cast_error_and_floats_still_have_no_kernel():
    x = ember.tensor([6, 7])
    with pytest.raises(RuntimeError, match="result type Float can't be cast"):
        ember.bitwise_or(x, ember.tensor([1.]), out=x)
    with pytest.raises(NotImplementedError, match=exact(
            "\"bitwise_and_cpu\" not implemented for 'Float'")):
        ember.tensor([6., 7.]).__iand__(1)


def test_a_bool_tensor_to_a_bool_power():
    b = ember.tensor([True, False])
    assert b.pow(True).tolist() == [True, False] and b.pow(True).dtype == ember.bool
    assert b.pow(False).tolist() == [True, True]
    b **= False
    assert b.tolist() == [True, True]
    assert (ember.tensor([True]) ** 2).dtype == ember.int64
    with pytest.raises(NotImplementedError, match=exact("\"pow\" not implemented for 'Bool'")):
        ember.tensor([True]).pow(ember.tensor(True))


def test_integers_to_a_negative_int_power_are_refused_before_the_cast():
    # (-1 cast to uint8 would be 255: the check reads the number as given)
    for dtype in (ember.uint8, ember.int8, ember.int32, ember.uint16, ember.bool):
        x = ember.ones(2, dtype=dtype)
        for call in (lambda: x ** -1, lambda: x.pow(-3), lambda: x.pow_(-1)):
            with pytest.raises(RuntimeError, match=exact(
                    "Integers to negative integer powers are not allowed.")):
                call()
    # a tensor exponent is not checked; a float one makes a float result
    assert (ember.tensor([1, 0]) ** ember.tensor([-1, 2])).tolist() == [1, 0]
    assert (ember.tensor([2], dtype=ember.uint8) ** -1.0).tolist() == [0.5]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_special_powers_are_computed_as_torchs_formulas():
    # torch computes x ** 0.5, -0.5, -1, 2, 3, -2 of float and complex tensors as sqrt,
    # 1 / sqrt, 1 / x, x * x, x * x * x, 1 / (x * x), not as pow()
    x = ember.tensor([0.3, 1.5], dtype=ember.float32)
    a = np.array([0.3, 1.5], np.float32)
    assert (x ** 3).numpy().tolist() == (a * a * a).tolist()
    assert (x ** -0.5).numpy().tolist() == (np.float32(1) / np.sqrt(a)).tolist()
    assert (ember.tensor([3.0], dtype=ember.float64) ** -2).item() == 1 / 9.0
    # a complex zero to a negative power is a division by zero: inf+nanj, not nan+nanj
    z = ember.tensor([0j, 1.5 + 0j, -0.7 + 0j])
    for r in (z ** -1, z.reciprocal(), z.pow(-2), z.rsqrt(), z ** -0.5):
        v = r.numpy()[0]
        assert v.real == np.inf and np.isnan(v.imag)
    # 1 / z as a division keeps a +0.0 imaginary part (NumPy's reciprocal gives -0.0)
    assert np.signbit(z.reciprocal().numpy()[1].imag) == np.False_
    # the square root of a negative real is exactly imaginary (not exp(log(z) / 2))
    assert (z ** 0.5).numpy()[2].real == 0.0


# -- copy_ ----------------------------------------------------------------------------------------

def test_copy_takes_a_number_as_a_0d_tensor():
    assert ember.ones(2).copy_(1.5).tolist() == [1.5, 1.5]
    assert ember.ones(2, dtype=ember.long).copy_(1.5).tolist() == [1, 1]
    assert ember.ones(2, dtype=ember.uint8).copy_(300).tolist() == [44, 44]
    assert ember.ones(2).copy_(2 ** 63).tolist() == [2. ** 63] * 2
    with pytest.raises(OverflowError, match=exact("int too big to convert")):
        ember.ones(2).copy_(2 ** 70)
    with pytest.raises(OverflowError, match=exact("can't convert negative int to unsigned")):
        ember.ones(2).copy_(-2 ** 63 - 1)
    with pytest.raises(TypeError, match=exact(
            "copy_(): argument 'other' (position 1) must be Tensor, not numpy.ndarray")):
        ember.ones(2).copy_(np.ones(2))


def test_copy_node_name_is_torchs_cpp_name():
    x = ember.ones(2, requires_grad=True)
    y = ember.zeros(2)
    y.copy_(x)
    assert y.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert type(y.grad_fn).__name__ == "CopyBackwards"


def test_three_argument_pow_is_pythons_type_error():
    with pytest.raises(TypeError, match=exact(
            "unsupported operand type(s) for ** or pow(): 'Tensor', 'int', 'int'")):
        pow(ember.tensor([2]), 3, 5)
    assert pow(ember.tensor([2]), 3).tolist() == [8]
    assert (ember.tensor([2.]) ** 2).tolist() == [4.]


def test_inplace_abs_refuses_complex_and_adjoint_names_itself():
    z = ember.tensor([1 + 2j, -1j])
    for call in (z.abs_, z.absolute_, lambda: ember.abs_(z)):
        with pytest.raises(RuntimeError, match="^In-place abs is not supported for complex "
                                               "tensors.$"):
            call()
    assert ember.abs(z, out=z) is z and z.real.tolist() == [np.float32(5 ** 0.5), 1.0]
    with pytest.raises(RuntimeError, match=r"^tensor.adjoint\(\) is only supported on "
                                           r"matrices or batches of matrices. Got 1-D tensor.$"):
        ember.ones(3).adjoint()
    with pytest.raises(RuntimeError, match="^tensor.mH is only supported"):
        ember.ones(3).mH


def test_histogram_bins_are_an_int_or_a_tensor():
    x = ember.tensor([1.0, 2.0])
    for bins in (2.5, True, "a"):
        with pytest.raises(TypeError, match=r"^histogram\(\) received an invalid combination "
                                            r"of arguments - got \(Tensor, (float|bool|str)\)"):
            ember.histogram(x, bins)
    with pytest.raises(TypeError, match=r"got \(float\), but expected one of:\n"
                                        r" \* \(Tensor bins, \*, Tensor weight = None"):
        x.histogram(2.5)
    assert x.histogram(2).hist.tolist() == [1.0, 1.0]


def test_histogram_takes_100_bins_by_default():
    h = ember.arange(10.).histogram()
    assert h.hist.shape == (100,) and h.bin_edges.shape == (101,) and h.hist.sum().item() == 10
    assert h.bin_edges[0].item() == 0.0 and h.bin_edges[-1].item() == 9.0
