"""ember.profiler: where time goes, as torch.profiler reports it.

`profile()` times ember's operators (`aten::mm`), backward nodes
(`autograd::engine::evaluate_function: MmBackward0`) and `record_function` ranges;
`prof.key_averages().table(sort_by="cpu_time_total")` prints torch's summary table.
See NOTE [ How the profiler sees ops ] in profiler.py.
"""
from ._events import EventList, FunctionEvent, FunctionEventAvg
from .profiler import (ProfilerAction, ProfilerActivity, kineto_available, profile,
                       record_function, schedule, supported_activities,
                       tensorboard_trace_handler)

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "EventList", "FunctionEvent", "FunctionEventAvg", "supported_activities",
           "kineto_available", "tensorboard_trace_handler"]
