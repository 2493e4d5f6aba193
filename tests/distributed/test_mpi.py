"""The "mpi" backend (optional extra `mpi`): a world started by mpiexec, ranks from MPI.
Skipped where mpi4py or mpiexec is missing (then `is_mpi_available()` is False and
init_process_group("mpi") raises torch's error, checked in test_single_process.py)."""
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("mpi4py")
MPIEXEC = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep +
                       os.environ.get("PATH", ""))
if MPIEXEC is None:
    pytest.skip("no mpiexec", allow_module_level=True)

SRC = str(pathlib.Path(__file__).resolve().parents[2] / "src")

PROGRAM = textwrap.dedent("""
    import sys
    import ember, ember.distributed as dist
    assert dist.is_mpi_available()
    dist.init_process_group("mpi")
    rank, world = dist.get_rank(), dist.get_world_size()
    t = ember.tensor([rank + 1., 10.]); dist.all_reduce(t)
    big = ember.arange(100000.) * (rank + 1); dist.all_reduce(big)
    parts = [ember.zeros(1, dtype=ember.int64) for _ in range(world)]
    dist.all_gather(parts, ember.tensor([rank * rank]))
    objs = [None] * world; dist.all_gather_object(objs, {"r": rank})
    r = ember.zeros(1); req = dist.irecv(r, (rank - 1) % world)
    dist.send(ember.tensor([rank * 1.]), (rank + 1) % world); req.wait()
    line = " ".join(map(str, [rank, world, dist.get_backend(), t.tolist(), big[-1].item(),
                              [p.item() for p in parts], objs, r.item()]))
    with open(f"{sys.argv[1]}.{rank}", "w") as f:      # one file each: no interleaving
        f.write(line)
    dist.destroy_process_group()
""")


def test_mpi_world(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = tmp_path / "out"
    done = subprocess.run([MPIEXEC, "-n", "3", sys.executable, str(script), str(out)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    objs = [{"r": r} for r in range(3)]
    want = [f"{r} 3 mpi [6.0, 30.0] {6 * 99999.0} [0, 1, 4] {objs} {(r - 1) % 3 * 1.0}"
            for r in range(3)]
    assert [(tmp_path / f"out.{r}").read_text() for r in range(3)] == want
