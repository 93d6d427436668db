import multiprocessing as mp
import os
import time

import numpy as np
import onnxruntime as ort


def make_session() -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.execution_mode = ort.ExecutionMode.ORT_PARALLEL
    so.inter_op_num_threads = 2
    so.intra_op_num_threads = 2
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")   # containers: no busy-waiting
    so.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return ort.InferenceSession("model.onnx", so, providers=["CPUExecutionProvider"])


SESSION = None


def worker(create_in_child: bool, seconds: float) -> None:
    global SESSION
    if create_in_child:
        SESSION = make_session()
    x = np.random.rand(256, 256).astype(np.float32)
    end = time.time() + seconds
    n = 0
    while True:
        SESSION.run(["y"], {"x": x})
        n += 1
        if time.time() >= end:
            break
    print("worker: ran", n, "inferences", flush=True)


def run(create_in_child: bool, seconds: float = 0.0) -> None:
    global SESSION
    if not os.path.exists("model.onnx"):
        import make_model  # noqa: F401
    if not create_in_child:
        SESSION = make_session()                       # gunicorn --preload: the app loads its model first
        SESSION.run(["y"], {"x": np.ones((256, 256), np.float32)})   # warm-up in the master
    ctx = mp.get_context("fork")
    w = ctx.Process(target=worker, args=(create_in_child, seconds), name="worker-1")
    w.start()
    print("ready", flush=True)
    w.join()
    print("worker exit code", w.exitcode, flush=True)
