"""torch.version: what the library was built with. ember is pure Python: no CUDA or ROCm
version is compiled in (its CUDA comes from CuPy at run time), so both are None, as in a CPU
build of torch."""
__version__ = "0.1.0"
cuda = None
hip = None
debug = False
git_version = None
