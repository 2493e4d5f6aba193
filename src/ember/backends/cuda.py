"""torch.backends.cuda: cuBLAS's matmul switches and the attention kernels' toggles.

`matmul.allow_tf32` is the float32 matmul precision seen from another side, as in torch:
setting it True makes `ember.get_float32_matmul_precision()` 'high', False 'highest'.
"""
from .. import _config


class _CuBLASModule:
    """`torch.backends.cuda.matmul`: a fixed set of attributes; others raise AttributeError."""

    _FLAGS = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction",
              "allow_fp16_accumulation")

    def __init__(self):
        object.__setattr__(self, "_values", {name: name != "allow_fp16_accumulation"
                                             for name in self._FLAGS})

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _config.get_float32_matmul_precision() != "highest"
        if name in self._FLAGS:
            return self._values[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _config.set_float32_matmul_precision("high" if value else "highest")
        elif name in self._FLAGS:
            self._values[name] = value
        else:
            raise AttributeError(f"Unknown attribute {name}")


matmul = _CuBLASModule()
_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def is_built():
    """Whether torch was built with CUDA; ember's CUDA comes from CuPy at run time, so this
    answers as a CPU build of torch does."""
    return False


def flash_sdp_enabled():
    return _sdp["flash"]


def enable_flash_sdp(enabled):
    _sdp["flash"] = bool(enabled)


def mem_efficient_sdp_enabled():
    return _sdp["mem_efficient"]


def enable_mem_efficient_sdp(enabled):
    _sdp["mem_efficient"] = bool(enabled)


def math_sdp_enabled():
    return _sdp["math"]


def enable_math_sdp(enabled):
    _sdp["math"] = bool(enabled)


def cudnn_sdp_enabled():
    return _sdp["cudnn"]


def enable_cudnn_sdp(enabled):
    _sdp["cudnn"] = bool(enabled)
