# Look-alike: asgiref 3.3.4, the same sync view -> async_to_sync -> sync_to_async chain, awaited directly
# (no task), which asgiref handles; the database write takes 16 s, then the response goes out.
from app import run

run(in_task=False, write_seconds=16)
