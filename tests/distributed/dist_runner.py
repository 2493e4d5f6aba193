"""Runs a program in a world of processes for the tests: `run_world(program, n, tmp_path)`
starts n processes (fork: they share the already imported ember, so each costs little),
joins them to one process group through a FileStore in `tmp_path`, runs
`program(rank, world_size)` in each and returns what each returned (by rank). Every wait has
a deadline; a failing or hanging rank fails the test with its traceback."""
import multiprocessing
import queue
import time
import traceback
from datetime import timedelta

import ember.distributed as dist


def _child(program, rank, world_size, init_method, results):
    try:
        dist.init_process_group("gloo", init_method=init_method, rank=rank,
                                world_size=world_size, timeout=timedelta(seconds=30))
        value = program(rank, world_size)
        dist.destroy_process_group()
        results.put((rank, True, value))
    except BaseException:
        results.put((rank, False, traceback.format_exc()))


def run_world(program, world_size, tmp_path, timeout=90, start_method="fork"):
    ctx = multiprocessing.get_context(start_method)
    results = ctx.Queue()
    init_method = f"file://{tmp_path / 'rendezvous'}"
    procs = [ctx.Process(target=_child, args=(program, r, world_size, init_method, results),
                         daemon=True) for r in range(world_size)]
    for p in procs:
        p.start()
    got = {}
    deadline = time.monotonic() + timeout
    try:
        while len(got) < world_size:
            try:
                rank, ok, value = results.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"ranks {sorted(set(range(world_size)) - set(got))} did "
                                     f"not finish within {timeout} s") from None
            if not ok:
                raise AssertionError(f"rank {rank} failed:\n{value}")
            got[rank] = value
    finally:
        for p in procs:
            p.join(max(0.1, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join()
    return [got[r] for r in range(world_size)]
