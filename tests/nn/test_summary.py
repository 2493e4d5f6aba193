"""ember.utils.summary: torchinfo's table, checked against tables recorded from torchinfo 1.8
(with torch 2.13) and against counts worked out by hand."""
import pytest

import ember
from ember import nn
from ember.utils import summary


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(ember.ones(3))
        self.inner = nn.Sequential(nn.Sequential(nn.Linear(3, 3), nn.Sequential(nn.Linear(3, 3))))

    def forward(self, x):
        return self.inner(x) * self.scale


def _model():
    m = nn.Sequential(nn.Linear(4, 3), Block(), nn.Linear(3, 2))
    m[0].weight.requires_grad_(False)
    return m


RULE = "=" * 90
FOOTER_SMALL = """\
Total mult-adds (M): 0.00
==========================================================================================
Input size (MB): 0.00
Forward/backward pass size (MB): 0.00
Params size (MB): 0.00
Estimated Total Size (MB): 0.00
=========================================================================================="""


def test_nested_model_table():
    # 15 + 3 + 2 * 12 + 8 = 50 parameters, 12 of them (the first weight) frozen
    expected = f"""\
{RULE}
Layer (type:depth-idx)                   Output Shape              Param #
{RULE}
Sequential                               [5, 2]                    --
├─Linear: 1-1                            [5, 3]                    15
├─Block: 1-2                             [5, 3]                    3
│    └─Sequential: 2-1                   [5, 3]                    --
│    │    └─Sequential: 3-1              [5, 3]                    24
├─Linear: 1-3                            [5, 2]                    8
{RULE}
Total params: 50
Trainable params: 38
Non-trainable params: 12
{FOOTER_SMALL}"""
    assert str(summary(_model(), input_size=(5, 4), verbose=0)) == expected


def test_depth_limits_rows_and_rolls_up_counts():
    text = str(summary(_model(), input_size=(5, 4), verbose=0, depth=1))
    assert "├─Block: 1-2                             [5, 3]                    27" in text
    assert "Sequential: 2-1" not in text
    top = str(summary(_model(), input_size=(5, 4), verbose=0, depth=0)).splitlines()[3]
    assert top == "Sequential                               [5, 2]                    50"


def test_reused_module_is_recursive_and_counted_once():
    shared = nn.Linear(3, 3)
    m = nn.Sequential(nn.Linear(2, 3), shared, shared)
    result = summary(m, input_size=(4, 2), verbose=0)
    rows = str(result).splitlines()
    assert rows[5].endswith("12") and rows[6].endswith("(recursive)")
    assert result.total_params == 9 + 12 and result.trainable_params == 21


def test_sizes_and_mult_adds_by_hand():
    # Linear(2000, 3000) on a batch of 64: 6,003,000 params used 64 times; input 64 * 2000
    # float32 = 0.512 MB; output 64 * 3000 * 4 bytes, twice (gradients) = 1.536 MB
    result = summary(nn.Linear(2000, 3000), input_size=(64, 2000), verbose=0,
                     col_names=("input_size", "output_size", "num_params", "mult_adds",
                                "trainable"))
    lines = str(result).splitlines()
    assert lines[1].split() == ["Layer", "(type:depth-idx)", "Input", "Shape", "Output",
                                "Shape", "Param", "#", "Mult-Adds", "Trainable"]
    assert lines[3] == ("Linear                                   [64, 2000]                "
                        "[64, 3000]                6,003,000                 384,192,000    "
                        "           True")
    assert result.total_mult_adds == 6_003_000 * 64
    assert "Total mult-adds (M): 384.19" in lines
    assert "Input size (MB): 0.51" in lines
    assert "Forward/backward pass size (MB): 1.54" in lines
    assert "Params size (MB): 24.01" in lines
    assert "Estimated Total Size (MB): 26.06" in lines
    assert len(lines[0]) == 40 + 25 * 5


def test_input_data_prints_by_default_and_restores_training(capsys):
    m = nn.Sequential(nn.Linear(32, 10), nn.Dropout(0.5))
    m.train()
    result = summary(m, input_data=ember.ones(2, 32))
    assert m.training and all(c.training for c in m.children())
    assert capsys.readouterr().out.strip() == str(result)
    assert "├─Dropout: 1-2" + " " * 27 + "[2, 10]" + " " * 19 + "--" in str(result)
    assert not any(p.grad is not None for p in m.parameters())


def test_errors():
    with pytest.raises(ValueError, match="input_data or input_size"):
        summary(nn.Linear(2, 3), verbose=0)
    with pytest.raises(ValueError, match="not a supported column"):
        summary(nn.Linear(2, 3), input_size=(1, 2), col_names=("colour",), verbose=0)
    with pytest.raises(RuntimeError, match="Failed to run ember.utils.summary"):
        summary(nn.Linear(2, 3), input_size=(1, 5), verbose=0)
