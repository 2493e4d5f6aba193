"""ember.optim: optimizers and learning-rate schedulers, as torch.optim.

`optimizer.py` holds the base class; each algorithm has its own file; schedulers are in
`lr_scheduler.py`, weight averaging in `swa_utils.py`.
"""
from . import lr_scheduler
from ._adafactor import Adafactor
from ._muon import Muon
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam


def __getattr__(name):
    # NOTE: swa_utils builds on ember.nn, so it is imported on first use rather than by
    # `import ember` (which imports this package).
    if name == "swa_utils":
        import importlib
        return importlib.import_module(".swa_utils", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ASGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS",
           "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam",
           "lr_scheduler", "swa_utils"]
