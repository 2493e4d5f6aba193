"""ember.save / ember.load against real torch: files written by torch.save load in ember, and
files written by ember.save load in torch.load(weights_only=True), with the same values,
dtypes, shapes, strides, storage offsets and storage sharing. Skipped without torch."""
import collections
import io
import pickle
import subprocess
import sys

import numpy as np
import pytest

import ember
from ember import serialization

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128"]


def _sample(lib, name, shape=(3, 4)):
    values = np.arange(int(np.prod(shape))).reshape(shape) - 5
    dtype = getattr(lib, name)
    if name == "bool":
        array = values % 3 == 0
    elif name.startswith("complex"):
        array = values + 0.5j * values[::-1]
    elif name.startswith(("float", "bfloat")):
        array = values * 0.75
    else:
        array = values % 100 if name == "uint8" else values
    return lib.tensor(array.tolist(), dtype=dtype)


def _values(t):
    if isinstance(t, torch.Tensor):
        t = t.detach()
        if t.dtype == torch.bfloat16:
            t = t.float()
        return t.numpy()
    t = t.detach()
    return t._data.astype(np.float32) if t.dtype is ember.bfloat16 else np.array(t._data)


def _check(ours, theirs):
    """An ember tensor and a torch tensor hold the same thing, laid out the same way."""
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.stride() == theirs.stride()
    assert ours.storage_offset() == theirs.storage_offset()
    assert ours.requires_grad == theirs.requires_grad
    np.testing.assert_array_equal(_values(ours), _values(theirs))


def _cases(lib):
    """The same objects built with ember or with torch."""
    base = lib.arange(24.).reshape(4, 6)
    objects = {"base": base, "t": base.t(), "step": base[1:, ::2], "row": base[2],
               "narrow": base.narrow(1, 2, 3), "exp": base[0].expand(3, 6),
               "scalar": lib.tensor(2.5, dtype=lib.float64),
               "empty": lib.zeros(0, 3, dtype=lib.int32),
               "param": lib.nn.Parameter(lib.tensor([1.0, -2.0])),
               "frozen": lib.nn.Parameter(lib.tensor([3.0]), requires_grad=False),
               "leaf": lib.tensor([1.5, 2.5], requires_grad=True)}
    for name in DTYPES:
        t = _sample(lib, name)
        objects[name] = t
        objects[name + "_view"] = t[1:, 1::2]
    return objects


def _torch_file(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return io.BytesIO(buf.getvalue())


def _ember_file(obj):
    buf = io.BytesIO()
    ember.save(obj, buf)
    return io.BytesIO(buf.getvalue())


def _shared(tensors, key):
    groups = collections.defaultdict(set)
    for name, t in tensors.items():
        groups[key(t)].add(name)
    return sorted(sorted(g) for g in groups.values())


def test_torch_save_loads_in_ember():
    theirs = _cases(torch)
    ours = ember.load(_torch_file(theirs))
    assert list(ours) == list(theirs)
    for name in theirs:
        _check(ours[name], theirs[name])
    assert type(ours["param"]) is ember.nn.Parameter
    assert _shared(ours, lambda t: id(t._get_storage())) == \
        _shared(theirs, lambda t: t.untyped_storage().data_ptr())


def test_loading_a_torch_file_does_not_import_torch(tmp_path):
    path = tmp_path / "t.pt"
    torch.save({"w": torch.arange(3.), "p": torch.nn.Parameter(torch.ones(2))}, path)
    code = ("import sys, ember; out = ember.load(sys.argv[1]); "
            "assert out['w'].tolist() == [0.0, 1.0, 2.0], out; "
            "assert 'torch' not in sys.modules, 'torch was imported'")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True)


def test_ember_save_loads_in_torch_weights_only():
    ours = _cases(ember)
    theirs = torch.load(_ember_file(ours), weights_only=True)
    assert list(ours) == list(theirs)
    for name in ours:
        _check(ours[name], theirs[name])
    assert type(theirs["param"]) is torch.nn.Parameter
    assert _shared(theirs, lambda t: t.untyped_storage().data_ptr()) == \
        _shared(ours, lambda t: id(t._get_storage()))
    theirs["base"][1, 2] = -7.0                   # they share in torch too
    assert theirs["step"][0, 1].item() == -7.0


def test_ember_file_maps_in_torch(tmp_path):
    path = tmp_path / "e.pt"
    ours = _cases(ember)
    ember.save(ours, path)
    theirs = torch.load(path, weights_only=True, mmap=True)
    for name in ours:
        _check(ours[name], theirs[name])


def test_torch_file_maps_in_ember(tmp_path):
    path = tmp_path / "t.pt"
    theirs = _cases(torch)
    torch.save(theirs, path)
    ours = ember.load(path, mmap=True)
    for name in theirs:
        _check(ours[name], theirs[name])


def test_containers_and_metadata_objects_both_ways():
    def make(lib):
        return {"size": lib.Size([2, 3]), "dev": lib.device("cpu"), "cuda": lib.device("cuda", 1),
                "dtype": lib.bfloat16, "layout": lib.strided, "nested": [1, (2.5, "x"), None],
                "od": collections.OrderedDict(a=1), "set": {1, 2}, "bytes": b"\x00\x01",
                "complex": 1 + 2j, "big": 2 ** 70}
    ours = ember.load(_torch_file(make(torch)))
    assert ours == make(ember)
    assert type(ours["size"]) is ember.Size and ours["dtype"] is ember.bfloat16
    theirs = torch.load(_ember_file(make(ember)), weights_only=True)
    assert theirs == make(torch)
    assert type(theirs["size"]) is torch.Size and theirs["layout"] is torch.strided


def test_module_state_dict_both_ways():
    torch.manual_seed(0)
    tmodel = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    emodel = ember.nn.Sequential(ember.nn.Linear(3, 4), ember.nn.ReLU(), ember.nn.Linear(4, 2))
    emodel.load_state_dict(ember.load(_torch_file(tmodel.state_dict())))
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    expected = tmodel(torch.tensor(x)).detach().numpy()
    np.testing.assert_allclose(_values(emodel(ember.tensor(x))), expected, rtol=1e-6)
    fresh = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    fresh.load_state_dict(torch.load(_ember_file(emodel.state_dict()), weights_only=True))
    np.testing.assert_array_equal(fresh(torch.tensor(x)).detach().numpy(), expected)


def test_whole_torch_module_loads_as_ember_module_when_trusted():
    torch.manual_seed(0)
    tmodel = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh())
    data = _torch_file(tmodel).getvalue()
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL torch.nn.modules.container."
                                                     "Sequential was not an allowed global"):
        ember.load(io.BytesIO(data))
    emodel = ember.load(io.BytesIO(data), weights_only=False)
    assert type(emodel) is ember.nn.Sequential and type(emodel[1]) is ember.nn.Tanh
    x = np.random.default_rng(2).standard_normal((4, 2)).astype(np.float32)
    np.testing.assert_allclose(_values(emodel(ember.tensor(x))),
                               tmodel(torch.tensor(x)).detach().numpy(), rtol=1e-6)


def test_optimizer_state_dict_both_ways():
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)

    def train(lib, model, opt, steps):
        for _ in range(steps):
            opt.zero_grad()
            (model(lib.tensor(x)) ** 2).sum().backward()
            opt.step()

    torch.manual_seed(0)
    tmodel = torch.nn.Linear(3, 2)
    topt = torch.optim.Adam(tmodel.parameters(), lr=0.1, betas=(0.8, 0.9), amsgrad=True)
    train(torch, tmodel, topt, 2)
    state = ember.load(_torch_file({"model": tmodel.state_dict(), "optim": topt.state_dict()}))
    emodel = ember.nn.Linear(3, 2)
    eopt = ember.optim.Adam(emodel.parameters(), lr=0.1, betas=(0.8, 0.9), amsgrad=True)
    emodel.load_state_dict(state["model"])
    eopt.load_state_dict(state["optim"])
    tstate = topt.state_dict()
    assert state["optim"]["param_groups"][0]["betas"] == (0.8, 0.9)
    for i, entry in tstate["state"].items():
        for key, value in entry.items():
            _check(state["optim"]["state"][i][key], value)
    # ember continues where torch left off, and torch reads ember's state back
    train(ember, emodel, eopt, 1)
    train(torch, tmodel, topt, 1)
    np.testing.assert_allclose(_values(emodel.weight), _values(tmodel.weight), rtol=1e-6)
    back = torch.load(_ember_file(eopt.state_dict()), weights_only=True)
    for i, entry in topt.state_dict()["state"].items():
        for key, value in entry.items():
            np.testing.assert_allclose(_values(back["state"][i][key]), _values(value), rtol=1e-6)


def test_same_error_as_torch_for_unknown_globals():
    buf = io.BytesIO()
    torch.save({"w": torch.ones(1), "c": collections.defaultdict(int)}, buf)
    with pytest.raises(pickle.UnpicklingError) as theirs:
        torch.load(io.BytesIO(buf.getvalue()))
    with pytest.raises(pickle.UnpicklingError) as ours:
        ember.load(io.BytesIO(buf.getvalue()))
    assert str(ours.value) == str(theirs.value)
    with serialization.safe_globals([collections.defaultdict, int]):
        assert ember.load(io.BytesIO(buf.getvalue()))["c"] == {}


def test_same_error_as_torch_for_truncated_files():
    data = _torch_file({"w": torch.arange(100.)}).getvalue()
    with pytest.raises(RuntimeError) as theirs:
        torch.load(io.BytesIO(data[:len(data) // 2]))
    with pytest.raises(RuntimeError) as ours:
        ember.load(io.BytesIO(data[:len(data) // 2]))
    assert str(ours.value) == str(theirs.value)


def test_same_error_as_torch_for_cuda_on_cpu_machine():
    if torch.cuda.is_available() or ember.cuda.is_available():
        pytest.skip("needs a machine without CUDA")
    data = _ember_file({"w": ember.ones(2)}).getvalue()
    with pytest.raises(RuntimeError) as theirs:
        torch.load(io.BytesIO(data), map_location="cuda")
    with pytest.raises(RuntimeError) as ours:
        ember.load(io.BytesIO(data), map_location="cuda")
    assert str(ours.value) == str(theirs.value)


def test_same_error_as_torch_for_mixed_dtype_views():
    t, e = torch.ones(4), ember.ones(4)
    with pytest.raises(RuntimeError) as theirs:
        torch.save([t, t.view(torch.int32)], io.BytesIO())
    with pytest.raises(RuntimeError) as ours:
        ember.save([e, e.view(ember.int32)], io.BytesIO())
    assert str(ours.value) == str(theirs.value)


def test_safetensors_files_read_by_the_other(tmp_path):
    st = pytest.importorskip("safetensors.torch")
    theirs = {name: _sample(torch, name) for name in DTYPES if name != "complex128"}
    st.save_file(theirs, tmp_path / "t.safetensors")
    ours = serialization.load_file(tmp_path / "t.safetensors")
    for name in theirs:
        _check(ours[name], theirs[name])
    serialization.save_file({n: _sample(ember, n) for n in theirs}, tmp_path / "e.safetensors")
    back = st.load_file(tmp_path / "e.safetensors")
    for name in theirs:
        _check(ours[name], back[name])


def test_tensor_attributes_both_ways():
    t = torch.arange(3.)
    t.note = "kept"
    p = torch.nn.Parameter(torch.ones(2))
    p.tag = 7
    ours = ember.load(_torch_file({"t": t, "p": p}))
    assert ours["t"].note == "kept" and type(ours["t"]) is ember.Tensor
    assert ours["p"].tag == 7 and type(ours["p"]) is ember.nn.Parameter
    _check(ours["t"], t)
    e = ember.arange(3.)
    e.note = "kept"
    ep = ember.nn.Parameter(ember.ones(2))
    ep.tag = 7
    theirs = torch.load(_ember_file({"t": e, "p": ep}), weights_only=True)
    assert theirs["t"].note == "kept"
    assert theirs["p"].tag == 7 and type(theirs["p"]) is torch.nn.Parameter
    _check(e, theirs["t"])


def test_sparse_tensors_both_ways():
    """COO (with its coalesced flag) and CSR tensors: torch's `_rebuild_sparse_tensor`."""
    def sample(lib):
        s = lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [2, 0, 2]]), lib.tensor([3., 4., 5.]),
                                  (2, 3))
        return {"s": s, "c": s.coalesce(), "csr": s.to_dense().to_sparse_csr()}

    def check(d, lib):
        assert d["s"].layout is lib.sparse_coo and not d["s"].is_coalesced()
        assert d["c"].is_coalesced()
        assert d["s"]._indices().tolist() == [[0, 1, 1], [2, 0, 2]]
        assert d["s"]._values().tolist() == [3., 4., 5.] and d["s"].shape == (2, 3)
        assert d["csr"].layout is lib.sparse_csr
        assert d["csr"].crow_indices().tolist() == [0, 1, 3]
        assert d["csr"].col_indices().tolist() == [2, 0, 2]

    buf = io.BytesIO()
    torch.save(sample(torch), buf)
    for weights_only in (True, False):
        check(ember.load(io.BytesIO(buf.getvalue()), weights_only=weights_only), ember)
    buf = io.BytesIO()
    ember.save(sample(ember), buf)
    for weights_only in (True, False):
        check(torch.load(io.BytesIO(buf.getvalue()), weights_only=weights_only), torch)
