"""ember.testing: `assert_close` and `make_tensor`, as in torch.testing (and the deprecated
`assert_allclose`)."""
from ._comparison import assert_close
from ._creation import make_tensor
from ._deprecated import assert_allclose

__all__ = ["assert_close", "make_tensor"]
