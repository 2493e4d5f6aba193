"""Fixtures for ember's CUDA code paths.

- `fake_cuda`: tests/cuda/fake_cupy.py (NumPy-backed, two fake GPUs), installed as `cupy` for
  one test and removed after it: CI runs ember's CUDA code paths on it.
- `gpu`: the real CuPy where ember has a GPU, else the fake. Tests that hold on any GPU take
  this one, so that on a machine with a GPU they check the real thing; the fake's own details
  (two devices, its memory pool's numbers) stay behind `fake_cuda`.
"""
import importlib
import threading
import sys

import pytest


def _real_gpu():
    from ember.cuda import _backend
    cp = _backend.cupy_or_none()
    if cp is None:
        return None
    try:
        return cp if cp.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:
        return None


@pytest.fixture
def fake_cuda(monkeypatch):
    from ember import _device
    from ember.cuda import _backend, memory, random
    if _backend.cupy_or_none() is not None:
        pytest.skip("real CuPy is installed: the fake would shadow it")
    name = __package__ + ".fake_cupy" if __package__ else "fake_cupy"
    fake = importlib.reload(importlib.import_module(name))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setitem(sys.modules, "cupyx", fake.cupyx)
    monkeypatch.setattr(_backend, "_cupy", fake)
    monkeypatch.setattr(_backend, "_tried", True)
    monkeypatch.setattr(_device, "_cuda_backend", None)
    monkeypatch.setattr(_device, "_cuda_current", threading.local())   # cuda:0 current
    monkeypatch.setattr(memory, "_allocator", None)
    monkeypatch.setattr(random, "_generators", {})
    monkeypatch.setattr(random, "_all_seed", [random._DEFAULT_SEED])
    monkeypatch.setattr(random, "_pending", [None])
    yield fake


@pytest.fixture
def gpu(request):
    real = _real_gpu()
    if real is not None:
        yield real
    else:
        yield request.getfixturevalue("fake_cuda")
