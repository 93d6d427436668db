# un-fao/GeoID#1233 ("an idle-in-transaction reader holding an AccessShareLock on catalog.catalogs ... an
# active ALTER TABLE catalog.catalogs ADD COLUMN IF NOT EXISTS ... waiting on an AccessExclusiveLock ... it
# waited unbounded") and alphagov/notifications-api#3901 (lock_timeout for migrations): the startup
# migration's ALTER TABLE waits, with no lock_timeout, for a lock held by another job's session that sits
# idle in transaction; that job runs outside this program's process tree and may commit some day.
# psycopg2 2.9.9 on CPython 3.11.7; PostgreSQL 15 (Debian) as a child process.
from migrate import run

run(reader_seconds=3600, lock_timeout=None)
