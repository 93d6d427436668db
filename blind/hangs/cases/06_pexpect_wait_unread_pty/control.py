# Control: the fix of pygatt#292: read what the child wrote (to EOF) before wait().
import sys, pexpect
child = pexpect.spawn(sys.executable, ["-c", "import sys; sys.stdout.write('line of output\\n' * 20000); sys.stdout.flush()"])
child.expect("line of output")
print("ready", flush=True)
child.expect(pexpect.EOF, timeout=50)
child.wait()
print("done", child.exitstatus)
