# tornadoweb/tornado#3364 ("Subprocess.wait_for_exit never resolves if process terminated before it is called"):
# a build helper waits for its step with the Popen object (p.proc.wait(), which reaps the child) and then awaits
# Subprocess.wait_for_exit() for the exit code. wait_for_exit installs tornado's SIGCHLD handler and tries
# waitpid(pid, WNOHANG): ChildProcessError (already reaped) is swallowed, the pid stays in Subprocess._waiting, and
# no SIGCHLD will ever come for it: the future never resolves; the loop idles in epoll. tornado 6.4.1.
from common import run

if __name__ == "__main__":
    run(seconds=0.2, reap_first=True)
