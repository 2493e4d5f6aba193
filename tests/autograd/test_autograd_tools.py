"""The explainers and tools around autograd: autograd.explain, utils.viz (DOT and text tree),
ember.profiler, and python -m ember.utils.bottleneck."""
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ember as torch
from ember.autograd import explain
from ember.profiler import ProfilerActivity, profile, record_function
from ember.utils.viz import DotGraph, grad_fn_tree, make_dot


# -- explain -------------------------------------------------------------------------------------

def test_explain_non_leaf_without_retain_grad():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    text = explain(y)
    assert text.startswith("This tensor is not a leaf (it was made by MulBackward0) and "
                           "retain_grad() was not called")
    y.retain_grad()
    assert "retain_grad() was called, so backward will keep its gradient" in explain(y)


def test_explain_no_grad_detach_and_integers():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = x * 2
        assert "Grad mode is off right now" in explain(y)
    assert explain(y).startswith("This tensor does not require grad")
    assert "no_grad()" in explain(y) and ".detach()" in explain(x.detach())
    assert explain(torch.arange(3)) == ("This tensor has dtype torch.int64: only floating point "
                                        "and complex tensors can require gradients, so its .grad "
                                        "stays None.")


def test_explain_leaf_reachability_and_freed_graph():
    x = torch.ones(2, requires_grad=True)
    other = torch.ones(2, requires_grad=True)
    out = (other * 3).sum()
    text = explain(x, out)
    assert text.startswith("This tensor is a leaf that requires grad")
    assert "The output was not computed from this tensor" in text
    out2 = (x.exp() * 2).sum()
    assert "not computed" not in explain(x, out2)
    out2.backward()
    text = explain(x, out2)
    assert "already accumulated a gradient" in text
    assert "The output's graph was already used by a backward without retain_graph=True" in text
    h = x.exp()
    (h * 1).sum().backward()
    assert "ExpBackward0 freed its saved tensors" in explain(h)
    with pytest.raises(TypeError, match="^explain\\(\\) expects a Tensor, but got list$"):
        explain([1])


# -- viz -----------------------------------------------------------------------------------------

def test_grad_fn_tree_text():
    w = torch.tensor([1., 2.], requires_grad=True)
    x = torch.tensor([3., 4.], requires_grad=True)
    y = (w * x).exp().sum() + (w ** 2).sum()
    assert grad_fn_tree(y, params={"w": w}) == textwrap.dedent("""\
        AddBackward0
        ├── SumBackward0
        │   └── ExpBackward0
        │       └── MulBackward0
        │           ├── AccumulateGrad  w (2)
        │           └── AccumulateGrad  (2)
        └── SumBackward0
            └── PowBackward0
                └── AccumulateGrad  w (2)  (see above)""")
    assert grad_fn_tree(w) == "(no grad_fn: a leaf tensor (2))"


def test_make_dot_source():
    w = torch.tensor([1., 2.], requires_grad=True)
    y = (w * w.detach()).exp().sum()
    dot = make_dot(y, params={"w": w}, show_saved=True)
    src = dot.source
    assert src.startswith('digraph {\n\tgraph [size="12,12"]\n\tnode [align="left" '
                          'fontname="monospace" fontsize="10"') or \
        src.startswith("digraph {")
    for name in ("SumBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad"):
        assert re.search(rf'\[label="?{name}"?\]', src), name
    assert re.search(r'label="w\n \(2\)" fillcolor="?lightblue"?', src)
    assert re.search(r'fillcolor="?darkolivegreen1"?', src)
    assert src.count("orange") == 2             # exp's result and mul's other (only w needs
    #                                             grad, so mul did not save self)
    edges = re.findall(r"(\w+) -> (\w+)", src)
    assert len(edges) >= 5
    if isinstance(dot, DotGraph):
        with pytest.raises(RuntimeError, match="needs the graphviz package"):
            dot.render()


# -- profiler ------------------------------------------------------------------------------------

def test_profiler_times_ops_nodes_and_ranges():
    x = torch.randn(16, 16, requires_grad=True)
    original_add = torch.Tensor.__add__
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("forward_pass"):
            y = (x @ x + 1).relu().sum()
        y.backward()
    assert torch.Tensor.__add__ is original_add             # instrumentation removed
    names = [e.name for e in prof.events()]
    for name in ("forward_pass", "aten::matmul", "aten::add", "aten::relu", "aten::sum",
                 "autograd::engine::evaluate_function: MmBackward0", "MmBackward0",
                 "ReluBackward0"):
        assert name in names, name
    avg = {e.key: e for e in prof.key_averages()}
    fp = avg["forward_pass"]
    assert fp.count == 1
    direct = [e for e in prof.events() if e.name in ("aten::matmul", "aten::relu")]
    assert len(direct) == 2                 # direct children of the range, in it in time
    rng = next(e for e in prof.events() if e.name == "forward_pass")
    assert all(rng.start_us <= e.start_us and e.end_us <= rng.end_us for e in direct)
    assert 0 <= fp.self_cpu_time_total <= fp.cpu_time_total - sum(e.cpu_time_total
                                                                   for e in direct) + 1e-6
    shaped = {(e.key, str(e.input_shapes)) for e in
              prof.key_averages(group_by_input_shape=True)}
    assert ("aten::matmul", "[[16, 16], [16, 16]]") in shaped


def test_profiler_table_format():
    x = torch.randn(8, 8, requires_grad=True)
    with profile() as prof:
        (x * 2).sum().backward()
    table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=3)
    lines = table.splitlines()
    assert lines[0] == lines[2] == lines[-2] and set(lines[0]) == {"-", " "}
    assert lines[1].split() == ["Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%",
                                "CPU", "total", "CPU", "time", "avg", "#", "of", "Calls"]
    assert len(lines) == 3 + 3 + 2                  # rules and header, 3 rows, rule and total
    assert re.fullmatch(r"Self CPU time total: \d+\.\d{3}(us|ms|s)", lines[-1])
    rows = lines[3:6]
    times = [re.findall(r"(\d+\.\d+)(us|ms|s)\b", r) for r in rows]   # self, total, avg
    totals = [float(t[1][0]) * {"us": 1, "ms": 1e3, "s": 1e6}[t[1][1]] for t in times]
    assert totals == sorted(totals, reverse=True)
    name_width = len(lines[0].split("  ")[0])
    longest = max(len(e.key) for e in prof.key_averages())
    assert name_width == min(longest + 4, 55)


def test_profiler_costs_nothing_when_off():
    from ember.autograd.graph import _Extras
    assert not _Extras.profiling and not _Extras.observe
    with record_function("nothing"):
        pass                                        # no profile: no event, no error


def test_profiler_activity_values_as_torch():
    assert [(a.name, a.value) for a in ProfilerActivity] == [
        ("CPU", 0), ("XPU", 1), ("MTIA", 4), ("CUDA", 2), ("HPU", 3), ("PrivateUse1", 5)]



def _scheduled_run(sched, steps, **kwargs):
    """(step_num at each on_trace_ready call with the count of "mark" ranges then, the count
    left after exit) for `steps` steps, each one "mark" range."""
    calls = []

    def ready(p):
        calls.append((p.step_num, sum(e.count for e in p.key_averages() if e.key == "mark")))
    with profile(schedule=sched, on_trace_ready=ready, **kwargs) as prof:
        for _ in range(steps):
            with record_function("mark"):
                torch.ones(2) * 3
            prof.step()
    return calls, sum(e.count for e in prof.key_averages() if e.key == "mark")


def test_profiler_schedule_actions():
    from ember.profiler import ProfilerAction as A, schedule
    s = schedule(wait=2, warmup=1, active=3, repeat=2, skip_first=1)
    # step 0 skipped; then cycles of 6 steps: 2 NONE, 1 WARMUP, RECORD x2, RECORD_AND_SAVE
    assert [s(i) for i in range(8)] == [A.NONE] * 3 + [A.WARMUP] + [A.RECORD] * 2 + \
        [A.RECORD_AND_SAVE, A.NONE]
    assert s(13) is A.NONE                   # two cycles done: 1 + 12 steps
    s = schedule(wait=2, warmup=1, active=1, skip_first=1, skip_first_wait=1)
    assert [s(i) for i in range(4)] == [A.NONE, A.WARMUP, A.RECORD_AND_SAVE, A.NONE]
    with pytest.raises(AssertionError, match=r"Invalid profiler schedule arguments\. Got "
                       r"wait=0 \(need >= 0\), warmup=1 \(need >= 0\), active=0"):
        schedule(wait=0, warmup=1, active=0)
    with pytest.raises(AssertionError, match="Step must be non-negative. Got -1."):
        s(-1)
    with pytest.warns(UserWarning, match="Profiler won't be using warmup"):
        schedule(wait=1, warmup=0, active=1)


def test_profiler_trace_ready_once_per_cycle_and_at_stop_only_while_recording():
    from ember.profiler import schedule

    def sched():
        return schedule(wait=1, warmup=1, active=2, repeat=1)
    # steps 0 NONE, 1 WARMUP, 2 RECORD, 3 RECORD_AND_SAVE, then NONE for ever
    assert _scheduled_run(sched(), 1) == ([], 0)                  # stopped in WARMUP
    assert _scheduled_run(sched(), 3) == ([(3, 1)], 1)           # stopped in RECORD_AND_SAVE
    assert _scheduled_run(sched(), 8) == ([(4, 2)], 2)           # one cycle, no call at exit
    with pytest.raises(AssertionError, match="Profiler must be initialized before getting key "
                                             "averages"):
        _scheduled_run(sched(), 0)                               # never left NONE


def test_profiler_cycles_clear_events_unless_accumulating():
    from ember.profiler import schedule

    def sched():
        return schedule(wait=1, warmup=1, active=2, repeat=2)
    with pytest.warns(UserWarning, match="Profiler clears events at the end of each cycle"):
        assert _scheduled_run(sched(), 10) == ([(4, 2), (8, 2)], 2)
    assert _scheduled_run(sched(), 10, acc_events=True) == ([(4, 2), (8, 4)], 4)


def test_profiler_incorrect_schedule_warns():
    from ember.profiler import ProfilerAction as A
    actions = [A.WARMUP, A.RECORD, A.NONE, A.NONE]
    with pytest.warns(UserWarning, match="Incorrect schedule: RECORD followed by NONE"):
        calls, _ = _scheduled_run(lambda step: actions[step], 3)
    assert calls == []


def test_profiler_one_event_for_a_functional_calling_its_op():
    with profile() as prof:
        torch.nn.ReLU()(torch.ones(3))              # F.relu, which calls ember.relu
    assert [e.count for e in prof.key_averages() if e.key == "aten::relu"] == [1]


def test_profiler_recipe_sort_keys_and_unmeasured_columns():
    with profile(profile_memory=True) as prof:
        torch.ones(2, 3).sum()
    averages = prof.key_averages()
    for key in ("self_cpu_memory_usage", "cpu_memory_usage", "self_cuda_time_total",
                "cuda_time_total", "self_device_time_total"):
        assert averages.table(sort_by=key, row_limit=2).splitlines()[1].split()[0] == "Name"
    entry = next(e for e in averages if e.key == "aten::sum")
    assert (entry.device_time_total, entry.self_cpu_memory_usage, entry.flops) == (0, 0, 0)
    with pytest.raises(AttributeError):
        averages.table(sort_by="bogus")


def test_profiler_exports(tmp_path):
    import gzip
    import json
    from ember.profiler import schedule, tensorboard_trace_handler
    with profile() as prof:
        prof.add_metadata("run", "first")
        torch.ones(2) * 2
    with pytest.raises(AssertionError, match="export_stacks\\(\\) requires with_stack=True"):
        prof.export_stacks(str(tmp_path / "stacks.txt"))
    prof.export_chrome_trace(str(tmp_path / "t.json.gz"))
    with gzip.open(tmp_path / "t.json.gz", "rt") as f:
        document = json.load(f)
    assert document["run"] == "first" and "aten::mul" in [e["name"] for e in
                                                          document["traceEvents"]]
    handler = tensorboard_trace_handler(str(tmp_path / "log"), worker_name="w0")
    with profile(schedule=schedule(wait=0, warmup=1, active=1, repeat=1),
                 on_trace_ready=handler) as prof:
        for _ in range(3):
            torch.ones(2) * 2
            prof.step()
    (name,) = [p.name for p in (tmp_path / "log").iterdir()]
    assert name.startswith("w0.") and name.endswith(".pt.trace.json")

# -- bottleneck ----------------------------------------------------------------------------------

def test_bottleneck_runs_a_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import sys\nimport ember as torch\n"
                      "x = torch.randn(8, 8, requires_grad=True)\n"
                      "(x @ x).sum().backward()\nprint('args', sys.argv[1:])\n")
    env = dict(os.environ)
    src = os.path.dirname(os.path.dirname(torch.__file__))
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-m", "ember.utils.bottleneck", str(script), "7"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.count("args ['7']") == 2
    for title in ("Environment Summary", "cProfile output", "ember.profiler output (CPU mode)"):
        assert f"  {title}\n" in text
    assert "Ordered by: internal time" in text
    assert "aten::matmul" in text and "MmBackward0" in text
    assert np.isfinite(float(re.search(r"Self CPU time total: (\d+\.\d+)", text).group(1)))


def test_autograd_profiler_entry_point():
    x = torch.randn(4, 4, requires_grad=True)
    with torch.autograd.profiler.profile(record_shapes=True) as prof:
        (x.exp() * 2).sum().backward()
    keys = {e.key for e in prof.key_averages()}
    assert {"aten::exp", "aten::mul", "ExpBackward0"} <= keys
    with torch.autograd.profiler.profile(enabled=False) as off:
        x.exp()
    assert off is None                              # torch's __enter__ gives nothing then


def test_record_function_decorator_and_schedule():
    from ember.profiler import ProfilerAction, schedule

    @record_function("my_step")
    def step(x):
        return (x * 2).sum()

    with profile() as prof:
        step(torch.ones(3))
        step(torch.ones(3))
    assert {e.key: e.count for e in prof.key_averages()}["my_step"] == 2
    plan = schedule(wait=1, warmup=1, active=2, repeat=1)
    assert [plan(i) for i in range(5)] == [
        ProfilerAction.NONE, ProfilerAction.WARMUP, ProfilerAction.RECORD,
        ProfilerAction.RECORD_AND_SAVE, ProfilerAction.NONE]
    with profile(schedule=plan) as prof:
        for _ in range(5):
            step(torch.ones(3))
            prof.step()
    assert {e.key: e.count for e in prof.key_averages()}["my_step"] == 2
