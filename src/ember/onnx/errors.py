"""torch.onnx.errors: the exceptions of the ONNX exporter, with torch's class names and texts."""

__all__ = ["OnnxExporterError", "OnnxExporterWarning", "SymbolicValueError",
           "UnsupportedOperatorError"]


class OnnxExporterWarning(UserWarning):
    """Warnings of the ONNX exporter."""


class OnnxExporterError(RuntimeError):
    """Errors of the ONNX exporter."""


class UnsupportedOperatorError(OnnxExporterError):
    """An operator the exporter cannot express in ONNX (at this opset version)."""

    def __init__(self, name, version, supported_version):
        msg = f"Exporting the operator '{name}' to ONNX opset version {version} is not supported"
        if supported_version is not None:
            msg += (f". Support for this operator was added in version {supported_version}, "
                    "try exporting with this version")
        super().__init__(msg)


class SymbolicValueError(OnnxExporterError):
    """A value the exporter cannot translate (an argument it does not handle)."""
