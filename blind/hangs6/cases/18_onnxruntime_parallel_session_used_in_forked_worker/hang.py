# microsoft/onnxruntime#9800 ("Onnx runtime threading is broken in gunicorn": inter_op_num_threads >= 2 and
# ORT_PARALLEL "causes whole server to stuck infinitely in InferenceSession#run"; also #5093, and #31961 on
# inherited thread pools): the master process creates the session (and runs it), then forks its worker; the
# worker's run() hands nodes to the inherited inter-op thread pool, whose threads do not exist in the child,
# and waits for them forever. The master joins the worker. onnxruntime 1.17.1 (numpy 1.26) on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(create_in_child=False)
