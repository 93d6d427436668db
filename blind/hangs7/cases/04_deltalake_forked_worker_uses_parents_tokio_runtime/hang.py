# delta-io/delta-rs#2744 ("Regression in Python multiprocessing support", deltalake 0.18.2): the parent opens a
# DeltaTable (which starts deltalake's global tokio runtime and its worker threads), then forks a worker that
# opens the table again. The forked child inherits the runtime object but none of its threads; the child's
# block_on waits for a reactor/worker that does not exist in it. The parent joins the worker. deltalake 0.18.2.
import common

if __name__ == "__main__":
    common.run(common.count_rows, None)
