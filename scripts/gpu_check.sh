#!/usr/bin/env bash
# ember on a real NVIDIA GPU: the CUDA tests, the GPU benchmarks, then the rest of the suite,
# each under its own time limit so that one slow part cannot hide the others' results.
# Run from the repository root on a machine with a GPU, CuPy, pytest-xdist (and torch for the
# benchmarks' comparison):   bash scripts/gpu_check.sh [LOG_DIR]
# Budgets (seconds) can be set with CUDA_TESTS_S, BENCH_S, PROFILE_S, LIMITS_S (0: skip),
# SUITE_S.
set -u
cd "$(dirname "$0")/.."
LOG=${1:-${OUT:-/tmp}/gpu_check}
mkdir -p "$LOG"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
WORKERS=${WORKERS:-$(( $(nproc) > 16 ? 16 : $(nproc) ))}

echo "== machine"
nvidia-smi -L 2>&1 | head -4
$PY - <<'PY' 2>&1 | tee "$LOG/env.txt"
import sys, numpy
print("python", sys.version.split()[0], "numpy", numpy.__version__)
try:
    import cupy
    print("cupy", cupy.__version__, "devices", cupy.cuda.runtime.getDeviceCount())
    try:
        import ml_dtypes
        a = cupy.asarray(numpy.ones(4, ml_dtypes.bfloat16))
        print("cupy bfloat16: yes", (a @ a).get())
    except Exception as e:
        print("cupy bfloat16: no:", type(e).__name__, str(e)[:200])
except Exception as e:
    print("cupy: missing:", e)
try:
    import torch
    print("torch", torch.__version__, "cuda", torch.cuda.is_available())
except Exception as e:
    print("torch: missing:", e)
import ember
print("ember", ember.__file__, "cuda.is_available", ember.cuda.is_available(),
      ember.cuda.get_device_name() if ember.cuda.is_available() else "")
PY

run_tests() {   # name, seconds, pytest arguments...
    local name=$1 secs=$2; shift 2
    echo "== $name (limit ${secs}s)"
    timeout -k 10 "$secs" $PY -m pytest -p no:cacheprovider -n "$WORKERS" -p no:warnings \
        --timeout 120 -rfEXs --tb=short "$@" >"$LOG/$name.log" 2>&1
    echo "exit $?"
    grep -E "^(FAILED|ERROR|XPASS)" "$LOG/$name.log" | cut -c1-230 | head -60
    tail -n 2 "$LOG/$name.log"
}

run_tests cuda_tests "${CUDA_TESTS_S:-240}" tests/cuda

echo "== benchmarks (limit ${BENCH_S:-120}s)"
timeout -k 10 "${BENCH_S:-120}" $PY benchmarks/bench_cuda.py 2>&1 | tee "$LOG/bench.log" | tail -n 60

echo "== host time of a training step (limit ${PROFILE_S:-60}s)"
timeout -k 10 "${PROFILE_S:-60}" $PY benchmarks/profile_cuda_step.py --top 40 >"$LOG/profile.log" 2>&1
grep -E "^==|own time" "$LOG/profile.log"

if [ "${LIMITS_S:-90}" != 0 ]; then       # LIMITS_S=0 leaves CuPy's own limits out
    echo "== CuPy's own limits (limit ${LIMITS_S:-90}s)"
    timeout -k 10 "${LIMITS_S:-90}" $PY benchmarks/bench_cupy_limits.py 2>&1 | tee "$LOG/limits.log"
fi

run_tests suite "${SUITE_S:-150}" tests --ignore=tests/oracle --ignore=tests/cuda
