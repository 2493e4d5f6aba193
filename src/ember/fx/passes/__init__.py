"""torch.fx.passes: analyses and transformations over graphs (shape_prop: ShapeProp)."""
from . import shape_prop

__all__ = ["shape_prop"]
