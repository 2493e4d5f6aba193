"""Drawing the backward graph: `make_dot` (Graphviz DOT, in torchviz's style) and
`grad_fn_tree` (plain text for the terminal).

    print(make_dot(loss, params=dict(model.named_parameters())).source)
    print(grad_fn_tree(loss))

`make_dot` returns a `graphviz.Digraph` when the optional `graphviz` package is installed
(`pip install ember[viz]`; rendering also needs Graphviz's `dot` program), else a `DotGraph`
holding the same DOT text.
"""
__all__ = ["make_dot", "grad_fn_tree", "DotGraph"]

_NODE_ATTRS = {"align": "left", "fontname": "monospace", "fontsize": "10", "height": "0.2",
               "ranksep": "0.1", "shape": "box", "style": "filled"}


def _size_text(shape):
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


class DotGraph:
    """The DOT text of a graph, for when the `graphviz` package is not installed."""

    def __init__(self):
        self._lines = []

    def node(self, name, label, **attrs):
        extra = "".join(f" {k}={_quote(v)}" for k, v in attrs.items())
        self._lines.append(f"\t{name} [label={_quote(label)}{extra}]")

    def edge(self, tail, head, **attrs):
        extra = "".join(f" {k}={_quote(v)}" for k, v in attrs.items())
        self._lines.append(f"\t{tail} -> {head}" + (f" [{extra.strip()}]" if extra else ""))

    @property
    def source(self):
        head = ["digraph {", '\tgraph [size="12,12"]',
                "\tnode [" + " ".join(f"{k}={_quote(v)}" for k, v in _NODE_ATTRS.items()) + "]"]
        return "\n".join(head + self._lines + ["}"]) + "\n"

    def save(self, filename):
        """Write the DOT text to `filename`; returns the filename."""
        with open(filename, "w") as f:
            f.write(self.source)
        return filename

    def render(self, *args, **kwargs):
        raise RuntimeError("rendering needs the graphviz package: pip install 'ember[viz]' "
                           "(and Graphviz's dot program); .source has the DOT text")

    def __str__(self):
        return self.source


def _new_graph():
    try:
        import graphviz
    except ImportError:
        return DotGraph()
    return graphviz.Digraph(node_attr=dict(_NODE_ATTRS), graph_attr={"size": "12,12"})


def _saved_tensors(node):
    """(name, tensor) for each tensor a node saved, where they can be read."""
    names = getattr(type(node), "_saved_names", None)
    saved = node._saved
    if saved is None or not isinstance(saved, tuple) or saved == ("<freed>",):
        return []
    out = []
    for i, value in enumerate(saved):
        if value is not None and hasattr(value, "shape"):
            name = names[i] if names and i < len(names) else str(i)
            out.append((name, value))
    return out


def make_dot(var, params=None, show_attrs=False, show_saved=False, max_attr_chars=50):
    """The backward graph of `var` (a tensor or a tuple of them) in torchviz's style:
    backward nodes grey, leaf tensors blue (named from `params`, a name -> tensor dict),
    outputs green, and with `show_saved=True` the tensors each node saved in orange."""
    names = {id(v): k for k, v in (params or {}).items()}
    dot = _new_graph()
    seen = set()

    def add_leaf(tensor, node_id):
        name = names.get(id(tensor), "")
        dot.node(node_id, f"{name}\n {_size_text(tensor.shape)}".lstrip("\n") if name else
                 _size_text(tensor.shape), fillcolor="lightblue")

    def add_node(fn):
        if fn in seen:
            return
        seen.add(fn)
        node_id = str(id(fn))
        variable = getattr(fn, "variable", None)
        if variable is not None:                    # AccumulateGrad: draw the leaf itself
            dot.node(node_id, "AccumulateGrad")
            add_leaf(variable, str(id(variable)))
            dot.edge(str(id(variable)), node_id)
        else:
            label = fn.name()
            if show_attrs:
                attrs = [f"{k}: {str(v)[:max_attr_chars]}" for k, v in vars(fn).items()
                         if not k.startswith("_")]
                if attrs:
                    label += "\n" + "\n".join(attrs)
            dot.node(node_id, label)
        if show_saved:
            for name, tensor in _saved_tensors(fn):
                saved_id = f"{node_id}_saved_{name}"
                dot.node(saved_id, f"{name}\n {_size_text(tensor.shape)}", fillcolor="orange")
                dot.edge(saved_id, node_id, dir="none")
        for nxt, _ in fn.next_functions:
            if nxt is not None:
                dot.edge(str(id(nxt)), node_id)
                add_node(nxt)

    outputs = var if isinstance(var, (tuple, list)) else (var,)
    for out in outputs:
        out_id = f"{id(out)}_out"
        dot.node(out_id, _size_text(out.shape), fillcolor="darkolivegreen1")
        if out.grad_fn is not None:
            add_node(out.grad_fn)
            dot.edge(str(id(out.grad_fn)), out_id)
    return dot


def grad_fn_tree(tensor, params=None):
    """The graph behind `tensor.grad_fn` as an indented text tree; a node reached again is
    shown once and then referred to as "(see above)".

    >>> print(grad_fn_tree((w * x).sum(), params={"w": w}))
    SumBackward0
    └── MulBackward0
        ├── AccumulateGrad  w (2)
        └── AccumulateGrad  (2)
    """
    names = {id(v): k for k, v in (params or {}).items()}
    fn = tensor.grad_fn
    if fn is None:
        kind = "a leaf" if tensor.requires_grad else "not part of a graph"
        return f"(no grad_fn: {kind} tensor {_size_text(tensor.shape)})"
    lines = []
    seen = set()

    def label(node):
        variable = getattr(node, "variable", None)
        if variable is None:
            return node.name()
        name = names.get(id(variable))
        return f"AccumulateGrad  {name + ' ' if name else ''}{_size_text(variable.shape)}"

    def walk(node, prefix, connector, child_prefix):
        again = node in seen
        lines.append(f"{prefix}{connector}{label(node)}{'  (see above)' if again else ''}")
        if again:
            return
        seen.add(node)
        children = [n for n, _ in node.next_functions if n is not None]
        for i, child in enumerate(children):
            last = i == len(children) - 1
            walk(child, prefix + child_prefix, "└── " if last else "├── ",
                 "    " if last else "│   ")

    walk(fn, "", "", "")
    return "\n".join(lines)
