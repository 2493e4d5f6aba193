"""Runs one distributed program in a world of processes, under torch or ember, and prints
what each rank printed (a JSON list, by rank). Used by test_distributed_oracle.py:

    python distributed_world.py MODULE WORLD_SIZE PROGRAM_FILE RENDEZVOUS_DIR

The module is imported as `torch` before the processes are forked (so each costs little);
each joins the group through a file:// rendezvous, runs the program with `torch`, `dist`,
`rank`, `world` and `catch` (prints "!! Type: text" of an exception) in scope."""
import contextlib
import io
import json
import multiprocessing
import queue
import sys
import traceback
from datetime import timedelta


def catch(fn):
    try:
        fn()
    except Exception as e:              # the exception is the result
        text = str(e).split("\nException raised from")[0]
        print(f"!! {type(e).__name__}: {text}")


def child(module_name, rank, world, program, rdv, results):
    torch = sys.modules[module_name]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            torch.distributed.init_process_group(
                "gloo", init_method=f"file://{rdv}/store", rank=rank, world_size=world,
                timeout=timedelta(seconds=30))
            exec(program, {"torch": torch, "dist": torch.distributed, "rank": rank,
                           "world": world, "catch": catch})
            torch.distributed.destroy_process_group()
    except BaseException:
        out.write("FAILED\n" + traceback.format_exc())
    results.put((rank, out.getvalue()))


def main():
    module_name, world, path, rdv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    __import__(module_name)
    import warnings
    warnings.simplefilter("ignore")
    program = open(path).read()
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    procs = [ctx.Process(target=child, args=(module_name, r, world, program, rdv, results),
                         daemon=True) for r in range(world)]
    for p in procs:
        p.start()
    outs = {}
    try:
        for _ in range(world):
            rank, text = results.get(timeout=120)
            outs[rank] = text
    except queue.Empty:
        pass
    for p in procs:
        p.join(5)
        if p.is_alive():
            p.kill()
    print(json.dumps([outs.get(r, "DID NOT FINISH") for r in range(world)]))


if __name__ == "__main__":
    main()
