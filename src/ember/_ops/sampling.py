"""Random tensors: rand, randn, randint, randperm, normal, bernoulli, multinomial, their
`_like` forms, and the in-place samplers (`uniform_`, `normal_`, `random_`, `bernoulli_`,
`exponential_`). The streams themselves come from `_random` (torch's CPU algorithms); a draw
for a CUDA tensor takes its words from that device's CUDA generator (NOTE [ CUDA generator
state ] in cuda/random.py), as torch keeps the CPU and CUDA generators apart, and turns them
into values on the device where it can (NOTE [ Device samplers ] in sampling_cuda.py).
"""
import numpy as np

from .. import _dtype, _memory_format as _mf, _random
from .._creation import _into, check_shape, is_size_int, out_dtype, parse_size
from .._geometry import broadcast_shapes
from .._device import MetaArray, backend_for, backend_of, cuda_current_index, or_default
from .._pinned import pin_factory_result
from .._tensor import Tensor, wrap
from ._dispatch import check_inplace, finish_inplace
from . import sampling_cuda
from ._op import Op, record
from .elementwise import check_limited
from .argument_errors import type_name
from .int_arguments import is_int
from .registry import function, method, parser_errors, register


def _on_device(gen, device, sampler, *args):
    """The values of `sampler` (of sampling_cuda) drawn on the device of CUDA generator `gen`,
    or None where the host samplers must draw (a CPU generator, a generator of another device
    than the result's, a case the device samplers leave to the host)."""
    if not sampling_cuda.on_device(gen):
        return None
    cp = backend_for(device).xp
    if (device.index if device.index is not None else cuda_current_index()) != gen.index:
        return None
    with cp.cuda.Device(gen.index):
        return sampler(gen, *args)


def _draw(gen, device, name, *args, **kwargs):
    """`name`'s samples (of `_random`) for a result on `device`: on that device if it can."""
    device = or_default(device)
    if device is not None and device.type != "cpu":
        if device.type == "meta":           # no values, no draws: (shape, dtype, ...)
            return MetaArray(args[0], args[1])
        arr = _on_device(gen, device, getattr(sampling_cuda, name), *args, *kwargs.values())
        if arr is not None:
            return arr
    return getattr(_random, name)(gen, *args, **kwargs)


def _place(array, device, requires_grad, pin_memory=False):
    """A sampled array (NumPy, or CuPy already on `device`) as a tensor on `device` (in pinned
    memory: `_pinned.py`)."""
    device = or_default(device)
    backend = backend_for(device)
    if backend.xp is not np and isinstance(array, np.ndarray):
        array = backend.from_other(array, backend_for(None), device)
    t = pin_factory_result(wrap(array), pin_memory)
    return _requiring_grad(t) if requires_grad else t


def _out_grad(t, out, requires_grad):
    """A factory's result; an `out=` requires grad after the draw when asked, as torch's."""
    return _requiring_grad(t) if requires_grad and out is not None else t


def _requiring_grad(t):
    """A factory's result with requires_grad=True (refused for integer dtypes, in the text
    torch's factories use)."""
    t._set_requires_grad(True, "Only Tensors of floating point and complex dtype can require "
                               "gradients")
    return t


def _generator(generator, device):
    """The generator a draw for `device` uses: as torch, `generator` if given (of the same
    device type), else the default generator of the CPU or of that GPU."""
    device = or_default(device)
    on_cuda = str(getattr(generator, "device", "cpu")).startswith("cuda")
    if device is not None and device.type == "cuda":
        if generator is None:
            from ..cuda.random import default_generator
            return default_generator(device.index)
        if not on_cuda:
            raise RuntimeError("Expected a 'cuda' device type for generator but found 'cpu'")
    elif on_cuda:
        raise RuntimeError("Expected a 'cpu' device type for generator but found 'cuda'")
    return generator


def _fills(out, shape, device):
    """Whether a random factory fills `out` in place: as torch's, when it has the result's shape
    (then it keeps its layout, its views see the samples, and they are drawn in its memory
    order, as its in-place samplers draw); another `out` takes the new samples' array."""
    return out is not None and tuple(out.shape) == tuple(shape) and device is None and \
        not out.is_meta


def _float_dtype(dtype, name, empty=False):
    """The dtype of a float sampler's result (torch's kernel dispatch error for others; not for
    an `empty` normal result, which torch returns before it dispatches)."""
    d = dtype or _dtype.get_default_dtype()
    if not (d.is_floating_point or d.is_complex or empty):
        raise NotImplementedError(f"\"{name}\" not implemented for '{d._scalar_name}'")
    return d


@function(method=False)
def rand(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False):
    """Uniform samples on [0, 1)."""
    shape = parse_size(args, "rand", size)
    check_shape(shape, "rand")
    d = _float_dtype(out_dtype(out, dtype, "rand"), "check_uniform_bounds")
    if _fills(out, shape, device):
        return _out_grad(out.uniform_(0.0, 1.0, generator=generator), out, requires_grad)
    gen = _generator(generator, device)
    return _out_grad(_into(out, _place(_draw(gen, device, "uniform", shape, d._np, 0.0, 1.0),
                                       device, requires_grad, pin_memory)), out, requires_grad)


@function(method=False)
def randn(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False):
    """Standard normal samples."""
    shape = parse_size(args, "randn", size)
    check_shape(shape, "randn")
    d = _float_dtype(out_dtype(out, dtype, "randn"), "normal_kernel_cpu", 0 in shape)
    if _fills(out, shape, device):
        return _out_grad(out.normal_(generator=generator), out, requires_grad)
    gen = _generator(generator, device)
    return _out_grad(_into(out, _place(_draw(gen, device, "normal", shape, d._np), device,
                                       requires_grad, pin_memory)), out, requires_grad)


def _randint_size(size, position):
    """randint's `size` (its argument number `position`) as a tuple of ints, with torch's
    TypeError for what its parser refuses: anything but a list or tuple, or one whose first
    element is no int. (A refusal of the three-number form is reworded by the wrapper, as
    torch's parser words it: none of randint's signatures fits.)"""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"randint(): argument 'size' (position {position}) must be tuple of "
                        f"ints, not {type_name(size)}")
    if size and not is_size_int(size[0]):
        raise TypeError(f"randint(): argument 'size' (position {position}) must be tuple of "
                        f"ints, but found element of type {type_name(size[0])} at pos 0")
    return tuple(int(s) if s.__class__ is not int and is_size_int(s) else s for s in size)


@function(method=False)
def randint(*args, low=None, high=None, size=None, generator=None, out=None, dtype=None,
            layout=None, device=None, requires_grad=False, pin_memory=False):
    """Integers in [low, high): `randint(high, size)` or `randint(low, high, size)`; each may
    also be given by keyword."""
    if low is not None:     # (low is the first parameter: no positional one may precede it)
        args = None if args else (low,)
    if high is not None and args is not None:
        args = args + (high,) if len(args) <= 1 else None
    if args is not None and size is not None:
        args = args + (size,)
    if args is None or (low is not None and len(args) != 3):
        raise TypeError("randint() received an invalid combination of arguments")
    if len(args) == 2:
        low, high, shape = 0, args[0], args[1]
    elif len(args) == 3:
        low, high, shape = args
    else:
        raise TypeError("randint() received an invalid combination of arguments")
    if not (is_int(low) and is_int(high)):      # (the wrapper words torch's TypeError)
        raise TypeError("randint() takes integer bounds")
    shape = _randint_size(shape, len(args))
    check_shape(shape, "randint")
    d = out_dtype(out, dtype, "randint") or _dtype.int64
    if _fills(out, shape, device):
        return _out_grad(out.random_(int(low), int(high), generator=generator), out, requires_grad)
    gen = _generator(generator, device)
    return _out_grad(_into(out, _place(_draw(gen, device, "random_", shape, d._np, int(low),
                                             int(high)), device, requires_grad, pin_memory)),
                     out, requires_grad)


_NO_N = object()        # (randperm called without n)


@function(method=False)
def randperm(n=_NO_N, *, generator=None, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """A random permutation of 0..n-1."""
    if n is _NO_N or not is_int(n) or \
            generator is not None and not isinstance(generator, _random.Generator):
        raise TypeError("randperm(): no overload fits")   # (the registry words torch's text)
    d = out_dtype(out, dtype, "randperm") or _dtype.int64
    gen = _generator(generator, device)
    dev = or_default(device)
    array = MetaArray((int(n),), d._np) if dev is not None and dev.type == "meta" else \
        _random.randperm(gen, int(n), d._np)
    if _fills(out, array.shape, device):
        return _out_grad(out.copy_(_place(array, out.device, False)), out, requires_grad)
    return _out_grad(_into(out, _place(array, device, requires_grad, pin_memory)),
                     out, requires_grad)


def _like(name, input, dtype, device):
    return (input.dtype if dtype is None else _dtype.as_dtype(dtype, name)), \
        (device if device is not None else input.device)


def _laid_out_like(input, d, dev, requires_grad, memory_format, fill):
    """torch's `*_like` samplers are `empty_like(input)` filled in place: a tensor laid out in
    another order (a transpose, channels_last) gets a result of its layout, filled in that
    memory order. None where `input` is row-major (the plain samplers draw the same)."""
    if memory_format is None:
        memory_format = _mf.preserve_format
    if memory_format is not _mf.preserve_format or _mf.memory_order(input._data) is None:
        return None
    from .._creation import empty_like
    out = empty_like(input, dtype=d, device=dev, memory_format=memory_format)
    fill(out)
    return _requiring_grad(out) if requires_grad else out


@function(method=False)
def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None, generator=None):
    """Uniform samples with the shape (and layout) of `input`."""
    d, dev = _like("rand_like", input, dtype, device)
    _float_dtype(d, "check_uniform_bounds")
    out = _laid_out_like(input, d, dev, requires_grad, memory_format,
                         lambda t: t.uniform_(generator=generator))
    return out if out is not None else rand(tuple(input.shape), generator=generator, dtype=d,
                                            device=dev, requires_grad=requires_grad)


@function(method=False)
def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None, generator=None):
    """Standard normal samples with the shape (and layout) of `input`."""
    d, dev = _like("randn_like", input, dtype, device)
    _float_dtype(d, "normal_kernel_cpu", input.numel() == 0)
    out = _laid_out_like(input, d, dev, requires_grad, memory_format,
                         lambda t: t.normal_(generator=generator))
    return out if out is not None else randn(tuple(input.shape), generator=generator, dtype=d,
                                             device=dev, requires_grad=requires_grad)


@function(method=False)
def randint_like(input, low=None, high=None, *, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None, generator=None):
    """Random integers in [low, high) with the shape (and layout) of `input`."""
    if high is None:
        if low is None:     # (no bound: the registry's wrapper words torch's TypeError)
            raise TypeError("randint_like() takes a high bound")
        low, high = 0, low
    elif low is None:
        low = 0
    d, dev = _like("randint_like", input, dtype, device)
    if low < high:
        out = _laid_out_like(input, d, dev, requires_grad, memory_format,
                             lambda t: t.random_(low, high, generator=generator))
        if out is not None:
            return out
    return randint(low, high, tuple(input.shape), generator=generator, dtype=d, device=dev,
                   requires_grad=requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None,
           layout=None, device=None, requires_grad=False, pin_memory=False):
    """Normal samples: `normal(mean, std, size)` with numbers, or elementwise with tensors."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if size is not None or dtype is not None or layout is not None or \
                device is not None or requires_grad or pin_memory:
            raise TypeError("normal(): a tensor mean or std takes no factory arguments")
        if isinstance(std, Tensor) and std.is_complex():
            raise RuntimeError("normal expects standard deviation to be non-complex")
        if out is not None:
            if not isinstance(std, Tensor):
                # torch: the result has the shape of mean broadcast with out's own
                shape = broadcast_shapes(tuple(mean.shape), tuple(out.shape))
                mean = mean if tuple(mean.shape) == shape else mean.expand(shape)
            shape = broadcast_shapes(tuple(getattr(mean, "shape", ())),
                                     tuple(getattr(std, "shape", ())))
            if _fills(out, shape, None) and not (isinstance(std, Tensor) and (std < 0).any()):
                # torch: out.normal_(0, std) + mean for a number std, else
                # out.normal_(0, 1) * std + mean, filled in out's memory order
                if isinstance(std, Tensor):
                    return out.normal_(0.0, 1.0, generator=generator).mul_(std).add_(mean)
                return out.normal_(0.0, std, generator=generator).add_(mean)
            return _into(out, normal(mean, std, generator=generator).to(out.dtype))
        ref = mean if isinstance(mean, Tensor) else std
        tensors = tuple(t for t in (mean, std) if isinstance(t, Tensor))
        op = _NormalSample[isinstance(mean, Tensor), isinstance(std, Tensor)]
        if any(t.is_meta for t in tensors):     # (no values, no draws)
            shape = broadcast_shapes(tuple(getattr(mean, "shape", ())),
                                     tuple(getattr(std, "shape", ())))
            return _with_zero_grad(_place(MetaArray(shape, ref._data.dtype), ref.device, False),
                                   op, tensors)
        if all(t.is_cuda for t in (mean, std) if isinstance(t, Tensor)):
            m = mean._data if isinstance(mean, Tensor) else mean
            s = std._data if isinstance(std, Tensor) else std
            shape = broadcast_shapes(np.shape(m), np.shape(s))
            arr = _on_device(_generator(generator, ref.device), ref.device, sampling_cuda.normal,
                             shape, ref.dtype._np, m, s)
            if arr is not None:
                return _with_zero_grad(_place(arr, ref.device, False), op, tensors)
        # (the host samplers: a CUDA mean or std is copied there)
        m = backend_of(mean._data).to_numpy(mean._data) if isinstance(mean, Tensor) else mean
        s = backend_of(std._data).to_numpy(std._data) if isinstance(std, Tensor) else std
        shape = broadcast_shapes(np.shape(m), np.shape(s))
        if isinstance(std, Tensor) and (np.asarray(s) < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        arr = _random.normal(_generator(generator, ref.device), shape, ref.dtype._np, m, s)
        return _with_zero_grad(_place(arr, ref.device, False), op, tensors)
    if size is None:
        raise TypeError("normal(): numbers as mean and std need a size")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_random._fmt(std)}")
    d = _float_dtype(out_dtype(out, dtype, "normal"), "normal_kernel_cpu", 0 in tuple(size))
    if _fills(out, tuple(size), device):
        return _out_grad(out.normal_(mean, std, generator=generator), out, requires_grad)
    return _out_grad(_into(out, _place(_draw(_generator(generator, device), device, "normal",
                                             tuple(size), d._np, mean, std), device,
                                       requires_grad, pin_memory)), out, requires_grad)


# torch's argument-parser errors (normal(0, 1) with no size, a tensor mean with a size, ...):
# worded from normal's signatures, on the error path only.
register("normal", parser_errors(normal, "normal", function=True), method=False)


class _ZeroGradSample(Op):
    """A sample drawn with tensor parameters: torch records a node whose gradient in each of
    them is zero."""

    def backward(ctx, grad):
        from .._creation import zeros_like
        zero = zeros_like(grad)
        return zero if len(ctx.needs_input_grad) == 1 else (zero,) * len(ctx.needs_input_grad)


def _zero_grad_node(name, inputs):
    return type(name, (_ZeroGradSample,), {"node_name": name, "inputs": inputs,
                                           "__module__": __name__})


# torch's nodes of normal(Tensor, float), normal(float, Tensor), normal(Tensor, Tensor) and
# bernoulli(Tensor)
_NormalSample = {(True, False): _zero_grad_node("NormalBackward1", ("mean",)),
                 (False, True): _zero_grad_node("NormalBackward2", ("std",)),
                 (True, True): _zero_grad_node("NormalBackward3", ("mean", "std"))}
_BernoulliSample = _zero_grad_node("BernoulliBackward0", ("self",))


class _BernoulliP(Op):
    """bernoulli(input, p) of a number p: torch records a node that cannot differentiate."""
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::bernoulli is not implemented")


def _with_zero_grad(result, op, inputs):
    """`result`, recorded as `op`'s output when one of `inputs` requires grad."""
    from ..autograd.grad_mode import _state
    if _state.enabled and any(t._requires_grad for t in inputs):
        record(op, inputs, (result,), {})
    return result


@function()
def bernoulli(input, p=None, *, generator=None, out=None):
    """0/1 samples: 1 with probability `input` (or `p`) per element."""
    if p is not None:
        if out is not None or isinstance(p, Tensor) and p.ndim:   # (p is a float, no out=)
            raise TypeError("bernoulli(): no overload fits")   # (the registry words torch's)
        _random.check_probability(p)
    elif _fills(out, input.shape, None):
        return out.bernoulli_(input, generator=generator)
    if input.is_meta:       # (no values, no draws)
        result = _place(MetaArray(tuple(input.shape), input._data.dtype), input.device, False)
        if out is None and input._requires_grad:
            return _with_zero_grad(result, _BernoulliSample if p is None else _BernoulliP,
                                   (input,))
        return _into(out, result)
    if input.numel():       # (torch checks nothing more of an empty input)
        check_limited(input, "bernoulli_tensor_cpu_self_" if p is None else
                      "bernoulli_scalar_cpu_")
    gen = _generator(generator, input.device)
    arr = None
    if input.is_cuda:
        arr = _on_device(gen, input.device, sampling_cuda.bernoulli,
                         input._data if p is None else p, tuple(input.shape), input.dtype._np)
    if arr is None:
        probs = backend_of(input._data).to_numpy(input._data) if p is None else p
        arr = _random.bernoulli(gen, probs, tuple(input.shape), input.dtype._np)
    result = _place(arr, input.device, False)
    if out is None and input._requires_grad:
        return _with_zero_grad(result, _BernoulliSample if p is None else _BernoulliP, (input,))
    return _into(out, result)


@function()
def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices sampled by the (unnormalised) weights in each row of `input`."""
    if replacement.__class__ is not bool:
        raise TypeError("multinomial(): replacement is a bool")    # (the registry words it)
    if out is not None and out.dtype != _dtype.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {out.dtype._scalar_name}")
    if input.is_meta:       # (no values, no draws; torch's meta kernel checks no more)
        return _into(out, _place(MetaArray(tuple(input.shape[:-1]) + (num_samples,),
                                           np.dtype(np.int64)), input.device, False))
    probs = backend_of(input._data).to_numpy(input._data)
    result = _place(_random.multinomial(_generator(generator, input.device), probs, num_samples,
                                        replacement), input.device, False)
    if _fills(out, result.shape, None):
        return out.copy_(result)
    return _into(out, result)


# -- in-place samplers ------------------------------------------------------------------------

class Sampled(Op):
    """An in-place random fill: the old values are gone, so no gradient flows back."""
    node_name = "NormalBackward0"

    def backward(ctx, grad):
        from .._creation import zeros_like
        return zeros_like(grad)


def _fill(self, array, node, memory_order=True):
    """Write the samples `array` (drawn in index order) into `self`. As torch, a tensor laid
    out in another order (a transpose, channels_last) gets them in its memory order."""
    check_inplace(self, self._data.dtype, tuple(self._data.shape))
    data = self._data
    if backend_of(data).xp is not np and isinstance(array, np.ndarray):
        array = backend_of(data).from_other(array, backend_for(None), self.device)
    perm = _mf.memory_order(data) if memory_order else None
    if perm is None:
        data[...] = array
    else:
        view = data.transpose(perm)
        view[...] = array.reshape(view.shape)
    return finish_inplace(node, (self,), {}, self, self._requires_grad)


def _sampler_node(name, overload=0):
    """The op of an in-place sampler; `overload` numbers the node as torch's overloads do."""
    return type(f"{name}Fill{overload}", (Sampled,),
                {"node_name": f"{name}Backward{overload}", "__module__": __name__})


_UniformFill = _sampler_node("Uniform")
_NormalFill = _sampler_node("Normal")
# random_(from, to), random_(to), random_()
_RandomFill = (_sampler_node("Random", 0), _sampler_node("Random", 1),
               _sampler_node("Random", 2))
_BernoulliFill = _sampler_node("Bernoulli", 2)              # bernoulli_(p) of a number p
_BernoulliTensorFill = _sampler_node("Bernoulli", 1)        # bernoulli_(p) of a tensor p
_ExponentialFill = _sampler_node("Exponential")


@method()
def uniform_(self, from_=0.0, to=1.0, *, generator=None, **kwargs):
    """Fill with uniform samples on [from, to)."""
    from_ = kwargs.pop("from", from_)
    if kwargs:          # (the registry words torch's TypeError)
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    arr = _draw(_generator(generator, self.device), self.device, "uniform", tuple(self.shape),
                self._data.dtype, from_, to)
    return _fill(self, arr, _UniformFill)


@method()
def normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill with normal samples."""
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_random._fmt(std)}")
    arr = _draw(_generator(generator, self.device), self.device, "normal", tuple(self.shape),
                self._data.dtype, mean, std, contiguous=self._data.flags.c_contiguous)
    return _fill(self, arr, _NormalFill)


_UNSET = object()     # (random_(from, None) is another overload than random_(from))


@method()
def random_(self, from_=_UNSET, to=_UNSET, *, generator=None, **kwargs):
    """Fill with integers: [0, 2**mantissa) by default, [0, to), [from, to), or from `from`
    up to the dtype's largest integer when `to` is given as None."""
    # torch's overloads: random_(), random_(int to), random_(int from, int? to) (`to` required)
    by_keyword = "from" in kwargs
    if by_keyword:
        from_ = kwargs.pop("from")
    if kwargs or from_ is None or from_ is _UNSET and to is None or by_keyword and to is _UNSET:
        raise TypeError("random_(): no overload fits")     # (the registry words torch's text)
    if from_ is _UNSET:
        node, from_, to = (_RandomFill[2], None, None) if to is _UNSET else (_RandomFill[1], 0, to)
    elif to is _UNSET:
        node, from_, to = _RandomFill[1], 0, from_
    else:
        node = _RandomFill[0]
    if not (from_ is None or is_int(from_)) or not (to is None or is_int(to)):
        raise TypeError("random_(): 'from' and 'to' take integers")
    arr = _draw(_generator(generator, self.device), self.device, "random_", tuple(self.shape),
                self._data.dtype, from_, to)
    return _fill(self, arr, node)


@method()
def bernoulli_(self, p=0.5, *, generator=None):
    """Fill with 0/1 samples, 1 with probability `p` (a number or a tensor)."""
    if not isinstance(p, Tensor):
        _random.check_probability(p)
    if self.numel() == 0:       # torch returns before its other checks
        return _fill(self, self._data, _BernoulliTensorFill if isinstance(p, Tensor) else
                     _BernoulliFill, memory_order=False)
    check_limited(self, "bernoulli_tensor_cpu_self_" if isinstance(p, Tensor) else
                  "bernoulli_scalar_cpu_")
    if self.is_meta:
        return _fill(self, self._data, _BernoulliFill)
    gen = _generator(generator, self.device)
    arr = None
    if self.is_cuda and (not isinstance(p, Tensor) or p.is_cuda):
        arr = _on_device(gen, self.device, sampling_cuda.bernoulli,
                         p._data if isinstance(p, Tensor) else p, tuple(self.shape),
                         self._data.dtype)
    if arr is None:
        probs = backend_of(p._data).to_numpy(p._data) if isinstance(p, Tensor) else p
        shape, perm = tuple(self.shape), _mf.memory_order(self._data)
        if perm is not None and isinstance(p, Tensor):
            # torch draws in self's memory order, reading p at the same elements
            try:
                probs = np.broadcast_to(probs, shape).transpose(perm)
                shape = tuple(shape[d] for d in perm)
            except ValueError:
                pass                # (_random.bernoulli raises torch's error)
        arr = _random.bernoulli(gen, probs, shape, self._data.dtype)
    if isinstance(p, Tensor):
        return _fill(self, arr, _BernoulliTensorFill)
    return _fill(self, arr, _BernoulliFill)


@method()
def exponential_(self, lambd=1.0, *, generator=None):
    """Fill with exponential samples of rate `lambd`."""
    if self.is_meta:
        return _fill(self, self._data, _ExponentialFill)
    arr = _random.exponential(_generator(generator, self.device), tuple(self.shape),
                              self._data.dtype, lambd)
    return _fill(self, arr, _ExponentialFill)
