"""`Timer`: timeit.Timer with torch's conventions (a thread count, warm-up, replicates)."""
import enum
import statistics
import textwrap
import timeit

from . import common

__all__ = ["Timer", "timer", "Language"]


def timer():
    """The default clock: timeit's, after waiting for the accelerator (if any) to finish."""
    import ember
    if ember.accelerator.is_available():
        ember.accelerator.synchronize()
    return timeit.default_timer()


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


class Timer:
    """Times `stmt` (a string) after running `setup` once, with `globals` (ember bound to
    `torch` unless given) and ember's thread count set to `num_threads` while it runs.
    `label`, `sub_label`, `description` and `env` name the result in its summary and in
    `Compare`'s tables. Only Python statements: `language="c++"` is refused."""

    _timer_cls = timeit.Timer

    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=timer, globals=None,
                 label=None, sub_label=None, description=None, env=None, num_threads=1,
                 language=Language.PYTHON):
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError("ember's Timer times Python statements only (no C++)")
        if language not in (Language.PYTHON, "py", "python"):
            raise ValueError(f"Invalid language `{language}`.")
        if global_setup:
            raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely "
                             "this code can simply be moved to `setup`.")
        import ember
        self._globals = dict(globals or {})
        self._globals.setdefault("torch", ember)
        self._language = Language.PYTHON
        stmt, setup = _tidy(stmt), _tidy(setup)
        self._timer = self._timer_cls(stmt=stmt, setup=setup, timer=timer,
                                      globals=self._globals)
        self._task_spec = common.TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup,
                                          label=label, sub_label=sub_label,
                                          description=description, env=env,
                                          num_threads=num_threads)

    def _timeit(self, number):
        return max(self._timer.timeit(number), 1e-9)

    def _measurement(self, number, times):
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)

    def timeit(self, number=1000000):
        """Run `stmt` `number` times (after a warm-up of number // 100 runs, at least 2): one
        measurement."""
        with common.set_torch_threads(self._task_spec.num_threads):
            self._timeit(max(int(number // 100), 2))
            return self._measurement(number, [self._timeit(number)])

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _block_size(self, min_run_time):
        """Runs per block: powers of ten from 1 until the clock's own cost (the median of five
        empty timings) is at most 1e-4 of a block lasting min_run_time / 1000 or more, or a
        block outlasts min_run_time."""
        with common.set_torch_threads(self._task_spec.num_threads):
            overhead = statistics.median([self._timeit(0) for _ in range(5)])
            number = 1
            while True:
                taken = self._timeit(number)
                if overhead / taken <= 1e-4 and taken >= min_run_time / 1000:
                    break
                if taken > min_run_time or number * 10 > 2147483647:
                    break
                number *= 10
        return number

    def _blocks(self, number, enough, min_run_time, max_run_time=None, callback=None):
        """Time blocks of `number` runs until min_run_time has passed and `enough(times)`
        (or max_run_time has passed)."""
        times, total, done = [], 0.0, False
        with common.set_torch_threads(self._task_spec.num_threads):
            while total < min_run_time or not done:
                spent = self._timeit(number)
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                done = enough(times)
                if max_run_time and total > max_run_time:
                    break
        return times

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Blocks of runs (a block size that makes the clock's cost negligible) until
        min_run_time seconds have been measured; each block is one replicate."""
        number = self._block_size(min_run_time)
        times = self._blocks(number, lambda times: True, min_run_time, callback=callback)
        return self._measurement(number, times)

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0,
                           callback=None):
        """Like blocked_autorange, but goes on until more than 3 blocks have an IQR below
        `threshold` times their median (or max_run_time seconds have passed)."""
        number = self._block_size(min_run_time=0.05)

        def enough(times):
            return len(times) > 3 and \
                self._measurement(number, times).meets_confidence(threshold=threshold)
        times = self._blocks(number, enough, min_run_time, max_run_time, callback)
        return self._measurement(number, times)


def _tidy(code):
    """Dedented, without a leading newline or trailing whitespace."""
    code = textwrap.dedent(code)
    return (code[1:] if code.startswith("\n") else code).rstrip()
