"""torch's limited unsigned dtypes uint16, uint32 and uint64 (NOTE [ Limited dtypes ] in
ember/_dtype.py): what works, and torch's errors for what does not."""
import io
import pickle
import zipfile

import numpy as np
import pytest

import ember

LIMITED = [ember.uint16, ember.uint32, ember.uint64]
NAMES = {ember.uint16: "UInt16", ember.uint32: "UInt32", ember.uint64: "UInt64"}


def _missing(kernel, d):
    return f"\"{kernel}\" not implemented for '{NAMES[d]}'"


# -- the dtypes --------------------------------------------------------------------------------

@pytest.mark.parametrize("d, bits", [(ember.uint16, 16), (ember.uint32, 32), (ember.uint64, 64)])
def test_the_dtypes_describe_themselves_as_torch(d, bits):
    assert repr(d) == str(d) == f"torch.uint{bits}"
    assert d.itemsize == bits // 8
    assert not d.is_floating_point and not d.is_signed and not d.is_complex
    assert d.to_real() is d
    with pytest.raises(RuntimeError, match=f"^Unknown Complex ScalarType for {NAMES[d]}$"):
        d.to_complex()
    info = ember.iinfo(d)
    assert (info.bits, info.min, info.max, info.dtype) == (bits, 0, 2 ** bits - 1, f"uint{bits}")
    assert pickle.loads(pickle.dumps(d)) is d


def test_iinfo_prints_its_max_with_six_digits():
    assert repr(ember.iinfo(ember.uint16)) == "iinfo(min=0, max=65535, dtype=uint16)"
    assert repr(ember.iinfo(ember.uint32)) == "iinfo(min=0, max=4.29497e+09, dtype=uint32)"
    assert repr(ember.iinfo(ember.uint64)) == "iinfo(min=0, max=1.84467e+19, dtype=uint64)"


def test_there_are_no_legacy_classes_but_type_takes_their_names():
    assert not hasattr(ember, "UInt16Tensor") and not hasattr(ember, "UInt16Storage")
    t = ember.tensor([1.5, 2.0]).type("torch.UInt32Tensor")
    assert t.dtype is ember.uint32 and t.tolist() == [1, 2]
    assert ember.tensor([1], dtype=ember.uint64).type() == "torch.UInt64Tensor"


# -- promotion ---------------------------------------------------------------------------------

@pytest.mark.parametrize("d", LIMITED)
def test_promotion_only_with_itself_and_floating_types(d):
    assert ember.promote_types(d, d) is d
    for f in (ember.float16, ember.bfloat16, ember.float32, ember.float64):
        assert ember.promote_types(d, f) is f and ember.promote_types(f, d) is f
    for other in (ember.bool, ember.uint8, ember.int8, ember.int64, ember.complex64,
                  *(u for u in LIMITED if u is not d)):
        with pytest.raises(RuntimeError) as e:
            ember.promote_types(other, d)
        assert str(e.value) == ("Promotion for uint16, uint32, uint64 types is not supported, "
                                f"attempted to promote {other._scalar_name} and {NAMES[d]}")


def test_result_type_keeps_torch_tiers():
    x = ember.tensor([1, 2], dtype=ember.uint16)
    assert ember.result_type(x, 1) is ember.uint16           # a Python int: same category
    assert ember.result_type(x, 1.5) is ember.float32
    assert ember.result_type(x, ember.tensor(1)) is ember.uint16
    assert ember.result_type(ember.tensor(1, dtype=ember.uint32), ember.tensor([1])) \
        is ember.int64
    with pytest.raises(RuntimeError, match="attempted to promote UInt16 and Long"):
        ember.result_type(x, ember.tensor([1]))
    with pytest.raises(RuntimeError, match="attempted to promote UInt16 and Long"):
        x * ember.tensor([2])
    with pytest.raises(RuntimeError, match="attempted to promote UInt16 and Long"):
        ember.cat([x, ember.tensor([3])])


# -- making, printing, converting ----------------------------------------------------------------

@pytest.mark.parametrize("d", LIMITED)
def test_factories(d):
    assert ember.tensor([1, 2, 3], dtype=d).tolist() == [1, 2, 3]
    assert ember.zeros(2, dtype=d).dtype is d and ember.ones(2, dtype=d).tolist() == [1, 1]
    assert ember.full((2,), 7, dtype=d).tolist() == [7, 7]
    assert ember.full((1,), -1, dtype=d).item() == 2 ** (8 * d.itemsize) - 1      # wraps
    assert ember.empty(2, 3, dtype=d).stride() == (3, 1)
    for fn, kernel in ((lambda: ember.arange(5, dtype=d), "arange_cpu"),
                       (lambda: ember.eye(2, dtype=d), "eye"),
                       (lambda: ember.linspace(0, 4, 5, dtype=d), "linspace_cpu")):
        with pytest.raises(NotImplementedError) as e:
            fn()
        assert str(e.value) == _missing(kernel, d)
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require"):
        ember.zeros(2, dtype=d).requires_grad_()


def test_tensor_checks_numbers_as_torch_reads_them():
    with pytest.raises(RuntimeError, match="^value cannot be converted to type uint16 without "
                                           "overflow$"):
        ember.tensor([70000], dtype=ember.uint16)
    assert ember.tensor([-1], dtype=ember.uint32).tolist() == [2 ** 32 - 1]
    assert ember.tensor([1.5, 2.7], dtype=ember.uint16).tolist() == [1, 2]
    # uint64 reads each number as an unsigned long long
    big = ember.tensor([2 ** 64 - 1, 0, True], dtype=ember.uint64)
    assert big.tolist() == [2 ** 64 - 1, 0, 1] and big[0].item() == 2 ** 64 - 1
    with pytest.raises(OverflowError, match="^can't convert negative int to unsigned$"):
        ember.tensor([-1], dtype=ember.uint64)
    with pytest.raises(TypeError, match="^an integer is required$"):
        ember.tensor([1.5], dtype=ember.uint64)
    with pytest.raises(OverflowError, match="^int too big to convert$"):
        ember.tensor([2 ** 64], dtype=ember.uint64)
    # the others read a long long
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        ember.tensor([2 ** 63], dtype=ember.uint32)
    with pytest.raises(TypeError, match="^'complex' object cannot be interpreted as an "
                                        "integer$"):
        ember.tensor([1j], dtype=ember.int16)
    with pytest.raises(TypeError, match="^must be real number, not complex$"):
        ember.tensor([1j], dtype=ember.float32)


def test_printing_names_the_dtype():
    assert repr(ember.tensor([1, 2], dtype=ember.uint16)) == \
        "tensor([1, 2], dtype=torch.uint16)"
    assert repr(ember.tensor([1, 4294967295], dtype=ember.uint32)) == \
        "tensor([         1, 4294967295], dtype=torch.uint32)"
    assert repr(ember.zeros(0, 3, dtype=ember.uint64)) == \
        "tensor([], size=(0, 3), dtype=torch.uint64)"


@pytest.mark.parametrize("d", LIMITED)
def test_numpy_both_ways_share_memory(d):
    a = np.array([1, 2], dtype=d._np)
    t = ember.from_numpy(a)
    assert t.dtype is d
    a[0] = 9
    assert t.tolist() == [9, 2]
    back = t.numpy()
    assert back.dtype == d._np
    back[1] = 7
    assert t.tolist() == [9, 7]
    assert t.element_size() == d.itemsize


def test_conversions_both_ways_wrap_as_torch():
    assert ember.tensor([-1]).to(ember.uint16).tolist() == [65535]
    assert ember.tensor([70000]).to(ember.uint16).tolist() == [4464]
    assert ember.tensor([2 ** 64 - 1], dtype=ember.uint64).to(ember.int64).tolist() == [-1]
    x = ember.tensor([1, 2], dtype=ember.uint32)
    assert x.float().dtype is ember.float32 and x.to(ember.uint64).dtype is ember.uint64
    assert x.view(ember.uint8).tolist() == [1, 0, 0, 0, 2, 0, 0, 0]


# -- the kernels torch has, and those it lacks ----------------------------------------------

@pytest.mark.parametrize("d", LIMITED)
def test_what_works(d):
    x = ember.tensor([1, 2, 3], dtype=d)
    assert (x * 2).tolist() == [2, 4, 6] and (x * 2).dtype is d
    assert (x * x).tolist() == [1, 4, 9]
    assert (x / 2).dtype is ember.float32
    assert (x == 2).tolist() == [False, True, False] and (x != 2).tolist() == [True, False, True]
    assert (x & 1).tolist() == [1, 0, 1] and (x | x).tolist() == [1, 2, 3]
    assert (x ^ x).tolist() == [0, 0, 0]
    assert x.sum().dtype is ember.int64 and x.sum().item() == 6
    assert x.prod().item() == 6 and x.cumsum(0).tolist() == [1, 3, 6]
    assert (x ** 0).tolist() == [1, 1, 1]
    values, indices = ember.tensor([3, 1, 2], dtype=d).sort()
    assert values.tolist() == [1, 2, 3] and indices.tolist() == [1, 2, 0]
    assert ember.cat([x, x]).tolist() == [1, 2, 3, 1, 2, 3]
    assert x[ember.tensor([0, 2])].tolist() == [1, 3]
    assert x[ember.tensor([True, False, True])].tolist() == [1, 3]
    cond = ember.tensor([True, False, True])
    assert ember.where(cond, x, x).dtype is d           # the bool condition is not promoted
    assert ember.where(cond, x, 0).tolist() == [1, 0, 3]
    assert ember.where(cond, x, 1.5).dtype is ember.float32
    x[0] = 5
    assert x.tolist() == [5, 2, 3]


@pytest.mark.parametrize("d", LIMITED)
@pytest.mark.parametrize("call, kernel", [
    (lambda x: x + 1, "add_stub"),
    (lambda x: x - x, "add_stub"),
    (lambda x: x.add_(1), "add_stub"),
    (lambda x: x // 2, "div_floor_cpu"),
    (lambda x: x % 2, "remainder_cpu"),
    (lambda x: ember.div(x, 2, rounding_mode="trunc"), "div_trunc_cpu"),
    (lambda x: x ** 2, "pow"),
    (lambda x: -x, "neg_cpu"),
    (lambda x: x.abs(), "abs_cpu"),
    (lambda x: x.sign(), "sign_cpu"),
    (lambda x: ~x, "bitwise_not_cpu"),
    (lambda x: x << 1, "lshift_cpu"),
    (lambda x: x < 2, "lt_cpu"),
    (lambda x: ember.maximum(x, x), "maximum_cpu"),
    (lambda x: ember.fmin(x, x), "minimum_cpu"),
    (lambda x: x.clamp(0, 1), "clamp_scalar_cpu"),
    (lambda x: x.clamp(min=1), "clamp_min_scalar_cpu"),
    (lambda x: ember.clamp(x, max=x), "minimum_cpu"),
    (lambda x: ember.nn.functional.relu(x), "clamp_min_scalar_cpu"),
    (lambda x: ember.logical_not(x), "logical_not_cpu"),
    (lambda x: ember.logical_and(x, x), "logical_and_cpu"),
    (lambda x: ember.gcd(x, x), "gcd_cpu"),
    (lambda x: x.max(), "max_all"),
    (lambda x: x.min(0), "min_cpu"),
    (lambda x: x.amax(), "max_values_cpu"),
    (lambda x: x.argmax(), "argmax_cpu"),
    (lambda x: x.sum(dtype=x.dtype), "sum_cpu"),
    (lambda x: x.cumsum(0, dtype=x.dtype), "cumsum_out_cpu"),
    (lambda x: ember.cummax(x, 0), "cummax_cpu"),
    (lambda x: x.topk(1), "topk_cpu"),
    (lambda x: x.median(), "median_cpu"),
    (lambda x: x.flip(0), "flip_cpu"),
    (lambda x: x.nonzero(), "nonzero_count_cpu"),
    (lambda x: x.count_nonzero(), "nonzero_count_cpu"),
    (lambda x: x.index_select(0, ember.tensor([0])), "index_select"),
    (lambda x: x.gather(0, ember.tensor([0])), "scatter_gather_tensor_cpu"),
    (lambda x: x.masked_fill(ember.tensor([True, False, True]), 0), "masked_fill"),
    (lambda x: x.masked_select(ember.tensor([True, False, True])), "masked_select"),
    (lambda x: x.__setitem__(ember.tensor([0]), 1), "index_put"),
    (lambda x: x.__setitem__(ember.tensor([True, False, True]), 1), "masked_fill"),
    (lambda x: x.dot(x), "dot"),
    (lambda x: x.reshape(3, 1).mm(x.reshape(1, 3)), "addmm_impl_cpu_"),
    (lambda x: x.reshape(3, 1).tril(), "tril"),
    (lambda x: x.trace(), "trace"),
    (lambda x: ember.searchsorted(x, x), "searchsorted_out_cpu"),
    (lambda x: ember.empty(2, dtype=x.dtype).random_(), "random_kernel_cpu"),
    (lambda x: ember.randperm(3, dtype=x.dtype), "randperm"),
])
def test_what_torch_lacks(d, call, kernel):
    x = ember.tensor([1, 2, 3], dtype=d)
    with pytest.raises(NotImplementedError) as e:
        call(x)
    assert str(e.value) == _missing(kernel, d)


def test_refusing_rules_take_the_limited_kind_and_others_unchanged():
    from ember._ops.elementwise import missing_kernel, refusing, same
    rule = missing_kernel("k", "bU")
    for d in LIMITED + [ember.bool]:
        with pytest.raises(NotImplementedError, match=f"^\"k\" not implemented for "
                                                      f"'{d._scalar_name}'$"):
            rule(d._np)
    for d in (ember.uint8, ember.int64, ember.float32):
        assert rule(d._np) == (d._np, d._np)
    first = refusing({"u": (RuntimeError, "all unsigned {type}"), "U": "never reached"}, same)
    with pytest.raises(RuntimeError, match="^all unsigned UInt32$"):
        first(ember.uint32._np)


def test_randint_draws_torch_stream():
    ember.manual_seed(0)
    # torch 2.x's values for this seed (the same draws as other integer dtypes)
    assert ember.randint(0, 100, (5,), dtype=ember.uint16).tolist() == [44, 39, 33, 60, 63]
    with pytest.raises(RuntimeError, match="^to - 1 is out of bounds for short unsigned int$"):
        ember.randint(0, 2 ** 33, (2,), dtype=ember.uint16)


# -- save and load -------------------------------------------------------------------------------

def test_save_writes_torch_rebuild_v3_and_loads_it_back():
    x = ember.tensor([[1, 2, 3], [4, 5, 65535]], dtype=ember.uint16)
    big = ember.tensor([2 ** 64 - 1, 7], dtype=ember.uint64)
    buf = io.BytesIO()
    ember.save({"x": x, "col": x[:, 1], "big": big, "dt": ember.uint32, "dt2": ember.uint32},
               buf)
    data = zipfile.ZipFile(io.BytesIO(buf.getvalue())).read("archive/data.pkl")
    assert b"_rebuild_tensor_v3" in data and b"torch.storage\nUntypedStorage" in data
    buf.seek(0)
    for weights_only in (True, False):
        buf.seek(0)
        loaded = ember.load(buf, weights_only=weights_only)
        assert loaded["x"].dtype is ember.uint16 and loaded["x"].tolist() == x.tolist()
        assert loaded["big"].tolist() == [2 ** 64 - 1, 7]
        assert loaded["dt"] is ember.uint32 and loaded["dt2"] is ember.uint32
        loaded["x"][0, 1] = 9                          # the column view shares the storage
        assert loaded["col"].tolist() == [9, 5] and loaded["col"].stride() == (3,)


def test_other_names_torch_gives_them():
    x = ember.tensor([1, 2], dtype=ember.uint16)
    assert ember.nn.functional.pad(x, (1, 1)).tolist() == [0, 1, 2, 0]
    with pytest.raises(RuntimeError, match="^value cannot be converted to type uint16_t without "
                                           "overflow$"):
        ember.nn.functional.pad(x, (1, 1), value=70000)
    with pytest.raises(RuntimeError, match=r"TensorOptions\(dtype=long unsigned int, "):
        ember.hann_window(3, dtype=ember.uint64)
