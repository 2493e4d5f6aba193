"""ember.utils._pytree (torch.utils._pytree): flattening, rebuilding, mapping over several
trees, registered node types, and torch's errors."""
import collections

import pytest

import ember
from ember.utils import _pytree as P


def test_flatten_and_unflatten_round_trip_with_torchs_spec():
    tree = {"a": ember.ones(1), "b": (1, [2, None])}
    leaves, spec = P.tree_flatten(tree)
    assert leaves[1:] == [1, 2, None] and leaves[0] is tree["a"]
    assert (spec.num_leaves, spec.num_nodes, spec.num_children) == (4, 7, 2)
    assert repr(spec) == ("TreeSpec(dict, ['a', 'b'], [*,\n  TreeSpec(tuple, None, [*,\n"
                          "    TreeSpec(list, None, [*,\n      *])])])")
    assert P.treespec_pprint(spec) == "{'a': *, 'b': (*, [*, *])}"
    assert spec.unflatten([5, 6, 7, 8]) == {"a": 5, "b": (6, [7, 8])}
    assert P.tree_flatten(None)[0] == [None] and repr(P.tree_structure(3)) == "*"
    with pytest.raises(ValueError, match="`leaves` has length 2 but the spec refers to a "
                                         "pytree that holds 4 items"):
        P.tree_unflatten([1, 2], spec)


def test_container_kinds_keep_their_types():
    NT = collections.namedtuple("NT", "a b")
    assert P.tree_map(lambda x: x * 2, NT(1, 2)) == NT(2, 4)
    od = P.tree_map(lambda x: -x, collections.OrderedDict(z=1, a=2))
    assert type(od) is collections.OrderedDict and list(od.items()) == [("z", -1), ("a", -2)]
    dd = P.tree_map(lambda x: x, collections.defaultdict(int, a=1))
    assert type(dd) is collections.defaultdict and dd.default_factory is int
    assert P.tree_map(lambda x: -x, collections.deque([1, 2], maxlen=3)).maxlen == 3


def test_map_over_several_trees_and_is_leaf():
    assert P.tree_map(lambda a, b: a + b, [1, 2], [10, 20]) == [11, 22]
    assert P.tree_map(lambda x, y: x * y, {"a": 2, "b": 3}, {"b": 10, "a": 5}) == {"a": 10,
                                                                                   "b": 30}
    assert P.tree_map(lambda x, y: (x, y), [1, 2], [[3, 4], 5]) == [(1, [3, 4]), (2, 5)]
    assert P.tree_map(lambda x: 0, [1, [2, 3]], is_leaf=lambda x: x == [2, 3]) == [0, 0]
    with pytest.raises(ValueError, match="Node arity mismatch; expected 2, but got 1."):
        P.tree_map(lambda a, b: a, [1, 2], [1])
    with pytest.raises(ValueError, match=r"Node keys mismatch; missing key\(s\): \{'a'\}; "
                                         r"extra key\(s\): \{'b'\}."):
        P.tree_map(lambda x, y: x, {"a": 1}, {"b": 1})
    seen = []
    assert P.tree_map_(seen.append, [1, (2, 3)]) == [1, (2, 3)] and seen == [1, 2, 3]
    assert P.tree_all(lambda x: x > 0, [1, 2]) and not P.tree_any(lambda x: x > 5, (1, 2))


def test_registered_classes_are_nodes():
    class Box:
        def __init__(self, v):
            self.v = v
    P.register_pytree_node(Box, lambda b: ([b.v], None), lambda ch, ctx: Box(ch[0]),
                           serialized_type_name="Box")
    try:
        out = P.tree_map(lambda x: x + 1, [Box(1), Box(2)])
        assert [b.v for b in out] == [2, 3] and P.tree_leaves({"k": Box(3)}) == [3]
        with pytest.raises(ValueError, match="is already registered as pytree node"):
            P.register_pytree_node(Box, lambda b: ([b.v], None), lambda ch, ctx: Box(ch[0]))
    finally:
        del P.SUPPORTED_NODES[Box]


def test_reachable_as_torch_spells_it():
    assert ember.utils._pytree is P
    assert P.tree_leaves(([ember.zeros(1)], {"x": 2}))[1] == 2
