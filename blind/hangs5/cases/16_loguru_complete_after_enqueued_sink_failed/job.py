import sys
import time

from loguru import logger


def run(sink_seconds, fail):
    def ship_to_collector(message):
        """The job's log sink: ships each record to the metrics collector."""
        if fail:
            raise ConnectionRefusedError("collector 10.0.3.7:5170 refused the connection")
        time.sleep(sink_seconds)

    logger.remove()
    logger.add(ship_to_collector, enqueue=True, catch=False)   # errors must not be silenced
    logger.info("epoch 3: loss=0.412")
    time.sleep(0.2)
    print("ready", flush=True)
    logger.complete()                                          # flush before exiting
    print("logs flushed", flush=True)
