# The pipeline worker: connects a PULL socket to the ventilator and sums the tasks. In the hang its start-up
# fails (a missing model file) before it connects; with a delay it first loads for that many seconds.
import sys
import time

import zmq

port, mode = sys.argv[1], sys.argv[2]
if mode == "broken":
    raise SystemExit("worker: cannot load model weights: /models/ranker.bin not found")
if mode.startswith("slow"):
    for _ in range(10):
        time.sleep(float(mode[4:]) / 10)
ctx = zmq.Context()
s = ctx.socket(zmq.PULL)
s.connect(f"tcp://127.0.0.1:{port}")
total = 0
for _ in range(100):
    total += int(s.recv())
print("worker: total", total, flush=True)
