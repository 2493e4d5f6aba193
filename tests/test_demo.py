"""The README's demo: a CNN trained on scikit-learn's digits (skips without scikit-learn)."""
import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
_spec = importlib.util.spec_from_file_location(
    "demo", Path(__file__).resolve().parents[1] / "examples" / "demo.py")
demo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(demo)


def test_one_epoch_learns_and_the_checkpoint_reloads(tmp_path, capsys):
    accuracy, same = demo.train(1, str(tmp_path))
    assert accuracy > 0.6 and same              # chance is 0.1
    assert (tmp_path / "digits_cnn.pt").exists()
    assert "predicts identically: True" in capsys.readouterr().out


@pytest.mark.slow
def test_demo_reaches_its_target(tmp_path):
    accuracy, same = demo.train(10, str(tmp_path))
    assert accuracy >= 0.97 and same
