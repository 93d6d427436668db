# Control: the fix of syslog-ng/syslog-ng#2595: the daemon has no unread pipe destination (it writes
# to a file), keeps reading /dev/log, and the job's 3000 records go through. CPython 3.11.7.
from app import run

run("file")
