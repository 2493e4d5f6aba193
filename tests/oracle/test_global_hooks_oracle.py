"""Global module hooks (nn.modules.module.register_module_*) run in torch's order next to a
module's own hooks and see and replace what torch's do: the same script runs under both and
prints every hook call."""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

SCRIPT = Path(__file__).with_name("global_hooks_script.py")


def _run(lib):
    done = subprocess.run([sys.executable, str(SCRIPT), lib], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_global_module_hooks_match_torch():
    ember_log = _run("ember")
    assert "== deprecated non-full global backward hooks" in ember_log
    assert ember_log == _run("torch")
