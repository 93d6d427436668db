# iloveitaly/celery-healthcheck#45 ("Import locks in forked children possible with current implementation";
# see also python/cpython#50970 for locks not reset at fork): a second thread imports modules while the
# prefork pool forks its worker; the child inherits the module's import lock (importlib's _ModuleLock) held
# by a thread that does not exist in the child, and the task's lazy import of that module waits forever.
# The parent joins the worker. CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(wait_for_import_before_fork=False)
