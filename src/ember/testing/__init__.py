"""ember.testing: `assert_close` and `make_tensor`, as in torch.testing."""
from ._comparison import assert_close
from ._creation import make_tensor

__all__ = ["assert_close", "make_tensor"]
