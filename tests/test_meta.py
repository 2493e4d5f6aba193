"""The meta device (NOTE [ The meta backend ]): tensors with a shape, a dtype and strides but no
data. Expected values are worked out by hand from torch's rules."""
import io
import pickle
import warnings

import pytest

import ember as torch
from ember import nn
from ember.nn import functional as F


def meta(*shape, **kwargs):
    return torch.empty(*shape, device="meta", **kwargs)


def geometry(t):
    return tuple(t.shape), t.dtype, t.stride(), t.device.type


def test_factories_make_meta_tensors_without_memory():
    t = torch.empty(10 ** 6, 10 ** 6, device="meta")
    assert t.is_meta and t.device == torch.device("meta") and t.get_device() == -1
    assert t.numel() == 10 ** 12 and t.stride() == (10 ** 6, 1) and t.nbytes == 4 * 10 ** 12
    assert geometry(torch.zeros(2, 3, device="meta", dtype=torch.int32)) == \
        ((2, 3), torch.int32, (3, 1), "meta")
    assert geometry(torch.full((2,), 7, device="meta")) == ((2,), torch.int64, (1,), "meta")
    assert geometry(torch.arange(0, 1, 0.25, device="meta")) == ((4,), torch.float32, (1,), "meta")
    assert geometry(torch.eye(2, 4, device="meta")) == ((2, 4), torch.float32, (4, 1), "meta")
    assert geometry(torch.empty_strided((2, 3), (1, 2), device="meta"))[2] == (1, 2)
    assert not torch.ones(1).is_meta


def test_random_factories_draw_nothing():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    torch.randn(10 ** 9, device="meta")
    torch.randint(0, 5, (3,), device="meta")
    nn.Linear(10 ** 5, 10 ** 5, device="meta")
    assert torch.equal(torch.rand(3), expected)


def test_default_device_and_to():
    with torch.device("meta"):
        t = torch.ones(2)
    assert t.is_meta and not torch.ones(1).is_meta
    torch.set_default_device("meta")
    try:
        assert torch.zeros(3).is_meta
    finally:
        torch.set_default_device(None)
    m = torch.ones(2, 3).t().to("meta")
    assert geometry(m) == ((3, 2), torch.float32, (1, 3), "meta")
    assert m.to("meta") is m
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor; no data!"):
        m.cpu()


def test_printing():
    assert repr(meta(2, 3)) == "tensor(..., device='meta', size=(2, 3))"
    assert repr(meta(2, dtype=torch.float64)) == \
        "tensor(..., device='meta', size=(2,), dtype=torch.float64)"
    assert repr(nn.Parameter(meta(2))) == \
        "Parameter containing:\ntensor(..., device='meta', size=(2,), requires_grad=True)"


def test_values_are_refused_with_torchs_errors():
    m = meta(2, 3)
    with pytest.raises(RuntimeError, match="a Tensor with 6 elements cannot be converted"):
        m.item()
    for convert in (bool, int, float, lambda t: t.item()):
        with pytest.raises(RuntimeError, match=r"Tensor.item\(\) cannot be called on meta"):
            convert(meta(()))
    with pytest.raises(NotImplementedError, match="no data"):
        m.tolist()
    with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
        m.numpy()
    with pytest.raises(NotImplementedError, match="torch.nonzero"):
        m.nonzero()
    with pytest.raises(NotImplementedError, match="torch.nonzero"):
        m[m > 0]
    with pytest.raises(NotImplementedError, match="aten::masked_select: attempted to run"):
        torch.masked_select(m, m > 0)
    with pytest.raises(NotImplementedError, match="aten::_unique2"):
        m.unique()
    with pytest.raises(NotImplementedError, match="aten::equal"):
        torch.equal(m, m)
    with pytest.raises(RuntimeError, match="cannot repeat_interleave a meta tensor"):
        m.repeat_interleave(meta(2, dtype=torch.int64), dim=0)


def test_devices_do_not_mix():
    with pytest.raises(RuntimeError, match="Tensor on device cpu is not on the expected device "
                                           "meta!"):
        meta(2, 3) + torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="Tensor on device meta is not on the expected device "
                                           "cpu!"):
        torch.ones(2, 3) + meta(2, 3)
    assert (meta(3) * torch.tensor(2.)).is_meta        # a CPU scalar tensor may mix
    with pytest.raises(RuntimeError, match=r"Attempting to broadcast a dimension of length 4 at "
                                           r"-1! Mismatching argument at index 1 had "
                                           r"torch.Size\(\[4\]\); but expected shape should be "
                                           r"broadcastable to \[2, 5, 3\]"):
        meta(5, 3) + meta(2, 1, 3) + meta(4)


def test_ops_give_torchs_geometry():
    m = meta(2, 3)
    assert geometry(m + meta(4, 1, 1)) == ((4, 2, 3), torch.float32, (6, 3, 1), "meta")
    assert geometry(m.int() / 2)[1] == torch.float32
    assert geometry(m.t().exp()) == ((3, 2), torch.float32, (1, 3), "meta")
    assert geometry(m.sum(1, keepdim=True)) == ((2, 1), torch.float32, (1, 1), "meta")
    assert geometry(m.bool().sum()) == ((), torch.int64, (), "meta")
    values, indices = m.max(1)
    assert geometry(indices) == ((2,), torch.int64, (1,), "meta")
    assert geometry(m @ m.t()) == ((2, 2), torch.float32, (2, 1), "meta")
    assert geometry(meta(5, 2, 3) @ meta(3, 4)) == ((5, 2, 4), torch.float32, (8, 4, 1), "meta")
    big = meta(4096, 4096) @ meta(4096, 10 ** 5)
    assert big.shape == (4096, 10 ** 5)
    assert geometry(m[:, ::2]) == ((2, 2), torch.float32, (3, 2), "meta")
    assert m[:, 1:].storage_offset() == 1
    assert geometry(m.t().reshape(6)) == ((6,), torch.float32, (1,), "meta")
    assert geometry(torch.cat([m, m], 1)) == ((2, 6), torch.float32, (6, 1), "meta")
    assert geometry(m[torch.tensor([0, 1, 1], device="meta")]) == \
        ((3, 3), torch.float32, (3, 1), "meta")
    assert geometry(F.conv2d(meta(1, 3, 8, 8), meta(4, 3, 3, 3), stride=2, padding=1)) == \
        ((1, 4, 4, 4), torch.float32, (64, 16, 4, 1), "meta")
    assert geometry(F.cross_entropy(m, meta(2, dtype=torch.int64))) == \
        ((), torch.float32, (), "meta")
    with pytest.raises(RuntimeError, match=r"a and b must have same reduction dim, but got "
                                           r"\[2, 3\] X \[2, 3\]."):
        m @ m


def test_autograd_on_meta():
    layer = nn.Linear(2, 3, device="meta")
    x = torch.randn(5, 2, device="meta", requires_grad=True)
    y = layer(x).relu().sum()
    assert type(y.grad_fn).__name__ == "SumBackward0"
    y.backward()
    assert geometry(x.grad) == ((5, 2), torch.float32, (2, 1), "meta")
    assert geometry(layer.weight.grad) == ((3, 2), torch.float32, (2, 1), "meta")


def test_modules_built_on_meta_and_materialised():
    with torch.device("meta"):
        net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    nn.init.orthogonal_(net[0].weight)          # initialisers do nothing on meta
    nn.init.trunc_normal_(net[0].weight)
    assert all(p.is_meta for p in net.parameters())
    assert nn.utils.parameters_to_vector(net.parameters()).shape == (26,)
    net.to_empty(device="cpu")
    assert all(p.device.type == "cpu" and p.requires_grad for p in net.parameters())
    with torch.device("meta"):
        fresh = nn.Linear(3, 4)
    source = nn.Linear(3, 4)
    fresh.load_state_dict(source.state_dict(), assign=True)
    assert torch.equal(fresh.weight, source.weight) and isinstance(fresh.weight, nn.Parameter)
    assert geometry(torch.empty_like(meta(2, 3), device="cpu"))[3] == "cpu"


def test_save_and_load():
    buffer = io.BytesIO()
    torch.save({"w": meta(2, 3).t()}, buffer)
    assert buffer.tell() < 10 ** 4
    buffer.seek(0)
    assert geometry(torch.load(buffer)["w"]) == ((3, 2), torch.float32, (1, 3), "meta")
    buffer = io.BytesIO()
    torch.save(torch.arange(4.), buffer)
    buffer.seek(0)
    assert torch.load(buffer, map_location="meta").is_meta
    copied = pickle.loads(pickle.dumps(meta(2, 3)))
    assert geometry(copied) == ((2, 3), torch.float32, (3, 1), "meta")


def test_an_op_without_a_rule_on_a_large_meta_tensor_refuses():
    with pytest.raises(NotImplementedError, match="with arguments from the 'Meta' backend"):
        torch.linalg.inv(meta(3000, 3000))
    assert torch.linalg.inv(meta(3, 3)).shape == (3, 3)     # small: NumPy on stand-ins


def test_large_meta_tensors_use_rules_not_stand_ins():
    x = meta(8, 2048, 4096)                     # 2^26 elements: beyond any stand-in
    assert geometry(F.layer_norm(x, (4096,))) == \
        ((8, 2048, 4096), torch.float32, (2048 * 4096, 4096, 1), "meta")
    assert geometry(torch.einsum("btd,ed->bte", x, meta(1024, 4096)))[:3] == \
        ((8, 2048, 1024), torch.float32, (2048 * 1024, 1024, 1))
    assert geometry(F.embedding(meta(8, 16, dtype=torch.int64), meta(50000, 4096)))[0] == \
        (8, 16, 4096)
    values, indices = x.topk(5, -1)
    assert geometry(indices)[:2] == ((8, 2048, 5), torch.int64)
    assert geometry(torch.tril(meta(2048, 2048)))[0] == (2048, 2048)
    assert geometry(F.unfold(meta(8, 64, 128, 128), 3))[0] == (8, 576, 126 * 126)
    assert geometry(x.roll(1, -1))[2] == (2048 * 4096, 4096, 1)
    with torch.device("meta"):
        layer = nn.TransformerEncoderLayer(512, 8, 2048, batch_first=True)
        assert geometry(layer(torch.empty(4, 128, 512)))[0] == (4, 128, 512)


def test_einsum_shapes():
    cases = [("ij,jk->ik", [(2, 3), (3, 4)], (2, 4)), ("ii", [(3, 3)], ()),
             ("ii->i", [(3, 3)], (3,)), ("...ij,...jk->...ik", [(5, 2, 3), (3, 4)], (5, 2, 4)),
             ("bij,bjk->bik", [(1, 2, 3), (4, 3, 5)], (4, 2, 5)), ("ba", [(2, 3)], (3, 2)),
             ("...i,...i", [(4, 1, 3), (2, 3)], (4, 2)), ("b...a->a...b", [(2, 3, 4, 5)],
                                                          (5, 3, 4, 2))]
    for spec, shapes, expected in cases:
        assert torch.einsum(spec, *(meta(*s) for s in shapes)).shape == expected, spec


def test_indexing_geometry_is_the_cpus():
    shape = (2, 3, 4, 3)
    i2, i21 = [0, 1], [[0], [1]]
    keys = [(i2,), (slice(None), i2), (i2, slice(None), i2), (Ellipsis, i2),
            (None, i21, slice(None), i2), (slice(1, None), i2, Ellipsis, -1),
            (i2, 0, i21), (slice(None), 0, Ellipsis, i2), (slice(None, None, 2), None, i21)]
    for key in keys:
        for device in ("cpu", "meta"):
            index = tuple(torch.tensor(k, device=device) if isinstance(k, list) else k
                          for k in key)
            got = torch.zeros(shape, device=device)[index]
            if device == "cpu":
                expected = geometry(got)[:2]
            else:
                assert geometry(got)[:2] == expected, key
    x = meta(*shape)
    # torch's strides (a result's dims of size 1 included)
    assert x[1:, torch.tensor(i2, device="meta"), ..., -1].stride() == (8, 4, 1)
    assert x[::2, None, torch.tensor(i21, device="meta")].stride() == (24, 24, 12, 12, 3, 1)


def test_indexing_a_large_meta_tensor():
    big = meta(50000, 4096)[meta(8, 2048, dtype=torch.int64)]      # no memory per element
    assert geometry(big) == ((8, 2048, 4096), torch.float32, (2048 * 4096, 4096, 1), "meta")


def test_ops_whose_cpu_kernels_check_values_skip_the_checks():
    m = meta(2, 3)
    index = torch.tensor([0, 2], device="meta")
    assert geometry(m % 2)[:2] == ((2, 3), torch.float32)
    assert geometry(torch.take(m, index))[0] == (2,)
    assert geometry(meta(3, 4).index_copy(0, index, meta(2, 4)))[0] == (3, 4)
    assert geometry(meta(3, 4).index_fill(1, index, 1.5))[0] == (3, 4)
    assert geometry(m.masked_scatter(m > 0, meta(6)))[0] == (2, 3)
    with warnings.catch_warnings():         # ("index_reduce() is in beta", once)
        warnings.simplefilter("ignore")
        assert geometry(meta(3, 4).index_reduce(0, index, meta(2, 4), "prod"))[0] == (3, 4)
    assert geometry(torch.quantile(m, torch.tensor([0.25, 0.75], device="meta"), dim=1))[0] == \
        (2, 2)
    assert geometry(torch.special.chebyshev_polynomial_t(m, 3))[0] == (2, 3)
    lu, pivots = torch.linalg.lu_factor(meta(2, 4, 3))
    assert geometry(lu)[:2] == ((2, 4, 3), torch.float32)
    assert geometry(pivots)[:2] == ((2, 3), torch.int32)
    assert geometry(torch.linalg.lu_solve(lu[:, :3], pivots, meta(2, 3, 5)))[0] == (2, 3, 5)
    assert geometry(torch.linalg.matrix_exp(meta(3, 3)))[0] == (3, 3)
    for call, name in ((lambda: torch.histogram(meta(5), 3), "histogram.bin_ct"),
                       (lambda: torch.linalg.lstsq(meta(3, 3), meta(3, 2)), "linalg_lstsq.out")):
        with pytest.raises(NotImplementedError, match=f"aten::{name}: attempted to run"):
            call()


def test_a_value_read_inside_an_op_is_a_clear_not_implemented_error():
    with pytest.raises(NotImplementedError, match="with arguments from the 'Meta' backend: "
                                                  "ember's kernel for it reads the tensors' "
                                                  "values"):
        torch.special.zeta(meta(3), meta(3))
    with pytest.raises(RuntimeError, match=r"Tensor.item\(\) cannot be called on meta"):
        torch.allclose(meta(2), meta(2))        # (torch's allclose calls item())
    with pytest.raises(RuntimeError, match=r"Tensor.item\(\) cannot be called on meta"):
        meta(1, dtype=torch.int64).__index__()
