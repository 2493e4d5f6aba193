"""nn.parallel.scatter and gather: a slice per (fake) GPU and back; torch's errors for the
CPU (recorded from torch 2.13's CPU build)."""
import numpy as np
import pytest

import ember
from ember import nn


def test_cpu_targets_and_cpu_tensors_are_refused():
    x = ember.arange(8).reshape(4, 2)
    for target in (ember.device("cpu"), "cpu"):
        with pytest.raises(ValueError, match="^Expected a non cpu device, but got: cpu$"):
            nn.parallel.scatter(x, [target])
    with pytest.raises(AssertionError, match="^Gather function not implemented for CPU "
                                             "tensors$"):
        nn.parallel.gather([ember.ones(2), ember.ones(3)], -1)
    # what holds no tensor is repeated for each device, through its containers
    assert nn.parallel.scatter([1, 2], [0]) == [[1, 2]]
    assert nn.parallel.scatter({"a": 1}, [0, 1]) == [{"a": 1}, {"a": 1}]
    assert nn.parallel.scatter((1, "x"), [0, 1]) == [(1, "x"), (1, "x")]
    assert nn.parallel.gather([None, None], -1) is None


def test_scatter_and_gather_on_fake_gpus(fake_cuda):
    x = ember.arange(10.).reshape(5, 2)
    parts = nn.parallel.scatter(x, [0, 1])
    assert [p.device for p in parts] == [ember.device("cuda", 0), ember.device("cuda", 1)]
    assert [tuple(p.shape) for p in parts] == [(3, 2), (2, 2)]     # torch's chunks
    np.testing.assert_array_equal(parts[1].cpu().numpy(), [[6., 7.], [8., 9.]])
    pairs = nn.parallel.scatter((x, 7), ["cuda:0", "cuda:1"], dim=1)
    assert [tuple(p[0].shape) for p in pairs] == [(5, 1), (5, 1)] and pairs[1][1] == 7
    back = nn.parallel.gather(parts, -1)
    assert back.device == ember.device("cpu")
    np.testing.assert_array_equal(back.numpy(), x.numpy())
    on_one = nn.parallel.gather([{"y": p} for p in parts], 1)
    assert on_one["y"].device == ember.device("cuda", 1) and tuple(on_one["y"].shape) == (5, 2)
