"""ember.nn.parallel: `DataParallel`, `data_parallel` and `DistributedDataParallel`, as
torch.nn.parallel has them."""
from .data_parallel import DataParallel, data_parallel
from .distributed import DistributedDataParallel

__all__ = ["DataParallel", "data_parallel", "DistributedDataParallel"]
