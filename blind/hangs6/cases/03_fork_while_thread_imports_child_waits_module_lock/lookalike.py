# Look-alike: same shape (background import, fork, parent joins the worker); the worker's task lazily
# imports a different module that takes 16 s to load, then finishes. CPython 3.11.7.
from common import lazy_model_task, run

if __name__ == "__main__":
    run(wait_for_import_before_fork=False, target=lazy_model_task)
