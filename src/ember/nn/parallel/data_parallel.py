"""DataParallel: a module wrapper that runs its module on the batch, as torch's does.

Without a GPU (the common case where old training scripts wrap their model in
`nn.DataParallel`), torch's wrapper only holds the module and calls it: `device_ids` is empty,
the state_dict keys gain the `module.` prefix and `print(model)` shows the wrapper. So does
ember's. With CUDA, the module moves to `device_ids[0]` and the inputs follow it; torch would
split the batch across several GPUs and gather the results on `output_device`, ember runs the
whole batch on `device_ids[0]` and moves the result there (the same values and gradients, but
for batch norm statistics, which torch gathers from one slice).
"""
from itertools import chain

from ... import cuda
from ..._device import device as _device
from ..._tensor import Tensor
from ..modules.module import Module


def _device_indices(device_ids):
    if device_ids is None:
        device_ids = list(range(cuda.device_count()))
    return [cuda._device_index(d, True) for d in device_ids]


def _check_placement(module, src):
    for t in chain(module.parameters(), module.buffers()):
        if t.device != src:
            raise RuntimeError(f"module must have its parameters and buffers on device {src} "
                               f"(device_ids[0]) but found one of them on device: {t.device}")


def _to(obj, dev):
    """`obj` with every tensor in it (through tuples, lists and dicts) moved to `dev`."""
    if isinstance(obj, Tensor):
        return obj.to(dev)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):         # a namedtuple
        return type(obj)(*(_to(x, dev) for x in obj))
    if isinstance(obj, (tuple, list)):
        return type(obj)(_to(x, dev) for x in obj)
    if isinstance(obj, dict):
        return type(obj)((k, _to(v, dev)) for k, v in obj.items())
    return obj


def _run(module, inputs, kwargs, device_ids, output_device):
    src = _device("cuda", device_ids[0])
    _check_placement(module, src)
    result = module(*_to(inputs, src), **_to(kwargs or {}, src))
    if output_device != device_ids[0]:
        out = "cpu" if output_device == -1 else _device("cuda", output_device)
        result = _to(result, out)
    return result


class DataParallel(Module):
    """torch.nn.DataParallel (see the module docstring for what ember does with several GPUs)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if not cuda.is_available():
            self.module = module
            self.device_ids = []
            return
        device_ids = _device_indices(device_ids)
        if not device_ids:
            raise RuntimeError("no available devices were found")
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = device_ids
        self.output_device = cuda._device_index(output_device, True)
        self.src_device_obj = _device("cuda", device_ids[0])
        if len(device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        return _run(self.module, inputs, kwargs, self.device_ids, self.output_device)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0,
                  module_kwargs=None):
    """The functional DataParallel: `module(*inputs)` on `device_ids[0]`, the result on
    `output_device` (-1: the CPU). It needs a GPU, as torch's does."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    if not cuda.is_available():
        raise RuntimeError("device type could not be determined")
    device_ids = _device_indices(device_ids)
    if not device_ids:
        raise RuntimeError("no available devices were found")
    output_device = device_ids[0] if output_device is None else \
        cuda._device_index(output_device, True)
    return _run(module, inputs, module_kwargs, device_ids, output_device)
