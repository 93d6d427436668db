# Control: the fix advised on bpo-32115: restore the default SIGCHLD disposition before starting children
# (signal.signal(SIGCHLD, SIG_DFL)); waitpid(pid) then returns when the step exits. CPython 3.11.7.
import signal

from common import run

signal.signal(signal.SIGCHLD, signal.SIG_DFL)
run("pass", ignore_sigchld=False)
