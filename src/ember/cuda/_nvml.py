"""GPU figures from NVIDIA's management library (NVML, the `nvidia-ml-py` package, imported
as `pynvml`), as torch.cuda reads them: `utilization`, `memory_usage`, `temperature`,
`power_draw`, `clock_rate`, `device_memory_used` and `list_gpu_processes`. Without the package
they raise (or, for `list_gpu_processes`, return) torch's text."""
import os

from ._utils import device_index

__all__ = ["utilization", "memory_usage", "temperature", "power_draw", "clock_rate",
           "device_memory_used", "list_gpu_processes"]

_MISSING = "nvidia-ml-py does not seem to be installed or it can't be imported."


def _pynvml():
    try:
        import pynvml
    except ImportError:
        return None
    return pynvml


def _nvml_index(device):
    """NVML counts every GPU of the machine; CUDA only those in CUDA_VISIBLE_DEVICES."""
    index = device_index(device, optional=True)
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible:
        ids = [v.strip() for v in visible.split(",")]
        if index < len(ids) and ids[index].isdigit():
            return int(ids[index])
    return index


def _handle(device):
    pynvml = _pynvml()
    if pynvml is None:
        raise ModuleNotFoundError(_MISSING)
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError_DriverNotLoaded as e:
        raise RuntimeError("cuda driver can't be loaded, is cuda enabled?") from e
    return pynvml, pynvml.nvmlDeviceGetHandleByIndex(_nvml_index(device))


def utilization(device=None):
    """Percent of the last sample period in which a kernel ran on the GPU."""
    pynvml, handle = _handle(device)
    return pynvml.nvmlDeviceGetUtilizationRates(handle).gpu


def memory_usage(device=None):
    """Percent of the last sample period in which GPU memory was read or written."""
    pynvml, handle = _handle(device)
    return pynvml.nvmlDeviceGetUtilizationRates(handle).memory


def temperature(device=None):
    """The GPU's temperature, degrees Celsius."""
    pynvml, handle = _handle(device)
    return pynvml.nvmlDeviceGetTemperature(handle, 0)        # 0: the GPU die's sensor


def power_draw(device=None):
    """The GPU's power draw, milliwatts."""
    pynvml, handle = _handle(device)
    return pynvml.nvmlDeviceGetPowerUsage(handle)


def clock_rate(device=None):
    """The streaming multiprocessors' clock, MHz."""
    pynvml, handle = _handle(device)
    return pynvml.nvmlDeviceGetClockInfo(handle, 1)          # 1: NVML_CLOCK_SM


def device_memory_used(device=None):
    """Bytes of GPU memory in use, by every process (the driver's figure)."""
    pynvml, handle = _handle(device)
    return pynvml.nvmlDeviceGetMemoryInfo(handle).used


def list_gpu_processes(device=None):
    """A readable list of the processes using the GPU and their memory (a string)."""
    pynvml = _pynvml()
    if pynvml is None:
        return "pynvml module not found, please install nvidia-ml-py"
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError_DriverNotLoaded:
        return "cuda driver can't be loaded, is cuda enabled?"
    index = _nvml_index(device)
    procs = pynvml.nvmlDeviceGetComputeRunningProcesses(pynvml.nvmlDeviceGetHandleByIndex(index))
    lines = [f"GPU:{index}"]
    if not procs:
        lines.append("no processes are running")
    for p in procs:
        lines.append(f"process {p.pid:>10d} uses {p.usedGpuMemory / 2**20:>12.3f} MB GPU memory")
    return "\n".join(lines)
