"""vmap(randomness="different") draws each random op once for the whole batch (or chunk), as
torch's batched random ops do (NOTE [ Random draws under vmap ]): element b's numbers are row b
of the same op drawn outside vmap with the batch dim in front."""
import numpy as np
import pytest

import ember
from ember.func import vmap
F = ember.nn.functional


def _drawn(f, *inputs, chunk_size=None):
    ember.manual_seed(0)
    out = vmap(f, randomness="different", chunk_size=chunk_size)(*inputs)
    return out.numpy(), ember.rand(1).item()      # (and where the stream was left)


def _reference(draw):
    ember.manual_seed(0)
    out = draw()
    return out.numpy(), ember.rand(1).item()


def _same(a, b):
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]


def test_a_normal_draw_is_one_batched_draw():
    # 3 x 8 normals take the 16-wide path that 8 alone does not: the values differ
    _same(_drawn(lambda t: t + ember.randn(8), ember.zeros(3, 8)),
          _reference(lambda: ember.randn(3, 8)))
    assert not np.array_equal(_reference(lambda: ember.randn(3, 8))[0][1],
                              _reference(lambda: ember.randn(8))[0])


def test_two_random_ops_draw_one_after_the_other_for_the_whole_batch():
    def both():
        u = ember.rand(3, 2)
        return u + ember.randn(3, 2)
    _same(_drawn(lambda t: t + ember.rand(2) + ember.randn(2), ember.zeros(3, 2)),
          _reference(both))

    def two_dropouts():
        x = F.dropout(ember.ones(4, 5), 0.3)
        return F.dropout(x, 0.6)
    _same(_drawn(lambda t: F.dropout(F.dropout(t, 0.3), 0.6), ember.ones(4, 5)),
          _reference(two_dropouts))


def test_per_element_arguments_draw_from_the_batched_stream():
    p = ember.tensor([[0.1, 0.9, 0.5], [0.7, 0.2, 0.4]])
    _same(_drawn(lambda q: ember.bernoulli(q) + ember.rand(3), p),
          _reference(lambda: ember.bernoulli(p) + ember.rand(2, 3)))
    mean = ember.arange(18.).view(3, 6)
    _same(_drawn(lambda m: ember.normal(m, 0.5), mean),
          _reference(lambda: ember.normal(mean, 0.5)))


@pytest.mark.parametrize("chunk_size, chunks", [(1, (1, 1, 1)), (2, (2, 1)), (3, (3,)),
                                                (5, (3,))])
def test_chunks_draw_on_their_own(chunk_size, chunks):
    def per_chunk():
        return ember.cat([ember.randn(n, 8) + ember.rand(n, 1) for n in chunks])
    _same(_drawn(lambda t: t * ember.randn(8) + ember.rand(1), ember.ones(3, 8),
                 chunk_size=chunk_size), _reference(per_chunk))


def test_in_place_randomness_on_an_unbatched_tensor_is_refused():
    with pytest.raises(RuntimeError, match="vmap: Cannot ask for different inplace randomness "
                                           "on an unbatched tensor"):
        vmap(lambda t: t + ember.empty(3).uniform_(), randomness="different")(ember.zeros(2, 3))
    same = vmap(lambda t: t + ember.empty(3).uniform_(), randomness="same")(ember.zeros(2, 3))
    np.testing.assert_array_equal(same[0].numpy(), same[1].numpy())
    # on the element's own values (batched) it draws
    out = vmap(lambda t: t.clone().normal_(), randomness="different")(ember.zeros(2, 20))
    ember.manual_seed(0)
    assert not np.array_equal(out[0].numpy(), out[1].numpy())
