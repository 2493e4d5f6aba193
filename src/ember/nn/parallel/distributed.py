"""DistributedDataParallel: one copy of the model per process, each on its share of the
batch, kept equal by averaging the gradients across the processes during backward.

NOTE [ DDP gradient averaging ]
At construction, rank 0's parameters and buffers are broadcast to every process. Each
forward (with gradients on and outside `no_sync()`) arms a reduction: it lists the
parameters the backward will reach (all that require grad, or, with
`find_unused_parameters`, those found by walking the outputs' graph). A post-accumulate-grad
hook on each parameter ticks it off; when the last one has its `.grad`, the gradients are
all-reduced (summed, one message per dtype, parameters in registration order) and divided
by the world size, still inside `backward()`. A parameter unused on this rank sends zeros;
one unused on every rank keeps `.grad` None. Under `no_sync()` nothing is armed, so the
gradients accumulate locally and the next synchronized backward averages the sums. torch
reduces in buckets while backward runs; ember reduces once at the end (same values).

Inside `model.join()` (NOTE [ Joining ] in distributed/algorithms/join.py) each forward first
says the process is still running (and counts the running processes), takes the buffers from
the highest running rank, and tells the group whether a gradient reduction will follow; a
process that has run out of inputs answers each of those (`_DDPJoinHook.main_hook`) and adds
zero gradients to the reduction. Gradients are divided by the initial world size, or with
`divide_by_initial_world_size=False` by the number of processes still running. Once all have
joined, every process takes the parameters and buffers of the highest rank among the last
to join.
"""
from contextlib import contextmanager

from ... import distributed as dist
from ..._creation import zeros_like
from ..._ops.joining import cat
from ..._tensor import Tensor
from ..._tensor_data import tensor
from ...autograd.grad_mode import is_grad_enabled, no_grad
from ...autograd.graph import AccumulateGrad
from ...distributed.algorithms.join import Join, Joinable, JoinHook, reduced_number
from ..modules.module import Module

__all__ = ["DistributedDataParallel"]


def _bucketed(tensors, collective):
    """Run `collective` on one flat tensor per dtype of `tensors` (in their order); yields
    (index in `tensors`, that tensor's part of the result)."""
    by_dtype = {}
    for i, t in enumerate(tensors):
        by_dtype.setdefault(t.dtype, []).append(i)
    for indices in by_dtype.values():
        flat = cat([tensors[i].detach().reshape(-1) for i in indices])
        collective(flat)
        offset = 0
        for i in indices:
            n = tensors[i].numel()
            yield i, flat[offset:offset + n].view_as(tensors[i])
            offset += n


def _broadcast_tensors(tensors, group, group_src=0):
    """Give every member the values of `tensors` of the member of group rank `group_src`."""
    src = dist.get_global_rank(group, group_src)
    with no_grad():
        for i, value in _bucketed(tensors, lambda flat: dist.broadcast(flat, src, group=group)):
            tensors[i].copy_(value)


def _output_tensors(obj):
    if isinstance(obj, Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from _output_tensors(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _output_tensors(x)


def _device_index(device):
    """A GPU's index from an int, "cuda:1" or a device."""
    if isinstance(device, int):
        return device
    from ..._device import device as as_device
    index = as_device(device).index
    return 0 if index is None else index


def _reached_leaves(outputs):
    """The ids of the leaves whose AccumulateGrad nodes the outputs' graph reaches."""
    seen, found = set(), set()
    stack = [t.grad_fn for t in _output_tensors(outputs) if t.grad_fn is not None]
    leaves = {id(t) for t in _output_tensors(outputs) if t.grad_fn is None and t.requires_grad}
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            found.add(id(node.variable))
        stack.extend(n for n, _ in node.next_functions)
    return found | leaves


class DistributedDataParallel(Module, Joinable):
    """torch.nn.parallel.DistributedDataParallel over the default group (or
    `process_group`); see NOTE [ DDP gradient averaging ].

    >>> model = DDP(model)          # after dist.init_process_group
    >>> loss_fn(model(x), y).backward()   # every rank's .grad is the average
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0,
                 broadcast_buffers=True, init_sync=True, process_group=None,
                 bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False,
                 delay_all_reduce_named_params=None, param_to_hook_all_reduce=None,
                 mixed_precision=None, device_mesh=None):
        super().__init__()
        Joinable.__init__(self)
        if not any(p.requires_grad for p in module.parameters()):
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't "
                               "have any parameter that requires a gradient.")
        self.module = module
        self._place(module, device_ids, output_device)
        self.dim = dim
        self.mixed_precision = mixed_precision
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb) * 1024 * 1024)
        self.broadcast_bucket_size = 250 * 1024 * 1024
        self.process_group = dist.group.WORLD if process_group is None else process_group
        if self.process_group is None:
            raise ValueError("Default process group has not been initialized, please make "
                             "sure to call init_process_group.")
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self._params = [p for p in dict.fromkeys(module.parameters()) if p.requires_grad]
        self._waiting = set()          # ids of parameters whose gradient has yet to come
        self._ticked = False
        self._divide_by_initial_world_size = True
        self._running = None            # inside join(): the processes still running
        if init_sync:
            _broadcast_tensors(list(module.parameters()) + list(module.buffers()),
                               self.process_group)
        for p in self._params:
            p.register_post_accumulate_grad_hook(self._grad_ready)

    def _place(self, module, device_ids, output_device):
        """torch's checks of `device_ids`/`output_device`: they name the one GPU of a
        single-GPU module; a CPU or multi-device module takes neither."""
        if device_ids is not None and len(device_ids) > 1:
            raise ValueError("device_ids can only be None or contain a single element.")
        devices = {p.device for p in module.parameters()}
        types = {d.type for d in devices}
        if len(types) != 1:
            raise ValueError(f"DistributedDataParallel's input module must be on the same type "
                             f"of devices, but input module parameters locate in {types}.")
        self.device_type = next(iter(types))
        self.is_multi_device_module = len(devices) > 1
        if not device_ids or self.device_type == "cpu" or self.is_multi_device_module:
            if device_ids or output_device:
                raise ValueError(
                    f"DistributedDataParallel device_ids and output_device arguments only work "
                    f"with single-device/multiple-device GPU modules or CPU modules, but got "
                    f"device_ids {device_ids}, output_device {output_device}, and module "
                    f"parameters {devices}.")
            self.device_ids = self.output_device = None
        else:
            self.device_ids = [_device_index(d) for d in device_ids]
            self.output_device = _device_index(device_ids[0] if output_device is None
                                               else output_device)

    @contextmanager
    def no_sync(self):
        """Backward passes of forwards run inside accumulate gradients locally; the first
        synchronized backward after them averages the sums."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old

    def join(self, divide_by_initial_world_size=True, enable=True,
             throw_on_early_termination=False):
        """A context for uneven inputs across processes (NOTE [ DDP gradient averaging ]).

        >>> with model.join():
        ...     for x, y in my_batches:     # fewer on some ranks than on others
        ...         loss_fn(model(x), y).backward(); optimizer.step()
        """
        return Join([self], enable, throw_on_early_termination,
                    divide_by_initial_world_size=divide_by_initial_world_size)

    def join_hook(self, **kwargs):
        """The hook a joined process runs to answer this module's collectives."""
        return _DDPJoinHook(self, kwargs.get("divide_by_initial_world_size", True))

    @property
    def join_device(self):
        return next(iter(self.module.parameters())).device

    @property
    def join_process_group(self):
        return self.process_group

    def _syncs_buffers(self):
        return self.broadcast_buffers and self.require_forward_param_sync and \
            any(True for _ in self.module.buffers())

    def _common_rank(self, candidate):
        """The highest group rank among the processes for which `candidate` is true."""
        group = self.process_group
        return int(reduced_number(dist.get_rank(group) if candidate else -1, group,
                                  op=dist.ReduceOp.MAX))

    def _sync_buffers(self, running=True):
        """Every process takes the buffers of group rank 0, or inside join() those of the
        highest running rank."""
        src = self._common_rank(running) if self._join_config.enable else 0
        _broadcast_tensors(list(self.module.buffers()), self.process_group, src)

    def forward(self, *inputs, **kwargs):
        if self._waiting and self._ticked:
            self._unfinished_reduction()
        joining = self._join_config.enable
        if joining:
            work = Join.notify_join_context(self)
            if work is not None:
                work.wait()
                self._running = int(work.result()[0].item())
        if self._syncs_buffers():
            self._sync_buffers()
        sync = is_grad_enabled() and self.require_backward_grad_sync
        if joining:
            reduced_number(int(sync), self.process_group)     # (tells the joined ones)
        outputs = self.module(*inputs, **kwargs)
        self._waiting, self._ticked = set(), False
        if sync:
            if self.find_unused_parameters:
                reached = _reached_leaves(outputs)
                self._waiting = {id(p) for p in self._params if id(p) in reached}
                if not self._waiting:
                    self._reduce()
            else:
                self._waiting = {id(p) for p in self._params}
        return outputs

    def _unfinished_reduction(self):
        missing = " ".join(str(i) for i, p in enumerate(self._params) if id(p) in self._waiting)
        raise RuntimeError(
            "Expected to have finished reduction in the prior iteration before starting a new "
            "one. This error indicates that your module has parameters that were not used in "
            "producing loss. You can enable unused parameter detection by passing the keyword "
            "argument `find_unused_parameters=True` to "
            "`torch.nn.parallel.DistributedDataParallel`, and by \nmaking sure all `forward` "
            "function outputs participate in calculating loss. \nIf you already have done the "
            "above, then the distributed data parallel module wasn't able to locate the output "
            "tensors in the return value of your module's `forward` function. Please include "
            "the loss function and the structure of the return value of `forward` of your "
            "module when reporting this issue (e.g. list, dict, iterable).\nParameter indices "
            f"which did not receive grad for rank {dist.get_rank(self.process_group)}: "
            f"{missing}\n In addition, you can set the environment variable "
            "TORCH_DISTRIBUTED_DEBUG to either INFO or DETAIL to print out information about "
            "which particular parameters did not receive gradient on this rank as part of this "
            "error")

    def _grad_ready(self, param):
        if id(param) not in self._waiting:
            return
        self._waiting.discard(id(param))
        self._ticked = True
        if not self._waiting:
            self._reduce()

    def _reduce(self):
        """Average the parameters' gradients across the group (NOTE [ DDP gradient
        averaging ])."""
        group = self.process_group
        n = dist.get_world_size(group)
        if self._join_config.enable and not self._divide_by_initial_world_size:
            n = self._running
        params, grads = self._reduced_gradients(joined=False)
        with no_grad():
            for i, value in _bucketed(grads, lambda flat: dist.all_reduce(flat, group=group)):
                value = value / n
                if params[i].grad is None:
                    params[i].grad = value
                else:
                    params[i].grad.copy_(value)

    def _reduced_gradients(self, joined):
        """The parameters some process has a gradient for (an all-reduce decides), and the
        gradients this process adds: its own, or zeros (none of its own, or `joined`)."""
        used = tensor([int(not joined and p.grad is not None) for p in self._params])
        dist.all_reduce(used, group=self.process_group)
        params = [p for p, count in zip(self._params, used.tolist()) if count]
        return params, [zeros_like(p) if joined or p.grad is None else p.grad for p in params]


class _DDPJoinHook(JoinHook):
    """What a joined process does for a DistributedDataParallel: the collectives of each
    forward and backward of the running processes, then the final model's sync."""

    def __init__(self, ddp, divide_by_initial_world_size):
        if not isinstance(ddp, DistributedDataParallel):
            raise AssertionError(f"DDP join hook requires passing in a DistributedDataParallel "
                                 f"instance as the state, got {type(ddp).__name__}")
        self.ddp = ddp
        ddp._divide_by_initial_world_size = divide_by_initial_world_size
        super().__init__()

    def main_hook(self):
        ddp = self.ddp
        if ddp._syncs_buffers():
            ddp._sync_buffers(running=False)
        if not reduced_number(0, ddp.process_group):    # no running process reduces
            return
        params, zeros = ddp._reduced_gradients(joined=True)
        for _ in _bucketed(zeros, lambda flat: dist.all_reduce(flat, group=ddp.process_group)):
            pass

    def post_hook(self, is_last_joiner):
        ddp = self.ddp
        src = ddp._common_rank(is_last_joiner)
        with no_grad():
            _broadcast_tensors(list(ddp.module.parameters()) + list(ddp.module.buffers()),
                               ddp.process_group, src)
