"""The exporter's enums (torch._C._onnx's TrainingMode and OperatorExportTypes) and its opset
range."""
import enum

__all__ = ["TrainingMode", "OperatorExportTypes"]

DEFAULT_OPSET = 20       # what torch 2.13's TorchScript exporter writes by default
MIN_OPSET = 10           # ember's lowest (torch's is 7): Slice takes its bounds as inputs
MAX_OPSET = 20


class _Enum(enum.IntEnum):
    def __str__(self):
        return f"{type(self).__name__}.{self.name}"      # (torch's, not IntEnum's "0")


class TrainingMode(_Enum):
    """The mode a model is exported in: EVAL (dropout off, batch norm on running
    statistics), PRESERVE (as it is) or TRAINING."""
    EVAL = 0
    PRESERVE = 1
    TRAINING = 2


class OperatorExportTypes(_Enum):
    """How operators are exported; ember, like torch 2.13, exports only plain ONNX."""
    ONNX = 0
    ONNX_ATEN = 1
    ONNX_ATEN_FALLBACK = 2
    ONNX_FALLTHROUGH = 3
