# peplin/pygatt#291/#292 (pexpect.spawn.wait() blocks forever if there is still output to be
# read; pexpect docs of wait()): the child writes more than the pty buffer holds, the parent calls
# wait() without reading: the child blocks in write() on the pty, the parent in waitpid().
# pexpect 4.9.0.
import sys, pexpect
child = pexpect.spawn(sys.executable, ["-c", "import sys; sys.stdout.write('line of output\\n' * 20000); sys.stdout.flush()"])
child.expect("line of output")
print("ready", flush=True)
child.wait()
print("done", child.exitstatus)
