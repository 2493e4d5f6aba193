"""torch.fx.subgraph_rewriter: `replace_pattern(gm, pattern, replacement)` finds every
occurrence of the graph of `pattern` in `gm`'s graph and puts the graph of `replacement` in
its place.

A match is found from each node of `gm` that could stand for the pattern's output, walking
the pattern's arguments back in step with the node's: the same op and target, the same
constants, each pattern placeholder standing for one node of `gm` throughout. A match is
kept only if the nodes it would remove are used by nothing outside it, and if it shares no
node with a match kept before it.
"""
import copy
from typing import NamedTuple

from .node import Node

__all__ = ["Match", "replace_pattern"]


class Match(NamedTuple):
    anchor: Node        # the pattern's node the match was found from (its returned value)
    nodes_map: dict     # pattern node -> gm node


def _graph_of(fn):
    from .graph_module import GraphModule
    from ._symbolic_trace import symbolic_trace
    return fn if isinstance(fn, GraphModule) else symbolic_trace(fn)


def _leaves(a):
    if isinstance(a, (list, tuple)):
        for e in a:
            yield from _leaves(e)
    elif isinstance(a, dict):
        for e in a.values():
            yield from _leaves(e)
    else:
        yield a


def _same_shape(pa, ga):
    if isinstance(pa, (list, tuple)):
        return isinstance(ga, (list, tuple)) and len(pa) == len(ga) and \
            all(_same_shape(p, g) for p, g in zip(pa, ga))
    if isinstance(pa, dict):
        return isinstance(ga, dict) and pa.keys() == ga.keys() and \
            all(_same_shape(pa[k], ga[k]) for k in pa)
    return True


def _match(pn, gn, nodes_map):
    if pn in nodes_map:
        return nodes_map[pn] is gn
    if pn.op == "placeholder":
        nodes_map[pn] = gn
        return True
    if pn.op != gn.op or pn.target != gn.target:
        return False
    if not _same_shape((pn.args, pn.kwargs), (gn.args, gn.kwargs)):
        return False
    nodes_map[pn] = gn
    for pa, ga in zip(_leaves((pn.args, pn.kwargs)), _leaves((gn.args, gn.kwargs))):
        if isinstance(pa, Node):
            if not isinstance(ga, Node) or not _match(pa, ga, nodes_map):
                return False
        elif isinstance(ga, Node) or pa != ga:
            return False
    return True


def _find(pattern_graph, graph):
    output = next(n for n in pattern_graph.nodes if n.op == "output")
    result = output.args[0]
    if not isinstance(result, Node):
        raise NotImplementedError("replace_pattern: only patterns returning one value are "
                                  "supported")
    matches, used = [], set()
    for gn in graph.nodes:
        nodes_map = {}
        if not _match(result, gn, nodes_map):
            continue
        inner = [g for p, g in nodes_map.items() if p.op != "placeholder"]
        inside = set(inner)
        if any(g in used for g in inner):
            continue
        if any(u not in inside for g in inner if g is not gn for u in g.users):
            continue
        used.update(inner)
        matches.append(Match(anchor=result, nodes_map=nodes_map))
    return matches


def replace_pattern(gm, pattern, replacement):
    """Replace each match of `pattern` (a function or Module, traced) in `gm` by
    `replacement` (same inputs, in order); returns the Matches. `gm` is recompiled."""
    from .graph_module import _copy_attr
    pattern_gm, replacement_gm = _graph_of(pattern), _graph_of(replacement)
    graph = gm.graph
    matches = _find(pattern_gm.graph, graph)
    pattern_inputs = [n for n in pattern_gm.graph.nodes if n.op == "placeholder"]
    replacement_inputs = [n for n in replacement_gm.graph.nodes if n.op == "placeholder"]
    for node in replacement_gm.graph.nodes:
        if node.op in ("get_attr", "call_module") and not _has_path(gm, node.target):
            _copy_attr(replacement_gm, gm, node.target)
    for match in matches:
        val_map = {r: match.nodes_map[p] for r, p in zip(replacement_inputs, pattern_inputs)}
        returned = match.nodes_map[match.anchor]
        first_user = next(n for n in graph.nodes if n in returned.users)
        with graph.inserting_before(first_user):
            copied = graph.graph_copy(replacement_gm.graph, copy.copy(val_map))
        returned.replace_all_uses_with(copied)
        for pn in reversed(pattern_gm.graph.nodes):
            gn = match.nodes_map.get(pn)
            if gn is not None and pn.op != "placeholder" and not gn.users:
                graph.erase_node(gn)
    gm.recompile()
    return matches


def _has_path(module, target):
    for atom in target.split("."):
        if not hasattr(module, atom):
            return False
        module = getattr(module, atom)
    return True
