"""Where ember's warnings point: at the user's line, as torch's do.

NOTE [ Where warnings point ]
A warning torch gives from C++ (TORCH_WARN) names the Python line that called the op, and one
it gives from Python names the frame its `stacklevel` reaches, which torch tunes so that it is
the user's call. In ember the same warnings come from Python, often a frame or two deeper than
torch's: `nn.functional`'s functions are wrapped by the tensor-like and autocast dispatch
(`_tensor_likes.py`, `amp/_policy.py`), every torch function by the registry's argument
checks. `warn` names the first frame outside ember above its caller, whichever wrappers ran
between, as Python 3.12's `skip_file_prefixes` would (3.10 and 3.11 have no such argument); a
count of frames, as `warnings.warn`'s `stacklevel`, would have to be right on every path. The
user's line matters beyond the printed text: the `default` filter shows a warning once per
line, and DeprecationWarning is shown only when it names __main__.
"""
import os
import sys
import warnings

_HOME = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message, category=UserWarning, stacklevel=2):
    """`warnings.warn(message, category)` naming the first frame outside ember above the
    caller (see the NOTE); called from outside ember, `stacklevel` counts as warnings.warn's."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_HOME):
        frame = frame.f_back
        level += 1
    if frame is None or level == 1:     # (all of the stack is ember's, or none of it)
        level = stacklevel
    warnings.warn(message, category, stacklevel=level + 1)
