"""torch.backends.quantized: which engine runs quantized kernels (`engine`, default 'x86').

ember computes quantized layers as torch's x86/FBGEMM kernels do (NOTE [ Dynamic quantized
linear ]) whichever engine is named; the engine is remembered and checked, as torch checks
it, and `supported_engines` lists the names torch's x86 builds accept."""
from . import install_properties

supported_engines = ["qnnpack", "onednn", "x86", "fbgemm"]
_state = {"engine": "x86"}


def _get_engine(module):
    return _state["engine"]


def _set_engine(module, name):
    if name not in supported_engines and name != "none":
        raise RuntimeError(f"{name} is not a valid value for quantized engine")
    _state["engine"] = name


install_properties(__name__, engine=property(_get_engine, _set_engine))
