# django/asgiref#249 ("Using second sync_to_async call in a task results in deadlock"): sync_to_async
# -> async_to_sync -> (create a task and await it) -> sync_to_async. Inside the task the context that
# names the current thread's executor is lost, so the inner thread-sensitive sync_to_async is queued on
# the single-thread executor whose only thread is the one running the outer sync view, which waits for
# this very task: db_write() never runs. asgiref 3.3.4 on CPython 3.11.7.
from app import run

run(in_task=True, write_seconds=0)
