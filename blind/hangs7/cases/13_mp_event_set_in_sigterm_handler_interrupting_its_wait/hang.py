# python-microscope/microscope#9 ("unable to terminate deviceserver in Linux due to signal handling"): the device
# server's SIGTERM handler sets the multiprocessing.Event its main thread waits on. The signal interrupts
# exit_event.wait() (multiprocessing Condition.wait, blocked in sem_wait) and the handler's exit_event.set() ->
# notify_all() waits on the condition's woken_count semaphore for the sleeper to acknowledge, and the sleeper is the
# same, interrupted thread. The device worker (forked child) waits for the server to tell it to stop.
# CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run("set-in-handler")
