"""torch.mps and torch.xpu on a machine with neither device, run under real torch and under
ember (`import ember as torch`): device-selection and seeding code must run unchanged, and
what needs the device must fail with torch's exception and text."""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = """def E(f):
    try:
        print(repr(f()))
    except Exception as e:
        print('!!', type(e).__name__, e)
"""

CALLS = [
    "torch.mps.is_available()", "torch.mps.device_count()", "torch.mps.manual_seed(0)",
    "torch.mps.manual_seed('x')", "torch.xpu.manual_seed('x')", "torch.mps.seed()", "torch.mps.get_rng_state()", "torch.mps.synchronize()",
    "torch.mps.empty_cache()", "torch.mps.current_allocated_memory()",
    "torch.mps.driver_allocated_memory()", "torch.mps.recommended_max_memory()",
    "torch.mps.set_per_process_memory_fraction(0.5)", "torch.backends.mps.is_available()",
    "torch.xpu.is_available()", "torch.xpu.device_count()", "torch.xpu.is_initialized()",
    "torch.xpu.manual_seed(0)", "torch.xpu.manual_seed_all(1)", "torch.xpu.seed()",
    "torch.xpu.seed_all()", "torch.xpu.empty_cache()", "torch.xpu.memory_allocated()",
    "torch.xpu.memory_reserved()", "torch.xpu.max_memory_allocated()",
    "torch.xpu.max_memory_reserved()", "torch.xpu.memory_stats()",
    "torch.xpu.is_bf16_supported()", "torch.xpu.get_rng_state_all()",
    "torch.xpu.set_rng_state_all([])", "torch.xpu.current_device()", "torch.xpu.synchronize()",
    "torch.xpu.get_device_name()", "torch.xpu.set_device(0)", "torch.xpu.init()",
    "torch.xpu.initial_seed()", "torch.xpu.get_rng_state()", "torch.xpu.mem_get_info()",
    "torch.xpu.get_device_properties()", "torch.xpu.current_stream()",
    "torch.ones(1).to('mps')", "torch.ones(1).to('xpu')", "torch.device('mps')",
    "torch.device('xpu', 1)",
]

SNIPPETS = [SETUP + f"E(lambda: {call})" for call in CALLS] + [SETUP + s for s in [
    # the device pick of recent tutorials, and a seeding helper that seeds every backend
    "device = ('cuda' if torch.cuda.is_available() else 'mps' if torch.backends.mps.is_available()\n"
    "          else 'xpu' if torch.xpu.is_available() else 'cpu')\nprint(device)",
    "def seed_everything(s):\n    torch.manual_seed(s)\n    torch.cuda.manual_seed_all(s)\n"
    "    torch.mps.manual_seed(s)\n    torch.xpu.manual_seed_all(s)\n"
    "seed_everything(3)\nprint(torch.rand(2))",
]]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, (), at_least=40)
