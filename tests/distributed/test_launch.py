"""The launcher (`python -m ember.distributed.run`) and `ember.multiprocessing.spawn` with
env:// rendezvous: fresh interpreters, so these cost a few seconds each."""
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

SRC = str(pathlib.Path(__file__).resolve().parents[2] / "src")

SCRIPT = textwrap.dedent("""
    import os, sys
    import ember, ember.distributed as dist
    dist.init_process_group("gloo")
    t = ember.tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(t)
    names = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR")
    line = " ".join(map(str, [os.environ[n] for n in names] + [t.item()] + sys.argv[1:]))
    with open(os.environ["OUT"] + "." + os.environ["RANK"], "w") as f:   # (one file each:
        f.write(line)                                                   # no interleaving)
    dist.destroy_process_group()
    sys.exit(int(os.environ["RANK"]) * int(sys.argv[1] == "fail"))
""")


def _launch(tmp_path, *args):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
               OUT=str(tmp_path / "out"))
    return subprocess.run([sys.executable, "-m", "ember.distributed.run", "--standalone",
                           "--nproc-per-node=2", str(script), *args], env=env,
                          capture_output=True, text=True, timeout=120)


def test_launcher_environment_and_exit_code(tmp_path, capfd):
    from ember.distributed.run import main
    show = 'echo "$RANK $LOCAL_RANK $WORLD_SIZE $LOCAL_WORLD_SIZE $MASTER_ADDR $MASTER_PORT $1"'
    code = main(["--nproc-per-node=3", "--master-port=1234", "--no-python", "sh", "-c",
                 show, "sh", "arg"])
    lines = sorted(capfd.readouterr().out.splitlines())
    assert code == 0 and lines == [f"{r} {r} 3 3 127.0.0.1 1234 arg" for r in range(3)]
    # the first failure's exit code; the others are stopped
    assert main(["--nproc-per-node=2", "--no-python", "sh", "-c",
                 '[ "$RANK" = 1 ] && exit 3; exec sleep 30']) == 3


def test_older_launcher_passes_the_local_rank(tmp_path):
    from ember.distributed.launch import main
    script = tmp_path / "args.py"
    # (each rank writes a file of its own: two processes printing at once may interleave)
    script.write_text("import os, sys, pathlib\n"
                      "out = pathlib.Path(__file__).with_name('out.' + os.environ['RANK'])\n"
                      "out.write_text(os.environ['RANK'] + ' ' + repr(sys.argv[1:]))\n")

    def outputs():
        return [(tmp_path / f"out.{r}").read_text() for r in range(2)]
    with pytest.warns(FutureWarning, match="^The module torch.distributed.launch is "
                                           "deprecated\nand will be removed in future"):
        assert main(["--nproc-per-node=2", str(script), "x"]) == 0
    assert outputs() == ["0 ['--local-rank=0', 'x']", "1 ['--local-rank=1', 'x']"]
    with pytest.warns(FutureWarning):
        assert main(["--use-env", "--nproc-per-node=2", str(script), "x"]) == 0
    assert outputs() == ["0 ['x']", "1 ['x']"]
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="^When using the "
                                                    "'--no-python' flag, you must also set"):
        main(["--no-python", "true"])


@pytest.mark.slow
def test_launcher_runs_an_ember_script(tmp_path):
    done = _launch(tmp_path, "ok", "--lr=3")
    assert done.returncode == 0, done.stderr
    lines = [(tmp_path / f"out.{r}").read_text() for r in range(2)]
    assert lines == ["0 0 2 2 127.0.0.1 3.0 ok --lr=3", "1 1 2 2 127.0.0.1 3.0 ok --lr=3"]


@pytest.mark.slow
def test_launcher_passes_on_a_failure(tmp_path):
    assert _launch(tmp_path, "fail").returncode == 1


def _tutorial(rank, world_size, port, path):
    """torch's "Writing Distributed Applications" set-up, word for word but for the name."""
    import ember
    import ember.distributed as dist
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    t = ember.zeros(1)
    if rank == 0:
        t += 1
        dist.send(t, dst=1)
    else:
        dist.recv(t, src=0)
    pathlib.Path(f"{path}.{rank}").write_text(str(t.item()))
    dist.destroy_process_group()


@pytest.mark.slow
def test_spawn_with_env_rendezvous(tmp_path):
    import socket
    import ember.multiprocessing as mp
    with socket.socket() as s:
        s.bind(("", 0))
        port = s.getsockname()[1]
    mp.spawn(_tutorial, args=(2, port, str(tmp_path / "out")), nprocs=2)
    assert [(tmp_path / f"out.{r}").read_text() for r in range(2)] == ["1.0", "1.0"]
