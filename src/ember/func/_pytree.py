"""The pytrees the function transforms accept and return (`ember.utils._pytree`), and how a
transform's `in_dims` prefix spreads over its arguments."""
from ..utils._pytree import TreeSpec, tree_flatten, tree_map, tree_unflatten
from ..utils._pytree import treespec_pprint as pprint

__all__ = ["TreeSpec", "broadcast_prefix", "pprint", "spec_repr", "tree_flatten", "tree_map",
           "tree_unflatten"]


def spec_repr(spec):
    return repr(spec)


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
    # (the node types must be the same: a plain tuple is no prefix of a namedtuple or of an
    # op's result tuple such as torch.return_types.sort)
    if type(prefix) is not type(tree) or len(prefix) != len(tree):
        return False
    return all(_broadcast(p, t, out) for p, t in zip(prefix, tree))
