"""`Parameter` (a tensor a Module trains) and `Buffer` (a tensor a Module keeps and saves)."""
from .._tensor import Tensor
from .._torch_function import _disabled_torch_function_impl


class _ParameterMeta(type):
    # NOTE: as in torch, `Parameter(x)` of a tensor subclass instance `x` keeps x's class and
    # marks the result `_is_param`; `isinstance(p, Parameter)` reads that mark. (An exact
    # Parameter never reaches this: Python answers isinstance for the exact type itself.)
    def __instancecheck__(cls, instance):
        if cls is Parameter and getattr(instance, "_is_param", False):
            return isinstance(instance, Tensor)
        return super().__instancecheck__(instance)


class Parameter(Tensor, metaclass=_ParameterMeta):
    """A tensor that a Module registers as a parameter when assigned as an attribute.

        >>> nn.Parameter(torch.ones(2))
        Parameter containing:
        tensor([1., 1.], requires_grad=True)

    Of an instance of a tensor subclass it returns a detached instance of that subclass,
    marked as a parameter (it prints as `Parameter(MyTensor([1., 1.], requires_grad=True))`).
    """

    # ops on a Parameter give plain Tensors (torch: `param * 2` is no Parameter)
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        if not isinstance(data, Tensor):     # torch detaches anything that is not a Tensor
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if type(data) is not Tensor and type(data) is not Parameter:
            return _subclass_parameter(data, requires_grad)
        if requires_grad and data._data.dtype.kind not in "fcV":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        return Tensor._make_subclass(cls, data, requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        # torch copies only the data and requires_grad: the copy has no .grad (unlike a plain
        # tensor's deepcopy) and none of the attributes set on the original.
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.data.clone(), self.requires_grad)
        return memo[id(self)]

    def __reduce_ex__(self, protocol):
        return _rebuild_parameter, (self.detach(), self.requires_grad)


def _subclass_parameter(data, requires_grad):
    """`Parameter(data)` of an instance of a tensor subclass (a Parameter subclass included):
    `data` detached, in its own class, marked `_is_param`."""
    t = data.detach().requires_grad_(requires_grad)
    if type(t) is not type(data):
        raise RuntimeError(
            f"Creating a Parameter from an instance of type {type(data).__name__} requires that "
            f"detach() returns an instance of the same type, but return type "
            f"{type(t).__name__} was found instead. To use the type as a Parameter, please "
            f"correct the detach() semantics defined by its __torch_dispatch__() "
            f"implementation.")
    t._is_param = True
    return t


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # NOTE: as in torch, `Buffer(t)` returns a plain Tensor marked as a buffer, and
    # `isinstance(x, Buffer)` reads that mark.
    def __instancecheck__(cls, instance):
        if cls is Buffer:
            return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a Module registers as a buffer when assigned as an attribute
    (`persistent=False` keeps it out of the state_dict)."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


# -- uninitialized parameters and buffers (the state of a lazy module before its first call) --

_UNINITIALIZED_ERROR = (
    "Attempted to use an uninitialized parameter in {}. This error happens when you are using "
    "a `LazyModule` or explicitly manipulating `torch.nn.parameter.{}` objects. When using "
    "LazyModules Call `forward` with a dummy batch to initialize the parameters before calling "
    "torch functions")

# NOTE: the Tensor methods torch writes in Python: its error names them as functions
# (`<function Tensor.__len__ at 0x...>`); the rest are methods of its C base class.
_TORCH_PYTHON_METHODS = frozenset({
    "__deepcopy__", "__reduce_ex__", "__setstate__", "__repr__", "backward", "register_hook",
    "register_post_accumulate_grad_hook", "is_shared", "share_memory_", "__reversed__", "norm",
    "lu", "stft", "istft", "resize", "resize_as", "split", "unique", "unique_consecutive",
    "__rsub__", "__rdiv__", "__rtruediv__", "__pow__", "__ipow__", "__rmod__", "__format__",
    "__rpow__", "__floordiv__", "__rfloordiv__", "__rlshift__", "__rrshift__",
    "__len__", "__iter__", "__hash__", "__dir__", "__array__", "__contains__", "storage",
    "unflatten", "to_sparse_coo", "dim_order", "__dlpack__", "__dlpack_device__"})

# What an uninitialized tensor still allows, besides what UninitializedTensorMixin defines
# (size, conversions, copying, printing): the Tensor methods that read only dtype and device.
_ALLOWED = frozenset({"is_complex", "is_floating_point", "get_device", "__init__"})
_CONVERSIONS = ("to", "cpu", "cuda", "float", "double", "half", "char", "short", "int", "long")
_BINARY_OPS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
               "xor", "lshift", "rshift")


def _uninitialized_error(kind, where):
    return ValueError(_UNINITIALIZED_ERROR.format(where, kind))


class _NoData:
    """Stands in for the array of an uninitialized tensor. Ops read a tensor's array through
    `backend_of(t._data)` (which asks its `__class__`) or its attributes; each of those raises
    torch's error here, so a function given an uninitialized parameter fails instead of
    computing on an empty array."""

    __slots__ = ("kind",)

    def __init__(self, kind):
        object.__setattr__(self, "kind", kind)

    def _fail(self, *args, **kwargs):
        raise _uninitialized_error(object.__getattribute__(self, "kind"), "a torch function")

    __class__ = property(_fail)
    __getattr__ = __array__ = __array_ufunc__ = __array_function__ = _fail
    __len__ = __iter__ = __getitem__ = __setitem__ = __bool__ = __float__ = __index__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __neg__ = __abs__ = __invert__ = _fail


for _op in _BINARY_OPS:
    setattr(_NoData, f"__{_op}__", _NoData._fail)
    setattr(_NoData, f"__r{_op}__", _NoData._fail)


# NOTE: torch's error names the method its dispatcher ran, which for Python's operators is
# the op behind them (a reflected operator included: Python calls it first on a subclass).
_TORCH_NAMES = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub",
    "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_",
    "__truediv__": "div", "__rtruediv__": "__rdiv__", "__itruediv__": "div_",
    "__matmul__": "matmul", "__rmatmul__": "matmul", "__mod__": "remainder", "__neg__": "neg",
    "__pos__": "positive", "__abs__": "abs", "__lt__": "lt", "__le__": "le", "__gt__": "gt",
    "__ge__": "ge", "__ne__": "ne", "__rand__": "bitwise_and", "__ror__": "bitwise_or",
    "__rxor__": "bitwise_xor", "__iter__": "dim", "ndimension": "dim", "nelement": "numel"}
_REFLECTED = frozenset(f"__r{op}__" for op in _BINARY_OPS)


def _refusing(name):
    """A Tensor method that raises torch's error on an uninitialized tensor."""
    def method(self, *args, **kwargs):
        called = name
        if name in _REFLECTED and args and isinstance(args[0], Tensor):
            called = "__" + name[3:]        # `tensor - p`: torch ran the tensor's own __sub__
        torch_name = _TORCH_NAMES.get(called, called)
        if torch_name in _TORCH_PYTHON_METHODS:
            qualname = "TensorBase.pow" if torch_name == "__pow__" else f"Tensor.{torch_name}"
            where = f"<function {qualname} at {hex(id(getattr(Tensor, called)))}>"
        elif torch_name in ("__getitem__", "__setitem__"):
            where = f"<slot wrapper '{torch_name}' of 'torch._C.TensorBase' objects>"
        else:
            where = f"<method '{torch_name}' of 'torch._C.TensorBase' objects>"
        raise _uninitialized_error(type(self).__name__, where)
    method.__name__ = name
    return method


class UninitializedTensorMixin:
    """What UninitializedParameter and UninitializedBuffer share: no shape and no data yet,
    only a dtype and a device, until `materialize(shape)` turns the object itself into a
    `cls_to_become` of that shape."""

    __slots__ = ()
    cls_to_become = None
    _guarded = False

    def __new__(cls, requires_grad, device, dtype):
        from .._creation import empty
        if not isinstance(requires_grad, bool):
            raise TypeError(f"_make_subclass(): argument 'require_grad' (position 3) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if not UninitializedTensorMixin._guarded:
            _guard_tensor_methods()
        t = object.__new__(cls)._init(_NoData(cls.__name__))
        # NOTE: `_like` is an empty tensor that carries the dtype and device (and takes the
        # conversions of `Module.to`); the tensor's own array stays a `_NoData`.
        t._like = empty(0, device=device, dtype=dtype)
        if requires_grad and not (t._like.is_floating_point() or t._like.is_complex()):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t._requires_grad = requires_grad
        return t

    def materialize(self, shape, device=None, dtype=None):
        """Turn this object into a `cls_to_become` (Parameter or Tensor) of `shape`, on the
        given device and dtype (default: its own), with uninitialized values."""
        from .._creation import empty
        data = empty(shape, device=self.device if device is None else device,
                     dtype=self.dtype if dtype is None else dtype)
        if self._requires_grad and not (data.is_floating_point() or data.is_complex()):
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        del self.__dict__["_like"]
        Tensor.data.fset(self, data)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This "
                           "error usually happens in `load_state_dict` when trying to load an "
                           "uninitialized parameter into an initialized one. Call `forward` to "
                           "initialize the parameters before accessing their attributes.")

    dtype = property(lambda self: self._like.dtype)
    device = property(lambda self: self._like.device)
    ndim = property(lambda self: self._like.ndim)
    itemsize = property(lambda self: self._like.itemsize)
    nbytes = property(lambda self: self._like.nbytes)
    is_cuda = property(lambda self: self._like.is_cuda)
    is_cpu = property(lambda self: self._like.is_cpu)
    is_meta = property(lambda self: self._like.is_meta)
    layout = property(lambda self: self._like.layout)

    @property
    def data(self):
        return self._like.detach()

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        self._like = value._like if is_lazy(value) else value.detach()

    def size(self, dim=None):
        return self._like.size(dim)

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call "
                           "`forward` to initialize the parameters before calling "
                           "`module.share_memory()`.")

    def _converted(self, name, args, kwargs):
        # NOTE: as in torch: a conversion that changes nothing returns the object itself; a
        # real one gives an empty Tensor for a parameter (with a ToCopyBackward0 node when it
        # requires grad) and a new uninitialized buffer for a buffer.
        like = self._like.detach().requires_grad_(self._requires_grad)
        result = getattr(like, name)(*args, **kwargs)
        if result is like:
            return self
        if isinstance(self, UninitializedBuffer):
            return UninitializedBuffer(self._requires_grad, result.device, result.dtype,
                                       persistent=self.persistent)
        return result

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __hash__ = Tensor.__hash__

    def __reduce_ex__(self, protocol):
        return type(self), (self._requires_grad,)

    def __copy__(self):
        return self._same_kind()

    def _same_kind(self):
        return type(self)(self._requires_grad, self.device, self.dtype)


def _conversion(name):
    def method(self, *args, **kwargs):
        return self._converted(name, args, kwargs)
    method.__name__ = name
    return method


for _op in _CONVERSIONS:
    setattr(UninitializedTensorMixin, _op, _conversion(_op))
del _op


def _guard_tensor_methods():
    """Make every public Tensor method (and operator) that reads data refuse an uninitialized
    tensor. Done on first use, once the op registry has put all methods on Tensor."""
    for name, value in list(vars(Tensor).items()):
        private = name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
        if (private or name in _ALLOWED or name in vars(UninitializedTensorMixin)
                or not callable(value) or isinstance(value, (type, staticmethod, classmethod))):
            continue
        setattr(UninitializedTensorMixin, name, _refusing(name))
    UninitializedTensorMixin._guarded = True


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet (a lazy module's, before its first call).

    It has a dtype and a device, but no data: most uses raise until `materialize(shape)`
    turns it into an ordinary `Parameter`.

        >>> nn.UninitializedParameter()
        <UninitializedParameter>
    """

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return super().__new__(cls, requires_grad, device, dtype)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = self._same_kind()
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet; `materialize(shape)` turns it into a Tensor."""

    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        t = super().__new__(cls, requires_grad, device, dtype)
        t.persistent = persistent
        t._is_buffer = True
        return t

    def _same_kind(self):
        return type(self)(self._requires_grad, self.device, self.dtype, self.persistent)


def is_lazy(param):
    """Whether `param` is an uninitialized parameter or buffer."""
    return isinstance(param, UninitializedTensorMixin)
