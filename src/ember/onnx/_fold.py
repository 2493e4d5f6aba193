"""Constant folding of weights after translation, as torch's exporter does with
do_constant_folding=True: a Conv followed by an eval BatchNormalization becomes one Conv with
rescaled weights and bias, and a Transpose of a weight becomes a transposed initializer (the
MatMul of a Linear on a 3-D input reads it directly). Folded initializers are named as torch
names its own ("onnx::Conv_23", "onnx::MatMul_25"); initializers nothing reads any more are
dropped."""
import numpy as np

__all__ = ["fold_weights"]


def fold_weights(g, onnx, output_names):
    """Fold in place the nodes of builder `g` whose inputs are all weights."""
    for node in list(g.nodes):
        if node.op_type == "BatchNormalization":
            _fold_batch_norm(g, onnx, node, output_names)
        elif node.op_type == "Transpose" and node.input[0] in g.initializers and \
                node.output[0] not in output_names:
            _fold_transpose(g, onnx, node)
    used = {name for node in g.nodes for name in node.input} | set(output_names)
    g.initializers = {k: v for k, v in g.initializers.items() if k in used}


def _weight(g, onnx, name):
    return onnx.numpy_helper.to_array(g.initializers[name][0])


def _fold_batch_norm(g, onnx, bn, output_names):
    conv = next((n for n in g.nodes if bn.input[0] in n.output), None)
    if conv is None or conv.op_type != "Conv" or bn.input[0] in output_names:
        return
    readers = [n for n in g.nodes if bn.input[0] in n.input]
    weights = list(conv.input[1:]) + list(bn.input[1:])
    if len(readers) != 1 or any(w not in g.initializers for w in weights):
        return
    w = _weight(g, onnx, conv.input[1])
    bias = _weight(g, onnx, conv.input[2]) if len(conv.input) > 2 else np.zeros(w.shape[0])
    gamma, beta, mean, var = (_weight(g, onnx, name).astype(np.float64)
                              for name in bn.input[1:])
    eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
    scale = gamma / np.sqrt(var + eps)
    new_w = (w * scale.reshape((-1,) + (1,) * (w.ndim - 1))).astype(w.dtype)
    new_b = ((bias - mean) * scale + beta).astype(w.dtype)
    del conv.input[1:]
    conv.input.extend([g.folded(new_w, "Conv").name, g.folded(new_b, "Conv").name])
    if bn.output[0] in output_names:          # (the graph's output keeps its name)
        conv.output[0] = bn.output[0]
    else:                                     # (the conv's output keeps its, as in torch)
        _rename_reads(g, bn.output[0], conv.output[0])
    g.nodes.remove(bn)


def _fold_transpose(g, onnx, node):
    perm = next(list(a.ints) for a in node.attribute if a.name == "perm")
    readers = [n for n in g.nodes if node.output[0] in n.input]
    hint = readers[0].op_type if readers else "Transpose"
    folded = g.folded(np.ascontiguousarray(_weight(g, onnx, node.input[0]).transpose(perm)),
                      hint).name
    _rename_reads(g, node.output[0], folded)
    g.nodes.remove(node)


def _rename_reads(g, old, new):
    for node in g.nodes:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new
