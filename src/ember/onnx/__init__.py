"""torch.onnx: export a model as an ONNX graph.

    torch.onnx.export(model, (x,), "model.onnx", input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})

The model is captured by ember.fx's symbolic trace and one run on the example inputs
(_trace.py), each call is translated through one table of translations (_registry.py, filled by
_ops_math.py, _ops_shape.py, _ops_nn.py and _modules.py) into a graph builder (_graph.py), and
the ModelProto is assembled in _build.py. Writing ONNX needs the `onnx` package (the `onnx`
extra); `import ember` does not.
"""
from . import errors
from ._constants import OperatorExportTypes, TrainingMode
from ._export import export, is_in_onnx_export
from ._onnx_program import ONNXProgram
from .errors import OnnxExporterError

__all__ = ["errors", "export", "is_in_onnx_export", "OnnxExporterError", "ONNXProgram",
           "TrainingMode", "OperatorExportTypes"]
