# syslog-ng/syslog-ng#2595 ("Syslog-ng stops logging"; resolved by removing the unread xconsole
# pipe() destination) and syslog-ng/syslog-ng#1247 ("syslog-ng held the /dev/log in a half-dead state, so
# many cronjobs waited for the syslog() function"): the daemon blocks writing to a console FIFO that
# nobody reads, stops reading /dev/log, its datagram queue fills and every logger's send() blocks.
# Here an ETL job logs through logging.handlers.SysLogHandler (a blocking AF_UNIX datagram socket, no
# timeout) to such a daemon, which runs outside the job's process tree. CPython 3.11.7.
from app import run

run("pipe")
