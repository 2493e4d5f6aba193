"""Parameters to one flat vector and back."""


def parameters_to_vector(parameters):
    """All parameters flattened and concatenated into one 1-D tensor."""
    from ..._ops.joining import cat
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Copy consecutive slices of the 1-D `vec` into each parameter (replacing its data)."""
    from ..._tensor import Tensor
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    start = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[start:start + n].view_as(p).data
        start += n
