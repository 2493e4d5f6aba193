"""ember.utils.summary against torchinfo's summary on the same models (skips without torch or
torchinfo). torchinfo prints its mult-adds unit as 'Units.MEGABYTES' on some Python versions;
ember prints torchinfo's intended '(M)'."""
import pytest

torch = pytest.importorskip("torch")
torchinfo = pytest.importorskip("torchinfo")

import ember  # noqa: E402

pytestmark = pytest.mark.oracle


def _mlp(lib):
    nn = lib.nn
    m = nn.Sequential(nn.Linear(4, 3), nn.Sequential(nn.ReLU(), nn.Linear(3, 3)),
                      nn.Linear(3, 2))
    m[0].bias.requires_grad_(False)
    return m


def _shared(lib):
    nn = lib.nn
    shared = nn.Linear(3, 3)
    return nn.Sequential(nn.Linear(2, 3), nn.Sequential(shared, shared),
                         nn.Sequential(nn.Sequential(nn.Sequential(nn.Linear(3, 3)))))


def _cnn(lib):
    nn = lib.nn
    return nn.Sequential(nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(8 * 13 * 13, 10))


def _seq3d(lib):
    nn = lib.nn
    return nn.Sequential(nn.Conv1d(2, 3, 3), nn.AvgPool1d(2), nn.Flatten(), nn.Linear(9, 4),
                         nn.LayerNorm(4))


CASES = [(_mlp, (5, 4)), (_shared, (4, 2)), (_cnn, (2, 1, 28, 28)), (_seq3d, (2, 2, 9))]
COLUMNS = [("output_size", "num_params"),
           ("input_size", "output_size", "num_params", "kernel_size", "mult_adds", "trainable")]


def _normalised(text):
    for unit, short in (("MEGABYTES", "M"), ("GIGABYTES", "G"), ("TERABYTES", "T")):
        text = text.replace(f"(Units.{unit})", f"({short})")
    return text


@pytest.mark.parametrize("make,size", CASES, ids=[c[0].__name__ for c in CASES])
@pytest.mark.parametrize("columns", COLUMNS, ids=["default", "all"])
@pytest.mark.parametrize("depth", [3, 1, 0])
def test_summary_matches_torchinfo(make, size, columns, depth):
    want = str(torchinfo.summary(make(torch), input_size=size, col_names=columns, depth=depth,
                                 verbose=0))
    got = str(ember.utils.summary(make(ember), input_size=size, col_names=columns, depth=depth,
                                  verbose=0))
    assert got == _normalised(want)
