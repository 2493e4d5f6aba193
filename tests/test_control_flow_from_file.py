"""torch.cond and torch.while_loop (eager), and torch.from_file (private and shared); no
torch."""
import numpy as np
import pytest

import ember


def test_cond():
    x = ember.arange(4.)
    assert ember.cond(x.sum() > 3, lambda t: t + 1, lambda t: t - 1, (x,)).tolist() == \
        [1., 2., 3., 4.]
    assert ember.cond(False, lambda t: t + 1, lambda t: t - 1, [x]).tolist() == [-1., 0., 1., 2.]
    assert ember.cond(ember.tensor([[0.]]), lambda: 1, lambda: 2) == 2
    with pytest.raises(RuntimeError, match="Expected pred to be bool or single-element tensor"):
        ember.cond(ember.tensor([True, False]), lambda: 1, lambda: 2)
    y = ember.ones(2, requires_grad=True)
    ember.cond(True, lambda t: t * 2, lambda t: t * 3, (y,)).sum().backward()
    assert y.grad.tolist() == [2., 2.]


def test_while_loop():
    i, t = ember.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t * 2),
                            (ember.tensor(0), ember.ones(2)))
    assert i.item() == 3 and t.tolist() == [8., 8.]
    assert ember.while_loop(lambda i: i < 3, lambda i: i + 1, (ember.tensor(0),)).item() == 3
    never = ember.while_loop(lambda i: i > 3, lambda i: (i + 1,), [ember.tensor(0)])
    assert isinstance(never, tuple) and never[0].item() == 0
    with pytest.raises(AssertionError, match="Can't unpack scalar tensors"):
        ember.while_loop(lambda i: i < 3, lambda i: (i + 1,), ember.tensor(0))
    with pytest.raises(RuntimeError, match="cond_fn must return a bool"):
        ember.while_loop(lambda i: 3, lambda i: (i + 1,), (ember.tensor(0),))


def test_from_file(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(bytes(range(16)))
    t = ember.from_file(str(path), size=4, dtype=ember.int32)
    assert t.tolist() == np.frombuffer(bytes(range(16)), np.int32).tolist()
    assert ember.from_file(str(path)).shape == (0,)
    assert ember.from_file(str(path), size=2).dtype is ember.float32
    private = ember.from_file(str(path), shared=False, size=4, dtype=ember.uint8)
    private[0] = 99
    assert path.read_bytes()[0] == 0
    shared = ember.from_file(str(path), shared=True, size=4, dtype=ember.uint8)
    shared[0] = 99
    assert path.read_bytes()[:2] == b"c\x01"
    with pytest.raises(RuntimeError, match="size <16> is smaller than the required mapping "
                                           "size <20>"):
        ember.from_file(str(path), size=5, dtype=ember.int32)
    with pytest.raises(RuntimeError, match="in read-only mode: No such file"):
        ember.from_file(str(tmp_path / "nope"), size=1)
    made = ember.from_file(str(tmp_path / "new"), shared=True, size=6, dtype=ember.uint8)
    assert made.tolist() == [0] * 6 and (tmp_path / "new").stat().st_size == 6
