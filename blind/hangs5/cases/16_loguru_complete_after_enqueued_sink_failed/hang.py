# Delgan/loguru#647 ("Calling logger.complete() hangs forever when sink failed if enqueue=True and
# catch=False"): the enqueued sink raised, the exception ended loguru's writer thread, and complete()
# then waits for that thread to confirm it has processed the queue. Here a training job's sink ships
# records to a metrics collector that refuses the connection. loguru 0.6.0 on CPython 3.11.7.
from job import run

run(0, fail=True)
