import multiprocessing as mp
import subprocess
import sys

import fsspec


def load_shard(url: str, reset_loop: bool) -> None:
    if reset_loop:
        # the workaround of fsspec/gcsfs#379: drop the parent's loop and IO thread in the child
        from fsspec import asyn
        asyn.iothread[0] = None
        asyn.loop[0] = None
    fs = fsspec.filesystem("http", skip_instance_cache=True)
    data = fs.cat(url)
    print("worker: read", len(data), "bytes", flush=True)


def run(delay: float = 0.0, reset_loop: bool = False) -> None:
    server = subprocess.Popen([sys.executable, "server.py", "0", str(delay)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    port = int(server.stdout.readline())
    base = f"http://127.0.0.1:{port}/shards"
    fs = fsspec.filesystem("http")
    print("parent: shard 0 has", len(fs.cat(f"{base}/0.csv")), "bytes", flush=True)  # starts fsspecIO thread
    ctx = mp.get_context("fork")                       # a DataLoader-style worker, forked
    w = ctx.Process(target=load_shard, args=(f"{base}/1.csv", reset_loop), name="loader-1")
    w.start()
    print("ready", flush=True)
    w.join()
    print("worker exit code", w.exitcode, flush=True)
    server.terminate()
    server.wait()
