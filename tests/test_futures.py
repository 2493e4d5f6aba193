"""ember.futures: completion once, waiting across threads, callbacks and chaining."""
import threading

import pytest

import ember
from ember.futures import Future, collect_all, wait_all


def test_value_after_completion_and_only_once():
    f = Future()
    assert not f.done()
    with pytest.raises(RuntimeError):
        f.value()
    f.set_result(ember.ones(2))
    assert f.done() and f.wait().tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="only be marked completed once"):
        f.set_exception(ValueError("late"))


def test_error_is_raised_by_wait_and_value():
    f = Future()
    err = KeyError("k")
    f.set_exception(err)
    with pytest.raises(KeyError) as info:
        f.wait()
    assert info.value is err
    with pytest.raises(KeyError):
        f.value()
    with pytest.raises(AssertionError, match="not an Exception"):
        Future().set_exception("text")


def test_wait_blocks_until_another_thread_completes():
    f = Future()
    started = threading.Event()

    def produce():
        started.wait()
        f.set_result(42)
    t = threading.Thread(target=produce)
    t.start()
    assert not f.done()
    started.set()
    assert f.wait() == 42
    t.join(5)


def test_then_chains_and_wraps_callback_errors():
    f = Future()
    g = f.then(lambda x: x.wait() * 2)
    h = g.then(lambda x: x.wait() + 1)
    assert not h.done()
    f.set_result(5)
    assert (g.wait(), h.wait()) == (10, 11)
    bad = f.then(lambda x: 1 / 0)
    with pytest.raises(RuntimeError, match="^Got the following error when running the "
                                           "callback: ZeroDivisionError: division by zero"):
        bad.wait()


def test_callbacks_run_in_order_now_or_on_completion():
    seen = []
    f = Future()
    f.add_done_callback(lambda x: seen.append(("a", x.value())))
    f.add_done_callback(lambda x: seen.append(("b", x.value())))
    assert seen == []
    f.set_result(1)
    f.add_done_callback(lambda x: seen.append(("c", x.value())))
    assert seen == [("a", 1), ("b", 1), ("c", 1)]


def test_collect_all_and_wait_all():
    a, b = Future(), Future()
    both = collect_all([a, b])
    a.set_result(1)
    assert not both.done()
    b.set_result(2)
    assert both.wait() == [a, b] and wait_all([a, b]) == [1, 2]
    assert collect_all([]).wait() == []
    c = Future()
    c.set_exception(ValueError("first"))
    with pytest.raises(ValueError, match="first"):
        wait_all([c, a])


def test_devices_need_indices():
    with pytest.raises(ValueError, match="Expected devices to have indices, got cpu"):
        Future(devices=["cpu"])
