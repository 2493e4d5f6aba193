"""What a Timer measures (`TaskSpec`: the statement and its labels) and what it returns
(`Measurement`: raw times per block of runs, with statistics and torch's printed summary).

NOTE [ float32 statistics ]
torch works its unit choice, significant figures and trimming out with default-dtype (float32)
tensors, so a time at a unit's edge rounds as float32 does; these helpers do the same with
NumPy float32 so that every printed digit agrees with torch's. Quantiles (median, IQR) are
float64 with linear interpolation, as torch.quantile's.
"""
import collections
import contextlib
import dataclasses
import math
import textwrap

import numpy as np

__all__ = ["TaskSpec", "Measurement", "select_unit", "unit_to_english", "trim_sigfig",
           "ordered_unique", "set_torch_threads"]

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9        # seconds
_IQR_WARN_THRESHOLD = 0.1               # IQR / median above which a summary warns
_IQR_GROSS_WARN_THRESHOLD = 0.25

_UNITS = {-3: "ns", -2: "us", -1: "ms"}
_SCALES = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}
_ENGLISH = {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}


def _log10_f32(x):
    """log10 of x as float32 (x rounded to float32 first, the result rounded once)."""
    x = float(np.float32(x))
    if x <= 0 or not math.isfinite(x):
        return float("-inf") if x == 0 else float("nan") if x < 0 or x != x else x
    return float(np.float32(math.log10(x)))


def select_unit(t):
    """(unit, seconds per unit) that shows `t` seconds with one to three leading digits."""
    exponent = _log10_f32(t)
    unit = _UNITS.get(int(exponent // 3), "s") if math.isfinite(exponent) else "s"
    return unit, _SCALES[unit]


def unit_to_english(u):
    return _ENGLISH[u]


def trim_sigfig(x, n):
    """`x` rounded to `n` significant figures (3.14159, 2 -> 3.1), in float32 as torch does."""
    if n != int(n):
        raise AssertionError("Number of significant figures must be an integer")
    magnitude = int(math.ceil(_log10_f32(abs(x))))
    scale = 10 ** (magnitude - n)
    return float(np.float32(np.round(np.float32(x / scale)) * np.float32(scale)))


def ordered_unique(elements):
    """The distinct elements, in order of first appearance."""
    return list(dict.fromkeys(elements))


@contextlib.contextmanager
def set_torch_threads(n):
    """Run the block with ember's thread count set to `n`."""
    import ember
    prior = ember.get_num_threads()
    try:
        ember.set_num_threads(n)
        yield
    finally:
        ember.set_num_threads(prior)


@dataclasses.dataclass(frozen=True, repr=False)
class TaskSpec:
    """A timed statement and the labels that name it (all but globals)."""
    stmt: str
    setup: str
    global_setup: str = ""
    label: str = None
    sub_label: str = None
    description: str = None
    env: str = None
    num_threads: int = 1

    @property
    def title(self):
        """The label (or the statement), with the sub_label after a colon."""
        suffix = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + suffix
        if "\n" not in self.stmt:
            return self.stmt + suffix
        note = f" ({self.sub_label})" if self.sub_label else ""
        return f"stmt:{note}\n{textwrap.indent(self.stmt, '  ')}"

    def setup_str(self):
        if self.setup == "pass" or not self.setup:
            return ""
        if "\n" in self.setup:
            return f"setup:\n{textwrap.indent(self.setup, '  ')}"
        return f"setup: {self.setup}"

    def summarize(self):
        """The task's lines of a Measurement's printed summary."""
        parts = [p for p in (self.title, self.description or "", self.setup_str()) if p]
        return "\n".join(p + "\n" if "\n" in p else p for p in parts)


_TASK_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(repr=False)
class Measurement:
    """Times of `number_per_run` runs each (`raw_times`, seconds) of one task. `times` are per
    run; median, mean and iqr summarize them. The task's fields (stmt, label, sub_label,
    description, env, num_threads, ...) read through."""
    number_per_run: int
    raw_times: list
    task_spec: TaskSpec
    metadata: dict = None

    def __post_init__(self):
        self._stats = None

    def __getattr__(self, name):
        if name in _TASK_FIELDS:
            return getattr(self.task_spec, name)
        raise AttributeError(f"'Measurement' object has no attribute '{name}'")

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    def _statistics(self):
        """(sorted times, median, mean, 25th and 75th percentiles, warnings), worked out once."""
        if self._stats is None and self.raw_times:
            ordered = sorted(self.times)
            values = np.asarray(ordered, dtype=np.float64)
            median, p25, p75 = (float(np.quantile(values, q)) for q in (0.5, 0.25, 0.75))
            warnings = ()
            spread = (p75 - p25) / median
            if spread >= _IQR_WARN_THRESHOLD:
                why = ("This suggests significant environmental influence."
                       if spread >= _IQR_GROSS_WARN_THRESHOLD else
                       "This could indicate system fluctuation.")
                warnings = (f"  WARNING: Interquartile range is {spread * 100:.1f}% of the "
                            f"median measurement.\n           {why}",)
            self._stats = (tuple(ordered), median, float(values.mean()), p25, p75, warnings)
        return self._stats or ((), -1.0, -1.0, -1.0, -1.0, ())

    @property
    def median(self):
        return self._statistics()[1]

    @property
    def mean(self):
        return self._statistics()[2]

    @property
    def iqr(self):
        stats = self._statistics()
        return stats[4] - stats[3]

    @property
    def significant_figures(self):
        """A rough count of trustworthy digits: the median over a 90% confidence interval of
        the interquartile times (at least 1, at most 4). See NOTE [ float32 statistics ]."""
        ordered, median = self._statistics()[:2]
        n = len(ordered)
        middle = np.asarray(ordered[n // 4:int(math.ceil(np.float32(3 * n / 4)))],
                            dtype=np.float32)
        std = float(middle.std()) if middle.size else float("nan")
        interval = max(1.645 * std / float(np.sqrt(np.float32(len(middle)))),
                       _MIN_CONFIDENCE_INTERVAL)
        figures = math.floor(np.float32(_log10_f32(median / interval)))
        return min(max(int(figures), 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self):
        return bool(self._statistics()[5])

    def meets_confidence(self, threshold=_IQR_WARN_THRESHOLD):
        return self.iqr / self.median < threshold

    @property
    def title(self):
        return self.task_spec.title

    @property
    def env(self):
        return self.task_spec.env

    @property
    def as_row_name(self):
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self):
        ordered, median, _, p25, p75, warnings = self._statistics()
        n = len(ordered)
        unit, scale = select_unit(median)
        threads = self.num_threads
        lines = [f"<torch.utils.benchmark.utils.common.Measurement object at {hex(id(self))}>",
                 self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{median / scale:.2f} {unit}"]
        if n >= 4:
            lines.append(f"  IQR:    {(p75 - p25) / scale:.2f} {unit} ({p25 / scale:.2f} to "
                         f"{p75 / scale:.2f})")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {threads} "
                     f"thread{'s' if threads > 1 else ''}")
        lines += warnings
        return "\n".join(lines).strip()

    @staticmethod
    def merge(measurements):
        """One Measurement per distinct task, its replicates' per-run times pooled
        (number_per_run 1, no metadata)."""
        pooled = collections.defaultdict(list)
        for m in measurements:
            pooled[m.task_spec].extend(m.times)
        return [Measurement(1, times, task) for task, times in pooled.items()]
