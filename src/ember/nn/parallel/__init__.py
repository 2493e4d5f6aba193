"""ember.nn.parallel: `DataParallel` and `data_parallel`, as torch.nn.parallel has them."""
from .data_parallel import DataParallel, data_parallel

__all__ = ["DataParallel", "data_parallel"]
