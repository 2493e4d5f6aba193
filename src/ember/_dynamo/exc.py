"""ember._dynamo.exc: the exception types torch's compiler raises that ember can raise too."""

__all__ = ["TorchDynamoException", "InvalidBackend", "Unsupported"]


class TorchDynamoException(RuntimeError):
    pass


class InvalidBackend(TorchDynamoException):
    """`compile(backend=name)` with a name that no backend is registered under."""

    def __init__(self, name):
        super().__init__(f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` for "
                         "available backends.")


class Unsupported(TorchDynamoException):
    pass
