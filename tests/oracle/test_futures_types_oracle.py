"""torch.futures and torch.types under real torch and under ember (`import ember as torch`):
what each snippet prints, including an exception's type and first line, must be identical."""
import pytest

pytest.importorskip("torch")

from differential import snippet_tests  # noqa: E402

pytestmark = pytest.mark.oracle


def catch(expr):
    return f"try:\n    {expr}\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0][:120])"


F = "Fut = torch.futures.Future\n"

SNIPPETS = [
    F + "f = Fut(); print(f.done()); f.set_result(5); print(f.wait(), f.value(), f.done())",
    F + "f = Fut(); f.set_result(1)\n" + catch("f.set_result(2)"),
    F + "f = Fut(); f.set_result(2); g = f.then(lambda x: x.wait() * 10); print(g.wait(), g.done())",
    F + "f = Fut(); g = f.then(lambda x: x.wait() + 1); print(g.done()); f.set_result(1); print(g.wait())",
    F + "f = Fut(); f.set_exception(ValueError('boom'))\n" + catch("f.wait()") + "\n" + catch("f.value()"),
    F + "f = Fut(); f.set_exception(KeyError('k')); print(f.then(lambda x: 7).wait())",
    F + "f = Fut(); f.set_result(0); g = f.then(lambda x: 1 / x.wait())\n" + catch("g.wait()"),
    F + "f = Fut()\n" + catch("f.set_exception(5)") + "\nprint(f.done())",
    F + "out = []; f = Fut(); f.add_done_callback(lambda x: out.append(x.value())); print(out); f.set_result('v'); print(out)",
    F + "f = Fut(); f.set_result(3); out = []; f.add_done_callback(lambda x: out.append(x.wait())); print(out)",
    F + "a, b = Fut(), Fut(); c = torch.futures.collect_all([a, b]); print(c.done()); a.set_result(1); print(c.done()); b.set_result(2); print([x.wait() for x in c.wait()])",
    F + "print(torch.futures.collect_all([]).wait())",
    F + "a, b = Fut(), Fut(); a.set_result(torch.ones(2)); b.set_result(3); print(torch.futures.wait_all([a, b]))",
    F + "a, b = Fut(), Fut(); a.set_exception(RuntimeError('first')); b.set_result(1)\n" + catch("torch.futures.wait_all([a, b])"),
    F + catch("Fut(devices=['cpu'])"),
    F + "import threading, time\nf = Fut()\nthreading.Thread(target=lambda: (time.sleep(0.05), f.set_result('late'))).start()\nprint(f.wait())",
    "print(torch.types.Number, torch.types.__all__)",
    "print(isinstance(2.5, torch.types._Number), isinstance(torch.ones(1), torch.types._Number))",
    "print(isinstance(3, torch.SymInt), isinstance(2.0, torch.SymFloat), isinstance(True, torch.SymBool))",
    "import typing\nprint(typing.get_args(torch.types.Number), len(typing.get_args(torch.types.Device)))",
    "print(len(torch.types.py_sym_types), [c.__name__ for c in torch.types.py_sym_types])",
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, at_least=20)
