# Look-alike: the same single-threaded Flask 0.12.5 server whose /page view fetches from a separate
# inventory service (another process) that answers after 16 s; the page is then served. CPython 3.8.18.
from common import run

run(upstream_delay=16.0)
