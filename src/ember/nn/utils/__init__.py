"""ember.nn.utils: gradient clipping and flattening parameters to one vector."""
from .clip_grad import clip_grad_norm_, clip_grad_value_, get_total_norm, clip_grads_with_norm_
from .convert_parameters import parameters_to_vector, vector_to_parameters
from . import rnn  # noqa: F401

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_",
           "parameters_to_vector", "vector_to_parameters"]
