"""Top-level names torch code uses: Stream and Event (on the CPU), get_device_module,
GradScaler and the torch.functional module (torch 2.13's answers)."""
import pytest

import ember


def test_cpu_stream():
    s = ember.Stream("cpu")
    assert repr(s) == "torch.Stream device_type=cpu, device_index=-1, stream_id=0"
    assert (s.device, s.device_index, s.device_type, s.stream_id) == \
        (ember.device("cpu"), -1, 0, 0)
    assert s.query() is True and s.synchronize() is None and s.is_capturing() is False
    assert s == ember.Stream(device=ember.device("cpu", 0)) and hash(s) == hash(ember.Stream("cpu"))
    assert s.wait_event(ember.Event("cpu")) is None
    with s as inside:
        assert inside is s
    meta = ember.Stream(device="meta", priority=-1)
    assert meta.device_type == 14 and meta != s
    for call in (s.record_event, lambda: s.wait_stream(s)):
        with pytest.raises(RuntimeError, match="^cpu backend doesn't support events.$"):
            call()
    with pytest.raises(RuntimeError, match="^Backend doesn't support getting stream native"):
        s.native_handle


def test_cpu_event():
    e = ember.Event("cpu", enable_timing=True)
    assert repr(e) == "torch.Event device_type=cpu, device_index=-1, event_flag=1, event_id=0"
    assert repr(ember.Event("cpu", blocking=True)).endswith("event_flag=0, event_id=0")
    assert e.query() is True and e.synchronize() is None and e.wait() is None
    with pytest.raises(RuntimeError, match="^meta backend doesn't support events.$"):
        ember.Event("meta").record()
    with pytest.raises(ValueError, match="^Both events must be created with argument "):
        ember.Event("cpu").elapsed_time(e)
    with pytest.raises(ValueError, match="^Both events must be recorded before"):
        e.elapsed_time(ember.Event("cpu", enable_timing=True))
    with pytest.raises(RuntimeError, match="^expected other to be a torch.Event object$"):
        e.elapsed_time(3)
    with pytest.raises(NotImplementedError, match="^torch.Event ipc is not supported yet"):
        e.ipc_handle()


def test_stream_and_event_device_errors():
    with pytest.raises(TypeError, match="^Stream\\(\\): argument 'device' must be torch.device, "
                                        "not float$"):
        ember.Stream(device=2.0)
    with pytest.raises(RuntimeError, match="^Expected one of cpu, cuda"):
        ember.Event(device="foo")
    if not ember.cuda.is_available():
        with pytest.raises(RuntimeError, match="^PyTorch is not linked with support for cuda "
                                               "devices$"):
            ember.Stream(device="cuda:1")
        with pytest.raises(RuntimeError, match="^Cannot access accelerator device when none is "
                                               "available.$"):
            ember.Event(0)
        assert ember.Stream().device == ember.device("cpu")


def test_get_device_module():
    assert ember.get_device_module("cuda:1") is ember.cuda
    assert ember.get_device_module(ember.device("cpu")) is ember.cpu
    assert ember.get_device_module() is (ember.cuda if ember.cuda.is_available() else ember.cpu)
    with pytest.raises(RuntimeError, match="^Invalid value of device '3', expect torch.device, "
                                           "str, or None$"):
        ember.get_device_module(3)
    with pytest.raises(RuntimeError, match="^Device 'meta' does not have a corresponding module "
                                           "registered as 'torch.meta'.$"):
        ember.get_device_module("meta")
    with pytest.raises(RuntimeError, match="^Invalid device string: 'cuda:x'$"):
        ember.get_device_module("cuda:x")


def test_grad_scaler_and_functional_are_the_same_objects():
    assert ember.GradScaler is ember.amp.GradScaler
    F = ember.functional
    for name in F.__all__:
        assert getattr(F, name) is getattr(ember, name)
    assert F.einsum("i,i->", ember.ones(3), ember.ones(3)).item() == 3.0


def test_cpu_device_module_stand_ins():
    cpu = ember.get_device_module("cpu")
    assert cpu.current_stream() is cpu.current_stream("cpu")
    assert cpu.is_initialized() is True and cpu.set_device(0) is None
    s = cpu.Stream(priority=0)
    assert s.wait_stream(s) is None and s.record_event() is None
    assert s.wait_event(cpu.Event()) is None and not isinstance(s, ember.Stream)
    e = cpu.Event()
    assert e.query() is True and e.record() is None and e.wait() is None
    with cpu.stream(s) as inside:
        assert inside is None
    with pytest.raises(AttributeError):
        s.query()
