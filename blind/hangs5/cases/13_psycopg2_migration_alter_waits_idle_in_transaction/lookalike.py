# Look-alike: the same unbounded ALTER TABLE (psycopg2 2.9.9, CPython 3.11.7, PostgreSQL 15); the other
# job's transaction commits 16 s after its read, the lock is granted and the migration applies.
from migrate import run

run(reader_seconds=16, lock_timeout=None)
