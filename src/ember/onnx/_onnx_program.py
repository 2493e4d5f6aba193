"""torch.onnx.ONNXProgram: what `export(..., dynamo=True)` gives back, the exported model."""
import os

__all__ = ["ONNXProgram"]


class ONNXProgram:
    """An exported model: `model_proto` (an onnx.ModelProto) and `save(destination)`."""

    def __init__(self, model_proto):
        self.model_proto = model_proto

    @property
    def model(self):
        return self.model_proto

    def save(self, destination, *, include_initializers=True, keep_initializers_as_inputs=False,
             external_data=None):
        """Write the model to `destination` (a path or a binary file)."""
        proto = self.model_proto
        if not include_initializers:
            proto = type(proto)()
            proto.CopyFrom(self.model_proto)
            del proto.graph.initializer[:]
        data = proto.SerializeToString()
        if isinstance(destination, (str, os.PathLike)):
            with open(destination, "wb") as f:
                f.write(data)
        else:
            destination.write(data)

    def __repr__(self):
        import onnx
        return f"ONNXProgram(\n    model=\n{onnx.printer.to_text(self.model_proto)}\n)"
