# Control: the fix of alphagov/notifications-api#3901: the migration sets lock_timeout, gives up after
# 2 s and leaves the change for the next deploy. psycopg2 2.9.9 on CPython 3.11.7; PostgreSQL 15.
from migrate import run

run(reader_seconds=3600, lock_timeout='2s')
