"""ember.func: torch.func's composable function transforms (grad, vjp, jvp, jacrev, jacfwd,
hessian, vmap) and functional_call, built on ember.autograd (see eager_transforms.py)."""
from .eager_transforms import (grad, grad_and_value, hessian, jacfwd, jacrev, jvp, linearize,
                               vjp)
from .functional_call import functional_call, replace_all_batch_norm_modules_, \
    stack_module_state
from .vmap import vmap


def functionalize(func, *, remove="mutations"):
    """torch removes in-place operations from `func`'s program; eager results are the same
    either way, so ember returns a function that calls `func`."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(f"functionalize(f, remove='mutations'): received invalid argument "
                           f"for remove={remove}. Valid options are:\n     remove='mutations': "
                           f"all inplace and out= operators will be removed from the program, "
                           f"and replaced with their out-of-place equivalents.\n     "
                           f"remove='mutations_and_views': In addition to the above, all "
                           f"aliasing operators {{view}} will be replaced with their "
                           f"non-aliasing counterparts, {{view}}_copy.\n")
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper


__all__ = ["functional_call", "functionalize", "grad", "grad_and_value", "hessian", "jacfwd",
           "jacrev", "jvp", "linearize", "replace_all_batch_norm_modules_",
           "stack_module_state", "vjp", "vmap"]
