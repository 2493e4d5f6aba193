"""torch.fx.node: a Node is one operation of a Graph (a placeholder, get_attr, call_function,
call_method, call_module or output), its arguments, and who uses its value.

A node's `args` and `kwargs` may hold other nodes anywhere inside lists, tuples, dicts and
slices; whenever they are set, the node's `_input_nodes` and each input's `users` are brought
up to date, so that `users` is always exact (it is what dead-code elimination and
`replace_all_uses_with` read). Nodes form a doubly linked list through `_prev`/`_next`, around
a sentinel 'root' node the graph owns.
"""
import builtins
import inspect

from ._names import pretty_target
from .immutable_collections import immutable_dict, immutable_list

__all__ = ["Node", "map_arg", "map_aggregate", "has_side_effect"]

_OPS = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output",
        "root")
_side_effectful = set()


def has_side_effect(fn):
    """Mark `fn` as impure: dead-code elimination keeps its calls."""
    _side_effectful.add(fn)
    return fn


def map_aggregate(a, fn):
    """`a` with `fn` applied to every leaf inside tuples, lists, dicts and slices (lists and
    dicts come back immutable, as a node's arguments are)."""
    if isinstance(a, tuple):
        items = tuple(map_aggregate(e, fn) for e in a)
        return type(a)(*items) if hasattr(a, "_fields") else items
    if isinstance(a, list):
        return immutable_list(map_aggregate(e, fn) for e in a)
    if isinstance(a, dict):
        return immutable_dict((k, map_aggregate(v, fn)) for k, v in a.items())
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn),
                     map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a, fn):
    """`a` with `fn` applied to every Node inside it."""
    assert callable(fn), "torch.fx.map_arg(a, fn): fn must be a callable"
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def format_arg(arg):
    """An argument as a node's printed line shows it: nodes as `%name`."""
    if isinstance(arg, list):
        return "[" + ", ".join(format_arg(a) for a in arg) + "]"
    if isinstance(arg, tuple):
        comma = "," if len(arg) == 1 else ""
        return "(" + ", ".join(format_arg(a) for a in arg) + comma + ")"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


def type_repr(t):
    """A type annotation as fx prints it (`torch.Tensor`, `int`)."""
    if isinstance(t, type):
        if t.__module__ == "builtins":
            return t.__qualname__
        module = t.__module__
        if module == "ember" or module.startswith("ember."):
            module = "torch"
        return f"{module}.{t.__qualname__}"
    return repr(t).replace("ember.", "torch.")


class Node:
    """One operation of a Graph; see the module's docstring."""

    def __init__(self, graph, name, op, target, args, kwargs, return_type=None):
        if op not in _OPS:
            raise ValueError(f"Unknown op {op!r}")
        if op == "call_function" and not callable(target):
            raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has "
                             f"type {type(target)} but a Callable is expected")
        if op in ("call_method", "call_module", "get_attr", "placeholder", "output") and \
                not isinstance(target, str):
            raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has "
                             f"type {type(target)} but a str is expected")
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self._input_nodes = {}
        self.users = {}
        self.type = return_type
        self._prev = self._next = self
        self._erased = False
        self.meta = {}
        self._args, self._kwargs = (), {}
        self._update_args_kwargs(args, kwargs)

    # -- the list of nodes ------------------------------------------------------------------

    @property
    def next(self):
        """The node after this one in the graph."""
        return self._next

    @property
    def prev(self):
        """The node before this one in the graph."""
        return self._prev

    def prepend(self, x):
        """Put node `x` right before this one (moving it if it is elsewhere in the graph)."""
        assert self.graph is x.graph, "Attempting to move a Node into a different Graph"
        if self is x:
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x):
        """Put node `x` right after this one."""
        self._next.prepend(x)

    def _remove_from_list(self):
        p, n = self._prev, self._next
        p._next, n._prev = n, p
        self._prev = self._next = self

    # -- arguments and users ----------------------------------------------------------------

    @property
    def args(self):
        """The positional arguments (nodes, constants, and containers of them)."""
        return self._args

    @args.setter
    def args(self, a):
        self._update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self):
        """The keyword arguments."""
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k):
        self._update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self):
        """The distinct nodes among the arguments, in the order they appear."""
        return list(self._input_nodes)

    def update_arg(self, idx, arg):
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key, arg):
        self.kwargs = {**self.kwargs, key: arg}

    def _update_args_kwargs(self, new_args, new_kwargs):
        for old in self._input_nodes:
            old.users.pop(self, None)
        self._input_nodes = {}
        seen = self._input_nodes

        def note(n):
            seen.setdefault(n)
            return n
        self._args = map_arg(tuple(new_args), note)
        self._kwargs = map_arg(dict(new_kwargs), note)
        for n in seen:
            n.users.setdefault(self)

    def replace_all_uses_with(self, replace_with, delete_user_cb=lambda user: True, *,
                              propagate_meta=False):
        """Make every user of this node use `replace_with` instead; returns those users."""
        if propagate_meta:
            assert not replace_with.meta, "Called node.replace_all_uses_with(replace_with, " \
                "propagate_meta=True), but replace_with already has .meta keys"
            replace_with.meta.update(self.meta)
        to_process = [u for u in self.users if delete_user_cb(u)]
        for user in to_process:
            user.replace_input_with(self, replace_with)
        return to_process

    def replace_input_with(self, old_input, new_input):
        """Use `new_input` wherever this node's arguments use `old_input`."""
        def swap(n):
            return new_input if n is old_input else n
        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def is_impure(self):
        """Whether the node must stay even when unused (placeholders, output, side effects)."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_function":
            return self.target in _side_effectful
        if self.op == "call_module" and self.graph.owning_module is not None:
            module = self.graph.owning_module.get_submodule(self.target)
            return getattr(module, "_is_impure", False)
        return False

    # -- printing ---------------------------------------------------------------------------

    def __repr__(self):
        return self.name

    def format_node(self, placeholder_names=None, maybe_return_typename=None):
        """The node's line in `print(graph)`: `%add : [num_users=1] = call_function[target=
        operator.add](args = (%x, 1), kwargs = {})` (None for the root)."""
        if self.op == "root":
            return None
        typed = f"{type_repr(self.type)} " if self.type is not None else ""
        head = f"%{self.name} : {typed}[num_users={len(self.users)}] = {self.op}"
        if self.op == "placeholder":
            default = f"(default={self.args[0]})" if self.args else ""
            return f"{head}[target={self.target}]{default}"
        if self.op == "get_attr":
            return f"{head}[target={self.target}]"
        if self.op == "output":
            if self.type is not None and maybe_return_typename is not None:
                maybe_return_typename[0] = f" -> {type_repr(self.type)}"
            return f"return {self.args[0]}"
        target = pretty_target(self.target) if self.op == "call_function" else self.target
        return (f"{head}[target={target}](args = {format_arg(self.args)}, "
                f"kwargs = {format_arg(self.kwargs)})")

    def _pretty_print_target(self, target):
        return pretty_target(target)

    def normalized_arguments(self, root, arg_types=None, kwarg_types=None,
                             normalize_to_only_use_kwargs=False):
        """The call's arguments bound to its target's Python signature (None where it has
        none), as (args, kwargs)."""
        fn = self.target if self.op == "call_function" else None
        if self.op == "call_module":
            fn = root.get_submodule(self.target).forward
        try:
            bound = inspect.signature(fn).bind(*self.args, **self.kwargs)
        except (TypeError, ValueError):
            return None
        bound.apply_defaults()
        if normalize_to_only_use_kwargs:
            return (), dict(bound.arguments)
        return tuple(bound.args), dict(bound.kwargs)


has_side_effect(builtins.print)
