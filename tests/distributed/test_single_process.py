"""ember.distributed within one process: the stores, the errors before and around
`init_process_group`, and a world of one (texts as torch 2.13's CPU build gives them;
tests/oracle/test_distributed_oracle.py compares with torch itself)."""
import threading
from datetime import timedelta

import pytest

import ember
import ember.distributed as dist

NOT_INIT = "^Default process group has not been initialized, please make sure to call " \
           "init_process_group.$"


def _store_pairs(tmp_path):
    """(store, another handle on the same keys): a TCPStore client waits for its reply, so
    another thread writes through another client, as another process would."""
    tcp = dist.TCPStore("127.0.0.1", 0, 1, True, timedelta(seconds=5))
    hashed, under, path = dist.HashStore(), dist.HashStore(), str(tmp_path / "store")
    return [(hashed, hashed), (dist.FileStore(path), dist.FileStore(path)),
            (tcp, dist.TCPStore("127.0.0.1", tcp.port, 1, False, timedelta(seconds=5))),
            (dist.PrefixStore("pre", under), dist.PrefixStore("pre", under))]


def _stores(tmp_path):
    return [s for s, _ in _store_pairs(tmp_path)]


def test_store_operations(tmp_path):
    for s in _stores(tmp_path):
        s.set("a", "x")
        s.set("b", b"\x00\xff")
        assert (s.get("a"), s.get("b")) == (b"x", b"\x00\xff")
        assert (s.add("n", 2), s.add("n", 3), s.get("n")) == (2, 5, b"5")
        assert s.num_keys() == 3
        assert s.compare_set("a", "x", "y") == b"y"          # matched: set
        assert s.compare_set("a", "q", "z") == b"y"          # not matched: the current value
        assert s.compare_set("new", "", "v") == b"v"         # missing and expected empty
        assert s.compare_set("new2", "w", "v") == b"w"       # missing: the expected value
        assert (s.delete_key("a"), s.delete_key("a")) == (True, False)
        assert (s.check(["n", "b"]), s.check(["n", "zz"])) == (True, False)
        with pytest.raises(ValueError, match="^stoll$"):
            s.add("b", 1)


def test_store_waits_and_times_out(tmp_path):
    for s, writer in _store_pairs(tmp_path):
        s.set_timeout(timedelta(seconds=0.2))
        assert s.timeout == timedelta(seconds=0.2)
        # (TCPStore's text names the time and keys: test_tcp_store_errors)
        with pytest.raises(dist.DistStoreError, match="^(Wait|wait) timeout"):
            s.get("missing")
        with pytest.raises(dist.DistStoreError, match="^(Wait|wait) timeout"):
            s.wait(["missing"], timedelta(seconds=0.05))
        s.set_timeout(timedelta(seconds=5))
        later = threading.Timer(0.1, lambda: writer.set("late", "here"))
        later.start()
        assert s.get("late") == b"here"                      # waited for the other thread
        later.join()


def test_prefix_store_and_tcp_clients():
    base = dist.HashStore()
    p = dist.PrefixStore("pre", base)
    p.set("q", "1")
    assert base.get("pre/q") == b"1" and p.underlying_store is base
    master = dist.TCPStore("127.0.0.1", 0, 2, True, timedelta(seconds=5),
                           wait_for_workers=False)
    client = dist.TCPStore("127.0.0.1", master.port, 2, False, timedelta(seconds=5))
    client.set("k", "v")
    assert master.get("k") == b"v" and master.add("c", 1) == 1 and client.add("c", 1) == 2


def test_tcp_store_errors():
    master = dist.TCPStore("127.0.0.1", 0, 1, True, timedelta(seconds=5))
    with pytest.raises(dist.DistNetworkError, match=(
            f"^The server socket has failed to listen on any local network address. port: "
            f"{master.port}, useIpv6: false, code: -98, name: EADDRINUSE, message: address "
            f"already in use$")):
        dist.TCPStore("127.0.0.1", master.port, 1, True)
    master.set_timeout(timedelta(seconds=0.2))
    with pytest.raises(dist.DistStoreError, match="^wait timeout after 200ms, keys: /zz$"):
        master.get("zz")


def test_before_init():
    assert dist.is_available() and dist.is_gloo_available()
    assert not (dist.is_nccl_available() or dist.is_initialized())
    import importlib.util
    assert dist.is_mpi_available() is (importlib.util.find_spec("mpi4py") is not None)
    assert dist.group.WORLD is None and dist.GroupMember.NON_GROUP_MEMBER == -100
    for call in (dist.get_rank, dist.get_world_size, dist.barrier, dist.get_backend,
                 lambda: dist.all_reduce(ember.ones(2)), lambda: dist.new_group([0]),
                 lambda: dist.send(ember.ones(2), 1), lambda: dist.all_gather_object([None], 1)):
        with pytest.raises(ValueError, match=NOT_INIT):
            call()
    with pytest.raises(AssertionError, match="^Process group cannot be None$"):
        dist.destroy_process_group()
    with pytest.raises(RuntimeError, match="^Distributed package doesn't have NCCL built in$"):
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
    if not dist.is_mpi_available():
        with pytest.raises(RuntimeError, match="^Distributed package doesn't have MPI built "
                                               "in$"):
            dist.init_process_group("mpi")
    with pytest.raises(ValueError, match="^Error initializing torch.distributed using env:// "
                                         "rendezvous: environment variable RANK expected"):
        dist.init_process_group("gloo")
    from ember.utils.data import DistributedSampler
    with pytest.raises(ValueError, match=NOT_INIT):
        DistributedSampler(range(4))
    assert repr(dist.ReduceOp.SUM) == "<RedOpType.SUM: 0>"
    assert list(dist.ReduceOp.RedOpType.__members__) == [
        "SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR", "PREMUL_SUM"]


def test_world_of_one():
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        with pytest.raises(ValueError, match="^trying to initialize the default process group "
                                             "twice!$"):
            dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
        assert (dist.get_rank(), dist.get_world_size(), dist.get_backend()) == (0, 1, "gloo")
        t = ember.tensor([1., 2.])
        dist.all_reduce(t, op=dist.ReduceOp.AVG)
        assert t.tolist() == [1., 2.]
        out = [ember.zeros(2)]
        dist.all_gather(out, t)
        assert out[0].tolist() == [1., 2.]
        objs = [None]
        dist.all_gather_object(objs, {"a": 1})
        assert objs == [{"a": 1}]
        with pytest.raises(ValueError, match="^the new group's world size should be less or "
                                             "equal to the world size set by init_process_"):
            dist.new_group([0, 1])
        with pytest.raises(ValueError, match="^Argument ``scatter_list`` must be specified on "
                                             "source rank.$"):
            dist.scatter(ember.zeros(2), src=0)
        work = dist.broadcast(t, 0, async_op=True)
        assert work.wait() is True and work.is_completed()
        from ember.utils.data import DistributedSampler
        assert list(DistributedSampler(range(3), shuffle=False)) == [0, 1, 2]
    finally:
        dist.destroy_process_group()
    assert not dist.is_initialized() and dist.group.WORLD is None


def test_world_of_one_keeps_zero_dim_tensors_and_refuses_sync_batchnorm_on_cpu():
    # a loss's item logged across ranks: a 0-dim tensor stays 0-dim (NumPy's
    # ascontiguousarray made it 1-dim, and copying that back failed)
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        loss = ember.tensor(1.5)
        dist.all_reduce(loss, op=dist.ReduceOp.SUM)
        assert loss.shape == () and loss.item() == 1.5
        dist.broadcast(loss, src=0)
        dist.reduce(loss, dst=0, op=dist.ReduceOp.MAX)
        assert loss.shape == () and loss.item() == 1.5
        out = [ember.zeros(())]
        dist.all_gather(out, ember.tensor(2.5))
        assert out[0].shape == () and out[0].item() == 2.5
        # torch syncs batch statistics of GPU inputs only: a CPU batch in training is refused,
        # after it was counted
        bn = ember.nn.SyncBatchNorm(3)
        with pytest.raises(ValueError, match="^SyncBatchNorm expected input tensor to be on "
                                             "GPU or XPU or privateuseone$"):
            bn(ember.ones(2, 3))
        assert bn.num_batches_tracked.item() == 1
        bn.eval()
        assert bn(ember.ones(2, 3)).shape == (2, 3)
    finally:
        dist.destroy_process_group()
    bn = ember.nn.SyncBatchNorm(3, eps=0.0)       # no group: plain batch norm
    out = bn(ember.tensor([[1., 2., 3.], [3., 4., 1.]]))
    assert out.tolist() == [[-1., -1., 1.], [1., 1., -1.]]
    with pytest.raises(ValueError, match="^SyncBatchNorm number of input channels should be "
                                         "non-zero$"):
        bn(ember.ones(2, 0))


def test_reduce_op_prints_as_torch_enum():
    assert str(dist.ReduceOp.SUM) == "RedOpType.SUM" and f"{dist.ReduceOp.MAX}" == "RedOpType.MAX"
    assert "%s" % dist.ReduceOp.AVG == "RedOpType.AVG" and int(dist.ReduceOp.MIN) == 3
    with pytest.raises(TypeError, match="^unsupported format string passed to torch"):
        f"{dist.ReduceOp.SUM:>10}"


def test_debug_level_and_launcher_questions(monkeypatch):
    assert str(dist.get_debug_level()) == "DebugLevel.OFF"
    assert repr(dist.DebugLevel.DETAIL) == "<DebugLevel.DETAIL: 2>"
    assert dist.DebugLevel.INFO != 1 and int(dist.DebugLevel.INFO) == 1
    try:
        dist.set_debug_level(dist.DebugLevel.INFO)
        assert dist.get_debug_level() is dist.DebugLevel.INFO
        monkeypatch.setenv("TORCH_DISTRIBUTED_DEBUG", "detail")
        dist.set_debug_level_from_env()
        assert dist.get_debug_level() is dist.DebugLevel.DETAIL
        monkeypatch.setenv("TORCH_DISTRIBUTED_DEBUG", "")
        with pytest.raises(ValueError, match="^The value of TORCH_DISTRIBUTED_DEBUG must be "
                                             "OFF, INFO, or DETAIL.$"):
            dist.set_debug_level_from_env()
        with pytest.raises(TypeError, match=r"(?s)^set_debug_level\(\): incompatible "
                                            r"function arguments.*\n\nInvoked with: 1$"):
            dist.set_debug_level(1)
    finally:
        dist.set_debug_level(dist.DebugLevel.OFF)
    monkeypatch.delenv("TORCHELASTIC_RUN_ID", raising=False)
    assert dist.is_torchelastic_launched() is False
    monkeypatch.setenv("TORCHELASTIC_RUN_ID", "none")
    assert dist.is_torchelastic_launched() is True


def test_new_group_and_reduction_argument_errors():
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        # duplicates first (the sorted list), then the size, then each rank
        with pytest.raises(ValueError, match=r"^ranks list must not contain duplicate "
                                             r"entries, got \[0, 1, 1\]$"):
            dist.new_group([1, 0, 1])
        with pytest.raises(ValueError, match="^the new group's world size should be less"):
            dist.new_group([0, 5])
        with pytest.raises(ValueError, match=r"^Rank -1 is out of range. Valid ranks are 0 to "
                                             r"0 \(world_size=1\)$"):
            dist.new_group([-1])
        # an op that is no reduction fails where torch's binding sets it on the options
        for call, options in [(lambda op: dist.all_reduce(ember.ones(1), op=op),
                               "AllreduceOptions"),
                              (lambda op: dist.reduce(ember.ones(1), 0, op=op),
                               "ReduceOptions")]:
            for op in ["sum", None, dist.ReduceOp.PREMUL_SUM]:
                with pytest.raises(TypeError) as info:
                    call(op)
                text = str(info.value)
                assert text.startswith("(): incompatible function arguments. The following "
                                       "argument types are supported:\n    1. (self: torch."
                                       f"_C._distributed_c10d.{options}, arg0: torch._C."
                                       "_distributed_c10d.ReduceOp) -> None\n\nInvoked with: "
                                       f"<torch.distributed.distributed_c10d.{options} object "
                                       "at 0x")
                assert text.endswith(f">, {op!r}")
    finally:
        dist.destroy_process_group()


def test_ddp_device_arguments_as_torch_checks_them():
    from ember.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        # a CPU module takes no device_ids/output_device (a falsy one is ignored)
        for kw in [{"device_ids": [0]}, {"device_ids": ["cpu"]}, {"output_device": "cpu"}]:
            with pytest.raises(ValueError, match=r"^DistributedDataParallel device_ids and "
                               r"output_device arguments only work with single-device/multiple-"
                               r"device GPU modules or CPU modules, but got device_ids .*, "
                               r"output_device .*, and module parameters "
                               r"\{device\(type='cpu'\)\}\.$"):
                DDP(ember.nn.Linear(1, 1), **kw)
        with pytest.raises(ValueError, match="^device_ids can only be None or contain a single "
                                             "element.$"):
            DDP(ember.nn.Linear(1, 1), device_ids=[0, 1])
        d = DDP(ember.nn.Linear(1, 1), device_ids=[], output_device=0, bucket_cap_mb=1.5)
        assert (d.device_ids, d.output_device, d.device_type) == (None, None, "cpu")
        assert d.is_multi_device_module is False and d.mixed_precision is None
        assert (d.bucket_bytes_cap, d.broadcast_bucket_size) == (1572864, 262144000)
    finally:
        dist.destroy_process_group()


def test_torch_2_13_names_and_counts(monkeypatch):
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        out = ember.zeros(2)
        assert dist.all_gather_single(out, ember.tensor([1., 2.])) is None
        assert out.tolist() == [1., 2.]
        dist.reduce_scatter_single(out, ember.tensor([3., 4.]))
        assert out.tolist() == [3., 4.]
        for name, call in [("all_gather_into_tensor", dist.all_gather_into_tensor),
                           ("reduce_scatter_tensor", dist.reduce_scatter_tensor)]:
            new = name.replace("into_tensor", "single").replace("_tensor", "_single")
            with pytest.warns(FutureWarning, match=f"^`torch.distributed.{name}` is deprecated. "
                                                   f"Please use `torch.distributed.{new}` "
                                                   f"instead.$"):
                call(out, ember.tensor([5., 6.]))
            assert out.tolist() == [5., 6.]
        # the default group plus each one made since, destroyed or not
        assert dist.get_pg_count() == 1
        sub = dist.new_group([0])
        dist.destroy_process_group(sub)
        assert dist.get_pg_count() == 2
    finally:
        dist.destroy_process_group()
    assert dist.get_pg_count() == 0
    assert dist.get_default_backend_for_device("cpu") == "gloo"
    assert dist.get_default_backend_for_device(ember.device("cuda:1")) == "nccl"
    with pytest.raises(ValueError, match="^Default backend not registered for device : meta$"):
        dist.get_default_backend_for_device("meta")
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    with pytest.raises(RuntimeError, match="^LOCAL_RANK is not in the environment. Consider "
                                           "passing fallback_rank"):
        dist.get_node_local_rank()
    assert dist.get_node_local_rank(fallback_rank=3) == 3
    monkeypatch.setenv("LOCAL_RANK", "2")
    assert dist.get_node_local_rank(fallback_rank=3) == 2
