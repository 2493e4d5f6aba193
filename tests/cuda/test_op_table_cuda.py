"""The operator table on the GPU (the real one where there is one, else the fake CuPy): every deterministic entry's samples, moved to 'cuda',
give the reference values and dtypes (tests/test_ops.py's checks), so that host-only code in
an op (np.asarray on device data, NumPy arrays handed to CuPy) fails in CI, not on a GPU."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ember  # noqa: E402
import op_table as T  # noqa: E402
import test_ops as S  # noqa: E402

# Known ember bugs on CUDA, found by this suite: strict xfails, so a fix shows up as XPASS.
BUGS = {}
# Entries whose run is not device-generic in the table itself, or that torch keeps CPU-only.
SKIP = {
    "type": "the legacy type name is 'torch.cuda.DoubleTensor' on CUDA, as in torch",
    "apply_": "CPU tensors only, as in torch", "map_": "CPU tensors only, as in torch",
    "map2_": "CPU tensors only, as in torch",
    "histogram": "torch.histogram has no CUDA kernel either",
    "pin_memory": "torch pins CPU tensors only: a CUDA tensor is refused "
                  "(tests/cuda/test_pinned_memory.py)",
}


def _params():
    for name, entry in T.TABLE.items():
        if entry.random:
            continue
        marks = [pytest.mark.xfail(reason=BUGS[name], strict=True)] if name in BUGS else []
        if name in SKIP:
            marks = [pytest.mark.skip(reason=SKIP[name])]
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_params()))
def test_forward_on_cuda(gpu, name):
    entry = T.TABLE[name]
    to_cuda = lambda a, p: T.tensor_of(a, ember).to("cuda")   # noqa: E731
    for sample in S._samples(entry, S._main_dtype(entry)):
        if not entry.is_supported(sample.args, sample.kwargs):
            continue
        args = T.convert(sample.args, ember, to_cuda)
        kwargs = T.convert(sample.kwargs, ember, to_cuda)
        result = entry.run(ember, args, kwargs)
        S._check_result(entry, sample, result, f"{name}{sample} on cuda")
        moves = name in ("to", "cpu") or not _tensors([args, kwargs.values()])
        for out in [] if moves else _tensors(result):
            assert out.is_cuda, f"{name}{sample}: a result left the GPU ({out.device})"


def _tensors(result):
    if isinstance(result, ember.Tensor):
        return [result]
    if isinstance(result, (tuple, list, type({}.values()))):
        return [t for r in result for t in _tensors(r)]
    return []
