"""The `fake_cuda` fixture: ember's CUDA code paths on tests/cuda/fake_cupy.py (NumPy-backed,
two fake GPUs), installed as `cupy` for one test and removed after it."""
import importlib
import sys

import pytest


@pytest.fixture
def fake_cuda(monkeypatch):
    from ember import _device
    from ember.cuda import _backend, memory, random
    if _backend.cupy_or_none() is not None:
        pytest.skip("real CuPy is installed: the fake would shadow it")
    name = __package__ + ".fake_cupy" if __package__ else "fake_cupy"
    fake = importlib.reload(importlib.import_module(name))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setattr(_backend, "_cupy", fake)
    monkeypatch.setattr(_backend, "_tried", True)
    monkeypatch.setattr(_device, "_cuda_backend", None)
    monkeypatch.setattr(memory, "_allocator", None)
    monkeypatch.setattr(random, "_states", {})
    yield fake
