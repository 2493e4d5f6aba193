"""ember's top-level forms of nn.functional's ops (ember.conv2d, ember.layer_norm, ...) give what
torch's give: the same script runs under both and prints shapes and sums."""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

SCRIPT = Path(__file__).with_name("top_level_script.py")


def _run(lib):
    done = subprocess.run([sys.executable, str(SCRIPT), lib], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_top_level_nn_functions_match_torch():
    assert _run("ember") == _run("torch")
