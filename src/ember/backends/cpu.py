"""torch.backends.cpu: which vector instructions the CPU kernels use."""


def get_cpu_capability():
    """torch's name for the widest SIMD level this CPU offers: 'AVX512' (AVX-512 F, BW, VL
    and DQ), 'AVX2' (AVX2 and FMA) or 'DEFAULT' on x86; NumPy's CPU-feature detection answers
    for the same machine torch would ask (torch's ATEN_CPU_CAPABILITY override is honoured)."""
    import os
    import numpy as np
    try:
        features = np._core._multiarray_umath.__cpu_features__
    except AttributeError:
        features = {}
    override = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    has = features.get
    best = "DEFAULT"
    if has("AVX2") and has("FMA3"):
        best = "AVX2"
        if all(has(f) for f in ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ")):
            best = "AVX512"
    if override in ("default", "avx2") and best != "DEFAULT":
        best = override.upper()
    return best
