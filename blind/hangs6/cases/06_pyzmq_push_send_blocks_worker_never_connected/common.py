import subprocess
import sys

import zmq


def run(worker_mode: str, send_timeout_ms: int = -1) -> None:
    ctx = zmq.Context()
    push = ctx.socket(zmq.PUSH)
    push.setsockopt(zmq.SNDTIMEO, send_timeout_ms)  # -1: block (pyzmq's default)
    port = push.bind_to_random_port("tcp://127.0.0.1")
    worker = subprocess.Popen([sys.executable, "worker.py", str(port), worker_mode])
    print("ready", flush=True)
    try:
        for i in range(100):
            push.send(str(i).encode())              # a bound PUSH with no connected peer blocks in send()
    except zmq.Again:
        print("ventilator: no worker took a task in time; worker exit code", worker.poll(), flush=True)
        push.close(linger=0)
        ctx.term()
        return
    worker.wait()
    push.close()
    ctx.term()
    print("ventilator: done", flush=True)
