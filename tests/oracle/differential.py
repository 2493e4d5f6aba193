"""Run a snippet under real torch and under ember (`import ember as torch`) and compare what
each prints, including the type and text of any exception.

Used by the oracle tests; only importable where torch is installed.
"""
import contextlib
import io
import re
import warnings

import numpy as np
import pytest


def run(snippet, module):
    """What `snippet` prints with `torch` bound to `module` (and the exception, if any)."""
    out = io.StringIO()
    env = {"torch": module, "np": np}
    # (torch.compile turns distribution argument checks off for the whole process; a snippet
    # must not change what later snippets see)
    validate = module.distributions.Distribution._validate_args
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(snippet, env)
        except Exception as exc:  # noqa: BLE001 - the exception is the result
            print(f"!! {type(exc).__name__}: {_first_line(exc)}")
        finally:
            module.distributions.Distribution._validate_args = validate
    return re.sub(r"0x[0-9a-f]+", "0x?", out.getvalue())


def _first_line(exc):
    text = str(exc)
    # torch appends "(Triggered internally at ...)" and C++ traces to some messages, and to a
    # missing kernel's error its dispatcher's registrations (file paths of torch's build).
    text = re.split(r"\n\n\w+: registered at ", text)[0]
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


def cases(items, bugs=()):
    """pytest params of an oracle file: each snippet or program (a list gets numbered ids, a
    dict its names), then the known differences (reason, snippet) (a list, ids bug00, ...,
    or a dict by name) as strict xfails, so that a fix shows up as XPASS. A difference that
    depends on what ran before it in the process is (reason, snippet, "order-dependent"):
    a non-strict xfail."""
    named = items.items() if isinstance(items, dict) else \
        ((f"{i:03d}", s) for i, s in enumerate(items))
    params = [pytest.param(s, id=name) for name, s in named]
    known = bugs.items() if isinstance(bugs, dict) else \
        ((f"bug{i:02d}", b) for i, b in enumerate(bugs))
    params += [pytest.param(b[1], id=name, marks=pytest.mark.xfail(reason=b[0],
                                                                   strict=len(b) == 2))
               for name, b in known]
    return params


@pytest.fixture(scope="module")
def one_torch_thread():
    """torch's thread pool only slows small programs down (on a busy machine, a lot); a file
    uses it with `pytestmark = pytest.mark.usefixtures("one_torch_thread")` after importing.
    ember runs on one thread too: where torch's bits depend on its thread count (layer norm's
    weight and bias gradients), ember's follow its own (`ember.set_num_threads`)."""
    import torch
    import ember
    threads, ember_threads = torch.get_num_threads(), ember.get_num_threads()
    torch.set_num_threads(1)
    ember.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
    ember.set_num_threads(ember_threads)


def snippet_tests(snippets, bugs=(), at_least=1):
    """The two tests of a snippet file, to bind at its top level:
    `test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(...)`:
    each snippet prints as under torch (known differences as strict xfails), and the table
    holds at least `at_least` distinct snippets."""
    @pytest.mark.parametrize("snippet", cases(snippets, bugs))
    def test_snippet_prints_like_torch(snippet):
        expected, got = compare(snippet)
        assert got == expected, f"torch printed:\n{expected}\nember printed:\n{got}"

    def test_there_are_many_snippets():
        assert len(snippets) >= at_least
        assert len(set(snippets)) == len(snippets)
    return test_snippet_prints_like_torch, test_there_are_many_snippets
