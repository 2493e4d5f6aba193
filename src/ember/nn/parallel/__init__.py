"""ember.nn.parallel: `DataParallel`, `data_parallel`, `DistributedDataParallel`, `scatter`
and `gather`, as torch.nn.parallel has them."""
from .data_parallel import DataParallel, data_parallel
from .distributed import DistributedDataParallel
from .scatter_gather import gather, scatter

__all__ = ["DataParallel", "data_parallel", "DistributedDataParallel", "gather", "scatter"]
