"""Run a snippet under real torch and under ember (`import ember as torch`) and compare what
each prints, including the type and text of any exception.

Used by the oracle tests; only importable where torch is installed.
"""
import contextlib
import io
import re
import warnings

import numpy as np


def run(snippet, module):
    """What `snippet` prints with `torch` bound to `module` (and the exception, if any)."""
    out = io.StringIO()
    env = {"torch": module, "np": np}
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(snippet, env)
        except Exception as exc:  # noqa: BLE001 - the exception is the result
            print(f"!! {type(exc).__name__}: {_first_line(exc)}")
    return re.sub(r"0x[0-9a-f]+", "0x?", out.getvalue())


def _first_line(exc):
    text = str(exc)
    # torch appends "(Triggered internally at ...)" and C++ traces to some messages.
    return text.split("\nException raised from")[0].split(" (Triggered internally")[0]


def compare(snippet):
    """(torch's output, ember's output) for `snippet`."""
    import torch
    import ember
    return run(snippet, torch), run(snippet, ember)


def report(snippets):
    """Print every snippet whose outputs differ; return the number of differences."""
    bad = 0
    for s in snippets:
        expected, got = compare(s)
        if expected != got:
            bad += 1
            print("=" * 80)
            print(s)
            print("--- torch:")
            print(expected)
            print("--- ember:")
            print(got)
    return bad
