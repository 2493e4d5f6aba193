"""`torch.utils._pytree`: nested containers flattened to their leaves and rebuilt.

A pytree is a leaf or a node: a tuple, list, dict, namedtuple, OrderedDict, defaultdict or
deque (or a class given to `register_pytree_node`) whose children are pytrees. Everything else
(tensors, numbers, None, strings) is a leaf. `tree_flatten` gives the leaves in order and a
`TreeSpec` saying how to rebuild the structure; `tree_map` applies a function to every leaf.
Libraries use it to move nested batches and model outputs around; ember's function transforms
(`ember.func`) use it for their inputs and outputs.
"""
import collections

__all__ = ["TreeSpec", "LeafSpec", "register_pytree_node", "tree_flatten", "tree_unflatten",
           "tree_leaves", "tree_structure", "tree_map", "tree_map_", "tree_iter", "tree_all",
           "tree_any", "treespec_pprint"]


class _Node:
    __slots__ = ("flatten", "unflatten", "serialized_type_name")

    def __init__(self, flatten, unflatten, serialized_type_name):
        self.flatten, self.unflatten = flatten, unflatten
        self.serialized_type_name = serialized_type_name


SUPPORTED_NODES = {}        # type -> _Node


def register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None,
                         to_dumpable_context=None, from_dumpable_context=None,
                         flatten_with_keys_fn=None):
    """Make instances of `cls` nodes: `flatten_fn(obj)` gives (children, context) and
    `unflatten_fn(children, context)` rebuilds one."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = _Node(flatten_fn, unflatten_fn, serialized_type_name)


def _is_namedtuple(obj):
    return isinstance(obj, tuple) and hasattr(type(obj), "_fields")


register_pytree_node(tuple, lambda t: (list(t), None), lambda ch, ctx: tuple(ch))
register_pytree_node(list, lambda t: (list(t), None), lambda ch, ctx: list(ch))
register_pytree_node(dict, lambda d: (list(d.values()), list(d)),
                     lambda ch, ctx: dict(zip(ctx, ch)))
register_pytree_node(collections.OrderedDict, lambda d: (list(d.values()), list(d)),
                     lambda ch, ctx: collections.OrderedDict(zip(ctx, ch)))
register_pytree_node(collections.defaultdict,
                     lambda d: (list(d.values()), (d.default_factory, list(d))),
                     lambda ch, ctx: collections.defaultdict(ctx[0], zip(ctx[1], ch)))
register_pytree_node(collections.deque, lambda d: (list(d), d.maxlen),
                     lambda ch, ctx: collections.deque(ch, maxlen=ctx))
# namedtuples: one entry for all of them, keyed by this marker (the context is the class)
_NAMEDTUPLE = collections.namedtuple
register_pytree_node(_NAMEDTUPLE, lambda t: (list(t), type(t)), lambda ch, ctx: ctx(*ch))

# the result tuples of ops (torch.return_types.max & co.): each its own node type, as in torch
# (a spec reads "TreeSpec(max, None, [...])" and unflattening rebuilds the same class)
def _register_return_types():
    from .. import return_types
    for cls in vars(return_types).values():
        if isinstance(cls, type) and issubclass(cls, return_types._StructSeq) \
                and cls is not return_types._StructSeq:
            register_pytree_node(cls, lambda t: (list(t), None),
                                 lambda ch, ctx, cls=cls: cls(ch))


_register_return_types()


def _node_type(obj):
    if _is_namedtuple(obj):
        return _NAMEDTUPLE
    return type(obj) if type(obj) in SUPPORTED_NODES else None


class TreeSpec:
    """The structure of a pytree: its node type, the node's context (dict keys, ...) and the
    specs of its children; a leaf's spec is `LeafSpec()` (printed `*`)."""

    __slots__ = ("type", "context", "children")

    def __init__(self, type, context, children):
        self.type, self.context, self.children = type, context, list(children)

    @property
    def children_specs(self):
        return self.children

    @property
    def num_children(self):
        return len(self.children)

    @property
    def num_leaves(self):
        return sum(c.num_leaves for c in self.children)

    @property
    def num_nodes(self):
        return 1 + sum(c.num_nodes for c in self.children)

    def is_leaf(self):
        return False

    def unflatten(self, leaves):
        return tree_unflatten(leaves, self)

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.type is other.type
                and self.context == other.context and self.children == other.children)

    def __hash__(self):
        return hash((self.type, len(self.children)))

    def __repr__(self, indent=0):
        name = "namedtuple" if self.type is _NAMEDTUPLE else self.type.__name__
        context = self.context
        if self.type in (dict, collections.OrderedDict):
            context = list(context)
        parts = [c.__repr__(indent + 2) for c in self.children]
        sep = ",\n" + " " * (indent + 2)
        return f"TreeSpec({name}, {context}, [" + sep.join(parts) + "])"


class LeafSpec(TreeSpec):
    """The spec of a leaf."""

    __slots__ = ()

    def __init__(self):
        super().__init__(None, None, [])

    @property
    def num_leaves(self):
        return 1

    @property
    def num_nodes(self):
        return 1

    def is_leaf(self):
        return True

    def __eq__(self, other):
        return isinstance(other, LeafSpec)

    def __hash__(self):
        return 0

    def __repr__(self, indent=0):
        return "*"


_LEAF = LeafSpec()


def tree_flatten(tree, is_leaf=None):
    """(leaves, spec): the leaves of `tree` in order, and how to rebuild it from them.
    `is_leaf(subtree)` True stops the descent there."""
    leaves = []
    return leaves, _flatten(tree, leaves, is_leaf)


def _flatten(tree, leaves, is_leaf):
    kind = None if is_leaf is not None and is_leaf(tree) else _node_type(tree)
    if kind is None:
        leaves.append(tree)
        return _LEAF
    children, context = SUPPORTED_NODES[kind].flatten(tree)
    return TreeSpec(kind if kind is _NAMEDTUPLE else type(tree), context,
                    [_flatten(c, leaves, is_leaf) for c in children])


def tree_unflatten(leaves, treespec):
    """The pytree of structure `treespec` holding `leaves`."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance "
                        f"of TreeSpec but got item of type {type(treespec)}.")
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but "
                         f"the spec refers to a pytree that holds {treespec.num_leaves} items "
                         f"({treespec}).")
    return _build(iter(leaves), treespec)


def _build(it, spec):
    if spec.is_leaf():
        return next(it)
    children = [_build(it, c) for c in spec.children]
    kind = _NAMEDTUPLE if spec.type is _NAMEDTUPLE else spec.type
    return SUPPORTED_NODES[kind].unflatten(children, spec.context)


def tree_leaves(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[0]


def tree_iter(tree, is_leaf=None):
    return iter(tree_leaves(tree, is_leaf))


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func, tree, *rests, is_leaf=None):
    """`tree` with each leaf x replaced by func(x, *(the matching leaves of `rests`)); the
    other trees must have `tree`'s structure (or a finer one below its leaves)."""
    leaves, spec = tree_flatten(tree, is_leaf)
    columns = [leaves] + [_flatten_up_to(spec, r) for r in rests]
    return tree_unflatten([func(*xs) for xs in zip(*columns)], spec)


def tree_map_(func, tree, *rests, is_leaf=None):
    """tree_map for its side effects: calls func on the leaves, returns `tree`."""
    leaves, spec = tree_flatten(tree, is_leaf)
    columns = [leaves] + [_flatten_up_to(spec, r) for r in rests]
    for xs in zip(*columns):
        func(*xs)
    return tree


def _flatten_up_to(spec, tree):
    """The subtrees of `tree` at the leaves of `spec`."""
    out = []
    _collect(spec, tree, out)
    return out


def _collect(spec, tree, out):
    if spec.is_leaf():
        out.append(tree)
        return
    kind = _node_type(tree)
    expected = _NAMEDTUPLE if spec.type is _NAMEDTUPLE else spec.type
    if kind is not expected:
        raise ValueError(f"Node type mismatch; expected {spec.type}, but got {type(tree)}.")
    if kind is dict:        # matched by key (in the spec's order), whatever the order here
        keys = set(tree)
        if keys != set(spec.context):
            raise ValueError(f"Node keys mismatch; missing key(s): "
                             f"{set(spec.context) - keys}; extra key(s): "
                             f"{keys - set(spec.context)}.")
        for child_spec, key in zip(spec.children, spec.context):
            _collect(child_spec, tree[key], out)
        return
    children, context = SUPPORTED_NODES[kind].flatten(tree)
    if len(children) != len(spec.children):
        raise ValueError(f"Node arity mismatch; expected {len(spec.children)}, but got "
                         f"{len(children)}.")
    if context != spec.context:
        raise ValueError(f"Node context mismatch for custom node type {spec.type}.")
    for child_spec, child in zip(spec.children, children):
        _collect(child_spec, child, out)


def tree_all(pred, tree, is_leaf=None):
    return all(pred(x) for x in tree_leaves(tree, is_leaf))


def tree_any(pred, tree, is_leaf=None):
    return any(pred(x) for x in tree_leaves(tree, is_leaf))


def treespec_pprint(treespec):
    """The short form of a spec: `*`, `(*,)`, `[*, *]`, `{'a': *}`."""
    if treespec.is_leaf():
        return "*"
    inner = [treespec_pprint(c) for c in treespec.children]
    if treespec.type in (dict, collections.OrderedDict, collections.defaultdict):
        keys = treespec.context[1] if treespec.type is collections.defaultdict else \
            treespec.context
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(keys, inner)) + "}"
    if treespec.type is list:
        return "[" + ", ".join(inner) + "]"
    if treespec.type in (tuple, _NAMEDTUPLE):
        return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
    return f"{treespec.type.__name__}(" + ", ".join(inner) + ")"

