"""NOTE [ Heap padding ]: a training step's large arrays reuse the memory the last step freed
instead of page-faulting on fresh pages (glibc only)."""
import ctypes
import os
import subprocess
import sys

import pytest

GLIBC = sys.platform.startswith("linux") and hasattr(ctypes.CDLL(None), "gnu_get_libc_version")

STEPS = """
import resource, ember
conv = ember.nn.Conv2d(1, 8, 3)
x = ember.randn(64, 1, 28, 28)
def step():
    y = ember.nn.functional.max_pool2d(ember.relu(conv(x)), 2)
    y.square().mean().backward()
for _ in range(3):
    step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    step()
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10)
"""


def _faults_per_step(pad):
    env = dict(os.environ, EMBER_HEAP_PAD=pad)
    out = subprocess.run([sys.executable, "-c", STEPS], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[-1])


@pytest.mark.skipif(not GLIBC, reason="the padding is glibc's M_TOP_PAD")
def test_a_training_step_reuses_freed_memory_instead_of_faulting():
    padded, unpadded = _faults_per_step(str(64 << 20)), _faults_per_step("0")
    assert padded < 20 < unpadded       # (each step allocates megabytes: ~250 pages a MiB)


def test_a_bad_setting_leaves_malloc_alone():
    env = dict(os.environ, EMBER_HEAP_PAD="a lot")
    out = subprocess.run([sys.executable, "-c", "import ember; print(ember.ones(2).sum().item())"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2.0"
