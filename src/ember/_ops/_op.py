"""`Op`: one differentiable operation, declared once: forward on arrays, backward on tensors.

    class Exp(Op):
        saves = {"self": ("result",)}            # what each input's gradient needs
        def forward(xp, x):                      # raw arrays of the device's module
            return xp.exp(x)
        def backward(ctx, grad):                 # ember tensors, so graphs of graphs work
            (result,) = ctx.saved_tensors
            return grad * result

An op's instances are the nodes of the backward graph. Each op class gets a node subclass
named as torch names it (`ExpBackward0`, or `node_name = ...`), so `y.grad_fn` prints and
`type(y.grad_fn).__name__` reads exactly as in torch.
"""
from .._tensor import INFERENCE_SAVED, Tensor
from ..autograd._engine import _running
from ..autograd.graph import _FREED, FREED_ERROR, Node, _Extras, _sequence, accumulator_of, \
    gradient_edge, on_record


class Op(Node):
    """Base of every differentiable operation (see the module docstring)."""

    inputs = ("self",)      # schema names of the tensor inputs, in order
    scalars = ()            # names of Python-number operands that follow them (no graph edge)
    saves = {}              # input name -> names (inputs, "result", params) its gradient needs;
    #                         `saved_tensors` gives them in the order: inputs, scalars, result
    node_name = None        # torch's node name; default: class name + "Backward0"
    num_outputs = 1         # outputs that carry gradient (a multi-output op may list fewer)
    variadic = False        # True: every argument is a tensor input (cat, stack)
    packs = None            # the saved names in torch's packing order, where not alphabetical
    shows = {}              # torch's other saved values, read as `grad_fn._saved_<name>`: name
    #                         -> the node attribute holding it (a `scalar` one: a Scalar
    #                         argument), or a function of the node
    _default_params = None  # keyword defaults, kept as class attributes (see elementwise)
    frees = False           # True: torch saves tensors (indices) that the node keeps as
    #                         params; a backward frees them, as it frees `saves`

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "Node" in cls.__dict__ or cls.__dict__.get("abstract"):
            return
        mentioned = {n for needed in cls.saves.values() for n in needed}
        args = cls.inputs + cls.scalars
        names = [n for n in args if n in mentioned]
        names += ["result"] if "result" in mentioned else []
        names += sorted(mentioned - set(names))
        cls._saved_names = tuple(names)
        # torch packs saved inputs by name, alphabetically, then outputs (saved-tensor hooks),
        # unless the op lists its own order (`packs`)
        cls._pack_order = tuple(names.index(n) for n in cls.packs) if cls.packs else \
            tuple(sorted(range(len(names)), key=lambda k: (names[k] == "result", names[k])))
        # One bit per saved name, for each input: what that input's gradient needs.
        cls._save_masks = tuple(sum(1 << names.index(n) for n in cls.saves.get(inp, ()))
                                for inp in cls.inputs)
        cls._num_inputs = len(cls.inputs)
        cls._arg_index = {n: i for i, n in enumerate(cls.inputs + cls.scalars)}
        cls._save_plans = {}        # needed-mask -> where each saved value comes from
        node_name = cls.__dict__.get("node_name") or f"{cls.__name__}Backward0"
        # (torch's nodes are C types of no module: type(y.grad_fn) prints <class 'MulBackward0'>)
        cls.Node = type(node_name, (cls,), {"__module__": "builtins", "abstract": True})

    @staticmethod
    def forward(xp, *arrays, **params):
        raise NotImplementedError

    def backward(ctx, *grads):
        raise NotImplementedError

    # -- the context a backward sees ------------------------------------------------------

    @property
    def needs_input_grad(self):
        """For each input, whether this backward needs its gradient (so backward may skip the
        others): it requires grad, and, under `autograd.grad(..., inputs)`, leads to them."""
        task = _running[-1] if _running else None
        # (a node run inside another's backward, such as CopySlices' own, is not the task's)
        if task is None or task.needed is None or self not in task.deps:
            return tuple([edge[0] is not None for edge in self.next_functions])
        return tuple([edge[0] is not None and task.will_run(edge[0])
                      for edge in self.next_functions])

    @property
    def saved_tensors(self):
        """The values named in `saves`: inputs and scalars in signature order, then the result,
        then params (None where no input that needs grad asked for it)."""
        if self._saved is None:
            return (None,) * len(self._saved_names)
        return self._unpack()

    def apply(self, grad_outputs):
        if self._saved is _FREED:       # (as torch: even if backward would read none of them)
            raise RuntimeError(FREED_ERROR)
        grads = self.backward(*grad_outputs)
        return grads if type(grads) is tuple else (grads,)

    def __getattr__(self, name):
        # torch exposes saved values as `grad_fn._saved_<name>`, and saved tensors (inputs,
        # the result) as `grad_fn._raw_saved_<name>`, on which hooks can be set; so do we.
        if name.startswith("_raw_saved_"):
            key = name[len("_raw_saved_"):]
            names = type(self)._saved_names
            if key in names and (key == "result" or key in type(self).inputs):
                from ..autograd.graph import SavedTensor
                return SavedTensor(self, names.index(key))
        if name.startswith("_saved_"):
            names = type(self)._saved_names
            key = name[len("_saved_"):]
            if key in names:
                k = names.index(key)
                if self._saved is _FREED and not self._needs_saved(k):
                    return None     # never saved (as torch, None even after backward)
                value = self._unpack()[k]
                if key in type(self).inputs and value.__class__ in _WRAPPED_DTYPES:
                    # a Python number given for a tensor input: torch saved it as a tensor
                    # (a "wrapped number", of the widest dtype of its kind)
                    from .._creation import tensor
                    from .. import _dtype
                    dtype = getattr(_dtype, _WRAPPED_DTYPES[value.__class__])
                    value = tensor(value, dtype=dtype)
                return self._as_torch_saves(key, value)
            shown = type(self).shows.get(key)
            if shown is not None:
                try:
                    if shown.__class__ is scalar:
                        return getattr(self, shown)
                    return as_saved(shown(self) if callable(shown) else getattr(self, shown))
                except AttributeError:
                    pass        # (a node recorded without it)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        # as torch's: the node's `_saved_<name>` (and `_raw_saved_<name>`) values, and none of
        # the attributes ember keeps them in (nor a value this node was recorded without)
        cls = type(self)
        tensors = [n for n in cls._saved_names if n == "result" or n in cls.inputs]
        shown = [n for n in cls.shows if hasattr(self, f"_saved_{n}")]
        return sorted({*super().__dir__()} |
                      {f"_saved_{n}" for n in (*cls._saved_names, *shown)} |
                      {f"_raw_saved_{n}" for n in tensors})

    def _as_torch_saves(self, name, value):
        """Saved value `name` as torch's node gives it (an op whose saved statistics have
        another shape than torch's says so here)."""
        return value

    def _needs_saved(self, k):
        """Whether saved value `k` was needed: an input that needs grad asked for it."""
        bit = 1 << k
        return any(fn is not None and mask & bit
                   for (fn, _), mask in zip(self.next_functions, type(self)._save_masks))


_WRAPPED_DTYPES = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}


class scalar(str):
    """A `shows` entry naming an attribute that holds a Scalar argument (alpha, min_val,
    ...): torch gives it back as given, a negative int too, unlike a dim or a size."""
    __slots__ = ()


def dims_as_given(node):
    """`shows` of a reduction's `dim` (a node attribute as the caller gave it): a tuple, as
    torch keeps one dim or several (None for all dims)."""
    dim = node.dim
    return dim if dim is None or isinstance(dim, (tuple, list)) else (dim,)


def as_saved(value):
    """A saved dim, size or index as torch's nodes give it back: its int64 read as unsigned
    (-1 is 18446744073709551615), lists as tuples."""
    if value.__class__ is int:
        return value + (1 << 64) if value < 0 else value
    if isinstance(value, (tuple, list)):
        return tuple(as_saved(v) for v in value)
    return value


def record(op, args, outputs, params, num_outputs=None):
    """Make `op`'s node the grad_fn of `outputs`, linking it to the inputs that require grad.

    `args` are the op's tensor inputs followed by its scalar operands (`op.scalars`).
    Called only when grad mode is on and some input requires grad.
    """
    node = _new(op.Node)
    node._seq = next(_sequence)
    first = outputs[0]._data
    shape, dtype = first.shape, first.dtype
    masks = op._save_masks
    if op._num_inputs == 1 and not op.variadic:
        # one tensor input (most ops): the loop below without its lists
        t = args[0]
        if (t.__class__ is Tensor or isinstance(t, Tensor)) and t._requires_grad:
            edge = _edge(t)
            data = t._data
            node.next_functions = (edge,)
            # (see the NOTE below)
            node._input_meta = None if data.shape == shape and data.dtype is dtype and \
                op.num_outputs == 1 else \
                ((data.shape, data.dtype) if edge[0] is not None else None,)
            needed = masks[0]
        else:
            node.next_functions = (_NO_EDGE,)
            node._input_meta = None if op.num_outputs == 1 else (None,)
            needed = 0
    else:
        count = len(args) if op.variadic else op._num_inputs
        edges = []
        metas = []              # each input's (shape, dtype): see the NOTE below
        fitted = True           # every input that needs grad has the output's shape and dtype
        needed = 0
        for i in range(count):
            t = args[i]
            if (t.__class__ is Tensor or isinstance(t, Tensor)) and t._requires_grad:
                edge = _edge(t)
                edges.append(edge)
                data = t._data
                input_shape, input_dtype = data.shape, data.dtype
                metas.append((input_shape, input_dtype) if edge[0] is not None else None)
                if fitted and (input_shape != shape or input_dtype is not dtype):
                    fitted = False
                if masks:
                    needed |= masks[i]
            else:
                edges.append(_NO_EDGE)
                metas.append(None)
        node.next_functions = tuple(edges)
        # NOTE: input metadata serves to fit gradients to their input (engine.fit_gradient);
        # when every input already has the output's shape and dtype there is nothing to fit.
        node._input_meta = None if fitted and op.num_outputs == 1 else tuple(metas)
    if params and params is not op._default_params:
        node.__dict__.update(params)
    if needed:
        _save(op, node, args, outputs, params, needed)
    elif op.frees:
        node._saved = node._saved_info = ()     # (released like saved values)
    else:
        node._saved = None
    if num_outputs is None:
        num_outputs = op.num_outputs
    else:
        node.num_outputs = num_outputs
    if num_outputs == 1:
        out = outputs[0]
        out._grad_fn = node
        out._output_nr = 0
        out._requires_grad = True
    else:
        for nr in range(num_outputs):
            out = outputs[nr]
            out._grad_fn = node
            out._output_nr = nr
            out._requires_grad = True
        if num_outputs > 1:
            node._output_meta = tuple((o._data.shape, o._data.dtype, o.device) for o in outputs)
    if _Extras.on:      # anomaly mode or saved-tensor hooks
        on_record(node)
    return node


_NO_EDGE = (None, 0)
_new = object.__new__


def _edge(t):
    """gradient_edge of a tensor that requires grad, its commonest cases first."""
    fn = t._grad_fn
    if fn is None:
        meta = t._meta
        if meta is None or meta.view_version is None:
            acc = None if meta is None else meta.accumulator
            return (acc if acc is not None else accumulator_of(t), 0)
        return gradient_edge(t)     # a view of a base that requires grad (NOTE [ Views
        #                             follow their base ])
    if t._base is None:
        return (fn, t._output_nr)
    return gradient_edge(t)


def _save(op, node, args, outputs, params, needed):
    """Save, for the inputs that need grad, the values their gradients use (`needed` is a bit
    mask over `op._saved_names`). See NOTE [ Saved tensors and freeing ] in autograd/graph.py:
    an output is kept as a detached alias; every tensor with its version at save time."""
    plan = op._save_plans.get(needed)
    if plan is None:
        plan = op._save_plans[needed] = _save_plan(op, needed)
    stored = []
    info = []
    for where in plan:
        if where is None:                   # not needed by any input that requires grad
            stored.append(None)
            info.append(None)
            continue
        if where is _RESULT:
            value = outputs[0]._detached_alias()
            nr = 0
        else:
            value = args[where] if where.__class__ is int else params[where]
            if not (value.__class__ is Tensor or isinstance(value, Tensor)):
                stored.append(value)
                info.append(None)
                continue
            nr = None
        # NOTE: `graph.watch`, inlined: see NOTE [ Where in-place writes happened ].
        storage = value._storage
        if storage is None:
            storage = value._get_storage()
        if storage.watch is not True:     # (never True for inference tensors)
            if storage.inference:
                raise RuntimeError(INFERENCE_SAVED)
            storage.watch = True
        info.append((storage.version, nr))
        stored.append(value)
    node._saved = tuple(stored)
    node._saved_info = tuple(info)


_RESULT = object()


def _save_plan(op, needed):
    """For each saved name: None (not needed), _RESULT, an argument index or a param name."""
    index = op._arg_index
    plan = []
    for k, name in enumerate(op._saved_names):
        if not (needed >> k) & 1:
            plan.append(None)
        elif name == "result":
            plan.append(_RESULT)
        else:
            plan.append(index.get(name, name))
    return tuple(plan)
