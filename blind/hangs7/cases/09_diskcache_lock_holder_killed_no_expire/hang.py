# grantjenks/python-diskcache#315 ("Protect Against Repeated KeyboardInterrupt Signals": an interrupted run leaves
# the cache stuck in a locked state and the next run hangs): diskcache.Lock is a key added to the SQLite-backed
# cache; with no `expire` it stays there when its holder dies. The refresh job is SIGKILLed (OOM) while holding it;
# the training job's Lock.acquire() polls cache.add() every millisecond forever. diskcache 5.6.3.
from common import run

if __name__ == "__main__":
    run(hold=0.2, expire=None, die=True)
