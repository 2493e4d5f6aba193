"""torch.quasirandom: `SobolEngine`, the scrambled or plain Sobol' sequence torch draws.

Sobol' points in d dimensions come from one table of direction numbers per dimension: the
first dimension's are all 1 (its points are the van der Corput sequence); dimension k's come
from the k-th primitive polynomial over GF(2) (in increasing order) and its initial numbers
m_1 .. m_s, which torch takes from Joe and Kuo's table (ember has those of the first 1111
dimensions, in _sobol_table.py), the rest following the Bratley-Fox recurrence. Point i + 1
is point i with the direction number of the lowest zero bit of i XOR-ed in (the Gray-code
order of Antonov and Saleev), so fast_forward and draw continue one state, `quasi`.
Scrambling (Owen's linear matrix scrambling, as torch does it) multiplies each dimension's
direction numbers by a random lower-triangular bit matrix and starts from a random shift,
both drawn from a generator seeded with `seed`.
"""
import base64
import zlib

import numpy as np

__all__ = ["SobolEngine"]

_MAXBIT = 30


def _mulmod(a, b, p, degree):
    """a * b modulo p, polynomials over GF(2) as bit masks."""
    out = 0
    while b:
        if b & 1:
            out ^= a
        b >>= 1
        a <<= 1
        if a >> degree & 1:
            a ^= p
    return out


def _x_power_is_one(p, degree, exponent):
    result, base = 1, 2          # (2: the polynomial x)
    while exponent:
        if exponent & 1:
            result = _mulmod(result, base, p, degree)
        base = _mulmod(base, base, p, degree)
        exponent >>= 1
    return result == 1


def _prime_factors(n):
    factors, q = [], 2
    while q * q <= n:
        if n % q == 0:
            factors.append(q)
            while n % q == 0:
                n //= q
        q += 1
    return factors + ([n] if n > 1 else [])


def _primitive_polynomials(count):
    """The first `count` primitive polynomials over GF(2) in increasing order, as bit masks
    (x^2 + x + 1 is 0b111): those whose root x has order 2^s - 1 (s the degree)."""
    found, degree = [], 1
    while len(found) < count:
        order = (1 << degree) - 1
        divisors = [order // q for q in _prime_factors(order)]
        for p in range((1 << degree) + 1, 1 << (degree + 1), 2):
            if _x_power_is_one(p, degree, order) and not any(
                    _x_power_is_one(p, degree, e) for e in divisors if e != order):
                found.append(p)
                if len(found) == count:
                    break
        degree += 1
    return found


def _initial_numbers():
    from ._sobol_table import DATA
    text = zlib.decompress(base64.b64decode("".join(DATA))).decode()
    return [[int(v, 36) for v in line.split()] for line in text.splitlines()]


def _direction_numbers(dimension):
    """The (dimension, 30) int64 direction numbers, each scaled to 30 bits."""
    state = np.zeros((dimension, _MAXBIT), np.int64)
    state[0] = 1
    if dimension > 1:
        polys = _primitive_polynomials(dimension - 1)
        initial = _initial_numbers()
        for d in range(1, dimension):
            p, m = polys[d - 1], initial[d - 1]
            s = len(m)
            row = m + [0] * (_MAXBIT - s)
            for j in range(s, _MAXBIT):         # Bratley and Fox's recurrence
                v = row[j - s] ^ (row[j - s] << s)
                for k in range(1, s):
                    if p >> (s - k) & 1:
                        v ^= row[j - k] << k
                row[j] = v
            state[d] = row
    return state << np.arange(_MAXBIT - 1, -1, -1)


def _scrambled(state, ltm):
    """Each dimension's direction numbers multiplied by its lower-triangular bit matrix
    `ltm[d]` (with a unit diagonal), over GF(2), bit 29 being the first row."""
    rows = np.tril(ltm, -1) | np.eye(_MAXBIT, dtype=np.int64)
    weights = np.int64(1) << np.arange(_MAXBIT - 1, -1, -1)
    masks = (rows * weights).sum(-1)        # (dimension, 30): row p as a bit mask
    bits = np.arange(_MAXBIT)
    out = np.empty_like(state)
    for d in range(state.shape[0]):
        # bit (29 - p) of the result: the parity of (row p) AND (direction number)
        anded = masks[d][None, :] & state[d][:, None]          # (j, p)
        parity = np.zeros(anded.shape, np.int64)
        for b in bits:
            parity ^= anded >> b & 1
        out[d] = (parity << (_MAXBIT - 1 - np.arange(_MAXBIT))).sum(-1)
    return out


def _lowest_zero_bit(n):
    return ((n + 1) & ~n).bit_length() - 1


class SobolEngine:
    """Draws from the Sobol' sequence in `dimension` dimensions (up to 1111 in ember),
    optionally scrambled with `seed`, as torch.quasirandom.SobolEngine."""

    MAXBIT = _MAXBIT
    MAXDIM = 21201

    def __init__(self, dimension, scramble=False, seed=None):
        import ember
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError(f"Supported range of dimensionality for SobolEngine is "
                             f"[1, {self.MAXDIM}]")
        from ._sobol_table import DIMS
        if dimension > DIMS:
            raise NotImplementedError(f"ember's SobolEngine has the direction numbers of "
                                      f"{DIMS} dimensions, not {dimension}")
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        state = _direction_numbers(dimension)
        if scramble:
            # (as torch: without a seed, the draws come from the default generator)
            g = ember.Generator().manual_seed(seed) if seed is not None else None
            shift_bits = ember.randint(2, (dimension, _MAXBIT), generator=g)._data
            self.shift = ember.tensor(shift_bits @ (np.int64(1) << np.arange(_MAXBIT)))
            ltm = ember.randint(2, (dimension, _MAXBIT, _MAXBIT), generator=g)._data
            state = _scrambled(state, ltm)
        else:
            self.shift = ember.zeros(dimension, dtype=ember.long)
        self.sobolstate = ember.tensor(state)
        self.quasi = self.shift.clone()
        self._first_point = (self.quasi / 2 ** self.MAXBIT).reshape(1, -1)
        self.num_generated = 0

    def _advance(self, n, start, dtype=None):
        """XOR `n` direction numbers into the state from point `start` on; the points (of
        `dtype`) if asked."""
        import ember
        if dtype is not None and n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                               f"[{n}, {self.dimension}]")
        if dtype is not None and dtype not in (ember.float32, ember.float64):
            # (torch's kernel has only these; a first point alone is a cast, see draw)
            raise NotImplementedError(f'"_sobol_engine_draw" not implemented for '
                                      f"'{dtype._scalar_name}'")
        quasi = self.quasi._data.copy()
        state = self.sobolstate._data
        points = None if dtype is None else np.empty((n, self.dimension), np.float64)
        for i in range(n):
            quasi ^= state[:, _lowest_zero_bit(start + i)]
            if points is not None:
                points[i] = quasi
        import ember
        self.quasi = ember.tensor(quasi)
        if points is None:
            return None
        return ember.tensor((points / 2.0 ** self.MAXBIT).astype(dtype._np))

    def draw(self, n=1, out=None, dtype=None):
        """The next `n` points, an (n, dimension) tensor of `dtype` (the default dtype)."""
        import ember
        if dtype is None:
            dtype = ember.get_default_dtype()
        if self.num_generated == 0:
            if n == 1:
                result = self._first_point.to(dtype)
            else:
                rest = self._advance(n - 1, 0, dtype)
                result = ember.cat((self._first_point.to(dtype), rest), dim=-2)
        else:
            result = self._advance(n, self.num_generated - 1, dtype)
        self.num_generated += n
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m, out=None, dtype=None):
        """The next 2**m points; the total drawn must stay a power of 2."""
        n = 2 ** m
        total_n = self.num_generated + n
        if not (total_n & (total_n - 1) == 0):
            raise ValueError(f"The balance properties of Sobol' points require n to be a power "
                             f"of 2. {self.num_generated} points have been previously "
                             f"generated, then: n={self.num_generated}+2**{m}={total_n}. If "
                             f"you still want to do this, please use 'SobolEngine.draw()' "
                             f"instead.")
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self):
        """Back to the first point."""
        self.quasi = self.shift.clone()
        self.num_generated = 0
        return self

    def fast_forward(self, n):
        """Skip the next `n` points."""
        if self.num_generated == 0:
            self._advance(n - 1, 0)
        else:
            self._advance(n, self.num_generated - 1)
        self.num_generated += n
        return self

    def __repr__(self):
        parts = [f"dimension={self.dimension}"]
        if self.scramble:
            parts += ["scramble=True"]
        if self.seed is not None:
            parts += [f"seed={self.seed}"]
        return type(self).__name__ + "(" + ", ".join(parts) + ")"


