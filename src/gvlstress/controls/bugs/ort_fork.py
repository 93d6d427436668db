"""ONNX Runtime in a forked child: a session with execution_mode=ORT_PARALLEL and
inter_op_num_threads=2 ran in the parent (its pools' threads exist), the process forks (as a
gunicorn prefork server does), and the child runs the inherited session: it schedules the
graph's streams on the inter-op pool and busy-waits for them
(StreamExecutionContext::WaitAll: `while (remain_tasks_.Get()) SpinPause();`) for threads fork()
did not copy (https://github.com/microsoft/onnxruntime/issues/9800, "causes whole server to stuck
infinitely in InferenceSession#run"; https://github.com/microsoft/onnxruntime/pull/31961 only stops
the crash on destroy and says "Applications should create sessions after fork").
Control: that workaround: the child makes its own session after the fork (and leaves the
inherited one alone: destroying it joins threads the child does not have)."""

from __future__ import annotations

import os
from typing import Any

import _ready
import numpy as np

N = 256


def model() -> bytes:
    from onnx import TensorProto, helper  # type: ignore[import-not-found,import-untyped,unused-ignore]

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [N, N])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [N, N])
    nodes = [
        helper.make_node("MatMul", ["x", "x"], ["a"]),
        helper.make_node("Relu", ["a"], ["b"]),
        helper.make_node("MatMul", ["b", "x"], ["c"]),
        helper.make_node("Add", ["c", "x"], ["y"]),
    ]
    m = helper.make_model(
        helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 17)]
    )
    m.ir_version = 8
    out: bytes = m.SerializeToString()
    return out


def session() -> Any:
    import onnxruntime as ort  # type: ignore[import-not-found,import-untyped,unused-ignore]

    so = ort.SessionOptions()
    so.execution_mode = ort.ExecutionMode.ORT_PARALLEL
    so.inter_op_num_threads = 2
    so.intra_op_num_threads = 2
    return ort.InferenceSession(model(), so, providers=["CPUExecutionProvider"])


def main() -> None:
    sess = session()
    x = np.random.default_rng(0).random((N, N), dtype=np.float32)
    for _ in range(3):
        sess.run(None, {"x": x})  # the inter-op and intra-op pools' threads now exist
    pid = os.fork()
    if pid == 0:
        if _ready.control():
            session().run(None, {"x": x})  # a session (and pools) made after the fork
        else:
            sess.run(None, {"x": x})  # spins forever
        os._exit(0)
    _ready.reap_or_announce_spin(pid)


if __name__ == "__main__":
    main()
