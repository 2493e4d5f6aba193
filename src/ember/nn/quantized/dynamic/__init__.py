"""torch.nn.quantized.dynamic: the older name of torch.ao.nn.quantized.dynamic."""
from ....ao.nn.quantized.dynamic import *  # noqa: F401,F403
