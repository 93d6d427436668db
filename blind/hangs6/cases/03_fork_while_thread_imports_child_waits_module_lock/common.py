import multiprocessing as mp
import threading

from plugins import gate


def healthcheck_server() -> None:
    # celery-healthcheck's thread: builds its web app, importing the HTTP stack on this thread
    import plugins.http_client  # noqa: F401


def task() -> None:
    # the worker's task lazily imports the HTTP client
    from plugins import http_client
    print("task:", http_client.get("/ping"), flush=True)


def lazy_model_task() -> None:
    from plugins import slow_model
    print("task:", slow_model.predict(21), flush=True)


def run(wait_for_import_before_fork: bool, target=task) -> None:
    ctx = mp.get_context("fork")                      # celery's prefork pool forks its workers
    t = threading.Thread(target=healthcheck_server, name="healthcheck")
    t.start()
    gate.started.wait(10)                             # the import is under way on the healthcheck thread
    if wait_for_import_before_fork:
        gate.proceed.set()
        t.join()
    worker = ctx.Process(target=target, name="ForkPoolWorker-1")
    worker.start()
    gate.proceed.set()                                # the parent's import then completes normally
    t.join()
    print("ready", flush=True)
    worker.join()
    print("worker exit code", worker.exitcode, flush=True)
