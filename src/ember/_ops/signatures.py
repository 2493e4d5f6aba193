"""torch's printed signatures of the operators whose argument-parser errors ember words as torch
does (`argument_errors`), and the sets that say how each is bound: the tables, apart from the
parser's logic.
"""
# (signatures that several operators share)
_STD_VAR = ["(tuple of ints? dim, bool unbiased = True, bool keepdim = False, *, "
            "Tensor out = None)",
            "(tuple of ints? dim = None, *, Number? correction = None, bool keepdim = False, "
            "Tensor out = None)",
            "(bool unbiased = True)"]
_ALL_ANY = ["(*, Tensor out = None)",
            "(tuple of ints? dim = None, bool keepdim = False, *, Tensor out = None)",
            "(int dim, bool keepdim = False, *, Tensor out = None)"]
_QUANTILE = [f"({q} q, int? dim = None, bool keepdim = False, *, "
             f'str interpolation = "linear", Tensor out = None)' for q in ("Tensor", "float")]
# (the options of the factories and of the `_like` factories)
_MAKE = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
         "bool pin_memory = False, bool requires_grad = False)")
_OUT = "Tensor out = None, " + _MAKE
_LIKE = "torch.memory_format memory_format = None, " + _MAKE


def _with_generator(first, rest):
    """A sampler's pair of signatures: with a (required) generator keyword, then without."""
    return [f"({first}, *, torch.Generator generator, {rest}", f"({first}, *, {rest}"]


def _spaces(base):
    return [f"({a} start, {b} end, int steps, {base}*, {_OUT}"
            for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"),
                         ("Number", "Number"))]


# Each operator's visible signatures, as torch prints them for the function without its
# `Tensor input` (the method's form leaves out `out` too); one written with its first
# parameter (`Tensor input`, `Number self`) is the function's only. A `?` after a type (not
# printed) marks a parameter that also takes None, as parameters with a default of None do.
SIGNATURES = {
    "sum": ["(*, torch.dtype dtype = None)",
            "(tuple of ints? dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)"],
    "mean": ["(*, torch.dtype dtype = None, Tensor out = None)",
             "(tuple of ints? dim, bool keepdim = False, *, torch.dtype dtype = None, "
             "Tensor out = None)"],
    "prod": ["(*, torch.dtype dtype = None)",
             "(int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"],
    "max": ["(*, Tensor out = None)", "(Tensor other, *, Tensor out = None)",
            "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "min": ["(*, Tensor out = None)", "(Tensor other, *, Tensor out = None)",
            "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "argmax": ["(int dim = None, bool keepdim = False)"],
    "argmin": ["(int dim = None, bool keepdim = False)"],
    "cumsum": ["(int dim, *, torch.dtype dtype = None)"],
    "histogram": ["(Tensor bins, *, Tensor weight = None, bool density = False, "
                  "tuple of Tensors out = None)",
                  "(int bins = 100, *, tuple of floats range = None, Tensor weight = None, "
                  "bool density = False, tuple of Tensors out = None)"],
    "cumprod": ["(int dim, *, torch.dtype dtype = None)"],
    "logsumexp": ["(tuple of ints dim, bool keepdim = False)"],
    "softmax": ["(int dim, torch.dtype dtype = None)"],
    "log_softmax": ["(int dim, torch.dtype dtype = None)"],
    "index_select": ["(int dim, Tensor index)"],
    "amax": ["(tuple of ints dim = (), bool keepdim = False, *, Tensor out = None)"],
    "amin": ["(tuple of ints dim = (), bool keepdim = False, *, Tensor out = None)"],
    "median": ["()", "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "nanmedian": ["()", "(int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
    "mode": ["(int dim = -1, bool keepdim = False, *, tuple of Tensors out = None)"],
    "kthvalue": ["(int k, int dim = -1, bool keepdim = False, *, tuple of Tensors out = None)"],
    "cummax": ["(int dim, *, tuple of Tensors out = None)"],
    "cummin": ["(int dim, *, tuple of Tensors out = None)"],
    "std": _STD_VAR,
    "var": _STD_VAR,
    "std_mean": [s.replace(", Tensor out = None", "").replace(", *)", ")") for s in _STD_VAR],
    "var_mean": [s.replace(", Tensor out = None", "").replace(", *)", ")") for s in _STD_VAR],
    "all": _ALL_ANY,
    "any": _ALL_ANY,
    "nansum": ["(tuple of ints? dim = None, bool keepdim = False, *, torch.dtype dtype = None, "
               "Tensor out = None)"],
    "nanmean": ["(tuple of ints? dim = None, bool keepdim = False, *, torch.dtype dtype = None, "
                "Tensor out = None)"],
    "aminmax": ["(*, int? dim = None, bool keepdim = False, tuple of Tensors out = None)"],
    "count_nonzero": ["(int? dim = None)", "(tuple of ints dim)"],
    "quantile": _QUANTILE,
    "nanquantile": _QUANTILE,
    "sort": ["(*, bool? stable, int dim = -1, bool descending = False, "
             "tuple of Tensors out = None)",
             "(int dim = -1, bool descending = False, *, tuple of Tensors out = None)"],
    "argsort": ["(*, bool? stable, int dim = -1, bool descending = False, Tensor out = None)",
                "(int dim = -1, bool descending = False)"],
    "topk": ["(int k, int dim = -1, bool largest = True, bool sorted = True, *, "
             "tuple of Tensors out = None)"],
    "squeeze": ["()", "(int dim)", "(tuple of ints dim)"],
    "unsqueeze": ["(int dim)"],
    # joining operators take no `input` (see signatures)
    "cat": ["(tuple of Tensors tensors, int dim = 0, *, Tensor out = None)"],
    "stack": ["(tuple of Tensors tensors, int dim = 0, *, Tensor out = None)"],
    "view": ["(torch.dtype dtype)", "(tuple of ints size)"],
    # factories whose first parameter is their own (no `Tensor input`: see _NO_INPUT)
    "normal": ["(Tensor mean, Tensor std, *, torch.Generator generator = None, "
               "Tensor out = None)",
               "(Tensor mean, float std = 1, *, torch.Generator generator = None, "
               "Tensor out = None)",
               "(float mean, Tensor std, *, torch.Generator generator = None, "
               "Tensor out = None)",
               "(float mean, float std, tuple of ints size, *, torch.Generator generator = None, "
               "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
               "torch.device device = None, bool pin_memory = False, "
               "bool requires_grad = False)"],
    # the samplers whose overloads Python's signature cannot tell apart
    "random_": ["(*, torch.Generator generator = None)",
                "(int from, int? to, *, torch.Generator generator = None)",
                "(int to, *, torch.Generator generator = None)"],
    "bernoulli": ["(*, torch.Generator generator = None, Tensor out = None)",
                  "(float p, *, torch.Generator generator = None)"],
    "bernoulli_": ["(Tensor p, *, torch.Generator generator = None)",
                   "(float p = 0.5, *, torch.Generator generator = None)"],
    "multinomial": ["(int num_samples, bool replacement = False, *, "
                    "torch.Generator generator = None, Tensor out = None)"],
    "poisson": ["(torch.Generator generator = None)"],
    "binomial": ["(Tensor count, Tensor prob, torch.Generator generator = None)"],
    "_standard_gamma": ["(torch.Generator generator = None)"],
    "_sample_dirichlet": ["(torch.Generator generator = None)"],
    "uniform_": ["(float from = 0, float to = 1, *, torch.Generator generator = None)"],
    "normal_": ["(float mean = 0, float std = 1, *, torch.Generator generator = None)"],
    "exponential_": ["(float lambd = 1, *, torch.Generator generator = None)"],
    "geometric_": ["(float p, *, torch.Generator generator = None)"],
    "cauchy_": ["(float median = 0, float sigma = 1, *, torch.Generator generator = None)"],
    "log_normal_": ["(float mean = 1, float std = 2, *, torch.Generator generator = None)"],
    # factories (_FACTORIES), whose texts matter mostly for calls without arguments
    "rand": _with_generator("tuple of ints size", _OUT),
    "randn": _with_generator("tuple of ints size", _OUT),
    "randperm": _with_generator("int n", _OUT),
    "randint": (_with_generator("int high, tuple of ints size", _OUT)
                + _with_generator("int low, int high, tuple of ints size", _OUT)),
    "rand_like": _with_generator("Tensor input", _LIKE),
    "randn_like": _with_generator("Tensor input", _LIKE),
    "randint_like": (_with_generator("Tensor input, int low, int high", _LIKE)
                     + _with_generator("Tensor input, Tensor high", _LIKE)
                     + _with_generator("Tensor input, int high", _LIKE)),
    "arange": [f"(Number end, *, {_OUT}", f"(Number start, Number end, *, {_MAKE}",
               f"(Number start, Number end, Number step = 1, *, {_OUT}"],
    "eye": [f"(int n, *, {_OUT}", f"(int n, int m, *, {_OUT}"],
    "linspace": _spaces(""),
    "logspace": _spaces("float base = 10.0, "),
    "full": [f"(tuple of ints size, Number fill_value, *, {_OUT}"],
    "empty_strided": [f"(tuple of ints size, tuple of ints stride, *, {_MAKE}"],
    "zeros_like": [f"(Tensor input, *, {_LIKE}"],
    "ones_like": [f"(Tensor input, *, {_LIKE}"],
    "empty_like": [f"(Tensor input, *, {_LIKE}"],
    "full_like": [f"(Tensor input, Number fill_value, *, {_LIKE}"],
    "tensor": ["(object data, *, torch.dtype dtype = None, torch.device device = None, "
               "bool pin_memory = False, bool requires_grad = False)"],
    "as_tensor": ["(object data, *, torch.dtype dtype = None, torch.device device = None)"],
    # the trapezoidal rule: y first (see _NO_INPUT)
    "trapezoid": ["(Tensor y, Tensor x, *, int dim = -1)",
                  "(Tensor y, *, Number dx = 1, int dim = -1)"],
    "cumulative_trapezoid": ["(Tensor y, Tensor x, *, int dim = -1)",
                             "(Tensor y, *, Number dx = 1, int dim = -1)"],
    "trapz": ["(Tensor y, *, float dx = 1, int dim = -1)",
              "(Tensor y, Tensor x, *, int dim = -1)"],
    # the legacy constructor: Tensor(...), FloatTensor(...)
    "new": ["(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
            "(tuple of ints size, *, torch.device device = None)",
            "(object data, *, torch.device device = None)"],
    "add": ["(Tensor other, *, Number alpha = 1, Tensor out = None)"],
    "sub": ["(Tensor other, *, Number alpha = 1, Tensor out = None)"],
    "div": ["(Tensor other, *, Tensor out = None)",
            "(Tensor other, *, str? rounding_mode, Tensor out = None)",
            "(Number other, *, str? rounding_mode)"],
    "pow": ["(Tensor exponent, *, Tensor out = None)",
            "(Number self, Tensor exponent, *, Tensor out = None)",     # (torch.pow(2, t))
            "(Number exponent, *, Tensor out = None)"],
    "clamp": ["(Tensor min = None, Tensor max = None, *, Tensor out = None)",
              "(Number min = None, Number max = None, *, Tensor out = None)"],
    "clip": ["(Tensor min = None, Tensor max = None, *, Tensor out = None)",
             "(Number min = None, Number max = None, *, Tensor out = None)"],
    "clamp_min": ["(Tensor min, *, Tensor out = None)", "(Number min, *, Tensor out = None)"],
    "clamp_max": ["(Tensor max, *, Tensor out = None)", "(Number max, *, Tensor out = None)"],
    "mm": ["(Tensor mat2, *, Tensor out = None)",
           "(Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None)"],
    "narrow": ["(int dim, Tensor start, int length)", "(int dim, int start, int length)"],
    "movedim": ["(int source, int destination)",
                "(tuple of ints source, tuple of ints destination)"],
    "tensor_split": ["(tuple of ints indices, int dim = 0)",
                     "(Tensor tensor_indices_or_sections, int dim = 0)",
                     "(int sections, int dim = 0)"],
    "hsplit": ["(int sections)", "(tuple of ints indices)"],
    "vsplit": ["(int sections)", "(tuple of ints indices)"],
    "dsplit": ["(int sections)", "(tuple of ints indices)"],
    # operators with a Tensor and a Number overload of one argument
    "scatter": ["(int dim, Tensor index, Tensor src, *, Tensor out = None)",
                "(int dim, Tensor index, Tensor src, *, str reduce, Tensor out = None)",
                "(int dim, Tensor index, Number value, *, Tensor out = None)",
                "(int dim, Tensor index, Number value, *, str reduce, Tensor out = None)"],
    # (the reductions into slices, which check their argument types before anything else)
    "scatter_reduce": ["(int dim, Tensor index, Tensor src, str reduce, *, "
                       "bool include_self = True, Tensor out = None)"],
    "index_reduce": ["(int dim, Tensor index, Tensor source, str reduce, *, "
                     "bool include_self = True, Tensor out = None)"],
    "index_add": ["(int dim, Tensor index, Tensor source, *, Number alpha = 1, "
                  "Tensor out = None)"],
    "index_fill": ["(int dim, Tensor index, Tensor value)",
                   "(int dim, Tensor index, Number value)"],
    "masked_fill": ["(Tensor mask, Tensor value)", "(Tensor mask, Number value)"],
    "lerp": ["(Tensor end, Tensor weight, *, Tensor out = None)",
             "(Tensor end, Number weight, *, Tensor out = None)"],
    # functions only, whose signatures name their first parameter otherwise
    "isin": [f"({a}, {b}, *, bool assume_unique = False, bool invert = False, "
             "Tensor out = None)"
             for a, b in (("Tensor elements", "Tensor test_elements"),
                          ("Number element", "Tensor test_elements"),
                          ("Tensor elements", "Number test_element"))],
    # a function only, whose second signature takes a number first
    "bucketize": ["(Tensor input, Tensor boundaries, *, bool out_int32 = False, "
                  "bool right = False, Tensor out = None)",
                  "(Number self, Tensor boundaries, *, bool out_int32 = False, "
                  "bool right = False)"],
}
# Operators whose signatures take no `Tensor input` first: the joining operators (their
# tensors come first), factories, and the trapezoidal rule's (`Tensor y`).
_FACTORIES = {"rand", "randn", "randint", "randperm", "arange", "eye", "linspace", "logspace",
              "full", "empty_strided", "tensor", "as_tensor"}
_NO_INPUT = {"cat", "stack", "normal", "new", "trapezoid", "cumulative_trapezoid",
             "trapz", "binomial", "isin"} | _FACTORIES
# Hot operators that the registry gives no wrapper of its own (NOTE [ Arity errors ]): their
# signatures serve the wrappers they have anyway (the in-place `op_`, some functions), and
# `view` calls `parser_error` on its own error path.
NO_WRAPPER = {"view", "add", "sub", "div", "pow", "clamp", "clamp_min", "clamp_max", "mm",
              "movedim"}
# Operators torch writes in Python, which raise Python's own texts (and take no NumPy names,
# see registry)
PYTHON_IN_TORCH = {"norm", "split", "unique", "unique_consecutive", "stft", "istft", "lu",
                   "chain_matmul", "cdist", "tensordot", "einsum", "meshgrid",
                   "broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d"}
# Operators whose Tensor parameters also take a number (torch's parser turns it into a tensor)
NUMBERS_AS_TENSORS = {"add", "sub", "div"}
# How many deprecated overloads torch accepts without listing them, by operator (add and sub
# have one, add(Number alpha, Tensor other)).
HIDDEN = {"add": 1, "sub": 1}
