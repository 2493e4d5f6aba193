"""ember.utils.benchmark: torch.utils.benchmark's timing tools, on ember.

`Timer` times a statement (a string run with `timeit`, ember bound to `torch` in its globals)
with warm-up, a chosen thread count and replicates; it returns a `Measurement` (raw times,
median, mean, IQR, a printed summary); `Compare` prints many measurements as one table, rows by
sub_label (or stmt), columns by description, grouped by label and thread count.

    t = Timer("x @ x", setup="x = torch.randn(64, 64)", label="matmul", description="64")
    print(t.blocked_autorange(min_run_time=0.1))

torch's C++ timing (`language="c++"`), Callgrind instruction counts and the op fuzzers are not
there: ember runs Python only.
"""
from .utils.common import (Measurement, TaskSpec, ordered_unique, select_unit,  # noqa: F401
                           set_torch_threads, trim_sigfig, unit_to_english)
from .utils.timer import Language, Timer, timer  # noqa: F401
from .utils.compare import Colorize, Compare  # noqa: F401

__all__ = ["Timer", "timer", "Language", "Measurement", "TaskSpec", "Compare", "Colorize",
           "select_unit", "unit_to_english", "trim_sigfig", "ordered_unique",
           "set_torch_threads"]
