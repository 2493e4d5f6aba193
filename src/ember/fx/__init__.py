"""torch.fx: capture a program as a graph of operations (symbolic tracing), edit the graph,
and turn it back into a Module (GraphModule) whose forward is generated Python.

    gm = torch.fx.symbolic_trace(model)
    print(gm.graph)      # the nodes
    print(gm.code)       # the generated forward
    gm(x)                # the same values as model(x)

The pieces: nodes (node.py), the graph and its editing (graph.py), the generated code
(_codegen.py), proxies (proxy.py) and the tracer (_symbolic_trace.py: NOTE [ How tracing
works ]), GraphModule (graph_module.py), running a graph node by node (interpreter.py:
Interpreter, Transformer), pattern rewriting (subgraph_rewriter.py) and passes (passes/).
"""
from . import immutable_collections, node
from ._symbolic_trace import PH, Tracer, symbolic_trace, wrap
from .graph import CodeGen, Graph
from .graph_module import GraphModule
from .interpreter import Interpreter, Transformer
from .node import Node, has_side_effect, map_arg
from .proxy import Proxy
from .subgraph_rewriter import replace_pattern
from . import passes, subgraph_rewriter

__all__ = ["symbolic_trace", "Tracer", "wrap", "Graph", "GraphModule", "Interpreter",
           "Transformer", "Node", "Proxy", "replace_pattern", "has_side_effect", "map_arg",
           "CodeGen", "PH"]
