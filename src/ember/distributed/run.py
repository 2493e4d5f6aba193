"""The launcher, as torchrun: `python -m ember.distributed.run --nproc-per-node=2 train.py
args` starts that many copies of the script on this machine, each with RANK, LOCAL_RANK,
WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT and TORCHELASTIC_RUN_ID ("none", as
torchrun's default run id; `is_torchelastic_launched()` reads it) in its environment (so that
`init_process_group("gloo")` finds the others through "env://"), and waits for them: if one
fails, the others are stopped and the launcher exits with its code.

Several machines: run it on each with the same `--nnodes`, `--master-addr`/`--master-port`
and its own `--node-rank`. torch's elastic features (restarts, `--rdzv-*`) are not there.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

__all__ = ["main", "get_args_parser"]


def get_args_parser():
    p = argparse.ArgumentParser(prog="python -m ember.distributed.run",
                                description="Start copies of a training script, as torchrun.")
    p.add_argument("--nnodes", type=int, default=1, help="how many machines")
    p.add_argument("--nproc-per-node", "--nproc_per_node", type=int, default=1,
                   help="processes on this machine")
    p.add_argument("--node-rank", "--node_rank", type=int, default=0)
    p.add_argument("--master-addr", "--master_addr", default="127.0.0.1")
    p.add_argument("--master-port", "--master_port", type=int, default=29500)
    p.add_argument("--standalone", action="store_true",
                   help="one machine, on a free port")
    p.add_argument("-m", "--module", action="store_true",
                   help="run the script argument as a module (python -m)")
    p.add_argument("--no-python", "--no_python", action="store_true",
                   help="run the script argument as a program, not with Python")
    p.add_argument("training_script")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _free_port():
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


def _command(args, local_rank=None):
    """The command of one process; `local_rank` is passed as `--local-rank=N` (the older
    launcher's way, `launch.py`) when given."""
    extra = [] if local_rank is None else [f"--local-rank={local_rank}"]
    if args.no_python:
        return [args.training_script] + extra + args.training_script_args
    head = [sys.executable, "-u"] + (["-m"] if args.module else [])
    return head + [args.training_script] + extra + args.training_script_args


def main(argv=None, local_rank_argument=False):
    """Start the processes and wait for them; returns the exit code."""
    args = get_args_parser().parse_args(argv)
    if args.standalone:
        args.nnodes, args.node_rank, args.master_addr = 1, 0, "127.0.0.1"
        args.master_port = _free_port()
    n = args.nproc_per_node
    world = args.nnodes * n
    procs = []
    for local_rank in range(n):
        env = dict(os.environ, RANK=str(args.node_rank * n + local_rank),
                   LOCAL_RANK=str(local_rank), WORLD_SIZE=str(world),
                   LOCAL_WORLD_SIZE=str(n), GROUP_RANK=str(args.node_rank),
                   MASTER_ADDR=args.master_addr, MASTER_PORT=str(args.master_port),
                   TORCHELASTIC_RUN_ID="none")
        command = _command(args, local_rank if local_rank_argument else None)
        procs.append(subprocess.Popen(command, env=env))
    return _wait(procs)


def _wait(procs):
    """Wait for every process; at the first failure stop the rest and return its code."""
    try:
        while True:
            codes = [p.poll() for p in procs]
            failed = next((c for c in codes if c not in (None, 0)), None)
            if failed is not None:
                _stop(procs)
                return failed
            if all(c == 0 for c in codes):
                return 0
            time.sleep(0.05)
    except KeyboardInterrupt:
        _stop(procs)
        return 128 + signal.SIGINT


def _stop(procs):
    for p in procs:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 5
    for p in procs:
        try:
            p.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


if __name__ == "__main__":
    sys.exit(main())
