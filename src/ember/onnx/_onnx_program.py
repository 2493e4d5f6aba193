"""torch.onnx.ONNXProgram: what `export(..., dynamo=True)` gives back, the exported model."""
import os

__all__ = ["ONNXProgram"]


class ONNXProgram:
    """An exported model: `model_proto` (an onnx.ModelProto), `save(destination)`, and
    calling it runs the model with onnxruntime (`program(x)` gives ember tensors)."""

    def __init__(self, model_proto):
        self.model_proto = model_proto
        self._session = None

    def __call__(self, *args, **kwargs):
        """Run the model with onnxruntime on the tensor arguments (in the order of the graph's
        inputs); gives a list of tensors."""
        import numpy as np
        from .._tensor import Tensor
        from .. import from_numpy
        self.initialize_inference_session()
        tensors = [a for a in list(args) + list(kwargs.values()) if isinstance(a, Tensor)]
        names = [i.name for i in self._session.get_inputs()]
        feeds = {n: t.detach().cpu().numpy() for n, t in zip(names, tensors)}
        return [from_numpy(np.asarray(o)) for o in self._session.run(None, feeds)]

    def initialize_inference_session(self, initializer=None):
        """Start the onnxruntime session that calls run on (once)."""
        if self._session is None:
            if initializer is not None:
                self._session = initializer(self.model_proto.SerializeToString())
            else:
                import onnxruntime
                self._session = onnxruntime.InferenceSession(
                    self.model_proto.SerializeToString(), providers=["CPUExecutionProvider"])

    def release(self):
        """Drop the inference session."""
        self._session = None

    def optimize(self):
        """Kept for torch's API; does nothing (onnxruntime folds constants as it loads a model)."""

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
