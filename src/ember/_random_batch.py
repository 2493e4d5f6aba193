"""Random draws of a whole vmap batch at once, as torch's batched random ops make them.

NOTE [ Random draws under vmap ]
ember's vmap calls the function once per batch element (NOTE [ vmap runs the function once per
batch element ] in func/vmap.py). With randomness="different", torch instead runs each random
op once on the batched shape (batch dim first): `randn(8)` inside a vmap of 3 draws one
`randn(3, 8)` and gives row b to element b, and a second random op draws after the first has
drawn for every element. Drawing per element gives other numbers wherever that order matters:
two random ops in one call (an ensemble's two dropout layers), or a normal draw whose batched
size reaches torch's vectorized path (16 values) while one element's does not.

So while such a vmap runs, the samplers of `_random` marked `batchable` draw for the whole
batch: at element 0, the k-th draw is made with the batch dim in front and kept; element b
takes row b of the k-th draw. A draw whose arguments are arrays (bernoulli's p, normal's mean
or std, which differ per element) is made again for element b with b's arguments from the
generator state the first draw started at, and the state is put back: the same words, so
row b is what torch's one batched draw gives it. Samplers that are not marked (multinomial,
randperm, cauchy_, log_normal_, geometric_) keep drawing per element. With `chunk_size`
torch draws per chunk, and so does this. A vmap of "different" randomness inside another
draws through the outer one's batch.
"""
import functools

import numpy as np

_active = [None]        # the Batch of the vmap(randomness="different") running now, or None


class Batch:
    """The draws of one vmap chunk of `size` elements (see the NOTE)."""

    def __init__(self, size):
        self.size = size
        self.index = 0          # the element running now
        self.calls = []         # per draw: (sampler, shape, full draw, state before it)
        self.k = 0              # draws made so far by the element running now

    def start(self, index):
        self.index, self.k = index, 0

    def draw(self, sampler, shape_at, args, kwargs):
        from ._random import _as_shape, _gen
        gen = _gen(args[0])
        shape = _as_shape(args[shape_at])
        full_args = list(args)
        full_args[shape_at] = (self.size,) + shape
        per_element = any(isinstance(a, np.ndarray) for a in (*args[1:], *kwargs.values()))
        if self.index == 0:
            before = gen._state_bytes() if per_element else None
            full = sampler(*full_args, **kwargs)
            self.calls.append((sampler, shape, full, before))
            return full[0, ...].copy()
        if self.k >= len(self.calls) or self.calls[self.k][:2] != (sampler, shape):
            return sampler(*args, **kwargs)     # (not the draws of element 0: draw as asked)
        _, _, full, before = self.calls[self.k]
        self.k += 1
        if before is not None:
            now = gen._state_bytes()
            gen._restore(before)
            full = sampler(*full_args, **kwargs)
            gen._restore(now)
        return full[self.index, ...].copy()


def batchable(shape_at):
    """Mark a sampler `f(gen, ..., shape, ...)` (its shape at position `shape_at`) as one that
    draws for the whole batch under vmap(randomness="different")."""
    def mark(sampler):
        @functools.wraps(sampler)
        def draw(*args, **kwargs):
            batch = _active[0]
            if batch is None:
                return sampler(*args, **kwargs)
            _active[0] = None           # (the sampler's own draws are plain ones)
            try:
                return batch.draw(sampler, shape_at, args, kwargs)
            finally:
                _active[0] = batch
        return draw
    return mark


class batched_draws:
    """The context of one vmap(randomness="different") call over `size` elements, drawn in
    chunks of `chunk_size` (None: one chunk); `element(b)` starts element b."""

    def __init__(self, size, chunk_size):
        self.size, self.chunk = size, chunk_size or size
        self.outer = None

    def __enter__(self):
        self.outer = _active[0]
        return self

    def element(self, b):
        if self.outer is not None or self.size == 0:
            return
        if b % self.chunk == 0:
            _active[0] = Batch(min(self.chunk, self.size - b))
        _active[0].start(b % self.chunk)

    def __exit__(self, *exc):
        _active[0] = self.outer
