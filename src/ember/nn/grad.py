"""torch.nn.grad: the gradients of a convolution with respect to its input and to its
weight, as functions of the output's gradient (what custom conv backwards call).

Each is the gradient ember's own convolution backward computes: the convolution of a zero
input (or with the given weight) differentiated with `grad_output` as the incoming
gradient. A convolution is linear in its input and in its weight, so the values that stand
in for the other operand do not matter.
"""
from .. import _creation
from ..autograd import grad as _grad
from ..autograd.grad_mode import enable_grad
from . import functional as F

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input",
           "conv3d_weight"]


def _check_rank(input_size, weight_size):
    """torch's convolution_backward takes batched inputs only (no unbatched forms)."""
    if len(input_size) != len(weight_size):
        raise RuntimeError(f"Expected {len(weight_size)}-dimensional input for "
                           f"{len(weight_size)}-dimensional weight {list(weight_size)}, but got "
                           f"{len(input_size)}-dimensional input of size {list(input_size)} "
                           f"instead")


def _input_grad(conv, input_size, weight, grad_output, stride, padding, dilation, groups):
    _check_rank(tuple(input_size), tuple(weight.shape))
    with enable_grad():
        x = _creation.zeros(tuple(input_size), dtype=weight.dtype, device=weight.device,
                            requires_grad=True)
        out = conv(x, weight.detach(), None, stride, padding, dilation, groups)
        return _grad(out, x, grad_output)[0]


def _weight_grad(conv, input, weight_size, grad_output, stride, padding, dilation, groups):
    _check_rank(tuple(input.shape), tuple(weight_size))
    with enable_grad():
        w = _creation.zeros(tuple(weight_size), dtype=input.dtype, device=input.device,
                            requires_grad=True)
        out = conv(input.detach(), w, None, stride, padding, dilation, groups)
        return _grad(out, w, grad_output)[0]


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to an input of `input_size`."""
    return _input_grad(F.conv1d, input_size, weight, grad_output, stride, padding, dilation,
                       groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to a weight of `weight_size`."""
    return _weight_grad(F.conv1d, input, weight_size, grad_output, stride, padding, dilation,
                        groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to an input of `input_size`."""
    return _input_grad(F.conv2d, input_size, weight, grad_output, stride, padding, dilation,
                       groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to a weight of `weight_size`."""
    return _weight_grad(F.conv2d, input, weight_size, grad_output, stride, padding, dilation,
                        groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to an input of `input_size`."""
    return _input_grad(F.conv3d, input_size, weight, grad_output, stride, padding, dilation,
                       groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to a weight of `weight_size`."""
    return _weight_grad(F.conv3d, input, weight_size, grad_output, stride, padding, dilation,
                        groups)
