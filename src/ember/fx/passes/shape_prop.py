"""torch.fx.passes.shape_prop: run a GraphModule on example inputs and record on each node
the shape, dtype, strides, ... of the tensors it gives (`node.meta['tensor_meta']`)."""
from typing import Any, NamedTuple

from ..interpreter import Interpreter
from ..node import map_aggregate

__all__ = ["TensorMetadata", "ShapeProp"]


class TensorMetadata(NamedTuple):
    """What ShapeProp records of a tensor."""
    shape: Any
    dtype: Any
    requires_grad: bool
    stride: Any
    memory_format: Any
    is_quantized: bool
    qparams: dict


def _extract_tensor_metadata(result, include_contiguity=True):
    import ember
    memory_format = None
    if include_contiguity:
        for query in (ember.contiguous_format, ember.channels_last, ember.channels_last_3d):
            if result.is_contiguous(memory_format=query):
                memory_format = query
                break
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, result.stride(),
                          memory_format, False, {})


class ShapeProp(Interpreter):
    """`ShapeProp(gm).propagate(*inputs)` runs `gm` and fills in each node's
    `meta['tensor_meta']` (a TensorMetadata, or a structure of them) and `meta['type']`."""

    def __init__(self, gm, fake_mode=None):
        super().__init__(gm)
        self.fake_mode = fake_mode

    def run_node(self, n):
        from ..._tensor import Tensor
        result = super().run_node(n)
        found = False

        def extract(obj):
            nonlocal found
            if isinstance(obj, Tensor):
                found = True
                return _extract_tensor_metadata(obj)
            return obj
        meta = map_aggregate(result, extract)
        if found:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args):
        """Run the module on `args`, recording the metadata; returns its result."""
        return super().run(*args)
