"""ember.distributed: ember has no distributed backend yet.

`is_available()` is False (as torch built without distributed support) and `is_initialized()`
False; the functions training scripts call to set up or use a process group raise a
RuntimeError that says so, where torch without distributed support would fail with an
AttributeError.
"""
__all__ = ["is_available", "is_initialized", "init_process_group", "destroy_process_group",
           "get_rank", "get_world_size", "barrier", "all_reduce", "all_gather", "broadcast",
           "reduce", "new_group"]


def is_available():
    """Whether ember can run distributed training: not yet."""
    return False


def is_initialized():
    """Whether a default process group exists: never in ember."""
    return False


def _unavailable(name):
    def fn(*args, **kwargs):
        raise RuntimeError(f"torch.distributed.{name}(): ember has no distributed backend yet "
                           f"(ember.distributed.is_available() is False); run on one process")
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.distributed.{name}; raises RuntimeError: ember has no distributed " \
                 f"backend yet."
    return fn


init_process_group = _unavailable("init_process_group")
destroy_process_group = _unavailable("destroy_process_group")
get_rank = _unavailable("get_rank")
get_world_size = _unavailable("get_world_size")
barrier = _unavailable("barrier")
all_reduce = _unavailable("all_reduce")
all_gather = _unavailable("all_gather")
broadcast = _unavailable("broadcast")
reduce = _unavailable("reduce")
new_group = _unavailable("new_group")
