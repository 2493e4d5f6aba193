"""The function forms of in-place ops that torch exposes at top level (`torch.relu_(x)`,
`torch.sigmoid_(x)`, ...): each calls the Tensor method `op_` on its first argument.

Imported after every family, so that the methods it forwards to are registered.
"""
from .registry import METHODS, register

# torch 2.x's top-level `op_` functions whose Tensor method ember has (from `dir(torch)`)
_NAMES = ("abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_",
          "arctan_", "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_",
          "clamp_max_", "clamp_min_", "clip_", "conj_physical_", "cos_", "cosh_", "deg2rad_",
          "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fix_", "floor_", "frac_", "gcd_", "i0_",
          "lcm_", "ldexp_", "log10_", "log1p_", "log2_", "log_", "logit_", "nan_to_num_",
          "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_", "round_", "rsqrt_",
          "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_",
          "xlogy_")


def _forward_to(name):
    method = METHODS[name]

    def fn(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"In-place `input.{name}(...)` as a function (torch.{name})."
    return fn


for _name in _NAMES:
    # NOTE: only in-place variants of registered ops, which the op table already checks
    # through their methods (tests/test_ops.py excludes such names from needing entries)
    if _name in METHODS and _name[:-1] in METHODS:
        register(_name, _forward_to(_name), method=False)
