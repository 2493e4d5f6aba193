"""ember.multiprocessing: shared-memory tensors (share_memory_, is_shared, Queue transfer that
shares storage both ways), sharing strategies, and spawn's error propagation. Every test runs
under a SIGALRM deadline so that nothing can hang."""
import os
import pickle
import signal
import sys

import pytest

import ember
import ember.multiprocessing as mp


@pytest.fixture(autouse=True)
def deadline():
    def expire(signum, frame):
        raise TimeoutError("test exceeded its deadline")
    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_share_memory_in_place_keeps_views_and_values():
    a = ember.arange(6.).view(2, 3)
    v, d = a.t(), a.data
    assert not a.is_shared()
    assert a.share_memory_() is a
    assert a.is_shared() and v.is_shared() and d.is_shared()
    assert a.tolist() == [[0., 1., 2.], [3., 4., 5.]]
    v[2, 1] = 50.                                 # views still see one memory
    d[0, 0] = 7.
    assert a.tolist() == [[7., 1., 2.], [3., 4., 50.]]
    assert a.untyped_storage().is_shared()
    ptr = a.data_ptr()
    a.share_memory_()                             # already shared: nothing moves
    assert a.data_ptr() == ptr


def test_module_share_memory():
    m = ember.nn.Linear(3, 2)
    w = m.weight.detach().clone()
    assert m.share_memory() is m
    assert all(p.is_shared() for p in m.parameters())
    assert ember.equal(m.weight, w) and isinstance(m.weight, ember.nn.Parameter)


def test_sharing_strategies():
    assert mp.get_sharing_strategy() == "file_descriptor"
    assert mp.get_all_sharing_strategies() == {"file_descriptor", "file_system"}
    with pytest.raises(AssertionError):
        mp.set_sharing_strategy("nope")


def _child_adds_one(q, r, done):
    t = q.get()
    t += 1                                        # seen by the parent: shared storage
    r.put(t[1:])
    done.wait(30)


@pytest.mark.parametrize("method,strategy", [("fork", "file_descriptor"),
                                             ("fork", "file_system"),
                                             ("spawn", "file_descriptor")])
def test_queue_round_trip_shares_storage(method, strategy):
    mp.set_sharing_strategy(strategy)
    try:
        ctx = mp.get_context(method)
        q, r, done = ctx.Queue(), ctx.Queue(), ctx.Event()
        t = ember.zeros(4)
        p = ctx.Process(target=_child_adds_one, args=(q, r, done))
        p.start()
        q.put(t)
        back = r.get(timeout=60)
        done.set()
        p.join(30)
    finally:
        mp.set_sharing_strategy("file_descriptor")
    assert p.exitcode == 0
    assert t.tolist() == [1., 1., 1., 1.] and t.is_shared()
    # the child's view comes back as a view of the very same storage
    assert back.tolist() == [1., 1., 1.] and back.storage_offset() == 1
    assert back._get_storage() is t._get_storage()
    back[0] = 9.
    assert t[1].item() == 9.
    if strategy == "file_system":
        del t, back
        import gc
        gc.collect()
        assert not [f for f in os.listdir("/dev/shm") if f.startswith(f"ember_{os.getpid()}_")]


def _child_reports(q, r):
    p = q.get()
    r.put((type(p).__name__, p.requires_grad, p.sum().item(), p.is_shared()))


def test_parameter_crosses_as_parameter():
    ctx = mp.get_context("fork")
    q, r = ctx.Queue(), ctx.Queue()
    p = ember.nn.Parameter(ember.ones(3))
    proc = ctx.Process(target=_child_reports, args=(q, r))
    proc.start()
    q.put(p)
    assert r.get(timeout=60) == ("Parameter", True, 3.0, True)
    proc.join(30)


def test_non_leaf_requiring_grad_is_refused_and_plain_pickle_copies():
    x = ember.ones(2, requires_grad=True) * 2
    from multiprocessing.reduction import ForkingPickler
    with pytest.raises(RuntimeError, match="Cowardly refusing to serialize non-leaf tensor"):
        ForkingPickler.dumps(x)
    t = ember.ones(2)
    copy = pickle.loads(pickle.dumps(t))          # plain pickle: a copy, not shared
    assert not t.is_shared() and not copy.is_shared() and copy.tolist() == [1., 1.]


def _memfds():
    n = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            n += "ember_shared" in os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass
    return n


def _send_then_wait(q):
    t = ember.arange(1000.)
    q.put(t)
    import time
    time.sleep(60)


def test_memory_outlives_a_killed_sender_then_is_freed():
    before = _memfds()
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    proc = ctx.Process(target=_send_then_wait, args=(q,))
    proc.start()
    t = q.get(timeout=60)
    proc.kill()                                   # its mapping and descriptors die with it
    proc.join(30)
    assert t.is_shared() and t.sum().item() == 499500.
    assert _memfds() > before                     # ours, while t lives
    del t
    import gc
    gc.collect()
    assert _memfds() == before


def _fails(i, code):
    if i == 1:
        if code == "raise":
            raise ValueError("child one failed")
        if code == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        sys.exit(3)
    import time
    time.sleep(60)                                # stopped by spawn when the other fails


def _ok(i, path):
    with open(f"{path}.{i}", "w") as f:
        f.write(str(i * 10))


def test_spawn_runs_and_propagates_errors(tmp_path):
    assert mp.spawn(_ok, args=(str(tmp_path / "out"),), nprocs=2) is None
    assert sorted(open(tmp_path / f"out.{i}").read() for i in range(2)) == ["0", "10"]
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.start_processes(_fails, args=("raise",), nprocs=2, start_method="fork")
    assert "\n\n-- Process 1 terminated with the following error:\nTraceback" in str(info.value)
    assert "ValueError: child one failed" in str(info.value)
    assert info.value.error_index == 1
    with pytest.raises(mp.ProcessExitedException, match="process 1 terminated with signal "
                                                         "SIGKILL"):
        mp.start_processes(_fails, args=("kill",), nprocs=2, start_method="fork")
    with pytest.raises(mp.ProcessExitedException, match="process 1 terminated with exit code 3"):
        mp.start_processes(_fails, args=("exit",), nprocs=2, start_method="fork")
    assert mp.active_children() == []
    ctx = mp.start_processes(_ok, args=(str(tmp_path / "x"),), nprocs=1, join=False,
                             start_method="fork")
    while not ctx.join():
        pass
    with pytest.warns(FutureWarning, match="This method only supports start_method=spawn"):
        mp.spawn(_ok, args=(str(tmp_path / "y"),), nprocs=1, start_method="fork")


def _double(t):
    return t * 2


def test_pool_sends_and_returns_tensors():
    with mp.get_context("fork").Pool(2) as pool:
        out = pool.map(_double, [ember.ones(2), ember.full((2,), 3.)])
    assert [o.tolist() for o in out] == [[2., 2.], [6., 6.]]
    assert all(o.is_shared() for o in out)
