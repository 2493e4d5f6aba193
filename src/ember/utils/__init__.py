"""ember.utils: data loading, checkpointing, graph drawing and model summaries (`summary`).

Submodules load on first use (`ember.utils.data`, `ember.utils.checkpoint`, ...), as in torch,
so that `import ember` stays light.
"""
import importlib

from . import _pytree  # noqa: F401 - torch.utils._pytree, loaded with torch.utils
from ._summary import summary  # noqa: F401


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module 'ember.utils' has no attribute '{name}'") from None
    globals()[name] = module
    return module
