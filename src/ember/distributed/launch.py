"""The older launcher, as torch.distributed.launch (deprecated there in favour of torchrun,
`run.py`): the same options, and unless `--use-env` each script also gets `--local-rank=N`
as its first argument.

    python -m ember.distributed.launch --nproc-per-node=2 train.py args
"""
import sys

from . import run
from .. import _warn

__all__ = ["main"]


def main(argv=None):
    """Start the processes as `run.main` does; returns the exit code."""
    _warn.warn("The module torch.distributed.launch is deprecated\nand will be removed in "
               "future. Use torchrun.\nNote that --use-env is set by default in torchrun.\n"
               "If your script expects `--local-rank` argument to be set, please\nchange it "
               "to read from `os.environ['LOCAL_RANK']` instead. See \nhttps://pytorch.org/"
               "docs/stable/distributed.html#launch-utility for \nfurther instructions\n",
               FutureWarning, stacklevel=2)
    argv = list(sys.argv[1:] if argv is None else argv)
    use_env = False
    for flag in ("--use-env", "--use_env"):
        while flag in argv[:_script_index(argv)]:
            argv.remove(flag)
            use_env = True
    flags = argv[:_script_index(argv)]
    if ("--no-python" in flags or "--no_python" in flags) and not use_env:
        raise ValueError("When using the '--no-python' flag, you must also set the "
                         "'--use-env' flag.")
    return run.main(argv, local_rank_argument=not use_env)


def _script_index(argv):
    """Where the script's own arguments start (the launcher's flags come before)."""
    for i, a in enumerate(argv):
        if not a.startswith("-"):
            return i
    return len(argv)


if __name__ == "__main__":
    sys.exit(main())
