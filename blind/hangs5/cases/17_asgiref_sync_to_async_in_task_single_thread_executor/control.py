# Control: asgiref 3.8.1 (thread-sensitive calls made inside tasks run on the outer sync thread's own
# executor; django/asgiref#249 and its follow-ups), the same program; it completes. CPython 3.11.7.
from app import run

run(in_task=True, write_seconds=0)
