# Look-alike: pexpect child that writes a few lines then works 16 s before it exits; the parent
# waits in wait() without reading.
import sys, pexpect
child = pexpect.spawn(sys.executable, ["-c", "import sys, time; sys.stdout.write('line of output\\n' * 20); sys.stdout.flush(); time.sleep(16)"])
child.expect("line of output")
print("ready", flush=True)
child.wait()
print("done", child.exitstatus)
