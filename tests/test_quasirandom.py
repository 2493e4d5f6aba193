"""torch.quasirandom.SobolEngine: the plain sequence (values worked out by hand), the
primitive polynomials it is built on, the net property of scrambled points, and the state
operations (draw, draw_base2, fast_forward, reset); no torch."""
import numpy as np
import pytest

import ember
from ember.quasirandom import SobolEngine, _primitive_polynomials


def test_primitive_polynomials():
    # degree 1: x + 1; 2: x^2 + x + 1; 3: x^3 + x + 1, x^3 + x^2 + 1; 4: two of them; 5: six
    assert _primitive_polynomials(12) == [0b11, 0b111, 0b1011, 0b1101, 0b10011, 0b11001,
                                          37, 41, 47, 55, 59, 61]
    # x^4 + x^3 + x^2 + x + 1 (31) is irreducible but not primitive (x has order 5)
    assert 31 not in _primitive_polynomials(12)


def test_plain_sequence_by_hand():
    # dimension 1 is van der Corput's sequence, dimension 2 uses x + 1, both in Gray-code
    # order: point i + 1 is point i with the direction number of i's lowest zero bit
    pts = SobolEngine(2).draw(8)
    assert pts.dtype is ember.float32 and pts.shape == (8, 2)
    assert pts[:, 0].tolist() == [0, .5, .75, .25, .375, .875, .625, .125]
    assert pts[:, 1].tolist() == [0, .5, .25, .75, .375, .875, .125, .625]
    state = SobolEngine(3).sobolstate
    assert state[0, :3].tolist() == [1 << 29, 1 << 28, 1 << 27]
    # dimension 3 (x^2 + x + 1, m = 1, 3): m_3 = 2 m_2 ^ 4 m_1 ^ m_1 = 6 ^ 4 ^ 1 = 3
    assert (state[2, :3] >> ember.tensor([29, 28, 27])).tolist() == [1, 3, 3]


def test_scrambled_points_are_a_net():
    e = SobolEngine(3, scramble=True, seed=5)
    pts = e.draw_base2(4, dtype=ember.float64).numpy()
    # each dimension's 16 points fall one in each interval [k/16, (k+1)/16)
    for d in range(3):
        assert sorted(np.floor(pts[:, d] * 16).astype(int).tolist()) == list(range(16))
    assert not np.array_equal(pts, SobolEngine(3).draw(16, dtype=ember.float64).numpy())
    again = SobolEngine(3, scramble=True, seed=5).draw(16, dtype=ember.float64).numpy()
    np.testing.assert_array_equal(pts, again)
    first = SobolEngine(3, scramble=True, seed=5)
    assert first.draw().tolist() == (first.shift / 2 ** 30).reshape(1, -1).tolist()


def test_state_operations():
    e = SobolEngine(2)
    whole = e.draw(8).numpy()
    e.reset()
    e.fast_forward(3)
    np.testing.assert_array_equal(e.draw(5).numpy(), whole[3:])
    assert e.num_generated == 8
    e = SobolEngine(2)
    e.draw(3)
    with pytest.raises(ValueError, match=r"n=3\+2\*\*1=5"):
        e.draw_base2(1)
    out = ember.empty(0)
    assert SobolEngine(2).draw(4, out=out) is out and out.shape == (4, 2)
    assert repr(SobolEngine(3, scramble=True, seed=2)) == \
        "SobolEngine(dimension=3, scramble=True, seed=2)"
    with pytest.raises(ValueError, match=r"\[1, 21201\]"):
        SobolEngine(0)
    with pytest.raises(NotImplementedError, match="1111 dimensions"):
        SobolEngine(1112)
