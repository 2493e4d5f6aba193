"""Nested Python containers (tuple, list, dict, namedtuple) flattened to leaves and rebuilt:
what the function transforms use to accept and return structures of tensors."""


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


class TreeSpec:
    """The shape of a structure: its container type, keys, and children's specs (None: a
    leaf)."""

    __slots__ = ("type", "context", "children")

    def __init__(self, type_, context, children):
        self.type, self.context, self.children = type_, context, children

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.type is other.type
                and self.context == other.context and self.children == other.children)

    @property
    def num_leaves(self):
        return sum(1 if c is None else c.num_leaves for c in self.children)

    def __repr__(self):
        # NOTE: torch's form, e.g. `TreeSpec(tuple, None, [*,\n  *])`, used in error texts.
        parts = ["*" if c is None else repr(c) for c in self.children]
        context = None if self.context is None else list(self.context)
        return f"TreeSpec({self.type.__name__}, {context}, [" + ",\n  ".join(parts) + "])"


LEAF = None


def spec_repr(spec):
    return "*" if spec is None else repr(spec)


def pprint(spec):
    """torch's short form of a spec: `*`, `(*,)`, `[*, *]`, `{'a': *}`."""
    if spec is None:
        return "*"
    inner = [pprint(c) for c in spec.children]
    if spec.type is dict:
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(spec.context, inner)) + "}"
    if spec.type is list:
        return "[" + ", ".join(inner) + "]"
    return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"


def tree_flatten(tree):
    """(leaves, spec): the leaves in order, and how to rebuild `tree` from them."""
    leaves = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree, leaves):
    if isinstance(tree, dict):
        keys = list(tree)
        return TreeSpec(dict, keys, [_flatten(tree[k], leaves) for k in keys])
    if isinstance(tree, (list, tuple)):
        return TreeSpec(type(tree), None, [_flatten(v, leaves) for v in tree])
    leaves.append(tree)
    return LEAF


def tree_unflatten(leaves, spec):
    it = iter(leaves)
    return _build(it, spec)


def _build(it, spec):
    if spec is None:
        return next(it)
    children = [_build(it, c) for c in spec.children]
    if spec.type is dict:
        return dict(zip(spec.context, children))
    if issubclass(spec.type, tuple) and hasattr(spec.type, "_fields"):
        return spec.type(*children)
    return spec.type(children)


def tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def broadcast_prefix(prefix, tree):
    """The leaves of `prefix` (a structure that is a prefix of `tree`'s) repeated over each
    subtree of `tree` they stand for; None when the structures do not match."""
    out = []
    if not _broadcast(prefix, tree, out):
        return None
    return out


def _broadcast(prefix, tree, out):
    if not isinstance(prefix, (list, tuple, dict)):
        out.extend([prefix] * len(tree_flatten(tree)[0]))
        return True
    if isinstance(prefix, dict):
        if not isinstance(tree, dict) or set(prefix) != set(tree):
            return False
        return all(_broadcast(prefix[k], tree[k], out) for k in tree)
    if not isinstance(tree, (list, tuple)) or type(prefix) is not type(tree) and not (
            isinstance(prefix, tuple) and isinstance(tree, tuple)) or len(prefix) != len(tree):
        return False
    return all(_broadcast(p, t, out) for p, t in zip(prefix, tree))
