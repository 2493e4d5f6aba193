"""torch.autograd.profiler's older entry points, over `ember.profiler` (see there)."""
from ..profiler._events import EventList, FunctionEvent, FunctionEventAvg
from ..profiler.profiler import profile as _profile, record_function

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg"]


class profile(_profile):
    """`with ember.autograd.profiler.profile() as prof:` (does nothing when enabled=False)."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=False, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None):
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory,
                         with_stack=with_stack)
        self.enabled = enabled
        self._traced = True         # (no schedule: one trace, from start to stop)

    @property
    def function_events(self):
        """The recorded events (an EventList), None when the profile is disabled."""
        return self.events() if self.enabled else None

    def __enter__(self):
        # (a disabled profile gives None to `with ... as prof`, as torch's)
        if not self.enabled:
            return None
        self.start()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self.stop()

    def table(self, sort_by=None, row_limit=100, **kwargs):
        return self.events().table(sort_by=sort_by, row_limit=row_limit, **kwargs)
