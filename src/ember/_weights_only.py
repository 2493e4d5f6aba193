"""The unpickler of `ember.load`: torch's global names mapped to ember's objects, and the
allowlist that `weights_only=True` enforces (torch's defaults plus `add_safe_globals`).

NOTE [ Weights-only unpickling ]
A pickle runs code only through the globals it names: GLOBAL/STACK_GLOBAL (and the copyreg
extension codes) resolve a name through `find_class`, and REDUCE, NEWOBJ and BUILD can only call
what those names produced. So an unpickler whose `find_class` answers nothing but an allowlist
of harmless callables (tensor rebuilders, containers, dtypes) cannot run arbitrary code, which
is what torch's `weights_only` promises. Checkpoints name torch's globals
(`torch._utils._rebuild_tensor_v2`); `find_class` maps them to ember's own objects in both
modes, so loading never imports torch.
"""
import pickle
from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING

_BLOCKED_MODULES = ("sys", "os", "posix", "nt")

_UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.")
_DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")

_safe_globals = set()   # what add_safe_globals added: callables or (callable, "full.name")


def add_safe_globals(safe_globals):
    """Mark globals as safe for `ember.load(weights_only=True)`: classes or functions, or
    `(obj, "module.name")` pairs for an object saved under another name."""
    global _safe_globals
    _safe_globals = _safe_globals.union(safe_globals)


def get_safe_globals():
    """The globals added with `add_safe_globals` (a list)."""
    return list(_safe_globals)


def clear_safe_globals():
    """Forget every global added with `add_safe_globals`."""
    global _safe_globals
    _safe_globals = set()


class safe_globals:
    """Context manager that allows `safe_globals` for `ember.load(weights_only=True)` inside it:

        with ember.serialization.safe_globals([MyClass]):
            ember.load("checkpoint.pt")
    """

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, type, value, tb):
        global _safe_globals
        _safe_globals = _safe_globals - set(self.safe_globals)


def _user_allowed_globals():
    allowed = {}
    for entry in _safe_globals:
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ValueError(f"Expected tuple of length 2 (global, str of callable full "
                                 f"path), but got tuple of length: {len(entry)}")
            if type(entry[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full "
                                f"path, but got: {type(entry[1])}")
            allowed[entry[1]] = entry[0]
        else:
            allowed[f"{entry.__module__}.{entry.__qualname__}"] = entry
    return allowed


def _unsupported_global(full_path):
    # NOTE: torch names builtins without their module (`set`, not `builtins.set`).
    if full_path.startswith("builtins."):
        full_path = full_path[len("builtins."):]
    return pickle.UnpicklingError(
        f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
        f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
        f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this "
        "global if you trust this class/function.")


def weights_only_message(message):
    """torch's wording around an error of the weights-only unpickler."""
    if "was not an allowed global by default." in message:
        return ("Weights only load failed. This file can still be loaded, to do so you have two "
                "options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {_UNSAFE_MESSAGE}\n\t(2) Alternatively, to load "
                "with `weights_only=True` please check the recommended steps in the following "
                "error message.\n\tWeightsUnpickler error: " + message + _DOCS_MESSAGE)
    text = f"Weights only load failed. {_UNSAFE_MESSAGE}\n"
    if "is blocked." not in message:
        text += ("Please file an issue with the following so that we can make "
                 "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
    return text + "\n\n" + message + _DOCS_MESSAGE


class Unpickler(pickle.Unpickler):
    """Resolves torch's globals through `known` (name -> ember object); with `weights_only`,
    refuses everything else that is not allowlisted (see NOTE [ Weights-only unpickling ])."""

    def __init__(self, file, known, fallback, weights_only, persistent_load, **kwargs):
        super().__init__(file, **kwargs)
        self._known = known
        self._fallback = fallback
        self._weights_only = weights_only
        self.persistent_load = persistent_load

    def find_class(self, module, name):
        # NOTE: protocol-2 pickles use Python 2 names (`__builtin__.set`); map them first, as
        # `pickle.Unpickler.find_class` would have.
        if (module, name) in NAME_MAPPING:
            module, name = NAME_MAPPING[(module, name)]
        elif module in IMPORT_MAPPING:
            module = IMPORT_MAPPING[module]
        full_path = f"{module}.{name}"
        found = self._known.get(full_path)
        if found is not None:
            return found
        if not self._weights_only:
            found = self._fallback(module, name)
            return super().find_class(module, name) if found is None else found
        if module in _BLOCKED_MODULES:
            raise pickle.UnpicklingError(f"Trying to load unsupported GLOBAL {full_path} whose "
                                         f"module {module} is blocked.")
        allowed = _user_allowed_globals()
        if full_path in allowed:
            return allowed[full_path]
        raise _unsupported_global(full_path)
