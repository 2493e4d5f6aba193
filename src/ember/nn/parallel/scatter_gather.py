"""torch.nn.parallel's `scatter` and `gather`: a tensor split into a slice per GPU (inside
tuples, lists and dicts), and per-GPU results joined on one device. Both need GPUs, as
torch's do: a CPU target or CPU tensors get torch's errors."""
from ... import cuda
from ..._device import device as _device
from ..._ops.joining import cat
from ..._tensor import Tensor


def _gpu_index(device):
    """The GPU index of `device` (an int, a string or a device), the CPU refused as torch's
    `_get_device_index` refuses it."""
    if not isinstance(device, int):
        device = _device(device)
        if device.type == "cpu":
            raise ValueError(f"Expected a non cpu device, but got: {device}")
    return cuda._device_index(device, True)


def scatter(inputs, target_gpus, dim=0):
    """One slice of `inputs` per device of `target_gpus`: a tensor is chunked along `dim` and
    each chunk moved to its GPU; tuples, lists and dicts are scattered element by element;
    anything else is repeated for each device."""
    def scatter_map(obj):
        if isinstance(obj, Tensor):
            indices = [_gpu_index(d) for d in target_gpus]
            return [chunk.to(_device("cuda", i))
                    for chunk, i in zip(obj.chunk(len(indices), dim), indices)]
        if isinstance(obj, tuple) and hasattr(obj, "_fields") and obj:     # a namedtuple
            return [type(obj)(*args) for args in zip(*map(scatter_map, obj))]
        if isinstance(obj, tuple) and obj:
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and obj:
            return [list(items) for items in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and obj:
            return [type(obj)(items) for items in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in target_gpus]
    return scatter_map(inputs)


def gather(outputs, target_device, dim=0):
    """The per-GPU `outputs` joined along `dim` on `target_device` (-1 or "cpu": the CPU),
    through tuples, lists and dicts."""
    def gather_map(outputs):
        out = outputs[0]
        if isinstance(out, Tensor):
            if any(o.device.type == "cpu" for o in outputs):
                raise AssertionError("Gather function not implemented for CPU tensors")
            where = "cpu" if target_device in (-1, "cpu") else \
                _device("cuda", _gpu_index(target_device))
            return cat([o.to(where) for o in outputs], dim)
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(d) for d in outputs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, gather_map([d[k] for d in outputs])) for k in out)
        if isinstance(out, tuple) and hasattr(out, "_fields"):
            return type(out)._make(map(gather_map, zip(*outputs)))
        return type(out)(map(gather_map, zip(*outputs)))
    return gather_map(outputs)
