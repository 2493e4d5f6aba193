"""`python -m ember.utils.bottleneck script.py [args]`: where does a script spend its time?

Runs the script twice, as torch's (1.x) bottleneck tool did: once under Python's cProfile,
once under `ember.profiler`, and prints an environment summary and both reports.
"""
import argparse
import cProfile
import io
import platform
import pstats
import runpy
import sys

__all__ = ["main", "run"]

_RULE = "-" * 80


def _section(title):
    return f"{_RULE}\n  {title}\n{_RULE}"


def environment():
    import numpy
    import ember
    try:
        cuda = ember.cuda.is_available()
    except Exception:       # the CUDA backend failed to load: report it as unavailable
        cuda = False
    return "\n".join([
        f"ember {getattr(ember, '__version__', 'unknown')} "
        f"(NumPy {numpy.__version__}); CUDA available: {cuda}",
        f"Python {platform.python_version()} on {platform.platform()}",
        "Running with Python 3 and no GPU profiling" if not cuda else
        "CUDA time is not measured separately: GPU work shows in the CPU totals"])


def _run_script(path, args):
    saved = sys.argv
    sys.argv = [path] + list(args)
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit:
        pass
    finally:
        sys.argv = saved


def run_cprofile(path, args, sort="tottime", top=15):
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        _run_script(path, args)
    finally:
        profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(sort).print_stats(top)
    return out.getvalue()


def run_ember_profiler(path, args, sort="cpu_time_total", top=15):
    from ... import profiler
    with profiler.profile() as prof:
        _run_script(path, args)
    table = prof.key_averages().table(sort_by=sort, row_limit=top)
    return f"\ttop {top} events sorted by {sort}\n\n{table}"


def run(path, args=(), top=15):
    """The report for the script at `path`, section by section (a generator of strings)."""
    yield _section("Environment Summary")
    yield environment() + "\n"
    cprofile = run_cprofile(path, args, top=top)
    yield _section("cProfile output")
    yield cprofile
    ember_report = run_ember_profiler(path, args, top=top)
    yield _section("ember.profiler output (CPU mode)")
    yield ember_report


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m ember.utils.bottleneck",
        description="Summarize where a script spends its time: cProfile and ember.profiler.")
    parser.add_argument("scriptfile", help="Path to the script to be run.")
    parser.add_argument("args", nargs=argparse.REMAINDER,
                        help="Command-line arguments to be passed to the script.")
    parser.add_argument("--top", type=int, default=15, help="rows in each report")
    ns = parser.parse_args(argv)
    print(_section("ember.utils.bottleneck"))
    print("The script runs twice (under cProfile, then under ember.profiler); its own output "
          "comes before each report.")
    for part in run(ns.scriptfile, ns.args, top=ns.top):
        print(part, flush=True)
    return 0
