"""GPU memory: statistics of CuPy's memory pool with peaks kept by ember, and torch's
out-of-memory error.

NOTE [ Memory statistics ]: ember's CUDA tensors live in CuPy's default memory pool, which
knows the bytes held by live arrays (`used_bytes`, torch's "allocated") and the bytes it holds
from the driver (`total_bytes`, torch's "reserved"). Peaks are not kept by CuPy, so on first
CUDA use ember installs a thin allocator over the pool (`cupy.cuda.set_allocator`) that keeps
the peaks, counts allocations and turns CuPy's OutOfMemoryError into ember's. Frees need no
hook: the bytes freed so far are the bytes ever allocated minus those allocated now. Sizes are
CuPy's rounded block sizes (multiples of 512 bytes), as torch's figures are its allocator's.

NOTE [ Peaks without sampling every allocation ]
CuPy's `used_bytes()` and `total_bytes()` walk every block the pool holds, so sampling them at
each allocation cost time growing with the number of live tensors (a model's parameters,
gradients and optimizer state) on every op. Neither figure needs it:
- allocated: since the last sample, the bytes in use can only have grown by what was allocated
  since (frees only lower them). The allocator keeps that bound and samples `used_bytes()`
  only when the bound passes the peak, that is, when a new peak is possible. A training loop
  below its peak samples a few times per step instead of at every allocation.
- reserved: the pool's holdings only grow until its cache is emptied, so their peak is the
  larger of the peak kept and the holdings now, read when asked; `empty_cache` records the
  holdings before it gives blocks back. (Not seen: a peak just before CuPy empties its cache
  by itself, to retry an allocation at the edge of running out of memory.)
"""

from ._backend import cupy_or_none
from ._utils import device_index, is_initialized, lazy_init, require
from .. import _warn

__all__ = ["OutOfMemoryError", "memory_allocated", "max_memory_allocated", "memory_reserved",
           "max_memory_reserved", "reset_peak_memory_stats", "reset_max_memory_allocated",
           "empty_cache", "mem_get_info", "memory_stats", "memory_stats_as_nested_dict",
           "reset_accumulated_memory_stats", "memory_summary", "memory_cached",
           "max_memory_cached", "reset_max_memory_cached", "set_per_process_memory_fraction",
           "get_per_process_memory_fraction", "caching_allocator_alloc",
           "caching_allocator_delete"]


class OutOfMemoryError(RuntimeError):
    """The GPU has no memory left for an allocation (also `ember.OutOfMemoryError`)."""


OutOfMemoryError.__module__ = "ember"


def format_size(size):
    """Bytes as torch's allocator messages print them: '512 bytes', '2.00 MiB', ..."""
    for unit, scale in (("bytes", 1), ("KiB", 2**10), ("MiB", 2**20), ("GiB", 2**30)):
        if unit == "GiB" or size <= scale * 1024:
            return f"{size} bytes" if scale == 1 else f"{size / scale:.2f} {unit}"


class _DeviceStats:
    __slots__ = ("peak_allocated", "peak_reserved", "allocated_total", "allocations",
                 "ooms", "used_bound", "used_at_reset", "fraction")

    def __init__(self):
        self.peak_allocated = self.peak_reserved = 0
        self.allocated_total = self.allocations = self.ooms = 0
        self.used_bound = 0         # bytes in use now are at most this (see the NOTE above)
        self.used_at_reset = 0      # bytes in use when the counters were last reset
        self.fraction = 1.0         # set_per_process_memory_fraction's


class _TrackingAllocator:
    """CuPy's default pool, with peaks and counters per device (NOTE [ Memory statistics ])."""

    def __init__(self, cp):
        self.cp = cp
        self.pool = cp.get_default_memory_pool()
        self.stats = {}
        self._get_device = cp.cuda.runtime.getDevice    # (malloc runs for every array)

    def device_stats(self, index):
        stats = self.stats.get(index)
        if stats is None:
            stats = self.stats[index] = _DeviceStats()
        return stats

    def malloc(self, size):
        index = self._get_device()
        stats = self.stats.get(index)
        if stats is None:
            stats = self.device_stats(index)
        try:
            ptr = self.pool.malloc(size)
        except self.cp.cuda.memory.OutOfMemoryError:
            stats.ooms += 1
            raise OutOfMemoryError(self.oom_message(size, index)) from None
        block = ptr.mem.size if hasattr(ptr, "mem") else size
        stats.allocations += 1
        stats.allocated_total += block
        bound = stats.used_bound + block
        if bound > stats.peak_allocated:        # a new peak is possible: sample
            bound = self.pool.used_bytes()
            if bound > stats.peak_allocated:
                stats.peak_allocated = bound
        stats.used_bound = bound
        return ptr

    def sample(self, index):
        """Bring device `index`'s peaks up to date with its pool now."""
        stats = self.device_stats(index)
        used, total = _pool_figures(index)
        stats.used_bound = used
        stats.peak_allocated = max(stats.peak_allocated, used)
        stats.peak_reserved = max(stats.peak_reserved, total)
        return stats, used, total

    def oom_message(self, size, index):
        free, capacity = self.cp.cuda.runtime.memGetInfo()
        used, total = self.pool.used_bytes(), self.pool.total_bytes()
        # NOTE: torch's text, less its advice on PYTORCH_CUDA_ALLOC_CONF (not ember's allocator).
        return (f"CUDA out of memory. Tried to allocate {format_size(size)}. GPU {index} has a "
                f"total capacity of {format_size(capacity)} of which {format_size(free)} is "
                f"free. Of the allocated memory {format_size(used)} is allocated by PyTorch, "
                f"and {format_size(total - used)} is reserved by PyTorch but unallocated.")


_allocator = None


def install_allocator(cp):
    """Route CuPy's allocations through ember's tracking allocator (first CUDA use)."""
    global _allocator
    if _allocator is None or _allocator.cp is not cp:
        _allocator = _TrackingAllocator(cp)
    cp.cuda.set_allocator(_allocator.malloc)
    return _allocator


def _pool_figures(index):
    """(allocated, reserved) bytes of the pool on device `index`."""
    cp = cupy_or_none()
    with cp.cuda.Device(index):
        return _allocator.pool.used_bytes(), _allocator.pool.total_bytes()


def memory_stats(device=None):
    """A dictionary of the allocator's statistics for `device` (empty before CUDA is used):
    "allocated_bytes.all.{current,peak,allocated,freed}", "reserved_bytes.all.{current,peak}",
    "allocation.all.allocated" (allocation count) and "num_ooms", sorted by key as torch's."""
    if not is_initialized() or _allocator is None:
        return {}
    index = device_index(device, optional=True)
    stats, used, total = _allocator.sample(index)
    result = {
        "allocated_bytes.all.current": used,
        "allocated_bytes.all.peak": stats.peak_allocated,
        "allocated_bytes.all.allocated": stats.allocated_total,
        "allocated_bytes.all.freed": max(stats.allocated_total + stats.used_at_reset - used, 0),
        "reserved_bytes.all.current": total,
        "reserved_bytes.all.peak": stats.peak_reserved,
        "allocation.all.allocated": stats.allocations,
        "num_ooms": stats.ooms,
    }
    return dict(sorted(result.items()))


def memory_allocated(device=None):
    """Bytes held by tensors on `device` now (0 before CUDA is used, or without a GPU)."""
    return memory_stats(device).get("allocated_bytes.all.current", 0)


def max_memory_allocated(device=None):
    """The most bytes held by tensors on `device` since start or `reset_peak_memory_stats`."""
    return memory_stats(device).get("allocated_bytes.all.peak", 0)


def memory_reserved(device=None):
    """Bytes the allocator holds from the driver on `device` (in use or cached)."""
    return memory_stats(device).get("reserved_bytes.all.current", 0)


def max_memory_reserved(device=None):
    """The most bytes the allocator has held on `device` since start or the last reset."""
    return memory_stats(device).get("reserved_bytes.all.peak", 0)


def reset_peak_memory_stats(device=None):
    """Restart the peaks of `device` from the current figures."""
    require()
    if _allocator is None or not is_initialized():
        return
    index = device_index(device, optional=True)
    stats = _allocator.device_stats(index)
    used, total = _pool_figures(index)
    stats.peak_allocated, stats.peak_reserved, stats.used_bound = used, total, used


def reset_max_memory_allocated(device=None):
    """Deprecated spelling of `reset_peak_memory_stats` (resets every peak)."""
    _warn.warn("torch.cuda.reset_max_memory_allocated now calls torch.cuda.reset_peak_"
               "memory_stats, which resets /all/ peak memory stats.", FutureWarning,
               stacklevel=2)
    return reset_peak_memory_stats(device)


def empty_cache():
    """Give the pool's cached, unused blocks back to the driver (a no-op without CUDA)."""
    if is_initialized() and _allocator is not None:
        index = device_index(None, optional=True)
        _allocator.sample(index)        # the reserved peak, before the holdings shrink
        with _allocator.cp.cuda.Device(index):
            _allocator.pool.free_all_blocks()


def mem_get_info(device=None):
    """(free, total) bytes of the GPU, as the driver reports them."""
    cp = require()
    index = device_index(device, optional=True)
    with cp.cuda.Device(index):
        free, total = cp.cuda.runtime.memGetInfo()
    return (free, total)


def memory_stats_as_nested_dict(device=None):
    """`memory_stats` with its dotted keys as nested dictionaries:
    {"allocated_bytes": {"all": {"current": ...}}, ...} ({} before CUDA is used)."""
    nested = {}
    for key, value in memory_stats(device).items():
        *path, last = key.split(".")
        node = nested
        for part in path:
            node = node.setdefault(part, {})
        node[last] = value
    return nested


def reset_accumulated_memory_stats(device=None):
    """Restart the counts of allocations and of bytes allocated and freed, and of OOMs."""
    require()
    if _allocator is None or not is_initialized():
        return
    index = device_index(device, optional=True)
    stats = _allocator.device_stats(index)
    stats.allocated_total = stats.allocations = stats.ooms = 0
    stats.used_at_reset = _pool_figures(index)[0]


def memory_cached(device=None):
    """Deprecated name of `memory_reserved`."""
    _warn.warn("`torch.cuda.memory_cached` has been renamed to `torch.cuda.memory_reserved`",
               FutureWarning, stacklevel=2)
    return memory_reserved(device)


def max_memory_cached(device=None):
    """Deprecated name of `max_memory_reserved`."""
    _warn.warn("`torch.cuda.max_memory_cached` has been renamed to "
               "`torch.cuda.max_memory_reserved`", FutureWarning, stacklevel=2)
    return max_memory_reserved(device)


def reset_max_memory_cached(device=None):
    """Deprecated spelling of `reset_peak_memory_stats` (resets every peak)."""
    _warn.warn("torch.cuda.reset_max_memory_cached now calls torch.cuda.reset_peak_"
               "memory_stats, which resets /all/ peak memory stats.", FutureWarning,
               stacklevel=2)
    return reset_peak_memory_stats(device)


def memory_summary(device=None, abbreviated=False):
    """A table of the allocator's figures for `device`, for printing. As torch's, it needs
    CUDA to have been used (before, the statistics are empty: KeyError). ember's allocator is
    CuPy's pool, so the table has its figures only, not torch's per-pool breakdown
    (`abbreviated` changes nothing)."""
    stats = memory_stats(device)
    stats["allocated_bytes.all.current"]        # (torch's KeyError when the stats are empty)
    rows = [("Allocated memory", "allocated_bytes.all", format_size),
            ("GPU reserved memory", "reserved_bytes.all", format_size)]
    width = 75
    rule = "|" + "=" * width + "|"
    line = "|" + "-" * width + "|"

    def cells(*texts):
        return "|" + "|".join(f" {t:<22}" if i == 0 else f" {t:>10} "
                              for i, t in enumerate(texts)) + "|"

    out = [rule, "|" + f"PyTorch CUDA memory summary, device ID "
           f"{device_index(device, optional=True)}".center(width) + "|", line,
           "|" + f"CUDA OOMs: {stats['num_ooms']}".center(width) + "|", rule,
           cells("Metric", "Cur Usage", "Peak Usage", "Tot Alloc", "Tot Freed"), line]
    for title, key, fmt in rows:
        figures = [stats.get(f"{key}.{k}") for k in ("current", "peak", "allocated", "freed")]
        out.append(cells(title, *("" if v is None else fmt(v) for v in figures)))
    out += [line, cells("Allocations", "", "", stats["allocation.all.allocated"], ""), rule]
    return "\n".join(out) + "\n"


def set_per_process_memory_fraction(fraction, device=None):
    """Limit the memory this process may reserve on `device` to `fraction` of the GPU's total
    (a float from 0 to 1); allocating past it raises OutOfMemoryError."""
    cp = lazy_init()
    index = device_index(device, optional=True)
    if not isinstance(fraction, float):
        raise TypeError("Invalid type for fraction argument, must be `float`")
    if fraction < 0 or fraction > 1:
        raise ValueError(f"Invalid fraction value: {fraction}. Allowed range: 0~1")
    with cp.cuda.Device(index):
        total = cp.cuda.runtime.memGetInfo()[1]
        # NOTE: CuPy reads a limit of 0 bytes as "no limit": a fraction 0 allows 1 byte.
        _allocator.pool.set_limit(size=max(int(total * fraction), 1))
    _allocator.device_stats(index).fraction = fraction


def get_per_process_memory_fraction(device=None):
    """The fraction of the GPU's memory this process may reserve (1.0 unless set)."""
    require()
    index = device_index(device, optional=True)
    return _allocator.device_stats(index).fraction if _allocator is not None else 1.0


_raw_blocks = {}        # caching_allocator_alloc's blocks by address, until deleted


def caching_allocator_alloc(size, device=None, stream=None):
    """`size` bytes from the allocator on `device` (default: the current one); returns the
    address, for `caching_allocator_delete`. (CuPy's pool serves every stream.)"""
    cp = lazy_init()
    index = device_index(device, optional=True)
    from .streams import Stream
    if stream is not None and not isinstance(stream, (int, Stream)):
        raise TypeError("Invalid type for stream argument, must be `torch.cuda.Stream` or "
                        "`int` representing a pointer to a existing stream")
    with cp.cuda.Device(index):
        block = _allocator.malloc(size)
    _raw_blocks[block.ptr] = block
    return block.ptr


def caching_allocator_delete(mem_ptr):
    """Give back memory from `caching_allocator_alloc`."""
    require()
    if _raw_blocks.pop(mem_ptr, None) is None:
        raise RuntimeError(f"invalid device pointer: {hex(mem_ptr)}")
